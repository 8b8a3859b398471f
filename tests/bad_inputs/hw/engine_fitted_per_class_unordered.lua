-- fitted costs whose per-class band has p10 above p90 for prefill
return { name = "x", flops = { bf16 = 1e15 }, hbm_bytes = 8e10, hbm_bw = 3e12,
  engines = { bench = { costs = { decode_step_s = 0.03,
    band = { p5 = -0.2, p10 = -0.1, p90 = 0.1, p95 = 0.2,
      per_class = { decode = { p5 = -0.04, p10 = -0.02, p90 = 0.03, p95 = 0.05 },
                    prefill = { p5 = -0.3, p10 = 0.3, p90 = 0.25, p95 = 0.4 },
                    static = { p5 = -0.2, p10 = -0.1, p90 = 0.1, p95 = 0.2 } } } } } } }
