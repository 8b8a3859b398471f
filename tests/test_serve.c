/* test_serve.c — the serving simulator against closed forms: formula (1) at
 * the realised decode batch, the prefill:decode server ratio that keeps both
 * pools saturated, KV tokens freed per step at given P and G, Little's law,
 * the speculative-decoding expectation, prefix-cache savings, preemption,
 * and seeded determinism (workloads and traces: test_workload.c). */
#include "testutil.h"

#include <ctype.h>

#include "arch.h"
#include "result.h"
#include "memory.h"
#include "ops.h"
#include "serve.h"
#include "interrupt.h"
#include "shard.h"
#include "stats.h"
#include "step.h"

typedef struct {
    rl_model m;
    rl_hw h;
    rl_ops_cost oc;
    rl_step_cost cost;
} fixture;

static int setup(void **state)
{
    static fixture f;
    f.m = load_model("llama3-8b", NULL, 0);
    f.h = load_hw("h100-sxm", NULL, 0);
    char err[512];
    if (rl_ops_cost_init(&f.oc, &f.m, &f.h, 1, rl_precision_default(), 0, err, sizeof err) != 0)
        fail_msg("%s", err);
    f.cost = rl_serve_ops_cost(&f.oc);
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    rl_ops_cost_free(&f->oc);
    return 0;
}

/* One prompt of T new tokens on a cached prefix P beside B sequences at S. */
static double step_time(fixture *f, double T, double P, double B, double S)
{
    return rl_serve_ops_time1(&f->oc, T, P, B, S);
}

static rl_serve_config config(const fixture *f, rl_policy p)
{
    rl_serve_config c = rl_serve_config_default();
    c.policy = p;
    rl_serve_config_hw(&c, &f->m, &f->h, 1, rl_precision_default(), 0.1);
    return c;
}

static rl_request *workload(long long n, double qps, int P, int G, uint64_t seed)
{
    rl_workload w = {.n = n, .qps = qps, .prompt = {RL_DIST_FIXED, P, 0},
                     .output = {RL_DIST_FIXED, G, 0}, .seed = seed};
    rl_request *r = NULL;
    char err[256];
    if (rl_workload_generate(&w, &r, err, sizeof err) != 0)
        fail_msg("%s", err);
    return r;
}

