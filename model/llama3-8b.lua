-- LLaMA-3-8B.  Source: meta-llama/Meta-Llama-3-8B config.json (hidden_size 4096,
-- intermediate_size 14336, num_hidden_layers 32, num_attention_heads 32,
-- num_key_value_heads 8, vocab_size 128256, max_position_embeddings 8192,
-- tie_word_embeddings false).
return {
  name = "llama3-8b",
  source = "meta-llama/Meta-Llama-3-8B config.json",
  layers = 32, d_model = 4096, d_ff = 14336,
  heads = 32, kv_heads = 8, head_dim = 128,
  vocab = 128256, tied_embeddings = false, mlp = "swiglu",
  norm = "rmsnorm", -- LlamaRMSNorm; config.json rms_norm_eps
  max_context = 8192,
}
