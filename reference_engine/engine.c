/* engine.c — forward pass, paged KV cache, slots and timers of the
 * reference engine (see engine.h). */
#include "engine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "arch.h"

#include "weights.h"
#include "error.h"

#define ROPE_THETA 10000.0f /* LLaMA-2 rope_theta (config.json) */
#define NORM_EPS 1e-5f      /* LLaMA-2 rms_norm_eps */

static const char *const OP_NAMES[RL_EOP_COUNT] = {
    "embedding", "attn_norm", "q_proj",   "k_proj",       "v_proj",   "rope",
    "kv_write",  "attention", "o_proj",   "attn_residual", "mlp_norm", "mlp_gate",
    "mlp_up",    "swiglu",    "mlp_down", "mlp_residual", "final_norm", "lm_head",
};

const char *rl_eop_name(rl_eop op) { return op < RL_EOP_COUNT ? OP_NAMES[op] : "?"; }

typedef struct {
    float *attn_norm, *mlp_norm; /* (D) in activation memory */
    void *wq, *wk, *wv, *wo, *wg, *wu, *wd;
    float *kp, *vp; /* page pools (num_pages, page, K, H) */
} layer;

typedef struct {
    int active, len, next;
    int *blocks; /* (max_blocks) */
} seq_slot;

struct rl_engine {
    rl_model m;
    rl_backend be;
    rl_engine_config c;
    int D, F, N, K, H, V, L, max_blocks, M;
    layer *layers;
    float *embed, *final_norm; /* embed (V, D) activation memory */
    void *lm_head;
    /* activations (M rows) */
    float *x, *xn, *q, *k, *v, *att, *tmp, *gate, *up, *logits;
    int *free_pages, nfree;
    seq_slot *slots;
    int *bt; /* (max_slots, max_blocks) compacted block table of a step */
    int *slot_map; /* (M) the KV slot each row of a step writes (backend.h kv_write) */
    int *step_rows; /* (5 x max_slots) a decode step's slot ids, tokens, positions, lengths, argmaxes */
    float *host_logits; /* (max_slots x V) a decode step's logits on the host, for sampling */
    int timing;
    double op_s[RL_EOP_COUNT];
    long op_n[RL_EOP_COUNT];
};

/* Run `call` as operator `op`, timed on the backend's clock (backend.h;
 * synchronised on both sides) when timing is on. */
#define RUN(e, op, call)                                                                           \
    do {                                                                                           \
        double t0_ = 0;                                                                            \
        if ((e)->timing) {                                                                         \
            (e)->be.sync((e)->be.ctx);                                                             \
            t0_ = rl_backend_clock(&(e)->be);                                                      \
        }                                                                                          \
        call;                                                                                      \
        if ((e)->timing) {                                                                         \
            (e)->be.sync((e)->be.ctx);                                                             \
            (e)->op_s[op] += rl_backend_clock(&(e)->be) - t0_;                                     \
            (e)->op_n[op]++;                                                                       \
        }                                                                                          \
    } while (0)

void rl_engine_set_timing(rl_engine *e, int on) { e->timing = on; }

void rl_engine_timers_reset(rl_engine *e)
{
    memset(e->op_s, 0, sizeof e->op_s);
    memset(e->op_n, 0, sizeof e->op_n);
}

void rl_engine_timers(const rl_engine *e, double *seconds, long *calls)
{
    memcpy(seconds, e->op_s, sizeof e->op_s);
    if (calls)
        memcpy(calls, e->op_n, sizeof e->op_n);
}

const rl_engine_config *rl_engine_config_of(const rl_engine *e) { return &e->c; }

double rl_engine_clock(const rl_engine *e) { return rl_backend_clock(&e->be); }

/* ---- construction ------------------------------------------------------------ */

static void *dev_free(rl_engine *e, void *p)
{
    if (p)
        e->be.free(e->be.ctx, p);
    return NULL;
}

