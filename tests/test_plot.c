/* test_plot.c — figure files: data + script always, PNG/SVG through gnuplot
 * written atomically, a clear status when gnuplot is missing. */
#include "testutil.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "calib.h"
#include "memory.h"
#include "plot.h"
#include "step.h"

static const rl_precision BF16 = {RL_BF16, RL_BF16, RL_BF16};

static int have_gnuplot(void) { return system("command -v gnuplot >/dev/null 2>&1") == 0; }

static void make_dir(char *dir)
{
    snprintf(dir, 64, "/tmp/rl_plot_XXXXXX");
    assert_non_null(mkdtemp(dir));
}

/* A fresh folder in dir with PATH set to it (empty: no gnuplot, so a
 * figure call writes its data and script only); returns the old PATH for
 * path_back. */
static char *without_gnuplot(char *dir)
{
    use_source_tree();
    make_dir(dir);
    char *old = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
    setenv("PATH", dir, 1);
    return old;
}

static void path_back(char *old)
{
    setenv("PATH", old, 1);
    free(old);
}

static long file_size(const char *dir, const char *name)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    struct stat st;
    return stat(p, &st) == 0 ? (long)st.st_size : -1;
}

/* No "NAME.tmp.XXXXXX" is left behind; removes the directory's files. */
static void check_no_temp_and_clean(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (strstr(e->d_name, ".tmp."))
            fail_msg("temporary file left behind: %s/%s", dir, e->d_name);
        char p[512];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        unlink(p);
    }
    closedir(d);
    rmdir(dir);
}

static void read_head(const char *path, unsigned char *buf, size_t n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fread(buf, 1, n, f), n);
    fclose(f);
}

/* PNG and SVG from the frontier template; the PNG starts with the PNG
 * signature (89 50 4E 47), the SVG holds "<svg". */
/* A rendering test's start: skipped without gnuplot, else a fresh dir[64]
 * and two frontier points (8 chips at batch 1 and 64) into pts[2]. */
static void pareto_fixture(char *dir, rl_sweep_point *pts)
{
    if (!have_gnuplot()) {
        print_message("gnuplot not installed: skipping the rendering check\n");
        skip();
    }
    use_source_tree();
    make_dir(dir);
    pts[0] = (rl_sweep_point){.chips = 8, .batch = 1, .step_s = 5e-3, .chip_s_per_token = 4e-2};
    pts[1] = (rl_sweep_point){.chips = 8, .batch = 64, .step_s = 9e-3, .chip_s_per_token = 1.1e-3};
}

static void test_pareto_png_svg(void **state)
{
    (void)state;
    char dir[64], out[128], err[512];
    rl_sweep_point pts[2];
    pareto_fixture(dir, pts);
    rl_plot_series s = {"test series", pts, 2};
    snprintf(out, sizeof out, "%s/front.png", dir);
    assert_int_equal(rl_plot_pareto(AT_FDCWD, out, "test", &s, 1, 0, err, sizeof err), 0);
    unsigned char sig[4];
    read_head(out, sig, 4);
    assert_memory_equal(sig, "\x89PNG", 4);
    assert_true(file_size(dir, "front.dat") > 0);
    assert_true(file_size(dir, "front.gp") > 0);
    snprintf(out, sizeof out, "%s/front.svg", dir);
    assert_int_equal(rl_plot_pareto(AT_FDCWD, out, "test", &s, 1, 0, err, sizeof err), 0);
    char head[512] = {0};
    FILE *f = fopen(out, "r");
    assert_non_null(f);
    assert_true(fread(head, 1, sizeof head - 1, f) > 0);
    fclose(f);
    assert_non_null(strstr(head, "<svg"));
    check_no_temp_and_clean(dir);
}

/* User text cannot break out of a gnuplot string: a newline followed by
 * `!cmd` (gnuplot's shell escape) in a title or series name is made a
 * space, so the command never runs.  An empty frontier is refused before
 * anything is written. */
static void test_title_injection(void **state)
{
    (void)state;
    if (!have_gnuplot())
        skip();
    use_source_tree();
    char dir[64], out[128], err[512], marker[160], title[256];
    make_dir(dir);
    snprintf(marker, sizeof marker, "%s/PWNED", dir);
    snprintf(title, sizeof title, "x\n!touch %s\n", marker);
    rl_sweep_point pts[1] = {{.chips = 8, .batch = 1, .step_s = 5e-3, .chip_s_per_token = 4e-2}};
    rl_plot_series s = {title, pts, 1};
    snprintf(out, sizeof out, "%s/front.png", dir);
    assert_int_equal(rl_plot_pareto(AT_FDCWD, out, title, &s, 1, 0, err, sizeof err), 0);
    assert_int_equal(access(marker, F_OK), -1);
    rl_plot_series empty = {"none", pts, 0};
    snprintf(out, sizeof out, "%s/empty.png", dir);
    assert_int_equal(rl_plot_pareto(AT_FDCWD, out, "t", &empty, 1, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "with points"));
    assert_int_equal(file_size(dir, "empty.dat"), -1);
    check_no_temp_and_clean(dir);
}

