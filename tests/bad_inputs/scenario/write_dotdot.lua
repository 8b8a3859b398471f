-- escapes the output directory with '..'
roofline.write("../escaped.txt", "x")
