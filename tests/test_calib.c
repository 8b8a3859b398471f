/* test_calib.c — calibrate and validate end to end on the toy model in a
 * temporary folder: the profile written loads as a hardware spec with
 * efficiency tables and the `reference` engine's kernel tables, which
 * round-trip through the measured-table format; the raw samples are kept,
 * validate predicts every run and reports its error statistics. */
#include "testutil.h"
#include "version.h"

#include <sys/stat.h>

#include <zlib.h>

#include "calib.h"
#include "plot.h"
#include "silicon.h"

/* tester15 F-cal-1: the quick grid's bandwidth came from a 4 MiB copy (an
 * L3 figure) while base.lua said ">= 64 MiB".  The quick grid's one copy
 * moving >= 64 MiB is 2^24 floats: 2 x 64 MiB buffers, 2^27 = 134217728
 * bytes moved (calibrate.c build_grid); hbm_bw is that row's bytes_per_s
 * (the same division: rel 1e-12), or a faster read from the rotation (a
 * gemv, gemm or decode attention, which only read: tester19 F1), and
 * base.lua's comment says those sizes, where the buffers sit against the
 * host's last-level cache (llc_bytes, sysfs), and which read beat the copy. */
static void bandwidth_label_is_what_was_measured(const cJSON *sum)
{
    assert_rel(cJSON_GetObjectItem(sum, "hbm_bw_copy_bytes")->valuedouble, 134217728.0, 0);
    assert_string_equal(cJSON_GetObjectItem(sum, "clock")->valuestring, "thread CPU time (one thread)");
    double bw = cJSON_GetObjectItem(sum, "hbm_bw")->valuedouble, copy_bw = 0, read_bw = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(sum, "rows")) {
        const char *b = cJSON_GetObjectItem(r, "bench")->valuestring;
        double rate = cJSON_GetObjectItem(r, "bytes_per_s")->valuedouble;
        if (!strcmp(b, "stream_copy") && cJSON_GetObjectItem(r, "M")->valuedouble == 16777216)
            copy_bw = rate;
        if (!strcmp(b, "gemv") || !strcmp(b, "gemm") || !strcmp(b, "attention"))
            read_bw = fmax(read_bw, rate);
    }
    assert_rel(bw, fmax(copy_bw, read_bw), 1e-12);
    char *base = slurp_text(cJSON_GetObjectItem(sum, "base")->valuestring);
    assert_non_null(base);
    if (!strstr(base, "-- hbm_bw: best stream copy, 2 x 64 MiB buffers (128 MiB moved, read + write)"))
        fail_msg("base.lua does not name the copy measured: %.600s", base);
    double llc = cJSON_GetObjectItem(sum, "llc_bytes")->valuedouble;
    char clause[128];
    if (llc <= 0)
        snprintf(clause, sizeof clause, "last-level cache size unknown");
    else if (llc < 64.0 * 1048576)
        snprintf(clause, sizeof clause, "the %.0f MiB last-level cache", llc / 1048576);
    else
        snprintf(clause, sizeof clause, "inside the %.0f MiB last-level cache: a cache figure",
                 llc / 1048576);
    if (!strstr(base, clause))
        fail_msg("base.lua's hbm_bw comment lacks '%s': %.600s", clause, base);
    assert_null(strstr(base, ">= 64 MiB")); /* the old, unmeasured claim */
    if ((read_bw > copy_bw) != (strstr(base, ", beaten by a read from DRAM (rotated through 256 "
                                             "MiB), ") != NULL))
        fail_msg("base.lua's hbm_bw comment does not say which read gave it: %.600s", base);
    free(base);
}

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
    assert_true(h.smoke_test); /* --quick marks the profile, through its base (tester9 #7b) */
    /* the release beside the build's commit in the tables' version and
     * source (tester91 #7: "commit dc02e59c-dirty" alone, on a 0.51.0 binary
     * built before its version commit) */
    char *ptext = slurp_text(path);
    if (!strstr(ptext, "\"roofline " RL_VERSION " (commit ") ||
        !strstr(ptext, "), roofline " RL_VERSION ", commit "))
        fail_msg("the profile does not name roofline %s beside its commit: %.800s", RL_VERSION, ptext);
    free(ptext);
    /* SwiGLU and the residual add are fitted apart (issue 12): each its own
     * curve from its own benches, rows 1 and 2 of the quick grid */
    assert_true(h.efficiency.curve[RL_EFF_SWIGLU].n >= 1);
    assert_true(h.efficiency.curve[RL_EFF_ELEMENTWISE].n >= 1);
    /* the reference engine's per-sequence cost is its measured greedy
     * sampling (calibrate.c sampling_costs; tiny-test's 96-token rows take
     * about a microsecond, so a loaded or instrumented host may time the
     * slope at its floor, 0) */
    const rl_serving_engine *se = rl_engines_selected(&h.engines);
    assert_non_null(se);
    assert_true(se->seq_s >= 0 && se->step_s >= 0 && se->launch_s == 0);
    assert_non_null(strstr(se->costs_source, "greedy sampling"));
    /* the CPU backend's decode attention is one dynamic loop over (slot, KV
     * head) items, its time their sum: attention_context "mean", said in
     * the costs' source (calibrate.c sampling_costs; engines.h attn_longest) */
    assert_int_equal(se->attn_longest, 0);
    assert_non_null(strstr(se->costs_source, "attention_context mean"));
    double step_s = se->step_s, seq_s = se->seq_s;
    assert_true(cJSON_GetObjectItem(sum, "noisy_benchmarks")->valuedouble >= 0);
    struct stat st;
    assert_int_equal(stat(cJSON_GetObjectItem(sum, "raw")->valuestring, &st), 0);
    bandwidth_label_is_what_was_measured(sum);
    cJSON_Delete(sum);

    o.profile = path;
    o.plot = "v.png"; /* in dir, the working directory */
    cJSON *v = rl_validate(&o, err, sizeof err);
    if (!v)
        fail_msg("validate: %s", err);
    const cJSON *r0;
    /* tester22 F4: labelled as step and prefill label the same shape: each
     * row its mode by its table_time_share (spec.h rl_run_mode: calibrated
     * at >= 0.5); the quick profile's GEMM tables stop at M = 4, so the
     * T = 32 prefill is extrapolated, `estimated`.  tester55 F2: the result
     * reads the rows' one mode, else `mixed` (it read the smallest row's,
     * `estimated`, and that row's share as the run's), its share the rows'
     * table-timed seconds over their predicted seconds (1e-12: one sum in
     * another order) */
    double tab = 0, all = 0;
    int estimated = 0, n = 0;
    cJSON_ArrayForEach(r0, cJSON_GetObjectItem(v, "rows")) {
        double share = cJSON_GetObjectItem(r0, "table_time_share")->valuedouble;
        double pred = cJSON_GetObjectItem(r0, "predicted_s")->valuedouble;
        const char *mode = cJSON_GetObjectItem(r0, "mode")->valuestring;
        assert_string_equal(mode, share >= RL_TABLE_SHARE_MIN ? "calibrated" : "estimated");
        if (!strcmp(cJSON_GetObjectItem(r0, "phase")->valuestring, "prefill"))
            assert_string_equal(mode, "estimated");
        estimated += !strcmp(mode, "estimated");
        n++;
        tab += share * pred;
        all += pred;
    }
    assert_rel(cJSON_GetObjectItem(v, "table_time_share")->valuedouble, tab / all, 1e-12);
    assert_string_equal(cJSON_GetObjectItem(v, "mode")->valuestring,
                        estimated == n ? "estimated" : estimated ? "mixed" : "calibrated");
    /* tester55 F2: a decode row's context counts the new token (129 = 128
     * cached + 1) and its attention is predicted over those 129 tokens, the
     * shape calibrate's decode attention bench at S = 128 ran (calibrate.c:
     * b->S = Ss[j] + 1 attended, written as step 128): batch 1 at 129 is a
     * node of the quick grid (batch 1, 4; S 128, 512), provenance
     * "measured".  It read "interpolated": validate predicted 130 tokens,
     * one more than the step attends, and its 4097-context rows of the full
     * grid lay beyond the table, `estimated` */
    int seen = 0;
    cJSON_ArrayForEach(r0, cJSON_GetObjectItem(v, "op_residuals"))
        if (!strcmp(cJSON_GetObjectItem(r0, "phase")->valuestring, "decode") &&
            !strcmp(cJSON_GetObjectItem(r0, "op")->valuestring, "attention") &&
            cJSON_GetObjectItem(r0, "batch")->valuedouble == 1) {
            assert_string_equal(cJSON_GetObjectItem(r0, "provenance")->valuestring, "measured");
            seen++;
        }
    assert_int_equal(seen, 1);
    int runs = cJSON_GetObjectItem(v, "runs")->valueint;
    assert_int_equal(runs, 3); /* quick: decode B = 1, 2 at S = 128; prefill T = 32 */
    /* a decode row's prediction = its operators + the engine's sampling,
     * step_s + seq_s x batch; a prefill's = its operators (it samples
     * nothing: validate.c record) */
    cJSON_ArrayForEach(r0, cJSON_GetObjectItem(v, "rows")) {
        const char *phase = cJSON_GetObjectItem(r0, "phase")->valuestring;
        double batch = cJSON_GetObjectItem(r0, "batch")->valuedouble, ops = 0;
        double ctx = cJSON_GetObjectItem(r0, "context")->valuedouble;
        const cJSON *op;
        cJSON_ArrayForEach(op, cJSON_GetObjectItem(v, "op_residuals"))
            if (!strcmp(cJSON_GetObjectItem(op, "phase")->valuestring, phase) &&
                cJSON_GetObjectItem(op, "batch")->valuedouble == batch &&
                cJSON_GetObjectItem(op, "context")->valuedouble == ctx)
                ops += cJSON_GetObjectItem(op, "predicted_s")->valuedouble;
        double engine = phase[0] == 'd' ? step_s + seq_s * batch : 0;
        assert_rel(cJSON_GetObjectItem(r0, "predicted_s")->valuedouble, ops + engine, 1e-9);
    }
    /* a --quick run says it is a smoke test (tester3 #14) */
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(v, "smoke_test")));
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(v, "rows")) {
        double meas = cJSON_GetObjectItem(r, "measured_s")->valuedouble;
        double pred = cJSON_GetObjectItem(r, "predicted_s")->valuedouble;
        assert_true(meas > 0 && pred > 0);
        assert_rel(cJSON_GetObjectItem(r, "error")->valuedouble + 1, pred / meas, 1e-9);
        assert_true(cJSON_GetObjectItem(r, "noise")->valuedouble >= 0);
        /* tester12 #11: each row names the tokens it computes; the quick
         * grid's prefill is T = 32 prompt tokens in one sequence (context as
         * before, a contract), decode one token a sequence attending over
         * S = 128 cached tokens and its own (context 129) */
        int prefill = !strcmp(cJSON_GetObjectItem(r, "phase")->valuestring, "prefill");
        double batch = cJSON_GetObjectItem(r, "batch")->valuedouble;
        assert_true(cJSON_GetObjectItem(r, "tokens")->valuedouble == (prefill ? 32 : batch));
        assert_true(cJSON_GetObjectItem(r, "context")->valuedouble == (prefill ? 32 : 129));
    }
    assert_true(cJSON_GetObjectItem(v, "noisy_runs")->valueint >= 0 &&
                cJSON_GetObjectItem(v, "noisy_runs")->valueint <= runs);
    assert_rel(cJSON_GetObjectItem(v, "noise_threshold")->valuedouble, RL_CALIB_NOISE, 0);
    /* one CPU thread (the default): runs are timed on that thread's CPU
     * time, as calibrate times its kernels (backend.h; stop 27) */
    assert_string_equal(cJSON_GetObjectItem(v, "clock")->valuestring, "thread CPU time (one thread)");
    /* the step-level figure's data: 3 runs, decode and prefill blocks */
    char dat[1200], gp[1200];
    assert_string_equal(cJSON_GetObjectItem(v, "plot_steps")->valuestring, "v-steps.png");
    /* its side files are the ones the CLI checks before the run (plot.h
     * rl_plot_side_files: STEM.dat, STEM.gp; review22 #2) */
    rl_plot_side_files(cJSON_GetObjectItem(v, "plot_steps")->valuestring, dat, gp, sizeof dat);
    assert_string_equal(dat, "v-steps.dat");
    assert_int_equal(stat(dat, &st), 0);
    assert_int_equal(stat(gp, &st), 0);
    assert_int_equal(stat("v.dat", &st), 0);
    assert_int_equal(stat("v.gp", &st), 0);
    assert_int_not_equal(stat("v.png.dat", &st), 0);
    /* the figures go where --plot says, and nowhere else (tester4 #14: a
     * plots/ folder appeared in the working directory on every run) */
    assert_int_not_equal(stat("plots", &st), 0);
    assert_true(cJSON_GetObjectItem(v, "max_abs_error")->valuedouble >=
                cJSON_GetObjectItem(v, "median_abs_error")->valuedouble);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(v, "op_residuals")), 3 * 18);
    /* matmuls and attention are timed from the profile's reference tables
     * (ops.c's path), norms and the rest by their efficiency curves */
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(v, "op_residuals")) {
        const char *op = cJSON_GetObjectItem(r, "op")->valuestring;
        const char *prov = cJSON_GetObjectItem(r, "provenance")->valuestring;
        int table = strstr(op, "proj") || strstr(op, "mlp_") == op || !strcmp(op, "attention") ||
                    !strcmp(op, "lm_head");
        if (strcmp(op, "mlp_norm") == 0 || strcmp(op, "mlp_residual") == 0)
            table = 0;
        if (table != (strcmp(prov, "roofline") != 0))
            fail_msg("op %s timed as %s", op, prov);
        /* the prefill of T = 32 is a calibrated prompt: its attention is a
         * measured node if engine_ops and the importer agree on the axes */
        if (!strcmp(op, "attention") &&
            !strcmp(cJSON_GetObjectItem(r, "phase")->valuestring, "prefill"))
            assert_string_equal(prov, "measured");
    }
    cJSON_Delete(v);
    /* the profile names its tables' base.lua relative to its own folder
     * (silicon.c base_ref), so the folder loads moved elsewhere: renamed,
     * the same figures come back */
    char *text = slurp_text(path), moved[sizeof dir + 8], mpath[1200];
    assert_non_null(strstr(text, "base = \""));
    assert_null(strstr(text, "base = \"/"));
    free(text);
    assert_int_equal(chdir(old), 0);
    snprintf(moved, sizeof moved, "%s-moved", dir);
    assert_int_equal(rename(dir, moved), 0);
    snprintf(mpath, sizeof mpath, "%s%s", moved, path + strlen(dir));
    rl_hw back = load_hw(mpath, NULL, 0);
    assert_true(back.hbm_bw == h.hbm_bw && back.flops[RL_FP32] == h.flops[RL_FP32]);
    assert_true(rl_engines_selected(&back.engines) != NULL);
    assert_int_equal(remove_tree(moved), 0);
}

