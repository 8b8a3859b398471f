/* calib.h — `roofline calibrate` and `roofline validate`: microbenchmarks
 * through the reference engine's kernels, the efficiency fit, and the
 * predicted-vs-measured comparison of whole engine runs.
 *
 * Benchmarks follow llama-bench: per pass over the grid (3 passes) one
 * warm-up and 3..8 samples (~20 ms), raw samples kept, median, MAD and minimum reported
 * (the fit and validate use the minimum: on a shared host other load only
 * adds time, so it is the reproducible figure), rows
 * stamped with commit, host and UTC time, progress on stderr.  Weights and
 * KV pages rotate through copies larger than the last-level cache so every
 * kernel reads them from DRAM as in the engine.  Uses engine, backend,
 * engine_ops, efficiency, spec, report, outdir (the tables folder), cJSON. */
#ifndef RL_CALIB_H
#define RL_CALIB_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "spec.h"

typedef struct {
    const char *backend; /* "cpu" | "cuda" */
    const char *model;   /* spec whose shapes the GEMM grid uses (default tiny-ref) */
    const char *outdir;  /* default hw_profiles/calibrated */
    const char *save;    /* calibrate: the profile's path (default OUTDIR/<host>.lua); the raw
                            samples go beside it, .lua replaced by .json */
    const char *tables_out; /* calibrate: where the kernel measurements go as tables (default:
                               the profile's path less .lua, plus "-tables") */
    const char *profile; /* validate: hardware spec (default calibrated/<host>) */
    const char *engine;  /* validate: the profile's engine to predict with (NULL: its default,
                            `reference` in a profile calibrate wrote; "ideal": none) */
    int quick;           /* smaller grid (tests) */
    int threads;         /* cpu backend threads (<= 0: every core); the CLI's default is 1:
                            one thread's timings are the reproducible ones on a shared host,
                            and profile and engine runs must use the same count */
    int passes;          /* validate: passes over the grid (<= 0: 2) */
    const char *plot;    /* validate: the matmul figure NAME.png, NAME-steps.png beside it
                            (NULL: no figure; the CLI's --plot) */
    int *io_failed;      /* calibrate: set to 1 (when not NULL) where it failed to write a
                            file (exit 1), not on bad input */
    int *smoke_profile;  /* validate: set to 1 (when not NULL) when the profile is a smoke
                            test (calibrate --quick); the CLI says so, in one place */
} rl_calib_opts;

/* Measure, fit and write OUTDIR/<host>.lua (a hardware spec with
 * `efficiency`, atomically) plus OUTDIR/<host>.json (raw samples).
 *
 * One calibration path, two sources (issue 12): the GEMM, decode attention
 * and prefill attention measurements are also written as kernel tables in
 * the format of measured silicon data (silicon.h: TABLES/reference/
 * gemm_perf.csv.gz, generation_attention_perf.csv.gz,
 * context_attention_perf.csv.gz, latency the median of the repeats in ms;
 * dtype float32 for the cpu backend's fp32 GEMMs, bfloat16 for cuda's,
 * attention float32 on both), beside the host's spec without them
 * (TABLES/base.lua: peaks, bandwidth, the efficiency curves of every
 * class); the profile is then what `calibrate --tables TABLES --hw
 * TABLES/base.lua --engine reference` writes from them: silicon.c's
 * importer and writer, engine `reference` as its default.  The norms,
 * RoPE, residual adds and SwiGLU keep their efficiency curves (the table
 * format has no such class).  Returns a summary (paths, hbm_bw, flops,
 * rows, tables, engine, kernel_tables) or NULL with err set. */
cJSON *rl_calibrate(const rl_calib_opts *o, char *err, size_t errlen);

/* The files rl_calibrate writes (each `len` bytes): the profile (--save, or
 * OUTDIR/<host>.lua), its raw samples (the profile's path, .lua replaced by
 * .json) and the tables folder (--tables-out, or the profile's path less
 * .lua plus "-tables"; base.lua and reference/ inside). */
void rl_calib_paths(const rl_calib_opts *o, char *lpath, char *jpath, char *tdir, size_t len);

/* Run the engine over the grid (two passes, each point keeping its
 * minimum; about 2.5 minutes on a 2-core host), predict each run from the profile, and
 * return the comparison: rows (phase, batch, context, measured_s,
 * predicted_s, error, noise = MAD / median of the repeats), per-operator
 * residuals, median/p90/max |error|, noisy_runs (noise > RL_CALIB_NOISE,
 * with a warning on stderr); with o->plot NAME.png two figures: NAME.png
 * (matmul FLOP/s vs intensity) and NAME-steps.png (every step's predicted vs
 * measured time), each with NAME.dat and NAME.gp beside it (plot.h
 * rl_plot_side_files; NAME-steps.dat, .gp) (keys plot and plot_steps, null
 * without).  NULL with err set. */
