-- Engine profile: the reference kernel tables of hw_profiles/calibrated/vm-tables for /work/main/hw_profiles/calibrated/vm-tables/base.lua.
-- Written by `roofline calibrate --backend` over the tables it measured (as `roofline calibrate --tables hw_profiles/calibrated/vm-tables --hw /work/main/hw_profiles/calibrated/vm-tables/base.lua --engine reference` would) on 2026-12-04.
-- Kernel tables: roofline calibrate --backend cuda on vm (device), commit a0c4197c, 2026-12-04T18:25:01Z; model ref-1b, engine version roofline a0c4197c,
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
  base = "vm-tables/base.lua",
  engines = {
    default = "reference",
    reference = {
      version = "roofline a0c4197c",
      source = "roofline calibrate --backend cuda on vm (device), commit a0c4197c, 2026-12-04T18:25:01Z; model ref-1b; device 'vm (cuda backend, device)'; fastest kernel per shape; imported by roofline calibrate --tables",
      measured_on = "vm-cuda",
      measured_at = { hbm_bw = 3997970000000, flops = { fp32 = 944971000000, bf16 = 599563000000000, } },
      date = "2026-12-04",
      costs = {
        step_s = 1.38185666682962e-05, seq_s = 0.000152906933333223, launch_s = 0, prefill_layer_s = 0,
        source = "step_s, seq_s measured by roofline calibrate --backend: the engine's greedy sampling (logits to the host, argmax a row; V = 32000) timed on 1 and 16 rows, median (0.1667 and 2.46 ms), seq_s the slope; launch_s 0: an operator's measured time holds its launches; prefill_layer_s 0: a prefill runs the same timed operators; attention_context longest: attn_k runs one block per (query row, head) over the row's whole context, grid (B, heads) (reference_engine/cuda/cuda_backend.cu)",
        attention_context = "longest",
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
15.5 14.7 14.63 20.26 14.14 46.53 43.91 120.6 15.5 15.08 14.63 21.29 14.14 47.69 43.91 120.6
15.5 15.1 14.66 21.29 14.18 47.72 43.91 120.6 15.5 15.13 15.51 21.29 15.08 49.04 43.91 120.6
16.2 15.54 15.51 21.29 15.08 49.04 44.83 122.7 16.2 15.67 15.51 21.29 18.67 52.81 48.2 131.3
16.2 16.42 16.53 21.29 18.67 52.81 72.59 226.5 16.26 19.03 17.7 32.39 28.66 83.8 162.9 476.1
23 39.84 41.86 100.4 79.68 245.9 452.7 1397
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
12.85 110.2 1252 1.826e4
            ]],
          },
        },
        decode_attention = {
          -- 24 configurations, 0 grid nodes filled
          float32 = {
            axes = { "streams", "context", "group", "head_dim" },
            streams = { 4, 8, 16, 32, 64, 128 },
            context = { 129, 513, 2049, 4097 },
            group = { 4 },
            head_dim = { 128 },
            values_us = [[
50.17 157.3 559.9 1094 50.26 157.3 559.9 1094 50.26 157.3 559.9 1094 50.48 157.3 559.9 1094
57.41 184.1 667 1331 82.33 258.9 985.2 1953
            ]],
          },
        },
      },
      residuals = { -- log(measured / table time) of held-back configurations
        holdout = 5,
        gemm = { held_back = 8, p5 = -0.35696, p10 = -0.35696, p90 = 0.335548, p95 = 0.335548,
          edge_held_back = { 0, 6, 0, 0 },
          p10_p90_per_octave = { 0, 0.151803, 0, 0 },
          p5_p95_per_octave = { 0, 0.170379, 0, 0 },
          up_to_octaves = { 0, 2.50635, 0, 0 } },
        decode_attention = { held_back = 4, p5 = -0.0230381, p10 = -0.0230381, p90 = 0.0451175, p95 = 0.0451175,
          edge_held_back = { 0, 6, 0, 0 },
          p10_p90_per_octave = { 0, 0.00407829, 0, 0 },
          p5_p95_per_octave = { 0, 0.00679715, 0, 0 },
          up_to_octaves = { 0, 0.999648, 0, 0 } },
      },
    },
  },
}
