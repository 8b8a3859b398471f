/* arch.c — parameter counts, FLOPs and KV bytes per token (seed 000
 * section 1 and section 5 problems 1 and 5). */
#include "arch.h"

#include <math.h>

int rl_arch_mlp_matrices(const rl_model *m) { return m->mlp == RL_MLP_GELU ? 2 : 3; }

/* One layer's attention parameters; with `vectors` 0 its matrices alone,
 * as if the model had no biases or sinks (matrix_params). */
static double attention_params_layer(const rl_model *m, int vectors)
{
    double D = (double)m->d_model, N = (double)m->heads, H = (double)m->head_dim;
    double K = (double)m->kv_heads;
    /* biases of q, k, v (their output widths) and o (D), or of q, k and v
     * alone (qkv_bias: Qwen2); one sink per head */
    double bias = !vectors             ? 0.0
                  : m->attention_bias ? H * (N + 2.0 * K) + D
                  : m->qkv_bias       ? H * (N + 2.0 * K)
                                      : 0.0;
    double sinks = vectors && m->attention_sinks ? N : 0.0;
    if (m->attention != RL_ATTN_MLA)
        return 2.0 * D * H * (N + K) + bias + sinks;
    double qk = (double)(m->qk_nope_head_dim + m->qk_rope_head_dim), cq = (double)m->q_lora_rank;
    double ckv = (double)m->kv_lora_rank;
    double q = cq > 0 ? D * cq + cq * N * qk : D * N * qk;
    double kv_a = D * (ckv + (double)m->qk_rope_head_dim);
    double kv_b = ckv * N * (double)(m->qk_nope_head_dim + m->v_head_dim);
    return q + kv_a + kv_b + N * (double)m->v_head_dim * D + sinks; /* spec.c refuses MLA biases */
}

double rl_arch_attention_params_layer(const rl_model *m) { return attention_params_layer(m, 1); }

/* One MLP (or expert) block of hidden width F: its matrices and, with
 * mlp_bias (and `vectors`), their biases (gate and up: F each, GELU's up
 * only; down: D). */
static double mlp_block(const rl_model *m, double F, int vectors)
{
    double mats = rl_arch_mlp_matrices(m), D = (double)m->d_model;
    return mats * D * F + (vectors && m->mlp_bias ? (mats - 1.0) * F + D : 0.0);
}

int rl_arch_layer_is_local(const rl_model *m, long long l)
{
    if (m->abstract || m->sliding_window == 0)
        return 0;
    if (m->first_sliding_layer > 0) /* global 0..N-1, local N.. (spec.h) */
        return l >= m->first_sliding_layer;
    long long P = m->sliding_window_pattern;
    return P == 0 || l % P != P - 1;
}

long long rl_arch_local_layers(const rl_model *m)
{
    if (m->abstract || m->sliding_window == 0)
        return 0;
    if (m->first_sliding_layer > 0)
        return m->layers - m->first_sliding_layer;
    long long P = m->sliding_window_pattern; /* layer l is global when l % P == P - 1 */
    return P == 0 ? m->layers : m->layers - m->layers / P;
}

/* Sum over layers of the context each layer attends to / caches. */
static double layer_context_sum(const rl_model *m, double context, rl_kv_view view)
{
    double local = (double)rl_arch_local_layers(m);
    double W = (double)m->sliding_window;
    double capped = view == RL_KV_IDEAL && local > 0 && context > W ? W : context;
    return ((double)m->layers - local) * context + local * capped;
}

/* rl_arch_params; with `vectors` 0 the matrices' alone (matrix_params):
 * the model read as if it had no biases or sinks, without a copy of it
 * (copying the whole spec, its strings too, was 2% of a calibrated step) */
