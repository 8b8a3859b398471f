/* workload.c — seeded request workloads and trace CSV (see workload.h). */
#include "workload.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "error.h"
#include "interrupt.h"
#include "number.h"
#include "report.h"

/* ---- PRNG and distributions ------------------------------------------ */

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void rl_rng_seed(rl_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t rl_rng_next(rl_rng *r)
{
    uint64_t *s = r->s;
    uint64_t out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return out;
}

double rl_rng_uniform(rl_rng *r) { return ((double)(rl_rng_next(r) >> 11) + 0.5) * 0x1.0p-53; }

static double rng_normal(rl_rng *r)
{
    /* Box-Muller; one of the pair is enough here. */
    return sqrt(-2 * log(rl_rng_uniform(r))) * cos(2 * M_PI * rl_rng_uniform(r));
}

/* Gamma(shape k, scale 1) by Marsaglia & Tsang (ACM TOMS 26(3), 2000),
 * with the k < 1 boost G(k) = G(k+1) U^(1/k). */
static double rng_gamma(rl_rng *r, double k)
{
    if (k < 1)
        return rng_gamma(r, k + 1) * pow(rl_rng_uniform(r), 1 / k);
    double d = k - 1.0 / 3, c = 1 / sqrt(9 * d);
    for (;;) {
        double x = rng_normal(r), v = 1 + c * x;
        if (v <= 0)
            continue;
        v = v * v * v;
        double u = rl_rng_uniform(r);
        if (log(u) < 0.5 * x * x + d - d * v + d * log(v))
            return d * v;
    }
}

/* Split s in place at each `sep` into at most max parts; returns the count. */
static int split(char *s, char sep, char **parts, int max)
{
    int n = 0;
    while (n < max) {
        parts[n++] = s;
        char *c = strchr(s, sep);
        if (!c)
            break;
        *c = 0;
        s = c + 1;
    }
    return n;
}

static int parse_num(const char *s, double *out) { return rl_parse_number(s, out, NULL); }

/* Whether any of the n fields is meant as a number (number.h: nan, inf
 * and hex included: such a line is data with a bad value, not a header). */
static int any_numeric(char **fld, int n)
{
    double v;
    for (int i = 0; i < n; i++)
        if (rl_parse_number(fld[i], &v, NULL) != -1)
            return 1;
    return 0;
}

int rl_dist_parse(const char *s, const char *field, rl_dist *out, char *err, size_t errlen)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", s);
    char *parts[4] = {0};
    int np = split(buf, ':', parts, 4);
    memset(out, 0, sizeof *out);
    double a = 0, b = 0;
    if (np == 1 && strcmp(parts[0], "trace") == 0) {
        out->kind = RL_DIST_TRACE;
        return 0;
    }
    /* token counts are whole: N, MIN and MAX must be integers (a MEAN need not) */
    if (np == 1 && parse_num(parts[0], &a) == 0 && a >= 1 && a == floor(a)) {
        *out = (rl_dist){RL_DIST_FIXED, a, 0};
        return 0;
    }
    if (np == 3 && strcmp(parts[0], "uniform") == 0 && parse_num(parts[1], &a) == 0 &&
        parse_num(parts[2], &b) == 0 && a >= 1 && b >= a && a == floor(a) && b == floor(b)) {
        *out = (rl_dist){RL_DIST_UNIFORM, a, b};
        return 0;
    }
    if (np == 3 && strcmp(parts[0], "lognormal") == 0 && parse_num(parts[1], &a) == 0 &&
        parse_num(parts[2], &b) == 0 && a >= 1 && b >= 0 && b <= 4) {
        *out = (rl_dist){RL_DIST_LOGNORMAL, a, b};
        return 0;
    }
    /* numbers in a DIST form that break its rule: that rule, with the values
     * as given (tester31 F14: uniform:100:10 got the grammar; a bad N does,
     * N's rule first) */
    const char *rule = NULL;
    if (np == 3 && !strcmp(parts[0], "uniform") && !parse_num(parts[1], &a) &&
             !parse_num(parts[2], &b))
        rule = a > b ? "uniform:MIN:MAX needs MIN <= MAX"
                     : "uniform:MIN:MAX needs whole tokens, MIN >= 1";
    else if (np == 3 && !strcmp(parts[0], "lognormal") && !parse_num(parts[1], &a) &&
             !parse_num(parts[2], &b))
        rule = a < 1 ? "lognormal:MEAN:SIGMA needs MEAN >= 1"
                     : "lognormal:MEAN:SIGMA needs 0 <= SIGMA <= 4";
    if (rule) {
        snprintf(err, errlen, "%s: '%s': %s", field, s, rule);
        return -1;
    }
    snprintf(err, errlen,
             "%s: '%s': expected N (whole tokens >= 1), uniform:MIN:MAX (whole tokens), "
             "lognormal:MEAN:SIGMA (0 <= SIGMA <= 4), or trace (with --trace)",
             field, s);
    return -1;
}

