-- required field absent
return {
  name = "hw",
  hbm_bytes = 80e9,
  hbm_bw = 3.35e12,
}
