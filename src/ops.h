/* ops.h — the operator list of one step: per-operator FLOPs, bytes, bound,
 * B_crit and ideal time; prefill / TTFT / chunked prefill / mixed steps.
 *
 * Owns the breakdown of a transformer step into operators (embedding, norms,
 * q/k/v/o projections, RoPE, QK^T, softmax, PV, MLP gate/up/down, MoE router
 * and experts, residual adds, final norm, LM head) for a workload of
 * prefill tokens (T new tokens per sequence on a cached prefix P) and decode
 * sequences (B sequences at context S), and the step totals.  Uses arch
 * (params, KV, windows, expected experts), roofline (rl_roofline_time,
 * rl_b_crit), step (rl_precision), shard (a plan's collectives), comm,
 * spec, dtype.
 *
 * Sources: seed 000 section 1 "Linear operations: what bottlenecks us?"
 * (matmul bytes and FLOPs, B_crit) and "What about attention?" (FlashAttention
 * data flow: read Q, K, V, write O; 2BSTD FLOPs for QK^T and for PV;
 * intensity ST/(S+T): T/2 in prefill, ~1 in decode).  MLA: DeepSeek-V2
 * (arXiv:2405.04434) section 2.1 — decode uses the absorbed form (W_UK folded
 * into the query, W_UV into the output, attention over the cached latent);
 * prefill uses the non-absorbed form (kv_b up-projects the latents of all
 * P + T tokens, then ordinary attention with qk width nope + rope), as
 * vLLM and SGLang do.
 *
 * Counting conventions (each an assumption, stated here once):
 *  - A decode sequence at context S is one new token attending to S keys
 *    (its own included), so it reads B * S tokens of KV as formula (1) does.
 *  - Causal prefill counts T(T+1)/2 + T P query-key pairs per sequence (the
 *    lower triangle plus the prefix); local layers cap each query's keys at
 *    the window W.  Non-causal (option) counts T (P + T).
 *  - Fused attention (FlashAttention) reads Q and each K/V head once (GQA:
 *    per KV head, not per query head) and writes O; scores stay on chip.
 *    Materialized attention also writes the score matrix (the full
 *    T x (P + T) rectangle per head, as eager attention allocates it), which
 *    softmax reads and writes and PV reads.  Where an engine's kernel table
 *    times the fused attention, materialized attention is that measured
 *    fused time plus the score traffic at the HBM roofline (untabled_s), so
 *    it is never faster than fused; that added time is not table time
 *    (rl_ops.table_s), nothing having measured it (tester4 #4), and qk,
 *    softmax and pv read `derived` (ktable.h rl_provenance_moved).
 *  - Softmax costs 5 FLOPs per score (max, subtract, exp, sum, divide);
 *    RMSNorm 4 FLOPs per element; RoPE 3 per rotated element; a residual add 1.
 *  - k_proj / v_proj (MLA: kv_a_proj) write their output into the KV cache
 *    (kv_write), the rest of the projections write activations.
 *  - The embedding lookup reads only the rows it gathers (tokens * D).  The
 *    LM head runs on every decode token but only on the last token of each
 *    prefill sequence (engines skip the logits of prompt tokens).
 *  - MoE experts' weight bytes are those of the E (1 - (1 - k/E)^M) distinct
 *    experts M routed tokens touch (rl_arch_expected_experts); their FLOPs
 *    are 2 M k D F_e per matrix; shared experts run on every token.
 *  - Everything is spread over `chips` chips at chips * peak FLOP/s and
 *    chips * HBM bandwidth, like formula (1); communication only when the
 *    configuration names a TP/EP plan (rl_ops_config.tp, .ep): then one
 *    RL_OP_COMM op per collective of the plan (shard.h), as the sharded
 *    step counts them; the vocab-parallel embedding's AllReduce and the
 *    logits' gather are not counted (one small collective each per step). */
#ifndef RL_OPS_H
#define RL_OPS_H

#include <stddef.h>

#include "arch.h"
#include "ktable.h"
#include "comm.h"
#include "roofline.h"
#include "shard.h"
#include "spec.h"
#include "step.h"

/* The smallest assumed MFU accepted: below 1% a "roofline" is meaningless. */
#define RL_MFU_MIN 0.01

typedef enum { RL_OP_WEIGHT, RL_OP_ATTENTION, RL_OP_ELEMENTWISE, RL_OP_COMM } rl_op_kind;

