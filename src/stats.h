/* stats.h — small numeric helpers shared by modules that sort samples.
 *
 * Owns the one qsort comparator for doubles (ascending), so the fits
 * (fit.c, collfit.c), the kernel tables (ktable.c, silicon.c), the serving
 * simulator's percentiles (serve.c), calibration, the benchmarks and the
 * tests sort the same way.  No state, no allocation.  The nearest-rank
 * percentiles stay in serve.c (rl_serve_pcts): they fill serve.h's rl_pcts.
 */
#ifndef RL_STATS_H
#define RL_STATS_H

/* qsort comparator of two doubles: -1, 0 or 1 as *a <, ==, > *b (a NaN on
 * either side compares equal, as every copy this replaced did). */
int rl_cmp_double(const void *a, const void *b);

#endif