/* Without gnuplot on PATH: RL_PLOT_NO_GNUPLOT, the .dat and .gp kept, no
 * figure and no temporary file. */
static void test_missing_gnuplot(void **state)
{
    (void)state;
    char dir[64], out[128], err[512];
    char *old = without_gnuplot(dir);
    snprintf(out, sizeof out, "%s/mem.png", dir);
    rl_model m = load_model("llama3-8b", NULL, 0);
    rl_hw h = load_hw("tpu-v5e", NULL, 0);
    long long batch[] = {1, 8, 64};
    int rc = rl_plot_memory(AT_FDCWD, out, NULL, &m, &h, 4, BF16, 2048, batch, 3, err, sizeof err);
    path_back(old);
    assert_int_equal(rc, RL_PLOT_NO_GNUPLOT);
    assert_non_null(strstr(err, "gnuplot not found"));
    assert_true(file_size(dir, "mem.dat") > 0);
    assert_true(file_size(dir, "mem.gp") > 0);
    assert_int_equal(file_size(dir, "mem.png"), -1);
    check_no_temp_and_clean(dir);
}

/* A given title is each model figure's plottitle; none keeps the figure's
 * own (tester17 F2: roofline.plot's title reached the pareto figure only). */
static void test_model_figure_title(void **state)
{
    (void)state;
    char dir[64], out[128], err[512];
    char *old = without_gnuplot(dir); /* the .gp is written before gnuplot is looked for */
    rl_model m = load_model("llama3-8b", NULL, 0);
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    long long ctx = 2048, batch[] = {1, 8};
    snprintf(out, sizeof out, "%s/s.svg", dir);
    rl_plot_step_breakdown(AT_FDCWD, out, "My step", &m, &h, 1, BF16, &ctx, 1, batch, 2, err, sizeof err);
    snprintf(out, sizeof out, "%s/r.svg", dir);
    rl_plot_roofline(AT_FDCWD, out, "My roofline", &m, &h, BF16, batch, 2, ctx, err, sizeof err);
    snprintf(out, sizeof out, "%s/m.svg", dir);
    rl_plot_memory(AT_FDCWD, out, "My memory", &m, &h, 1, BF16, ctx, batch, 2, err, sizeof err);
    snprintf(out, sizeof out, "%s/d.svg", dir);
    rl_plot_memory(AT_FDCWD, out, "", &m, &h, 1, BF16, ctx, batch, 2, err, sizeof err);
    path_back(old);
    assert_file_contains(dir, "s.gp", "plottitle = 'My step'\n");
    assert_file_contains(dir, "r.gp", "plottitle = 'My roofline'\n");
    assert_file_contains(dir, "m.gp", "plottitle = 'My memory'\n");
    assert_file_contains(dir, "d.gp", "plottitle = 'llama3-8b on 1 x h100-sxm: HBM use");
    check_no_temp_and_clean(dir);
}

/* fixIL #4: roofline.plot{kind="pareto"} without a title drew an empty
 * one; now the CLI's words with the points' shared context and the curves'
 * titles (exact strings); a mixed or absent context leaves S out. */
static void test_pareto_default_title(void **state)
{
    (void)state;
    char dir[64], out[128], err[512];
    char *old = without_gnuplot(dir); /* the .gp is written before gnuplot is looked for */
    rl_sweep_point pts[2] = {
        {.chips = 8, .batch = 1, .context = 4096, .step_s = 5e-3, .chip_s_per_token = 4e-2},
        {.chips = 8, .batch = 64, .context = 4096, .step_s = 9e-3, .chip_s_per_token = 1.1e-3}};
    rl_plot_series s[2] = {{"bf16", pts, 1}, {"int8", pts + 1, 1}};
    snprintf(out, sizeof out, "%s/a.svg", dir);
    rl_plot_pareto(AT_FDCWD, out, "", s, 2, 0, err, sizeof err);
    pts[1].context = 2048;
    s[1].title = "";
    snprintf(out, sizeof out, "%s/b.svg", dir);
    rl_plot_pareto(AT_FDCWD, out, NULL, s, 2, 0, err, sizeof err);
    path_back(old);
    assert_file_contains(dir, "a.gp",
                         "plottitle = 'latency vs cost frontier (S = 4096): bf16, int8'\n");
    assert_file_contains(dir, "b.gp", "plottitle = 'latency vs cost frontier: bf16'\n");
    check_no_temp_and_clean(dir);
}

