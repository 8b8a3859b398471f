/* engine_ops.h — the reference engine's operators with their FLOPs, bytes
 * and kernel counts for one prefill or decode step, and their calibrated
 * predicted time.
 *
 * Owns the analytic cost of each engine operator (names: engine.h rl_eop).
 * Activations and KV are fp32; weights take `weight_bytes` per element.
 * Sources: matmul 2*M*N*K FLOPs and (N*K weights + M*K + M*N activations)
 * bytes (seed 000 section 1 "Linear operations"); decode attention reads the
 * whole KV cache, 2 * S * K * H elements per sequence and layer, and does
 * 4 * S * N * H FLOPs (seed 000 section 1 "What about attention?"); causal
 * prefill attention 4 * N * H * T(T+1)/2 FLOPs.  Matmuls and attention
 * also carry their kernel-table shape (engines.h), so a profile written by
 * calibrate times them from its `reference` tables as ops.c does.  Uses
 * spec, efficiency, engines, engine (op names). */
#ifndef RL_ENGINE_OPS_H
#define RL_ENGINE_OPS_H

#include "efficiency.h"
#include "engine.h"
#include "engines.h"
#include "spec.h"

typedef struct {
    double flops;   /* FLOPs of the whole step, all layers */
    double bytes;   /* bytes moved, all layers */
    double kernels; /* kernel launches (timed calls) the step makes */
    double tokens;  /* rows M of each kernel (the gemm curve's size) */
    rl_eff_class cls;
    int kclass;       /* rl_kclass of its kernel table, -1: none (norms, RoPE, adds, ...) */
    double kshape[RL_KSHAPE]; /* one kernel's shape on that table's axes (engines.h) */
} rl_engine_op;

/* Operators of one step: prefill of M = T tokens (context 0), or decode of
 * M = B sequences each holding `context` cached tokens before the step. */
void rl_engine_ops(const rl_model *m, int prefill, long long M, long long context,
                   double weight_bytes, rl_engine_op out[RL_EOP_COUNT]);

/* Predicted seconds of op on profile h, `peak` FLOP/s being its figure for
 * the backend's compute dtype: kernels * the time of one kernel, from the
 * selected engine's table of the op's class (variant gemm_var for
 * matmuls, float32 for attention: the reference engine's activations and
 * KV) where h has one, else t(C) of flops/kernels, bytes/kernels under h's
 * efficiency (ideal roofline when absent).  *prov (may be NULL): how. */
double rl_engine_op_predict(const rl_engine_op *op, const rl_hw *h, double peak, int gemm_var,
                            rl_provenance *prov);

/* The dtype backend be's matmuls run in (backend.h compute_dtype: cpu fp32,
 * cuda bf16), the precision its steps are predicted at. */
rl_dtype rl_engine_compute_dtype(const rl_backend *be);

#endif
