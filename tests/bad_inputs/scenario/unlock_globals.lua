-- tries to lift the undefined-global rule
setmetatable(_G, nil)
