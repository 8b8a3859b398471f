-- A valid abstract model (params and KV bytes per token, no layer shapes)
return { name = 'abstract-ok', params = 7e9, kv_bytes_per_token = 131072, max_context = 8192 }
