/* step.h — one generation (decode) step by the chapter's formula (1).
 *
 * Owns the decode step time over `chips` chips holding one fully sharded
 * copy of the model (ideal: aggregate bandwidth and FLOP/s, perfect overlap):
 *
 *   T_step = B * S * kv_bytes / BW_total
 *          + max(2 * B * P_active / FLOPs_total, P_bytes / BW_total)   (1)
 *
 * (seed 000 section 1 "Theoretical estimates for LLM latency and
 * throughput").  P_active are the matmul parameters a token uses
 * (arch_flops_per_token / 2); P_bytes are the parameter bytes the step reads
 * (rl_arch_params_read: all of them for dense models but the embedding
 * table, of which the step gathers B rows; the touched experts for MoE).
 * Uses arch, memory, roofline, spec, dtype, efficiency.
 *
 * Calibrated mode (rl_step_calibrated, when the hardware spec has
 * `efficiency`, efficiency.h): the KV term becomes L * overhead + kv_load_s / frac_attention(kv bytes per
 * layer); the weight term over mm = L*(4 + MLP matrices) + 1 matmul
 * kernels of B tokens each, mm * overhead + max(...) / frac_gemm(B); plus
 * (7 L + 2) * overhead for norms, RoPE, KV writes, adds and the embedding.
 * That is the step time; the columns kv_load_s, weight_load_s and
 * compute_s stay formula (1)'s terms and the rest is kernel_excess_s, so
 * in every mode (tester12 #9)
 *
 *   step_s = kv_load_s + max(weight_load_s, compute_s) + comm_s + kernel_excess_s
 * A dense model's per-operator prediction (calib/engine_ops.h) is finer. */
#ifndef RL_STEP_H
#define RL_STEP_H

#include "dtype.h"
#include "memory.h"
#include "roofline.h"
#include "spec.h"

typedef struct {
    rl_dtype weights; /* dtype parameters are stored in */
    rl_dtype kv;      /* dtype of the KV cache */
    rl_dtype compute; /* dtype of the matmuls: picks the FLOP/s peak */
} rl_precision;

/* The defaults: bf16 everywhere. */
rl_precision rl_precision_default(void);

typedef struct {
    long long batch;   /* B: sequences decoding together */
    long long context; /* S: tokens already in each sequence's KV cache */
    /* the roofline terms of formula (1) in every mode (calibrated mode
     * times the step, not these: its time above them is kernel_excess_s) */
    double kv_load_s;     /* B * S * kv / BW_total */
    double weight_load_s; /* P_bytes / BW_total */
    double compute_s;     /* the matmuls: 2 * B * P_active / FLOPs_total, the kept
                           * tensors' share (arch.h rl_arch_kept_flops_per_token) at
                           * rl_dtype_kept's peak (rl_step_matmul_s; review29 M1) */
    double attention_compute_s; /* the attention kernels' FLOP time beyond their KV
                                 * read: max(0, attention_s - kv_load_s), so that they
                                 * take max(bytes, FLOPs) as their own term beside the
                                 * matmuls' max(weight_load_s, compute_s) (review29 H1;
                                 * > 0 only for MLA's ~242 FLOP per latent byte above
                                 * the chip's ridge) */
    double attention_s;   /* B * attention FLOPs / FLOPs_total at --compute (not printed) */
    double comm_s;        /* collectives of a TP/EP plan (rl_shard_step_calibrated), else 0 */
    double kernel_excess_s; /* of step_s, the time above the roofline terms:
                             * step_s - comm_s - kv_load_s - attention_compute_s -
                             * max(weight_load_s, compute_s) (rl_step_settle_excess):
                             * kernels slower than their roofline (measured, or by the
                             * efficiency curves), the elementwise ops and activation
                             * traffic formula (1) leaves out, the engine's costs; 0 in
                             * ideal mode (tester12 #9) */
    double step_s;        /* kv_load_s + attention_compute_s + max(weight_load_s,
                           * compute_s), plus comm_s (and kernel_excess_s) */
    double tokens_per_s;  /* B / step_s */
    double tokens_per_s_per_chip;
    rl_bound mlp_bound;   /* the MLP term of (1): compute when FLOPs beat P_bytes / BW */
    rl_bound bound;       /* the whole step (rl_step_bound): compute when its
                           * compute-bound kernels take longer than its memory-bound ones */
    int calibrated;       /* 1 when the efficiency tables were used */
    double table_s;       /* of step_s: operators timed by the engine's kernel tables at
                             the run's dtypes (rl_ops.table_s; rl_shard_step_calibrated), else 0 */
    rl_memory mem;
} rl_step;

/* Evaluate formula (1) (ideal: efficiency tables are ignored).  Inputs must be validated: chips, batch, context >= 1
 * and the compute dtype present in h->flops (see rl_step_check). */
rl_step rl_step_decode(const rl_model *m, const rl_hw *h, long long chips, long long batch,
                       long long context, rl_precision p);

/* A context (tokens) the model supports: <= max_context when the spec sets
 * it.  Returns 0 or -1 with err naming the model file. */
int rl_model_check_context(const rl_model *m, long long context, char *err, size_t errlen);

/* The note for a spec without max_context (optional, spec.h: the
 * scaling-book presets, the book gives none), with `override` the way to
 * set one ("--set model.max_context=N"); 1 and the note in buf when it
 * applies, else 0.  The CLI's commands and roofline's Lua functions give
 * it alike (tester33 F4, tester35 F8). */
int rl_model_context_note(const rl_model *m, const char *override, char *buf, size_t n);

