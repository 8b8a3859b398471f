/* ktable.c — measured kernel-latency grids: multilinear interpolation in
 * log space, roofline-ratio extrapolation, hole filling, Lua form.  The
 * rules are stated in ktable.h. */
#include "ktable.h"
#include "fastmax.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "error.h"
#include "number.h"
#include "stats.h"

const char *rl_provenance_name(rl_provenance p)
{
    static const char *const names[] = {"roofline", "measured", "interpolated", "extrapolated",
                                                "derived"};
    return p < RL_PROV_COUNT ? names[p] : "?";
}

rl_provenance rl_provenance_moved(rl_provenance lookup, int moved)
{
    return moved && (lookup == RL_PROV_MEASURED || lookup == RL_PROV_INTERPOLATED) ? RL_PROV_DERIVED
                                                                                  : lookup;
}

int rl_kt_alloc(rl_ktable *t, char *err, size_t errlen)
{
    t->logv = NULL;
    t->filled = NULL;
    if (t->naxes < 1 || t->naxes > RL_KT_AXES)
        RL_FAIL("a table has 1 to %d axes, got %d", RL_KT_AXES, t->naxes);
    t->n = 1;
    for (int a = 0; a < t->naxes; a++) {
        if (t->len[a] < 1 || t->len[a] > RL_KT_AXIS_MAX)
            RL_FAIL("axis '%s': 1 to %d values, got %d", t->axis_name[a], RL_KT_AXIS_MAX, t->len[a]);
        for (int i = 0; i < t->len[a]; i++) {
            double v = t->axis[a][i];
            char got[RL_NUMBER_STR];
            if (!(v > 0) || !isfinite(v))
                RL_FAIL("axis '%s': value %d must be > 0 and finite, got %s", t->axis_name[a], i + 1,
                        rl_number_str(v, got));
            if (i > 0 && !(v > t->axis[a][i - 1]))
                RL_FAIL("axis '%s': values must increase (value %d, %g, follows %g)", t->axis_name[a],
                        i + 1, v, t->axis[a][i - 1]);
            t->logaxis[a][i] = log(v);
        }
        t->n *= (size_t)t->len[a];
    }
    t->logv = malloc(t->n * sizeof *t->logv);
    t->filled = calloc(t->n, 1);
    if (!t->logv || !t->filled) {
        rl_kt_free(t);
        RL_FAIL("out of memory for a table of %zu nodes", t->n);
    }
    for (size_t i = 0; i < t->n; i++)
        t->logv[i] = NAN;
    t->floor_s = NAN;
    t->pairs = t->naxes >= 3 && !strcmp(t->axis_name[0], RL_KT_PAIRS);
    for (int a = 0; a < RL_KT_AXES; a++) { /* empty: NaN equals no value */
        for (int j = 0; j < RL_KT_MEMO; j++)
            t->memo[a].v[j] = NAN;
        t->memo[a].next = 0;
    }
    return 0;
}

void rl_kt_free(rl_ktable *t)
{
    free(t->logv);
    free(t->filled);
    t->logv = NULL;
    t->filled = NULL;
}

/* The lower median of v[0..n-1] (n <= RL_KT_AXIS_MAX; v untouched). */
static double lower_median(const double *v, int n)
{
    double w[RL_KT_AXIS_MAX];
    memcpy(w, v, (size_t)n * sizeof *w);
    qsort(w, (size_t)n, sizeof *w, rl_cmp_double);
    return w[(n - 1) / 2];
}

/* The isotonic median fit (ktable.h) of the non-NaN entries y[0],
 * y[stride], ..., y[(n - 1) stride], in place, by pool adjacent violators:
 * each entry starts a block valued at itself; while a block's value is
 * below its predecessor's the two pool into one, valued at the lower
 * median of its entries; every entry then takes its block's value.  NaN
 * entries (holes) stay and take no part. */
static void pava(double *y, int n, size_t stride)
{
    double v[RL_KT_AXIS_MAX], val[RL_KT_AXIS_MAX];
    int pos[RL_KT_AXIS_MAX], first[RL_KT_AXIS_MAX], cnt[RL_KT_AXIS_MAX], nb = 0, np = 0;
    for (int i = 0; i < n; i++) {
        if (isnan(y[(size_t)i * stride]))
            continue;
        pos[np] = i;
        v[np] = y[(size_t)i * stride];
        first[nb] = np;
        cnt[nb] = 1;
        val[nb++] = v[np++];
        while (nb > 1 && val[nb - 1] < val[nb - 2]) {
            cnt[nb - 2] += cnt[nb - 1];
            nb--;
            val[nb - 1] = lower_median(v + first[nb - 1], cnt[nb - 1]);
        }
    }
    for (int b = 0, k = 0; b < nb; b++)
        for (int j = 0; j < cnt[b]; j++)
            y[(size_t)pos[k++] * stride] = val[b];
}

/* The axes of t the isotonic fit runs along (bit a: axis a): those that
 * count tokens or sequences (ktable.h). */
static unsigned batched_axes(const rl_ktable *t)
{
    static const char *const names[] = {"m", "tokens", "streams", RL_KT_PAIRS, "batch", "isl", "context"};
    unsigned along = 0;
    for (int a = 0; a < t->naxes; a++)
        for (size_t i = 0; i < sizeof names / sizeof *names; i++)
            along |= (unsigned)!strcmp(t->axis_name[a], names[i]) << a;
    return along;
}

/* The stride of axis a in t's node order (last axis fastest). */
static size_t axis_stride(const rl_ktable *t, int a)
{
    size_t stride = 1;
    for (int b = t->naxes - 1; b > a; b--)
        stride *= (size_t)t->len[b];
    return stride;
}

/* The number of coordinates of axis a at or below its kernel switch
 * (rl_ktable.cut): the fit's first segment along a; len[a] without one. */
static int below_cut(const rl_ktable *t, int a)
{
    int k = 0;
    while (t->cut[a] > 0 && k < t->len[a] && t->axis[a][k] <= t->cut[a])
        k++;
    return t->cut[a] > 0 ? k : t->len[a];
}

/* One pass of the one-axis fit along every batched axis in `along`, in
 * table order (axis a's chains: every node with index 0 on a); a chain is
 * fitted on each side of a switch on its axis apart (ktable.h). */
static void one_axis_passes(rl_ktable *t, unsigned along)
{
    for (int a = 0; a < t->naxes; a++) {
        size_t stride = axis_stride(t, a), span = stride * (size_t)t->len[a];
        int k = below_cut(t, a);
        for (size_t i = 0; (along >> a & 1) && i < t->n; i++)
            if (i % span < stride) {
                pava(t->logv + i, k, stride);
                if (k < t->len[a])
                    pava(t->logv + i + (size_t)k * stride, t->len[a] - k, stride);
            }
    }
}

