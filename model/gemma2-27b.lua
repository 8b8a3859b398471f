-- gemma2-27b.  Source: google/gemma-2-27b config.json (https://huggingface.co/google/gemma-2-27b), copied to
-- tests/data/hf/gemma2-27b.json; generated with:
--   bin/roofline import-hf tests/data/hf/gemma2-27b.json --name gemma2-27b --source "google/gemma-2-27b config.json"
-- Imported by `roofline import-hf` from tests/data/hf/gemma2-27b.json (model_type "gemma2").
return {
  name = "gemma2-27b",
  source = "google/gemma-2-27b config.json",
  layers = 46, d_model = 4608, d_ff = 36864,
  heads = 32, kv_heads = 16,
  head_dim = 128,
  vocab = 256000, tied_embeddings = true, mlp = "geglu",
  norm = "rmsnorm", -- Gemma2RMSNorm (transformers), rms_norm_eps
  sliding_window = 4096,
  sliding_window_pattern = 2,
  norms_per_layer = 4,
  max_context = 8192,
}
