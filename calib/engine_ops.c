/* engine_ops.c — per-operator FLOPs, bytes and kernels of the reference
 * engine's steps (see engine_ops.h). */
#include "engine_ops.h"

static void set(rl_engine_op *o, double flops, double bytes, double kernels, rl_eff_class c)
{
    *o = (rl_engine_op){flops, bytes, kernels, 0, c};
}

static void gemm(rl_engine_op *o, double L, double M, double N, double K, double wb)
{
    set(o, L * 2 * M * N * K, L * (N * K * wb + 4 * (M * K + M * N)), L, RL_EFF_GEMM);
    o->tokens = M;
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
    set(&out[RL_EOP_ROPE], L * 6 * M * (qd + kd) / 2, L * 4 * 2 * M * (qd + kd), L, RL_EFF_ROPE);
    set(&out[RL_EOP_KV_WRITE], 0, L * 4 * 4 * M * kd, L * (prefill ? 1 : M), RL_EFF_ELEMENTWISE);
    if (prefill)
        set(&out[RL_EOP_ATTENTION], L * 4 * N * H * M * (M + 1) / 2, L * 4 * (2 * M * qd + 2 * M * kd), L,
            RL_EFF_PREFILL_ATTENTION);
    else
        set(&out[RL_EOP_ATTENTION], L * 4 * M * S * N * H, L * 4 * (2 * M * S * kd + 2 * M * qd), L,
            RL_EFF_ATTENTION);
    gemm(&out[RL_EOP_O_PROJ], L, M, D, qd, wb);
    set(&out[RL_EOP_ATTN_RESIDUAL], L * M * D, L * 4 * 3 * M * D, L, RL_EFF_ELEMENTWISE);
    out[RL_EOP_MLP_RESIDUAL] = out[RL_EOP_ATTN_RESIDUAL];
    gemm(&out[RL_EOP_MLP_GATE], L, M, F, D, wb);
    gemm(&out[RL_EOP_MLP_UP], L, M, F, D, wb);
    set(&out[RL_EOP_SWIGLU], L * 5 * M * F, L * 4 * 3 * M * F, L, RL_EFF_SWIGLU);
    gemm(&out[RL_EOP_MLP_DOWN], L, M, D, F, wb);
    gemm(&out[RL_EOP_LM_HEAD], 1, head_rows, V, D, wb);
}

double rl_engine_op_predict(const rl_engine_op *op, const rl_efficiency *e, double peak, double bw)
{
    if (op->kernels <= 0)
        return 0;
    double f = op->flops / op->kernels, y = op->bytes / op->kernels;
    return op->kernels * rl_eff_time(e, op->cls, rl_eff_size(op->cls, op->tokens, f, y), f, y, peak, bw);
}
