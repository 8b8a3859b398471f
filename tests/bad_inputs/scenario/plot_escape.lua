-- a figure name that leaves the output directory
roofline.plot{ kind = "memory", file = "../fig.png", model = "llama3-8b", hw = "h100-sxm", context = 1024 }
