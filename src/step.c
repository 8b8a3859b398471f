/* step.c — decode step time by formula (1) of seed 000 section 1. */
#include "step.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arch.h"

rl_precision rl_precision_default(void) { return (rl_precision){RL_BF16, RL_BF16, RL_BF16}; }

double rl_step_matmul_s(const rl_hw *h, rl_precision p, double flops, double kept)
{
    double peak = rl_hw_peak(h, p.compute);
    rl_dtype k = rl_dtype_kept(p.weights);
    double kpeak = k != p.weights && rl_hw_peak(h, k) > 0 ? rl_hw_peak(h, k) : peak;
    return (flops - kept) / peak + kept / kpeak;
}

rl_bound rl_step_bound(double kv_load_s, double attention_compute_s, double weight_load_s,
                       double compute_s)
{
    int attn_c = attention_compute_s > 0, mm_c = compute_s > weight_load_s;
    double c = (attn_c ? kv_load_s + attention_compute_s : 0) + (mm_c ? compute_s : 0);
    double b = (attn_c ? 0 : kv_load_s) + (mm_c ? 0 : weight_load_s);
    return rl_bound_of(c, b);
}

rl_step rl_step_decode(const rl_model *m, const rl_hw *h, long long chips, long long batch,
                       long long context, rl_precision p)
{
    rl_step r = {0};
    double bw = (double)chips * h->hbm_bw;
    double B = (double)batch;
    r.batch = batch;
    r.context = context;
    rl_arch_counts c = rl_arch_counts_of(m); /* once, not per question (issue 12) */
    /* a decode step of B tokens: B the step's batched tokens (memory.h) */
    r.mem = rl_memory_use_counts(m, &c, h, chips, batch, context, p.weights, p.kv, B);
    r.kv_load_s = r.mem.kv_bytes / bw;
    double p_bytes = rl_dtype_weights_bytes(p.weights, rl_arch_counts_params_read(m, &c, B),
                                            rl_arch_counts_kept_read(m, &c, B));
    r.weight_load_s = p_bytes / bw;
    r.compute_s = rl_step_matmul_s(h, p, B * c.flops_per_token, B * c.kept_flops_per_token) /
                  (double)chips;
    r.mlp_bound = rl_bound_of(r.compute_s, r.weight_load_s);
    /* the attention kernels read the cache and do the score FLOPs: max(bytes,
     * FLOPs) as their own term, beside the matmuls' (review29 H1), the FLOPs
     * at attention's dtype (rl_attention_dtype, as ops.c; tester64 #1) */
    r.attention_s = B * rl_arch_attention_flops_per_token(m, (double)context) /
                    ((double)chips * rl_hw_peak(h, rl_attention_dtype(p)));
    r.attention_compute_s = fmax(0.0, r.attention_s - r.kv_load_s);
    r.bound = rl_step_bound(r.kv_load_s, r.attention_compute_s, r.weight_load_s, r.compute_s);
    r.step_s = r.kv_load_s + r.attention_compute_s + fmax(r.weight_load_s, r.compute_s);
    r.tokens_per_s = B / r.step_s;
    r.tokens_per_s_per_chip = r.tokens_per_s / (double)chips;
    return r;
}

int rl_model_check_context(const rl_model *m, long long context, char *err, size_t errlen)
{
    if (m->max_context > 0 && context > m->max_context) {
        snprintf(err, errlen, "context: %lld tokens exceeds the model's max_context (%lld, %s)",
                 context, m->max_context, m->origin);
        return -1;
    }
    return 0;
}

/* vLLM warns when a config gives no length (config.py
 * _get_and_verify_max_len); so does this */
int rl_model_context_note(const rl_model *m, const char *override, char *buf, size_t n)
{
    if (m->max_context > 0)
        return 0;
    snprintf(buf, n, "note: %s gives no max_context: no context or request length is checked "
             "against the model's limit; add max_context = N (its max_position_embeddings) to the "
             "spec or %s", m->origin, override);
    return 1;
}

rl_step rl_step_calibrated(const rl_model *m, const rl_hw *h, long long chips, long long batch,
                           long long context, rl_precision p, double kv_copies)
{
    return rl_step_calibrated_curves(m, h, chips, batch, context, p, kv_copies, 1);
}

