/* e2e.c — end-to-end benchmark rows: predicted times, validate --against,
 * fit (see e2e.h). */
#include "e2e.h"

#include <ctype.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lualib.h>

#include "error.h"
#include "fit.h"
#include "memory.h"
#include "plot.h"
#include "progress.h"
#include "report.h"
#include "result.h"
#include "shard.h"

/* ---- the terms of a row ------------------------------------------------------ */

double rl_e2e_act_bytes(const rl_model *m, rl_precision p)
{
    return (double)m->layers * (double)m->d_model *
           rl_dtype_bytes(rl_shard_moved_dtype(p.compute));
}

/* The plan step times tp x ep x pp chips under (cli.c rl_cli_step): the
 * KV split beyond the K heads step takes by default, the engine's layout
 * (shard.h rl_kv_split_default: replicate, batch under --ideal; review37
 * H1: validate timed the batch split where step replicates). */
static rl_shard_plan step_plan(const rl_hw *h, long long tp, long long ep, long long pp)
{
    rl_shard_plan plan = rl_shard_plan_default();
    plan.tp = tp;
    plan.ep = ep;
    plan.pp = pp;
    plan.kv = rl_kv_split_default(h->ideal);
    return plan;
}

/* step's kv_split of row r: the KV layout beyond the K heads the row is
 * timed in (step_plan's, as step prints it; a prefill row's, which splits
 * no KV head beyond K, replicate; tester41 F4). */
static rl_kv_split timed_kv_split(const rl_model *mod, const rl_hw *h, const rl_meas_row *r)
{
    rl_shard_plan plan = step_plan(h, r->tp, r->ep, r->pp);
    return rl_shard_kv_layout(mod, &plan, r->phase != RL_MEAS_PREFILL).split;
}

/* Row r's kv_split cell (validate writes the column) against the layout
 * it is timed in: fit and validate time every row in step's default
 * layout (they take no --kv-split), so a row that says it ran in another
 * is refused (tester53 F5: the column was not read back).  0, or -1 with
 * err. */
static int row_kv_split(const rl_meas *m, const rl_model *mod, const rl_hw *h,
                        const rl_meas_row *r, char *err, size_t errlen)
{
    const char *timed = rl_kv_split_name(timed_kv_split(mod, h, r));
    if (!*r->kv_split || strcmp(r->kv_split, timed) == 0)
        return 0;
    snprintf(err, errlen, "%s:%d: column 'kv_split': '%s', but this row is timed with its KV "
             "%s beyond the K heads (step's layout for %s on %s tp %lld ep %lld pp %lld; fit and "
             "validate take no --kv-split): leave the cell empty to time it so", m->path,
             r->line, r->kv_split, timed, mod->name, h->name, r->tp, r->ep, r->pp);
    return -1;
}

/* The operator terms and launches of one step from its op list. */
static void fill_ops(rl_ec_step *s, const rl_ops *o)
{
    for (int i = 0; i < o->n; i++) {
        s->op_c[i] = o->op[i].layers * o->op[i].t.compute_s;
        s->op_m[i] = o->op[i].layers * o->op[i].t.memory_s;
        s->launches += o->op[i].layers;
    }
    s->nops = o->n;
}

/* Add `count` steps of configuration c: their operators, launches,
 * sequences and the plan's collectives. */
static int add_step(const rl_model *m, const rl_hw *h, const rl_ops_config *c, rl_phase ph,
                    long long batch, long long len, double count, rl_ec_terms *t, char *err,
                    size_t errlen)
{
    rl_ops o;
    if (rl_ops_check(m, h, c, err, errlen) != 0 || rl_ops_build(m, h, c, &o, err, errlen) != 0)
        return -1;
    rl_ec_step *s = &t->step[t->n++];
    s->count = count;
    s->prefill = ph == RL_PHASE_PREFILL;
    s->batch = (double)batch;
    s->act_bytes = ph == RL_PHASE_PREFILL
                       ? (double)batch * (double)len * rl_e2e_act_bytes(m, c->prec) : 0;
    s->ranks = ph == RL_PHASE_PREFILL ? (double)c->chips : 0;
    fill_ops(s, &o);
    if (c->chips > 1) {
        rl_shard_plan plan = step_plan(h, c->chips, 1, 1);
        rl_shard_result sr; /* the measured rows (rl_shard_eval's are the model's) */
        rl_precision moved = c->prec;
        moved.compute = rl_shard_moved_dtype(c->prec.compute);
        double tokens = (double)batch * (ph == RL_PHASE_PREFILL ? (double)len : 1.0);
        if (rl_shard_collectives(m, h, &plan, ph, tokens, moved, &sr, err, errlen) != 0)
            return -1;
        s->comm_s = sr.comm_s;
        s->ncoll = sr.ncoll;
        s->latency_bound = sr.latency_bound;
    }
    return 0;
}

/* The decode KV copies (e2e.h rl_e2e_kv_copies) row r's terms read: its
 * own when set (fitted_row: the caller's plan), else those of the layout
 * step times its tp in, the layout its kv_split names (row_json; review39
 * F8: a tp > K row was labelled replicate and timed with one copy). */
static double row_copies(const rl_model *m, const rl_hw *h, const rl_meas_row *r)
{
    return r->kv_copies > 0 ? r->kv_copies : rl_e2e_kv_copies(m, h, NULL, r->tp);
}

static int terms_on(const rl_model *m, const rl_hw *h, rl_precision p, const rl_meas_row *r,
                    rl_ec_terms *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    rl_ops_config c = rl_ops_config_default();
    c.chips = r->tp;
    c.prec = p;
    if (r->phase == RL_MEAS_DECODE) {
        c.decode_batch = r->batch;
        c.decode_context = r->context;
        c.kv_copies = row_copies(m, h, r); /* every copy is read (ops.h kv_copies) */
        return add_step(m, h, &c, RL_PHASE_GENERATE, r->batch, r->context, 1, out, err, errlen);
    }
    c.prefill_seqs = r->batch;
    c.prefill_tokens = r->tokens;
    if (add_step(m, h, &c, RL_PHASE_PREFILL, r->batch, r->tokens, 1, out, err, errlen) != 0)
        return -1;
    if (r->phase == RL_MEAS_PREFILL)
        return 0;
    /* static: `output` decode steps at their mean context (a step is linear
     * in the context it attends to) */
    rl_ops_config d = rl_ops_config_default();
    d.chips = r->tp;
    d.prec = p;
    d.decode_batch = r->batch;
    d.decode_context = r->tokens + r->output / 2;
    d.kv_copies = row_copies(m, h, r);
    return add_step(m, h, &d, RL_PHASE_GENERATE, r->batch, d.decode_context, (double)r->output, out,
                    err, errlen);
}

int rl_ec_terms_of(const rl_model *m, const rl_hw *h, rl_precision p, const rl_meas_row *r,
                   rl_ec_terms *out, char *err, size_t errlen)
{
    /* (E)'s collectives are NCCL's rows, no engine's own AllReduce
     * (collectives.h): the rows' serving stack is not named, and fitted
     * costs live under an engine of their own, which follows none */
    rl_hw *nccl = malloc(sizeof *nccl);
    if (!nccl) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    *nccl = *h;
    rl_coll_follow_engine(&nccl->collectives, NULL);
    int rc = terms_on(m, nccl, p, r, out, err, errlen);
    free(nccl);
    return rc;
}

/* What tp_excess multiplies in step s (enginecost.h): its decode TP
 * collectives, the pipeline's stage sends left out (tester29 F2); 0 for a
 * prefill step. */
static double tp_collectives_s(const rl_ec_step *s)
{
    return s->prefill ? 0 : s->comm_s - s->sends_s;
}

/* rl_ec_time, and with sides non-NULL the two sides of its max summed
 * over the steps: sides[0] the host's (step floor, launches, a prefill's ranks and the
 * per-sequence cost), sides[1] the device's (operators, collectives and
 * the prompt tokens' activation-byte cost). */
static double ec_eval(const rl_ec_terms *t, const double *x, double *grad, double *sides)
{
    double time = 0;
    if (sides)
        sides[0] = sides[1] = 0;
    if (grad)
        memset(grad, 0, RL_EC_N * sizeof *grad);
    for (int k = 0; k < t->n; k++) {
        const rl_ec_step *s = &t->step[k];
        rl_ec_param fixed = s->prefill ? RL_EC_PREFILL_STEP : RL_EC_DECODE_STEP;
        rl_ec_param comm = s->prefill ? RL_EC_PREFILL_COMM : RL_EC_COMM;
        double tpx = tp_collectives_s(s);
        double host = x[fixed] + x[RL_EC_LAUNCH] * s->launches + x[RL_EC_PREFILL_RANK] * s->ranks,
               dev = x[comm] * s->comm_s + x[RL_EC_TP_EXCESS] * tpx +
                     x[RL_EC_PREFILL_ACT] * s->act_bytes;
        double dc = 0, dm = 0; /* device time under the compute / memory term */
        for (int i = 0; i < s->nops; i++) {
            double c = s->op_c[i] * x[RL_EC_COMPUTE], m = s->op_m[i] * x[RL_EC_MEMORY];
            if (c > m)
                dc += s->op_c[i];
            else
                dm += s->op_m[i];
            dev += c > m ? c : m;
        }
        rl_ec_param seq = s->prefill ? RL_EC_PREFILL_SEQ : RL_EC_DECODE_SEQ;
        time += s->count * ((host > dev ? host : dev) + x[seq] * s->batch);
        if (sides) {
            sides[0] += s->count * (host + x[seq] * s->batch);
            sides[1] += s->count * dev;
        }
        if (!grad)
            continue;
        grad[seq] += s->count * s->batch;
        if (host > dev) {
            grad[fixed] += s->count;
            grad[RL_EC_LAUNCH] += s->count * s->launches;
            grad[RL_EC_PREFILL_RANK] += s->count * s->ranks;
        } else {
            grad[RL_EC_COMPUTE] += s->count * dc;
            grad[RL_EC_MEMORY] += s->count * dm;
            grad[comm] += s->count * s->comm_s;
            grad[RL_EC_TP_EXCESS] += s->count * tpx;
            grad[RL_EC_PREFILL_ACT] += s->count * s->act_bytes;
        }
    }
    return time;
}

double rl_ec_time(const rl_ec_terms *t, const double *x, double *grad)
{
    return ec_eval(t, x, grad, NULL);
}

/* ---- rows with their specs ---------------------------------------------------- */

#define MAX_SPECS 32

typedef struct {
    int n;                     /* rows kept */
    const rl_meas_row **row;   /* [n] */
    rl_ec_terms *t;            /* [n] */
    double *floor_s;           /* [n] roofline floor, seconds (ideal_time: step --ideal's) */
    double *meas_s;            /* [n] measured time, seconds (rl_meas_time) */
    int *hw;                   /* [n] index into hws */
    int *model;                /* [n] index into models */
    rl_precision *prec;        /* [n] the row's precision (command line and columns) */
    int nhw, nmodel;
    rl_hw *hws;                /* [MAX_SPECS], on the heap: 32 specs are ~2 MB */
    char hw_names[MAX_SPECS][256];
    rl_model *models;          /* [MAX_SPECS] */
    char model_names[MAX_SPECS][256];
    int beyond;                /* rows left out beyond their model's max_context */
    char beyond_first[1024];   /* the first of them, as a sentence */
    int engine_over;           /* validate: rows whose engine cell overrode --engine */
    char engine_over_first[320]; /* the first of them, as a phrase */
    int other;                 /* rows left out of another chip or engine (fit) */
    char other_first[1024];    /* the first of them, as a sentence */
    const char *engine;        /* validate --engine: selected on each hw spec as it loads */
    int row_engines;           /* validate: a row's engine column selects its engine */
    char hw_engines[MAX_SPECS][64]; /* the engine each hw spec selected ("": its default) */
    int *conf;                 /* [n] fit: resolved configuration id (resolve_configs), 0-based */
} rows;

static void rows_free(rows *r)
{
    free(r->row);
    free(r->t);
    free(r->floor_s);
    free(r->meas_s);
    free(r->hw);
    free(r->model);
    free(r->prec);
    free(r->conf);
    free(r->hws);
    free(r->models);
}

/* The index of spec `name` in the cache, loading it on first use; -1 with
 * err "FILE:LINE: column 'COL': reason" (or "--model"/"--hw" when the name
 * came from the command line). */
static int spec_index(rows *rs, int is_hw, const char *name, const rl_e2e_opts *o,
                      const rl_meas_row *r, const rl_meas *m, int from_column, char *err,
                      size_t errlen)
{
    int *n = is_hw ? &rs->nhw : &rs->nmodel;
    char(*names)[256] = is_hw ? rs->hw_names : rs->model_names;
    const char *file = m->path;
    /* the engine a hw spec selects: the row's engine column (validate,
     * tester44 F11: a row labelled vllm was timed by --engine's or the
     * default's tables), else --engine, else the spec's default ("") */
    int own = is_hw && rs->row_engines && *rl_meas_row_engine(r); /* the row's engine column */
    const char *engine = own ? rl_meas_row_engine(r) : !is_hw ? "" : rs->engine ? rs->engine : "";
    for (int i = 0; i < *n; i++)
        if (strcmp(names[i], name) == 0 && (!is_hw || strcmp(rs->hw_engines[i], engine) == 0))
            return i;
    char e[1024];
    const char *col = is_hw ? "hw" : "model";
    if (*n == MAX_SPECS) {
        snprintf(err, errlen, "%s:%d: column '%s': more than %d different %s specs", file, r->line,
                 col, MAX_SPECS, col);
        return -1;
    }
    int rc = is_hw ? rl_hw_load(name, o->sets[1], o->nsets[1], &rs->hws[*n], e, sizeof e)
                   : rl_model_load(name, o->sets[0], o->nsets[0], &rs->models[*n], e, sizeof e);
    if (rc == 0 && !is_hw && rs->models[*n].abstract) {
        snprintf(e, sizeof e, "%s: an abstract model has no operators to cost", name);
        rc = -1;
    }
    if (rc != 0) {
        if (from_column)
            snprintf(err, errlen, "%s:%d: column '%s': %s", file, r->line, col, e);
        else
            snprintf(err, errlen, "%s:%d: --%s: %s", file, r->line, col, e);
        return -1;
    }
    /* validate --engine E: the spec times its rows with engine E, as step
     * --engine E does, from the first term on (tester41 F5: the terms were
     * built before --engine ideal was selected, so a tp row's collectives
     * were the chip's measured NCCL rows, 25-35% above step --ideal's
     * alpha-beta model) */
    if (is_hw && *engine && rl_hw_select_engine(&rs->hws[*n], engine, e, sizeof e) != 0) {
        /* the option for its "engine: " (it read "--engine: engine: ...") */
        const char *why = strncmp(e, "engine: ", 8) ? e : e + 8;
        if (own)
            snprintf(err, errlen, "%s:%d: column 'engine' (column %d): %s", file, r->line,
                     m->engine_col, why);
        else
            snprintf(err, errlen, "--engine: %s", why);
        return -1;
    }
    if (is_hw)
        snprintf(rs->hw_engines[*n], sizeof rs->hw_engines[0], "%s", engine);
    if (is_hw && o->hw_smoke_test && rs->hws[*n].smoke_test && o->hw && strcmp(name, o->hw) == 0)
        *o->hw_smoke_test = 1;
    snprintf(names[*n], sizeof names[0], "%s", name);
    return (*n)++;
}

/* The precision of row r: the command line's, overridden by its columns. */
static int row_precision(const rl_meas_row *r, rl_precision *p, const char *file, char *err,
                         size_t errlen)
{
    const char *cell[3] = {r->weights, r->kv, r->compute}, *col[3] = {"weights", "kv", "compute"};
    rl_dtype *dst[3] = {&p->weights, &p->kv, &p->compute};
    for (int i = 0; i < 3; i++)
        if (*cell[i] && rl_dtype_parse(cell[i], dst[i]) != 0) {
            snprintf(err, errlen, "%s:%d: column '%s': unknown dtype '%s' (one of %s)", file,
                     r->line, col[i], cell[i], rl_dtype_list());
            return -1;
        }
    return 0;
}

/* A row whose weights, or weights and the KV cache of its batch, exceed the
 * HBM of a chip of its plan (the vendor's capacity, spec hbm_bytes: the
 * most lenient bound, no engine memory rule or reserve: a measured row may
 * have run its engine at a larger memory fraction than the profile's)
 * describes a configuration that cannot run, a wrong tp, ep, pp, weights,
 * batch, context or hw column: bad input.  Judged per chip, as step judges
 * `fits` (tester45 F7: the sum over the row's GPUs accepted deepseek-v3 fp8
 * ep8 on H100, whose chips each hold the attention, shared experts and
 * embeddings whole beside their 1/8 of the routed experts, 100.8 GB a
 * chip): what rl_shard_eval stores on a chip of the row's plan (step_plan,
 * the plan step --tp --ep --pp prints), a pipeline's each stage in its own
 * room (rl_shard_stage_room), its KV in the plan's layout (beyond the K
 * heads: replicate, each token's KV on tp / K chips, or batch under
 * --ideal).  The KV cache is each sequence's at the end of the row's work
 * (decode: its context; prefill: its tokens; static: tokens + output),
 * all batch sequences at once: a running sequence's KV blocks are in GPU
 * memory at every step, and one whose blocks do not fit is preempted
 * (swapped out or recomputed), not run (Kwon et al., "Efficient Memory
 * Management for Large Language Model Serving with PagedAttention", SOSP
 * 2023, sec. 4.5), and the row's prediction times the batch as one
 * (tester15 F-csv-2: batch 100000 at context 8192, 107 TB of KV on one 80
 * GB H100, was scored).  Windowed layers count their window (memory.h,
 * ideal view).  Returns 0, or -1 with err naming file and line. */
long long rl_e2e_row_seq(const rl_meas_row *r)
{
    return r->phase == RL_MEAS_DECODE ? r->context : r->tokens + r->output;
}

int rl_e2e_row_chip(const rl_meas_row *r, const rl_model *mod, const rl_hw *h, rl_precision p,
                    rl_shard_result *s, char *err, size_t errlen)
{
    rl_hw *v = malloc(sizeof *v);
    if (!v) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    *v = *h; /* a shallow copy, read only: the vendor's HBM, whole */
    v->engines.sel = -1;
    v->hbm_reserve = 0;
    rl_shard_plan plan = step_plan(h, r->tp, r->ep, r->pp);
    int rc = rl_shard_eval(mod, v, &plan,
                           r->phase == RL_MEAS_PREFILL ? RL_PHASE_PREFILL : RL_PHASE_GENERATE,
                           r->tp * r->ep * r->pp, r->batch, rl_e2e_row_seq(r), p, s, err, errlen);
    free(v);
    return rc;
}

static int row_fits(const rl_meas_row *r, const rl_model *mod, const rl_hw *h, rl_precision p,
                    const char *file, char *err, size_t errlen)
{
    long long seq = rl_e2e_row_seq(r);
    char e[512];
    rl_shard_result *s = malloc(sizeof *s);
    if (!s || rl_e2e_row_chip(r, mod, h, p, s, e, sizeof e) != 0) {
        snprintf(err, errlen, "%s:%d: %s", file, r->line, s ? e : "out of memory");
        free(s);
        return -1;
    }
    if (s->fits) {
        free(s);
        return 0;
    }
    char gpus[96]; /* "tp 2", or the row's GPUs over its pipeline and expert groups */
    if (r->pp > 1 || r->ep > 1)
        snprintf(gpus, sizeof gpus, "tp %lld ep %lld pp %lld (%lld GPUs)", r->tp, r->ep, r->pp,
                 r->tp * r->ep * r->pp);
    else
        snprintf(gpus, sizeof gpus, "tp %lld", r->tp);
    /* what a chip holds beyond an even share (shard.c plan_weights) */
    const char *whole = r->ep > 1 ? ": its 1/tp of the attention, shared experts and "
                                    "embeddings, which each of the ep groups holds, beside its "
                                    "share of the routed experts"
                      : r->tp > 1 ? ": its share of the sharded weights beside those TP keeps "
                                    "whole on every chip"
                                  : "";
    const char *stage = r->pp > 1 ? ", its heaviest pipeline stage's" : "";
    char usable[128] = "", held[96] = ""; /* the engine's room; the KV copies, said */
    double room = rl_shard_chip_room(mod, h, s);
    if (room < h->hbm_bytes)
        snprintf(usable, sizeof usable, "; %.1f GB of it usable under %s's memory rule", room / 1e9,
                 rl_engines_selected(&h->engines) ? rl_engines_selected(&h->engines)->name
                                                  : "the reserve");
    /* the layout the row is timed in (step_plan), its KV copies */
    rl_kv_layout k = rl_shard_kv_layout(mod, &s->plan, r->phase != RL_MEAS_PREFILL);
    if (k.copies > 1)
        snprintf(held, sizeof held, " (each token's KV on %.0f chips: --kv-split %s beyond the "
                 "K heads, as step)", k.copies, rl_kv_split_name(k.split));
    if (!(s->kv_room >= 0))
        snprintf(err, errlen, "%s:%d: column '%s': %s's %s weights on each chip of %s x %s "
                 "(%.1f GB a chip%s%s) exceed a chip's HBM (%.1f GB%s): a configuration that "
                 "cannot run (check the row's tp, ep, pp, weights and hw)", file, r->line,
                 r->ep > 1 ? "ep" : r->pp > 1 ? "pp" : "tp", mod->name, rl_dtype_name(p.weights),
                 gpus, h->name, s->weight_bytes / 1e9, stage, whole, h->hbm_bytes / 1e9, usable);
    else
        snprintf(err, errlen, "%s:%d: column 'batch': %lld sequences of %lld tokens put %.4g GB "
                 "of %s KV cache on a chip%s, with %.1f GB of %s weights more than a chip's HBM "
                 "(%.1f GB%s) on %s x %s: a configuration that cannot run (check the row's batch, "
                 "%s, tp, ep, pp, kv and hw)", file, r->line, r->batch, seq, s->kv_bytes / 1e9,
                 rl_dtype_name(p.kv), held, s->weight_bytes / 1e9, rl_dtype_name(p.weights),
                 h->hbm_bytes / 1e9, usable, gpus, h->name,
                 r->phase == RL_MEAS_DECODE ? "context" : "tokens");
    free(s);
    return -1;
}

/* The index of chip `name` loaded with no engine selected: whether the
 * --hw profile serves a row (serves) is a question about chips; the row's
 * engine is the profile's (tester52 F1: a row of fit's own CSV, engine
 * splitwise_h100 on h100-sxm, was refused by validate --hw P.lua, the
 * profile fit saved, as the bare h100-sxm preset carries no such engine). */
static int chip_index(rows *rs, const char *name, const rl_e2e_opts *o, const rl_meas_row *r,
                      const rl_meas *m, int from_column, char *err, size_t errlen)
{
    rl_meas_row plain = *r;
    plain.engine[0] = 0;
    const char *engine = rs->engine;
    rs->engine = NULL;
    int i = spec_index(rs, 1, name, o, &plain, m, from_column, err, errlen);
    rs->engine = engine;
    return i;
}

/* Whether profile p serves the rows measured on chip x (the rule fit and
 * validate --against share, docs/model.md): p is x, or a profile of x's
 * chip, named x's name and '-' something (`fit --save` names its profile
 * BASE-ENGINE) with x's datasheet figures (HBM capacity and bandwidth, every
 * dtype's peak FLOP/s). */
static int serves(const rl_hw *p, const rl_hw *x)
{
    size_t n = strlen(x->name);
    if (strcmp(p->name, x->name) == 0)
        return 1;
    if (strncmp(p->name, x->name, n) != 0 || p->name[n] != '-' || p->hbm_bytes != x->hbm_bytes ||
        p->hbm_bw != x->hbm_bw)
        return 0;
    for (int d = 0; d < RL_DTYPE_COUNT; d++)
        if (p->flops[d] != x->flops[d])
            return 0;
    return 1;
}

/* Load the rows of m: every row, or with only_hw / only_engine set, the rows
 * whose hardware spec has that name and whose engine column is empty or
 * that engine.  A row whose hw column names the chip the --hw profile serves
 * (serves()) is predicted by that profile; a row of another chip by its own
 * spec.  Returns 0, or -1 with err set. */
/* A measured time below RL_E2E_FLOOR_MARGIN times its roofline floor (the
 * row's terms at ideal costs: datasheet peaks, efficiencies 1, no
 * overheads) is not a timing of that configuration (tester7 #9: every row
 * at 1 ms, 20x below 70B's HBM floor on tp2, was fitted with no warning and
 * then failed in the writer).  The margin, our choice, leaves timer noise
 * of a row at its floor room.  0, or -1 with err naming the row. */
#define RL_E2E_FLOOR_MARGIN 0.9

