-- a table key whose __tostring returns a non-string
return { [setmetatable({}, {__tostring = function() return 42 end})] = 1 }
