-- 'layers\0x' is not 'layers'
return { ['layers\0x'] = 32, d_model = 4096, d_ff = 11008, heads = 32, kv_heads = 32, vocab = 32000 }
