-- writes one complete file, then fails: the file is removed again (all or nothing)
roofline.write("done.csv", "a,b\n1,2\n")
error("failed after writing done.csv")
