-- an empty path component ('//')
roofline.write("a//b.csv", "x")
