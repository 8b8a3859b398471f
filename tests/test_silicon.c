/* test_silicon.c — the kernel-table importer: grids from the measured rows
 * of tests/data/silicon (an excerpt of NVIDIA AIConfigurator's H100 SXM
 * TensorRT-LLM tables, Apache-2.0; see tests/data/silicon/SOURCE.md),
 * holdout, the saved calibrated spec and its mode label, and bad tables
 * (file, line, column; exit 2; nothing written). */
#include "testutil.h"

#include <dirent.h>
#include <sys/stat.h>
#include <zlib.h>

#include "ops.h"
#include "silicon.h"
#include "stats.h"

#define EXCERPT RL_SRCDIR "/tests/data/silicon/h100_sxm"

static void import_excerpt(rl_silicon *s, int holdout)
{
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    char err[1024];
    if (rl_silicon_import(EXCERPT, "trtllm", &h, holdout, NULL, s, err, sizeof err) != 0)
        fail_msg("import: %s", err);
}

static void test_grids_hold_the_measured_rows(void **state)
{
    (void)state;
    rl_silicon s;
    import_excerpt(&s, 0);
    assert_string_equal(s.version, "1.3.0rc20");
    assert_string_equal(s.device, "NVIDIA H100 80GB HBM3");
    const rl_ktable *g = s.tables->t[RL_KC_GEMM][RL_KV_BF16];
    assert_non_null(g);
    assert_null(s.tables->t[RL_KC_GEMM][RL_KV_FP8]); /* the excerpt has bfloat16 rows only */
    /* 5 m (1..16) x 5 n x 2 k, all measured: 50 configurations, no hole */
    assert_int_equal(g->len[0], 5);
    assert_int_equal(g->len[1], 5);
    assert_int_equal(s.configs[RL_KC_GEMM][RL_KV_BF16], 50);
    assert_int_equal(s.filled[RL_KC_GEMM][RL_KV_BF16], 0);
    /* a node is its row: gemm,torch_flow,bfloat16,8,4096,4096,0.016413333515326183 (ms) */
    rl_provenance p;
    double x[3] = {8, 4096, 4096};
    assert_rel(rl_kt_time(g, x, NULL, NULL, &p), 0.016413333515326183e-3, 1e-12);
    assert_int_equal(p, RL_PROV_MEASURED);
    /* m = 1, 2, 4 measured 0.016560, 0.016363, 0.016283 ms: falling, so the
     * isotonic median fit (ktable.h) pools them to their median, m = 2's
     * row 0.016362667083740234 ms, at all three (m = 8 and 16 rise and
     * stand); m = 3, between the nodes m = 2 and 4, reads that too
     * (log-log between equal values) */
    double x3[3] = {3, 4096, 4096};
    assert_rel(rl_kt_time(g, x3, NULL, NULL, &p), 0.016362667083740234e-3, 1e-12);
    assert_int_equal(p, RL_PROV_INTERPOLATED);
    x3[0] = 4;
    assert_rel(rl_kt_time(g, x3, NULL, NULL, &p), 0.016362667083740234e-3, 1e-12);
    assert_int_equal(p, RL_PROV_MEASURED);
    /* decode: generation_attention,...,2,1,32,8,128,0,1,bfloat16,bfloat16,4095,
     * 0.021781332790851593: streams 2 x 8 = 16, context 1 + 4095, group 32 / 8 */
    const rl_ktable *d = s.tables->t[RL_KC_DECODE_ATTN][RL_KV_BF16];
    assert_non_null(d);
    double xd[4] = {16, 4096, 4, 128};
    assert_rel(rl_kt_time(d, xd, NULL, NULL, &p), 0.021781332790851593e-3, 1e-12);
    assert_int_equal(p, RL_PROV_MEASURED);
    /* prefill: context_attention,...,2,1024,32,8,128,...,0.08539199829101562:
     * streams 2 x 8 = 16, isl 1024, group 32 / 8 */
    const rl_ktable *c = s.tables->t[RL_KC_PREFILL_ATTN][RL_KV_BF16];
    double xc[4] = {16, 1024, 4, 128};
    assert_rel(rl_kt_time(c, xc, NULL, NULL, &p), 0.08539199829101562e-3, 1e-12);
    rl_silicon_free(&s);
}

/* A what-if chip (engines.h rl_engine_time_on: the roofline part moved,
 * the excess kept), worked by hand on the node (m, n, k) = (1, 4096, 4096),
 * whose fitted time is the row
 * gemm,torch_flow,bfloat16,2,4096,4096,0.016362667083740234 (ms; m = 1, 2
 * and 4 pooled to their median by the isotonic fit, test above).  Its
 * roofline on h100-sxm (bf16 9.89e14 FLOP/s, 3.35e12 B/s) is memory-bound:
 * 2 x 4096 x 4096 = 33554432 FLOPs take 3.39e-8 s, (4096 + 4096) x 2 +
 * 4096 x 4096 x 2 = 33570816 bytes take r0 = 1.00211e-5 s, so the kernel's
 * excess is t - r0 = 6.34153e-6 s.
 * - the figures as measured: the table's time (rl_engine_time) to the bit;
 * - HBM at half (1.675e12 B/s): memory-bound on both, the roofline part
 *   doubles: t + r0 = 2.63838e-5 s (the ratio rule read 2t, 3.2725e-5);
 * - bf16 peak at half (4.945e14): memory-bound still, t unchanged;
 * - bf16 peak 1e12: past the ridge, 3.3554432e-5 s of math: 3.3554432e-5 +
 *   6.34153e-6 = 3.98960e-5 s;
 * - HBM x100 (3.35e14): r0 / 100 + 6.34153e-6 = 6.44174e-6 s, not t / 100
 *   (tester15 F-whatif-1);
 * (1e-12 against the formula, 1e-5 against the rounded figures); a lower
 * bandwidth never reads faster (6e12 down to 1e11 B/s, at m = 1, 3, 16 and
 * an m = 64 beyond the grid). */
static void test_what_if_scaling(void **state)
{
    (void)state;
    rl_silicon s;
    import_excerpt(&s, 0);
    rl_serving_engine e = {.tables = s.tables};
    const double t = 0.016362667083740234e-3, was[2] = {9.89e14, 3.35e12};
    const double r0 = 33570816 / 3.35e12;
    double x[3] = {1, 4096, 4096};
    rl_provenance p;
    double same[2] = {9.89e14, 3.35e12}, half_bw[2] = {9.89e14, 1.675e12};
    double half_peak[2] = {4.945e14, 3.35e12}, slow[2] = {1e12, 3.35e12};
    double fast_bw[2] = {9.89e14, 3.35e14};
    double own = rl_engine_time(&e, RL_KC_GEMM, RL_KV_BF16, x, was[0], was[1], NULL);
    assert_rel(own, t, 1e-12);
    assert_true(rl_engine_time_on(&e, RL_KC_GEMM, RL_KV_BF16, x, was, same, &p) == own);
    assert_int_equal(p, RL_PROV_MEASURED);
    double half = rl_engine_time_on(&e, RL_KC_GEMM, RL_KV_BF16, x, was, half_bw, &p);
    assert_rel(half, t + r0, 1e-12);
    assert_rel(half, 2.63838e-5, 1e-5);
    assert_rel(rl_engine_time_on(&e, RL_KC_GEMM, RL_KV_BF16, x, was, half_peak, &p), t, 1e-12);
    double sl = rl_engine_time_on(&e, RL_KC_GEMM, RL_KV_BF16, x, was, slow, &p);
    assert_rel(sl, 33554432 / 1e12 + (t - r0), 1e-12);
    assert_rel(sl, 3.98960e-5, 1e-5);
    double fast = rl_engine_time_on(&e, RL_KC_GEMM, RL_KV_BF16, x, was, fast_bw, &p);
    assert_rel(fast, r0 / 100 + (t - r0), 1e-12);
    assert_rel(fast, 6.44174e-6, 1e-5);
    static const double ms[] = {1, 3, 16, 64};
    for (size_t i = 0; i < sizeof ms / sizeof *ms; i++) {
        double xm[3] = {ms[i], 4096, 4096}, prev = 0;
        for (double bw = 6e12; bw >= 1e11; bw /= 1.5) {
            double now[2] = {9.89e14, bw};
            double tb = rl_engine_time_on(&e, RL_KC_GEMM, RL_KV_BF16, xm, was, now, NULL);
            assert_true(tb >= prev);
            prev = tb;
        }
    }
    rl_silicon_free(&s);
}

/* The h100-pcie preset (stop 27, tester20 F3 ranking half) is the what-if
 * of h100-sxm above: it names h100-sxm as its base, so it keeps the H100
 * SXM's measured tables and figures as measured (bf16 9.89e14 FLOP/s,
 * 3.35e12 B/s: h100-sxm.lua) under its own datasheet figures (7.56e14,
 * 2.0e12: h100-pcie.lua), and every run is `estimated` with tables
 * measured on h100-sxm.  On the excerpt's nodes, worked by hand from the
 * rows (TensorRT-LLM 1.3.0rc20 on an H100 SXM, tests/data/silicon):
 * - GEMM (1, 4096, 4096), t = 1.6362667e-5 s (test above), memory-bound on
 *   both chips: t - 33570816 / 3.35e12 + 33570816 / 2e12 = 2.31269e-5 s;
 * - prefill attention (streams 16, isl 1024, group 4, head_dim 128), t =
 *   0.08539199829101562 ms, compute-bound on both: 17196646400 FLOPs,
 *   41943040 bytes; t - F / 9.89e14 + F / 7.56e14 = 9.07510e-5 s.
 * 1e-12 against the formula, 1e-5 against the rounded figures.  Before
 * stop 27 the preset had no tables: its GEMM read its roofline, 1.67854e-5
 * s, 27% under this. */
static void test_h100_pcie_is_sxm_what_if(void **state)
{
    (void)state;
    rl_hw pcie = load_hw("h100-pcie", NULL, 0);
    assert_rel(pcie.flops[RL_BF16], 7.56e14, 0);
    assert_rel(pcie.hbm_bw, 2.0e12, 0);
    assert_rel(pcie.measured.flops[RL_BF16], 9.89e14, 0);
    assert_rel(pcie.measured.hbm_bw, 3.35e12, 0);
    assert_true(rl_hw_what_if_of(&pcie));
    assert_string_equal(rl_hw_mode(&pcie, 1), "estimated");
    const rl_serving_engine *pe = rl_engines_selected(&pcie.engines);
    assert_non_null(pe);
    assert_string_equal(pe->name, "trtllm");
    assert_string_equal(pe->measured_on, "h100-sxm");
    assert_int_equal(pcie.nvls, 0);
    assert_int_equal(pcie.domain_chips, 2);
    /* its own price (Lambda's 1x H100 PCIe, 2.86), not h100-sxm's 4.25 (new-user tester E) */
    assert_true(pcie.price_per_chip_hour == 2.86);
    rl_silicon s;
    import_excerpt(&s, 0);
    rl_serving_engine e = {.tables = s.tables};
    const double was[2] = {pcie.measured.flops[RL_BF16], pcie.measured.hbm_bw};
    const double now[2] = {pcie.flops[RL_BF16], pcie.hbm_bw};
    double x[3] = {1, 4096, 4096};
    double t = 0.016362667083740234e-3, g = rl_engine_time_on(&e, RL_KC_GEMM, RL_KV_BF16, x, was,
                                                              now, NULL);
    assert_rel(g, t - 33570816 / 3.35e12 + 33570816 / 2e12, 1e-12);
    assert_rel(g, 2.31269e-5, 1e-5);
    double xc[4] = {16, 1024, 4, 128}, F = 17196646400.0;
    t = 0.08539199829101562e-3;
    double c = rl_engine_time_on(&e, RL_KC_PREFILL_ATTN, RL_KV_BF16, xc, was, now, NULL);
    assert_rel(c, t - F / 9.89e14 + F / 7.56e14, 1e-12);
    assert_rel(c, 9.07510e-5, 1e-5);
    rl_silicon_free(&s);
}

/* review28 M5, engine-switch half: switching engines restores the profile's
 * own figures as measured before the new engine's measured_at is laid over
 * them.  A copy of hw_profiles/h100-sxm.lua with hbm_bw 6.7e12 written in
 * (its own figure, no base) selects trtllm, whose tables record 3.35e12:
 * the what-if "hbm_bw=6.7e+12 (as measured 3.35e+12)", estimated.  Its vllm
 * tables, stripped of measured_at (tables written before 0.27, which record
 * none), are then taken at the profile's own 6.7e12: no what-if, and the
 * name rule (measured_on h100-sxm = the name) reads calibrated.  Before the
 * copy (spec.c settle_what_if, fixV) the switch left trtllm's 3.35e12 as
 * "as measured": still the what-if, estimated.  Back on trtllm, its
 * figures again.  Exact: figures copied, not computed. */
