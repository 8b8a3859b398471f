-- 1e7 simulated requests (the bound) need about 1.5 GB against the 512 MiB budget
roofline.simulate{model = 'llama3-8b', hw = 'h100-sxm', qps = 10, prompt = '100', output = '10',
                  requests = 10000000}
