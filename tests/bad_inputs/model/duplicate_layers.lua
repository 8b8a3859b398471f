-- fixRC #6: 'layers' given twice in one table; Lua would keep the 40
-- without a word ("layers = 32" in this comment and the string below are
-- not fields)
return {
  name = "m layers = 1",
  layers = 32,
  d_model = 4096,
  d_ff = 14336,
  heads = 32,
  kv_heads = 8,
  head_dim = 128,
  vocab = 128256,
  max_context = 8192,
  layers = 40,
}
