-- LLaMA-2-13B.  Source: meta-llama/Llama-2-13b-hf config.json (hidden_size 5120,
-- intermediate_size 13824, num_hidden_layers 40, num_attention_heads 40,
-- num_key_value_heads 40, vocab_size 32000, max_position_embeddings 4096).
-- The same hyperparameters are the table in seed 000 section 1 "What about
-- memory?" (L 40, D 5120, F 13824, N 40, K 40, H 128, V 32000).
-- The Scaling Book's tables evaluate it at 8192 tokens, beyond its trained
-- 4096: scenarios that reproduce them override max_context explicitly.
return {
  name = "llama2-13b",
  source = "meta-llama/Llama-2-13b-hf config.json; seed 000 section 1",
  layers = 40, d_model = 5120, d_ff = 13824,
  heads = 40, kv_heads = 40, head_dim = 128,
  vocab = 32000, tied_embeddings = false, mlp = "swiglu",
  norm = "rmsnorm", -- LlamaRMSNorm; config.json rms_norm_eps
  max_context = 4096,
}
