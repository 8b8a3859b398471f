-- tries to allocate 1 GB
local s = string.rep('x', 1e9)
return { name = s }
