-- tester63 #11: the memory figure drew "3 x tpu-v5e" where step --chips 3
-- refuses 3 as not a torus slice: roofline.plot checks chips as step does
roofline.plot{kind = "memory", file = "m.png", model = "llama3-8b", hw = "tpu-v5e", chips = 3,
              context = 2048}
