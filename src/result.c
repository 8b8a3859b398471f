/* result.c — JSON documents for info and step results. */
#include "result.h"

#include "arch.h"
#include "memory.h"

static void add_precision(cJSON *o, rl_precision p, int abstract)
{
    cJSON_AddStringToObject(o, "weights", rl_dtype_name(p.weights));
    cJSON_AddStringToObject(o, "kv", abstract ? "as given" : rl_dtype_name(p.kv));
    cJSON_AddStringToObject(o, "compute", rl_dtype_name(p.compute));
}

cJSON *rl_result_info(const rl_model *m, rl_precision p, long long context)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    rl_params pc = rl_arch_params(m);
    cJSON_AddStringToObject(o, "model", m->name);
    cJSON_AddBoolToObject(o, "abstract", m->abstract);
    add_precision(o, p, m->abstract);
    cJSON_AddNumberToObject(o, "params_total", pc.total);
    cJSON_AddNumberToObject(o, "params_active", pc.active);
    if (!m->abstract) {
        cJSON *c = cJSON_AddObjectToObject(o, "params");
        cJSON_AddNumberToObject(c, "attention", pc.attention);
        cJSON_AddNumberToObject(c, "mlp", pc.mlp);
        cJSON_AddNumberToObject(c, "mlp_active", pc.mlp_active);
        cJSON_AddNumberToObject(c, "router", pc.router);
        cJSON_AddNumberToObject(c, "embedding", pc.embedding);
        cJSON_AddNumberToObject(c, "lm_head", pc.lm_head);
        cJSON_AddNumberToObject(c, "norms", pc.norms);
    }
    cJSON_AddNumberToObject(o, "weight_bytes", pc.total * rl_dtype_bytes(p.weights));
    cJSON_AddNumberToObject(o, "kv_bytes_per_token", rl_arch_kv_bytes_per_token(m, p.kv));
    cJSON_AddNumberToObject(o, "flops_per_token", rl_arch_flops_per_token(m));
    if (context > 0) {
        cJSON_AddNumberToObject(o, "context", (double)context);
        cJSON_AddNumberToObject(o, "attention_flops_per_token",
                                rl_arch_attention_flops_per_token(m, (double)context));
        cJSON_AddNumberToObject(o, "kv_bytes_per_sequence",
                                (double)context * rl_arch_kv_bytes_per_token(m, p.kv));
    }
    if (m->max_context > 0)
        cJSON_AddNumberToObject(o, "max_context", (double)m->max_context);
    return o;
}

static void add_row(cJSON *rows, const rl_step *s)
{
    cJSON *r = cJSON_CreateObject();
    cJSON_AddNumberToObject(r, "batch", (double)s->batch);
    cJSON_AddNumberToObject(r, "context", (double)s->context);
    cJSON_AddNumberToObject(r, "step_s", s->step_s);
    cJSON_AddNumberToObject(r, "tokens_per_s", s->tokens_per_s);
    cJSON_AddNumberToObject(r, "tokens_per_s_per_chip", s->tokens_per_s_per_chip);
    cJSON_AddNumberToObject(r, "kv_load_s", s->kv_load_s);
    cJSON_AddNumberToObject(r, "weight_load_s", s->weight_load_s);
    cJSON_AddNumberToObject(r, "compute_s", s->compute_s);
    cJSON_AddNumberToObject(r, "weight_bytes", s->mem.weight_bytes);
    cJSON_AddNumberToObject(r, "kv_bytes", s->mem.kv_bytes);
    cJSON_AddNumberToObject(r, "total_bytes", s->mem.total_bytes);
    cJSON_AddBoolToObject(r, "fits", s->mem.fits);
    cJSON_AddStringToObject(r, "bound", rl_bound_name(s->bound));
    cJSON_AddItemToArray(rows, r);
}

cJSON *rl_result_step(const rl_model *m, const rl_hw *h, long long chips, const long long *batch,
                      int nbatch, long long context, rl_precision p)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddStringToObject(o, "mode", h->efficiency.present ? "calibrated" : "ideal");
    cJSON_AddStringToObject(o, "model", m->name);
    cJSON_AddStringToObject(o, "hw", h->name);
    cJSON_AddNumberToObject(o, "chips", (double)chips);
    add_precision(o, p, m->abstract);
    cJSON_AddNumberToObject(o, "b_crit", rl_step_b_crit(m, h, p));
    cJSON_AddNumberToObject(o, "max_batch",
                            (double)rl_memory_max_batch(m, h, chips, context, p.weights, p.kv));
    cJSON_AddNumberToObject(o, "capacity_bytes", (double)chips * h->hbm_bytes);
    cJSON_AddNumberToObject(o, "hbm_bw_total", (double)chips * h->hbm_bw);
    cJSON_AddNumberToObject(o, "kv_bytes_per_token", rl_arch_kv_bytes_per_token(m, p.kv));
    cJSON *rows = cJSON_AddArrayToObject(o, "rows");
    for (int i = 0; i < nbatch; i++) {
        rl_step s = rl_step_decode(m, h, chips, batch[i], context, p);
        add_row(rows, &s);
    }
    return o;
}
