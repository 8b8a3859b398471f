-- tries to swallow the budget error with pcall and keep going
while true do pcall(function() while true do end end) end
