-- exponential backtracking inside string.find
local s = string.rep("a", 40) .. "b"
s:find(string.rep("a*", 40) .. "c")
