-- 2^63 empty copies: one C loop the hook cannot stop
local s = string.rep('', math.maxinteger)
