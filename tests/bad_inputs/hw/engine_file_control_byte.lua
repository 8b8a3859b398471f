-- an engine file name with a control byte that does not exist: the
-- message shows it escaped (\x01), as every path
return { name = "x", hbm_bytes = 8e10, hbm_bw = 3e12, flops = { bf16 = 1e15 },
  engines = { default = "mine", mine = "engines/no\nsuch.lua" } }
