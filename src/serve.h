/* serve.h — discrete-event serving simulator.
 *
 * Owns: the scheduling policies of seed 000 section 4 "Designing an
 * Effective Inference Engine" (static batching, interleaved prefill at B=1,
 * continuous batching, chunked prefill, disaggregated prefill/decode pools
 * with the KV transfer over the network), replicas behind a router, KV
 * capacity in pages with preemption (recompute or swap to host), prefix
 * caching (LRU in HBM and host tiers), speculative decoding, the step cost
 * from the operator list, and the metrics (TTFT, TPOT, end-to-end latency
 * percentiles, throughput, goodput, KV occupancy over time) with their JSON
 * and gnuplot output.
 *
 * Uses workload (requests), ops (the operator list's mixed step), shard (TP
 * collectives), plot (gnuplot figures), spec, step, arch, memory.  Every
 * step's time comes from an rl_step_cost (a function pointer + ctx): the
 * operator list here, or any other model (calibrated, for instance).  SI
 * units: seconds, bytes, tokens.
 *
 * Engine model (one replica = `chips` chips holding one copy of the model):
 * a step processes `prefill_tokens` new prompt tokens (after a cached prefix)
 * and one token for each of `decode_batch` decoding sequences; a prefill that
 * completes emits the request's first token at the step's end (TTFT, plus
 * the engine's prefill dispatch: rl_step_cost.dispatch_s); each
 * decode step emits one more token per sequence (or (1 - a^(g+1))/(1 - a)
 * expected tokens with speculative decoding, seed 000 Appendix D and
 * Leviathan et al. arXiv:2211.17192 eq. (1)). */
#ifndef RL_SERVE_H
#define RL_SERVE_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "spec.h"
#include "ops.h"
#include "step.h"
#include "workload.h"

/* ---- step cost ------------------------------------------------------- */

/* The work of one engine step on one replica: the prompts being prefilled,
 * each `tokens` (T) new tokens on its own cached `prefix` (P: a prefix-cache
 * hit, earlier chunks) in `seqs` sequences of that shape, and
 * `decode_batch` sequences (B) generating one token each at a mean context
 * of `decode_context` tokens (S).  Each prompt attends to its own prefix and
 * tokens only.
 *
 * `decode_longest`: the longest context among those B (S_max), given only
 * to a cost whose rl_step_cost.longest is set (0: not given; the cost
 * reads S).  Such a cost's engine times a mixed batch's decode attention at
 * its longest row (engines.h rl_serving_engine.attn_longest): one thread
 * block per (row, head), all resident, so the kernel ends with the longest
 * row.  The op-list cost then times the whole step at (B, S_max) when its
 * decode attention is table-timed: the attention kernel is the one operator
 * whose time depends on the context (the KV it reads is in that kernel's
 * table time; weights, GEMMs, norms and sampling depend on B alone), so
 * t(B, S_max) is the step with attention at S_max and the rest unchanged.
 * A cost whose attention is not table-timed (roofline: KV bytes / bandwidth,
 * the sum of the batch's contexts) keeps S: rl_ops_cost.attn_longest. */
typedef struct {
    const rl_ops_part *prefill; /* ops.h: {seqs, tokens, prefix} */
    int nprefill;
    double decode_batch, decode_context;
    double decode_longest;
} rl_step_work;

/* Time in seconds of one step's work; must return > 0 when any work is
 * given.  `dispatch_s`: the engine's prefill dispatch of one request
 * (ops.h rl_ops_prefill_dispatch), host latency on that request's path
 * only: the simulator adds it once to the request's first-token time and
 * end-to-end latency when its prompt's last chunk completes, never to a
 * step, so no other request waits for it and its TPOT and ITL are
 * unchanged (NVIDIA AIConfigurator adds it to TTFT alone:
 * sdk/backends/base_backend.py `_ttft_per_request`, commit 0d2668649). */
typedef struct {
    double (*time)(void *ctx, const rl_step_work *w);
    void *ctx;
    double dispatch_s;
    int longest; /* 1: time reads rl_step_work.decode_longest, which the simulator
                    then tracks per replica (serve.c longest_ctx); 0: S alone */
} rl_step_cost;

/* The step cost from the operator list (ops.h, rl_ops_step_time with the
 * step's prompts as parts): every operator of the step at its own roofline
 * over `chips` chips, ideal peak, plus the tensor-parallel collectives of 1D
 * Megatron sharding over the replica's chips (shard.h, rl_shard_collectives
 * with tp = chips, generation phase, for the step's prompt + decode token
 * rows of bf16 activations (fp32 with fp32 compute), as the op list's; no
 * overlap).  Each prompt's prefix + tokens are within the model's
 * max_context (a generated request longer is drawn again and a --trace row
 * that long refused before they are simulated: workload.h
 * rl_requests_redraw) and so is S.  Decode-only compute is linear in S at a given B (weights do
 * not depend on S, attention is memory-bound and linear), so it is
 * interpolated from two op-list evaluations per batch size, each batch
 * checked at a third point (a batch where the check fails is always
 * evaluated in full, and its steps are memoised by (B, S)); a step with
 * one prompt is memoised by (T, P, B, S) in a bounded cache (size's
 * searches rerun a workload many times); memoised times are the op list's,
 * exactly, so the cache changes no result; the collectives
 * depend on the rows only and are cached per row count. */
/* How a replica's chips run attention and hold the KV cache.
 *  - RL_ATTN_LAYOUT_TP (default, "tp"): Megatron tensor parallelism over the
 *    replica's chips; KV heads split over min(chips, K) chips and replicated
 *    beyond: every chip holds (and reads) tp / min(tp, K) copies' share, so
 *    MLA's single latent cache is whole on every chip.  vLLM replicates KV
 *    heads when K < TP (model_executor/models/deepseek_v2.py, "we replicate
 *    the KV heads across multiple tensor parallel GPUs"); SGLang's guide
 *    says the MLA cache is duplicated on every GPU under TP
 *    (docs.sglang.io, advanced_features/dp_dpa_smg_guide: "The Problem with
 *    Tensor Parallelism for MLA Models").
 *  - RL_ATTN_LAYOUT_DP ("attn-dp"): attention data parallel, for MoE models
 *    (vLLM docs serving/data_parallel_deployment: "data parallel for the
 *    attention layers and expert or tensor parallel (EP or TP) for the
 *    expert layers"; SGLang --enable-dp-attention): each chip runs attention
 *    for its own sequences and holds their whole cache (KV split over the
 *    chips, one copy); the plan is shard.h's "tp1 epN attn=rep" (N = chips):
 *    attention, dense MLP, shared experts and embeddings on every chip,
 *    routed experts split N ways, AllToAll dispatch and combine.  The
 *    replica's sequences share one KV pool (an even spread over the chips
 *    is assumed). */
typedef enum { RL_ATTN_LAYOUT_TP, RL_ATTN_LAYOUT_DP, RL_ATTN_LAYOUT_COUNT } rl_attn_layout;

const char *rl_attn_layout_name(rl_attn_layout l); /* "tp" | "attn-dp" */
int rl_attn_layout_parse(const char *s, rl_attn_layout *out); /* 0 or -1 */

/* Whether layout l applies to m on `chips` chips: attn-dp needs an MoE
 * model whose experts divide over the chips, and more than one chip.
 * Returns 0, or -1 with err naming the layout and the reason. */
int rl_attn_layout_check(const rl_model *m, long long chips, rl_attn_layout l, char *err,
                         size_t errlen);

/* Whether a replica of `chips` chips can run m in `pp` pipeline stages
 * (dividing the chips, at most the layers: unequal stages split them as
 * vLLM does, shard.h rl_shard_stage_layers) of `ep`
 * expert-parallel groups each (ep 1, or layout TP on a MoE model whose
 * experts and stage chips ep divides) under layout l (rl_attn_layout_check
 * on a stage's chips).  Returns 0, or -1 with err naming pp, ep or the
 * layout and the reason. */
int rl_serve_layout_check(const rl_model *m, long long chips, long long pp, long long ep,
                          rl_attn_layout l, char *err, size_t errlen);

/* The decode KV layout of a replica (or pipeline stage) of `chips` chips
 * in `ep` expert groups under layout l: shard.h's rl_shard_kv_layout of
 * its plan (rl_serve_replica_plan), the one step and ops read too.  Layout
 * TP: each of the ep groups runs attention on its share of the sequences,
 * tensor parallel over its chips / ep chips, each KV head replicated beyond
 * K of them (MLA: on every chip of the group, one latent head), as vLLM
 * replicates KV heads under TP; attn-dp: every chip its own sequences. */
rl_kv_layout rl_serve_kv_layout(const rl_model *m, long long chips, long long ep,
                                rl_attn_layout l);

/* Copies of each token's KV cache in that replica: rl_serve_kv_layout's
 * (TP: chips / ep / min(chips / ep, K), MLA chips / ep; attn-dp 1). */
double rl_serve_kv_copies(const rl_model *m, long long chips, long long ep, rl_attn_layout l);

/* The shard plan of one replica (or pipeline stage) of `chips` chips under
 * layout l: tp = chips / ep with `ep` expert-parallel groups (ep 1: TP
 * alone); or attn-dp's tp1 epN attn=rep (N = chips); KV replicated beyond
 * the heads. */
rl_shard_plan rl_serve_replica_plan(long long chips, long long ep, rl_attn_layout l);

/* One span's op-list terms (ops.h rl_ops_terms) under its key (0: empty). */
typedef struct {
    unsigned long long key;
    rl_ops_terms t;
} rl_ops_term_slot;

/* Step costs `size` keeps alive at once (size.c simulate_plans, band_rows);
 * serve.c keeps as many spare terms mappings (review41 F6: one figure).
 * Each mapping the search makes is memory the system zeroes when first
 * touched, which on the shared 2-core VM cost about 0.1 s per 36 MiB
 * mapping (the first run of each of the 4 step costs of the README's size
 * search at 20 req/s took 0.11-0.13 s against 0.02 s for a later cost's
 * first run on a kept mapping): 3 costs instead of 4, the README's search
 * 4.24 -> 4.12 CPU s at 20 req/s and no change past the noise at 200 (2
 * costs: 4.22 -> 4.13 s at 20, 18.29 -> 18.44 s at 200, its pools
 * rebuilding more step costs); the same results (a cost is a cache). */
#define RL_SERVE_KEPT_COSTS 3

/* Slots per span in rl_ops_cost.terms (152 bytes each): 2^14 (2.4 MiB) for
 * the spans keyed by a count (HEAD, TAIL, SEQS), 2^16 (9.5 MiB) for
 * PREFILL's (T, P) and 2^17 (19 MiB) for DECODE's (B, S), mapped together
 * and touched as used.  The README's size search at 20 req/s asked 1.29 M
 * distinct (B, S) and 0.62 M distinct (T, P) spans of its step costs; with
 * 2^14 slots each it built 2.51 M and 1.30 M (a span evicted and built
 * again), with these 1.3 M and 0.7 M (h31speed). */
#define RL_OPS_TERM_SLOTS (1 << 14)
#define RL_OPS_PREFILL_SLOTS (1 << 16)
#define RL_OPS_DECODE_SLOTS (1 << 17)

