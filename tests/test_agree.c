/* test_agree.c — one configuration, one answer: the commands that judge
 * the same deployment (step, step --tp, shard, pareto, simulate, prefill)
 * give the same feasibility and the same times (tester15 F-mem-1,
 * F-pareto-1, F-csv-1). */
#include "testutil.h"

#include <cjson/cJSON.h>

static char out[1 << 17];

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(v))
        fail_msg("missing number '%s'", key);
    return v->valuedouble;
}

static const cJSON *row(const cJSON *j, int i)
{
    return cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), i);
}

static int fits(const cJSON *r)
{
    const cJSON *f = cJSON_GetObjectItem(r, "fits");
    if (!cJSON_IsBool(f))
        fail_msg("row without 'fits'");
    return cJSON_IsTrue(f);
}

/* The generate row of `strategy` in a shard result. */
static const cJSON *shard_row(const cJSON *j, const char *strategy)
{
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(j, "rows"))
        if (strcmp(cJSON_GetObjectItem(r, "phase")->valuestring, "generate") == 0 &&
            strcmp(cJSON_GetObjectItem(r, "strategy")->valuestring, strategy) == 0)
            return r;
    fail_msg("no generate row '%s'", strategy);
    return NULL;
}

/* One configuration at its largest batch B and at B + 1 through every
 * command: `base` (model, hw, context), `chips`, the plan's name in shard.
 * B is the engine's memory rule worked by hand (memory.h, TensorRT-LLM's
 * "free" rule: KV <= 0.9 x (HBM - weights - overhead) per chip). */
static void same_fit_everywhere(const char *model, long long chips, long long context,
                                long long B, const char *plan)
{
    char cmd[512];
    /* step (without a plan on one chip; on more, TP over them) */
    snprintf(cmd, sizeof cmd, "step --model %s --hw h100-sxm --chips %lld --context %lld "
             "--batch %lld,%lld --format json", model, chips, context, B, B + 1);
    cJSON *j = run_cli_json(cmd, out, sizeof out);
    assert_true(fits(row(j, 0)));
    assert_false(fits(row(j, 1)));
    if (chips == 1)
        assert_true(num(j, "max_batch") == (double)B);
    cJSON_Delete(j);
    /* step with the plan given */
    snprintf(cmd, sizeof cmd, "step --model %s --hw h100-sxm --tp %lld --context %lld "
             "--batch %lld,%lld --format json", model, chips, context, B, B + 1);
    j = run_cli_json(cmd, out, sizeof out);
    assert_true(fits(row(j, 0)));
    assert_false(fits(row(j, 1)));
    cJSON_Delete(j);
    /* shard (plans timed ideal, fits by the same rule) */
    for (long long b = B; b <= B + 1; b++) {
        snprintf(cmd, sizeof cmd, "shard --model %s --hw h100-sxm --chips %lld --context %lld "
                 "--batch %lld --format json", model, chips, context, b);
        j = run_cli_json(cmd, out, sizeof out);
        assert_int_equal(fits(shard_row(j, plan)), b == B);
        cJSON_Delete(j);
    }
    /* pareto: B kept, B + 1 kept out */
    snprintf(cmd, sizeof cmd, "pareto --model %s --hw h100-sxm --chips %lld --context %lld "
             "--batch %lld --format json", model, chips, context, B);
    j = run_cli_json(cmd, out, sizeof out);
    assert_true(num(j, "feasible") >= 1);
    cJSON_Delete(j);
    snprintf(cmd, sizeof cmd, "pareto --model %s --hw h100-sxm --chips %lld --context %lld "
             "--batch %lld --format json", model, chips, context, B + 1);
    assert_int_not_equal(run_cli(cmd, out, sizeof out), 0); /* "none of the points fits" */
    assert_non_null(strstr(out, "fits in HBM"));
    /* simulate: its KV pool holds B sequences of `context` tokens, not B + 1 */
    snprintf(cmd, sizeof cmd, "simulate --model %s --hw h100-sxm --chips %lld --qps 1 "
             "--prompt-len 100 --out-len 10 --requests 50 --format json", model, chips);
    j = run_cli_json(cmd, out, sizeof out);
    assert_true(floor(num(j, "kv_capacity_tokens_per_replica") / (double)context) == (double)B);
    cJSON_Delete(j);
}

