/* stepplan.c — each batch's fastest plan over step's chips (stepplan.h). */
#include "stepplan.h"

#include "progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result.h"

/* The plan tp x pp, base's other fields (its KV split). */
static rl_shard_plan plan_of(const rl_shard_plan *base, long long tp, long long pp)
{
    rl_shard_plan pl = *base;
    pl.tp = tp;
    pl.ep = 1;
    pl.pp = pp;
    return pl;
}

static double num(const cJSON *o, const char *key)
{
    return cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o, key));
}

/* The search for one batch's plan (choose): what it is timing and the
 * best met so far. */
typedef struct {
    const rl_model *m;
    const rl_hw *h;
    const rl_shard_plan *base;
    long long b, context;
    rl_precision p;
    rl_step_choice best; /* the fastest that fits, else the nearest */
    int found, near;     /* one fits; one was timed */
    long long max_pp;    /* > 0: no plan of more stages (rl_step_plan_one) */
    rl_step_memo *memo;  /* the timings of earlier searches, or NULL */
} search;

/* What a candidate's timing depends on (consider): the model, chip and
 * plan (tp x pp, base's other fields; chips = replicas x tp x pp), the
 * context, the precision, and of the batch b over the replicas only the
 * shares rl_result_step_sharded times, the fuller ceil(b / R) and, where
 * the split is uneven, the smaller floor(b / R) (its slowest replica's
 * step; a pipeline's micro-batches are those of ceil(b / R): shard.c
 * eval_pass's replica_batch).  Its step_s, fits and the per-chip bytes
 * (weights, KV, usable room) are one replica's, so two candidates of one
 * key read the same; what depends on b or R themselves (tokens/s, idle
 * chips, the chips) the choice and the rows compute from them. */
typedef struct {
    const rl_model *m;
    const rl_hw *h;
    rl_shard_plan plan;
    long long hi, lo, context;
    rl_precision p;
} memo_key;

/* One timed candidate: fits (0 or 1), its step_s and memory over its room. */
typedef struct {
    memo_key k;
    int used, fits;
    double step_s, over;
} memo_slot;

struct rl_step_memo {
    memo_slot *slot; /* open addressing, cap a power of two, at most half full */
    size_t cap, n;
};

rl_step_memo *rl_step_memo_new(void)
{
    return calloc(1, sizeof(rl_step_memo));
}

void rl_step_memo_free(rl_step_memo *memo)
{
    if (memo)
        free(memo->slot);
    free(memo);
}

static int same_key(const memo_key *x, const memo_key *y)
{
    const rl_shard_plan *a = &x->plan, *b = &y->plan;
    return x->m == y->m && x->h == y->h && x->hi == y->hi && x->lo == y->lo &&
           x->context == y->context && x->p.weights == y->p.weights && x->p.kv == y->p.kv &&
           x->p.compute == y->p.compute && a->tp == b->tp && a->x == b->x && a->ep == b->ep &&
           a->sp == b->sp && a->pp == b->pp && a->layout == b->layout && a->kv == b->kv &&
           a->attn_replicated == b->attn_replicated && a->overlap == b->overlap;
}

static size_t key_hash(const memo_key *k)
{
    /* FNV-1a's 64-bit prime over the integer fields (the pointers' bits
     * and the others' values; same_key decides) */
    const unsigned long long f[] = {(unsigned long long)(size_t)k->m,
                                    (unsigned long long)(size_t)k->h,
                                    (unsigned long long)k->plan.tp,
                                    (unsigned long long)k->plan.pp,
                                    (unsigned long long)k->hi,
                                    (unsigned long long)k->lo,
                                    (unsigned long long)k->context,
                                    (unsigned long long)k->p.weights * 64 + k->p.kv * 8 +
                                        k->p.compute};
    unsigned long long x = 1469598103934665603ULL;
    for (size_t i = 0; i < sizeof f / sizeof *f; i++)
        x = (x ^ f[i]) * 1099511628211ULL;
    return (size_t)(x ^ (x >> 29));
}

