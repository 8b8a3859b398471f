-- LLaMA-3-70B.  Source: meta-llama/Meta-Llama-3-70B config.json (hidden_size 8192,
-- intermediate_size 28672, num_hidden_layers 80, num_attention_heads 64,
-- num_key_value_heads 8, vocab_size 128256, max_position_embeddings 8192).
return {
  name = "llama3-70b",
  source = "meta-llama/Meta-Llama-3-70B config.json",
  layers = 80, d_model = 8192, d_ff = 28672,
  heads = 64, kv_heads = 8, head_dim = 128,
  vocab = 128256, tied_embeddings = false, mlp = "swiglu",
  norm = "rmsnorm", -- LlamaRMSNorm; config.json rms_norm_eps
  max_context = 8192,
}
