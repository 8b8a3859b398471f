-- a missing 'end'
for i = 1, 10 do
  print(i)
