/* shard.h — sharding strategies: per-chip memory, FLOPs, HBM time,
 * collectives and the step time of prefill and generation on many chips.
 *
 * Owns the strategies of seed 000 section 3 ("Distributing Inference Over
 * Multiple Accelerators"), Appendix B (2D weight-stationary) and worked
 * problems 4, 6, 7: 1D Megatron tensor parallelism (heads and MLP hidden
 * dim F), 2D weight-stationary (weights split D over X and F over YZ), the
 * KV cache split by KV heads and, beyond K chips, by batch (the two
 * AllToAlls of the chapter's 12-step algorithm), by sequence, or
 * replicated; expert parallelism for MoE (AllToAll dispatch and combine,
 * attention TP-sharded or replicated); sequence parallelism in prefill;
 * pipeline stages; independent replicas.  Uses arch (params, FLOPs, KV),
 * ops (prefill FLOPs), roofline (peak), step (precision), comm (collective
 * cost), spec.
 *
 * A plan's chips: tp * ep * sp * pp per replica, times replicas.  Mesh order
 * (for strides in comm): tp innermost, then ep, sp, pp.  Per chip, per step:
 *   local time = KV bytes / W_hbm + max(FLOPs / peak, weight bytes / W_hbm)
 *     (formula (1) of seed 000 section 1, on one chip's share);
 *   step time  = local + comm, or max(local, comm) with overlap;
 *   pipeline: the replica batch runs as pp micro-batches; a tick is one
 *     stage's step on a micro-batch plus the P2P to the next stage, and a
 *     token (decode) or a prompt batch (prefill) takes pp ticks.
 * Assumptions (stated once): weights and FLOPs split evenly; embeddings and
 * the LM head vocab-parallel over tp; K/V projections and KV heads
 * replicated beyond K chips (the chapter's advice; MLA's latent cache never
 * splits by heads); routing balanced over experts; tokens (and prefill
 * FLOPs) split evenly over a stage's chips; collectives move activations in
 * rl_shard_moved_dtype (below); prefill FLOPs from the operator list (ops.h: causal pairs,
 * windows, LM head on the last token); KV caches of windowed layers capped
 * at the window.  Abstract models (totals only) shard by totals with no
 * collectives: without D there is no activation to move. */
#ifndef RL_SHARD_H
#define RL_SHARD_H

#include <stddef.h>

#include "comm.h"
#include "spec.h"
#include "step.h"

typedef enum { RL_PHASE_PREFILL, RL_PHASE_GENERATE } rl_phase;
typedef enum { RL_LAYOUT_1D, RL_LAYOUT_2D } rl_layout;
/* What tp chips beyond the K KV heads do with the KV cache (generation). */
typedef enum { RL_KV_REPLICATE, RL_KV_BATCH, RL_KV_SEQ } rl_kv_split;

typedef struct {
    long long tp; /* Y: tensor-parallel chips (heads, F); 2D: x * (tp / x) */
    long long x;  /* 2D: chips on the D axis X; 0 picks the optimum (Appendix B) */
    long long ep; /* Z: expert-parallel chips (MoE only) */
    long long sp; /* sequence-parallel chips (prefill only) */
    long long pp; /* pipeline stages */
    rl_layout layout;
    rl_kv_split kv;
    int attn_replicated; /* EP: attention weights on every chip, batch over tp*ep */
    int overlap;         /* step = max(local, comm) instead of local + comm */
} rl_shard_plan;

/* tp = ep = sp = pp = 1, 1D, KV by batch beyond K heads, no overlap (the
 * plan the searches start from; step and ops take rl_kv_split_default's
 * split when none is given). */
rl_shard_plan rl_shard_plan_default(void);

/* The KV split beyond K chips step and ops (CLI and Lua) run when none is
 * given (--kv-split, Lua kv_split): `ideal` (--ideal, --engine ideal) batch,
 * seed 000's layout for the Scaling Book's worked example (KV[2, B_Z, S,
 * K_Y, H]); otherwise replicate, what the serving engines run under plain
 * TP and what simulate and size time (serve.h rl_serve_kv_copies): vLLM
 * vllm/model_executor/models/llama.py and deepseek_v2.py ("Number of KV
 * heads is less than TP size, so we replicate the KV heads across multiple
 * tensor parallel GPUs"); TensorRT-LLM docs/source/features/
 * parallel-strategy.md ("GQA / MQA / MLA: if num_heads <
 * tensor_parallel_size, the KV-cache is replicated on every GPU";
 * tensorrt_llm/llmapi/llm_args.py enable_attention_dp default False).
 * batch splits the KV by sequence with the attention weights still
 * TP-split: not their attention data parallel (their opt-in, TensorRT-LLM
 * enable_attention_dp, vLLM --data-parallel-size with
 * --enable-expert-parallel), which holds the attention weights whole on
 * every chip, as --moe-attn replicated and simulate attn-dp time it
 * (fixRE item 1). */
rl_kv_split rl_kv_split_default(int ideal);

/* Where the split of a step or ops run comes from, for the results'
 * kv_split_source: `given` (--kv-split, Lua kv_split) or the default of
 * rl_kv_split_default(ideal), in words. */
const char *rl_kv_split_source(rl_kv_split kv, int given, int ideal);

/* 1 when plan pl is the layout a fitted profile's engine costs model
 * (enginecost.h (E): tensor parallelism over the chips, as the engines
 * measured run): 1D, tp = chips, no EP, SP or PP, the KV split the
 * engines run beyond K (replicate) or the plan default's (batch; the
 * fitted time reads each chip's copies of the split: e2e.h rl_e2e_retime,
 * rl_e2e_fitted_shard), attention not
 * replicated, no overlap.  Such a plan gives what no plan
 * gives (tester4 #2).  x is not looked at: a 1D plan does not use it. */
int rl_shard_plan_is_tp_over(const rl_shard_plan *pl, long long chips);

/* Whether plan pl runs model m's `phase` on `chips` (a multiple of its
 * tp * ep * sp * pp, each >= 1 and their product in range: the caller's
 * check): 0, or -1 with err opening with the degree it is about ("tp: ",
 * "pp: ", "ep: ", ...).  rl_shard_eval runs it first. */
int rl_shard_check_plan(const rl_model *m, const rl_shard_plan *pl, rl_phase phase,
                        long long chips, char *err, size_t errlen);

