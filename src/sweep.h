/* sweep.h — design-space sweeps: chips x layout x batch x precision x context.
 *
 * Owns the cross product of deployment choices for one model on one chip
 * type, the valid slice sizes of a chip, the per-point cost (chip-seconds and
 * USD per generated token) and the count of points kept out because they do
 * not fit in HBM.  Every point is evaluated in C (no Lua per point), in one
 * of two modes:
 *  - ideal: formula (1) over all the point's chips, one fully sharded copy,
 *    communication ignored (rl_step_decode; seed 000 section 1 "Theoretical
 *    estimates for LLM latency and throughput"); layout "ideal"; TTFT from
 *    the operator list (rl_ops_prefill_time);
 *  - sharded: every candidate plan of the sharding module on the point's
 *    chips (rl_shard_compare: 1D/2D tensor parallelism, KV splits, expert
 *    parallelism, pipelines, replicas), per-chip HBM and the collectives'
 *    time included; layout = the plan's name; TTFT from the prefill plan
 *    that serves it, named in prefill_layout (below).
 * A point's prefill must run where its generation plan keeps the weights:
 * prefill and generation may shard differently (seed 000 section 3), but a
 * deployment holds one copy of the weights per replica, and re-sharding them
 * between phases would move the whole model per prompt.  So the prefill
 * candidates of a plan with r replicas are the plan itself (one replica
 * prefills the prompt) and, for dense models, the plan with sequence
 * parallelism over s | r of its replicas (ring attention's KV AllGather
 * leaves the whole prompt's cache on the replica that decodes it); both
 * store the same weights per chip (shard.h).  The fastest gives ttft_s.
 * Memory: a batch-B engine admits a prompt when one of its B sequences has
 * finished (vLLM's max_num_seqs), so the replica that prefills holds the
 * weights, its other replica_batch - 1 caches at the point's context and
 * the prompt's cache as prefill writes it (K/V heads replicated beyond K
 * chips, shard.h); with sp > 1 the other replicas also hold their full
 * caches and their piece of the prompt's.  prefill_bytes is the larger of
 * the two per chip; a candidate over HBM is passed over, and a point none
 * of whose candidates fits is kept out (infeasible, counted in
 * infeasible_prefill).
 *  - calibrated (sharded, with rl_sweep_space.calibrated on a chip whose
 *    profile carries measurements, rl_hw_measured): each 1D TP/EP plan's
 *    decode step is rl_shard_step_calibrated (what `step --tp` gives: the
 *    selected engine's kernel tables and costs, each chip's own KV share,
 *    the measured collectives), its TTFT the calibrated operator list of
 *    the plan's prefill with its collectives (what `prefill --tp` gives;
 *    rl_ops_prefill_time), and HBM follows the engine's memory rule
 *    (memory.h rl_memory_usable over the replica's chips).  The prefill
 *    candidate is the plan itself: the calibrated path times no sequence
 *    parallelism.  Plans it does not time (2D, pipelines) are left out and
 *    counted (uncalibrated), not mixed in at datasheet peaks; overlap does
 *    not apply (no overlap was measured).
 *  - fitted (calibrated, on a profile with fitted engine costs, rl_hw.
 *    engine_costs, e2e.h; tester15 F-pareto-1: pareto named the fitted
 *    engine and timed at its kernel tables, 3.6x faster than `step`): each
 *    plan those costs model (one replica TP over its GPUs, no EP, KV split
 *    by batch) is timed as `step --chips tp --batch B/replicas` and its TTFT
 *    as `prefill --chips tp` time it on the profile (rl_e2e_fitted_step);
 *    the breakdown columns stay the calibrated step's roofline terms, with
 *    kernel_excess_s the fitted time above them (of it tp_excess_s, the
 *    step time the fit's tp_excess adds, as step's rows), and comm_s the
 *    collectives at the fitted comm_eff.  Other plans are left out and counted with
 *    uncalibrated; HBM follows the engine's memory rule as above.
 *  - step's plan (rl_sweep_space.step_plans; fixXB #1: pareto kept tp1 x9
 *    at 8.09 ms for llama3-8b on 9 H100s at batch 64 where step --chips 9
 *    runs tp4 x2 at 4.43, and tp8 x8 at 1.809 ms on 64 at batch 8 where
 *    step runs tp8 x4 at 1.737): the compared plans above use every chip of
 *    the point, step --chips N's search (stepplan.h rl_step_plan_one, the
 *    same function) plans on up to N, so each batch's point also holds the
 *    plan that search picks, unless it is one of them (the same name on
 *    the same chips) or holds no batch; timed and prefilled as the others
 *    (its own replicas prefill: the deployable TTFT above), its chips the
 *    point's N, the chips it leaves over idle (idle_chips), all N counted
 *    in chip_s_per_token as step's tokens_per_s_per_chip counts them.  A
 *    point with idle chips stays ranked: it is what step --chips N runs
 *    (a plan of fewer chips in the grid dominates it).  Not on a fitted
 *    profile, whose step --chips N runs TP over the chips (one of the
 *    compared plans), nor an abstract model (step searches no plan).
 * Frontiers with pareto.  Uses step, stepplan, ops, shard, pareto, spec. */
