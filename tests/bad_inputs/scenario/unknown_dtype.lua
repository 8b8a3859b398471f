-- kv dtype that does not exist
roofline.step{ model = "llama3-8b", hw = "h100-sxm", batch = 1, context = 1024, kv = "int3" }
