-- two specs that name each other as base: the chain never ends
return { base = "base_cycle_a.lua" }
