-- Google TPU v4, one chip.
--   flops: 2.75e14 bf16 and int8 (Google Cloud "TPU v4" doc: "275 teraflops
--          (bf16 or int8)")
--   hbm:   32 GiB = 34359738368 bytes at 1200 GBps (Google Cloud TPU v4 doc)
--   ici:   3D torus, 6 links per chip, 4.5e10 B/s one-way per link (Scaling
--          Book TPU table, "v4p"); 1 us per hop (seed 000 Appendix C);
--          pod of 4096 chips
--   net:   DCN 6.25e9 B/s per chip; PCIe host link 1.6e10 B/s (Scaling Book)
--   price: USD 3.22 per chip-hour on demand (Google Cloud TPU pricing page's
--          v4 on-demand/evaluation price, 2022-08-11); see price_source (prices
--          move: check)
return {
  name = "tpu-v4",
  source = "Google Cloud TPU v4 documentation; Scaling Book TPU spec table",
  flops = { bf16 = 2.75e14, int8 = 2.75e14 },
  hbm_bytes = 34359738368,
  hbm_bw = 1.2e12,
  topology = "torus3d", ici_links = 6, ici_bw = 4.5e10, ici_latency = 1e-6,
  domain_chips = 4096,
  net_bw = 6.25e9, net_latency = 1e-5,
  host_bw = 1.6e10,
  price_per_chip_hour = 3.22,
  price_source = "Google Cloud on-demand/evaluation, USD 3.22 per chip-hour (cloud.google.com/tpu/pricing, v4, as quoted on 2022-08-11 by infer-pub.com question 1114); retrieved 2026-12-06",
}
