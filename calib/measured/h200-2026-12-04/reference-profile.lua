-- Engine profile: the reference kernel tables of hw_profiles/calibrated/vm-tables for /work/main/hw_profiles/calibrated/vm-tables/base.lua.
-- Written by `roofline calibrate --backend` over the tables it measured (as `roofline calibrate --tables hw_profiles/calibrated/vm-tables --hw /work/main/hw_profiles/calibrated/vm-tables/base.lua --engine reference` would) on 2026-12-04.
-- Kernel tables: roofline calibrate --backend cuda on vm (device), commit 181277c, 2026-12-04T11:35:07Z; model ref-1b, engine version roofline 181277c,
-- device 'vm (cuda backend, device)'.  Every other hardware field comes from `base` (see its sources;
-- src/spec.h: a spec naming a base).
-- Fit (src/silicon.h): fastest kernel per configuration; gemm grid m = 2^i,
-- 3 * 2^i and one more; prefill and decode attention by streams (batch x KV
-- heads) and group (heads / KV heads); MoE per model shape over tokens, 1/tp
-- and 1/ep, routing power_law_1.01; MLA (DeepSeek-V3's dimensions) over
-- batch, prompt or context, and heads per GPU; ln latencies fitted
-- non-decreasing along tokens, batch and lengths by isotonic regression
-- (pool adjacent violators), then unmeasured nodes filled in log-log between
-- measured ones on both sides along an axis, else from the nearest measured
-- ones along the roofline, and the fit run again (src/ktable.h).
return {
  base = "/work/main/hw_profiles/calibrated/vm-tables/base.lua",
  engines = {
    default = "reference",
    reference = {
      version = "roofline 181277c",
      source = "roofline calibrate --backend cuda on vm (device), commit 181277c, 2026-12-04T11:35:07Z; model ref-1b; device 'vm (cuda backend, device)'; fastest kernel per shape; imported by roofline calibrate --tables",
      measured_on = "vm-cuda",
      measured_at = { hbm_bw = 3985560000000, flops = { bf16 = 575046000000000, } },
      date = "2026-12-04",
      costs = {
        step_s = 1.62626666695568e-05, seq_s = 0.000151852833333284, launch_s = 0, prefill_layer_s = 0,
        source = "step_s, seq_s measured by roofline calibrate --backend: the engine's greedy sampling (logits to the host, argmax a row; V = 32000) timed on 1 and 16 rows, median (0.1681 and 2.446 ms), seq_s the slope; launch_s 0: an operator's measured time holds its launches; prefill_layer_s 0: a prefill runs the same timed operators",
      },
      tables = {
        gemm = {
          -- 42 configurations, 30 grid nodes filled
          bfloat16 = {
            axes = { "m", "n", "k" },
            m = { 1, 2, 4, 8, 16, 32, 128, 512, 2048 },
            n = { 512, 2048, 5632, 32000 },
            k = { 2048, 5632 },
            values_us = [[
22.87 20.37 23.65 26.37 25.58 71.39 51.91 142.7 22.87 20.39 23.65 26.37 25.58 71.39 52.14 143
22.87 20.78 23.65 27.33 25.58 72.53 52.14 143 22.87 20.82 23.65 27.33 25.58 72.53 52.14 143
22.87 21.12 23.65 27.85 25.58 72.69 52.14 143 22.87 21.3 23.65 27.85 25.58 72.69 54.16 147.5
23.07 22.75 24.07 28.69 26.42 72.94 91.55 292.1 24.83 25.96 26.79 39.49 38.13 106.7 216.7 606.4
29.39 45.19 47.98 101 83.46 252.5 474.2 1435
            ]],
            filled = [[
2 6 8 10 14 16 18 22 24 26 30 32 34 38 40 42
46 48 50 54 55 56 58 62 63 64 66 70 71 72
            ]],
          },
        },
        prefill_attention = {
          -- 4 configurations, 0 grid nodes filled
          float32 = {
            axes = { "streams", "isl", "group", "head_dim" },
            streams = { 4 },
            isl = { 32, 128, 512, 2048 },
            group = { 4 },
            head_dim = { 128 },
            values_us = [[
19.15 110 1250 1.821e4
            ]],
          },
        },
        decode_attention = {
          -- 16 configurations, 0 grid nodes filled
          float32 = {
            axes = { "streams", "context", "group", "head_dim" },
            streams = { 4, 16, 64, 128 },
            context = { 129, 513, 2049, 4097 },
            group = { 4 },
            head_dim = { 128 },
            values_us = [[
58.83 158.7 560 1095 58.83 158.7 560 1095 66.19 185.9 662.9 1316 85.83 265.1 985.7 1947
            ]],
          },
        },
      },
      residuals = { -- log(measured / table time) of held-back configurations
        holdout = 5,
        gemm = { held_back = 8, p5 = -0.309998, p10 = -0.309998, p90 = 0.0702062, p95 = 0.0702062,
          edge_held_back = { 0, 6, 0, 0 },
          p10_p90_per_octave = { 0, 0.286976, 0, 0 },
          p5_p95_per_octave = { 0, 0.287057, 0, 0 },
          up_to_octaves = { 0, 2.50635, 0, 0 } },
        decode_attention = { held_back = 3, p5 = -0.0792865, p10 = -0.0792865, p90 = 0.0239948, p95 = 0.0239948 },
      },
    },
  },
}
