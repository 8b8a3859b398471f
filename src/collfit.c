/* collfit.c — collective tables from AIConfigurator's measurements (see
 * collfit.h for the columns, units and the fit). */
#include "collfit.h"
#include "error.h"
#include "number.h"
#include "report.h"
#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

enum { C_OP, C_SRC, C_DTYPE, C_GPUS, C_SIZE, C_LAT, NCOL };
static const char *const COLS[NCOL] = {"op_name", "kernel_source", "dtype", "num_gpus",
                                       "message_size", "latency"};

/* The column index of each wanted column in a header line (dtype: either
 * nccl_dtype or allreduce_dtype); -1 when absent. */
static void header_columns(char *line, int *idx)
{
    for (int c = 0; c < NCOL; c++)
        idx[c] = -1;
    int i = 0;
    for (char *tok = strtok(line, ",\r\n"); tok; tok = strtok(NULL, ",\r\n"), i++) {
        for (int c = 0; c < NCOL; c++)
            if (strcmp(tok, COLS[c]) == 0 ||
                (c == C_DTYPE && (strcmp(tok, "nccl_dtype") == 0 ||
                                  strcmp(tok, "allreduce_dtype") == 0)))
                idx[c] = i;
    }
}

/* Split a data line into at most `max` fields (in place). */
static int split(char *line, char **f, int max)
{
    int n = 0;
    char *p = line;
    while (n < max) {
        f[n++] = p;
        char *c = strchr(p, ',');
        if (!c)
            break;
        *c = '\0';
        p = c + 1;
    }
    p = f[n - 1];
    p[strcspn(p, "\r\n")] = '\0';
    return n;
}

static int parse_op(const char *s, rl_collective *op)
{
    static const char *const N[] = {"all_gather", "reduce_scatter", "all_reduce", "alltoall"};
    for (int i = 0; i < 4; i++)
        if (strcmp(s, N[i]) == 0) {
            *op = (rl_collective)i;
            return 0;
        }
    return -1;
}

static const char *impl_of(const char *src)
{
    static const char *const MAP[][2] = {{"NCCL", "nccl"},
                                         {"TRTLLM", "trtllm"},
                                         {"vLLM_custom_graph", "vllm_graph"},
                                         {"vLLM_custom_eager", "vllm_eager"}};
    for (size_t i = 0; i < sizeof MAP / sizeof MAP[0]; i++)
        if (strcmp(src, MAP[i][0]) == 0)
            return MAP[i][1];
    return NULL;
}

/* Bytes per element of a dtype name; 0 when unknown. */
static double dtype_bytes(const char *s)
{
    if (strcmp(s, "half") == 0 || strcmp(s, "bfloat16") == 0 || strcmp(s, "float16") == 0)
        return 2;
    if (strcmp(s, "int8") == 0 || strcmp(s, "fp8") == 0)
        return 1;
    if (strcmp(s, "float") == 0 || strcmp(s, "float32") == 0)
        return 4;
    return 0;
}

/* Parse a positive finite number (number.h: no hex); 0 on success. */
static int positive(const char *s, double *v)
{
    return rl_parse_number(s, v, NULL) != 0 || !(*v > 0) ? -1 : 0;
}

