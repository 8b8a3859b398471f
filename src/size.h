/* size.h — deployment sizing: the cheapest serving configuration that meets
 * TTFT and TPOT p99 targets at a given load.
 *
 * Owns the search over hardware, precision, chips per replica (one fully
 * sharded copy of the model per replica), batching policy, batch cap, chunk
 * budget, replica count and the prefill:decode split, and the sensitivity
 * and load-curve runs the sizing report shows.  Analytic pruning first
 * (memory fit, TPOT at the batch cap from the operator list, the replica count
 * from per-replica capacity), then the serving simulator confirms each
 * survivor and searches its replica count upward until the targets hold.
 * Uses serve, ops (via serve's step cost), step, memory, arch, spec.  SI units; cost in USD per hour
 * from hw price_per_chip_hour, or chips when a profile has no price. */
#ifndef RL_SIZE_H
#define RL_SIZE_H

#include <math.h>
#include <stddef.h>

#include "serve.h"

/* A candidate is simulated over at least this many seconds of arrivals
 * (qps x window requests, at most RL_SIZE_MAX_REQUESTS), and must complete
 * requests at RL_SIZE_KEEP_UP of the offered rate or more to count as
 * meeting the targets. */
#define RL_SIZE_MIN_WINDOW_S 120.0
#define RL_SIZE_MAX_REQUESTS 30000.0

#define RL_SIZE_KEEP_UP 0.8

/* Headroom: the recommendation must meet the targets at (1 + F) x the
 * stated load.  Default F = 0.2, our stated rule: size for 20% above the
 * peak given, the low end of the 20-40% margin capacity planners add above
 * a forecast peak, because latency past the saturation knee rises steeply
 * (llama3-70b on H100 at 50 req/s: TTFT p99 0.9 s, 2.2 s at +12%, 10 s at
 * +25%).  F is refused below 0 or above RL_SIZE_MAX_HEADROOM (a 5x load is
 * a different deployment, not headroom). */
#define RL_SIZE_HEADROOM 0.2

/* Why a complete run missed the targets (rl_size_candidate miss, fails_on):
 * a request left unserved, a queue that grows without bound (the keep-up
 * rule above), the TTFT p99 or the TPOT p99 over its target. */
#define RL_SIZE_MISS_INCOMPLETE 1
#define RL_SIZE_MISS_QUEUE 2
#define RL_SIZE_MISS_TTFT 4
#define RL_SIZE_MISS_TPOT 8
/* A size row whose runs met the p99s at the load and at the sized load but
 * whose max_sustainable_qps (the capacity search's 95% bound) lies below
 * the sized load (tester48 F1, rl_size_verify): named "capacity". */
#define RL_SIZE_MISS_CAPACITY 16

/* Which rule decided a size row's `meets` (rl_size_verify; JSON
 * verdict_by): both agreed ("both": the p99s of the runs at the load and
 * at the sized load, and max_sustainable_qps at least the sized load, or
 * both missed); the capacity alone ("capacity": the p99s met, the figure
 * below the sized load: the row does not meet); the p99s alone ("p99":
 * they missed while the figure reached the sized load, or the figure is
 * null, unresolved or not found, so the p99s are the verdict). */
enum { RL_SIZE_VERDICT_BOTH, RL_SIZE_VERDICT_P99, RL_SIZE_VERDICT_CAPACITY };

/* The name of a verdict_by value ("both", "p99", "capacity"). */
const char *rl_size_verdict_name(int verdict_by);

/* The names of the bits in `miss`, joined by '+' ("ttft_p99+tpot_p99"),
 * into buf; "" for 0.  Returns buf. */
char *rl_size_miss_names(int miss, char *buf, size_t len);
#define RL_SIZE_MAX_HEADROOM 4.0

/* Bounds that keep an absurd load from running for minutes or exhausting
 * memory: at most RL_SIZE_MAX_REPLICAS replicas per pool of a configuration
 * (plans needing more are dropped, and a load no plan serves within it is
 * refused), at most RL_SIZE_MAX_REQUESTS requests per simulation, a bounded
 * number of runs per plan (the replica search, RL_SERVE_CAPACITY_RUNS), and
 * no new plan simulated, nor a row's band run, after work_budget simulator
 * events (serve.h rl_serve_config.work; the CLI gives RL_SIZE_MAX_WORK; the
 * costlier plans left are counted in skipped_for_time, the rows left
 * without a band in unbanded_for_time, and the CLI says so).  A count of
 * events, not a CPU time: the same command keeps the same rows and bands on
 * any host at any load (tester16 F10: a 60 s CPU bound left 0 or 6 rows
 * unbanded on two runs of one command).  RL_SIZE_MAX_WORK, measured
 * (docs/serving.md, "size"): the README command simulates 6.1e7 events,
 * the 6-profile deepseek-v3 search of tester16 F10 about 4.1e8 (3.7e8 for
 * its plans); 6e8 keeps every band of both, about 46-70 s of CPU at the
 * 0.85-1.3e7 events/s of the 2-core development VM, as the former 60 s. */
#define RL_SIZE_MAX_REPLICAS 256
#define RL_SIZE_MAX_WORK 600000000ULL