cJSON *rl_validate(const rl_calib_opts *o, char *err, size_t errlen);

/* rl_validate's second figure beside `plot` (NAME.png): NAME-steps.png into
 * steps[len]. */
void rl_validate_steps_plot(const char *plot, char *steps, size_t len);

/* Repeated measurements are noisy when their median absolute deviation
 * exceeds this fraction of their median: calibrate and validate then warn
 * (on a shared host other load shows up there first; the validation target
 * is a 5% median error, so noise beyond 5% makes it unjudgeable). */
#define RL_CALIB_NOISE 0.05

/* The rotation memory calibrate's benchmarks share: two arenas of `bytes`
 * (weights; K and V pages) and the offset the next run reads from.  One
 * cursor for all benches, so a run reads memory that at least
 * RL_CALIB_REUSE_BYTES of other runs' reads separate from its last read
 * (4x a 32 MiB LLC: from DRAM, as the engine's weights and K/V are, stop
 * 27's measurement in docs/validation.md); each bench restarting at offset
 * 0 made a bench read the copies its predecessor of the same weight size
 * had just pulled into the cache (tester19: gemm M = 2, N = 256, K = 1024,
 * 1 MiB, right after the M = 1 gemv of that weight, read 1.2-2.3x faster
 * than the host's DRAM copy). */
typedef struct {
    char *arena[2];
    size_t bytes, next;
} rl_calib_rotation;
#define RL_CALIB_REUSE_BYTES ((size_t)128 << 20)

/* Bytes an arena needs so that units up to `largest` bytes keep that
 * distance: 256 MiB, or RL_CALIB_REUSE_BYTES + 2 x largest when more (a
 * 128.5 MiB K page set of decode attention, B = 32, S = 4097, fits 256 MiB
 * once: each run read the same memory as the run before: stop 27). */
size_t rl_calib_rotation_bytes(size_t largest);

/* The offset of the next unit of `unit` bytes in r: the cursor rounded up
 * to a multiple of `align` (a weight copy 4096, a K/V page set its page),
 * back to 0 where the unit would pass the end: a ring, so memory is read
 * again only after about `bytes` less twice the largest unit of other
 * reads.  (Until stop 27 the cursor went up to a multiple of the unit: a
 * bench's first unit after a smaller one's could land back on memory just
 * read, the B = 32, S = 4097 decode attention's on the B = 32, S = 2049
 * one's.) */
size_t rl_calib_rotation_take(rl_calib_rotation *r, size_t unit, size_t align);

/* A queued backend's (cuda) fixed cost of one timed sample: a sample of
 * n >= 2 calls back to back and one synchronisation takes n h + F (h a
 * call's marginal cost: its launch overlapped with the previous call's
 * kernel, or the kernel where it is longer; F paid once: the first launch
 * reaching the device, the last kernel's tail and the synchronisation
 * returning), and one call with its synchronisation h + F, so
 * F = (one - per_call) n / (n - 1).  Given n samples' one-call times
 * `one`, per-call times `per_call` (n h + F over n) and `calls`, the median
 * of that over the samples with calls >= 2, at least 0 (0 when none).
 * An engine step pays F once, not once a kernel: calibrate subtracts F / n
 * from each sample (stop 38, docs/validation.md: on an H200 it was about
 * 10 us, 2-3 us a call at n = 4..13, in every kernel of a step). */
double rl_calib_fixed_cost(const double *one, const double *per_call, const int *calls, int n);

/* p-quantile (0..1) of v (n >= 1) by nearest rank (p = 0: the minimum,
 * 0.5: the median); sorts v in place. */
double rl_calib_quantile(double *v, int n, double p);

/* 1 with "WHO: interrupted (SIGINT) ...; nothing written" in err when
 * SIGINT has arrived (interrupt.h), else 0: polled between benchmarks and
 * grid points, so an interrupted run stops before writing any file. */
int rl_calib_interrupted(const char *who, char *err, size_t errlen);

/* This machine's short host name. */
void rl_calib_host(char *out, size_t len);

/* The CPU threads h's selected engine was measured with, as calibrate
 * --backend cpu records them in its source ("DEVICE (cpu backend, N
 * thread(s))", or "every core"): N, 0 for every core, -1 when it does not
 * say (another backend, imported tables, no engine). */
int rl_calib_profile_threads(const rl_hw *h);

/* validate --backend and validate-serve on the cpu backend (`backend`, the
 * opened backend's name) refuse a profile measured with other --threads
 * than the run's: the help's "profile and engine runs must match" (tester63
 * #8: --threads 2 on a 1-thread profile ran without a word, its errors the
 * thread count's, not the model's).  0, or -1 with err naming the profile,
 * both counts and the two ways out. */
int rl_calib_check_threads(const rl_hw *h, const char *backend, int threads, char *err,
                           size_t errlen);

#endif
