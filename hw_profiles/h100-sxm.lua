-- NVIDIA H100 SXM5 80GB, one GPU.  Dense peaks only: the datasheet's bf16
-- "1,979 TFLOPS*" is 2:4 sparse; dense is 989 (issue 3 pitfall).
--   flops: 9.89e14 bf16/fp16, 1.979e15 fp8/int8 (NVIDIA H100 datasheet,
--          halved "*" figures; 989.4 / 1978.9 dense)
--   hbm:   80 GB HBM3 = 80e9 bytes at 3.35 TB/s (H100 datasheet)
--   nvlink: NVLink 4, 900 GB/s per GPU both directions = 450 GB/s one-way,
--          18 links of 25 GB/s one-way, NVSwitch in an 8-GPU HGX node
--   host:  PCIe Gen5 x16, 64 GB/s one-way (datasheet "128 GB/s" both ways)
--   net:   one 400 Gb/s NDR InfiniBand NIC per GPU = 5e10 B/s (MLPerf
--          inference v3.1 system descriptions: "8x 400Gb Infiniband")
--   latency: 2 us per NVSwitch hop, 5 us over InfiniBand (assumptions, the
--          order NCCL's small-message times show; no datasheet gives them)
--   price: USD 4.25 per chip-hour on demand; see price_source (prices move: check)
--   efficiency: measured figures (H200 figures applied to H100 SXM, the same Hopper core, until an H100 is calibrated; issue 5: one H200 of
--          the project's GPU hosts): device-to-device copy 4.3 TB/s =
--          0.896 of 4.8 TB/s (memory-bound kernels and a 1-token GEMV), an
--          8192^3 bf16 GEMM 790 TFLOP/s = 0.80 of 989 (M = 8192 tokens); the
--          gemm fraction between them is log-interpolated (src/efficiency.h),
--          an assumption until `roofline calibrate --backend cuda` runs on
--          the host.  overhead_s 0: not yet measured.  `--ideal` ignores it.
--   engines: kernel tables measured by NVIDIA on this GPU under TensorRT-LLM
--          1.3.0rc20 and vLLM 0.24.0 (NVIDIA AIConfigurator, aiconfigurator-core 0.12.0
--          systems data, Apache-2.0), imported by `make profiles` (roofline calibrate
--          --tables) into engines/h100-sxm-trtllm.lua and engines/h100-sxm-vllm.lua; calibrated
--          mode times GEMMs and attention from them (src/engines.h).  Engine costs
--          per step / sequence / launch: 0, no sourced figure yet.
return {
  name = "h100-sxm",
  source = "NVIDIA H100 Tensor Core GPU datasheet (SXM5)",
  flops = { bf16 = 9.89e14, fp16 = 9.89e14, fp8 = 1.979e15, int8 = 1.979e15 },
  hbm_bytes = 80e9,
  hbm_bw = 3.35e12,
  topology = "switch", ici_links = 18, ici_bw = 2.5e10, ici_latency = 2e-6,
  domain_chips = 8,
  net_bw = 5e10, net_latency = 5e-6,
  host_bw = 6.4e10,
  price_per_chip_hour = 4.25,
  price_source = "mercatus-ai.com 'Cloud GPU pricing' (May 2026): hyperscaler on-demand H100 SXM5 USD 3.50-5.00 per GPU-hour, midpoint; retrieved 2026-11-29",
  efficiency = {
    source = "H200 measurements (4.3 TB/s copy, 790 TFLOP/s 8192^3 bf16 GEMM) applied to H100 SXM until calibrated on one",
    measured_on = "h200", -- borrowed: without an engine (--engine ideal aside) the mode is `estimated`
    overhead_s = 0,
    gemm = { {1, 0.896}, {8192, 0.80} },
    attention = { {1, 0.896} },
    norm = { {1, 0.896} },
    rope = { {1, 0.896} },
    elementwise = { {1, 0.896} },
  },
  engines = {
    default = "trtllm",
    trtllm = "engines/h100-sxm-trtllm.lua",
    vllm = "engines/h100-sxm-vllm.lua",
  },
}
