/* enginecost.h — a serving engine's fitted costs: the keys of
 * `engines.NAME.costs` of a hardware spec (engines.h) that `roofline fit`
 * writes, and the older top-level `engine_costs` field, still read as an
 * alias (spec.c makes it the engine it names).
 *
 * Owns those keys (written by `roofline fit`, read wherever the spec loads),
 * the parameters, their physical ranges, and the cost model they
 * parameterize:
 *
 *   t_step = max(host, device) + seq_s * B                           (E)
 *   host   = step_s + launch_s * kernel launches + prefill_rank_s * tp [prefill]
 *   device = sum over operators of max(F / (peak * compute_eff), Y / (bw * memory_eff))
 *          + T_comm / comm_eff + tp_excess * T_comm [decode] + prefill_act_byte_s * N * A
 *
 * with step_s = decode_step_s or prefill_step_s, seq_s = decode_seq_s or
 * prefill_seq_s and comm_eff = comm_eff or prefill_comm_eff by the step's
 * phase, B the sequences in the step, N its prompt tokens (0 in a decode
 * step), A the activation bytes of one prompt token (e2e.h
 * rl_e2e_act_bytes: layers x d_model x the activations' dtype bytes); a
 * measured row's time is the sum over its steps.
 * tp_excess (stop 28, tester22 F6) is decode device time that comes with
 * TP beyond the collectives themselves, in units of their measured time
 * T_comm (the chip's NCCL tables, collectives.h): end-to-end rows do not
 * time collectives apart, so the collective term and this one have the
 * same column and cannot be told apart; the fit holds comm_eff (which
 * comes after it in precedence) at 1, the measured collectives, and
 * tp_excess fits what the rows charge on top.  On SplitwiseSim's rows
 * that is 4.9x (H100) and 5.6x (A100) the NCCL time, which an unbounded
 * comm_eff of 0.17 / 0.15 had presented as collectives at 17% of the
 * measured speed (160 AllReduces of 16 KB at 108 us each on H100 TP8
 * against 18.4 us measured); the step breakdown now shows the collectives
 * at their measured time in comm_s and this cost apart (`tp_excess_s`, of
 * kernel_excess_s: the step time it adds, its part above the host floor;
 * e2e.c fitted_tp_excess).  Its mechanism is not identified (the rows name no
 * framework); its form, proportional to the collectives' measured time
 * (so it grows with TP degree, layers and batch as they do), is an
 * assumption, the form the fit had used for it since stop 22; the TP2
 * rows, the only decode rows whose device side exceeds the host floor at
 * small batch, fix it, and on them it also trades off against memory_eff
 * (a lower memory_eff with no tp_excess fits Llama-2-70B about as well,
 * 0.1-1.4 points of median |error|, but moves its transfer to BLOOM-176B
 * from 3.7% to 17.0% on H100: docs/validation.md, Engine costs).  Prefill
 * steps get none: their collectives are bandwidth-bound, and
 * prefill_comm_eff keeps its range down to 0.01 (enginecost.c
 * COMM_FIT_LO says why; the shipped fits put it at 1).
 * prefill_act_byte_s is device time per activation byte of a prompt token
 * (1 / a bandwidth) that does not shrink as the TP degree grows (every
 * other device term is divided among the GPUs).  Its evidence is
 * SplitwiseSim's H100 prefill rows of Llama-2-70B at TP2 and TP4 alone:
 * after the operators timed from the measured kernel tables at their
 * sharded shapes (TensorRT-LLM and vLLM 0.24 bf16 GEMM and attention,
 * AIConfigurator) and the measured NCCL AllReduces, 34-54 us per prompt
 * token is left at both degrees from 1k to 32k tokens a step
 * (docs/validation.md, Engine costs; notes s25/h25fit).  Its mechanism is
 * not identified: the data names no framework and no path.  Its scaling
 * with the model is an assumption, chosen for a stated physical reason:
 * ~50 us a token of Llama-2-70B is ~0.6 us a layer, far above replicated
 * norms and residual adds (~10 ns) and about what moving each layer's
 * hidden state over a ~25-50 GB/s path that TP does not divide would take
 * (e.g. an AllReduce off NVLink), and such traffic grows as layers x
 * d_model x dtype bytes.  Only one model's rows fix it (the shipped fits'
 * 0.04 ns a byte = 52 us a Llama-2-70B token); a model of another shape
 * gets it scaled by that assumption, which no measurement here checks
 * (Llama-3-8B: 1/5 of Llama-2-70B's bytes, ~10 us a token).  It follows no
 * datasheet figure: `--set hw.flops.*` or `hw.hbm_bw` leave it as it is.
 * Key `prefill_token_s` (the same term per prompt token, stop-25 profiles)
 * is read as an alias: prefill_act_byte_s = prefill_token_s / 1310720, the
 * activation bytes of a Llama-2-70B bf16 token it was fitted on; a
 * profile with neither reads 0.
 * prefill_rank_s (stop 42) is host time a prefill step takes per GPU of its
 * TP group (tp: the replica's GPUs, a pipeline stage's in a pipeline), on
 * the host side of the max: a multi-process TP engine hands each step's
 * inputs to every worker before the step runs (one message per rank; a
 * prefill's carries the prompt's token ids, positions and block tables),
 * so the floor of a short prompt rises with the TP degree, where
 * prefill_step_s alone kept it the same at every degree.  Its evidence is
 * SplitwiseSim's H100 prefill floors (Llama-2-70B, 128-512-token prompts):
 * 48.3 / 49.1 ms at TP2 / TP4 and 51.7 / 53.9 ms (256, 512 tokens) at TP8,
 * whose fit on every row gives 0.99 +- 0.38 ms a rank and the TP2 + TP4
 * rows alone 0.85 +- 0.81 (docs/validation.md, stop 42); on A100 no prefill
 * row of TP2 or TP4 is host-bound and it is not identified.  Its mechanism
 * is not identified either (the rows name no framework); the per-rank form
 * is the assumption.  Decode gets none: its TP2 rows are device-bound, so
 * TP2 + TP4 rows cannot fix a per-rank decode floor.  A fit of one TP
 * degree cannot tell it from prefill_step_s and holds it (it comes after it
 * in precedence); a profile without the key reads 0.
 * The collectives get an efficiency per phase because a decode step's AllReduces carry a few KB each (latency-bound; engines switch to
 * one-shot custom AllReduce kernels for them, as the measured
 * `collectives` tables' trtllm/vllm rows show) and a prefill's carry MBs
 * (bandwidth-bound): one factor cannot scale both.  On SplitwiseSim's H100
 * rows the split moved the Llama-2-70B -> BLOOM-176B transfer from 16.8% to
 * 4.2% median |error| (calib/accuracy_e2e.sh; docs/validation.md).  The host issues a step's kernels asynchronously, so a step takes
 * the longer of the host's time to issue them and the device's time to run
 * them (the launch-bound regime CUDA Graphs address: NVIDIA, "Getting
 * Started with CUDA Graphs", 2019); per-sequence work (sampling, stop checks,
 * bookkeeping) waits for the step's logits and adds to it.
 * The operators, their FLOPs F and bytes Y come from the op list (ops.h) of
 * the step spread over tp GPUs; T_comm from the 1D Megatron plan's
 * collectives (shard.h: two AllReduces per layer, alpha-beta times from
 * comm.h).  A kernel launch is one operator instance (ops.h counts).  The
 * terms follow the engine costs named in DESIGN.md ("a fixed cost per step,
 * a cost per kernel launch") and issue 12 (a cost per sequence); the
 * efficiencies are fractions of the datasheet roofline (<= 1).  With every
 * cost 0 and every efficiency 1, (E) is the ideal op-list roofline plus the
 * plan's collectives.
 *
 *   engines = { default = "splitwise", splitwise = { source = "...", costs = {
 *     source = "...",
 *     decode_step_s = 0.03, prefill_step_s = 0.05, decode_seq_s = 3e-4,
 *     prefill_seq_s = 0.01, launch_s = 0, prefill_act_byte_s = 4e-11, prefill_rank_s = 1e-3,
 *     compute_eff = 0.5, memory_eff = 0.8, tp_excess = 4, comm_eff = 1,
 *     prefill_comm_eff = 0.8,
 *     band = { p5 = -0.1, p10 = -0.05, p90 = 0.05, p95 = 0.1,  -- log(measured / predicted)
 *       per_class = { decode = { p5 = -0.06, p10 = -0.03, p90 = 0.03, p95 = 0.06 },
 *                     prefill = {...}, static = {...} },  -- optional: each class's own
 *       per_class_from = "...",
 *       per_octave = { decode = { p10_p90 = 0.02, p5_p95 = 0.04 }, prefill = {...},
 *                      static = {...} },
 *       per_octave_from = "nested hold-outs: ...", per_octave_axes = "batch,context,tokens" },
 *     -- (the band: [t e^p10, t e^p90] inside the fitted grid, p10 and p90 the row
 *     --  class's per_class quantiles when present, else the pooled ones; a shape outside it
 *     --  whose estimate moves d octaves over the extrapolated part of its axes (rl_ec_band)
 *     --  gets [t e^(p10 - w d), t e^(p90 + w d)] with w the row class's
 *     --  per_octave widening, tuned by `fit` on its own rows (e2e.h); a profile without
 *     --  per_octave gets [t e^(p10 (1 + d)), t e^(p90 (1 + d))], a rule of thumb; bounded
 *     --  at [t / 2, 2 t] unless the fitted band is wider: rl_ec_band)
 *     fitted_on = { file = "x.csv", rows = 188, configs = 188, hash = "fnv1a64:...",
 *                   date = "2026-12-01T16:00:00Z", cv_median_abs_error = 0.04,
 *                   cv_p90_abs_error = 0.1, grid = { tp = {2, 8}, batch = {1, 64},
 *                   context = {192, 8256}, tokens = {128, 8192} },
 *                   models = "llama2-70b", weights = "bf16", kv = "bf16",
 *                   compute = "bf16",  -- the rows' models and weight, KV and compute
 *     --  dtypes (optional; a run outside them, or outside grid.tp, gets a note and no band)
 *                   status = { compute_eff = "fitted", launch_s = "held", ... },
 *                   sd = { compute_eff = 0.02, ... } },  -- what the fit said of each
 *     --  parameter (optional): "fitted", "at bound", "not identified" or "held"
 *     --  (rl_ec_status), and its standard deviation (file units; absent when held)
 *   } } }
 *
 * (the alias: the same keys plus engine = "splitwise" in a top-level
 * `engine_costs = {...}`).
 *
 * The terms of (E) for a measured row and its evaluation are in e2e.h.
 * Uses Lua, fit (rl_fit_bound). */
