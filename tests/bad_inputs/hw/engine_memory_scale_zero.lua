-- an activation workspace factor of 0 (a factor over the working set, > 0)
return {
  name = "hw", flops = { bf16 = 1e15 }, hbm_bytes = 80e9, hbm_bw = 3e12,
  engines = { default = "e", e = { memory = { fraction = 0.9, workspace_tokens = 8192, workspace_scale = 0 } } },
}
