/* calibrate.c — microbenchmarks through the engine's kernels, the fit into
 * efficiency tables, and the GEMM and attention measurements as kernel
 * tables imported by silicon.c into the `reference` engine (see calib.h). */
#include "calib.h"
#include "commit.h" /* RL_COMMIT, written by the Makefile */
#include "version.h" /* RL_VERSION */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "efficiency.h"
#include "engine.h"
#include "error.h"
#include "interrupt.h"
#include "outdir.h"
#include "report.h"
#include "silicon.h"
#include "spec.h"
#include "stats.h"

#define ZLIB_CONST
#include <zlib.h>

#define PASSES 3       /* passes over the whole grid: contention bursts hit few of them */
#define PASS_SAMPLES 8 /* at most per bench and pass */
#define MAXS (PASSES * PASS_SAMPLES)
#define ROTATE_BYTES (256.0 * 1024 * 1024) /* > 4x a 32 MiB LLC */
#define QUEUED_RUN_S 2e-4 /* a queued backend's sample: calls summing to ~0.2 ms */
#define QUEUED_CALLS 32  /* ... at most this many */
#define SAMPLE_ROWS 16 /* rows of the larger sampling bench */
#define COPY_MIN_BYTES 6.4e7 /* a copy counted for hbm_bw moves >= 64 MiB (32 MiB a buffer) */

void rl_calib_host(char *out, size_t len)
{
    if (gethostname(out, len) != 0)
        snprintf(out, len, "host");
    out[len - 1] = '\0';
    char *dot = strchr(out, '.');
    if (dot)
        *dot = '\0';
}

int rl_calib_profile_threads(const rl_hw *h)
{
    static const char tag[] = "(cpu backend, "; /* the device calibrate writes (below) */
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    const char *at = e ? strstr(e->source, tag) : NULL;
    if (!at)
        return -1;
    at += sizeof tag - 1;
    if (!strncmp(at, "every core", 10))
        return 0;
    char *end;
    long n = strtol(at, &end, 10);
    return end != at && n > 0 && n <= 1 << 20 && !strncmp(end, " thread(s)", 10) ? (int)n : -1;
}

int rl_calib_check_threads(const rl_hw *h, const char *backend, int threads, char *err,
                           size_t errlen)
{
    int had = rl_calib_profile_threads(h);
    if (strcmp(backend, "cpu") != 0 || had < 0 || (had == 0 ? threads <= 0 : had == threads))
        return 0;
    char was[32], now[32], give[64] = "";
    snprintf(was, sizeof was, had ? "%d thread(s)" : "every core", had);
    snprintf(now, sizeof now, threads > 0 ? "%d" : "0 (every core)", threads);
    /* a profile measured on every core matches no --threads the command
     * line takes (1 to 1024, param.c RL_P_THREADS): recalibrating is the
     * one way out (review52: it read "give --threads 1", refused again) */
    if (had > 0)
        snprintf(give, sizeof give, "give --threads %d, or ", had);
    return rl_fail(err, errlen, "--threads %s: %s was calibrated on the cpu backend with %s "
                   "(its engine %s's source); profile and engine runs must match: %scalibrate "
                   "again with --threads %s; nothing run", now, h->origin, was,
                   rl_engines_selected(&h->engines)->name, give, now);
}

int rl_calib_interrupted(const char *who, char *err, size_t errlen)
{
    if (!rl_interrupted())
        return 0;
    snprintf(err, errlen, "%s: interrupted (%s); nothing written (no profile, raw data or plot "
                          "kept)", who, rl_interrupt_name());
    return 1;
}

double rl_calib_quantile(double *v, int n, double p)
{
    qsort(v, (size_t)n, sizeof *v, rl_cmp_double);
    int i = p <= 0 ? 0 : (int)ceil(p * n) - 1;
    return v[i < 0 ? 0 : i];
}