#ifndef RL_ENGINECOST_H
#define RL_ENGINECOST_H

#include <stddef.h>

#include <lua.h>

#include "dtype.h"

/* Parameters of (E), in the fit's order of precedence: when two cannot be
 * separated the later one is held and the earlier absorbs it. */
typedef enum {
    RL_EC_DECODE_STEP, RL_EC_PREFILL_STEP, RL_EC_DECODE_SEQ, RL_EC_PREFILL_SEQ, RL_EC_COMPUTE,
    RL_EC_MEMORY, RL_EC_TP_EXCESS, RL_EC_COMM, RL_EC_PREFILL_COMM, RL_EC_LAUNCH,
    RL_EC_PREFILL_ACT, RL_EC_PREFILL_RANK, RL_EC_N
} rl_ec_param;

/* The most row keys a fit records (fitted_on.row_keys): 4 KB a profile. */
enum { RL_EC_ROW_KEYS = 1024 };

/* A fitted parameter's status (fitted_on.status): not recorded, fitted
 * inside its range, at a bound of its range, not identified (its sd exceeds
 * its value or half its range: e2e.h rl_e2e_fit), held (the rows cannot
 * separate it; kept at its start value). */
typedef enum { RL_EC_UNRECORDED, RL_EC_FITTED, RL_EC_AT_BOUND, RL_EC_LOOSE, RL_EC_HELD } rl_ec_status;