/* The search space (size.c; the report's Method text reads these): batch
 * caps RL_SIZE_BATCH_CAPS; continuous batching, chunked prefill with a
 * RL_SIZE_CHUNK_SMALL or RL_SIZE_CHUNK_LARGE token budget, disaggregated
 * prefill/decode (RL_SIZE_NPOLICIES); chips per replica in powers of 2 up
 * to the NVLink/ICI domain, at most RL_SIZE_MAX_REPLICA_CHIPS, each under
 * tensor parallelism and, for MoE models whose experts divide over them,
 * attention data parallel (serve.h rl_attn_layout).  Beyond the domain
 * (when max_chips allows it; by default only while no smaller replica of
 * that hardware and precision holds the model and the longest request),
 * a replica is searched both as TP over all its chips (collectives across
 * the network) and as pipeline stages of one domain each: TP stays within
 * the NVLink domain and PP = chips / domain stages join them over the NIC,
 * when the domain divides the chips and PP divides the layers (serve.h rl_ops_cost_pipeline; vLLM's advice
 * for a model that does not fit one node: TP = GPUs per node, PP = nodes,
 * docs.vllm.ai serving/distributed_serving).  For MoE models each stage is
 * also searched with ep expert-parallel groups, every power of 2 dividing
 * its chips and the experts (serve.h rl_ops_cost_experts), but for ep =
 * the stage's chips where attn-dp is searched: tp1 epN is attn-dp N's plan.  Replica
 * counts are estimated from per-replica capacity with decode replicas at
 * RL_SIZE_DECODE_LOAD and disaggregated prefill replicas at
 * RL_SIZE_PREFILL_LOAD of it (our choice: below saturation, where queueing
 * delay stays moderate).  At most RL_SIZE_MAX_PLANS analytic plans are
 * kept; simulated are every replica kind's (hardware, chips, layout,
 * stages, expert groups) cheapest plan, then the cheapest plans
 * without expert groups (ep 1) up to RL_SIZE_MAX_SIMULATED (at one
 * estimated cost the highest estimated capacity first)
 * per hardware (size.c pick_plans: the ep > 1 kinds' cheapest come over and
 * above that bound). */
#define RL_SIZE_NCAPS 5
extern const int rl_size_batch_caps[RL_SIZE_NCAPS]; /* 16 .. 256 sequences (attn-dp: per chip) */
#define RL_SIZE_NPOLICIES 4
#define RL_SIZE_CHUNK_SMALL 512
#define RL_SIZE_CHUNK_LARGE 2048
#define RL_SIZE_MAX_REPLICA_CHIPS 64
#define RL_SIZE_DECODE_LOAD 0.85
#define RL_SIZE_PREFILL_LOAD 0.8
#define RL_SIZE_MAX_PLANS 4096
#define RL_SIZE_MAX_SIMULATED 24

typedef struct rl_size_runs rl_size_runs; /* size.c: runs kept across batch caps */
typedef struct rl_size_draws rl_size_draws; /* size.c: workloads kept by their scales */

typedef struct {
    const rl_model *m;
    const rl_hw *hw; /* candidate hardware profiles */
    int nhw;
    rl_workload w;       /* qps, prompt/output distributions, seed; n = simulated requests */
    const rl_request *trace; /* optional: simulate this trace instead of w (ntrace requests) */
    long long ntrace;
    double slo_ttft, slo_tpot; /* p99 targets, seconds (> 0) */
    double headroom;     /* F in [0, RL_SIZE_MAX_HEADROOM]: meet the targets at (1 + F) x the load */
    unsigned long long work_budget; /* > 0: no new plan simulated, nor band run, past this
                            many simulator events (serve.h work); 0: no bound */
    double hbm_reserve;  /* HBM fraction kept for activations/workspace (default 0.1) */
    long long max_chips; /* largest replica (default: the hw's domain_chips) */
    double truncated_frac; /* requests drawn again over max_context (for the report) */
    const char *mean_note; /* NULL, or the caller's rl_size_mean_note after the search:
                              the JSON's mean_length_note (NULL: null) */
    const rl_precision *prec; /* precisions to consider; NULL: search bf16, int8, fp8 */
    int calibrated;      /* time steps by the profiles' efficiency tables when present */
    int nprec;
    unsigned long long *work; /* NULL, or the events its runs add to (serve.h work;
                            rl_size_search sets it on its own copies: callers leave it NULL) */
    rl_ops_cost *cost;   /* NULL, or the step cost (and its caches) of the configuration
                            being searched, kept across its runs (rl_size_search sets it) */
    rl_size_draws *draws; /* NULL, or the workloads drawn so far, kept by QPS and prompt
                             scale: a seeded draw is the same each time, so it is drawn once
                             (rl_size_search sets it on its own copies; callers leave it NULL) */
    rl_size_runs *runs;  /* NULL, or the search's runs whose batch cap never bound (serve.h
                            seqs_peak), reused by a plan that differs only in a larger cap:
                            its run would be the same (rl_size_search's simulate_plans sets
                            it on its own copy; callers leave it NULL) */
    const rl_hw *band_hw; /* NULL, or the profiles (nhw) whose band the rows report when hw
                             holds them moved to an edge (size --conservative) */
    int band_wide;        /* 1: the rows' band is p5-p95, else p10-p90 */
    int conservative;     /* 1: hw holds the profiles at the band's slow edge (--conservative) */
    const rl_hw *inner_hw; /* NULL, or (conservative on a wide band) band_hw moved to p90:
                              every run is made on hw and here too, each time taken out to
                              the farther of the two (e2e.h rl_e2e_band_farther), as the
                              band's printed high edge is (rl_size_search and rl_size_study
                              set it on their own copies: callers leave it NULL) */
    rl_ops_cost *inner_cost; /* NULL, or cost's counterpart on inner_hw (rl_size_search) */
    const char *engine_asked; /* NULL, or the --engine named: with engine_lacking, the rows
                                 say where it did not apply (fixND #11) */
    const char *engine_lacking; /* NULL, or per profile (nhw): 1 where it carries no
                                   engine_asked and its default engine times its rows */
    const char *ideal_by; /* NULL, or the option that made the search ideal ("--ideal",
                             "--engine ideal"), as the report names it (fixNI #2) */
    int threads;          /* CPU threads of the search's plans (rl_size_search): plans of
                             different replicas run at once, each replica's plans in their
                             order, so the rows are the same on any count; 0 or 1: one */
} rl_size_input;

/* Threads for rl_size_input.threads when the caller names none: the CPUs
 * online, at most RL_SIZE_MAX_THREADS. */
#define RL_SIZE_MAX_THREADS 8
int rl_size_default_threads(void);

