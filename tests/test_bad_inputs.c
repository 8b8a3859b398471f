/* test_bad_inputs.c — runs every case of tests/bad_inputs/cases.txt through
 * the CLI binary (RL_BIN) and checks: the exit status, the stderr fragment,
 * no death by a signal, no hang (a per-case timeout), no nan/inf printed on
 * stdout, and no output file or *.tmp.* temporary left behind.
 *
 * Environment: RL_CASE_TIMEOUT (seconds, default 60); RL_WRAP, a command
 * prefix such as "valgrind -q --error-exitcode=99" (make test-valgrind);
 * RL_JOBS, how many cases run at once (default: the online CPUs); RL_CASES,
 * which cases run: FIRST-LAST or N, counted from 1 in file order (e.g.
 * RL_CASES=1-40 times a sample under valgrind); RL_CASE_EVERY=K, each
 * section's first case and every K-th after it (case_every); RL_CASE_TIMES=1 prints each
 * case's CPU seconds (the binary's and its wrapper's) to stderr.
 *
 * Each case runs in its own temporary folder, which is also its working
 * directory, so concurrent cases never see each other's files (a relative
 * output lands there, where the leftover check sees it).  Workers are forked
 * processes that take the next case from a counter in shared memory and
 * write the verdict into that case's slot; the failures are reported after
 * all have run, in case order, each naming its cases.txt line. */
#include "testutil.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "weights.h"

#define CASES RL_SRCDIR "/tests/bad_inputs/cases.txt"
#define MAX_ARGS 64
#define MIN_CASES 50

typedef struct {
    int line;
    char args[2048];
    int exit_code;
    char fragment[512];
} bad_case;

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = '\0';
    return s;
}

/* Parse "ARGS | EXIT | FRAGMENT"; returns 1 for a case, 0 for a comment or
 * blank line, -1 for a malformed line. */
static int parse_case(char *line, int lineno, bad_case *c)
{
    char *s = trim(line);
    if (!*s || *s == '#')
        return 0;
    char *bar1 = strchr(s, '|');
    char *bar2 = bar1 ? strchr(bar1 + 1, '|') : NULL;
    if (!bar2)
        return -1;
    *bar1 = *bar2 = '\0';
    c->line = lineno;
    snprintf(c->args, sizeof c->args, "%s", trim(s));
    char *end;
    c->exit_code = (int)strtol(trim(bar1 + 1), &end, 10);
    if (*end)
        return -1;
    snprintf(c->fragment, sizeof c->fragment, "%s", trim(bar2 + 1));
    return 1;
}

/* Replace @D@, @OUT@, @OUTDIR@, @FF@ (the byte 0xff: a path that is not
 * UTF-8), @NL@ (a newline: a message shows it as \x0A), @FIFO@ and @TREE@ in one token; a token naming
 * @FIFO@ (tmpdir/fifo plus what follows, e.g. @FIFO@.lua) is created as a
 * named pipe with no writer, which blocks any reader forever.  @TREE@
 * (tmpdir/tree) is made a second roofline tree, not a data directory of
 * the binary (fixNH #1): an empty PRESETS, src/main.c, Makefile. */
static void expand(const char *tok, const char *tmpdir, char *out, size_t outlen)
{
    size_t n = 0;
    int fifo = 0;
    char tree[640]; /* buf + a name of files[] */
    out[0] = '\0';
    while (*tok && n < outlen - 1) {
        const char *rep = NULL;
        size_t skip = 0;
        char buf[600];
        if (strncmp(tok, "@D@", 3) == 0) {
            rep = RL_SRCDIR "/tests/bad_inputs", skip = 3;
        } else if (strncmp(tok, "@OUTDIR@", 8) == 0) {
            snprintf(buf, sizeof buf, "%s/outdir", tmpdir);
            rep = buf, skip = 8;
        } else if (strncmp(tok, "@OUT@", 5) == 0) {
            snprintf(buf, sizeof buf, "%s/out.txt", tmpdir);
            rep = buf, skip = 5;
        } else if (strncmp(tok, "@FF@", 4) == 0) {
            rep = "\xff", skip = 4;
        } else if (strncmp(tok, "@NL@", 4) == 0) {
            rep = "\n", skip = 4;
        } else if (strncmp(tok, "@FIFO@", 6) == 0) {
            snprintf(buf, sizeof buf, "%s/fifo", tmpdir);
            rep = buf, skip = 6, fifo = 1;
        } else if (strncmp(tok, "@TREE@", 6) == 0) {
            snprintf(buf, sizeof buf, "%s/tree", tmpdir);
            rep = buf, skip = 6;
            static const char *const files[] = {"PRESETS", "src/main.c", "Makefile"};
            snprintf(tree, sizeof tree, "%s/src", buf);
            mkdir(buf, 0700);
            mkdir(tree, 0700);
            for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
                snprintf(tree, sizeof tree, "%s/%s", buf, files[i]);
                FILE *f = fopen(tree, "a");
                if (f)
                    fclose(f);
            }
        }
        if (rep) {
            n += (size_t)snprintf(out + n, outlen - n, "%s", rep);
            tok += skip;
        } else {
            out[n++] = *tok++;
            out[n] = '\0';
        }
    }
    if (fifo && mkfifo(out, 0600) != 0)
        fprintf(stderr, "warning: mkfifo %s: %s\n", out, strerror(errno));
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return strdup("");
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)len + 1);
    size_t got = s ? fread(s, 1, (size_t)len, f) : 0;
    if (s)
        s[got] = '\0';
    fclose(f);
    return s;
}