/* "-", "fitted", "at bound", "not identified", "held". */
const char *rl_ec_status_name(rl_ec_status s);

/* Shape axes of the fitted grid: tp, batch, decode context, prompt tokens. */
typedef enum { RL_EC_TP, RL_EC_BATCH, RL_EC_CONTEXT, RL_EC_TOKENS, RL_EC_AXES } rl_ec_axis;

/* Row classes of the band's widening (a measured row's phase, measure.h):
 * decode steps, prefills, static runs. */
typedef enum { RL_EC_DECODE_ROWS, RL_EC_PREFILL_ROWS, RL_EC_STATIC_ROWS, RL_EC_CLASSES } rl_ec_class;

typedef struct {
    int present;
    char engine[64];
    char source[512];
    /* costs in seconds; efficiencies as fractions (the file's units) */
    double v[RL_EC_N];
    /* quantiles of log(measured / predicted) of the fit's cross-validated
     * residuals: the band of a prediction t is [t e^p10, t e^p90] */
    double band_p5, band_p10, band_p90, band_p95;
    /* the same quantiles per row class (rl_ec_class) when `classed`: each
     * class's residuals have their own spread, so the pooled quantiles are
     * too wide for one class and too narrow for another; rl_ec_class_bands
     * says how they are estimated (class_from says it in the profile;
     * profiles saved before it hold the shared-shape rule's, read as they
     * are); profiles without them use the pooled ones for every class */
    int classed;
    double cband[RL_EC_CLASSES][4]; /* p5, p10, p90, p95 */
    char class_from[256];
    /* simulate's and size's band edge (e2e.h rl_e2e_band_edge): 0 none;
     * q + 1 with q 0..3 = p5, p10, p90, p95: every step's time moves to
     * that quantile of its class, widened at its shape (rl_ec_band) */
    int edge;
    /* the band's widening per octave outside the grid (log units), per row
     * class and band ([0] p10-p90, [1] p5-p95), tuned by the fit's nested
     * extrapolation hold-outs (e2e.h) when `widened`; else the rule of
     * thumb (rl_ec_band); widen_seen[cls] is the farthest a held-out row
     * of the class's pool lay outside (octaves): the widening was seen up
     * to there, no farther (0 in a profile from before it was recorded) */
    int widened;
    double widen[RL_EC_CLASSES][2];
    double widen_seen[RL_EC_CLASSES];
    char widen_from[512]; /* what the widening was tuned on */
    /* the axes (rl_ec_axis names, comma-separated) along which a hold-out
     * extrapolated; octaves outside along any other axis widen by the rule
     * of thumb (rl_ec_band); "" (profiles from before): every axis */
    char widen_axes[64];
    char file[256], hash[32], date[32];
    /* the fitted rows' keys (e2e.c timed_key; before tester59 F2 measure.h
     * rl_meas_row_key, which validate still matches), sorted, distinct
     * (fitted_on.row_keys, hex words); nrow_keys 0: not recorded (a profile
     * from before, or a fit of more than RL_EC_ROW_KEYS distinct rows):
     * validate then knows in-sample only by the file's hash */
    unsigned int row_keys[RL_EC_ROW_KEYS];
    int nrow_keys;
    long long rows, configs;
    double cv_median, cv_p90;
    /* the fitted rows' range of each shape axis (rl_ec_axis), {0, 0}
     * where no row has it */
    double grid[RL_EC_AXES][2];
    /* the fitted rows' models and weight, KV and compute dtypes,
     * comma-separated (fitted_on.models, .weights, .kv, .compute; "" in
     * profiles from before: not checked) */
    char models[256], weights[64], kv[64], compute[64];
    /* what the fit said of each parameter (fitted_on.status, fitted_on.sd):
     * status[p] an rl_ec_status, sd[p] in the file's units (NAN: not
     * recorded, or held) */
    int status[RL_EC_N];
    double sd[RL_EC_N];
    /* the alias prefill_token_s as read (NAN: absent): rl_engine_costs_check
     * converts it */
    double token_alias;
} rl_engine_costs;