/* Requests simulated per configuration at qps_scale x the stated load: the
 * trace's, or the workload's n raised to RL_SIZE_MIN_WINDOW_S of arrivals
 * (at most RL_SIZE_MAX_REQUESTS). */
long long rl_size_requests(const rl_size_input *in, double qps_scale);

typedef struct {
    int hw;            /* index into rl_size_input.hw */
    rl_precision p;
    long long chips;   /* per replica: pp stages of chips / pp */
    long long pp;      /* pipeline stages per replica (serve.h rl_serve_config.pp) */
    long long ep;      /* expert-parallel groups per stage under layout tp (MoE; 1: none) */
    rl_attn_layout layout; /* how a stage's chips split attention and KV (serve.h) */
    rl_policy policy;
    int max_seqs;
    long long max_tokens;
    int replicas;          /* decode replicas under disagg */
    int prefill_replicas;  /* disagg only */
    long long chips_total;
    double cost_per_hour;  /* USD/hour, or chips_total when unpriced */
    double usd_per_mtok;   /* USD per million output tokens; 0 when unpriced */
    int meets;             /* both p99 targets met and every request completed, at the load
                              and at (1 + headroom) x the load, and in size rows max_qps not
                              below that load (rl_size_decide); the figures below: at the load */
    double max_qps;        /* the load (req/s) at which it stops meeting the targets with its
                              replicas (rl_size_capacity); NAN: unknown.  In `size` rows it is
                              simulate's max_sustainable_qps for the row at the load: the
                              search's figure held by the whole sample's run at the load as
                              simulate holds it (rl_size_verified_capacity), never raised to a
                              load met only by one run's point p99 (h31audit finding 1) */
    int max_qps_lower_bound; /* RL_SERVE_LOWER_SPAN: the search's sample was too short for
                                a steady state at the load it failed, RL_SERVE_LOWER_CONFIDENCE:
                                too few effective requests to confirm it (serve.h
                                rl_serve_capacity), so max_qps is a lower bound; 0 too when
                                the verified loads held it down (size rows) */
    int max_qps_repeated;  /* 1: it rests on fewer distinct requests than the search's own
                              sample, repeated (serve.h rl_serve_config.capacity_repeated) */
    int max_qps_unresolved; /* serve.h rl_serve_config.capacity_unresolved */
    double run_qps_lo, run_qps_hi; /* what the latest complete run (rl_size_evaluate) makes of
                              a capacity search's figure, as simulate (serve.h
                              rl_serve_capacity_with_run): at least lo (its arrivals' rate
                              when it sustained them, else 0), at most hi (one lattice step
                              below that rate when its p99s missed, else INFINITY) */
    double reached_qps;    /* the rate that run is judged at (serve.h
                              rl_serve_judged_qps): capacity_utilization's numerator */
    int miss;              /* RL_SIZE_MISS_* bits of the complete run that set the figures
                              (0: it met both targets) */
    int ramp_only;         /* 1: that run's only sign of a growing queue was the count in the
                              system still rising from its empty start over arrivals spanning
                              less than RL_SERVE_CAPACITY_RAMP_SPANS of its ramp (serve.h
                              steady_unramped): it cannot tell that ramp from a backlog, so it
                              kept up as far as it can tell (not RL_SIZE_MISS_QUEUE) and the
                              capacity search decides (size.c step_to_capacity) */
    double fails_at_qps;   /* size rows: the load at which the whole sample missed (the load,
                              or (1 + headroom) x it when the load itself met); NAN: meets */
    int fails_on;          /* size rows: the RL_SIZE_MISS_* bits of that run (0: meets);
                              RL_SIZE_MISS_CAPACITY alone when the capacity decided */
    int verdict_by;        /* size rows: RL_SIZE_VERDICT_* (rl_size_verify) */
    int at_replica_bound;  /* size rows: 1 when no count met up to the most replicas the
                              bound allows each pool (RL_SIZE_MAX_REPLICAS, both pools of a
                              disaggregated row), and the row is at that count: more replicas
                              were not searched (rl_size_past_limit) */
    double sized_ttft_p99, sized_tpot_p99; /* size rows: the p99s at (1 + headroom) x the load */
    double ttft_p50, ttft_p99, tpot_p50, tpot_p99, e2e_p50, e2e_p99;
    int no_tpot; /* no request had 2 output tokens (1-token outputs): the TPOT
                    fields are 0 and unobserved, JSON null and "n/a" in the
                    report, as simulate's (serve.h rl_pcts n 0; tester19 F4) */
    double out_tokens_per_s;  /* over the whole run, drain tail in (serve.h out_tokens_per_s) */
    double steady_out_tokens_per_s; /* steady state (serve.h): the cost per token and the
                                       report's throughput */
    double goodput_req_per_s, slo_attainment;
    double utilization;       /* fraction of time replicas run a step, whatever its batch */
    double mean_decode_batch; /* decode sequences per decode step: how full the steps are */
    /* what the run spent its busy time on (ops.h rl_ops_run_mix: its decode
     * batch weighted by step time, mean decode context, decode steps, and
     * prompts prefilled): where rl_size_share weighs the label's share;
     * zeros: not run */
    rl_ops_run_mix mix;
    double weight_bytes_per_chip, kv_bytes_per_chip; /* HBM use per chip */
    double kv_capacity_tokens;                       /* per replica */
    /* The six times above (ttft_p50, ttft_p99, tpot_p50, tpot_p99, e2e_p50,
     * e2e_p99) with the same requests served on the profile moved to the
     * low (edge[0]) and high (edge[1]) edge of its band (e2e.h
     * rl_e2e_band_edge; a p5-p95 side the farther of its p5/p10 or
     * p90/p95 runs, e2e.h rl_e2e_band_runs); banded 0 when not run (rl_size_search runs them,
     * best row first, for the rows of profiles that have a band, until
     * work_budget is spent: rl_size_result no_band, unbanded_for_time). */
    int banded;
    double edge[2][6];
    /* size --conservative: the six times above served again on the
     * profile at the band's centre (band_rows, with the edge runs), the
     * central prediction its JSON keys and report cells print
     * (rl_size_time; fixND #2); has_centre 0: not run */
    int has_centre;
    double centre[6];
    /* How optimistic its mode (rl_size_mode) is, the tie-break at equal cost
     * (rl_size_rank): 0 measured (fitted, calibrated), 1 estimated, 2 ideal */
    int optimism;
    /* The mode that labels it (rl_size_mode) and the table-time share it
     * rests on (rl_size_share), derived once when the search ranks the
     * rows; mode NULL before (and after a new run of it) */
    const char *mode;
    double share;
} rl_size_candidate;

