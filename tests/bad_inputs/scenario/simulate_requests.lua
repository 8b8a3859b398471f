-- 2e7 simulated requests used 2.2 GB against the 512 MiB budget
roofline.simulate{model = 'llama3-8b', hw = 'h100-sxm', qps = 10, prompt = '100', output = '10',
                  requests = 20000000}
