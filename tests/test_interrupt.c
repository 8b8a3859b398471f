/* test_interrupt.c — SIGINT during a long run: the CLI stops at the next
 * check, removes what the run wrote (all or nothing), exits 130 (143 for SIGTERM) and leaves no
 * temporary file; a second SIGINT during writes still leaves none; sweeps
 * and calibration stop without writing. */
#include "testutil.h"

#include <signal.h>
#include <sys/stat.h>
#include <time.h>

#include "interrupt.h"
#include "serve.h"
#include "silicon.h"
#include "sweep.h"
#include "workload.h"

static char dir[64], outdir[128], errpath[128];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/rl_sigint_XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    snprintf(outdir, sizeof outdir, "%s/out", dir);
    snprintf(errpath, sizeof errpath, "%s/stderr", dir);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* bin/roofline with argv (argv[0] RL_BIN), stdout to /dev/null, stderr to errpath. */
static pid_t start_roofline(char *const argv[])
{
    fflush(stdout);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        setenv("ROOFLINE_DATA", RL_SRCDIR, 1);
        if (!freopen("/dev/null", "w", stdout) || !freopen(errpath, "w", stderr))
            _exit(126);
        execv(RL_BIN, argv);
        _exit(127);
    }
    return pid;
}

static pid_t start_scenario(const char *script)
{
    char *argv[] = {RL_BIN, "run", "--out", outdir, (char *)script, NULL};
    return start_roofline(argv);
}

/* Wait until `path` exists (the scenario reached its loop); 20 s at most. */
static void wait_for(const char *path)
{
    struct stat st;
    for (int i = 0; i < 2000 && stat(path, &st) != 0; i++)
        usleep(10000);
    assert_int_equal(stat(path, &st), 0);
}

static int wait_exit(pid_t pid)
{
    int status;
    for (int i = 0; i < 3000; i++) {
        if (waitpid(pid, &status, WNOHANG) == pid)
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        usleep(10000);
    }
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    fail_msg("the run did not stop within 30 s of SIGINT");
    return -1;
}

static int no_temporaries(void)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "find %s -name '*.tmp.*' | grep -q .", outdir);
    return system(cmd) != 0;
}

/* The run's stderr, NUL-terminated, into err (len bytes at most). */
static void read_stderr(char *err, size_t len)
{
    FILE *f = fopen(errpath, "r");
    assert_non_null(f);
    size_t n = fread(err, 1, len - 1, f);
    err[n] = '\0';
    fclose(f);
}

static void sigint_stops_and_says_what_it_kept(void **state)
{
    (void)state;
    char script[64], marker[256];
    write_temp(script, ".lua",
               "roofline.write('first.csv', 'a,b\\n1,2\\n')\n"
               "local n = 0\n"
               "while true do n = n + 1 end\n");
    snprintf(marker, sizeof marker, "%s/first.csv", outdir);
    pid_t pid = start_scenario(script);
    wait_for(marker);
    kill(pid, SIGINT);
    assert_int_equal(wait_exit(pid), 130);
    char err[4096];
    read_stderr(err, sizeof err);
    /* all or nothing (tester9 #7): the file it wrote is removed again */
    if (!strstr(err, "interrupted (SIGINT)") || !strstr(err, "kept nothing in") ||
        !strstr(err, "1 new file removed"))
        fail_msg("stderr does not say it was interrupted and what it removed: %s", err);
    assert_int_not_equal(access(marker, F_OK), 0);
    assert_true(no_temporaries());
    unlink(script);
}

/* A scenario that rewrites a 8 MB file in a loop: two SIGINTs in a row (the
 * second exits at once, whatever it interrupts) leave no temporary, and
 * either the last complete file (the second signal came first) or none (the
 * failed run's undo came first: all or nothing). */
static void second_sigint_leaves_no_temporary(void **state)
{
    (void)state;
    char script[64], marker[256];
    write_temp(script, ".lua",
               "local s = string.rep('x', 8 * 1024 * 1024)\n"
               "while true do roofline.write('big.txt', s) end\n");
    snprintf(marker, sizeof marker, "%s/big.txt", outdir);
    pid_t pid = start_scenario(script);
    wait_for(marker);
    usleep(20000); /* let it be in the middle of a later write */
    kill(pid, SIGINT);
    kill(pid, SIGINT);
    int code = wait_exit(pid);
    assert_true(code == 130);
    assert_true(no_temporaries());
    struct stat st;
    if (stat(marker, &st) == 0)
        assert_int_equal(st.st_size, 8 * 1024 * 1024); /* whole, never partial */
    unlink(script);
}