/* The roofline floor of a row's terms t: their time at ideal costs
 * (datasheet peaks, efficiencies 1, no overheads). */
static double roofline_floor(const rl_ec_terms *t)
{
    rl_engine_costs c = rl_engine_costs_ideal();
    double x[RL_EC_N];
    rl_ec_to_x(&c, x);
    return rl_ec_time(t, x, NULL);
}

/* A fitted band's low edge `low` about estimate est, held at the
 * configuration's roofline floor floor_s (tester38 F1: step_s_low 3.29 ms
 * under 4.52 ms of weight and KV reads, while a measurement that fast is
 * refused): the one rule of every band, as kernel tables' (ops.c clamps each
 * operator's low edges at its own roofline; docs/model.md).  Never above
 * the estimate: a band holds it (rl_ec_band). */
static double floored_low(double est, double low, double floor_s)
{
    return fmin(est, fmax(low, floor_s));
}

/* A row laid out beyond one tensor-parallel group (issue 13 item 1: the
 * optional pp and ep columns).  Such a row is predicted by the paths
 * `step --tp TP --pp PP --ep EP` and `prefill --tp TP --ep EP` take
 * (layout_time); fit refuses it (no_layout_rows). */
static int laid_out(const rl_meas_row *r) { return r->pp > 1 || r->ep > 1; }

/* The err of a row's layout: "FILE:LINE: column 'C' (column N): reason"
 * when e opens with the degree it is about ("tp: ", "pp: ", "ep: ": the
 * plan's checks, shard.c check_plan, and ops.c's), else "FILE:LINE: e". */
static void layout_error(const rl_meas *m, const rl_meas_row *r, const char *e, char *err,
                         size_t errlen)
{
    static const char *const name[3] = {"tp", "pp", "ep"};
    const int col[3] = {m->tp_col, m->pp_col, m->ep_col};
    for (int k = 0; k < 3; k++)
        if (col[k] > 0 && strncmp(e, name[k], 2) == 0 && e[2] == ':') {
            snprintf(err, errlen, "%s:%d: column '%s' (column %d): %s %s", m->path, r->line,
                     name[k], col[k], name[k], e + 3 + (e[3] == ' '));
            return;
        }
    snprintf(err, errlen, "%s:%d: %s", m->path, r->line, e);
}

static int layout_floor(const rl_meas *m, const rl_model *mod, const rl_hw *h, rl_precision p,
                        const rl_meas_row *r, double *floor_s, char *err, size_t errlen);
static double ideal_time(const rl_model *mod, const rl_hw *h, rl_precision p,
                         const rl_meas_row *r, char *e, size_t en);

/* Row r's degrees against its model before anything is built for them
 * (review37 H2: a decode row with pp 1e9, which measure.c's count rule
 * takes, built one stage entry per pp before the plan check and ran out of
 * memory; tp * ep * pp of 1e9 each overflowed row_fits' product): the
 * GPUs tp x ep x pp at most RL_MAX_ROW_GPUS (checked in double before any
 * product in long long), then the plan's own checks (shard.h
 * rl_shard_check_plan: pp <= layers, ep dividing the experts, ...).  0,
 * or -1 with err naming file, line and column. */
#define RL_MAX_ROW_GPUS 1e9 /* measure.c's count range: a row's GPUs as one count */
static int row_degrees(const rl_meas *m, const rl_model *mod, const rl_hw *h,
                       const rl_meas_row *r, char *err, size_t errlen)
{
    if (!laid_out(r))
        return 0;
    char e[512];
    double gpus = (double)r->tp * (double)r->ep * (double)r->pp;
    if (gpus > RL_MAX_ROW_GPUS) {
        snprintf(e, sizeof e, "%s: %lld makes tp x ep x pp = %lld x %lld x %lld = %.4g GPUs, "
                 "more than %.0e (the range of a count)", r->pp >= r->ep ? "pp" : "ep",
                 r->pp >= r->ep ? r->pp : r->ep, r->tp, r->ep, r->pp, gpus, RL_MAX_ROW_GPUS);
        layout_error(m, r, e, err, errlen);
        return -1;
    }
    rl_shard_plan plan = step_plan(h, r->tp, r->ep, r->pp);
    if (rl_shard_check_plan(mod, &plan,
                            r->phase == RL_MEAS_PREFILL ? RL_PHASE_PREFILL : RL_PHASE_GENERATE,
                            r->tp * r->ep * r->pp, e, sizeof e) != 0) {
        layout_error(m, r, e, err, errlen);
        return -1;
    }
    return 0;
}

static int load_rows(const rl_meas *m, const rl_e2e_opts *o, const char *only_hw,
                     const char *only_engine, const char *engine, rows *rs, char *err,
                     size_t errlen)
{
    memset(rs, 0, sizeof *rs);
    rs->engine = engine;
    rs->row_engines = !only_hw; /* validate's rows; fit's are one engine's (one_engine) */
    rs->row = malloc((size_t)m->n * sizeof *rs->row);
    rs->t = malloc((size_t)m->n * sizeof *rs->t);
    rs->floor_s = malloc((size_t)m->n * sizeof *rs->floor_s);
    rs->meas_s = malloc((size_t)m->n * sizeof *rs->meas_s);
    rs->hw = malloc((size_t)m->n * sizeof *rs->hw);
    rs->model = malloc((size_t)m->n * sizeof *rs->model);
    rs->prec = malloc((size_t)m->n * sizeof *rs->prec);
    rs->hws = malloc(MAX_SPECS * sizeof *rs->hws);
    rs->models = malloc(MAX_SPECS * sizeof *rs->models);
    if (!rs->row || !rs->t || !rs->floor_s || !rs->meas_s || !rs->hw || !rs->model || !rs->prec || !rs->hws ||
        !rs->models) {
        snprintf(err, errlen, "%s: out of memory", m->path);
        return -1;
    }
    for (int i = 0; i < m->n; i++) {
        const rl_meas_row *r = &m->row[i];
        const char *mname = *r->model ? r->model : o->model, *hname = *r->hw ? r->hw : o->hw;
        if (!mname || !hname) {
            snprintf(err, errlen, "%s:%d: no %s: give --%s or a '%s' column", m->path, r->line,
                     mname ? "hardware" : "model", mname ? "hw" : "model", mname ? "hw" : "model");
            return -1;
        }
        /* the --hw profile is asked whether it serves the row's chip with no
         * engine selected, and the row's engine resolved on the spec that
         * times it: the profile when it serves the chip, else the row's own
         * hw (tester59 F1: a splitwise row on h100-sxm-splitwise was refused
         * as --hw a100-sxm-80g "carries no engine 'splitwise'") */
        /* a hw cell naming the --hw profile's own name (a fitted
         * profile's h100-sxm-myeng, which validate --format csv writes in
         * its rows) is that profile, as the help says (tester63 #4: it was
         * looked up as a preset, "unknown hardware") */
        int pi = -1;
        if (o->hw && *r->hw) {
            if ((pi = chip_index(rs, o->hw, o, r, m, 0, err, errlen)) < 0)
                return -1;
            if (strcmp(rs->hws[pi].name, r->hw) == 0)
                hname = o->hw;
        }
        int ci = chip_index(rs, hname, o, r, m, *r->hw != 0 && hname != o->hw, err, errlen);
        int mi = ci < 0 ? -1 : spec_index(rs, 0, mname, o, r, m, *r->model != 0, err, errlen);
        pi = mi < 0 || !o->hw ? -1 : chip_index(rs, o->hw, o, r, m, 0, err, errlen);
        if (mi < 0 || (o->hw && pi < 0))
            return -1;
        int hi = pi >= 0 && serves(&rs->hws[pi], &rs->hws[ci])
                     ? spec_index(rs, 1, o->hw, o, r, m, 0, err, errlen)
                     : spec_index(rs, 1, hname, o, r, m, *r->hw != 0, err, errlen);
        if (hi < 0)
            return -1;
        int other_hw = only_hw && strcmp(rs->hws[hi].name, only_hw) != 0;
        const char *re = rl_meas_row_engine(r);
        /* a row's engine cell selects its engine over --engine (spec_index;
         * tester63 #5: trt.csv's trtllm rows on --engine trtllm-fit read
         * calibrated by the trtllm tables, unsaid): counted, said */
        if (rs->row_engines && rs->engine && *re && strcmp(re, rs->engine) != 0 &&
            !rs->engine_over++)
            snprintf(rs->engine_over_first, sizeof rs->engine_over_first,
                     "the first: line %d's '%.64s'", r->line, re);
        if (other_hw || (only_engine && *re && strcmp(re, only_engine) != 0)) {
            if (!rs->other++) /* tester31 F3: a typo in a hw column shrank the fit unsaid */
                snprintf(rs->other_first, sizeof rs->other_first, "line %d's %s '%.200s' is not "
                         "%s's '%.200s'", r->line, other_hw ? "hw" : "engine",
                         other_hw ? hname : r->engine, other_hw ? "--hw" : "--engine",
                         other_hw ? only_hw : only_engine);
            continue;
        }
        const rl_model *mod = &rs->models[mi];
        if (mod->max_context > 0 && rl_e2e_row_seq(r) > mod->max_context) {
            if (!rs->beyond++) /* tester18 F11: measured, so not bad input; left out, said */
                snprintf(rs->beyond_first, sizeof rs->beyond_first, "line %d holds %lld tokens, "
                         "%.200s's max_context is %lld (%.400s)", r->line, rl_e2e_row_seq(r), mod->name,
                         mod->max_context, mod->origin);
            continue;
        }
        rl_precision p = o->prec;
        char e[1024];
        if (row_precision(r, &p, m->path, err, errlen) != 0 ||
            row_degrees(m, &rs->models[mi], &rs->hws[hi], r, err, errlen) != 0 ||
            row_fits(r, &rs->models[mi], &rs->hws[hi], p, m->path, err, errlen) != 0 ||
            row_kv_split(m, &rs->models[mi], &rs->hws[hi], r, err, errlen) != 0)
            return -1;
        /* (E)'s terms time one TP group: an EP row has none (layout_time
         * times it), a pipeline's are one stage's pass (layout_prefill) */
        memset(&rs->t[rs->n], 0, sizeof rs->t[rs->n]);
        if (r->ep == 1 &&
            rl_ec_terms_of(&rs->models[mi], &rs->hws[hi], p, r, &rs->t[rs->n], e, sizeof e) != 0) {
            if (laid_out(r))
                layout_error(m, r, e, err, errlen);
            else
                snprintf(err, errlen, "%s:%d: %s", m->path, r->line, e);
            return -1;
        }
        /* every row's floor is step --ideal's time of it (layout_floor;
         * fixAA: a tp row's (E) terms at ideal costs kept the chip's
         * measured NCCL AllReduce times, a floor of 8.15 ms for a 70B TP8
         * decode step --ideal times at 5.52 ms, refusing a measured 7 ms) */
        if (layout_floor(m, &rs->models[mi], &rs->hws[hi], p, r, &rs->floor_s[rs->n], err,
                         errlen) != 0)
            return -1;
        rs->row[rs->n] = r;
        rs->meas_s[rs->n] = rl_meas_time(r);
        rs->hw[rs->n] = hi;
        rs->model[rs->n] = mi;
        rs->prec[rs->n] = p;
        rs->n++;
    }
    return 0;
}

/* The model_note of a fit on rs: rows whose 'model' column names another
 * model than --model are fitted on their own (the CSV's columns override the
 * command line, issue 13 item 1), which a --model given for all of them
 * hid (tester83 #3: --model llama2-70b fitted 64 bloom-176b rows beside 62
 * of llama2-70b without a word). */
static void add_model_note(cJSON *res, const rows *rs, const char *model)
{
    if (!model)
        return;
    int other = 0;
    const char *first = NULL;
    for (int i = 0; i < rs->n; i++)
        if (*rs->row[i]->model && strcmp(rs->row[i]->model, model) != 0) {
            first = first ? first : rs->row[i]->model;
            other++;
        }
    if (!other)
        return;
    rl_result_add_fmt(res, "model_note", "%d of %d fitted rows name their own model in the "
                      "CSV's 'model' column (the first: %s), which overrides --model %s for them: "
                      "the profile is fitted on %s", other, rs->n, first, model,
                      cJSON_GetStringValue(cJSON_GetObjectItem(res, "models")));
}

/* The left_out_note of a fit or validate result on rs: rows beyond their
 * model's context and rows of another chip or engine, which load_rows
 * leaves out, each kind with its first row. */
static void add_beyond_note(cJSON *res, const rows *rs, const char *file)
{
    if (!rs->beyond && !rs->other)
        return;
    char *beyond = !rs->beyond ? NULL
                               : rl_result_fmt("%d row%s left out: longer than the model's "
                                               "max_context (the first: %s); to keep them, raise "
                                               "it with --set model.max_context=N", rs->beyond,
                                               rs->beyond == 1 ? "" : "s", rs->beyond_first);
    char *other = !rs->other ? NULL
                             : rl_result_fmt("%d row%s left out: of another chip or engine (the "
                                             "first: %s); a fit reads --hw's chip and --engine's "
                                             "rows only", rs->other, rs->other == 1 ? "" : "s",
                                             rs->other_first);
    rl_result_add_fmt(res, "left_out_note", "%.600s: %s%s%s", file, beyond ? beyond : "",
                      beyond && other ? "; " : "", other ? other : "");
    free(beyond);
    free(other);
}

/* A row of the result: the configuration it was timed as (the command
 * line's model, hw, precision and engine as the row's columns override
 * them: the model and hw specs loaded, the dtypes, `engine` the engine
 * that timed it, tp, ep, pp and kv_split; audit31 finding 4) and its
 * measured time. */
static cJSON *row_json(const rl_meas_row *r, const rl_model *mod, const rl_hw *h,
                       rl_precision p, const char *engine, double meas_s, double pred_s)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "line", r->line);
    cJSON_AddStringToObject(o, "phase", rl_meas_phase_name(r->phase));
    cJSON_AddStringToObject(o, "model", mod->name);
    cJSON_AddStringToObject(o, "hw", h->name);
    cJSON_AddStringToObject(o, "engine", engine);
    cJSON_AddStringToObject(o, "weights", rl_dtype_name(p.weights));
    cJSON_AddStringToObject(o, "kv", rl_dtype_name(p.kv));
    cJSON_AddStringToObject(o, "compute", rl_dtype_name(p.compute));
    cJSON_AddNumberToObject(o, "tp", (double)r->tp);
    cJSON_AddNumberToObject(o, "ep", (double)r->ep);
    cJSON_AddNumberToObject(o, "pp", (double)r->pp);
    cJSON_AddStringToObject(o, "kv_split", rl_kv_split_name(timed_kv_split(mod, h, r)));
    cJSON_AddNumberToObject(o, "batch", (double)r->batch);
    cJSON_AddNumberToObject(o, "context", (double)r->context);
    cJSON_AddNumberToObject(o, "tokens", (double)r->tokens);
    cJSON_AddNumberToObject(o, "output", (double)r->output);
    cJSON_AddNumberToObject(o, "measured_s", meas_s);
    cJSON_AddNumberToObject(o, "predicted_s", pred_s);
    return o;
}

static void add_summary(cJSON *o, const char *prefix, const double *e, int n)
{
    rl_fit_summary s = rl_fit_summarize(e, n);
    char k[64];
    const char *key[] = {"median_abs_error", "p90_abs_error", "max_abs_error", "bias"};
    double v[] = {s.median_abs, s.p90_abs, s.max_abs, s.bias};
    for (int i = 0; i < 4; i++) {
        snprintf(k, sizeof k, "%s%s", prefix, key[i]);
        cJSON_AddNumberToObject(o, k, v[i]);
    }
}

/* The shape of row r on the grid's axes (0 where an axis does not apply). */
static void shape_of(const rl_meas_row *r, double *v)
{
    v[RL_EC_TP] = (double)r->tp;
    v[RL_EC_BATCH] = (double)r->batch;
    v[RL_EC_CONTEXT] = r->phase == RL_MEAS_DECODE   ? (double)r->context
                       : r->phase == RL_MEAS_STATIC ? (double)(r->tokens + r->output / 2)
                                                    : 0;
    v[RL_EC_TOKENS] = (double)r->tokens;
}

/* The host and device sides of row r's time under (E) with parameters x
 * (ec_eval of its terms on model m, hardware h, precision p) into
 * sides[2]; -1 when its terms cannot be built, else 0. */
static int row_sides(const rl_model *m, const rl_hw *h, rl_precision p, const rl_meas_row *r,
                     const double *x, double *sides)
{
    rl_ec_terms t;
    char e[512];
    if (rl_ec_terms_of(m, h, p, r, &t, e, sizeof e) != 0)
        return -1;
    ec_eval(&t, x, NULL, sides);
    return 0;
}

/* Row r with shape axis a (rl_ec_axis) set to v: 0, or -1 where the axis
 * is no column of r (a static row's context, the mean of its prompt and
 * output, shape_of). */
static int row_with(rl_meas_row *r, int a, long long v)
{
    if (a == RL_EC_CONTEXT && r->phase == RL_MEAS_STATIC)
        return -1;
    *(a == RL_EC_TP ? &r->tp : a == RL_EC_BATCH ? &r->batch : a == RL_EC_CONTEXT ? &r->context
                                                                                  : &r->tokens) = v;
    return 0;
}

/* Octaves between two positive times (0 unless both are). */
static double octaves_between(double a, double b)
{
    return a > 0 && b > 0 ? fabs(log2(a / b)) : 0;
}

/* How far row r lies outside c's fitted grid, per axis, in the octaves
 * rl_ec_band widens by, into o[RL_EC_AXES] (stop 22, tester8 #3, fixR's
 * proposal).  Above the grid the input's octaves (rl_ec_octaves).  Below
 * it no more than the estimate moves over the extrapolated part of the
 * axis: min(octaves, the larger move of its two sides), the move of a side
 * |log2(s(r) / s(r'))| with s the host or the device side of (E) at
 * parameters x and r' the row with that axis at the grid's smallest value.
 * Each side, not their max: a side the max hides may be the one that
 * moves (fitted on TP4 and TP8, a host-bound TP2 decode step keeps its
 * time while its device side doubles, and it measures 20-30% slower).  A
 * context or batch below the grid where neither side moves is the regime
 * the fit measured, its terms shrinking toward a measured floor; above
 * the grid a cost (E) has no term for can appear (SplitwiseSim's TP8
 * prefill jump per token, docs/validation.md), which no side's move
 * foretells, so there the input's octaves stay (measured both ways:
 * docs/validation.md).  Where r' is no row (a static row's context) or
 * its terms cannot be built, the input's octaves.  0 inside.  Returns the
 * sum. */
static double moved_octaves(const rl_engine_costs *c, const rl_model *m, const rl_hw *h,
                            rl_precision p, const rl_meas_row *r, const double *x, double *o)
{
    double v[RL_EC_AXES], s[2], sq[2];
    shape_of(r, v);
    double sum = rl_ec_octaves(c, v, o);
    int below = 0;
    for (int a = 0; a < RL_EC_AXES; a++)
        below |= o[a] > 0 && v[a] < c->grid[a][0];
    if (!below || row_sides(m, h, p, r, x, s) != 0)
        return sum;
    sum = 0;
    for (int a = 0; a < RL_EC_AXES; a++) {
        rl_meas_row q = *r;
        if (o[a] > 0 && v[a] < c->grid[a][0] && row_with(&q, a, (long long)c->grid[a][0]) == 0 &&
            row_sides(m, h, p, &q, x, sq) == 0)
            o[a] = fmin(o[a], fmax(octaves_between(s[0], sq[0]), octaves_between(s[1], sq[1])));
        sum += o[a];
    }
    return sum;
}

int rl_e2e_what_if_band(const rl_hw *h, char *why, size_t n)
{
    if (!rl_hw_what_if_of(h))
        return 0;
    const char *of = rl_hw_tables_chip(h, *h->renamed_from ? h->renamed_from : h->name);
    rl_mark_cut(why, n, snprintf(why, n, "a what-if of %s's %s (%s): the band's residuals were measured "
                                 "on that chip's figures, not on these", of,
                                 h->engine_costs.present ? "fitted costs" : "tables", h->changed));
    return 1;
}

/* The band's log quantiles of costs c for quantiles band_lo/band_hi at row
 * r (model m on h at precision p), widened by how far its estimate moves
 * outside the fitted grid (moved_octaves, rl_ec_band).  Returns 1, with
 * why set, where c gives the row no band (rl_ec_no_band; lo and hi are
 * still the widened band, which a band edge of simulate and size --conservative
 * moves to), else 0. */
static int band_of(const rl_engine_costs *c, double band_lo, const rl_model *m, const rl_hw *h,
                   rl_precision p, const rl_meas_row *r, double *lo, double *hi, char *why,
                   size_t n)
{
    double x[RL_EC_N], o[RL_EC_AXES], v[RL_EC_AXES];
    rl_ec_to_x(c, x);
    moved_octaves(c, m, h, p, r, x, o);
    rl_ec_band(c, o, (rl_ec_class)r->phase, band_lo < 0.075, lo, hi);
    shape_of(r, v);
    const char *dt[RL_EC_DTYPES];
    rl_ec_dtypes(dt, p.weights, p.kv, p.compute);
    if (rl_e2e_what_if_band(h, why, n) || rl_ec_no_band(c, m->name, dt, v, why, n)) {
        rl_ec_pp_outside(r->pp, why, n, strlen(why));
        return 1;
    }
    return rl_ec_pp_outside(r->pp, why, n, 0) > 0; /* no pipeline fitted (tester55 F1) */
}

int rl_e2e_band_withheld(const rl_hw *h, const char *model, const rl_precision *p, long long tp,
                         long long pp, char *why, size_t n)
{
    const double v[RL_EC_AXES] = {(double)tp, -1, -1, -1};
    const char *dt[RL_EC_DTYPES] = {NULL, NULL, NULL}; /* no precision: not checked */
    if (p)
        rl_ec_dtypes(dt, p->weights, p->kv, p->compute);
    *why = '\0';
    if (rl_e2e_has_band(h) && rl_e2e_what_if_band(h, why, n))
        return 1; /* review28 M4: kernel tables and fitted costs alike */
    if (!h->engine_costs.present)
        return 0;
    /* a pipeline: no band, as step's (band_of; review47: simulate --pp 2
     * read estimated with the fit's band beside it) */
    if (rl_ec_no_band(&h->engine_costs, model, dt, v, why, n)) {
        rl_ec_pp_outside(pp, why, n, strlen(why));
        return 1;
    }
    return rl_ec_pp_outside(pp, why, n, 0) > 0;
}

/* ---- rows on measured tables (calibrated mode) --------------------------------- */

/* A row's time as step and prefill give it on a profile with measurements
 * and no fitted engine costs (tester8 #5: validate --against predicted such
 * rows by the ideal op-list roofline while step and prefill ran
 * calibrated): t seconds, the band's quantiles p5, p10, p90, p95 in seconds
 * (rl_ops.band_s; the time itself where no table carries residuals), and
 * the seconds timed by kernel tables and of t the engine's prefill
 * dispatch (the mode label's share is table_s / (t - dispatch_s), as
 * prefill's: the dispatch is a per-request constant outside every step). */
typedef struct {
    double t, band[4], table_s, dispatch_s;
    int banded;
} cal_time;

static void cal_add(cal_time *ct, double count, double t, double table_s, const double *band,
                    int banded)
{
    ct->t += count * t;
    ct->table_s += count * table_s;
    for (int q = 0; q < 4; q++)
        ct->band[q] += count * (banded ? band[q] : t);
    ct->banded |= banded;
}

/* `count` decode steps of `batch` sequences at `context` on tp chips as
 * `step --tp TP` times them: rl_shard_step_calibrated (the replica's
 * operators by the selected engine's kernel tables or the chip's
 * efficiency curves, plus the plan's collectives, measured where the chip
 * has collective tables). */
static int cal_decode(const rl_model *m, const rl_hw *h, rl_precision p, long long tp,
                      long long batch, long long context, double count, cal_time *ct, char *err,
                      size_t errlen)
{
    rl_shard_plan plan = step_plan(h, tp, 1, 1);
    rl_step st;
    rl_shard_result s;
    if (!rl_hw_measured(h)) { /* step's path on a chip with nothing measured, or under
                               * --engine ideal: formula (1) with the plan's collectives
                               * (result.c rl_result_step_sharded; tester40 F2, tester41
                               * F5) */
        if (rl_shard_eval(m, h, &plan, RL_PHASE_GENERATE, tp, batch, context, p, &s, err,
                          errlen) != 0)
            return -1;
        cal_add(ct, count, s.step_s, 0, s.band_s, 0);
        return 0;
    }
    if (rl_shard_step_calibrated(m, h, &plan, tp, batch, context, p, &st, &s, err, errlen) != 0)
        return -1;
    cal_add(ct, count, st.step_s, st.table_s, s.band_s, s.banded);
    return 0;
}