/* A "nan" or "inf" word (any case) in text: never a valid result. */
static int has_nonfinite(const char *text)
{
    for (const char *p = text; *p; p++) {
        if (p > text && isalnum((unsigned char)p[-1]))
            continue;
        if (strncasecmp(p, "nan", 3) == 0 && !isalnum((unsigned char)p[3]))
            return 1;
        if (strncasecmp(p, "inf", 3) == 0 &&
            (!isalnum((unsigned char)p[3]) || strncasecmp(p, "infinity", 8) == 0))
            return 1;
    }
    return 0;
}

/* Any *.tmp.* file, or a path named out.txt (or out.txt.lua ...), under dir (recursively). */
static int leftover(const char *dir, char *found, size_t foundlen)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    struct dirent *e;
    int bad = 0;
    while (!bad && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char p[1024];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (strstr(e->d_name, ".tmp.") || strncmp(e->d_name, "out.txt", 7) == 0) { /* out.txt.lua too */
            snprintf(found, foundlen, "%s", p);
            bad = 1;
        }
        struct stat st;
        if (!bad && lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            bad = leftover(p, found, foundlen);
    }
    closedir(d);
    return bad;
}

/* Run one case; return NULL when it passes, else a malloc'd reason. */
static char *run_case(const bad_case *c, int timeout_s)
{
    char tmpdir[] = "/tmp/rl_bad_XXXXXX";
    if (!mkdtemp(tmpdir))
        return strdup("mkdtemp failed");
    char tokens[MAX_ARGS][1024], outp[600], errp[600];
    char *argv[MAX_ARGS + 16];
    int argc = 0;
    const char *wrap = getenv("RL_WRAP");
    char wrapbuf[1024];
    if (wrap && *wrap) {
        snprintf(wrapbuf, sizeof wrapbuf, "%s", wrap);
        for (char *t = strtok(wrapbuf, " "); t && argc < 12; t = strtok(NULL, " "))
            argv[argc++] = t;
    }
    argv[argc++] = (char *)RL_BIN;
    char argsbuf[2048];
    snprintf(argsbuf, sizeof argsbuf, "%s", c->args);
    int nt = 0;
    for (char *t = strtok(argsbuf, " \t"); t && nt < MAX_ARGS; t = strtok(NULL, " \t")) {
        if (strcmp(t, "''") == 0)
            tokens[nt][0] = '\0';
        else
            expand(t, tmpdir, tokens[nt], sizeof tokens[nt]);
        argv[argc++] = tokens[nt++];
    }
    argv[argc] = NULL;
    snprintf(outp, sizeof outp, "%s.stdout", tmpdir);
    snprintf(errp, sizeof errp, "%s.stderr", tmpdir);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        setenv("ROOFLINE_DATA", RL_SRCDIR, 1);
        if (!freopen(outp, "w", stdout) || !freopen(errp, "w", stderr))
            _exit(126);
        setpgid(0, 0);
        if (chdir(tmpdir) != 0) /* the case's own working directory */
            _exit(125);
        execvp(argv[0], argv);
        _exit(127);
    }
    int status = 0;
    int timed_out = 0;
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    struct rusage ru = {0};
    for (;;) {
        pid_t w = wait4(pid, &status, WNOHANG, &ru);
        if (w == pid)
            break;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - start.tv_sec > timeout_s) {
            kill(pid, SIGKILL);
            wait4(pid, &status, 0, &ru);
            timed_out = 1;
            break;
        }
        usleep(5000);
    }
    if (getenv("RL_CASE_TIMES")) /* where the time goes: CPU-s (the wrapper's too) a case */
        fprintf(stderr, "rl-case-time %.2f cases.txt:%d %s\n",
                (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                    1e-6 * (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec),
                c->line, c->args);
    char *out = read_all(outp), *err = read_all(errp);
    char *why = malloc(4096);
    why[0] = '\0';
    char found[1024];
    if (timed_out)
        snprintf(why, 4096, "hung: killed after %d s", timeout_s);
    else if (WIFSIGNALED(status))
        snprintf(why, 4096, "died by signal %d", WTERMSIG(status));
    else if (WEXITSTATUS(status) != c->exit_code)
        snprintf(why, 4096, "exit %d, expected %d", WEXITSTATUS(status), c->exit_code);
    else if (!strstr(err, c->fragment))
        snprintf(why, 4096, "stderr lacks '%s'", c->fragment);
    else if (has_nonfinite(out))
        snprintf(why, 4096, "stdout prints nan/inf");
    else if (leftover(tmpdir, found, sizeof found))
        snprintf(why, 4096, "left %s behind", found);
    if (why[0]) {
        size_t n = strlen(why);
        snprintf(why + n, 4096 - n, "\n      stderr: %.1500s", err);
    }
    free(out);
    free(err);
    unlink(outp);
    unlink(errp);
    if (remove_tree(tmpdir) != 0)
        fprintf(stderr, "warning: could not remove %s\n", tmpdir);
    if (!why[0]) {
        free(why);
        return NULL;
    }
    return why;
}

