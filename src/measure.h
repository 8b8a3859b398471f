/* measure.h — the measurement CSV: end-to-end benchmark results, one row per
 * measured configuration, read for `roofline fit` and `validate --against`.
 *
 * Owns the file format and its checks.  A header line is required; blank
 * lines and lines starting with '#' are skipped; fields are separated by
 * commas, surrounding blanks trimmed, and may be quoted as RFC 4180 says
 * (csv.h: what `--format csv` and spreadsheets write; tester14 F4b:
 * "decode" was an unknown phase).  Columns, in any order:
 *
 *   phase        decode | prefill | static                        required
 *   tp           tensor-parallel GPUs                             required
 *   batch        sequences in the batch                           required
 *   context      decode: tokens attended by each sequence's new token
 *   tokens       prefill and static: prompt tokens per sequence
 *   output       static: generated tokens per sequence
 *   measured_s   decode: one step; prefill: the prefill of the whole batch
 *   measured_tok_s_per_gpu   static: batch * output tokens / (time * GPUs); a static
 *                row without it may give measured_s, the whole run's time (validate's
 *                rows write that), read as batch * output / (measured_s * GPUs); a row
 *                giving both is refused unless they agree within 1% (measure.c
 *                MEAS_BOTH_TOL; tester59 F5), measured_tok_s_per_gpu then read
 *   model hw engine weights kv compute pp ep   optional: override the command line
 *                (pp: pipeline stages, ep: expert-parallel groups, each a
 *                positive integer, 1 when absent or empty; the row's GPUs
 *                are tp x ep x pp; e2e.h says how each phase is timed)
 *   kv_split     optional: batch | seq | replicate, the KV layout beyond the K heads
 *                the row ran in, as validate writes it; fit and validate time every
 *                row in step's default layout and refuse a row that names another
 *
 * Other columns (up to 256 in all) are not read: their names are listed in
 * rl_meas.ignored, which fit and validate --against print as a note (so a
 * misspelt optional column is seen), and roofline's own CSVs, whose rows
 * carry the fields above beside their results, read back (tester15
 * F-csv-1; tester53 F5: every field validate's rows echo is read, kv_split
 * and a static row's measured_s included, the rest are its results).  A
 * header must still name phase, tp and batch, and a row the columns its
 * phase needs.
 * A cell of a column that does not apply to the row's phase may be empty;
 * one that applies must hold a positive number (integers for counts);
 * measured_s lies in (1e-7, 1e5) s and measured_tok_s_per_gpu in (1e-6,
 * 1e7) (the reasons beside MEAS_RANGE in measure.c).  A UTF-8 byte-order
 * mark opening the file is skipped.
 * Errors read "FILE:LINE: column 'NAME' (column C): reason" (column C is
 * 1-based).  Repeats of one configuration are rows whose every field but
 * the measurement is equal (rl_measure_config_id); k-fold cross-validation
 * keeps them in one fold.  Uses libc, csv.h and report.h (rl_fopen_input). */
#ifndef RL_MEASURE_H
#define RL_MEASURE_H

#include <stddef.h>

typedef enum { RL_MEAS_DECODE, RL_MEAS_PREFILL, RL_MEAS_STATIC } rl_meas_phase;

typedef struct {
    int line;                   /* 1-based line in the file */
    rl_meas_phase phase;
    long long tp, batch, pp, ep; /* pp, ep: 1 when not given */
    long long context;          /* decode: tokens attended (0 otherwise) */
    long long tokens;           /* prefill, static: prompt tokens per sequence */
    long long output;           /* static: generated tokens per sequence */
    double measured;            /* measured_s (decode, prefill) or tok/s per GPU (static) */
    /* per-row overrides of the command line ("" = not given) */
    char model[256], hw[256], engine[64], weights[16], kv[16], compute[16];
    char kv_split[16];          /* "" or the KV layout the row says it ran in (checked) */
    int measured_s_given;       /* static: its measured_s (the whole run) was read, not
                                 * measured_tok_s_per_gpu (errors quote the column given) */
    int config;                 /* configuration id: equal for repeats (0-based) */
    double kv_copies;           /* decode: chips holding each token's KV, each reading its
                                 * copy (shard.h rl_kv_layout); 0 (a row read from a file):
                                 * those of the layout step times its tp in (e2e.h
                                 * rl_e2e_kv_copies), as fit and validate time it */
} rl_meas_row;

typedef struct {
    char path[512];
    rl_meas_row *row;
    int n;
    int nconfig;                /* distinct configurations */
    unsigned long long hash;    /* FNV-1a 64 of the file's bytes */
    char ignored[1024];         /* the header's columns not read, quoted, ", " between
                                 * ("" when none; cut short past 1023 bytes) */
    char unused[512];           /* tester50 F8: the first non-zero cell of a column its
                                 * row's phase does not read (a prefill's context, a
                                 * decode's tokens or output, a static's context), and
                                 * how many such ("" when none): fit and validate note it */
    int tp_col, pp_col, ep_col; /* 1-based columns of tp, pp and ep (0: absent), which
                                 * fit and validate name in a row's layout errors */
    const char *origin;         /* report.h rl_input_origin: "stdin", "a pipe" or "a
                                 * descriptor" when path is no file's name; NULL */
    int engine_col;             /* 1-based column of engine (0: absent), which validate
                                 * names when a row's engine is not its hw's */
} rl_meas;

/* Read and check FILE (a file, a pipe, or "-" for stdin: read once,
 * report.h rl_read_input; out->path and messages name "-" "stdin").  Returns 0 with *out filled (free with
 * rl_measure_free), or -1 with err naming the file, line and column. */
int rl_measure_read(const char *path, rl_meas *out, char *err, size_t errlen);

void rl_measure_free(rl_meas *m);

/* "decode", "prefill", "static". */
const char *rl_meas_phase_name(rl_meas_phase p);

/* The row's measured time, seconds: measured_s for decode and prefill; for
 * static the time one batch takes, batch * output / (measured tok/s per GPU
 * * tp * ep * pp: the row's GPUs). */
double rl_meas_time(const rl_meas_row *r);

/* FNV-1a 64 of n bytes (Fowler, Noll, Vo; offset basis 14695981039346656037,
 * prime 1099511628211), continuing from h (start with RL_FNV_BASIS). */
#define RL_FNV_BASIS 14695981039346656037ULL
unsigned long long rl_fnv1a(unsigned long long h, const void *data, size_t n);

/* A row's key: FNV-1a 64 of its configuration (phase, tp, batch, pp, ep,
 * context, tokens, output, model, hw, engine, weights, kv, compute) and its
 * measured value, folded to 32 bits.  Equal rows key alike wherever they
 * stand in a file and whatever else the file holds (comments, order, line
 * endings).  Fits before tester59 F2 recorded these keys
 * (fitted_on.row_keys), which validate still matches; fits now record the
 * row as timed (e2e.c timed_key: resolved model, engine and dtypes), which
 * does not move with how optional cells are spelled. */
unsigned int rl_meas_row_key(const rl_meas_row *r);

/* The engine row r's engine cell names, "" for none: "none" is what
 * validate writes for a row timed by no engine's costs (step's engine at
 * --engine ideal or on a datasheet-only chip), which names no engine: the
 * row takes --engine's or the hw's default, as an empty cell, so that
 * validate's CSV reads back (tester53 F5).  Row keys and configurations
 * (config) read it so: "none" and an empty cell are one configuration. */
const char *rl_meas_row_engine(const rl_meas_row *r);

#endif