void rl_engine_free(rl_engine *e)
{
    if (!e)
        return;
    if (e->layers) {
        for (int l = 0; l < e->L; l++) {
            layer *y = &e->layers[l];
            void *ps[] = {y->attn_norm, y->mlp_norm, y->wq, y->wk, y->wv, y->wo,
                          y->wg,        y->wu,       y->wd, y->kp, y->vp};
            for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++)
                dev_free(e, ps[i]);
        }
    }
    void *ps[] = {e->embed, e->final_norm, e->x,   e->xn,   e->q,  e->k,     e->v,
                  e->att,   e->tmp,        e->gate, e->up,  e->logits};
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++)
        dev_free(e, ps[i]);
    if (e->lm_head && (!e->m.tied_embeddings))
        dev_free(e, e->lm_head);
    if (e->slots)
        for (int s = 0; s < e->c.max_slots; s++)
            free(e->slots[s].blocks);
    free(e->slots);
    free(e->layers);
    free(e->free_pages);
    free(e->bt);
    free(e->slot_map);
    free(e->step_rows);
    free(e->host_logits);
    if (e->be.destroy)
        e->be.destroy(e->be.ctx);
    free(e);
}

/* Store tensor i (host data h) where the engine keeps it. */
static int place(rl_engine *e, const rl_tensor_info *t, const float *h)
{
    size_t n = (size_t)(t->rows * t->cols);
    if (t->rows == 1 || strstr(t->name, "embed_tokens")) { /* norms and embeddings: activations */
        float *d = e->be.alloc(e->be.ctx, n);
        if (!d)
            return -1;
        e->be.to_dev(e->be.ctx, d, h, n);
        if (strstr(t->name, "embed_tokens")) {
            e->embed = d;
            if (e->m.tied_embeddings && !(e->lm_head = e->be.upload_weight(e->be.ctx, h, n)))
                return -1;
        } else if (strstr(t->name, "input_layernorm") || strstr(t->name, "post_attention")) {
            int l = atoi(t->name + strlen("model.layers."));
            *(strstr(t->name, "input") ? &e->layers[l].attn_norm : &e->layers[l].mlp_norm) = d;
        } else {
            e->final_norm = d;
        }
        return 0;
    }
    void *w = e->be.upload_weight(e->be.ctx, h, n);
    if (!w)
        return -1;
    if (strcmp(t->name, "lm_head.weight") == 0) {
        e->lm_head = w;
        return 0;
    }
    layer *y = &e->layers[atoi(t->name + strlen("model.layers."))];
    static const char *const key[] = {"q_proj", "k_proj", "v_proj", "o_proj",
                                      "gate_proj", "up_proj", "down_proj"};
    void **dst[] = {&y->wq, &y->wk, &y->wv, &y->wo, &y->wg, &y->wu, &y->wd};
    for (int i = 0; i < 7; i++)
        if (strstr(t->name, key[i]))
            *dst[i] = w;
    return 0;
}

static int load_weights(rl_engine *e, char *err, size_t errlen)
{
    int cap = 16 + 9 * e->L, rc = -1;
    rl_tensor_info *t = malloc((size_t)cap * sizeof *t);
    float *buf = NULL;
    rl_safetensors *f = NULL;
    if (!t)
        RL_FAIL("%s: out of memory", e->m.origin);
    int n = rl_weights_list(&e->m, t, cap, err, errlen);
    if (n < 0)
        goto done;
    size_t biggest = 0;
    for (int i = 0; i < n; i++)
        biggest = (size_t)(t[i].rows * t[i].cols) > biggest ? (size_t)(t[i].rows * t[i].cols) : biggest;
    if (!(buf = malloc(biggest * sizeof *buf))) {
        snprintf(err, errlen, "%s: out of memory", e->m.origin);
        goto done;
    }
    if (e->c.weights_path && !(f = rl_safetensors_open(e->c.weights_path, err, errlen)))
        goto done;
    for (int i = 0; i < n; i++) {
        if (f) {
            if (rl_safetensors_read(f, &t[i], buf, err, errlen) != 0)
                goto done;
        } else {
            rl_weights_generate(&t[i], i, e->c.seed, buf);
        }
        if (place(e, &t[i], buf) != 0) {
            snprintf(err, errlen, "%s: out of %s memory for tensor %s", e->m.origin, e->be.name,
                     t[i].name);
            goto done;
        }
    }
    rc = 0;
done:
    rl_safetensors_close(f);
    free(buf);
    free(t);
    return rc;
}

