-- a spec whose metamethods raise when --set reaches the table
return setmetatable({}, {__index = function() error('index boom') end,
                         __newindex = function() error('newindex boom') end})