/* tester77 #5: roofline.plot{kind="pareto", series={p}} with no series
 * title drew an empty key box.  The .gp now says haskey = 0 (1 with a
 * title) and the template unsets the key: rendered, the untitled SVG has
 * fewer paths than the titled one (no key box, no sample line). */
static int svg_paths(const char *dir, const char *name)
{
    char *t = slurp_in(dir, name);
    int n = 0;
    for (const char *at = t; (at = strstr(at, "<path")) != NULL; at++)
        n++;
    free(t);
    return n;
}

static void test_pareto_no_key_without_titles(void **state)
{
    (void)state;
    char dir[64], out[128], err[512];
    rl_sweep_point pts[2];
    pareto_fixture(dir, pts);
    rl_plot_series s = {"", pts, 2};
    snprintf(out, sizeof out, "%s/bare.svg", dir);
    assert_int_equal(rl_plot_pareto(AT_FDCWD, out, "t", &s, 1, 0, err, sizeof err), 0);
    s.title = "bf16";
    snprintf(out, sizeof out, "%s/keyed.svg", dir);
    assert_int_equal(rl_plot_pareto(AT_FDCWD, out, "t", &s, 1, 0, err, sizeof err), 0);
    assert_file_contains(dir, "bare.gp", "\nhaskey = 0\n");
    assert_file_contains(dir, "keyed.gp", "\nhaskey = 1\n");
    int bare = svg_paths(dir, "bare.svg"), keyed = svg_paths(dir, "keyed.svg");
    if (!(bare > 0 && bare < keyed))
        fail_msg("paths: %d untitled, %d titled", bare, keyed);
    check_no_temp_and_clean(dir);
}

/* The numeric text labels of an SVG gnuplot wrote ("<tspan ...>12.5<")
 * that lie in [lo, hi]. */
static int svg_labels_in(const char *dir, const char *name, double lo, double hi)
{
    char *t = slurp_in(dir, name);
    int n = 0;
    for (const char *at = t; (at = strstr(at, "<tspan")) != NULL; at++) {
        const char *gt = strchr(at, '>');
        char *end;
        double v = gt ? strtod(gt + 1, &end) : 0;
        if (gt && end > gt + 1 && *end == '<' && v >= lo && v <= hi)
            n++;
    }
    free(t);
    return n;
}

/* fixNE #10: a frontier spanning 12.3-15.9 ms and 0.52-0.9 chip-ms per
 * token drew one x tic (15) and one y tic (0.5) on its log axes, from the
 * listed tics.  An axis under a decade is now linear with gnuplot's own
 * tics: rendered by real gnuplot to SVG (and PNG), at least 3 labelled
 * tics lie on each axis (12.5 ... 16 and 0.5 ... 0.9 with gnuplot 5.4); a
 * frontier over 1.3-150 ms keeps its log axis and the listed tics (1.5 2 3
 * ... 150, at least 3). */
static void test_pareto_narrow_span_ticks(void **state)
{
    (void)state;
    char dir[64], out[128], err[512];
    rl_sweep_point pts[3];
    pareto_fixture(dir, pts);
    pts[0] = (rl_sweep_point){.chips = 8, .batch = 1, .step_s = 12.3e-3, .chip_s_per_token = 5.2e-4};
    pts[1] = (rl_sweep_point){.chips = 8, .batch = 8, .step_s = 14e-3, .chip_s_per_token = 6.1e-4};
    pts[2] = (rl_sweep_point){.chips = 8, .batch = 64, .step_s = 15.9e-3, .chip_s_per_token = 9e-4};
    rl_plot_series s = {"", pts, 3};
    snprintf(out, sizeof out, "%s/narrow.png", dir);
    assert_int_equal(rl_plot_pareto(AT_FDCWD, out, "t", &s, 1, 0, err, sizeof err), 0);
    snprintf(out, sizeof out, "%s/narrow.svg", dir);
    assert_int_equal(rl_plot_pareto(AT_FDCWD, out, "t", &s, 1, 0, err, sizeof err), 0);
    int x = svg_labels_in(dir, "narrow.svg", 11, 17), y = svg_labels_in(dir, "narrow.svg", 0.4, 1);
    if (x < 3 || y < 3)
        fail_msg("12.3-15.9 ms, 0.52-0.9 chip-ms: %d x tics, %d y tics (at least 3 each)", x, y);
    pts[2].step_s = 150e-3;
    pts[2].chip_s_per_token = 2e-2;
    snprintf(out, sizeof out, "%s/wide.svg", dir);
    assert_int_equal(rl_plot_pareto(AT_FDCWD, out, "t", &s, 1, 0, err, sizeof err), 0);
    assert_file_contains(dir, "wide.svg", "log scale");
    x = svg_labels_in(dir, "wide.svg", 10, 160);
    if (x < 3)
        fail_msg("12.3-150 ms: %d x tics (at least 3)", x);
    check_no_temp_and_clean(dir);
}

