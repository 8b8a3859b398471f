/* measure.c — the measurement CSV (format and checks in measure.h). */
#include "measure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "error.h"
#include "number.h"
#include "report.h"

#define MAX_FILE (64L << 20) /* bytes: a benchmark CSV, not a trace dump */
#define MAX_COUNT 1000000000LL
/* Columns a line may have: the measurement fields and others beside them
 * (roofline's own `fit --format csv` writes 42, tester15 F-csv-1), which
 * are not read (rl_meas.ignored). */
#define MAX_COLS 256

/* The physical range a measurement must fall in, open at both ends (tester4
 * #6: 1e308 s and 1e-300 s were taken and printed as inf).  A decode step or
 * a prefill takes more than 100 ns: the smallest GEMM measured on H100 (m=1,
 * in shared/data/silicon/h100_sxm/trtllm/gemm_perf.csv.gz, NVIDIA
 * AIConfigurator) takes 2.5 us, and a step runs dozens of kernels per layer.
 * It takes less than 1e5 s (28 hours): no benchmark times one forward pass
 * that long.  Static rows give tokens/s per GPU: above 1e-6 (one token every
 * 11 days) and below 1e7: a GPU at 1e15 FLOP/s (H100 SXM dense bf16 989
 * TFLOP/s, NVIDIA H100 datasheet) spends 2 FLOP per parameter per token
 * (Kaplan et al. 2020, sec. 2.1), so even a 1B-parameter model tops out near
 * 5e5 tokens/s; 1e7 leaves 20x. */
static const double MEAS_RANGE[2][2] = {{1e-7, 1e5}, {1e-6, 1e7}};

/* A static row may give both measured_s (the whole run) and
 * measured_tok_s_per_gpu; they must agree within 1% (our choice: roofline's
 * own CSVs write both at 17 significant digits, a spreadsheet at 6 or
 * more, both far inside it, while a row whose two cells time different
 * runs is wrong by more). */
#define MEAS_BOTH_TOL 0.01

enum {
    C_PHASE, C_TP, C_BATCH, C_CONTEXT, C_TOKENS, C_OUTPUT, C_MEASURED_S, C_TOK_S,
    C_MODEL, C_HW, C_ENGINE, C_WEIGHTS, C_KV, C_COMPUTE, C_PP, C_EP, C_KV_SPLIT, C_COUNT
};
static const char *const COL_NAMES[C_COUNT] = {
    "phase", "tp", "batch", "context", "tokens", "output", "measured_s", "measured_tok_s_per_gpu",
    "model", "hw", "engine", "weights", "kv", "compute", "pp", "ep", "kv_split"};

static const char *const PHASE_NAMES[] = {"decode", "prefill", "static"};

/* Columns a phase needs (besides phase, tp, batch). */
static const int NEEDS[3][3] = {
    {C_CONTEXT, C_MEASURED_S, -1},
    {C_TOKENS, C_MEASURED_S, -1},
    {C_TOKENS, C_OUTPUT, -1}, /* and its measurement: row_measured */
};

const char *rl_meas_phase_name(rl_meas_phase p) { return PHASE_NAMES[p]; }

unsigned long long rl_fnv1a(unsigned long long h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}

double rl_meas_time(const rl_meas_row *r)
{
    if (r->phase != RL_MEAS_STATIC)
        return r->measured;
    return (double)r->batch * (double)r->output / (r->measured * ((double)r->tp * (double)r->ep * (double)r->pp));
}

void rl_measure_free(rl_meas *m)
{
    free(m->row);
    m->row = NULL;
    m->n = 0;
}

/* Read the whole file (at most MAX_FILE bytes; a pipe or "-" too, read
 * once: its hash and its rows come from this one copy) into a
 * NUL-terminated buffer. */
static char *slurp(const char *path, size_t *len, char *err, size_t errlen)
{
    char *buf = rl_read_input(path, MAX_FILE, len, err, errlen);
    if (buf && memchr(buf, '\0', *len)) {
        snprintf(err, errlen, "%s: a NUL byte: not a text CSV",
                 rl_input_named(path, (char[RL_SHOWN_PATH]){0}, RL_SHOWN_PATH));
        free(buf);
        return NULL;
    }
    return buf;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
        *--e = '\0';
    return s;
}

