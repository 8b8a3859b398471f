-- an options table is required
roofline.simulate(5)