/* The non-hole node after node i along axis a (stride, length len, i's
 * coordinate on a at c), or t->n when none. */
static size_t next_node(const rl_ktable *t, size_t i, size_t stride, int len, int c)
{
    for (int k = c + 1; k < len; k++)
        if (!isnan(t->logv[i + (size_t)(k - c) * stride]))
            return i + (size_t)(k - c) * stride;
    return t->n;
}

int rl_kt_falls(const rl_ktable *t)
{
    unsigned along = batched_axes(t);
    for (int a = 0; a < t->naxes; a++) {
        size_t stride = axis_stride(t, a);
        for (size_t i = 0; (along >> a & 1) && i < t->n; i++) {
            int c = (int)(i / stride % (size_t)t->len[a]);
            if (isnan(t->logv[i]))
                continue;
            size_t j = next_node(t, i, stride, below_cut(t, a) > c ? below_cut(t, a) : t->len[a],
                                 c);
            if (j < t->n && t->logv[j] < t->logv[i])
                return 1;
        }
    }
    return 0;
}

/* Each non-hole node lowered to the least ln latency over the nodes at or
 * above it along every batched axis in `along` (the others held): the
 * upper sets grow down the order, so the result is non-decreasing along
 * each such axis by construction.  Nodes are visited from the last, so a
 * node's neighbours one step up on each axis (larger index) are final;
 * reach[] carries the least value through holes, which stay holes. */
static int suffix_min(rl_ktable *t, unsigned along)
{
    double *reach = malloc(t->n * sizeof *reach);
    if (!reach)
        return -1;
    for (size_t i = t->n; i-- > 0;) {
        double v = isnan(t->logv[i]) ? INFINITY : t->logv[i];
        for (int a = 0; a < t->naxes; a++) {
            size_t stride = axis_stride(t, a);
            int c = (int)(i / stride % (size_t)t->len[a]);
            if ((along >> a & 1) && c < t->len[a] - 1 && c != below_cut(t, a) - 1)
                v = fmin(v, reach[i + stride]);
        }
        reach[i] = v;
        if (!isnan(t->logv[i]))
            t->logv[i] = v;
    }
    free(reach);
    return 0;
}

int rl_kt_find_steps(rl_ktable *t)
{
    unsigned along = batched_axes(t);
    int found = 0;
    for (int a = 0; a < t->naxes; a++) {
        if (!(along >> a & 1) || t->cut[a] > 0)
            continue;
        size_t stride = axis_stride(t, a), span = stride * (size_t)t->len[a];
        double best = 0.5; /* a strict majority of the chains */
        for (int c = 0; c + 1 < t->len[a]; c++) {
            long both = 0, falls = 0;
            for (size_t i = (size_t)c * stride; i < t->n; i++) {
                if (i % span / stride != (size_t)c)
                    continue;
                double lo = t->logv[i], up = t->logv[i + stride];
                if (isnan(lo) || isnan(up))
                    continue;
                both++;
                falls += lo - up > log(RL_KT_FALL);
            }
            if (both >= RL_KT_STEP_CHAINS && (double)falls / (double)both > best) {
                best = (double)falls / (double)both;
                t->cut[a] = t->axis[a][c];
            }
        }
        found += t->cut[a] > 0;
    }
    return found;
}

int rl_kt_isotonic(rl_ktable *t, int rounds)
{
    t->floor_s = NAN; /* the nodes change: the floor is found again (rl_kt_time) */
    unsigned along = batched_axes(t);
    for (int r = 0; r < rounds; r++) {
        if (!rl_kt_falls(t))
            return r;
        one_axis_passes(t, along);
    }
    if (rl_kt_falls(t) && suffix_min(t, along) != 0)
        return -1;
    return rounds + 1;
}

size_t rl_kt_index(const rl_ktable *t, const int *idx)
{
    size_t at = 0;
    for (int a = 0; a < t->naxes; a++)
        at = at * (size_t)t->len[a] + (size_t)idx[a];
    return at;
}

/* Grid coordinates of node `at`. */
static void coords(const rl_ktable *t, size_t at, int *idx)
{
    for (int a = t->naxes - 1; a >= 0; a--) {
        idx[a] = (int)(at % (size_t)t->len[a]);
        at /= (size_t)t->len[a];
    }
}

static void node_shape(const rl_ktable *t, const int *idx, double *x)
{
    for (int a = 0; a < t->naxes; a++)
        x[a] = t->axis[a][idx[a]];
}

/* Shape x of table coordinates c (ktable.h RL_KT_PAIRS: axis 0 of a pairs
 * table is the shape's axes 0 x 2). */
static const double *shape_of(const rl_ktable *t, const double *c, double *x)
{
    if (!t->pairs)
        return c;
    memcpy(x, c, (size_t)t->naxes * sizeof *x);
    x[0] = c[0] / c[2];
    return x;
}

/* ideal(x) / ideal(from) of table coordinates x and from, 1 without an
 * ideal function or a usable ratio. */
static double roofline_ratio(const rl_ktable *t, rl_kt_ideal_fn ideal, const void *ctx,
                             const double *x, const double *from)
{
    if (!ideal)
        return 1.0;
    double xs[RL_KT_AXES], fs[RL_KT_AXES];
    double a = ideal(shape_of(t, x, xs), ctx), b = ideal(shape_of(t, from, fs), ctx);
    return a > 0 && b > 0 && isfinite(a) && isfinite(b) ? a / b : 1.0;
}

/* Grid steps between nodes a and b. */
static int steps(const rl_ktable *t, const int *a, const int *b)
{
    int s = 0;
    for (int i = 0; i < t->naxes; i++)
        s += abs(a[i] - b[i]);
    return s;
}

/* Whether node at holds a measured latency (not a hole, not filled). */
static int is_measured(const rl_ktable *t, size_t at)
{
    return !isnan(t->logv[at]) && !t->filled[at];
}

/* Node of coordinate c on axis a (stride) on the line through the hole h,
 * whose coordinate there is ha. */
static size_t on_line(size_t h, int ha, int c, size_t stride)
{
    return c < ha ? h - (size_t)(ha - c) * stride : h + (size_t)(c - ha) * stride;
}

/* The nearest measured node after coordinate c on that line, in direction
 * dir (-1 or 1): its coordinate, -1 or t->len[a] when there is none. */
static int next_measured(const rl_ktable *t, size_t h, const int *hi, int a, size_t stride,
                         int c, int dir)
{
    for (c += dir; c >= 0 && c < t->len[a] && !is_measured(t, on_line(h, hi[a], c, stride));
         c += dir)
        ;
    return c;
}

