-- a spec that is its own base: the chain never ends
return { base = "base_cycle.lua" }
