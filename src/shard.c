/* shard.c — sharding strategies for prefill and generation (seed 000
 * section 3, Appendices B and C, worked problems 4, 6, 7). */
#include "shard.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arch.h"
#include "memory.h"
#include "ops.h"
#include "roofline.h"
#include "error.h"

rl_shard_plan rl_shard_plan_default(void)
{
    rl_shard_plan p = {1, 0, 1, 1, 1, RL_LAYOUT_1D, RL_KV_BATCH, 0, 0};
    return p;
}

long long rl_shard_plan_chips(const rl_shard_plan *pl)
{
    return pl->tp * pl->ep * pl->sp * pl->pp;
}

long long rl_shard_plan_replicas(long long chips, long long one)
{
    return one > 1 && chips >= one && chips % one == 0 ? chips / one : 0;
}

int rl_shard_plan_is_tp_over(const rl_shard_plan *pl, long long chips)
{
    rl_shard_plan d = rl_shard_plan_default();
    return pl->layout == RL_LAYOUT_1D && pl->tp == chips && pl->ep == 1 && pl->sp == 1 &&
           pl->pp == 1 && (pl->kv == d.kv || pl->kv == rl_kv_split_default(0)) &&
           !pl->attn_replicated && !pl->overlap;
}

rl_kv_split rl_kv_split_default(int ideal) { return ideal ? RL_KV_BATCH : RL_KV_REPLICATE; }

/* fixRE item 1: `batch` splits the KV cache by sequence over the TP chips
 * while the attention weights stay split across them; the engines'
 * attention data parallel (TensorRT-LLM enable_attention_dp, vLLM
 * --data-parallel-size with --enable-expert-parallel) holds the attention
 * weights whole on every chip, as --ep with --moe-attn replicated and
 * simulate --attn-layout attn-dp time it.  DeepSeek-V3 on 8 h200, fp8, at
 * 2048 tokens: --tp 8 --kv-split batch 85.12 GB of weights a chip, --tp 1
 * --ep 8 100.8 GB.  Said so, not called the engines' layout. */
#define KV_BATCH_IS "--kv-split batch splits the KV cache by sequence over the TP chips with " \
                    "the attention weights still split across them, not the engines' attention " \
                    "data parallel, which holds them whole on every chip (--ep N with " \
                    "--moe-attn replicated, simulate --attn-layout attn-dp)"

const char *rl_kv_split_source(rl_kv_split kv, int given, int ideal)
{
    if (given)
        return kv == RL_KV_BATCH ? "given (--kv-split, Lua kv_split); " KV_BATCH_IS
                                 : "given (--kv-split, Lua kv_split)";
    return ideal ? "default under --ideal: seed 000's layout for the Scaling Book's worked "
                   "example (KV by batch beyond the K heads); the engines replicate "
                   "(--kv-split replicate)"
                 : "default: each KV head replicated beyond K chips, as vLLM and TensorRT-LLM "
                   "run plain TP and as simulate and size time it (docs/model.md); "
                   KV_BATCH_IS;
}

const char *rl_phase_name(rl_phase ph) { return ph == RL_PHASE_PREFILL ? "prefill" : "generate"; }


rl_dtype rl_shard_moved_dtype(rl_dtype compute)
{
    return compute == RL_FP32 ? RL_FP32 : RL_BF16;
}

static const char *const KV_NAMES[] = {"replicate", "batch", "seq"};

const char *rl_kv_split_name(rl_kv_split k) { return KV_NAMES[k]; }

int rl_kv_split_parse(const char *s, rl_kv_split *out)
{
    for (int i = 0; i < 3; i++)
        if (strcmp(s, KV_NAMES[i]) == 0) {
            *out = (rl_kv_split)i;
            return 0;
        }
    return -1;
}

int rl_layout_parse(const char *s, rl_layout *out)
{
    if (strcmp(s, "1d") == 0)
        *out = RL_LAYOUT_1D;
    else if (strcmp(s, "2d") == 0)
        *out = RL_LAYOUT_2D;
    else
        return -1;
    return 0;
}

static long long ceil_div(long long a, long long b) { return (a + b - 1) / b; }

/* Appendix B's optimal X: sqrt(tp * D / (2F)) (X = sqrt(N/8) for F = 4D),
 * rounded to the divisor of tp nearest in log scale, at least 2 and at
 * most tp/2 so both axes exist. */
static long long best_x(const rl_model *m, long long tp)
{
    double want = sqrt((double)tp * (double)m->d_model / (2.0 * (double)m->d_ff));
    long long best = 0;
    double bd = 1e300;
    for (long long x = 2; x <= tp / 2; x++) {
        if (tp % x)
            continue;
        double d = fabs(log((double)x / want));
        if (d < bd) {
            bd = d;
            best = x;
        }
    }
    return best;
}

/* Chips the KV cache splits over by heads: min(tp, K); 1 for MLA, whose
 * latent cache every head shares (DeepSeek-V2 section 2.1). */
static long long kv_head_shards(const rl_model *m, long long tp)
{
    if (m->attention == RL_ATTN_MLA)
        return 1;
    return tp < m->kv_heads ? tp : m->kv_heads;
}

int rl_shard_attn_dp(const rl_shard_plan *pl)
{
    return pl->ep > 1 && (pl->attn_replicated || pl->tp <= 1);
}

const char *rl_shard_attn_dp_source(const rl_shard_plan *pl)
{
    return pl->attn_replicated ? "--moe-attn replicated with ep > 1: attention data parallel, each "
                                 "chip attends to its own sequences, holds their KV whole (kv_split "
                                 "batch) and the attention weights whole; --kv-split does not "
                                 "apply"
                               : "tp 1 with ep > 1: attention data parallel, each expert group "
                                 "of one chip attends to its own sequences and holds their KV "
                                 "whole (kv_split batch) and the attention weights whole; --kv-split "
                                 "does not apply";
}

rl_kv_layout rl_shard_kv_layout(const rl_model *m, const rl_shard_plan *pl, int decode)
{
    long long tp = pl->tp > 1 ? pl->tp : 1, ep = pl->ep > 1 ? pl->ep : 1;
    rl_kv_layout k = {ep, tp, 1, 1, decode ? pl->kv : RL_KV_REPLICATE, 1.0};
    if (rl_shard_attn_dp(pl)) { /* every chip its own sequences, all heads */
        k.groups = tp * ep;
        k.tp = 1;
    }
    k.heads = m->abstract ? k.tp : kv_head_shards(m, k.tp);
    k.z = k.tp / k.heads;
    if (k.z > 1 && k.split == RL_KV_REPLICATE)
        k.copies = (double)k.z;
    return k;
}

typedef struct {
    const rl_hw *h;
    int peaks; /* the plan's local step is at the datasheet peaks: the alpha-beta model
                * alone times its collectives (comm.h, ideal mode) */
    rl_shard_result *r;
    char *err;
    size_t errlen;
    int failed;
    /* the last collective timed and its time: a dense layer's two AllReduces
     * move the same bytes over the same chips, timed once (rl_comm_time
     * depends on nothing else; it was 5% of a calibrated tp8 step) */
    int have_last;
    rl_collective last_kind;
    double last_bytes;
    long long last_group, last_stride;
    rl_comm last;
} coll_ctx;

/* Put collective *cm, `count` times a step (`per_layer` a layer, 0: not
 * per layer), into cx's result. */
static void put_coll(coll_ctx *cx, const char *what, const rl_comm *cm, double per_layer,
                     double count)
{
    rl_shard_result *r = cx->r;
    if (r->ncoll == RL_SHARD_MAX_COLL)
        return;
    rl_shard_coll *c = &r->coll[r->ncoll];
    c->c = *cm;
    c->what = what;
    c->per_layer = per_layer;
    c->count = count;
    c->total_s = c->count * c->c.time_s;
    r->comm_s += c->total_s;
    r->latency_bound += c->c.latency_bound;
    r->ncoll++;
}

/* Add a collective: `per_layer` occurrences in each of `layers` layers. */
static void add_coll(coll_ctx *cx, const char *what, rl_collective kind, double bytes,
                     long long group, long long stride, double per_layer, double layers)
{
    if (cx->failed || group <= 1 || per_layer * layers <= 0)
        return;
    if (!(cx->have_last && kind == cx->last_kind && group == cx->last_group &&
          stride == cx->last_stride && !memcmp(&bytes, &cx->last_bytes, sizeof bytes))) {
        if ((cx->peaks ? rl_comm_model_time : rl_comm_time)(cx->h, kind, bytes, group, stride,
                                                             &cx->last, cx->err,
                                                             cx->errlen) != 0) {
            cx->failed = 1;
            return;
        }
        cx->have_last = 1;
        cx->last_kind = kind;
        cx->last_bytes = bytes;
        cx->last_group = group;
        cx->last_stride = stride;
    }
    put_coll(cx, what, &cx->last, per_layer, per_layer * layers);
}

int rl_shard_pp_sends(const rl_hw *h, int peaks, long long stage_chips, long long pp,
                      double bytes, rl_comm c[2], double n[2], char *err, size_t errlen)
{
    long long D = h->domain_chips;
    n[0] = n[1] = 0;
    for (long long b = 1; b < pp; b++) /* stage b-1's last chip and stage b's first */
        n[D > 0 && (b * stage_chips) % D == 0] += 1;
    int (*time)(const rl_hw *, rl_collective, double, long long, long long, rl_comm *, char *,
                size_t) = peaks ? rl_comm_model_time : rl_comm_time;
    memset(c, 0, 2 * sizeof *c);
    if (n[0] > 0 && time(h, RL_P2P, bytes, 2, 1, &c[0], err, errlen) != 0)
        return -1;
    if (n[1] > 0 && time(h, RL_P2P, bytes, 2, D, &c[1], err, errlen) != 0)
        return -1;
    return 0;
}

double rl_shard_pp_send_bytes(const rl_model *m, double rows, rl_dtype moved)
{
    /* hidden state and residual (vLLM IntermediateTensors), rows x d_model each */
    return m->abstract ? 0.0 : 2.0 * rows * (double)m->d_model * rl_dtype_bytes(moved);
}

double rl_shard_sends_s(const rl_shard_result *r)
{
    double sends = 0;
    for (int i = 0; i < r->ncoll; i++)
        sends += r->coll[i].c.kind == RL_P2P ? r->coll[i].total_s : 0.0;
    return sends;
}

int rl_shard_split_of(const rl_hw *h)
{
    const rl_serving_engine *e = h ? rl_engines_selected(&h->engines) : NULL;
    return e && !strcmp(e->name, "trtllm") ? RL_SPLIT_TRTLLM : RL_SPLIT_VLLM;
}

long long rl_shard_stage_layers(long long layers, long long pp, long long s, int split)
{
    if (pp <= 1)
        return layers;
    long long r = layers % pp;
    if (split == RL_SPLIT_TRTLLM) /* stages 0 .. r-1 hold one more */
        return layers / pp + (s < r);
    return layers / pp + (s >= pp - 1 - r && s < pp - 1); /* stages pp-2 .. pp-1-r */
}

/* ceil(layers / pp), the largest stage's layers; 0 when the layers are not
 * split (pp <= 1, abstract, pp > layers: refused by check_plan) or split
 * evenly, where every stage is the largest.  The one equal-stage test of
 * rl_shard_stage_div and rl_shard_pass_scale. */
static long long unequal_stage(const rl_model *m, long long pp)
{
    if (pp <= 1 || m->abstract || m->layers < pp || m->layers % pp == 0)
        return 0;
    return ceil_div(m->layers, pp);
}

