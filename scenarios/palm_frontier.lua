-- Question: what does the latency / cost frontier of the PaLM family look like
-- on TPU v4, in the style of the ESTI paper's figure (points labelled C:B)?
--
-- Reproduces the shape the chapter describes for the ESTI figure (seed 000
-- section 1, "Theoretical estimates for LLM latency and throughput"): moving
-- along the frontier trades chips (C) and batch (B); cost stops falling once
-- the batch passes B_crit (~240 on the TPU v4 in bf16, 2.75e14 / 1.2e12 = 229),
-- and int8 weights improve the frontier without lowering the compute-bound
-- cost floor.  Model shapes: PaLM paper (Chowdhery et al. 2022) Table 1 —
-- 8B: L 32, D 4096, N 16; 62B: L 64, D 8192, N 32; 540B: L 118, D 18432, N 48;
-- multi-query attention (K = 1), H = 256, F = 4D, SwiGLU, V = 256k, shared
-- input/output embeddings; parameter counts 8.63B, 62.50B, 540.35B.
-- Ideal roofline, communication ignored (formula (1)).

local function palm(name, L, D, N)
  return roofline.model{ name = name, layers = L, d_model = D, d_ff = 4 * D, heads = N,
                         kv_heads = 1, head_dim = 256, vocab = 256000, tied_embeddings = true,
                         mlp = "swiglu", max_context = 2048 }
end
local models = { palm("PaLM 8B", 32, 4096, 16), palm("PaLM 62B", 64, 8192, 32),
                 palm("PaLM 540B", 118, 18432, 48) }
local tags = { "8b", "62b", "540b" }
local batch = { 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024 }
local chips = { 4, 8, 16, 32, 64, 128, 256 }
local series = {}
for i, m in ipairs(models) do
  local params = roofline.info(m).params_total
  print(string.format("check params_%s %.6g", tags[i], params))
  local f = roofline.pareto{ model = m, hw = "tpu-v4", chips = chips, batch = batch, context = 2048,
                             ideal = true }
  local cheapest = f.rows[#f.rows]
  print(string.format("%-9s %.2fe9 params: %2d frontier points, fastest %.2f ms/token (%d:%d), "
                      .. "cheapest %.3f chip-ms/token at C:B = %d:%d",
                      m.name, params / 1e9, #f.rows, f.rows[1].step_s * 1e3, f.rows[1].chips,
                      f.rows[1].batch, cheapest.chip_s_per_token * 1e3, cheapest.chips, cheapest.batch))
  print(string.format("check cheapest_batch_%s %d", tags[i], cheapest.batch))
  series[#series + 1] = { title = m.name .. " bf16", rows = f.rows }
end

-- int8 weights on PaLM 540B: a better frontier, the same compute-bound floor.
local floor = {}
for _, w in ipairs({ "bf16", "int8" }) do
  local f = roofline.pareto{ model = models[3], hw = "tpu-v4", chips = chips, batch = batch,
                             context = 2048, weights = w, ideal = true }
  floor[w] = f.rows[#f.rows].chip_s_per_token
  if w == "int8" then series[#series + 1] = { title = "PaLM 540B int8 weights", rows = f.rows } end
end
print(string.format("PaLM 540B cheapest cost: int8 / bf16 = %.3f", floor.int8 / floor.bf16))
print(string.format("check floor_ratio_540b_int8_over_bf16 %.6g", floor.int8 / floor.bf16))
local fig, why = roofline.plot{ kind = "pareto", file = "palm_frontier.png", series = series,
                                title = "PaLM on TPU v4: cost vs latency frontier (S = 2048, ideal roofline)" }
print(fig and ("figure: " .. fig) or why)
