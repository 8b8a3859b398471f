-- The result of one roofline.<command> call as JSON, for tests/test_keys.c
-- (the Lua face of the pinned result keys): roofline run keys.lua COMMAND.
local calls = {
  info = function() return roofline.info('llama3-8b', { context = 1024 }) end,
  step = function() return roofline.step{ model = 'llama3-8b', hw = 'h100-sxm', context = 1024, batch = { 1, 8 } } end,
  shard = function() return roofline.shard{ model = 'llama3-70b', hw = 'h100-sxm', chips = 8, batch = 4, context = 1024 } end,
  ops = function() return roofline.ops{ model = 'llama3-8b', hw = 'h100-sxm', context = 1024, batch = 8 } end,
  prefill = function() return roofline.prefill{ model = 'llama3-8b', hw = 'h100-sxm', tokens = { 512, 1024 }, chunk = 256 } end,
  pareto = function() return roofline.pareto{ model = 'llama3-8b', hw = 'h100-sxm', chips = { 1, 2 }, batch = { 1, 8 }, context = 2048 } end,
  simulate = function() return roofline.simulate{ model = 'llama3-8b', hw = 'h100-sxm', qps = 5, prompt = '100', output = '10', requests = 200 } end,
  size = function() return roofline.size{ model = 'llama3-8b', hw = 'h100-sxm', qps = 2, prompt = '100', output = '20', ttft_p99 = 1, tpot_p99 = 0.05, requests = 200, max_chips = 2 } end,
}
print(roofline.format(calls[arg[1]](), 'json'))
