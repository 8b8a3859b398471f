-- tester46 F3: a string that is not UTF-8 is refused, not written as invalid JSON
roofline.format({s = '\xff\xfe'}, 'json')
