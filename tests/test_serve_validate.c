/* test_serve_validate.c — the engine serving a trace against the simulator:
 * the harness runs end to end on the CPU backend with the tiny-test model
 * and returns TTFT and TPOT p50/p90, measured and simulated, all positive
 * and finite (accuracy is a measurement: `roofline validate-serve` after
 * `roofline calibrate` on the host, reported in docs/validation.md). */
#include "testutil.h"

#include <cjson/cJSON.h>

#include "serve_validate.h"

static void runs_end_to_end(void **state)
{
    (void)state;
    rl_model m = load_model("tiny-test", NULL, 0);
    /* any profile with an fp32 peak (the engine computes in fp32): the prediction side only */
    rl_override fp32 = {"flops.fp32", "6.7e13"};
    rl_hw h = load_hw("h100-sxm", &fp32, 1);
    rl_request req[4] = {{0, 24, 6, -1, 0}, {0.001, 16, 4, -1, 0}, {0.002, 32, 5, -1, 0},
                         {5, 8, 1, -1, 0}};
    char err[512];
    cJSON *r = rl_serve_validate(&m, &h, "cpu", 1, 2, req, 4, err, sizeof err);
    if (!r)
        fail_msg("%s", err);
    cJSON *rows = cJSON_GetObjectItem(r, "rows");
    assert_int_equal(cJSON_GetArraySize(rows), 4);
    for (cJSON *row = rows->child; row; row = row->next) {
        double mv = cJSON_GetObjectItem(row, "measured_s")->valuedouble;
        double sv = cJSON_GetObjectItem(row, "simulated_s")->valuedouble;
        assert_true(isfinite(mv) && mv > 0 && isfinite(sv) && sv > 0);
    }
    cJSON_Delete(r);
    /* an unknown backend is an error with a message */
    assert_null(rl_serve_validate(&m, &h, "nosuch", 1, 1, req, 1, err, sizeof err));
    assert_true(err[0] != 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(runs_end_to_end)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
