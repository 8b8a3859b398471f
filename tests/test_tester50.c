/* test_tester50.c — bin/roofline end to end on tester50's findings: the
 * stderr note of an `estimated` result (F2), a trace's offered rate (F4),
 * whole KV pages in simulate (F3), fit's unbounded sds (F13) and --folds
 * (F9), and a measurement CSV's unused column (F8). */
#include "testutil.h"

#include <cjson/cJSON.h>

static char out[1 << 17];

/* The JSON after the notes of `out` (run_cli's merged output), parsed. */
static cJSON *json_of(const char *args)
{
    int rc = run_cli(args, out, sizeof out);
    const char *j = strchr(out, '{');
    if (rc != 0 || !j)
        fail_msg("roofline %s: exit %d: %.600s", args, rc, out);
    cJSON *r = cJSON_Parse(j);
    if (!r)
        fail_msg("roofline %s printed no JSON: %.600s", args, out);
    return r;
}

static const char *str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsString(v))
        fail_msg("missing string '%s'", key);
    return v->valuestring;
}

/* F2: every `estimated` result says why on stderr: a prefill past the
 * GEMM table's grid (table_time_share 9e-6 at 131072 tokens on llama3.1-70b
 * tp8, h100-sxm trtllm; calibrated, no such note, at 32768), ops of the
 * same step, and a --tokens list whose one row is estimated, each row
 * carrying its own mode. */
static void estimated_result_noted(void **state)
{
    (void)state;
    static const char *const noted[] = {
        "prefill --model llama3.1-70b --hw h100-sxm --chips 8 --tokens 131072 --format json",
        "ops --model llama3.1-70b --hw h100-sxm --chips 8 --phase prefill --tokens 131072 "
        "--format json",
        "prefill --model llama3-8b --hw h100-sxm --chips 8 --tokens 1,128,8192 --format json"};
    for (size_t i = 0; i < sizeof noted / sizeof *noted; i++) {
        cJSON *r = json_of(noted[i]);
        assert_string_equal(str(r, "mode"), "estimated");
        if (!strstr(out, "note: mode estimated: ") || strstr(out, "note: mode estimated") > strchr(out, '{'))
            fail_msg("roofline %s: no note that the result is estimated: %.600s", noted[i], out);
        assert_non_null(strstr(out, "table_time_share"));
        cJSON_Delete(r);
    }
    assert_non_null(strstr(out, "(at tokens 128)")); /* the one row below the share */
    cJSON *r = json_of(noted[2]);
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(r, "rows");
    assert_int_equal(cJSON_GetArraySize(rows), 3);
    static const char *const want[] = {"calibrated", "estimated", "calibrated"};
    for (int i = 0; i < 3; i++)
        assert_string_equal(str(cJSON_GetArrayItem(rows, i), "mode"), want[i]);
    cJSON_Delete(r);
    r = json_of("prefill --model llama3.1-70b --hw h100-sxm --chips 8 --tokens 32768 --format json");
    assert_string_equal(str(r, "mode"), "calibrated");
    assert_null(strstr(out, "mode estimated"));
    cJSON_Delete(r);
}

/* F4: a trace's offered rate is its arrivals' own, arrival_req_per_s: one
 * request has none (qps null, said; it read qps 1), and arrivals at 0 and
 * 2 s read 0.5 exactly (it read 0.49999999999975, the span + 1e-12). */
static void trace_rate_is_the_arrivals(void **state)
{
    (void)state;
    static const char *const text[] = {"0,1000,100\n", "5,1000,100\n", "0,1000,100\n2,1000,100\n"};
    for (int i = 0; i < 3; i++) {
        char path[64], args[256];
        write_temp(path, ".csv", text[i]);
        snprintf(args, sizeof args, "simulate --model llama3-8b --hw h100-sxm --trace %s --format json",
                 path);
        cJSON *r = json_of(args);
        const cJSON *q = cJSON_GetObjectItemCaseSensitive(r, "qps");
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(r, "arrival_req_per_s");
        if (i < 2) {
            assert_true(cJSON_IsNull(q));
            assert_true(cJSON_IsNull(a));
            assert_non_null(strstr(out, "its one request arrives at t = "));
        } else {
            assert_true(cJSON_IsNumber(q) && cJSON_IsNumber(a));
            assert_true(q->valuedouble == 0.5 && a->valuedouble == 0.5); /* (2 - 1) / 2 s, exact */
        }
        cJSON_Delete(r);
        unlink(path);
    }
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(v))
        fail_msg("missing number '%s'", key);
    return v->valuedouble;
}

/* F3: a paged KV cache charges whole pages (vLLM PagedAttention, Kwon et
 * al. SOSP 2023): llama3-8b on h100-sxm holds 479545 KV tokens a replica,
 * floor(479545 / 50000) = 9 pages of 50000, so one 1000 + 200-token
 * sequence peaks at 1/9 of the pool (it read 0.0582, tokens + page / 2)
 * and 40 offline requests run at most 9 at once (17 ran); at --page 1024
 * it holds 2 of floor(479545 / 1024) = 468 pages (it read 0.00357).
 * Exact ratios of whole pages: tolerance 1e-12. */
