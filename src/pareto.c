/* pareto.c — non-dominated points of two minimised costs (sort, then scan). */
#include "pareto.h"

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

long rl_pareto_front(const void *base, size_t n, size_t stride, size_t x_off, size_t y_off,
                     size_t *idx)
{
    if (n == 0)
        return 0;
    key *k = malloc(n * sizeof *k);
    if (!k)
        return -1;
    const char *b = base;
    for (size_t i = 0; i < n; i++) {
        k[i].x = *(const double *)(b + i * stride + x_off);
        k[i].y = *(const double *)(b + i * stride + y_off);
        k[i].i = i;
    }
    qsort(k, n, sizeof *k, cmp_key);
    long m = 0;
    /* In x order, a point is non-dominated iff its y is below every y seen. */
    for (size_t i = 0; i < n; i++)
        if (m == 0 || k[i].y < k[idx[m - 1]].y)
            idx[m++] = i;
    for (long j = 0; j < m; j++)
        idx[j] = k[idx[j]].i;
    free(k);
    return m;
}
