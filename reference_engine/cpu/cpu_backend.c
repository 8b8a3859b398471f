/* cpu_backend.c — the readable reference backend: OpenBLAS for the weight
 * GEMMs (cblas_sgemm, cblas_sgemv for one row) and plain C loops,
 * parallelised with OpenMP over independent rows or heads, for the rest.
 * Implements backend.h.  Uses OpenBLAS (cblas.h, loaded with dlopen(3) by
 * rl_backend_cpu, not linked), OpenMP. */
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <time.h>

#include <cblas.h>
#include <omp.h>

#include "backend.h"

/* OpenBLAS is opened at run time, the first time a CPU backend is made,
 * instead of linked: every bin/roofline process (and every test binary)
 * otherwise maps libopenblas, libgfortran and libquadmath at start-up,
 * which under valgrind cost about 0.4 s per process (an empty main, 2-core
 * VM, stop 48: 1.17 s linked, 0.79 s without), and most commands never
 * run the engine.  The pointer types are the prototypes of <cblas.h>; the
 * _Static_asserts check that (unevaluated: no link-time reference). */
typedef void sgemm_fn(enum CBLAS_ORDER, enum CBLAS_TRANSPOSE, enum CBLAS_TRANSPOSE, blasint,
                      blasint, blasint, float, const float *, blasint, const float *, blasint,
                      float, float *, blasint);
typedef void sgemv_fn(enum CBLAS_ORDER, enum CBLAS_TRANSPOSE, blasint, blasint, float,
                      const float *, blasint, const float *, blasint, float, float *, blasint);
typedef void set_threads_fn(int);
_Static_assert(_Generic(&cblas_sgemm, sgemm_fn *: 1, default: 0), "cblas_sgemm's prototype");
_Static_assert(_Generic(&cblas_sgemv, sgemv_fn *: 1, default: 0), "cblas_sgemv's prototype");
_Static_assert(_Generic(&openblas_set_num_threads, set_threads_fn *: 1, default: 0),
               "openblas_set_num_threads's prototype");

/* The library's soname (Debian: libopenblas0-pthread, pulled in by
 * libopenblas-dev, scripts/deps.sh). */
#ifndef BLAS_LIB /* -DBLAS_LIB=... tries another (the error path, by hand) */
#define BLAS_LIB "libopenblas.so.0"
#endif

static struct {
    void *handle; /* kept for the process's life: never dlclose'd, so reachable */
    sgemm_fn *sgemm;
    sgemv_fn *sgemv;
    set_threads_fn *set_threads;
    char err[256]; /* empty once loaded */
} blas;
static pthread_once_t blas_once = PTHREAD_ONCE_INIT;

static void *blas_sym(const char *name)
{
    void *p = dlsym(blas.handle, name);
    if (!p && !blas.err[0])
        snprintf(blas.err, sizeof blas.err, "backend 'cpu': %s has no %s: %s", BLAS_LIB, name,
                 dlerror());
    return p;
}

static void blas_load(void)
{
    blas.handle = dlopen(BLAS_LIB, RTLD_NOW | RTLD_LOCAL);
    if (!blas.handle) {
        snprintf(blas.err, sizeof blas.err,
                 "backend 'cpu': cannot load %s (OpenBLAS; Debian package libopenblas0, "
                 "make deps): %s",
                 BLAS_LIB, dlerror());
        return;
    }
    /* dlsym returns void *; POSIX requires it convertible to a function
     * pointer (dlsym(3)), which memcpy does without a cast ISO C lacks. */
    void *p;
    p = blas_sym("cblas_sgemm");
    memcpy(&blas.sgemm, &p, sizeof p);
    p = blas_sym("cblas_sgemv");
    memcpy(&blas.sgemv, &p, sizeof p);
    p = blas_sym("openblas_set_num_threads");
    memcpy(&blas.set_threads, &p, sizeof p);
}

static float *cpu_alloc(void *ctx, size_t n)
{
    (void)ctx;
    return calloc(n ? n : 1, sizeof(float));
}

static void cpu_free(void *ctx, void *p)
{
    (void)ctx;
    free(p);
}

static void cpu_copy_in(void *ctx, float *dst, const float *src, size_t n)
{
    (void)ctx;
    memcpy(dst, src, n * sizeof *dst);
}

static void *cpu_upload(void *ctx, const float *host, size_t n)
{
    float *w = malloc((n ? n : 1) * sizeof *w);
    if (w)
        cpu_copy_in(ctx, w, host, n);
    return w;
}

static void cpu_sync(void *ctx) { (void)ctx; }

