-- fixUF #2: an inline hardware table with a figure 14 orders below the
-- presets (an exponent dropped): --set hw.flops.bf16=1 warned, this table
-- ran a 1.55e10 s step without a word; it runs (a what-if may lie outside
-- the presets), with the range note on stderr
local r = roofline.step{model = "llama3-8b", hw = {base = "h100-sxm", flops = {bf16 = 1}}, context = 1024}
print(r.rows[1].step_s > 1e9)
