-- format must not run __index: this one removes every key and forces a
-- collection (heap-use-after-free of the key strings before issue 16)
local t = {}
for i = 1, 200 do t['key' .. i .. ('x'):rep(50)] = i end
setmetatable(t, {__index = function(tt)
  for k in pairs(tt) do rawset(tt, k, nil) end
  local junk = {}
  for i = 1, 100000 do junk[i] = {i} end
end})
local s = roofline.format(t, 'json')
error('format read ' .. select(2, s:gsub('"key', '')) .. ' keys')