/* Row c's time k (edge order: ttft_p50, ttft_p99, tpot_p50, tpot_p99,
 * e2e_p50, e2e_p99) as its JSON keys and the report's cells print it: the
 * central prediction in every mode (fixND #2: under --conservative the
 * keys held the band's high edge, the figure the row was sized against,
 * which its _high key gives).  Under --conservative, the run at the
 * band's centre; NAN where none was made (the band runs' budget spent:
 * unbanded_for_time).  conservative: rl_size_input.conservative. */
static inline double rl_size_time(int conservative, const rl_size_candidate *c, int k)
{
    const double own[6] = {c->ttft_p50, c->ttft_p99, c->tpot_p50, c->tpot_p99, c->e2e_p50,
                           c->e2e_p99};
    if (!conservative)
        return own[k];
    return c->has_centre ? c->centre[k] : NAN;
}

/* The USD per hour of `chips` chips at `price` USD per chip-hour, rounded
 * to a micro-dollar (1e-6 USD/h, below any price's stated digits): the
 * product in doubles misses the decimal a price with cents gives (fixIK #5:
 * 48 x 1.2 read 57.599999999999994 in size's JSON `cost`); rounded, it is
 * the double nearest that decimal (57.6), which JSON prints as such. */
static inline double rl_size_usd_per_hour(double chips, double price)
{
    return round(chips * price * 1e6) / 1e6;
}

/* The whole tokens c's KV pool holds per replica: kv_capacity_tokens
 * floored (a part token holds none).  The one figure of size's JSON key
 * kv_capacity_tokens_per_replica and the report's "KV pool holds"
 * (tester55 F3: the report rounded 467291.6 to 467292, one token more
 * than the JSON and simulate said). */
static inline double rl_size_kv_tokens(const rl_size_candidate *c)
{
    return floor(c->kv_capacity_tokens);
}

typedef struct {
    rl_size_candidate *c; /* evaluated configurations: meeting ones first, cheapest first */
    int n;
    int nmeet;
    int priced;           /* every profile has a price (else cost = chips) */
    long long pruned;     /* configurations rejected analytically */
    long long sims;       /* simulations run */
    long long beyond_bound; /* plans needing more than RL_SIZE_MAX_REPLICAS replicas */
    int fewest_replicas;  /* the fewest replicas any such plan needed (estimate), for the refusal */
    long long skipped_for_time; /* plans not simulated: work_budget was spent (the name
                                   from its former CPU-time bound, kept: result keys) */
    unsigned long long events; /* simulator events of its plans' and band runs (work_budget
                                  counts them) */
    long long unbanded_for_time; /* rows left without their band runs (banded 0): the band
                                    runs count in work_budget too, and it was spent */
    long long unbanded_off_fit; /* rows of a fitted profile without a band: their plan lies
                                   off the fit (e2e.h rl_e2e_band_withheld: model, dtype, TP;
                                   review27 M2); under conservative, the plans left out of
                                   the search for it (not eligible: size.c conservative_plans) */
    char off_fit_why[512];      /* why, for the first of them */
    long long unbanded_derived; /* under conservative, kernel-table plans left out of the
                                   search: their engine's tables measure none of their GEMM's
                                   weights x compute or their KV dtype, so those operators are
                                   derived and their one-octave band does not cover the bias
                                   (engines.h rl_engine_derived; review28 L3); else 0 */
    char derived_why[512];      /* which, for the first of them */
    /* under conservative, the plans of hw[i] (i < left_out_n: every profile
     * of --hw, allocated, freed by rl_size_result_free; else NULL and 0) left
     * out for either reason, and the first one's why: the report says per
     * profile that none was sized and why (tester72 finding 3) */
    long long (*left_out_hw)[2]; /* [0] off the fit, [1] a derived dtype */
    char (*left_out_why)[320];
    int left_out_n;
    int no_band;          /* 1 + the index of the first searched profile (band_hw's, else
                             hw's) with no band, when calibrated: its rows are not banded
                             (the other profiles' rows are); 0 otherwise */
    double search_s;      /* wall time of the search */
    double arrival_rate;  /* the rate the load's arrivals realised, every row's (serve.h
                             rl_serve_arrival_rate; JSON rows' arrival_req_per_s) */
    double mean_prompt_tokens, mean_output_tokens; /* the realised mean lengths of the
                             load's requests, every row's (workload.h rl_requests_mean_lengths;
                             JSON's mean_prompt_tokens, mean_output_tokens; 0: null) */
    /* over every configuration whose weights leave KV room for the longest request
     * (INFINITY when none does): the shortest prefill of the mean prompt
     * (a TTFT no load can beat) and the shortest decode step at B = 1 */
    double min_ttft_s, min_tpot_s;
} rl_size_result;

/* Mean prompt and output lengths (tokens) of the input's workload: the
 * distributions' means, or the trace's averages. */
void rl_size_mean_lengths(const rl_size_input *in, double *prompt, double *output);

/* Search.  Returns 0 (out->nmeet may be 0: nothing meets the targets within
 * the search space), or -1 with err set for bad input.  Free with
 * rl_size_result_free. */
int rl_size_search(const rl_size_input *in, rl_size_result *out, char *err, size_t errlen);

void rl_size_result_free(rl_size_result *r);

