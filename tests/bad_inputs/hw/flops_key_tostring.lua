-- a flops key whose __tostring raises
return { name = 'x', flops = { [setmetatable({}, {__tostring = function() error('boom') end})] = 1e15 },
         hbm_bytes = 80e9, hbm_bw = 3e12 }