/* One operator: per-instance values (one layer), `layers` instances a step. */
typedef struct {
    char name[40];
    rl_op_kind kind;
    double layers;       /* instances per step (layers it appears in; 1 for head/tail) */
    double tokens;       /* token rows it works on: a weight matmul's rows M (the
                            embedding's and the step's; the LM head's the
                            sequences'), an elementwise op's (the step's M), an
                            attention op's query tokens (its segment's); 0 on a
                            collective (its bytes are in rl_comm) */
    double flops;        /* FLOPs */
    double weight_bytes; /* weights read */
    double act_read;     /* activation bytes read */
    double act_write;    /* activation bytes written */
    double kv_read;      /* KV-cache bytes read */
    double kv_write;     /* KV-cache bytes written */
    double intensity;    /* flops / all bytes, FLOPs per byte (rl_ops_build; 0 in the
                            unnamed builds that time a step alone, ops.c) */
    double b_crit;       /* weight matmuls: tokens per chip to be compute-bound; else 0
                            (rl_ops_build; 0 in the unnamed builds, as intensity) */
    rl_eff_class eff;    /* the efficiency curve that times it in calibrated mode */
    int kclass;          /* rl_kclass of the engine kernel table that times it; -1: none */
    int kspan;           /* ops sharing this op's table time (attention: qk, softmax, pv
                            = 3; fused q/k/v = 3, gate/up = 2; split in the ratio of their
                            own times); 0 for the others */
    double kshape[RL_KSHAPE]; /* its shape on the table's axes (engines.h), per chip */
    double kscale;       /* table time multiplier (prefill attention: query-key pairs
                            over those of a causal prompt of the same length) */
    int half;            /* a weight matmul kept unquantized, its weights and math in
                            rl_dtype_kept(--weights) whatever --compute (bf16 under
                            8- and 4-bit weights): the MoE router, the LM head, and
                            under a `quantized = "experts"` model every matmul but
                            the routed experts' (ops.c) */
    rl_provenance prov;  /* where its time comes from */
    double scores;       /* materialized attention: score-matrix bytes it writes and reads
                            (part of act_read + act_write); 0 when fused */
    double untabled_s;   /* of t.time_s: roofline time added to a table's time (the
                            materialized scores' HBM traffic, and the roofline change of
                            activations wider or narrower than the tables' bf16, which
                            no table measured; negative when narrower) */
    double tabled_s;     /* of t.time_s: table time (table_s sums it): all of it when
                            prov reads measured or interpolated (a kernel table timed
                            it on this chip at this shape and dtypes, unmoved), else 0:
                            a roofline, extrapolated or derived op, a derived dtype, a
                            what-if chip, and a table time moved beyond the table
                            (--non-causal's extra pairs, materialized scores, another
                            --act width; ops.c time_from_table) alike */
    double kcausal;      /* of the table time (kscale included), the share of the causal
                            pairs a table measured: 1, or under --non-causal the causal
                            pairs over all (the rest derived from it, not table time) */
    double band[4];      /* timed by a table whose engine has residuals (engines.h,
                            rl_kresidual): its class's log quantiles p5, p10, p90, p95,
                            widened outside the table's grid (engines.h,
                            rl_kresidual_band); else 0 */
    rl_roofline t;       /* time of one instance (ideal, or calibrated; a collective:
                            time_s only, comm.h) */
    /* RL_OP_COMM only (set for no other op; keep it last): one collective of
     * the plan (`layers` = its count per step) */
    rl_comm comm;
} rl_op;

#define RL_OPS_MAX (64 + RL_SHARD_MAX_COLL)

/* Prefill sequences of one shape: `seqs` sequences, each with `tokens` (T)
 * new tokens on a cached prefix of `prefix` (P) tokens. */
typedef struct {
    long long seqs, tokens, prefix;
} rl_ops_part;

/* Work kept between the steps a caller builds for one configuration
 * (rl_ops_config.memo): the prefill attention envelope's lookups of a
 * chunk at each candidate prefix (ops.c prefix_envelope), which do not
 * depend on the prompt's own prefix.  Entries are keyed by everything
 * those lookups read (the chip's data by its address), so a step's time
 * is the same with or without one; a caller that changes a chip's data in
 * place frees its memo. */
typedef struct rl_ops_memo rl_ops_memo;

/* A new, empty memo (NULL when out of memory); rl_ops_memo_free(NULL) is
 * a no-op. */
rl_ops_memo *rl_ops_memo_new(void);
void rl_ops_memo_free(rl_ops_memo *memo);

