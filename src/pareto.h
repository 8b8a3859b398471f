/* pareto.h — the Pareto frontier of two costs to minimise.
 *
 * Owns the non-dominated subset of points (x_i, y_i), both "smaller is
 * better" (for deployments: x = per-token latency, y = cost per token, the
 * latency / throughput frontier of seed 000 section 1, ESTI figure).  Uses
 * nothing else in the project. */
#ifndef RL_PARETO_H
#define RL_PARETO_H

#include <stddef.h>

/* The relative difference below which two costs are not told apart by
 * the dominance test: the model's inputs carry 3-4 significant digits
 * (datasheet peaks, kernel and collective tables in microseconds to 3-4
 * digits, prices in cents per hour) and its output prints 4, so a point
 * 1e-6 faster at twice the cost is no trade-off (tester16 F5: tpu-v5e
 * llama3-70b tp32 at 7.6367763 ms kept beside 2d 2x16 at 7.6367769 ms for
 * half the cost, a vertical line of "frontier" points). */
#define RL_PARETO_REL_TOL 1e-6

/* Indices of the frontier of n points whose coordinates are read as
 * *(double *)(base + i * stride + x_off) and likewise y_off (so it works on
 * arrays of structs).  Point q dominates p when q has x <= and y <= with
 * one strictly smaller, or when q is no more than a tolerance worse in
 * one (|v| RL_PARETO_REL_TOL) and more than a tolerance better in the
 * other; a point is on the frontier when no other dominates it; of exact
 * duplicates the first is kept.  (Each domination lowers log x + log y,
 * so the rule has no cycle and the frontier is never empty.)  Writes the
 * indices into idx[n] ordered by increasing x (hence decreasing y) and
 * returns their count, or -1 when memory runs out.  O(n log n); pareto
 * and size's frontier (size.h rl_size_frontier) use it. */
long rl_pareto_front(const void *base, size_t n, size_t stride, size_t x_off, size_t y_off,
                     size_t *idx);

#endif