rl_step rl_step_calibrated_curves(const rl_model *m, const rl_hw *h, long long chips,
                                  long long batch, long long context, rl_precision p,
                                  double kv_copies, int curves)
{
    rl_step r = rl_step_decode(m, h, chips, batch, context, p);
    const rl_efficiency *e = &h->efficiency;
    double B = (double)batch, mlp_ideal = fmax(r.weight_load_s, r.compute_s), kv_s = r.kv_load_s;
    r.kv_load_s *= kv_copies;
    r.attention_compute_s = fmax(0.0, r.attention_s - r.kv_load_s);
    r.bound = rl_step_bound(r.kv_load_s, r.attention_compute_s, r.weight_load_s, r.compute_s);
    r.step_s = r.kv_load_s + r.attention_compute_s + mlp_ideal;
    r.calibrated = e->present ? 1 : 0;
    if (e->present && curves) {
        double L = m->abstract ? 1.0 : (double)m->layers;
        double mm = m->abstract ? 1.0 : L * (4 + rl_arch_mlp_matrices(m)) + 1;
        double other = m->abstract ? 0.0 : 7.0 * L + 2;
        double kv_cal = L * e->overhead_s +
                        kv_s / rl_eff_frac(&e->curve[RL_EFF_ATTENTION], r.mem.kv_bytes / L);
        double mlp_s = mm * e->overhead_s + mlp_ideal / rl_eff_frac(&e->curve[RL_EFF_GEMM], B);
        /* the attention kernels take at least their FLOP time (review29 H1) */
        r.step_s = fmax(kv_cal * kv_copies, r.attention_s) + mlp_s + other * e->overhead_s;
    }
    r.tokens_per_s = B / r.step_s;
    r.tokens_per_s_per_chip = r.tokens_per_s / (double)chips;
    rl_step_settle_excess(&r);
    return r;
}

void rl_step_settle_excess(rl_step *s)
{
    double x = s->step_s - s->comm_s - s->kv_load_s - s->attention_compute_s -
               fmax(s->weight_load_s, s->compute_s);
    s->kernel_excess_s = fabs(x) <= 1e-12 * s->step_s ? 0.0 : x; /* else: rounding */
}

int rl_step_check_not_weights_only(const char *flag, rl_dtype d, char *err, size_t errlen)
{
    if (d != RL_MXFP4)
        return 0;
    /* a checkpoint format (dtype.h): no engine caches KV or keeps
     * activations in it, and its GEMMs run on the chip's fp4, fp8 or bf16
     * units */
    snprintf(err, errlen, "%s mxfp4: mxfp4 is a weights format only (gpt-oss's MoE experts); "
             "give --weights mxfp4 with --%s fp4, fp8 or bf16", flag, flag);
    return -1;
}

/* TensorRT-LLM's quantization algorithms (tensorrt_llm/quantization/
 * mode.py QuantAlgo) pair a narrow compute format with weights of its own
 * kind (W8A8_SQ int8 x int8, FP8, NVFP4) or with 4-bit weights of another:
 * W4A8_QSERVE int4 x int8, W4A8_AWQ int4 x fp8, W4A8_NVFP4_FP8 fp4 x fp8,
 * W4A8_MXFP4_FP8 mxfp4 x fp8 (and mxfp4 on fp4 units, dtype.h).  Nothing
 * runs int8 math on fp8 (E4M3) weights, fp8 math on int8 weights or int8
 * math on fp4 weights without re-quantizing them, which would make them
 * another checkpoint (tester31 F13). */
static int engine_runs(rl_dtype w, rl_dtype c)
{
    if (w == c || rl_dtype_bytes(c) >= 2)
        return 1;
    if (c == RL_INT8)
        return w == RL_INT4;
    if (c == RL_FP8)
        return w == RL_INT4 || w == RL_FP4 || w == RL_MXFP4;
    if (c == RL_FP4)
        return w == RL_MXFP4;
    return 0;
}

int rl_step_check_precision(rl_precision p, char *err, size_t errlen)
{
    if (rl_step_check_not_weights_only("kv", p.kv, err, errlen) != 0 ||
        rl_step_check_not_weights_only("compute", p.compute, err, errlen) != 0)
        return -1;
    const char *w = rl_dtype_name(p.weights), *c = rl_dtype_name(p.compute);
    if (rl_dtype_bytes(p.compute) < rl_dtype_bytes(p.weights)) {
        snprintf(err, errlen, "compute %s with %s weights: engines run %s matmuls only on %s "
                 "weights, quantizing a %s checkpoint once at load (vLLM --quantization, "
                 "TensorRT-LLM), so the weights in HBM are %s: give --weights %s (or --compute "
                 "%s; %s weights with wider compute is weight-only quantization, which is "
                 "modelled)", c, w, c, c, w, c, c, w, c);
        return -1;
    }
    if (!engine_runs(p.weights, p.compute)) {
        snprintf(err, errlen, "compute %s with %s weights: no engine runs %s matmuls on %s "
                 "weights (TensorRT-LLM's pairs: int8 x int8, fp8 x fp8, fp4 x fp4, int4 weights "
                 "with int8 or fp8 compute, fp4 and mxfp4 weights with fp8 compute); re-quantizing "
                 "them makes a %s checkpoint: give --weights %s, or --compute bf16 "
                 "(weight-only)", c, w, c, w, c, c);
        return -1;
    }
    return 0;
}

