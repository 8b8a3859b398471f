/* silicon.c — the importer of measured kernel tables (silicon.h): gzipped
 * CSV reading with file/line/column errors, configuration grouping, grid
 * building and hole filling, and the calibrated spec writer.  Data:
 * NVIDIA AIConfigurator (aiconfigurator-core, Apache-2.0), systems data. */
#include "silicon.h"
#include "error.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lualib.h>
#include <zlib.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "enginecost.h"
#include "fit.h"
#include "interrupt.h"
#include "number.h"
#include "ops.h"
#include "sandbox.h"
#include "plot.h"
#include "report.h"
#include "spec.h"
#include "stats.h"

#define MAX_FIELDS 32
#define LINE_MAX_LEN 4096

/* Dtype names the tables may carry: those of engines.h's precision table
 * plus variants read and skipped (no roofline flag selects them). */
static const char *const KNOWN_DTYPES[] = {"bfloat16", "float16",          "fp8",         "fp8_block",
                                           "int8_wo",  "int4_wo",          "sq",          "nvfp4",
                                           "float32",  "w4a8_mxfp4_mxfp8", "w4a16_mxfp4", NULL};

/* What each file holds: its operator class, the columns it must have and
 * the columns holding dtypes (the axes of its grid: rl_kclass_axes). */
typedef struct {
    rl_kclass cls;
    const char *file;
    const char *const *cols; /* required; NULL-terminated */
} filespec;

static const char *const GEMM_COLS[] = {"kernel_source", "gemm_dtype", "m", "n", "k", "latency",
                                        NULL};
static const char *const ATTN_COLS[] = {"kernel_source", "batch_size", "isl",
                                        "num_heads",     "num_key_value_heads", "head_dim",
                                        "attn_dtype",    "kv_cache_dtype", "step",
                                        "latency",       NULL};
static const char *const MOE_COLS[] = {"kernel_source", "moe_dtype",   "num_tokens",
                                       "hidden_size",   "inter_size",  "topk",
                                       "num_experts",   "moe_tp_size", "moe_ep_size",
                                       "distribution",  "latency",     NULL};
static const char *const MLA_COLS[] = {"kernel_source", "mla_dtype", "kv_cache_dtype",
                                       "num_heads",     "batch_size", "isl",
                                       "step",          "latency",    NULL};
static const filespec FILES[RL_KC_COUNT] = {
    {RL_KC_GEMM, "gemm_perf.csv.gz", GEMM_COLS},
    {RL_KC_PREFILL_ATTN, "context_attention_perf.csv.gz", ATTN_COLS},
    {RL_KC_DECODE_ATTN, "generation_attention_perf.csv.gz", ATTN_COLS},
    {RL_KC_MOE, "moe_perf.csv.gz", MOE_COLS},
    {RL_KC_PREFILL_MLA, "context_mla_perf.csv.gz", MLA_COLS},
    {RL_KC_DECODE_MLA, "generation_mla_perf.csv.gz", MLA_COLS},
};

int rl_silicon_absent(const char *dir, const char *engine, char *buf, size_t len)
{
    static const char *const WHAT[] = {"GEMMs", "prefill attention", "decode attention"};
    int n = 0;
    size_t k = 0;
    if (len)
        buf[0] = '\0';
    for (int c = 0; c < 3; c++) { /* FILES[0..2]: gemm, context and generation attention */
        char path[1024];
        snprintf(path, sizeof path, "%s/%s/%s", dir, engine, FILES[c].file);
        if (access(path, F_OK) == 0)
            continue;
        int w = k < len ? snprintf(buf + k, len - k, "%s%s (%s)", n ? ", " : "", FILES[c].file,
                                   WHAT[c])
                        : 0;
        k += w > 0 ? (size_t)w : 0;
        n++;
    }
    return n;
}

double rl_silicon_bytes(const char *dir, const char *engine)
{
    double bytes = 0;
    for (int c = 0; c < RL_KC_COUNT; c++) {
        char path[1024];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s/%s", dir, engine, FILES[c].file);
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
            bytes += (double)st.st_size;
    }
    return bytes;
}

static int is_mla(rl_kclass cls) { return cls == RL_KC_PREFILL_MLA || cls == RL_KC_DECODE_MLA; }

/* The table axes of class cls (engines.h). */
static int naxes_of(rl_kclass cls)
{
    return cls == RL_KC_GEMM || cls == RL_KC_MOE || is_mla(cls) ? 3 : 4;
}

/* The MoE routing imported (engines.h: AIConfigurator's default). */
#define MOE_ROUTING "power_law_1.01"
/* The kernel_source (substring) of the w4a16_mxfp4 MoE rows imported:
 * vLLM's GptOssMxfp4MoEMethod, what an MXFP4 checkpoint runs (engines.h). */
#define MXFP4_KERNEL "gptossmxfp4moe"

/* Which node values an axis keeps (keep()): 0 all (MoE, MLA: their
 * tables are small; below); 1: 2^i and 3 * 2^i and one more than those
 * (gemm m: the tables measure m = 2048 and 2049, either side of a tile
 * step; a file of few m values keeps them all, axis_rule); 2: 2^i (attention streams: their 3 * 2^i validate only, keeping
 * the profiles under 1 MB); 3: 2^i and 3 * 2^i (attention group).  MoE
 * tokens and MLA prompt and context kept 2^i only until stop 27; every
 * measured value is now a node, because a table's nodes should be the
 * measurements wherever the size allows, and here it does: MoE tokens go
 * from 17 to up to 30 nodes per (tp, ep), MLA prompts from 13 to 18
 * (b200-vllm 901 -> 930 kB, the largest profile; docs/validation.md).
 * With 2^i only a held-back 2^i row sat in a 4x gap read log-log, and MLA
 * prefill and MoE times are not power laws there (GB200 TensorRT-LLM
 * prefill MLA, batch 1, 8 heads: 45.4, 54.9, 70.6, 131 us at prompts 2048,
 * 3072, 4096, 6144; A100 TensorRT-LLM Mixtral-8x7B, tp 1, ep 4: 11.6,
 * 15.3, 28.7 ms at 4096, 6144, 8192 tokens).  Held back (`make
 * accuracy-kernels`, stop 27): MLA classes meeting the targets 12 -> 15 of
 * 20, MoE 21 -> 24 of 24.  Group keeps its
 * 3 * 2^i values because the kernel changes between them: A100 TensorRT-LLM
 * decode attention, 32 streams, context 2048, head_dim 128, measures 49.5 us
 * at group 32, 432 us at 48 and 560 us at 64 (TensorRT-LLM times generation
 * attention with its XQA kernels for MQA/GQA or with masked MHA, docs
 * "Multi-Head, Multi-Query, and Group-Query Attention"; which one runs at
 * 48 the tables do not say), so log-log interpolation between 32 and 64
 * read 204 us there.  Held back (`make accuracy-kernels`, stop 26), A100
 * TensorRT-LLM bf16 decode attention p90 19.1% -> 13.8%; no attention class
 * worse by more than 0.8 points (docs/validation.md).  Along streams the
 * same 3 * 2^i nodes helped less (13.8% -> 10.8% there, under 0.5 points
 * elsewhere) for another 1.5x in table size: not kept. */
static int subsampled(rl_kclass cls, int a)
{
    return cls == RL_KC_GEMM ? a == 0
           : cls == RL_KC_MOE ? 0
           : is_mla(cls)      ? 0
           : a == 0           ? 2
           : a == 2           ? 3
                              : 0;
}

/* ---- gzipped CSV ------------------------------------------------------------ */

typedef struct {
    gzFile gz;
    const char *path;
    long line;
    char buf[LINE_MAX_LEN];
    char *f[MAX_FIELDS];
    int nf;
} csv;

/* -1 with err naming line `line` when c's stream is in error (a truncated
 * or corrupt gzip stream said as one, tester10 #10: it read as a short
 * row), else 0. */
static int gz_failed(const csv *c, long line, char *err, size_t errlen)
{
    int e = Z_OK;
    const char *msg = gzerror(c->gz, &e);
    if (e == Z_OK || e == Z_STREAM_END)
        return 0;
    RL_FAIL("%s: line %ld: %s (%s)", c->path, line,
            e == Z_ERRNO ? "cannot read" : "the gzip stream is truncated or corrupt", msg);
}

/* Next non-comment line split at commas: 1, 0 at the end, -1 (err set). */
static int csv_next(csv *c, rl_silicon *s, char *err, size_t errlen)
{
    for (;;) {
        if (!gzgets(c->gz, c->buf, sizeof c->buf))
            return gz_failed(c, c->line + 1, err, errlen);
        if ((++c->line & 0x3ff) == 0 && rl_interrupted()) /* a signal stops a long import */
            RL_FAIL("%s: line %ld: interrupted (%s)", c->path, c->line, rl_interrupt_name());
        size_t n = strlen(c->buf);
        if (n == sizeof c->buf - 1 && c->buf[n - 1] != '\n')
            RL_FAIL("%s: line %ld: longer than %d characters", c->path, c->line, LINE_MAX_LEN - 2);
        /* a line whose text stops short of its newline holds a NUL byte
         * (gzgets reads up to the newline; read as text, it was cut there and
         * the rest of the line went unread, the next line's first byte taken
         * as the end test's) unless the stream ended there; an empty one
         * always does (gzgets read a byte, and it was NUL: a gzip of zeros
         * read as an empty file, tester19 F6) */
        if (n == 0 || (c->buf[n - 1] != '\n' && !gzeof(c->gz))) {
            if (gz_failed(c, c->line, err, errlen) != 0)
                return -1;
            RL_FAIL("%s: line %ld: a NUL byte: binary data, not a CSV text line", c->path, c->line);
        }
        /* a last line without its newline: the stream's end, or its break */
        if (n > 0 && c->buf[n - 1] != '\n' && gz_failed(c, c->line, err, errlen) != 0)
            return -1;
        while (n > 0 && (c->buf[n - 1] == '\n' || c->buf[n - 1] == '\r'))
            c->buf[--n] = 0;
        /* any other control byte (a tab aside) is binary data too (fixRD #4:
         * gzipped random bytes without a NUL on line 1 read as a header of
         * odd columns, said "no '# device:' line") */
        for (size_t i = 0; i < n; i++)
            if (((unsigned char)c->buf[i] < 0x20 && c->buf[i] != '\t') || c->buf[i] == 0x7f)
                RL_FAIL("%s: line %ld: a control byte 0x%02x at column %zu: binary data, not a "
                        "CSV text line (a kernel table is gzip-compressed CSV text)", c->path,
                        c->line, (unsigned char)c->buf[i], i + 1);
        if (c->buf[0] == '#') {
            static const char *const keys[] = {"# version: ", "# source: ", "# device: ",
                                               "# framework: "};
            char *dst[] = {s->version, s->source, s->device, s->framework};
            size_t cap[] = {sizeof s->version, sizeof s->source, sizeof s->device,
                            sizeof s->framework};
            for (int i = 0; i < 4; i++)
                if (!strncmp(c->buf, keys[i], strlen(keys[i])) && !dst[i][0])
                    snprintf(dst[i], cap[i], "%s", c->buf + strlen(keys[i]));
            continue;
        }
        if (n == 0)
            continue;
        c->nf = 0;
        for (char *p = c->buf;;) {
            if (c->nf == MAX_FIELDS)
                RL_FAIL("%s: line %ld: more than %d columns", c->path, c->line, MAX_FIELDS);
            c->f[c->nf++] = p;
            char *comma = strchr(p, ',');
            if (!comma)
                break;
            *comma = 0;
            p = comma + 1;
        }
        return 1;
    }
}

/* ---- one file's configurations ---------------------------------------------- */

/* One measured row: its configuration key (every column but kernel_source
 * and latency), kernel, latency and shape. */
typedef struct {
    char *key;
    char *kernel;
    long line;
    double lat_s;
    int var;   /* rl_kvariant, or -1: read and checked, not imported */
    double x[RL_KSHAPE];
} row;

typedef struct {
    row *v;
    size_t n, cap;
} rows;

static void rows_free(rows *r)
{
    for (size_t i = 0; i < r->n; i++) {
        free(r->v[i].key);
        free(r->v[i].kernel);
    }
    free(r->v);
}

static int col_index(const csv *c, const char *name)
{
    for (int i = 0; i < c->nf; i++)
        if (!strcmp(c->f[i], name))
            return i;
    return -1;
}

/* Field `col` (named `name`) of the current row as a number (number.h: no
 * hex, nan, inf, overflow); > 0 unless zero_ok; every column but the
 * latency counts something (tokens, heads, sizes, GPUs), so a whole number
 * up to 1e9 (a shape of 1.5 or 1e15 rows was dropped without a word). */
static int field_num(const csv *c, int col, const char *name, int zero_ok, double *out, char *err,
                     size_t errlen)
{
    const char *s = c->f[col], *why = NULL;
    double v = 0;
    int count = strcmp(name, "latency") != 0;
    if (rl_parse_number(s, &v, &why) != 0 || v < 0 || (!zero_ok && v == 0) ||
        (count && (v != floor(v) || v > 1e9)))
        RL_FAIL("%s: line %ld, column %d (%s): expected a %s %s, got '%s'%s%s%s", c->path, c->line,
                col + 1, name, zero_ok ? "non-negative" : "positive",
                count ? "whole number up to 1e9" : "finite number", s, why ? " (" : "",
                why ? why : "", why ? ")" : "");
    *out = v + 0.0; /* -0 as 0 */
    return 0;
}

