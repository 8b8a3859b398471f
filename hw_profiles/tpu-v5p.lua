-- Google TPU v5p, one chip.
--   flops: 4.59e14 bf16, 9.18e14 int8 (Google Cloud "TPU v5p" doc: 459 TFLOPs
--          bf16; Scaling Book TPU table: int8 9.18e14)
--   hbm:   95 GiB usable = 102005473280 bytes at 2765 GBps (Google Cloud TPU
--          v5p doc: "HBM capacity per chip (GiB) 95", "2765 GBps")
--   ici:   3D torus, 6 links, 9e10 B/s one-way per link (Scaling Book TPU
--          table); 1 us per hop (seed 000 Appendix C); domain 6144 chips:
--          the pod has 8960, but "the largest job that can be scheduled is
--          a 96 cube (6144 chip) job", 16x16x24 (Google Cloud "TPU v5p" doc,
--          cloud.google.com/tpu/docs/v5p, Configurations); larger runs are
--          multislice over DCN, so one ICI domain is one 6144-chip slice
--   net:   DCN 50 Gbps = 6.25e9 B/s per chip (Google doc); PCIe 1.6e10 B/s
--   price: USD 4.20 per chip-hour on demand; see price_source (prices move: check)
return {
  name = "tpu-v5p",
  source = "Google Cloud TPU v5p documentation; Scaling Book TPU spec table",
  flops = { bf16 = 4.59e14, int8 = 9.18e14 },
  hbm_bytes = 102005473280,
  hbm_bw = 2.765e12,
  topology = "torus3d", ici_links = 6, ici_bw = 9e10, ici_latency = 1e-6,
  domain_chips = 6144,
  net_bw = 6.25e9, net_latency = 1e-5,
  host_bw = 1.6e10,
  price_per_chip_hour = 4.2,
  price_source = "Google Cloud on-demand, USD 4.20 per chip-hour (artificial-intelligence-wiki.com 'Google TPU v5 Guide', updated 2026-01-27); Scaling Book gpus chapter: 'around $4/hour for a TPU v5p'; retrieved 2026-11-29",
}