/* The first data row of a gzipped table; its line number (1-based) and
 * the count of lines go to *at and *lines. */
static void first_row(const char *path, char *row, size_t len, int *at, int *lines)
{
    gzFile g = gzopen(path, "rb");
    assert_non_null(g);
    char line[512];
    *at = *lines = 0;
    while (gzgets(g, line, sizeof line)) {
        ++*lines;
        if (!*at && line[0] != '#' && strncmp(line, "op_name,", 8) != 0) {
            *at = *lines;
            snprintf(row, len, "%s", line);
        }
    }
    gzclose(g);
}

/* Whether the gemm file at path has a row of shape (*, n, k) whose latency
 * is ms to 1e-3. */
static int row_of_chain(const char *path, double n, double k, double ms)
{
    gzFile g = gzopen(path, "rb");
    assert_non_null(g);
    char line[512];
    int found = 0;
    double rm, rn, rk, rms;
    while (!found && gzgets(g, line, sizeof line))
        found = sscanf(line, "gemm,reference_cpu,float32,%lf,%lf,%lf,%lf", &rm, &rn, &rk, &rms) ==
                    4 && rn == n && rk == k && fabs(rms / ms - 1) <= 1e-3;
    gzclose(g);
    return found;
}

/* Issue 12, one calibration path: calibrate --backend writes its GEMM and
 * attention medians as kernel tables in the measured-table format
 * (--tables-out), and the profile is silicon.c's import of them as engine
 * `reference`.  Round trip: the profile's gemm table gives, at the first
 * row's shape, a measured node whose time is the row's own latency or, where
 * the host's timings fall as m grows, that of another row of its (n, k)
 * (the isotonic median fit of ktable.h values a pooled run at the lower
 * median of its rows, always one of them; the profile keeps 4 significant
 * digits: tolerance 1e-3).  A bad row added to that file is an error
 * naming file, line and column. */