long rl_collfit_read(const char *path, rl_coll_sample **s, size_t *n, size_t *cap, char *err,
                     size_t errlen)
{
    gzFile g = rl_gzopen_input(path, "a collective table", err, errlen);
    if (!g)
        return -1;
    char line[1024];
    int idx[NCOL] = {0}, have_header = 0; /* set by header_columns before a data line is read */
    long lineno = 0, added = 0;
    while (gzgets(g, line, sizeof line)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (!have_header) {
            header_columns(line, idx);
            for (int c = 0; c < NCOL; c++)
                if (idx[c] < 0)
                    RL_FAIL_GOTO(fail, "%s:%ld: column '%s': missing from the header", path, lineno,
                                 c == C_DTYPE ? "nccl_dtype' or 'allreduce_dtype" : COLS[c]);
            have_header = 1;
            continue;
        }
        char *f[32];
        int nf = split(line, f, 32);
        for (int c = 0; c < NCOL; c++)
            if (idx[c] >= nf)
                RL_FAIL_GOTO(fail, "%s:%ld: column '%s': missing (the line has %d fields)", path, lineno, COLS[c],
                             nf);
        rl_coll_sample x = {0};
        double gpus, size, bpe = dtype_bytes(f[idx[C_DTYPE]]);
        const char *impl = impl_of(f[idx[C_SRC]]);
        if (parse_op(f[idx[C_OP]], &x.op) != 0)
            RL_FAIL_GOTO(fail, "%s:%ld: column 'op_name': unknown operation '%s'", path, lineno, f[idx[C_OP]]);
        if (!impl)
            RL_FAIL_GOTO(fail, "%s:%ld: column 'kernel_source': unknown '%s' (NCCL, TRTLLM, vLLM_custom_graph, "
                         "vLLM_custom_eager)", path, lineno, f[idx[C_SRC]]);
        if (bpe == 0)
            RL_FAIL_GOTO(fail, "%s:%ld: column '%s': unknown dtype '%s'", path, lineno,
                         "nccl_dtype/allreduce_dtype", f[idx[C_DTYPE]]);
        if (positive(f[idx[C_GPUS]], &gpus) != 0 || gpus < 2 || gpus != floor(gpus) || gpus > 1e6)
            RL_FAIL_GOTO(fail, "%s:%ld: column 'num_gpus': expected a whole number >= 2, got '%s'", path, lineno,
                         f[idx[C_GPUS]]);
        if (positive(f[idx[C_SIZE]], &size) != 0)
            RL_FAIL_GOTO(fail, "%s:%ld: column 'message_size': expected a number > 0, got '%s'", path, lineno,
                         f[idx[C_SIZE]]);
        if (positive(f[idx[C_LAT]], &x.seconds) != 0)
            RL_FAIL_GOTO(fail, "%s:%ld: column 'latency': expected milliseconds > 0, got '%s'", path, lineno,
                         f[idx[C_LAT]]);
        if (bpe != 2)
            continue; /* 16-bit activations only (collfit.h) */
        snprintf(x.impl, sizeof x.impl, "%s", impl);
        x.gpus = (long long)gpus;
        x.bytes = size * bpe;
        x.seconds *= 1e-3;
        if (*n == *cap) {
            size_t nc = *cap ? 2 * *cap : 256;
            rl_coll_sample *p = realloc(*s, nc * sizeof *p);
            if (!p)
                RL_FAIL_GOTO(fail, "%s: out of memory", path);
            *s = p;
            *cap = nc;
        }
        (*s)[(*n)++] = x;
        added++;
    }
    if (!have_header)
        RL_FAIL_GOTO(fail, "%s:%ld: no header line (op_name, kernel_source, ...)", path, lineno);
    gzclose(g);
    return added;
fail:
    gzclose(g);
    return -1;
}

void rl_collfit_table_version(const char *path, char *v, size_t n)
{
    v[0] = '\0';
    gzFile g = gzopen(path, "rb");
    char line[512];
    while (g && gzgets(g, line, sizeof line) && line[0] == '#')
        if (strncmp(line, "# version: ", 11) == 0) {
            snprintf(v, n, "%.*s", (int)strcspn(line + 11, "\r\n"), line + 11);
            break;
        }
    if (g)
        gzclose(g);
}

static int same_group(const rl_coll_sample *a, const rl_coll_row *r)
{
    return a->op == r->op && a->gpus == r->gpus && strcmp(a->impl, r->impl) == 0;
}

/* The measured points of row r's group, by increasing size; a size
 * measured twice keeps the mean of its times, unless they are more than 2x
 * apart (an error). */
