-- unknown norm (spec.h rl_norm: rmsnorm or layernorm); read before the
-- required fields are checked
return { name = "m", norm = "groupnorm" }
