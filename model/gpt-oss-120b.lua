-- gpt-oss-120b.  Source: openai/gpt-oss-120b config.json (https://huggingface.co/openai/gpt-oss-120b), copied to
-- tests/data/hf/gpt-oss-120b.json; generated with:
--   bin/roofline import-hf tests/data/hf/gpt-oss-120b.json --name gpt-oss-120b --source "openai/gpt-oss-120b config.json"
-- Imported by `roofline import-hf` from tests/data/hf/gpt-oss-120b.json (model_type "gpt_oss").
return {
  name = "gpt-oss-120b",
  source = "openai/gpt-oss-120b config.json",
  layers = 36, d_model = 2880, d_ff = 2880,
  heads = 64, kv_heads = 8,
  head_dim = 64,
  vocab = 201088, tied_embeddings = false, mlp = "swiglu",
  norm = "rmsnorm", -- GptOssRMSNorm (transformers), rms_norm_eps
  experts = 128, top_k = 4,
  sliding_window = 128,
  sliding_window_pattern = 2,
  attention_bias = true,
  mlp_bias = true,
  attention_sinks = true,
  quantized = "experts",
  max_context = 131072,
}
