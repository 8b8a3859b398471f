/* test_size.c — the sizing search and its report: the recommendation meets
 * the targets and is minimal in replicas, impossible targets yield none,
 * prices turn chips into USD, the frontier is monotone, the Markdown and
 * HTML reports carry every section and no network fetch, the CLI end to
 * end (simulate and size, trace errors with file and line), and the HTML in
 * headless Chromium when it is installed. */
#include "testutil.h"

#include <time.h>

#include "e2e.h"
#include "interrupt.h"
#include "param.h"
#include "size.h"
#include "result.h"
#include "sizereport.h"

typedef struct {
    rl_model m;
    rl_hw h[2];
    rl_size_input in;
    rl_size_result res;
} fixture;

static int setup(void **state)
{
    static fixture f;
    memset(&f, 0, sizeof f);
    f.m = load_model("llama3-8b", NULL, 0);
    rl_override price = {"price_per_chip_hour", "2.5"}, none = {"price_per_chip_hour", "0"};
    f.h[0] = load_hw("h100-sxm", &price, 1);
    f.h[1] = load_hw("tpu-v5e", &none, 1);
    f.in = (rl_size_input){.m = &f.m, .hw = f.h, .nhw = 1, .hbm_reserve = 0.1,
                           .slo_ttft = 0.5, .slo_tpot = 0.03, .headroom = RL_SIZE_HEADROOM};
    f.in.w = (rl_workload){.n = 2000, .qps = 30, .prompt = {RL_DIST_LOGNORMAL, 1500, 0.6},
                           .output = {RL_DIST_UNIFORM, 50, 400}, .seed = 5};
    char err[512];
    if (rl_size_search(&f.in, &f.res, err, sizeof err) != 0)
        fail_msg("%s", err);
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    rl_size_result_free(&f->res);
    return 0;
}

/* The cheapest meeting configuration is listed first; simulating it again
 * gives the same verdict, at the load and at (1 + F) x the load (headroom
 * F = 0.2); one replica fewer of it misses the targets at (1 + F) x the
 * load (the replica search is minimal); the load at which it stops meeting
 * them is at least (1 + F) x the load, where it was verified.  Cost = chips * 2.5 USD/h. */
static void test_recommendation_is_minimal(void **state)
{
    fixture *f = *state;
    assert_true(f->res.nmeet > 0);
    assert_true(f->res.priced);
    rl_size_candidate b = f->res.c[0];
    assert_true(b.meets);
    assert_true(b.ttft_p99 <= f->in.slo_ttft && b.tpot_p99 <= f->in.slo_tpot);
    assert_rel(b.cost_per_hour, 2.5 * (double)b.chips_total, 1e-12);
    /* USD per million output tokens = USD/h / (tokens/s * 3600) * 1e6, the
     * tokens/s at the stated load: --qps x the output distribution's mean
     * (stop 48 #6: the sample's steady-state rate before, whose drawn
     * arrival rate differs from --qps by its sampling) */
    double stated = f->in.w.qps * rl_dist_mean(&f->in.w.output);
    assert_rel(b.usd_per_mtok, b.cost_per_hour / (stated * 3600) * 1e6, 1e-12);
    for (int i = 1; i < f->res.n; i++)
        if (f->res.c[i].meets)
            assert_true(f->res.c[i].cost_per_hour >= b.cost_per_hour);
    char err[512];
    rl_size_candidate again = b;
    assert_int_equal(rl_size_evaluate(&f->in, &again, 1, 1, err, sizeof err), 0);
    assert_true(again.meets);
    assert_int_equal(rl_size_evaluate(&f->in, &again, 1.2, 1, err, sizeof err), 0);
    assert_true(again.meets);
    assert_true(b.max_qps >= 1.2 * f->in.w.qps);
    if (b.policy != RL_POLICY_DISAGG && b.replicas > 1) {
        rl_size_candidate fewer = b;
        fewer.replicas--;
        assert_int_equal(rl_size_evaluate(&f->in, &fewer, 1.2, 1, err, sizeof err), 0);
        assert_false(fewer.meets);
    }
    /* every listed row says where it stops meeting the targets (a meeting
     * row may read below the load it was verified at by one run's p99:
     * test_capacity_not_raised_to_sized_load) */
    for (int i = 0; i < f->res.n; i++)
        assert_true(isfinite(f->res.c[i].max_qps));
}

/* size and simulate share one capacity search (serve.h rl_serve_capacity:
 * a lattice of loads, the sample from the requests' own rate): the
 * recommendation simulated by `simulate` on the same requests (the
 * workload's seed and size's request count, rl_size_requests; ideal mode,
 * as the fixture searched) reports the
 * max_sustainable_qps size reported for it, exactly: both search from no
 * hint (until stop 32 size started at the sized load, which agreed here
 * only because this row's verdict is monotone in the load; where it is
 * not they differed: test_capacity_start_free, tester39 F5).  Both
 * hold the search's figure by the whole-sample run at the load the same
 * way (rl_size_verified_capacity, serve.h rl_serve_capacity_with_run;
 * before stop 31 size held it to the loads its verdicts met, and the two
 * could differ: test_capacity_not_raised_to_sized_load).
 * The row's throughputs are simulate's under the same names, exactly:
 * out_tokens_per_s over the whole run, steady_out_tokens_per_s (tester12
 * #3: the row's out_tokens_per_s was the steady figure, 991.8 beside
 * simulate's 995.6).  Each of size's doubles is compared as the JSON
 * writer prints it (json_written), exactly: simulate's figures are read
 * back from its JSON, and cJSON prints "%1.15g" whenever that parses back
 * within one ulp (its compare_double), so a JSON number can be one ulp off
 * the double computed (review29 L2: steady_out_tokens_per_s is the same
 * double in both runs, 736939 / 107.14... = 6878.3133434961992, printed
 * 6878.3133434962 = ...2001; h28dtype's 1e-15 tolerance blamed the
 * simulator).  A real disagreement (the LM head costed at 1 byte in ops
 * but 2 in memory) moves it by 6e-4. */
static double json_written(double v)
{
    cJSON *n = cJSON_CreateNumber(v);
    char *txt = cJSON_PrintUnformatted(n);
    cJSON *back = cJSON_Parse(txt);
    assert_true(cJSON_IsNumber(back));
    double w = back->valuedouble;
    cJSON_Delete(back);
    cJSON_free(txt);
    cJSON_Delete(n);
    return w;
}

static void test_simulate_agrees_on_capacity(void **state)
{
    fixture *f = *state;
    const rl_size_candidate *b = &f->res.c[0];
    assert_true(b->meets && b->max_qps > 1.2 * f->in.w.qps); /* not clamped */
    char args[1024], buf[1 << 16], pre[64] = "";
    if (b->policy == RL_POLICY_DISAGG)
        snprintf(pre, sizeof pre, "--prefill-replicas %d", b->prefill_replicas);
    snprintf(args, sizeof args,
             "simulate --model llama3-8b --hw h100-sxm --ideal --chips %lld --weights %s --kv %s "
             "--compute %s --policy %s --replicas %d %s --max-seqs %d "
             "--max-tokens %lld --hbm-reserve 0.1 --qps 30 --prompt-len lognormal:1500:0.6 "
             "--out-len uniform:50:400 --seed 5 --requests %lld --ttft-p99 0.5 --tpot-p99 0.03 "
             "--format json",
             b->chips, rl_dtype_name(b->p.weights), rl_dtype_name(b->p.kv),
             rl_dtype_name(b->p.compute), rl_policy_name(b->policy), b->replicas, pre, b->max_seqs,
             (long long)b->max_tokens, rl_size_requests(&f->in, 1));
    cJSON *j = run_cli_json(args, buf, sizeof buf);
    const cJSON *q = cJSON_GetObjectItem(j, "max_sustainable_qps");
    assert_true(cJSON_IsNumber(q));
    const char *keys[] = {"max_sustainable_qps", "out_tokens_per_s", "steady_out_tokens_per_s"};
    const double size_has[] = {b->max_qps, b->out_tokens_per_s, b->steady_out_tokens_per_s};
    for (int k = 0; k < 3; k++) {
        q = cJSON_GetObjectItem(j, keys[k]);
        /* simulate's writer may print the exact double (17 digits) where
         * cJSON's %1.15g is one ulp off: either reads as agreement (fixWD:
         * 6775.528562724841 exact in both, cJSON's 6775.52856272484 not) */
        if (!cJSON_IsNumber(q) ||
            (q->valuedouble != json_written(size_has[k]) && q->valuedouble != size_has[k]))
            fail_msg("%s: simulate %.17g, size %.17g (%s)", keys[k], cJSON_IsNumber(q) ? q->valuedouble : NAN,
                     size_has[k], args);
    }
    assert_true(b->out_tokens_per_s != b->steady_out_tokens_per_s); /* two figures, not one */
    /* the row's capacity_utilization is simulate's too: the arrivals'
     * reached rate over max_sustainable_qps (h31audit finding 10: size rows
     * had none), exactly as both JSON writers print the same doubles */
    cJSON *rows = rl_result_size(&f->in, &f->res, 0);
    const cJSON *u = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(rows, "rows"), 0),
                                         "capacity_utilization");
    q = cJSON_GetObjectItem(j, "capacity_utilization");
    assert_true(cJSON_IsNumber(u) && cJSON_IsNumber(q));
    if (u->valuedouble != q->valuedouble)
        fail_msg("capacity_utilization: simulate %.17g, size %.17g", q->valuedouble, u->valuedouble);
    assert_rel(u->valuedouble, b->reached_qps / b->max_qps, 1e-12);
    assert_true(u->valuedouble > 0.3 && u->valuedouble < 1);
    cJSON_Delete(rows);
    cJSON_Delete(j);
}

/* A row's max_sustainable_qps does not depend on where a search starts
 * (tester39 F5): size searched from the sized load (or a sibling row's
 * figure) and simulate from no hint, and the verdict is not monotone in
 * the load, so the same row read 7.548 req/s in `size --model llama3-70b
 * --hw h100-sxm --qps 5 --prompt-len lognormal:2000:0.5 --out-len
 * lognormal:200:0.5 --ttft-p99 1 --tpot-p99 0.05 --keep-precision` (its top
 * row, tp4 x 2 chunked:512 B<=64) and 7.255 in `simulate` of that row at
 * --qps 5.  Now size's capacity search starts where simulate's does
 * (size.h rl_size_capacity): each of the first three rows of that command,
 * simulated by `simulate` on the same requests (size's count, the default
 * seed), prints the same max_sustainable_qps, exactly (both are the CLI's
 * JSON of the same double).  Expected: equal; source: the contract "a
 * row's max_sustainable_qps is the number simulate prints for it" (stop 31
 * fixR); tolerance 0. */
static void test_capacity_start_free(void **state)
{
    (void)state;
    static char buf[1 << 20], row_buf[1 << 16];
    const char *load = "--qps 5 --prompt-len lognormal:2000:0.5 --out-len lognormal:200:0.5 "
                       "--ttft-p99 1 --tpot-p99 0.05";
    char args[1024];
    snprintf(args, sizeof args, "size --model llama3-70b --hw h100-sxm %s --keep-precision "
             "--format json", load);
    cJSON *j = run_cli_json(args, buf, sizeof buf);
    const cJSON *rows = cJSON_GetObjectItem(j, "rows");
    long long n = (long long)cJSON_GetObjectItem(j, "requests")->valuedouble;
    assert_true(cJSON_GetArraySize(rows) >= 3);
    for (int i = 0; i < 3; i++) {
        const cJSON *r = cJSON_GetArrayItem(rows, i);
#define ROW_STR(k) cJSON_GetStringValue(cJSON_GetObjectItem(r, k))
#define ROW_NUM(k) (long long)cJSON_GetObjectItem(r, k)->valuedouble
        assert_int_equal(ROW_NUM("pp"), 1);
        assert_int_equal(ROW_NUM("ep"), 1);
        char pre[64] = "";
        if (!strcmp(ROW_STR("policy"), "disagg"))
            snprintf(pre, sizeof pre, "--prefill-replicas %lld", ROW_NUM("prefill_replicas"));
        snprintf(args, sizeof args,
                 "simulate --model llama3-70b --hw h100-sxm --chips %lld --weights %s --kv %s "
                 "--compute %s --policy %s --replicas %lld %s --max-seqs %lld --max-tokens %lld "
                 "--requests %lld %s --format json",
                 ROW_NUM("chips_per_replica"), ROW_STR("weights"), ROW_STR("kv"),
                 ROW_STR("compute"), ROW_STR("policy"), ROW_NUM("replicas"), pre,
                 ROW_NUM("max_seqs"), ROW_NUM("max_tokens"), n, load);
#undef ROW_STR
#undef ROW_NUM
        const cJSON *size_q = cJSON_GetObjectItem(r, "max_sustainable_qps");
        cJSON *s = run_cli_json(args, row_buf, sizeof row_buf);
        const cJSON *sim_q = cJSON_GetObjectItem(s, "max_sustainable_qps");
        assert_true(cJSON_IsNumber(size_q) && cJSON_IsNumber(sim_q));
        if (size_q->valuedouble != sim_q->valuedouble)
            fail_msg("row %d: size %.17g, simulate %.17g (%s)", i, size_q->valuedouble,
                     sim_q->valuedouble, args);
        cJSON_Delete(s);
    }
    cJSON_Delete(j);
}

/* A row's max_sustainable_qps is the capacity search's figure as simulate
 * finds it for the row at the load, never raised to the sized load because
 * one whole-sample run there met the targets on its point p99s (h31audit
 * finding 1: the README's recommendation read 24 req/s, simulate 21.97 on
 * the same row, sample and targets), and such a row does not meet
 * (tester48 F1: it read meets true beside its own lower figure; size.h
 * rl_size_decide).  The fixture's recommendation (its figure b->max_qps
 * is simulate's, exactly: test_simulate_agrees_on_capacity) re-verified
 * with the headroom put at 1.02 to 1.10 x that figure: where the run at the
 * sized load meets the targets at p99 the row still reads b->max_qps
 * exactly (same row, same load 30 req/s, same requests), below the sized
 * load, and reads meets false, verdict_by capacity, fails_on "capacity" at
 * the sized load (before the fix: meets true).  At least one of those
 * loads must meet at p99, or the test checks nothing: the search's 95%
 * bound on the share over a target sits below the point p99's knee. */
static void test_capacity_not_raised_to_sized_load(void **state)
{
    fixture *f = *state;
    const rl_size_candidate *b = &f->res.c[0];
    assert_true(b->meets && isfinite(b->max_qps));
    char err[512], why[64];
    int met = 0;
    for (double x = 1.02; x < 1.105; x += 0.02) {
        rl_size_input in = f->in;
        in.headroom = x * b->max_qps / in.w.qps - 1;
        double sized = in.w.qps * (1 + in.headroom);
        rl_size_candidate c = *b;
        assert_int_equal(rl_size_evaluate(&in, &c, 1 + in.headroom, 1, err, sizeof err), 0);
        if (!c.meets)
            continue;
        assert_int_equal(rl_size_verify(&in, &c, err, sizeof err), 0);
        if (c.ttft_p99 > in.slo_ttft || c.tpot_p99 > in.slo_tpot)
            continue; /* missed at the load: the p99s decide */
        met++;
        if (c.max_qps != b->max_qps)
            fail_msg("sized for %.17g: max_qps %.17g, simulate's %.17g", sized, c.max_qps,
                     b->max_qps);
        assert_true(c.max_qps < sized);
        if (c.meets)
            fail_msg("sized for %.17g: meets beside max_sustainable_qps %.17g", sized, c.max_qps);
        assert_int_equal(c.verdict_by, RL_SIZE_VERDICT_CAPACITY);
        assert_int_equal(c.fails_on, RL_SIZE_MISS_CAPACITY);
        assert_string_equal(rl_size_miss_names(c.fails_on, why, sizeof why), "capacity");
        assert_rel(c.fails_at_qps, sized, 1e-12);
        /* the JSON row says which rule decided */
        rl_size_result one = {.c = &c, .n = 1};
        cJSON *j = rl_result_size(&in, &one, 1);
        const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0);
        assert_false(cJSON_IsTrue(cJSON_GetObjectItem(row, "meets")));
        assert_string_equal(cJSON_GetObjectItem(row, "verdict_by")->valuestring, "capacity");
        assert_string_equal(cJSON_GetObjectItem(row, "fails_on")->valuestring, "capacity");
        assert_true(cJSON_GetObjectItem(row, "capacity_utilization")->valuedouble >
                    1 / (1 + in.headroom));
        cJSON_Delete(j);
    }
    assert_true(met > 0);
}

/* One rule decides `meets` (tester48 F1, tester49 F1; size.h
 * rl_size_decide): the p99 verdict of the runs (fails_on 0: met at the load
 * and at the sized load S = 24 req/s) and the capacity figure together.
 * Met at p99 with a figure of 23.8 (< S, the README command's seed-1 row
 * h100-sxm 8x tp4 fp8 chunked read 23.81 beside meets true), of 0
 * (sustains nothing) or of a lower bound 23 (the search showed no more):
 * meets false, verdict_by capacity, fails_on capacity at S.  Met with a
 * figure of exactly S or above: meets, both.  Met with no figure
 * (unresolved, not found: NAN): meets, by the p99s.  Missed at p99 with a
 * figure above S: no, by the p99s (fails_on kept); missed with a figure
 * below S: no, both.  Then every row of the fixture's search: a meeting
 * row's figure, where it has one, is at least its sized load, so its
 * capacity_utilization is at most 1 / (1 + headroom) (the JSON rows). */
static void test_one_rule_decides_meets(void **state)
{
    fixture *f = *state;
    const double S = 24;
    struct {
        int fails_on, lower_bound;
        double max_qps;
        int meets, by, fails_after;
    } cases[] = {
        {0, 0, 23.8054, 0, RL_SIZE_VERDICT_CAPACITY, RL_SIZE_MISS_CAPACITY},
        {0, 0, 0, 0, RL_SIZE_VERDICT_CAPACITY, RL_SIZE_MISS_CAPACITY},
        {0, 1, 23, 1, RL_SIZE_VERDICT_P99, 0}, /* a lower bound below: no miss seen */
        {0, 1, 25, 1, RL_SIZE_VERDICT_BOTH, 0},
        {0, 0, 24, 1, RL_SIZE_VERDICT_BOTH, 0},
        {0, 0, 24.2815, 1, RL_SIZE_VERDICT_BOTH, 0},
        {0, 0, NAN, 1, RL_SIZE_VERDICT_P99, 0},
        {RL_SIZE_MISS_TTFT, 0, 30, 0, RL_SIZE_VERDICT_P99, RL_SIZE_MISS_TTFT},
        {RL_SIZE_MISS_QUEUE, 0, 20, 0, RL_SIZE_VERDICT_BOTH, RL_SIZE_MISS_QUEUE},
        {RL_SIZE_MISS_TPOT, 0, NAN, 0, RL_SIZE_VERDICT_P99, RL_SIZE_MISS_TPOT},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rl_size_candidate c = f->res.c[0];
        c.fails_on = cases[i].fails_on;
        c.fails_at_qps = c.fails_on ? 20 : NAN;
        c.max_qps = cases[i].max_qps;
        c.max_qps_lower_bound = cases[i].lower_bound;
        rl_size_decide(&c, S);
        if (c.meets != cases[i].meets || c.verdict_by != cases[i].by ||
            c.fails_on != cases[i].fails_after)
            fail_msg("case %zu: meets %d verdict_by %s fails_on %d", i, c.meets,
                     rl_size_verdict_name(c.verdict_by), c.fails_on);
        if (c.verdict_by == RL_SIZE_VERDICT_CAPACITY)
            assert_rel(c.fails_at_qps, S, 1e-12);
        else if (!c.meets)
            assert_rel(c.fails_at_qps, 20, 1e-12); /* the p99 verdict's load, kept */
    }
    assert_string_equal(rl_size_verdict_name(RL_SIZE_VERDICT_BOTH), "both");
    assert_string_equal(rl_size_verdict_name(RL_SIZE_VERDICT_P99), "p99");
    assert_string_equal(rl_size_verdict_name(RL_SIZE_VERDICT_CAPACITY), "capacity");
    double sized = f->in.w.qps * (1 + f->in.headroom);
    assert_true(f->res.nmeet > 0);
    cJSON *j = rl_result_size(&f->in, &f->res, 1);
    const cJSON *rows = cJSON_GetObjectItem(j, "rows");
    assert_int_equal(cJSON_GetArraySize(rows), f->res.n);
    int above = 0;
    for (int i = 0; i < f->res.n; i++) {
        const rl_size_candidate *r = &f->res.c[i];
        int lower = r->max_qps_lower_bound; /* a lower bound below decides nothing */
        if (r->meets && isfinite(r->max_qps) && r->max_qps < sized && !lower)
            fail_msg("row %d meets beside max_sustainable_qps %.17g < %.17g", i, r->max_qps, sized);
        const cJSON *row = cJSON_GetArrayItem(rows, i);
        const cJSON *u = cJSON_GetObjectItem(row, "capacity_utilization");
        if (cJSON_IsTrue(cJSON_GetObjectItem(row, "meets")) && cJSON_IsNumber(u) && !lower)
            assert_true(u->valuedouble <= 1 / (1 + f->in.headroom) + 1e-12);
        assert_non_null(cJSON_GetStringValue(cJSON_GetObjectItem(row, "verdict_by")));
        above += isfinite(r->max_qps) && r->max_qps > 1.05 * sized;
    }
    cJSON_Delete(j);
    /* tester48 F2: the search is not capped at the sized load (its bracket
     * climbs until a load fails): some row's figure lies 5% or more above */
    assert_true(above > 0);
}

/* A row that misses says where and why (tester finding 7: `meets false`
 * beside p99s under target, missed at the unprinted headroom load), and its
 * max_sustainable_qps agrees with its verdicts.  The recommendation at 30
 * req/s (2 replicas, capacity about 51 req/s) re-verified with headroom 1.0
 * (sized for 60 req/s) meets at 30 and misses at 60: fails_at_qps = 60
 * exactly, fails_on names the target its p99 at 60 req/s is over, and
 * max_sustainable_qps lies in [30, 60]. */
static void test_row_says_why_it_fails(void **state)
{
    fixture *f = *state;
    /* the hold: the search's figure within [lo, hi] of the run at the load
     * (serve.h rl_serve_capacity_with_run) */
    assert_rel(rl_size_verified_capacity(0, 20, 24), 20, 1e-12);
    assert_rel(rl_size_verified_capacity(27.21, 20, 24), 24, 1e-12);
    assert_rel(rl_size_verified_capacity(21.8, 24, INFINITY), 24, 1e-12);
    assert_rel(rl_size_verified_capacity(30, 24, INFINITY), 30, 1e-12);
    assert_true(isnan(rl_size_verified_capacity(NAN, 24, INFINITY)));
    char why[64];
    assert_string_equal(rl_size_miss_names(RL_SIZE_MISS_TTFT | RL_SIZE_MISS_TPOT, why, sizeof why),
                        "ttft_p99+tpot_p99");
    assert_string_equal(rl_size_miss_names(0, why, sizeof why), "");
    rl_size_input in = f->in;
    in.headroom = 1.0;
    rl_size_candidate c = f->res.c[0];
    char err[512];
    assert_int_equal(rl_size_evaluate(&in, &c, 2, 1, err, sizeof err), 0);
    assert_false(c.meets);
    assert_int_equal(rl_size_verify(&in, &c, err, sizeof err), 0);
    assert_false(c.meets);
    assert_true(c.ttft_p99 <= in.slo_ttft && c.tpot_p99 <= in.slo_tpot); /* met at the load */
    assert_rel(c.fails_at_qps, 60, 1e-12);
    assert_true(c.fails_on != 0);
    if (c.fails_on & RL_SIZE_MISS_TTFT)
        assert_true(c.sized_ttft_p99 > in.slo_ttft);
    if (c.fails_on & RL_SIZE_MISS_TPOT)
        assert_true(c.sized_tpot_p99 > in.slo_tpot);
    assert_true(c.max_qps >= 30 && c.max_qps <= 60);
    /* the JSON row carries them */
    rl_size_result one = {.c = &c, .n = 1};
    cJSON *j = rl_result_size(&in, &one, 1);
    const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0);
    assert_rel(cJSON_GetObjectItem(row, "fails_at_qps")->valuedouble, 60, 1e-12);
    assert_string_equal(cJSON_GetObjectItem(row, "fails_on")->valuestring,
                        rl_size_miss_names(c.fails_on, why, sizeof why));
    assert_rel(cJSON_GetObjectItem(row, "ttft_p99_at_sized_s")->valuedouble, c.sized_ttft_p99, 1e-12);
    /* tester76 #3: the rows' ttft_p99/tpot_p99 are the run at --qps, not at
     * sized_for_qps (2 x qps at headroom 1): latency_at_qps names their load,
     * in the JSON and as a header line of the table */
    assert_rel(cJSON_GetObjectItem(j, "latency_at_qps")->valuedouble, in.w.qps, 1e-12);
    assert_rel(cJSON_GetObjectItem(j, "sized_for_qps")->valuedouble, 2 * in.w.qps, 1e-12);
    char rerr[256], want[64];
    char *text = rl_report_render(j, RL_FMT_TABLE, rerr, sizeof rerr);
    assert_non_null(text);
    snprintf(want, sizeof want, "\nlatency_at_qps               %g\n", in.w.qps);
    if (!strstr(text, want))
        fail_msg("no '%s' in the table: %.600s", want, text);
    free(text);
    cJSON_Delete(j);
    /* every row of the search: meets exactly when nothing failed, and no
     * capacity above the load a missing row failed at */
    for (int i = 0; i < f->res.n; i++) {
        const rl_size_candidate *r = &f->res.c[i];
        assert_int_equal(r->meets, r->fails_on == 0);
        if (!r->meets)
            assert_true(r->max_qps <= r->fails_at_qps);
    }
}