double rl_shard_stage_div(const rl_model *m, long long pp)
{
    long long big = unequal_stage(m, pp);
    return big ? (double)m->layers / (double)big : (double)(pp > 1 ? pp : 1);
}

/* Stage s's weights, its layers l .. l+n-1 (rl_shard_stage_weights' rule). */
static double stage_weight(const rl_model *m, long long pp, long long s, long long l, long long n,
                           const double w[4])
{
    long long Ld = m->experts > 0 ? m->dense_layers : 0;
    double L = (double)m->layers;
    double b = w[0] * (double)n / L + (s == 0 ? w[2] : 0) + (s == pp - 1 ? w[3] : 0);
    if (w[1] != 0 && Ld > 0) { /* its dense layers' excess over the layer share */
        long long nd = l >= Ld ? 0 : (l + n <= Ld ? n : Ld - l);
        b += w[1] * ((double)nd - (double)n * (double)Ld / L);
    }
    return b;
}

double rl_shard_stage_weights(const rl_model *m, long long pp, int split, double layered,
                              double dense, double first, double last)
{
    if (pp <= 1 || m->abstract || m->layers < pp)
        return layered + first + last;
    /* every stage: with dense layers (the first dense_layers) the heaviest
     * may be any stage with the most MoE layers (tester34 F9) */
    const double w[4] = {layered, dense, first, last};
    double best = 0;
    for (long long s = 0, l = 0; s < pp; s++) {
        long long n = rl_shard_stage_layers(m->layers, pp, s, split);
        double b = stage_weight(m, pp, s, l, n, w);
        best = b > best ? b : best;
        l += n;
    }
    return best;
}

/* Token-layers of KV stage s (its layers l .. l+n-1) holds of a sequence
 * at `context` tokens, windowed layers capped (stage_kv_div). */
static double stage_held(const rl_model *m, long long l, long long n, double context)
{
    double W = (double)m->sliding_window, held = 0;
    for (long long end = l + n; l < end; l++)
        held += rl_arch_layer_is_local(m, l) && context > W ? W : context;
    return held;
}

/* Whether a sequence's KV at `context` differs from layer to layer. */
static int kv_unequal_layers(const rl_model *m, double context)
{
    return rl_arch_local_layers(m) > 0 && context > (double)m->sliding_window;
}

/* rl_shard_stage_room's x_s for stage s (layers l .. l+n-1): pp n / L
 * (one rounding; exactly 1 with equal stages, rl_shard_stage_scale for
 * the largest), or pp held_s / total with windowed layers above their
 * window (total: the whole model's token-layers). */
static double stage_kv_x(const rl_model *m, long long pp, long long l, long long n,
                         double context, double total)
{
    if (total > 0)
        return (double)pp * stage_held(m, l, n, context) / total;
    return (double)(pp * n) / (double)m->layers;
}

/* The busiest KV stage (tester32 F6), the one rule rl_shard_stage_kv_scale
 * and stage_kv_div read: 1 with *busiest its token-layers of a
 * sequence at `context` (windowed layers capped, stage_held) and *total
 * the whole model's, when the stages' KV is not their layer share (windowed
 * layers above their window: kv_unequal_layers); 0 when it is (pp <= 1, an
 * abstract model, pp > layers, or every layer holding the same KV), the
 * callers' layer share then.  *total sums the layers in order, as
 * rl_shard_stage_room's. */
static int busiest_kv_stage(const rl_model *m, long long pp, int split, double context,
                            double *busiest, double *total)
{
    if (pp <= 1 || m->abstract || m->layers < pp || !kv_unequal_layers(m, context))
        return 0;
    *total = stage_held(m, 0, m->layers, context);
    *busiest = 0;
    for (long long s = 0, l = 0; s < pp; s++) {
        long long n = rl_shard_stage_layers(m->layers, pp, s, split);
        double held = stage_held(m, l, n, context);
        *busiest = held > *busiest ? held : *busiest;
        l += n;
    }
    return 1;
}

double rl_shard_stage_kv_scale(const rl_model *m, long long pp, int split, double context)
{
    double busiest, total;
    if (busiest_kv_stage(m, pp, split, context, &busiest, &total))
        return (double)pp * busiest / total;
    return rl_shard_stage_scale(m, pp);
}

double rl_shard_stage_weight_of(const rl_model *m, long long pp, int split, const double w[4],
                                long long stage)
{
    if (pp <= 1 || m->abstract || m->layers < pp)
        return w[0] + w[2] + w[3];
    long long l = 0;
    for (long long s = 0; s < stage; s++)
        l += rl_shard_stage_layers(m->layers, pp, s, split);
    return stage_weight(m, pp, stage, l, rl_shard_stage_layers(m->layers, pp, stage, split), w);
}

double rl_shard_stage_room(const rl_model *m, const rl_hw *h, long long chips, long long pp,
                           int split, const double w[4], double context, double keep,
                           double budget, long long *stage)
{
    double n = (double)chips;
    long long group = chips / (pp > 1 ? pp : 1);
    if (stage)
        *stage = 0;
    if (pp <= 1 || m->abstract || m->layers < pp) {
        double ws = w[0] + w[2] + w[3];
        return rl_memory_usable_group(h, m, chips, group, ws * n, budget) / n * keep - ws;
    }
    double total = kv_unequal_layers(m, context) ? stage_held(m, 0, m->layers, context) : 0;
    double best = INFINITY;
    for (long long s = 0, l = 0; s < pp; s++) {
        long long k = rl_shard_stage_layers(m->layers, pp, s, split);
        double ws = stage_weight(m, pp, s, l, k, w);
        double room = rl_memory_usable_group(h, m, chips, group, ws * n, budget) / n * keep - ws;
        double per = room / stage_kv_x(m, pp, l, k, context, total);
        if (per < best) {
            best = per;
            if (stage)
                *stage = s;
        }
        l += k;
    }
    return best;
}

/* A sequence's KV at `context` tokens (ideal view: windowed layers hold
 * min(context, window), arch.h) over the busiest stage's: the divisor that
 * takes a sequence's whole KV to what the pipeline stage holding the most
 * KV keeps (tester32 F6), total / busiest of busiest_kv_stage (pp /
 * rl_shard_stage_kv_scale in exact arithmetic: one rule, fixW merged the
 * two loops); rl_shard_stage_div, bit for bit, whenever every layer holds
 * the same KV (no windowed layer, or context <= window). */
static double stage_kv_div(const rl_model *m, long long pp, int split, double context)
{
    double busiest, total;
    if (busiest_kv_stage(m, pp, split, context, &busiest, &total))
        return total / busiest;
    return rl_shard_stage_div(m, pp);
}

/* The micro-batches a pass of seqs sequences keeps in flight over pp
 * stages (pp >= 1): min(seqs, pp), pp for seqs unset (< 1). */
static long long micro_batches(long long pp, long long seqs)
{
    return seqs >= 1 && seqs < pp ? seqs : pp;
}

double rl_shard_pass_scale(const rl_model *m, long long pp, long long seqs)
{
    /* max(1, m / rl_shard_stage_div) in exact arithmetic; written m ceil(L/pp) / L
     * (one rounding) on the same unequal_stage test */
    long long big = unequal_stage(m, pp);
    if (!big)
        return 1.0;
    return fmax(1.0, (double)(micro_batches(pp, seqs) * big) / (double)m->layers);
}

double rl_shard_stage_pass(const rl_model *m, long long pp, int split, long long seqs,
                           double whole, double first, double last)
{
    long long mb = micro_batches(pp > 1 ? pp : 1, seqs);
    if (pp <= 1 || mb <= 1 || m->abstract || m->layers < pp)
        return whole;
    /* the slowest stage: the first, the last, or the largest between them
     * (both splits' middle stages are monotone in s: their ends) */
    double per = (whole - first - last) / (double)m->layers;
    long long mid = 0;
    if (pp > 2) {
        long long a = rl_shard_stage_layers(m->layers, pp, 1, split);
        long long b = rl_shard_stage_layers(m->layers, pp, pp - 2, split);
        mid = a > b ? a : b;
    }
    double t0 = (double)rl_shard_stage_layers(m->layers, pp, 0, split) * per + first;
    double tl = (double)rl_shard_stage_layers(m->layers, pp, pp - 1, split) * per + last;
    double slow = fmax(fmax(t0, tl), (double)mid * per);
    return fmax(whole, (double)mb * slow);
}

double rl_shard_stage_pass_scale(const rl_model *m, const rl_hw *h, const rl_shard_plan *stage,
                                 long long pp, long long chips, long long bm, long long context,
                                 rl_precision p, int calibrated, long long seqs, double whole)
{
    if (pp <= 1)
        return 1.0;
    rl_ops_config c = rl_ops_mixed_config(chips, p, 0, 0, bm, context);
    c.calibrated = calibrated;
    c.tp = stage->tp; /* the local ops' shapes; the collectives are whole's */
    c.ep = stage->ep;
    c.attn_replicated = stage->attn_replicated;
    c.kv_split = stage->kv;
    c.no_collectives = 1;
    rl_ops o;
    char err[256];
    if (m->abstract)
        return rl_shard_pass_scale(m, pp, seqs);
    c.kv_copies = rl_shard_kv_layout(m, stage, 1).copies; /* as simulate's (serve.h) */
    if (rl_ops_build(m, h, &c, &o, err, sizeof err) != 0)
        return rl_shard_pass_scale(m, pp, seqs);
    double first, last;
    rl_ops_stage_ends(&o, &first, &last);
    if (whole == 0) { /* the list's and the stage plan's collectives, as simulate's steps */
        rl_precision moved = p;
        moved.compute = rl_shard_moved_dtype(p.compute);
        rl_shard_result r;
        whole = o.step_s;
        if (stage->tp * stage->ep > 1 &&
            rl_shard_collectives(m, h, stage, RL_PHASE_GENERATE, (double)bm, moved, &r, err,
                                 sizeof err) == 0)
            whole += r.comm_s;
    }
    whole = whole < 0 ? o.step_s : whole;
    return rl_shard_stage_pass(m, pp, rl_shard_split_of(h), seqs, whole, first, last) / whole;
}

double rl_shard_pass_ticks(const rl_model *m, long long pp, long long seqs)
{
    pp = pp > 1 ? pp : 1;
    return fmax(rl_shard_stage_div(m, pp), (double)micro_batches(pp, seqs));
}

double rl_shard_prefill_ticks(const rl_model *m, long long pp, long long seqs)
{
    pp = pp > 1 ? pp : 1;
    /* docs/model.md "Rows in a pipeline": m micro-batches over P stages take
     * m + P - 1 stage times (GPipe's fill and drain; Huang et al. 2019,
     * arXiv:1811.06965, bubble (P - 1) / (m + P - 1)); the first micro-batch's
     * pass is rl_shard_stage_div slowest-stage ticks (P with equal stages) */
    return rl_shard_stage_div(m, pp) + (double)(micro_batches(pp, seqs) - 1);
}

double rl_shard_stage_scale(const rl_model *m, long long pp)
{
    return rl_shard_pass_scale(m, pp, pp);
}

/* r's per-step time columns and FLOPs (rl_shard_scale_stages'), into t. */
#define STAGE_FIELDS 16
static void stage_fields(rl_shard_result *r, double *t[STAGE_FIELDS])
{
    double *f[STAGE_FIELDS] = {&r->flops, &r->weight_load_s, &r->kv_load_s, &r->compute_s,
                               &r->attention_compute_s, &r->kernel_excess_s, &r->local_s,
                               &r->comm_s, &r->tick_s, &r->step_s, &r->table_s, &r->tp_excess_s,
                               &r->band_s[0], &r->band_s[1], &r->band_s[2], &r->band_s[3]};
    memcpy(t, f, sizeof f);
}