/* v in the fewest digits that read back to it (%.15g, else %.17g). */
static int shortest(char *buf, size_t len, double v)
{
    int n = snprintf(buf, len, "%.15g", v);
    if (strtod(buf, NULL) != v)
        n = snprintf(buf, len, "%.17g", v);
    return n;
}

const char *rl_dist_format(const rl_dist *d, char *buf, size_t len)
{
    char a[32], b[32];
    shortest(a, sizeof a, d->a);
    shortest(b, sizeof b, d->b);
    if (d->kind == RL_DIST_TRACE)
        snprintf(buf, len, "trace");
    else if (d->kind == RL_DIST_UNIFORM)
        snprintf(buf, len, "uniform:%s:%s", a, b);
    else if (d->kind == RL_DIST_LOGNORMAL)
        snprintf(buf, len, "lognormal:%s:%s", a, b);
    else
        snprintf(buf, len, "%s", a);
    return buf;
}

int rl_dist_sample(const rl_dist *d, rl_rng *r)
{
    double v = d->a;
    if (d->kind == RL_DIST_UNIFORM)
        v = d->a + floor(rl_rng_uniform(r) * (d->b - d->a + 1));
    else if (d->kind == RL_DIST_LOGNORMAL)
        v = round(exp(log(d->a) - d->b * d->b / 2 + d->b * rng_normal(r)));
    if (v > 1e7)
        v = 1e7;
    return v < 1 ? 1 : (int)v;
}

double rl_dist_mean(const rl_dist *d)
{
    return d->kind == RL_DIST_UNIFORM ? (d->a + d->b) / 2 : d->a;
}

/* ---- workload -------------------------------------------------------- */

int rl_workload_generate(const rl_workload *w, rl_request **out, char *err, size_t errlen)
{
    return rl_workload_generate_counted(w, out, NULL, err, errlen);
}