/* A GEMM tile step (ktable.h rl_kt_fill_holes): m0 and m0 + 1 both on
 * the m axis, m0 a multiple of RL_KT_TILE_M. */
static int tile_step(const rl_ktable *t, int j)
{
    const double *v = t->axis[0];
    return j + 1 < t->len[0] && v[j + 1] == v[j] + 1 && fmod(v[j], RL_KT_TILE_M) == 0;
}

/* Whether coordinates c0 and c1 of axis a lie on two sides of its
 * documented kernel switch (rl_ktable.cut) or, on a GEMM's m axis, of a
 * measured tile step (tile_step). */
static int across_cut(const rl_ktable *t, int a, int c0, int c1)
{
    double cut = t->cut[a];
    if (cut > 0 && (t->axis[a][c0] <= cut) != (t->axis[a][c1] <= cut))
        return 1;
    if (a != 0 || strcmp(t->axis_name[0], "m") != 0)
        return 0;
    for (int j = c0 < c1 ? c0 : c1; j < (c0 < c1 ? c1 : c0); j++)
        if (tile_step(t, j))
            return 1;
    return 0;
}

/* Whether the measured nodes at coordinates c0 < c1 on that line span a
 * kernel switch (ktable.h RL_KT_STEP): their latency ratio exceeds
 * RL_KT_STEP times the larger of their roofline ratio and 1, or falls
 * below 1 / RL_KT_STEP.  Without an ideal function only the second test
 * applies. */
static int steps_across(const rl_ktable *t, size_t h, const int *hi, int a, size_t stride, int c0,
                        int c1, rl_kt_ideal_fn ideal, const void *ctx)
{
    int i0[RL_KT_AXES], i1[RL_KT_AXES];
    double x0[RL_KT_AXES], x1[RL_KT_AXES];
    if (across_cut(t, a, c0, c1))
        return 1;
    if (t->kernel) { /* named kernels (ktable.h rl_ktable.kernel) */
        unsigned k0 = t->kernel[on_line(h, hi[a], c0, stride)];
        unsigned k1 = t->kernel[on_line(h, hi[a], c1, stride)];
        if (k0 && k1 && k0 != k1)
            return 1;
    }
    memcpy(i0, hi, sizeof i0);
    memcpy(i1, hi, sizeof i1);
    i0[a] = c0;
    i1[a] = c1;
    node_shape(t, i0, x0);
    node_shape(t, i1, x1);
    double d = t->logv[on_line(h, hi[a], c1, stride)] - t->logv[on_line(h, hi[a], c0, stride)];
    double r = log(roofline_ratio(t, ideal, ctx, x1, x0));
    return (ideal && d > (r > 0 ? r : 0) + log(RL_KT_STEP)) || d < -log(RL_KT_STEP);
}

/* The ln latency at the hole h from its bracket lo < hi[a] < up on axis a
 * with the curvature of the line (ktable.h): the parabola in (ln shape,
 * ln latency) through (lo2, lo, up) and the one through (lo, up, up2),
 * lo2 and up2 the next measured nodes out, each where its outer pair is
 * no kernel switch; their mean, kept between the bracket's two latencies;
 * the chord between lo and up when neither parabola stands. */
static double curved(const rl_ktable *t, size_t h, const int *hi, int a, size_t stride, int lo,
                     int up, rl_kt_ideal_fn ideal, const void *ctx)
{
    const double *la = t->logaxis[a], x = la[hi[a]];
    double vlo = t->logv[on_line(h, hi[a], lo, stride)], vup = t->logv[on_line(h, hi[a], up, stride)];
    double w = (x - la[lo]) / (la[up] - la[lo]), sum = 0;
    int lo2 = next_measured(t, h, hi, a, stride, lo, -1);
    int up2 = next_measured(t, h, hi, a, stride, up, 1), n = 0;
    const int tri[2][3] = {{lo2, lo, up}, {lo, up, up2}};
    for (int u = 0; u < 2; u++) {
        const int *c = tri[u];
        if (c[0] < 0 || c[2] >= t->len[a] ||
            steps_across(t, h, hi, a, stride, u ? up : lo2, u ? up2 : lo, ideal, ctx))
            continue;
        for (int i = 0; i < 3; i++) { /* Lagrange's form */
            double b = t->logv[on_line(h, hi[a], c[i], stride)];
            for (int j = 0; j < 3; j++)
                b *= j == i ? 1 : (x - la[c[j]]) / (la[c[i]] - la[c[j]]);
            sum += b;
        }
        n++;
    }
    if (!n)
        return (1 - w) * vlo + w * vup;
    double v = sum / n, mn = fmin(vlo, vup), mx = fmax(vlo, vup);
    return v < mn ? mn : v > mx ? mx : v;
}

/* The kernel of the bracket lo < hi[a] < up on axis a (ktable.h
 * rl_ktable.kernel): its ends' kernel where one is named and the other
 * agrees or is unnamed; 0 otherwise. */
static unsigned bracket_kernel(const rl_ktable *t, size_t h, const int *hi, int a, size_t stride,
                               int lo, int up)
{
    if (!t->kernel)
        return 0;
    unsigned k0 = t->kernel[on_line(h, hi[a], lo, stride)];
    unsigned k1 = t->kernel[on_line(h, hi[a], up, stride)];
    return k0 && k1 && k0 != k1 ? 0 : k0 ? k0 : k1;
}

/* The hole's kernel (ktable.h rl_ktable.kernel): the one a strict
 * majority of its nearest measured neighbours ran, the one below and the
 * one above it along each axis (the other coordinates held; unnamed ones
 * not counted); 0 when none has one or none has a majority. */
static unsigned hole_kernel(const rl_ktable *t, size_t h, const int *hi)
{
    unsigned ks[2 * RL_KT_AXES];
    int nk = 0;
    size_t stride = 1;
    for (int a = t->naxes - 1; t->kernel && a >= 0; a--) {
        for (int dir = -1; dir <= 1; dir += 2) {
            int c = next_measured(t, h, hi, a, stride, hi[a], dir);
            unsigned k = c >= 0 && c < t->len[a] ? t->kernel[on_line(h, hi[a], c, stride)] : 0;
            if (k)
                ks[nk++] = k;
        }
        stride *= (size_t)t->len[a];
    }
    for (int i = 0; i < nk; i++) {
        int votes = 0;
        for (int j = 0; j < nk; j++)
            votes += ks[j] == ks[i];
        if (2 * votes > nk)
            return ks[i];
    }
    return 0;
}

