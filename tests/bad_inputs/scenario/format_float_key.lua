-- tester46 F5: a key neither a name nor a list index is named with its type
roofline.format({[1.5] = 1}, 'json')
