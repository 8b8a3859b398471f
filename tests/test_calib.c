/* test_calib.c — calibrate and validate end to end on the toy model in a
 * temporary folder: the profile written loads as a hardware spec with
 * efficiency tables, the raw samples are kept, validate predicts every run
 * and reports its error statistics. */
#include "testutil.h"

#include <sys/stat.h>

#include "calib.h"

static void test_calibrate_then_validate(void **state)
{
    (void)state;
    use_source_tree();
    char dir[] = "/tmp/rl_calib_XXXXXX", old[1024], err[1024], path[1100];
    assert_non_null(mkdtemp(dir));
    assert_non_null(getcwd(old, sizeof old));
    assert_int_equal(chdir(dir), 0);
    rl_calib_opts o = {.backend = "cpu", .model = "tiny-test", .outdir = dir, .quick = 1, .threads = 1};
    cJSON *sum = rl_calibrate(&o, err, sizeof err);
    if (!sum)
        fail_msg("calibrate: %s", err);
    assert_true(cJSON_GetObjectItem(sum, "hbm_bw")->valuedouble > 0);
    assert_true(cJSON_GetObjectItem(sum, "peak_flops")->valuedouble > 0);
    const cJSON *rows = cJSON_GetObjectItem(sum, "rows");
    assert_true(cJSON_GetArraySize(rows) > 20);
    snprintf(path, sizeof path, "%s", cJSON_GetObjectItem(sum, "profile")->valuestring);
    rl_hw h = load_hw(path, NULL, 0);
    assert_true(h.efficiency.present);
    assert_true(h.flops[RL_FP32] > 0);
    assert_true(h.efficiency.curve[RL_EFF_GEMM].n >= 3); /* M = 1, 2, 4 of the quick grid */
    /* SwiGLU and the residual add are fitted apart (issue 12): each its own
     * curve from its own benches, rows 1 and 2 of the quick grid */
    assert_true(h.efficiency.curve[RL_EFF_SWIGLU].n >= 1);
    assert_true(h.efficiency.curve[RL_EFF_ELEMENTWISE].n >= 1);
    assert_true(cJSON_GetObjectItem(sum, "noisy_benchmarks")->valuedouble >= 0);
    struct stat st;
    assert_int_equal(stat(cJSON_GetObjectItem(sum, "raw")->valuestring, &st), 0);
    cJSON_Delete(sum);

    o.profile = path;
    cJSON *v = rl_validate(&o, err, sizeof err);
    if (!v)
        fail_msg("validate: %s", err);
    assert_string_equal(cJSON_GetObjectItem(v, "mode")->valuestring, "calibrated");
    int runs = cJSON_GetObjectItem(v, "runs")->valueint;
    assert_int_equal(runs, 3); /* quick: decode B = 1, 2 at S = 128; prefill T = 32 */
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(v, "rows")) {
        double meas = cJSON_GetObjectItem(r, "measured_s")->valuedouble;
        double pred = cJSON_GetObjectItem(r, "predicted_s")->valuedouble;
        assert_true(meas > 0 && pred > 0);
        assert_rel(cJSON_GetObjectItem(r, "error")->valuedouble + 1, pred / meas, 1e-9);
        assert_true(cJSON_GetObjectItem(r, "noise")->valuedouble >= 0);
    }
    assert_true(cJSON_GetObjectItem(v, "noisy_runs")->valueint >= 0 &&
                cJSON_GetObjectItem(v, "noisy_runs")->valueint <= runs);
    assert_rel(cJSON_GetObjectItem(v, "noise_threshold")->valuedouble, RL_CALIB_NOISE, 0);
    /* the step-level figure's data: 3 runs, decode and prefill blocks */
    char dat[1200];
    snprintf(dat, sizeof dat, "%s.dat", cJSON_GetObjectItem(v, "plot_steps")->valuestring);
    assert_int_equal(stat(dat, &st), 0);
    assert_true(cJSON_GetObjectItem(v, "max_abs_error")->valuedouble >=
                cJSON_GetObjectItem(v, "median_abs_error")->valuedouble);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(v, "op_residuals")), 3 * 18);
    cJSON_Delete(v);
    assert_int_equal(chdir(old), 0);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

static void test_quantile(void **state)
{
    (void)state;
    double v[5] = {5, 1, 4, 2, 3};
    /* nearest rank: p = 0.5 -> ceil(2.5) = 3rd smallest = 3; p = 0.9 -> 5th */
    assert_rel(rl_calib_quantile(v, 5, 0.5), 3, 0);
    assert_rel(rl_calib_quantile(v, 5, 0.9), 5, 0);
    assert_rel(rl_calib_quantile(v, 5, 0.0), 1, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quantile),
        cmocka_unit_test(test_calibrate_then_validate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
