-- A hardware spec whose fitted costs sit in the top-level engine_costs of
-- profiles written before they moved to engines.NAME.costs (test_e2e's
-- engine_costs_alias).  The numbers are made up, not a measurement.
return { name = "x", flops = { bf16 = 1e15 }, hbm_bytes = 8e10, hbm_bw = 3e12,
  engine_costs = { engine = "bench", decode_step_s = 0.03, memory_eff = 0.5, comm_eff = 0.3,
                   band = { p5 = -0.2, p10 = -0.1, p90 = 0.1, p95 = 0.2 } } }