/* One prefill of `batch` sequences of `tokens` on tp x ep chips as `prefill
 * --tp TP --ep EP` times it: the calibrated operator list with the plan's collectives,
 * plus the engine's prefill dispatch once (ops.h rl_ops_prefill_dispatch:
 * it does not scale with the batch). */
static int cal_prefill(const rl_model *m, const rl_hw *h, rl_precision p, long long tp,
                       long long ep, long long batch, long long tokens, cal_time *ct, char *err,
                       size_t errlen)
{
    rl_ops_config c = rl_ops_config_default();
    c.chips = tp * ep; /* `prefill --tp TP --ep EP`: tp x ep chips (cli.c replica_plan) */
    c.tp = tp;
    c.ep = ep;
    c.prec = p;
    c.calibrated = 1;
    c.prefill_seqs = batch;
    c.prefill_tokens = tokens;
    rl_ops *o = malloc(sizeof *o);
    if (!o) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = rl_ops_check(m, h, &c, err, errlen) != 0 || rl_ops_build(m, h, &c, o, err, errlen) != 0
                 ? -1
                 : 0;
    if (rc == 0) {
        double d = rl_ops_prefill_dispatch(m, h, &c), band[4];
        for (int q = 0; q < 4; q++)
            band[q] = o->band_s[q] + d;
        cal_add(ct, 1, o->step_s + d, o->table_s, band, o->banded);
        ct->dispatch_s = d;
    }
    free(o);
    return rc;
}

/* Row r (model m on h, precision p) in calibrated mode: a decode step, a
 * prefill, or (static) its prefill and `output` decode steps at the mean
 * context tokens + output / 2, as rl_ec_terms_of counts them.  0, or -1
 * with err. */
static int cal_row(const rl_model *m, const rl_hw *h, rl_precision p, const rl_meas_row *r,
                   cal_time *ct, char *err, size_t errlen)
{
    memset(ct, 0, sizeof *ct);
    if (r->phase == RL_MEAS_DECODE)
        return cal_decode(m, h, p, r->tp, r->batch, r->context, 1, ct, err, errlen);
    if (cal_prefill(m, h, p, r->tp, 1, r->batch, r->tokens, ct, err, errlen) != 0)
        return -1;
    return r->phase == RL_MEAS_PREFILL
               ? 0
               : cal_decode(m, h, p, r->tp, r->batch, r->tokens + r->output / 2,
                            (double)r->output, ct, err, errlen);
}

/* ---- rows in pipeline stages or expert groups (pp, ep > 1) ------------------- */

/* A row's time by the layout path: t seconds, its band's edges lo, hi
 * (the time itself on a part without one), and of each part (0: the
 * prefill, 1: the decode steps) its time and mode. */
typedef struct {
    double t, lo, hi, part_t[2];
    int banded;
    const char *part_mode[2];
    char engine[64];
} layout_t;

/* A mode a result printed, as the literal predict_as_step returns. */
static const char *mode_literal(const char *s)
{
    static const char *const k[] = {"fitted", "calibrated", "estimated", "ideal"};
    for (size_t i = 0; i < sizeof k / sizeof *k; i++)
        if (s && strcmp(s, k[i]) == 0)
            return k[i];
    return "estimated";
}

static void layout_add(layout_t *lt, int part, double count, double t, double lo, double hi,
                       int banded, const char *mode)
{
    lt->t += count * t;
    lt->lo += count * (banded ? lo : t);
    lt->hi += count * (banded ? hi : t);
    lt->banded |= banded;
    lt->part_t[part] += count * t;
    lt->part_mode[part] = mode;
}

/* `count` decode steps of row r's batch at `context` on tp x ep x pp
 * GPUs, each what `step --tp TP --ep EP --pp PP --batch B --context C`
 * prints (cli.c rl_cli_step: such a plan always goes to
 * rl_result_step_sharded, calibrated, a pipeline's stages, fitted costs
 * per stage, or ideal), its step_s and step_s_low/_high (the band the
 * engine's wide_band selects: rl_e2e_band_select). */
static int layout_decode(const rl_model *mod, const rl_hw *h, rl_precision p,
                         const rl_meas_row *r, long long context, double count, layout_t *lt,
                         char *err, size_t errlen)
{
    rl_shard_plan plan = step_plan(h, r->tp, r->ep, r->pp);
    long long batch = r->batch;
    *err = '\0';
    cJSON *res = rl_result_step_sharded(mod, h, &plan, r->tp * r->ep * r->pp, &batch, 1, context,
                                        p, err, errlen);
    if (!res) {
        if (!*err)
            snprintf(err, errlen, "out of memory");
        return -1;
    }
    const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(res, "rows"), 0);
    const cJSON *t = cJSON_GetObjectItem(row, "step_s"), *lo = cJSON_GetObjectItem(row, "step_s_low"),
                *hi = cJSON_GetObjectItem(row, "step_s_high");
    const cJSON *eng = cJSON_GetObjectItem(res, "engine");
    int banded = cJSON_IsNumber(lo) && cJSON_IsNumber(hi);
    if (!cJSON_IsNumber(t)) {
        cJSON_Delete(res);
        snprintf(err, errlen, "the step of this plan gave no step_s");
        return -1;
    }
    layout_add(lt, 1, count, t->valuedouble, banded ? lo->valuedouble : 0,
               banded ? hi->valuedouble : 0, banded,
               mode_literal(cJSON_GetStringValue(cJSON_GetObjectItem(res, "mode"))));
    snprintf(lt->engine, sizeof lt->engine, "%s", cJSON_IsString(eng) ? eng->valuestring : "none");
    cJSON_Delete(res);
    return 0;
}

/* The pp - 1 stage sends of row r's prefill: the whole batch's batch x
 * tokens rows of activations (rl_shard_moved_dtype) from stage to stage
 * once, as the plan's collectives give them (shard.h rl_shard_collectives,
 * rl_shard_pp_sends: P2P over the link between the stages); 0 without a
 * pipeline. */
static int prefill_sends(const rl_model *mod, const rl_hw *h, rl_precision p,
                         const rl_meas_row *r, double *sends_s, char *err, size_t errlen)
{
    *sends_s = 0;
    if (r->pp <= 1)
        return 0;
    rl_shard_plan plan = step_plan(h, r->tp, r->ep, r->pp);
    rl_precision moved = p;
    moved.compute = rl_shard_moved_dtype(p.compute);
    rl_shard_result *sr = malloc(sizeof *sr);
    if (!sr) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = rl_shard_collectives(mod, h, &plan, RL_PHASE_PREFILL,
                                  (double)r->batch * (double)r->tokens, moved, sr, err, errlen);
    if (rc == 0)
        *sends_s = rl_shard_sends_s(sr);
    free(sr);
    return rc;
}

/* Row r's prefill (prefill and static rows): the whole batch as one
 * micro-batch through the pipeline, whose pass is the whole model's op
 * list on one stage's tp x ep chips (shard.h rl_shard_pass_scale: a lone
 * micro-batch's pass is the sum of the stage ticks, factor 1) plus the
 * pp - 1 stage sends (prefill_sends); `prefill` has no --pp, so this is
 * `prefill --tp TP --ep EP` of the batch (cal_prefill) plus the sends.  On
 * fitted costs (pp > 1, ep 1; fitted costs do not time EP, which `prefill
 * --ep` then times calibrated) the row's prefill terms t (one stage's
 * chips) with the sends among its collectives at the fitted comm_eff, as
 * fitted_pass adds a decode pass's; its band band_of's at the row's shape. */
static int layout_prefill(const rl_model *mod, const rl_hw *h, rl_precision p,
                          const rl_meas_row *r, const rl_ec_terms *t, double band_lo,
                          layout_t *lt, char *why, size_t whyn, char *err, size_t errlen)
{
    double sends;
    if (prefill_sends(mod, h, p, r, &sends, err, errlen) != 0)
        return -1;
    if (h->engine_costs.present && r->ep == 1) {
        rl_ec_terms one = {1, {t->step[0]}};
        one.step[0].comm_s += sends;
        one.step[0].sends_s = sends;
        double x[RL_EC_N], blo, bhi;
        rl_ec_to_x(&h->engine_costs, x);
        double s = rl_ec_time(&one, x, NULL);
        rl_meas_row q = *r; /* the prefill's own shape and class */
        q.phase = RL_MEAS_PREFILL;
        q.output = 0;
        int banded = !band_of(&h->engine_costs, band_lo, mod, h, p, &q, &blo, &bhi, why, whyn);
        /* its low edge held at the roofline, as every band's (floored_low;
         * review37 L3): prefill --ideal's time of it (ideal_time) */
        double floor_s = ideal_time(mod, h, p, &q, err, errlen);
        if (floor_s < 0)
            return -1;
        layout_add(lt, 0, 1, s, floored_low(s, s * exp(blo), floor_s), s * exp(bhi), banded,
                   rl_hw_fit_mode(h, 1, mod->name, p.weights, p.kv, p.compute, r->tp, r->pp,
                                  NULL, 0));
        snprintf(lt->engine, sizeof lt->engine, "%s", h->engine_costs.engine);
        return 0;
    }
    cal_time ct = {0};
    if (cal_prefill(mod, h, p, r->tp, r->ep, r->batch, r->tokens, &ct, err, errlen) != 0)
        return -1;
    int wide = band_lo < 0.075;
    const char *mode = rl_run_mode(rl_hw_mode(h, 1), h, ct.table_s / (ct.t - ct.dispatch_s),
                                   mod->abstract ? NULL : RL_PLAN_DTYPES(p));
    layout_add(lt, 0, 1, ct.t + sends, ct.band[wide ? 0 : 1] + sends,
               ct.band[wide ? 3 : 2] + sends, ct.banded, mode);
    snprintf(lt->engine, sizeof lt->engine, "%s", rl_result_engine_name(h, mode));
    return 0;
}

/* Row r (pp or ep > 1) as step and prefill time its layout: a decode row
 * one step (layout_decode), a prefill row the batch's prefill
 * (layout_prefill), a static row that prefill plus `output` decode steps
 * at the mean context tokens + output / 2, as a tp row's (cal_row).  Its
 * mode: its parts' one mode, else the mode of the part that takes longer.
 * 0, or -1 with e the reason alone (layout_time names the row). */
static int layout_time_of(const rl_model *mod, const rl_hw *h, rl_precision p,
                          const rl_meas_row *r, const rl_ec_terms *t, double band_lo, layout_t *lt,
                          char *why, size_t whyn, char *e, size_t en)
{
    memset(lt, 0, sizeof *lt);
    *why = '\0';
    int rc = r->phase == RL_MEAS_DECODE
                 ? layout_decode(mod, h, p, r, r->context, 1, lt, e, en)
                 : layout_prefill(mod, h, p, r, t, band_lo, lt, why, whyn, e, en);
    if (rc == 0 && r->phase == RL_MEAS_STATIC) {
        char engine[64];
        snprintf(engine, sizeof engine, "%s", lt->engine);
        rc = layout_decode(mod, h, p, r, r->tokens + r->output / 2, (double)r->output, lt, e, en);
        if (rc == 0 && strcmp(engine, lt->engine) != 0) { /* a fitted prefill, an EP step */
            char both[64];
            snprintf(both, sizeof both, "%.30s, %.30s", engine, lt->engine);
            memcpy(lt->engine, both, sizeof both);
        }
    }
    return rc;
}

/* layout_time_of with err "FILE:LINE: ..." (layout_error). */
static int layout_time(const rl_meas *m, const rl_model *mod, const rl_hw *h, rl_precision p,
                       const rl_meas_row *r, const rl_ec_terms *t, double band_lo, layout_t *lt,
                       char *why, size_t whyn, char *err, size_t errlen)
{
    char e[1024];
    if (layout_time_of(mod, h, p, r, t, band_lo, lt, why, whyn, e, sizeof e) != 0) {
        layout_error(m, r, e, err, errlen);
        return -1;
    }
    return 0;
}

/* The roofline floor of row r on h: the same row on h at the datasheet
 * peaks (rl_hw_set_ideal: the pure roofline with the plan's collectives at
 * the alpha-beta model, no overheads, KV by batch beyond the K heads), as
 * `step --ideal --tp TP` (a prefill row `prefill --ideal`) times it.  The
 * one floor of a measured row (layout_floor, fixAA) and of every fitted
 * band's low edge (floored_low: validate's predicted_s_low, step's and
 * prefill's step_s_low / ttft_s_low, a fitted plan's; before, the bands
 * held (E)'s terms at ideal costs, whose collectives are the chip's
 * measured NCCL times: 8.15 ms for a 70B TP8 decode step --ideal times at
 * 5.52 ms).  Returns it, or -1 with e the reason. */
static double ideal_time(const rl_model *mod, const rl_hw *h, rl_precision p,
                         const rl_meas_row *r, char *e, size_t en)
{
    rl_hw *ideal = malloc(sizeof *ideal);
    if (!ideal) {
        snprintf(e, en, "out of memory");
        return -1;
    }
    *ideal = *h;
    rl_hw_set_ideal(ideal); /* no engine costs left: (E)'s terms are not read */
    layout_t lt;
    char why[512];
    int rc = layout_time_of(mod, ideal, p, r, NULL, 0.1, &lt, why, sizeof why, e, en);
    free(ideal);
    return rc != 0 ? -1 : lt.t;
}

/* The mode of a row layout_time timed. */
static const char *layout_mode(const layout_t *lt)
{
    if (!lt->part_mode[0] || !lt->part_mode[1] || lt->part_mode[0] == lt->part_mode[1])
        return lt->part_mode[0] ? lt->part_mode[0] : lt->part_mode[1];
    return lt->part_mode[lt->part_t[1] > lt->part_t[0]];
}

/* The floor check of every row (RL_E2E_FLOOR_MARGIN): its floor
 * (ideal_time, `step --ideal`'s time of it) into *floor_s.  0, or -1
 * with err. */
static int layout_floor(const rl_meas *m, const rl_model *mod, const rl_hw *h, rl_precision p,
                        const rl_meas_row *r, double *floor_s, char *err, size_t errlen)
{
    char e[1024];
    double f = ideal_time(mod, h, p, r, e, sizeof e);
    if (f < 0) {
        layout_error(m, r, e, err, errlen);
        return -1;
    }
    *floor_s = f;
    if (!(rl_meas_time(r) < RL_E2E_FLOOR_MARGIN * f))
        return 0;
    char config[512];
    snprintf(config, sizeof config, "for this row (%s on %s tp %lld ep %lld pp %lld at the "
             "datasheet peaks, no overheads)", mod->name, h->name, r->tp, r->ep, r->pp);
    /* tester53 F4: in the row's own column and units (a static row's
     * measured_s, the whole run, as a decode row's: review45) */
    /* tester59 F8: the threshold applied is said, the floor x 0.9 (the
     * message quoted the floor, 0.06666 s, while 0.061 s was accepted) */
    double slack = 100 * (1 - RL_E2E_FLOOR_MARGIN); /* per cent */
    if (r->phase == RL_MEAS_STATIC && !r->measured_s_given) {
        double gpus = (double)r->tp * (double)r->ep * (double)r->pp;
        double ceil_tok = (double)r->batch * (double)r->output / (f * gpus);
        snprintf(err, errlen, "%s:%d: measured_tok_s_per_gpu %.4g tokens/s per GPU is above "
                 "%.4g tokens/s per GPU (the roofline ceiling of %.4g tokens/s per GPU %s / %g: "
                 "a time %.0f%% under the floor is allowed for timer noise of a row at it): not "
                 "a throughput of that configuration (batch x output tokens / (time x GPUs) "
                 "expected; check the units and the row's shape)", m->path, r->line, r->measured,
                 ceil_tok / RL_E2E_FLOOR_MARGIN, ceil_tok, config, RL_E2E_FLOOR_MARGIN, slack);
        return -1;
    }
    snprintf(err, errlen, "%s:%d: measured %.4g s is below %.4g s (%g x the roofline floor of "
             "%.4g s %s: %.0f%% under the floor is allowed for timer noise of a row at it): not "
             "a timing of that configuration (seconds expected; check the units and the row's "
             "shape)", m->path, r->line, rl_meas_time(r), RL_E2E_FLOOR_MARGIN * f,
             RL_E2E_FLOOR_MARGIN, f, config, slack);
    return -1;
}

/* Row i of rs predicted as step and prefill predict it on its profile:
 * "fitted" by the profile's engine costs, "calibrated" (or "estimated"
 * when tables time less than half of it, spec.h rl_run_mode) on a profile
 * with measurements, else "ideal" (the op-list roofline at ideal costs).
 * *lo / *hi get the band's edges in seconds for quantile band_lo (NAN when
 * nothing gives the row a band).  0, or -1 with err "FILE:LINE: ...". */
static int predict_as_step(const rows *rs, int i, const rl_e2e_opts *o, const rl_meas *m,
                           double *pred, double *lo, double *hi, const char **mode,
                           char *engine, size_t enginen, char *why, size_t whyn, char *err,
                           size_t errlen)
{
    const rl_hw *h = &rs->hws[rs->hw[i]];
    const char *file = m->path;
    *lo = *hi = NAN;
    *why = '\0';
    if (laid_out(rs->row[i])) {
        layout_t lt;
        if (layout_time(m, &rs->models[rs->model[i]], h, rs->prec[i], rs->row[i], &rs->t[i],
                        o->band_lo, &lt, why, whyn, err, errlen) != 0)
            return -1;
        *pred = lt.t;
        *mode = layout_mode(&lt);
        if (lt.banded && !*why) {
            *lo = lt.lo;
            *hi = lt.hi;
        }
        snprintf(engine, enginen, "%s", lt.engine);
        return 0;
    }
    /* fitted costs time the row by (E); a chip with nothing measured is
     * timed as step times it (cal_row: estimated, formula (1) with the
     * plan's collectives, tester40 F2), and so is --engine ideal (step
     * --ideal's formula (1), KV by batch beyond the K heads, the alpha-beta
     * collectives; tester41 F5: (E) at ideal costs summed the op list and
     * its collectives were measured NCCL rows) */
    if (h->engine_costs.present) {
        rl_engine_costs c = h->engine_costs;
        double x[RL_EC_N], blo, bhi;
        rl_ec_to_x(&c, x);
        *pred = rl_ec_time(&rs->t[i], x, NULL);
        /* a row outside the fit's models, weights or TP reads estimated, as
         * step does (spec.h rl_hw_fit_mode; tester18 F2) */
        *mode = rl_hw_fit_mode(h, 1, rs->models[rs->model[i]].name, rs->prec[i].weights,
                               rs->prec[i].kv, rs->prec[i].compute, rs->row[i]->tp,
                               rs->row[i]->pp, NULL, 0);
        if (!band_of(&c, o->band_lo, &rs->models[rs->model[i]], h, rs->prec[i], rs->row[i], &blo,
                     &bhi, why, whyn)) {
            *lo = floored_low(*pred, *pred * exp(blo), rs->floor_s[i]);
            *hi = *pred * exp(bhi);
        }
        snprintf(engine, enginen, "%s", h->engine_costs.engine);
        return 0;
    }
    cal_time ct;
    char e[1024];
    if (cal_row(&rs->models[rs->model[i]], h, rs->prec[i], rs->row[i], &ct, e, sizeof e) != 0) {
        snprintf(err, errlen, "%s:%d: %s", file, rs->row[i]->line, e);
        return -1;
    }
    *pred = ct.t;
    *mode = rl_run_mode(rl_hw_mode(h, 1), h, ct.table_s / (ct.t - ct.dispatch_s),
                        rs->models[rs->model[i]].abstract ? NULL
                                                          : RL_PLAN_DTYPES(rs->prec[i]));
    snprintf(engine, enginen, "%s", rl_result_engine_name(h, *mode));
    if (ct.banded) {
        int wide = o->band_lo < 0.075;
        *lo = ct.band[wide ? 0 : 1];
        *hi = ct.band[wide ? 3 : 2];
    }
    return 0;
}

/* ---- validate ------------------------------------------------------------------- */

/* The predicted-vs-measured figure: one block per phase, columns
 * measured_s predicted_s. */
static int plot_validate(const char *out, const char *what, const rows *rs, const double *pred,
                         char *err, size_t errlen)
{
    char *data = NULL;
    size_t dl = 0;
    FILE *d = open_memstream(&data, &dl);
    if (!d) {
        snprintf(err, errlen, "%s: out of memory", out);
        return -1;
    }
    fprintf(d, "# measured_s predicted_s, one block per phase (decode, prefill, static)\n");
    char has[64]; /* which blocks hold rows: the legend lists those only (tester46 F11) */
    int hl = 0;
    for (int ph = 0; ph < 3; ph++) {
        fprintf(d, "# %s\n", rl_meas_phase_name((rl_meas_phase)ph));
        int any = 0;
        for (int i = 0; i < rs->n; i++)
            if ((int)rs->row[i]->phase == ph) {
                fprintf(d, "%.6g %.6g\n", rs->meas_s[i], pred[i]);
                any = 1;
            }
        if (!any) /* an empty block would shift the index: a point off the chart */
            fprintf(d, "NaN NaN\n");
        fprintf(d, "\n\n");
        hl += snprintf(has + hl, sizeof has - (size_t)hl, "has%d = %d\n", ph, any);
    }
    char title[256];
    snprintf(title, sizeof title, "%s (%d rows)", what, rs->n);
    if (fclose(d) != 0 || !data)
        return free(data), snprintf(err, errlen, "%s: out of memory", out), -1;
    int rc = rl_plot_render_titled_vars(AT_FDCWD, "validate_e2e.gp", out, title, has, data, err,
                                        errlen);
    free(data);
    return rc;
}

/* Draw the figure and name it in res ("plot"); a missing gnuplot is a
 * note on stderr, not an error.  Returns 0 or -1 with err set. */
static int add_plot(cJSON *res, const char *out, const char *what, const rows *rs,
                    const double *pred, char *err, size_t errlen)
{
    char perr[1024];
    int rc = plot_validate(out, what, rs, pred, perr, sizeof perr);
    if (rc < 0) {
        snprintf(err, errlen, "%s", perr);
        return -1;
    }
    if (rc == RL_PLOT_NO_GNUPLOT)
        fprintf(stderr, "roofline: %s\n", perr);
    cJSON_AddStringToObject(res, "plot", out);
    return 0;
}

/* The rows of rs not predicted by the --hw profile hw (0 without --hw). */
static int other_rows(const rows *rs, const char *hw)
{
    int n = 0;
    for (int i = 0; hw && i < rs->n; i++) /* one spec per hw and engine (spec_index) */
        n += strcmp(rs->hw_names[rs->hw[i]], hw) != 0;
    return n;
}

/* The content hash a fit records of its CSV m (fitted_on.hash). */
static void csv_hash(const rl_meas *m, char *out, size_t n)
{
    snprintf(out, n, "fnv1a64:%016llx", m->hash);
}

/* Row i of rs's key as it was timed (fitted_on.row_keys since tester59
 * F2): FNV-1a 64 of a scheme tag, phase, tp, batch, pp, ep, context,
 * tokens, output, the loaded model's name, `engine` (the engine whose
 * costs time it: fit's saved name, validate's selected engine), the three
 * resolved dtypes (the command line's where the row gives none) and the
 * measured time in seconds to 9 significant digits, folded to 32 bits.  So
 * the spelling of optional columns does not move it: bf16 written out or
 * left to the default, a model, hw or engine column given or left to the
 * command line, a static row's tok/s or its measured_s as fit's own CSV
 * writes it (tester59 F2: those spellings counted 0 of 30 fitted rows).
 * The chip is not in it: only the profile that serves the row's chip and
 * its engine's costs are asked (fitted_rows_of). */
static unsigned long long resolved_config_hash(const rows *rs, int i, const char *engine)
{
    const rl_meas_row *r = rs->row[i];
    const rl_precision *p = &rs->prec[i];
    long long nums[8] = {r->phase, r->tp, r->batch, r->pp, r->ep, r->context, r->tokens, r->output};
    unsigned long long h = rl_fnv1a(RL_FNV_BASIS, "timed-key-2", 12);
    h = rl_fnv1a(h, nums, sizeof nums);
    const char *str[] = {rs->models[rs->model[i]].name, engine, rl_dtype_name(p->weights),
                         rl_dtype_name(p->kv), rl_dtype_name(p->compute)};
    for (size_t k = 0; k < sizeof str / sizeof *str; k++)
        h = rl_fnv1a(h, str[k], strlen(str[k]) + 1);
    return h;
}

static unsigned int timed_key(const rows *rs, int i, const char *engine)
{
    char meas[32];
    snprintf(meas, sizeof meas, "%.9g", rs->meas_s[i]);
    unsigned long long h = rl_fnv1a(resolved_config_hash(rs, i, engine), meas, strlen(meas) + 1);
    return (unsigned int)(h ^ h >> 32);
}

