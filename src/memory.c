/* memory.c — weights + KV footprint against HBM, and the largest batch. */
#include "memory.h"

#include <math.h>
#include <stdio.h>

#include "arch.h"

/* The selected engine's memory rule, or NULL. */
static const rl_engine_memory *engine_rule(const rl_hw *h)
{
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    return e && e->mem.present ? &e->mem : NULL;
}

double rl_memory_usable(const rl_hw *h, const rl_model *m, long long chips, double weight_bytes)
{
    return rl_memory_usable_group(h, m, chips, chips, weight_bytes, 0);
}

/* One layer's live activation elements a token holds on a chip of a group
 * of `group` sharing its tensors: the residual D whole, Q/K/V, the two MLP
 * inputs of the active experts and, in a MoE layer, the token's top_k
 * routed copies of its hidden state (top_k x D: the permuted input the
 * dispatch writes for the experts, e.g. DeepSeek-V3 8192 tokens x 8 x 7168
 * x 2 B = 0.94 GB on one chip) split over the group (memory.h). */
static double layer_elems(const rl_model *m, double group)
{
    double f = m->experts > 0 ? (double)m->d_ff_expert * (double)(m->top_k + m->shared_experts)
                              : (double)m->d_ff;
    double routed = m->experts > 0 ? (double)m->top_k * (double)m->d_model : 0.0;
    return (double)m->d_model +
           ((double)(m->heads + 2 * m->kv_heads) * (double)m->head_dim + 2.0 * f + routed) / group;
}

double rl_memory_workspace(const rl_model *m, const rl_engine_memory *g, long long group,
                           double budget)
{
    if (!g)
        return 0;
    double T = g->workspace_tokens; /* raised to the run's budget (memory.h) */
    T = T > 0 && budget > T ? budget : T;
    if (!m || m->abstract || !(T > 0))
        return g->workspace_bytes;
    double scale = g->workspace_scale > 0 ? g->workspace_scale : 1; /* engines.h */
    double act = scale * T * layer_elems(m, group > 1 ? (double)group : 1.0) * RL_MEMORY_ACT_BYTES;
    return act > g->workspace_bytes ? act : g->workspace_bytes;
}

int rl_memory_budget_moves(const rl_hw *h, double budget)
{
    const rl_engine_memory *g = engine_rule(h);
    return g && g->workspace_tokens > 0 && budget > g->workspace_tokens;
}

double rl_memory_comm_charged(const rl_hw *h, long long group)
{
    const rl_engine_memory *g = engine_rule(h);
    return g && group > 1 ? g->comm_bytes : 0;
}

double rl_memory_usable_group(const rl_hw *h, const rl_model *m, long long chips,
                              long long group, double weight_bytes, double budget)
{
    const rl_engine_memory *g = engine_rule(h);
    double n = (double)chips;
    if (!g)
        return n * h->hbm_bytes * (1 - h->hbm_reserve);
    double w = weight_bytes / n;
    double over =
        g->context_bytes + rl_memory_workspace(m, g, group, budget) +
                  rl_memory_comm_charged(h, group);
    double free = h->hbm_bytes - w - over; /* < 0: the weights do not fit */
    double per = !g->of_free ? g->fraction * h->hbm_bytes - over
               : free > 0    ? w + g->fraction * free
                             : h->hbm_bytes - over;
    return per > 0 ? n * per : 0;
}

rl_memory rl_memory_use(const rl_model *m, const rl_hw *h, long long chips, long long batch,
                        long long context, rl_dtype weights, rl_dtype kv)
{
    rl_arch_counts c = rl_arch_counts_of(m);
    return rl_memory_use_counts(m, &c, h, chips, batch, context, weights, kv, 0);
}