/* Bracket end e of a hole on axis a (the other end `other`, dir the side of
 * e away from the hole): the next measured node beyond e when e is a spike
 * (ktable.h RL_KT_SPIKE: its ln latency more than ln RL_KT_SPIKE above
 * both that node's and the other end's, or below both) and that node lies
 * on the same side of a documented switch as the other end; else e. */
static int past_spike(const rl_ktable *t, size_t h, const int *hi, int a, size_t stride, int e,
                      int other, int dir)
{
    int o = next_measured(t, h, hi, a, stride, e, dir);
    if (o < 0 || o >= t->len[a] || across_cut(t, a, o, other))
        return e;
    double ve = t->logv[on_line(h, hi[a], e, stride)], vo = t->logv[on_line(h, hi[a], o, stride)];
    double vx = t->logv[on_line(h, hi[a], other, stride)], f = log(RL_KT_SPIKE);
    return (ve - vo > f && ve - vx > f) || (vo - ve > f && vx - ve > f) ? o : e;
}

/* The hole at h (coordinates hi) interpolated along the axes on which it has
 * measured nodes on both sides: per axis, between the nearest measured node
 * below and above it (the other coordinates held), their ln latencies, by
 * `curved` (GEMM tables: log-log, the chord); the mean of those axes' ln
 * latencies, each weighted by the inverse of its bracket's width in
 * ln(shape) (ktable.h), into *logv; the brackets that span a kernel switch
 * (steps_across, or of another kernel than the hole's: hole_kernel) count
 * only when every bracket does, and not at all when some ran another
 * kernel (the caller's edge rule then, of the hole's kernel).  0 when no
 * axis brackets it so. */
/* The profile coordinate of each axis of a GEMM table (ktable.h
 * rl_kt_fill_holes, the staircase along its axes): u[a][0] = 0 and
 * u[a][j + 1] = u[a][j] + max(0, the lower median, over the lines along
 * axis a measured at both j and j + 1, of ln latency(j + 1) - ln
 * latency(j)); NaN from a pair no line measures on.  Returns 0, or -1 out
 * of memory (u then unset: the caller reads none). */
static int gemm_profile(const rl_ktable *t, double (*u)[RL_KT_AXIS_MAX])
{
    double *d = malloc((t->n ? t->n : 1) * sizeof *d);
    if (!d)
        return -1;
    for (int a = 0; a < t->naxes; a++) {
        size_t stride = axis_stride(t, a), at[RL_KT_AXIS_MAX + 1] = {0};
        int idx[RL_KT_AXES];
        /* counting pass, then each pair's differences side by side in d */
        for (int pass = 0; pass < 2; pass++) {
            size_t fill[RL_KT_AXIS_MAX] = {0};
            for (size_t i = 0; i < t->n; i++) {
                coords(t, i, idx);
                if (idx[a] + 1 >= t->len[a] || !is_measured(t, i) || !is_measured(t, i + stride))
                    continue;
                if (pass)
                    d[at[idx[a]] + fill[idx[a]]] = t->logv[i + stride] - t->logv[i];
                fill[idx[a]]++;
            }
            for (int j = 0; !pass && j < t->len[a]; j++)
                at[j + 1] = at[j] + fill[j];
        }
        u[a][0] = 0;
        for (int j = 0; j + 1 < t->len[a]; j++) {
            size_t n = at[j + 1] - at[j];
            if (n)
                qsort(d + at[j], n, sizeof *d, rl_cmp_double);
            u[a][j + 1] = n ? u[a][j] + fmax(0.0, d[at[j] + (n - 1) / 2]) : NAN;
        }
    }
    free(d);
    return 0;
}

/* The weight of the upper end `up` of the bracket lo < c < up along axis a:
 * c's place in the profile coordinate u (gemm_profile) where u is known
 * and rises over the bracket, else in ln shape. */
static double bracket_weight(const rl_ktable *t, const double (*u)[RL_KT_AXIS_MAX], int a,
                             int lo, int c, int up)
{
    const double *la = t->logaxis[a];
    double w = (la[c] - la[lo]) / (la[up] - la[lo]);
    if (!u)
        return w;
    double span = u[a][up] - u[a][lo], at = u[a][c] - u[a][lo];
    return span > 0 && isfinite(span) && isfinite(at) ? at / span : w;
}

static int bracketed(const rl_ktable *t, size_t h, const int *hi, rl_kt_ideal_fn ideal,
                     const void *ctx, const double (*u)[RL_KT_AXIS_MAX], double *logv)
{
    size_t stride = 1;
    double sum[2] = {0, 0}, wsum[2] = {0, 0};
    int n[2] = {0, 0}, gemm = !strcmp(t->axis_name[0], "m"), others = 0;
    unsigned kh = hole_kernel(t, h, hi);
    for (int a = t->naxes - 1; a >= 0; a--) {
        int lo = next_measured(t, h, hi, a, stride, hi[a], -1);
        int up = next_measured(t, h, hi, a, stride, hi[a], 1);
        if (lo >= 0 && up < t->len[a]) { /* a spike at an end: bracket past it (ktable.h) */
            int l2 = past_spike(t, h, hi, a, stride, lo, up, -1);
            up = past_spike(t, h, hi, a, stride, up, lo, 1);
            lo = l2;
        }
        if (lo >= 0 && up < t->len[a] && !across_cut(t, a, lo, up)) {
            const double *la = t->logaxis[a];
            double width = la[up] - la[lo], w = bracket_weight(t, u, a, lo, hi[a], up);
            unsigned kb = kh ? bracket_kernel(t, h, hi, a, stride, lo, up) : 0;
            int other = kb && kb != kh;
            int k = other || steps_across(t, h, hi, a, stride, lo, up, ideal, ctx);
            others += other;
            double v = k || gemm ? (1 - w) * t->logv[on_line(h, hi[a], lo, stride)] +
                                       w * t->logv[on_line(h, hi[a], up, stride)]
                                 : curved(t, h, hi, a, stride, lo, up, ideal, ctx);
            sum[k] += v / width;
            wsum[k] += 1 / width;
            n[k]++;
        }
        stride *= (size_t)t->len[a];
    }
    if (!n[0] && others) /* only brackets of other kernels: the edge rule, its own kernel's nodes */
        return 0;
    int k = n[0] ? 0 : 1;
    if (n[k])
        *logv = sum[k] / wsum[k];
    return n[k] > 0;
}

/* Whether grid coordinates i and j lie on the same side of every
 * documented kernel switch (rl_ktable.cut). */
static int same_side(const rl_ktable *t, const int *i, const int *j)
{
    for (int a = 0; a < t->naxes; a++)
        if (across_cut(t, a, i[a], j[a]))
            return 0;
    return 1;
}