/* rl_step_decode under h's efficiency tables (calibrated mode, above; the
 * `calibrated` flag set), or exactly rl_step_decode when h has none.  Each
 * token's KV cache is read kv_copies times (>= 1: chips of a TP replica
 * holding copies of a KV head, shard.c); the KV term scales with it. */
rl_step rl_step_calibrated(const rl_model *m, const rl_hw *h, long long chips, long long batch,
                           long long context, rl_precision p, double kv_copies);

/* rl_step_calibrated, with its efficiency curves left out when `curves` is
 * 0 (the `calibrated` flag set as there): step_s, the rates and
 * kernel_excess_s are then the roofline's, for a caller whose kernel
 * tables time the step and set them (rl_shard_step_calibrated; the curves
 * were 0.7% of its calibrated tp8 step's instructions, h32step2). */
rl_step rl_step_calibrated_curves(const rl_model *m, const rl_hw *h, long long chips,
                                  long long batch, long long context, rl_precision p,
                                  double kv_copies, int curves);

/* Seconds one chip takes for `flops` matmul FLOPs, `kept` of them on kept
 * tensors (arch.h rl_arch_kept_flops_per_token): those at rl_dtype_kept(
 * p.weights)'s peak when the weights are below 16 bits (their math is bf16,
 * as ops.c times its `half` matmuls), the rest at p.compute's.  One rule for
 * step, shard and ops (review29 M1). */
double rl_step_matmul_s(const rl_hw *h, rl_precision p, double flops, double kept);

/* The bound of a decode step whose attention kernels take kv_load_s +
 * attention_compute_s and whose matmuls take max(weight_load_s,
 * compute_s): compute when the kernels bound by FLOPs (attention when
 * attention_compute_s > 0, the matmuls when compute_s > weight_load_s)
 * take longer than those bound by HBM (review29 H1). */
rl_bound rl_step_bound(double kv_load_s, double attention_compute_s, double weight_load_s,
                       double compute_s);

/* Set s->kernel_excess_s to step_s - comm_s - kv_load_s - attention_compute_s -
 * max(weight_load_s, compute_s): the time of a calibrated step above its roofline terms (0
 * when within 1e-12 of step_s: the rounding of an ideal step's sum). */
void rl_step_settle_excess(rl_step *s);

/* Check the arguments of rl_step_decode: positive sizes, context within the
 * model's max_context, the compute dtype's peak present in the hardware spec,
 * and compute no narrower than the weights.  Engines do not run fp8 (int8,
 * int4) matmuls on bf16 weights cast per step: they quantize the checkpoint
 * once at load (vLLM --quantization fp8, TensorRT-LLM's quantized engines),
 * after which the weights in HBM are fp8, which is --weights fp8.  The
 * other way round, narrower weights with wider compute (W8A16, W4A16:
 * weight-only quantization, dequantized in the kernel), is modelled: weight
 * bytes of the weights' format, FLOPs at the compute format's peak.
 * Formats no engine pairs (int8 x fp8, fp8 x int8, fp4 or mxfp4 weights x
 * int8, int4 x fp4: rl_step_check_precision) are refused (tester31 F13).
 * mxfp4 is a weights format only: --kv mxfp4 and --compute mxfp4 are
 * refused (no engine caches KV in it; its GEMMs run on fp4, fp8 or bf16
 * units, dtype.h).  Returns 0 or -1 with err naming the field. */
int rl_step_check(const rl_model *m, const rl_hw *h, long long chips, long long context,
                  rl_precision p, char *err, size_t errlen);

/* The peaks a step at precision p needs, present in h->flops: the compute
 * dtype's (the matmuls), attention's (rl_attention_dtype) and, with weights
 * narrower than 16 bits, the kept tensors' (dtype.h rl_dtype_kept: bf16
 * embedding, LM head, norms, router; ops.c times their matmuls at its
 * peak).  A spec without one (an fp8-only what-if chip) is refused, not
 * timed at a peak of 0: that gave an infinite TTFT, a `simulate` that
 * never ended and a `size` that blamed KV room (fixAA).  0, or -1 with err
 * naming the spec file, the field flops.D and why it is needed. */
int rl_step_check_peaks(const rl_hw *h, rl_precision p, char *err, size_t errlen);

/* The dtype attention's matmuls (QK^T, PV) compute in: the wider of the
 * compute dtype and the KV cache's, as both operands must be in it (K and
 * V are read from the cache; a narrower cache is dequantized to the
 * compute dtype on load, a wider one is not quantized to it).  Equal
 * widths keep the compute dtype (ops.c, tester13 #6). */
rl_dtype rl_attention_dtype(rl_precision p);

/* The hardware-free part of rl_step_check: mxfp4 neither KV nor compute,
 * compute no narrower than the weights, and a weights x compute pair some
 * engine runs (TensorRT-LLM's QuantAlgo list, step.c engine_runs).  `info`
 * (CLI and Lua) checks it too, so no command prints figures for a
 * precision the others refuse (tester31 F17).  0 or -1 with err. */
int rl_step_check_precision(rl_precision p, char *err, size_t errlen);

/* 0 when `flag`'s dtype d may hold KV, activations or math; -1 with err
 * when d is mxfp4, a weights format only (rl_step_check; review29 L5:
 * --act mxfp4 ran at 0.5 B an activation). */
int rl_step_check_not_weights_only(const char *flag, rl_dtype d, char *err, size_t errlen);

/* B_crit of the model's weight matmuls on this chip: rl_b_crit for dense
 * models, times E/k for MoE (expert weights are read E/k times more often
 * than a token uses them; seed 000 section 5 problem 5 (2)). */
double rl_step_b_crit(const rl_model *m, const rl_hw *h, rl_precision p);

#endif