/* fit's configurations: rows equal in timed_key's fields but the
 * measurement (resolved_config_hash), so repeats spelled two ways (weights
 * bf16 written out or left to the default, a model column given or left
 * to --model) are one configuration and cross-validation holds them out
 * together (fixFI: rl_meas_row.config, the raw cells, counted them as
 * two, which could put them in two folds).  rs->conf[i] numbers them in
 * order of appearance.  0, or -1 with err set. */
static int resolve_configs(rows *rs, const char *engine, char *err, size_t errlen)
{
    unsigned long long *seen = malloc((size_t)rs->n * sizeof *seen + 1);
    rs->conf = malloc((size_t)rs->n * sizeof *rs->conf + 1);
    if (!seen || !rs->conf) {
        free(seen);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int i = 0, nc = 0; i < rs->n; i++) {
        unsigned long long h = resolved_config_hash(rs, i, engine);
        int c = 0;
        while (c < nc && seen[c] != h)
            c++;
        if (c == nc)
            seen[nc++] = h;
        rs->conf[i] = c;
    }
    free(seen);
    return 0;
}

/* How many of rs's rows the profile predicting them was fitted on: by
 * the row keys the fit recorded (fitted_on.row_keys: whatever the file's
 * order, comments or other rows, tester23 F1), each row's timed_key (its
 * engine the one selected on the profile), or its cells' key
 * (rl_meas_row_key, the model cell either way: fitted_cells), which
 * profiles saved before tester59 F2 recorded, so they count the rows they
 * did (a chance match of a 32-bit key of the
 * other scheme: about 1 in 4e9 per key pair); with none recorded (older
 * profiles still), all rows when its fitted_on.hash is the CSV m's, else
 * none.  In-sample rows' errors are the fit's own (tester19 F5). */
/* Whether c's (old) cell keys hold row i's: its cells as written, or with
 * the model cell the other way, the loaded model's name where the row left
 * it to --model, empty where it named it (fixGI #1: the shipped splitwise
 * profiles, fitted on calib/splitwise_csv.sh's model column, read 0 of the
 * 47 rows of tests/data/e2e/splitwise_h100.csv, which leaves it to --model). */
static int fitted_cells(const rows *rs, int i, const rl_engine_costs *c)
{
    if (rl_ec_fitted_row(c, rl_meas_row_key(rs->row[i])))
        return 1;
    rl_meas_row r = *rs->row[i];
    snprintf(r.model, sizeof r.model, "%s", r.model[0] ? "" : rs->models[rs->model[i]].name);
    return rl_ec_fitted_row(c, rl_meas_row_key(&r));
}

static int fitted_rows_of(const rows *rs, const rl_meas *m)
{
    char hash[32];
    int n = 0;
    csv_hash(m, hash, sizeof hash);
    for (int i = 0; i < rs->n; i++) {
        const rl_hw *h = &rs->hws[rs->hw[i]];
        const rl_engine_costs *c = &h->engine_costs;
        const rl_serving_engine *g = rl_engines_selected(&h->engines);
        if (c->present && (c->nrow_keys > 0
                               ? rl_ec_fitted_row(c, timed_key(rs, i, g ? g->name : "")) ||
                                     fitted_cells(rs, i, c)
                               : !strcmp(c->hash, hash)))
            n++;
    }
    return n;
}

cJSON *rl_e2e_validate(const rl_meas *m, const rl_e2e_opts *o, char *err, size_t errlen)
{
    rows rs;
    cJSON *res = NULL;
    double *pred = NULL, *e = NULL;
    char *first_off = NULL; /* the first row's fitted_on_note, its own length (fixXC #2) */
    if (o->plot && rl_plot_check_path(o->plot, err, errlen) != 0)
        return NULL;
    if (load_rows(m, o, NULL, NULL, o->engine, &rs, err, errlen) != 0)
        goto done;
    if (rs.n == 0) { /* tester41 F1: all beyond max_context (validate keeps every chip) */
        snprintf(err, errlen, "%s: no rows left: every row exceeds its model's max_context (the "
                 "first: %s); to keep them, raise it with --set model.max_context=N", m->path,
                 rs.beyond_first);
        goto done;
    }
    for (int j = 0; j < rs.nhw; j++) /* --band p5-p95: the steps layout_decode reads (result.c) */
        rl_e2e_band_select(&rs.hws[j], o->band_lo < 0.075);
    pred = malloc((size_t)rs.n * sizeof *pred);
    e = malloc((size_t)rs.n * sizeof *e);
    res = cJSON_CreateObject();
    if (!pred || !e || !res) {
        snprintf(err, errlen, "out of memory");
        cJSON_Delete(res);
        res = NULL;
        goto done;
    }
    int banded = 0, inside = 0, withheld = 0, tabled = 0, off = 0;
    char why[512], first_why[512] = "";
    const char *mode = NULL;
    cJSON *arr = cJSON_CreateArray();
    for (int i = 0; i < rs.n; i++) {
        double lo, hi;
        const char *row_mode;
        char engine[64];
        if (predict_as_step(&rs, i, o, m, &pred[i], &lo, &hi, &row_mode, engine, sizeof engine,
                            why, sizeof why, err, errlen) != 0) {
            cJSON_Delete(res);
            cJSON_Delete(arr);
            res = NULL;
            goto done;
        }
        mode = !mode || !strcmp(mode, row_mode) ? row_mode : "mixed";
        const rl_hw *rh = &rs.hws[rs.hw[i]];
        tabled += strcmp(row_mode, "ideal") != 0 && !rh->engine_costs.present && !rh->ideal;
        e[i] = pred[i] / rs.meas_s[i] - 1;
        cJSON *row = row_json(rs.row[i], &rs.models[rs.model[i]], &rs.hws[rs.hw[i]], rs.prec[i],
                              engine, rs.meas_s[i], pred[i]);
        cJSON_AddStringToObject(row, "mode", row_mode);
        if (!isnan(lo)) {
            cJSON_AddNumberToObject(row, "predicted_s_low", lo);
            cJSON_AddNumberToObject(row, "predicted_s_high", hi);
            banded++;
            inside += rs.meas_s[i] >= lo && rs.meas_s[i] <= hi;
        }
        if (*why && !withheld++)
            snprintf(first_why, sizeof first_why, "%s", why);
        /* issue 13 item 2: a profile fitted on another model (dtype, TP)
         * than the row's, as step says it (rl_e2e_fitted_outside) */
        char *outside = rh->engine_costs.present
                            ? rl_e2e_fitted_outside(&rs.models[rs.model[i]], rh, rs.row[i]->tp,
                                                    rs.row[i]->pp, rs.prec[i])
                            : NULL;
        if (outside && !off++)
            first_off = rl_result_fmt("line %d: %s", rs.row[i]->line, outside);
        free(outside);
        cJSON_AddNumberToObject(row, "error", e[i]);
        cJSON_AddItemToArray(arr, row);
    }
    cJSON_AddStringToObject(res, "file", m->path);
    cJSON_AddStringToObject(res, "mode", mode ? mode : "ideal");
    int others = other_rows(&rs, o->hw);
    if (others) { /* rows of another chip than the --hw profile serves */
        rl_result_add_fmt(res, "mode_note", "%d of %d rows name a chip that --hw %s does not "
                          "serve and are predicted by their own hw spec (each row's hw says "
                          "which)", others, rs.n, o->hw);
    }
    if (rs.engine_over) { /* tester63 #5 (load_rows) */
        rl_result_add_fmt(res, "engine_note", "%d of %d rows were timed by the engine their "
                          "engine column names, not --engine %s (%s): a row's engine cell "
                          "selects its engine (validate's help); empty or drop the column to "
                          "time them all by --engine", rs.engine_over, rs.n, o->engine,
                          rs.engine_over_first);
    }
    cJSON_AddNumberToObject(res, "measured_rows", rs.n);
    int fitted = fitted_rows_of(&rs, m);
    cJSON_AddBoolToObject(res, "in_sample", fitted == rs.n);
    cJSON_AddNumberToObject(res, "in_sample_rows", fitted);
    if (fitted == rs.n)
        cJSON_AddStringToObject(res, "in_sample_note",
                                "the profile was fitted on these very rows (fitted_on.row_keys, or "
                                "in older profiles fitted_on.hash, the file's): these errors and "
                                "band coverage are the fit's own, in-sample, not a prediction of "
                                "unseen rows (fit's cv_* figures are its cross-validated ones; or "
                                "validate on rows it did not see)");
    else if (fitted > 0) {
        rl_result_add_fmt(res, "in_sample_note", "%d of %d rows were fitted on "
                          "(fitted_on.row_keys): their errors are the fit's own, in-sample, and "
                          "pull these figures toward it; only the other %d rows test the "
                          "profile", fitted, rs.n, rs.n - fitted);
    }
    add_beyond_note(res, &rs, m->path);
    add_summary(res, "", e, rs.n);
    if (tabled > 0) { /* fixJK #2: kernel time against an end-to-end file */
        rl_result_add_fmt(res, "e2e_gap_note",
                          "%d of %d rows are timed by kernel tables (kernel + collective time: no "
                          "engine's host cost, scheduling or launch gaps) while validate compares "
                          "them with the file's end-to-end measurements: their error holds that "
                          "end-to-end gap, not only the tables' (SplitwiseSim's end-to-end medians "
                          "of llama2-70b ran x0.93 to x3.54 the h100-sxm and a100-sxm-80g tables' "
                          "prediction by TP and phase; step's e2e_gap_note, docs/model.md, \"The "
                          "end-to-end gap\"), and the tables' band does not cover it; a profile "
                          "fitted on end-to-end rows (roofline fit) times them end to end",
                          tabled, rs.n);
    }
    if (banded) {
        char band[32];
        snprintf(band, sizeof band, "p%.0f-p%.0f", 100 * o->band_lo, 100 * o->band_hi);
        cJSON_AddStringToObject(res, "band", band);
        cJSON_AddNumberToObject(res, "band_coverage", (double)inside / banded);
    }
    if (withheld) { /* rl_ec_no_band */
        rl_result_add_fmt(res, "no_band", "%d of %d rows carry no band (the first: %s): the "
                          "fit's residuals say nothing there", withheld, rs.n, first_why);
    }
    if (off) {
        rl_result_add_fmt(res, "fitted_on_note", "%d of %d rows are timed outside what their "
                          "profile's costs were fitted on (the first, %s)", off, rs.n,
                          first_off ? first_off : "out of memory");
    }
    if (o->plot) {
        /* fixIL #4: the title says in-sample when the JSON's in_sample does
         * (or how many rows were fitted on), as an in-sample figure reads
         * like a test of the profile otherwise */
        char what[160] = "roofline validate: predicted vs measured";
        if (fitted == rs.n)
            snprintf(what, sizeof what, "roofline validate: in-sample (fitted on these rows), "
                     "predicted vs measured");
        else if (fitted > 0)
            snprintf(what, sizeof what, "roofline validate: predicted vs measured, %d of them "
                     "in-sample", fitted);
        if (add_plot(res, o->plot, what, &rs, pred, err, errlen) != 0) {
            cJSON_Delete(res);
            cJSON_Delete(arr);
            res = NULL;
            goto done;
        }
    }
    cJSON_AddItemToObject(res, "rows", arr);
done:
    free(pred);
    free(e);
    free(first_off);
    rows_free(&rs);
    return res;
}

/* ---- the saved profile ---------------------------------------------------------- */

/* Write h (with its engine_costs) to path as a hardware spec, atomically,
 * then load it back to check it.  Returns 0 or -1 with err set (nothing
 * left; *io_failed = 1, when not NULL, if the write itself failed). */