/* What a step computes, and how. */
typedef struct {
    /* the step's prompts, each attending to its own prefix and tokens only
     * (varlen attention: one kernel, their FLOPs and bytes add up); the
     * weight matmuls and elementwise ops run once over all their rows.
     * nparts 0: prefill_seqs x (prefill_tokens on prefill_prefix) below */
    const rl_ops_part *parts;
    int nparts;
    long long prefill_seqs;   /* sequences being prefilled (0 = none) */
    long long prefill_tokens; /* T: new tokens per prefill sequence */
    long long prefill_prefix; /* P: tokens already cached per prefill sequence */
    long long decode_batch;   /* B: decoding sequences (0 = none) */
    long long decode_context; /* S: keys each decode token attends to (>= 1) */
    long long chips;          /* >= 1 */
    rl_precision prec;        /* weights, kv, compute */
    rl_dtype act;             /* activations (default bf16) */
    int materialized;         /* 1: scores written to HBM; 0: fused (default) */
    int non_causal;           /* 1: prefill counts T (P + T) pairs; 0: causal (default) */
    double mfu;               /* 0 or 1: ideal peak; in (0, 1): compute at mfu * peak */
    int calibrated;           /* 1: time each op by h's efficiency tables when present
                                 (efficiency.h (C): weight matmuls as gemm by tokens,
                                 decode attention by bytes, prefill attention by FLOPs,
                                 norms, RoPE, the rest elementwise), and where the selected
                                 engine has a kernel table for an op, by that table at the
                                 op's own shape (see rl_ops_build); 0: ideal (default) */
    /* A 1D tensor / expert parallel plan over the chips (tp * ep == chips):
     * the step adds the plan's collectives (shard.h, rl_shard_collectives:
     * under Megatron TP two AllReduces per layer in the forward pass, after
     * the attention output and the MLP down projection, Shoeybi et al.,
     * "Megatron-LM", arXiv:1909.08053 section 3; EP's AllToAll dispatch and
     * combine), each timed by comm.h (measured tables where the hardware
     * has them).  tp = ep = 0 or 1: no collectives (formula (1)'s fully
     * sharded chips, the default). */
    long long tp, ep;
    /* 1: tp, ep and attn_replicated shape the local ops only (attention
     * replication, the fused-MoE table's TP and EP shares) and the step adds
     * no collective: its caller adds the plan's own (shard.c's sharded step,
     * serve.c's step cost), which would otherwise be counted twice; 0: the
     * plan's collectives are ops of the step (default) */
    int no_collectives;
    int attn_replicated;      /* MoE attention replicated (shard.h's "epN attn=rep"), on
                                 more than one chip with ep > 1 or with no tp: every weight
                                 but the routed experts' is read on every chip (its
                                 matmuls' weight bytes x chips), each chip on its own
                                 tokens; with ep > 1 it also selects the plan's collectives */
    /* Chips of the replica that hold and read each token's KV cache: 0 or 1,
     * the cache spread over the chips (formula (1)); c > 1 multiplies every
     * op's KV bytes by c.  Under tensor parallelism with fewer KV heads than
     * TP chips each head is replicated, tp / min(tp, K) copies (vLLM's
     * attention layers replicate KV heads when K < TP; MLA's one latent is on
     * every TP chip: serve.h, rl_serve_kv_copies; shard.h rl_shard_kv_layout). */
    double kv_copies;
    /* How the chips beyond the K KV heads hold the decode cache (shard.h's
     * --kv-split), for a kernel table's decode-attention shape: replicate
     * (the default: each chip every sequence of its head), batch (each
     * ceil(B / z) of the sequences) or seq (each 1/z of every sequence's
     * keys), z = chips / K; under batch and seq each chip runs all N / K
     * query heads of its KV head.  The bytes a chip reads follow kv_copies. */
    rl_kv_split kv_split;
    /* Lookups kept between steps (rl_ops_memo; serve.c's step costs);
     * NULL: none (the default) */
    rl_ops_memo *memo;
} rl_ops_config;

/* The 1D TP/EP plan of configuration c (tp, ep, attn_replicated and
 * kv_split; tp, ep 0 read 1): the plan whose collectives join its step. */
rl_shard_plan rl_ops_plan(const rl_ops_config *c);

/* Defaults: 1 chip, bf16 everywhere, fused, causal, ideal peak; no tokens. */
rl_ops_config rl_ops_config_default(void);

/* Set the workload of `c` for a phase: "decode" (`batch` sequences at
 * `context` cached tokens), "prefill" (`batch` sequences of `tokens` new
 * tokens) or "mixed" (one `tokens`-token prefill chunk beside a decode batch
 * of `batch` at `context`).  `tokens` / `context` 0 mean not given;
 * `context` given to phase prefill, which has no decode KV, is refused (the
 * rule for moot options, fixRC #2; fixSA #5: it was a note, exit 0).
 * Returns 0, or -1 with err "NAME ... reason" where NAME is the missing or
 * bad option (phase, tokens, context), for the CLI and Lua to prefix. */
int rl_ops_config_phase(rl_ops_config *c, const char *phase, long long batch, long long tokens,
                        long long context, char *err, size_t errlen);