static int case_timeout(void)
{
    const char *t = getenv("RL_CASE_TIMEOUT");
    int v = t ? atoi(t) : 0;
    return v > 0 ? v : 60;
}

/* What one case did: its slot in the memory the workers share. */
typedef struct {
    int state; /* CASE_NOT_RUN, CASE_PASSED or CASE_FAILED */
    char why[4096];
} case_result;
enum { CASE_NOT_RUN, CASE_PASSED, CASE_FAILED };

/* RL_JOBS, else the online CPUs; at least 1. */
static int case_jobs(void)
{
    const char *t = getenv("RL_JOBS");
    long v = t ? atol(t) : sysconf(_SC_NPROCESSORS_ONLN);
    return v < 1 ? 1 : v > 256 ? 256 : (int)v;
}

/* Run cases from the shared counter `next` until none is left. */
static void work(const bad_case *cases, int n, int *next, case_result *res, int timeout_s)
{
    int i;
    while ((i = __atomic_fetch_add(next, 1, __ATOMIC_SEQ_CST)) < n) {
        char *why = run_case(&cases[i], timeout_s);
        int state = why ? CASE_FAILED : CASE_PASSED;
        if (why)
            snprintf(res[i].why, sizeof res[i].why, "%s", why);
        free(why);
        __atomic_store_n(&res[i].state, state, __ATOMIC_SEQ_CST);
    }
}

/* Run cases[0..n) on `jobs` forked workers (jobs 1: in this process) and
 * fill res[0..n), memory from shared_results.  Returns how many workers did
 * not exit cleanly. */
static int run_all(const bad_case *cases, int n, int jobs, case_result *res)
{
    int timeout_s = case_timeout(), *next = (int *)(res + n), lost = 0;
    *next = 0;
    if (jobs > n)
        jobs = n;
    if (jobs <= 1) {
        work(cases, n, next, res, timeout_s);
        return 0;
    }
    pid_t pid[256];
    int started = 0;
    fflush(stdout);
    fflush(stderr);
    for (; started < jobs; started++) {
        pid[started] = fork();
        if (pid[started] < 0)
            break;
        if (pid[started] == 0) {
            work(cases, n, next, res, timeout_s);
            _exit(0); /* not exit: the parent's stdio and cmocka stay its own */
        }
    }
    if (started == 0) /* no worker could start: run them here */
        work(cases, n, next, res, timeout_s);
    for (int w = 0; w < started; w++) {
        int status = 0;
        if (waitpid(pid[w], &status, 0) != pid[w] || !WIFEXITED(status) || WEXITSTATUS(status))
            lost++;
    }
    return lost;
}

/* n result slots and the workers' counter, zeroed, shared with forked
 * children; munmap(res, shared_size(n)) frees them. */
