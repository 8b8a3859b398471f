/* clock.h — the monotonic wall clock every layer times with (size's
 * search_s, the sandbox's deadlines, the reference engine's timers without
 * a backend clock, the benches): one definition instead of four copies
 * (calib's rl_calib_now, reference_engine/backend.c, sandbox.c, size.c).
 * Header-only, so the engine layer, which does not call calib, uses it. */
#ifndef RL_CLOCK_H
#define RL_CLOCK_H

#include <time.h>

/* CLOCK_MONOTONIC in seconds, from an arbitrary origin. */
static inline double rl_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
