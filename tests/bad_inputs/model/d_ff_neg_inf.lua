-- minus infinity
return {
  name = "m",
  layers = 32,
  d_model = 4096,
  d_ff = -math.huge,
  heads = 32,
  kv_heads = 8,
  head_dim = 128,
  vocab = 128256,
  max_context = 8192,
}