static size_t shared_size(int n) { return (size_t)n * sizeof(case_result) + sizeof(int); }
static case_result *shared_results(int n)
{
    void *p = mmap(NULL, shared_size(n), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        fail_msg("mmap of %zu bytes for the case results: %s", shared_size(n), strerror(errno));
    return p;
}

/* Run a list of cases; fail listing every case that did not pass. */
static void run_cases(bad_case *cases, int n)
{
    int failed = 0;
    case_result *res = shared_results(n);
    int lost = run_all(cases, n, case_jobs(), res);
    for (int i = 0; i < n; i++) {
        if (res[i].state == CASE_PASSED)
            continue;
        if (res[i].state == CASE_FAILED)
            print_error("cases.txt:%d: roofline %s\n      %s\n", cases[i].line, cases[i].args,
                        res[i].why);
        else
            print_error("cases.txt:%d: roofline %s\n      not run: its worker died\n",
                        cases[i].line, cases[i].args);
        failed++;
    }
    munmap(res, shared_size(n));
    if (failed || lost)
        fail_msg("%d of %d bad-input cases failed%s", failed, n,
                 lost ? " (a worker process died)" : "");
}

/* RL_CASE_EVERY=K (make test-valgrind: 2): of each section of cases.txt
 * (the cases after a "# ----" heading), its first case and every K-th after
 * it, so that every class of bad input still runs (make test and make
 * test-asan run them all: ASan + LeakSanitizer check each case's memory
 * errors and leaks; valgrind adds uninitialised reads).  Unset, 0 or 1: all
 * cases; a malformed value fails the test. */
static int case_every(void)
{
    const char *t = getenv("RL_CASE_EVERY");
    if (!t || !*t)
        return 1;
    char *end;
    long v = strtol(t, &end, 10);
    if (*end || v < 0 || v > 1000)
        fail_msg("RL_CASE_EVERY='%s': expected a whole number of 1 or more", t);
    return v < 1 ? 1 : (int)v;
}

/* RL_CASES: "FIRST-LAST" or "N" (1-based, in file order) within 1..n.
 * Returns 0 and sets [*first, *last) (0-based), or -1 for a malformed or
 * out-of-range value. */
static int case_range(const char *spec, int n, int *first, int *last)
{
    *first = 0, *last = n;
    if (!spec || !*spec)
        return 0;
    char *end;
    long a = strtol(spec, &end, 10), b = a;
    if (end == spec)
        return -1;
    if (*end == '-') {
        const char *s2 = end + 1;
        b = strtol(s2, &end, 10);
        if (end == s2)
            return -1;
    }
    if (*end || a < 1 || b < a || b > n)
        return -1;
    *first = (int)a - 1, *last = (int)b;
    return 0;
}

static void corpus(void **state)
{
    (void)state;
    FILE *f = fopen(CASES, "r");
    assert_non_null(f);
    static bad_case cases[1024];
    int n = 0, lineno = 0, all = 0, every = case_every(), pos = 0;
    char line[4096];
    while (fgets(line, sizeof line, f) && n < 1024) {
        lineno++;
        if (strncmp(line, "# ----", 6) == 0) /* a section: its first case is kept */
            pos = 0;
        int rc = parse_case(line, lineno, &cases[n]);
        if (rc < 0)
            fail_msg("cases.txt:%d: expected 'ARGS | EXIT | FRAGMENT'", lineno);
        all += rc;
        if (rc > 0 && pos++ % every == 0)
            n++;
    }
    fclose(f);
    if (all < MIN_CASES)
        fail_msg("only %d cases; the corpus needs at least %d", all, MIN_CASES);
    if (every > 1)
        printf("RL_CASE_EVERY=%d: %d of the %d cases (each section's first and every %d-th after it)\n",
               every, n, all, every);
    int first, last;
    const char *range = getenv("RL_CASES");
    if (case_range(range, n, &first, &last) != 0)
        fail_msg("RL_CASES='%s': expected FIRST-LAST or N, cases counted from 1 to %d", range, n);
    if (last - first == n)
        printf("running %d bad-input cases, %d at a time\n", n, case_jobs());
    else
        printf("running bad-input cases %d-%d of %d (RL_CASES; cases.txt lines %d-%d), %d at a "
               "time\n", first + 1, last, n, cases[first].line, cases[last - 1].line, case_jobs());
    run_cases(cases + first, last - first);
}

/* Cases whose expectations are wrong: the harness must report them. */
static void wrong_expectations(void **state)
{
    (void)state;
    bad_case c[] = {
        {1, "info --model llama3-8b", 2, "anything"},              /* it succeeds */
        {2, "info --model nosuch", 2, "a fragment never printed"}, /* wrong text */
        {3, "info --model llama3-8b --output @OUT@", 0, ""},       /* leaves out.txt */
    };
    for (int i = 0; i < 3; i++) {
        char *why = run_case(&c[i], case_timeout());
        if (!why)
            fail_msg("case %d passed but should not", i + 1);
        free(why);
    }
    run_cases(c, 1); /* and run_cases fails the test */
}

static void harness_can_fail(void **state)
{
    (void)state;
    assert_test_fails(wrong_expectations);
}

/* Concurrent workers give each case the verdict a serial run gives it, in
 * its own slot, and a relative output path lands in the case's own folder
 * (its working directory), where the leftover check finds it; before fixOC
 * cases ran in the test's working directory and the third case passed,
 * leaving out.txt there. */
static void parallel_cases_isolated(void **state)
{
    (void)state;
    bad_case c[] = {
        {1, "info --model llama3-8b", 0, ""},                        /* passes */
        {2, "info --model nosuch", 2, "unknown model 'nosuch'"},     /* passes */
        {3, "info --model llama3-8b --output out.txt", 0, ""},       /* left out.txt */
        {4, "info --model nosuch", 2, "a fragment never printed"},   /* wrong text */
        {5, "info --model llama3-8b --output out.txt", 0, ""},       /* same name, own folder */
        {6, "info --model llama3-8b", 2, "anything"},                /* it succeeds */
    };
    const int n = (int)(sizeof c / sizeof *c), fails[] = {0, 0, 1, 1, 1, 1};
    for (int jobs = 1; jobs <= 3; jobs += 2) {
        case_result *res = shared_results(n);
        assert_int_equal(run_all(c, n, jobs, res), 0);
        for (int i = 0; i < n; i++) {
            if (res[i].state != (fails[i] ? CASE_FAILED : CASE_PASSED))
                fail_msg("RL_JOBS %d: case %d: state %d: %s", jobs, i + 1, res[i].state, res[i].why);
        }
        assert_non_null(strstr(res[2].why, "/out.txt behind"));
        assert_non_null(strstr(res[4].why, "/out.txt behind"));
        assert_non_null(strstr(res[3].why, "stderr lacks 'a fragment never printed'"));
        assert_non_null(strstr(res[5].why, "exit 0, expected 2"));
        munmap(res, shared_size(n));
        assert_int_equal(access("out.txt", F_OK), -1); /* nothing in our own folder */
    }
}

static void range_parser(void **state)
{
    (void)state;
    int a, b;
    assert_int_equal(case_range(NULL, 10, &a, &b), 0);
    assert_true(a == 0 && b == 10);
    assert_int_equal(case_range("1-4", 10, &a, &b), 0);
    assert_true(a == 0 && b == 4);
    assert_int_equal(case_range("7", 10, &a, &b), 0);
    assert_true(a == 6 && b == 7);
    const char *bad[] = {"0-3", "4-2", "1-11", "x", "3-", "-3", "2 ", "1-2-3"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (case_range(bad[i], 10, &a, &b) == 0)
            fail_msg("RL_CASES='%s' accepted", bad[i]);
}

static void nonfinite_detector(void **state)
{
    (void)state;
    assert_true(has_nonfinite("step_s,nan\n"));
    assert_true(has_nonfinite("x = -inf"));
    assert_true(has_nonfinite("Infinity"));
    assert_false(has_nonfinite("info: information, infer, finance, nano"));
}

/* Broken .safetensors files through the reader itself (no CLI command opens
 * weight files yet): each must be refused with its fragment, under ASan in
 * make test-asan. */
static void safetensors_corpus(void **state)
{
    (void)state;
    const char *dir = RL_SRCDIR "/tests/bad_inputs/safetensors";
    char manifest[512], line[1024];
    snprintf(manifest, sizeof manifest, "%s/cases.txt", dir);
    FILE *f = fopen(manifest, "r");
    assert_non_null(f);
    int n = 0, failed = 0;
    while (fgets(line, sizeof line, f)) {
        char *s = trim(line), *bar = strchr(s, '|');
        if (!*s || *s == '#')
            continue;
        assert_non_null(bar);
        *bar = '\0';
        char path[1024], err[1024] = "";
        snprintf(path, sizeof path, "%s/%s", dir, trim(s));
        const char *fragment = trim(bar + 1);
        rl_safetensors *st = rl_safetensors_open(path, err, sizeof err);
        n++;
        if (st) {
            print_error("%s: opened, expected '%s'\n", path, fragment);
            rl_safetensors_close(st);
            failed++;
        } else if (!strstr(err, fragment)) {
            print_error("%s: error lacks '%s': %s\n", path, fragment, err);
            failed++;
        }
    }
    fclose(f);
    assert_true(n >= 10);
    if (failed)
        fail_msg("%d of %d safetensors cases failed", failed, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nonfinite_detector),
        cmocka_unit_test(harness_can_fail),
        cmocka_unit_test(range_parser),
        cmocka_unit_test(parallel_cases_isolated),
        cmocka_unit_test(corpus),
        cmocka_unit_test(safetensors_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
