-- 2^63 element moves inside C
table.move({}, 1, math.maxinteger - 1, 1)