typedef struct {
    const rl_model *m;
    const rl_hw *h;
    long long chips;
    rl_precision p;
    rl_attn_layout layout; /* set after rl_ops_cost_init, before the first step (TP) */
    int calibrated;  /* 1: every op timed by h's efficiency tables (when present) */
    long long smax;  /* second sample of S: the model's max_context or 8192 */
    int cap;         /* batches / rows cached: 1..cap */
    double *t1, *slope; /* per B: t(B, S=1) and dt/dS; slope NAN = not yet, -1 = no cache */
    double *comm;    /* per token rows: TP collective time, NAN = not yet */
    double *ends;    /* per B, 2 each: a decode step's ops a pipeline's first and last stages
                        run alone (serve.c step_ends), NAN = not yet */
    /* steps memoised exactly: with fitted engine costs (each step a whole
     * named op list, rl_e2e_mixed_time), one prompt of T tokens on prefix P
     * beside B decoding sequences at context S; and (T = P = 0) a decode
     * step the dense memo below had no memory for.  Op-list steps with a
     * prompt take their spans' terms instead (`terms` below): this memo hit
     * only 26% of them in the README's size search at 20 req/s, and its
     * probes cost more than the spans' sums (h21spd, 6.5 -> 5.9 CPU s);
     * RL_OPS_MEMO slots, a key in one of the
     * RL_OPS_MEMO_WAYS from its hash, a full window replacing its entries in
     * turn (a memo that stopped storing when 3/4 full filled up at 200 req/s
     * and then cost a long probe per miss) */
    unsigned long long (*memo_key)[2]; /* {T << 32 | P, B << 32 | S}, bit 63 of [1] set for
                                          an unfinished prompt's step; [1] = 0: empty */
    double *memo_t;
    long long memo_n; /* entries stored (and replaced) */
    /* decode steps of a batch that fails the linear check, memoised by (B, S)
     * in blocks of RL_OPS_DENSE contexts: dense[B][S / RL_OPS_DENSE][S %
     * RL_OPS_DENSE], 0 = not yet; each level allocated when first used, up
     * to dense_max bytes in all (dense_bytes so far; RL_OPS_DENSE_MAX from
     * rl_ops_cost_init); past it, steps go to the bounded hash memo above,
     * which gives the same time (the same step_time call) */
    double ***dense;
    char *dense_map; /* the dense memo's memory, dense_max bytes (serve.c table_map) */
    size_t dense_bytes, dense_max;
    /* every op-list step is the sum of its spans' terms (ops.h
     * rl_ops_terms_time, the op list's own time bit for bit), each span's
     * kept by what its ops depend on: HEAD and TAIL by the step's token
     * rows, PREFILL by a lone prompt's (T, P), DECODE by (B, S), SEQS by
     * the sequences (the LM head); direct mapped, RL_OPS_TERM_SLOTS per
     * span (PREFILL and DECODE more), all spans' allocated together when first used (NULL: not yet,
     * or no memory: built each time).  Whole steps rarely recur (chunk, prefix, batch and
     * context all vary); their spans do.  A mapping freed is kept for the
     * next step cost to take (serve.c terms_take), its slots tagged by
     * generation instead of zeroed again. */
    rl_ops_term_slot *terms[RL_OPS_SPANS];
    unsigned long long terms_tag; /* the mapping's generation, in each key's top bits
                                     (serve.c RL_TERM_TAG_SHIFT) */
    long long unmapped; /* steps timed before the terms and the dense memo were mapped: both
                           are mapped at the RL_OPS_MAP_AFTER-th (serve.c term_slot) */
    rl_ops_config step0; /* every step's configuration but its work (serve.c step_config):
                            the plan, KV copies, precision; chips 0: not yet made */
    rl_ops_memo *memo;   /* step0.memo: the op lists' lookups kept between steps (ops.h);
                            made with step0, freed with the other caches (NULL: none) */
    rl_ops_part *parts; /* scratch: the step's prompts, capped (capacity nparts) */
    int nparts;
    int fitted;      /* 1: h's engine_costs time every step (e2e.h, rl_e2e_mixed_time) */
    long long pp;    /* pipeline stages (rl_ops_cost_pipeline); `chips` is then one stage's */
    int split;       /* pp > 1: the engine's stage split (shard.h rl_shard_split_of) */
    long long ep;    /* expert-parallel groups of a stage under layout TP (rl_ops_cost_experts) */
    double dispatch_s; /* the engine's prefill dispatch per request (rl_ops_prefill_dispatch;
                          0 with fitted costs, which time the engine end to end) */
    /* 1: a decode step is timed at the batch's longest context (rl_step_work
     * decode_longest): calibrated, not fitted, the selected engine's
     * attention_context "longest" (engines.h attn_longest) and a decode
     * attention table at the KV dtype (MLA: decode_mla), so that the
     * attention is table-timed; else 0, every step at the mean context */
    int attn_longest;
} rl_ops_cost;

/* Steps a cost times before it maps its span terms and dense memo: both
 * are zeroed by the system a 2 MiB page at a time (serve.c table_map),
 * about 14 MB for the first steps, which the few steps of size's pruning
 * costs (add_kind: two or three each, 33 of the 53 costs of the README's
 * search) paid for nothing (h27speed). */
#define RL_OPS_MAP_AFTER 64
#define RL_OPS_MEMO (1 << 19)
#define RL_OPS_MEMO_WAYS 4
#define RL_OPS_DENSE 1024
/* 32 MiB: 4096 blocks of RL_OPS_DENSE contexts (the hash memo's 2^19 slots
 * are about 12 MiB); size keeps SIZE_KEPT_COSTS costs at once.  Our choice:
 * 128k-context runs at a few hundred batch sizes reached about 1 GiB
 * unbounded (review A finding 4). */
#define RL_OPS_DENSE_MAX ((size_t)32 << 20)

/* Whether a decode step of m on h at precision p, calibrated (1) or not,
 * is timed at the batch's longest context (rl_ops_cost.attn_longest: the
 * selected engine's attention_context "longest", calibrated but not
 * fitted, with a decode attention table at the KV dtype, MLA: decode_mla);
 * 0: at the mean context.  simulate's and size's JSON attention_context. */
int rl_serve_attn_longest(const rl_model *m, const rl_hw *h, rl_precision p, int calibrated);

/* Fill *c for m on `chips` chips of h at precision p, calibrated (1: the
 * op list timed by h's efficiency tables, efficiency.h, when h has them;
 * with fitted engine costs, h's engine_costs instead: every step by
 * rl_e2e_mixed_time, uncached) or ideal (0).  Returns 0, or -1
 * with err set (abstract models have no operator list; missing peak; a TP
 * degree the model's heads do not allow, see rl_shard_eval). */
int rl_ops_cost_init(rl_ops_cost *c, const rl_model *m, const rl_hw *h, long long chips,
                     rl_precision p, int calibrated, char *err, size_t errlen);
void rl_ops_cost_free(rl_ops_cost *c);

/* Pipeline parallelism (PP): c's `chips` become one of `pp` stages, each
 * holding layers / pp of the model on chips TP chips (vLLM
 * --pipeline-parallel-size; docs.vllm.ai serving/distributed_serving: "tensor
 * parallel size 8 and pipeline parallel size 2" across two 8-GPU nodes).
 * One step of one micro-batch stream then takes the sum of the stage times
 * (the whole model's operator list on the stage's TP chips: the layers
 * split evenly, so the stages sum to it) plus (pp - 1) point-to-point sends
 * of the step's activations between stages: hidden state and residual
 * (vLLM's IntermediateTensors for Llama-style models,
 * model_executor/models/llama.py), rows x 2 x d_model in the activation
 * dtype, each stage's TP ranks sending in parallel, over the link between
 * stages (comm.h RL_P2P on a group of chips x pp chips: NVLink inside the
 * domain, the NIC across it).  The replica runs pp such streams at once
 * (rl_serve_config.pp).  Left out: contention between streams at a stage
 * (each stream is timed as if alone: optimistic when their batches differ).
 * A pass runs at the pace of the slowest stage (the engine's split, shard.h
 * rl_shard_split_of): pp ticks of it, each stage its layers' share of the
 * op list and its collectives, the first the embedding and the last the
 * final norm and LM head (shard.h rl_shard_stage_pass at pp micro-batches;
 * serve.c step_ends), plus the sends (fitted costs: the whole pass times
 * the op list's factor, as e2e.h's).  pp may not exceed the layers.
 * Returns 0, or -1 with err set. */
int rl_ops_cost_pipeline(rl_ops_cost *c, long long pp, char *err, size_t errlen);
/* (It, and rl_ops_cost_experts below, may follow costed steps: every cached
 * time is forgotten, as all include the collectives they change.) */

/* Expert parallelism of degree ep under layout TP, for MoE models: shard's
 * plan "tp(chips/ep) ep(ep)" (shard.h: routed experts split over ep groups
 * and each expert over the group's tp chips; attention TP over tp chips on
 * its group's share of the batch; AllToAll dispatch and combine over the
 * ep groups, AllReduces over tp), the routed experts split over the chips
 * and every other weight once per group over its tp chips (shard.c's
 * storage; ops.c reads them so), as an engine running attention data
 * parallel over the groups holds them.  The
 * engines' hybrid MoE layouts: TensorRT-LLM moe_tensor_parallel_size x
 * moe_expert_parallel_size, vLLM --enable-expert-parallel with data
 * parallel attention.  KV heads split over the tp chips (replicated beyond
 * K), each group on its own sequences: rl_serve_kv_layout, which the step's
 * attention shape and the KV pool both read.  ep must divide the chips and the
 * experts; ep 1 is plain TP.  Returns 0, or -1 with err set. */
int rl_ops_cost_experts(rl_ops_cost *c, long long ep, char *err, size_t errlen);

/* The step cost of one replica of `chips` chips at precision p, calibrated
 * or ideal (rl_ops_cost_init): pp pipeline stages of chips / pp chips
 * (rl_ops_cost_pipeline; pp <= 1: none), each in ep expert groups
 * (rl_ops_cost_experts; ep <= 1: none), attention laid out as `layout`,
 * all checked together first (rl_serve_layout_check).  Returns 0, or -1
 * with err set (c then needs no free). */
int rl_ops_cost_replica(rl_ops_cost *c, const rl_model *m, const rl_hw *h, long long chips,
                        long long pp, long long ep, rl_attn_layout layout, rl_precision p,
                        int calibrated, char *err, size_t errlen);

/* src's step cost (model, chips, precision, attention layout, pipeline
 * stages, expert groups, calibrated or ideal) on hardware h instead of
 * src's, with empty caches: a band edge's copy of a cost (e2e.h
 * rl_e2e_simulate_band moves a speculative draft model to the edge with
 * its target).  Returns 0, or -1 with err set (dst then needs no free). */
int rl_ops_cost_on(rl_ops_cost *dst, const rl_ops_cost *src, const rl_hw *h, char *err,
                   size_t errlen);

/* rl_step_cost.time for an rl_ops_cost ctx: the one entry point of the
 * operator-list step cost. */
double rl_serve_ops_time(void *ctx, const rl_step_work *w);

/* The rl_step_cost of *c: rl_serve_ops_time on c, with c's dispatch_s. */
rl_step_cost rl_serve_ops_cost(rl_ops_cost *c);

/* The same for one prompt of `tokens` new tokens on a cached `prefix`
 * (tokens 0: none) beside a decode batch of `batch` at context `context`. */
double rl_serve_ops_time1(rl_ops_cost *c, double tokens, double prefix, double batch,
                          double context);

/* ---- simulator ------------------------------------------------------ */

typedef enum {
    RL_POLICY_STATIC,      /* batch-switching: prefill a batch, decode it to the end */
    RL_POLICY_INTERLEAVED, /* prefill at B=1 pausing decode whenever a slot is free */
    RL_POLICY_CONTINUOUS,  /* whole prompts joined to decode steps (max seqs, max tokens) */
    RL_POLICY_CHUNKED,     /* prompts split to fill a token budget per step */
    RL_POLICY_DISAGG,      /* prefill pool -> KV over the network -> decode pool */
    RL_POLICY_COUNT
} rl_policy;

typedef enum { RL_ROUTE_ROUND_ROBIN, RL_ROUTE_LEAST_OUTSTANDING } rl_route;
typedef enum { RL_PREEMPT_RECOMPUTE, RL_PREEMPT_SWAP } rl_preempt;

int rl_policy_parse(const char *s, rl_policy *out);
const char *rl_policy_name(rl_policy p);