/* How a step's residual adds and the RMSNorms after them run
 * (rl_ops.norm_fusion; engines.h rl_engine_fusion): RL_FUSE_NONE as two
 * kernels each (--ideal, no engine, an engine without the property: the
 * op list's attn_norm, attn_residual, mlp_norm, mlp_residual, final_norm);
 * RL_FUSE_ADD_NORM as one kernel each (attn_add_norm, mlp_add_norm: 2
 * reads and 2 writes of the rows, 2L a pass, and final_norm the one plain
 * norm); RL_FUSE_ALLREDUCE inside the TP AllReduces before them (no op of
 * their own beside final_norm, the plain one: the AllReduce's measured
 * time stands for the fused kernel).  Where the engine's layer hands the
 * pair to the AllReduce but it runs NCCL, the pair is one kernel after it,
 * costed as RL_FUSE_ADD_NORM, and the mode says why (tester72 finding 2:
 * the words must say why a batch is not fused): RL_FUSE_NCCL_TABLE the
 * AUTO strategy's lookup table picks NCCL for the token count (measured,
 * not monotone in it), RL_FUSE_NCCL_WORKSPACE the message exceeds the
 * fused kernel's workspace, RL_FUSE_NCCL_GROUP the group or the hidden
 * size is outside the table, or the group outside the NVLink domain (ops.c ar_fused);
 * RL_FUSE_NCCL_IMPL the hardware's collectives impl (--set
 * hw.collectives.impl=nccl) names rows other than the engine's own
 * AllReduce, so the AllReduce runs that implementation and the pair one
 * kernel after it (tester76 finding 3). */
enum { RL_FUSE_NONE, RL_FUSE_ADD_NORM, RL_FUSE_ALLREDUCE, RL_FUSE_NCCL_TABLE,
       RL_FUSE_NCCL_WORKSPACE, RL_FUSE_NCCL_GROUP, RL_FUSE_NCCL_IMPL };

/* The sentence the results' norm_fusion key gives for mode f of model m
 * (its norm: a LayerNorm is never fused, spec.h rl_norm), with its source. */
const char *rl_ops_norm_fusion_words(int f, const rl_model *m);

typedef struct {
    rl_op op[RL_OPS_MAX];
    int n;
    int norm_fusion;     /* RL_FUSE_*: how its residual adds and norms ran */
    /* step totals: sum over ops of layers * per-instance value */
    double flops, weight_bytes, act_bytes, kv_read, kv_write;
    double step_s;       /* sum of op times: each op at its own roofline */
    double compute_s;    /* sum of layers * compute term */
    double memory_s;     /* sum of layers * memory term */
    double tokens;       /* tokens processed: prefill_seqs * T + B */
    int prov[RL_PROV_COUNT]; /* operators by provenance of their time */
    double engine_s;     /* the engine's fixed costs in step_s (per step, sequence, launch;
                            never the prefill dispatch: rl_ops_prefill_dispatch) */
    double comm_s;       /* of step_s: the plan's collectives */
    double table_s;      /* of step_s: the parts of operators (not collectives) a kernel
                            table measured or interpolated at the run's own dtypes on
                            this chip (rl_op.tabled_s: the mode label's share, spec.h
                            rl_run_mode) */
    /* With kernel-table residuals: step_s moved to each quantile of
     * rl_op.band (p5, p10, p90, p95), every op of a class at its quantile
     * together (a shape's error repeats in every layer, and assuming the
     * classes move together is the wide side); banded 0 without. */
    double band_s[4];
    int banded;
    /* Routed experts without an MoE table of the run's own dtypes at their
     * shape: the MoE table variants of that same shape that time them in
     * its place, when memory-bound ([0]) and compute-bound ([1]);
     * RL_MOE_FROM_GEMM where none does and the dense GEMM table times them
     * (rl_ops_moe_gemm_shapes); -1 with the run's own table, no experts or
     * no engine tables.  The builder's one decision (ops.c moe_derived),
     * which rl_ops_moe_from_gemm and rl_ops_moe_variant_note read. */
    int moe_derived[2];
} rl_ops;

/* rl_ops.moe_derived of routed experts timed from the dense GEMM table. */
#define RL_MOE_FROM_GEMM (-2)

/* Check a configuration against model and chip: sizes >= 0 with at least
 * one token, decode_context >= 1 when decode_batch > 0, contexts within
 * max_context, mfu in [0, 1], the compute dtype's peak present.  Returns 0 or
 * -1 with err naming the field. */
int rl_ops_check(const rl_model *m, const rl_hw *h, const rl_ops_config *c, char *err,
                 size_t errlen);

/* New prompt rows of a step: the sum over its prefill parts (or
 * prefill_seqs x prefill_tokens) of seqs x tokens. */
double rl_ops_prefill_rows(const rl_ops_config *c);

