-- qwen3-32b.  Source: Qwen/Qwen3-32B config.json (https://huggingface.co/Qwen/Qwen3-32B), copied to
-- tests/data/hf/qwen3-32b.json; generated with:
--   bin/roofline import-hf tests/data/hf/qwen3-32b.json --name qwen3-32b --source "Qwen/Qwen3-32B config.json"
-- Imported by `roofline import-hf` from tests/data/hf/qwen3-32b.json (model_type "qwen3").
return {
  name = "qwen3-32b",
  source = "Qwen/Qwen3-32B config.json",
  layers = 64, d_model = 5120, d_ff = 25600,
  heads = 64, kv_heads = 8,
  head_dim = 128,
  vocab = 151936, tied_embeddings = false, mlp = "swiglu",
  norm = "rmsnorm", -- Qwen3RMSNorm (transformers), rms_norm_eps
  qk_norm = true,
  max_context = 40960,
}