typedef struct {
    rl_policy policy;
    int replicas;           /* independent replicas (disagg: decode replicas) */
    int prefill_replicas;   /* disagg: prefill replicas */
    rl_route route;
    int max_seqs;           /* sequences decoding at once per replica */
    long long max_tokens;   /* continuous: tokens per step; chunked: the chunk budget */
    int page_tokens;        /* KV page size, tokens */
    double kv_capacity_tokens; /* KV tokens one replica holds (HBM after weights), > 0 */
    rl_attn_layout layout;  /* attention and KV layout of a replica (default TP) */
    rl_preempt preempt;
    double kv_bytes_per_token; /* for swap, prefix-cache and disagg transfer times */
    double draft_weight_bytes; /* a --spec draft model's weights, all chips, taken from
                                  the KV room (rl_serve_config_draft; 0 without) */
    /* The model whose sliding-window layers cap a sequence's KV (NULL: every
     * token at kv_bytes_per_token), and its KV dtype: rl_serve_config_hw sets
     * them, rl_serve_config_draft clears the model.  A run charges each KV
     * token at rl_serve_kv_share of kv_bytes_per_token (serve.c sim_init). */
    const rl_model *kv_model;
    rl_dtype kv_dtype;
    /* The sequence length (prompt + output, tokens) at which a pipeline's
     * stages' KV shares are taken for windowed models (rl_serve_kv_capacity's
     * len; the caller sets it before rl_serve_config_hw: simulate the mean of
     * its requests, size the workload's mean); 0: every layer's KV alike. */
    double kv_len;
    double host_bw;         /* bytes/s per replica to host memory (all its chips); read only
                               by swap preemption and the prefix cache's host tier */
    double net_bw;          /* bytes/s per replica over the scale-out network; read only by
                               disagg's KV transfers */
    double net_latency;     /* seconds */
    double host_bytes;      /* host memory per replica (all its chips), bytes; 0: the spec
                               gives none.  Bounds the prefix cache's host tier (serve.c
                               check_config) */
    const char *hw_origin;  /* the hw spec these came from (rl_hw.origin, set by
                               rl_serve_config_hw; it points into that rl_hw, which must
                               outlive the runs), named by a run's error about host_bw or
                               net_bw; NULL: "the hw spec" */
    /* prefix cache (0 disables): tokens of prefix KV per replica per tier */
    double prefix_hbm_tokens, prefix_host_tokens;
    /* chips of a stage holding each token's KV (rl_serve_kv_copies of the
     * layout; set by rl_serve_config_hw, 0 read as 1): a cached prefix's
     * tokens take that many copies of the tiers' bytes, as the KV pool's */
    double kv_copies;
    /* speculative decoding (gamma 0 disables) */
    int spec_gamma;         /* draft tokens per verify step */
    double spec_alpha;      /* acceptance rate in [0, 1) */
    double spec_draft_frac; /* one draft step's time / one target decode step's time */
    const rl_step_cost *spec_draft; /* a draft model's step cost (decode at the batch and
                                       context) instead of spec_draft_frac; NULL: none */
    /* SLOs for goodput (seconds; 0 = none) */
    double slo_ttft, slo_tpot;
    int kv_samples;         /* points in the KV occupancy timeline (0: none) */
    int keep_requests;      /* keep per-request latencies in the result */
    int stop_when_missed;   /* 1: stop as soon as a p99 target given is certain to be missed
                               (rl_serve_run returns RL_SERVE_MISSED): searches that need
                               only the verdict */
    int no_itl;             /* 1: leave the inter-token latencies out (rl_serve_result.itl
                               all 0): runs read for their verdict or latencies other than
                               ITL (the capacity search, size), which then skip a histogram
                               update per decode step; nothing else changes */
    int verdict_pcts;       /* 1: of the latency percentiles only those a capacity
                               verdict reads (serve.c run_scaled: TTFT and TPOT p99, the
                               e2e figures); ttft_service and the TTFT and TPOT p50 and
                               p90 read 0 (rl_serve_capacity's runs: their selections
                               were 3.4% of the README's size search at 200 req/s) */
    int every_step;         /* 1: every step end an event of its own, the reference the
                               decode runs are tested against (serve.c plan_run: the same
                               per-request latencies, step counts and KV figures; the
                               run-wide sums within 1e-12) */
    int progress;           /* what every run adds to the open progress line (progress.h;
                               simulate's, the only one that sets it): 0 nothing (size's
                               runs, which count configurations); RL_SERVE_PROGRESS_REQUESTS
                               its requests finished, RL_SERVE_PROGRESS_LOADS 1 as it
                               starts (a capacity search's load tried); both told every
                               RL_SERVE_PROGRESS_EVENTS events, no cost per event */
    unsigned long long *work; /* NULL, or a count every run adds its events to (arrivals,
                               step ends, transfers, quiet step ends): a bound on the work
                               of many runs that no host load moves (size.h work_budget) */
    long long *seqs_peak;   /* NULL, or raised by every run to the most sequences (decoding,
                               and prefilling in the step) that an admission compared with
                               max_seqs: a run whose peak stays below max_seqs never met its
                               cap, and runs the same under any cap above that peak (size
                               reuses such runs across batch caps) */
    int *capacity_lower_bound; /* NULL, or set by rl_serve_capacity: RL_SERVE_LOWER_SPAN
                               (1) when its sample could not last RL_SERVE_CAPACITY_SPANS
                               end-to-end latencies at the first load it failed (--requests
                               or RL_SERVE_CAPACITY_GROW_MAX too few), RL_SERVE_LOWER_CONFIDENCE
                               (2) when that load saw no request over a target and failed only
                               for want of effective requests: *qps is then a lower bound;
                               0 otherwise */
    double static_saturation; /* set by rl_serve_capacity on its own copy (0: unused):
                               --policy static's saturation rate on the sample searched,
                               every request at one instant (serve.c static_saturation);
                               a load is then sustained when it is at most this rate and
                               the targets hold, in place of the keep-up rule */
    const struct rl_serve_result *run_given; /* NULL, or a complete run (rl_serve_run returned 0)
                               of the requests run_given_req (run_given_n of them) under this
                               configuration, targets and all, but with stop_when_missed 0:
                               rl_serve_capacity takes it for its run of those very requests
                               (the sample's own rate, lattice point 0, when its arrivals
                               come out bit for bit the same) instead of running them again,
                               the same verdict (a run stopped on a certain miss fails as the
                               complete run's p99 does).  The caller raises seqs_peak by its
                               peak (size: the run at the load, then the capacity search) */
    const rl_request *run_given_req;
    long long run_given_n;
    int *capacity_repeated; /* NULL, or set by rl_serve_capacity: 1 when the sample its *qps
                               rests on repeated the n requests given (n too few to outlast
                               the settle time) and n < RL_SERVE_CAPACITY_REQUESTS (fewer
                               distinct requests than its own first sample: review24 M3),
                               0 otherwise */
    int *capacity_unresolved; /* NULL, or set by rl_serve_capacity when *qps is NAN for want
                                 of confidence, 0 otherwise: RL_SERVE_UNRESOLVED_FLOOR when
                                 even the search's floor load (RL_SERVE_CAPACITY_FLOOR) met
                                 the targets' p99s but not their 95% bound
                                 (RL_SERVE_SLO_TAIL): the tail is the requests' own
                                 service, not queueing, so no load decides it (tester46 F1:
                                 it read 0 beside runs meeting at every load);
                                 RL_SERVE_UNRESOLVED_BAND when the load above the figure
                                 failed only on that bound and none within
                                 RL_SERVE_CAPACITY_OPEN_BAND of it failed outright (the
                                 figure a chance pass: tester47 F8) */
    double asked_qps;       /* the rate the requests were drawn at (requests/s: --qps, a
                               Lua `qps`, size's load), or 0 (a trace, offline, --burst:
                               rl_serve_asked_qps): the load
                               rl_serve_capacity and rl_serve_capacity_with_run label a run
                               by, and the base of the capacity search's lattice; 0: the
                               sample's own rate labels it (serve.h rl_serve_capacity) */
    int pp;                 /* pipeline stages per replica (1: none).  A replica of pp stages
                               runs as pp virtual engines, each with its own scheduler, its
                               max_seqs, 1/pp of the replica's KV pages (and of its prefix
                               cache, host and network bandwidth), the step cost of one whole
                               pipeline pass (rl_ops_cost_pipeline), new requests routed to
                               the engine with the fewest outstanding: vLLM V0's virtual
                               engines (RFC vllm-project/vllm#11945: "each virtual engine has
                               its own scheduler, block manager and cache engine";
                               vllm/core/scheduler.py divides num_gpu_blocks by
                               pipeline_parallel_size; LLMEngine.add_request picks the
                               scheduler with the fewest unfinished sequence groups), so pp
                               batches are in flight at once and, with equal stages, each
                               stage is busy with one of them.  Results count virtual
                               engines where they count replicas' steps (utilization: the
                               fraction of time each stream runs a step). */
    int ep;                 /* expert-parallel groups of each stage under layout TP (MoE; 1:
                               none; rl_ops_cost_experts) */
} rl_serve_config;

/* Defaults: continuous, 1 replica, no pipeline, least-outstanding, max_seqs 256,
 * max_tokens 8192, 16-token pages, recompute, 200 timeline samples; no
 * speculation (gamma 0; a draft step is free unless spec_draft_frac or
 * spec_draft is set), no prefix cache, no SLOs.  The KV, host, network and
 * capacity fields must be filled by the caller. */
rl_serve_config rl_serve_config_default(void);

/* Fill the hardware-dependent fields of c for replicas of `chips` chips of
 * h serving m at precision p: kv_bytes_per_token, kv_capacity_tokens
 * (rl_serve_kv_capacity with `reserve`, c->layout, c->pp, c->ep, c->kv_len
 * and c->max_tokens as the token budget: the workspace an engine built for
 * that step budget reserves, trtllm's max_num_tokens), host_bw and net_bw (per chip times
 * chips: every chip moves its shard) and net_latency. */
void rl_serve_config_hw(rl_serve_config *c, const rl_model *m, const rl_hw *h, long long chips,
                        rl_precision p, double reserve);

/* The share of kv_bytes_per_token a run of the n requests req charges per
 * KV token: the KV bytes of every request at its final length (prompt +
 * output), windowed layers capped at their window as step's memory rule
 * caps them (rl_arch_kv_bytes_per_sequence, ideal view), over those tokens
 * at full size.  Exact for requests of one length, the workload's mean for
 * mixed ones (a long request is charged below its cap, a short one above).
 * 1 without c->kv_model or without windowed layers (tester20 F13). */
double rl_serve_kv_share(const rl_serve_config *c, const rl_request *req, long long n);

/* The workload's mean sequence length, prompt + output (tokens): the mean
 * of the n requests req for a trace (w's lengths RL_DIST_TRACE), else the
 * means of w's prompt and output DISTs (workload.h rl_dist_mean), as size's
 * rl_size_mean_lengths takes them: rl_serve_config's kv_len for simulate
 * (CLI and Lua alike). */
double rl_serve_workload_len(const rl_workload *w, const rl_request *req, long long n);

/* The full-size KV tokens a sequence of `len` tokens of m holds in kv:
 * rl_arch_kv_bytes_per_sequence (windowed layers capped, ideal view) over
 * rl_arch_kv_bytes_per_token; len itself without windowed layers. */
double rl_serve_kv_tokens(const rl_model *m, rl_dtype kv, double len);

/* The prefix cache of --prefix-cache HBM_GB[:HOST_GB] (Lua prefix_cache)
 * into c's token budgets: GB x 1e9 / (c->kv_bytes_per_token x c->kv_copies)
 * per tier, each copy of a replicated KV head charged (so after
 * rl_serve_config_hw). */
void rl_serve_config_prefix_cache(rl_serve_config *c, double hbm_gb, double host_gb);

/* A prefix cache over n requests none of which names a shared prefix
 * (prefix_id < 0 or prefix_len 0: no --prefixes, no trace prefix_id) can
 * cache nothing, so it reserves nothing: zeroes c's two tiers and returns
 * 1 when it had any, else 0 (fixQB, issue 14 follow-up #2: llama3-8b on
 * one h100-sxm read 93,697 KV tokens beside 475,167 under --prefix-cache
 * 50 with no word).  An engine reserves nothing for it either: vLLM's
 * automatic prefix caching keeps a finished request's blocks in the pool's
 * free-block queue, evicted in LRU order when a request needs the room
 * ("Automatic Prefix Caching", docs.vllm.ai/en/latest/design/
 * prefix_caching/; vllm/v1/core/block_pool.py BlockPool.free_block_queue);
 * with shared prefixes this simulator still carves its HBM tier out of the
 * KV room (docs/serving.md). */
int rl_serve_prefix_cache_unused(rl_serve_config *c, const rl_request *req, long long n);

