-- NVIDIA A100 SXM 80GB, one GPU.  Dense peaks only (the datasheet's "*" figures
-- are 2:4 sparse, twice these).
--   flops: 3.12e14 bf16/fp16, 6.24e14 int8, 1.248e15 int4 (NVIDIA A100
--          datasheet, "312 | 624*" etc.); no fp8 on Ampere
--   hbm:   80 GB HBM2e = 80e9 bytes at 2,039 GB/s (A100 datasheet)
--   nvlink: NVLink 3, 600 GB/s per GPU both directions = 300 GB/s one-way,
--          12 links of 25 GB/s one-way, behind NVSwitch in an 8-GPU HGX node
--   host:  PCIe Gen4 x16, 32 GB/s one-way (datasheet "32+32 GB/s")
--   net:   one 200 Gb/s HDR InfiniBand NIC per GPU (DGX A100) = 2.5e10 B/s
--   latency: 2 us per NVSwitch hop, 5 us over InfiniBand (assumptions, the
--          order NCCL's small-message times show; no datasheet gives them)
--   price: USD 2.25 per chip-hour on demand; see price_source (prices move: check)
--   engines: kernel tables measured by NVIDIA on this GPU under TensorRT-LLM
--          1.0.0 and vLLM 0.14.0 (NVIDIA AIConfigurator, aiconfigurator-core 0.12.0
--          systems data, Apache-2.0), imported by `make profiles` (roofline calibrate
--          --tables) into engines/a100-sxm-80g-trtllm.lua and engines/a100-sxm-80g-vllm.lua; calibrated
--          mode times GEMMs and attention from them (src/engines.h).  Engine costs
--          per step / sequence / launch: 0, no sourced figure yet.
return {
  name = "a100-sxm-80g",
  source = "NVIDIA A100 Tensor Core GPU datasheet (80GB SXM)",
  flops = { bf16 = 3.12e14, fp16 = 3.12e14, int8 = 6.24e14, int4 = 1.248e15 },
  hbm_bytes = 80e9,
  hbm_bw = 2.039e12,
  topology = "switch", ici_links = 12, ici_bw = 2.5e10, ici_latency = 2e-6,
  domain_chips = 8,
  net_bw = 2.5e10, net_latency = 5e-6,
  host_bw = 3.2e10,
  price_per_chip_hour = 2.25,
  price_source = "mercatus-ai.com 'Cloud GPU pricing' (May 2026): hyperscaler on-demand A100 80GB USD 1.50-3.00 per GPU-hour, midpoint; retrieved 2026-11-29",
  engines = {
    default = "trtllm",
    trtllm = "engines/a100-sxm-80g-trtllm.lua",
    vllm = "engines/a100-sxm-80g-vllm.lua",
  },
}
