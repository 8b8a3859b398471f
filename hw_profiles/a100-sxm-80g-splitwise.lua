-- a100-sxm-80g with the engine costs of splitwise fitted by `roofline fit` (src/e2e.h) on
-- splitwise_llama2-70b.csv: 94 rows, 94 configurations, fnv1a64:80f9c4679d05d3b6, 2026-12-01T15:35:10Z.
-- 5-fold cross-validated |error| (folds of whole configurations): median
-- 3.8%, p90 17.9%.  Every other field is a100-sxm-80g's, as loaded.
return {
  name = "a100-sxm-80g-splitwise",
  source = "NVIDIA A100 Tensor Core GPU datasheet (80GB SXM)",
  domain_chips = 8,
  engine_costs = {
    source = "roofline fit on splitwise_llama2-70b.csv (94 rows, 94 configurations, fnv1a64:80f9c4679d05d3b6, 2026-12-01T15:35:10Z)",
    band = {
      p10 = -0.0973013058,
      p5 = -0.1490756671,
      p90 = 0.09812821881,
      p95 = 0.2050478106,
    },
    comm_eff = 0.2067763634,
    compute_eff = 0.727885491,
    decode_seq_s = 0.0003913676097,
    decode_step_s = 0.04419453779,
    engine = "splitwise",
    fitted_on = {
      configs = 94,
      cv_median_abs_error = 0.03828331709,
      cv_p90_abs_error = 0.1790839243,
      date = "2026-12-01T15:35:10Z",
      file = "splitwise_llama2-70b.csv",
      hash = "fnv1a64:80f9c4679d05d3b6",
      rows = 94,
    },
    launch_s = 0,
    memory_eff = 0.624610946,
    prefill_seq_s = 0.02262732634,
    prefill_step_s = 0.04262422236,
  },
  flops = {
    bf16 = 3.12e+14,
    fp16 = 3.12e+14,
    int4 = 1.248e+15,
    int8 = 6.24e+14,
  },
  hbm_bw = 2.039e+12,
  hbm_bytes = 8e+10,
  host_bw = 3.2e+10,
  host_bytes = 0,
  ici_bw = 2.5e+10,
  ici_latency = 2e-06,
  ici_links = 12,
  net_bw = 2.5e+10,
  net_latency = 5e-06,
  price_per_chip_hour = 2.25,
  price_source = "mercatus-ai.com 'Cloud GPU pricing' (May 2026): hyperscaler on-demand A100 80GB USD 1.50-3.00 per GPU-hour, midpoint; retrieved 2026-11-29",
  topology = "switch",
}