/* The largest tier --prefix-cache (Lua prefix_cache) takes, in GB a replica:
 * 1e6 GB (1 PB), above any host's RAM (a 2-socket server holds a few TB),
 * so a larger figure is a typo, not a what-if (tester46 F8: 10:1e300 was
 * taken), as the other size flags have a range. */
#define RL_PREFIX_CACHE_MAX_GB 1e6

/* Which of the tiers v[n] (HBM, host) is above RL_PREFIX_CACHE_MAX_GB:
 * its index, or -1 when none. */
static inline int rl_serve_prefix_cache_over(const double *v, int n)
{
    for (int i = 0; i < n; i++)
        if (v[i] > RL_PREFIX_CACHE_MAX_GB)
            return i;
    return -1;
}

/* Speculative decoding with a draft model on the same chips: its weights
 * (sharded like the target's) leave less HBM for KV, and every sequence
 * caches the draft's KV beside the target's, each model's at its KV copies
 * under c's layout (rl_serve_hbm_budget's accounting for both).  Updates
 * c->kv_capacity_tokens, c->kv_bytes_per_token (both models per token) and
 * c->draft_weight_bytes after rl_serve_config_hw (which sets c->kv_model,
 * the target, that it reads). */
void rl_serve_config_draft(rl_serve_config *c, const rl_model *draft, const rl_hw *h,
                           long long chips, rl_precision p);

/* The weights one replica of `chips` chips in `pp` pipeline stages stores
 * under layout l with `ep` expert-parallel groups per stage, bytes over all
 * its chips: the model's total (memory.h, evenly split) for a dense model
 * under plain TP over at most K chips and no pipeline; else chips x the per-chip
 * weights of the plan as shard.h stores them (attn-dp or ep > 1: attention,
 * dense and vocab once per group; a MoE model: its router whole on every
 * chip, ops.c; the unquantized classes in dtype.h rl_dtype_kept's dtype; TP beyond K: the K/V projections on each of the tp / K
 * chips sharing a head, tester20 F1; a pipeline: its heaviest stage's,
 * the embedding on the first and the LM head on the last, shard.h
 * rl_shard_stage_weights).
 * -1 when the plan cannot be evaluated. */
double rl_serve_weight_bytes(const rl_model *m, const rl_hw *h, long long chips, long long pp,
                             long long ep, rl_precision p, rl_attn_layout l);

/* KV tokens one replica of `chips` chips in `pp` pipeline stages holds
 * after the weights under layout l with `ep` expert-parallel groups per
 * stage: (chips * hbm_bytes * (1 - reserve) - weights) /
 * (kv_bytes_per_token * rl_serve_kv_copies on chips / (pp ep)), weights:
 * rl_serve_weight_bytes.  A pipeline (pp > 1): each stage's chips hold
 * their own weights and their own layers' share of every token's cache,
 * and the pool is what the binding stage holds: chips x shard.h
 * rl_shard_stage_room (the min over stages of the room beside the stage's
 * weights over its KV share, the one rule step's and shard's max_batch
 * read; tester37 F2, review36 M2) over kv_bytes_per_token x the copies;
 * a windowed model's stage shares taken at a sequence of `len` tokens
 * (prompt + output; 0 or below the window: the layer shares).  0 or less when the weights do not fit (seed 000 section 1
 * "What about memory?", section 5 problem 2).  `reserve` is the HBM
 * fraction kept for activations and workspace (e.g. 0.1).  With the
 * selected engine's memory rule (memory.h) the weights and KV get what that
 * rule leaves (rl_memory_usable) and `reserve` does not apply, its
 * activation workspace sized at the per-step token budget `budget`
 * (memory.h rl_memory_workspace: max(the rule's tokens, budget); 0: the
 * rule's own).  A layout that does not apply (rl_attn_layout_check) gives
 * 0. */
double rl_serve_kv_capacity(const rl_model *m, const rl_hw *h, long long chips, long long pp,
                            long long ep, rl_precision p, double reserve, rl_attn_layout l,
                            double len, double budget);

/* A replica's HBM budget as rl_serve_kv_capacity sizes its KV pool (it
 * returns .tokens): the one computation behind the pool and simulate's
 * "the weights leave no KV room" refusal (cli.c serve_hbm; fixW: the
 * refusal quoted usable - pool x bytes a token, which under KV copies or a
 * pipeline was not the weights the check used: DeepSeek-V3 tp8 on H100
 * read 768 GB where step's weight_GB/chip is 169.6, 1356.5 GB on the 8).
 * Without a pipeline: weight_bytes rl_serve_weight_bytes (chips x step's
 * weight_GB/chip when the plan stores them, chip_weight_bytes that over
 * chips), usable_bytes what the memory rule leaves all chips holding them
 * (times 1 - reserve without an engine rule), kv_bytes usable less
 * weights.  A pipeline: the binding stage's (shard.h rl_shard_stage_room,
 * its index in .stage): chip_weight_bytes a chip of it
 * (rl_shard_stage_weight_of), weight_bytes and usable_bytes those x
 * chips, kv_bytes chips x the stage's room over its KV share.  tokens:
 * kv_bytes over a token's KV (rl_serve_kv_copies; the busiest stage's
 * share).  All 0 when the layout does not apply or the plan cannot be
 * evaluated. */
typedef struct {
    double chip_weight_bytes; /* a chip's weights (the binding stage's) */
    double weight_bytes;      /* chip_weight_bytes x chips */
    double total_weight_bytes; /* the weights on all the chips: weight_bytes without a
                                  pipeline, else the stages' sum x a stage's chips
                                  (review39 F3: the refusal read the binding stage's
                                  x chips as the weights on the chips) */
    double usable_bytes;      /* what weights + KV may use, all chips */
    double kv_bytes;          /* of it left for KV, all chips (< 0: none) */
    double tokens;            /* the KV pool (rl_serve_kv_capacity) */
    long long stage;          /* a pipeline's binding stage (0 without one) */
} rl_serve_hbm;
rl_serve_hbm rl_serve_hbm_budget(const rl_model *m, const rl_hw *h, long long chips, long long pp,
                                 long long ep, rl_precision p, double reserve, rl_attn_layout l,
                                 double len, double budget);

/* Whether one engine's KV pool of `cap` tokens (a replica's KV, over pp
 * when pipelined: each pipeline stream holds 1/pp of it) holds a request of
 * `tokens` (prompt + output) with two pages of `page_tokens` to spare: the
 * rule rl_serve_run refuses a request by, and the one size prunes kinds by,
 * so a kind size keeps never fails the simulator's check. */
int rl_serve_holds(double cap, double tokens, int page_tokens);

/* The first of the n requests (in order) whose prompt + output c's KV pool
 * cannot hold (rl_serve_holds at the pool's tokens a request, less the
 * prefix cache's, over rl_serve_kv_share), or n when every one fits; *cap
 * gets that pool.  rl_serve_run's refusal and the CLI's check before a run
 * (cli.c kv_room_check) read it. */
long long rl_serve_first_unheld(const rl_serve_config *c, const rl_request *req, long long n,
                                double *cap);

/* Metric definitions (the JSON keys' meaning):
 *  - TTFT: arrival to the first token, queueing included; the first token
 *    comes at the end of the step that completes the request's prefill.
 *  - TTFT service (ttft_service_*): the same less the wait before its first
 *    prefill step started (prefill time, chunks and stalls between them).
 *  - TPOT, per request: (e2e - TTFT) / (output tokens - 1), over requests
 *    with at least 2 output tokens; the percentiles are over requests.
 *  - ITL (itl_*): every gap between consecutive output tokens of every
 *    request, pooled (a request of G tokens gives G - 1 gaps), so a prefill
 *    that pauses decoding shows in its tail; with speculative decoding a
 *    verify step's tokens come together (one gap per step).  Percentiles
 *    from a histogram of bins under 0.4% wide (mean and max exact).
 *  - e2e: arrival to the last token.
 *  - utilization: the fraction of time a replica runs a step, whatever its
 *    batch (busy time / (replicas x duration)); not headroom: a replica
 *    stepping at batch 1 is as busy as one at its batch cap. */
typedef struct {
    double p50, p90, p99, mean, max;
    long long n; /* requests counted (TPOT: those with >= 2 output tokens); 0: JSON nulls */
} rl_pcts;

/* Move the finite values of v[0..n) to the front and fill p's percentiles
 * (nearest rank: the ceil(q m)-th smallest), mean and max; `sorted` sorts
 * them fully (for CDFs), else selection keeps it O(m).  Returns their
 * count m (p->n). */
long long rl_serve_pcts(double *v, long long n, rl_pcts *p, int sorted);

/* rl_serve_config.progress: what a run counts in the progress line, told
 * every RL_SERVE_PROGRESS_EVENTS events (a power of two: a mask test on
 * the event count run_events keeps).  16384 events are 3-7 ms of a run:
 * 300000 requests of 1024 + 256 tokens on h100-sxm, llama3-70b on 8 chips
 * and llama3-8b continuous and disaggregated, ran 2.5-5.3 M events/s
 * (rl_serve_config.work) on the project's 2-core machine, so the line,
 * rewritten at most every 0.5 s (progress.h), never waits on it, and a
 * lock and a clock read every 16384 events cost nothing measurable. */
#define RL_SERVE_PROGRESS_REQUESTS 1
#define RL_SERVE_PROGRESS_LOADS 2
#define RL_SERVE_PROGRESS_EVENTS 16384

#define RL_SERVE_STEADY_MIN 50     /* requests for a steady-state window */
#define RL_SERVE_SETTLE 0.02       /* e2e_settle_s: the shortfall left (RL_SERVE_KEEP_UP's 2%) */
#define RL_SERVE_STEADY_FROM 0.1   /* fraction of requests completed as warm-up */
/* steady_resolution's z: 3 sd of the count's difference.  The count in the
 * system is far from Poisson: batched decode moves it by tens (llama3-8b
 * on h100-sxm, 1000-token prompts and 100-token outputs at 23.9 req/s: 15
 * to 62 over one window, the ends 15 and 60, a residual sd near 13), so
 * its spread is measured, not assumed. */
#define RL_SERVE_GROW_Z 3.0
/* A p99 target holds with confidence (rl_serve_result slo_miss_bound) when
 * the one-sided 95% upper bound on the fraction of requests over it is at
 * most RL_SERVE_SLO_TAIL (tester29 F4).  Near a queue's knee the requests
 * over a target come in clusters: a backlog that makes one request wait
 * makes those behind it wait too, for about the queue's relaxation time
 * (2 rho S / (1 - rho)^2 for M/D/1 in the heavy-traffic limit: Abate and
 * Whitt, "Transient behavior of regulated Brownian motion, I", Adv. Appl.
 * Prob. 19(3), 1987: its time scale sigma^2 / mu^2; 12 s at rho 0.9,
 * S = 61 ms), so a few thousand requests hold a handful of clusters and
 * their p99 reads low as often as not (tester29 F4: a search for the
 * highest load whose sample's p99 met 1 s ended 5-8% above M/D/1's
 * 14.28 req/s).  Exceedances of a high level by a dependent sequence
 * form a compound Poisson process of clusters (Leadbetter, Lindgren and
 * Rootzen, "Extremes and Related Properties of Random Sequences and
 * Processes", Springer 1983, ch. 3 and 5); a cluster here lasts from an
 * exceedance until a request at or below the run's median (the backlog
 * cleared: declustering by a second, lower level, which unlike a fixed run
 * length needs no time scale of the system; a run length of the arrivals
 * in a target, 15 requests, split one M/D/1 excursion into several and
 * passed 14.67 req/s, p99 1.22 s in the long run).  The bound, over the requests after the warm-up
 * (RL_SERVE_STEADY_FROM; an empty start reads low), is the larger of
 * Poisson's (the count of clusters at Garwood's upper limit, Biometrika
 * 28, 1936, each of the mean size seen) and the compound Poisson total's
 * normal bound (exceedances + z sqrt(sum of squared cluster sizes)).  A
 * run whose p99 meets a target but whose bound does not is open: the
 * capacity search grows its sample for it (rl_serve_capacity). */