static void test_calibrate_writes_kernel_tables(void **state)
{
    (void)state;
    use_source_tree();
    char dir[] = "/tmp/rl_calt_XXXXXX", err[1024], tables[64], save[64], path[256];
    assert_non_null(mkdtemp(dir));
    snprintf(tables, sizeof tables, "%s/t", dir);
    snprintf(save, sizeof save, "%s/p.lua", dir);
    rl_calib_opts o = {.backend = "cpu", .model = "tiny-test", .save = save, .tables_out = tables,
                       .quick = 1, .threads = 1};
    cJSON *sum = rl_calibrate(&o, err, sizeof err);
    if (!sum)
        fail_msg("calibrate: %s", err);
    assert_string_equal(cJSON_GetObjectItem(sum, "engine")->valuestring, "reference");
    assert_string_equal(cJSON_GetObjectItem(sum, "tables")->valuestring, tables);
    /* quick grid, tiny-test: 3 M x 5 shapes; prompts 32, 128; B 1, 4 x S 129, 513:
     * each kept, or left out below its roofline at base.lua's own figures
     * (the floor rule holds for these tables too, tester19 F1) and counted */
    long want[3] = {15, 2, 4}, got[3] = {0};
    const cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItem(sum, "kernel_tables")) {
        assert_string_equal(cJSON_GetObjectItem(t, "dtype")->valuestring, "float32");
        int c = !strcmp(cJSON_GetObjectItem(t, "class")->valuestring, "gemm")                ? 0
                : !strcmp(cJSON_GetObjectItem(t, "class")->valuestring, "prefill_attention") ? 1
                                                                                              : 2;
        got[c] = (long)(cJSON_GetObjectItem(t, "configurations")->valuedouble +
                        cJSON_GetObjectItem(t, "below_floor")->valuedouble);
    }
    for (int c = 0; c < 3; c++)
        assert_int_equal(got[c], want[c]);
    cJSON_Delete(sum);

    /* each table names the host it was measured on, so calibrate --tables
     * reads them back with their device checked (tester16 F3) */
    char line[600];
    snprintf(line, sizeof line, "for f in %s/reference/*_perf.csv.gz; do zcat $f | grep -q "
             "'^# device: .* (cpu backend, 1 thread(s))$' || exit 1; done", tables);
    assert_int_equal(system(line), 0);
    snprintf(path, sizeof path, "%s/base.lua", tables);
    char device[RL_SILICON_DEVICE_LEN];
    if (rl_silicon_check_device(tables, "reference", path, NULL, 0, 0, device, sizeof device, err,
                                sizeof err) != 0)
        fail_msg("device check: %s", err);
    if (!strstr(device, " (cpu backend, 1 thread(s))"))
        fail_msg("device '%s': not the host's as written", device);

    char row[512];
    int at, lines;
    double m, n, k, ms;
    snprintf(path, sizeof path, "%s/reference/gemm_perf.csv.gz", tables);
    first_row(path, row, sizeof row, &at, &lines);
    assert_int_equal(sscanf(row, "gemm,reference_cpu,float32,%lf,%lf,%lf,%lf", &m, &n, &k, &ms), 4);
    rl_hw h = load_hw(save, NULL, 0);
    const rl_serving_engine *e = rl_engines_selected(&h.engines);
    assert_non_null(e);
    assert_string_equal(e->name, "reference");
    assert_string_equal(e->measured_on, h.name);
    assert_string_equal(rl_hw_mode(&h, 1), "calibrated");
    assert_true(h.efficiency.present); /* norms, RoPE, adds keep their curves */
    double x[4] = {m, n, k, 0};
    rl_provenance p;
    double s = rl_engine_time(e, RL_KC_GEMM, rl_kvariant_gemm(RL_FP32, RL_FP32), x,
                              h.flops[RL_FP32], h.hbm_bw, &p);
    assert_int_equal(p, RL_PROV_MEASURED);
    assert_true(row_of_chain(path, n, k, s * 1e3));

    /* the same file plus a row of latency 0 (copied into bad/reference/) */
    char bad[256], cmd[4096];
    snprintf(bad, sizeof bad, "%s/bad/reference", dir);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && { zcat '%s'; echo 'gemm,reference_cpu,float32,8,64,"
             "64,0'; } | gzip > '%s/gemm_perf.csv.gz'", bad, path, bad);
    assert_int_equal(system(cmd), 0);
    snprintf(bad, sizeof bad, "%s/bad", dir);
    rl_silicon si;
    assert_int_equal(rl_silicon_import(bad, "reference", &h, 0, NULL, &si, err, sizeof err), -1);
    char want_err[160];
    snprintf(want_err, sizeof want_err, "gemm_perf.csv.gz: line %d, column 7 (latency): expected a "
             "positive", lines + 1);
    if (!strstr(err, want_err))
        fail_msg("error '%s' lacks '%s'", err, want_err);
    assert_int_equal(remove_tree(dir), 0);
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

