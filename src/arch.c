/* arch.c — parameter counts, FLOPs and KV bytes per token (seed 000
 * section 1 and section 5 problems 1 and 5). */
#include "arch.h"

#include <math.h>

int rl_arch_mlp_matrices(const rl_model *m) { return m->mlp == RL_MLP_GELU ? 2 : 3; }

rl_params rl_arch_params(const rl_model *m)
{
    rl_params p = {0};
    if (m->abstract) {
        p.total = m->params;
        p.active = m->params_active;
        return p;
    }
    double L = (double)m->layers, D = (double)m->d_model, H = (double)m->head_dim;
    double N = (double)m->heads, K = (double)m->kv_heads, V = (double)m->vocab;
    double mats = rl_arch_mlp_matrices(m);
    p.attention = L * 2.0 * D * H * (N + K);
    double dense_block = mats * D * (double)m->d_ff;
    if (m->experts == 0) {
        p.mlp = p.mlp_active = L * dense_block;
    } else {
        double moe_layers = L - (double)m->dense_layers;
        double expert = mats * D * (double)m->d_ff_expert;
        double E = (double)m->experts, k = (double)m->top_k, shared = (double)m->shared_experts;
        p.routed_experts = moe_layers * E * expert;
        p.mlp = (double)m->dense_layers * dense_block + p.routed_experts + moe_layers * shared * expert;
        p.mlp_active = (double)m->dense_layers * dense_block + moe_layers * (k + shared) * expert;
        p.router = moe_layers * D * E;
    }
    p.embedding = V * D;
    p.lm_head = m->tied_embeddings ? 0.0 : V * D;
    p.norms = (2.0 * L + 1.0) * D;
    double shared_part = p.attention + p.router + p.embedding + p.lm_head + p.norms;
    p.total = shared_part + p.mlp;
    p.active = shared_part + p.mlp_active;
    return p;
}

double rl_arch_flops_per_token(const rl_model *m)
{
    if (m->abstract)
        return 2.0 * m->params_active;
    rl_params p = rl_arch_params(m);
    return 2.0 * (p.attention + p.mlp_active + p.router + (double)m->vocab * (double)m->d_model);
}

double rl_arch_attention_flops_per_token(const rl_model *m, double context)
{
    if (m->abstract)
        return 0.0;
    return 4.0 * context * (double)m->heads * (double)m->head_dim * (double)m->layers;
}

double rl_arch_kv_bytes_per_token(const rl_model *m, rl_dtype kv)
{
    if (m->abstract)
        return m->kv_bytes_per_token;
    return 2.0 * (double)m->layers * (double)m->kv_heads * (double)m->head_dim * rl_dtype_bytes(kv);
}

double rl_arch_expected_experts(const rl_model *m, double tokens)
{
    if (m->abstract || m->experts == 0)
        return 0.0;
    double E = (double)m->experts, k = (double)m->top_k;
    return E * (1.0 - pow(1.0 - k / E, tokens));
}

double rl_arch_params_read(const rl_model *m, double tokens)
{
    rl_params p = rl_arch_params(m);
    if (m->abstract || m->experts == 0)
        return p.total;
    double touched = rl_arch_expected_experts(m, tokens) / (double)m->experts;
    return p.total - p.routed_experts * (1.0 - touched);
}
