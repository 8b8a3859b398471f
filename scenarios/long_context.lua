-- Question: for LLaMA-3-70B (GQA, K = 8) on 32 TPU v5e in bf16, at what context
-- does loading the KV cache overtake loading the parameters in a decode step,
-- for batch 1, 8 and 32?
--
-- Reproduces formula (1) of seed 000 section 1 ("Theoretical estimates for LLM
-- latency and throughput"): the KV term B * S * kv_bytes / BW equals the
-- parameter term P_bytes / BW at S* = P_bytes / (B * kv_bytes_per_token),
-- with kv_bytes_per_token = 2 * L * K * H * 2 = 327,680 B ("What about
-- memory?").  max_context is raised to 131072 (LLaMA-3.1's window) for the
-- study.  The sweep's crossover (first context on a doubling grid where
-- kv_load_s >= weight_load_s) must bracket S*.

local m = roofline.model("llama3-70b", { max_context = 131072 })
local info = roofline.info(m)
local p_bytes = info.weight_bytes
local contexts, c = {}, 1024
while c <= 131072 do contexts[#contexts + 1] = c; c = c * 2 end

for _, B in ipairs({ 1, 8, 32 }) do
  local s = roofline.sweep{ model = m, hw = "tpu-v5e", chips = { 32 }, batch = { B }, context = contexts,
                            ideal = true }
  local closed = p_bytes / (B * info.kv_bytes_per_token)
  local first
  for _, row in ipairs(s.rows) do
    if row.kv_load_s >= row.weight_load_s then first = row.context; break end
  end
  print(string.format("B = %2d: KV loading overtakes parameter loading at S* = %.0f tokens "
                      .. "(sweep: first grid context %s; %d of %d points fit in 512 GB)",
                      B, closed, first and tostring(first) or "none <= 131072", s.feasible, s.evaluated))
  print(string.format("check crossover_b%d %.6g", B, closed))
  if first then print(string.format("check grid_crossover_b%d %d", B, first)) end
end
print(string.format("check kv_bytes_per_token %d", info.kv_bytes_per_token))

local fig, why = roofline.plot{ kind = "step", file = "long_context_step.png", model = m, hw = "tpu-v5e",
                                chips = 32, context = { 2048, 16384, 131072 },
                                batch = { 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024 } }
print(fig and ("figure: " .. fig) or why)