/* k's slot in memo (used: k's timing; else where it goes), NULL when
 * memo is NULL or out of memory (no memo: the candidate is timed). */
static memo_slot *memo_find(rl_step_memo *memo, const memo_key *k)
{
    if (!memo)
        return NULL;
    if (2 * (memo->n + 1) > memo->cap) { /* grow: rehash into twice the slots */
        size_t cap = memo->cap ? 2 * memo->cap : 256;
        memo_slot *slot = calloc(cap, sizeof *slot);
        if (!slot)
            return NULL;
        for (size_t i = 0; i < memo->cap; i++) {
            if (!memo->slot[i].used)
                continue;
            size_t j = key_hash(&memo->slot[i].k) & (cap - 1);
            while (slot[j].used)
                j = (j + 1) & (cap - 1);
            slot[j] = memo->slot[i];
        }
        free(memo->slot);
        memo->slot = slot;
        memo->cap = cap;
    }
    size_t j = key_hash(k) & (memo->cap - 1);
    while (memo->slot[j].used && !same_key(&memo->slot[j].k, k))
        j = (j + 1) & (memo->cap - 1);
    return &memo->slot[j];
}

/* Batch b on `reps` replicas of tp x pp timed as `step --tp tp --pp pp
 * --chips reps*tp*pp` times it (rl_result_step_sharded), or met before in
 * s->memo: its step_s and its weights + KV a chip over its usable room
 * (the row's keys) into *step and *over.  -1 when it does not evaluate (more stages than
 * the model takes, a link at 0 B/s; never kept: it is timed again), else
 * whether it fits. */
static int timed(search *s, long long tp, long long pp, long long reps, double *step,
                 double *over)
{
    rl_shard_plan pl = plan_of(s->base, tp, pp);
    long long b = s->b;
    memo_key k = {s->m, s->h, pl, (b + reps - 1) / reps, b % reps != 0 ? b / reps : 0,
                  s->context, s->p};
    memo_slot *slot = memo_find(s->memo, &k);
    if (slot && slot->used) {
        *step = slot->step_s;
        *over = slot->over;
        return slot->fits;
    }
    char err[512];
    cJSON *r = rl_result_step_sharded(s->m, s->h, &pl, reps * tp * pp, &b, 1, s->context, s->p,
                                      err, sizeof err);
    const cJSON *row = r ? cJSON_GetArrayItem(cJSON_GetObjectItem(r, "rows"), 0) : NULL;
    int fits = -1;
    if (row) {
        fits = cJSON_IsTrue(cJSON_GetObjectItem(row, "fits"));
        *step = num(row, "step_s");
        *over = num(row, "weight_bytes_per_chip") + num(row, "kv_bytes_per_chip") -
                num(row, "usable_bytes_per_chip");
        if (slot) {
            *slot = (memo_slot){k, 1, fits, *step, *over};
            s->memo->n++;
        }
    }
    cJSON_Delete(r);
    return fits;
}

/* Time batch b on `reps` replicas of tp x pp (timed), and keep it in
 * s->best when it is the fastest that fits (ties, within 1e-9, to the one
 * met first) or, none fitting yet, the nearest (the least memory over
 * usable a chip: the row's weights + KV a chip less its usable room; ties
 * to the first met).  -1 when it does not evaluate, else whether it fits. */
static int consider(search *s, long long tp, long long pp, long long reps)
{
    if (s->max_pp > 0 && pp > s->max_pp)
        return -1; /* as more stages than the model takes */
    double step = 0, over = 0;
    int fits = timed(s, tp, pp, reps, &step, &over);
    if (fits >= 0) {
        rl_step_choice x = {tp, pp, reps, reps * tp * pp, fits, step, fits ? 0 : over};
        if (fits && (!s->found || step < s->best.step_s * (1 - 1e-9)))
            s->best = x;
        else if (!fits && !s->found && (!s->near || over < s->best.over_bytes))
            s->best = x;
        s->found |= fits;
        s->near = 1;
    }
    return fits;
}

