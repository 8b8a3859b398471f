-- no require in the sandbox
local m = require('os')
return {}
