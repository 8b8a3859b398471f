/* silicon.h — import measured per-operator kernel tables (the layout of
 * NVIDIA AIConfigurator's systems data, as converted in
 * ../shared/data/silicon/GPU/ENGINE/NAME.csv.gz) into an engine's kernel
 * tables (engines.h), and write them as a calibrated hardware spec.
 *
 * Files read from DIR/ENGINE/ (gzipped CSV, `#` header lines carrying
 * source, framework version and device; latency in milliseconds per call):
 *   gemm_perf.csv.gz                  kernel_source, gemm_dtype, m, n, k, latency
 *   context_attention_perf.csv.gz     batch_size, isl, num_heads, num_key_value_heads,
 *                                     head_dim, [window_size], attn_dtype, kv_cache_dtype,
 *                                     step, latency (prefill attention)
 *   generation_attention_perf.csv.gz  the same columns, decode: context = isl + step
 *   moe_perf.csv.gz                   kernel_source, moe_dtype, num_tokens, hidden_size,
 *                                     inter_size, topk, num_experts, moe_tp_size,
 *                                     moe_ep_size, distribution, latency (fused MoE)
 *   context_mla_perf.csv.gz           kernel_source, mla_dtype, kv_cache_dtype, num_heads
 *                                     (per GPU), batch_size, isl, step (0), latency
 *                                     (DeepSeek MLA prefill attention; TensorRT-LLM only)
 *   generation_mla_perf.csv.gz        the same columns, decode: context = isl + step
 *
 * The fit, per operator class and dtype variant (engines.h's precision
 * table picks the variant; other dtypes are read, checked and skipped):
 *  - Rows that differ only in kernel_source are one configuration timed by
 *    several kernels; the fastest stands for it (an engine selects or
 *    autotunes among its kernels; an assumption, stated in every profile).
 *  - Grids: gemm over (m, n, k) with m subsampled to 2^i, 3 * 2^i and one
 *    more than those (the tables measure ~75 m values, in pairs such as
 *    2048 / 2049 either side of a tile step: without the second, p90 error
 *    of vLLM's fp8 GEMM on H100 was 18%, 13% with it; the rest only
 *    validate the interpolation).  Attention over (streams = batch x KV
 *    heads, isl or context, group = heads / KV heads, head_dim) at window
 *    0 (prefill: step 0), streams subsampled to 2^i, group to 2^i and
 *    3 * 2^i (the kernel changes between group 32 and 48: silicon.c
 *    subsampled): each
 *    (sequence, KV head) pair is one stream of K/V reads shared by `group`
 *    query heads (the GQA work split of decode kernels such as
 *    FlashDecoding / TensorRT-LLM XQA); FLOPs
 *    (s g isl^2 d) and K/V bytes (s isl d) are functions of these axes
 *    alone, so batch and KV heads trade at a fixed node.  (Prefill over
 *    (batch, isl, heads, head_dim) averaged over KV heads missed vLLM by
 *    p90 30-55%: its latency grows up to 1.6x from 1 KV head to MHA.)
 *    MoE: one grid per model shape (hidden, inter, topk, experts) over
 *    (tokens, 1/moe_tp_size, 1/moe_ep_size), rows of routing
 *    power_law_1.01 only (engines.h says why); a missing MoE file or one
 *    with no imported dtype leaves the engine without MoE tables.
 *    MLA (engines.h): prefill over (batch, isl), decode over (batch,
 *    context), both with heads per GPU, rows of mla_dtype bfloat16 (the
 *    only one measured).  MoE tokens and MLA isl keep every measured value
 *    (2^i only until stop 27: silicon.c subsampled says why).
 *    A node's ln latency is the mean of its configurations'; the nodes
 *    are fitted non-decreasing along the batched axes (ktable.h,
 *    rl_kt_isotonic), nodes no configuration measured are then filled
 *    (rl_kt_fill_holes) and listed as `filled`, and the fit runs again
 *    over all nodes.
 *  - A configuration faster than its roofline at the --hw spec's
 *    datasheet figures (rl_kideal: FLOPs at the variant's peak, bytes at
 *    HBM bandwidth) is not a timing and is left out of the grid and of the
 *    held-back rows, counted as `below_floor` (engines.h, the floor rule of
 *    rl_engine_time: A100 TensorRT-LLM's GQA decode attention).  MoE rows
 *    are kept (rl_kideal is no lower bound there).
 *  - With holdout K >= 2, every K-th shape (a grid node and its variant, in
 *    the file order of its first row, counted per file over the imported
 *    variants) is left out of the fit with all its rows and returned for
 *    validation: attention configurations of other batch and head counts
 *    share a node (streams = batch x KV heads, group = heads / KV heads),
 *    and a node held back row by row was still measured by its kept rows
 *    (tester43 F3).
 *
 * The reference engine's own tables (`calibrate --backend`, calib.h) use
 * the same files with dtype float32 (attn_dtype and kv_cache_dtype float32
 * too), imported as variant float32.
 *
 * Bad tables (missing columns, unknown dtypes, zero, negative or non-finite
 * latencies or shapes, the same kernel, dtype and shape twice with
 * latencies more than 2x apart, a table with no usable row) are errors
 * naming file, line and column.  Uses zlib, ktable, engines, spec, guard (files read). */