__attribute__((always_inline)) static inline rl_params count_params(const rl_model *m,
                                                                    int vectors)
{
    rl_params p = {0};
    if (m->abstract) {
        p.total = m->params;
        p.active = p.active_nonembedding = m->params_active;
        return p;
    }
    double L = (double)m->layers, D = (double)m->d_model, V = (double)m->vocab;
    p.attention = L * attention_params_layer(m, vectors);
    double dense_block = mlp_block(m, (double)m->d_ff, vectors);
    if (m->experts == 0) {
        p.mlp = p.mlp_active = L * dense_block;
    } else {
        double moe_layers = L - (double)m->dense_layers;
        double expert = mlp_block(m, (double)m->d_ff_expert, vectors);
        double E = (double)m->experts, k = (double)m->top_k, shared = (double)m->shared_experts;
        p.routed_experts = moe_layers * E * expert;
        p.mlp = (double)m->dense_layers * dense_block + p.routed_experts + moe_layers * shared * expert;
        p.mlp_active = (double)m->dense_layers * dense_block + moe_layers * (k + shared) * expert;
        p.router = moe_layers * (D * E + (vectors && m->mlp_bias ? E : 0.0));
    }
    p.embedding = V * D;
    p.lm_head = m->tied_embeddings ? 0.0 : V * D;
    /* per layer: norms_per_layer norms of rl_arch_norm_vectors D each (a
     * gain; a LayerNorm's bias too), MLA's latent norms, qk_norm's two of
     * head_dim; one final norm (rl_arch_final_norm_params) */
    double qk = m->qk_norm ? 2.0 * (double)m->head_dim : 0.0;
    p.norms = rl_arch_norm_vectors(m) * (double)m->norms_per_layer * L * D +
              rl_arch_final_norm_params(m) +
              L * ((double)(m->q_lora_rank + m->kv_lora_rank) + qk);
    double shared_part = p.attention + p.router + p.embedding + p.lm_head + p.norms;
    p.total = shared_part + p.mlp;
    p.active = shared_part + p.mlp_active;
    p.active_nonembedding = p.active - (m->tied_embeddings ? 0.0 : p.embedding);
    return p;
}

/* (count_params is inlined into rl_arch_counts_of, which counts both ways:
 * the compiler shares their common terms) */
static rl_params params_of(const rl_model *m, int vectors) { return count_params(m, vectors); }

rl_params rl_arch_params(const rl_model *m) { return params_of(m, 1); }

double rl_arch_tp_replicated_params(const rl_model *m)
{
    if (m->abstract || m->attention != RL_ATTN_MLA)
        return 0.0;
    return (double)m->layers * (double)m->d_model *
           (double)(m->q_lora_rank + m->kv_lora_rank + m->qk_rope_head_dim);
}

/* The parameters of m's weight matrices only: a bias is an add and a sink
 * a softmax term, no multiply-accumulate (the operator list's weight
 * matmuls, ops.c). */
static rl_params matrix_params(const rl_model *m) { return params_of(m, 0); }

double rl_arch_kept_of(const rl_model *m, double norms, double router, double attention,
                       double dense_mlp, double dense_vectors)
{
    double k = norms + router;
    if (m->quantized == RL_QUANT_EXPERTS)
        k += attention + dense_mlp;
    else
        k += dense_vectors;
    return k;
}

/* The kept (arch.h) matmul weights of p beside the vocabulary: the router
 * and, for a model that quantizes its routed experts only, the attention
 * and the dense and shared MLP blocks. */
static double kept_matrices(const rl_model *m, const rl_params *p)
{
    return rl_arch_kept_of(m, 0.0, p->router, p->attention, p->mlp - p->routed_experts, 0.0);
}

/* rl_arch_flops_per_token and rl_arch_kept_flops_per_token of a concrete
 * model whose matrices' counts are p (matrix_params) */
static double flops_of(const rl_model *m, const rl_params *p)
{
    return 2.0 * (p->attention + p->mlp_active + p->router + (double)m->vocab * (double)m->d_model);
}

static double kept_flops_of(const rl_model *m, const rl_params *p)
{
    return 2.0 * (kept_matrices(m, p) + (double)m->vocab * (double)m->d_model);
}

double rl_arch_flops_per_token(const rl_model *m)
{
    if (m->abstract)
        return 2.0 * m->params_active;
    rl_params p = matrix_params(m);
    return flops_of(m, &p);
}

double rl_arch_kept_flops_per_token(const rl_model *m)
{
    if (m->abstract)
        return 0.0;
    rl_params p = matrix_params(m);
    return kept_flops_of(m, &p);
}

