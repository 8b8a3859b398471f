-- doubles a string until the 64 MiB memory cap stops it (string.rep('x', 1e9)
-- is refused sooner, by the cost of the call)
local s = 'x'
for i = 1, 40 do s = s .. s end
return { name = s }
