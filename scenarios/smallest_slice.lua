-- Question: what is the smallest TPU v5e slice that serves the Scaling Book's
-- 18B-active MoE model (E = 16, k = 2) in int8 with one 128k-token request,
-- and how large a batch does the dense 18B model reach on a 4x4 slice?
--
-- Reproduces seed 000 section 5: problem 6 (2) "smallest slice": 212 GB of
-- int8 weights need ceil(212 / 16) = 14 chips, so the smallest slice is 4x4
-- (16 chips), with one 128k request (33.5 GB of KV) fitting; and problem 2:
-- the dense model on 4x4 v5e, int8 weights and KV, S = 128k -> max batch 7
-- (K = 1: 56).  Valid slices come from rl_sweep_topologies (1, 4, 8, 16, ...).

local S = 128000
local v5e = roofline.hw("tpu-v5e", { hbm_bytes = 16e9 }) -- the book's 16 GB (the preset: 16 GiB)
local moe = roofline.model("scaling-book-18b-moe")
local weights_gb = roofline.info(moe, { weights = "int8" }).weight_bytes / 1e9
print(string.format("MoE int8 weights: %.1f GB -> at least %d chips of 16 GB for the weights alone",
                    weights_gb, math.ceil(weights_gb / 16)))
print(string.format("check moe_weights_gb %.6g", weights_gb))
print(string.format("check moe_chips_for_weights %d", math.ceil(weights_gb / 16)))

-- Every valid slice (chips left out = all of them) at B = 1; infeasible ones are dropped.
local s = roofline.sweep{ model = moe, hw = v5e, batch = { 1 }, context = S,
                          weights = "int8", kv = "int8", ideal = true }
local smallest = math.huge
for _, row in ipairs(s.rows) do smallest = math.min(smallest, row.chips) end
print(string.format("smallest v5e slice for one %d-token request: %d chips (%d of %d slices too small)",
                    S, smallest, s.infeasible, s.evaluated))
print(string.format("check moe_smallest_slice %d", smallest))

for _, K in ipairs({ 8, 1 }) do
  local m = roofline.model("scaling-book-18b", { kv_heads = K })
  local r = roofline.step{ model = m, hw = v5e, chips = 16, context = S, weights = "int8", kv = "int8",
                           ideal = true } -- the chapter's fully sharded chips (without: tp with collectives)
  print(string.format("dense 18B, K = %d, int8, 16 v5e, S = %d: max batch %d", K, S, r.max_batch))
  print(string.format("check dense_max_batch_k%d %d", K, r.max_batch))
end
