-- fitted costs in engines.NAME.costs with a band whose p10 lies above its p90
return { name = "x", flops = { bf16 = 1e15 }, hbm_bytes = 8e10, hbm_bw = 3e12,
  engines = { bench = { costs = { decode_step_s = 0.03,
    band = { p5 = -0.2, p10 = 0.1, p90 = -0.1, p95 = 0.2 } } } } }
