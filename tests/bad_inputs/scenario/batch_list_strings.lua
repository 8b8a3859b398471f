-- a list's counts given as strings (tester34 F8: Lua turned "4" into 4)
roofline.step{ model = "llama3-8b", hw = "h100-sxm", batch = { "4", "8" }, context = 1024 }
