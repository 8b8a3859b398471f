-- no context
roofline.step{ model = "llama3-8b", hw = "h100-sxm", batch = 1 }
