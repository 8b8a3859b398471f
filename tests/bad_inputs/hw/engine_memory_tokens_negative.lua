-- a negative activation workspace token count (a count of tokens, not bytes)
return {
  name = "hw", flops = { bf16 = 1e15 }, hbm_bytes = 80e9, hbm_bw = 3e12,
  engines = { default = "e", e = { memory = { fraction = 0.9, workspace_tokens = -1 } } },
}
