-- fixGI #5: a page longer than the model's max_context (8192) is refused, as --page
roofline.simulate{model = "llama3-8b", hw = "h100-sxm", qps = 2, prompt_len = 100, out_len = 100,
                  requests = 20, page = 100000}
