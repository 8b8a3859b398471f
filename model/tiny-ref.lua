-- tiny-ref: the reference engine's calibration/validation model (not a
-- published model).  Sized so CPU decode is memory-bound: 62.4M parameters
-- = 250 MB in fp32, far beyond a 32 MiB last-level cache; LLaMA-style GQA
-- (16 query heads, 4 KV heads of 64) and SwiGLU, as in LLaMA-2/3.
return {
  name = "tiny-ref",
  source = "roofline reference-engine test model (issue 5)",
  layers = 4, d_model = 1024, d_ff = 2816,
  heads = 16, kv_heads = 4, head_dim = 64,
  vocab = 8192, tied_embeddings = false, mlp = "swiglu",
  norm = "rmsnorm", -- the reference engine's rmsnorm (reference_engine/engine.c)
  max_context = 8192,
}
