/* bench_fit.c — `roofline fit` on 1,000 rows on one core (`make bench`).
 *
 * Builds 1,000 measurement rows of Llama-2-70B on h100-sxm (decode and
 * prefill, TP 2/4/8, batches 1-64, contexts and prompts 128-8192, each
 * configuration twice), measured as (E) of enginecost.h with known costs
 * times a deterministic +-3% wiggle, then times rl_e2e_fit (terms of every
 * row, the fit from its three starts, 5-fold cross-validation) after one
 * warm-up over REPS runs, and prints the median and spread with commit,
 * host and UTC time (STYLE.md's llama-bench convention).  Target: < 5 s.
 * Reported, never asserted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "bench.h"
#include "clock.h"
#include "e2e.h"
#include "fit.h"
#include "measure.h"

#define REPS 5
#define ROWS 1000

/* Halve r's batch until a chip of its plan holds its share of the weights
 * and KV cache: the fit refuses a row that cannot run (e2e.h
 * rl_e2e_row_chip, the rule the fit applies; a TP2 decode of Llama-2-70B at
 * 8192 tokens holds 10 sequences). */
static void halve_to_fit(rl_meas_row *r, const rl_model *mod, const rl_hw *h)
{
    rl_shard_result s;
    char err[512];
    while (r->batch > 1 && rl_e2e_row_chip(r, mod, h, rl_precision_default(), &s, err, sizeof err) == 0 &&
           !s.fits)
        r->batch /= 2;
}

/* The 1,000 rows: 500 configurations, two repeats each; batches above what
 * fits in HBM halved. */
static int make_rows(rl_meas *m, const rl_model *mod, const rl_hw *h)
{
    static const long long tp[] = {2, 4, 8}, len[] = {128, 256, 512, 1024, 2048, 4096, 8192};
    rl_engine_costs c = rl_engine_costs_ideal();
    c.v[RL_EC_DECODE_STEP] = 0.03;
    c.v[RL_EC_PREFILL_STEP] = 0.05;
    c.v[RL_EC_DECODE_SEQ] = 3e-4;
    c.v[RL_EC_PREFILL_SEQ] = 5e-3;
    c.v[RL_EC_COMPUTE] = 0.6;
    c.v[RL_EC_MEMORY] = 0.6;
    c.v[RL_EC_COMM] = 0.2;
    c.v[RL_EC_PREFILL_COMM] = 0.4;
    c.v[RL_EC_PREFILL_ACT] = 2.5e-11; /* inside its range, as the shipped fits' 4e-11 */
    double x[RL_EC_N];
    rl_ec_to_x(&c, x);
    memset(m, 0, sizeof *m);
    snprintf(m->path, sizeof m->path, "bench_fit (synthetic)");
    m->row = calloc(ROWS, sizeof *m->row);
    if (!m->row)
        return -1;
    for (int i = 0; i < ROWS; i++) {
        int k = i / 2; /* configuration */
        rl_meas_row *r = &m->row[i];
        r->line = i + 2;
        r->phase = k % 2 ? RL_MEAS_PREFILL : RL_MEAS_DECODE;
        r->tp = tp[k % 3];
        r->batch = 1 + (k / 3) % 64;
        r->pp = r->ep = 1;
        if (r->phase == RL_MEAS_DECODE)
            r->context = len[(k / 5) % 7];
        else
            r->tokens = len[(k / 5) % 4];
        r->config = k;
        halve_to_fit(r, mod, h);
        rl_ec_terms t;
        char err[512];
        if (rl_ec_terms_of(mod, h, rl_precision_default(), r, &t, err, sizeof err) != 0) {
            fprintf(stderr, "bench_fit: %s\n", err);
            return -1;
        }
        r->measured = rl_ec_time(&t, x, NULL) * (1 + 0.03 * ((i * 7919) % 3 - 1));
    }
    m->n = ROWS;
    m->nconfig = ROWS / 2;
    return 0;
}

int main(void)
{
    rl_model mod;
    rl_hw h;
    char err[1024];
    rl_override ctx = {"max_context", "16384"};
    if (rl_model_load("llama2-70b", &ctx, 1, &mod, err, sizeof err) != 0 ||
        rl_hw_load("h100-sxm", NULL, 0, &h, err, sizeof err) != 0) {
        fprintf(stderr, "bench_fit: %s\n", err);
        return 1;
    }
    rl_meas m;
    if (make_rows(&m, &mod, &h) != 0)
        return 1;
    rl_e2e_opts o = {.model = "llama2-70b", .hw = "h100-sxm", .prec = rl_precision_default(),
                     .sets = {&ctx, NULL}, .nsets = {1, 0}, .folds = 5, .band_lo = 0.1,
                     .band_hi = 0.9};
    double t[REPS], c[REPS], cv = 0;
    for (int r = -1; r < REPS; r++) { /* r = -1: warm-up */
        double t0 = rl_now_s(), c0 = bench_cpu_s();
        cJSON *res = rl_e2e_fit(&m, &o, err, sizeof err);
        double dt = rl_now_s() - t0, dc = bench_cpu_s() - c0;
        if (!res) {
            fprintf(stderr, "bench_fit: %s\n", err);
            return 1;
        }
        cv = cJSON_GetObjectItem(res, "cv_median_abs_error")->valuedouble;
        cJSON_Delete(res);
        if (r >= 0) {
            t[r] = dt;
            c[r] = dc;
        }
    }
    double median = rl_fit_quantile(t, REPS, 0.5); /* sorts t */
    double cpu = rl_fit_quantile(c, REPS, 0.5);
    char stamp[512];
    bench_stamp(stamp, sizeof stamp);
    printf("%-26s %-12s %-10s median %.3g s per fit of %d rows, %.3g CPU-s (wall min %.3g, max "
           "%.3g; %d reps; target < 5 s; CV median |error| %.1f%%)  %s\n",
           "fit + 5-fold CV", "llama2-70b", "h100-sxm", median, ROWS, cpu, t[0], t[REPS - 1], REPS,
           100 * cv, stamp);
    rl_measure_free(&m);
    return 0;
}
