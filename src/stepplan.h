/* stepplan.h — `step --chips N` without a plan: each batch's fastest plan.
 *
 * Owns the rule a capacity planner answers "how fast do N chips step this
 * batch?" by (fixUE #1: the widest tensor parallelism dividing N was timed
 * whatever its step, so 32 TPU v5p read slower than 16 for llama3-8b at
 * batch 64, and 10 H100s ran llama3-70b as tp2 x5 at twice tp8's step).
 * For each batch B the candidates are tp T x pp P times R replicas on
 * R T P <= N chips, the N - R T P chips left over idle (idle_chips;
 * tokens_per_s_per_chip still divides by all N), so T need not divide N:
 *  - T inside one NVLink/ICI domain that splits the heads (shard.h
 *    rl_shard_tp_check, the plan check's rule), each T from 1;
 *  - R from min(B, floor(N / T)) down to 1 (fixWB #1: from floor(N / T),
 *    and a replica past the batch's holds no sequence at the same step, so
 *    the tie to the more replicas ran 64 H100s at batch 1 as tp8 x8, 7
 *    replicas idle; now tp8, 56 chips idle; fixVA #2: the most replicas were the
 *    only R, but a replica's step is not monotone in its share of the
 *    batch: llama3-8b on H100 at tp8, masked MHA, a share of 2 takes
 *    1.809 ms and of 4 1.749 (XQA), so 32 chips at batch 8 ran tp8 x4 at
 *    4422 tokens/s where 16 ran tp8 x2 at 4575, and at batch 9 tp8 x4,
 *    shares 3 + 2 + 2 + 2, 1.809 ms, where tp8 x3 on 24 takes 1.630,
 *    now 32's plan); R counts that give the
 *    replicas the same shares (ceil(B / R), floor(B / R)) time the same
 *    step and are timed once, at the most replicas;
 *  - P the fewest stages whose row fits at T and R, from 1 while R T P
 *    <= N (fixVA #1: P was rl_shard_auto_plan's one P over all N chips
 *    for every T, so tp8 pp1 was never a candidate on 9 H100s and
 *    llama3-70b ran tp2 pp3 at 26.97 ms where 8 ran tp8 at 9.21): R walks
 *    down at the fewest P that fits, P moving up only where fewer
 *    replicas no longer fit, so every plan of fewer chips at its fewest
 *    stages stays a candidate and more chips never read a slower step;
 *  - and the deeper pipelines, P above the first that fits up to B, each
 *    at the most replicas it leaves: a pipeline runs min(share, P)
 *    micro-batches (shard.h rl_shard_stage_pass), so a deeper one can step
 *    a batch faster (deepseek-v3 bf16 at batch 8: tp8 pp4 10.26 ms, tp8
 *    pp3 11.83), and beyond the batch more stages only add sends; and at
 *    fewer replicas, one a share, while the fullest micro-batch holds at
 *    most 4 sequences, 64 such a T (stepplan.c DEEP_MICRO; fixWB #2: only
 *    the most were timed, so 48 H100s ran llama3-8b at batch 10 as tp8 x3,
 *    1.749 ms, where one tp8 pp3 on 24 takes 1.681 with micro-batches 4 +
 *    3 + 3, and 64 H100s read 1.749 ms at batch 8 where 32 read 1.702).
 * The walk stops at a T's first fitting P for the fewer replicas, so a
 * search times some tens to a thousand candidates (llama3-8b on 1024
 * H100s at batch 4096: 569, about 0.05 s).
 * Each is timed as `step --tp T --pp P --chips R T P` times it (result.h
 * rl_result_step_sharded: calibrated or estimated, the slowest replica's
 * share).  The rule: of the rows that fit, the shortest step_s, ties
 * (within 1e-9) to the fewer TP, then the more replicas (at one step the
 * more replicas hold the more KV room), never more than the batch fills:
 * no plan leaves a replica idle, the chips past its replicas idle.  A batch no candidate
 * fits runs the nearest, the candidate with the least memory over its
 * usable room a chip (weight_bytes_per_chip + kv_bytes_per_chip -
 * usable_bytes_per_chip, its row's), ties to the first met (fixVA #3: it
 * was the automatic plan, tp64 on 64 TPU v5e at 42.9 GB of KV a chip for
 * llama3-70b at batch 512), fits false; when no plan holds the weights
 * (a->fits 0) every row runs the automatic plan, its own nearest.
 * Uses shard, result, cJSON. */
#ifndef RL_STEPPLAN_H
#define RL_STEPPLAN_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "arch.h"
#include "shard.h"
#include "spec.h"

