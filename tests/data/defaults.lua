-- One roofline.<command> call with only its required fields, printed as
-- JSON, for tests/test_param.c (defaults_cli_equal_lua): each result must
-- equal the command line's with only the required options, so the Lua
-- faces default every other parameter as the CLI does.  Run as
-- roofline run defaults.lua CALL.
local calls = {
  info = function() return roofline.info('llama3-8b') end,
  step = function() return roofline.step{ model = 'llama3-8b', hw = 'h100-sxm', context = 1024 } end,
  step_overlap = function()
    return roofline.step{ model = 'llama3-8b', hw = 'h100-sxm', context = 1024, overlap = true, kv_split = 'seq' }
  end,
  step_tp = function() return roofline.step{ model = 'llama3-70b', hw = 'h100-sxm', chips = 8, context = 1024, tp = 8 } end,
  step_tp_overlap = function()
    return roofline.step{ model = 'llama3-70b', hw = 'h100-sxm', chips = 8, context = 1024, tp = 4, overlap = true }
  end,
  step_fitted_overlap = function()
    return roofline.step{ model = 'llama2-70b', hw = 'h100-sxm-splitwise', chips = 8, context = 2048, tp = 4, overlap = true }
  end,
  step_fitted_pp = function()
    return roofline.step{ model = 'llama2-70b', hw = 'h100-sxm-splitwise', chips = 8, context = 2048, tp = 4, pp = 2 }
  end,
  shard = function() return roofline.shard{ model = 'llama3-70b', hw = 'h100-sxm', chips = 8, context = 1024 } end,
  ops = function() return roofline.ops{ model = 'llama3-8b', hw = 'h100-sxm', context = 1024 } end,
  prefill = function() return roofline.prefill{ model = 'llama3-8b', hw = 'h100-sxm', tokens = 512 } end,
  pareto = function() return roofline.pareto{ model = 'llama3-8b', hw = 'h100-sxm', chips = { 1, 2 } } end,
  simulate = function()
    return roofline.simulate{ model = 'llama3-8b', hw = 'h100-sxm', qps = 5, prompt_len = '100', out_len = '10' }
  end,
  simulate_old = function()
    return roofline.simulate{ model = 'llama3-8b', hw = 'h100-sxm', qps = 5, prompt = '100', output = '10' }
  end,
}
print(roofline.format(calls[arg[1]](), 'json'))
