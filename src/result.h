/* result.h — results as JSON documents (cJSON), shared by the CLI and Lua.
 *
 * Owns the keys of every result the tool prints (a contract: scripts rely on
 * them).  SI units throughout; keys carry their unit (_s, _bytes, _per_s).
 * Each builder returns a new cJSON object the caller frees, or NULL when
 * memory is exhausted.  Uses arch, step, memory, spec, sweep, serve, size,
 * cJSON.  tests/test_keys.c pins every command's keys (tests/data/result_keys.txt). */
#ifndef RL_RESULT_H
#define RL_RESULT_H

#include <stdarg.h>

#include <cjson/cJSON.h>

#include "ops.h"
#include "serve.h"
#include "size.h"
#include "spec.h"
#include "shard.h"
#include "step.h"
#include "sweep.h"

/* `roofline info`: params_total, params_active (every parameter one token
 * touches, the input embedding table included), params_active_nonembedding
 * (spec models: less that table, which a token only reads one row of; the
 * count flops_per_token is 2x of, norms aside), per-component params,
 * kv_bytes_per_token, weight_bytes, flops_per_token, attention ("mha" |
 * "gqa" | "mla") and local_layers (windowed); with context > 0 also
 * attention_flops_per_token, kv_bytes_per_sequence (windowed layers capped)
 * and kv_bytes_per_sequence_allocator (full-length pages) at that context. */
cJSON *rl_result_info(const rl_model *m, rl_precision p, long long context);

/* `roofline info --hw H`: hw, mode, default_engine and one row per engine
 * (engine, default, mode, version, measured_on, date, tables, source, the
 * kernel-table engine costs step_s ... costs_source, fitted_costs and
 * fitted_on (null without fitted costs), the memory rule). */
cJSON *rl_result_engines(const rl_hw *h);

/* `roofline step`: mode ("calibrated" when h has efficiency tables, else
 * "ideal"), b_crit, max_batch and one row per batch size
 * (batch, context, step_s, tokens_per_s, tokens_per_s_per_chip,
 * weight_bytes, kv_bytes, total_bytes, fits, bound, and the three terms of
 * formula (1)).  kv_copies: the chips holding each token's KV, each
 * reading its copy (shard.h rl_kv_layout; 1 without a plan): kv_load_s and
 * the step read them all, as step --tp's sharded rows do (a fitted --tp
 * beyond K read one copy split tp ways), the memory keys hold one copy
 * (rl_result_step_kv_layout lays it out).  Arguments must have passed
 * rl_step_check.  On a profile with kernel tables a row whose operator
 * list they refuse (ops.h rl_ops_check: the CLI and Lua check the same
 * first) is the formula's time, mode estimated, table_time_share 0, with
 * no band or provenance and a mode_note saying why. */
cJSON *rl_result_step(const rl_model *m, const rl_hw *h, long long chips, const long long *batch,
                      int nbatch, long long context, rl_precision p, double kv_copies);

/* `roofline shard`: limits (rl_shard_limits), advice (best plan names per
 * phase for latency and throughput, and a sentence why), rows (one per
 * plan and phase: strategy, weight/kv bytes per chip, fits, flops_per_chip
 * (one tick), the terms, comm_s, step_s, tokens_per_s_per_chip, collectives,
 * latency_bound_collectives, best) and
 * collectives (what, collective, group, bytes, per_layer, count (per step),
 * each_s, total_s, latency_bound, fabric) of the best plans.  NULL when out of memory. */
cJSON *rl_result_shard(const rl_model *m, const rl_hw *h, long long chips, long long batch,
                       long long context, rl_precision p, int overlap);

/* --overlap / overlap on a plan, one rule for the CLI and Lua (review26
 * M3: Lua read `ideal` 2.9x faster where the CLI read calibrated): kernel
 * tables and fitted costs time a step with its collectives added to the
 * local time, as the engines they were measured on run it (no overlap was
 * measured), so on a plan they time (1D, no --sp; plain TP replicas and
 * pipelines for fitted costs) and a chip not made ideal, pl's overlap is
 * cleared; elsewhere (--ideal, a chip with no measurements, --sp, 2D) it
 * stays: max(local, comm).  Returns 1 when it cleared it (the CLI notes
 * it), 0 else.  Both front ends call it before choosing how to time pl. */