/* tester15 F-mem-1: `step --tp N` and `shard` judged `fits` against the raw
 * HBM (step --tp 1 took batch 115 of llama3-8b at 4096 where step's max
 * was 107; llama3-70b tp2 took 14 where the rule allows 12).
 * Hand figures (h100-sxm 80e9 B, TensorRT-LLM fraction 0.9 of the free
 * memory, 392 MiB = 411,041,792 B of NCCL buffers per chip at TP > 1;
 * hw_profiles/engines/h100-sxm-trtllm.lua's memory rule):
 *  - llama3-8b, 8,030,261,248 params x 2 B = 16.06e9 B; KV 131,072 B/token
 *    x 4096 = 536.9e6 B a sequence: 0.9 x (80e9 - 16.06e9) / 536.9e6 =
 *    107.2 -> 107;
 *  - llama3-70b tp2, 70.55e9 B of weights per chip; KV per chip 327,680 B
 *    /token / 2 x 4096 = 671.1e6 B: 0.9 x (80e9 - 70.55e9 - 0.411e9) /
 *    671.1e6 = 12.1 -> 12.
 * Every command must agree exactly (a whole batch; no tolerance). */
static void one_memory_rule(void **state)
{
    (void)state;
    same_fit_everywhere("llama3-8b", 1, 4096, 107, "tp1");
    same_fit_everywhere("llama3-70b", 2, 4096, 12, "tp2");
    /* the rule is named beside the plan rows */
    cJSON *j = run_cli_json("step --model llama3-8b --hw h100-sxm --tp 1 --context 4096 --batch 107 "
                            "--format json", out, sizeof out);
    assert_string_equal(cJSON_GetObjectItem(j, "memory_rule")->valuestring, "free");
    /* usable = w + 0.9 (80e9 - w), w = 16.06e9 B: 73.61e9 B (1e-3: w rounded here) */
    assert_rel(num(row(j, 0), "usable_bytes_per_chip"), 73.61e9, 1e-3);
    cJSON_Delete(j);
}

/* tester15 F-pareto-1: pareto on a fitted profile named the fitted engine
 * but timed its points by the kernel tables (llama2-70b tp8 batch 16 at
 * 2048: 9.429 ms against step's 34.05 ms).  Each plan the costs model is now
 * timed as `step --chips tp --batch B/replicas` and its TTFT as `prefill
 * --chips tp --tokens prompt` on the same profile: equal to the digit
 * (1e-12, the same function), mode fitted. */
static void pareto_fitted_is_step(void **state)
{
    (void)state;
    cJSON *p = run_cli_json("pareto --model llama2-70b --hw h100-sxm-splitwise --chips 2,4,8 "
                            "--batch 16 --context 2048 --format json", out, sizeof out);
    assert_string_equal(cJSON_GetObjectItem(p, "mode")->valuestring, "fitted");
    assert_string_equal(cJSON_GetObjectItem(p, "engine")->valuestring, "splitwise");
    assert_non_null(cJSON_GetObjectItem(p, "fitted"));
    const cJSON *r;
    int n = 0;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(p, "rows")) {
        long long tp = 0, replicas = 1;
        const char *layout = cJSON_GetObjectItem(r, "layout")->valuestring;
        if (sscanf(layout, "tp%lld x%lld", &tp, &replicas) < 1)
            fail_msg("layout '%s' is not a TP plan", layout);
        long long b = (long long)num(r, "batch") / replicas;
        char cmd[256];
        snprintf(cmd, sizeof cmd, "step --model llama2-70b --hw h100-sxm-splitwise --chips %lld "
                 "--batch %lld --context 2048 --format json", tp, b);
        cJSON *s = run_cli_json(cmd, out, sizeof out);
        assert_string_equal(cJSON_GetObjectItem(s, "mode")->valuestring, "fitted");
        assert_rel(num(r, "step_s"), num(row(s, 0), "step_s"), 1e-12);
        double lo = num(row(s, 0), "step_s_low"), hi = num(row(s, 0), "step_s_high");
        cJSON_Delete(s);
        /* tester16 F4: step --tp over the plan's chips (its replicas
         * independent) is the same fitted time, not the tables'; and
         * (review26 L4) the same band, which its rows lacked */
        snprintf(cmd, sizeof cmd, "step --model llama2-70b --hw h100-sxm-splitwise --chips %lld "
                 "--tp %lld --batch %lld --context 2048 --format json", tp * replicas, tp,
                 (long long)num(r, "batch"));
        s = run_cli_json(cmd, out, sizeof out);
        assert_string_equal(cJSON_GetObjectItem(s, "mode")->valuestring, "fitted");
        assert_rel(num(r, "step_s"), num(row(s, 0), "step_s"), 1e-12);
        assert_true(lo < num(r, "step_s") && hi > num(r, "step_s"));
        assert_rel(num(row(s, 0), "step_s_low"), lo, 1e-12);
        assert_rel(num(row(s, 0), "step_s_high"), hi, 1e-12);
        cJSON_Delete(s);
        snprintf(cmd, sizeof cmd, "prefill --model llama2-70b --hw h100-sxm-splitwise --chips %lld "
                 "--tokens 2048 --format json", tp);
        s = run_cli_json(cmd, out, sizeof out);
        assert_rel(num(r, "ttft_s"), num(row(s, 0), "ttft_s"), 1e-12);
        cJSON_Delete(s);
        n++;
    }
    assert_true(n >= 2);
    cJSON_Delete(p);
}

