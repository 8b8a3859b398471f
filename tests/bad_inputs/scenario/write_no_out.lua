-- writes without --out
roofline.write("x.txt", "x")