/* Simulate candidate c (its replica counts as given) on in's workload with
 * the QPS scaled by qps_scale and prompt lengths by prompt_scale; fills
 * c's latency and throughput fields and c->meets.  Returns 0 or -1. */
int rl_size_evaluate(const rl_size_input *in, rl_size_candidate *c, double qps_scale,
                     double prompt_scale, char *err, size_t errlen);

/* c->max_qps: the load (requests/s) at which c, with its replicas, stops
 * meeting the targets: rl_serve_capacity with the SLOs on the workload's
 * first requests (serve.h), from no hint, as simulate searches: the figure
 * depends on the row and its requests alone, never on the load it was
 * sized for or on another row's figure (tester39 F5: the verdict is not
 * monotone in the load, and a hinted start ended 4% from simulate's
 * figure).  Returns 0 or -1.
 * `size` then holds it between the loads the full runs verified
 * (rl_size_verify). */
int rl_size_capacity(const rl_size_input *in, rl_size_candidate *c, char *err, size_t errlen);

/* A `size` row's verdicts: c holds its replicas and the figures of a
 * complete run at (1 + headroom) x the load (rl_size_resize or
 * rl_size_evaluate); they are kept as sized_*, then c is run at the load
 * (its figures) and its capacity searched.  c->meets: met at both loads
 * and max_qps not below the sized load (rl_size_decide); fails_at_qps /
 * fails_on: the first load of the two that missed and why; max_qps: the
 * search's figure held by the run at the load as simulate holds it
 * (rl_size_verified_capacity).  Returns 0 or -1. */
int rl_size_verify(const rl_size_input *in, rl_size_candidate *c, char *err, size_t errlen);

/* One rule for a size row's `meets` (tester48 F1: rows read meets true at
 * 24 req/s beside their own max_sustainable_qps of 18.8-23.8): c->fails_on
 * holds the p99 verdict's misses (0: the runs at the load and at `sized`,
 * (1 + headroom) x the load, met), c->max_qps the capacity search's
 * figure.  A row meets only when its runs met and its figure, where there
 * is one (finite; a lower bound only at or above `sized`: below it its
 * sample ended before any miss was seen, review43), is at least `sized`:
 * the figure's 95% bound on the share of requests over a target is the
 * better founded of the two (a run's p99 is one draw, optimistic near the
 * knee: serve.h sustained), so where they disagree on a row whose runs
 * met, the figure decides (fails_on RL_SIZE_MISS_CAPACITY, fails_at_qps
 * `sized`).  A null figure (unresolved, none found) leaves the p99s as the
 * verdict.  Sets c->meets and c->verdict_by (RL_SIZE_VERDICT_*). */
void rl_size_decide(rl_size_candidate *c, double sized);

/* The capacity search's figure `search` (a shorter sample, 2% resolution)
 * held by the whole sample's run at the load as simulate holds it (serve.h
 * rl_serve_capacity_with_run): at least `lo`, at most `hi` (the run's
 * run_qps_lo and run_qps_hi).  NAN stays NAN (no capacity: too few
 * requests, or offline).  It used to be held between the loads the row's
 * verdicts met and missed, so a row whose one run at the sized load met
 * on its point p99 read that load although the search's 95% bound read
 * less (h31audit finding 1: 24 beside simulate's 21.97 on the README's
 * recommendation); whether the row met at the sized load is `meets`. */
double rl_size_verified_capacity(double search, double lo, double hi);

/* The ranking of the result (< 0: a first): meeting first, then cheaper;
 * at equal cost the higher max_qps (the most margin against both targets)
 * by its band (rl_size_qps_band), then the wider weights and KV (no
 * quantization risk for no saving), the lower TPOT p99, the smaller batch
 * cap. */
int rl_size_rank(const rl_size_candidate *a, const rl_size_candidate *b);

/* The band of a capacity in rl_size_rank: floor(log_1.05 qps), so loads 5%
 * apart or more lie in different bands (a total order, unlike a 5%
 * tolerance); -INFINITY for none (NAN or 0). */
double rl_size_qps_band(double qps);

/* The replica count (prefill replicas scaled with it under disagg) that
 * meets the targets for c's per-replica configuration under the scaled
 * workload, searching upward from c's; c holds that count and its results.
 * -1 when none up to 4x does (c then holds the largest count tried and its
 * results, so its label and chip count agree); -2 on error.  A run that
 * kept up only as far as it can tell (c->ramp_only) counts as meeting
 * here; a size row at such a count is then held to its capacity search
 * (size.c step_to_capacity). */
int rl_size_resize(const rl_size_input *in, rl_size_candidate *c, double qps_scale,
                   double prompt_scale, char *err, size_t errlen);

/* c as rl_size_resize left it at R replicas (R > 0: its answer at (1 +
 * headroom) qs x the load, prompts x ps) made a size row, as the search
 * makes each: its pools trimmed, then verified at the load (its capacity
 * search included), and, when that figure falls short of the sized load
 * although the walk's run met only as far as it could tell (ramp_only),
 * moved to the fewest count whose capacity covers it (size.c trim_verify,
 * step_to_capacity).  R <= 0 (no count met): verified only.  0, or -1
 * with err. */
int rl_size_row(const rl_size_input *in, rl_size_candidate *c, int R, double qs, double ps,
                double headroom, char *err, size_t errlen);

/* The Pareto frontier of meeting candidates over (cost, TPOT p99): the
 * rows no other meeting row dominates, by pareto's rule (pareto.h
 * rl_pareto_front: a row dominates another when it costs no more and has a
 * lower TPOT p99, or costs less with the same, or is better beyond
 * RL_PARETO_REL_TOL in one and worse by no more than it in the other; of
 * rows equal in both, the first ranked stays; tester15 F-size-1: rows at
 * one cost each faster than every cheaper one all stayed; tester16 F5: one
 * rule for pareto and size).  Indices into r->c (meeting rows sorted
 * cheapest first), cheapest first, so cost rises and TPOT p99 falls
 * strictly along it; returns the count (idx holds r->n entries; 0 when
 * memory runs out). */
