-- Question: how should the chapter's 18.4B model be sharded on a TPU v5e 4x4
-- (16 chips) in int8, and what does one decode step cost?  (seed 000
-- section 5, worked problem 4; the seed's answer: TP for prefill, KV split
-- by heads then batch for generation, ~4.8 ms per step at B = 1, S = 128k.)
--
-- Prints the comparison for B = 1 at 128k tokens, then the seed's chosen
-- plan with each collective.  Per-hop latency: 1 us (Appendix C).

local args = { model = "scaling-book-18b", hw = "tpu-v5e", chips = 16, batch = 1,
               context = 128000, weights = "int8", kv = "int8", compute = "int8" }

local r = roofline.shard(args)
print("prefill:  " .. r.advice.prefill)
print("generate: " .. r.advice.generate)

args.tp = 16
args.kv_split = "seq"   -- B = 1 cannot be split by batch; the sequence can
local s = roofline.step(args)
local row = s.rows[1]
print(string.format("\n%s: step %.2f ms = KV %.2f + weights %.2f + comm %.2f (seed: 2.58 + 1.42 + 0.8 = 4.8)",
                    s.sharding, row.step_s * 1e3, row.kv_load_s * 1e3, row.weight_load_s * 1e3,
                    row.comm_s * 1e3))
for _, c in ipairs(s.collectives) do
  print(string.format("  %-24s %-13s over %2d chips, %6d B, x%3d, %.1f us each, %s",
                      c.what, c.collective, c.group, c.bytes, c.count, c.each_s * 1e6,
                      c.latency_bound and "latency-bound" or "bandwidth-bound"))
end
