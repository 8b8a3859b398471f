/* serve_validate.c — the simulator against the reference engine (see serve_validate.h). */
#include "serve_validate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "calib.h"
#include "engine.h"
#include "serve.h"

/* Measured TTFT and TPOT of every request (seconds; TPOT NAN for one-token
 * outputs) from serving req on the engine.  Returns 0 or -1. */
static int serve_on_engine(rl_engine *e, int slots, long long vocab, const rl_request *req,
                           long long n, double *ttft, double *tpot, double *busy, char *err,
                           size_t errlen)
{
    long long *slot_req = malloc((size_t)slots * sizeof *slot_req);
    int *gen = calloc((size_t)slots, sizeof *gen), *tok = NULL, maxp = 1;
    double *first = malloc((size_t)n * sizeof *first);
    for (long long i = 0; i < n; i++)
        maxp = req[i].prompt > maxp ? req[i].prompt : maxp;
    tok = malloc((size_t)maxp * sizeof *tok);
    int rc = -1;
    if (!slot_req || !gen || !first || !tok) {
        snprintf(err, errlen, "validate-serve: out of memory");
        goto done;
    }
    for (int s = 0; s < slots; s++)
        slot_req[s] = -1;
    for (int i = 0; i < maxp; i++)
        tok[i] = (int)((i * 7919u + 13u) % (unsigned)vocab); /* any valid token ids */
    double t = req[0].arrival;
    long long next = 0, finished = 0;
    int active = 0;
    *busy = 0;
    while (finished < n) {
        int free_slot = -1;
        for (int s = 0; s < slots && free_slot < 0; s++)
            if (slot_req[s] < 0)
                free_slot = s;
        if (next < n && req[next].arrival <= t && free_slot >= 0) {
            rl_prefix p;
            double t0 = rl_calib_now();
            if (rl_engine_prefill(e, tok, req[next].prompt, &p, NULL, err, errlen) != 0 ||
                rl_engine_insert(e, &p, free_slot, 1, err, errlen) != 0)
                goto done;
            double dt = rl_calib_now() - t0;
            t += dt;
            *busy += dt;
            ttft[next] = t - req[next].arrival;
            first[next] = t;
            tpot[next] = NAN;
            if (req[next].output <= 1) {
                rl_engine_release(e, free_slot);
                finished++;
            } else {
                slot_req[free_slot] = next;
                gen[free_slot] = 1;
                active++;
            }
            next++;
        } else if (active > 0) {
            double t0 = rl_calib_now();
            if (rl_engine_generate(e, NULL, err, errlen) < 0)
                goto done;
            double dt = rl_calib_now() - t0;
            t += dt;
            *busy += dt;
            for (int s = 0; s < slots; s++) {
                long long i = slot_req[s];
                if (i < 0 || ++gen[s] < req[i].output)
                    continue;
                tpot[i] = (t - first[i]) / (req[i].output - 1);
                rl_engine_release(e, s);
                slot_req[s] = -1;
                active--;
                finished++;
            }
        } else {
            t = req[next].arrival; /* idle until the next request */
        }
    }
    rc = 0;
done:
    free(slot_req);
    free(gen);
    free(first);
    free(tok);
    return rc;
}

/* p-quantile of the finite values of v[0..n) (copied). */
static double quantile(const double *v, long long n, double p)
{
    double *c = malloc((size_t)n * sizeof *c);
    int m = 0;
    for (long long i = 0; c && i < n; i++)
        if (isfinite(v[i]))
            c[m++] = v[i];
    double q = c && m > 0 ? rl_calib_quantile(c, m, p) : NAN;
    free(c);
    return q;
}