#ifndef RL_SWEEP_H
#define RL_SWEEP_H

#include <stddef.h>
#include <stdio.h>

#include "spec.h"
#include "step.h"

/* The grid.  Every list must hold at least one value (chips may be empty: the
 * valid slice sizes up to `max_chips` are used, see rl_sweep_topologies). */
typedef struct {
    const long long *chips;   int nchips;   /* chips per deployment */
    const long long *batch;   int nbatch;   /* B, sequences per step (all replicas) */
    const long long *context; int ncontext; /* S, tokens in each KV cache */
    const rl_precision *prec; int nprec;    /* weight / KV / compute dtypes */
    long long prompt;    /* tokens prefilled for TTFT; 0 = each point's context */
    long long max_chips; /* bound for the default chip list; 0 = domain_chips */
    int sharded;         /* 0: ideal (formula (1), no communication); 1: shard plans */
    int overlap;         /* sharded: step = max(local, comm) instead of local + comm */
    int calibrated;      /* sharded: time the points as calibrated `step` and `prefill`
                            do (below), when h carries measurements (rl_hw_measured) */
    int step_plans;      /* sharded: each batch's point of step --chips N's plan too
                            (below; pareto and roofline.pareto/sweep set it) */
} rl_sweep_space;

/* The most points `roofline pareto` sweeps: the product of its lists
 * (chip counts, batches, weight and KV dtypes; each chip count's shard
 * plans come on top).  Our choice, not from a source: a dense real sweep is
 * far inside it (the default 12 batches on h100-sxm's 4 chip counts is 48,
 * 576 with 4 weight x 3 KV dtypes; 4096 batches, step's list cap, on 8
 * chip counts x 3 dtypes is 98304), while tester91's 7 x 4096 x 4 x 3 = 344064 points ran 116 s and
 * 1.19 GB on the 2-core VM (about 34 s and 350 MB at the cap).  A frontier
 * in batch needs no more than a few hundred values: the step time is
 * smooth in B.  Each point's step plan search (step_plans, above; fixXB
 * #1) costs more than its compared plans, less since the chooser's timings
 * are memoised across the sweep (stepplan.h rl_step_memo; fixXF #1):
 * `pareto --model llama3-8b --hw h100-sxm --chips 8,128 --batch
 * $(seq -s, 1 1024) --context 2048 --quiet` ran 0.48 s on main without the
 * step plans, 11.1 s with them and no memo, 4.6 s with the memo (the int56
 * reviewer's figures, 2-core VM; 4.7 s re-measured at stop 56 under a load
 * of 6.5), so a dense sweep near the cap still runs for a minute or more
 * (its progress said, SIGINT heard between batches). */
#define RL_PARETO_MAX_POINTS 100000

/* Seconds before the first progress line and between lines: our choice, a
 * terminal user's patience, not from a source. */
#define RL_SWEEP_PROGRESS_S 5.0

/* Grid cells (chips x precisions x contexts x batches) from which a run
 * off a terminal says its progress: our choice, not from a source (a
 * 28 x 4096 grid of llama3-70b ran 47 s here; the tests' grids are a few
 * hundred cells, so their stderr stays as it was however slow the host). */
#define RL_SWEEP_PROGRESS_CELLS 20000

/* A long run's progress (fixRD #4: a 786k-point pareto ran 2m47s without a
 * word): with `f` set, every later rl_sweep_run whose f is a terminal or
 * whose grid holds RL_SWEEP_PROGRESS_CELLS cells or more writes a line
 * "WHO: N grid points looked at, F feasible; slice K of T (chips x precision
 * x context); E s so far" to f once it has run every_s seconds (0:
 * RL_SWEEP_PROGRESS_S) and again each every_s after; a shorter run says
 * nothing.  f NULL (the default; Lua's sweep and pareto): none.  `who` is
 * kept, not copied. */
