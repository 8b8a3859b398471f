/* test_ktable.c — measured latency grids: log-space multilinear
 * interpolation against closed forms, provenance, roofline-ratio
 * extrapolation, hole filling, and the Lua form (round trip and errors). */
#include "testutil.h"

#include <lauxlib.h>
#include <lualib.h>

#include "ktable.h"

/* A 3-axis grid (m, n, k) = {1, 4, 16} x {2, 8} x {3, 9, 27} holding the
 * power law t = 1e-6 * m^0.5 * n * k^2 (seconds). */
static double power_law(const double *x) { return 1e-6 * sqrt(x[0]) * x[1] * x[2] * x[2]; }

static void make_grid(rl_ktable *t)
{
    memset(t, 0, sizeof *t);
    t->naxes = 3;
    static const double ax[3][3] = {{1, 4, 16}, {2, 8, 0}, {3, 9, 27}};
    static const int len[3] = {3, 2, 3};
    static const char *names[3] = {"m", "n", "k"};
    for (int a = 0; a < 3; a++) {
        snprintf(t->axis_name[a], sizeof t->axis_name[a], "%s", names[a]);
        t->len[a] = len[a];
        memcpy(t->axis[a], ax[a], sizeof ax[a]);
    }
    char err[256];
    assert_int_equal(rl_kt_alloc(t, err, sizeof err), 0);
    int idx[3];
    for (idx[0] = 0; idx[0] < 3; idx[0]++)
        for (idx[1] = 0; idx[1] < 2; idx[1]++)
            for (idx[2] = 0; idx[2] < 3; idx[2]++) {
                double x[3] = {ax[0][idx[0]], ax[1][idx[1]], ax[2][idx[2]]};
                t->logv[rl_kt_index(t, idx)] = log(power_law(x));
            }
}

/* The "roofline" of the extrapolation tests: t ~ m * n * k. */
static double ideal_mnk(const double *x, const void *ctx)
{
    (void)ctx;
    return x[0] * x[1] * x[2];
}

/* rl_kt_time's cell-search memo (ktable.h rl_ktable.memo): a warm table,
 * its memo cycled through 21 values per axis (more than RL_KT_MEMO), then
 * read again in the reverse order, gives each point bit for bit what a
 * fresh table (empty memo) gives; and the hand value of
 * test_interpolation_closed_form, 1e-4 * sqrt 2 at (2, 4, 5), 1e-12.
 * Fails if a memo entry is taken for another value or axis. */
static void test_search_memo(void **state)
{
    (void)state;
    enum { N = 21 };
    double x[N][3];
    for (int i = 0; i < N; i++) { /* inside, on nodes, and beyond m = 16 */
        x[i][0] = 1 + 0.75 * i;
        x[i][1] = 2 + 0.3 * i;
        x[i][2] = 3 + 1.25 * i;
    }
    rl_ktable warm;
    make_grid(&warm);
    double first[N];
    for (int i = 0; i < N; i++)
        first[i] = rl_kt_time(&warm, x[i], ideal_mnk, NULL, NULL);
    for (int i = N - 1; i >= 0; i--) {
        rl_ktable fresh;
        make_grid(&fresh);
        rl_provenance pw, pf;
        double tw = rl_kt_time(&warm, x[i], ideal_mnk, NULL, &pw);
        double tf = rl_kt_time(&fresh, x[i], ideal_mnk, NULL, &pf);
        assert_memory_equal(&tw, &tf, sizeof tw);
        assert_memory_equal(&first[i], &tf, sizeof tf);
        assert_int_equal(pw, pf);
        rl_kt_free(&fresh);
    }
    double x1[3] = {2, 4, 5};
    assert_rel(rl_kt_time(&warm, x1, NULL, NULL, NULL), 1e-4 * sqrt(2.0), 1e-12);
    rl_kt_free(&warm);
}

static void test_interpolation_closed_form(void **state)
{
    (void)state;
    rl_ktable t;
    make_grid(&t);
    rl_provenance p;
    /* on a node: the node's value, measured: 1e-6 * 2 * 8 * 81 = 1.296e-3 */
    double x0[3] = {4, 8, 9};
    assert_rel(rl_kt_time(&t, x0, NULL, NULL, &p), 1.296e-3, 1e-12);
    assert_int_equal(p, RL_PROV_MEASURED);
    /* between nodes: log-log interpolation reproduces any power law
     * exactly, e.g. (m, n, k) = (2, 4, 5): 1e-6 * sqrt 2 * 4 * 25 */
    double x1[3] = {2, 4, 5};
    assert_rel(rl_kt_time(&t, x1, NULL, NULL, &p), 1e-4 * sqrt(2.0), 1e-12);
    assert_int_equal(p, RL_PROV_INTERPOLATED);
    /* the grid's last corner is measured too */
    double x2[3] = {16, 8, 27};
    assert_rel(rl_kt_time(&t, x2, NULL, NULL, &p), power_law(x2), 1e-12);
    assert_int_equal(p, RL_PROV_MEASURED);
    rl_kt_free(&t);
}

static void test_extrapolation_holds_efficiency(void **state)
{
    (void)state;
    rl_ktable t;
    make_grid(&t);
    rl_provenance p;
    /* m = 64 is beyond the last node 16: t(16, 8, 9) * ideal ratio 64/16 =
     * 1e-6 * 4 * 8 * 81 * 4 = 1.0368e-2 */
    double x[3] = {64, 8, 9};
    assert_rel(rl_kt_time(&t, x, ideal_mnk, NULL, &p), 1.0368e-2, 1e-12);
    assert_int_equal(p, RL_PROV_EXTRAPOLATED);
    /* without an ideal function the edge latency is held: 2.592e-3 */
    assert_rel(rl_kt_time(&t, x, NULL, NULL, &p), 2.592e-3, 1e-12);
    /* below the first node on one axis: (0.5, 2, 27) from (1, 2, 27): ratio
     * 1/2, 1e-6 * 2 * 729 / 2 = 7.29e-4 (above the latency floor) */
    double y0[3] = {0.5, 2, 27};
    assert_rel(rl_kt_time(&t, y0, ideal_mnk, NULL, &p), 1e-6 * 2 * 729 / 2, 1e-12);
    assert_int_equal(p, RL_PROV_EXTRAPOLATED);
    /* THE LATENCY FLOOR (ktable.h; tester22 F5): below the first node on two
     * axes, (0.5, 1, 3) from (1, 2, 3), the ratio 1/4 would give 4.5e-6 s,
     * under the fastest measured node, t(1, 2, 3) = 1e-6 * 2 * 9 = 1.8e-5 s,
     * which holds (exact; the old rule gave 4.5e-6) */
    double y[3] = {0.5, 1, 3};
    assert_rel(rl_kt_time(&t, y, ideal_mnk, NULL, &p), 1.8e-5, 1e-12);
    assert_int_equal(p, RL_PROV_EXTRAPOLATED);
    /* far below: the same floor, not a vanishing time */
    double z[3] = {1e-3, 1e-3, 1e-3};
    assert_rel(rl_kt_time(&t, z, ideal_mnk, NULL, &p), 1.8e-5, 1e-12);
    /* the floor follows the nodes: a faster measured node lowers it (the
     * cached floor is found again after rl_kt_isotonic) */
    int lo[3] = {0, 0, 0};
    t.logv[rl_kt_index(&t, lo)] = log(9e-6);
    assert_int_equal(rl_kt_isotonic(&t, 3) >= 0, 1);
    assert_rel(rl_kt_time(&t, z, ideal_mnk, NULL, &p), 9e-6, 1e-12);
    rl_kt_free(&t);
}

/* A 1-axis table m = {1, 2, 4, 8}, every node a hole. */
static void make_m_axis(rl_ktable *t)
{
    memset(t, 0, sizeof *t);
    t->naxes = 1;
    snprintf(t->axis_name[0], sizeof t->axis_name[0], "m");
    t->len[0] = 4;
    for (int i = 0; i < 4; i++)
        t->axis[0][i] = 1 << i;
    char err[256];
    assert_int_equal(rl_kt_alloc(t, err, sizeof err), 0);
}