void rl_shard_scale_stages(rl_shard_result *r, double f, double layers)
{
    if (f == 1.0 && layers == 1.0)
        return;
    double comm = r->comm_s, local = r->local_s;
    double *t[STAGE_FIELDS];
    stage_fields(r, t);
    for (int i = 0; i < STAGE_FIELDS; i++)
        *t[i] *= f;
    r->comm_s = comm * layers;
    r->local_s = f * local + (f - layers) * comm;
    for (int i = 0; i < r->ncoll; i++) {
        r->coll[i].count *= layers;
        r->coll[i].total_s *= layers;
    }
}

void rl_shard_blend_stages(rl_shard_result *r, const rl_shard_result *lo, double w)
{
    if (w >= 1.0)
        return;
    double *t[STAGE_FIELDS], *u[STAGE_FIELDS];
    stage_fields(r, t);
    stage_fields((rl_shard_result *)lo, u);
    for (int i = 0; i < STAGE_FIELDS; i++)
        *t[i] = w * *t[i] + (1.0 - w) * *u[i];
    for (int i = 0; i < r->ncoll && i < lo->ncoll; i++) { /* the same rows: same plan */
        r->coll[i].c.bytes = w * r->coll[i].c.bytes + (1.0 - w) * lo->coll[i].c.bytes;
        r->coll[i].total_s = w * r->coll[i].total_s + (1.0 - w) * lo->coll[i].total_s;
    }
}

long long rl_shard_micro_batch(const rl_shard_result *r)
{
    return ceil_div(r->replica_batch, r->plan.pp > 1 ? r->plan.pp : 1);
}

/* The micro-batches of a pass of seqs >= 1 sequences over pp >= 1
 * stages (shard.h rl_shard_micro_big): m = min(seqs, pp), seqs / m each,
 * the first seqs mod m of them one more. */
typedef struct {
    long long m, q, rem;
} micro;

static micro micro_split(long long pp, long long seqs)
{
    micro u;
    pp = pp > 1 ? pp : 1;
    seqs = seqs > 1 ? seqs : 1;
    u.m = seqs < pp ? seqs : pp;
    u.q = seqs / u.m;
    u.rem = seqs % u.m;
    return u;
}

double rl_shard_micro_big(const rl_shard_result *r)
{
    micro u = micro_split(r->plan.pp, r->replica_batch);
    return u.rem ? (double)u.rem / (double)u.m : 1.0;
}

/* Sequences (whole) a chip holds of a replica batch of seqs over pp stages,
 * each micro-batch (micro_split) split over `groups` chip groups. */
static double held_seqs(long long pp, long long seqs, long long groups)
{
    micro u = micro_split(pp, seqs);
    return (double)(u.rem * ceil_div(u.q + 1, groups) + (u.m - u.rem) * ceil_div(u.q, groups));
}

/* The pipeline's P-1 sends of a step (rl_shard_pp_sends), one row for
 * those inside a domain and one for those over the network. */
static void add_pp_sends(coll_ctx *cx, double bytes, long long stage_chips, long long pp)
{
    rl_comm c[2];
    double n[2];
    if (cx->failed ||
        rl_shard_pp_sends(cx->h, cx->peaks, stage_chips, pp, bytes, c, n, cx->err, cx->errlen)) {
        cx->failed = 1;
        return;
    }
    static const char *const what[2] = {"stage P2P", "stage P2P (network)"};
    for (int i = 0; i < 2; i++)
        if (n[i] > 0)
            put_coll(cx, what[i], &c[i], 0, n[i]);
}

/* The collectives of one tick of plan `pl` (x: 2D's X axis, resolved) over
 * `tokens` token rows of `bm` sequences at `context` into r's coll, ncoll,
 * comm_s and latency_bound, the layers' counted `f` times (a pass of
 * unequal stages: rl_shard_pass_scale; 1 otherwise); `peaks`: coll_ctx's.
 * 0, or -1 with err set (no interconnect). */
static int add_plan_collectives(const rl_model *m, const rl_hw *h, int peaks,
                                const rl_shard_plan *pl, long long x, int prefill, double tokens,
                                long long bm, long long context, rl_precision p, double f,
                                rl_shard_result *r, char *err, size_t errlen)
{
    long long tp = pl->tp, ep = pl->ep, sp = pl->sp, pp = pl->pp, M = tp * ep;
    double ab = rl_dtype_bytes(p.compute);
    coll_ctx cx = {h, peaks, r, err, errlen, 0, 0, RL_ALLREDUCE, 0, 0, 0, {0}};
    double D = (double)(m->abstract ? 0 : m->d_model);
    double act = tokens / (double)sp * D * ab; /* one [b T, D] activation, bytes */
    /* a step passes every stage's layers: its ticks of the largest stage's
     * (f: rl_shard_pass_scale; the layers themselves with equal stages) */
    double L = (double)(m->abstract ? 1 : m->layers) * f;
    if (!m->abstract) {
        double Hd = (double)m->head_dim, N = (double)m->heads, K = (double)m->kv_heads;
        long long kh = kv_head_shards(m, tp), z = tp / kh;
        double moe_layers = m->experts > 0 ? (double)(m->layers - m->dense_layers) * f : 0.0;
        double dense_layers = L - moe_layers;
        if (pl->layout == RL_LAYOUT_2D) {
            long long yz = tp / x;
            double in = act / (double)x; /* In[B, D_X] */
            add_coll(&cx, "AllGather_YZ in", RL_ALLGATHER, in, yz, 1, 2, L);
            add_coll(&cx, "MLP AllReduce_X", RL_ALLREDUCE,
                     tokens / (double)sp * (double)m->d_ff / (double)yz * ab, x, yz, 1, L);
            add_coll(&cx, "attn AllReduce_X", RL_ALLREDUCE,
                     tokens / (double)sp * (N + 2 * K) * Hd / (double)yz * ab, x, yz, 1, L);
            add_coll(&cx, "ReduceScatter_YZ out", RL_REDUCESCATTER, in, yz, 1, 2, L);
        } else if (ep > 1) {
            /* Each AllToAll runs among the g chips of one stride-spaced
             * group, and the M/g such groups run at once, one per chip of
             * the others' axis.  Its array (comm.h: summed over the group)
             * is the top_k copies of the token rows its g members hold:
             * act*k*g/M.  Replicated attention: each chip holds its own
             * act/M rows (g = M: act*k).  TP-sharded attention: the tp
             * chips of an EP rank hold the same act/ep rows after the
             * AllReduce; each sends its 1/tp of them (else tp identical
             * copies would cross), so the group of ep chips tp apart moves
             * act*k/tp; the TP-split experts then gather their group's
             * rows over tp and reduce-scatter the partial sums, as
             * replicated attention does.  Until stop 43 the TP-sharded case
             * moved act*k per group, tp times the rows (fixKI: DeepSeek-V3
             * tp8 ep2 on 2 H200 nodes, 2000-token prefill: 57.3 MB per NIC
             * a dispatch, 1.147 ms, against 7.17 MB, 0.143 ms). */
            double k = (double)m->top_k;
            double bz = act / (double)(pl->attn_replicated ? M : ep);
            if (!pl->attn_replicated)
                add_coll(&cx, "attn out AllReduce_Y", RL_ALLREDUCE, bz, tp, 1, 1, L);
            long long g = pl->attn_replicated ? M : ep, stride = pl->attn_replicated ? 1 : tp;
            double a2a = act * k * (double)g / (double)M;
            add_coll(&cx, "MoE dispatch", RL_ALLTOALL, a2a, g, stride, 1, moe_layers);
            add_coll(&cx, "expert AllGather_Y", RL_ALLGATHER, act * k / (double)ep, tp, 1, 1,
                     moe_layers);
            add_coll(&cx, "expert ReduceScatter_Y", RL_REDUCESCATTER, act * k / (double)ep, tp,
                     1, 1, moe_layers);
            add_coll(&cx, "MoE combine", RL_ALLTOALL, a2a, g, stride, 1, moe_layers);
            add_coll(&cx, "dense MLP AllReduce_Y", RL_ALLREDUCE, bz, tp, 1, 1, dense_layers);
        } else {
            add_coll(&cx, "attn out AllReduce", RL_ALLREDUCE, act, tp, 1, 1, L);
            add_coll(&cx, "MLP out AllReduce", RL_ALLREDUCE, act, tp, 1, 1, L);
        }
        if (z > 1 && !prefill && !(ep > 1 && pl->attn_replicated)) {
            /* Q of this head group: [B, N/kh, H], moved among the z chips */
            double q = tokens / (double)(ep > 1 ? ep : 1) * N / (double)kh * Hd * ab;
            if (pl->kv == RL_KV_BATCH) {
                add_coll(&cx, "Q AllToAll heads->batch", RL_ALLTOALL, q, z, kh, 1, L);
                add_coll(&cx, "O AllToAll batch->heads", RL_ALLTOALL, q, z, kh, 1, L);
            } else if (pl->kv == RL_KV_SEQ) {
                add_coll(&cx, "Q AllGather (seq)", RL_ALLGATHER, q, z, kh, 1, L);
                add_coll(&cx, "O ReduceScatter (seq)", RL_REDUCESCATTER, q, z, kh, 1, L);
            }
        }
        if (sp > 1) /* ring attention: every chip sees the whole prompt's K and V */
            add_coll(&cx, "KV AllGather (seq)", RL_ALLGATHER,
                     (double)bm * (double)context * rl_arch_kv_elems_per_token_layer(m) /
                         (double)kh * rl_dtype_kv_bytes(p.kv),
                     sp, M, 1, L);
    }
    if (pp > 1) /* a micro-batch's hidden state and residual (rl_shard_pp_send_bytes) */
        add_pp_sends(&cx, rl_shard_pp_send_bytes(m, tokens / (double)sp, p.compute), M * sp, pp);
    return cx.failed ? -1 : 0;
}

int rl_shard_ep_check(const rl_model *m, long long ep, char *err, size_t errlen)
{
    if (ep == 1)
        return 0;
    if (ep < 1)
        RL_FAIL("ep: %lld expert-parallel groups; at least 1", ep);
    if (m->abstract || m->experts == 0)
        RL_FAIL("ep: %lld, but %s has no experts (model field 'experts' %s; ep splits the routed "
                "experts of a MoE model)", ep, m->name,
                m->abstract ? "is absent: an abstract model" : "is 0 or absent: a dense model");
    /* our rule: each group holds experts / ep whole experts (the plan's
     * expert weights per chip, rl_shard_eval, count them so) */
    if (ep > m->experts)
        RL_FAIL("ep: %lld exceeds %s's %lld routed experts (model field 'experts'): each of the "
                "ep groups holds one expert at least", ep, m->name, m->experts);
    if (m->experts % ep != 0)
        RL_FAIL("ep: %lld does not divide %s's %lld routed experts (model field 'experts'): each "
                "of the ep groups holds experts / ep whole experts", ep, m->name, m->experts);
    return 0;
}

