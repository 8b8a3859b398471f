-- BLOOM-176B.  Sources: bigscience/bloom config.json (hidden_size 14336, n_layer 70, n_head 112,
-- vocab_size 250880, word embeddings tied to the LM head) and the BLOOM paper (BigScience,
-- arXiv:2211.05100, Table 3: 70 layers, 112 heads, hidden 14336, sequence length 2048; MLP
-- 4 x hidden with GELU; ALiBi positions, not RoPE).  LayerNorm, not RMSNorm (norm, below: its
-- bias counted, no fused add + norm in the engines; spec.h rl_norm).  Not modelled: the linear
-- layers' biases, the embedding's own LayerNorm (word_embeddings_layernorm), ALiBi in place of
-- RoPE (each well under 1% of a step's FLOPs and bytes).
return {
  name = "bloom-176b",
  source = "bigscience/bloom config.json; BigScience, arXiv:2211.05100 Table 3",
  layers = 70, d_model = 14336, d_ff = 57344,
  heads = 112, kv_heads = 112, head_dim = 128,
  vocab = 250880, tied_embeddings = true, mlp = "gelu",
  norm = "layernorm", -- nn.LayerNorm (transformers BloomBlock); config.json layer_norm_epsilon
  max_context = 2048,
}
