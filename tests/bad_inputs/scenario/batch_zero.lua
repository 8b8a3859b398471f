-- a zero batch
roofline.step{ model = "llama3-8b", hw = "h100-sxm", batch = { 1, 0 }, context = 1024 }