/* tester50 F16: the memory figure's largest-batch marker stood at the
 * usable memory of h100-sxm's default engine (trtllm: KV <= 0.9 x free HBM)
 * below the only drawn limit, HBM capacity 86 GB.  Now the .gp carries
 * `usable` (rl_memory_usable, GB) and its rule's label, and draws it:
 * llama3-8b at S = 2048 on 1 x h100-sxm, 78.3 GB since the rule charges its
 * activation workspace, 0.64 GB (memory.h rl_memory_workspace; 78.9 GB and
 * batch 234 before) (the batch that fits, 232, lies under it and 233 over
 * it: exact arithmetic, no tolerance); tpu-v5e
 * has no engine rule and no reserve: usable = -1, nothing more drawn. */
static void test_memory_usable_line(void **state)
{
    (void)state;
    char dir[64], out[128], err[512], want[128];
    char *old = without_gnuplot(dir);
    rl_model m = load_model("llama3-8b", NULL, 0);
    rl_hw h = load_hw("h100-sxm", NULL, 0), v = load_hw("tpu-v5e", NULL, 0);
    long long batch[] = {1, 512};
    snprintf(out, sizeof out, "%s/h.svg", dir);
    rl_plot_memory(AT_FDCWD, out, NULL, &m, &h, 1, BF16, 2048, batch, 2, err, sizeof err);
    snprintf(out, sizeof out, "%s/v.svg", dir);
    rl_plot_memory(AT_FDCWD, out, NULL, &m, &v, 1, BF16, 2048, batch, 2, err, sizeof err);
    path_back(old);
    rl_memory u = rl_memory_use(&m, &h, 1, 0, 2048, RL_BF16, RL_BF16);
    double kv = rl_memory_use(&m, &h, 1, 1, 2048, RL_BF16, RL_BF16).kv_bytes;
    assert_int_equal(rl_memory_max_batch(&m, &h, 1, 2048, RL_BF16, RL_BF16), 232);
    assert_true(u.weight_bytes + 232 * kv <= u.capacity_bytes);
    assert_true(u.weight_bytes + 233 * kv > u.capacity_bytes);
    assert_true(u.capacity_bytes > 78.3e9 && u.capacity_bytes < 78.4e9);
    snprintf(want, sizeof want, "usable = %.6g\n", u.capacity_bytes / 1e9);
    assert_file_contains(dir, "h.gp", want);
    assert_file_contains(dir, "h.gp", "usablelabel = 'usable under trtllm''s rule (KV <= 0.9 x "
                                      "free HBM)'\n");
    assert_file_contains(dir, "h.gp", "@usableline");
    /* fixGI #6: the key stood inside, top left, over the capacity and usable
     * lines near the top (viewed: the 8 x h100 figure's 687 and 629.6 GB);
     * it sits below the axes in a bottom margin kept for it */
    assert_file_contains(dir, "h.gp", "set bmargin 10\nset key at screen 0.5, screen 0.012 "
                                      "center bottom");
    assert_file_contains(dir, "v.gp", "usable = -1\n");
    check_no_temp_and_clean(dir);
}

/* tester63 #11: llama3-70b's bf16 weights (141.1 GB: 70.55e9 parameters x
 * 2 bytes, exact to the printed 0.1 GB) on 1 x h100-sxm exceed what
 * trtllm's rule leaves them (85.9 GB), and the figure drew "usable ...:
 * 85.9 GB" with no word of it, where step says fits false, max_batch 0.
 * Expected: the label and the title say "does not fit"; llama3-8b (16.1
 * GB) on the same chip says nothing of the kind. */
