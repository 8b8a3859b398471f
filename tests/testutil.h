/* testutil.h — shared helpers for the cmocka suites: relative-tolerance
 * assertions, spec loading from the source tree, temporary files and
 * folders (written, read back and compared, removed), running the CLI, and
 * a check that a deliberately wrong test really fails. */
#ifndef RL_TESTUTIL_H
#define RL_TESTUTIL_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <cjson/cJSON.h>
#include <sys/stat.h>
#include <zlib.h>

#include "outdir.h"
#include "spec.h"

/* |actual - expected| <= tol * |expected|, with both values in the message. */
#define assert_rel(actual, expected, tol)                                                          \
    do {                                                                                           \
        double a_ = (actual), e_ = (expected), t_ = (tol);                                         \
        if (!(fabs(a_ - e_) <= t_ * fabs(e_)))                                                     \
            fail_msg("%s = %.9g, expected %.9g within %.3g%% (off by %.3g%%)", #actual, a_, e_,    \
                     t_ * 100, 100 * fabs(a_ - e_) / fabs(e_));                                    \
    } while (0)

/* make test-asan sets RL_SAN_SMALL=1: the heaviest size searches then run
 * the same code paths on RL_SAN_SMALL_REQUESTS requests instead of their
 * thousands (ASan + UBSan run them ~2.6x slower: an in-process size search
 * of 2000 requests 5.3 CPU-s plain, 13.7 under ASan, 2026-12-06), skipping
 * only the assertions whose figures depend on the sample's size (each says
 * so); the plain make test runs every assertion at full size. */
#define RL_SAN_SMALL_REQUESTS 300
static inline int rl_san_small(void)
{
    const char *s = getenv("RL_SAN_SMALL");
    return s && *s && strcmp(s, "0") != 0;
}
#define RL_SAN_STR_(x) #x
#define RL_SAN_STR(x) RL_SAN_STR_(x)
/* The tail a CLI size or simulate takes for that sample: "" in make test. */
static inline const char *rl_san_requests(void)
{
    return rl_san_small() ? " --requests " RL_SAN_STR(RL_SAN_SMALL_REQUESTS) : "";
}

/* RL_TEST_TIMES=1 (test_cli, test_size; not with RL_TEST_FILTER) prints
 * each case's CPU seconds, its own plus its waited-for children's (the CLI
 * runs), to stderr as "rl-time SECONDS NAME": where a suite's time goes,
 * independent of the load on a shared host.  Cases run in the array's
 * order, so the n-th setup call is the n-th kept case. */
#include <sys/resource.h>
static const char *rl_time_names_[1024];
static size_t rl_time_n_, rl_time_i_;
static double rl_time_start_;
static inline double rl_cpu_now_(void)
{
    struct rusage s, c;
    getrusage(RUSAGE_SELF, &s);
    getrusage(RUSAGE_CHILDREN, &c);
    return (double)(s.ru_utime.tv_sec + s.ru_stime.tv_sec + c.ru_utime.tv_sec + c.ru_stime.tv_sec) +
           1e-6 * (double)(s.ru_utime.tv_usec + s.ru_stime.tv_usec + c.ru_utime.tv_usec +
                           c.ru_stime.tv_usec);
}
static inline int rl_time_setup_(void **state)
{
    (void)state;
    rl_time_start_ = rl_cpu_now_();
    return 0;
}
static inline int rl_time_teardown_(void **state)
{
    (void)state;
    fprintf(stderr, "rl-time %.2f %s\n", rl_cpu_now_() - rl_time_start_,
            rl_time_i_ < rl_time_n_ ? rl_time_names_[rl_time_i_] : "?");
    rl_time_i_++;
    return 0;
}
static inline void rl_test_times(struct CMUnitTest *t, size_t n)
{
    if (!getenv("RL_TEST_TIMES") || getenv("RL_TEST_FILTER"))
        return;
    for (size_t j = 0; j < n && j < sizeof rl_time_names_ / sizeof rl_time_names_[0]; j++)
        if (!t[j].setup_func && !t[j].teardown_func) {
            rl_time_names_[rl_time_n_++] = t[j].name;
            t[j].setup_func = rl_time_setup_;
            t[j].teardown_func = rl_time_teardown_;
        }
}

/* RL_TEST_SHARD=I/N keeps the tests whose index is I modulo N, moved to
 * the front of t; returns how many (all n when unset).  make test runs the
 * heaviest binary as two such halves beside each other (TESTS_BESIDE), so
 * both cores stay busy: test_cli alone was ~683 of the ASan suite's 1387
 * CPU-s (2-core VM, 2026-12-06), the floor of its wall time.  A malformed
 * value is refused (exit 2), not read as "all". */
