-- Mixtral-8x7B.  Source: mistralai/Mixtral-8x7B-v0.1 config.json (hidden_size
-- 4096, intermediate_size 14336 per expert, num_hidden_layers 32,
-- num_attention_heads 32, num_key_value_heads 8, vocab_size 32000,
-- num_local_experts 8, num_experts_per_tok 2, max_position_embeddings 32768);
-- Jiang et al. 2024, arXiv:2401.04088 (46.7B total, 12.9B active).
return {
  name = "mixtral-8x7b",
  source = "mistralai/Mixtral-8x7B-v0.1 config.json",
  layers = 32, d_model = 4096, d_ff = 14336,
  heads = 32, kv_heads = 8, head_dim = 128,
  vocab = 32000, tied_embeddings = false, mlp = "swiglu",
  norm = "rmsnorm", -- MixtralRMSNorm; config.json rms_norm_eps
  experts = 8, top_k = 2,
  max_context = 32768,
}