/* Whether tp chips of tensor parallelism split concrete model m evenly:
 * tp at most and dividing its query heads, dividing or a multiple of its
 * KV heads (not MLA), dividing d_ff (dense layers) and d_ff_expert (MoE):
 * 0, or -1 with err "tp: ..." naming the model field (err may be NULL).
 * rl_shard_check_plan's rule, and so size's and the auto plan's. */
int rl_shard_tp_check(const rl_model *m, long long tp, char *err, size_t errlen);

/* Whether ep expert-parallel groups split model m's routed experts: ep 1,
 * or m has experts (field 'experts') and ep divides them (each group holds
 * experts / ep whole experts, at least one).  0, or -1 with err "ep: ..."
 * naming the value, the model, its field and the reason (fixTB #4: "ep: 3
 * does not divide E = 256 experts" named neither the model nor its field).
 * Every --ep (step, ops, prefill, simulate; Lua's ep; validate --against's
 * ep column) is checked by it. */
int rl_shard_ep_check(const rl_model *m, long long ep, char *err, size_t errlen);

/* The chips of one replica of plan pl, tp * ep * sp * pp: what step runs a
 * plan on when no chip count is given (CLI `step --tp 8` alone, Lua
 * roofline.step{tp = 8} without chips: tester39 F6, Lua refused it). */
long long rl_shard_plan_chips(const rl_shard_plan *pl);

/* The replicas of a one-replica plan of `one` chips (ops' and prefill's
 * tp x ep) that `chips` chips hold, one of them timed: chips / one when
 * one > 1 divides chips, else 0 (chips is not replicas of the plan; the
 * plan's own check refuses or accepts it).  The one rule the CLI (`ops
 * --chips 16 --tp 8`: tester52 F10) and Lua (roofline.ops{chips = 16,
 * tp = 8}, which refused it) take, each replica running ceil(batch /
 * replicas) sequences as step --chips N splits its batch. */
long long rl_shard_plan_replicas(long long chips, long long one);

/* The decode KV cache's layout under a plan: the one function step (shard),
 * ops and the serving simulator (serve.h) read it from, for time and for
 * memory alike (tester13 #3: under --ep each read it its own way).  A
 * stage's tp * ep chips form `groups` attention groups, each running
 * attention on its 1/groups of the sequences: ep groups of tp chips (the
 * plan "tpT epE" is attention tensor parallel over T chips in E data-
 * parallel groups, as vLLM's --tensor-parallel-size T --data-parallel-size E
 * --enable-expert-parallel: docs.vllm.ai serving/data_parallel_deployment,
 * "data parallel attention can be combined with tensor parallel
 * attention"), or tp * ep groups of one chip when attention is replicated
 * (attention data parallel: SGLang's DP attention, TensorRT-LLM's
 * enable_attention_dp).  Within a group the tp chips split the KV heads
 * over min(tp, K) of them (MLA: 1, its one latent; SGLang's DP-attention
 * guide: "DeepSeek models use MLA and only have one KV head", so TP
 * duplicates the latent on every rank) and the z = tp / heads chips
 * beyond them do as `split` says: replicate (z copies of each token's KV,
 * vLLM's rule when K < TP: "we replicate the KV heads across multiple
 * tensor parallel GPUs", vllm/model_executor/models/deepseek_v2.py), batch
 * or seq (one copy).  Prefill has no split beyond the heads: replicate. */
typedef struct {
    long long groups;  /* attention groups of the stage, each on 1/groups of the sequences */
    long long tp;      /* chips of one group: attention's tensor parallelism */
    long long heads;   /* KV head shards among them: min(tp, K); MLA 1 */
    long long z;       /* chips of a group sharing each KV head shard: tp / heads */
    rl_kv_split split; /* what those z chips do (z = 1: nothing to do) */
    double copies;     /* chips holding each token's KV: z under replicate, else 1 */
} rl_kv_layout;

/* 1 when plan pl runs attention data parallel across its expert groups
 * (--moe-attn replicated with ep > 1, or tp 1 with ep > 1: groups of one
 * chip, the same layout; review finding: `step --tp 1 --ep 8` was named
 * replicate while it ran this): every chip attends to its own sequences
 * with all heads, so --kv-split has nothing to split (at ep 1 --moe-attn
 * replicated leaves attention, and the split, as they were). */
int rl_shard_attn_dp(const rl_shard_plan *pl);

/* Why plan pl (rl_shard_attn_dp) runs attention data parallel, in words:
 * the results' kv_split_source and the note on a --kv-split that does not
 * apply. */
const char *rl_shard_attn_dp_source(const rl_shard_plan *pl);

/* Plan pl's decode (prefill: 0 in `decode`) KV layout for concrete model m
 * (an abstract one: its tp chips as heads, ep groups).  pl is not checked
 * (rl_shard_eval does). */
rl_kv_layout rl_shard_kv_layout(const rl_model *m, const rl_shard_plan *pl, int decode);

#define RL_SHARD_MAX_COLL 10

typedef struct {
    const char *what; /* e.g. "attn out", "MoE dispatch" (a static string) */
    rl_comm c;        /* one occurrence */
    double per_layer; /* occurrences per layer it applies to */
    double count;     /* occurrences per step on the critical path */
    double total_s;   /* count * c.time_s */
} rl_shard_coll;

