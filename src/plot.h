/* plot.h — figures through gnuplot: data file + script from a template, then PNG/SVG.
 *
 * Owns the figures the tool draws and how they are made: each figure writes
 * STEM.dat (whitespace-separated columns, SI-derived units named in the
 * header comment) and STEM.gp (a header setting the terminal, `datafile`,
 * `outfile` and the figure's variables, followed by the template
 * plots/NAME.gp; rerun it in its folder: `gnuplot STEM.gp`), then runs
 * gnuplot on the same script held in memory, with it, the data and the
 * output handed over as open descriptors (/dev/fd/5, 4, 3): the output is a
 * temporary file beside the figure, renamed into place when gnuplot
 * succeeds (no partial figure is ever left), and gnuplot opens nothing by
 * name, so a link planted or swapped in the output folder can neither
 * redirect a write nor feed it another script.  Every file is created
 * relative to the figure's open folder (`dir`, an open directory from
 * outdir.h, or AT_FDCWD for a command-line path).  The terminal follows the
 * figure's extension: .png (pngcairo) or .svg.  Where gnuplot is missing the
 * data and script are kept and the call says so.  Uses sweep, step, arch,
 * memory, roofline, ops, report (rl_write_atomic_at, rl_temp_at), interrupt,
 * spec (rl_data_find). */
#ifndef RL_PLOT_H
#define RL_PLOT_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "spec.h"
#include "step.h"
#include "sweep.h"

/* Returned when the data and script were written but gnuplot is not
 * installed (err says which files were kept). */
#define RL_PLOT_NO_GNUPLOT 1

/* Returned (below 0, so an error to every caller) when the data, script or
 * figure file could not be written or moved into place: an output failure
 * (exit 1, docs/hardening.md), not bad input (review23 M1). */
#define RL_PLOT_WRITE_FAILED (-2)

/* A figure drawn beside result j, one rule for every command (fixRC #9:
 * validate; fixSA #3: pareto printed nothing when gnuplot failed): `rc`,
 * what the figure function returned for `plot`; drawn (rc >= 0) names it
 * in j's "plot", a failure or note (rc != 0) puts err in j's "plot_note".
 * The result is printed whatever the figure did; 1 when it failed (rc
 * below 0: the caller exits 1 after printing), else 0. */
int rl_plot_outcome(cJSON *j, const char *plot, int rc, const char *err);

/* Write STEM.dat from `data`, STEM.gp from `vars` (gnuplot statements) and
 * plots/`tmpl`, and render `out` (.png or .svg), a path relative to the open
 * directory `dir` (AT_FDCWD: the working directory).  The figure functions
 * below take `dir` and `out` the same way.  Returns 0, RL_PLOT_NO_GNUPLOT,
 * RL_PLOT_WRITE_FAILED, or -1 with err set (unknown extension, quote in a
 * path, missing template, gnuplot error). */
int rl_plot_render(int dir, const char *tmpl, const char *out, const char *vars, const char *data, char *err,
                   size_t errlen);

/* rl_plot_render of a template whose one variable is `plottitle`, set to
 * `title` quoted as every title the figures write: single quotes with a
 * quote doubled and control characters made spaces, so any text (a model
 * name with a quote: tester38 F4) is drawn as given and can neither end
 * the string nor run as gnuplot commands. */
int rl_plot_render_titled(int dir, const char *tmpl, const char *out, const char *title,
                          const char *data, char *err, size_t errlen);

/* The same with gnuplot statements `more` after plottitle (the template's
 * other variables, e.g. which blocks hold rows). */
int rl_plot_render_titled_vars(int dir, const char *tmpl, const char *out, const char *title,
                               const char *more, const char *data, char *err, size_t errlen);

/* The side files of figure `out` (a path ending in .png or .svg, checked by
 * rl_plot_check_path): STEM.dat into dat and STEM.gp into gp (len bytes
 * each), in the figure's folder. */
void rl_plot_side_files(const char *out, char *dat, char *gp, size_t len);