/* tester16 F4: a plan the fitted costs do not model (EP) keeps its
 * estimate, and its engine_source says the costs do not time it (it read
 * as the fitted engine's source beside an estimated step). */
static void unfitted_plan_says_so(void **state)
{
    (void)state;
    cJSON *j = run_cli_json("step --model mixtral-8x7b --hw h100-sxm-splitwise --chips 8 --tp 4 "
                            "--ep 2 --batch 1 --context 2048 --format json", out, sizeof out);
    assert_string_equal(cJSON_GetObjectItem(j, "mode")->valuestring, "estimated");
    const char *src = cJSON_GetObjectItem(j, "engine_source")->valuestring;
    assert_non_null(strstr(src, "fitted engine costs do not time this run"));
    cJSON_Delete(j);
}

/* tester15 F-csv-1: a plan's step rows say at which context they were
 * computed, as step's rows do (JSON key and CSV column `context`). */
static void plan_rows_carry_context(void **state)
{
    (void)state;
    cJSON *j = run_cli_json("step --model llama3-8b --hw h100-sxm --tp 2 --batch 1 --context 1024 "
                            "--format json", out, sizeof out);
    assert_true(num(row(j, 0), "context") == 1024);
    cJSON_Delete(j);
    assert_int_equal(run_cli("step --model llama3-8b --hw h100-sxm --tp 2 --batch 1 --context 1024 "
                             "--format csv", out, sizeof out), 0);
    assert_non_null(strstr(out, ",batch,context,"));
}

/* tester16 F12: a pipeline plan read `ideal` in step (41.6 ms) and
 * `calibrated` in simulate (TPOT 51.2 ms).  step now times it as simulate
 * does (the stages' op list by the kernel tables plus the 7 stage sends):
 * llama3-70b tp1 pp8 on 8 H100 at batch 1, context 1050 equals simulate's
 * TPOT at 0.05 req/s of 1000/100-token requests (one request at a time,
 * decode at the mean context 1050; 1e-9: the same sums in another order). */
static void pipeline_step_is_simulate(void **state)
{
    (void)state;
    cJSON *s = run_cli_json("step --model llama3-70b --hw h100-sxm --chips 8 --pp 8 --batch 1 "
                            "--context 1050 --format json", out, sizeof out);
    assert_string_equal(cJSON_GetObjectItem(s, "mode")->valuestring, "calibrated");
    double step = num(row(s, 0), "step_s");
    cJSON_Delete(s);
    cJSON *m = run_cli_json("simulate --model llama3-70b --hw h100-sxm --chips 8 --pp 8 --qps 0.05 "
                            "--prompt-len 1000 --out-len 100 --requests 20 --format json", out,
                            sizeof out);
    assert_string_equal(cJSON_GetObjectItem(m, "mode")->valuestring, "calibrated");
    assert_rel(step, num(m, "tpot_p50_s"), 1e-9);
    cJSON_Delete(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_memory_rule),
        cmocka_unit_test(pareto_fitted_is_step),
        cmocka_unit_test(unfitted_plan_says_so),
        cmocka_unit_test(plan_rows_carry_context),
        cmocka_unit_test(pipeline_step_is_simulate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
