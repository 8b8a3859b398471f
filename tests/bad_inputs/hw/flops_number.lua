-- flops must be a table by dtype
return {
  name = "hw",
  flops = 9.89e14,
  hbm_bytes = 80e9,
  hbm_bw = 3.35e12,
}