typedef struct {
    rl_shard_plan plan;
    rl_phase phase;
    long long chips;    /* tp * ep * sp * pp * replicas */
    long long replicas;
    long long batch;    /* B over all replicas */
    long long replica_batch; /* ceil(B / replicas) */
    long long context;  /* S (generation) or prompt length T (prefill) */
    char name[64];      /* e.g. "tp8 kv=batch x2" */
    double weight_bytes; /* stored per chip */
    double kv_bytes;     /* stored per chip */
    double total_bytes;  /* weights + KV per chip */
    int fits;            /* every stage's weights and KV in its room: kv_bytes <= kv_room
                            (pp <= 1: total_bytes <= rl_shard_chip_room) */
    double kv_seq_chip;  /* KV bytes one sequence puts on a chip that holds it */
    long long kv_groups; /* chip groups of a replica holding distinct sequences */
    double stage_w[4];   /* pp > 1: a stage's weights as rl_shard_stage_weights takes
                            them (layered, dense, first, last; bytes a chip) */
    double kv_room;      /* the KV a chip of the busiest-KV stage may hold with every
                            stage in its own room (rl_shard_stage_room); pp <= 1:
                            rl_shard_chip_room less weight_bytes */
    long long kv_stage;  /* the stage whose room binds kv_room (0 for pp <= 1) */
    double flops;        /* per chip per step (pp ticks) */
    double weight_load_s, kv_load_s, compute_s; /* per step: formula (1)'s terms;
                                                   * decode compute_s: the matmuls (kept
                                                   * tensors at rl_dtype_kept's peak) */
    double attention_compute_s; /* per step, decode: the attention FLOP time beyond
                                   kv_load_s (rl_step.attention_compute_s); 0 in prefill,
                                   whose compute_s holds every FLOP */
    double kernel_excess_s; /* per step, of local_s: the calibrated time above those
                               terms (rl_step.kernel_excess_s); 0 from rl_shard_eval */
    int fitted;          /* 1: timed by fitted engine costs (e2e.h rl_e2e_fitted_shard) */
    double tp_excess_s;  /* fitted: of kernel_excess_s, the step less the same step at
                            tp_excess 0 (e2e.c fitted_tp_excess; tester29 F1); else 0 */
    double local_s;      /* per step: formula (1) on one chip, pp ticks (calibrated:
                            the replica's step, kv_load_s + attention_compute_s +
                            max(weight_load_s, compute_s) + kernel_excess_s) */
    double comm_s;       /* per step: sum of the collectives (coll[].total_s) */
    double tick_s;       /* one micro-batch through one stage: local_s / pp plus its
                          * layers' collectives, comm_s less the sends / pp (max with
                          * overlap) */
    double step_s;       /* pp * tick + the pp-1 stage sends (rl_shard_pp_sends): TPOT
                          * (generation) or TTFT (prefill) */
    double table_s;      /* of step_s: ops timed by kernel tables (rl_shard_step_calibrated:
                            rl_step.table_s), else 0 */
    double tokens_per_s; /* all replicas */
    double tokens_per_s_per_chip;
    rl_bound bound;      /* of the local step (step.h rl_step_bound) */
    int latency_bound;   /* collectives whose latency term wins */
    int ncoll;
    rl_shard_coll coll[RL_SHARD_MAX_COLL];
    /* rl_shard_step_calibrated on kernel tables with residuals: step_s's
     * band, the op list's (ops.h band_s: p5, p10, p90, p95) plus comm_s;
     * banded 0 without (and from rl_shard_eval) */
    double band_s[4];
    int banded;
    /* rl_shard_step_calibrated on kernel tables: its op list's operators by
     * provenance of their time (ops.h rl_ops.prov; a pipeline's: its stage's
     * op list), what step's single-chip rows count; all 0 where no engine's
     * kernel tables timed an op list (rl_shard_eval) */
    int prov[RL_PROV_COUNT];
    /* rl_shard_step_calibrated on kernel tables: 1 + its op list's RL_FUSE_*
     * (ops.h rl_ops.norm_fusion: how the step's residual adds and norms ran;
     * a pipeline's: its stage's, the larger micro-batch's); 0 where no op
     * list timed the step */
    int norm_fusion;
} rl_shard_result;

/* The dtype TP/EP collectives move activations in: bf16 (fp32 with an fp32
 * compute dtype) whatever the GEMMs compute in, as engines do with fp8 or
 * int8 matmuls, whose outputs are bf16: vLLM's RowParallelLinear.forward
 * (vllm/model_executor/layers/linear.py) all-reduces the quantized
 * method's output, which its fp8 kernels write in the input activation's
 * dtype (apply_fp8_linear: out_dtype=input.dtype); TensorRT-LLM's fused
 * AllReduceFusionOp RESIDUAL_RMS_NORM_QUANT_FP8 (tensorrt_llm/functional.py,
 * cpp/tensorrt_llm/thop/allreduceOp.cpp) reduces first and quantizes its
 * output to fp8 after the RMSNorm.  TensorRT-LLM's opt-in LOWPRECISION
 * all-reduce strategy is not modelled.  One rule for shard, pareto, step,
 * ops and the serving simulator (tester4 #9: ideal shard sized the tp8
 * AllReduce at fp8's 524288 B, the calibrated step at bf16's 1048576 B). */
rl_dtype rl_shard_moved_dtype(rl_dtype compute);

/* What weights + KV may fill on one chip of plan result r (its
 * weight_bytes, replicas and chips set): rl_memory_usable over one
 * replica's chips / those chips, i.e. the selected engine's memory rule
 * with the plan's stored weights per chip, or hbm_bytes * (1 - hbm_reserve)
 * without one (memory.h).  The one rule step, step --tp, shard, pareto and
 * simulate judge `fits` by (tester15 F-mem-1: plans used the raw HBM).
 * The workspace at the tokens r's step batches (rl_shard_step_tokens at
 * r->batch: a decode row above the engine's budget charges its own, as
 * step's one copy; fixXE). */
double rl_shard_chip_room(const rl_model *m, const rl_hw *h, const rl_shard_result *r);
/* rl_shard_chip_room with the workspace at the rule's own budget (its
 * workspace_tokens), whatever r's batch: step's header's usable_bytes, as
 * the one-copy header gives it (memory.h rl_memory_use at 0 tokens). */
double rl_shard_chip_room_rule(const rl_model *m, const rl_hw *h, const rl_shard_result *r);

/* The tokens one decode forward of r's plan batches on a chip at `batch`
 * sequences (all replicas): a replica's largest micro-batch,
 * ceil(ceil(batch / replicas) / pp), one token a sequence; 0 for a prefill
 * result (the rule's own budget: an engine cuts a prompt to it).  The
 * per-step token budget r's rows charge the activation workspace at
 * (memory.h rl_memory_batch_fit): r->fits, r->kv_room and
 * rl_shard_chip_room at r->batch, rl_shard_max_batch at each batch. */
double rl_shard_step_tokens(const rl_shard_result *r, long long batch);

/* The most sequences (all replicas) plan result r's chips hold at its
 * context: each chip's room beside its weights (r->kv_room: rl_shard_chip_room
 * less weight_bytes; a pipeline's stage by stage, rl_shard_stage_room) over
 * r->kv_seq_chip, times the groups of chips that hold
 * distinct sequences (r->kv_groups) and the replicas; the plan's
 * counterpart of memory.h rl_memory_max_batch (a pipeline's micro-batches
 * unpadded, rl_shard_micro_big: every sequence the room holds, tester34 F11); 0 when not one fits; -1 for a
 * prefill result (a prompt's cache is written, not held).  The room at each
 * batch's own step tokens (rl_shard_step_tokens; memory.h
 * rl_memory_batch_fit, the rule step's one copy follows too). */