int rl_shard_tp_check(const rl_model *m, long long tp, char *err, size_t errlen)
{
    if (tp > m->heads)
        RL_FAIL("tp: %lld exceeds the %lld query heads (N) of %s", tp, m->heads, m->name);
    /* every chip holds heads / tp whole query heads: vLLM refuses any other
     * tp ("Total number of attention heads (N) must be divisible by tensor
     * parallel size (tp)", vllm/config/model.py ModelConfig
     * verify_with_parallel_config); an uneven split was timed as if even
     * (README tester: step --tp 24 on llama3-70b's 64 heads ran) */
    if (m->heads % tp != 0)
        RL_FAIL("tp: %s's %lld attention heads (field 'heads') do not divide by %lld (each of "
                "the tp chips holds heads / tp whole heads; vLLM refuses such a tp)",
                m->name, m->heads, tp);
    if (m->attention != RL_ATTN_MLA && tp % m->kv_heads != 0 && m->kv_heads % tp != 0)
        RL_FAIL("tp: %lld neither divides nor is a multiple of K = %lld KV heads", tp, m->kv_heads);
    /* the MLP's column-parallel gate/up and row-parallel down split the
     * hidden width F tp ways (vLLM's MergedColumnParallelLinear through
     * vllm/distributed/utils.py divide(), which asserts divisibility; its
     * FusedMoE takes intermediate_size // tp per chip): dense layers by
     * d_ff, each routed and shared expert by d_ff_expert */
    if ((m->experts == 0 || m->dense_layers > 0) && m->d_ff % tp != 0)
        RL_FAIL("tp: %s's dense MLP width %lld (field 'd_ff') does not divide by %lld (each of "
                "the tp chips holds d_ff / tp of it)", m->name, m->d_ff, tp);
    if (m->experts > 0 && m->d_ff_expert % tp != 0)
        RL_FAIL("tp: %s's expert width %lld (field 'd_ff_expert') does not divide by %lld (each "
                "of the tp chips holds d_ff_expert / tp of every expert)", m->name,
                m->d_ff_expert, tp);
    return 0;
}

int rl_shard_check_plan(const rl_model *m, const rl_shard_plan *pl, rl_phase phase,
                        long long chips, char *err, size_t errlen)
{
    if (pl->tp < 1 || pl->ep < 1 || pl->sp < 1 || pl->pp < 1)
        RL_FAIL("sharding: tp, ep, sp and pp must be >= 1");
    long long per = pl->tp * pl->ep * pl->sp * pl->pp;
    if (chips % per != 0)
        RL_FAIL("chips: %lld is not a multiple of tp*ep*sp*pp = %lld", chips, per);
    if (!m->abstract) {
        if (rl_shard_tp_check(m, pl->tp, err, errlen) != 0)
            return -1;
        /* stages that do not divide the layers split them as vLLM does
         * (rl_shard_stage_layers; before stop 29 refused); each stage holds
         * a layer at least (TensorRT-LLM mapping.py pp_layers: "pp size
         * cannot be larger than num_hidden_layers") */
        if (pl->pp > m->layers)
            RL_FAIL("pp: %lld pipeline stages exceed the %lld layers of %s (a stage holds one "
                    "layer at least)", pl->pp, m->layers, m->name);
    }
    if (rl_shard_ep_check(m, pl->ep, err, errlen) != 0)
        return -1;
    if (pl->attn_replicated && (m->abstract || m->experts == 0)) /* tester3 #12 */
        RL_FAIL("moe-attn: replicated lays out a MoE model's attention beside its expert "
                "parallelism; %s has no experts", m->name);
    if (pl->sp > 1 && phase != RL_PHASE_PREFILL)
        RL_FAIL("sp: sequence parallelism applies to prefill only (T = 1 in generation; use"
                " --kv-split seq, Lua kv_split = 'seq', to split the KV cache by sequence)");
    if (pl->layout == RL_LAYOUT_2D) {
        if (m->abstract || m->experts > 0)
            RL_FAIL("sharding: 2d weight-stationary is modelled for dense concrete models only");
        if (pl->x != 0 && (pl->x < 1 || pl->tp % pl->x != 0 || pl->x == pl->tp))
            RL_FAIL("x: %lld must divide tp = %lld and leave YZ > 1", pl->x, pl->tp);
        if (pl->x == 0 && best_x(m, pl->tp) == 0)
            RL_FAIL("tp: 2d needs tp >= 4 (two axes of >= 2 chips), got %lld", pl->tp);
    }
    return 0;
}

/* A label built piece by piece into out[n] (n >= 1), cut at n - 1
 * characters as snprintf would cut it: plan_name runs on every calibrated
 * step (callgrind: its five snprintf calls were ~3.5% of `make bench`'s
 * calibrated decode step). */
typedef struct {
    char *out;
    size_t n, k;
} label;

static void label_str(label *b, const char *s)
{
    while (*s && b->k + 1 < b->n)
        b->out[b->k++] = *s++;
    b->out[b->k] = '\0';
}

/* %lld */
static void label_ll(label *b, long long v)
{
    char d[24], *e = d + sizeof d - 1;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    *e = '\0';
    do
        *--e = (char)('0' + u % 10);
    while (u /= 10);
    if (v < 0)
        *--e = '-';
    label_str(b, e);
}

/* Plan label for tables: "tp8 kv=batch", "2d 2x8", "tp4 ep8", "pp4", "... x2". */
static void plan_name(const rl_model *m, const rl_shard_plan *pl, int prefill, long long x,
                      long long replicas, char *out, size_t n)
{
    label b = {out, n, 0};
    label_str(&b, "");
    if (pl->layout == RL_LAYOUT_2D) {
        label_str(&b, "2d ");
        label_ll(&b, x);
        label_str(&b, "x");
        label_ll(&b, pl->tp / x);
    } else {
        label_str(&b, "tp");
        label_ll(&b, pl->tp);
    }
    if (pl->ep > 1) {
        label_str(&b, " ep");
        label_ll(&b, pl->ep);
        label_str(&b, pl->attn_replicated ? " attn=rep" : "");
    }
    if (pl->sp > 1) {
        label_str(&b, " sp");
        label_ll(&b, pl->sp);
    }
    if (!prefill && !m->abstract && pl->tp > kv_head_shards(m, pl->tp) &&
        !(pl->ep > 1 && pl->attn_replicated)) {
        label_str(&b, " kv=");
        label_str(&b, rl_kv_split_name(pl->kv));
    }
    if (pl->pp > 1) {
        label_str(&b, " pp");
        label_ll(&b, pl->pp);
    }
    if (replicas > 1) {
        label_str(&b, " x");
        label_ll(&b, replicas);
    }
}

void rl_shard_slowest_share(rl_shard_result *r, const rl_shard_result *lo)
{
    if (!(lo->step_s > r->step_s))
        return;
    rl_shard_result big = *r;
    *r = *lo; /* the slowest replica's time, terms and collectives */
    r->batch = big.batch;
    r->replica_batch = big.replica_batch;
    r->weight_bytes = big.weight_bytes; /* what the fullest chip holds */
    r->kv_bytes = big.kv_bytes;
    r->total_bytes = big.total_bytes;
    r->fits = big.fits;
    r->kv_seq_chip = big.kv_seq_chip;
    r->kv_groups = big.kv_groups;
    memcpy(r->stage_w, big.stage_w, sizeof r->stage_w);
    r->kv_room = big.kv_room;
    r->kv_stage = big.kv_stage;
    r->tokens_per_s = (double)big.batch / r->step_s;
    r->tokens_per_s_per_chip = r->tokens_per_s / (double)r->chips;
}

double rl_shard_step_tokens(const rl_shard_result *r, long long batch)
{
    if (r->phase == RL_PHASE_PREFILL)
        return 0;
    long long reps = r->replicas > 0 ? r->replicas : 1, pp = r->plan.pp > 1 ? r->plan.pp : 1;
    return (double)ceil_div(ceil_div(batch, reps), pp);
}

/* rl_shard_chip_room with the workspace at a per-step token budget
 * (memory.h rl_memory_usable_group; 0: the rule's own). */
static double chip_room_at(const rl_model *m, const rl_hw *h, const rl_shard_result *r,
                           double budget)
{
    long long n = r->replicas > 0 ? r->chips / r->replicas : 1; /* one replica's chips */
    long long pp = r->plan.pp > 1 ? r->plan.pp : 1; /* a stage's chips share the collectives */
    return rl_memory_usable_group(h, m, n, n / pp, r->weight_bytes * (double)n, budget) /
           (double)n;
}

double rl_shard_chip_room(const rl_model *m, const rl_hw *h, const rl_shard_result *r)
{
    return chip_room_at(m, h, r, rl_shard_step_tokens(r, r->batch));
}

double rl_shard_chip_room_rule(const rl_model *m, const rl_hw *h, const rl_shard_result *r)
{
    return chip_room_at(m, h, r, 0);
}

/* The KV room a chip of r's plan has at a per-step token budget: a
 * pipeline's each stage in its own room (rl_shard_stage_room) in the
 * busiest KV stage's bytes, else the chip's room less its weights; the
 * stage that binds into *stage (may be NULL).  r->kv_room at r's own step
 * tokens (eval_pass), rl_shard_max_batch's at each batch it tries. */
static double plan_kv_room(const rl_model *m, const rl_hw *h, const rl_shard_result *r,
                           double budget, long long *stage)
{
    long long pp = r->plan.pp;
    if (pp > 1 && !m->abstract) {
        int split = rl_shard_split_of(h);
        long long chips = r->plan.tp * r->plan.ep * r->plan.sp * pp;
        return rl_shard_stage_room(m, h, chips, pp, split, r->stage_w, (double)r->context, 1.0,
                                   budget, stage) *
               rl_shard_stage_kv_scale(m, pp, split, (double)r->context);
    }
    if (stage)
        *stage = 0;
    return chip_room_at(m, h, r, budget) - r->weight_bytes;
}

/* The most sequences (all replicas) a chip's KV room `room` holds (rl_shard_max_batch). */
static long long max_batch_in(const rl_shard_result *r, double room)
{
    if (!(room > 0) || !(r->kv_seq_chip > 0))
        return 0;
    double n = floor(room / r->kv_seq_chip), b = n * (double)r->kv_groups;
    if (r->plan.pp > 1 && r->kv_groups > 1 && b < RL_MAX_BATCH) {
        /* a pipeline's micro-batches each split over the groups (plan_kv,
         * held_seqs): the largest batch whose chips hold at most n; at
         * most pp x groups below n groups (each micro-batch rounds up
         * less than one) */
        long long B = (long long)b;
        while (B > 0 && held_seqs(r->plan.pp, B, r->kv_groups) > n)
            B--;
        b = (double)B;
    }
    b *= (double)r->replicas;
    return b > RL_MAX_BATCH ? (long long)RL_MAX_BATCH : (long long)b;
}

/* A plan result and its chip (rl_shard_max_batch's rl_memory_batch_fit). */
typedef struct {
    const rl_model *m;
    const rl_hw *h;
    const rl_shard_result *r;
} plan_fit;

/* Whether `batch` sequences fit r's plan with the workspace at the tokens
 * of its own step (rl_memory_batch_fit's `fits`). */
static int plan_fits_at(const void *ctx, long long batch)
{
    const plan_fit *f = ctx;
    double room = plan_kv_room(f->m, f->h, f->r, rl_shard_step_tokens(f->r, batch), NULL);
    return batch <= max_batch_in(f->r, room);
}

long long rl_shard_max_batch(const rl_model *m, const rl_hw *h, const rl_shard_result *r)
{
    if (r->phase == RL_PHASE_PREFILL)
        return -1;
    long long hi = max_batch_in(r, plan_kv_room(m, h, r, 0, NULL));
    plan_fit f = {m, h, r};
    return rl_memory_batch_fit(h, hi, rl_shard_step_tokens(r, hi), plan_fits_at, &f);
}

/* Weights per chip of plan pl in p.weights, the kept classes (arch.h
 * rl_arch_kept_params) in rl_dtype_kept's dtype: what a chip stores into
 * r->weight_bytes; returns what one tick over `tokens` token rows of the
 * replica reads (bytes). */
