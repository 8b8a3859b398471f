-- a fitted grid whose largest value is below its smallest
return { name = "x", flops = { bf16 = 1e15 }, hbm_bytes = 8e10, hbm_bw = 3e12,
  engine_costs = { fitted_on = { grid = { tp = { 8, 2 } } } } }
