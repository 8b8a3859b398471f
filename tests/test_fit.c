/* test_fit.c — robust bounded least squares on log error (fit.h): recovery
 * of known parameters, robustness to an outlier, bounds, uncertainty, the
 * identifiability check, quantiles and the error summary. */
#include "testutil.h"

#include "fit.h"

/* Model pred_i = a + b * u_i + c * v_i over rows of (u, v). */
typedef struct {
    double u[64], v[64];
} lin;

static double predict_lin(void *ctx, int i, const double *x, double *g)
{
    const lin *l = ctx;
    g[0] = 1;
    g[1] = l->u[i];
    g[2] = l->v[i];
    return x[0] + x[1] * l->u[i] + x[2] * l->v[i];
}

static const char *const NAMES[] = {"a", "b", "c"};
static const double LO[] = {0, 0, 0}, HI[] = {10, 10, 10};

/* n rows with u = 1..n, v = u^2 (or v = 2u when collinear), measured
 * a + b u + c v times a deterministic +-1% wiggle. */
static rl_fit_problem setup(lin *l, double *meas, int n, const double *truth, int collinear)
{
    for (int i = 0; i < n; i++) {
        l->u[i] = i + 1;
        l->v[i] = collinear ? 2.0 * (i + 1) : (double)(i + 1) * (i + 1);
        meas[i] = (truth[0] + truth[1] * l->u[i] + truth[2] * l->v[i]) * (1 + 0.01 * ((i % 3) - 1));
    }
    return (rl_fit_problem){3, n, NAMES, LO, HI, meas, predict_lin, NULL, l};
}

static void recovers_known_parameters(void **state)
{
    (void)state;
    lin l;
    double meas[64], truth[] = {2.0, 0.5, 0.1}, x0[] = {1, 1, 1};
    rl_fit_problem p = setup(&l, meas, 40, truth, 0);
    rl_fit_result r;
    char err[256];
    assert_int_equal(rl_fit_solve(&p, x0, NULL, &r, err, sizeof err), 0);
    /* the +-1% wiggle moves the optimum a little: 5% on each parameter */
    assert_rel(r.x[0], 2.0, 0.05);
    assert_rel(r.x[1], 0.5, 0.05);
    assert_rel(r.x[2], 0.1, 0.05);
    assert_int_equal(r.rows, 40);
    /* the wiggle's log residuals have sd ~ 0.8%: each sd is positive and small */
    for (int j = 0; j < 3; j++) {
        assert_true(r.sd[j] > 0);
        assert_true(r.sd[j] < 0.2 * r.x[j]);
    }
    assert_true(r.scale > 0.004 && r.scale < 0.012);
    assert_string_equal(r.note, "");
}

/* One row 3x off: soft-L1 keeps the others' fit (plain least squares on log
 * error moves b by ~4% here). */
static void outlier_does_not_drag(void **state)
{
    (void)state;
    lin l;
    double meas[64], truth[] = {2.0, 0.5, 0.1}, x0[] = {1, 1, 1};
    rl_fit_problem p = setup(&l, meas, 40, truth, 0);
    meas[20] *= 3;
    rl_fit_result r;
    char err[256];
    assert_int_equal(rl_fit_solve(&p, x0, NULL, &r, err, sizeof err), 0);
    assert_rel(r.x[1], 0.5, 0.06);
    assert_rel(r.x[2], 0.1, 0.06);
}

static void bounds_hold(void **state)
{
    (void)state;
    lin l;
    double meas[64], truth[] = {2.0, 0.5, 0.1}, x0[] = {1, 1, 1};
    rl_fit_problem p = setup(&l, meas, 40, truth, 0);
    static const double hi[] = {10, 0.3, 10}; /* b's truth (0.5) lies beyond its bound */
    p.hi = hi;
    rl_fit_result r;
    char err[256];
    assert_int_equal(rl_fit_solve(&p, x0, NULL, &r, err, sizeof err), 0);
    assert_true(r.x[1] == 0.3);
    assert_true(r.at_bound[1]);
}

/* v = 2u: c cannot be told from b; it is held and the note names b. */
static void collinear_terms_fit_their_sum(void **state)
{
    (void)state;
    lin l;
    double meas[64], truth[] = {2.0, 0.5, 0.1}, x0[] = {1, 1, 0};
    rl_fit_problem p = setup(&l, meas, 40, truth, 1);
    rl_fit_result r;
    char err[256];
    assert_int_equal(rl_fit_solve(&p, x0, NULL, &r, err, sizeof err), 0);
    assert_true(r.held[2]);
    assert_true(r.x[2] == 0); /* held at its start */
    assert_non_null(strstr(r.note, "c cannot be separated from b"));
    /* b absorbs c: b + 2c = 0.7 */
    assert_rel(r.x[1], 0.7, 0.05);
}

