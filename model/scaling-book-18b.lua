-- The worked-problem model of seed 000 section 5 ("a virtual model built on
-- LLaMA-2 13B"): L 64, D 4096, F 16384, N 32, K 8, H 256 (not D/N = 128),
-- V 32128, input embedding and output projection shared.  Problem 1: about
-- 18.4e9 parameters; 262,144 bytes of int8 KV per token.
return {
  name = "scaling-book-18b",
  source = "seed 000 section 5 (Worked Problems), hyperparameter table",
  layers = 64, d_model = 4096, d_ff = 16384,
  heads = 32, kv_heads = 8, head_dim = 256,
  vocab = 32128, tied_embeddings = true, mlp = "swiglu",
  norm = "rmsnorm", -- built on LLaMA-2 13B: LlamaRMSNorm
}
