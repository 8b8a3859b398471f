-- KV bytes per token so small that max batch would overflow a 64-bit integer
return { name = 'a', params = 7e9, kv_bytes_per_token = 1e-300, max_context = 8192 }