/* The grid's own law as the roofline: t ~ k^2 grows faster than m n k,
 * and a bracket growing more than RL_KT_STEP x its roofline spans a
 * kernel switch (ktable.h); under the law itself no bracket does. */
static double ideal_law(const double *x, const void *ctx)
{
    (void)ctx;
    return power_law(x);
}

/* A hole with measured nodes on both sides along an axis is interpolated
 * in log-log between them (ktable.h), not scaled along the roofline. */
static void test_fill_holes_between(void **state)
{
    (void)state;
    rl_ktable t;
    make_grid(&t);
    int hole[3] = {1, 0, 1}; /* (4, 2, 9): between m = 1, 16 and k = 3, 27 */
    size_t h = rl_kt_index(&t, hole);
    t.logv[h] = NAN;
    assert_int_equal(rl_kt_fill_holes(&t, ideal_law, NULL), 1);
    /* both axes reproduce the power law: 1e-6 * 2 * 2 * 81 = 3.24e-4; the
     * roofline rule would give e.g. t(1, 2, 9) * 4 = 6.48e-4 */
    assert_rel(exp(t.logv[h]), 3.24e-4, 1e-12);
    /* the node (16, 2, 9) measured 1.5x its law: along m, w = ln 4 / ln 16
     * = 1/2, so 3.24e-4 * sqrt 1.5 (bracket 1..16, width ln 16); along k,
     * 3.24e-4 (bracket 3..27, width ln 9); their mean in ln latency
     * weighted by 1 / width (ktable.h): 3.24e-4 * 1.5^(ln 9 / (2 (ln 9 +
     * ln 16))) = 3.24e-4 * 1.5^0.22106 (exact by hand; the unweighted mean
     * before, 1.5^(1/4), fails this).  (2x its law, as this test had it
     * before the step rule, sits exactly on RL_KT_STEP's edge along m.) */
    t.logv[h] = NAN;
    t.filled[h] = 0;
    int m16[3] = {2, 0, 1};
    t.logv[rl_kt_index(&t, m16)] += log(1.5);
    assert_int_equal(rl_kt_fill_holes(&t, ideal_law, NULL), 1);
    assert_rel(exp(t.logv[h]), 3.24e-4 * pow(1.5, log(9.0) / (2 * (log(9.0) + log(16.0)))),
               1e-12);
    assert_rel(exp(t.logv[h]), 3.24e-4 * pow(1.5, 0.22106), 1e-5);
    rl_kt_free(&t);

    /* one axis {1, 2, 4, 8} of t = 1e-6 x^1.5 with holes at 2 and 4: each
     * from the measured 1 and 8 (a hole is never a source), exact */
    make_m_axis(&t);
    t.logv[0] = log(1e-6);
    t.logv[3] = log(1e-6 * pow(8, 1.5));
    assert_int_equal(rl_kt_fill_holes(&t, NULL, NULL), 2);
    assert_rel(exp(t.logv[1]), 1e-6 * pow(2, 1.5), 1e-12);
    assert_rel(exp(t.logv[2]), 1e-6 * 8, 1e-12);
    assert_true(t.filled[1] && t.filled[2] && !t.filled[3]);
    rl_kt_free(&t);
}

/* The "roofline" of the step test: t ~ streams (memory-bound decode
 * attention: its KV bytes do not grow with the group). */
static double ideal_streams(const double *x, const void *ctx)
{
    (void)ctx;
    return x[0];
}

/* The grid of the step tests: (streams, group) = {1, 2, 4} x {16, 32, 64}
 * holding t = 10 us * streams up to group 32 and 100 us * streams at 64;
 * `cut` on the group axis (0: none). */
static void make_step_grid(rl_ktable *t, double cut)
{
    memset(t, 0, sizeof *t);
    t->naxes = 2;
    snprintf(t->axis_name[0], sizeof t->axis_name[0], "streams");
    snprintf(t->axis_name[1], sizeof t->axis_name[1], "group");
    t->len[0] = t->len[1] = 3;
    static const double s[3] = {1, 2, 4}, g[3] = {16, 32, 64};
    memcpy(t->axis[0], s, sizeof s);
    memcpy(t->axis[1], g, sizeof g);
    char err[256];
    assert_int_equal(rl_kt_alloc(t, err, sizeof err), 0);
    t->cut[1] = cut;
    int idx[2];
    for (idx[0] = 0; idx[0] < 3; idx[0]++)
        for (idx[1] = 0; idx[1] < 3; idx[1]++)
            t->logv[rl_kt_index(t, idx)] = log((idx[1] == 2 ? 1e-4 : 1e-5) * s[idx[0]]);
}

/* make_step_grid(cut), then node `first` a hole: filled to want1 (1e-12);
 * measured again, node `second` a hole (a hole is never a source): want2. */
static void two_holes(double cut, const int *first, double want1, const int *second, double want2)
{
    rl_ktable t;
    make_step_grid(&t, cut);
    size_t f = rl_kt_index(&t, first), g = rl_kt_index(&t, second);
    t.logv[f] = NAN;
    assert_int_equal(rl_kt_fill_holes(&t, ideal_streams, NULL), 1);
    assert_rel(exp(t.logv[f]), want1, 1e-12);
    t.filled[f] = 0;
    t.logv[g] = NAN;
    assert_int_equal(rl_kt_fill_holes(&t, ideal_streams, NULL), 1);
    assert_rel(exp(t.logv[g]), want2, 1e-12);
    rl_kt_free(&t);
}

/* A bracket end that is a spike is stepped over (ktable.h RL_KT_SPIKE,
 * stop 44).  One axis, heads = {8, 16, 32, 64, 128}, shaped on B200
 * TensorRT-LLM's decode MLA bf16 at batch 1024, context 16384 (3273,
 * 4669, 3389 us at 16, 32, 64 heads): 3273 us at 8, 16 and 128 heads,
 * `spike` x 3273 us at 32, a hole at 64.  The hole's bracket 32..128 ends
 * on a node 1.43x both its other neighbour (16) and the other end (128):
 * a spike, so the bracket runs 16..128, and the parabola through 8, 16
 * and 128 (ktable.h, the curvature) is flat: 3273 us exactly.  Before
 * (and for a node 1.2x, under 1.25, below): the parabola through 16, 32
 * and 128, in log2(heads) 4, 5, 7 with values a, b, a, is symmetric about
 * 5.5, so at 6 it reads b, within the bracket [a, b]: 4669 us (3927.6 us
 * at 1.2x).  No ideal function (ratio 1; the bracket's 1.43x is no
 * switch, RL_KT_STEP 2).  By hand; 1e-12. */
static void test_fill_holes_spike(void **state)
{
    (void)state;
    static const double spike[2] = {4669.0 / 3273.0, 1.2};
    static const double want[2] = {3273e-6, 1.2 * 3273e-6};
    for (int c = 0; c < 2; c++) {
        rl_ktable t;
        memset(&t, 0, sizeof t);
        t.naxes = 1;
        snprintf(t.axis_name[0], sizeof t.axis_name[0], "heads");
        t.len[0] = 5;
        for (int i = 0; i < 5; i++)
            t.axis[0][i] = 8 << i;
        char err[256];
        assert_int_equal(rl_kt_alloc(&t, err, sizeof err), 0);
        for (int i = 0; i < 5; i++)
            t.logv[i] = log(3273e-6);
        t.logv[2] += log(spike[c]);
        t.logv[3] = NAN;
        assert_int_equal(rl_kt_fill_holes(&t, NULL, NULL), 1);
        assert_rel(exp(t.logv[3]), want[c], 1e-12);
        rl_kt_free(&t);
    }
}