/* The measured nodes fewest grid steps from a hole seen so far: that
 * count, the sum of their scaled ln latencies (in node order) and how many. */
typedef struct {
    int best; /* -1: none yet */
    double sum;
    int n;
} nearest_group;

/* Whether a node s steps away joins group g (a tie or a nearer one). */
static int nearest_wants(const nearest_group *g, int s)
{
    return g->best < 0 || s <= g->best;
}

/* A node s steps away, of scaled ln latency v, into group g: a nearer
 * one restarts the sum, a tie adds to it. */
static void nearest_add(nearest_group *g, int s, double v)
{
    if (!nearest_wants(g, s))
        return;
    if (s != g->best) {
        g->best = s;
        g->sum = 0;
        g->n = 0;
    }
    g->sum += v;
    g->n++;
}

/* The hole at h (coordinates hi) from the measured nodes fewest grid steps
 * away, each scaled along the roofline, those on its side of every
 * documented switch only where there is one, and of those the ones of its
 * kernel kh (0: any) where some are; their mean ln latency.  One pass over
 * the nodes keeps four groups, the nodes on the hole's side and all of
 * them, each also of its kernel only, and takes the side's unless it is
 * empty, of its kernel unless that is empty: the same nodes, summed in the
 * same order, as finding the side, then the fewest steps, then their mean
 * in three passes (test_ktable test_fill_holes_nearest,
 * test_fill_holes_named_edge). */
static double nearest_along_roofline(const rl_ktable *t, const int *hi, unsigned kh,
                                     rl_kt_ideal_fn ideal, const void *ctx)
{
    int mi[RL_KT_AXES];
    double hx[RL_KT_AXES], mx[RL_KT_AXES];
    nearest_group side = {-1, 0, 0}, all = {-1, 0, 0}, side_k = {-1, 0, 0}, all_k = {-1, 0, 0};
    node_shape(t, hi, hx);
    for (size_t m = 0; m < t->n; m++) {
        if (!is_measured(t, m))
            continue;
        coords(t, m, mi);
        int s = steps(t, hi, mi), same = same_side(t, hi, mi);
        int mine = kh && t->kernel[m] == kh;
        if (!nearest_wants(&all, s) && !(same && nearest_wants(&side, s)) &&
            !(mine && nearest_wants(&all_k, s)) && !(same && mine && nearest_wants(&side_k, s)))
            continue;
        node_shape(t, mi, mx);
        double v = t->logv[m] + log(roofline_ratio(t, ideal, ctx, hx, mx));
        nearest_add(&all, s, v);
        if (same)
            nearest_add(&side, s, v);
        if (mine)
            nearest_add(&all_k, s, v);
        if (mine && same)
            nearest_add(&side_k, s, v);
    }
    const nearest_group *g = side.n ? (side_k.n ? &side_k : &side) : all_k.n ? &all_k : &all;
    return g->sum / g->n;
}

long rl_kt_fill_holes(rl_ktable *t, rl_kt_ideal_fn ideal, const void *ctx)
{
    t->floor_s = NAN; /* the nodes change: the floor is found again (rl_kt_time) */
    size_t measured = 0;
    for (size_t i = 0; i < t->n; i++)
        measured += is_measured(t, i);
    if (measured == 0)
        return -1;
    /* the sources: the measured nodes as they stand (rl_kt_isotonic first); a node
     * filled here is marked at once and so is never a source */
    long filled = 0;
    int hi[RL_KT_AXES];
    /* a GEMM table's holes read its profile coordinate (ktable.h); none
     * when out of memory (ln shape then, the rule before it) */
    double (*u)[RL_KT_AXIS_MAX] = NULL;
    if (!strcmp(t->axis_name[0], "m") && measured < t->n &&
        (u = malloc(RL_KT_AXES * sizeof *u)) && gemm_profile(t, u) != 0) {
        free(u);
        u = NULL;
    }
    for (size_t h = 0; h < t->n; h++) {
        if (!isnan(t->logv[h]) || t->filled[h])
            continue;
        coords(t, h, hi);
        double v;
        if (!bracketed(t, h, hi, ideal, ctx, (const double(*)[RL_KT_AXIS_MAX])u, &v))
            v = nearest_along_roofline(t, hi, hole_kernel(t, h, hi), ideal, ctx);
        t->logv[h] = v;
        t->filled[h] = 1;
        filled++;
    }
    free(u);
    return filled;
}

/* t's fastest measured node's latency (ktable.h, the latency floor): the
 * exp of its ln, found and taken on first use and kept in t->floor_s (a
 * cache: the nodes are not changed by it, hence the cast; an exp per
 * lookup was 7.5% of rl_kt_time's instructions in the README's size
 * search on h100-sxm at 20 req/s, h29speed); 0 for a table with no
 * measured node. */
/* 1: this thread writes no table cache (rl_kt_hold_caches). */
static _Thread_local int held;

void rl_kt_hold_caches(int hold) { held = hold; }

static double fastest(const rl_ktable *t)
{
    double f = t->floor_s;
    if (isnan(f)) {
        double m = INFINITY;
        for (size_t i = 0; i < t->n; i++)
            if (!t->filled[i] && t->logv[i] < m)
                m = t->logv[i];
        f = exp(isfinite(m) ? m : -INFINITY);
        if (!held)
            ((rl_ktable *)(void *)t)->floor_s = f;
    }
    return f;
}

double rl_kt_coord(const rl_ktable *t, const double *x, int a)
{
    return t->pairs && a == 0 ? x[0] * x[2] : x[a];
}

void rl_kt_set_coord(const rl_ktable *t, double *x, int a, double v)
{
    x[a] = t->pairs && a == 0 ? v / x[2] : v;
}

