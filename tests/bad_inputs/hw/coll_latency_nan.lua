-- a NaN latency
return {
  name = "hw",
  flops = { bf16 = 9.89e14 },
  hbm_bytes = 80e9,
  hbm_bw = 3.35e12,
  topology = "switch", ici_links = 18, ici_bw = 2.5e10, ici_latency = 2e-6,
  collectives = { source = "s", rows = { { op = "AllReduce", impl = "nccl", gpus = 8, latency_s = 0/0, bw = 2e11, floor_s = 1e-5 } } },
}