#define RL_SERVE_SLO_TAIL 0.01
#define RL_SERVE_SLO_Z 1.645 /* the standard normal's one-sided 95% point */
/* The bound has a floor (rl_serve_slo_bound; tester32 F2): a sample's
 * requests are not independent, and N effective ones with k (the TTFTs
 * over the target scaled by N / their count, rounded) over it show the
 * share over it at most Garwood's 95% upper limit on a Poisson count seen
 * k, over N (rl_serve_garwood_upper; review35 L1): RL_SERVE_SLO_NONE / N at
 * k = 0, the "rule of three" (-ln 0.05; Hanley and Lippman-Hand, JAMA
 * 249(13), 1983), 4.74 / N at 1, however few its clusters.  N is the
 * requests after the warm-up over the statistical inefficiency (the
 * variance of their mean relative to independent values': Friedberg and
 * Cameron, J. Chem. Phys. 52, 1970) of their waits, each TTFT less its own
 * service from its first prefill step (serve.c ttft_waits), estimated by
 * overlapping batch means over batches of 1/RL_SERVE_SLO_BATCHES of them
 * (rl_serve_effective_count; Meketon and Schmeiser, "Overlapping batch
 * means: something for nothing?", Winter Simulation Conference 1984): a
 * backlog near the knee holds the wait up for the queue's relaxation time,
 * and a sample that met no long backlog shows few exceedances of a target
 * it misses (M/D/1 at 15.34 req/s, seed 8: 8 of 3600 over 1 s where the
 * long run has 3%; N 69, 3/N 4.3%).  The wait, not the TTFT (review35 H1):
 * a TTFT is mostly its own prefill, so prompt lengths that come in runs (a
 * tenant's or session's requests together) correlate TTFTs with no queue
 * at all; 4000 requests at 5 req/s in blocks of 200 of 300 or 3000 tokens
 * read N = 83 and a capacity of 0 beside a run that met its 0.5 s target
 * with none over.  The inefficiency of the mean wait stands in for that of
 * the share over the target, the quantity bounded (review35 L5): both come
 * from the backlog's relaxation time.  With RL_SERVE_SLO_BATCHES batches,
 * the estimate's relative sd is about sqrt(4/3 / RL_SERVE_SLO_BATCHES),
 * 37% (Meketon and Schmeiser's variance, (4/3) b / m; review35 M3): N is a
 * rough figure, and the confirming sample's need (rl_serve_capacity) with
 * it.  TPOT is not counted: its per-request means share their
 * decode steps with every concurrent request, so N reads tens in any
 * batched run, far from its target or not, and a backlog does not raise it
 * past the step time at the batch cap (a limit of the floor: a TPOT
 * target's verdict rests on the clustered bound alone). */
#define RL_SERVE_SLO_NONE 2.996
#define RL_SERVE_SLO_BATCHES 10
/* The floor holds where a backlog shows: a p99 of the waits (serve.c
 * ttft_waits) at least this share of the TTFT target.  A floor bounds the
 * share over any level, however far above the sample; far below a target
 * (a TTFT p99 of 18 ms under a 1 s target, the test_size case of
 * 2000-token outputs) it would only cost runs.  A lucky sample's p99 read
 * half the truth (M/D/1 seed 8 at 15.34 req/s: 0.887 s on 4000 requests,
 * 1.84 s on 20000), so a quarter leaves a factor 2 more. */
#define RL_SERVE_SLO_NEAR 0.25

typedef struct rl_serve_result {
    long long requests, completed;
    double duration_s;      /* first arrival to last completion */
    /* Seconds, per request (serve.h's metric definitions below): */
    rl_pcts ttft, tpot, e2e;
    rl_pcts ttft_service; /* TTFT less queueing: from its first prefill step's start */
    rl_pcts itl;          /* every inter-token gap of every request (not per request) */
    /* The time the requests in the system take to reach their steady number
     * from an empty start (the capacity search's sample must outlast it):
     * arrivals at rate q into an empty system whose requests stay T each
     * number q E[min(T, t)] at time t (the M/G/infinity transient: Eick,
     * Massey and Whitt, "The Physics of the Mt/G/infinity Queue", Operations
     * Research 41(4), 1993, Theorem 1 at a constant rate from an empty
     * start), short of the steady q E[T] by
     * q E[(T - t)+]; the smallest t where that is at most RL_SERVE_SETTLE of
     * q E[T], over the completed requests' end-to-end latencies.  A fixed
     * T: 0.98 T; a lognormal T of sigma 1: 7.54 E[T] (tester14 F2a). */
    double e2e_settle_s;
    double req_per_s, out_tokens_per_s, total_tokens_per_s; /* whole run: the drain tail in */
    /* Steady state: requests and their output tokens completed from the
     * completion of the first RL_SERVE_STEADY_FROM of the requests (the
     * warm-up: about one end-to-end latency) to the last arrival (before the
     * drain tail), per second of that window: the offered load when the
     * system keeps up, its capacity when it does not.  The whole-run figures
     * when there are fewer than RL_SERVE_STEADY_MIN requests or fewer than
     * 20 complete in the window (steady_valid 0). */
    double steady_req_per_s, steady_out_tokens_per_s;
    double keep_up;   /* requests whose first prefill step started over those that arrived
                         in the steady window (the whole run's completion rate over the
                         arrival rate without one): about 1 while the waiting queue stays
                         bounded, less when it grows (admission falls behind); counted
                         up to the last instant of the window's second half at which the
                         waiting queue was empty, when there is one (serve.c
                         queue_emptied: a bursty clump at the window's end is not growth).
                         Disagg: the lower of that and the decode pool's own, the
                         requests that joined a decode batch over those whose KV arrived
                         at a decode replica (tester12 #12: a saturated decode pool's
                         queue grew unseen behind a prefill pool that kept up), and the
                         KV links' own, the transfers begun over those queued on a
                         prefill replica's link (serve.c send_kv; tester43 F2) */
    int backlog_outpaced; /* the arrivals outpaced a saturated system (serve.c
                             backlog_outpaced): over the steady window's second half every
                             request began with others waiting behind it at its replica,
                             and the arrivals' own rate x that half's length exceeds its
                             admissions beyond their noise; a load past the service rate
                             keep-up's 2% lets through (tester28 F9).  Or (serve.c
                             system_grew) the requests in the system grew over the window
                             by more than 2% of its arrivals plus steady_resolution: the
                             backlog moved into ever longer steps while the waiting queue
                             emptied at each (issue 14 item 5).  0 without a window */
    int steady_valid; /* 0: too few requests for a window; JSON gives the steady keys as null */
    /* The resolution of the steady window's count of requests in the
     * system (serve.c system_grew), in requests: RL_SERVE_GROW_Z sd of the
     * difference of two independent draws of that count, sqrt(2) times
     * its time-weighted sd over the window about its least-squares line
     * (serve.c count_spread), plus 1.  The capacity search's sample lasts
     * until RL_SERVE_CAPACITY_TOL of the window's arrivals outnumber it
     * (serve.c steady_span).  0 without a window; not a JSON key. */
    double steady_resolution;
    /* The time the count in the system took from the first arrival to reach
     * 1 - RL_SERVE_SETTLE of its mean over the steady window's second half
     * (serve.c count_ramp): the settle time with the batch's feedback on
     * the latencies, which e2e_settle_s leaves out.  The capacity search's
     * sample lasts RL_SERVE_CAPACITY_SPANS of it too (serve.c steady_span).
     * 0 without a window; not a JSON key. */
    double steady_ramp_s;
    /* 1 when backlog_outpaced rests on the count's growth alone (serve.c
     * system_grew; the waiting queue kept up and outpaced nothing) and the
     * arrivals span less than RL_SERVE_CAPACITY_RAMP_SPANS of the count's
     * ramp (steady_ramp_s): the count still rising from the empty start
     * reads as growth there, the rule by which the capacity search grows
     * its own sample (rl_serve_falls_short_beside).  size's rows read such
     * a run as keeping up and let their capacity search decide (size.h
     * rl_size_candidate ramp_only).  Not a JSON key. */
    int steady_unramped;
    /* The requests whose first prefill step had not begun when the last
     * request arrived (it included when it waited): the waiting queue as
     * the arrivals end, from an empty start.  Not a JSON key: the overload
     * note's rule for a run too short for a steady window (cli.c
     * note_overload; review39 F4). */
    long long waiting_at_last_arrival;
    /* Under disagg the waiting also counts the requests queued on their
     * prefill replica's KV link or at their decode replica for a batch
     * (tester45 F5); and waited_over_service counts the requests whose
     * waits in those queues exceeded their own service to their decode
     * batch (prefill and KV transfer; a one-token request: TTFT over twice
     * its service), 0 without disagg.  Not JSON keys (serve.c
     * waiting_at_last; cli.c short_run_overloaded). */
    long long waited_over_service;
    double goodput_req_per_s; /* completed within both SLOs, per second of the whole run
                                 (first arrival to last completion: the drain tail in) */
    double steady_goodput_req_per_s; /* the same in the steady window (steady_req_per_s's:
                                        completions within both SLOs per second of it; about
                                        the offered rate x the attainment when the system
                                        keeps up; tester22 F10); goodput_req_per_s without
                                        a window */
    double slo_attainment;    /* fraction of requests within both SLOs */
    /* The upper confidence bound on the fraction of requests over a p99
     * target (the larger of TTFT's and TPOT's; 0 without targets): serve.c
     * miss_bound, RL_SERVE_SLO_TAIL.  Not a JSON key: the
     * capacity search's verdict (rl_serve_capacity) reads it. */
    double slo_miss_bound;
    /* The TTFTs after the warm-up that count as independent for that
     * bound's floor: their number over the statistical inefficiency of
     * their waits (serve.c ttft_waits, rl_serve_effective_count,
     * RL_SERVE_SLO_NONE); 0, none, without a TTFT target or with the
     * waits' p99 under RL_SERVE_SLO_NEAR of it.  Not a JSON key:
     * rl_serve_slo_bound. */
    double slo_effective_requests;
    /* The TTFTs after the warm-up and how many exceed the TTFT target (0
     * without one).  Not JSON keys: rl_serve_slo_bound. */
    double slo_ttft_counted, slo_ttft_over;
    int slo_given;            /* 0: no SLO was set; JSON gives goodput and attainment as null */
    double utilization;       /* busy time / (replicas * duration) */
    double kv_link_utilization; /* disagg: the time the prefill replicas' links to the
                                   decode pool carry KV over (prefill replicas x duration),
                                   serve.c send_kv; NAN (JSON null) without disagg */
    double prefill_utilization; /* disagg: the prefill replicas' busy time / (prefill
                                   replicas x duration); NAN without disagg.  Not a JSON key:
                                   the overload note's bottleneck (cli.c prefill_bound) */
    double mean_in_system;    /* time-average of requests in the system (Little's L) */
    double mean_decode_batch; /* decode sequences per decode step, averaged over steps */
    double mean_decode_batch_time; /* the same weighted by step time (Little's L of decode) */
    double mean_decode_context;
    /* the mean time of a step that decodes (B > 0), prefill tokens and
     * swap-ins in the same step included (continuous and chunked batching
     * put prompts into decode steps), and of those without any: only the
     * latter compares with `step` at mean_decode_batch and
     * mean_decode_context (tester11 #12: the former read 10-13% above it);
     * 0 when there is none */
    double mean_decode_step_s, mean_decode_only_step_s;
    long long steps, decode_steps;
    /* decode steps whose admission left a request waiting because the
     * replica held max_seqs sequences (static: a running batch admitted
     * with max_seqs; every replica's steps counted): not
     * a JSON key; the overload note blames
     * the batch cap only when they are a meaningful share (tester56 F2) */
    long long decode_steps_at_cap;
    /* decode steps whose admission left a request waiting because the
     * replica's decode tokens, one a sequence, filled max_tokens (the step
     * token budget, serve.c admit_batched and admit_transferred; chunked:
     * its decode tokens and prefill chunks together): not a
     * JSON key; the overload note names --max-tokens from them */
    long long decode_steps_at_budget;
    /* steps that prefilled (a prompt or a chunk of one, decode beside it
     * or not) and the prompts or chunks they prefilled: the mean prefill
     * step's shape (rl_serve_run_mix) */
    long long prefill_steps, prefill_parts;
    /* step ends committed from decode runs without an event of their own
     * (serve.c plan_run; 0 under every_step): tests check runs happened */
    unsigned long long quiet_steps;
    double kv_freed_tokens;   /* KV tokens released by completed sequences */
    long long preemptions;
    /* Prompts longer than max_tokens that a policy without chunking (continuous,
     * a disagg prefill replica) prefilled whole, each in a step of its own:
     * beyond what an engine with that token budget runs (vLLM without
     * chunked prefill refuses max_num_batched_tokens < max_model_len,
     * its V0 SchedulerConfig._verify_args in vllm/config.py). */
    long long over_budget;
    double prefix_hit_rate;   /* requests with a prefix whose KV was cached (HBM or host) */
    double prefill_tokens_saved, prefill_tokens_done;
    double kv_peak_frac;      /* highest KV page occupancy of any decode replica (at step starts) */
    double prefill_kv_peak_frac; /* disagg: the same of any prefill replica, whose pool holds
                                    its prompts and the KV waiting on its link (serve.c
                                    kv_held); NAN (JSON null) without disagg */
    double spec_tokens_per_step; /* expected tokens per verify step; 1 without speculation */
    int nkv;
    double *kv_t, *kv_frac;   /* KV occupancy timeline (all replicas), nkv points */
    double *ttft_s, *tpot_s, *e2e_s; /* per request, sorted ascending (keep_requests) */
    /* Set alone (the rest 0) when rl_serve_run returns RL_SERVE_MISSED:
     * the p99 target the run stopped on, RL_SERVE_MISSED_TTFT or
     * RL_SERVE_MISSED_TPOT (the one err names), so a caller reads it
     * without parsing err (size.c's miss bits); 0 otherwise. */
    int missed;
} rl_serve_result;
#define RL_SERVE_MISSED_TTFT 1
#define RL_SERVE_MISSED_TPOT 2

