-- a table key whose __tostring raises: spec checking must not call it
return { [setmetatable({}, {__tostring = function() error('boom') end})] = 1 }
