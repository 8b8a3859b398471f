-- Google TPU v5e, one chip.
--   flops: 1.97e14 bf16, 3.94e14 int8 (Google Cloud "TPU v5e" doc: 197 TFLOPs
--          bf16, 393 TOPs int8; Scaling Book "How to Scale Your Model",
--          chapter "TPUs", spec table: 1.97e14 / 3.94e14)
--   hbm:   16 GB HBM2 = 16 GiB = 17179869184 bytes (GB binary, as Google
--          states v4's 32 GiB and v5p's 95 GiB; docs/model.md "HBM capacity") at 819 GBps (Google Cloud TPU v5e doc); the
--          Scaling Book rounds the bandwidth to 8.1e11 or 8.2e11
--   ici:   2D torus, 4 links per chip, 4.5e10 B/s one-way per link (Scaling
--          Book TPU table); 1 us per hop (seed 000 Appendix C); 256-chip pod
--   net:   DCN 3.125e9 B/s per chip; PCIe host link 1.6e10 B/s (Scaling Book)
--   price: USD 1.20 per chip-hour on demand; see price_source (prices move: check)
return {
  name = "tpu-v5e",
  source = "Google Cloud TPU v5e documentation; Scaling Book TPU spec table",
  flops = { bf16 = 1.97e14, int8 = 3.94e14 },
  hbm_bytes = 17179869184,
  hbm_bw = 8.19e11,
  topology = "torus2d", ici_links = 4, ici_bw = 4.5e10, ici_latency = 1e-6,
  domain_chips = 256,
  net_bw = 3.125e9, net_latency = 1e-5,
  host_bw = 1.6e10,
  price_per_chip_hour = 1.2,
  price_source = "Google Cloud on-demand, USD 1.20 per chip-hour (artificial-intelligence-wiki.com 'Google TPU v5 Guide', updated 2026-01-27, quoting cloud.google.com/tpu/pricing); retrieved 2026-11-29",
}
