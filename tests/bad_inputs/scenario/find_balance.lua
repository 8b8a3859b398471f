-- %b scans to the end of the subject from every start position: (n+1) starts x (n+2)
local s = ('('):rep(300000)
s:find('%b()')
