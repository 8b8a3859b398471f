/* memory.h — HBM footprint: weights, KV cache, fit and the largest batch.
 *
 * Owns the memory side of capacity planning for B sequences at context S
 * over `chips` chips holding one fully sharded copy.  Uses arch, spec,
 * dtype.  Source: seed 000 section 1 "What about memory?" (weights + KV) and
 * section 5 problem 2 (max batch = (HBM - weights) / KV per sequence). */
#ifndef RL_MEMORY_H
#define RL_MEMORY_H

#include <stddef.h>

#include "arch.h"
#include "dtype.h"
#include "spec.h"

typedef struct {
    double weight_bytes;   /* all parameters, bytes(weights) each */
    double hbm_bytes;      /* chips * hbm_bytes, as the vendor states it */
    double kv_bytes;       /* B * KV bytes of a sequence at S (windowed layers capped
                            * at W: rl_arch_kv_bytes_per_sequence, ideal view) */
    double total_bytes;    /* weights + KV (activations are negligible in decode) */
    double capacity_bytes; /* what weights + KV may use: chips * hbm_bytes, or with
                            * the selected engine's memory rule (engines.h) what
                            * that engine leaves them: below */
    /* The selected engine's rule (0 and fraction 1 without one), all chips:
     * fraction of hbm_bytes (or of the free memory), CUDA context,
     * collective buffers (chips > 1) and activation workspace. */
    int engine_memory;
    double engine_fraction, context_bytes, comm_bytes, workspace_bytes;
    int fits;              /* total <= capacity */
} rl_memory;

/* With an engine selected whose profile has a memory rule (engines.h), per
 * chip: overhead = context + workspace (rl_memory_workspace of model m over
 * the group) + (chips > 1 ? comm buffers : 0);
 * "capacity" (vLLM): capacity = fraction * hbm_bytes - overhead;
 * "free" (TensorRT-LLM): capacity = w + fraction * (hbm_bytes - w - overhead),
 * w the weights per chip (hbm_bytes - overhead when the weights leave no free
 * memory); never below 0.  Without one (ideal mode, or no
 * rule): capacity = hbm_bytes, seed 000's rule. */
/* What weights + KV may use on `chips` chips holding weight_bytes of
 * weights in all (the rule above; chips * hbm_bytes without one). */
double rl_memory_usable(const rl_hw *h, const rl_model *m, long long chips, double weight_bytes);

/* Bytes of one activation element in an engine's workspace: 16-bit, the
 * dtype engines keep the residual stream and GEMM outputs in (fp8 GEMMs
 * quantize their inputs and write bf16). */
#define RL_MEMORY_ACT_BYTES 2.0

/* The activation workspace rule g charges each chip of a group of `group`
 * chips sharing model m's tensors (TP, EP): the larger of g's model-free
 * workspace_bytes and s x T x (D + ((N + 2K) H + 2 F_active + R) / group)
 * x 2 bytes, s = g->workspace_scale (engines.h: 1 for trtllm, a floor;
 * vLLM's 2.1221 anchors Llama-3-8B at its measured 1.26 GiB), R = top_k x
 * D the routed copies of a MoE layer (0 dense; under
 * expert parallelism each rank receives the copies its experts take, T x
 * top_k / group on average; under MoE tensor parallelism every rank holds
 * all of them, so there this is a lower bound),
 * T = max(g->workspace_tokens, budget) where g sizes its workspace by
 * tokens (workspace_tokens > 0: trtllm, vllm), the engine's default batched-token
 * limit raised to the run's per-step token budget (simulate's --max-tokens:
 * continuous's tokens a step, chunked's chunk; size's policy budget; 0:
 * none): an engine built for more batched tokens reserves more activation
 * memory (TensorRT-LLM docs/source/reference/memory.md: activation size is
 * "max number of input tokens * some constant factor", one block's
 * tensors, smaller per rank under TP; trtllm-serve --max_num_tokens), so
 * this is the layer working set of rl_memory_activation_bytes at T tokens,
 * its per-head and MLP tensors split over the group.  A rule whose
 * workspace_tokens is 0 (written so) ignores the budget; a memory block
 * that omits it takes its engine's default when read (engines.c
 * engine_key; for vLLM the 8192 of a GPU of 70 GiB or more, whatever the
 * chip: the block is read before its chip is known).  workspace_bytes alone where
 * T is 0, m is NULL or abstract; 0 without g.  The budget is the query's, never written into the profile
 * (an rl_hw is shared by size's search threads).
 * deepseek-v3 under trtllm (T 8192) at TP8: 8192 x (7168 + (384 x 192 +
 * 2 x 9 x 2048 + 8 x 7168) / 8) x 2 = 461,373,440 bytes a chip (343,932,928
 * before the routed copies were counted, fixJL). */
