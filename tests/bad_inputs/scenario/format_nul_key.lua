-- a NUL inside a field name
roofline.format({['a\0b'] = 1}, 'json')