static void kv_whole_pages(void **state)
{
    (void)state;
    const char *base = "simulate --model llama3-8b --hw h100-sxm --offline --prompt-len 1000 "
                       "--out-len 200 --format json ";
    char args[512];
    snprintf(args, sizeof args, "%s--requests 1 --page 50000", base);
    cJSON *r = json_of(args);
    assert_int_equal((long long)num(r, "kv_capacity_tokens_per_replica"), 479545);
    assert_float_equal(num(r, "kv_peak_frac"), 1.0 / 9, 1e-12);
    cJSON_Delete(r);
    snprintf(args, sizeof args, "%s--requests 1 --page 1024", base);
    r = json_of(args);
    assert_float_equal(num(r, "kv_peak_frac"), 2.0 / 468, 1e-12);
    cJSON_Delete(r);
    snprintf(args, sizeof args, "%s--requests 40 --page 50000", base);
    r = json_of(args);
    assert_true(num(r, "mean_decode_batch") <= 9);
    assert_true(num(r, "kv_peak_frac") <= 1 + 1e-12);
    cJSON_Delete(r);
}

/* F13: an sd beyond 10x the parameter's value or its whole range is no
 * estimate: null (prefill_step_s at 0 on tester50's static rows printed sd
 * 5e+148), every other sd within 10x its range (fit.h
 * RL_FIT_SD_UNIDENTIFIED; the widest range, decode_seq_s's, is 99 s). */
static void fit_sd_bounded(void **state)
{
    (void)state;
    cJSON *r = json_of("fit tests/data/e2e/t50_static.csv --hw h100-sxm --model llama3-8b "
                       "--format json");
    const cJSON *ps = cJSON_GetObjectItemCaseSensitive(r, "parameters"), *p;
    int seen = 0;
    cJSON_ArrayForEach(p, ps) {
        const cJSON *sd = cJSON_GetObjectItemCaseSensitive(p, "sd");
        assert_true(cJSON_IsNull(sd) || (cJSON_IsNumber(sd) && sd->valuedouble < 990));
        if (!strcmp(str(p, "parameter"), "prefill_step_s")) {
            seen = 1;
            assert_true(cJSON_IsNull(sd));
            assert_non_null(strstr(str(p, "status"), "not identifiable (sd beyond 10x its range)"));
        }
    }
    assert_true(seen);
    cJSON_Delete(r);
}

/* F9: --folds above the configurations (40 in splitwise_h100.csv under
 * llama2-70b's max_context) runs one a configuration, and says so. */
static void folds_above_configurations_noted(void **state)
{
    (void)state;
    cJSON *r = json_of("fit tests/data/e2e/splitwise_h100.csv --hw h100-sxm --model llama2-70b "
                "--folds 100 --format json");
    assert_int_equal((int)num(r, "cv_folds"), 40);
    assert_non_null(strstr(out, "note: --folds 100: the CSV has 40 configurations, so 40 folds ran"));
    cJSON_Delete(r);
}

/* F8: a cell of a column the row's phase does not read is noted with its
 * file, line and column (a prefill's context 512 and a decode's tokens 512
 * were dropped silently); empty or 0, as roofline's own CSVs write them,
 * stays silent. */
static void unread_cell_noted(void **state)
{
    (void)state;
    static const struct { const char *row, *want; } c[] = {
        {"prefill,1,1,512,512,0.02\n", "line 2, column 'context' (column 4): 512, which a prefill "
                                        "row does not read"},
        {"decode,1,1,512,512,0.0065\n", "line 2, column 'tokens' (column 5): 512, which a decode "
                                         "row does not read"},
        {"prefill,1,1,0,512,0.02\nprefill,1,1,,512,0.02\ndecode,1,1,512,,0.0065\n", NULL}};
    for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
        char text[256], path[64], args[256];
        snprintf(text, sizeof text, "phase,tp,batch,context,tokens,measured_s\n%s", c[i].row);
        write_temp(path, ".csv", text);
        snprintf(args, sizeof args, "validate --against %s --hw h100-sxm --model llama3-8b "
                 "--format json", path);
        cJSON *r = json_of(args);
        if (c[i].want)
            assert_non_null(strstr(out, c[i].want));
        else
            assert_null(strstr(out, "not read"));
        cJSON_Delete(r);
        unlink(path);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(estimated_result_noted),
        cmocka_unit_test(trace_rate_is_the_arrivals),
        cmocka_unit_test(kv_whole_pages),
        cmocka_unit_test(fit_sd_bounded),
        cmocka_unit_test(folds_above_configurations_noted),
        cmocka_unit_test(unread_cell_noted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