int rl_result_drop_overlap(const rl_model *m, const rl_hw *h, rl_shard_plan *pl);

/* `roofline step --tp ...`: one sharded generation step per batch size,
 * with "communication": "included" and every collective.  Calibrated (mode
 * "calibrated") when h has efficiency tables and the plan is 1D tp/ep
 * without overlap: rl_shard_step_calibrated; fitted when h's costs time
 * it (e2e.h rl_e2e_fitted_plan); else ideal: rl_shard_eval.
 * NULL with err set when the plan is invalid, or out of memory. */
cJSON *rl_result_step_sharded(const rl_model *m, const rl_hw *h, const rl_shard_plan *plan,
                              long long chips, const long long *batch, int nbatch,
                              long long context, rl_precision p, char *err, size_t errlen);

/* `roofline ops`: mode ("ideal" or "mfu"), model, hw, chips, precisions
 * (weights, kv, compute, act), attention_impl ("fused" | "materialized"),
 * causal, the workload (prefill_seqs, tokens, prefix, batch, context), step
 * totals (flops, weight_bytes, act_bytes, kv_read_bytes, kv_write_bytes,
 * compute_s, memory_s, step_s, tokens_per_s, achieved_mfu), the HBM held
 * (hbm_weight_bytes: all weights; hbm_kv_bytes: the KV of the decoding and
 * prefilling sequences; hbm_capacity_bytes: chips * hbm_bytes; fits) and one row per
 * operator: op, kind, layers, tokens (weight matmul rows), flops,
 * weight_bytes, act_bytes, kv_bytes (read + written), intensity (FLOPs/byte;
 * null when the op moves no bytes), bound, b_crit (null unless a weight
 * matmul), time_s (one instance), total_s (layers * time_s), share (of
 * step_s).  Per-instance values are for one layer.  The configuration must
 * have passed rl_ops_check; NULL on out of memory or an abstract model. */
cJSON *rl_result_ops(const rl_model *m, const rl_hw *h, const rl_ops_config *c);
/* rl_result_ops, with the reason the operator list could not be built in
 * err (empty when NULL means out of memory; tester60 #2: a collective the
 * chip's links cannot time read "out of memory"). */
cJSON *rl_result_ops_err(const rl_model *m, const rl_hw *h, const rl_ops_config *c, char *err,
                         size_t errlen);

/* `roofline prefill`: one row per prompt length T (one sequence on a cached
 * prefix P): tokens, prefix, ttft_s (queueing-free prefill time, ops list),
 * flops, achieved_mfu (flops / (ttft_s * chips * peak)), tokens_per_s,
 * hbm_weight_bytes, hbm_kv_bytes (the prompt's KV with its prefix),
 * hbm_capacity_bytes, fits (as ops) and, with chunk > 0, chunked_s (chunks of `chunk` tokens, each on the prefix
 * so far).  NULL on out of memory or invalid input. */
cJSON *rl_result_prefill(const rl_model *m, const rl_hw *h, const rl_ops_config *c,
                         const long long *tokens, int ntokens, long long chunk);

/* `roofline pareto` and roofline.sweep / roofline.pareto: mode ("ideal":
 * peak FLOP/s and bandwidth), communication ("included": shard plans with
 * their collectives; "ignored": formula (1) on all chips), model, hw, prompt,
 * price_per_chip_hour, price_source, overlap (sharded: "local + comm" or the overlapped
 * rule, as shard's), evaluated, infeasible (kept out: weights
 * + KV exceed HBM, or no room to prefill beside the cache), infeasible_prefill
 * (sharded: of those, kept out for the prefill), feasible, and one row per
 * point: chips, layout, batch, context, weights, kv, compute, step_s, ttft_s
 * (null for abstract models in ideal mode), prefill_layout (sharded: the
 * prefill plan with the layout's weights per chip, sweep.h), tokens_per_s,
 * chip_s_per_token, usd_per_mtok (when the hardware has a price),
 * weight_load_s, kv_load_s, compute_s, comm_s (sharded), total_bytes (ideal,
 * all chips) or bytes_per_chip and prefill_bytes_per_chip (sharded).  `idx` picks and orders the rows (the frontier);
 * NULL means every feasible point. */