static void cpu_matmul(void *ctx, const float *x, const void *w, float *y, int M, int N, int K)
{
    (void)ctx;
    if (M == 1) /* the decode linear layer: y = W x */
        blas.sgemv(CblasRowMajor, CblasNoTrans, N, K, 1.0f, w, K, x, 1, 0.0f, y, 1);
    else
        blas.sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, M, N, K, 1.0f, x, K, w, K, 0.0f, y, N);
}

static void cpu_rmsnorm(void *ctx, const float *x, const float *g, float *y, int M, int D, float eps)
{
    (void)ctx;
#pragma omp parallel for if (M > 1)
    for (int m = 0; m < M; m++) {
        const float *xr = x + (size_t)m * D;
        float *yr = y + (size_t)m * D;
        double ss = 0;
        for (int i = 0; i < D; i++)
            ss += (double)xr[i] * xr[i];
        float r = (float)(1.0 / sqrt(ss / D + eps));
        for (int i = 0; i < D; i++)
            yr[i] = xr[i] * r * g[i];
    }
}

static void cpu_rope(void *ctx, float *x, const int *pos, int M, int nh, int hd, float theta)
{
    (void)ctx;
#pragma omp parallel for if (M > 1)
    for (int m = 0; m < M; m++) {
        for (int i = 0; i < hd / 2; i++) {
            double ang = pos[m] * pow(theta, -2.0 * i / hd);
            float c = (float)cos(ang), s = (float)sin(ang);
            for (int h = 0; h < nh; h++) {
                float *p = x + (size_t)m * nh * hd + (size_t)h * hd + 2 * i;
                float a = p[0], b = p[1];
                p[0] = a * c - b * s;
                p[1] = a * s + b * c;
            }
        }
    }
}

static void cpu_swiglu(void *ctx, const float *gate, const float *up, float *out, size_t n)
{
    (void)ctx;
#pragma omp parallel for if (n > 65536)
    for (size_t i = 0; i < n; i++)
        out[i] = gate[i] / (1.0f + expf(-gate[i])) * up[i];
}

static void cpu_add(void *ctx, float *x, const float *y, size_t n)
{
    (void)ctx;
#pragma omp parallel for if (n > 65536)
    for (size_t i = 0; i < n; i++)
        x[i] += y[i];
}

static void cpu_copy(void *ctx, float *dst, const float *src, size_t n)
{
    (void)ctx;
    int nt = omp_get_max_threads();
#pragma omp parallel for
    for (int t = 0; t < nt; t++) {
        size_t lo = n * t / nt, hi = n * (t + 1) / nt;
        memcpy(dst + lo, src + lo, (hi - lo) * sizeof *dst);
    }
}

static void cpu_embed(void *ctx, const float *table, const int *tok, float *out, int M, int D)
{
    (void)ctx;
    for (int m = 0; m < M; m++)
        memcpy(out + (size_t)m * D, table + (size_t)tok[m] * D, (size_t)D * sizeof *out);
}

static void cpu_kv_write(void *ctx, const float *k, const float *v, float *kp, float *vp,
                         const int *slots, int M, int kvh, int hd)
{
    (void)ctx;
    size_t row = (size_t)kvh * hd;
    for (int m = 0; m < M; m++) {
        size_t at = (size_t)slots[m] * row;
        memcpy(kp + at, k + m * row, row * sizeof *kp);
        memcpy(vp + at, v + m * row, row * sizeof *vp);
    }
}

/* Softmax of s (n) in place, max-subtracted.  Weights below e^-80 (1.8e-35)
 * are flushed to 0: their exp and the products with V would be subnormal,
 * which x86 cores run tens of times slower, making the kernel's speed
 * depend on the data. */
static void softmax(float *s, int n)
{
    float mx = -INFINITY;
    for (int j = 0; j < n; j++)
        mx = s[j] > mx ? s[j] : mx;
    double sum = 0;
    for (int j = 0; j < n; j++) {
        float d = s[j] - mx;
        s[j] = d < -80.0f ? 0.0f : expf(d);
        sum += s[j];
    }
    float inv = (float)(1.0 / sum);
    for (int j = 0; j < n; j++)
        s[j] *= inv;
}

/* Prefill: per head, S = Q K^T through cblas_sgemm, own causal mask and
 * softmax, O = P V through cblas_sgemm. */
static void cpu_attn_prefill(void *ctx, const float *q, const float *k, const float *v, float *o,
                             int T, int nh, int kvh, int hd)
{
    (void)ctx;
    float *s = malloc((size_t)T * T * sizeof *s);
    if (!s) {
        fprintf(stderr, "cpu backend: attn_prefill: out of memory for %d x %d scores\n", T, T);
        abort();
    }
    float scale = 1.0f / sqrtf((float)hd);
    int group = nh / kvh;
    for (int n = 0; n < nh; n++) {
        const float *qn = q + (size_t)n * hd, *kn = k + (size_t)(n / group) * hd;
        const float *vn = v + (size_t)(n / group) * hd;
        blas.sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, T, T, hd, scale, qn, nh * hd, kn,
                    kvh * hd, 0.0f, s, T);
#pragma omp parallel for
        for (int i = 0; i < T; i++) {
            float *r = s + (size_t)i * T;
            softmax(r, i + 1);
            for (int j = i + 1; j < T; j++)
                r[j] = 0.0f;
        }
        blas.sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, T, hd, T, 1.0f, s, T, vn, kvh * hd,
                    0.0f, o + (size_t)n * hd, nh * hd);
    }
    free(s);
}

