-- context beyond the model's max_context (8192)
roofline.step{ model = "llama3-8b", hw = "h100-sxm", batch = 1, context = 100000 }
