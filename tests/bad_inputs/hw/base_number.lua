-- base must name a preset or a .lua path
return { base = 42 }
