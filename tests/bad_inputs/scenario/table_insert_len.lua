-- __len says the table is huge: insert shifts every element inside C
local t = setmetatable({}, {__len = function() return math.maxinteger - 1 end})
table.insert(t, 1, 'x')
