/* serve.c — discrete-event serving simulator (see serve.h).
 *
 * One global event heap holds each busy replica's step end and each KV
 * transfer in flight (disagg); arrivals are read in order from the request
 * array.  A replica's decoding sequences are kept in O(1) aggregate form:
 * with E tokens per step, a sequence that joined at decode step k0 with
 * context c0 has context c0 + (k - k0) E at step k, so the sum of contexts
 * is A + n E k with A = sum(c0 - k0 E); completions come from a min-heap of
 * finishing step numbers.  No allocation happens per event.  A replica's
 * decode steps that nothing outside it can change (no completion, no
 * admission, no preemption, no KV sample due) run on its own clock as a
 * decode run (plan_run): only the run's last step end enters the heap, an
 * arrival routed to the replica cuts the run at the step end that admits
 * it (cut_run), and the skipped step ends are booked in order at the next
 * event (commit_run): the same numbers as every step as an event
 * (rl_serve_config.every_step; test_serve). */
#include "serve.h"

#include "interrupt.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "arch.h"
#include "memory.h"
#include "ops.h"
#include "e2e.h"
#include "shard.h"
#include "plot.h"
#include "progress.h"
#include "report.h"
#include "error.h"
#include "stats.h"

/* ---- replica layout ------------------------------------------------------ */

static const char *const LAYOUT_NAMES[RL_ATTN_LAYOUT_COUNT] = {"tp", "attn-dp"};

const char *rl_attn_layout_name(rl_attn_layout l)
{
    return l < RL_ATTN_LAYOUT_COUNT ? LAYOUT_NAMES[l] : "?";
}

int rl_attn_layout_parse(const char *s, rl_attn_layout *out)
{
    for (int i = 0; i < RL_ATTN_LAYOUT_COUNT; i++)
        if (strcmp(s, LAYOUT_NAMES[i]) == 0) {
            *out = (rl_attn_layout)i;
            return 0;
        }
    return -1;
}

int rl_attn_layout_check(const rl_model *m, long long chips, rl_attn_layout l, char *err,
                         size_t errlen)
{
    if (l != RL_ATTN_LAYOUT_DP)
        return 0;
    if (m->abstract || m->experts == 0)
        RL_FAIL("layout attn-dp: attention data parallel is modelled for MoE models (its expert "
                "layers then run expert parallel); %s has no experts", m->name);
    if (chips < 2 || m->experts % chips != 0)
        RL_FAIL("layout attn-dp: %lld chips per replica; it needs 2 or more that divide the %lld "
                "experts of %s", chips, m->experts, m->name);
    return 0;
}

int rl_serve_layout_check(const rl_model *m, long long chips, long long pp, long long ep,
                          rl_attn_layout l, char *err, size_t errlen)
{
    /* each condition named on its own (tester32 F7), as step's (shard.c) */
    if (pp < 1)
        RL_FAIL("pp: %lld pipeline stages; at least 1", pp);
    if (chips % pp != 0)
        RL_FAIL("pp: %lld pipeline stages do not divide the replica's %lld chips", pp, chips);
    if (!m->abstract && pp > m->layers)
        RL_FAIL("pp: %lld pipeline stages exceed the %lld layers of %s (a stage holds one layer "
                "at least)", pp, m->layers, m->name);
    long long stage = chips / pp;
    /* --ep under the tp layout only, each condition named on its own
     * (tester3 #12: one message listed them all, met ones included) */
    if (ep != 1 && l != RL_ATTN_LAYOUT_TP)
        RL_FAIL("ep: %lld and --attn-layout %s exclude each other: attn-dp already runs the "
                "expert layers expert parallel over all the stage's chips (drop --ep, or use "
                "--attn-layout tp)", ep, LAYOUT_NAMES[l]);
    if (rl_shard_ep_check(m, ep, err, errlen) != 0) /* the model's rule, as step's */
        return -1;
    if (ep != 1 && stage % ep != 0)
        RL_FAIL("ep: %lld expert-parallel groups do not divide the %lld chips of a stage (--chips "
                "%lld / --pp %lld)", ep, stage, chips, pp);
    if (l == RL_ATTN_LAYOUT_TP) { /* the stage's tp * ep plan, checked as step checks it
                                   * (tester40 F3: tp 128 over 64 heads read "the weights
                                   * leave no KV room") */
        rl_shard_plan plan = rl_serve_replica_plan(stage, ep, l);
        if (rl_shard_check_plan(m, &plan, RL_PHASE_GENERATE, stage, err, errlen) != 0)
            return -1;
    }
    return rl_attn_layout_check(m, stage, l, err, errlen);
}

rl_kv_layout rl_serve_kv_layout(const rl_model *m, long long chips, long long ep,
                                rl_attn_layout l)
{
    rl_shard_plan plan = rl_serve_replica_plan(chips, ep, l);
    return rl_shard_kv_layout(m, &plan, 1);
}

double rl_serve_kv_copies(const rl_model *m, long long chips, long long ep, rl_attn_layout l)
{
    return rl_serve_kv_layout(m, chips, ep, l).copies;
}

rl_shard_plan rl_serve_replica_plan(long long chips, long long ep, rl_attn_layout l)
{
    rl_shard_plan plan = rl_shard_plan_default();
    plan.kv = RL_KV_REPLICATE; /* as the engines do beyond K heads (serve.h) */
    if (l == RL_ATTN_LAYOUT_DP) {
        plan.ep = chips;
        plan.attn_replicated = 1;
    } else {
        plan.ep = ep > 1 ? ep : 1;
        plan.tp = chips / plan.ep;
    }
    return plan;
}

/* ---- step cost: operator list + TP collectives ------------------------- */

int rl_serve_attn_longest(const rl_model *m, const rl_hw *h, rl_precision p, int calibrated)
{
    int cal = calibrated && rl_hw_measured(h), fitted = calibrated && h->engine_costs.present;
    const rl_serving_engine *e = cal && !fitted ? rl_engines_selected(&h->engines) : NULL;
    int kv = rl_kvariant_kv(p.kv);
    return e && e->attn_longest && kv >= 0 &&
           rl_engine_has(e->tables, m->attention == RL_ATTN_MLA ? RL_KC_DECODE_MLA
                                                                : RL_KC_DECODE_ATTN,
                         kv);
}

int rl_ops_cost_init(rl_ops_cost *c, const rl_model *m, const rl_hw *h, long long chips,
                     rl_precision p, int calibrated, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    if (m->abstract) {
        snprintf(err, errlen, "%s: an abstract model has no operator list to cost steps with",
                 m->origin);
        return -1;
    }
    if (rl_step_check(m, h, chips, 1, p, err, errlen) != 0)
        return -1;
    *c = (rl_ops_cost){.m = m, .h = h, .chips = chips, .p = p, .cap = 16384, .pp = 1, .ep = 1,
                       .dense_max = RL_OPS_DENSE_MAX, .calibrated = calibrated && rl_hw_measured(h),
                       .fitted = calibrated && h->engine_costs.present};
    rl_ops_config oc = rl_ops_config_default();
    oc.calibrated = c->calibrated;
    c->dispatch_s = c->fitted ? 0 : rl_ops_prefill_dispatch(m, h, &oc);
    c->attn_longest = rl_serve_attn_longest(m, h, p, calibrated);
    c->smax = m->max_context > 0 ? m->max_context : 8192;
    if (chips > 1) {
        rl_shard_plan plan = rl_shard_plan_default();
        plan.tp = chips;
        rl_shard_result r;
        if (rl_shard_eval(m, h, &plan, RL_PHASE_GENERATE, chips, 1, 1, p, &r, err, errlen) != 0)
            return -1;
    }
    c->t1 = malloc((size_t)(c->cap + 1) * sizeof *c->t1);
    c->slope = malloc((size_t)(c->cap + 1) * sizeof *c->slope);
    c->comm = malloc((size_t)(c->cap + 1) * sizeof *c->comm);
    c->ends = malloc((size_t)(c->cap + 1) * 2 * sizeof *c->ends);
    if (!c->t1 || !c->slope || !c->comm || !c->ends) {
        rl_ops_cost_free(c);
        snprintf(err, errlen, "step cost: out of memory");
        return -1;
    }
    for (int b = 0; b <= c->cap; b++)
        c->slope[b] = c->comm[b] = c->ends[2 * b] = NAN;
    return 0;
}

/* The dtype a step's activations travel in (shard.h rl_shard_moved_dtype). */
static rl_dtype moved_dtype(const rl_ops_cost *c)
{
    return rl_shard_moved_dtype(c->p.compute);
}

/* The (pp - 1) stage-to-stage sends of one pipeline pass over `rows` token
 * rows (serve.h rl_ops_cost_pipeline): hidden state and residual, each
 * rows x d_model; inside a domain or over the network by boundary, as
 * step's (shard.h rl_shard_pp_sends); 0 without a pipeline. */
static double pp_send(const rl_ops_cost *c, long long rows, char *err, size_t errlen)
{
    if (c->pp <= 1)
        return 0;
    double bytes = rl_shard_pp_send_bytes(c->m, (double)rows, moved_dtype(c));
    rl_comm x[2];
    double n[2];
    if (rl_shard_pp_sends(c->h, 0, c->chips, c->pp, bytes, x, n, err, errlen) != 0)
        return -1;
    return n[0] * x[0].time_s + n[1] * x[1].time_s;
}

/* Of tp_comm, the pipeline's sends (pp_send; 0 on error, as tp_comm): the
 * fitted costs charge them no tp_excess (e2e.h rl_e2e_mixed_time). */
static double pp_sends(const rl_ops_cost *c, long long rows)
{
    char err[256];
    return rows > 0 ? fmax(0, pp_send(c, rows, err, sizeof err)) : 0;
}

/* The collectives of one step over `rows` token rows: TP (1D Megatron, tp =
 * chips) and the pipeline's sends; 0 on one chip without a pipeline. */
static double tp_comm(rl_ops_cost *c, long long rows)
{
    if ((c->chips <= 1 && c->pp <= 1) || rows <= 0)
        return 0;
    if (rows <= c->cap && !isnan(c->comm[rows]))
        return c->comm[rows];
    rl_shard_plan plan = rl_serve_replica_plan(c->chips, c->ep, c->layout);
    rl_precision moved = c->p;
    moved.compute = moved_dtype(c);
    rl_shard_result r;
    char err[256];
    double t = c->chips > 1 && rl_shard_collectives(c->m, c->h, &plan, RL_PHASE_GENERATE,
                                                    (double)rows, moved, &r, err,
                                                    sizeof err) == 0 ? r.comm_s : 0;
    t += fmax(0, pp_send(c, rows, err, sizeof err)); /* checked by rl_ops_cost_pipeline */
    if (rows <= c->cap)
        c->comm[rows] = t;
    return t;
}

/* The memo tables (the dense memo, the spans' terms) are read at random,
 * tens of megabytes of them per step cost: on 4 KiB pages most reads need
 * a page walk too (perf on the README's size search: the span slots' first
 * reads were 9% of its time, and a software prefetch of them stalled as
 * long, as a TLB miss makes it), so they are mapped whole, aligned to 2 MiB
 * and advised into transparent huge pages (Linux madvise(2) MADV_HUGEPAGE;
 * elsewhere plain pages): about 4% less CPU on that search, run beside the
 * calloc'd tables (h23spd).  Zeroed by the system, each page when first
 * touched. */
#define TABLE_ALIGN ((size_t)2 << 20)

static size_t table_len(size_t n)
{
    return (n + TABLE_ALIGN - 1) / TABLE_ALIGN * TABLE_ALIGN;
}

