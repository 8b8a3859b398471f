/* e2e.h — end-to-end benchmark rows: their predicted times, `roofline
 * validate --against` and `roofline fit`.
 *
 * Owns the terms of the cost model (E) of enginecost.h for a measured row
 * (measure.h) and its evaluation; loading each row's model and hardware
 * (command line, overridden by the row's columns); the comparison of
 * predicted and measured values (error = predicted / measured - 1; summary:
 * median, p90 and max |error|, bias = mean signed error); the fit of the
 * engine costs (fit.h) with k-fold cross-validation over whole
 * configurations (repeats share a fold: configuration c goes to fold c mod
 * k, so k = 2 fits on every other configuration); the band (quantiles of
 * the cross-validated log(measured / predicted), as bounds for a row not
 * fitted: fit.h rl_fit_bound); the saved profile (the
 * hardware spec plus `engine_costs`, loadable with --hw); the
 * predicted-vs-measured figure (plots/validate_e2e.gp).  Uses enginecost,
 * fit, measure, ops, shard, spec, plot, report, cJSON. */
#ifndef RL_E2E_H
#define RL_E2E_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "enginecost.h"
#include "measure.h"
#include "memory.h"
#include "ops.h"
#include "result.h"
#include "spec.h"

/* One kind of step of a measured row, before the parameters apply. */
typedef struct {
    double count;    /* steps of this kind */
    int prefill;     /* 1: a prefill step, 0: a decode step */
    double batch;    /* sequences in each step */
    double act_bytes; /* activation bytes of the step's prompt tokens (rl_e2e_act_bytes
                       * x tokens; 0 for decode): what prefill_act_byte_s multiplies */
    double launches; /* kernel launches a step: operator instances */
    double ranks;    /* GPUs a prefill step's inputs are handed to (its TP group; 0 for
                      * decode): what prefill_rank_s multiplies (enginecost.h) */
    double comm_s;   /* ideal collective time a step (what comm_eff divides) */
    double sends_s;  /* of comm_s, a pipeline's stage P2P sends: at comm_eff, but no
                      * tp_excess, which was fitted on TP collectives only (tester29 F2) */
    int ncoll;       /* the plan's collectives a step (shard.h), of them latency-bound: */
    int latency_bound;
    int nops;
    double op_c[RL_OPS_MAX]; /* instances * FLOPs / (tp * peak) of each operator, seconds */
    double op_m[RL_OPS_MAX]; /* instances * bytes / (tp * bw), seconds */
} rl_ec_step;

/* What (E) sums for one measured row: a decode step, a prefill, or a
 * prefill and `output` decode steps (static). */
typedef struct {
    int n;
    rl_ec_step step[2];
} rl_ec_terms;

/* The activation bytes of one prompt token of m at precision p, the
 * quantity prefill_act_byte_s (enginecost.h) is a time per: one hidden
 * state per layer, layers x d_model elements in the dtype the activations
 * move in (rl_shard_moved_dtype: bf16 unless the compute is fp32).
 * Llama-2-70B in bf16: 80 x 8192 x 2 = 1310720 B; Llama-3-8B: 32 x 4096 x
 * 2 = 262144 B.  0 for an abstract model (it has no layers or width): the
 * term then adds nothing.  Why this form is assumed, not measured:
 * enginecost.h. */
double rl_e2e_act_bytes(const rl_model *m, rl_precision p);

/* The tokens a sequence of row r holds at the end of the row's work
 * (decode: its context; prefill: its tokens; static: tokens + output): the
 * KV the fit and validate hold against a chip's HBM, per chip of the row's
 * plan (e2e.c row_fits says why). */
long long rl_e2e_row_seq(const rl_meas_row *r);

/* What a chip of row r's plan holds in *s (rl_shard_eval on h with its
 * engine rule and reserve set aside: `fits` against the vendor's HBM): the
 * rule the fit and validate refuse a row by.  0, or -1 (err: the plan's
 * reason, or out of memory). */
int rl_e2e_row_chip(const rl_meas_row *r, const rl_model *mod, const rl_hw *h, rl_precision p,
                    rl_shard_result *s, char *err, size_t errlen);

/* The terms of row r for model m on hardware h (tp GPUs, 1D plan) at
 * precision p.  A static row is its batch's prefill plus `output` decode
 * steps at the mean context tokens + output / 2 (a step is linear in the
 * keys it attends to).  Its collectives are NCCL's rows whatever engine h
 * selects (collectives.h: fitted costs belong to an engine of their own).
 * Returns 0, or -1 with err naming the field (the op list's and the plan's
 * checks). */