#ifndef RL_SILICON_H
#define RL_SILICON_H

#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "engines.h"
#include "spec.h"

/* A configuration held back from the fit. */
/* The largest share of one dtype variant's rows in one file that may be
 * faster than the chip's roofline (left out); above it `calibrate --tables`
 * refuses the file (wrong units or wrong chip).  0.15: about twice the
 * worst share of the genuine tables (7.8%, A100 TensorRT-LLM decode
 * attention; the others under 0.3%, MoE 0), below what a tenfold unit error
 * gives (h100_sxm/trtllm: GEMM bf16 89%, MoE bf16 22%, fp8 24%; silicon.c
 * drop_below_floor). */
#define RL_SILICON_MAX_BELOW 0.15
/* The fewest rows of a variant whose share below the floor is judged: an
 * excerpt of a few rows picked at the floor (tests/data/silicon/a100_sxm:
 * 4 of 8) says nothing of the file's unit; such a variant is refused only
 * when every row is below. */
#define RL_SILICON_MIN_SHARE_ROWS 20

typedef struct {
    rl_kclass cls;
    rl_kvariant var;
    double x[RL_KSHAPE]; /* its shape on the table's axes (engines.h) */
    double measured_s; /* fastest kernel's latency, seconds */
} rl_silicon_row;

#define RL_SILICON_DEVICE_LEN 128 /* a "# device: " name's bytes, its NUL included */

typedef struct {
    rl_engine_tables *tables;   /* owned (rl_silicon_free) until handed to rl_engines_keep */
    char engine[32];            /* the engine imported: its floor rule (engines.h rl_engine_floor) */
    char version[64];           /* engine version from the files' headers */
    char framework[32];         /* the "# framework: " line of the last file read */
    char device[RL_SILICON_DEVICE_LEN]; /* device the files name */
    char source[512];           /* the files' source line */
    long configs[RL_KC_COUNT][RL_KV_COUNT]; /* configurations fitted */
    long filled[RL_KC_COUNT][RL_KV_COUNT];  /* grid nodes filled */
    long below[RL_KC_COUNT][RL_KV_COUNT];   /* configurations left out: faster than
                                               their roofline (engines.h, the floor rule) */
    long pool[RL_KC_COUNT];     /* configurations a holdout counts, per class (the
                                   fitted and the held back; -1: no file): distinct
                                   shapes, each grid node with all its rows (the
                                   configurations of other batch and head counts
                                   on an attention node: silicon.c first_of_node) */
    rl_silicon_row *held;       /* configurations held back (holdout) */
    size_t nheld;
    rl_kresidual resid[RL_KC_COUNT]; /* written as the engine's residuals when n > 0 */
    int resid_holdout;
    const rl_engine_cost_default *costs; /* written as the engine's costs; NULL: its
                                            defaults (engines.h rl_engine_costs_default) */
    int attn_longest; /* the decode attention rows are the CUDA reference engine's
                         (kernel_source reference_cuda): one block per row and head,
                         attention_context "longest" (engines.h attn_longest) */
} rl_silicon;