/* Build the operator list of one step.  Abstract models have no operators:
 * returns -1 with err set.  Otherwise 0.
 *
 * Calibrated with an engine (engines.h): a dense weight matmul of M tokens,
 * [din, dout] on c chips is the table's gemm (m = M, n = dout / c, k = din)
 * of the precision's variant, a row-parallel one (o_proj, *_down: input
 * split, output AllReduced; Megatron-LM, ops.c row_parallel) (m = M,
 * n = dout, k = din / c); q/k/v of MHA/GQA and gate/up of a dense gated
 * MLP are one GEMM of their summed n, as the engines fuse them (ops.c fuse),
 * its time shared in the ratio of their own times; fused MHA/GQA attention (not MLA) of a
 * segment is one table kernel shared by qk, softmax and pv in the ratio of
 * their own times: decode (T = 1) as decode_attention (streams = seqs x
 * max(1, K / c), context = keys read, group = N / K, head_dim), prefill as
 * prefill_attention (batch = seqs, isl = P + T, heads = N / c, head_dim)
 * scaled by its query-key pairs over those of a causal P + T prompt (a
 * cached prefix or a window does less work); a MoE layer's routed experts
 * (gate, up, down) are one fused-MoE kernel of the gemm variant: tokens =
 * M, tp_share = ep / c, ep_share = 1 / ep of the plan (no plan: TP over
 * the c chips), for the model's exact shape (engines.h); MLA's qk, softmax
 * and pv (a model of the MLA tables' dimensions, engines.h) are one
 * prefill_mla or decode_mla kernel (batch = seqs, isl or context as above,
 * heads = N / c; ops.c mla_table).  Other ops keep their
 * efficiency (or ideal) time, provenance `roofline`.  The engine's costs
 * add step_s + seq_s x sequences + launch_s x kernels (one per op instance)
 * to the step. */
int rl_ops_build(const rl_model *m, const rl_hw *h, const rl_ops_config *c, rl_ops *out, char *err,
                 size_t errlen);

/* The grouped GEMM shapes of the routed experts of MoE kernel shape
 * kshape[RL_KSHAPE] (engines.h RL_KC_MOE: tokens, tp_share, ep_share;
 * hidden, inter, topk, experts from RL_KX_MOE) of model m (its experts,
 * top_k and MLP matrices), for timing a shape no MoE table holds from the
 * dense GEMM table: g[0] gate and up fused, g[1] down (ops.c, docs/model.md
 * "MoE").  Returns m_e, the rows per touched expert (their M). */
double rl_ops_moe_gemm_shapes(const rl_model *m, const double *kshape, double g[2][RL_KSHAPE]);

/* The dtype variant whose dense GEMM table times MoE experts that no MoE
 * table holds (rl_ops_moe_gemm_shapes), and whose moe_from_gemm bias
 * corrects them: the run's own GEMM variant of precision p when engine e
 * has its table, else the nearest tabled one (rl_engine_nearest_variant,
 * by the experts' compute_bound; engines.h DERIVED); -1 without a GEMM
 * table.  ops times them from it and cli's note words its bias (review41
 * F2: the note read the run's own variant's). */
int rl_ops_moe_gemm_variant(const rl_serving_engine *e, const rl_precision *p, int compute_bound);

/* How a one-token decode step's operator list times m's routed experts on
 * h's selected engine at precision p, into d (rl_ops.moe_derived: -1 the
 * run's own MoE table, RL_MOE_FROM_GEMM, or the variant in its place; both
 * -1 also without experts or tables and when the list cannot be built):
 * any step's list records it for both bounds, one decode token the
 * cheapest.  Builds that list: a caller asking several questions of one
 * precision reads it once (cli.c moe_own_table). */
void rl_ops_moe_record(const rl_model *m, const rl_hw *h, const rl_precision *p, int d[2]);

/* 1 when h's selected engine times model m's routed experts at precision
 * p from the dense GEMM table (rl_ops_moe_gemm_shapes; provenance derived),
 * memory- or compute-bound, as a one-token decode step's operator list
 * records it (rl_ops.moe_derived): cli's note and pareto's key derived say
 * so (tester56 F1); 0 otherwise. */
int rl_ops_moe_from_gemm(const rl_model *m, const rl_hw *h, const rl_precision *p);

/* The MoE notes below return as snprintf does: the length of the whole
 * note (> 0), which buf holds when it is below n (buf may be NULL with n
 * 0: the length alone, to size a buffer: rl_ops_moe_note; fixXC #2), or 0
 * when there is none (buf "").  Their parts are bounded (a model's and a
 * chip's name < 64 characters, spec.h; an engine's < 32, engines.h; a
 * borrowed correction's donors < 200; its ln values within +-5, engines.c
 * read_moe_gemm_fix), the whole by the caller's buffer. */

/* Which MoE note rl_ops_moe_note gives. */
typedef enum {
    RL_OPS_MOE_NOTE_GEMM,
    RL_OPS_MOE_NOTE_VARIANT,
    RL_OPS_MOE_NOTE_SCALING
} rl_ops_moe_note_kind;

/* The MoE note of kind k (rl_ops_moe_gemm_note, _variant_note or
 * _scaling_note below; e read by the first alone), whole, in a buffer of
 * its length, which the caller frees; NULL when there is none, or out of
 * memory (fixXC #2: fixed buffers of 1024 and 1536 bytes held it only while
 * its words stayed short). */
char *rl_ops_moe_note(rl_ops_moe_note_kind k, const rl_model *m, const rl_hw *h,
                      const rl_serving_engine *e, const rl_precision *p);

/* When engine e's tables hold no MoE kernel of model m's expert shape in
 * any dtype, the words saying its routed experts are timed from the dense
 * GEMM table at precision p (the variant, the measured bias or the 1.45x
 * median and the band's widening).  step's note, size's and its report's
 * (t56 #2: the report read "derived (another dtype's measured
 * efficiency)"). */
