-- tiny-test: a toy LLaMA-style model for the engine's unit tests (seconds
-- to build; GQA with 2 query heads per KV head, page-crossing contexts).
return {
  name = "tiny-test",
  source = "roofline unit-test model (issue 5)",
  layers = 2, d_model = 64, d_ff = 160,
  heads = 4, kv_heads = 2, head_dim = 16,
  vocab = 96, tied_embeddings = false, mlp = "swiglu",
  norm = "rmsnorm", -- the reference engine's rmsnorm (reference_engine/engine.c)
  max_context = 256,
}
