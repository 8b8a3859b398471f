-- an activation workspace token count past a 32-bit count (was an infinite workspace, exit 1)
return {
  name = "hw", flops = { bf16 = 1e15 }, hbm_bytes = 80e9, hbm_bw = 3e12,
  engines = { default = "e", e = { memory = { fraction = 0.9, workspace_tokens = 1e306 } } },
}
