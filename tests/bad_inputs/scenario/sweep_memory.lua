-- 4096 batch sizes x 7 contexts x 4 x 4 precisions: 12.5 GB before issue 16
local b = {}
for i = 1, 4096 do b[i] = i end
roofline.sweep{model = 'llama3-8b', hw = 'h100-sxm', batch = b,
               context = {128, 256, 512, 1024, 2048, 4096, 8192},
               weights = {'bf16', 'fp8', 'int8', 'int4'}, kv = {'bf16', 'fp8', 'int8', 'int4'}}