/* Frontier: cheapest first, each with a strictly lower TPOT p99. */
/* An overloaded deployment does not meet the targets even when its p99
 * latencies look fine: the recommendation at 30 req/s, with its replicas cut
 * to a quarter, completes requests at under RL_SIZE_KEEP_UP (80%) of the
 * offered rate, so it fails however lax the latency targets. */
static void test_overload_never_meets(void **state)
{
    fixture *f = *state;
    assert_true(f->res.nmeet > 0);
    rl_size_candidate c = f->res.c[0];
    rl_size_input lax = f->in;
    lax.slo_ttft = lax.slo_tpot = 1e9;
    char err[512];
    assert_int_equal(rl_size_evaluate(&lax, &c, 1, 1, err, sizeof err), 0);
    assert_true(c.meets);
    c.replicas = c.replicas / 4 > 0 ? c.replicas / 4 : 1;
    assert_int_equal(rl_size_evaluate(&lax, &c, 8, 1, err, sizeof err), 0); /* 8x the load */
    assert_false(c.meets);
    /* at 20x the load even 4x the replicas miss: the candidate keeps the
     * largest count tried, and its chips and cost are that count's */
    rl_size_candidate big = f->res.c[0];
    int R0 = big.replicas;
    assert_int_equal(rl_size_resize(&f->in, &big, 20, 1, err, sizeof err), -1);
    assert_true(big.replicas > R0);
    assert_int_equal(big.chips_total,
                     big.chips * (big.replicas + (big.policy == RL_POLICY_DISAGG ? big.prefill_replicas : 0)));
    assert_rel(big.cost_per_hour, 2.5 * (double)big.chips_total, 1e-12);
}

/* fixND #9: at a lighter load the sensitivity table's "fewest chips that
 * meet" is the smallest replica count that meets there, not one held at
 * half the recommendation's (resize_from's floor was R0 / 2 at any load, so
 * QPS x0.25 of a 4-replica row read 2 replicas when 1 meets).  Expected:
 * from 4 x the recommendation's R0 replicas, the count R found at 0.25 x
 * the load meets there, R - 1 does not (R > 1), and R <= R0 (R0 meets the
 * whole load; before, the floor 4 R0 / 2 gave 2 R0). */
static void test_resize_lighter_load_is_fewest(void **state)
{
    fixture *f = *state;
    assert_true(f->res.nmeet > 0);
    rl_size_candidate b = f->res.c[0];
    b.replicas *= 4; /* a deployment 4x larger than needed, so the floor R0 / 2 binds */
    if (b.policy == RL_POLICY_DISAGG)
        b.prefill_replicas *= 4;
    char err[512];
    int R = rl_size_resize(&f->in, &b, 0.25, 1, err, sizeof err);
    assert_true(R >= 1);
    assert_true(b.meets);
    assert_true(R <= f->res.c[0].replicas); /* R0 meets the whole load */
    if (R > 1 && b.policy != RL_POLICY_DISAGG) {
        rl_size_candidate fewer = b;
        fewer.replicas = R - 1;
        assert_int_equal(rl_size_evaluate(&f->in, &fewer, 0.25, 1, err, sizeof err), 0);
        assert_false(fewer.meets);
    }
    print_message("fixND #9: %d replicas at 0.25 x load (recommendation %d, search from %d)\n",
                  R, f->res.c[0].replicas, 4 * f->res.c[0].replicas);
}

/* Issue 14 (fixUA): with ~30 replicas the count in the system still rises
 * from its empty start over much of a 30,000-request run (its ramp), and
 * the keep-up test read that rise as a growing queue.  llama3-8b on H100
 * (bf16, one chip a replica, continuous B<=256), 1000 + 100 tokens at 1000
 * req/s (30,000 requests: size's 120 s floor, capped), TTFT p99 2 s, TPOT
 * p99 50 ms.  Expected 29 replicas, no tolerance (one seeded draw): `simulate
 * --replicas 28 --requests 30000` misses TPOT p99 (52.2 ms) and sustains
 * 963.4 req/s, --replicas 29 meets (TPOT p99 40.4 ms) and sustains 1002.3,
 * the figure asserted here to be at least the load.  Before the fix the walk
 * read 29-31 replicas as "queue grows" (ramp_only runs, completions keeping
 * up) and returned 32. */
static void test_resize_ramp_is_not_backlog(void **state)
{
    (void)state;
    rl_model m = load_model("llama3-8b", NULL, 0);
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    rl_size_input in = {.m = &m, .hw = &h, .nhw = 1, .hbm_reserve = 0.1, .slo_ttft = 2,
                        .slo_tpot = 0.05, .calibrated = 1};
    in.w = (rl_workload){.n = 30000, .qps = 1000, .prompt = {RL_DIST_FIXED, 1000, 0},
                         .output = {RL_DIST_FIXED, 100, 0}, .seed = 1,
                         .max_context = m.max_context};
    rl_size_candidate c = {.p = {RL_BF16, RL_BF16, RL_BF16}, .chips = 1, .pp = 1, .ep = 1,
                           .layout = RL_ATTN_LAYOUT_TP, .policy = RL_POLICY_CONTINUOUS,
                           .max_seqs = 256, .max_tokens = 8192, .replicas = 20};
    char err[512];
    int R = rl_size_resize(&in, &c, 1, 1, err, sizeof err);
    assert_int_equal(R, 29);
    assert_true(c.meets);
    assert_true(c.ramp_only); /* kept up as far as the run can tell */
    assert_int_equal(rl_size_capacity(&in, &c, err, sizeof err), 0);
    assert_true(c.max_qps >= in.w.qps);
}

static void test_frontier_monotone(void **state)
{
    fixture *f = *state;
    int idx[256];
    assert_true(f->res.n <= 256);
    int n = rl_size_frontier(&f->res, idx);
    assert_true(n >= 1);
    /* the first is the fastest of the cheapest rows (the first ranked on a
     * tie), and no meeting row dominates a frontier row (size.h) */
    const rl_size_candidate *c = f->res.c;
    int first = 0;
    for (int i = 1; i < f->res.n && c[i].meets && c[i].cost_per_hour == c[0].cost_per_hour; i++)
        first = c[i].tpot_p99 < c[first].tpot_p99 ? i : first;
    assert_int_equal(idx[0], first);
    for (int i = 1; i < n; i++) {
        assert_true(c[idx[i]].cost_per_hour > c[idx[i - 1]].cost_per_hour);
        assert_true(c[idx[i]].tpot_p99 < c[idx[i - 1]].tpot_p99);
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < f->res.n && c[j].meets; j++)
            assert_false((c[j].cost_per_hour <= c[idx[i]].cost_per_hour &&
                          c[j].tpot_p99 < c[idx[i]].tpot_p99) ||
                         (c[j].cost_per_hour < c[idx[i]].cost_per_hour &&
                          c[j].tpot_p99 <= c[idx[i]].tpot_p99));
}

/* tester15 F-size-1: rows at one cost, each faster than every cheaper row,
 * all stayed on the frontier (five 1 x h100-sxm rows at 4.25 USD/h, TPOT
 * p99 10.6, 9.6, 7.9, 7.3, 7.0 ms, beside two at 2.25 USD/h, 13.3 ms).  The
 * tester's rows by hand: of each cost only the lowest TPOT is undominated,
 * and of two rows equal in both the first ranked stays: rows 0 and 6 (no
 * tolerance: indices).  A dearer row no faster than a cheaper one (row 7,
 * 7.0 ms at 6 USD/h) and a row that misses the targets stay off. */
static void test_frontier_drops_equal_cost_rows(void **state)
{
    (void)state;
    static const double cost[] = {2.25, 2.25, 4.25, 4.25, 4.25, 4.25, 4.25, 6, 8};
    static const double tpot[] = {13.3, 13.3, 10.6, 9.6, 7.9, 7.3, 7.0, 7.0, 1.0};
    enum { N = sizeof cost / sizeof cost[0] };
    static rl_size_candidate c[N];
    memset(c, 0, sizeof c);
    for (int i = 0; i < N; i++) {
        c[i].meets = i < N - 1;
        c[i].cost_per_hour = cost[i];
        c[i].tpot_p99 = tpot[i] * 1e-3;
    }
    rl_size_result r = {.c = c, .n = N, .nmeet = N - 1};
    int idx[N];
    assert_int_equal(rl_size_frontier(&r, idx), 2);
    assert_int_equal(idx[0], 0);
    assert_int_equal(idx[1], 6);
}

/* tester16 F5: size's frontier follows pareto's dominance rule, tolerance
 * included (pareto.h RL_PARETO_REL_TOL, 1e-6): a row 5e-7 dearer and 10%
 * faster than row 0 drops row 0; a row at nearly twice the cost only 5e-7
 * faster than it is no trade-off and stays off; a row at 6 USD/h 10 ms
 * (faster beyond the tolerance) stays.  By hand: rows 1 and 3. */
static void test_frontier_tolerance(void **state)
{
    (void)state;
    static const double cost[] = {2.25, 2.25 * (1 + 5e-7), 4.25, 6};
    static const double tpot[] = {13.3, 12.0, 12.0 * (1 - 5e-7), 10};
    enum { N = sizeof cost / sizeof cost[0] };
    static rl_size_candidate c[N];
    memset(c, 0, sizeof c);
    for (int i = 0; i < N; i++) {
        c[i].meets = 1;
        c[i].cost_per_hour = cost[i];
        c[i].tpot_p99 = tpot[i] * 1e-3;
    }
    rl_size_result r = {.c = c, .n = N, .nmeet = N};
    int idx[N];
    assert_int_equal(rl_size_frontier(&r, idx), 2);
    assert_int_equal(idx[0], 1);
    assert_int_equal(idx[1], 3);
}

/* A TPOT target below the weight-read time of the whole domain (llama3-8b
 * bf16, 16 GB over 8 x 3.35 TB/s = 0.6 ms) cannot be met: no candidate. */
static void test_impossible_targets(void **state)
{
    fixture *f = *state;
    rl_size_input in = f->in;
    in.slo_tpot = 1e-4;
    rl_size_result r;
    char err[512];
    assert_int_equal(rl_size_search(&in, &r, err, sizeof err), 0);
    assert_int_equal(r.nmeet, 0);
    assert_true(r.pruned > 0);
    /* the reason names the target and the best any configuration reaches:
     * one sequence's decode step, llama3-8b on 8 x H100 ~ 16 GB / 26.8 TB/s */
    char why[512];
    rl_size_why_none(&in, &r, why, sizeof why);
    assert_non_null(strstr(why, "TPOT target (0.1 ms)"));
    assert_true(r.min_tpot_s > 3e-4 && r.min_tpot_s < 3e-3);
    rl_size_result_free(&r);
    in.slo_tpot = f->in.slo_tpot;
    in.slo_ttft = 1e-4; /* below any prefill of 1500 tokens */
    assert_int_equal(rl_size_search(&in, &r, err, sizeof err), 0);
    assert_int_equal(r.n, 0);
    rl_size_why_none(&in, &r, why, sizeof why);
    assert_non_null(strstr(why, "TTFT target (0.1 ms) is below the fastest prefill"));
    rl_size_result_free(&r);
    in.slo_ttft = f->in.slo_ttft;
    in.slo_tpot = 0;
    assert_int_equal(rl_size_search(&in, &r, err, sizeof err), -1);
}

/* tester35 F1: llama3-8b on H100 at 0.5 req/s, prompts 1000 and outputs
 * 100 tokens, TPOT p99 <= 1.9 ms.  tp8's calibrated decode step at context
 * 1050 is 1.734 ms at B=1 and 2.000 ms at B=16 (step --chips 8, tester35),
 * so the step at the smallest cap is over the target, yet at 0.6 req/s the
 * batch stays near 1 and `simulate --chips 8 --max-seqs 16` meets it
 * (TPOT p99 1.812 ms).  The search used to rule every plan out analytically
 * on the step at the cap (nmeet 0, "no configuration meets"); it must keep
 * the plan and find tp8 B<=16 meeting both targets (exact: the simulated
 * TPOT p99 <= 1.9 ms, the target itself). */
static void test_tpot_prune_is_lower_bound(void **state)
{
    fixture *f = *state;
    rl_size_input in = f->in;
    in.prec = &(rl_precision){RL_BF16, RL_BF16, RL_BF16};
    in.nprec = 1;
    in.calibrated = 1;
    in.slo_ttft = 1;
    in.slo_tpot = 0.0019;
    in.w = (rl_workload){.n = 300, .qps = 0.5, .prompt = {RL_DIST_FIXED, 1000, 0},
                         .output = {RL_DIST_FIXED, 100, 0}, .seed = 1};
    rl_size_result r;
    char err[512];
    assert_int_equal(rl_size_search(&in, &r, err, sizeof err), 0);
    if (r.nmeet == 0) {
        char why[512];
        rl_size_why_none(&in, &r, why, sizeof why);
        fail_msg("no configuration meets: %s", why);
    }
    const rl_size_candidate *b = &r.c[0];
    assert_true(b->meets && b->tpot_p99 <= in.slo_tpot);
    assert_int_equal(b->chips, 8);
    assert_int_equal(b->max_seqs, 16);
    rl_size_result_free(&r);
}

/* review36 M1: llama3.1-8b, H100, 2 req/s, prompts lognormal:60000:0.3,
 * 200 output tokens, TPOT p99 8 ms.  A tp1 step of one sequence takes
 * 6.03 ms at context 1 but 9.13 ms at 60,000 tokens (review36's `step`
 * hand check), so the sample's 99th-percentile prompt (~115k tokens,
 * 60000 x exp(2.33 x 0.3 - 0.045)) is over the target: no tp1 kind can
 * meet the p99 and none is simulated.  Old code bounded at the shortest
 * draw (1 token) and simulated four tp1 plans, all failing on tpot_p99. */
static void test_tpot_bound_at_sample_quantile(void **state)
{
    fixture *f = *state;
    rl_override ctx = {"max_context", "131072"};
    rl_model m = load_model("llama3.1-8b", &ctx, 1);
    rl_size_input in = f->in;
    in.m = &m;
    in.prec = &(rl_precision){RL_BF16, RL_BF16, RL_BF16};
    in.nprec = 1;
    in.slo_ttft = 30;
    in.slo_tpot = 0.008;
    /* 300 requests (1000 until stop 52; the 99th-percentile prompt of 300
     * is over the target too) and up to 2 chips a replica (the tp1 kinds
     * the bound drops and the tp2 ones that meet; 4 and 8 chips added
     * rows, not checks): 0.9 CPU-s instead of 8 (2-core VM, 2026-12-06).
     * With the old bound (the shortest draw, 1 token) it still fails:
     * tp1 plans simulated. */
    in.max_chips = 2;
    in.w = (rl_workload){.n = 300, .qps = 2,
                         .prompt = {RL_DIST_LOGNORMAL, 60000, 0.3},
                         .output = {RL_DIST_FIXED, 200, 0}, .seed = 1};
    rl_size_result r;
    char err[512];
    assert_int_equal(rl_size_search(&in, &r, err, sizeof err), 0);
    for (int i = 0; i < r.n; i++)
        if (r.c[i].chips == 1)
            fail_msg("1-chip plan simulated: TPOT p99 %.4f s", r.c[i].tpot_p99);
    assert_true(r.nmeet > 0 && r.c[0].meets); /* the bound drops no meeting plan */
    rl_size_result_free(&r);
}

/* Long prompts (lognormal mean 6000 tokens, llama3-70b with a 128k
 * context) at 30 req/s under TTFT p99 0.8 s: only 8-chip H100 replicas
 * prefill fast enough, while the analytic estimate ranks 2- and 4-chip
 * replicas cheaper.  The search simulates the cheapest plan of every
 * replica size, so it finds the 8-chip answer (a user test saw none: 24
 * smaller plans took every simulation slot). */
static void test_every_replica_size_simulated(void **state)
{
    fixture *f = *state;
    rl_override ctx = {"max_context", "131072"};
    rl_model m = load_model("llama3-70b", &ctx, 1);
    rl_size_input in = f->in;
    in.m = &m;
    in.slo_ttft = 0.8;
    in.slo_tpot = 0.04;
    in.w.qps = 30;
    in.w.prompt = (rl_dist){RL_DIST_LOGNORMAL, 6000, 0.8};
    in.w.output = (rl_dist){RL_DIST_LOGNORMAL, 250, 0.8};
    in.headroom = 0; /* the replica sizes searched, at the load as stated */
    rl_size_result r;
    char err[512];
    assert_int_equal(rl_size_search(&in, &r, err, sizeof err), 0);
    assert_true(r.nmeet > 0);
    assert_int_equal(r.c[0].chips, 8);
    rl_size_result_free(&r);
}

/* tester16 F6: llama3-8b on H100 at 5 req/s (1000/100-token requests,
 * TTFT p99 <= 1 s, TPOT p99 <= 50 ms): bf16, int8 and fp8 one-chip plans
 * all cost one chip, so the ranking decides on measured load sustained.
 * fp8 end to end sustains ~57 req/s against bf16's ~35 (size of stop 25,
 * calibrated), so it ranks first; before the fix no fp8 plan was
 * simulated: a replica kind ignored precision and the 24 plans the bound
 * let through were bf16 and int8 ones of the same estimated cost. */
static void test_equal_cost_precisions_simulated(void **state)
{
    fixture *f = *state;
    rl_size_input in = f->in;
    in.calibrated = 1;
    in.slo_ttft = 1;
    in.slo_tpot = 0.05;
    in.w = (rl_workload){.n = 500, .qps = 5, .prompt = {RL_DIST_FIXED, 1000, 0},
                         .output = {RL_DIST_FIXED, 100, 0}, .seed = 1};
    rl_size_result r;
    char err[512];
    assert_int_equal(rl_size_search(&in, &r, err, sizeof err), 0);
    assert_true(r.nmeet > 0);
    assert_int_equal(r.c[0].chips, 1);
    assert_int_equal(r.c[0].p.weights, RL_FP8);
    int bf16 = 0;
    for (int i = 1; i < r.n; i++)
        bf16 += r.c[i].chips == 1 && r.c[i].p.weights == RL_BF16 &&
                r.c[i].max_qps < r.c[0].max_qps / 1.05;
    assert_true(bf16 > 0); /* a one-chip bf16 row sustaining 5% less ranks below */
    rl_size_result_free(&r);
}

/* The search at 5 req/s over nhw profiles from hw, where at least one has
 * no price: cost is then counted in chips; something meets. */
static rl_size_result unpriced_search(const fixture *f, const rl_hw *hw, int nhw)
{
    rl_size_input in = f->in;
    in.hw = hw;
    in.nhw = nhw;
    in.w.qps = 5;
    if (rl_san_small()) /* its callers check relations between rows, not sample figures */
        in.w.n = RL_SAN_SMALL_REQUESTS;
    rl_size_result r;
    char err[512];
    assert_int_equal(rl_size_search(&in, &r, err, sizeof err), 0);
    assert_false(r.priced);
    assert_true(r.nmeet > 0);
    return r;
}

/* Issue 14's DeepSeek-V3 case (prompts lognormal 2000 / outputs 500, TTFT
 * p99 <= 2 s, TPOT p99 <= 50 ms) at 6 req/s: on one 8 x B200 replica in
 * fp8, continuous batching (B <= 256) and chunked prefill of 512 tokens
 * (B <= 128) both meet the targets at the same cost (8 chips); the
 * continuous plan sustains more than 5% more load (about 17 vs 8 req/s with
 * issue 12's collectives in the step; its TTFT is far from the target), so
 * it ranks first: the most margin at equal cost.  (At the issue's 10 req/s
 * the chunked plan no longer meets with the merged step cost.) */
static void test_tie_prefers_margin(void **state)
{
    (void)state;
    rl_model m = load_model("deepseek-v3", NULL, 0);
    rl_hw h = load_hw("b200", NULL, 0);
    char e0[256]; /* b200's op list without its engine's kernel tables (issue 12), which make
                     the step slower: the case was set up on the ideal op list */
    assert_int_equal(rl_engines_select(&h.engines, "ideal", h.origin, e0, sizeof e0), 0);
    rl_size_input in = {.m = &m, .hw = &h, .nhw = 1, .hbm_reserve = 0.1, .slo_ttft = 2,
                        .slo_tpot = 0.05, .headroom = RL_SIZE_HEADROOM, .calibrated = 1};
    in.w = (rl_workload){.n = 1000, .qps = 6, .prompt = {RL_DIST_LOGNORMAL, 2000, 0.8},
                         .output = {RL_DIST_LOGNORMAL, 500, 0.8}, .seed = 1,
                         .max_context = m.max_context};
    rl_size_candidate a = {.hw = 0, .p = {RL_FP8, RL_FP8, RL_FP8}, .chips = 8,
                           .policy = RL_POLICY_CONTINUOUS, .max_seqs = 256, .max_tokens = 8192,
                           .replicas = 1};
    rl_size_candidate b = a;
    b.policy = RL_POLICY_CHUNKED;
    b.max_seqs = 128;
    b.max_tokens = 512;
    char err[512];
    rl_size_candidate *c[2] = {&a, &b};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(rl_size_evaluate(&in, c[i], 1, 1, err, sizeof err), 0);
        assert_true(c[i]->meets);
        assert_int_equal(rl_size_capacity(&in, c[i], err, sizeof err), 0);
    }
    assert_true(a.cost_per_hour == b.cost_per_hour);
    assert_true(a.max_qps > 1.05 * b.max_qps);
    assert_true(rl_size_rank(&a, &b) < 0 && rl_size_rank(&b, &a) > 0);
}

/* tester5 #2: at equal cost the better-evidenced row ranks first, before
 * the load it sustains: an estimated int8 row (max 24.8 req/s, the
 * tester's) after a calibrated bf16 one (19.8 req/s) of the same 4.25 USD/h;
 * the search sets every row's optimism from its mode and ranks by it. */
static void test_tie_prefers_evidence(void **state)
{
    fixture *f = *state;
    rl_size_candidate est = {.meets = 1, .cost_per_hour = 4.25, .max_qps = 24.8, .optimism = 1,
                             .p = {RL_INT8, RL_INT8, RL_BF16}};
    rl_size_candidate cal = {.meets = 1, .cost_per_hour = 4.25, .max_qps = 19.8, .optimism = 0,
                             .p = {RL_BF16, RL_BF16, RL_BF16}};
    assert_true(rl_size_rank(&cal, &est) < 0 && rl_size_rank(&est, &cal) > 0);
    const rl_size_result *r = &f->res;
    for (int i = 0; i < r->n; i++) {
        const char *mode = rl_size_mode(&f->in, &r->c[i]);
        assert_int_equal(r->c[i].optimism, !strcmp(mode, "ideal") ? 2 : !strcmp(mode, "estimated"));
        if (i > 0 && r->c[i].meets == r->c[i - 1].meets &&
            r->c[i].cost_per_hour == r->c[i - 1].cost_per_hour)
            assert_true(r->c[i].optimism >= r->c[i - 1].optimism);
        /* derived once when ranked (CLOSING21: the reports asked again), and
         * what a fresh derivation gives */
        rl_size_candidate fresh = r->c[i];
        fresh.mode = NULL;
        assert_ptr_equal(mode, r->c[i].mode);
        assert_string_equal(mode, rl_size_mode(&f->in, &fresh));
        assert_true(r->c[i].share == rl_size_share(&f->in, &fresh));
    }
    /* a new run of a row drops its label: it follows the run's decode batch */
    rl_size_candidate again = r->c[0];
    char err[512];
    assert_int_equal(rl_size_evaluate(&f->in, &again, 1, 1, err, sizeof err), 0);
    assert_null(again.mode);
}

/* tester51 F7: at equal cost and evidence, a row whose capacity was
 * resolved and meets (verdict_by both: 24.28 req/s found, sized for 24)
 * ranks before one whose verdict rests on its p99s alone (a lower bound of
 * 23.9 req/s below the sized load decides nothing: verdict_by p99).  Both
 * figures lie in one 5% band (floor(log_1.05) = 65, 23.84-25.03 req/s), so
 * before the fix the next key, the p99 row's wider bf16 weights, put it
 * first.  An unresolved null figure ranks after the resolved row too, and
 * the p99 rows carry a caution naming why (rl_size_p99_caution); the
 * resolved row none. */
