-- a list, not a spec
return { 1, 2, 3 }