int rl_ec_terms_of(const rl_model *m, const rl_hw *h, rl_precision p, const rl_meas_row *r,
                   rl_ec_terms *out, char *err, size_t errlen);

/* (E) in seconds with internal parameters x (rl_ec_to_x); grad[RL_EC_N]
 * (may be NULL) gets d t / d x. */
double rl_ec_time(const rl_ec_terms *t, const double *x, double *grad);

/* A fit whose cross-validated median |error| passes this cannot match its
 * rows: ~7x the shipped fits (h100/a100-sxm-splitwise.lua: 3.2%, 3.7%);
 * splitwise_h100.csv in milliseconds under measured_s fits at 96%
 * (tester8 item 2, tester76 #1).  fit warns above it, and --save refuses
 * such a fit (exit 2, nothing written) unless --save-misfit; a command
 * that loads a profile whose fitted_on.cv_median_abs_error passes it says
 * so on stderr and in its JSON (fitted_misfit_note). */
#define RL_E2E_MISFIT_CV 0.25

/* Command-line defaults a row's columns override. */
typedef struct {
    const char *model, *hw, *engine; /* engine may be NULL */
    const char *engine_name;         /* fit --engine-name: the name the fitted costs are
                                        saved under (NULL: engine_name's default) */
    rl_precision prec;
    const rl_override *sets[2];      /* --set model.* / hw.* */
    int nsets[2];
    int folds;                       /* fit: k of the cross-validation (>= 2) */
    const char *save;                /* fit: the profile to write */
    int *save_failed;                /* fit: set to 1 when writing it failed (I/O), or NULL */
    int save_misfit;                 /* fit --save-misfit: save a fit above RL_E2E_MISFIT_CV */
    int *hw_smoke_test;              /* set to 1 (when not NULL) when the --hw profile loaded is
                                        a smoke test (calibrate --quick): the CLI says so, from
                                        the copy loaded here (it loaded a second one to know) */
    const char *plot;                /* validate: the figure (.png / .svg), or NULL */
    double band_lo, band_hi;         /* quantiles of the band: 0.1, 0.9 or 0.05, 0.95 */
} rl_e2e_opts;

/* Predict every row of m as step and prefill do on its hardware (o->engine
 * selected on each profile as it loads, before any row's terms): by its
 * engine_costs (mode "fitted"); on a profile with measurements and no
 * fitted costs in calibrated mode (a decode row as
 * rl_shard_step_calibrated times it, a prefill as the calibrated op list
 * with the plan's collectives and the prefill dispatch; "calibrated" or
 * "estimated", spec.h rl_run_mode); else (datasheet figures only,
 * "estimated", or --engine ideal, "ideal") as step and prefill time it
 * there: a decode row formula (1) with the plan's collectives
 * (rl_shard_eval); and compare.  A row with pp or ep > 1 is timed as
 * `step --tp --ep --pp` and `prefill --tp --ep` time that layout (e2e.c
 * layout_time; docs/model.md).  Each result row echoes the model, hw,
 * engine, dtypes, tp, ep, pp and kv_split (step's key) it was timed as.
 * Returns the result (rows, each with its mode; mode (the rows' one mode
 * or "mixed"), median_abs_error, p90_abs_error, max_abs_error, bias; band
 * and band_coverage when rows carry a band; mode_note when rows of another
 * chip are predicted by their own spec) or NULL with err set ("FILE:LINE:
 * ...", or "FILE: no rows left: ..." when every row is beyond its model's
 * max_context). */
cJSON *rl_e2e_validate(const rl_meas *m, const rl_e2e_opts *o, char *err, size_t errlen);

/* Fit the engine costs on m's rows of hardware o->hw (and engine o->engine
 * when given), cross-validate, write o->save.  A row with pp or ep > 1 is
 * refused, naming its column (e2e.c no_layout_rows says why).  Returns the result
 * (parameters with uncertainty, rows with residuals, cv summary, notes;
 * fit_warning when the fit cannot match its rows: e2e.c misfit_warning) or
 * NULL with err set; nothing is written on error. */
cJSON *rl_e2e_fit(const rl_meas *m, const rl_e2e_opts *o, char *err, size_t errlen);

