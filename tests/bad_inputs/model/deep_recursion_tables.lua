-- each frame holds a table: under the 64 MiB spec cap the memory runs out
-- before Lua's stack limit; the error must still name the recursion
local function f(n) local t = {} t[1] = f(n + 1) return t end
return f(1)
