/* engine_ops.c — per-operator FLOPs, bytes and kernels of the reference
 * engine's steps (see engine_ops.h). */
#include "engine_ops.h"

static void set(rl_engine_op *o, double flops, double bytes, double kernels, rl_eff_class c)
{
    *o = (rl_engine_op){flops, bytes, kernels, 0, c, -1, {0}};
}

/* Its kernel table (engines.h) and one kernel's shape on its axes. */
static void table(rl_engine_op *o, rl_kclass c, double x0, double x1, double x2, double x3)
{
    o->kclass = (int)c;
    o->kshape[0] = x0, o->kshape[1] = x1, o->kshape[2] = x2, o->kshape[3] = x3;
}

static void gemm(rl_engine_op *o, double L, double M, double N, double K, double wb)
{
    set(o, L * 2 * M * N * K, L * (N * K * wb + 4 * (M * K + M * N)), L, RL_EFF_GEMM);
    o->tokens = M;
    table(o, RL_KC_GEMM, M, N, K, 0);
}

void rl_engine_ops(const rl_model *m, int prefill, long long Mi, long long context,
                   double wb, rl_engine_op out[RL_EOP_COUNT])
{
    double L = (double)m->layers, D = (double)m->d_model, F = (double)m->d_ff, M = (double)Mi;
    double N = (double)m->heads, K = (double)m->kv_heads, H = (double)m->head_dim, V = (double)m->vocab;
    double qd = N * H, kd = K * H, S = (double)context + 1; /* decode attends to S + 1 tokens */
    double head_rows = prefill ? 1 : M;
    set(&out[RL_EOP_EMBEDDING], 0, 4 * 2 * M * D, 1, RL_EFF_ELEMENTWISE);
    set(&out[RL_EOP_ATTN_NORM], L * 3 * M * D, L * 4 * (2 * M * D + D), L, RL_EFF_NORM);
    out[RL_EOP_MLP_NORM] = out[RL_EOP_ATTN_NORM];
    set(&out[RL_EOP_FINAL_NORM], 3 * head_rows * D, 4 * (2 * head_rows * D + D), 1, RL_EFF_NORM);
    gemm(&out[RL_EOP_Q_PROJ], L, M, qd, D, wb);
    gemm(&out[RL_EOP_K_PROJ], L, M, kd, D, wb);
    gemm(&out[RL_EOP_V_PROJ], L, M, kd, D, wb);
    /* two calls a layer, q then k (reference_engine/engine.c layer_forward) */
    set(&out[RL_EOP_ROPE], L * 6 * M * (qd + kd) / 2, L * 4 * 2 * M * (qd + kd), 2 * L, RL_EFF_ROPE);
    set(&out[RL_EOP_KV_WRITE], 0, L * 4 * 4 * M * kd, L, RL_EFF_ELEMENTWISE); /* one call: slot map */
    if (prefill) { /* one prompt of M tokens: K streams of M keys, N / K query heads each */
        set(&out[RL_EOP_ATTENTION], L * 4 * N * H * M * (M + 1) / 2, L * 4 * (2 * M * qd + 2 * M * kd), L,
            RL_EFF_PREFILL_ATTENTION);
        table(&out[RL_EOP_ATTENTION], RL_KC_PREFILL_ATTN, K, M, N / K, H);
        out[RL_EOP_ATTENTION].kshape[RL_KX_ONE] = 1; /* one sequence (engines.h) */
    } else { /* M x K streams of S keys, N / K query heads each */
        set(&out[RL_EOP_ATTENTION], L * 4 * M * S * N * H, L * 4 * (2 * M * S * kd + 2 * M * qd), L,
            RL_EFF_ATTENTION);
        table(&out[RL_EOP_ATTENTION], RL_KC_DECODE_ATTN, M * K, S, N / K, H);
        out[RL_EOP_ATTENTION].kshape[RL_KX_ONE] = M == 1 || K == 1; /* engines.h */
    }
    gemm(&out[RL_EOP_O_PROJ], L, M, D, qd, wb);
    set(&out[RL_EOP_ATTN_RESIDUAL], L * M * D, L * 4 * 3 * M * D, L, RL_EFF_ELEMENTWISE);
    out[RL_EOP_MLP_RESIDUAL] = out[RL_EOP_ATTN_RESIDUAL];
    gemm(&out[RL_EOP_MLP_GATE], L, M, F, D, wb);
    gemm(&out[RL_EOP_MLP_UP], L, M, F, D, wb);
    set(&out[RL_EOP_SWIGLU], L * 5 * M * F, L * 4 * 3 * M * F, L, RL_EFF_SWIGLU);
    gemm(&out[RL_EOP_MLP_DOWN], L, M, D, F, wb);
    gemm(&out[RL_EOP_LM_HEAD], 1, head_rows, V, D, wb);
}

double rl_engine_op_predict(const rl_engine_op *op, const rl_hw *h, double peak, int gemm_var,
                            rl_provenance *prov)
{
    rl_provenance p = RL_PROV_ROOFLINE;
    double t = -1;
    if (op->kernels > 0 && op->kclass >= 0)
        t = rl_engine_time(rl_engines_selected(&h->engines), (rl_kclass)op->kclass,
                           op->kclass == RL_KC_GEMM ? gemm_var : RL_KV_FP32, op->kshape, peak,
                           h->hbm_bw, &p);
    if (t < 0 && op->kernels > 0) {
        double f = op->flops / op->kernels, y = op->bytes / op->kernels;
        t = rl_eff_time(&h->efficiency, op->cls, rl_eff_size(op->cls, op->tokens, f, y), f, y, peak,
                        h->hbm_bw);
        p = RL_PROV_ROOFLINE;
    }
    if (prov)
        *prov = p;
    return op->kernels > 0 ? op->kernels * t : 0;
}

rl_dtype rl_engine_compute_dtype(const rl_backend *be)
{
    rl_dtype d = RL_FP32; /* each backend names a dtype rl_dtype_parse knows */
    rl_dtype_parse(be->compute_dtype, &d);
    return d;
}
