-- NVIDIA B200 (HGX/DGX B200, 1000 W), one GPU.  Dense peaks only.
--   flops: 2.25e15 bf16/fp16, 4.5e15 fp8/int8, 9e15 fp4 (NVIDIA HGX B200
--          specifications, sparse figures halved: "FP4 18 PFLOPS*" -> 9)
--   hbm:   180 GB HBM3e per GPU in DGX B200 (1,440 GB / 8) at 8 TB/s
--          (DGX B200 spec sheet: 64 TB/s / 8)
--   nvlink: NVLink 5, 18 links, 1.8 TB/s both directions = 50 GB/s one-way
--          per link (DGX B200: "14.4 TB/s aggregate NVLink")
--   host:  PCIe Gen5 x16 in HGX hosts, 64 GB/s one-way
--   net:   8x ConnectX-7 400 Gb/s = 5e10 B/s per GPU (MLPerf v6.0 B200 system
--          description)
--   latency: 2 us per NVSwitch hop, 5 us over InfiniBand (assumptions)
--   engines: kernel tables measured by NVIDIA on this GPU under TensorRT-LLM
--          1.3.0rc20 and vLLM 0.24.0 (NVIDIA AIConfigurator, aiconfigurator-core 0.12.0
--          systems data, Apache-2.0), imported by `make profiles` (roofline calibrate
--          --tables) into engines/b200-trtllm.lua and engines/b200-vllm.lua; calibrated
--          mode times GEMMs and attention from them (src/engines.h).  Engine costs
--          per step / sequence / launch: 0, no sourced figure yet.
return {
  name = "b200",
  source = "NVIDIA DGX/HGX B200 specifications",
  flops = { bf16 = 2.25e15, fp16 = 2.25e15, fp8 = 4.5e15, int8 = 4.5e15, fp4 = 9e15 },
  hbm_bytes = 180e9,
  hbm_bw = 8e12,
  topology = "switch", ici_links = 18, ici_bw = 5e10, ici_latency = 2e-6,
  domain_chips = 8,
  net_bw = 5e10, net_latency = 5e-6,
  host_bw = 6.4e10,
  engines = {
    default = "trtllm",
    trtllm = "engines/b200-trtllm.lua",
    vllm = "engines/b200-vllm.lua",
  },
}