void rl_sweep_progress(FILE *f, double every_s, const char *who);

typedef struct {
    long long chips, batch, context;
    int layout;              /* name index (rl_sweep_name): "ideal", or the shard plan
                                ("tp8 kv=batch x2") */
    int prefill_layout;      /* name index: sharded, the plan that gives ttft_s (same
                                weights per chip as layout); else "" */
    rl_precision prec;
    double step_s;           /* per-token latency (TPOT) = decode step time, seconds */
    double table_s;          /* of step_s: ops timed by kernel tables (calibrated; else 0) */
    double ttft_s;           /* prefill of `prompt` tokens, seconds; < 0: no operator
                                list (abstract model) */
    double ttft_share;       /* calibrated: of ttft_s's prefill step, the share timed by
                                kernel tables (as prefill's table_time_share); else -1 */
    double weight_load_s, kv_load_s, compute_s; /* the terms of formula (1), per chip */
    double attention_compute_s; /* the attention FLOP time beyond kv_load_s (step.h) */
    double comm_s;           /* collectives per step (0 in ideal mode) */
    double kernel_excess_s;  /* sharded: the calibrated step's time above the terms
                                (shard.h); 0 in ideal mode */
    double tp_excess_s;      /* fitted: of kernel_excess_s, the step time tp_excess adds
                                (shard.h tp_excess_s); else 0 */
    double tokens_per_s;     /* all replicas */
    double chip_s_per_token; /* chips / tokens_per_s: chip-seconds per generated token */
    double usd_per_mtok;     /* chip_s_per_token * 1e6 * price / 3600; 0 if no price */
    double total_bytes;      /* ideal: weights + KV over all chips; sharded: per chip */
    double prefill_bytes;    /* sharded: total_bytes + the prompt's KV per chip, bytes
                                (while it is prefilled); ideal: 0 */
    double b_crit;           /* step.h rl_step_b_crit at prec */
    long long max_batch;     /* sequences the chips hold at context: ideal memory.h
                                rl_memory_max_batch, sharded shard.h rl_shard_max_batch */
    long long pp;            /* sharded: the plan's pipeline stages (a fitted point with
                                pp > 1 lies outside the fit: spec.h rl_hw_fit_mode);
                                else 0 */
    long long tp;            /* sharded: the plan's TP degree, the one step --chips tp
                                and prefill --chips tp label a fitted point by (its
                                fit's TP range: spec.h rl_hw_fit_mode); else 0 */
    /* calibrated: how far the point lies outside what was measured, which
     * its mode (a share of kernel-table time) does not say (stop 38 #1:
     * GB200 TP64 rows read calibrated): ops timed by extrapolating a
     * kernel table past its grid (ops.h provenance extrapolated), and the
     * largest collective group the alpha-beta model times on hardware
     * whose collectives table measures it on fewer GPUs only (comm.h
     * measured 0, floor_gpus > 0: the group it was raised to); 0 none */
    int extrapolated;
    long long coll_group, coll_floor;
    int coll_kind;      /* that collective's rl_collective (tester60 #3: the note
                           spoke of AllReduce's sizes for an AllToAll) */
    char coll_impl[24]; /* the impl of the table row that floored it (comm.h impl) */
    long long idle;     /* sharded: replicas with no sequence (batch below the plan's
                           replicas: replicas - batch), else 0; kept off the frontier
                           (rl_sweep_frontier, tester72 #7) */
    long long replicas; /* sharded: the plan's replicas (tp x ep x pp chips each); else 0 */
    long long ep;       /* sharded: the plan's expert-parallel groups a stage (shard.h
                           rl_shard_plan.ep; 1 without EP), else 0 (tester102 #3: a tp8
                           ep2 row on 16 chips read tp 8 x 1 replica, idle 0) */
    long long idle_chips; /* sharded: chips the plan leaves over (step's plan, above:
                             chips - replicas x tp x ep x pp), else 0 */
} rl_sweep_point;

