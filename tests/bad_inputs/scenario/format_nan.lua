-- a NaN in a result table must not be printed
print(roofline.format({ rows = { { x = 0/0 } } }, "csv"))