static void test_tie_prefers_resolved_capacity(void **state)
{
    (void)state;
    rl_size_input in = {.headroom = RL_SIZE_HEADROOM};
    in.w.qps = 20; /* sized for 24 */
    rl_size_candidate both = {.cost_per_hour = 57.6, .max_qps = 24.28,
                              .p = {RL_FP8, RL_FP8, RL_FP8}};
    rl_size_candidate low = {.cost_per_hour = 57.6, .max_qps = 23.9, .max_qps_lower_bound = 1,
                             .p = {RL_BF16, RL_BF16, RL_BF16}};
    rl_size_candidate null = low;
    null.max_qps = NAN;
    null.max_qps_lower_bound = 0;
    null.max_qps_unresolved = RL_SERVE_UNRESOLVED_BAND;
    rl_size_candidate *c[] = {&both, &low, &null};
    for (int i = 0; i < 3; i++) {
        rl_size_decide(c[i], rl_size_sized_qps(&in));
        assert_true(c[i]->meets);
    }
    assert_int_equal(both.verdict_by, RL_SIZE_VERDICT_BOTH);
    assert_int_equal(low.verdict_by, RL_SIZE_VERDICT_P99);
    assert_int_equal(null.verdict_by, RL_SIZE_VERDICT_P99);
    assert_true(rl_size_qps_band(both.max_qps) == rl_size_qps_band(low.max_qps));
    for (int i = 1; i < 3; i++)
        assert_true(rl_size_rank(&both, c[i]) < 0 && rl_size_rank(c[i], &both) > 0);
    char buf[2048];
    assert_int_equal(rl_size_p99_caution(&in, &both, buf, sizeof buf), 0);
    assert_int_equal(rl_size_p99_caution(&in, &low, buf, sizeof buf), 1);
    assert_non_null(strstr(buf, "verdict_by p99"));
    assert_non_null(strstr(buf, "lower bound"));
    assert_int_equal(rl_size_p99_caution(&in, &null, buf, sizeof buf), 1);
    assert_non_null(strstr(buf, "max_sustainable_qps_unresolved"));
    /* fixJH: every such row carries the mark in the row (JSON verdict_note,
     * the report's meets cell), not only the first row's caution: expected
     * "capacity not established" with its reason on the p99 rows, none on
     * the resolved row */
    assert_int_equal(rl_size_verdict_note(&in, &both, buf, sizeof buf), 0);
    assert_string_equal(buf, "");
    assert_int_equal(rl_size_verdict_note(&in, &low, buf, sizeof buf), 1);
    assert_non_null(strstr(buf, "capacity not established"));
    assert_non_null(strstr(buf, "lower bound"));
    assert_int_equal(rl_size_verdict_note(&in, &null, buf, sizeof buf), 1);
    assert_non_null(strstr(buf, "max_sustainable_qps_unresolved"));
    assert_non_null(strstr(buf, "the longest prompts' prefill"));
    /* issue 14: under --burst 10 (gamma arrivals, CV 10) the unresolved
     * tail is the clumps' queueing for the configuration's service, not
     * "the requests' own service (the longest prompts' prefill)", which
     * the note read with fixed 1000-token prompts (TTFT p99 726 ms beside
     * a prefill of a few tens of ms); expected: the burst wording, the
     * prompts' not; before this change the note was the same text as
     * without --burst */
    in.w.arrival = RL_ARRIVAL_GAMMA;
    in.w.burst_cv = 10;
    assert_true(rl_size_burst(&in) == 10);
    assert_int_equal(rl_size_verdict_note(&in, &null, buf, sizeof buf), 1);
    if (!strstr(buf, "the tail is set by burst queueing: --burst 10 arrivals come in clumps, "
                     "and a clump's requests wait behind one another for this configuration's "
                     "service time at any mean load") ||
        strstr(buf, "own service"))
        fail_msg("%s", buf);
    assert_int_equal(rl_size_p99_caution(&in, &null, buf, sizeof buf), 1);
    assert_non_null(strstr(buf, "burst queueing"));
}

/* issue 14 #3: a row whose precision the search chose below 16 bits
 * (no --keep-precision) is cautioned as not asked for; bf16, a quantized =
 * "experts" model's own MXFP4 weights and any --keep-precision row are not
 * (expected: 1 for fp8/fp8/fp8 and int8 weights, 0 for the others; the
 * function is new, so the test fails before by construction: nothing said
 * so before) */
static void test_precision_not_asked_cautioned(void **state)
{
    (void)state;
    rl_model m = {.quantized = RL_QUANT_EXPERTS};
    rl_size_input in = {.m = &m};
    rl_size_candidate c = {.p = {RL_FP8, RL_FP8, RL_FP8}};
    char buf[640];
    assert_int_equal(rl_size_precision_caution(&in, &c, buf, sizeof buf), 1);
    assert_non_null(strstr(buf, "(weights fp8, KV cache fp8, compute fp8) is one the search "
                                "chose, not one asked for"));
    c.p = (rl_precision){RL_INT8, RL_BF16, RL_BF16};
    assert_int_equal(rl_size_precision_caution(&in, &c, buf, sizeof buf), 1);
    c.p = rl_precision_default();
    assert_int_equal(rl_size_precision_caution(&in, &c, buf, sizeof buf), 0);
    assert_string_equal(buf, "");
    c.p = (rl_precision){RL_MXFP4, RL_BF16, RL_BF16}; /* the checkpoint's own */
    assert_int_equal(rl_size_precision_caution(&in, &c, buf, sizeof buf), 0);
    c.p = (rl_precision){RL_FP8, RL_FP8, RL_FP8};
    in.prec = &c.p;
    in.nprec = 1; /* --keep-precision */
    assert_int_equal(rl_size_precision_caution(&in, &c, buf, sizeof buf), 0);
}

/* tester5 #3: two rows that differ only in the compute dtype had one
 * label ("tpu-v5e 7x8 tp8 w:int8 kv:int8 ..." with int8 and bf16 compute):
 * the label names the compute, int8 weights with bf16 compute "c:bf16";
 * tester76 finding 2: int8 end to end names it too ("c:int8"), since
 * --weights int8 --kv int8 alone simulates bf16 compute. */
static void test_label_names_compute(void **state)
{
    fixture *f = *state;
    rl_size_candidate c = {.hw = 1, .p = {RL_INT8, RL_INT8, RL_BF16}, .chips = 8, .pp = 1, .ep = 1,
                           .layout = RL_ATTN_LAYOUT_TP, .policy = RL_POLICY_CONTINUOUS,
                           .max_seqs = 64, .replicas = 7};
    rl_size_input in = f->in;
    in.nhw = 2;
    char label[160];
    rl_size_label(&in, &c, label, sizeof label);
    assert_string_equal(label, "tpu-v5e 7x8 tp8 w:int8 kv:int8 c:bf16 continuous B<=64");
    c.p.compute = RL_INT8;
    rl_size_label(&in, &c, label, sizeof label);
    assert_string_equal(label, "tpu-v5e 7x8 tp8 w:int8 kv:int8 c:int8 continuous B<=64");
}

/* Item 8 of issue 14: size searches attention data parallel and expert
 * parallel degrees for an MoE model (serve.h rl_attn_layout,
 * rl_ops_cost_experts).  Mixtral-8x7B (8 experts) on H100 up to 2 chips
 * per replica, 0.5 req/s of 200-token prompts: at least one simulated row
 * runs attn-dp on 2 chips (each replica kind has its cheapest plan
 * simulated), every row's label names its layout, and attn-dp holds one
 * copy of the KV (kv_copies 1) where TP on 2 chips of K = 8 heads holds
 * one too; a dense model gets no attn-dp row.  No row is tp1 ep2: on 2
 * chips that is attn-dp2's plan (size.c add_stage_layouts; tester18 F13:
 * both were listed, with equal p99s). */
static void test_moe_searches_attn_dp(void **state)
{
    fixture *f = *state;
    rl_model moe = load_model("mixtral-8x7b", NULL, 0);
    rl_size_input in = f->in;
    in.m = &moe;
    in.max_chips = 2;
    in.headroom = 0;
    in.slo_ttft = 2;
    in.slo_tpot = 0.1;
    in.w = (rl_workload){.n = 200, .qps = 0.5, .prompt = {RL_DIST_FIXED, 200, 0},
                         .output = {RL_DIST_FIXED, 20, 0}, .seed = 3};
    rl_size_result r;
    char err[512], label[160];
    assert_int_equal(rl_size_search(&in, &r, err, sizeof err), 0);
    int dp = 0;
    for (int i = 0; i < r.n; i++) {
        rl_size_label(&in, &r.c[i], label, sizeof label);
        char want[64], lay[48];
        rl_size_layout_name(&r.c[i], lay, sizeof lay);
        snprintf(want, sizeof want, " %s ", lay);
        if (!strstr(label, want))
            fail_msg("label '%s' does not name its layout '%s'", label, want);
        if (r.c[i].ep > 1)
            fail_msg("row '%s': tp1 ep2 is attn-dp2's plan, searched as attn-dp2", label);
        dp += r.c[i].layout == RL_ATTN_LAYOUT_DP;
        if (r.c[i].layout == RL_ATTN_LAYOUT_DP)
            assert_int_equal(r.c[i].chips, 2);
    }
    assert_true(dp > 0);
    rl_size_result_free(&r);
    in = f->in; /* llama3-8b: dense */
    in.max_chips = 2;
    in.headroom = 0;
    in.w.n = 200;
    in.w.qps = 1;
    assert_int_equal(rl_size_search(&in, &r, err, sizeof err), 0);
    for (int i = 0; i < r.n; i++)
        assert_true(r.c[i].layout == RL_ATTN_LAYOUT_TP && r.c[i].ep == 1);
    rl_size_result_free(&r);
}

/* Item 8 of issue 14: TP x PP.  Llama-3-405B in bf16 (811 GB of weights)
 * does not fit one 8 x H100 node (640 GB), so the search goes on to
 * 16-chip replicas as TP16 (collectives over the NIC between the two
 * nodes) and as PP2 x TP8 (TP in each node, one pipeline send per pass
 * over the NIC; serve.h rl_ops_cost_pipeline), at 1 req/s of 1000-token
 * prompts and 200-token outputs, TTFT p99 <= 2 s, TPOT p99 <= 100 ms.
 * Both layouts are simulated and meet at the same cost (16 chips); the
 * model ranks PP2 x TP8 first: its two streams and its one KV copy per
 * token (TP16 replicates the K = 8 KV heads twice) sustain more load
 * (about 5.9 vs 3.9 req/s when written), where TP16 has the lower TPOT
 * (about 42 vs 53 ms: each PP pass runs the whole model on 8 chips).  The
 * label names the stages ("tp8 pp2"); no kind stops at 8 chips (none
 * holds the model). */
static void test_pipeline_layouts_searched(void **state)
{
    fixture *f = *state;
    rl_model m = load_model("llama3-405b", NULL, 0);
    rl_size_input in = f->in;
    in.m = &m;
    in.prec = &(rl_precision){RL_BF16, RL_BF16, RL_BF16};
    in.nprec = 1;
    in.slo_ttft = 2;
    in.slo_tpot = 0.1;
    in.w = (rl_workload){.n = 200, .qps = 1, .prompt = {RL_DIST_FIXED, 1000, 0},
                         .output = {RL_DIST_FIXED, 200, 0}, .seed = 3};
    rl_size_result r;
    char err[512], label[160];
    assert_int_equal(rl_size_search(&in, &r, err, sizeof err), 0);
    assert_true(r.nmeet > 0);
    int pp = 0, tp16 = 0;
    for (int i = 0; i < r.n; i++) {
        assert_int_equal(r.c[i].chips, 16);
        pp += r.c[i].meets && r.c[i].pp == 2;
        tp16 += r.c[i].meets && r.c[i].pp == 1;
    }
    assert_true(pp > 0 && tp16 > 0);
    const rl_size_candidate *best = &r.c[0];
    assert_int_equal(best->pp, 2);
    rl_size_label(&in, best, label, sizeof label);
    assert_non_null(strstr(label, " tp8 pp2 "));
    for (int i = 1; i < r.n; i++)
        if (r.c[i].pp == 1 && r.c[i].meets) {
            assert_true(r.c[i].cost_per_hour == best->cost_per_hour);
            assert_true(best->max_qps > 1.05 * r.c[i].max_qps);
            assert_true(r.c[i].tpot_p99 < best->tpot_p99);
            break;
        }
    rl_size_result_free(&r);
}

/* A bf16 search of m on the one profile h (hbm_reserve 0.1, the default
 * headroom; max_chips 0: the default), failing the test on an error. */
static rl_size_result bf16_search(rl_model *m, rl_hw *h, long long max_chips, double ttft,
                                  double tpot, rl_workload w)
{
    rl_precision bf16 = {RL_BF16, RL_BF16, RL_BF16};
    rl_size_input in = {.m = m, .hw = h, .nhw = 1, .hbm_reserve = 0.1, .slo_ttft = ttft,
                        .slo_tpot = tpot, .headroom = RL_SIZE_HEADROOM, .nprec = 1,
                        .max_chips = max_chips, .prec = &bf16, .w = w};
    rl_size_result r;
    char err[512];
    if (rl_size_search(&in, &r, err, sizeof err) != 0)
        fail_msg("%s", err);
    return r;
}

/* A kind is kept only when each of its pipeline streams holds the longest
 * request (review-b finding 1): llama2-13b on h100-pcie cut to 8.6 GB of
 * HBM, 3500-token prompts and 400-token outputs.  The 4-chip tp2 pp2
 * kind's KV holds 3900 tokens in all but 3008 per stream; before the fix
 * size simulated it and the whole search failed with the simulator's
 * kv_capacity error.  Now the search succeeds, and every row's streams
 * hold 3900 tokens + 2 pages (serve.h rl_serve_holds). */
static void test_pipeline_kind_holds_per_stream(void **state)
{
    (void)state;
    rl_model m = load_model("llama2-13b", NULL, 0);
    rl_override hbm = {"hbm_bytes", "8.6e9"};
    rl_hw h = load_hw("h100-pcie", &hbm, 1);
    rl_size_result r = bf16_search(&m, &h, 0, 20, 1,
                                   (rl_workload){.n = 200, .qps = 0.5,
                                                 .prompt = {RL_DIST_FIXED, 3500, 0},
                                                 .output = {RL_DIST_FIXED, 400, 0}, .seed = 1});
    assert_true(r.n > 0);
    for (int i = 0; i < r.n; i++) {
        double kv = rl_serve_kv_capacity(&m, &h, r.c[i].chips, r.c[i].pp, r.c[i].ep, r.c[i].p,
                                         0.1, r.c[i].layout, 3900, (double)r.c[i].max_tokens);
        assert_true(rl_serve_holds(kv / (double)r.c[i].pp, 3900, 16));
    }
    rl_size_result_free(&r);
}

/* A domain that does not divide the replica (review-b finding 7):
 * h100-sxm with a 12-chip NVLink domain, replicas up to 32 chips.  16 and
 * 32 chips are no whole number of domains, so no pipeline kind is searched:
 * llama3-8b (dense, TP only) has 6 kinds (1 to 32 chips) of 20 plans
 * (4 policies x 5 caps), each plan pruned or simulated, so pruned + rows
 * <= 120.  Before the fix, 16 / 12 = 1 stage enumerated the TP16 kind
 * twice and 32 / 12 = 2 stages of 16 chips (TP past the domain) were
 * enumerated and refused: 136 pruned.  With a 16-chip domain the 32-chip
 * replica is searched as pp2 of 16. */
static void test_pipeline_stages_fill_domains(void **state)
{
    fixture *f = *state;
    for (int d = 0; d < 2; d++) {
        rl_override dom = {"domain_chips", d ? "16" : "12"};
        rl_hw h = load_hw("h100-sxm", &dom, 1);
        rl_size_input in = f->in;
        in.hw = &h;
        in.max_chips = 32;
        in.slo_ttft = 5;
        in.slo_tpot = 0.2;
        in.prec = &(rl_precision){RL_BF16, RL_BF16, RL_BF16};
        in.nprec = 1;
        in.w = (rl_workload){.n = 100, .qps = 1, .prompt = {RL_DIST_FIXED, 1000, 0},
                             .output = {RL_DIST_FIXED, 100, 0}, .seed = 1};
        rl_size_result r;
        char err[512];
        if (rl_size_search(&in, &r, err, sizeof err) != 0)
            fail_msg("%s", err);
        int pp = 0;
        for (int i = 0; i < r.n; i++) {
            pp += r.c[i].pp > 1;
            if (r.c[i].pp > 1)
                assert_int_equal(r.c[i].chips / r.c[i].pp, d ? 16 : 12);
        }
        assert_true(d ? pp > 0 : pp == 0);
        if (!d)
            assert_true(r.pruned + r.n <= 6 * RL_SIZE_NPOLICIES * RL_SIZE_NCAPS);
        rl_size_result_free(&r);
    }
}

/* review35 L6: size's memory table charges the stage holding the most KV,
 * as step and shard do (shard.h rl_shard_stage_kv_scale).  gemma2-27b bf16
 * (46 layers alternating local / global from a local layer 0, window 4096,
 * 16 KV heads x 128 x 2 x 2 B = 8192 B a token-layer) on h100-sxm cut to a
 * one-chip domain, 2 chips at most: the pp2 kind holds layers 0-22 (12
 * local, 11 global) and 23-45 (11 local, 12 global).  With 6000 + 100
 * token sequences stage 1 holds 11 x 4096 + 12 x 6100 = 118,256 of the
 * 234,508 token-layers (stage 0: 12 x 4096 + 11 x 6100 = 116,252), so a
 * chip holds kv_capacity_tokens x 46 x 8192 x 118,256 / 234,508 B (stop 30:
 * the layer share, x 1/2, 0.85% under).  Arithmetic; 1e-12. */
static void test_memory_busiest_kv_stage(void **state)
{
    (void)state;
    rl_model m = load_model("gemma2-27b", NULL, 0);
    rl_override dom = {"domain_chips", "1"};
    rl_hw h = load_hw("h100-sxm", &dom, 1);
    rl_size_result r = bf16_search(&m, &h, 2, 60, 1,
                                   (rl_workload){.n = 60, .qps = 0.2,
                                                 .prompt = {RL_DIST_FIXED, 6000, 0},
                                                 .output = {RL_DIST_FIXED, 100, 0}, .seed = 1});
    int pp = 0;
    for (int i = 0; i < r.n; i++)
        if (r.c[i].pp == 2) {
            pp++;
            assert_rel(r.c[i].kv_bytes_per_chip,
                       r.c[i].kv_capacity_tokens * 46 * 8192.0 * 118256 / 234508, 1e-12);
            /* review36 M2: the pool is what the binding stage holds (shard.h
             * rl_shard_stage_room).  Stage 1 is both the heaviest (the tied
             * table's copy for the LM head and the final norm) and the
             * busiest KV stage, so with the pool full its chip's weights and
             * KV fill exactly what the memory rule leaves it (h100-sxm's
             * engine, trtllm: memory.h rl_memory_usable_group); stop 30's
             * pool took the layer share, 1/2, and put 0.85% of the KV over
             * it (1e-12) */
            double w = r.c[i].weight_bytes_per_chip;
            assert_rel(w + r.c[i].kv_bytes_per_chip,
                       rl_memory_usable_group(&h, &m, 2, 1, 2 * w, 0) / 2, 1e-12);
            /* and simulate's pool is size's: the same function at the
             * workload's mean length (serve.h rl_serve_workload_len) */
            rl_serve_config c = rl_serve_config_default();
            c.pp = 2;
            c.kv_len = 6100;
            rl_serve_config_hw(&c, &m, &h, 2, r.c[i].p, 0.1);
            assert_rel(c.kv_capacity_tokens, r.c[i].kv_capacity_tokens, 1e-15);
        }
    assert_true(pp > 0);
    rl_size_result_free(&r);
}

/* The rows' band runs count in the work budget (review-b findings 3, 13).
 * llama3-8b on h100-sxm, calibrated (its kernel tables have residuals: a
 * band).  First with tpu-v5e (no band) as the band's profile: no row is
 * banded and no_band names it (1 + index 0).  That run's events W (size.h
 * work_budget, rl_size_result.events: no host load moves them)
 * are the search without band runs; the second search, with the band,
 * gets W: its plans spend it exactly, the budget is checked before each
 * row's band runs (2 simulations), so the best row alone is banded and
 * the other r.n - 1 are counted unbanded, on every run (a count, not a
 * clock: tester16 F10; run twice), and the events are W and that row's
 * band runs alone.  Without a bound every row is banded. */
