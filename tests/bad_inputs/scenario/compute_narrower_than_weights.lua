-- fp8 matmuls on bf16 weights: refused (step.h rl_step_check).
print(roofline.step{model = 'llama3-8b', hw = 'h100-sxm', context = 1024, weights = 'bf16', compute = 'fp8'})