/* A queued sample's fixed cost (calib.h rl_calib_fixed_cost), by its
 * definition: n calls and one synchronisation take n h + F, one call h + F.
 * Expected F = 10 us exactly (h 5 us at n = 13 and 8, h 50 us at n = 2, the
 * sizes calibrate's QUEUED_RUN_S gives such calls), tolerance 1e-9 relative
 * (rounding); a spike in one one-call time (+40 us) leaves the median; a
 * sample of one call (the cpu backend's) says nothing: 0.  Before stop 38
 * calibrate kept n h + F over n, F / n too much a call (2-3 us on an H200,
 * docs/validation.md "Stop 38"). */
static void test_fixed_cost(void **state)
{
    (void)state;
    double F = 10e-6, h[4] = {5e-6, 5e-6, 50e-6, 5e-6}, one[4], per[4];
    int calls[4] = {13, 8, 2, 13};
    for (int i = 0; i < 4; i++)
        one[i] = h[i] + F, per[i] = (calls[i] * h[i] + F) / calls[i];
    assert_rel(rl_calib_fixed_cost(one, per, calls, 3), F, 1e-9);
    one[3] += 40e-6; /* a spike: median of 10, 10, 10, 53.3 us */
    assert_rel(rl_calib_fixed_cost(one, per, calls, 4), F, 1e-9);
    /* what summarize keeps a call: per - F / n = h */
    assert_rel(per[0] - rl_calib_fixed_cost(one, per, calls, 4) / calls[0], h[0], 1e-9);
    int single[2] = {1, 1};
    assert_rel(rl_calib_fixed_cost(one, per, single, 2), 0, 0);
}