static void test_band_runs_within_budget(void **state)
{
    (void)state;
    rl_model m = load_model("llama3-8b", NULL, 0);
    rl_hw h = load_hw("h100-sxm", NULL, 0), tpu = load_hw("tpu-v5e", NULL, 0);
    rl_size_input in = {.m = &m, .hw = &h, .nhw = 1, .hbm_reserve = 0.1, .slo_ttft = 2,
                        .slo_tpot = 0.1, .headroom = RL_SIZE_HEADROOM, .nprec = 1,
                        .prec = &(rl_precision){RL_BF16, RL_BF16, RL_BF16}, .calibrated = 1,
                        .band_hw = &tpu};
    in.w = (rl_workload){.n = 100, .qps = 5, .prompt = {RL_DIST_FIXED, 500, 0},
                         .output = {RL_DIST_FIXED, 100, 0}, .seed = 1};
    rl_size_result r;
    char err[512];
    if (rl_size_search(&in, &r, err, sizeof err) != 0)
        fail_msg("%s", err);
    unsigned long long W = r.events;
    assert_true(W > 0);
    assert_int_equal(r.no_band, 1);
    assert_true(r.n > 1);
    for (int i = 0; i < r.n; i++)
        assert_false(r.c[i].banded);
    rl_size_result_free(&r);

    in.band_hw = NULL;
    in.work_budget = W;
    for (int again = 0; again < 2; again++) {
        if (rl_size_search(&in, &r, err, sizeof err) != 0)
            fail_msg("%s", err);
        assert_int_equal(r.no_band, 0);
        int banded = 0;
        for (int i = 0; i < r.n; i++)
            banded += r.c[i].banded;
        assert_int_equal(banded, 1);
        assert_true(r.c[0].banded); /* the best row */
        assert_int_equal(r.unbanded_for_time, r.n - 1);
        /* band_rows runs a configuration's rows together, ahead of their
         * turn: those the bound leaves out count no events, so the
         * search's are W and the best row's two edge runs (p10, p90),
         * counted here on their own */
        unsigned long long edges = 0;
        for (int s = 0; s < 2; s++) {
            rl_hw e = h;
            rl_e2e_band_edge(&e, s ? 2 : 1);
            rl_size_input at = in;
            at.hw = &e;
            at.work = &edges;
            rl_size_candidate c = r.c[0];
            if (rl_size_evaluate(&at, &c, 1, 1, err, sizeof err) != 0)
                fail_msg("%s", err);
        }
        assert_true(edges > 0);
        assert_true(r.events == W + edges);
        rl_size_result_free(&r);
    }

    in.work_budget = 0; /* no bound: every row banded */
    if (rl_size_search(&in, &r, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(r.unbanded_for_time, 0);
    for (int i = 0; i < r.n; i++)
        assert_true(r.c[i].banded);
    rl_size_result_free(&r);
}

/* A search over mixed hardware keeps the band of each row whose profile
 * has one (tester5 #7: with tpu-v5e beside h100-sxm no row was banded).
 * llama3-8b, calibrated, on h100-sxm (kernel-table residuals) and tpu-v5e
 * (none): no_band names tpu-v5e (1 + index 1), every h100-sxm row is
 * banded, no tpu-v5e row is, and both kinds of row are there. */
static void test_mixed_hw_keeps_bands(void **state)
{
    (void)state;
    rl_model m = load_model("llama3-8b", NULL, 0);
    rl_hw *hw = malloc(2 * sizeof *hw);
    assert_non_null(hw);
    hw[0] = load_hw("h100-sxm", NULL, 0);
    hw[1] = load_hw("tpu-v5e", NULL, 0);
    rl_size_input in = {.m = &m, .hw = hw, .nhw = 2, .hbm_reserve = 0.1, .slo_ttft = 2,
                        .slo_tpot = 0.1, .headroom = RL_SIZE_HEADROOM, .nprec = 1,
                        .prec = &(rl_precision){RL_BF16, RL_BF16, RL_BF16}, .calibrated = 1};
    in.w = (rl_workload){.n = 100, .qps = 5, .prompt = {RL_DIST_FIXED, 500, 0},
                         .output = {RL_DIST_FIXED, 100, 0}, .seed = 1};
    rl_size_result r;
    char err[512];
    if (rl_size_search(&in, &r, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(r.no_band, 2);
    assert_int_equal(r.unbanded_for_time, 0);
    int rows[2] = {0, 0};
    for (int i = 0; i < r.n; i++) {
        rows[r.c[i].hw]++;
        assert_int_equal(r.c[i].banded, r.c[i].hw == 0);
    }
    assert_true(rows[0] > 0 && rows[1] > 0);
    rl_size_result_free(&r);
    free(hw);
}

/* Unpriced hardware (its price overridden to 0): cost is the chip count. */
static void test_unpriced_cost_is_chips(void **state)
{
    fixture *f = *state;
    rl_size_result r = unpriced_search(f, &f->h[1], 1);
    assert_rel(r.c[0].cost_per_hour, (double)r.c[0].chips_total, 0);
    rl_size_result_free(&r);
}

/* One priced profile (h100-sxm at 2.5 USD) and one without a price
 * (tpu-v5e at 0): cost is counted in chips for every row, never USD for
 * some and chips for others; USD per million tokens stays for the priced
 * rows.  At equal cost, the configuration sustaining the higher load ranks
 * first (issue 14: the most margin), then a wider precision (no
 * quantization risk for no saving). */
static void test_mixed_prices_count_chips(void **state)
{
    fixture *f = *state;
    rl_size_result r = unpriced_search(f, f->h, 2);
    for (int i = 0; i < r.n; i++) {
        assert_rel(r.c[i].cost_per_hour, (double)r.c[i].chips_total, 0);
        if (r.c[i].hw == 0 && r.c[i].steady_out_tokens_per_s > 0)
            assert_rel(r.c[i].usd_per_mtok,
                       2.5 * r.c[i].chips_total /
                           (5 * rl_dist_mean(&f->in.w.output) * 3600) * 1e6, 1e-12); /* 5 req/s:
                                                                    unpriced_search's load */
        if (i > 0 && r.c[i].meets && r.c[i].cost_per_hour == r.c[i - 1].cost_per_hour) {
            /* the more margin first (sustained load in a higher 5% band,
             * rl_size_qps_band), else the wider precision */
            double q0 = r.c[i - 1].max_qps, q1 = r.c[i].max_qps;
            if (rl_size_qps_band(q0) != rl_size_qps_band(q1)) {
                assert_true(rl_size_qps_band(q0) > rl_size_qps_band(q1));
                /* a null (unresolved) figure after any: tester47 F8 made two
                 * tpu-v5e int8 rows here null, TTFT p99 0.477-0.488 s under a
                 * 0.5 s target (3.70 and 4.51 req/s by chance at a load of 5) */
                assert_true(q0 > q1 || (isnan(q1) && isfinite(q0)));
            } else { /* one band: under 5% apart (5% or more is another band) */
                assert_true(fabs(q0 - q1) <= 0.05 * fmax(q0, q1));
                assert_true(rl_dtype_bytes(r.c[i].p.weights) <=
                            rl_dtype_bytes(r.c[i - 1].p.weights));
            }
        }
    }
    rl_size_result_free(&r);
}

static void test_report_sections(void **state)
{
    fixture *f = *state;
    rl_size_curve curve;
    rl_size_sensitivity sens[3];
    char err[512];
    assert_int_equal(rl_size_study(&f->in, &f->res.c[0], &curve, sens, err, sizeof err), 0);
    /* the load curve is the deployment at 1x in its fourth point */
    assert_rel(curve.qps[3], f->in.w.qps, 1e-12);
    assert_rel(curve.tpot_p99[3], f->res.c[0].tpot_p99, 1e-12);
    /* more load never needs fewer chips to meet the targets */
    assert_true(sens[1].resized.chips_total >= f->res.c[0].chips_total);
    assert_true(sens[0].resized.chips_total <= f->res.c[0].chips_total);
    /* review30 M1: the prompt x2 what-if's own share over llama3-8b's
     * 8192 tokens, drawn again, is reported (the report's caution gave the
     * base draw's share only): by hand, the same draw (lognormal 3000:0.6
     * prompts, uniform 50-400 outputs, seed 5, the run's request count)
     * counted over 8192 (exact) */
    assert_true(sens[0].redrawn_frac == 0 && sens[1].redrawn_frac == 0);
    rl_workload x2 = f->in.w;
    x2.prompt.a = 3000;
    x2.n = rl_size_requests(&f->in, 1);
    rl_request *req;
    assert_int_equal(rl_workload_generate(&x2, &req, err, sizeof err), 0);
    long long over = 0;
    for (long long i = 0; i < x2.n; i++)
        over += req[i].prompt + (long long)req[i].output > 8192;
    free(req);
    assert_true(over > 0);
    assert_true(sens[2].redrawn_frac == (double)over / (double)x2.n);
    char label[96];
    snprintf(label, sizeof label, "prompt length x2 (%.1f%% over max_context, drawn again)",
             100 * sens[2].redrawn_frac);
    rl_size_report_data d = {&f->in, &f->res, &curve, sens, "test workload", "test"};
    char *md = rl_size_report_render(&d, 0);
    assert_non_null(strstr(md, label));
    /* fixND #5: the points at other loads ran other counts than the one the
     * Traffic line gave (30 req/s, --requests 2000 here: 3600 at the load =
     * 30 x 120 s, 2000 at 0.25x, 5400 at 1.5x, 4320 at the sized 1.2x;
     * size.c rl_size_requests); the report says each (before: "3600
     * simulated requests per configuration" alone) */
    assert_int_equal(rl_size_requests(&f->in, 1), 3600);
    assert_non_null(strstr(md, "3600 simulated requests per configuration at the load; a run at "
                               "another load draws at least 120 s of its arrivals"));
    assert_non_null(strstr(md, "points ran 2000 requests at 0.25x the load to 5400 at 1.5x, the "
                               "run at the sized load 4320"));
    free(md);
    const char *sections[] = {"Recommendation", "Alternatives", "frontier", "Load vs latency",
                              "Memory per chip", "Sensitivity", "Assumptions", "USD per chip-hour",
                              "Collectives on"};
    for (int html = 0; html < 2; html++) {
        char *t = rl_size_report_render(&d, html);
        assert_non_null(t);
        for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++)
            if (!strstr(t, sections[i]))
                fail_msg("%s report lacks '%s'", html ? "HTML" : "Markdown", sections[i]);
        /* issue 12: mode, engine and provenance per hardware */
        char want[128];
        snprintf(want, sizeof want, "Provenance on %s: mode %s; ", f->in.hw[0].name,
                 rl_hw_mode(&f->in.hw[0], f->in.calibrated));
        if (!strstr(t, want))
            fail_msg("%s report lacks '%s'", html ? "HTML" : "Markdown", want);
        /* tester5 #2: the recommendation names its row's mode, and the
         * per-hardware Mode line the same mode as the Provenance line */
        const char *mode = rl_size_mode(&f->in, &f->res.c[0]);
        char rec[64], hwmode[128];
        snprintf(rec, sizeof rec, "Mode: %s", mode);
        snprintf(hwmode, sizeof hwmode, "Mode on %s: %s", f->in.hw[0].name, mode);
        if (!strstr(t, rec) || !strstr(t, hwmode))
            fail_msg("%s report lacks '%s' or '%s'", html ? "HTML" : "Markdown", rec, hwmode);
        if (html) {
            assert_non_null(strstr(t, "<svg"));
            assert_null(strstr(t, "<script"));
            /* self-contained: the only URL is the SVG namespace */
            for (const char *p = strstr(t, "http"); p; p = strstr(p + 1, "http"))
                assert_true(strncmp(p, "http://www.w3.org/2000/svg", 26) == 0);
        } else {
            assert_null(strstr(t, "<svg"));
        }
        free(t);
    }
    /* tester5 #12c: calibrated, h100-sxm's efficiency is H200's (measured_on
     * = "h200" in hw_profiles/h100-sxm.lua): its Mode line says borrowed,
     * not the profile's own measurement */
    rl_size_input cal = f->in;
    cal.calibrated = 1;
    d.in = &cal;
    char *t = rl_size_report_render(&d, 0);
    assert_non_null(t);
    if (!strstr(t, "divided by the efficiency borrowed from h200 (not measured on h100-sxm)"))
        fail_msg("the report does not say h100-sxm's efficiency is borrowed: %s", t);
    free(t);
}

/* A spec name reaches the HTML report escaped everywhere, the <title> included
 * (tester4 #3: "x</title><img src=x onerror=alert(1)>" closed the title and
 * ran the script); the Markdown report escapes '|' inside table cells only
 * (a hardware name in the ranked table's Config cell: `h\|x`), and prints
 * it as is elsewhere, where `\|` would show its backslash in a code span
 * (tester28 F11; test_report_command_verbatim).  The Markdown report
 * backslash-escapes what would start raw HTML, an entity or a code span
 * (tester31 F11: it wrote the name raw, "<img ... onerror=...>" included;
 * CommonMark renders "\<img" as the text "<img"), in the heading and the
 * Model line alike, and leaves "<=" as written. */
static void test_report_escapes_names(void **state)
{
    fixture *f = *state;
    rl_model m = f->m;
    snprintf(m.name, sizeof m.name, "x</title><img src=x onerror=alert(1)>|&");
    rl_size_input in = f->in;
    in.m = &m;
    rl_size_report_data d = {&in, &f->res, NULL, NULL, "test workload", "cmd <b>"};
    char *t = rl_size_report_render(&d, 1);
    assert_non_null(t);
    assert_null(strstr(t, "<img"));
    assert_null(strstr(t, "<b>"));
    assert_non_null(strstr(t, "<title>Sizing: x&lt;/title&gt;&lt;img src=x onerror=alert(1)&gt;|&amp;</title>"));
    free(t);
    rl_hw *hw = malloc((size_t)in.nhw * sizeof *hw);
    assert_non_null(hw);
    memcpy(hw, in.hw, (size_t)in.nhw * sizeof *hw);
    snprintf(hw[f->res.c[0].hw].name, sizeof hw->name, "h|x");
    in.hw = hw;
    t = rl_size_report_render(&d, 0);
    assert_non_null(t);
    assert_non_null(strstr(t, "# Deployment sizing: x\\</title>\\<img src=x onerror=alert(1)>|& "));
    assert_non_null(strstr(t, "- Model: x\\</title>\\<img src=x onerror=alert(1)>|& ("));
    /* none starts HTML outside the Command's code span ("cmd <b>", verbatim) */
    for (const char *c = strchr(t, '<'); c; c = strchr(c + 1, '<'))
        if ((c == t || c[-1] != '\\') && c[1] != ' ' && c[1] != '=' && strncmp(c - 5, "`cmd <b>`", 9))
            fail_msg("unescaped '%.20s'", c);
    assert_non_null(strstr(t, "| 1 | h\\|x "));  /* the first ranked row's Config cell */
    assert_non_null(strstr(t, " x h|x: ")); /* the Recommendation paragraph: as is */
    free(t);
    free(hw);
}

/* fixNI #5: the Sensitivity table printed a bare "yes" (and a bare chip
 * count) for a deployment whose capacity search left max_sustainable_qps
 * unresolved (verdict_by p99), which the candidate tables mark "yes on
 * p99s only: capacity not established".  Here the fixture's first row is
 * set so (max_qps NAN, verdict p99) as the fixed and resized deployment of
 * each change: every meets cell and chips cell says so; with the capacity
 * known (verdict both), a bare "yes". */
static void test_report_sensitivity_p99_only(void **state)
{
    fixture *f = *state;
    assert_true(f->res.n >= 1);
    for (int k = 0; k < 2; k++) {
        rl_size_sensitivity sens[3];
        rl_size_candidate c = f->res.c[0];
        c.meets = 1;
        c.verdict_by = k ? RL_SIZE_VERDICT_BOTH : RL_SIZE_VERDICT_P99;
        for (int i = 0; i < 3; i++)
            sens[i] = (rl_size_sensitivity){.qps_scale = i == 2 ? 1 : 0.5 + i,
                                            .prompt_scale = i == 2 ? 2 : 1, .fixed = c,
                                            .resized = c, .resized_ok = 1};
        rl_size_result res = f->res;
        res.nmeet = res.nmeet > 0 ? res.nmeet : 1;
        rl_size_report_data d = {&f->in, &res, NULL, sens, "test workload", "test"};
        char *t = rl_size_report_render(&d, 0), want[160];
        assert_non_null(t);
        const char *sec = strstr(t, "## Sensitivity");
        assert_non_null(sec);
        snprintf(want, sizeof want, "| yes on p99s only: capacity not established | %lld (yes on "
                 "p99s only: capacity not established) |", c.chips_total);
        assert_int_equal(strstr(sec, want) != NULL, k == 0);
        snprintf(want, sizeof want, "| yes | %lld |", c.chips_total);
        assert_int_equal(strstr(sec, want) != NULL, k == 1);
        free(t);
    }
}

/* fixNI #8: the Recommendation's ranking sentence stopped at "then the
 * one sustaining more load"; docs/serving.md's rule (size.c rl_size_rank)
 * goes on: resolved capacity before p99-only, 5% load bands, the wider
 * precision, the lower TPOT p99.  The sentence now says all of it. */
static void test_report_rank_sentence(void **state)
{
    fixture *f = *state;
    rl_size_report_data d = {&f->in, &f->res, NULL, NULL, "test workload", "test"};
    char *t = rl_size_report_render(&d, 0);
    assert_non_null(t);
    assert_non_null(strstr(t, "then estimated, then ideal), then one whose capacity was resolved "
                              "before one resting on its p99s alone, then the one sustaining "
                              "more load by bands 5% wide of max_sustainable_qps, then the "
                              "wider precision, then the lower TPOT p99."));
    free(t);
}

/* fixND #12: the report cautions on a pick sustaining under 1.05 x the
 * sized load (the README example up to stop 52: 24.28 req/s against 24, 1.2% over), and
 * on a pick whose mode is less trusted than a meeting row within 10% of
 * its cost (the README example up to stop 52: estimated tpu-v5e at 57.60 USD/h against a
 * calibrated h100-sxm row at 59.50, +3.3%).  Here the fixture's first row
 * is set to sustain 1.012 x its sized load with mode estimated, its second
 * to meet at +3.3% cost calibrated: both cautions, with those figures; at
 * 1.10 x and +20% neither.  Before: no such caution. */
static void test_report_pick_cautions(void **state)
{
    fixture *f = *state;
    assert_true(f->res.n >= 2);
    rl_size_result res = f->res;
    res.c = malloc((size_t)res.n * sizeof *res.c);
    assert_non_null(res.c);
    memcpy(res.c, f->res.c, (size_t)res.n * sizeof *res.c);
    double sized = rl_size_sized_qps(&f->in);
    for (int k = 0; k < 2; k++) {
        rl_size_candidate *b = &res.c[0], *a = &res.c[1];
        b->meets = a->meets = 1;
        b->max_qps = sized * (k ? 1.10 : 1.012);
        b->optimism = 1, b->mode = "estimated";
        a->optimism = 0, a->mode = "calibrated";
        a->cost_per_hour = b->cost_per_hour * (k ? 1.2 : 1.033);
        rl_size_report_data d = {&f->in, &res, NULL, NULL, "test workload", "test"};
        char *t = rl_size_report_render(&d, 0), want[200];
        assert_non_null(t);
        snprintf(want, sizeof want, "Caution on the margin: it sustains %.4g req/s, only 1.2%% "
                 "above the %.3g req/s it was sized for (under 5%%)", b->max_qps, sized);
        assert_int_equal(strstr(t, want) != NULL, k == 0);
        snprintf(want, sizeof want, "Caution on the evidence: row 2, ");
        assert_int_equal(strstr(t, want) != NULL, k == 0);
        if (k == 0) {
            /* stop 48 #2: the difference in USD/h too, and the same words on stderr
             * (cli.c, from size.c rl_size_evidence_caution) */
            snprintf(want, sizeof want, "mode calibrated, also meets the targets at %.2f USD/h "
                     "(+3.3%%, %.2f USD/h more than this pick's %.2f, within 10%%); this pick's "
                     "mode is estimated", a->cost_per_hour, a->cost_per_hour - b->cost_per_hour,
                     b->cost_per_hour);
            if (!strstr(t, want))
                fail_msg("report lacks '%s'", want);
            /* stop 48 #2: the cost-vs-TPOT chart keys each hardware's meeting
             * rows in a colour of their own ("meets: <hw>"), not one "meets
             * targets" series for all */
            char *h = rl_size_report_render(&d, 1), key[96];
            assert_non_null(h);
            snprintf(key, sizeof key, ">meets: %s</text>", f->in.hw[b->hw].name);
            if (!strstr(h, key) || strstr(h, "meets targets"))
                fail_msg("cost chart keys: no '%s', or one 'meets targets' series", key);
            free(h);
        }
        assert_int_equal(rl_size_trusted_alternative(&res), k ? -1 : 1);
        free(t);
    }
    free(res.c);
}

/* The report's band is the row's runs at the band's edges (size.h
 * rl_size_candidate.edge): "v (lo-hi)" beside TTFT and TPOT p99 of a banded
 * candidate, the Band line naming the band; none without. */
static void test_report_band(void **state)
{
    fixture *f = *state;
    rl_size_result res = f->res;
    res.c = malloc((size_t)res.n * sizeof *res.c);
    assert_non_null(res.c);
    memcpy(res.c, f->res.c, (size_t)res.n * sizeof *res.c);
    rl_size_candidate *c = &res.c[0];
    assert_false(c->banded); /* the fixture searches in ideal mode: no band */
    c->banded = 1;
    const double lo = 0.9, hi = 1.3;
    c->edge[0][1] = c->ttft_p99 * lo;
    c->edge[1][1] = c->ttft_p99 * hi;
    c->edge[0][3] = c->tpot_p99 * lo;
    c->edge[1][3] = c->tpot_p99 * hi;
    rl_size_report_data d = {&f->in, &res, NULL, NULL, "test workload", "test"};
    char *t = rl_size_report_render(&d, 0), want[160];
    assert_non_null(t);
    snprintf(want, sizeof want, "| %.0f (%.0f-%.0f) | %.1f (%.1f-%.1f) |", c->ttft_p99 * 1e3,
             c->ttft_p99 * lo * 1e3, c->ttft_p99 * hi * 1e3, c->tpot_p99 * 1e3,
             c->tpot_p99 * lo * 1e3, c->tpot_p99 * hi * 1e3);
    if (!strstr(t, want))
        fail_msg("report lacks '%s'", want);
    assert_non_null(strstr(t, "Band (p10-p90)"));
    assert_null(strstr(t, "marked *"));
    free(t);
    /* h31audit finding 14: a high edge whose run read faster than the
     * figure is clamped to it (docs/model.md) and marked so, in the table,
     * the Band line and the row's JSON (ttft_p99_s_high_clamped true, no
     * key for the edges not clamped) */
    c->edge[1][1] = c->ttft_p99 * 0.95;
    for (int html = 0; html < 2; html++) {
        t = rl_size_report_render(&d, html);
        assert_non_null(t);
        snprintf(want, sizeof want, html ? "<td>%.0f (%.0f-%.0f*)</td>" : "| %.0f (%.0f-%.0f*) |",
                 c->ttft_p99 * 1e3, c->ttft_p99 * lo * 1e3, c->ttft_p99 * 1e3);
        if (!strstr(t, want))
            fail_msg("report lacks '%s'", want);
        assert_non_null(strstr(t, "A band edge marked * is clamped to the figure"));
        assert_non_null(strstr(t, "--conservative adds no margin there."));
        free(t);
    }
    rl_size_result one = {.c = c, .n = 1};
    cJSON *j = rl_result_size(&f->in, &one, 1);
    const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(row, "ttft_p99_s_high_clamped")));
    assert_rel(cJSON_GetObjectItem(row, "ttft_p99_s_high")->valuedouble, c->ttft_p99, 1e-12);
    assert_null(cJSON_GetObjectItem(row, "ttft_p99_s_low_clamped"));
    assert_null(cJSON_GetObjectItem(row, "tpot_p99_s_high_clamped"));
    cJSON_Delete(j);
    d.res = &f->res; /* without runs at the edges: no band */
    t = rl_size_report_render(&d, 0);
    assert_null(strstr(t, "Band (p10-p90"));
    free(t);
    free(res.c);
}

/* h31audit finding 13: the Alternatives and frontier tables give each
 * row's max_sustainable_qps, the load at which it stops meeting the
 * targets, in a "sustains (req/s)" column before "meets SLO" (Markdown and
 * HTML; ">= " where it is a lower bound; the value as %.3g prints it). */
static void test_report_sustains_column(void **state)
{
    fixture *f = *state;
    const rl_size_candidate *b = &f->res.c[0];
    assert_true(b->meets && isfinite(b->max_qps) && !b->max_qps_lower_bound);
    rl_size_report_data d = {&f->in, &f->res, NULL, NULL, "test workload", "test"};
    char want[160];
    for (int html = 0; html < 2; html++) {
        char *t = rl_size_report_render(&d, html);
        assert_non_null(t);
        assert_non_null(strstr(t, html ? "<th>sustains (req/s)</th><th>meets SLO</th>"
                                        : "| sustains (req/s) | meets SLO |"));
        snprintf(want, sizeof want, html ? "<td>%.3g</td><td class=\"t\">yes</td>" : "| %.3g | yes |",
                 b->max_qps);
        if (!strstr(t, want))
            fail_msg("report lacks '%s'", want);
        free(t);
    }
}

/* The report's KV pool count is the sequences that fit, floored (tester22
 * F12: 486827 tokens / (2000 + 300) = 211.66 printed 212): a pool of 211.66
 * mean-length requests reads 211 sequences (exact, a count). */
static void test_report_kv_sequences_floored(void **state)
{
    fixture *f = *state;
    assert_true(f->res.nmeet > 0);
    rl_size_result res = f->res;
    res.c = malloc((size_t)res.n * sizeof *res.c);
    assert_non_null(res.c);
    memcpy(res.c, f->res.c, (size_t)res.n * sizeof *res.c);
    double P, G;
    rl_size_mean_lengths(&f->in, &P, &G);
    res.c[0].kv_capacity_tokens = 211.66 * (P + G);
    rl_size_report_data d = {&f->in, &res, NULL, NULL, "test workload", "test"};
    char *t = rl_size_report_render(&d, 0), want[160];
    assert_non_null(t);
    snprintf(want, sizeof want, "tokens per replica: 211 sequences of the mean prompt");
    if (!strstr(t, want))
        fail_msg("report lacks '%s'", want);
    free(t);
    free(res.c);
}

/* tester34 F12: the report gives an unequal pipeline's stages (vLLM's
 * split, shard.h rl_shard_stage_layers): llama3-8b's 32 layers on pp3 are
 * 11 + 11 + 10, the largest 11/32 (it read "each holding 1/3 of the
 * layers"); equal stages keep "1/P" (exact text). */
static void test_report_pipeline_stages(void **state)
{
    fixture *f = *state;
    rl_size_result res = f->res;
    res.c = malloc((size_t)res.n * sizeof *res.c);
    assert_non_null(res.c);
    memcpy(res.c, f->res.c, (size_t)res.n * sizeof *res.c);
    res.c[0].pp = 3;
    res.c[0].chips = 3;
    res.c[0].policy = RL_POLICY_CONTINUOUS;
    rl_size_report_data d = {&f->in, &res, NULL, NULL, "test workload", "test"};
    char *t = rl_size_report_render(&d, 0);
    assert_non_null(t);
    /* tester35 F5: each of the 3 streams has its own cap: 3 x B per replica */
    char cap[128];
    snprintf(cap, sizeof cap, "at most %d sequences per batch stream x 3 streams (%d per replica)",
             res.c[0].max_seqs, 3 * res.c[0].max_seqs);
    if (!strstr(t, cap))
        fail_msg("report lacks '%s'", cap);
    if (!strstr(t, "Pipeline: 3 stages of 1 chips holding 11 + 11 + 10 of the 32 layers") ||
        !strstr(t, "the slowest stage sets the pace, the largest holding 11/32 of the layers, "
                   "the last the LM head"))
        fail_msg("report lacks the stages: %s", strstr(t, "Pipeline:") ? strstr(t, "Pipeline:") : t);
    assert_null(strstr(t, "1/3 of the layers"));
    free(t);
    res.c[0].pp = 2;
    res.c[0].chips = 2;
    t = rl_size_report_render(&d, 0);
    assert_non_null(strstr(t, "Pipeline: 2 stages of 1 chips, each holding 1/2 of the layers"));
    free(t);
    free(res.c);
}

/* tester19 F4: with 1-token outputs no request has an inter-token gap, so
 * there is no TPOT (serve.h: TPOT over requests of >= 2 output tokens;
 * simulate writes null): size's rows say null for tpot_p99_s, tpot_p50_s
 * and tpot_p99_at_sized_s (they said 0), and the report "n/a (1-token
 * outputs)" and "within the TTFT target" (it said "TPOT p50 0.0 ms / p99
 * 0.0 ms ... within both targets").  With 2-token outputs the TPOT is a
 * number again. */
static void test_one_token_outputs_have_no_tpot(void **state)
{
    (void)state;
    rl_model m = load_model("llama3-8b", NULL, 0);
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    for (int out = 1; out <= 2; out++) {
        rl_size_input in = {.m = &m, .hw = &h, .nhw = 1, .hbm_reserve = 0.1, .slo_ttft = 1,
                            .slo_tpot = 0.05, .headroom = RL_SIZE_HEADROOM};
        in.w = (rl_workload){.n = 200, .qps = 5, .prompt = {RL_DIST_FIXED, 100, 0},
                             .output = {RL_DIST_FIXED, out, 0}, .seed = 1};
        rl_size_result r;
        char err[512];
        if (rl_size_search(&in, &r, err, sizeof err) != 0)
            fail_msg("%s", err);
        assert_true(r.n > 0);
        cJSON *j = rl_result_size(&in, &r, 1);
        const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0);
        static const char *const keys[] = {"tpot_p99_s", "tpot_p50_s", "tpot_p99_at_sized_s"};
        for (int k = 0; k < 3; k++)
            if (cJSON_IsNull(cJSON_GetObjectItem(row, keys[k])) != (out == 1))
                fail_msg("out_len %d: %s is %s", out, keys[k], out == 1 ? "not null" : "null");
        cJSON_Delete(j);
        rl_size_report_data d = {&in, &r, NULL, NULL, "test workload", "test"};
        char *t = rl_size_report_render(&d, 0);
        assert_non_null(t);
        if ((strstr(t, "TPOT n/a (1-token outputs); ") != NULL) != (out == 1) ||
            (strstr(t, "requests within the TTFT target (no TPOT to judge)") != NULL) != (out == 1))
            fail_msg("out_len %d: report %.2000s", out, t);
        free(t);
        rl_size_result_free(&r);
    }
}