/* Decode: one work item per (slot, kv head) reads that head's pages once
 * for all `group` query heads that share it (GQA). */
static void cpu_attn_decode(void *ctx, const float *q, const float *kp, const float *vp,
                            const int *blocks, const int *len, int B, int max_blocks, int page,
                            int nh, int kvh, int hd, float *o)
{
    (void)ctx;
    int group = nh / kvh, maxlen = 0;
    for (int b = 0; b < B; b++)
        maxlen = len[b] > maxlen ? len[b] : maxlen;
    float scale = 1.0f / sqrtf((float)hd);
    size_t row = (size_t)kvh * hd;
#pragma omp parallel
    {
        float *s = malloc((size_t)group * (maxlen ? maxlen : 1) * sizeof *s);
        float *acc = malloc((size_t)group * hd * sizeof *acc);
        if (!s || !acc)
            abort();
#pragma omp for schedule(dynamic)
        for (int w = 0; w < B * kvh; w++) {
            int b = w / kvh, kh = w % kvh, n0 = kh * group, L = len[b];
            const float *qb = q + (size_t)b * nh * hd;
            const int *bt = blocks + (size_t)b * max_blocks;
            for (int t = 0; t < L; t++) {
                const float *kr = kp + ((size_t)bt[t / page] * page + t % page) * row + kh * hd;
                for (int g = 0; g < group; g++) {
                    const float *qr = qb + (size_t)(n0 + g) * hd;
                    float d = 0;
                    for (int i = 0; i < hd; i++)
                        d += qr[i] * kr[i];
                    s[(size_t)g * L + t] = d * scale;
                }
            }
            for (int g = 0; g < group; g++)
                softmax(s + (size_t)g * L, L);
            memset(acc, 0, (size_t)group * hd * sizeof *acc);
            for (int t = 0; t < L; t++) {
                const float *vr = vp + ((size_t)bt[t / page] * page + t % page) * row + kh * hd;
                for (int g = 0; g < group; g++) {
                    float p = s[(size_t)g * L + t];
                    float *a = acc + (size_t)g * hd;
                    for (int i = 0; i < hd; i++)
                        a[i] += p * vr[i];
                }
            }
            for (int g = 0; g < group; g++)
                memcpy(o + (size_t)b * nh * hd + (size_t)(n0 + g) * hd, acc + (size_t)g * hd,
                       (size_t)hd * sizeof *o);
        }
        free(s);
        free(acc);
    }
}

static void cpu_destroy(void *ctx) { (void)ctx; }

/* The calling thread's CPU time (user + system; clock_gettime(2)). */
static double cpu_thread_clock(void *ctx)
{
    (void)ctx;
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int rl_backend_cpu(rl_backend *out, int threads, char *err, size_t errlen)
{
    pthread_once(&blas_once, blas_load);
    if (blas.err[0]) {
        snprintf(err, errlen, "%s", blas.err);
        return -1;
    }
    if (threads > 0) {
        omp_set_num_threads(threads);
        blas.set_threads(threads);
    }
    *out = (rl_backend){
        .name = "cpu",
        .ctx = NULL,
        .weight_bytes = 4,
        .compute_dtype = "fp32",
        .alloc = cpu_alloc,
        .free = cpu_free,
        .to_dev = cpu_copy_in,
        .to_host = cpu_copy_in,
        .upload_weight = cpu_upload,
        .sync = cpu_sync,
        .matmul = cpu_matmul,
        .rmsnorm = cpu_rmsnorm,
        .rope = cpu_rope,
        .swiglu = cpu_swiglu,
        .add = cpu_add,
        .copy = cpu_copy,
        .embed = cpu_embed,
        .kv_write = cpu_kv_write,
        .attn_prefill = cpu_attn_prefill,
        .attn_decode = cpu_attn_decode,
        .destroy = cpu_destroy,
        /* one thread: OpenBLAS and the OpenMP regions run on the caller,
         * whose CPU time is then every kernel's (backend.h); more threads
         * keep the wall clock (their work is on other threads) */
        .clock = threads == 1 ? cpu_thread_clock : NULL,
        .clock_name = threads == 1 ? "thread CPU time (one thread)" : NULL,
    };
    return 0;
}
