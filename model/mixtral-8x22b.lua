-- mixtral-8x22b.  Source: mistralai/Mixtral-8x22B-v0.1 config.json (https://huggingface.co/mistralai/Mixtral-8x22B-v0.1), copied to
-- tests/data/hf/mixtral-8x22b.json; generated with:
--   bin/roofline import-hf tests/data/hf/mixtral-8x22b.json --name mixtral-8x22b --source "mistralai/Mixtral-8x22B-v0.1 config.json"
-- Imported by `roofline import-hf` from tests/data/hf/mixtral-8x22b.json (model_type "mixtral").
return {
  name = "mixtral-8x22b",
  source = "mistralai/Mixtral-8x22B-v0.1 config.json",
  layers = 56, d_model = 6144, d_ff = 16384,
  heads = 48, kv_heads = 8,
  vocab = 32000, tied_embeddings = false, mlp = "swiglu",
  norm = "rmsnorm", -- MixtralRMSNorm (transformers), rms_norm_eps
  experts = 8, top_k = 2,
  max_context = 65536,
}