/* tester18 F8: the report's Memory per chip table adds up to the HBM under
 * an engine memory rule.  llama3-8b on one H100 (80 GB) under TensorRT-LLM's
 * rule (engines.c: the KV pool is 0.9 of the HBM free after the weights,
 * 392 MiB of collective buffers only on multi-chip replicas, docs/model.md):
 * the pool is 0.9 x (80 - w - buffers) GB per chip (1e-9 relative), the
 * reserve row HBM - weights - pool (about 7.6 GB in bf16: a tenth of the
 * 69.8 GB free plus 0.9 of the 0.64 GB activation workspace, memory.h
 * rl_memory_workspace; not the 10% --hbm-reserve's 8.6 GB, more than 0.5
 * GB away), the four printed rows (0.1 GB each) add up to the
 * HBM within their rounding, and Assumptions names the engine's rule. */
static void test_report_memory_adds_up(void **state)
{
    (void)state;
    rl_model m = load_model("llama3-8b", NULL, 0);
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    char err[512];
    assert_int_equal(rl_engines_select(&h.engines, "trtllm", h.origin, err, sizeof err), 0);
    const rl_engine_memory *g = &rl_engines_selected(&h.engines)->mem;
    assert_true(g->present && g->of_free);
    rl_size_input in = {.m = &m, .hw = &h, .nhw = 1, .hbm_reserve = 0.1, .slo_ttft = 2,
                        .slo_tpot = 0.1, .headroom = RL_SIZE_HEADROOM, .nprec = 1,
                        .prec = &(rl_precision){RL_BF16, RL_BF16, RL_BF16}, .calibrated = 1};
    in.w = (rl_workload){.n = 100, .qps = 2, .prompt = {RL_DIST_FIXED, 500, 0},
                         .output = {RL_DIST_FIXED, 100, 0}, .seed = 1};
    rl_size_result r;
    if (rl_size_search(&in, &r, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_true(r.nmeet > 0);
    const rl_size_candidate *b = &r.c[0];
    double w = b->weight_bytes_per_chip, kv = b->kv_bytes_per_chip;
    /* the workspace: llama3-8b's at 8192 tokens on the replica's chips
     * (memory.h rl_memory_workspace; 637,534,208 B on one, test_memory) */
    double over = g->context_bytes + rl_memory_workspace(&m, g, b->chips, 0) +
                  (b->chips > 1 ? g->comm_bytes : 0);
    assert_rel(kv, g->fraction * (h.hbm_bytes - w - over), 1e-9);
    rl_size_report_data d = {&in, &r, NULL, NULL, "test workload", "test"};
    char *t = rl_size_report_render(&d, 0);
    assert_non_null(t);
    /* the row names the capacity in GiB, the vendor's unit (review28 M2):
     * 80 GiB for an H100's 85.9 decimal GB, exact */
    const char *p = strstr(t, "| HBM capacity (80 GiB) |");
    assert_non_null(p);
    double v[4];
    assert_int_equal(sscanf(p, "| HBM capacity (80 GiB) | %lf |\n| weights (sharded over the replica) | "
                               "%lf |\n| KV cache pool | %lf |\n| reserve (what the memory rule "
                               "leaves: activations, workspace) | %lf |",
                            &v[0], &v[1], &v[2], &v[3]), 4);
    assert_true(fabs(v[3] - (h.hbm_bytes - w - kv) / 1e9) <= 0.05);
    assert_true(fabs(v[1] + v[2] + v[3] - v[0]) <= 0.15);
    assert_true(fabs(v[3] - 0.1 * h.hbm_bytes / 1e9) > 0.5); /* not the 10% --hbm-reserve */
    if (!strstr(t, "Memory on h100-sxm: the trtllm engine's rule") || strstr(t, "10% of HBM reserved"))
        fail_msg("Assumptions do not name the engine's memory rule: %s", t);
    free(t);
    rl_size_result_free(&r);
}

/* fixIK #5: size's JSON `cost` is chips x the chip's price per hour; in
 * doubles 48 x 1.2 (the README's tpu-v5e row up to stop 52: 6 replicas of 8 at 1.2 USD
 * per chip-hour, hw_profiles/tpu-v5e.lua) is 57.599999999999994, which
 * JSON printed.  Rounded to a micro-dollar it is 57.6 and prints "57.6";
 * 88 x 4.25 (h100-sxm) stays 374 exactly; 3 x 0.125 stays 0.375 (no cent
 * rounding of a sub-cent price). */
static void test_cost_is_the_decimal(void **state)
{
    (void)state;
    volatile double chips = 48, price = 1.2;
    assert_true(chips * price != 57.6); /* the double product's error, which the rule removes */
    assert_true(rl_size_usd_per_hour(48, 1.2) == 57.6);
    assert_true(rl_size_usd_per_hour(88, 4.25) == 374);
    assert_true(rl_size_usd_per_hour(3, 0.125) == 0.375);
    cJSON *n = cJSON_CreateNumber(rl_size_usd_per_hour(48, 1.2));
    char *p = cJSON_PrintUnformatted(n);
    assert_string_equal(p, "57.6");
    cJSON_free(p);
    cJSON_Delete(n);
}

/* tester34 F4: DeepSeek-V3 fp8 on 8 H100 was recommended under the trtllm
 * memory rule (no activation workspace or context charged: engines.c, no
 * public figure) with 0.33 GB of KV a GPU and 0.45 GB left, no caution.
 * A row whose rule leaves less than vLLM's profiled context + workspace
 * (1.79 + 1.26 GiB = 3.27e9 B, engines.c) now carries one, in the
 * Recommendation and under the memory table; the same row with 10 GB left,
 * or under vLLM's rule (which charges them), carries none.  llama3-8b on
 * one H100 (trtllm), weights and KV per chip set by hand. */
static void test_report_activation_caution(void **state)
{
    (void)state;
    rl_model m = load_model("llama3-8b", NULL, 0);
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    char err[512], why[1024];
    assert_int_equal(rl_engines_select(&h.engines, "trtllm", h.origin, err, sizeof err), 0);
    rl_size_input in = {.m = &m, .hw = &h, .nhw = 1, .hbm_reserve = 0.1, .slo_ttft = 2,
                        .slo_tpot = 0.1, .headroom = RL_SIZE_HEADROOM, .nprec = 1,
                        .prec = &(rl_precision){RL_BF16, RL_BF16, RL_BF16}, .calibrated = 1};
    in.w = (rl_workload){.n = 100, .qps = 2, .prompt = {RL_DIST_FIXED, 1000, 0},
                         .output = {RL_DIST_FIXED, 100, 0}, .seed = 1};
    rl_size_candidate c = {0};
    c.hw = 0;
    c.chips = 1;
    c.max_seqs = 16;
    c.kv_bytes_per_chip = 0.33e9;
    c.weight_bytes_per_chip = h.hbm_bytes - 0.33e9 - 0.45e9;
    c.kv_capacity_tokens = 9448;
    assert_int_equal(rl_size_activation_caution(&in, &c, why, sizeof why), 1);
    if (!strstr(why, "0.45 GB per chip the rule leaves is below the 3.27 GB") ||
        !strstr(why, "9448 tokens per replica: 8 sequences"))
        fail_msg("%s", why);
    /* fixIK #4: the caution floors the pool as the memory section and JSON
     * do (rl_size_kv_tokens): llama3-70b on one H100 read 72746 tokens here
     * beside 72745 there; 9448.6 reads 9448, not 9449 */
    c.kv_capacity_tokens = 9448.6;
    assert_int_equal(rl_size_activation_caution(&in, &c, why, sizeof why), 1);
    if (!strstr(why, "9448 tokens per replica: 8 sequences"))
        fail_msg("the caution rounds the KV pool up: %s", why);
    c.kv_capacity_tokens = 9448;
    c.weight_bytes_per_chip = h.hbm_bytes - 0.33e9 - 10e9;
    assert_int_equal(rl_size_activation_caution(&in, &c, why, sizeof why), 0);
    c.weight_bytes_per_chip = h.hbm_bytes - 0.33e9 - 0.45e9;
    assert_int_equal(rl_engines_select(&h.engines, "vllm", h.origin, err, sizeof err), 0);
    assert_int_equal(rl_size_activation_caution(&in, &c, why, sizeof why), 0);
}

/* tester34 F13: the Recommendation read "Sized for 24 req/s ...; it stops
 * meeting the targets at 24 req/s" of a row verified at 24, and next
 * "Headroom: within both targets up to 22.5 req/s" (the load curve's point
 * below, its grid 0.25x-1.5x the load): now max_sustainable_qps is what the
 * row sustains, the curve's two points are named as points, and a
 * max_qps between them is said to lie between them.  A hand-made curve at
 * 20 req/s (22.5 meets, 25 misses) with the fixture's rows, the first's
 * max_qps set to 24. */
static void test_report_headroom_words(void **state)
{
    fixture *f = *state;
    rl_size_input in = f->in;
    in.w.qps = 20;
    in.headroom = 0.2;
    rl_size_result res = f->res;
    res.c = malloc((size_t)res.n * sizeof *res.c);
    assert_non_null(res.c);
    memcpy(res.c, f->res.c, (size_t)res.n * sizeof *res.c);
    res.c[0].max_qps = 24;
    rl_size_curve curve = {7, {5, 10, 15, 20, 22.5, 25, 30}, {0}, {0}, {0}, {0}, {0}};
    for (int i = 0; i < 7; i++) {
        curve.ttft_p99[i] = i < 5 ? 0.5 * in.slo_ttft : 2 * in.slo_ttft;
        curve.tpot_p99[i] = 0.5 * in.slo_tpot;
    }
    rl_size_report_data d = {&in, &res, &curve, NULL, "test workload", "test"};
    char *t = rl_size_report_render(&d, 0);
    assert_non_null(t);
    static const char *const want[] = {
        ("Sized for 24 req/s (the load + 20% headroom), where one run met the targets at p99; "
         "it sustains up to 24 req/s within the targets (max_sustainable_qps"),
        "is within both targets at every point up to 22.5 req/s and misses at the next, 25 req/s",
        "the 24 req/s sustained above lies between the two points"};
    for (int i = 0; i < 3; i++)
        if (!strstr(t, want[i]))
            fail_msg("no '%s' in\n%s", want[i], t);
    assert_null(strstr(t, "stops meeting"));
    assert_null(strstr(t, "below the sized load"));
    /* fixQB (issue 14 follow-up #1): the sentence claimed "95% confidence
     * that at most 1% of requests exceed a target", a confidence the figure
     * does not carry (llama3-8b on h100-sxm, lognormal lengths, seeds 1-10
     * at 4000 requests: 23.96-26.31 req/s about a long-run 25.2): it says
     * what the bound is on and that the figure moves with the sample */
    assert_null(strstr(t, "with 95% confidence"));
    assert_non_null(strstr(t, "not a confidence interval on the figure, which moves with the "
                              "sample by several percent"));
    /* fixIK #3: the share within both targets at once is not the verdict
     * (tpu-v5e's row: 98.8% beside both p99s within target) */
    assert_non_null(strstr(t, "% of requests within both targets at once (slo_attainment; the "
                              "targets are judged per metric at p99, TTFT's and TPOT's each, "
                              "not by this share"));
    free(t);
    /* fixIK #2: a miss within rounding of its target gets the digits that
     * show it, and the metric that misses is marked: TPOT p99 6.517 ms
     * against 6.5 read "TPOT p99 6.5 ms" at 7.5 req/s (llama3-70b on 88
     * H100s, simulate's 6.517 ms); now 6.52, "over its 6.5 ms target",
     * in the Headroom item and the load curve's row, where the points
     * within the target keep one decimal (6 ms: "6.0") */
    double slo_tpot = in.slo_tpot;
    in.slo_tpot = 0.0065;
    for (int i = 0; i < 7; i++)
        curve.tpot_p99[i] = i < 5 ? 0.006 : 0.006517;
    t = rl_size_report_render(&d, 0);
    if (!strstr(t, "misses at the next, 25 req/s (TTFT p99 ") ||
        !strstr(t, " ms target, TPOT p99 6.52 ms, over its 6.5 ms target)") ||
        !strstr(t, "| 25 | ") || !strstr(strstr(t, "| 25 | "), " | 6.52 | ") ||
        !strstr(t, "| 20 | ") || !strstr(strstr(t, "| 20 | "), " | 6.0 | "))
        fail_msg("a TPOT miss within rounding reads as its target:\n%s", t);
    free(t);
    in.slo_tpot = slo_tpot;
    for (int i = 0; i < 7; i++)
        curve.tpot_p99[i] = 0.5 * in.slo_tpot;
    /* h31audit finding 1: a row whose run met at p99 but whose search reads
     * below the sized load says so; tester48 F1: it does not meet */
    res.c[0].max_qps = 23;
    res.c[0].meets = 0;
    res.c[0].verdict_by = RL_SIZE_VERDICT_CAPACITY;
    t = rl_size_report_render(&d, 0);
    assert_non_null(strstr(t, "where one run met the targets at p99; it sustains up to 23 req/s "
                              "within the targets (max_sustainable_qps"));
    assert_non_null(strstr(t, "at the load): below the sized load, so the row does not meet the "
                              "targets with the headroom asked (verdict_by capacity"));
    free(t);
    res.c[0].meets = 1;
    res.c[0].verdict_by = RL_SIZE_VERDICT_BOTH;
    res.c[0].max_qps = 31.4; /* beyond the curve's miss: said to come from its own sample */
    t = rl_size_report_render(&d, 0);
    assert_non_null(strstr(t, "the capacity search above, on its own time-scaled sample, reads "
                              "31.4 req/s"));
    free(t);
    /* every point meets and the last (30) lies above max_qps 29.6 (the
     * merged docs/sizing h100-sxm report at stop 30): the sentence says why
     * the curve may pass a load the capacity search does not */
    for (int i = 0; i < 7; i++)
        curve.ttft_p99[i] = 0.5 * in.slo_ttft;
    res.c[0].max_qps = 29.6;
    t = rl_size_report_render(&d, 0);
    assert_non_null(strstr(t, "up to its last, 30 req/s (each point one run judged on its own p99"));
    free(t);
    res.c[0].max_qps = 31.4; /* above the curve's last point: nothing to explain */
    t = rl_size_report_render(&d, 0);
    assert_non_null(strstr(t, "up to its last, 30 req/s."));
    free(t);
    free(res.c);
}

/* tester18 F9: under --conservative the Recommendation says its figures are
 * the band's high edge and labels the stops-meeting load so; without it,
 * neither.  With no price for every profile, the sentence on which row the
 * load curve, memory and sensitivity sections follow names that row (the
 * fewest chips, r.c[0]) even when another hardware's block comes first:
 * the profiles given as tpu-v5e, h100-sxm, the H100 row needs fewer chips. */
static void test_report_conservative_and_first_row(void **state)
{
    fixture *f = *state;
    rl_size_input in = f->in;
    rl_size_report_data d = {&in, &f->res, NULL, NULL, "test workload", "test"};
    assert_true(isfinite(f->res.c[0].max_qps));
    for (int cons = 0; cons < 2; cons++) {
        in.conservative = cons;
        char *t = rl_size_report_render(&d, 0), want[160];
        assert_non_null(t);
        /* fixND #2: which figure the verdicts used, in the Conservative line
         * and the tables' headers; the p99 cells are the central figures */
        assert_int_equal(strstr(t, "Conservative (size --conservative, sized_against band_high): "
                                   "the verdicts (meets, sustains)") != NULL, cons);
        assert_int_equal(strstr(t, "| meets SLO (sized against the band's high edge) |") != NULL,
                         cons);
        snprintf(want, sizeof want, "it sustains up to %.3g req/s within the targets at the band's "
                 "high edge (--conservative)", f->res.c[0].max_qps);
        assert_int_equal(strstr(t, want) != NULL, cons);
        free(t);
    }
    rl_hw hw[2] = {f->h[1], f->h[0]};
    rl_size_result r = unpriced_search(f, hw, 2);
    assert_int_equal(r.c[0].hw, 1); /* not the first block (hardware order) */
    in = f->in;
    in.hw = hw;
    in.nhw = 2;
    in.w.qps = 5;
    d.res = &r;
    char *t = rl_size_report_render(&d, 0), label[128], want[256];
    assert_non_null(t);
    rl_size_label(&in, &r.c[0], label, sizeof label);
    snprintf(want, sizeof want, "sections below are for the fewest chips: %lld x h100-sxm, %s.",
             r.c[0].chips_total, label);
    if (!strstr(t, want))
        fail_msg("report lacks '%s'", want);
    /* tester80 #9: chips of different hardware are not compared, so the
     * Alternatives and the frontier are one table per hardware, its rows
     * that hardware's alone, numbered from 1 (before: one table ranking
     * tpu-v5e's and h100-sxm's chips together, the frontier across both) */
    assert_non_null(strstr(t, "ranked within each hardware: chips of different hardware are "
                              "not compared"));
    assert_null(strstr(t, "\n## Alternatives\n\n| #")); /* no table over both */
    for (int h = 0; h < 2; h++)
        for (int k = 0; k < 2; k++) {
            char head[sizeof hw[h].name + 32];
            snprintf(head, sizeof head, "### %s on %.63s\n", k ? "Frontier" : "Alternatives",
                     hw[h].name);
            const char *at = strstr(t, head);
            if (!at)
                fail_msg("report lacks '%s'", head);
            at += strlen(head);
            const char *end = strstr(at, "\n#"); /* the next heading */
            int rows = 0;
            for (const char *l = strstr(at, "\n| "); l && (!end || l < end);
                 l = strstr(l + 1, "\n| ")) {
                int num;
                char conf[64];
                if (sscanf(l, "\n| %d | %63s ", &num, conf) != 2)
                    continue; /* the header and its rule */
                assert_string_equal(conf, hw[h].name);
                if (!k && rows++ == 0)
                    assert_int_equal(num, 1);
            }
            if (!k)
                assert_true(rows > 0);
        }
    free(t);
    rl_size_result_free(&r);
}

static char out[1 << 16], said[1 << 16];

/* `ARGS --report DIR/r.md` (exit 0) with the Markdown report read into
 * `out`, what the CLI wrote (stdout and stderr) into `said`; the file and
 * its temporary folder removed. */
static void size_report(const char *args)
{
    char dir[] = "/tmp/rl_rep_XXXXXX", cmd[768], path[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/r.md", dir);
    snprintf(cmd, sizeof cmd, "%s --report %s", args, path);
    assert_int_equal(run_cli(cmd, said, sizeof said), 0);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = 0;
    fclose(f);
    unlink(path);
    rmdir(dir);
}

/* tester5 #9: the report's "QPS x1.5" row resized the (5P+2D)x2 tp2 fp8
 * disagg recommendation for llama3-70b on h100-sxm at the same P:D ratio,
 * 22 chips (88.00 + 5.50 = 93.50 USD/h), where simulate meets 30 req/s with
 * (6P+2D)x2 (TTFT p99 0.715 s, TPOT p99 37.5 ms, tester5's run): each pool is
 * trimmed now, 16 chips at 68.00 USD/h (4.25 USD per chip-hour) while
 * AllReduces took NCCL's times.  Under TensorRT-LLM's own AllReduce (the
 * default engine's, collectives.h; fixS) the row reads TTFT p99 1232 ms,
 * TPOT p99 97.9 ms at the unchanged deployment and 18 chips, 76.50 USD/h,
 * to meet (docs/sizing/llama3-70b-h100-sxm.md, 2026-12-02 stop 24, after
 * the kernel tables' isotonic fit, ktable.h; 1211 ms and 101.5 ms with the
 * tables before; the AllReduces of a 2 MiB
 * prefill message over 2 H100 take 9.4 us against NCCL's 27.9 us, so the
 * pools' balance moves; which pool the greedy trim kept larger is not
 * printed).  Since fp8 keeps the embedding and LM head bf16 (dtype.h
 * rl_dtype_kept; h28dtype: 2 x 128,256 x 8,192 x 1 B = 2.10 GB more
 * weights a replica, the LM head's read doubled) the row reads TTFT p99
 * 1251 ms, TPOT p99 103.9 ms (this run); 18 chips, 76.50 USD/h unchanged.
 * Stop 29 (tester30 F3, workload.h rl_requests_redraw): the 2% of drawn
 * requests over the 8192-token context were shortened to exactly 8192
 * tokens and are drawn again now, so the workload is lighter: the
 * unchanged deployment meets 30 req/s (TTFT p99 795 ms, TPOT p99 32.3 ms,
 * 14 chips, 59.50 USD/h: docs/sizing/llama3-70b-h100-sxm.md regenerated),
 * and the trim shows at x0.5: 10 req/s met by pools trimmed to 6 chips
 * (3 replicas of 2), 25.50 USD/h, TTFT p99 493 ms (8 chips, 34.00 USD/h,
 * before).  Stop 33 (tester43 F2, serve.c send_kv): KV transfers take
 * turns on their prefill replica's link and a request stays outstanding
 * there until its KV has left, so the routing over the prefill pool moves:
 * with the fp8 GEMMs' block-scaled rows (tester44 F5) x1.5 reads TTFT p99
 * 798 ms, TPOT p99 31.9 ms, x0.5 495 ms, 19.5 ms; the deployments and
 * costs unchanged (docs/sizing/llama3-70b-h100-sxm.md regenerated).
 * Stop 38 (tester59 #1): the search trims the pools too, so the
 * recommendation is (4P+2D)x2, 12 chips, 51.00 USD/h (it was (5P+2D)x2):
 * x1.5 misses with it (TTFT p99 3334 ms, TPOT p99 33.7 ms) and is met
 * with 14 chips, 59.50 USD/h; x0.5 reads TTFT p99 498 ms, met with 6.
 * fixFL (ops.c tp_copies: a tp2 replica runs its norms and residual adds
 * whole on both chips, as TensorRT-LLM does; a 2000-token prefill +2%):
 * (4P+2D)x2 no longer sustains the sized 24 req/s, the recommendation is
 * (5P+2D)x2, 14 chips, 59.50 USD/h again; x1.5 misses with it (TTFT p99
 * 931 ms, TPOT p99 53.2 ms) and is met with 16 chips, 68.00 USD/h; x0.5
 * reads TTFT p99 510 ms, TPOT p99 19.6 ms, met by pools trimmed to 8.
 * fixGB (the trimmed pairs checked as the rows are: size.c trim_verify):
 * x1.5's trimmed (5P+3D)x2 sustains 29.88 req/s < 30, so the pair as
 * resized stays, (8P+3D)x2, 22 chips x 4.25 USD = 93.50 USD/h
 * (test_sensitivity_resized_sustains); x0.5's (3P+1D)x2 sustains 13.9.
 *
 * fixGC (engines.c ENGINE_FUSION: TensorRT-LLM runs each residual add and
 * RMSNorm as one kernel, inside the tp2 AllReduce below 1024 tokens): the
 * recommendation stays (5P+2D)x2; x1.5 is now met by it, TTFT p99 860 ms,
 * TPOT p99 31.4 ms, 14 chips, 59.50 USD/h; x0.5 reads 504 ms, 19.4 ms,
 * met by 8.  Both merged: x1.5's (5P+2D)x2 meets the p99 targets at 30
 * req/s but its max_sustainable_qps reads 29.9 (trim_verify's check), said
 * beside its 14 chips.
 * fixGF (collectives.h: a measured AllReduce between two sizes read
 * linearly in bytes, not in log-log): x1.5 TTFT p99 931 -> 893 ms, TPOT
 * p99 53.2 -> 50.4 ms, x0.5 TTFT p99 510 -> 509 ms; chips and prices
 * unchanged (before fixGC).  All three merged, with the engine profiles
 * regenerated: x1.5 TTFT p99 850 ms, TPOT p99 31.4 ms, 14 chips sustaining
 * 29.9 req/s; x0.5 503 ms, 19.4 ms, 8 chips.  Exact text (the simulator
 * is deterministic). */
static void test_sensitivity_trims_pools(void **state)
{
    (void)state;
    size_report("size --model llama3-70b --hw h100-sxm --qps 20 --prompt-len "
                "lognormal:2000:0.8 --out-len lognormal:300:0.8 --ttft-p99 1 --tpot-p99 0.05");
    assert_non_null(strstr(out, "## Sensitivity: h100-sxm (5P+2D)x2 tp2 w:fp8 kv:fp8 c:fp8 disagg"));
    /* tester43 F2 (KV link) and tester44 F5 (fp8 GEMMs take the faster
     * block-scaled rows) together: x1.5 TTFT p99 795 -> 798 ms, TPOT p99
     * 32.3 -> 31.9 ms; x0.5 TTFT 493 -> 495 ms, TPOT 22.3 -> 19.5 ms; chips
     * and prices unchanged */
    /* fixSB (the capacity search's ramp rule): the pick's batch cap 256 ->
     * 128 (30.79 -> 30.19 req/s), so x1.5's TPOT p99 31.4 -> 40.5 ms */
    if (!strstr(out, "| QPS x1.5 (30 req/s) | 850 | 40.5 | yes | 14 (sustains 29.9 req/s only) | 59.50 |") ||
        !strstr(out, "| QPS x0.5 (10 req/s) | 503 | 19.4 | yes | 8 | 34.00 |"))
        fail_msg("x0.5/x1.5 rows: %s", strstr(out, "| QPS x0.5") ? strstr(out, "| QPS x0.5") : out);
}

/* fixGB #1 (review of stop 38): the sensitivity rows' resized pairs were
 * trimmed (trim_pools) but never run through the capacity check the
 * sizing's rows go through (size.c trim_verify: rl_size_verify's check at
 * the what-if's load, the untrimmed pair put back when the trimmed one
 * fails it).  The docs/sizing/llama3-70b-h100-sxm.md scenario (the CLI's
 * defaults: reserve, headroom, seed, 4000 requests; calibrated) with its
 * recommendation (5P+2D)x2 tp2 fp8 disagg B<=128: at QPS x1.5 the trim
 * kept (5P+3D)x2, 16 chips, whose max_sustainable_qps on the x1.5
 * requests is 29.88 req/s < 30 (simulate of it, this run), reported as
 * meeting.  Now each resized QPS what-if is a pair whose figure is
 * simulate's for it on the same requests (exactly: the same double, as
 * test_capacity_start_free) and, where it meets, at least the what-if's
 * load; x1.5 was (8P+3D)x2, 22 chips (45.29 req/s, this run); after
 * fixGC's fused add+norm the untrimmed (5P+2D)x2 stays, 14 chips, its
 * capacity 29.9 req/s just short of 30, so it reads meets false. */
static void test_sensitivity_resized_sustains(void **state)
{
    (void)state;
    rl_model m = load_model("llama3-70b", NULL, 0);
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    rl_size_input in = {.m = &m, .hw = &h, .nhw = 1, .hbm_reserve = rl_param_default(RL_P_RESERVE),
                        .calibrated = 1, .headroom = rl_param_default(RL_P_HEADROOM),
                        .slo_ttft = 1, .slo_tpot = 0.05};
    in.w = (rl_workload){.n = 4000, .qps = 20, .prompt = {RL_DIST_LOGNORMAL, 2000, 0.8},
                         .output = {RL_DIST_LOGNORMAL, 300, 0.8},
                         .seed = (uint64_t)rl_param_default(RL_P_SEED)};
    rl_size_candidate c = {.hw = 0, .chips = 2, .pp = 1, .ep = 1, .layout = RL_ATTN_LAYOUT_TP,
                           .p = {RL_FP8, RL_FP8, RL_FP8}, .policy = RL_POLICY_DISAGG,
                           .replicas = 2, .prefill_replicas = 5, .max_seqs = 128,
                           .max_tokens = 8192};
    rl_size_curve curve;
    rl_size_sensitivity sens[3];
    char err[512], args[1024];
    static char buf[1 << 16];
    assert_int_equal(rl_size_study(&in, &c, &curve, sens, err, sizeof err), 0);
    for (int i = 1; i >= 0; i--) { /* QPS x1.5, x0.5 */
        const rl_size_candidate *r = &sens[i].resized;
        assert_true(sens[i].resized_ok);
        double load = in.w.qps * sens[i].qps_scale;
        snprintf(args, sizeof args,
                 "simulate --model llama3-70b --hw h100-sxm --chips 2 --weights fp8 --kv fp8 "
                 "--compute fp8 --policy disagg --replicas %d --prefill-replicas %d "
                 "--max-seqs 128 --max-tokens 8192 --qps %g --prompt-len lognormal:2000:0.8 "
                 "--out-len lognormal:300:0.8 --requests %lld --ttft-p99 1 --tpot-p99 0.05 "
                 "--format json",
                 r->replicas, r->prefill_replicas, load,
                 rl_size_requests(&in, sens[i].qps_scale));
        cJSON *j = run_cli_json(args, buf, sizeof buf);
        const cJSON *q = cJSON_GetObjectItem(j, "max_sustainable_qps");
        assert_true(cJSON_IsNumber(q));
        if (r->meets && q->valuedouble < load)
            fail_msg("x%g: (%dP+%dD)x2 reported to meet %g req/s, sustains %.4g (%s)",
                     sens[i].qps_scale, r->prefill_replicas, r->replicas, load, q->valuedouble,
                     args);
        if (q->valuedouble != json_written(r->max_qps))
            fail_msg("x%g: simulate %.17g, the row %.17g (%s)", sens[i].qps_scale,
                     q->valuedouble, r->max_qps, args);
        cJSON_Delete(j);
    }
    assert_false(sens[1].resized.meets);
    assert_int_equal(sens[1].resized.chips_total, 14);
}

/* tester59 #1: `size --model llama3-70b --hw h100-sxm,h200,tpu-v5p --qps 8
 * ... --headroom 0.3` listed h100-sxm (4P+2D)x2 tp2 fp8 disagg at 51.00
 * USD/h where simulate of (3P+1D)x2 met 8 and 10.4 req/s (TTFT p99 0.55 s)
 * for 34.00: the replica search keeps the estimate's prefill:decode ratio
 * (2:1 here), so from (4P+2D) one decode replica fewer is (2P+1D), which
 * misses, and (3P+1D) was never run.  The pools are trimmed one replica at
 * a time now as the report's sensitivity rows are (trim_pools): the row is
 * (3P+1D)x2, 8 chips x 4.25 USD per chip-hour = 34 USD/h (exact: prices
 * are the profile's), and it meets (this run: TTFT p99 533 ms,
 * max_sustainable_qps 16.6 >= 10.4). */
static void test_disagg_pools_trimmed(void **state)
{
    (void)state;
    char buf[1 << 18];
    cJSON *j = run_cli_json("size --model llama3-70b --hw h100-sxm --qps 8 --prompt-len "
                            "lognormal:2000:0.8 --out-len lognormal:300:0.8 --ttft-p99 1 "
                            "--tpot-p99 0.05 --headroom 0.3 --format json",
                            buf, sizeof buf);
    const cJSON *r, *hit = NULL;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(j, "rows"))
    {
        const char *cfg = cJSON_GetStringValue(cJSON_GetObjectItem(r, "config"));
        if (cfg && strstr(cfg, " tp2 w:fp8 kv:fp8 c:fp8 disagg") && !hit)
            hit = r;
    }
    assert_non_null(hit);
    const char *cfg = cJSON_GetStringValue(cJSON_GetObjectItem(hit, "config"));
    if (strncmp(cfg, "h100-sxm (3P+1D)x2 ", 19) != 0)
        fail_msg("fp8 tp2 disagg row: %s", cfg);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(hit, "meets")));
    assert_rel(cJSON_GetNumberValue(cJSON_GetObjectItem(hit, "cost")), 34.0, 1e-12);
    cJSON_Delete(j);
}

