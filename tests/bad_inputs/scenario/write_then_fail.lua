-- writes one complete file, then fails: the file is kept and listed
roofline.write("done.csv", "a,b\n1,2\n")
error("failed after writing done.csv")