static inline size_t rl_test_shard(struct CMUnitTest *t, size_t n)
{
    const char *s = getenv("RL_TEST_SHARD");
    if (!s || !*s) {
        rl_test_times(t, n);
        return n;
    }
    unsigned i = 0, k = 0;
    char end = 0;
    if (sscanf(s, "%u/%u%c", &i, &k, &end) != 2 || k == 0 || i >= k) {
        fprintf(stderr, "RL_TEST_SHARD '%s': expected I/N with 0 <= I < N\n", s);
        exit(2);
    }
    size_t kept = 0;
    for (size_t j = 0; j < n; j++)
        if (j % k == i)
            t[kept++] = t[j];
    rl_test_times(t, kept);
    return kept;
}

/* Presets come from the source tree, whatever the working directory. */
static inline void use_source_tree(void) { setenv("ROOFLINE_DATA", RL_SRCDIR, 1); }

static inline rl_model load_model(const char *name, const rl_override *ov, int nov)
{
    rl_model m;
    char err[1024];
    use_source_tree();
    if (rl_model_load(name, ov, nov, &m, err, sizeof err) != 0)
        fail_msg("loading model %s: %s", name, err);
    return m;
}

static inline rl_hw load_hw(const char *name, const rl_override *ov, int nov)
{
    rl_hw h;
    char err[1024];
    use_source_tree();
    if (rl_hw_load(name, ov, nov, &h, err, sizeof err) != 0)
        fail_msg("loading hw %s: %s", name, err);
    return h;
}

/* Write `text` to a new temporary file whose name ends in ".lua"; the path
 * is written to `path` (at least 64 bytes).  The caller unlinks it. */
static inline void write_temp(char *path, const char *suffix, const char *text)
{
    snprintf(path, 64, "/tmp/rl_test_XXXXXX%s", suffix);
    int fd = mkstemps(path, (int)strlen(suffix));
    assert_true(fd >= 0);
    size_t len = strlen(text);
    assert_int_equal(write(fd, text, len), (ssize_t)len);
    close(fd);
}

/* A kernel-table folder (silicon.h) holding the one table trtllm/`file`
 * (gzip'd): a version line, `header`, then `body`.  Its path goes to
 * `dir` (at least 64 bytes); the caller removes it (remove_tree). */