/* printf's text of fmt and its arguments, whole, in a buffer malloc'd to
 * its measure (a first vsnprintf measures it: a note buffer sized by hand
 * cut a longer text short, unsaid); the caller frees it.  NULL out of
 * memory. */
char *rl_result_vfmt(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
char *rl_result_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Key `key` of o: rl_result_fmt's text (absent out of memory, as cJSON's
 * own adds). */
void rl_result_add_fmt(cJSON *o, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A header note of out, whose rows run several plans' results res[0..n)
 * (NULL entries skipped; stepplan.c: the header is the first plan's): where
 * out's `key` is null, the first of res's with text, so a note one row's
 * plan says is not lost with its header (fixXE: token_budget_note, step
 * --chips 2 --batch 100,400000 on llama3-8b read null beside a tp1 x2 row
 * of 200,000 tokens a step). */
void rl_result_plans_note(cJSON *out, cJSON *const *res, int n, const char *key);

cJSON *rl_result_sweep(const rl_model *m, const rl_hw *h, const rl_sweep *s, long long prompt,
                       const size_t *idx, long nidx);

/* The mode rl_result_sweep's header reports for sweep s listing the rows
 * idx[0..nidx-1] (idx NULL: every point): "calibrated" only when each row
 * is (spec.h rl_run_mode), fitted: the worst row's; one function for the
 * JSON and a plot's title, which names it as its frontier rows' mode
 * (fixIE: the title took every point of the grid, so it could read
 * estimated above a calibrated header).  And the engine a run in `mode`
 * on h names ("none" in ideal mode or without one). */
const char *rl_result_sweep_mode(const rl_model *m, const rl_hw *h, const rl_sweep *s,
                                 const size_t *idx, long nidx);
const char *rl_result_engine_name(const rl_hw *h, const char *mode);

/* What describes a serving run beside the simulator's result. */
typedef struct {
    const rl_model *m;
    const rl_hw *h;
    int calibrated; /* the profile's efficiency tables are used when it has them */
    long long chips_per_replica, chips_total;
    const rl_serve_config *c;
    rl_precision p;
    const char *prompt, *output; /* the DIST texts, or "trace" */
    double qps;                  /* requests/s offered */
    long long seed;              /* -1 for a trace; whole, echoed digit for digit */
    long long truncated;         /* generated requests over max_context drawn again
                                    (workload.h rl_requests_redraw); -1: not counted (no key) */
    int timeline;                /* add kv_timeline */
    int offline;                 /* every request at t = 0: offline true, qps null */
    double max_qps;              /* max_sustainable_qps (serve.h, rl_serve_capacity); NAN: null */
    int max_qps_lower_bound;     /* serve.h rl_serve_config.capacity_lower_bound */
    double reached_qps;          /* the load the run is judged at (serve.h rl_serve_judged_qps):
                                    capacity_utilization's numerator */
    int max_qps_repeated;        /* serve.h rl_serve_config.capacity_repeated */
    int max_qps_unresolved;      /* serve.h rl_serve_config.capacity_unresolved */
    double burst;                /* --burst's CV (gamma arrivals); 0: Poisson or a trace (null) */
    double arrival_rate;         /* the arrivals' own rate, (n - 1) / (last - first); NAN:
                                    none (offline, one request) */
    int capacity_skipped;        /* no capacity search (simulate --no-capacity, --offline or
                                    a trace at one instant, or a signal stopped it after the
                                    run): capacity_searched false */
    double mean_prompt, mean_output; /* the requests' realised mean lengths (tokens;
                                    workload.h rl_requests_mean_lengths): mean_prompt_tokens,
                                    mean_output_tokens; 0: null */
    const char *mean_note;       /* workload.h rl_workload_mean_note: mean_length_note;
                                    NULL: null */
} rl_simulate_run;

/* `roofline simulate` and roofline.simulate (keys are a contract; SI
 * units): policy, requests, completed, duration_s, ttft_{p50,p90,p99,mean,
 * max}_s, tpot_*_s, e2e_*_s, ttft_service_*_s, itl_*_s (null without a
 * sample; serve.h defines each), req_per_s,
 * out_tokens_per_s, out_tokens_per_s_per_chip, total_tokens_per_s,
 * steady_req_per_s, steady_out_tokens_per_s (null when the run is too
 * short), goodput_req_per_s, slo_attainment (both null when no SLO is set),
 * utilization, mean_in_system, mean_decode_batch, mean_decode_batch_time,
 * mean_decode_context, mean_decode_step_s, steps, decode_steps, preemptions,
 * prefix_hit_rate, prefill_tokens_saved, kv_peak_frac, prefill_kv_peak_frac
 * (disagg; null otherwise), spec_tokens_per_step,
 * kv_timeline [{t_s, kv_frac}] (with run->timeline); then the run: model,
 * hw, mode ("calibrated" when calibrated and the profile has efficiency
 * tables, else "ideal"), step_cost, chips_per_replica, chips_total,
 * attention_layout, kv_copies, pp (pipeline stages per replica), ep
 * (expert-parallel groups per stage) and chips_per_stage (chips_per_replica / pp),
 * kv_capacity_tokens_per_replica (whole tokens), prompt_len, out_len (and
 * their first names prompt, output_dist, kept), qps,
 * seed (null for a trace), weights, kv, compute, replicas, prefill_replicas (disagg), max_seqs,
 * max_tokens, page_tokens, route, preempt, spec_alpha and spec_gamma (with
 * speculation), redrawn_requests and its old spelling truncated_requests
 * (when counted: requests drawn again, workload.h rl_requests_redraw), offline,
 * max_sustainable_qps and capacity_utilization (reached_qps / that; both null
 * offline or without a capacity), max_sustainable_qps_is_lower_bound (true
 * when the capacity sample was too short for a steady state: serve.h
 * rl_serve_config.capacity_lower_bound; null with max_sustainable_qps),
 * max_sustainable_qps_from_repeated_sample (true when it rests on fewer than
 * RL_SERVE_CAPACITY_REQUESTS (4000) distinct requests, repeated: serve.h
 * rl_serve_config.capacity_repeated; null with max_sustainable_qps),
 * max_sustainable_qps_unresolved (true when max_sustainable_qps is null
 * because even the capacity search's floor load met the targets' p99s but
 * not their 95% bound: serve.h rl_serve_config.capacity_unresolved),
 * burst (--burst's CV; null for Poisson arrivals or a trace),
 * arrival_req_per_s (the arrivals' realised rate, (n - 1) / their span;
 * null without a span), max_sustainable_qps_no_slo (null here;
 * rl_result_simulate_no_slo sets it to the capacity of the same arrivals without
 * --ttft-p99/--tpot-p99 when those put max_sustainable_qps below qps),
 * capacity_searched (false when a capacity search did not run to its end:
 * simulate --no-capacity, or a signal during one after the run; the
 * figures it gives then null), mean_prompt_tokens and mean_output_tokens
 * (the requests' realised mean lengths, which redraws over max_context and
 * a DIST's spread move off its MEAN; tester90 #1).  NULL on OOM. */
/* Add key "seed" to j: seed's decimal digits, exact (a raw JSON number;
 * the table printer and Lua read it as an integer). */
void rl_result_add_seed(cJSON *j, long long seed);

cJSON *rl_result_simulate(const rl_serve_result *r, const rl_simulate_run *run);

/* Into simulate's result j: max_sustainable_qps_no_slo = free_qps (null
 * when NAN; serve.h rl_serve_capacity_no_slo), and max_sustainable_qps
 * clamped to it when above (run->max_qps and run->max_qps_lower_bound
 * follow).  The command line and roofline.simulate share it. */
void rl_result_simulate_no_slo(cJSON *j, rl_simulate_run *run, double free_qps);

/* `roofline size`: model, mode, qps, slo_ttft_p99_s, slo_tpot_p99_s,
 * headroom, sized_for_qps, requests (each row's sample at qps), max_replicas,
 * beyond_replica_bound,
 * skipped_for_time,
 * cost_unit ("usd_per_hour" | "chips"), meeting, simulated_configs, pruned,
 * search_s, and rows (cheapest first): config, chips_total, cost, ttft_p99_s,
 * tpot_p99_s, e2e_p50_s, out_tokens_per_s (the whole run's, as simulate),
 * steady_out_tokens_per_s, meets, max_sustainable_qps (null
 * when unknown), capacity_utilization (as simulate's: the arrivals'
 * reached rate / max_sustainable_qps; null with it),
 * max_sustainable_qps_is_lower_bound,
 * max_sustainable_qps_from_repeated_sample (both as simulate's), fails_at_qps, fails_on, mode, table_time_share, engine,
 * then ttft_p99_at_sized_s, tpot_p99_at_sized_s (at sized_for_qps; last,
 * after the detail keys); `detail` (JSON, CSV) adds
 * hw, mode, policy, weights, kv, compute, attention_layout, kv_copies, pp, ep,
 * chips_per_stage, chips_per_replica, replicas,
 * prefill_replicas, max_seqs, max_tokens, usd_per_mtok, ttft_p50_s,
 * tpot_p50_s, e2e_p99_s, slo_attainment, utilization, mean_decode_batch,
 * kv_capacity_tokens_per_replica.  NULL on OOM. */
/* roofline list: one row per preset.  models: name, params, params_active,
 * max_context; hw: name, bf16_flops_per_s, hbm_bytes, hbm_GiB, hbm_bw_bytes_per_s,
 * mode (calibrated when the profile has efficiency tables, else ideal);
 * engines: ideal, then every engine the hw presets h[0..n) carry (name,
 * hardware: the presets carrying it, * where it is their default,
 * description). */
cJSON *rl_result_list_models(const rl_model *m, char (*presets)[64], int n);
cJSON *rl_result_list_hw(const rl_hw *h, char (*presets)[64], int n);
cJSON *rl_result_list_engines(const rl_hw *h, char (*presets)[64], int n);

/* size's JSON prefill_dispatch_note (of its first row's engine: vLLM's
 * prefill dispatch each TTFT carries) into s; 1 when there is one, else 0
 * (the report says it beside host_cost_note: fixNI #6). */
int rl_result_size_dispatch_note(const rl_size_input *in, const rl_size_result *r, char *s,
                                 size_t len);
cJSON *rl_result_size(const rl_size_input *in, const rl_size_result *r, int detail);

/* size's host_cost_note (step's, naming each engine of the searched
 * hardware that charges no per-step host cost, once) into s[len]: 1, or 0
 * when no such engine (nothing written).  The JSON's key and the sizing
 * report's caution (fixJH) share it. */
int rl_result_size_host_cost_note(const rl_size_input *in, char *s, size_t len);

/* The e2e_gap_note of a serving run on h at tp (simulate's, size's first
 * row's) into s[len]: 1, or 0 when no end-to-end measurement applies (another
 * chip or engine, a what-if chip, no kernel tables; nothing written).  The
 * sizing report's caution (tester77 #1) quotes it for each recommended row. */
int rl_result_e2e_gap_serving_note(const rl_hw *h, long long tp, char *s, size_t len);

/* Under size --conservative (tester85 #5, fixSA): what its sizing leaves
 * out where an end-to-end gap applies on h at tp (as
 * rl_result_e2e_gap_serving_note): it sizes against the kernel tables'
 * band, which holds no engine's end-to-end gap, and no option applies that
 * gap; its p90 factors named.  1 with the text in s[len], else 0. */
int rl_result_conservative_gap_note(const rl_hw *h, long long tp, char *s, size_t len);

/* The same over the profiles i with only[i] set (only[in->nhw]; NULL: all):
 * the sizing report's caution names the engines of the profiles it
 * recommends, not of every one searched (fixKJ B: a tpu-v5e recommendation,
 * engine none, carried h100-sxm's trtllm caution). */
int rl_result_size_host_cost_note_of(const rl_size_input *in, const int *only, char *s, size_t len);

/* host_cost_note's stderr form (the table and CSV formats print the whole
 * key beside it; tester69 #8: a wall of text twice): what is not charged
 * and what that makes the times, without why, into buf[len]; the note
 * itself where it is not host_cost_note's text. */
const char *rl_result_host_cost_brief(const char *note, char *buf, size_t len);

/* A decode step below one kernel launch (fixRE item 3): "Each launch takes
 * on the order of microseconds" (Modal GPU Glossary, CUDA Graph:
 * modal.com/gpu-glossary/host-software/cuda-graph), and an engine's step is
 * at least one launch plus its host work, so a step under 1 us (the order's
 * lower end) carries no engine cost. */
#define RL_LAUNCH_FLOOR_S 1e-6

/* step_floor_note's text for a step time t (s) read from key `what`
 * (step_s, itl_p50_s, tpot_p50_s) into s[len]: 1 when 0 < t < the floor,
 * else 0 (s "").  One text for step, simulate and size (fixSA #2). */
int rl_result_step_floor_note(const char *what, double t, char *s, size_t len);

/* The engine's dtype notes of plan precision p on chip h (its selected
 * engine; none on an abstract model, --ideal or a profile without engines):
 * which 0 gives kv_engine_note's text (engines.h rl_engine_kv_caution),
 * 1 precision_engine_note's (rl_engine_precision_caution), into s[len].
 * 1 when the note applies, else 0 (s "").  One text for step, prefill,
 * ops, simulate, size's rows and its report (tester89 F4b). */
int rl_result_engine_dtype_note(const rl_hw *h, rl_precision p, int abstract, int which, char *s,
                                size_t len);

/* mla_engine_note's text (tester F8): an MLA model's decode attention
 * timed from TensorRT-LLM's measured MLA table on a chip below Hopper (sm
 * 1-89), whose kernel reads the latent cache at a few percent of HBM
 * bandwidth or less, into s[len]: the table's time at batch 1, 4096 cached
 * tokens, 128 heads against its HBM roofline, and the source saying
 * TensorRT-LLM's MLA kernel targets SM90.  1 when it applies, else 0 (s
 * ""): not under --ideal, another engine, a model whose dimensions the
 * tables do not hold (timed by its roofline), or a KV dtype without a
 * measured MLA table. */
int rl_result_mla_engine_note(const rl_model *m, const rl_hw *h, rl_precision p, char *s,
                              size_t len);

/* Step's or ops' KV split beyond the K heads of plan pl into r (NULL:
 * nothing): kv_split, its name (shard.h rl_kv_split_name), and
 * kv_split_source, given or the default (rl_kv_split_source); under
 * attention data parallel (shard.h rl_shard_attn_dp) the layout that runs, `batch` (each chip its own
 * sequences, shard.h rl_shard_kv_layout), whatever was given, with
 * shard.h rl_shard_attn_dp_source as its source (tester39 F10). */
void rl_result_kv_split(cJSON *r, const rl_shard_plan *pl, int given, int ideal);



/* On a run a fitted profile's costs do not time (before
 * rl_e2e_unfitted_label words its engine_source by the mode): when h's
 * selected engine has fitted costs and no kernel tables
 * (spec.h rl_hw_fitted_untabled) and r reads calibrated or estimated, mode
 * "estimated" and a mode_note saying why (tester39 F3). */
void rl_result_untabled_note(cJSON *r, const rl_hw *h);

/* A step result r without a plan (rl_result_step, `chips` chips: the
 * fitted costs' TP over them) in the KV split of plan pl (review37 M1: a
 * fitted --tp beyond K kept the batch split's memory while it named
 * none): max_batch, and each row's kv_bytes, kv_bytes_per_chip,
 * total_bytes and fits, with each token's KV on the layout's copies
 * (shard.h rl_kv_layout; replicate: tp / K chips), then
 * rl_result_kv_split's keys.  The time (rl_result_step's kv_copies, the
 * fitted costs' rl_e2e_retime) reads the same copies (docs/model.md). */
void rl_result_step_kv_layout(cJSON *r, const rl_model *m, const rl_hw *h, const rl_shard_plan *pl,
                              long long chips, long long context, rl_precision p, int given,
                              int ideal);

#endif