int rl_size_frontier(const rl_size_result *r, int *idx);

/* Whether r is the search's limit, not a verdict on the targets: nothing
 * meets, and either nothing was simulated because every plan needs more
 * than RL_SIZE_MAX_REPLICAS replicas a pool by estimate (fixNF #2), or
 * every simulated row missed with its queue growing (RL_SIZE_MISS_QUEUE:
 * too few replicas for the load) at the most replicas the bound allows
 * (at_replica_bound), so more replicas, which the bound forbids, were
 * never tried (issue 14, tester91 #2: it exited 3, "no configuration meets
 * both targets", for a load that 300 replicas a pool serve well within the
 * targets).  So, since stop 54, does a row at the bound short of the load
 * otherwise for want of replicas: its capacity short of the sized load
 * (RL_SIZE_MISS_CAPACITY: step_to_capacity's count past the bound, tried at
 * it), or every request completed, a p99 missed, and its capacity search
 * finding a load above 0 that meets the targets (a share that small meets
 * at the bound; until stop 54 a row failing only ttft_p99 there exited 3);
 * a row whose floor load misses too (max_sustainable_qps 0) is a verdict.
 * The CLI and roofline.size refuse it (exit 2, "search limit reached"),
 * writing nothing. */
int rl_size_past_limit(const rl_size_result *r);

/* The deployments a load past the limit (rl_size_past_limit) splits into:
 * enough that each share needs at most half the bound (RL_SIZE_MAX_REPLICAS
 * / 2 replicas a pool) by the best evidence r holds, the estimate of the
 * plans dropped (fewest_replicas) and, for rows run at the bound, the
 * pools their max_sustainable_qps scales to at the sized load (or more
 * than the bound when that is unknown).  Half, because the estimate is
 * optimistic: size.c rl_size_deployments gives the measured error. */
int rl_size_deployments(const rl_size_input *in, const rl_size_result *r);

/* Why r holds no configuration meeting the targets, in one sentence for the
 * CLI and the report: nothing fits, the TTFT or TPOT target is below what
 * any configuration reaches (min_ttft_s, min_tpot_s), the search's limit
 * (rl_size_past_limit) with the share of the load to size, or the
 * simulated ones all miss. */
void rl_size_why_none(const rl_size_input *in, const rl_size_result *r, char *buf, size_t len);

/* size --conservative (and roofline.size's conservative = true) on the
 * searched profiles hw[nhw]: moves each to the slow edge of its band (e2e.h
 * rl_e2e_band_edge; wide: p95, every run also made at p90 and taken out to
 * the farther, rl_size_input.inner_hw; else p90).  When the search is ideal or a
 * profile has no band, none is moved and it fails: -1 with err "sizes on
 * the slow end ...; H1, H2 have none (H3 has one). A band comes from ...",
 * naming every profile without one and how to get one; a profile whose
 * fitted band does not cover `model` (e2e.h rl_e2e_band_withheld: a model
 * the fit never saw) has none (h26fit).  Our decision
 * (issue 13): not sizing those rows at their point estimate, which beside
 * rows at their slow edge would favour the hardware without a band. */
int rl_size_slow_edges(rl_hw *hw, int nhw, const char *model, int ideal, int wide, char *err,
                       size_t errlen);

/* Whether the searched profiles hw[nhw] mix the two kinds of measured
 * evidence: one with engine costs fitted end to end (mode "fitted": a
 * serving framework's per-step host floor is in its costs, e.g. the
 * *-splitwise presets' ~30 ms per decode step) and one timed by kernel
 * tables (calibrated, no such floor).  Returns 1 with a note in buf that
 * names both (tester9 #7c: h100-sxm-splitwise read 2.6-3.4x h100-sxm on
 * Llama-2-70B TP8 decode), else 0. */
int rl_size_evidence_note(const rl_hw *hw, int nhw, int calibrated, char *buf, size_t len);

/* The rows of r on profile in->hw[hw] whose plan runs a dtype that profile's
 * kernel tables do not measure (engines.h rl_engine_derived: the GEMM of
 * its weights x compute, its KV dtype's attention, a quantized model's
 * routed experts): those operators are derived, another dtype's measured
 * efficiency at the same shape times their own roofline (provenance
 * derived), as step's note says (tester51 F4: size said nothing).  Returns
 * how many, with a note in buf naming the first (buf "" when none). */
int rl_size_derived_note(const rl_size_input *in, const rl_size_result *r, int hw, char *buf,
                         size_t len);

/* Rows of r on in->hw[hw] (calibrated runs) whose decode step (its plan
 * per pipeline stage at its mean decode batch, shard.h
 * rl_shard_collectives) runs a collective that in->hw[hw]'s collectives
 * table measures on fewer GPUs only: the alpha-beta model times it, raised
 * to the same collective's measured time (comm.h rl_comm_floored), however
 * much of the step the kernel tables time (stop 38 #1: GB200 TP8-TP64 rows
 * beside tables measured on 2 and 4 GPUs said nothing).  Each collective,
 * group, floor and table impl named as pareto's outside_tables names them
 * (comm.h rl_comm_floors_text; review of stop 38: the note said "tensor
 * parallel" and AllReduce for EP and attention-DP rows too, and read the
 * largest AllReduce group of any impl).  Returns how many rows, with a note
 * in buf naming the first row and its layout (buf "" when none). */
int rl_size_outside_note(const rl_size_input *in, const rl_size_result *r, int hw, char *buf,
                         size_t len);

/* When in->hw[hw]'s selected engine (calibrated runs) measures no MoE
 * kernel of the model's expert shape, step's note that its routed experts
 * are timed from the dense GEMM table (ops.h rl_ops_moe_gemm_note), at the
 * precision of the profile's first row in r (the run's first precision
 * without one), whole (ops.h rl_ops_moe_note; the caller frees it); else
 * NULL.  size says it once per profile and its report beside the
 * provenance (t56 #2). */