double rl_arch_attention_flops_per_token(const rl_model *m, double context)
{
    if (m->abstract)
        return 0.0;
    double ctx = layer_context_sum(m, context, RL_KV_IDEAL), N = (double)m->heads;
    if (m->attention == RL_ATTN_MLA)
        return 2.0 * N * (2.0 * (double)m->kv_lora_rank + (double)m->qk_rope_head_dim) * ctx;
    return 4.0 * N * (double)m->head_dim * ctx;
}

double rl_arch_kv_elems_per_token_layer(const rl_model *m)
{
    if (m->abstract)
        return 0.0;
    if (m->attention == RL_ATTN_MLA)
        return (double)(m->kv_lora_rank + m->qk_rope_head_dim);
    return 2.0 * (double)m->kv_heads * (double)m->head_dim;
}

double rl_arch_kv_bytes_per_sequence(const rl_model *m, rl_dtype kv, double context,
                                     rl_kv_view view)
{
    if (m->abstract)
        return context * m->kv_bytes_per_token;
    return rl_arch_kv_elems_per_token_layer(m) * rl_dtype_kv_bytes(kv) *
           layer_context_sum(m, context, view);
}

double rl_arch_norm_vectors(const rl_model *m)
{
    return m->norm == RL_NORM_LAYER ? 2.0 : 1.0;
}

double rl_arch_final_norm_params(const rl_model *m)
{
    return m->abstract ? 0.0 : rl_arch_norm_vectors(m) * (double)m->d_model;
}

double rl_arch_kv_bytes_per_token(const rl_model *m, rl_dtype kv)
{
    if (m->abstract)
        return m->kv_bytes_per_token;
    return (double)m->layers * rl_arch_kv_elems_per_token_layer(m) * rl_dtype_kv_bytes(kv);
}

double rl_arch_expected_experts(const rl_model *m, double tokens)
{
    if (m->abstract || m->experts == 0)
        return 0.0;
    double E = (double)m->experts, k = (double)m->top_k;
    return E * (1.0 - pow(1.0 - k / E, tokens));
}

double rl_arch_experts_read_ep(const rl_model *m, double tokens, long long ep)
{
    double touched = rl_arch_expected_experts(m, tokens);
    if (ep <= 1 || touched <= 0)
        return touched;
    double busiest = ceil(touched / (double)ep - 1e-9), held = (double)m->experts / (double)ep;
    return (double)ep * fmin(busiest, ceil(held));
}

/* rl_arch_vocab_read of a concrete model whose parameters are p. */
static double vocab_read(const rl_model *m, const rl_params *p, double tokens)
{
    return (m->tied_embeddings ? p->embedding : p->lm_head) + tokens * (double)m->d_model;
}

double rl_arch_vocab_read(const rl_model *m, double tokens)
{
    if (m->abstract)
        return 0.0;
    rl_params p = rl_arch_params(m);
    return vocab_read(m, &p, tokens);
}

double rl_arch_dense_layer_mlp(const rl_model *m, double *vectors)
{
    *vectors = 0.0;
    if (m->abstract || m->experts == 0 || m->dense_layers == 0)
        return 0.0;
    double block = mlp_block(m, (double)m->d_ff, 1);
    *vectors = block - mlp_block(m, (double)m->d_ff, 0);
    return block;
}

/* rl_arch_vector_params of a concrete model whose parameters are p and
 * its matrices' mats (the callers that have them pass them: each
 * params_of is the whole count) */
static rl_params vector_of(const rl_params *pp, const rl_params *mp)
{
    rl_params p = *pp, mats = *mp, v = {0};
    v.attention = p.attention - mats.attention;
    v.mlp = p.mlp - mats.mlp;
    v.routed_experts = p.routed_experts - mats.routed_experts;
    v.router = p.router - mats.router;
    v.total = p.total - mats.total;
    return v;
}

static rl_params vector_params(const rl_model *m, const rl_params *p)
{
    rl_params mats = matrix_params(m);
    return vector_of(p, &mats);
}

rl_params rl_arch_vector_params(const rl_model *m)
{
    rl_params p = rl_arch_params(m), v = {0};
    return m->abstract ? v : vector_params(m, &p);
}