/* field_num of the column `name` of cols. */
static int num(const csv *c, const int *idx, const char *const *cols, const char *name, int zero_ok,
               double *out, char *err, size_t errlen)
{
    int k = 0;
    while (strcmp(cols[k], name))
        k++;
    return field_num(c, idx[k], name, zero_ok, out, err, errlen);
}

static int known_dtype(const char *s)
{
    for (int i = 0; KNOWN_DTYPES[i]; i++)
        if (!strcmp(s, KNOWN_DTYPES[i]))
            return 1;
    return 0;
}

/* Shape, variant and non-axis dimension of the current row of class cls;
 * var -1 when the row is not one the grids use. */
static int shape(const csv *c, rl_kclass cls, const int *idx, int window, row *r, char *err,
                 size_t errlen)
{
    const char *const *cols = FILES[cls].cols;
    int k = 0;
    char known[256];
    for (; cols[k]; k++)
        if (strstr(cols[k], "dtype") && !known_dtype(c->f[idx[k]]))
            RL_FAIL("%s: line %ld, column %d (%s): unknown dtype '%s' (known: %s)", c->path, c->line,
                    idx[k] + 1, cols[k], c->f[idx[k]],
                    rl_names_join(known, sizeof known, KNOWN_DTYPES,
                               (int)(sizeof KNOWN_DTYPES / sizeof *KNOWN_DTYPES) - 1));
    double lat;
    if (num(c, idx, cols, "latency", 0, &lat, err, errlen) != 0)
        return -1;
    r->lat_s = lat * 1e-3;
    /* one kernel in the physical range validate --against holds a step to
     * (measure.c MEAS_RANGE, (1e-7, 1e5) s; tester10 #10: 1e30 ms was
     * imported): the shipped tables' rows (silicon/<gpu>/<engine>/
     * *_perf.csv.gz) lie within 1.7 us and 1.03 s */
    if (!(r->lat_s > 1e-7 && r->lat_s < 1e5)) {
        for (k = 0; strcmp(cols[k], "latency"); k++)
            ;
        RL_FAIL("%s: line %ld, column %d (latency): %g ms is not one kernel's time (expected "
                "between 1e-4 and 1e8 ms)", c->path, c->line, idx[k] + 1, lat);
    }
    if (cls == RL_KC_MOE) {
        r->var = strcmp(c->f[idx[9]], MOE_ROUTING) ? -1 : rl_kvariant_parse(c->f[idx[1]]);
        if (r->var == RL_KV_MXFP4 && !strstr(c->f[idx[0]], MXFP4_KERNEL))
            r->var = -1;
        static const char *const ax[RL_KSHAPE] = {"num_tokens",  "moe_tp_size", "moe_ep_size",
                                                  NULL,          "hidden_size", "inter_size",
                                                  "topk",        "num_experts"};
        for (int a = 0; a < RL_KSHAPE; a++)
            if (ax[a] && num(c, idx, cols, ax[a], 0, &r->x[a], err, errlen) != 0)
                return -1;
        r->x[1] = 1.0 / r->x[1]; /* tp, ep -> the chip's shares (engines.h) */
        r->x[2] = 1.0 / r->x[2];
        return 0;
    }
    if (is_mla(cls)) { /* batch, isl (prefill: no cached prefix) or context, heads per GPU */
        double b, isl, heads, step;
        if (num(c, idx, cols, "batch_size", 0, &b, err, errlen) ||
            num(c, idx, cols, "isl", 0, &isl, err, errlen) ||
            num(c, idx, cols, "num_heads", 0, &heads, err, errlen) ||
            num(c, idx, cols, "step", 1, &step, err, errlen))
            return -1;
        const char *math = c->f[idx[1]], *kvd = c->f[idx[2]];
        r->var = strcmp(math, "bfloat16") || (cls == RL_KC_PREFILL_MLA && step != 0) ? -1
                 : !strcmp(kvd, "bfloat16")                                           ? RL_KV_BF16
                 : !strcmp(kvd, "fp8")                                                ? RL_KV_FP8
                                                                                      : -1;
        double x[RL_KSHAPE] = {b, cls == RL_KC_PREFILL_MLA ? isl : isl + step, heads};
        memcpy(r->x, x, sizeof x);
        return 0;
    }
    if (cls == RL_KC_GEMM) {
        r->var = rl_kvariant_parse(c->f[idx[1]]);
        if (r->var == RL_KV_FP8_BLOCK) /* a kernel of fp8 x fp8 (engines.h DTYPE_MAP) */
            r->var = RL_KV_FP8;
        if (r->var == RL_KV_MXFP4) /* MoE only (engines.h) */
            r->var = -1;
        return num(c, idx, cols, "m", 0, &r->x[0], err, errlen) ||
                       num(c, idx, cols, "n", 0, &r->x[1], err, errlen) ||
                       num(c, idx, cols, "k", 0, &r->x[2], err, errlen)
                   ? -1
                   : 0;
    }
    double b, isl, h, kv, d, step, w = 0;
    if (num(c, idx, cols, "batch_size", 0, &b, err, errlen) ||
        num(c, idx, cols, "isl", 0, &isl, err, errlen) ||
        num(c, idx, cols, "num_heads", 0, &h, err, errlen) ||
        num(c, idx, cols, "num_key_value_heads", 0, &kv, err, errlen) ||
        num(c, idx, cols, "head_dim", 0, &d, err, errlen) ||
        num(c, idx, cols, "step", 1, &step, err, errlen))
        return -1;
    if (window >= 0 && field_num(c, window, "window_size", 1, &w, err, errlen) != 0)
        return -1;
    /* attention math in bf16, the KV cache dtype picks the variant; or all
     * in fp32 (the reference engine's tables) */
    const char *math = c->f[idx[6]], *kvd = c->f[idx[7]];
    r->var = w != 0 ? -1
             : !strcmp(math, "bfloat16") && !strcmp(kvd, "bfloat16") ? RL_KV_BF16
             : !strcmp(math, "bfloat16") && !strcmp(kvd, "fp8")      ? RL_KV_FP8
             : !strcmp(math, "float32") && !strcmp(kvd, "float32")   ? RL_KV_FP32
                                                                     : -1;
    if (cls == RL_KC_PREFILL_ATTN && step != 0)
        r->var = -1;
    double x[RL_KSHAPE] = {b * kv, cls == RL_KC_PREFILL_ATTN ? isl : isl + step, h / kv, d};
    x[RL_KX_ONE] = b == 1 || kv == 1; /* one KV head or one sequence (engines.h) */
    memcpy(r->x, x, sizeof x);
    return 0;
}

/* Read every row of one file into r.  Returns 0, 1 when the file is absent,
 * -1 on error. */
static int read_file(const char *path, rl_kclass cls, rl_silicon *s, rows *r, char *err,
                     size_t errlen)
{
    csv c = {.path = path};
    c.gz = rl_gzopen_input(path, "a kernel table", err, errlen);
    if (!c.gz)
        return errno == ENOENT ? 1 : -1;
    int rc = csv_next(&c, s, err, errlen); /* an empty or plain-text file: refused at open */
    if (rc == 0) {
        snprintf(err, errlen, "%s: no header line (%ld line(s), comments or blank)", path, c.line);
        rc = -1;
    }
    const char *const *cols = FILES[cls].cols;
    int idx[16], ncols = 0, window = -1, lat = -1, ker = -1, nhead = c.nf;
    for (; rc > 0 && cols[ncols]; ncols++) {
        idx[ncols] = col_index(&c, cols[ncols]);
        if (idx[ncols] < 0) {
            snprintf(err, errlen, "%s: line %ld: missing column '%s'", path, c.line, cols[ncols]);
            rc = -1;
        }
    }
    for (int i = 0; rc > 0 && i < c.nf; i++) /* col_index would read the first */
        for (int j = i + 1; rc > 0 && j < c.nf; j++)
            if (!strcmp(c.f[i], c.f[j])) {
                snprintf(err, errlen, "%s: line %ld: column '%s' given twice (columns %d and %d)",
                         path, c.line, c.f[i], i + 1, j + 1);
                rc = -1;
            }
    if (rc > 0) {
        window = col_index(&c, "window_size");
        lat = col_index(&c, "latency");
        ker = col_index(&c, "kernel_source");
    }
    while (rc > 0 && (rc = csv_next(&c, s, err, errlen)) > 0) {
        if (c.nf != nhead) {
            snprintf(err, errlen, "%s: line %ld: %d columns, the header has %d", path, c.line,
                     c.nf, nhead);
            rc = -1;
            break;
        }
        row x = {.line = c.line};
        if (shape(&c, cls, idx, window, &x, err, errlen) != 0) {
            rc = -1;
            break;
        }
        /* a GEMM fp8_block row is another kernel of the fp8 configuration
         * of its shape (engines.h DTYPE_MAP): the faster one is kept */
        int block = cls == RL_KC_GEMM && !strcmp(c.f[idx[1]], "fp8_block");
        char key[LINE_MAX_LEN] = "", kernel[LINE_MAX_LEN];
        size_t at = 0;
        for (int i = 0; i < c.nf; i++)
            if (i != lat && i != ker)
                at += (size_t)snprintf(key + at, sizeof key - at, "%s,",
                                       block && i == idx[1] ? "fp8" : c.f[i]);
        snprintf(kernel, sizeof kernel, "%s%s", c.f[ker], block ? " fp8_block" : "");
        s->attn_longest |= cls == RL_KC_DECODE_ATTN && !strcmp(c.f[ker], "reference_cuda");
        x.key = strdup(key);
        x.kernel = strdup(kernel);
        if (r->n == r->cap) {
            r->cap = r->cap ? 2 * r->cap : 4096;
            row *v = realloc(r->v, r->cap * sizeof *v);
            if (!v) {
                r->cap = r->n;
                free(x.key);
                free(x.kernel);
                snprintf(err, errlen, "%s: out of memory", path);
                rc = -1;
                break;
            }
            r->v = v;
        }
        r->v[r->n++] = x;
        if (!x.key || !x.kernel) {
            snprintf(err, errlen, "%s: out of memory", path);
            rc = -1;
        }
    }
    gzclose(c.gz);
    return rc < 0 ? -1 : 0;
}

static int by_key_kernel(const void *a, const void *b)
{
    const row *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    if (!c)
        c = strcmp(x->kernel, y->kernel);
    return c ? c : (x->line > y->line) - (x->line < y->line);
}

static int by_line(const void *a, const void *b)
{
    const row *x = a, *y = b;
    return (x->line > y->line) - (x->line < y->line);
}

/* Collapse r to one row per configuration (sorted by first line): repeats
 * of a kernel averaged (error beyond 2x apart), the fastest kernel kept.
 * The row keeps its kernel's name where one kernel measured the
 * configuration (the engine's dispatch chose it: a kernel switch the fill
 * may read, ktable.h rl_ktable.kernel), NULL where several did (the
 * import chose the faster: the time is continuous across their crossing). */
static int group(const char *path, rows *r, char *err, size_t errlen)
{
    qsort(r->v, r->n, sizeof *r->v, by_key_kernel);
    size_t out = 0;
    for (size_t i = 0; i < r->n;) {
        size_t j = i;
        double best = INFINITY;
        long first = r->v[i].line;
        int kernels = 0;
        while (j < r->n && !strcmp(r->v[j].key, r->v[i].key)) {
            size_t k = j;
            double sum = 0, lo = r->v[j].lat_s, hi = lo;
            long lo_line = r->v[j].line, hi_line = lo_line;
            for (; k < r->n && !strcmp(r->v[k].key, r->v[j].key) &&
                   !strcmp(r->v[k].kernel, r->v[j].kernel);
                 k++) {
                sum += r->v[k].lat_s;
                if (r->v[k].lat_s < lo)
                    lo = r->v[k].lat_s, lo_line = r->v[k].line;
                if (r->v[k].lat_s > hi)
                    hi = r->v[k].lat_s, hi_line = r->v[k].line;
                first = r->v[k].line < first ? r->v[k].line : first;
            }
            if (hi > 2 * lo)
                RL_FAIL("%s: line %ld, column latency: %.4g ms, but line %ld measures the same "
                        "kernel, dtype and shape at %.4g ms (more than 2x apart)", path, hi_line,
                        hi * 1e3, lo_line, lo * 1e3);
            double mean = sum / (double)(k - j);
            best = mean < best ? mean : best;
            kernels++;
            j = k;
        }
        row keep = r->v[i];
        keep.lat_s = best;
        keep.line = first;
        if (kernels > 1) { /* several kernels: the import's choice, not the engine's */
            free(keep.kernel);
            keep.kernel = NULL;
        }
        for (size_t k = i + 1; k < j; k++) {
            free(r->v[k].key);
            free(r->v[k].kernel);
            r->v[k].key = r->v[k].kernel = NULL;
        }
        r->v[i].key = r->v[i].kernel = NULL;
        r->v[out++] = keep;
        i = j;
    }
    r->n = out;
    qsort(r->v, r->n, sizeof *r->v, by_line);
    return 0;
}

/* ---- grids ------------------------------------------------------------------- */

/* Whether v is 2^i, or 3 * 2^i with threes. */
static int pow2(double v, int threes)
{
    while (v >= 2 && fmod(v, 2) == 0)
        v /= 2;
    return v == 1 || (threes && v == 3);
}

/* Whether value v stays a node of an axis subsampled by rule (subsampled). */
static int keep(int rule, double v)
{
    return rule == 0 || pow2(v, rule == 1 || rule == 3) || (rule == 1 && v > 2 && pow2(v - 1, 1));
}

static int axis_pos(const rl_ktable *t, int a, double v)
{
    for (int i = 0; i < t->len[a]; i++)
        if (t->axis[a][i] == v)
            return i;
    return -1;
}