static rl_serve_result run(const fixture *f, const rl_request *r, long long n,
                           const rl_serve_config *c)
{
    rl_serve_result out;
    char err[512];
    if (rl_serve_run(r, n, c, &f->cost, &f->cost, &out, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(out.completed, n);
    return out;
}

/* The step cost is the operator list's mixed step: decode-only steps are
 * interpolated in S per batch, exactly (1e-9) where the op list is linear in
 * S; prefill steps are the op list as is.  The decode step agrees with
 * formula (1) (seed 000 section 1) within 3% for llama3-8b on one H100 (the
 * op list adds norms, RoPE and softmax; 0.5% for llama3-70b). */
/* On 8 chips the step adds the 1D TP collectives of shard.h for the
 * step's token rows (T + B), the measured rows (rl_shard_collectives),
 * exactly (same arithmetic, 1e-12); calibrated
 * mode is the op list under the efficiency tables. */
static void test_cost_adds_tp_collectives(void **state)
{
    fixture *f = *state;
    rl_precision p = rl_precision_default();
    rl_ops_cost oc;
    char err[512];
    assert_int_equal(rl_ops_cost_init(&oc, &f->m, &f->h, 8, p, 0, err, sizeof err), 0);
    rl_shard_plan plan = rl_shard_plan_default();
    plan.tp = 8;
    rl_shard_result r;
    assert_int_equal(rl_shard_collectives(&f->m, &f->h, &plan, RL_PHASE_GENERATE, 32 + 512, p, &r,
                                          err, sizeof err), 0);
    assert_true(r.comm_s > 0);
    assert_rel(rl_serve_ops_time1(&oc, 512, 1000, 32, 4096),
               rl_ops_mixed_step_time(&f->m, &f->h, 8, p, 512, 1000, 32, 4096) + r.comm_s, 1e-12);
    rl_ops_cost_free(&oc);
    /* calibrated: the op list under the profile's efficiency tables (h100-sxm carries
     * measured fractions < 1), so slower than ideal; the same call as ops.c (1e-12) */
    assert_true(f->h.efficiency.present);
    assert_int_equal(rl_ops_cost_init(&oc, &f->m, &f->h, 1, p, 1, err, sizeof err), 0);
    rl_ops_config cc = rl_ops_mixed_config(1, p, 0, 0, 32, 4096);
    cc.calibrated = 1;
    assert_rel(rl_serve_ops_time1(&oc, 0, 0, 32, 4096), rl_ops_step_time(&f->m, &f->h, &cc), 1e-9);
    assert_true(rl_serve_ops_time1(&oc, 0, 0, 32, 4096) > step_time(f, 0, 0, 32, 4096));
    rl_ops_cost_free(&oc);
    /* a TP degree above the model's heads is refused (llama3-8b: N = 32) */
    assert_int_equal(rl_ops_cost_init(&oc, &f->m, &f->h, 64, p, 0, err, sizeof err), -1);
}

/* vLLM's prefill dispatch (32 layers x 0.8 ms = 25.6 ms on llama3-8b,
 * engines.c ENGINE_COSTS, NVIDIA AIConfigurator's figure) is latency on
 * the request's path, never in a step (serve.h rl_step_cost.dispatch_s):
 * the step cost is the same with the cost as with it set to 0 (a 512-token
 * last chunk beside 8 decoders, exactly), and it rides on the step cost as
 * dispatch_s (1e-12).  Simulated (llama3-8b, h100-sxm, vLLM calibrated,
 * 300 requests of 512 + 128 tokens at 10 requests/s, seed 7), every
 * request's first and last token move by exactly that: TPOT p50, p99 and
 * mean equal those of the same profile with the cost 0 (exact: the same
 * steps, the same arithmetic), ITL p50 too, and TTFT p50 and p99 and e2e
 * p50 rise by 25.6 ms (1e-9 relative on the difference: percentiles of
 * values shifted by one constant, up to rounding).  At this load a prompt
 * seldom waits (TTFT p50 less the service p50 under 10 ms, asserted), the
 * case the brief's "no queueing" asks for; the shift is exact at any load,
 * as no step changes. */
static void test_dispatch_on_ttft_not_steps(void **state)
{
    fixture *f = *state;
    const double want = 32 * 0.8e-3;
    rl_hw h = f->h;
    char err[512];
    assert_int_equal(rl_hw_select_engine(&h, "vllm", err, sizeof err), 0);
    rl_hw none = h;
    none.engines.e[none.engines.sel].prefill_layer_s = 0;
    rl_ops_cost oc, on;
    rl_precision p = rl_precision_default();
    assert_int_equal(rl_ops_cost_init(&oc, &f->m, &h, 1, p, 1, err, sizeof err), 0);
    assert_int_equal(rl_ops_cost_init(&on, &f->m, &none, 1, p, 1, err, sizeof err), 0);
    assert_true(rl_serve_ops_time1(&oc, 512, 1024, 8, 2048) == rl_serve_ops_time1(&on, 512, 1024, 8, 2048));
    rl_step_cost with = rl_serve_ops_cost(&oc), without = rl_serve_ops_cost(&on);
    assert_rel(with.dispatch_s, want, 1e-12);
    assert_true(without.dispatch_s == 0);
    rl_serve_config c = rl_serve_config_default();
    rl_serve_config_hw(&c, &f->m, &h, 1, p, 0.1);
    const long long n = 300;
    rl_request *r = workload(n, 10, 512, 128, 7);
    rl_serve_result a, b;
    assert_int_equal(rl_serve_run(r, n, &c, &with, &with, &a, err, sizeof err), 0);
    assert_int_equal(rl_serve_run(r, n, &c, &without, &without, &b, err, sizeof err), 0);
    assert_int_equal(a.completed, n);
    assert_true(a.tpot.p50 == b.tpot.p50 && a.tpot.p99 == b.tpot.p99 && a.tpot.mean == b.tpot.mean);
    assert_true(a.itl.p50 == b.itl.p50);
    assert_rel(a.ttft.p50 - b.ttft.p50, want, 1e-9);
    assert_rel(a.ttft.p99 - b.ttft.p99, want, 1e-9);
    assert_rel(a.e2e.p50 - b.e2e.p50, want, 1e-9);
    assert_true(b.ttft.p50 - b.ttft_service.p50 < 0.010);
    rl_serve_result_free(&a);
    rl_serve_result_free(&b);
    free(r);
    rl_ops_cost_free(&oc);
    rl_ops_cost_free(&on);
}

/* Two calibrated costs of the fixture's model on one chip. */
static void two_costs(fixture *f, rl_ops_cost *a, rl_ops_cost *b)
{
    char err[512];
    assert_int_equal(rl_ops_cost_init(a, &f->m, &f->h, 1, rl_precision_default(), 1, err, sizeof err), 0);
    assert_int_equal(rl_ops_cost_init(b, &f->m, &f->h, 1, rl_precision_default(), 1, err, sizeof err), 0);
}

/* Review A finding 4: the dense decode memo is bounded (dense_max).  A
 * calibrated cost whose bound leaves room for one row and one block only
 * sends the other decode steps to the hash memo, and every time equals the
 * unbounded cost's exactly (the same step_time call).  The batches fail the
 * linear check (slope -1), so the dense memo is the path taken. */
static void test_dense_memo_bounded(void **state)
{
    rl_ops_cost a, b;
    two_costs(*state, &a, &b);
    assert_int_equal(a.dense_max, RL_OPS_DENSE_MAX);
    size_t blocks = (size_t)(b.smax / RL_OPS_DENSE) + 1;
    b.dense_max = ((size_t)b.cap + 1 + blocks) * sizeof(double *) + RL_OPS_DENSE * sizeof(double);
    a.unmapped = b.unmapped = RL_OPS_MAP_AFTER; /* the memos from the first step on */
    for (int pass = 0; pass < 2; pass++) /* the second pass reads both memos */
        for (long long B = 1; B <= 3; B++)
            for (long long S = 100; S <= 5100; S += 1250)
                assert_true(rl_serve_ops_time1(&a, 0, 0, (double)B, (double)S) ==
                            rl_serve_ops_time1(&b, 0, 0, (double)B, (double)S));
    assert_true(a.slope[1] < 0 && a.slope[3] < 0);
    assert_int_equal(a.memo_n, 0);
    assert_true(a.dense_bytes > b.dense_max);
    assert_true(b.dense_bytes <= b.dense_max);
    assert_int_equal(b.memo_n, 3 * 5 - 1); /* all but the one block's step */
    rl_ops_cost_free(&a);
    rl_ops_cost_free(&b);
}

/* A cost maps its span terms and dense memo at its RL_OPS_MAP_AFTER-th
 * step, not its first (size's pruning costs time two or three steps each):
 * none after RL_OPS_MAP_AFTER - 1 decode and prompt steps, both after the
 * next few, and every time equal to a cost's that maps them at once (the
 * same step_time call, bit for bit). */
static void test_memos_mapped_after_first_steps(void **state)
{
    rl_ops_cost a, b;
    two_costs(*state, &a, &b);
    b.unmapped = RL_OPS_MAP_AFTER;
    for (long long k = 0; k < 2 * RL_OPS_MAP_AFTER; k++) { /* one step_time call each */
        double B = (double)(1 + k % 3), S = (double)(100 + 37 * k), T = (double)(64 + k);
        if (k % 2)
            assert_true(rl_serve_ops_time1(&a, 0, 0, B, S) == rl_serve_ops_time1(&b, 0, 0, B, S));
        else
            assert_true(rl_serve_ops_time1(&a, T, 0, B, S) == rl_serve_ops_time1(&b, T, 0, B, S));
        if (k == RL_OPS_MAP_AFTER - 2)
            assert_true(!a.dense_map && !a.terms[0]);
    }
    assert_true(a.slope[1] < 0 && a.dense_map && a.terms[0]); /* decode steps take the memo */
    rl_ops_cost_free(&a);
    rl_ops_cost_free(&b);
}

/* Review A finding 5: rl_ops_cost_pipeline after costed steps forgets every
 * cached time (the memos held times without the stage-to-stage sends): the
 * decode and prompt steps then equal a cost given pp 2 before any step
 * (to 1e-15), and exceed the pp 1 times (so the check can fail). */
static void test_setters_forget_steps(void **state)
{
    rl_ops_cost a, b;
    char err[512];
    two_costs(*state, &a, &b);
    assert_int_equal(rl_ops_cost_pipeline(&b, 2, err, sizeof err), 0);
    double d1 = rl_serve_ops_time1(&a, 0, 0, 8, 2000), p1 = rl_serve_ops_time1(&a, 512, 0, 8, 2000);
    assert_int_equal(rl_ops_cost_pipeline(&a, 2, err, sizeof err), 0);
    double d2 = rl_serve_ops_time1(&a, 0, 0, 8, 2000), p2 = rl_serve_ops_time1(&a, 512, 0, 8, 2000);
    assert_rel(d2, rl_serve_ops_time1(&b, 0, 0, 8, 2000), 1e-15);
    assert_rel(p2, rl_serve_ops_time1(&b, 512, 0, 8, 2000), 1e-15);
    assert_true(d2 > d1 && p2 > p1);
    rl_ops_cost_free(&a);
    rl_ops_cost_free(&b);
}

static void test_cost_is_the_op_list(void **state)
{
    fixture *f = *state;
    rl_precision p = rl_precision_default();
    for (int B = 1; B <= 256; B *= 4)
        for (int S = 1; S <= 8192; S *= 8)
            assert_rel(step_time(f, 0, 0, B, S), rl_ops_mixed_step_time(&f->m, &f->h, 1, p, 0, 0, B, S),
                       1e-9);
    assert_rel(step_time(f, 512, 1000, 32, 4096),
               rl_ops_mixed_step_time(&f->m, &f->h, 1, p, 512, 1000, 32, 4096), 1e-12);
    rl_step d = rl_step_decode(&f->m, &f->h, 1, 32, 4096, p);
    assert_rel(step_time(f, 0, 0, 32, 4096), d.step_s, 0.03);
    /* prefill at large T is compute-bound: near 2 * P_active * T / FLOPs (seed 000 section 1);
     * attention and elementwise ops add up to 30% at T = 8192 */
    double T = 8192, ideal = T * rl_arch_flops_per_token(&f->m) / rl_hw_peak(&f->h, RL_BF16);
    double t = step_time(f, T, 0, 0, 0);
    assert_true(t >= 0.95 * ideal && t < 1.3 * ideal);
}

/* Disaggregated decode pool at steady state: the mean TPOT is the decode
 * step at the realised mean batch and context (the step is linear in B and
 * S while memory-bound, so the mean step is the step at the means; requests
 * weight large-batch steps slightly more: 3%), formula (1) there within 6%,
 * and Little's law holds in
 * the decode pool: the time-averaged batch B = lambda * (G - 1) * TPOT (2%). */
static void test_decode_step_at_realised_batch(void **state)
{
    fixture *f = *state;
    long long n = 20000;
    int P = 1000, G = 200;
    double qps = 20;
    rl_request *r = workload(n, qps, P, G, 7);
    rl_serve_config c = config(f, RL_POLICY_DISAGG);
    c.prefill_replicas = 2;
    rl_serve_result out = run(f, r, n, &c);
    double model = step_time(f, 0, 0, out.mean_decode_batch, out.mean_decode_context);
    assert_rel(out.tpot.mean, model, 0.03);
    /* and formula (1) itself at the realised batch (op list vs formula (1): 3% more) */
    rl_step d = rl_step_decode(&f->m, &f->h, 1, (long long)llround(out.mean_decode_batch),
                               (long long)llround(out.mean_decode_context), rl_precision_default());
    assert_rel(out.tpot.mean, d.step_s, 0.06);
    assert_rel(out.mean_decode_batch_time, qps * (G - 1) * out.tpot.mean, 0.02);
    /* steady state (from the 2,000th completion to the last arrival):
     * completions at the offered rate, G tokens each (2%: Poisson counts
     * over ~900 s) */
    assert_rel(out.steady_req_per_s, qps, 0.02);
    assert_rel(out.steady_out_tokens_per_s, qps * G, 0.02);
    rl_serve_result_free(&out);
    free(r);
}

/* A short run: 200 requests evenly spaced at 20 req/s (10 s of arrivals),
 * each taking ~1.5 s to finish.  Over the whole run the drain tail after
 * the last arrival pulls the rate below 92% of the offered 20 req/s; the
 * steady-state window (from the 20th completion to the last arrival, ~7 s)
 * sees completions at the offered rate (one request in ~140: 1%, plus 1%). */
static void test_steady_state_excludes_drain(void **state)
{
    fixture *f = *state;
    long long n = 200;
    rl_request *r = workload(n, 20, 1000, 200, 1);
    for (long long i = 0; i < n; i++)
        r[i].arrival = (double)i / 20;
    rl_serve_config c = config(f, RL_POLICY_CONTINUOUS);
    rl_serve_result out = run(f, r, n, &c);
    assert_true(out.e2e.p50 > 1.0); /* the tail is long against 10 s of arrivals */
    assert_true(out.req_per_s < 0.92 * 20);
    assert_rel(out.steady_req_per_s, 20, 0.02);
    assert_rel(out.steady_out_tokens_per_s, 20 * 200, 0.02);
    rl_serve_result_free(&out);
    free(r);
}

/* Under overload, disaggregated throughput is min(n_p mu_p, n_d mu_d) with
 * mu_p = 1 / t_prefill(P) per prefill server (B = 1 prompt per step) and
 * mu_d = B / ((G - 1) t_step(B, S_mean)) per decode server at its batch cap
 * B (seed 000 section 4: scale the two pools independently).  The ratio
 * n_p / n_d = mu_d / mu_p keeps both saturated: with it rounded up, the
 * decode pool is the bottleneck and runs at its full batch.  Tolerance 3%
 * (drain at the end of a finite run). */
static void test_prefill_decode_ratio(void **state)
{
    fixture *f = *state;
    int P = 2000, G = 100, B = 64;
    double tp = step_time(f, P, 0, 0, 0);
    double S = P + (G - 1) / 2.0;
    double td = step_time(f, 0, 0, B, S);
    double mu_p = 1 / tp, mu_d = B / ((G - 1) * td);
    double ratio = mu_d / mu_p;
    assert_true(ratio > 1.5); /* long prompts: more prefill than decode servers */
    long long n = 20000;
    rl_request *r = workload(n, 1e6, P, G, 3); /* everything arrives at once */
    rl_serve_config c = config(f, RL_POLICY_DISAGG);
    c.max_seqs = B;
    c.max_tokens = P; /* one prompt per prefill step */
    c.prefill_replicas = 1;
    c.replicas = 1;
    rl_serve_result one = run(f, r, n, &c);
    assert_rel(one.req_per_s, mu_p, 0.03); /* 1:1 is prefill-bound */
    /* offered at twice the prefill capacity: the steady-state rate is that
     * capacity (3%) while the offered rate is not */
    rl_request *r2 = workload(4000, 2 * mu_p, P, G, 3);
    rl_serve_result two = run(f, r2, 4000, &c);
    assert_rel(two.steady_req_per_s, mu_p, 0.03);
    rl_serve_result_free(&two);
    free(r2);
    c.prefill_replicas = (int)ceil(ratio);
    rl_serve_result bal = run(f, r, n, &c);
    assert_rel(bal.req_per_s, mu_d, 0.03);
    assert_rel(bal.mean_decode_batch, B, 0.03);
    rl_serve_result_free(&one);
    rl_serve_result_free(&bal);
    free(r);
}

/* Disaggregated KV transfers share their prefill replica's link (serve.c
 * send_kv; tester43 F2: each transfer took its solo time however many
 * overlapped).  llama3-8b bf16 holds 131,072 B a token (32 layers x 8 KV
 * heads x 128 x 2 x 2 B), 131.072 MB a 1000-token prompt; a link of
 * 5 x that a second carries 5 prompts' KV a second.  At 10 req/s offered:
 *  - a fast link (h100-sxm's 50 GB/s, 2.6 ms a prompt) keeps up: completions
 *    at the offered rate (2%), keep-up;
 *  - the slow link carries at most its bandwidth: bytes sent / run time
 *    <= 655.36 MB/s (exact: transfers take turns; the run outlasts the last
 *    one), and at least 99% of it (busy from the first prefill to the last
 *    transfer, 400 s, then one request's 49 decode steps); completions at
 *    its 5 req/s (2%); the run is overloaded (keep-up below 98%: the link's
 *    queue grows) and TPOT p50 (the wait for the link, ~100 s, over 49
 *    tokens) at least 100x the fast link's;
 *  - D decode replicas receive what P prefill replicas send: with D < P each
 *    sender gets D/P of its link, so 4 prefill + 1 decode replicas carry the
 *    one link's 5 req/s (2%), and 4 + 4 (20 req/s of links, the prompts
 *    spread over the senders by least-outstanding routing, which counts a
 *    request until its KV has left) keep up. */
static void test_disagg_link_contention(void **state)
{
    fixture *f = *state;
    long long n = 2000;
    int P = 1000, G = 50;
    double kv = 131072.0 * P, bw = 5 * kv;
    rl_request *r = workload(n, 10, P, G, 5);
    rl_serve_config c = config(f, RL_POLICY_DISAGG);
    assert_rel(c.kv_bytes_per_token, 131072, 1e-12);
    assert_rel(c.net_bw, 5e10, 1e-12);
    rl_serve_result fast = run(f, r, n, &c);
    assert_rel(fast.steady_req_per_s, 10, 0.02);
    assert_true(rl_serve_keeps_up(&fast));
    assert_true(fast.kv_link_utilization < 0.03); /* 10 x 2.6 ms a second */
    c.net_bw = bw;
    rl_serve_result slow = run(f, r, n, &c);
    assert_true(n * kv / slow.duration_s <= bw * (1 + 1e-12));
    assert_true(n * kv / slow.duration_s >= 0.99 * bw);
    assert_true(slow.kv_link_utilization >= 0.99 && slow.kv_link_utilization <= 1 + 1e-12);
    assert_rel(slow.req_per_s, 5, 0.02);
    assert_false(rl_serve_keeps_up(&slow));
    assert_true(slow.tpot.p50 > 100 * fast.tpot.p50);
    rl_serve_result_free(&fast);
    rl_serve_result_free(&slow);
    c.prefill_replicas = 4;
    rl_serve_result narrow = run(f, r, n, &c);
    assert_rel(narrow.req_per_s, 5, 0.02);
    assert_false(rl_serve_keeps_up(&narrow));
    c.replicas = 4;
    rl_serve_result wide = run(f, r, n, &c);
    assert_rel(wide.steady_req_per_s, 10, 0.02);
    assert_true(rl_serve_keeps_up(&wide));
    rl_serve_result_free(&narrow);
    rl_serve_result_free(&wide);
    /* review40 F3: the KV waiting on the link stays in the prefill
     * replica's pool until it has arrived, so a pool of 20 prompts
     * (20,000 tokens) on the slow link holds prefill back: the backlog
     * (10 - 5 = 5 req/s offered beyond the link) waits for prefill, not
     * for the link.  The median request (arriving at 100 s) finds ~500
     * prompts ahead, at most ~20 of them held in the pool, so it waits
     * ~(500 - 20) / 5 = 96 s for its first token: TTFT p50 > 50 s; its
     * link wait is at most the pool's 20 prompts at 5 a second, 4 s over
     * 49 tokens, so TPOT p50 < 0.2 s.  Before: the pool was freed at
     * prefill end, TTFT p50 stayed at the prefill time (< 1 s) and the
     * ~100 s link wait landed in TPOT (the slow case above). */
    c.replicas = 1;
    c.prefill_replicas = 1;
    c.kv_capacity_tokens = 20 * P;
    rl_serve_result held = run(f, r, n, &c);
    assert_true(held.ttft.p50 > 50);
    assert_true(held.tpot.p50 < 0.2);
    assert_rel(held.req_per_s, 5, 0.02);
    rl_serve_result_free(&held);
    free(r);
}

/* Continuous batching at steady state: each finished sequence releases its
 * P + G - 1 KV tokens and B / (G - 1) sequences finish per decode step, so
 * the KV tokens freed per step are B (P + G - 1) / (G - 1) (2%); and
 * Little's law L = lambda W over the whole system (2%). */
static void test_tokens_freed_per_step_and_little(void **state)
{
    fixture *f = *state;
    long long n = 20000;
    int P = 500, G = 300;
    rl_request *r = workload(n, 10, P, G, 11);
    rl_serve_config c = config(f, RL_POLICY_CONTINUOUS);
    rl_serve_result out = run(f, r, n, &c);
    double B = out.mean_decode_batch;
    assert_rel(out.kv_freed_tokens / (double)out.decode_steps, B * (P + G - 1) / (G - 1.0), 0.02);
    double lambda = (double)(n - 1) / (r[n - 1].arrival - r[0].arrival);
    assert_rel(out.mean_in_system, lambda * out.e2e.mean, 0.02);
    rl_serve_result_free(&out);
    free(r);
}

/* Static batching of B simultaneous prompts (a trace of B lines "0,T,G"):
 * one prefill step of the B prompts, each attending to its own T tokens
 * only, then G - 1 decode steps at batch B whose context grows by one a
 * step (the prefill emits the first token), so the run lasts
 * t_prefill(B x T) + sum_{k=0}^{G-2} t_decode(B, T + k) (1e-9), every TTFT is
 * t_prefill, and t_prefill is `ops --phase prefill --batch B --tokens T`
 * (rl_ops_step_time with prefill_seqs = B, calibrated like the CLI; the
 * issue asks 1%, it is exact).  Llama-2-70B on one H200 in fp8,
 * B = 1024, T = G = 128: 15.5 s of prefill from the H200 TensorRT-LLM
 * kernel tables (11.9 s by the efficiency curves; the step was costed as
 * one 4096-token sequence before, 0.39 s). */
static void test_static_batch_closed_form(void **state)
{
    (void)state;
    rl_model m = load_model("llama2-70b", NULL, 0);
    rl_hw h = load_hw("h200", NULL, 0);
    rl_precision p = {RL_FP8, RL_FP8, RL_FP8};
    enum { B = 1024, T = 128, G = 128 };
    rl_ops_cost oc;
    char err[512];
    if (rl_ops_cost_init(&oc, &m, &h, 1, p, 1, err, sizeof err) != 0)
        fail_msg("%s", err);
    rl_step_cost cost = rl_serve_ops_cost(&oc);
    rl_request *r = calloc(B, sizeof *r);
    rl_ops_part *parts = malloc(B * sizeof *parts);
    for (int i = 0; i < B; i++) {
        r[i] = (rl_request){.arrival = 0, .prompt = T, .output = G, .prefix_id = -1};
        parts[i] = (rl_ops_part){1, T, 0};
    }
    rl_serve_config c = rl_serve_config_default();
    c.policy = RL_POLICY_STATIC;
    c.max_seqs = B;
    rl_serve_config_hw(&c, &m, &h, 1, p, 0.1);
    rl_serve_result out;
    if (rl_serve_run(r, B, &c, &cost, &cost, &out, err, sizeof err) != 0)
        fail_msg("%s", err);
    rl_step_work pw = {parts, B, 0, 0, 0};
    double t_pf = rl_serve_ops_time(&oc, &pw), expect = t_pf;
    for (int k = 0; k <= G - 2; k++)
        expect += rl_serve_ops_time1(&oc, 0, 0, B, T + k);
    rl_ops_config pc = rl_ops_config_default();
    pc.prec = p;
    pc.calibrated = 1;
    pc.prefill_seqs = B;
    pc.prefill_tokens = T;
    assert_rel(t_pf, rl_ops_step_time(&m, &h, &pc), 1e-9);
    /* 15.47 s with h200's TensorRT-LLM kernel tables (fp8 GEMMs at m = 131072
     * extrapolated along the roofline from the tables' m = 32768 edge); 11.9 s
     * with its efficiency curves alone */
    assert_true(t_pf > 14 && t_pf < 17);
    assert_int_equal(out.steps, G);
    assert_rel(out.mean_decode_batch, B, 0);
    assert_rel(out.ttft.p50, t_pf, 1e-12);
    assert_rel(out.ttft.max, t_pf, 1e-12);
    assert_rel(out.duration_s, expect, 1e-9);
    /* no queueing: TTFT is all service; every gap is a decode step, so the
     * pooled ITL mean is the TPOT (1e-9) and its median the median step
     * (k = 63 of 0..126; bins under 0.4% wide: 0.2%) */
    assert_rel(out.ttft_service.p99, t_pf, 1e-12);
    assert_rel(out.itl.mean, out.tpot.mean, 1e-9);
    assert_int_equal(out.itl.n, (long long)B * (G - 1));
    assert_rel(out.itl.p50, rl_serve_ops_time1(&oc, 0, 0, B, T + 63), 2e-3);
    rl_serve_result_free(&out);
    rl_ops_cost_free(&oc);
    free(parts);
    free(r);
}

/* Decode tokens count against max_tokens when whole prompts join (fixWG
 * #3) and in a disaggregated decode pool (fixWG #2): 300 prompts of 100
 * tokens arrive together, 400 output tokens each (none finishes while the
 * others join), max_tokens 250, max_seqs and KV room far above.
 * Continuous: a prompt joins only while its 100 tokens fit beside the
 * decode tokens, so the most sequences an admission saw (seqs_peak: the
 * decoding ones plus the step's prompts) is at most 250 - 100 + 1 = 151
 * (the check that stops it; exact); before, a prompt
 * joined whenever no other did and the batch reached 250.  Disagg: the
 * decode pool admits transferred sequences up to 250 decoding (peak 250,
 * exact); before, only max_seqs capped it (peak 299: every request joined,
 * 299 decoding at the check that let the 300th in). */
static void test_decode_tokens_in_budget(void **state)
{
    fixture *f = *state;
    rl_request *r = workload(300, 1e9, 100, 400, 7);
    long long peak = 0;
    rl_serve_config c = config(f, RL_POLICY_CONTINUOUS);
    c.max_tokens = 250;
    c.max_seqs = 100000;
    c.kv_capacity_tokens = 1e7;
    c.seqs_peak = &peak;
    rl_serve_result out = run(f, r, 300, &c);
    assert_int_equal(peak, 151);
    rl_serve_result_free(&out);
    c = config(f, RL_POLICY_DISAGG);
    c.max_tokens = 250;
    c.max_seqs = 100000;
    c.kv_capacity_tokens = 1e7;
    peak = 0;
    c.seqs_peak = &peak;
    out = run(f, r, 300, &c);
    assert_int_equal(peak, 250);
    rl_serve_result_free(&out);
    free(r);
}

/* The token budget under continuous batching (tester #15): 20 prompts of
 * 1000 tokens arriving together, max_tokens 1500.  The budget holds one
 * prompt per step, so the 20 prefills take 20 steps and the last TTFT is
 * about 20 prefill steps (more than 10, as 2 would fit in 2000 tokens);
 * none is over the budget.  At max_tokens 100 every prompt is longer than
 * the budget: each is prefilled whole in a step of its own and counted
 * (over_budget = 20, exact); chunked batching cuts them instead (0).
 * Counted once per request (h27lab; a tester read "3620 of 2000"): with KV
 * room for about two prompts (2200 tokens) each waits many steps for room,
 * and every step that found none counted it again; 64-token outputs and a
 * pool this small also preempt, and a recompute is no second request. */
static void test_continuous_token_budget(void **state)
{
    fixture *f = *state;
    rl_request *r = workload(20, 1e9, 1000, 2, 7);
    rl_serve_config c = config(f, RL_POLICY_CONTINUOUS);
    c.max_tokens = 1500;
    rl_serve_result out = run(f, r, 20, &c);
    double t_pf = step_time(f, 1000, 0, 0, 0);
    assert_int_equal(out.over_budget, 0);
    assert_true(out.ttft.max > 10 * t_pf);
    rl_serve_result_free(&out);
    c.max_tokens = 100;
    out = run(f, r, 20, &c);
    assert_int_equal(out.over_budget, 20);
    assert_true(out.ttft.max > 10 * t_pf);
    rl_serve_result_free(&out);
    c.kv_capacity_tokens = 2200;
    out = run(f, r, 20, &c);
    assert_int_equal(out.completed, 20);
    assert_int_equal(out.over_budget, 20);
    rl_serve_result_free(&out);
    free(r);
    r = workload(20, 1e9, 1000, 64, 7);
    out = run(f, r, 20, &c);
    assert_int_equal(out.completed, 20);
    assert_int_equal(out.over_budget, 20);
    rl_serve_result_free(&out);
    c.policy = RL_POLICY_CHUNKED;
    out = run(f, r, 20, &c);
    assert_int_equal(out.over_budget, 0);
    rl_serve_result_free(&out);
    free(r);
}

/* The metric definitions (serve.h): two 100-token prompts at t = 0 under
 * interleaved batching with one slot: the second waits for the first to
 * finish, so its TTFT is e2e_1 + t_prefill while both TTFT services are
 * t_prefill (1e-9); each TPOT is (e2e - TTFT) / (G - 1) and the pooled ITL
 * mean equals the TPOT mean (equal G).  With two slots and the second
 * prompt arriving mid-decode, its prefill pauses the first's decode: the
 * ITL's max holds that stall (> t_prefill), its median does not. */
static void test_metric_definitions(void **state)
{
    fixture *f = *state;
    int P = 100, G = 10;
    rl_request r[2] = {{.arrival = 0, .prompt = P, .output = G, .prefix_id = -1},
                       {.arrival = 0, .prompt = P, .output = G, .prefix_id = -1}};
    rl_serve_config c = config(f, RL_POLICY_INTERLEAVED);
    c.max_seqs = 1;
    c.keep_requests = 1;
    rl_serve_result out = run(f, r, 2, &c);
    double tp = step_time(f, P, 0, 0, 0);
    assert_rel(out.ttft.p50, tp, 1e-9);
    assert_rel(out.ttft.max, out.e2e.p50 + tp, 1e-9);
    assert_rel(out.ttft_service.max, tp, 1e-9);
    assert_rel(out.ttft_service.p50, tp, 1e-9);
    assert_rel(out.tpot_s[0], (out.e2e_s[0] - out.ttft_s[0]) / (G - 1), 1e-9);
    assert_rel(out.itl.mean, out.tpot.mean, 1e-9);
    assert_int_equal(out.itl.n, 2 * (G - 1));
    rl_serve_result_free(&out);
    c.max_seqs = 2;
    r[1].arrival = tp + 3 * step_time(f, 0, 0, 1, P);
    out = run(f, r, 2, &c);
    assert_true(out.itl.max > tp);
    assert_true(out.itl.p50 < tp);
    rl_serve_result_free(&out);
}

/* Capacity against M/D/1 (Poisson arrivals, one server, deterministic
 * service D): one replica serving 300-token prompts with one output token
 * under interleaved batching with one slot serves each request in one
 * prefill step of D.  The queue is stable below 1/D requests/s, so the
 * simulator's max_sustainable_qps (without SLOs) is 1/D within the search's
 * 2% and the keep-up criterion's 2% (found: within [0.93, 1.03] / D), and
 * capacity_utilization = lambda / capacity is rho = lambda D, which for one
 * server is the busy fraction (utilization) too (2%, 20000 requests).  The
 * mean TTFT is the Pollaczek-Khinchine D + rho D / (2 (1 - rho)) = 1.5 D at
 * rho = 0.5 (3%, sampling).  With a TTFT p99 target of 4 D the capacity is
 * lower, sustained there (the search's requests) and within [0.84, 1.02]
 * of M/D/1's exact figure for it, lambda D = 0.46288 (the wait's
 * distribution, md1_wait_cdf below, at 3 D reaching 0.99), the band of
 * test_md1_slo_capacity_not_optimistic.  It reads 0.410 (0.886 of it)
 * since the floor takes Garwood's limit at the effective exceedances
 * (review35 L1; 0.444 with the rule of three), so the old check that the
 * search's requests miss the target at 10% more (0.451, still below the
 * exact 0.463) no longer holds: at 1.15 times it (0.472, above it), the
 * sample's p99 must exceed 4 D. */
static void test_capacity_md1(void **state)
{
    fixture *f = *state;
    int P = 300;
    double D = step_time(f, P, 0, 0, 0), lambda = 0.5 / D;
    rl_request *r = workload(20000, lambda, P, 1, 7);
    rl_serve_config c = config(f, RL_POLICY_INTERLEAVED);
    c.max_seqs = 1;
    rl_serve_result out = run(f, r, 20000, &c);
    double cap;
    char err[256];
    assert_int_equal(rl_serve_capacity(r, 20000, &c, &f->cost, &f->cost, 0, &cap, err, sizeof err), 0);
    assert_true(cap * D >= 0.93 && cap * D <= 1.03);
    assert_rel(out.utilization, 0.5, 0.02);
    assert_rel(lambda / cap, out.utilization, 0.08);
    assert_rel(out.ttft.mean, 1.5 * D, 0.03);
    rl_serve_result_free(&out);
    c.slo_ttft = 4 * D;
    double cap_slo;
    assert_int_equal(rl_serve_capacity(r, 20000, &c, &f->cost, &f->cost, 0, &cap_slo, err, sizeof err), 0);
    assert_true(cap_slo < cap);
    assert_true(cap_slo * D >= 0.84 * 0.46288 && cap_slo * D <= 1.02 * 0.46288);
    /* the search's requests (the first 4000) at its load and 10% above */
    rl_request *q = malloc(4000 * sizeof *q);
    double q0 = 3999 / (r[3999].arrival - r[0].arrival);
    for (int k = 0; k < 2; k++) {
        for (int i = 0; i < 4000; i++) {
            q[i] = r[i];
            q[i].arrival = (r[i].arrival - r[0].arrival) * q0 / (cap_slo * (k ? 1.15 : 1));
        }
        out = run(f, q, 4000, &c);
        assert_true(k ? out.ttft.p99 > 4 * D : out.ttft.p99 <= 4 * D);
        rl_serve_result_free(&out);
    }
    free(q);
    /* all arrivals at one instant (offline): no rate, no capacity (NAN: JSON null) */
    for (int i = 0; i < 100; i++)
        r[i].arrival = 0;
    assert_int_equal(rl_serve_capacity(r, 100, &c, &f->cost, &f->cost, 0, &cap, err, sizeof err), 0);
    assert_true(isnan(cap));
    free(r);
}

/* The M/D/1 case of test_capacity_md1 on 4000 requests at half the
 * capacity: 300-token prompts of one output token, one slot, each request
 * one prefill step of *D. */
static rl_request *md1_case(fixture *f, double *D, rl_serve_config *c)
{
    *D = step_time(f, 300, 0, 0, 0);
    *c = config(f, RL_POLICY_INTERLEAVED);
    c->max_seqs = 1;
    return workload(4000, 0.5 / *D, 300, 1, 7);
}

/* One capacity search, whatever its start (serve.h rl_serve_capacity):
 * the loads searched are lattice points 1.02^k of the sample's own rate and
 * the sample never depends on the hint, so with a verdict monotone in the
 * load every start ends on the same point: no hint (simulate), the load
 * itself, a hint near the capacity and one far above or below it give the
 * same number (==; size and simulate used to differ by 0.7% from their
 * different starts, fixR's note), with and without a TTFT target, on
 * md1_case (4000 requests: the whole sample); a hint 1e-6 of the capacity
 * too, whose bracket steps up 1.25x ten times, then doubles its steps. */
static void test_capacity_any_start(void **state)
{
    double D;
    rl_serve_config c;
    rl_request *r = md1_case(*state, &D, &c);
    fixture *f = *state;
    double q0 = 3999 / (r[3999].arrival - r[0].arrival);
    char err[256];
    for (int slo = 0; slo < 2; slo++) {
        c.slo_ttft = slo ? 4 * D : 0;
        double cap;
        assert_int_equal(rl_serve_capacity(r, 4000, &c, &f->cost, &f->cost, 0, &cap, err, sizeof err), 0);
        if (!(cap * D > 0.3 && cap * D < 1.05))
            fail_msg("capacity %g x D (target %d)", cap * D, slo);
        double k = log(cap / q0) / log(1.02); /* a lattice point */
        assert_true(fabs(k - round(k)) < 1e-6);
        const double hints[] = {0.5 / D, cap, 1.01 * cap, 0.97 * cap, 3 * cap, 0.1 * cap,
                                1e-6 * cap}; /* the last gallops (serve.h) */
        for (size_t i = 0; i < sizeof hints / sizeof *hints; i++) {
            double again;
            assert_int_equal(rl_serve_capacity(r, 4000, &c, &f->cost, &f->cost, hints[i], &again,
                                               err, sizeof err), 0);
            if (again != cap)
                fail_msg("hint %g: %.17g, without a hint %.17g", hints[i], again, cap);
        }
    }
    free(r);
}

/* A capacity search labels its loads by the rate asked for (serve.h
 * rl_serve_capacity, asked_qps), not by its draw's own rate: on md1_case
 * (4000 Poisson arrivals drawn at lambda = 0.5 / D, whose own rate q0 is
 * 1.0132 lambda, a draw 1.3% high, as expected on 4000: 1/sqrt(n) = 1.6%) the
 * search runs the same loads, so the figure with asked_qps = lambda is
 * lambda x 1.02^k exactly (1e-9 relative, the pow), k the integer lattice
 * point that the search without it found on q0 x 1.02^k, i.e. the two
 * figures differ by lambda / q0 (was: both q0 x 1.02^k, the asked rate
 * ignored; issue 14).  The run of the draw itself, sustained at lambda,
 * holds the figure at lambda, not q0 (rl_serve_capacity_with_run from 0:
 * lambda exactly; was q0 = 1.0132 lambda).  A --burst draw past CV 1 keeps
 * its own rate (serve.h rl_serve_asked_qps). */
static void test_capacity_label_asked(void **state)
{
    double D;
    rl_serve_config c;
    rl_request *r = md1_case(*state, &D, &c);
    fixture *f = *state;
    double lambda = 0.5 / D, q0 = 3999 / (r[3999].arrival - r[0].arrival);
    if (!(fabs(q0 / lambda - 1) > 0.01)) /* a draw off its rate, so the label tells */
        fail_msg("q0 %g of lambda", q0 / lambda);
    double own, asked;
    char err[256];
    assert_int_equal(
        rl_serve_capacity(r, 4000, &c, &f->cost, &f->cost, 0, &own, err, sizeof err), 0);
    double k = round(log(own / q0) / log(1.02));
    assert_true(fabs(log(own / q0) / log(1.02) - k) < 1e-6);
    c.asked_qps = lambda;
    assert_int_equal(
        rl_serve_capacity(r, 4000, &c, &f->cost, &f->cost, 0, &asked, err, sizeof err), 0);
    if (!(fabs(asked / (lambda * pow(1.02, k)) - 1) < 1e-9))
        fail_msg("asked %.17g, lambda x 1.02^%g %.17g (own-rate figure %.17g)", asked, k,
                 lambda * pow(1.02, k), own);
    rl_serve_result out = run(f, r, 4000, &c);
    double held = rl_serve_capacity_with_run(0, r, 4000, &out, &c);
    if (!(fabs(held / lambda - 1) < 1e-12))
        fail_msg("run at lambda %.17g holds %.17g (q0 %.17g)", lambda, held, q0);
    rl_serve_result_free(&out);
    free(r);
    /* the label asked for (rl_serve_asked_qps): --qps for Poisson and for
     * gamma arrivals at most as bursty, none (the draw's own rate) past CV 1 */
    rl_workload w = {.qps = 1200, .arrival = RL_ARRIVAL_POISSON};
    assert_true(rl_serve_asked_qps(&w) == 1200);
    w.arrival = RL_ARRIVAL_GAMMA, w.burst_cv = 1;
    assert_true(rl_serve_asked_qps(&w) == 1200);
    w.burst_cv = 100;
    assert_true(rl_serve_asked_qps(&w) == 0);
}

/* The step cost of the fixture, counting its calls. */
typedef struct {
    const rl_step_cost *inner;
    long long calls;
} counted_cost;

static double counted_time(void *ctx, const rl_step_work *w)
{
    counted_cost *k = ctx;
    k->calls++;
    return k->inner->time(k->inner->ctx, w);
}

/* A TTFT target below the unloaded service time D (each request one prefill
 * step, as in the M/D/1 case) is missed at every load: capacity 0.  The
 * search stops at its floor probe (serve.h RL_SERVE_CAPACITY_FLOOR_AFTER
 * failing loads, then one run unloaded) instead of stepping the load down
 * by 1.25 for all RL_SERVE_CAPACITY_RUNS runs: each run stops at the 41st
 * request over the target (p99 of 4000 is missed), one step per request,
 * so 4 runs take about 4 x 41 steps, the 40 runs about 1640; we allow 10 x 41. */
static void test_capacity_floor_stops_early(void **state)
{
    double D;
    rl_serve_config c;
    rl_request *r = md1_case(*state, &D, &c);
    fixture *f = *state;
    c.slo_ttft = 0.5 * D;
    counted_cost k = {&f->cost, 0};
    rl_step_cost cost = {counted_time, &k, 0, 0};
    double cap;
    char err[256];
    assert_int_equal(rl_serve_capacity(r, 4000, &c, &cost, &cost, 0.5 / D, &cap, err, sizeof err), 0);
    assert_true(cap == 0);
    assert_true(k.calls >= 4 * 41 && k.calls <= 10 * 41);
    free(r);
}

/* A step of 1 ms whatever its work: a synthetic cost for the search tests. */
static double step_1ms(void *ctx, const rl_step_work *w)
{
    (void)ctx, (void)w;
    return 1e-3;
}

/* Capacity scales with replicas (tester10 #5).  R replicas of max_seqs 64
 * under continuous batching, every step 1 ms, 10-token prompts of 20 output
 * tokens: a request holds a slot for 20 steps (its prefill step emits the
 * first token), so R replicas complete at most R x 64 / 20 ms = 3200 R
 * req/s.  The search's first sample (4000 of 16000 requests offered at 1
 * req/s) lasts 4000 / 160000 = 25 ms at 50 replicas' capacity, about one
 * 20 ms latency: the old search failed loads there before a steady window
 * and read 0.70 of it.  It must find within [0.9, 1.02] of 3200 R at R = 1
 * and 50, unflagged.  On 300 requests (the whole sample lasts 94 ms at 50
 * replicas' capacity) the figure was flagged a lower bound below 0.9 of
 * it until fixSB; the sample's own growths for the count's ramp (serve.h
 * RL_SERVE_CAPACITY_RAMP_SPANS) now take it long enough: 158744 req/s
 * (0.992 x), unflagged, held to the same [0.9, 1.02]. */
static void test_capacity_scales_with_replicas(void **state)
{
    fixture *f = *state;
    rl_step_cost cost = {step_1ms, NULL, 0, 0};
    rl_request *r = workload(16000, 1, 10, 20, 3);
    rl_serve_config c = config(f, RL_POLICY_CONTINUOUS);
    c.max_seqs = 64;
    int lower_bound = -1;
    c.capacity_lower_bound = &lower_bound;
    char err[256];
    double cap;
    const int R[] = {1, 50};
    for (int i = 0; i < 2; i++) {
        c.replicas = R[i];
        assert_int_equal(rl_serve_capacity(r, 16000, &c, &cost, &cost, 0, &cap, err, sizeof err), 0);
        if (!(cap >= 0.9 * 3200 * R[i] && cap <= 1.02 * 3200 * R[i]) || lower_bound != 0)
            fail_msg("%d replicas: %g req/s (%g per replica), lower bound %d", R[i], cap,
                     cap / R[i], lower_bound);
    }
    assert_int_equal(rl_serve_capacity(r, 300, &c, &cost, &cost, 0, &cap, err, sizeof err), 0);
    if (!(cap >= 0.9 * 3200 * 50 && cap <= 1.02 * 3200 * 50) || lower_bound != 0)
        fail_msg("300 requests: %g req/s, lower bound %d", cap, lower_bound);
    free(r);
}

/* A step of 1 ms plus 0.02 ms a decoding sequence: each request in the
 * system lengthens every other's latency (test_capacity_per_replica). */
static double step_batch(void *ctx, const rl_step_work *w)
{
    (void)ctx;
    return 1e-3 + 2e-5 * (double)w->decode_batch;
}

/* Per-replica capacity does not fall with the replicas (fixSB): under
 * least-outstanding routing R replicas sustain about R times one's load.
 * Steps of 1 ms + 0.02 ms a sequence (step_batch), 10-token prompts of 20
 * output tokens (19 decode steps), max_seqs 256: the batch cap binds at
 * 256 / (19 x 6.12 ms) = 2201 req/s a replica; the count relaxes to its
 * level with the time constant T (a + b L) / a (serve.c count_ramp), up to
 * 6 latencies there.  The search's first sample (4000 of 16000 requests,
 * offered at 1 req/s) lasts 1.8 s at one replica's capacity and 0.18 s at
 * 10 replicas': the keep-up rule's growth test read the ramp as a backlog,
 * and the sample, grown only to 2 end-to-end latencies or settle times
 * (M/G/infinity's), stayed short.  Measured: one replica 2185.0 req/s
 * (lattice step 2%), 10 replicas 20417 (0.934 x 10 x one's) before the
 * ramp rule (RL_SERVE_CAPACITY_RAMP_SPANS), 21667 (0.992 x) with it.  10
 * replicas must read 0.96-1.04 x 10 times one replica's figure (two
 * lattice steps), with and without a loose TPOT target, and the figure
 * with the target never above the one without (the issue: 9072 req/s with
 * targets beside 8720 without, 1000 llama3-8b replicas). */
static void test_capacity_per_replica(void **state)
{
    fixture *f = *state;
    rl_step_cost cost = {step_batch, NULL, 0, 0};
    rl_request *r = workload(16000, 1, 10, 20, 3);
    rl_serve_config c = config(f, RL_POLICY_CONTINUOUS);
    c.max_seqs = 256;
    char err[256];
    double none = NAN; /* 10 replicas without the target */
    for (int slo = 0; slo < 2; slo++) {
        double one, many;
        c.slo_tpot = slo ? 0.05 : 0;
        c.replicas = 1;
        assert_int_equal(rl_serve_capacity(r, 16000, &c, &cost, &cost, 0, &one, err, sizeof err), 0);
        c.replicas = 10;
        assert_int_equal(rl_serve_capacity(r, 16000, &c, &cost, &cost, 0, &many, err, sizeof err), 0);
        if (!slo)
            none = many;
        if (!(many >= 0.96 * 10 * one && many <= 1.04 * 10 * one))
            fail_msg("target %d: 10 replicas %g req/s, %g x 10 x one replica's %g", slo, many,
                     many / (10 * one), one);
        if (slo && !(many <= none))
            fail_msg("10 replicas: %g req/s with the target, %g without", many, none);
    }
    free(r);
}

/* A step of 0.1 ms plus 2 us a token: a batch's cost per request falls as
 * it grows, up to the step's token budget (test_capacity_not_above_saturated). */
static double step_grows(void *ctx, const rl_step_work *w)
{
    (void)ctx;
    double tokens = w->decode_batch;
    for (int i = 0; i < w->nprefill; i++)
        tokens += (double)w->prefill[i].tokens;
    return 1e-4 + 2e-6 * tokens;
}

/* The capacity is never above the saturated rate (issue 14 item 5): one
 * replica serving 100-token prompts of one output token, continuous
 * batching with a budget of 8000 tokens a step, each step 0.1 ms + 2 us a
 * token (step_grows): a full step serves 80 requests in 16.1 ms, 4969
 * req/s, and a small one costs more a request, so the rate served grows
 * with the backlog up to that.  The saturated rate is measured here, the
 * steady throughput of 20000 requests offered at 18000 req/s (4969
 * expected, 1%; 4946 measured).  A load 10% past it grows each step by
 * about 10% from a few requests, so a short sample ends before its steps
 * reach the budget, the waiting queue emptied at every step: the search
 * read 5349 req/s on 1000 requests offered at 4500 (1.081 x) and 5550 on
 * the first 200 (1.122 x) before the keep-up rule counted completions
 * (serve.c system_grew; the sample grown until that count resolves 2%);
 * now 5041 (1.019 x) and 4928 (0.996 x).  Each must be at most 1.04 times
 * the saturated rate (keep-up's 2%, RL_SERVE_CAPACITY_TOL, and one step of
 * the search's lattice) and above 0.9 times it. */
static void test_capacity_not_above_saturated(void **state)
{
    fixture *f = *state;
    rl_step_cost cost = {step_grows, NULL, 0, 0};
    rl_serve_config c = config(f, RL_POLICY_CONTINUOUS);
    c.max_tokens = 8000;
    rl_request *over = workload(20000, 18000, 100, 1, 11);
    rl_serve_result out;
    char err[256];
    assert_int_equal(rl_serve_run(over, 20000, &c, &cost, &cost, &out, err, sizeof err), 0);
    double sat = out.steady_req_per_s;
    rl_serve_result_free(&out);
    free(over);
    assert_rel(sat, 80 / 16.1e-3, 0.01);
    rl_request *r = workload(1000, 4500, 100, 1, 11);
    const long long n[] = {1000, 200};
    for (int i = 0; i < 2; i++) {
        double cap;
        assert_int_equal(rl_serve_capacity(r, n[i], &c, &cost, &cost, 0, &cap, err, sizeof err), 0);
        if (!(cap <= 1.04 * sat && cap >= 0.9 * sat))
            fail_msg("%lld requests: capacity %g req/s, saturated %g (x%.3f)", n[i], cap, sat,
                     cap / sat);
    }
    free(r);
}

/* Every 20th request of `n` (fixed 10-token prompts at 1 req/s, seed 5)
 * with 1000 output tokens, the others 10: a heavy tail whose long requests
 * hold slots for 1 s, 100 times the short ones. */
static rl_request *two_point_tail(long long n)
{
    rl_request *r = workload(n, 1, 10, 10, 5);
    for (long long i = 19; i < n; i += 20)
        r[i].output = 1000;
    return r;
}

/* The settle time (serve.h e2e_settle_s), closed forms: 1 ms steps at 1
 * req/s (no queueing: a request waits at most the 1 ms step in flight).
 * Fixed 20-token outputs: e2e T = 20 ms, settle 0.98 T = 19.6 ms.  The
 * two-point tail above: E[T] = 0.95 x 10 + 0.05 x 1000 = 59.5 ms; for t
 * between 10 and 1000 ms, E[(T - t)+] = 0.05 (1000 - t) = 0.02 x 59.5 at
 * t = 976.2 ms.  Tolerance 1 ms + 1% (the wait for the step in flight). */
static void test_settle_time_closed_form(void **state)
{
    fixture *f = *state;
    rl_step_cost cost = {step_1ms, NULL, 0, 0};
    rl_serve_config c = config(f, RL_POLICY_CONTINUOUS);
    rl_request *r = workload(400, 1, 10, 20, 3);
    char err[256];
    rl_serve_result out;
    assert_int_equal(rl_serve_run(r, 400, &c, &cost, &cost, &out, err, sizeof err), 0);
    if (fabs(out.e2e_settle_s - 0.0196) > 1e-3 + 0.0196 * 0.01)
        fail_msg("fixed 20 ms: settle %g s, want 0.0196", out.e2e_settle_s);
    rl_serve_result_free(&out);
    free(r);
    r = two_point_tail(400);
    assert_int_equal(rl_serve_run(r, 400, &c, &cost, &cost, &out, err, sizeof err), 0);
    if (fabs(out.e2e_settle_s - 0.9762) > 1e-3 + 0.9762 * 0.01)
        fail_msg("two-point tail: settle %g s, want 0.9762", out.e2e_settle_s);
    rl_serve_result_free(&out);
    free(r);
}

/* verdict_pcts (serve.h: the capacity search's runs): the figures a
 * verdict reads are those of the full run bit for bit (TTFT and TPOT p99,
 * every e2e figure, the miss bound and keep-up), the others 0.  The
 * two-point tail above (400 requests, 1 req/s, 1 ms steps) with targets
 * given, so that the miss bound is computed; exact equality, no
 * tolerance: the same run, only fewer selections after it. */
static void test_verdict_pcts_same_verdict(void **state)
{
    fixture *f = *state;
    rl_step_cost cost = {step_1ms, NULL, 0, 0};
    rl_serve_config c = config(f, RL_POLICY_CONTINUOUS);
    c.slo_ttft = 0.01;
    c.slo_tpot = 0.002;
    rl_request *r = two_point_tail(400);
    char err[256];
    rl_serve_result a, b;
    assert_int_equal(rl_serve_run(r, 400, &c, &cost, &cost, &a, err, sizeof err), 0);
    c.verdict_pcts = 1;
    assert_int_equal(rl_serve_run(r, 400, &c, &cost, &cost, &b, err, sizeof err), 0);
    assert_true(a.ttft.p99 == b.ttft.p99 && a.tpot.p99 == b.tpot.p99 && a.tpot.n == b.tpot.n);
    assert_true(a.e2e.p50 == b.e2e.p50 && a.e2e.p90 == b.e2e.p90 && a.e2e.p99 == b.e2e.p99 &&
                a.e2e.mean == b.e2e.mean && a.e2e_settle_s == b.e2e_settle_s);
    assert_true(a.slo_miss_bound == b.slo_miss_bound && a.keep_up == b.keep_up &&
                a.completed == b.completed);
    assert_true(a.ttft.p50 > 0 && b.ttft.p50 == 0 && b.ttft_service.p99 == 0 && b.tpot.p90 == 0);
    rl_serve_result_free(&a);
    rl_serve_result_free(&b);
    free(r);
}

/* Capacity with a heavy tail converges with the run's length (tester14
 * F2a: a disaggregated llama3-8b read 95.2 req/s on 3000 requests of
 * lognormal:300:1 outputs, 76.2 on 12000).  One replica of 64 slots, 1 ms
 * steps, the two-point tail: a request holds a slot for its output tokens'
 * steps (as in test_capacity_scales_with_replicas), so the replica
 * completes at most 64 / 59.5 ms = 1075.6 req/s.  At that load 54 of the
 * 64 slots hold long requests, reached only after about 1 s (the settle
 * time, 976 ms); a 300-request sample lasts 0.28 s, so its search
 * sustained loads the steady state does not.  Now the sample lasts two
 * settle times (the 300 requests repeated): both 300 and 16000 requests
 * find [0.9, 1.02] x 1075.6, unflagged. */
static void test_capacity_heavy_tail_converges(void **state)
{
    fixture *f = *state;
    rl_step_cost cost = {step_1ms, NULL, 0, 0};
    rl_serve_config c = config(f, RL_POLICY_CONTINUOUS);
    c.max_seqs = 64;
    int lower_bound = -1;
    c.capacity_lower_bound = &lower_bound;
    rl_request *r = two_point_tail(16000);
    char err[256];
    double cap;
    const long long n[] = {300, 16000};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(rl_serve_capacity(r, n[i], &c, &cost, &cost, 0, &cap, err, sizeof err), 0);
        if (!(cap >= 0.9 * 1075.6 && cap <= 1.02 * 1075.6) || lower_bound != 0)
            fail_msg("%lld requests: %g req/s of 1075.6, lower bound %d", n[i], cap, lower_bound);
    }
    free(r);
}

/* The number under `key` in the JSON the CLI prints for `args` (NAN: null). */
static double cli_number(const char *args, const char *key, char *out, size_t len)
{
    assert_int_equal(run_cli(args, out, len), 0);
    cJSON *j = cJSON_Parse(strchr(out, '{'));
    assert_non_null(j);
    const cJSON *v = cJSON_GetObjectItem(j, key);
    double x = cJSON_IsNumber(v) ? v->valuedouble : NAN;
    cJSON_Delete(j);
    return x;
}

/* tester14 F2a and F2b through the CLI: llama3-8b, 2 prefill + 2 decode
 * H100 replicas, 1024-token prompts, lognormal:300:1 outputs.  F2a at 500
 * req/s: 3000 requests read 95.2 req/s (unflagged) where 12,000 read 76.2
 * and 48,000 75.8; the 3000-request figure must lie within 8% of the
 * 12,000-request one (sampling: 3000 draws of a sigma-1 lognormal set the
 * KV-weighted mean length to a few percent; measured 79.7 against 76.2).
 * F2b at 80 req/s on 12,000 requests (74.3 completed, capacity 87.4, no
 * note): now the overload note. */
static void test_heavy_tail_cli(void **state)
{
    (void)state;
    static char out[1 << 17];
    const char *base = "simulate --model llama3-8b --hw h100-sxm --policy disagg --prompt-len 1024 "
                       "--prefill-replicas 2 --replicas 2 --out-len lognormal:300:1 --format json";
    char args[512];
    double cap[2];
    const int n[] = {3000, 12000};
    for (int i = 0; i < 2; i++) {
        snprintf(args, sizeof args, "%s --qps 500 --requests %d", base, n[i]);
        cap[i] = cli_number(args, "max_sustainable_qps", out, sizeof out);
    }
    if (!(fabs(cap[0] / cap[1] - 1) <= 0.08))
        fail_msg("3000 requests: %g req/s, 12000: %g", cap[0], cap[1]);
    /* review24 H1: at --qps 90 the 3000 requests keep up (76.5 req/s
     * completed) before their long requests build up; the raise to their
     * own rate read 90.43.  The run lasts 33 s, short of 2 settle times,
     * so the search's figure stands (74.18 measured; 8% as above) and the
     * overload note fires. */
    snprintf(args, sizeof args, "%s --qps 90 --requests 3000", base);
    double at90 = cli_number(args, "max_sustainable_qps", out, sizeof out);
    if (!(fabs(at90 / cap[1] - 1) <= 0.08))
        fail_msg("--qps 90, 3000 requests: %g req/s, 12000 at --qps 500: %g", at90, cap[1]);
    if (!strstr(out, "note: overloaded: 90 req/s offered"))
        fail_msg("90 req/s past a capacity of about 76: no note: %s", out);
    /* review24 M3: 60 requests' lengths repeated read 47.29 req/s where
     * 4000 read 59.97 (llama3-8b, one H100, 100-token prompts): the figure
     * rests on 60 draws, fewer than the search's own 4000, and says so */
    assert_int_equal(run_cli("simulate --model llama3-8b --hw h100-sxm --prompt-len 100 "
                             "--out-len lognormal:300:1 --qps 5 --requests 60 --format json",
                             out, sizeof out), 0);
    if (!strstr(out, "rests on these 60 requests, repeated"))
        fail_msg("60 requests repeated: no note: %s", out);
    if (!strstr(out, "\"max_sustainable_qps_from_repeated_sample\":\ttrue"))
        fail_msg("60 requests repeated: the JSON key is not true: %s", out);
    snprintf(args, sizeof args, "%s --qps 80 --requests 12000", base);
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    if (!strstr(out, "note: overloaded: 80 req/s offered"))
        fail_msg("80 req/s past a capacity of about 76: no note: %s", out);
}

/* Issue 12: a saturated replica's utilization read 1.0000000000000002
 * (llama3-8b, h100-sxm, 20 req/s, lognormal:1000:1 prompts and
 * lognormal:200:1 outputs, 1500 requests: the replica busy from the first
 * arrival to the last event, its summed step times one rounding above the
 * clock's span; serve.c busy_fraction).  Expected: 1 exactly (the
 * replica is never idle; tolerance 0, the clamp's value), and <= 1 in the
 * JSON as printed. */
static void test_utilization_at_most_one(void **state)
{
    (void)state;
    static char out[1 << 17];
    double u = cli_number("simulate --model llama3-8b --hw h100-sxm --qps 20 "
                          "--prompt-len lognormal:1000:1 --out-len lognormal:200:1 "
                          "--requests 1500 --format json",
                          "utilization", out, sizeof out);
    if (!(u == 1.0))
        fail_msg("utilization %.17g, expected 1 (saturated, never above)", u);
    assert_null(strstr(out, "\"utilization\":\t1.0000"));
}

/* The memory a simulation and its capacity search hold (serve.h
 * rl_serve_bytes_with_capacity, the Lua sandbox's check), asserted as the
 * rule rather than today's struct sizes (review24 L2): a request costs at
 * least its rl_request and the result's TTFT, TPOT, e2e and TTFT service
 * (4 doubles); 1e7 requests hold the run's n x per (1869 MiB with today's
 * 196 B, test_lua_api's message); 100 requests hold them beside the
 * search's largest sample, RL_SERVE_CAPACITY_GROW_MAX (200,000) repeated
 * requests each with its state and two copies: 100 x req + 200,000 x
 * (per + 2 x req), exact (the same doubles, summed in the same order). */
static void test_capacity_memory_counted(void **state)
{
    (void)state;
    double per = (double)rl_serve_bytes_per_request(), req = (double)sizeof(rl_request);
    assert_true(per >= req + 4 * sizeof(double));
    assert_true(rl_serve_bytes_with_capacity(10000000) == 1e7 * per);
    double small = rl_serve_bytes_with_capacity(100);
    double want = 100 * req + RL_SERVE_CAPACITY_GROW_MAX * (per + 2 * req);
    if (small != want)
        fail_msg("100 requests: %.0f B, want 100 x %g + %d x (%g + 2 x %g) = %.0f B", small, req,
                 RL_SERVE_CAPACITY_GROW_MAX, per, req, want);
    assert_true(small > RL_SERVE_CAPACITY_GROW_MAX * per);
}

/* When a run falls measurably short of its arrivals (serve.h
 * rl_serve_falls_short; tester14 F2b): its queue grew (keep_up < 0.98) and
 * its steady completions lag by more than 2%.  Either alone is not enough. */
static void test_falls_short_rule(void **state)
{
    (void)state;
    rl_serve_result r = {.steady_valid = 1, .keep_up = 0.943, .steady_req_per_s = 74.33};
    assert_true(rl_serve_falls_short(&r, 80));  /* tester14 F2b's run */
    r.keep_up = 0.987;                           /* 76 req/s: kept up, 73.77 completed */
    r.steady_req_per_s = 73.77;
    assert_false(rl_serve_falls_short(&r, 76));
    r.keep_up = 0.9;                             /* queue grew, completions within 2% */
    r.steady_req_per_s = 79;
    assert_false(rl_serve_falls_short(&r, 80));
    r.steady_req_per_s = 74.33;
    r.steady_valid = 0;                          /* no steady window */
    assert_false(rl_serve_falls_short(&r, 80));
}

/* A decode step's mean with and without the prefill tokens continuous
 * batching puts into it (tester11 #12: mean_decode_step_s read 10-13% above
 * `step` at the mean batch and context).  64 prompts of 1000 tokens, 400
 * output tokens, all at t = 0, max_seqs 16: every prompt past the first 16
 * is prefilled inside a step that decodes 15 others.  The steps without
 * prefill average the op list's decode step at the mean batch and context
 * within 1% (the batch sits at 16 but for the tail; the step is linear in
 * S), and the mean over all decode steps is above it by 3% or more (the
 * 48 prefills of ~1000 tokens, each costlier than a decode step). */
static void test_decode_only_step_mean(void **state)
{
    fixture *f = *state;
    rl_request *r = workload(64, 1, 1000, 400, 3);
    for (int i = 0; i < 64; i++)
        r[i].arrival = 0;
    rl_serve_config c = config(f, RL_POLICY_CONTINUOUS);
    c.max_seqs = 16;
    rl_serve_result out = run(f, r, 64, &c);
    double want = step_time(f, 0, 0, out.mean_decode_batch, out.mean_decode_context);
    if (fabs(out.mean_decode_only_step_s / want - 1) > 0.01)
        fail_msg("decode-only steps %g s, op list %g s", out.mean_decode_only_step_s, want);
    if (!(out.mean_decode_step_s > 1.03 * want))
        fail_msg("every decode step %g s, op list %g s", out.mean_decode_step_s, want);
    rl_serve_result_free(&out);
    free(r);
}

/* tester62 #7: the clock is one double, so a time near T holds only to
 * ulp(T) = T 2^-52; at 2e13 s (--qps 1e-9, 20000 requests) that is 2^-8
 * s, and a 21.3 ms TTFT read 0.021484375.  Runs whose last arrival lies
 * past RL_SERVE_HORIZON_MAX_S (2^52 us = 4503599627.37 s, where the
 * resolution is 1 us: ldexp(max, -52) = 1e-6 exactly, to 1e-12 relative)
 * are refused (serve.h rl_serve_check_horizon): two requests 4.5e9 s apart
 * pass, 4.6e9 s apart are refused, naming the arrival (4.6e+09 s), the
 * clock's resolution there and the count that fits: the 1 request that
 * arrives within 4.5036e9 s. */
static void test_horizon_refused(void **state)
{
    (void)state;
    assert_true(fabs(ldexp(RL_SERVE_HORIZON_MAX_S, -52) / 1e-6 - 1) < 1e-12);
    double quantised = (2e13 + 0.0213) - 2e13; /* the symptom: a multiple of 2^-8 */
    assert_true(quantised != 0.0213 && quantised / ldexp(1, -8) == round(quantised / ldexp(1, -8)));
    rl_request r[2] = {{0}};
    r[0].prompt = r[1].prompt = 10;
    r[0].output = r[1].output = 10;
    char err[512];
    r[1].arrival = 4.5e9;
    assert_int_equal(rl_serve_check_horizon(r, 2, 0, "--trace", err, sizeof err), 0);
    r[1].arrival = 4.6e9;
    assert_int_equal(rl_serve_check_horizon(r, 2, 0, "--trace", err, sizeof err), -1);
    /* a trace's (qps 0) times scaled by 4.5036e9 / 4.6e9 = 0.979 (rounded
     * down to the 3 digits said: 0.979 x 4.6e9 = 4.5034e9 fits) */
    if (!strstr(err, "--trace: the last of 2 requests arrives at 4.6e+09 s (2.17e-10 req/s)") ||
        !strstr(err, "its arrival_s times scaled by 0.979 or less or at most 1 requests"))
        fail_msg("%s", err);
    /* review52: the count that fits is counted, not scaled from the last
     * arrival: of 0, 4.4e9, 4.55e9 and 4.6e9 s two arrive within 4.5036e9 s
     * (the scale, floor(3 x 4.5036e9 / 4.6e9) + 1, said 3) */
    rl_request q[4] = {{0}};
    static const double at4[4] = {0, 4.4e9, 4.55e9, 4.6e9};
    for (int i = 0; i < 4; i++) {
        q[i].prompt = q[i].output = 10;
        q[i].arrival = at4[i];
    }
    assert_int_equal(rl_serve_check_horizon(q, 4, 0, "--trace", err, sizeof err), -1);
    if (!strstr(err, "or at most 2 requests"))
        fail_msg("%s", err);
    /* review52: one request has no gap to take a rate from; it read "(0
     * req/s)" and "a rate of at least 0 req/s or at most 1 requests": a
     * trace's is counted from time 0, 1 / 6e9 s = 1.67e-10 req/s.  Stop
     * 41: drawn at 1e-9 req/s, the rate that fits is not 1 / bound =
     * 2.22e-10 (it said so: lower, so later still) but 1e-9 x 6e9 /
     * 4.5036e9 = 1.332e-9, rounded up to 1.34e-9 (its arrival then 6e9 x
     * 1e-9 / 1.34e-9 = 4.48e9 s, within); no fewer requests are offered
     * than the one there is */
    r[0].arrival = 6e9;
    assert_int_equal(rl_serve_check_horizon(r, 1, 0, "--trace", err, sizeof err), -1);
    if (!strstr(err, "--trace: the last of 1 requests arrives at 6e+09 s (1.67e-10 req/s)") ||
        strstr(err, "at most"))
        fail_msg("%s", err);
    assert_int_equal(rl_serve_check_horizon(r, 1, 1e-9, "--qps", err, sizeof err), -1);
    if (!strstr(err, "--qps: the last of 1 requests arrives at 6e+09 s (drawn at 1e-09 req/s)") ||
        !strstr(err, "a qps of at least 1.34e-09 req/s (the same seed") || strstr(err, "at most"))
        fail_msg("%s", err);
}

/* A trickle offered far below the capacity (tester11 #8: --qps 1e-9 on a
 * deployment that sustains 29 req/s printed null): the search steps up from
 * the sample's rate, doubling its steps after 10 (serve.h
 * RL_SERVE_CAPACITY_GALLOP_AFTER), and finds the capacity of the M/D/1
 * case (within [0.93, 1.03] / D, test_capacity_md1) with its arrivals
 * stretched to 1e-10 of its rate (2^34 below the capacity: the stepping
 * used to stop at 1e9 x the sample's rate, NAN) and 1e-13 (2^44 below:
 * 2x steps alone spend the 40 runs before the bracket closes, NAN). */
static void test_capacity_from_a_trickle(void **state)
{
    double D;
    rl_serve_config c;
    fixture *f = *state;
    const double stretch[] = {1e10, 1e13};
    for (int s = 0; s < 2; s++) {
        rl_request *r = md1_case(f, &D, &c);
        for (int i = 0; i < 4000; i++)
            r[i].arrival = r[0].arrival + (r[i].arrival - r[0].arrival) * stretch[s];
        double cap;
        char err[256];
        assert_int_equal(rl_serve_capacity(r, 4000, &c, &f->cost, &f->cost, 0, &cap, err, sizeof err),
                         0);
        if (!(cap * D >= 0.93 && cap * D <= 1.03))
            fail_msg("stretched %g: capacity %g x D", stretch[s], cap * D);
        free(r);
    }
}

/* A disaggregated deployment's capacity is its narrower pool's (tester12
 * #12: the decode pool's queue went unseen, keep-up counted only the first
 * prefill step, and 3 prefill replicas beside one decode replica read 15.9
 * req/s where 3.25 completed).  Every step 1 ms, 10-token prompts of 21
 * output tokens: the prefill pool (3 replicas, up to 64 prompts a step)
 * serves 192000 req/s; the one decode replica of max_seqs 64 holds a
 * request for its 20 decode steps (the prefill emits the first token) and
 * refills the slot at the next step's start, so it completes at most
 * 64 / 20 ms = 3200 req/s.  The search must find that within [0.9, 1.02]
 * of it (the lattice's 2% below, queueing near the knee), as the
 * continuous case does; before the fix it read the prefill side's ~50x.
 * Swapped (one prefill replica of max_seqs 1, one prompt a step: 1000
 * req/s; 40 decode replicas of max_seqs 1: 40 / 20 ms = 2000 req/s), the
 * prefill pool bounds it: 1000 req/s, the same tolerance. */
static void test_capacity_disagg_narrower_pool(void **state)
{
    fixture *f = *state;
    rl_step_cost cost = {step_1ms, NULL, 0, 0};
    rl_request *r = workload(16000, 1, 10, 21, 3);
    rl_serve_config c = config(f, RL_POLICY_DISAGG);
    c.max_seqs = 64;
    c.prefill_replicas = 3;
    c.replicas = 1;
    char err[256];
    double cap;
    assert_int_equal(rl_serve_capacity(r, 16000, &c, &cost, &cost, 0, &cap, err, sizeof err), 0);
    if (!(cap >= 0.9 * 3200 && cap <= 1.02 * 3200))
        fail_msg("decode-bound: %g req/s, want 3200", cap);
    c.max_seqs = 1;
    c.prefill_replicas = 1;
    c.replicas = 40;
    assert_int_equal(rl_serve_capacity(r, 16000, &c, &cost, &cost, 0, &cap, err, sizeof err), 0);
    if (!(cap >= 0.9 * 1000 && cap <= 1.02 * 1000))
        fail_msg("prefill-bound: %g req/s, want 1000", cap);
    free(r);
}

/* An offered rate so far above the capacity that the floor probe, 1e-6 of
 * it, is still a load (tester10 #7: 1e7 req/s offered, capacity 4.3): the
 * search goes on down to RL_SERVE_CAPACITY_FLOOR_QPS and finds the
 * capacity, never 0.  The M/D/1 case (capacity within [0.93, 1.03] / D,
 * test_capacity_md1) with its arrivals compressed to 1e7 / D req/s. */
static void test_capacity_floor_is_unloaded(void **state)
{
    double D;
    rl_serve_config c;
    rl_request *r = md1_case(*state, &D, &c);
    fixture *f = *state;
    for (int i = 0; i < 4000; i++)
        r[i].arrival = r[0].arrival + (r[i].arrival - r[0].arrival) * 0.5 / 1e7;
    double cap;
    char err[256];
    assert_int_equal(rl_serve_capacity(r, 4000, &c, &f->cost, &f->cost, 0, &cap, err, sizeof err), 0);
    if (!(cap * D >= 0.93 && cap * D <= 1.03))
        fail_msg("capacity %g x D", cap * D);
    free(r);
}

/* The same far above a capacity on a sample the search grows (fixUG: `simulate
 * --model llama3-8b --hw h100-sxm --qps 1e9 --prompt-len 100 --out-len 10
 * --requests 1000` served 419 req/s and read null).  300 requests of the
 * M/D/1 case (test_capacity_md1, capacity 1 / D) offered at 1e7 / D, a
 * capacity 1e-7 of their rate: the first sample, the 300, locates it near
 * 1 / D, the steps down by 2x reaching it; their span is short of the
 * steady span there, so the search runs again on more (bootstrapped,
 * serve.h rl_serve_capacity) from that figure, and where its first load
 * failed on them the stepping down stopped at once, below the relative
 * floor (1e-6 of the sample's rate), with no load sustained: null for 15 of
 * seeds 1-20 until the bound became the floor probe's point, the lower of
 * the two floors.  Expected: every seed within [0.93, 1.03] / D, as
 * test_capacity_md1 (the lattice's 2% and the keep-up rule's 2%); found
 * 0.985-1.009.  Each figure rests on a repeated sample (300 < 4000). */
static void test_capacity_far_overload_grown(void **state)
{
    fixture *f = *state;
    double D = step_time(f, 300, 0, 0, 0);
    rl_serve_config c = config(f, RL_POLICY_INTERLEAVED);
    c.max_seqs = 1;
    int repeated = -1;
    c.capacity_repeated = &repeated;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        rl_request *r = workload(300, 1e7 / D, 300, 1, seed);
        double cap;
        char err[256];
        assert_int_equal(rl_serve_capacity(r, 300, &c, &f->cost, &f->cost, 0, &cap, err, sizeof err),
                         0);
        if (!(cap * D >= 0.93 && cap * D <= 1.03) || repeated != 1)
            fail_msg("seed %llu: capacity %g x D, repeated %d", (unsigned long long)seed, cap * D,
                     repeated);
        free(r);
    }
    /* farther still, the 40 runs: 4000 requests (the whole sample) offered
     * at 1e11 / D and 1e12 / D, 37 and 40 halvings above the capacity.
     * Stepping down by 2x alone the bracket closed too late to bisect
     * (0.866 / D at 1e11, the bisection cut short) or not at all (null at
     * 1e12) until the steps down doubled after 10 failures as the steps up
     * do (serve.h).  Expected: the same band; found 0.994 and 1.000. */
    c.capacity_repeated = NULL;
    for (double o = 1e11; o <= 1e12; o *= 10) {
        rl_request *r = workload(4000, o / D, 300, 1, 7);
        double cap;
        char err[256];
        assert_int_equal(rl_serve_capacity(r, 4000, &c, &f->cost, &f->cost, 0, &cap, err, sizeof err),
                         0);
        if (!(cap * D >= 0.93 && cap * D <= 1.03))
            fail_msg("offered %g / D: capacity %g x D", o, cap * D);
        free(r);
    }
}

