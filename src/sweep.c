/* sweep.c — the design-space grid: formula (1) (ideal) or the shard plans per point. */
#include "sweep.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "e2e.h"
#include "interrupt.h"
#include "memory.h"
#include "ops.h"
#include "pareto.h"
#include "shard.h"
#include "stepplan.h"

static int is_torus(const rl_hw *h)
{
    return h->topology == RL_TOPO_TORUS2D || h->topology == RL_TOPO_TORUS3D;
}

int rl_sweep_valid_chips(const rl_hw *h, long long chips)
{
    long long dom = h->domain_chips > 0 ? h->domain_chips : 1;
    if (chips < 1)
        return 0;
    /* the whole domain, which need not be a power of two (sweep.h; a spec's
     * domain_chips = 12 refused 12 and accepted 24, tpu-v5p its 8960-chip pod
     * as it was then: tester19 F3), and whole multiples of it */
    if (chips >= dom)
        return chips % dom == 0;
    if ((chips & (chips - 1)) != 0)
        return 0; /* slices inside a domain are powers of two */
    if (is_torus(h))
        return chips >= 4 || (chips == 1 && h->topology == RL_TOPO_TORUS2D);
    return 1;
}

int rl_sweep_check_chips(const rl_hw *h, long long chips, char *err, size_t errlen)
{
    if (rl_sweep_valid_chips(h, chips))
        return 0;
    long long v[64];
    int nv = rl_sweep_topologies(h, 0, v, 64);
    char list[512] = "";
    for (int j = 0; j < nv; j++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%lld", j ? ", " : "", v[j]);
    snprintf(err, errlen, "%lld is not a valid slice of %s (valid: %s, then multiples of %lld)",
             chips, h->name, list, h->domain_chips);
    return -1;
}

int rl_sweep_is_slice(const rl_hw *h, long long chips)
{
    /* F7: a torus's one chip only where it is a slice (tpu-v5e's 1x1, not
     * tpu-v5p's: its smallest is 2x2x1, 4 chips), so size offers no 1-chip
     * v5p replica, which pareto's default sweep never listed */
    return !is_torus(h) || rl_sweep_valid_chips(h, chips);
}

int rl_sweep_check_slice(const rl_hw *h, long long chips, char *err, size_t errlen)
{
    /* one chip: the per-chip roofline (step's default), a slice or not */
    return chips == 1 || rl_sweep_is_slice(h, chips) ? 0
                                                     : rl_sweep_check_chips(h, chips, err, errlen);
}

int rl_sweep_check_deployment(const rl_hw *h, long long chips, char *err, size_t errlen)
{
    return rl_sweep_is_slice(h, chips) ? 0 : rl_sweep_check_chips(h, chips, err, errlen);
}

int rl_sweep_check_plan_slice(const rl_hw *h, long long chips, const char *flag, char *err,
                              size_t errlen)
{
    char why[600];
    if (rl_sweep_check_slice(h, chips, why, sizeof why) == 0)
        return 0;
    snprintf(err, errlen, "the plan's %lld chips (%s not given): %s", chips, flag, why);
    return -1;
}

int rl_sweep_topologies(const rl_hw *h, long long max, long long *out, int cap)
{
    long long dom = h->domain_chips > 0 ? h->domain_chips : 1;
    if (max <= 0)
        max = dom;
    int n = 0;
    for (long long c = 1; c <= max && c < dom && n < cap; c *= 2)
        if (rl_sweep_valid_chips(h, c))
            out[n++] = c;
    for (long long c = dom; c <= max && n < cap; c += dom)
        out[n++] = c;
    return n;
}

static int check_space(const rl_model *m, const rl_hw *h, const rl_sweep_space *sp, char *err,
                       size_t errlen)
{
    if (sp->nbatch < 1 || sp->ncontext < 1 || sp->nprec < 1 || sp->nchips < 0) {
        snprintf(err, errlen, "sweep: batch, context and precision lists need at least one value");
        return -1;
    }
    for (int i = 0; i < sp->nchips; i++) {
        char why[600];
        /* the rule step, shard and simulate apply (tester34 F14: pareto
         * refused 3 H100s, where tp1 pp3 runs) */
        if (rl_sweep_check_slice(h, sp->chips[i], why, sizeof why) != 0) {
            snprintf(err, errlen, "sweep: field 'chips': %s", why);
            return -1;
        }
    }
    for (int i = 0; i < sp->nbatch; i++)
        if (sp->batch[i] < 1) {
            snprintf(err, errlen, "sweep: field 'batch': %lld must be >= 1", sp->batch[i]);
            return -1;
        }
    for (int c = 0; c < sp->ncontext; c++)
        for (int q = 0; q < sp->nprec; q++)
            if (rl_step_check(m, h, 1, sp->context[c], sp->prec[q], err, errlen) != 0)
                return -1;
    if (sp->prompt < 0) {
        snprintf(err, errlen, "sweep: field 'prompt': must be >= 0");
        return -1;
    }
    return 0;
}

const char *rl_sweep_name(const rl_sweep *s, int i) { return s->names[i]; }

/* Index of `name` in the sweep's name table, adding it if new; `hint` is
 * tried first (plans come in the same order for every batch).  -1 when
 * memory runs out. */
static int name_index(rl_sweep *s, const char *name, int hint)
{
    if (hint >= 0 && hint < s->nnames && strcmp(s->names[hint], name) == 0)
        return hint;
    for (int i = 0; i < s->nnames; i++)
        if (strcmp(s->names[i], name) == 0)
            return i;
    if (s->nnames == s->capnames) {
        int cap = s->capnames ? 2 * s->capnames : 64;
        char(*n)[64] = realloc(s->names, (size_t)cap * sizeof *n);
        if (!n)
            return -1;
        s->names = n;
        s->capnames = cap;
    }
    snprintf(s->names[s->nnames], sizeof s->names[0], "%s", name);
    return s->nnames++;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Where progress goes (rl_sweep_progress). */
static struct {
    FILE *f;
    double every_s;
    const char *who;
} progress;

void rl_sweep_progress(FILE *f, double every_s, const char *who)
{
    progress.f = f;
    progress.every_s = every_s > 0 ? every_s : RL_SWEEP_PROGRESS_S;
    progress.who = who ? who : "sweep";
}

/* A progress line when one is due (rl_sweep_progress); called per batch of
 * a slice. */
static void tick(rl_sweep *out)
{
    if (!out->progress_on)
        return;
    double now = now_s(), every = progress.every_s;
    if (out->progress_next == 0)
        out->progress_next = out->progress_t0 + every;
    if (now < out->progress_next)
        return;
    fprintf(progress.f, "%s: %lld grid points looked at, %zu feasible; slice %d of %d (chips x "
            "precision x context); %.0f s so far\n", progress.who, out->evaluated, out->n,
            out->slice, out->slices, now - out->progress_t0);
    fflush(progress.f);
    out->progress_next = now + every;
}

/* Append *pt with its cost fields (chips / tokens_per_s, price); 0, -1
 * when memory runs out, -3 past s->max_points. */
static int push(rl_sweep *s, rl_sweep_point *pt, const rl_hw *h)
{
    if (s->max_points && s->n >= s->max_points)
        return -3;
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 1024;
        rl_sweep_point *p = realloc(s->pts, cap * sizeof *p);
        if (!p)
            return -1;
        s->pts = p;
        s->cap = cap;
    }
    pt->chip_s_per_token = (double)pt->chips / pt->tokens_per_s;
    pt->usd_per_mtok = pt->chip_s_per_token * 1e6 * h->price_per_chip_hour / 3600.0;
    s->pts[s->n++] = *pt;
    return 0;
}

/* TTFT of one prompt on `chips` chips, no communication (ops.c); -1 for
 * abstract models, which have no operator list. */
static double ideal_ttft(const rl_model *m, const rl_hw *h, long long chips, long long prompt,
                         rl_precision p)
{
    if (m->abstract)
        return -1;
    rl_ops_config c = rl_ops_config_default();
    c.chips = chips;
    c.prec = p;
    return rl_ops_prefill_time(m, h, &c, prompt, 0);
}

/* One (chips, precision, context) cell in ideal mode: every batch. */
static int run_ideal(const rl_model *m, const rl_hw *h, const rl_sweep_space *sp, long long chips,
                     rl_precision p, long long S, rl_sweep *out)
{
    double ttft = ideal_ttft(m, h, chips, sp->prompt ? sp->prompt : S, p);
    for (int b = 0; b < sp->nbatch; b++) {
        tick(out);
        out->evaluated++;
        rl_step st = rl_step_decode(m, h, chips, sp->batch[b], S, p);
        if (!st.mem.fits) {
            out->infeasible++;
            continue;
        }
        rl_sweep_point pt = {.chips = chips, .batch = sp->batch[b], .context = S, .prec = p,
                             .layout = 1 /* "ideal" */, .step_s = st.step_s, .ttft_s = ttft,
                             .ttft_share = -1,
                             .weight_load_s = st.weight_load_s, .kv_load_s = st.kv_load_s,
                             .compute_s = st.compute_s,
                             .attention_compute_s = st.attention_compute_s, .tokens_per_s = st.tokens_per_s,
                             .total_bytes = st.mem.total_bytes, .b_crit = rl_step_b_crit(m, h, p),
                             .max_batch = rl_memory_max_batch(m, h, chips, S, p.weights, p.kv)};
        int rc = push(out, &pt, h);
        if (rc != 0)
            return rc;
    }
    return 0;
}

#define PLANS 256

/* The prefill candidates of a generation plan (sweep.h): the plan itself,
 * then sequence parallelism over 2, 4, ... of its replicas; all hold the
 * plan's weights per chip. */
#define PREFILLS 16
typedef struct {
    int n;
    int name[PREFILLS];       /* name index */
    double ttft_s[PREFILLS];  /* the prefill's step time */
    double share[PREFILLS];   /* calibrated: its table-time share; else -1 */
    double kv[PREFILLS];      /* the prompt's KV per chip while it is prefilled, bytes */
    long long sp[PREFILLS];
} prefills;

/* The calibrated TTFT of a `prompt`-token prefill on one replica of 1D
 * plan `pl` (tp * ep chips): its operator list timed by h's measurements
 * with the plan's collectives, as `prefill --tp` times it; -1 when it does
 * not evaluate. */
static double calibrated_ttft(const rl_model *m, const rl_hw *h, const rl_shard_plan *pl,
                              long long prompt, rl_precision p, double *share)
{
    rl_ops_config c = rl_ops_config_default();
    c.chips = pl->tp * pl->ep;
    c.tp = pl->tp;
    c.ep = pl->ep;
    c.attn_replicated = pl->attn_replicated;
    c.prec = p;
    c.calibrated = 1;
    return rl_ops_prefill_time_share(m, h, &c, prompt, 0, share);
}

/* The fitted TTFT of a `prompt`-token prefill on one replica of plan pl
 * (TP over pl->tp GPUs): h's fitted costs, as `prefill --chips tp` on the
 * profile gives it; -1 when they do not evaluate. */
static double fitted_ttft(const rl_model *m, const rl_hw *h, const rl_shard_plan *pl,
                          long long prompt, rl_precision p)
{
    char err[256];
    double s = rl_e2e_fitted_step(m, h, p, 1, pl->tp, 1, prompt, NULL, err, sizeof err);
    return s > 0 ? s : -1;
}

/* Fill *f for generation plan `gen` and a prompt of `prompt` tokens; 0, or
 * -1 when memory runs out.  Candidates that do not evaluate are left out.
 * Calibrated: the plan itself only, at its calibrated TTFT (sweep.h). */
static int prefill_candidates(const rl_model *m, const rl_hw *h, const rl_shard_result *gen,
                              long long prompt, rl_precision p, int cal, rl_sweep *out,
                              prefills *f)
{
    rl_shard_plan pl = gen->plan;
    pl.kv = RL_KV_BATCH; /* prefill writes the cache with the K/V projections */
    f->n = 0;
    char err[256];
    for (long long sp = 1; sp <= (cal ? 1 : gen->replicas) && f->n < PREFILLS; sp *= 2) {
        rl_shard_result r;
        if (gen->replicas % sp || (sp > 1 && pl.ep > 1)) /* sp with EP: not a compare plan */
            continue;
        pl.sp = sp;
        if (rl_shard_eval(m, h, &pl, RL_PHASE_PREFILL, gen->chips, 1, prompt, p, &r, err,
                          sizeof err) != 0)
            continue;
        double share = -1;
        if (cal && (r.step_s = out->fitted ? fitted_ttft(m, h, &pl, prompt, p)
                                           : calibrated_ttft(m, h, &pl, prompt, p, &share)) < 0)
            continue;
        if (cal) /* a pipeline's P-1 stage sends of the prompt, as the ideal rows and simulate
                  * have them (tester35 F4: calibrated TTFT was one stage's chips alone) */
            r.step_s += rl_shard_sends_s(&r);
        int k = f->n++;
        f->name[k] = name_index(out, r.name, -1);
        if (f->name[k] < 0)
            return -1;
        f->ttft_s[k] = r.step_s;
        f->share[k] = share;
        f->kv[k] = r.kv_bytes;
        f->sp[k] = sp;
    }
    return 0;
}

/* The fastest candidate of *f that fits in HBM beside generation point
 * `gen`'s cache (sweep.h), its per-chip bytes in *bytes; -1 if none fits,
 * -2 if f has no candidate; `room` is what a chip may fill (bytes).  The
 * replica that prefills holds its other
 * replica_batch - 1 sequences and the prompt's whole cache (sp = 1's KV);
 * with sp > 1 the other replicas also keep their full caches and their
 * piece of the prompt's. */
static int pick_prefill(const rl_model *m, const rl_hw *h, const rl_shard_result *gen,
                        const prefills *f, rl_precision p, double room, double *bytes)
{
    if (f->n == 0)
        return -2;
    double rest_kv = 0; /* the prefilling replica's cache without one sequence */
    rl_shard_result r;
    char err[256];
    if (gen->replica_batch > 1)
        rest_kv = rl_shard_eval(m, h, &gen->plan, RL_PHASE_GENERATE, gen->chips,
                                (gen->replica_batch - 1) * gen->replicas, gen->context, p, &r,
                                err, sizeof err) == 0
                      ? r.kv_bytes
                      : gen->kv_bytes;
    double owner = gen->weight_bytes + rest_kv + f->kv[0];
    int best = -1;
    for (int k = 0; k < f->n; k++) {
        double b = f->sp[k] > 1 ? fmax(owner, gen->total_bytes + f->kv[k]) : owner;
        if (b <= room && (best < 0 || f->ttft_s[k] < f->ttft_s[best])) {
            best = k;
            *bytes = b;
        }
    }
    return best;
}

/* Plan result *r re-timed by the calibrated decode step into *out (sweep.h),
 * by the fitted costs when `fitted`; a pipeline as `step --pp` times it
 * (rl_shard_pp_step_calibrated; tester34 F14: pipelines were left out); 0,
 * or -1 when that path does not time the plan (2D, --sp; fitted: a plan
 * rl_e2e_fitted_plan refuses). */
static int calibrated_step(const rl_model *m, const rl_hw *h, const rl_shard_result *r,
                           rl_precision p, int fitted, rl_shard_result *out)
{
    rl_shard_plan pl = r->plan;
    pl.overlap = 0; /* no overlap measured: local + comm, as `step --tp` */
    rl_step st;
    char err[256];
    if (pl.layout != RL_LAYOUT_1D || (fitted && !rl_e2e_fitted_plan(h, &pl)))
        return -1;
    if (pl.pp > 1 ? rl_shard_pp_step_calibrated(m, h, &pl, r->chips, r->batch, r->context, p, out,
                                                err, sizeof err)
                  : rl_shard_step_calibrated(m, h, &pl, r->chips, r->batch, r->context, p, &st,
                                             out, err, sizeof err))
        return -1;
    return fitted ? rl_e2e_fitted_shard(m, h, p, out) : 0; /* out->fits: shard.h rl_shard_result.fits */
}

/* One cell's sharded run (run_sharded): the cell and its prefill
 * candidates, kept per plan slot across its batches. */
typedef struct {
    const rl_model *m;
    const rl_hw *h;
    long long chips, S, prompt;
    rl_precision p;
    int cal;              /* timed calibrated or fitted (sweep.h) */
    int hint[PLANS + 1];  /* name index of slot i's plan at the previous batch */
    prefills pre[PLANS + 1]; /* slot i's prefill candidates (the same for every batch
                                while its plan's name is) */
    rl_step_memo *memo;   /* the sweep's step-plan timings (stepplan.h), or NULL */
} cell;

/* The point of plan result *r0 at batch b, timed on r0->chips of the cell's
 * chips (the rest idle: idle_chips), into out, its prefill candidates in
 * slot i (sweep.h): counted as evaluated, left out as uncalibrated or
 * infeasible where so.  0, or -1 / -3 as push. */
static int add_plan(cell *c, const rl_shard_result *r0, int i, long long b, rl_sweep *out)
{
    const rl_model *m = c->m;
    const rl_hw *h = c->h;
    rl_precision p = c->p;
    const rl_shard_result *r = r0;
    rl_shard_result timed;
    out->evaluated++;
    if (c->cal && calibrated_step(m, h, r0, p, out->fitted, &timed) != 0) {
        out->uncalibrated++;
        return 0;
    }
    if (c->cal)
        r = &timed;
    if (!r->fits) {
        out->infeasible++;
        return 0;
    }
    int layout = name_index(out, r->name, c->hint[i]);
    if (layout < 0 ||
        (layout != c->hint[i] &&
         prefill_candidates(m, h, r, c->prompt, p, c->cal, out, &c->pre[i]) != 0))
        return -1;
    c->hint[i] = layout;
    const prefills *pre = &c->pre[i];
    double bytes = 0;
    int k = pick_prefill(m, h, r, pre, p, rl_shard_chip_room(m, h, r), &bytes);
    if (k == -1) { /* no room to prefill beside the cache */
        out->infeasible++;
        out->infeasible_prefill++;
        return 0;
    }
    rl_sweep_point pt = {.chips = c->chips, .batch = b, .context = c->S, .prec = p,
                         .layout = layout, .prefill_layout = k >= 0 ? pre->name[k] : 0,
                         .pp = r0->plan.pp, .tp = r0->plan.tp, .ep = r0->plan.ep,
                         .replicas = r0->replicas,
                         .idle_chips = c->chips - r0->chips,
                         .step_s = r->step_s, .table_s = r->table_s,
                         .ttft_s = k >= 0 ? pre->ttft_s[k] : -1,
                         .ttft_share = k >= 0 ? pre->share[k] : -1,
                         .weight_load_s = r->weight_load_s, .kv_load_s = r->kv_load_s,
                         .compute_s = r->compute_s,
                         .attention_compute_s = r->attention_compute_s, .comm_s = r->comm_s,
                         .kernel_excess_s = r->kernel_excess_s,
                         .tp_excess_s = r->tp_excess_s,
                         .tokens_per_s = r->tokens_per_s, .total_bytes = r->total_bytes,
                         .prefill_bytes = k >= 0 ? bytes : r->total_bytes,
                         .b_crit = rl_step_b_crit(m, h, p),
                         .max_batch = rl_shard_max_batch(m, h, r)};
    for (int j = 0; c->cal && j < r->ncoll; j++) {
        const rl_comm *cc = &r->coll[j].c;
        if (rl_comm_floored(h, cc) && cc->group > pt.coll_group) {
            pt.coll_group = cc->group;
            pt.coll_floor = cc->floor_gpus;
            pt.coll_kind = (int)cc->kind;
            snprintf(pt.coll_impl, sizeof pt.coll_impl, "%s", cc->impl);
        }
    }
    pt.extrapolated = c->cal ? r->prov[RL_PROV_EXTRAPOLATED] : 0;
    pt.idle = r0->replicas > b ? r0->replicas - b : 0;
    out->idle_points += pt.idle > 0;
    return push(out, &pt, h);
}

/* Step's plan for batch b over the cell's chips (sweep.h step_plans:
 * stepplan.h rl_step_plan_one, the function step --chips N chooses by),
 * unless none holds the batch or it is one of the n plans res already
 * holds (the same name on the same chips), as the point of slot PLANS.
 * 0, or add_plan's error. */
static int add_step_plan(cell *c, const rl_sweep_space *sp, long long b,
                         const rl_shard_result *res, int n, rl_sweep *out)
{
    rl_shard_plan base = rl_shard_plan_default(); /* step's: its KV split, --overlap */
    base.kv = rl_kv_split_default(0);
    base.overlap = sp->overlap;
    rl_step_choice ch;
    if (rl_step_plan_one(c->m, c->h, &base, c->chips, b, c->S, c->p, 0, c->memo, &ch) != 0 ||
        !ch.fits)
        return 0;
    rl_shard_plan pl = base;
    pl.tp = ch.tp;
    pl.ep = 1;
    pl.pp = ch.pp;
    rl_shard_result r;
    char err[256];
    if (rl_shard_eval(c->m, c->h, &pl, RL_PHASE_GENERATE, ch.chips, b, c->S, c->p, &r, err,
                      sizeof err) != 0)
        return 0; /* timed by step's search, so not met: nothing to add */
    for (int i = 0; i < n; i++)
        if (res[i].chips == r.chips && strcmp(res[i].name, r.name) == 0)
            return 0; /* already a point */
    return add_plan(c, &r, PLANS, b, out);
}

/* One (chips, precision, context) cell in sharded mode: every batch x plan,
 * and with sp->step_plans step's plan for each batch. */
static int run_sharded(const rl_model *m, const rl_hw *h, const rl_sweep_space *sp,
                       long long chips, rl_precision p, long long S, rl_shard_result *res,
                       rl_step_memo *memo, rl_sweep *out)
{
    int bl, bt;
    cell c = {.m = m, .h = h, .chips = chips, .S = S, .prompt = sp->prompt ? sp->prompt : S,
              .p = p, .cal = out->calibrated || out->fitted, .memo = memo};
    for (int i = 0; i <= PLANS; i++)
        c.hint[i] = -1;
    for (int b = 0; b < sp->nbatch; b++) {
        if (rl_interrupted())
            return -2; /* SIGINT: a slice of step searches may run for seconds */
        tick(out);
        int dropped;
        char why[sizeof out->dropped_why];
        int n = rl_shard_compare_why(m, h, RL_PHASE_GENERATE, chips, sp->batch[b], S, p,
                                     sp->overlap, res, PLANS, &bl, &bt, &dropped, why, sizeof why);
        if (dropped > 0 && out->dropped == 0)
            memcpy(out->dropped_why, why, sizeof why);
        out->dropped += dropped;
        for (int i = 0; i < n; i++) {
            int rc = add_plan(&c, &res[i], i, sp->batch[b], out);
            if (rc != 0)
                return rc;
        }
        /* step --chips N plans by stepplan.h but on a fitted profile (TP over
         * the chips, a compared plan), an abstract model (no plan search) or
         * one chip (its one plan, tp1, is a compared plan: a 1-chip sweep of
         * 4096 batches x 7 contexts x 16 precisions searched it at each point,
         * 1.5 -> 8.7 s, tests/bad_inputs sweep_memory.lua) */
        int rc = sp->step_plans && !out->fitted && !m->abstract && chips > 1
                     ? add_step_plan(&c, sp, sp->batch[b], res, n, out)
                     : 0;
        if (rc != 0)
            return rc;
    }
    return 0;
}

/* Why a sweep kept no point when not all were kept out for HBM (tester72
 * #5), into buf: the points whose plan could not be timed (the first's reason),
 * those the calibrated path does not time, those whose weights and KV
 * exceed HBM and those with no room to prefill a prompt, each counted,
 * the ones not about memory first. */
static const char *none_kept_why(const rl_sweep *s, char *buf, size_t len)
{
    long long hbm = s->infeasible - s->infeasible_prefill;
    size_t n = 0;
    buf[0] = '\0';
    if (s->dropped > 0)
        n += (size_t)snprintf(buf + n, len - n, "%lld could not be timed (first %s)",
                              s->dropped, s->dropped_why);
    if (s->uncalibrated > 0 && n < len)
        n += (size_t)snprintf(buf + n, len - n, "%s%lld not timed by the calibrated path (2D "
                              "or --sp plans)", n ? "; " : "", s->uncalibrated);
    if (hbm > 0 && n < len)
        n += (size_t)snprintf(buf + n, len - n, "%s%lld do not fit in HBM (more chips, int8 "
                              "weights or KV, a shorter context?)", n ? "; " : "", hbm);
    if (s->infeasible_prefill > 0 && n < len)
        snprintf(buf + n, len - n, "%s%lld leave no room to prefill a prompt beside the cache",
                 n ? "; " : "", s->infeasible_prefill);
    return buf;
}

int rl_sweep_none_kept_note(const rl_sweep *s, char *buf, size_t len)
{
    buf[0] = '\0';
    if (s->n > 0)
        return 0;
    if (s->dropped > 0 || s->uncalibrated > 0 || s->infeasible_prefill > 0) {
        /* tester72 #5: not every point failed on HBM: each reason counted,
         * the plans that could not be timed first (an ici_bw of 0 read
         * "none of the 24 points fits in HBM", the cause last) */
        char why[1024];
        snprintf(buf, len, "none of the %lld points (plan x batch x precision) is kept: %s",
                 s->evaluated + s->dropped, none_kept_why(s, why, sizeof why));
    } else
        snprintf(buf, len, "none of the %lld points fits in HBM (more chips, int8 weights or "
                 "KV, a shorter context?)", s->evaluated);
    return 1;
}

size_t rl_sweep_skip_note(char *buf, size_t n, size_t k, rl_precision p, const char *why)
{
    if (k >= n)
        return k;
    int w = snprintf(buf + k, n - k, "%sweights %s, kv %s, compute %s skipped: %s", k ? "; " : "",
                     rl_dtype_name(p.weights), rl_dtype_name(p.kv), rl_dtype_name(p.compute), why);
    return w < 0 ? k : k + (size_t)w > n ? n : k + (size_t)w;
}

long long rl_sweep_default_context(const rl_model *m, long long prompt)
{
    long long c = m->max_context > 0 && m->max_context < 2048 ? m->max_context : 2048;
    return prompt > c ? prompt : c;
}

int rl_sweep_check_prompt(const rl_sweep_space *sp, const char *context_name,
                          const char *prompt_name, char *err, size_t errlen)
{
    for (int i = 0; sp->prompt > 0 && i < sp->ncontext; i++)
        if (sp->context[i] < sp->prompt) {
            snprintf(err, errlen,
                     "%s %lld is below %s %lld: after a %lld-token prompt the KV cache holds "
                     "at least %lld tokens, so its TTFT would be paired with decode at a "
                     "context no request reaches; give %s >= %s (the tokens cached at decode)",
                     context_name, sp->context[i], prompt_name, sp->prompt, sp->prompt,
                     sp->prompt, context_name, prompt_name);
            return -1;
        }
    return 0;
}

int rl_sweep_run(const rl_model *m, const rl_hw *h, const rl_sweep_space *sp, rl_sweep *out,
                 char *err, size_t errlen)
{
    return rl_sweep_run_bounded(m, h, sp, 0, out, err, errlen);
}

int rl_sweep_run_bounded(const rl_model *m, const rl_hw *h, const rl_sweep_space *sp,
                         size_t max_points, rl_sweep *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->max_points = max_points;
    if (check_space(m, h, sp, err, errlen) != 0)
        return -1;
    long long defchips[64];
    const long long *chips = sp->chips;
    int nchips = sp->nchips;
    if (nchips == 0) {
        nchips = rl_sweep_topologies(h, sp->max_chips, defchips, 64);
        chips = defchips;
    }
    out->sharded = sp->sharded;
    out->calibrated = sp->sharded && sp->calibrated && rl_hw_measured(h);
    out->fitted = sp->sharded && sp->calibrated && h->engine_costs.present && !m->abstract;
    out->overlap = sp->sharded && sp->overlap && !out->calibrated && !out->fitted;
    if (name_index(out, "", -1) != 0 || name_index(out, "ideal", -1) != 1) {
        rl_sweep_free(out);
        snprintf(err, errlen, "sweep: out of memory");
        return -1;
    }
    rl_shard_result *res = sp->sharded ? malloc(PLANS * sizeof *res) : NULL;
    /* formula (1) is --ideal, which is --engine ideal's memory too: the whole
     * HBM (less --hbm-reserve), no engine's rule, as step --ideal has it
     * (rl_hw_set_ideal; tester35 F3: pareto --ideal charged TRT-LLM's 0.9
     * and its collective buffers, max_batch 77 where step --ideal says 86) */
    rl_hw *ideal = sp->sharded ? NULL : malloc(sizeof *ideal);
    if (ideal) {
        *ideal = *h;
        rl_hw_set_ideal(ideal);
    }
    /* step's plans time a candidate once over the sweep (stepplan.h
     * rl_step_memo: its key holds the cell's context and precision; NULL
     * out of memory, each timed) */
    rl_step_memo *memo = sp->sharded && sp->step_plans ? rl_step_memo_new() : NULL;
    int rc = (sp->sharded && !res) || (!sp->sharded && !ideal) ? -1 : 0;
    out->slices = nchips * sp->nprec * sp->ncontext;
    out->progress_on = progress.f && (isatty(fileno(progress.f)) ||
                                      (double)out->slices * sp->nbatch >= RL_SWEEP_PROGRESS_CELLS);
    out->progress_t0 = out->progress_on ? now_s() : 0;
    for (int c = 0; rc == 0 && c < nchips; c++)
        for (int q = 0; rc == 0 && q < sp->nprec; q++)
            for (int s = 0; rc == 0 && s < sp->ncontext; s++)
                rc = (out->slice++, rl_interrupted()) ? -2 /* SIGINT: stop between slices */
                     : sp->sharded
                         ? run_sharded(m, h, sp, chips[c], sp->prec[q], sp->context[s], res, memo,
                                       out)
                         : run_ideal(m, ideal, sp, chips[c], sp->prec[q], sp->context[s], out);
    free(res);
    free(ideal);
    rl_step_memo_free(memo);
    if (rc == -3)
        snprintf(err, errlen, "sweep: more than %zu feasible points, more than the memory budget "
                              "holds; narrow the grid (fewer chip counts, batch sizes, contexts or "
                              "precisions)",
                 max_points);
    else if (rc == -2)
        snprintf(err, errlen, "sweep: interrupted (%s) after %lld points; no result written",
                 rl_interrupt_name(), out->evaluated);
    else if (rc != 0)
        snprintf(err, errlen, "sweep: out of memory (%lld points)", out->evaluated);
    if (rc != 0) {
        rl_sweep_free(out);
        rc = -1;
    }
    return rc;
}

void rl_sweep_free(rl_sweep *s)
{
    free(s->pts);
    free(s->names);
    memset(s, 0, sizeof *s);
}

static int same_prec(rl_precision a, rl_precision b)
{
    return a.weights == b.weights && a.kv == b.kv && a.compute == b.compute;
}

/* Whether point p is one rl_sweep_frontier ranks (of precision *only when
 * not NULL; an idle one only when `idle`). */
static int ranked(const rl_sweep_point *p, const rl_precision *only, int idle)
{
    return (!only || same_prec(p->prec, *only)) && (idle || p->idle == 0);
}

long rl_sweep_frontier(const rl_sweep *s, const rl_precision *only, size_t *idx)
{
    int idle = 1; /* idle points ranked only when no other is there (sweep.h) */
    for (size_t i = 0; i < s->n && idle; i++)
        idle = !ranked(&s->pts[i], only, 0);
    if (!only && (idle || s->idle_points == 0))
        return rl_pareto_front(s->pts, s->n, sizeof *s->pts, offsetof(rl_sweep_point, step_s),
                               offsetof(rl_sweep_point, chip_s_per_token), idx);
    size_t n = 0, cap = s->n ? s->n : 1;
    rl_sweep_point *sub = malloc(cap * sizeof *sub);
    size_t *map = malloc(cap * sizeof *map);
    long m = -1;
    if (sub && map) {
        for (size_t i = 0; i < s->n; i++)
            if (ranked(&s->pts[i], only, idle)) {
                map[n] = i;
                sub[n++] = s->pts[i];
            }
        m = rl_pareto_front(sub, n, sizeof *sub, offsetof(rl_sweep_point, step_s),
                            offsetof(rl_sweep_point, chip_s_per_token), idx);
        for (long i = 0; i < m; i++)
            idx[i] = map[idx[i]];
    }
    free(sub);
    free(map);
    return m;
}

void rl_precision_label(rl_precision p, char *out, size_t outlen)
{
    snprintf(out, outlen, "weights %s, KV %s%s%s", rl_dtype_name(p.weights), rl_dtype_name(p.kv),
             p.compute == RL_BF16 ? "" : ", compute ", p.compute == RL_BF16 ? "" : rl_dtype_name(p.compute));
}