/* Median of v (n) without reordering it. */
static double median(const double *v, int n)
{
    double s[MAXS];
    memcpy(s, v, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, rl_cmp_double);
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

size_t rl_calib_rotation_bytes(size_t largest)
{
    size_t least = (size_t)ROTATE_BYTES, need = RL_CALIB_REUSE_BYTES + 2 * largest;
    return need > least ? need : least;
}

size_t rl_calib_rotation_take(rl_calib_rotation *r, size_t unit, size_t align)
{
    size_t at = (r->next + align - 1) / align * align;
    if (at + unit > r->bytes)
        at = 0;
    r->next = at + unit;
    return at;
}

/* One benchmark: kernel k of a bench run repeatedly, its weights or K/V
 * pages read from the shared rotation. */
typedef struct bench bench;
struct bench {
    const char *name; /* gemm, gemv, attention, prefill_attention, rmsnorm, ... */
    rl_eff_class cls;
    int M, N, K, S; /* shape; meaning per bench */
    int hd;         /* head_dim of attention and RoPE benches */
    double flops, bytes;
    void (*run)(bench *b);
    const rl_backend *be;
    rl_calib_rotation *rot; /* shared rotation memory (weights; K and V pages; calib.h) */
    float *x, *y, *z;
    int *bt, *len;
    float *host; /* sampling: M x N host logits */
    /* results */
    int n;
    double t[MAXS];      /* per call; a queued backend's less fixed / calls[i] (summarize) */
    double one[MAXS];    /* queued: one call and its synchronisation, before each sample */
    int calls[MAXS];     /* calls the sample ran back to back */
    double issue[MAXS];  /* queued: the sample's calls returned, before its synchronisation,
                            per call: the host's cost of issuing one (a diagnostic) */
    double fixed;        /* queued: the sample's fixed cost (rl_calib_fixed_cost), else 0 */
    double med, mad, best; /* median, median absolute deviation, minimum */
};

/* One pass: a warm-up, then 3..PASS_SAMPLES samples (~20 ms) appended,
 * each timed on the backend's clock (backend.h: one CPU thread's CPU time,
 * else the wall clock).  On a queued backend (cuda) a sample is a run of
 * `calls` back-to-back calls over `calls`, calls = QUEUED_RUN_S over the
 * warm-up call's time, 2..QUEUED_CALLS: a call then costs what it costs
 * inside an engine step, its launch overlapped with the device's work (as
 * NVIDIA AIConfigurator times kernels, replaying CUDA graphs: collector/
 * helper.py benchmark_with_power), not a launch plus a synchronisation
 * (an H200 served 16% more requests than a profile timed call by call
 * predicted: docs/validation.md).  The run's one synchronisation and the
 * first launch's way to the device are paid once a sample, where a step
 * of some 260 kernels pays them once: each sample is preceded by one call
 * timed alone, and summarize takes that fixed cost out
 * (rl_calib_fixed_cost; stop 38). */
static void time_bench(bench *b)
{
    b->run(b); /* warm-up, then one call timed: how many a queued sample takes */
    b->be->sync(b->be->ctx);
    double w0 = rl_backend_clock(b->be);
    b->run(b);
    b->be->sync(b->be->ctx);
    double warm = rl_backend_clock(b->be) - w0, total = 0;
    int queued = b->be->queued;
    int calls = queued ? (int)fmax(2, fmin(QUEUED_CALLS, QUEUED_RUN_S / warm)) : 1;
    for (int k = 0; b->n < MAXS && k < PASS_SAMPLES && (k < 3 || total < 0.02); k++) {
        double t0 = rl_backend_clock(b->be), one = 0;
        if (queued) {
            b->run(b);
            b->be->sync(b->be->ctx);
            one = rl_backend_clock(b->be) - t0;
            total += one;
            t0 = rl_backend_clock(b->be);
        }
        for (int c = 0; c < calls; c++)
            b->run(b);
        b->issue[b->n] = (rl_backend_clock(b->be) - t0) / calls;
        b->be->sync(b->be->ctx);
        double t = rl_backend_clock(b->be) - t0;
        b->one[b->n] = one;
        b->calls[b->n] = calls;
        b->t[b->n++] = t / calls;
        total += t;
    }
}

double rl_calib_fixed_cost(const double *one, const double *per_call, const int *calls, int n)
{
    double f[MAXS];
    int m = 0;
    for (int i = 0; i < n && m < MAXS; i++)
        if (calls[i] >= 2)
            f[m++] = (one[i] - per_call[i]) * calls[i] / (calls[i] - 1.0);
    return m ? fmax(0, median(f, m)) : 0;
}

static void summarize(bench *b)
{
    /* a queued backend's samples less their fixed cost, shared over each
     * sample's calls (at most to 5% of it, fit_class's floor) */
    b->fixed = b->be->queued ? rl_calib_fixed_cost(b->one, b->t, b->calls, b->n) : 0;
    for (int i = 0; i < b->n && b->fixed > 0; i++)
        b->t[i] = fmax(b->t[i] - b->fixed / b->calls[i], 0.05 * b->t[i]);
    b->med = median(b->t, b->n);
    double dev[MAXS];
    for (int i = 0; i < b->n; i++)
        dev[i] = fabs(b->t[i] - b->med);
    b->mad = median(dev, b->n);
    b->best = b->t[0];
    for (int i = 1; i < b->n; i++)
        b->best = fmin(b->best, b->t[i]);
}

static void run_gemm(bench *b)
{
    size_t w = (size_t)b->N * b->K * b->be->weight_bytes;
    b->be->matmul(b->be->ctx, b->x, b->rot->arena[0] + rl_calib_rotation_take(b->rot, w, 4096), b->y,
                  b->M, b->N, b->K);
}
static void run_copy(bench *b)
{
    b->be->copy(b->be->ctx, b->y, b->x, (size_t)b->M);
}
static void run_add(bench *b)
{
    b->be->add(b->be->ctx, b->y, b->x, (size_t)b->M * b->N);
}
static void run_rmsnorm(bench *b)
{
    b->be->rmsnorm(b->be->ctx, b->x, b->z, b->y, b->M, b->N, 1e-5f);
}
static void run_rope(bench *b)
{
    b->be->rope(b->be->ctx, b->x, b->len, b->M, b->N, b->hd, 10000.0f);
}
static void run_swiglu(bench *b)
{
    b->be->swiglu(b->be->ctx, b->x, b->z, b->y, (size_t)b->M * b->N);
}
static void run_attn(bench *b)
{
    /* M = B slots, S = context, N = heads, K = kv heads, rotate page sets */
    int mb = (b->S + 15) / 16;
    const rl_backend *be = b->be;
    float *kp = (float *)(void *)b->rot->arena[0], *vp = (float *)(void *)b->rot->arena[1];
    size_t page = (size_t)16 * b->K * b->hd * sizeof(float);
    int off = (int)(rl_calib_rotation_take(b->rot, (size_t)b->M * mb * page, page) / page);
    for (int i = 0; i < b->M * mb; i++)
        b->bt[i] = off + i;
    be->attn_decode(be->ctx, b->x, kp, vp, b->bt, b->len, b->M, mb, 16, b->N, b->K, b->hd, b->y);
}
static void run_prefill_attn(bench *b)
{
    b->be->attn_prefill(b->be->ctx, b->x, b->z, b->z, b->y, b->M, b->N, b->K, b->hd);
}
static void run_sampling(bench *b)
{
    rl_engine_greedy(b->be, b->x, b->host, b->M, b->N, b->len);
}

/* ---- the grid ---------------------------------------------------------------- */

typedef struct {
    bench *v;
    int n, cap;
} bench_list;

static bench *add(bench_list *l, const char *name, rl_eff_class cls, void (*run)(bench *))
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->v = realloc(l->v, (size_t)l->cap * sizeof *l->v);
    }
    bench *b = &l->v[l->n++];
    memset(b, 0, sizeof *b);
    b->name = name;
    b->cls = cls;
    b->run = run;
    return b;
}

