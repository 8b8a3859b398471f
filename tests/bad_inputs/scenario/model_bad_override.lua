-- an override with a NaN
roofline.model("llama3-8b", { layers = 0/0 })