typedef struct {
    rl_sweep_point *pts; /* feasible points, in grid order (chips, prec, context, batch, plan) */
    size_t n, cap;
    long long evaluated;  /* grid points (times plans) looked at */
    long long infeasible; /* kept out: weights + KV exceed HBM, or (sharded) no room
                             to prefill a prompt beside the cache */
    long long infeasible_prefill; /* of those, the ones kept out for the prefill */
    long long uncalibrated; /* calibrated: plans left out because the calibrated path
                               does not time them (2D, pipelines) */
    long long idle_points; /* sharded: points with idle replicas (rl_sweep_point.idle) */
    long long dropped;    /* sharded: plans left out because they could not be timed
                             (rl_shard_compare_why: an ici_bw of 0 under a plan) */
    char dropped_why[320]; /* the first such plan's name and reason, or "" */
    int sharded;          /* the mode it ran in (rl_sweep_space.sharded) */
    int calibrated;       /* 1: the points were timed calibrated (rl_sweep_space) */
    int fitted;           /* 1: by h's fitted engine costs (rl_sweep_space, fitted) */
    int overlap;          /* 1: the points' collectives overlap the local step
                             (rl_sweep_space.overlap on a sharded sweep neither
                             calibrated nor fitted: those add them, as step --tp) */
    char (*names)[64];    /* layout names, each once; [0] = "", [1] = "ideal" */
    int nnames, capnames;
    size_t max_points;    /* the bound it ran under (rl_sweep_run_bounded); 0: none */
    double progress_t0, progress_next; /* while it runs: its start, the next line's time */
    int progress_on;                   /* 1: this run says its progress (rl_sweep_progress) */
    int slice, slices;                 /* the slice being run (from 1), of how many */
} rl_sweep;

/* The layout name with index i (a point's layout or prefill_layout). */
const char *rl_sweep_name(const rl_sweep *s, int i);

/* Valid slice sizes of `h` up to `max` chips (max <= 0: domain_chips), in
 * ascending order, into out[cap].  Torus slices (TPU) are 1 and then 4, 8,
 * 16, ... (2x2, 2x4, 4x4 ...; 3D tori start at 4); NVLink-switch and ring
 * domains are powers of two 1..domain_chips.  Then the whole domain, a
 * power of two or not (a torus slice need not be one: Google's Cloud TPU
 * v5p page lists 16x16x24, 6144 chips, as its largest slice), and its
 * whole multiples (scale-out over the data-center network).
 * Returns the count. */
int rl_sweep_topologies(const rl_hw *h, long long max, long long *out, int cap);

/* 1 if `chips` is a valid slice size of h (see rl_sweep_topologies). */
int rl_sweep_valid_chips(const rl_hw *h, long long chips);

/* 0 when `chips` is a valid slice of h, else -1 with err saying "3 is not a
 * valid slice of tpu-v5p (valid: 4, 8, ..., then multiples of 6144)";
 * pareto's check. */
int rl_sweep_check_chips(const rl_hw *h, long long chips, char *err, size_t errlen);

/* The --chips (chips=) check of step, shard, ops and prefill, on both front
 * ends: rl_sweep_check_chips on a torus chip (TPU), where a slice is
 * allocated whole (tpu-v5p --chips 3 or 1000000 ran before, the latter a
 * 0.29 us llama3-405b step, tester4 #10); one chip is always allowed (the
 * per-chip roofline, the default), and GPU counts stay free: a deployment
 * may use 3 of a node's 8 GPUs (pareto searches its power-of-two slices);
 * one chip is the per-chip analysis, not a deployment on tpu-v5p
 * (rl_sweep_is_slice; step says so).
 * 0, or -1 with err as rl_sweep_check_chips. */
int rl_sweep_check_slice(const rl_hw *h, long long chips, char *err, size_t errlen);

/* 1 when `chips` is a deployment h rents (any count on a GPU, a slice on a
 * torus chip, one chip only where rl_sweep_valid_chips lists it: tpu-v5e
 * rents a 1x1 slice, tpu-v5p's smallest is 2x2x1, 4 chips, Google Cloud
 * "TPU v5p" doc, cloud.google.com/tpu/docs/v5p, Configurations; F7): the
 * searches' filter (size.c add_kinds), so they offer no plan step would
 * refuse and no replica pareto's sweep would not list. */
int rl_sweep_is_slice(const rl_hw *h, long long chips);

/* The chips of a deployment (simulate's --chips, Lua's simulate chips):
 * rl_sweep_check_slice without its one-chip exception, so simulate runs
 * the replicas size offers (F7: tpu-v5p --chips 1, step's per-chip
 * default, simulated a replica nobody rents).  0, or -1 with err as
 * rl_sweep_check_chips. */
