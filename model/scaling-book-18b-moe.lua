-- Worked problem 5 of seed 000 section 5: the same model with every MLP
-- replaced by E = 16 experts, k = 2 per token.  About 212e9 total and 31.2e9
-- active parameters; B_crit on TPU v5e 240 * 16 / 2 = 1920.
return {
  name = "scaling-book-18b-moe",
  source = "seed 000 section 5, problem 5",
  layers = 64, d_model = 4096, d_ff = 16384,
  heads = 32, kv_heads = 8, head_dim = 256,
  vocab = 32128, tied_embeddings = true, mlp = "swiglu",
  norm = "rmsnorm", -- built on LLaMA-2 13B: LlamaRMSNorm
  experts = 16, top_k = 2,
}
