-- Test fixture: the h100-pcie preset as it was until stop 27, datasheet
-- figures only (nothing measured, no engine, no price), for tests of a
-- profile with nothing measured on a switch topology (test_cli.c).
-- NVIDIA H100 PCIe 80GB, one GPU.  Dense peaks only.
--   flops: 7.56e14 bf16/fp16, 1.513e15 fp8/int8 (NVIDIA H100 datasheet,
--          PCIe column, halved "*" sparse figures)
--   hbm:   80 GB HBM2e = 80e9 bytes at 2.0 TB/s (H100 datasheet)
--   nvlink: NVLink bridge between pairs only, 600 GB/s both directions =
--          300 GB/s one-way as 12 links of 25 GB/s; a domain is 2 GPUs
--   host:  PCIe Gen5 x16, 64 GB/s one-way (datasheet "128 GB/s")
--   net:   assumed one 400 Gb/s NIC per GPU = 5e10 B/s (no vendor figure)
--   latency: 2 us per hop, 5 us over the network (assumptions)
return {
  name = "h100-pcie-datasheet",
  source = "NVIDIA H100 Tensor Core GPU datasheet (PCIe)",
  flops = { bf16 = 7.56e14, fp16 = 7.56e14, fp8 = 1.513e15, int8 = 1.513e15 },
  hbm_bytes = 80e9,
  hbm_bw = 2.0e12,
  topology = "switch", ici_links = 12, ici_bw = 2.5e10, ici_latency = 2e-6,
  domain_chips = 2,
  net_bw = 5e10, net_latency = 5e-6,
  host_bw = 6.4e10,
}
