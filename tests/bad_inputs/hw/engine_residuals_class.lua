-- kernel-table residuals of an operator class that has no tables
return { name = "x", flops = { bf16 = 1e15 }, hbm_bytes = 8e10, hbm_bw = 3e12,
  engines = { bench = { residuals = { matmul = { held_back = 10, p5 = -0.2, p10 = -0.1, p90 = 0.1, p95 = 0.2 } } } } }
