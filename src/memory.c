/* memory.c — weights + KV footprint against HBM, and the largest batch. */
#include "memory.h"

#include <math.h>

#include "arch.h"

rl_memory rl_memory_use(const rl_model *m, const rl_hw *h, long long chips, long long batch,
                        long long context, rl_dtype weights, rl_dtype kv)
{
    rl_memory r;
    r.weight_bytes = rl_arch_params(m).total * rl_dtype_bytes(weights);
    r.kv_bytes = (double)batch * rl_arch_kv_bytes_per_sequence(m, kv, (double)context, RL_KV_IDEAL);
    r.total_bytes = r.weight_bytes + r.kv_bytes;
    r.capacity_bytes = (double)chips * h->hbm_bytes;
    r.fits = r.total_bytes <= r.capacity_bytes;
    return r;
}

long long rl_memory_max_batch(const rl_model *m, const rl_hw *h, long long chips, long long context,
                              rl_dtype weights, rl_dtype kv)
{
    rl_memory r = rl_memory_use(m, h, chips, 0, context, weights, kv);
    double per_seq = rl_arch_kv_bytes_per_sequence(m, kv, (double)context, RL_KV_IDEAL);
    double room = r.capacity_bytes - r.weight_bytes;
    if (room <= 0 || per_seq <= 0)
        return 0;
    double b = floor(room / per_seq);
    return b > RL_MAX_BATCH ? (long long)RL_MAX_BATCH : (long long)b;
}

double rl_memory_activation_bytes(const rl_model *m, long long batch, rl_dtype compute)
{
    if (m->abstract)
        return 0.0;
    double B = (double)batch;
    double f = m->experts > 0 ? (double)m->d_ff_expert * (double)(m->top_k + m->shared_experts)
                              : (double)m->d_ff;
    double layer = B * ((double)m->d_model + (double)(m->heads + 2 * m->kv_heads) *
                        (double)m->head_dim + 2.0 * f) * rl_dtype_bytes(compute);
    double logits = B * (double)m->vocab * rl_dtype_bytes(RL_FP32);
    return layer > logits ? layer : logits;
}
