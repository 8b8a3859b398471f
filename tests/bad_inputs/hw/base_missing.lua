-- a base preset that does not exist
return { base = "h100-nope", engines = nil }