static int save_profile(const char *path, const rl_hw *h, const char *comment, int *io_failed,
                        char *err, size_t errlen)
{
    lua_State *L = luaL_newstate();
    char *text = NULL;
    size_t len = 0;
    FILE *f = L ? open_memstream(&text, &len) : NULL;
    if (!f) {
        if (L)
            lua_close(L);
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    fprintf(f, "%sreturn ", comment);
    rl_hw_push(L, h);
    rl_spec_put_value(f, L, 0);
    fputs("\n", f);
    fclose(f);
    lua_close(L);
    int rc = rl_write_atomic(path, text, len, err, errlen);
    free(text);
    if (rc != 0 && io_failed)
        *io_failed = 1;
    if (rc != 0)
        return -1;
    rl_hw back;
    char e[1024];
    if (rl_hw_load(path, NULL, 0, &back, e, sizeof e) != 0) {
        unlink(path);
        snprintf(err, errlen, "the written profile does not load back (removed): %s", e);
        return -1;
    }
    return 0;
}

/* ---- fit ------------------------------------------------------------------------- */

static double predict_row(void *ctx, int i, const double *x, double *grad)
{
    const rows *rs = ctx;
    return rl_ec_time(&rs->t[i], x, grad);
}

/* Every term of (E) at once: the design columns of the identifiability
 * check (fit.h). */
static void columns_row(void *ctx, int i, const double *x, double *cols)
{
    const rl_ec_terms *t = &((const rows *)ctx)->t[i];
    memset(cols, 0, RL_EC_N * sizeof *cols);
    for (int k = 0; k < t->n; k++) {
        const rl_ec_step *s = &t->step[k];
        cols[s->prefill ? RL_EC_PREFILL_STEP : RL_EC_DECODE_STEP] += s->count;
        cols[RL_EC_LAUNCH] += s->count * s->launches;
        cols[RL_EC_PREFILL_RANK] += s->count * s->ranks;
        cols[s->prefill ? RL_EC_PREFILL_SEQ : RL_EC_DECODE_SEQ] += s->count * s->batch;
        cols[s->prefill ? RL_EC_PREFILL_COMM : RL_EC_COMM] += s->count * s->comm_s;
        cols[RL_EC_TP_EXCESS] += s->count * tp_collectives_s(s);
        cols[RL_EC_PREFILL_ACT] += s->count * s->act_bytes;
        for (int j = 0; j < s->nops; j++) {
            int compute = s->op_c[j] * x[RL_EC_COMPUTE] > s->op_m[j] * x[RL_EC_MEMORY];
            cols[compute ? RL_EC_COMPUTE : RL_EC_MEMORY] += s->count * (compute ? s->op_c[j] : s->op_m[j]);
        }
    }
}

#define NSTART 3

/* Starts of the fit: the step floors at 30%, 60% and 90% of the shortest
 * measured step of their phase (10 ms without one), 0.1 ms a decoding and
 * 1 ms a prefilled sequence, no
 * launch or per-token cost, half the peak FLOP/s, 80% of the HBM bandwidth, half the
 * collective speed (a prefill's at prefill_comm_eff 0.5, a decode step's
 * as the measured collectives at comm_eff 1 plus tp_excess 1: the two
 * have one column, and comm_eff, held, keeps its start).  A floor above every step's device time starts with no
 * gradient toward the device terms, one below all of them with none toward
 * the floor: the three cover both sides. */
static void starts(const rows *rs, const unsigned char *use, double *x0)
{
    double shortest[2] = {INFINITY, INFINITY};
    for (int i = 0; i < rs->n; i++)
        if ((!use || use[i]) && rs->t[i].n == 1) {
            int ph = rs->t[i].step[0].prefill;
            shortest[ph] = fmin(shortest[ph], rs->meas_s[i]);
        }
    static const double frac[NSTART] = {0.3, 0.6, 0.9};
    for (int s = 0; s < NSTART; s++) {
        double *x = x0 + s * RL_EC_N;
        x[RL_EC_DECODE_STEP] = isfinite(shortest[0]) ? frac[s] * shortest[0] : 0.01;
        x[RL_EC_PREFILL_STEP] = isfinite(shortest[1]) ? frac[s] * shortest[1] : 0.01;
        x[RL_EC_DECODE_SEQ] = 1e-4;
        x[RL_EC_PREFILL_SEQ] = 1e-3;
        x[RL_EC_LAUNCH] = 0;
        x[RL_EC_PREFILL_ACT] = 0;
        x[RL_EC_PREFILL_RANK] = 0;
        x[RL_EC_COMPUTE] = 2.0;
        x[RL_EC_MEMORY] = 1.25;
        x[RL_EC_COMM] = 1.0; /* held (tp_excess fits what the rows add) */
        x[RL_EC_TP_EXCESS] = 1.0;
        x[RL_EC_PREFILL_COMM] = 2.0;
        for (int p = 0; p < RL_EC_N; p++) { /* inside the bounds */
            double lo, hi;
            rl_ec_range((rl_ec_param)p, &lo, &hi);
            if (!rl_ec_is_eff((rl_ec_param)p))
                x[p] = fmin(x[p], hi);
        }
    }
}

/* Parameter p's value and sd in the file's units (efficiencies as
 * fractions) and its status.  Not identified (RL_EC_LOOSE): an sd above
 * its value (review25 HIGH-2: one-TP fits gave prefill terms of 0-3e-6 s a
 * token with sds 2-5x that, called fitted), or above half its range (a
 * value at or near 0 is then no estimate either; review25: 0 with sd
 * 0.00012 s against a 1 ms range); our thresholds: an estimate whose one-sd
 * interval reaches 0, or most of the physical range, says nothing. */
static rl_ec_status param_status(const rl_fit_result *f, int p, double *v, double *sd)
{
    int eff = rl_ec_is_eff((rl_ec_param)p);
    double lo, hi;
    rl_ec_range((rl_ec_param)p, &lo, &hi);
    *v = eff ? 1 / f->x[p] : f->x[p];
    *sd = eff ? f->sd[p] / (f->x[p] * f->x[p]) : f->sd[p];
    if (f->held[p])
        return RL_EC_HELD;
    if (!isfinite(*sd) || (*v != 0 && *sd > fabs(*v)) || *sd > 0.5 * (hi - lo))
        return RL_EC_LOOSE;
    return f->at_bound[p] ? RL_EC_AT_BOUND : RL_EC_FITTED;
}

/* Whether sd (of value v, fitted over [lo, hi]) is no estimate: none (a
 * singular covariance), above RL_FIT_SD_UNIDENTIFIED times the value, or
 * above that many times the whole range the fit searches (tester50 F13: a
 * value of 0 printed sd 5e+148 as a number). */
static int sd_unbounded(double v, double sd, double lo, double hi)
{
    return !isfinite(sd) || (v != 0 && sd > RL_FIT_SD_UNIDENTIFIED * fabs(v)) ||
           sd > RL_FIT_SD_UNIDENTIFIED * (hi - lo);
}

static int phase_param(int ph, int p);

/* Parameter p of fit f as fit prints it; missing: the phase no row has a
 * step of (missing_phase), whose parameters are not fitted, else -1;
 * measured: the chip has collectives tables (what comm_eff scales:
 * rl_ec_comm_unit). */
static cJSON *param_json(const rl_fit_result *f, int p, int missing, int measured)
{
    cJSON *o = cJSON_CreateObject();
    int eff = rl_ec_is_eff((rl_ec_param)p);
    double v, sd;
    rl_ec_status st = param_status(f, p, &v, &sd);
    /* an sd above RL_FIT_SD_UNIDENTIFIED times the value or the range (or
     * none: a singular covariance): no number is shown */
    double lo, hi;
    rl_ec_range((rl_ec_param)p, &lo, &hi);
    int loose = st == RL_EC_LOOSE && sd_unbounded(v, sd, lo, hi);
    char beyond[64] = "singular covariance";
    if (isfinite(sd))
        snprintf(beyond, sizeof beyond, "sd beyond %gx its %s", RL_FIT_SD_UNIDENTIFIED,
                 v != 0 && sd > RL_FIT_SD_UNIDENTIFIED * fabs(v) ? "value" : "range");
    char status[256];
    if (missing >= 0 && phase_param(missing, p)) /* tester59 F4: no row of its phase */
        snprintf(status, sizeof status, "not fitted: no %s row (held at its start value)",
                 missing ? "prefill" : "decode");
    else if (loose && f->absorber[p] >= 0)
        snprintf(status, sizeof status, "not identifiable (%s): %s absorbs it", beyond,
                 rl_ec_name((rl_ec_param)f->absorber[p]));
    else if (loose)
        snprintf(status, sizeof status, "not identifiable (%s): no row's time depends on it "
                 "at the optimum%s", beyond,
                 p == RL_EC_DECODE_STEP || p == RL_EC_PREFILL_STEP || p == RL_EC_LAUNCH ||
                         p == RL_EC_PREFILL_RANK
                     ? " (the device side of max(host, device) wins where it enters)" : "");
    else if (st == RL_EC_LOOSE)
        snprintf(status, sizeof status, "not identified (sd %.2g %s): the rows do not pin it%s%s",
                 sd, v != 0 && sd > fabs(v) ? "exceeds its value" : "exceeds half its range",
                 f->absorber[p] >= 0 ? ", traded off against " : "",
                 f->absorber[p] >= 0 ? rl_ec_name((rl_ec_param)f->absorber[p]) : "");
    else
        snprintf(status, sizeof status, "%s", st == RL_EC_HELD ? "not identifiable (held)"
                                              : st == RL_EC_AT_BOUND ? "at a bound of its range"
                                                                     : "fitted");
    cJSON_AddStringToObject(o, "parameter", rl_ec_name((rl_ec_param)p));
    cJSON_AddNumberToObject(o, "value", v);
    if (st == RL_EC_HELD || loose)
        cJSON_AddNullToObject(o, "sd");
    else
        cJSON_AddNumberToObject(o, "sd", sd);
    cJSON_AddStringToObject(o, "unit", p == RL_EC_COMM || p == RL_EC_PREFILL_COMM
                                           ? rl_ec_comm_unit(measured)
                                       : eff ? "fraction of peak"
                                       : p == RL_EC_PREFILL_ACT ? "s per activation byte"
                                       : p == RL_EC_PREFILL_RANK ? "s per TP rank of a prefill"
                                       : p == RL_EC_TP_EXCESS   ? "x the collectives' time"
                                                                : "s");
    cJSON_AddStringToObject(o, "status", status);
    return o;
}

/* Each parameter's status and sd into c (fitted_on.status, .sd). */
static void record_status(const rl_fit_result *f, rl_engine_costs *c)
{
    for (int p = 0; p < RL_EC_N; p++) {
        double v, sd;
        c->status[p] = param_status(f, p, &v, &sd);
        double lo, hi;
        rl_ec_range((rl_ec_param)p, &lo, &hi);
        c->sd[p] = c->status[p] != RL_EC_HELD && !sd_unbounded(v, sd, lo, hi) ? sd : NAN;
    }
}

/* When every row with a prefill has one TP degree, the activation-byte
 * term, compute_eff and prefill_comm_eff are all linear in the prompt
 * tokens there (review25 HIGH-2: fits on TP4 rows alone gave it 0 with an
 * sd 2-5x the shipped value, and compute_eff's sd grew 16x): its column is
 * zeroed so that the fit holds it at 0 (fit.h), and a note says why into
 * note.  Returns 1 when held. */
static int hold_act_on_one_tp(rows *rs, char *note, size_t n)
{
    long long tp = 0;
    for (int i = 0; i < rs->n; i++)
        if (rs->row[i]->phase != RL_MEAS_DECODE) {
            if (tp && rs->row[i]->tp != tp)
                return 0;
            tp = rs->row[i]->tp;
        }
    if (!tp)
        return 0;
    for (int i = 0; i < rs->n; i++)
        for (int k = 0; k < rs->t[i].n; k++)
            rs->t[i].step[k].act_bytes = 0;
    snprintf(note, n, "%s held at 0: every prefill row has tp %lld, where its term, the compute "
             "term and the collectives all grow with the prompt tokens, so the three cannot all "
             "be told apart (compute_eff and prefill_comm_eff fit what is left: the table gives "
             "their status); fit rows of two TP degrees or more", rl_ec_name(RL_EC_PREFILL_ACT),
             tp);
    return 1;
}

/* prefill_rank_s (enginecost.h) is seen only by prefill rows on the host
 * floor (the host side of the max wins), where it adds rank cost x tp to
 * prefill_step_s: with such rows at one TP degree, or none, the two are
 * one column at the optimum, however many degrees the device-bound rows
 * span, and the fit would split the floor between them at random (on
 * SplitwiseSim's excerpt, host-bound only at TP8, a true floor of 50 ms
 * read 41.5 ms plus 1.06 ms a rank).  So at the fit x, when the host-bound
 * prefill rows have fewer than two TP degrees, the term's column is
 * zeroed in every row (held at 0, its start value) and a note says why
 * into note (appended, "; " between); returns 1 then (the caller refits),
 * else 0. */
static int hold_rank_off_floor(rows *rs, const double *x, char *note, size_t n)
{
    long long tp[2] = {0, 0};
    double g[RL_EC_N];
    for (int i = 0; i < rs->n; i++) {
        int prefills = 0;
        for (int k = 0; k < rs->t[i].n; k++)
            prefills |= rs->t[i].step[k].prefill && rs->t[i].step[k].ranks > 0;
        if (!prefills || (rl_ec_time(&rs->t[i], x, g), g[RL_EC_PREFILL_STEP] <= 0))
            continue;
        if (!tp[0])
            tp[0] = rs->row[i]->tp;
        else if (rs->row[i]->tp != tp[0])
            tp[1] = rs->row[i]->tp;
    }
    if (tp[1])
        return 0;
    for (int i = 0; i < rs->n; i++)
        for (int k = 0; k < rs->t[i].n; k++)
            rs->t[i].step[k].ranks = 0;
    char on[64] = "none";
    if (tp[0])
        snprintf(on, sizeof on, "tp %lld only", tp[0]);
    size_t k = strlen(note);
    if (k < n)
        snprintf(note + k, n - k, "%s%s held at 0: the prefill rows on the host floor at the "
                 "fit have %s, and a cost per TP rank is told from prefill_step_s only by "
                 "floors at two TP degrees or more", k ? "; " : "",
                 rl_ec_name(RL_EC_PREFILL_RANK), on);
    return 1;
}

/* Remove clause (with the "; " that joins it to another) from note, where
 * it occurs. */
static void drop_clause(char *note, const char *clause)
{
    char *p = strstr(note, clause);
    if (!p)
        return;
    char *end = p + strlen(clause);
    if (!strncmp(end, "; ", 2))
        end += 2;
    else if (p >= note + 2 && !strncmp(p - 2, "; ", 2))
        p -= 2;
    memmove(p, end, strlen(end) + 1);
}

/* k-fold cross-validation over whole configurations: cvp[i] gets row i's
 * prediction from the fit without its fold.  Returns the folds run, or -1
 * with err set. */
static int cross_validate(const rl_fit_problem *pb, const rows *rs, int k, double *cvp, char *err,
                          size_t errlen)
{
    int *fold = malloc((size_t)rs->n * sizeof *fold);
    unsigned char *use = malloc((size_t)rs->n);
    int rc = -1;
    if (!fold || !use) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    for (int i = 0; i < rs->n; i++) /* configurations numbered in order of appearance */
        fold[i] = rs->conf[i] % k;
    for (int f = 0; f < k; f++) {
        for (int i = 0; i < rs->n; i++)
            use[i] = fold[i] != f;
        rl_fit_result r;
        char e[512];
        double x0[NSTART * RL_EC_N];
        starts(rs, use, x0);
        if (rl_fit_best(pb, x0, NSTART, use, &r, e, sizeof e) != 0) {
            snprintf(err, errlen, "cross-validation fold %d of %d: %s", f + 1, k, e);
            goto done;
        }
        for (int i = 0; i < rs->n; i++)
            if (!use[i])
                cvp[i] = rl_ec_time(&rs->t[i], r.x, NULL);
    }
    rc = k;
done:
    free(fold);
    free(use);
    return rc;
}

/* fit's error when cross-validation (k folds of nconf configurations)
 * failed with e: how many configurations k folds need, each fold fitted
 * on the others' rows, one row more than fr's identifiable parameters
 * (tester23 F4: 10 rows for 8 said only that a fold was short), and the
 * leave-one-configuration-out --folds that the file allows, if any. */
static void cv_failed(const rl_fit_result *fr, const char *path, const char *e, int nconf, int k,
                      char *err, size_t errlen)
{
    int nfree = 0, need = 1;
    for (int j = 0; j < RL_EC_N; j++)
        nfree += !fr->held[j];
    while (need - (need + k - 1) / k < nfree + 1) /* the largest fold left out */
        need++;
    char alt[160] = "";
    if (nconf >= nfree + 2 && nconf > k)
        snprintf(alt, sizeof alt, ", or --folds %d (one configuration left out at a time, which "
                 "needs %d)", nconf, nfree + 2);
    snprintf(err, errlen, "%s: %s; %d-fold cross-validation (--folds) fits each fold on the "
             "other configurations' rows, at least %d for %d identifiable parameters: with one "
             "row a configuration, give at least %d configurations (this file has %d)%s; "
             "nothing written", path, e, k, nfree + 1, nfree, need, nconf, alt);
}

/* The range of each shape axis over the rows with use[i] (use NULL: all)
 * into grid ({0, 0} where no such row has the axis). */
static void grid_of(const rows *rs, const unsigned char *use, double (*grid)[2])
{
    memset(grid, 0, RL_EC_AXES * sizeof *grid);
    for (int i = 0; i < rs->n; i++) {
        double v[RL_EC_AXES];
        if (use && !use[i])
            continue;
        shape_of(rs->row[i], v);
        for (int a = 0; a < RL_EC_AXES; a++)
            if (v[a] > 0) {
                grid[a][0] = grid[a][0] > 0 ? fmin(grid[a][0], v[a]) : v[a];
                grid[a][1] = fmax(grid[a][1], v[a]);
            }
    }
}

/* Fewest held-out rows a class's widening is tuned on (else the pool of
 * every class; else nothing is tuned).  Our choice: below 5 the 80%
 * quantile is the largest or second-largest value. */
#define WIDEN_MIN_ROWS 5

/* The phases (bit 0 decode, bit 1 prefill) of the steps of the rows with
 * sel[i] == want. */
static int phases_of(const rows *rs, const unsigned char *sel, int want)
{
    int ph = 0;
    for (int i = 0; i < rs->n; i++)
        for (int k = 0; sel[i] == want && k < rs->t[i].n; k++)
            ph |= 1 << rs->t[i].step[k].prefill;
    return ph;
}

/* Whether some kept row (use[i]) has a step on its host side at x, so
 * that its time depends on the step floor f (decode_step_s or
 * prefill_step_s: ec_eval's gradient). */
static int floor_seen(const rows *rs, const unsigned char *use, const double *x, int f)
{
    double g[RL_EC_N];
    for (int i = 0; i < rs->n; i++)
        if (use[i] && (rl_ec_time(&rs->t[i], x, g), g[f] > 0))
            return 1;
    return 0;
}

/* One nested hold-out: the rows with held[i] out, (E) fitted on the others;
 * for each held-out row outside the others' grid, into r[*n], d[*n] and
 * cls[*n], its log(measured / predicted), the octaves its estimate moved
 * outside that grid (moved_octaves, the distance rl_ec_band widens by;
 * 0 where it did not move: then the row must lie inside the in-grid band)
 * and its class.  Skipped (0 rows) when the others have fewer rows than
 * parameters, lack a phase the held-out rows have, or do not fit.
 * A step floor (decode_step_s, prefill_step_s) on which no kept row's time
 * depends at their optimum (every kept step's device side above it) is
 * held at the full fit's value full[] and the rest refitted (stop 36,
 * fixDC): the rest cannot see it, so it would keep a start value (30% of
 * the shortest step: starts), and a held-out row on the floor would
 * measure that guess, not an extrapolation.  On SplitwiseSim's H100 rows
 * the TP4 end held out from TP2 + TP4 left TP2 rows, none on a floor
 * (their device side 37 ms and more), the decode floor at 11 ms against
 * the 29 ms the TP4 rows show, and the TP4 decode steps 29-33% low at one
 * octave: most of the 0.357 decode widening an octave that TP8 was given.
 * The floor is the host's time to issue a step ((E): no term of it depends
 * on the TP degree), so the full fit's value carries none of the TP law
 * the hold-out measures; the device terms, which do, are always refitted.
 * Returns the rows added. */
static int hold_out(const rl_fit_problem *pb, const rows *rs, const unsigned char *held,
                    const rl_engine_costs *c, const double *full, double *r, double *d, int *cls,
                    int *n)
{
    /* rs->n >= 1 here; the guard keeps gcc -O1 from reading a negative int
     * as a huge size (-Walloc-size-larger-than, COMMON's -O1 check) */
    unsigned char *use = malloc(rs->n > 0 ? (size_t)rs->n : 1);
    int kept = 0, added = 0;
    for (int i = 0; use && i < rs->n; i++)
        kept += use[i] = !held[i];
    rl_fit_result fr;
    char e[512];
    double x0[NSTART * RL_EC_N];
    if (use && kept >= RL_EC_N - 1 && (phases_of(rs, held, 1) & ~phases_of(rs, held, 0)) == 0) {
        starts(rs, use, x0);
        rl_engine_costs sub = *c;
        grid_of(rs, use, sub.grid);
        int ok = rl_fit_best(pb, x0, NSTART, use, &fr, e, sizeof e) == 0, refit = 0;
        /* a step floor no kept row reaches: held at the full fit's value
         * (hold_out's comment says why) and the rest refitted */
        double lo[RL_FIT_MAXP], hi[RL_FIT_MAXP];
        rl_fit_problem hp = *pb;
        memcpy(lo, pb->lo, (size_t)pb->np * sizeof *lo);
        memcpy(hi, pb->hi, (size_t)pb->np * sizeof *hi);
        static const int FLOOR[2] = {RL_EC_DECODE_STEP, RL_EC_PREFILL_STEP};
        for (int k = 0; ok && k < 2; k++)
            if (!floor_seen(rs, use, fr.x, FLOOR[k])) {
                lo[FLOOR[k]] = hi[FLOOR[k]] = full[FLOOR[k]];
                for (int s = 0; s < NSTART; s++)
                    x0[s * RL_EC_N + FLOOR[k]] = full[FLOOR[k]];
                refit = 1;
            }
        hp.lo = lo;
        hp.hi = hi;
        if (refit)
            ok = rl_fit_best(&hp, x0, NSTART, use, &fr, e, sizeof e) == 0;
        if (ok)
            for (int i = 0; i < rs->n; i++) {
                double v[RL_EC_AXES], o[RL_EC_AXES], p = rl_ec_time(&rs->t[i], fr.x, NULL);
                shape_of(rs->row[i], v);
                if (use[i] || !(p > 0) || !(rl_ec_octaves(&sub, v, o) > 0))
                    continue; /* kept, or not extrapolated */
                double out = moved_octaves(&sub, &rs->models[rs->model[i]], &rs->hws[rs->hw[i]],
                                           rs->prec[i], rs->row[i], fr.x, o);
                r[*n] = log(rs->meas_s[i] / p);
                d[*n] = out;
                cls[(*n)++] = (int)rs->row[i]->phase;
                added++;
            }
    }
    free(use);
    return added;
}

/* Tune c's band widening per octave (enginecost.h rl_ec_band) on the
 * fitted rows alone, by nested extrapolation hold-outs: for each shape axis
 * and each end of its range (the largest value, then the smallest), the
 * rows at that value are held out and (E) is fitted on the rest
 * (hold_out).  A class's widening (decode, prefill, static rows) is
 * rl_ec_widening over its held-out rows at the band's nominal coverage
 * (80% for p10-p90, 90% for p5-p95); a class with fewer than
 * WIDEN_MIN_ROWS takes every class's rows; with fewer than that in all, c
 * keeps the rule of thumb (widened 0).  Each widening is clamped to what
 * the profile reader accepts (rl_ec_widening), the p5-p95 one made at
 * least the p10-p90 one (rl_ec_nest), and c->widen_seen[k] records the
 * farthest held-out row of the pool, beyond which rl_ec_band falls back
 * to the rule of thumb.  c->widen_from says what was held out.  Every end
 * is held out, also when the rest keeps one value of its axis: that rest
 * cannot tell the comm terms from the compute ones, so its error along
 * the axis can exceed the full fit's, which keeps the band on the safe
 * side where the data cannot measure the slope (a planner that trusts a
 * narrow band undersizes); c->widen_axes lists the axes held out, and a
 * shape outside the grid along another axis widens there by the rule of
 * thumb (rl_ec_band).
 * Each class's widening is measured beyond its own quantiles
 * (rl_ec_quantiles).  full: the full fit's parameters (hold_out takes a floor
 * its rest cannot see from them).  0, or -1 with err. */
static int tune_widening(const rl_fit_problem *pb, const rows *rs, rl_engine_costs *c,
                         const double *full, char *err, size_t errlen)
{
    static const char *const AXIS[RL_EC_AXES] = {"tp", "batch", "context", "tokens"};
    static const char *const CLASS[RL_EC_CLASSES] = {"decode", "prefill", "static"};
    size_t cap = (size_t)rs->n * RL_EC_AXES * 2;
    double *r = malloc(cap * sizeof *r), *d = malloc(cap * sizeof *d);
    double *kr = malloc(cap * sizeof *kr), *kd = malloc(cap * sizeof *kd);
    double *tmp = malloc(cap * sizeof *tmp);
    int *cls = malloc(cap * sizeof *cls), n = 0, rc = 0;
    unsigned char *held = malloc((size_t)rs->n);
    char from[256] = "", pooled[32] = "", axes[64] = "";
    size_t fl = 0;
    c->widened = 0;
    if (!r || !d || !kr || !kd || !tmp || !cls || !held) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
        goto done;
    }
    for (int a = 0; a < RL_EC_AXES; a++)
        for (int end = 1; end >= 0 && c->grid[a][0] < c->grid[a][1]; end--) {
            for (int i = 0; i < rs->n; i++) {
                double v[RL_EC_AXES];
                shape_of(rs->row[i], v);
                held[i] = v[a] > 0 && v[a] == c->grid[a][end];
            }
            int k = hold_out(pb, rs, held, c, full, r, d, cls, &n);
            if (k > 0 && !rl_ec_listed(axes, AXIS[a]))
                snprintf(axes + strlen(axes), sizeof axes - strlen(axes), "%s%s",
                         *axes ? "," : "", AXIS[a]);
            if (k > 0 && fl < sizeof from)
                fl += (size_t)snprintf(from + fl, sizeof from - fl, "%s%s %g (%d rows)",
                                       fl ? ", " : "", AXIS[a], c->grid[a][end], k);
        }
    if (n < WIDEN_MIN_ROWS)
        goto done;
    for (int k = 0; k < RL_EC_CLASSES; k++) {
        int m = 0;
        for (int i = 0; i < n; i++)
            if (cls[i] == k) {
                kr[m] = r[i];
                kd[m++] = d[i];
            }
        if (m < WIDEN_MIN_ROWS) {
            memcpy(kr, r, (size_t)n * sizeof *kr);
            memcpy(kd, d, (size_t)n * sizeof *kd);
            m = n;
            snprintf(pooled + strlen(pooled), sizeof pooled - strlen(pooled), "%s%s",
                     *pooled ? ", " : "", CLASS[k]);
        }
        double q[4];
        rl_ec_quantiles(c, (rl_ec_class)k, q);
        c->widen[k][0] = rl_ec_widening(kr, kd, m, q[1], q[2], 0.8, tmp);
        c->widen[k][1] = rl_ec_widening(kr, kd, m, q[0], q[3], 0.9, tmp);
        c->widen_seen[k] = 0;
        for (int i = 0; i < m; i++)
            c->widen_seen[k] = fmax(c->widen_seen[k], kd[i]);
    }
    rl_ec_nest(c);
    c->widened = 1;
    snprintf(c->widen_axes, sizeof c->widen_axes, "%s", axes);
    snprintf(c->widen_from, sizeof c->widen_from, "nested hold-outs of the fitted rows, each "
             "axis end held out and (E) fitted on the rest: %s%s%s%s", from,
             *pooled ? "; every class's rows pooled for " : "", pooled,
             *pooled ? " (fewer than 5 held out)" : "");
done:
    free(r);
    free(d);
    free(kr);
    free(kd);
    free(tmp);
    free(cls);
    free(held);
    return rc;
}

static int count_configs(const rows *rs, int phase)
{
    int n = 0;
    for (int i = 0; i < rs->n; i++) {
        if (phase >= 0 && (int)rs->row[i]->phase != phase)
            continue;
        int j = 0;
        while (j < i && rs->conf[j] != rs->conf[i])
            j++;
        n += j == i;
    }
    return n;
}

/* fit --engine names the engine the rows were measured on: one of the
 * engines the tool knows (trtllm, vllm, reference, and splitwise: the
 * SplitwiseSim perf model the shipped *-splitwise profiles are fitted on)
 * or a name the CSV's 'engine' column carries, so a typo is not fitted
 * under a new name.  0, or -1 with err listing them. */
static int check_engine(const rl_meas *m, const char *engine, char *err, size_t errlen)
{
    static const char *const KNOWN[] = {"trtllm", "vllm", RL_ENGINE_REFERENCE, "splitwise"};
    char names[256] = "trtllm, vllm, " RL_ENGINE_REFERENCE ", splitwise";
    if (!engine)
        return 0;
    for (size_t k = 0; k < sizeof KNOWN / sizeof *KNOWN; k++)
        if (strcmp(KNOWN[k], engine) == 0)
            return 0;
    for (int i = 0; i < m->n; i++) {
        const char *r = m->row[i].engine;
        if (strcmp(r, engine) == 0)
            return 0;
        if (*r && !strstr(names, r) && strlen(names) + strlen(r) + 3 < sizeof names)
            strcat(strcat(names, ", "), r);
    }
    snprintf(err, errlen, "--engine '%s': expected %s (known engines, or one the 'engine' column "
                          "of %s names: --engine keeps that engine's rows; to name the fitted "
                          "costs give --engine-name %s)", engine, names, m->path, engine);
    return -1;
}

/* What a profile fitted on a known engine's rows represents, for its header
 * ("" when nothing needs saying).  SplitwiseSim's data names no serving
 * framework (shared/data/README.md: "The serving framework is not
 * stated"; Patel et al., ISCA 2024, measured in 2023), and its fitted
 * per-step floor is that framework's host time, which kernel-table
 * profiles do not carry (tester9 #7c: 2.6-3.4x on Llama-2-70B TP8 decode,
 * docs/validation.md). */
static const char *engine_note(const char *engine)
{
    return strcmp(engine, "splitwise") != 0
               ? ""
               : "-- It represents SplitwiseSim's serving framework (not stated; measured in 2023)\n"
                 "-- with its per-step host floor (decode_step_s), which the kernel-table\n"
                 "-- profiles (TRT-LLM, vLLM tables) do not carry: on Llama-2-70B TP8 decode at\n"
                 "-- context 2048 this profile reads 2.6-3.4x theirs (docs/validation.md).\n"
                 "-- Its allocator is not stated either: HBM is split by the base's default\n"
                 "-- engine's memory rule (engines.splitwise.memory.source).\n";
}

/* Append name to the comma-separated list[cap] unless it is there. */
static void add_name(char *list, size_t cap, const char *name)
{
    size_t k = strlen(list), n = strlen(name);
    if (!rl_ec_listed(list, name) && k + n + 2 <= cap)
        snprintf(list + k, cap - k, "%s%s", k ? "," : "", name);
}

/* The engine the fitted costs belong to (engines.NAME.costs): --engine;
 * else the fitted rows' 'engine' column when they all name one; else the
 * CSV's name without directory and extension as an --engine name takes it
 * (param.c plain_name): each run of characters other than [A-Za-z0-9_.-]
 * one '-', none at either end, no '.' first, at most 31 characters (an
 * engine's name, engines.h) -- fixRC #8: "my runs (v2).csv" was named
 * "myrunsv2", "-x.csv" "-x", which no --engine X can name --; "fitted"
 * when none is left or the CSV has no file name (m->origin, report.h
 * rl_input_origin: stdin however spelled, a pipe, a descriptor; tester59
 * F3: /dev/fd/0 < runs.csv named it "0", /dev/fd/63 would name it "63"). */

static void engine_name(const rl_meas *m, const rows *rs, const char *given, char *out, size_t n)
{
    const char *col = rs->n ? rs->row[0]->engine : "";
    for (int i = 1; i < rs->n && *col; i++)
        col = strcmp(rs->row[i]->engine, col) == 0 ? col : "";
    const char *base = strrchr(m->path, '/') ? strrchr(m->path, '/') + 1 : m->path;
    const char *dot = strrchr(base, '.');
    size_t k = 0, cap = n < 32 ? n : 32;
    int gap = 0; /* characters left out since the last one kept */
    for (const char *p = base; *p && p != dot && k + 1 < cap; p++) {
        int keep = isalnum((unsigned char)*p) || strchr("_.-", *p);
        if (keep && (k > 0 || (*p != '.' && *p != '-'))) {
            if (gap && k + 2 >= cap) /* no room for the '-' and the next one */
                break;
            if (gap)
                out[k++] = '-';
            out[k++] = *p;
        }
        gap = !keep && k > 0;
    }
    while (k > 0 && (out[k - 1] == '-' || out[k - 1] == '.'))
        k--;
    out[k] = '\0';
    if (given || *col || !k || m->origin)
        snprintf(out, cap, "%.31s", given ? given : *col ? col : "fitted");
}

/* base's engine named `engine`, or NULL. */
static const rl_serving_engine *base_engine(const rl_hw *base, const char *engine)
{
    const rl_serving_engine *g = NULL;
    for (int i = 0; i < base->engines.n; i++)
        if (strcmp(base->engines.e[i].name, engine) == 0)
            g = &base->engines.e[i];
    return g;
}

/* The memory rule a saved profile's engine `saved` gets when it has none
 * (a refit keeps the one it has): that of the engine its rows ran on,
 * `against` (--engine, else the rows' engine column or the CSV's name) --
 * base's engine of that name when it has a rule, else that engine's
 * defaults (engines.c rl_engine_memory_default: trtllm, vllm) -- else, an
 * engine whose allocator is not known (SplitwiseSim's), base's default
 * engine's, its source saying so.  Fitted costs time steps; how HBM is
 * split is the engine's, and a profile without a rule gave the whole HBM
 * less --hbm-reserve (issue 12 item 4: vllm-mine read max_batch 406 where
 * vLLM's rule gives 385). */
static void inherit_memory(rl_hw *prof, const rl_hw *base, const char *saved, const char *against)
{
    rl_serving_engine *e = NULL;
    for (int i = 0; i < prof->engines.n; i++)
        if (strcmp(prof->engines.e[i].name, saved) == 0)
            e = &prof->engines.e[i];
    if (!e || e->mem.present)
        return;
    const rl_serving_engine *b = base_engine(base, against);
    rl_engine_memory d;
    if (b && b->mem.present)
        e->mem = b->mem;
    else if (rl_engine_memory_default(against, base->name, base->hbm_bytes, &d) == 0)
        e->mem = d;
    else if (base->engines.def >= 0 && base->engines.def < base->engines.n &&
             base->engines.e[base->engines.def].mem.present) {
        const rl_serving_engine *g = &base->engines.e[base->engines.def];
        e->mem = g->mem;
        snprintf(e->mem.source, sizeof e->mem.source,
                 "%.40s's default engine %.31s's (no memory rule of engine '%.31s' is known): %.800s",
                 base->name, g->name, against, g->mem.source);
    }
}

/* A fit is one engine's costs: rows whose engine column names two or more
 * engines are refused (tester44 F11: alternating trtllm/vllm rows were
 * fitted as one engine named after the file, unsaid); --engine E keeps E's
 * rows (load_rows).  0, or -1 with err naming the engines seen. */
static int one_engine(const rl_meas *m, const rows *rs, char *err, size_t errlen)
{
    char seen[512] = "";
    const char *first = NULL;
    int k = 0, n = 0;
    for (int i = 0; i < rs->n; i++) {
        const char *e = rs->row[i]->engine;
        int dup = !*e;
        for (int j = 0; j < i && !dup; j++)
            dup = strcmp(rs->row[j]->engine, e) == 0;
        if (dup)
            continue;
        first = first ? first : e;
        n++;
        if (k < (int)sizeof seen)
            k += snprintf(seen + k, sizeof seen - (size_t)k, "%s'%.63s' (line %d)", k ? ", " : "",
                          e, rs->row[i]->line);
    }
    if (n < 2)
        return 0;
    snprintf(err, errlen, "%s: column 'engine' (column %d) names %d engines: %s; a fit is one "
             "engine's costs: give --engine %s (or another of them) to fit its rows, once per "
             "engine", m->path, m->engine_col, n, seen, first);
    return -1;
}

/* The saved profile keeps an engine read from its own file (its kernel
 * tables) as that file's reference, which has no room for fitted costs;
 * `ideal` is no engine at all.  So costs to be saved under such a name are
 * refused up front (nothing fitted, nothing written) rather than silently
 * left out.  0, or -1 with err naming the engine and what to do. */
static int check_saved_engine(const rl_hw *base, const char *engine, char *err, size_t errlen)
{
    const rl_serving_engine *g = base_engine(base, engine);
    if (strcmp(engine, "ideal") != 0 && (!g || (!g->ref[0] && !g->file[0])))
        return 0;
    snprintf(err, errlen, "--save: %s's engine '%s' %s, which keeps no fitted costs; save them "
             "under a name of their own: give --engine-name NAME (e.g. --engine-name %s-fit; "
             "without it --engine, else the CSV's 'engine' column, else its file name, names "
             "them); nothing written",
             base->name, engine,
             g ? "is read from its own file (its kernel tables)" : "is the pure roofline", engine);
    return -1;
}