/* The plan one batch runs: tp x pp times replicas on chips (<= N). */
typedef struct {
    long long tp, pp, replicas, chips;
    int fits;          /* the row fits (0: the nearest, none fits) */
    double step_s;     /* its step */
    double over_bytes; /* fits 0: its weights + KV a chip over its usable room
                          (0 for the automatic plan none fitting) */
} rl_step_choice;

/* The timings of a sweep's candidates (stepplan.c timed), so a batch list
 * or a sweep times each (tp, pp, shares of the batch, context, ...) once:
 * at batches 1..1024 on 8 and 128 H100s pareto's step plans timed every
 * candidate of every batch, 15 s where it ran 0.9 before them (fixXF).
 * Keyed by all its timing depends on (the model and chip by address, the
 * plan, the context, the precision, the replicas' shares), so one memo
 * may serve several; owned by its caller, one a thread, freed with
 * rl_step_memo_free (NULL: nothing).  rl_step_memo_new returns NULL out of
 * memory, and a NULL memo times every candidate. */
typedef struct rl_step_memo rl_step_memo;
rl_step_memo *rl_step_memo_new(void);
void rl_step_memo_free(rl_step_memo *memo);

/* Each batch[i]'s plan over `chips` chips (above) into choice[i] (nbatch
 * of them; one memo over the list); `a` the automatic plan over the chips (rl_shard_auto_plan with
 * `base`, which gives the other plan fields, the KV split). */
void rl_step_plan_choose(const rl_model *m, const rl_hw *h, const rl_shard_plan *base,
                         const rl_shard_auto *a, long long chips, const long long *batch,
                         int nbatch, long long context, rl_precision p, rl_step_choice *choice);

/* Batch `batch`'s plan over `chips` chips (rl_step_plan_choose with
 * rl_shard_auto_plan's plan from `base`), of at most max_pp stages when
 * max_pp > 0 (choice->fits 0: none of so few holds it), into *choice, for
 * ops in decode (fixWB #3: it took the automatic plan where step --chips
 * N ran another).  0 (where no candidate evaluates, *choice is the
 * automatic plan with fits 0, as choose leaves it), or 1 when no plan
 * holds the weights (the caller keeps the automatic plan, its nearest or
 * its error).  memo: the timings met before and kept (NULL: none). */
int rl_step_plan_one(const rl_model *m, const rl_hw *h, const rl_shard_plan *base,
                     long long chips, long long batch, long long context, rl_precision p,
                     long long max_pp, rl_step_memo *memo, rl_step_choice *choice);

/* The plan ops --chips N (cli.c) and roofline.ops (lua_api.c) time batch
 * `batch` on in decode, one choice for both front ends (fixWB #3): step's
 * (rl_step_plan_one) into *step, and *run the plan they time: step's, or,
 * where it has pipeline stages, which ops does not time, the fastest plan
 * without them (max_pp 1).  1 when no plan holds the weights (the caller
 * keeps the automatic plan), -1 when step's plan has stages and no plan
 * without them holds the batch (refused: *step names step's plan), else
 * 0. */
int rl_step_plan_ops(const rl_model *m, const rl_hw *h, const rl_shard_plan *base,
                     long long chips, long long batch, long long context, rl_precision p,
                     rl_step_choice *step, rl_step_choice *run);

/* step's result over `chips` chips with each batch[i] on plan choice[i]
 * (rl_step_plan_choose's).  Rows keep batch order; each names its plan
 * (strategy, as sharding too, tp, pp, replicas) and carries idle_chips and its plan's
 * comm_buffer_bytes and workspace_bytes; the header (sharding, replicas,
 * max_batch, the memory keys, e2e_gap_note, quoted at one TP, which says
 * so when rows run several plans) is the first row's plan over all N
 * chips, outside_tables every plan's rows (each plan's text after its
 * name when there are several), and plan_choice states the rule.  NULL
 * with err set when the plan of a row does not evaluate (NULL, err ""
 * when out of memory). */
cJSON *rl_step_plan_result(const rl_model *m, const rl_hw *h, const rl_shard_plan *base,
                           const rl_shard_auto *a, long long chips, const long long *batch,
                           int nbatch, long long context, rl_precision p,
                           const rl_step_choice *choice, char *err, size_t errlen);

/* Both: choice[] chosen, then the result. */
cJSON *rl_step_plan_rows(const rl_model *m, const rl_hw *h, const rl_shard_plan *base,
                         const rl_shard_auto *a, long long chips, const long long *batch,
                         int nbatch, long long context, rl_precision p, rl_step_choice *choice,
                         char *err, size_t errlen);

#endif