/* A GEMM file measuring at most this many m values keeps each as a node
 * (axis_rule): the A100 tables measure 21 (1 .. 8192, with 80 and 160,
 * which 2^i and 3 * 2^i leave out), the H100, H200, B200 and GB200 ones 75
 * (every m up to 17, then pairs m, m + 1), where every value would take
 * b200-vllm past 1 MB (about 75 / 44 of its GEMM tables' size). */
#define GEMM_M_ALL 32

/* The node rule (keep()) of axis a of class cls's variant v tables over
 * rows r: subsampled's, except a GEMM m axis of at most GEMM_M_ALL values
 * measured (over every row of v, held back or not: the axis, not a
 * latency), which keeps them all ("a node per measurement where the
 * profile stays under 1 MB", stop 27; stop 44).  Why: GEMM time is a
 * staircase in ceil(m / tile) (CUTLASS threadblock tiles), and a
 * measured m between two nodes read log-log between them misses the
 * step it sits on: A100 TensorRT-LLM int4_wo, n 16384, k 2048, 53.2 us
 * at m = 128 and 75.8 us at m = 160, read 64.3 us from 128 and 192. */
static int axis_rule(const rows *r, rl_kclass cls, int v, int a)
{
    int rule = subsampled(cls, a);
    if (cls != RL_KC_GEMM || a != 0 || rule == 0)
        return rule;
    double seen[GEMM_M_ALL + 1];
    int n = 0;
    for (size_t i = 0; i < r->n && n <= GEMM_M_ALL; i++) {
        int j = 0;
        if (r->v[i].var != v)
            continue;
        while (j < n && seen[j] != r->v[i].x[0])
            j++;
        if (j == n)
            seen[n++] = r->v[i].x[0];
    }
    return n <= GEMM_M_ALL ? 0 : rule;
}

/* Whether row x is of variant v, (MoE) of model shape moe and (one >= 0,
 * attention) of that side of the one-KV-head-or-one-sequence split
 * (engines.h RL_KX_ONE). */
static int of_table(const row *x, rl_kvariant v, const double *moe, int one)
{
    return x->var == (int)v && (!moe || !memcmp(x->x + RL_KX_MOE, moe, 4 * sizeof *moe)) &&
           (one < 0 || x->x[RL_KX_ONE] == one);
}

/* TensorRT-LLM's decode attention runs its XQA kernel up to 32 query heads
 * a KV head and its masked multi-head attention kernel (MMHA) above:
 * supportConfigHMMA and supportConfigQGMMA refuse head_grp_size *
 * beam_width > 32, and the dispatcher falls back to MMHA
 * (cpp/tensorrt_llm/kernels/decoderMaskedMultiheadAttention/
 * decoderXQAImplJIT/kernelUtils.cpp, github.com/NVIDIA/TensorRT-LLM,
 * Apache-2.0; sm80 and sm90).  The tables measure that step on all five
 * GPUs, Blackwell's too (64 streams, context 1024, head_dim 128, bf16:
 * group 32 -> 64 takes 11x on A100, 9.5x on H100, 9.8x on H200, 21x on
 * B200 and 19x on GB200), so the group axis is cut between 32 and 48 (ktable.h rl_ktable.cut): a hole is never filled across it.  The
 * XQA path also leaves out plain MHA (group 1) at head_dim <= 128 and
 * beam 1, measured without a step on Blackwell (B200 64 streams: 13.0 us at
 * group 1 and 2): not cut. */
#define TRTLLM_XQA_MAX_GROUP RL_TRTLLM_XQA_MAX_GROUP

/* The SM count of the chip a TensorRT-LLM table was measured on, from the
 * files' `# device:` line, for its decode-attention dispatch (engines.h
 * RL_TRTLLM_MMHA); 0 where not known, and on Blackwell (sm100), where
 * TensorRT-LLM times decode attention with other kernels than the sm80 /
 * sm90 XQA and MMHA this dispatch is of: no MMHA table there.  A100: 108
 * SMs ("NVIDIA A100 Tensor Core GPU Architecture", NVIDIA whitepaper,
 * 2020); H100 SXM5 and H200 (the same GH100 part): 132 ("NVIDIA H100 Tensor
 * Core GPU Architecture", NVIDIA whitepaper, 2022). */
static double trtllm_sms(const rl_silicon *s)
{
    static const struct {
        const char *device;
        double sms;
    } SMS[] = {{"NVIDIA A100-SXM4-80GB", 108}, {"NVIDIA H100 80GB HBM3", 132}, {"NVIDIA H200", 132}};
    for (size_t i = 0; strcmp(s->engine, "trtllm") == 0 && i < sizeof SMS / sizeof SMS[0]; i++)
        if (!strcmp(s->device, SMS[i].device))
            return SMS[i].sms;
    return 0;
}

/* Which side of the dispatch row x is on for a table of `mmha` (-1: both,
 * the table of all; 0: XQA's, 1: MMHA's) on a chip of sms SMs. */
static int of_side(const row *x, int mmha, double sms)
{
    return mmha < 0 || rl_trtllm_mmha(x->x, sms) == mmha;
}

/* Row x's coordinate along axis a of a table of that side (MMHA's is over
 * pairs: ktable.h RL_KT_PAIRS). */
static double coord(const row *x, int a, int mmha)
{
    return mmha == 1 && a == 0 ? x->x[0] * x->x[2] : x->x[a];
}

/* Build the table of class cls, variant v (MoE: of model shape moe[4];
 * one >= 0: of that side of the RL_KX_ONE split, -1 both) from the fitted rows (held[] = 1 for rows held back) for `engine` (its
 * documented kernel switches, above).  Returns NULL (no error) when no
 * row fits. */