static int group_points(const rl_coll_sample *s, size_t n, rl_coll_row *r, char *err,
                        size_t errlen)
{
    r->np = 0;
    for (size_t i = 0; i < n; i++) {
        if (!same_group(&s[i], r))
            continue;
        int k = 0;
        while (k < r->np && r->bytes[k] < s[i].bytes)
            k++;
        if (k < r->np && r->bytes[k] == s[i].bytes) {
            double a = r->seconds[k], b = s[i].seconds;
            if (fmax(a, b) > 2 * fmin(a, b)) {
                snprintf(err, errlen, "%s over %lld GPUs (%s), %g bytes: measured twice, %g and "
                                      "%g s, more than 2x apart", rl_collective_name(r->op),
                         r->gpus, r->impl, s[i].bytes, a, b);
                return -1;
            }
            r->seconds[k] = (a + b) / 2;
            continue;
        }
        if (r->np == RL_COLL_POINTS) {
            snprintf(err, errlen, "%s over %lld GPUs (%s): more than %d sizes",
                     rl_collective_name(r->op), r->gpus, r->impl, RL_COLL_POINTS);
            return -1;
        }
        memmove(r->bytes + k + 1, r->bytes + k, (size_t)(r->np - k) * sizeof *r->bytes);
        memmove(r->seconds + k + 1, r->seconds + k, (size_t)(r->np - k) * sizeof *r->seconds);
        r->bytes[k] = s[i].bytes;
        r->seconds[k] = s[i].seconds;
        r->np++;
    }
    return 0;
}

/* The fit of collfit.h over the samples of row r's group. */
static int fit_group(const rl_coll_sample *s, size_t n, rl_coll_row *r, char *err, size_t errlen)
{
    double fl = INFINITY;
    for (size_t i = 0; i < n; i++)
        if (same_group(&s[i], r))
            fl = fmin(fl, s[i].seconds);
    /* weighted least squares, weight 1/t^2: sums of w, w x, w x^2, w t, w x t */
    double sw = 0, sx = 0, sxx = 0, st = 0, sxt = 0;
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        if (!same_group(&s[i], r) || s[i].seconds <= fl * (1 + RL_COLLFIT_KNEE))
            continue;
        double w = 1.0 / (s[i].seconds * s[i].seconds), x = s[i].bytes, t = s[i].seconds;
        sw += w;
        sx += w * x;
        sxx += w * x * x;
        st += w * t;
        sxt += w * x * t;
        used++;
    }
    if (used < 2) {
        snprintf(err, errlen, "%s over %lld GPUs (%s): %zu rows above the floor, need 2 to fit a "
                              "bandwidth", rl_collective_name(r->op), r->gpus, r->impl, used);
        return -1;
    }
    double det = sw * sxx - sx * sx;
    double a = (sxx * st - sx * sxt) / det, b = (sw * sxt - sx * st) / det;
    if (a < 0) { /* through the origin */
        a = 0;
        b = sxt / sxx;
    }
    if (!(b > 0) || !isfinite(b)) {
        snprintf(err, errlen, "%s over %lld GPUs (%s): time does not grow with size",
                 rl_collective_name(r->op), r->gpus, r->impl);
        return -1;
    }
    r->latency_s = a;
    r->bw = 1.0 / b;
    r->floor_s = fl;
    if (group_points(s, n, r, err, errlen) != 0)
        return -1;
    rl_coll_envelope(r);
    return 0;
}

int rl_collfit_fit(const rl_coll_sample *s, size_t n, rl_collectives *out, char *err,
                   size_t errlen)
{
    out->n = 0;
    for (size_t i = 0; i < n; i++) {
        int seen = 0;
        for (int j = 0; j < out->n && !seen; j++)
            seen = same_group(&s[i], &out->row[j]);
        if (seen)
            continue;
        if (out->n == RL_COLL_ROWS) {
            snprintf(err, errlen, "more than %d (op, impl, gpus) groups", RL_COLL_ROWS);
            return -1;
        }
        rl_coll_row *r = &out->row[out->n];
        memset(r, 0, sizeof *r);
        r->op = s[i].op;
        r->gpus = s[i].gpus;
        snprintf(r->impl, sizeof r->impl, "%s", s[i].impl);
        if (fit_group(s, n, r, err, errlen) != 0)
            return -1;
        out->n++;
    }
    out->present = 1;
    return 0;
}

/* Row r's prediction for sample x: (M), or (held_out) the lookup from the
 * other points (collfit.h); -1 when x is an end point there. */
