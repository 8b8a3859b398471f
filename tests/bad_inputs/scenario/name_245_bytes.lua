-- A file name of 245 bytes: its temporary (+ .tmp.XXXXXX) would pass 255.
roofline.write(string.rep('n', 245), 'x')
