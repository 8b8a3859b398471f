-- fitted costs in engines.NAME.costs beside a launch cost of 5 ms, beyond (E)'s 1 ms bound
return { name = "x", flops = { bf16 = 1e15 }, hbm_bytes = 8e10, hbm_bw = 3e12,
  engines = { bench = { costs = { decode_step_s = 0.03, launch_s = 0.005 } } } }
