-- an infinity in a result table must not be printed
print(roofline.format({ value = math.huge }, "json"))