/* A bracket across a kernel switch is left out of a hole's fill while
 * another bracket is not (ktable.h RL_KT_STEP).  A grid (streams, group) =
 * {1, 2, 4} x {16, 32, 64} holding t = 10 us * streams up to group 32 and
 * 100 us * streams at 64 (the shape of H100 TensorRT-LLM decode attention,
 * 512 streams, context 128, head_dim 64: 23.6, 27.8 and 318 us at group
 * 16, 32 and 48).  The hole (2, 32): along streams 1..4, 20 us (exact);
 * along group 16..64 the ratio 10 is over 2 x the roofline's 1, a switch,
 * left out: 20 us (the mean of both, weighted 1 / width as before, gave
 * sqrt(20 x sqrt(20 x 200)) = 35.6 us).  The hole (1, 32), on the streams
 * edge, has the group bracket only: it is used, sqrt(10 x 100) = 31.6 us. */
static void test_fill_holes_step(void **state)
{
    (void)state;
    const int mid[2] = {1, 1}, edge[2] = {0, 1};
    two_holes(0, mid, 2e-5, edge, sqrt(1e-5 * 1e-4));
}

/* A documented kernel switch (rl_ktable.cut; silicon.c: TensorRT-LLM's
 * XQA decode kernel up to group 32, MMHA above) is never filled across.
 * test_fill_holes_step's grid, t = 10 us * streams up to group 32 and
 * 100 us * streams at 64, with the group axis cut at 32.  The edge hole
 * (1, 32), whose only bracket (group 16..64) spans the cut: from the
 * nearest measured nodes on its side, (1, 16) and (2, 32), scaled along
 * the roofline (t ~ streams): 10 us and 20 us / 2, so exactly 10 us, the
 * law (without the cut the bracket gave sqrt(10 x 100) = 31.6 us).  The
 * hole (1, 64) above the cut: (2, 64) alone, 200 us / 2 = 100 us (without
 * it, (1, 32) joined: sqrt(10 x 100) = 31.6 us).  By hand; 1e-12. */
static void test_fill_holes_cut(void **state)
{
    (void)state;
    const int below[2] = {0, 1}, above[2] = {0, 2};
    two_holes(32, below, 1e-5, above, 1e-4);
}

/* Holes no bracket reaches take the mean of the measured nodes fewest grid
 * steps away, on their side of a cut where any is (ktable.c
 * nearest_along_roofline, one pass since fixHC: a nearer node found later
 * restarts the mean, a tie joins it).  make_step_grid's axes, no ideal
 * (ratio 1), measured only (streams, group) = (1, 64) 8, (2, 16) 2,
 * (2, 32) 4 and (4, 64) 16 (seconds; indices (0,2), (1,0), (1,1), (2,2)),
 * the rest holes, filled in node order.  By hand, exact up to 1e-12:
 *  - no cut: (0,0) from (1,0) alone at 1 step (the earlier (0,2) at 2 steps
 *    dropped): 2; (0,1) from (0,2) and (1,1) at 1 step: sqrt(8 x 4) = 5.657;
 *    (2,1) from (1,1) and (2,2): sqrt(4 x 16) = 8;
 *  - cut at group 32: (0,0) 2 as before; (0,1) from (1,1) alone, (0,2)
 *    across the cut: 4; (2,1) from (1,1) alone: 4;
 *  - cut at 32 with (0,2) and (2,2) holes too: (0,2) has no measured node
 *    on its side, so all count: (1,1) at 2 steps, 4. */
static void test_fill_holes_nearest(void **state)
{
    (void)state;
    static const double want[3][3] = {{2, sqrt(32.0), 8}, {2, 4, 4}, {2, 4, 4}};
    static const int at[3][2] = {{0, 0}, {0, 1}, {2, 1}}, alt[2] = {0, 2};
    for (int k = 0; k < 3; k++) {
        rl_ktable t;
        make_step_grid(&t, k ? 32 : 0);
        int idx[2];
        for (idx[0] = 0; idx[0] < 3; idx[0]++)
            for (idx[1] = 0; idx[1] < 3; idx[1]++)
                t.logv[rl_kt_index(&t, idx)] = NAN;
        static const int meas[4][2] = {{0, 2}, {1, 0}, {1, 1}, {2, 2}};
        static const double v[4] = {8, 2, 4, 16};
        for (int i = 0; i < (k == 2 ? 2 : 4); i++)
            t.logv[rl_kt_index(&t, meas[k == 2 ? i + 1 : i])] = log(v[k == 2 ? i + 1 : i]);
        assert_int_equal(rl_kt_fill_holes(&t, NULL, NULL), k == 2 ? 7 : 5);
        for (int i = 0; i < 3; i++) {
            const int *c = k == 2 && i == 2 ? alt : at[i];
            if (fabs(exp(t.logv[rl_kt_index(&t, c)]) / want[k][i] - 1) > 1e-12)
                fail_msg("case %d node (%d,%d): %.9g, want %.9g", k, c[0], c[1],
                         exp(t.logv[rl_kt_index(&t, c)]), want[k][i]);
        }
        rl_kt_free(&t);
    }
}

/* The roofline of the named-kernel test: t ~ streams x group. */
static double ideal_streams_group(const double *x, const void *ctx)
{
    (void)ctx;
    return x[0] * x[1];
}

/* Named kernels (ktable.h rl_ktable.kernel, stop 40).  test_fill_holes_
 * step's grid (streams, group) = {1, 2, 4} x {16, 32, 64} now holding t =
 * 1.25 us * streams * group (the roofline's law), but 1.5x that at group
 * 64, which kernel 2 measured (kernel 1 the rest): a step the ratio test
 * misses (1.5 < RL_KT_STEP over the law).  The hole (2, 32): its four
 * nearest neighbours ran kernel 1 three times, so it runs kernel 1; along
 * streams 1..4, kernel 1 at both ends, 80 us exact; along group 16..64 the
 * ends ran kernels 1 and 2: a switch, left out, so 80 us (with it, the
 * mean in ln of 80 and sqrt(40 x 240) = 97.98 us, each of width ln 4:
 * sqrt(80 x 97.98) = 88.54 us).  With group 16 named kernel 2 as well the
 * neighbours tie 2 to 2, which decides nothing: both brackets count,
 * 88.54 us.  By hand; 1e-12.  Without names (kernel NULL) as before:
 * 88.54 us. */
static void test_fill_holes_named_kernels(void **state)
{
    (void)state;
    for (int pass = 0; pass < 3; pass++) {
        rl_ktable t;
        make_step_grid(&t, 0);
        unsigned char kern[9];
        int idx[2];
        for (idx[0] = 0; idx[0] < 3; idx[0]++)
            for (idx[1] = 0; idx[1] < 3; idx[1]++) {
                size_t at = rl_kt_index(&t, idx);
                t.logv[at] = log(1.25e-6 * t.axis[0][idx[0]] * t.axis[1][idx[1]] *
                                 (idx[1] == 2 ? 1.5 : 1));
                kern[at] = idx[1] == 2 || (pass == 1 && idx[1] == 0) ? 2 : 1;
            }
        const int hole[2] = {1, 1};
        size_t h = rl_kt_index(&t, hole);
        t.logv[h] = NAN;
        t.kernel = pass < 2 ? kern : NULL;
        assert_int_equal(rl_kt_fill_holes(&t, ideal_streams_group, NULL), 1);
        double mixed = sqrt(80e-6 * sqrt(40e-6 * 240e-6));
        assert_rel(exp(t.logv[h]), pass == 0 ? 80e-6 : mixed, 1e-12);
        assert_rel(mixed, 88.54e-6, 1e-4);
        rl_kt_free(&t);
    }
}

/* The roofline of the named-kernel edge test: t ~ the product of the
 * shape (4 axes). */
static double ideal_product(const double *x, const void *ctx)
{
    (void)ctx;
    return x[0] * x[1] * x[2] * x[3];
}

