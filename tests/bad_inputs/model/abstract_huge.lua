-- 1e20 parameters: within the 1e24 sanity bound, but beyond exact byte counts
return { name = 'a', params = 1e20, kv_bytes_per_token = 1e5 }
