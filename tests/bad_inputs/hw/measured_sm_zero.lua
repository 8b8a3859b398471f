-- measured_sm 0: the chip's measurements taken at no sm (refused: > 0 as sm,
-- or left out for the spec's own)
return {
  name = "hw",
  flops = { bf16 = 1e15 },
  hbm_bytes = 80e9,
  hbm_bw = 3.35e12,
  sm = 90,
  measured_sm = 0,
}