/* fit's two sign conventions (its result key sign_convention, fit --help,
 * docs/model.md): errors are relative, quantiles logarithmic, of opposite
 * sign (tester59 F6: residual -0.03 and band_p10 +0.03 describe one row). */
#define RL_E2E_SIGN_CONVENTION                                                                     \
    "residual, cv_error and the fit_/cv_ error figures (bias included) are predicted / measured "  \
    "- 1 (positive: predicted slower than measured); the band_ quantiles are ln(measured / "       \
    "cross-validated prediction) (positive: measured slower), so a row of cv_error e lies at "     \
    "-ln(1 + e) in the band"

#endif

/* One serving step under h's engine_costs (E): the step `c` (ops.h: its
 * prompts, each on its own prefix, beside a decode batch, over c->chips
 * GPUs) with the step's ideal collective time comm_s (scaled by
 * 1 / comm_eff here), of it sends_s a pipeline's stage sends (no
 * tp_excess on them: it was fitted on TP collectives only; tester29 F2).  The host floor is the prefill one when the step
 * prefills, the per-sequence costs count the decoding sequences and one
 * prefill, the activation-byte cost (prefill_act_byte_s) the step's prompt
 * tokens (rl_ops_prefill_rows) x rl_e2e_act_bytes.  Seconds, or -1 on invalid input.  For the serving simulator's
 * step cost (serve.h). */
double rl_e2e_mixed_time(const rl_model *m, const rl_hw *h, const rl_ops_config *c,
                         double comm_s, double sends_s);

/* The band --band (band=; param.h RL_P_BAND) names: 1 for "p5-p95" (wide),
 * 0 for "p10-p90" or NULL (the default), -1 for any other name.  The one
 * parser of both front ends; its result is passed down. */
int rl_e2e_band_parse(const char *name);

/* The band's quantiles into *lo, *hi: 0.05, 0.95 when wide, else 0.1, 0.9. */
void rl_e2e_band_quantiles(int wide, double *lo, double *hi);

/* When wide, the engine selected on h (if any) reports its kernel-table
 * bands at p5-p95 (engines.h wide_band, read by result.c). */
void rl_e2e_band_select(rl_hw *h, int wide);

/* 1, with why set, when h's fitted engine costs give no band to a run of
 * `model` at precision *p (NULL: not checked), TP degree tp (tp 0: not
 * checked) and pp pipeline stages (a model or dtype the fit never saw, a
 * TP off a fit on one TP degree: enginecost.h rl_ec_no_band; pp > 1,
 * which no fit saw: rl_ec_pp_outside, as step's band_of; simulate's and
 * size's steps span every other axis); 0 and "" otherwise, also without
 * fitted costs. */
int rl_e2e_band_withheld(const rl_hw *h, const char *model, const rl_precision *p, long long tp,
                         long long pp, char *why, size_t n);

/* The no_band note of a run the fitted costs give no band: result's
 * "no_band" = "no band: WHY; the fit's residuals say nothing there (the
 * time is an estimate)" (the clause left out on a what-if, whose WHY is
 * rl_e2e_what_if_band's), WHY from rl_e2e_band_withheld or band_of;
 * nothing when WHY is "".  step's, simulate's and size's rows alike
 * (tester58 #3: size's rows read "no band:  (the time is an estimate)"). */
void rl_e2e_withheld_no_band(cJSON *result, const rl_hw *h, const char *why);

/* 1, with why set, when h is a what-if (spec.h rl_hw_what_if_of) of the
 * chip its kernel tables or fitted costs were measured on: their residual
 * band is withheld, as those quantiles were measured on that chip's
 * figures and the what-if rule adds its own unmeasured error (review28 M4:
 * h100-pcie carried h100-sxm's p10-p90).  rl_e2e_band_withheld and every
 * band (step, prefill, simulate, size, Lua) ask it first. */
int rl_e2e_what_if_band(const rl_hw *h, char *why, size_t n);

/* 1 when h has a band: fitted engine costs (their cross-validated
 * residual quantiles) or a selected engine whose kernel tables carry
 * residuals (engines.h rl_kresidual). */
int rl_e2e_has_band(const rl_hw *h);