long long rl_shard_max_batch(const rl_model *m, const rl_hw *h, const rl_shard_result *r);

/* Evaluate a plan on `chips` chips (a multiple of tp*ep*sp*pp) for `batch`
 * sequences (all replicas) at context / prompt length `context`.  Errors
 * (-1, err names the field): degrees < 1 or not dividing chips; tp not a
 * multiple or divisor of K, or above N; pp not dividing the layers (equal
 * stages, as simulate --pp); ep on a dense model or not dividing
 * E; sp in generation; 2D on an MoE model, or x not dividing tp; missing
 * interconnect fields; and those of rl_step_check.  The local step is
 * formula (1) at h's peaks, so the collectives are the alpha-beta model's at
 * h's link figures (comm.h rl_comm_model_time: ideal mode, no measured
 * rows); rl_shard_collectives reads the rows. */
int rl_shard_eval(const rl_model *m, const rl_hw *h, const rl_shard_plan *plan, rl_phase phase,
                  long long chips, long long batch, long long context, rl_precision p,
                  rl_shard_result *out, char *err, size_t errlen);

/* The pp - 1 stage-to-stage sends of one pass through a pipeline of `pp`
 * stages of `stage_chips` chips each (stage i on chips [i s, (i+1) s)),
 * `bytes` each: a micro-batch's activation goes from each stage to the
 * next once a pass (Megatron-LM's pipeline schedule: Narayanan et al.,
 * "Efficient Large-Scale Language Model Training on GPU Clusters Using
 * Megatron-LM", SC'21, section 2.2; the Scaling Book's "How to
 * Parallelize a Transformer for Training", pipelining).  A boundary whose
 * two stages share a domain (b s not a multiple of domain_chips) sends
 * over the domain's link (comm.h RL_P2P over 2 neighbours), the others
 * over the network (stride domain_chips).  n[0] sends of c[0] inside,
 * n[1] of c[1] across; `peaks`: the alpha-beta model alone
 * (rl_comm_model_time).  0, or -1 with err (no link or network). */
int rl_shard_pp_sends(const rl_hw *h, int peaks, long long stage_chips, long long pp,
                      double bytes, rl_comm c[2], double n[2], char *err, size_t errlen);

/* Pipeline stages that do not divide the layers (issue 14, deployable
 * layouts: Llama-3-70B's 80 layers on pp3, Llama-3-405B's 126 on pp4).
 * The engines place the r = layers % pp extra layers differently:
 * - RL_SPLIT_VLLM: vLLM's split (vllm/distributed/utils.py get_pp_indices,
 *   without VLLM_PP_LAYER_PARTITION): layers / pp each, the remainder one
 *   each to stages pp-2, pp-3, ..., pp-1-r (the stages before the last;
 *   llama3-70b pp3: 27 27 26, llama3-405b pp4: 31 32 32 31; vLLM's
 *   tests/distributed/test_pipeline_partition.py: 5 layers on 3 stages
 *   2 2 1).
 * - RL_SPLIT_TRTLLM: TensorRT-LLM's (tensorrt_llm/mapping.py pp_layers:
 *   torch.tensor_split(torch.arange(num_layers), pp_size)[pp_rank], "If
 *   num_layers % pp_size = n != 0, first n ranks get one extra layer";
 *   without a pp_partition given): the first r stages one more (405b pp4:
 *   32 32 31 31).
 * The sizes are the same, so the pace (the largest stage, ceil(layers /
 * pp): rl_shard_stage_div, rl_shard_stage_scale) is too; the memory is
 * not, since the first stage also holds the embedding and the last the LM
 * head (rl_shard_stage_weights: llama3-70b bf16 pp6, TensorRT-LLM's first
 * stage 14 layers + the embedding is 1.71 GB a chip above vLLM's heaviest)
 * and windowed layers fall on other stages (rl_shard_stage_kv_scale).
 * rl_shard_split_of(h): the one rule choosing it, from h's selected engine
 * (engines.h rl_engines_selected): TensorRT-LLM's for an engine named
 * "trtllm", vLLM's for any other and for none (--engine ideal, a profile
 * without engines: the engine is not known, vLLM's split is taken).
 * rl_shard_stage_layers: the layers of stage s (0-based) of pp over
 * `layers` under `split`. */
enum { RL_SPLIT_VLLM = 0, RL_SPLIT_TRTLLM = 1 };
int rl_shard_split_of(const rl_hw *h);
long long rl_shard_stage_layers(long long layers, long long pp, long long s, int split);

/* layers / the largest stage's layers: the divisor that takes a whole-model
 * quantity (weights, one token's KV, a step's FLOPs and collectives) to
 * the largest stage's; exactly pp when pp divides the layers (abstract
 * models and pp <= 1: pp, at least 1). */
double rl_shard_stage_div(const rl_model *m, long long pp);

/* The weights (bytes a chip) of the heaviest of pp pipeline stages: stage
 * s holds `layered` (the per-layer weights of the whole model, a chip's
 * share of them) x its layers / layers (rl_shard_stage_layers under
 * `split`, rl_shard_split_of), stage 0
 * also `first` (the embedding table) and stage pp-1 `last` (the LM head,
 * its own copy of a tied table, and the final norm), as vLLM builds them
 * (vllm/model_executor/models/llama.py LlamaModel: embed_tokens on the
 * first rank, or on the last too when tie_word_embeddings, else
 * PPMissingLayer; norm and LlamaForCausalLM.lm_head on the last rank
 * only; every model file follows it) and TensorRT-LLM
 * (tensorrt_llm/models/llama/model.py: vocab_embedding on
 * mapping.is_first_pp_rank(), ln_f and lm_head on is_last_pp_rank()).
 * pp <= 1 (one stage holds all) or an abstract model: the sum (tester31 F5:
 * llama3-70b pp16's stage 0 holds 5 layers + the 2.1 GB embedding, not
 * 1/16 of the model).  `dense`: a dense layer's bytes less an MoE layer's
 * for an MoE model with dense layers (the first dense_layers,
 * rl_arch_dense_layer_mlp), else 0: a stage holds its own layers' kinds,
 * so with DeepSeek-V3's 3 dense layers on stage 0 the heaviest of pp4 is
 * stage 2's 16 MoE layers (tester34 F9: the layer share under-stated it
 * 4%).  Every stage is weighed (O(pp)). */
