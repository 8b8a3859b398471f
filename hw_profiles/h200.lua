-- NVIDIA H200 SXM 141GB, one GPU.  Dense peaks only.
--   flops: 9.89e14 bf16/fp16, 1.979e15 fp8/int8 (NVIDIA H200 datasheet: the
--          same Hopper core as H100 SXM; "3,958 TFLOPS*" fp8 is sparse)
--   hbm:   141 GB HBM3e = 141e9 bytes at 4.8 TB/s (H200 datasheet)
--   nvlink: NVLink 4, 18 links, 900 GB/s both directions = 25 GB/s one-way
--          per link (MLPerf inference v4.1 NVIDIA H200-SXM-141GBx8 system
--          description: "18x 4th Gen NVLink, 900GB/s")
--   host:  PCIe Gen5 x16, 64 GB/s one-way
--   net:   400 Gb/s InfiniBand per GPU = 5e10 B/s (same system description)
--   latency: 2 us per NVSwitch hop, 5 us over InfiniBand (assumptions)
--   price: USD 5.75 per chip-hour on demand (the midpoint of the May 2026
--          hyperscaler range, as for h100-sxm); see price_source (prices move: check)
--   efficiency: measured figures (measured on an H200; issue 5: one H200 of
--          the project's GPU hosts): device-to-device copy 4.3 TB/s =
--          0.896 of 4.8 TB/s (memory-bound kernels and a 1-token GEMV), an
--          8192^3 bf16 GEMM 790 TFLOP/s = 0.80 of 989 (M = 8192 tokens); the
--          gemm fraction between them is log-interpolated (src/efficiency.h),
--          an assumption until `roofline calibrate --backend cuda` runs on
--          the host.  overhead_s 0: not yet measured.  `--ideal` ignores it.
--   engines: kernel tables measured by NVIDIA on this GPU under TensorRT-LLM
--          1.3.0rc20 and vLLM 0.24.0 (NVIDIA AIConfigurator, aiconfigurator-core 0.12.0
--          systems data, Apache-2.0), imported by `make profiles` (roofline calibrate
--          --tables) into engines/h200-trtllm.lua and engines/h200-vllm.lua; calibrated
--          mode times GEMMs and attention from them (src/engines.h).  Engine costs
--          per step / sequence / launch: 0, no sourced figure yet.
return {
  name = "h200",
  source = "NVIDIA H200 Tensor Core GPU datasheet; MLPerf inference v4.1 system description",
  flops = { bf16 = 9.89e14, fp16 = 9.89e14, fp8 = 1.979e15, int8 = 1.979e15 },
  hbm_bytes = 141e9,
  hbm_bw = 4.8e12,
  topology = "switch", ici_links = 18, ici_bw = 2.5e10, ici_latency = 2e-6,
  domain_chips = 8,
  net_bw = 5e10, net_latency = 5e-6,
  host_bw = 6.4e10,
  price_per_chip_hour = 5.75,
  price_source = "mercatus-ai.com 'Cloud GPU pricing' (May 2026): hyperscaler on-demand H200 USD 4.50-7.00 per GPU-hour, midpoint (the Scaling Book's older figure: around USD 10); retrieved 2026-11-29",
  efficiency = {
    source = "H200 measurements: 4.3 TB/s device copy, 790 TFLOP/s 8192^3 bf16 GEMM",
    overhead_s = 0,
    gemm = { {1, 0.896}, {8192, 0.80} },
    attention = { {1, 0.896} },
    norm = { {1, 0.896} },
    rope = { {1, 0.896} },
    elementwise = { {1, 0.896} },
  },
  engines = {
    default = "trtllm",
    trtllm = "engines/h200-trtllm.lua",
    vllm = "engines/h200-vllm.lua",
  },
}
