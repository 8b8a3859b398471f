-- fixRC #6: 'bf16' given twice in the flops table (a datasheet figure
-- pasted over another); the other flops keys and the top level are unique
return {
  base = "h100-sxm",
  flops = {
    bf16 = 989e12,
    fp8 = 1979e12,
    bf16 = 1979e12,
  },
}
