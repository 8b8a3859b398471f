-- an options table is required, not a name
roofline.ops('x')
