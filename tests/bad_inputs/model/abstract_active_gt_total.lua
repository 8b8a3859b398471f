-- params_active > params
return { name = 'a', params = 7e9, params_active = 8e9, kv_bytes_per_token = 1e5 }