/* Every result without a band says why (README: "no_band says why";
 * h31audit finding 10c): when result has neither "band" nor "no_band",
 * add "no_band" = "no band: WHY (the time is an estimate)", WHY the first
 * that holds of: an abstract model (m non-NULL); h ideal (--ideal,
 * --engine ideal); h a what-if (rl_e2e_what_if_band); h without fitted
 * costs or kernel-table residuals (an estimated chip: no tables at all);
 * else `why_else` (the caller's reason this run has none on a profile that
 * has one; NULL: nothing is added).  Called last by every result that can
 * carry a band (step, prefill, simulate, size), so the band's own notes
 * (fitted costs off the fit, a what-if) come first and stay. */
void rl_e2e_no_band(cJSON *result, const rl_model *m, const rl_hw *h, const char *why_else);

/* rl_e2e_no_band with `why` first, before every other reason: a run whose
 * mode says why it has no band (mode "mfu": --mfu, tester91 #9: under
 * --ideal the note gave --ideal's reason beside mode mfu). */
void rl_e2e_no_band_as_mode(cJSON *result, const char *why);

/* Move h to one edge of its band, q 0..3 = p5, p10, p90, p95 (the rule of
 * simulate's and size's bands and of size --conservative):
 *   fitted costs: every serving step's time (rl_e2e_mixed_time) times
 *     e^{band_q} of its row class (a step that prefills: prefill, else
 *     decode) at its own shape, widened outside the fitted grid as step's
 *     and prefill's bands are (enginecost.h rl_ec_band), the low edges
 *     (p5, p10) no slower and the high ones no faster than the fit itself;
 *   kernel tables: every table-timed operator at its class's residual
 *     quantile q, widened outside the grid as its band (engines.h edge),
 *     the operators no table times at that edge of their own band (ops.c
 *     roofline_band); collectives and engine costs keep their time.
 * Returns 1, or 0 (h unchanged) when h has no band.
 * Each call starts a new generation of the memo behind rl_e2e_mixed_time's
 * edge factors, which are keyed on the model's and hardware's *addresses*
 * (review22 #11): within a generation a model or hardware struct at one
 * address must not change (its fields, its engine costs, its edge), nor a
 * buffer be reused at that address for another model or chip.  A caller
 * that does either calls rl_e2e_band_edge first (every path does today:
 * the band runs set the edge, then time steps). */
int rl_e2e_band_edge(rl_hw *h, int q);

/* KEY_low / KEY_high beside every top-level time of a simulate result or
 * size row (ttft_*_s, tpot_*_s, e2e_*_s) from the same keys of the results
 * of the same run at the band's low and high edges (rl_e2e_band_edge):
 * queueing follows the slower steps, which a scaled output would miss
 * (tester finding 10).  Each side is at least as far out as the result's
 * own value.  `band` names the band: "p5-p95" when wide, else "p10-p90". */
void rl_e2e_band_from_runs(cJSON *result, const cJSON *low, const cJSON *high, int wide);

/* The serving steps timed at a fitted band's edge (rl_e2e_mixed_time with
 * h's costs at an edge) since the last call that lay outside the grid the
 * costs were fitted on: the farthest value per axis (batch, context,
 * tokens; tp is rl_ec_differs's) as "batch 128 (fitted on 1-64), ..."
 * into out (stop 23: `simulate` gave no word that its band extrapolated,
 * where step and prefill do).  Returns 1 when any was outside, else 0
 * (out ""); forgets them either way.  h: the profile the run used, whose
 * grid is named. */
int rl_e2e_band_outside(const rl_hw *h, char *out, size_t n);

/* The note that h's fitted engine costs time a run outside what they were
 * fitted on (enginecost.h rl_ec_differs: model, weight/KV/compute dtypes,
 * TP over `tp` GPUs, a pipeline of pp stages), as one sentence:
 * "H's engine costs are applied outside what they were fitted on: model
 * mixtral-8x7b (fitted on llama2-70b only); the time extrapolates their
 * host floor and efficiencies[, and prefill_act_byte_s (...) whatever the
 * TP]", whole (fixXC #2: fixed buffers cut it), which the caller frees;
 * NULL when it is inside (or out of memory).  The one wording of step,
 * prefill and simulate's stderr note (cli.c note_fitted_on) and validate
 * --against's fitted_on_note (issue 13 item 2). */
char *rl_e2e_fitted_outside(const rl_model *m, const rl_hw *h, long long tp, long long pp,
                            rl_precision p);