/* A step of 9.1e5 s whatever its work: one request served alone takes it,
 * so a capacity of about 1.1e-6 req/s, just above the search's floor. */
static double step_near_floor(void *ctx, const rl_step_work *w)
{
    (void)ctx, (void)w;
    return 9.1e5;
}

/* A capacity just above the floor (RL_SERVE_CAPACITY_FLOOR_QPS, 1e-6
 * req/s): M/D/1 (one sequence, 300-token prompts of one output token,
 * every step D = 9.1e5 s, so 1 / D = 1.099e-6 req/s), 300 requests offered
 * at 20 req/s.  Every load down to a quarter of that fails, the floor probe
 * (1e-6 req/s or just under, a point of the lattice from the sample's own
 * rate: 9.80e-7 req/s here) passes, and the stepping went on down below
 * it: the lowest load that failed, 1.149e-6 req/s, lay within one step
 * (2x) above the floor, the step from it went past the floor and the
 * search read null (review of stop 53).  Now the floor is the bracket's
 * foot and the bisection finds the capacity.  Expected: within [0.93,
 * 1.03] / D, the M/D/1 band of test_capacity_far_overload_grown; null
 * before stop 54, 1.082e-6 req/s (0.985 / D) now. */
static void test_capacity_just_above_floor(void **state)
{
    fixture *f = *state;
    rl_step_cost cost = {step_near_floor, NULL, 0, 0};
    rl_serve_config c = config(f, RL_POLICY_INTERLEAVED);
    c.max_seqs = 1;
    rl_request *r = workload(300, 20, 300, 1, 7);
    double cap, D = step_near_floor(NULL, NULL);
    char err[256];
    assert_int_equal(rl_serve_capacity(r, 300, &c, &cost, &cost, 0, &cap, err, sizeof err), 0);
    if (!(cap * D >= 0.93 && cap * D <= 1.03))
        fail_msg("capacity %g req/s, %g x 1 / D", cap, cap * D);
    free(r);
}