rl_memory rl_memory_use_counts(const rl_model *m, const rl_arch_counts *c, const rl_hw *h,
                               long long chips, long long batch, long long context,
                               rl_dtype weights, rl_dtype kv, double tokens)
{
    rl_memory r;
    r.weight_bytes = rl_dtype_weights_bytes(weights, c->params.total, c->kept_params);
    r.kv_bytes = (double)batch * rl_arch_kv_bytes_per_sequence(m, kv, (double)context, RL_KV_IDEAL);
    r.total_bytes = r.weight_bytes + r.kv_bytes;
    r.hbm_bytes = (double)chips * h->hbm_bytes;
    r.capacity_bytes = rl_memory_usable_group(h, m, chips, chips, r.weight_bytes, tokens);
    const rl_engine_memory *g = engine_rule(h);
    double n = (double)chips;
    r.engine_memory = g != NULL;
    r.engine_fraction = g ? g->fraction : 1 - h->hbm_reserve;
    r.context_bytes = g ? n * g->context_bytes : 0;
    r.comm_bytes = g && chips > 1 ? n * g->comm_bytes : 0;
    r.workspace_bytes = g ? n * rl_memory_workspace(m, g, chips, tokens) : 0;
    r.fits = r.total_bytes <= r.capacity_bytes;
    return r;
}

long long rl_memory_batch_fit(const rl_hw *h, long long hi, double hi_tokens,
                              int (*fits)(const void *ctx, long long B), const void *ctx)
{
    if (hi <= 0 || !rl_memory_budget_moves(h, hi_tokens) || fits(ctx, hi))
        return hi > 0 ? hi : 0;
    long long lo = 0;
    while (hi - lo > 1) { /* lo fits (0: none held), hi does not */
        long long mid = lo + (hi - lo) / 2;
        if (fits(ctx, mid))
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* One copy's weights, a sequence's KV and its chips (rl_memory_max_batch). */
typedef struct {
    const rl_model *m;
    const rl_hw *h;
    long long chips;
    double w, per_seq;
} copy_fit;

/* Whether the copy's weights and B sequences fit beside the rule's
 * workspace at B tokens (rl_memory_batch_fit's `fits`). */
static int fits_at(const void *ctx, long long B)
{
    const copy_fit *f = ctx;
    return f->w + (double)B * f->per_seq <=
           rl_memory_usable_group(f->h, f->m, f->chips, f->chips, f->w, (double)B);
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
    long long hi = b > RL_MAX_BATCH ? (long long)RL_MAX_BATCH : (long long)b;
    /* a step of B tokens: its workspace at B tokens (rl_memory_batch_fit) */
    copy_fit f = {m, h, chips, r.weight_bytes, per_seq};
    return rl_memory_batch_fit(h, hi, (double)hi, fits_at, &f);
}

int rl_memory_check_exact(const rl_model *m, const long long *batch, int nbatch, long long context,
                          rl_dtype kv, char *err, size_t errlen)
{
    long long B = 0;
    for (int i = 0; i < nbatch; i++)
        B = batch[i] > B ? batch[i] : B;
    double bytes = (double)B * (double)context * rl_arch_kv_bytes_per_token(m, kv);
    if (bytes <= RL_EXACT_MAX)
        return 0;
    snprintf(err, errlen,
             "batch %lld x context %lld: the KV cache would be %.4g bytes, beyond the 2^53 "
             "(%.4g) bytes that 64-bit doubles count exactly; refused (%s)",
             B, context, bytes, RL_EXACT_MAX, m->origin);
    return -1;
}

double rl_memory_activation_bytes(const rl_model *m, long long batch, rl_dtype compute)
{
    if (m->abstract)
        return 0.0;
    double B = (double)batch;
    double layer = B * layer_elems(m, 1.0) * rl_dtype_bytes(compute);
    double logits = B * (double)m->vocab * rl_dtype_bytes(RL_FP32);
    return layer > logits ? layer : logits;
}

double rl_memory_step_reserve(const rl_model *m, const rl_hw *h, double simulate_reserve)
{
    return !h->ideal && rl_engines_selected(&h->engines) &&
                   !rl_memory_use(m, h, 1, 0, 1, RL_BF16, RL_BF16).engine_memory
               ? simulate_reserve
               : 0;
}