/* n zeroed bytes at a 2 MiB boundary, or NULL. */
static void *table_map(size_t n)
{
    size_t len = table_len(n);
    char *p = mmap(NULL, len + TABLE_ALIGN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                   -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    size_t head = (TABLE_ALIGN - (uintptr_t)p % TABLE_ALIGN) % TABLE_ALIGN;
    if (head > 0)
        munmap(p, head);
    munmap(p + head + len, TABLE_ALIGN - head); /* the mapping is now [p + head, + len) */
#ifdef MADV_HUGEPAGE
    madvise(p + head, len, MADV_HUGEPAGE); /* advice only: refused, plain pages */
#endif
    return p + head;
}

static void table_unmap(void *p, size_t n)
{
    if (p)
        munmap(p, table_len(n));
}

/* Slots of each span in rl_ops_cost.terms (serve.h RL_OPS_TERM_SLOTS). */
static const size_t SPAN_SLOTS[RL_OPS_SPANS] = {
    [RL_OPS_HEAD] = RL_OPS_TERM_SLOTS, [RL_OPS_PREFILL] = RL_OPS_PREFILL_SLOTS,
    [RL_OPS_DECODE] = RL_OPS_DECODE_SLOTS, [RL_OPS_TAIL] = RL_OPS_TERM_SLOTS,
    [RL_OPS_SEQS] = RL_OPS_TERM_SLOTS};

/* Slots of the spans before sp (sp = RL_OPS_SPANS: all of them). */
static size_t span_slots(int sp)
{
    size_t n = 0;
    for (int j = 0; j < sp; j++)
        n += SPAN_SLOTS[j];
    return n;
}

/* The span terms' mapping: every span's slots, then one slot whose key is
 * the mapping's generation (terms_take). */
static size_t terms_bytes(void)
{
    return (span_slots(RL_OPS_SPANS) + 1) * sizeof(rl_ops_term_slot);
}

/* Step costs' terms mappings, freed by the ones before (free_dense) and
 * kept for the next, up to RL_TERM_SPARES of them: `size` makes and frees
 * a step cost per configuration (pools of RL_SERVE_KEPT_COSTS, band
 * edges), and mapping 36 MiB afresh made the kernel zero every huge page again as it was touched
 * (perf on the README's size search at 20 req/s: clear_page_erms under
 * span_terms, 5.8% of its CPU).  One spare left every cost of a full pool
 * but one to a fresh mapping (h34speed: 23 step costs and 4.1% of the CPU
 * in clear_page_erms, 3.1% under span_terms); as many spares as size
 * keeps costs at once (serve.h RL_SERVE_KEPT_COSTS) map no more than the most
 * costs alive at once did.  The slots are not zeroed on reuse: each key carries its
 * mapping's generation in its top bits (RL_TERM_TAG_SHIFT), 1 to
 * RL_TERM_GENS, one more for each step cost that takes it, so no key of
 * an earlier owner matches (and key 0, a fresh slot's, is never asked);
 * after RL_TERM_GENS owners the mapping is zeroed and starts at 1 again.
 * A slot then holds what a fresh mapping's would or nothing, and a step's
 * time is the same either way (term_slot: where a key sits changes which
 * slots it evicts, never a time). */
#define RL_TERM_TAG_SHIFT 56
#define RL_TERM_GENS 255ull
#define RL_TERM_SPARES RL_SERVE_KEPT_COSTS
static _Atomic(rl_ops_term_slot *) spare_terms[RL_TERM_SPARES];

/* The mapping for c's terms (a spare, else a new one) with c->terms_tag
 * set to its next generation; NULL without memory. */
static rl_ops_term_slot *terms_take(rl_ops_cost *c)
{
    size_t n = span_slots(RL_OPS_SPANS);
    rl_ops_term_slot *t = NULL;
    for (int j = 0; j < RL_TERM_SPARES && !t; j++)
        t = atomic_exchange(&spare_terms[j], NULL);
    if (!t && !(t = table_map(terms_bytes())))
        return NULL;
    unsigned long long gen = t[n].key + 1; /* a new mapping's key is 0 */
    if (gen > RL_TERM_GENS) {
        memset(t, 0, terms_bytes());
        gen = 1;
    }
    t[n].key = gen;
    c->terms_tag = gen << RL_TERM_TAG_SHIFT;
    return t;
}

/* Free the dense memo (one mapping: its blocks, rows and row table) and
 * keep the span terms' mapping for the next step cost (terms_take). */
static void free_dense(rl_ops_cost *c)
{
    table_unmap(c->dense_map, c->dense_max);
    c->dense_map = NULL;
    c->dense = NULL;
    c->dense_bytes = 0;
    rl_ops_term_slot *t = c->terms[0]; /* into an empty spare, else unmapped */
    for (int j = 0; j < RL_TERM_SPARES && t; j++) {
        rl_ops_term_slot *none = NULL;
        if (atomic_compare_exchange_strong(&spare_terms[j], &none, t))
            t = NULL;
    }
    table_unmap(t, terms_bytes());
    for (int sp = 0; sp < RL_OPS_SPANS; sp++)
        c->terms[sp] = NULL;
}

/* Forget every cached time (a setter changed the plan they were costed
 * for): the collectives, the linear fits, both memos, the spans' terms,
 * the step template and its op-list memo. */
static void forget_steps(rl_ops_cost *c)
{
    c->step0.chips = 0;
    rl_ops_memo_free(c->memo);
    c->memo = NULL;
    for (int b = 0; b <= c->cap; b++)
        c->slope[b] = c->comm[b] = c->ends[2 * b] = NAN;
    free_dense(c);
    if (c->memo_key)
        memset(c->memo_key, 0, RL_OPS_MEMO * sizeof *c->memo_key);
    c->memo_n = 0;
}

int rl_ops_cost_pipeline(rl_ops_cost *c, long long pp, char *err, size_t errlen)
{
    if (rl_serve_layout_check(c->m, c->chips * pp, pp, 1, c->layout, err, errlen) != 0)
        return -1;
    long long was = c->pp;
    c->pp = pp;
    if (pp_send(c, 1, err, errlen) < 0) {
        c->pp = was;
        return -1;
    }
    c->split = rl_shard_split_of(c->h);
    forget_steps(c);
    return 0;
}

int rl_ops_cost_experts(rl_ops_cost *c, long long ep, char *err, size_t errlen)
{
    if (rl_serve_layout_check(c->m, c->chips, 1, ep, c->layout, err, errlen) != 0)
        return -1;
    rl_shard_plan plan = rl_serve_replica_plan(c->chips, ep, c->layout);
    rl_shard_result r;
    if (rl_shard_collectives(c->m, c->h, &plan, RL_PHASE_GENERATE, 1, c->p, &r, err, errlen) != 0)
        return -1;
    c->ep = ep;
    forget_steps(c);
    return 0;
}

int rl_ops_cost_replica(rl_ops_cost *c, const rl_model *m, const rl_hw *h, long long chips,
                        long long pp, long long ep, rl_attn_layout layout, rl_precision p,
                        int calibrated, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    pp = pp > 1 ? pp : 1;
    ep = ep > 1 ? ep : 1;
    if (rl_serve_layout_check(m, chips, pp, ep, layout, err, errlen) != 0 ||
        rl_ops_cost_init(c, m, h, chips / pp, p, calibrated, err, errlen) != 0)
        return -1;
    c->layout = layout;
    if (rl_ops_cost_pipeline(c, pp, err, errlen) != 0 ||
        rl_ops_cost_experts(c, ep, err, errlen) != 0) {
        rl_ops_cost_free(c);
        return -1;
    }
    return 0;
}

int rl_ops_cost_on(rl_ops_cost *dst, const rl_ops_cost *src, const rl_hw *h, char *err,
                   size_t errlen)
{
    return rl_ops_cost_replica(dst, src->m, h, src->chips * src->pp, src->pp, src->ep,
                               src->layout, src->p, src->calibrated || src->fitted, err, errlen);
}

void rl_ops_cost_free(rl_ops_cost *c)
{
    free(c->t1);
    free(c->slope);
    free(c->comm);
    free(c->ends);
    free(c->parts);
    free_dense(c);
    rl_ops_memo_free(c->memo);
    c->memo = NULL;
    free(c->memo_key);
    free(c->memo_t);
    c->memo_key = NULL;
    c->memo_t = NULL;
    c->t1 = c->slope = c->comm = c->ends = NULL;
    c->parts = NULL;
}

/* The step's configuration: the prompts `parts` (n of them) beside a
 * decode batch of B at context S, from the replica's (c->step0, made on
 * first use). */
static rl_ops_config step_config(rl_ops_cost *c, const rl_ops_part *parts, int n, long long B,
                                 long long S)
{
    if (c->step0.chips == 0) {
        rl_ops_config oc = rl_ops_mixed_config(c->chips, c->p, 0, 0, 0, 0);
        oc.calibrated = c->calibrated;
        oc.kv_copies = rl_serve_kv_copies(c->m, c->chips, c->ep, c->layout);
        rl_shard_plan plan = rl_serve_replica_plan(c->chips, c->ep, c->layout);
        oc.tp = plan.tp; /* the replica's plan shapes the local ops; tp_comm adds its collectives */
        oc.ep = plan.ep;
        oc.attn_replicated = plan.attn_replicated; /* attn-dp: weights on every chip (ops.h) */
        oc.no_collectives = 1;
        if (!c->memo)
            c->memo = rl_ops_memo_new(); /* NULL without memory: no memo, the same times */
        oc.memo = c->memo;
        c->step0 = oc;
    }
    rl_ops_config oc = c->step0;
    oc.parts = parts;
    oc.nparts = n;
    oc.decode_batch = B;
    oc.decode_context = S;
    return oc;
}

/* The slot of span sp's terms under `key` (rl_ops_cost.terms), or NULL
 * (key 0: not kept; no memory).  Counts (token rows, sequences) index
 * their span directly and a decode batch (B, S) goes to S + 6151 B, so the
 * steps of a run, whose counts and context move by little, read nearby
 * slots (a hashed slot was a cache miss per span per step: 85% of
 * step_time's own time, h26size); a prompt's (T, P) is hashed.  Where a
 * key sits changes which slots it evicts, never a step's time.  The
 * stride 6151 (was 1031) puts batches B and B + 1 a typical context range
 * apart, where 1031 made (B, S) and (B + 1, S - 1031) evict each other:
 * replayed on the README's size search at 20 req/s (h31speed), 2^17
 * slots took 2.02 M DECODE builds at stride 1031, 1.43 M at 4099, 1.31 M
 * at 6151 (1.29 M distinct keys). */
static rl_ops_term_slot *term_slot(rl_ops_cost *c, int sp, unsigned long long key)
{
    if (!key || (!c->terms[0] && c->unmapped < RL_OPS_MAP_AFTER))
        return NULL;
    if (!c->terms[0]) {
        rl_ops_term_slot *t = terms_take(c);
        for (int j = 0; t && j < RL_OPS_SPANS; j++)
            c->terms[j] = t + span_slots(j);
    }
    size_t i = sp == RL_OPS_PREFILL ? (size_t)((key * 0x9E3779B97F4A7C15ull) >> 40)
               : sp == RL_OPS_DECODE ? (size_t)((key & 0xffffffffu) + (key >> 32) * 6151)
                                     : (size_t)key;
    i &= SPAN_SLOTS[sp] - 1;
    return c->terms[sp] ? &c->terms[sp][i] : NULL;
}

/* The terms of step oc's spans in the mask `want` (rl_ops_cost.terms), with
 * `rows` token rows, into t (the kept ones, or built[] for those not
 * kept, built together in one pass; the others untouched); -1 when they
 * cannot be built (a span past RL_OPS_TERMS ops, or invalid). */
static int span_terms(rl_ops_cost *c, const rl_ops_config *oc, long long rows, unsigned want,
                      const rl_ops_terms *t[RL_OPS_SPANS], rl_ops_terms built[RL_OPS_SPANS])
{
    static const rl_ops_terms none; /* an empty span: no prompt, or no decode batch */
    const rl_ops_part *q = oc->parts;
    long long B = oc->decode_batch, S = oc->decode_context, seqs = B;
    for (int i = 0; i < oc->nparts; i++)
        seqs += q[i].seqs;
    /* every key below 2^RL_TERM_TAG_SHIFT (its generation goes above; a
     * count past that is not kept) */
    const long long top = 1ll << RL_TERM_TAG_SHIFT;
    int lone = oc->nparts == 1 && q->seqs == 1 && q->tokens < (1ll << 24) && q->prefix < (1ll << 32);
    unsigned long long key[RL_OPS_SPANS] = {
        [RL_OPS_HEAD] = rows >= 0 && rows < top - 1 ? (unsigned long long)rows + 1 : 0,
        [RL_OPS_PREFILL] = lone ? (unsigned long long)q->tokens << 32 | (unsigned long long)q->prefix
                                : 0,
        [RL_OPS_DECODE] = B < (1ll << 24) && S < (1ll << 32)
                              ? (unsigned long long)B << 32 | (unsigned long long)S : 0,
        [RL_OPS_TAIL] = rows >= 0 && rows < top - 1 ? (unsigned long long)rows + 1 : 0,
        [RL_OPS_SEQS] = seqs >= 0 && seqs < top - 1 ? (unsigned long long)seqs + 1 : 0};
    rl_ops_term_slot *slot[RL_OPS_SPANS];
    unsigned miss = 0;
    /* every slot's address first, its first line asked for at once: the
     * slots lie tens of MiB apart, a cache miss each (perf on the README's
     * size search at 200 req/s: the key compare below 8.8% of its CPU,
     * fixOD), and so they overlap; a prefetch changes no value */
    int empty[RL_OPS_SPANS];
    for (int sp = 0; sp < RL_OPS_SPANS; sp++) {
        empty[sp] = (sp == RL_OPS_PREFILL && oc->nparts == 0) || (sp == RL_OPS_DECODE && B == 0);
        slot[sp] = !(want & 1u << sp) || empty[sp] ? NULL : term_slot(c, sp, key[sp]);
        if (slot[sp])
            __builtin_prefetch(slot[sp]);
    }
    for (int sp = 0; sp < RL_OPS_SPANS; sp++) {
        if (!(want & 1u << sp))
            continue;
        t[sp] = empty[sp] ? &none
                : slot[sp] && slot[sp]->key == (key[sp] | c->terms_tag) ? &slot[sp]->t
                                                                      : &built[sp];
        miss |= t[sp] == &built[sp] ? 1u << sp : 0;
    }
    if (miss && rl_ops_terms_of(c->m, c->h, oc, miss, built) != 0)
        return -1;
    for (int sp = 0; sp < RL_OPS_SPANS; sp++)
        if (miss & 1u << sp && slot[sp]) {
            slot[sp]->key = key[sp] | c->terms_tag;
            slot[sp]->t = built[sp];
        }
    return 0;
}

/* The op-list time of step oc with `rows` token rows, from its spans'
 * terms (span_terms; ops.h rl_ops_terms_time: rl_ops_step_time's number). */
static double span_time(rl_ops_cost *c, const rl_ops_config *oc, long long rows)
{
    rl_ops_terms built[RL_OPS_SPANS];
    const rl_ops_terms *t[RL_OPS_SPANS];
    if (span_terms(c, oc, rows, (1u << RL_OPS_SPANS) - 1, t, built) != 0)
        return rl_ops_step_time(c->m, c->h, oc); /* a span past RL_OPS_TERMS ops, or invalid */
    return rl_ops_terms_time(c->h, oc, t);
}

/* The whole-model ops of step oc (`rows` token rows) that a pipeline's
 * first and last stages run alone (ops.h rl_ops_terms_ends: the embedding;
 * the final norm and LM head), from its HEAD, TAIL and SEQS terms, or its
 * op list where they cannot be built; 0 and 0 when neither can. */
static void step_ends(rl_ops_cost *c, const rl_ops_config *oc, long long rows, double *first,
                      double *last)
{
    /* a decode step's (rows = its sequences, B) kept per B (rl_ops_cost.ends) */
    double *kept = oc->nparts == 0 && rows == oc->decode_batch && rows >= 0 && rows <= c->cap
                       ? &c->ends[2 * rows]
                       : NULL;
    if (kept && !isnan(kept[0])) {
        *first = kept[0];
        *last = kept[1];
        return;
    }
    rl_ops_terms built[RL_OPS_SPANS];
    const rl_ops_terms *e[RL_OPS_SPANS];
    *first = *last = 0;
    if (span_terms(c, oc, rows, 1u << RL_OPS_HEAD | 1u << RL_OPS_TAIL | 1u << RL_OPS_SEQS, e,
                   built) == 0)
        rl_ops_terms_ends(e, first, last);
    else {
        rl_ops o;
        char err[256];
        if (rl_ops_build(c->m, c->h, oc, &o, err, sizeof err) == 0)
            rl_ops_stage_ends(&o, first, last);
    }
    if (kept) {
        kept[0] = *first;
        kept[1] = *last;
    }
}

/* A pipeline's pass of a step of `rows` token rows whose op list,
 * collectives and sends take t (first and last: its ends, step_ends): the
 * stages' own times, shard.h rl_shard_stage_pass at pp micro-batches (each
 * stream one of the pp in flight), plus the sends.  t with one stage. */
static double stage_time(const rl_ops_cost *c, double t, double first, double last,
                         long long rows)
{
    if (c->pp <= 1)
        return t;
    double s = pp_sends(c, rows);
    return rl_shard_stage_pass(c->m, c->pp, c->split, c->pp, t - s, first, last) + s;
}

/* The step's time with `rows` token rows: the op list's plus the TP
 * collectives, or h's fitted engine costs (e2e.h) given those collectives. */
static double step_time(rl_ops_cost *c, const rl_ops_part *parts, int n, long long B, long long S,
                        long long rows)
{
    rl_ops_config oc = step_config(c, parts, n, B, S);
    c->unmapped += !c->terms[0] || !c->dense_map; /* serve.h RL_OPS_MAP_AFTER */
    double first = 0, last = 0;
    if (c->pp > 1)
        step_ends(c, &oc, rows, &first, &last);
    if (c->fitted) { /* a pipeline: the fitted pass (its sends in it, as e2e.c's) times the
                        stages' pass over the op list's (serve.h) */
        double t = rl_e2e_mixed_time(c->m, c->h, &oc, tp_comm(c, rows), pp_sends(c, rows));
        if (c->pp <= 1)
            return t;
        double w = span_time(c, &oc, rows) + tp_comm(c, rows), s = pp_sends(c, rows);
        return t * (stage_time(c, w, first, last, rows) - s) / (w - s);
    }
    return stage_time(c, span_time(c, &oc, rows) + tp_comm(c, rows), first, last, rows);
}

/* The time of a step with at most one prompt (`part`, NULL: none) beside
 * B decoding sequences at context S, costed once per (T, P, B, S)
 * (serve.h). */
static double step_memo(rl_ops_cost *c, const rl_ops_part *part, long long B, long long S)
{
    long long T = part ? part->tokens : 0, P = part ? part->prefix : 0;
    if (!c->memo_key) {
        c->memo_key = calloc(RL_OPS_MEMO, sizeof *c->memo_key);
        c->memo_t = malloc(RL_OPS_MEMO * sizeof *c->memo_t);
    }
    int fits = T < (1ll << 32) && P < (1ll << 32) && B < (1ll << 31) && S < (1ll << 32);
    if (!c->memo_key || !c->memo_t || !fits) /* no memory for the memo: cost it */
        return step_time(c, part, part ? 1 : 0, B, S, T + B);
    unsigned long long k0 = (unsigned long long)T << 32 | (unsigned long long)P;
    unsigned long long k1 = (unsigned long long)B << 32 | (unsigned long long)S;
    size_t h = (size_t)(((k0 * 0x9E3779B97F4A7C15ull) ^ (k1 * 0xC2B2AE3D27D4EB4Full)) >> 40);
    size_t i = 0; /* the slot it goes to: the window's first empty one, else the next in turn */
    for (int j = 0; j < RL_OPS_MEMO_WAYS; j++) {
        i = (h + (size_t)j) & (RL_OPS_MEMO - 1);
        if (!c->memo_key[i][1])
            break; /* entries are only replaced, so none lies past an empty slot */
        if (c->memo_key[i][0] == k0 && c->memo_key[i][1] == k1)
            return c->memo_t[i];
        if (j == RL_OPS_MEMO_WAYS - 1)
            i = (h + (size_t)(c->memo_n % RL_OPS_MEMO_WAYS)) & (RL_OPS_MEMO - 1);
    }
    double t = step_time(c, part, part ? 1 : 0, B, S, T + B);
    c->memo_key[i][0] = k0;
    c->memo_key[i][1] = k1;
    c->memo_t[i] = t;
    c->memo_n++;
    return t;
}

/* n zeroed items of `size` bytes from the dense memo's mapping (c->dense_max
 * bytes, mapped when first used), counted in c->dense_bytes; NULL past
 * c->dense_max or without memory. */
static void *dense_alloc(rl_ops_cost *c, size_t n, size_t size)
{
    if (c->dense_bytes + n * size > c->dense_max)
        return NULL;
    if (!c->dense_map && !(c->dense_map = table_map(c->dense_max)))
        return NULL;
    void *p = c->dense_map + c->dense_bytes;
    c->dense_bytes += n * size;
    return p;
}

/* Decode-only step at batch B (1..cap), context S (1..smax) of a batch that
 * fails the linear check, costed once (serve.h dense); the hash memo when
 * the dense memo is at its bound (dense_max) or there is no memory. */
static double decode_memo(rl_ops_cost *c, long long B, long long S)
{
    if (!c->dense_map && c->unmapped < RL_OPS_MAP_AFTER)
        return step_time(c, NULL, 0, B, S, B); /* a cost's first steps: no memo yet */
    size_t blocks = (size_t)(c->smax / RL_OPS_DENSE) + 1;
    if (!c->dense)
        c->dense = dense_alloc(c, (size_t)c->cap + 1, sizeof *c->dense);
    if (c->dense && !c->dense[B])
        c->dense[B] = dense_alloc(c, blocks, sizeof *c->dense[B]);
    double **row = c->dense ? c->dense[B] : NULL;
    if (row && !row[S / RL_OPS_DENSE])
        row[S / RL_OPS_DENSE] = dense_alloc(c, RL_OPS_DENSE, sizeof **row);
    if (!row || !row[S / RL_OPS_DENSE])
        return step_memo(c, NULL, B, S);
    double *t = &row[S / RL_OPS_DENSE][S % RL_OPS_DENSE];
    if (*t == 0)
        *t = step_time(c, NULL, 0, B, S, B);
    return *t;
}

/* Batch B's linear fit in S of the decode step (serve.h t1, slope): kept
 * when the midpoint lies on the line within 1e-9, else slope -1. */
static void fit_decode(rl_ops_cost *c, long long B)
{
    rl_ops_config o1 = step_config(c, NULL, 0, B, 1), o2 = step_config(c, NULL, 0, B, c->smax);
    double t1 = rl_ops_step_time(c->m, c->h, &o1), t2 = rl_ops_step_time(c->m, c->h, &o2);
    double sm = (double)(1 + c->smax) / 2, slope = (t2 - t1) / (double)(c->smax - 1);
    rl_ops_config om = step_config(c, NULL, 0, B, (long long)sm);
    double mid = rl_ops_step_time(c->m, c->h, &om);
    c->t1[B] = t1;
    c->slope[B] = fabs(t1 + slope * (floor(sm) - 1) - mid) <= 1e-9 * mid ? slope : -1;
}

/* Decode-only step at batch B, context S: interpolated in S per batch
 * (serve.h); fitted engine costs, which no line in S is checked for, in
 * the dense memo (each (B, S) evaluated once: tester18 F14, a size search
 * on a fitted profile took 144 s). */
static double decode_step(rl_ops_cost *c, long long B, long long S)
{
    if (B > c->cap)
        return step_time(c, NULL, 0, B, S, B);
    if (c->fitted)
        return decode_memo(c, B, S);
    if (isnan(c->slope[B]))
        fit_decode(c, B);
    if (c->slope[B] < 0)
        return decode_memo(c, B, S);
    double first = 0, last = 0;
    if (c->pp > 1) {
        rl_ops_config oc = step_config(c, NULL, 0, B, S);
        step_ends(c, &oc, B, &first, &last);
    }
    return stage_time(c, c->t1[B] + c->slope[B] * (double)(S - 1) + tp_comm(c, B), first, last,
                      B);
}

/* llround(x) (halves away from zero) and ceil(x) without the library
 * calls for 0 <= x < 2^52, where x less its integer part is exact. */
static long long round_half_away(double x)
{
    if (!(x >= 0 && x < 0x1p52))
        return (long long)llround(x);
    long long i = (long long)x;
    return i + (x - (double)i >= 0.5);
}

static long long ceil_ll(double x)
{
    if (!(x >= 0 && x < 0x1p52))
        return (long long)ceil(x);
    long long i = (long long)x;
    return i + ((double)i < x);
}

/* The context c times a decode batch at: its longest, `longest`, when c's
 * engine times attention so (rl_ops_cost.attn_longest) and it is given
 * (> 0), else the mean (serve.h rl_step_work).  One rule for
 * rl_serve_ops_time and plan_run's decode rows, which must agree to the bit. */
static double attn_ctx(const rl_ops_cost *c, double mean, double longest)
{
    return c->attn_longest && longest > 0 ? longest : mean;
}

/* A decode run's step times (serve.c plan_run): the quiet steps of one run
 * share their batch, so what decode_step reads per batch (the fit, the
 * collectives, the dense memo's row) is read once and each step reads its
 * context's entry; the same double as rl_serve_ops_time for a step without
 * prompts, bit for bit (the same rounding, line or memo entry; a missing
 * entry is filled by decode_memo itself).  c NULL: the cost is not the op
 * list's, or the batch is not cached (fitted costs, past cap). */
typedef struct {
    rl_ops_cost *c;
    long long B;
    double t1, slope, comm; /* slope >= 0: the batch's line */
    double **row;           /* the dense memo's row of B, NULL: none yet */
    double first, last;     /* a pipeline's line: the step's ends (step_ends) */
} decode_row;

static void decode_row_init(decode_row *d, const rl_step_cost *cost, double batch)
{
    rl_ops_cost *c = cost->time == rl_serve_ops_time ? cost->ctx : NULL;
    long long B = batch > 0 ? ceil_ll(batch) : 0;
    if (!c || B <= 0 || B > c->cap || c->fitted)
        return;
    if (isnan(c->slope[B]))
        fit_decode(c, B);
    *d = (decode_row){c, B, c->t1[B], c->slope[B], 0, c->dense ? c->dense[B] : NULL, 0, 0};
    if (d->slope >= 0)
        d->comm = tp_comm(c, B);
    if (d->slope >= 0 && c->pp > 1) { /* the ends depend on B alone (ops.h rl_ops_span) */
        rl_ops_config oc = step_config(c, NULL, 0, B, 1);
        step_ends(c, &oc, B, &d->first, &d->last);
    }
}

static double decode_row_time(decode_row *d, double ctx)
{
    long long S = round_half_away(ctx);
    S = S < 1 ? 1 : S > d->c->smax ? d->c->smax : S;
    double t;
    if (d->slope >= 0) {
        t = d->t1 + d->slope * (double)(S - 1) + d->comm;
        if (d->c->pp > 1) /* stage_time's own test, here so that one stage makes no call */
            t = stage_time(d->c, t, d->first, d->last, d->B);
    } else {
        /* S >= 1 here: unsigned, the index is a shift and a mask */
        unsigned long long u = (unsigned long long)S;
        const double *block = d->row ? d->row[u / RL_OPS_DENSE] : NULL;
        t = block ? block[u % RL_OPS_DENSE] : 0;
        if (t == 0) {
            t = decode_memo(d->c, d->B, S);
            d->row = d->c->dense ? d->c->dense[d->B] : NULL;
        }
    }
    return t > 0 ? t : 1e-9; /* replica_step_time's floor */
}

double rl_serve_ops_time(void *ctx, const rl_step_work *w)
{
    rl_ops_cost *c = ctx;
    long long B = w->decode_batch > 0 ? ceil_ll(w->decode_batch) : 0;
    long long S = round_half_away(attn_ctx(c, w->decode_context, w->decode_longest));
    S = S < 1 ? 1 : S > c->smax ? c->smax : S;
    if (w->nprefill > c->nparts) {
        int n = w->nprefill > 2 * c->nparts ? w->nprefill : 2 * c->nparts;
        rl_ops_part *p = realloc(c->parts, (size_t)n * sizeof *p);
        if (!p)
            return INFINITY; /* out of memory: a step that never ends, never a wrong time */
        c->parts = p;
        c->nparts = n;
    }
    long long rows = 0;
    int n = 0;
    for (int i = 0; i < w->nprefill; i++) {
        rl_ops_part q = w->prefill[i];
        if (q.seqs <= 0 || q.tokens <= 0)
            continue;
        q.tokens = q.tokens > c->smax ? c->smax : q.tokens;
        q.prefix = q.prefix < 0 ? 0 : q.prefix + q.tokens > c->smax ? c->smax - q.tokens : q.prefix;
        rows += q.seqs * q.tokens;
        c->parts[n++] = q;
    }
    if (n == 0)
        return B > 0 ? decode_step(c, B, S) : 0;
    if (c->fitted && n == 1 && c->parts[0].seqs == 1)
        return step_memo(c, c->parts, B, S);
    return step_time(c, c->parts, n, B, S, rows + B);
}

rl_step_cost rl_serve_ops_cost(rl_ops_cost *c)
{
    return (rl_step_cost){rl_serve_ops_time, c, c->dispatch_s, c->attn_longest};
}

double rl_serve_ops_time1(rl_ops_cost *c, double tokens, double prefix, double batch,
                          double context)
{
    rl_ops_part p = {1, (long long)llround(tokens), (long long)llround(prefix)};
    rl_step_work w = {&p, tokens > 0 ? 1 : 0, batch, context, 0};
    return rl_serve_ops_time(c, &w);
}

/* ---- simulator -------------------------------------------------------- */

static const char *POLICY_NAMES[RL_POLICY_COUNT] = {"static", "interleaved", "continuous", "chunked",
                                                    "disagg"};

int rl_policy_parse(const char *s, rl_policy *out)
{
    for (int i = 0; i < RL_POLICY_COUNT; i++)
        if (strcmp(s, POLICY_NAMES[i]) == 0) {
            *out = (rl_policy)i;
            return 0;
        }
    return -1;
}

const char *rl_policy_name(rl_policy p) { return p < RL_POLICY_COUNT ? POLICY_NAMES[p] : "?"; }

double rl_spec_tokens_per_step(double alpha, int gamma)
{
    if (gamma <= 0)
        return 1;
    return (1 - pow(alpha, gamma + 1)) / (1 - alpha);
}

rl_serve_config rl_serve_config_default(void)
{
    rl_serve_config c;
    memset(&c, 0, sizeof c);
    c.policy = RL_POLICY_CONTINUOUS;
    c.replicas = 1;
    c.prefill_replicas = 1;
    c.route = RL_ROUTE_LEAST_OUTSTANDING;
    c.max_seqs = 256;
    c.max_tokens = 8192;
    c.page_tokens = 16;
    c.preempt = RL_PREEMPT_RECOMPUTE;
    c.kv_samples = 200;
    c.pp = c.ep = 1;
    return c;
}

void rl_serve_config_prefix_cache(rl_serve_config *c, double hbm_gb, double host_gb)
{
    /* each chip holding a token's KV keeps its own copy of a cached
     * prefix (replicate beyond K: every rank its heads' pages, as the KV
     * pool, rl_serve_kv_capacity; review finding: one copy was charged) */
    double per_token = c->kv_bytes_per_token * (c->kv_copies > 1 ? c->kv_copies : 1);
    c->prefix_hbm_tokens = hbm_gb * 1e9 / per_token;
    c->prefix_host_tokens = host_gb * 1e9 / per_token;
}

int rl_serve_prefix_cache_unused(rl_serve_config *c, const rl_request *req, long long n)
{
    if (!(c->prefix_hbm_tokens > 0 || c->prefix_host_tokens > 0))
        return 0;
    for (long long i = 0; i < n; i++)
        if (req[i].prefix_id >= 0 && req[i].prefix_len > 0)
            return 0;
    c->prefix_hbm_tokens = c->prefix_host_tokens = 0;
    return 1;
}

void rl_serve_config_hw(rl_serve_config *c, const rl_model *m, const rl_hw *h, long long chips,
                        rl_precision p, double reserve)
{
    c->kv_bytes_per_token = rl_arch_kv_bytes_per_token(m, p.kv);
    c->kv_model = m;
    c->kv_dtype = p.kv;
    c->kv_capacity_tokens =
        rl_serve_kv_capacity(m, h, chips, c->pp, c->ep, p, reserve, c->layout, c->kv_len,
                             (double)c->max_tokens);
    c->kv_copies = rl_serve_kv_copies(m, chips / (c->pp > 1 ? c->pp : 1), c->ep, c->layout);
    c->host_bw = (double)chips * h->host_bw;
    c->net_bw = (double)chips * h->net_bw;
    c->net_latency = h->net_latency;
    c->host_bytes = (double)chips * h->host_bytes;
    c->hw_origin = h->origin;
}

double rl_serve_kv_tokens(const rl_model *m, rl_dtype kv, double len)
{
    if (m->abstract || rl_arch_local_layers(m) == 0)
        return len;
    return rl_arch_kv_bytes_per_sequence(m, kv, len, RL_KV_IDEAL) / rl_arch_kv_bytes_per_token(m, kv);
}

double rl_serve_workload_len(const rl_workload *w, const rl_request *req, long long n)
{
    if (w->prompt.kind != RL_DIST_TRACE && w->output.kind != RL_DIST_TRACE)
        return rl_dist_mean(&w->prompt) + rl_dist_mean(&w->output);
    double sum = 0;
    for (long long i = 0; i < n; i++)
        sum += (double)req[i].prompt + req[i].output;
    return n > 0 ? sum / (double)n : 0;
}

double rl_serve_kv_share(const rl_serve_config *c, const rl_request *req, long long n)
{
    const rl_model *m = c->kv_model;
    if (!m || m->abstract || rl_arch_local_layers(m) == 0)
        return 1;
    double full = 0, held = 0;
    for (long long i = 0; i < n; i++) {
        double len = (double)req[i].prompt + req[i].output;
        full += len;
        held += rl_serve_kv_tokens(m, c->kv_dtype, len);
    }
    return full > 0 ? held / full : 1;
}

/* Whether a replica's weights need its shard plan (rl_serve_weight_bytes). */
static int replica_planned(const rl_model *m, long long chips, long long pp, long long ep,
                           rl_attn_layout l)
{
    /* a TP over more than K chips stores K/V projections replicated, a TP
     * over MLA its down-projections (shard.c) */
    int kv_rep = !m->abstract && m->attention != RL_ATTN_MLA && chips / pp > m->kv_heads;
    kv_rep = kv_rep || (chips / pp > 1 && rl_arch_tp_replicated_params(m) > 0);
    /* else the heaviest stage's (shard.h rl_shard_stage_weights) */
    return l == RL_ATTN_LAYOUT_DP || ep != 1 || m->experts != 0 || kv_rep ||
           (pp != 1 && !m->abstract);
}

/* The plan of a replica as it stores its weights: the plan's stored weights
 * on each chip: attention, dense and vocab once per group (fixY); the MoE
 * router whole, the kept classes in rl_dtype_kept's dtype (shard.c); a
 * pipeline's stages (r->stage_w).  0, or -1. */
static int replica_eval(const rl_model *m, const rl_hw *h, long long chips, long long pp,
                        long long ep, rl_precision p, rl_attn_layout l, rl_shard_result *r)
{
    char err[256];
    rl_shard_plan plan = rl_serve_replica_plan(chips / pp, ep, l);
    plan.pp = pp;
    return rl_shard_eval(m, h, &plan, RL_PHASE_GENERATE, chips, 1, 1, p, r, err, sizeof err);
}

double rl_serve_weight_bytes(const rl_model *m, const rl_hw *h, long long chips, long long pp,
                             long long ep, rl_precision p, rl_attn_layout l)
{
    pp = pp < 1 ? 1 : pp;
    ep = ep < 1 ? 1 : ep;
    if (!replica_planned(m, chips, pp, ep, l))
        return rl_memory_use(m, h, chips, 0, 1, p.weights, p.kv).weight_bytes;
    rl_shard_result r;
    if (replica_eval(m, h, chips, pp, ep, p, l, &r) != 0)
        return -1;
    return r.weight_bytes * (double)chips;
}

/* Whether a replica's pipeline stages each get their own room
 * (rl_serve_hbm_budget). */
static int stage_rooms(const rl_model *m, long long pp)
{
    return pp > 1 && !m->abstract && m->layers >= pp;
}

/* The bytes, all chips, one token of the pool takes (rl_serve_hbm_budget's
 * tokens = kv_bytes over it): a token's KV times the layout's copies, and
 * without a stage's own room the busiest stage's share. */
static double pool_token_bytes(const rl_model *m, long long chips, long long pp, long long ep,
                               rl_precision p, rl_attn_layout l)
{
    pp = pp < 1 ? 1 : pp;
    ep = ep < 1 ? 1 : ep;
    double per_token = rl_arch_kv_bytes_per_token(m, p.kv) * rl_serve_kv_copies(m, chips / pp, ep, l);
    return stage_rooms(m, pp) ? per_token : per_token * rl_shard_stage_scale(m, pp);
}

rl_serve_hbm rl_serve_hbm_budget(const rl_model *m, const rl_hw *h, long long chips, long long pp,
                                 long long ep, rl_precision p, double reserve, rl_attn_layout l,
                                 double len, double budget)
{
    char err[256];
    rl_serve_hbm b;
    memset(&b, 0, sizeof b);
    pp = pp < 1 ? 1 : pp;
    ep = ep < 1 ? 1 : ep;
    long long stage = chips / pp; /* the chips of one pipeline stage */
    double n = (double)chips;
    if (rl_serve_layout_check(m, chips, pp, ep, l, err, sizeof err) != 0)
        return b;
    rl_memory mem = rl_memory_use(m, h, chips, 0, 1, p.weights, p.kv);
    /* an engine's memory rule keeps its own reserve (memory.h) */
    double keep = mem.engine_memory ? 1.0 : 1 - reserve;
    double per_token = pool_token_bytes(m, chips, pp, ep, p, l);
    if (stage_rooms(m, pp)) {
        /* each stage in its own room: the binding stage's (shard.h
         * rl_shard_stage_room, the rule step's max_batch reads) */
        rl_shard_result r;
        if (replica_eval(m, h, chips, pp, ep, p, l, &r) != 0)
            return b;
        int split = rl_shard_split_of(h);
        b.kv_bytes =
            rl_shard_stage_room(m, h, chips, pp, split, r.stage_w, len, keep, budget, &b.stage) *
            n;
        b.chip_weight_bytes = rl_shard_stage_weight_of(m, pp, split, r.stage_w, b.stage);
        b.weight_bytes = b.chip_weight_bytes * n;
        /* every stage's weights once over a stage's chips (the sum is
         * rl_shard_stage_weight_of's at one stage) */
        b.total_weight_bytes = rl_shard_stage_weight_of(m, 1, split, r.stage_w, 0) * (double)stage;
        b.usable_bytes = rl_memory_usable_group(h, m, chips, stage, b.weight_bytes, budget) * keep;
        b.tokens = b.kv_bytes / per_token;
        return b;
    }
    b.weight_bytes = rl_serve_weight_bytes(m, h, chips, pp, ep, p, l);
    if (b.weight_bytes < 0)
        return b;
    b.chip_weight_bytes = b.weight_bytes / n;
    b.total_weight_bytes = b.weight_bytes;
    b.usable_bytes = mem.engine_memory
                         ? rl_memory_usable_group(h, m, chips, stage, b.weight_bytes, budget)
                         : mem.capacity_bytes * keep;
    b.kv_bytes = b.usable_bytes - b.weight_bytes;
    b.tokens = b.kv_bytes / per_token;
    return b;
}

double rl_serve_kv_capacity(const rl_model *m, const rl_hw *h, long long chips, long long pp,
                            long long ep, rl_precision p, double reserve, rl_attn_layout l,
                            double len, double budget)
{
    return rl_serve_hbm_budget(m, h, chips, pp, ep, p, reserve, l, len, budget).tokens;
}

void rl_serve_config_draft(rl_serve_config *c, const rl_model *draft, const rl_hw *h,
                           long long chips, rl_precision p)
{
    const rl_model *m = c->kv_model; /* the target (rl_serve_config_hw) */
    double kd = rl_arch_kv_bytes_per_token(draft, p.kv);
    /* the bytes, all chips, a pool token takes of each model and the
     * draft's weights, by the budget that sized the target's pool
     * (rl_serve_hbm_budget: the layout's KV copies, a pipeline's binding
     * stage); before fixY the draft's weights came out of the pool's
     * tokens x one copy's bytes, so under a replicating layout (MLA under
     * TP: 8 copies at tp8) they came out of an eighth of the room.  The
     * reserve is no matter here: the weights and a token's bytes are the
     * same at any. */
    rl_serve_hbm bd = rl_serve_hbm_budget(draft, h, chips, c->pp, c->ep, p, 0, c->layout,
                                          c->kv_len, (double)c->max_tokens);
    double et = m ? pool_token_bytes(m, chips, c->pp, c->ep, p, c->layout) : c->kv_bytes_per_token;
    double ed = bd.tokens > 0 ? pool_token_bytes(draft, chips, c->pp, c->ep, p, c->layout) : kd;
    double wd = bd.weight_bytes > 0 ? bd.weight_bytes
                                    : rl_memory_use(draft, h, chips, 0, 1, p.weights, p.kv)
                                          .weight_bytes; /* a layout the draft cannot take */
    /* capacity x et = the room the target's weights leave; now less the
     * draft's weights, over both models' bytes a token */
    c->kv_capacity_tokens = (c->kv_capacity_tokens * et - wd) / (et + ed);
    c->draft_weight_bytes = wd;
    c->kv_bytes_per_token += kd;
    c->kv_model = NULL; /* two models' KV a token: charged at full size */
}

enum { S_WAIT, S_PREFILL, S_DECODE, S_SWAPPED, S_XFER, S_DONE };

typedef struct {
    long long kfin, k0; /* finishing decode step; decode step at join */
    double c0;          /* context (tokens) at join */
    int need;           /* KV tokens prefill must build (prompt, + generated after a recompute) */
    int prefilled;      /* of those, built or taken from the prefix cache */
    int gen0;           /* output tokens generated at join */
    int hpos;           /* index in the replica's finish heap */
    int prev, next;     /* decoding list in admission order */
    int qnext;          /* wait/swap queue link */
    int state;
    int itl_pending;    /* joined decode since its replica's last decode step */
    int behind;         /* bit 0: requests waited behind it at its replica when its first
                           prefill began, bit 1 (disagg): when it joined a decode batch;
                           that admission pass was full (backlog_outpaced); beside
                           itl_pending, in what was padding: no byte more a request */
    double t_first;     /* first token (end of its prefill) */
    double t_start;     /* its first prefill step began (TTFT less queueing) */
    double t_last;      /* its last token before it joined decode (ITL) */
} seq;

typedef struct {
    int head, tail;
} fifo;

/* A step end in a decode run that changes nothing outside its replica
 * (run_room): its time, and the next step's time and mean context. */
typedef struct {
    double end, next_t, next_ctx;
} run_step;

/* Quiet step ends a decode run holds before its pending event: each costs
 * its bookkeeping at commit, and an arrival throws away those after it
 * (replica.run_cap adapts the bound to how often that happens). */
#define RUN_MAX 64

typedef struct {
    fifo wait, swapped;
    int ahead, atail, nactive, npartial;
    int *heap, nheap; /* sequence ids by kfin, capacity seq_cap (seq_room) */
    long long *hkey;  /* hkey[i]: heap[i]'s kfin, beside it (fh_set) */
    int seq_cap;      /* entries of heap, hkey, pf and pf_tok, part's + 1: grown on demand up to
                         max_seqs + 1 (seq_room; tester72 #1: max_seqs of each at set-up,
                         12.7 KB a replica, was a fifth of a 10,000-replica search) */
    int run_alloc;    /* entries of run: run_cap's largest so far (commit_run) */
    long long kfin_top; /* kfin of heap[0] (LLONG_MAX when empty): checked every step */
    long long k;      /* decode steps done */
    double A;         /* sum over decoding sequences of c0 - k0 E */
    double lbase;     /* S->longest: the most over decoding sequences of c0 - k0 E (0: none);
                         the longest context after k steps is lbase + E k (longest_ctx) */
    double pf_held;   /* KV tokens of sequences still in prefill */
    double xfer_held; /* disagg prefill replica: KV tokens of prefilled requests held
                         until they reach the decode pool (hold_and_send, release_hold) */
    int busy, is_prefill, static_b;
    run_step *run;    /* decode run: the quiet step ends before its pending one (plan_run) */
    int nrun;
    int run_cap;      /* quiet ends planned at most (1..RUN_MAX): halved by a cut, doubled
                         by a run that reached it, so a busy router wastes few (cut_run) */
    double run_b;     /* the run's decode batch */
    int held;         /* bits of its last step's admission: a request left waiting at
                         max_seqs (1), at max_tokens filled by decode tokens (2; sim
                         held); both can be set (3) */
    int to_start; /* idle, queued to start after this instant's arrivals */
    long long outstanding;
    int *pf, *pf_tok, npf; /* this step's prefills: sequence, tokens */
    int *joined, njoined, joined_cap; /* sequences with itl_pending */
    int step_active;  /* sequences decoding in this step */
    double last_dec;  /* end of the previous decode step (every older sequence's last token) */
    rl_ops_part *part;     /* their shapes for the step cost (npf, + 1 for verify) */
    int decoding;
    /* prefix cache: per prefix id, its tier (0 none, 1 HBM, 2 host) and LRU links */
    int *lp, *ln;
    char *tier;
    int lhead[3], ltail[3];
    double lused[3];
} replica;

typedef struct {
    unsigned long long tk;  /* the time t as an integer in t's order (ev_tkey; ev_time) */
    unsigned long long key; /* kind << 32 | id (ev_make): kind 0 a replica's step end, 1 a KV
                               transfer's arrival; id the replica or the sequence (>= 0) */
} event;

/* Time t as an unsigned integer that orders as t does: a double's bits
 * with the sign bit flipped for t >= 0, all bits flipped for t < 0 (the
 * bits of a non-negative double order as its value; a negative one's
 * reversed), -0 taken as +0 (t + 0.0), so that two times compare equal
 * exactly when they do as doubles.  ev_before then compares integers,
 * not doubles (ucomisd, its parity and a cmov per key: ev_down was 8.6%
 * of the README's size search at 200 req/s, simFast).  A NAN takes 0,
 * before every time, and so is the root at once, where run_events refuses
 * it (RL_SERVE_BAD_TIME); as a double it compared neither before nor after
 * any time, and sat wherever the heap put it, but none arises: every event
 * is a time plus a step's or a transfer's positive, NAN-free duration. */
static inline unsigned long long ev_tkey(double t)
{
    if (isnan(t))
        return 0;
    t += 0.0;
    unsigned long long b;
    memcpy(&b, &t, sizeof b);
    return b >> 63 ? ~b : b | 1ull << 63;
}

/* The time of event e (ev_tkey's inverse; NAN for 0). */
static inline double ev_time(event e)
{
    if (e.tk == 0)
        return NAN;
    unsigned long long b = e.tk >> 63 ? e.tk & ~(1ull << 63) : ~e.tk;
    double t;
    memcpy(&t, &b, sizeof t);
    return t;
}

static inline event ev_make(double t, int kind, int id)
{
    return (event){ev_tkey(t), (unsigned long long)kind << 32 | (unsigned)id};
}

static inline int ev_kind(event e) { return (int)(e.key >> 32); }

static inline int ev_id(event e) { return (int)(e.key & 0xffffffffu); }

/* The step statistics (count_step): steps, decode steps and the sums of
 * their batch, context, time and batch x time; decode steps without
 * prefill or swap-in (ponly) and their time; all steps' time. */
typedef struct {
    long long steps, dsteps;
    double sum_b, sum_ctx, sum_dstep, sum_bt, ponly, sum_ponly, busy_s;
    long long pf_steps, pf_parts; /* steps that prefill, their prompts or chunks (start_step) */
    long long dsteps_cap; /* decode steps whose admission held a request back at max_seqs */
    long long dsteps_tok; /* ... whose decode tokens alone filled max_tokens, a request waiting */
} step_sums;

typedef struct {
    const rl_request *req;
    long long n;
    const rl_serve_config *c;
    const rl_step_cost *pcost, *dcost;
    seq *s;
    replica *r;
    int nr, nprefill; /* replicas; the first nprefill are the prefill pool (disagg) */
    int *start;       /* replicas to start after simultaneous arrivals (nr) */
    int *rh[2], nused[2]; /* per pool (1: disagg's decode pool): replicas that got a
                             request, always the pool's first ones (route), and
                             their heap by (outstanding, id) */
    long long *rk[2];     /* per pool: the outstanding count of each rh slot's replica */
    unsigned long long *rb[2]; /* per pool of at most RB_MAX replicas, else NULL (the heap
                                  rh then): its used replicas by outstanding count, one
                                  bitmap of rw words per count (rb_move) */
    int rw[2];                 /* words per count of rb */
    long long rbn[2], rmin[2]; /* counts rb holds; the least count of a used replica */
    int *rpos;            /* per replica: its index in its pool's routing heap (route) */
    long long *evpos;     /* per replica: the heap index of its pending step end (busy);
                             this and rpos beside the heaps, not in the replicas: each sift
                             writes one per level, and a replica is several cache lines */
    event *ev;
    long long nev;
    int ev_hole; /* ev[0] was popped and not yet refilled (ev_pop, ev_push) */
    double E, cap_pages, kv_tok, *plen;
    int nprefix, rr[2];
    double extra_s; /* host-link time of the step being composed */
    double dispatch; /* prefill dispatch on each request's TTFT and e2e (rl_step_cost.dispatch_s
                        of the replicas that prefill) */
    int longest;     /* a step cost reads decode_longest (rl_step_cost.longest): replicas
                        keep lbase */
    /* statistics */
    step_sums sums; /* every step's (count_step) */
    double area, tlast, nsys, freed, hits, lookups;
    double t_sys; /* when nsys last changed: area grows only there (sys_add) */
    double saved, done_tokens, kv_peak; /* kv_peak: the most pages of a decode replica */
    double kv_peak_pf; /* disagg: the most pages of a prefill replica (start_step) */
    double pf_busy;    /* disagg: the prefill replicas' step time (start_step) */
    double inv_page;  /* 1 / page_tokens where that is exact (a power of 2), else 0 */
    double w0, w1, win_done, win_tokens, win_good; /* steady-state window (rl_serve_result) */
    long long warm;                      /* completions before the window opens */
    long long preempt, completed;
    /* the completion times in the order the requests completed (done: the
     * i-th completion's, arrival + e2e - dispatch; system_grew sorts them).
     * Read off a list linked through seq.qnext before, a cache miss per
     * request on S->s, S->req and S->e2e: 2.4% of the README's size search
     * at 200 req/s (simFast).  The array is n doubles; system_grew then
     * needs n more instead of 2n, so a run's most memory is the same. */
    double *fin_t;
    long long over_budget; /* prompts over max_tokens prefilled whole (rl_serve_result) */
    double *ttft, *tpot, *e2e, *ttft_svc;
    double *itl_w, itl_sum, itl_n, itl_max; /* ITL histogram (ITL_BINS), total, count, max */
    int oom;          /* a joiner list could not grow */
    double next_sample, dt_sample;
    int nkv, kvcap;
    double *kv_t, *kv_f;
    unsigned long long max_events; /* the event budget (serve.h RL_SERVE_STALLED) */
    double bad_t; /* the event time run_events refused (RL_SERVE_BAD_TIME) */
    long long ttft_over, tpot_over; /* requests over the p99 targets so far */
    long long ttft_room, tpot_room; /* the most over a target its p99 allows (serve.h) */
    long long seqs_peak;  /* the most sequences a max_seqs check saw (seqs_below) */
    int held;             /* this admission held a request back: 1 at max_seqs,
                             2 with the decode tokens filling max_tokens */
    unsigned long long quiet; /* step ends committed from decode runs (events not popped) */
    unsigned long long events; /* arrival instants and events handled */
    /* the decode pool's queue (disagg), for keep-up (steady_window): per
     * request, when its KV reached a decode replica and when it first joined
     * that replica's batch (NAN before); the requests in the order their KV
     * arrived */
    double *t_ready, *t_join;
    int *xfer_order;
    long long nxfer;
    /* disagg's KV link (send_kv): per prefill replica, when its link is next
     * free and the request last queued on it (-1: none); per request, when
     * its transfer began (it was queued at its t_first: a request leaves the
     * prefill pool once); the requests in the order they were queued; each
     * link's bytes/s and all links' busy seconds */
    double *link_free, *t_sent, link_bw, link_busy;
    int *link_last, *link_order, *link_from; /* link_from: per request, its sender */
    long long nlink;
} sim;

/* Min-heap of events by time; at one instant, step ends before KV
 * transfers, then by replica or sequence id: a total order, so events at
 * the same instant never take their order from the heap's history (decode
 * runs, plan_run, push fewer events than steps).  A replica's pending step
 * end keeps its heap index in S->evpos (cut_run moves it earlier). */
static int ev_before(const event *a, const event *b)
{
    /* one expression, not a branch per key, so that ev_down picks the lesser
     * child without a jump the times mispredict (ev_down: 9% of the README's
     * size search at 200 req/s); the times as integers (ev_tkey) */
#ifdef __SIZEOF_INT128__ /* one 128-bit compare: cmp and sbb, an adc picks the child */
    __extension__ typedef unsigned __int128 u128;
    return ((u128)a->tk << 64 | a->key) < ((u128)b->tk << 64 | b->key); /* key: (kind, id) */
#else
    return (a->tk < b->tk) | ((a->tk == b->tk) & (a->key < b->key));
#endif
}

static void ev_place(sim *S, long long i, event e)
{
    S->ev[i] = e;
    if (ev_kind(e) == 0)
        S->evpos[ev_id(e)] = i;
}

/* Event e into slot i or above it, by ev_before. */
static void ev_up(sim *S, long long i, event e)
{
    while (i > 0) {
        long long p = (i - 1) / 2;
        if (!ev_before(&e, &S->ev[p]))
            break;
        ev_place(S, i, S->ev[p]);
        i = p;
    }
    ev_place(S, i, e);
}

/* Event e into slot i or below it, by ev_before (the heap's nev slots). */
static void ev_down(sim *S, long long i, event e)
{
    long long n = S->nev;
    for (;;) {
        long long c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n)
            c += ev_before(&S->ev[c + 1], &S->ev[c]);
        if (!ev_before(&S->ev[c], &e))
            break;
        ev_place(S, i, S->ev[c]);
        i = c;
    }
    ev_place(S, i, e);
}

