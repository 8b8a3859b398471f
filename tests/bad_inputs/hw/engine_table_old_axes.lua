-- a prefill attention table in the layout before issue 12's streams/group axes
return { name = "x", flops = { bf16 = 1e15 }, hbm_bytes = 8e10, hbm_bw = 3e12,
  engines = { bench = { tables = { prefill_attention = { bfloat16 = {
    axes = { "batch", "isl", "heads", "head_dim" },
    batch = { 1 }, isl = { 128 }, heads = { 32 }, head_dim = { 128 },
    values = { 1e-5 } } } } } } }