/* The kept elements (arch.h) of the non-vocabulary weights: the norm
 * gains, the kept matrices (whole, with their biases) and the biases and
 * sinks of the quantized ones (v: rl_arch_vector_params): under
 * `quantized = "experts"` the routed experts', else the attention's and
 * MLP's (the router is kept whole either way). */
static double kept_blocks(const rl_model *m, const rl_params *p, const rl_params *v)
{
    return rl_arch_kept_of(m, p->norms, p->router, p->attention, p->mlp - p->routed_experts,
                           v->attention + v->mlp - v->routed_experts) +
           v->routed_experts;
}

/* rl_arch_kept_params of a concrete model (p, v: its parameters and vectors) */
static double kept_params_of(const rl_model *m, const rl_params *p, const rl_params *v)
{
    return p->embedding + p->lm_head + kept_blocks(m, p, v);
}

double rl_arch_kept_params(const rl_model *m)
{
    if (m->abstract)
        return 0.0;
    rl_params p = rl_arch_params(m), v = vector_params(m, &p);
    return kept_params_of(m, &p, &v);
}

void rl_arch_dense_gemm(const rl_model *m, rl_dtype *weights, rl_dtype *compute)
{
    if (m->quantized == RL_QUANT_EXPERTS && rl_dtype_kept(*weights) != *weights)
        *weights = *compute = rl_dtype_kept(*weights);
}

/* rl_arch_kept_read of a concrete model (p, v as kept_params_of) */
static double kept_read_of(const rl_model *m, const rl_params *p, const rl_params *v,
                           double tokens)
{
    /* the routed experts' biases as rl_arch_params_read reads their blocks:
     * those of the experts the tokens touch */
    double untouched = m->experts > 0
                           ? 1.0 - rl_arch_expected_experts(m, tokens) / (double)m->experts
                           : 0.0;
    return vocab_read(m, p, tokens) + kept_blocks(m, p, v) - v->routed_experts * untouched;
}

double rl_arch_kept_read(const rl_model *m, double tokens)
{
    if (m->abstract)
        return 0.0;
    rl_params p = rl_arch_params(m), v = vector_params(m, &p);
    return kept_read_of(m, &p, &v, tokens);
}

/* rl_arch_params_read of a concrete model whose parameters are p */
static double params_read_of(const rl_model *m, const rl_params *pp, double tokens)
{
    rl_params p = *pp;
    /* the input embedding is a gather: `tokens` rows of D, not the table
     * (a tied table is read whole by the LM head, which p.embedding counts
     * in place of p.lm_head) */
    double read = p.total - p.embedding + tokens * (double)m->d_model;
    if (m->tied_embeddings)
        read += p.embedding;
    if (m->experts == 0)
        return read;
    double touched = rl_arch_expected_experts(m, tokens) / (double)m->experts;
    return read - p.routed_experts * (1.0 - touched);
}

double rl_arch_params_read(const rl_model *m, double tokens)
{
    rl_params p = rl_arch_params(m);
    if (m->abstract)
        return p.total;
    return params_read_of(m, &p, tokens);
}

rl_arch_counts rl_arch_counts_of(const rl_model *m)
{
    rl_arch_counts c = {0};
    c.params = count_params(m, 1);
    if (m->abstract) { /* as each function above answers for an abstract model */
        c.flops_per_token = 2.0 * m->params_active;
        return c;
    }
    rl_params mats = count_params(m, 0);
    c.vectors = vector_of(&c.params, &mats);
    c.kept_params = kept_params_of(m, &c.params, &c.vectors);
    c.flops_per_token = flops_of(m, &mats);
    c.kept_flops_per_token = kept_flops_of(m, &mats);
    return c;
}

double rl_arch_counts_params_read(const rl_model *m, const rl_arch_counts *c, double tokens)
{
    return m->abstract ? c->params.total : params_read_of(m, &c->params, tokens);
}

double rl_arch_counts_kept_read(const rl_model *m, const rl_arch_counts *c, double tokens)
{
    return m->abstract ? 0.0 : kept_read_of(m, &c->params, &c->vectors, tokens);
}

double rl_arch_counts_vocab_read(const rl_model *m, const rl_arch_counts *c, double tokens)
{
    return m->abstract ? 0.0 : vocab_read(m, &c->params, tokens);
}
