-- a finalizer would run outside the budget's reach
setmetatable({}, { __gc = function() while true do end end })