double rl_shard_stage_weights(const rl_model *m, long long pp, int split, double layered,
                              double dense, double first, double last);

/* The KV room of a pipeline's binding stage (tester37 F2, tester35 F2,
 * review36 M2): each stage's chips hold their own weights (w =
 * {layered, dense, first, last} as rl_shard_stage_weights takes them) and their own layers' KV, so a stage s
 * holds x_s / pp of every sequence's KV, x_s = pp x its layers' share of a
 * sequence's KV at `context` tokens (windowed layers capped, as
 * rl_shard_stage_kv_scale; the layer share pp n_s / L when every layer holds
 * the same KV: 1 for equal stages).  Returns min over stages of
 * (room_s - w_s) / x_s, bytes a chip: room_s = what the memory rule leaves a
 * chip of `chips` (one replica's, in stages of chips / pp) holding w_s
 * (memory.h rl_memory_usable_group, as rl_shard_chip_room), times `keep`
 * (1; simulate's and size's 1 - reserve when no engine rule applies).  The
 * binding stage into *stage (may be NULL).  A real engine sizes each
 * rank's cache from its own free memory and the pipeline holds what its
 * fullest rank holds (vLLM V1 vllm/v1/core/kv_cache_utils.py
 * unify_kv_cache_configs: "changes the num_blocks of each worker to the
 * smallest among all workers").  One
 * function for step's and shard's max_batch and fits (times the busiest
 * stage's x, rl_shard_stage_kv_scale), simulate's KV pool and size's
 * (serve.h rl_serve_kv_capacity): llama3-70b bf16 pp7 [11 11 11 12 12 12
 * 11] on H100 binds at a 12-layer stage (max_batch 324), not at stage 0's
 * weights with a 12-layer stage's KV (322).  pp <= 1, an abstract model or
 * pp > layers: room - w (the sum).  budget: the run's per-step token budget
 * the rule's activation workspace is sized at (memory.h
 * rl_memory_usable_group; step's and shard's: a decode micro-batch's tokens,
 * rl_shard_step_tokens, 0 for prefill, the rule's own). */
double rl_shard_stage_room(const rl_model *m, const rl_hw *h, long long chips, long long pp,
                           int split, const double w[4], double context, double keep,
                           double budget, long long *stage);

/* Stage `stage`'s weights on each of its chips (w as rl_shard_stage_room
 * takes them; its layers' share, the embedding on the first and the LM head
 * on the last, rl_shard_stage_weights' rule for one stage): what the
 * binding stage rl_shard_stage_room names holds beside its KV.  The sum
 * when pp <= 1, an abstract model or pp > layers. */
double rl_shard_stage_weight_of(const rl_model *m, long long pp, int split, const double w[4],
                                long long stage);

/* The busiest KV stage of a pipeline (tester32 F6): max over stages of
 * rl_shard_stage_room's x_s, pp x the stage holding the most of a
 * sequence's KV at `context` tokens (ideal view: windowed layers hold
 * min(context, window), arch.h) over the whole model's.  Stages take their
 * layers in order, the engine's split (rl_shard_stage_layers under
 * `split`); a stage's KV is the sum of its own layers'
 * (rl_arch_layer_is_local), so Qwen2's global-first layers
 * (first_sliding_layer) or a window pattern that falls unevenly put more
 * KV on some stages than the layer share.  rl_shard_stage_scale (the
 * largest stage's layer share) whenever every layer holds the same KV (no
 * windowed layer, or context <= window); 1 when pp <= 1, for an abstract
 * model or pp > layers.  The one rule: shard.c's KV held a chip divides a
 * sequence's KV by pp over it (its stage_kv_div, the same loop; fixW
 * merged rl_shard_stage_kv_div into it, results bit for bit unchanged),
 * step's and shard's room multiplies by it, size's pool reads it. */
double rl_shard_stage_kv_scale(const rl_model *m, long long pp, int split, double context);

/* pp x the largest stage's layers / layers (>= 1; exactly 1 with equal
 * stages): the factor by which a pass of pp ticks of the slowest stage (a
 * pipeline runs at its bottleneck stage's pace: PipeDream, Narayanan et al.
 * SOSP'19 section 3.1, partitions to minimise the slowest stage's time;
 * GPipe, Huang et al. NeurIPS'19 section 2.2, balances the partitions'
 * costs for that reason) exceeds the whole model's op list the equal
 * stages sum to.  The sends are not scaled: pp - 1 per pass either way. */
double rl_shard_stage_scale(const rl_model *m, long long pp);

/* The layer-share factor of one pass (a decode round) over `seqs`
 * sequences a replica (seqs < 1: pp): the pass of stages whose times are
 * in proportion to their layers (the whole model's list split by layers;
 * since stop 31 the passes read rl_shard_stage_pass, which puts the
 * embedding and LM head on their own stages, and the ideal plan this
 * factor as the base its per-stage KV rule and g / f scale; cli.c's
 * simulate note reads it at seqs = pp): the pass runs m = min(seqs, pp)
 * micro-batches of at most ceil(seqs / pp) (rl_shard_micro_batch;
 * uneven ones: rl_shard_micro_big) and takes
 * max(the sum of the stage ticks, m ticks of the largest stage) — a
 * micro-batch passes every stage once (the sum: a lone sequence's pass is
 * the whole model's op list, review30 M2), and the largest stage runs all m
 * of them one after another (m = pp: the steady state of PipeDream/GPipe
 * above).  With the stage ticks in proportion to their layers that is
 * max(1, m ceil(L/pp) / L) times the whole model's op list: exactly 1 with
 * equal stages (pp ticks of a stage sum to the model), rl_shard_stage_scale
 * at m = pp, 1 for m <= L / ceil(L/pp).  The sends are not scaled. */
double rl_shard_pass_scale(const rl_model *m, long long pp, long long seqs);