typedef struct {
    const char *path;
    int line;
    int idx[C_COUNT]; /* column -> field index, -1 when absent */
    char *ignored;    /* the header's other columns, listed (rl_meas.ignored) */
    size_t ignored_len;
    int nunused;      /* cells a row's phase does not read, not empty or 0 */
    char unused[256]; /* the first of them (rl_meas.unused) */
    int table;        /* the `table` column's index, -1 when absent; set, as idx, by
                         parse_header, read only once it has run */
    char *err;
    size_t errlen;
} ctx;

/* Cell s for a message, a line break a quoted cell holds (csv.h) or any
 * control byte as \xHH, as --trace's errors show a cell (review50: fit's
 * 'got '0.\n03'' split its one-line error in two); at most 64 characters.
 * A compound literal: each use has its own buffer, alive in its block. */
#define SHOWN(s) rl_csv_visible((s), (char[72]){0}, 72)

#define BAD(c, col, ...)                                                                           \
    do {                                                                                           \
        int n_ = snprintf((c)->err, (c)->errlen, "%s:%d: column '%s' (column %d): ", (c)->path,   \
                          (c)->line, COL_NAMES[col], (c)->idx[col] + 1);                           \
        if (n_ >= 0 && (size_t)n_ < (c)->errlen)                                                   \
            snprintf((c)->err + n_, (c)->errlen - (size_t)n_, __VA_ARGS__);                        \
        return -1;                                                                                 \
    } while (0)

static int parse_header(ctx *c, char **f, int nf)
{
    for (int k = 0; k < C_COUNT; k++)
        c->idx[k] = -1;
    c->table = -1;
    for (int i = 0; i < nf; i++) {
        if (strcmp(f[i], "table") == 0) {
            if (c->table >= 0) { /* as a measurement column given twice (tester52 F8) */
                snprintf(c->err, c->errlen, "%s:%d: column 'table' (column %d): given twice "
                         "(also column %d)", c->path, c->line, i + 1, c->table + 1);
                return -1;
            }
            c->table = i;
        }
        int k = 0;
        while (k < C_COUNT && strcmp(f[i], COL_NAMES[k]) != 0)
            k++;
        if (k == C_COUNT) {
            const char *sep = rl_csv_other_separator(f[i]);
            if (sep) { /* one column of a header split otherwise: not a CSV of ours */
                snprintf(c->err, c->errlen,
                         "%s:%d: column %d: unknown column '%.64s' (fields are separated by commas, "
                         "not %s; a header line is required; columns: phase, tp, batch, context, "
                         "tokens, output, measured_s, measured_tok_s_per_gpu, model, hw, engine, "
                         "weights, kv, compute, pp, ep, kv_split)", c->path, c->line, i + 1,
                         SHOWN(f[i]), sep);
                return -1;
            }
            size_t used = strlen(c->ignored); /* not a measurement field: named in the note */
            snprintf(c->ignored + used, c->ignored_len - used, "%s'%.64s'", used ? ", " : "",
                     SHOWN(f[i]));
            continue;
        }
        if (c->idx[k] >= 0)
            BAD(c, k, "given twice (also column %d)", i + 1);
        c->idx[k] = i;
    }
    for (int k = C_PHASE; k <= C_BATCH; k++)
        if (c->idx[k] < 0) {
            snprintf(c->err, c->errlen, "%s:%d: column '%s': missing from the header (required%s%s)",
                     c->path, c->line, COL_NAMES[k], *c->ignored ? "; not read: " : "", c->ignored);
            return -1;
        }
    return 0;
}

static int get_count(ctx *c, char **f, int col, long long *out)
{
    const char *s = f[c->idx[col]], *why;
    double v;
    if (rl_parse_number(s, &v, &why) != 0) /* number.h: hex, nan, overflow said */
        BAD(c, col, "expected a positive integer, got '%.64s' (%s)", SHOWN(s), why);
    if (!(v >= 1) || v != floor(v) || v > (double)MAX_COUNT)
        BAD(c, col, "expected a positive integer (1 .. 1e9), got '%.64s'", SHOWN(s));
    *out = (long long)v;
    return 0;
}