/* A hole whose only bracket ran another kernel is filled by the edge rule
 * from its own kernel's nodes (ktable.h, stop 40).  Axes (streams, isl,
 * group, head_dim) = {1, 2} x {1, 2} x {1, 2} x {1, 2, 3}, t = 1 us x the
 * product at head_dim 2 (kernel 2: vLLM's Triton at head_dim 192 on B200)
 * and half that at head_dim 1 and 3 (kernel 1).  The hole (2, 2, 2, 2):
 * its neighbours below along streams, isl and group ran kernel 2, those
 * along head_dim kernel 1: 3 to 2, kernel 2; its one bracket (head_dim
 * 1..3, kernel 1, ratio 3 = the roofline's: no step) is left out, and the
 * nearest kernel-2 nodes, one step away along each of the first three
 * axes, each scaled by the roofline (x 2), give 16 us exact.  Read from
 * the bracket, as before, it was 8 us.  By hand; 1e-12. */
static void test_fill_holes_named_edge(void **state)
{
    (void)state;
    rl_ktable t;
    memset(&t, 0, sizeof t);
    t.naxes = 4;
    static const char *const names[4] = {"streams", "isl", "group", "head_dim"};
    for (int a = 0; a < 4; a++) {
        snprintf(t.axis_name[a], sizeof t.axis_name[a], "%s", names[a]);
        t.len[a] = a < 3 ? 2 : 3;
        for (int i = 0; i < t.len[a]; i++)
            t.axis[a][i] = i + 1;
    }
    char err[256];
    assert_int_equal(rl_kt_alloc(&t, err, sizeof err), 0);
    unsigned char kern[24];
    int idx[4];
    for (size_t at = 0; at < t.n; at++) {
        size_t r = at;
        for (int a = 3; a >= 0; a--) {
            idx[a] = (int)(r % (size_t)t.len[a]);
            r /= (size_t)t.len[a];
        }
        assert_int_equal(rl_kt_index(&t, idx), at);
        double x = 1e-6 * (idx[0] + 1) * (idx[1] + 1) * (idx[2] + 1) * (idx[3] + 1);
        kern[at] = idx[3] == 1 ? 2 : 1;
        t.logv[at] = log(idx[3] == 1 ? x : x / 2);
    }
    const int hole[4] = {1, 1, 1, 1};
    size_t h = rl_kt_index(&t, hole);
    t.logv[h] = NAN;
    t.kernel = kern;
    assert_int_equal(rl_kt_fill_holes(&t, ideal_product, NULL), 1);
    assert_rel(exp(t.logv[h]), 16e-6, 1e-12);
    t.kernel = NULL; /* as before: the bracket */
    t.logv[h] = NAN;
    t.filled[h] = 0;
    assert_int_equal(rl_kt_fill_holes(&t, ideal_product, NULL), 1);
    assert_rel(exp(t.logv[h]), 8e-6, 1e-12);
    rl_kt_free(&t);

    /* The hole's kernel only across a documented switch: group {16, 32,
     * 64, 128} cut at 32, 10 us at 16 and 32 (kernel 1), 100 us at 128
     * (unnamed), the hole at 64.  Its one named neighbour (32) ran kernel
     * 1, whose nodes all lie across the cut; the edge rule then reads its
     * own side, 128 alone, under a flat roofline: 100 us (it read NaN,
     * no node of kernel 1 on its side, before this case was handled). */
    memset(&t, 0, sizeof t);
    t.naxes = 1;
    snprintf(t.axis_name[0], sizeof t.axis_name[0], "group");
    t.len[0] = 4;
    static const double g[4] = {16, 32, 64, 128};
    memcpy(t.axis[0], g, sizeof g);
    assert_int_equal(rl_kt_alloc(&t, err, sizeof err), 0);
    t.cut[0] = 32;
    const double v[4] = {1e-5, 1e-5, NAN, 1e-4};
    const unsigned char k1[4] = {1, 1, 0, 0};
    for (int i = 0; i < 4; i++)
        t.logv[i] = log(v[i]);
    t.kernel = k1;
    assert_int_equal(rl_kt_fill_holes(&t, NULL, NULL), 1);
    assert_rel(exp(t.logv[2]), 1e-4, 1e-12);
    rl_kt_free(&t);
}

/* A hole between measured nodes follows the line's curvature (ktable.h):
 * one axis "isl" = {1, 2, 4, 8, 16} holding ln t = ln 1e-6 + 0.2 u +
 * 0.3 u^2, u = ln isl (convex in log-log, as a kernel leaving its launch
 * floor is), the node at 4 a hole.  Both parabolas, through (1, 2, 8) and
 * (2, 8, 16), reproduce the law: 1e-6 * exp(0.2 ln 4 + 0.3 (ln 4)^2) =
 * 2.3486e-6 (by hand).  The chord between 2 and 8 gives 1e-6 * exp(0.2 ln
 * 4 + 0.15 ((ln 2)^2 + (ln 8)^2)) = 2.7127e-6, 15.5% higher: fails this.  A
 * GEMM table (first axis m) keeps the chord: test_fill_holes_between. */
static void test_fill_holes_curved(void **state)
{
    (void)state;
    rl_ktable t;
    make_m_axis(&t);
    snprintf(t.axis_name[0], sizeof t.axis_name[0], "isl");
    t.len[0] = 5;
    t.axis[0][4] = 16;
    rl_kt_free(&t);
    char err[256];
    assert_int_equal(rl_kt_alloc(&t, err, sizeof err), 0);
    for (int i = 0; i < 5; i++) {
        double u = log(t.axis[0][i]);
        t.logv[i] = i == 2 ? NAN : log(1e-6) + 0.2 * u + 0.3 * u * u;
    }
    assert_int_equal(rl_kt_fill_holes(&t, NULL, NULL), 1);
    double u = log(4.0);
    assert_rel(exp(t.logv[2]), 1e-6 * exp(0.2 * u + 0.3 * u * u), 1e-12);
    assert_rel(exp(t.logv[2]), 2.3486e-6, 1e-4);
    rl_kt_free(&t);
}

/* fixTC: a GEMM hole reads its place in the table's own profile along each
 * axis, not in ln shape (ktable.h rl_kt_fill_holes).  (m, n) = {64, 80, 96,
 * 128} x {1024, 2048, 4096, 8192} holding t = 1 us * sqrt(n / 1024) * s(m),
 * s = 1 at m 64 and 1.16 at 80, 96 and 128: a staircase, one step between
 * 64 and 80 (the A100 TensorRT-LLM int4_wo GEMM's median line steps 1.167x
 * from 64 to 80 and 1.000x from 80 to 96, docs/validation.md fixTC).  The
 * hole (80, 2048): along m the profile is 0 at 64, ln 1.16 at 80 and 96
 * (the lower median of the three other lines' steps), so its weight
 * toward 96 is 1 and the chord reads 1.16 sqrt 2 us; along n the profile
 * rises 0.5 ln 2 a step, weight 1/2, the power law exactly.  Expected
 * 1.16 sqrt 2 us = 1.64049 us, 1e-12.  Fails before: the weight in ln m,
 * ln(80/64) / ln(96/64) = 0.5503, read 1.16^0.5503 sqrt 2 along m and the
 * 1 / width mean of the two brackets 1.558 us, 5.0% low. */
static void test_fill_holes_gemm_profile(void **state)
{
    (void)state;
    rl_ktable t;
    memset(&t, 0, sizeof t);
    t.naxes = 2;
    static const double ax[2][4] = {{64, 80, 96, 128}, {1024, 2048, 4096, 8192}};
    static const double step[4] = {1, 1.16, 1.16, 1.16};
    for (int a = 0; a < 2; a++) {
        snprintf(t.axis_name[a], sizeof t.axis_name[a], "%s", a ? "n" : "m");
        t.len[a] = 4;
        memcpy(t.axis[a], ax[a], sizeof ax[a]);
    }
    char err[256];
    assert_int_equal(rl_kt_alloc(&t, err, sizeof err), 0);
    int idx[2];
    for (idx[0] = 0; idx[0] < 4; idx[0]++)
        for (idx[1] = 0; idx[1] < 4; idx[1]++)
            t.logv[rl_kt_index(&t, idx)] = log(1e-6 * sqrt(ax[1][idx[1]] / 1024) * step[idx[0]]);
    int hole[2] = {1, 1};
    size_t h = rl_kt_index(&t, hole);
    t.logv[h] = NAN;
    assert_int_equal(rl_kt_fill_holes(&t, NULL, NULL), 1);
    assert_rel(exp(t.logv[h]), 1e-6 * 1.16 * sqrt(2.0), 1e-12);
    assert_rel(exp(t.logv[h]), 1.64049e-6, 1e-5);
    rl_kt_free(&t);
}