/* The simulator keeps one absolute clock in a double, so an event at T s
 * is held to ulp(T) = T 2^-52 and a latency (the difference of two such
 * times) to that step: --qps 1e-9 put 20000 arrivals near 2e13 s and read
 * TTFTs in steps of 2^-9 s (0.021484375; tester62 #7).  Rather than keep
 * every time relative (the event heap, decode runs, KV samples and the
 * steady-state window all hold absolute times), a run whose last arrival
 * lies beyond RL_SERVE_HORIZON_MAX_S is refused: there a double resolves
 * RL_SERVE_CLOCK_RESOLUTION_S (1 us, a thousandth of a 1 ms decode step)
 * or better; 2^52 us = 4.5e9 s, about 143 years of arrivals. */
#define RL_SERVE_CLOCK_RESOLUTION_S 1e-6
#define RL_SERVE_HORIZON_MAX_S (4503599627370496.0 * RL_SERVE_CLOCK_RESOLUTION_S)

/* 0 when the n requests (sorted by arrival) arrive within
 * RL_SERVE_HORIZON_MAX_S; else -1 with err naming the last arrival, the
 * clock's resolution there, what fits (drawn at `qps`, workload.h: the
 * qps that brings the same seed's arrivals within it; a trace, qps 0: the
 * scale of its arrival times) and, where some do, how many of the
 * requests arrive within it (counted) (`what`: the flags that set them,
 * "--qps, --requests"). */
int rl_serve_check_horizon(const rl_request *req, long long n, double qps, const char *what,
                           char *err, size_t errlen);

/* Simulate the requests (sorted by arrival) on cfg's replicas with each
 * step timed by `prefill_cost` (prefill replicas under disagg) and
 * `decode_cost` (every other step).  Returns 0, -1 with err naming the
 * config field, or RL_SERVE_STALLED with err set when the run exceeds
 * RL_SERVE_EVENT_SLACK times the events it needs without preemption
 * (sequences preempted and recomputed over and over: KV thrashing; a guard,
 * since a preempted sequence waits for room before it is readmitted, serve.c
 * readmit_room).  Free with rl_serve_result_free. */
#define RL_SERVE_STALLED (-2)
#define RL_SERVE_EVENT_SLACK 4.0
/* With cfg->stop_when_missed: more requests already over a target than the
 * p99 allows (TTFT: n - ceil(0.99 n) + 1 of the n requests; TPOT: of those
 * with two or more output tokens), so the run's p99 misses it whatever
 * follows; no result but its `missed` (which target), err says which.
 * No earlier stop keeps the capacity search's verdicts (fixXA, stop 56):
 * of its runs that complete and fail (the README's size command at 20
 * req/s) 129 of 130 fail on the confidence bound alone, their p99s met
 * (open: serve.c run_scaled), and the search tells open from failed
 * outright (count_fail, band_open, next_sample), which takes the whole
 * run (p99 met, keep-up).  Stopped where a lower bound on that bound
 * first passes RL_SERVE_SLO_TAIL (miss_bound's over x G(c) / c is at
 * least G(over) for c <= over clusters, G rl_serve_garwood_upper), they
 * would still save only 4.3% of the capacity runs' events (4.5% at 200
 * req/s). */
#define RL_SERVE_MISSED (-3)
int rl_serve_run(const rl_request *req, long long n, const rl_serve_config *cfg,
                 const rl_step_cost *prefill_cost, const rl_step_cost *decode_cost,
                 rl_serve_result *out, char *err, size_t errlen);

void rl_serve_result_free(rl_serve_result *r);

/* Bytes a simulation holds per request: the request itself (workload.h),
 * rl_serve_run's sequence state and event slot, the three per-request
 * latencies of the result and the TTFT service.  A caller with a memory budget (the Lua
 * sandbox) sizes a run with it before starting. */
size_t rl_serve_bytes_per_request(void);

/* The most bytes a simulation of n requests and its capacity search hold:
 * the run's, or the n requests beside the search's largest sample
 * (rl_serve_capacity grows it past n, the n followed by a stationary
 * bootstrap of them (serve.c capacity_sample), up to
 * RL_SERVE_CAPACITY_GROW_MAX, with its own copy and a rescaled one; the
 * run's state is freed by then).  The Lua sandbox checks it against its
 * budget: 1e7 requests 1716 MiB (the run's), 100 requests 43 MiB. */
double rl_serve_bytes_with_capacity(long long n);

/* rl_serve_run with every step costed by the operator list of m on `chips`
 * chips of h at precision p (rl_ops_cost, prefill and decode replicas
 * alike; calibrated: h's efficiency tables when present); with cfg->pp > 1
 * the chips form cfg->pp stages of chips / pp TP chips
 * (rl_ops_cost_pipeline), each in cfg->ep expert-parallel groups
 * (rl_ops_cost_experts).  Returns 0, or -1 with err set (cost set-up or run). */
int rl_serve_simulate(const rl_model *m, const rl_hw *h, long long chips, rl_precision p,
                      int calibrated, const rl_request *req, long long n,
                      const rl_serve_config *cfg, rl_serve_result *out, char *err, size_t errlen);

/* Capacity: the largest arrival rate the configuration sustains, found by
 * simulation: the first RL_SERVE_CAPACITY_REQUESTS requests (or
 * RL_SERVE_CAPACITY_WINDOW_S of arrivals at the requests' own rate when
 * that is more, at most RL_SERVE_CAPACITY_MAX) with their arrival gaps
 * rescaled (the same lengths and arrival pattern at another rate).  The
 * loads tried lie on a lattice, (1 + RL_SERVE_CAPACITY_TOL)^k times the
 * rate the requests were asked at (cfg->asked_qps; the sample's own rate
 * when it is 0, as for a trace or a --burst draw: rl_serve_asked_qps),
 * and a load is labelled by that nominal rate, not by the rate its sample
 * happened to reach: the requests are one draw of a process at --qps, and
 * a user asks whether the configuration carries that process ("can it
 * carry 1200 req/s"), so a run of the draw scaled by g^k answers for g^k x
 * --qps.  Until stop 55 the label was the draw's own rate, (n - 1) / span,
 * and a search that probed 1200 req/s read 1197.9 (Poisson: about
 * 1/sqrt(n) off, 1.6% on 4000 requests; issue 14; test_serve
 * test_capacity_label_asked).  The run at each point is the same; the
 * labels moved by the draw's ratio, and with them the grown samples' sizes
 * (next_sample reads the labels) and --policy static's comparison with its
 * saturation (run_scaled), so a figure resting on a fragile verdict can
 * move a few points (test_cli simulate_capacity_unseen_open_lower_bound).
 * The loads are bracketed by stepping about 2x (35 points) from k = 0,
 * or about 1.25x (11 points) from the point at or below `hint` when hint >
 * 0 (a load in requests/s thought near the capacity), then bisected to
 * adjacent points, at most RL_SERVE_CAPACITY_RUNS runs; *qps is the
 * highest point sustained.  A hint that is sustained takes the point a step
 * above as not (assumed, not run) and runs it only when the bisection ends
 * next to it, stepping on up when it is sustained after all.  Neither the
 * sample nor the lattice depends on the hint, so every start ends on the
 * same point when the verdict is monotone in the load (test_serve
 * test_capacity_any_start).  Where it is not, starts can end on different
 * points, so simulate, Lua and size all search from no hint (size from its
 * sized load until stop 32: tester39 F5; test_size
 * test_simulate_agrees_on_capacity, test_capacity_start_free).  When the first
 * RL_SERVE_CAPACITY_FLOOR_AFTER loads all fail (stepping by about 1.25x or
 * 2x: loads down to that many steps below the start), one more run at
 * RL_SERVE_CAPACITY_FLOOR of the load or RL_SERVE_CAPACITY_FLOOR_QPS,
 * whichever is lower, every request served alone, decides whether any
 * load is sustained: when it fails, the search stops there with *qps 0
 * (the stepping down would have run to its bound and found 0 too, as long
 * as a lower load is never the only one sustained: our early-stop rule,
 * which saves up to RL_SERVE_CAPACITY_RUNS runs on a configuration that
 * misses a target even unloaded).  The fraction alone of a huge offered
 * rate can still be a load (tester10 #7: 1e-6 of 1e7 req/s is 10 req/s,
 * past a capacity of 4.3), hence the absolute floor; until stop 25 the
 * fraction ran first and the absolute rate only after it failed, a run
 * that decided nothing when the verdict is monotone.  *qps is 0 only when
 * the floor run fails, NAN when the stepping ends without a sustained
 * load otherwise.  The stepping down stops below the floor run's load (the
 * lower of the two) whether or not it has run: until stop 53, before that
 * run, it stopped below RL_SERVE_CAPACITY_FLOOR of the sample's rate, so a grown
 * sample's search (below) from a figure under 1e-6 of the offered rate
 * ended null at its first failing load (fixUG: `simulate --model llama3-8b
 * --hw h100-sxm --qps 1e9 --prompt-len 100 --out-len 10 --requests 1000`
 * completed 419 req/s and read null, now 429; test_serve
 * test_capacity_far_overload_grown).  After RL_SERVE_CAPACITY_GALLOP_AFTER
 * loads failed in a row each step down doubles, as up below, but no step
 * goes past that floor's point: by 2x alone a capacity 2^-37 of the
 * sample's rate left the bisection cut short within the runs (0.866 of the
 * M/D/1 capacity) and one 2^-40 of it null (stop 53, the same test; the
 * loads of any search less than 2^10 above its capacity are unchanged).
 * A floor run that is sustained is the bracket's foot, and the bisection
 * runs from it; a step that lands on the floor's point and fails is the
 * floor run's verdict (not run again).  Until stop 54 the steps went on
 * down past a sustained floor run, and a step from within one step above
 * it went past the floor: a capacity there read null (review of stop 53;
 * test_serve test_capacity_just_above_floor: M/D/1 at 1.1e-6 req/s
 * offered 20, now 0.985 / D).
 * A tiny offered rate (tester11 #8: --qps 1e-9, a capacity of 29 req/s
 * 2^35 above it) is stepped up as far: after RL_SERVE_CAPACITY_GALLOP_AFTER
 * loads sustained in a row (2^10 above the sample's rate without a hint,
 * 1.25^10 above a hint) each step up doubles, so the bracket closes within
 * the runs (the bisection between then takes about as many runs as the
 * doublings); the stepping stops above 1e9 x the sample's rate or
 * RL_SERVE_CAPACITY_TOP_QPS, whichever is higher (everything up to offline
 * is sustained: NAN; it stopped at 1e9 x the rate alone, 1 req/s for
 * --qps 1e-9).
 * Steady state (tester10 #5, tester14 F2a): the sample must last
 * RL_SERVE_CAPACITY_SPANS times the mean end-to-end latency or the settle
 * time (rl_serve_result e2e_settle_s), whichever is longer (both measured
 * at the highest load sustained), at the first load not sustained.  With
 * less, that load fails only because the run ends before its first
 * requests complete (many replicas each holding a request for a latency),
 * or, with heavy-tailed lengths, a load passes before its long requests
 * have built up (lognormal:300:1 outputs: 95.2 req/s on 3000 requests,
 * 76.2 on 12000; the settle time is 7.5 mean latencies there).  When it
 * does not, the search runs again from its figure on enough requests (at
 * least twice as many, at most RL_SERVE_CAPACITY_GROW_MAX, up to
 * RL_SERVE_CAPACITY_GROWS times), stepping one lattice point from it,
 * then each step twice the one before, both ways (the figure moves a few
 * points; the same point as a 1.25x bracket when the verdict is monotone
 * in the load, about half the runs); past the n given the sample goes on
 * with a stationary bootstrap of them (serve.c capacity_sample: random
 * blocks of the given order, the gaps scaled to their rate: a finite trace
 * or draw is the workload's sample, and its steady state needs it for
 * longer; 3000 requests now read 79.7; until stop 31 the n repeated as
 * they stood, a periodic sample whose effective requests counted every
 * repeat: review36 L2).
 * The span also holds the count's resolution (rl_serve_result
 * steady_resolution: serve.c steady_span): the steady window's arrivals
 * at least that over RL_SERVE_CAPACITY_TOL at the highest load sustained,
 * so that the keep-up rule's growth test (backlog_outpaced, serve.c
 * system_grew) tells 2% of them from the count's own noise (issue 14 item
 * 5: a prefill-only load whose steps grow with the backlog read 1.13 x
 * the saturated rate on 1000 requests, 1.32 x on 200: the sample ended
 * before the steps reached their token budget; now within 1.01 x from 100
 * to 4000 requests, the sample grown by the bootstrap below).
 * When it still does not, *cfg->capacity_lower_bound is set
 * (RL_SERVE_LOWER_SPAN): the figure is a lower bound (a load above failed
 * before a steady state).  How far a sample grows, and for which reason,
 * is serve.c next_sample.
 * A load is sustained when every request completes, completions keep up
 * with arrivals (rl_serve_keeps_up: keep_up >= RL_SERVE_KEEP_UP, and the
 * arrivals do not outpace a saturated system, backlog_outpaced: a queue
 * that grows without bound fails) and, when cfg sets SLOs, TTFT and TPOT p99 are within them,
 * with confidence (RL_SERVE_SLO_TAIL: the upper bound on the share of requests over a
 * target at most 1%).  A load that fails only on that bound (its p99s met) is open: the
 * search runs again on twice the requests, from its figure, up to
 * RL_SERVE_CAPACITY_OPEN_GROWS times (a doubling narrows the bound by about sqrt(2),
 * as it doubles the clusters seen; each more one costs size about a third more CPU:
 * stop 29, 2.1 -> 2.9 CPU-s for one on docs/sizing's h100-sxm command), then the bound
 * decides (a figure that errs low, not high).
 * The bound's floor (rl_serve_slo_bound, RL_SERVE_SLO_NONE) would need 300
 * effective requests at every load tried, about 14,000 requests near an
 * M/D/1 knee: the first sample only locates the figure, judged without it;
 * when the effective requests of the run at the figure fall short, the
 * search runs again on as many requests as they need (N grows with the
 * sample), with the floor, stepping down from the figure, never up
 * (tester32 F2: M/D/1 seeds 1-20 read up to 15.34 req/s, 1.078 x the exact
 * 14.232; now up to 14.44, 1.015 x; size pays for the few plans whose
 * TTFT knee is a backlog's).  Every later sample is judged with the floor.
 * *qps: that rate (requests/s); NAN when there are too few requests
 * (RL_SERVE_STEADY_MIN) or no arrival rate (all at one instant) or no
 * bracket within the runs.  Returns 0, or -1 with err set. */