/* All or nothing (review22 #1): when the raw samples cannot be written (here
 * a folder stands at p.json; a full disk did the same), the older profile
 * stays as it was, no temporary is left beside it and the failure is a
 * write failure (io_failed: exit 1).  Before the mend the profile was
 * replaced and then unlinked: no profile at all.  The tables folder beside
 * it is as it was too: its older base.lua and gemm table back, the tables
 * the run added gone (before stop 23 they were written in place). */
static void test_calibrate_keeps_the_older_profile(void **state)
{
    (void)state;
    use_source_tree();
    char dir[] = "/tmp/rl_calk_XXXXXX", err[1024], save[64], json[64], buf[64] = "";
    assert_non_null(mkdtemp(dir));
    snprintf(save, sizeof save, "%s/p.lua", dir);
    snprintf(json, sizeof json, "%s/p.json", dir);
    FILE *f = fopen(save, "w");
    assert_non_null(f);
    fputs("-- OLD profile\n", f);
    fclose(f);
    assert_int_equal(mkdir(json, 0755), 0);
    /* the older tables the older profile reads (CLOSING22: they were
     * replaced in place before the failure) */
    char cmd[512];
    snprintf(cmd, sizeof cmd, "mkdir -p %s/p-tables/reference && echo '-- OLD base' > "
             "%s/p-tables/base.lua && echo 'old gemm' > %s/p-tables/reference/gemm_perf.csv.gz",
             dir, dir, dir);
    assert_int_equal(system(cmd), 0);
    int io = 0;
    rl_calib_opts o = {.backend = "cpu", .model = "tiny-test", .save = save, .quick = 1,
                       .threads = 1, .io_failed = &io};
    assert_null(rl_calibrate(&o, err, sizeof err));
    assert_non_null(strstr(err, "p.json"));
    assert_int_equal(io, 1);
    f = fopen(save, "r");
    assert_non_null(f);
    assert_non_null(fgets(buf, sizeof buf, f));
    fclose(f);
    assert_string_equal(buf, "-- OLD profile\n");
    snprintf(cmd, sizeof cmd, "ls -a %s | grep -q tmp", dir);
    assert_int_not_equal(system(cmd), 0); /* no temporary left */
    /* the tables folder as it was: the two older files, nothing new, no
     * undo folder */
    snprintf(cmd, sizeof cmd, "cd %s/p-tables && test \"$(find . -type f | sort | tr '\\n' ' ')\" = "
             "'./base.lua ./reference/gemm_perf.csv.gz ' && grep -qx -- '-- OLD base' base.lua && "
             "grep -qx 'old gemm' reference/gemm_perf.csv.gz && ! ls -a | grep -q undo", dir);
    if (system(cmd) != 0) {
        snprintf(cmd, sizeof cmd, "find %s/p-tables -type f", dir);
        assert_int_equal(system(cmd), 0);
        fail_msg("the tables folder changed");
    }
    assert_int_equal(remove_tree(dir), 0);
}