static void test_memory_weights_over(void **state)
{
    (void)state;
    char dir[64], out[128], err[512];
    char *old = without_gnuplot(dir);
    rl_model big = load_model("llama3-70b", NULL, 0), small = load_model("llama3-8b", NULL, 0);
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    long long batch[] = {1, 8};
    snprintf(out, sizeof out, "%s/big.svg", dir);
    rl_plot_memory(AT_FDCWD, out, NULL, &big, &h, 1, BF16, 2048, batch, 2, err, sizeof err);
    snprintf(out, sizeof out, "%s/small.svg", dir);
    rl_plot_memory(AT_FDCWD, out, NULL, &small, &h, 1, BF16, 2048, batch, 2, err, sizeof err);
    path_back(old);
    assert_int_equal(rl_memory_max_batch(&big, &h, 1, 2048, RL_BF16, RL_BF16), 0);
    assert_file_contains(dir, "big.gp", "usablelabel = 'does not fit: the weights (141.1 GB) exceed "
                                        "what is usable under trtllm''s rule (KV <= 0.9 x free "
                                        "HBM)'\n");
    assert_file_contains(dir, "big.gp", "(weights bf16, KV bf16): does not fit'\n");
    assert_file_contains(dir, "small.gp", "usablelabel = 'usable under trtllm''s rule");
    assert_file_contains(dir, "small.gp", "(weights bf16, KV bf16)'\n");
    check_no_temp_and_clean(dir);
}

/* tester39 F7: a quote in a figure's name was refused as "must be shorter
 * than 4064 bytes" (the name was 10 bytes) and the .gp's rerun comment left
 * the name unquoted, so "$(touch pwned).png" pasted into a shell ran the
 * substitution.  Now a quote is taken: the .gp names the figure in
 * gnuplot's single quotes with the quote doubled and the rerun hint is a
 * shell word ('q'\''uote.gp'); a control character is refused with its
 * own reason, and a long path with the length. */
static void test_quoted_names(void **state)
{
    (void)state;
    char dir[64], out[256], err[512];
    char *old = without_gnuplot(dir);
    rl_model m = load_model("llama3-8b", NULL, 0);
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    long long batch[] = {1, 8};
    snprintf(out, sizeof out, "%s/q'uote.svg", dir);
    int rc = rl_plot_memory(AT_FDCWD, out, NULL, &m, &h, 1, BF16, 2048, batch, 2, err, sizeof err);
    snprintf(out, sizeof out, "%s/$(touch pwned).svg", dir);
    int rc2 = rl_plot_memory(AT_FDCWD, out, NULL, &m, &h, 1, BF16, 2048, batch, 2, err, sizeof err);
    path_back(old);
    assert_int_equal(rc, RL_PLOT_NO_GNUPLOT);
    assert_int_equal(rc2, RL_PLOT_NO_GNUPLOT);
    assert_file_contains(dir, "q'uote.gp", "Rerun in this folder: gnuplot 'q'\\''uote.gp'\n");
    assert_file_contains(dir, "q'uote.gp", "outfile = 'q''uote.svg'\n");
    assert_file_contains(dir, "q'uote.gp", "datafile = 'q''uote.dat'\n");
    assert_file_contains(dir, "$(touch pwned).gp", "gnuplot '$(touch pwned).gp'\n");
    check_no_temp_and_clean(dir);
    assert_int_equal(rl_plot_check_path("a\tb.png", err, sizeof err), -1);
    assert_non_null(strstr(err, "control character"));
    static char big[5000];
    memset(big, 'a', sizeof big);
    memcpy(big + sizeof big - 5, ".png", 5);
    assert_int_equal(rl_plot_check_path(big, err, sizeof err), -1);
    assert_non_null(strstr(err, "shorter than"));
    assert_int_equal(rl_plot_check_path("it's/q\"x.png", err, sizeof err), 0);
}

/* fixRD #4: a figure's extension is taken in any case (--plot f.PNG was
 * refused: "figure name must be NAME.png or NAME.svg"); validate's second
 * figure keeps the case given. */
static void test_extension_any_case(void **state)
{
    (void)state;
    char err[256], steps[64];
    static const char *const ok[] = {"f.PNG", "f.Png", "f.SVG", "d/f.svg"};
    for (int i = 0; i < 4; i++)
        if (rl_plot_check_path(ok[i], err, sizeof err) != 0)
            fail_msg("%s refused: %s", ok[i], err);
    assert_int_equal(rl_plot_check_path("f.GIF", err, sizeof err), -1);
    assert_non_null(strstr(err, "figure name must be NAME.png or NAME.svg"));
    rl_validate_steps_plot("v.PNG", steps, sizeof steps);
    assert_string_equal(steps, "v-steps.PNG");
}