int rl_workload_generate_counted(const rl_workload *w, rl_request **out, long long *redrawn,
                                 char *err, size_t errlen)
{
    if (redrawn)
        *redrawn = 0;
    if (w->n < 1 || !(w->qps > 0) || w->prompt.kind == RL_DIST_TRACE ||
        w->output.kind == RL_DIST_TRACE) {
        snprintf(err, errlen, "workload: need requests >= 1, qps > 0 and sampled lengths");
        return -1;
    }
    if (w->arrival == RL_ARRIVAL_GAMMA && !(w->burst_cv > 0)) {
        snprintf(err, errlen, "burst: coefficient of variation must be > 0");
        return -1;
    }
    rl_request *r = malloc((size_t)w->n * sizeof *r);
    if (!r) {
        snprintf(err, errlen, "workload: out of memory for %lld requests", w->n);
        return -1;
    }
    /* Three streams: g, the requests' (one uniform u for the Poisson gap,
     * then the lengths), a, the gamma gaps' own (seeded apart by
     * splitmix64's golden-ratio step), so --burst changes arrival times
     * only: the same requests at every CV (tester5 #8: the gamma draws used
     * to shift the lengths' stream), and CV 1, gamma of shape 1 = the
     * exponential, takes u itself: the default Poisson run exactly; and p,
     * the prefix ids' own (the seed xor the first 64 bits of sqrt(2)'s
     * fraction, SHA-256's first IV word: no state shared with g or a), so
     * --prefixes N:LEN names which prefix each request shares and changes
     * no arrival or length (tester63 #6: its draw on g moved every later
     * arrival). */
    rl_rng g, a, p;
    rl_rng_seed(&g, w->seed);
    rl_rng_seed(&a, w->seed + 0x9e3779b97f4a7c15ULL);
    rl_rng_seed(&p, w->seed ^ 0x6a09e667f3bcc908ULL);
    int gamma = w->arrival == RL_ARRIVAL_GAMMA && w->burst_cv != 1;
    double t = 0, k = gamma ? 1 / (w->burst_cv * w->burst_cv) : 1;
    for (long long i = 0; i < w->n; i++) {
        if ((i & 0xffff) == 0 && rl_interrupted()) { /* 1e7 requests take a second or more */
            free(r);
            snprintf(err, errlen, "workload: interrupted (%s) after %lld of %lld requests drawn",
                     rl_interrupt_name(), i, w->n);
            return -1;
        }
        /* Inter-arrival gap with mean 1/qps: exponential (Poisson process)
         * or gamma with shape 1/cv^2 (cv > 1 is burstier than Poisson). */
        double u = rl_rng_uniform(&g);
        double gap = gamma ? rng_gamma(&a, k) / (k * w->qps) : -log(u) / w->qps;
        t += gap;
        r[i].arrival = t;
        r[i].prompt = rl_dist_sample(&w->prompt, &g);
        r[i].output = rl_dist_sample(&w->output, &g);
        r[i].prefix_id = -1;
        r[i].prefix_len = 0;
        if (w->prefixes > 0 && w->prefix_len > 0) {
            r[i].prefix_id = (int)(rl_rng_next(&p) % (uint64_t)w->prefixes);
            r[i].prefix_len = w->prefix_len < r[i].prompt ? w->prefix_len : r[i].prompt - 1;
        }
    }
    long long x = w->max_context > 0 ? rl_requests_fit(r, w->n, w, w->max_context, err, errlen) : 0;
    if (x < 0) {
        free(r);
        return -1;
    }
    if (redrawn)
        *redrawn = x;
    *out = r;
    return 0;
}

/* The one predicate: a request longer than the model serves (prompt +
 * output over max_context; none when max_context <= 1, unset). */
static int too_long(const rl_request *q, long long max_context)
{
    return max_context > 1 && q->prompt + (long long)q->output > max_context;
}

long long rl_requests_over(const rl_request *r, long long n, long long max_context)
{
    long long over = 0;
    for (long long i = 0; i < n; i++)
        over += too_long(&r[i], max_context);
    return over;
}

long long rl_requests_fit(rl_request *r, long long n, const rl_workload *w, long long max_context,
                          char *err, size_t errlen)
{
    long long over = rl_requests_over(r, n, max_context);
    if (2 * over > n) {
        snprintf(err, errlen, "%lld of %lld requests exceed the model's max_context (%lld "
                 "tokens): shorten the prompt and output lengths (--prompt-len/--out-len; Lua "
                 "fields 'prompt_len'/'out_len'), or raise it with --set model.max_context=N if the model "
                 "supports longer contexts", over, n, max_context);
        return -1;
    }
    return over > 0 ? rl_requests_redraw(r, n, w, max_context, err, errlen) : 0;
}

long long rl_requests_redraw(rl_request *r, long long n, const rl_workload *w,
                             long long max_context, char *err, size_t errlen)
{
    long long redrawn = 0;
    for (long long i = 0; i < n; i++) {
        if (!too_long(&r[i], max_context))
            continue;
        /* a stream of the request's own (splitmix64's odd constant times its
         * index), so that every other request stays as drawn */
        rl_rng x;
        rl_rng_seed(&x, w->seed ^ (0xd1b54a32d192ed03ULL * (uint64_t)(i + 1)));
        int tries = 0;
        do {
            r[i].prompt = rl_dist_sample(&w->prompt, &x);
            r[i].output = rl_dist_sample(&w->output, &x);
        } while (too_long(&r[i], max_context) && ++tries < RL_WORKLOAD_REDRAWS);
        if (tries == RL_WORKLOAD_REDRAWS) {
            snprintf(err, errlen, "workload: no prompt + output length within max_context (%lld "
                     "tokens) in %d draws for request %lld: the lengths asked for mostly exceed "
                     "what the model serves", max_context, RL_WORKLOAD_REDRAWS, i + 1);
            return -1;
        }
        if (r[i].prefix_id >= 0)
            r[i].prefix_len = w->prefix_len < r[i].prompt ? w->prefix_len : r[i].prompt - 1;
        redrawn++;
    }
    return redrawn;
}