static double plan_weights(const rl_model *m, const rl_arch_counts *c, const rl_shard_plan *pl,
                           int split, rl_precision p, double tokens, rl_shard_result *r)
{
    long long M = pl->tp * pl->ep; /* model-parallel chips of one stage */
    /* the largest stage's share (rl_shard_stage_div: pp with equal stages) */
    double P = rl_shard_stage_div(m, pl->pp), Mtp = (double)pl->tp;
    rl_params pc = c->params;
    double stored, read, kept = 0, kept_read = 0; /* in rl_dtype_kept's dtype */
    if (m->abstract) {
        stored = pc.total / (double)(M * pl->pp);
        read = stored;
    } else {
        double D = (double)m->d_model, H = (double)m->head_dim, L = (double)m->layers;
        double K = (double)m->kv_heads;
        /* K/V projections shard over at most K chips; MLA's down-projections
         * are whole on every chip (rl_arch_tp_replicated_params); the rest of
         * the attention weights over heads */
        double kvp = m->attention == RL_ATTN_MLA ? 0.0 : L * 2.0 * D * H * K;
        double rep = rl_arch_tp_replicated_params(m);
        double qo = pc.attention - kvp - rep;
        double kv_shards = fmin(Mtp, K);
        double attn = pl->ep > 1 && pl->attn_replicated ? qo + kvp + rep
                                                        : qo / Mtp + kvp / kv_shards + rep;
        double vocab = (pc.embedding + pc.lm_head) / Mtp;
        /* read: the embedding's gathered rows, not its table (tied: the LM
         * head reads the table), as rl_arch_params_read (tester12 #2) */
        double vocab_read = rl_arch_counts_vocab_read(m, c, tokens) / Mtp;
        double dense_mlp = pc.mlp - pc.routed_experts; /* dense blocks + shared experts */
        double experts = pc.routed_experts / (double)M;
        double touched = 1.0;
        if (m->experts > 0) /* the replica's tokens of one tick; the busiest EP chip's */
            touched = rl_arch_experts_read_ep(m, tokens, pl->ep) / (double)m->experts;
        /* the MoE router whole on every chip, as the engines hold it (ops.c
         * `replicated`); the kept blocks as rl_arch_kept_params splits them */
        double blocks = attn + dense_mlp / Mtp + pc.norms + pc.router;
        /* every bias and sink is kept (arch.h): the routed experts' with
         * their blocks; the attention's and dense MLP's split over TP as
         * their matrices (q/o by heads: k/v biases, 2 K H a layer, counted
         * so too) */
        rl_params vc = c->vectors;
        double kept_experts = vc.routed_experts / (double)M;
        double kept_blocks = rl_arch_kept_of(m, pc.norms, pc.router, attn, dense_mlp / Mtp,
                                             (vc.attention + vc.mlp - vc.routed_experts) / Mtp);
        read = (blocks + vocab_read + experts * touched) / P;
        kept_read = (kept_blocks + vocab_read + kept_experts * touched) / P;
        if (pl->pp > 1) { /* the embedding on the first stage, the LM head and
                             final norm on the last (rl_shard_stage_weights) */
            double fin = rl_arch_final_norm_params(m), emb = pc.embedding / Mtp;
            double head = (m->tied_embeddings ? pc.embedding : pc.lm_head) / Mtp + fin;
            double layered = blocks + experts - fin, layered_kept = kept_blocks + kept_experts - fin;
            /* a dense layer's bytes less an MoE layer's (tester34 F9): its
             * MLP against the router, shared and routed experts, each class
             * kept as above */
            double dvec, dmlp = rl_arch_dense_layer_mlp(m, &dvec), delta = 0;
            if (dmlp > 0 && m->dense_layers < m->layers) {
                double Ld = (double)m->dense_layers, Lm = L - Ld;
                double shared = (dense_mlp - Ld * dmlp) / Lm / Mtp;
                double shared_vec = (vc.mlp - vc.routed_experts - Ld * dvec) / Lm / Mtp;
                double moe = pc.router / Lm + shared + experts / Lm;
                double moe_kept = rl_arch_kept_of(m, 0, pc.router / Lm, 0, shared, shared_vec) +
                                  kept_experts / Lm;
                delta = rl_dtype_weights_bytes(
                            p.weights, dmlp / Mtp,
                            rl_arch_kept_of(m, 0, 0, 0, dmlp / Mtp, dvec / Mtp)) -
                        rl_dtype_weights_bytes(p.weights, moe, moe_kept);
            }
            r->stage_w[0] = rl_dtype_weights_bytes(p.weights, layered, layered_kept);
            r->stage_w[1] = delta;
            r->stage_w[2] = rl_dtype_weights_bytes(p.weights, emb, emb);
            r->stage_w[3] = rl_dtype_weights_bytes(p.weights, head, head);
            r->weight_bytes = rl_shard_stage_weights(m, pl->pp, split, r->stage_w[0],
                                                     r->stage_w[1], r->stage_w[2], r->stage_w[3]);
            return rl_dtype_weights_bytes(p.weights, read, kept_read);
        }
        stored = blocks + vocab + experts;
        kept = kept_blocks + vocab + kept_experts;
    }
    r->weight_bytes = rl_dtype_weights_bytes(p.weights, stored, kept);
    return rl_dtype_weights_bytes(p.weights, read, kept_read);
}

/* What one tick reads of a micro-batch's whole-model KV (and does of its
 * attention FLOPs) on a stage's chip, as a share: the layer share 1 /
 * rl_shard_stage_div when every stage's KV is its layer share; else, with
 * the stages' KV unequal (windowed layers placed unevenly, tester32 F6:
 * stage_kv_div), the pass's T ticks (rl_shard_pass_ticks) read
 * max(the stages' sum, m x the busiest stage's) = max(1, m / kv_div) of
 * it, m micro-batches in flight (rl_shard_pass_scale's rule on the KV
 * alone): a tick max(1, m / kv_div) / T.  0: the layer share. */
static double stage_kv_tick_share(const rl_model *m, long long pp, int split, long long seqs,
                                  double context)
{
    double div = rl_shard_stage_div(m, pp), kv_div = stage_kv_div(m, pp, split, context);
    if (kv_div == div)
        return 0;
    return fmax(1.0, (double)micro_batches(pp, seqs) / kv_div) / rl_shard_pass_ticks(m, pp, seqs);
}

/* KV cache per chip of plan pl for micro-batches of bm sequences at
 * `context` tokens (prefill: written): r->kv_groups, kv_seq_chip and
 * kv_bytes (every micro-batch's cache resident); returns what one tick
 * reads (bytes). */
static double plan_kv(const rl_model *m, const rl_shard_plan *pl, int split, rl_precision p,
                      long long context, long long bm, int prefill, rl_shard_result *r)
{
    double P = rl_shard_stage_div(m, pl->pp); /* the largest stage's share, as plan_weights */
    /* one sequence's cache: S cached (generation) or T written (prefill),
     * windowed layers capped at their window */
    double kv_seq = rl_arch_kv_bytes_per_sequence(m, p.kv, (double)context, RL_KV_IDEAL);
    double kv_chip_seqs, kv_chip_frac; /* sequences per chip and fraction of each */
    if (m->abstract) {
        kv_chip_seqs = (double)ceil_div(bm, pl->ep);
        kv_chip_frac = 1.0 / (double)(pl->tp * pl->sp);
        r->kv_groups = pl->ep;
    } else { /* the plan's layout (rl_shard_kv_layout); prefill: K/V projections
                replicated beyond K chips, cache with them */
        rl_kv_layout k = rl_shard_kv_layout(m, pl, !prefill);
        kv_chip_seqs = (double)ceil_div(bm, k.groups);
        kv_chip_frac = 1.0 / (double)(k.heads * pl->sp);
        r->kv_groups = k.groups;
        if (k.z > 1 && k.split == RL_KV_BATCH) {
            kv_chip_seqs = (double)ceil_div(ceil_div(bm, k.groups), k.z);
            r->kv_groups *= k.z;
        } else if (k.z > 1 && k.split == RL_KV_SEQ)
            kv_chip_frac /= (double)k.z;
    }
    /* held: the stage with the most KV (tester32 F6); read a tick: the
     * layer share as the pass's other terms (rl_shard_stage_scale), or the
     * stages' own KV when they differ (stage_kv_tick_share) */
    double Pkv = stage_kv_div(m, pl->pp, split, (double)context);
    r->kv_seq_chip = kv_seq * kv_chip_frac / Pkv;
    double kv_tick = kv_chip_seqs * kv_seq * kv_chip_frac / P;
    double share = stage_kv_tick_share(m, pl->pp, split, r->replica_batch, (double)context);
    if (share > 0) /* the stages' own layers' KV (stage_kv_tick_share) */
        kv_tick = kv_chip_seqs * kv_seq * kv_chip_frac * share;
    /* held: every sequence of the pass's micro-batches (micro_split: no
     * padding to ceil(batch / pp); tester34 F11), each split over the
     * groups; written so that equal micro-batches keep the old bits */
    micro u = micro_split(pl->pp, r->replica_batch);
    r->kv_bytes = (double)ceil_div(u.q, r->kv_groups) * kv_seq * kv_chip_frac / Pkv *
                  (double)(u.m - u.rem);
    if (u.rem)
        r->kv_bytes +=
            (double)ceil_div(u.q + 1, r->kv_groups) * kv_seq * kv_chip_frac / Pkv * (double)u.rem;
    return kv_tick;
}

/* r's local (formula (1)) terms of one tick scaled to a step of P ticks. */
static void local_per_step(rl_shard_result *r, double P)
{
    r->flops *= P;
    r->compute_s *= P;
    r->attention_compute_s *= P;
    r->weight_load_s *= P;
    r->kv_load_s *= P;
    r->local_s *= P;
}

/* rl_shard_eval; `local` 1 stops after the local (formula (1)) terms and
 * memory, times per step (no name, no collectives, no step time): the
 * calibrated step reads only those of the plan's roofline (its own
 * collectives come from rl_shard_collectives; callgrind: the held
 * evaluation's collectives were ~2% of `make bench`'s calibrated step). */