static float *filled(const rl_backend *be, size_t n)
{
    float *h = malloc(n * sizeof *h), *d = be->alloc(be->ctx, n);
    if (!h || !d) {
        free(h);
        if (d)
            be->free(be->ctx, d);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        h[i] = (float)((i * 2654435761u) % 1000) * 1e-3f - 0.5f;
    be->to_dev(be->ctx, d, h, n);
    free(h);
    return d;
}

/* The last-level cache of the host's first core in bytes, 0 when unknown:
 * the highest-level data or unified cache under
 * /sys/devices/system/cpu/cpu0/cache/indexN/ (its `level`, `type` and
 * `size`, "32768K"; Linux Documentation/ABI/testing/sysfs-devices-system-cpu).
 * Not sysconf(_SC_LEVEL3_CACHE_SIZE): on this project's AMD host glibc gives
 * 256 MiB, the package's L3 summed over its core complexes, where one core
 * sees 32 MiB (lscpu). */
static double llc_bytes(void)
{
    double best = 0;
    int best_level = 0;
    for (int i = 0; i < 16; i++) {
        char path[96], type[32] = "", unit = 0;
        int level = 0;
        double size = 0;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        FILE *f = fopen(path, "r");
        if (!f)
            break;
        int ok = fscanf(f, "%d", &level) == 1;
        fclose(f);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        if (ok && (f = fopen(path, "r")) != NULL) {
            ok = fscanf(f, "%31s", type) == 1 && strcmp(type, "Instruction") != 0;
            fclose(f);
        }
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if (ok && (f = fopen(path, "r")) != NULL) {
            ok = fscanf(f, "%lf%c", &size, &unit) >= 1 && size > 0;
            fclose(f);
        }
        size *= unit == 'K' ? 1024.0 : unit == 'M' ? 1048576.0 : unit == 'G' ? 1073741824.0 : 1.0;
        if (ok && level > best_level)
            best = size, best_level = level;
    }
    return best;
}

/* What the bandwidth figure measured, for base.lua: the copy's buffers, the
 * bytes it moves, and where they sit against the host's last-level cache
 * `llc` (bytes; 0 unknown; < 0 a device's copy, not compared): "stream copy of 2 x 64 MiB buffers (128 MiB moved,
 * read + write), each 2x the 32 MiB last-level cache". */
static void label_copy(const bench *b, double llc, char *out, size_t len)
{
    if (!b) {
        snprintf(out, len, "no stream copy measured");
        return;
    }
    double buf = 4.0 * b->M, MiB = 1048576.0;
    int n = snprintf(out, len, "best stream copy, 2 x %.0f MiB buffers (%.0f MiB moved, read + write)",
                     buf / MiB, b->bytes / MiB);
    if (n < 0 || (size_t)n >= len)
        return;
    if (llc == 0)
        snprintf(out + n, len - n, ", last-level cache size unknown");
    else if (llc < 0)
        return;
    else if (buf > llc)
        snprintf(out + n, len - n, ", each %.3gx the %.0f MiB last-level cache", buf / llc, llc / MiB);
    else
        snprintf(out + n, len - n, ", inside the %.0f MiB last-level cache: a cache figure, not DRAM",
                 llc / MiB);
}

static void build_grid(bench_list *l, const rl_model *m, const rl_backend *be, int quick)
{
    int D = (int)m->d_model, F = (int)m->d_ff, qd = (int)(m->heads * m->head_dim),
        kd = (int)(m->kv_heads * m->head_dim), V = (int)m->vocab;
    int shapes[5][2] = {{qd, D}, {kd, D}, {F, D}, {D, F}, {V, D}};
    int Ms[] = {1, 2, 4, 8, 16, 32, 128, 512, 2048};
    int nM = quick ? 3 : 9;
    /* gemm points are merged by M over the five shapes (fit_class) */
    for (int s = 0; s < 5; s++)
        for (int i = 0; i < nM; i++) {
            if (s == 4 && Ms[i] > 32)
                continue; /* the LM head runs on one row in prefill */
            bench *b = add(l, Ms[i] == 1 ? "gemv" : "gemm", RL_EFF_GEMM, run_gemm);
            b->M = Ms[i], b->N = shapes[s][0], b->K = shapes[s][1];
            b->flops = 2.0 * b->M * b->N * b->K;
            b->bytes = (double)b->N * b->K * be->weight_bytes + 4.0 * b->M * (b->N + b->K);
        }
    /* copies of 2^e floats (2^e * 4 bytes a buffer); the quick grid keeps
     * the 2^24 one (64 MiB a buffer) for the bandwidth figure: its largest
     * was 2^20, 4 MiB, an L3 figure labelled hbm_bw (tester15 F-cal-1) */
    for (int e = 16; e <= 26; e += 2) {
        if (quick && (e == 22 || e == 26))
            continue;
        bench *b = add(l, "stream_copy", RL_EFF_ELEMENTWISE, run_copy);
        b->M = 1 << e;
        b->bytes = 8.0 * b->M;
    }
    int rows[] = {1, 2, 4, 8, 16, 32, 128, 512, 2048};
    for (int i = 0; i < (quick ? 2 : 9); i++) {
        bench *b = add(l, "rmsnorm", RL_EFF_NORM, run_rmsnorm);
        b->M = rows[i], b->N = D, b->bytes = 4.0 * (2.0 * b->M * D + D);
        b->flops = 3.0 * b->M * D;
        b = add(l, "rope", RL_EFF_ROPE, run_rope);
        b->M = rows[i], b->N = (int)(m->heads + m->kv_heads), b->hd = (int)m->head_dim;
        b->bytes = 8.0 * b->M * b->N * b->hd;
        b->flops = 3.0 * b->M * b->N * b->hd;
        b = add(l, "add", RL_EFF_ELEMENTWISE, run_add);
        b->M = rows[i], b->N = D, b->bytes = 12.0 * b->M * D;
        b = add(l, "swiglu", RL_EFF_SWIGLU, run_swiglu);
        b->M = rows[i], b->N = F, b->bytes = 12.0 * b->M * F;
    }
    bench *o = add(l, "overhead", RL_EFF_ELEMENTWISE, run_add);
    o->M = 1, o->N = 1, o->bytes = 12;
    /* greedy sampling of 1 and SAMPLE_ROWS rows of logits: the engine's
     * costs per step and per sequence (sampling_costs); no class is fitted */
    for (int i = 0; i < 2; i++) {
        bench *b = add(l, "sampling", RL_EFF_ELEMENTWISE, run_sampling);
        b->M = i ? SAMPLE_ROWS : 1, b->N = V;
    }
    /* every batch validate steps (validate.c Bs): a batch between two
     * grid points was interpolated in log space, and on an H200 batch 8
     * (between 4 and 16) was over-predicted (docs/validation.md, run 9);
     * the quick grid keeps 1 and 4 */
    int Bs[] = {1, 2, 4, 8, 16, 32}, Ss[] = {128, 512, 2048, 4096};
    for (int i = 0; i < (quick ? 3 : 6); i += quick ? 2 : 1)
        for (int j = 0; j < (quick ? 2 : 4); j++) {
            bench *b = add(l, "attention", RL_EFF_ATTENTION, run_attn);
            b->M = Bs[i], b->S = Ss[j] + 1, b->N = (int)m->heads, b->K = (int)m->kv_heads;
            b->hd = (int)m->head_dim;
            b->flops = 4.0 * b->M * b->S * qd;
            b->bytes = 4.0 * (2.0 * b->M * b->S * kd + 2.0 * b->M * qd);
        }
    /* every prompt validate prefills (validate.c Ts), for the same reason:
     * on an H200 the prompts between grid points (64, 256, 1024; the grid
     * was 32, 128, 512, 2048) were interpolated in log space across the
     * kernel's turn from launch-bound to T^2 and read 5-10% long at T = 64
     * and 256 (docs/validation.md, stop 38); the quick grid keeps 32 and 128 */
    int Ts[] = {32, 64, 128, 256, 512, 1024, 2048};
    for (int i = 0; i < (quick ? 3 : 7); i += quick ? 2 : 1) {
        bench *b = add(l, "prefill_attention", RL_EFF_PREFILL_ATTENTION, run_prefill_attn);
        b->M = Ts[i], b->N = (int)m->heads, b->K = (int)m->kv_heads, b->hd = (int)m->head_dim;
        b->flops = 4.0 * qd * b->M * (b->M + 1) / 2;
        b->bytes = 4.0 * (2.0 * b->M * qd + 2.0 * b->M * kd);
    }
}

/* Bytes of one rotation unit: a weight copy, or one K (or V) page set. */
static size_t unit_bytes(const bench *b)
{
    if (b->run == run_gemm)
        return (size_t)b->N * b->K * b->be->weight_bytes;
    if (b->run == run_attn)
        return (size_t)b->M * ((b->S + 15) / 16) * 16 * b->K * b->hd * sizeof(float);
    return 0;
}

/* Allocate inputs, time one pass, free (the arenas stay). */
static void measure(bench *b, const rl_backend *be, rl_calib_rotation *rot)
{
    b->be = be;
    b->rot = rot;
    size_t big = 0;
    if (b->run == run_gemm) {
        b->x = filled(be, (size_t)b->M * b->K);
        b->y = be->alloc(be->ctx, (size_t)b->M * b->N);
    } else if (b->run == run_attn) {
        int mb = (b->S + 15) / 16;
        b->bt = malloc((size_t)b->M * mb * sizeof(int));
        b->len = malloc((size_t)b->M * sizeof(int));
        for (int i = 0; i < b->M; i++)
            b->len[i] = b->S;
        b->x = filled(be, (size_t)b->M * b->N * b->hd);
        b->y = be->alloc(be->ctx, (size_t)b->M * b->N * b->hd);
    } else if (b->run == run_sampling) {
        b->x = filled(be, (size_t)b->M * b->N);
        b->host = malloc((size_t)b->M * b->N * sizeof *b->host);
        b->len = malloc((size_t)b->M * sizeof(int));
    } else {
        big = b->run == run_copy ? (size_t)b->M : (size_t)b->M * b->N;
        if (b->run == run_prefill_attn)
            big = (size_t)b->M * b->N * b->hd;
        if (b->run == run_rope) {
            big = (size_t)b->M * b->N * b->hd;
            b->len = malloc((size_t)b->M * sizeof(int));
            for (int i = 0; i < b->M; i++)
                b->len[i] = i;
        }
        b->x = filled(be, big);
        b->y = be->alloc(be->ctx, big);
        b->z = filled(be, b->run == run_rmsnorm ? (size_t)b->N : big);
    }
    time_bench(b);
    be->free(be->ctx, b->x);
    be->free(be->ctx, b->y);
    if (b->z)
        be->free(be->ctx, b->z);
    free(b->bt);
    free(b->len);
    free(b->host);
    b->x = b->y = b->z = b->host = NULL, b->bt = b->len = NULL;
}

/* The reference engine's costs per step and per sequence: its greedy
 * sampling (engine.h rl_engine_greedy: the logits to the host, an argmax a
 * row) timed on 1 and SAMPLE_ROWS rows, seq_s the slope and step_s the rest
 * of the 1-row time (both >= 0), median times; launch_s 0 (an operator's
 * time holds its launches: efficiency overhead_s); attention_context by
 * backend `be` (engines.h rl_serving_engine.attn_longest): cuda's attn_k
 * runs one block per (query row, head) over that row's whole context, so
 * "longest"; cpu's decode attention is one dynamic loop over (slot, KV
 * head) items, so "mean".  The sentence saying so goes to src (len), which
 * the result points to. */
static rl_engine_cost_default sampling_costs(const bench_list *l, const char *be, char *src,
                                             size_t len)
{
    rl_engine_cost_default c = rl_engine_costs_default(RL_ENGINE_REFERENCE);
    double t[2] = {0, 0};
    int V = 0;
    for (int i = 0; i < l->n; i++)
        if (l->v[i].run == run_sampling)
            t[l->v[i].M > 1] = l->v[i].med, V = l->v[i].N;
    c.seq_s = fmax(0, (t[1] - t[0]) / (SAMPLE_ROWS - 1));
    c.step_s = fmax(0, t[0] - c.seq_s);
    c.launch_s = 0;
    snprintf(src, len, "step_s, seq_s measured by roofline calibrate --backend: the engine's greedy "
             "sampling (logits to the host, argmax a row; V = %d) timed on 1 and %d rows, median "
             "(%.4g and %.4g ms), seq_s the slope; launch_s 0: an operator's measured time holds "
             "its launches; prefill_layer_s 0: a prefill runs the same timed operators", V, SAMPLE_ROWS, 1e3 * t[0], 1e3 * t[1]);
    c.attn_longest = !strcmp(be, "cuda");
    size_t n = strlen(src);
    snprintf(src + n, len - n, "%s", c.attn_longest
             ? "; attention_context longest: attn_k runs one block per (query row, head) over the "
               "row's whole context, grid (B, heads) (reference_engine/cuda/cuda_backend.cu)"
             : "; attention_context mean: decode attention is one dynamic OpenMP loop over (slot, KV "
               "head) items, its time their sum (reference_engine/cpu/cpu_backend.c)");
    c.source = src;
    return c;
}

/* Fit one class: per bench ideal roofline time and measured time less the
 * overhead; benches whose sizes lie within 5% are merged as
 * frac = sum(ideal) / sum(time) (the big shapes weigh most, as they do in a
 * step), sorted by size. */
static void fit_class(const bench_list *l, rl_eff_class c, double overhead, double peak, double bw,
                      rl_eff_curve *out)
{
    double sz[256], id[256], tm[256];
    int n = 0;
    for (int i = 0; i < l->n && n < 256; i++) {
        const bench *b = &l->v[i];
        if (b->cls != c || strcmp(b->name, "overhead") == 0 || strcmp(b->name, "stream_copy") == 0 ||
            b->run == run_sampling)
            continue;
        sz[n] = rl_eff_size(c, b->M, b->flops, b->bytes);
        id[n] = fmax(b->flops / peak, b->bytes / bw);
        tm[n++] = fmax(b->med - overhead, 0.05 * b->med);
    }
    for (int i = 1; i < n; i++) /* insertion sort by size */
        for (int j = i; j > 0 && sz[j] < sz[j - 1]; j--) {
            double a = sz[j]; sz[j] = sz[j - 1]; sz[j - 1] = a;
            a = id[j]; id[j] = id[j - 1]; id[j - 1] = a;
            a = tm[j]; tm[j] = tm[j - 1]; tm[j - 1] = a;
        }
    out->n = 0;
    for (int i = 0; i < n;) {
        int j = i;
        double s = 0, ideal = 0, t = 0;
        while (j < n && sz[j] <= sz[i] * 1.05)
            s += sz[j], ideal += id[j], t += tm[j], j++;
        if (out->n < RL_EFF_POINTS) {
            out->size[out->n] = s / (j - i);
            /* at most 1, as a profile may hold (efficiency.c): a ratio above it is the
             * overhead subtracted twice or a peak understated, not a faster kernel */
            out->frac[out->n++] = fmin(1.0, fmax(1e-3, ideal / t));
        }
        i = j;
    }
}

/* The commit the binary was built from (Makefile: commit.h) and the UTC time. */
static void stamp(char *commit, size_t cl, char *utc, size_t ul)
{
    snprintf(commit, cl, "%s", RL_COMMIT);
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(utc, ul, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* A progress bar on a terminal; on a log or pipe, a line at each quarter. */
static void progress(int i, int n, const bench *b)
{
    if (!isatty(STDERR_FILENO)) {
        if (n > 0 && (i == n || (i * 4 / n != (i - 1) * 4 / n && i > 0)))
            fprintf(stderr, "calibrate: %d/%d benchmarks done\n", i, n);
        return;
    }
    int w = 30, f = n ? w * i / n : w;
    fprintf(stderr, "\rcalibrate [%.*s%*s] %3d/%d %-18s M=%-5d N=%-5d K=%-5d S=%-5d", f,
            "##############################", w - f, "", i, n, b ? b->name : "done", b ? b->M : 0,
            b ? b->N : 0, b ? b->K : 0, b ? b->S : 0);
    if (i == n)
        fputc('\n', stderr);
}

/* ---- the measurements as kernel tables (silicon.h's format) --------------- */

/* Which table file holds bench b: 0 gemm, 1 prefill (context) attention,
 * 2 decode (generation) attention; -1 none. */
static int table_of(const bench *b)
{
    return b->run == run_gemm ? 0 : b->run == run_prefill_attn ? 1 : b->run == run_attn ? 2 : -1;
}

/* Whether bench i has the table shape of an earlier bench (written once:
 * silicon.c refuses one shape twice when its latencies differ 2x). */
static int repeated(const bench_list *l, int i)
{
    const bench *b = &l->v[i];
    for (int j = 0; j < i; j++) {
        const bench *a = &l->v[j];
        if (table_of(a) == table_of(b) && a->M == b->M && a->N == b->N && a->K == b->K &&
            a->S == b->S && a->hd == b->hd)
            return 1;
    }
    return 0;
}

/* Gzip `len` bytes of text to NAME in the tables folder o, atomically
 * (outdir.h: its older file kept until the calibration succeeds).  0, or
 * -1 with err set. */
static int write_gz(rl_outdir *o, const char *name, const char *text, size_t len, char *err,
                    size_t errlen)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16 /* gzip wrapper */, 8,
                     Z_DEFAULT_STRATEGY) != Z_OK) {
        snprintf(err, errlen, "%s: zlib cannot start compressing", name);
        return -1;
    }
    uLong cap = deflateBound(&z, (uLong)len);
    unsigned char *out = malloc(cap);
    z.next_in = (const Bytef *)text;
    z.avail_in = (uInt)len;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    int ok = out && deflate(&z, Z_FINISH) == Z_STREAM_END;
    deflateEnd(&z);
    int rc = ok ? rl_outdir_write(o, name, (const char *)out, z.total_out, err, errlen) : -1;
    if (!ok)
        snprintf(err, errlen, "%s: cannot compress (out of memory)", name);
    free(out);
    return rc;
}

