-- __len says the table is huge: remove shifts every element inside C
local t = setmetatable({}, {__len = function() return math.maxinteger - 1 end})
table.remove(t, 1)