double rl_memory_workspace(const rl_model *m, const rl_engine_memory *g, long long group,
                           double budget);

/* Whether a per-step token budget moves h's selected engine's workspace
 * (rl_memory_workspace: its rule sizes by tokens and the budget is above
 * the rule's own workspace_tokens), so a query at that budget differs from
 * one at 0. */
int rl_memory_budget_moves(const rl_hw *h, double budget);

/* rl_memory_usable with the collective buffers charged only when `group`
 * (the chips of one pipeline stage, which share its TP/EP/SP collectives)
 * is > 1: the rule's sources key them by TP size (vLLM PR 10511 measured
 * TP1 against TP2; NVIDIA AIConfigurator's backends read
 * misc.nccl_mem[min(tp_size, 8)], pp_size not used, nccl_mem[1] = 0), so a
 * pipeline of one-chip stages has none (tester32 F5).  Its stage-to-stage
 * sends' NCCL P2P buffers (NCCL_BUFFSIZE, 4 MiB a channel and peer by
 * default) are not modelled.  The activation workspace at the run's
 * per-step token budget (rl_memory_workspace; 0: the rule's own).
 * rl_memory_usable is group = chips, budget 0. */
double rl_memory_usable_group(const rl_hw *h, const rl_model *m, long long chips,
                              long long group, double weight_bytes, double budget);

/* The collective buffers a chip is charged in a stage of `group` chips by
 * that rule: the selected engine's comm_bytes when group > 1, else 0 (no
 * rule: 0).  What step's header prints as comm_buffer_bytes for a plan
 * (tester39 F11: it printed the rule's figure at TP 1, uncharged). */
double rl_memory_comm_charged(const rl_hw *h, long long group);

/* step's default --hbm-reserve on h (rl_hw.hbm_reserve): `simulate_reserve`
 * (simulate's and size's default, param.c) where a serving engine without
 * a memory rule is selected (one `roofline fit` wrote), so step and
 * simulate size the same KV room on it (tester59 #6); 0, seed 000's whole
 * HBM, in ideal mode, without engines, and where a rule applies (it sets
 * the room itself).  The CLI's and Lua's step both take it. */
double rl_memory_step_reserve(const rl_model *m, const rl_hw *h, double simulate_reserve);

rl_memory rl_memory_use(const rl_model *m, const rl_hw *h, long long chips, long long batch,
                        long long context, rl_dtype weights, rl_dtype kv);
/* rl_memory_use with m's counts given (c = rl_arch_counts_of(m)) and the
 * step's batched tokens (`tokens`; rl_memory_use: 0, the rule's own): the
 * capacity and workspace_bytes are the rule's at that per-step token
 * budget (rl_memory_usable_group, rl_memory_workspace), so a decode step
 * of B sequences above the engine's default budget (trtllm's and vLLM's
 * 8192) is judged against the workspace an engine built for B batched
 * tokens reserves (TensorRT-LLM reference/memory.md: activation memory is
 * "max number of input tokens * some constant factor"), not the 8192
 * tokens' (fixWD finding 1b: step --batch 400000 --context 1 on llama3-8b
 * read fits true beside a 0.64 GB workspace; at 400000 tokens it is 31 GB). */
