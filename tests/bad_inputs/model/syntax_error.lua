-- two commas
return { name = 'm', layers = 32,, }