/* SIGTERM (what `timeout`, `kill` and service managers send) is treated as
 * SIGINT (issue 16: it left *.tmp.* files during figure rendering): sent
 * while a scenario renders figures in a loop, the run stops, says
 * "interrupted (SIGTERM)", exits 143 (128 + SIGTERM, as README and
 * docs/hardening.md say; tester4 #5: it exited 130) and leaves no temporary;
 * a second SIGTERM exits at once (143) and leaves none either. */
static void sigterm_during_figures(void **state)
{
    (void)state;
    char script[64], marker[256];
    write_temp(script, ".lua",
               "while true do\n"
               "  roofline.plot{kind='memory', file='m.png', model='llama3-8b', hw='h100-sxm',\n"
               "                batch={1, 8, 64}, context=2048}\n"
               "end\n");
    snprintf(marker, sizeof marker, "%s/m.gp", outdir);
    for (int twice = 0; twice < 2; twice++) {
        unlink(marker);
        pid_t pid = start_scenario(script);
        wait_for(marker);
        usleep(50000); /* inside a later rendering */
        kill(pid, SIGTERM);
        if (twice)
            kill(pid, SIGTERM);
        int code = wait_exit(pid);
        assert_int_equal(code, 143);
        if (!twice) {
            char err[4096];
            read_stderr(err, sizeof err);
            if (!strstr(err, "interrupted (SIGTERM)"))
                fail_msg("stderr does not say SIGTERM stopped it: %s", err);
        }
        assert_true(no_temporaries());
    }
    unlink(script);
}

/* SIGTERM during simulate (tester4 #5): status 143, and once every request
 * has arrived (offline: all at t = 0) the message says so and how many
 * finished, not "after N of N arrivals".  1e7 requests (the bound) run
 * for over ten seconds here; the signal comes after 1 s, once the handler is
 * long installed.  (3e6 ran about 4 s on this host, so the 4-s retry below
 * could outlast the run: exit 0, seen once under load.) */
static void sigterm_stops_simulate(void **state)
{
    (void)state;
    char *argv[] = {RL_BIN, "simulate", "--model", "llama3-8b", "--hw", "h100-sxm", "--offline",
                    "--requests", "10000000", "--prompt-len", "100", "--out-len", "10", NULL};
    char err[4096];
    /* On a loaded host set-up alone can outlast the first wait; a signal
     * that lands there is answered too ("after 0 of ..."), so wait longer
     * and try again until one lands in the event loop. */
    for (unsigned wait_s = 1; wait_s <= 4; wait_s *= 2) {
        pid_t pid = start_roofline(argv);
        sleep(wait_s);
        kill(pid, SIGTERM);
        assert_int_equal(wait_exit(pid), 143);
        read_stderr(err, sizeof err);
        if (!strstr(err, "after 0 of 10000000 arrivals") && !strstr(err, "requests drawn"))
            break;
    }
    if (!strstr(err, "interrupted (SIGTERM) after all 10000000 arrivals, with ") ||
        !strstr(err, "finished; no result kept"))
        fail_msg("stderr: %s", err);
}

/* The interrupt flag set before simulate's set-up stops it there, without
 * a clock (review21 #6: a signal sent 0.2 s in could land past set-up on a
 * fast host): drawing the requests stops at the first check ("after 0 of
 * 1000 requests drawn"), and the simulator before its first arrival
 * ("after 0 of 1000 arrivals"); cleared, both run. */
