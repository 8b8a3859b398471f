-- LLaMA-2-7B.  Source: meta-llama/Llama-2-7b-hf config.json (hidden_size 4096,
-- intermediate_size 11008, num_hidden_layers 32, num_attention_heads 32,
-- num_key_value_heads 32, vocab_size 32000, max_position_embeddings 4096,
-- tie_word_embeddings false); Touvron et al. 2023, arXiv:2307.09288, Table 1.
return {
  name = "llama2-7b",
  source = "meta-llama/Llama-2-7b-hf config.json",
  layers = 32, d_model = 4096, d_ff = 11008,
  heads = 32, kv_heads = 32, head_dim = 128,
  vocab = 32000, tied_embeddings = false, mlp = "swiglu",
  norm = "rmsnorm", -- LlamaRMSNorm; config.json rms_norm_eps
  max_context = 4096,
}
