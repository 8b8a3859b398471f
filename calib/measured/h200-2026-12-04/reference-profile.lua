-- Engine profile: the reference kernel tables of hw_profiles/calibrated/vm-tables for /work/main/hw_profiles/calibrated/vm-tables/base.lua.
-- Written by `roofline calibrate --backend` over the tables it measured (as `roofline calibrate --tables hw_profiles/calibrated/vm-tables --hw /work/main/hw_profiles/calibrated/vm-tables/base.lua --engine reference` would) on 2026-12-04.
-- Kernel tables: roofline calibrate --backend cuda on vm (device), commit 181277c, 2026-12-04T11:49:09Z; model ref-1b, engine version roofline 181277c,
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
      source = "roofline calibrate --backend cuda on vm (device), commit 181277c, 2026-12-04T11:49:09Z; model ref-1b; device 'vm (cuda backend, device)'; fastest kernel per shape; imported by roofline calibrate --tables",
      measured_on = "vm-cuda",
      measured_at = { hbm_bw = 4012550000000, flops = { fp32 = 943952000000, bf16 = 598875000000000, } },
      date = "2026-12-04",
      costs = {
        step_s = 1.40114666659012e-05, seq_s = 0.000134026533333061, launch_s = 0, prefill_layer_s = 0,
        source = "step_s, seq_s measured by roofline calibrate --backend: the engine's greedy sampling (logits to the host, argmax a row; V = 32000) timed on 1 and 16 rows, median (0.148 and 2.158 ms), seq_s the slope; launch_s 0: an operator's measured time holds its launches; prefill_layer_s 0: a prefill runs the same timed operators",
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
14.77 13.42 15.14 17.73 14.21 43.62 42.07 115.6 14.77 13.43 15.14 17.73 14.21 43.62 42.07 115.6
14.77 13.5 15.14 17.86 14.21 43.75 42.07 115.6 14.77 13.64 15.14 18.15 14.21 43.88 42.59 116.8
14.77 13.7 15.62 18.15 14.21 43.88 43.65 119.4 14.77 13.82 15.62 18.15 14.3 43.88 44.85 122.1
14.77 14.62 16.09 18.52 14.3 43.88 61.3 193.2 14.77 18.18 18.09 32.56 26.77 81.18 152.1 461.3
22.91 39.59 42.47 99.49 79.73 244.9 453 1392
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
12.64 110 1251 1.827e4
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
49.21 154.2 555.6 1089 49.79 154.2 555.6 1089 57.16 182.4 658.8 1328 80.97 259.2 981.9 1946
            ]],
          },
        },
      },
      residuals = { -- log(measured / table time) of held-back configurations
        holdout = 5,
        gemm = { held_back = 8, p5 = -0.322733, p10 = -0.322733, p90 = 0.119479, p95 = 0.119479,
          edge_held_back = { 0, 6, 0, 0 },
          p10_p90_per_octave = { 0, 0.131499, 0, 0 },
          p5_p95_per_octave = { 0, 0.131692, 0, 0 },
          up_to_octaves = { 0, 2.50635, 0, 0 } },
        decode_attention = { held_back = 3, p5 = -0.0575853, p10 = -0.0575853, p90 = 0.0235732, p95 = 0.0235732 },
      },
    },
  },
}
