-- fitted costs whose band widening per octave names decode and prefill but not static
return { name = "x", flops = { bf16 = 1e15 }, hbm_bytes = 8e10, hbm_bw = 3e12,
  engines = { bench = { costs = { decode_step_s = 0.03,
    band = { p5 = -0.2, p10 = -0.1, p90 = 0.1, p95 = 0.2,
      per_octave = { decode = { p10_p90 = 0.1, p5_p95 = 0.1 },
                     prefill = { p10_p90 = 0.2, p5_p95 = 0.2 } } } } } } }