static void test_fill_holes(void **state)
{
    (void)state;
    rl_ktable t;
    make_grid(&t);
    int hole[3] = {2, 1, 2}; /* (16, 8, 27) */
    size_t h = rl_kt_index(&t, hole);
    t.logv[h] = NAN;
    /* the last node on every axis, so nothing brackets it: the roofline
     * rule.  The measured nodes one grid step away are (4, 8, 27), (16, 2, 27) and
     * (16, 8, 9); each scaled by the ideal ratio (m n k here): 4, 4 and 3 */
    assert_int_equal(rl_kt_fill_holes(&t, ideal_mnk, NULL), 1);
    double e1 = 1e-6 * 2 * 8 * 729 * 4, e2 = 1e-6 * 4 * 2 * 729 * 4, e3 = 1e-6 * 4 * 8 * 81 * 3;
    assert_rel(exp(t.logv[h]), cbrt(e1 * e2 * e3), 1e-12);
    assert_int_equal(t.filled[h], 1);
    rl_provenance p;
    double x[3] = {16, 8, 27};
    rl_kt_time(&t, x, NULL, NULL, &p);
    assert_int_equal(p, RL_PROV_INTERPOLATED); /* a filled node is not measured */
    /* a table with no measured node cannot be filled */
    for (size_t i = 0; i < t.n; i++)
        t.logv[i] = NAN, t.filled[i] = 0;
    assert_int_equal(rl_kt_fill_holes(&t, NULL, NULL), -1);
    rl_kt_free(&t);
}

/* Write t's Lua form and read it back. */
static int round_trip(const rl_ktable *t, rl_ktable *back, char *err, size_t errlen)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fputs("return ", f);
    rl_kt_write(f, t, 0);
    fclose(f);
    lua_State *L = luaL_newstate();
    int rc = luaL_dostring(L, buf) == LUA_OK ? rl_kt_read(L, -1, "mem", "tables.gemm", back, err,
                                                            errlen)
                                             : -1;
    lua_close(L);
    free(buf);
    return rc;
}

static void test_lua_round_trip(void **state)
{
    (void)state;
    rl_ktable t, back;
    make_grid(&t);
    int hole[3] = {0, 0, 1};
    t.filled[rl_kt_index(&t, hole)] = 1;
    char err[256];
    assert_int_equal(round_trip(&t, &back, err, sizeof err), 0);
    assert_int_equal(back.naxes, 3);
    assert_string_equal(back.axis_name[2], "k");
    assert_int_equal(back.len[1], 2);
    assert_true(back.filled[rl_kt_index(&back, hole)]);
    /* 4 significant digits: every value within 5e-4 relative */
    for (size_t i = 0; i < t.n; i++)
        assert_rel(exp(back.logv[i]), exp(t.logv[i]), 5e-4);
    rl_kt_free(&t);
    rl_kt_free(&back);
}

/* The isotonic median fit (ktable.h; tester finding 11), read from a
 * profile: a grid (m, n) = {1, 4, 16} x {2, 8} with latencies (us) m=1:
 * 24, 30; m=4: 10, 20; m=16: 9.5, 21.  Pool adjacent violators along m, a
 * pooled block valued at its lower median, by hand.  n = 2: 24 then 10
 * falls: pooled, {24, 10} -> 10; 9.5 falls below that: pooled, {24, 10,
 * 9.5} -> 10 us at every m (the spike at m = 1 dropped, not averaged).
 * n = 8: 30, 20 pooled -> 20; 21 stands: 20, 20, 21 us.  n is not a
 * batched axis: not fitted (it is monotone here anyway).  A fitted node
 * stays `measured`; between nodes the lookup interpolates the fit (m = 8
 * at n = 8: the log-log midpoint of 20 and 21, sqrt(420) us).  Tolerance
 * 1e-12 (exact arithmetic). */
static void test_isotonic_fit(void **state)
{
    (void)state;
    lua_State *L = luaL_newstate();
    assert_int_equal(luaL_dostring(L, "return { axes = { 'm', 'n' }, m = { 1, 4, 16 }, "
                                      "n = { 2, 8 }, values = { 24e-6, 30e-6, 10e-6, 20e-6, "
                                      "9.5e-6, 21e-6 } }"),
                     LUA_OK);
    rl_ktable t;
    char err[256];
    assert_int_equal(rl_kt_read(L, -1, "mem", "tables.gemm", &t, err, sizeof err), 0);
    lua_close(L);
    rl_provenance p;
    const double n2[3] = {10e-6, 10e-6, 10e-6}, n8[3] = {20e-6, 20e-6, 21e-6};
    for (int i = 0; i < 3; i++) {
        double x[2] = {t.axis[0][i], 2};
        assert_rel(rl_kt_time(&t, x, NULL, NULL, &p), n2[i], 1e-12);
        assert_int_equal(p, RL_PROV_MEASURED);
        x[1] = 8;
        assert_rel(rl_kt_time(&t, x, NULL, NULL, &p), n8[i], 1e-12);
    }
    double x[2] = {8, 8};
    assert_rel(rl_kt_time(&t, x, NULL, NULL, &p), sqrt(20e-6 * 21e-6), 1e-12);
    assert_int_equal(p, RL_PROV_INTERPOLATED);
    rl_kt_free(&t);
}

/* The fit's reach (ktable.h).  Only batched axes: grid (m, group) =
 * {1, 4} x {1, 2}, us: (1, 1) 20, (1, 2) 10, (4, 1) 21, (4, 2) 11.  Group 1
 * measured 2x group 2 (another kernel): it stays 20 us, measured.  Two
 * batched axes, fitted in table order: (streams, context) = {1, 2} x
 * {1, 2}, ln latencies (1, 0; 0.5, 2) (rows: streams).  Along streams
 * first: context 1's chain (1, 0.5) falls, pooled to its lower median
 * 0.5, 0.5; context 2's (0, 2) stands.  Then along context: streams 1's
 * chain (0.5, 0) pooled to 0, 0; streams 2's (0.5, 2) stands.  Result
 * (0, 0; 0.5, 2), non-decreasing along both.  Holes take no part: the m
 * chain (ln) 1, hole, 0 pools to 0, hole, 0.  Hole filling after the
 * fit: m = {1, 2, 4, 8} at 30 us (a spike), hole, 10, 20 us: the fit
 * pools 30 and 10 to 10 us (20 stands), and the hole at m = 2 is then
 * their log-log midpoint, 10 us (the spike alone gave sqrt(30 x 10) =
 * 17.3); the second fit (silicon.h: the import fits again after filling,
 * the filled nodes taking part) leaves 10, 10, 10, 20.  Exact: 1e-12. */