rl_engine *rl_engine_new(const rl_model *m, const rl_backend *be, const rl_engine_config *cfg,
                         char *err, size_t errlen)
{
    /* refuse a model whose fp32 weights cannot fit in this host's memory
     * before allocating: the kernel's OOM killer would end the run instead */
    double need = rl_arch_params(m).total * 4.0;
    double have = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
    if (m->abstract) {
        snprintf(err, errlen, "engine: %s is an abstract model; the engine needs its shapes",
                 m->origin);
        return NULL;
    }
    if (have > 0 && need > 0.8 * have) {
        snprintf(err, errlen, "engine: %s needs %.1f GB of fp32 weights; this host has %.1f GB of "
                              "memory (use a smaller model such as tiny-ref)",
                 m->name, need * 1e-9, have * 1e-9);
        return NULL;
    }
    rl_engine *e = calloc(1, sizeof *e);
    if (!e) {
        snprintf(err, errlen, "engine: out of memory");
        return NULL;
    }
    e->m = *m;
    e->be = *be;
    e->c = *cfg;
    rl_engine_config *c = &e->c;
    if (c->page_size <= 0)
        c->page_size = 16;
    if (c->max_slots <= 0)
        c->max_slots = 8;
    if (c->max_context <= 0)
        c->max_context = m->max_context > 0 && m->max_context < 4096 ? (int)m->max_context : 4096;
    if (c->max_prefill <= 0)
        c->max_prefill = 512;
    if (c->max_prefill > c->max_context)
        c->max_prefill = c->max_context;
    e->D = (int)m->d_model, e->F = (int)m->d_ff, e->N = (int)m->heads, e->K = (int)m->kv_heads;
    e->H = (int)m->head_dim, e->V = (int)m->vocab, e->L = (int)m->layers;
    e->max_blocks = (c->max_context + c->page_size - 1) / c->page_size;
    if (c->num_pages <= 0)
        c->num_pages = (c->max_slots + 1) * e->max_blocks;
    e->M = c->max_prefill > c->max_slots ? c->max_prefill : c->max_slots;
    size_t M = (size_t)e->M, kvrow = (size_t)e->K * e->H;
    size_t pool = (size_t)c->num_pages * c->page_size * kvrow;
    if (!(e->layers = calloc((size_t)e->L, sizeof *e->layers)) ||
        !(e->slots = calloc((size_t)c->max_slots, sizeof *e->slots)) ||
        !(e->free_pages = malloc((size_t)c->num_pages * sizeof(int))) ||
        !(e->bt = calloc((size_t)c->max_slots * e->max_blocks, sizeof(int))) ||
        !(e->slot_map = malloc(M * sizeof(int))) ||
        !(e->step_rows = malloc(5 * (size_t)c->max_slots * sizeof(int))) ||
        !(e->host_logits = malloc((size_t)c->max_slots * e->V * sizeof(float))))
        goto oom;
    for (int s = 0; s < c->max_slots; s++)
        if (!(e->slots[s].blocks = calloc((size_t)e->max_blocks, sizeof(int))))
            goto oom;
    for (int p = 0; p < c->num_pages; p++)
        e->free_pages[p] = c->num_pages - 1 - p;
    e->nfree = c->num_pages;
    float **acts[] = {&e->x, &e->xn, &e->q, &e->k, &e->v, &e->att, &e->tmp, &e->gate, &e->up, &e->logits};
    size_t sizes[] = {M * e->D, M * e->D, M * e->N * e->H, M * kvrow, M * kvrow, M * e->N * e->H,
                      M * e->D, M * e->F, M * e->F, (size_t)c->max_slots * e->V};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (!(*acts[i] = e->be.alloc(e->be.ctx, sizes[i])))
            goto oom;
    for (int l = 0; l < e->L; l++)
        if (!(e->layers[l].kp = e->be.alloc(e->be.ctx, pool)) ||
            !(e->layers[l].vp = e->be.alloc(e->be.ctx, pool)))
            goto oom;
    if (load_weights(e, err, errlen) != 0) {
        rl_engine_free(e);
        return NULL;
    }
    return e;
oom:
    snprintf(err, errlen, "%s: out of %s memory for the engine (%d pages of %d tokens)", m->origin,
             be->name, c->num_pages, c->page_size);
    rl_engine_free(e);
    return NULL;
}

