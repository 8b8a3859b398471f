-- 10^12 chips
roofline.step{ model = "llama3-8b", hw = "h100-sxm", chips = 1e12, batch = 1, context = 1024 }
