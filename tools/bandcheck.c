/* bandcheck.c — roofline-bandcheck: the data behind the band of operators no
 * kernel table of their own dtype measured (ops.c ROOFLINE_BAND and
 * DERIVED_BAND; docs/model.md, "Bands of unmeasured operators").
 *
 *   roofline-bandcheck HW:ENGINE [HW:ENGINE ...]
 *
 * Over every measured node (not a filled hole) of every kernel table
 * (GEMM, prefill and decode attention, MLA; not MoE, whose grids are per
 * model shape) of the named profiles' engines, pooled:
 *   roofline: ln(measured / roofline), the roofline the operator's own
 *     (engines.h rl_kideal at the chip's measured peaks), so the error of an
 *     operator timed at its roofline alone (provenance roofline);
 *   derived: with the node's own dtype table hidden, ln(measured / derived),
 *     derived as ops.c times a dtype no table measures (engines.h DERIVED):
 *     the nearest remaining variant's measured / ideal at the same shape
 *     times this dtype's roofline; so the error of provenance derived.
 * Prints n and the p5, p10, p90, p95 of each (fit.h rl_fit_bound, the
 * quantiles of every band), the figures ops.c carries.  A report
 * (`make accuracy-bands`), never asserted. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines.h"
#include "fit.h"
#include "roofline.h"
#include "spec.h"

#define MAXN 2000000
#define BINS 5 /* roofline time < 1 us, < 10 us, < 100 us, < 1 ms, beyond */

static double *roof[BINS], *der[BINS], *excess[BINS];
static int nr[BINS], nd[BINS];

/* the bin of a roofline time t (seconds) */
static int bin_of(double t)
{
    return t < 1e-6 ? 0 : t < 1e-5 ? 1 : t < 1e-4 ? 2 : t < 1e-3 ? 3 : 4;
}

/* the roofline of class c, variant v at x on h's measured peaks */
static double ideal(const rl_hw *h, rl_kclass c, int v, const double *x)
{
    rl_kideal_ctx k = {c, (rl_kvariant)v, rl_kvariant_peak(rl_hw_measured_flops(h), (rl_kvariant)v),
                       rl_hw_measured_bw(h), {0}, 0};
    return rl_kideal(x, &k);
}

static void scan(const rl_hw *h, const rl_serving_engine *e0)
{
    for (int c = 0; c < RL_KC_COUNT; c++)
        for (int v = 0; c != RL_KC_MOE && v < RL_KV_COUNT; v++) {
            const rl_ktable *t = e0->tables->t[c][v];
            if (!t)
                continue;
            rl_engine_tables hidden = *e0->tables;
            hidden.t[c][v] = NULL;
            rl_serving_engine e = *e0;
            e.tables = &hidden;
            for (size_t i = 0; i < t->n; i++) {
                if (t->filled && t->filled[i])
                    continue;
                double x[RL_KSHAPE] = {0};
                size_t r = i;
                for (int a = t->naxes - 1; a >= 0; a--) { /* last axis fastest */
                    x[a] = t->axis[a][r % (size_t)t->len[a]];
                    r /= (size_t)t->len[a];
                }
                double meas = exp(t->logv[i]), id = ideal(h, (rl_kclass)c, v, x);
                if (!(id > 0))
                    continue;
                int b = bin_of(id);
                if (nr[b] >= MAXN || nd[b] >= MAXN)
                    continue;
                excess[b][nr[b]] = (meas - id) * 1e6;
                roof[b][nr[b]++] = log(meas / id);
                /* the derived time, as ops.c derived_variant picks its donor */
                double peak = rl_kvariant_peak(rl_hw_measured_flops(h), (rl_kvariant)v);
                rl_kideal_ctx k = {(rl_kclass)c, (rl_kvariant)v, peak, 0, {0}, 0};
                int bound = rl_kideal(x, &k) >= id; /* compute-bound */
                int weights = c == RL_KC_GEMM;
                double wb = rl_kvariant_weight_bytes((rl_kvariant)v);
                double ab = rl_kvariant_act_bytes((rl_kvariant)v);
                int ref = rl_engine_nearest_variant(&e, (rl_kclass)c, weights ? wb : ab, ab, bound);
                double eff = ref >= 0 ? rl_engine_efficiency(&e, (rl_kclass)c, ref, x,
                                                             rl_hw_measured_flops(h),
                                                             rl_hw_measured_bw(h))
                                      : -1;
                if (eff > 0)
                    der[b][nd[b]++] = log(meas / (eff * id));
            }
        }
}

static void print(const char *what, double *v, int n)
{
    static const double P[4] = {0.05, 0.10, 0.90, 0.95};
    printf("%-9s n %6d", what, n);
    for (int q = 0; q < 4 && n > 0; q++)
        printf("  p%02.0f %+.4f", 100 * P[q], rl_fit_bound(v, n, P[q]));
    printf("\n");
}

int main(int argc, char **argv)
{
    for (int b = 0; b < BINS; b++) {
        roof[b] = malloc(MAXN * sizeof *roof[b]);
        der[b] = malloc(MAXN * sizeof *der[b]);
        excess[b] = malloc(MAXN * sizeof *excess[b]);
        if (!roof[b] || !der[b] || !excess[b])
            return 1;
    }
    if (argc < 2) {
        fprintf(stderr, "usage: roofline-bandcheck HW:ENGINE [HW:ENGINE ...]\n");
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        char hw[256], *colon;
        snprintf(hw, sizeof hw, "%s", argv[i]);
        if (!(colon = strchr(hw, ':'))) {
            fprintf(stderr, "roofline-bandcheck: %s: expected HW:ENGINE\n", argv[i]);
            return 2;
        }
        *colon = 0;
        rl_hw h;
        char err[1024];
        if (rl_hw_load(hw, NULL, 0, &h, err, sizeof err) != 0 ||
            rl_hw_select_engine(&h, colon + 1, err, sizeof err) != 0) {
            fprintf(stderr, "roofline-bandcheck: %s\n", err);
            return 2;
        }
        const rl_serving_engine *e = rl_engines_selected(&h.engines);
        int r0 = 0, d0 = 0, r1 = 0, d1 = 0;
        for (int b = 0; b < BINS; b++)
            r0 += nr[b], d0 += nd[b];
        if (e && e->tables)
            scan(&h, e);
        for (int b = 0; b < BINS; b++)
            r1 += nr[b], d1 += nd[b];
        printf("%s: %d nodes, %d derived\n", argv[i], r1 - r0, d1 - d0);
    }
    static const char *name[BINS] = {"< 1 us", "< 10 us", "< 100 us", "< 1 ms", ">= 1 ms"};
    for (int b = 0; b < BINS; b++) {
        printf("roofline time %s:\n", name[b]);
        print("roofline", roof[b], nr[b]);
        print("derived", der[b], nd[b]);
        print("excess us", excess[b], nr[b]);
    }
    return 0;
}
