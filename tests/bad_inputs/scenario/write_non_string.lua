-- text must be a string
roofline.write("x.txt", {})