/* A measurement in (lo, hi) (MEAS_RANGE). */
static int get_measured(ctx *c, char **f, int col, double lo, double hi, double *out)
{
    const char *s = f[c->idx[col]], *why;
    double v;
    if (rl_parse_number(s, &v, &why) != 0)
        BAD(c, col, "expected a number, got '%.64s' (%s)", SHOWN(s), why);
    if (!(v > 0))
        BAD(c, col, "must be > 0, got %.64s", SHOWN(s));
    if (!(v > lo && v < hi))
        BAD(c, col, "%.64s is outside the physical range (%g, %g)%s", SHOWN(s), lo, hi,
            col == C_MEASURED_S ? " s of one step or prefill" : " tokens/s per GPU");
    *out = v;
    return 0;
}

static int get_string(ctx *c, char **f, int col, char *out, size_t cap)
{
    if (c->idx[col] < 0)
        return 0;
    const char *s = f[c->idx[col]];
    if (strlen(s) >= cap)
        BAD(c, col, "longer than %zu characters", cap - 1);
    if (strpbrk(s, "\r\n")) /* a quoted cell may hold one (csv.h); no name does */
        BAD(c, col, "a line break inside the cell: a name or a dtype holds none");
    snprintf(out, cap, "%s", s);
    return 0;
}

/* A column the row's phase needs: present in the header, cell not empty. */
static int needed(ctx *c, char **f, int col, rl_meas_phase ph)
{
    if (c->idx[col] < 0) {
        snprintf(c->err, c->errlen, "%s:%d: column '%s': missing from the header (a %s row needs "
                 "it%s%s)", c->path, c->line, COL_NAMES[col], PHASE_NAMES[ph],
                 *c->ignored ? "; not read: " : "", c->ignored);
        return -1;
    }
    if (!*f[c->idx[col]])
        BAD(c, col, "empty, but a %s row needs it", PHASE_NAMES[ph]);
    return 0;
}

/* Count (and name the first) cell of col that row phase ph does not read
 * and that is neither empty nor 0, as roofline's own CSVs write them
 * (tester50 F8: a prefill row's context 512, a cached prefix the CSV has
 * no column for, was dropped silently). */
static void unread(ctx *c, char **f, int col, rl_meas_phase ph)
{
    double v;
    const char *why, *s = c->idx[col] >= 0 ? f[c->idx[col]] : "";
    if (!*s || (rl_parse_number(s, &v, &why) == 0 && v == 0))
        return;
    if (c->nunused++ == 0)
        snprintf(c->unused, sizeof c->unused, "line %d, column '%s' (column %d): %.64s, which a "
                 "%s row does not read", c->line, COL_NAMES[col], c->idx[col] + 1, SHOWN(s),
                 PHASE_NAMES[ph]);
}

/* Whether the row holds a cell in col (a header column, not empty). */
static int has_cell(const ctx *c, char **f, int col)
{
    return c->idx[col] >= 0 && *f[c->idx[col]];
}

/* The row's measurement: measured_s (decode, prefill) or
 * measured_tok_s_per_gpu (static); a static row without the latter may
 * give measured_s, the whole run's time as validate's rows write it
 * (tester53 F5), read as batch x output / (measured_s x GPUs). */