/* tester91 (#5): a calibration that fails after its tables were written (a
 * name too long for the profile's temporary; here a folder standing at
 * p.json, the raw samples' name) left the tables folder it had made, an
 * empty p-tables/reference/.  Nothing of the run stays: no p-tables, no
 * profile, no temporary. */
static void test_calibrate_failure_leaves_no_folder(void **state)
{
    (void)state;
    use_source_tree();
    char dir[] = "/tmp/rl_calf_XXXXXX", err[1024], save[64], path[96];
    assert_non_null(mkdtemp(dir));
    snprintf(save, sizeof save, "%s/p.lua", dir);
    snprintf(path, sizeof path, "%s/p.json", dir);
    assert_int_equal(mkdir(path, 0755), 0);
    int io = 0;
    rl_calib_opts o = {.backend = "cpu", .model = "tiny-test", .save = save, .quick = 1,
                       .threads = 1, .io_failed = &io};
    assert_null(rl_calibrate(&o, err, sizeof err));
    assert_int_equal(io, 1);
    snprintf(path, sizeof path, "%s/p-tables", dir);
    if (access(path, F_OK) == 0)
        fail_msg("the failed run left %s (%s)", path, err);
    assert_int_equal(access(save, F_OK), -1);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "test \"$(ls -A %s)\" = p.json", dir); /* only the test's folder */
    assert_int_equal(system(cmd), 0);
    assert_int_equal(remove_tree(dir), 0);
}