/* The MoE model shapes (hidden, inter, topk, experts) to import. */
typedef struct {
    int n;
    double shape[RL_MOE_SHAPES_MAX][4];
} rl_moe_keep;

/* Import DIR/<engine>/ for hardware h (its peaks and bandwidth drive the
 * hole filling), holding back every holdout-th configuration (0: none);
 * MoE rows only of the shapes in keep (NULL: all).
 * Returns 0, or -1 with err "FILE: line L, column C (NAME): reason". */
int rl_silicon_import(const char *dir, const char *engine, const rl_hw *h, int holdout,
                      const rl_moe_keep *keep, rl_silicon *out, char *err, size_t errlen);

void rl_silicon_free(rl_silicon *s);

/* Write the engine profile: a hardware spec naming `base` (the preset or
 * spec file h was loaded from; a path is written relative to path's folder
 * when it lies inside it, as calibrate --backend's <host>-tables/base.lua,
 * so the folder can move; else absolute) and holding only
 * engines = { default = engine, [engine] = { ... tables ... } } and the
 * fields the overrides ov[nov] (--set) changed, taken from h (spec.h: a spec
 * naming a base).  Atomically to path; `date` is the UTC date; `by` the
 * command that wrote it, for the header (NULL: `roofline calibrate --tables
 * DIR --hw BASE --engine E`; calibrate --backend names itself: CLOSING22,
 * its profile named a command the user never ran).  Returns 0 or -1 with
 * err set and nothing written. */
int rl_silicon_save(const rl_silicon *s, const rl_hw *h, const char *base, const rl_override *ov,
                    int nov, const char *engine, const char *dir, const char *date,
                    const char *by, const char *path, char *err, size_t errlen);

/* The residuals (engines.h, rl_kresidual) of `from`'s held-back
 * configurations against its tables, per class, into to->resid (to may be
 * from): log(measured / predicted), its quantiles taken as bounds for a
 * new configuration, at rank p (n + 1) (fit.h rl_fit_bound, the rule of
 * fit's bands; type 7 before stop 24).  Returns 0,
 * or -1 (err) when out of memory. */
int rl_silicon_residuals(rl_silicon *to, const rl_silicon *from, const rl_hw *h, int holdout,
                         char *err, size_t errlen);

/* The widening per octave above the grid of each class's band (engines.h
 * rl_kresidual), tuned by nested hold-outs of the tables DIR/<engine> as
 * `fit` tunes its own (e2e.h): for each table axis, the rows at its largest
 * kept value (per dtype variant) are held out, the tables built from the
 * rest, and each held-out row's log(measured / table time) r and octaves
 * above the rest's grid d kept, where the rest's table keeps two or more
 * values of that axis (else there is no slope to extrapolate); a class's w
 * is rl_ec_widening over its rows at the band's coverage (80% beyond
 * resid[c]'s p10/p90, 90% beyond p5/p95, the p5-p95 one at least the
 * p10-p90 one), `seen` the farthest d.  Only the largest end: the tables'
 * smallest values are mostly the smallest a kernel runs (1 token, 1
 * stream), and a hold-out there measures a below-grid extrapolation no run
 * asks for (on h100_sxm/trtllm those rows miss by ~log 2: a latency floor
 * the tables' extrapolation does not keep).  resid[c] must carry its
 * quantiles; classes with fewer than RL_KRESIDUAL_MIN_EDGE rows keep wn 0
 * (the rule of thumb).  Imports the tables up to 4 times.  Returns 0, or
 * -1 with err. */
int rl_silicon_widening(const char *dir, const char *engine, const rl_hw *h,
                        const rl_moe_keep *keep, rl_kresidual *resid, char *err, size_t errlen);

/* Per class with residuals: class, p10, p90, edge_held_back and, when
 * tuned, per_octave_p10_p90, per_octave_p5_p95, up_to_octaves; p10, p90
 * and the per-octave figures null for a class with fewer than
 * RL_KRESIDUAL_MIN_BAND held-back rows (engines.h). */
cJSON *rl_silicon_widening_json(const rl_kresidual *resid);