/* A saved profile times both phases by its costs (step, prefill, simulate,
 * size), so both must be fitted: rows with no prefill step leave
 * prefill_step_s, prefill_seq_s and prefill_comm_eff at their start values
 * (tester finding: decode-only rows gave a 22x too slow TTFT with a +-2%
 * band), rows with no decode step likewise decode's.  The phase (0 decode,
 * 1 prefill) no row has a step of, else -1 (static rows have both). */
static int missing_phase(const rows *rs)
{
    int seen[2] = {0, 0};
    for (int i = 0; i < rs->n; i++)
        for (int k = 0; k < rs->t[i].n; k++)
            seen[rs->t[i].step[k].prefill] = 1;
    return !seen[0] ? 0 : !seen[1] ? 1 : -1;
}

/* The parameters only phase ph's steps pin (missing_phase). */
static int phase_param(int ph, int p)
{
    return ph ? p == RL_EC_PREFILL_STEP || p == RL_EC_PREFILL_SEQ || p == RL_EC_PREFILL_COMM
              : p == RL_EC_DECODE_STEP || p == RL_EC_DECODE_SEQ || p == RL_EC_COMM;
}

/* Why no row of phase ph leaves its costs unfitted, into out[n]. */
static void phase_reason(int ph, char *out, size_t n)
{
    snprintf(out, n, "no row has a %s step, so %s cannot be fitted (held at their start values) "
             "and a saved profile would time every %s by start values", ph ? "prefill" : "decode",
             ph ? "prefill_step_s, prefill_seq_s and prefill_comm_eff"
                : "decode_step_s, decode_seq_s and comm_eff",
             ph ? "prefill (TTFT)" : "decode step (TPOT)");
}

/* --save refuses a fit missing a phase (missing_phase): 0, or -1 with err
 * naming the phase; nothing is written. */
static int check_both_phases(const rl_meas *m, const rows *rs, char *err, size_t errlen)
{
    int ph = missing_phase(rs);
    if (ph < 0)
        return 0;
    char why[512];
    phase_reason(ph, why, sizeof why);
    snprintf(err, errlen, "%s: %s; add %s or static rows (without --save, fit still prints the "
             "%s fit); nothing written", m->path, why, ph ? "prefill" : "decode",
             ph ? "decode" : "prefill");
    return -1;
}

/* Without --save a fit missing a phase runs, and says so (tester59 F4: a
 * decode-only fit printed band_prefill_p10/p90, decode's residuals
 * borrowed, and the prefill costs at their start values, unwarned): the
 * reason --save gives, appended to out[n] at *k (fit_warning, on stderr);
 * those parameters' status reads "not fitted" (param_json). */
static void missing_phase_warning(int ph, char *out, size_t n, size_t *k)
{
    if (ph < 0)
        return;
    char why[512];
    phase_reason(ph, why, sizeof why);
    *k += (size_t)snprintf(out + *k, *k < n ? n - *k : 0, "%s%s; band_%s_p10 and band_%s_p90 are "
                           "%s rows' residuals borrowed, no %s error (--save refuses this fit)",
                           *k ? "; " : "", why, ph ? "prefill" : "decode",
                           ph ? "prefill" : "decode", ph ? "the decode" : "the prefill",
                           ph ? "prefill" : "decode");
}

/* A band that is no sample of the fit's error says so (tester18 F6: two
 * prefill configurations, one held out at a time, left the other to
 * extrapolate: cross-validated p90 |error| 206%, the prefill band p10..p90
 * -1.88..-0.03, below every prediction, saved in silence).  Appended to
 * out[n] at *k, each when it holds: a class of rows (decode, prefill,
 * static) with fewer than RL_E2E_FEW_CONFIGS configurations, whose
 * p10..p90 is then its extremes (the reason of WIDEN_MIN_ROWS); a class
 * band whose p10 and p90 lie on one side of 0 (rl_ec_band then puts one
 * edge at the prediction, no room on that side); a cross-validated p90
 * |error| above RL_E2E_MISFIT_CV_P90. */
#define RL_E2E_FEW_CONFIGS 5
#define RL_E2E_MISFIT_CV_P90 1.0 /* predictions off by more than 2x, one row in ten */
static void few_configs_warning(const rl_engine_costs *c, const rows *rs, char *out, size_t n,
                                size_t *k)
{
    static const char *const CLASS[RL_EC_CLASSES] = {"decode", "prefill", "static"};
#define FEW_ADD(...) (*k += (size_t)snprintf(out + *k, *k < n ? n - *k : 0, __VA_ARGS__))
    for (int q = 0; q < RL_EC_CLASSES; q++) {
        int nc = count_configs(rs, q);
        if (nc > 0 && nc < RL_E2E_FEW_CONFIGS)
            FEW_ADD("%s%s rows: %d configuration%s (fewer than %d): each held out is predicted "
                    "from too few others, so its band is not a sample of the fit's error",
                    *k ? "; " : "", CLASS[q], nc, nc == 1 ? "" : "s", RL_E2E_FEW_CONFIGS);
        if (nc > 0 && c->classed && (c->cband[q][1] > 0 || c->cband[q][2] < 0))
            FEW_ADD("%s%s band p10 %+.3g, p90 %+.3g: nine held-out rows in ten measured %s "
                    "than predicted (one edge is the prediction itself)", *k ? "; " : "", CLASS[q],
                    c->cband[q][1], c->cband[q][2], c->cband[q][1] > 0 ? "slower" : "faster");
    }
    if (c->cv_p90 > RL_E2E_MISFIT_CV_P90)
        FEW_ADD("%scross-validated p90 |error| %.0f%% (above %.0f%%)", *k ? "; " : "",
                100 * c->cv_p90, 100 * RL_E2E_MISFIT_CV_P90);
#undef FEW_ADD
}

/* A fit that cannot match its rows says so (tester8 item 2: times in
 * milliseconds under measured_s gave a 69% CV error, two costs at a bound
 * and every residual of one sign, and fit said nothing).  The warning
 * names, each when it holds: a CV median |error| above RL_E2E_MISFIT_CV,
 * with the parameters then at a bound of their range; a band whose
 * p10 and p90 lie on one side of 0 (nine rows in ten measured slower, or
 * faster, than cross-validation predicts: a units mistake?); and up to 3
 * rows RL_E2E_MISFIT_ROW times off the fit (a unit or typo row the robust
 * fit set aside).  It warns; --save refuses a fit above RL_E2E_MISFIT_CV
 * (tester76 #1: the profile saved in milliseconds timed a 1.1 s decode
 * step later, silently) unless --save-misfit, since a poor fit of an odd
 * engine may still be the best there is (its loaders then say so).
 * "" when none holds; else the text in out[n] (printed by the CLI). */
#define RL_E2E_MISFIT_ROW 10.0  /* a row 10x off its fitted time */
static void misfit_warning(const rl_fit_result *fr, const rl_engine_costs *c, const rows *rs,
                           const double *err_fit, char *out, size_t n)
{
    size_t k = 0;
    out[0] = '\0';
#define MISFIT_ADD(...) (k += (size_t)snprintf(out + k, k < n ? n - k : 0, __VA_ARGS__))
    if (c->cv_median > RL_E2E_MISFIT_CV)
        MISFIT_ADD("cross-validated median |error| %.0f%% (above %.0f%%: the costs cannot match "
                   "these rows)", 100 * c->cv_median, 100 * RL_E2E_MISFIT_CV);
    int nb = 0;
    for (int p = 0; k && p < RL_EC_N; p++) /* a good fit may rest on a bound: said only here */
        if (fr->at_bound[p] && !fr->held[p])
            MISFIT_ADD("%s%s", nb++ ? ", " : k ? "; at a bound of its range: " : "at a bound of its "
                       "range: ", rl_ec_name((rl_ec_param)p));
    if (k && (c->band_p10 > 0 || c->band_p90 < 0))
        MISFIT_ADD("; nine rows in ten measured %s than predicted (band p10 %+.3g, p90 %+.3g): "
                   "is measured_s in seconds?", c->band_p10 > 0 ? "slower" : "faster",
                   c->band_p10, c->band_p90);
    for (int i = 0, shown = 0; i < rs->n && shown < 3; i++) {
        double f = 1 + err_fit[i];
        if (f > 0 && fabs(log(f)) <= log(RL_E2E_MISFIT_ROW))
            continue;
        MISFIT_ADD("%sline %d: measured %.4g, the fit predicts %.4g (over %gx apart: a unit or "
                   "typo?)", k ? "; " : "", rs->row[i]->line, rs->meas_s[i],
                   rs->meas_s[i] * f, RL_E2E_MISFIT_ROW);
        shown++;
    }
    few_configs_warning(c, rs, out, n, &k);
#undef MISFIT_ADD
}

/* A fitted efficiency scale (compute_eff, memory_eff: the fraction of the
 * chip's peak its step's roofline terms run at) below RL_E2E_EFF_FLOOR says
 * the rows ran many times the roofline of the model and chip named: most
 * often rows of another model, chip or precision (tester81 D: Llama-2-70B
 * rows of SplitwiseSim's splitwise_h100.csv fitted as llama3-8b on h100-sxm
 * gave memory_eff 0.083, compute_eff 0.098, tp_excess 21.4; as llama2-70b
 * 0.72, 0.93, 6.7).  The floor, 0.2: published serving figures sit well
 * above it (Pope et al., "Efficiently Scaling Transformer Inference",
 * MLSys 2023, arXiv:2211.05102: 76% MFU in large-batch prefill on TPU v4;
 * this project's own fit of these rows as llama2-70b: memory_eff 0.72,
 * compute_eff 0.93), so a scale under it is 3.5x or more below those.  A
 * note, not an error: a slow engine is a real one. */
#define RL_E2E_EFF_FLOOR 0.2

/* The scales alone miss a wrong model when the rows do not pin them
 * (issue 13 item 1: the same rows as mixtral-8x7b fitted compute_eff 0.16
 * "not identified", the step floors decode_step_s 30 ms and prefill_step_s
 * 54 ms and prefill_act_byte_s taking the time; step on the saved profile
 * then said 30.6 ms "fitted" where the kernel tables say 6.5 ms).  So the
 * rows themselves are checked too, with nothing fitted: the median over the
 * fitted rows of measured / roofline floor (floor_s, step --ideal's time of
 * the row under its model and chip).  On the right model this project's
 * rows run 2.2-2.8x their roofline (SplitwiseSim's perf_model.csv through
 * calib/splitwise_csv.sh, every configuration: Llama-2-70B 2.76x on
 * h100-sxm and 2.50x on a100-sxm-80g, BLOOM-176B 2.69x and 2.21x; an
 * engine with a 30-45 ms host floor per step, which lifts its small-batch
 * rows most, docs/validation.md); the wrong models tried sit at 5.3x and
 * more (qwen3-32b 5.3-5.8x, gemma2-27b 6.4-6.9x, mixtral-8x7b 10-12x on
 * the Llama-2-70B rows; llama2-70b 5.6-6.6x on the BLOOM-176B rows).
 * RL_E2E_ROOF_RATIO_MAX, 4x, is our choice between: 1.45x above the
 * slowest right-model fit, 1.3x below the nearest wrong one.  The other
 * side needs no note: a row below 0.9x its floor is refused
 * (RL_E2E_FLOOR_MARGIN).  A note, as the scales': an engine with a large
 * host floor on small steps is a real one, and the note says what it
 * measured. */
#define RL_E2E_ROOF_RATIO_MAX 4.0

/* The median over rs's rows of measured / roofline floor (rows whose floor
 * is not positive skipped); 0 when none. */
static double roof_ratio_median(const rows *rs)
{
    double *v = malloc((size_t)(rs->n ? rs->n : 1) * sizeof *v);
    int k = 0;
    for (int i = 0; v && i < rs->n; i++)
        if (rs->floor_s[i] > 0)
            v[k++] = rs->meas_s[i] / rs->floor_s[i];
    double med = k ? rl_fit_quantile(v, k, 0.5) : 0;
    free(v);
    return med;
}

/* The plausibility note of a fit, written into out[n]: fitted scales below
 * RL_E2E_EFF_FLOOR (fitted, not held, their phase present) and the rows'
 * median measured / roofline above RL_E2E_ROOF_RATIO_MAX, either or both
 * in one sentence.  Returns 1 when it says something, else 0 (out ""). */
static int plausibility_note(const rl_fit_result *fr, int missing, const rows *rs, char *out,
                             size_t n)
{
    static const int EFF[2] = {RL_EC_COMPUTE, RL_EC_MEMORY};
    size_t k = 0;
    out[0] = '\0';
#define NOTE_ADD(...) (k += (size_t)snprintf(out + k, k < n ? n - k : 0, __VA_ARGS__))
    for (int i = 0; i < 2; i++) {
        double v, sd;
        rl_ec_status st = param_status(fr, EFF[i], &v, &sd);
        if ((st != RL_EC_FITTED && st != RL_EC_AT_BOUND) ||
            (missing >= 0 && phase_param(missing, EFF[i])) || !(v < RL_E2E_EFF_FLOOR))
            continue;
        NOTE_ADD("%s%s %.3g", k ? ", " : "", rl_ec_name((rl_ec_param)EFF[i]), v);
    }
    if (k)
        NOTE_ADD(" (below %g of the chip's peak; published serving runs and this project's fits "
                 "of measured engines sit at 0.7 or more)", RL_E2E_EFF_FLOOR);
    double ratio = roof_ratio_median(rs);
    if (ratio > RL_E2E_ROOF_RATIO_MAX) {
        char under[600] = "";
        if (rs->nmodel == 1 && rs->nhw == 1)
            snprintf(under, sizeof under, " under %.256s on %.256s", rs->model_names[0],
                     rs->hw_names[0]);
        NOTE_ADD("%sthe rows' measured times are a median %.3gx their roofline%s (step "
                 "--ideal's time of each row; this project's fits of measured rows on the right "
                 "model sit at 2.2-2.8x, above %gx is noted), so the fitted step floors and "
                 "efficiencies absorb the difference", k ? ", and " : "", ratio, under,
                 RL_E2E_ROOF_RATIO_MAX);
    }
    if (!k)
        return 0;
    NOTE_ADD(": the measurements run many times the roofline of the model and chip named; check "
             "--model, --hw and the rows' weight, KV and compute dtypes");
#undef NOTE_ADD
    return 1;
}

/* fit refuses a row with pp or ep > 1 (bad input, exit 2; nothing
 * written): (E)'s terms are those of one tensor-parallel step, a replica
 * TP over its tp GPUs (enginecost.h), fitted on such steps.  A pipeline's
 * pass runs pp micro-batch streams whose host costs (step floor, per
 * sequence) overlap across stages in ways no term separates, and its
 * stage sends are a collective the TP rows never measured; expert
 * parallelism adds AllToAlls and an expert split (E) has no term for.
 * Fitting them would bend the TP terms to absorb costs they do not
 * describe, with no published rows to check it against.  validate
 * --against predicts such rows (layout_time), on the costs a TP fit gave.
 * 0, or -1 with err naming the file, line and column. */
static int no_layout_rows(const rl_meas *m, char *err, size_t errlen)
{
    for (int i = 0; i < m->n; i++) {
        const rl_meas_row *r = &m->row[i];
        if (!laid_out(r))
            continue;
        int pp = r->pp > 1;
        snprintf(err, errlen, "%s:%d: column '%s' (column %d): %s %lld: fit's engine-cost terms "
                 "are per tensor-parallel step (one replica TP over tp GPUs), which %s do not "
                 "enter; fit on rows with pp and ep 1 (or without those columns) and predict this "
                 "row with validate --against", m->path, r->line, pp ? "pp" : "ep",
                 pp ? m->pp_col : m->ep_col, pp ? "a pipeline row, pp" : "an expert-parallel row, ep",
                 pp ? r->pp : r->ep,
                 pp ? "a pipeline's micro-batch streams and stage sends"
                    : "expert parallelism's AllToAlls and expert split");
        return -1;
    }
    return 0;
}