static void flag_stops_simulate_setup(void **state)
{
    (void)state;
    static rl_model m;
    static rl_hw h;
    m = load_model("llama3-8b", NULL, 0);
    h = load_hw("h100-sxm", NULL, 0);
    rl_workload w = {.n = 1000, .qps = 10, .prompt = {RL_DIST_FIXED, 100, 0},
                     .output = {RL_DIST_FIXED, 10, 0}, .seed = 1};
    rl_request *req = NULL;
    char err[512];
    rl_interrupt_raise();
    assert_int_equal(rl_workload_generate(&w, &req, err, sizeof err), -1);
    assert_non_null(strstr(err, "interrupted (SIGINT) after 0 of 1000 requests drawn"));
    rl_interrupt_clear();
    assert_int_equal(rl_workload_generate(&w, &req, err, sizeof err), 0);
    rl_serve_config c = rl_serve_config_default();
    rl_serve_config_hw(&c, &m, &h, 1, rl_precision_default(), 0.1);
    rl_serve_result r;
    rl_interrupt_raise();
    int rc = rl_serve_simulate(&m, &h, 1, rl_precision_default(), 0, req, w.n, &c, &r, err,
                               sizeof err);
    rl_interrupt_clear();
    assert_int_not_equal(rc, 0);
    if (!strstr(err, "interrupted (SIGINT) after 0 of 1000 arrivals"))
        fail_msg("%s", err);
    assert_int_equal(rl_serve_simulate(&m, &h, 1, rl_precision_default(), 0, req, w.n, &c, &r, err,
                                       sizeof err), 0);
    rl_serve_result_free(&r);
    free(req);
}

/* SIGINT during simulate's set-up (tester6: --requests 1e8 answered only
 * after 13 s of set-up), end to end: a signal 0.2 s in lands in set-up on
 * this 2-core host ("... requests drawn" or "after 0 of 10000000
 * arrivals"), on a fast one perhaps in the event loop ("after N of ..."):
 * either is an interrupted run, exit 130 (the deterministic check of the
 * set-up is flag_stops_simulate_setup). */
static void sigint_stops_simulate_setup(void **state)
{
    (void)state;
    char *argv[] = {RL_BIN, "simulate", "--model", "llama3-8b", "--hw", "h100-sxm", "--qps", "10",
                    "--requests", "10000000", "--prompt-len", "100", "--out-len", "10", NULL};
    pid_t pid = start_roofline(argv);
    usleep(200000);
    kill(pid, SIGINT);
    assert_int_equal(wait_exit(pid), 130);
    char err[4096];
    read_stderr(err, sizeof err);
    if (!strstr(err, "interrupted (SIGINT)") ||
        !(strstr(err, "requests drawn") || strstr(err, "of 10000000 arrivals")))
        fail_msg("stderr: %s", err);
}

/* SIGINT during a full calibration: it stops at the next benchmark, exits
 * 130, says nothing was written, and leaves no profile directory. */
static void calibrate_stops_writing_nothing(void **state)
{
    (void)state;
    fflush(stdout);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        setenv("ROOFLINE_DATA", RL_SRCDIR, 1);
        if (chdir(dir) != 0 || !freopen("/dev/null", "w", stdout) || !freopen(errpath, "w", stderr))
            _exit(126);
        execl(RL_BIN, RL_BIN, "calibrate", "--backend", "cpu", (char *)NULL);
        _exit(127);
    }
    usleep(500000); /* inside the benchmark loop (a full run takes tens of seconds) */
    kill(pid, SIGINT);
    assert_int_equal(wait_exit(pid), 130);
    char err[1 << 16] = "";
    FILE *f = fopen(errpath, "r");
    assert_non_null(f);
    size_t n = fread(err, 1, sizeof err - 1, f);
    err[n] = '\0';
    fclose(f);
    if (!strstr(err, "interrupted (SIGINT); nothing written"))
        fail_msg("calibrate did not say it was interrupted: %.300s", err + (n > 300 ? n - 300 : 0));
    char cal[256];
    snprintf(cal, sizeof cal, "%s/hw_profiles/calibrated", dir);
    struct stat st;
    assert_int_not_equal(stat(cal, &st), 0);
}

/* tester8 item 1: calibrate --tables polls the flag while it imports and
 * writes nothing once it is up.  The excerpt tables (tests/data/silicon)
 * import in milliseconds, too fast for a timed signal to land reliably, so
 * the flag is raised by hand: the import stops ("interrupted (SIGINT)") and
 * no profile appears; the same call without the flag writes it (the check
 * can fail). */