static int row_measured(ctx *c, char **f, rl_meas_row *r)
{
    int st = r->phase == RL_MEAS_STATIC;
    if (st && !has_cell(c, f, C_TOK_S) && !has_cell(c, f, C_MEASURED_S)) {
        /* neither: both accepted columns named (review: only the first was) */
        const char *tok = c->idx[C_TOK_S] < 0 ? "not in the header" : "empty";
        const char *sec = c->idx[C_MEASURED_S] < 0 ? "not in the header" : "empty";
        int hdr = c->idx[C_TOK_S] < 0 || c->idx[C_MEASURED_S] < 0;
        snprintf(c->err, c->errlen, "%s:%d: a static row needs measured_tok_s_per_gpu or "
                 "measured_s (the whole run's time): measured_tok_s_per_gpu %s, measured_s "
                 "%s%s%s", c->path, c->line, tok, sec, hdr && *c->ignored ? "; not read: " : "",
                 hdr ? c->ignored : "");
        return -1;
    }
    int col = st && (has_cell(c, f, C_TOK_S) || !has_cell(c, f, C_MEASURED_S)) ? C_TOK_S
                                                                              : C_MEASURED_S;
    int tok = col == C_TOK_S;
    if (needed(c, f, col, r->phase) != 0 ||
        get_measured(c, f, col, MEAS_RANGE[tok][0], MEAS_RANGE[tok][1], &r->measured) != 0)
        return -1;
    /* rl_meas_time owns batch x output / (rate x GPUs), in doubles (the
     * degrees are checked for overflow later, e2e.c); t = W / (v g) solved
     * for v is v = W / (t g), the same expression: measured_s given alone
     * becomes tok/s per GPU through it */
    if (st && !tok) {
        r->measured_s_given = 1;
        r->measured = rl_meas_time(r);
    }
    /* tester59 F5: a static row giving both measurements, which disagree,
     * was read by one of them in silence (measured_s 99 beside 700 tok/s
     * per GPU, 1.463 s): they must agree within MEAS_BOTH_TOL */
    double s;
    if (st && tok && has_cell(c, f, C_MEASURED_S)) {
        if (get_measured(c, f, C_MEASURED_S, MEAS_RANGE[0][0], MEAS_RANGE[0][1], &s) != 0)
            return -1;
        double implied = rl_meas_time(r), gpus = (double)r->tp * (double)r->ep * (double)r->pp;
        if (fabs(s / implied - 1) > MEAS_BOTH_TOL) {
            snprintf(c->err, c->errlen, "%s:%d: column 'measured_s' (column %d) and column "
                     "'measured_tok_s_per_gpu' (column %d) disagree: measured_s %.64s s, while "
                     "measured_tok_s_per_gpu %.64s gives batch x output / (tok/s x GPUs) = "
                     "%lld x %lld / (%.64s x %.0f) = %.4g s (%+.1f%%, more than the %.0f%% "
                     "allowed); give one of them, or both agreeing", c->path, c->line,
                     c->idx[C_MEASURED_S] + 1, c->idx[C_TOK_S] + 1,
                     SHOWN(f[c->idx[C_MEASURED_S]]), SHOWN(f[c->idx[C_TOK_S]]), r->batch,
                     r->output, SHOWN(f[c->idx[C_TOK_S]]), gpus, implied,
                     100 * (s / implied - 1), 100 * MEAS_BOTH_TOL);
            return -1;
        }
    }
    return 0;
}

/* A kv_split cell: empty, or one of step's --kv-split layouts (e2e.c
 * checks it against the layout the row is timed in). */
static int get_kv_split(ctx *c, char **f, char *out, size_t cap)
{
    if (get_string(c, f, C_KV_SPLIT, out, cap) != 0)
        return -1;
    if (*out && strcmp(out, "batch") != 0 && strcmp(out, "seq") != 0 &&
        strcmp(out, "replicate") != 0)
        BAD(c, C_KV_SPLIT, "expected batch, seq or replicate (step's --kv-split), got '%.64s'", out);
    return 0;
}

