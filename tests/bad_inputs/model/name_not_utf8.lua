-- tester46 F3: a name that is not UTF-8 (a raw 0xff byte) reached JSON as is
return {
  name = "bad\xffname",
  layers = 32,
  d_model = 4096,
  d_ff = 14336,
  heads = 32,
  kv_heads = 8,
  head_dim = 128,
  vocab = 128256,
  max_context = 8192,
}