static int eval_pass(const rl_model *m, const rl_hw *h, const rl_shard_plan *plan, rl_phase phase,
                     long long chips, long long batch, long long context, rl_precision p,
                     int local, long long small, rl_shard_result *out, char *err, size_t errlen)
{
    if (batch < 1)
        RL_FAIL("batch: must be >= 1, got %lld", batch);
    if (rl_step_check(m, h, chips, context, p, err, errlen) != 0)
        return -1;
    if (rl_shard_check_plan(m, plan, phase, chips, err, errlen) != 0)
        return -1;
    rl_shard_result *r = out;
    memset(r, 0, sizeof *r);
    const rl_shard_plan *pl = plan;
    r->plan = *pl;
    r->phase = phase;
    r->chips = chips;
    r->batch = batch;
    r->context = context;
    long long tp = pl->tp, sp = pl->sp, pp = pl->pp;
    long long M = tp * pl->ep; /* model-parallel chips of one stage */
    r->replicas = chips / (M * sp * pp);
    r->replica_batch = ceil_div(batch, r->replicas);
    long long x = pl->layout == RL_LAYOUT_2D ? (pl->x ? pl->x : best_x(m, tp)) : 1;
    r->plan.x = x;
    int prefill = phase == RL_PHASE_PREFILL;
    if (!local)
        plan_name(m, pl, prefill, x, r->replicas, r->name, sizeof r->name);

    /* sequences per micro-batch: the largest (small: the smaller of uneven ones) */
    long long bm = rl_shard_micro_batch(r) - (small ? 1 : 0);
    double tokens = (double)bm * (prefill ? (double)context : 1.0); /* per tick, per replica */
    int split = rl_shard_split_of(h); /* the engine's stage split */
    rl_arch_counts c = rl_arch_counts_of(m); /* once, not per question (issue 12) */
    double weight_read = plan_weights(m, &c, pl, split, p, tokens, r);
    double kv_tick = plan_kv(m, pl, split, p, context, bm, prefill, r);
    r->total_bytes = r->weight_bytes + r->kv_bytes;
    /* the room with the workspace at the step's own tokens (a decode
     * micro-batch's, rl_shard_step_tokens; memory.h rl_memory_batch_fit):
     * a pipeline's each stage in its own, in the busiest KV stage's bytes
     * as kv_bytes */
    r->kv_room = plan_kv_room(m, h, r, rl_shard_step_tokens(r, batch), &r->kv_stage);
    if (pp > 1 && !m->abstract)
        r->fits = r->kv_bytes <= r->kv_room;
    else
        r->fits = r->total_bytes <= rl_shard_chip_room(m, h, r);

    /* ---- FLOPs and the local (formula (1)) time of one tick ---- */
    /* a chip's share of the largest stage's work: 1 / (M sp pp) with equal stages */
    double chip_share = 1.0 / ((double)(M * sp) * rl_shard_stage_div(m, pp)), kept, attn;
    double g = 1; /* the pass over the whole model (rl_shard_stage_pass), set below */
    if (prefill && !m->abstract) {
        /* the operator list counts causal pairs T(T+1)/2, windows, norms and
         * the LM head on the last token only (ops.h); its `half` matmuls are
         * the kept tensors' (rl_arch_kept_flops_per_token) */
        rl_ops_config oc = rl_ops_config_default();
        oc.prec = p;
        oc.act = p.compute;
        oc.prefill_seqs = bm;
        oc.prefill_tokens = context;
        rl_ops ops;
        if (rl_ops_build(m, h, &oc, &ops, err, errlen) != 0)
            return -1;
        r->flops = ops.flops * chip_share;
        double first, last;
        rl_ops_stage_ends(&ops, &first, &last);
        g = rl_shard_stage_pass(m, pp, split, r->replica_batch, ops.step_s, first, last) /
            ops.step_s;
        kept = 0;
        for (int i = 0; i < ops.n; i++)
            if (ops.op[i].half)
                kept += ops.op[i].layers * ops.op[i].flops;
        kept *= chip_share;
        attn = 0; /* prefill's KV term is the cache write, not the attention's reads */
    } else {
        rl_shard_plan stage = *pl;
        stage.pp = 1;
        if (pp > 1) /* the stages' own ends, on the ideal op list (without collectives:
                       measured comm tables would make it the hardware's, not the plan's) */
            g = rl_shard_stage_pass_scale(m, h, &stage, pp, M, bm, context, p, 0,
                                          r->replica_batch, -1);
        attn = tokens * rl_arch_attention_flops_per_token(m, context) * chip_share;
        double kv_share = stage_kv_tick_share(m, pp, split, r->replica_batch, (double)context);
        if (kv_share > 0) /* a layer's attention FLOPs follow its cached tokens, as the KV */
            attn = tokens * rl_arch_attention_flops_per_token(m, context) * kv_share /
                   (double)(M * sp);
        kept = tokens * c.kept_flops_per_token * chip_share;
        r->flops = tokens * c.flops_per_token * chip_share + attn;
    }
    r->kv_load_s = kv_tick / h->hbm_bw;
    r->weight_load_s = weight_read / h->hbm_bw;
    r->compute_s = rl_step_matmul_s(h, p, r->flops - attn, kept);
    /* decode: the attention kernels read kv_load_s's bytes and do the score
     * FLOPs, taking max(bytes, FLOPs) as their own term; the matmuls take
     * max(weight_load_s, compute_s) after them.  MLA's absorbed attention,
     * ~242 FLOP per latent byte for DeepSeek-V3, is compute-bound on chips
     * whose ridge lies below that (H200, A100, or any under --kv fp8):
     * folded into compute_s, its FLOP time hid under the MLP's weight read
     * (review29 H1; tester20 F7 had it counted in both).  The FLOPs run at
     * attention's dtype, the wider of --kv and --compute (rl_attention_dtype,
     * as ops.c's qk/pv rows): at the compute peak, fp8 compute over a bf16
     * cache halved them and dropped them under the read (tester64 #1) */
    r->attention_compute_s =
        fmax(0.0, attn / rl_hw_peak(h, rl_attention_dtype(p)) - r->kv_load_s);
    r->bound = rl_step_bound(r->kv_load_s, r->attention_compute_s, r->weight_load_s,
                             r->compute_s);
    r->local_s = r->kv_load_s + r->attention_compute_s + fmax(r->weight_load_s, r->compute_s);

    /* FLOPs a chip of the largest stage does a pass: its m micro-batches'
     * (tester34 F10: T ticks' were the whole model's at B < pp) */
    double chip_flops = r->flops * (double)micro_batches(pp, r->replica_batch);
    /* a tick of the slowest stage: the largest stage's layer share (the
     * terms above; its pass f = rl_shard_pass_scale) made the stages' own
     * (rl_shard_stage_pass: the first stage's embedding, the last's LM
     * head; the pass g) by g / f */
    double T = rl_shard_pass_ticks(m, pp, r->replica_batch);
    double f = rl_shard_pass_scale(m, pp, r->replica_batch), k = g / f;
    if (k != 1.0)
        local_per_step(r, k);
    if (local) { /* the local terms per step: T ticks, as below */
        local_per_step(r, T);
        r->flops = chip_flops;
        return 0;
    }
    /* ---- collectives of one tick (activations in rl_shard_moved_dtype) ---- */
    rl_precision moved = p;
    moved.compute = rl_shard_moved_dtype(p.compute);
    /* the layers' collectives, f times: the ends (g / f) are local work (tester43
     * F6: counted g times, a 32-layer pipeline read 32.08 AllReduces a step) */
    if (add_plan_collectives(m, h, 1, pl, x, prefill, tokens, bm, context, moved, f, r, err,
                             errlen) != 0)
        return -1;
    /* a tick runs one micro-batch through the slowest stage and its layers'
     * collectives (1/T of the step's); the step is T ticks (P; unequal
     * stages: rl_shard_pass_ticks, max(the stages' sum, the micro-batches in
     * flight), review30 M2) plus the P-1 stage-to-stage sends of a pass,
     * which wait for the stage before (rl_shard_pp_sends) */
    double sends = rl_shard_sends_s(r);
    double layer_comm = (r->comm_s - sends) / T;
    double ticks = T;
    if (prefill && pp > 1) { /* a batch of prompts is one pass that fills and drains
                                the pipeline: rl_shard_prefill_ticks (tester60 #1) */
        ticks = rl_shard_prefill_ticks(m, pp, r->replica_batch);
        for (int i = 0; i < r->ncoll; i++)
            if (r->coll[i].c.kind != RL_P2P) {
                r->coll[i].count *= ticks / T;
                r->coll[i].total_s *= ticks / T;
            }
        r->comm_s = sends + ticks * layer_comm;
    }
    r->tick_s = pl->overlap ? fmax(r->local_s, layer_comm) : r->local_s + layer_comm;
    r->step_s = ticks * r->tick_s + sends;
    local_per_step(r, ticks); /* the row per step: the slowest stage's chips run T ticks */
    r->flops = chip_flops;
    double step_tokens = (double)batch * (prefill ? (double)context : 1.0);
    r->tokens_per_s = step_tokens / r->step_s;
    r->tokens_per_s_per_chip = r->tokens_per_s / (double)chips;
    return 0;
}

static int shard_eval(const rl_model *m, const rl_hw *h, const rl_shard_plan *plan, rl_phase phase,
                      long long chips, long long batch, long long context, rl_precision p,
                      int local, rl_shard_result *out, char *err, size_t errlen)
{
    if (eval_pass(m, h, plan, phase, chips, batch, context, p, local, 0, out, err, errlen) != 0)
        return -1;
    double w = rl_shard_micro_big(out);
    if (w >= 1.0)
        return 0;
    /* uneven micro-batches (tester34 F11): the pass runs the largest stage's
     * tick for each, w of them of ceil(B / pp) sequences and the rest of
     * one fewer (rl_shard_micro_big) */
    rl_shard_result lo;
    if (eval_pass(m, h, plan, phase, chips, batch, context, p, local, 1, &lo, err, errlen) != 0)
        return -1;
    rl_shard_blend_stages(out, &lo, w);
    if (!local) {
        double step_tokens = (double)batch * (phase == RL_PHASE_PREFILL ? (double)context : 1.0);
        out->tokens_per_s = step_tokens / out->step_s;
        out->tokens_per_s_per_chip = out->tokens_per_s / (double)chips;
    }
    return 0;
}

int rl_shard_eval(const rl_model *m, const rl_hw *h, const rl_shard_plan *plan, rl_phase phase,
                  long long chips, long long batch, long long context, rl_precision p,
                  rl_shard_result *out, char *err, size_t errlen)
{
    return shard_eval(m, h, plan, phase, chips, batch, context, p, 0, out, err, errlen);
}

int rl_shard_collectives(const rl_model *m, const rl_hw *h, const rl_shard_plan *plan,
                         rl_phase phase, double tokens, rl_precision p, rl_shard_result *out,
                         char *err, size_t errlen)
{
    long long chips = plan->tp * plan->ep * plan->sp * plan->pp;
    if (rl_shard_check_plan(m, plan, phase, chips, err, errlen) != 0)
        return -1;
    memset(out, 0, sizeof *out);
    out->plan = *plan;
    out->phase = phase;
    out->chips = chips;
    out->replicas = 1;
    long long x = plan->layout == RL_LAYOUT_2D ? (plan->x ? plan->x : best_x(m, plan->tp)) : 1;
    out->plan.x = x;
    return add_plan_collectives(m, h, 0, plan, x, phase == RL_PHASE_PREFILL, tokens,
                                (long long)ceil(tokens), 1, p, rl_shard_stage_scale(m, plan->pp),
                                out, err, errlen);
}

/* r's collectives from the from-th on, counted into r->prov by the
 * provenance of their time, as an op list counts its collective rows
 * (comm.h rl_comm_provenance): ops --tp and step --tp count one step alike.
 * Nothing where r->prov is empty (no kernel table timed its op list). */
static void count_coll_prov(rl_shard_result *r, int from)
{
    int ops = 0;
    for (int k = 0; k < RL_PROV_COUNT; k++)
        ops += r->prov[k];
    for (int i = from; ops && i < r->ncoll; i++)
        r->prov[rl_comm_provenance(&r->coll[i].c)]++;
}