/* ---- pages -------------------------------------------------------------------- */

static int take_pages(rl_engine *e, int *blocks, int have, int need)
{
    if (need - have > e->nfree)
        return -1;
    for (int i = have; i < need; i++)
        blocks[i] = e->free_pages[--e->nfree];
    return 0;
}

static void give_pages(rl_engine *e, const int *blocks, int n)
{
    for (int i = 0; i < n; i++)
        e->free_pages[e->nfree++] = blocks[i];
}

static int pages_for(const rl_engine *e, int len) { return (len + e->c.page_size - 1) / e->c.page_size; }

/* ---- forward pass --------------------------------------------------------------- */

/* e->slot_map[m] = the KV slot of row m at position pos[m] of the sequence
 * whose block table starts at blocks + m * stride (stride 0: one prompt). */
static const int *map_slots(rl_engine *e, int M, const int *pos, const int *blocks, int stride)
{
    int P = e->c.page_size;
    for (int m = 0; m < M; m++)
        e->slot_map[m] = blocks[(size_t)m * stride + pos[m] / P] * P + pos[m] % P;
    return e->slot_map;
}

/* One layer over M rows of e->x at positions pos (M); attention is either
 * causal over this prompt (prefill) or paged decode over len (M). */
static void layer_forward(rl_engine *e, int l, int M, const int *pos, const int *blocks,
                          const int *len, const int *slots, int prefill)
{
    layer *y = &e->layers[l];
    void *cx = e->be.ctx;
    const rl_backend *b = &e->be;
    int D = e->D, qd = e->N * e->H, kd = e->K * e->H, F = e->F, P = e->c.page_size;
    RUN(e, RL_EOP_ATTN_NORM, b->rmsnorm(cx, e->x, y->attn_norm, e->xn, M, D, NORM_EPS));
    RUN(e, RL_EOP_Q_PROJ, b->matmul(cx, e->xn, y->wq, e->q, M, qd, D));
    RUN(e, RL_EOP_K_PROJ, b->matmul(cx, e->xn, y->wk, e->k, M, kd, D));
    RUN(e, RL_EOP_V_PROJ, b->matmul(cx, e->xn, y->wv, e->v, M, kd, D));
    RUN(e, RL_EOP_ROPE, {
        b->rope(cx, e->q, pos, M, e->N, e->H, ROPE_THETA);
        b->rope(cx, e->k, pos, M, e->K, e->H, ROPE_THETA);
    });
    RUN(e, RL_EOP_KV_WRITE, b->kv_write(cx, e->k, e->v, y->kp, y->vp, slots, M, e->K, e->H));
    if (prefill)
        RUN(e, RL_EOP_ATTENTION, b->attn_prefill(cx, e->q, e->k, e->v, e->att, M, e->N, e->K, e->H));
    else
        RUN(e, RL_EOP_ATTENTION, b->attn_decode(cx, e->q, y->kp, y->vp, blocks, len, M,
                                               e->max_blocks, P, e->N, e->K, e->H, e->att));
    RUN(e, RL_EOP_O_PROJ, b->matmul(cx, e->att, y->wo, e->tmp, M, D, qd));
    RUN(e, RL_EOP_ATTN_RESIDUAL, b->add(cx, e->x, e->tmp, (size_t)M * D));
    RUN(e, RL_EOP_MLP_NORM, b->rmsnorm(cx, e->x, y->mlp_norm, e->xn, M, D, NORM_EPS));
    RUN(e, RL_EOP_MLP_GATE, b->matmul(cx, e->xn, y->wg, e->gate, M, F, D));
    RUN(e, RL_EOP_MLP_UP, b->matmul(cx, e->xn, y->wu, e->up, M, F, D));
    RUN(e, RL_EOP_SWIGLU, b->swiglu(cx, e->gate, e->up, e->gate, (size_t)M * F));
    RUN(e, RL_EOP_MLP_DOWN, b->matmul(cx, e->gate, y->wd, e->tmp, M, D, F));
    RUN(e, RL_EOP_MLP_RESIDUAL, b->add(cx, e->x, e->tmp, (size_t)M * D));
}

