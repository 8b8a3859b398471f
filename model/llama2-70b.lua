-- LLaMA-2-70B.  Source: meta-llama/Llama-2-70b-hf config.json (hidden_size 8192,
-- intermediate_size 28672, num_hidden_layers 80, num_attention_heads 64,
-- num_key_value_heads 8, vocab_size 32000, max_position_embeddings 4096).
return {
  name = "llama2-70b",
  source = "meta-llama/Llama-2-70b-hf config.json",
  layers = 80, d_model = 8192, d_ff = 28672,
  heads = 64, kv_heads = 8, head_dim = 128,
  vocab = 32000, tied_embeddings = false, mlp = "swiglu",
  norm = "rmsnorm", -- LlamaRMSNorm; config.json rms_norm_eps
  max_context = 4096,
}