int rl_shard_step_calibrated(const rl_model *m, const rl_hw *h, const rl_shard_plan *plan,
                             long long chips, long long batch, long long context, rl_precision p,
                             rl_step *st, rl_shard_result *coll, char *err, size_t errlen)
{
    if (plan->sp > 1 || plan->pp > 1 || plan->layout != RL_LAYOUT_1D)
        RL_FAIL("sharding: the calibrated step models 1D tp/ep plans; sp, pp and 2d are evaluated "
                "ideal (rl_shard_eval)");
    long long M = plan->tp * plan->ep;
    if (batch < 1)
        RL_FAIL("batch: must be >= 1, got %lld", batch);
    if (chips < 1 || chips % M != 0)
        RL_FAIL("chips: %lld is not a multiple of tp*ep*sp*pp = %lld", chips, M);
    if (rl_step_check(m, h, M, context, p, err, errlen) != 0)
        return -1;
    long long replicas = chips / M, rb = ceil_div(batch, replicas);
    rl_precision moved = p;
    moved.compute = rl_shard_moved_dtype(p.compute);
    if (rl_shard_collectives(m, h, plan, RL_PHASE_GENERATE, (double)rb, moved, coll, err,
                             errlen) != 0)
        return -1;
    coll->chips = chips;
    coll->replicas = replicas;
    coll->batch = batch;
    coll->replica_batch = rb;
    coll->context = context;
    plan_name(m, plan, 0, 1, replicas, coll->name, sizeof coll->name);
    /* what a chip holds is the plan's (KV heads replicated beyond K chips,
     * attention replicated under EP: not total / M); its step reads its own
     * cache, held.kv_bytes, not the replica's cache / M */
    rl_shard_result held; /* its local terms and memory (shard_eval local) */
    if (shard_eval(m, h, plan, RL_PHASE_GENERATE, chips, batch, context, p, 1, &held, err,
                   errlen) != 0)
        return -1;
    double Md = (double)M;
    double even = (double)rb * rl_arch_kv_bytes_per_sequence(m, p.kv, (double)context,
                                                             RL_KV_IDEAL) / Md;
    double copies = even > 0 ? held.kv_bytes / even : 1.0;
    /* without the efficiency curves where an engine's kernel tables will
     * time the step (rl_ops_engine_step: they set step_s), with them where
     * those did not after all */
    const rl_serving_engine *eng = rl_engines_selected(&h->engines);
    int tabled = eng && eng->tables && !m->abstract;
    *st = rl_step_calibrated_curves(m, h, M, rb, context, p, copies, !tabled);
    rl_ops ops; /* an engine's kernel tables time the replica's operators */
    int timed = rl_ops_engine_step(m, h, M, st, p, copies, plan, &ops, NULL, 0);
    if (!timed && tabled)
        *st = rl_step_calibrated(m, h, M, rb, context, p, copies);
    coll->banded = timed && ops.banded;
    for (int k = 0; k < 4; k++)
        coll->band_s[k] = coll->banded ? ops.band_s[k] + coll->comm_s : 0;
    if (timed)
        memcpy(coll->prov, ops.prov, sizeof coll->prov);
    coll->norm_fusion = timed ? 1 + ops.norm_fusion : 0;
    count_coll_prov(coll, 0);
    st->batch = batch;
    st->comm_s = coll->comm_s;
    st->step_s += st->comm_s;
    st->tokens_per_s = (double)batch / st->step_s;
    st->tokens_per_s_per_chip = st->tokens_per_s / (double)chips;
    /* the columns are the plan's roofline terms, as --ideal prints them; the
     * time above them is kernel_excess_s (tester12 #9) */
    st->weight_load_s = held.weight_load_s;
    st->kv_load_s = held.kv_load_s;
    st->compute_s = held.compute_s;
    st->attention_compute_s = held.attention_compute_s;
    st->bound = held.bound;
    rl_step_settle_excess(st);
    coll->weight_bytes = held.weight_bytes;
    coll->kv_bytes = held.kv_bytes;
    coll->total_bytes = held.total_bytes;
    coll->fits = held.fits;
    coll->kv_room = held.kv_room;
    coll->kv_stage = held.kv_stage;
    memcpy(coll->stage_w, held.stage_w, sizeof held.stage_w);
    coll->kv_seq_chip = held.kv_seq_chip;
    coll->kv_groups = held.kv_groups;
    coll->flops = (double)rb *
                  (rl_arch_flops_per_token(m) + rl_arch_attention_flops_per_token(m, context)) / Md;
    coll->weight_load_s = st->weight_load_s;
    coll->kv_load_s = st->kv_load_s;
    coll->compute_s = st->compute_s;
    coll->attention_compute_s = st->attention_compute_s;
    coll->kernel_excess_s = st->kernel_excess_s;
    coll->local_s = st->step_s - st->comm_s;
    coll->tick_s = coll->step_s = st->step_s;
    coll->table_s = st->table_s;
    coll->tokens_per_s = st->tokens_per_s;
    coll->tokens_per_s_per_chip = st->tokens_per_s_per_chip;
    coll->bound = st->bound;
    return 0;
}

/* A pipeline plan (1D, pp > 1) on a measured chip, timed as simulate times
 * its replicas (serve.h rl_ops_cost_pipeline; tester16 F12: step read the
 * plan ideal, simulate calibrated): the stages' calibrated step, the whole
 * op list on a stage's chips (the layers split evenly, so the stages sum
 * to it: rl_shard_step_calibrated of the plan at pp 1 over chips / pp, its
 * collectives included; unequal stages: the pass's ticks of the largest,
 * that times rl_shard_pass_scale of the replica's batch) on one micro-batch per replica (rl_shard_micro_batch,
 * the ideal plan's tick and one of simulate's P streams; tester28 F2: the
 * whole batch ran through every tick; uneven micro-batches: rl_shard_micro_big's
 * share of it and the rest at one sequence fewer), plus the pp - 1 stage sends of a
 * pass as rl_shard_eval sizes them (rl_shard_pp_sends); memory and name
 * are rl_shard_eval's of the plan; throughput counts the whole batch.  0,
 * or -1 with err set. */
int rl_shard_pp_step_calibrated(const rl_model *m, const rl_hw *h, const rl_shard_plan *plan,
                                long long chips, long long batch, long long context,
                                rl_precision p, rl_shard_result *s, char *err, size_t errlen)
{
    rl_shard_plan stage = *plan;
    stage.pp = 1;
    rl_step st;
    rl_shard_result c;
    if (rl_shard_eval(m, h, plan, RL_PHASE_GENERATE, chips, batch, context, p, s, err, errlen) ||
        rl_shard_step_calibrated(m, h, &stage, chips / plan->pp,
                                 rl_shard_micro_batch(s) * s->replicas, context, p, &st, &c, err,
                                 errlen))
        return -1;
    /* the pass of the stages' own times (shard.h rl_shard_stage_pass: the
     * layers' share, the embedding on the first, the LM head on the last)
     * over the stage's whole-model step */
    long long M = stage.tp * stage.ep, bm = rl_shard_micro_batch(s);
    double layers = rl_shard_pass_scale(m, plan->pp, s->replica_batch);
    rl_shard_scale_stages(&c, rl_shard_stage_pass_scale(m, h, &stage, plan->pp, M, bm, context, p,
                                                        1, s->replica_batch, c.step_s), layers);
    double w = rl_shard_micro_big(s);
    if (w < 1.0) { /* uneven micro-batches: the rest one sequence fewer (tester34 F11) */
        rl_shard_result lo;
        if (rl_shard_step_calibrated(m, h, &stage, chips / plan->pp, (bm - 1) * s->replicas,
                                     context, p, &st, &lo, err, errlen))
            return -1;
        rl_shard_scale_stages(&lo, rl_shard_stage_pass_scale(m, h, &stage, plan->pp, M, bm - 1,
                                                             context, p, 1, s->replica_batch,
                                                             lo.step_s), layers);
        rl_shard_blend_stages(&c, &lo, w);
    }
    int n = c.ncoll; /* the stages' collectives, then the sends */
    double sends = rl_shard_sends_s(s);
    for (int i = 0; i < s->ncoll && n < RL_SHARD_MAX_COLL; i++)
        if (s->coll[i].c.kind == RL_P2P)
            c.coll[n++] = s->coll[i];
    memcpy(s->coll, c.coll, sizeof c.coll);
    s->ncoll = n;
    s->latency_bound = c.latency_bound || s->latency_bound;
    /* the roofline columns stay the ideal plan's pass (s: rl_shard_eval,
     * its stages' own ends on the ideal op list), the time above them the
     * calibrated pass's kernel_excess_s */
    s->local_s = c.local_s;
    double x = c.local_s - s->kv_load_s - s->attention_compute_s -
               fmax(s->weight_load_s, s->compute_s);
    s->kernel_excess_s = fabs(x) <= 1e-12 * c.step_s ? 0.0 : x; /* as rl_step_settle_excess */
    s->bound = c.bound;
    s->table_s = c.table_s;
    s->comm_s = c.comm_s + sends;
    s->tick_s = c.step_s / rl_shard_pass_ticks(m, plan->pp, s->replica_batch);
    s->step_s = c.step_s + sends;
    s->tokens_per_s = (double)batch / s->step_s;
    s->tokens_per_s_per_chip = s->tokens_per_s / (double)chips;
    s->banded = c.banded;
    for (int k = 0; k < 4; k++)
        s->band_s[k] = c.band_s[k] + sends;
    memcpy(s->prov, c.prov, sizeof s->prov);
    s->norm_fusion = c.norm_fusion;
    count_coll_prov(s, c.ncoll); /* the sends */
    return 0;
}

int rl_shard_compare(const rl_model *m, const rl_hw *h, rl_phase phase, long long chips,
                     long long batch, long long context, rl_precision p, int overlap,
                     rl_shard_result *out, int cap, int *best_latency, int *best_throughput)
{
    int dropped;
    char why[8];
    return rl_shard_compare_why(m, h, phase, chips, batch, context, p, overlap, out, cap,
                                best_latency, best_throughput, &dropped, why, sizeof why);
}

int rl_shard_compare_why(const rl_model *m, const rl_hw *h, rl_phase phase, long long chips,
                         long long batch, long long context, rl_precision p, int overlap,
                         rl_shard_result *out, int cap, int *best_latency, int *best_throughput,
                         int *dropped, char *why, size_t whylen)
{
    int n = 0;
    *dropped = 0;
    why[0] = '\0';
    char err[512];
#define MAX_CAND 512
    rl_shard_plan cand[MAX_CAND];
#define PUSH(plan_)                                                                                \
    do {                                                                                           \
        if (nc < MAX_CAND)                                                                         \
            cand[nc++] = (plan_);                                                                  \
    } while (0)
    int nc = 0;
    long long E = m->abstract ? 0 : m->experts;
    for (long long tp = 1; tp <= chips; tp *= 2) {
        if (chips % tp)
            continue;
        for (long long ep = 1; ep * tp <= chips; ep *= 2) {
            if (chips % (tp * ep) || (ep > 1 && (E == 0 || E % ep)))
                continue;
            for (int rep = 0; rep <= (ep > 1 && tp > 1); rep++) {
                rl_shard_plan pl = rl_shard_plan_default();
                pl.tp = tp;
                pl.ep = ep;
                pl.attn_replicated = rep;
                pl.overlap = overlap;
                int beyond_k = !m->abstract && tp > kv_head_shards(m, tp) && !rep;
                if (phase == RL_PHASE_GENERATE && beyond_k) {
                    for (int k = 0; k < 3; k++) {
                        pl.kv = (rl_kv_split)k;
                        PUSH(pl);
                    }
                } else {
                    PUSH(pl);
                }
                if (ep == 1 && !rep && tp >= 4 && !m->abstract && E == 0) {
                    rl_shard_plan d2 = pl;
                    d2.layout = RL_LAYOUT_2D;
                    d2.kv = RL_KV_BATCH;
                    PUSH(d2);
                }
                if (phase == RL_PHASE_PREFILL && ep == 1 && tp < chips) {
                    rl_shard_plan s = pl; /* sequence parallel over all remaining chips */
                    s.sp = chips / tp;
                    PUSH(s);
                }
            }
        }
        /* a pipeline over the rest, tp1 included (a pure pipeline, vLLM's
         * --pipeline-parallel-size without TP; tester32 F4: the seed's loop
         * began at tp2, so 3 chips listed no tp1 pp3 that step --pp takes) */
        if (tp < chips && chips / tp <= 16) {
            rl_shard_plan pl = rl_shard_plan_default();
            pl.tp = tp;
            pl.pp = chips / tp;
            pl.overlap = overlap;
            /* each KV split beyond K, as the 1D plans above (tester39 F9:
             * only the default's kv=batch was listed, never the
             * kv=replicate step --pp and simulate run) */
            int beyond_k = phase == RL_PHASE_GENERATE && !m->abstract && tp > kv_head_shards(m, tp);
            for (int k = beyond_k ? 0 : (int)pl.kv; k <= (beyond_k ? 2 : (int)pl.kv); k++) {
                pl.kv = (rl_kv_split)k;
                PUSH(pl);
            }
        }
    }
#undef PUSH
    *best_latency = *best_throughput = -1;
    for (int i = 0; i < nc && n < cap; i++) {
        if (rl_shard_eval(m, h, &cand[i], phase, chips, batch, context, p, &out[n], err,
                          sizeof err) != 0) {
            if ((*dropped)++ == 0) {
                char name[64];
                const rl_shard_plan *c = &cand[i];
                plan_name(m, c, phase == RL_PHASE_PREFILL,
                          c->layout == RL_LAYOUT_2D ? (c->x ? c->x : best_x(m, c->tp)) : 1,
                          chips / rl_shard_plan_chips(&cand[i]), name, sizeof name);
                snprintf(why, whylen, "%s: %s", name, err);
            }
            continue;
        }
        if (out[n].fits) {
            /* ties (within 0.1%) go to the plan leaving more HBM for the KV cache */
            const rl_shard_result *b = *best_latency < 0 ? NULL : &out[*best_latency];
            if (!b || out[n].step_s < b->step_s * 0.999 ||
                (out[n].step_s <= b->step_s * 1.001 && out[n].total_bytes < b->total_bytes))
                *best_latency = n;
            b = *best_throughput < 0 ? NULL : &out[*best_throughput];
            if (!b || out[n].tokens_per_s_per_chip > b->tokens_per_s_per_chip * 1.001 ||
                (out[n].tokens_per_s_per_chip >= b->tokens_per_s_per_chip * 0.999 &&
                 out[n].total_bytes < b->total_bytes))
                *best_throughput = n;
        }
        n++;
    }
    return n;
}