/* What the fit said of c's parameter p, for output texts: its status name,
 * or "status not recorded" (costs written by hand, or by a fit from before
 * fitted_on.status). */
const char *rl_ec_said(const rl_engine_costs *c, rl_ec_param p);

/* How c times a step's collectives, for output texts (review29 L1, M4: a
 * held comm_eff of 1 read "the fitted comm_eff" and "communication 1.00 of
 * peak", and tp_excess went unnamed): "at comm_eff V (STATUS) of the
 * chip's measured NCCL time" (prefill_comm_eff in a prefill), and with
 * excess, in a decode step with tp_excess > 0, ", plus tp_excess V
 * (STATUS) x that time of decode device time beyond them (mechanism not
 * identified)".  comm_eff scales the collectives' time as the chip times
 * them, not a datasheet peak: its measured tables (collectives.h) where
 * `measured`, else the alpha-beta model (comm.h), which the text names
 * (tester63 #2: a tpu-v5e fit read "measured NCCL time" beside "no
 * measured table"). */
void rl_ec_comm_text(const rl_engine_costs *c, int prefill, int excess, int measured, char *buf,
                     size_t n);

/* What comm_eff and prefill_comm_eff scale, as a unit: "fraction of the
 * measured collectives' speed" where `measured` (the chip's collectives
 * tables), else "fraction of the alpha-beta model's collective speed (no
 * measured table)" (rl_ec_comm_text). */
