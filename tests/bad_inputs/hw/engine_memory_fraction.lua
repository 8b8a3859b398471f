-- an engine memory fraction above 1
return {
  name = "hw", flops = { bf16 = 1e15 }, hbm_bytes = 80e9, hbm_bw = 3e12,
  engines = { default = "e", e = { memory = { fraction = 1.5, fraction_of = "capacity" } } },
}