/* Final norm and LM head over `rows` rows of e->x starting at row `first`,
 * logits to e->logits (rows, V). */
static void head_forward(rl_engine *e, int first, int rows)
{
    const rl_backend *b = &e->be;
    float *xr = e->x + (size_t)first * e->D;
    RUN(e, RL_EOP_FINAL_NORM, b->rmsnorm(b->ctx, xr, e->final_norm, e->xn, rows, e->D, NORM_EPS));
    RUN(e, RL_EOP_LM_HEAD, b->matmul(b->ctx, e->xn, e->lm_head, e->logits, rows, e->V, e->D));
}

static int check_tokens(const rl_engine *e, const int *tok, int n, char *err, size_t errlen)
{
    for (int i = 0; i < n; i++)
        if (tok[i] < 0 || tok[i] >= e->V)
            RL_FAIL("engine: token %d at position %d outside 0..%d", tok[i], i, e->V - 1);
    return 0;
}

int rl_engine_prefill(rl_engine *e, const int *tokens, int T, rl_prefix *out, float *logits,
                      char *err, size_t errlen)
{
    out->blocks = NULL;
    out->len = 0;
    if (T < 1 || T > e->c.max_prefill)
        RL_FAIL("engine: prefill of %d tokens: must be 1..%d (max_prefill)", T, e->c.max_prefill);
    if (check_tokens(e, tokens, T, err, errlen) != 0)
        return -1;
    int *blocks = calloc((size_t)e->max_blocks, sizeof *blocks);
    int *pos = malloc((size_t)T * sizeof *pos);
    if (!blocks || !pos || take_pages(e, blocks, 0, pages_for(e, T)) != 0) {
        free(blocks);
        free(pos);
        RL_FAIL("engine: prefill of %d tokens: no free KV pages (%d left)", T, e->nfree);
    }
    for (int t = 0; t < T; t++)
        pos[t] = t;
    RUN(e, RL_EOP_EMBEDDING, e->be.embed(e->be.ctx, e->embed, tokens, e->x, T, e->D));
    const int *slots = map_slots(e, T, pos, blocks, 0);
    for (int l = 0; l < e->L; l++)
        layer_forward(e, l, T, pos, blocks, NULL, slots, 1);
    head_forward(e, T - 1, 1);
    if (logits)
        e->be.to_host(e->be.ctx, logits, e->logits, (size_t)e->V);
    e->be.sync(e->be.ctx);
    free(pos);
    out->blocks = blocks;
    out->len = T;
    return 0;
}

void rl_engine_prefix_free(rl_engine *e, rl_prefix *p)
{
    if (p->blocks)
        give_pages(e, p->blocks, pages_for(e, p->len));
    free(p->blocks);
    p->blocks = NULL;
    p->len = 0;
}

int rl_engine_insert(rl_engine *e, rl_prefix *p, int slot, int next_token, char *err, size_t errlen)
{
    if (slot < 0 || slot >= e->c.max_slots)
        RL_FAIL("engine: slot %d outside 0..%d", slot, e->c.max_slots - 1);
    if (e->slots[slot].active)
        RL_FAIL("engine: slot %d is busy", slot);
    if (check_tokens(e, &next_token, 1, err, errlen) != 0)
        return -1;
    seq_slot *s = &e->slots[slot];
    memcpy(s->blocks, p->blocks, (size_t)pages_for(e, p->len) * sizeof(int));
    s->len = p->len;
    s->next = next_token;
    s->active = 1;
    free(p->blocks);
    p->blocks = NULL;
    p->len = 0;
    return 0;
}

void rl_engine_release(rl_engine *e, int slot)
{
    if (slot < 0 || slot >= e->c.max_slots || !e->slots[slot].active)
        return;
    give_pages(e, e->slots[slot].blocks, pages_for(e, e->slots[slot].len));
    e->slots[slot].active = 0;
    e->slots[slot].len = 0;
}