const char *rl_ec_comm_unit(int measured);

/* Record keys[n] (sorted and made distinct in place) as c's row keys;
 * none when more than RL_EC_ROW_KEYS are distinct. */
void rl_ec_set_row_keys(rl_engine_costs *c, unsigned int *keys, int n);

/* Whether key is one of c's fitted rows' keys (0 when none recorded). */
int rl_ec_fitted_row(const rl_engine_costs *c, unsigned int key);

/* 1 when name is one of the comma-separated names of list. */
int rl_ec_listed(const char *list, const char *name);

/* The dtype axes of a fit (fitted_on.weights, .kv, .compute), in the
 * order of rl_ec_no_band's dt. */
enum { RL_EC_DTYPES = 3 };

/* dt[RL_EC_DTYPES] = the names of weights, kv and compute, as
 * rl_ec_outside, rl_ec_differs and rl_ec_no_band take them: the one place
 * a run's dtypes become that triple (cli.c, e2e.c twice and spec.c each
 * built it). */
void rl_ec_dtypes(const char **dt, rl_dtype weights, rl_dtype kv, rl_dtype compute);

/* How a run of model `model` at dtypes dt[RL_EC_DTYPES] (weights, kv,
 * compute names; dt NULL or an entry NULL: not checked) lies outside the
 * model and dtypes c was fitted on, as one sentence into why ("" when it
 * does not, or c does not record them): "model llama3-8b (fitted on
 * llama2-70b only), kv fp8 (fitted on kv bf16 only)".  Returns its length.
 * The one outside-the-fit rule: rl_ec_differs (the mode label) and
 * rl_ec_no_band (the band) both start from it (review28 M3: the label
 * checked model and weights only, so --kv fp8 read "fitted" beside a
 * no_band). */
size_t rl_ec_outside(const rl_engine_costs *c, const char *model, const char *const *dt,
                     char *why, size_t n);

/* The longest text rl_ec_outside and rl_ec_differs write, its NUL
 * included (fixXC #2: a 600-byte buffer cut "tp 1 (fitt" off a profile
 * whose fitted_on lists are long): the model's name (< 64 bytes, spec.h)
 * and the fitted lists (their fields' sizes), each dtype clause's axis
 * word twice and the run's dtype name (3 x 2 x 8 + 3 x 16), the numbers
 * (tp and pp, 2 x 20; the TP grid's ends, 2 x 16) and the fixed words
 * (under 300: "model  (fitted on  only)", 3 x ", (fitted on only)", the
 * TP clause's and the pipeline clause's). */
#define RL_EC_DIFFERS_MAX                                                                      \
    (64 + sizeof(((rl_engine_costs *)0)->models) + sizeof(((rl_engine_costs *)0)->weights) +   \
     sizeof(((rl_engine_costs *)0)->kv) + sizeof(((rl_engine_costs *)0)->compute) + 3 * 2 * 8 + \
     3 * 16 + 2 * 20 + 2 * 16 + 300)

/* rl_ec_outside, TP over `tp` GPUs outside the fitted range (tp <= 0:
 * not checked) and a pipeline of pp > 1 stages (rl_ec_pp_outside), as one
 * sentence into out: "model llama3-8b (fitted on llama2-70b only), tp 1
 * (fitted on tp 2-8)". */
