-- info's options without model (fixKL #8: read as a model spec, "field 'weights': unknown model field")
roofline.info{ weights = 'int8' }