double rl_kt_time(const rl_ktable *t, const double *shape, rl_kt_ideal_fn ideal, const void *ctx,
                  rl_provenance *prov)
{
    double xp[RL_KT_AXES];
    const double *x = shape;
    if (t->pairs) { /* the table's coordinates (RL_KT_PAIRS) */
        memcpy(xp, shape, (size_t)t->naxes * sizeof *xp);
        xp[0] = shape[0] * shape[2];
        x = xp;
    }
    int lo[RL_KT_AXES] = {0}; /* set on every axis below; gcc -O1 cannot tell */
    double w[RL_KT_AXES], xc[RL_KT_AXES];
    int outside = 0, between = 0;
    for (int a = 0; a < t->naxes; a++) {
        const double *ax = t->axis[a];
        int n = t->len[a];
        double v = x[a];
        if (!(v > ax[0]) || n == 1) { /* at or below the first node (NaN too) */
            outside |= !(v == ax[0]);
            lo[a] = 0;
            w[a] = 0;
            xc[a] = ax[0];
            continue;
        }
        if (v >= ax[n - 1]) {
            outside |= v > ax[n - 1];
            lo[a] = n - 1;
            w[a] = 0;
            xc[a] = ax[n - 1];
            continue;
        }
        xc[a] = v;
        /* found before (rl_ktable.memo): the same node and weight */
        struct rl_kt_memo *mo = &((rl_ktable *)(void *)t)->memo[a];
        int j = 0;
        while (j < RL_KT_MEMO && !(mo->v[j] == v))
            j++;
        if (j == RL_KT_MEMO) {
            /* the node i with ax[i] <= v < ax[i + 1]: halving the nodes left
             * (ax[0 .. n - 2]) to the one, without a branch on the comparison
             * (a mispredicted one each halving) */
            const double *at = ax;
            for (int len = n - 1; len > 1; len -= len / 2)
                at = at[len / 2] <= v ? at + len / 2 : at;
            int i = (int)(at - ax);
            const double *la = t->logaxis[a];
            double wi = v == ax[i] ? 0.0 : (log(v) - la[i]) / (la[i + 1] - la[i]);
            if (held) { /* read, never written (rl_kt_hold_caches) */
                lo[a] = i;
                w[a] = wi;
                between |= w[a] > 0;
                continue;
            }
            j = mo->next;
            mo->next = (j + 1) % RL_KT_MEMO;
            mo->v[j] = v;
            mo->lo[j] = i;
            mo->w[j] = wi;
        }
        lo[a] = mo->lo[j];
        w[a] = mo->w[j];
        between |= w[a] > 0;
    }
    /* sum over the corners of the cell along the axes strictly between
     * nodes (the others contribute their node): 2^k corners for k such axes */
    int act[RL_KT_AXES], k = 0;
    size_t stride[RL_KT_AXES], base = rl_kt_index(t, lo), st = 1;
    for (int a = t->naxes - 1; a >= 0; a--) {
        stride[a] = st;
        st *= (size_t)t->len[a];
        if (w[a] > 0)
            act[k++] = a;
    }
    const double *lv = t->logv;
    double logt = 0;
    for (unsigned corner = 0; corner < (1u << k); corner++) {
        double wt = 1;
        size_t at = base;
        for (int j = 0; j < k; j++) {
            int up = (corner >> j) & 1;
            wt *= up ? w[act[j]] : 1.0 - w[act[j]];
            at += up ? stride[act[j]] : 0;
        }
        logt += wt * lv[at];
    }
    double time = exp(logt);
    rl_provenance p = between ? RL_PROV_INTERPOLATED : RL_PROV_MEASURED;
    if (p == RL_PROV_MEASURED && t->filled[base])
        p = RL_PROV_INTERPOLATED;
    if (outside) {
        time *= roofline_ratio(t, ideal, ctx, x, xc);
        p = RL_PROV_EXTRAPOLATED;
    }
    time = rl_fmax(time, fastest(t)); /* the latency floor (ktable.h) */
    if (prov)
        *prov = p;
    return time;
}

/* ---- Lua form ------------------------------------------------------------- */

/* One number of an array at position i (1-based) into *out. */
static int check_number(double v, int isnum, const char *origin, const char *field,
                        const char *key, size_t i, double *out, char *err, size_t errlen)
{
    if (!isnum || !isfinite(v))
        RL_FAIL("%s: field '%s.%s[%zu]': expected a finite number", origin, field, key, i);
    *out = v;
    return 0;
}

/* c separates the numbers of a string (a space, comma, tab, CR or
 * newline) or ends it: strchr(" ,\t\r\n", c) without the call, 5% of a
 * GPU preset's load (callgrind). */
static int separator(char c)
{
    return c == ' ' || c == '\n' || c == ',' || c == '\t' || c == '\r' || c == '\0';
}

/* strtod(p, end), taking its exact fast path without the call where the
 * token at p is a plain decimal (digits, a point, an exponent) followed by
 * a separator or the end: an integer of at most 15 significant digits
 * times a power of ten of at most 22 is exact in doubles on both sides,
 * so one multiplication or division rounds as strtod does (W. D.
 * Clinger, "How to read floating point numbers accurately", PLDI 1990,
 * the fast path); anything else goes to strtod.  Why: strtod was half of
 * the instructions of `step --hw h100-sxm` (138,004 latencies and 62,449
 * filled node numbers read; callgrind, stop 46). */
static double decimal(const char *p, char **end)
{
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char *s = p;
    int neg = *s == '-', digits = 0, any = 0, scale = 0;
    s += *s == '-' || *s == '+';
    unsigned long long m = 0;
    for (int point = 0;; s++) {
        if (*s == '.' && !point) {
            point = 1;
            continue;
        }
        if (*s < '0' || *s > '9')
            break;
        any = 1;
        m = m * 10 + (unsigned)(*s - '0');
        digits += m > 0;
        scale -= point;
        if (digits > 15)
            return strtod(p, end);
    }
    if (*s == 'e' || *s == 'E') {
        const char *e = s + 1;
        int eneg = *e == '-', x = 0, ed = 0;
        e += *e == '-' || *e == '+';
        for (; *e >= '0' && *e <= '9' && ed < 4; e++, ed++)
            x = x * 10 + (*e - '0');
        if (!ed || (*e >= '0' && *e <= '9'))
            return strtod(p, end);
        scale += eneg ? -x : x;
        s = e;
    }
    if (!any || !separator(*s) || scale > 22 || scale < -22)
        return strtod(p, end);
    double v = scale >= 0 ? (double)m * pow10[scale] : (double)m / pow10[-scale];
    *end = (char *)(void *)s;
    return neg ? -v : v;
}

/* t[key] (t at idx) into out[max], *n its length: an array of numbers, or
 * a string of numbers separated by spaces, commas or newlines (the compact
 * form rl_kt_write uses: Lua parses a long string far faster than as many
 * numeric constants).  With `ranges`, a token A-B of the string (whole
 * numbers, A <= B) stands for A, A + 1, ..., B (`filled`, rl_kt_write). */