/* A TTFT tail set by the requests' own service, not by the load (tester46
 * F1: the longest prompts' prefill near a 1 s target read capacity 0 beside
 * runs meeting it at every load).  1 ms steps, chunked at 10 tokens: 10-token
 * prompts take one prefill step (TTFT about 1 ms unloaded), every 125th
 * prompt (0.8%) 100 tokens, ten steps (about 10 ms), under a 5 ms target.
 * The p99 meets it at any load that does not queue, while the 95% bound on
 * the share over it, Garwood's upper limit on about 29 exceedances of the
 * 3600 counted (about 41 / 3600 = 1.14%), stays above RL_SERVE_SLO_TAIL (1%)
 * at every load down to the floor: the figure is null with
 * capacity_unresolved RL_SERVE_UNRESOLVED_FLOOR, not 0.
 * With the long prompts at 40 tokens (4 ms, 1 ms under the target) the
 * share over it climbs slowly with the load, as a long prompt waits for a
 * step or shares the chunk budget, and which load's sample resolves the
 * bound is chance (tester47 F8): seeds 7-10 read 171, 231, 258 and 258
 * req/s; now no load within RL_SERVE_CAPACITY_OPEN_BAND above seed 7's
 * figure misses outright, so it is null with RL_SERVE_UNRESOLVED_BAND
 * (seeds 9 and 10 keep 258, a load 1.25 x up failing).  At 30 tokens (3
 * ms) it is a figure, unflagged (304 req/s; the flag cannot pass by staying
 * set), as at 20 and 10 tokens (349, 356: the rule does not bite). */
static void test_capacity_unresolved_tail(void **state)
{
    fixture *f = *state;
    rl_step_cost cost = {step_1ms, NULL, 0, 0};
    rl_serve_config c = config(f, RL_POLICY_CHUNKED);
    c.max_tokens = 10;
    c.slo_ttft = 5e-3;
    int unresolved = -1;
    c.capacity_unresolved = &unresolved;
    const int longp[3] = {100, 40, 30};
    const int kind[3] = {RL_SERVE_UNRESOLVED_FLOOR, RL_SERVE_UNRESOLVED_BAND, 0};
    for (int t = 0; t < 3; t++) {
        rl_request *r = workload(4000, 1, 10, 2, 7);
        for (int i = 124; i < 4000; i += 125)
            r[i].prompt = longp[t];
        double cap;
        char err[256];
        assert_int_equal(rl_serve_capacity(r, 4000, &c, &cost, &cost, 0, &cap, err, sizeof err), 0);
        if (kind[t] ? !(isnan(cap) && unresolved == kind[t]) : !(cap > 1 && unresolved == 0))
            fail_msg("long prompts of %d tokens: capacity %g, unresolved %d", longp[t], cap,
                     unresolved);
        free(r);
    }
}

/* The latency percentiles of a and b: the same numbers. */
static void same_pcts(const rl_pcts *a, const rl_pcts *b)
{
    assert_true(a->n == b->n && a->p50 == b->p50 && a->p90 == b->p90 && a->p99 == b->p99 &&
                a->max == b->max);
    assert_rel(a->mean, b->mean, 1e-12);
}

/* Run c on r with decode runs (serve.c plan_run) and with every step an
 * event of its own (rl_serve_config.every_step, the reference): every
 * per-request latency, percentile, count, rate and the KV timeline are the
 * same numbers (bit for bit: the runs replay the same arithmetic per
 * replica, and events at one instant are totally ordered); the run-wide
 * sums (busy time, the time integral of requests in the system, the decode
 * batch, context and step sums, the ITL total) add the same terms in
 * another order, so their means agree within 1e-12 relative. */
/* A draft model's step: 1 ms, whatever the batch. */
static double draft_1ms(void *ctx, const rl_step_work *w)
{
    (void)ctx, (void)w;
    return 1e-3;
}

static void same_as_every_step(const fixture *f, const rl_request *r, long long n,
                               rl_serve_config c)
{
    c.keep_requests = 1;
    rl_serve_result fast = run(f, r, n, &c);
    c.every_step = 1;
    rl_serve_result ref = run(f, r, n, &c);
    assert_memory_equal(fast.ttft_s, ref.ttft_s, (size_t)n * sizeof(double));
    assert_memory_equal(fast.tpot_s, ref.tpot_s, (size_t)n * sizeof(double));
    assert_memory_equal(fast.e2e_s, ref.e2e_s, (size_t)n * sizeof(double));
    same_pcts(&fast.ttft, &ref.ttft);
    same_pcts(&fast.ttft_service, &ref.ttft_service);
    same_pcts(&fast.tpot, &ref.tpot);
    same_pcts(&fast.e2e, &ref.e2e);
    same_pcts(&fast.itl, &ref.itl);
    assert_true(fast.steps == ref.steps && fast.decode_steps == ref.decode_steps &&
                fast.preemptions == ref.preemptions && fast.duration_s == ref.duration_s);
    assert_true(fast.steady_req_per_s == ref.steady_req_per_s && fast.keep_up == ref.keep_up &&
                fast.steady_out_tokens_per_s == ref.steady_out_tokens_per_s &&
                fast.goodput_req_per_s == ref.goodput_req_per_s &&
                fast.kv_peak_frac == ref.kv_peak_frac && fast.nkv == ref.nkv);
    assert_memory_equal(fast.kv_t, ref.kv_t, (size_t)ref.nkv * sizeof(double));
    assert_memory_equal(fast.kv_frac, ref.kv_frac, (size_t)ref.nkv * sizeof(double));
    assert_rel(fast.utilization, ref.utilization, 1e-12);
    assert_rel(fast.mean_in_system, ref.mean_in_system, 1e-12);
    assert_rel(fast.mean_decode_batch, ref.mean_decode_batch, 1e-12);
    assert_rel(fast.mean_decode_batch_time, ref.mean_decode_batch_time, 1e-12);
    assert_rel(fast.mean_decode_context, ref.mean_decode_context, 1e-12);
    assert_rel(fast.mean_decode_step_s, ref.mean_decode_step_s, 1e-12);
    /* and the runs did happen (review-c 7): quiet step ends without
     * events in the fast run, none in the reference */
    assert_true(fast.quiet_steps > 0);
    assert_true(ref.quiet_steps == 0);
    rl_serve_result_free(&fast);
    rl_serve_result_free(&ref);
}

/* n Poisson arrivals at 20 req/s of lognormal 400 (prompt) and 150
 * (output) tokens, sigma 0.8, drawn with `seed`. */
static rl_request *mixed_requests(long long n, uint64_t seed)
{
    rl_workload w = {.n = n, .qps = 20, .prompt = {RL_DIST_LOGNORMAL, 400, 0.8},
                     .output = {RL_DIST_LOGNORMAL, 150, 0.8}, .seed = seed};
    rl_request *r = NULL;
    char err[256];
    assert_int_equal(rl_workload_generate(&w, &r, err, sizeof err), 0);
    return r;
}

/* rl_serve_config.no_itl leaves the ITL figures out and nothing else: on
 * every policy, a run with it has the same per-request latencies, step
 * counts, steady rate and busy time, bit for bit, as one without (size and
 * the capacity search set it), and no ITL (n 0, where the full run counts
 * one gap per token after the first). */
static void test_no_itl_changes_only_itl(void **state)
{
    fixture *f = *state;
    long long n = 400;
    rl_request *r = mixed_requests(n, 5);
    for (int p = 0; p < RL_POLICY_COUNT; p++) {
        rl_serve_config c = config(f, (rl_policy)p);
        c.replicas = 2;
        c.keep_requests = 1;
        rl_serve_result full = run(f, r, n, &c);
        c.no_itl = 1;
        rl_serve_result lean = run(f, r, n, &c);
        assert_memory_equal(full.ttft_s, lean.ttft_s, (size_t)n * sizeof(double));
        assert_memory_equal(full.tpot_s, lean.tpot_s, (size_t)n * sizeof(double));
        assert_memory_equal(full.e2e_s, lean.e2e_s, (size_t)n * sizeof(double));
        assert_true(full.steps == lean.steps && full.decode_steps == lean.decode_steps &&
                    full.keep_up == lean.keep_up && full.utilization == lean.utilization &&
                    full.steady_req_per_s == lean.steady_req_per_s);
        assert_true(full.itl.n > 0 && full.itl.p99 > 0);
        assert_true(lean.itl.n == 0 && lean.itl.p99 == 0 && lean.itl.mean == 0);
        rl_serve_result_free(&full);
        rl_serve_result_free(&lean);
    }
    free(r);
}

/* Decode runs against the reference on every policy: several replicas
 * under either routing, a batch cap that binds under overload, KV small
 * enough to preempt (recompute and swap), speculative decoding, a prefix
 * cache (a draft model's own step cost too), pipeline parallelism, and a
 * disaggregated pool (with PP); lognormal lengths, Poisson arrivals.
 * Every case makes quiet step ends (runs happened). */
static void test_decode_runs_match_every_step(void **state)
{
    fixture *f = *state;
    long long n = 600;
    rl_request *r = mixed_requests(n, 3);
    for (int p = 0; p < RL_POLICY_COUNT; p++) {
        rl_serve_config c = config(f, (rl_policy)p);
        c.replicas = 3;
        c.max_seqs = p == RL_POLICY_STATIC ? 8 : 32;
        c.max_tokens = p == RL_POLICY_CHUNKED ? 256 : 4096;
        same_as_every_step(f, r, n, c);
        c.route = RL_ROUTE_ROUND_ROBIN;
        c.max_seqs = 4; /* the cap binds: a queue waits beside a full batch */
        c.kv_samples = 0; /* no sample due: runs up to RUN_MAX steps */
        same_as_every_step(f, r, n, c);
    }
    rl_serve_config c = config(f, RL_POLICY_CONTINUOUS);
    c.kv_capacity_tokens = 6000; /* a few sequences' worth: preemption */
    same_as_every_step(f, r, n, c);
    c.preempt = RL_PREEMPT_SWAP;
    same_as_every_step(f, r, n, c);
    c = config(f, RL_POLICY_CONTINUOUS);
    c.spec_gamma = 4;
    c.spec_alpha = 0.7;
    c.spec_draft_frac = 0.1;
    same_as_every_step(f, r, n, c);
    rl_step_cost draft = {draft_1ms, NULL, 0, 0}; /* a draft model's own step cost */
    c.spec_draft = &draft;
    same_as_every_step(f, r, n, c);
    c = config(f, RL_POLICY_CONTINUOUS);
    c.pp = 2; /* pipeline streams as virtual engines */
    same_as_every_step(f, r, n, c);
    c = config(f, RL_POLICY_DISAGG);
    c.prefill_replicas = 2;
    c.replicas = 3;
    c.pp = 2; /* KV transfers landing among the decode pool's runs, under PP */
    same_as_every_step(f, r, n, c);
    for (long long i = 0; i < n; i++) {
        r[i].prefix_id = (int)(i % 5);
        r[i].prefix_len = r[i].prompt / 2;
    }
    c = config(f, RL_POLICY_CHUNKED);
    c.replicas = 2;
    c.prefix_hbm_tokens = 3000;
    c.prefix_host_tokens = 10000;
    same_as_every_step(f, r, n, c);
    /* a calibrated cost: its decode steps fail the linear check, so the runs
     * read the dense memo (serve.c decode_row), filling it as they go */
    fixture *g = malloc(sizeof *g); /* an rl_hw: off the stack */
    assert_non_null(g);
    *g = *f;
    rl_ops_cost unused;
    two_costs(f, &g->oc, &unused);
    rl_ops_cost_free(&unused);
    g->cost = rl_serve_ops_cost(&g->oc);
    for (long long i = 0; i < n; i++) {
        r[i].prefix_id = -1;
        r[i].prefix_len = 0;
    }
    same_as_every_step(g, r, n, config(g, RL_POLICY_CONTINUOUS));
    assert_true(g->oc.slope[1] < 0 && g->oc.dense_bytes > 0);
    rl_ops_cost_free(&g->oc);
    free(g);
    free(r);
}

/* A request arriving at the very instant a decode step ends (the same
 * double: the prefill step, then 5 decode steps at contexts P .. P + 4) is
 * admitted by that step end, before it (arrivals come first at one
 * instant), with decode runs as without them. */
static void test_decode_run_cut_at_tie(void **state)
{
    fixture *f = *state;
    int P = 200;
    rl_request *r = workload(2, 1, P, 50, 1);
    double e = 0 + step_time(f, P, 0, 0, 0);
    for (int k = 0; k < 5; k++)
        e += step_time(f, 0, 0, 1, P + k);
    r[0].arrival = 0;
    r[1].arrival = e;
    rl_serve_config c = config(f, RL_POLICY_CONTINUOUS);
    c.kv_samples = 0; /* a sample due every 0.14 ms would end every run at once */
    same_as_every_step(f, r, 2, c);
    free(r);
}

/* (1 - a^(g+1)) / (1 - a): a = 0.8, g = 4 gives (1 - 0.32768) / 0.2 = 3.3616
 * (Leviathan et al. 2023 eq. (1)); in the simulator each request then takes
 * ceil((G - 1) / E) verify steps. */
static void test_speculative(void **state)
{
    fixture *f = *state;
    assert_rel(rl_spec_tokens_per_step(0.8, 4), 3.3616, 1e-12);
    assert_rel(rl_spec_tokens_per_step(0.5, 0), 1.0, 0);
    int P = 100, G = 101;
    rl_request *r = workload(1, 1, P, G, 1);
    rl_serve_config c = config(f, RL_POLICY_CONTINUOUS);
    c.spec_alpha = 0.8;
    c.spec_gamma = 4;
    rl_serve_result out = run(f, r, 1, &c);
    assert_int_equal(out.decode_steps, (long long)ceil(100 / 3.3616));
    /* spec_draft_frac is 0 here (free draft, multi-token heads); a draft model costing
     * 1 ms a step makes each verify step g * 1 ms = 4 ms longer (same steps: 1e-9) */
    rl_step_cost draft = {draft_1ms, NULL, 0, 0};
    c.spec_draft = &draft;
    rl_serve_result d = run(f, r, 1, &c);
    assert_int_equal(d.decode_steps, out.decode_steps);
    assert_rel(d.mean_decode_step_s, out.mean_decode_step_s + 4e-3, 1e-9);
    rl_serve_result_free(&d);
    rl_serve_result_free(&out);
    free(r);
    /* a draft model shares the HBM: llama3-8b drafting for itself on one
     * H100 (80 GiB = 85,899,345,920 B) under its default engine's memory
     * rule (TensorRT-LLM: KV gets 0.9 x (HBM - W - A), on one chip no
     * overhead but the activation workspace A = 637,534,208 B, memory.h
     * rl_memory_workspace: 8192 x 38,912 x 2) leaves 0.9 (HBM - W - A) - W
     * bytes for the KV of both models, 2 x 131072 B per token (GQA K = 8,
     * bf16) */
    rl_serve_config dc = config(f, RL_POLICY_CONTINUOUS);
    double W = 2.0 * (double)rl_arch_params(&f->m).total;
    rl_serve_config_draft(&dc, &f->m, &f->h, 1, rl_precision_default());
    assert_rel(dc.kv_bytes_per_token, 2 * 131072.0, 1e-12);
    assert_rel(dc.kv_capacity_tokens,
               (0.9 * (85899345920.0 - W - 637534208.0) - W) / (2 * 131072.0), 1e-9);
}

/* tester47 F1: arrival_req_per_s (rl_serve_arrival_rate) is (n - 1) / span
 * (exact: 3 arrivals over 0.5 s, 4 req/s), null with fewer than 2, with no
 * span, or, at a nominal --qps, a span under a millionth of one mean gap
 * (--burst 100's 60 arrivals within 2.4e-179 s read 2.4e180 req/s): at 5
 * req/s, 2e-7 s; a trace (qps 0) has no such scale. */
static void test_arrival_rate_instant(void **state)
{
    (void)state;
    rl_request r[3] = {{.arrival = 1}, {.arrival = 1.25}, {.arrival = 1.5}};
    assert_rel(rl_serve_arrival_rate(r, 3, 5), 4, 1e-12);
    assert_true(isnan(rl_serve_arrival_rate(r, 1, 5)));
    r[1].arrival = r[2].arrival = 1;
    assert_true(isnan(rl_serve_arrival_rate(r, 3, 5)));
    r[1].arrival = 1 + 1e-190, r[2].arrival = 1e-179;
    r[0].arrival = 0;
    assert_true(isnan(rl_serve_arrival_rate(r, 3, 5)));
    r[1].arrival = 1e-8, r[2].arrival = 1.9e-7; /* under 1e-6 / 5 */
    assert_true(isnan(rl_serve_arrival_rate(r, 3, 5)));
    assert_rel(rl_serve_arrival_rate(r, 3, 0), 2 / 1.9e-7, 1e-12);
    r[2].arrival = 2.1e-7; /* over it: a figure, however high */
    assert_rel(rl_serve_arrival_rate(r, 3, 5), 2 / 2.1e-7, 1e-12);
}

/* Without SLOs there is no goodput: the JSON gives goodput_req_per_s and
 * slo_attainment as null; with one-token outputs TPOT has no sample and its
 * percentiles are null, not 0. */
static void test_json_nulls(void **state)
{
    fixture *f = *state;
    rl_request *r = workload(50, 1, 100, 1, 1);
    rl_serve_config c = config(f, RL_POLICY_CONTINUOUS);
    rl_serve_result out = run(f, r, 50, &c);
    rl_simulate_run desc = {&f->m, &f->h, 0, 1, 1, &c, rl_precision_default(), "10", "1", 1, 1, -1, 0,
                            0, NAN, 0, 1, 0, 0, 0, NAN, 0, 0, 0, NULL};
    cJSON *j = rl_result_simulate(&out, &desc);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "goodput_req_per_s")));
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "slo_attainment")));
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "tpot_p50_s")));
    /* tester46 F7: Poisson arrivals have no burst; no span, no arrival rate */
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "burst")));
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "arrival_req_per_s")));
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(j, "max_sustainable_qps_unresolved")));
    assert_true(cJSON_IsNumber(cJSON_GetObjectItem(j, "ttft_p50_s")));
    cJSON_Delete(j);
    rl_serve_result_free(&out);
    c.slo_ttft = 1;
    out = run(f, r, 50, &c);
    j = rl_result_simulate(&out, &desc);
    assert_rel(cJSON_GetObjectItem(j, "slo_attainment")->valuedouble, 1.0, 0);
    cJSON_Delete(j);
    rl_serve_result_free(&out);
    free(r);
}

/* All requests share one 1000-token prefix: every request after the first
 * hits (hit rate (n-1)/n) and saves 1000 prefill tokens. */
static void test_prefix_cache(void **state)
{
    fixture *f = *state;
    long long n = 100;
    rl_request *r = workload(n, 2, 1500, 10, 5);
    for (long long i = 0; i < n; i++) {
        r[i].prefix_id = 0;
        r[i].prefix_len = 1000;
    }
    rl_serve_config c = config(f, RL_POLICY_CONTINUOUS);
    c.prefix_hbm_tokens = 4000;
    rl_serve_result out = run(f, r, n, &c);
    assert_rel(out.prefix_hit_rate, (n - 1) / (double)n, 1e-12);
    assert_rel(out.prefill_tokens_saved, (n - 1) * 1000.0, 1e-12);
    /* a cache too small for the prefix saves nothing */
    c.prefix_hbm_tokens = 500;
    rl_serve_result none = run(f, r, n, &c);
    assert_true(none.prefill_tokens_saved == 0);
    assert_true(none.ttft.mean > out.ttft.mean);
    rl_serve_result_free(&out);
    rl_serve_result_free(&none);
    free(r);
}

/* A KV capacity of 20 sequences' worth under 100 simultaneous requests:
 * admission waits, decode growth preempts; every request still completes,
 * and swapping costs host-link time that recompute does not. */
static void test_preemption(void **state)
{
    fixture *f = *state;
    long long n = 100;
    rl_request *r = workload(n, 1e6, 200, 400, 9);
    rl_serve_config c = config(f, RL_POLICY_CONTINUOUS);
    c.kv_capacity_tokens = 20 * 420;
    rl_serve_result rec = run(f, r, n, &c);
    assert_true(rec.preemptions > 0);
    assert_true(rec.kv_peak_frac <= 1.0);
    c.preempt = RL_PREEMPT_SWAP;
    rl_serve_result swp = run(f, r, n, &c);
    assert_true(swp.preemptions > 0);
    /* static batching reserves each batch's outputs: never over capacity, never preempts */
    c.policy = RL_POLICY_STATIC;
    c.kv_samples = 2000;
    rl_serve_result st = run(f, r, n, &c);
    assert_int_equal(st.preemptions, 0);
    assert_true(st.kv_peak_frac <= 1.0 && st.kv_peak_frac > 0.5);
    /* the timeline spans the run although every request arrived at once */
    assert_true(st.nkv >= 2000 && st.nkv <= 4000);
    assert_true(st.kv_t[st.nkv - 1] >= 0.5 * st.duration_s);
    rl_serve_result_free(&st);
    rl_serve_result_free(&rec);
    rl_serve_result_free(&swp);
    free(r);
}

/* Same seed, same results (bitwise); another seed, other results; the
 * percentiles by selection match the sorted ones.  Every policy completes
 * every request. */
static void test_determinism_and_policies(void **state)
{
    fixture *f = *state;
    long long n = 3000;
    rl_workload w = {.n = n, .qps = 8, .arrival = RL_ARRIVAL_GAMMA, .burst_cv = 2,
                     .prompt = {RL_DIST_LOGNORMAL, 1000, 0.8}, .output = {RL_DIST_UNIFORM, 10, 400},
                     .seed = 42};
    rl_request *a, *b;
    char err[256];
    assert_int_equal(rl_workload_generate(&w, &a, err, sizeof err), 0);
    w.seed = 43;
    assert_int_equal(rl_workload_generate(&w, &b, err, sizeof err), 0);
    for (int p = 0; p < RL_POLICY_COUNT; p++) {
        rl_serve_config c = config(f, (rl_policy)p);
        rl_serve_result x = run(f, a, n, &c), y = run(f, a, n, &c), z = run(f, b, n, &c);
        assert_memory_equal(&x.ttft, &y.ttft, sizeof x.ttft);
        assert_memory_equal(&x.e2e, &y.e2e, sizeof x.e2e);
        assert_true(x.e2e.p99 != z.e2e.p99);
        /* percentiles by selection equal those of the fully sorted arrays */
        c.keep_requests = 1;
        rl_serve_result s = run(f, a, n, &c);
        assert_memory_equal(&x.e2e, &s.e2e, sizeof x.e2e);
        assert_memory_equal(&x.tpot, &s.tpot, sizeof x.tpot);
        assert_true(s.e2e_s[n / 2] <= s.e2e_s[n / 2 + 1]);
        rl_serve_result_free(&s);
        rl_serve_result_free(&x);
        rl_serve_result_free(&y);
        rl_serve_result_free(&z);
    }
    free(a);
    free(b);
}

/* Config errors name the field: weights that leave no KV room. */
static void test_config_errors(void **state)
{
    fixture *f = *state;
    rl_request *r = workload(1, 1, 100, 10, 1);
    rl_serve_config c = config(f, RL_POLICY_CONTINUOUS);
    c.kv_capacity_tokens = 0;
    rl_serve_result out;
    char err[512];
    assert_int_equal(rl_serve_run(r, 1, &c, &f->cost, &f->cost, &out, err, sizeof err), -1);
    assert_non_null(strstr(err, "kv_capacity"));
    /* llama3-70b in bf16 (141 GB) does not fit one 80 GB H100 */
    rl_model big = load_model("llama3-70b", NULL, 0);
    assert_true(rl_serve_kv_capacity(&big, &f->h, 1, 1, 1, rl_precision_default(), 0.1, RL_ATTN_LAYOUT_TP, 0, 0) < 0);
    free(r);
}

/* A deliberately wrong expectation (Little's law off by 10%) must fail. */
static void wrong_little(void **state)
{
    fixture *f = *state;
    long long n = 2000;
    rl_request *r = workload(n, 10, 500, 100, 1);
    rl_serve_config c = config(f, RL_POLICY_CONTINUOUS);
    rl_serve_result out = run(f, r, n, &c);
    double lambda = (double)(n - 1) / (r[n - 1].arrival - r[0].arrival);
    free(r);
    double L = out.mean_in_system, W = out.e2e.mean;
    rl_serve_result_free(&out);
    assert_rel(L, 1.1 * lambda * W, 0.02);
}

static void test_harness_can_fail(void **state)
{
    (void)state;
    const struct CMUnitTest bad[] = {cmocka_unit_test_setup_teardown(wrong_little, setup, teardown)};
    assert_int_not_equal(run_group_in_child(bad, 1, "wrong"), 0);
}

/* KV thrashing: at 32 req/s with a 10 GB HBM prefix cache (interleaved
 * policy, llama3-8b on one H100) the newest sequence was preempted and
 * readmitted over and over (2.6 million preemptions for 400 requests when
 * this was found; then the run stopped at its event budget, "no
 * progress").  A preempted sequence now waits until its KV fits with room
 * for the running batch's next step and vLLM's 1% watermark (serve.c
 * readmit_room): the run completes all 400 requests, overloaded, with 13
 * preemptions here (asserted: under 100), and max_sustainable_qps is
 * found (about 25 req/s) instead of every load past the knee reading as
 * stalled.  On the H100 as found, 80e9 bytes (--set: the preset's 80 GiB,
 * tester22 F2, leaves room enough that nothing is preempted).  Seed 5:
 * since the prefix ids have their own random stream (tester63 #6) seed 1's
 * requests preempt none here (2 before), which would not exercise it. */
static void test_thrashing_run_completes(void **state)
{
    (void)state;
    static char out[1 << 16];
    const char *cmd = "simulate --model llama3-8b --hw h100-sxm --policy interleaved "
                    "--prefix-cache 10:40 --prefixes 8:800 --requests 400 "
                    "--prompt-len lognormal:1500:0.8 --out-len lognormal:200:0.8 --qps 32 "
                    "--set hw.hbm_bytes=80e9 --seed 5 --format json";
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    cJSON *j = cJSON_Parse(strchr(out, '{'));
    assert_non_null(j);
    assert_true(cJSON_GetObjectItem(j, "completed")->valuedouble == 400);
    double pre = cJSON_GetObjectItem(j, "preemptions")->valuedouble;
    assert_true(pre > 0 && pre < 100);
    assert_true(cJSON_IsNumber(cJSON_GetObjectItem(j, "max_sustainable_qps")));
    cJSON_Delete(j);
}

/* Swap preemption gated like recompute (tester28 F5): llama3-8b on an
 * H100 cut to 20e9 bytes, 32 offline requests of 1000 + 1000 tokens.  A
 * swapped sequence came back the moment its own pages fitted and new
 * prompts took the room it waited for: 101 preemptions (3 a request) where
 * recompute had 13, TPOT p50 9.89 vs 8.25 ms.  Swap-in now needs vLLM's
 * watermark (serve.c readmit_room) and no new prompt starts while one is
 * swapped out: 21 vs 13 preemptions, TPOT p50 8.34 vs 8.25 ms.  Asserted:
 * swap's preemptions at most 2x recompute's and its TPOT p50 within 5%. */
