/* pareto.c — non-dominated points of two minimised costs (sort, then scan). */
#include "pareto.h"

#include <math.h>
#include <stdlib.h>

typedef struct {
    double x, y;
    size_t i;
} key;

static int cmp_key(const void *a, const void *b)
{
    const key *p = a, *q = b;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    if (p->y != q->y)
        return p->y < q->y ? -1 : 1;
    return p->i < q->i ? -1 : p->i > q->i;
}

/* v moved by `sign` tolerances of its own size (pareto.h RL_PARETO_REL_TOL). */
static double tol(double v, double sign)
{
    return v + sign * RL_PARETO_REL_TOL * fabs(v);
}

/* The number of keys k[0..n) (sorted by x) whose x is below `bound`
 * (`or_equal`: at most it). */
static size_t count_below(const key *k, size_t n, double bound, int or_equal)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (k[mid].x < bound || (or_equal && k[mid].x == bound))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

long rl_pareto_front(const void *base, size_t n, size_t stride, size_t x_off, size_t y_off,
                     size_t *idx)
{
    if (n == 0)
        return 0;
    key *k = malloc(n * sizeof *k);
    double *low = malloc(n * sizeof *low); /* low[j]: the least y of k[0..j] */
    if (!k || !low) {
        free(k);
        free(low);
        return -1;
    }
    const char *b = base;
    for (size_t i = 0; i < n; i++) {
        k[i].x = *(const double *)(b + i * stride + x_off);
        k[i].y = *(const double *)(b + i * stride + y_off);
        k[i].i = i;
    }
    qsort(k, n, sizeof *k, cmp_key);
    for (size_t j = 0; j < n; j++)
        low[j] = j ? fmin(low[j - 1], k[j].y) : k[j].y;
    long m = 0;
    for (size_t i = 0; i < n; i++) {
        /* exactly dominated (or an earlier duplicate): a y at most its own
         * before it in (x, y) order */
        int out = i > 0 && low[i - 1] <= k[i].y;
        /* beyond the tolerance lower y at an x no more than a tolerance
         * above, or lower x at a y no more than a tolerance above */
        size_t a = count_below(k, n, tol(k[i].x, 1), 1), c = count_below(k, n, tol(k[i].x, -1), 0);
        out = out || (a > 0 && low[a - 1] < tol(k[i].y, -1)) ||
              (c > 0 && low[c - 1] <= tol(k[i].y, 1));
        if (!out)
            idx[m++] = i;
    }
    for (long j = 0; j < m; j++)
        idx[j] = k[idx[j]].i;
    free(low);
    free(k);
    return m;
}