/* t56 #1: b200 has kernel tables (engine trtllm, measured on b200) and no
 * efficiency table; its Mode line said "estimated: the datasheet roofline
 * ... nothing was measured on this chip" beside "Provenance on b200: mode
 * calibrated".  It follows the rows' predicate (rl_hw_measured) now: exact
 * text. */
static void test_report_mode_kernel_tables(void **state)
{
    (void)state;
    /* the mode and price texts below are the sample's size's whatever its
     * size, and the Mode lines the profile's whatever its price: one run,
     * --requests 300 (make test-asan's) in make test too, its report and
     * JSON read; 4.6 CPU-s where two runs of the default 4000 took 2 x 15
     * (2-core VM, stop 52) */
    char args[256];
    snprintf(args, sizeof args, "size --model llama3-8b --hw b200 --qps 5 --prompt-len "
             "lognormal:1000:0.8 --out-len lognormal:200:0.8 --ttft-p99 1 --tpot-p99 0.05 "
             "--requests %d --set hw.price_per_chip_hour=0 --format json",
             RL_SAN_SMALL_REQUESTS);
    size_report(args);
    assert_null(strstr(out, "nothing was measured"));
    if (!strstr(out, "- Mode on b200: calibrated: operators an engine's kernel table covers") ||
        !strstr(out, "- Provenance on b200: mode calibrated; "))
        fail_msg("b200 mode lines: %s", out);
    /* t56 #3: b200 had no price: usd_per_mtok null on every row, not 0
     * (b200 is priced since new-user tester E: the price set to 0 here);
     * the JSON is on size_report's stdout, `said` */
    int rows = 0;
    for (const char *q = strstr(said, "\"usd_per_mtok\":"); q;
         q = strstr(q + 1, "\"usd_per_mtok\":")) {
        q += strlen("\"usd_per_mtok\":");
        q += strspn(q, " \t");
        assert_int_equal(strncmp(q, "null", 4), 0);
        rows++;
    }
    assert_true(rows > 0);
}

/* t56 #2: mixtral-8x7b on h100-sxm, whose trtllm tables hold no MoE kernel
 * of its expert shape: the routed experts are timed from the dense GEMM
 * table (step's note, ops.h rl_ops_moe_gemm_note).  The report's
 * provenance said "derived (another dtype's measured efficiency)" and size
 * said nothing; now both say it, size once for the profile (exact text). */
static void test_report_moe_from_gemm(void **state)
{
    (void)state;
    /* notes and provenance: any sample's, so --requests 300 (make
     * test-asan's) in make test too: 3.3 CPU-s, 8 with the default 4000
     * (2-core VM, stop 52) */
    char args[256];
    snprintf(args, sizeof args, "size --model mixtral-8x7b --hw h100-sxm --qps 2 --prompt-len "
             "lognormal:1000:0.8 --out-len lognormal:200:0.8 --ttft-p99 1 --tpot-p99 0.05 "
             "--requests %d", RL_SAN_SMALL_REQUESTS);
    size_report(args);
    const char *say = "roofline size: note: trtllm's kernel tables on h100-sxm measure no MoE "
                      "kernel of mixtral-8x7b's expert shape";
    const char *first = strstr(said, say);
    assert_non_null(first);
    assert_null(strstr(first + 1, say));
    if (!strstr(out, "derived (the routed experts timed from the dense GEMM table, MoE experts "
                     "below;") ||
        !strstr(out, "- MoE experts on h100-sxm: trtllm's kernel tables on h100-sxm measure no "
                     "MoE kernel of mixtral-8x7b's expert shape (hidden 4096, inter 14336, "
                     "top-2 of 8 experts): its routed experts are timed from the dense GEMM table"))
        fail_msg("MoE provenance: %s", out);
}

/* t56 #2: the recommended row's band reached TTFT p99 65.5 s at its high
 * edge against a 3 s target and the Recommendation said nothing: it names
 * the factor now (the edge set here by hand: 21.8x the fixture's 0.5 s
 * target, TPOT at the row's own p99 within its target; exact text), and
 * says nothing when the edge is within or under --conservative (the
 * figures are the edge).  t56 #3: a priced profile without price_source
 * read "(2.50 USD per chip-hour, )". */
static void test_report_band_edge_caution(void **state)
{
    fixture *f = *state;
    rl_size_candidate *b = &f->res.c[0], save = *b;
    assert_true(b->meets && f->res.priced);
    rl_hw h = f->h[0];
    h.price_source[0] = '\0';
    rl_size_input in = f->in;
    in.hw = &h;
    rl_size_report_data d = {&in, &f->res, NULL, NULL, "test workload", "test"};
    b->banded = 1;
    for (int k = 0; k < 6; k++)
        b->edge[0][k] = b->edge[1][k] = 0;
    b->edge[1][1] = 21.8 * f->in.slo_ttft;
    b->edge[1][3] = b->tpot_p99;
    char want[160];
    snprintf(want, sizeof want, "Caution on the band: at the band's upper edge TTFT p99 %.3g s is "
             "21.8x the 0.5 s target; size --conservative sizes against it.", 21.8 * 0.5);
    for (int cons = 0; cons < 2; cons++) {
        in.conservative = cons;
        char *t = rl_size_report_render(&d, 0);
        assert_non_null(t);
        if ((strstr(t, want) != NULL) != !cons)
            fail_msg("conservative %d: '%s' %s", cons, want, t);
        assert_null(strstr(t, "per chip-hour, )"));
        assert_non_null(strstr(t, "2.50 USD per chip-hour)"));
        free(t);
    }
    in.conservative = 0;
    b->edge[1][1] = b->ttft_p99; /* within: no caution */
    char *t = rl_size_report_render(&d, 0);
    assert_null(strstr(t, "Caution on the band"));
    free(t);
    *b = save;
}

/* t56 #4: the Method section said "batch cap (16..256)" beside rows of
 * B<=512 and more: under attention data parallel a cap is per chip
 * (size.c), so mixtral-8x7b on a100-sxm-80g (the tester's smx command)
 * simulates caps up to 1024; the line names the range the rows read
 * (exact text, the search deterministic). */
static void test_report_caps_searched(void **state)
{
    (void)state;
    size_report("size --model mixtral-8x7b --hw a100-sxm-80g --qps 10 --prompt-len "
                "lognormal:1000:0.6 --out-len lognormal:250:0.6 --ttft-p99 1.5 --tpot-p99 0.05 "
                "--requests 500");
    if (!strstr(out, "batch cap (16..256 sequences, per chip of a replica under attention data "
                     "parallel: the simulated rows read 64..1024)"))
        fail_msg("Method caps: %s", out);
}

/* tester33 final read: size's prompt x2 what-if on a --trace cuts the
 * scaled requests over max_context to fit (workload.h rl_requests_truncate:
 * a trace has no distribution to draw again from) and said nothing; the
 * row now names the share, as it does for a generated draw.  Every request
 * here (prompt 5000, output 50) is 10,050 tokens at x2, over llama3-8b's
 * 8192: 100.0% (exact count, no tolerance). */
static void test_report_trace_cut_said(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_trace_cut_XXXXXX", path[64], args[256];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/t.csv", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (int i = 0; i < 101; i++) /* size's fewest (cli.c SIZE_TRACE_MIN) */
        fprintf(f, "%g,5000,50\n", i * 0.5);
    fclose(f);
    snprintf(args, sizeof args, "size --model llama3-8b --hw h100-sxm --trace %s --ttft-p99 2 "
             "--tpot-p99 0.05", path);
    size_report(args);
    assert_non_null(strstr(out, "prompt length x2 (100.0% over max_context, cut to fit)"));
    unlink(path);
    rmdir(dir);
}

/* tester28 F11: the Markdown report escaped `|` as `\|` everywhere, so
 * its Command line (a code span outside any table) read `--set
 * 'model.name=a\|b*c'`, not the command run.  Expected: the command
 * verbatim in its code span, and the name unescaped in the heading; `\|`
 * stays for table cells only (sizereport.c esc_in). */
static void test_report_command_verbatim(void **state)
{
    (void)state;
    size_report("size --model llama3-8b --hw h100-sxm --qps 1 --prompt-len 100 --out-len 10 "
                "--ttft-p99 1 --tpot-p99 0.05 --set 'model.name=a|b*c'");
    assert_non_null(strstr(out, "# Deployment sizing: a|b*c at 1 req/s"));
    assert_non_null(strstr(out, "--set 'model.name=a|b*c' --report"));
    assert_null(strstr(out, "a\\|b"));
}

/* tester59 #5: the report's hardware line read "network 50.0 GB/s per
 * chip" for h100-sxm, the scale-out figure, while NVLink carries a
 * replica's TP collectives.  Expected: both links with what crosses each;
 * h100-sxm.lua: 18 links x 25 GB/s = 450 GB/s one-way (NVLink 4's 900 GB/s
 * both ways), domains of 8 chips, net_bw 50 GB/s (exact text). */
static void test_report_names_both_links(void **state)
{
    (void)state;
    size_report("size --model llama3-8b --hw h100-sxm --qps 1 --prompt-len 100 --out-len 10 "
                "--ttft-p99 1 --tpot-p99 0.05 --max-chips 1 --requests 50");
    if (!strstr(out, "scale-up (switch, the chip-to-chip links: NVLink) 450.0 GB/s one-way per "
                     "chip (18 links x 25.0 GB/s) within a domain of 8 chips, carrying the "
                     "collectives of a replica's chips inside one domain; scale-out network "
                     "50.0 GB/s per chip between domains"))
        fail_msg("hardware line: %s", strstr(out, "h100-sxm: 80 GiB") ? strstr(out, "h100-sxm: 80 GiB") : out);
}

/* fixJH (README-only tester): the report left out the JSON's host_cost_note,
 * so a plan timed by kernel + collective time (h100-sxm's trtllm tables, no
 * per-step host cost: result.c hostless_engine) read as an engine's
 * end-to-end latency.  Expected: the note stated once, beside the
 * recommendation (before the next section), naming trtllm; JSON's key is
 * the same text. */
static void test_report_host_cost_caution(void **state)
{
    (void)state;
    const char *args = "size --model llama3-8b --hw h100-sxm --qps 1 --prompt-len 100 "
                       "--out-len 10 --ttft-p99 1 --tpot-p99 0.05 --max-chips 1 --requests 50";
    size_report(args);
    const char *want = "Caution: the latencies behind this recommendation are a lower bound: "
                       "step times are kernel + collective time: no per-step host cost of the "
                       "trtllm engine";
    const char *at = strstr(out, want), *rec = strstr(out, "## Recommendation");
    if (!at || !rec || at < rec)
        fail_msg("no caution after the recommendation: %s", out);
    assert_null(strstr(at + 1, "Caution: the latencies behind"));
    const char *next = strstr(rec + 3, "\n## ");
    assert_true(!next || at < next);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --format json", args);
    cJSON *j = run_cli_json(cmd, said, sizeof said);
    const char *note = cJSON_GetStringValue(cJSON_GetObjectItem(j, "host_cost_note"));
    assert_non_null(note);
    assert_non_null(strstr(at, note));
    cJSON_Delete(j);
}

/* tester59 #4: `size --format table` left out the bands and the cost per
 * million tokens that JSON, CSV and the report have.  Expected: the table's
 * header names usd_per_mtok and the p99s' band edges, and each row's edges
 * hold its p99 (the same numbers as JSON's ttft_p99_s_low/high, in ms). */
static void test_table_shows_bands(void **state)
{
    (void)state;
    static char tbl[1 << 16];
    const char *args = "size --model llama3-8b --hw h100-sxm --qps 1 --prompt-len 100 "
                       "--out-len 10 --ttft-p99 1 --tpot-p99 0.05 --max-chips 1 --requests 50";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --format table", args);
    assert_int_equal(run_cli(cmd, tbl, sizeof tbl), 0);
    const char *keys[] = {"usd_per_mtok", "ttft_p99_ms_low", "ttft_p99_ms_high",
                          "tpot_p99_ms_low", "tpot_p99_ms_high"};
    for (int k = 0; k < 5; k++)
        if (!strstr(tbl, keys[k]))
            fail_msg("table lacks %s: %s", keys[k], tbl);
    snprintf(cmd, sizeof cmd, "%s --format json", args);
    cJSON *j = run_cli_json(cmd, out, sizeof out);
    const cJSON *r = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0);
    double lo = cJSON_GetNumberValue(cJSON_GetObjectItem(r, "ttft_p99_s_low")),
           v = cJSON_GetNumberValue(cJSON_GetObjectItem(r, "ttft_p99_s")),
           hi = cJSON_GetNumberValue(cJSON_GetObjectItem(r, "ttft_p99_s_high"));
    assert_true(lo <= v && v <= hi && lo < hi);
    cJSON_Delete(j);
}

/* review29 M4: a fitted profile's mode line read "communication 1.00 of
 * peak" although comm_eff is held at 1 (not fitted: the fit cannot split
 * it from tp_excess) and scales the chip's measured NCCL tables, not a
 * peak; tp_excess (4.87 on h100-sxm-splitwise, calib/fit_splitwise.sh) went
 * unnamed.  Expected: each figure with what the fit said of it (the
 * profile's fitted_on.status), comm_eff against the measured time and
 * tp_excess named.  Exact text of the shipped profile's values (%.2f /
 * %.3g). */
static void test_report_fitted_comm(void **state)
{
    (void)state;
    size_report("size --model llama2-70b --hw h100-sxm-splitwise --qps 1 --prompt-len 500 "
                "--out-len 50 --ttft-p99 3 --tpot-p99 0.1 --requests 100");
    assert_non_null(strstr(out, "the device at compute 0.84 (fitted) and memory 0.68 (fitted) of "
                                "peak, the collectives at comm_eff 1 (held) of the chip's measured "
                                "NCCL time, plus tp_excess 4.87 (fitted) x that time"));
    assert_null(strstr(out, "communication 1.00 of peak"));
    /* a fitted profile charges the engine's host costs: no lower-bound caution (fixJH) */
    assert_null(strstr(out, "are a lower bound"));
}

/* A chart with a target line: one polyline per line series, a circle per
 * point, the dashed target. */
static void test_svg_chart(void **state)
{
    (void)state;
    double x[3] = {1, 2, 3}, y[3] = {10, 20, 15};
    rl_svg_series s = {"a<b", x, y, 3, 0};
    char *svg = rl_svg_chart("t", "x", "y", &s, 1, 18, "target");
    assert_non_null(svg);
    assert_non_null(strstr(svg, "<polyline"));
    assert_non_null(strstr(svg, "stroke-dasharray"));
    int circles = 0;
    for (const char *p = strstr(svg, "<circle"); p; p = strstr(p + 1, "<circle"))
        circles++;
    assert_int_equal(circles, 3);
    assert_non_null(strstr(svg, "</svg>"));
    free(svg);
}


static void test_cli_simulate_and_size(void **state)
{
    (void)state;
    char path[64], dir[] = "/tmp/rl_plot_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char args[1024];
    snprintf(args, sizeof args,
             "simulate --model llama3-8b --hw h100-sxm --qps 5 --prompt uniform:100:2000 "
             "--output 100 --requests 500 --policy chunked --format json --plot %s",
             dir);
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "\"ttft_p99_s\""));
    assert_non_null(strstr(out, "\"kv_timeline\""));
    char f[256];
    snprintf(f, sizeof f, "%s/latency_cdf.dat", dir);
    assert_int_equal(access(f, R_OK), 0);
    assert_int_equal(remove_tree(dir), 0);
    /* trace errors name the file, line and field; exit code 2 */
    write_temp(path, ".csv", "0,100,10\n0.5,100,x\n");
    snprintf(args, sizeof args, "simulate --model llama3-8b --hw h100-sxm --trace %s", path);
    assert_int_equal(run_cli(args, out, sizeof out), 2);
    unlink(path);
    assert_non_null(strstr(out, ":2: field 'output_tokens'"));
    /* tester3 item 12: the flags given that the trace overrides are named, --out-len too;
     * tester50 F11: refused (exit 2) as --burst and --seed are, not "ignored" with exit 0 */
    write_temp(path, ".csv", "0,100,10\n0.5,100,10\n");
    snprintf(args, sizeof args, "simulate --model llama3-8b --hw h100-sxm --trace %s --out-len 10 "
             "--format csv", path);
    assert_int_equal(run_cli(args, out, sizeof out), 2);
    assert_non_null(strstr(out, "--out-len: --trace gives the arrivals and lengths"));
    /* tester9 #8: a trace draws nothing, so its seed key is null (it read -1) */
    snprintf(args, sizeof args, "simulate --model llama3-8b --hw h100-sxm --trace %s --format json",
             path);
    cJSON *j = run_cli_json(args, out, sizeof out);
    unlink(path);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "seed")));
    cJSON_Delete(j);
    /* tester13 #7: three requests at t = 0 have no offered rate (2 arrivals
     * over 0 s read "2e+12 offered"): qps null and a note naming the burst */
    write_temp(path, ".csv", "0,100,10\n0,100,10\n0,100,10\n");
    snprintf(args, sizeof args, "simulate --model llama3-8b --hw h100-sxm --trace %s --format json",
             path);
    j = run_cli_json(args, out, sizeof out);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "qps")));
    cJSON_Delete(j);
    snprintf(args, sizeof args, "simulate --model llama3-8b --hw h100-sxm --trace %s --format csv",
             path);
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    unlink(path);
    assert_non_null(strstr(out, "note: --trace: its 3 requests all arrive at t = 0 s, at once"));
    assert_null(strstr(out, "offered;"));
    assert_null(strstr(out, "overloaded"));
    /* --prefixes N:LEN beside a trace: LEN is the length of a prefix its line
     * leaves out, N is not used (the trace names the prefix), and it says so */
    write_temp(path, ".csv", "0,100,10,0\n0.5,100,10,1,30\n");
    snprintf(args, sizeof args, "simulate --model llama3-8b --hw h100-sxm --trace %s "
             "--prefixes 7:50 --prefix-cache 1 --format csv", path);
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    unlink(path);
    assert_non_null(strstr(out, "note: --prefixes 7:50 beside --trace: the trace names each "
                                "request's prefix (prefix_id), so N is not used; LEN = 50"));
    assert_int_equal(run_cli("simulate --model llama3-8b --hw h100-sxm --qps 5 --prompt bad "
                             "--output 10", out, sizeof out), 2);
    assert_non_null(strstr(out, "--prompt"));
    /* size writes a report */
    char rep[64];
    write_temp(rep, ".md", "");
    snprintf(args, sizeof args,
             "size --model llama3-8b --hw h100-sxm --qps 10 --prompt 1000 --output 200 "
             "--ttft-p99 0.5 --tpot-p99 0.03 --requests 1000 --report %s --format csv", rep);
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "config,chips_total"));
    /* tester11 #11: 120 s at 10 req/s is 1200 requests, more than --requests
     * 1000; the note gives simulate's --requests to reproduce a row */
    assert_non_null(strstr(out, "note: each row ran 1200 requests at --qps (about 120 s of "
                                "arrivals; more than --requests 1000; JSON key requests): simulate "
                                "reproduces a row with --requests 1200"));
    /* fixKL #5: a load refused before any row ran (1e5 req/s on one chip:
     * over 256 replicas) has no note of rows run (before: "each row
     * ran 30000 requests ... 120 s").  fixNF #2: that refusal is the
     * search's limit, not a verdict: exit 2 (was 3, "no configuration meets
     * both targets"), and it says so and what to do */
    assert_int_equal(run_cli("size --model llama3-8b --hw h100-sxm --qps 100000 --prompt-len 256 "
                             "--out-len 32 --ttft-p99 1 --tpot-p99 0.05 --requests 300 "
                             "--keep-precision --max-chips 1 --format json", out, sizeof out), 2);
    assert_null(strstr(out, "each row ran"));
    assert_null(strstr(out, "\"rows\"")); /* nothing on stdout */
    assert_null(strstr(out, "no configuration meets both targets"));
    assert_non_null(strstr(out, "roofline size: --qps: search limit reached, no verdict on the "
                                "targets: 1e+05 req/s x 1.20 (headroom) needs more than 256 "
                                "replicas a pool, size's fixed search limit"));
    assert_non_null(strstr(out, "no flag raises it"));
    FILE *fp = fopen(rep, "r");
    assert_non_null(fp);
    char head[64] = "";
    assert_non_null(fgets(head, sizeof head, fp));
    fclose(fp);
    unlink(rep);
    assert_non_null(strstr(head, "# Deployment sizing: llama3-8b"));
}