static int read_array(lua_State *L, int idx, const char *key, const char *origin,
                      const char *field, double *out, size_t max, size_t *n, int ranges,
                      char *err, size_t errlen)
{
    lua_getfield(L, idx, key);
    int rc = 0;
    size_t len = 0;
    if (lua_type(L, -1) == LUA_TSTRING) {
        const char *p = lua_tostring(L, -1);
        for (;;) {
            while (*p && separator(*p))
                p++;
            if (!*p)
                break;
            char *end;
            double v = decimal(p, &end), count = 1;
            if (ranges && end != p && *end == '-') { /* A-B */
                char *e2;
                double last = decimal(end + 1, &e2);
                if (e2 == end + 1 || !isfinite(last - v) || v != floor(v) ||
                    last != floor(last) || !(last >= v) || !separator(*e2)) {
                    snprintf(err, errlen, "%s: field '%s.%s[%zu]': expected a number or a range "
                             "A-B of whole numbers, A <= B", origin, field, key, len + 1);
                    rc = -1;
                    break;
                }
                end = e2;
                count = last - v + 1;
            }
            if (count > (double)(max - len)) {
                snprintf(err, errlen, "%s: field '%s.%s': more than %zu values", origin, field,
                         key, max);
                rc = -1;
                break;
            }
            for (size_t k = 0; rc == 0 && (double)k < count; k++, len++)
                rc = check_number(v + (double)k, end != p && separator(*end), origin,
                                  field, key, len + 1, &out[len], err, errlen);
            if (rc != 0)
                break;
            p = end;
        }
    } else if (lua_istable(L, -1)) {
        len = (size_t)lua_rawlen(L, -1);
        if (len > max) {
            snprintf(err, errlen, "%s: field '%s.%s': at most %zu values, got %zu", origin, field,
                     key, max, len);
            rc = -1;
        }
        for (size_t i = 0; rc == 0 && i < len; i++) {
            lua_rawgeti(L, -1, (lua_Integer)i + 1);
            int isnum;
            double v = lua_tonumberx(L, -1, &isnum);
            lua_pop(L, 1);
            rc = check_number(v, isnum, origin, field, key, i + 1, &out[i], err, errlen);
        }
    } else {
        snprintf(err, errlen, "%s: field '%s.%s': expected an array of numbers, got %s", origin,
                 field, key, luaL_typename(L, -1));
        rc = -1;
    }
    lua_pop(L, 1);
    *n = len;
    return rc;
}

/* Check that every key of the table at idx is "axes", "values", "filled" or
 * an axis name. */
static int check_keys(lua_State *L, int idx, const rl_ktable *t, const char *origin,
                      const char *field, char *err, size_t errlen)
{
    lua_pushnil(L);
    while (lua_next(L, idx) != 0) {
        lua_pop(L, 1);
        int known = 0;
        if (lua_type(L, -1) == LUA_TSTRING) {
            const char *k = lua_tostring(L, -1);
            known = !strcmp(k, "axes") || !strcmp(k, "values") || !strcmp(k, "values_us") ||
                    !strcmp(k, "filled") || !strcmp(k, "cut");
            for (int a = 0; a < t->naxes && !known; a++)
                known = !strcmp(k, t->axis_name[a]);
        }
        if (!known) {
            snprintf(err, errlen, "%s: field '%s': unknown key '%s' (axes, values, values_us, "
                     "filled, cut, or an axis named in axes)", origin, field,
                     lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : luaL_typename(L, -1));
            lua_pop(L, 1);
            return -1;
        }
    }
    return 0;
}

static int read_axes(lua_State *L, int idx, const char *origin, const char *field, rl_ktable *t,
                     char *err, size_t errlen)
{
    lua_getfield(L, idx, "axes");
    int ok = lua_istable(L, -1);
    int n = ok ? (int)lua_rawlen(L, -1) : 0;
    if (!ok || n < 1 || n > RL_KT_AXES) {
        lua_pop(L, 1);
        RL_FAIL("%s: field '%s.axes': expected an array of 1 to %d axis names", origin, field,
                RL_KT_AXES);
    }
    t->naxes = n;
    for (int a = 0; a < n; a++) {
        lua_rawgeti(L, -1, a + 1);
        size_t len = 0;
        const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &len) : NULL;
        int bad = !s || len == 0 || len >= sizeof t->axis_name[a] || !strcmp(s, "axes") ||
                  !strcmp(s, "values") || !strcmp(s, "values_us") || !strcmp(s, "filled") ||
                  !strcmp(s, "cut");
        for (int b = 0; b < a && !bad; b++)
            bad = !strcmp(s, t->axis_name[b]);
        if (!bad)
            memcpy(t->axis_name[a], s, len + 1);
        lua_pop(L, 1);
        if (bad) {
            lua_pop(L, 1);
            RL_FAIL("%s: field '%s.axes[%d]': expected a new axis name of 1 to %zu characters "
                    "(not axes, values, values_us, filled or cut)", origin, field, a + 1,
                    sizeof t->axis_name[a] - 1);
        }
    }
    lua_pop(L, 1);
    return 0;
}

/* The optional `filled` node numbers (1-based) into t->filled. */
static int read_filled(lua_State *L, int idx, const char *origin, const char *field, rl_ktable *t,
                       char *err, size_t errlen)
{
    lua_getfield(L, idx, "filled");
    int absent = lua_isnil(L, -1);
    lua_pop(L, 1);
    if (absent)
        return 0;
    double *k = malloc(t->n * sizeof *k);
    size_t n = 0;
    int rc = k ? read_array(L, idx, "filled", origin, field, k, t->n, &n, 1, err, errlen) : -1;
    if (!k)
        snprintf(err, errlen, "%s: field '%s.filled': out of memory", origin, field);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (k[i] != floor(k[i]) || k[i] < 1 || k[i] > (double)t->n) {
            snprintf(err, errlen, "%s: field '%s.filled[%zu]': expected a node number in 1..%zu",
                     origin, field, i + 1, t->n);
            rc = -1;
        } else {
            t->filled[(size_t)k[i] - 1] = 1;
        }
    }
    free(k);
    return rc;
}

/* The optional `cut` (a switch along a batched axis, rl_kt_find_steps):
 * a table of axis name = value, each a batched axis of t and a finite
 * value > 0, into t->cut. */
static int read_cut(lua_State *L, int idx, const char *origin, const char *field, rl_ktable *t,
                    char *err, size_t errlen)
{
    lua_getfield(L, idx, "cut");
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return 0;
    }
    if (!lua_istable(L, -1)) {
        snprintf(err, errlen, "%s: field '%s.cut': expected a table of axis = value, got %s",
                 origin, field, luaL_typename(L, -1));
        lua_pop(L, 1);
        return -1;
    }
    unsigned along = batched_axes(t);
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {
        int a = -1, isnum = 0;
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
        for (int b = 0; k && b < t->naxes && a < 0; b++)
            a = !strcmp(k, t->axis_name[b]) && (along >> b & 1) ? b : -1;
        double v = lua_tonumberx(L, -1, &isnum);
        lua_pop(L, 1);
        if (a < 0 || !isnum || !isfinite(v) || !(v > 0)) {
            snprintf(err, errlen, "%s: field '%s.cut': %s", origin, field,
                     a < 0 ? "expected keys that name a batched axis of axes (m, tokens, "
                             "streams, batch, isl or context)"
                           : "expected a finite value > 0");
            lua_pop(L, 2);
            return -1;
        }
        t->cut[a] = v;
    }
    lua_pop(L, 1);
    return 0;
}