/* The time of one pass over `seqs` sequences (seqs < 1: pp) through pp
 * stages split by `split` (rl_shard_split_of), from the whole model's step
 * on a stage's chips: `whole` seconds (its op list, collectives and
 * engine costs; the sends not included), of which `first` the ops only the
 * first stage runs and `last` those only the last runs (ops.h
 * rl_ops_stage_ends: the embedding gather; the final norm and LM head).
 * Stage s takes t_s = n_s / L x (whole - first - last) (its n_s layers'
 * share of the per-layer ops) plus its own of first and last, and the
 * pass is max(sum of t_s = whole, m x max_s t_s), m = min(seqs, pp)
 * micro-batches (rl_shard_pass_scale's rule: a micro-batch passes every
 * stage once, the slowest stage runs all m one after another and sets the
 * pace: PipeDream, Narayanan et al. SOSP'19 section 3.1; GPipe, Huang et
 * al. NeurIPS'19 section 2.2).  Every pass time reads it: step/shard
 * ideal (its ratio to the ideal op list), calibrated and fitted,
 * simulate's and size's step cost (seqs = pp), Lua through them.
 * Llama-3-70B bf16 pp16 at m = 16: the last stage's 5 layers and the
 * 2.10 GB LM head set the pace, 1.22 x the whole model, not 1 (before
 * stop 31 every stage took the largest stage's layer share of the whole
 * list, the LM head included).  whole when pp <= 1 or m <= 1. */
double rl_shard_stage_pass(const rl_model *m, long long pp, int split, long long seqs,
                           double whole, double first, double last);

/* rl_shard_stage_pass's factor over `whole` for the decode step of bm
 * sequences at `context` on a stage's `chips` chips under `stage` (its
 * 1D tp/ep plan, pp 1) of a pipeline of pp stages: the ends (first,
 * last) read from that step's op list (rl_ops_build; calibrated or
 * ideal; KV copies of the stage's layout, rl_shard_kv_layout), whole the
 * caller's time of the same step (0: the list's step_s plus the stage
 * plan's collectives, rl_shard_collectives, as simulate's steps; < 0: the
 * list's step_s alone, the ideal plan's: rl_shard_eval).  1 when pp <= 1; the layer share rl_shard_pass_scale when the
 * list cannot be built (an abstract model). */
double rl_shard_stage_pass_scale(const rl_model *m, const rl_hw *h, const rl_shard_plan *stage,
                                 long long pp, long long chips, long long bm, long long context,
                                 rl_precision p, int calibrated, long long seqs, double whole);

/* The ticks of the largest stage such a pass lasts: max(L / ceil(L/pp),
 * m) (rl_shard_stage_div, m as rl_shard_pass_scale); exactly pp with equal
 * stages or m = pp. */
double rl_shard_pass_ticks(const rl_model *m, long long pp, long long seqs);

/* The ticks of the largest stage a prefill pass of seqs prompts lasts over
 * pp stages, filling and draining the pipeline: rl_shard_stage_div + m - 1
 * (m as rl_shard_pass_scale; pp + m - 1 with equal stages; 1 for pp <= 1).
 * Generation's steady state keeps every stage busy (rl_shard_pass_ticks). */
double rl_shard_prefill_ticks(const rl_model *m, long long pp, long long seqs);

/* r's per-step time columns (local terms, step_s, tick_s, band) and FLOPs
 * times f, its collectives' counts and times and comm_s times `layers`:
 * the whole-model step of a stage's chips (rl_shard_pp_step_calibrated)
 * made the pass of pp ticks of the slowest stage (f:
 * rl_shard_stage_pass_scale, its layers' share and the ends' own time)
 * whose collectives are its layers' (layers: rl_shard_pass_scale, so the
 * counts stay whole numbers; tester43 F6 read 32.08 AllReduces); local_s
 * takes the rest of f x step_s, so the step is f x the stage step's.
 * f == layers == 1: nothing changes. */
void rl_shard_scale_stages(rl_shard_result *r, double f, double layers);

/* r's per-step time columns, FLOPs and its collectives' bytes and times
 * made w x r's + (1 - w) x lo's (lo: the same plan's pass at micro-batches
 * of one sequence fewer, rl_shard_micro_big); w >= 1: nothing changes. */
void rl_shard_blend_stages(rl_shard_result *r, const rl_shard_result *lo, double w);

/* The micro-batch rule of a pipeline pass over r's replica batch B and pp
 * stages: m = min(B, pp) micro-batches, B / m sequences each, B mod m of
 * them one more, no padding (tester34 F11: every micro-batch was counted
 * at ceil(B / pp), so llama3-8b pp8 at B = 9 read 16 sequences' KV).  vLLM
 * runs pp virtual engines, each scheduling its own share of the requests,
 * a new request to the one with the fewest unfinished (V0
 * LLMEngine.add_request); V1 keeps pp batches in flight
 * (vllm/config/vllm.py max_concurrent_batches: "PP requires PP-size
 * concurrent batches to fill the pipeline"), each of requests not already
 * running, and no sequence is padded into a batch.  That they differ by
 * at most one is this model's assumption (the balanced split the V0
 * routing tends to; TensorRT-LLM not checked).  The fraction of the pass's ticks that run the largest
 * micro-batch, ceil(B / pp) (rl_shard_micro_batch): (B mod m) / m, or 1
 * when they are equal.  A pass of uneven micro-batches is that share of
 * the largest one's pass plus the rest of the pass of one sequence fewer
 * (rl_shard_blend_stages; rl_shard_eval, the calibrated and fitted
 * `step --pp`), and a chip holds the KV of the B sequences. */
double rl_shard_micro_big(const rl_shard_result *r);

/* The bytes of one stage-to-stage send of `rows` token rows: the hidden
 * state and the residual, rows x d_model each, in `moved` (the dtype
 * activations travel in, rl_shard_moved_dtype): vLLM's decoder layers
 * return (hidden_states, residual) and a non-last rank returns both as
 * IntermediateTensors({"hidden_states": ..., "residual": ...}) to the next
 * (vllm/model_executor/models/llama.py LlamaModel.forward; qwen2.py and the
 * other model files alike).  0 for an abstract model.  The one count
 * `step --pp`, shard and simulate read (tester34 F2: step sent one tensor,
 * simulate two). */
double rl_shard_pp_send_bytes(const rl_model *m, double rows, rl_dtype moved);

/* The time of r's stage sends (its RL_P2P rows, rl_shard_pp_sends: the
 * pipeline's P-1 sends a step), seconds; 0 without a pipeline. */