cJSON *rl_serve_validate(const rl_model *m, const rl_hw *h, const char *backend, int threads,
                         int slots, const rl_request *req, long long n, char *err, size_t errlen)
{
    int maxp = 1, maxc = 1;
    for (long long i = 0; i < n; i++) {
        maxp = req[i].prompt > maxp ? req[i].prompt : maxp;
        maxc = req[i].prompt + req[i].output > maxc ? req[i].prompt + req[i].output : maxc;
    }
    rl_backend be;
    if (rl_backend_open(backend, threads, &be, err, errlen) != 0)
        return NULL;
    rl_engine_config ec = {.page_size = 16, .max_slots = slots, .max_context = maxc + 1,
                           .max_prefill = maxp, .seed = 1};
    rl_engine *e = rl_engine_new(m, &be, &ec, err, errlen);
    double *ttft = malloc((size_t)n * sizeof *ttft), *tpot = malloc((size_t)n * sizeof *tpot);
    cJSON *out = NULL;
    double busy = 0, q[2][2][RL_SERVE_VALIDATE_RUNS]; /* [ttft|tpot][p50|p90][run] */
    if (!e || !ttft || !tpot) {
        if (e)
            snprintf(err, errlen, "validate-serve: out of memory");
        goto done;
    }
    /* warm-up: one prefill and one step, not measured */
    rl_request warm = {0, req[0].prompt, 2, -1, 0};
    double w1, w2;
    if (serve_on_engine(e, slots, m->vocab, &warm, 1, &w1, &w2, &busy, err, errlen) != 0)
        goto done;
    for (int run = 0; run < RL_SERVE_VALIDATE_RUNS; run++) {
        if (serve_on_engine(e, slots, m->vocab, req, n, ttft, tpot, &busy, err, errlen) != 0)
            goto done;
        for (int j = 0; j < 2; j++) {
            q[0][j][run] = quantile(ttft, n, j ? 0.9 : 0.5);
            q[1][j][run] = quantile(tpot, n, j ? 0.9 : 0.5);
        }
    }
    /* the simulator on the same trace: the engine runs fp32 everywhere */
    rl_precision p = {RL_FP32, RL_FP32, RL_FP32};
    rl_serve_config c = rl_serve_config_default();
    c.policy = RL_POLICY_INTERLEAVED;
    c.max_seqs = slots;
    c.max_tokens = maxp;
    rl_serve_config_hw(&c, m, h, 1, p, 0);
    if (!(c.host_bw > 0))
        c.host_bw = h->hbm_bw; /* a calibrated CPU profile has no host link; nothing swaps here */
    c.kv_samples = 0;
    rl_serve_result r;
    c.keep_requests = 1;
    if (rl_serve_simulate(m, h, 1, p, 1, req, n, &c, &r, err, errlen) != 0)
        goto done;
    out = cJSON_CreateObject();
    cJSON_AddStringToObject(out, "model", m->name);
    cJSON_AddStringToObject(out, "hw", h->name);
    cJSON_AddStringToObject(out, "backend", backend);
    cJSON_AddStringToObject(out, "mode", h->efficiency.present ? "calibrated" : "ideal");
    cJSON_AddNumberToObject(out, "requests", (double)n);
    cJSON_AddNumberToObject(out, "slots", slots);
    cJSON_AddNumberToObject(out, "engine_runs", RL_SERVE_VALIDATE_RUNS);
    cJSON_AddNumberToObject(out, "engine_busy_s", busy); /* the last run's busy time */
    cJSON_AddNumberToObject(out, "target_abs_error", RL_SERVE_VALIDATE_TARGET);
    cJSON *all = cJSON_AddTrueToObject(out, "all_within_target");
    cJSON *rows = cJSON_AddArrayToObject(out, "rows");
    const char *names[2] = {"ttft", "tpot"};
    const rl_pcts *sim[2] = {&r.ttft, &r.tpot};
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < 2; j++) {
            double lo = quantile(q[k][j], RL_SERVE_VALIDATE_RUNS, 0);
            double hi = quantile(q[k][j], RL_SERVE_VALIDATE_RUNS, 1);
            double mv = quantile(q[k][j], RL_SERVE_VALIDATE_RUNS, 0.5);
            double sv = j ? sim[k]->p90 : sim[k]->p50;
            cJSON *row = cJSON_CreateObject();
            cJSON_AddStringToObject(row, "metric", names[k]);
            cJSON_AddStringToObject(row, "quantile", j ? "p90" : "p50");
            cJSON_AddNumberToObject(row, "measured_s", mv);
            cJSON_AddNumberToObject(row, "simulated_s", sv);
            cJSON_AddNumberToObject(row, "error", sv / mv - 1);
            int ok = fabs(sv / mv - 1) <= RL_SERVE_VALIDATE_TARGET;
            cJSON_AddBoolToObject(row, "within_target", ok);
            if (!ok && all)
                all->type = cJSON_False;
            cJSON_AddNumberToObject(row, "measured_min_s", lo); /* spread over the runs */
            cJSON_AddNumberToObject(row, "measured_max_s", hi);
            cJSON_AddItemToArray(rows, row);
        }
    rl_serve_result_free(&r);
done:
    free(ttft);
    free(tpot);
    if (e)
        rl_engine_free(e); /* and its backend */
    return out;
}
