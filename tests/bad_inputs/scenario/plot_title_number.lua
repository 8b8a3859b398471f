-- a number title was converted on the stack and popped, its pointer kept
local rows = {{step_s = 1, chip_s_per_token = 1}}
roofline.plot{kind = 'pareto', file = 'p.png', series = {{title = 5, rows = rows}}}