/* Issue 14, tester91 #2: a load whose cheapest plans come in under the
 * 256-replica bound by estimate (add_plan, 85% / 80% of the step-time
 * rates).  llama3-8b on one H100 a replica, bf16, 1000 + 200 tokens at 7000
 * req/s x 1.2: every continuous and chunked plan needs more than 256 by
 * estimate (the fewest 301); the disaggregated ones fit.  Until fixUA their
 * runs at the bound read "queue grows" while their own capacity searches
 * sustained up to 11290 req/s of the 8400 sized (the ramp of ~400 replicas'
 * count over 30,000 requests read as a backlog), and the search ended "past
 * the limit".  Now they meet within the bound: expected at least one
 * meeting row, every pool within it, each sustaining the sized 8400 req/s
 * (`simulate --policy disagg --prefill-replicas 221 --replicas 154 --qps
 * 7000 --prompt-len 1000 --out-len 200 --ttft-p99 1 --tpot-p99 0.05
 * --requests 30000` sustains 8899 req/s, TTFT p99 21 ms, TPOT p99 11 ms),
 * and rl_size_past_limit false.  The refusal's own rule and words, for rows
 * that did miss with their queue growing at the bound, are
 * test_past_limit_rows_at_bound's. */
static void test_search_limit_after_simulation(void **state)
{
    fixture *f = *state;
    rl_size_input in = f->in;
    in.prec = &(rl_precision){RL_BF16, RL_BF16, RL_BF16};
    in.nprec = 1;
    in.calibrated = 1;
    in.max_chips = 1;
    in.slo_ttft = 1;
    in.slo_tpot = 0.05;
    in.w = (rl_workload){.n = 300, .qps = 7000, .prompt = {RL_DIST_FIXED, 1000, 0},
                         .output = {RL_DIST_FIXED, 200, 0}, .seed = 1};
    rl_size_result r;
    char err[512];
    assert_int_equal(rl_size_search(&in, &r, err, sizeof err), 0);
    assert_true(r.nmeet > 0);
    for (int i = 0; i < r.n; i++) {
        assert_true(r.c[i].replicas <= RL_SIZE_MAX_REPLICAS);
        assert_true(r.c[i].prefill_replicas <= RL_SIZE_MAX_REPLICAS);
    }
    for (int i = 0; i < r.nmeet; i++)
        assert_true(r.c[i].max_qps >= 1.2 * in.w.qps);
    assert_false(rl_size_past_limit(&r));
    rl_size_result_free(&r);
}

/* rl_size_past_limit, rl_size_deployments and rl_size_why_none on rows
 * that missed with their queue growing at the most replicas the bound
 * allows (tester91 #2's case as measured before fixUA: 2 disaggregated
 * rows at 256 a pool, max_sustainable_qps at most 6879 req/s of the 8400
 * sized, 7000 req/s x 1.2; the other plans dropped by estimate, the fewest
 * 301): the search's limit, not a verdict: 3 deployments, the fewest a
 * share needs by the rows' own capacity, 256 x 8400 / 6879 = 313 replicas,
 * beside the estimate's 301, over half the bound (128) is ceil(301 / 128)
 * = 3 (exact: integer rule).  No simulation: the rows are given. */
static void test_past_limit_rows_at_bound(void **state)
{
    fixture *f = *state;
    rl_size_input in = f->in;
    in.w.qps = 7000;
    rl_size_candidate c[2] = {{.replicas = 180, .prefill_replicas = RL_SIZE_MAX_REPLICAS,
                               .policy = RL_POLICY_DISAGG, .at_replica_bound = 1,
                               .fails_on = RL_SIZE_MISS_QUEUE, .max_qps = 6879},
                              {.replicas = 200, .prefill_replicas = RL_SIZE_MAX_REPLICAS,
                               .policy = RL_POLICY_DISAGG, .at_replica_bound = 1,
                               .fails_on = RL_SIZE_MISS_QUEUE | RL_SIZE_MISS_TTFT,
                               .max_qps = 6500}};
    rl_size_result r = {.c = c, .n = 2, .beyond_bound = 7, .fewest_replicas = 301};
    char why[1024];
    assert_true(rl_size_past_limit(&r));
    assert_int_equal(rl_size_deployments(&in, &r), 3);
    rl_size_why_none(&in, &r, why, sizeof why);
    assert_non_null(strstr(why, "--qps: search limit reached, no verdict on the targets: 7e+03 "
                                "req/s x 1.20 (headroom) needs more than 256 replicas a pool"));
    assert_non_null(strstr(why, "2 simulated at the most replicas the bound allows, each with "
                                "its queue growing (max_sustainable_qps at most 6879 req/s)"));
    assert_non_null(strstr(why, "(--qps 2.33e+03 for each of 3 deployments, each about 128 "
                                "replicas a pool or fewer, half the bound"));
    c[1].at_replica_bound = 0; /* a row below the bound: a verdict on the targets */
    assert_false(rl_size_past_limit(&r));
    /* stop 54: a row at the bound missing only TTFT p99, its queue not
     * growing, whose capacity search finds 6500 req/s within the targets
     * (a share that small meets at the bound): the limit too, worded so
     * (it exited 3, "nothing meets", before); at 0 (even the floor load
     * misses) or null it is a verdict on the targets; a row whose capacity
     * is short at the bound (step_to_capacity's count past it) is the limit */
    c[1].at_replica_bound = 1;
    c[1].fails_on = RL_SIZE_MISS_TTFT;
    assert_true(rl_size_past_limit(&r));
    rl_size_why_none(&in, &r, why, sizeof why);
    assert_non_null(strstr(why, "2 simulated at the most replicas the bound allows, each short "
                                "of the load for want of replicas (its queue growing, or its "
                                "p99s met only at a lower load)"));
    c[1].max_qps = 0;
    assert_false(rl_size_past_limit(&r));
    c[1].max_qps = NAN;
    assert_false(rl_size_past_limit(&r));
    c[1].fails_on = RL_SIZE_MISS_TTFT | RL_SIZE_MISS_INCOMPLETE;
    c[1].max_qps = 6500;
    assert_false(rl_size_past_limit(&r));
    c[1].fails_on = RL_SIZE_MISS_CAPACITY;
    assert_true(rl_size_past_limit(&r));
    /* The command line refuses whatever rl_size_past_limit refuses (cli.c:
     * exit 2, the reason, nothing on stdout), checked on the load refused
     * before any row ran (test_cli_simulate_and_size, 1e5 req/s). */
}

/* A row's max_sustainable_qps says when it is a lower bound, as simulate's
 * does (fixU left it out of size rows): llama3-8b on up to 2 H100s,
 * 100-token prompts.  2000 output tokens at 0.5 req/s on --requests 50 (60
 * run: 120 s of arrivals): a request stays about 20 s, so at the top rows'
 * capacities (7-12 req/s) the search needs a sample of about 2 x 20 s x
 * 12 = 480 requests; it grows its sample (the 60 repeated, serve.c
 * capacity_sample) at most RL_SERVE_CAPACITY_GROWS times and still ends
 * short (measured), so the top row is flagged.  20 output tokens at 2 req/s on
 * --requests 4000: no row is.  200 output tokens at 1 req/s on --requests
 * 60 (120 run): every row measured on the repeated sample, none a lower
 * bound, which size's note counts.  (Before the sample repeated its
 * requests, 200 requests of the second shape flagged the top row at 381.8
 * req/s; the repeated 240 now read 381.8 unflagged, 371.7 on 4000.) */
static void test_rows_flag_lower_bounds(void **state)
{
    (void)state;
    char buf[1 << 16];
    const char *shape[] = {"--qps 0.5 --out-len 2000 --requests 50",
                           "--qps 2 --out-len 20 --requests 4000",
                           "--qps 1 --out-len 200 --requests 60"};
    for (int k = 0; k < 3; k++) {
        char args[512];
        snprintf(args, sizeof args, "size --model llama3-8b --hw h100-sxm --prompt-len 100 %s "
                 "--ttft-p99 1 --tpot-p99 0.05 --max-chips 2 --format json", shape[k]);
        cJSON *j = run_cli_json(args, buf, sizeof buf);
        const cJSON *rows = cJSON_GetObjectItem(j, "rows"), *row;
        int flagged = 0, counted = 0, repeated = 0, noted = 0;
        cJSON_ArrayForEach(row, rows) {
            const cJSON *b = cJSON_GetObjectItem(row, "max_sustainable_qps_is_lower_bound");
            const cJSON *r = cJSON_GetObjectItem(row, "max_sustainable_qps_from_repeated_sample");
            assert_true(cJSON_IsBool(b) && cJSON_IsBool(r));
            flagged += cJSON_IsTrue(b);
            repeated += cJSON_IsTrue(r);
            noted += cJSON_IsTrue(r) && !cJSON_IsTrue(b); /* a lower bound says that first */
            counted++;
        }
        /* stop 25: size counts those rows in one note, as simulate notes a
         * run (the third shape; the first shape's rows are all lower
         * bounds, whose note comes first) */
        if (k == 2) {
            char note[160];
            snprintf(note, sizeof note, "note: %d row(s) read a max_sustainable_qps that rests on "
                     "these 120 requests", noted); /* 120 s of arrivals at 1 req/s */
            snprintf(args, sizeof args, "size --model llama3-8b --hw h100-sxm --prompt-len 100 %s "
                     "--ttft-p99 1 --tpot-p99 0.05 --max-chips 2", shape[k]);
            assert_int_equal(run_cli(args, buf, sizeof buf), 0);
            if (noted == 0 || !strstr(buf, note))
                fail_msg("%d rows from a repeated sample, not lower bounds: no '%s'", noted, note);
        }
        /* review24 M3: 50 distinct requests repeated (fewer than the
         * search's own 4000) mark the top row; 4000 mark none */
        const cJSON *top_r = cJSON_GetObjectItem(cJSON_GetArrayItem(rows, 0),
                                                 "max_sustainable_qps_from_repeated_sample");
        if (k == 1 ? repeated != 0 : !cJSON_IsTrue(top_r))
            fail_msg("%s: %d of %d rows from a repeated sample", shape[k], repeated, counted);
        assert_true(counted > 0);
        const cJSON *top = cJSON_GetArrayItem(rows, 0);
        /* fixSB: the search's own growths for the count's ramp (serve.h
         * RL_SERVE_CAPACITY_RAMP_SPANS) now take the first shape's sample
         * past its settle span: the top row reads 9.32 req/s from the
         * repeated sample (flagged so, above), no longer a lower bound */
        if (k == 0 && !cJSON_IsFalse(cJSON_GetObjectItem(top, "max_sustainable_qps_is_lower_bound")))
            fail_msg("60 requests (--requests 50) of 2000 tokens: the top row is flagged");
        if (k == 1 && flagged != 0)
            fail_msg("4000 requests: %d of %d rows flagged", flagged, counted);
        cJSON_Delete(j);
    }
}

/* A null max_sustainable_qps in size's rows says why, in simulate's words
 * (cli.c capacity_null_reason; h23dis left size's nulls without a note):
 * llama3-8b on one H100 at 0.1 req/s on --requests 30 (120 s of arrivals
 * at 0.1 req/s is 12, so 30 run) meets with every row's capacity null,
 * below the 50 requests of the search's steady window (serve.h
 * RL_SERVE_STEADY_MIN). */
static void test_rows_say_why_null(void **state)
{
    (void)state;
    static char out[1 << 16];
    const char *args = "size --model llama3-8b --hw h100-sxm --qps 0.1 --prompt-len 100 "
                       "--out-len 20 --ttft-p99 1 --tpot-p99 0.05 --requests 30 --max-chips 1 "
                       "--format json";
    cJSON *j = run_cli_json(args, out, sizeof out);
    const cJSON *rows = cJSON_GetObjectItem(j, "rows"), *row;
    int nulls = 0;
    cJSON_ArrayForEach(row, rows)
        nulls += cJSON_IsNull(cJSON_GetObjectItem(row, "max_sustainable_qps"));
    assert_true(nulls > 0 && nulls == cJSON_GetArraySize(rows));
    cJSON_Delete(j);
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    char want[256];
    snprintf(want, sizeof want, "roofline size: note: %d row(s) read max_sustainable_qps null (not "
             "found): 30 requests are too few for the capacity search's steady window (50 or "
             "more: --requests)", nulls);
    if (!strstr(out, want))
        fail_msg("no word on %d null capacities: %s", nulls, out);
}

/* tester55 F3: the report's "KV pool holds N tokens" rounded the pool
 * (929285.6 tokens of llama3-8b on one h200 printed 929286) where size's
 * JSON and simulate floor it to 929285 (size.h rl_size_kv_tokens, the one
 * figure).  The report quotes the best row's kv_capacity_tokens_per_replica
 * exactly (924908 since trtllm's activation workspace, 0.9 x 637,534,208 B
 * / 131,072 B a token = 4377.6 tokens fewer, memory.h rl_memory_workspace;
 * from this run's JSON; a whole number, no tolerance). */
static void test_report_kv_pool_is_json(void **state)
{
    (void)state;
    static char js[1 << 18];
    char dir[] = "/tmp/rl_kvrep_XXXXXX", cmd[768], path[64], want[96];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/r.md", dir);
    snprintf(cmd, sizeof cmd, "size --model llama3-8b --hw h200 --qps 1 --prompt-len 1000 "
             "--out-len 100 --ttft-p99 2 --tpot-p99 0.1 --keep-precision --max-chips 1 "
             "--requests 50 --format json --report %s", path);
    cJSON *j = run_cli_json(cmd, js, sizeof js);
    const cJSON *best = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0);
    double kv = cJSON_GetObjectItem(best, "kv_capacity_tokens_per_replica")->valuedouble;
    assert_true(kv == 924908);
    cJSON_Delete(j);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = 0;
    fclose(f);
    snprintf(want, sizeof want, "The KV pool holds %.0f tokens per replica", kv);
    assert_non_null(strstr(out, want));
    unlink(path);
    rmdir(dir);
}

/* Headless Chromium loads the HTML report with no console errors and its
 * SVG figures have a size (skipped when chromium is not installed). */
static void test_html_in_chromium(void **state)
{
    fixture *f = *state;
    if (system("command -v chromium >/dev/null 2>&1") != 0)
        skip();
    rl_size_curve curve;
    rl_size_sensitivity sens[3];
    char err[512];
    assert_int_equal(rl_size_study(&f->in, &f->res.c[0], &curve, sens, err, sizeof err), 0);
    rl_size_report_data d = {&f->in, &f->res, &curve, sens, "test workload", "test"};
    char *t = rl_size_report_render(&d, 1);
    assert_non_null(t);
    /* a script that reports each figure's rendered size into the DOM */
    const char *probe =
        "<script>window.onload=function(){var s=document.querySelectorAll('svg'),o=[];"
        "for(var i=0;i<s.length;i++){var b=s[i].getBoundingClientRect(),c=s[i].querySelectorAll('circle,polyline').length;o.push(b.width>100&&b.height>100&&c>0?'ok':'bad'+b.width+'x'+b.height+'c'+c);}"
        "document.title='FIGS:'+o.join(',');};</script></body>";
    char *end = strstr(t, "</body>");
    assert_non_null(end);
    *end = 0;
    char html[64], dom[96];
    char *full = malloc(strlen(t) + strlen(probe) + 16);
    sprintf(full, "%s%s</html>\n", t, probe);
    free(t);
    write_temp(html, ".html", full);
    free(full);
    snprintf(dom, sizeof dom, "%s.log", html);
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "chromium --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 "
             "--virtual-time-budget=2000 --dump-dom file://%s >%s.dom 2>%s",
             html, html, dom);
    int rc = system(cmd);
    char buf[1 << 16];
    snprintf(cmd, sizeof cmd, "%s.dom", html);
    FILE *fp = fopen(cmd, "r");
    size_t n = fp ? fread(buf, 1, sizeof buf - 1, fp) : 0;
    buf[n] = 0;
    if (fp)
        fclose(fp);
    char log[1 << 14];
    fp = fopen(dom, "r");
    size_t ln = fp ? fread(log, 1, sizeof log - 1, fp) : 0;
    log[ln] = 0;
    if (fp)
        fclose(fp);
    unlink(html);
    unlink(dom);
    unlink(cmd);
    assert_int_equal(rc, 0);
    if (strstr(log, "Uncaught") || strstr(log, ":ERROR:CONSOLE"))
        fail_msg("console errors: %s", log);
    char *title = strstr(buf, "FIGS:");
    if (!title)
        fail_msg("the probe did not run; DOM: %.300s", buf);
    char *lt = strchr(title, '<');
    if (lt)
        *lt = 0;
    if (strstr(title, "bad"))
        fail_msg("a figure did not render: %.200s", title);
    assert_non_null(strstr(title, "ok,ok,ok"));
}

/* tester9 #7c: h100-sxm-splitwise (engine costs fitted end to end on
 * SplitwiseSim, 29.6 ms per decode step of host floor) and h100-sxm
 * (TRT-LLM kernel tables) differ 2.6-3.4x on Llama-2-70B TP8 decode: a
 * search over both says why; over one kind, or under --ideal, nothing. */
static void test_evidence_note(void **state)
{
    (void)state;
    static rl_hw hw[2];
    hw[0] = load_hw("h100-sxm", NULL, 0);
    hw[1] = load_hw("h100-sxm-splitwise", NULL, 0);
    char note[1024];
    assert_int_equal(rl_size_evidence_note(hw, 2, 1, note, sizeof note), 1);
    if (!strstr(note, "h100-sxm-splitwise times steps with engine costs fitted end to end "
                      "(splitwise)") || !strstr(note, "(29.6 ms per decode step)") ||
        !strstr(note, "h100-sxm's kernel tables (trtllm)"))
        fail_msg("%s", note);
    assert_int_equal(rl_size_evidence_note(hw, 1, 1, note, sizeof note), 0);
    assert_int_equal(rl_size_evidence_note(hw + 1, 1, 1, note, sizeof note), 0);
    assert_int_equal(rl_size_evidence_note(hw, 2, 0, note, sizeof note), 0);
}

/* size of `model` on h100-sxm-splitwise (fitted on Llama-2-70B): 0.5 req/s
 * of 500-token prompts and 50-token outputs (60 requests), TTFT p99 <= 2 s,
 * TPOT p99 <= 0.1 s; with tp4 > 0 its fit is read as TP4-only
 * (fitted_on.grid.tp = {4, 4}); conservative as size --conservative (the
 * profile moved to its slow edge, rows banded on the profile's own);
 * prec, when given, the one precision searched.  Returns
 * rl_size_search's status, err in err. */
/* The engine search_on_as selects (NULL: the profile's default). */
static const char *search_engine;
/* 1: search_on_as's band is p5-p95 (size --band p5-p95), else p10-p90. */
static int search_wide;
/* search_on_as's requests and load (60 at 0.5 req/s unless a test sets them) */
static long long search_n = 60;
static double search_qps = 0.5;

static int search_on_as(const char *hwname, const char *model, int tp4, int conservative,
                        const rl_precision *prec, rl_size_result *r, char *err, size_t errlen)
{
    static rl_model m;
    static rl_hw hw[1], base[1];
    m = load_model(model, NULL, 0);
    base[0] = load_hw(hwname, NULL, 0);
    if (search_engine)
        assert_int_equal(rl_engines_select(&base[0].engines, search_engine, "test", err, errlen),
                         0);
    if (tp4)
        base[0].engine_costs.grid[RL_EC_TP][0] = base[0].engine_costs.grid[RL_EC_TP][1] = 4;
    hw[0] = base[0];
    if (conservative)
        assert_int_equal(rl_size_slow_edges(hw, 1, m.name, 0, search_wide, err, errlen), 0);
    rl_size_input in = {.m = &m, .hw = hw, .nhw = 1, .hbm_reserve = 0.1, .slo_ttft = 2,
                        .slo_tpot = 0.1, .headroom = RL_SIZE_HEADROOM, .calibrated = 1,
                        .band_hw = base, .conservative = conservative, .prec = prec,
                        .nprec = prec != NULL, .band_wide = search_wide};
    in.w = (rl_workload){.n = search_n, .qps = search_qps, .prompt = {RL_DIST_FIXED, 500, 0},
                         .output = {RL_DIST_FIXED, 50, 0}, .seed = 5};
    return rl_size_search(&in, r, err, errlen);
}

static int search_splitwise_as(const char *model, int tp4, int conservative,
                               const rl_precision *prec, rl_size_result *r, char *err,
                               size_t errlen)
{
    return search_on_as("h100-sxm-splitwise", model, tp4, conservative, prec, r, err, errlen);
}

static void search_on_splitwise(const char *model, rl_size_result *r)
{
    char err[512];
    assert_int_equal(search_splitwise_as(model, 0, 0, NULL, r, err, sizeof err), 0);
}

/* tester18 F14: on a profile with fitted engine costs, the plans they
 * time (h100-sxm-splitwise: Llama-2-70B, fp16 weights, TP2-TP8) are
 * searched.  Their estimated cost sits above fp8's, so no bf16 plan was
 * among the simulated ones and every row read `estimated`; each replica
 * kind's cheapest fitted plan is now simulated too (size.c pick_plans), so
 * some row is bf16 and labelled fitted. */
static void test_fitted_plans_simulated(void **state)
{
    (void)state;
    rl_size_result r;
    search_on_splitwise("llama2-70b", &r);
    int fitted = 0, other = 0;
    for (int i = 0; i < r.n; i++) {
        fitted += r.c[i].p.weights == RL_BF16 && !strcmp(r.c[i].mode, "fitted");
        /* h27lab: fp8/int8 rows lie off the bf16-only fit: no band, counted */
        if (r.c[i].p.weights != RL_BF16) {
            other++;
            assert_false(r.c[i].banded);
        }
    }
    assert_true(fitted > 0);
    assert_true(other > 0);
    assert_int_equal(r.unbanded_off_fit, other);
    rl_size_result_free(&r);
}

/* review27 M2 (second half) and h27lab: size --conservative sized every
 * plan on its profile's slow edge, also plans the fit withholds a band
 * from (fp8/int8 on the bf16-only fit; TP 2 and 8 on a TP4-only one),
 * whose edge is only the widened rule of thumb.  Only plans with a band
 * are eligible now: on the TP4-only reading of h100-sxm-splitwise every
 * row is bf16 at TP 4, the others counted (unbanded_off_fit); searching
 * fp8 alone leaves no plan: refused, saying why. */
static void test_conservative_only_banded_plans(void **state)
{
    (void)state;
    rl_size_result r;
    char err[512];
    assert_int_equal(search_splitwise_as("llama2-70b", 1, 1, NULL, &r, err, sizeof err), 0);
    assert_true(r.n > 0);
    assert_true(r.unbanded_off_fit > 0);
    for (int i = 0; i < r.n; i++) {
        long long pp = r.c[i].pp > 1 ? r.c[i].pp : 1;
        if (r.c[i].p.weights != RL_BF16 || r.c[i].p.kv != RL_BF16 || r.c[i].chips / pp != 4)
            fail_msg("row %d: %s, %lld chips, pp %lld", i, rl_dtype_name(r.c[i].p.weights),
                     r.c[i].chips, pp);
    }
    rl_size_result_free(&r);
    rl_precision fp8 = {RL_FP8, RL_FP8, RL_FP8};
    assert_int_equal(search_splitwise_as("llama2-70b", 0, 1, &fp8, &r, err, sizeof err), -1);
    if (!strstr(err, "every plan searched lies off its fit") ||
        !strstr(err, "weights fp8 (fitted on weights bf16 only)"))
        fail_msg("%s", err);
}

/* fixIE (issue 13 leftover): size --conservative --band p5-p95 sized each
 * row on its p95 run alone while the row's printed high edge is the
 * farther of its p95 and p90 runs (e2e.h rl_e2e_band_runs: the simulator's
 * p99 is not monotone in the step cost), so a row could meet its targets
 * on a TTFT p99 below its own ttft_p99_s_high.  Now every run of a
 * conservative wide search is made at both edges and takes the farther
 * (size.c take_farther), the band's rule: each banded row's six times are
 * its printed high edge (result.c add_p99_band: fmax(edge, figure)),
 * exactly (to 1e-12 relative: the same runs).  Before, at 200 requests
 * of 4 req/s, llama2-70b on h100-sxm-splitwise sized its first row on a
 * TTFT p99 of 0.3204 s against a printed high edge of 0.3275 s (the p90
 * run's); expected now: no row's high edge above its figure. */
