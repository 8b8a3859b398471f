/* test_progress.c — the progress line of long runs: its text, nothing
 * written while disabled (the CLI's state whenever stderr is no terminal),
 * the line and its erasure when enabled, a nested run not replacing the
 * outer one, a run's phases, and the serving simulator's counts
 * (simulate's line: serve.h rl_serve_config.progress). */
#include "testutil.h"

#include <fcntl.h>
#include <unistd.h>

#include "progress.h"
#include "serve.h"

/* Runs `body` with stderr into a fresh file and returns what it wrote
 * (into buf, n bytes at most). */
static void captured(void (*body)(void), char *buf, size_t n)
{
    char path[] = "/tmp/rl_progress_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    assert_true(dup2(fd, STDERR_FILENO) >= 0);
    body();
    fflush(stderr);
    assert_true(dup2(saved, STDERR_FILENO) >= 0);
    close(saved);
    ssize_t got = pread(fd, buf, n - 1, 0);
    buf[got > 0 ? got : 0] = '\0';
    close(fd);
    unlink(path);
}

static void line_text(void **state)
{
    (void)state;
    char buf[128];
    rl_progress_line(buf, sizeof buf, "size", "configurations simulated", 12, 40, 8.4);
    assert_string_equal(buf, "roofline size: configurations simulated 12 of 40 (8 s)");
    /* a count with no total: no " of N" (simulate's capacity loads; fixXC #1) */
    rl_progress_line(buf, sizeof buf, "simulate", "capacity loads tried", 7, 0, 3.2);
    assert_string_equal(buf, "roofline simulate: capacity loads tried 7 (3 s)");
}

static void three_units(void)
{
    rl_progress_start("size", "configurations simulated", 3);
    rl_progress_add(1);
    rl_progress_start("size", "inner", 99); /* nested: ignored, its units too */
    rl_progress_add(5);
    rl_progress_end();
    rl_progress_add(1);
    rl_progress_end();
}

static void add_one(void)
{
    rl_progress_add(1);
}

/* The outer run's count after a nested one: 1 + 1, the inner run's 5 not
 * in it (review55 #8: it read 7 of 3). */
static void nested_units_not_counted(void **state)
{
    (void)state;
    char buf[1024];
    rl_progress_enable(1, 0);
    rl_progress_start("size", "configurations simulated", 3);
    rl_progress_add(1);
    rl_progress_start("size", "inner", 99);
    rl_progress_add(5);
    rl_progress_end();
    captured(rl_progress_clear, buf, sizeof buf); /* the next add writes at once */
    captured(add_one, buf, sizeof buf);
    rl_progress_end();
    rl_progress_enable(0, 0);
    assert_non_null(strstr(buf, "configurations simulated 2 of 3"));
}

/* A message mid-run: the line erased before it, written again after. */
static void a_note_between(void)
{
    rl_progress_start("step", "batches' plans searched", 2);
    rl_progress_add(1);
    rl_progress_clear();
    fputs("note\n", stderr);
    rl_progress_add(1);
    rl_progress_end();
}

static void disabled_writes_nothing(void **state)
{
    (void)state;
    char buf[1024];
    rl_progress_enable(0, 0);
    captured(three_units, buf, sizeof buf);
    assert_string_equal(buf, "");
}

/* Enabled with no delay: the first unit's line (the next ones come within
 * RL_PROGRESS_EVERY_S, not rewritten), the outer run's total throughout,
 * and at the end the line blanked over and the cursor back at its start. */
static void enabled_writes_then_erases(void **state)
{
    (void)state;
    char buf[1024];
    rl_progress_enable(1, 0);
    captured(three_units, buf, sizeof buf);
    rl_progress_enable(0, 0);
    const char *line = "\rroofline size: configurations simulated 1 of 3 (0 s)";
    assert_memory_equal(buf, line, strlen(line));
    assert_null(strstr(buf, "inner"));
    size_t w = strlen(line) - 1, len = strlen(buf);
    assert_int_equal(len, strlen(line) + w + 2);
    assert_int_equal(buf[strlen(line)], '\r');
    assert_int_equal(buf[len - 1], '\r');
    for (size_t i = strlen(line) + 1; i < len - 1; i++)
        assert_int_equal(buf[i], ' ');
}

static void clear_before_a_note(void **state)
{
    (void)state;
    char buf[1024], want[1024];
    const char *l1 = "roofline step: batches' plans searched 1 of 2 (0 s)";
    const char *l2 = "roofline step: batches' plans searched 2 of 2 (0 s)";
    size_t w = strlen(l1);
    snprintf(want, sizeof want, "\r%s\r%*s\rnote\n\r%s\r%*s\r", l1, (int)w, "", l2, (int)w, "");
    rl_progress_enable(1, 0);
    captured(a_note_between, buf, sizeof buf);
    rl_progress_enable(0, 0);
    assert_string_equal(buf, want);
}

