-- 'bf16\0x' is not 'bf16'
return { name = 'x', flops = { ['bf16\0x'] = 1e15 }, hbm_bytes = 80e9, hbm_bw = 3e12 }