static void test_conservative_wide_sizes_on_printed_edge(void **state)
{
    (void)state;
    static const char *const HW[2] = {"h100-sxm", "h100-sxm-splitwise"};
    char err[1024];
    search_wide = 1;
    search_n = 200;
    search_qps = 4;
    for (int h = 0; h < 2; h++) {
        rl_size_result r;
        assert_int_equal(search_on_as(HW[h], "llama2-70b", 0, 1, NULL, &r, err, sizeof err), 0);
        int banded = 0;
        for (int i = 0; i < r.n; i++) {
            const rl_size_candidate *c = &r.c[i];
            const double v[6] = {c->ttft_p50, c->ttft_p99, c->tpot_p50, c->tpot_p99, c->e2e_p50,
                                 c->e2e_p99};
            banded += c->banded;
            for (int k = 0; c->banded && k < 6; k++)
                if (c->edge[1][k] > v[k] * (1 + 1e-12))
                    fail_msg("%s row %d key %d: sized on %.9g, printed high edge %.9g", HW[h],
                             i, k, v[k], c->edge[1][k]);
        }
        assert_true(banded > 0);
        rl_size_result_free(&r);
    }
}

/* The search's defaults back after a test that changed them, failed or not
 * (a failed assertion leaves the test early: a teardown still runs). */
static int search_defaults(void **state)
{
    (void)state;
    search_wide = 0;
    search_n = 60;
    search_qps = 0.5;
    return 0;
}

/* The set-up the two --conservative report tests share: llama2-70b on
 * nhw profiles, `first`, then `second` repeated (base[], their own band;
 * hw[] the slow edges of it), fp8 weights, KV and compute searched alone,
 * 60 requests of 500 + 50 tokens at 0.5 req/s, TTFT 2 s, TPOT 0.1 s, into
 * *in and *r (a failed search fails the test).  The caller's static arrays
 * hold the model and profiles, which *in and the report point into. */
static void conservative_fp8_search(const char *first, const char *second, int nhw, rl_model *m,
                                    rl_hw *hw, rl_hw *base, rl_size_input *in, rl_size_result *r)
{
    char err[512];
    *m = load_model("llama2-70b", NULL, 0);
    base[0] = load_hw(first, NULL, 0);
    base[1] = load_hw(second, NULL, 0);
    for (int k = 2; k < nhw; k++)
        base[k] = base[1];
    for (int k = 0; k < nhw; k++)
        hw[k] = base[k];
    assert_int_equal(rl_size_slow_edges(hw, nhw, m->name, 0, 0, err, sizeof err), 0);
    static const rl_precision fp8 = {RL_FP8, RL_FP8, RL_FP8};
    *in = (rl_size_input){.m = m, .hw = hw, .nhw = nhw, .hbm_reserve = 0.1, .slo_ttft = 2,
                          .slo_tpot = 0.1, .headroom = RL_SIZE_HEADROOM, .calibrated = 1,
                          .band_hw = base, .conservative = 1, .prec = &fp8, .nprec = 1};
    in->w = (rl_workload){.n = 60, .qps = 0.5, .prompt = {RL_DIST_FIXED, 500, 0},
                          .output = {RL_DIST_FIXED, 50, 0}, .seed = 5};
    if (rl_size_search(in, r, err, sizeof err) != 0)
        fail_msg("%s", err);
}

/* tester72 finding 3: size --conservative on a fitted profile beside a
 * calibrated one left every plan of the fitted one out (off its fit: said
 * on stderr alone), yet the report listed it as considered, its mode,
 * memory rule and price, and its Provenance line timed a step at "bf16
 * weights" though it was fitted on fp8 rows only.  Here h100-sxm-splitwise
 * (fitted on Llama-2-70B, bf16 weights, KV and compute, TP 2-8) beside h200
 * (trtllm kernel tables), fp8 searched alone: every splitwise plan lies off
 * its fit (weights fp8, fitted on bf16 only), h200's rows are sized.  The
 * report now says per profile that none was sized and why (the count and
 * the first plan's reason), and the Provenance line names the fit's rows
 * and times its step at their first dtype (bf16) and smallest TP (2). */
static void test_report_says_profile_not_sized(void **state)
{
    (void)state;
    static rl_model m;
    static rl_hw hw[2], base[2];
    rl_size_input in;
    rl_size_result r;
    conservative_fp8_search("h100-sxm-splitwise", "h200", 2, &m, hw, base, &in, &r);
    assert_true(r.n > 0);
    for (int i = 0; i < r.n; i++)
        assert_int_equal(r.c[i].hw, 1);
    assert_true(r.left_out_hw[0][0] > 0 && r.left_out_hw[0][0] == r.unbanded_off_fit);
    assert_true(r.left_out_hw[0][1] == 0 && r.left_out_hw[1][0] == 0);
    rl_size_report_data d = {&in, &r, NULL, NULL, "test workload", "test"};
    char *md = rl_size_report_render(&d, 0);
    char want[256];
    snprintf(want, sizeof want, "No plan on h100-sxm-splitwise was sized: --conservative left "
             "out %lld of its plans (%lld off its fit; first: ", r.left_out_hw[0][0],
             r.left_out_hw[0][0]);
    const char *prov = strstr(md, "Provenance on h100-sxm-splitwise");
    if (!strstr(md, want) || !strstr(md, "weights fp8 (fitted on weights bf16 only)") ||
        strstr(md, "No plan on h200") || !prov ||
        !strstr(prov, "its fit's rows: weights bf16, KV bf16, compute bf16 (no row on it") ||
        !strstr(prov, "2 chips, bf16 weights"))
        fail_msg("%s", md);
    free(md);
    rl_size_result_free(&r);
}

/* fixMA: the per-profile count of plans --conservative left out covered
 * the first 16 of --hw only (a fixed [16] array); a 17th profile's report
 * fell back to "pruned analytically or ... costlier", a wrong why.  Here
 * h200 then 16 copies of h100-sxm-splitwise (fp8 off its bf16 fit, every
 * plan left out, as above): each of the 16, the last at index 16 too, has
 * its plans counted (left_out_hw[k][0] > 0, equal over the copies: the
 * same plans) and the report says so 16 times, the fallback never. */
static void test_report_left_out_past_16_profiles(void **state)
{
    (void)state;
    enum { NHW = 17 };
    static rl_model m;
    static rl_hw hw[NHW], base[NHW];
    rl_size_input in;
    rl_size_result r;
    conservative_fp8_search("h200", "h100-sxm-splitwise", NHW, &m, hw, base, &in, &r);
    assert_int_equal(r.left_out_n, NHW);
    assert_true(r.left_out_hw[0][0] == 0 && r.left_out_hw[0][1] == 0);
    for (int k = 1; k < NHW; k++)
        if (r.left_out_hw[k][0] != r.left_out_hw[1][0] || r.left_out_hw[k][0] <= 0 ||
            strncmp(r.left_out_why[k], r.left_out_why[1], sizeof r.left_out_why[k]) != 0)
            fail_msg("profile %d: %lld left out (%s), profile 1 %lld", k, r.left_out_hw[k][0],
                     r.left_out_why[k], r.left_out_hw[1][0]);
    rl_size_report_data d = {&in, &r, NULL, NULL, "test workload", "test"};
    char *md = rl_size_report_render(&d, 0);
    int said = 0;
    for (const char *q = md; (q = strstr(q, "No plan on h100-sxm-splitwise was sized: "
                                            "--conservative left out")) != NULL; q++)
        said++;
    if (said != NHW - 1 || strstr(md, "No plan on h100-sxm-splitwise was sized: each of its"))
        fail_msg("said %d times, want %d: %s", said, NHW - 1, md);
    free(md);
    rl_size_result_free(&r);
}

/* review28 L3: on kernel tables, --conservative sized plans at a dtype the
 * tables do not measure (h100-sxm's TensorRT-LLM tables hold bf16 and fp8:
 * int8 weights and KV are derived, engines.h DERIVED, mode estimated) on a
 * band widened one octave that docs/model.md says does not cover the
 * derived time's bias, while it left fitted plans off their dtype out.
 * Now they are left out too: llama3-8b on h100-sxm under --conservative
 * keeps rows (bf16, fp8) and none at int8, the int8 plans counted in
 * unbanded_derived (0 before: every int8 plan searched; expected > 0) and
 * named in derived_why; searching int8 alone leaves no plan: refused,
 * saying why.  A plain search keeps its int8 plans (count 0). */
static void test_conservative_leaves_derived_dtypes_out(void **state)
{
    (void)state;
    rl_size_result r;
    char err[1024];
    assert_int_equal(search_on_as("h100-sxm", "llama3-8b", 0, 1, NULL, &r, err, sizeof err), 0);
    assert_true(r.n > 0);
    assert_true(r.unbanded_derived > 0);
    assert_int_equal(r.unbanded_off_fit, 0);
    assert_non_null(strstr(r.derived_why, "h100-sxm: trtllm's kernel tables measure no "));
    for (int i = 0; i < r.n; i++)
        if (r.c[i].p.weights == RL_INT8 || r.c[i].p.kv == RL_INT8)
            fail_msg("row %d: int8 (derived) sized on its widened band", i);
    rl_size_result_free(&r);
    rl_precision int8 = {RL_INT8, RL_INT8, RL_INT8};
    assert_int_equal(search_on_as("h100-sxm", "llama3-8b", 0, 1, &int8, &r, err, sizeof err), -1);
    if (!strstr(err, "every plan searched runs a dtype its kernel tables do not measure (first: "
                     "h100-sxm: trtllm's kernel tables measure no GEMM of int8 weights x int8 "
                     "compute, nor int8 KV-cache attention)"))
        fail_msg("%s", err);
    assert_int_equal(search_on_as("h100-sxm", "llama3-8b", 0, 0, &int8, &r, err, sizeof err), 0);
    assert_true(r.n > 0);
    assert_int_equal(r.unbanded_derived, 0);
    rl_size_result_free(&r);
    /* tester29 F10: gpt-oss (quantized = "experts") in mxfp4 runs its dense
     * matmuls bf16, measured, but its routed experts at mxfp4, which no
     * table holds (timed at their roofline: step reads estimated, table
     * share 0.28); it was sized under --conservative (the check read the
     * dense pair only) while llama3-8b mxfp4 was refused */
    rl_precision mx = {RL_MXFP4, RL_BF16, RL_BF16};
    assert_int_equal(search_on_as("h100-sxm", "gpt-oss-120b", 0, 1, &mx, &r, err, sizeof err), -1);
    if (!strstr(err, "h100-sxm: trtllm's kernel tables measure no MoE kernel of mxfp4 weights "
                     "x bf16 compute for the routed experts' shape"))
        fail_msg("%s", err);
    /* stop 29 (h29mxfp4): vLLM's tables time gpt-oss's MXFP4 experts
     * (engines.h w4a16_mxfp4, gpt-oss-120b's shape measured on H100), so
     * the check reads that MoE table and sizes it (it read the GEMM
     * tables, which hold no mxfp4: refused, as trtllm above) */
    search_engine = "vllm";
    int rc = search_on_as("h100-sxm", "gpt-oss-120b", 0, 1, &mx, &r, err, sizeof err);
    search_engine = NULL;
    if (rc != 0)
        fail_msg("%s", err);
    assert_true(r.n > 0);
    assert_int_equal(r.unbanded_derived, 0);
    rl_size_result_free(&r);
}

/* review27 M2: rows whose plan lies off a fitted profile's fit (here a
 * model it never saw: every row) carry no band, and the result counts them
 * and says why (unbanded_off_fit, off_fit_why; the CLI prints the note);
 * they were skipped silently beside "band: p10-p90". */
static void test_off_fit_rows_counted(void **state)
{
    (void)state;
    rl_size_result r;
    search_on_splitwise("llama3-8b", &r);
    assert_true(r.n > 0);
    assert_int_equal(r.unbanded_off_fit, r.n);
    assert_non_null(strstr(r.off_fit_why, "model llama3-8b (fitted on llama2-70b only)"));
    for (int i = 0; i < r.n; i++)
        assert_false(r.c[i].banded);
    rl_size_result_free(&r);
}

/* The load a search sizes for, (1 + headroom) x the offered load (size.h
 * rl_size_sized_qps, the one helper the verification, the carried rows and
 * the notes read): 4 req/s at headroom 0.25 is 5 req/s, exactly (both
 * binary fractions); headroom 0 is the load itself. */
static void test_sized_qps(void **state)
{
    (void)state;
    rl_size_input in;
    memset(&in, 0, sizeof in);
    in.w.qps = 4;
    in.headroom = 0.25;
    assert_true(rl_size_sized_qps(&in) == 5.0);
    in.headroom = 0;
    assert_true(rl_size_sized_qps(&in) == 4.0);
}

/* fixJM #1: the one function behind the report's "Caution on the band"
 * and size's stderr caution.  Expected: a TTFT edge of 2x a 1 s target
 * misses (bit 0), a TPOT edge below the row's p99 reads as the row's p99
 * (0.05 s against 0.04 s: bit 1), no TPOT bit where the row has none,
 * nothing for an unbanded row; exact (no arithmetic beyond fmax). */
static void test_band_edge_misses(void **state)
{
    (void)state;
    rl_size_input in;
    rl_size_candidate c;
    memset(&in, 0, sizeof in);
    memset(&c, 0, sizeof c);
    in.slo_ttft = 1;
    in.slo_tpot = 0.04;
    c.banded = 1;
    c.ttft_p99 = 0.5;
    c.edge[1][1] = 2;
    c.tpot_p99 = 0.05;
    c.edge[1][3] = 0.03;
    double hi[2];
    assert_int_equal(rl_size_band_edge_misses(&in, &c, hi), 3);
    assert_true(hi[0] == 2 && hi[1] == 0.05);
    c.no_tpot = 1;
    assert_int_equal(rl_size_band_edge_misses(&in, &c, hi), 1);
    c.edge[1][1] = 0.9;
    assert_int_equal(rl_size_band_edge_misses(&in, &c, hi), 0);
    c.edge[1][1] = 2;
    c.banded = 0;
    assert_int_equal(rl_size_band_edge_misses(&in, &c, hi), 0);
}

/* The rows of run a and b are the same, field by field that the report
 * and JSON read (labels, counts, figures, band edges). */
static void assert_same_rows(const rl_size_input *in, const rl_size_result *a,
                             const rl_size_result *b)
{
    assert_int_equal(a->n, b->n);
    assert_int_equal(a->pruned, b->pruned);
    assert_int_equal(a->skipped_for_time, b->skipped_for_time);
    assert_int_equal(a->unbanded_for_time, b->unbanded_for_time);
    assert_true(a->events == b->events);
    for (int i = 0; i < a->n; i++) {
        const rl_size_candidate *x = &a->c[i], *y = &b->c[i];
        char lx[256], ly[256];
        rl_size_label(in, x, lx, sizeof lx);
        rl_size_label(in, y, ly, sizeof ly);
        assert_string_equal(lx, ly);
        assert_int_equal(x->meets, y->meets);
        assert_int_equal(x->banded, y->banded);
        const double fx[] = {x->ttft_p99, x->tpot_p99, x->e2e_p50, x->max_qps,
                             x->steady_out_tokens_per_s, x->cost_per_hour},
                     fy[] = {y->ttft_p99, y->tpot_p99, y->e2e_p50, y->max_qps,
                             y->steady_out_tokens_per_s, y->cost_per_hour};
        assert_memory_equal(fx, fy, sizeof fx);
        assert_memory_equal(x->edge, y->edge, sizeof x->edge);
    }
}

/* size's threads (rl_size_input.threads, --threads) change no row: the
 * search on h100-sxm and tpu-v5e (llama3-8b, 10 req/s, bf16 replicas of up
 * to 2 chips, calibrated, its band runs) on 1 and 4 threads gives the same rows, figures and band
 * edges bit for bit, and the same events; with a work budget spent part
 * way (a quarter of the events of the whole search) the same plans are
 * simulated and skipped as on one thread (size.c simulate_plans: a plan
 * starts while the events of the plans before it, in order, are within
 * the bound).  Source: the rows of one thread are the search as it ran
 * before threads; tolerance none. */
static void test_threads_same_rows(void **state)
{
    fixture *f = *state;
    rl_size_input in = f->in;
    in.nhw = 2;
    in.calibrated = 1;
    in.max_chips = 2;
    in.w.qps = 10;
    in.prec = &(rl_precision){RL_BF16, RL_BF16, RL_BF16};
    in.nprec = 1;
    in.band_hw = f->h;
    if (rl_san_small()) /* one thread against four: any sample */
        in.w.n = RL_SAN_SMALL_REQUESTS;
    rl_size_result one, four;
    char err[512];
    in.threads = 1;
    assert_int_equal(rl_size_search(&in, &one, err, sizeof err), 0);
    in.threads = 4;
    assert_int_equal(rl_size_search(&in, &four, err, sizeof err), 0);
    assert_true(one.n > 4);
    assert_same_rows(&in, &one, &four);
    unsigned long long all = one.events;
    rl_size_result_free(&one);
    rl_size_result_free(&four);
    in.work_budget = all / 4;
    in.threads = 1;
    assert_int_equal(rl_size_search(&in, &one, err, sizeof err), 0);
    in.threads = 4;
    assert_int_equal(rl_size_search(&in, &four, err, sizeof err), 0);
    assert_true(one.skipped_for_time > 0);
    assert_same_rows(&in, &one, &four);
    rl_size_result_free(&one);
    rl_size_result_free(&four);
}

/* fixNJ: under --conservative a row the work budget left without its band
 * runs (unbanded_for_time: banded 0, has_centre 0) has null central times
 * (size.h rl_size_time: no run at the band's centre), but it was sized
 * against the band's high edge, its own figures: its *_high keys give
 * them (before, add_p99_band gated them on banded: every latency key was
 * null and the run appeared nowhere), *_low stays null or absent, and its
 * no_band says why the central keys are null.  The fixture's best row
 * (llama3-8b on h100-sxm) with banded and has_centre cleared, as
 * band_rows leaves a row past the budget; exact (the same doubles). */
static double jnum(const cJSON *o, const char *key)
{
    const cJSON *x = cJSON_GetObjectItem(o, key);
    return cJSON_IsNumber(x) ? x->valuedouble : NAN;
}

static void test_conservative_unbanded_keeps_high(void **state)
{
    fixture *f = *state;
    rl_size_input in = f->in;
    in.calibrated = 1;
    in.conservative = 1;
    rl_size_candidate c = f->res.c[0];
    c.banded = 0;
    c.has_centre = 0;
    rl_size_result r = f->res;
    r.c = &c;
    r.n = 1;
    r.unbanded_for_time = 1;
    for (int detail = 0; detail < 2; detail++) {
        cJSON *j = rl_result_size(&in, &r, detail);
        const cJSON *o = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0);
        assert_non_null(o);
        assert_true(cJSON_IsNull(cJSON_GetObjectItem(o, "ttft_p99_s")));
        assert_true(cJSON_IsNull(cJSON_GetObjectItem(o, "tpot_p99_s")));
        assert_true(jnum(o, "ttft_p99_s_high") == c.ttft_p99);
        assert_true(jnum(o, "tpot_p99_s_high") == c.tpot_p99);
        const cJSON *low = cJSON_GetObjectItem(o, "ttft_p99_s_low");
        assert_true(!low || cJSON_IsNull(low));
        if (detail) {
            assert_true(jnum(o, "e2e_p99_s_high") == c.e2e_p99);
            assert_true(jnum(o, "e2e_p50_s_high") == c.e2e_p50);
            assert_true(jnum(o, "ttft_p50_s_high") == c.ttft_p50);
            char *t = cJSON_PrintUnformatted(o);
            if (!strstr(t, "under --conservative its central times"))
                fail_msg("no_band does not say why the central times are null: %s", t);
            free(t);
        }
        cJSON_Delete(j);
    }
}

/* fixTB #2: a signal before the search simulated anything (the flag set
 * before it: the draw of the load's sample stops at its first check)
 * read "workload: interrupted (SIGINT) after 0 of N requests drawn", one
 * draw's words; size says where its search stopped.  The mid-search case
 * end to end: test_interrupt sigterm_in_size_says_configurations. */
static void test_interrupt_says_search_stage(void **state)
{
    fixture *f = *state;
    rl_size_result r;
    char err[512];
    rl_interrupt_raise();
    int rc = rl_size_search(&f->in, &r, err, sizeof err);
    rl_interrupt_clear();
    assert_int_equal(rc, -1);
    if (!strstr(err, "interrupted (SIGINT) before any configuration was simulated (while "
                     "drawing the load's requests and pruning the plans analytically); nothing "
                     "written"))
        fail_msg("%s", err);
}

int main(void)
{
    struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_same_rows),
        cmocka_unit_test(test_precision_not_asked_cautioned),
        cmocka_unit_test(test_band_edge_misses),
        cmocka_unit_test(test_sized_qps),
        cmocka_unit_test(test_fitted_plans_simulated),
        cmocka_unit_test(test_off_fit_rows_counted),
        cmocka_unit_test(test_conservative_only_banded_plans),
        cmocka_unit_test(test_conservative_leaves_derived_dtypes_out),
        cmocka_unit_test(test_report_says_profile_not_sized),
        cmocka_unit_test(test_report_left_out_past_16_profiles),
        cmocka_unit_test_teardown(test_conservative_wide_sizes_on_printed_edge, search_defaults),
        cmocka_unit_test(test_recommendation_is_minimal),
        cmocka_unit_test(test_conservative_unbanded_keeps_high),
        cmocka_unit_test(test_one_token_outputs_have_no_tpot),
        cmocka_unit_test(test_frontier_monotone),
        cmocka_unit_test(test_frontier_drops_equal_cost_rows),
        cmocka_unit_test(test_frontier_tolerance),
        cmocka_unit_test(test_overload_never_meets),
        cmocka_unit_test(test_resize_lighter_load_is_fewest),
        cmocka_unit_test(test_report_pick_cautions),
        cmocka_unit_test(test_report_sensitivity_p99_only),
        cmocka_unit_test(test_report_rank_sentence),
        cmocka_unit_test(test_row_says_why_it_fails),
        cmocka_unit_test(test_simulate_agrees_on_capacity),
        cmocka_unit_test(test_capacity_start_free),
        cmocka_unit_test(test_capacity_not_raised_to_sized_load),
        cmocka_unit_test(test_one_rule_decides_meets),
        cmocka_unit_test(test_impossible_targets),
        cmocka_unit_test(test_tpot_prune_is_lower_bound),
        cmocka_unit_test(test_tpot_bound_at_sample_quantile),
        cmocka_unit_test(test_tie_prefers_margin),
        cmocka_unit_test(test_label_names_compute),
        cmocka_unit_test(test_tie_prefers_evidence),
        cmocka_unit_test(test_tie_prefers_resolved_capacity),
        cmocka_unit_test(test_moe_searches_attn_dp), cmocka_unit_test(test_unpriced_cost_is_chips),
        cmocka_unit_test(test_pipeline_layouts_searched),
        cmocka_unit_test(test_pipeline_kind_holds_per_stream),
        cmocka_unit_test(test_pipeline_stages_fill_domains),
        cmocka_unit_test(test_band_runs_within_budget),
        cmocka_unit_test(test_mixed_hw_keeps_bands),
        cmocka_unit_test(test_mixed_prices_count_chips),
        cmocka_unit_test(test_memory_busiest_kv_stage),
        cmocka_unit_test(test_every_replica_size_simulated),
        cmocka_unit_test(test_equal_cost_precisions_simulated),
        cmocka_unit_test(test_report_sections),
        cmocka_unit_test(test_report_band),
        cmocka_unit_test(test_report_sustains_column),
        cmocka_unit_test(test_report_kv_sequences_floored),
        cmocka_unit_test(test_report_pipeline_stages),
        cmocka_unit_test(test_report_memory_adds_up),
        cmocka_unit_test(test_report_conservative_and_first_row),
        cmocka_unit_test(test_report_headroom_words),
        cmocka_unit_test(test_report_activation_caution),
        cmocka_unit_test(test_cost_is_the_decimal),
        cmocka_unit_test(test_report_escapes_names),
        cmocka_unit_test(test_report_mode_kernel_tables),
        cmocka_unit_test(test_report_moe_from_gemm),
        cmocka_unit_test(test_report_band_edge_caution),
        cmocka_unit_test(test_report_caps_searched),
        cmocka_unit_test(test_svg_chart),
        cmocka_unit_test(test_sensitivity_trims_pools),
        cmocka_unit_test(test_report_command_verbatim),
        cmocka_unit_test(test_report_trace_cut_said),
        cmocka_unit_test(test_report_fitted_comm),
        cmocka_unit_test(test_evidence_note),
        cmocka_unit_test(test_cli_simulate_and_size),
        cmocka_unit_test(test_rows_flag_lower_bounds),
        cmocka_unit_test(test_rows_say_why_null),
        cmocka_unit_test(test_html_in_chromium),
        cmocka_unit_test(test_report_kv_pool_is_json),
        cmocka_unit_test(test_disagg_pools_trimmed),
        cmocka_unit_test(test_sensitivity_resized_sustains),
        cmocka_unit_test(test_report_names_both_links),
        cmocka_unit_test(test_report_host_cost_caution),
        cmocka_unit_test(test_table_shows_bands),
        cmocka_unit_test(test_search_limit_after_simulation),
        cmocka_unit_test(test_past_limit_rows_at_bound),
        cmocka_unit_test(test_interrupt_says_search_stage),
        cmocka_unit_test(test_resize_ramp_is_not_backlog),
    };
    if (getenv("RL_TEST_FILTER")) /* one test's name (a glob): a single test while editing */
        cmocka_set_test_filter(getenv("RL_TEST_FILTER"));
    size_t ntests = rl_test_shard(tests, sizeof tests / sizeof tests[0]);
    return _cmocka_run_group_tests("tests", tests, ntests, setup, teardown);
}
