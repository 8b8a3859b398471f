-- empty table
return {
  name = "hw",
  flops = {},
  hbm_bytes = 80e9,
  hbm_bw = 3.35e12,
}
