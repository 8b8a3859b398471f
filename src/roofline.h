/* roofline.h — the roofline of one operation and the critical batch size.
 *
 * Owns: time = max(FLOPs / peak, bytes / bandwidth) (perfect overlap), the
 * bound it reports, arithmetic intensity, and B_crit for a (weight dtype,
 * compute dtype, chip).  Uses spec (rl_hw), dtype.  Source: seed 000
 * section 1 "Linear operations: what bottlenecks us?". */
#ifndef RL_ROOFLINE_H
#define RL_ROOFLINE_H

#include "dtype.h"
#include "spec.h"

typedef enum { RL_MEMORY_BOUND, RL_COMPUTE_BOUND } rl_bound;

typedef struct {
    double compute_s; /* FLOPs / peak FLOP/s */
    double memory_s;  /* bytes / bandwidth */
    double time_s;    /* max of the two (ideal: perfect overlap) */
    rl_bound bound;   /* which term is larger (memory on ties) */
} rl_roofline;

/* Ideal time of an operation doing `flops` FLOPs and moving `bytes` bytes on
 * hardware with `peak` FLOP/s and `bw` bytes/s (both > 0). */
rl_roofline rl_roofline_time(double flops, double bytes, double peak, double bw);

/* Compute-bound when compute_s exceeds memory_s (memory on ties). */
rl_bound rl_bound_of(double compute_s, double memory_s);

/* "memory" or "compute". */
const char *rl_bound_name(rl_bound b);

/* Peak FLOP/s of one chip for a compute dtype; 0 if the spec does not list
 * it (callers turn that into an error naming hw.flops.<dtype>). */
double rl_hw_peak(const rl_hw *h, rl_dtype compute);

/* Hardware arithmetic intensity peak/bandwidth, FLOPs per byte
 * (TPU v5e bf16: 1.97e14 / 8.2e11 = 240). */
double rl_hw_intensity(const rl_hw *h, rl_dtype compute);

/* Critical batch of a weight matmul: the tokens per chip above which
 * [B,D] x [D,F] is compute-bound, B_crit = peak * bytes(weight) / (2 * bw)
 * (seed 000 section 1: B_crit = beta * alpha_hbm with beta = bits per param
 * / bits per activation).  v5e: bf16 240, int8 weights + bf16 compute 120,
 * int8 x int8 240; H100 SXM bf16 295.  bytes(weight) is what memory and
 * weight_load count per stored weight (rl_dtype_weight_bytes: mxfp4
 * 0.53125, int4 0.515625, fp4 0.5625 with their block scales).  Returns 0
 * if the peak is unknown. */
double rl_b_crit(const rl_hw *h, rl_dtype weights, rl_dtype compute);

#endif
