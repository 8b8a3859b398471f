-- a minimal spec: no host_bw, net_bw or interconnect (tester33 F1); step
-- and continuous simulate run on it, swap / host prefix tier / disagg need a link
return { name = "h", flops = { bf16 = 1e15 }, hbm_bytes = 8e10, hbm_bw = 3e12 }
