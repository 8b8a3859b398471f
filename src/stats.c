/* stats.c — small numeric helpers (stats.h). */
#include "stats.h"

int rl_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int rl_pav_blocks(double *v, int n, rl_pav_value value, void *ctx)
{
    int lo[RL_PAV_MAX], hi[RL_PAV_MAX], nb = 0, moved = 0;
    double val[RL_PAV_MAX];
    if (n > RL_PAV_MAX)
        return -1;
    for (int j = 0; j < n; j++) { /* blocks of entries [lo, hi] at val */
        lo[nb] = hi[nb] = j;
        val[nb++] = v[j];
        while (nb > 1 && val[nb - 2] > val[nb - 1]) {
            nb--;
            hi[nb - 1] = hi[nb];
            val[nb - 1] = value(v, lo[nb - 1], hi[nb - 1], ctx);
        }
    }
    for (int b = 0; b < nb; b++)
        for (int j = lo[b]; j <= hi[b]; j++) {
            moved += v[j] != val[b];
            v[j] = val[b];
        }
    return moved;
}