void rl_ec_differs(const rl_engine_costs *c, const char *model, const char *const *dt,
                   long long tp, long long pp, char *out, size_t n);

/* A pipeline of pp > 1 stages lies outside every fit: `roofline fit`
 * refuses rows with pp > 1 (e2e.c no_layout_rows), so the costs saw pp 1
 * only, and, as along an axis fitted at one value (rl_ec_no_band), their
 * residuals say nothing about a pipeline's time (tester55 F1).  Appends
 * "pp PP (fitted on pp 1 only ...)" to out, which holds k characters
 * (", " first when k > 0); returns the new length.  Nothing when pp <= 1. */
size_t rl_ec_pp_outside(long long pp, char *out, size_t n, size_t k);

/* Why c gives no band to a run of model `model` at dtypes dt[RL_EC_DTYPES]
 * (weights, kv, compute names; dt NULL or an entry NULL: not checked) and shape v[RL_EC_AXES]
 * (rl_ec_axis order; 0: the axis does not apply; < 0: the run spans many
 * values of it, as a simulation's steps do), as a sentence into why ("" and
 * 0 when it gives one; returns 1 when not).  None for a model the fit
 * never saw (c->models; tester18 F1: a llama2-70b fit's per-step floor
 * gave llama3-8b 29.8 ms inside a +-5% band), nor at a dtype the fit never
 * saw (h27lab: fp8 weights on the bf16-only splitwise fits kept +-4%), nor
 * off the one value of an axis the fit saw at one value only (tester18
 * F4/F12: a TP4-only fit's band held 0 of 90 TP2 rows): the fit's
 * residuals, and its hold-outs, say nothing about how the time moves
 * there (h26fit; docs/model.md). */
int rl_ec_no_band(const rl_engine_costs *c, const char *model, const char *const *dt,
                  const double *v, char *why, size_t n);

/* Octaves by which x > 0 lies outside [lo, hi]: log2(x / hi) or
 * log2(lo / x), whichever is positive, else 0.  The widening rule of every
 * band (fitted costs here, kernel tables in engines.h). */
double rl_octaves_outside(double x, double lo, double hi);

/* Octaves by which a shape lies outside the fitted grid along each axis,
 * into o[RL_EC_AXES]: log2(value / largest fitted) or log2(smallest fitted
 * / value), whichever is positive, else 0; 0 too for an axis whose value
 * is 0 or that no fitted row had.  v[RL_EC_AXES] in the order of
 * rl_ec_axis.  Returns their sum. */
double rl_ec_octaves(const rl_engine_costs *c, const double *v, double *o);

/* The band's log bounds for a row of class cls that lies d[a] octaves out
 * along each axis a, from the p10/p90 (p5/p95 when `wide`) residual
 * quantiles q_lo, q_hi of the class (rl_ec_quantiles).  d[a] is how far
 * the estimate itself moves over the extrapolated part of axis a (e2e.c
 * band_of: |log2(t(v) / t(v with a at the grid's nearest end))|; stop 22,
 * tester8 #3: octaves of the input widened a decode step 15-fold at
 * contexts below the grid where its time moved under 1%), and d their sum:
 *   tuned (c->widened): [q_lo - w d, q_hi + w d], w = c->widen[cls][wide],
 *     the fit's nested extrapolation hold-outs (e2e.h rl_e2e_fit, which
 *     measure d the same way); beyond
 *     c->widen_seen[cls] octaves (farther than any hold-out reached) no
 *     narrower than the rule of thumb below, since no measurement says
 *     how the error grows there (review-c finding 2: a decode widening
 *     tuned to 0 on one octave gave a 3-octave extrapolation the in-grid
 *     band);
 *   else (profiles from before): [q_lo (1 + d), q_hi (1 + d)], a rule of
 *     thumb that trusts an extrapolation less the farther it reaches;
 *   the octaves d_u along an axis no hold-out extrapolated (not in
 *     c->widen_axes: the fit had two values of it, and holding one out
 *     leaves no slope) widen by that rule of thumb on top: q_lo + q_lo d_u,
 *     q_hi + q_hi d_u (d above counts the other axes only);
 * either way widened no further than a factor of 2 (log 2), unless the
 * fitted band itself is wider (it is then kept).  The factor 2 is our
 * bound, not fitted: it keeps an extrapolated band from reaching zero
 * (tester finding 7: 9 octaves below a 512-token grid gave a 1-token
 * prefill of 45 ms the band [0.30, 170] ms); a shape that far out gets a
 * note, not a band.  Last, the band always holds its own estimate:
 * *lo <= 0 <= *hi (tester8 item 2: a fit whose residuals all share one
 * sign, p10 > 0, gave step a band above its point while simulate clamped;
 * the rule is ours, applied here and in rl_kresidual_band so that step,
 * prefill, validate, simulate and size see the same band: a one-sided
 * band then reaches from the estimate to the side the measurements lie). */
