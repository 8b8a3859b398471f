/* roofline.c — time of one operation under the ideal roofline, B_crit. */
#include "roofline.h"

rl_roofline rl_roofline_time(double flops, double bytes, double peak, double bw)
{
    rl_roofline r;
    r.compute_s = flops / peak;
    r.memory_s = bytes / bw;
    r.bound = rl_bound_of(r.compute_s, r.memory_s);
    r.time_s = r.bound == RL_COMPUTE_BOUND ? r.compute_s : r.memory_s;
    return r;
}

rl_bound rl_bound_of(double compute_s, double memory_s)
{
    return compute_s > memory_s ? RL_COMPUTE_BOUND : RL_MEMORY_BOUND;
}

const char *rl_bound_name(rl_bound b) { return b == RL_COMPUTE_BOUND ? "compute" : "memory"; }

double rl_hw_peak(const rl_hw *h, rl_dtype compute) { return h->flops[compute]; }

double rl_hw_intensity(const rl_hw *h, rl_dtype compute) { return rl_hw_peak(h, compute) / h->hbm_bw; }

double rl_b_crit(const rl_hw *h, rl_dtype weights, rl_dtype compute)
{
    /* bytes per stored weight as memory and weight_load count them: the
     * 4-bit formats' block scales included (tester31 F4) */
    return rl_hw_intensity(h, compute) * rl_dtype_weight_bytes(weights) / 2.0;
}