static void test_swap_no_thrash(void **state)
{
    (void)state;
    static char out[1 << 16];
    double pre[2], tpot[2];
    const char *mode[2] = {"recompute", "swap"};
    for (int i = 0; i < 2; i++) {
        char cmd[512];
        snprintf(cmd, sizeof cmd,
                 "simulate --model llama3-8b --hw h100-sxm --set hw.hbm_bytes=20e9 --offline "
                 "--requests 32 --prompt-len 1000 --out-len 1000 --preempt %s --format json",
                 mode[i]);
        assert_int_equal(run_cli(cmd, out, sizeof out), 0);
        cJSON *j = cJSON_Parse(strchr(out, '{'));
        assert_non_null(j);
        assert_true(cJSON_GetObjectItem(j, "completed")->valuedouble == 32);
        pre[i] = cJSON_GetObjectItem(j, "preemptions")->valuedouble;
        tpot[i] = cJSON_GetObjectItem(j, "tpot_p50_s")->valuedouble;
        cJSON_Delete(j);
    }
    assert_true(pre[0] > 0 && pre[1] > 0);
    if (pre[1] > 2 * pre[0])
        fail_msg("swap %g preemptions vs recompute %g", pre[1], pre[0]);
    assert_rel(tpot[1], tpot[0], 0.05);
}

/* Chunked prefill keeps the KV pages within the pool (fixY, finding 1):
 * llama3-70b on two H100s, 300 requests of uniform 500-4000 + 100-3000
 * tokens at 2 req/s, --policy chunked --max-tokens 512.  A prompt's later
 * chunks went in without a KV check: kv_peak_frac 1.0021 (recompute and
 * swap; 1.0015-1.0021 at --page 1/16/256), 82152 tokens held of 82038 at
 * 2000 + 2000 tokens.  Now a chunk goes in only with room beside the
 * step's decode growth, preempting the newest decode by --preempt
 * (serve.c chunk_room): 0.99975 here.  Asserted, every run: all requests
 * complete, kv_peak_frac <= 1 and the timeline's most <= kv_peak_frac
 * (exact: a bound, the pool's own size). */
static void test_chunked_kv_within_pool(void **state)
{
    (void)state;
    static char out[1 << 18];
    const char *runs[] = {
        "--prompt-len uniform:500:4000 --out-len uniform:100:3000 --requests 300",
        "--prompt-len uniform:500:4000 --out-len uniform:100:3000 --requests 300 --preempt swap",
        "--prompt-len uniform:500:4000 --out-len uniform:100:3000 --requests 300 --page 1",
        "--prompt-len 2000 --out-len 2000 --requests 200",
    };
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        char cmd[512];
        snprintf(cmd, sizeof cmd,
                 "simulate --model llama3-70b --hw h100-sxm --chips 2 --qps 2 --policy chunked "
                 "--max-tokens 512 %s --format json", runs[k]);
        cJSON *j = run_cli_json(cmd, out, sizeof out);
        double peak = cJSON_GetObjectItem(j, "kv_peak_frac")->valuedouble, most = 0;
        assert_true(cJSON_GetObjectItem(j, "completed")->valuedouble ==
                    cJSON_GetObjectItem(j, "requests")->valuedouble);
        assert_true(cJSON_GetObjectItem(j, "preemptions")->valuedouble > 0);
        const cJSON *pt;
        cJSON_ArrayForEach(pt, cJSON_GetObjectItem(j, "kv_timeline"))
        {
            double f = cJSON_GetObjectItem(pt, "kv_frac")->valuedouble;
            most = f > most ? f : most;
        }
        if (!(peak <= 1.0 && most <= peak && most > 0.9))
            fail_msg("%s: kv_peak_frac %.6f, timeline most %.6f", runs[k], peak, most);
        cJSON_Delete(j);
    }
}

/* --prefix-cache's HBM tier is carved out of the KV room (tester28 F7):
 * llama3-8b on one H100, --ideal, 64 offline 1500 + 200-token requests
 * sharing 4 prefixes of 800 tokens (since fixQB a cache with no shared
 * prefix to hold reserves nothing: test_cli
 * prefix_cache_without_prefixes_reserves_nothing).
 * Without a cache the pool is 467,291 tokens; a 60 GB tier takes
 * 60e9 / 131,072 B = 457,763.7 tokens of it, so the running pool is 9,528
 * (floors; kv_peak_frac 0.999 is a fraction of that).  The key said 467,291
 * with the tier too.  Asserted: the running pool below 10,000 and the pool
 * plus prefix_cache_hbm_tokens_per_replica within 1 token (the floors) of
 * the cache-less pool.  A tier of 0.001 GB (7 tokens) under 800-token
 * prefixes caches nothing: a note says so (and none for 0.2 GB). */
static void test_prefix_tier_capacity(void **state)
{
    (void)state;
    static char out[1 << 16];
    double pool[2], tier = 0;
    const char *pc[2] = {"", "--prefix-cache 60"};
    for (int i = 0; i < 2; i++) {
        char cmd[512];
        snprintf(cmd, sizeof cmd,
                 "simulate --model llama3-8b --hw h100-sxm --offline --requests 64 "
                 "--prompt-len 1500 --out-len 200 --prefixes 4:800 --ideal %s --format json",
                 pc[i]);
        assert_int_equal(run_cli(cmd, out, sizeof out), 0);
        cJSON *j = cJSON_Parse(strchr(out, '{'));
        assert_non_null(j);
        pool[i] = cJSON_GetObjectItem(j, "kv_capacity_tokens_per_replica")->valuedouble;
        tier = cJSON_GetObjectItem(j, "prefix_cache_hbm_tokens_per_replica")->valuedouble;
        cJSON_Delete(j);
    }
    assert_true(pool[0] == 467291 && pool[1] < 10000);
    assert_true(fabs(pool[1] + tier - pool[0]) <= 1);
    const char *base = "simulate --model llama3-8b --hw h100-sxm --qps 2 --requests 50 "
                       "--prompt-len 1500 --out-len 20 --prefixes 4:800 --prefix-cache ";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s0.001:10", base);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, "less than the shortest prefix (800 tokens)"));
    snprintf(cmd, sizeof cmd, "%s0.2:10", base);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    assert_null(strstr(out, "shortest prefix"));
}

/* The overload note (cli.c note_overload): gamma arrivals with CV 100 at
 * 5 req/s (--burst 100; llama3-8b, one H100, 100-token prompts, 10 out;
 * 1% utilisation) complete fewer than 5 req/s while a clump is still
 * served: no note (tester4 #12: it said "overloaded").  Since the gamma gaps
 * have their own stream (tester5 #8) this sample's arrivals realise 2.36
 * req/s over the run and its steady window completes 2.82: the note
 * compares completions with the sample's own arrival rate.  At 2000 req/s of 100+100 tokens (capacity about 170
 * req/s) the note stays, naming the sustainable rate. */
static void test_overload_note_needs_overload(void **state)
{
    (void)state;
    static char out[1 << 16];
    assert_int_equal(run_cli("simulate --model llama3-8b --hw h100-sxm --qps 5 --prompt-len 100 "
                             "--out-len 10 --burst 100", out, sizeof out), 0);
    if (strstr(out, "overloaded"))
        fail_msg("a 1%%-utilised bursty run reads as overloaded: %s", out);
    assert_int_equal(run_cli("simulate --model llama3-8b --hw h100-sxm --qps 2000 --prompt-len 100 "
                             "--out-len 100 --requests 2000", out, sizeof out), 0);
    if (!strstr(out, "note: overloaded: ") || !strstr(out, "req/s these arrivals sustain"))
        fail_msg("an overloaded run has no note: %s", out);
    /* tester5 #11: at 200 req/s (capacity 171 req/s) the steady window
     * completes 169 req/s, above 80% of 200, and the run is still past
     * capacity: the note fires, and says TPOT is held by max_seqs 256 */
    assert_int_equal(run_cli("simulate --model llama3-8b --hw h100-sxm --qps 200 --prompt-len 100 "
                             "--out-len 100 --requests 2000", out, sizeof out), 0);
    if (!strstr(out, "note: overloaded: 200 req/s offered, above the ") ||
        !strstr(out, "TPOT is capped by the batch cap (max_seqs 256): a lower TPOT past "
                     "capacity is not a better deployment"))
        fail_msg("a run past capacity has no TPOT-cap note: %s", out);
    /* tester12 #12: 3 prefill replicas beside one decode replica of one
     * sequence (50 tokens x 6.27 ms: about 3.2 req/s) at 5 req/s read
     * max_sustainable_qps 15.9 without a note; the decode pool's queue
     * counts now */
    assert_int_equal(run_cli("simulate --model llama3-8b --hw h100-sxm --qps 5 --prompt-len 1000 "
                             "--out-len 50 --requests 200 --max-seqs 1 --policy disagg "
                             "--prefill-replicas 3 --replicas 1", out, sizeof out), 0);
    if (!strstr(out, "note: overloaded: ") || strstr(out, "is a lower bound"))
        fail_msg("a disaggregated run past its decode pool's capacity has no note: %s", out);
    /* tester11 #8: a capacity not found says why */
    assert_int_equal(run_cli("simulate --model llama3-8b --hw h100-sxm --qps 2 --prompt-len 100 "
                             "--out-len 10 --requests 30", out, sizeof out), 0);
    if (!strstr(out, "note: max_sustainable_qps not found (null): 30 requests are too few"))
        fail_msg("a null capacity without a word: %s", out);
    /* fixY finding 2: three trace requests 0.1 s apart (100+10, 200+20,
     * 300+30 tokens), about 1% busy, read "overloaded: 10 req/s offered;
     * 7.6 req/s completed (whole run)": the whole run's rate ends with the
     * last request's service.  No window and no capacity: no verdict, the
     * null-capacity note instead */
    char trace[64];
    write_temp(trace, ".csv",
               "arrival_s,prompt_tokens,output_tokens\n0,100,10\n0.1,200,20\n0.2,300,30\n");
    char cmd[160];
    snprintf(cmd, sizeof cmd, "simulate --model llama3-8b --hw h100-sxm --trace %s", trace);
    int rc = run_cli(cmd, out, sizeof out);
    remove(trace);
    assert_int_equal(rc, 0);
    if (strstr(out, "overloaded") || !strstr(out, "max_sustainable_qps not found (null): 3 "))
        fail_msg("a 3-request trace at 1%% load: %s", out);
    /* review39 F4: the too-short rule also silenced a real overload: 45
     * requests at 100 req/s on llama3-70b on 2 H100, whose capacity is 1.49
     * req/s (the same arrivals, 500 requests: max_sustainable_qps).  The
     * run shows its queue grow (cli.c short_run_overloaded): 40 of 45 not
     * begun at the last arrival, TTFT p50 5.08 s against 0.849 s of
     * service, 1.07 req/s completed: the verdict, with that evidence
     * (fixFL: the tp2 prefill runs its norms and residual adds whole on
     * both chips, ops.c tp_copies: 5.19 s, 5.99 x, 0.866 s, 1.06 req/s;
     * fixGC: trtllm runs each add and norm as one kernel, engines.c
     * ENGINE_FUSION: 5.14 s, 5.99 x, 0.859 s, 1.07 req/s; fixJA: trtllm's
     * activation workspace, memory.h rl_memory_workspace, shrinks the KV
     * pool: 5.14 s, 5.98 x, 0.86 s, 1.07 req/s) */
    assert_int_equal(run_cli("simulate --model llama3-70b --hw h100-sxm --chips 2 --qps 100 "
                             "--requests 45 --prompt-len 2000 --out-len 500", out, sizeof out), 0);
    if (!strstr(out, "note: overloaded: 100 req/s offered; this run is too short for a steady "
                     "window, but its queue grew: 40 of its 45 requests had not begun their "
                     "prefill when the last arrived, the median TTFT (5.14 s) is 5.98 x the "
                     "median TTFT service (0.86 s), and 1.07 req/s completed (whole run)"))
        fail_msg("45 requests 67x over capacity: no overload verdict: %s", out);
    /* and a clump of --burst arrivals below capacity queues too (TTFT p50
     * 1.03 s, 6 x its 0.173 s service) but completes 6.05 req/s, above half
     * the 5 offered (these lengths sustain 9.22 req/s: the same run with
     * 2000 Poisson requests): no verdict */
    assert_int_equal(run_cli("simulate --model llama3-8b --hw h100-sxm --qps 5 --burst 100 "
                             "--requests 45 --prompt-len 2000 --out-len 500", out, sizeof out), 0);
    if (strstr(out, "overloaded"))
        fail_msg("a short bursty run below capacity reads as overloaded: %s", out);
}

/* tester43 F1: --offline with targets read "at 0 req/s offered;
 * max_sustainable_qps (nan) comes from the capacity search's own sample":
 * offline requests have no offered rate and no capacity search.  The note
 * now says so and gives the burst's throughput, the run's req_per_s (to
 * the 4 digits printed; llama3-70b on 4 H100, 500 requests of 1000 + 200
 * tokens: 12.1 req/s); a run with a rate whose capacity was not found (30
 * requests, under the steady window's 50) quotes no NaN either. */
/* Whether s prints a NaN: "nan" as a word of its own, not inside one
 * (outside_tables' "provenance" since stop 41). */
static int says_nan(const char *s)
{
    for (const char *p = s; (p = strstr(p, "nan")) != NULL; p += 3)
        if ((p == s || !isalpha((unsigned char)p[-1])) && !isalpha((unsigned char)p[3]))
            return 1;
    return 0;
}

static void test_slo_note_offline(void **state)
{
    (void)state;
    static char out[1 << 16];
    assert_int_equal(run_cli("simulate --model llama3-70b --hw h100-sxm --chips 4 "
                             "--prompt-len 1000 --out-len 200 --requests 500 --offline "
                             "--ttft-p99 1 --tpot-p99 0.05 --format json", out, sizeof out), 0);
    const char *note = strstr(out, "with all 500 requests arriving at once (--offline): no offered "
                                   "rate, so no capacity search (max_sustainable_qps null); the "
                                   "burst completed ");
    double done = 0;
    if (!note || says_nan(out) || strstr(out, "0 req/s offered") ||
        sscanf(strstr(note, "completed "), "completed %lf req/s", &done) != 1)
        fail_msg("--offline with targets: %s", out);
    cJSON *j = cJSON_Parse(strchr(out, '{'));
    assert_non_null(j);
    double rate = cJSON_GetObjectItem(j, "req_per_s")->valuedouble;
    cJSON_Delete(j);
    if (!(fabs(done - rate) <= 5e-4 * rate))
        fail_msg("the note's %g req/s against req_per_s %g", done, rate);
    assert_int_equal(run_cli("simulate --model llama3-8b --hw h100-sxm --qps 2 --requests 30 "
                             "--prompt-len 1000 --out-len 10 --ttft-p99 0.001", out, sizeof out), 0);
    if (says_nan(out) || !strstr(out, "at 2 req/s offered; max_sustainable_qps was not found"))
        fail_msg("a short run with a missed target: %s", out);
}

/* n requests arriving evenly at `rate` req/s: their own rate is exactly it. */
static rl_request *even_arrivals(long long n, double rate)
{
    rl_request *r = workload(n, 1, 10, 10, 1);
    for (long long i = 0; i < n; i++)
        r[i].arrival = (double)i / rate;
    return r;
}

/* The overload note's completions beside the capacity figure (fixIK #1):
 * tiny-test on one H100, 100 + 150 tokens at --qps 100000, 20000 requests:
 * 3.49e+04 req/s completed in the steady window above the 2.75e+04 req/s
 * these arrivals sustain (max_sustainable_qps).  Two quantities: a
 * backlogged system's completions rise with its queue (measured 2.74e+04
 * at --qps 28000, 2.89e+04 at 33000, 3.54e+04 at 1e5, 300000 requests),
 * the figure is the highest arrival rate whose queue stays bounded; the
 * note says which is which wherever the first exceeds the second. */
static void test_overload_note_names_backlog_rate(void **state)
{
    (void)state;
    static char out[1 << 16];
    assert_int_equal(run_cli("simulate --model tiny-test --hw h100-sxm --qps 100000 --requests "
                             "20000 --prompt-len 100 --out-len 150", out, sizeof out), 0);
    if (!strstr(out, "req/s completed (steady window: a backlogged system's completions, which "
                     "rise with its queue, not a rate it sustains; max_sustainable_qps is the "
                     "highest arrival rate whose queue stays bounded)"))
        fail_msg("completions above capacity without saying what each is: %s", out);
}

/* A result never says its load meets the targets and exceeds the most it
 * sustains (serve.h rl_serve_capacity_with_run, tester13 #4): llama3-70b
 * fp8 on 8 replicas of 2 H100s at 23.8 req/s met TTFT p99 0.735 s < 1 and
 * TPOT p99 49.66 ms < 50 ms while the search on its sample ended at
 * 23.704 req/s (the lattice's knee is not monotone here: 23.805 from
 * --qps 20, 24.381 from 24).  The figure is raised to the rate the run's
 * arrivals reached, (n - 1) / span, not to --qps (closing note 23: bursty
 * arrivals at --qps 5 reached 2.36, and the raise claimed 5): there the
 * 4000 arrivals reached 23.70399938622381 req/s (fixQ's measurement), the
 * search's own lattice point, and capacity_utilization is reached /
 * capacity, at most 1.  The rule alone, on even arrivals at 23.8 req/s:
 * 23.7 -> 23.8; at 2.36 req/s offered as 5: 2 -> 2.36, not 5; a run that
 * misses a target, or does not keep up, leaves the search's figure; NAN
 * stays; a settled run that misses a target caps the figure one lattice
 * step below its arrivals' rate (tester29 F4: 23.7 -> 23.8 / 1.02; 23
 * stays), a run too short to settle leaves it.  The CLI run: since stop 24's isotonic fit of the kernel tables
 * (ktable.h) the same run at 23.8 req/s misses TPOT (p99 50.17 ms), so it
 * runs at 23.5 req/s, where it meets both (TTFT p99 0.738 s, TPOT p99
 * 49.92 ms before h24cap's sample change), and checks the rule as
 * capacity_utilization (reached / capacity) <= 1; the knee case itself is
 * now only in the unit part above. */
static void test_capacity_not_below_sustained_load(void **state)
{
    (void)state;
    rl_serve_config c = {.policy = RL_POLICY_CONTINUOUS, .slo_ttft = 1, .slo_tpot = 0.05};
    rl_serve_result r = {.requests = 100, .completed = 100, .keep_up = 1};
    r.ttft.p99 = 0.7;
    r.tpot.p99 = 0.049;
    r.tpot.n = 100;
    rl_request *q = even_arrivals(100, 23.8), *burst = even_arrivals(100, 2.36);
    assert_true(fabs(rl_serve_capacity_with_run(23.7, q, 100, &r, &c) / 23.8 - 1) < 1e-12);
    assert_true(rl_serve_capacity_with_run(30, q, 100, &r, &c) == 30);
    assert_true(isnan(rl_serve_capacity_with_run(NAN, q, 100, &r, &c)));
    assert_true(fabs(rl_serve_capacity_with_run(2, burst, 100, &r, &c) / 2.36 - 1) < 1e-12);
    assert_true(fabs(rl_serve_reached_qps(burst, 100, 5) / 2.36 - 1) < 1e-12);
    assert_true(rl_serve_reached_qps(burst, 100, 2) == 2);
    assert_true(rl_serve_reached_qps(burst, 1, 5) == 5); /* no span */
    r.tpot.p99 = 0.051; /* settled, missing TPOT: at most one step below 23.8 (tester29 F4) */
    assert_true(fabs(rl_serve_capacity_with_run(23.7, q, 100, &r, &c) * 1.02 / 23.8 - 1) < 1e-12);
    assert_true(rl_serve_capacity_with_run(23, q, 100, &r, &c) == 23);
    r.e2e_settle_s = 2.1; /* too short to say: the search's figure stands */
    assert_true(rl_serve_capacity_with_run(23.7, q, 100, &r, &c) == 23.7);
    r.e2e_settle_s = 0;
    r.tpot.p99 = 0.049;
    r.keep_up = 0.9;
    assert_true(rl_serve_capacity_with_run(23.7, q, 100, &r, &c) == 23.7);
    r.keep_up = 1; /* kept up, but the 4.16 s of arrivals are short of 2 x a 2.1 s settle time */
    r.e2e_settle_s = 2.1;
    assert_true(rl_serve_capacity_with_run(23.7, q, 100, &r, &c) == 23.7);
    r.e2e_settle_s = 2.0; /* 2 x 2.0 <= 4.16: settled */
    assert_true(fabs(rl_serve_capacity_with_run(23.7, q, 100, &r, &c) / 23.8 - 1) < 1e-12);
    c.policy = RL_POLICY_STATIC; /* its saturation rule decides, not the run's keep-up */
    assert_true(rl_serve_capacity_with_run(23.7, q, 100, &r, &c) == 23.7);
    c.policy = RL_POLICY_CONTINUOUS;
    /* a run that fell short of its arrivals (rl_serve_falls_short, the overload
     * note's rule: a steady window whose arrivals outpaced a saturated system)
     * caps a figure above them one step below them, so "overloaded" never sits
     * beside a higher figure (fixIK #1: tiny-test at 26966 req/s over 1e6
     * requests read 27063); a figure below stays */
    r.steady_valid = 1;
    r.backlog_outpaced = 1;
    assert_true(fabs(rl_serve_capacity_with_run(27, q, 100, &r, &c) * 1.02 / 23.8 - 1) < 1e-12);
    assert_true(rl_serve_capacity_with_run(20, q, 100, &r, &c) == 20);
    r.backlog_outpaced = 0;
    r.steady_valid = 0;
    free(q);
    free(burst);
    static char out[1 << 16];
    assert_int_equal(run_cli("simulate --model llama3-70b --hw h100-sxm --chips 2 --replicas 8 "
                             "--weights fp8 --kv fp8 --compute fp8 --max-seqs 64 --qps 23.5 "
                             "--prompt-len lognormal:2000:0.8 --out-len lognormal:300:0.8 "
                             "--requests 4000 --ttft-p99 1 --tpot-p99 0.05 --format json",
                             out, sizeof out), 0);
    cJSON *j = cJSON_Parse(strchr(out, '{'));
    assert_non_null(j);
    double ttft = cJSON_GetObjectItem(j, "ttft_p99_s")->valuedouble;
    double tpot = cJSON_GetObjectItem(j, "tpot_p99_s")->valuedouble;
    double cap = cJSON_GetObjectItem(j, "max_sustainable_qps")->valuedouble;
    double use = cJSON_GetObjectItem(j, "capacity_utilization")->valuedouble;
    if (!(ttft < 1 && tpot < 0.05 && use <= 1 + 1e-12))
        fail_msg("meets at 23.5 req/s (TTFT p99 %g s, TPOT p99 %g s) but sustains %g "
                 "(capacity_utilization %g)", ttft, tpot, cap, use);
    assert_null(strstr(out, "note: SLO missed"));
    assert_null(strstr(out, "note: overloaded"));
    cJSON_Delete(j);
}

/* tester22 F10: goodput_req_per_s is over the whole run, drain tail in;
 * steady_goodput_req_per_s is the completions within both targets per
 * second of the steady window (steady_req_per_s's).  llama3-8b on one
 * H100 at 10 req/s, 2000 requests, TPOT p99 target 11 ms that ~10% miss
 * (measured: attainment 0.8965, goodput 8.63, steady 9.90 req/s, steady
 * goodput 8.94): the steady goodput is the steady rate times the run's
 * attainment within 3% (the window's attainment is not the run's), and
 * above the whole-run goodput by more than 2% (the drain); no target:
 * null, as goodput is. */
static void test_steady_goodput(void **state)
{
    (void)state;
    static char out[1 << 16];
    const char *cmd = "simulate --model llama3-8b --hw h100-sxm --qps 10 --prompt-len "
                      "lognormal:1000:0.8 --out-len lognormal:200:0.8 --requests 2000 "
                      "--ttft-p99 0.5 --tpot-p99 0.011 --format json";
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    cJSON *j = cJSON_Parse(strchr(out, '{'));
    assert_non_null(j);
    double g = cJSON_GetObjectItem(j, "goodput_req_per_s")->valuedouble;
    const cJSON *sg = cJSON_GetObjectItem(j, "steady_goodput_req_per_s");
    assert_true(cJSON_IsNumber(sg));
    double att = cJSON_GetObjectItem(j, "slo_attainment")->valuedouble;
    double steady = cJSON_GetObjectItem(j, "steady_req_per_s")->valuedouble;
    assert_true(att > 0.8 && att < 0.95); /* some miss: the case tests the target's count */
    if (!(fabs(sg->valuedouble / (steady * att) - 1) < 0.03 && sg->valuedouble > 1.02 * g))
        fail_msg("steady goodput %g, steady %g x attainment %g, goodput %g", sg->valuedouble,
                 steady, att, g);
    cJSON_Delete(j);
    assert_int_equal(run_cli("simulate --model llama3-8b --hw h100-sxm --qps 10 --prompt-len "
                             "lognormal:1000:0.8 --out-len lognormal:200:0.8 --requests 2000 "
                             "--format json", out, sizeof out), 0);
    j = cJSON_Parse(strchr(out, '{'));
    assert_non_null(j);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "steady_goodput_req_per_s")));
    cJSON_Delete(j);
}

/* tester20 F8: --policy static's capacity is its saturation rate (serve.h
 * static_saturation: every batch full, the sample all at one instant),
 * the same at every --qps.  llama3-8b on 4 H100 replicas, 2000 requests of
 * lognormal:1000:0.8 prompts and lognormal:200:0.8 outputs: the search
 * read 15.6, 16.5 and 9.6 req/s at --qps 10, 20, 30 (keep-up decided by
 * the sample past the knee); now each is the highest point of its
 * lattice (2% apart, anchored at --qps: docs/serving.md; a load is
 * sustained when that label is at most the saturation, the rate the draw
 * reached read there until issue 14's labelling let a draw 1.2% light
 * (9.877 req/s) pass 13.46 at --qps 10, over the saturation 13.39) at
 * or below the offline rate of the same requests, 12.45 req/s measured:
 * within [0.98, 1] of it, and so within 2% of each other. */
static void test_static_capacity_is_saturation(void **state)
{
    (void)state;
    static char out[1 << 16];
    const char *base = "simulate --model llama3-8b --hw h100-sxm --policy static --replicas 4 "
                       "--prompt-len lognormal:1000:0.8 --out-len lognormal:200:0.8 "
                       "--requests 2000 --format json";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --offline", base);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    cJSON *j = cJSON_Parse(strchr(out, '{'));
    assert_non_null(j);
    double sat = cJSON_GetObjectItem(j, "req_per_s")->valuedouble;
    cJSON_Delete(j);
    const double qps[] = {10, 20, 30};
    for (int i = 0; i < 3; i++) {
        snprintf(cmd, sizeof cmd, "%s --qps %g", base, qps[i]);
        assert_int_equal(run_cli(cmd, out, sizeof out), 0);
        j = cJSON_Parse(strchr(out, '{'));
        assert_non_null(j);
        double cap = cJSON_GetObjectItem(j, "max_sustainable_qps")->valuedouble;
        if (!(cap <= sat * (1 + 1e-9) && cap >= 0.98 * sat))
            fail_msg("--qps %g: capacity %g, saturation %g", qps[i], cap, sat);
        cJSON_Delete(j);
    }
}

