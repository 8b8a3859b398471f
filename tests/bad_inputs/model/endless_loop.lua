-- never returns
while true do end
