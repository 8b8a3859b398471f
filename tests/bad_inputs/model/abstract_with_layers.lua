-- abstract models give totals only
return { name = 'a', params = 7e9, kv_bytes_per_token = 1e5, layers = 32 }