static void calibrate_tables_stop_before_save(void **state)
{
    (void)state;
    rl_hw *h = malloc(sizeof *h);
    assert_non_null(h);
    *h = load_hw("h100-sxm", NULL, 0);
    char path[256], err[1024];
    snprintf(path, sizeof path, "%s/cal.lua", dir);
    const char *tables = RL_SRCDIR "/tests/data/silicon/h100_sxm";
    rl_interrupt_raise();
    int rc = rl_silicon_calibrate(tables, "trtllm", h, 0, NULL, "h100-sxm", NULL, 0, "2026-12-02",
                                  path, NULL, err, sizeof err);
    rl_interrupt_clear();
    assert_int_equal(rc, -1);
    if (!strstr(err, "interrupted (SIGINT)"))
        fail_msg("calibrate error lacks 'interrupted (SIGINT)': %s", err);
    assert_int_equal(access(path, F_OK), -1);
    assert_int_equal(rl_silicon_calibrate(tables, "trtllm", h, 0, NULL, "h100-sxm", NULL, 0,
                                          "2026-12-02", path, NULL, err, sizeof err), 0);
    assert_int_equal(access(path, F_OK), 0);
    unlink(path);
    free(h);
}

/* The flag itself: raised by the handler, cleared by hand. */
static void flag_roundtrip(void **state)
{
    (void)state;
    assert_int_equal(rl_interrupt_install(), 0);
    rl_interrupt_clear();
    assert_false(rl_interrupted());
    raise(SIGINT); /* the first SIGINT only sets the flag */
    assert_true(rl_interrupted());
    rl_interrupt_clear();
    signal(SIGINT, SIG_DFL);
}

/* A sweep polls the flag between slices and stops with nothing kept. */
static void sweep_stops(void **state)
{
    (void)state;
    rl_model m = load_model("llama3-8b", NULL, 0);
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    long long chips[] = {1, 2, 4, 8}, batch[] = {1, 8, 64}, ctx[] = {2048};
    rl_precision prec[] = {rl_precision_default()};
    rl_sweep_space sp = {chips, 4, batch, 3, ctx, 1, prec, 1, 0, 0, 0, 0, 0};
    rl_sweep s;
    char err[1024];
    assert_int_equal(rl_sweep_run(&m, &h, &sp, &s, err, sizeof err), 0); /* runs normally */
    assert_true(s.n > 0);
    rl_sweep_free(&s);
    rl_interrupt_raise();
    int rc = rl_sweep_run(&m, &h, &sp, &s, err, sizeof err);
    rl_interrupt_clear();
    assert_int_equal(rc, -1);
    if (!strstr(err, "interrupted (SIGINT)"))
        fail_msg("sweep error lacks 'interrupted (SIGINT)': %s", err);
    assert_null(s.pts);
}

/* Issue 16: one SIGINT during a single long C call (a table.move of 2e8
 * absent elements: within the instruction budget, so allowed, and tens of
 * seconds in C where the hook cannot run) stops it through the sandbox's
 * watchdog: status 130, and stderr says so. */
static void sigint_stops_a_long_c_call(void **state)
{
    (void)state;
    char script[64], marker[256];
    write_temp(script, ".lua",
               "roofline.write('started', 'x')\n"
               "for _ = 1, 100 do table.move({}, 1, 200000000, 1) end\n");
    snprintf(marker, sizeof marker, "%s/started", outdir);
    pid_t pid = start_scenario(script);
    wait_for(marker);
    /* Nearly all of the run is inside table.move's C calls (the loop keeps
     * it there even on a loaded host that reaches the first call late), so
     * the signal lands in one; 0.2 s lets the first call begin. */
    nanosleep(&(struct timespec){0, 200000000}, NULL);
    kill(pid, SIGINT);
    assert_int_equal(wait_exit(pid), 130);
    char err[4096];
    read_stderr(err, sizeof err);
    if (!strstr(err, "interrupted (SIGINT) inside a C call"))
        fail_msg("stderr does not say where it was interrupted: %s", err);
    assert_true(no_temporaries());
    unlink(script);
    unlink(marker);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(flag_roundtrip),
        cmocka_unit_test(sweep_stops),
        cmocka_unit_test(sigint_stops_and_says_what_it_kept),
        cmocka_unit_test(second_sigint_leaves_no_temporary),
        cmocka_unit_test(sigterm_during_figures),
        cmocka_unit_test(sigterm_stops_simulate),
        cmocka_unit_test(flag_stops_simulate_setup),
        cmocka_unit_test(sigint_stops_simulate_setup),
        cmocka_unit_test(calibrate_stops_writing_nothing),
        cmocka_unit_test(calibrate_tables_stop_before_save),
        cmocka_unit_test(sigint_stops_a_long_c_call),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