/* Close the hole a pop left at the root (ev_pop): the last event sifted
 * down from there.  Every heap access but ev_push's refill comes after it. */
static void ev_settle(sim *S)
{
    if (!S->ev_hole)
        return;
    S->ev_hole = 0;
    event last = S->ev[--S->nev];
    if (S->nev > 0)
        ev_down(S, 0, last);
}

/* A new event; after a pop it takes the root's place and sifts down (one
 * pass instead of a pop's and a push's: a step end is mostly followed by
 * the replica's next).  The heap's keys are unique (ev_before's total
 * order), so the events come out in the same order whatever the heap's
 * shape. */
static void ev_push(sim *S, event e)
{
    if (S->ev_hole) {
        S->ev_hole = 0;
        ev_down(S, 0, e);
        return;
    }
    ev_up(S, S->nev++, e);
}

/* The earliest event, leaving its slot open for the next ev_push. */
static event ev_pop(sim *S)
{
    ev_settle(S);
    S->ev_hole = 1;
    return S->ev[0];
}

/* Finish heap of a replica: sequence ids by kfin, positions kept in
 * seq.hpos.  Each slot keeps its sequence's kfin beside its id (r->hkey),
 * so a sift compares within the heap's own arrays: reading kfin through
 * S->s was a cache miss per compare, sequence ids being scattered (perf on
 * the README's size search at 200 req/s: fh_down's compares 3.4% of its
 * CPU, fixOD).  The same compares in the same order as through S->s, so
 * the same heap and the same finishing order. */
static void fh_set(sim *S, replica *r, int i, int id, long long kfin)
{
    r->heap[i] = id;
    r->hkey[i] = kfin;
    S->s[id].hpos = i;
}

static void fh_up(sim *S, replica *r, int i)
{
    int id = r->heap[i];
    long long k = r->hkey[i];
    while (i > 0) {
        int p = (i - 1) / 2;
        if (r->hkey[p] <= k)
            break;
        fh_set(S, r, i, r->heap[p], r->hkey[p]);
        i = p;
    }
    fh_set(S, r, i, id, k);
}

static void fh_down(sim *S, replica *r, int i)
{
    int id = r->heap[i];
    long long k = r->hkey[i];
    for (;;) {
        int c = 2 * i + 1;
        if (c >= r->nheap)
            break;
        c += c + 1 < r->nheap && r->hkey[c + 1] < r->hkey[c]; /* no jump to mispredict */
        if (k <= r->hkey[c])
            break;
        fh_set(S, r, i, r->heap[c], r->hkey[c]);
        i = c;
    }
    fh_set(S, r, i, id, k);
}

static void fh_remove(sim *S, replica *r, int id)
{
    int i = S->s[id].hpos, last = r->heap[--r->nheap];
    if (i < r->nheap) {
        fh_set(S, r, i, last, r->hkey[r->nheap]);
        fh_up(S, r, i);
        fh_down(S, r, S->s[last].hpos);
    }
}

static void q_push(sim *S, fifo *q, int id, int front)
{
    S->s[id].qnext = -1;
    if (q->head < 0) {
        q->head = q->tail = id;
    } else if (front) {
        S->s[id].qnext = q->head;
        q->head = id;
    } else {
        S->s[q->tail].qnext = id;
        q->tail = id;
    }
}

static int q_pop(sim *S, fifo *q)
{
    int id = q->head;
    q->head = S->s[id].qnext;
    if (q->head < 0)
        q->tail = -1;
    return id;
}

/* KV tokens replica r holds outside its decode batch: the prompts it is
 * prefilling (their chunks so far) and, on a disaggregated prefill replica,
 * the prefilled requests' KV held until it has reached the decode pool
 * (hold_and_send, release_hold).  The one reader of both: every room check
 * (take_prefill's among them) and peak goes through kv_pages_at.  Both are
 * whole token counts, so their sum is exact. */
static double kv_held(const replica *r)
{
    return r->pf_held + r->xfer_held;
}

/* KV pages a replica holds with `extra` more tokens in `extra_seqs` more
 * sequences.  A paged KV cache gives each sequence ceil(tokens / page)
 * whole blocks, one more as it fills the last (vLLM PagedAttention, Kwon
 * et al., SOSP 2023, sec. 4.2).  The replica tracks its sequences' tokens
 * in sum, not one by one, so: while its mean sequence spans fewer than
 * KV_WHOLE_PAGES pages, each sequence holds the mean's whole pages,
 * ceil(mean / page) (exact for sequences of one length; tester50 F3: at
 * --page 50000 a 1200-token sequence was charged 26k tokens, and 17 ran on
 * a pool of 9.6 pages); longer, tokens / page plus half a page of
 * fragmentation per sequence (the expected waste of the last, partly
 * filled page, once lengths spread over many pages).  Non-decreasing in k
 * either way, and across the switch (KV_WHOLE_PAGES below it, + 1/2 at it). */
#define KV_WHOLE_PAGES 2
static double kv_pages_at(const sim *S, const replica *r, long long k, double extra,
                          int extra_seqs)
{
    double tokens = r->A + r->nactive * S->E * (double)k + kv_held(r) + extra;
    double pg = S->c->page_tokens, seqs = r->nactive + r->npartial + extra_seqs;
    if (seqs > 0 && tokens < KV_WHOLE_PAGES * pg * seqs) /* 1e-9: a mean of whole pages */
        return seqs * ceil(tokens / seqs / pg - 1e-9);
    double sum = tokens + seqs * (pg - 1) / 2;
    return S->inv_page > 0 ? sum * S->inv_page : sum / pg; /* the same number either way */
}

/* The same after the replica's k decode steps done (r->k). */
static double kv_pages(const sim *S, const replica *r, double extra, int extra_seqs)
{
    return kv_pages_at(S, r, r->k, extra, extra_seqs);
}

static int kv_fits(const sim *S, const replica *r, double extra, int extra_seqs)
{
    return kv_pages(S, r, extra, extra_seqs) <= S->cap_pages;
}

/* ---- prefix cache: LRU lists per tier, head = most recent ---- */

static void lru_unlink(replica *r, int id)
{
    int t = r->tier[id];
    if (r->lp[id] >= 0)
        r->ln[r->lp[id]] = r->ln[id];
    else
        r->lhead[t] = r->ln[id];
    if (r->ln[id] >= 0)
        r->lp[r->ln[id]] = r->lp[id];
    else
        r->ltail[t] = r->lp[id];
    r->tier[id] = 0;
}

static void lru_front(replica *r, int id, int t)
{
    r->tier[id] = (char)t;
    r->lp[id] = -1;
    r->ln[id] = r->lhead[t];
    if (r->lhead[t] >= 0)
        r->lp[r->lhead[t]] = id;
    else
        r->ltail[t] = id;
    r->lhead[t] = id;
}

/* Insert prefix `id` into tier t (1 HBM, 2 host), demoting LRU entries:
 * HBM -> host -> dropped. */
static void lru_insert(sim *S, replica *r, int id, int t)
{
    double cap = t == 1 ? S->c->prefix_hbm_tokens : S->c->prefix_host_tokens;
    if (t > 2 || S->plen[id] > cap)
        return;
    while (r->lused[t] + S->plen[id] > cap) {
        int v = r->ltail[t];
        r->lused[t] -= S->plen[v];
        lru_unlink(r, v);
        lru_insert(S, r, v, t + 1);
    }
    r->lused[t] += S->plen[id];
    lru_front(r, id, t);
}

/* Tokens of request i's prompt found in the prefix cache; a host-tier hit
 * adds its copy to HBM over the host link to the step. */
static int prefix_lookup(sim *S, replica *r, int i)
{
    int id = S->req[i].prefix_id;
    if (!r->tier || id < 0)
        return 0;
    S->lookups++;
    int t = r->tier[id];
    if (t) {
        r->lused[t] -= S->plen[id];
        lru_unlink(r, id);
    }
    lru_insert(S, r, id, 1);
    if (!t)
        return 0;
    S->hits++;
    if (t == 2)
        S->extra_s += S->plen[id] * S->kv_tok / S->c->host_bw;
    return S->req[i].prefix_len;
}

/* ---- inter-token latency: a log-binned histogram of every gap ---- */

/* Log-linear bins (as HdrHistogram): the top ITL_SUB_BITS bits of a gap's
 * mantissa and its exponent index the bin, so each octave from 2^ITL_EXP_MIN
 * s (~1e-7 s) to 2^(ITL_EXP_MIN + ITL_OCTAVES) s (~2e5 s) has 2^ITL_SUB_BITS
 * bins, each under 0.4% wide; a percentile is its bin's centre (within
 * 0.2%), mean and max are exact. */
#define ITL_SUB_BITS 8
#define ITL_EXP_MIN (-23)
#define ITL_OCTAVES 41
#define ITL_BINS (ITL_OCTAVES << ITL_SUB_BITS)

static inline int itl_bin(double gap)
{
    if (!(gap >= ldexp(1, ITL_EXP_MIN)))
        return 0;
    uint64_t bits;
    memcpy(&bits, &gap, sizeof bits);
    long long b = (long long)(bits >> (52 - ITL_SUB_BITS)) -
                  ((long long)(1023 + ITL_EXP_MIN) << ITL_SUB_BITS);
    return b < ITL_BINS ? (int)b : ITL_BINS - 1;
}

static double itl_centre(int b)
{
    uint64_t lo = ((uint64_t)b + ((uint64_t)(1023 + ITL_EXP_MIN) << ITL_SUB_BITS))
                  << (52 - ITL_SUB_BITS);
    uint64_t mid = lo + (1ull << (51 - ITL_SUB_BITS));
    double v;
    memcpy(&v, &mid, sizeof v);
    return v;
}

static inline void itl_add(sim *S, double gap, double count)
{
    if (count <= 0)
        return;
    S->itl_w[itl_bin(gap)] += count;
    S->itl_sum += gap * count;
    S->itl_n += count;
    S->itl_max = gap > S->itl_max ? gap : S->itl_max;
}

static void itl_pcts(const sim *S, rl_pcts *p)
{
    memset(p, 0, sizeof *p);
    if (!(S->itl_n > 0))
        return;
    double q[3] = {0.5, 0.9, 0.99}, *o[3] = {&p->p50, &p->p90, &p->p99}, cum = 0;
    int j = 0;
    for (int b = 0; b < ITL_BINS && j < 3; b++) {
        cum += S->itl_w[b];
        while (j < 3 && cum >= q[j] * S->itl_n) {
            double v = itl_centre(b);
            *o[j++] = v < S->itl_max ? v : S->itl_max;
        }
    }
    p->mean = S->itl_sum / S->itl_n;
    p->max = S->itl_max;
    p->n = (long long)S->itl_n;
}

/* A sequence joined a replica's decode batch: its next gap runs from its
 * own last token, not from the replica's last decode step. */
static void itl_join(sim *S, replica *r, int i)
{
    if (S->s[i].itl_pending || S->c->no_itl)
        return;
    if (r->njoined == r->joined_cap) {
        int cap = 2 * r->joined_cap;
        int *j = realloc(r->joined, (size_t)cap * sizeof *j);
        if (!j) {
            S->oom = 1;
            return;
        }
        r->joined = j;
        r->joined_cap = cap;
    }
    S->s[i].itl_pending = 1;
    r->joined[r->njoined++] = i;
}

/* The gaps of one decode step ending at `now`: the sequences that joined
 * since the last decode step wait from their own last token, the others
 * from that step. */
static inline void itl_step(sim *S, replica *r, double now)
{
    if (S->c->no_itl)
        return; /* nothing joined (itl_join) */
    int fresh = 0;
    for (int j = 0; j < r->njoined; j++) {
        seq *s = &S->s[r->joined[j]];
        s->itl_pending = 0;
        if (s->state != S_DECODE)
            continue; /* preempted again before a decode step */
        itl_add(S, now - s->t_last, 1);
        fresh++;
    }
    r->njoined = 0;
    itl_add(S, now - r->last_dec, r->step_active - fresh);
    r->last_dec = now;
}

/* ---- sequence transitions ---- */

/* Whether a completed request met c's SLOs (those given): TTFT and TPOT
 * (a one-token output has none, and meets any TPOT target). */
static int within_slo(const rl_serve_config *c, double ttft, double tpot)
{
    double tp = isfinite(tpot) ? tpot : 0;
    return (c->slo_ttft <= 0 || ttft <= c->slo_ttft) && (c->slo_tpot <= 0 || tp <= c->slo_tpot);
}

/* Requests in the system change by delta at now: the area under nsys
 * (mean_in_system) takes the stretch since its last change first.  Summed
 * at changes of nsys only, not at every event, so it does not hang on
 * how the events fall: a KV sample cuts a quiet decode run into more
 * events (simulate samples, roofline.simulate does not), and summing
 * nsys x dt per event read the two 3.476238394666442 and
 * 3.4762383946664395 on the same run (fixIM). */
static void sys_add(sim *S, double now, int delta)
{
    S->area += S->nsys * (now - S->t_sys);
    S->t_sys = now;
    S->nsys += delta;
}

static void done(sim *S, int i, double now)
{
    const rl_request *q = &S->req[i];
    S->s[i].state = S_DONE;
    double d = S->dispatch; /* moves its first and last token alike (serve.h) */
    S->ttft[i] = S->s[i].t_first + d - q->arrival;
    S->ttft_svc[i] = S->s[i].t_first + d - S->s[i].t_start;
    S->e2e[i] = now + d - q->arrival;
    S->tpot[i] = q->output > 1 ? (now - S->s[i].t_first) / (q->output - 1) : NAN;
    S->tpot_over += S->c->slo_tpot > 0 && S->tpot[i] > S->c->slo_tpot;
    S->fin_t[S->completed++] = q->arrival + S->e2e[i] - d; /* system_grew's expression */
    sys_add(S, now, -1);
    S->done_tokens += q->output;
    /* completions come in time order: the window opens at the warm-th and
     * closes at the last arrival */
    if (S->completed == S->warm)
        S->w0 = now;
    else if (S->completed > S->warm && now <= S->w1) {
        S->win_done++;
        S->win_tokens += q->output;
        S->win_good += within_slo(S->c, S->ttft[i], S->tpot[i]);
    }
}

/* Room in r's heap, pf and pf_tok for `need` entries (part one more: a
 * verify part, replica_step_time), each doubled from SEQ_CAP0 as a replica
 * takes more sequences, never past max_seqs + 1 (what they hold at most).
 * 0, or -1 with S->oom set (the buffers as they were: the caller changes
 * nothing, and run_events stops). */
#define SEQ_CAP0 16

/* Array ptr resized to n entries: 0, or -1 with S->oom set and ptr as it
 * was (`grown`, a void * of the caller's, holds realloc's answer). */
#define REGROW(S, ptr, n, grown)                                                        \
    (((grown) = realloc((ptr), (size_t)(n) * sizeof *(ptr))) != NULL ? ((ptr) = (grown), 0) \
                                                                     : ((S)->oom = 1, -1))

static int seq_room(sim *S, replica *r, int need)
{
    if (need <= r->seq_cap)
        return 0;
    int most = S->c->max_seqs + 1, cap = r->seq_cap > 0 ? r->seq_cap : SEQ_CAP0;
    while (cap < need)
        cap *= 2;
    cap = cap < most ? cap : most > need ? most : need;
    void *g;
    if (REGROW(S, r->heap, cap, g) != 0 || REGROW(S, r->hkey, cap, g) != 0 ||
        REGROW(S, r->pf, cap, g) != 0 ||
        REGROW(S, r->pf_tok, cap, g) != 0 || REGROW(S, r->part, cap + 1, g) != 0)
        return -1; /* seq_cap as it was: what grew only has room to spare */
    r->seq_cap = cap;
    return 0;
}

/* Sequence i into r's decode batch at context c0.  The caller has made
 * the room first (seq_room for r->nheap + 1), before it moved i out of
 * where it was (review: a failed growth here left i popped from its queue
 * and in no batch). */
static void join_decode(sim *S, replica *r, int i, double c0)
{
    seq *s = &S->s[i];
    s->state = S_DECODE;
    s->k0 = r->k;
    s->c0 = c0;
    double left = S->req[i].output - s->gen0;
    s->kfin = s->k0 + (long long)ceil(left / S->E - 1e-9);
    double base = c0 - (double)s->k0 * S->E;
    r->A += base;
    if (S->longest && (r->nactive == 0 || base > r->lbase))
        r->lbase = base;
    s->prev = r->atail;
    s->next = -1;
    if (r->atail >= 0)
        S->s[r->atail].next = i;
    else
        r->ahead = i;
    r->atail = i;
    r->nactive++;
    itl_join(S, r, i);
    fh_set(S, r, r->nheap++, i, s->kfin);
    fh_up(S, r, s->hpos);
    r->kfin_top = r->hkey[0];
}

/* Remove a decoding sequence; returns its context (tokens). */
static double leave_decode(sim *S, replica *r, int i)
{
    seq *s = &S->s[i];
    double ctx = s->c0 + (double)(r->k - s->k0) * S->E;
    r->A -= s->c0 - (double)s->k0 * S->E;
    if (s->prev >= 0)
        S->s[s->prev].next = s->next;
    else
        r->ahead = s->next;
    if (s->next >= 0)
        S->s[s->next].prev = s->prev;
    else
        r->atail = s->prev;
    r->nactive--;
    if (S->longest && s->c0 - (double)s->k0 * S->E >= r->lbase) { /* it held the most */
        r->lbase = 0;
        for (int j = r->ahead, first = 1; j >= 0; j = S->s[j].next, first = 0) {
            double b = S->s[j].c0 - (double)S->s[j].k0 * S->E;
            r->lbase = first || b > r->lbase ? b : r->lbase;
        }
    }
    fh_remove(S, r, i);
    r->kfin_top = r->nheap > 0 ? r->hkey[0] : LLONG_MAX;
    return ctx;
}

/* ---- routing ---- */

/* Least-outstanding routing sends a request to the replica with the fewest
 * outstanding requests, the first of equals; round-robin to the next in
 * turn.  Either way a replica's first request comes after its pool's
 * lower-numbered replicas have had one (an unused replica holds 0, the
 * least), so the used replicas are the pool's first nused: only they are
 * set up, visited and kept in the pool's heap by (outstanding, id), whose
 * top is the scan's pick among them.  A request costs O(log used
 * replicas), whatever the number idle (tester16 F8: a scan of 1e5
 * replicas per arrival ran for minutes).  A pool of at most RB_MAX
 * replicas keeps them instead in one bitmap per outstanding count
 * (rb_move): a count changes by one, so the least count moves by at most
 * one, and the pick is the lowest set bit of the least count's bitmap,
 * the heap's top without its sifts (the heap's fix was 6.5% of the
 * README's size search at 200 req/s, its compares mispredicted). */
static int rh_before(long long oa, int a, long long ob, int b)
{
    return oa != ob ? oa < ob : a < b;
}

/* Replica j, with `out` outstanding, at slot i of its pool's heap: each
 * slot keeps its replica's count beside the id (S->rk), so a sift compares
 * two slots without reading the replicas (rh_fix: 7.3% of the README's
 * size search at 200 req/s, most of it the replicas' counts read at each
 * level). */
static void rh_place(sim *S, int pool, int i, int j, long long out)
{
    S->rh[pool][i] = j;
    S->rk[pool][i] = out;
    S->rpos[j] = i;
}

static int pool_of(const sim *S, int j)
{
    return S->nprefill > 0 && j >= S->nprefill;
}

/* Pools of up to RB_MAX replicas keep their used replicas by count in
 * bitmaps (rb_move), RB_COUNTS counts to start with, more as a count grows;
 * larger pools the heap (a pick scans a count's words). */
#define RB_MAX 512
#define RB_COUNTS 63

/* Replica j's place in its pool's heap after its count changed. */
static void rh_fix(sim *S, int j)
{
    int pool = pool_of(S, j), *h = S->rh[pool], n = S->nused[pool];
    long long *k = S->rk[pool], oj = S->r[j].outstanding;
    int i = S->rpos[j];
    while (i > 0 && rh_before(oj, j, k[(i - 1) / 2], h[(i - 1) / 2])) {
        rh_place(S, pool, i, h[(i - 1) / 2], k[(i - 1) / 2]);
        i = (i - 1) / 2;
    }
    for (;;) {
        int c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n)
            c += rh_before(k[c + 1], h[c + 1], k[c], h[c]); /* the lesser child */
        if (!rh_before(k[c], h[c], oj, j))
            break;
        rh_place(S, pool, i, h[c], k[c]);
        i = c;
    }
    rh_place(S, pool, i, j, oj);
}

