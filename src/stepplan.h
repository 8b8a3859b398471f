/* stepplan.h — `step --chips N` without a plan: each batch's fastest plan.
 *
 * Owns the rule a capacity planner answers "how fast do N chips step this
 * batch?" by (fixUE #1: the widest tensor parallelism dividing N was timed
 * whatever its step, so 32 TPU v5p read slower than 16 for llama3-8b at
 * batch 64, and 10 H100s ran llama3-70b as tp2 x5 at twice tp8's step).
 * For each batch B the candidates are tp T x pp P times R replicas on
 * R T P <= N chips: T inside one NVLink/ICI domain that splits the heads
 * (shard.h rl_shard_tp_check, the plan check's rule), P the stages of
 * rl_shard_auto_plan (the fewest whose heaviest holds its weights: more
 * stages never shorten a decode step, they add stage sends), and R =
 * floor(N / (T P)), the most replicas (more replicas only shrink each
 * one's share), so T need not divide N: the N - R T P chips left over
 * idle (idle_chips; tokens_per_s_per_chip still divides by all N).  Each is
 * timed as `step --tp T --pp P --chips R T P` times it (result.h
 * rl_result_step_sharded: calibrated or estimated, the slowest replica's
 * share); the plan whose row fits with the shortest step_s is the row's,
 * ties (within 1e-9) to the fewer TP.  A batch no candidate fits runs the
 * automatic plan over all N chips (rl_shard_auto_plan's), fits false.
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
    int fits;      /* the row fits (0: the automatic plan, none fit) */
    double step_s; /* its step */
} rl_step_choice;

/* step's result over `chips` chips for each batch[i] on its fastest plan
 * (above), choice[i] (nbatch of them) each row's; `a` the automatic plan
 * over the chips (rl_shard_auto_plan with `base`, which gives the other
 * plan fields, the KV split).  Rows keep batch order; each names its plan
 * (strategy) and carries idle_chips; the header (sharding, replicas,
 * max_batch, the memory keys) is the first row's plan over all N chips,
 * and plan_choice states the rule.  NULL with err set when the plan of a
 * row does not evaluate (NULL, err "" when out of memory). */
cJSON *rl_step_plan_rows(const rl_model *m, const rl_hw *h, const rl_shard_plan *base,
                         const rl_shard_auto *a, long long chips, const long long *batch,
                         int nbatch, long long context, rl_precision p, rl_step_choice *choice,
                         char *err, size_t errlen);

#endif