rl_memory rl_memory_use_counts(const rl_model *m, const rl_arch_counts *c, const rl_hw *h,
                               long long chips, long long batch, long long context,
                               rl_dtype weights, rl_dtype kv, double tokens);

/* Byte counts are doubles, exact for integers up to 2^53 (9.007e15 bytes,
 * about 9 PB).  Nothing here wraps; a configuration whose KV cache would pass
 * that is refused rather than rounded. */
#define RL_EXACT_MAX 9007199254740992.0 /* 2^53 */

/* Check that B * S * KV bytes per token (kv dtype) is at most 2^53 bytes for
 * the largest B of batch[nbatch], so rl_memory_use counts it exactly.  Returns
 * 0, or -1 with err naming batch and context.  Call it before rl_memory_use /
 * step with the batches about to be evaluated. */
int rl_memory_check_exact(const rl_model *m, const long long *batch, int nbatch, long long context,
                          rl_dtype kv, char *err, size_t errlen);

/* Largest B whose weights + B * S * KV fit in chips * hbm_bytes:
 * floor((capacity - weights) / (S * kv_per_token)); 0 if even the weights do
 * not fit; at most RL_MAX_BATCH.  Above the engine rule's workspace_tokens
 * the capacity is the one at a budget of B tokens (rl_memory_use_counts),
 * so the largest B that fits there.  Problem 2: 16 x 16e9 B, int8, S = 128,000 -> 7 (K = 1: 56). */
/* The largest batch the tool reasons about (the CLI's --batch limit too);
 * rl_memory_max_batch saturates here rather than overflow. */
#define RL_MAX_BATCH 1e9

long long rl_memory_max_batch(const rl_model *m, const rl_hw *h, long long chips, long long context,
                              rl_dtype weights, rl_dtype kv);

/* The largest decode batch B <= hi that fits when a step of B sequences
 * batches its B tokens (one a sequence) and so charges the engine rule's
 * activation workspace at T = max(workspace_tokens, its tokens)
 * (rl_memory_workspace; an engine runs a step above its default budget,
 * vLLM's max_num_batched_tokens, TensorRT-LLM's max_num_tokens, only when
 * built for that many tokens, and then reserves their workspace).  hi: the
 * largest that fits at the rule's own workspace_tokens, hi_tokens the
 * tokens a step of hi batches on a chip's group (a plan's: a replica's
 * micro-batch); fits(ctx, B) whether B fits with the workspace at its own
 * step's tokens, monotone (the room falls as B grows).  hi where that
 * budget does not move the workspace (rl_memory_budget_moves) or hi fits,
 * else the largest B that fits, by bisection; 0 for hi <= 0.  The one rule
 * for every decode row's max_batch: step's one copy (rl_memory_max_batch)
 * and a plan's (shard.h rl_shard_max_batch: step --tp/--pp, step --chips'
 * plans, shard), so one plan reads one max_batch whichever path asks
 * (fixXE: step --tp 1 and shard --chips 1 read llama3-8b's 475,167 on an
 * h100-sxm at context 1 beside step's 312,534). */
long long rl_memory_batch_fit(const rl_hw *h, long long hi, double hi_tokens,
                              int (*fits)(const void *ctx, long long B), const void *ctx);

/* Live activation bytes of one decode step of B tokens, all chips together:
 * the larger of one layer's working set, B * (D + (N + 2K) * H + 2 * F_active
 * + R) elements in the compute dtype (residual, Q/K/V, the two MLP inputs of
 * the active experts, R = top_k x D routed copies in a MoE layer, 0 dense),
 * and the logits B * V in fp32.  Our estimate, not the
 * book's: the chapter treats decode activations as negligible (seed 000
 * section 1 "What about memory?"); drawn in the memory figure to show it.
 * 0 for abstract models. */
double rl_memory_activation_bytes(const rl_model *m, long long batch, rl_dtype compute);

#endif