static inline void table_dir(char *dir, const char *file, const char *header, const char *body)
{
    snprintf(dir, 64, "/tmp/rl_tables_XXXXXX");
    assert_non_null(mkdtemp(dir));
    char sub[128], path[256];
    snprintf(sub, sizeof sub, "%s/trtllm", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    snprintf(path, sizeof path, "%s/%s", sub, file);
    gzFile gz = gzopen(path, "wb");
    assert_non_null(gz);
    gzprintf(gz, "# version: 1.0\n%s\n%s", header, body);
    gzclose(gz);
}

/* Run `group` in a child process and return its exit status: the way a test
 * proves that a wrong expectation makes the harness fail. */
static inline int run_group_in_child(const struct CMUnitTest *tests, size_t n, const char *name)
{
    fflush(stdout);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        /* keep the child's deliberately failing report out of the log */
        freopen("/dev/null", "w", stdout);
        freopen("/dev/null", "w", stderr);
        _exit(_cmocka_run_group_tests(name, tests, n, NULL, NULL) == 0 ? 0 : 1);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* A group of the one test `wrong` fails when run (run_group_in_child):
 * how a suite proves that a wrong expectation fails it. */
static inline void assert_test_fails(CMUnitTestFunction wrong)
{
    const struct CMUnitTest t[] = {{"must_fail", wrong, NULL, NULL, NULL}};
    assert_int_not_equal(run_group_in_child(t, 1, "must_fail"), 0);
}

/* The whole of file `path`, NUL-terminated, malloc'd (the caller frees). */
static inline char *slurp_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    assert_true(n >= 0);
    rewind(f);
    char *t = malloc((size_t)n + 1);
    assert_non_null(t);
    assert_int_equal(fread(t, 1, (size_t)n, f), (size_t)n);
    t[n] = '\0';
    fclose(f);
    return t;
}

/* The whole of file dir/name, as slurp_text. */
static inline char *slurp_in(const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return slurp_text(path);
}

/* File dir/name holds exactly `want`. */
static inline void assert_file_equal(const char *dir, const char *name, const char *want)
{
    char *t = slurp_in(dir, name);
    if (strcmp(t, want) != 0)
        fail_msg("%s/%s holds \"%s\", expected \"%s\"", dir, name, t, want);
    free(t);
}

/* File dir/name holds `part` somewhere. */
static inline void assert_file_contains(const char *dir, const char *name, const char *part)
{
    char *t = slurp_in(dir, name);
    if (!strstr(t, part))
        fail_msg("%s/%s lacks \"%s\": %.2000s", dir, name, part, t);
    free(t);
}

/* `rm -rf dir`: 0 when that succeeded, -1 otherwise (a setup/teardown's
 * return value; a test asserts it is 0). */
static inline int remove_tree(const char *dir)
{
    char cmd[1100];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Run `RL_BIN args` through the shell with stderr merged into stdout;
 * the output goes to `out` (truncated to n - 1 bytes).  Returns the exit
 * status, or 128 + signal when the CLI was killed by one. */
static inline int run_cli(const char *args, char *out, size_t n)
{
    char cmd[4096];
    use_source_tree();
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", RL_BIN, args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t len = fread(out, 1, n - 1, p);
    out[len] = '\0';
    while (fgetc(p) != EOF) /* drain */
        ;
    int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* `roofline calibrate --tables dir --hw h100-sxm --engine trtllm` on bad
 * tables: exit 2 and no profile written. */
static inline void assert_calibrate_refused(const char *dir)
{
    char cmd[1024], out[256];
    snprintf(out, sizeof out, "%s/out.lua", dir);
    snprintf(cmd, sizeof cmd, "ROOFLINE_DATA=%s %s calibrate --tables %s --hw h100-sxm "
             "--engine trtllm --save %s 2>/dev/null", RL_SRCDIR, RL_BIN, dir, out);
    int st = system(cmd);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 2);
    assert_int_equal(access(out, F_OK), -1);
}

/* A profile on h100-sxm whose one engine has tables = { cls = { entry } }
 * must fail to load with an error holding `want`. */
static inline void assert_tables_refused(const char *cls, const char *entry, const char *want)
{
    char spec[1024], path[64], err[1024];
    snprintf(spec, sizeof spec, "return { base = 'h100-sxm', engines = { default = 'x', x = { "
             "tables = { %s = { %s } } } } }", cls, entry);
    write_temp(path, ".lua", spec);
    rl_hw h;
    use_source_tree();
    assert_int_not_equal(rl_hw_load(path, NULL, 0, &h, err, sizeof err), 0);
    if (!strstr(err, want))
        fail_msg("tables.%s = { %s }: '%s' lacks '%s'", cls, entry, err, want);
    unlink(path);
}

/* Two CLI outputs (stderr merged, then a JSON result) alike but for the
 * override key `key` = `value` that `got` carries (a --set that changes
 * nothing still names itself: model_overrides, hw_overrides, tester44 F7):
 * the same notes before the JSON, byte for byte, and the same JSON. */
static inline void assert_same_but_override(const char *want, const char *got, const char *key,
                                            const char *value)
{
    const char *jw = strchr(want, '{'), *jg = strchr(got, '{');
    assert_true(jw && jg && jw - want == jg - got && !strncmp(want, got, (size_t)(jw - want)));
    cJSON *a = cJSON_Parse(jw), *b = cJSON_Parse(jg);
    assert_non_null(a);
    assert_non_null(b);
    const cJSON *v = cJSON_GetObjectItem(b, key);
    assert_true(cJSON_IsString(v));
    assert_string_equal(v->valuestring, value);
    cJSON_DeleteItemFromObject(b, key);
    assert_true(cJSON_Compare(a, b, 1));
    cJSON_Delete(a);
    cJSON_Delete(b);
}

/* Run `RL_BIN args` (stderr dropped; @SRC@ stands for the source tree),
 * which must succeed, and parse the JSON it prints (read into buf[n]). */
static inline cJSON *run_cli_json(const char *args, char *buf, size_t n)
{
    char cmd[4096];
    use_source_tree();
    const char *src = strstr(args, "@SRC@");
    int pre = src ? (int)(src - args) : (int)strlen(args);
    snprintf(cmd, sizeof cmd, "%s %.*s%s%s 2>/dev/null", RL_BIN, pre, args, src ? RL_SRCDIR : "",
             src ? src + 5 : "");
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t len = fread(buf, 1, n - 1, p);
    buf[len] = '\0';
    int status = pclose(p);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("roofline %s failed (status %d)", args, status);
    cJSON *j = cJSON_Parse(buf);
    if (!j)
        fail_msg("roofline %s printed no JSON", args);
    return j;
}

/* A child process that opens `dir` as a run's output folder (outdir.h:
 * its lock taken) and waits; returns its pid once it holds the folder.
 * The caller kills it (SIGKILL) and reaps it. */
static inline pid_t hold_folder(const char *dir)
{
    int ready[2];
    assert_int_equal(pipe(ready), 0);
    fflush(stdout);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        rl_outdir o;
        char e[1024];
        if (rl_outdir_open(&o, dir, e, sizeof e) != 0 || write(ready[1], "x", 1) != 1)
            _exit(1);
        for (;;)
            pause();
    }
    char c;
    close(ready[1]);
    assert_int_equal(read(ready[0], &c, 1), 1);
    close(ready[0]);
    return pid;
}

#endif
