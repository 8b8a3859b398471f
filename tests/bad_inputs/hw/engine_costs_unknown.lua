-- engine_costs with a misspelt key
return { name = "x", flops = { bf16 = 1e15 }, hbm_bytes = 8e10, hbm_bw = 3e12,
  engine_costs = { decode_step = 0.03 } }
