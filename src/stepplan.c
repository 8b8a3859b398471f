/* stepplan.c — each batch's fastest plan over step's chips (stepplan.h). */
#include "stepplan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result.h"

/* The plan {tp, pp} over the most replicas that fit in `chips`. */
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

/* Time batch b on every candidate (stepplan.h) into *c: the fitting one of
 * the shortest step, ties to fewer TP; the automatic plan when none fits. */
static void choose(const rl_model *m, const rl_hw *h, const rl_shard_plan *base,
                   const rl_shard_auto *a, long long chips, long long b, long long context,
                   rl_precision p, rl_step_choice *c)
{
    *c = (rl_step_choice){a->tp, a->pp, a->replicas, chips, 0, 0};
    long long pp = a->pp > 1 ? a->pp : 1;
    int found = 0;
    for (long long t = 1; t * pp <= chips; t++) {
        if ((h->domain_chips > 0 && t > h->domain_chips) || rl_shard_tp_check(m, t, NULL, 0) != 0)
            continue;
        long long reps = chips / (t * pp);
        rl_shard_plan pl = plan_of(base, t, pp);
        char err[512];
        cJSON *r = rl_result_step_sharded(m, h, &pl, reps * t * pp, &b, 1, context, p, err,
                                          sizeof err);
        const cJSON *row = r ? cJSON_GetArrayItem(cJSON_GetObjectItem(r, "rows"), 0) : NULL;
        if (row && cJSON_IsTrue(cJSON_GetObjectItem(row, "fits"))) {
            double s = num(row, "step_s");
            if (!found || s < c->step_s * (1 - 1e-9)) /* t rises: a tie keeps the fewer TP */
                *c = (rl_step_choice){t, pp, reps, reps * t * pp, 1, s};
            found = 1;
        }
        cJSON_Delete(r);
    }
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

cJSON *rl_step_plan_rows(const rl_model *m, const rl_hw *h, const rl_shard_plan *base,
                         const rl_shard_auto *a, long long chips, const long long *batch,
                         int nbatch, long long context, rl_precision p, rl_step_choice *choice,
                         char *err, size_t errlen)
{
    for (int i = 0; i < nbatch; i++) {
        if (a->fits)
            choose(m, h, base, a, chips, batch[i], context, p, &choice[i]);
        else
            choice[i] = (rl_step_choice){a->tp, a->pp, a->replicas, chips, 0, 0};
    }
    /* one result per distinct plan, over its rows' batches, in row order */
    size_t rows_n = nbatch > 0 ? (size_t)nbatch : 1;
    cJSON **res = calloc(rows_n, sizeof *res), *out = NULL;
    long long *bs = calloc(rows_n, sizeof *bs);
    int *group = calloc(rows_n, sizeof *group);
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
    }
    out = res[0];
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
    char rule[640];
    snprintf(rule, sizeof rule,
             "%s: each row runs the plan over the %lld chips that holds its batch with the "
             "shortest step (tp x pp times replicas, tp inside one %lld-chip domain that splits "
             "the heads, pp the automatic plan's: the fewest stages whose heaviest holds the "
             "weights at its tp, the most "
             "replicas that fit: chips the plan leaves over idle, idle_chips), ties to fewer "
             "TP; a batch no plan holds runs the automatic plan, fits false; the header's "
             "sharding, replicas, max_batch and memory keys are the first row's plan "
             "(stepplan.h)",
             a->fits ? "fastest plan a batch" : "no plan holds the weights: the nearest", chips,
             h->domain_chips > 0 ? h->domain_chips : chips);
    cJSON_AddStringToObject(out, "plan_choice", rule);
done:
    for (int g = 0; res && g < nbatch; g++)
        cJSON_Delete(res[g]);
    free(res);
    free(bs);
    free(group);
    return out;
}