#define RL_SERVE_CAPACITY_REQUESTS 4000
#define RL_SERVE_RESAMPLE_SEED 0x5eedULL /* serve.c capacity_sample's draws */
#define RL_SERVE_CAPACITY_WINDOW_S 30.0
#define RL_SERVE_CAPACITY_MAX 30000
#define RL_SERVE_CAPACITY_TOL 0.02
#define RL_SERVE_CAPACITY_RUNS 40
#define RL_SERVE_CAPACITY_FLOOR 1e-6
#define RL_SERVE_CAPACITY_FLOOR_AFTER 3
#define RL_SERVE_CAPACITY_FLOOR_QPS 1e-6 /* req/s: one request per 11.6 days */
#define RL_SERVE_CAPACITY_GALLOP_AFTER 10
#define RL_SERVE_CAPACITY_TOP_QPS 1e9
#define RL_SERVE_CAPACITY_SPANS 2.0 /* the steady window (serve.c steady_window) starts
                                       after 10% of the requests and about one latency */
/* The sample also lasts RL_SERVE_CAPACITY_RAMP_SPANS times the count's
 * ramp at the highest load sustained (rl_serve_result steady_ramp_s), at
 * the first load not sustained, grown for it up to
 * RL_SERVE_CAPACITY_GROW_MAX, its own RL_SERVE_CAPACITY_GROWS times, and
 * not said a lower bound when the caps stop it (fixSB).  Where steps grow
 * with the batch the count relaxes more slowly than the latencies' own
 * settle time says (serve.c count_ramp), and the growth test
 * (backlog_outpaced, serve.c system_grew) read that ramp as a backlog: R
 * replicas spread the sample's requests over R, so a sample sized for
 * one replica's time lasted 1/R of it, and llama3-8b on 100 H100 replicas
 * (1000 + 100 tokens, --qps 1000, 20000 requests) read 25.3 req/s a
 * replica where one reads 36.1.  The ramp is measured to 1 - RL_SERVE_SETTLE
 * of the count's mean over the steady window's second half, which a short
 * run places low: 3.0 s at 2527 req/s on 20000 requests, 6.2 on 40000,
 * 3.8-10.5 on 80000-320000 (the level's own noise); 4 ramps (our choice)
 * grows the 20000 to about 31000 there, where 40000 kept up at 2628 req/s
 * and 20000 did not. */
#define RL_SERVE_CAPACITY_RAMP_SPANS 4.0
#define RL_SERVE_CAPACITY_GROW_MAX 200000
#define RL_SERVE_CAPACITY_GROWS 3
#define RL_SERVE_CAPACITY_OPEN_GROWS 1
/* An open load (its p99s met, its 95% bound not) is no failure: a search
 * whose figure's next point up is open (after RL_SERVE_CAPACITY_OPEN_GROWS)
 * keeps its figure only when a load at most RL_SERVE_CAPACITY_OPEN_BAND
 * times it failed outright (a p99 missed, or it did not complete or keep
 * up), probing that load when no run did; else *qps is NAN with
 * capacity_unresolved RL_SERVE_UNRESOLVED_BAND.  Near a queue's knee the
 * share over a target rises steeply with the load and the open band is
 * narrow: M/D/1 at a 1 s target (test_serve test_capacity_md1), the p99
 * alone passed up to 5-8% above the exact capacity (tester29 F4), and the
 * M/D/1 queue saturates 1.15 x above it.  Where the TTFT tail is the
 * requests' own service near the target, the share over it rises slowly
 * (tester47 F8: llama3-8b on one h100-sxm, lognormal:4000:0.8 prompts under
 * a 0.2 s target, 0.47% of requests over at 0.5 req/s, 0.86% at 1.4, the
 * p99 missed from about 1.6), so which load's sample resolves is chance:
 * the figure read 0.08-0.98 req/s by the seed beside runs meeting at 1.
 * 1.25 (the hinted bracket's step) is 3 x the knee's band and below that
 * slow rise's factor 3.  Under --policy static the figure stands even so
 * when a run at or below the sample's own rate (lattice point 0: the load
 * asked for) missed a target outright: a request waits out the batch
 * running when it arrives, a queue whose share over a TTFT target grows
 * about as the load, and the configuration is short whichever load of the
 * band resolves (fixRB: --qps 8 against a figure of 0.0088 read null). */
#define RL_SERVE_CAPACITY_OPEN_BAND 1.25
/* The band's null is for a share over a target seen near 1%.  When the
 * open load above the figure saw no request over a target at all (its
 * bound the floor alone, RL_SERVE_SLO_NONE over too few effective
 * requests), the sample shows no such share: its waits are correlated
 * over stretches of about a latency near the knee, so 29000 requests
 * held 75-140 effective ones at every load from 131 to 170 req/s, each
 * open at a bound of 2-4% with none over the 1 s target (tester89 F2:
 * llama3-8b on 5 h100-sxm replicas, 1000 + 100 tokens, under 1 s and 50
 * ms targets, TTFT p99 0.34-0.47 s; the null note blamed the prompts' own
 * prefill, 22 ms).  The figure then stands, the highest load whose bound
 * met the targets, and *cfg->capacity_lower_bound is
 * RL_SERVE_LOWER_CONFIDENCE: a longer sample may sustain more (200000
 * requests sustained 163 req/s there, at 5 x the search's time). */
#define RL_SERVE_LOWER_SPAN 1
#define RL_SERVE_LOWER_CONFIDENCE 2
#define RL_SERVE_UNRESOLVED_FLOOR 1
#define RL_SERVE_UNRESOLVED_BAND 2
#define RL_SERVE_KEEP_UP 0.98
int rl_serve_capacity(const rl_request *req, long long n, const rl_serve_config *cfg,
                      const rl_step_cost *prefill_cost, const rl_step_cost *decode_cost,
                      double hint, double *qps, char *err, size_t errlen);

/* The load n requests (sorted by arrival) offered at a nominal `qps`
 * actually reached: their own rate, (n - 1) / (last arrival - first), when
 * that is lower (a finite sample realises --qps only to about 1/sqrt(n);
 * bursty --burst arrivals far less: 2.36 of 5 req/s, test_serve
 * test_overload_note_needs_overload), else `qps`.  `qps` when the
 * arrivals have no span. */
double rl_serve_reached_qps(const rl_request *req, long long n, double qps);

/* The rate that labels the capacity search's loads for requests drawn from
 * w (rl_serve_config asked_qps; rl_serve_capacity): w->qps, or 0 (their
 * own rate labels them) for gamma arrivals burstier than Poisson
 * (burst_cv > 1), whose draw realises w->qps only to about burst_cv /
 * sqrt(n) (tester81 A: --qps 50 --burst 100 over 2000 requests came at
 * 6.64 req/s), so that it does not stand for the process at w->qps, and a
 * label of w->qps would claim loads no run tried (stop 24's "raised to
 * --qps itself").  Callers pass 0 themselves for a trace or offline. */
double rl_serve_asked_qps(const rl_workload *w);

/* The load a run of n requests (sorted by arrival) drawn from w at a
 * nominal `qps` (w->qps, or size's scaled copy of it) is judged at:
 * capacity_utilization's numerator, beside the capacity search's figure.
 * For a draw whose own rate labels the search's loads (rl_serve_asked_qps
 * 0: a --burst CV above 1) the arrivals' own rate (rl_serve_arrival_rate),
 * above `qps` too (tester101: 500 requests at --qps 10 --burst 100 came at
 * 205 req/s, past the 27.8 they sustain, and read "not overloaded at 10
 * req/s"); else, and when that rate is none, rl_serve_reached_qps.  w
 * NULL: a trace, whose qps is its own rate already.  One rule for simulate,
 * roofline.simulate and size (review of int56: Lua read 0.36 where the
 * CLI read 7.39 on that run). */
