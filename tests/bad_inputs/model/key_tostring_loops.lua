-- a table key whose __tostring never returns
return { [setmetatable({}, {__tostring = function() while true do end end})] = 1 }
