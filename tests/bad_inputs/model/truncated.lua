return {
  name = "m",
  layers = 32, d_model = 40