int rl_ops_moe_gemm_note(const rl_model *m, const rl_hw *h, const rl_serving_engine *e,
                         const rl_precision *p, char *buf, size_t n);

/* Caution when the selected engine's tables time m's routed experts under
 * p (fp8 x fp8) from the other fp8 scaling's MoE kernel than m's checkpoint
 * runs (spec.h fp8_scaling; engines.h rl_kvariant_moe_substitute): e.g. a
 * per-tensor checkpoint at a shape the tables measure block-scaled only.
 * The dense GEMM's substitute gets its caution (cli.c note_derived_at);
 * this is the MoE one (tester63 F4). */
int rl_ops_moe_scaling_note(const rl_model *m, const rl_hw *h, const rl_precision *p, char *buf,
                            size_t n);

/* Say so when the selected engine's tables hold an MoE kernel of m's
 * expert shape but not in p's dtypes, so the routed experts are derived
 * from the nearest variant measured at that same shape (as a step's op
 * list records it, rl_ops.moe_derived; tester64 #4:
 * gpt-oss-120b --weights fp4 on gb200 vLLM, timed from vLLM's w4a16_mxfp4
 * kernel of gpt-oss's shape, read derived with no word): the note, and
 * why its band is the MoE table's residuals, not rl_ops_moe_gemm_note's
 * wide GEMM-timed one. */
int rl_ops_moe_variant_note(const rl_model *m, const rl_hw *h, const rl_precision *p, char *buf,
                            size_t n);

/* The spans of a step's operator list, in its order, by what their ops'
 * times depend on: HEAD and TAIL (embedding, norms, projections, MLP or
 * MoE, residuals) on the step's token rows M alone (every prompt token and
 * decode sequence), PREFILL on the prompts (rl_ops_config.parts: their
 * attention; MLA's kv_b_proj), DECODE on the decode batch and context
 * (attention; MLA's absorbed projections), SEQS on the sequences (the LM
 * head's rows); a plan's collectives come after them.  Each op is timed on
 * its own (a table span, rl_op.kspan, never crosses spans), so a span's
 * ops take the same times in any step with the same inputs to it. */
typedef enum { RL_OPS_HEAD, RL_OPS_PREFILL, RL_OPS_DECODE, RL_OPS_TAIL, RL_OPS_SEQS,
               RL_OPS_SPANS } rl_ops_span;

/* One span's share of step_s: each op's layers x time, in op order, and
 * its kernel launches (op instances: the sum of layers). */
#define RL_OPS_TERMS 16
typedef struct {
    int n;
    double launches;
    double t[RL_OPS_TERMS];
} rl_ops_terms;

/* The terms of the spans in the mask `spans` (1 << rl_ops_span) of c's
 * step, out[span] for each (the others untouched), built from those spans'
 * ops only.  -1 when c is invalid (rl_ops_check), adds collective ops (a
 * tp/ep plan without no_collectives) or a span has more than RL_OPS_TERMS
 * ops; else 0. */
int rl_ops_terms_of(const rl_model *m, const rl_hw *h, const rl_ops_config *c, unsigned spans,
                    rl_ops_terms *out);

/* c's step time from the terms of each of its spans (spans[i] for
 * rl_ops_span i, each from a configuration with the same inputs to that
 * span as c): their terms added in op order, then the engine's fixed costs
 * of c (per step, sequence, launch; the launches are integers, so their
 * sum is exact in any order): rl_ops_step_time(c), bit for bit
 * (test_ops). */
double rl_ops_terms_time(const rl_hw *h, const rl_ops_config *c,
                         const rl_ops_terms *const spans[RL_OPS_SPANS]);

/* The whole-model ops of a step, which a pipeline runs on one stage only
 * (shard.h rl_shard_stage_pass): *first the embedding gather (the first
 * stage's), *last the final norm and the LM head (the last stage's), each
 * its layers x time, read from o, a whole step's list (rl_ops_build; its
 * order: the embedding first, the final norm last of the TAIL span, the LM
 * head the SEQS span's one op, collectives after), or from the HEAD, TAIL
 * and SEQS spans' terms (rl_ops_terms_of), the same doubles.  The engines
 * place them so: vLLM builds `embed_tokens` on the first rank and `norm`,
 * `lm_head` on the last, `PPMissingLayer` elsewhere
 * (vllm/model_executor/models/llama.py); TensorRT-LLM `vocab_embedding`
 * on `mapping.is_first_pp_rank()` and `ln_f`, `lm_head` on
 * `is_last_pp_rank()` (tensorrt_llm/models/llama/model.py). */
void rl_ops_stage_ends(const rl_ops *o, double *first, double *last);
void rl_ops_terms_ends(const rl_ops_terms *const spans[RL_OPS_SPANS], double *first,
                       double *last);