static int parse_row(ctx *c, char **f, rl_meas_row *r)
{
    memset(r, 0, sizeof *r);
    r->line = c->line;
    r->pp = r->ep = 1;
    const char *ph = f[c->idx[C_PHASE]];
    int p = 0;
    while (p < 3 && strcmp(ph, PHASE_NAMES[p]) != 0)
        p++;
    if (p == 3)
        BAD(c, C_PHASE, "unknown phase '%.64s' (expected decode, prefill or static)", SHOWN(ph));
    r->phase = (rl_meas_phase)p;
    if (get_count(c, f, C_TP, &r->tp) || get_count(c, f, C_BATCH, &r->batch))
        return -1;
    for (int i = 0; i < 3 && NEEDS[p][i] >= 0; i++)
        if (needed(c, f, NEEDS[p][i], r->phase) != 0)
            return -1;
    if (r->phase == RL_MEAS_DECODE && get_count(c, f, C_CONTEXT, &r->context))
        return -1;
    if (r->phase != RL_MEAS_DECODE && get_count(c, f, C_TOKENS, &r->tokens))
        return -1;
    if (r->phase == RL_MEAS_STATIC && get_count(c, f, C_OUTPUT, &r->output))
        return -1;
    if (r->phase != RL_MEAS_DECODE)
        unread(c, f, C_CONTEXT, r->phase);
    else
        unread(c, f, C_TOKENS, r->phase);
    if (r->phase != RL_MEAS_STATIC)
        unread(c, f, C_OUTPUT, r->phase);
    if ((has_cell(c, f, C_PP) && get_count(c, f, C_PP, &r->pp)) ||
        (has_cell(c, f, C_EP) && get_count(c, f, C_EP, &r->ep)) || row_measured(c, f, r) != 0)
        return -1;
    return get_string(c, f, C_MODEL, r->model, sizeof r->model) ||
           get_string(c, f, C_HW, r->hw, sizeof r->hw) ||
           get_string(c, f, C_ENGINE, r->engine, sizeof r->engine) ||
           get_string(c, f, C_WEIGHTS, r->weights, sizeof r->weights) ||
           get_string(c, f, C_KV, r->kv, sizeof r->kv) ||
           get_string(c, f, C_COMPUTE, r->compute, sizeof r->compute) ||
           get_kv_split(c, f, r->kv_split, sizeof r->kv_split);
}

const char *rl_meas_row_engine(const rl_meas_row *r)
{
    return strcmp(r->engine, "none") == 0 ? "" : r->engine;
}

/* A hash of everything but the measurement: repeats hash alike, an engine
 * "none" as an empty cell (rl_meas_row_engine; review: the two counted as
 * two configurations, so a fold holding out whole ones could split one). */
static unsigned long long config_hash(const rl_meas_row *r)
{
    long long nums[8] = {r->phase, r->tp, r->batch, r->pp, r->ep, r->context, r->tokens, r->output};
    unsigned long long h = rl_fnv1a(RL_FNV_BASIS, nums, sizeof nums);
    const char *s[] = {r->model, r->hw, rl_meas_row_engine(r), r->weights, r->kv, r->compute};
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++)
        h = rl_fnv1a(h, s[i], strlen(s[i]) + 1);
    return h;
}

unsigned int rl_meas_row_key(const rl_meas_row *r)
{
    unsigned long long h = rl_fnv1a(config_hash(r), &r->measured, sizeof r->measured);
    return (unsigned int)(h ^ h >> 32);
}

static int assign_configs(rl_meas *m)
{
    unsigned long long *seen = malloc((size_t)m->n * sizeof *seen);
    if (!seen)
        return -1;
    m->nconfig = 0;
    for (int i = 0; i < m->n; i++) {
        unsigned long long h = config_hash(&m->row[i]);
        int k = 0;
        while (k < m->nconfig && seen[k] != h)
            k++;
        if (k == m->nconfig)
            seen[m->nconfig++] = h;
        m->row[i].config = k;
    }
    free(seen);
    return 0;
}