static void two_phases(void)
{
    rl_progress_start("simulate", "requests finished", 10);
    rl_progress_add(4);
    rl_progress_clear(); /* the next add writes at once */
    rl_progress_phase("capacity search: loads tried", 0);
    rl_progress_add(1);
    rl_progress_end();
}

/* A phase: its own label and count, no total, the line rewritten over the
 * longer one before it (padded with blanks). */
static void phase_relabels(void **state)
{
    (void)state;
    char buf[1024], want[1024];
    const char *l1 = "roofline simulate: requests finished 4 of 10 (0 s)";
    const char *l2 = "roofline simulate: capacity search: loads tried 1 (0 s)";
    snprintf(want, sizeof want, "\r%s\r%*s\r\r%s\r%*s\r", l1, (int)strlen(l1), "", l2,
             (int)strlen(l2), "");
    rl_progress_enable(1, 0);
    captured(two_phases, buf, sizeof buf);
    rl_progress_enable(0, 0);
    assert_string_equal(buf, want);
}

/* The serving simulator's hook (serve.c run_events): 1 ms steps, 20000
 * requests of 10 + 20 tokens at 200 req/s, progress `mode`. */
static int serve_mode;

static double step_1ms(void *ctx, const rl_step_work *w)
{
    (void)ctx, (void)w;
    return 1e-3;
}

static rl_serve_config tiny_config(void)
{
    rl_serve_config c = rl_serve_config_default();
    c.kv_capacity_tokens = 1e9; /* KV never binds */
    c.kv_bytes_per_token = 1;
    c.progress = serve_mode;
    return c;
}

static rl_request *tiny_requests(long long n)
{
    rl_workload w = {.n = n, .qps = 200, .prompt = {RL_DIST_FIXED, 10, 0},
                     .output = {RL_DIST_FIXED, 20, 0}, .seed = 1};
    rl_request *r = NULL;
    char err[256];
    if (rl_workload_generate(&w, &r, err, sizeof err) != 0)
        fail_msg("%s", err);
    return r;
}

static void serve_one_run(void)
{
    rl_serve_config c = tiny_config();
    rl_step_cost cost = {step_1ms, NULL, 0, 0};
    rl_request *r = tiny_requests(20000);
    rl_serve_result out;
    char err[256];
    rl_progress_start("simulate", "requests finished", 20000);
    if (rl_serve_run(r, 20000, &c, &cost, &cost, &out, err, sizeof err) != 0)
        fail_msg("%s", err);
    rl_progress_end();
    rl_serve_result_free(&out);
    free(r);
}

static void serve_capacity(void)
{
    rl_serve_config c = tiny_config();
    c.slo_tpot = 0.1;
    rl_step_cost cost = {step_1ms, NULL, 0, 0};
    rl_request *r = tiny_requests(200);
    double qps;
    char err[256];
    rl_progress_start("simulate", "capacity search: loads tried", 0);
    if (rl_serve_capacity(r, 200, &c, &cost, &cost, 0, &qps, err, sizeof err) != 0)
        fail_msg("%s", err);
    rl_progress_end();
    free(r);
}

/* fixXC #1: simulate had no progress line.  A run in mode
 * RL_SERVE_PROGRESS_REQUESTS tells its requests finished every
 * RL_SERVE_PROGRESS_EVENTS events (the first line: some of the 20000, not
 * all, as it runs); a capacity search in mode RL_SERVE_PROGRESS_LOADS one
 * load as each run starts (the first line: 1, no total); mode 0 (size's
 * runs, which count configurations) nothing. */
static void serve_tells_progress(void **state)
{
    (void)state;
    char buf[4096];
    rl_progress_enable(1, 0);
    serve_mode = RL_SERVE_PROGRESS_REQUESTS;
    captured(serve_one_run, buf, sizeof buf);
    const char *p = "\rroofline simulate: requests finished ";
    long long k = -1;
    if (strncmp(buf, p, strlen(p)) || sscanf(buf + strlen(p), "%lld of 20000 (", &k) != 1 ||
        !(k > 0 && k < 20000))
        fail_msg("requests: %s", buf);
    serve_mode = RL_SERVE_PROGRESS_LOADS;
    captured(serve_capacity, buf, sizeof buf);
    p = "\rroofline simulate: capacity search: loads tried 1 (0 s)\r";
    if (strncmp(buf, p, strlen(p)))
        fail_msg("loads: %s", buf);
    serve_mode = 0;
    captured(serve_one_run, buf, sizeof buf);
    assert_string_equal(buf, "");
    captured(serve_capacity, buf, sizeof buf);
    assert_string_equal(buf, "");
    rl_progress_enable(0, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(line_text),
        cmocka_unit_test(disabled_writes_nothing),
        cmocka_unit_test(enabled_writes_then_erases),
        cmocka_unit_test(clear_before_a_note),
        cmocka_unit_test(nested_units_not_counted),
        cmocka_unit_test(phase_relabels),
        cmocka_unit_test(serve_tells_progress),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
