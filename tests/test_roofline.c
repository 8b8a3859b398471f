/* test_roofline.c — op roofline and B_crit (seed 000 section 1, "Linear
 * operations: what bottlenecks us?"). */
#include "testutil.h"

#include "fastmax.h"
#include "roofline.h"

/* B_crit = peak * bytes(weight) / (2 * bw).  Sources:
 * - v5e bf16: 1.97e14 / 8.2e11 = 240 (seed 000 section 1); the preset's
 *   8.19e11 B/s gives 240.5, within 1%.
 * - int8 weights, bf16 compute: 120; int8 x int8 (3.94e14): 240 (same section).
 * - H100 SXM bf16: 9.89e14 / 3.35e12 = 295 (datasheet figures; the book
 *   says "about 280" from rounder numbers — the datasheet wins). */
static void b_crit_values(void **state)
{
    (void)state;
    rl_hw v5e = load_hw("tpu-v5e", NULL, 0);
    rl_hw h100 = load_hw("h100-sxm", NULL, 0);
    assert_rel(rl_b_crit(&v5e, RL_BF16, RL_BF16), 240, 0.01);
    assert_rel(rl_b_crit(&v5e, RL_INT8, RL_BF16), 120, 0.01);
    assert_rel(rl_b_crit(&v5e, RL_INT8, RL_INT8), 240, 0.01);
    assert_rel(rl_b_crit(&h100, RL_BF16, RL_BF16), 295, 0.01);
    /* tester31 F4: 4-bit weights at the bytes memory counts (dtype.h
     * rl_dtype_weight_bytes), bf16 compute on H100 SXM (9.89e14 FLOP/s,
     * 3.35e12 B/s): mxfp4 9.89e14 x 0.53125 / 6.7e12 = 78.419, int4 x
     * 0.515625 = 76.113, fp4 (NVFP4, 4.5 bits) x 0.5625 = 83.032; the old
     * nominal 0.5 B gave 73.806 for all three.  Exact arithmetic, 1e-9. */
    assert_rel(rl_b_crit(&h100, RL_MXFP4, RL_BF16), 9.89e14 * 0.53125 / 6.7e12, 1e-9);
    assert_rel(rl_b_crit(&h100, RL_INT4, RL_BF16), 9.89e14 * 0.515625 / 6.7e12, 1e-9);
    assert_rel(rl_b_crit(&h100, RL_FP4, RL_BF16), 9.89e14 * 0.5625 / 6.7e12, 1e-9);
    assert_rel(rl_b_crit(&h100, RL_MXFP4, RL_BF16), 78.419, 1e-4);
}

/* Pitfall (issue 3): H100 SXM's dense bf16 peak is 989 TFLOP/s, not the
 * datasheet's 2:4-sparse 1979. */
static void dense_not_sparse(void **state)
{
    (void)state;
    rl_hw h100 = load_hw("h100-sxm", NULL, 0);
    assert_rel(rl_hw_peak(&h100, RL_BF16), 989e12, 0.001);
}

/* max(FLOPs/peak, bytes/bw): 2e12 FLOPs at 1e12 FLOP/s = 2 s vs 1e9 bytes
 * at 1e9 B/s = 1 s -> 2 s, compute-bound; and the mirror case. */
static void roofline_time(void **state)
{
    (void)state;
    rl_roofline r = rl_roofline_time(2e12, 1e9, 1e12, 1e9);
    assert_rel(r.time_s, 2.0, 1e-12);
    assert_int_equal(r.bound, RL_COMPUTE_BOUND);
    r = rl_roofline_time(1e12, 3e9, 1e12, 1e9);
    assert_rel(r.time_s, 3.0, 1e-12);
    assert_int_equal(r.bound, RL_MEMORY_BOUND);
    assert_string_equal(rl_bound_name(r.bound), "memory");
}

/* rl_fmax (fastmax.h, issue 12: fmax inline on the per-op paths) is C99
 * fmax: the larger of two numbers, the number beside a NaN (C11 F.10.9.2),
 * NaN only for two NaNs; a tie returns b, as glibc's x86-64 fmax (maxsd)
 * does, so -0 and +0 keep their order.  Expected: libm's fmax on every
 * non-tie pair of the list below, exactly. */
static void fmax_inline(void **state)
{
    (void)state;
    const double v[] = {0.0, -0.0, 1.0, -1.0, 1e-300, 3.5e9, INFINITY, -INFINITY, NAN};
    int n = (int)(sizeof v / sizeof *v);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double a = v[i], b = v[j], r = rl_fmax(a, b), f = fmax(a, b);
            if (isnan(a) && isnan(b))
                assert_true(isnan(r));
            else if (a == b) /* +0/-0 and equal values: b */
                assert_memory_equal(&r, &b, sizeof r);
            else
                assert_memory_equal(&r, &f, sizeof r);
        }
    assert_true(rl_fmax(NAN, 2.0) == 2.0 && rl_fmax(2.0, NAN) == 2.0);
    assert_true(signbit(rl_fmax(0.0, -0.0)) && !signbit(rl_fmax(-0.0, 0.0)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(b_crit_values),
        cmocka_unit_test(dense_not_sparse),
        cmocka_unit_test(roofline_time),
        cmocka_unit_test(fmax_inline),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
