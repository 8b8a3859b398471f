-- Llama-3.1-405B.  Source: meta-llama/Llama-3.1-405B config.json (hidden_size
-- 16384, intermediate_size 53248, num_hidden_layers 126, num_attention_heads
-- 128, num_key_value_heads 8, vocab_size 128256, tie_word_embeddings false,
-- max_position_embeddings 131072); Llama 3 paper (arXiv:2407.21783) Table 3.
-- The preset llama3-405b is the same model under its older name.
return {
  name = "llama3.1-405b",
  source = "meta-llama/Llama-3.1-405B config.json",
  layers = 126, d_model = 16384, d_ff = 53248,
  heads = 128, kv_heads = 8, head_dim = 128,
  vocab = 128256, tied_embeddings = false, mlp = "swiglu",
  norm = "rmsnorm", -- LlamaRMSNorm; config.json rms_norm_eps
  max_context = 131072,
}
