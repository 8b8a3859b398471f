-- roofline.simulate with a negative TTFT SLO: an error naming the field
roofline.simulate{model='llama3-8b', hw='h100-sxm', qps=1, prompt='10', output='10', requests=10, ttft_slo=-1}
