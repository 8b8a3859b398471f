-- d_model not a multiple of heads, no head_dim
return {
  name = "m",
  layers = 32,
  d_model = 4100,
  d_ff = 14336,
  heads = 32,
  kv_heads = 8,
  vocab = 128256,
  max_context = 8192,
}