static const char *const TABLE_FILE[3] = {"gemm_perf.csv.gz", "context_attention_perf.csv.gz",
                                          "generation_attention_perf.csv.gz"};

/* The header lines and the rows of table t: AIConfigurator's columns
 * (../shared/data/README.md), one row per measured shape, latency the
 * median of its repeats in milliseconds.  A prefill bench is one prompt of
 * M tokens with nothing cached (batch 1, step 0); a decode bench is M
 * sequences whose new token attends S tokens (isl 1, step S - 1 cached:
 * context = isl + step = S). */
static void put_table(FILE *f, int t, const bench_list *l, const rl_backend *be, const char *source,
                      const char *version, const char *device)
{
    static const char *const ATTN = "kernel_source,batch_size,isl,num_heads,num_key_value_heads,"
                                    "head_dim,window_size,beam_width,attn_dtype,kv_cache_dtype,"
                                    "step,latency";
    fprintf(f, "# source: %s\n# framework: roofline reference engine\n# version: %s\n"
               "# device: %s\n# latency unit: milliseconds per call (median of the repeats)\n",
            source, version, device);
    if (t == 0)
        fputs("op_name,kernel_source,gemm_dtype,m,n,k,latency\n", f);
    else
        fprintf(f, "op_name,%s\n", ATTN);
    const char *gemm_dtype = strcmp(be->compute_dtype, "fp32") ? "bfloat16" : "float32";
    for (int i = 0; i < l->n; i++) {
        const bench *b = &l->v[i];
        if (table_of(b) != t || repeated(l, i))
            continue;
        double ms = 1e3 * b->med;
        if (t == 0)
            fprintf(f, "gemm,reference_%s,%s,%d,%d,%d,%.6g\n", be->name, gemm_dtype, b->M, b->N,
                    b->K, ms);
        else if (t == 1)
            fprintf(f, "context_attention,reference_%s,1,%d,%d,%d,%d,0,1,float32,float32,0,%.6g\n",
                    be->name, b->M, b->N, b->K, b->hd, ms);
        else
            fprintf(f, "generation_attention,reference_%s,%d,1,%d,%d,%d,0,1,float32,float32,%d,"
                       "%.6g\n", be->name, b->M, b->N, b->K, b->hd, b->S - 1, ms);
    }
}

