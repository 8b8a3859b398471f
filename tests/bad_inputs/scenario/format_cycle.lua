-- a table that contains itself
local t = {} t.self = t
print(roofline.format(t, "json"))