void rl_ec_band(const rl_engine_costs *c, const double *d, rl_ec_class cls, int wide, double *lo,
                double *hi);

/* Fewest cross-validated residuals a row class's own band quantiles are
 * read from (rl_ec_class_bands).  Our choice: at rank p (n + 1) (fit.h
 * rl_fit_bound) a class of 5 values has its p10-p90 at its extremes,
 * which hold (n - 1) / (n + 1) = 67% of new values, 78% at 8 and the full
 * 80% from 9; below 5 they would hold 60% or less, too little to call
 * p10-p90, and the band borrows instead. */
#define RL_EC_BAND_MIN_ROWS 5

/* c's band quantiles per row class (c->cband, classed, class_from) from the
 * n cross-validated log residuals r[i] (log(measured / predicted)) of rows
 * of class cls[i] (r unchanged).  Each class with RL_EC_BAND_MIN_ROWS rows
 * or more gets the quantiles p5, p10, p90, p95 of its own residuals at rank
 * p (n + 1) (rl_fit_bound), so no row of another class moves them (tester57:
 * the location-scale rule before, a shared shape r / s over all classes,
 * let one prefill row 0.56 in log off, 42 prefill scales, widen the decode
 * band from [-0.40, +0.21] to [-3.04, +0.87]).  A class with fewer rows
 * (none too) borrows the quantiles of every class's residuals pooled (the
 * band a profile without per_class gives every class), widened where
 * needed to hold its own residuals: it has no spread of its own to read,
 * and its own rows must not fall outside its band.  Only such a borrowed
 * band moves with another class's rows; class_from says which class
 * borrowed.  Not set (classed 0) when n is 0. */
void rl_ec_class_bands(const double *r, const int *cls, int n, rl_engine_costs *c);

/* The log quantiles p5, p10, p90, p95 of row class cls into q[4]: the
 * class's own when c has them (c->classed), else the pooled band_*.
 * Returns q. */
const double *rl_ec_quantiles(const rl_engine_costs *c, rl_ec_class cls, double *q);

/* Make each class's p5-p95 widening at least its p10-p90 one, so that
 * with p5 <= p10 and p90 <= p95 the p5-p95 band holds the p10-p90 band at
 * every distance (rl_ec_band).  Each is tuned on its own (e2e.h); the
 * wider band's smaller excesses can give it the smaller slope, and a band
 * claiming 90% would then be narrower than one claiming 80% a few
 * octaves out (review-c finding 1).  Applied by the fit and on reading. */
void rl_ec_nest(rl_engine_costs *c);

/* The largest |log quantile| of a band a profile may carry (the reader's
 * range of band.p5 ... band.p95 and band.per_class.*): e^5 = 148x off the
 * estimate; rows scattered wider do not follow (E). */
#define RL_EC_BAND_MAX 5.0

/* Whether every band quantile of c (pooled; per class when classed) lies
 * within +-RL_EC_BAND_MAX, as a profile's reader takes them (fit checks
 * before --save writes: review21 leftover, random in-range timings gave a
 * prefill p95 past 5 and a profile that did not load back).  0, or -1
 * with err naming the first outside and its factor. */
int rl_ec_band_check(const rl_engine_costs *c, char *err, size_t errlen);

/* The largest widening per octave a profile may carry (log units; the
 * reader's range of band.per_octave.*): 5 widens by e^5 = 148x per octave,
 * far beyond the factor-2 bound of rl_ec_band, so nothing is lost by it. */