/* Room in pool's count bitmaps (rb) for count k; -1 (S->oom set) without
 * memory. */
static int rb_room(sim *S, int pool, long long k)
{
    if (k < S->rbn[pool])
        return 0;
    long long n = 2 * S->rbn[pool] > k + 1 ? 2 * S->rbn[pool] : k + 1;
    size_t w = (size_t)S->rw[pool];
    unsigned long long *b = realloc(S->rb[pool], (size_t)n * w * sizeof *b);
    if (!b) {
        S->oom = 1;
        return -1;
    }
    memset(b + (size_t)S->rbn[pool] * w, 0, (size_t)(n - S->rbn[pool]) * w * sizeof *b);
    S->rb[pool] = b;
    S->rbn[pool] = n;
    return 0;
}

/* The lowest-numbered used replica of pool with count k, as a bit index
 * from the pool's first replica; -1 when none. */
static int rb_lowest(const sim *S, int pool, long long k)
{
    const unsigned long long *b = S->rb[pool] + (size_t)k * (size_t)S->rw[pool];
    for (int w = 0; w < S->rw[pool]; w++)
        if (b[w])
            return 64 * w + __builtin_ctzll(b[w]);
    return -1;
}

/* Replica j (used) of a bitmap pool now counts `now`, `was` before (-1: it
 * was not used).  The least count moves with it: below the least, it is the
 * new least; leaving the least's bitmap empty (was + 1 = now), the least is
 * now.  The pick (route) is the lowest-numbered replica of the least count,
 * the routing heap's top (rh_before's order) without its O(log n) sifts. */
static void rb_move(sim *S, int pool, int j, long long was, long long now)
{
    if (now >= S->rbn[pool] && rb_room(S, pool, now) != 0)
        return;
    size_t w = (size_t)S->rw[pool];
    int x = pool ? j - S->nprefill : j; /* from the pool's first replica (route) */
    unsigned long long bit = 1ull << (x & 63), *col = S->rb[pool] + (x >> 6);
    if (was >= 0)
        col[(size_t)was * w] ^= bit;
    col[(size_t)now * w] ^= bit;
    if (was < 0 ? S->nused[pool] == 1 || now < S->rmin[pool] : now < S->rmin[pool])
        S->rmin[pool] = now;
    else if (was == S->rmin[pool] && rb_lowest(S, pool, was) < 0)
        S->rmin[pool] = now;
}

/* One request more (+1) or less (-1) outstanding at replica r. */
static void outstanding_add(sim *S, replica *r, int d)
{
    int j = (int)(r - S->r), pool = pool_of(S, j);
    r->outstanding += d;
    if (S->rb[pool])
        rb_move(S, pool, j, r->outstanding - d, r->outstanding);
    else
        rh_fix(S, j);
}

static int alloc_replica(sim *S, int j);

/* The replica of pool `pool` (replicas first..first+count-1) a new request
 * goes to, set up on its first request, with the request counted
 * outstanding there; -1 when out of memory (S->oom set: run_events stops). */
static int route(sim *S, int first, int count, int pool)
{
    int used = S->nused[pool];
    int top = used <= 0   ? -1
              : S->rb[pool] ? first + rb_lowest(S, pool, S->rmin[pool])
                            : S->rh[pool][0];
    int j = S->c->route == RL_ROUTE_ROUND_ROBIN ? first + (S->rr[pool]++ % count)
            : used < count && (top < 0 || S->r[top].outstanding > 0) ? first + used : top;
    if (j >= first + used) {
        S->nused[pool]++; /* before its buffers: sim_free frees what was allocated */
        if (S->rb[pool])
            rb_move(S, pool, j, -1, S->r[j].outstanding);
        else
            rh_place(S, pool, used, j, S->r[j].outstanding); /* a leaf: the count below
                                                                 places it (rh_fix) */
        if (S->oom || alloc_replica(S, j) != 0) {
            S->oom = 1;
            return -1;
        }
    }
    outstanding_add(S, &S->r[j], 1);
    return S->oom ? -1 : j;
}

/* The prompt tokens still to prefill of the wait queue's head when it is
 * part-way through a chunked prefill (S_PREFILL: its chunks so far are in
 * pf_held), else 0: its whole prompt was found room for when it started
 * (take_prefill), so what is swapped back in (resume_swapped) leaves that
 * room to it. */
static double partial_rest(const sim *S, const replica *r)
{
    int i = r->wait.head;
    return i >= 0 && S->s[i].state == S_PREFILL ? S->s[i].need - S->s[i].prefilled : 0;
}

/* Preempt replica r's most recently admitted decoding sequence, by the
 * preemption mode: its KV to host memory (swap) or dropped, to be
 * prefilled again (recompute).  A recomputed one waits at the front of the
 * queue, but behind a prompt part-way through its chunked prefill: that
 * prompt's chunks so far hold pages, and only the queue's head takes
 * chunks (take_prefill), so behind a preempted sequence it would hold them
 * idle (vLLM keeps such a prompt in its running queue, scheduled before
 * the waiting ones: Scheduler._schedule_chunked_prefill, docs.vllm.ai
 * v0.9.2 vllm/core/scheduler.py). */
static void preempt_newest(sim *S, replica *r)
{
    int i = r->atail;
    seq *s = &S->s[i];
    int gen = s->gen0 + (int)floor((double)(r->k - s->k0) * S->E);
    double ctx = leave_decode(S, r, i);
    if (!s->itl_pending)
        s->t_last = r->last_dec; /* its last token came with the last decode step */
    s->gen0 = gen;
    S->preempt++;
    if (S->c->preempt == RL_PREEMPT_SWAP) {
        S->extra_s += ctx * S->kv_tok / S->c->host_bw;
        s->c0 = ctx;
        s->state = S_SWAPPED;
        q_push(S, &r->swapped, i, 0);
        return;
    }
    s->need = S->req[i].prompt + gen;
    s->prefilled = 0;
    s->state = S_WAIT;
    int h = r->wait.head;
    if (h >= 0 && S->s[h].state == S_PREFILL) {
        s->qnext = S->s[h].qnext; /* second, behind the part-prefilled head */
        S->s[h].qnext = i;
        if (r->wait.tail == h)
            r->wait.tail = i;
    } else {
        q_push(S, &r->wait, i, 1);
    }
}

/* Preempt the most recently admitted sequences until one more decode step
 * fits (at least one keeps running). */
static void make_room(sim *S, replica *r)
{
    while (r->nactive > 1 && !kv_fits(S, r, r->nactive * S->E, 0))
        preempt_newest(S, r);
}

/* KV tokens a preempted sequence must leave free beside its own when it is
 * readmitted (recompute) or swapped back in (swap) while others decode: one
 * decode step of growth for each of them plus 1% of the pool, vLLM's
 * watermark (its block manager admits a waiting sequence, and swaps a
 * swapped one back to the GPU, only when the free blocks less those it
 * needs stay at or above watermark = 0.01 of the blocks: docs.vllm.ai
 * v0.9.2 vllm/core/block_manager.py, SelfAttnBlockSpaceManager
 * can_allocate, and can_swap_in -> _can_swap, which applies
 * watermark_blocks when the device is the GPU; vllm-project/vllm commit
 * 006a839f).  Without it the newest sequence was readmitted the moment its
 * own pages were freed and preempted again at the next step (swap: 101
 * preemptions where recompute had 13, tester28 F5). */
static double readmit_room(const sim *S, const replica *r, const seq *s)
{
    if (s->gen0 < 1 || r->nactive == 0)
        return 0; /* a new sequence, or nothing else to grow */
    return (double)r->nactive * S->E + 0.01 * S->cap_pages * S->c->page_tokens;
}

/* Whether `used` sequences leave room for one more under max_seqs; the
 * most sequences any such check saw is kept (serve.h seqs_peak). */
static int seqs_below(sim *S, long long used)
{
    if (used > S->seqs_peak)
        S->seqs_peak = used;
    S->held |= used >= S->c->max_seqs; /* a request waits at the cap (count_step, bit 1) */
    return used < S->c->max_seqs;
}

/* A chunked prefill's chunk on a decode replica, cut to the KV room the
 * step leaves beside its decode growth (one token per decoding sequence
 * per step, E with speculation), with `extra_seqs` more sequences: the
 * pages the step ends with must fit, as a real engine allocates a step's
 * slots before it runs (vLLM's Scheduler._schedule_chunked_prefill
 * schedules the running decodes' appended slots first, preempting the
 * newest when they do not fit, and prompts only into the blocks left;
 * docs.vllm.ai v0.9.2 vllm/core/scheduler.py).  Without it a prompt's
 * later chunks went in unchecked and the pages reached 1.0021 of the pool
 * (fixY, finding 1).  Returns `chunk` when it fits, else what does (0:
 * none). */
static int chunk_room(const sim *S, const replica *r, int chunk, int extra_seqs)
{
    double grow = r->nactive * S->E;
    if (kv_fits(S, r, chunk + grow, extra_seqs))
        return chunk;
    double room = (S->cap_pages - kv_pages(S, r, grow, extra_seqs)) * S->c->page_tokens;
    return room >= 1 ? (int)floor(room) : 0;
}

/* Add prefill work for the head of the wait queue: up to `budget` tokens.
 * Returns the tokens taken (0: nothing fits). */
static int take_prefill(sim *S, replica *r, long long budget, int whole)
{
    if (seq_room(S, r, r->npf + 1) != 0)
        return 0; /* out of memory: nothing taken, the run stops (seq_room) */
    int i = r->wait.head;
    seq *s = &S->s[i];
    int cont = s->state == S_PREFILL; /* a later chunk of a started prompt */
    if (s->state == S_WAIT) {
        int left = s->need;
        /* no new prompt starts while a sequence is swapped out: swapped
         * requests come first (vLLM's Scheduler._schedule_default, "If any
         * requests are swapped, prioritized swapped requests": it schedules
         * prefills only when self.swapped is empty; vllm/core/scheduler.py,
         * vllm-project/vllm commit 0054e1fa).  Without it a new prompt took
         * the room a swapped sequence waited for under its watermark. */
        if (r->swapped.head >= 0)
            return 0;
        if (!r->is_prefill && !kv_fits(S, r, left + 1 + readmit_room(S, r, s), 1))
            return 0;
        /* a prefill replica's pool holds its prompts and the KV waiting on
         * its link (review40 F3; kv_held) */
        if (r->is_prefill && !kv_fits(S, r, left, 1))
            return 0;
        if (!whole && !r->is_prefill) {
            /* its first chunk, and the prefix hit it reuses, beside the step's growth */
            int hit = r->tier && S->req[i].prefix_id >= 0 && r->tier[S->req[i].prefix_id]
                          ? S->req[i].prefix_len : 0;
            int want = hit + (left - hit < budget ? left - hit : (int)budget);
            if (chunk_room(S, r, want, 1) < want)
                return 0;
        }
        s->state = S_PREFILL;
        if (s->t_start < 0) {
            s->t_start = S->tlast; /* the current time */
            s->behind |= s->qnext >= 0;
        }
        s->prefilled = prefix_lookup(S, r, i);
        S->saved += s->prefilled;
        r->pf_held += s->prefilled;
        r->npartial++;
    }
    int left = s->need - s->prefilled;
    int chunk = left;
    if (!whole && chunk > budget)
        chunk = (int)budget;
    if (!whole && !r->is_prefill && cont) {
        /* a later chunk: room for it beside this step's decode growth */
        while (r->nactive > 0 && chunk_room(S, r, chunk, 0) == 0)
            preempt_newest(S, r);
        chunk = chunk_room(S, r, chunk, 0);
    }
    if (chunk <= 0)
        return 0;
    r->pf[r->npf] = i;
    r->part[r->npf] = (rl_ops_part){1, chunk, s->prefilled};
    r->pf_tok[r->npf++] = chunk;
    r->pf_held += chunk;
    if (chunk == left)
        q_pop(S, &r->wait);
    return chunk;
}

/* take_prefill, counting the request in over_budget when `over` (its
 * prompt, over max_tokens, is prefilled whole) the first time it starts:
 * once per request (h27lab, tester: "3620 of 2000 requests": every step
 * that found no KV room for it counted it again, and a recompute after a
 * preemption would too). */
static int take_counted(sim *S, replica *r, long long budget, int whole, int over)
{
    int first = S->s[r->wait.head].t_start < 0;
    int t = take_prefill(S, r, budget, whole);
    S->over_budget += t > 0 && first && over;
    return t;
}

/* A prefill replica (disagg): whole prompts up to the token budget. */
static void admit_prefill_pool(sim *S, replica *r)
{
    const rl_serve_config *c = S->c;
    long long used = 0;
    while (r->wait.head >= 0 && seqs_below(S, r->npf) &&
           (r->npf == 0 || used + S->s[r->wait.head].need <= c->max_tokens)) {
        int t = take_counted(S, r, 0, 1, S->s[r->wait.head].need > c->max_tokens);
        if (t == 0) /* no room in the pool (review40 F3) */
            break;
        used += t;
    }
}

/* Static batching: a new batch only when the last one has finished, with
 * room for every output reserved up front. */
static void admit_static(sim *S, replica *r)
{
    /* a running batch admitted at max_seqs, requests waiting: the cap binds
     * (count_step, bit 1; tester102 #2: only the admission's own step, with
     * no decode in it, was counted, and the note blamed the GPU at a batch
     * of 7.69 of 8) */
    S->held |= r->nactive != 0 && r->wait.head >= 0 && r->static_b >= S->c->max_seqs;
    if (r->nactive != 0)
        return;
    r->static_b = 0;
    int maxp = 0;
    double outputs = 0; /* the batch's decode growth, reserved up front */
    while (r->wait.head >= 0 && seqs_below(S, r->npf)) {
        int i = r->wait.head;
        if (r->npf > 0 && !kv_fits(S, r, outputs + S->s[i].need + S->req[i].output, 1))
            break;
        outputs += S->req[i].output;
        int p = take_prefill(S, r, 0, 1);
        if (p == 0)
            break;
        maxp = p > maxp ? p : maxp;
    }
    /* every prompt padded to the batch's longest (seed 000 section 4, point 3) */
    for (int j = 0; j < r->npf; j++)
        r->part[j].tokens = maxp;
    r->static_b = r->npf;
}

/* Swapped-out sequences back into the decode batch while they fit with the
 * watermark (readmit_room); the transfer from host memory adds to the step. */
static void resume_swapped(sim *S, replica *r)
{
    const rl_serve_config *c = S->c;
    while (r->swapped.head >= 0 && seqs_below(S, r->nactive) &&
           kv_fits(S, r, S->s[r->swapped.head].c0 + 1 + partial_rest(S, r) +
                             readmit_room(S, r, &S->s[r->swapped.head]), 1)) {
        if (seq_room(S, r, r->nheap + 1) != 0)
            return; /* out of memory, i still swapped: the run stops (seq_room) */
        int i = q_pop(S, &r->swapped);
        S->extra_s += S->s[i].c0 * S->kv_tok / c->host_bw;
        join_decode(S, r, i, S->s[i].c0);
    }
}

/* A decode replica (disagg): transferred KV joins the decode batch directly,
 * while the step's tokens, one a decoding sequence, stay within max_tokens
 * (as admit_batched's budget: vLLM's max_num_batched_tokens, TensorRT-LLM's
 * max_num_tokens count decode tokens too; fixWG #2: the pool capped only by
 * max_seqs). */
static void admit_transferred(sim *S, replica *r)
{
    S->held |= (r->wait.head >= 0 && r->nactive >= S->c->max_tokens) << 1; /* count_step */
    while (r->wait.head >= 0 && seqs_below(S, r->nactive) && r->nactive < S->c->max_tokens &&
           kv_fits(S, r, S->s[r->wait.head].need + 1, 1)) {
        if (seq_room(S, r, r->nheap + 1) != 0)
            return; /* out of memory, i still waiting: the run stops (seq_room) */
        int i = q_pop(S, &r->wait);
        if (isnan(S->t_join[i])) {
            S->t_join[i] = S->tlast; /* the current time */
            S->s[i].behind |= (r->wait.head >= 0) << 1;
        }
        join_decode(S, r, i, S->s[i].need);
    }
}

/* Interleaved: one prompt at a time, its steps alternating with decode. */
static void admit_interleaved(sim *S, replica *r)
{
    if (r->wait.head >= 0 && seqs_below(S, r->nactive + r->npartial))
        take_prefill(S, r, 0, 1);
}

/* Continuous batching (whole prompts) or chunked prefill (prompts cut to
 * the budget), both within the step's token budget left by its decode
 * tokens: an engine counts every token of a step, one per decoding
 * sequence included, against max_num_batched_tokens (vLLM V1's
 * Scheduler.schedule spends token_budget on the running requests first,
 * docs.vllm.ai vllm/v1/core/sched/scheduler.py) or max_num_tokens
 * (TensorRT-LLM: "the maximum number of batched input tokens after padding
 * is removed in each batch", nvidia.github.io/TensorRT-LLM
 * performance/performance-tuning-guide/tuning-max-batch-size-and-max-num-tokens).
 * So no sequence joins once the decode tokens fill the budget, a whole
 * prompt (continuous) joins only within what they leave, and a step stays
 * within max_tokens unless it holds one prompt over max_tokens (counted in
 * over_budget; chunked: a prompt's part joins within the budget).
 * Before stop 55 continuous left the decode tokens out and a max_tokens 1024
 * run decoded 8824 sequences a step (fixWD, finding 1). */
static void admit_batched(sim *S, replica *r, int chunked)
{
    const rl_serve_config *c = S->c;
    long long budget = c->max_tokens - r->nactive;
    /* the decode batch at the token budget, a request waiting (count_step) */
    S->held |= (r->wait.head >= 0 && budget <= 0) << 1;
    while (r->wait.head >= 0 && seqs_below(S, r->nactive + r->npf) && budget > 0) {
        int need = S->s[r->wait.head].need - S->s[r->wait.head].prefilled;
        /* without chunking a whole prompt joins only within the budget its
         * step's decodes and prompts leave (fixWG #3: it joined whenever no
         * other prompt had); one over max_tokens, which no step holds within
         * it, joins the decodes in a step of its own prompt (over_budget):
         * waiting for an empty replica would add a drain no engine has (vLLM
         * and TensorRT-LLM refuse such a prompt without chunking) */
        if (!chunked && need > budget &&
            (r->npf > 0 || (r->nactive > 0 && need <= c->max_tokens)))
            break;
        int head = r->wait.head;
        int t = take_counted(S, r, budget, !chunked, !chunked && need > c->max_tokens);
        if (t == 0)
            break; /* nothing taken */
        budget -= t;
        if (r->wait.head == head)
            break; /* a part: the budget or the KV room spent */
    }
    /* chunked: the decode tokens and the prompts' chunks filled the budget,
     * a request still waiting for its first token (count_step, bit 2;
     * tester102 #2: --max-tokens 16 read GPU-bound while capacity followed
     * the budget) */
    S->held |= (chunked && budget <= 0 && r->wait.head >= 0) << 1;
}

/* What joins replica r's next step, by its role and the policy. */
static void admit(sim *S, replica *r)
{
    if (r->is_prefill) {
        admit_prefill_pool(S, r);
        return;
    }
    if (S->c->policy == RL_POLICY_STATIC) {
        admit_static(S, r);
        return;
    }
    make_room(S, r);
    resume_swapped(S, r);
    switch (S->c->policy) {
    case RL_POLICY_DISAGG:
        admit_transferred(S, r);
        break;
    case RL_POLICY_INTERLEAVED:
        admit_interleaved(S, r);
        break;
    default:
        admit_batched(S, r, S->c->policy == RL_POLICY_CHUNKED);
        break;
    }
}

/* Seconds of replica r's step: its prefill parts and B decode sequences at
 * mean context Sctx, longest Slong (0: not tracked; rl_step_work) (with
 * speculation: the verify pass, its prefix the context the cost times
 * attention at, and the draft steps), plus the swap-in transfer S->extra_s;
 * at least 1 ns. */
static double replica_step_time(sim *S, replica *r, double B, double Sctx, double Slong)
{
    const rl_serve_config *c = S->c;
    const rl_step_cost *cost = r->is_prefill ? S->pcost : S->dcost;
    rl_step_work w = {r->part, r->npf, B, Sctx, Slong}, dec = {NULL, 0, B, Sctx, Slong};
    double t;
    if (B > 0 && c->spec_gamma > 0) {
        /* verify g drafted tokens per sequence in one step, plus g draft steps */
        double P = cost->longest && Slong > 0 ? Slong : Sctx;
        r->part[w.nprefill++] = (rl_ops_part){(long long)B, c->spec_gamma, (long long)llround(P)};
        t = cost->time(cost->ctx, &w) +
            c->spec_gamma * (c->spec_draft ? c->spec_draft->time(c->spec_draft->ctx, &dec)
                                           : c->spec_draft_frac * cost->time(cost->ctx, &dec));
    } else {
        t = cost->time(cost->ctx, &w);
    }
    t += S->extra_s;
    if (t == 0)
        t = 1e-9;
    else if (!(t > 0))
        t = INFINITY; /* NaN or negative: run_events refuses it (RL_SERVE_BAD_TIME) */
    return t;
}

/* The step statistics: every step, and decode steps of B sequences. */
/* A step of t s with B decode sequences at mean context Sctx (held: its admission
 * left a request waiting at max_seqs, bit 1, or at max_tokens filled by its
 * decode tokens, bit 2); `mixed`: it
 * carries prefill tokens or a swap-in beside them (rl_serve_result
 * mean_decode_only_step_s leaves those out). */
static void count_step(step_sums *u, double B, double Sctx, double t, int mixed, int held)
{
    u->steps++;
    if (B > 0) {
        u->dsteps++;
        u->dsteps_cap += held & 1;
        u->dsteps_tok += held >> 1 & 1;
        u->sum_b += B;
        u->sum_ctx += Sctx;
        u->sum_dstep += t;
        u->sum_bt += B * t;
        u->ponly += !mixed;
        u->sum_ponly += mixed ? 0 : t;
    }
    u->busy_s += t;
}

/* How many quiet step ends can follow replica r's decode step after its
 * r->nrun quiet ones, by every check but the KV sample's (plan_run makes
 * that one per end): a quiet end has no sequence finishing there, the next
 * step is the same decode batch (nothing can be admitted: no queue, or the
 * batch at max_seqs, or a static batch running) and the KV pages hold its
 * growth (no preemption: make_room).  Then only a request routed to r can
 * change what follows (cut_run).  The pages are non-decreasing in the
 * steps done (kv_pages_at, rounding included), so the quiet ends are a
 * prefix of the steps and the last one's check decides them all when it
 * passes. */
static long long run_room(const sim *S, const replica *r)
{
    const rl_serve_config *c = S->c;
    long long k0 = r->k + r->nrun; /* decode steps done at that step's end */
    long long n = r->run_cap - r->nrun, fin = r->kfin_top - 1 - k0;
    n = fin < n ? fin : n;
    if (c->every_step || r->is_prefill || !r->decoding || r->npf > 0 || n <= 0)
        return 0;
    if (c->policy == RL_POLICY_STATIC)
        return n;
    if (r->swapped.head >= 0 || (r->wait.head >= 0 && r->nactive + r->npartial < c->max_seqs))
        return 0;
    double grow = r->nactive * S->E;
    if (r->nactive <= 1 || kv_pages_at(S, r, k0 + n, grow, 0) <= S->cap_pages)
        return n;
    long long j = 0;
    while (j < n && kv_pages_at(S, r, k0 + j + 1, grow, 0) <= S->cap_pages)
        j++;
    return j;
}

/* The mean context of a replica's nactive decoding sequences after k decode
 * steps ((A + n E k) / n, the file's header), 0 with none: one expression
 * for start_step and plan_run, which must agree to the bit (decode runs);
 * plan_run passes its locals. */
static inline double ctx_of(double A, int nactive, double E, long long k)
{
    return nactive ? (A + nactive * E * (double)k) / nactive : 0;
}

static double mean_ctx(const sim *S, const replica *r, long long k)
{
    return ctx_of(r->A, r->nactive, S->E, k);
}

/* The longest context of a replica's decoding sequences after k decode
 * steps, lbase + E k (each sequence's is c0 + (k - k0) E), when a cost reads
 * it (`on`: S->longest, and some decoding); else 0, which the costs read
 * as not given. */
static inline double longest_of(int on, double lbase, double E, long long k)
{
    return on ? lbase + E * (double)k : 0;
}

static double longest_ctx(const sim *S, const replica *r, long long k)
{
    return longest_of(S->longest && r->nactive, r->lbase, S->E, k);
}

/* Decode runs: the quiet step ends (run_room, and no KV sample falling
 * due) after replica r's decode step of batch B ending at `end`, each kept
 * in r->run with the time and context of the step after it (start_step's
 * arithmetic), so the global event heap sees only the run's last step end.
 * Returns that end. */
static double plan_run(sim *S, replica *r, double end, double B)
{
    r->run_b = B;
    S->extra_s = 0; /* a quiet step admits nothing: no swap-in, no host copy */
    long long last = r->nrun + run_room(S, r);
    if (last <= r->nrun)
        return end; /* no quiet end (most steps of a busy replica) */
    decode_row d = {NULL, 0, 0, 0, 0, NULL, 0, 0};
    if (S->c->spec_gamma <= 0)
        decode_row_init(&d, S->dcost, B);
    /* the loop's inputs in locals (mean_ctx's and longest_ctx's very
     * expressions, so the same doubles): through r and S, every store to
     * r->run made the compiler load them again and r->nrun went through
     * memory each step, a store-to-load wait per quiet step (fixPD) */
    long long n = r->nrun, k = r->k + 1;
    const int nact = r->nactive, on = S->longest && r->nactive, sampled = S->dt_sample > 0;
    const double A = r->A, E = S->E, lbase = r->lbase, next_sample = S->next_sample;
    run_step *run = r->run;
    while (n < last && !(sampled && !(end < next_sample))) {
        double ctx = ctx_of(A, nact, E, k + n);
        double lctx = longest_of(on, lbase, E, k + n);
        double t = d.c ? decode_row_time(&d, attn_ctx(d.c, ctx, lctx))
                       : replica_step_time(S, r, B, ctx, lctx);
        run[n++] = (run_step){end, t, ctx};
        end += t;
    }
    r->nrun = (int)n;
    return end;
}

/* Replica ri starts its next step at now: admit work by the policy, then
 * time the step and schedule its end (or leave the replica idle). */
static void start_step(sim *S, int ri, double now)
{
    replica *r = &S->r[ri];
    const rl_serve_config *c = S->c;
    r->npf = 0;
    r->decoding = 0;
    S->extra_s = 0;
    S->held = 0;
    admit(S, r);
    r->held = S->held;
    if (r->is_prefill || c->policy == RL_POLICY_INTERLEAVED ? r->npf == 0 : 1)
        r->decoding = r->nactive > 0;
    if (c->policy == RL_POLICY_STATIC && r->npf > 0)
        r->decoding = 0;
    double B = r->decoding ? (c->policy == RL_POLICY_STATIC ? r->static_b : r->nactive) : 0;
    r->step_active = r->decoding ? r->nactive : 0;
    double Sctx = mean_ctx(S, r, r->k);
    if (r->npf == 0 && B == 0 && S->extra_s == 0) {
        r->busy = 0;
        return;
    }
    int mixed = r->npf > 0 || S->extra_s > 0; /* prefill tokens, or a host-link copy */
    double t = replica_step_time(S, r, B, Sctx, longest_ctx(S, r, r->k));
    count_step(&S->sums, B, Sctx, t, mixed, r->held);
    S->pf_busy += r->is_prefill ? t : 0;
    S->sums.pf_steps += r->npf > 0;
    S->sums.pf_parts += r->npf;
    r->busy = 1;
    ev_push(S, ev_make(plan_run(S, r, now + t, B), 0, ri));
    /* a prefill replica's pages grow only here (take_prefill; the hold only
     * moves them from pf_held to xfer_held, and release_hold frees them), so
     * the most over its step starts is its peak */
    if (r->is_prefill && kv_pages(S, r, 0, 0) > S->kv_peak_pf)
        S->kv_peak_pf = kv_pages(S, r, 0, 0);
}

/* Request i's KV, prefilled on replica ri at now, onto that replica's link
 * to the decode pool (disagg): each of the replica's chips sends its shard,
 * so the link carries chips x net_bw bytes/s (rl_serve_config_hw), and
 * transfers take it in turn, first queued first sent (tester43 F2: each
 * transfer took its solo time however many overlapped, so a link 65x too
 * slow for the offered KV bytes/s still "sustained" the load).  When the
 * decode pool has fewer replicas (D) than the prefill pool (P), their
 * receiving links are the narrower end: each sender gets a D/P share
 * (S->link_bw, sim_init).  KV moves between the pools over the cluster
 * interconnect, and the transfer's time is its bytes over that link's
 * bandwidth (Splitwise, Patel et al., ISCA 2024, sec. IV-C/V "KV-cache
 * transfer"; DistServe, Zhong et al., OSDI 2024, sec. 4.3: the
 * transmission bandwidth the placement must provide); a link slower than
 * the offered KV bytes/s queues them without bound, which keep-up reads
 * (queue_keep_up, q 2).  Returns when the last byte has arrived (net_latency
 * after it left). */