/* The edge runs of a band (rl_e2e_band_edge's q, into q[0..count-1]):
 * p10, p90; when wide p5, p95 then p10, p90, each side of the wide band
 * taken out to the farther of its two runs (rl_e2e_band_farther).  The
 * simulator's p99 is not monotone in the step cost (a slower step batches
 * arrivals otherwise, docs/model.md), so the p95 run alone can read below
 * the p90 run (tester63 #12: ttft_p99_ms_high 103.8 at p5-p95, 104.1 at
 * p10-p90, one fitted profile): so a p5-p95 band holds the p10-p90 band
 * of the same command.  simulate's and size's rows both.  Returns the
 * count, 2 or 4. */
int rl_e2e_band_runs(int wide, int q[4]);

/* One side of a wide band: its edge run's figure `edge` and the narrower
 * run's `inner` (the same key), the lower when low, else the higher. */
double rl_e2e_band_farther(double edge, double inner, int low);

/* simulate's band: run's requests (n) served again on run->h moved to the
 * band's low and high edge (p10, p90; p5, p95 when wide), their figures
 * into result by rl_e2e_band_from_runs; a speculative draft model's step
 * cost (run->c->spec_draft, an op-list cost: serve.h rl_ops_cost_on) is
 * moved to the same edge on the same chips.  Nothing when run is not
 * calibrated or its profile has no band.  0, or -1 with err. */
int rl_e2e_simulate_band(cJSON *result, const rl_simulate_run *run, const rl_request *req,
                         long long n, int wide, char *err, size_t errlen);

/* h's engine_costs (fitted profile) time of one decode step of `batch`
 * sequences at `len` cached tokens, or (prefill) of one prompt of `len`
 * tokens, one replica TP over `tp` GPUs (1D plan): the time rl_e2e_retime
 * gives `step --chips tp` / `prefill --chips tp` (tester15 F-pareto-1:
 * pareto's points, one function).  *comm_s (may be NULL): of it, the
 * collectives at the fitted comm_eff.  Seconds, or -1 with err set. */
double rl_e2e_fitted_step(const rl_model *m, const rl_hw *h, rl_precision p, int prefill,
                          long long tp, long long batch, long long len, double *comm_s, char *err,
                          size_t errlen);

/* 1 when h's fitted engine costs time plan pl: they model one replica TP
 * over its GPUs (a 1D plan, no EP, KV split by batch: what `step --chips
 * tp` re-times), however many such replicas the chips hold (pareto's
 * plans, `step --tp T --chips k*T`: replicas are independent), and a
 * pipeline of such stages (`--pp`: a pass is the whole op list on one
 * stage's chips plus the stage sends, as `simulate --pp` times a step;
 * tester18 F10). */
int rl_e2e_fitted_plan(const rl_hw *h, const rl_shard_plan *pl);

/* The plan a step on h over `chips` chips runs in: pl when a plan is
 * given (--tp, Lua tp=), else tensor parallelism over the chips with the
 * KV split beyond the K heads step takes by default (shard.h
 * rl_kv_split_default(h->ideal): replicate, batch under --ideal), the
 * plan `--tp chips` names.  A fitted profile times `--chips N` as TP over
 * the N chips, so `--chips N` and `--tp N` are one layout. */
rl_shard_plan rl_e2e_step_plan(const rl_hw *h, const rl_shard_plan *pl, long long chips);

/* The chips holding each token's KV in a fitted decode step of model m
 * on h: rl_e2e_step_plan's layout (shard.h rl_shard_kv_layout's copies;
 * 1 for an abstract model).  The one rule that step (CLI and Lua, with
 * --chips or --tp), validate --against's and fit's measured rows
 * (rl_meas_row.kv_copies 0) take the copies from (review39 F7: fitted
 * `step --chips 16` read one copy where `--tp 16` read two; F8: a validate
 * row labelled kv_split replicate was timed with one copy). */
double rl_e2e_kv_copies(const rl_model *m, const rl_hw *h, const rl_shard_plan *pl,
                        long long chips);

/* Calibrated plan result *r (rl_e2e_fitted_plan) re-timed by h's fitted
 * costs per replica, as `step --chips tp --batch replica_batch` on the
 * profile (rl_e2e_fitted_step); a pipeline's (r from result.c
 * pp_step_calibrated: its P2P rows are the stage sends) per pass of one
 * micro-batch (shard.h rl_shard_micro_batch: ceil(replica_batch / pp);
 * tester28 F2), the sends among the step's collectives, as the simulator's fitted step
 * (rl_e2e_mixed_time) charges them: step_s, comm_s at the fitted comm_eff,
 * table_s 0, kernel_excess_s what step_s has above the roofline terms,
 * tokens_per_s over all replicas; pareto and step --tp time plans by it
 * (tester16 F4).  0, or -1 when the costs do not evaluate. */
