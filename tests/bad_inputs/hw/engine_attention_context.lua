-- an engine's attention_context other than "mean" or "longest" (engines.h attn_longest)
return { name = "x", flops = { bf16 = 1e15 }, hbm_bytes = 8e10, hbm_bw = 3e12,
  engines = { bench = { costs = { step_s = 0, attention_context = "max" } } } }
