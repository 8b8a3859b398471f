-- %b scans to the end of the subject from every start position
local s = ('('):rep(300000)
s:find('%b()')
