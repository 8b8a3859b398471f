-- Question: how fast can LLaMA-2-13B generate on 8 TPU v5e, and what does
-- grouped-query attention (K = 8 KV heads instead of 40) buy?
--
-- Reproduces the two tables of seed 000 section 1, "Modeling throughput and
-- latency for LLaMA 2-13B": batch 1..240 at 8192 tokens of context, bf16,
-- ideal roofline (formula (1)) over 8 chips of 16 GB at the book's 8.2e11 B/s.
-- The book evaluates at 8192 tokens (beyond the model's trained 4096) and, for
-- the GQA table, keeps the total parameter count unchanged while cutting KV
-- to K = 8 ("在保持总参数量不变的前提下"): we model that as an abstract model
-- with the MHA model's parameters and the GQA model's KV bytes per token.

local hw = roofline.hw("tpu-v5e", { hbm_bw = 8.2e11, hbm_bytes = 16e9 })   -- the book's figures (16 GB; the preset: 16 GiB)
local mha = roofline.model("llama2-13b", { max_context = 8192 })
local gqa_kv = roofline.info(roofline.model(mha, { kv_heads = 8 })).kv_bytes_per_token
local gqa = roofline.model({
  name = "llama2-13b-gqa8 (params kept)",
  params = roofline.info(mha).params_total,
  kv_bytes_per_token = gqa_kv,
  max_context = 8192,
})

local batches = { 1, 8, 16, 32, 64, 240 }

-- Each "check NAME VALUE" line is asserted by tests/test_scenarios.c against
-- the book's number.
local function show(title, model, tag)
  local r = roofline.step{ model = model, hw = hw, chips = 8, batch = batches, context = 8192,
                           ideal = true } -- the book's pure roofline (a TPU preset reads estimated)
  print(string.format("%s — 8 x %s, %s mode, B_crit %.0f, largest batch that fits %d",
                      title, r.hw, r.mode, r.b_crit, r.max_batch))
  print(string.format("%6s %12s %12s %12s %14s %s", "batch", "KV (GB)", "total (GB)",
                      "step (ms)", "tokens/s", "fits in 128 GB?"))
  for _, row in ipairs(r.rows) do
    print(string.format("%6d %12.1f %12.1f %12.2f %14.2f %s", row.batch, row.kv_bytes / 1e9,
                        row.total_bytes / 1e9, row.step_s * 1e3, row.tokens_per_s,
                        row.fits and "yes" or "NO (out of HBM)"))
  end
  for _, row in ipairs(r.rows) do
    print(string.format("check %s_step_ms_b%d %.6g", tag, row.batch, row.step_s * 1e3))
  end
  print()
end

show("LLaMA-2-13B, MHA (K = 40)", mha, "mha")
show("LLaMA-2-13B, GQA (K = 8, parameters kept at 13.0e9)", gqa, "gqa")
print("Book (seed 000 section 1): MHA step ms 4.98 12.13 20.30 36.65 69.33 249.09;")
print("                           GQA step ms 4.17 5.60 7.23 10.50 17.04 52.99.")