cJSON *rl_e2e_fit(const rl_meas *m, const rl_e2e_opts *o, char *err, size_t errlen)
{
    rows rs;
    rl_hw base;
    char e[1024];
    if ((o->plot && rl_plot_check_path(o->plot, err, errlen) != 0) ||
        check_engine(m, o->engine, err, errlen) != 0 || no_layout_rows(m, err, errlen) != 0)
        return NULL;
    if (rl_hw_load(o->hw, o->sets[1], o->nsets[1], &base, e, sizeof e) != 0) {
        snprintf(err, errlen, "--hw: %s", e);
        return NULL;
    }
    if (o->hw_smoke_test && base.smoke_test)
        *o->hw_smoke_test = 1;
    cJSON *res = NULL;
    double *cvp = NULL, *err_fit = NULL, *err_cv = NULL, *logr = NULL;
    if (load_rows(m, o, base.name, o->engine, NULL, &rs, err, errlen) != 0)
        goto done;
    if (rs.n == 0) {
        char others[1100] = ""; /* which hw or engine the rows name (tester52 F11) */
        if (rs.other)
            snprintf(others, sizeof others, " (%d row(s) of another: %.1000s)", rs.other,
                     rs.other_first);
        snprintf(err, errlen, "%s: no rows for hardware %s%s%s%s%s%s%s", m->path, base.name,
                 o->engine ? " and engine " : "", o->engine ? o->engine : "",
                 rs.beyond ? " within the model's max_context (" : "", rs.beyond_first,
                 rs.beyond ? "; raise it with --set model.max_context=N)" : "", others);
        goto done;
    }
    if (one_engine(m, &rs, err, errlen) != 0)
        goto done;
    char saved_as[32];
    if (o->engine_name && strlen(o->engine_name) >= sizeof saved_as) {
        snprintf(err, errlen, "--engine-name '%s': an engine's name has at most %d characters",
                 o->engine_name, (int)sizeof saved_as - 1);
        goto done;
    }
    engine_name(m, &rs, o->engine_name ? o->engine_name : o->engine, saved_as, sizeof saved_as);
    if (o->save && check_saved_engine(&base, saved_as, err, errlen) != 0)
        goto done;
    if (resolve_configs(&rs, saved_as, err, errlen) != 0)
        goto done;
    /* the parameters some row's time can depend on: comm_eff and
     * tp_excess one column (enginecost.h), and none of a phase no row has
     * (missing_phase: they are held at their start values, as their status
     * says; tester63 #7: 9 decode rows were refused "for 10 parameters",
     * the four prefill ones counted); the fit itself then counts the
     * identifiable ones (fit.h rl_fit_best) */
    int gone = missing_phase(&rs), nparam = 0;
    char pnames[320] = "", held_phase[160] = "";
    for (int p = 0, k = 0, h = 0; p < RL_EC_N; p++) {
        int off = gone >= 0 && (phase_param(gone, p) || p == (gone ? RL_EC_PREFILL_ACT
                                                                    : RL_EC_TP_EXCESS) ||
                                (gone && p == RL_EC_PREFILL_RANK));
        if (off)
            h += snprintf(held_phase + h, sizeof held_phase - (size_t)h, "%s%s", h ? ", " : "",
                          rl_ec_name((rl_ec_param)p));
        /* prefill_rank_s: held unless the fit puts prefill rows on the host floor at two TP
         * degrees (hold_rank_off_floor), which is not known before it; fit.c counts it
         * among the identifiable ones when it is (stop 42: a 10-row fit kept running) */
        if (p == RL_EC_COMM || p == RL_EC_PREFILL_RANK || off)
            continue;
        nparam++;
        k += snprintf(pnames + k, sizeof pnames - (size_t)k, "%s%s", k ? ", " : "",
                      p == RL_EC_TP_EXCESS ? "tp_excess with comm_eff"
                                           : rl_ec_name((rl_ec_param)p));
    }
    if (rs.n < nparam) { /* fit.c then asks one more than the identifiable ones */
        char held_note[320] = "";
        if (*held_phase)
            snprintf(held_note, sizeof held_note, "; %s held: no %s row", held_phase,
                     gone ? "prefill" : "decode");
        snprintf(err, errlen, "%s: fewer rows than parameters: %d rows of hardware %s for %d "
                 "parameters (%s%s): the fit needs one row more than those of them the rows "
                 "identify, whatever --folds (each fold fits on fewer); nothing written", m->path,
                 rs.n, base.name, nparam, pnames, held_note);
        goto done;
    }
    if (o->save && check_both_phases(m, &rs, err, errlen) != 0)
        goto done;
    double lo[RL_EC_N], hi[RL_EC_N];
    const char *names[RL_EC_N];
    for (int p = 0; p < RL_EC_N; p++) {
        double a, b;
        rl_ec_range((rl_ec_param)p, &a, &b);
        int eff = rl_ec_is_eff((rl_ec_param)p);
        lo[p] = eff ? 1 / b : a;
        hi[p] = eff ? 1 / a : b;
        names[p] = rl_ec_name((rl_ec_param)p);
    }
    char held[800] = "";
    hold_act_on_one_tp(&rs, held, sizeof held);
    rl_fit_problem pb = {RL_EC_N, rs.n, names, lo, hi, rs.meas_s, predict_row, columns_row, &rs};
    rl_fit_result fr;
    double x0[NSTART * RL_EC_N];
    starts(&rs, NULL, x0);
    if (rl_fit_best(&pb, x0, NSTART, NULL, &fr, e, sizeof e) != 0 ||
        (hold_rank_off_floor(&rs, fr.x, held, sizeof held) &&
         rl_fit_best(&pb, x0, NSTART, NULL, &fr, e, sizeof e) != 0)) {
        snprintf(err, errlen, "%s: %s", m->path, e);
        goto done;
    }
    cvp = malloc((size_t)rs.n * sizeof *cvp);
    err_fit = malloc((size_t)rs.n * sizeof *err_fit);
    err_cv = malloc((size_t)rs.n * sizeof *err_cv);
    logr = malloc((size_t)rs.n * sizeof *logr);
    if (!cvp || !err_fit || !err_cv || !logr) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    int nconf = count_configs(&rs, -1), k = o->folds < nconf ? o->folds : nconf;
    if (k < 2) {
        snprintf(err, errlen, "%s: %d configuration%s: cross-validation needs at least 2", m->path,
                 nconf, nconf == 1 ? "" : "s");
        goto done;
    }
    if (cross_validate(&pb, &rs, k, cvp, e, sizeof e) < 0) {
        cv_failed(&fr, m->path, e, nconf, k, err, errlen);
        goto done;
    }
    res = cJSON_CreateObject();
    cJSON *rows_arr = cJSON_CreateArray();
    for (int i = 0; i < rs.n; i++) {
        double t = rl_ec_time(&rs.t[i], fr.x, NULL);
        err_fit[i] = t / rs.meas_s[i] - 1;
        err_cv[i] = cvp[i] / rs.meas_s[i] - 1;
        logr[i] = log(rs.meas_s[i] / cvp[i]);
        cJSON *row = row_json(rs.row[i], &rs.models[rs.model[i]], &base, rs.prec[i], saved_as,
                              rs.meas_s[i], t);
        cJSON_AddNumberToObject(row, "residual", err_fit[i]);
        cJSON_AddNumberToObject(row, "cv_predicted_s", cvp[i]);
        cJSON_AddNumberToObject(row, "cv_error", err_cv[i]);
        cJSON_AddItemToArray(rows_arr, row);
    }
    rl_engine_costs c = rl_engine_costs_ideal();
    rl_ec_from_x(fr.x, &c);
    record_status(&fr, &c);
    c.present = 1;
    int *cls = malloc((size_t)rs.n * sizeof *cls);
    if (!cls) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    for (int i = 0; i < rs.n; i++)
        cls[i] = (int)rs.row[i]->phase;
    rl_ec_class_bands(logr, cls, rs.n, &c);
    unsigned int *keys = (unsigned int *)cls; /* rs.n ints, free again */
    for (int i = 0; i < rs.n; i++)
        keys[i] = timed_key(&rs, i, saved_as);
    rl_ec_set_row_keys(&c, keys, rs.n);
    free(cls);
    c.band_p5 = rl_fit_bound(logr, rs.n, 0.05);
    c.band_p10 = rl_fit_bound(logr, rs.n, 0.10);
    c.band_p90 = rl_fit_bound(logr, rs.n, 0.90);
    c.band_p95 = rl_fit_bound(logr, rs.n, 0.95);
    rl_fit_summary cv = rl_fit_summarize(err_cv, rs.n);
    snprintf(c.engine, sizeof c.engine, "%s", saved_as);
    /* the CSV's name; stdin, a pipe or a descriptor has none (/dev/fd/63's
     * last part, "63", is no file): m->origin says which, as import-hf
     * says its config's source (report.h rl_input_origin, the one rule) */
    const char *base_name = strrchr(m->path, '/') ? strrchr(m->path, '/') + 1 : m->path;
    if (m->origin)
        base_name = m->origin;
    snprintf(c.file, sizeof c.file, "%.255s", base_name);
    csv_hash(m, c.hash, sizeof c.hash);
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(c.date, sizeof c.date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    c.rows = rs.n;
    c.configs = nconf;
    c.cv_median = cv.median_abs;
    c.cv_p90 = cv.p90_abs;
    for (int i = 0; i < rs.n; i++) { /* the fitted models and weight dtypes */
        rl_precision pr = o->prec;
        const char *mn = *rs.row[i]->model ? rs.row[i]->model : o->model;
        for (int j = 0; j < rs.nmodel; j++)
            if (strcmp(rs.model_names[j], mn) == 0)
                add_name(c.models, sizeof c.models, rs.models[j].name);
        if (row_precision(rs.row[i], &pr, m->path, e, sizeof e) == 0) {
            add_name(c.weights, sizeof c.weights, rl_dtype_name(pr.weights));
            add_name(c.kv, sizeof c.kv, rl_dtype_name(pr.kv));
            add_name(c.compute, sizeof c.compute, rl_dtype_name(pr.compute));
        }
    }
    grid_of(&rs, NULL, c.grid);
    if (tune_widening(&pb, &rs, &c, fr.x, e, sizeof e) != 0) {
        snprintf(err, errlen, "%s: %s", m->path, e);
        goto done;
    }
    snprintf(c.source, sizeof c.source, "roofline fit on %s (%d rows, %d configurations, %s, %s)",
             c.file, rs.n, nconf, c.hash, c.date);

    cJSON_AddStringToObject(res, "file", m->path);
    cJSON_AddStringToObject(res, "hash", c.hash);
    cJSON_AddStringToObject(res, "hw", base.name);
    cJSON_AddStringToObject(res, "engine", c.engine);
    cJSON_AddStringToObject(res, "models", c.models); /* as fitted_on.models saves them */
    add_model_note(res, &rs, o->model);
    cJSON_AddNumberToObject(res, "fitted_rows", rs.n);
    cJSON_AddNumberToObject(res, "configurations", nconf);
    cJSON_AddNumberToObject(res, "left_out_rows", m->n - rs.n);
    add_beyond_note(res, &rs, m->path);
    cJSON_AddNumberToObject(res, "iterations", fr.iterations);
    cJSON_AddNumberToObject(res, "residual_sd_log", fr.scale);
    char ident[sizeof fr.note + sizeof held + 2];
    /* one reason per parameter (tester18 F15): held's, not fit.c's words for a column
     * that is 0 in every row */
    static const rl_ec_param ZEROED[] = {RL_EC_PREFILL_ACT, RL_EC_PREFILL_RANK};
    for (size_t z = 0; z < sizeof ZEROED / sizeof *ZEROED; z++)
        if (strstr(held, rl_ec_name(ZEROED[z]))) {
            char c[128];
            snprintf(c, sizeof c, "%s: no row depends on it; held at its start value",
                     rl_ec_name(ZEROED[z]));
            drop_clause(fr.note, c);
        }
    snprintf(ident, sizeof ident, "%s%s%s", fr.note, *fr.note && *held ? "; " : "", held);
    cJSON_AddStringToObject(res, "identifiability", *ident ? ident : "every parameter identified");
    add_summary(res, "fit_", err_fit, rs.n);
    cJSON_AddNumberToObject(res, "cv_folds", k);
    add_summary(res, "cv_", err_cv, rs.n);
    /* tester59 F6: the two sign conventions side by side (values unchanged) */
    cJSON_AddStringToObject(res, "sign_convention", RL_E2E_SIGN_CONVENTION);
    cJSON_AddNumberToObject(res, "band_p10", c.band_p10);
    cJSON_AddNumberToObject(res, "band_p90", c.band_p90);
    if (c.classed) {
        static const char *const K[2][2] = {{"band_decode_p10", "band_decode_p90"},
                                            {"band_prefill_p10", "band_prefill_p90"}};
        for (int k = 0; k < 2; k++)
            for (int j = 0; j < 2; j++)
                cJSON_AddNumberToObject(res, K[k][j], c.cband[k][1 + j]);
        cJSON_AddStringToObject(res, "band_per_class_from", c.class_from);
    }
    if (c.widened) { /* the p10-p90 widening per octave outside the grid, by row class */
        static const char *const K[RL_EC_CLASSES] = {"band_per_octave_decode",
                                                     "band_per_octave_prefill",
                                                     "band_per_octave_static"};
        for (int q = 0; q < RL_EC_CLASSES; q++)
            cJSON_AddNumberToObject(res, K[q], c.widen[q][0]);
        cJSON_AddStringToObject(res, "band_per_octave_from", c.widen_from);
    } else
        cJSON_AddStringToObject(res, "band_per_octave_from", "not tuned (too few held-out rows): "
                                "the rule of thumb (1 + octaves outside) widens the band");
    cJSON *params = cJSON_AddArrayToObject(res, "parameters");
    for (int p = 0; p < RL_EC_N; p++)
        cJSON_AddItemToArray(params, param_json(&fr, p, missing_phase(&rs), base.collectives.present));
    char misfit[2048]; /* every warning of misfit_warning and few_configs_warning */
    misfit_warning(&fr, &c, &rs, err_fit, misfit, sizeof misfit);
    size_t mk = strlen(misfit);
    missing_phase_warning(missing_phase(&rs), misfit, sizeof misfit, &mk);
    if (*misfit)
        cJSON_AddStringToObject(res, "fit_warning", misfit);
    char implausible[1536];
    if (plausibility_note(&fr, missing_phase(&rs), &rs, implausible, sizeof implausible))
        cJSON_AddStringToObject(res, "plausibility_note", implausible);
    cJSON_AddItemToObject(res, "rows", rows_arr);
    /* before the figure: a refused fit writes nothing */
    if (o->save && c.cv_median > RL_E2E_MISFIT_CV && !o->save_misfit) {
        int one_side = c.band_p10 > 0 || c.band_p90 < 0;
        const char *side = c.band_p10 > 0 ? "slower than predicted" : "faster than predicted";
        snprintf(err, errlen, "%s: the fit cannot match its rows: cross-validated median "
                 "|error| %.0f%% (above %.0f%%)%s%s; nothing written to %s: %s; pass "
                 "--save-misfit to save it anyway (every command that loads it then says so)",
                 m->path, 100 * c.cv_median, 100 * RL_E2E_MISFIT_CV,
                 one_side ? ", nine rows in ten measured " : "", one_side ? side : "", o->save,
                 one_side ? "is measured_s in seconds? (times in milliseconds fit this way)"
                          : "check the rows' units and values (fit without --save warns what "
                            "is off)");
        cJSON_Delete(res);
        res = NULL;
        goto done;
    }
    if (o->plot && add_plot(res, o->plot, "roofline fit: cross-validated prediction vs measured",
                            &rs, cvp, err, errlen) != 0) {
        cJSON_Delete(res);
        res = NULL;
        goto done;
    }
    if (o->save) {
        rl_hw prof = base;
        if (rl_ec_band_check(&c, e, sizeof e) != 0) { /* what the profile's reader refuses */
            snprintf(err, errlen, "%s: %s; nothing written to %s", m->path, e, o->save);
            cJSON_Delete(res);
            res = NULL;
            goto done;
        }
        if (rl_hw_put_costs(&prof, &c, err, errlen) != 0) {
            cJSON_Delete(res);
            res = NULL;
            goto done;
        }
        inherit_memory(&prof, &base, c.engine, o->engine ? o->engine : saved_as);
        /* a refit of a fitted profile keeps its name: h100-sxm-myeng fitted
         * again for myeng stays h100-sxm-myeng (tester LOW #9: -myeng-myeng);
         * a refit only when the base holds fitted costs of that engine, so a
         * preset whose name ends in the engine's is not one (review39 F9:
         * h100-sxm fitted for engine "sxm" was saved as "h100-sxm") */
        size_t bl = strlen(base.name), el = strlen(c.engine);
        const rl_serving_engine *was = base_engine(&base, c.engine);
        if (was && was->fitted.present && bl > el + 1 && base.name[bl - el - 1] == '-' &&
            !strcmp(base.name + bl - el, c.engine))
            snprintf(prof.name, sizeof prof.name, "%s", base.name);
        else
            snprintf(prof.name, sizeof prof.name, "%.40s-%.20s", base.name, c.engine);
        char comment[2048];
        snprintf(comment, sizeof comment,
                 "-- %s with the engine costs '%s', fitted by `roofline fit` (src/e2e.h) on\n"
                 "-- %s: %d rows, %d configurations, %s, %s.\n"
                 "-- %d-fold cross-validated |error| (folds of whole configurations): median\n"
                 "-- %.1f%%, p90 %.1f%%.  Every other field is %s's, as loaded.\n%s",
                 base.name, c.engine, c.file, rs.n, nconf, c.hash, c.date, k, 100 * cv.median_abs,
                 100 * cv.p90_abs, base.name, engine_note(c.engine));
        if (save_profile(o->save, &prof, comment, o->save_failed, err, errlen) != 0) {
            cJSON_Delete(res);
            res = NULL;
            goto done;
        }
        cJSON_AddStringToObject(res, "profile", o->save);
    }
done:
    free(cvp);
    free(err_fit);
    free(err_cv);
    free(logr);
    rows_free(&rs);
    return res;
}

/* ---- fitted profiles in step and prefill ----------------------------------------- */

static void set_number(cJSON *o, const char *k, double v)
{
    cJSON *it = cJSON_GetObjectItem(o, k);
    if (it)
        cJSON_SetNumberValue(it, v);
    else
        cJSON_AddNumberToObject(o, k, v);
}

static double get_number(const cJSON *o, const char *k)
{
    const cJSON *it = cJSON_GetObjectItem(o, k);
    return cJSON_IsNumber(it) ? it->valuedouble : 0;
}

/* Set o's string key k, replacing the one add_run_header may have written
 * (a key appears once in a result). */
static void set_string(cJSON *o, const char *k, const char *v)
{
    cJSON *s = cJSON_CreateString(v);
    if (s && cJSON_GetObjectItem(o, k))
        cJSON_ReplaceItemInObject(o, k, s);
    else if (s)
        cJSON_AddItemToObject(o, k, s);
}

/* A prompt of `tokens` prefilled in chunks of `chunk` (one sequence, TP over
 * `chips`) by (E): each chunk one prefill step at the prefix done so far,
 * as simulate's chunked policy times them (serve.c step_time).  Returns the
 * seconds, or -1 with err set. */
static double fitted_chunked(const rl_model *m, const rl_hw *h, long long chips, rl_precision p,
                             const double *x, long long tokens, long long chunk, char *err,
                             size_t errlen)
{
    double total = 0;
    if (chunk < 1) {
        snprintf(err, errlen, "chunk %lld: expected at least one token", chunk);
        return -1;
    }
    for (long long done = 0; done < tokens; done += chunk) {
        long long n = tokens - done < chunk ? tokens - done : chunk;
        rl_ops_config c = rl_ops_config_default();
        c.chips = chips;
        c.prec = p;
        c.prefill_seqs = 1;
        c.prefill_tokens = n;
        c.prefill_prefix = done;
        rl_ec_terms t = {0};
        if (add_step(m, h, &c, RL_PHASE_PREFILL, 1, n, 1, &t, err, errlen) != 0)
            return -1;
        total += rl_ec_time(&t, x, NULL);
    }
    return total;
}

/* A fitted step row's collectives (chips > 1): comm_s, their time in (E)
 * (each step's ideal collective time over its phase's fitted comm_eff,
 * times its count), and the plan's collectives a step and how many are
 * latency-bound. */
static double fitted_comm(const rl_ec_terms *t, const double *x)
{
    double comm = 0;
    for (int k = 0; k < t->n; k++)
        comm += t->step[k].count * t->step[k].comm_s *
                x[t->step[k].prefill ? RL_EC_PREFILL_COMM : RL_EC_COMM];
    return comm;
}

/* A fitted row's tp_excess_s: the step time TP's decode cost beyond the
 * collectives adds, (E) with tp_excess less (E) without it (enginecost.h),
 * of kernel_excess_s, named apart so that comm_s stays the collectives
 * (tester22 F6: a fitted comm_s read 30x the measured AllReduces).
 * tp_excess x the collectives' measured time is device time, and a step
 * takes max(host, device): only its part above the host floor is in the
 * step, 0 where the floor sets it (review29 M2: Llama-2-70B TP8 B=1 on
 * h100-sxm-splitwise printed 14.35 ms that the 29.90 ms step, the host
 * floor, does not contain). */
static double fitted_tp_excess(const rl_ec_terms *t, const double *x)
{
    double none[RL_EC_N];
    memcpy(none, x, sizeof none);
    none[RL_EC_TP_EXCESS] = 0;
    return rl_ec_time(t, x, NULL) - rl_ec_time(t, none, NULL);
}

static void add_fitted_comm(cJSON *row, const rl_ec_terms *t, const double *x, long long chips)
{
    /* set, not added: a one-copy step row carries comm_s 0, no collectives
     * and strategy "one copy over N chips" (result.c add_plan_keys, fixNF
     * #3), which the fitted costs time as TP over the chips */
    char tp[32];
    snprintf(tp, sizeof tp, "tp%lld", chips);
    if (cJSON_GetObjectItem(row, "strategy"))
        set_string(row, "strategy", tp);
    set_number(row, "comm_s", fitted_comm(t, x));
    cJSON_AddNumberToObject(row, "tp_excess_s", fitted_tp_excess(t, x));
    set_number(row, "collectives", t->step[0].ncoll);
    set_number(row, "latency_bound_collectives", t->step[0].latency_bound);
}

/* The measured row (E) times for a fitted decode step of `batch` sequences
 * at `len` cached tokens, each token's KV read on `kv_copies` chips (the
 * plan's layout, shard.h rl_kv_layout; 1: one copy), or (prefill) one
 * prompt of `len` tokens, one replica TP over `tp` GPUs (1D plan): what
 * rl_e2e_fitted_step and rl_e2e_retime both time. */
static rl_meas_row fitted_row(int prefill, long long tp, long long batch, long long len,
                              double kv_copies)
{
    return (rl_meas_row){.phase = prefill ? RL_MEAS_PREFILL : RL_MEAS_DECODE, .tp = tp,
                         .batch = prefill ? 1 : batch, .pp = 1, .ep = 1,
                         .context = prefill ? 0 : len, .tokens = prefill ? len : 0,
                         .kv_copies = prefill ? 1 : kv_copies};
}

/* rl_e2e_fitted_step of one pass through a pipeline whose stage sends
 * take sends_s (their time as rl_shard_pp_sends gives it; 0: one stage):
 * the sends join the step's collectives, at the fitted comm_eff, as the
 * simulator charges a pass (serve.c tp_comm adds them to the collectives
 * rl_e2e_mixed_time takes; tester18 F10). */
static double fitted_pass(const rl_model *m, const rl_hw *h, rl_precision p, int prefill,
                          long long tp, long long batch, long long len, double kv_copies,
                          double sends_s, double *comm_s, double *tp_excess_s, char *err,
                          size_t errlen)
{
    rl_meas_row r = fitted_row(prefill, tp, batch, len, kv_copies);
    double x[RL_EC_N];
    rl_ec_to_x(&h->engine_costs, x);
    rl_ec_terms t;
    if (rl_ec_terms_of(m, h, p, &r, &t, err, errlen) != 0)
        return -1;
    t.step[0].comm_s += sends_s;
    t.step[0].sends_s = sends_s;
    if (comm_s)
        *comm_s = fitted_comm(&t, x);
    if (tp_excess_s)
        *tp_excess_s = fitted_tp_excess(&t, x);
    return rl_ec_time(&t, x, NULL);
}

double rl_e2e_fitted_step(const rl_model *m, const rl_hw *h, rl_precision p, int prefill,
                          long long tp, long long batch, long long len, double *comm_s, char *err,
                          size_t errlen)
{
    return fitted_pass(m, h, p, prefill, tp, batch, len, 1, 0, comm_s, NULL, err, errlen);
}

rl_shard_plan rl_e2e_step_plan(const rl_hw *h, const rl_shard_plan *pl, long long chips)
{
    return pl ? *pl : step_plan(h, chips > 1 ? chips : 1, 1, 1);
}

double rl_e2e_kv_copies(const rl_model *m, const rl_hw *h, const rl_shard_plan *pl,
                        long long chips)
{
    rl_shard_plan plan = rl_e2e_step_plan(h, pl, chips);
    return m->abstract ? 1 : rl_shard_kv_layout(m, &plan, 1).copies;
}

int rl_e2e_fitted_plan(const rl_hw *h, const rl_shard_plan *pl)
{
    rl_shard_plan stage = *pl; /* a pipeline's stage: one replica TP over its chips */
    stage.pp = 1;
    return h->engine_costs.present && rl_shard_plan_is_tp_over(&stage, stage.tp);
}

int rl_e2e_fitted_shard(const rl_model *m, const rl_hw *h, rl_precision p, rl_shard_result *r)
{
    char err[256];
    double comm = 0; /* a pipeline's stage sends: the rows rl_shard_pp_step_calibrated kept */
    /* a pipeline: the pass times the stages' own (shard.h
     * rl_shard_stage_pass_scale of the stage's calibrated op list: the
     * layers' share, the embedding on the first stage, the LM head on the
     * last, pp micro-batches of one stage's pace), its sends included (the
     * fit is not linear in its terms: they are not taken out), as simulate */
    rl_shard_plan stage = r->plan;
    stage.pp = 1;
    long long bm = rl_shard_micro_batch(r);
    /* each chip reads the KV it holds under the plan's split (review
     * finding: replicate beyond K read one copy split tp ways) */
    double kvc = rl_shard_kv_layout(m, &stage, 1).copies;
    double s = fitted_pass(m, h, p, 0, r->plan.tp, bm, r->context, kvc, rl_shard_sends_s(r), &comm,
                           &r->tp_excess_s, err, sizeof err);
    if (s <= 0)
        return -1;
    double f = rl_shard_stage_pass_scale(m, h, &stage, r->plan.pp, r->plan.tp, bm, r->context, p,
                                         1, r->replica_batch, 0);
    s *= f;
    comm *= f;
    r->tp_excess_s *= f;
    double w = rl_shard_micro_big(r);
    if (w < 1.0) { /* uneven micro-batches: the rest one sequence fewer (tester34 F11) */
        double comm_lo = 0, excess_lo = 0;
        double lo = fitted_pass(m, h, p, 0, r->plan.tp, bm - 1, r->context, kvc,
                                rl_shard_sends_s(r), &comm_lo, &excess_lo, err, sizeof err);
        if (lo <= 0)
            return -1;
        double f_lo = rl_shard_stage_pass_scale(m, h, &stage, r->plan.pp, r->plan.tp, bm - 1,
                                                r->context, p, 1, r->replica_batch, 0);
        s = w * s + (1.0 - w) * lo * f_lo;
        comm = w * comm + (1.0 - w) * comm_lo * f_lo;
        r->tp_excess_s = w * r->tp_excess_s + (1.0 - w) * excess_lo * f_lo;
    }
    r->step_s = s;
    r->tick_s = s / rl_shard_pass_ticks(m, r->plan.pp, r->replica_batch);
    r->comm_s = comm;
    r->local_s = s - comm;
    r->table_s = 0;
    r->fitted = 1;
    r->kernel_excess_s = s - r->kv_load_s - r->attention_compute_s - comm -
                         fmax(r->weight_load_s, r->compute_s);
    r->tokens_per_s = (double)r->batch / s;
    r->tokens_per_s_per_chip = r->tokens_per_s / (double)r->chips;
    return 0;
}

const char *rl_e2e_fitted_comm_label(const rl_hw *h, int prefill, const char *over, char *buf,
                                     size_t n)
{
    char how[320];
    rl_ec_comm_text(&h->engine_costs, prefill, 1, h->collectives.present, how, sizeof how);
    snprintf(buf, n, "included: tensor parallel over %s (1D plan), the collectives %s", over, how);
    return buf;
}

void rl_e2e_withheld_no_band(cJSON *result, const rl_hw *h, const char *why)
{
    if (!*why)
        return;
    rl_result_add_fmt(result, "no_band", "no band: %s%s (the time is an estimate)", why,
                      rl_hw_what_if_of(h) ? "" : "; the fit's residuals say nothing there");
}

int rl_e2e_fitted_band(cJSON *result, const rl_model *m, const rl_hw *h, rl_precision p,
                       rl_shard_result *r, char *err, size_t errlen)
{
    rl_meas_row row = fitted_row(0, r->plan.tp, rl_shard_micro_batch(r), r->context,
                                 rl_shard_kv_layout(m, &r->plan, 1).copies);
    row.pp = r->plan.pp; /* a pipeline: no band (band_of, rl_ec_pp_outside) */
    static const double LOW[2] = {0.05, 0.10}; /* p5-p95, p10-p90 */
    /* the low edge held at step --ideal's time of the replica (ideal_time,
     * the floor of every fitted band), and at the step's roofline terms (a
     * pipeline's pass as rl_e2e_fitted_shard scaled it), the floor
     * test_floor holds kernel-table bands to */
    rl_meas_row one = {.phase = RL_MEAS_DECODE, .tp = r->plan.tp, .ep = 1, .pp = r->plan.pp,
                       .batch = r->replica_batch, .context = r->context};
    char e[1024];
    double ideal = ideal_time(m, h, p, &one, e, sizeof e);
    if (ideal < 0) { /* as rl_e2e_retime (review40 F4) */
        snprintf(err, errlen, "the roofline floor of the band: %s", e);
        return -1;
    }
    double floor_s =
        fmax(ideal, r->kv_load_s + r->attention_compute_s + fmax(r->weight_load_s, r->compute_s));
    char why[512];
    r->banded = 1;
    for (int k = 0; k < 2 && r->banded; k++) {
        double lo, hi; /* none off the fit (rl_ec_no_band): the row stays unbanded */
        r->banded = !band_of(&h->engine_costs, LOW[k], m, h, p, &row, &lo, &hi, why, sizeof why);
        r->band_s[k] = floored_low(r->step_s, r->step_s * exp(lo), floor_s);
        r->band_s[3 - k] = r->step_s * exp(hi);
    }
    if (!r->banded && !cJSON_GetObjectItem(result, "no_band"))
        rl_e2e_withheld_no_band(result, h, why);
    return 0;
}

void rl_e2e_fitted_label(cJSON *result, const rl_hw *h, const char *model, rl_precision p,
                         long long tp, long long pp)
{
    const rl_engine_costs *c = &h->engine_costs;
    char outside[RL_EC_DIFFERS_MAX];
    rl_hw_fit_mode(h, 1, model, p.weights, p.kv, p.compute, tp, pp, outside, sizeof outside);
    cJSON *mode = cJSON_GetObjectItem(result, "mode");
    if (mode) /* a what-if: figures the costs were not fitted on (spec.h rl_hw_what_if_of) */
        cJSON_SetValuestring(mode, *outside || rl_hw_what_if_of(h) ? "estimated" : "fitted");
    if (*outside)
        set_string(result, "fitted_outside", outside);
    set_string(result, "engine", c->engine);
    char source[3072];
    snprintf(source, sizeof source, "%s%s%s%s%s", rl_hw_what_if_of(h) ? "scaled what-if: " : "",
             rl_hw_what_if_of(h) ? h->changed : "",
             rl_hw_what_if_of(h) ? " changes the chip; the fitted costs' device terms (the op "
                                   "list's roofline at the fitted efficiencies) over the changed "
                                   "figures"
                                 : "",
             !rl_hw_what_if_of(h) ? ""
             : h->collectives.present
                 ? ", " RL_COMM_WHAT_IF_RULE "; fitted: "
                 : "; fitted: ",
             *c->source ? c->source : c->engine);
    set_string(result, "engine_source", source);
}

void rl_e2e_unfitted_label(cJSON *result, const rl_hw *h, const char *what)
{
    const rl_engine_costs *c = &h->engine_costs;
    if (!c->present || !cJSON_GetObjectItem(result, "engine_source"))
        return;
    char source[1536];
    snprintf(source, sizeof source, "its fitted engine costs do not time this run (they model "
             "plain tensor parallelism per replica on an operator list, not %s): the %s mode's "
             "figures stand in; the costs: %s", what,
             cJSON_GetStringValue(cJSON_GetObjectItem(result, "mode")),
             *c->source ? c->source : c->engine);
    set_string(result, "engine_source", source);
}


int rl_e2e_retime(cJSON *result, int prefill, const rl_model *m, const rl_hw *h, long long chips,
                  double kv_copies, rl_precision p, double band_lo, double band_hi, char *err,
                  size_t errlen)
{
    const rl_engine_costs *c = &h->engine_costs;
    double x[RL_EC_N], lo, hi;
    rl_ec_to_x(c, x);
    const char *key = prefill ? "ttft_s" : "step_s";
    char klo[32], khi[32];
    snprintf(klo, sizeof klo, "%s_low", key);
    snprintf(khi, sizeof khi, "%s_high", key);
    int kept = 0, banded = 0;
    char why[512], first_why[512] = "";
    cJSON *row;
    cJSON_ArrayForEach(row, cJSON_GetObjectItem(result, "rows")) {
        rl_meas_row r = fitted_row(prefill, chips, (long long)get_number(row, "batch"),
                                   (long long)get_number(row, prefill ? "tokens" : "context"),
                                   kv_copies);
        if (prefill && get_number(row, "prefix") > 0) {
            kept++;
            continue;
        }
        rl_ec_terms t;
        if (rl_ec_terms_of(m, h, p, &r, &t, err, errlen) != 0)
            return -1;
        int none = band_of(c, band_lo, m, h, p, &r, &lo, &hi, why, sizeof why);
        double s = rl_ec_time(&t, x, NULL), old = get_number(row, key);
        set_number(row, key, s);
        if (none && !*first_why)
            snprintf(first_why, sizeof first_why, "%s", why);
        if (!none) {
            char e[1024]; /* held at step --ideal's (prefill --ideal's) time (ideal_time) */
            double floor_s = ideal_time(m, h, p, &r, e, sizeof e);
            if (floor_s < 0) {
                snprintf(err, errlen, "the roofline floor of the band: %s", e);
                return -1;
            }
            banded++;
            cJSON_AddNumberToObject(row, klo, floored_low(s, s * exp(lo), floor_s));
            cJSON_AddNumberToObject(row, khi, s * exp(hi));
        }
        if (prefill && cJSON_GetObjectItem(row, "chunked_s")) {
            double ch = fitted_chunked(m, h, chips, p, x, r.tokens,
                                       (long long)get_number(result, "chunk"), err, errlen);
            if (ch < 0)
                return -1;
            set_number(row, "chunked_s", ch);
        }
        if (prefill) {
            set_number(row, "prefill_dispatch_s", 0); /* the fitted costs time it end to end */
            set_number(row, "tokens_per_s", (double)r.tokens / s);
            set_number(row, "achieved_mfu", get_number(row, "achieved_mfu") * old / s);
        } else {
            set_number(row, "tokens_per_s", (double)r.batch / s);
            set_number(row, "tokens_per_s_per_chip", (double)r.batch / s / (double)chips);
            if (chips > 1)
                add_fitted_comm(row, &t, x, chips);
            if (cJSON_GetObjectItem(row, "kernel_excess_s")) /* the breakdown (result.c) */
                set_number(row, "kernel_excess_s",
                           s - get_number(row, "kv_load_s") - get_number(row, "comm_s") -
                               get_number(row, "attention_compute_s") - fmax(get_number(row, "weight_load_s"),
                                    get_number(row, "compute_s")));
        }
    }
    cJSON *mode = cJSON_GetObjectItem(result, "mode"), *comm = cJSON_GetObjectItem(result, "communication");
    char was[32] = "unfitted"; /* the mode the breakdown columns were computed in */
    if (mode && cJSON_IsString(mode))
        snprintf(was, sizeof was, "%s", mode->valuestring);
    rl_e2e_fitted_label(result, h, m->name, p, chips, 1);
    /* a retimed row's own mode is the run's (tester59 F7: prefill --hw
     * FIT.lua read fitted while each row read estimated, the label its op
     * list's table share gave before the fitted costs timed it; its
     * provenance and table_time_share still say which kernel sources the op
     * list drew on); a row with a prefix keeps its op-list time and mode */
    const char *run_mode = cJSON_GetStringValue(cJSON_GetObjectItem(result, "mode"));
    cJSON_ArrayForEach(row, cJSON_GetObjectItem(result, "rows")) {
        if (run_mode && !(prefill && get_number(row, "prefix") > 0 &&
                          cJSON_IsString(cJSON_GetObjectItem(row, "mode"))))
            set_string(row, "mode", run_mode); /* tester90 #3: added where a row had none */
    }
    /* fixFI: the run's mode is its rows' (prefill --prefix on a fitted
     * profile read fitted while its rows, each kept at its op-list time,
     * read estimated): theirs when they agree, "mixed" when they differ,
     * as validate's; the note says why */
    const char *rows_mode = NULL;
    int differ = 0, nrows = 0;
    cJSON_ArrayForEach(row, cJSON_GetObjectItem(result, "rows")) {
        nrows++;
        const char *rm = cJSON_GetStringValue(cJSON_GetObjectItem(row, "mode"));
        if (rm && rows_mode)
            differ |= strcmp(rm, rows_mode) != 0;
        else if (rm)
            rows_mode = rm;
    }
    if (kept && rows_mode && run_mode && (differ || strcmp(rows_mode, run_mode) != 0)) {
        char others_mode[64] = "";
        if (kept < nrows)
            snprintf(others_mode, sizeof others_mode, "; the others read %.32s", run_mode);
        set_string(result, "mode", differ ? "mixed" : rows_mode);
        if (!cJSON_GetObjectItem(result, "mode_note"))
            rl_result_add_fmt(result, "mode_note", "%d of %d rows have a prefix and keep the "
                              "op-list time and its mode (the fitted engine costs time a prefill "
                              "from an empty cache, not one after a cached prefix)%s", kept,
                              nrows, others_mode);
    }
    char how[320], label[512];
    if (comm && chips > 1)
        cJSON_SetValuestring(comm, rl_e2e_fitted_comm_label(h, prefill, "the chips", label,
                                                            sizeof label));
    char band[32], terms[1024] = "";
    snprintf(band, sizeof band, "p%.0f-p%.0f", 100 * band_lo, 100 * band_hi);
    if (banded || *first_why) /* the fit's answer replaces the unfitted result's (rl_e2e_no_band) */
        cJSON_DeleteItemFromObjectCaseSensitive(result, "no_band");
    if (banded)
        cJSON_AddStringToObject(result, "band", band);
    rl_e2e_withheld_no_band(result, h, first_why);
    rl_ec_comm_text(c, 0, 0, h->collectives.present, how, sizeof how);
    char tpx[320];
    snprintf(tpx, sizeof tpx, ", of it tp_excess_s the step time that tp_excess %.3g (%s) x the "
             "collectives' time of decode device time adds: its part above the host floor of "
             "max(host, device), 0 where the floor sets the step (mechanism not identified: "
             "src/enginecost.h)", c->v[RL_EC_TP_EXCESS], rl_ec_said(c, RL_EC_TP_EXCESS));
    if (!prefill)
        snprintf(terms, sizeof terms, "; kv_load_s, attention_compute_s, weight_load_s and "
                 "compute_s are the %s step's roofline terms%s%s, kernel_excess_s the fitted "
                 "step_s above them%s", was,
                 chips > 1 ? ", comm_s its collectives " : "", chips > 1 ? how : "",
                 chips > 1 ? tpx : "");
    rl_result_add_fmt(result, "fitted",
                      "%s from the fitted engine costs (src/enginecost.h (E), TP over %lld "
                      "GPUs)%s", key, chips,
                      prefill ? (kept ? "; rows with a prefix keep the op-list time" : "") : terms);
    return 0;
}

/* The factor a step of c takes at the band edge costs->edge (1 when
 * none): e^q of the step's row class (prefill when it prefills, else
 * decode) at its shape as a measured row of that class (rl_ec_band: the
 * replica's chips as tp; a prefill's sequences as batch and its first
 * prompt's tokens; a decode step's batch and context); the band holds
 * the estimate (rl_ec_band), so the low edge is no slower and the high
 * one no faster than the fit itself. */
/* edge_factor's memo: a step's factor by what it depends on (model,
 * hardware, precision, edge and the row's shape), direct mapped, for one
 * generation of band edges: rl_e2e_band_edge starts the next, and the
 * hardware and costs of a run at an edge stay as they were set until then.
 * A hit returns the factor the same computation gave, so the memo changes
 * no result; it spares the op lists a shape below the fitted grid costs
 * (moved_octaves: 8.6 -> 19.5 CPU s for a simulate whose prompts and
 * contexts lie below h100-sxm-splitwise's grid, without it). */
#define EDGE_MEMO 4096
typedef struct {
    unsigned long gen;
    const rl_model *m;
    const rl_hw *h;
    long long key[5]; /* edge, phase and dtypes packed; tp, batch, context, tokens */
    double factor;
} edge_slot;
static edge_slot edge_memo[EDGE_MEMO];
static unsigned long edge_gen = 1; /* 0: an empty slot */

/* The farthest each axis of a step timed at a band edge lay outside the
 * fitted grid (input octaves, rl_ec_octaves) and its value there, since
 * rl_e2e_band_outside last read them. */
static double out_oct[RL_EC_AXES], out_val[RL_EC_AXES];

static void note_outside(const rl_engine_costs *c, const rl_meas_row *r)
{
    double v[RL_EC_AXES], o[RL_EC_AXES];
    shape_of(r, v);
    rl_ec_octaves(c, v, o);
    for (int a = 0; a < RL_EC_AXES; a++)
        if (o[a] > out_oct[a]) {
            out_oct[a] = o[a];
            out_val[a] = v[a];
        }
}

int rl_e2e_band_outside(const rl_hw *h, char *out, size_t n)
{
    static const char *const AXIS[RL_EC_AXES] = {"tp", "batch", "context", "tokens"};
    const rl_engine_costs *c = &h->engine_costs;
    size_t k = 0;
    *out = 0;
    for (int a = RL_EC_BATCH; a < RL_EC_AXES; a++) /* tp: rl_ec_differs names it */
        if (out_oct[a] > 0 && k < n)
            k += (size_t)snprintf(out + k, n - k, "%s%s %g (fitted on %g-%g)", k ? ", " : "",
                                  AXIS[a], out_val[a], c->grid[a][0], c->grid[a][1]);
    memset(out_oct, 0, sizeof out_oct);
    return *out != 0;
}

char *rl_e2e_fitted_outside(const rl_model *m, const rl_hw *h, long long tp, long long pp,
                            rl_precision p)
{
    char d[RL_EC_DIFFERS_MAX];
    const char *dt[RL_EC_DTYPES];
    rl_ec_dtypes(dt, p.weights, p.kv, p.compute);
    const rl_engine_costs *c = &h->engine_costs;
    rl_ec_differs(c, m->name, dt, tp, pp, d, sizeof d);
    if (!*d)
        return NULL;
    double act = c->v[RL_EC_PREFILL_ACT];
    /* under 640: its words (< 150), two %.3g numbers (< 16 each), the
     * model's name (< 64) and the fitted models (fitted_on.models, < 256) */
    char term[640] = "";
    int same = !*c->models || rl_ec_listed(c->models, m->name);
    if (act > 0) /* review25 HIGH-1: the activation-byte term, the same at every TP and
                  * scaled to another model by assumption (enginecost.h) */
        snprintf(term, sizeof term, ", and prefill_act_byte_s (%.3g s a byte: %.3g us a prompt "
                 "token of %s%s%s%s) whatever the TP", act, 1e6 * act * rl_e2e_act_bytes(m, p),
                 m->name, same ? "" : ", scaled from ", same ? "" : c->models,
                 same ? "" : " by layers x d_model, an assumption");
    return rl_result_fmt("%s's engine costs are applied outside what they were fitted on: %s; "
                         "the time extrapolates their host floor and efficiencies%s", h->name, d,
                         term);
}

static double edge_factor(const rl_model *m, const rl_hw *h, const rl_ops_config *c)
{
    const rl_engine_costs *costs = &h->engine_costs;
    int q = costs->edge - 1;
    if (q < 0 || q > 3)
        return 1;
    int prefills = rl_ops_prefill_rows(c) > 0;
    rl_meas_row r = {.phase = prefills ? RL_MEAS_PREFILL : RL_MEAS_DECODE, .tp = c->chips,
                     .batch = c->decode_batch, .context = c->decode_context};
    if (prefills) {
        r.batch = c->nparts ? 0 : c->prefill_seqs;
        for (int i = 0; i < c->nparts; i++)
            r.batch += c->parts[i].seqs;
        r.tokens = c->nparts ? c->parts[0].tokens : c->prefill_tokens;
    }
    long long key[5] = {(long long)q << 40 | (long long)r.phase << 32 | c->prec.weights << 16 |
                            c->prec.kv << 8 | c->prec.compute,
                        r.tp, r.batch, r.context, r.tokens};
    unsigned long long hash = 1469598103934665603ull; /* FNV-1a over the key's words */
    for (int i = 0; i < 5; i++)
        hash = (hash ^ (unsigned long long)key[i]) * 1099511628211ull;
    edge_slot *e = &edge_memo[(hash ^ hash >> 29) % EDGE_MEMO];
    if (e->gen == edge_gen && e->m == m && e->h == h && !memcmp(e->key, key, sizeof key))
        return e->factor;
    double lo, hi;
    char why[512]; /* withheld or not, an edge moves by the widened band (band_of) */
    band_of(costs, q == 0 || q == 3 ? 0.05 : 0.10, m, h, c->prec, &r, &lo, &hi, why, sizeof why);
    note_outside(costs, &r);
    *e = (edge_slot){edge_gen, m, h, {key[0], key[1], key[2], key[3], key[4]}, exp(q < 2 ? lo : hi)};
    return e->factor;
}

double rl_e2e_mixed_time(const rl_model *m, const rl_hw *h, const rl_ops_config *c,
                         double comm_s, double sends_s)
{
    /* (E) was fitted on uncalibrated op lists (terms_on: the datasheet
     * roofline of each op, its norms and residual adds split over the TP
     * group as formula (1) splits them; ops.c tp_copies), and `prefill`,
     * `step` and `validate` time a row on that list (rl_ec_terms_of): a
     * serving step is timed on the same list, whatever the simulator's
     * own config says.  tester81 #1: simulate's calibrated list charged
     * h100-sxm-splitwise (measured efficiency tables) every TP rank the
     * whole [M, D] norms and residual adds, Llama-2-70B tp4 N=2000 TTFT
     * 228.7 ms against prefill's 220.0 (+4.0%); profiles without measured
     * tables (a100-sxm-80g-splitwise) built the uncalibrated list already
     * and agreed. */
    rl_ops_config fit = *c;
    fit.calibrated = 0;
    rl_ops o;
    char err[256];
    if (rl_ops_build(m, h, &fit, &o, err, sizeof err) != 0)
        return -1;
    double decode_batch = (double)c->decode_batch;
    int prefills = rl_ops_prefill_rows(c) > 0;
    rl_ec_terms t = {1, {{.count = 1, .prefill = prefills, .batch = decode_batch,
                          .act_bytes = rl_ops_prefill_rows(c) * rl_e2e_act_bytes(m, c->prec),
                          .ranks = prefills ? (double)c->chips : 0, .comm_s = comm_s,
                          .sends_s = sends_s}}};
    fill_ops(&t.step[0], &o);
    double x[RL_EC_N];
    rl_ec_to_x(&h->engine_costs, x);
    double time = rl_ec_time(&t, x, NULL);
    if (prefills) /* decode_seq_s was charged per row; the prefill's own cost */
        time += x[RL_EC_PREFILL_SEQ] + (x[RL_EC_DECODE_SEQ] - x[RL_EC_PREFILL_SEQ]) * decode_batch;
    double f = edge_factor(m, h, c);
    return f < 1 ? floored_low(time, time * f, roofline_floor(&t)) : time * f;
}

/* The top-level times of a simulate result or size row (ttft_*, tpot_*,
 * e2e_* ending in _s) into keys/val (at most 64); returns their count. */
static int band_times(cJSON *result, const char **keys, double *val)
{
    int n = 0;
    cJSON *it;
    cJSON_ArrayForEach(it, result) {
        const char *k = it->string;
        size_t len = k ? strlen(k) : 0;
        if (n < 64 && cJSON_IsNumber(it) && len > 2 && strcmp(k + len - 2, "_s") == 0 &&
            (!strncmp(k, "ttft_", 5) || !strncmp(k, "tpot_", 5) || !strncmp(k, "e2e_", 4))) {
            keys[n] = k;
            val[n++] = it->valuedouble;
        }
    }
    return n;
}

void rl_e2e_band_from_runs(cJSON *result, const cJSON *low, const cJSON *high, int wide)
{
    const char *keys[64];
    double val[64];
    int n = band_times(result, keys, val);
    for (int i = 0; i < n; i++) {
        const cJSON *l = cJSON_GetObjectItem(low, keys[i]), *h = cJSON_GetObjectItem(high, keys[i]);
        double lo = cJSON_IsNumber(l) ? fmin(l->valuedouble, val[i]) : val[i];
        double hi = cJSON_IsNumber(h) ? fmax(h->valuedouble, val[i]) : val[i];
        char k[96];
        snprintf(k, sizeof k, "%s_low", keys[i]);
        cJSON_AddNumberToObject(result, k, lo);
        snprintf(k, sizeof k, "%s_high", keys[i]);
        cJSON_AddNumberToObject(result, k, hi);
        /* an edge whose run read inside the figure is clamped to it
         * (docs/model.md: chunked scheduling is not monotone in the step
         * cost): said, not left looking certain (h31audit finding 14) */
        for (int side = 0; side < 2; side++)
            if (cJSON_IsNumber(side ? h : l) &&
                (side ? h->valuedouble < val[i] : l->valuedouble > val[i])) {
                snprintf(k, sizeof k, "%s_%s_clamped", keys[i], side ? "high" : "low");
                cJSON_AddTrueToObject(result, k);
            }
    }
    cJSON_AddStringToObject(result, "band", wide ? "p5-p95" : "p10-p90");
}

int rl_e2e_band_runs(int wide, int q[4])
{
    /* p5, p95 then p10, p90 when wide, else p10, p90 (rl_e2e_band_edge) */
    static const int Q[2][4] = {{1, 2, -1, -1}, {0, 3, 1, 2}};
    memcpy(q, Q[wide != 0], sizeof Q[0]);
    return wide ? 4 : 2;
}

double rl_e2e_band_farther(double edge, double inner, int low)
{
    return low ? (inner < edge ? inner : edge) : (inner > edge ? inner : edge);
}

/* Each number of the edge run's result `outer` that `inner` also has taken
 * out to the farther of the two (rl_e2e_band_farther). */
static void envelope(cJSON *outer, const cJSON *inner, int low)
{
    for (cJSON *o = outer ? outer->child : NULL; o; o = o->next) {
        const cJSON *i = o->string ? cJSON_GetObjectItem(inner, o->string) : NULL;
        if (cJSON_IsNumber(o) && cJSON_IsNumber(i))
            cJSON_SetNumberValue(o, rl_e2e_band_farther(o->valuedouble, i->valuedouble, low));
    }
}

int rl_e2e_simulate_band(cJSON *result, const rl_simulate_run *run, const rl_request *req,
                         long long n, int wide, char *err, size_t errlen)
{
    /* rl_e2e_band_outside names this run's steps, none without a band:
     * forget those an earlier size or roofline.simulate in this process
     * timed at an edge (review23 L4) */
    memset(out_oct, 0, sizeof out_oct);
    char why[512];
    if (!run->calibrated || !rl_e2e_has_band(run->h)) {
        rl_e2e_no_band(result, run->m, run->h, "simulate ran ideal (datasheet peaks)");
        return 0;
    }
    long long pp = run->c->pp > 1 ? run->c->pp : 1;
    if (rl_e2e_band_withheld(run->h, run->m->name, &run->p, run->chips_per_replica / pp, pp, why,
                             sizeof why)) {
        rl_e2e_withheld_no_band(result, run->h, why);
        return 0;
    }
    /* the wide band is the envelope of both pairs (below), nested by
     * construction */
    int q[4];
    static rl_hw eh[4]; /* large; the runs are one after the other */
    cJSON *edge[4] = {NULL, NULL, NULL, NULL};
    int rc = 0, nedge = rl_e2e_band_runs(wide, q);
    for (int s = 0; s < nedge && rc == 0; s++) {
        eh[s] = *run->h;
        rl_e2e_band_edge(&eh[s], q[s]);
        /* a speculative draft model runs on the same chips: it moves to the
         * edge with the target (a draft given as a fraction of the target's
         * step follows it already) */
        rl_serve_config c = *run->c;
        rl_ops_cost draft = {0};
        rl_step_cost dcost;
        if (c.spec_draft && c.spec_draft->time == rl_serve_ops_time) {
            if ((rc = rl_ops_cost_on(&draft, c.spec_draft->ctx, &eh[s], err, errlen)) != 0)
                break;
            dcost = *c.spec_draft;
            dcost.ctx = &draft;
            c.spec_draft = &dcost;
        }
        char what[64]; /* simulate's progress line (progress.h), when open */
        snprintf(what, sizeof what, "band edge %d of %d: requests finished", s + 1, nedge);
        rl_progress_phase(what, n);
        rl_serve_result r;
        rc = rl_serve_simulate(run->m, &eh[s], run->chips_per_replica, run->p, 1, req, n, &c, &r,
                               err, errlen);
        rl_ops_cost_free(&draft);
        if (rc != 0)
            break;
        rl_simulate_run at = *run;
        at.h = &eh[s];
        edge[s] = rl_result_simulate(&r, &at);
        rl_serve_result_free(&r);
    }
    if (rc == 0 && wide && edge[2] && edge[3]) {
        envelope(edge[0], edge[2], 1);
        envelope(edge[1], edge[3], 0);
    }
    if (rc == 0 && edge[0] && edge[1])
        rl_e2e_band_from_runs(result, edge[0], edge[1], wide);
    for (int s = 0; s < 4; s++)
        cJSON_Delete(edge[s]);
    return rc == 0 ? 0 : -1;
}

int rl_e2e_band_parse(const char *name)
{
    return !name || strcmp(name, "p10-p90") == 0 ? 0 : strcmp(name, "p5-p95") == 0 ? 1 : -1;
}

void rl_e2e_band_quantiles(int wide, double *lo, double *hi)
{
    *lo = wide ? 0.05 : 0.1;
    *hi = wide ? 0.95 : 0.9;
}

void rl_e2e_band_select(rl_hw *h, int wide)
{
    if (wide && h->engines.sel >= 0)
        h->engines.e[h->engines.sel].wide_band = 1;
}

int rl_e2e_has_band(const rl_hw *h)
{
    if (h->engine_costs.present)
        return 1;
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    for (int c = 0; e && e->tables && c < RL_KC_COUNT; c++)
        if (e->resid[c].n > 0)
            return 1;
    return 0;
}

void rl_e2e_no_band(cJSON *result, const rl_model *m, const rl_hw *h, const char *why_else)
{
    char why[512];
    if (!result || cJSON_GetObjectItem(result, "band") || cJSON_GetObjectItem(result, "no_band"))
        return;
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    if (m && m->abstract)
        snprintf(why, sizeof why, "an abstract model has no operator list for kernel tables to "
                 "time, so no residuals to take a band from");
    else if (h->ideal)
        snprintf(why, sizeof why, "the ideal roofline (--ideal, --engine ideal): datasheet peaks, "
                 "nothing measured to take a band from");
    else if (rl_e2e_what_if_band(h, why, sizeof why))
        ;
    else if (!rl_e2e_has_band(h))
        snprintf(why, sizeof why, "%s has neither fitted engine costs nor kernel-table "
                 "residuals%s", h->name, e && e->tables ? ""
                 : ": no kernel tables, its times are estimated from datasheet peaks");
    else if (why_else)
        snprintf(why, sizeof why, "%s", why_else);
    else
        return;
    rl_result_add_fmt(result, "no_band", "no band: %s (the time is an estimate)", why);
}

void rl_e2e_no_band_as_mode(cJSON *result, const char *why)
{
    if (!result || cJSON_GetObjectItem(result, "band") || cJSON_GetObjectItem(result, "no_band"))
        return;
    rl_result_add_fmt(result, "no_band", "no band: %s (the time is an estimate)", why);
}

int rl_e2e_band_edge(rl_hw *h, int q)
{
    static const char *const NAME[4] = {"p5", "p10", "p90", "p95"};
    if (q < 0 || q > 3 || !rl_e2e_has_band(h))
        return 0;
    rl_engine_costs *c = &h->engine_costs;
    if (!c->present) {
        h->engines.e[h->engines.sel].edge = q + 1;
        return 1;
    }
    c->edge = q + 1;
    edge_gen++; /* edge_factor's memo starts afresh */
    snprintf(c->engine + strlen(c->engine), sizeof c->engine - strlen(c->engine), " (%s edge)",
             NAME[q]);
    return 1;
}