int rl_sweep_check_deployment(const rl_hw *h, long long chips, char *err, size_t errlen);

/* rl_sweep_check_slice on the chips of a plan given without chips (`flag`,
 * "--chips" or "chips", not given: --tp 4 --pp 3 alone runs on 12): err
 * "the plan's 12 chips (--chips not given): 12 is not a valid slice of
 * tpu-v5e (valid: ...)".  One rule however the chips are spelt (new-user
 * tester: --chips 12 was refused on tpu-v5e while --tp 4 --pp 3 ran on 12
 * chips and --tp 8 --pp 80 on 640).  0, or -1 with err. */
int rl_sweep_check_plan_slice(const rl_hw *h, long long chips, const char *flag, char *err,
                              size_t errlen);

/* Evaluate the grid.  Returns 0 with *out filled (free with
 * rl_sweep_free), or -1 with err set ("sweep: field 'chips': 3 is not a
 * valid slice of tpu-v5e (valid: 1, 4, 8, ...)", a context beyond
 * max_context, a compute dtype the chip lacks, out of memory, or
 * "interrupted (SIGINT)" when rl_interrupted() turns true: interrupt.h). */
/* The context a sweep defaults to (pareto, roofline.pareto, roofline.sweep):
 * 2048 tokens, or the model's max_context when shorter; at least `prompt`
 * (the tokens a TTFT prefills, 0: none given): after that prompt the KV
 * cache holds them, so decode never runs at fewer (fixWD finding 2). */
long long rl_sweep_default_context(const rl_model *m, long long prompt);

/* 0 when every context of sp is at least its prompt (or no prompt was
 * given), else -1 with err naming both ("--context 1024 is below --prompt
 * 4096: ..."; `context_name` and `prompt_name` as the front end spells
 * them): a frontier that pairs a prompt's TTFT with decode at a shorter
 * cache pairs two steps no request runs together (fixWD finding 2:
 * pareto --context 1024 --prompt 4096 did so silently). */
int rl_sweep_check_prompt(const rl_sweep_space *sp, const char *context_name,
                          const char *prompt_name, char *err, size_t errlen);

/* pareto's none_kept_note, on both front ends (fixVC #6: roofline.pareto
 * returned empty rows without it): when s kept no point, why into buf[len]
 * ("none of the 24 points fits in HBM (...)", or each reason counted when
 * not all are HBM's: plans that could not be timed first) and 1; else ""
 * and 0. */
int rl_sweep_none_kept_note(const rl_sweep *s, char *buf, size_t len);

/* Append "weights W, kv K, compute C skipped: why" (after "; " unless at
 * k 0) to buf[n] at offset k: the precision_note of pareto and
 * roofline.pareto/sweep naming the combinations they skipped.  Returns
 * the new offset (at most n: buf stays terminated when cut short). */
size_t rl_sweep_skip_note(char *buf, size_t n, size_t k, rl_precision p, const char *why);

int rl_sweep_run(const rl_model *m, const rl_hw *h, const rl_sweep_space *sp, rl_sweep *out,
                 char *err, size_t errlen);

/* rl_sweep_run that fails ("sweep: more than N feasible points ...") past
 * max_points feasible points (0: no bound), for a caller with a memory
 * budget such as the Lua sandbox. */
int rl_sweep_run_bounded(const rl_model *m, const rl_hw *h, const rl_sweep_space *sp,
                         size_t max_points, rl_sweep *out, char *err, size_t errlen);

void rl_sweep_free(rl_sweep *s);

/* The latency / cost frontier of the sweep's points (x = step_s, y =
 * chip_s_per_token; see rl_pareto_front), or of those with precision
 * `*only` when it is not NULL.  Points with idle replicas (batch below the
 * replicas, rl_sweep_point.idle) are kept off it while another point is
 * there to rank (tester72 #7): the same plan on batch x its chips times
 * the same step, every replica one sequence, at more tokens/s a chip, so
 * an idle point is a chip count too large for its batch, on the frontier
 * only for want of that count in the grid.  idx must hold s->n entries; they index
 * s->pts in latency order.  Returns the count, or -1 when memory runs out. */
long rl_sweep_frontier(const rl_sweep *s, const rl_precision *only, size_t *idx);

/* "weights int8, KV bf16" (the compute dtype is added when it is not bf16). */
void rl_precision_label(rl_precision p, char *out, size_t outlen);

#endif
