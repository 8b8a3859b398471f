/* bench_sweep.c — sweep evaluation rate on one core (`make bench`).
 *
 * Times rl_sweep_run in ideal mode over a grid (every valid slice of the
 * chip x 2048 batch sizes x 4 contexts x 4 precisions), a bare
 * rl_step_decode loop, and the sharded mode (every plan of the sharding
 * module, collectives included) on a smaller grid, and on profiles with
 * efficiency tables the calibrated decode step of a tp8 plan with its
 * collectives (rl_shard_step_calibrated; issue 12 target >= 3e5 evals/s
 * on one core; measured per CPU second on the shared 2-core VM at load ~5,
 * medians of 3 runs: 1.81e5 at f0e5910, 2.52e5 at 58fa3a9, 2.67e5 after
 * h32step2; 2.99e5 at 90dd74e and 4.38e5 after h33speed, at load ~11, same
 * session; callgrind, deterministic: 39,608 -> 28,283 -> 26,814 -> 37,281
 * (90dd74e: a per-step snprintf) -> 25,238 instructions per evaluation),
 * and of llama3-70b on h100-sxm (`bench_sweep calibrated`: these alone),
 * and the sweep of the pareto example at the datasheet peaks and calibrated,
 * after one warm-up, over REPS repetitions, and prints the median and the
 * spread of evaluations per second with commit, host and UTC time (the
 * llama-bench convention of STYLE.md).  Target: >= 1e7 step evaluations/s.
 * The figure is reported, never asserted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "shard.h"
#include "spec.h"
#include "stats.h"
#include "step.h"
#include "sweep.h"

#define REPS 7

static double clock_s(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double now(void) { return clock_s(CLOCK_MONOTONIC); }

static void report(const char *what, double *rate, const char *model, const char *hw)
{
    qsort(rate, REPS, sizeof *rate, rl_cmp_double);
    char stamp[512];
    bench_stamp(stamp, sizeof stamp);
    printf("%-26s %-12s %-10s median %.3g evals/s  (min %.3g, max %.3g; %d reps)  %s\n", what,
           model, hw, rate[REPS / 2], rate[0], rate[REPS - 1], REPS, stamp);
}

/* Warm-up, then REPS timed runs of the sweep: evaluations per second into
 * rate[REPS].  Returns the evaluations of one run, or -1 (message printed). */
static long long time_sweep(const rl_model *m, const rl_hw *h, const rl_sweep_space *sp,
                            double *rate)
{
    long long evals = 0;
    for (int r = -1; r < REPS; r++) { /* r = -1: warm-up */
        rl_sweep s;
        char err[1024];
        double t0 = now();
        if (rl_sweep_run(m, h, sp, &s, err, sizeof err) != 0) {
            fprintf(stderr, "bench: %s\n", err);
            return -1;
        }
        double dt = now() - t0;
        evals = s.evaluated;
        rl_sweep_free(&s);
        if (r >= 0)
            rate[r] = (double)evals / dt;
    }
    return evals;
}

/* The calibrated decode step of a tp8 plan with its collectives
 * (rl_shard_step_calibrated: the engine's kernel tables where the profile
 * has them, measured collectives), bf16, 2048 batches x 4 contexts. */
static int bench_calibrated(const rl_model *m, const rl_hw *h, const char *model, const char *hw)
{
    static const long long ctx[] = {1024, 2048, 4096, 8192};
    rl_precision bf16 = {RL_BF16, RL_BF16, RL_BF16};
    rl_shard_plan tp8 = rl_shard_plan_default();
    tp8.tp = 8;
    double rate[REPS], cpu[REPS];
    char err[1024];
    volatile double sink = 0;
    for (int r = -1; r < REPS; r++) {
        double t0 = now(), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
        long long n = 0;
        for (int c = 0; c < 4; c++)
            for (long long b = 1; b <= 2048; b++, n++) {
                rl_step st;
                rl_shard_result coll;
                if (rl_shard_step_calibrated(m, h, &tp8, 8, b, ctx[c], bf16, &st, &coll, err,
                                             sizeof err) != 0) {
                    fprintf(stderr, "bench: %s\n", err);
                    return 1;
                }
                sink += st.step_s;
            }
        double dt = now() - t0, dc = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
        if (r >= 0) {
            rate[r] = (double)n / dt;
            cpu[r] = (double)n / dc;
        }
    }
    report("calibrated tp8 step + comm", rate, model, hw);
    /* per second of this process's CPU time: the one-core rate on a host
     * shared with other work, where wall time counts the others' turns */
    report("  the same, per CPU second", cpu, model, hw);
    (void)sink;
    return 0;
}