void rl_requests_mean_lengths(const rl_request *r, long long n, double *prompt, double *output)
{
    double P = 0, G = 0;
    for (long long i = 0; i < n; i++) {
        P += r[i].prompt;
        G += r[i].output;
    }
    *prompt = n > 0 ? P / (double)n : 0;
    *output = n > 0 ? G / (double)n : 0;
}

int rl_workload_mean_caution(const rl_dist *prompt, const rl_dist *output, const char *pname,
                             const char *oname, double mp, double mo, long long n,
                             double redrawn, long long max_context, char *buf, size_t len)
{
    const rl_dist *d[2] = {prompt, output};
    const char *name[2] = {pname, oname};
    double got[2] = {mp, mo};
    char said[256] = "";
    for (int i = 0; i < 2; i++) {
        double want = rl_dist_mean(d[i]);
        if (d[i]->kind == RL_DIST_TRACE || !(want > 0) ||
            !(fabs(got[i] / want - 1) > RL_WORKLOAD_MEAN_CAUTION))
            continue;
        snprintf(said + strlen(said), sizeof said - strlen(said), "%s%s's mean is %.0f tokens, "
                 "%+.0f%% of the %.0f asked", *said ? "; " : "", name[i], got[i],
                 100 * (got[i] / want - 1), want);
    }
    if (!*said)
        return 0;
    if (redrawn > 0)
        snprintf(buf, len, "the %lld requests realised other lengths than asked: %s: %s of them "
                 "exceeded max_context (%lld tokens) and were drawn again, "
                 "which cuts the DIST's long tail (a heavy tail holds much of its mean), and a "
                 "sample's mean also varies with its size; the run describes these lengths "
                 "(mean_prompt_tokens, mean_output_tokens), not the DIST's MEAN",
                 n, said, rl_percent_str(redrawn, (char[RL_PERCENT_STR]){0}), max_context);
    else
        snprintf(buf, len, "the %lld requests realised other lengths than asked: %s: a sample's "
                 "mean varies with its size, more the heavier the DIST's tail (lognormal's "
                 "SIGMA); the run describes these lengths (mean_prompt_tokens, "
                 "mean_output_tokens), not the DIST's MEAN; more requests or another seed "
                 "moves it", n, said);
    return 1;
}

const char *rl_workload_mean_note(const rl_workload *w, int trace, const char *pname,
                                  const char *oname, double mp, double mo, long long n,
                                  double redrawn, long long max_context, char *buf, size_t len)
{
    if (trace || !rl_workload_mean_caution(&w->prompt, &w->output, pname, oname, mp, mo, n,
                                           redrawn, max_context, buf, len))
        return NULL;
    return buf;
}

void rl_requests_offline(rl_request *r, long long n, rl_workload *w)
{
    for (long long i = 0; i < n; i++)
        r[i].arrival = 0;
    w->qps = 0;
}

long long rl_requests_truncate(rl_request *r, long long n, long long max_context)
{
    long long cut = 0;
    for (long long i = 0; i < n; i++) {
        if (!too_long(&r[i], max_context))
            continue;
        cut++;
        if (r[i].output > max_context / 2)
            r[i].output = (int)(max_context / 2 > max_context - r[i].prompt
                                    ? max_context / 2
                                    : max_context - r[i].prompt);
        if (r[i].prompt + (long long)r[i].output > max_context)
            r[i].prompt = (int)(max_context - r[i].output);
        if (r[i].prefix_len >= r[i].prompt)
            r[i].prefix_len = r[i].prompt - 1;
    }
    return cut;
}

/* Parse field f of a CSV line (its blanks dropped by rl_csv_split) as a
 * number in [lo, hi]. */
static int trace_field(const char *f, const char *name, double lo, double hi, int integer,
                       double *v, const char *path, long long line, char *err, size_t errlen)
{
    const char *why = NULL;
    char shown[200];
    int bad = rl_parse_number(f, v, &why);
    if (bad == -2) {
        snprintf(err, errlen, "%s:%lld: field '%s': '%s': %s", path, line, name,
                 rl_csv_visible(f, shown, sizeof shown), why);
        return -1;
    }
    if (bad || *v < lo || *v > hi || (integer && *v != floor(*v))) {
        snprintf(err, errlen, "%s:%lld: field '%s': '%s' is not %s in [%g, %g]", path, line, name,
                 rl_csv_visible(f, shown, sizeof shown), integer ? "an integer" : "a number", lo, hi);
        return -1;
    }
    return 0;
}

