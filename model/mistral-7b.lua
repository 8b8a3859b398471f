-- Mistral-7B v0.1.  Source: mistralai/Mistral-7B-v0.1 config.json (hidden_size
-- 4096, intermediate_size 14336, num_hidden_layers 32, num_attention_heads 32,
-- num_key_value_heads 8, vocab_size 32000, max_position_embeddings 32768,
-- sliding_window 4096); Jiang et al. 2023, arXiv:2310.06825, Table 1.
return {
  name = "mistral-7b",
  source = "mistralai/Mistral-7B-v0.1 config.json",
  layers = 32, d_model = 4096, d_ff = 14336,
  heads = 32, kv_heads = 8, head_dim = 128,
  vocab = 32000, tied_embeddings = false, mlp = "swiglu",
  norm = "rmsnorm", -- MistralRMSNorm; config.json rms_norm_eps
  sliding_window = 4096, -- every layer (sliding_window in config.json)
  max_context = 32768,
}
