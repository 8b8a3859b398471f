-- fraction_of names no rule
return {
  name = "hw", flops = { bf16 = 1e15 }, hbm_bytes = 80e9, hbm_bw = 3e12,
  engines = { default = "e", e = { memory = { fraction = 0.9, fraction_of = "total" } } },
}
