/* stats.c — small numeric helpers (stats.h). */
#include "stats.h"

int rl_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