static void test_engine_switch_restores_own_figures(void **state)
{
    (void)state;
    char path[64], err[512];
    char *text = slurp_text(RL_SRCDIR "/hw_profiles/h100-sxm.lua");
    assert_non_null(text);
    char *at = strstr(text, "hbm_bw = 3.35e12,");
    assert_non_null(at);
    memcpy(at, "hbm_bw = 6.70e12,", strlen("hbm_bw = 6.70e12,"));
    write_temp(path, ".lua", text);
    free(text);
    rl_hw h = load_hw(path, NULL, 0);
    unlink(path);
    assert_rel(h.measured.hbm_bw, 3.35e12, 0); /* trtllm's measured_at */
    assert_string_equal(h.changed, "hbm_bw=6.7e+12 (as measured 3.35e+12)");
    assert_string_equal(rl_hw_mode(&h, 1), "estimated");
    if (rl_hw_select_engine(&h, "vllm", err, sizeof err) != 0) /* read from its file */
        fail_msg("%s", err);
    rl_serving_engine *v = &h.engines.e[h.engines.sel];
    assert_true(v->at_bw == 3.35e12);
    v->at_bw = 0; /* as written before 0.27: no measured_at */
    memset(v->at_flops, 0, sizeof v->at_flops);
    if (rl_hw_select_engine(&h, "trtllm", err, sizeof err) != 0 ||
        rl_hw_select_engine(&h, "vllm", err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_rel(h.measured.hbm_bw, 6.7e12, 0);
    assert_rel(h.measured.flops[RL_BF16], 9.89e14, 0);
    assert_string_equal(h.changed, "");
    assert_false(rl_hw_what_if_of(&h));
    assert_string_equal(rl_hw_mode(&h, 1), "calibrated");
    if (rl_hw_select_engine(&h, "trtllm", err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_rel(h.measured.hbm_bw, 3.35e12, 0);
    assert_string_equal(rl_hw_mode(&h, 1), "estimated");
}

/* Each node of the excerpt's bf16 GEMM, decode- and prefill-attention tables
 * (every measured kernel shape, tests/data/silicon) on a chip with 100x
 * the HBM bandwidth, 100x the bf16 peak, or both keeps at least its measured
 * excess over its roofline, t - ideal(x; was), and its roofline on the
 * changed chip, ideal(x; now) (engines.h rl_engine_time_on; tester15
 * F-whatif-1: the ratio rule read 483 llama3-8b decode kernels in 64 us at
 * 100x the bandwidth, 0.13 us each); and the what-if is never slower than the
 * chip as measured.  Tolerance 1e-12 relative (one addition's rounding).
 * On the ratio rule the first check fails at every node with an excess. */
static void test_what_if_keeps_the_excess(void **state)
{
    (void)state;
    rl_silicon s;
    import_excerpt(&s, 0);
    rl_serving_engine e = {.name = "trtllm", .tables = s.tables};
    const double was[2] = {9.89e14, 3.35e12};
    const double nows[][2] = {{9.89e14, 3.35e14}, {9.89e16, 3.35e12}, {9.89e16, 3.35e14}};
    static const rl_kclass cls[] = {RL_KC_GEMM, RL_KC_DECODE_ATTN, RL_KC_PREFILL_ATTN};
    int checked = 0, with_excess = 0;
    for (size_t c = 0; c < sizeof cls / sizeof *cls; c++) {
        const rl_ktable *g = s.tables->t[cls[c]][RL_KV_BF16];
        assert_non_null(g);
        for (size_t i = 0; i < g->n; i++) {
            double x[RL_KSHAPE] = {0};
            for (int a = g->naxes - 1, rest = (int)i; a >= 0; rest /= g->len[a], a--)
                x[a] = g->axis[a][rest % g->len[a]];
            double t = rl_engine_time(&e, cls[c], RL_KV_BF16, x, was[0], was[1], NULL);
            double r0 = rl_engine_floor(cls[c], RL_KV_BF16, x, was[0], was[1]);
            with_excess += t > r0 * (1 + 1e-9);
            for (size_t k = 0; k < sizeof nows / sizeof *nows; k++) {
                double tn = rl_engine_time_on(&e, cls[c], RL_KV_BF16, x, was, nows[k], NULL);
                double r1 = rl_engine_floor(cls[c], RL_KV_BF16, x, nows[k][0],
                                            nows[k][1]);
                if (!(tn >= (t - r0) * (1 - 1e-12) && tn >= r1 * (1 - 1e-12) && tn <= t))
                    fail_msg("class %d node %zu what-if %zu: %g s, excess %g s, roofline %g s, "
                             "measured %g s", (int)cls[c], i, k, tn, t - r0, r1, t);
                checked++;
            }
        }
    }
    assert_true(checked >= 3 * 50);
    assert_true(with_excess > 0);
    rl_silicon_free(&s);
}

/* The floor rule (engines.h rl_engine_time) at lookup: the decode node
 * {16, 4096, 4, 128} (0.021781332790851593 ms, test above) read as if its
 * table had been measured on a chip of 1e11 B/s reads its K and V, 2 x 16
 * x 4096 x 128 x 2 = 33554432 B, in no less than 3.3554432e-4 s (its 4 x
 * 16 x 4 x 4096 x 128 = 1.34e8 FLOPs take 1.4e-7 s at 9.89e14): the table
 * time is below that floor, so the floor is returned (to 1e-12) and
 * counted; at the chip's own 3.35e12 B/s (floor 1.0016e-5 s) the table's
 * time stands and nothing is counted. */
static void test_floor_at_lookup(void **state)
{
    (void)state;
    rl_silicon s;
    import_excerpt(&s, 0);
    rl_serving_engine e = {.tables = s.tables};
    double x[4] = {16, 4096, 4, 128};
    long before = rl_engine_floored();
    assert_rel(rl_engine_time(&e, RL_KC_DECODE_ATTN, RL_KV_BF16, x, 9.89e14, 3.35e12, NULL),
               0.021781332790851593e-3, 1e-12);
    assert_int_equal(rl_engine_floored(), before);
    assert_rel(rl_engine_time(&e, RL_KC_DECODE_ATTN, RL_KV_BF16, x, 9.89e14, 1e11, NULL),
               33554432 / 1e11, 1e-12);
    assert_int_equal(rl_engine_floored(), before + 1);
    rl_silicon_free(&s);
}

/* The floor rule at import (silicon.h): tests/data/silicon/a100_sxm, 8 rows
 * of A100 TensorRT-LLM 1.0.0 decode attention (batch 64, 32 heads, 1-8 KV
 * heads, head_dim 128, bf16; SOURCE.md).  K and V bytes 2 x streams x
 * context x 128 x 2 over A100's 2.039e12 B/s (a100-sxm-80g; FLOPs at 3.12e14
 * take under 3% of that): KV heads 8 at step 8191 read 2147483648 B in
 * 0.6393 ms, 1.65x that bandwidth; KV heads 4 and 2 at 8191 1.45x and 1.28x,
 * 8 at 1023 1.21x: 4 configurations left out, 4 fitted.  The node they
 * leave (streams 512, context 8192, group 4) is then timed from the kept
 * rows (filled and extrapolated by the roofline ratio) at no less than its
 * floor, 2147483648 / 2.039e12 = 1.0532e-3 s (before: 0.6393 ms), and the
 * rows kept are their measured times (KV heads 1, step 8191: 0.168448 ms). */
static void test_rows_below_the_floor_left_out(void **state)
{
    (void)state;
    rl_hw h = load_hw("a100-sxm-80g", NULL, 0);
    rl_silicon s;
    char err[1024];
    if (rl_silicon_import(RL_SRCDIR "/tests/data/silicon/a100_sxm", "trtllm", &h, 0, NULL, &s, err,
                          sizeof err) != 0)
        fail_msg("import: %s", err);
    assert_int_equal(s.below[RL_KC_DECODE_ATTN][RL_KV_BF16], 4);
    assert_int_equal(s.configs[RL_KC_DECODE_ATTN][RL_KV_BF16], 4);
    rl_serving_engine e = {.tables = s.tables};
    rl_provenance p;
    double kept[4] = {64, 8192, 32, 128}, left[4] = {512, 8192, 4, 128};
    assert_rel(rl_engine_time(&e, RL_KC_DECODE_ATTN, RL_KV_BF16, kept, 3.12e14, 2.039e12, &p),
               0.16844799121220908e-3, 1e-12);
    assert_int_equal(p, RL_PROV_MEASURED);
    long before = rl_engine_floored();
    double t = rl_engine_time(&e, RL_KC_DECODE_ATTN, RL_KV_BF16, left, 3.12e14, 2.039e12, &p);
    assert_true(t >= 2147483648.0 / 2.039e12);
    assert_int_equal(rl_engine_floored(), before); /* the grid itself is above the floor */
    cJSON *sum = rl_silicon_summary(&s);
    cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(sum, "tables"), 0);
    assert_int_equal(cJSON_GetObjectItem(row, "below_floor")->valueint, 4);
    cJSON_Delete(sum);
    rl_silicon_free(&s);
}

/* tester19 F1: the floor rule holds for the reference engine's tables too,
 * at the profile's own measured figures (its base.lua).  A synthetic fp32
 * GEMM table as `calibrate --backend cpu --quick` wrote it on the tester's
 * host: hbm_bw 2.0753e10 B/s (its stream copy), flops 2.8e10 (the best
 * GEMM, as the old calibrate took it from the row below).  m = 2, n = 256,
 * k = 1024 in 0.0378 ms reads 256 x 1024 x 4 B of weights (1048576 B, plus
 * 4 x 2 x (256 + 1024) of activations): 1058816 / 2.0753e10 = 0.0510 ms,
 * above its time: a cache's speed, left out and counted (below_floor 1);
 * its compute floor, 2 x 2 x 256 x 1024 / 2.8e10 = 0.0375 ms, does not
 * catch it.  m = 1 (0.054 ms; floor 0.0507 ms) and m = 4 (0.2 ms) stand.
 * Before: spared, below_floor 0, 3 configurations. */
static void test_reference_rows_below_the_floor_left_out(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_reff_XXXXXX", sub[64], path[128], err[1024];
    assert_non_null(mkdtemp(dir));
    snprintf(sub, sizeof sub, "%s/reference", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    snprintf(path, sizeof path, "%s/gemm_perf.csv.gz", sub);
    gzFile gz = gzopen(path, "wb");
    assert_non_null(gz);
    gzputs(gz, "# framework: roofline reference engine\n# device: host (cpu backend, 1 thread(s))\n"
               "op_name,kernel_source,gemm_dtype,m,n,k,latency\n"
               "gemm,reference_cpu,float32,1,256,1024,0.054\n"
               "gemm,reference_cpu,float32,2,256,1024,0.0378\n"
               "gemm,reference_cpu,float32,4,256,1024,0.2\n");
    gzclose(gz);
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    h.flops[RL_FP32] = 2.8e10;
    h.hbm_bw = 2.0753e10;
    rl_silicon s;
    if (rl_silicon_import(dir, "reference", &h, 0, NULL, &s, err, sizeof err) != 0)
        fail_msg("import: %s", err);
    int v = rl_kvariant_gemm(RL_FP32, RL_FP32);
    assert_int_equal(s.below[RL_KC_GEMM][v], 1);
    assert_int_equal(s.configs[RL_KC_GEMM][v], 2);
    /* the lookup at that shape: no faster than its memory floor */
    rl_serving_engine e = {.tables = s.tables};
    snprintf(e.name, sizeof e.name, "reference");
    double x[4] = {2, 256, 1024, 0};
    assert_true(rl_engine_time(&e, RL_KC_GEMM, v, x, h.flops[RL_FP32], h.hbm_bw, NULL) >=
                1058816 / 2.0753e10 * (1 - 1e-12));
    rl_silicon_free(&s);
    assert_int_equal(remove_tree(dir), 0);
}

/* The isotonic median fit at import (ktable.h, silicon.h) on
 * tests/data/silicon/h100_sxm_spike: 8 rows of vLLM 0.24.0's H100 bf16
 * GEMM at n 7168, k 8192 (the fused gate/up GEMM of LLaMA-3-70B over 8
 * GPUs; SOURCE.md), m = 5, 6, 7, 8, 9, 12, 13, 16 at 43.047, 47.804,
 * 43.448, 43.444, 43.593, 45.168, 44.091, 47.986 us: m = 6 is a spike
 * (tester11 #9, tester14 F3a).  Pool adjacent violators, a pooled block
 * valued at its lower median, by hand: 43.047; 47.804; 43.448 falls:
 * pooled, {47.804, 43.448} -> 43.448; 43.444 falls below that: pooled,
 * {47.804, 43.448, 43.444} -> 43.448 (above m = 5's 43.047: stands);
 * 43.593 stands; 45.168; 44.091 falls: pooled, {45.168, 44.091} -> 44.091
 * (above 43.593: stands); 47.986 stands.  So m = 6, 7, 8 read m = 7's row,
 * m = 12, 13 m = 13's, the others their own; every node `measured`, and
 * the table is non-decreasing in m (it read 47.8 us at m = 6 and 43.4 at
 * m = 7).  Tolerance 1e-12 (rows carried through ln and exp). */
static void test_spike_made_monotone(void **state)
{
    (void)state;
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    rl_silicon s;
    char err[1024];
    if (rl_silicon_import(RL_SRCDIR "/tests/data/silicon/h100_sxm_spike", "vllm", &h, 0, NULL, &s,
                          err, sizeof err) != 0)
        fail_msg("import: %s", err);
    const rl_ktable *g = s.tables->t[RL_KC_GEMM][RL_KV_BF16];
    assert_non_null(g);
    assert_int_equal(g->len[0], 8);
    assert_int_equal(s.filled[RL_KC_GEMM][RL_KV_BF16], 0);
    const double ms[8] = {0.04304711023966471,  0.047804445028305054, 0.04344800114631653,
                          0.04344444473584493,  0.04359289010365804,  0.045167999135123364,
                          0.0440906650490231,   0.04798577891455757};
    const double want[8] = {ms[0], ms[2], ms[2], ms[2], ms[4], ms[6], ms[6], ms[7]};
    rl_provenance p;
    for (int i = 0; i < 8; i++) {
        double x[3] = {g->axis[0][i], 7168, 8192};
        assert_rel(rl_kt_time(g, x, NULL, NULL, &p), want[i] * 1e-3, 1e-12);
        assert_int_equal(p, RL_PROV_MEASURED);
    }
    double prev = 0;
    for (double m = 5; m <= 16; m += 0.25) {
        double x[3] = {m, 7168, 8192}, t = rl_kt_time(g, x, NULL, NULL, NULL);
        assert_true(t >= prev * (1 - 1e-12)); /* equal nodes interpolate to within an ulp */
        prev = t;
    }
    rl_silicon_free(&s);
}

/* A fall most lines show is kept (ktable.h rl_kt_find_steps) on
 * tests/data/silicon/b200_sxm_m1: 16 rows of vLLM 0.24.0's B200 fp8 GEMM
 * (CutlassFP8ScaledMMLinearKernel), m = 1..4 at (n, k) in {4096, 8192}^2
 * (SOURCE.md), us, m = 1, 2, 3, 4:
 *   (4096, 4096) 24.647  9.249  9.316  9.283   m1/m2 2.66
 *   (4096, 8192) 29.208 13.798 13.586 13.462         2.12
 *   (8192, 4096) 27.800 11.401 12.359 11.994         2.44
 *   (8192, 8192) 33.361 38.428 18.696 18.756         0.87
 * m = 1 is more than RL_KT_STEP (2) times m = 2 on 3 of the 4 lines, a
 * strict majority of at least RL_KT_STEP_CHAINS (3): the switch is set
 * at m = 1 (m = 2 over m = 3 falls 2.06x on 1 line of 4, m = 3 over 4 on
 * none).  Each m = 1 node is then a line of its own and keeps its row;
 * m = 2..4 are fitted by pool adjacent violators (lower median), by hand:
 * (4096, 4096) 9.316 > 9.283 pooled -> 9.283: 9.249, 9.283, 9.283;
 * (4096, 8192) 13.798 > 13.586 pooled, then 13.462 below: the three
 * pooled -> 13.586; (8192, 4096) 12.359 > 11.994 pooled -> 11.994: 11.401,
 * 11.994, 11.994; (8192, 8192) 38.428 > 18.696 pooled -> 18.696, 18.756
 * stands.  Without the switch every m = 1 node pooled with m = 2 (24.647
 * read 9.249 us: -62%, the held-back rows' median -58%, docs/validation.md
 * stop 41).  Tolerance 1e-12 (rows carried through ln and exp). */
static void test_step_kept(void **state)
{
    (void)state;
    rl_hw h = load_hw("b200", NULL, 0);
    rl_silicon s;
    char err[1024];
    if (rl_silicon_import(RL_SRCDIR "/tests/data/silicon/b200_sxm_m1", "vllm", &h, 0, NULL, &s,
                          err, sizeof err) != 0)
        fail_msg("import: %s", err);
    const rl_ktable *g = s.tables->t[RL_KC_GEMM][RL_KV_FP8];
    assert_non_null(g);
    assert_int_equal(g->len[0], 4);
    assert_true(g->cut[0] == 1);
    assert_int_equal(s.filled[RL_KC_GEMM][RL_KV_FP8], 0);
    const double nk[4][2] = {{4096, 4096}, {4096, 8192}, {8192, 4096}, {8192, 8192}};
    const double want[4][4] = {{24.647111694018047, 9.248889154858058, 9.282666775915358,
                                9.282666775915358},
                               {29.208001163270738, 13.585777746306526, 13.585777746306526,
                                13.585777746306526},
                               {27.800000376171533, 11.400889191362592, 11.993777420785693,
                                11.993777420785693},
                               {33.360888560613, 18.696000178654987, 18.696000178654987,
                                18.755555152893066}};
    rl_provenance p;
    for (int l = 0; l < 4; l++)
        for (int m = 0; m < 4; m++) {
            double x[3] = {m + 1, nk[l][0], nk[l][1]};
            assert_rel(rl_kt_time(g, x, NULL, NULL, &p), want[l][m] * 1e-6, 1e-12);
            assert_int_equal(p, RL_PROV_MEASURED);
        }
    rl_silicon_free(&s);
}

/* A GEMM file of few m values keeps each as a node (silicon.c axis_rule,
 * stop 44) on tests/data/silicon/a100_sxm_m80: 14 rows of TensorRT-LLM
 * 1.0.0's A100 int4_wo GEMM (WeightOnlyQuantMatmul), m in {64, 80, 96,
 * 128, 160, 192, 256} at (n, k) = (16384, 2048) and (10240, 16384)
 * (SOURCE.md), us:
 *   (16384, 2048)   36.864  54.272  55.296  53.248  75.776  76.800  90.112
 *   (10240, 16384) 125.952 201.728 198.656 198.656 324.608 326.656 390.144
 * 2^i and 3 * 2^i alone (the rule for the 75-value files) left out m = 80
 * and 160, and m = 160 read 65.1 us log-log between 128 and 192 on the
 * first line (53.248 * (76.8 / 53.248)^(ln 1.25 / ln 1.5)), 14% under its
 * measured 75.776 (a tile step: 128 -> 160 takes 1.42x, 160 -> 192
 * 1.01x).  With every m a node, m = 160 reads its own row, `measured`.
 * The fit (ktable.h, lower median) pools the falls before it, by hand:
 * line 1, 55.296 > 53.248 pooled -> 53.248, then 54.272 above it: the
 * three pooled -> 54.272 at m = 80, 96, 128; line 2, 201.728 > 198.656
 * pooled -> 198.656 at m = 80.  Tolerance 1e-6 (the rows rounded to the ns
 * here; ln and exp). */
static void test_gemm_every_m(void **state)
{
    (void)state;
    rl_hw h = load_hw("a100-sxm-80g", NULL, 0);
    rl_silicon s;
    char err[1024];
    if (rl_silicon_import(RL_SRCDIR "/tests/data/silicon/a100_sxm_m80", "trtllm", &h, 0, NULL, &s,
                          err, sizeof err) != 0)
        fail_msg("import: %s", err);
    const rl_ktable *g = s.tables->t[RL_KC_GEMM][RL_KV_INT4_WO];
    assert_non_null(g);
    assert_int_equal(g->len[0], 7);
    const double nk[2][2] = {{16384, 2048}, {10240, 16384}};
    const double m[7] = {64, 80, 96, 128, 160, 192, 256};
    const double want[2][7] = {{36.864, 54.272, 54.272, 54.272, 75.776, 76.8, 90.112},
                               {125.952, 198.656, 198.656, 198.656, 324.608, 326.656, 390.144}};
    rl_provenance p;
    for (int l = 0; l < 2; l++)
        for (int i = 0; i < 7; i++) {
            double x[3] = {m[i], nk[l][0], nk[l][1]};
            assert_rel(rl_kt_time(g, x, NULL, NULL, &p), want[l][i] * 1e-6, 1e-6);
            assert_int_equal(p, RL_PROV_MEASURED);
        }
    rl_silicon_free(&s);
}

/* TensorRT-LLM's decode attention as its two kernels (engines.h
 * RL_TRTLLM_MMHA, stop 45) on tests/data/silicon/a100_sxm_mmha: 7 rows of
 * TensorRT-LLM 1.0.0's A100 table (SOURCE.md), context 2, head_dim 128,
 * bf16, us:
 *   group 8,  streams 8, 16, 32:     11.264 18.773 11.947
 *   group 16, streams 4, 8, 16, 32:  11.264 18.944 17.237 12.971
 * On 108 SMs XQA runs where 4 x streams x max(1, floor(2 / 128)) >= 108:
 * streams 32 alone; the rest run MMHA, one block per (sequence, query
 * head), at 64, 128, 64, 128, 256 pairs.  One table over streams pooled
 * the MMHA spike at 128 pairs with the faster XQA node above it (the
 * non-decreasing fit, lower median, ktable.h): group 8 read 11.264,
 * 11.947, 11.947 and group 16 11.264, 17.237 x 3 (32 streams, XQA,
 * 33% over its 12.971).  Now XQA's two rows are their table's only nodes
 * and read as measured; MMHA's over pairs fit group 8 as measured (its
 * 256-pair node a hole) and group 16 pools 18.944 with 17.237 (lower
 * median: 17.237 at 128 and 256 pairs).  Tolerance 1e-9 (ln and exp);
 * the saved profile (decode_attention_mmha, 4 significant digits) 5e-4. */
static void test_trtllm_mmha_over_pairs(void **state)
{
    (void)state;
    rl_hw h = load_hw("a100-sxm-80g", NULL, 0);
    rl_silicon s;
    char err[1024], path[64];
    if (rl_silicon_import(RL_SRCDIR "/tests/data/silicon/a100_sxm_mmha", "trtllm", &h, 0, NULL, &s,
                          err, sizeof err) != 0)
        fail_msg("import: %s", err);
    const rl_ktable *m = s.tables->mmha[RL_KV_BF16];
    assert_non_null(m);
    assert_string_equal(m->axis_name[0], RL_KT_PAIRS);
    assert_true(s.tables->sms == 108);
    assert_int_equal(s.configs[RL_KC_DECODE_ATTN][RL_KV_BF16], 7);
    const double shape[7][3] = {{8, 2, 8},  {16, 2, 8},  {32, 2, 8}, {4, 2, 16},
                                {8, 2, 16}, {16, 2, 16}, {32, 2, 16}};
    const double want[7] = {0.011264000087976456, 0.01877333347996076, 0.011946666985750198,
                            0.011264000087976456, 0.017237332959969837, 0.017237332959969837,
                            0.012970666090647379}; /* ms, the rows' digits */
    for (int pass = 0; pass < 2; pass++) {
        rl_hw back;
        const rl_engine_tables *t = s.tables;
        if (pass) {
            write_temp(path, ".lua", "");
            assert_int_equal(rl_silicon_save(&s, &h, "a100-sxm-80g", NULL, 0, "trtllm",
                                             "tests/data", "2026-12-05", NULL, path, err,
                                             sizeof err), 0);
            char *text = slurp_text(path);
            assert_non_null(strstr(text, "decode_attention_mmha = {"));
            free(text);
            back = load_hw(path, NULL, 0);
            t = rl_engines_selected(&back.engines)->tables;
            assert_true(t->sms == 108);
        }
        for (int i = 0; i < 7; i++) {
            double x[RL_KSHAPE] = {shape[i][0], shape[i][1], shape[i][2], 128, 0};
            x[RL_KX_ONE] = shape[i][0] <= shape[i][2]; /* batch 1 (one sequence) */
            const rl_ktable *k = rl_engine_table(t, RL_KC_DECODE_ATTN, RL_KV_BF16, x);
            assert_ptr_equal(k, t->mmha[RL_KV_BF16] && shape[i][0] < 32
                                    ? t->mmha[RL_KV_BF16] : t->t[RL_KC_DECODE_ATTN][RL_KV_BF16]);
            rl_provenance p;
            assert_rel(rl_kt_time(k, x, NULL, NULL, &p), want[i] * 1e-3, pass ? 5e-4 : 1e-9);
            assert_int_equal(p, RL_PROV_MEASURED);
        }
    }
    unlink(path);
    rl_silicon_free(&s);
}

/* A hole is not filled across a measured GEMM tile step (ktable.h
 * rl_kt_fill_holes, RL_KT_TILE_M; stop 44) on tests/data/silicon/
 * b200_sxm_tile: 9 rows of vLLM 0.24.0's B200 fp8 GEMM
 * (CutlassFP8ScaledMMLinearKernel), k 7168, m in {193, 256, 257}, n in
 * {5120, 8192, 12288} (SOURCE.md), us:
 *   n  5120  21.290667  21.259556  27.964443
 *   n  8192  22.992000 (23.344000) 29.896001   (m 193, 256, 257)
 *   n 12288  29.905776  29.913776  40.197333
 * held back: (256, 8192), the file's 9th node (--holdout 9).  The fit
 * pools n 5120's fall 21.291 > 21.260 -> 21.260 at m 193 and 256.  256 and
 * 257 are a tile step (256 a multiple of 16): the bracket along m (193,
 * 257), which read 257's slower time (weight ln(256/193) / ln(257/193) =
 * 0.986 toward it), is left out, and the hole is the chord along n at m =
 * 256 between 21.259556 (n 5120) and 29.913776 (n 12288).  Its weight is
 * the hole's place in the table's profile along n (ktable.h, fixTC): the
 * lower median over the lines measured at both ends of each step of ln
 * t(upper) - ln t(lower), m 193 and 257 here: 5120 -> 8192, ln(29.896001
 * / 27.964443) = 0.066791 (m 257; m 193's 0.078338 is the upper of two);
 * 8192 -> 12288, ln(29.905776 / 22.992000) = 0.262905 (m 193; m 257's
 * 0.296093); w = 0.066791 / (0.066791 + 0.262905) = 0.20258:
 * exp((1 - w) ln 21.259556 + w ln 29.913776) = 22.78 us, 2.4% below its
 * measured 23.344 us.  With w in ln n, ln(8192/5120) / ln(12288/5120) =
 * 0.537 (the rule before fixTC), it read 25.54 us, 9.4% above; before the
 * tile-step rule the two brackets' mean (1 / width weights) read 28.7 us,
 * 23% above.  Tolerance 1e-9 (ln and exp of the rows). */
static void test_gemm_tile_step(void **state)
{
    (void)state;
    rl_hw h = load_hw("b200", NULL, 0);
    rl_silicon s;
    char err[1024];
    if (rl_silicon_import(RL_SRCDIR "/tests/data/silicon/b200_sxm_tile", "vllm", &h, 9, NULL, &s,
                          err, sizeof err) != 0)
        fail_msg("import: %s", err);
    assert_int_equal((int)s.nheld, 1);
    assert_true(s.held[0].x[0] == 256 && s.held[0].x[1] == 8192);
    const rl_ktable *g = s.tables->t[RL_KC_GEMM][RL_KV_FP8];
    assert_non_null(g);
    double lo = log(0.029896001021067303 / 0.02796444296836853);
    double up = log(0.029905776182810467 / 0.022991999983787537), w = lo / (lo + up);
    double want = exp((1 - w) * log(0.02125955621401469e-3) + w * log(0.02991377645068699e-3));
    double x[3] = {256, 8192, 7168};
    rl_provenance p;
    assert_rel(rl_kt_time(g, x, NULL, NULL, &p), want, 1e-9);
    assert_int_equal(p, RL_PROV_INTERPOLATED);
    assert_rel(want, 22.78e-6, 1e-3);
    rl_silicon_free(&s);
}

static void test_holdout(void **state)
{
    (void)state;
    rl_silicon s;
    import_excerpt(&s, 2);
    /* every 2nd configuration of each file: gemm 50 -> 25, prefill 4 -> 2, decode 4 -> 2 */
    assert_int_equal(s.nheld, 29);
    assert_int_equal(s.configs[RL_KC_GEMM][RL_KV_BF16], 25);
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    char err[256];
    int failed;
    cJSON *r = rl_silicon_validate(&s, &h, NULL, &failed, err, sizeof err);
    assert_non_null(r);
    cJSON *ops = cJSON_GetObjectItem(r, "operators");
    assert_int_equal(cJSON_GetArraySize(ops), 3);
    cJSON *g = cJSON_GetArrayItem(ops, 0);
    assert_string_equal(cJSON_GetObjectItem(g, "class")->valuestring, "gemm");
    assert_int_equal(cJSON_GetObjectItem(g, "held_back")->valueint, 25);
    /* held rows are not in the fit: each held GEMM sits on a grid node
     * (m, n, k all grid values), and none of them counts as measured */
    assert_int_equal(cJSON_GetObjectItem(g, "measured")->valueint, 0);
    assert_int_equal(cJSON_GetObjectItem(g, "interpolated")->valueint, 25);
    double med = cJSON_GetObjectItem(g, "median_abs_error")->valuedouble;
    assert_true(med > 0 && med <= cJSON_GetObjectItem(g, "max_abs_error")->valuedouble);
    cJSON_Delete(r);
    rl_silicon_free(&s);
}

/* tester31 F15: validate --tables --holdout K above every class's
 * shape count (the excerpt: gemm 50, prefill and decode attention
 * 4 each, counted in pool) held nothing back and printed empty tables,
 * exit 0: refused (exit 2) naming the largest K that holds one (50); K 50
 * holds one GEMM and notes the two attention classes it leaves out.
 * tester50 F12: the counts are named shapes (calibrate --tables'
 * 'configurations' are another count), the refusal names the K that holds
 * back RL_KRESIDUAL_MIN_BAND (9: 50 / 9 = 5), and the one held-back GEMM's
 * band_widening p10, p90 and per-octave figures are null, with a note. */
static void test_holdout_above_the_classes(void **state)
{
    (void)state;
    rl_silicon s;
    import_excerpt(&s, 2);
    assert_int_equal(s.pool[RL_KC_GEMM], 50);
    assert_int_equal(s.pool[RL_KC_PREFILL_ATTN], 4);
    assert_int_equal(s.pool[RL_KC_DECODE_ATTN], 4);
    rl_silicon_free(&s);
    char cmd[1024], out[16384];
    for (int k = 50; k <= 51; k++) {
        snprintf(cmd, sizeof cmd, "validate --tables %s --hw h100-sxm --engine trtllm --holdout "
                 "%d --format json", EXCERPT, k);
        int rc = run_cli(cmd, out, sizeof out);
        if (k == 51 && (rc != 2 || !strstr(out, "--holdout 51: no shape held back (one in "
                                                   "every 51 of a class is; the largest class, "
                                                   "gemm, has 50 shapes (a shape: ") ||
                        !strstr(out, "give --holdout 50 or less (5 or less for at least 9 held "
                                     "back")))
            fail_msg("--holdout 51: exit %d, %s", rc, out);
        if (k == 50 && (rc != 0 || !strstr(out, "note: prefill_attention: 4 shapes, "
                                                   "fewer than --holdout 50: none held back") ||
                        !strstr(out, "note: decode_attention: 4 shapes") ||
                        !strstr(out, "note: gemm: 1 held-back row, fewer than 9: band_widening's "
                                     "p10, p90 and per-octave figures are withheld (null)") ||
                        !strstr(out, "\"p10\":\tnull") ||
                        !strstr(out, "\"per_octave_p10_p90\":\tnull")))
            fail_msg("--holdout 50: exit %d, %s", rc, out);
    }
    /* 10 held back (--holdout 5): the figures are numbers, no such note */
    snprintf(cmd, sizeof cmd, "validate --tables %s --hw h100-sxm --engine trtllm --holdout 5 "
             "--format json", EXCERPT);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    if (strstr(out, "held-back row") || strstr(out, "\"p10\":\tnull"))
        fail_msg("--holdout 5: %s", out);
    /* review44: a largest class of 8 shapes (h100_sxm_spike's vllm GEMMs) holds
     * back 9 at no --holdout: the refusal said "0 or less for at least 9" (8 / 9) */
    snprintf(cmd, sizeof cmd, "validate --tables %s_spike --hw h100-sxm --engine vllm --holdout "
             "1000 --format json", EXCERPT);
    if (run_cli(cmd, out, sizeof out) != 2 ||
        !strstr(out, "give --holdout 8 or less (none holds back 9, the fewest whose p10 and p90 "
                     "are quantiles") || strstr(out, "0 or less"))
        fail_msg("--holdout 1000 on 8 shapes: %s", out);
}

/* tester43 F3: --holdout K holds back every K-th grid node with all its
 * rows.  Prefill attention's grid keys streams = batch x KV heads and group
 * = heads / KV heads, so configurations of other batch and head counts
 * share a node (B200 TensorRT-LLM prefill bf16: 2271 of 3467 held-back
 * rows read `measured`).  tests/data/silicon/h100_sxm_nodes (6 rows of the
 * H100 TensorRT-LLM prefill attention table, SOURCE.md): prompts 2048,
 * 1024, 512 at batch 1, 32 heads, 8 KV heads, and three more at 1024 of
 * the same node (streams 8, group 4: batch 2/16/4, 4/8/2, 8/4/1), in that
 * file order.  --holdout 2 holds the second node (prompt 1024), all 4 of
 * its rows, each then read between 512 and 2048 (interpolated, none
 * measured); counting rows it held rows 2, 4 and 6, which the kept row 5
 * still measured.  3 nodes counted (pool). */
static void test_holdout_holds_whole_nodes(void **state)
{
    (void)state;
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    rl_silicon s;
    char err[1024];
    if (rl_silicon_import(RL_SRCDIR "/tests/data/silicon/h100_sxm_nodes", "trtllm", &h, 2, NULL,
                          &s, err, sizeof err) != 0)
        fail_msg("import: %s", err);
    assert_int_equal(s.pool[RL_KC_PREFILL_ATTN], 3);
    assert_int_equal((int)s.nheld, 4);
    rl_serving_engine e = {.tables = s.tables};
    for (size_t i = 0; i < s.nheld; i++) {
        const rl_silicon_row *r = &s.held[i];
        assert_rel(r->x[0], 8, 0); /* streams */
        assert_rel(r->x[1], 1024, 0);
        assert_rel(r->x[2], 4, 0); /* group */
        rl_provenance p;
        assert_true(rl_engine_time(&e, RL_KC_PREFILL_ATTN, RL_KV_BF16, r->x, h.flops[RL_BF16],
                                   h.hbm_bw, &p) > 0);
        assert_int_equal(p, RL_PROV_INTERPOLATED);
    }
    rl_silicon_free(&s);
}

/* Stop 40: a hole reads no bracket of another kernel (ktable.h
 * rl_ktable.kernel).  tests/data/silicon/b200_sxm_kernels (11 rows of B200
 * vLLM 0.24.0 prefill attention, fp8 KV, batch 1, 1 KV head, SOURCE.md):
 * 8 heads at prompts 1024, 2048, 4096 and head_dim 128, 192, 256, and 4
 * and 16 heads at prompt 2048, head_dim 192.  vLLM runs Triton's kernel at
 * head_dim 192 (kernel_source vllm_triton_attn) and FlashInfer's
 * TensorRT-LLM kernel at 128 and 256.  --holdout 6 holds the sixth node,
 * (streams 1, prompt 2048, group 8, head_dim 192), measured 0.2569 ms.  Its
 * brackets: prompt 1024..4096 (Triton: 0.0847, 0.8960 ms), group 4..16
 * (Triton: 0.1586, 0.4595 ms) and head_dim 128..256 (FlashInfer: 0.03738,
 * 0.03571 ms; its ratio is no step, RL_KT_STEP).  Two of three ran Triton,
 * so the head_dim bracket is left out: the hole is the mean in ln of the
 * two chords at their midpoints, each of width ln 4, (0.0847 x 0.8960 x
 * 0.1586 x 0.4595)^(1/4) = 0.27269 ms (+6.2%; by hand, 1e-9).  With the
 * head_dim bracket (weight 1 / ln 2, twice the others) it read 0.09962 ms
 * (-61%), which fails this. */
static void test_fill_reads_named_kernels(void **state)
{
    (void)state;
    rl_hw h = load_hw("b200", NULL, 0);
    rl_silicon s;
    char err[1024];
    if (rl_silicon_import(RL_SRCDIR "/tests/data/silicon/b200_sxm_kernels", "vllm", &h, 6, NULL,
                          &s, err, sizeof err) != 0)
        fail_msg("import: %s", err);
    assert_int_equal((int)s.nheld, 1);
    const rl_silicon_row *r = &s.held[0];
    assert_rel(r->x[0], 1, 0); /* streams */
    assert_rel(r->x[1], 2048, 0);
    assert_rel(r->x[2], 8, 0); /* group */
    assert_rel(r->x[3], 192, 0);
    assert_rel(r->measured_s, 0.2568693359692891e-3, 1e-12);
    rl_serving_engine e = {.tables = s.tables};
    rl_provenance p;
    double t = rl_engine_time(&e, RL_KC_PREFILL_ATTN, RL_KV_FP8, r->x, h.flops[RL_BF16], h.hbm_bw, &p);
    double want = pow(0.0846720039844513 * 0.895967960357666 * 0.1586133340994517 *
                          0.45953599611918133, 0.25) * 1e-3;
    assert_rel(t, want, 1e-9);
    assert_rel(t, 0.27269e-3, 1e-4);
    assert_int_equal(p, RL_PROV_INTERPOLATED);
    rl_silicon_free(&s);
}

static void save_excerpt(char *path);

static void test_saved_spec_and_mode(void **state)
{
    (void)state;
    char path[64], err[1024];
    save_excerpt(path);
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    rl_hw c = load_hw(path, NULL, 0);
    assert_int_equal(c.engines.n, 1);
    const rl_serving_engine *e = rl_engines_selected(&c.engines);
    assert_non_null(e);
    assert_string_equal(e->name, "trtllm");
    assert_string_equal(e->version, "1.3.0rc20");
    assert_string_equal(e->measured_on, "h100-sxm");
    assert_true(strstr(e->source, "AIConfigurator") != NULL);
    assert_rel(c.hbm_bw, h.hbm_bw, 0);
    /* the file names its base and holds only its engine: every other field
     * (price, collectives, ...) is the preset's */
    char *text = slurp_text(path);
    assert_non_null(strstr(text, "\n  base = \"h100-sxm\",\n"));
    assert_null(strstr(text, "price_per_chip_hour"));
    assert_null(strstr(text, "collectives"));
    free(text);
    assert_rel(c.price_per_chip_hour, h.price_per_chip_hour, 0);
    assert_int_equal(c.collectives.n, h.collectives.n);
    assert_string_equal(rl_hw_mode(&c, 1), "calibrated");
    assert_string_equal(rl_hw_mode(&c, 0), "ideal");
    /* the same tables on a profile of another chip (a spec naming this one
     * its base with that chip's figures) are borrowed: estimated; a spec
     * that only renames its base, like --set hw.name, renames the chip its
     * tables were measured on: still calibrated (tester #2; tester11 #3:
     * the derived rename read estimated with the same numbers) */
    char derived[64], text2[160];
    snprintf(text2, sizeof text2, "return { base = '%s', name = 'h100-pcie', hbm_bw = 2e12 }",
             path + 5);
    write_temp(derived, ".lua", text2);
    rl_hw b = load_hw(derived, NULL, 0);
    assert_string_equal(rl_hw_mode(&b, 1), "estimated");
    unlink(derived);
    snprintf(text2, sizeof text2, "return { base = '%s', name = 'h100-pcie' }", path + 5);
    write_temp(derived, ".lua", text2);
    b = load_hw(derived, NULL, 0);
    assert_string_equal(rl_hw_mode(&b, 1), "calibrated");
    unlink(derived);
    rl_override ov = {"name", "h100-pcie"};
    b = load_hw(path, &ov, 1);
    assert_string_equal(b.name, "h100-pcie");
    assert_string_equal(rl_hw_mode(&b, 1), "calibrated");
    /* --engine ideal: no engine */
    assert_int_equal(rl_engines_select(&c.engines, "ideal", path, err, sizeof err), 0);
    assert_null(rl_engines_selected(&c.engines));
    assert_int_equal(rl_engines_select(&c.engines, "vllm", path, err, sizeof err), -1);
    assert_true(strstr(err, "no engine 'vllm' (it has: ideal, trtllm)") != NULL);
    unlink(path);
}

/* s saved as calibrate saves it (base h100-sxm, engine trtllm) to a new
 * temporary file path[64]. */
static void save_temp(const rl_silicon *s, const rl_hw *h, char *path)
{
    char err[1024];
    write_temp(path, ".lua", "");
    assert_int_equal(rl_silicon_save(s, h, "h100-sxm", NULL, 0, "trtllm", "tests/data",
                                     "2026-12-01", NULL, path, err, sizeof err), 0);
}

/* A spec saved from the excerpt, at `path` (64 bytes). */
static void save_excerpt(char *path)
{
    rl_silicon s;
    import_excerpt(&s, 0);
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    save_temp(&s, &h, path);
    rl_silicon_free(&s);
}

/* One KV head or one sequence timed apart (engines.h RL_KX_ONE) on
 * tests/data/silicon/a100_sxm_one: 42 rows of vLLM's A100 decode attention
 * (bf16, head_dim 128, group 4; SOURCE.md), two configurations on each of
 * 21 nodes (streams 16, 32, 64 x context 2..128): streams x 1 KV head and
 * streams / 4 x 4.  The one-KV-head rows run a median 0.68x the others
 * (64 streams, context 128: 13.435 us against 19.861 us), under
 * RL_ONE_SPLIT (0.9) on more than RL_ONE_MIN_NODES (20) nodes: two
 * tables.  At that node, the largest streams and context, the fit
 * (isotonic median along streams, then context) keeps the one-KV-head row,
 * 0.013434667140245438 ms, the largest of its table; the other table's
 * context chain at 64 streams, 19.637 19.552 19.861 19.931 19.627 19.931
 * 19.861 us, pools (lower median, by hand) to 19.552 19.552 19.861 19.861
 * 19.861 19.861 19.861: 0.019861333072185516 ms.  Before (one table of
 * both) the node read their geometric mean, 16.33 us, for either.
 * Tolerance 1e-12 (rows through ln and exp).  The saved profile carries
 * it as decode_attention_one and reads the same back; every 5th node held
 * back holds back whole nodes, both configurations of 4 nodes. */
static void test_one_kv_head_apart(void **state)
{
    (void)state;
    rl_hw h = load_hw("a100-sxm-80g", NULL, 0);
    rl_silicon s;
    char err[1024], path[64];
    if (rl_silicon_import(RL_SRCDIR "/tests/data/silicon/a100_sxm_one", "vllm", &h, 0, NULL, &s,
                          err, sizeof err) != 0)
        fail_msg("import: %s", err);
    assert_non_null(s.tables->one[RL_KC_DECODE_ATTN][RL_KV_BF16]);
    assert_int_equal(s.configs[RL_KC_DECODE_ATTN][RL_KV_BF16], 42);
    double one[RL_KSHAPE] = {64, 128, 4, 128, 1}, other[RL_KSHAPE] = {64, 128, 4, 128, 0};
    rl_serving_engine e = {.tables = s.tables};
    rl_provenance p;
    double peak = h.flops[RL_BF16], bw = h.hbm_bw;
    assert_rel(rl_engine_time(&e, RL_KC_DECODE_ATTN, RL_KV_BF16, one, peak, bw, &p),
               0.013434667140245438e-3, 1e-12);
    assert_int_equal(p, RL_PROV_MEASURED);
    assert_rel(rl_engine_time(&e, RL_KC_DECODE_ATTN, RL_KV_BF16, other, peak, bw, &p),
               0.019861333072185516e-3, 1e-12);
    write_temp(path, ".lua", "");
    assert_int_equal(rl_silicon_save(&s, &h, "a100-sxm-80g", NULL, 0, "vllm", "tests/data",
                                     "2026-12-05", NULL, path, err, sizeof err), 0);
    rl_silicon_free(&s);
    char *text = slurp_text(path);
    assert_non_null(strstr(text, "decode_attention_one = {"));
    free(text);
    rl_hw back = load_hw(path, NULL, 0);
    const rl_serving_engine *b = rl_engines_selected(&back.engines);
    assert_non_null(b);
    assert_rel(rl_engine_time(b, RL_KC_DECODE_ATTN, RL_KV_BF16, one, peak, bw, &p),
               0.013434667140245438e-3, 5e-4); /* 4 significant digits: 13.43 us */
    assert_rel(rl_engine_time(b, RL_KC_DECODE_ATTN, RL_KV_BF16, other, peak, bw, &p),
               0.019861333072185516e-3, 5e-4);
    /* ops.c: a decode step of 64 sequences at context 128 on one chip, heads
     * of 128, group 4: one KV head reads the first table (64 streams), four
     * the second (256 streams: beyond the grid, extrapolated from its 64) */
    static const char *const MODEL[2] = {
        "return { name = 'one', layers = 1, d_model = 512, d_ff = 1024, heads = 4, "
        "kv_heads = 1, vocab = 1000, max_context = 8192 }",
        "return { name = 'four', layers = 1, d_model = 2048, d_ff = 1024, heads = 16, "
        "kv_heads = 4, vocab = 1000, max_context = 8192 }"};
    for (int k = 0; k < 2; k++) {
        char mp[64];
        write_temp(mp, ".lua", MODEL[k]);
        rl_model m = load_model(mp, NULL, 0);
        rl_ops_config c = rl_ops_mixed_config(1, rl_precision_default(), 0, 0, 64, 128);
        c.calibrated = 1;
        rl_ops o;
        assert_int_equal(rl_ops_build(&m, &back, &c, &o, err, sizeof err), 0);
        int seen = 0;
        double attn = 0;
        for (int i = 0; i < o.n; i++)
            if (o.op[i].kind == RL_OP_ATTENTION) {
                attn += o.op[i].t.time_s;
                if (o.op[i].kshape[0] > 0) {
                    assert_true(o.op[i].kshape[RL_KX_ONE] == (k == 0));
                    assert_true(o.op[i].kshape[0] == (k == 0 ? 64 : 256));
                    seen++;
                }
            }
        assert_true(seen > 0);
        if (k == 0) /* qk + softmax + pv: the one-KV-head row 64,1,4,1,128,...,127 */
            assert_rel(attn, 0.013434667140245438e-3, 5e-4);
        unlink(mp);
    }
    unlink(path);
    if (rl_silicon_import(RL_SRCDIR "/tests/data/silicon/a100_sxm_one", "vllm", &h, 5, NULL, &s,
                          err, sizeof err) != 0)
        fail_msg("import: %s", err);
    assert_int_equal(s.nheld, 8);
    rl_silicon_free(&s);
}

/* The split shown at one prompt length only (silicon.c one_split, stop
 * 44) on tests/data/silicon/a100_sxm_one_prefill: 82 rows of vLLM's A100
 * prefill attention (bf16, head_dim 128; SOURCE.md), one configuration of
 * one KV head or one sequence and one of another split on each of 20
 * nodes (streams 8-64 x group 2-32) at one-token prompts and 21 at isl 16
 * (the same and streams 128, group 2).  At isl 1 the one-KV-head rows run
 * 0.65-0.71x the others (median under RL_ONE_SPLIT, 0.9, on
 * RL_ONE_MIN_NODES = 20 nodes), at isl 16 0.99-1.08x: over all 41 nodes
 * the median ratio is the least isl-16 one, 0.99, which the rule before
 * stop 44 read as no split (one table; this test then fails).  At
 * streams 64, isl 1, group 8 the one-sequence row (64 x 1 KV head)
 * measures 0.013349333157142004 ms, the 8 x 8 row 0.019802667200565338
 * ms; each is the least of its table's chains through the node along
 * streams (12.58, 12.87, 12.93, 13.35 and 18.13, 18.34, 19.34, 19.80 us
 * at 8-64 streams) and isl (27.32 and 25.66 us at isl 16), so the fit
 * keeps both: each reads as measured (one table: both their geometric
 * mean, 16.26 us).  Tolerance 1e-12 (rows through ln and exp). */
static void test_one_split_at_one_prompt_length(void **state)
{
    (void)state;
    rl_hw h = load_hw("a100-sxm-80g", NULL, 0);
    rl_silicon s;
    char err[1024];
    if (rl_silicon_import(RL_SRCDIR "/tests/data/silicon/a100_sxm_one_prefill", "vllm", &h, 0,
                          NULL, &s, err, sizeof err) != 0)
        fail_msg("import: %s", err);
    assert_int_equal(s.configs[RL_KC_PREFILL_ATTN][RL_KV_BF16], 82);
    assert_non_null(s.tables->one[RL_KC_PREFILL_ATTN][RL_KV_BF16]);
    double one[RL_KSHAPE] = {64, 1, 8, 128, 1}, other[RL_KSHAPE] = {64, 1, 8, 128, 0};
    rl_serving_engine e = {.tables = s.tables};
    rl_provenance p;
    double peak = h.flops[RL_BF16], bw = h.hbm_bw;
    assert_rel(rl_engine_time(&e, RL_KC_PREFILL_ATTN, RL_KV_BF16, one, peak, bw, &p),
               0.013349333157142004e-3, 1e-12);
    assert_int_equal(p, RL_PROV_MEASURED);
    assert_rel(rl_engine_time(&e, RL_KC_PREFILL_ATTN, RL_KV_BF16, other, peak, bw, &p),
               0.019802667200565338e-3, 1e-12);
    assert_int_equal(p, RL_PROV_MEASURED);
    rl_silicon_free(&s);
}

/* A model whose decode shapes fall on the excerpt's grid nodes: D = N H =
 * 4096 (32 heads of 128, 8 KV heads), F = 1024. */
static const char *GRID_MODEL = "return { name = 'grid', layers = 2, d_model = 4096, d_ff = 1024, "
                                "heads = 32, kv_heads = 8, vocab = 1000, max_context = 8192 }";

/* The excerpt's spec and GRID_MODEL saved at hw and mp (64 bytes each),
 * loaded into *h and *m, and their calibrated decode step at batch 1,
 * context 1024 and precision p built into *o (*c its configuration). */
static void grid_step(rl_precision p, char *hw, char *mp, rl_hw *h, rl_model *m,
                      rl_ops_config *c, rl_ops *o)
{
    save_excerpt(hw);
    write_temp(mp, ".lua", GRID_MODEL);
    *h = load_hw(hw, NULL, 0);
    *m = load_model(mp, NULL, 0);
    *c = rl_ops_mixed_config(1, p, 0, 0, 1, 1024);
    c->calibrated = 1;
    char err[256];
    assert_int_equal(rl_ops_build(m, h, c, o, err, sizeof err), 0);
}

static void test_ops_timed_by_tables(void **state)
{
    (void)state;
    char hw[64], mp[64], err[256];
    rl_hw h;
    rl_model m;
    rl_ops_config c;
    rl_ops o;
    grid_step(rl_precision_default(), hw, mp, &h, &m, &c, &o);
    double attn = 0, qkv = 0, gate_up = 0;
    for (int i = 0; i < o.n; i++) {
        const rl_op *op = &o.op[i];
        if (!strcmp(op->name, "q_proj") || !strcmp(op->name, "k_proj") ||
            !strcmp(op->name, "v_proj")) {
            qkv += op->t.time_s;
            assert_int_equal(op->prov, RL_PROV_MEASURED);
        }
        if (!strcmp(op->name, "mlp_gate") || !strcmp(op->name, "mlp_up"))
            gate_up += op->t.time_s;
        if (!strcmp(op->name, "mlp_down")) { /* node (1, 4096, 1024): the row 2,4096,1024,
                                                0.005770666897296906 ms (rows m = 1, 2, 4, 8
                                                6.0235, 5.7707, 5.9627, 5.7419 us pooled to
                                                their lower median by the isotonic fit) */
            assert_rel(op->t.time_s, 0.005770666897296906e-3, 5e-4);
        }
        if (!strcmp(op->name, "lm_head")) /* n = 1000 is below the grid's 1024 */
            assert_int_equal(op->prov, RL_PROV_EXTRAPOLATED);
        if (!strcmp(op->name, "attn_norm"))
            assert_int_equal(op->prov, RL_PROV_ROOFLINE);
        if (op->kind == RL_OP_ATTENTION) {
            attn += op->t.time_s;
            assert_int_equal(op->prov, RL_PROV_MEASURED);
        }
    }
    /* q + k + v: one fused GEMM of n = (32 + 2 x 8) x 128 = 6144 at m = 1, the
     * row 2,6144,4096: 0.021858667333920796 ms (m = 1 and 2 measured 22.101 and
     * 21.859 us: falling, pooled to the lower, ktable.h); gate + up: n = 2 x
     * 1024, the row 1,2048,4096: 0.010268000264962515 ms (it stands: m = 2-16
     * are 10.50, 10.39, 10.31, 10.27 us, pooled to 10.31, above it) (ops.c
     * fuse; without it q_proj alone read the 1,4096,4096 row, 0.01656 ms, and
     * the sum was 0.0286 ms) */
    assert_rel(qkv, 0.021858667333920796e-3, 5e-4);
    assert_rel(gate_up, 0.010268000264962515e-3, 5e-4);
    /* qk + softmax + pv = the decode row 1,1,32,8,128,...,1023: 0.012618667135636011 ms
     * (streams 1 x 8, context 1024, group 4) */
    assert_rel(attn, 0.012618667135636011e-3, 5e-4);
    assert_true(o.prov[RL_PROV_MEASURED] > 0);
    assert_string_equal(rl_hw_mode(&h, 1), "calibrated");
    /* ideal: nothing from the tables */
    c.calibrated = 0;
    assert_int_equal(rl_ops_build(&m, &h, &c, &o, err, sizeof err), 0);
    assert_int_equal(o.prov[RL_PROV_ROOFLINE], o.n);
    unlink(hw);
    unlink(mp);
}

/* Tester 3 finding 2: under TP a row-parallel matmul (o_proj, mlp_down:
 * input split, output whole, then AllReduced; Megatron-LM, Shoeybi et al.
 * 2019) reads the table at (m, n = dout, k = din / tp), a column-parallel
 * one at (m, n = dout / tp, k = din).  GRID_MODEL at tp 4, batch 1:
 *   o_proj  (1, 4096, 4096 / 4): the fitted node, the row 2,4096,1024:
 *           0.005770666897296906 ms (test_ops_timed_by_tables)
 *   q + k + v, one fused column-parallel GEMM (ops.c fuse), n = (32 + 2 x 8)
 *   x 128 / 4 = 1536: the row 1,1536,4096: 0.009005866448084513 ms (the three
 *   times sum to it)
 * both exact grid points: provenance measured, to 5e-4 (float rows). */
static void test_row_parallel_shape(void **state)
{
    (void)state;
    char hw[64], mp[64], err[256];
    rl_hw h;
    rl_model m;
    rl_ops_config c;
    rl_ops o;
    grid_step(rl_precision_default(), hw, mp, &h, &m, &c, &o);
    c.chips = c.tp = 4;
    assert_int_equal(rl_ops_build(&m, &h, &c, &o, err, sizeof err), 0);
    int seen = 0;
    double qkv = 0;
    for (int i = 0; i < o.n; i++) {
        const rl_op *op = &o.op[i];
        if (!strcmp(op->name, "o_proj")) {
            assert_rel(op->t.time_s, 0.005770666897296906e-3, 5e-4);
            assert_int_equal(op->prov, RL_PROV_MEASURED);
            seen++;
        }
        if (!strcmp(op->name, "q_proj") || !strcmp(op->name, "k_proj") ||
            !strcmp(op->name, "v_proj")) {
            qkv += op->t.time_s;
            assert_int_equal(op->prov, RL_PROV_MEASURED);
            seen++;
        }
    }
    assert_int_equal(seen, 4);
    assert_rel(qkv, 0.009005866448084513e-3, 5e-4);
    unlink(hw);
    unlink(mp);
}

/* Decode attention with fewer KV heads than chips under --kv-split batch or
 * seq (ops.h kv_split): each of the z = 16 / 8 = 2 chips that share a KV
 * head runs all N / K = 4 query heads of it (shard.c's Q AllToAll or
 * AllGather brings them) on its share of the cache, not its N / chips = 2
 * (it looked up half the query heads the chip computes).  GRID_MODEL on 16
 * chips:
 *   batch: 15 sequences at 4096, ceil(15 / 2) = 8 a chip, 1 KV head each;
 *   seq: 8 sequences at 8192, 8192 / 2 = 4096 keys a chip;
 * both the decode row 1,1,32,8,128,...,4095 of the excerpt (streams 1 x 8,
 * context 4096, group 32 / 8): 0.015184000134468079 ms (qk + softmax + pv,
 * provenance measured), to 5e-4 (float rows).  Replicate keeps the chip's
 * 2 query heads on all 15 sequences (group 2, off the excerpt's grid). */
static void test_kv_split_runs_the_head_group(void **state)
{
    (void)state;
    char hw[64], mp[64], err[256];
    rl_hw h;
    rl_model m;
    rl_ops_config c;
    rl_ops o;
    grid_step(rl_precision_default(), hw, mp, &h, &m, &c, &o);
    c.chips = c.tp = 16;
    const rl_kv_split split[3] = {RL_KV_BATCH, RL_KV_SEQ, RL_KV_REPLICATE};
    const long long batch[3] = {15, 8, 15}, context[3] = {4096, 8192, 4096};
    const double group[3] = {4, 4, 2};
    for (int k = 0; k < 3; k++) {
        c.kv_split = split[k];
        c.decode_batch = batch[k];
        c.decode_context = context[k];
        assert_int_equal(rl_ops_build(&m, &h, &c, &o, err, sizeof err), 0);
        double attn = 0;
        for (int i = 0; i < o.n; i++) {
            const rl_op *op = &o.op[i];
            if (op->kind != RL_OP_ATTENTION)
                continue;
            attn += op->t.time_s;
            if (!strcmp(op->name, "qk"))
                assert_rel(op->kshape[2], group[k], 1e-12);
            if (k < 2)
                assert_int_equal(op->prov, RL_PROV_MEASURED);
        }
        if (k < 2)
            assert_rel(attn, 0.015184000134468079e-3, 5e-4);
    }
    unlink(hw);
    unlink(mp);
}

/* Tester 2 finding 1: an operator whose dtype has no table of its class
 * takes the efficiency of the nearest tabled variant at its shape
 * (engines.h DERIVED).  The excerpt has bfloat16 tables only, so int8
 * weights (int8_wo) and an int8 KV cache are derived from them:
 *   q_proj, in the fused q/k/v GEMM at m = 1, n = 6144, k = 4096 (ops.c fuse):
 *   the bf16 node's time, the row 2,6144,4096 0.021858667333920796 ms (m = 1
 *   and 2 pooled by the isotonic fit, test_ops_timed_by_tables), over its
 *   ideal, bf16 bytes
 *   (4096 + 6144) x 2 + 4096 x 6144 x 2 = 50352128 at 3.35e12 B/s
 *   (memory-bound), times q_proj's own roofline, int8 bytes 4096^2 + 2 x 4096
 *   (per-channel bf16 scales, dtype.h) + 2 x 4096 x 2 activations = 16801792,
 *   so 0.021858667333920796e-3 x 16801792 / 50352128 = 7.29393e-6 s, to 5e-4
 *   (the table holds the row at float precision).
 * The LM head stays bf16 under int8 weights (dtype.h rl_dtype_kept: int8
 * checkpoints keep it so), timed by the bf16 table: the one op not
 * derived (before: derived like the rest).  Less than half the step's time
 * from tables at the run's dtypes: mode estimated. */
static void test_derived_dtype(void **state)
{
    (void)state;
    char hw[64], mp[64];
    rl_hw h;
    rl_model m;
    rl_ops_config c;
    rl_ops o;
    grid_step((rl_precision){RL_INT8, RL_INT8, RL_BF16}, hw, mp, &h, &m, &c, &o);
    for (int i = 0; i < o.n; i++) {
        const rl_op *op = &o.op[i];
        if (!strcmp(op->name, "q_proj"))
            assert_rel(op->t.time_s, 0.021858667333920796e-3 * 16801792.0 / 50352128.0, 5e-4);
        if (!strcmp(op->name, "lm_head"))
            assert_int_not_equal(op->prov, RL_PROV_DERIVED);
        else if (op->kclass >= 0 || op->kind == RL_OP_ATTENTION) /* the table-timed ops */
            assert_int_equal(op->prov, RL_PROV_DERIVED);
    }
    assert_int_equal(o.prov[RL_PROV_MEASURED] + o.prov[RL_PROV_INTERPOLATED] +
                         o.prov[RL_PROV_EXTRAPOLATED],
                     1);
    /* the LM head alone timed by a table at its dtype (spec.h rl_run_mode) */
    assert_true(rl_ops_table_share(&o) < 0.5);
    assert_string_equal(rl_run_mode(rl_hw_mode(&h, 1), &h, rl_ops_table_share(&o), NULL), "estimated");
    /* the rule's edge: half of the step's time from tables keeps calibrated,
     * less reads estimated; unknown (< 0) keeps the base; ideal stays ideal */
    assert_string_equal(rl_run_mode(rl_hw_mode(&h, 1), &h, 0.5, NULL), "calibrated");
    assert_string_equal(rl_run_mode(rl_hw_mode(&h, 1), &h, 0.4999, NULL), "estimated");
    assert_string_equal(rl_run_mode(rl_hw_mode(&h, 1), &h, -1.0, NULL), "calibrated");
    assert_string_equal(rl_run_mode(rl_hw_mode(&h, 0), &h, 0.0, NULL), "ideal");
    unlink(hw);
    unlink(mp);
}

/* The reference variant of a derived time (engines.h DERIVED), on an engine
 * with bfloat16 and fp8 tables of every class: int8 weights with bf16
 * compute take fp8 (1-byte weights) when memory-bound, bfloat16 (bf16
 * math) when compute-bound; fp4 weights fp8 either way when memory-bound;
 * int8 and fp4 KV fp8 (nearest KV bytes); no table of the class: -1. */
static void test_derived_reference(void **state)
{
    (void)state;
    static const rl_ktable dummy;
    rl_engine_tables t = {0};
    for (int c = 0; c < RL_KC_COUNT; c++)
        t.t[c][RL_KV_BF16] = t.t[c][RL_KV_FP8] = &dummy;
    rl_serving_engine e = {0};
    e.tables = &t;
    assert_int_equal(rl_engine_nearest_variant(&e, RL_KC_GEMM, 1, 2, 0), RL_KV_FP8);
    assert_int_equal(rl_engine_nearest_variant(&e, RL_KC_GEMM, 1, 2, 1), RL_KV_BF16);
    assert_int_equal(rl_engine_nearest_variant(&e, RL_KC_GEMM, 0.5, 2, 0), RL_KV_FP8);
    assert_int_equal(rl_engine_nearest_variant(&e, RL_KC_DECODE_ATTN, 1, 2, 0), RL_KV_FP8);
    assert_int_equal(rl_engine_nearest_variant(&e, RL_KC_PREFILL_ATTN, 0.5, 2, 1), RL_KV_FP8);
    t.t[RL_KC_GEMM][RL_KV_BF16] = t.t[RL_KC_GEMM][RL_KV_FP8] = NULL;
    assert_int_equal(rl_engine_nearest_variant(&e, RL_KC_GEMM, 1, 2, 0), -1);
}

/* Residual bands: calibrate --tables' residuals are the quantiles, as
 * bounds at rank p (n + 1) (fit.h rl_fit_bound, type 6), of log(measured /
 * table time) over the held-back configurations (here
 * every 2nd: 25 GEMMs); the saved spec carries them; an op list timed by
 * the tables moves each table-timed op to its class's quantile, widened
 * (1 + octaves outside the grid): lm_head's n = 1000 lies log2(1024/1000)
 * octaves below the grid's 1024, its time moves slightly less there
 * (below); each op's band holds its time (a low
 * quantile above 0, or a high one below, counts as 0: rl_kresidual_band;
 * the excerpt's 2 decode-attention residuals are both negative). */
static void test_residual_band(void **state)
{
    (void)state;
    rl_silicon s;
    import_excerpt(&s, 2);
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    char err[1024], path[64], mp[64];
    assert_int_equal(rl_silicon_residuals(&s, &s, &h, 2, err, sizeof err), 0);
    assert_int_equal(s.resid[RL_KC_GEMM].n, 25);
    assert_int_equal(s.resid[RL_KC_PREFILL_ATTN].n, 2);
    assert_int_equal(s.resid[RL_KC_DECODE_ATTN].n, 2);
    double r[32];
    int n = 0;
    for (size_t i = 0; i < s.nheld; i++)
        if (s.held[i].cls == RL_KC_GEMM) {
            rl_kideal_ctx k = {RL_KC_GEMM, RL_KV_BF16, h.flops[RL_BF16], h.hbm_bw, {0}, 0};
            r[n++] = log(s.held[i].measured_s /
                         rl_kt_time(s.tables->t[RL_KC_GEMM][RL_KV_BF16], s.held[i].x, rl_kideal,
                                    &k, NULL));
        }
    qsort(r, (size_t)n, sizeof *r, rl_cmp_double);
    /* rank (n + 1) p = 2.6 for p10, 0-based position 1.6 -> r[1] + 0.6 (r[2] -
     * r[1]); 23.4 for p90 -> r[22] + 0.4 (r[23] - r[22]) (type 7 read 2.4 and
     * 21.6) */
    assert_int_equal(n, 25);
    assert_rel(s.resid[RL_KC_GEMM].q[1], r[1] + 0.6 * (r[2] - r[1]), 1e-9);
    assert_rel(s.resid[RL_KC_GEMM].q[2], r[22] + 0.4 * (r[23] - r[22]), 1e-9);
    save_temp(&s, &h, path);
    rl_hw c = load_hw(path, NULL, 0);
    const rl_serving_engine *e = rl_engines_selected(&c.engines);
    assert_int_equal(e->resid_holdout, 2);
    for (int k = 0; k < RL_KC_COUNT; k++)
        for (int q = 0; q < 4; q++)
            assert_rel(e->resid[k].q[q], s.resid[k].q[q], 1e-5); /* written at %.6g */
    write_temp(mp, ".lua", GRID_MODEL);
    rl_model m = load_model(mp, NULL, 0);
    rl_ops_config cfg = rl_ops_mixed_config(1, rl_precision_default(), 0, 0, 1, 1024);
    cfg.calibrated = 1;
    rl_ops o;
    assert_int_equal(rl_ops_build(&m, &c, &cfg, &o, err, sizeof err), 0);
    assert_true(o.banded);
    double lo = o.step_s, hi = o.step_s;
    for (int i = 0; i < o.n; i++) {
        const rl_op *op = &o.op[i];
        if (op->prov == RL_PROV_ROOFLINE) {
            /* no table times it (a norm): its band is the tables' data
             * (ops.c roofline_band, docs/model.md "Bands of unmeasured
             * operators", stop 42): low 0, the roofline a floor; its
             * roofline under 1 us, the high edge the roofline plus the
             * tables' p90 excess there, 18.9023 us (before: 0) */
            double roof = fmax(op->t.compute_s, op->t.memory_s);
            assert_true(roof > 0 && roof < 1e-6);
            hi += op->layers * fmax(roof + 18.9023e-6 - op->t.time_s, 0);
            continue;
        }
        const rl_kresidual *res = &e->resid[op->kind == RL_OP_ATTENTION ? RL_KC_DECODE_ATTN
                                                                         : RL_KC_GEMM];
        /* lm_head (m 1, n 1000, k 4096) below the grid's n = 1024 widens by
         * no more than its time moves there (stop 23, ops.c moved_below):
         * the table holds the edge's efficiency, so the move is the
         * roofline's, memory-bound bf16 bytes 2 (mk + mn + kn): log2(4199424
         * / 4101096) = 0.03418 of the input's log2(1024 / 1000) = 0.03422 */
        double w = strcmp(op->name, "lm_head") == 0 ? 1 + log2(4199424.0 / 4101096.0) : 1;
        lo += op->layers * op->t.time_s * expm1(fmin(res->q[1] * w, 0)); /* holds its estimate */
        hi += op->layers * op->t.time_s * expm1(fmax(res->q[2] * w, 0));
    }
    assert_rel(o.band_s[1], lo, 1e-12);
    assert_rel(o.band_s[2], hi, 1e-12);
    assert_true(o.band_s[0] <= o.band_s[1] && o.band_s[1] < o.step_s && o.step_s < o.band_s[2]);
    unlink(path);
    unlink(mp);
    rl_silicon_free(&s);
}

/* The kernel-table band's widening above the grid (engines.h
 * rl_kresidual_band), by hand: p10 -0.1, p90 0.05, p5 -0.2, p95 0.1.
 * Untuned: q (1 + d), 2 octaves above along axis 1: -0.3, 0.15.  Axis 1
 * tuned w 0.2 (p5-p95 0.3), seen up to 3 octaves: p10 -0.1 - 0.4 = -0.5,
 * p90 0.45, p5 -0.8; axis 0 untuned beside it, 1 octave above: the rule,
 * p90 0.45 + 0.05 = 0.5.  At 20 above along axis 1, beyond what was seen:
 * -0.1 - 4 = -4.1 is below the rule's -0.1 x 20 = -2 beyond p10, so it
 * stays; with w 0 the rule floors it at -2.1.  du octaves (below the grid)
 * take the rule on top: p90 0.05 + 0.2 (1 above along axis 1) + 0.05 x 2
 * = 0.35.  A tuned widening survives calibrate's save and the reader
 * (%.6g: 1e-5), and the excerpt's nested hold-outs of each axis's largest
 * value tune GEMM's m axis to a widening >= 0 whose p5-p95 one is at least
 * its p10-p90 one; n and k, of which the excerpt measures one or two
 * values, stay untuned where the rest keeps one. */
static void test_table_band_widening(void **state)
{
    (void)state;
    rl_kresidual r = {.n = 10, .q = {-0.2, -0.1, 0.05, 0.1}};
    double two[RL_KRESIDUAL_AXES] = {0, 2, 0, 0}, mix[RL_KRESIDUAL_AXES] = {1, 2, 0, 0};
    double far[RL_KRESIDUAL_AXES] = {0, 20, 0, 0}, one[RL_KRESIDUAL_AXES] = {0, 1, 0, 0};
    assert_rel(rl_kresidual_band(&r, 1, two, 0), -0.3, 1e-12);
    assert_rel(rl_kresidual_band(&r, 2, two, 0), 0.15, 1e-12);
    r.wn[1] = 10;
    r.w[1][0] = 0.2;
    r.w[1][1] = 0.3;
    r.seen[1] = 3;
    assert_rel(rl_kresidual_band(&r, 1, two, 0), -0.5, 1e-12);
    assert_rel(rl_kresidual_band(&r, 2, two, 0), 0.45, 1e-12);
    assert_rel(rl_kresidual_band(&r, 0, two, 0), -0.8, 1e-12);
    assert_rel(rl_kresidual_band(&r, 2, mix, 0), 0.5, 1e-12);
    assert_rel(rl_kresidual_band(&r, 1, NULL, 0), -0.1, 1e-12);
    assert_rel(rl_kresidual_band(&r, 1, far, 0), -4.1, 1e-12);
    assert_rel(rl_kresidual_band(&r, 2, one, 2), 0.35, 1e-12);
    r.w[1][0] = 0;
    assert_rel(rl_kresidual_band(&r, 1, far, 0), -2.1, 1e-12);
    rl_silicon s;
    import_excerpt(&s, 2);
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    char err[1024], path[64];
    assert_int_equal(rl_silicon_residuals(&s, &s, &h, 2, err, sizeof err), 0);
    assert_int_equal(rl_silicon_widening(EXCERPT, "trtllm", &h, NULL, s.resid, err, sizeof err),
                     0);
    const rl_kresidual *g = &s.resid[RL_KC_GEMM];
    assert_true(g->wn[0] >= RL_KRESIDUAL_MIN_EDGE && g->seen[0] > 0);
    assert_true(g->w[0][0] >= 0 && g->w[0][1] >= g->w[0][0]);
    save_temp(&s, &h, path);
    rl_hw c = load_hw(path, NULL, 0);
    const rl_kresidual *back = &rl_engines_selected(&c.engines)->resid[RL_KC_GEMM];
    for (int a = 0; a < RL_KRESIDUAL_AXES; a++) {
        assert_int_equal(back->wn[a], g->wn[a]);
        for (int i = 0; i < 2 && g->wn[a]; i++)
            assert_rel(back->w[a][i], g->w[a][i], 1e-5);
        if (g->wn[a])
            assert_rel(back->seen[a], g->seen[a], 1e-5);
    }
    unlink(path);
    rl_silicon_free(&s);
}

/* Lua: engine= selects the engine (step, ops), through a pushed hw table
 * too; without one ops uses the preset's default engine (calibrated). */
static void test_lua_engine(void **state)
{
    (void)state;
    char path[64], cmd[512], out[512] = "";
    write_temp(path, ".lua",
               "local h = roofline.hw('h100-sxm', {price_per_chip_hour = 1})\n"
               "local s = roofline.step{model='llama3-8b', hw='h100-sxm', context=4096, engine='vllm'}\n"
               "local o = roofline.ops{model='llama3-8b', hw=h, context=4096, engine='vllm'}\n"
               "local i = roofline.ops{model='llama3-8b', hw=h, context=4096}\n"
               "print(s.engine, s.mode, o.engine, o.mode, i.mode, o.step_s == s.rows[1].step_s)\n");
    snprintf(cmd, sizeof cmd, "ROOFLINE_DATA=%s %s run %s", RL_SRCDIR, RL_BIN, path);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = 0;
    assert_int_equal(pclose(p), 0);
    unlink(path);
    if (!strstr(out, "vllm\tcalibrated\tvllm\tcalibrated\tcalibrated\ttrue"))
        fail_msg("unexpected: %s", out);
}

/* tester44 F1: a table in the wrong unit (every latency / 10) is refused
 * once more than RL_SILICON_MAX_BELOW (15%) of a variant's rows (20 or
 * more) are below the chip's roofline, MoE rows too (they were not
 * floored).  GEMM: 1 x 4096 x 4096 bf16 reads 33.6 MB, 0.01002 ms at
 * h100-sxm's 3.35e12 B/s (m up to 20 adds < 0.3%); MoE at Mixtral 8x7B's
 * shape (4096, 14336, top-2 of 8), tp = ep = 1: one expert's weights,
 * 3 x 4096 x 14336 x 2 B / 3.35e12 = 0.105 ms (FLOPs at 20 tokens 0.014 ms).
 * Rows at 0.3 ms stand, rows at 0.001 ms fall below: 3 of 20 (15%) import,
 * 4 of 20 (20%) are refused.  Then the MoE excerpt tests/data/silicon/
 * h100_sxm/vllm (AIConfigurator; SOURCE.md) divided by 10: 14 of its 15
 * power-law bf16 rows fall below (floor 0.105 ms, half at tp or ep 2,
 * against 0.014-0.096 ms; the tp 2 row of 8 tokens, 0.057 ms, stands): left
 * out, and too few rows to judge the share by (RL_SILICON_MIN_SHARE_ROWS). */
static void test_tables_wrong_units(void **state)
{
    (void)state;
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    static const char *HG = "op_name,kernel_source,gemm_dtype,m,n,k,latency",
                      *HM = "op_name,kernel_source,moe_dtype,num_tokens,hidden_size,inter_size,"
                            "topk,num_experts,moe_tp_size,moe_ep_size,distribution,latency";
    for (int moe = 0; moe <= 1; moe++)
        for (int nbelow = 3; nbelow <= 4; nbelow++) {
            char body[4096] = "", dir[64], err[1024] = "", want[160];
            size_t at = 0;
            for (int m = 1; m <= 20; m++) {
                const char *t = m > 20 - nbelow ? "0.001" : "0.3";
                at += (size_t)(moe ? snprintf(body + at, sizeof body - at,
                                              "moe,t,bfloat16,%d,4096,14336,2,8,1,1,"
                                              "power_law_1.01,%s\n", m, t)
                                   : snprintf(body + at, sizeof body - at,
                                              "gemm,t,bfloat16,%d,4096,4096,%s\n", m, t));
            }
            const char *file = moe ? "moe_perf.csv.gz" : "gemm_perf.csv.gz";
            table_dir(dir, file, moe ? HM : HG, body);
            if (moe) { /* a MoE file alone: the gemm one beside it, as measured */
                char cmd[512];
                snprintf(cmd, sizeof cmd, "cp %s/trtllm/gemm_perf.csv.gz %s/trtllm/", EXCERPT, dir);
                assert_int_equal(system(cmd), 0);
            }
            rl_silicon s;
            int rc = rl_silicon_import(dir, "trtllm", &h, 0, NULL, &s, err, sizeof err);
            if (nbelow == 3) {
                if (rc != 0)
                    fail_msg("%s, 3 of 20 below: %s", file, err);
                assert_int_equal(s.below[moe ? RL_KC_MOE : RL_KC_GEMM][RL_KV_BF16], 3);
                rl_silicon_free(&s);
            } else {
                assert_int_equal(rc, -1);
                snprintf(want, sizeof want, "%s: 4 of 20 bfloat16 rows (20%%) are faster than "
                         "h100-sxm's roofline", file);
                if (!strstr(err, want))
                    fail_msg("%s, 4 of 20 below: '%s'", file, err);
                assert_calibrate_refused(dir);
            }
            assert_int_equal(remove_tree(dir), 0);
        }
    /* the MoE excerpt scaled by 1/10 */
    gzFile in = gzopen(RL_SRCDIR "/tests/data/silicon/h100_sxm/vllm/moe_perf.csv.gz", "rb");
    assert_non_null(in);
    char line[512], hdr[512] = "", body[8192] = "";
    size_t at = 0;
    while (gzgets(in, line, sizeof line)) {
        if (line[0] == '#')
            continue;
        line[strcspn(line, "\r\n")] = 0;
        if (!hdr[0]) {
            snprintf(hdr, sizeof hdr, "%s", line);
            continue;
        }
        char *comma = strrchr(line, ',');
        assert_non_null(comma);
        *comma = 0;
        at += (size_t)snprintf(body + at, sizeof body - at, "%s,%.9g\n", line,
                               strtod(comma + 1, NULL) / 10);
        assert_true(at < sizeof body);
    }
    gzclose(in);
    char dir[64], err[1024] = "", cmd[512];
    table_dir(dir, "moe_perf.csv.gz", hdr, body);
    snprintf(cmd, sizeof cmd, "cp %s/trtllm/gemm_perf.csv.gz %s/trtllm/", EXCERPT, dir);
    assert_int_equal(system(cmd), 0);
    rl_silicon s;
    if (rl_silicon_import(dir, "trtllm", &h, 0, NULL, &s, err, sizeof err) != 0)
        fail_msg("moe / 10: %s", err);
    assert_int_equal(s.below[RL_KC_MOE][RL_KV_BF16], 14);
    rl_silicon_free(&s);
    assert_int_equal(remove_tree(dir), 0);
}

/* tester44 F5: a GEMM fp8_block row is one more kernel of the fp8
 * configuration of its shape, the faster kept (engines.h DTYPE_MAP).  Rows
 * from b200_sxm/trtllm/gemm_perf.csv.gz (AIConfigurator, Apache-2.0),
 * n = k = 4096: m = 1 and 4 timed by both, torch_flow fp8 0.019725 and
 * 0.018757 ms, deepgemm fp8_block 0.0093376 and 0.0095904 ms; m = 8 by the
 * per-tensor row alone here (0.018580 ms).  The fp8 table's nodes read the
 * block rows at m = 1, 4 and the per-tensor one at 8 (to 1e-9: a measured
 * node is its row). */
static void test_gemm_fp8_block_joins_fp8(void **state)
{
    (void)state;
    static const char *H = "op_name,kernel_source,gemm_dtype,m,n,k,latency";
    char dir[64], err[1024] = "";
    table_dir(dir, "gemm_perf.csv.gz", H,
              "gemm,torch_flow,fp8,1,4096,4096,0.01972480018933614\n"
              "gemm,deepgemm,fp8_block,1,4096,4096,0.009337600072224934\n"
              "gemm,torch_flow,fp8,4,4096,4096,0.018757333358128868\n"
              "gemm,deepgemm,fp8_block,4,4096,4096,0.009590400258700053\n"
              "gemm,torch_flow,fp8,8,4096,4096,0.018580265839894614\n"
              "gemm,torch_flow,bfloat16,1,4096,4096,0.00991066669424375\n");
    rl_hw h = load_hw("b200", NULL, 0);
    rl_silicon s;
    if (rl_silicon_import(dir, "trtllm", &h, 0, NULL, &s, err, sizeof err) != 0)
        fail_msg("import: %s", err);
    assert_int_equal(s.configs[RL_KC_GEMM][RL_KV_FP8], 3);
    assert_false(rl_engine_has(s.tables, RL_KC_GEMM, RL_KV_FP8_BLOCK));
    static const double m[3] = {1, 4, 8},
                        want[3] = {0.009337600072224934e-3, 0.009590400258700053e-3,
                                   0.018580265839894614e-3};
    for (int i = 0; i < 3; i++) {
        double x[RL_KSHAPE] = {m[i], 4096, 4096};
        assert_rel(rl_kt_time(s.tables->t[RL_KC_GEMM][RL_KV_FP8], x, NULL, NULL, NULL), want[i],
                   1e-9);
    }
    rl_silicon_free(&s);
    assert_int_equal(remove_tree(dir), 0);
}

static void test_bad_tables(void **state)
{
    (void)state;
    static const char *H = "op_name,kernel_source,gemm_dtype,m,n,k,latency";
    static const struct {
        const char *header, *body, *want;
    } cases[] = {
        {"op_name,kernel_source,gemm_dtype,n,k,latency", "gemm,t,bfloat16,1,1,1\n",
         "gemm_perf.csv.gz: line 2: missing column 'm'"},
        {NULL, "gemm,t,fp9,1,2,3,0.01\n",
         /* the list is silicon.c's KNOWN_DTYPES, MX variants included (review-a
          * finding 6: the message listed the first nine only) */
         "line 3, column 3 (gemm_dtype): unknown dtype 'fp9' (known: bfloat16, float16, fp8, "
         "fp8_block, int8_wo, int4_wo, sq, nvfp4, float32, w4a8_mxfp4_mxfp8, w4a16_mxfp4)"},
        {NULL, "gemm,t,bfloat16,1,2,3,0.01\ngemm,t,bfloat16,2,2,3,0\n",
         "line 4, column 7 (latency): expected a positive finite number, got '0'"},
        {NULL, "gemm,t,bfloat16,1,2,3,-1\n", "line 3, column 7 (latency)"},
        {NULL, "gemm,t,bfloat16,1,2,3,nan\n", "line 3, column 7 (latency)"},
        {NULL, "gemm,t,bfloat16,1,2,3,0.01\ngemm,t,bfloat16,1,2,3,0.03\n",
         "line 4, column latency: 0.03 ms, but line 3 measures the same kernel, dtype and shape "
         "at 0.01 ms (more than 2x apart)"},
        {NULL, "gemm,t,bfloat16,1,2\n", "line 3: 5 columns, the header has 7"},
        /* w4a16_mxfp4 is MoE only; fp8_block GEMM rows are imported (as fp8,
         * test_gemm_fp8_block_joins_fp8) since tester44 F5 */
        {NULL, "gemm,t,w4a16_mxfp4,1,2,3,0.01\n",
         "no row of an imported dtype variant (bfloat16, fp8, fp8_block, int8_wo"},
        /* tester30 F4: every row below h100-sxm's roofline (a ms/us mix-up):
         * 2 x 4096^3 FLOP / 989e12 = 0.139 ms and 4096^2 x 2 B / 3.35e12 =
         * 0.010 ms of floor against 0.0002 ms.  Before: "no row of an
         * imported dtype variant", though both rows are bfloat16 */
        {NULL, "gemm,t,bfloat16,4096,4096,4096,0.0002\ngemm,t,bfloat16,8,4096,4096,0.0002\n",
         "gemm_perf.csv.gz: 2 of 2 bfloat16 rows (100%) are faster than h100-sxm's roofline, "
         "more than the 15% a measured table shows: wrong units (latency in ms per call) or "
         "wrong --hw?"},
        /* tester10 #10: a physically impossible kernel time */
        {NULL, "gemm,t,bfloat16,1,2,3,1e30\n",
         "line 3, column 7 (latency): 1e+30 ms is not one kernel's time"},
        /* stop 25: hex was read (0x10 as 16), a shape of 1.5 or 1e15 dropped
         * its row without a word, and a repeated column read its first */
        {NULL, "gemm,t,bfloat16,0x10,2,3,0.01\n",
         "line 3, column 4 (m): expected a positive whole number up to 1e9, got '0x10' "
         "(hexadecimal numbers are not accepted"},
        {NULL, "gemm,t,bfloat16,1.5,2,3,0.01\n",
         "line 3, column 4 (m): expected a positive whole number up to 1e9, got '1.5'"},
        {NULL, "gemm,t,bfloat16,1e15,2,3,0.01\n", "got '1e15'"},
        {NULL, "gemm,t,bfloat16,1,2,3,0x1p-7\n", "line 3, column 7 (latency): expected a "
                                                    "positive finite number, got '0x1p-7'"},
        {"op_name,kernel_source,gemm_dtype,m,n,k,latency,m", "gemm,t,bfloat16,1,2,3,0.01,5\n",
         "line 2: column 'm' given twice (columns 4 and 8)"},
    };
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char dir[64], err[1024] = "";
        table_dir(dir, "gemm_perf.csv.gz", cases[i].header ? cases[i].header : H, cases[i].body);
        rl_silicon s;
        assert_int_equal(rl_silicon_import(dir, "trtllm", &h, 0, NULL, &s, err, sizeof err), -1);
        if (!strstr(err, cases[i].want))
            fail_msg("case %zu: error '%s' lacks '%s'", i, err, cases[i].want);
        assert_calibrate_refused(dir); /* the CLI: exit 2, no profile */
        assert_int_equal(remove_tree(dir), 0);
    }
    /* tester10 #10: a truncated .gz (half its bytes) is said to be one, not a
     * short row */
    {
        char tdir[64], terr[1024] = "", file[160], body[1 << 15];
        size_t at = 0;
        unsigned x = 12345; /* varied times: the stream breaks inside the rows */
        for (int m = 1; m <= 600; m++, x = x * 1103515245u + 12345u)
            at += (size_t)snprintf(body + at, sizeof body - at, "gemm,t,bfloat16,%d,2,3,0.%07u\n",
                                   m, 1000000u + x % 8000000u);
        table_dir(tdir, "gemm_perf.csv.gz", H, body);
        snprintf(file, sizeof file, "%s/trtllm/gemm_perf.csv.gz", tdir);
        struct stat st;
        assert_int_equal(stat(file, &st), 0);
        assert_int_equal(truncate(file, st.st_size / 2), 0);
        rl_silicon t;
        assert_int_equal(rl_silicon_import(tdir, "trtllm", &h, 0, NULL, &t, terr, sizeof terr), -1);
        if (!strstr(terr, "the gzip stream is truncated or corrupt"))
            fail_msg("truncated: '%s'", terr);
        /* tester19 F6: the device check (calibrate --tables reads each
         * file's '# device:' line first) says so too; it said "no '# device:'
         * line ... give --device-unchecked" */
        terr[0] = 0;
        char tdev[128];
        assert_int_equal(rl_silicon_check_device(tdir, "trtllm", "h100-sxm", NULL, 0, 0, tdev,
                                                 sizeof tdev, terr, sizeof terr), -1);
        if (!strstr(terr, "gemm_perf.csv.gz: line 1: the gzip stream is truncated or corrupt"))
            fail_msg("truncated, device check: '%s'", terr);
        assert_int_equal(remove_tree(tdir), 0);
    }
    /* tester19 F6: a gzip of zeros read as an empty file (its NUL lines as
     * empty ones): "no '# device:' line"; it is binary data, said on line 1 */
    {
        char zdir[64], zerr[1024] = "", file[160], zdev[128];
        table_dir(zdir, "gemm_perf.csv.gz", H, "");
        snprintf(file, sizeof file, "%s/trtllm/gemm_perf.csv.gz", zdir);
        gzFile gz = gzopen(file, "wb");
        assert_non_null(gz);
        static const char zeros[4000];
        assert_int_equal(gzwrite(gz, zeros, sizeof zeros), (int)sizeof zeros);
        gzclose(gz);
        assert_int_equal(rl_silicon_check_device(zdir, "trtllm", "h100-sxm", NULL, 0, 0, zdev,
                                                 sizeof zdev, zerr, sizeof zerr), -1);
        if (!strstr(zerr, "gemm_perf.csv.gz: line 1: a NUL byte: binary data"))
            fail_msg("zeros: '%s'", zerr);
        assert_int_equal(remove_tree(zdir), 0);
    }
    /* fixRD #4: gzipped random bytes (here without a NUL byte, which
     * tester19 F6's check finds) read as a header line of odd columns and
     * said "no '# device:' line"; a control byte says binary data */
    {
        char rdir[64], rerr[1024] = "", file[160], rdev[128];
        table_dir(rdir, "gemm_perf.csv.gz", H, "");
        snprintf(file, sizeof file, "%s/trtllm/gemm_perf.csv.gz", rdir);
        gzFile gz = gzopen(file, "wb");
        assert_non_null(gz);
        static unsigned char noise[4000];
        unsigned x = 777;
        for (size_t i = 0; i < sizeof noise; i++, x = x * 1103515245u + 12345u)
            noise[i] = (unsigned char)((x >> 16) & 0xff) ? (unsigned char)((x >> 16) & 0xff) : 1;
        assert_int_equal(gzwrite(gz, noise, sizeof noise), (int)sizeof noise);
        gzclose(gz);
        assert_int_equal(rl_silicon_check_device(rdir, "trtllm", "h100-sxm", NULL, 0, 0, rdev,
                                                 sizeof rdev, rerr, sizeof rerr), -1);
        if (!strstr(rerr, "gemm_perf.csv.gz: line 1: a control byte 0x") ||
            !strstr(rerr, "binary data, not a CSV text line"))
            fail_msg("random bytes: '%s'", rerr);
        assert_int_equal(remove_tree(rdir), 0);
    }
    /* tester52 F13: an empty table file, an empty gzip stream and a
     * plain-text one are said as such, at the device check and at import
     * (each said "no '# device:' line", the plain text imported) */
    static const struct {
        const char *content, *want; /* content NULL: 0 bytes; "": an empty gzip stream */
    } odd[] = {
        {NULL, "gemm_perf.csv.gz: empty (0 bytes)"},
        {"", "gemm_perf.csv.gz: empty: its gzip stream holds no text"},
        {"# device: NVIDIA H100 80GB HBM3\nop_name,kernel_source,gemm_dtype,m,n,k,latency\n"
         "gemm,t,bfloat16,1,2,3,0.01\n",
         "gemm_perf.csv.gz: not gzip-compressed (plain text"},
    };
    for (size_t i = 0; i < sizeof odd / sizeof *odd; i++) {
        char odir[64], oerr[1024] = "", file[160], odev[128];
        table_dir(odir, "gemm_perf.csv.gz", H, "");
        snprintf(file, sizeof file, "%s/trtllm/gemm_perf.csv.gz", odir);
        if (odd[i].content && !*odd[i].content) {
            gzFile gz = gzopen(file, "wb");
            assert_non_null(gz);
            gzclose(gz);
        } else {
            FILE *f = fopen(file, "wb");
            assert_non_null(f);
            if (odd[i].content)
                fputs(odd[i].content, f);
            fclose(f);
        }
        for (int unchecked = 0; unchecked < 2; unchecked++) {
            oerr[0] = 0;
            assert_int_equal(rl_silicon_check_device(odir, "trtllm", "h100-sxm", NULL, 0, unchecked,
                                                     odev, sizeof odev, oerr, sizeof oerr), -1);
            if (!strstr(oerr, odd[i].want))
                fail_msg("case %zu, device check: '%s' lacks '%s'", i, oerr, odd[i].want);
        }
        rl_silicon t;
        oerr[0] = 0;
        assert_int_equal(rl_silicon_import(odir, "trtllm", &h, 0, NULL, &t, oerr, sizeof oerr), -1);
        if (!strstr(oerr, odd[i].want))
            fail_msg("case %zu, import: '%s' lacks '%s'", i, oerr, odd[i].want);
        assert_int_equal(remove_tree(odir), 0);
    }
    /* a NUL byte inside a row is binary data, said by line (before: the line
     * was read up to the NUL and the next line's first byte eaten, so a row
     * "gemm,t,bfloat16,2\0,2,3,0.01" read as a 4-column row, and a NUL
     * opening a line as a blank one) */
    for (int first = 0; first < 2; first++) {
        char ndir[64], nerr[1024] = "", file[160];
        table_dir(ndir, "gemm_perf.csv.gz", H, "");
        snprintf(file, sizeof file, "%s/trtllm/gemm_perf.csv.gz", ndir);
        gzFile gz = gzopen(file, "ab"); /* a second gzip member, read on as one stream */
        assert_non_null(gz);
        static const char row[] = "gemm,t,bfloat16,1,2,3,0.01\ngemm,t,bfloat16,2\0,2,3,0.01\n"
                                  "gemm,t,bfloat16,3,2,3,0.01\n";
        static const char lead[] = "gemm,t,bfloat16,1,2,3,0.01\n\0gemm,t,bfloat16,2,2,3,0.01\n";
        assert_true(gzwrite(gz, first ? lead : row, first ? sizeof lead - 1 : sizeof row - 1) > 0);
        gzclose(gz);
        rl_silicon t;
        assert_int_equal(rl_silicon_import(ndir, "trtllm", &h, 0, NULL, &t, nerr, sizeof nerr), -1);
        if (!strstr(nerr, "gemm_perf.csv.gz: line 4: a NUL byte: binary data"))
            fail_msg("NUL: '%s'", nerr);
        assert_int_equal(remove_tree(ndir), 0);
    }
    /* review23 L2: a table that is a FIFO is refused, never opened blocking
     * (gzopen waited forever for a writer) */
    {
        char fdir[64], ferr[1024] = "", file[160];
        table_dir(fdir, "gemm_perf.csv.gz", H, "");
        snprintf(file, sizeof file, "%s/trtllm/gemm_perf.csv.gz", fdir);
        assert_int_equal(unlink(file), 0);
        assert_int_equal(mkfifo(file, 0600), 0);
        rl_silicon t;
        assert_int_equal(rl_silicon_import(fdir, "trtllm", &h, 0, NULL, &t, ferr, sizeof ferr), -1);
        if (!strstr(ferr, "gemm_perf.csv.gz: not a regular file (a FIFO)"))
            fail_msg("FIFO: '%s'", ferr);
        assert_calibrate_refused(fdir);
        assert_int_equal(remove_tree(fdir), 0);
    }
    /* tester10 #10: a missing folder is named as one; an empty engine folder
     * has no kernel tables */
    {
        char edir[] = "/tmp/rl_sil_empty_XXXXXX", sub[64], eerr[1024] = "";
        assert_non_null(mkdtemp(edir));
        rl_silicon t;
        assert_int_equal(rl_silicon_import(edir, "trtllm", &h, 0, NULL, &t, eerr, sizeof eerr), -1);
        assert_non_null(strstr(eerr, "/trtllm: no such folder"));
        snprintf(sub, sizeof sub, "%s/trtllm", edir);
        assert_int_equal(mkdir(sub, 0755), 0);
        assert_int_equal(rl_silicon_import(edir, "trtllm", &h, 0, NULL, &t, eerr, sizeof eerr), -1);
        assert_non_null(strstr(eerr, "/trtllm: no kernel tables"));
        assert_int_equal(remove_tree(edir), 0);
    }
    /* within 2x, repeats are averaged: (0.01 + 0.015) / 2 ms */
    char dir[64], err[256];
    table_dir(dir, "gemm_perf.csv.gz", H,
              "gemm,t,bfloat16,1,2,3,0.01\ngemm,t,bfloat16,1,2,3,0.015\n");
    rl_silicon s;
    assert_int_equal(rl_silicon_import(dir, "trtllm", &h, 0, NULL, &s, err, sizeof err), 0);
    double x[3] = {1, 2, 3};
    assert_rel(rl_kt_time(s.tables->t[RL_KC_GEMM][RL_KV_BF16], x, NULL, NULL, NULL), 0.0125e-3,
               1e-12);
    rl_silicon_free(&s);
    assert_int_equal(remove_tree(dir), 0);
}

/* Attention's group axis keeps its 3 * 2^i nodes (silicon.c subsampled,
 * stop 26): three rows of A100 TensorRT-LLM decode attention
 * (../shared/data/silicon/a100_sxm/trtllm/generation_attention_perf.csv.gz,
 * NVIDIA AIConfigurator, Apache-2.0), 32 streams (batch x KV heads 32 x 1,
 * 16 x 2, 32 x 1), context 1 + 2047, head_dim 128, at group 32, 48 and 64:
 * 0.04949333270390829, 0.43161598841349286 and 0.5602986812591553 ms.  At
 * group 48 the lookup reads its own row, measured (tolerance 1e-12); with
 * group at 2^i only it read 204.7 us, log-log between groups 32 and 64
 * (49.49 x (560.3 / 49.49)^(ln 1.5 / ln 2), by hand). */
static void test_group_keeps_three_times_powers(void **state)
{
    (void)state;
    static const char *H = "op_name,kernel_source,batch_size,isl,num_heads,num_key_value_heads,"
                           "head_dim,window_size,beam_width,attn_dtype,kv_cache_dtype,step,latency";
    char dir[64], err[1024] = "";
    table_dir(dir, "generation_attention_perf.csv.gz", H,
              "generation_attention,torch_flow,32,1,32,1,128,0,1,bfloat16,bfloat16,2047,"
              "0.04949333270390829\n"
              "generation_attention,torch_flow,16,1,96,2,128,0,1,bfloat16,bfloat16,2047,"
              "0.43161598841349286\n"
              "generation_attention,torch_flow,32,1,64,1,128,0,1,bfloat16,bfloat16,2047,"
              "0.5602986812591553\n");
    rl_hw h = load_hw("a100-sxm-80g", NULL, 0);
    rl_silicon s;
    if (rl_silicon_import(dir, "trtllm", &h, 0, NULL, &s, err, sizeof err) != 0)
        fail_msg("import: %s", err);
    const rl_ktable *d = s.tables->t[RL_KC_DECODE_ATTN][RL_KV_BF16];
    assert_non_null(d);
    assert_int_equal(d->len[2], 3);
    rl_provenance p;
    double x[4] = {32, 2048, 48, 128};
    assert_rel(rl_kt_time(d, x, NULL, NULL, &p), 0.43161598841349286e-3, 1e-12);
    assert_int_equal(p, RL_PROV_MEASURED);
    rl_silicon_free(&s);
    assert_int_equal(remove_tree(dir), 0);
}

/* calibrate --tables with --set: the saved profile names its base and keeps
 * the changed field, so it reads back as the spec it was fitted against;
 * the engine table is the one of a plain save. */
static void test_saved_overrides(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_sil_XXXXXX", out[128], cmd[1024];
    assert_non_null(mkdtemp(dir));
    snprintf(out, sizeof out, "%s/p.lua", dir);
    snprintf(cmd, sizeof cmd, "ROOFLINE_DATA=%s %s calibrate --tables %s --hw h100-sxm "
             "--engine trtllm --set hw.price_per_chip_hour=1.5 --save %s >/dev/null 2>&1",
             RL_SRCDIR, RL_BIN, EXCERPT, out);
    assert_int_equal(system(cmd), 0);
    char *text = slurp_text(out);
    assert_non_null(strstr(text, "\n  base = \"h100-sxm\",\n  price_per_chip_hour = 1.5,\n"));
    free(text);
    rl_hw h = load_hw(out, NULL, 0), p = load_hw("h100-sxm", NULL, 0);
    assert_rel(h.price_per_chip_hour, 1.5, 0);
    assert_rel(h.hbm_bytes, p.hbm_bytes, 0);
    assert_string_equal(rl_engines_selected(&h.engines)->measured_on, "h100-sxm");
    unlink(out);
    rmdir(dir);
}

/* tester43 F5: a folder lacking gemm or attention tables made a profile
 * without them, exit 0, in silence (the preset's own are not kept).  Now a
 * note names each of the three documented files missing, and what they
 * time; the complete excerpt gets none. */
static void test_absent_tables_said(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_sil_XXXXXX", cmd[1024], out[8192], path[128];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/p.lua", dir);
    snprintf(cmd, sizeof cmd, "calibrate --tables %s/tests/data/silicon/a100_sxm --hw a100-sxm-80g "
             "--engine trtllm --save %s --format json", RL_SRCDIR, path);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    if (!strstr(out, "a100_sxm/trtllm has no gemm_perf.csv.gz (GEMMs), "
                     "context_attention_perf.csv.gz (prefill attention): ") ||
        !strstr(out, "(a100-sxm-80g's own are not kept: the profile holds the tables of --tables "
                     "only), so its runs time it at the roofline"))
        fail_msg("%s: %s", cmd, out);
    char buf[256];
    assert_int_equal(rl_silicon_absent(EXCERPT, "trtllm", buf, sizeof buf), 0);
    assert_string_equal(buf, "");
    assert_int_equal(rl_silicon_absent(EXCERPT, "vllm", buf, sizeof buf), 3); /* MoE only */
    assert_non_null(strstr(buf, "generation_attention_perf.csv.gz (decode attention)"));
    assert_int_equal(unlink(path), 0);
    assert_int_equal(rmdir(dir), 0);
}

/* Tester3 item 3: tables measured on one GPU are not another chip's
 * profile.  The excerpt's files name device 'NVIDIA H100 80GB HBM3': onto
 * h200 (whose engines name 'NVIDIA H200') and onto tpu-v5e (no engine; the
 * device is h100-sxm's) and onto h100-pcie (a what-if of h100-sxm's tables
 * since stop 27: they are not a PCIe card's, and the chip named is
 * h100-sxm, not the what-if) calibrate exits 2 naming the device and --hw, and
 * writes nothing; validate --tables exits 2 with the same words. */
static void test_tables_of_another_chip(void **state)
{
    (void)state;
    static const struct {
        const char *hw, *want;
    } cases[] = {
        {"h200", "device 'NVIDIA H100 80GB HBM3', but --hw h200 is another chip"},
        {"tpu-v5e", "device 'NVIDIA H100 80GB HBM3', the chip of preset h100-sxm (its "},
        {"h100-pcie", "device 'NVIDIA H100 80GB HBM3', the chip of preset h100-sxm (its "},
    };
    char dir[] = "/tmp/rl_sil_XXXXXX", cmd[1024], out[4096];
    assert_non_null(mkdtemp(dir));
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(cmd, sizeof cmd, "calibrate --tables %s --hw %s --engine trtllm --save %s/p.lua",
                 EXCERPT, cases[i].hw, dir);
        assert_int_equal(run_cli(cmd, out, sizeof out), 2);
        if (!strstr(out, cases[i].want))
            fail_msg("--hw %s: '%s' lacks '%s'", cases[i].hw, out, cases[i].want);
        snprintf(cmd, sizeof cmd, "--hw %s", cases[i].hw);
        assert_non_null(strstr(out, cmd));
        snprintf(cmd, sizeof cmd, "%s/p.lua", dir);
        assert_int_equal(access(cmd, F_OK), -1);
        /* tester16 F9: validate --tables refuses them alike (it labelled
         * the H100 kernels' errors and floor counts with --hw) */
        snprintf(cmd, sizeof cmd, "validate --tables %s --hw %s --engine trtllm", EXCERPT,
                 cases[i].hw);
        assert_int_equal(run_cli(cmd, out, sizeof out), 2);
        if (!strstr(out, cases[i].want))
            fail_msg("validate --hw %s: '%s' lacks '%s'", cases[i].hw, out, cases[i].want);
    }
    rmdir(dir);
}

/* Copies the excerpt's trtllm files into DIR/trtllm, `strip` (a file name
 * or "*") without its "# device: " line, `swap` (or NULL) replaced by the
 * A100 excerpt's file of that name (tests/data/silicon/SOURCE.md). */
static void copy_excerpt(const char *dir, const char *strip, const char *swap)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "mkdir -p %s/trtllm && cp %s/trtllm/*.csv.gz %s/trtllm/", dir,
             EXCERPT, dir);
    assert_int_equal(system(cmd), 0);
    if (swap) {
        snprintf(cmd, sizeof cmd, "cp %s/tests/data/silicon/%s %s/trtllm/", RL_SRCDIR, swap, dir);
        assert_int_equal(system(cmd), 0);
    }
    if (strip) {
        snprintf(cmd, sizeof cmd, "cd %s/trtllm && for f in %s; do zcat $f | grep -v '^# device: ' "
                 "| gzip > $f.new && mv $f.new $f; done", dir, strip);
        assert_int_equal(system(cmd), 0);
    }
}

