/* bench.h — the stamp of every `make bench` report (STYLE.md's llama-bench
 * convention: rows carry commit, host and UTC time): RL_COMMIT (the
 * Makefile passes the short commit), this host's name and the UTC time. */
#ifndef RL_BENCH_H
#define RL_BENCH_H

#include <stddef.h>
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#ifndef RL_COMMIT
#define RL_COMMIT "unknown"
#endif

/* The UTC time now, ISO 8601 ("2026-12-02T17:05:28Z"), into when[n]. */
static inline void bench_utc(char *when, size_t n)
{
    time_t now = time(NULL);
    strftime(when, n, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
}

/* "commit C host H UTC" (bench_utc) into s[n]: the end of a report row. */
static inline void bench_stamp(char *s, size_t n)
{
    char host[256] = "?", when[32];
    gethostname(host, sizeof host);
    bench_utc(when, sizeof when);
    snprintf(s, n, "commit %s host %s %s", RL_COMMIT, host, when);
}

/* CPU seconds of this process so far (getrusage: user + system), the
 * figure COMMON.md asks a bench to report beside wall time on a shared VM. */
static inline double bench_cpu_s(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           1e-6 * (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

#endif