#define RL_EC_WIDEN_MAX 5.0

/* The widening per octave that puts a share `coverage` of n extrapolated
 * predictions inside a band [q_lo - w d, q_hi + w d] (rl_ec_band): the
 * `coverage` quantile (rl_fit_bound: a bound for the next extrapolation,
 * type 6, as the band's own quantiles) of each prediction's need
 * max(0, (q_lo - r_i) / d_i, (r_i - q_hi) / d_i), r_i its
 * log(measured / predicted), d_i >= 0 the octaves its estimate moved
 * outside the grid it was fitted on (rl_ec_band); at d_i = 0 a prediction
 * outside [q_lo, q_hi] needs an infinite widening (no widening by that
 * rule reaches it), one inside none; clamped to RL_EC_WIDEN_MAX so that `fit --save` never writes a
 * profile its reader refuses (review-c finding 4).  n >= 1; scratch[n] is
 * overwritten. */
double rl_ec_widening(const double *r, const double *d, int n, double q_lo, double q_hi,
                      double coverage, double *scratch);

/* "decode_step_s", "prefill_step_s", "decode_seq_s", "prefill_seq_s",
 * "compute_eff", "memory_eff", "tp_excess", "comm_eff", "prefill_comm_eff",
 * "launch_s", "prefill_act_byte_s", "prefill_rank_s". */
const char *rl_ec_name(rl_ec_param p);
/* "tp", "batch", "context", "tokens": the keys of fitted_on.grid. */
const char *rl_ec_axis_name(rl_ec_axis a);
/* 1 for the efficiencies (fractions), 0 for the costs (seconds). */
int rl_ec_is_eff(rl_ec_param p);
/* The fit's physical range of each parameter: costs in [0, max];
 * efficiencies in (min, 1], comm_eff in [0.5, 1] (enginecost.c
 * COMM_FIT_LO: a correction to the chip's measured collective tables, not
 * a fraction of a datasheet link; tester22 F6).  A profile's reader
 * accepts the wider range profiles were fitted in before (comm_eff down to
 * 0.01). */
void rl_ec_range(rl_ec_param p, double *lo, double *hi);

/* The ideal costs: 0 s, efficiency 1. */
rl_engine_costs rl_engine_costs_ideal(void);

/* Read one key of the costs table (its value on top of L) into c: 0 when
 * read (c->present becomes 1), 1 when key is not one of the keys above
 * (the caller reads it or fails), -1 with err "ORIGIN: field 'FIELD.KEY':
 * reason" (FIELD: "engines.NAME.costs"). */
int rl_engine_costs_key(lua_State *L, const char *origin, const char *field, const char *key,
                        rl_engine_costs *c, char *err, size_t errlen);
/* The keys of the costs table, comma-separated: the parameters, band,
 * fitted_on (an unknown key's message lists them). */
const char *rl_ec_known_keys(void);

/* Before the keys: the ideal costs with prefill_comm_eff unset.  After
 * them, rl_engine_costs_check gives an unset prefill_comm_eff comm_eff's
 * value (profiles written before the two were apart), converts the alias
 * prefill_token_s (refused beside prefill_act_byte_s), nests the bands
 * (rl_ec_nest) and returns 0, or -1 when the band is not ordered. */
rl_engine_costs rl_engine_costs_blank(void);
int rl_engine_costs_check(const char *origin, const char *field, rl_engine_costs *c, char *err,
                          size_t errlen);
/* Read the alias `engine_costs` table on top of L.  Errors name
 * "ORIGIN: field 'engine_costs.KEY': reason". */
int rl_engine_costs_read(lua_State *L, const char *origin, rl_engine_costs *out, char *err,
                         size_t errlen);
/* Set the keys of c (all but engine and source) in the table on top of L. */
void rl_engine_costs_push_keys(lua_State *L, const rl_engine_costs *c);

/* Internal parameters x of c for the fit and for (E) (costs in seconds,
 * efficiencies as their inverses, the slowdowns 1 / eff) and back. */
void rl_ec_to_x(const rl_engine_costs *c, double *x);
void rl_ec_from_x(const double *x, rl_engine_costs *c);

#endif