/* Whether t chips of tensor parallelism divide `chips`, stay inside one
 * domain and split m evenly (rl_shard_tp_check, the plan check's rule):
 * rl_shard_auto_plan's degrees. */
static int tp_degree_fits(const rl_model *m, const rl_hw *h, long long chips, long long t)
{
    return chips % t == 0 && (h->domain_chips == 0 || t <= h->domain_chips) &&
           rl_shard_tp_check(m, t, NULL, 0) == 0;
}

int rl_shard_auto_plan(const rl_model *m, const rl_hw *h, const rl_shard_plan *base,
                       long long chips, long long context, rl_precision p, rl_shard_auto *out,
                       char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    char why[512] = "";
    int found = 0, have_nearest = 0;
    for (long long pp = 1; pp <= chips && pp <= m->layers && !found; pp++)
        for (long long t = chips / pp; t >= 1 && !found; t--) {
            if ((chips / t) % pp != 0 || !tp_degree_fits(m, h, chips, t))
                continue;
            rl_shard_plan pl = *base;
            pl.tp = t;
            pl.ep = 1;
            pl.pp = pp;
            rl_shard_result r;
            if (rl_shard_eval(m, h, &pl, RL_PHASE_GENERATE, t * pp, 1, context, p, &r, why,
                              sizeof why) != 0) {
                if (pp > 1) /* this pipeline's own reason (pp beyond what the model takes) */
                    continue;
                rl_fail(err, errlen, "tp%lld: %s", t, why); /* the chips' own (a link at 0) */
                return -1;
            }
            out->candidates++;
            if (pp == 1 && out->widest.plan.tp == 0)
                out->widest = r;
            /* the most KV room; within 1% of a chip's HBM of it, the
             * earlier (fewer stages, wider TP): plans that miss by about
             * the same are told apart by their speed, not by megabytes
             * (tp8 over tp4 x pp2 on 8 chips: 4 MB apart in 16 GB short for
             * llama3-405b on H100; 1.3 MB apart for llama3-70b on 8 TPU
             * v5e, where tp4 x pp2 takes twice tp8's step: tester51 F6).
             * The 1% is of the chip's HBM or of the shortfall, the larger:
             * on a chip of next to no HBM (hbm_bytes = 1) every plan is short
             * by about its whole need and 1% of the HBM is a hundredth of a
             * byte, so megabytes named tp4 x pp2 over tp8 (tester53 F6) */
            if (!have_nearest ||
                r.kv_room > out->nearest.kv_room +
                                1e-2 * fmax(h->hbm_bytes, -out->nearest.kv_room))
                out->nearest = r, have_nearest = 1;
            if (r.kv_room > 0) {
                out->r = r;
                out->fits = found = 1;
            }
        }
    if (!found) /* the nearest plan, the one the note names (tester48b F1: 3 chips timed
                   tp1 x 3 replicas and named tp1 x pp3) */
        out->r = out->nearest; /* tp1 at pp 1 always evaluates or failed above */
    out->tp = out->r.plan.tp;
    out->pp = out->r.plan.pp > 1 ? out->r.plan.pp : 1;
    out->replicas = chips / (out->tp * out->pp);
    return 0;
}

long long rl_shard_replica_tp(const rl_model *m, const rl_hw *h, long long chips,
                              long long context, rl_precision p, rl_shard_auto *a, char *err,
                              size_t errlen)
{
    rl_shard_plan base = rl_shard_plan_default();
    if (rl_shard_auto_plan(m, h, &base, chips, context, p, a, err, errlen) != 0)
        return 0;
    if (a->pp <= 1)
        return a->tp;
    char reps[48] = "";
    if (a->replicas > 1)
        snprintf(reps, sizeof reps, " x %lld replicas", a->replicas);
    rl_fail(err, errlen, "%lld chips' automatic plan is tp%lld x pp%lld%s (shard.h rl_shard_auto_plan: "
            "%s, %.2f GB a chip on %.2f GB), and ops and prefill time no pipeline stages; step "
            "--chips %lld --tp %lld --pp %lld times that plan, --tp T one tensor-parallel "
            "replica here", chips, a->tp, a->pp, reps,
            a->fits ? "the fewest pipeline stages whose heaviest holds its weights, then the "
                      "widest TP inside one domain"
                    : "no plan holds its weights; the nearest",
            a->r.weight_bytes / 1e9, rl_shard_chip_room(m, h, &a->r) / 1e9, chips, a->tp, a->pp);
    return 0;
}

rl_shard_limits rl_shard_limits_of(const rl_model *m, const rl_hw *h, long long chips,
                                   long long batch, rl_precision p)
{
    rl_shard_limits l = {0};
    l.chips = chips;
    /* W_ici: bytes/s of a large AllGather along one axis (comm.h) */
    if (h->topology == RL_TOPO_SWITCH)
        l.w_ici = h->ici_bw * (double)h->ici_links;
    else
        l.w_ici = 2.0 * h->ici_bw;
    double F = m->abstract ? 0 : (double)m->d_ff, D = m->abstract ? 0 : (double)m->d_model;
    double B = (double)batch, C = rl_hw_peak(h, p.compute);
    /* activations in the dtype the rows' collectives move them in (shard.h
     * rl_shard_moved_dtype: bf16 under fp8 or int8 matmuls), so that the
     * limits speak of the rows' bytes (fixNF: an fp8 activation of 1.05 MB
     * beside tp8 AllReduce rows of 2.1 MB) */
    double ab = rl_dtype_bytes(rl_shard_moved_dtype(p.compute)), wb = rl_dtype_bytes(p.weights);
    l.weight_bytes = wb;
    l.act_bytes = ab;
    /* 4BDF/(Y C) of MLP math vs an AllGather + ReduceScatter of B D ab bytes */
    if (l.w_ici > 0 && C > 0)
        l.prefill_tp_max = 2.0 * F * l.w_ici / (C * ab);
    if (l.w_ici > 0) {
        l.beta = h->hbm_bw / l.w_ici;
        /* D F wb / (Y W_hbm) of weights vs B D ab / W_ici of activations */
        l.generate_tp_max = F * wb / (B * l.beta * ab);
        l.t_1d_s = 4.0 * B * D / (3.0 * l.w_ici);
        l.t_2d_s = 2.0 * B * sqrt(8.0 * D * F / (double)chips) / l.w_ici;
    }
    if (D > 0)
        l.crossover_2d = 18.0 * F / D;
    /* one rule for the limit, the rows and the advice (comm.h
     * rl_comm_is_latency_bound): the [B, D] activation's AllReduce over the
     * chips, timed as shard's rows time it (the alpha-beta model alone,
     * ideal mode), and the largest such AllReduce that is latency-bound
     * (before fixNF: an AllGather's threshold from the measured table, 4.67
     * MB on 8 H100, beside rows the model timed bandwidth-bound at 2.1 MB) */
    l.latency_bytes = rl_comm_latency_threshold(h, 1, RL_ALLREDUCE, chips);
    l.activation_bytes = B * D * ab;
    rl_comm ar;
    char err[256];
    if (chips > 1 && l.activation_bytes > 0 &&
        rl_comm_model_time(h, RL_ALLREDUCE, l.activation_bytes, chips, 1, &ar, err,
                           sizeof err) == 0) {
        l.activation_latency_bound = rl_comm_is_latency_bound(&ar);
        l.activation_latency_s = ar.latency_s;
        l.activation_bandwidth_s = ar.bandwidth_s;
    } else {
        l.activation_latency_s = l.activation_bandwidth_s = NAN;
    }
    /* the limits that do not exist: NAN, and why (shard.h) */
    size_t k = 0;
    if (!(l.w_ici > 0)) {
        /* the 1D/2D crossover compares two communication times, neither of
         * which exists without a link (tester62 #4: 63 chips beside "no
         * communication time") */
        l.w_ici = l.prefill_tp_max = l.beta = l.generate_tp_max = l.t_1d_s = l.t_2d_s = NAN;
        l.latency_bytes = l.crossover_2d = NAN;
        k += (size_t)snprintf(l.why + k, sizeof l.why - k, "%s has no link (ici_bw %g B/s, "
                              "ici_links %lld): no link bandwidth, no TP bound, no "
                              "communication time, 1D/2D crossover or latency threshold",
                              h->name, h->ici_bw, h->ici_links);
    } else if (chips <= 1) {
        l.t_1d_s = l.t_2d_s = l.latency_bytes = NAN;
        k += (size_t)snprintf(l.why + k, sizeof l.why - k, "one chip communicates nothing: no "
                              "MLP communication time or latency threshold");
    } else if (!(C > 0)) {
        l.prefill_tp_max = NAN;
        k += (size_t)snprintf(l.why + k, sizeof l.why - k, "%s has no %s peak: no prefill TP "
                              "bound", h->name, rl_dtype_name(p.compute));
    }
    if (m->abstract && k < sizeof l.why) {
        l.prefill_tp_max = l.generate_tp_max = l.crossover_2d = l.t_1d_s = l.t_2d_s = NAN;
        l.activation_bytes = NAN;
        snprintf(l.why + k, sizeof l.why - k, "%san abstract model has no d_model or d_ff: no "
                 "bound, time or activation of its shapes", k ? "; " : "");
    }
    if (isnan(l.latency_bytes) || isnan(l.activation_bytes))
        l.activation_latency_bound = -1;
    return l;
}
