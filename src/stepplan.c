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
} search;

/* Time batch b on `reps` replicas of tp x pp, as `step --tp tp --pp pp
 * --chips reps*tp*pp` times it, and keep it in s->best when it is the
 * fastest that fits (ties, within 1e-9, to the one met first) or, none
 * fitting yet, the nearest (the least memory over usable a chip: the row's
 * weights + KV a chip less its usable room; ties to the first met).  -1
 * when it does not evaluate (more stages than the model takes, a link at
 * 0 B/s), else whether it fits. */
static int consider(search *s, long long tp, long long pp, long long reps)
{
    if (s->max_pp > 0 && pp > s->max_pp)
        return -1; /* as more stages than the model takes */
    rl_shard_plan pl = plan_of(s->base, tp, pp);
    char err[512];
    long long b = s->b;
    cJSON *r = rl_result_step_sharded(s->m, s->h, &pl, reps * tp * pp, &b, 1, s->context, s->p,
                                      err, sizeof err);
    const cJSON *row = r ? cJSON_GetArrayItem(cJSON_GetObjectItem(r, "rows"), 0) : NULL;
    int fits = -1;
    if (row) {
        fits = cJSON_IsTrue(cJSON_GetObjectItem(row, "fits"));
        double step = num(row, "step_s");
        double over = num(row, "weight_bytes_per_chip") + num(row, "kv_bytes_per_chip") -
                      num(row, "usable_bytes_per_chip");
        rl_step_choice x = {tp, pp, reps, reps * tp * pp, fits, step, fits ? 0 : over};
        if (fits && (!s->found || step < s->best.step_s * (1 - 1e-9)))
            s->best = x;
        else if (!fits && !s->found && (!s->near || over < s->best.over_bytes))
            s->best = x;
        s->found |= fits;
        s->near = 1;
    }
    cJSON_Delete(r);
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
                   rl_precision p, long long max_pp, rl_step_choice *c)
{
    search s = {m, h, base, b, context, p, {a->tp, a->pp, a->replicas, chips, 0, 0, 0}, 0, 0,
                max_pp};
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

/* Row `row` of a plan on `used` of `chips` chips: tokens_per_s_per_chip
 * over all the chips, idle_chips the chips left over. */
static void row_on(cJSON *row, long long used, long long chips)
{
    cJSON_ReplaceItemInObjectCaseSensitive(
        row, "tokens_per_s_per_chip", cJSON_CreateNumber(num(row, "tokens_per_s") / (double)chips));
    cJSON_AddNumberToObject(row, "idle_chips", (double)(chips - used));
}

void rl_step_plan_choose(const rl_model *m, const rl_hw *h, const rl_shard_plan *base,
                         const rl_shard_auto *a, long long chips, const long long *batch,
                         int nbatch, long long context, rl_precision p, rl_step_choice *choice)
{
    rl_progress_start("step", "batches' plans searched", nbatch); /* a 4096-batch list: ~1 min */
    for (int i = 0; i < nbatch; i++) {
        if (a->fits)
            choose(m, h, base, a, chips, batch[i], context, p, 0, &choice[i]);
        else
            choice[i] = (rl_step_choice){a->tp, a->pp, a->replicas, chips, 0, 0, 0};
        rl_progress_add(1);
    }
    rl_progress_end();
}

int rl_step_plan_one(const rl_model *m, const rl_hw *h, const rl_shard_plan *base,
                     long long chips, long long batch, long long context, rl_precision p,
                     long long max_pp, rl_step_choice *choice)
{
    rl_shard_auto a;
    char err[512];
    if (rl_shard_auto_plan(m, h, base, chips, context, p, &a, err, sizeof err) != 0 || !a.fits)
        return 1;
    choose(m, h, base, &a, chips, batch, context, p, max_pp, choice);
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

/* The rule the rows' plans follow, as plan_choice states it (stepplan.h). */
static void add_plan_choice(cJSON *out, const rl_hw *h, const rl_shard_auto *a, long long chips)
{
    char rule[1024];
    if (!a->fits)
        snprintf(rule, sizeof rule,
                 "no plan over the %lld chips holds the weights: every row runs the nearest, "
                 "rl_shard_auto_plan's (the most KV room at batch 1), fits false (stepplan.h)",
                 chips);
    else
        snprintf(rule, sizeof rule,
                 "fastest plan a batch: each row runs the plan on at most the %lld chips that "
                 "holds its batch with the shortest step: tp T x pp P times R replicas, T inside "
                 "one %lld-chip domain that splits the heads, R up to floor(%lld / (T P)) and to "
                 "the batch, so no replica idles (the most unless fewer replicas step the batch "
                 "faster: a replica's step is not monotone in its share), P the fewest stages "
                 "whose row fits at T and R, or a deeper pipeline (up to the batch) at the most "
                 "replicas it leaves or fewer (micro-batches of at most %d sequences); chips a "
                 "plan leaves over idle (idle_chips); ties to fewer TP, then more replicas; a "
                 "batch no plan holds runs the nearest (the least weights + KV over usable a "
                 "chip), fits false; the header's sharding, replicas, max_batch, memory keys "
                 "and e2e_gap_note are the first row's plan, outside_tables every row's "
                 "(stepplan.h)",
                 chips, h->domain_chips > 0 ? h->domain_chips : chips, chips, DEEP_MICRO);
    cJSON_AddStringToObject(out, "plan_choice", rule);
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
        row_on(row, choice[i].chips, chips);
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
