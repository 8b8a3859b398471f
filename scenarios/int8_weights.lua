-- Question: what do int8 weights (bf16 compute) buy over bf16 weights on TPU v5e?
-- B_crit halves (240 -> 120), parameter loading halves, and the latency / cost
-- frontier moves left (faster) and down (cheaper).
--
-- Reproduces seed 000 section 1: "Linear operations" (B_crit = beta * alpha_hbm:
-- bf16 240, int8 weights + bf16 compute 120, int8 x int8 240) and the 30B case
-- study of "Theoretical estimates for LLM latency and throughput" (16 v5e at
-- 8.1e11 B/s, int8 weights, 100 kB of KV per token, S = 8192: B = 4 -> ~2.5 ms,
-- B = 256 -> ~21 ms).  Checked lines: "check NAME VALUE" (tests/test_scenarios.c).

local v5e = roofline.hw("tpu-v5e", { hbm_bw = 8.2e11 })     -- the book's 240 uses 8.2e11
local function b_crit(weights, compute)
  local m = roofline.model("llama2-13b")
  return roofline.step{ model = m, hw = v5e, context = 1, weights = weights, compute = compute }.b_crit
end
print(string.format("B_crit on v5e: bf16 %.0f, int8 weights + bf16 compute %.0f, int8 x int8 %.0f",
                    b_crit("bf16", "bf16"), b_crit("int8", "bf16"), b_crit("int8", "int8")))
print(string.format("check b_crit_bf16 %.6g", b_crit("bf16", "bf16")))
print(string.format("check b_crit_int8_weights %.6g", b_crit("int8", "bf16")))
print(string.format("check b_crit_int8_int8 %.6g", b_crit("int8", "int8")))

-- The 30B case study: an abstract model given by its totals.
local m30 = roofline.model{ name = "30B dense (case study)", params = 30e9, kv_bytes_per_token = 100e3 }
local hw = roofline.hw("tpu-v5e", { hbm_bw = 8.1e11 })
local r = roofline.step{ model = m30, hw = hw, chips = 16, batch = { 4, 256 }, context = 8192,
                         weights = "int8" }
for _, row in ipairs(r.rows) do
  print(string.format("30B int8 on 16 v5e, B = %3d: step %.2f ms (%s-bound MLP)", row.batch,
                      row.step_s * 1e3, row.bound))
  print(string.format("check case30b_step_ms_b%d %.6g", row.batch, row.step_s * 1e3))
end

-- The frontier, bf16 vs int8 weights, LLaMA-2-13B on up to 16 v5e at S = 4096.
local series, floor = {}, {}
for _, w in ipairs({ "bf16", "int8" }) do
  local f = roofline.pareto{ model = "llama2-13b", hw = "tpu-v5e", context = 4096, weights = w,
                             chips = { 1, 4, 8, 16 } }
  series[#series + 1] = { title = "LLaMA-2-13B, " .. w .. " weights", rows = f.rows }
  floor[w] = f.rows[#f.rows].usd_per_mtok
  print(string.format("%s weights: %d frontier points, fastest %.2f ms/token, cheapest $%.3f per 1M tokens",
                      w, #f.rows, f.rows[1].step_s * 1e3, floor[w]))
end
print(string.format("cheapest int8 / cheapest bf16 cost: %.2f (both memory-limited at S = 4096)",
                    floor.int8 / floor.bf16))
local fig, why = roofline.plot{ kind = "pareto", file = "int8_weights_frontier.png",
                                title = "LLaMA-2-13B on TPU v5e: bf16 vs int8 weights (S = 4096)",
                                series = series }
print(fig and ("figure: " .. fig) or why)