rl_dtype rl_attention_dtype(rl_precision p)
{
    return rl_dtype_bytes(p.kv) > rl_dtype_bytes(p.compute) ? p.kv : p.compute;
}

/* The dtypes h->flops has, "fp8, int8" (or "none"), for the messages. */
static void peaks_present(const rl_hw *h, char *have, size_t n)
{
    have[0] = '\0';
    for (int d = 0; d < RL_DTYPE_COUNT; d++)
        if (rl_hw_peak(h, (rl_dtype)d) > 0)
            snprintf(have + strlen(have), n - strlen(have), "%s%s", have[0] ? ", " : "",
                     rl_dtype_name((rl_dtype)d));
    if (!have[0])
        snprintf(have, n, "none");
}

int rl_step_check_peaks(const rl_hw *h, rl_precision p, char *err, size_t errlen)
{
    rl_dtype attn = rl_attention_dtype(p), kept = rl_dtype_kept(p.weights);
    if (rl_hw_peak(h, p.compute) > 0 && rl_hw_peak(h, attn) > 0 &&
        (kept == p.weights || rl_hw_peak(h, kept) > 0))
        return 0; /* the list of peaks is formatted only for a refusal (it is called per step) */
    char have[64];
    peaks_present(h, have, sizeof have);
    if (rl_hw_peak(h, p.compute) <= 0) { /* with the dtypes it has (tester20 F11) */
        snprintf(err, errlen, "%s: field 'flops.%s': missing, so compute dtype %s cannot be used "
                 "(give --compute, Lua field compute, one of: %s)", h->origin,
                 rl_dtype_name(p.compute), rl_dtype_name(p.compute), have);
        return -1;
    }
    if (rl_hw_peak(h, attn) <= 0) {
        snprintf(err, errlen, "%s: field 'flops.%s': missing, so attention cannot be timed: its "
                 "matmuls run in the wider of --kv %s and --compute %s (K and V are read from the "
                 "cache in its dtype); add flops.%s to the spec or give --kv in a dtype it has (%s)",
                 h->origin, rl_dtype_name(attn), rl_dtype_name(p.kv), rl_dtype_name(p.compute),
                 rl_dtype_name(attn), have);
        return -1;
    }
    if (kept != p.weights && rl_hw_peak(h, kept) <= 0) {
        snprintf(err, errlen, "%s: field 'flops.%s': missing, so --weights %s cannot be timed: "
                 "quantized checkpoints keep the embedding, LM head, norms, MoE router and biases "
                 "in %s (dtype.h rl_dtype_kept) and their matmuls run at its peak; add flops.%s to "
                 "the spec (it has: %s)", h->origin, rl_dtype_name(kept), rl_dtype_name(p.weights),
                 rl_dtype_name(kept), rl_dtype_name(kept), have);
        return -1;
    }
    return 0;
}

int rl_step_check(const rl_model *m, const rl_hw *h, long long chips, long long context,
                  rl_precision p, char *err, size_t errlen)
{
    if (chips < 1) {
        snprintf(err, errlen, "chips: must be >= 1, got %lld", chips);
        return -1;
    }
    if (context < 1) {
        snprintf(err, errlen, "context: must be >= 1 token, got %lld", context);
        return -1;
    }
    if (rl_model_check_context(m, context, err, errlen) != 0)
        return -1;
    if (rl_step_check_not_weights_only("kv", p.kv, err, errlen) != 0 ||
        rl_step_check_not_weights_only("compute", p.compute, err, errlen) != 0)
        return -1;
    if (rl_step_check_peaks(h, p, err, errlen) != 0)
        return -1;
    return rl_step_check_precision(p, err, errlen);
}

double rl_step_b_crit(const rl_model *m, const rl_hw *h, rl_precision p)
{
    double b = rl_b_crit(h, p.weights, p.compute);
    if (!m->abstract && m->experts > 0)
        b *= (double)m->experts / (double)m->top_k;
    return b;
}