/* The shares of batch b over reps replicas a step is timed on (result.c
 * rl_result_step_sharded: the fuller, ceil(b / reps), and where the split
 * is uneven the smaller, floor(b / reps), the slower of the two), as one
 * key: two replica counts of one key time the same step. */
static long long share_key(long long b, long long reps)
{
    long long hi = (b + reps - 1) / reps, lo = b / reps;
    return hi * (b + 1) + (lo >= 1 && b % reps != 0 ? lo : 0);
}

/* Replica counts search_tp walks one by one before it steps by 1/16 of
 * them: every count is tried up to 64 replicas a T (eight 8-GPU nodes at
 * one GPU a replica), and past that the walk's cost grows as ln R. */
#define SEARCH_STEPS 64

/* The most replicas of tp t x pp `pp` a search times on `chips` chips:
 * floor(chips / (t pp)), but no more than the batch (fixWB #1: a replica
 * past the batch's would sit idle at the same step, each replica holding
 * one sequence, so 64 H100s ran llama3-8b at batch 1 as tp8 x8 with 7
 * replicas idle; the plan now leaves those chips idle, tp8 on 8). */
static long long most_reps(const search *s, long long t, long long pp, long long chips)
{
    long long r = chips / (t * pp);
    return r < s->b ? r : s->b;
}

/* The largest micro-batch, in sequences, a deeper pipeline's walk over
 * fewer replicas times (fixWB #2): the steps a larger share runs faster
 * sit at a few sequences (TensorRT-LLM's decode attention, masked MHA at 1
 * and 2 sequences, XQA from 3: a tp8 llama3-8b replica on H100 takes 1.809
 * ms at 2, 1.630 at 3; vLLM's fp8 GEMMs on B200, m = 1 slower than 2), and
 * an exhaustive search (every T, P, R) of 178 cases (H100, H200, B200,
 * GB200, TPU v5e/v5p; llama3 8b/70b/405b, qwen3-32b, mixtral-8x7b; 32 to
 * 128 chips; batches 1 to 4096; docs/model.md) found 20 faster plans the
 * search missed without this walk and none with it. */
#define DEEP_MICRO 4

/* The fewer replicas of the deeper pipeline tp t x pp `pp` on `chips`
 * chips into s (search_tp): from the most replicas it leaves (always
 * timed) down, while its fullest micro-batch, ceil(ceil(b / R) / pp),
 * holds at most DEEP_MICRO sequences and *budget (a T's) lasts, one
 * timing a share (share_key); stops at the first that does not fit (fewer
 * replicas hold more KV a chip).  -1 when the plan does not evaluate. */
static int walk_deeper(search *s, long long t, long long pp, long long chips, long long *budget)
{
    long long reps = most_reps(s, t, pp, chips), b = s->b;
    int fits = consider(s, t, pp, reps);
    while (fits > 0 && *budget > 0) {
        /* the largest fewer count of another share: past every count
         * whose (ceil, floor) of b / R is this one's */
        reps = b % reps == 0 ? reps - 1 : b / (b / reps + 1);
        if (reps < 1 || ((b + reps - 1) / reps + pp - 1) / pp > DEEP_MICRO)
            break;
        --*budget;
        fits = consider(s, t, pp, reps);
    }
    return fits < 0 ? -1 : 0;
}

/* The candidates of tp t over `chips` chips into s (stepplan.h): R walks
 * down from the most replicas, P up from 1 to the fewest stages whose row
 * fits at t and R; then the deeper pipelines up to b stages (a pipeline
 * runs min(share, P) micro-batches: beyond the batch more stages only add
 * sends), each at the most replicas it leaves and, while its micro-batches
 * stay small, fewer (walk_deeper; SEARCH_STEPS timings a T in all). */