#define TRACE_LINE_MAX (64 << 10) /* a request is a few dozen bytes; a longer line is not one */

/* Why read_line stopped short of a line. */
enum { LINE_OK, LINE_TOO_LONG, LINE_OOM, LINE_NUL };

/* Read one line of any length into *buf at byte n0 (0: a line of its own;
 * past the record's lines so far when a quoted field's line break
 * continues it, csv.h), *buf grown as needed, newline kept, NUL-terminated;
 * a record, its lines together, is at most TRACE_LINE_MAX.  Returns the
 * bytes read, 0 at end of file, or -1 with *why set: longer than
 * TRACE_LINE_MAX - 2 bytes (room for the newline and the terminator), out
 * of memory, or a NUL byte (binary data; a C string would silently end
 * there). */
static long read_line(FILE *f, char **buf, size_t *cap, size_t n0, int *why)
{
    size_t n = n0;
    *why = LINE_OK;
    for (int c; (c = getc(f)) != EOF;) {
        if (n + 2 > *cap) {
            size_t grown = *cap ? *cap * 4 : 1024;
            char *b = *cap >= TRACE_LINE_MAX ? NULL : realloc(*buf, grown);
            if (!b) {
                *why = *cap >= TRACE_LINE_MAX ? LINE_TOO_LONG : LINE_OOM;
                return -1;
            }
            *buf = b;
            *cap = grown;
        }
        if (c == 0) {
            *why = LINE_NUL;
            return -1;
        }
        (*buf)[n++] = (char)c;
        if (c == '\n')
            break;
    }
    if (n > n0)
        (*buf)[n] = '\0';
    return (long)(n - n0);
}

/* A request's prefix id and length with its trace line (check_prefixes). */
typedef struct {
    long long id, tokens, line;
} prefix_use;

static int cmp_prefix_use(const void *a, const void *b)
{
    const prefix_use *x = a, *y = b;
    return x->id != y->id ? (x->id > y->id) - (x->id < y->id) : (x->line > y->line) - (x->line < y->line);
}

/* One prefix id, one length: a shared prefix is the same tokens wherever it
 * recurs (tester4 #15: 200 and then 250 tokens for one id were taken).
 * u[n] is sorted here.  Returns 0, or -1 with err naming both lines. */
static int check_prefixes(const char *path, prefix_use *u, long long n, char *err, size_t errlen)
{
    if (n < 2)
        return 0; /* u may be NULL: no request named a prefix */
    qsort(u, (size_t)n, sizeof *u, cmp_prefix_use);
    for (long long i = 1; i < n; i++)
        if (u[i].id == u[i - 1].id && u[i].tokens != u[i - 1].tokens) {
            snprintf(err, errlen, "%s:%lld: field 'prefix_tokens': %lld, but prefix_id %lld has "
                     "%lld tokens on line %lld (one prefix, one length)", path, u[i].line,
                     u[i].tokens, u[i].id, u[i - 1].tokens, u[i - 1].line);
            return -1;
        }
    return 0;
}

int rl_workload_prefixes(const char *s, rl_workload *w, char *err, size_t errlen)
{
    double v[2];
    if (rl_parse_tuple(s, v, 2, 2) != 2 || v[0] < 1 || v[1] < 1 || v[0] != floor(v[0]) ||
        v[1] != floor(v[1]) || v[0] > 1e9 || v[1] > 1e7) {
        snprintf(err, errlen, "'%.40s': expected N:LEN, N shared prefixes (1 to 1e9) of LEN tokens "
                 "(1 to 1e7), whole numbers (leave it out for none)", s);
        return -1;
    }
    w->prefixes = (int)v[0];
    w->prefix_len = (int)v[1];
    return 0;
}

/* The header line's columns by name: the trace's own names in its order,
 * 3 to 5 of them (a header naming other columns, or these in another order,
 * used to be skipped and its rows read by position).  Returns 0, or -1 with
 * err naming the line and column. */
/* A trace's columns, in order (docs/serving.md). */
#define TRACE_COLUMNS "arrival_s,prompt_tokens,output_tokens[,prefix_id[,prefix_tokens]]"