double rl_serve_judged_qps(const rl_request *req, long long n, const rl_workload *w, double qps);

/* The rate n requests (sorted by arrival) offered at a nominal `qps` (0: a
 * trace's, none) realised, JSON arrival_req_per_s: (n - 1) / (last arrival
 * - first); NAN (null) with fewer than 2, or when they span no time or,
 * offered at qps, less than RL_SERVE_INSTANT / qps, a millionth of one mean
 * gap: arrivals that close are one instant to a server, and a rate over
 * their span no figure of the load (tester47 F1: --burst 100 at 5 req/s,
 * gamma gaps of shape 1e-4, drew 60 arrivals within 2.4e-179 s of each
 * other, read 2.4e180 req/s; 3 arrivals at one instant read null without a
 * word).  A Poisson sample of n spans less than that with probability
 * about 1e-6^(n-1) / (n-1)!, so only such clumps read null. */
#define RL_SERVE_INSTANT 1e-6
double rl_serve_arrival_rate(const rl_request *req, long long n, double qps);

/* The upper confidence bound on the share of run r's requests over a
 * target by which the capacity search decides (RL_SERVE_SLO_TAIL): the
 * larger of r's slo_miss_bound and the floor its slo_effective_requests
 * set (RL_SERVE_SLO_NONE: Garwood's limit at its effective exceedances
 * over them); 0 without targets. */
double rl_serve_slo_bound(const rl_serve_result *r);

/* Garwood's 95% upper limit on the mean of a Poisson count seen k times,
 * chi2(0.95; 2k + 2) / 2 (Biometrika 28, 1936): RL_SERVE_SLO_NONE at 0
 * (exact), else Wilson and Hilferty's cube-root approximation (Biometrika
 * 1931; 4.73 at 1 where the exact limit is 4.744). */
double rl_serve_garwood_upper(double k);

/* The effective requests the floor (rl_serve_slo_bound) needs to read a
 * share `share` of the TTFTs over target under RL_SERVE_SLO_TAIL: the fixed
 * point N of N = rl_serve_garwood_upper(round(share N)) / RL_SERVE_SLO_TAIL
 * from RL_SERVE_SLO_NONE / RL_SERVE_SLO_TAIL (299.6 at share 0), capped at
 * RL_SERVE_CAPACITY_GROW_MAX (the cap on a sample's requests, reached as
 * share nears RL_SERVE_SLO_TAIL; at or above it, 299.6: the run fails). */
double rl_serve_slo_want(double share);

/* The effective sample size of the m values v: m over their statistical
 * inefficiency (at least 1), the variance of their mean relative to
 * independent values', by overlapping batch means over batches of
 * m / RL_SERVE_SLO_BATCHES (serve.h RL_SERVE_SLO_NONE); m when there are
 * too few for batches of 2 (under 2 RL_SERVE_SLO_BATCHES values) or none
 * varies (independent for all they show).  An AR(1) series of
 * coefficient phi reads about m (1 - phi) / (1 + phi). */
double rl_serve_effective_count(const double *v, long long m);

/* The capacity a run reports (tester13 #4): the search's figure `searched`
 * (rl_serve_capacity), raised to the rate the run's n arrivals req reached,
 * (n - 1) / span, when the run r is sustained by the search's own rule
 * (every request completed, kept up, c's targets met at p99).  The search
 * runs a sample of the same arrivals on the 1.02^k lattice of that rate
 * and, where the knee is not monotone, can end below a load the full run
 * sustained: a result must not say its load meets the targets and exceeds
 * the most it sustains.  The raise is to the rate the arrivals reached,
 * never to the nominal --qps, which bursty arrivals may realise at half
 * (closing note 23: --burst 100 at 5 req/s reached 2.36).  A NAN (not
 * found) stays NAN; arrivals without a span raise nothing.  Nor does a run
 * too short for a steady state by the search's own rule
 * (their span at least RL_SERVE_CAPACITY_SPANS times r's mean end-to-end
 * latency or settle time, whichever is longer; review24 H1: 3000
 * lognormal:300:1 outputs at --qps 90 kept up while their long requests
 * were still building up and claimed 90.4 req/s of a capacity of about
 * 77).  The other way, a settled run (not static) that completed every
 * request and whose own p99s miss a target caps the figure at one lattice
 * step (RL_SERVE_CAPACITY_TOL) below its arrivals' rate: a result must not
 * say its load misses the targets and is below the most that meets them
 * (tester29 F4: 14.86 req/s beside a 20000-request run at 14.6 whose TTFT
 * p99 read 1.157 s, the search's 4000 requests a lucky stretch).  So does
 * a run that fell short of its arrivals (rl_serve_falls_short, the overload
 * note's rule), settled or not: "overloaded" never sits beside a higher
 * figure (fixIK #1: 1e6 requests at 26966 req/s beside 27063). */
double rl_serve_capacity_with_run(double searched, const rl_request *req, long long n,
                                  const rl_serve_result *r, const rl_serve_config *c);

/* Whether a run at arrival rate `arrived` (requests/s) fell measurably
 * short of it (tester14 F2b: 74.3 req/s completed of 80 offered, no note):
 * its steady window's arrivals outpaced a saturated system (backlog_outpaced,
 * the search's rule, alone), or its waiting queue grew (keep_up below
 * RL_SERVE_KEEP_UP, the capacity search's own rule for a load not sustained) and its steady
 * completions fell more than RL_SERVE_CAPACITY_TOL (one step of the
 * search's lattice) below `arrived`.  Both are needed: a heavy-tailed run
 * that keeps up completes a few percent below its arrivals while the
 * long requests build up (76 req/s: 73.8 with keep_up 0.987), and a
 * bursty run's window can end on a clump the queue-emptied rule forgives
 * (serve.h keep_up).  0 without a steady window.  The settle rule
 * (rl_serve_capacity_with_run's) cannot stand in for keep_up here: a run
 * short of its settle time completes below its arrivals below capacity
 * too (3000 of those outputs at --qps 70, capacity about 74-77: 65.2
 * req/s); nor keep-up for the settle rule: the --qps 90 run above keeps
 * up.  So the two stay two verdicts (stop 25: one function giving both
 * would take the arrivals and the offered rate for callers that each read
 * one). */
int rl_serve_falls_short(const rl_serve_result *r, double arrived);

/* rl_serve_falls_short beside the capacity search's figure `searched`
 * (requests/s, NAN: none): not when the run's shortfall is only the
 * count's growth over a span shorter than its ramp (steady_unramped) and
 * the search, whose sample grows until it outlasts RL_SERVE_CAPACITY_RAMP_SPANS
 * ramps (rl_serve_capacity), sustained `arrived` within one step of its
 * lattice (RL_SERVE_CAPACITY_TOL).  Near capacity the count relaxes with a
 * time constant that grows as the load nears it (serve.c count_ramp), so
 * on many replicas a run of 20000 requests ends inside it (tester89 F1:
 * llama3-8b on 100 H100 replicas, 1000 + 100 tokens, --qps 2600: "overloaded"
 * and a figure capped at 2539 req/s, 0.9767 x --qps, beside a search that
 * sustained 3556 and 100000 requests that kept up at 3598).  The
 * overload note and rl_serve_capacity_with_run's cap read it. */
int rl_serve_falls_short_beside(const rl_serve_result *r, double arrived, double searched);

/* The keep-up verdict the capacity search, size's rows and the overload
 * note share: keep_up >= RL_SERVE_KEEP_UP and not backlog_outpaced (a
 * saturated system whose arrivals exceed its admissions: tester28 F9;
 * rl_serve_falls_short says a run is short when backlog_outpaced alone). */
int rl_serve_keeps_up(const rl_serve_result *r);

/* What run r spent its busy time on, for its mode label's share (ops.h
 * rl_ops_run_mix, rl_ops_serving_share): its decode steps, its prompts and
 * the prefill steps it ran (their count and the prompts or chunks in them). */
rl_ops_run_mix rl_serve_run_mix(const rl_serve_result *r);

/* rl_serve_capacity with every step costed as rl_serve_simulate does; *qps
 * holds the hint on entry (0: none). */
int rl_serve_simulate_capacity(const rl_model *m, const rl_hw *h, long long chips, rl_precision p,
                               int calibrated, const rl_request *req, long long n,
                               const rl_serve_config *cfg, double *qps, char *err, size_t errlen);

/* The capacity of the same arrivals without c's targets (rl_serve_capacity
 * counts them) into *free_qps, searched only when the targets put the
 * capacity `max_qps` below the judged load `qps`: the key
 * max_sustainable_qps_no_slo (result.h rl_result_simulate_no_slo) and the
 * CLI's overload and SLO notes need it; `roofline simulate` and
 * roofline.simulate both call it (tester102 #1: the Lua result lacked the
 * key).  c's targets are restored on return.  *free_qps is NAN when not
 * searched or not found.  Non-zero only when interrupted (the caller exits
 * 130/143); a search that fails otherwise leaves NAN. */
int rl_serve_capacity_no_slo(const rl_model *m, const rl_hw *h, long long chips, rl_precision p,
                             int calibrated, const rl_request *req, long long n,
                             rl_serve_config *c, double qps, double max_qps, double *free_qps);

/* The "did you mean milliseconds?" note for a p99 target in seconds past
 * what any interactive serving target is: TTFT above RL_SLO_TTFT_NOTE_S
 * (a minute) or, with `tpot` set, TPOT above RL_SLO_TPOT_NOTE_S (a second
 * per token) (tester77 #3: --ttft-p99 500 --tpot-p99 40 ran as 500 s and
 * 40 s targets without a word; the tightest the presets size for are
 * 0.05-2 s and 0.01-0.1 s).  `name` is how the caller spells the target
 * ("--ttft-p99", or the Lua field "ttft_p99"), `assign` what joins it to a
 * value (" " or " = ").  1 with the note, without "note: ", in
 * note[len]; 0 (nothing written) within the bound.  The command line
 * (size, simulate) and the Lua API (roofline.size, roofline.simulate:
 * tester77 left) say the same words. */
#define RL_SLO_TTFT_NOTE_S 60.0
#define RL_SLO_TPOT_NOTE_S 1.0
int rl_slo_units_note(int tpot, const char *name, const char *assign, double v, char *note,
                      size_t len);

/* Expected tokens per verify step with acceptance rate a and g draft
 * tokens: (1 - a^(g+1)) / (1 - a) (Leviathan et al. 2023 eq. (1)). */
double rl_spec_tokens_per_step(double alpha, int gamma);


/* ---- output ----------------------------------------------------------- */

/* The figures rl_serve_write_plots draws, NAME.svg with NAME.gp and
 * NAME.dat beside each (cli.c checks them before the run). */
extern const char *const RL_SERVE_FIGURES[2];

/* Figures of a result kept with keep_requests, into directory `dir`
 * (created if missing) through plot.c (rl_plot_render, templates
 * plots/latency_cdf.gp and plots/kv_occupancy.gp; `dir` made with its
 * parents): latency_cdf.svg (TTFT,
 * TPOT, end-to-end quantiles, <= 500 points each) and kv_occupancy.svg, each
 * with its .dat and .gp.  Returns 0 (*plotted 0 when gnuplot is missing:
 * data and scripts kept), or -1 with err set. */
int rl_serve_write_plots(const rl_serve_result *r, const char *dir, const char *title, int *plotted,
                         char *err, size_t errlen);

/* Why a capacity search's figure is null for want of confidence (its
 * capacity_unresolved kind, RL_SERVE_UNRESOLVED_FLOOR or _BAND), in words,
 * into buf (simulate's and size's notes; size's p99-only caution).  The two
 * kinds end in the same words on the requests' own service, or with
 * `burst_cv` above 1 (--burst's gamma arrivals; 0 for Poisson or a trace)
 * on the clumps' queueing, or with `cause` (not NULL: the caller's words on
 * the tail's cause, read from its own run; cli.c unresolved_tail; it
 * overrides both others) on that; brief gives a
 * pointer back to them instead (a second note after the first).  Returns
 * buf. */
const char *rl_serve_unresolved_reason(int kind, int brief, double burst_cv, const char *cause,
                                       char *buf, size_t len);

#endif