static void search_tp(search *s, long long t, long long chips)
{
    long long pp = 1, reps = most_reps(s, t, 1, chips), last = -1, last_pp = 0, first = 0,
              walked = 0;
    while (reps >= 1 && t * pp <= chips) {
        long long key = share_key(s->b, reps);
        if (key == last && pp == last_pp) { /* the same step on fewer replicas */
            reps--;
            continue;
        }
        int fits = consider(s, t, pp, reps);
        if (fits < 0)
            return; /* more stages do not evaluate either */
        last = key, last_pp = pp;
        if (fits) {
            if (!first)
                first = pp;
            /* fewer replicas, a larger share each (fixVA #2): one at a time
             * for SEARCH_STEPS counts, then 1/16 of them a step, so a batch of
             * 1e9 on 1e6 chips times some 200 counts a T, not every share
             * (review of stop 54: --batch 1e9 ran past 5 s) */
            reps -= ++walked <= SEARCH_STEPS || reps < 16 ? 1 : reps / 16;
        } else {
            pp++; /* it fits no fewer replicas: more stages (fixVA #1) */
            if (reps > most_reps(s, t, pp, chips))
                reps = most_reps(s, t, pp, chips);
        }
    }
    long long budget = SEARCH_STEPS;
    for (pp = first + 1; first > 0 && pp <= s->b && t * pp <= chips; pp++)
        if (walk_deeper(s, t, pp, chips, &budget) < 0)
            return;
}

/* Batch b's plan into *c (stepplan.h): every T's candidates (search_tp),
 * T rising, so ties go to the fewer TP, then the more replicas (at most
 * the batch: most_reps); none
 * evaluating: the automatic plan, a. */
static void choose(const rl_model *m, const rl_hw *h, const rl_shard_plan *base,
                   const rl_shard_auto *a, long long chips, long long b, long long context,
                   rl_precision p, long long max_pp, rl_step_memo *memo, rl_step_choice *c)
{
    search s = {m, h, base, b, context, p, {a->tp, a->pp, a->replicas, chips, 0, 0, 0}, 0, 0,
                max_pp, memo};
    for (long long t = 1; t <= chips; t++)
        if ((h->domain_chips <= 0 || t <= h->domain_chips) && rl_shard_tp_check(m, t, NULL, 0) == 0)
            search_tp(&s, t, chips);
    *c = s.best;
}

/* Whether choices x and y are the same plan on the same chips. */
static int same(const rl_step_choice *x, const rl_step_choice *y)
{
    return x->tp == y->tp && x->pp == y->pp && x->chips == y->chips;
}

/* Header keys of plan result r timed on `used` of `chips` chips made all
 * the chips': chips, hbm_bw_total and the capacity keys (all chips
 * together: a chip's figure x chips, exact in whole bytes). */
static void header_on(cJSON *r, const rl_hw *h, long long used, long long chips)
{
    static const char *const per_chips[] = {"capacity_bytes", "hbm_total_bytes", "usable_bytes",
                                            "usable_total_bytes"};
    if (used == chips)
        return;
    cJSON_ReplaceItemInObjectCaseSensitive(r, "chips", cJSON_CreateNumber((double)chips));
    if (cJSON_GetObjectItemCaseSensitive(r, "hbm_bw_total"))
        cJSON_ReplaceItemInObjectCaseSensitive(r, "hbm_bw_total",
                                               cJSON_CreateNumber((double)chips * h->hbm_bw));
    for (size_t i = 0; i < sizeof per_chips / sizeof *per_chips; i++)
        if (cJSON_GetObjectItemCaseSensitive(r, per_chips[i]))
            cJSON_ReplaceItemInObjectCaseSensitive(
                r, per_chips[i],
                cJSON_CreateNumber(num(r, per_chips[i]) / (double)used * (double)chips));
}

