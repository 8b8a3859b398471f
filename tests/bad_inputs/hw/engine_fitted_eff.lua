-- fitted costs in engines.NAME.costs with a memory efficiency above the datasheet peak
return { name = "x", flops = { bf16 = 1e15 }, hbm_bytes = 8e10, hbm_bw = 3e12,
  engines = { bench = { costs = { decode_step_s = 0.03, memory_eff = 1.5 } } } }