static int check_header(char **fld, int nf, const char *const *names, const char *path,
                        long long line, char *err, size_t errlen)
{
    for (int i = 0; i < nf && i < 5; i++) {
        const char *f = fld[i]; /* its blanks dropped by rl_csv_split */
        char shown[48];         /* 40 bytes shown, a control byte as \xHH (a quoted
                                 * cell may hold a line break, csv.h) */
        if (strcmp(f, names[i]) != 0) {
            snprintf(err, errlen, "%s:%lld: column %d of the header: '%.40s', expected '%s' (the "
                     "columns are " TRACE_COLUMNS ", in that order)", path, line, i + 1,
                     rl_csv_visible(f, shown, sizeof shown), names[i]);
            return -1;
        }
    }
    if (nf >= 3 && nf <= 5)
        return 0;
    snprintf(err, errlen, "%s:%lld: the header names %s%d columns; a trace has 3 to 5 (" TRACE_COLUMNS
             ")", path, line, nf > 6 ? "more than " : "", nf > 6 ? 6 : nf);
    return -1;
}

/* A trace's column names, in order, and each field's range. */
static const char *const NAMES[] = {"arrival_s", "prompt_tokens", "output_tokens", "prefix_id",
                                    "prefix_tokens"};
static const double LO[] = {0, 1, 1, 0, 0}, HI[] = {1e12, 1e7, 1e7, 1e9, 1e7};

/* err for line `line` read_line stopped short of (why). */
static void line_failed(int why, const char *path, long long line, char *err, size_t errlen)
{
    if (why == LINE_TOO_LONG)
        snprintf(err, errlen, "%s:%lld: line longer than %d bytes (one request is a few dozen)",
                 path, line, TRACE_LINE_MAX - 2);
    else if (why == LINE_NUL)
        snprintf(err, errlen, "%s:%lld: a NUL byte: binary data, not a CSV text line", path, line);
    else
        snprintf(err, errlen, "%s:%lld: out of memory reading the line", path, line);
}

/* After a line that is no trace line (err set for line `line`, the file
 * read through line `phys`): a NUL byte within the next TRACE_BINARY_PEEK
 * bytes says the file is binary data, and err says that instead, as a NUL
 * on the line itself does (line_failed) and as fit does for its CSV
 * (measure.c slurp): 100 KB of random bytes read "fields are separated by
 * commas, not a tab" on a first line that held a tab and no NUL (tester #8).
 * 8000 bytes: git's test for binary content, a NUL among the first 8000
 * (xdiff-interface.c buffer_is_binary, FIRST_FEW_BYTES); the stream (a
 * pipe too) is being abandoned, so reading on costs nothing. */
#define TRACE_BINARY_PEEK 8000

static void nul_ahead(FILE *f, const char *path, long long line, long long phys, char *err,
                      size_t errlen)
{
    long long at = phys + 1;
    for (int k = 0, c; k < TRACE_BINARY_PEEK && (c = getc(f)) != EOF; k++) {
        if (c == 0) {
            snprintf(err, errlen, "%s:%lld: a NUL byte: binary data, not a CSV text line (line "
                     "%lld before it was no trace line either)", path, at, line);
            return;
        }
        at += c == '\n';
    }
}

/* The fields of a data line that count: empty optional cells at its end
 * (prefix_id, prefix_tokens) are left out, as a spreadsheet or roofline's
 * own --format csv writes a row without a prefix (`15,1000,10,,`; tester43
 * F7: refused as "'' is not an integer"); an empty required cell, or an
 * empty prefix_id before a prefix_tokens, stays and is refused by its
 * field. */
static int trace_fields(char **fld, int nf)
{
    while (nf > 3 && nf <= 5 && fld[nf - 1][0] == '\0')
        nf--;
    return nf;
}

/* A data line's nf fields fld (nf 7: more than 6) into v (the caller's
 * defaults kept for fields absent): 3 to 5 fields in range, arrivals in
 * order (`last`: the previous one), a prefix id with a length below the
 * prompt.  0, or -1 with err naming the line and field. */
