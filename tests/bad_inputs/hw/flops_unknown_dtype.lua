-- fp7 is no dtype
return {
  name = "hw",
  flops = { fp7 = 1e15 },
  hbm_bytes = 80e9,
  hbm_bw = 3.35e12,
}