int rl_e2e_fitted_shard(const rl_model *m, const rl_hw *h, rl_precision p, rl_shard_result *r);

/* r->band_s (p5, p10, p90, p95) and banded of a result re-timed by
 * rl_e2e_fitted_shard: the fitted band at its replica's shape (TP over
 * plan.tp, its micro-batch rl_shard_micro_batch (replica_batch without a
 * pipeline), context), the band rl_e2e_retime gives `step --chips tp
 * --batch` that (review26 L4: plan rows carried none).
 * Off the fit (rl_ec_no_band) the row stays unbanded and result gets the
 * no_band note once (review27 M1).  0, or -1 with err when the band's
 * floor (step --ideal's time of the replica) cannot be timed, as
 * rl_e2e_retime refuses then (review40 F4: the floor fell back to the
 * terms' silently). */
int rl_e2e_fitted_band(cJSON *result, const rl_model *m, const rl_hw *h, rl_precision p,
                       rl_shard_result *r, char *err, size_t errlen);

/* Label result, a run of `model` with `weights` weights, TP over `tp`
 * GPUs (0: not checked) in pp stages (pp > 1: outside every fit,
 * enginecost.h rl_ec_pp_outside), as timed by h's engine_costs: mode "fitted"
 * ("estimated" on a what-if chip, or when spec.h rl_hw_fit_mode says the
 * run lies outside the fit: then key fitted_outside says what differs),
 * engine and engine_source the costs' (what rl_e2e_retime writes;
 * pareto's fitted points too). */
void rl_e2e_fitted_label(cJSON *result, const rl_hw *h, const char *model, rl_precision p,
                         long long tp, long long pp);

/* The `communication` text of a run timed by fitted costs c: "included:
 * tensor parallel over OVER (1D plan), the collectives " and how c times
 * them (rl_ec_comm_text: comm_eff, prefill_comm_eff in a prefill, held or
 * fitted, and decode's tp_excess named; review29 L1) on h's measured
 * collectives or its alpha-beta model (tester63 #2).  OVER: "the chips"
 * (step, prefill) or "each replica's chips" (step --tp, pareto).  The one
 * wording of it (step's and the plan rows' were near-twins).  Returns buf. */
const char *rl_e2e_fitted_comm_label(const rl_hw *h, int prefill, const char *over, char *buf,
                                     size_t n);

/* engine_source of a run result on a fitted profile (h->engine_costs)
 * that its costs do not time (`what`: the plan or model they leave out):
 * says so and names the costs, so the fitted engine's source is not read
 * as the time's (tester16 F4); nothing when h has no fitted costs or the
 * result no engine_source (ideal). */
void rl_e2e_unfitted_label(cJSON *result, const rl_hw *h, const char *what);

/* With h's engine_costs (fitted profile), re-time a `step` result's rows
 * (batch, context; one replica over tp = chips GPUs, 1D plan, each token's
 * KV read on kv_copies chips: the plan's layout, shard.h rl_kv_layout; 1
 * without a plan) or a
 * `prefill` result's rows (tokens; prefix 0, one sequence) by (E): step_s /
 * ttft_s become the fitted time (and a prefill row's chunked_s, each chunk
 * one prefill step at its prefix), the throughput keys follow, and
 * <key>_low / <key>_high give the band (quantiles band_lo/band_hi, 0.1/0.9
 * or 0.05/0.95, of the fit's cross-validated residuals); a step row over
 * chips > 1 gets comm_s (the plan's collectives at the fitted comm_eff, as
 * (E) times them), collectives and latency_bound_collectives, the keys a
 * calibrated `step --chips N` row carries (tester11 #10).  The result's mode
 * becomes "fitted" with the engine's name and source.  Rows it cannot
 * re-time (a prefix) keep their values and the result says so.  Returns 0,
 * or -1 with err set. */
int rl_e2e_retime(cJSON *result, int prefill, const rl_model *m, const rl_hw *h, long long chips,
                  double kv_copies, rl_precision p, double band_lo, double band_hi, char *err,
                  size_t errlen);