/* The step figure's data are formula (1)'s terms: the first row at S = 8192
 * for LLaMA-2-13B on 8 v5e (8.2e11 B/s) is B = 1 with step 4.98 ms (seed 000
 * section 1 MHA table; 0.5% as in the scenario test). */
static void test_step_data(void **state)
{
    (void)state;
    char dir[64], out[128], err[512], dat[160];
    char *old = without_gnuplot(dir); /* data only: no need to render */
    snprintf(out, sizeof out, "%s/step.svg", dir);
    rl_override mo[] = {{"max_context", "8192"}};
    rl_model m = load_model("llama2-13b", mo, 1);
    rl_override ho[] = {{"hbm_bw", "8.2e11"}};
    rl_hw h = load_hw("tpu-v5e", ho, 1);
    long long ctx = 8192, batch[] = {1, 8};
    int rc = rl_plot_step_breakdown(AT_FDCWD, out, NULL, &m, &h, 8, BF16, &ctx, 1, batch, 2, err, sizeof err);
    path_back(old);
    assert_int_equal(rc, RL_PLOT_NO_GNUPLOT);
    snprintf(dat, sizeof dat, "%s/step.dat", dir);
    FILE *f = fopen(dat, "r");
    assert_non_null(f);
    char line[256];
    long long b = 0;
    double w, kv, fl, st = 0;
    while (fgets(line, sizeof line, f))
        if (line[0] != '#' && sscanf(line, "%lld %lf %lf %lf %lf", &b, &w, &kv, &fl, &st) == 5)
            break;
    fclose(f);
    assert_int_equal(b, 1);
    /* the book's 4.98 ms less the embedding table our step gathers one row
     * of (test_scenarios test_llama2_13b_tables) */
    assert_rel(st, 4.98 - 31999.0 * 5120 * 2 / (8 * 8.2e11) * 1e3, 0.005);
    check_no_temp_and_clean(dir);
}

/* The step figure carries the step's fifth term, attention_compute_s (the
 * attention kernels' FLOP time beyond their KV read, stop 28 fixR; it was
 * missing, so the drawn terms did not add up to the step for MLA): a sixth
 * data column and its curve in the script.  DeepSeek-V3 fp8 on 8 H200,
 * S = 4096, B = 64: 0.0832 ms, `step --ideal`'s attention_compute_s
 * (8.32038e-05 s), to 1e-5 (the data's %.6g); and step = kv + attention +
 * max(weights, matmul FLOPs) to 1e-5 (step.h).  A GQA model's attention
 * stays under its KV read: hasattn = 0, its curve not drawn. */
static void test_step_attention_term(void **state)
{
    (void)state;
    char dir[64], out[128], err[512], dat[160];
    char *old = without_gnuplot(dir); /* data only: no need to render */
    rl_model m = load_model("deepseek-v3", NULL, 0);
    rl_hw h = load_hw("h200", NULL, 0);
    rl_precision fp8 = {RL_FP8, RL_BF16, RL_BF16};
    long long ctx = 4096, batch[] = {64};
    snprintf(out, sizeof out, "%s/ds.svg", dir);
    int rc = rl_plot_step_breakdown(AT_FDCWD, out, NULL, &m, &h, 8, fp8, &ctx, 1, batch, 1, err,
                                    sizeof err);
    rl_model g = load_model("llama3-8b", NULL, 0);
    snprintf(out, sizeof out, "%s/g.svg", dir);
    int rcg = rl_plot_step_breakdown(AT_FDCWD, out, NULL, &g, &h, 1, BF16, &ctx, 1, batch, 1, err,
                                     sizeof err);
    path_back(old);
    assert_int_equal(rc, RL_PLOT_NO_GNUPLOT);
    assert_int_equal(rcg, RL_PLOT_NO_GNUPLOT);
    assert_file_contains(dir, "ds.gp", "hasattn = 1\n");
    assert_file_contains(dir, "ds.gp", "title 'attention FLOPs beyond KV, '");
    assert_file_contains(dir, "g.gp", "hasattn = 0\n");
    snprintf(dat, sizeof dat, "%s/ds.dat", dir);
    FILE *f = fopen(dat, "r");
    assert_non_null(f);
    char line[256];
    long long b = 0;
    double w = 0, kv = 0, fl = 0, st = 0, at = -1;
    while (fgets(line, sizeof line, f))
        if (line[0] != '#' &&
            sscanf(line, "%lld %lf %lf %lf %lf %lf", &b, &w, &kv, &fl, &st, &at) == 6)
            break;
    fclose(f);
    assert_int_equal(b, 64);
    assert_rel(at, 8.32038e-2, 1e-5);
    assert_rel(st, kv + at + (w > fl ? w : fl), 1e-5);
    check_no_temp_and_clean(dir);
}

