-- fixNH #1: roofline.write of a source file's name into a source folder of
-- another roofline tree (run --out TREE/src), which replaced its main.c.
roofline.write("main.c", "not a source\n")