static double send_kv(sim *S, int ri, int i, double now)
{
    double start = fmax(now, S->link_free[ri]), t = S->s[i].need * S->kv_tok / S->link_bw;
    int last = S->link_last[ri];
    if (last >= 0 && now <= S->t_sent[last]) /* queued before the last one left */
        S->s[last].behind |= 1 << 2;
    S->t_sent[i] = start;
    S->link_from[i] = ri;
    S->link_order[S->nlink++] = i;
    S->link_last[ri] = i;
    S->link_free[ri] = start + t;
    S->link_busy += t;
    return start + t + S->c->net_latency;
}

/* Disaggregated prefill's hold, taken here and released only by
 * release_hold: request i, prefilled on prefill replica ri at now with
 * tokens still to generate, keeps its KV in ri's pool (xfer_held) and
 * counts outstanding there while its KV waits for and crosses the link
 * (send_kv); the sender frees it once the receiver has it, net_latency
 * after the last byte left (review40 F3: freed at the prefill's end, a link
 * queue never held prefill back and the held KV could pass the pool).  A
 * request that ends at its first token sends nothing and is never held
 * (end_step; tester45 F0: the hold and its release were decided apart, a
 * 1-token request's KV stayed held forever and the pool filled). */
static void hold_and_send(sim *S, int ri, int i, double now)
{
    S->r[ri].xfer_held += S->s[i].need;
    S->s[i].state = S_XFER;
    ev_push(S, ev_make(send_kv(S, ri, i, now), 1, i));
}

/* The step of replica ri ends at now: finished sequences leave, prefilled
 * prompts join the decode batch (or are sent, or end).  0, or -1 with
 * S->oom set and nothing changed: the room for every prompt of the step
 * that may join is made first (at most r->npf join, and the batch only
 * shrinks before they do). */
static int end_step(sim *S, int ri, double now)
{
    replica *r = &S->r[ri];
    if (!r->is_prefill && r->npf > 0 && seq_room(S, r, r->nheap + r->npf) != 0)
        return -1;
    if (r->decoding) {
        itl_step(S, r, now);
        r->k++;
        while (r->kfin_top <= r->k) {
            int i = r->heap[0];
            S->freed += leave_decode(S, r, i);
            outstanding_add(S, r, -1);
            done(S, i, now);
        }
    }
    for (int j = 0; j < r->npf; j++) {
        int i = r->pf[j];
        seq *s = &S->s[i];
        s->prefilled += r->pf_tok[j];
        if (s->prefilled < s->need)
            continue;
        r->npartial--;
        if (s->t_first < 0) {
            s->t_first = s->t_last = now; /* prefill emits the first token */
            S->ttft_over += S->c->slo_ttft > 0 &&
                            now + S->dispatch - S->req[i].arrival > S->c->slo_ttft;
        }
        if (s->gen0 < 1)
            s->gen0 = 1;
        r->pf_held -= s->need; /* prefilled: its KV is freed, held or decoding */
        if (s->gen0 >= S->req[i].output) {
            S->freed += s->need;
            outstanding_add(S, r, -1);
            done(S, i, now);
        } else if (r->is_prefill) {
            hold_and_send(S, ri, i, now);
        } else {
            join_decode(S, r, i, s->need);
        }
    }
    r->npf = 0;
    return 0;
}

/* The KV timeline (all decode replicas together) at a fixed interval; when
 * it fills, every other point is dropped and the interval doubles, so the
 * whole run is covered with kv_samples..2 kv_samples points. */
static int sample_kv(sim *S, double now)
{
    while (S->dt_sample > 0 && now >= S->next_sample) {
        if (rl_interrupted()) /* a long stretch of samples (fixAA: SIGTERM went unheard) */
            return -1;
        if (S->nkv == S->kvcap) {
            for (int i = 0; i < S->kvcap / 2; i++) {
                S->kv_t[i] = S->kv_t[2 * i];
                S->kv_f[i] = S->kv_f[2 * i];
            }
            S->nkv = S->kvcap / 2;
            S->dt_sample *= 2;
            S->next_sample = S->kv_t[S->nkv - 1] + S->dt_sample;
            continue;
        }
        double pages = 0;
        /* unused replicas hold 0 pages (route) */
        for (int j = S->nprefill; j < S->nprefill + S->nused[S->nprefill > 0]; j++)
            pages += kv_pages_at(S, &S->r[j], S->r[j].k + S->r[j].nrun, 0, 0); /* quiet
                ends all lie before the sample (plan_run) */
        S->kv_t[S->nkv] = S->next_sample;
        S->kv_f[S->nkv++] = pages / (S->cap_pages * (S->nr - S->nprefill));
        S->next_sample += S->dt_sample;
    }
    return 0;
}

/* Peak occupancy of one replica's KV pages, checked at each of its steps
 * (in pages: the fraction of the most is the most of the fractions). */
static void peak_kv(sim *S, const replica *r)
{
    double pages = kv_pages(S, r, 0, 0);
    if (pages > S->kv_peak)
        S->kv_peak = pages;
}

/* Replica r's quiet step ends, in order, as end_step, start_step and
 * peak_kv would have kept them (at its next event, before that step end);
 * peak_kv once, at the last: a quiet run's batch only grows its pages
 * (kv_pages_at is non-decreasing in k, rounding included), so the last
 * step's are the run's most. */
/* Room in r's decode run for `cap` quiet ends (run_cap doubling up to
 * RUN_MAX); 0, or -1 with S->oom set (run as it was). */
static int run_grow(sim *S, replica *r, int cap)
{
    if (cap <= r->run_alloc)
        return 0;
    void *g;
    if (REGROW(S, r->run, cap, g) != 0)
        return -1;
    r->run_alloc = cap;
    return 0;
}

static void commit_run(sim *S, replica *r)
{
    const run_step *run = r->run;
    const int n = r->nrun;
    if (n > 0 && !S->c->no_itl) {
        /* the first end takes the joiners' gaps (itl_step, which empties
         * r->joined); each later one the whole batch's gap from the end
         * before: itl_add's arithmetic on locals, the bin being added to
         * with them (the same additions in the same order: the same
         * doubles), not through S, where each step waited on the last
         * one's stores (fixPD) */
        itl_step(S, r, run[0].end);
        double last = r->last_dec, isum = S->itl_sum, in = S->itl_n, imax = S->itl_max;
        double count = r->step_active, w = 0;
        int bin = -1;
        for (int i = 1; i < n && count > 0; i++) {
            double gap = run[i].end - last;
            int b = itl_bin(gap);
            if (b != bin) {
                if (bin >= 0)
                    S->itl_w[bin] = w;
                bin = b;
                w = S->itl_w[b];
            }
            w += count;
            isum += gap * count;
            in += count;
            imax = gap > imax ? gap : imax;
            last = run[i].end;
        }
        if (bin >= 0)
            S->itl_w[bin] = w;
        S->itl_sum = isum;
        S->itl_n = in;
        S->itl_max = imax;
        r->last_dec = run[n - 1].end;
    }
    /* the sums in a local copy (the same additions in the same order: the
     * same doubles), which the compiler keeps in registers: through S each
     * step's additions waited on the last step's stores (perf: 2% of the
     * README's size search) */
    step_sums sums = S->sums;
    for (int i = 0; i < n; i++)
        count_step(&sums, r->run_b, run[i].next_ctx, run[i].next_t, 0, r->held);
    S->sums = sums;
    r->k += r->nrun;
    if (r->nrun > 0)
        peak_kv(S, r);
    S->quiet += (unsigned)r->nrun;
    if (r->nrun == r->run_cap && r->run_cap < RUN_MAX && run_grow(S, r, 2 * r->run_cap) == 0)
        r->run_cap *= 2;
    r->nrun = 0;
}

/* A request joined busy replica ri's queue at t: its run ends at its first
 * step end at t or later (`after`: later, for a KV transfer, which comes
 * after the step ends of its instant: ev_before), the step end at which
 * the replica admits it; the quiet ends after that are dropped. */
static void cut_run(sim *S, int ri, double t, int after)
{
    replica *r = &S->r[ri];
    int q = 0;
    while (q < r->nrun && (r->run[q].end < t || (after && r->run[q].end == t)))
        q++;
    if (q == r->nrun)
        return;
    r->nrun = q;
    r->run_cap = r->run_cap > 1 ? r->run_cap / 2 : 1;
    ev_settle(S); /* evpos is a settled heap's index */
    ev_up(S, S->evpos[ri], ev_make(r->run[q].end, 0, ri));
}

/* Put the k-th smallest of v[0..n) at v[k], smaller ones before it
 * (Hoare's quickselect, median-of-three pivot): O(n) on average. */