char *rl_size_moe_note(const rl_size_input *in, const rl_size_result *r, int hw);

/* The load a search sizes for, req/s: (1 + headroom) x the offered load
 * in->w.qps (rl_size_input.headroom; docs/serving.md, size).  The one
 * place it is computed (the verification, the carried rows, the notes and
 * the result's sized_for_qps read it). */
double rl_size_sized_qps(const rl_size_input *in);

/* Which targets row c's band misses at its high edge: the p99 there (never
 * below the row's own p99, as the report's band cell shows it) into
 * hi[0] (TTFT, s) and hi[1] (TPOT, s), and a mask of the missed ones
 * (bit 0 TTFT, bit 1 TPOT; TPOT never where the row has none).  One
 * place for size's report "Caution on the band" and its stderr caution
 * (t56 #2, fixJK #6); 0 for an unbanded row. */
int rl_size_band_edge_misses(const rl_size_input *in, const rl_size_candidate *c, double hi[2]);

/* Whether size --conservative leaves plan c out (its rule, the one its
 * search applies: docs/model.md): 0 it sizes c on its band's slow edge;
 * 1 c's fitted profile withholds its band (e2e.h rl_e2e_band_withheld: off
 * the fit; review27 M2); 2 c runs a dtype its profile's kernel tables do
 * not measure (derived: its band, the measured dtype's widened one octave,
 * does not cover the derived time's bias; review28 L3).  why (n bytes)
 * says which, off 0. */
int rl_size_conservative_off(const rl_size_input *in, const rl_size_candidate *c, char *why,
                             size_t n);

/* The clause that closes a caution on row c's band edge (size's stderr
 * and its report): "size --conservative " + sized where the rule above
 * sizes c on that edge, else that --conservative does not size c, and why
 * (fixWE #1: a derived int4 row's caution read "size --conservative sizes
 * against it", which then refused every plan as derived). */
void rl_size_conservative_advice(const rl_size_input *in, const rl_size_candidate *c,
                                 const char *sized, char *buf, size_t len);

/* Whether the TPOT target in->slo_tpot is tighter than profile in->hw[hw]'s
 * fixed per-step host cost, which every decode step carries whatever the
 * batch or plan (a fitted profile's decode_step_s, enginecost.h (E); else
 * its engine's step_s, engines.h): 1 with a caution in buf naming both,
 * else 0 (also under --ideal, which charges none).  A caution, not a
 * refusal: the search still runs and its rows say what they reach
 * (tester51 F3). */
int rl_size_tpot_host_caution(const rl_size_input *in, int hw, char *buf, size_t len);

/* The same caution for profile h, a TPOT target slo_tpot (0: none) and
 * a run timed calibrated (1) or not (--ideal: no host cost charged); `who`
 * names what cannot meet it ("no row", size; "no configuration", simulate,
 * tester51 F3's leftover: simulate takes the targets too, and leaves the
 * caution out under --spec, whose steps emit several tokens).  1 with the
 * caution in buf, else 0. */
int rl_tpot_host_caution(const rl_hw *h, int calibrated, double slo_tpot, const char *who,
                         char *buf, size_t len);

/* Whether candidate c meets on its p99s alone (verdict_by p99: its
 * max_sustainable_qps null, unresolved or a lower bound below the sized
 * load, rl_size_decide): 1 with a caution in buf saying so and why its
 * capacity is unresolved where the row says, else 0 (tester51 F7: the
 * recommendation read like a row whose capacity was resolved). */
int rl_size_p99_caution(const rl_size_input *in, const rl_size_candidate *c, char *buf,
                        size_t len);

/* The same mark for every such row, in the row (JSON verdict_note, the
 * report's meets cell; fixJH: a README-only tester read a p99-only row,
 * TTFT p99 999 ms against 1000 with capacity null, pass unmarked beside
 * rows whose capacity fell just short failing): 1 with "capacity not
 * established: ..." and why in buf, else 0 (buf ""). */
int rl_size_verdict_note(const rl_size_input *in, const rl_size_candidate *c, char *buf,
                         size_t len);

/* The precision of row c when the search chose it rather than the user
 * (in->nprec 0: no --keep-precision) and it quantizes below 16 bits
 * (weights other than a quantized = "experts" model's own MXFP4, or the KV
 * cache): 1 with a caution in buf naming the dtypes and that they were not
 * asked for, else 0 (buf "").  Issue 14 #3: the recommendation's w:fp8
 * kv:fp8 read as asked for; the report's assumptions said only that int8
 * and fp8 are assumed to keep quality. */
int rl_size_precision_caution(const rl_size_input *in, const rl_size_candidate *c, char *buf,
                              size_t len);

/* The --burst coefficient of variation of in's generated gamma arrivals
 * (the rows' and the result's JSON burst), 0 for Poisson or a trace. */
double rl_size_burst(const rl_size_input *in);

/* The mode that labels candidate c (spec.h rl_run_mode over rl_size_share):
 * fitted, calibrated, estimated or ideal; c->mode once the search ranked it. */
const char *rl_size_mode(const rl_size_input *in, const rl_size_candidate *c);

/* A replica's layout: "tp8", "attn-dp8", "tp4 ep2" (tp chips, ep groups), "tp8 pp2". */
void rl_size_layout_name(const rl_size_candidate *c, char *buf, size_t len);

/* The table-time share that labels candidate c (spec.h rl_run_mode): its
 * replica's decode steps and prefills weighted by the busy time its run
 * spent on each (ops.h rl_ops_serving_share over c->mix), as simulate's for
 * the same run; a candidate not run: the decode step at its batch cap at
 * the KV pool's context; -1 unknown; c->share once the search ranked it. */
double rl_size_share(const rl_size_input *in, const rl_size_candidate *c);

/* What rl_size_share weighs for c: c->mix, or for a candidate not run the
 * decode step at its batch cap at the KV pool's context (also its
 * outside_tables' steps, result.c). */