/* The smallest count of bytes other runs read between two reads of the
 * same rotation memory, over calibrate's full grid for tiny-ref in its
 * order (calibrate.c build_grid: GEMMs over the five weight shapes, M = 1 ..
 * 2048, the LM head to 32; then decode attention, B in {1, 4, 16, 32} x S in
 * {129, 513, 2049, 4097}, a unit one K (or V) page set: B x ceil(S / 16)
 * pages of 16 x 4 x 64 floats), three passes, each bench `takes` times (a
 * warm-up and 3 to 8 samples), through arenas of `bytes`. */
static double least_reuse(size_t bytes, int takes)
{
    size_t units[64];
    int n = 0;
    size_t shapes[5][2] = {{1024, 1024}, {256, 1024}, {2816, 1024}, {1024, 2816}, {8192, 1024}};
    int Ms[] = {1, 2, 4, 8, 16, 32, 128, 512, 2048}, Bs[] = {1, 4, 16, 32}, Ss[] = {129, 513, 2049, 4097};
    for (int i = 0; i < 5; i++)
        for (int m = 0; m < 9; m++)
            if (i < 4 || Ms[m] <= 32)
                units[n++] = shapes[i][0] * shapes[i][1] * 4;
    for (int b = 0; b < 4; b++)
        for (int j = 0; j < 4; j++)
            units[n++] = (size_t)Bs[b] * ((Ss[j] + 15) / 16) * 16 * 4 * 64 * 4;
    enum { MAXT = 3 * 64 * 9 };
    static size_t at[MAXT], len[MAXT];
    static double before[MAXT];
    rl_calib_rotation r = {{NULL, NULL}, bytes, 0};
    double taken = 0, least = INFINITY;
    int t = 0;
    for (int pass = 0; pass < 3; pass++)
        for (int i = 0; i < n; i++)
            for (int k = 0; k < takes; k++, t++) {
                at[t] = rl_calib_rotation_take(&r, units[i], i < n - 16 ? 4096 : 16384), len[t] = units[i], before[t] = taken;
                assert_true(at[t] + len[t] <= bytes);
                for (int p = t - 1; p >= 0; p--)
                    if (at[p] < at[t] + len[t] && at[t] < at[p] + len[p]) { /* last read */
                        least = fmin(least, before[t] - before[p] - (double)len[p]);
                        break;
                    }
                taken += (double)units[i];
            }
    return least;
}

