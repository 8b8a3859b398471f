/* stats.h — small numeric helpers shared by modules that sort samples.
 *
 * Owns the one qsort comparator for doubles (ascending), so the fits
 * (fit.c, collfit.c), the kernel tables (ktable.c, silicon.c), the serving
 * simulator's percentiles (serve.c), calibration, the benchmarks and the
 * tests sort the same way.  No state, no allocation.  The nearest-rank
 * percentiles stay in serve.c (rl_serve_pcts): they fill serve.h's rl_pcts.
 * Also the one pool-adjacent-violators loop (rl_pav_blocks), whose block
 * value the caller defines: the MoE correction's median of rows (silicon.c
 * mg_fit) and the loader's mean of nodes (engines.c rl_moe_gemm_monotone).
 */
#ifndef RL_STATS_H
#define RL_STATS_H

/* qsort comparator of two doubles: -1, 0 or 1 as *a <, ==, > *b (a NaN on
 * either side compares equal, as every copy this replaced did). */
int rl_cmp_double(const void *a, const void *b);

/* The value of the block of entries [a, b] (0-based, a <= b) of the
 * values v the caller gave rl_pav_blocks (still as given: it writes them
 * only at its end), ctx the caller's. */
typedef double (*rl_pav_value)(const double *v, int a, int b, void *ctx);

/* The most entries rl_pav_blocks takes. */
#define RL_PAV_MAX 64

/* Make v[0..n-1] non-decreasing by pool adjacent violators (Ayer et al.
 * 1955; Barlow et al. 1972, "Statistical inference under order
 * restrictions"): from the left, each entry a block of its own at its own
 * value; while a block's value falls below the one before, the two merge
 * into one, whose value is value(v, first, last, ctx); at the end every
 * entry takes its block's value.  A mean of the entries gives the least-
 * squares isotonic fit, a median of data behind them the isotonic median.
 * Returns how many entries changed, or -1 (v untouched) when n exceeds
 * RL_PAV_MAX. */
int rl_pav_blocks(double *v, int n, rl_pav_value value, void *ctx);

#endif