/* Sum of layers * (flops, bytes) over the ops of one kind; *flops and *bytes
 * may be NULL. */
void rl_ops_sum_kind(const rl_ops *o, rl_op_kind kind, double *flops, double *bytes);

/* The engine's prefill dispatch of one request, seconds: the selected
 * engine's prefill_layer_s x the model's layers when c is calibrated
 * (engines.c ENGINE_COSTS: NVIDIA AIConfigurator's vLLM figure, 0.8 ms per
 * layer), else 0.  Host latency on that request's path, added once to its
 * TTFT (and end-to-end latency) however many chunks its prompt takes, never
 * to a step: AIConfigurator adds it to the per-request TTFT only, not to its
 * TPOT (BaseBackend, sdk/backends/base_backend.py, `_ttft_per_request`). */
double rl_ops_prefill_dispatch(const rl_model *m, const rl_hw *h, const rl_ops_config *c);

/* Queueing-free prefill time (TTFT) of one sequence of `tokens` new tokens on
 * a cached `prefix`, seconds: the op-list step time with prefill_seqs = 1,
 * plus the engine's prefill dispatch (rl_ops_prefill_dispatch).
 * Returns -1 on invalid input (see rl_ops_check). */
double rl_ops_prefill_time(const rl_model *m, const rl_hw *h, const rl_ops_config *c,
                           long long tokens, long long prefix);

/* rl_ops_prefill_time, and into *share (when not NULL) the share of its
 * step (the dispatch outside it) timed by kernel tables, as `prefill`'s
 * rows carry it (table_time_share); -1 when the step does not evaluate. */
double rl_ops_prefill_time_share(const rl_model *m, const rl_hw *h, const rl_ops_config *c,
                                 long long tokens, long long prefix, double *share);

/* Chunked prefill of a `tokens`-token prompt in chunks of `chunk` tokens:
 * the sum over chunks i of the prefill time of min(chunk, rest) tokens at
 * prefix P + i * chunk, seconds, plus the engine's prefill dispatch once
 * (rl_ops_prefill_dispatch): the request's TTFT.  -1 on invalid input. */
double rl_ops_chunked_prefill_time(const rl_model *m, const rl_hw *h, const rl_ops_config *c,
                                   long long tokens, long long prefix, long long chunk);

/* The most chunks one chunked prefill is evaluated over: each chunk builds
 * an operator list, so more would run for minutes. */
#define RL_OPS_MAX_CHUNKS 100000

/* Check a chunked prefill of `tokens` tokens in `chunk`-token chunks (chunk
 * 0: none): at most RL_OPS_MAX_CHUNKS chunks.  Returns 0, or -1 with err
 * "chunk ...: reason". */
int rl_ops_check_chunks(long long tokens, long long chunk, char *err, size_t errlen);

/* Ideal time of one mixed step (as continuous batching / chunked prefill
 * runs): `prefill_tokens` new tokens of one sequence on a cached
 * `prefill_prefix`, plus `decode_batch` sequences decoding one token each at
 * context `decode_context`; the weight matmuls are shared by all
 * prefill_tokens + decode_batch rows, attention is per sequence.  Either
 * part may be 0.  Bf16 activations, fused causal attention, ideal peak.
 * Returns seconds, or -1 on invalid input.  For the serving simulator. */
double rl_ops_mixed_step_time(const rl_model *m, const rl_hw *h, long long chips, rl_precision p,
                              long long prefill_tokens, long long prefill_prefix,
                              long long decode_batch, long long decode_context);

/* The configuration of that mixed step (ideal; set .calibrated to time it
 * by the hardware's efficiency tables; activations of
 * rl_shard_moved_dtype(p.compute): fp32 under fp32 compute, else bf16, as
 * the engines keep them), and the step time of any
 * configuration (rl_ops_build's step_s, or -1 on invalid input). */
rl_ops_config rl_ops_mixed_config(long long chips, rl_precision p, long long prefill_tokens,
                                  long long prefill_prefix, long long decode_batch,
                                  long long decode_context);
double rl_ops_step_time(const rl_model *m, const rl_hw *h, const rl_ops_config *c);

/* With h's selected engine carrying kernel tables and a concrete model: the
 * decode step st (batch, context) on `chips` chips takes its step_s and
 * tokens/s (and table_s) from the calibrated operator list (*ops gets it, its ops
 * unnamed: times and provenance; rl_ops_build names them), the cache held
 * as kv_copies says (rl_ops_config; 1: the default).  `plan` (NULL: none,
 * the cache replicated beyond K heads) is the replica's 1D TP/EP plan over
 * the chips: its tp, ep, attention replication and kv split shape the
 * local ops (the fused-MoE table read at the plan's TP and EP shares), and
 * no collective is added (no_collectives: the caller adds the plan's).
 * Returns 1 when it did, 0 (st unchanged, *ops not built: read nothing of
 * it) otherwise; why (whylen > 0) then says why the tables timed nothing
 * (no tables, an abstract model, or the op list's refusal, rl_ops_check),
 * else "". */
