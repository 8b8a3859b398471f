/* serve_validate.h — the serving simulator against the reference engine.
 *
 * Owns a small orchestrator that serves a request trace on the reference
 * engine with the interleaved policy of seed 000 section 4 (a prompt is
 * prefilled at B = 1 and inserted whenever a decode slot is free and a
 * request has arrived, otherwise one generate step runs for every active
 * slot), on a virtual clock that advances by each measured engine call and
 * jumps over idle gaps to the next arrival; and the comparison of its
 * measured TTFT and TPOT percentiles with the simulator's prediction of the
 * same trace (policy interleaved, the same slots, the calibrated profile),
 * at stated fractions of the engine's measured capacity, each repeated (issue
 * 14 item 11: one load near capacity made the errors swing with queueing).
 * Uses engine, backend, serve, workload, spec, calib (clock, quantiles). */
#ifndef RL_SERVE_VALIDATE_H
#define RL_SERVE_VALIDATE_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include <stdio.h>

#include "spec.h"
#include "workload.h"

/* Default repeats: the engine serves each load's trace this many times and
 * each measured percentile is the median over them (one run's TPOT p50
 * moved by up to 20% between back-to-back runs on the shared development
 * VM); --repeats sets it. */
#define RL_SERVE_VALIDATE_RUNS 3

/* The accuracy target of issue 7: |simulated / measured - 1| <= 10% for
 * TTFT and TPOT p50 and p90 (each row's within_target; all_within_target). */
#define RL_SERVE_VALIDATE_TARGET 0.10

/* The loads of a validation.  The engine's capacity is measured first: the
 * whole trace arrives at t = 0 (the offline mode of MLPerf Inference and of
 * trtllm-bench's throughput benchmark) and capacity = requests / makespan
 * on the virtual clock, the median over the repeats.  Each load then
 * serves the trace with its arrival times scaled to qps = fraction x that
 * capacity (or the one `qps` given), so every load sees the same requests
 * in the same order. */
typedef struct {
    const char *backend;     /* "cpu" | "cuda" */
    int threads;             /* cpu: threads (0: the backend's default) */
    int slots;               /* decode slots (the engine's and the simulator's max batch) */
    int repeats;             /* engine runs per load (and for the capacity), >= 1 */
    const double *fractions; /* of the measured capacity, each in (0, 1] */
    int nfractions;          /* 0: one load at `qps` */
    double qps;              /* requests/s, when nfractions == 0 */
    FILE *progress;          /* NULL: silent; else one line at the start with the engine runs
                                and their expected duration (the simulator's busy time of each
                                run on this profile), and one line as each run ends */
} rl_serve_validate_opts;

/* Serve req[0..n) (prompts <= 512 tokens; arrivals of a unit-rate trace, 1
 * request/s on average, scaled to each load) on the engine for m and
 * simulate the same traces on hardware h (calibrated when h has efficiency
 * tables; fp32 weights, KV and compute as the engine runs).  Returns the
 * capacity (capacity_rps and its min/max over the repeats,
 * simulated_capacity_rps), one entry per load in `loads` (qps,
 * capacity_fraction, capacity_utilization = qps / capacity_rps,
 * engine_busy_fraction: the engine's busy time over its makespan, median
 * over the repeats), and `rows`: per load, TTFT and TPOT p50 / p90 with
 * measured_s (median of the repeats), measured_min_s / measured_max_s,
 * simulated_s, error = simulated / measured - 1, error_min / error_max
 * (the error against the slowest and fastest repeat) and within_target;
 * plus the run's totals (requests, slots, engine_runs = repeats,
 * engine_busy_s of the last run).  NULL with err set. */
cJSON *rl_serve_validate(const rl_model *m, const rl_hw *h, const rl_serve_validate_opts *o,
                         const rl_request *req, long long n, char *err, size_t errlen);

#endif