static void test_isotonic_reach(void **state)
{
    (void)state;
    lua_State *L = luaL_newstate();
    assert_int_equal(luaL_dostring(L, "return { axes = { 'm', 'group' }, m = { 1, 4 }, "
                                      "group = { 1, 2 }, values = { 20e-6, 10e-6, 21e-6, 11e-6 } }"),
                     LUA_OK);
    rl_ktable t;
    char err[256];
    rl_provenance p;
    assert_int_equal(rl_kt_read(L, -1, "mem", "tables.decode_attention", &t, err, sizeof err), 0);
    lua_close(L);
    double x[2] = {1, 1};
    assert_rel(rl_kt_time(&t, x, NULL, NULL, &p), 20e-6, 1e-12);
    assert_int_equal(p, RL_PROV_MEASURED);
    rl_kt_free(&t);

    memset(&t, 0, sizeof t);
    t.naxes = 2;
    snprintf(t.axis_name[0], sizeof t.axis_name[0], "streams");
    snprintf(t.axis_name[1], sizeof t.axis_name[1], "context");
    for (int a = 0; a < 2; a++) {
        t.len[a] = 2;
        t.axis[a][0] = 1;
        t.axis[a][1] = 2;
    }
    assert_int_equal(rl_kt_alloc(&t, err, sizeof err), 0);
    const double in[4] = {1, 0, 0.5, 2}, want[4] = {0, 0, 0.5, 2};
    memcpy(t.logv, in, sizeof in);
    rl_kt_isotonic(&t, RL_KT_ROUNDS);
    for (int i = 0; i < 4; i++)
        assert_true(t.logv[i] == want[i]);
    rl_kt_free(&t);

    make_m_axis(&t); /* m = 1, 2, 4, 8: holes at 2 and 8 */
    t.logv[0] = 1;
    t.logv[2] = 0;
    rl_kt_isotonic(&t, RL_KT_ROUNDS);
    assert_true(t.logv[0] == 0 && isnan(t.logv[1]) && t.logv[2] == 0 && isnan(t.logv[3]));
    rl_kt_free(&t);

    make_m_axis(&t);
    t.logv[0] = log(30e-6);
    t.logv[2] = log(10e-6);
    t.logv[3] = log(20e-6);
    rl_kt_isotonic(&t, RL_KT_ROUNDS);
    assert_int_equal(rl_kt_fill_holes(&t, NULL, NULL), 1);
    rl_kt_isotonic(&t, RL_KT_ROUNDS);
    for (int i = 0; i < 3; i++)
        assert_rel(exp(t.logv[i]), 10e-6, 1e-12);
    assert_rel(exp(t.logv[3]), 20e-6, 1e-12);
    rl_kt_free(&t);
}

/* A (streams, context) = {1, 2, 4} x {1, 2} grid, both batched axes, of
 * ln latencies (rows: streams) 4, hole; 4, 3; 2, 0. */
static void make_two_axis(rl_ktable *t)
{
    memset(t, 0, sizeof *t);
    t->naxes = 2;
    snprintf(t->axis_name[0], sizeof t->axis_name[0], "streams");
    snprintf(t->axis_name[1], sizeof t->axis_name[1], "context");
    t->len[0] = 3;
    t->len[1] = 2;
    for (int i = 0; i < 3; i++)
        t->axis[0][i] = 1 << i;
    t->axis[1][0] = 1;
    t->axis[1][1] = 2;
    char err[256];
    assert_int_equal(rl_kt_alloc(t, err, sizeof err), 0);
    const double in[6] = {4, NAN, 4, 3, 2, 0};
    memcpy(t->logv, in, sizeof in);
}

/* Two batched axes where one round of one-axis passes is not enough
 * (ktable.h), by hand, on make_two_axis's grid.  Round 1, along streams:
 * context 1's chain 4, 4, 2: 2 falls, pooled with the 4 before it (lower
 * median 2), which falls below the first 4: all three pooled, lower
 * median of {2, 4, 4} = 4: 4, 4, 4; context 2's hole, 3, 0: pooled to
 * the lower median of {3, 0} = 0: hole, 0, 0.  Along context: streams 1's
 * chain is 4 alone (its partner a hole: the pass leaves it); streams 2
 * and 4 (4, 0) pool to 0, 0.  The grid 4, hole; 0, 0; 0, 0 now falls
 * along streams (4 then 0) although that axis was fitted: one pass each
 * left it.  Round 2: context 1's 4, 0, 0 pools to 0, 0, 0; nothing else
 * moves; the check before round 3 finds no fall: 2 rounds, every node 0,
 * the hole a hole.  Allowed no round (rounds 0), the suffix minimum runs
 * at once: from the last node, (4, 2) 0; (4, 1) min(2, 0) = 0; (2, 2)
 * min(3, 0) = 0; (2, 1) min(4, 0, 0) = 0; the hole carries 0 from (2, 2)
 * and stays a hole; (1, 1) min(4, 0, 0) = 0: the same grid, returned as
 * 0 + 1.  The first round alone (rounds 1) leaves the fall to the suffix
 * minimum: 2.  The fit before this (one pass along each axis) left the
 * fall: rl_kt_falls 1.  Exact. */
static void test_two_axis_rounds(void **state)
{
    (void)state;
    const double want[6] = {0, NAN, 0, 0, 0, 0};
    const int rounds[3] = {RL_KT_ROUNDS, 0, 1}, ran[3] = {2, 1, 2};
    for (int k = 0; k < 3; k++) {
        rl_ktable t;
        make_two_axis(&t);
        assert_int_equal(rl_kt_falls(&t), 1);
        assert_int_equal(rl_kt_isotonic(&t, rounds[k]), ran[k]);
        for (int i = 0; i < 6; i++)
            assert_true(i == 1 ? isnan(t.logv[i]) : t.logv[i] == want[i]);
        assert_int_equal(rl_kt_falls(&t), 0);
        rl_kt_free(&t);
    }
}

/* A (m, n) = {1, 2, 4}^2 grid, us by n (rows) and m (columns):
 * n = 1: 30, 10, 12; n = 2: m1, 10, 11; n = 4: 10.4, 10, 11. */
static void make_fall_grid(rl_ktable *t, double m1)
{
    memset(t, 0, sizeof *t);
    t->naxes = 2;
    for (int a = 0; a < 2; a++) {
        snprintf(t->axis_name[a], sizeof t->axis_name[a], "%s", a ? "n" : "m");
        t->len[a] = 3;
        t->axis[a][0] = 1, t->axis[a][1] = 2, t->axis[a][2] = 4;
    }
    char err[256];
    assert_int_equal(rl_kt_alloc(t, err, sizeof err), 0);
    const double us[3][3] = {{30, 10, 12}, {m1, 10, 11}, {10.4, 10, 11}};
    for (int n = 0; n < 3; n++)
        for (int m = 0; m < 3; m++) {
            int idx[2] = {m, n};
            t->logv[rl_kt_index(t, idx)] = log(us[n][m] * 1e-6);
        }
}

/* rl_kt_find_steps (ktable.h) on make_fall_grid: with m1 = 25 us, m = 1
 * is more than 1.05x (RL_KT_FALL) m = 2 on the lines n = 1 (3x) and n = 2
 * (2.5x), not on n = 4 (1.04x): 2 of 3 lines, a strict majority of at
 * least RL_KT_STEP_CHAINS (3) lines: the switch is set at m = 1 (cut[0]
 * = 1; m = 2 over m = 4 falls on no line).  The fit then keeps every node
 * (each m = 1 node a line of its own; m = 2, 4 already rise: 0 rounds),
 * the written profile carries `cut = { m = 1 }`, and reads back with the
 * switch and the same nodes (within the 4 digits written, 5e-4), where
 * without it the read's fit pools n = 1's 30 and 10 us to 10.  With m1 =
 * 15 us (1.5x) the same 2 of 3 lines fall by more than 1.05x: the switch
 * is set and n = 2's 15 us kept (stop 48; under the 2x factor before, 1
 * line of 3 fell, no switch: this case failed there).  With m1 = 10.3 us
 * (1.03x) 1 line of 3 falls: no switch, and the fit pools (n = 1's 30, 10
 * -> 10 us; n = 2's 10.3, 10 -> 10).  Exact but for the round trip. */