void rl_engine_greedy(const rl_backend *be, const float *dev, float *host, int rows, int V, int *best)
{
    be->to_host(be->ctx, host, dev, (size_t)rows * V);
    for (int i = 0; i < rows; i++) {
        const float *r = host + (size_t)i * V;
        int k = 0;
        for (int j = 1; j < V; j++)
            k = r[j] > r[k] ? j : k;
        best[i] = k;
    }
}

int rl_engine_generate(rl_engine *e, float *logits, char *err, size_t errlen)
{
    int S = e->c.max_slots, B = 0;
    int *ids = e->step_rows, *tok = ids + S, *pos = tok + S, *len = pos + S, *best = len + S;
    for (int s = 0; s < S; s++) {
        seq_slot *sl = &e->slots[s];
        if (!sl->active)
            continue;
        if (sl->len >= e->c.max_context)
            RL_FAIL("engine: slot %d is at max_context (%d tokens)", s, e->c.max_context);
        int need = pages_for(e, sl->len + 1), have = pages_for(e, sl->len);
        if (take_pages(e, sl->blocks, have, need) != 0)
            RL_FAIL("engine: generate: no free KV page for slot %d", s);
        ids[B] = s;
        tok[B] = sl->next;
        pos[B] = sl->len;
        len[B] = sl->len + 1;
        memcpy(e->bt + (size_t)B * e->max_blocks, sl->blocks, (size_t)need * sizeof(int));
        B++;
    }
    if (B == 0)
        return 0;
    RUN(e, RL_EOP_EMBEDDING, e->be.embed(e->be.ctx, e->embed, tok, e->x, B, e->D));
    const int *slots = map_slots(e, B, pos, e->bt, e->max_blocks);
    for (int l = 0; l < e->L; l++)
        layer_forward(e, l, B, pos, e->bt, len, slots, 0);
    head_forward(e, 0, B);
    float *host = e->host_logits;
    rl_engine_greedy(&e->be, e->logits, host, B, e->V, best);
    for (int i = 0; i < B; i++) {
        seq_slot *sl = &e->slots[ids[i]];
        sl->next = best[i];
        sl->len++;
        if (logits)
            memcpy(logits + (size_t)ids[i] * e->V, host + (size_t)i * e->V, (size_t)e->V * sizeof *host);
    }
    return B;
}

int rl_engine_fill_slot(rl_engine *e, int slot, int len, char *err, size_t errlen)
{
    if (slot < 0 || slot >= e->c.max_slots || e->slots[slot].active)
        RL_FAIL("engine: slot %d out of range or busy", slot);
    if (len < 1 || len >= e->c.max_context)
        RL_FAIL("engine: fill of %d tokens: must be 1..%d", len, e->c.max_context - 1);
    seq_slot *s = &e->slots[slot];
    int np = pages_for(e, len);
    if (take_pages(e, s->blocks, 0, np) != 0)
        RL_FAIL("engine: fill of %d tokens: no free KV pages", len);
    size_t n = (size_t)np * e->c.page_size * e->K * e->H;
    float *h = malloc(n * sizeof *h);
    if (!h) {
        give_pages(e, s->blocks, np);
        RL_FAIL("engine: out of memory");
    }
    uint64_t st = 0x243F6A8885A308D3ull + (uint64_t)slot;
    for (size_t i = 0; i < n; i++) {
        st = st * 6364136223846793005ull + 1442695040888963407ull; /* Knuth MMIX LCG */
        h[i] = (float)((st >> 40) * (1.0 / 16777216.0)) - 0.5f;
    }
    size_t page = (size_t)e->c.page_size * e->K * e->H;
    for (int l = 0; l < e->L; l++)
        for (int p = 0; p < np; p++) {
            e->be.to_dev(e->be.ctx, e->layers[l].kp + (size_t)s->blocks[p] * page, h + p * page, page);
            e->be.to_dev(e->be.ctx, e->layers[l].vp + (size_t)s->blocks[p] * page, h + p * page, page);
        }
    free(h);
    s->len = len;
    s->next = 0;
    s->active = 1;
    return 0;
}