/* Stop 27: every weight copy and K/V page set calibrate reads has had at
 * least RL_CALIB_REUSE_BYTES (128 MiB, 4x the 32 MiB LLC) of other reads
 * since it was last read, so it comes from DRAM, as the engine's do (its
 * decode attention ran as fast as with every K/V line flushed first:
 * docs/validation.md).  The arenas of 256 MiB before it left the largest
 * unit, 128.5 MiB of K pages at B = 32, S = 4097, no room for a second one:
 * each run read the same memory again with nothing between (expected 0). */
static void test_rotation_reads_from_dram(void **state)
{
    (void)state;
    size_t largest = (size_t)32 * 257 * 16 * 4 * 64 * 4; /* 128.5 MiB */
    size_t bytes = rl_calib_rotation_bytes(largest);
    assert_true(bytes == RL_CALIB_REUSE_BYTES + 2 * largest); /* 385 MiB */
    for (int takes = 4; takes <= 9; takes += 5)
        assert_true(least_reuse(bytes, takes) >= (double)RL_CALIB_REUSE_BYTES);
    assert_true(least_reuse((size_t)256 << 20, 9) == 0); /* the arena before */
    assert_true(rl_calib_rotation_bytes(1 << 20) == (size_t)256 << 20); /* small units: 256 MiB */
}

/* tester63 #8: validate --backend cpu refuses a profile measured with
 * other --threads (exit 2, nothing run; "profile and engine runs must
 * match" in the help ran without a word): the count is read from the
 * engine's source as calibrate writes it ("DEVICE (cpu backend, N
 * thread(s))", or "every core"), none from a source that does not say;
 * a matching count, another backend, or an unsaid count pass.  A profile
 * measured on every core is matched by no --threads the command line takes
 * (1 to 1024): its message offers recalibrating alone (review52: it said
 * "give --threads 1", which is refused the same way). */
static void test_validate_threads_must_match(void **state)
{
    (void)state;
    static const char *const src[] = {
        "roofline calibrate --backend cpu on x (1 thread(s)); device 'x (cpu backend, 1 thread(s))'",
        "roofline calibrate --backend cpu on x (every core); device 'x (cpu backend, every core)'",
        "imported tables"};
    const int want[] = {1, 0, -1};
    for (int k = 0; k < 3; k++) {
        char path[64], text[512], err[1024];
        snprintf(text, sizeof text, "return { base = \"h100-sxm\", name = \"t63cpu\", engines = "
                 "{ default = \"reference\", reference = { source = \"%s\", measured_on = "
                 "\"t63cpu\" } } }\n", src[k]);
        write_temp(path, ".lua", text);
        rl_hw h;
        assert_int_equal(rl_hw_load(path, NULL, 0, &h, err, sizeof err), 0);
        assert_int_equal(rl_calib_profile_threads(&h), want[k]);
        assert_int_equal(rl_calib_check_threads(&h, "cpu", want[k] > 0 ? want[k] : 4, err,
                                                sizeof err), want[k] == 1 ? 0 : want[k] ? 0 : -1);
        assert_int_equal(rl_calib_check_threads(&h, "cuda", 2, err, sizeof err), 0);
        if (k == 1) { /* every core: no --threads matches, so none is offered (review52) */
            if (!strstr(err, "with every core") ||
                !strstr(err, "must match: calibrate again with --threads 4; nothing run") ||
                strstr(err, "give --threads"))
                fail_msg("%s", err);
        }
        if (k == 0) {
            assert_int_equal(rl_calib_check_threads(&h, "cpu", 2, err, sizeof err), -1);
            if (!strstr(err, "--threads 2: ") || !strstr(err, "with 1 thread(s)") ||
                !strstr(err, "give --threads 1, or calibrate again with --threads 2"))
                fail_msg("%s", err);
            char cmd[256];
            snprintf(cmd, sizeof cmd, "validate --backend cpu --quick --passes 1 --profile %s "
                     "--threads 2", path);
            static char out[8192];
            assert_int_equal(run_cli(cmd, out, sizeof out), 2);
            if (!strstr(out, "profile and engine runs must match") || strstr(out, "pass 1/1"))
                fail_msg("%s", out);
        }
        unlink(path);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quantile),
        cmocka_unit_test(test_fixed_cost),
        cmocka_unit_test(test_rotation_reads_from_dram),
        cmocka_unit_test(test_calibrate_then_validate),
        cmocka_unit_test(test_validate_threads_must_match),
        cmocka_unit_test(test_calibrate_writes_kernel_tables),
        cmocka_unit_test(test_calibrate_keeps_the_older_profile),
        cmocka_unit_test(test_calibrate_failure_leaves_no_folder),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