/* Which of `values` (seconds) and `values_us` (microseconds) the table at
 * idx gives its latencies in: exactly one.  NULL with err set otherwise. */
static const char *values_key(lua_State *L, int idx, const char *origin, const char *field,
                              char *err, size_t errlen)
{
    lua_getfield(L, idx, "values");
    int s = !lua_isnil(L, -1);
    lua_getfield(L, idx, "values_us");
    int us = !lua_isnil(L, -1);
    lua_pop(L, 2);
    if (s != us)
        return s ? "values" : "values_us";
    snprintf(err, errlen, "%s: field '%s': %s", origin, field,
             s ? "both values and values_us given (latencies in seconds or in microseconds: one)"
               : "expected values (latencies in seconds) or values_us (in microseconds)");
    return NULL;
}

int rl_kt_read(lua_State *L, int idx, const char *origin, const char *field, rl_ktable *out,
               char *err, size_t errlen)
{
    idx = lua_absindex(L, idx);
    rl_ktable t;
    memset(&t, 0, sizeof t);
    if (!lua_istable(L, idx))
        RL_FAIL("%s: field '%s': expected a table, got %s", origin, field, luaL_typename(L, idx));
    if (read_axes(L, idx, origin, field, &t, err, errlen) != 0 ||
        check_keys(L, idx, &t, origin, field, err, errlen) != 0)
        return -1;
    for (int a = 0; a < t.naxes; a++) {
        size_t n;
        if (read_array(L, idx, t.axis_name[a], origin, field, t.axis[a], RL_KT_AXIS_MAX, &n, 0,
                       err, errlen) != 0)
            return -1;
        t.len[a] = (int)n;
    }
    char e2[256];
    if (rl_kt_alloc(&t, e2, sizeof e2) != 0)
        RL_FAIL("%s: field '%s': %s", origin, field, e2);
    size_t n;
    int rc = 0;
    const char *key = values_key(L, idx, origin, field, err, errlen);
    double unit = key && !strcmp(key, "values_us") ? 1e-6 : 1.0;
    if (!key)
        rc = -1;
    if (rc == 0)
        rc = read_array(L, idx, key, origin, field, t.logv, t.n, &n, 0, err, errlen);
    if (rc == 0 && n != t.n) {
        snprintf(err, errlen, "%s: field '%s.%s': expected %zu latencies (the product of "
                 "the axis lengths), got %zu", origin, field, key, t.n, n);
        rc = -1;
    }
    for (size_t i = 0; rc == 0 && i < t.n; i++) {
        if (!(t.logv[i] > 0)) {
            snprintf(err, errlen, "%s: field '%s.%s[%zu]': a latency must be > 0 %s, got %g",
                     origin, field, key, i + 1, unit == 1.0 ? "seconds" : "microseconds",
                     t.logv[i]);
            rc = -1;
        }
        t.logv[i] = log(t.logv[i] * unit);
    }
    if (rc == 0)
        rc = read_filled(L, idx, origin, field, &t, err, errlen);
    if (rc == 0)
        rc = read_cut(L, idx, origin, field, &t, err, errlen);
    if (rc == 0 && rl_kt_isotonic(&t, RL_KT_ROUNDS) < 0) {
        snprintf(err, errlen, "%s: field '%s': out of memory", origin, field);
        rc = -1;
    }
    if (rc != 0) {
        rl_kt_free(&t);
        return -1;
    }
    *out = t;
    return 0;
}

void rl_kt_write(FILE *f, const rl_ktable *t, int indent)
{
    fprintf(f, "{\n%*saxes = {", indent + 2, "");
    for (int a = 0; a < t->naxes; a++)
        fprintf(f, "%s\"%s\"", a ? ", " : " ", t->axis_name[a]);
    fprintf(f, " },\n");
    for (int a = 0; a < t->naxes; a++) {
        fprintf(f, "%*s%s = {", indent + 2, "", t->axis_name[a]);
        for (int i = 0; i < t->len[a]; i++)
            fprintf(f, "%s%.10g", i ? ", " : " ", t->axis[a][i]);
        fprintf(f, " },\n");
    }
    fprintf(f, "%*svalues_us = [[", indent + 2, "");
    for (size_t i = 0; i < t->n; i++) {
        char v[32];
        snprintf(v, sizeof v, "%.4g", exp(t->logv[i]) * 1e6);
        char *e = strstr(v, "e+0"), whole[32]; /* 1.234e+04 -> 1.234e4 */
        if (e)
            memmove(e + 1, e + 3, strlen(e + 3) + 1);
        /* the same number as a whole one where shorter: 1.234e4 -> 12340 */
        if (e && snprintf(whole, sizeof whole, "%.0f", strtod(v, NULL)) < (int)strlen(v))
            memcpy(v, whole, strlen(whole) + 1);
        fprintf(f, "%s%s", i % 16 ? " " : "\n", v);
    }
    fprintf(f, "\n%*s]],\n", indent + 2, "");
    /* a switch along a batched axis (rl_kt_find_steps): the fit at read needs it */
    unsigned along = batched_axes(t);
    int cuts = 0;
    for (int a = 0; a < t->naxes; a++) {
        if (!(along >> a & 1) || !(t->cut[a] > 0))
            continue;
        if (!cuts++)
            fprintf(f, "%*scut = {", indent + 2, "");
        fprintf(f, "%s%s = %.10g", cuts > 1 ? ", " : " ", t->axis_name[a], t->cut[a]);
    }
    if (cuts)
        fprintf(f, " },\n");
    size_t holes = 0;
    for (size_t i = 0; i < t->n; i++)
        holes += t->filled[i];
    if (holes) {
        fprintf(f, "%*sfilled = [[", indent + 2, "");
        /* a run of filled nodes as a range, first-last (rl_kt_read) */
        size_t k = 0;
        for (size_t i = 0; i < t->n; i++) {
            if (!t->filled[i])
                continue;
            size_t j = i;
            while (j + 1 < t->n && t->filled[j + 1])
                j++;
            fprintf(f, "%s%zu", k++ % 16 ? " " : "\n", i + 1);
            if (j > i)
                fprintf(f, "-%zu", j + 1);
            i = j;
        }
        fprintf(f, "\n%*s]],\n", indent + 2, "");
    }
    fprintf(f, "%*s}", indent, "");
}
