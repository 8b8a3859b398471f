/* efficiency.h — calibrated efficiency tables of a hardware spec and the
 * calibrated time of one kernel.
 *
 * Owns the `efficiency` field of a hardware spec: a fixed per-kernel
 * overhead and, per kernel class, the achieved fraction of the ideal
 * roofline time as a function of the kernel's size:
 *
 *   efficiency = {
 *     overhead_s = 2e-6,                        -- seconds per kernel launch
 *     measured_on = "h200",                     -- optional: figures borrowed from that chip
 *     gemm = { {1, 0.6}, {32, 0.2}, {2048, 0.8} }, -- {tokens M of an (M,K)x(K,N) matmul, fraction}
 *     attention = { {1e5, 0.4}, {3e8, 0.9} },   -- decode attention: {bytes, fraction}
 *     prefill_attention = { {1e7, 0.3}, ... },  -- {FLOPs, fraction}
 *     norm = { {4e3, 0.1}, ... },               -- RMSNorm: {bytes, fraction}
 *     rope = { {4e3, 0.1}, ... },               -- RoPE: {bytes, fraction}
 *     elementwise = { {1e4, 0.2}, ... },        -- adds, copies, gathers: {bytes, fraction}
 *     swiglu = { {1e4, 0.2}, ... },             -- SwiGLU/GeGLU activation: {bytes, fraction}
 *   }
 *
 * A kernel of class c doing F FLOPs and moving Y bytes then takes
 *
 *   t = overhead_s + max(F / peak, Y / bw) / frac_c(size)            (C)
 *
 * with frac_c interpolated linearly in log(size) between the points and held
 * constant beyond them (a class without points has frac 1, except swiglu,
 * which then takes the elementwise curve: profiles written before it had its
 * own class timed it there).  Each class is fitted on its own kernels:
 * SwiGLU reads two tensors and evaluates an exponential per element, a
 * residual add streams three, and one curve for both zig-zagged between
 * their efficiencies at neighbouring sizes (issue 12).  `calibrate`
 * writes these tables from measurements (calib/); the ideal roofline of seed
 * 000 section 1 is frac = 1, overhead 0.  Uses roofline, Lua. */
#ifndef RL_EFFICIENCY_H
#define RL_EFFICIENCY_H

#include <stddef.h>

#include <lua.h>

#define RL_EFF_POINTS 48

typedef enum {
    RL_EFF_GEMM,
    RL_EFF_ATTENTION,
    RL_EFF_PREFILL_ATTENTION,
    RL_EFF_NORM,
    RL_EFF_ROPE,
    RL_EFF_ELEMENTWISE,
    RL_EFF_SWIGLU,
    RL_EFF_CLASSES
} rl_eff_class;

typedef struct {
    int n;
    double size[RL_EFF_POINTS]; /* increasing; tokens, FLOPs or bytes by class */
    double frac[RL_EFF_POINTS]; /* in (0, 1.5]: achieved / ideal roofline speed */
} rl_eff_curve;

typedef struct {
    int present;       /* the spec gave `efficiency` */
    double overhead_s; /* per kernel, seconds */
    rl_eff_curve curve[RL_EFF_CLASSES];
    char source[256];  /* optional: where the fractions come from ("" when not given) */
    char measured_on[64]; /* optional: hw spec name of the chip measured, when not this one
                             ("": this chip); another name makes the mode `estimated` */
} rl_efficiency;

/* "gemm", "attention", "prefill_attention", "norm", "rope", "elementwise",
 * "swiglu". */
const char *rl_eff_class_name(rl_eff_class c);

/* frac_c(size) as described above. */
double rl_eff_frac(const rl_eff_curve *c, double size);

/* The size a class's curve is keyed by: tokens (rows M) for gemm, FLOPs
 * for prefill_attention, bytes otherwise. */
double rl_eff_size(rl_eff_class c, double tokens, double flops, double bytes);

/* Time (C) of one kernel of class c of the given size (rl_eff_size) doing
 * flops FLOPs and moving bytes bytes, on `peak` FLOP/s and `bw` bytes/s.
 * With e == NULL or not present: the ideal roofline max(F / peak, Y / bw). */
double rl_eff_time(const rl_efficiency *e, rl_eff_class c, double size, double flops, double bytes,
                   double peak, double bw);

/* The last curve and size rl_eff_time_memo read and its fraction (curve
 * NULL: none yet; zero it to start). */
typedef struct {
    const rl_eff_curve *curve;
    double size, frac;
} rl_eff_memo;

/* rl_eff_time, the fraction taken from *memo when it holds the same curve
 * and size (the GEMMs of an operator list share one size, their tokens),
 * else computed and kept there.  Exactly rl_eff_time. */
double rl_eff_time_memo(const rl_efficiency *e, rl_eff_class c, double size, double flops,
                        double bytes, double peak, double bw, rl_eff_memo *memo);

/* Read the table on top of L's stack into *out (present = 1).  Errors name
 * "ORIGIN: field 'efficiency.gemm[2]': reason": unknown keys, sizes not
 * increasing, fractions outside (0, 1.5], more than RL_EFF_POINTS points. */
int rl_efficiency_read(lua_State *L, const char *origin, rl_efficiency *out, char *err,
                       size_t errlen);

/* Push *e as the Lua table above. */
void rl_efficiency_push(lua_State *L, const rl_efficiency *e);

#endif
