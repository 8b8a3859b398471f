-- a series entry whose rows come from __index, a longer table each time:
-- plot counted them in one pass and filled them in another (a heap overflow
-- before issue 16); entries are read raw now
local n = 0
local entry = setmetatable({title = 'x'}, {__index = function(t, k)
  if k ~= 'rows' then return nil end
  n = n + 1000
  local rows = {}
  for i = 1, n do rows[i] = {step_s = i, chip_s_per_token = 1 / i} end
  return rows
end})
roofline.plot{kind = 'pareto', file = 'p.png', series = {entry}}
