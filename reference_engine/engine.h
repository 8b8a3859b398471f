/* engine.h — the reference LLaMA-style decoder: RMSNorm, RoPE, GQA
 * attention, SwiGLU MLP, LM head, over a paged KV cache.
 *
 * Owns the model's forward pass, the paged KV cache (fixed-size pages and a
 * block table per sequence, Kwon et al. 2023 "PagedAttention"), the decode
 * slots and the per-operator timers.  The interface is JetStream's split
 * (seed 000 section 4): `prefill` a prompt into KV pages, `insert` those
 * pages into a decode slot, `generate` one token for every active slot.
 * Kernels come from a backend (backend.h); weights from weights.h.  Uses
 * spec (rl_model), backend, weights. */
#ifndef RL_ENGINE_H
#define RL_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "spec.h"

/* Operators timed by the engine, named as in the analytic operator list
 * (src/ops.c, `roofline ops`), one timer per operator summed over layers.
 * Differences: `attention` is the fused qk + softmax + pv of ops.c;
 * `kv_write` (appending K/V to the pages) and `swiglu` (silu(gate) * up)
 * are separate kernels here where ops.c folds them into k_proj/v_proj and
 * the MLP. */
typedef enum {
    RL_EOP_EMBEDDING,     /* token embedding lookup */
    RL_EOP_ATTN_NORM,     /* RMSNorm before attention */
    RL_EOP_Q_PROJ,
    RL_EOP_K_PROJ,
    RL_EOP_V_PROJ,
    RL_EOP_ROPE,          /* on q and k */
    RL_EOP_KV_WRITE,      /* append k, v to the pages */
    RL_EOP_ATTENTION,     /* QK^T, softmax, PV (fused) */
    RL_EOP_O_PROJ,
    RL_EOP_ATTN_RESIDUAL,
    RL_EOP_MLP_NORM,
    RL_EOP_MLP_GATE,
    RL_EOP_MLP_UP,
    RL_EOP_SWIGLU,        /* silu(gate) * up */
    RL_EOP_MLP_DOWN,
    RL_EOP_MLP_RESIDUAL,
    RL_EOP_FINAL_NORM,
    RL_EOP_LM_HEAD,
    RL_EOP_COUNT
} rl_eop;

/* "q_proj", "attention", ... */
const char *rl_eop_name(rl_eop op);

typedef struct {
    int page_size;     /* tokens per KV page (default 16) */
    int max_slots;     /* decode slots, the largest B (default 8) */
    int max_context;   /* longest sequence, tokens (default: the model's, capped at 4096) */
    int max_prefill;   /* longest prompt, tokens (default 512) */
    int num_pages;     /* pages per layer (default: enough for every slot at max_context
                          plus one prompt) */
    uint64_t seed;     /* seeded weights when weights_path is NULL */
    const char *weights_path; /* a .safetensors file, or NULL */
} rl_engine_config;

typedef struct rl_engine rl_engine;

/* A prompt's KV pages after prefill, until inserted or freed. */
typedef struct {
    int *blocks; /* page ids, ceil(len / page_size) */
    int len;     /* tokens in the cache */
} rl_prefix;

/* Build the engine: load (or generate) every weight and upload it, allocate
 * the page pools.  Returns NULL with err set. */
rl_engine *rl_engine_new(const rl_model *m, const rl_backend *be, const rl_engine_config *c,
                         char *err, size_t errlen);
void rl_engine_free(rl_engine *e);

/* Run tokens (T) through the model, writing K and V into fresh pages
 * (returned in *out) and the last position's logits (V floats, host) into
 * `logits` (may be NULL).  Errors: T outside 1..max_prefill, token outside
 * 0..V-1, no free pages. */
int rl_engine_prefill(rl_engine *e, const int *tokens, int T, rl_prefix *out, float *logits,
                      char *err, size_t errlen);

/* Return a prefix's pages to the pool (when it is never inserted). */
void rl_engine_prefix_free(rl_engine *e, rl_prefix *p);

/* Move a prefix into decode slot `slot` (it takes ownership of the pages);
 * `next_token` is the token the next generate step feeds.  Errors: slot
 * out of range or busy. */
int rl_engine_insert(rl_engine *e, rl_prefix *p, int slot, int next_token, char *err, size_t errlen);

/* One decode step for every active slot (B = their count): each feeds its
 * next token, appends K/V, and gets logits; the next token becomes the
 * greedy argmax.  logits (max_slots, V) host, row = slot, may be NULL.
 * Returns B >= 0, or -1 (no free page, a slot at max_context). */
int rl_engine_generate(rl_engine *e, float *logits, char *err, size_t errlen);

/* Free slot `slot` and its pages. */
void rl_engine_release(rl_engine *e, int slot);

/* Benchmark helper: put a sequence of `len` cached tokens with seeded random
 * K/V (no forward pass) into slot `slot`, next token 0.  What timing the
 * decode of a long context needs without prefilling it. */
int rl_engine_fill_slot(rl_engine *e, int slot, int len, char *err, size_t errlen);

/* Greedy sampling as generate does it: copy rows x V logits from the
 * backend (dev) to host (rows x V floats), best[r] = the argmax of row r.
 * calibrate times it for the reference engine's per-step and per-sequence
 * costs (engines.h rl_engine_cost_default). */
void rl_engine_greedy(const rl_backend *be, const float *dev, float *host, int rows, int V, int *best);

/* Per-operator timers: on/off (off by default: timing synchronises the
 * backend around every kernel), reset, read (seconds and calls per op). */
void rl_engine_set_timing(rl_engine *e, int on);
void rl_engine_timers_reset(rl_engine *e);
void rl_engine_timers(const rl_engine *e, double *seconds, long *calls);

/* Seconds on the clock the engine's timers read (its backend's, backend.h:
 * one CPU thread's CPU time, else the wall clock), for callers timing
 * whole steps alike. */
double rl_engine_clock(const rl_engine *e);

/* Engine limits after defaults, for callers sizing a run. */
const rl_engine_config *rl_engine_config_of(const rl_engine *e);

#endif