double rl_shard_sends_s(const rl_shard_result *r);

/* The sequences one tick of plan result r runs per replica: a pipeline's
 * micro-batch, ceil(replica_batch / pp) (the replica batch without one).
 * The one view of a pipeline step: rl_shard_eval's ticks, the calibrated
 * and fitted passes of `step --pp` (rl_shard_pp_step_calibrated,
 * e2e.h rl_e2e_fitted_shard) and `simulate --pp`'s P streams, each with
 * its own batch (tester28 F2: calibrated and fitted ran the whole batch
 * through every tick, pp times the plan's KV, FLOPs and collectives). */
long long rl_shard_micro_batch(const rl_shard_result *r);

/* A step of B sequences over replicas runs ceil(B / replicas) on some
 * replicas and floor(B / replicas) on the rest; the step is the slowest
 * replica's (fixUE #2: only the larger share was timed, yet a measured
 * kernel table can time the smaller one slower: llama3-8b tp8 x2 on H100,
 * batch 5 runs 3 + 2 and the 2-sequence replica's masked MHA takes 1.809
 * ms against 1.630 ms at 3).  r is the plan timed at B (the larger share),
 * lo the same plan timed at floor(B / replicas) x replicas (every replica
 * the smaller share).  When lo's step is longer, r takes lo's times, terms,
 * collectives and band (the slowest replica's) and keeps its own batch, its
 * memory (the fullest chip: weight and KV bytes, fits, KV room) and its
 * replica_batch, tokens_per_s the whole batch over that step.  Generation. */
void rl_shard_slowest_share(rl_shard_result *r, const rl_shard_result *lo);

/* A 1D pipeline plan (pp > 1) on a measured chip timed as simulate times
 * its replicas: the stages' calibrated step (rl_shard_step_calibrated of
 * the plan at pp 1 over chips / pp) on one micro-batch per replica, made
 * the pass (rl_shard_pass_scale; uneven micro-batches rl_shard_micro_big),
 * plus the stage sends of rl_shard_eval's plan, whose memory and name *s
 * keeps (shard.c says more).  `step --pp` and pareto/sweep (tester34 F14:
 * pareto left every pipeline out as untimed) read it.  0, or -1 with err. */
int rl_shard_pp_step_calibrated(const rl_model *m, const rl_hw *h, const rl_shard_plan *plan,
                                long long chips, long long batch, long long context,
                                rl_precision p, rl_shard_result *s, char *err, size_t errlen);

/* The collectives of one step of `plan` (one replica: tp*ep*sp*pp chips;
 * 2D's x resolved as in rl_shard_eval) over `tokens` token rows of
 * activations in p.compute's dtype (callers pass the dtype activations
 * travel in), into out's
 * coll, ncoll, comm_s and latency_bound (the rest of *out zero but plan,
 * phase, chips and replicas = 1).  For the operator list (ops.h).  Errors as
 * rl_shard_eval's plan checks and interconnect fields. */
int rl_shard_collectives(const rl_model *m, const rl_hw *h, const rl_shard_plan *plan,
                         rl_phase phase, double tokens, rl_precision p, rl_shard_result *out,
                         char *err, size_t errlen);

/* The decode step of a 1D TP/EP plan in calibrated mode: each replica of
 * tp*ep chips runs rl_step_calibrated (step.h: formula (1) over its chips
 * under h's efficiency tables, or ideal when h has none) on its share of the
 * batch, ceil(batch / replicas), plus the plan's collectives over those
 * rows (rl_shard_collectives; comm.h, measured where h has them) added to
 * step_s (st->comm_s).  The collectives move rl_shard_moved_dtype
 * activations, as rl_shard_eval's do.  Throughput counts all `batch` sequences over
 * `chips`.  *coll gets the collectives, the plan's name and the per-chip
 * view rl_shard_eval gives (bytes, FLOPs, the terms, local, step and
 * throughput; abstract models count FLOPs by totals).  Errors (-1):
 * sp, pp or 2D (not modelled here: rl_shard_eval), chips not a multiple of
 * tp*ep, and those of rl_shard_collectives. */
int rl_shard_step_calibrated(const rl_model *m, const rl_hw *h, const rl_shard_plan *plan,
                             long long chips, long long batch, long long context, rl_precision p,
                             rl_step *st, rl_shard_result *coll, char *err, size_t errlen);

/* Candidate plans for `chips` chips and a phase: tp over powers of two (with
 * the remaining chips as replicas), 2D for dense models, the KV splits when
 * tp > K, ep over divisors of E for MoE, sp in prefill, and for each tp
 * below `chips` a pipeline of chips / tp stages (at most 16) that fills the
 * chips, tp1 included (a pure pipeline: tester32 F4).  Writes up to `cap` results (plans that fail to evaluate are
 * skipped) and returns how many.  *best_latency / *best_throughput index
 * the fitting result with the least step_s / most tokens_per_s_per_chip
 * (ties within 0.1% go to the least HBM per chip; -1 if none fits). */
int rl_shard_compare(const rl_model *m, const rl_hw *h, rl_phase phase, long long chips,
                     long long batch, long long context, rl_precision p, int overlap,
                     rl_shard_result *out, int cap, int *best_latency, int *best_throughput);

/* rl_shard_compare, counting the plans that failed to evaluate in *dropped
 * and the first one's reason (its name, then the error) in why (tester60
 * #2: an ici_bw of 0 dropped every multi-chip plan without a word). */
int rl_shard_compare_why(const rl_model *m, const rl_hw *h, rl_phase phase, long long chips,
                         long long batch, long long context, rl_precision p, int overlap,
                         rl_shard_result *out, int cap, int *best_latency, int *best_throughput,
                         int *dropped, char *why, size_t whylen);

/* Limits the chapter derives (seed 000 section 3 and Appendices B, C).
 * A limit that does not exist is NAN (JSON null), never 0 (review of stop
 * 38: --set hw.ici_bw=0 printed a W_ici of 0, a TP bound of 0 chips and a
 * 0 s MLP communication time): without a link (ici_bw or ici_links 0) the
 * link's figures, every bound and time that divides by them, and the 1D/2D
 * crossover, which compares two communication times (tester62 #4); over one
 * chip, which communicates nothing, the MLP communication times and the
 * latency threshold; for an abstract model (no d_model, d_ff) every figure
 * of its shapes; a bound over a peak of 0 FLOP/s at the compute dtype.
 * `why` says which and why ("" when every limit has a value). */
