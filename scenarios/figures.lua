-- Question: what do the figures of README.md and docs/model.md show?  Draws, into the output
-- directory (make figures: out/figures):
--   roofline.png  — the TPU v5e roofline (seed 000 section 1 "Linear
--                   operations": ridge at peak / BW = 240 FLOPs/byte in bf16)
--                   with LLaMA-3-70B's decode-step operators placed on it;
--   step.png      — LLaMA-2-13B on 8 TPU v5e, step time vs batch split into
--                   the three terms of formula (1), for three contexts (the
--                   setting of the chapter's LLaMA-2-13B tables);
--   memory.png    — LLaMA-3-70B on 16 TPU v5e, weights + KV + activations
--                   vs batch against the 256 GB HBM line.
-- Checked line: the ridge point (the chapter's 240 FLOPs/byte, within 1%).

local hw = roofline.hw("tpu-v5e")
local ridge = hw.flops.bf16 / hw.hbm_bw
print(string.format("TPU v5e ridge point: %.1f FLOPs/byte (bf16)", ridge))
print(string.format("check ridge_v5e %.6g", ridge))

local function show(fig, why) print(fig and ("figure: " .. fig) or why) end
show(roofline.plot{ kind = "roofline", file = "roofline.png", model = "llama3-70b", hw = hw,
                    batch = { 1, 8, 32, 128, 240, 1024 }, context = 8192 })
show(roofline.plot{ kind = "step", file = "step.png", model = roofline.model("llama2-13b", { max_context = 32768 }),
                    hw = hw, chips = 8, context = { 1024, 8192, 32768 },
                    batch = { 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024 } })
show(roofline.plot{ kind = "memory", file = "memory.png", model = "llama3-70b", hw = hw, chips = 16,
                    context = 8192, batch = { 1, 8, 16, 32, 48, 64, 96, 128 } })
