-- unknown topology
return {
  name = "hw",
  flops = { bf16 = 9.89e14 },
  hbm_bytes = 80e9,
  hbm_bw = 3.35e12,
  topology = "hypercube",
}
