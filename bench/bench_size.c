/* bench_size.c — `make bench`: CPU seconds of `roofline size` over two
 * profiles (issue 14's targets: under 3 s at 20 req/s and under 10 s at
 * 200 req/s on one core), the README's command
 *   size --model llama3-70b --hw h100-sxm,tpu-v5e --qps Q
 *        --prompt-len lognormal:2000:0.8 --out-len lognormal:300:0.8
 *        --ttft-p99 1 --tpot-p99 0.05 --format json
 * run as a child of this program (the CLI as users run it, its search on
 * the CPUs online: size --threads' default); user + system CPU of the
 * child from wait4 and its wall clock, medians of 3 runs with the CPU's
 * spread, the load
 * average at the start and end of each load's runs, and the search's own
 * count of plans simulated and skipped for time (size stops starting plans
 * after RL_SIZE_MAX_CPU_S of CPU: a run that reaches it is bounded, not
 * finished).  Stamped with the commit and UTC time.  Reported, never
 * asserted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "stats.h"

#ifndef RL_BIN
#define RL_BIN "bin/roofline"
#endif

#define RUNS 3

/* The integer after `"key":` in the JSON text, or -1. */
static long long json_int(const char *text, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = text ? strstr(text, pat) : NULL;
    return p ? strtoll(p + strlen(pat), NULL, 10) : -1;
}

static double wall_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Run `size` at qps with its JSON into `out` (len bytes); *cpu: the child's
 * user + system seconds, *wall: from fork to its exit.  Returns 0 or -1. */
static int run_size(const char *qps, double *cpu, double *wall, char *out, size_t len)
{
    double t0 = wall_now();
    int fd[2];
    if (pipe(fd) != 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        dup2(fd[1], STDOUT_FILENO);
        close(fd[0]);
        close(fd[1]);
        if (!freopen("/dev/null", "w", stderr))
            _exit(127);
        execl(RL_BIN, RL_BIN, "size", "--model", "llama3-70b", "--hw", "h100-sxm,tpu-v5e",
              "--qps", qps, "--prompt-len", "lognormal:2000:0.8", "--out-len",
              "lognormal:300:0.8", "--ttft-p99", "1", "--tpot-p99", "0.05", "--format", "json",
              (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    size_t got = 0;
    char sink[4096]; /* past len: read and dropped, so the child never blocks */
    ssize_t k;
    while ((k = got < len - 1 ? read(fd[0], out + got, len - 1 - got)
                              : read(fd[0], sink, sizeof sink)) > 0)
        if (got < len - 1)
            got += (size_t)k;
    out[got] = '\0';
    close(fd[0]);
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1;
    *wall = wall_now() - t0;
    *cpu = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
           (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
    return 0;
}

int main(void)
{
    static const char *const loads[2] = {"20", "200"};
    static const double target[2] = {3, 10};
    static char out[1 << 20];
    char stamp[32];
    bench_utc(stamp, sizeof stamp);
    printf("# bench_size commit %s %s: %s size --model llama3-70b --hw h100-sxm,tpu-v5e --qps Q\n"
           "#   --prompt-len lognormal:2000:0.8 --out-len lognormal:300:0.8 --ttft-p99 1"
           " --tpot-p99 0.05; CPU s (user + sys) and wall s, medians of %d\n",
           RL_COMMIT, stamp, RL_BIN, RUNS);
    printf("%-6s %10s %10s %8s %9s %10s %9s %9s %13s\n", "qps", "median_s", "spread_s", "wall_s",
           "target_s", "load_avg", "simulated", "skipped", "rows_same");
    for (int q = 0; q < 2; q++) {
        double cpu[RUNS], wall[RUNS], la0[1] = {0}, la1[1] = {0};
        long long sims = -1, skipped = -1;
        int same = 1;
        char *first = NULL;
        getloadavg(la0, 1);
        for (int r = 0; r < RUNS; r++) {
            if (run_size(loads[q], &cpu[r], &wall[r], out, sizeof out) != 0) {
                fprintf(stderr, "bench_size: %s size --qps %s failed\n", RL_BIN, loads[q]);
                free(first);
                return 1;
            }
            sims = json_int(out, "simulated_configs");
            skipped = json_int(out, "skipped_for_time");
            char *rows = strstr(out, "\"rows\":"); /* search_s (wall time) comes before */
            if (!first)
                first = strdup(rows ? rows : "");
            else
                same = same && rows && strcmp(first, rows) == 0;
        }
        free(first);
        getloadavg(la1, 1);
        qsort(cpu, RUNS, sizeof cpu[0], rl_cmp_double);
        qsort(wall, RUNS, sizeof wall[0], rl_cmp_double);
        char la[32];
        snprintf(la, sizeof la, "%.1f-%.1f", la0[0], la1[0]);
        printf("%-6s %10.2f %10.2f %8.2f %9.0f %10s %9lld %9lld %13s\n", loads[q], cpu[RUNS / 2],
               cpu[RUNS - 1] - cpu[0], wall[RUNS / 2], target[q], la, sims, skipped,
               same ? "yes" : "NO");
    }
    return 0;
}