static void test_find_steps(void **state)
{
    (void)state;
    rl_ktable t, back;
    make_fall_grid(&t, 25);
    assert_int_equal(rl_kt_find_steps(&t), 1);
    assert_true(t.cut[0] == 1 && t.cut[1] == 0);
    assert_int_equal(rl_kt_isotonic(&t, RL_KT_ROUNDS), 0);
    int n1m1[2] = {0, 0}, n1m2[2] = {1, 0};
    assert_rel(exp(t.logv[rl_kt_index(&t, n1m1)]), 30e-6, 1e-12);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    rl_kt_write(f, &t, 0);
    fclose(f);
    assert_non_null(strstr(buf, "cut = { m = 1 },"));
    free(buf);
    char err[256];
    assert_int_equal(round_trip(&t, &back, err, sizeof err), 0);
    assert_true(back.cut[0] == 1 && back.cut[1] == 0);
    for (size_t i = 0; i < t.n; i++)
        assert_rel(exp(back.logv[i]), exp(t.logv[i]), 5e-4);
    rl_kt_free(&t);
    rl_kt_free(&back);
    make_fall_grid(&t, 15);
    assert_int_equal(rl_kt_find_steps(&t), 1);
    assert_true(t.cut[0] == 1 && t.cut[1] == 0);
    assert_int_equal(rl_kt_isotonic(&t, RL_KT_ROUNDS), 0);
    int n2m1[2] = {0, 1};
    assert_rel(exp(t.logv[rl_kt_index(&t, n2m1)]), 15e-6, 1e-12);
    rl_kt_free(&t);
    make_fall_grid(&t, 10.3);
    assert_int_equal(rl_kt_find_steps(&t), 0);
    assert_true(t.cut[0] == 0);
    assert_int_equal(rl_kt_isotonic(&t, RL_KT_ROUNDS), 1);
    assert_rel(exp(t.logv[rl_kt_index(&t, n1m1)]), 10e-6, 1e-12);
    assert_rel(exp(t.logv[rl_kt_index(&t, n1m2)]), 10e-6, 1e-12);
    rl_kt_free(&t);
}

/* Read `lua` (returning a table) and expect an error containing `want`. */
static void expect_error(const char *lua, const char *want)
{
    lua_State *L = luaL_newstate();
    assert_int_equal(luaL_dostring(L, lua), LUA_OK);
    rl_ktable t;
    char err[512] = "";
    assert_int_equal(rl_kt_read(L, -1, "f.lua", "tables.gemm", &t, err, sizeof err), -1);
    if (!strstr(err, want))
        fail_msg("error '%s' lacks '%s'", err, want);
    lua_close(L);
}

static void test_lua_errors(void **state)
{
    (void)state;
    expect_error("return { axes = {'m'}, m = {1, 2}, values = {1e-6} }",
                 "f.lua: field 'tables.gemm.values': expected 2 latencies");
    expect_error("return { axes = {'m'}, m = {2, 1}, values = {1e-6, 2e-6} }",
                 "axis 'm': values must increase");
    expect_error("return { axes = {'m'}, m = {1, 2}, values = {1e-6, 0} }",
                 "field 'tables.gemm.values[2]': a latency must be > 0 seconds");
    expect_error("return { axes = {'m'}, m = {1, 2}, values = {1e-6, 0/0} }",
                 "field 'tables.gemm.values[2]': expected a finite number");
    expect_error("return { axes = {'m'}, m = {1}, values = {1e-6}, n = {1} }",
                 "unknown key 'n'");
    expect_error("return { axes = {'m', 'm'}, m = {1}, values = {1e-6} }",
                 "field 'tables.gemm.axes[2]'");
    expect_error("return { axes = {'m'}, m = {1}, values = {1e-6}, filled = {2} }",
                 "field 'tables.gemm.filled[1]': expected a node number in 1..1");
    expect_error("return { m = {1}, values = {1e-6} }", "field 'tables.gemm.axes'");
    /* a switch along a batched axis only (rl_kt_find_steps) */
    expect_error("return { axes = {'m', 'n'}, m = {1, 2}, n = {1}, values = {1e-6, 2e-6}, "
                 "cut = { n = 1 } }",
                 "field 'tables.gemm.cut': expected keys that name a batched axis");
    expect_error("return { axes = {'m'}, m = {1, 2}, values = {1e-6, 2e-6}, cut = { m = 0 } }",
                 "field 'tables.gemm.cut': expected a finite value > 0");
    expect_error("return { axes = {'m'}, m = {1, 2}, values = {1e-6, 2e-6}, cut = 1 }",
                 "field 'tables.gemm.cut': expected a table of axis = value, got number");
    expect_error("return { axes = {'cut'}, cut = {1}, values = {1e-6} }",
                 "field 'tables.gemm.axes[1]'");
    /* the compact string form */
    expect_error("return { axes = {'m'}, m = {1, 2}, values = '1e-6 2e-6x' }",
                 "field 'tables.gemm.values[2]': expected a finite number");
    expect_error("return { axes = {'m'}, m = {1, 2}, values = '1e-6, 2e-6, 3e-6' }",
                 "field 'tables.gemm.values': more than 2 values");
    expect_error("return { axes = {'m'}, m = {1, 2}, values = '1e-6 2e-6', filled = '1.5' }",
                 "field 'tables.gemm.filled[1]': expected a node number in 1..2");
}

/* The compact form of issue 12 (each profile <= 1 MB, read fast; stop
 * 46).  `filled`: a run of consecutive filled nodes is written first-last:
 * a 3 x 2 x 3 grid (18 nodes) with nodes 2, 4-9 and 18 filled is written
 * "2 4-9 18" and reads back those 8 nodes, no other; a range reads as its
 * numbers ("1-3" = "1 2 3"), and a range that falls, is not whole or runs
 * past the grid is refused naming the field.  Latencies: 2.345e5 us is
 * written "234500" (one character fewer), 1.5e4 us "1.5e4" ("15000" is no
 * shorter), 1.234e6 us "1.234e6" ("1234000" is longer), and the grid's
 * 23,328 us (4 significant digits: 2.333e4) "23330"; each reads back exactly
 * (tolerance 1e-12: decimals exact in doubles).  Both fail before stop 46
 * (the writer listed every node, "1.234e4" form; the reader refused
 * "4-9"). */
static void test_compact_form(void **state)
{
    (void)state;
    rl_ktable t, back;
    make_grid(&t);
    static const int filled[] = {2, 4, 5, 6, 7, 8, 9, 18};
    /* at m = 16 (nodes 13-15), above m = 4: the fit at read keeps them */
    for (size_t i = 0; i < sizeof filled / sizeof *filled; i++)
        t.filled[filled[i] - 1] = 1;
    t.logv[12] = log(1.5e4 * 1e-6);
    t.logv[13] = log(2.345e5 * 1e-6);
    t.logv[14] = log(1.234e6 * 1e-6);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    rl_kt_write(f, &t, 0);
    fclose(f);
    if (!strstr(buf, "filled = [[\n2 4-9 18\n"))
        fail_msg("filled not written as ranges: %s", buf);
    if (!strstr(buf, " 1.5e4 234500 1.234e6 288\n2592 23330\n"))
        fail_msg("latencies not in their shortest form: %s", buf);
    free(buf);
    char err[256] = "";
    assert_int_equal(round_trip(&t, &back, err, sizeof err), 0);
    for (size_t i = 0; i < t.n; i++)
        assert_int_equal(back.filled[i], t.filled[i]);
    assert_rel(exp(back.logv[12]), 1.5e-2, 1e-12);
    assert_rel(exp(back.logv[13]), 0.2345, 1e-12);
    assert_rel(exp(back.logv[14]), 1.234, 1e-12);
    rl_kt_free(&back);
    rl_kt_free(&t);
    lua_State *L = luaL_newstate();
    assert_int_equal(luaL_dostring(L, "return { axes = {'m'}, m = {1, 2, 3, 4}, "
                                      "values_us = '1 2 3 4', filled = '1-3' }"), LUA_OK);
    assert_int_equal(rl_kt_read(L, -1, "f.lua", "tables.gemm", &back, err, sizeof err), 0);
    assert_int_equal(back.filled[0] + back.filled[1] + back.filled[2], 3);
    assert_int_equal(back.filled[3], 0);
    rl_kt_free(&back);
    lua_close(L);
    expect_error("return { axes = {'m'}, m = {1, 2, 3}, values_us = '1 2 3', filled = '3-2' }",
                 "field 'tables.gemm.filled[1]': expected a number or a range A-B of whole "
                 "numbers, A <= B");
    expect_error("return { axes = {'m'}, m = {1, 2, 3}, values_us = '1 2 3', filled = '1-2.5' }",
                 "field 'tables.gemm.filled[1]': expected a number or a range A-B");
    expect_error("return { axes = {'m'}, m = {1, 2, 3}, values_us = '1 2 3', filled = '2 3-' }",
                 "field 'tables.gemm.filled[2]': expected a number or a range A-B");
    expect_error("return { axes = {'m'}, m = {1, 2, 3}, values_us = '1 2 3', filled = '1-inf' }",
                 "field 'tables.gemm.filled[1]': expected a number or a range A-B");
    expect_error("return { axes = {'m'}, m = {1, 2, 3}, values_us = '1 2 3', filled = '2-5' }",
                 "field 'tables.gemm.filled': more than 3 values");
    expect_error("return { axes = {'m'}, m = {1, 2, 3}, values_us = '1 2 3', filled = '0-2' }",
                 "field 'tables.gemm.filled[1]': expected a node number in 1..3");
    expect_error("return { axes = {'m'}, m = {1, 2}, values_us = '1 nan' }",
                 "field 'tables.gemm.values_us[2]': expected a finite number");
    /* a range is `filled`'s alone */
    expect_error("return { axes = {'m'}, m = {1, 2}, values_us = '1-2' }",
                 "field 'tables.gemm.values_us[1]': expected a finite number");
}