static rl_ktable *build(const rows *r, const unsigned char *held, rl_kclass cls, rl_kvariant v,
                        const double *moe, int one, int mmha, double sms, const char *engine,
                        const rl_hw *h, long *configs, long *filled, char *err, size_t errlen)
{
    int naxes = naxes_of(cls);
    rl_ktable *t = calloc(1, sizeof *t);
    double *vals = malloc(r->n * sizeof *vals);
    if (!t || !vals) {
        free(t);
        free(vals);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    t->naxes = naxes;
    for (int a = 0; a < naxes; a++) {
        snprintf(t->axis_name[a], sizeof t->axis_name[a], "%s",
                 mmha == 1 && a == 0 ? RL_KT_PAIRS : rl_kclass_axes(cls)[a]);
        size_t n = 0;
        int rule = axis_rule(r, cls, (int)v, a); /* once: it reads every row */
        /* kept by the row's own value (MMHA's pairs: the streams kept) */
        for (size_t i = 0; i < r->n; i++)
            if (of_table(&r->v[i], v, moe, one) && of_side(&r->v[i], mmha, sms) && !held[i] &&
                keep(rule, r->v[i].x[a]))
                vals[n++] = coord(&r->v[i], a, mmha);
        qsort(vals, n, sizeof *vals, rl_cmp_double);
        int len = 0;
        for (size_t i = 0; i < n; i++)
            if ((!len || vals[i] != t->axis[a][len - 1]) && len < RL_KT_AXIS_MAX)
                t->axis[a][len++] = vals[i];
        t->len[a] = len;
    }
    free(vals);
    if (t->len[0] == 0) {
        free(t);
        return NULL;
    }
    if (rl_kt_alloc(t, err, errlen) != 0) {
        free(t);
        return NULL;
    }
    if (cls == RL_KC_DECODE_ATTN && !strcmp(engine, "trtllm") && mmha != 1)
        t->cut[2] = TRTLLM_XQA_MAX_GROUP; /* the group axis (engines.c CLASS_AXES); MMHA's
                                             table is one kernel on both sides */
    /* geometric mean of the configurations on each node; the node's kernel
     * (ktable.h rl_ktable.kernel: 1 + its index in names[] where every
     * configuration names the same one; 255, then 0, where two disagree or
     * one is unnamed) */
    int *count = calloc(t->n, sizeof *count);
    unsigned char *kern = calloc(t->n, 1);
    const char *names[254];
    int nnames = 0;
    if (!kern) { /* reported as out of memory below */
        free(count);
        count = NULL;
    }
    for (size_t i = 0; count && i < r->n; i++) {
        const row *x = &r->v[i];
        int idx[4];
        int on = of_table(x, v, moe, one) && of_side(x, mmha, sms) && !held[i];
        for (int a = 0; on && a < naxes; a++)
            on = (idx[a] = axis_pos(t, a, coord(x, a, mmha))) >= 0;
        if (!on)
            continue;
        size_t at = rl_kt_index(t, idx);
        int id = 0;
        while (x->kernel && id < nnames && strcmp(names[id], x->kernel))
            id++;
        if (x->kernel && id == nnames && nnames < 254)
            names[nnames++] = x->kernel;
        unsigned char k = x->kernel && id < nnames ? (unsigned char)(id + 1) : 0;
        kern[at] = !count[at] ? (k ? k : 255) : kern[at] == k ? k : 255;
        t->logv[at] = count[at] ? t->logv[at] + log(x->lat_s) : log(x->lat_s);
        count[at]++;
        (*configs)++;
    }
    for (size_t i = 0; kern && i < t->n; i++)
        kern[i] = kern[i] == 255 ? 0 : kern[i];
    size_t nodes = 0;
    for (size_t i = 0; count && i < t->n; i++)
        if (count[i]) {
            t->logv[i] /= count[i];
            nodes++;
        }
    int counted = count != NULL;
    free(count);
    rl_kideal_ctx k = {cls, v, rl_kvariant_peak(h->flops, v), h->hbm_bw, {0}, 0};
    if (moe)
        memcpy(k.moe, moe, sizeof k.moe);
    /* the measured nodes, so that a spike does not spread to holes; then
     * with the filled nodes (rl_kt_read's fit is then the identity) */
    t->kernel = kern; /* for the fill only (ktable.h) */
    rl_kt_find_steps(t); /* a fall most lines show is kept (ktable.h) */
    long nf = nodes && rl_kt_isotonic(t, RL_KT_ROUNDS) >= 0 ? rl_kt_fill_holes(t, rl_kideal, &k)
                                                            : -1;
    t->kernel = NULL;
    free(kern);
    if (nf >= 0 && rl_kt_isotonic(t, RL_KT_ROUNDS) < 0)
        nf = -1;
    if (nf < 0) {
        snprintf(err, errlen, counted && !nodes ? "%s rows of dtype %s: none lies on the grid"
                 : "out of memory", rl_kclass_name(cls), rl_kvariant_name(v));
        rl_kt_free(t);
        free(t);
        return NULL;
    }
    *filled += nf;
    return t;
}

void rl_silicon_free(rl_silicon *s)
{
    rl_engine_tables_free(s->tables);
    free(s->held);
    memset(s, 0, sizeof *s);
}

/* Whether MoE shape x[4] is one of keep (NULL: all). */
static int kept_shape(const rl_moe_keep *keep, const double *x)
{
    for (int i = 0; keep && i < keep->n; i++)
        if (!memcmp(keep->shape[i], x, sizeof keep->shape[i]))
            return 1;
    return !keep;
}

/* The MoE tables of variant v: one per model shape of r's rows, in order
 * of first appearance; a shape whose table comes out empty (no row kept)
 * is left out.  Each shape is built once: its rows are marked done, built
 * or not (review-a finding 7: an empty shape was rebuilt at each of its
 * rows).  0, or -1 (err). */
static int build_moe(const rows *r, const unsigned char *held, rl_kvariant v, const rl_hw *h,
                     rl_silicon *s, char *err, size_t errlen)
{
    rl_moe_tables *m = &s->tables->moe[v];
    unsigned char *done = calloc(r->n ? r->n : 1, 1);
    if (!done)
        RL_FAIL("%s: out of memory", FILES[RL_KC_MOE].file);
    int rc = 0;
    for (size_t i = 0; i < r->n && rc == 0; i++) {
        const double *shape = r->v[i].x + RL_KX_MOE;
        if (done[i] || r->v[i].var != (int)v)
            continue;
        for (size_t j = i; j < r->n; j++)
            done[j] |= !memcmp(r->v[j].x + RL_KX_MOE, shape, sizeof m->shape[0]);
        if (m->n == RL_MOE_SHAPES_MAX) {
            rc = rl_fail(err, errlen, "%s: more than %d MoE model shapes of dtype %s",
                         FILES[RL_KC_MOE].file, RL_MOE_SHAPES_MAX, rl_kvariant_name(v));
            break;
        }
        err[0] = 0;
        rl_ktable *t = build(r, held, RL_KC_MOE, v, shape, -1, -1, 0, s->engine, h, &s->configs[RL_KC_MOE][v],
                             &s->filled[RL_KC_MOE][v], err, errlen);
        if (!t && err[0])
            rc = -1;
        else if (t) {
            memcpy(m->shape[m->n], shape, sizeof m->shape[m->n]);
            m->t[m->n++] = t;
        }
    }
    free(done);
    return rc;
}

/* Import one file's class into s. */
/* Hold back (held[i] = 1) the rows of r at one end of axis edge / 2 (the
 * largest value when edge is odd, else the smallest) among the values a
 * table keeps on it (keep()), per dtype variant. */
static void hold_edge(const rows *r, rl_kclass cls, int edge, unsigned char *held)
{
    int a = edge / 2, top = edge % 2;
    for (int v = 0; v < RL_KV_COUNT; v++) {
        double lo = NAN, hi = NAN;
        int rule = axis_rule(r, cls, v, a); /* once: it reads every row */
        for (size_t i = 0; i < r->n; i++) {
            double x = r->v[i].x[a];
            if (r->v[i].var == v && keep(rule, x)) {
                lo = isnan(lo) ? x : fmin(lo, x);
                hi = isnan(hi) ? x : fmax(hi, x);
            }
        }
        double ext = top ? hi : lo;
        for (size_t i = 0; i < r->n && lo < hi; i++) /* one value: nothing held */
            if (r->v[i].var == v)
                held[i] = top ? r->v[i].x[a] >= ext : r->v[i].x[a] <= ext;
    }
}

/* Import one class's file into s, holding back every holdout-th
 * configuration (holdout >= 2) or, with edge >= 0, those at one end of an
 * axis (hold_edge). */
/* The floor of MoE row x at h's datasheet figures (drop_below_floor). */
static double moe_floor(const row *x, const rl_hw *h)
{
    rl_kideal_ctx k = {RL_KC_MOE, x->var, rl_kvariant_peak(h->flops, x->var), h->hbm_bw, {0}, -1};
    memcpy(k.moe, x->x + RL_KX_MOE, sizeof k.moe);
    return rl_kideal(x->x, &k);
}

/* Leave out the configurations of r (class cls) whose time is below their
 * roofline at h's datasheet figures, counting them in s->below: no kernel
 * runs faster than its roofline (engines.h, the floor rule of
 * rl_engine_time, which says why and which rows).  MoE rows against the
 * roofline of one expert's weights and the layer's FLOPs spread evenly over
 * the EP ranks (rl_kideal_ctx expected -1), a floor no routing the tables
 * measured beats (no genuine row of the five GPUs and two engines is below
 * it, while a tenfold unit error puts 22-24% of h100_sxm/trtllm's there);
 * lookups leave MoE unfloored (engines.h).  Left out, not raised to the floor: the grid node is
 * then measured by the configurations of plausible rows sharing it, or
 * filled from its neighbours' efficiency (rl_kt_fill_holes), which keeps a
 * measured fraction of the roof rather than the roof itself.  The
 * reference engine's tables too, at its base.lua's own measured figures
 * (engines.h rl_engine_floor).
 *
 * A file in which more than RL_SILICON_MAX_BELOW of one dtype variant's rows
 * (of RL_SILICON_MIN_SHARE_ROWS or more; of fewer, all of them: tester30 F4)
 * are below the floor is refused (-1, err names the file, the variant and
 * the share): the genuine tables leave out at most 7.8% (A100 TensorRT-LLM
 * decode attention bf16, 351 of 4503 configurations; every other GPU,
 * engine and class under 0.3%), while a file in the wrong unit or of the
 * wrong chip loses many of its rows (tester44 F1: every latency of
 * h100_sxm/trtllm divided by 10 put 89% of the bf16 GEMM rows below the
 * roofline, and the 11% left, the largest shapes only, imported as a
 * `calibrated` profile 17% slower than the genuine one; 22% of its bf16 and
 * 24% of its fp8 MoE rows). */
static int drop_below_floor(rows *r, rl_kclass cls, const rl_hw *h, rl_silicon *s,
                            const char *path, char *err, size_t errlen)
{
    long n[RL_KV_COUNT] = {0}, below[RL_KV_COUNT] = {0};
    for (size_t i = 0; i < r->n; i++) {
        row *x = &r->v[i];
        if (x->var < 0)
            continue;
        double peak = rl_kvariant_peak(h->flops, x->var);
        double floor_s = cls == RL_KC_MOE ? moe_floor(x, h)
                                          : rl_engine_floor(cls, x->var, x->x, peak, h->hbm_bw);
        n[x->var]++;
        if (x->lat_s < floor_s) {
            s->below[cls][x->var]++;
            below[x->var]++;
            x->var = -1;
        }
    }
    for (int v = 0; v < RL_KV_COUNT; v++)
        if ((n[v] >= RL_SILICON_MIN_SHARE_ROWS && below[v] > RL_SILICON_MAX_BELOW * (double)n[v]) ||
            (n[v] > 0 && below[v] == n[v])) {
            snprintf(err, errlen,
                     "%s: %ld of %ld %s rows (%.0f%%) are faster than %s's roofline, more than "
                     "the %.0f%% a measured table shows: wrong units (latency in ms per call) or "
                     "wrong --hw?",
                     path, below[v], n[v], rl_kvariant_name((rl_kvariant)v),
                     100.0 * (double)below[v] / (double)n[v], h->name,
                     100.0 * RL_SILICON_MAX_BELOW);
            return -1;
        }
    return 0;
}

/* rows r sorted by node: variant, then shape (its first NODE_DIMS
 * values), then file order */
static const rows *NODE_ROWS;
static int NODE_DIMS;

static int by_node(const void *pa, const void *pb)
{
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    const row *x = &NODE_ROWS->v[a], *y = &NODE_ROWS->v[b];
    if (x->var != y->var)
        return x->var < y->var ? -1 : 1;
    for (int k = 0; k < NODE_DIMS; k++)
        if (x->x[k] != y->x[k])
            return x->x[k] < y->x[k] ? -1 : 1;
    return a < b ? -1 : a > b;
}

/* For each row of r the index of the first row (in file order) of the same
 * variant and shape (its grid node, and for MoE its model shape), or NULL
 * out of memory.  `--holdout K` holds back every K-th node with all its rows
 * (tester43 F3): attention's grid keys streams = batch x KV heads and group
 * = heads / KV heads, so configurations of other batch and head counts
 * share a node (B200 TensorRT-LLM prefill bf16: 2271 of 3467 rows held back
 * one by one read `measured`, their node timed by a kept twin).  Attention's
 * node is its four axes, without the RL_KX_ONE bit (engines.h): the rule
 * that splits a table on it holds back the same rows as without it. */
static size_t *first_of_node(const rows *r, rl_kclass cls)
{
    int dims = cls == RL_KC_MOE ? RL_KSHAPE : RL_KX_ONE;
    size_t *ix = malloc((r->n + 1) * sizeof *ix), *first = malloc((r->n + 1) * sizeof *first);
    if (!ix || !first) {
        free(ix);
        free(first);
        return NULL;
    }
    for (size_t i = 0; i < r->n; i++)
        ix[i] = i;
    NODE_ROWS = r;
    NODE_DIMS = dims;
    qsort(ix, r->n, sizeof *ix, by_node);
    NODE_ROWS = NULL;
    for (size_t i = 0; i < r->n; i++) {
        const row *x = &r->v[ix[i]], *p = i ? &r->v[ix[i - 1]] : NULL;
        int same = p && p->var == x->var && !memcmp(p->x, x->x, (size_t)dims * sizeof x->x[0]);
        first[ix[i]] = same ? first[ix[i - 1]] : ix[i];
    }
    free(ix);
    return first;
}

/* Whether attention variant v of r splits on RL_KX_ONE (engines.h): over
 * the nodes (four axes) whose kept rows (held[i] 0) measure both one KV head
 * or one sequence and another split, the ratio of the two sides' geometric
 * means; 1 when their median ratio is below RL_ONE_SPLIT over at least
 * RL_ONE_MIN_NODES such nodes, either all of them or those of one prompt
 * length (prefill) or context (decode), the table's second axis; 0
 * otherwise, -1 out of memory.  Per prompt length (stop 44): A100 vLLM's
 * prefill shows the split at one-token prompts alone (median 0.69 over 60
 * nodes at isl 1, 0.99-1.01 at every other isl; 0.985 over all), every
 * other table 0.97 or more at every isl and context (docs/validation.md).
 * Why there: vLLM's FlashAttention runs a batch of one-token queries with
 * more query than KV heads as it runs decode, the query heads of each KV
 * head moved into the sequence dimension and the keys split across blocks
 * ("Only apply split-k for decoding", seqlenq_ngroups_swapped in
 * mha_varlen_fwd, csrc/flash_attn/flash_api.cpp, github.com/vllm-project/
 * flash-attention, BSD-3-Clause); group-1 nodes at isl 1 read 0.96-1.07. */
static int one_split(const rows *r, const unsigned char *held, rl_kvariant v)
{
    size_t *ix = malloc((r->n + 1) * sizeof *ix);
    double *ratio = malloc((r->n + 1) * sizeof *ratio);
    double *at = malloc((r->n + 1) * sizeof *at), *slice = malloc((r->n + 1) * sizeof *slice);
    if (!ix || !ratio || !at || !slice) {
        free(ix);
        free(ratio);
        free(at);
        free(slice);
        return -1;
    }
    size_t n = 0, k = 0;
    for (size_t i = 0; i < r->n; i++)
        if (r->v[i].var == (int)v && !held[i])
            ix[n++] = i;
    NODE_ROWS = r;
    NODE_DIMS = RL_KX_ONE;
    qsort(ix, n, sizeof *ix, by_node);
    NODE_ROWS = NULL;
    for (size_t i = 0; i < n;) {
        double sum[2] = {0, 0};
        int cnt[2] = {0, 0};
        size_t j = i;
        for (; j < n && !memcmp(r->v[ix[j]].x, r->v[ix[i]].x, RL_KX_ONE * sizeof(double)); j++) {
            int one = r->v[ix[j]].x[RL_KX_ONE] == 1;
            sum[one] += log(r->v[ix[j]].lat_s);
            cnt[one]++;
        }
        if (cnt[0] && cnt[1]) {
            at[k] = r->v[ix[i]].x[1];
            ratio[k++] = exp(sum[1] / cnt[1] - sum[0] / cnt[0]);
        }
        i = j;
    }
    /* each prompt length or context's nodes (a pass per distinct value:
     * the tables hold at most a few dozen), then all of them */
    int split = 0;
    for (size_t i = 0; !split && i < k; i++) {
        int first = 1, m = 0;
        for (size_t j = 0; first && j < i; j++)
            first = at[j] != at[i];
        for (size_t j = i; first && j < k; j++)
            if (at[j] == at[i])
                slice[m++] = ratio[j];
        split = m >= RL_ONE_MIN_NODES && rl_fit_quantile(slice, m, 0.5) < RL_ONE_SPLIT;
    }
    split = split || (k >= RL_ONE_MIN_NODES && rl_fit_quantile(ratio, (int)k, 0.5) < RL_ONE_SPLIT);
    free(ix);
    free(ratio);
    free(at);
    free(slice);
    return split;
}

/* One MoE row for the MoE-from-GEMM bias (engines.h rl_moe_gemm_fix): its
 * rows per touched expert, ln(measured / GEMM-timed) and model shape. */
typedef struct {
    double me, ln;
    int shape;
} mg_row;

/* The node (0 .. RL_MOE_GEMM_NODES - 1) of m_e rows per touched expert: the
 * nearest 4^i in log m_e. */
static int mg_node(double me)
{
    long i = lround(log(me) / log(4.0));
    return i < 0 ? 0 : i >= RL_MOE_GEMM_NODES ? RL_MOE_GEMM_NODES - 1 : (int)i;
}

/* The median of the rows r but those of model shape skip whose node
 * (mg_node) lies in [a, b]; buf holds n doubles.  0 of none. */
static double mg_median(const mg_row *r, size_t n, int skip, int a, int b, double *buf)
{
    int k = 0;
    for (size_t j = 0; j < n; j++) {
        int i = mg_node(r[j].me);
        if (r[j].shape != skip && i >= a && i <= b)
            buf[k++] = r[j].ln;
    }
    return k ? rl_fit_quantile(buf, k, 0.5) : 0;
}

/* What a block of nodes pools (mg_pooled): the rows, the shape left out,
 * each fitted node's bin and median's scratch. */
typedef struct {
    const mg_row *r;
    size_t n;
    int skip;
    const int *node;
    double *buf;
} mg_pool;

/* The median of the rows of nodes [a, b]'s bins together (stats.h
 * rl_pav_value). */
static double mg_pooled(const double *v, int a, int b, void *ctx)
{
    const mg_pool *p = ctx;
    (void)v;
    return mg_median(p->r, p->n, p->skip, p->node[a], p->node[b], p->buf);
}

/* f's nodes from the n rows r but those of model shape skip, each the
 * median of its bin (engines.h), then non-decreasing (stop 41, issue 12;
 * engines.h rl_moe_gemm_monotone): where a node falls below the one before,
 * the two pool, each then the median of their bins' rows together, and on
 * (pool adjacent violators with the pooled median: the isotonic median
 * regression of the binned rows); buf holds n doubles. */
static void mg_fit(const mg_row *r, size_t n, int skip, rl_moe_gemm_fix *f, double *buf)
{
    int node[RL_MOE_GEMM_NODES];
    f->n = 0;
    for (int i = 0; i < RL_MOE_GEMM_NODES; i++) {
        int k = 0;
        for (size_t j = 0; j < n; j++)
            k += r[j].shape != skip && mg_node(r[j].me) == i;
        if (k < RL_MOE_GEMM_MIN_ROWS)
            continue;
        node[f->n] = i;
        f->me[f->n] = pow(4.0, i);
        f->ln[f->n++] = mg_median(r, n, skip, i, i, buf);
    }
    mg_pool pool = {r, n, skip, node, buf};
    rl_pav_blocks(f->ln, f->n, mg_pooled, &pool);
}

/* The MoE-from-GEMM bias of s's engine (engines.h rl_moe_gemm_fix) from the
 * MoE rows r (every model shape of the file, routing MOE_ROUTING, none below
 * its floor), for each GEMM variant s has a table of: bfloat16 from the
 * bfloat16 rows, fp8 from the fp8 and fp8_block ones (the MoE variants an
 * fp8 x fp8 run reads; ops.c times their experts from the fp8 GEMM table).
 * With holdout 0 and RL_MOE_GEMM_ROWS set, each row is appended to that
 * file as variant,m_e,ln,shape index (tools/moegemmcheck.py --borrow).
 * The model of a row: its experts and top-k, gated experts (SwiGLU: every
 * MoE model the tables measure, Mixtral, DeepSeek, Qwen, gpt-oss, is).
 * 0, or -1 out of memory. */
static int fit_moe_gemm(const rows *r, const rl_hw *h, int holdout, rl_silicon *s)
{
    static const int VG[2] = {RL_KV_BF16, RL_KV_FP8};
    mg_row *v = malloc((r->n + 1) * sizeof *v);
    double *buf = malloc(3 * (r->n + 1) * sizeof *buf), *after = buf + r->n + 1,
           *before = after + r->n + 1;
    double (*shape)[4] = malloc(RL_MOE_SHAPES_MAX * sizeof *shape);
    rl_serving_engine *eng = calloc(1, sizeof *eng);
    int rc = v && buf && shape && eng ? 0 : -1;
    if (eng)
        eng->tables = s->tables;
    for (int g = 0; g < 2 && rc == 0; g++) {
        int vg = VG[g], nshape = 0;
        size_t n = 0;
        if (!rl_engine_has(s->tables, RL_KC_GEMM, vg))
            continue;
        double peak = rl_kvariant_peak(h->flops, (rl_kvariant)vg);
        for (size_t i = 0; i < r->n; i++) {
            const row *x = &r->v[i];
            int var = x->var == RL_KV_FP8_BLOCK ? RL_KV_FP8 : x->var;
            if (var != vg || x->lat_s < moe_floor(x, h))
                continue;
            int sid = 0;
            while (sid < nshape && memcmp(shape[sid], x->x + RL_KX_MOE, sizeof shape[0]))
                sid++;
            if (sid == RL_MOE_SHAPES_MAX)
                continue; /* more shapes than a variant's tables hold: not fitted on */
            if (sid == nshape)
                memcpy(shape[nshape++], x->x + RL_KX_MOE, sizeof shape[0]);
            rl_model m = {0};
            m.experts = (long long)x->x[RL_KX_MOE + 3];
            m.top_k = (long long)x->x[RL_KX_MOE + 2];
            m.mlp = RL_MLP_SWIGLU;
            double gs[2][RL_KSHAPE], me = rl_ops_moe_gemm_shapes(&m, x->x, gs);
            double t = rl_engine_time(eng, RL_KC_GEMM, vg, gs[0], peak, h->hbm_bw, NULL) +
                       rl_engine_time(eng, RL_KC_GEMM, vg, gs[1], peak, h->hbm_bw, NULL);
            if (t > 0 && isfinite(t))
                v[n++] = (mg_row){me, log(x->lat_s / t), sid};
        }
        /* the rows themselves, for tools/moegemmcheck.py --borrow (the
         * leave-one-profile-out check of a borrowed correction), of the
         * import whose GEMM tables hold every row (holdout 0) */
        const char *dump = holdout ? NULL : getenv("RL_MOE_GEMM_ROWS");
        FILE *df = dump && *dump ? fopen(dump, "a") : NULL;
        for (size_t j = 0; df && j < n; j++)
            fprintf(df, "%s,%.9g,%.9g,%d\n", rl_kvariant_name((rl_kvariant)vg), v[j].me, v[j].ln,
                    v[j].shape);
        if (df)
            fclose(df);
        rl_moe_gemm_fix *f = &s->tables->moe_gemm[vg];
        /* the hold-out: each shape's rows against the others' correction */
        size_t nh = 0;
        for (int sid = 0; sid < nshape && nshape >= 2; sid++) {
            rl_moe_gemm_fix o;
            mg_fit(v, n, sid, &o, buf);
            for (size_t j = 0; j < n && o.n > 0; j++)
                if (v[j].shape == sid) {
                    after[nh] = v[j].ln - rl_moe_gemm_ln(&o, v[j].me);
                    before[nh++] = fabs(v[j].ln);
                }
        }
        mg_fit(v, n, -1, f, buf);
        if (nh < RL_MOE_GEMM_MIN_ROWS || f->n == 0) { /* no hold-out: no correction */
            memset(f, 0, sizeof *f);
            continue;
        }
        f->rows = (long)n;
        f->shapes = nshape;
        for (int q = 0; q < 4; q++)
            f->q[q] = rl_fit_bound(after, (int)nh, RL_KRESIDUAL_P[q]);
        for (size_t j = 0; j < nh; j++)
            after[j] = fabs(after[j]);
        f->held_out[0] = rl_fit_quantile(before, (int)nh, 0.5);
        f->held_out[1] = rl_fit_quantile(before, (int)nh, 0.9);
        f->held_out[2] = rl_fit_quantile(after, (int)nh, 0.5);
        f->held_out[3] = rl_fit_quantile(after, (int)nh, 0.9);
    }
    free(v);
    free(buf);
    free(shape);
    free(eng);
    return rc;
}

/* The band of a borrowed MoE-from-GEMM correction (engines.h
 * rl_moe_gemm_fix, borrowed_from), per GEMM variant: p5, p10, p90, p95 of
 * ln(measured / borrowed-corrected) of each engine's own MoE rows with the
 * correction borrowed, by borrow_moe_gemm's rule, from the other profiles'
 * fits (leave one profile out: 6 bf16 fits, 28,040 rows; 6 fp8 fits, 43,936
 * rows), then held_out: the median and p90 |ln| of those rows uncorrected,
 * then borrowed-corrected.  tools/moegemmcheck.py --borrow on the 12 fits,
 * non-decreasing (mg_fit), of 2026-12-05 07:08 UTC, branch fixIF
 * (docs/validation.md, "MoE correction non-decreasing"; before, stop 39:
 * bf16 -0.526, -0.411, 1.037, 1.408, borrowed |ln| 0.318 / 1.037). */
static const double MOE_GEMM_BORROWED[2][8] = {
    {-0.543, -0.441, 1.043, 1.395, 0.474, 1.551, 0.339, 1.043}, /* bfloat16 */
    {-1.291, -1.085, 1.275, 1.466, 0.598, 1.714, 0.676, 1.391}, /* fp8 */
};

/* Each GEMM variant v of s that has a GEMM table and whose MoE rows (a MoE
 * file was read) fitted no correction borrows one (engines.h
 * rl_moe_gemm_borrow) from the own fits of the engine profiles in the first
 * data folder holding hw_profiles/engines (spec.h rl_data_dirs), all but
 * h's own for this engine; its band MOE_GEMM_BORROWED.  A profile there
 * that does not load is an error (its file, field and reason). */
static int borrow_moe_gemm(rl_silicon *s, const rl_hw *h, char *err, size_t errlen)
{
    static const int VG[2] = {RL_KV_BF16, RL_KV_FP8};
    int want = 0;
    for (int g = 0; g < 2; g++)
        want |= s->pool[RL_KC_MOE] >= 0 && rl_engine_has(s->tables, RL_KC_GEMM, VG[g]) &&
                s->tables->moe_gemm[VG[g]].n == 0;
    char dirs[3][1024], path[1400];
    int nd = want ? rl_data_dirs(dirs) : 0, k = 0;
    struct dirent **de = NULL; /* by name: the donors named in a fixed order */
    int nde = -1;
    while (k < nd && nde < 0) {
        snprintf(path, sizeof path, "%.1023s/hw_profiles/engines", dirs[k++]);
        nde = scandir(path, &de, NULL, alphasort);
    }
    if (nde < 0)
        return 0;
    enum { MAXD = 64 };
    rl_engine_tables *got = calloc(MAXD, sizeof *got);
    char (*eng)[32] = calloc(MAXD, sizeof *eng), (*name)[96] = calloc(MAXD, sizeof *name);
    int n = 0, rc = got && eng && name ? 0 : -1;
    if (rc)
        snprintf(err, errlen, "%s: out of memory", path);
    for (int j = 0; rc == 0 && n < MAXD && j < nde; j++) {
        size_t len = strlen(de[j]->d_name);
        if (len < 5 || strcmp(de[j]->d_name + len - 4, ".lua"))
            continue;
        char file[1700];
        snprintf(file, sizeof file, "%s/%s", path, de[j]->d_name);
        /* read as the engine loader reads a profile (engines.c): sandboxed,
         * within the spec budgets, binary chunks refused */
        lua_State *L = rl_sandbox_new(&RL_SPEC_LIMITS);
        char why[2048];
        if (!L)
            snprintf(why, sizeof why, "%s: out of memory", file);
        if (!L || rl_sandbox_dospec(L, file, 1, why, sizeof why) != 0) {
            snprintf(err, errlen, "%s (read for the MoE-from-GEMM correction it may lend)", why);
            rc = -1;
        } else if (lua_istable(L, -1) && lua_getfield(L, -1, "engines") == LUA_TTABLE) {
            lua_getfield(L, -2, "base");
            char base[64];
            snprintf(base, sizeof base, "%s", lua_isstring(L, -1) ? lua_tostring(L, -1) : "?");
            lua_pop(L, 1);
            lua_pushnil(L);
            while (rc == 0 && n < MAXD && lua_next(L, -2) != 0) {
                const char *e = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "";
                int other = lua_istable(L, -1) && strcmp(e, "default") &&
                            !(!strcmp(base, h->name) && !strcmp(e, s->engine));
                if (other && lua_getfield(L, -1, "tables") != LUA_TTABLE)
                    lua_pop(L, 1);
                else if (other) {
                    if (lua_getfield(L, -1, "moe_from_gemm") == LUA_TTABLE) {
                        char field[128];
                        snprintf(field, sizeof field, "engines.%.40s.tables", e);
                        if (rl_moe_gemm_read(L, file, field, &got[n], err, errlen) != 0) {
                            rc = -1; /* the stack as it failed: L is closed below */
                            break;
                        }
                        snprintf(eng[n], sizeof eng[n], "%s", e);
                        snprintf(name[n++], sizeof name[0], "%.60s %.30s", base, e);
                    }
                    lua_pop(L, 2); /* moe_from_gemm and tables */
                }
                lua_pop(L, 1);
            }
        }
        rl_sandbox_close(L);
    }
    for (int j = 0; j < nde; j++)
        free(de[j]);
    free(de);
    for (int g = 0; g < 2 && rc == 0; g++) {
        int v = VG[g], m = 0;
        rl_moe_gemm_fix *f = &s->tables->moe_gemm[v];
        const rl_moe_gemm_fix *d[MAXD];
        const char *de[MAXD], *dn[MAXD];
        if (s->pool[RL_KC_MOE] < 0 || !rl_engine_has(s->tables, RL_KC_GEMM, v) || f->n > 0)
            continue;
        for (int i = 0; i < n; i++)
            if (got[i].moe_gemm[v].n > 0 && !got[i].moe_gemm[v].from[0]) { /* own fits only */
                d[m] = &got[i].moe_gemm[v];
                de[m] = eng[i];
                dn[m++] = name[i];
            }
        if (rl_moe_gemm_borrow(d, de, dn, m, s->engine, f) > 0) {
            memcpy(f->q, MOE_GEMM_BORROWED[g], sizeof f->q);
            memcpy(f->held_out, MOE_GEMM_BORROWED[g] + 4, sizeof f->held_out);
        }
    }
    free(got);
    free(eng);
    free(name);
    return rc;
}

static int import_class(const char *path, rl_kclass cls, const rl_hw *h, int holdout, int edge,
                        const rl_moe_keep *keep, rl_silicon *s, char *err, size_t errlen)
{
    rows r = {0};
    int rc = read_file(path, cls, s, &r, err, errlen);
    if (rc == 0)
        rc = group(path, &r, err, errlen);
    /* the MoE-from-GEMM bias, on every model shape (before the shapes kept) */
    if (rc == 0 && cls == RL_KC_MOE && edge < 0 && fit_moe_gemm(&r, h, holdout, s) != 0) {
        snprintf(err, errlen, "%s: out of memory", path);
        rc = -1;
    }
    for (size_t i = 0; rc == 0 && cls == RL_KC_MOE && i < r.n; i++)
        if (!kept_shape(keep, r.v[i].x + RL_KX_MOE))
            r.v[i].var = -1;
    if (rc == 0)
        rc = drop_below_floor(&r, cls, h, s, path, err, errlen);
    unsigned char *held = rc == 0 ? calloc(r.n + 1, 1) : NULL;
    if (rc == 0 && !held) {
        snprintf(err, errlen, "%s: out of memory", path);
        rc = -1;
    }
    size_t nth = 0, nheld = 0;
    if (rc == 0 && edge >= 0)
        hold_edge(&r, cls, edge, held);
    size_t *first = rc == 0 && edge < 0 && holdout >= 2 ? first_of_node(&r, cls) : NULL;
    if (rc == 0 && edge < 0 && holdout >= 2 && !first) {
        snprintf(err, errlen, "%s: out of memory", path);
        rc = -1;
    }
    for (size_t i = 0; rc == 0 && i < r.n; i++) {
        int counted = r.v[i].var >= 0 && edge < 0 && (!first || first[i] == i);
        nth += (size_t)counted;
        if (counted && holdout >= 2 && nth % (size_t)holdout == 0)
            held[i] = 1;
        else if (first && first[i] != i) /* the node's other rows go with its first */
            held[i] = held[first[i]];
        nheld += held[i];
    }
    free(first);
    if (edge < 0)
        s->pool[cls] = (long)nth;
    if (rc == 0 && nheld) {
        rl_silicon_row *v = realloc(s->held, (s->nheld + nheld) * sizeof *v);
        if (!v) {
            snprintf(err, errlen, "%s: out of memory", path);
            rc = -1;
        } else {
            s->held = v;
        }
    }
    for (size_t i = 0; rc == 0 && i < r.n; i++)
        if (held[i]) {
            rl_silicon_row *o = &s->held[s->nheld++];
            o->cls = cls;
            o->var = (rl_kvariant)r.v[i].var;
            memcpy(o->x, r.v[i].x, sizeof o->x);
            o->measured_s = r.v[i].lat_s;
        }
    int any = 0;
    for (int v = 0; rc == 0 && v < RL_KV_COUNT; v++) {
        err[0] = 0;
        if (rl_interrupted()) { /* building a variant's grid takes a while too */
            snprintf(err, errlen, "%s: interrupted (%s)", path, rl_interrupt_name());
            rc = -1;
        } else if (cls == RL_KC_MOE) {
            rc = build_moe(&r, held, (rl_kvariant)v, h, s, err, errlen);
        } else {
            int attn = cls == RL_KC_PREFILL_ATTN || cls == RL_KC_DECODE_ATTN;
            int split = attn ? one_split(&r, held, (rl_kvariant)v) : 0;
            if (split < 0) {
                snprintf(err, errlen, "%s: out of memory", path);
                rc = -1;
                break;
            }
            /* split: the rest's table here, one KV head or one sequence's below;
             * sms: XQA's here, MMHA's below (engines.h RL_TRTLLM_MMHA).
             * The MMHA table is built for the bf16 KV cache alone: the fp8-KV
             * tables time groups 2 to 16 at a few streams below group 1's MMHA
             * (H200, context 2, head_dim 128: 5.3-6.7 us at 1 to 16 streams
             * against 8.7-9.0 us), so XQA runs there whatever mayHavePerfGain
             * says, by a dispatch whose source we did not find; with the rule
             * H200 TensorRT-LLM fp8-KV decode read p90 13.1% -> 15.0% held back
             * (stop 45, docs/validation.md). */
            double sms = cls == RL_KC_DECODE_ATTN && v == RL_KV_BF16 ? trtllm_sms(s) : 0;
            rl_ktable *t = build(&r, held, cls, (rl_kvariant)v, NULL, split ? 0 : -1,
                                 sms > 0 ? 0 : -1, sms, s->engine, h, &s->configs[cls][v],
                                 &s->filled[cls][v], err, errlen);
            if (!t && err[0])
                rc = -1;
            s->tables->t[cls][v] = t;
            rl_ktable *o = rc == 0 && t && split
                               ? build(&r, held, cls, (rl_kvariant)v, NULL, 1, sms > 0 ? 0 : -1,
                                       sms, s->engine, h, &s->configs[cls][v],
                                       &s->filled[cls][v], err, errlen)
                               : NULL;
            if (!o && err[0])
                rc = -1;
            s->tables->one[cls][v] = o;
            rl_ktable *m = rc == 0 && t && sms > 0
                               ? build(&r, held, cls, (rl_kvariant)v, NULL, -1, 1, sms,
                                       s->engine, h, &s->configs[cls][v], &s->filled[cls][v],
                                       err, errlen)
                               : NULL;
            if (!m && err[0])
                rc = -1;
            if (m) { /* decode attention's alone */
                s->tables->mmha[v] = m;
                s->tables->sms = sms;
            }
        }
        any |= rl_engine_has(s->tables, cls, v);
    }
    if (rc == 0 && !any && cls != RL_KC_MOE && edge < 0) {
        snprintf(err, errlen, "%s: no row of an imported dtype variant (%s)", path,
                 cls == RL_KC_GEMM ? "bfloat16, fp8, fp8_block, int8_wo, int4_wo, sq, nvfp4 or float32"
                 : is_mla(cls)     ? "mla_dtype bfloat16 with a bfloat16 or fp8 KV cache"
                                   : "attention in bfloat16 with a bfloat16 or fp8 KV cache, or "
                                     "all in float32; window 0");
        rc = -1;
    }
    free(held);
    rows_free(&r);
    return rc;
}

/* rl_silicon_import, or with edge >= 0 the classes with an axis edge / 2,
 * each holding back its rows at that axis's end (hold_edge). */
static int import_held(const char *dir, const char *engine, const rl_hw *h, int holdout, int edge,
                       const rl_moe_keep *keep, rl_silicon *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    snprintf(out->engine, sizeof out->engine, "%s", engine);
    out->tables = calloc(1, sizeof *out->tables);
    if (!out->tables)
        RL_FAIL("out of memory");
    int found = 0;
    for (int c = 0; c < RL_KC_COUNT; c++)
        out->pool[c] = -1;
    for (int c = 0; c < RL_KC_COUNT; c++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s/%s", dir, engine, FILES[c].file);
        /* present: read_file refuses a FIFO or a directory without opening it blocking */
        if ((edge >= 0 && edge / 2 >= naxes_of((rl_kclass)c)) || access(path, F_OK) != 0)
            continue;
        found++;
        if (import_class(path, (rl_kclass)c, h, holdout, edge, keep, out, err, errlen) != 0) {
            rl_silicon_free(out);
            return -1;
        }
    }
    if (!found && edge < 0) { /* an edge hold-out may find no class with the axis */
        rl_silicon_free(out);
        char sub[1024];
        struct stat st;
        snprintf(sub, sizeof sub, "%s/%s", dir, engine);
        if (stat(sub, &st) != 0 || !S_ISDIR(st.st_mode)) /* tester10 #10 */
            RL_FAIL("%s: no such folder (--tables DIR holds a folder per engine: %s/%s)",
                    stat(dir, &st) != 0 ? dir : sub, dir, engine);
        RL_FAIL("%s/%s: no kernel tables (%s, %s or %s)", dir, engine, FILES[0].file, FILES[1].file,
                FILES[2].file);
    }
    return 0;
}

int rl_silicon_import(const char *dir, const char *engine, const rl_hw *h, int holdout,
                      const rl_moe_keep *keep, rl_silicon *out, char *err, size_t errlen)
{
    return import_held(dir, engine, h, holdout, -1, keep, out, err, errlen);
}

/* Append (r, d) to the growing arrays of *v (2 doubles per item). */
static int push_pair(double **v, size_t *n, size_t *cap, double r, double d)
{
    if (*n == *cap) {
        size_t c = *cap ? 2 * *cap : 256;
        double *p = realloc(*v, 2 * c * sizeof *p);
        if (!p)
            return -1;
        *v = p;
        *cap = c;
    }
    (*v)[2 * *n] = r;
    (*v)[2 * (*n)++ + 1] = d;
    return 0;
}

/* s's tables as the engine they were imported for, named. */
static rl_serving_engine engine_of(const rl_silicon *s)
{
    rl_serving_engine e = {.tables = s->tables};
    snprintf(e.name, sizeof e.name, "%s", s->engine);
    return e;
}

/* Each held-back row of s above its table's grid along axis a, where the
 * table kept two or more values of a, into out[class] as (log(measured /
 * table time), octaves above). */
static int edge_rows(const rl_silicon *s, const rl_hw *h, int a, double **out, size_t *n,
                     size_t *cap)
{
    const rl_serving_engine eng = engine_of(s);
    for (size_t i = 0; i < s->nheld; i++) {
        const rl_silicon_row *row = &s->held[i];
        const rl_ktable *t = rl_engine_table(s->tables, row->cls, row->var, row->x);
        if (!t || a >= t->naxes || t->len[a] < 2)
            continue; /* one value left: no slope along a to extrapolate */
        double p = rl_engine_time(&eng, row->cls, row->var, row->x,
                                  rl_kvariant_peak(h->flops, row->var), h->hbm_bw, NULL);
        double d[RL_KRESIDUAL_AXES];
        rl_engine_outside(&eng, row->cls, row->var, row->x, d);
        if (p > 0 && d[a] > 0 &&
            push_pair(&out[row->cls], &n[row->cls], &cap[row->cls], log(row->measured_s / p),
                      d[a]))
            return -1;
    }
    return 0;
}

/* Tune axis a of k on its n hold-out rows v[2 n] (r, d): w beyond k's
 * quantiles (rl_ec_widening), seen the farthest d; untouched below
 * RL_KRESIDUAL_MIN_EDGE rows.  0, or -1 out of memory. */
static int tune_axis(rl_kresidual *k, int a, const double *v, size_t n)
{
    if (n < RL_KRESIDUAL_MIN_EDGE)
        return 0;
    double *r = malloc(3 * n * sizeof *r), *d = r + n;
    if (!r)
        return -1;
    k->seen[a] = 0;
    for (size_t i = 0; i < n; i++) {
        r[i] = v[2 * i];
        d[i] = v[2 * i + 1];
        k->seen[a] = fmax(k->seen[a], d[i]);
    }
    k->w[a][0] = rl_ec_widening(r, d, (int)n, k->q[1], k->q[2], 0.8, d + n);
    k->w[a][1] = fmax(k->w[a][0], rl_ec_widening(r, d, (int)n, k->q[0], k->q[3], 0.9, d + n));
    k->wn[a] = (long)n;
    free(r);
    return 0;
}

int rl_silicon_widening(const char *dir, const char *engine, const rl_hw *h,
                        const rl_moe_keep *keep, rl_kresidual *resid, char *err, size_t errlen)
{
    int rc = 0;
    for (int c = 0; c < RL_KC_COUNT; c++)
        memset(resid[c].wn, 0, sizeof resid[c].wn);
    for (int a = 0; a < RL_KRESIDUAL_AXES && rc == 0; a++) {
        double *v[RL_KC_COUNT] = {0};
        size_t n[RL_KC_COUNT] = {0}, cap[RL_KC_COUNT] = {0};
        rl_silicon s;
        if ((rc = import_held(dir, engine, h, 0, 2 * a + 1, keep, &s, err, errlen)) != 0)
            break;
        rc = edge_rows(&s, h, a, v, n, cap);
        rl_silicon_free(&s);
        for (int c = 0; c < RL_KC_COUNT && rc == 0; c++)
            if (resid[c].n > 0)
                rc = tune_axis(&resid[c], a, v[c], n[c]);
        for (int c = 0; c < RL_KC_COUNT; c++)
            free(v[c]);
        if (rc != 0)
            snprintf(err, errlen, "out of memory");
    }
    return rc;
}

/* o[key] = v, or null when `withheld`. */
static void put_or_null(cJSON *o, const char *key, int withheld, double v)
{
    if (withheld)
        cJSON_AddNullToObject(o, key);
    else
        cJSON_AddNumberToObject(o, key, v);
}

cJSON *rl_silicon_widening_json(const rl_kresidual *resid)
{
    cJSON *arr = cJSON_CreateArray();
    for (int c = 0; c < RL_KC_COUNT; c++)
        for (int a = 0; a < RL_KRESIDUAL_AXES && resid[c].n > 0; a++) {
            const rl_kresidual *k = &resid[c];
            if (a >= naxes_of((rl_kclass)c))
                break;
            cJSON *g = cJSON_CreateObject();
            cJSON_AddStringToObject(g, "class", rl_kclass_name((rl_kclass)c));
            cJSON_AddStringToObject(g, "axis", rl_kclass_axes((rl_kclass)c)[a]);
            int few = k->n < RL_KRESIDUAL_MIN_BAND; /* extremes, not quantiles: withheld */
            put_or_null(g, "p10", few, k->q[1]);
            put_or_null(g, "p90", few, k->q[2]);
            cJSON_AddNumberToObject(g, "held_above", (double)k->wn[a]);
            put_or_null(g, "per_octave_p10_p90", few, k->wn[a] ? k->w[a][0] : 0);
            put_or_null(g, "per_octave_p5_p95", few, k->wn[a] ? k->w[a][1] : 0);
            put_or_null(g, "up_to_octaves", few, k->wn[a] ? k->seen[a] : 0);
            cJSON_AddItemToArray(arr, g);
        }
    return arr;
}

/* ---- writing ------------------------------------------------------------------- */

/* The engine's memory block (engines.h), for the engines whose allocation
 * rule is sourced (rl_engine_memory_default); nothing for others. */
static void put_memory(FILE *f, const char *engine, const rl_hw *h)
{
    rl_engine_memory m;
    lua_State *L =
        rl_engine_memory_default(engine, h->name, h->hbm_bytes, &m) == 0 ? luaL_newstate() : NULL;
    if (!L)
        return;
    rl_engine_memory_push(L, &m);
    fputs("      memory = ", f);
    rl_spec_put_value(f, L, 6);
    fputs(",\n", f);
    lua_close(L);
}

/* The MoE-from-GEMM bias (engines.h rl_moe_gemm_fix) at indent 8, when fitted. */
static void put_moe_gemm(FILE *f, const rl_engine_tables *t)
{
    int any = 0;
    for (int v = 0; v < RL_KV_COUNT; v++)
        any |= t->moe_gemm[v].n > 0;
    if (!any)
        return;
    fputs("        -- MoE experts of a shape no moe table holds are timed from the gemm table\n"
          "        -- (src/ops.c), times exp(ln_ratio) at their rows per touched expert:\n"
          "        -- median ln(measured fused MoE / GEMM-timed) of this file's MoE rows\n"
          "        -- (every model shape); p5-p95 and held_out (median, p90 |ln| uncorrected,\n"
          "        -- corrected) with each model shape's rows held out of the fit in turn.\n"
          "        -- borrowed_from: none of this file's MoE rows fit it; at each node the\n"
          "        -- median of those profiles' fits, its band and held_out measured with\n"
          "        -- each fitted profile's correction borrowed from the others in turn\n"
          "        -- (src/engines.h rl_moe_gemm_fix)\n"
          "        moe_from_gemm = {\n", f);
    for (int v = 0; v < RL_KV_COUNT; v++) {
        const rl_moe_gemm_fix *x = &t->moe_gemm[v];
        if (x->n == 0)
            continue;
        if (x->from[0])
            fprintf(f, "          %s = { borrowed_from = \"%s\",\n            rows_per_expert = {",
                    rl_kvariant_name((rl_kvariant)v), x->from);
        else
            fprintf(f, "          %s = { fitted_rows = %ld, fitted_shapes = %ld,\n            "
                    "rows_per_expert = {", rl_kvariant_name((rl_kvariant)v), x->rows, x->shapes);
        for (int i = 0; i < x->n; i++)
            fprintf(f, "%s%.6g", i ? ", " : " ", x->me[i]);
        fputs(" },\n            ln_ratio = {", f);
        for (int i = 0; i < x->n; i++)
            fprintf(f, "%s%.6g", i ? ", " : " ", x->ln[i]);
        fprintf(f, " },\n            p5 = %.6g, p10 = %.6g, p90 = %.6g, p95 = %.6g,\n"
                "            held_out = { %.6g, %.6g, %.6g, %.6g } },\n", x->q[0], x->q[1],
                x->q[2], x->q[3], x->held_out[0], x->held_out[1], x->held_out[2],
                x->held_out[3]);
    }
    fputs("        },\n", f);
}

/* A variant's MoE shapes (engines.h) at indent 10. */
static void put_moe(FILE *f, const rl_moe_tables *m)
{
    fputs("{\n", f);
    for (int i = 0; i < m->n; i++) {
        fprintf(f, "            { hidden = %.0f, inter = %.0f, topk = %.0f, experts = %.0f,\n"
                   "              table = ", m->shape[i][0], m->shape[i][1], m->shape[i][2],
                m->shape[i][3]);
        rl_kt_write(f, m->t[i], 14);
        fputs(" },\n", f);
    }
    fputs("          }", f);
}

/* decode_attention_mmha = { sms = N, VARIANT = <ktable>, ... } where the
 * import built TensorRT-LLM's MMHA tables (engines.h RL_TRTLLM_MMHA). */
static void put_mmha(FILE *f, const rl_engine_tables *t)
{
    int any = 0;
    for (int v = 0; v < RL_KV_COUNT; v++) {
        if (!t->mmha[v])
            continue;
        if (!any++)
            fprintf(f, "        -- TensorRT-LLM's masked MHA side of decode attention, over "
                       "(sequence, query head) pairs (engines.h RL_TRTLLM_MMHA)\n"
                       "        %s_mmha = {\n          sms = %.15g,\n",
                    rl_kclass_name(RL_KC_DECODE_ATTN), t->sms);
        fprintf(f, "          %s = ", rl_kvariant_name((rl_kvariant)v));
        rl_kt_write(f, t->mmha[v], 10);
        fputs(",\n", f);
    }
    if (any)
        fputs("        },\n", f);
}

/* CLASS_one = { VARIANT = <ktable>, ... } where class c has tables of the
 * one-KV-head-or-one-sequence split (engines.h RL_KX_ONE). */
static void put_one(FILE *f, const rl_engine_tables *t, rl_kclass c)
{
    int any = 0;
    for (int v = 0; v < RL_KV_COUNT; v++) {
        if (!t->one[c][v])
            continue;
        if (!any++)
            fprintf(f, "        -- the configurations of one KV head or one sequence per chip, "
                       "timed apart (engines.h RL_KX_ONE)\n        %s_one = {\n",
                    rl_kclass_name(c));
        fprintf(f, "          %s = ", rl_kvariant_name((rl_kvariant)v));
        rl_kt_write(f, t->one[c][v], 10);
        fputs(",\n", f);
    }
    if (any)
        fputs("        },\n", f);
}

static void put_engine(FILE *f, const rl_silicon *s, const rl_hw *h, const char *engine,
                       const char *date)
{
    fprintf(f, "  engines = {\n    default = ");
    rl_spec_put_string(f, engine);
    fputs(",\n    ", f);
    rl_spec_put_key(f, engine);
    fputs(" = {\n      version = ", f);
    rl_spec_put_string(f, s->version);
    fputs(",\n      source = ", f);
    char src[1024];
    if (s->device[0])
        snprintf(src, sizeof src, "%s; device '%s'; fastest kernel per shape; imported by roofline "
                 "calibrate --tables", s->source[0] ? s->source : "unknown", s->device);
    else /* --device-unchecked (silicon.h): on no chip we know, so estimated */
        snprintf(src, sizeof src, "%s; " RL_DEVICE_UNCHECKED "; fastest kernel per shape; imported "
                 "by roofline calibrate --tables --device-unchecked",
                 s->source[0] ? s->source : "unknown");
    rl_spec_put_string(f, src);
    fputs(",\n      measured_on = ", f);
    rl_spec_put_string(f, s->device[0] ? h->name : RL_DEVICE_UNCHECKED);
    if (s->device[0]) { /* the figures of the chip measured (engines.h at_bw) */
        fprintf(f, ",\n      measured_at = { hbm_bw = %.15g, flops = {", h->hbm_bw);
        for (int t = 0; t < RL_DTYPE_COUNT; t++)
            if (h->flops[t] > 0)
                fprintf(f, " %s = %.15g,", rl_dtype_name((rl_dtype)t), h->flops[t]);
        fputs(" } }", f);
    }
    fputs(",\n      date = ", f);
    rl_spec_put_string(f, date);
    rl_engine_cost_default ec = s->costs ? *s->costs : rl_engine_costs_default(engine);
    fprintf(f, ",\n      costs = {\n        step_s = %.15g, seq_s = %.15g, launch_s = %.15g, "
            "prefill_layer_s = %.15g,\n        source = ", ec.step_s, ec.seq_s, ec.launch_s,
            ec.prefill_layer_s);
    rl_spec_put_string(f, ec.source);
    /* the reference engine's rule (engines.h attn_longest): calibrate
     * --backend's, else by its decode attention rows' kernel_source (the
     * trtllm and vllm files keep the default, mean, unwritten) */
    if (s->costs || !strcmp(engine, RL_ENGINE_REFERENCE))
        fprintf(f, ",\n        attention_context = \"%s\"",
                (s->costs ? ec.attn_longest : s->attn_longest) ? "longest" : "mean");
    fputs(",\n      },\n", f);
    put_memory(f, engine, h);
    fputs("      tables = {\n", f);
    for (int c = 0; c < RL_KC_COUNT; c++) {
        int any = 0;
        for (int v = 0; v < RL_KV_COUNT; v++)
            any |= rl_engine_has(s->tables, (rl_kclass)c, v);
        if (!any)
            continue;
        fprintf(f, "        %s = {\n", rl_kclass_name((rl_kclass)c));
        if (c == RL_KC_MOE)
            fputs("          -- routing " MOE_ROUTING "; one grid per model shape\n", f);
        for (int v = 0; v < RL_KV_COUNT; v++) {
            if (!rl_engine_has(s->tables, (rl_kclass)c, v))
                continue;
            fprintf(f, "          -- %ld configurations, %ld grid nodes filled", s->configs[c][v],
                    s->filled[c][v]);
            if (s->below[c][v]) /* the floor rule (engines.h rl_engine_time) */
                fprintf(f, "; %ld configurations left out, faster than their roofline at this "
                        "chip's datasheet figures", s->below[c][v]);
            fputc('\n', f);
            fprintf(f, "          %s = ", rl_kvariant_name((rl_kvariant)v));
            if (c == RL_KC_MOE)
                put_moe(f, &s->tables->moe[v]);
            else
                rl_kt_write(f, s->tables->t[c][v], 10);
            fputs(",\n", f);
        }
        fputs("        },\n", f);
        put_one(f, s->tables, (rl_kclass)c);
        if (c == RL_KC_DECODE_ATTN)
            put_mmha(f, s->tables);
    }
    put_moe_gemm(f, s->tables);
    fputs("      },\n", f);
    rl_engine_put_residuals(f, s->resid, s->resid_holdout, 6);
    fputs("    },\n  },\n", f);
}

/* The fields --set changed (their top-level names, once each) from h, so the
 * profile reads back as the spec it was fitted against. */
static void put_overrides(FILE *f, const rl_hw *h, const rl_override *ov, int nov)
{
    lua_State *L = luaL_newstate();
    if (!L)
        return;
    rl_hw_push(L, h);
    lua_newtable(L); /* the fields to write */
    for (int i = 0; i < nov; i++) {
        char top[256];
        snprintf(top, sizeof top, "%.*s", (int)strcspn(ov[i].field, "."), ov[i].field);
        if (strcmp(top, "engines") == 0 || strcmp(top, "base") == 0)
            continue;
        lua_getfield(L, -2, top);
        lua_setfield(L, -2, top);
    }
    rl_spec_put_fields(f, L, 2);
    lua_close(L);
}

/* The `base` a profile saved at `path` names for base file `abs` (a real
 * path): relative to the profile's folder when it lies inside it (calibrate
 * --backend's base.lua in its tables folder: the two travel together, and
 * spec.c resolve_base reads a relative base from the naming file's
 * folder), else `abs` itself, as a profile may be saved anywhere. */
static const char *base_ref(const char *abs, const char *path, char *out, size_t len)
{
    char dir[PATH_MAX], real[PATH_MAX];
    const char *slash = strrchr(path, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    size_t n = realpath(dir[0] ? dir : "/", real) ? strlen(real) : 0;
    if (n > 1 && strncmp(abs, real, n) == 0 && abs[n] == '/') {
        snprintf(out, len, "%s", abs + n + 1);
        return out;
    }
    return abs;
}

int rl_silicon_save(const rl_silicon *s, const rl_hw *h, const char *base, const rl_override *ov,
                    int nov, const char *engine, const char *dir, const char *date,
                    const char *by, const char *path, char *err, size_t errlen)
{
    char *buf = NULL, abs[PATH_MAX], rel[PATH_MAX];
    size_t len = 0;
    /* a path is written absolute in the header, and as `base` unless it lies
     * in the profile's folder (base_ref) */
    const char *ref = base;
    if (rl_spec_is_path(base) && realpath(base, abs)) {
        base = abs;
        ref = base_ref(abs, path, rel, sizeof rel);
    }
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        RL_FAIL("%s: out of memory", path);
    char cmd[3 * PATH_MAX];
    snprintf(cmd, sizeof cmd, "`roofline calibrate --tables %s --hw %s --engine %s%s`", dir, base,
             engine, s->device[0] ? "" : " --device-unchecked");
    char written[sizeof cmd + 256], device[sizeof s->device + 16];
    snprintf(device, sizeof device, s->device[0] ? "device '%s'" : RL_DEVICE_UNCHECKED, s->device);
    if (by)
        snprintf(written, sizeof written, "%s (as %s would)", by, cmd);
    fprintf(f, "-- Engine profile: the %s kernel tables of %s for %s.\n"
               "-- Written by %s on %s.\n"
               "-- Kernel tables: %s, engine version %s,\n"
               "-- %s.  Every other hardware field comes from `base` (see its sources;\n"
               "-- src/spec.h: a spec naming a base).\n"
               "-- Fit (src/silicon.h): fastest kernel per configuration; gemm grid m = each\n"
               "-- value measured (at most 32), else 2^i, 3 * 2^i and one more; prefill and\n"
               "-- decode attention by streams (batch x KV\n"
               "-- heads) and group (heads / KV heads); MoE per model shape over tokens, 1/tp\n"
               "-- and 1/ep, routing " MOE_ROUTING "; MLA (DeepSeek-V3's dimensions) over\n"
               "-- batch, prompt or context, and heads per GPU; ln latencies fitted\n"
               "-- non-decreasing along tokens, batch and lengths by isotonic regression\n"
               "-- (pool adjacent violators), then unmeasured nodes filled in log-log between\n"
               "-- measured ones on both sides along an axis, else from the nearest measured\n"
               "-- ones along the roofline, and the fit run again (src/ktable.h).\n",
            engine, dir, base, by ? written : cmd, date, s->source, s->version, device);
    fputs("return {\n  base = ", f);
    rl_spec_put_string(f, ref);
    fputs(",\n", f);
    put_overrides(f, h, ov, nov);
    put_engine(f, s, h, engine, date);
    fputs("}\n", f);
    fclose(f);
    int rc = rl_write_atomic(path, buf, len, err, errlen);
    free(buf);
    return rc;
}

/* ---- summary and validation -------------------------------------------------- */

int rl_silicon_residuals(rl_silicon *to, const rl_silicon *from, const rl_hw *h, int holdout,
                         char *err, size_t errlen)
{
    double *r = malloc((from->nheld + 1) * sizeof *r);
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    memset(to->resid, 0, sizeof to->resid);
    to->resid_holdout = holdout;
    const rl_serving_engine eng = engine_of(from);
    for (int c = 0; c < RL_KC_COUNT; c++) {
        int n = 0;
        for (size_t i = 0; i < from->nheld; i++) {
            const rl_silicon_row *row = &from->held[i];
            if (row->cls != (rl_kclass)c)
                continue;
            double t = rl_engine_time(&eng, row->cls, row->var, row->x, rl_kvariant_peak(h->flops, row->var),
                                      h->hbm_bw, NULL);
            if (t > 0)
                r[n++] = log(row->measured_s / t);
        }
        to->resid[c].n = n;
        for (int q = 0; n > 0 && q < 4; q++)
            to->resid[c].q[q] = rl_fit_bound(r, n, RL_KRESIDUAL_P[q]);
    }
    free(r);
    return 0;
}

cJSON *rl_silicon_summary(const rl_silicon *s)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "engine_version", s->version);
    cJSON_AddStringToObject(j, "device", s->device);
    cJSON_AddStringToObject(j, "source", s->source);
    cJSON *t = cJSON_AddArrayToObject(j, "tables");
    for (int c = 0; c < RL_KC_COUNT; c++)
        for (int v = 0; v < RL_KV_COUNT; v++) {
            if (!rl_engine_has(s->tables, (rl_kclass)c, v))
                continue;
            const rl_moe_tables *m = &s->tables->moe[v];
            size_t nodes = c == RL_KC_MOE ? 0 : s->tables->t[c][v]->n;
            if (c != RL_KC_MOE && s->tables->one[c][v])
                nodes += s->tables->one[c][v]->n;
            if (c == RL_KC_DECODE_ATTN && s->tables->mmha[v])
                nodes += s->tables->mmha[v]->n;
            for (int i = 0; c == RL_KC_MOE && i < m->n; i++)
                nodes += m->t[i]->n;
            cJSON *r = cJSON_CreateObject();
            cJSON_AddStringToObject(r, "class", rl_kclass_name((rl_kclass)c));
            cJSON_AddStringToObject(r, "dtype", rl_kvariant_name((rl_kvariant)v));
            cJSON_AddNumberToObject(r, "configurations", (double)s->configs[c][v]);
            if (c == RL_KC_MOE)
                cJSON_AddNumberToObject(r, "shapes", m->n);
            cJSON_AddNumberToObject(r, "nodes", (double)nodes);
            cJSON_AddNumberToObject(r, "filled", (double)s->filled[c][v]);
            cJSON_AddNumberToObject(r, "below_floor", (double)s->below[c][v]);
            cJSON_AddItemToArray(t, r);
        }
    return j;
}