static double predict(const rl_coll_row *r, const rl_coll_sample *x, int held_out)
{
    if (!held_out)
        return rl_coll_fit_time(r, x->bytes);
    int k = 0;
    while (k < r->np && r->bytes[k] < x->bytes)
        k++;
    if (k == 0 || k >= r->np - 1)
        return -1;
    return rl_coll_piecewise(r, r->seconds, x->bytes, k, NULL);
}

#define KIB 1024.0
#define MIB (1024.0 * 1024.0)

/* One GPU of rl_collfit_vllm_switches: compute capability (80, 90, 100),
 * symmetric memory up, and the custom AllReduce's limit with it per group
 * size 2, 4, 8 (CUSTOM_ALL_REDUCE_MAX_SIZES) and symmetric memory's
 * (SYMM_MEM_ALL_REDUCE_MAX_SIZES), bytes. */
typedef struct {
    const char *gpu;
    int symm;
    double ca_max[3], symm_max[3];
} vllm_gpu;

static const vllm_gpu VLLM_GPUS[] = {
    {"a100_sxm", 0, {0, 0, 0}, {0, 0, 0}},
    {"h100_sxm", 1, {64 * MIB, 32 * MIB, 256 * KIB}, {64 * MIB, 32 * MIB, 64 * MIB}},
    {"h200_sxm", 1, {64 * MIB, 32 * MIB, 256 * KIB}, {64 * MIB, 32 * MIB, 64 * MIB}},
    {"b200_sxm", 1, {2 * MIB, 2 * MIB, 1 * MIB}, {8 * MIB, 32 * MIB, 128 * MIB}},
    {"gb200", 0, {0, 0, 0}, {0, 0, 0}}, /* symmetric memory down (collfit.h) */
};

int rl_collfit_vllm_switches(rl_collectives *t, const char *gpu, const char *version)
{
    const vllm_gpu *g = NULL;
    for (size_t i = 0; i < sizeof VLLM_GPUS / sizeof VLLM_GPUS[0]; i++)
        if (strcmp(gpu, VLLM_GPUS[i].gpu) == 0)
            g = &VLLM_GPUS[i];
    int inclusive = strcmp(version, "0.24.0") == 0; /* symm_mem.py: <= from v0.24.0 on */
    if (!g || (!inclusive && strcmp(version, "0.14.0") != 0))
        return -1;
    int set = 0;
    for (int i = 0; i < t->n; i++) {
        rl_coll_row *r = &t->row[i];
        int w = r->gpus == 2 ? 0 : r->gpus == 4 ? 1 : r->gpus == 8 ? 2 : -1;
        if (r->op != RL_ALLREDUCE || w < 0 || strncmp(r->impl, "vllm_", 5) != 0)
            continue;
        double ca = g->symm ? fmin(g->ca_max[w], 8 * MIB) : 8 * MIB; /* custom_all_reduce.py */
        double two = r->gpus == 2 ? INFINITY : r->gpus <= 4 ? 512 * KIB : 256 * KIB; /* .cuh */
        r->nsw = 0;
        if (two < ca)
            r->sw[r->nsw++] = two;
        r->sw[r->nsw++] = ca;
        if (g->symm && g->symm_max[w] > ca)
            r->sw[r->nsw++] = g->symm_max[w] + (inclusive ? 1 : 0); /* <=: max runs below */
        set++;
    }
    return set;
}

size_t rl_collfit_error(const rl_collectives *t, const rl_coll_sample *s, size_t n,
                        const char *impl, int held_out, double *median, double *p90)
{
    *median = *p90 = 0;
    double *e = malloc((n ? n : 1) * sizeof *e);
    if (!e)
        return 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (impl && strcmp(s[i].impl, impl) != 0)
            continue;
        for (int j = 0; j < t->n; j++) {
            double p = same_group(&s[i], &t->row[j]) ? predict(&t->row[j], &s[i], held_out) : -1;
            if (p > 0)
                e[k++] = fabs(p / s[i].seconds - 1.0);
        }
    }
    if (k > 0) {
        qsort(e, k, sizeof *e, rl_cmp_double);
        *median = e[k / 2];
        *p90 = e[(size_t)ceil(0.9 * (double)k) - 1];
    }
    free(e);
    return k;
}