static int bench(const char *model, const char *hw)
{
    rl_model m;
    rl_hw h;
    char err[1024];
    if (rl_model_load(model, NULL, 0, &m, err, sizeof err) != 0 ||
        rl_hw_load(hw, NULL, 0, &h, err, sizeof err) != 0) {
        fprintf(stderr, "bench: %s\n", err);
        return 1;
    }
    static long long batch[2048];
    for (int i = 0; i < 2048; i++)
        batch[i] = i + 1;
    long long ctx[] = {1024, 2048, 4096, 8192};
    rl_precision prec[] = {{RL_BF16, RL_BF16, RL_BF16}, {RL_INT8, RL_BF16, RL_BF16},
                           {RL_BF16, RL_INT8, RL_BF16}, {RL_INT8, RL_INT8, RL_BF16}};
    rl_sweep_space sp = {NULL, 0, batch, 2048, ctx, 4, prec, 4, 0, 0, 0, 0, 0, 0};
    double rate[REPS];
    long long evals = time_sweep(&m, &h, &sp, rate);
    if (evals < 0)
        return 1;
    report("rl_sweep_run (ideal)", rate, model, hw);
    printf("  grid: %lld points per sweep (every valid slice x 2048 batches x 4 contexts x 4 "
           "precisions)\n", evals);

    volatile double sink = 0;
    for (int r = -1; r < REPS; r++) {
        double t0 = now();
        long long n = 0;
        for (int c = 0; c < 4; c++)
            for (int b = 0; b < 2048; b++, n++)
                sink += rl_step_decode(&m, &h, 16, batch[b], ctx[c], prec[c]).step_s;
        double dt = now() - t0;
        if (r >= 0)
            rate[r] = (double)n / dt;
    }
    report("rl_step_decode (bare)", rate, model, hw);
    if (h.efficiency.present && bench_calibrated(&m, &h, model, hw) != 0)
        return 1;
    /* sharded mode: every plan of the sharding module per point (collectives
     * included); a smaller grid, rated per plan evaluated */
    rl_sweep_space sh = {NULL, 0, batch, 64, ctx, 1, prec, 2, 0, 0, 1, 0, 0, 0};
    long long plans = time_sweep(&m, &h, &sh, rate);
    if (plans < 0)
        return 1;
    report("rl_sweep_run (sharded)", rate, model, hw);
    printf("  sharded grid: %lld plan evaluations per sweep (every valid slice x 64 batches x 2 "
           "precisions x every plan)\n", plans);
    (void)sink;
    return 0;
}

/* The sweep of `pareto --model llama3-70b --hw h100-sxm --chips 8 --context
 * 4096 --weights fp8 --compute fp8 --kv fp8` (issue 14 item 6's example: 12
 * batches 1..2048, every plan), its plans at the datasheet peaks and timed
 * calibrated (sweep.h), rated per plan evaluated, with the milliseconds
 * one sweep takes (the median run). */
static int bench_pareto(const rl_model *m, const rl_hw *h)
{
    static const long long chips = 8, ctx = 4096;
    long long batch[12];
    for (int i = 0; i < 12; i++)
        batch[i] = 1LL << i;
    rl_precision fp8 = {RL_FP8, RL_FP8, RL_FP8};
    for (int cal = 0; cal < 2; cal++) {
        rl_sweep_space sp = {&chips, 1, batch, 12, &ctx, 1, &fp8, 1, 0, 0, 1, 0, cal, 0};
        double rate[REPS];
        long long evals = time_sweep(m, h, &sp, rate);
        if (evals < 0)
            return 1;
        report(cal ? "pareto example (calibrated)" : "pareto example (peaks)", rate, "llama3-70b",
               "h100-sxm");
        printf("  %lld plan evaluations per sweep, %.3g ms per sweep (median)\n", evals,
               1e3 * (double)evals / rate[REPS / 2]);
    }
    return 0;
}

/* `bench_sweep calibrated`: the calibrated step alone (profiling). */
int main(int argc, char **argv)
{
    int only = argc > 1 && !strcmp(argv[1], "calibrated");
    int rc = only ? 0 : bench("llama3-70b", "tpu-v5e");
    rc |= only ? 0 : bench("mixtral-8x7b", "h100-sxm");
    /* the dense model of issue 12's figure (rates in the comment at the top) */
    rl_model m;
    rl_hw h;
    char err[1024];
    if (rl_model_load("llama3-70b", NULL, 0, &m, err, sizeof err) != 0 ||
        rl_hw_load("h100-sxm", NULL, 0, &h, err, sizeof err) != 0) {
        fprintf(stderr, "bench: %s\n", err);
        return 1;
    }
    return rc | bench_calibrated(&m, &h, "llama3-70b", "h100-sxm") | bench_pareto(&m, &h);
}