/* A figure that is a symbolic link to a regular file (fixKJ A: --plot-dir
 * replaced the link with a file, the target unchanged, while --save and
 * --report wrote through): named from the working directory (the command
 * line: dir AT_FDCWD), the figure is written through, the link kept and
 * its target replaced; inside an open folder (a run's --out, confined) a
 * link is refused, the target untouched. */
static void test_figure_link_written_through(void **state)
{
    (void)state;
    if (!have_gnuplot())
        skip();
    use_source_tree();
    char dir[64], err[512], target[160], link[200], out[200];
    make_dir(dir);
    snprintf(target, sizeof target, "%s.target.svg", dir);
    FILE *f = fopen(target, "w");
    assert_non_null(f);
    fputs("old\n", f);
    fclose(f);
    snprintf(link, sizeof link, "%s/fig.svg", dir);
    assert_int_equal(symlink(target, link), 0);
    rl_sweep_point pts[1] = {{.chips = 8, .batch = 1, .step_s = 5e-3, .chip_s_per_token = 4e-2}};
    rl_plot_series s = {"s", pts, 1};
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    assert_true(fd >= 0);
    assert_true(rl_plot_pareto(fd, "fig.svg", "t", &s, 1, 0, err, sizeof err) < 0);
    assert_non_null(strstr(err, "symbolic link"));
    struct stat st;
    assert_int_equal(stat(target, &st), 0);
    assert_int_equal((long)st.st_size, 4); /* "old\n": untouched */
    snprintf(out, sizeof out, "%s/fig.svg", dir);
    if (rl_plot_pareto(AT_FDCWD, out, "t", &s, 1, 0, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode)); /* the link kept ... */
    assert_int_equal(stat(target, &st), 0);
    assert_true(st.st_size > 1000); /* ... its target the figure */
    close(fd);
    unlink(target);
    check_no_temp_and_clean(dir);
}

/* Links planted in the output folder (issue 16: fig.dat and fig.gp pointing
 * elsewhere were overwritten, then gnuplot ran the planted script): the data
 * and script are refused, the targets untouched, no figure made, and the
 * planted script never runs even where the .gp is a regular file the
 * attacker wrote (gnuplot reads the script from roofline, not the folder). */
static void test_planted_links(void **state)
{
    (void)state;
    use_source_tree();
    char dir[64], err[512], victim[160], marker[160], p[200];
    make_dir(dir);
    snprintf(victim, sizeof victim, "%s.victim", dir);
    FILE *f = fopen(victim, "w");
    assert_non_null(f);
    fputs("precious\n", f);
    fclose(f);
    rl_sweep_point pts[1] = {{.chips = 8, .batch = 1, .step_s = 5e-3, .chip_s_per_token = 4e-2}};
    rl_plot_series s = {"s", pts, 1};
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    assert_true(fd >= 0);
    const char *names[] = {"fig.dat", "fig.gp"};
    for (int i = 0; i < 2; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        assert_int_equal(symlink(victim, p), 0);
        assert_int_equal(rl_plot_pareto(fd, "fig.png", "t", &s, 1, 0, err, sizeof err), -1);
        if (!strstr(err, names[i]) || !strstr(err, "symbolic link"))
            fail_msg("refusal does not name the link %s: %s", names[i], err);
        assert_int_equal(file_size(dir, "fig.png"), -1);
        unlink(p);
    }
    f = fopen(victim, "r");
    char line[32] = "";
    assert_non_null(fgets(line, sizeof line, f));
    fclose(f);
    assert_string_equal(line, "precious\n");
    /* a planted regular fig.gp is never run, nor replaced (tester7 #11:
     * side files roofline did not write are someone's): refused, naming it */
    snprintf(marker, sizeof marker, "%s.PWNED", dir);
    snprintf(p, sizeof p, "%s/fig.gp", dir);
    f = fopen(p, "w");
    assert_non_null(f);
    fprintf(f, "system('touch %s')\n", marker);
    fclose(f);
    long planted = file_size(dir, "fig.gp");
    assert_int_equal(rl_plot_pareto(fd, "fig.png", "t", &s, 1, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "fig.gp: exists and was not written by roofline"));
    assert_int_equal(access(marker, F_OK), -1);
    assert_int_equal(file_size(dir, "fig.gp"), planted);
    assert_int_equal(file_size(dir, "fig.png"), -1);
    unlink(p);
    if (have_gnuplot()) { /* roofline's own pair is its rerun: replaced */
        assert_int_equal(rl_plot_pareto(fd, "fig.png", "t", &s, 1, 0, err, sizeof err), 0);
        assert_int_equal(rl_plot_pareto(fd, "fig.png", "t", &s, 1, 0, err, sizeof err), 0);
        assert_true(file_size(dir, "fig.png") > 1000);
    }
    close(fd);
    unlink(victim);
    check_no_temp_and_clean(dir);
}