/* Write reference/<table>.csv.gz of the tables folder dir for the three
 * tables.  0 or -1 (err names the file relative to dir). */
static int write_tables(const bench_list *l, const rl_backend *be, rl_outdir *dir,
                        const char *source, const char *version, const char *device, char *err,
                        size_t errlen)
{
    char name[128];
    for (int t = 0; t < 3; t++) {
        snprintf(name, sizeof name, RL_ENGINE_REFERENCE "/%s", TABLE_FILE[t]);
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        if (!f) {
            snprintf(err, errlen, "%s: out of memory", name);
            return -1;
        }
        put_table(f, t, l, be, source, version, device);
        fclose(f);
        int rc = write_gz(dir, name, text, len, err, errlen);
        free(text);
        if (rc != 0)
            return -1;
    }
    return 0;
}

/* Prefix err (which names a temporary) with the file it stands for. */
static void named(const char *target, char *err, size_t errlen)
{
    char why[1024];
    snprintf(why, sizeof why, "%s", err);
    snprintf(err, errlen, "%s: %s", target, why);
}

/* The profile from the tables as `calibrate --tables dir --hw base --engine
 * reference --save lpath` makes it (silicon.h rl_silicon_calibrate), written
 * to lpath's temporary `temp`; `device` is the one every table was written
 * naming (put_table); the import's summary goes to *summary.  0, -1
 * (err) or -2 when the file could not be written. */
static int profile_from_tables(const char *dir, const char *device, const char *base,
                               const char *date, const rl_engine_cost_default *costs,
                               const char *temp, const char *lpath, cJSON **summary, char *err,
                               size_t errlen)
{
    rl_hw h;
    if (rl_hw_load(base, NULL, 0, &h, err, errlen) != 0)
        return -1;
    int rc = rl_silicon_calibrate(dir, RL_ENGINE_REFERENCE, device, &h, 0, NULL, base, NULL, 0, date,
                                  "`roofline calibrate --backend` over the tables it measured", costs, temp,
                                  summary, err, errlen);
    if (rc == -2)
        named(lpath, err, errlen);
    return rc;
}

static double mem_total(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && size > 0 ? (double)pages * (double)size : 1e9;
}

