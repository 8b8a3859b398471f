/* progress.c — the progress line of long runs (progress.h). */
#include "progress.h"

#include <pthread.h>
#include <stdio.h>
#include <time.h>

static struct {
    pthread_mutex_t mu;
    int on;           /* rl_progress_enable */
    double after_s;   /* delay before a first line */
    int depth;        /* runs open; only the outermost counts */
    const char *cmd;
    char what[128];   /* a copy: a phase's label may be formatted (e2e.c) */
    long long done, total;
    double t0, shown; /* start; last line written (0: none yet) */
    int width;        /* the last line's length, to erase it */
} P = {.mu = PTHREAD_MUTEX_INITIALIZER};

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void rl_progress_enable(int on, double after_s)
{
    pthread_mutex_lock(&P.mu);
    P.on = on;
    P.after_s = after_s;
    pthread_mutex_unlock(&P.mu);
}

int rl_progress_line(char *buf, size_t n, const char *cmd, const char *what, long long done,
                     long long total, double elapsed)
{
    if (total <= 0) /* a count with no known end (simulate's capacity loads) */
        return snprintf(buf, n, "roofline %s: %s %lld (%.0f s)", cmd, what, done, elapsed);
    return snprintf(buf, n, "roofline %s: %s %lld of %lld (%.0f s)", cmd, what, done, total,
                    elapsed);
}

void rl_progress_start(const char *cmd, const char *what, long long total)
{
    pthread_mutex_lock(&P.mu);
    if (P.depth++ == 0) {
        P.cmd = cmd ? cmd : "";
        snprintf(P.what, sizeof P.what, "%s", what ? what : "");
        P.done = 0;
        P.total = total;
        P.t0 = now_s();
        P.shown = 0;
        P.width = 0;
    }
    pthread_mutex_unlock(&P.mu);
}

void rl_progress_phase(const char *what, long long total)
{
    pthread_mutex_lock(&P.mu);
    if (P.depth == 1) {
        snprintf(P.what, sizeof P.what, "%s", what ? what : "");
        P.done = 0;
        P.total = total;
    }
    pthread_mutex_unlock(&P.mu);
}

void rl_progress_add(long long n)
{
    pthread_mutex_lock(&P.mu);
    if (P.depth == 1) /* a nested run's units are not the outer's (review55 #8) */
        P.done += n;
    double t = now_s();
    if (P.on && P.depth == 1 && t - P.t0 >= P.after_s &&
        (P.shown == 0 || t - P.shown >= RL_PROGRESS_EVERY_S)) {
        char line[256];
        int w = rl_progress_line(line, sizeof line, P.cmd, P.what, P.done, P.total, t - P.t0);
        /* padded over a longer line before it */
        fprintf(stderr, "\r%-*s", P.width > w ? P.width : w, line);
        fflush(stderr);
        P.width = w;
        P.shown = t;
    }
    pthread_mutex_unlock(&P.mu);
}

/* Blank the line shown, if any, and put the cursor at its start.  Under P.mu. */
static void erase(void)
{
    if (P.width > 0) {
        fprintf(stderr, "\r%*s\r", P.width, "");
        fflush(stderr);
        P.width = 0;
        P.shown = 0;
    }
}

void rl_progress_end(void)
{
    pthread_mutex_lock(&P.mu);
    if (P.depth > 0 && --P.depth == 0)
        erase();
    pthread_mutex_unlock(&P.mu);
}

void rl_progress_clear(void)
{
    pthread_mutex_lock(&P.mu);
    erase();
    pthread_mutex_unlock(&P.mu);
}