int rl_measure_read(const char *path, rl_meas *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    size_t len;
    char *buf = slurp(path, &len, err, errlen);
    if (!buf)
        return -1;
    out->origin = rl_input_origin(path); /* before path becomes "stdin" */
    out->hash = rl_fnv1a(RL_FNV_BASIS, buf, len);
    char shown[RL_SHOWN_PATH]; /* its messages and key file say "stdin" for "-", control bytes escaped */
    path = rl_input_named(path, shown, sizeof shown);
    snprintf(out->path, sizeof out->path, "%s", path);
    ctx c = {.path = path, .ignored = out->ignored, .ignored_len = sizeof out->ignored,
             .err = err, .errlen = errlen};
    int have_header = 0, cap = 0, rc = -1, nf, other_tables = 0;
    char *f[MAX_COLS + 1];
    /* a UTF-8 byte-order mark opening the file, as spreadsheets export it */
    char *start = strncmp(buf, "\xEF\xBB\xBF", 3) == 0 ? buf + 3 : buf;
    int phys = 0; /* lines read: a record may span several (csv.h) */
    for (char *line = start, *next; line; line = next) {
        c.line = ++phys; /* a record is named by the line it starts on */
        size_t n = strcspn(line, "\n");
        int breaks = 0, unclosed; /* an unclosed quote: rl_csv_split refuses it */
        if (*(line + strspn(line, " \t")) != '#') /* a comment is one line, quotes or not */
            n = rl_csv_record(line, &breaks, &unclosed);
        phys += breaks;
        next = line[n] ? line + n + 1 : NULL;
        line[n] = '\0';
        char *t = trim(line);
        if (!*t || *t == '#')
            continue;
        int col;
        const char *why;
        nf = rl_csv_split(t, f, MAX_COLS, &col, &why);
        if (nf < 0) {
            int k = 0; /* the column's name, once the header gave it */
            while (have_header && k < C_COUNT && c.idx[k] != col - 1)
                k++;
            if (have_header && k < C_COUNT)
                snprintf(err, errlen, "%s:%d: column '%s' (column %d): %s", path, c.line,
                         COL_NAMES[k], col, why);
            else
                snprintf(err, errlen, "%s:%d: column %d: %s", path, c.line, col, why);
            goto done;
        }
        if (!have_header) {
            if (nf > MAX_COLS) {
                snprintf(err, errlen, "%s:%d: more than %d columns in the header", path, c.line, MAX_COLS);
                goto done;
            }
            if (parse_header(&c, f, nf) != 0)
                goto done;
            out->tp_col = c.idx[C_TP] + 1; /* e2e.c names them in its errors */
            out->pp_col = c.idx[C_PP] + 1;
            out->ep_col = c.idx[C_EP] + 1;
            out->engine_col = c.idx[C_ENGINE] + 1;
            have_header = nf;
            continue;
        }
        if (nf != have_header) {
            snprintf(err, errlen, "%s:%d: %s%d fields, the header has %d", path, c.line,
                     nf > have_header ? "more than " : "", nf > have_header ? have_header : nf,
                     have_header);
            goto done;
        }
        /* roofline's own CSV of a result with several tables (report.c: fit's
         * parameters beside its rows, tester50 F1): only the rows are measurements */
        if (c.table >= 0 && strcmp(f[c.table], "rows") != 0) {
            other_tables++;
            continue;
        }
        if (out->n == cap) {
            cap = cap ? 2 * cap : 64;
            rl_meas_row *grown = realloc(out->row, (size_t)cap * sizeof *grown);
            if (!grown) {
                snprintf(err, errlen, "%s: out of memory", path);
                goto done;
            }
            out->row = grown;
        }
        if (parse_row(&c, f, &out->row[out->n]) != 0)
            goto done;
        out->n++;
    }
    if (have_header && out->n == 0 && other_tables > 0) { /* review44: it read "no data rows" */
        snprintf(err, errlen, "%s: no data rows: %d line%s after the header, each with a 'table' "
                 "cell (column %d) other than 'rows' (a roofline CSV of several tables: only its "
                 "rows lines are measurements); rename the column if it is your own", path,
                 other_tables, other_tables == 1 ? "" : "s", c.table + 1);
        goto done;
    }
    if (!have_header || out->n == 0) {
        snprintf(err, errlen, "%s: %s", path, !have_header ? "empty: a header line is required"
                                                             : "no data rows after the header");
        goto done;
    }
    if (assign_configs(out) != 0) {
        snprintf(err, errlen, "%s: out of memory", path);
        goto done;
    }
    if (c.nunused > 0)
        snprintf(out->unused, sizeof out->unused, "%d cell%s not read (the first: %s)",
                 c.nunused, c.nunused == 1 ? "" : "s", c.unused);
    rc = 0;
done:
    free(buf);
    if (rc != 0)
        rl_measure_free(out);
    return rc;
}