/* Row `row` of plan c on `chips` chips, taken from plan result `from`:
 * tokens_per_s_per_chip over all the chips, idle_chips the chips left
 * over, and the row's own plan, sharding (its strategy), tp, pp, replicas
 * and the memory its result's header states for it (comm_buffer_bytes,
 * workspace_bytes), so a row of another plan than the header's (the first
 * row's) does not read the header's figures in a table or CSV (fixXB #2:
 * csv's replicas column read 1, the header's, on a tp4 x2 row). */
static void row_on(cJSON *row, const rl_step_choice *c, long long chips, const cJSON *from)
{
    static const char *const memory[] = {"comm_buffer_bytes", "workspace_bytes"};
    cJSON_ReplaceItemInObjectCaseSensitive(
        row, "tokens_per_s_per_chip", cJSON_CreateNumber(num(row, "tokens_per_s") / (double)chips));
    cJSON_AddNumberToObject(row, "idle_chips", (double)(chips - c->chips));
    const char *plan = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(row, "strategy"));
    if (plan) /* the header's key of the plan's name: strategy, the row's */
        cJSON_AddStringToObject(row, "sharding", plan);
    cJSON_AddNumberToObject(row, "tp", (double)c->tp);
    /* step's plans are tp x pp times replicas, no expert parallelism (as
     * pareto's rows spell theirs, tester102 #3: tp x ep x pp x replicas +
     * idle_chips = chips) */
    cJSON_AddNumberToObject(row, "ep", 1);
    cJSON_AddNumberToObject(row, "pp", (double)c->pp);
    cJSON_AddNumberToObject(row, "replicas", (double)c->replicas);
    for (size_t i = 0; i < sizeof memory / sizeof *memory; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(from, memory[i]);
        if (cJSON_IsNumber(v))
            cJSON_AddNumberToObject(row, memory[i], v->valuedouble);
        else /* no engine memory rule (memory_rule none: a TPU's profile), so no
              * engine reserves them: null, the key kept (tester102 #4) */
            cJSON_AddNullToObject(row, memory[i]);
    }
}

void rl_step_plan_choose(const rl_model *m, const rl_hw *h, const rl_shard_plan *base,
                         const rl_shard_auto *a, long long chips, const long long *batch,
                         int nbatch, long long context, rl_precision p, rl_step_choice *choice)
{
    rl_progress_start("step", "batches' plans searched", nbatch); /* a 4096-batch list: ~1 min */
    rl_step_memo *memo = rl_step_memo_new(); /* NULL out of memory: each candidate timed */
    for (int i = 0; i < nbatch; i++) {
        if (a->fits)
            choose(m, h, base, a, chips, batch[i], context, p, 0, memo, &choice[i]);
        else
            choice[i] = (rl_step_choice){a->tp, a->pp, a->replicas, chips, 0, 0, 0};
        rl_progress_add(1);
    }
    rl_step_memo_free(memo);
    rl_progress_end();
}

int rl_step_plan_one(const rl_model *m, const rl_hw *h, const rl_shard_plan *base,
                     long long chips, long long batch, long long context, rl_precision p,
                     long long max_pp, rl_step_memo *memo, rl_step_choice *choice)
{
    rl_shard_auto a;
    char err[512];
    if (rl_shard_auto_plan(m, h, base, chips, context, p, &a, err, sizeof err) != 0 || !a.fits)
        return 1;
    choose(m, h, base, &a, chips, batch, context, p, max_pp, memo, choice);
    return 0;
}

int rl_step_plan_ops(const rl_model *m, const rl_hw *h, const rl_shard_plan *base,
                     long long chips, long long batch, long long context, rl_precision p,
                     rl_step_choice *step, rl_step_choice *run)
{
    if (rl_step_plan_one(m, h, base, chips, batch, context, p, 0, NULL, step) != 0)
        return 1;
    *run = *step;
    if (step->pp > 1 &&
        (rl_step_plan_one(m, h, base, chips, batch, context, p, 1, NULL, run) != 0 || !run->fits))
        return -1;
    return 0;
}

