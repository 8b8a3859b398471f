-- an absolute path
roofline.write("/tmp/roofline_escaped.txt", "x")
