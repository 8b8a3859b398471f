-- Google TPU v6e (Trillium), one chip.
--   flops: 9.18e14 bf16, 1.836e15 int8 (Google Cloud "TPU v6e" doc: 918 TFLOPs,
--          1836 TOPs)
--   hbm:   32 GB = 32 GiB = 34359738368 bytes (GB binary, as Google states
--          v4's 32 GiB and v5p's 95 GiB; docs/model.md "HBM capacity") at 1638 GBps (Google Cloud TPU v6e doc)
--   ici:   2D torus, 4 links, 9e10 B/s one-way per link (Scaling Book TPU
--          table); 1 us per hop (seed 000 Appendix C); 256-chip pod
--   net:   DCN 1.25e10 B/s per chip; PCIe 3.2e10 B/s (Scaling Book)
--   price: USD 2.70 per chip-hour on demand; see price_source (prices move: check)
return {
  name = "tpu-v6e",
  source = "Google Cloud TPU v6e documentation; Scaling Book TPU spec table",
  flops = { bf16 = 9.18e14, int8 = 1.836e15 },
  hbm_bytes = 34359738368,
  hbm_bw = 1.638e12,
  topology = "torus2d", ici_links = 4, ici_bw = 9e10, ici_latency = 1e-6,
  domain_chips = 256,
  net_bw = 1.25e10, net_latency = 1e-5,
  host_bw = 3.2e10,
  price_per_chip_hour = 2.7,
  price_source = "Google Cloud Trillium GA announcement (neowin.net, 2024-12-11): 'starting at $2.7000 per chip-hour' on demand; retrieved 2026-11-29",
}
