-- a plain find compares up to the needle's length at every position
local s = ('a'):rep(200000)
s:find(('a'):rep(100000) .. 'b', 1, true)
