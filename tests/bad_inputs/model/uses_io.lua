-- no io in the sandbox
local f = io.open('/etc/passwd')
return {}