/* Issue 14's check "capacity utilisation of an M/D/1-like single-server
 * case matches its closed form" (tester28 F9): one llama3-8b replica on an
 * H100, --ideal, --max-seqs 1 (one request at a time), every request 1000
 * prompt and 11 output tokens, Poisson arrivals.  Each request holds the
 * server for S = prefill + 10 decode steps = 60.91 ms (the run's own
 * utilization / req_per_s, read here), and M/D/1 is stable only below
 * 1/S = 16.42 req/s (rho < 1; Kleinrock, Queueing Systems I, 1975, 5.6).
 * Expected: max_sustainable_qps <= 1/S + 0.2% (seed 2 on 2000 requests
 * reads 16.435, rho 1.001: over the 54 s half-window its backlog grows by
 * one request, the count's own resolution, serve.c backlog_outpaced) and
 * within one lattice step
 * (2%) of it, on both seeds and sample sizes, read at the rate the
 * search's sample reached: the figure is labelled by --qps (serve.h
 * rl_serve_capacity: 5 x 1.02^k, checked to 1e-6 in k), its sample's runs
 * at that x arrival_req_per_s / 5, the draw's own rate (4.985-5.109 req/s
 * here; since issue 14's labelling the figure itself reads 15.77-16.41,
 * seed 2 on 2000 requests 2.2% under 1/(1.02 S) by its draw, 5.109 / 5,
 * where it read the reached 16.11 before); at 16.7 req/s (1.7% past
 * 1/S) the overload note.  Before (keep-up's 98% rule alone): 16.68-16.70
 * on every sample, no note at 16.7.  Disagg's decode queue below. */
static void test_md1_capacity_closed_form(void **state)
{
    (void)state;
    static char out[1 << 16];
    const char *base = "simulate --model llama3-8b --hw h100-sxm --ideal --max-seqs 1 "
                       "--prompt-len 1000 --out-len 11 --format json";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --qps 1 --requests 2000", base);
    double S = cli_number(cmd, "utilization", out, sizeof out) /
               cli_number(cmd, "req_per_s", out, sizeof out);
    assert_true(fabs(S - 0.06091) < 0.0001); /* tester28's hand sum: 15.68 + 10 x 4.523 ms */
    for (int seed = 1; seed <= 2; seed++)
        for (int n = 2000; n <= 4000; n += 2000) {
            snprintf(cmd, sizeof cmd, "%s --qps 5 --seed %d --requests %d", base, seed, n);
            double label = cli_number(cmd, "max_sustainable_qps", out, sizeof out);
            double k = log(label / 5) / log(1.02); /* a lattice point of --qps */
            cJSON *j = cJSON_Parse(strchr(out, '{')); /* the same run's arrivals */
            assert_non_null(j);
            double cap = label * cJSON_GetObjectItem(j, "arrival_req_per_s")->valuedouble / 5;
            cJSON_Delete(j);
            if (!(cap <= 1.002 / S && cap >= 1 / (1.02 * S) && fabs(k - round(k)) < 1e-6))
                fail_msg("seed %d, %d requests: capacity %g (reached %g), 1/S %g", seed, n,
                         label, cap, 1 / S);
        }
    snprintf(cmd, sizeof cmd, "%.*s --qps 16.7 --seed 1 --requests 5000",
             (int)(strlen(base) - strlen(" --format json")), base);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    if (!strstr(out, "note: overloaded: 16.7 req/s offered"))
        fail_msg("no overload note at 16.7 req/s past 1/S %g:\n%s", 1 / S, out);
    /* the same on disagg's decode queue: 3 prefill replicas beside one
     * decode replica of --max-seqs 1, 50 output tokens, at 5 req/s: the
     * decode replica saturated, its steady completions (3.256 req/s) are
     * its service rate; capacity at most that +0.2% (before: 3.289) */
    const char *dis = "simulate --model llama3-8b --hw h100-sxm --policy disagg --replicas 1 "
                      "--prefill-replicas 3 --max-seqs 1 --qps 5 --prompt-len 1000 "
                      "--out-len 50 --format json";
    double done = cli_number(dis, "steady_req_per_s", out, sizeof out);
    double cap = cli_number(dis, "max_sustainable_qps", out, sizeof out);
    if (!(cap <= 1.002 * done && cap >= done / 1.02))
        fail_msg("disagg decode pool: capacity %g, saturated completions %g", cap, done);
}

/* P(W <= t) of M/D/1's stationary wait at arrival rate lam, service D:
 * Erlang's formula (1 - rho) sum_{k=0}^{floor(t/D)} (lam (kD - t))^k / k!
 * e^{-lam (kD - t)} (A. K. Erlang 1909; Franx, "A simple solution for the
 * M/D/c waiting time distribution", Oper. Res. Letters 29, 2001, c = 1).
 * Its terms alternate and reach e^{2 lam t} (about 1e12 at lam t = 14), so
 * long double (x86's 64-bit mantissa) keeps the sum to about 1e-7. */
static long double md1_wait_cdf(long double lam, long double D, long double t)
{
    long double sum = 0;
    for (int k = 0; k <= (int)floorl(t / D); k++) {
        long double x = lam * ((long double)k * D - t);
        sum += powl(x, k) / tgammal(k + 1) * expl(-x);
    }
    return (1 - lam * D) * sum;
}

/* tester29 F4: the capacity under a TTFT p99 target against M/D/1's exact
 * one.  test_md1_capacity_closed_form's case (one slot, deterministic S =
 * prefill P + 10 decode steps = 60.91 ms, Poisson arrivals) with
 * --ttft-p99 1: TTFT = wait + P, so the capacity is the lam at which
 * Erlang's P(W <= 1 - P) = 0.99, 14.232 req/s (bisection here; a 3e6-
 * customer Lindley recursion in python read p99 TTFT 0.962 s at 14.2,
 * 1.014 at 14.31).  Near that knee a few thousand requests hold a handful
 * of backlog clusters, so the search's figure scatters by several percent
 * from seed to seed (stop 28: 12.84-15.45 over seeds 1-8 of 20000
 * requests at 14.6).  tester32 F2: with the stop-29 bound seeds 1 and 12
 * still read 14.85 and 15.11 (1.043 and 1.062 lam*): their first 4000
 * requests held no long backlog.  The bound's floor on the figure's
 * confirming sample (serve.h RL_SERVE_SLO_NONE) reads 14.25 and 14.10.
 * Expected over seeds 1-12: every figure at most 1.02 lam* (one lattice
 * step; now 14.25 at most, 1.0015 lam*) and at least 0.84 lam* (the 95%
 * bound's price; now 12.06 on seed 8); the median at most lam* and at
 * least 0.93 lam* (now 13.63, 0.957 lam*; stop 29: 13.87).  And the
 * tester's silent run (seed 2 at 14.6: TTFT p99 1.157 s, capacity 14.864,
 * no note) reads a capacity below 14.6 and says SLO missed.
 * review36 L2: on --requests 1000 the search's grown samples repeated the
 * 1000 as they stood, and the effective requests counted every repeat
 * (seed 8: 4017 of 10597, where the 1000 held 20-32), so 9 of seeds 1-12
 * read above lam*, up to 15.99 (1.123 lam*); and a run that met its
 * targets with none over raised the figure to its own rate (seed 8's 1000
 * arrivals at 15.37 req/s, 1.08 lam*).  Now the samples are a stationary
 * bootstrap of the 1000 (serve.c capacity_sample) and the run is judged
 * as the search judges: every figure at most 1.02 lam* (now 12.33-13.61,
 * at most 0.956 lam*) and at least 0.75 lam* (1000 requests: a wider
 * scatter than 20000's; now 0.866 lam* at least). */
static void test_md1_slo_capacity_not_optimistic(void **state)
{
    (void)state;
    static char out[1 << 16];
    const char *base = "simulate --model llama3-8b --hw h100-sxm --ideal --max-seqs 1 "
                       "--prompt-len 1000 --out-len 11 --ttft-p99 1 --tpot-p99 0.01 "
                       "--requests 20000 --qps 14.6 --format json";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%.*s --qps 1 --requests 2000 --format json",
             (int)(strstr(base, " --ttft-p99") - base), base);
    double S = cli_number(cmd, "utilization", out, sizeof out) /
               cli_number(cmd, "req_per_s", out, sizeof out);
    double P = cli_number(cmd, "ttft_service_p50_s", out, sizeof out);
    assert_true(fabs(S - 0.06091) < 0.0001 && fabs(P - 0.01568) < 0.0001);
    long double lo = 1, hi = 1 / (long double)S;
    for (int i = 0; i < 100; i++) {
        long double mid = (lo + hi) / 2;
        *(md1_wait_cdf(mid, S, 1 - P) >= 0.99L ? &lo : &hi) = mid;
    }
    double star = (double)lo;
    assert_true(fabs(star - 14.232) < 0.01); /* the hand figure above */
    double cap[12];
    for (int seed = 1; seed <= 12; seed++) {
        snprintf(cmd, sizeof cmd, "%s --seed %d", base, seed);
        cap[seed - 1] = cli_number(cmd, "max_sustainable_qps", out, sizeof out);
        if (!(cap[seed - 1] >= 0.84 * star && cap[seed - 1] <= 1.02 * star))
            fail_msg("seed %d: capacity %g, M/D/1 %g", seed, cap[seed - 1], star);
        if (seed == 2 && !(cap[1] < 14.6 && strstr(out, "note: SLO missed: TTFT p99")))
            fail_msg("seed 2 at 14.6 req/s: capacity %g, no SLO note?\n%s", cap[1], out);
    }
    qsort(cap, 12, sizeof *cap, rl_cmp_double);
    double median = (cap[5] + cap[6]) / 2;
    if (!(median <= star && median >= 0.93 * star))
        fail_msg("median capacity %g, M/D/1 %g", median, star);
    for (int seed = 1; seed <= 12; seed++) { /* review36 L2 */
        snprintf(cmd, sizeof cmd, "%.*s --requests 1000 --qps 14.6 --format json --seed %d",
                 (int)(strstr(base, " --requests") - base), base, seed);
        double q = cli_number(cmd, "max_sustainable_qps", out, sizeof out);
        if (!(q >= 0.75 * star && q <= 1.02 * star))
            fail_msg("seed %d on 1000 requests: capacity %g, M/D/1 %g", seed, q, star);
    }
}

/* A uniform draw in (0, 1) from state *u: splitmix64 (Steele, Lea and
 * Flood, OOPSLA 2014), the top 53 bits, offset by half a step. */