/* tester83 #4: calibrate --tables on a full GPU folder (h100_sxm/vllm,
 * 3.6 MB) ran a minute of CPU without a word.  Over 1 MB of tables it says
 * how many MB and about how long (17 s a MB, measured in cli.c) before it
 * starts; the excerpt's gemm table padded past 1 MB with unparsable lines
 * says 1.1 MB and ~19 s, then fails on them (exit 2, nothing written). */
static void test_calibrate_says_its_size(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_big_XXXXXX", cmd[2048], out[8192];
    assert_non_null(mkdtemp(dir));
    copy_excerpt(dir, NULL, NULL);
    snprintf(cmd, sizeof cmd, "cd %s/trtllm && { zcat gemm_perf.csv.gz; head -c 1100000 /dev/urandom "
             "| od -An -tx1; } | gzip -1 > g && mv g gemm_perf.csv.gz", dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "calibrate --tables %s --hw h100-sxm --engine trtllm --save %s/p.lua",
             dir, dir);
    assert_int_equal(run_cli(cmd, out, sizeof out), 2);
    if (!strstr(out, "MB of kernel tables twice (the fit, then 5-fold hold-outs for the bands): "
                     "about "))
        fail_msg("no size note: %s", out);
    snprintf(cmd, sizeof cmd, "%s/p.lua", dir);
    assert_int_equal(access(cmd, F_OK), -1);
    copy_excerpt(dir, NULL, NULL); /* the excerpt alone (< 1 MB): no note */
    snprintf(cmd, sizeof cmd, "calibrate --tables %s --hw h100-sxm --engine trtllm --save %s/p.lua",
             dir, dir);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    assert_null(strstr(out, "MB of kernel tables"));
    snprintf(cmd, sizeof cmd, "rm -r %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* Tester16 F3: a table with no "# device:" line cannot be checked against
 * --hw (an A100's tables so stripped became a "calibrated" h100-sxm
 * profile): calibrate exits 2 naming the file and writes nothing, whether
 * every file lacks the line or one does; files naming two devices (the
 * H100 excerpt with the A100 excerpt's decode attention) are refused too,
 * and so is a file whose "# framework:" names another engine than the
 * folder's (tester18 F7: the H100 vLLM MoE excerpt, same device, in the
 * trtllm folder imported as trtllm).
 * --device-unchecked imports them, labelled: measured_on and the source say
 * RL_DEVICE_UNCHECKED, so the runs are `estimated`, not `calibrated`, even
 * on h100-sxm, the chip these rows were measured on; so when only one file
 * lacks the line. */
static void test_tables_without_a_device(void **state)
{
    (void)state;
    static const struct {
        const char *strip, *swap, *want;
    } cases[] = {
        {"*", NULL, "/trtllm/gemm_perf.csv.gz: no '# device:' line: cannot check the chip"},
        {"generation_attention_perf.csv.gz", NULL,
         "/trtllm/generation_attention_perf.csv.gz: no '# device:' line: cannot check the chip"},
        {NULL, "a100_sxm/trtllm/generation_attention_perf.csv.gz",
         "/trtllm/generation_attention_perf.csv.gz: device 'NVIDIA A100-SXM4-80GB', another file "
         "of "},
        {NULL, "h100_sxm/vllm/moe_perf.csv.gz",
         "/trtllm/moe_perf.csv.gz: '# framework: VLLM' is engine vllm, not trtllm: the tables of "
         "the folder's engine only"},
    };
    char out[4096], cmd[1024], save[256];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char dir[] = "/tmp/rl_dev_XXXXXX";
        assert_non_null(mkdtemp(dir));
        copy_excerpt(dir, cases[i].strip, cases[i].swap);
        snprintf(save, sizeof save, "%s/p.lua", dir);
        snprintf(cmd, sizeof cmd, "calibrate --tables %s --hw h100-sxm --engine trtllm --save %s",
                 dir, save);
        assert_int_equal(run_cli(cmd, out, sizeof out), 2);
        if (!strstr(out, cases[i].want))
            fail_msg("case %zu: '%s' lacks '%s'", i, out, cases[i].want);
        assert_int_equal(access(save, F_OK), -1);
        if (i <= 1) { /* the same tables, stated unchecked: one file without the
                       * line makes the whole profile unchecked (tester18 F3:
                       * it took its siblings' device, calibrated) */
            strcat(cmd, " --device-unchecked");
            assert_int_equal(run_cli(cmd, out, sizeof out), 0);
            rl_hw h = load_hw(save, NULL, 0);
            const rl_serving_engine *e = rl_engines_selected(&h.engines);
            assert_string_equal(e->measured_on, RL_DEVICE_UNCHECKED);
            assert_non_null(strstr(e->source, "; " RL_DEVICE_UNCHECKED ";"));
            assert_string_equal(rl_hw_mode(&h, 1), "estimated");
            unlink(save);
            /* validate --tables reads them the same way (review26 M2: its
             * refusal named a switch validate did not take) */
            snprintf(cmd, sizeof cmd, "validate --tables %s --hw h100-sxm --engine trtllm", dir);
            assert_int_equal(run_cli(cmd, out, sizeof out), 2);
            assert_non_null(strstr(out, cases[i].want));
            strcat(cmd, " --device-unchecked");
            if (run_cli(cmd, out, sizeof out) != 0)
                fail_msg("validate --device-unchecked: %s", out);
        }
        snprintf(cmd, sizeof cmd, "rm -r %s", dir);
        assert_int_equal(system(cmd), 0);
    }
}

/* Issue 12's target: each shipped engine profile at most 1 MB of Lua
 * (1,000,000 bytes).  Stop 45's trtllm profiles were 1,195,236 bytes (H100)
 * before the compact form (ktable.h: filled runs as ranges, whole-number
 * latencies); the largest written by `make profiles` at stop 46 is
 * h100-sxm-trtllm.lua, 881,899 bytes.  Fails on stop 45's profiles. */
static void test_shipped_profiles_within_1mb(void **state)
{
    (void)state;
    DIR *d = opendir(RL_SRCDIR "/hw_profiles/engines");
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".lua") != 0)
            continue;
        char path[512];
        struct stat st;
        snprintf(path, sizeof path, RL_SRCDIR "/hw_profiles/engines/%s", e->d_name);
        assert_int_equal(stat(path, &st), 0);
        if (st.st_size > 1000000)
            fail_msg("%s: %lld bytes, over issue 12's 1 MB", path, (long long)st.st_size);
        n++;
    }
    closedir(d);
    assert_true(n >= 10); /* five GPU presets x two engines */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grids_hold_the_measured_rows),
        cmocka_unit_test(test_floor_at_lookup),
        cmocka_unit_test(test_rows_below_the_floor_left_out),
        cmocka_unit_test(test_spike_made_monotone),
        cmocka_unit_test(test_step_kept),
        cmocka_unit_test(test_gemm_every_m),
        cmocka_unit_test(test_gemm_tile_step),
        cmocka_unit_test(test_holdout),
        cmocka_unit_test(test_holdout_above_the_classes),
        cmocka_unit_test(test_holdout_holds_whole_nodes),
        cmocka_unit_test(test_fill_reads_named_kernels),
        cmocka_unit_test(test_what_if_scaling),
        cmocka_unit_test(test_h100_pcie_is_sxm_what_if),
        cmocka_unit_test(test_engine_switch_restores_own_figures),
        cmocka_unit_test(test_what_if_keeps_the_excess),
        cmocka_unit_test(test_saved_spec_and_mode),
        cmocka_unit_test(test_saved_overrides),
        cmocka_unit_test(test_absent_tables_said),
        cmocka_unit_test(test_tables_of_another_chip),
        cmocka_unit_test(test_tables_without_a_device),
        cmocka_unit_test(test_calibrate_says_its_size),
        cmocka_unit_test(test_ops_timed_by_tables),
        cmocka_unit_test(test_residual_band),
        cmocka_unit_test(test_table_band_widening),
        cmocka_unit_test(test_row_parallel_shape),
        cmocka_unit_test(test_kv_split_runs_the_head_group),
        cmocka_unit_test(test_derived_dtype),
        cmocka_unit_test(test_derived_reference),
        cmocka_unit_test(test_reference_rows_below_the_floor_left_out),
        cmocka_unit_test(test_lua_engine),
        cmocka_unit_test(test_one_kv_head_apart),
        cmocka_unit_test(test_one_split_at_one_prompt_length),
        cmocka_unit_test(test_bad_tables),
        cmocka_unit_test(test_tables_wrong_units),
        cmocka_unit_test(test_gemm_fp8_block_joins_fp8),
        cmocka_unit_test(test_group_keeps_three_times_powers),
        cmocka_unit_test(test_trtllm_mmha_over_pairs),
        cmocka_unit_test(test_shipped_profiles_within_1mb),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