/* Whether the side files of figure `out` may be written, checked before
 * any work as rendering checks them (a symbolic link at either, or a
 * NAME.gp roofline did not write, is refused; fixKK: found after the run,
 * exit 1, other figures written).  A missing folder passes.  0, or -1 with
 * err naming the file. */
int rl_plot_check_sides(const char *out, char *err, size_t errlen);

/* One curve of a frontier figure. */
typedef struct {
    const char *title;
    const rl_sweep_point *pts; /* in latency order (rl_pareto_front's order) */
    size_t n;
} rl_plot_series;

/* Check a figure path before any work: NAME.png or NAME.svg, no quotes or
 * newlines, short enough.  Returns 0 or -1 with err set (bad input). */
int rl_plot_check_path(const char *out, char *err, size_t errlen);

/* The model figures below (step, roofline, memory) take the plot's `title`;
 * NULL or "" keeps each figure's own title. */

/* Cost vs per-token latency, log-log, each point labelled C:B (chips:batch),
 * one curve per series (ESTI figure in seed 000 section 1).  Cost is USD per
 * million tokens when `usd` is set, else chip-milliseconds per token. */
int rl_plot_pareto(int dir, const char *out, const char *title, const rl_plot_series *s, int ns, int usd,
                   char *err, size_t errlen);

/* The frontier of each precision in prec[nprec] among the sweep's points
 * (not the overall frontier a pareto result's rows hold), one curve each,
 * keyed by its precision and mode (rl_result_sweep_mode over its points,
 * model md), through rl_plot_pareto (USD when the hardware is priced).
 * `said` (NULL: none) gets the curves, "<key>: <n> point(s)" joined by "; ". */
/* The mode every curve rl_plot_sweep_pareto draws reads, or NULL when the
 * curves differ (fixTE #3: the title named the rows' mode, estimated, over
 * calibrated curves). */
const char *rl_plot_sweep_curves_mode(const rl_model *md, const rl_hw *h, const rl_sweep *s,
                                      const rl_precision *prec, int nprec);
int rl_plot_sweep_pareto(int dir, const char *out, const char *title, const rl_model *md,
                         const rl_hw *h, const rl_sweep *s, const rl_precision *prec, int nprec,
                         char *said, size_t saidlen, char *err, size_t errlen);

/* Step time vs batch over `chips` chips for each context in ctx[nctx],
 * split into the terms of formula (1): parameter loading, KV loading (one
 * curve per context, ending where weights + KV exceed HBM), the attention
 * FLOPs beyond the KV read (attention_compute_s, step.h; one curve per
 * context, drawn where some point has it) and matmul FLOPs
 * time, with B > B_crit shaded as the
 * compute-bound region of the weight matmuls.  batch[nb] ascending. */
int rl_plot_step_breakdown(int dir, const char *out, const char *title, const rl_model *m,
                           const rl_hw *h, long long chips, rl_precision p, const long long *ctx, int nctx, const long long *batch,
                           int nb, char *err, size_t errlen);

/* Roofline chart of one chip: attainable FLOP/s = min(peak, I * BW) against
 * arithmetic intensity I (FLOPs/byte), log-log, with a decode step's
 * operators from ops.c placed on it: the weight matmuls summed per batch in
 * batch[nb], and (at the last batch) the attention and the elementwise
 * operators at `context`.  Abstract models (no operator list) are an error.
 * Source: seed 000 section 1 "Linear operations" and "What about attention?". */
int rl_plot_roofline(int dir, const char *out, const char *title, const rl_model *m,
                     const rl_hw *h, rl_precision p, const long long *batch, int nb, long long context, char *err, size_t errlen);

/* Memory stack vs batch at `context` over `chips` chips: weights, KV cache
 * and activations (rl_memory_activation_bytes) against the HBM capacity
 * line.  batch[nb] ascending. */
int rl_plot_memory(int dir, const char *out, const char *title, const rl_model *m,
                   const rl_hw *h, long long chips, rl_precision p, long long context, const long long *batch, int nb, char *err,
                   size_t errlen);

#endif