typedef struct {
    double w_ici;            /* bytes/s an AllGather moves per second on one axis
                                (bidirectional ring: 2 * ici_bw; switch: links * ici_bw) */
    double prefill_tp_max;   /* 2 F W_ici / (peak bytes(act)): F W_ici / peak = ~F / 2200
                                on v5e in bf16 (sec. 3, Prefill) */
    double beta;             /* W_hbm / W_ici */
    double generate_tp_max;  /* F / (B beta) (sec. 3, Generation), times
                                bytes(weights) / bytes(act) off bf16/bf16 */
    double crossover_2d;     /* chips beyond which 2D beats 1D: 18 F / D (App. B) */
    double t_1d_s;           /* 4 B D / (3 W_ici): 1D MLP comm on a 3D torus (App. B) */
    double t_2d_s;           /* sqrt(128 (F/4D)) B D / (sqrt(chips) W_ici) at the optimum */
    double latency_bytes;    /* Appendix C threshold: the largest AllReduce over the
                                chips the alpha-beta model times latency-bound (comm.h
                                rl_comm_latency_threshold) */
    double activation_bytes; /* B * D * bytes(rl_shard_moved_dtype): one [B, D]
                                activation, as the rows' collectives move it */
    int activation_latency_bound; /* that activation's AllReduce over the chips, timed
                                     as shard's rows (rl_comm_model_time), by comm.h
                                     rl_comm_is_latency_bound; -1: no threshold or
                                     activation (NAN) */
    double activation_latency_s, activation_bandwidth_s; /* its two terms (NAN: none) */
    long long chips;         /* the chips that AllReduce spans */
    double weight_bytes, act_bytes; /* bytes a weight and a moved activation value: the
                                       factor w/a the advice names when it is not 1 (fixVE
                                       #2: fp8 weights halved F/(B beta) unsaid) */
    char why[256];           /* why the NAN limits have no value; "" when none is NAN */
} rl_shard_limits;

/* Limits for batch B (tokens in flight) on `chips` chips (tp group for the
 * latency threshold).  Activations in rl_shard_moved_dtype, the dtype the
 * timed collectives move (bf16 under fp8 or int8 matmuls: the engines
 * all-reduce 16-bit activations and quantize after the norm; until fixNF
 * the compute dtype, the chapter's Appendix C int8 activations, which
 * halved activation_bytes beside the rows' bf16 AllReduces); t_1d_s, t_2d_s
 * and crossover_2d are the chapter's bf16 closed forms. */
rl_shard_limits rl_shard_limits_of(const rl_model *m, const rl_hw *h, long long chips,
                                   long long batch, rl_precision p);

/* The TP x PP plan `step --chips N` runs without one (cli.c; tester47 F2,
 * F3, F12, tester46 F9).  Candidates: tp a divisor of `chips` that stays
 * inside one NVLink/ICI domain (h's domain_chips; engines keep TP inside a
 * node) and splits the heads evenly (N divisible by it; for GQA/MHA a
 * divisor or multiple of K); pp a divisor of chips / tp (at most the
 * layers); the rest of the chips replicas.  Each is evaluated as `step
 * --tp T --pp P` judges `fits` (rl_shard_eval, generation, batch 1 at
 * `context`: every stage's weights in its own room, rl_shard_stage_room,
 * kv_room > 0).  The rule: the fewest pipeline stages whose plan fits,
 * ties to the widest TP (the fewest replicas; inside a domain the fastest
 * batch-1 step, today's tp8 on 8 H100).  When none fits: `nearest`, the
 * candidate with the most KV room (the least short; within 1% of a chip's HBM, or of
 * the shortfall where that is larger, of it the earlier in the order above, fewer
 * stages then wider TP), fits 0, and
 * `r` is it (timed and printed with fits false, exit 0, as an explicit
 * plan that does not fit; tester48b F1: the widest TP at pp 1 was timed,
 * tp1 x 3 replicas on 3 chips for llama3-405b, while tp1 x pp3 was
 * named).  `base` gives the plan's other fields (KV split);
 * tp, ep, pp are set.  -1 (err "tpT: ...") when a plan at pp 1 does not
 * evaluate (the chips' own error: a link at 0 B/s); a pipeline that does
 * not (more stages than the model takes) is skipped. */
typedef struct {
    long long tp, pp, replicas; /* the plan: replicas of tp x pp chips */
    int fits;                   /* its heaviest stage holds its weights (kv_room > 0) */
    rl_shard_result r;          /* the plan's evaluation (batch 1) */
    rl_shard_result widest;     /* the widest TP at pp 1: what "fits" is short of */
    rl_shard_result nearest;    /* none fits: the candidate with the most kv_room */
    int candidates;             /* plans evaluated */
} rl_shard_auto;

int rl_shard_auto_plan(const rl_model *m, const rl_hw *h, const rl_shard_plan *base,
                       long long chips, long long context, rl_precision p, rl_shard_auto *out,
                       char *err, size_t errlen);

/* The tensor-parallel degree `ops --chips N` and `prefill --chips N` run
 * without a plan (and Lua's roofline.ops / roofline.prefill with chips),
 * one replica of it timed: step's automatic plan (rl_shard_auto_plan, a
 * default base, judged at `context`) when it has no pipeline stages,
 * fitting or, none fitting, the nearest (issue 14: ops and prefill took
 * the widest TP alone, rl_shard_tp_over, removed, while step searched
 * TP x PP, so --chips 16 for llama3-405b on H100 timed tp8 x 2 replicas,
 * 101.5 GB a chip, where step runs tp8 x pp2).  0 with the reason in err when that plan has
 * stages (ops and prefill time none: it names the plan and the step and
 * --tp flags) or does not evaluate; *a the plan either way. */
long long rl_shard_replica_tp(const rl_model *m, const rl_hw *h, long long chips,
                              long long context, rl_precision p, rl_shard_auto *a, char *err,
                              size_t errlen);

const char *rl_phase_name(rl_phase ph);
const char *rl_kv_split_name(rl_kv_split k);
/* "1d" / "2d" / "replicate" / "batch" / "seq"; return 0 or -1. */
int rl_layout_parse(const char *s, rl_layout *out);
int rl_kv_split_parse(const char *s, rl_kv_split *out);

#endif
