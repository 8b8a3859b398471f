-- negative peak
return {
  name = "hw",
  flops = { bf16 = -1 },
  hbm_bytes = 80e9,
  hbm_bw = 3.35e12,
}