static void fewer_rows_than_parameters(void **state)
{
    (void)state;
    lin l;
    double meas[64], truth[] = {2.0, 0.5, 0.1}, x0[] = {1, 1, 1};
    rl_fit_problem p = setup(&l, meas, 2, truth, 0);
    rl_fit_result r;
    char err[256];
    assert_int_equal(rl_fit_solve(&p, x0, NULL, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "fewer rows than parameters: 2 rows"));
    /* a mask leaving 2 of 40 rows fails the same way */
    p = setup(&l, meas, 40, truth, 0);
    unsigned char use[64] = {0};
    use[0] = use[1] = 1;
    assert_int_equal(rl_fit_solve(&p, x0, use, &r, err, sizeof err), -1);
}

/* Type 7 quantiles (R's default): of 1..4, p90 = 1 + 0.9 * 3 = 3.7; median 2.5. */
static void quantiles_and_summary(void **state)
{
    (void)state;
    double v[] = {4, 1, 3, 2};
    assert_rel(rl_fit_quantile(v, 4, 0.9), 3.7, 1e-12);
    assert_rel(rl_fit_quantile(v, 4, 0.5), 2.5, 1e-12);
    double e[] = {0.1, -0.2, 0.05, 0.0};
    rl_fit_summary s = rl_fit_summarize(e, 4);
    assert_rel(s.median_abs, 0.075, 1e-12); /* |e| = 0, 0.05, 0.1, 0.2 */
    assert_rel(s.p90_abs, 0.17, 1e-12);     /* 0.1 + 0.7 * 0.1 */
    assert_rel(s.max_abs, 0.2, 1e-12);
    assert_rel(s.bias, -0.0125, 1e-12);
    assert_rel(e[1], -0.2, 0); /* not modified */
}

/* Type 6 bounds (rl_fit_bound, rank p (n + 1)): of 1..9 (n = 9), p10 at
 * rank 1.0 = 1, p90 at rank 9.0 = 9, p80 at rank 8.0 = 8, p25 at rank 2.5
 * = 2.5 (type 7 gives 1.8, 8.2, 7.4, 3); beyond the sample (p5: rank 0.5)
 * the smallest, p95 (rank 9.5) the largest.  Of 1..4, p90 at rank 4.5:
 * the largest.  An infinite neighbour at a whole rank is not interpolated
 * (review22 #6's 0 x inf): of 1..8 and inf, p80 (rank 8) is 8.  1e-12. */
static void bounds_at_rank_p_n_plus_1(void **state)
{
    (void)state;
    double v[] = {9, 1, 8, 2, 7, 3, 6, 4, 5};
    assert_rel(rl_fit_bound(v, 9, 0.1), 1, 1e-12);
    assert_rel(rl_fit_bound(v, 9, 0.9), 9, 1e-12);
    assert_rel(rl_fit_bound(v, 9, 0.8), 8, 1e-12);
    assert_rel(rl_fit_bound(v, 9, 0.25), 2.5, 1e-12);
    assert_rel(rl_fit_bound(v, 9, 0.05), 1, 1e-12);
    assert_rel(rl_fit_bound(v, 9, 0.95), 9, 1e-12);
    assert_rel(rl_fit_quantile(v, 9, 0.1), 1.8, 1e-12);
    double w[] = {4, 1, 3, 2};
    assert_rel(rl_fit_bound(w, 4, 0.9), 4, 1e-12);
    double inf[] = {1, 2, 3, 4, 5, 6, 7, 8, INFINITY};
    assert_rel(rl_fit_bound(inf, 9, 0.8), 8, 1e-12);
}

static void wrong_expectation(void **state)
{
    (void)state;
    double v[] = {4, 1, 3, 2};
    assert_rel(rl_fit_quantile(v, 4, 0.9), 4.0, 1e-6);
}

static void harness_can_fail(void **state)
{
    (void)state;
    const struct CMUnitTest t[] = {cmocka_unit_test(wrong_expectation)};
    assert_int_not_equal(run_group_in_child(t, 1, "must_fail"), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(recovers_known_parameters),
        cmocka_unit_test(outlier_does_not_drag),
        cmocka_unit_test(bounds_hold),
        cmocka_unit_test(collinear_terms_fit_their_sum),
        cmocka_unit_test(fewer_rows_than_parameters),
        cmocka_unit_test(quantiles_and_summary),
        cmocka_unit_test(bounds_at_rank_p_n_plus_1),
        cmocka_unit_test(harness_can_fail),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
