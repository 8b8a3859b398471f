-- an efficiency above the datasheet peak
return { name = "x", flops = { bf16 = 1e15 }, hbm_bytes = 8e10, hbm_bw = 3e12,
  engine_costs = { memory_eff = 1.5 } }
