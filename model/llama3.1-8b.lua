-- Llama-3.1-8B.  Source: meta-llama/Llama-3.1-8B config.json (hidden_size 4096,
-- intermediate_size 14336, num_hidden_layers 32, num_attention_heads 32,
-- num_key_value_heads 8, vocab_size 128256, tie_word_embeddings false,
-- max_position_embeddings 131072 with rope_scaling "llama3", factor 8 over the
-- original 8192); Llama 3 paper (arXiv:2407.21783) Table 3.  The same shape
-- as llama3-8b, with the 128k context of the 3.1 release.
return {
  name = "llama3.1-8b",
  source = "meta-llama/Llama-3.1-8B config.json",
  layers = 32, d_model = 4096, d_ff = 14336,
  heads = 32, kv_heads = 8, head_dim = 128,
  vocab = 128256, tied_embeddings = false, mlp = "swiglu",
  norm = "rmsnorm", -- LlamaRMSNorm; config.json rms_norm_eps
  max_context = 131072,
}
