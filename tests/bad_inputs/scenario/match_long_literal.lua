-- no repetition, but 200,001 start positions x 100,000 pattern items
local s = ('a'):rep(200000)
s:match(('a'):rep(100000) .. 'b')
