-- beyond the bound the CLI's --requests has (1e7)
roofline.simulate{model = 'llama3-8b', hw = 'h100-sxm', qps = 10, prompt = '100', output = '10',
                  requests = 200000000}