static double rng_unit(unsigned long long *u)
{
    unsigned long long z = (*u += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

/* review35 M3: the floor's estimators alone.  rl_serve_effective_count on
 * AR(1) series x_t = phi x_{t-1} + e_t of m = 20,000: the mean's
 * statistical inefficiency is (1 + phi) / (1 - phi) (Priestley, "Spectral
 * Analysis and Time Series", 1981, eq. 5.3.19 for the AR(1) spectrum at 0),
 * so N = m (1 - phi) / (1 + phi): 1052.6 at phi 0.9, m at phi 0.  One
 * estimate with 10 batches has a relative sd of about 37% (serve.h
 * RL_SERVE_SLO_NONE), so the test averages the inefficiency m / N over 16
 * series: sd about 9%, tolerance 20% (reads 19.77 against 19).  At phi 0
 * the estimate is clipped at 1 (N at most m), which lifts the average of
 * a 37%-sd estimate to about 1 + 0.37 x 0.399 = 1.15 (the normal's mean
 * excess over its mean): reads 1.169, tolerance [1, 1.3].  A factor-2
 * error in the OBM normalisation fails both.  Degenerate inputs: a constant series, and 19
 * values (too few for batches of 2), count as independent (m).
 * rl_serve_garwood_upper: chi2(0.95; 2k + 2) / 2 (tables: 2.996 exact at 0,
 * 4.744 at 1, 6.296 at 2, 16.962 at 10), within 0.5% (Wilson and Hilferty).
 * rl_serve_slo_bound: the floor at the effective exceedances (review35 L1):
 * 10 of 3000 over with N = 300 is k = 1, 4.73 / 300 = 1.58%, not 3/300. */
static void test_effective_count_and_floor(void **state)
{
    (void)state;
    enum { M = 20000, SERIES = 16 };
    static double x[M];
    unsigned long long u = 12345;
    static const double phis[2] = {0.9, 0}, lo[2] = {0.8, 1}, hi[2] = {1.2, 1.3};
    for (int p = 0; p < 2; p++) {
        double phi = phis[p], ineff = 0;
        for (int s = 0; s < SERIES; s++) {
            double prev = 0;
            for (int i = 0; i < M; i++) {
                double a = rng_unit(&u), b = rng_unit(&u); /* Box-Muller */
                prev = phi * prev + sqrt(-2 * log(a)) * cos(2 * M_PI * b);
                x[i] = 5 + prev;
            }
            ineff += M / rl_serve_effective_count(x, M) / SERIES;
        }
        double want = (1 + phi) / (1 - phi);
        if (!(ineff / want >= lo[p] && ineff / want <= hi[p]))
            fail_msg("phi %g: inefficiency %g, AR(1) %g", phi, ineff, want);
    }
    for (int i = 0; i < M; i++)
        x[i] = 0.25;
    assert_true(rl_serve_effective_count(x, M) == M);
    for (int i = 0; i < 19; i++)
        x[i] = i % 2 ? 1 : 3 * i;
    assert_true(rl_serve_effective_count(x, 19) == 19);
    assert_true(rl_serve_effective_count(x, 0) == 0);
    static const double garwood[4][2] = {{0, 2.996}, {1, 4.744}, {2, 6.296}, {10, 16.962}};
    for (int i = 0; i < 4; i++)
        assert_true(fabs(rl_serve_garwood_upper(garwood[i][0]) / garwood[i][1] - 1) < 0.005);
    rl_serve_result r = {.slo_miss_bound = 0.001, .slo_effective_requests = 300,
                         .slo_ttft_counted = 3000, .slo_ttft_over = 10};
    assert_true(fabs(rl_serve_slo_bound(&r) - rl_serve_garwood_upper(1) / 300) < 1e-12);
    r.slo_ttft_over = 0;
    assert_true(fabs(rl_serve_slo_bound(&r) - 2.996 / 300) < 1e-5);
    r.slo_effective_requests = 0; /* no backlog shows: the clustered bound alone */
    assert_true(rl_serve_slo_bound(&r) == 0.001);
    /* review36 L1: the confirming sample's effective requests, the fixed
     * point of N = G(round(share N)) / 0.01 with the same W-H G: 299.6 at
     * share 0 (2.996 / 0.01), 26,498 at 0.9% (review36's table; 8 passes
     * gave 5,545), the cap 200,000 at 0.99%; exact (the same arithmetic) */
    assert_true(fabs(rl_serve_slo_want(0) - 299.6) < 1e-9);
    double w = rl_serve_slo_want(0.009);
    assert_true(w > 26497 && w < 26499);
    assert_true(w >= rl_serve_garwood_upper(round(0.009 * w)) / 0.01); /* a fixed point */
    assert_true(rl_serve_slo_want(0.0099) == RL_SERVE_CAPACITY_GROW_MAX);
    assert_true(fabs(rl_serve_slo_want(0.02) - 299.6) < 1e-9);
}

/* review35 H1: prompt lengths that come in runs.  4000 requests, Poisson
 * at 5 req/s, 100-token outputs, prompts in blocks of 200 whose mean is
 * 300 or 3000 tokens (review35's trace's pattern of blocks, lognormal sigma
 * 0.3, 10..7000), llama3-8b on one H100, TTFT target 0.5 s.  The run meets
 * it with no request over (TTFT p99 0.271 s).  The floor counted effective
 * requests from the TTFTs, which follow the blocks' prompts with no queue
 * at all, and read a floor over 1% at every load: max_sustainable_qps 0 on
 * main 7c7d8a7 (review35's own trace: 0, where bf864a6 read 8.64).
 * Counted on the waits it reads 8.35 (8.35 with the rule of three too).
 * The capacity must be at least the run's own rate (4.99: it meets the
 * target with none over) and at least 60% of the same lengths shuffled
 * (11.25; a block of long prompts is a real burst of work, so not all of
 * it: bf864a6 read 0.80 of it on review35's trace, this one 0.74). */
static void test_block_prompts_capacity(void **state)
{
    (void)state;
    static char out[1 << 17];
    enum { N = 4000, BLOCK = 200 };
    static int len[N], shuffled[N];
    unsigned long long u = 3;
    for (int b = 0; b < N / BLOCK; b++) {
        double mu = "sLsLLLLLLLLLsLLLLsLs"[b] == 'L' ? 3000 : 300;
        for (int i = b * BLOCK; i < (b + 1) * BLOCK; i++) {
            double a = rng_unit(&u), c = rng_unit(&u);
            double l = mu * exp(0.3 * sqrt(-2 * log(a)) * cos(2 * M_PI * c));
            len[i] = shuffled[i] = (int)fmin(7000, fmax(10, l));
        }
    }
    for (int i = N - 1; i > 0; i--) { /* Fisher-Yates */
        int j = (int)(rng_unit(&u) * (i + 1)), t = shuffled[i];
        shuffled[i] = shuffled[j];
        shuffled[j] = t;
    }
    double cap[2], rate = 0;
    for (int k = 0; k < 2; k++) {
        char path[64], args[256];
        snprintf(path, sizeof path, "/tmp/rl_blocks_%d_%d.csv", (int)getpid(), k);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        unsigned long long w = 7; /* the same arrivals for both */
        double t = 0;
        for (int i = 0; i < N; i++) {
            t += -log(rng_unit(&w)) / 5.0;
            fprintf(f, "%.6f,%d,100\n", t, k ? shuffled[i] : len[i]);
        }
        fclose(f);
        rate = (N - 1) / t;
        snprintf(args, sizeof args,
                 "simulate --model llama3-8b --hw h100-sxm --trace %s --ttft-p99 0.5 --format json",
                 path);
        cap[k] = cli_number(args, "max_sustainable_qps", out, sizeof out);
        if (k == 0)
            assert_true(cli_number(args, "slo_attainment", out, sizeof out) == 1);
        remove(path);
    }
    if (!(cap[0] >= rate && cap[0] >= 0.6 * cap[1]))
        fail_msg("blocks: capacity %g, its own rate %g, shuffled %g", cap[0], rate, cap[1]);
}

/* tester33 F1: a run needs host_bw only for swap preemption or a host
 * prefix tier, net_bw only for disagg (serve.c check_links): a spec without
 * them runs continuous batching, and a run that needs one names the file,
 * the field and its use (the old check refused every run without host_bw
 * with "kv_bytes_per_token, host_bw, net_bw: must be > 0"). */
static void test_links_only_when_used(void **state)
{
    fixture *f = *state;
    rl_hw h = f->h;
    h.host_bw = h.net_bw = 0; /* a spec that leaves both out */
    snprintf(h.origin, sizeof h.origin, "/tmp/minimal.lua");
    rl_serve_config c = rl_serve_config_default();
    rl_serve_config_hw(&c, &f->m, &h, 1, rl_precision_default(), 0.1);
    rl_request *r = workload(50, 1, 100, 10, 1);
    rl_serve_result out;
    char err[512];
    assert_int_equal(rl_serve_run(r, 50, &c, &f->cost, &f->cost, &out, err, sizeof err), 0);
    assert_int_equal(out.completed, 50);
    rl_serve_result_free(&out);
    c.preempt = RL_PREEMPT_SWAP;
    assert_int_equal(rl_serve_run(r, 50, &c, &f->cost, &f->cost, &out, err, sizeof err), -1);
    assert_non_null(strstr(err, "/tmp/minimal.lua: field 'host_bw': must be > 0 B/s per chip (a spec that leaves it out reads 0), since swap preemption"));
    c.preempt = RL_PREEMPT_RECOMPUTE;
    c.prefix_host_tokens = 1000;
    assert_int_equal(rl_serve_run(r, 50, &c, &f->cost, &f->cost, &out, err, sizeof err), -1);
    assert_non_null(strstr(err, "field 'host_bw': must be > 0 B/s per chip (a spec that leaves it out reads 0), since the prefix cache's host tier"));
    c.prefix_host_tokens = 0;
    c.policy = RL_POLICY_DISAGG;
    assert_int_equal(rl_serve_run(r, 50, &c, &f->cost, &f->cost, &out, err, sizeof err), -1);
    assert_non_null(strstr(err, "/tmp/minimal.lua: field 'net_bw': must be > 0 B/s per chip (a spec that leaves it out reads 0), since --policy disagg"));
    free(r);
}

/* stop_when_missed (serve.h RL_SERVE_MISSED) keeps the verdict: llama3-8b
 * on one H100, 2000 requests of 1000-token prompts and 100-token outputs.
 * At 200 req/s (beyond its ~30 req/s) the full run's TTFT p99 exceeds
 * 1 s, and the stopping run returns RL_SERVE_MISSED before the last
 * arrival; at 2 req/s, where the targets hold, both runs give the same
 * figures (exactly: the check only stops). */
static void test_stop_when_missed(void **state)
{
    fixture *f = *state;
    rl_serve_config c = config(f, RL_POLICY_CONTINUOUS);
    c.slo_ttft = 1;
    c.slo_tpot = 0.05;
    c.kv_samples = 0;
    static const double qps[2] = {200, 2};
    for (int k = 0; k < 2; k++) {
        rl_request *req = workload(2000, qps[k], 1000, 100, 7);
        rl_serve_result full, stopped;
        char err[256];
        assert_int_equal(rl_serve_run(req, 2000, &c, &f->cost, &f->cost, &full, err, sizeof err), 0);
        rl_serve_config s = c;
        s.stop_when_missed = 1;
        int rc = rl_serve_run(req, 2000, &s, &f->cost, &f->cost, &stopped, err, sizeof err);
        if (k == 0) {
            assert_true(full.ttft.p99 > 1);
            assert_int_equal(rc, RL_SERVE_MISSED);
            assert_non_null(strstr(err, "TTFT p99 target is missed"));
            /* which target, as a field (size.c's miss bits read it, not err) */
            assert_int_equal(stopped.missed, RL_SERVE_MISSED_TTFT);
            long long at = -1;
            assert_int_equal(sscanf(err, "simulate: stopped after %lld of 2000", &at), 1);
            assert_true(at > 0 && at < 2000);
        } else {
            assert_int_equal(rc, 0);
            assert_int_equal(stopped.missed, 0);
            assert_true(full.ttft.p99 <= 1 && full.tpot.p99 <= 0.05);
            assert_true(stopped.ttft.p99 == full.ttft.p99 && stopped.tpot.p99 == full.tpot.p99 &&
                        stopped.completed == full.completed);
            rl_serve_result_free(&stopped);
        }
        rl_serve_result_free(&full);
        free(req);
    }
    /* a TPOT target of 1 ms (a decode step of llama3-8b on one H100 reads
     * its 16 GB of weights at 3.35 TB/s: over 4.8 ms) with no TTFT target
     * stops on TPOT, and says so in the field */
    rl_request *req = workload(2000, 2, 1000, 100, 7);
    rl_serve_result stopped;
    char err[256];
    rl_serve_config s = c;
    s.slo_ttft = 0;
    s.slo_tpot = 0.001;
    s.stop_when_missed = 1;
    assert_int_equal(rl_serve_run(req, 2000, &s, &f->cost, &f->cost, &stopped, err, sizeof err),
                     RL_SERVE_MISSED);
    assert_non_null(strstr(err, "TPOT p99 target is missed"));
    assert_int_equal(stopped.missed, RL_SERVE_MISSED_TPOT);
    free(req);
}

/* seqs_peak (serve.h), which size relies on to reuse a run across batch
 * caps: llama3-8b on one H100, 1000 requests of 500-token prompts and
 * 100-token outputs at 5 req/s, under max_seqs 256.  The peak the run
 * reports is below 256 (the cap never bound), and a run under a cap of
 * peak + 1 gives the same figures bit for bit; a cap of half the peak binds
 * and changes them (so the comparison can fail).  The calibrated decode
 * step (memoised per batch and context when the op list is not linear in
 * S) returns the op list's time on its first and its memoised call alike. */
static void test_seqs_peak_and_memo(void **state)
{
    fixture *f = *state;
    rl_request *r = workload(1000, 5, 500, 100, 3);
    rl_serve_config c = config(f, RL_POLICY_CONTINUOUS);
    long long peak = 0;
    c.seqs_peak = &peak;
    rl_serve_result a = run(f, r, 1000, &c);
    assert_true(peak > 1 && peak < c.max_seqs);
    rl_serve_config d = c;
    long long peak2 = 0;
    d.seqs_peak = &peak2;
    d.max_seqs = (int)peak + 1;
    rl_serve_result b = run(f, r, 1000, &d);
    assert_int_equal(peak2, peak);
    assert_memory_equal(&a.ttft, &b.ttft, sizeof a.ttft);
    assert_memory_equal(&a.tpot, &b.tpot, sizeof a.tpot);
    assert_memory_equal(&a.e2e, &b.e2e, sizeof a.e2e);
    assert_true(a.utilization == b.utilization && a.steps == b.steps);
    d.max_seqs = (int)peak / 2;
    rl_serve_result x = run(f, r, 1000, &d);
    assert_true(x.e2e.p99 != a.e2e.p99);
    rl_serve_result_free(&a);
    rl_serve_result_free(&b);
    rl_serve_result_free(&x);
    free(r);
    rl_ops_cost oc;
    char err[256];
    rl_precision p = rl_precision_default();
    assert_int_equal(rl_ops_cost_init(&oc, &f->m, &f->h, 1, p, 1, err, sizeof err), 0);
    for (int B = 1; B <= 256; B *= 4)
        for (int S = 1; S <= 8192; S *= 8) {
            rl_ops_config cc = rl_ops_mixed_config(1, p, 0, 0, B, S);
            cc.calibrated = 1;
            double t = rl_ops_step_time(&f->m, &f->h, &cc);
            assert_rel(rl_serve_ops_time1(&oc, 0, 0, B, S), t, 1e-9);
            assert_rel(rl_serve_ops_time1(&oc, 0, 0, B, S), t, 1e-9);
        }
    rl_ops_cost_free(&oc);
}

/* KV capacity of one replica under the two layouts (serve.h rl_attn_layout):
 * DeepSeek-V3 (model/deepseek-v3.lua: 61 layers, one latent of
 * kv_lora_rank 512 + qk_rope_head_dim 64) on 8 H200 (141 GiB =
 * 151,397,597,184 B each, hw_profiles/h200.lua; 141e9 until tester22 F2),
 * fp8 weights and KV: 61 x 576 x 1 B = 35,136 B per
 * token.  HBM as h200's default engine allocates it (TensorRT-LLM,
 * engines.h: KV gets 0.9 of what each chip has free after its weights and
 * 411,041,792 B of collective buffers and the activation workspace A =
 * 461,373,440 B, memory.h rl_memory_workspace at 8 chips: 8192 x (7168 +
 * (110,592 + 8 x 7168 routed copies) / 8) x 2; 343,932,928 before fixJL
 * counted the routed copies), so per chip the KV holds 0.9 x (HBM - w - 411,041,792
 * - A) for w the chip's weights.
 *  - tp: each chip holds the whole latent cache (8 copies), and the weights
 *    as shard stores them (the pool reads shard.h for every MoE plan): all
 *    parameters but the router, norms and MLA's down-projections split over
 *    the 8 chips, the norms and down-projections (61 x 7168 x (1536 + 512 +
 *    64) = 923,467,776, arch.h rl_arch_tp_replicated_params, tester22 F3)
 *    whole, the router whole; the router, the norms and the vocab-parallel
 *    embedding and LM head (2 x 129,280 x 7168 = 1,853,358,080) bf16, as
 *    the fp8 checkpoint keeps them (dtype.h rl_dtype_kept): w =
 *    (671,026,404,352 - 106,430,464 - 1,006,592 - 923,467,776) / 8 +
 *    2 x 1,006,592 + 2 x 106,430,464 + 923,467,776 + 1,853,358,080 / 8 =
 *    85,119,449,088 B: 8 x 0.9 x (151,397,597,184 - w - 411,041,792 - A) /
 *    (35,136 x 8) = 1,675,351.76 tokens (1,678,359.97 with A before fixJL's
 *    routed copies; 1,687,169.7 without A; before
 *    that, 1,693,129.7 with the embedding, LM
 *    head and norms at 1 B, w = 84,886,772,736; 1,447,495.4 on 141e9-byte
 *    chips with the down-projections
 *    split; 1,452,629.5 with the even split
 *    of all parameters, w = 671,026,404,352 / 8, before stop 25); the
 *    split the simulator made before stop 23 (one copy over 8 chips)
 *    would be 8x that.
 *  - attn-dp: one copy, but each chip stores attention, embeddings, LM
 *    head, router, norms (those four bf16: 2 B a parameter) and the dense
 *    MLP whole beside 1/8 of the routed experts (shard.h "ep8 attn=rep"): 8 x 0.9 x
 *    (151,397,597,184 - that -
 *    411,041,792 - A) / 35,136, from model's parameter groups (test_arch pins
 *    them).
 * Tolerance 1e-9 relative (one formula, doubles).  A dense model refuses
 * attn-dp. */
static void test_mla_kv_layouts(void **state)
{
    (void)state;
    rl_model m = load_model("deepseek-v3", NULL, 0);
    rl_hw h = load_hw("h200", NULL, 0);
    rl_precision p = {RL_FP8, RL_FP8, RL_FP8};
    assert_true(rl_arch_kv_bytes_per_token(&m, RL_FP8) == 35136.0);
    double nccl = 411041792.0 + 461373440.0; /* the buffers and the workspace A */
    double tp = rl_serve_kv_capacity(&m, &h, 8, 1, 1, p, 0.1, RL_ATTN_LAYOUT_TP, 0, 0);
    double rep = 61 * 7168 * (1536 + 512 + 64.0), hbm = 151397597184.0;
    assert_true(rl_arch_tp_replicated_params(&m) == rep);
    double w = (671026404352.0 - 106430464 - 1006592 - rep) / 8 + 2 * 1006592 + 2 * 106430464.0 +
               rep + 1853358080.0 / 8;
    assert_rel(tp, 8 * 0.9 * (hbm - w - nccl) / (35136.0 * 8), 1e-9);
    assert_rel(tp, 1675351.76, 1e-7);
    assert_true(rl_serve_kv_copies(&m, 8, 1, RL_ATTN_LAYOUT_TP) == 8);
    rl_params pc = rl_arch_params(&m);
    double chip = pc.attention + 2 * (pc.embedding + pc.lm_head + pc.router + pc.norms) +
                  (pc.mlp - pc.routed_experts) + pc.routed_experts / 8;
    double dp = rl_serve_kv_capacity(&m, &h, 8, 1, 1, p, 0.1, RL_ATTN_LAYOUT_DP, 0, 0);
    assert_rel(dp, 8 * 0.9 * (hbm - chip - nccl) / 35136.0, 1e-9);
    assert_true(rl_serve_kv_copies(&m, 8, 1, RL_ATTN_LAYOUT_DP) == 1);
    char err[256];
    rl_model dense = load_model("llama3-8b", NULL, 0);
    assert_int_equal(rl_attn_layout_check(&dense, 8, RL_ATTN_LAYOUT_DP, err, sizeof err), -1);
    assert_non_null(strstr(err, "attn-dp"));
    assert_int_equal(rl_attn_layout_check(&m, 3, RL_ATTN_LAYOUT_DP, err, sizeof err), -1);
    /* GQA within K heads: one copy (llama3-8b, K = 8, on 8 chips); beyond, K/TP */
    assert_true(rl_serve_kv_copies(&dense, 8, 1, RL_ATTN_LAYOUT_TP) == 1);
    assert_true(rl_serve_kv_copies(&dense, 16, 1, RL_ATTN_LAYOUT_TP) == 2);
    /* A draft model under the replicating layout (fixY, finding 3): the
     * pool above (tp, 8 copies of 35,136 B a token: tp x 281,088 B of room)
     * less llama3-8b's fp8 weights as a draft on the same 8 chips (K = 8:
     * one copy, unplanned, so rl_memory_use's bytes), over 281,088 +
     * 65,536 B a token (its fp8 KV, one copy).  The draft's weights came
     * out of tp x 35,136 B, one copy's bytes, over 35,136 + 65,536:
     * 498,641 tokens where the room holds 1,332,395 (1,334,834 before fixJL
     * counted MoE routed copies in the workspace, 1,341,979 before trtllm's
     * activation workspace; the closed form at
     * wd = 9.08e9 B: fp8 weights, the kept classes in bf16; fixY, this
     * test).  Tolerance 1e-12: the same doubles in another order; 1e-6 on
     * the figure. */
    rl_serve_config dc = rl_serve_config_default();
    dc.pp = dc.ep = 1;
    rl_serve_config_hw(&dc, &m, &h, 8, p, 0.1);
    assert_rel(dc.kv_capacity_tokens, tp, 1e-15);
    rl_serve_config_draft(&dc, &dense, &h, 8, p);
    double wd = rl_memory_use(&dense, &h, 8, 0, 1, p.weights, p.kv).weight_bytes;
    assert_rel(wd, rl_serve_weight_bytes(&dense, &h, 8, 1, 1, p, RL_ATTN_LAYOUT_TP), 1e-15);
    assert_rel(dc.draft_weight_bytes, wd, 1e-15);
    assert_true(rl_arch_kv_bytes_per_token(&dense, RL_FP8) == 65536.0);
    assert_rel(dc.kv_capacity_tokens, (tp * 8 * 35136.0 - wd) / (8 * 35136.0 + 65536), 1e-12);
    assert_rel(dc.kv_capacity_tokens, 1332394.97, 1e-6);
    assert_rel(dc.kv_bytes_per_token, 35136.0 + 65536, 1e-15);
}

/* DeepSeek-V3 on 8 H200 in 8 expert groups (--ep 8, plan "tp1 ep8"): step,
 * ops and the simulator read one KV layout (shard.h rl_shard_kv_layout;
 * tester13 #3: the simulator sized one copy but timed every chip reading
 * the whole batch's latent).  Each group is one chip running attention on
 * its own 64 / 8 = 8 sequences (attention data parallel over the groups),
 * so, worked by hand from the model's config (kv_lora_rank 512 +
 * qk_rope_head_dim 64 = 576 elements a layer, 61 layers, fp8 KV:
 * 576 x 61 = 35,136 bytes a token, pinned by test_mla_kv_layouts):
 *  - layout: 8 groups of 1 chip, one copy of each token's latent;
 *  - step (shard, calibrated): 8 sequences x 4096 tokens x 35,136 B =
 *    1,151,336,448 B of KV a chip, under --kv-split batch and replicate
 *    alike (one chip a group: nothing to split), and the same step time;
 *  - ops: the MLA decode kernel on a chip runs all 128 heads over its 8
 *    sequences of 4096 keys (shape {8, 4096, 128}), and the op list reads
 *    64 x 4096 x 35,136 B of KV in all, 1/8 of it a chip = step's;
 *  - simulator: its KV pool one copy beside the weights each chip stores
 *    as step does (the attention, vocab, dense and shared-expert weights
 *    whole: 98,856,229,888 B, not the even split's 83.9 GB, fixY's open
 *    item; the router whole in bf16, 106,430,464 B more, since stop 25:
 *    98,962,660,352 B; the embedding, LM head (1,853,358,080) and norms
 *    (1,006,592) bf16 as the fp8 checkpoint keeps them, dtype.h
 *    rl_dtype_kept: 100,817,025,024 B): 8 x 0.9 x (151,397,597,184 -
 *    100,817,025,024 - 392 MiB) / 35,136 B = 10,280,641.5 tokens (by hand;
 *    10,660,634.2 with those at 1 B; 8,529,979.1 on 141e9-byte chips
 *    until tester22 F2; 8 x tp8's 1,452,629.5 before stop 24),
 *    and its decode step at B = 64 and context 4096 the step's time (both
 *    the same op list and collectives; ops reads those weights whole on
 *    each chip too, 30.56 -> 33.92 ms).
 * Tolerances: 1e-9 relative on the formulas; 1e-6 on the step times (one
 * op list, summed in another order); KV bytes exact. */
static void test_mla_ep_layout_agrees(void **state)
{
    (void)state;
    rl_model m = load_model("deepseek-v3", NULL, 0);
    rl_hw *h = malloc(sizeof *h); /* ~60 kB: off the stack (valgrind) */
    assert_non_null(h);
    *h = load_hw("h200", NULL, 0);
    rl_precision p = {RL_FP8, RL_FP8, RL_FP8};
    rl_kv_layout k = rl_serve_kv_layout(&m, 8, 8, RL_ATTN_LAYOUT_TP);
    assert_int_equal(k.groups, 8);
    assert_int_equal(k.tp, 1);
    assert_true(k.copies == 1);
    /* step */
    rl_shard_plan pl = rl_serve_replica_plan(8, 8, RL_ATTN_LAYOUT_TP);
    assert_int_equal(pl.tp, 1);
    assert_int_equal(pl.ep, 8);
    rl_step st[2];
    rl_shard_result r[2];
    char err[256];
    const rl_kv_split split[2] = {RL_KV_BATCH, RL_KV_REPLICATE};
    for (int i = 0; i < 2; i++) {
        pl.kv = split[i];
        assert_int_equal(rl_shard_step_calibrated(&m, h, &pl, 8, 64, 4096, p, &st[i], &r[i], err,
                                                  sizeof err), 0);
        assert_true(r[i].kv_bytes == 8.0 * 4096 * 35136);
    }
    assert_rel(st[1].step_s, st[0].step_s, 1e-12);
    /* ops */
    rl_ops_config oc = rl_ops_mixed_config(8, p, 0, 0, 64, 4096);
    oc.calibrated = 1;
    oc.tp = 1;
    oc.ep = 8;
    oc.no_collectives = 1;
    oc.kv_copies = rl_serve_kv_copies(&m, 8, 8, RL_ATTN_LAYOUT_TP);
    rl_ops *ops = malloc(sizeof *ops);
    assert_non_null(ops);
    assert_int_equal(rl_ops_build(&m, h, &oc, ops, err, sizeof err), 0);
    const rl_op *qk = NULL;
    for (int i = 0; i < ops->n; i++)
        if (strcmp(ops->op[i].name, "qk") == 0)
            qk = &ops->op[i];
    assert_non_null(qk);
    assert_true(qk->kshape[0] == 8 && qk->kshape[1] == 4096 && qk->kshape[2] == 128);
    assert_rel(ops->kv_read, 64.0 * 4096 * 35136, 1e-9);
    assert_rel(ops->kv_read / 8, r[0].kv_bytes, 1e-9);
    /* simulator */
    double tp8 = rl_serve_kv_capacity(&m, h, 8, 1, 1, p, 0.1, RL_ATTN_LAYOUT_TP, 0, 0);
    double ep8 = rl_serve_kv_capacity(&m, h, 8, 1, 8, p, 0.1, RL_ATTN_LAYOUT_TP, 0, 0);
    assert_rel(ep8, 8 * 0.9 * (151397597184.0 - 100817025024.0 - 411041792.0 - 461373440.0) / 35136,
               1e-9); /* 461,373,440: trtllm's workspace on 8 chips (test_mla_kv_layouts) */
    assert_true(ep8 < 8 * tp8);
    rl_ops_cost c;
    assert_int_equal(rl_ops_cost_replica(&c, &m, h, 8, 1, 8, RL_ATTN_LAYOUT_TP, p, 1, err,
                                         sizeof err), 0);
    assert_rel(rl_serve_ops_time1(&c, 0, 0, 64, 4096), st[0].step_s, 1e-6);
    rl_ops_cost_free(&c);
    free(ops);
    free(h);
}

/* A constant step: `ctx` points at its seconds, whatever the work. */
static double const_step(void *ctx, const rl_step_work *w)
{
    (void)w;
    return *(const double *)ctx;
}

/* fixAA: a step time that is not a finite positive number (an fp8-only
 * spec timed its kept bf16 tensors at a peak of 0: an infinite step) is
 * refused with -1 and a message, not spun on forever in sample_kv.  Fails
 * before: the infinite step never returned (the test hangs and times out),
 * NaN and negative steps were read as 1 ns and returned 0.  The pending
 * SIGTERM part held before too (rl_serve_run polls before run_events); it
 * pins that the -1 paths added beside it still say "interrupted". */
static void bad_step_time_refused(void **state)
{
    (void)state;
    char err[512];
    rl_model m = load_model("tiny-test", NULL, 0);
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    rl_request r[2] = {{.arrival = 0, .prompt = 10, .output = 5, .prefix_id = -1},
                       {.arrival = 1, .prompt = 10, .output = 5, .prefix_id = -1}};
    rl_serve_config c = rl_serve_config_default();
    rl_serve_config_hw(&c, &m, &h, 1, rl_precision_default(), 0.1);
    const double bad[3] = {INFINITY, NAN, -0.01};
    for (int i = 0; i < 3; i++) {
        double step = bad[i];
        rl_step_cost cost = {const_step, &step, 0, 0};
        rl_serve_result out;
        err[0] = '\0';
        assert_int_equal(rl_serve_run(r, 2, &c, &cost, &cost, &out, err, sizeof err), -1);
        assert_non_null(strstr(err, "not a finite time"));
    }
    double step = 0.01;
    rl_step_cost cost = {const_step, &step, 0, 0};
    rl_serve_result out;
    rl_interrupt_raise();
    assert_int_equal(rl_serve_run(r, 2, &c, &cost, &cost, &out, err, sizeof err), -1);
    rl_interrupt_clear();
    assert_non_null(strstr(err, "interrupted"));
    assert_int_equal(rl_serve_run(r, 2, &c, &cost, &cost, &out, err, sizeof err), 0);
    rl_serve_result_free(&out);
}

/* Pipeline parallelism (serve.h rl_ops_cost_pipeline, rl_serve_config.pp),
 * Llama-3-405B on H100 SXM (d_model 16384, 126 layers; the profile's
 * NVLink: 18 links x 25 GB/s, 2 us; NIC: 50 GB/s, 5 us per GPU), ideal op
 * list.  A pass adds (pp - 1) sends of hidden state + residual,
 * 2 x rows x 16384 x 2 bytes (bf16):
 *  - PP2 x TP8 over two nodes, decode B = 64: 4,194,304 B / 5e10 B/s =
 *    83.886 us over the TP8 step (1e-9); B = 1: 65,536 B is under the
 *    latency, so 5 us (the NIC latency);
 *  - PP2 x TP4 in one node, B = 64: 4,194,304 / 4.5e11 = 9.321 us.
 * Stop 31 (h31stage): the stages' own times (shard.h rl_shard_stage_pass),
 * the last stage runs the final norm and LM head (Z; on a TP8 chip
 * 128,256 x 16384 x 2 / 8 = 525,336,576 B, 156.8 us, 1e-2 with its
 * activations), the first the embedding (E): two equal stages pace
 * 2 x ((T - E - Z) / 2 + Z) = T - E + Z, so PP2 adds Z - E beside the
 * sends (Z and E from the same op list, rl_ops_stage_ends, 1e-9).
 * KV: each stage keeps its 63 layers of every token, so 16 chips as PP2 x
 * TP8 hold one copy per token, TP16 two (K = 8 heads), and by hand the
 * TensorRT-LLM rule of the profile's engine, 16 x 0.9 x (85,899,345,920
 * (80 GiB; 80e9 until tester22 F2) - W / 16 - 392 MiB) / 516,096 B per token (2 x 126 layers x 8 heads x 128 x 2 B),
 * W the bf16 weights (1e-9).  TP16 stores more weights, Wt: each KV head's
 * K/V projections on both of its chips (126 x 2 x 16384 x 128 x 8 x 2 B
 * more, as step: tester20 F1; before, twice PP2's tokens exactly) and the
 * norm gains whole on each chip (15 x 253 x 16384 x 2 B, shard.c).
 * Simulator: two requests at t = 0 of 10 output tokens at a constant 10 ms
 * step and max_seqs 1: one engine serves them in turn (makespan 200 ms),
 * two pipeline streams at once (100 ms, exact); each stream has half the
 * replica's KV pages, so a request that fits the replica but not half of
 * it is refused. */
/* E and Z (ops.h rl_ops_stage_ends: the embedding; the final norm and LM
 * head) of the ideal step of `rows` rows (one prompt of rows - seqs + 1
 * tokens beside seqs - 1 decoding, or seqs decoding) on a TP `chips`
 * replica; returns Z - E, what a pass of two equal stages adds (stop 31:
 * 2 x (T - E - Z) / 2 + 2 Z = T - E + Z). */
static double stage_ends(const rl_model *m, const rl_hw *h, long long chips, long long prompt,
                         long long decode, double *E, double *Z)
{
    rl_ops_config c = rl_ops_mixed_config(chips, rl_precision_default(), prompt, 0, decode, 2048);
    c.tp = chips;
    c.no_collectives = 1;
    rl_ops *o = malloc(sizeof *o);
    char err[256];
    assert_non_null(o);
    assert_int_equal(rl_ops_build(m, h, &c, o, err, sizeof err), 0);
    rl_ops_stage_ends(o, E, Z);
    free(o);
    return *Z - *E;
}

static void test_pipeline_parallel(void **state)
{
    (void)state;
    rl_model m = load_model("llama3-405b", NULL, 0);
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    rl_precision p = rl_precision_default();
    char err[512];
    rl_ops_cost tp8, pp2, tp4;
    assert_int_equal(rl_ops_cost_init(&tp8, &m, &h, 8, p, 0, err, sizeof err), 0);
    assert_int_equal(rl_ops_cost_init(&pp2, &m, &h, 8, p, 0, err, sizeof err), 0);
    assert_int_equal(rl_ops_cost_init(&tp4, &m, &h, 4, p, 0, err, sizeof err), 0);
    assert_int_equal(rl_ops_cost_pipeline(&pp2, 2, err, sizeof err), 0);
    double t8 = rl_serve_ops_time1(&tp8, 0, 0, 64, 2048), E, Z;
    double zd = stage_ends(&m, &h, 8, 0, 64, &E, &Z);
    assert_rel(Z, 525336576.0 / 3.35e12, 1e-2); /* the LM head's read on a TP8 chip */
    assert_rel(rl_serve_ops_time1(&pp2, 0, 0, 64, 2048) - t8, 4194304.0 / 5e10 + zd, 1e-9);
    assert_rel(rl_serve_ops_time1(&pp2, 0, 0, 1, 2048) - rl_serve_ops_time1(&tp8, 0, 0, 1, 2048),
               5e-6 + stage_ends(&m, &h, 8, 0, 1, &E, &Z), 1e-9);
    /* a prefill of 1000 tokens beside 63 decoding: 1063 rows */
    assert_rel(rl_serve_ops_time1(&pp2, 1000, 0, 63, 2048) -
                   rl_serve_ops_time1(&tp8, 1000, 0, 63, 2048),
               2.0 * 1063 * 16384 * 2 / 5e10 + stage_ends(&m, &h, 8, 1000, 63, &E, &Z), 1e-9);
    double t4 = rl_serve_ops_time1(&tp4, 0, 0, 64, 2048);
    assert_int_equal(rl_ops_cost_pipeline(&tp4, 2, err, sizeof err), 0);
    assert_rel(rl_serve_ops_time1(&tp4, 0, 0, 64, 2048) - t4,
               4194304.0 / 4.5e11 + stage_ends(&m, &h, 4, 0, 64, &E, &Z), 1e-9);
    /* 126 layers on 4 stages (refused before stop 29): h100-sxm's engine
     * TensorRT-LLM's 32 32 31 31 (shard.h rl_shard_stage_layers,
     * rl_shard_split_of); a pass is 4 ticks of stage 0, 32 layers and the
     * embedding (the last's 31 layers and LM head, 0.66 of a layer on a
     * TP4 chip, are less): 4 x 32 / 126 of the whole model's per-layer ops
     * (its op list and collectives on a stage's 4 chips less E and Z) + 4 E
     * (stop 31: was 4 x 32 / 126 of all of it), plus 3 sends over 16 chips
     * in domains of 8:
     * stages 1 -> 2 cross the NIC (4,194,304 / 5e10), the others NVLink
     * (4,194,304 / 4.5e11) (1e-9) */
    rl_ops_cost tp4b;
    assert_int_equal(rl_ops_cost_init(&tp4b, &m, &h, 4, p, 0, err, sizeof err), 0);
    assert_int_equal(rl_ops_cost_pipeline(&tp4, 4, err, sizeof err), 0);
    stage_ends(&m, &h, 4, 0, 64, &E, &Z);
    assert_rel(rl_serve_ops_time1(&tp4, 0, 0, 64, 2048),
               128.0 / 126 * (t4 - E - Z) + 4 * E + 4194304.0 / 5e10 + 2 * 4194304.0 / 4.5e11,
               1e-9);
    stage_ends(&m, &h, 4, 1000, 63, &E, &Z);
    assert_rel(rl_serve_ops_time1(&tp4, 1000, 0, 63, 2048),
               128.0 / 126 * (rl_serve_ops_time1(&tp4b, 1000, 0, 63, 2048) - E - Z) + 4 * E +
                   2.0 * 1063 * 16384 * 2 * (1 / 5e10 + 2 / 4.5e11), 1e-9);
    assert_int_equal(rl_ops_cost_pipeline(&tp4, 127, err, sizeof err), -1);
    assert_non_null(strstr(err, "126 layers"));
    rl_ops_cost_free(&tp4b);
    rl_ops_cost_free(&tp8);
    rl_ops_cost_free(&pp2);
    rl_ops_cost_free(&tp4);

    double kv_pp = rl_serve_kv_capacity(&m, &h, 16, 2, 1, p, 0.1, RL_ATTN_LAYOUT_TP, 0, 0);
    double kv_tp = rl_serve_kv_capacity(&m, &h, 16, 1, 1, p, 0.1, RL_ATTN_LAYOUT_TP, 0, 0);
    double W = rl_memory_use(&m, &h, 16, 0, 1, p.weights, p.kv).weight_bytes;
    assert_rel(W, 2 * rl_arch_params(&m).total, 1e-12);
    double Wt = rl_serve_weight_bytes(&m, &h, 16, 1, 1, p, RL_ATTN_LAYOUT_TP);
    assert_rel(Wt - W, 126.0 * 2 * 16384 * 128 * 8 * 2 + 15.0 * 253 * 16384 * 2, 1e-9);
    /* less trtllm's activation workspace on a chip of 16 (memory.h
     * rl_memory_workspace: 8192 x (16384 + (144 x 128 + 2 x 53248) / 16) x 2
     * = 396,361,728) and of 8 (stages of 8 chips: 8192 x (16384 + 124,928 /
     * 8) x 2 = 524,288,000) */
    assert_rel(kv_tp,
               16 * 0.9 * (85899345920.0 - Wt / 16 - 411041792.0 - 396361728.0) / (2 * 516096.0),
               1e-9);
    /* PP2 x TP8: a TP8 chip's whole-model weights X = W / 8 plus the 253
     * norm gains whole (7/8 of them more than W / 8); the last stage holds
     * half of X's layers (X less the embedding and LM head, 128,256 x 16384
     * x 2 B / 8 = 525,336,576 each, and the final norm's 32,768 B) and the
     * LM head and final norm (shard.h rl_shard_stage_weights, vLLM's
     * PPMissingLayer): X / 2 + 16,384 B a chip (stop 29: W / 16, the
     * norms split and the vocab spread as the layers) (1e-9) */
    double X = W / 8 + 7.0 / 8 * 253 * 16384 * 2, V8 = 128256.0 * 16384 * 2 / 8;
    assert_rel(rl_serve_weight_bytes(&m, &h, 16, 2, 1, p, RL_ATTN_LAYOUT_TP), 16 * (X / 2 + 16384),
               1e-12);
    assert_rel(kv_pp,
               16 * 0.9 * (85899345920.0 - (X / 2 + 16384) - 411041792.0 - 524288000.0) / 516096.0,
               1e-9);
    /* PP4 x TP8 on 32 chips under h100-sxm's default engine, TensorRT-LLM
     * (32 32 31 31 layers, mapping.py pp_layers; review35 M2): the busiest
     * chips are stage 0's, 32/126 of X's layers and the embedding (V8)
     * (stop 30 took vLLM's split under every engine: 2.06% less).  Under
     * vLLM (31 32 32 31) a 32-layer middle stage's, 32/126 of X's layers
     * and no vocabulary (a 31-layer end stage adds 525,336,576 B to
     * 31/126, one layer of ~805 MB less).  Every token's KV 516,096 x
     * 32/126 / 8 B (1e-9) */
    double W4 = rl_serve_weight_bytes(&m, &h, 32, 4, 1, p, RL_ATTN_LAYOUT_TP);
    assert_rel(W4, 32 * ((X - 2 * V8 - 32768) * 32 / 126 + V8), 1e-12);
    rl_hw hv = h;
    assert_int_equal(rl_engines_select(&hv.engines, "vllm", "t", err, sizeof err), 0);
    assert_rel(rl_serve_weight_bytes(&m, &hv, 32, 4, 1, p, RL_ATTN_LAYOUT_TP),
               32 * (X - 2 * V8 - 32768) * 32 / 126, 1e-12);
    assert_rel(rl_serve_kv_capacity(&m, &h, 32, 4, 1, p, 0.1, RL_ATTN_LAYOUT_TP, 0, 0),
               32 * 0.9 * (85899345920.0 - W4 / 32 - 411041792.0 - 524288000.0) /
                   (516096.0 * 128 / 126),
               1e-9);

    double step = 0.01;
    rl_step_cost cost = {const_step, &step, 0, 0};
    rl_request r[2] = {{.arrival = 0, .prompt = 100, .output = 10, .prefix_id = -1},
                       {.arrival = 0, .prompt = 100, .output = 10, .prefix_id = -1}};
    rl_serve_config c = rl_serve_config_default();
    c.max_seqs = 1;
    rl_serve_config_hw(&c, &m, &h, 16, p, 0.1);
    rl_serve_result out;
    assert_int_equal(rl_serve_run(r, 2, &c, &cost, &cost, &out, err, sizeof err), 0);
    assert_rel(out.duration_s, 0.2, 1e-12);
    rl_serve_result_free(&out);
    c.pp = 2;
    assert_int_equal(rl_serve_run(r, 2, &c, &cost, &cost, &out, err, sizeof err), 0);
    assert_rel(out.duration_s, 0.1, 1e-12);
    rl_serve_result_free(&out);
    c.kv_capacity_tokens = 250; /* 125 per stream: a 110-token request + 2 pages (142) does
                                   not fit, though it fits the replica */
    assert_int_equal(rl_serve_run(r, 2, &c, &cost, &cost, &out, err, sizeof err), -1);
    assert_non_null(strstr(err, "kv_capacity"));
    /* the error names the stream's share, not the replica's (review-b 6) */
    assert_non_null(strstr(err, "each of the replica's 2 pipeline streams holds 125 (1/2 of its KV)"));
    assert_false(rl_serve_holds(125, 110, 16)); /* the same rule: 110 + 32 > 125 */
    assert_true(rl_serve_holds(142, 110, 16));  /* exactly two pages to spare */
    c.pp = 1;
    /* tester63 #13: one replica's 141 tokens (+ 2 pages short of 142) is
     * said with its KV bytes, its spec and what a user changes */
    c.kv_capacity_tokens = 141;
    assert_int_equal(rl_serve_run(r, 2, &c, &cost, &cost, &out, err, sizeof err), -1);
    if (!strstr(err, "kv_capacity: request 0 needs 110 KV tokens (+ 2 pages of 16), a replica holds "
                     "141 (") || !strstr(err, "GB of KV after the weights in ") ||
        !strstr(err, "; give a replica more HBM (more chips, or a larger hbm_bytes), a narrower KV "
                     "dtype (kv fp8 or int8), or shorter requests"))
        fail_msg("%s", err);
    c.kv_capacity_tokens = 250;
    assert_int_equal(rl_serve_run(r, 2, &c, &cost, &cost, &out, err, sizeof err), 0);
    rl_serve_result_free(&out);
}

/* Expert parallelism of degree ep under layout tp (serve.h
 * rl_ops_cost_experts: shard's "tp(chips/ep) epN" plan: ep attention
 * groups of chips/ep TP chips).  Mixtral-8x7B on 8 H100, decode B = 256 at
 * S = 4096: K = 8 KV heads split over tp8 and over tp2 alike (one copy),
 * and the experts split over the 8 chips either way (B = 256 touches all 8
 * experts, so ep4's busiest chip, arch.h rl_arch_experts_read_ep, holds 2
 * of them as the even split does; at B = 32 the 7.9992 expected experts
 * round up to 2 a chip).  The steps differ by the plans' collectives,
 * computed by shard.h, and by the weights each of ep4's 4 groups reads
 * whole over its 2 chips, as shard stores them (fixY; before stop 24 ops
 * split them over the 8 chips): attention 32 x (2 x 4096^2 + 2 x 4096 x
 * 1024) x 2 B = 2,684,354,560, LM head 32000 x 4096 x 2 B = 262,144,000,
 * all memory-bound at B = 256, read at 1/2 instead of 1/8 a chip: 3/8 x
 * 2,946,498,560 B / 3.35e12 B/s = 329.83 us more; and by the router,
 * whole on every chip under both (ops.c `replicated`: its weights read
 * alike), each chip running it over its group's rows, all 256 under tp8,
 * 64 under ep4: 32 layers x 192 rows x (4096 in + 8 out) x 2 B =
 * 50,429,952 B / 3.35e12 B/s = 15.05 us less under ep4, memory-bound
 * too (before stop 25 the router was split over each group's chips, read
 * at 1/2 instead of 1/8 under ep4).  By hand; 1e-6 on the difference.
 * DeepSeek-V3 in fp8 on 8 H200: MLA's one latent is whole on each TP chip,
 * 8 copies under tp8 and 2 under tp2 ep4, and ep4's chips hold the
 * attention, vocab, dense and shared-expert weights (17.01 GB in fp8) at
 * 1/2 where tp8's hold 1/8 (step's weight_bytes_per_chip 91,846,981,632
 * and 85,119,449,088 B, the router whole in bf16 on each: 106,430,464 B
 * more than at 1 B a parameter, MLA's down-projections whole, 923,467,776
 * B: tester22 F3; the vocab-parallel embedding and LM head (1,853,358,080
 * / tp) and the norms (1,006,592) bf16 as the fp8 checkpoint keeps them,
 * dtype.h rl_dtype_kept; 90,919,296,000 and 84,886,772,736 B with those at
 * 1 B, 90,457,562,112 and 84,078,738,432 B before F3): by hand
 * 8 x 0.9 x (151,397,597,184 (141 GiB) - 91,846,981,632 B - 392 MiB -
 * 461,373,440 B of trtllm activation workspace on 8 chips, memory.h
 * rl_memory_workspace, routed copies counted) / (35,136 B x 2 copies) =
 * 6,012,110.7 tokens (6,024,143.5 before fixJL's routed copies; 6,059,382.6
 * without the workspace; 6,154,432.3 with the
 * embedding at 1 B; 5,136,413.5 on 141e9-byte chips) under the
 * profile's TensorRT-LLM rule (1e-9), less than 4x tp8's (4x while the
 * pool took the even split, W/8, for both).  A dense model,
 * an ep not dividing the experts or the chips, or attn-dp with ep is
 * refused naming ep. */
static void test_expert_parallel_degrees(void **state)
{
    (void)state;
    rl_model m = load_model("mixtral-8x7b", NULL, 0);
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    rl_precision p = rl_precision_default(), moved = p;
    char err[512];
    rl_ops_cost tp, ep;
    assert_int_equal(rl_ops_cost_init(&tp, &m, &h, 8, p, 0, err, sizeof err), 0);
    assert_int_equal(rl_ops_cost_init(&ep, &m, &h, 8, p, 0, err, sizeof err), 0);
    assert_int_equal(rl_ops_cost_experts(&ep, 4, err, sizeof err), 0);
    rl_shard_plan p8 = rl_serve_replica_plan(8, 1, RL_ATTN_LAYOUT_TP);
    rl_shard_plan p24 = rl_serve_replica_plan(8, 4, RL_ATTN_LAYOUT_TP);
    assert_true(p24.tp == 2 && p24.ep == 4 && p8.tp == 8 && p8.ep == 1);
    rl_shard_result r8, r24;
    assert_int_equal(rl_shard_collectives(&m, &h, &p8, RL_PHASE_GENERATE, 256, moved, &r8, err,
                                          sizeof err), 0);
    assert_int_equal(rl_shard_collectives(&m, &h, &p24, RL_PHASE_GENERATE, 256, moved, &r24, err,
                                          sizeof err), 0);
    assert_true(r24.comm_s != r8.comm_s);
    assert_rel(rl_serve_ops_time1(&ep, 0, 0, 256, 4096) - rl_serve_ops_time1(&tp, 0, 0, 256, 4096),
               r24.comm_s - r8.comm_s + (3.0 / 8 * 2946498560.0 - 50429952.0) / 3.35e12, 1e-6);
    assert_int_equal(rl_ops_cost_experts(&ep, 3, err, sizeof err), -1);
    assert_non_null(strstr(err, "ep"));
    assert_int_equal(rl_ops_cost_experts(&ep, 16, err, sizeof err), -1);
    rl_ops_cost_free(&tp);
    rl_ops_cost_free(&ep);
    rl_model dense = load_model("llama3-8b", NULL, 0);
    assert_int_equal(rl_serve_layout_check(&dense, 8, 1, 2, RL_ATTN_LAYOUT_TP, err, sizeof err), -1);
    assert_int_equal(rl_serve_layout_check(&m, 8, 1, 2, RL_ATTN_LAYOUT_DP, err, sizeof err), -1);
    assert_int_equal(rl_serve_layout_check(&m, 8, 2, 4, RL_ATTN_LAYOUT_TP, err, sizeof err), 0);

    rl_model ds = load_model("deepseek-v3", NULL, 0);
    rl_hw h200 = load_hw("h200", NULL, 0);
    rl_precision f8 = {RL_FP8, RL_FP8, RL_FP8};
    double k8 = rl_serve_kv_capacity(&ds, &h200, 8, 1, 1, f8, 0.1, RL_ATTN_LAYOUT_TP, 0, 0);
    double k24 = rl_serve_kv_capacity(&ds, &h200, 8, 1, 4, f8, 0.1, RL_ATTN_LAYOUT_TP, 0, 0);
    assert_true(k24 < 4 * k8);
    assert_rel(k24,
               8 * 0.9 * (151397597184.0 - 91846981632.0 - 411041792.0 - 461373440.0) /
                   (35136.0 * 2),
               1e-9);
}

/* Steps with prompts are costed from the op list's spans, each kept by what
 * it depends on (serve.h rl_ops_cost.terms): the kept terms must give the
 * op list's own time for every step, whichever steps filled them.  3000
 * pseudo-random steps of llama3-8b on one h100-sxm (kernel tables), drawn
 * from few shapes so spans recur across steps (T in {1, 7, 300, 2048}, P in
 * {0, 100, 4000}, B in {0, 1, 5, 64}, S in {1, 900, 5000}; every fourth
 * step two prompts), each twice; expected: rl_ops_step_time of the step's
 * configuration (step_config's on one chip), exactly (==).  Fails if a
 * span's key missed one of its inputs (e.g. HEAD kept by the prompt rows
 * without the decode batch). */
static void test_span_terms_match_op_list(void **state)
{
    fixture *f = *state;
    static const long long Ts[] = {1, 7, 300, 2048}, Ps[] = {0, 100, 4000}, Bs[] = {0, 1, 5, 64},
                           Ss[] = {1, 900, 5000};
    rl_precision p = rl_precision_default();
    rl_ops_cost oc;
    char err[256];
    assert_int_equal(rl_ops_cost_init(&oc, &f->m, &f->h, 1, p, 1, err, sizeof err), 0);
    unsigned long long seed = 7;
    for (int i = 0; i < 3000; i++) {
        long long r[6];
        for (int j = 0; j < 6; j++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            r[j] = (long long)(seed >> 33);
        }
        rl_ops_part parts[2] = {{1, Ts[r[0] % 4], Ps[r[1] % 3]}, {1, Ts[r[4] % 4], Ps[r[5] % 3]}};
        int n = i % 4 == 3 ? 2 : 1;
        long long B = Bs[r[2] % 4], S = B ? Ss[r[3] % 3] : 1;
        rl_step_work w = {parts, n, (double)B, (double)S, 0};
        rl_ops_config cc = rl_ops_mixed_config(1, p, 0, 0, B, S);
        cc.parts = parts;
        cc.nparts = n;
        cc.calibrated = 1;
        cc.tp = cc.ep = 1;
        cc.no_collectives = 1;
        double want = rl_ops_step_time(&f->m, &f->h, &cc);
        for (int k = 0; k < 2; k++) {
            double got = rl_serve_ops_time(&oc, &w);
            if (!(want > 0) || got != want)
                fail_msg("step %d (B %lld, S %lld, T %lld, P %lld, %d prompts): %.17g, op list "
                         "%.17g", i, B, S, parts[0].tokens, parts[0].prefix, n, got, want);
        }
    }
    rl_ops_cost_free(&oc);
}

/* Two runs of the same n requests, under a and b, match exactly: the
 * latencies (sorted), the steps and the events simulated
 * (rl_serve_config.work). */
static void assert_same_runs(const fixture *f, const rl_request *r, long long n,
                             rl_serve_config a, rl_serve_config b)
{
    unsigned long long wa = 0, wb = 0;
    a.keep_requests = b.keep_requests = 1;
    a.work = &wa;
    b.work = &wb;
    rl_serve_result x = run(f, r, n, &a), y = run(f, r, n, &b);
    assert_true(wa > (unsigned long long)n); /* counted: at least one per arrival */
    assert_true(wa == wb);
    assert_int_equal(x.steps, y.steps);
    assert_int_equal(x.decode_steps, y.decode_steps);
    assert_memory_equal(x.ttft_s, y.ttft_s, (size_t)n * sizeof(double));
    assert_memory_equal(x.tpot_s, y.tpot_s, (size_t)n * sizeof(double));
    assert_memory_equal(x.e2e_s, y.e2e_s, (size_t)n * sizeof(double));
    assert_true(x.e2e_s[n - 1] > 0);
    rl_serve_result_free(&x);
    rl_serve_result_free(&y);
}

/* Least-outstanding routing picks the replica with the fewest outstanding
 * requests, the lowest-numbered of equals (the former O(replicas) scan;
 * serve.c route keeps its picks with a heap, tester16 F8).  Two cases
 * whose picks that scan fixes: (1) 16 requests at one instant on 4
 * replicas: the scan sends request i to replica i mod 4, as round-robin
 * does, so the two runs match exactly; (2) a trickle (one request every
 * 10 s, each served in well under that: the run's longest e2e is checked
 * below 2 s): every pick is replica 0 (all idle, the lowest id), so 8
 * replicas serve them as 1 does. */
static void test_least_outstanding_picks(void **state)
{
    fixture *f = *state;
    rl_request *r = workload(16, 1, 500, 50, 1);
    for (int i = 0; i < 16; i++)
        r[i].arrival = 0;
    rl_serve_config lo = config(f, RL_POLICY_CONTINUOUS), rr;
    lo.replicas = 4;
    rr = lo;
    rr.route = RL_ROUTE_ROUND_ROBIN;
    assert_same_runs(f, r, 16, lo, rr);
    free(r);

    r = workload(20, 0.1, 500, 50, 2);
    for (int i = 0; i < 20; i++)
        r[i].arrival = 10.0 * i;
    rl_serve_config one = config(f, RL_POLICY_CONTINUOUS), eight = one;
    eight.replicas = 8;
    rl_serve_result alone = run(f, r, 20, &one);
    assert_true(alone.e2e.max < 2); /* each done before the next arrives */
    rl_serve_result_free(&alone);
    assert_same_runs(f, r, 20, one, eight);
    free(r);
}

/* Idle replicas cost nothing (tester16 F8: 2000 requests on 1e5 replicas
 * ran for minutes): a replica is set up and visited only once a request
 * reaches it, and routing costs O(log used replicas).  2000 requests at
 * 100/s (1000-token prompts, 100 outputs) use the first few dozen of 1e5
 * replicas (the --replicas maximum) exactly as they use 1000 replicas:
 * the same events (counted, not timed) and the same latencies, under both
 * routing policies (round-robin: its turn passes 2000 replicas, so 1e5
 * against 2000).  Least-outstanding on 400 replicas too: a pool of at most
 * RB_MAX (512) replicas picks from its count bitmaps (serve.c rb_move), a
 * larger one from the heap, and the runs must match (a build whose bitmap
 * pick took the next count up when it had a replica failed here, and in
 * test_least_outstanding_picks and test_capacity_scales_with_replicas). */
static void test_idle_replicas_cost_nothing(void **state)
{
    fixture *f = *state;
    long long n = 2000;
    rl_request *r = workload(n, 100, 1000, 100, 1);
    for (int route = 0; route < 2; route++) {
        rl_serve_config few = config(f, RL_POLICY_CONTINUOUS), many;
        few.route = route ? RL_ROUTE_ROUND_ROBIN : RL_ROUTE_LEAST_OUTSTANDING;
        few.replicas = route ? (int)n : 1000;
        many = few;
        many.replicas = 100000;
        assert_same_runs(f, r, n, few, many);
        if (!route) {
            rl_serve_config bitmaps = few;
            bitmaps.replicas = 400;
            assert_same_runs(f, r, n, bitmaps, many);
        }
    }
    free(r);
}

/* A step cost that is a tiny synthetic kernel table, linear in context:
 * 1 ms a prefill step, 1 ms + 1 us x S a decode step, S the batch's mean
 * context, or its longest (rl_step_work.decode_longest) where ctx says the
 * engine's rule is "longest" (engines.h attn_longest). */
static double attn_table_1us(void *ctx, const rl_step_work *w)
{
    int longest = *(const int *)ctx;
    double S = longest && w->decode_longest > 0 ? w->decode_longest : w->decode_context;
    return (w->nprefill > 0 ? 1e-3 : 0) + (w->decode_batch > 0 ? 1e-3 + 1e-6 * S : 0);
}

/* The longest rule by hand (serve.h rl_step_work.decode_longest): two
 * requests at t = 0, prompts 100 and 300 tokens, outputs 11 and 6, one
 * prefill step of both (continuous batching), then decode step k (k = 0,
 * 1, ...) at contexts 100 + k and 300 + k while both run (k < 5), 100 + k
 * alone after the second finishes at k = 5.  TPOT = the decode steps'
 * time over output - 1:
 *   mean rule:    short 1 ms + (sum_{k<5} (200 + k) + sum_{5<=k<10} (100 + k)) us / 10
 *                       = 1 ms + (1010 + 535) / 10 us = 1.1545 ms
 *                 long  1 ms + sum_{k<5} (200 + k) us / 5 = 1.202 ms
 *   longest rule: short 1 ms + (sum_{k<5} (300 + k) + sum_{5<=k<10} (100 + k)) us / 10
 *                       = 1 ms + (1510 + 535) / 10 us = 1.2045 ms
 *                 long  1 ms + sum_{k<5} (300 + k) us / 5 = 1.302 ms
 * so the longest rule adds (300 - 200) us x 5 / 10 = 50 us and 100 us, the
 * table's slope times the gap between the longest and the mean context
 * while both run, and nothing once one runs alone (the longest recomputed
 * when the sequence holding it leaves: kept at 300 + k it would read
 * 1.3045 ms).  Sums of a few doubles: 1e-12 relative.  Both with decode
 * runs (quiet steps, serve.c plan_run) and every step an event. */
static void test_longest_context_rule(void **state)
{
    (void)state;
    static const rl_request req[2] = {{0, 100, 11, -1, 0}, {0, 300, 6, -1, 0}};
    const double want[2][2] = {{1.1545e-3, 1.202e-3}, {1.2045e-3, 1.302e-3}};
    for (int longest = 0; longest < 2; longest++)
        for (int every = 0; every < 2; every++) {
            rl_step_cost cost = {attn_table_1us, &longest, 0, longest};
            rl_serve_config c = rl_serve_config_default();
            c.kv_capacity_tokens = 1e6;
            c.kv_bytes_per_token = 1;
            c.keep_requests = 1;
            c.every_step = every;
            rl_serve_result out;
            char err[512];
            if (rl_serve_run(req, 2, &c, &cost, &cost, &out, err, sizeof err) != 0)
                fail_msg("%s", err);
            assert_int_equal(out.completed, 2);
            assert_int_equal(out.steps, 11);
            assert_rel(out.tpot_s[0], want[longest][0], 1e-12);
            assert_rel(out.tpot_s[1], want[longest][1], 1e-12);
            assert_rel(out.mean_decode_context, (5 * 202 + 5 * 107) / 10.0, 1e-12); /* the mean */
            rl_serve_result_free(&out);
        }
}

/* The op-list cost of an engine whose attention_context is "longest"
 * (h100-sxm's TensorRT-LLM tables, the rule set on the loaded engine):
 * it reads decode_longest (rl_ops_cost.attn_longest, rl_step_cost.longest)
 * for bf16 KV, which its decode_attention table times, and not for int8
 * KV (no table: the roofline's KV bytes, the batch's sum) nor ideal; the
 * mean rule (as loaded) never.  A decode step of B = 2 at mean 2000,
 * longest 3000 is the step at (2, 3000), exactly; it exceeds the mean
 * rule's step at (2, 2000) by 32 layers x the table's decode attention at
 * (streams 2 x 8 KV heads, context 3000, group 4, head_dim 128) less that at
 * context 2000 (llama3-8b; engines.h rl_engine_time_on at the chip's own
 * figures, as ops.c times it), 1e-9 relative: the attention kernel is the
 * one operator whose time moves with the context (serve.h rl_step_work).
 * Simulated (300 mixed requests, continuous and chunked), decode runs give
 * the same numbers as every step an event. */
static void test_longest_rule_op_list(void **state)
{
    fixture *f = *state;
    static fixture g;
    g.m = f->m;
    g.h = f->h;
    char err[512];
    assert_int_equal(rl_hw_select_engine(&g.h, "trtllm", err, sizeof err), 0);
    rl_precision p = rl_precision_default();
    rl_ops_cost mean;
    assert_int_equal(rl_ops_cost_init(&mean, &g.m, &g.h, 1, p, 1, err, sizeof err), 0);
    assert_int_equal(mean.attn_longest, 0);
    rl_serving_engine *e = &g.h.engines.e[g.h.engines.sel];
    e->attn_longest = 1;
    assert_int_equal(rl_ops_cost_init(&g.oc, &g.m, &g.h, 1, p, 1, err, sizeof err), 0);
    assert_int_equal(g.oc.attn_longest, 1);
    g.cost = rl_serve_ops_cost(&g.oc);
    assert_int_equal(g.cost.longest, 1);
    rl_ops_cost other;
    rl_precision p32 = p;
    p32.kv = RL_INT8;
    assert_int_equal(rl_ops_cost_init(&other, &g.m, &g.h, 1, p32, 1, err, sizeof err), 0);
    assert_int_equal(other.attn_longest, 0);
    rl_ops_cost_free(&other);
    assert_int_equal(rl_ops_cost_init(&other, &g.m, &g.h, 1, p, 0, err, sizeof err), 0);
    assert_int_equal(other.attn_longest, 0);
    rl_ops_cost_free(&other);
    rl_step_work w = {NULL, 0, 2, 2000, 3000};
    double tl = rl_serve_ops_time(&g.oc, &w), tm = rl_serve_ops_time(&mean, &w);
    assert_true(tl == rl_serve_ops_time1(&g.oc, 0, 0, 2, 3000));
    assert_true(tm == rl_serve_ops_time1(&mean, 0, 0, 2, 2000));
    const double was[2] = {rl_hw_measured_flops(&g.h)[p.compute], rl_hw_measured_bw(&g.h)};
    const double now[2] = {rl_hw_peak(&g.h, p.compute), g.h.hbm_bw};
    double x3[RL_KSHAPE] = {16, 3000, 4, 128}, x2[RL_KSHAPE] = {16, 2000, 4, 128};
    rl_provenance prov;
    double a3 = rl_engine_time_on(e, RL_KC_DECODE_ATTN, RL_KV_BF16, x3, was, now, &prov);
    double a2 = rl_engine_time_on(e, RL_KC_DECODE_ATTN, RL_KV_BF16, x2, was, now, &prov);
    assert_true(a3 > a2 && a2 > 0);
    assert_rel(tl - tm, 32 * (a3 - a2), 1e-9);
    rl_ops_cost_free(&mean);
    long long n = 300;
    rl_request *r = mixed_requests(n, 5);
    for (int pol = RL_POLICY_CONTINUOUS; pol <= RL_POLICY_CHUNKED; pol++) {
        rl_serve_config c = config(&g, (rl_policy)pol);
        c.max_seqs = 16;
        same_as_every_step(&g, r, n, c);
    }
    free(r);
    rl_ops_cost_free(&g.oc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cost_is_the_op_list),
        cmocka_unit_test(bad_step_time_refused),
        cmocka_unit_test(test_cost_adds_tp_collectives),
        cmocka_unit_test(test_dispatch_on_ttft_not_steps),
        cmocka_unit_test(test_dense_memo_bounded),
        cmocka_unit_test(test_memos_mapped_after_first_steps),
        cmocka_unit_test(test_setters_forget_steps),
        cmocka_unit_test(test_decode_step_at_realised_batch),
        cmocka_unit_test(test_steady_state_excludes_drain),
        cmocka_unit_test(test_prefill_decode_ratio),
        cmocka_unit_test(test_disagg_link_contention),
        cmocka_unit_test(test_decode_tokens_in_budget),
        cmocka_unit_test(test_tokens_freed_per_step_and_little),
        cmocka_unit_test(test_static_batch_closed_form),
        cmocka_unit_test(test_no_itl_changes_only_itl),
        cmocka_unit_test(test_continuous_token_budget),
        cmocka_unit_test(test_metric_definitions),
        cmocka_unit_test(test_capacity_md1),
        cmocka_unit_test(test_capacity_any_start),
        cmocka_unit_test(test_capacity_label_asked),
        cmocka_unit_test(test_capacity_floor_stops_early),
        cmocka_unit_test(test_capacity_scales_with_replicas),
        cmocka_unit_test(test_capacity_per_replica),
        cmocka_unit_test(test_capacity_not_above_saturated),
        cmocka_unit_test(test_settle_time_closed_form),
        cmocka_unit_test(test_verdict_pcts_same_verdict),
        cmocka_unit_test(test_capacity_heavy_tail_converges),
        cmocka_unit_test(test_falls_short_rule),
        cmocka_unit_test(test_heavy_tail_cli),
        cmocka_unit_test(test_utilization_at_most_one),
        cmocka_unit_test(test_capacity_memory_counted),
        cmocka_unit_test(test_capacity_floor_is_unloaded),
        cmocka_unit_test(test_capacity_far_overload_grown),
        cmocka_unit_test(test_capacity_just_above_floor),
        cmocka_unit_test(test_capacity_unresolved_tail),
        cmocka_unit_test(test_capacity_disagg_narrower_pool),
        cmocka_unit_test(test_capacity_from_a_trickle),
        cmocka_unit_test(test_horizon_refused),
        cmocka_unit_test(test_decode_only_step_mean),
        cmocka_unit_test(test_decode_runs_match_every_step),
        cmocka_unit_test(test_longest_context_rule),
        cmocka_unit_test(test_longest_rule_op_list),
        cmocka_unit_test(test_decode_run_cut_at_tie),
        cmocka_unit_test(test_least_outstanding_picks),
        cmocka_unit_test(test_idle_replicas_cost_nothing),
        cmocka_unit_test(test_speculative),
        cmocka_unit_test(test_prefix_cache),
        cmocka_unit_test(test_preemption),
        cmocka_unit_test(test_swap_no_thrash),
        cmocka_unit_test(test_chunked_kv_within_pool),
        cmocka_unit_test(test_prefix_tier_capacity),
        cmocka_unit_test(test_determinism_and_policies),
        cmocka_unit_test(test_json_nulls),
        cmocka_unit_test(test_arrival_rate_instant),
        cmocka_unit_test(test_config_errors),
        cmocka_unit_test(test_harness_can_fail),
        cmocka_unit_test(test_thrashing_run_completes),
        cmocka_unit_test(test_overload_note_needs_overload),
        cmocka_unit_test(test_slo_note_offline),
        cmocka_unit_test(test_capacity_not_below_sustained_load),
        cmocka_unit_test(test_overload_note_names_backlog_rate),
        cmocka_unit_test(test_steady_goodput),
        cmocka_unit_test(test_static_capacity_is_saturation),
        cmocka_unit_test(test_md1_capacity_closed_form),
        cmocka_unit_test(test_md1_slo_capacity_not_optimistic),
        cmocka_unit_test(test_effective_count_and_floor),
        cmocka_unit_test(test_block_prompts_capacity),
        cmocka_unit_test(test_mla_kv_layouts), cmocka_unit_test(test_mla_ep_layout_agrees),
        cmocka_unit_test(test_pipeline_parallel),
        cmocka_unit_test(test_expert_parallel_degrees),
        cmocka_unit_test(test_stop_when_missed),
        cmocka_unit_test(test_links_only_when_used),
        cmocka_unit_test(test_seqs_peak_and_memo),
        cmocka_unit_test(test_span_terms_match_op_list),
    };
    if (getenv("RL_TEST_FILTER")) /* one test's name (a glob): a single test while editing */
        cmocka_set_test_filter(getenv("RL_TEST_FILTER"));
    return cmocka_run_group_tests(tests, setup, teardown);
}
