-- Question: what does an int8 KV cache buy for LLaMA-2-13B (MHA, K = 40) on
-- 8 TPU v5e at 8192 tokens of context?  KV bytes per token halve, the largest
-- batch that fits roughly doubles, and the KV-loading term of every step halves.
--
-- Reproduces seed 000 section 1 "What about memory?" (KV bytes per token
-- 2 * L * K * H * bytes: 819,200 B in bf16, 409,600 B in int8 for L = 40,
-- K = 40, H = 128) and section 5 problem 2's max batch
-- floor((HBM - weights) / (S * KV per token)).  Checked lines: "check NAME VALUE".

local hw = roofline.hw("tpu-v5e", { hbm_bw = 8.2e11, hbm_bytes = 16e9 }) -- the book's figures (16 GB; the preset: 16 GiB)
local m = roofline.model("llama2-13b", { max_context = 8192 })
local rows = {}
for _, kv in ipairs({ "bf16", "int8" }) do
  local r = roofline.step{ model = m, hw = hw, chips = 8, batch = { 1, 8, 15 }, context = 8192, kv = kv,
                           ideal = true } -- the chapter's fully sharded chips (without: tp with collectives)
  rows[kv] = r
  print(string.format("KV %s: %d bytes per token, largest batch at S = 8192: %d", kv,
                      r.kv_bytes_per_token, r.max_batch))
  print(string.format("check kv_bytes_per_token_%s %d", kv, r.kv_bytes_per_token))
  print(string.format("check max_batch_%s %d", kv, r.max_batch))
  for _, row in ipairs(r.rows) do
    print(string.format("  B = %2d: step %.2f ms (KV loading %.2f ms, parameter loading %.2f ms)",
                        row.batch, row.step_s * 1e3, row.kv_load_s * 1e3, row.weight_load_s * 1e3))
  end
end
print(string.format("check kv_load_ratio_b8 %.6g", rows.int8.rows[2].kv_load_s / rows.bf16.rows[2].kv_load_s))
local fig, why = roofline.plot{ kind = "memory", file = "kv_int8_memory.png", model = m, hw = hw,
                                chips = 8, context = 8192, kv = "int8",
                                batch = { 1, 2, 4, 8, 16, 24, 32, 40 } }
print(fig and ("figure: " .. fig) or why)