/* The reader's decimal fast path (ktable.c decimal) against strtod, bit
 * for bit, read as axis values (kept as read, no log taken): every
 * latency of 4 significant digits 1.000-9.999 at decades 1e-3 to 1e7 and
 * every whole number 1-99999 (rl_kt_write's forms), in runs of up to 80
 * (an axis's most), plus forms that take strtod's own path (more digits,
 * exponents beyond 22, hex) or stress the fast one, one at a time.
 * Tolerance 0 (the same double). */
static void read_axis(const char *text, int n)
{
    lua_State *L = luaL_newstate();
    lua_newtable(L);
    lua_newtable(L);
    lua_pushstring(L, "m");
    lua_rawseti(L, -2, 1);
    lua_setfield(L, -2, "axes");
    lua_pushstring(L, text);
    lua_setfield(L, -2, "m");
    char ones[2 * RL_KT_AXIS_MAX + 1] = "";
    for (int i = 0; i < n; i++)
        strcat(ones, "1 ");
    lua_pushstring(L, ones);
    lua_setfield(L, -2, "values_us");
    rl_ktable t;
    char err[256] = "";
    if (rl_kt_read(L, -1, "f.lua", "tables.gemm", &t, err, sizeof err) != 0)
        fail_msg("'%s': %s", text, err);
    assert_int_equal(t.len[0], n);
    const char *p = text;
    for (int i = 0; i < n; i++) {
        char *end;
        double want = strtod(p, &end);
        if (memcmp(&want, &t.axis[0][i], sizeof want))
            fail_msg("'%.40s' read %.17g, strtod %.17g", p, t.axis[0][i], want);
        p = end;
    }
    rl_kt_free(&t);
    lua_close(L);
}

static void test_decimal_as_strtod(void **state)
{
    (void)state;
    static const char *const odd[] = {"1.2345678901234567", "12345678901234567890", "1e300",
                                      "1e-300", "0x10", "1.", ".5", "5e+2", "5E-2", "+7",
                                      "0.000001234", "123456789012345e-22", "1e23",
                                      "999999999999999", "0.1", "3.0000000000000004",
                                      "9007199254740993", "1e0022", "7e-0023"};
    for (size_t i = 0; i < sizeof odd / sizeof *odd; i++)
        read_axis(odd[i], 1);
    char text[16 * RL_KT_AXIS_MAX];
    for (int from = 1; from < 100000; from += RL_KT_AXIS_MAX) {
        int n = 0;
        text[0] = 0;
        for (int k = from; k < 100000 && n < RL_KT_AXIS_MAX; k++, n++)
            snprintf(text + strlen(text), 16, "%d ", k);
        read_axis(text, n);
    }
    for (int d = -3; d <= 7; d++)
        for (int from = 1000; from < 10000; from += RL_KT_AXIS_MAX) {
            int n = 0;
            text[0] = 0;
            for (int k = from; k < 10000 && n < RL_KT_AXIS_MAX; k++, n++)
                snprintf(text + strlen(text), 16, "%.4g ", k / 1000.0 * pow(10.0, d));
            read_axis(text, n);
        }
}

/* Latencies in microseconds (`values_us`, what rl_kt_write writes since
 * stop 26, ktable.h) or seconds (`values`, profiles written before), exactly
 * one of the two.  A 1-node table at 12.5 us written reads back exactly
 * "12.5" (the "%.4g" form of 12.5 us); 12,340 us is written "12340", the
 * same number in two characters fewer than "1.234e4" (stop 46; "1.234e+04"
 * before stop 26).  `values_us = '12.34 1.234e4'` reads 12.34e-6 and
 * 1.234e-2 s (tolerance 1e-12: exact decimal arithmetic). */
static void test_values_units(void **state)
{
    (void)state;
    rl_ktable t = {.naxes = 1, .axis_name = {"m"}, .len = {2}, .axis = {{1, 2}}}, back;
    char err[256] = "";
    assert_int_equal(rl_kt_alloc(&t, err, sizeof err), 0);
    t.logv[0] = log(12.5e-6);
    t.logv[1] = log(12.34e-3);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    rl_kt_write(f, &t, 0);
    fclose(f);
    if (!strstr(buf, "values_us = [[\n12.5 12340\n"))
        fail_msg("written form lacks the microseconds: %s", buf);
    free(buf);
    assert_int_equal(round_trip(&t, &back, err, sizeof err), 0);
    assert_rel(exp(back.logv[0]), 12.5e-6, 1e-12);
    rl_kt_free(&back);
    rl_kt_free(&t);
    lua_State *L = luaL_newstate();
    assert_int_equal(luaL_dostring(L, "return { axes = {'m'}, m = {1, 2}, "
                                      "values_us = '12.34 1.234e4' }"), LUA_OK);
    assert_int_equal(rl_kt_read(L, -1, "f.lua", "tables.gemm", &back, err, sizeof err), 0);
    assert_rel(exp(back.logv[0]), 12.34e-6, 1e-12);
    assert_rel(exp(back.logv[1]), 1.234e-2, 1e-12);
    rl_kt_free(&back);
    lua_close(L);
    expect_error("return { axes = {'m'}, m = {1}, values = {1e-6}, values_us = {1} }",
                 "field 'tables.gemm': both values and values_us given");
    expect_error("return { axes = {'m'}, m = {1} }",
                 "field 'tables.gemm': expected values (latencies in seconds) or values_us");
    expect_error("return { axes = {'m'}, m = {1, 2}, values_us = {1, 0} }",
                 "field 'tables.gemm.values_us[2]': a latency must be > 0 microseconds");
    expect_error("return { axes = {'values_us'}, values_us = {1}, values = {1e-6} }",
                 "field 'tables.gemm.axes[1]'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_interpolation_closed_form),
        cmocka_unit_test(test_extrapolation_holds_efficiency),
        cmocka_unit_test(test_fill_holes),
        cmocka_unit_test(test_fill_holes_gemm_profile),
        cmocka_unit_test(test_fill_holes_between),
        cmocka_unit_test(test_fill_holes_step),
        cmocka_unit_test(test_fill_holes_spike),
        cmocka_unit_test(test_fill_holes_nearest),
        cmocka_unit_test(test_fill_holes_cut),
        cmocka_unit_test(test_fill_holes_named_kernels),
        cmocka_unit_test(test_fill_holes_named_edge),
        cmocka_unit_test(test_fill_holes_curved),
        cmocka_unit_test(test_lua_round_trip),
        cmocka_unit_test(test_compact_form),
        cmocka_unit_test(test_decimal_as_strtod),
        cmocka_unit_test(test_isotonic_fit),
        cmocka_unit_test(test_isotonic_reach),
        cmocka_unit_test(test_two_axis_rounds),
        cmocka_unit_test(test_find_steps),
        cmocka_unit_test(test_lua_errors),
        cmocka_unit_test(test_values_units),
        cmocka_unit_test(test_search_memo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