static int trace_row(char **fld, int nf, double last, double *v, const char *path,
                     long long line, char *err, size_t errlen)
{
    if (nf == 5 && fld[3][0] == '\0')
        RL_FAIL("%s:%lld: field 'prefix_id': empty beside prefix_tokens '%.40s' (a prefix length "
                "needs its id; a request without a prefix leaves both empty or out)", path, line,
                fld[4]);
    if (nf < 3 || nf > 5) /* the line's count first, short or long (tester9 #8) */
        RL_FAIL("%s:%lld: expected 3 to 5 comma-separated fields, got %s%d (%s%s%sthe columns are "
                TRACE_COLUMNS ")", path, line, nf > 6 ? "more than " : "", nf > 6 ? 6 : nf,
                nf < 3 ? "no " : "", nf < 3 ? NAMES[nf] : "", nf < 3 ? "; " : "");
    for (int i = 0; i < nf; i++)
        if (trace_field(fld[i], NAMES[i], LO[i], HI[i], i > 0, &v[i], path, line, err, errlen))
            return -1;
    if (v[0] < last)
        RL_FAIL("%s:%lld: field 'arrival_s': %g is before the previous arrival %g", path, line,
                v[0], last);
    if (nf == 5 && v[4] == 0) /* given 0: no prefix is written by leaving the id out */
        RL_FAIL("%s:%lld: field 'prefix_tokens': 0, must be >= 1 (a shared prefix holds at least "
                "one token; a request without one leaves prefix_id and prefix_tokens out)", path,
                line);
    if (nf >= 4 && v[4] <= 0)
        RL_FAIL("%s:%lld: field 'prefix_tokens': a prefix id needs its length (a 5th field, or "
                "LEN of --prefixes N:LEN for the whole trace)", path, line);
    if (v[4] >= v[1] && nf >= 4)
        RL_FAIL("%s:%lld: field 'prefix_tokens': %g must be below prompt_tokens %g", path, line,
                v[4], v[1]);
    return 0;
}

/* Double the room of the request and prefix-use arrays (*cap of each; 1024
 * at first).  0, or -1 (out of memory; each array as it was, or moved). */
static int grow_requests(rl_request **r, prefix_use **use, long long *cap)
{
    long long c = *cap ? *cap * 2 : 1024;
    rl_request *nr = realloc(*r, (size_t)c * sizeof **r);
    if (!nr)
        return -1;
    *r = nr;
    prefix_use *nu = realloc(*use, (size_t)c * sizeof **use);
    if (!nu)
        return -1;
    *use = nu;
    *cap = c;
    return 0;
}

