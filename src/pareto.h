/* pareto.h — the Pareto frontier of two costs to minimise.
 *
 * Owns the non-dominated subset of points (x_i, y_i), both "smaller is
 * better" (for deployments: x = per-token latency, y = cost per token, the
 * latency / throughput frontier of seed 000 section 1, ESTI figure).  Uses
 * nothing else in the project. */
#ifndef RL_PARETO_H
#define RL_PARETO_H

#include <stddef.h>

/* Indices of the frontier of n points whose coordinates are read as
 * *(double *)(base + i * stride + x_off) and likewise y_off (so it works on
 * arrays of structs).  A point is on the frontier when no other point has
 * x <= and y <= with one strictly smaller; of exact duplicates the first is
 * kept.  Writes the indices into idx[n] ordered by increasing x (hence
 * decreasing y) and returns their count, or -1 when memory runs out.
 * O(n log n). */
long rl_pareto_front(const void *base, size_t n, size_t stride, size_t x_off, size_t y_off,
                     size_t *idx);

#endif
