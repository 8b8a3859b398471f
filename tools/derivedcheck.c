/* derivedcheck.c — roofline-derivedcheck: how well a derived time (engines.h
 * DERIVED) stands in for a dtype the engine has no table for, checked on the
 * dtypes it does have.
 *
 *   roofline-derivedcheck HW ENGINE
 *
 * For each GEMM table of HW's ENGINE other than bfloat16, in turn: hide it,
 * time its GEMMs derived from the remaining variants (as ops.c does: the
 * operator's own roofline, bf16 activations, times the nearest variant's
 * measured / ideal), and compare with the hidden table over m = 1, 2, 4, ...,
 * 8192, n in {1024, 4096, 8192, 14336, 28672}, k in {4096, 8192, 14336,
 * 28672} (shapes the hidden table extrapolates are skipped).  Prints median,
 * p90 and max |derived / table - 1| and the geometric-mean bias, beside the
 * same for the bare roofline (what such a dtype got before DERIVED).  A report
 * (`make accuracy-derived`), never asserted. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "engines.h"
#include "roofline.h"
#include "spec.h"

#define MAXN 512

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* "median p90 max bias" of the n ratios r (sorted in place). */
static void summary(const char *what, double *r, int n)
{
    double e[MAXN], bias = 0;
    for (int i = 0; i < n; i++) {
        e[i] = fabs(r[i] - 1);
        bias += log(r[i]);
    }
    qsort(e, (size_t)n, sizeof *e, cmp);
    printf("  %-14s median %5.1f%%  p90 %5.1f%%  max %6.1f%%  bias %+6.1f%%\n", what,
           100 * e[n / 2], 100 * e[(int)(0.9 * (n - 1))], 100 * e[n - 1], 100 * expm1(bias / n));
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: roofline-derivedcheck HW ENGINE\n");
        return 2;
    }
    rl_hw h;
    char err[1024];
    if (rl_hw_load(argv[1], NULL, 0, &h, err, sizeof err) != 0 ||
        rl_hw_select_engine(&h, argv[2], err, sizeof err) != 0) {
        fprintf(stderr, "roofline-derivedcheck: %s\n", err);
        return 2;
    }
    const rl_serving_engine *e0 = rl_engines_selected(&h.engines);
    /* the weights / compute dtypes of each GEMM variant (engines.h DTYPE_MAP) */
    static const rl_dtype W[RL_KV_COUNT] = {RL_BF16, RL_FP8, RL_INT8, RL_INT4, RL_INT8, RL_FP4, RL_FP32};
    static const rl_dtype C[RL_KV_COUNT] = {RL_BF16, RL_FP8, RL_BF16, RL_BF16, RL_INT8, RL_FP4, RL_FP32};
    static const double M[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192};
    static const double N[] = {1024, 4096, 8192, 14336, 28672}, K[] = {4096, 8192, 14336, 28672};
    for (int v = RL_KV_FP8; e0 && e0->tables && v < RL_KV_FP32; v++) {
        if (!e0->tables->t[RL_KC_GEMM][v] || rl_hw_peak(&h, C[v]) <= 0)
            continue;
        rl_engine_tables hidden = *e0->tables;
        hidden.t[RL_KC_GEMM][v] = NULL;
        rl_serving_engine e = *e0;
        e.tables = &hidden;
        double der[MAXN], bare[MAXN];
        int n = 0, refs[RL_KV_COUNT] = {0};
        for (size_t a = 0; a < sizeof M / sizeof *M; a++)
            for (size_t b = 0; b < sizeof N / sizeof *N; b++)
                for (size_t c = 0; c < sizeof K / sizeof *K && n < MAXN; c++) {
                    double x[3] = {M[a], N[b], K[c]};
                    rl_provenance p;
                    double t = rl_engine_time(e0, RL_KC_GEMM, v, x, rl_hw_peak(&h, C[v]),
                                              h.hbm_bw, &p);
                    if (t <= 0 || p == RL_PROV_EXTRAPOLATED)
                        continue;
                    double bytes = rl_dtype_matrix_bytes(W[v], x[2], x[1]) +
                                   (x[0] * x[2] + x[0] * x[1]) * rl_dtype_bytes(RL_BF16);
                    rl_roofline r =
                        rl_roofline_time(2 * x[0] * x[1] * x[2], bytes, rl_hw_peak(&h, C[v]), h.hbm_bw);
                    int ref = rl_engine_nearest_variant(&e, RL_KC_GEMM, rl_dtype_bytes(W[v]),
                                                        rl_dtype_bytes(C[v]), r.compute_s > r.memory_s);
                    double eff = rl_engine_efficiency(&e, RL_KC_GEMM, ref, x, h.flops, h.hbm_bw);
                    if (eff <= 0)
                        continue;
                    refs[ref]++;
                    der[n] = eff * r.time_s / t;
                    bare[n++] = r.time_s / t;
                }
        if (n == 0)
            continue;
        printf("%s %s gemm %s hidden: %d shapes, derived from", argv[1], argv[2],
               rl_kvariant_name((rl_kvariant)v), n);
        for (int k = 0; k < RL_KV_COUNT; k++)
            if (refs[k])
                printf(" %s (%d)", rl_kvariant_name((rl_kvariant)k), refs[k]);
        printf("\n");
        summary("derived", der, n);
        summary("bare roofline", bare, n);
    }
    return 0;
}
