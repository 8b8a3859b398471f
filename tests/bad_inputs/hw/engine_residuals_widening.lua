-- a kernel-table widening without edge_held_back: it would be read as untuned
return { name = "x", flops = { bf16 = 1e15 }, hbm_bytes = 8e10, hbm_bw = 3e12,
  engines = { bench = { residuals = { holdout = 5,
    gemm = { held_back = 10, p5 = -0.2, p10 = -0.1, p90 = 0.1, p95 = 0.2,
             p10_p90_per_octave = { 0.05, 0.1, 0 } } } } } }
