-- NVIDIA H100 PCIe 80GB, one GPU.  Dense peaks only.
--   flops: 7.56e14 bf16/fp16, 1.513e15 fp8/int8 (NVIDIA H100 datasheet,
--          PCIe column, halved "*" sparse figures)
--   hbm:   80 GB HBM2e = 80 GiB = 85899345920 bytes, five 16 GiB HBM2e stacks
--          (NVIDIA LaunchPad H100 MIG guide: "80 GB HBM2e, 5 HBM2e stacks";
--          the same 80 GiB AIConfigurator states for the SXM part; docs/model.md
--          "HBM capacity") at 2.0 TB/s (H100 datasheet)
--   nvlink: NVLink bridge between pairs only, 600 GB/s both directions =
--          300 GB/s one-way as 12 links of 25 GB/s; a domain is 2 GPUs, no
--          NVSwitch, so no in-switch reduction (nvls false)
--   host:  PCIe Gen5 x16, 64 GB/s one-way (datasheet "128 GB/s")
--   net:   assumed one 400 Gb/s NIC per GPU = 5e10 B/s (no vendor figure)
--   latency: 2 us per hop, 5 us over the network (assumptions)
--   price: USD 2.86 per GPU-hour on demand, Lambda's list price for 1x H100 PCIe
--          (lambda.ai/pricing, verified 2026-05-07); see price_source (prices
--          move: check)
--   timing (estimated, nothing measured on a PCIe card): the same GH100 die
--          and the same CUDA kernels as the H100 SXM, so this profile names
--          h100-sxm as its `base` and keeps its measured tables (kernel
--          tables of TensorRT-LLM 1.3.0rc20 and vLLM 0.24.0 from NVIDIA
--          AIConfigurator, aiconfigurator-core 0.12.0, Apache-2.0, imported by
--          `make profiles` into engines/h100-sxm-*.lua; its NCCL and engine
--          AllReduce collectives; its efficiency curves for norms, RoPE and
--          elementwise kernels; TensorRT-LLM's and vLLM's memory rules),
--          with the figures above over them.  Those differ from the chip
--          as measured, so every run is the what-if of h100-sxm (spec.h
--          rl_hw_what_if_of), mode `estimated`: each measured kernel time
--          is split at its roofline on the H100 SXM, the roofline part
--          moved to these peaks and bandwidth and the excess above it kept
--          (engines.h rl_engine_time_on, Hockney's t0 + n / r_inf; checked
--          across the same die: H100 SXM's tables at H200's 4.8 TB/s read
--          -0.8% to +3.5% from H200's own, H200's at H100's 3.35 TB/s
--          -0.8% to -2.4% from H100's, docs/model.md), each measured
--          collective moved by the link ratio 12 / 18 (comm.h).  The
--          assumption: the PCIe card runs the same kernels, and its lower
--          clocks, 114 of 132 SMs and HBM2e are what its datasheet peaks
--          already say; its 350 W limit (SXM: 700 W) may throttle it below
--          them, which nothing here measures.  Before stop 27 this profile
--          ran at its datasheet peaks (efficiency 1.0) and out-ranked the
--          measured h100-sxm in `size` (tester20 F3).
return {
  base = "h100-sxm",
  name = "h100-pcie",
  source = "NVIDIA H100 Tensor Core GPU datasheet (PCIe); kernel and collective times: h100-sxm's measured tables moved to these figures (what-if, estimated)",
  flops = { bf16 = 7.56e14, fp16 = 7.56e14, fp8 = 1.513e15, int8 = 1.513e15 },
  hbm_bytes = 85899345920,
  hbm_bw = 2.0e12,
  topology = "switch", ici_links = 12, ici_bw = 2.5e10, ici_latency = 2e-6,
  domain_chips = 2, nvls = false,
  net_bw = 5e10, net_latency = 5e-6,
  host_bw = 6.4e10,
  price_per_chip_hour = 2.86,
  price_source = "Lambda on-demand 1x H100 PCIe USD 2.86 per GPU-hour (lambda.ai/pricing, as verified 2026-05-07 by techbytes.app 'Serverless GPU Pricing Matrix'); retrieved 2026-12-06",
}