/* `calibrate --tables DIR --hw H` and `validate --tables` (one check, tester16
 * F9): the tables must come from H's chip.  The
 * device DIR/<engine>'s files name ("# device: ") must be one that H's
 * engines were imported from (their source's "device '...'"); when H names
 * none (the TPU presets, a reference-engine base.lua; a what-if of another
 * chip's tables, as h100-pcie of h100-sxm's, names none of its own) it must
 * not be one that another hardware preset's engines name.  Every file must
 * name a device, all the same one: a file without the line is refused
 * naming it (tester16 F3: an A100's tables stripped of it became a
 * "calibrated" h100-sxm profile), unless `unchecked` (--device-unchecked):
 * then the saved engine's measured_on and source say RL_DEVICE_UNCHECKED,
 * which is no chip's name, so its runs are `estimated` (spec.h rl_hw_mode).
 * device[n] gets the device every file names, "" when one names none
 * (unchecked), what rl_silicon_calibrate takes: the headers are read once.
 * Returns 0, or -1 with err naming the file, or the device and --hw. */
#define RL_DEVICE_UNCHECKED "device unchecked (the tables name none)"
int rl_silicon_check_device(const char *dir, const char *engine, const char *hw,
                            const rl_override *ov, int nov, int unchecked, char *device, size_t n,
                            char *err, size_t errlen);

/* `calibrate --tables`, for the CLI and for calibrate --backend's own
 * tables (calib.h): import dir/engine, measured on `device` (what every
 * file's "# device: " line names, as rl_silicon_check_device gives it; "":
 * unchecked, saved as RL_DEVICE_UNCHECKED), for h (MoE shapes of keep, NULL: all) holding back every holdout-th
 * configuration, take the residuals the spec carries (of those held back;
 * with holdout 0, of a second import holding back every 5th, validate
 * --tables' default, the tables written keeping every configuration), and
 * save the spec to path (rl_silicon_save: base and the --set overrides ov[nov], date and
 * by).  *summary
 * (may be NULL) gets rl_silicon_summary's object.  Returns 0; -1 (err) for
 * bad tables or out of memory, or when SIGINT/SIGTERM arrived before the
 * save (interrupt.h: the import polls it; nothing is written then); -2 (err)
 * when path cannot be written.  costs (NULL: the engine's defaults) are the
 * engine costs the profile records: calibrate --backend's measured ones. */
int rl_silicon_calibrate(const char *dir, const char *engine, const char *device, const rl_hw *h,
                         int holdout, const rl_moe_keep *keep, const char *base,
                         const rl_override *ov, int nov, const char *date, const char *by,
                         const rl_engine_cost_default *costs, const char *path, cJSON **summary,
                         char *err, size_t errlen);

/* Which of the three tables calibrate --tables is documented to import
 * (gemm, context_attention and generation_attention _perf.csv.gz) dir/engine
 * lacks: "FILE (what it times)" joined by ", " into buf[len]; returns how
 * many (tester43 F5: a folder with gemm_perf only made a profile without
 * attention tables, silently).  MoE and MLA tables are not counted: they
 * serve only the models that have experts or MLA. */
int rl_silicon_absent(const char *dir, const char *engine, char *buf, size_t len);

/* The bytes (as stored, gzip) of the kernel tables rl_silicon_import reads
 * from dir/engine: what calibrate --tables says its run time by. */
double rl_silicon_bytes(const char *dir, const char *engine);

/* What was imported: engine_version, device, source, and per table its
 * class, dtype, configurations, nodes, filled nodes and configurations
 * left out below their roofline floor (below_floor). */
cJSON *rl_silicon_summary(const rl_silicon *s);

/* Predict every held-back configuration of s from its tables (ktable's
 * interpolation and extrapolation) and return, per operator class and
 * dtype, held_back, median / p90 / max |predicted / measured - 1| and the
 * count per provenance; with `plot` (.png/.svg) also draw predicted vs
 * measured (plots/kernel_accuracy.gp; none drawn without a predicted
 * row, plot_note says so).  A figure that failed keeps the result: its
 * reason in plot_note and err, *plot_failed 1 (else 0).  NULL with err set
 * on failure. */
cJSON *rl_silicon_validate(const rl_silicon *s, const rl_hw *h, const char *plot,
                           int *plot_failed, char *err,
                           size_t errlen);

#endif
