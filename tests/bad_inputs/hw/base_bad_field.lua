-- a field given beside the base is still checked
return { base = "h100-sxm", hbm_bw = -1 }
