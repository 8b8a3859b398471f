-- 4096 batch sizes x 7 contexts x 4 x 4 precisions: 12.5 GB before issue 16.
-- One chip count (458752 points, past the budget's 131052 feasible ones):
-- since stop 56 each point of a multi-chip count also runs step's plan
-- search (sweep.h step_plans), and h100-sxm's default four counts took 9 s
-- here, over valgrind's 300 s a case in CI.
local b = {}
for i = 1, 4096 do b[i] = i end
roofline.sweep{model = 'llama3-8b', hw = 'h100-sxm', chips = {1}, batch = b,
               context = {128, 256, 512, 1024, 2048, 4096, 8192},
               weights = {'bf16', 'fp8', 'int8', 'int4'}, kv = {'bf16', 'fp8', 'int8', 'int4'}}