/* q-quantile (0..1) of sorted v[n] by the nearest rank. */
static double quantile(const double *v, size_t n, double q)
{
    size_t i = (size_t)ceil(q * (double)n);
    return v[i > 0 ? i - 1 : 0];
}

cJSON *rl_silicon_validate(const rl_silicon *s, const rl_hw *h, const char *plot,
                           int *plot_failed, char *err, size_t errlen)
{
    size_t drawn = 0; /* rows in the figure's data */
    *plot_failed = 0;
    cJSON *j = cJSON_CreateObject(), *groups = cJSON_AddArrayToObject(j, "operators");
    double *e = malloc((s->nheld + 1) * sizeof *e);
    char *dat = NULL;
    size_t datlen = 0;
    FILE *df = open_memstream(&dat, &datlen);
    if (!e || !df) {
        free(e);
        if (df)
            fclose(df);
        free(dat);
        cJSON_Delete(j);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    fprintf(df, "# class dtype measured_s predicted_s x0..x%d (held-back configurations; x: the "
            "shape, rl_kclass_axes order, MoE's model shape from x%d)\n", RL_KSHAPE - 1, RL_KX_MOE);
    const rl_serving_engine eng = engine_of(s);
    for (int c = 0; c < RL_KC_COUNT; c++)
        for (int v = 0; v < RL_KV_COUNT; v++) {
            size_t n = 0, prov[RL_PROV_COUNT] = {0};
            for (size_t i = 0; i < s->nheld; i++) {
                const rl_silicon_row *r = &s->held[i];
                if (r->cls != (rl_kclass)c || r->var != (rl_kvariant)v)
                    continue;
                rl_provenance p;
                double pred = rl_engine_time(&eng, r->cls, v, r->x, rl_kvariant_peak(h->flops, r->var), h->hbm_bw, &p);
                if (pred <= 0)
                    continue;
                prov[p]++;
                e[n++] = fabs(pred / r->measured_s - 1.0);
                drawn++;
                fprintf(df, "%d %d %.6g %.6g", c, v, r->measured_s, pred);
                for (int a = 0; a < RL_KSHAPE; a++)
                    fprintf(df, " %.6g", r->x[a]);
                fputc('\n', df);
            }
            if (n == 0)
                continue;
            qsort(e, n, sizeof *e, rl_cmp_double);
            cJSON *g = cJSON_CreateObject();
            cJSON_AddStringToObject(g, "class", rl_kclass_name((rl_kclass)c));
            cJSON_AddStringToObject(g, "dtype", rl_kvariant_name((rl_kvariant)v));
            cJSON_AddNumberToObject(g, "held_back", (double)n);
            cJSON_AddNumberToObject(g, "median_abs_error", quantile(e, n, 0.5));
            cJSON_AddNumberToObject(g, "p90_abs_error", quantile(e, n, 0.9));
            cJSON_AddNumberToObject(g, "max_abs_error", e[n - 1]);
            cJSON_AddNumberToObject(g, "below_floor", (double)s->below[c][v]);
            for (int p = RL_PROV_MEASURED; p <= RL_PROV_EXTRAPOLATED; p++)
                cJSON_AddNumberToObject(g, rl_provenance_name((rl_provenance)p), (double)prov[p]);
            cJSON_AddItemToArray(groups, g);
        }
    fclose(df);
    free(e);
    if (plot && drawn == 0) { /* log axes over no point: gnuplot would refuse them */
        snprintf(err, errlen, "no held-back configuration was predicted: %s not drawn", plot);
        cJSON_AddStringToObject(j, "plot_note", err);
    } else if (plot) {
        char title[512]; /* names from files: quoted by plot.c */
        snprintf(title, sizeof title, "held-back kernel latencies: %s, engine version %s", h->name,
                 s->version);
        int rc = rl_plot_render_titled(AT_FDCWD, "kernel_accuracy.gp", plot, title, dat, err,
                                       errlen);
        /* a failed figure keeps the result (fixRC #9: a gnuplot error left
         * validate's report unprinted): said in plot_note, the caller exits 1 */
        *plot_failed = rl_plot_outcome(j, plot, rc, err);
    }
    free(dat);
    return j;
}

/* The engine a "# framework: " header line names, as --engine spells it:
 * its letters and digits in lower case ("vLLM" -> vllm), then the known
 * full names mapped: AIConfigurator's tables write TRTLLM, VLLM or vLLM
 * (every file of ../shared/data/silicon/<gpu>/{trtllm,vllm}), TensorRT-LLM
 * is the first's full name, and `calibrate --backend` writes "roofline
 * reference engine" (calib/calibrate.c put_table) into a folder it reads
 * as engine reference. */
static void framework_engine(const char *framework, char *engine, size_t n)
{
    static const char *const FULL[][2] = {{"tensorrtllm", "trtllm"},
                                          {"rooflinereferenceengine", RL_ENGINE_REFERENCE}};
    size_t k = 0;
    for (const char *p = framework; *p && k + 1 < n; p++)
        if (isalnum((unsigned char)*p))
            engine[k++] = (char)tolower((unsigned char)*p);
    engine[k] = 0;
    for (size_t i = 0; i < sizeof FULL / sizeof *FULL; i++)
        if (!strcmp(engine, FULL[i][0]))
            snprintf(engine, n, "%s", FULL[i][1]);
}

/* The device dir/engine's files name in their "# device: " header line
 * into device; every file present must name one, and the same one: else -1
 * with err naming the file, unless `unchecked` (--device-unchecked), which
 * lets a file without the line pass and then gives "" (tester18 F3: an
 * A100 attention file without the line among H100 files was imported as
 * measured on the H100 its siblings name). */
static int tables_device(const char *dir, const char *engine, int unchecked, char *device,
                         size_t n, char *err, size_t errlen)
{
    static rl_silicon s; /* only its header fields are read */
    int unnamed = 0;
    device[0] = 0;
    for (int c = 0; c < RL_KC_COUNT; c++) {
        char path[1024], e[1200];
        snprintf(path, sizeof path, "%s/%s/%s", dir, engine, FILES[c].file);
        memset(&s, 0, sizeof s);
        csv f = {.path = path, .gz = rl_gzopen_input(path, "a kernel table", e, sizeof e)};
        if (!f.gz && errno == ENOENT)
            continue;
        if (!f.gz) /* an empty or plain-text table is said here too (tester52 F13) */
            RL_FAIL("%s", e);
        /* the comments up to the header line */
        int rc = csv_next(&f, &s, e, sizeof e);
        gzclose(f.gz);
        if (rc < 0) /* a truncated or corrupt stream said as one, not as a missing device line
                     * (tester19 F6) */
            RL_FAIL("%s", e);
        char named[sizeof s.framework];
        framework_engine(s.framework, named, sizeof named);
        if (named[0] && strcmp(named, engine)) /* tester18 F7: none names --engine's */
            RL_FAIL("%s: '# framework: %s' is engine %s, not %s: the tables of the folder's "
                    "engine only", path, s.framework, named, engine);
        if (!s.device[0] && !unchecked)
            RL_FAIL("%s: no '# device:' line: cannot check the chip the table was measured on "
                    "against --hw (give --device-unchecked to import it as an estimate)", path);
        if (s.device[0] && device[0] && strcmp(s.device, device))
            RL_FAIL("%s: device '%s', another file of %s/%s names '%s': the tables of one chip "
                    "only", path, s.device, dir, engine, device);
        if (!device[0])
            snprintf(device, n, "%s", s.device);
        unnamed |= !s.device[0];
    }
    if (unnamed)
        device[0] = 0;
    return 0;
}

/* Whether one of h's engines (each selected in turn, which reads its file)
 * was imported from tables of `device` (its source's "device '...'", as
 * put_engine writes it): 1 when one was, 0 when none was, -1 when h names
 * no device at all.  *engine gets the name of the first engine naming one. */
static int hw_names_device(rl_hw *h, const char *device, char *engine, size_t n)
{
    int any = 0;
    /* a what-if's tables are of the chip as measured, not of h (h100-pcie's
     * are h100-sxm's since stop 27): it names no device of its own, so the
     * preset scan names the chip they were measured on */
    if (rl_hw_what_if_of(h))
        return -1;
    for (int i = 0; i < h->engines.n; i++) {
        char err[256], name[sizeof h->engines.e[i].name];
        snprintf(name, sizeof name, "%s", h->engines.e[i].name);
        if (rl_hw_select_engine(h, name, err, sizeof err) != 0)
            continue;
        const char *at = strstr(rl_engines_selected(&h->engines)->source, "device '");
        if (!at)
            continue;
        if (!any++)
            snprintf(engine, n, "%s", name);
        at += strlen("device '");
        const char *end = strchr(at, '\'');
        if (end && (size_t)(end - at) == strlen(device) && !strncmp(at, device, strlen(device))) {
            snprintf(engine, n, "%s", name);
            return 1;
        }
    }
    return any ? 0 : -1;
}

int rl_silicon_check_device(const char *dir, const char *engine, const char *hw,
                            const rl_override *ov, int nov, int unchecked, char *device, size_t n,
                            char *err, size_t errlen)
{
    char eng[32] = "", e[1024];
    if (tables_device(dir, engine, unchecked, device, n, err, errlen) != 0)
        return -1;
    rl_hw *h = device[0] ? malloc(sizeof *h) : NULL;
    if (!h) /* no device named (--device-unchecked; or no memory): nothing to compare */
        return 0;
    int named = rl_hw_load(hw, ov, nov, h, e, sizeof e) == 0 ? hw_names_device(h, device, eng,
                                                                                sizeof eng) : 1;
    if (named == 0)
        snprintf(err, errlen, "%s/%s: the tables were measured on device '%s', but --hw %s is "
                 "another chip (its %s tables name another device): calibrate each chip from "
                 "its own tables", dir, engine, device, hw, eng);
    char names[RL_MAX_PRESETS][64];
    int np = named < 0 ? rl_spec_presets("hw_profiles", names, RL_MAX_PRESETS) : 0;
    for (int i = 0; i < np && named < 0; i++) /* --hw names no device: is it a preset's? */
        if (rl_hw_load(names[i], NULL, 0, h, e, sizeof e) == 0 &&
            hw_names_device(h, device, eng, sizeof eng) == 1) {
            snprintf(err, errlen, "%s/%s: the tables were measured on device '%s', the chip of "
                     "preset %s (its %s tables), not --hw %s: calibrate each chip from its own "
                     "tables", dir, engine, device, names[i], eng, hw);
            named = 0;
        }
    free(h);
    return named == 0 ? -1 : 0;
}

int rl_silicon_calibrate(const char *dir, const char *engine, const char *device, const rl_hw *h,
                         int holdout, const rl_moe_keep *keep, const char *base,
                         const rl_override *ov, int nov, const char *date, const char *by,
                         const rl_engine_cost_default *costs, const char *path, cJSON **summary,
                         char *err, size_t errlen)
{
    rl_silicon s, held;
    if (rl_silicon_import(dir, engine, h, holdout, keep, &s, err, errlen) != 0)
        return -1;
    s.costs = costs;
    if (borrow_moe_gemm(&s, h, err, errlen) != 0) {
        rl_silicon_free(&s);
        return -1;
    }
    /* the device of every file, or none (the import kept the first file's) */
    snprintf(s.device, sizeof s.device, "%s", device);
    int rc;
    if (holdout)
        rc = rl_silicon_residuals(&s, &s, h, holdout, err, errlen);
    else if ((rc = rl_silicon_import(dir, engine, h, 5, keep, &held, err, errlen)) == 0) {
        rc = rl_silicon_residuals(&s, &held, h, 5, err, errlen);
        rl_silicon_free(&held);
    }
    if (rc == 0)
        rc = rl_silicon_widening(dir, engine, h, keep, s.resid, err, errlen);
    if (rc == 0 && rl_interrupted()) { /* nothing is written once a signal came */
        snprintf(err, errlen, "interrupted (%s)", rl_interrupt_name());
        rc = -1;
    }
    if (rc == 0 && rl_silicon_save(&s, h, base, ov, nov, engine, dir, date, by, path, err, errlen) != 0)
        rc = -2;
    if (rc == 0 && summary)
        *summary = rl_silicon_summary(&s);
    rl_silicon_free(&s);
    return rc;
}