rl_ops_run_mix rl_size_mix(const rl_size_candidate *c);

/* A short label naming the layout: "h100-sxm 3x8 tp8 w:bf16 kv:bf16 continuous B<=128",
 * "tpu-v5e 7x8 tp8 w:int8 kv:int8 c:bf16 ..." (the compute dtype where it is not the weights'),
 * "h200 1x8 attn-dp8 ...", "h100-sxm 1x16 tp8 pp2 ...". */
void rl_size_label(const rl_size_input *in, const rl_size_candidate *c, char *buf, size_t len);

/* The precisions the search tries on profile hi into out[8] (the caller's
 * array, 8 entries): --keep-precision's given ones (in->prec, at most 8),
 * else bf16, int8 weights and KV, fp8 (or int8 compute where the chip has
 * no fp8 peak), MXFP4 experts for a model quantized so, fp32 on a chip
 * without bf16.  Returns how many. */
int rl_size_precisions(const rl_size_input *in, int hi, rl_precision *out);


/* Two cautions on the pick the report gives (fixND #12; docs/serving.md,
 * "Cautions on the pick"), our thresholds:
 * - thin margin: its max_sustainable_qps under RL_SIZE_THIN_MARGIN x the
 *   sized load (5%: the capacity search's own resolution is 2%, and the
 *   README example sustains 24.28 req/s against 24 sized, 1.2% over);
 * - a less trusted pick: a meeting row whose mode is more trusted (lower
 *   rl_size_candidate.optimism: measured before estimated before ideal)
 *   costs at most RL_SIZE_NEAR_COST more (10%: the README example's
 *   estimated tpu-v5e pick is 3.3% under a calibrated h100-sxm row, while
 *   an estimated mode's datasheet peaks at efficiency 1.0 are optimistic
 *   by more than that; docs/model.md puts measured kernels at 40-90% of
 *   peak). */
#define RL_SIZE_THIN_MARGIN 1.05
#define RL_SIZE_NEAR_COST 0.10

/* 1 when row c (a meeting row with a capacity figure) sustains less than
 * RL_SIZE_THIN_MARGIN x in's sized load. */
int rl_size_thin_margin(const rl_size_input *in, const rl_size_candidate *c);

/* The index of the cheapest meeting row of r whose mode is more trusted
 * than r->c[0]'s and whose cost is within RL_SIZE_NEAR_COST above it; -1
 * when none (or r->c[0] does not meet). */
int rl_size_trusted_alternative(const rl_size_result *r);

/* The "less trusted pick" caution's sentence in buf (len bytes): the row
 * rl_size_trusted_alternative finds, its mode, cost and the difference;
 * 1 when there is one, 0 otherwise (the report's Recommendation and
 * size's stderr: stop 48 #2). */
int rl_size_evidence_caution(const rl_size_input *in, const rl_size_result *r, char *buf,
                             size_t len);

/* A caution when the p99 verdicts rest on few requests (tester finding,
 * stop 48 #1b): a p99 over N requests is set by its N/100 worst, so with
 * fewer than RL_SIZE_FEW_REQUESTS a run (fewer than 20 beyond its p99) the
 * share of requests over a target at a true 1% reads, at 95%, anywhere in
 * 1% +- 1.96 sqrt(0.01 x 0.99 / N): 0.56-1.44% at N = 2000, 0.13-1.87% at
 * N = 500 (the binomial's normal approximation): a row a few percent from a
 * target meets or misses by the sample, and a load curve need not be
 * monotone.  2000 is half the default --requests 4000.  1 and the sentence
 * in buf (len bytes) when in's runs at the stated load hold fewer; 0
 * otherwise (and on a --trace: its requests are the traffic itself, so
 * no more of them can be drawn). */
#define RL_SIZE_FEW_REQUESTS 2000
int rl_size_sample_caution(const rl_size_input *in, char *buf, size_t len);

/* The rows' realised mean lengths off their DISTs' MEANs (workload.h
 * rl_workload_mean_note, on r's mean_prompt_tokens and mean_output_tokens
 * of rl_size_requests at the stated load, the share in->truncated_frac
 * redrawn; never for a trace): buf, or NULL.  pname/oname as the user
 * named the DISTs. */
const char *rl_size_mean_note(const rl_size_input *in, const rl_size_result *r,
                              const char *pname, const char *oname, char *buf, size_t len);

/* ---- studies of one configuration for the report ---- */

#define RL_SIZE_CURVE_POINTS 7

typedef struct {
    double qps_scale, prompt_scale;
    rl_size_candidate fixed;   /* the recommended deployment as is, under the change */
    rl_size_candidate resized; /* the same replica config resized to meet the targets */
    int resized_ok;            /* 0: nothing up to 4x the replicas meets them */
    double redrawn_frac;       /* prompt_scale != 1: the share of the scaled requests over
                                  the model's max_context (size.c make_requests): drawn again,
                                  or on a --trace cut to fit (rl_requests_truncate: a trace
                                  has no distribution to draw from, and dropping them would
                                  change the load; tester33 final read: the cut was silent) */
} rl_size_sensitivity;

typedef struct {
    int n;
    double qps[RL_SIZE_CURVE_POINTS];
    double ttft_p99[RL_SIZE_CURVE_POINTS], tpot_p99[RL_SIZE_CURVE_POINTS],
        e2e_p50[RL_SIZE_CURVE_POINTS], utilization[RL_SIZE_CURVE_POINTS],
        mean_decode_batch[RL_SIZE_CURVE_POINTS];
} rl_size_curve;

/* Load -> latency of candidate c at 0.25..1.5 x the QPS (fixed replicas),
 * and its sensitivity to QPS x0.5, x1.5 and prompts x2 (sens holds 3).
 * Returns 0 or -1. */
int rl_size_study(const rl_size_input *in, const rl_size_candidate *c, rl_size_curve *curve,
                  rl_size_sensitivity *sens, char *err, size_t errlen);

#endif