/* The strategy of group result g's first row ("tp8 x2"), "?" when none. */
static const char *group_plan(const cJSON *g)
{
    const char *s = cJSON_GetStringValue(
        cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(g, "rows"), 0), "strategy"));
    return s ? s : "?";
}

/* The header's keys of one plan when the rows run ngroups > 1 plans (fixVA
 * #5), res[g] each plan's result (NULL where g is no group's first row):
 * outside_tables every plan's text, each after its plan's name (null when
 * none has one), and e2e_gap_note, quoted at one TP, says it is the first
 * row's plan's. */
static void header_of_plans(cJSON *out, cJSON *const *res, int nbatch, int ngroups)
{
    if (ngroups < 2)
        return;
    char *far = NULL;
    for (int g = 0; g < nbatch; g++) {
        const char *t = res[g] ? cJSON_GetStringValue(cJSON_GetObjectItem(res[g],
                                                                          "outside_tables"))
                               : NULL;
        if (!t)
            continue;
        char *more = rl_result_fmt("%s%s%s's rows: %s", far ? far : "", far ? "; " : "",
                                   group_plan(res[g]), t);
        free(far);
        far = more;
        if (!far)
            break; /* out of memory: no text rather than a cut one */
    }
    if (far && cJSON_HasObjectItem(out, "outside_tables"))
        cJSON_ReplaceItemInObjectCaseSensitive(out, "outside_tables", cJSON_CreateString(far));
    free(far);
    const char *gap = cJSON_GetStringValue(cJSON_GetObjectItem(out, "e2e_gap_note"));
    char *note = gap ? rl_result_fmt("%s; quoted at the first row's plan's TP (%s): the rows run "
                                     "%d plans, and the gap is measured a TP (step --tp T quotes "
                                     "another's)", gap, group_plan(out), ngroups)
                     : NULL;
    if (note)
        cJSON_ReplaceItemInObjectCaseSensitive(out, "e2e_gap_note", cJSON_CreateString(note));
    free(note);
}

/* The rule the rows' plans follow, as plan_choice states it (stepplan.h);
 * formatted to its length (rl_result_fmt), absent out of memory. */
static void add_plan_choice(cJSON *out, const rl_hw *h, const rl_shard_auto *a, long long chips)
{
    char *rule;
    if (!a->fits)
        rule = rl_result_fmt(
            "no plan over the %lld chips holds the weights: every row runs the nearest, "
            "rl_shard_auto_plan's (the most KV room at batch 1), fits false (stepplan.h)",
            chips);
    else
        rule = rl_result_fmt(
            "fastest plan a batch: each row runs the plan on at most the %lld chips that "
            "holds its batch with the shortest step: tp T x pp P times R replicas, T inside "
            "one %lld-chip domain that splits the heads, R up to floor(%lld / (T P)) and to "
            "the batch, so no replica idles (the most unless fewer replicas step the batch "
            "faster: a replica's step is not monotone in its share), P the fewest stages "
            "whose row fits at T and R, or a deeper pipeline (up to the batch) at the most "
            "replicas it leaves or fewer (micro-batches of at most %d sequences); chips a "
            "plan leaves over idle (idle_chips); ties to fewer TP, then more replicas; a "
            "batch no plan holds runs the nearest (the least weights + KV over usable a "
            "chip), fits false; each row names its plan (strategy, sharding, tp, ep, pp, "
            "replicas) and "
            "its memory (comm_buffer_bytes, workspace_bytes and the per-chip keys); the "
            "header's sharding, replicas, max_batch, memory keys and e2e_gap_note are the "
            "first row's plan, outside_tables every row's (stepplan.h)",
            chips, h->domain_chips > 0 ? h->domain_chips : chips, chips, DEEP_MICRO);
    if (rule)
        cJSON_AddStringToObject(out, "plan_choice", rule);
    free(rule);
}

