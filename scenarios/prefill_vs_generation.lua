-- Question: should prefill and generation be sharded the same way?  For the
-- chapter's 18.4B dense model in int8 on a TPU v5e 4x4 (16 chips) at 128k
-- tokens, which plan gives the lowest TTFT and which the lowest per-token
-- latency, and what do collectives add to the latency / cost frontier of
-- LLaMA-3-70B on up to 32 v5e?
--
-- Reproduces seed 000 section 5, worked problem 4: prefill wants model
-- parallelism that stays compute-bound (TP, or TP plus other chips on the
-- sequence), generation wants every chip's HBM bandwidth with the KV cache
-- split beyond the K = 8 heads; the seed estimates ~4.8 ms per decode step
-- at B = 1 (2.58 ms KV + 1.42 ms weights + ~0.8 ms of latency-bound
-- collectives).  The sweep (roofline.pareto, shard plans with collectives)
-- must find a generation step within 22% of that (our collectives are
-- costlier: 4 per layer at 1 us per hop, two of them AllReduces over the
-- 4x4, which has no wraparound: 12 hops each, and two over pairs of chips
-- 8 apart, 2 hops each) and a prefill plan different
-- from the generation plan.

local f = roofline.pareto{ model = "scaling-book-18b", hw = "tpu-v5e", chips = { 16 }, batch = { 1 },
                           context = 128000, weights = "int8", kv = "int8", compute = "int8" }
local best = f.rows[1]
print(string.format("16 v5e, B = 1, S = 128k: generation %s, %.2f ms per token (comm %.2f ms); "
                    .. "prefill %s, TTFT %.0f ms", best.layout, best.step_s * 1e3, best.comm_s * 1e3,
                    best.prefill_layout, best.ttft_s * 1e3))
print(string.format("check wp4_step_ms %.6g", best.step_s * 1e3))
print(string.format("check wp4_prefill_differs %d", best.prefill_layout ~= best.layout and 1 or 0))

-- LLaMA-3-70B: the frontier with collectives against formula (1) without.
local series = {}
for _, ideal in ipairs({ true, false }) do
  local p = roofline.pareto{ model = "llama3-70b", hw = "tpu-v5e", chips = { 8, 16, 32 },
                             context = 4096, weights = "int8", ideal = ideal }
  series[#series + 1] = { title = ideal and "formula (1), no communication" or "shard plans + collectives",
                          rows = p.rows }
  print(string.format("%-30s %2d frontier points, fastest %.2f ms/token at %s", series[#series].title,
                      #p.rows, p.rows[1].step_s * 1e3, p.rows[1].layout))
end
local fig, why = roofline.plot{ kind = "pareto", file = "prefill_vs_generation_frontier.png", series = series,
                                title = "LLaMA-3-70B int8 on TPU v5e (S = 4096): what collectives cost" }
print(fig and ("figure: " .. fig) or why)
