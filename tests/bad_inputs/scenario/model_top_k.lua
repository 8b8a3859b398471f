-- an inline model table with top_k > experts
roofline.model({ name = "moe", layers = 2, d_model = 64, d_ff = 128, heads = 4, kv_heads = 4,
                 vocab = 100, experts = 4, top_k = 5 })
