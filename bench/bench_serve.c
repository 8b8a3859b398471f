/* bench_serve.c — `make bench`: simulated requests per second of the serving
 * simulator (target: 1e6 requests in under 2 s on one core), per policy,
 * median of 3 runs after one warm-up, stamped with the UTC time, in wall
 * seconds and in CPU seconds of this process (getrusage: user + system;
 * on a shared host the wall clock follows the load).  Two step
 * costs: the operator list (what simulate/size use; every step with a
 * prefill builds the op list, ~1 us), and a linearised cost fitted to it at
 * start-up (decode from the op-list cache, prefill at a fixed cost per
 * token) that isolates the simulator's own speed. */
#include <stdio.h>
#include <stdlib.h>

#include "arch.h"
#include "bench.h"
#include "clock.h"
#include "serve.h"
#include "stats.h"

/* Linearised step: the op-list decode step plus a per-token prefill cost. */
typedef struct {
    rl_ops_cost *oc;
    double per_token;
} lin_cost;

static double lin_time(void *ctx, const rl_step_work *w)
{
    lin_cost *l = ctx;
    double T = 0;
    for (int i = 0; i < w->nprefill; i++)
        T += (double)(w->prefill[i].seqs * w->prefill[i].tokens);
    return (w->decode_batch > 0 ? rl_serve_ops_time1(l->oc, 0, 0, w->decode_batch,
                                                     w->decode_context)
                                : 0) +
           T * l->per_token;
}

int main(void)
{
    char err[1024];
    rl_model m;
    rl_hw h;
    if (rl_model_load("llama3-70b", NULL, 0, &m, err, sizeof err) ||
        rl_hw_load("h100-sxm", NULL, 0, &h, err, sizeof err)) {
        fprintf(stderr, "bench_serve: %s\n", err);
        return 1;
    }
    long long chips = 8, n = 1000000;
    rl_precision p = rl_precision_default();
    rl_workload w = {.n = n, .qps = 400, .prompt = {RL_DIST_LOGNORMAL, 1000, 0.8},
                     .output = {RL_DIST_LOGNORMAL, 200, 0.8}, .seed = 1};
    rl_request *req;
    double t0 = rl_now_s();
    if (rl_workload_generate(&w, &req, err, sizeof err)) {
        fprintf(stderr, "bench_serve: %s\n", err);
        return 1;
    }
    double tgen = rl_now_s() - t0;
    rl_ops_cost oc;
    if (rl_ops_cost_init(&oc, &m, &h, chips, p, 1, err, sizeof err)) {
        fprintf(stderr, "bench_serve: %s\n", err);
        return 1;
    }
    rl_step_cost costs[2] = {rl_serve_ops_cost(&oc), {lin_time, NULL, 0, 0}};
    lin_cost lc = {&oc, rl_serve_ops_time1(&oc, 2048, 0, 0, 0) / 2048};
    costs[1].ctx = &lc;
    const char *cost_names[2] = {"op-list", "linearised"};
    char stamp[32];
    bench_utc(stamp, sizeof stamp);
    printf("# bench_serve commit %s %s: llama3-70b on 8 x h100-sxm per replica, 32 replicas, %lld requests,\n"
           "# qps %.0f, lognormal prompt 1000 / output 200; workload generation %.3f s (untimed below)\n",
           RL_COMMIT, stamp, n, w.qps, tgen);
    printf("%-11s %-12s %12s %12s %14s %10s %12s\n", "cost", "policy", "median_s", "spread_s",
           "requests_per_s", "steps", "median_cpu_s");
    int rc = 0;
    for (int ci = 0; ci < 2; ci++)
    for (int pol = 0; pol < RL_POLICY_COUNT; pol++) {
        if (pol == RL_POLICY_STATIC)
            continue; /* static batching is unstable at this load */
        rl_serve_config c = rl_serve_config_default();
        c.policy = (rl_policy)pol;
        c.replicas = pol == RL_POLICY_DISAGG ? 16 : 32;
        c.prefill_replicas = 16;
        rl_serve_config_hw(&c, &m, &h, chips, p, 0.1);
        double t[4], cpu[4];
        long long steps = 0;
        for (int k = 0; k < 4; k++) {
            rl_serve_result r;
            double s = rl_now_s(), s_cpu = bench_cpu_s();
            if (rl_serve_run(req, n, &c, &costs[ci], &costs[ci], &r, err, sizeof err)) {
                fprintf(stderr, "bench_serve: %s\n", err);
                rc = 1;
                break;
            }
            t[k] = rl_now_s() - s;
            cpu[k] = bench_cpu_s() - s_cpu;
            steps = r.steps;
            rl_serve_result_free(&r);
        }
        qsort(t + 1, 3, sizeof t[0], rl_cmp_double);
        qsort(cpu + 1, 3, sizeof cpu[0], rl_cmp_double);
        printf("%-11s %-12s %12.3f %12.3f %14.0f %10lld %12.3f\n", cost_names[ci],
               rl_policy_name(c.policy), t[2], t[3] - t[1], (double)n / t[2], steps, cpu[2]);
    }
    rl_ops_cost_free(&oc);
    free(req);
    return rc;
}
