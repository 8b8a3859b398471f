/* bench.h — the stamp of every `make bench` report (STYLE.md's llama-bench
 * convention: rows carry commit, host and UTC time): RL_COMMIT (the
 * Makefile passes the short commit) and the UTC time now. */
#ifndef RL_BENCH_H
#define RL_BENCH_H

#include <stddef.h>
#include <time.h>

#ifndef RL_COMMIT
#define RL_COMMIT "unknown"
#endif

/* The UTC time now, ISO 8601 ("2026-12-02T17:05:28Z"), into when[n]. */
static inline void bench_utc(char *when, size_t n)
{
    time_t now = time(NULL);
    strftime(when, n, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
}

#endif