long long rl_trace_read(const char *path, int default_prefix_len, long long max_context,
                        rl_request **out, char *err, size_t errlen)
{
    FILE *f = rl_fopen_stream(path, err, errlen); /* a pipe or "-" too: read once, line by line */
    if (!f)
        return -1;
    char shown[RL_SHOWN_PATH]; /* its messages say "stdin" for "-", control bytes escaped */
    path = rl_input_named(path, shown, sizeof shown);
    long long n = 0, cap = 0, line = 0, phys = 0, nuse = 0; /* line: the record's first */
    long long too_long = 0, first_long = 0, first_len = 0; /* rows above max_context */
    rl_request *r = NULL;
    prefix_use *use = NULL; /* every request with a prefix id, cap long */
    char *buf = NULL;
    size_t bufcap = 0;
    double last = 0;
    int header = 0, why; /* header: the header line's column count, 0 without one */
    long long header_line = 0;
    for (long len; (len = read_line(f, &buf, &bufcap, 0, &why)) != 0;) {
        line = ++phys; /* a record is named by the line it starts on (csv.h) */
        if (len < 0) {
            line_failed(why, path, line, err, errlen);
            goto fail;
        }
        char *p = buf;
        if (line == 1 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
            p += 3; /* a UTF-8 byte-order mark opening the file, as editors write it */
        else if (memcmp(p, "\xEF\xBB\xBF", 3) == 0) {
            snprintf(err, errlen, "%s:%lld: the line starts with a UTF-8 byte-order mark (bytes EF "
                                  "BB BF), which belongs only at the start of a file; remove it",
                     path, line);
            goto fail;
        }
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '#' || *p == '\n' || *p == '\r' || !*p)
            continue;
        /* a quoted field's line break continues the record on the next line */
        size_t off = (size_t)(p - buf), end;
        int breaks, unclosed;
        while ((end = rl_csv_record(buf + off, &breaks, &unclosed)), unclosed) {
            long more = read_line(f, &buf, &bufcap, off + end, &why);
            if (more == 0)
                break; /* the end of the file: rl_csv_split refuses the open quote */
            if (more < 0 && why == LINE_TOO_LONG) { /* named by its first line, as any record */
                snprintf(err, errlen, "%s:%lld: a record longer than %d bytes: a quoted field "
                         "opened here runs on over %d lines (a closing quote missing? one request "
                         "is a few dozen bytes)", path, line, TRACE_LINE_MAX - 2, breaks + 1);
                goto fail;
            }
            if (more < 0) { /* the record's lines so far are phys .. phys + breaks - 1,
                             * each ending in a break inside the quote: this is phys + breaks */
                line_failed(why, path, phys + breaks, err, errlen);
                goto fail;
            }
        }
        phys += breaks;
        p = buf + off;
        p[end] = '\0';
        char *fld[6];
        const char *bad;
        int col;
        int nf = rl_csv_split(p, fld, 6, &col, &bad);
        if (nf < 0) {
            snprintf(err, errlen, "%s:%lld: column %d: %s", path, line, col, bad);
            goto fail;
        }
        const char *sep = nf == 1 ? rl_csv_other_separator(fld[0]) : NULL;
        if (sep) {
            snprintf(err, errlen, "%s:%lld: fields are separated by commas, not %s (the columns "
                     "are " TRACE_COLUMNS ")", path, line, sep);
            goto fail;
        }
        /* nf is 7 when the line has more than 6 fields: only 6 were stored */
        if (n == 0 && !header && !any_numeric(fld, nf > 6 ? 6 : nf)) {
            header = nf, header_line = line; /* one header line before the data: no field reads as a number */
            if (check_header(fld, nf, NAMES, path, line, err, errlen) != 0)
                goto fail;
            continue;
        }
        double v[5] = {0, 0, 0, -1, default_prefix_len};
        nf = trace_fields(fld, nf);
        if (header && nf > header && nf <= 5) { /* tester50 F11: it was read silently */
            snprintf(err, errlen, "%s:%lld: %d fields, the header (line %lld) names %d columns ("
                     "the columns are " TRACE_COLUMNS ")", path, line, nf, header_line, header);
            goto fail;
        }
        if (trace_row(fld, nf, last, v, path, line, err, errlen) != 0)
            goto fail;
        if (max_context > 0 && v[1] + v[2] > (double)max_context && too_long++ == 0) {
            first_long = line;
            first_len = (long long)(v[1] + v[2]);
        }
        last = v[0];
        if (n == cap && grow_requests(&r, &use, &cap) != 0) {
            snprintf(err, errlen, "%s: out of memory", path);
            goto fail;
        }
        if (nf >= 4)
            use[nuse++] = (prefix_use){(long long)v[3], (long long)v[4], line};
        r[n++] = (rl_request){v[0], (int)v[1], (int)v[2], nf >= 4 ? (int)v[3] : -1,
                              nf >= 4 ? (int)v[4] : 0};
    }
    if (check_prefixes(path, use, nuse, err, errlen) != 0)
        goto fail;
    if (too_long > 0) { /* vLLM refuses such a request; it never shortens it (workload.h) */
        snprintf(err, errlen, "%s:%lld: fields 'prompt_tokens' + 'output_tokens': %lld tokens "
                 "exceed the model's max_context (%lld): a server refuses such a request rather "
                 "than shorten it (%lld of %lld requests do, this line first); remove them, or "
                 "raise the limit with --set model.max_context=N if the model serves longer "
                 "contexts", path, first_long, first_len, max_context, too_long, n);
        goto fail;
    }
    if (ferror(f)) {
        snprintf(err, errlen, "%s: read error", path);
        goto fail;
    }
    fclose(f);
    free(buf);
    free(use);
    if (n == 0) {
        free(r);
        snprintf(err, errlen, "%s: no requests", path);
        return -1;
    }
    *out = r;
    return n;
fail:
    if (why == LINE_OK && !feof(f) && !ferror(f)) /* a line read whole that was no trace line */
        nul_ahead(f, path, line, phys, err, errlen);
    fclose(f);
    free(buf);
    free(r);
    free(use);
    return -1;
}