cJSON *rl_step_plan_result(const rl_model *m, const rl_hw *h, const rl_shard_plan *base,
                           const rl_shard_auto *a, long long chips, const long long *batch,
                           int nbatch, long long context, rl_precision p,
                           const rl_step_choice *choice, char *err, size_t errlen)
{
    /* one result per distinct plan, over its rows' batches, in row order */
    size_t rows_n = nbatch > 0 ? (size_t)nbatch : 1;
    cJSON **res = calloc(rows_n, sizeof *res), *out = NULL;
    long long *bs = calloc(rows_n, sizeof *bs);
    int *group = calloc(rows_n, sizeof *group), ngroups = 0;
    err[0] = '\0';
    if (!res || !bs || !group || nbatch < 1)
        goto done;
    for (int i = 0; i < nbatch; i++) {
        group[i] = i;
        for (int g = 0; g < i; g++)
            if (same(&choice[g], &choice[i])) {
                group[i] = group[g];
                break;
            }
    }
    for (int g = 0; g < nbatch; g++) {
        if (group[g] != g)
            continue;
        int n = 0;
        for (int i = g; i < nbatch; i++)
            if (group[i] == g)
                bs[n++] = batch[i];
        rl_shard_plan pl = plan_of(base, choice[g].tp, choice[g].pp);
        res[g] = rl_result_step_sharded(m, h, &pl, choice[g].chips, bs, n, context, p, err, errlen);
        if (!res[g])
            goto done;
        header_on(res[g], h, choice[g].chips, chips);
        ngroups++;
    }
    out = res[0];
    header_of_plans(out, res, nbatch, ngroups);
    rl_result_plans_note(out, res, nbatch, "token_budget_note");
    res[0] = NULL;
    cJSON *rows = cJSON_CreateArray(), *colls = cJSON_CreateArray();
    if (!rows || !colls) {
        cJSON_Delete(rows);
        cJSON_Delete(colls);
        cJSON_Delete(out);
        out = NULL; /* out of memory: err "" (stepplan.h) */
        goto done;
    }
    double share = -1;
    for (int i = 0; i < nbatch; i++) {
        cJSON *from = group[i] == 0 ? out : res[group[i]];
        cJSON *row = cJSON_DetachItemFromArray(cJSON_GetObjectItem(from, "rows"), 0);
        if (!row)
            continue;
        row_on(row, &choice[i], chips, from);
        cJSON_AddItemToArray(rows, row);
        int k = (int)num(row, "collectives");
        cJSON *fc = cJSON_GetObjectItem(from, "collectives");
        for (int c = 0; c < k && cJSON_GetArraySize(fc) > 0; c++)
            cJSON_AddItemToArray(colls, cJSON_DetachItemFromArray(fc, 0));
        const cJSON *ts = cJSON_GetObjectItem(from, "table_time_share");
        if (cJSON_IsNumber(ts) && (share < 0 || ts->valuedouble < share))
            share = ts->valuedouble;
    }
    cJSON_ReplaceItemInObjectCaseSensitive(out, "rows", rows);
    cJSON_ReplaceItemInObjectCaseSensitive(out, "collectives", colls);
    if (share >= 0 && cJSON_IsNumber(cJSON_GetObjectItem(out, "table_time_share")))
        cJSON_ReplaceItemInObjectCaseSensitive(out, "table_time_share", cJSON_CreateNumber(share));
    add_plan_choice(out, h, a, chips);
done:
    for (int g = 0; res && g < nbatch; g++)
        cJSON_Delete(res[g]);
    free(res);
    free(bs);
    free(group);
    return out;
}

cJSON *rl_step_plan_rows(const rl_model *m, const rl_hw *h, const rl_shard_plan *base,
                         const rl_shard_auto *a, long long chips, const long long *batch,
                         int nbatch, long long context, rl_precision p, rl_step_choice *choice,
                         char *err, size_t errlen)
{
    rl_step_plan_choose(m, h, base, a, chips, batch, nbatch, context, p, choice);
    return rl_step_plan_result(m, h, base, a, chips, batch, nbatch, context, p, choice, err,
                               errlen);
}
