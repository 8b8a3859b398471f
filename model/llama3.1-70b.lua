-- Llama-3.1-70B.  Source: meta-llama/Llama-3.1-70B config.json (hidden_size
-- 8192, intermediate_size 28672, num_hidden_layers 80, num_attention_heads 64,
-- num_key_value_heads 8, vocab_size 128256, tie_word_embeddings false,
-- max_position_embeddings 131072 with rope_scaling "llama3", factor 8 over the
-- original 8192); Llama 3 paper (arXiv:2407.21783) Table 3.
return {
  name = "llama3.1-70b",
  source = "meta-llama/Llama-3.1-70B config.json",
  layers = 80, d_model = 8192, d_ff = 28672,
  heads = 64, kv_heads = 8, head_dim = 128,
  vocab = 128256, tied_embeddings = false, mlp = "swiglu",
  norm = "rmsnorm", -- LlamaRMSNorm; config.json rms_norm_eps
  max_context = 131072,
}
