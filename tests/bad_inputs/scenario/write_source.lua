-- fixNH #1: roofline.write of a source file's name into a source folder of
-- another roofline tree (run --out TREE/src), which replaced its main.c.
-- fixRD #1: --out TREE/src is refused before the script runs; from the
-- tree's top (run --out TREE) the write of main.c is refused by its name.
roofline.write("main.c", "not a source\n")
