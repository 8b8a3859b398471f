-- 1e300 parameters: finite, but no byte count of it is exact
return { name = 'a', params = 1e300, kv_bytes_per_token = 1e5 }