int rl_ops_engine_step(const rl_model *m, const rl_hw *h, long long chips, rl_step *st,
                       rl_precision p, double kv_copies, const rl_shard_plan *plan, rl_ops *ops,
                       char *why, size_t whylen);

/* The share of step_s that o's table-timed operators carry (rl_ops.table_s
 * / step_s, 0-1), or -1 when o has no time. */
double rl_ops_table_share(const rl_ops *o);

/* The mode label's share (spec.h rl_run_mode) of a serving configuration:
 * rl_ops_table_share of the calibrated decode step of `batch` sequences at
 * `context` on `chips` chips under a tp x ep plan (collectives included;
 * tp = ep = 1: none), the sequences' cache spread as formula (1).  Returns
 * -1 (unknown) when h's selected engine has no kernel tables, the model is
 * abstract or the step cannot be built. */
double rl_ops_decode_share(const rl_model *m, const rl_hw *h, long long chips, long long tp,
                           long long ep, long long batch, long long context, rl_precision p);

/* What a serving run spent its busy time on, for its mode label's share
 * (rl_ops_serving_share): its decode steps (the decode batch weighted by
 * step time, serve.h mean_decode_batch_time, and the mean decode context)
 * and its prefill (prompts and the tokens they prefilled). */
typedef struct {
    double batch, context;
    double decode_steps;   /* decode steps run (0: none, or not run) */
    double prompts;        /* prompts prefilled (0: prefill not weighed) */
    double prefill_tokens; /* the tokens they prefilled */
    /* the steps that prefilled and the prompts or chunks they carried
     * (serve.h prefill_steps, prefill_parts); 0: not known, a step of one
     * prompt each */
    double prefill_steps, prefill_parts;
} rl_ops_run_mix;

/* The mean prefill step of mix (rl_ops_serving_share): *seqs sequences of
 * *tokens each (0 tokens: no prompts); returns 1 when mix counts its
 * prefill steps, 0 when it falls back on one prompt of the mean length. */
int rl_ops_mix_prefill_step(const rl_model *m, const rl_ops_run_mix *mix, double *seqs,
                            double *tokens);

/* The mode label's share of a serving replica (simulate, size), weighted
 * over the run's busy time (tester13 #5: a run of 4000-token prompts and
 * 2-token outputs, nearly all prefill, read the decode step's share
 * calibrated where `prefill` of the same prompt reads estimated): the table
 * time over the step time of its decode steps and of its prefills,
 *   (s_d T_d + s_p T_p) / (T_d + T_p),
 * each phase's busy time estimated as decode_steps x the decode step of
 * `batch` sequences (rounded, at least 1) at `context` tokens each (within
 * 1 and max_context), and prefill_steps x the mean prefill step the run
 * ran: prefill_parts / prefill_steps sequences (rounded, at least 1) of
 * prefill_tokens / prefill_parts tokens each (rounded, within 1 and
 * max_context; a superlinear prefill weighs long prompts of a spread a
 * little more than this; h31audit finding 7: a static batch of 1024
 * 128-token prompts read the share of one 128-token prefill, 0.977
 * calibrated, where its one 1024 x 128 step is 0.027 estimated); without
 * prefill_steps, prompts x the prefill of the mean prompt, as before; each
 * share rl_ops_table_share of that calibrated step.  On the
 * chips of one stage: tp = stage_chips / ep, or with attention data
 * parallel (attn_dp) tp 1 and ep = stage_chips.  Without prompts (or when
 * the prefill step cannot be built) the decode step's share alone, as
 * before; without decode steps the prefill's.  *prefill_frac (NULL: not
 * wanted) gets T_p / (T_d + T_p), 0 when prefill was not weighed.
 * Before (tester7 #3) the share was taken at max_seqs sequences at the KV
 * pool's context: an attention-heavy step the run never ran.  -1 when
 * unknown (no kernel tables, abstract model). */
double rl_ops_serving_share(const rl_model *m, const rl_hw *h, long long stage_chips,
                            long long ep, int attn_dp, const rl_ops_run_mix *mix,
                            rl_precision p, double *prefill_frac);

/* The op lists of the steps rl_ops_serving_share weighs for mix into
 * out[0..n-1] and their names ("decode batch B at context C", "prefill S
 * x T tokens") into name: the decode step unless the run prefilled only,
 * then the mean prefill step when it prefilled; one that cannot be built
 * (no kernel tables, abstract model) left out.  Returns n (0 to 2): what
 * simulate's and size's outside_tables read (result.c). */
int rl_ops_serving_steps(const rl_model *m, const rl_hw *h, long long stage_chips, long long ep,
                         int attn_dp, const rl_ops_run_mix *mix, rl_precision p, rl_ops out[2],
                         char name[2][64]);

/* "weight" | "attention" | "elementwise" | "communication". */
const char *rl_op_kind_name(rl_op_kind k);

#endif
