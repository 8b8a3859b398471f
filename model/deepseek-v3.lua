-- deepseek-v3.  Source: deepseek-ai/DeepSeek-V3 config.json (https://huggingface.co/deepseek-ai/DeepSeek-V3), copied to
-- tests/data/hf/deepseek-v3.json; generated with:
--   bin/roofline import-hf tests/data/hf/deepseek-v3.json --name deepseek-v3 --source "deepseek-ai/DeepSeek-V3 config.json"
-- Imported by `roofline import-hf` from tests/data/hf/deepseek-v3.json (model_type "deepseek_v3").
return {
  name = "deepseek-v3",
  source = "deepseek-ai/DeepSeek-V3 config.json",
  layers = 61, d_model = 7168, d_ff = 18432,
  heads = 128, kv_heads = 128,
  vocab = 129280, tied_embeddings = false, mlp = "swiglu",
  norm = "rmsnorm", -- DeepseekV3RMSNorm (transformers), rms_norm_eps
  attention = "mla",
  kv_lora_rank = 512, qk_rope_head_dim = 64,
  qk_nope_head_dim = 128, v_head_dim = 128,
  q_lora_rank = 1536,
  experts = 256, top_k = 8,
  shared_experts = 1,
  d_ff_expert = 2048,
  dense_layers = 3,
  fp8_scaling = "block",
  max_context = 163840,
}