static void select_kth(double *v, long long n, long long k)
{
    long long lo = 0, hi = n - 1;
    while (hi > lo) {
        long long mid = lo + (hi - lo) / 2;
        double a = v[lo], b = v[mid], c = v[hi];
        double piv = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
        long long i = lo, j = hi;
        while (i <= j) {
            while (v[i] < piv)
                i++;
            while (v[j] > piv)
                j--;
            if (i <= j) {
                double t = v[i];
                v[i++] = v[j];
                v[j--] = t;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return;
    }
}

/* rl_serve_pcts; with p99_only (not sorted) the p99 alone, p90 and p50 0. */
static long long pcts_of(double *v, long long n, rl_pcts *p, int sorted, int p99_only);

long long rl_serve_pcts(double *v, long long n, rl_pcts *p, int sorted)
{
    return pcts_of(v, n, p, sorted, 0);
}

static long long pcts_of(double *v, long long n, rl_pcts *p, int sorted, int p99_only)
{
    long long m = 0;
    double sum = 0;
    memset(p, 0, sizeof *p);
    for (long long i = 0; i < n; i++)
        if (isfinite(v[i])) {
            sum += v[i];
            p->max = m == 0 || v[i] > p->max ? v[i] : p->max;
            v[m++] = v[i];
        }
    p->n = m;
    if (m == 0)
        return 0;
    if (sorted)
        qsort(v, (size_t)m, sizeof *v, rl_cmp_double);
    double q[3] = {0.99, 0.9, 0.5}, *o[3] = {&p->p99, &p->p90, &p->p50};
    long long hi = m;
    for (int j = 0; j < (p99_only && !sorted ? 1 : 3); j++) {
        long long k = (long long)ceil(q[j] * (double)m);
        k = (k < 1 ? 1 : k) - 1;
        if (!sorted)
            select_kth(v, hi, k);
        *o[j] = v[k];
        hi = k + 1;
    }
    p->mean = sum / (double)m;
    return m;
}

int rl_serve_holds(double cap, double tokens, int page_tokens)
{
    return tokens + 2.0 * page_tokens <= cap;
}

long long rl_serve_first_unheld(const rl_serve_config *c, const rl_request *req, long long n,
                                double *cap)
{
    *cap = (c->kv_capacity_tokens - c->prefix_hbm_tokens) / rl_serve_kv_share(c, req, n);
    long long i = 0;
    while (i < n && rl_serve_holds(*cap, (double)req[i].prompt + req[i].output, c->page_tokens))
        i++;
    return i;
}

/* The host and network links a run of c moves KV over, and only those
 * (tester33 F1: a continuous run on a spec without host_bw was refused with
 * "kv_bytes_per_token, host_bw, net_bw: must be > 0", no file named): host_bw
 * by swap preemption (make_room, resume_swapped) and the prefix cache's
 * host tier (prefix_lookup), net_bw by disagg's transfers (end_step);
 * a spec leaves either out as 0 (spec.c: MIN1 when given).  0, or -1 with
 * "FILE: field 'F': must be > 0 ..., since USE moves KV over it ...". */
static int check_links(const rl_serve_config *c, char *err, size_t errlen)
{
    const char *field = NULL, *use = NULL;
    if (c->preempt == RL_PREEMPT_SWAP && !(c->host_bw > 0))
        field = "host_bw", use = "swap preemption (--preempt swap) moves a preempted sequence's KV "
                                 "to host memory and back";
    else if (c->prefix_host_tokens > 0 && !(c->host_bw > 0))
        field = "host_bw", use = "the prefix cache's host tier (--prefix-cache HBM:HOST) reads "
                                 "prefixes back";
    else if (c->policy == RL_POLICY_DISAGG && !(c->net_bw > 0))
        field = "net_bw", use = "--policy disagg moves each prompt's KV from a prefill to a "
                                "decode replica";
    if (!field)
        return 0;
    /* 0 given (--set hw.net_bw=0) reads as left out: "must be > 0", not
     * "missing" (tester45 F4) */
    RL_FAIL("%s: field '%s': must be > 0 B/s per chip (a spec that leaves it out reads 0), "
            "since %s over it; give it in the spec or --set hw.%s=B/S",
            c->hw_origin ? c->hw_origin : "the hw spec", field, use, field);
}

/* c is one virtual engine's config; `streams` the pipeline streams (pp) of
 * the replica it came from, 1 when not pipelined (for the error text). */
static int check_config(const rl_serve_config *c, int streams, const rl_request *req, long long n,
                        char *err, size_t errlen)
{
    if (n < 1)
        RL_FAIL("requests: need at least one");
    if (c->policy >= RL_POLICY_COUNT)
        RL_FAIL("policy: unknown");
    if (c->replicas < 1 || (c->policy == RL_POLICY_DISAGG && c->prefill_replicas < 1))
        RL_FAIL("replicas: need at least one replica per pool");
    if (c->max_seqs < 1 || c->max_tokens < 1 || c->page_tokens < 1)
        RL_FAIL("max_seqs, max_tokens, page_tokens: must be >= 1");
    if (!(c->kv_capacity_tokens - c->prefix_hbm_tokens >= c->page_tokens))
        RL_FAIL("kv_capacity: %.0f KV tokens per replica (after %.0f for the prefix cache) hold less "
               "than one page: the weights leave no room",
               c->kv_capacity_tokens - c->prefix_hbm_tokens, c->prefix_hbm_tokens);
    if (c->spec_gamma < 0 || !(c->spec_alpha >= 0 && c->spec_alpha < 1) || c->spec_draft_frac < 0)
        RL_FAIL("spec: gamma >= 0, 0 <= alpha < 1, draft_frac >= 0");
    if (!(c->kv_bytes_per_token > 0))
        RL_FAIL("kv_bytes_per_token: must be > 0, got %g", c->kv_bytes_per_token);
    if (check_links(c, err, errlen) != 0)
        return -1;
    /* the prefix cache's host tier lives in the replica's host memory, its
     * chips x host_bytes (CLOSING33: host_bytes was parsed and read nowhere,
     * so a host tier of any size was taken); a spec without host_bytes
     * leaves it unchecked (the CLI says so); the tier's bytes are HOST_GB's
     * (rl_serve_config_prefix_cache), quoted a replica (x streams) */
    double tier = c->prefix_host_tokens * c->kv_bytes_per_token * (c->kv_copies > 1 ? c->kv_copies : 1);
    if (c->host_bytes > 0 && tier > c->host_bytes * (1 + 1e-9))
        RL_FAIL("%s: field 'host_bytes': the prefix cache's host tier (--prefix-cache HBM:HOST) "
                "of %.4g GB a replica exceeds its host memory, %.4g GB (host_bytes x its chips): "
                "give a smaller HOST or --set hw.host_bytes=B", c->hw_origin ? c->hw_origin
                : "the hw spec", tier * streams / 1e9, c->host_bytes * streams / 1e9);
    double cap;
    long long unheld = rl_serve_first_unheld(c, req, n, &cap);
    for (long long i = 0; i < n; i++) {
        if (req[i].prompt < 1 || req[i].output < 1)
            RL_FAIL("request %lld: prompt and output must be >= 1 token", i);
        if (i == unheld) {
            /* what a user changes, named (tester63 #13; the CLI says more
             * before the run without a pipeline: cli.c kv_room_check) */
            const char *fix = "; give a replica more HBM (more chips, or a larger hbm_bytes), a "
                              "narrower KV dtype (kv fp8 or int8), or shorter requests";
            if (streams > 1)
                RL_FAIL("kv_capacity: request %lld needs %d KV tokens (+ 2 pages of %d), each of "
                        "the replica's %d pipeline streams holds %.0f (1/%d of its KV)%s", i,
                        req[i].prompt + req[i].output, c->page_tokens, streams, cap, streams, fix);
            RL_FAIL("kv_capacity: request %lld needs %d KV tokens (+ 2 pages of %d), a replica "
                    "holds %.0f (%.3g GB of KV after the weights in %s)%s", i,
                    req[i].prompt + req[i].output, c->page_tokens, cap,
                    cap * c->kv_bytes_per_token / 1e9, c->hw_origin ? c->hw_origin : "the hw spec",
                    fix);
        }
        if (i > 0 && req[i].arrival < req[i - 1].arrival)
            RL_FAIL("request %lld: arrivals must be sorted", i);
        if (req[i].prefix_id >= (1 << 22))
            RL_FAIL("request %lld: prefix id %d >= 2^22", i, req[i].prefix_id);
    }
    return 0;
#undef BAD
}

static void sim_free(sim *S)
{
    for (int pool = 0; pool < 2 && S->r; pool++)
        for (int j = pool ? S->nprefill : 0, end = j + S->nused[pool]; j < end; j++) {
            free(S->r[j].heap);
            free(S->r[j].hkey);
            free(S->r[j].pf);
            free(S->r[j].pf_tok);
            free(S->r[j].part);
            free(S->r[j].joined);
            free(S->r[j].run);
            free(S->r[j].lp);
            free(S->r[j].ln);
            free(S->r[j].tier);
        }
    free(S->r);
    free(S->start);
    free(S->rh[0]);
    free(S->rk[0]);
    free(S->rb[0]);
    free(S->rb[1]);
    free(S->rpos);
    free(S->evpos);
    free(S->s);
    free(S->ev);
    free(S->plen);
    free(S->fin_t);
    free(S->ttft_svc);
    free(S->itl_w);
    free(S->t_ready);
    free(S->t_join);
    free(S->xfer_order);
    free(S->link_free);
    free(S->link_last);
    free(S->t_sent);
    free(S->link_order);
    free(S->link_from);
}

size_t rl_serve_bytes_per_request(void)
{
    /* the result's TTFT, TPOT, e2e and the simulator's TTFT service per
     * request; disagg's decode-pool and KV-link queue times and orders */
    return sizeof(rl_request) + sizeof(seq) + sizeof(event) + 7 * sizeof(double) + 3 * sizeof(int);
}

double rl_serve_bytes_with_capacity(long long n)
{
    double per = (double)rl_serve_bytes_per_request(), req = (double)sizeof(rl_request);
    /* the run, or (after it) the requests beside the search's largest sample */
    return fmax((double)n * per, (double)n * req + RL_SERVE_CAPACITY_GROW_MAX * (per + 2 * req));
}

/* Replica j's queues and buffers (prefix-cache lists when caching), on
 * its first request (route).  Returns 0 or -1 (out of memory; sim_free
 * releases what was allocated). */
static int alloc_replica(sim *S, int j)
{
    const rl_serve_config *c = S->c;
    int caching = c->prefix_hbm_tokens > 0 || c->prefix_host_tokens > 0;
    replica *r = &S->r[j];
    r->wait = r->swapped = (fifo){-1, -1};
    r->ahead = r->atail = -1;
    r->kfin_top = LLONG_MAX;
    r->is_prefill = j < S->nprefill;
    /* each grown as the replica takes more (seq_room, itl_join, run_grow) */
    r->joined_cap = SEQ_CAP0;
    r->joined = malloc((size_t)r->joined_cap * sizeof *r->joined);
    r->run_cap = r->run_alloc = RUN_MAX / 8;
    r->run = malloc((size_t)r->run_alloc * sizeof *r->run);
    if (!r->joined || !r->run || seq_room(S, r, 1) != 0)
        return -1;
    if (caching && S->nprefix > 0 && (r->is_prefill || c->policy != RL_POLICY_DISAGG)) {
        r->lp = malloc((size_t)S->nprefix * sizeof *r->lp);
        r->ln = malloc((size_t)S->nprefix * sizeof *r->ln);
        r->tier = calloc((size_t)S->nprefix, 1);
        for (int t = 0; t < 3; t++)
            r->lhead[t] = r->ltail[t] = -1;
        if (!r->lp || !r->ln || !r->tier)
            return -1;
    }
    return 0;
}

/* Request state s as before its arrival, with `need` prompt tokens to
 * prefill: every field 0 but the links and times that read -1 for none. */
static void seq_fresh(seq *s, int need)
{
    s->kfin = s->k0 = 0;
    s->c0 = 0;
    s->need = need;
    s->prefilled = s->gen0 = 0;
    s->hpos = s->prev = s->next = s->qnext = -1;
    s->state = S_WAIT;
    s->itl_pending = s->behind = 0;
    s->t_first = s->t_start = -1;
    s->t_last = 0;
}

/* The simulator's state for n requests req under c, writing into out's
 * per-request arrays.  Returns 0 or -1 (out of memory). */
static int sim_init(sim *S, const rl_request *req, long long n, const rl_serve_config *c,
                    rl_serve_result *out)
{
    S->req = req;
    S->n = n;
    S->c = c;
    S->E = rl_spec_tokens_per_step(c->spec_alpha, c->spec_gamma);
    /* windowed layers: each KV token charged at the workload's share of its
     * full size (rl_serve_kv_share), the pool's tokens so many more */
    double share = rl_serve_kv_share(c, req, n);
    S->cap_pages =
        floor((c->kv_capacity_tokens - c->prefix_hbm_tokens) / share / c->page_tokens);
    if ((c->page_tokens & (c->page_tokens - 1)) == 0)
        S->inv_page = 1.0 / c->page_tokens;
    S->kv_tok = c->kv_bytes_per_token * share;
    S->w1 = req[n - 1].arrival; /* steady-state window: see done() */
    S->warm = (long long)ceil(RL_SERVE_STEADY_FROM * (double)n);
    /* p99 = the ceil(0.99 m)-th smallest of m values (rl_serve_pcts): it exceeds a
     * target once m - ceil(0.99 m) + 1 values do */
    long long m_tpot = 0;
    for (long long i = 0; i < n; i++)
        m_tpot += req[i].output > 1;
    S->ttft_room = c->stop_when_missed && c->slo_ttft > 0 ? n - (long long)ceil(0.99 * (double)n)
                                                          : n;
    S->tpot_room = c->stop_when_missed && c->slo_tpot > 0
                       ? m_tpot - (long long)ceil(0.99 * (double)m_tpot) : n;
    S->nprefill = c->policy == RL_POLICY_DISAGG ? c->prefill_replicas : 0;
    S->nr = S->nprefill + c->replicas;
    for (long long i = 0; i < n; i++)
        if (req[i].prefix_id >= S->nprefix)
            S->nprefix = req[i].prefix_id + 1;
    S->s = malloc((size_t)n * sizeof *S->s);
    S->r = calloc((size_t)S->nr, sizeof *S->r);
    S->start = malloc((size_t)S->nr * sizeof *S->start);
    S->rh[0] = malloc((size_t)S->nr * sizeof *S->rh[0]);
    S->rk[0] = malloc((size_t)S->nr * sizeof *S->rk[0]);
    S->rpos = malloc((size_t)S->nr * sizeof *S->rpos);
    S->evpos = malloc((size_t)S->nr * sizeof *S->evpos);
    S->ev = malloc((size_t)(n + S->nr) * sizeof *S->ev);
    S->kvcap = c->kv_samples > 0 ? 2 * c->kv_samples : 0;
    out->ttft_s = malloc((size_t)n * sizeof(double));
    S->ttft_svc = malloc((size_t)n * sizeof(double));
    S->itl_w = calloc(ITL_BINS, sizeof *S->itl_w);
    out->tpot_s = malloc((size_t)n * sizeof(double));
    out->e2e_s = malloc((size_t)n * sizeof(double));
    out->kv_t = malloc((size_t)(S->kvcap + 1) * sizeof(double));
    out->kv_frac = malloc((size_t)(S->kvcap + 1) * sizeof(double));
    S->plen = calloc((size_t)S->nprefix + 1, sizeof *S->plen);
    S->fin_t = malloc((size_t)n * sizeof *S->fin_t);
    if (!S->fin_t || !S->s || !S->r || !S->start || !S->rh[0] || !S->rk[0] || !S->rpos ||
        !S->evpos || !S->ev || !S->ttft_svc || !S->itl_w || !out->ttft_s || !out->tpot_s || !out->e2e_s || !out->kv_t || !out->kv_frac || !S->plen)
        return -1;
    if (S->nprefill > 0) {
        S->t_ready = malloc((size_t)n * sizeof *S->t_ready);
        S->t_join = malloc((size_t)n * sizeof *S->t_join);
        S->xfer_order = malloc((size_t)n * sizeof *S->xfer_order);
        S->t_sent = malloc((size_t)n * sizeof *S->t_sent);
        S->link_order = malloc((size_t)n * sizeof *S->link_order);
        S->link_from = malloc((size_t)n * sizeof *S->link_from);
        S->link_free = calloc((size_t)S->nprefill, sizeof *S->link_free);
        S->link_last = malloc((size_t)S->nprefill * sizeof *S->link_last);
        if (!S->t_ready || !S->t_join || !S->xfer_order || !S->t_sent ||
            !S->link_order || !S->link_from || !S->link_free || !S->link_last)
            return -1;
        for (long long i = 0; i < n; i++)
            S->t_ready[i] = S->t_join[i] = S->t_sent[i] = NAN;
        for (int j = 0; j < S->nprefill; j++)
            S->link_last[j] = -1;
        /* D decode replicas' receiving links shared by P senders (send_kv) */
        S->link_bw = c->net_bw * fmin(1, (double)c->replicas / S->nprefill);
    }
    S->rh[1] = S->rh[0] + S->nprefill; /* replicas are set up on their first request (route) */
    S->rk[1] = S->rk[0] + S->nprefill;
    for (int pool = 0; pool < 1 + (S->nprefill > 0); pool++) { /* rb: pools of few replicas */
        int count = S->nprefill > 0 ? (pool ? c->replicas : S->nprefill) : S->nr;
        S->rw[pool] = (count + 63) / 64;
        if (count <= RB_MAX && rb_room(S, pool, RB_COUNTS) != 0)
            return -1;
    }
    /* each request's state set field by field: a copy of one fresh state,
     * like a compound literal per request, compiled to a `rep stos` clearing
     * all 88 bytes first, whose start-up cost per request was 6.8% of
     * rl_serve_run's own samples in the README's size search at 200 req/s
     * (simFast) */
    for (long long i = 0; i < n; i++) {
        if ((i & 0xffff) == 0 && rl_interrupted())
            break; /* rl_serve_run says so before any event (1e7 requests: a second here) */
        seq_fresh(&S->s[i], req[i].prompt);
        if (req[i].prefix_id >= 0 && S->plen[req[i].prefix_id] == 0)
            S->plen[req[i].prefix_id] = req[i].prefix_len;
    }
    S->ttft = out->ttft_s;
    S->tpot = out->tpot_s;
    S->e2e = out->e2e_s;
    S->kv_t = out->kv_t;
    S->kv_f = out->kv_frac;
    S->dt_sample = c->kv_samples > 0 ? (req[n - 1].arrival - req[0].arrival) / c->kv_samples : 0;
    if (S->dt_sample <= 0 && c->kv_samples > 0)
        S->dt_sample = 1e-3;
    S->next_sample = req[0].arrival;
    S->tlast = S->t_sys = req[0].arrival;
    return 0;
}

/* Every request arriving at now is queued (next: the first not yet arrived)
 * before an idle replica starts: simultaneous arrivals share its first
 * step.  Arrivals go to the prefill pool, or to every replica. */
static void arrive(sim *S, long long *next, double now)
{
    int pool_n = S->nprefill ? S->nprefill : S->nr;
    const rl_request *req = S->req;
    long long n = S->n;
    int nstart = 0;
    do {
        int ri = route(S, 0, pool_n, 0);
        if (ri < 0)
            return;
        sys_add(S, now, 1);
        q_push(S, &S->r[ri].wait, (int)(*next)++, 0);
        if (S->r[ri].busy)
            cut_run(S, ri, now, 0);
        else if (!S->r[ri].to_start) {
            S->r[ri].to_start = 1;
            S->start[nstart++] = ri;
        }
    } while (*next < n && req[*next].arrival == now);
    for (int k = 0; k < nstart; k++) {
        S->r[S->start[k]].to_start = 0;
        start_step(S, S->start[k], now);
    }
}

/* Request i's KV has reached the decode pool (disagg): the prefill hold
 * (hold_and_send) ends.  Its sender frees the KV and no longer counts it
 * outstanding, so least-outstanding routing there sees each link's queue
 * (send_kv; otherwise every prompt went to the first prefill replica, idle
 * again after 25 ms, and one link carried all the KV), and the room may
 * start a waiting prompt. */
static void release_hold(sim *S, int i, double now)
{
    int from = S->link_from[i];
    replica *r = &S->r[from];
    outstanding_add(S, r, -1);
    r->xfer_held -= S->s[i].need;
    if (!r->busy)
        start_step(S, from, now);
}

/* A step ends (kind 0: the replica starts its next one), or a prefilled
 * request moves to a decode replica (disagg). */
static void handle_event(sim *S, event e, double now)
{
    const rl_serve_config *c = S->c;
    int id = ev_id(e);
    if (ev_kind(e) == 0) {
        commit_run(S, &S->r[id]);
        if (end_step(S, id, now) != 0)
            return; /* out of memory: run_events stops (seq_room) */
        start_step(S, id, now);
        if (!S->r[id].is_prefill)
            peak_kv(S, &S->r[id]);
    } else {
        release_hold(S, id, now);
        int ri = route(S, S->nprefill, c->replicas, 1);
        if (ri < 0)
            return;
        S->s[id].state = S_WAIT;
        S->t_ready[id] = now;
        S->xfer_order[S->nxfer++] = id;
        q_push(S, &S->r[ri].wait, id, 0);
        if (S->r[ri].busy)
            cut_run(S, ri, now, 1);
        else
            start_step(S, ri, now);
    }
}

/* A step time that is not finite (NaN, infinite, or negative: replica_step_time
 * makes those infinite), seen by run_events; rl_serve_run returns -1. */
#define RL_SERVE_BAD_TIME (-4)

/* Arrivals and events in time order until every request is done.  Returns
 * 0 (also out of memory: S->oom), -1 when interrupted (SIGINT/SIGTERM)
 * after *next arrivals, RL_SERVE_STALLED past S->max_events, or
 * RL_SERVE_BAD_TIME at an event time that is not finite. */
/* The progress line (serve.h rl_serve_config.progress): the requests
 * finished since `told` added, or the clock moved on; returns those told. */
static long long tell_progress(const sim *S, long long told)
{
    int requests = S->c->progress == RL_SERVE_PROGRESS_REQUESTS;
    rl_progress_add(requests ? S->completed - told : 0);
    return requests ? S->completed : told;
}

static int run_events(sim *S, long long *next)
{
    const rl_request *req = S->req;
    long long n = S->n;
    double now = req[0].arrival;
    long long told = 0;
    if (S->c->progress == RL_SERVE_PROGRESS_LOADS)
        rl_progress_add(1); /* this run: one load tried */
    for (;;) {
        ev_settle(S); /* a pop that pushed nothing in its place */
        if (!(*next < n || S->nev > 0))
            break;
        if ((++S->events & 0xff) == 0 && rl_interrupted())
            return -1;
        if ((S->events & (RL_SERVE_PROGRESS_EVENTS - 1)) == 0 && S->c->progress)
            told = tell_progress(S, told);
        if (S->events + S->quiet > S->max_events)
            return RL_SERVE_STALLED;
        if (S->ttft_over > S->ttft_room || S->tpot_over > S->tpot_room)
            return RL_SERVE_MISSED;
        if (S->oom)
            return 0; /* rl_serve_run says so */
        double t0 = S->nev > 0 ? ev_time(S->ev[0]) : 0;
        int arrival = *next < n && (S->nev == 0 || req[*next].arrival <= t0);
        double t = arrival ? req[*next].arrival : t0;
        if (!(t < INFINITY)) { /* the one check of every step's time (fixAA: an infinite
                                * step, a missing peak, spun sample_kv forever) */
            S->bad_t = t;
            return RL_SERVE_BAD_TIME;
        }
        S->tlast = now = t;
        if (sample_kv(S, now) != 0)
            return -1;
        if (arrival)
            arrive(S, next, now);
        else
            handle_event(S, ev_pop(S), now);
    }
    return 0;
}

/* A queue keep-up counts (serve.h keep_up): the requests waiting for the
 * whole system's first prefill step (q 0, in arrival order), or, in a
 * disaggregated deployment, for a decode replica's batch once their KV has
 * arrived there (q 1, in the order it arrived), or for their prefill
 * replica's link to the decode pool (q 2, in the order they were queued
 * there: send_kv).  The j-th request to arrive there (queue_req): when it
 * arrived, and when its service there began. */
static long long queue_len(const sim *S, int q)
{
    return q == 0 ? S->n : q == 1 ? S->nxfer : S->nlink;
}

static long long queue_req(const sim *S, int q, long long j)
{
    return q == 0 ? j : q == 1 ? S->xfer_order[j] : S->link_order[j];
}

static double queue_arrival(const sim *S, int q, long long j)
{
    long long i = queue_req(S, q, j);
    return q == 0 ? S->req[i].arrival : q == 1 ? S->t_ready[i] : S->s[i].t_first;
}

static double queue_start(const sim *S, int q, long long j)
{
    long long i = queue_req(S, q, j);
    return q == 0 ? S->s[i].t_start : q == 1 ? S->t_join[i] : S->t_sent[i];
}

/* The end of keep-up's count for one queue (serve.h keep_up): the last
 * arrival in the second half of the steady window [w0, w1] before which
 * every earlier request had started (the waiting queue was empty then: it
 * did not grow over the window, whatever came after); NAN when there is
 * none (keep-up then counts to w1).  Bursty arrivals (gamma, --burst 100)
 * end the window on a clump that an idle server cannot admit in an
 * instant; without this, keep-up failed even at a millionth of the load,
 * and capacity read 0 (tester8 item 4).  Arrivals are in time order
 * (workload.h; the transfer events), so a running maximum of start times
 * says it. */
static double queue_emptied(const sim *S, int q)
{
    double half = S->w0 + 0.5 * (S->w1 - S->w0), started = -INFINITY, end = NAN;
    for (long long j = 0; j < queue_len(S, q); j++) {
        double a = queue_arrival(S, q, j);
        if (a >= half && a <= S->w1 && started <= a)
            end = a;
        started = fmax(started, queue_start(S, q, j));
    }
    return end;
}

/* One queue's keep-up over the steady window: the requests whose service
 * there began over those that arrived there; 1 when none arrived (end: its
 * queue_emptied, which backlog_outpaced reads too). */
static double queue_keep_up(const sim *S, int q, double end)
{
    double arrived = 0, admitted = 0;
    double arrived_by = isnan(end) ? INFINITY : end, admitted_by = isnan(end) ? S->w1 : end;
    for (long long j = 0; j < queue_len(S, q); j++) {
        double a = queue_arrival(S, q, j), t = queue_start(S, q, j);
        arrived += a > S->w0 && a < arrived_by;
        admitted += t > S->w0 && t <= admitted_by;
    }
    return arrived > 0 ? admitted / arrived : 1;
}

/* The coefficient of variation of the requests' prompt or output
 * lengths, whichever is larger, over those whose service at one queue
 * began in (t0, t1]: the spread of their service times (backlog_outpaced). */
static double length_cv(const sim *S, int q, double t0, double t1)
{
    double m[2][3] = {{0}};
    for (long long j = 0; j < queue_len(S, q); j++)
        if (queue_start(S, q, j) > t0 && queue_start(S, q, j) <= t1) {
            const rl_request *rq = &S->req[queue_req(S, q, j)];
            double x[2] = {rq->prompt, rq->output};
            for (int k = 0; k < 2; k++)
                m[k][0]++, m[k][1] += x[k], m[k][2] += x[k] * x[k];
        }
    double cv = 0;
    for (int k = 0; k < 2 && m[k][0] > 1; k++) {
        double mean = m[k][1] / m[k][0], var = fmax(0, m[k][2] / m[k][0] - mean * mean);
        cv = fmax(cv, sqrt(var) / mean);
    }
    return cv;
}

/* Whether the arrivals outpaced a backlogged queue (serve.h
 * backlog_outpaced; q 0: the first prefill step, 1: disagg's decode
 * batch, 2: its KV link, as queue_keep_up): over the second half of the steady window, no
 * arrival found the waiting queue empty (queue_emptied: otherwise a clump
 * of --burst arrivals ending the window, admitted at once after an idle
 * stretch, looks saturated) and every request whose service there began
 * found others waiting behind it at its replica (each admission pass
 * ended full: the system ran at its saturated rate all along), and the arrivals' own rate over that half-window's
 * length exceeds the N admissions there by more than their noise,
 * 1 + 2 cv sqrt(N) (one for the count's ends; cv the lengths' spread: a
 * saturated server's admissions are a renewal count of service times, of
 * relative spread cv / sqrt(N); 2 sigma one-sided).  keep-up's 2% lets
 * a load up to 2% past a fixed-length server's rate pass (tester28 F9:
 * admitted 98.4% at 1.6% over, the backlog growing); this test is exact
 * for it. */
static int backlog_outpaced(const sim *S, int q, double emptied)
{
    const rl_request *req = S->req;
    long long n = S->n, adm = 0;
    double half = S->w0 + 0.5 * (S->w1 - S->w0), span = req[n - 1].arrival - req[0].arrival;
    if (!isnan(emptied)) /* queue_emptied(S, q) */
        return 0;
    for (long long j = 0; j < queue_len(S, q); j++) {
        double t = queue_start(S, q, j);
        if (t > half && t <= S->w1) {
            if (!(S->s[queue_req(S, q, j)].behind >> q & 1))
                return 0; /* the queue ran dry: not saturated there */
            adm++;
        }
    }
    if (adm < 20 || !(span > 0))
        return 0;
    double arrivals = (double)(n - 1) / span * (S->w1 - half);
    return arrivals > (double)adm + 1 + 2 * length_cv(S, q, half, S->w1) * sqrt((double)adm);
}

static double settle_time(double *v, long long n, double f);

/* The time-weighted spread of the count in the system over (t0, w1] about
 * its least-squares line in time (the residual sd: a count that grows
 * steadily has its trend taken out), from its count n0 at t0, the window's
 * arrivals in time order and the completion times done[0..m) sorted. */
static double count_spread(const sim *S, double t0, long long n0, const double *done, long long m)
{
    double T = S->w1 - t0, t = t0, k = (double)n0, s1 = 0, s2 = 0, st = 0;
    long long i = 0, j = 0;
    while (i < S->n && !(S->req[i].arrival > t0))
        i++;
    while (j < m && !(done[j] > t0))
        j++;
    for (;;) {
        double ta = i < S->n ? S->req[i].arrival : INFINITY, td = j < m ? done[j] : INFINITY;
        double next = fmin(fmin(ta, td), S->w1), dt = next - t, mid = 0.5 * (t + next) - t0;
        s1 += k * dt, s2 += k * k * dt, st += k * mid * dt;
        t = next;
        if (!(next < S->w1))
            break;
        if (ta <= td)
            k++, i++;
        else
            k--, j++;
    }
    double mean = s1 / T, var = s2 / T - mean * mean, cov = st / T - mean * 0.5 * T;
    return sqrt(fmax(0, var - cov * cov / (T * T / 12)));
}

/* The ramp of the count in the system from its empty start (serve.h
 * rl_serve_result steady_ramp_s): the time from the first arrival until
 * the count first reaches 1 - RL_SERVE_SETTLE of its time-mean over the
 * steady window's second half (to w1), from the arrivals in time order and
 * the completion times done[0..m) sorted.  Where the step time grows with
 * the batch, each request in the system lengthens every other's latency,
 * so the count approaches its level more slowly than the M/G/infinity
 * transient of the final latencies (e2e_settle_s) says: with steps
 * a + b B over N decode steps a request, d L / d t = q - L / (N (a + b L))
 * relaxes with the time constant T (a + b L) / a, the latency T times the
 * step's growth over the empty step, not T (fixSB: llama3-8b on 100 H100
 * replicas at 26 req/s each, 1000 + 100 tokens, e2e 1.6 s and its settle
 * time 1.5 s, the count still 13% short at 7.6 s of arrivals). */
static double count_ramp(const sim *S, const double *done, long long m)
{
    const rl_request *req = S->req;
    double half = S->w0 + 0.5 * (S->w1 - S->w0), level = 0, t0 = req[0].arrival;
    for (int pass = 0; pass < 2; pass++) {
        double t = t0, k = 0, s1 = 0;
        long long i = 0, j = 0;
        for (;;) {
            double ta = i < S->n ? req[i].arrival : INFINITY, td = j < m ? done[j] : INFINITY;
            double next = fmin(fmin(ta, td), S->w1);
            if (pass == 0 && next > half)
                s1 += k * (next - fmax(t, half));
            if (pass == 1 && k >= (1 - RL_SERVE_SETTLE) * level)
                return t - t0;
            t = next;
            if (!(next < S->w1))
                break;
            if (ta <= td)
                k++, i++;
            else
                k--, j++;
        }
        level = S->w1 > half ? s1 / (S->w1 - half) : 0;
    }
    return S->w1 - t0;
}

/* Whether the requests in the system grew over the steady window beyond
 * what a system that keeps up shows (serve.h backlog_outpaced, its second
 * rule): the arrivals in (t0, w1] less the completions there (the count in
 * the system at w1 less that at t0) exceed RL_SERVE_CAPACITY_TOL of those
 * arrivals (keep-up's 2%) plus the count's resolution (*res, serve.h
 * steady_resolution).  t0 is w0 or, when later, the first arrival plus
 * the settle time of the end-to-end latencies (e2e_settle_s: the count
 * still rises from an empty start until then, by the M/G/infinity
 * transient; a lognormal:300:1 output's run failed at 0.9 x its capacity
 * on that rise, test_serve test_heavy_tail_cli); no verdict when t0 is
 * past the window's middle, nor when an arrival in the window's second
 * half found the system empty (every earlier request complete: a clump of
 * --burst arrivals at the window's end, as queue_emptied).  A server whose
 * steps grow with its backlog (prefill-only requests, each step taking all
 * that wait) empties its waiting queue at every step while the backlog
 * moves into ever longer steps: keep-up, counting admissions, read 1 at
 * 13% past the saturated rate on a 1000-request sample, whose steps
 * reached their token cap only in its last third (issue 14 item 5: 555
 * req/s against 492 saturated).  Completions do not lag that way. */
static int system_grew(const sim *S, double *res, double *ramp)
{
    const rl_request *req = S->req;
    long long n = S->n, arrived = 0, served = 0, at_t0 = 0;
    double half = S->w0 + 0.5 * (S->w1 - S->w0), done_by = -INFINITY;
    int emptied = 0;
    *res = 0;
    double *e2e = S->completed == n ? malloc((size_t)n * sizeof *e2e) : NULL, *done = S->fin_t;
    if (!e2e)
        return 0; /* the run stopped (completed < requests fails it already), or no memory */
    memcpy(e2e, S->e2e, (size_t)n * sizeof *e2e);
    double t0 = fmax(S->w0, req[0].arrival + settle_time(e2e, n, RL_SERVE_SETTLE));
    free(e2e);
    for (long long i = 0; i < n; i++) {
        double a = req[i].arrival, t = a + S->e2e[i] - S->dispatch; /* its completion */
        emptied |= a >= half && a <= S->w1 && done_by <= a;
        done_by = fmax(done_by, t);
        arrived += a > t0 && a <= S->w1;
        served += t > t0 && t <= S->w1;
        at_t0 += (a <= t0) - (t <= t0);
    }
    /* the completion times sorted: kept in the order the requests completed
     * (done, S->fin_t), whose clock never goes back, each by the expression
     * above; an insertion pass puts back any that its rounding left out of
     * order (the same sorted array as a qsort of them, which was 3.5% of the
     * README's size search at 200 req/s) */
    for (long long m = 1; m < n; m++) {
        double t = done[m];
        long long j = m;
        for (; j > 0 && done[j - 1] > t; j--)
            done[j] = done[j - 1];
        done[j] = t;
    }
    *res = 1 + RL_SERVE_GROW_Z * M_SQRT2 * count_spread(S, t0, at_t0, done, n);
    *ramp = count_ramp(S, done, n);
    double grew = (double)(arrived - served);
    return !emptied && t0 < half && grew > RL_SERVE_CAPACITY_TOL * (double)arrived + *res;
}

/* The requests waiting as the arrivals end, and under disagg those that
 * waited longer than their own service to reach their decode batch
 * (serve.h waiting_at_last_arrival, waited_over_service).  A request
 * waits in the prefill queue until its first prefill step (t_start), and
 * under disagg also on its prefill replica's link from its first token
 * until its transfer begins (t_first .. t_sent) and at its decode replica
 * from its KV's arrival until it first joins a batch (t_ready .. t_join);
 * its service to there is its prefill (t_first - t_start) and its
 * transfer (t_ready - t_sent: bytes over the link and net_latency).  A
 * request that ends at its first token has no transfer (NAN times: every
 * comparison false).  Counting the prefill queue alone, a short run on a
 * starved link read "too short to tell" at 1e-7 of its offered rate
 * (tester45 F5). */
static void waiting_at_last(const sim *S, rl_serve_result *out)
{
    double last = S->req[S->n - 1].arrival;
    out->waiting_at_last_arrival = 0;
    out->waited_over_service = 0;
    for (long long i = 0; i < S->n; i++) {
        const seq *s = &S->s[i];
        int waiting = s->t_start < 0 || s->t_start > last;
        if (S->nprefill > 0) {
            double sent = S->t_sent[i], ready = S->t_ready[i], join = S->t_join[i];
            waiting |= (s->t_first <= last && last < sent) || (ready <= last && last < join);
            double wait = s->t_start - S->req[i].arrival + (sent - s->t_first) + (join - ready);
            double svc = s->t_first - s->t_start + (ready - sent);
            out->waited_over_service += isnan(sent) ? S->ttft[i] > 2 * S->ttft_svc[i] : wait > svc;
        }
        out->waiting_at_last_arrival += waiting;
    }
}

/* The steady-state window's rates and keep-up (serve.h steady_*); the
 * whole run's when the window is too short. */
static void steady_window(sim *S, rl_serve_result *out)
{
    const rl_request *req = S->req;
    long long n = S->n;
    double win = S->w1 - S->w0;
    int steady = n >= RL_SERVE_STEADY_MIN && win > 0 && S->win_done >= 20;
    out->steady_valid = steady;
    out->steady_resolution = 0;
    out->steady_req_per_s = steady ? S->win_done / win : out->req_per_s;
    double span = req[n - 1].arrival - req[0].arrival;
    out->keep_up = span > 0 ? out->req_per_s / ((double)(n - 1) / span) : 1;
    /* each queue's queue_emptied, once for keep-up and backlog_outpaced (a
     * pass over every request each: 1.3% of the README's size search at
     * 200 req/s when taken twice) */
    double e[3] = {NAN, NAN, NAN};
    for (int q = 0; steady && q < (S->nprefill > 0 ? 3 : 1); q++)
        e[q] = queue_emptied(S, q);
    if (steady) /* admissions over arrivals in the window: a waiting queue that grows */
        out->keep_up = fmin(queue_keep_up(S, 0, e[0]),
                            S->nprefill > 0
                                ? fmin(queue_keep_up(S, 1, e[1]), queue_keep_up(S, 2, e[2]))
                                : 1);
    out->steady_ramp_s = 0;
    int grew = steady && system_grew(S, &out->steady_resolution, &out->steady_ramp_s);
    int queued = steady && (backlog_outpaced(S, 0, e[0]) ||
                            (S->nprefill > 0 &&
                             (backlog_outpaced(S, 1, e[1]) || backlog_outpaced(S, 2, e[2]))));
    out->backlog_outpaced = queued || grew;
    /* serve.h steady_unramped: the growth alone, inside the count's ramp */
    out->steady_unramped = grew && !queued && out->keep_up >= RL_SERVE_KEEP_UP &&
                           span < RL_SERVE_CAPACITY_RAMP_SPANS * out->steady_ramp_s;
    waiting_at_last(S, out);
    out->steady_out_tokens_per_s = steady ? S->win_tokens / win : out->out_tokens_per_s;
    out->steady_goodput_req_per_s = steady ? S->win_good / win : out->goodput_req_per_s;
}

/* The settle time of the latencies v[0..n) (serve.h e2e_settle_s): the
 * smallest t with sum (v_i - t)+ <= f sum v_i.  The sum is convex,
 * decreasing and linear between values, so a quickselect (a pivot's sum
 * says which side holds t; the values above t only add to the linear
 * part) finds it in O(n) on average.  Reorders v. */
static double settle_time(double *v, long long n, double f)
{
    long long lo = 0, hi = n, nabove = 0;
    double total = 0, above = 0;
    for (long long i = 0; i < n; i++)
        total += v[i];
    double target = f * total;
    while (hi > lo) { /* candidates v[lo, hi); the values above them: nabove, summing to above */
        double piv = v[lo + (hi - lo) / 2], s = 0;
        long long cnt = 0;
        for (long long j = lo; j < hi; j++)
            if (v[j] > piv)
                s += v[j], cnt++;
        int below = above + s - piv * (double)(nabove + cnt) <= target; /* t <= piv */
        long long i = lo;
        for (long long j = lo; j < hi; j++)
            if (below ? v[j] < piv : v[j] <= piv) {
                double x = v[i];
                v[i++] = v[j];
                v[j] = x;
            }
        if (!below) {
            lo = i; /* t > piv: the values up to it add nothing there */
            continue;
        }
        for (long long j = i; j < hi; j++)
            above += v[j], nabove++;
        hi = i;
    }
    return nabove > 0 ? fmax(0, (above - target) / (double)nabove) : 0;
}

/* The latency percentiles; the per-request arrays kept only when asked. */
static void percentiles(sim *S, rl_serve_result *out)
{
    const rl_serve_config *c = S->c;
    long long n = S->n;
    int v = c->verdict_pcts; /* the e2e figures in full: settle_time sums e2e_s in the
                                order the selections leave it */
    pcts_of(out->ttft_s, n, &out->ttft, c->keep_requests, v);
    if (!v)
        rl_serve_pcts(S->ttft_svc, n, &out->ttft_service, 0);
    itl_pcts(S, &out->itl);
    pcts_of(out->tpot_s, n, &out->tpot, c->keep_requests, v);
    rl_serve_pcts(out->e2e_s, n, &out->e2e, c->keep_requests);
    out->e2e_settle_s = settle_time(out->e2e_s, out->e2e.n, RL_SERVE_SETTLE);
    if (c->keep_requests) /* sorted again for the CDF */
        qsort(out->e2e_s, (size_t)out->e2e.n, sizeof *out->e2e_s, rl_cmp_double);
    if (!c->keep_requests) {
        free(out->ttft_s);
        free(out->tpot_s);
        free(out->e2e_s);
        out->ttft_s = out->tpot_s = out->e2e_s = NULL;
    }
}

/* The median of the values v[0..n) that are not NAN (scratch: room for n);
 * NAN when there is none. */
static double median_of(const double *v, long long n, double *scratch)
{
    long long m = 0;
    for (long long i = 0; i < n; i++)
        if (!isnan(v[i]))
            scratch[m++] = v[i];
    if (m == 0)
        return NAN;
    select_kth(scratch, m, m / 2);
    return scratch[m / 2];
}

/* The upper confidence bound on the fraction of the requests [from, n)
 * whose v (NAN: not counted) exceeds target (serve.h RL_SERVE_SLO_TAIL):
 * a cluster of exceedances lasts until a value at or below `low` (the
 * run's median: the backlog behind them cleared); 0 when target <= 0 or
 * none exceeds it. */
static double miss_bound(const double *v, long long from, long long n, double target, double low)
{
    double over = 0, counted = 0, clusters = 0, size = 0, squares = 0;
    for (long long i = from; target > 0 && i < n; i++) {
        if (isnan(v[i]))
            continue;
        counted++;
        if (v[i] > target) {
            clusters += size == 0;
            size++;
            over++;
        } else if (v[i] <= low) { /* the cluster, if any, ends */
            squares += size * size;
            size = 0;
        }
    }
    if (!(over > 0))
        return 0;
    squares += size * size;
    return fmax(over * rl_serve_garwood_upper(clusters) / clusters,
                over + RL_SERVE_SLO_Z * sqrt(squares)) /
           counted;
}

double rl_serve_slo_want(double share)
{
    double want = RL_SERVE_SLO_NONE / RL_SERVE_SLO_TAIL, cap = RL_SERVE_CAPACITY_GROW_MAX;
    /* nondecreasing, and round(share x want) rises by 1 at least each pass
     * until it settles: at most share x cap passes (review36 L1: 8 passes
     * stopped short for shares of 0.7% or more) */
    while (share < RL_SERVE_SLO_TAIL && want < cap) {
        double next = rl_serve_garwood_upper(round(share * want)) / RL_SERVE_SLO_TAIL;
        if (!(next > want))
            break;
        want = fmin(next, cap);
    }
    return want;
}

double rl_serve_garwood_upper(double k)
{
    if (!(k > 0)) /* exact at 0: -ln 0.05 */
        return RL_SERVE_SLO_NONE;
    /* chi2(0.95; 2k + 2) / 2 by Wilson and Hilferty's cube-root
     * approximation (Biometrika 1931): 4.73 at 1 (exact 4.744), 6.28 at 2
     * (6.296), within 0.5% from there */
    double a = k + 1, z = RL_SERVE_SLO_Z;
    return a * pow(1 - 1 / (9 * a) + z / (3 * sqrt(a)), 3);
}

double rl_serve_effective_count(const double *v, long long m)
{
    long long b = m / RL_SERVE_SLO_BATCHES;
    if (b < 2)
        return (double)m;
    double mean = 0, var = 0, window = 0, obm = 0;
    for (long long i = 0; i < m; i++)
        mean += v[i];
    mean /= (double)m;
    for (long long i = 0; i < m; i++)
        var += (v[i] - mean) * (v[i] - mean);
    var /= (double)m;
    for (long long i = 0; i < m; i++) { /* the mean of every window of b, by a running sum */
        window += v[i] - mean;
        if (i >= b)
            window -= v[i - b] - mean;
        if (i >= b - 1)
            obm += (window / (double)b) * (window / (double)b);
    }
    /* Meketon and Schmeiser's estimator of the mean's variance times m */
    obm *= (double)m * (double)b / ((double)(m - b + 1) * (double)(m - b));
    if (!(var > 1e-12 * mean * mean) || !(obm > 0)) /* constant, but for rounding */
        return (double)m;
    return (double)m / fmax(1, obm / var);
}

/* The waits of run S's requests [from, n) with a TTFT, in order into w:
 * each TTFT less its own service (ttft_svc: from its first prefill step's
 * start), the part a queue adds (serve.h RL_SERVE_SLO_NONE; review35 H1);
 * *over: how many TTFTs exceed target.  Returns their count. */
static long long ttft_waits(const sim *S, long long from, double target, double *w,
                            double *over)
{
    long long m = 0;
    *over = 0;
    for (long long i = from; i < S->n; i++)
        if (!isnan(S->ttft[i])) {
            *over += S->ttft[i] > target;
            w[m++] = fmax(0, S->ttft[i] - S->ttft_svc[i]);
        }
    return m;
}

/* The larger of miss_bound's TTFT and TPOT bounds of run S (0 without
 * targets; the plain fraction over them when out of memory) into
 * out->slo_miss_bound; with a TTFT target, the TTFTs after the warm-up and
 * how many exceed it into slo_ttft_counted and slo_ttft_over, and the
 * effective count of their waits (ttft_waits, rl_serve_effective_count)
 * into slo_effective_requests where the waits' 99th percentile reaches
 * RL_SERVE_SLO_NEAR of the target (serve.h RL_SERVE_SLO_NONE; 0, none,
 * otherwise or without memory). */
static void slo_miss_bound(const sim *S, rl_serve_result *out)
{
    const rl_serve_config *c = S->c;
    long long n = S->n;
    const double *v[2] = {S->ttft, S->tpot};
    double target[2] = {c->slo_ttft, c->slo_tpot};
    double *scratch = target[0] > 0 || target[1] > 0 ? malloc((size_t)n * sizeof *scratch) : NULL;
    out->slo_miss_bound = out->slo_effective_requests = 0;
    out->slo_ttft_counted = out->slo_ttft_over = 0;
    for (int k = 0; k < 2; k++)
        if (target[k] > 0) {
            out->slo_miss_bound =
                fmax(out->slo_miss_bound,
                     miss_bound(v[k], S->warm, n, target[k],
                                scratch ? median_of(v[k], n, scratch) : INFINITY));
            if (k > 0 || !scratch)
                continue;
            long long m = ttft_waits(S, S->warm, target[0], scratch, &out->slo_ttft_over);
            out->slo_ttft_counted = (double)m;
            double eff = rl_serve_effective_count(scratch, m);
            long long q = (long long)ceil(0.99 * (double)m) - 1; /* the waits' p99 */
            if (m > 0)
                select_kth(scratch, m, q);
            if (m > 0 && scratch[q] >= RL_SERVE_SLO_NEAR * target[0])
                out->slo_effective_requests = eff;
        }
    free(scratch);
}

/* The fraction of dur that n servers (replicas, links) were busy, their
 * busy time `busy` summed step by step (count_step; send_kv).  Each of a
 * server's steps ends where the next may start, the clock advancing by the
 * same step times (ev_push(now + t)), so busy <= n x dur exactly; in
 * floating point the two are rounded apart: busy the sum of the step
 * times, dur the clock's last event less the first arrival, each step end
 * rounded to the clock.  A replica busy from the first arrival to the last
 * event read 1.0000000000000002 (issue 12: llama3-8b, h100-sxm, 20 req/s,
 * 1500 requests, 89.2 s; one ulp).  A fraction of time is at most 1: the
 * excess is rounding, clamped. */
static double busy_fraction(double busy, double dur, long long n)
{
    return fmin(1.0, busy / (dur * (double)n));
}

/* The result of a finished run: counts, rates, the steady window, SLO
 * attainment and percentiles. */
static void summarize(sim *S, rl_serve_result *out)
{
    const rl_request *req = S->req;
    const rl_serve_config *c = S->c;
    long long n = S->n;
    double dur = S->tlast - req[0].arrival; /* the last event */
    out->requests = n;
    out->completed = S->completed;
    out->duration_s = dur;
    out->steps = S->sums.steps;
    out->decode_steps = S->sums.dsteps;
    out->decode_steps_at_cap = S->sums.dsteps_cap;
    out->decode_steps_at_budget = S->sums.dsteps_tok;
    out->prefill_steps = S->sums.pf_steps;
    out->prefill_parts = S->sums.pf_parts;
    out->quiet_steps = S->quiet;
    out->preemptions = S->preempt;
    out->over_budget = S->over_budget;
    out->kv_freed_tokens = S->freed;
    out->spec_tokens_per_step = S->E;
    const step_sums *u = &S->sums;
    out->mean_decode_batch = u->dsteps ? u->sum_b / (double)u->dsteps : 0;
    out->mean_decode_batch_time = u->sum_dstep > 0 ? u->sum_bt / u->sum_dstep : 0;
    out->mean_decode_context = u->dsteps ? u->sum_ctx / (double)u->dsteps : 0;
    out->mean_decode_step_s = u->dsteps ? u->sum_dstep / (double)u->dsteps : 0;
    out->mean_decode_only_step_s = u->ponly > 0 ? u->sum_ponly / u->ponly : 0;
    out->prefix_hit_rate = S->lookups > 0 ? S->hits / S->lookups : 0;
    out->prefill_tokens_saved = S->saved;
    out->nkv = S->nkv;
    out->kv_peak_frac = S->kv_peak / S->cap_pages;
    out->prefill_kv_peak_frac = S->nprefill > 0 ? S->kv_peak_pf / S->cap_pages : NAN;
    long long good = 0;
    for (long long i = 0; i < n; i++) {
        good += within_slo(c, S->ttft[i], S->tpot[i]);
        out->prefill_tokens_done += req[i].prompt;
    }
    out->prefill_tokens_done -= S->saved;
    if (dur > 0) {
        out->req_per_s = (double)n / dur;
        out->out_tokens_per_s = S->done_tokens / dur;
        out->total_tokens_per_s = (S->done_tokens + out->prefill_tokens_done + S->saved) / dur;
        out->goodput_req_per_s = (double)good / dur;
        out->utilization = busy_fraction(S->sums.busy_s, dur, S->nr);
        out->mean_in_system = (S->area + S->nsys * (S->tlast - S->t_sys)) / dur;
    }
    out->kv_link_utilization =
        S->nprefill == 0 ? NAN : dur > 0 ? busy_fraction(S->link_busy, dur, S->nprefill) : 0;
    out->prefill_utilization =
        S->nprefill == 0 ? NAN : dur > 0 ? busy_fraction(S->pf_busy, dur, S->nprefill) : 0;
    steady_window(S, out);
    out->slo_attainment = (double)good / (double)n;
    out->slo_given = c->slo_ttft > 0 || c->slo_tpot > 0;
    slo_miss_bound(S, out);
    percentiles(S, out);
}

/* The event budget of a run: every step moves at least one token and a
 * request arrives, transfers and completes once, so a run without
 * preemption needs at most sum(prompt + output) + 3n events;
 * RL_SERVE_EVENT_SLACK times that leaves room for recomputed preemptions. */
static unsigned long long event_budget(const rl_request *req, long long n)
{
    double tokens = 0;
    for (long long i = 0; i < n; i++)
        tokens += (double)req[i].prompt + (double)req[i].output;
    return (unsigned long long)(RL_SERVE_EVENT_SLACK * (tokens + 3.0 * (double)n)) + 1000;
}

/* The virtual engines of c's pipelined replicas (serve.h rl_serve_config.pp):
 * pp engines per replica, each with 1/pp of its KV, prefix cache and
 * bandwidths. */
static rl_serve_config virtual_engines(const rl_serve_config *c)
{
    rl_serve_config v = *c;
    double pp = c->pp;
    v.replicas *= c->pp;
    v.prefill_replicas *= c->pp;
    v.kv_capacity_tokens /= pp;
    v.prefix_hbm_tokens /= pp;
    v.prefix_host_tokens /= pp;
    v.host_bw /= pp;
    v.host_bytes /= pp;
    v.net_bw /= pp;
    v.pp = 1;
    return v;
}

/* x to 3 significant digits, rounded up (up) or down: the figure %.3g
 * says, on the side that still holds. */
static double digits3(double x, int up)
{
    double p = pow(10, floor(log10(x)) - 2);
    return (up ? ceil(x / p) : floor(x / p)) * p;
}

int rl_serve_check_horizon(const rl_request *req, long long n, double qps, const char *what,
                           char *err, size_t errlen)
{
    double last = n > 0 ? req[n - 1].arrival : 0;
    if (!(last > RL_SERVE_HORIZON_MAX_S))
        return 0;
    /* the arrivals' rate: the one that drew them, else their own (one
     * request: counted from time 0, where the clock starts; review52: it
     * read "0 req/s" for --requests 1 --qps 1e-9 --seed 9) */
    double span = last - req[0].arrival;
    double rate = qps > 0 ? qps : span > 0 ? (double)(n - 1) / span : (double)n / last;
    /* what brings the last within the bound.  Drawn arrivals are the seed's
     * draws over qps (workload.c), so the same seed at a qps of qps x last
     * / bound or more, whatever n (stop 41: from the arrivals' own rate it
     * read "a rate of at least 2.22e-10 req/s" for that one request drawn
     * at 1e-9, whose arrival then lies later still); a trace's arrival_s
     * scaled down by bound / last or more; and fewer requests where that is
     * fewer than n, counted, not scaled from the last arrival: the requests
     * that arrive within it (a generated workload's first k are the same at
     * --requests k, workload.c; a trace's first k lines; review52) */
    char fix[160], fewer[64] = "";
    if (qps > 0)
        snprintf(fix, sizeof fix, "a qps of at least %.3g req/s (the same seed draws the same "
                 "arrivals, each over the qps)", digits3(qps * last / RL_SERVE_HORIZON_MAX_S, 1));
    else
        snprintf(fix, sizeof fix, "its arrival_s times scaled by %.3g or less",
                 digits3(RL_SERVE_HORIZON_MAX_S / last, 0));
    long long fit = 0;
    while (fit < n && req[fit].arrival <= RL_SERVE_HORIZON_MAX_S)
        fit++;
    if (fit > 0)
        snprintf(fewer, sizeof fewer, " or at most %lld requests", fit);
    RL_FAIL("%s: the last of %lld requests arrives at %.3g s (%s%.3g req/s), where the "
            "simulator's clock (a double) holds a time only to about %.2g s and would quantise the "
            "latencies; it keeps %g s resolution up to %.3g s: %s%s "
            "(serve.h RL_SERVE_HORIZON_MAX_S)", what, n, last, qps > 0 ? "drawn at " : "", rate,
            ldexp(last, -52), RL_SERVE_CLOCK_RESOLUTION_S, RL_SERVE_HORIZON_MAX_S, fix, fewer);
}

int rl_serve_run(const rl_request *req, long long n, const rl_serve_config *c,
                 const rl_step_cost *prefill_cost, const rl_step_cost *decode_cost,
                 rl_serve_result *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    rl_serve_config ve;
    int streams = c->pp > 1 ? c->pp : 1;
    if (c->pp > 1) {
        ve = virtual_engines(c);
        c = &ve;
    }
    if (check_config(c, streams, req, n, err, errlen) != 0)
        return -1;
    sim S;
    memset(&S, 0, sizeof S);
    S.pcost = prefill_cost;
    S.dcost = decode_cost;
    S.dispatch = (c->policy == RL_POLICY_DISAGG ? prefill_cost : decode_cost)->dispatch_s;
    S.longest = prefill_cost->longest || decode_cost->longest ||
                (c->spec_draft && c->spec_draft->longest);
    int rc = -1, missed = 0;
    long long next = 0;
    if (sim_init(&S, req, n, c, out) != 0)
        RL_FAIL_GOTO(done, "simulate: out of memory for %lld requests", n);
    S.max_events = event_budget(req, n);
    int ev = rl_interrupted() ? -1 : run_events(&S, &next); /* a signal during the set-up too */
    if (ev == RL_SERVE_STALLED) {
        snprintf(err, errlen, "simulate: no progress: %llu events for %lld requests (%lld "
                 "preemptions: KV thrashing?); give the replicas more HBM or admit fewer "
                 "sequences (--max-seqs)", S.max_events, n, S.preempt);
        rc = RL_SERVE_STALLED;
        goto done;
    }
    if (ev == RL_SERVE_BAD_TIME)
        RL_FAIL_GOTO(done, "simulate: a step ends at %g s, not a finite time, after %lld of %lld "
                     "arrivals: the step cost gave a step no finite positive time (a peak or "
                     "bandwidth of 0 in the spec?); no result kept", S.bad_t, next, n);
    if (ev == RL_SERVE_MISSED) {
        missed = S.ttft_over > S.ttft_room ? RL_SERVE_MISSED_TTFT : RL_SERVE_MISSED_TPOT;
        snprintf(err, errlen, "simulate: stopped after %lld of %lld arrivals: the %s p99 target "
                 "is missed", next, n, missed == RL_SERVE_MISSED_TTFT ? "TTFT" : "TPOT");
        rc = RL_SERVE_MISSED;
        goto done;
    }
    if (ev != 0 && next < n) /* SIGINT/SIGTERM: stop, keep nothing */
        RL_FAIL_GOTO(done, "simulate: interrupted (%s) after %lld of %lld arrivals; no result kept",
                     rl_interrupt_name(), next, n);
    if (ev != 0) /* every request in: say how far serving them had come */
        RL_FAIL_GOTO(done, "simulate: interrupted (%s) after all %lld arrivals, with %lld of them "
                     "finished; no result kept", rl_interrupt_name(), n, n - (long long)S.nsys);
    if (S.oom)
        RL_FAIL_GOTO(done, "simulate: out of memory for %lld requests", n);
    if (S.completed < n) { /* nothing left to happen, requests unserved: never a result
                            * read from their unset latencies (tester45 F0) */
        snprintf(err, errlen, "simulate: no progress: %lld of %lld requests never finished and "
                 "no event is left to serve them (a replica waits for room nothing frees); "
                 "no result kept", n - S.completed, n);
        rc = RL_SERVE_STALLED;
        goto done;
    }
    summarize(&S, out);
    rc = 0;
done:
    if (c->work)
        *c->work += S.events + S.quiet;
    if (c->seqs_peak && S.seqs_peak > *c->seqs_peak)
        *c->seqs_peak = S.seqs_peak;
    sim_free(&S);
    if (rc != 0)
        rl_serve_result_free(out);
    out->missed = missed; /* which target a stopped run missed (serve.h) */
    return rc;
}

/* rl_serve_run (out) or rl_serve_capacity (qps) with every step costed by
 * the operator list. */
static int with_ops_cost(const rl_model *m, const rl_hw *h, long long chips, rl_precision p,
                         int calibrated, const rl_request *req, long long n,
                         const rl_serve_config *cfg, rl_serve_result *out, double *qps, char *err,
                         size_t errlen)
{
    rl_ops_cost oc;
    if (rl_ops_cost_replica(&oc, m, h, chips, cfg->pp, cfg->ep, cfg->layout, p, calibrated, err,
                            errlen) != 0)
        return -1;
    rl_step_cost cost = rl_serve_ops_cost(&oc);
    int rc = out ? rl_serve_run(req, n, cfg, &cost, &cost, out, err, errlen)
                 : rl_serve_capacity(req, n, cfg, &cost, &cost, *qps, qps, err, errlen);
    rl_ops_cost_free(&oc);
    return rc;
}

int rl_serve_simulate(const rl_model *m, const rl_hw *h, long long chips, rl_precision p,
                      int calibrated, const rl_request *req, long long n,
                      const rl_serve_config *cfg, rl_serve_result *out, char *err, size_t errlen)
{
    return with_ops_cost(m, h, chips, p, calibrated, req, n, cfg, out, NULL, err, errlen);
}

/* Whether run r's own p99s meet c's targets (those given). */
static int p99s_meet(const rl_serve_result *r, const rl_serve_config *c)
{
    return (c->slo_ttft <= 0 || r->ttft.p99 <= c->slo_ttft) &&
           (c->slo_tpot <= 0 || r->tpot.n == 0 || r->tpot.p99 <= c->slo_tpot);
}

/* Whether a run sustained its load: every request completed, completions
 * kept up with arrivals (rl_serve_keeps_up: RL_SERVE_KEEP_UP, and not
 * backlog_outpaced) and the SLOs given hold at p99, with confidence
 * (slo_miss_bound at most RL_SERVE_SLO_TAIL, serve.h: tester29 F4, a p99
 * over a few thousand requests near the knee read low, so a search for
 * the highest load whose sample's p99 met a target ended 5-8% above the
 * M/D/1 capacity). */
static int sustained(const rl_serve_result *r, const rl_serve_config *c)
{
    return r->completed == r->requests && rl_serve_keeps_up(r) && p99s_meet(r, c) &&
           rl_serve_slo_bound(r) <= RL_SERVE_SLO_TAIL;
}

double rl_serve_slo_bound(const rl_serve_result *r)
{
    double eff = r->slo_effective_requests;
    if (!(eff > 0 && r->slo_ttft_counted > 0))
        return r->slo_miss_bound;
    /* the exceedances scaled to effective ones, at Garwood's limit (review35 L1) */
    double k = round(r->slo_ttft_over * eff / r->slo_ttft_counted);
    return fmax(r->slo_miss_bound, rl_serve_garwood_upper(k) / eff);
}

/* The capacity search's verdict on run r at `load` requests/s: sustained(),
 * but under --policy static with a saturation rate (serve.h
 * static_saturation) the load must be at most that rate in place of the
 * keep-up rule.  A static batch runs until its last sequence finishes, so
 * the more requests queue the larger the next batch and the more a replica
 * serves: below saturation the queue stays bounded, and past the knee the
 * served rate follows the offered one over a wide band, where keep-up at
 * each load was decided by the sample's fluctuations (tester20 F8: 4
 * replicas read 15.6, 16.5 and 9.6 req/s at --qps 10, 20 and 30).  The
 * saturation rate, every batch full, is the most static batching serves:
 * a verdict monotone in the load, and the same at every --qps. */
static int sustained_at(const rl_serve_result *r, const rl_serve_config *c, double load)
{
    if (!(c->policy == RL_POLICY_STATIC && c->static_saturation > 0))
        return sustained(r, c);
    rl_serve_result kept = *r;
    kept.keep_up = 1;
    kept.backlog_outpaced = 0;
    return load <= c->static_saturation && sustained(&kept, c);
}

/* The arrivals' own rate, (n - 1) / span; NAN without a span. */
static double own_rate(const rl_request *req, long long n)
{
    double span = n > 1 ? req[n - 1].arrival - req[0].arrival : 0;
    return span > 0 ? (double)(n - 1) / span : NAN;
}

double rl_serve_reached_qps(const rl_request *req, long long n, double qps)
{
    double own = own_rate(req, n);
    return own < qps ? own : qps;
}

double rl_serve_asked_qps(const rl_workload *w)
{
    return w->arrival == RL_ARRIVAL_GAMMA && w->burst_cv > 1 ? 0 : w->qps;
}

double rl_serve_arrival_rate(const rl_request *req, long long n, double qps)
{
    double span = n > 1 ? req[n - 1].arrival - req[0].arrival : 0;
    if (!(span > 0) || (qps > 0 && !(span >= RL_SERVE_INSTANT / qps)))
        return NAN;
    return (double)(n - 1) / span;
}

double rl_serve_judged_qps(const rl_request *req, long long n, const rl_workload *w, double qps)
{
    double own = w && rl_serve_asked_qps(w) == 0 && qps > 0 ? rl_serve_arrival_rate(req, n, qps)
                                                            : NAN;
    return isfinite(own) ? own : rl_serve_reached_qps(req, n, qps);
}

/* The span a run at `load` requests/s needs, over RL_SERVE_CAPACITY_SPANS
 * (serve.h rl_serve_capacity): r's mean end-to-end latency, its settle time
 * (e2e_settle_s), or the span whose steady window's arrivals (the share
 * after RL_SERVE_STEADY_FROM) number steady_resolution over
 * RL_SERVE_CAPACITY_TOL (the growth the keep-up rule tells apart from its
 * count's resolution: serve.c system_grew), whichever is longest. */
static double steady_span(const rl_serve_result *r, double load)
{
    double res = r->steady_resolution /
                 (RL_SERVE_CAPACITY_TOL * (1 - RL_SERVE_STEADY_FROM) * load * RL_SERVE_CAPACITY_SPANS);
    return fmax(fmax(r->e2e.mean, r->e2e_settle_s), load > 0 ? res : 0);
}

/* Whether run r of the n arrivals req lasted long enough for a steady
 * state by the capacity search's rule (rl_serve_capacity): their span,
 * last arrival - first, is at least RL_SERVE_CAPACITY_SPANS times r's mean
 * end-to-end latency or its settle time (e2e_settle_s), whichever is
 * longer.  Only then does keeping up mean the load is sustained: before,
 * a heavy-tailed load keeps up while its long requests build up. */
static int run_settled(const rl_serve_result *r, const rl_request *req, long long n)
{
    double span = n > 1 ? req[n - 1].arrival - req[0].arrival : 0;
    return span > 0 && span >= RL_SERVE_CAPACITY_SPANS * steady_span(r, (double)(n - 1) / span);
}

/* rl_serve_falls_short_beside with the run labelled `label` (serve.h
 * asked_qps: the rate asked for) beside the search's figure, its arrivals
 * `arrived` what its completions are measured against. */
static int falls_short_labelled(const rl_serve_result *r, double arrived, double label,
                                double searched)
{
    return rl_serve_falls_short(r, arrived) &&
           !(r->steady_unramped && searched >= label / (1 + RL_SERVE_CAPACITY_TOL));
}

double rl_serve_capacity_with_run(double searched, const rl_request *req, long long n,
                                  const rl_serve_result *r, const rl_serve_config *c)
{
    double own = own_rate(req, n);
    /* the run's load as the search labels its own (serve.h rl_serve_capacity:
     * the rate asked for, the draw's own rate only without one); its
     * completions are measured against the draw's own arrivals */
    double label = c->asked_qps > 0 && !isnan(own) ? c->asked_qps : own;
    /* a settled run whose own p99s miss a target at its arrivals' rate caps
     * the figure one search step below that rate (tester29 F4: 14.86 req/s
     * beside a run at 14.6 with TTFT p99 1.157 s over 1 s, no note) */
    if (!isnan(searched) && !isnan(own) && c->policy != RL_POLICY_STATIC &&
        r->completed == r->requests && !p99s_meet(r, c) && run_settled(r, req, n))
        return fmin(searched, label / (1 + RL_SERVE_CAPACITY_TOL));
    /* a run that fell measurably short of its arrivals (rl_serve_falls_short,
     * the overload note's rule) caps the figure the same step below them, so
     * the note and the figure never disagree (tester fixIK #1: tiny-test at
     * --qps 27000 over 1e6 requests, arrivals 26966 req/s, read "overloaded"
     * beside a figure of 27063 found on the search's shorter sample); but
     * not a run too short for its count's ramp beside a search that
     * sustained its rate on a sample that outlasted it (tester89 F1:
     * rl_serve_falls_short_beside) */
    if (!isnan(searched) && !isnan(own) && c->policy != RL_POLICY_STATIC &&
        falls_short_labelled(r, own, label, searched))
        return fmin(searched, label / (1 + RL_SERVE_CAPACITY_TOL));
    /* static: the search's saturation rule decides (sustained_at), not the
     * run's keep-up, which passes past the knee by the sample's chance */
    return isnan(searched) || isnan(own) || c->policy == RL_POLICY_STATIC ||
                   !sustained(r, c) || !run_settled(r, req, n)
               ? searched
               : fmax(searched, label);
}

rl_ops_run_mix rl_serve_run_mix(const rl_serve_result *r)
{
    return (rl_ops_run_mix){r->mean_decode_batch_time, r->mean_decode_context,
                            (double)r->decode_steps, (double)r->requests, r->prefill_tokens_done,
                            (double)r->prefill_steps, (double)r->prefill_parts};
}

int rl_serve_falls_short_beside(const rl_serve_result *r, double arrived, double searched)
{
    return falls_short_labelled(r, arrived, arrived, searched);
}

int rl_serve_keeps_up(const rl_serve_result *r)
{
    return r->keep_up >= RL_SERVE_KEEP_UP && !r->backlog_outpaced;
}

int rl_serve_falls_short(const rl_serve_result *r, double arrived)
{
    return r->steady_valid &&
           (r->backlog_outpaced || (r->keep_up < RL_SERVE_KEEP_UP &&
                                    r->steady_req_per_s < (1 - RL_SERVE_CAPACITY_TOL) * arrived));
}

/* A capacity run's verdict (run_scaled). */
typedef struct {
    int ok;      /* sustained */
    int open;    /* not sustained only for want of confidence: every request completed and
                    kept up, the p99s met, the bound on the share over a target not (a longer
                    sample may decide it) */
    int unseen;  /* open with no request over a target (slo_miss_bound 0): the bound is
                    the floor's alone, too few effective requests (serve.h
                    RL_SERVE_LOWER_CONFIDENCE) */
    double e2e;  /* when ok: the mean end-to-end latency or the settle time, the longer */
    double ramp; /* when ok: the count's ramp (rl_serve_result steady_ramp_s), 0 under static */
    double need; /* when ok: the requests a sample at this load needs for its effective
                    ones to show the tail (RL_SERVE_SLO_NONE over them at most
                    RL_SERVE_SLO_TAIL, serve.h), n when it has them */
} verdict;

/* Simulate the first n requests with their arrival gaps divided by `scale`
 * (into `buf`) and judge them (*v), the load labelled scale x q0 (serve.h
 * rl_serve_capacity: q0 the rate asked for, or the sample's own).
 * `locate`: the sample only locates the capacity (serve.h
 * rl_serve_capacity: the first of a search whose figure a sample of v->need
 * requests then confirms), so its verdict leaves out the floor that its
 * effective requests set on the bound (rl_serve_slo_bound).  Returns 0 or -1. */
static int run_scaled(const rl_request *req, long long n, double scale, double q0,
                      rl_request *buf, const rl_serve_config *c, const rl_step_cost *pc,
                      const rl_step_cost *dc, int locate, verdict *v, char *err, size_t errlen)
{
    *v = (verdict){.e2e = NAN, .ramp = 0, .need = (double)n};
    int given = c->run_given && c->run_given_n == n; /* serve.h run_given: these requests */
    for (long long i = 0; i < n; i++) {
        buf[i] = req[i];
        buf[i].arrival = req[0].arrival + (req[i].arrival - req[0].arrival) / scale;
        given = given && !memcmp(&buf[i], &c->run_given_req[i], sizeof buf[i]);
    }
    rl_serve_result r;
    int rc = given ? 0 : rl_serve_run(buf, n, c, pc, dc, &r, err, errlen);
    if (given)
        r = *c->run_given; /* read, never freed here */
    if (rc == RL_SERVE_STALLED || rc == RL_SERVE_MISSED) { /* thrashing, or a target missed */
        err[0] = '\0';
        return 0;
    }
    if (rc != 0)
        return -1;
    double load = (double)(n - 1) / ((req[n - 1].arrival - req[0].arrival) / scale);
    double eff = r.slo_effective_requests;
    double want = rl_serve_slo_want(r.slo_ttft_counted > 0 ? r.slo_ttft_over / r.slo_ttft_counted : 0);
    rl_serve_result judged = r;
    if (locate)
        judged.slo_effective_requests = 0;
    /* static: the load the process asks for against its saturation, not
     * the rate this draw reached (a draw 1.2% light passed 1.005 x the
     * saturation: test_static_capacity_is_saturation) */
    v->ok = sustained_at(&judged, c, scale * q0);
    judged.slo_miss_bound = judged.slo_effective_requests = 0;
    v->open = !v->ok && sustained_at(&judged, c, scale * q0);
    v->unseen = v->open && !(r.slo_miss_bound > 0);
    if (v->ok) /* serve.h: the span a steady state needs */
        v->e2e = c->policy == RL_POLICY_STATIC && c->static_saturation > 0
                     ? fmax(r.e2e.mean, r.e2e_settle_s) /* keep-up not its verdict */
                     : steady_span(&r, load);
    if (v->ok && !(c->policy == RL_POLICY_STATIC && c->static_saturation > 0))
        v->ramp = r.steady_ramp_s;
    if (v->ok && eff > 0 && eff < want) /* the effective requests grow with the sample */
        v->need = ceil((double)n * want / eff);
    if (!given)
        rl_serve_result_free(&r);
    return 0;
}

/* The capacity search's loads (serve.h rl_serve_capacity): lattice point k
 * is g^k times the rate asked for (asked_qps; without one, the sample's own
 * rate), g = 1 + RL_SERVE_CAPACITY_TOL, and runs the sample with its gaps
 * divided by g^k; the lattice point at or below a factor x of that rate. */
static double lattice_scale(long k)
{
    return pow(1 + RL_SERVE_CAPACITY_TOL, (double)k);
}

static long lattice_point(double x)
{
    return (long)floor(log(x) / log1p(RL_SERVE_CAPACITY_TOL) + 1e-9);
}

/* The bracket's next lattice point above k after `ups` loads sustained:
 * `step` points up, doubling after `gallop` of them (serve.h), but a
 * doubled step stops at top_k. */
static long step_up(long k, long step, int ups, int gallop, long top_k)
{
    int over = ups - gallop;
    long up = over > 0 ? step << (over < 24 ? over : 24) : step;
    return k + step > top_k || k + up < top_k ? k + up : top_k;
}

/* The bracket's next lattice point below k after `downs` loads failed:
 * `step` points down, doubling after `gallop` of them (step_up's rule),
 * never past low_k, the floor's point: until stop 54 a single step from
 * within one step above it went past and the search ended null, whatever
 * the floor's own verdict (review of stop 53). */
static long step_down(long k, long step, int downs, int gallop, long low_k)
{
    int over = downs - gallop;
    long down = over > 0 ? step << (over < 24 ? over : 24) : step;
    return k - down > low_k ? k - down : low_k;
}

/* What one search over a sample found: the highest load sustained (*qps, 0
 * or NAN as serve.h says), the lowest load above it that failed (fail, NAN
 * when none), the latency span at *qps and the requests a sample needs
 * there (e2e, need: run_scaled). */
typedef struct {
    double fail, e2e, ramp, need;
    int open;       /* fail failed only for want of confidence (run_scaled) */
    int floor_open; /* the floor probe failed only for want of confidence: *qps NAN */
    int asked_hard; /* a run at or below the sample's own rate (lattice point 0: the load
                       asked for) failed outright */
    int band_open;  /* fail failed only for want of confidence and no load within
                       RL_SERVE_CAPACITY_OPEN_BAND of *qps failed outright (serve.h
                       capacity_unresolved: *qps a pass by the sample's chance; a
                       confirming search that found the load that far up sustained
                       counts it so, as it never steps up), and its run saw requests
                       over a target */
    int band_unseen; /* the same, but fail's run saw none over a target (verdict unseen):
                        *qps stands, a lower bound (serve.h RL_SERVE_LOWER_CONFIDENCE) */
} search_end;

/* The lattice points at which a search's runs failed outright (their p99s
 * missed, or they did not complete or keep up: not merely open), and the
 * highest at which one failed only for want of confidence. */
typedef struct {
    long hard[RL_SERVE_CAPACITY_RUNS + 2], open;
    int nhard;
} search_fails;

static void count_fail(search_fails *f, long k, const verdict *v)
{
    if (v->ok)
        return;
    if (v->open)
        f->open = k > f->open ? k : f->open;
    else if (f->nhard < (int)(sizeof f->hard / sizeof f->hard[0]))
        f->hard[f->nhard++] = k;
}

/* Whether a run failed outright above lattice point lo and within `band`
 * points of it. */
static int hard_within(const search_fails *f, long lo, long band)
{
    for (int i = 0; i < f->nhard; i++)
        if (f->hard[i] > lo && f->hard[i] <= lo + band)
            return 1;
    return 0;
}

/* The floor's lattice point (serve.h): RL_SERVE_CAPACITY_FLOOR of the
 * sample's rate q0 or RL_SERVE_CAPACITY_FLOOR_QPS, whichever is lower. */
static long floor_point(double q0)
{
    long abs_k = lattice_point(RL_SERVE_CAPACITY_FLOOR_QPS / q0);
    long rel_k = lattice_point(RL_SERVE_CAPACITY_FLOOR);
    return abs_k < rel_k ? abs_k : rel_k;
}

/* Whether the floor's point low_k of rate q0 is the absolute floor,
 * RL_SERVE_CAPACITY_FLOOR_QPS (floor_point's lower branch): a load that
 * fails there fails unloaded (serve.h). */
static int floor_is_absolute(long low_k, double q0)
{
    return lattice_scale(low_k) * q0 <= RL_SERVE_CAPACITY_FLOOR_QPS * (1 + 1e-9);
}

/* How a search over a sample runs (search_sample). */
enum {
    SEARCH_LOCATE,  /* the first sample: locates the capacity (run_scaled locate) */
    SEARCH_AGAIN,   /* a grown sample, from the figure of the one before */
    SEARCH_CONFIRM, /* a sample grown only for its effective requests (rl_serve_capacity),
                       from the figure of the one before: the point above it is not checked */
};

/* One search over the first m requests (serve.h rl_serve_capacity), `how`
 * it runs. */
static int search_sample(const rl_request *req, long long m, const rl_serve_config *c,
                         const rl_step_cost *prefill_cost, const rl_step_cost *decode_cost,
                         double hint, int how, double *qps, search_end *end, char *err,
                         size_t errlen)
{
    *qps = end->fail = end->e2e = NAN;
    end->ramp = 0;
    end->need = (double)m;
    end->open = end->floor_open = end->band_open = end->band_unseen = end->asked_hard = 0;
    int again = how != SEARCH_LOCATE, locate = how == SEARCH_LOCATE;
    if (!(req[m - 1].arrival > req[0].arrival))
        return 0;
    /* the label of lattice point 0 (serve.h rl_serve_capacity): the rate
     * asked for, the sample's own rate only without one (a trace) */
    double q0 = c->asked_qps > 0 ? c->asked_qps
                                 : (double)(m - 1) / (req[m - 1].arrival - req[0].arrival);
    rl_request *buf = malloc((size_t)m * sizeof *buf);
    if (!buf)
        return snprintf(err, errlen, "capacity: out of memory"), -1;
    /* bracket on the lattice by stepping the load up or down from the hint's
     * point (by about 1.25, or 2 from the sample's rate without a hint),
     * then bisect the lattice points between.  A hint that is sustained
     * takes the point a step up as failing (the capacity is thought near
     * it) and checks it only when the bisection ends next to it.  Again
     * (serve.h: a grown sample), the steps start at one point and double
     * each time, both ways: the figure moves little */
    long k = hint > 0 ? lattice_point(hint / q0) : 0, lo = 0, hi = 0, k0 = k;
    long base = lattice_point(hint > 0 ? 1.25 : 2), step = again ? 1 : base;
    int gallop = again ? 1 : RL_SERVE_CAPACITY_GALLOP_AFTER;
    /* the stepping down stops below the floor probe's point, the lower of
     * the two floors from the start: the relative one alone (until stop 53)
     * stopped a grown sample's search whose hint, its figure, lay below 1e-6
     * of the sample's rate at its first failing load (fixUG: --qps 1e9 on
     * a 419 req/s replica read null, 455 located on 1000 requests failing
     * on their 4633) */
    long low_k = floor_point(q0);
    long top_k = lattice_point(fmax(1e9, RL_SERVE_CAPACITY_TOP_QPS / q0));
    int hi_open = 0, hi_unseen = 0, rc = 0, runs = 0, ups = 0, downs = 0, has_lo = 0, has_hi = 0, assumed = 0;
    int floored = 0, unloaded_fails = 0, floor_open = 0;
    long band = lattice_point(RL_SERVE_CAPACITY_OPEN_BAND);
    search_fails fails = {.open = LONG_MIN};
    verdict v;
    for (;;) {
        for (; runs < RL_SERVE_CAPACITY_RUNS && !(has_lo && has_hi); runs++) {
            if ((rc = run_scaled(req, m, lattice_scale(k), q0, buf, c, prefill_cost, decode_cost,
                                 locate, &v, err, errlen)))
                break;
            count_fail(&fails, k, &v);
            if (v.ok && hint > 0 && runs == 0)
                assumed = has_hi = 1, hi = k + step, hi_open = 0;
            if (v.ok)
                lo = k, has_lo = 1, k = step_up(k, step, ++ups, gallop, top_k), end->e2e = v.e2e,
                end->ramp = v.ramp, end->need = v.need;
            else /* serve.h: down as up, doubling after `gallop` failed (again: each
                  * step, gallop 1), not past the floor */
                hi = k, has_hi = 1, hi_open = v.open, hi_unseen = v.unseen,
                k = step_down(k, step, ++downs, gallop, low_k);
            if (!has_hi && k > top_k)
                break; /* sustains everything up to offline */
            if (!has_lo && has_hi && hi <= low_k) {
                /* the run that failed was the floor's own load (a step down
                 * stops there): the floor probe's verdict, not run twice */
                floored = 1, floor_open = v.open;
                unloaded_fails = hi == low_k && floor_is_absolute(low_k, q0);
                break; /* no lower load is sustained */
            }
            /* serve.h: unloaded, once every load down to FLOOR_AFTER - 1 steps of
             * `base` below the start failed (the FLOOR_AFTER-th run when
             * stepping by base) */
            if (!has_lo && !floored &&
                hi <= k0 - (RL_SERVE_CAPACITY_FLOOR_AFTER - 1) * base) {
                floored = 1;
                if ((rc = run_scaled(req, m, lattice_scale(low_k), q0, buf, c, prefill_cost,
                                     decode_cost, locate, &v, err, errlen)) || !v.ok) {
                    floor_open = v.open;
                    unloaded_fails = rc == 0 && floor_is_absolute(low_k, q0);
                    break; /* an error, or it fails even unloaded: no lower load is sustained */
                }
                /* sustained: the bracket's foot (until stop 54 the steps went
                 * on down and past it, and a capacity within one step above
                 * the floor read null) */
                lo = low_k, has_lo = 1, end->e2e = v.e2e, end->ramp = v.ramp, end->need = v.need;
            }
        }
        for (; rc == 0 && has_lo && has_hi && hi - lo > 1 && runs < RL_SERVE_CAPACITY_RUNS;
             runs++) {
            long mid = lo + (hi - lo) / 2;
            if ((rc = run_scaled(req, m, lattice_scale(mid), q0, buf, c, prefill_cost, decode_cost,
                                 locate, &v, err, errlen)))
                break;
            count_fail(&fails, mid, &v);
            *(v.ok ? &lo : &hi) = mid;
            if (!v.ok)
                hi_open = v.open, hi_unseen = v.unseen;
            if (v.ok)
                end->e2e = v.e2e, end->ramp = v.ramp, end->need = v.need;
            assumed = assumed && v.ok; /* hi is still the assumed point */
        }
        /* confirming, the point above the figure failed on the shorter sample */
        long up = 0;
        int probe = 0;
        if (!rc && assumed && hi - lo <= 1 && runs < RL_SERVE_CAPACITY_RUNS &&
            how != SEARCH_CONFIRM) {
            assumed = 0; /* the bisection ended below the assumed point: check it */
            up = hi, probe = 1;
        } else if (!rc && has_lo && has_hi && !assumed && hi_open &&
                   !hard_within(&fails, lo, band) && fails.open < lo + band &&
                   runs < RL_SERVE_CAPACITY_RUNS) {
            /* serve.h RL_SERVE_CAPACITY_OPEN_BAND: does a load up there fail outright? */
            up = lo + band, probe = 1;
        }
        if (!probe)
            break;
        rc = run_scaled(req, m, lattice_scale(up), q0, buf, c, prefill_cost, decode_cost, locate,
                        &v, err, errlen);
        runs++;
        if (rc)
            break;
        count_fail(&fails, up, &v);
        if (up == hi)
            hi_open = v.open, hi_unseen = v.unseen;
        if (!v.ok)
            continue; /* the band's check, or nothing more when up == hi */
        if (how == SEARCH_CONFIRM) /* never up (serve.h): band_open, none failed outright */
            break;
        /* sustained after all: step on up */
        lo = up, has_hi = 0, k = up + step, end->e2e = v.e2e, end->ramp = v.ramp,
        end->need = v.need;
    }
    free(buf);
    if (rc == 0 && has_hi) {
        /* failing unloaded only for want of confidence is no capacity of 0:
         * the targets' p99s hold there, and no load decides the bound
         * (serve.h capacity_unresolved) */
        end->floor_open = !has_lo && unloaded_fails && floor_open;
        *qps = has_lo ? lattice_scale(lo) * q0 : unloaded_fails && !floor_open ? 0 : NAN;
        end->fail = lattice_scale(hi) * q0;
        end->open = hi_open && !assumed;
        int in_band = has_lo && end->open && !hard_within(&fails, lo, band);
        end->band_open = in_band && !hi_unseen;
        end->band_unseen = in_band && hi_unseen;
    }
    for (int i = 0; i < fails.nhard; i++)
        end->asked_hard = end->asked_hard || fails.hard[i] <= 0;
    return rc;
}

/* --policy static's saturation rate on the m requests req (serve.h
 * static_saturation): all of them at the first one's arrival, the targets
 * off, requests completed per second (m / (last completion - first
 * arrival)); 0 when the run does not finish (the keep-up rule then
 * decides).  0, or -1 with err. */
static int static_saturation(const rl_request *req, long long m, const rl_serve_config *c,
                             const rl_step_cost *pc, const rl_step_cost *dc, double *sat,
                             char *err, size_t errlen)
{
    rl_request *buf = malloc((size_t)m * sizeof *buf);
    if (!buf)
        return snprintf(err, errlen, "capacity: out of memory"), -1;
    for (long long i = 0; i < m; i++) {
        buf[i] = req[i];
        buf[i].arrival = req[0].arrival;
    }
    rl_serve_config off = *c;
    off.slo_ttft = off.slo_tpot = 0;
    off.stop_when_missed = 0;
    rl_serve_result r;
    int rc = rl_serve_run(buf, m, &off, pc, dc, &r, err, errlen);
    free(buf);
    *sat = 0;
    if (rc == RL_SERVE_STALLED || rc == RL_SERVE_MISSED) {
        err[0] = '\0';
        return 0;
    }
    if (rc != 0)
        return -1;
    *sat = r.completed == r.requests && r.duration_s > 0 ? (double)m / r.duration_s : 0;
    rl_serve_result_free(&r);
    return 0;
}

/* The capacity search's sample of m requests from the n given (serve.h
 * rl_serve_capacity): the first m, or, when m > n, the n given followed by
 * a stationary bootstrap of them (Politis and Romano, "The stationary
 * bootstrap", JASA 89(428), 1994): blocks of consecutive requests, each
 * with the gap before it (the first's: the mean gap), from a uniformly
 * drawn start, wrapping past the last, of geometric length with mean
 * n^(1/3) (the order of the optimal block for a variance or distribution:
 * Hall, Horowitz and Jing, "On blocking rules for the bootstrap with
 * dependent data", Biometrika 82(3), 1995), drawn from a fixed seed (a
 * longer sample's requests extend a shorter one's in order; their arrivals
 * do not, since every drawn gap is scaled by the whole sample's factor),
 * the drawn gaps scaled to the given rate ((n - 1) / span over the whole
 * sample).  Repeating the n as they
 * stand (stop 30) made a periodic sample: its waits' batch means of whole
 * periods agree, so the effective requests counted every repeat (review36
 * L2: M/D/1 seed 8 on 1000 requests, 4017 effective of 10597 where the
 * 1000 held 20-32; the figure 1.12 x the exact).  NULL when out of memory. */
static rl_request *capacity_sample(const rl_request *req, long long n, long long m)
{
    rl_request *s = malloc((size_t)m * sizeof *s);
    if (!s)
        return NULL;
    double span = req[n - 1].arrival - req[0].arrival, gap = span / (double)(n - 1);
    double block = cbrt((double)n), drawn = 0;
    rl_rng rng;
    rl_rng_seed(&rng, RL_SERVE_RESAMPLE_SEED);
    memcpy(s, req, (size_t)n * sizeof *s);
    for (long long i = n, j = n - 1; i < m; i++) {
        if (rl_rng_uniform(&rng) * block < 1) /* a new block, with probability 1 / block */
            j = (long long)(rl_rng_uniform(&rng) * (double)n) % n;
        else
            j = (j + 1) % n;
        drawn += j > 0 ? req[j].arrival - req[j - 1].arrival : gap;
        s[i] = req[j];
        s[i].arrival = drawn;
    }
    /* the last arrival (m - 1) mean gaps after the first */
    double f = drawn > 0 ? ((double)(m - 1) * gap - span) / drawn : 1;
    for (long long i = n; i < m; i++)
        s[i].arrival = req[n - 1].arrival + s[i].arrival * f;
    return s;
}

/* How far the capacity search's samples have grown (next_sample): the
 * growths for the count's ramp, and all the others. */
typedef struct {
    int ramps, grows;
} sample_growth;

/* The capacity search's next sample (serve.h rl_serve_capacity) after a
 * search over m requests ended with `end`, run *how: the requests it
 * needs, or 0 when m suffices or the caps stop it (*unsettled then: its
 * span still short of the steady span, the figure a lower bound); *how:
 * how the next search runs.  The one place that sizes samples, apart from
 * the searches over them (it sat in the search loop as two counters whose
 * exits read as one).  A sample grows, at most to
 * RL_SERVE_CAPACITY_GROW_MAX requests, for
 * - the steady span (serve.h RL_SERVE_CAPACITY_SPANS; steady_span): at
 *   least twice the requests, since a longer sample lengthens the span it
 *   measures (a NAN latency is no evidence to grow on);
 * - an open load above the figure (RL_SERVE_CAPACITY_OPEN_GROWS): twice
 *   the requests, only before any other growth (each costs size about a
 *   third more CPU: stop 29);
 * - a located figure's effective requests (confirming, after the locating
 *   search only: it alone passes a load without them); the next search
 *   steps down from the figure, never up (SEARCH_CONFIRM), when none of
 *   the other reasons holds;
 * these three RL_SERVE_CAPACITY_GROWS times in all; and
 * - the count's ramp (RL_SERVE_CAPACITY_RAMP_SPANS), its own
 *   RL_SERVE_CAPACITY_GROWS times: a growth that serves it counts as its
 *   alone, and a sample that the caps leave short of it alone is not said
 *   a lower bound (fixSB). */
static long long next_sample(long long m, const search_end *end, sample_growth *g, int *how,
                             int *unsettled)
{
    double top = RL_SERVE_CAPACITY_GROW_MAX, twice = 2.0 * (double)m;
    double span = ceil(RL_SERVE_CAPACITY_SPANS * end->fail * end->e2e) + 1;
    double ramp = ceil(RL_SERVE_CAPACITY_RAMP_SPANS * end->fail * end->ramp) + 1;
    int for_span = span > (double)m;
    int for_open = end->open && g->grows < RL_SERVE_CAPACITY_OPEN_GROWS;
    int for_confirm = *how == SEARCH_LOCATE && end->need > (double)m;
    int for_ramp = ramp > (double)m && (double)m < top && g->ramps < RL_SERVE_CAPACITY_GROWS;
    *unsettled = 0;
    if (!(for_span || for_open || for_confirm || for_ramp))
        return 0;
    if (!for_ramp && (!((double)m < top) || g->grows == RL_SERVE_CAPACITY_GROWS)) {
        *unsettled = for_span;
        return 0;
    }
    double want = fmax(fmax(for_span ? span : 0, for_ramp ? ramp : 0),
                       fmax(for_confirm ? end->need : 0, for_span || for_open ? twice : 0));
    *how = for_span || for_open || for_ramp ? SEARCH_AGAIN : SEARCH_CONFIRM;
    *(for_ramp ? &g->ramps : &g->grows) += 1;
    return want < top ? (long long)want : (long long)top;
}

int rl_serve_capacity(const rl_request *req, long long n, const rl_serve_config *cfg,
                      const rl_step_cost *prefill_cost, const rl_step_cost *decode_cost,
                      double hint, double *qps, char *err, size_t errlen)
{
    *qps = NAN;
    if (cfg->capacity_lower_bound)
        *cfg->capacity_lower_bound = 0;
    if (cfg->capacity_repeated)
        *cfg->capacity_repeated = 0;
    if (cfg->capacity_unresolved)
        *cfg->capacity_unresolved = 0;
    if (n < RL_SERVE_STEADY_MIN || !(req[n - 1].arrival > req[0].arrival))
        return 0; /* too few requests for a steady window, or no arrival rate (offline) */
    /* the sample: its size from the requests' own rate, never the hint, so
     * that every start searches the same requests */
    double rate = (double)(n - 1) / (req[n - 1].arrival - req[0].arrival);
    double want = fmin(fmax(RL_SERVE_CAPACITY_REQUESTS, ceil(rate * RL_SERVE_CAPACITY_WINDOW_S)),
                       RL_SERVE_CAPACITY_MAX);
    long long m = (double)n < want ? n : (long long)want;
    rl_serve_config c = *cfg;
    c.kv_samples = 0;
    c.keep_requests = 0;
    c.stop_when_missed = 1; /* only the verdict counts */
    c.no_itl = 1;
    c.verdict_pcts = 1;
    int rc;
    search_end end = {0};
    int how = SEARCH_LOCATE, asked_hard = 0;
    sample_growth grown = {0, 0};
    for (;;) {
        rl_request *sample = m > n ? capacity_sample(req, n, m) : NULL;
        if (m > n && !sample)
            return snprintf(err, errlen, "capacity: out of memory"), -1;
        rc = c.policy == RL_POLICY_STATIC
                 ? static_saturation(sample ? sample : req, m, &c, prefill_cost, decode_cost,
                                     &c.static_saturation, err, errlen)
                 : 0;
        if (rc == 0)
            rc = search_sample(sample ? sample : req, m, &c, prefill_cost, decode_cost, hint, how,
                               qps, &end, err, errlen);
        free(sample);
        asked_hard = asked_hard || (rc == 0 && end.asked_hard);
        if (cfg->capacity_unresolved)
            *cfg->capacity_unresolved = rc == 0 && end.floor_open ? RL_SERVE_UNRESOLVED_FLOOR : 0;
        if (rc || !(*qps > 0) || !isfinite(end.fail))
            break;
        int unsettled;
        long long next = next_sample(m, &end, &grown, &how, &unsettled);
        if (!next) {
            /* short of a steady span at the caps: the figure is a lower bound */
            if (cfg->capacity_lower_bound && unsettled)
                *cfg->capacity_lower_bound = RL_SERVE_LOWER_SPAN;
            break;
        }
        m = next;
        hint = *qps;
    }
    /* serve.h RL_SERVE_CAPACITY_OPEN_BAND: no figure; but under static
     * batching, when the load asked for missed the targets outright, the
     * figure stands: short whatever load of the band resolves */
    int short_static = c.policy == RL_POLICY_STATIC && asked_hard &&
                       *qps < (c.asked_qps > 0 ? c.asked_qps : rate);
    /* serve.h RL_SERVE_LOWER_CONFIDENCE: the figure stands, a lower bound */
    if (rc == 0 && end.band_unseen && cfg->capacity_lower_bound && !*cfg->capacity_lower_bound)
        *cfg->capacity_lower_bound = RL_SERVE_LOWER_CONFIDENCE;
    if (rc == 0 && end.band_open && !short_static) {
        *qps = NAN;
        if (cfg->capacity_unresolved)
            *cfg->capacity_unresolved = RL_SERVE_UNRESOLVED_BAND;
        if (cfg->capacity_lower_bound)
            *cfg->capacity_lower_bound = 0;
    }
    if (cfg->capacity_repeated)
        *cfg->capacity_repeated = m > n && n < RL_SERVE_CAPACITY_REQUESTS;
    return rc;
}

int rl_serve_simulate_capacity(const rl_model *m, const rl_hw *h, long long chips, rl_precision p,
                               int calibrated, const rl_request *req, long long n,
                               const rl_serve_config *cfg, double *qps, char *err, size_t errlen)
{
    return with_ops_cost(m, h, chips, p, calibrated, req, n, cfg, NULL, qps, err, errlen);
}

int rl_serve_capacity_no_slo(const rl_model *m, const rl_hw *h, long long chips, rl_precision p,
                             int calibrated, const rl_request *req, long long n,
                             rl_serve_config *c, double qps, double max_qps, double *free_qps)
{
    double slo[2] = {c->slo_ttft, c->slo_tpot};
    char err[1024];
    *free_qps = NAN;
    if ((slo[0] <= 0 && slo[1] <= 0) || !isfinite(max_qps) || qps <= max_qps)
        return 0;
    rl_progress_phase("capacity search without targets: loads tried", 0);
    double found = qps;
    c->slo_ttft = c->slo_tpot = 0;
    int rc = rl_serve_simulate_capacity(m, h, chips, p, calibrated, req, n, c, &found, err,
                                        sizeof err);
    c->slo_ttft = slo[0];
    c->slo_tpot = slo[1];
    if (rc == 0)
        *free_qps = found;
    return rl_interrupted() ? -1 : 0;
}

void rl_serve_result_free(rl_serve_result *r)
{
    free(r->kv_t);
    free(r->kv_frac);
    free(r->ttft_s);
    free(r->tpot_s);
    free(r->e2e_s);
    memset(r, 0, sizeof *r);
}

/* ---- output ----------------------------------------------------------- */

const char *const RL_SERVE_FIGURES[2] = {"latency_cdf", "kv_occupancy"};

/* Render one figure through plot.c: DIR/NAME.svg from `data` and the
 * template plots/NAME.gp.  Returns 0, RL_PLOT_NO_GNUPLOT or -1. */
static int figure(const char *dir, const char *name, const char *title, const char *data, char *err,
                  size_t errlen)
{
    char out[PATH_MAX + 32], tmpl[64]; /* cli.c held DIR/NAME.svg within rl_plot_check_path */
    snprintf(out, sizeof out, "%s/%s.svg", dir, name);
    snprintf(tmpl, sizeof tmpl, "%s.gp", name);
    return rl_plot_render_titled(AT_FDCWD, tmpl, out, title, data, err, errlen);
}

int rl_serve_write_plots(const rl_serve_result *r, const char *dir, const char *title, int *plotted,
                         char *err, size_t errlen)
{
    *plotted = 0;
    if (!r->ttft_s) {
        snprintf(err, errlen, "plots: per-request latencies were not kept");
        return -1;
    }
    if (rl_mkdir_p(dir, err, errlen) != 0) /* with its parents, as cli.c checked */
        return -1;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return snprintf(err, errlen, "plots: out of memory"), -1;
    /* latency CDFs: quantiles of the sorted arrays, one gnuplot data block each */
    const double *v[3] = {r->ttft_s, r->tpot_s, r->e2e_s};
    long long m[3] = {r->completed, 0, r->completed};
    for (long long i = 0; i < r->completed && isfinite(r->tpot_s[i]); i++)
        m[1]++;
    const char *names[3] = {"TTFT", "TPOT", "end-to-end"};
    for (int k = 0; k < 3; k++) {
        fprintf(f, "# %s: latency_s fraction_of_requests\n", names[k]);
        long long pts = m[k] < 500 ? m[k] : 500;
        for (long long j = 1; j <= pts; j++) {
            long long idx = (long long)ceil((double)j / (double)pts * (double)m[k]) - 1;
            fprintf(f, "%.9g %.6g\n", v[k][idx], (double)(idx + 1) / (double)m[k]);
        }
        fprintf(f, "\n\n");
    }
    if (fclose(f) != 0 || !text)
        return free(text), snprintf(err, errlen, "plots: out of memory"), -1;
    char t1[512];
    snprintf(t1, sizeof t1, "Latency CDF: %s", title);
    int rc = figure(dir, RL_SERVE_FIGURES[0], t1, text, err, errlen);
    free(text);
    if (rc < 0)
        return -1;
    text = NULL;
    if (!(f = open_memstream(&text, &len)))
        return snprintf(err, errlen, "plots: out of memory"), -1;
    fprintf(f, "# t_s kv_fraction\n");
    for (int i = 0; i < r->nkv; i++)
        fprintf(f, "%.9g %.6g\n", r->kv_t[i], r->kv_frac[i]);
    if (fclose(f) != 0 || !text)
        return free(text), snprintf(err, errlen, "plots: out of memory"), -1;
    snprintf(t1, sizeof t1, "KV cache occupancy: %s", title);
    int rc2 = figure(dir, RL_SERVE_FIGURES[1], t1, text, err, errlen);
    free(text);
    if (rc2 < 0)
        return -1;
    *plotted = rc == 0 && rc2 == 0;
    return 0;
}

/* The capacity search's null for want of confidence (serve.h
 * capacity_unresolved, its kind): when even its floor load met the targets'
 * p99s but not their 95% bound (tester46 F1: it read 0, "the targets hold
 * only up to 0 req/s", beside runs meeting at every load: the TTFT tail was
 * the longest prompts' own prefill), or when the load above its figure did
 * and none within RL_SERVE_CAPACITY_OPEN_BAND of it missed them outright
 * (tester47 F8: 0.08-0.98 req/s by the seed beside runs meeting at 1). */
const char *rl_serve_unresolved_reason(int kind, int brief, double burst_cv, const char *cause,
                                       char *buf, size_t len)
{
    /* the two kinds' shared tail, or (brief) a pointer back to it (tester69 #8) */
    const char *tail =
        cause ? cause
        : brief ? "the tail is the requests' own service, as above "
                "(max_sustainable_qps_unresolved)"
              : "the tail is set by the requests' own service (the longest prompts' prefill) "
                "near a target, not by the load, so no load decides it "
                "(max_sustainable_qps_unresolved); the p99s at --qps are the verdict, and a "
                "target with more margin over the longest requests' service gives a figure";
    /* gamma arrivals burstier than Poisson: the tail is the clumps' own
     * queue, which forms at any mean load (cli.c note_overload's "--burst
     * arrivals come in clumps"), each request waiting out the service of the
     * clump ahead of it; not the prompts' prefill (issue 14: fixed 1000-token
     * prompts at --burst 10, TTFT p99 726 ms against a 500 ms target, read
     * "the longest prompts' prefill") */
    char bursty[640];
    if (burst_cv > 1 && !cause) {
        if (brief)
            snprintf(bursty, sizeof bursty, "the tail is --burst %g's clumps queueing, as above "
                     "(max_sustainable_qps_unresolved)", burst_cv);
        else
            snprintf(bursty, sizeof bursty, "the tail is set by burst queueing: --burst %g "
                     "arrivals come in clumps, and a clump's requests wait behind one another "
                     "for this configuration's service time at any mean load, so no load "
                     "decides it (max_sustainable_qps_unresolved); the p99s at --qps are the "
                     "verdict, and a configuration that serves a clump faster, or a target with "
                     "more margin over a clump's wait, gives a figure", burst_cv);
        tail = bursty;
    }
    if (kind == RL_SERVE_UNRESOLVED_BAND)
        snprintf(buf, len, "the targets' p99s hold at the load above the highest that met "
                 "their 95%% bound, but not with 95%% confidence (the upper bound on the share "
                 "of requests over a target above %g%%), and no load up to %g x it misses them "
                 "outright: the share over a target stays near %g%% over a wide band of loads, "
                 "so which load's sample resolves is chance (the figure would move with "
                 "--seed, not a queue's knee): %s",
                 RL_SERVE_SLO_TAIL * 100, RL_SERVE_CAPACITY_OPEN_BAND, RL_SERVE_SLO_TAIL * 100,
                 tail);
    else
        snprintf(buf, len, "even at the search's lowest load (%g req/s or less), with no "
                 "queue, the targets' p99s hold but not with 95%% confidence (the upper bound "
                 "on the share of requests over a target stays above %g%%): %s",
                 RL_SERVE_CAPACITY_FLOOR_QPS, RL_SERVE_SLO_TAIL * 100, tail);
    return buf;
}

int rl_slo_units_note(int tpot, const char *name, const char *assign, double v, char *note,
                      size_t len)
{
    double most = tpot ? RL_SLO_TPOT_NOTE_S : RL_SLO_TTFT_NOTE_S;
    if (!(v > most))
        return 0;
    snprintf(note, len, "%s %g s%s: did you mean milliseconds? targets are in seconds (%s%s%g "
             "for %g ms); a note above %g s", name, v, tpot ? " per token" : "", name, assign,
             v / 1e3, v, most);
    return 1;
}