static void test_bad_extension(void **state)
{
    (void)state;
    char err[512];
    assert_int_equal(rl_plot_render(AT_FDCWD, "pareto.gp", "/tmp/x.jpg", "", "", err, sizeof err), -1);
    assert_non_null(strstr(err, "NAME.png or NAME.svg"));
    assert_int_equal(rl_plot_render(AT_FDCWD, "pareto.gp", "/tmp/.png", "", "", err, sizeof err), -1);
}

/* The other figures render (roofline chart, memory stack). */
static void test_other_figures(void **state)
{
    (void)state;
    if (!have_gnuplot())
        skip();
    use_source_tree();
    char dir[64], out[128], err[512];
    make_dir(dir);
    rl_model m = load_model("llama3-70b", NULL, 0);
    rl_hw h = load_hw("tpu-v5e", NULL, 0);
    long long batch[] = {1, 16, 256};
    snprintf(out, sizeof out, "%s/roof.png", dir);
    assert_int_equal(rl_plot_roofline(AT_FDCWD, out, NULL, &m, &h, BF16, batch, 3, 4096, err, sizeof err), 0);
    assert_true(file_size(dir, "roof.png") > 1000);
    snprintf(out, sizeof out, "%s/mem.svg", dir);
    assert_int_equal(rl_plot_memory(AT_FDCWD, out, NULL, &m, &h, 16, BF16, 4096, batch, 3, err, sizeof err), 0);
    assert_true(file_size(dir, "mem.svg") > 1000);
    check_no_temp_and_clean(dir);
}

/* tester15 F-lua-2: a figure over one batch had bmin = bmax and gnuplot
 * refused the empty x range.  The memory figure at B = 8 gets [4, 16], one
 * octave each side (plot.c put_batch_range), and renders; two batches
 * given high to low keep their own bounds, [1, 8]. */
static void test_one_batch(void **state)
{
    (void)state;
    use_source_tree();
    char dir[64], out[128], err[512];
    make_dir(dir);
    rl_model m = load_model("llama3-8b", NULL, 0);
    rl_hw h = load_hw("tpu-v5e", NULL, 0);
    long long one[] = {8}, two[] = {8, 1};
    snprintf(out, sizeof out, "%s/one.svg", dir);
    int rc = rl_plot_memory(AT_FDCWD, out, NULL, &m, &h, 4, BF16, 2048, one, 1, err, sizeof err);
    assert_int_equal(rc, have_gnuplot() ? 0 : RL_PLOT_NO_GNUPLOT);
    assert_file_contains(dir, "one.gp", "\nbmin = 4\nbmax = 16\n");
    if (have_gnuplot())
        assert_true(file_size(dir, "one.svg") > 1000);
    snprintf(out, sizeof out, "%s/two.svg", dir);
    rc = rl_plot_memory(AT_FDCWD, out, NULL, &m, &h, 4, BF16, 2048, two, 2, err, sizeof err);
    assert_int_equal(rc, have_gnuplot() ? 0 : RL_PLOT_NO_GNUPLOT);
    assert_file_contains(dir, "two.gp", "\nbmin = 1\nbmax = 8\n");
    check_no_temp_and_clean(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pareto_png_svg), cmocka_unit_test(test_pareto_default_title),
        cmocka_unit_test(test_pareto_no_key_without_titles), cmocka_unit_test(test_pareto_narrow_span_ticks),
        cmocka_unit_test(test_planted_links),
        cmocka_unit_test(test_figure_link_written_through), cmocka_unit_test(test_missing_gnuplot),
        cmocka_unit_test(test_step_data), cmocka_unit_test(test_step_attention_term),
        cmocka_unit_test(test_model_figure_title),      cmocka_unit_test(test_bad_extension),
        cmocka_unit_test(test_other_figures),  cmocka_unit_test(test_title_injection),
        cmocka_unit_test(test_one_batch),
        cmocka_unit_test(test_quoted_names),     cmocka_unit_test(test_memory_usable_line),
        cmocka_unit_test(test_memory_weights_over),
        cmocka_unit_test(test_extension_any_case),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
