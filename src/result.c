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
                                rl_arch_kv_bytes_per_sequence(m, p.kv, (double)context, RL_KV_IDEAL));
        cJSON_AddNumberToObject(o, "kv_bytes_per_sequence_allocator",
                                rl_arch_kv_bytes_per_sequence(m, p.kv, (double)context,
                                                              RL_KV_ALLOCATOR));
    }
    if (m->max_context > 0)
        cJSON_AddNumberToObject(o, "max_context", (double)m->max_context);
    if (!m->abstract) {
        static const char *const ATTN[] = {"mha", "gqa", "mla"};
        cJSON_AddStringToObject(o, "attention", ATTN[m->attention]);
        cJSON_AddNumberToObject(o, "local_layers", (double)rl_arch_local_layers(m));
    }
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
    cJSON_AddStringToObject(o, "mode", "ideal");
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

static void add_ops_header(cJSON *o, const rl_model *m, const rl_hw *h, const rl_ops_config *c)
{
    cJSON_AddStringToObject(o, "mode", c->mfu > 0 && c->mfu < 1 ? "mfu" : "ideal");
    cJSON_AddStringToObject(o, "model", m->name);
    cJSON_AddStringToObject(o, "hw", h->name);
    cJSON_AddNumberToObject(o, "chips", (double)c->chips);
    add_precision(o, c->prec, m->abstract);
    cJSON_AddStringToObject(o, "act", rl_dtype_name(c->act));
    cJSON_AddStringToObject(o, "attention_impl", c->materialized ? "materialized" : "fused");
    cJSON_AddBoolToObject(o, "causal", !c->non_causal);
    if (c->mfu > 0 && c->mfu < 1)
        cJSON_AddNumberToObject(o, "mfu", c->mfu);
}

cJSON *rl_result_ops(const rl_model *m, const rl_hw *h, const rl_ops_config *c)
{
    rl_ops ops;
    char err[256];
    if (rl_ops_build(m, h, c, &ops, err, sizeof err) != 0)
        return NULL;
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    add_ops_header(o, m, h, c);
    cJSON_AddNumberToObject(o, "prefill_seqs", (double)c->prefill_seqs);
    cJSON_AddNumberToObject(o, "tokens", (double)c->prefill_tokens);
    cJSON_AddNumberToObject(o, "prefix", (double)c->prefill_prefix);
    cJSON_AddNumberToObject(o, "batch", (double)c->decode_batch);
    cJSON_AddNumberToObject(o, "context", (double)c->decode_context);
    cJSON_AddNumberToObject(o, "flops", ops.flops);
    cJSON_AddNumberToObject(o, "weight_bytes", ops.weight_bytes);
    cJSON_AddNumberToObject(o, "act_bytes", ops.act_bytes);
    cJSON_AddNumberToObject(o, "kv_read_bytes", ops.kv_read);
    cJSON_AddNumberToObject(o, "kv_write_bytes", ops.kv_write);
    cJSON_AddNumberToObject(o, "compute_s", ops.compute_s);
    cJSON_AddNumberToObject(o, "memory_s", ops.memory_s);
    cJSON_AddNumberToObject(o, "step_s", ops.step_s);
    cJSON_AddNumberToObject(o, "tokens_per_s", ops.tokens / ops.step_s);
    double peak = (double)c->chips * rl_hw_peak(h, c->prec.compute);
    cJSON_AddNumberToObject(o, "achieved_mfu", ops.flops / (ops.step_s * peak));
    cJSON *rows = cJSON_AddArrayToObject(o, "rows");
    for (int i = 0; i < ops.n; i++) {
        const rl_op *op = &ops.op[i];
        cJSON *r = cJSON_CreateObject();
        double bytes = op->weight_bytes + op->act_read + op->act_write + op->kv_read + op->kv_write;
        cJSON_AddStringToObject(r, "op", op->name);
        cJSON_AddStringToObject(r, "kind", rl_op_kind_name(op->kind));
        cJSON_AddNumberToObject(r, "layers", op->layers);
        cJSON_AddNumberToObject(r, "tokens", op->tokens);
        cJSON_AddNumberToObject(r, "flops", op->flops);
        cJSON_AddNumberToObject(r, "weight_bytes", op->weight_bytes);
        cJSON_AddNumberToObject(r, "act_bytes", op->act_read + op->act_write);
        cJSON_AddNumberToObject(r, "kv_bytes", op->kv_read + op->kv_write);
        if (bytes > 0)
            cJSON_AddNumberToObject(r, "intensity", op->intensity);
        else
            cJSON_AddNullToObject(r, "intensity");
        cJSON_AddStringToObject(r, "bound", rl_bound_name(op->t.bound));
        if (op->kind == RL_OP_WEIGHT && op->b_crit > 0)
            cJSON_AddNumberToObject(r, "b_crit", op->b_crit);
        else
            cJSON_AddNullToObject(r, "b_crit");
        cJSON_AddNumberToObject(r, "time_s", op->t.time_s);
        cJSON_AddNumberToObject(r, "total_s", op->layers * op->t.time_s);
        cJSON_AddNumberToObject(r, "share", op->layers * op->t.time_s / ops.step_s);
        cJSON_AddItemToArray(rows, r);
    }
    return o;
}

cJSON *rl_result_prefill(const rl_model *m, const rl_hw *h, const rl_ops_config *c,
                         const long long *tokens, int ntokens, long long chunk)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    add_ops_header(o, m, h, c);
    cJSON_AddNumberToObject(o, "prefix", (double)c->prefill_prefix);
    if (chunk > 0)
        cJSON_AddNumberToObject(o, "chunk", (double)chunk);
    double peak = (double)c->chips * rl_hw_peak(h, c->prec.compute);
    cJSON *rows = cJSON_AddArrayToObject(o, "rows");
    for (int i = 0; i < ntokens; i++) {
        rl_ops_config p = *c;
        p.prefill_seqs = 1;
        p.prefill_tokens = tokens[i];
        p.decode_batch = 0;
        rl_ops ops;
        char err[256];
        if (rl_ops_build(m, h, &p, &ops, err, sizeof err) != 0) {
            cJSON_Delete(o);
            return NULL;
        }
        cJSON *r = cJSON_CreateObject();
        cJSON_AddNumberToObject(r, "tokens", (double)tokens[i]);
        cJSON_AddNumberToObject(r, "prefix", (double)c->prefill_prefix);
        cJSON_AddNumberToObject(r, "ttft_s", ops.step_s);
        if (chunk > 0)
            cJSON_AddNumberToObject(r, "chunked_s",
                                    rl_ops_chunked_prefill_time(m, h, c, tokens[i],
                                                                c->prefill_prefix, chunk));
        cJSON_AddNumberToObject(r, "flops", ops.flops);
        cJSON_AddNumberToObject(r, "achieved_mfu", ops.flops / (ops.step_s * peak));
        cJSON_AddNumberToObject(r, "tokens_per_s", (double)tokens[i] / ops.step_s);
        cJSON_AddItemToArray(rows, r);
    }
    return o;
}