void rl_calib_paths(const rl_calib_opts *o, char *lpath, char *jpath, char *tdir, size_t len)
{
    char host[128], def[1024];
    rl_calib_host(host, sizeof host);
    snprintf(def, sizeof def, "%s/%s.lua", o->outdir ? o->outdir : "hw_profiles/calibrated", host);
    const char *p = o->save ? o->save : def;
    size_t n = strlen(p), stem = n > 4 && !strcmp(p + n - 4, ".lua") ? n - 4 : n;
    snprintf(lpath, len, "%s", p);
    snprintf(jpath, len, "%.*s.json", (int)stem, p);
    if (o->tables_out)
        snprintf(tdir, len, "%s", o->tables_out);
    else
        snprintf(tdir, len, "%.*s-tables", (int)stem, p);
}

cJSON *rl_calibrate(const rl_calib_opts *o, char *err, size_t errlen)
{
    rl_backend be;
    rl_model m;
    if (rl_backend_open(o->backend ? o->backend : "cpu", o->threads, &be, err, errlen) != 0 ||
        rl_model_load(o->model ? o->model : "tiny-ref", NULL, 0, &m, err, errlen) != 0)
        return NULL;
    bench_list l = {0};
    build_grid(&l, &m, &be, o->quick);
    /* Two arenas of at least 256 MiB (beyond the LLC), large enough that
     * the largest rotation unit is read again only after
     * RL_CALIB_REUSE_BYTES of others (calib.h); contents finite values. */
    size_t largest = 0;
    for (int i = 0; i < l.n; i++) {
        l.v[i].be = &be;
        largest = unit_bytes(&l.v[i]) > largest ? unit_bytes(&l.v[i]) : largest;
    }
    size_t arena_bytes = rl_calib_rotation_bytes(largest);
    char *arena[2] = {(char *)filled(&be, arena_bytes / sizeof(float)),
                      (char *)filled(&be, arena_bytes / sizeof(float))};
    rl_calib_rotation rot = {{arena[0], arena[1]}, arena_bytes, 0};
    if (!arena[0] || !arena[1]) {
        snprintf(err, errlen, "calibrate: out of %s memory for 2 x %zu bytes", be.name, arena_bytes);
        free(l.v);
        return NULL;
    }
    int passes = o->quick ? 1 : PASSES, stopped = 0;
    for (int p = 0; p < passes && !stopped; p++)
        for (int i = 0; i < l.n && !(stopped = rl_calib_interrupted("calibrate", err, errlen)); i++) {
            progress(p * l.n + i, passes * l.n, &l.v[i]);
            measure(&l.v[i], &be, &rot);
        }
    if (stopped) {
        be.free(be.ctx, arena[0]);
        be.free(be.ctx, arena[1]);
        free(l.v);
        if (be.destroy)
            be.destroy(be.ctx);
        return NULL;
    }
    progress(passes * l.n, passes * l.n, NULL);
    int noisy = 0;
    double worst = 0;
    for (int i = 0; i < l.n; i++) {
        summarize(&l.v[i]);
        if (l.v[i].mad > RL_CALIB_NOISE * l.v[i].med) {
            noisy++;
            worst = fmax(worst, l.v[i].mad / l.v[i].med);
        }
    }
    if (be.queued) { /* what summarize took out, for the run's log (stop 38) */
        double f[256];
        int nf = 0;
        for (int i = 0; i < l.n && nf < 256; i++)
            f[nf++] = l.v[i].fixed;
        if (nf > 0)
            fprintf(stderr, "roofline calibrate: %s is queued: each sample's fixed cost (one "
                            "synchronisation, the first launch) taken out, median %.3g us over %d "
                            "benchmarks (raw rows: fixed_s)\n", be.name, 1e6 * rl_calib_quantile(f, nf, 0.5), nf);
    }
    if (noisy > 0)
        fprintf(stderr, "roofline calibrate: warning: %d of %d benchmarks had noisy repeats (median absolute "
                        "deviation over median above %.0f%%, worst %.0f%%): this host is busy; the "
                        "fit uses medians\n", noisy, l.n, 100 * RL_CALIB_NOISE, 100 * worst);
    if (o->quick) /* tester3 #14 */
        fprintf(stderr, "roofline calibrate: note: --quick is a smoke test: its GEMM curve stops "
                        "at M = 4 rows, so a prefill of more tokens is extrapolated; calibrate "
                        "without --quick for a profile to size or validate with\n");
    be.free(be.ctx, arena[0]);
    be.free(be.ctx, arena[1]);
    char cost_src[512]; /* rl_serving_engine.costs_source's size */
    rl_engine_cost_default costs = sampling_costs(&l, be.name, cost_src, sizeof cost_src);
    /* Peaks: bandwidth = the best DRAM rate measured: the stream copy
     * moving >= 64 MiB (both grids have one: build_grid) or a GEMM or
     * decode attention reading its weights or K/V pages from the rotation
     * (256 MiB or more: from DRAM), which reads only where the copy also writes and
     * so beats it on some hosts (a gemv at 1.8e10 B/s, the copy 1.5-2.0e10
     * on this project's VM); FLOP/s = the best of the benches written as
     * kernel tables (GEMM, attention) that read their bytes no faster than
     * that (one that does was served by a cache, not DRAM: tester19 F1).
     * The import floors those tables at these figures (engines.h
     * rl_engine_floor): a row's median is at least its best time, which
     * these peaks reach or beat, so only a row read faster than DRAM is
     * left out (a copy-only bandwidth left out up to 6 of 15 GEMMs of a
     * --quick run; a GEMM-only peak every prefill attention row, which run
     * at 1.2x the best GEMM's FLOP/s here).  The benches they come from
     * are named in base.lua (a label says what was measured). */
    double bw = 0, peak = 0, overhead = 0;
    const bench *bwb = NULL, *readb = NULL, *peakb = NULL;
    for (int i = 0; i < l.n; i++) {
        bench *b = &l.v[i];
        if (!strcmp(b->name, "stream_copy") && b->bytes >= COPY_MIN_BYTES && b->bytes / b->best > bw)
            bw = b->bytes / b->best, bwb = b;
        if (!strcmp(b->name, "overhead"))
            overhead = b->best;
    }
    for (int i = 0; i < l.n; i++) {
        bench *b = &l.v[i];
        if (unit_bytes(b) > 0 && b->bytes / b->best > bw)
            bw = b->bytes / b->best, readb = b;
    }
    /* A backend whose GEMMs run in another dtype (cuda: bf16) runs its own
     * attention kernels (tables 1 and 2) in fp32: their best FLOP/s, read
     * the same way, is the profile's flops.fp32 (the serving simulator times
     * attention in the wider of the KV and compute dtypes: validate-serve on
     * cuda needs it). */
    double apeak = 0;
    int fp32_attention = strcmp(be.compute_dtype, "fp32") != 0;
    for (int i = 0; i < l.n; i++) {
        bench *b = &l.v[i];
        if (table_of(b) < 0 || b->bytes / b->best > bw)
            continue;
        if (b->flops / b->best > peak)
            peak = b->flops / b->best, peakb = b;
        if (fp32_attention && table_of(b) >= 1)
            apeak = fmax(apeak, b->flops / b->best);
    }
    char fp32_flops[96] = "";
    if (apeak > 0)
        snprintf(fp32_flops, sizeof fp32_flops, ", fp32 = %.6g", apeak);
    char bw_label[384], peak_label[96];
    double llc = strcmp(be.name, "cpu") ? -1 : llc_bytes(); /* a device copy: not the host's */
    double copy_bytes = bwb ? bwb->bytes : 0; /* the bench list is freed before the summary */
    label_copy(bwb, llc, bw_label, sizeof bw_label);
    if (readb) {
        size_t n = strlen(bw_label);
        snprintf(bw_label + n, sizeof bw_label - n, ", beaten by a read from DRAM (rotated through "
                 "%.0f MiB), %s M = %d, N = %d, K = %d, S = %d", arena_bytes / 1048576.0, readb->name,
                 readb->M, readb->N, readb->K, readb->S);
    }
    if (peakb)
        snprintf(peak_label, sizeof peak_label, "%s, M = %d, N = %d, K = %d", peakb->name,
                 peakb->M, peakb->N, peakb->K);
    else
        snprintf(peak_label, sizeof peak_label, "none measured");
    rl_efficiency eff = {.present = 1, .overhead_s = overhead};
    for (int c = 0; c < RL_EFF_CLASSES; c++)
        fit_class(&l, (rl_eff_class)c, overhead, peak, bw, &eff.curve[c]);

    char host[128], commit[64], utc[32];
    rl_calib_host(host, sizeof host);
    stamp(commit, sizeof commit, utc, sizeof utc);
    /* raw samples */
    cJSON *raw = cJSON_CreateObject();
    cJSON_AddStringToObject(raw, "host", host);
    cJSON_AddStringToObject(raw, "commit", commit);
    cJSON_AddStringToObject(raw, "utc", utc);
    cJSON_AddStringToObject(raw, "backend", be.name);
    char threads[32];
    snprintf(threads, sizeof threads, strcmp(be.name, "cpu") ? "device" : o->threads > 0 ? "%d thread(s)" : "every core",
             o->threads);
    cJSON_AddStringToObject(raw, "threads", threads);
    cJSON_AddStringToObject(raw, "clock", rl_backend_clock_name(&be)); /* what samples_s read */
    cJSON_AddStringToObject(raw, "model", m.name);
    cJSON *rows = cJSON_AddArrayToObject(raw, "rows");
    for (int i = 0; i < l.n; i++) {
        bench *b = &l.v[i];
        cJSON *r = cJSON_CreateObject();
        cJSON_AddStringToObject(r, "bench", b->name);
        cJSON_AddStringToObject(r, "class", rl_eff_class_name(b->cls));
        cJSON_AddNumberToObject(r, "M", b->M);
        cJSON_AddNumberToObject(r, "N", b->N);
        cJSON_AddNumberToObject(r, "K", b->K);
        cJSON_AddNumberToObject(r, "S", b->S);
        cJSON_AddNumberToObject(r, "flops", b->flops);
        cJSON_AddNumberToObject(r, "bytes", b->bytes);
        cJSON_AddNumberToObject(r, "median_s", b->med);
        cJSON_AddNumberToObject(r, "mad_s", b->mad);
        cJSON_AddNumberToObject(r, "min_s", b->best);
        cJSON_AddNumberToObject(r, "flops_per_s", b->flops / b->best);
        cJSON_AddNumberToObject(r, "bytes_per_s", b->bytes / b->best);
        cJSON_AddItemToObject(r, "samples_s", cJSON_CreateDoubleArray(b->t, b->n));
        /* queued: the fixed cost taken out of the samples, the calls a sample ran
         * and each one-call time it came from (rl_calib_fixed_cost); the time
         * a sample's calls took to return, per call (a call whose issue_s is
         * its sample's time is bound by the host's launches, not the device) */
        cJSON_AddNumberToObject(r, "fixed_s", b->fixed);
        cJSON_AddItemToObject(r, "calls", cJSON_CreateIntArray(b->calls, b->n));
        cJSON_AddItemToObject(r, "one_call_s", cJSON_CreateDoubleArray(b->one, b->n));
        cJSON_AddItemToObject(r, "issue_s", cJSON_CreateDoubleArray(b->issue, b->n));
        cJSON_AddStringToObject(r, "commit", commit);
        cJSON_AddStringToObject(r, "host", host);
        cJSON_AddStringToObject(r, "utc", utc);
        cJSON_AddItemToArray(rows, r);
    }
    char jpath[1024], lpath[1024], tdir[1024], base[1100];
    rl_calib_paths(o, lpath, jpath, tdir, sizeof lpath);
    snprintf(base, sizeof base, "%s/base.lua", tdir);
    char *json = cJSON_Print(raw);
    int rc = json ? 0 : rl_fail(err, errlen, "%s: out of memory", jpath);
    int io = 0; /* a file could not be written (exit 1), not bad input */
    if (rc == 0 && !o->save) /* the default folder, with its parents (checked before the run) */
        io = rc = rl_mkdir_p(o->outdir ? o->outdir : "hw_profiles/calibrated", err, errlen);
    /* the kernel tables, then the host's spec without them (base.lua), into
     * the tables folder as a run writes its --out folder (outdir.h): each
     * older file is kept until the profile is in place, put back if the
     * calibration fails (CLOSING22: the folder was written in place, and a
     * failure left new tables beside the older profile, which reads them) */
    char tsource[512], tversion[96], device[256], tref[1040];
    rl_outdir tables;
    struct stat tst;
    snprintf(tref, sizeof tref, "%s/reference", tdir);
    /* the folders this run makes, removed again if it fails (tester91 #5: a
     * failure left an empty NAME-tables/reference/; rmdir keeps a folder
     * that holds anything) */
    int made_tdir = stat(tdir, &tst) != 0, made_tref = stat(tref, &tst) != 0;
    if (rc == 0)
        io = rc = rl_outdir_open(&tables, tdir, err, errlen);
    int topen = rc == 0;
    /* the release beside the commit (tester91 #7: a binary built before its
     * version commit read only "commit dc02e59c-dirty", though it was 0.51.0;
     * the Makefile remakes commit.h on every make, so a rebuild after the
     * commit reads it) */
    snprintf(tsource, sizeof tsource, "roofline calibrate --backend %s on %s (%s), roofline %s, "
             "commit %s, %s; model %s", be.name, host, threads, RL_VERSION, commit, utc, m.name);
    snprintf(tversion, sizeof tversion, "roofline %s (commit %s)", RL_VERSION, commit);
    snprintf(device, sizeof device, "%s (%s backend, %s)", host, be.name, threads);
    if (rc == 0 && write_tables(&l, &be, &tables, tsource, tversion, device, err, errlen) != 0) {
        named(tdir, err, errlen); /* its names are relative to the folder */
        io = rc = -1;
    }
    char host_bw[160] = ""; /* serve.c swaps KV over host_bw; on a CPU that is a copy */
    if (!strcmp(be.name, "cpu"))
        snprintf(host_bw, sizeof host_bw, "  host_bw = %.6g, -- no host link on a CPU: KV swapped "
                 "out is copied in the same DRAM (the stream figure)\n", bw);
    size_t cap = 65536, at = 0;
    char *lua = malloc(cap);
    at += (size_t)snprintf(lua + at, cap - at,
        "-- Calibrated on %s (%s backend, %s, roofline %s, commit %s, %s) by `roofline calibrate`.\n"
        "-- flops: best FLOP/s of the engine's GEMM and attention kernels reading\n"
        "-- their bytes no faster than hbm_bw (%s); a second, fp32, figure on a\n"
        "-- backend whose GEMMs run bf16 (cuda): its fp32 attention kernels' best;\n"
        "-- hbm_bw: %s;\n"
        "-- hbm_bytes: physical memory.  efficiency: ideal roofline time /\n"
        "-- median measured time vs size, per kernel class (src/efficiency.h); raw\n"
        "-- samples in %s.json.  This is the host without its kernel tables: the\n"
        "-- profile is `roofline calibrate --tables DIR --hw DIR/base.lua --engine\n"
        "-- reference` over the tables beside this file (DIR/reference/).\n"
        "return {\n  name = \"%s-%s\",\n  source = \"roofline calibrate (%s), %s\",\n"
        "  flops = { %s = %.6g%s },\n  hbm_bytes = %.6g,\n  hbm_bw = %.6g,\n%s%s"
        "  efficiency = {\n    source = \"median kernel times, roofline calibrate on %s (%s, %s), %s\",\n"
        "    overhead_s = %.6g,\n",
        host, be.name, threads, RL_VERSION, commit, utc, peak_label, bw_label, host, host, be.name, threads, utc,
        be.compute_dtype, peak, fp32_flops, mem_total(),
        bw, host_bw, o->quick ? "  smoke_test = true, -- calibrate --quick: GEMMs up to M = 4 rows only\n" : "",
        host, be.name, threads, utc, overhead);
    for (int c = 0; c < RL_EFF_CLASSES; c++) {
        at += (size_t)snprintf(lua + at, cap - at, "    %s = {", rl_eff_class_name((rl_eff_class)c));
        for (int i = 0; i < eff.curve[c].n; i++)
            at += (size_t)snprintf(lua + at, cap - at, "%s{%.6g, %.4f}", i ? ", " : " ",
                                   eff.curve[c].size[i], eff.curve[c].frac[i]);
        at += (size_t)snprintf(lua + at, cap - at, " },\n");
    }
    at += (size_t)snprintf(lua + at, cap - at, "  },\n}\n");
    if (rc == 0 && rl_outdir_write(&tables, "base.lua", lua, at, err, errlen) != 0) {
        named(tdir, err, errlen);
        io = rc = -1;
    }
    free(lua);
    /* the profile and its raw samples, all or nothing: each written to a
     * temporary beside it, both renamed into place only once both are
     * written; on any failure the temporaries go and the older files stay
     * (review22 #1: a full disk on the .json used to cost the older profile) */
    cJSON *kt = NULL;
    rl_staged *st = calloc(2, sizeof *st);
    if (rc == 0 && !st)
        rc = rl_fail(err, errlen, "%s: out of memory", lpath);
    if (rc == 0)
        io = rl_stage(lpath, &st[0], err, errlen) != 0 || rl_stage(jpath, &st[1], err, errlen) != 0;
    if (rc == 0 && !io) {
        char date[16];
        snprintf(date, sizeof date, "%.10s", utc);
        rc = profile_from_tables(tdir, device, base, date, &costs, st[0].temp, lpath, &kt, err, errlen);
        io = rc == -2;
    }
    if (rc == 0 && !io && rl_write_atomic(st[1].temp, json, strlen(json), err, errlen) != 0) {
        named(jpath, err, errlen);
        io = 1;
    }
    if (rc == 0 && !io)
        io = rl_stage_commit(st, 2, err, errlen) != 0;
    if (st)
        rl_unstage(st, 2);
    free(st);
    if (io) {
        rc = -1;
        if (o->io_failed)
            *o->io_failed = 1;
    }
    char undo[1024];
    if (topen && rc != 0 && rl_outdir_undo(&tables, undo, sizeof undo) > 0) {
        size_t n = strlen(err); /* what the tables folder still holds: said */
        snprintf(err + n, errlen - n, "; the tables: %s", undo);
    }
    if (topen)
        rl_outdir_close(&tables);
    if (rc != 0 && made_tref)
        rmdir(tref);
    if (rc != 0 && made_tdir)
        rmdir(tdir);
    free(json);
    free(l.v);
    if (be.destroy)
        be.destroy(be.ctx);
    if (rc != 0) {
        cJSON_Delete(raw);
        return NULL;
    }
    cJSON *sum = cJSON_CreateObject();
    cJSON_AddStringToObject(sum, "profile", lpath);
    cJSON_AddStringToObject(sum, "raw", jpath);
    cJSON_AddStringToObject(sum, "host", host);
    cJSON_AddStringToObject(sum, "backend", be.name);
    cJSON_AddStringToObject(sum, "clock", rl_backend_clock_name(&be));
    cJSON_AddNumberToObject(sum, "hbm_bw", bw);
    cJSON_AddNumberToObject(sum, "hbm_bw_copy_bytes", copy_bytes);
    cJSON_AddNumberToObject(sum, "llc_bytes", llc > 0 ? llc : 0);
    cJSON_AddNumberToObject(sum, "peak_flops", peak);
    cJSON_AddNumberToObject(sum, "overhead_s", overhead);
    cJSON_AddNumberToObject(sum, "noisy_benchmarks", noisy);
    cJSON_AddStringToObject(sum, "engine", RL_ENGINE_REFERENCE);
    cJSON_AddStringToObject(sum, "tables", tdir);
    cJSON_AddStringToObject(sum, "base", base);
    cJSON_AddItemToObject(sum, "kernel_tables", cJSON_DetachItemFromObject(kt, "tables"));
    cJSON_Delete(kt);
    cJSON *srows = cJSON_AddArrayToObject(sum, "rows");
    cJSON *r;
    cJSON_ArrayForEach(r, rows) {
        cJSON *s = cJSON_CreateObject();
        const char *keys[] = {"bench", "M", "N", "K", "S", "median_s", "mad_s", "min_s", "flops_per_s", "bytes_per_s"};
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
            cJSON_AddItemToObject(s, keys[k], cJSON_Duplicate(cJSON_GetObjectItem(r, keys[k]), 1));
        cJSON_AddItemToArray(srows, s);
    }
    cJSON_Delete(raw);
    return sum;
}
