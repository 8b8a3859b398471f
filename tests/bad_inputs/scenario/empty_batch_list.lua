-- an empty list of batch sizes
roofline.step{ model = "llama3-8b", hw = "h100-sxm", batch = {}, context = 1024 }
