-- ref-1b: the reference engine's GPU validation model (not a published
-- model): 0.85B parameters = 1.7 GB in bf16, far beyond an H100/H200's
-- 50-60 MB L2, shaped like TinyLlama-1.1B (d_model 2048, d_ff 5632, GQA with
-- 4 KV heads of 128) with 16 layers so the seeded weights build in seconds.
return {
  name = "ref-1b",
  source = "roofline reference-engine GPU model (issue 5), TinyLlama-1.1B-like shapes",
  layers = 16, d_model = 2048, d_ff = 5632,
  heads = 16, kv_heads = 4, head_dim = 128,
  vocab = 32000, tied_embeddings = false, mlp = "swiglu",
  norm = "rmsnorm", -- the reference engine's rmsnorm (reference_engine/engine.c)
  max_context = 8192,
}
