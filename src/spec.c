/* spec.c — model and hardware specs: field tables, validation, presets,
 * overrides.  Every rule lives in the two field tables below plus the
 * cross-field checks in check_model / check_hw. */
#include "spec.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lauxlib.h>

#include "number.h"
#include "sandbox.h"
#include "cli.h"
#include "error.h"
#include "guard.h"
#include "silicon.h"

/* Dimensions above this are refused as absurd.  Products of several
 * dimensions can still pass 2^53, where doubles stop counting exactly: the
 * parameter bound in check_model refuses such models. */
#define DIM_MAX 1e9
/* Largest parameter count accepted: 2^51, so that fp32 weight bytes (4 per
 * parameter) and every partial sum stay exact integers in a double (< 2^53). */
#define PARAMS_MAX 2251799813685248.0
/* Bounds for other numbers: positive quantities (bytes, bytes/s, FLOP/s,
 * parameter counts) are at least 1 in their SI unit, and nothing exceeds
 * 1e24, so every result the model derives stays finite. */
#define NUM_MIN_POS 1.0
#define NUM_MAX 1e24

typedef enum { T_INT, T_NUM, T_BOOL, T_STR, T_ENUM, T_FLOPS, T_EFF, T_ENGINES, T_COSTS, T_COLL } ftype;

enum {
    REQ = 1,      /* required (concrete models; every hw spec) */
    ABS = 2,      /* allowed in an abstract model */
    ABS_REQ = 4,  /* required in an abstract model */
    ABS_ONLY = 8, /* allowed only in an abstract model */
    POS = 16,     /* must be > 0 (otherwise >= 0); 0 then means "unset" */
    MIN1 = 32,    /* 0 (absent) or >= 1: a rate or size that is never tiny */
    LATE = 64,    /* read after the others: a copy of one (keep_measured), whose
                     errors name the field copied first */
    MEASURED = 128, /* a figure the chip's measurements were taken at (rl_hw.measured):
                       stated only by the profile that carries them (is_measured_field) */
    SHAPE = 256,  /* a model dimension check_model's parameter bound multiplies:
                     the bound names it when --set changed it (shape_sets_named) */
};

typedef struct {
    const char *name;
    ftype type;
    size_t off;
    size_t size; /* T_STR: buffer size */
    const char *const *choices; /* T_ENUM: NULL-terminated names, index = value */
    int flags;
} field;

static const char *const MLP_NAMES[] = {"swiglu", "gelu", "geglu", NULL};
static const char *const ATTN_NAMES[] = {"mha", "gqa", "mla", NULL};
static const char *const QUANT_NAMES[] = {"linear", "experts", NULL};
static const char *const FP8_SCALING_NAMES[] = {"tensor", "block", NULL};
static const char *const NORM_NAMES[] = {"rmsnorm", "layernorm", NULL};
static const char *const TOPO_NAMES[] = {"ring", "torus2d", "torus3d", "switch", NULL};

#define MF(n, t, fl) {#n, t, offsetof(rl_model, n), 0, NULL, fl}
#define MS(n, fl) {#n, T_STR, offsetof(rl_model, n), sizeof(((rl_model *)0)->n), NULL, fl}
static const field MODEL_FIELDS[] = {
    MS(name, REQ | ABS | ABS_REQ),
    MS(source, ABS),
    MF(params, T_NUM, ABS | ABS_REQ | ABS_ONLY | POS),
    MF(params_active, T_NUM, ABS | ABS_ONLY | POS),
    MF(kv_bytes_per_token, T_NUM, ABS | ABS_REQ | ABS_ONLY | POS),
    MF(layers, T_INT, REQ | POS | SHAPE),
    MF(d_model, T_INT, REQ | POS | SHAPE),
    MF(d_ff, T_INT, REQ | POS | SHAPE),
    MF(heads, T_INT, REQ | POS | SHAPE),
    MF(kv_heads, T_INT, REQ | POS | SHAPE),
    MF(head_dim, T_INT, POS | SHAPE),
    MF(vocab, T_INT, REQ | POS | SHAPE),
    MF(tied_embeddings, T_BOOL, 0),
    {"mlp", T_ENUM, offsetof(rl_model, mlp), 0, MLP_NAMES, 0},
    MF(experts, T_INT, SHAPE),
    MF(top_k, T_INT, 0),
    MF(shared_experts, T_INT, SHAPE),
    MF(d_ff_expert, T_INT, POS | SHAPE),
    MF(dense_layers, T_INT, 0),
    {"attention", T_ENUM, offsetof(rl_model, attention), 0, ATTN_NAMES, 0},
    MF(kv_lora_rank, T_INT, POS),
    MF(q_lora_rank, T_INT, POS),
    MF(qk_rope_head_dim, T_INT, POS),
    MF(qk_nope_head_dim, T_INT, POS),
    MF(v_head_dim, T_INT, POS),
    /* 0 accepted (>= 0; 0 = unset, spec.h), so --set can clear them: no
     * window, or no global prefix (review30 L5) */
    MF(sliding_window, T_INT, 0),
    MF(sliding_window_pattern, T_INT, POS),
    MF(first_sliding_layer, T_INT, 0),
    MF(norms_per_layer, T_INT, 0),
    MF(qk_norm, T_BOOL, 0),
    MF(attention_bias, T_BOOL, 0),
    MF(qkv_bias, T_BOOL, 0),
    MF(mlp_bias, T_BOOL, 0),
    MF(attention_sinks, T_BOOL, 0),
    MF(max_context, T_INT, ABS | POS),
    {"quantized", T_ENUM, offsetof(rl_model, quantized), 0, QUANT_NAMES, 0},
    {"fp8_scaling", T_ENUM, offsetof(rl_model, fp8_scaling), 0, FP8_SCALING_NAMES, 0},
    {"norm", T_ENUM, offsetof(rl_model, norm), 0, NORM_NAMES, 0},
    {NULL, 0, 0, 0, NULL, 0},
};

#define HF(n, t, fl) {#n, t, offsetof(rl_hw, n), 0, NULL, fl}
#define HS(n, fl) {#n, T_STR, offsetof(rl_hw, n), sizeof(((rl_hw *)0)->n), NULL, fl}
static const field HW_FIELDS[] = {
    HS(name, REQ),
    HS(source, 0),
    HF(flops, T_FLOPS, REQ),
    HF(hbm_bytes, T_NUM, REQ | POS),
    HF(hbm_bw, T_NUM, REQ | POS),
    {"measured_hbm_bw", T_NUM, offsetof(rl_hw, measured.hbm_bw), 0, NULL, POS | LATE | MEASURED},
    {"measured_flops", T_FLOPS, offsetof(rl_hw, measured.flops), 0, NULL, LATE | MEASURED},
    {"measured_ici_bw", T_NUM, offsetof(rl_hw, measured.ici_bw), 0, NULL, MIN1 | LATE | MEASURED},
    {"measured_ici_latency", T_NUM, offsetof(rl_hw, measured.ici_latency), 0, NULL, LATE | MEASURED},
    {"measured_ici_links", T_INT, offsetof(rl_hw, measured.ici_links), 0, NULL, LATE | MEASURED},
    {"measured_topology", T_ENUM, offsetof(rl_hw, measured.topology), 0, TOPO_NAMES, LATE | MEASURED},
    /* > 0 as sm: 0 would read as a chip measured at no sm (fixIE); absent:
     * the spec's own sm (keep_measured), unset when it gives none */
    {"measured_sm", T_INT, offsetof(rl_hw, measured.sm), 0, NULL, POS | LATE | MEASURED},
    {"topology", T_ENUM, offsetof(rl_hw, topology), 0, TOPO_NAMES, 0},
    HF(ici_bw, T_NUM, MIN1),
    HF(ici_links, T_INT, 0),
    HF(ici_latency, T_NUM, 0),
    HF(domain_chips, T_INT, POS),
    HF(nvls, T_BOOL, 0),
    HF(sm, T_INT, POS),
    HF(net_bw, T_NUM, MIN1),
    HF(net_latency, T_NUM, 0),
    HF(host_bw, T_NUM, MIN1),
    HF(host_bytes, T_NUM, MIN1),
    HF(price_per_chip_hour, T_NUM, 0),
    HS(price_source, 0),
    HF(efficiency, T_EFF, 0),
    HF(engines, T_ENGINES, 0),
    HF(engine_costs, T_COSTS, 0),
    HF(collectives, T_COLL, 0),
    HS(changed, 0),
    HS(renamed_from, 0),
    HF(smoke_test, T_BOOL, 0),
    {NULL, 0, 0, 0, NULL, 0},
};

/* ---- reading one field ---------------------------------------------------- */

static int read_number(lua_State *L, const char *origin, const char *fname, double *out, char *err,
                       size_t errlen)
{
    if (lua_type(L, -1) != LUA_TNUMBER)
        RL_FAIL("%s: field '%s': expected a number, got %s", origin, fname, luaL_typename(L, -1));
    double v = lua_tonumber(L, -1);
    char got[RL_NUMBER_STR];
    if (!isfinite(v))
        RL_FAIL("%s: field '%s': must be a finite number, got %s", origin, fname,
                rl_number_str(v, got));
    if (fabs(v) > NUM_MAX)
        RL_FAIL("%s: field '%s': %g is beyond the supported maximum %g", origin, fname, v, NUM_MAX);
    *out = v;
    return 0;
}

/* A table of FLOP/s by dtype at field `field` (flops, measured_flops). */
int rl_spec_read_flops(lua_State *L, const char *origin, const char *field, double *flops, char *err,
                      size_t errlen)
{
    if (!lua_istable(L, -1))
        RL_FAIL("%s: field '%s': expected a table of FLOP/s by dtype (%s = { bf16 = 1.97e14 }), "
                "got %s",
                origin, field, field, luaL_typename(L, -1));
    int n = 0;
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        char fname[64], desc[64];
        rl_dtype t;
        const char *name = rl_sandbox_key(L, -2, desc, sizeof desc);
        if (!name || rl_dtype_parse(name, &t) != 0) {
            int named = lua_type(L, -2) == LUA_TSTRING;
            lua_pop(L, 2);
            if (named)
                RL_FAIL("%s: field '%s.%.40s': unknown dtype; give peaks by name, e.g. flops = { "
                        "bf16 = 1e15 } (known: %s)",
                        origin, field, name ? name : desc, rl_dtype_list());
            RL_FAIL("%s: field '%s': key [%s] must be a named field (a dtype name, e.g. flops = { "
                    "bf16 = 1e15 })",
                    origin, field, desc);
        }
        snprintf(fname, sizeof fname, "%s.%s", field, rl_dtype_name(t));
        double v;
        if (read_number(L, origin, fname, &v, err, errlen) != 0) {
            lua_pop(L, 2);
            return -1;
        }
        if (v < NUM_MIN_POS) {
            lua_pop(L, 2);
            char got[RL_NUMBER_STR];
            RL_FAIL("%s: field '%s': must be >= %g FLOP/s, got %s", origin, fname, NUM_MIN_POS,
                    rl_number_str(v, got));
        }
        flops[t] = v;
        n++;
        lua_pop(L, 1);
    }
    if (n == 0)
        RL_FAIL("%s: field '%s': needs at least one dtype (e.g. bf16)", origin, field);
    return 0;
}

/* Read the value on top of the stack into the struct at `base`. */
static int read_field(lua_State *L, const field *f, void *base, const char *origin, char *err,
                      size_t errlen)
{
    char *dst = (char *)base + f->off;
    switch (f->type) {
    case T_STR: {
        if (lua_type(L, -1) != LUA_TSTRING)
            RL_FAIL("%s: field '%s': expected a string, got %s", origin, f->name, luaL_typename(L, -1));
        size_t len;
        const char *s = lua_tolstring(L, -1, &len);
        if (len == 0 && (f->flags & REQ))
            RL_FAIL("%s: field '%s': must not be empty", origin, f->name);
        if (len >= f->size)
            RL_FAIL("%s: field '%s': longer than %zu characters", origin, f->name, f->size - 1);
        for (size_t i = 0; i < len; i++)
            if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
                RL_FAIL("%s: field '%s': contains a control character (byte 0x%02x at offset %zu)",
                        origin, f->name, (unsigned char)s[i], i);
        long bad = rl_utf8_bad(s, len); /* it reaches JSON and HTML (tester46 F3) */
        if (bad >= 0)
            RL_FAIL("%s: field '%s': not UTF-8 text (byte 0x%02x at offset %ld)", origin, f->name,
                    (unsigned char)s[bad], bad);
        memcpy(dst, s, len + 1);
        return 0;
    }
    case T_BOOL:
        if (!lua_isboolean(L, -1))
            RL_FAIL("%s: field '%s': expected true or false, got %s", origin, f->name,
                    luaL_typename(L, -1));
        *(int *)dst = lua_toboolean(L, -1);
        return 0;
    case T_ENUM: {
        if (lua_type(L, -1) != LUA_TSTRING)
            RL_FAIL("%s: field '%s': expected a string, got %s", origin, f->name, luaL_typename(L, -1));
        const char *s = lua_tostring(L, -1);
        for (int i = 0; f->choices[i]; i++) {
            if (strcmp(s, f->choices[i]) == 0) {
                *(int *)dst = i;
                return 0;
            }
        }
        char list[256] = "";
        for (int i = 0; f->choices[i]; i++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s\"%s\"", i ? ", " : "",
                     f->choices[i]);
        RL_FAIL("%s: field '%s': unknown value \"%.40s%s\" (one of %s)", origin, f->name, s,
                rl_elide_suffix(s), list);
    }
    case T_FLOPS:
        return rl_spec_read_flops(L, origin, f->name, (double *)dst, err, errlen);
    case T_EFF:
        return rl_efficiency_read(L, origin, (rl_efficiency *)(void *)dst, err, errlen);
    case T_ENGINES:
        return rl_engines_read(L, origin, (rl_engines *)(void *)dst, err, errlen);
    case T_COSTS:
        return rl_engine_costs_read(L, origin, (rl_engine_costs *)(void *)dst, err, errlen);
    case T_COLL:
        return rl_collectives_read(L, origin, (rl_collectives *)(void *)dst, err, errlen);
    case T_INT:
    case T_NUM: {
        double v;
        char got[RL_NUMBER_STR]; /* the value in enough digits to be itself (number.h) */
        if (read_number(L, origin, f->name, &v, err, errlen) != 0)
            return -1;
        if ((f->flags & POS) ? !(v > 0) : !(v >= 0))
            RL_FAIL("%s: field '%s': must be %s, got %s", origin, f->name,
                    (f->flags & POS) ? "> 0" : ">= 0", rl_number_str(v, got));
        if (f->type == T_NUM) {
            if ((f->flags & (POS | MIN1)) && v != 0 && v < NUM_MIN_POS)
                RL_FAIL("%s: field '%s': must be >= %g (an SI unit: bytes, bytes/s, count), got %s",
                        origin, f->name, NUM_MIN_POS, rl_number_str(v, got));
            *(double *)dst = v;
            return 0;
        }
        if (v != floor(v))
            RL_FAIL("%s: field '%s': must be an integer, got %s", origin, f->name,
                    rl_number_str(v, got));
        if (v > DIM_MAX)
            RL_FAIL("%s: field '%s': %s is beyond the supported maximum %g", origin, f->name,
                    rl_number_str(v, got), DIM_MAX);
        *(long long *)dst = (long long)v;
        return 0;
    }
    }
    RL_FAIL("%s: field '%s': internal error (unknown field type)", origin, f->name);
}

static const field *find_field(const field *fields, const char *name)
{
    for (const field *f = fields; f->name; f++)
        if (strcmp(f->name, name) == 0)
            return f;
    return NULL;
}

/* Walk the table at idx: unknown keys are errors, known ones are read.
 * `present` gets one flag per field.  `abstract` restricts the allowed set. */
static int read_table(lua_State *L, int idx, const field *fields, void *base, int *present,
                      const char *origin, const char *what, char *err, size_t errlen)
{
    idx = lua_absindex(L, idx);
    if (!lua_istable(L, idx))
        RL_FAIL("%s: must return a table (the %s spec), got %s", origin, what, luaL_typename(L, idx));
    luaL_checkstack(L, 8, NULL);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        char desc[64];
        const char *key = rl_sandbox_key(L, -2, desc, sizeof desc);
        if (!key) {
            int named = lua_type(L, -2) == LUA_TSTRING;
            lua_pop(L, 2);
            if (named)
                RL_FAIL("%s: field '%s': a field name must not contain a NUL byte", origin, desc);
            RL_FAIL("%s: key [%s] must be a named field (name = value): %s spec entries are not list "
                    "entries",
                    origin, desc, what);
        }
        const field *f = find_field(fields, key);
        if (!f) {
            char msg[128];
            snprintf(msg, sizeof msg, "%s", key);
            /* a spec of the other kind is a common mix-up: say so */
            int other = fields == HW_FIELDS ? find_field(MODEL_FIELDS, msg) != NULL
                                            : find_field(HW_FIELDS, msg) != NULL;
            lua_pop(L, 2);
            RL_FAIL("%s: field '%s': unknown %s field (%s)", origin, msg, what,
                    other ? (fields == HW_FIELDS ? "is this a model spec? hardware specs give flops, "
                                                   "hbm_bytes, hbm_bw"
                                                 : "is this a hardware spec? model specs give layers, "
                                                   "d_model, heads")
                          : "a typo?");
        }
        if (!(f->flags & LATE) && read_field(L, f, base, origin, err, errlen) != 0) {
            lua_pop(L, 2);
            return -1;
        }
        present[f - fields] = 1;
        lua_pop(L, 1);
    }
    for (const field *f = fields; f->name; f++) {
        if (!(f->flags & LATE) || !present[f - fields])
            continue;
        lua_pushstring(L, f->name);
        lua_rawget(L, idx);
        int rc = read_field(L, f, base, origin, err, errlen);
        lua_pop(L, 1);
        if (rc != 0)
            return -1;
    }
    return 0;
}

/* ---- models -------------------------------------------------------------- */

/* Attention kind, MLA dims and the sliding window (see spec.h). */
static int check_attention(rl_model *m, const int *present, const char *origin, char *err,
                           size_t errlen)
{
    static const char *const MLA_DIMS[] = {"kv_lora_rank", "qk_rope_head_dim", "qk_nope_head_dim",
                                           "v_head_dim", "q_lora_rank", NULL};
    const field *F = MODEL_FIELDS;
    if (!present[find_field(F, "attention") - F])
        m->attention = m->kv_heads == m->heads ? RL_ATTN_MHA : RL_ATTN_GQA;
    if (m->attention == RL_ATTN_MHA && m->kv_heads != m->heads)
        RL_FAIL("%s: field 'attention': \"mha\" needs kv_heads = heads (%lld), got %lld; use \"gqa\"",
                origin, m->heads, m->kv_heads);
    for (int i = 0; MLA_DIMS[i]; i++) {
        int have = present[find_field(F, MLA_DIMS[i]) - F];
        if (m->attention != RL_ATTN_MLA && have)
            RL_FAIL("%s: field '%s': only for attention = \"mla\"", origin, MLA_DIMS[i]);
        if (m->attention == RL_ATTN_MLA && !have && i < 4)
            RL_FAIL("%s: field '%s': missing (required when attention = \"mla\")", origin,
                    MLA_DIMS[i]);
    }
    if (m->sliding_window_pattern > 0 && m->sliding_window == 0)
        RL_FAIL("%s: field 'sliding_window_pattern': set, but sliding_window is not", origin);
    if (m->sliding_window_pattern == 1)
        RL_FAIL("%s: field 'sliding_window_pattern': 1 would leave no local layer; use >= 2, or "
                "leave it unset for all-local",
                origin);
    if (m->first_sliding_layer > 0 && m->sliding_window == 0)
        RL_FAIL("%s: field 'first_sliding_layer': set, but sliding_window is not (with no "
                "window clear it too: --set model.first_sliding_layer=0)", origin);
    if (m->first_sliding_layer > 0 && m->sliding_window_pattern > 0)
        RL_FAIL("%s: field 'first_sliding_layer': not with sliding_window_pattern (one layout: "
                "a periodic pattern, or global layers 0..N-1 then local ones)",
                origin);
    if (m->first_sliding_layer > 0 && m->first_sliding_layer >= m->layers)
        RL_FAIL("%s: field 'first_sliding_layer': %lld leaves no local layer (layers = %lld); "
                "for none set sliding_window = 0 and first_sliding_layer = 0 (--set "
                "model.sliding_window=0 --set model.first_sliding_layer=0)",
                origin, m->first_sliding_layer, m->layers);
    if (m->attention == RL_ATTN_MLA && (m->attention_bias || m->qkv_bias))
        RL_FAIL("%s: field '%s': not with attention = \"mla\" (no MLA checkpoint has "
                "projection biases)",
                origin, m->attention_bias ? "attention_bias" : "qkv_bias");
    return 0;
}

/* The model field --set override o changes when it is one the parameter
 * bound multiplies (its MODEL_FIELDS row flagged SHAPE), else NULL. */
static const char *shape_set(const rl_override *o)
{
    const field *f = find_field(MODEL_FIELDS, o->field + (strncmp(o->field, "model.", 6) ? 0 : 6));
    return f && (f->flags & SHAPE) ? f->name : NULL;
}

/* The fields the parameter bound multiplies that the --set overrides
 * ov[nov] changed, as "field 'heads' = 1e9" (or "fields 'a' = x, 'b' = y"),
 * into buf, so the bound names the field the user changed (fixTE #2:
 * --set model.heads=1e9 was refused as "field 'layers'"); "field 'layers'"
 * when they changed none of them (the spec's own shape). */
static void shape_sets_named(const rl_override *ov, int nov, char *buf, size_t len)
{
    int n = 0;
    for (int i = 0; i < nov; i++)
        n += shape_set(&ov[i]) != NULL;
    if (n == 0) {
        snprintf(buf, len, "field 'layers'");
        return;
    }
    size_t used = (size_t)snprintf(buf, len, "%s", n > 1 ? "fields " : "field ");
    for (int i = 0, said = 0; i < nov && used < len; i++)
        if (shape_set(&ov[i]))
            used += (size_t)snprintf(buf + used, len - used, "%s'%s' = %.40s%s", said++ ? ", " : "",
                                     shape_set(&ov[i]), ov[i].value, rl_elide_suffix(ov[i].value));
    if (used < len)
        snprintf(buf + used, len - used, " (set with --set)");
}

/* `ov`, `nov`: the --set overrides applied to the spec (rl_model_from_table). */
static int check_model(rl_model *m, const int *present, const char *origin, const rl_override *ov,
                       int nov, char *err, size_t errlen)
{
    const field *F = MODEL_FIELDS;
    /* 'params' without 'layers' makes an abstract model; with both, the
     * abstract-only check below names 'params' as the stray field */
    m->abstract = present[find_field(F, "params") - F] && !present[find_field(F, "layers") - F];
    for (const field *f = F; f->name; f++) {
        int have = present[f - F];
        int need = m->abstract ? (f->flags & ABS_REQ) : (f->flags & REQ);
        if (need && !have)
            RL_FAIL("%s: field '%s': missing (required for %s model)", origin, f->name,
                    m->abstract ? "an abstract" : "a");
        if (m->abstract && have && !(f->flags & ABS))
            RL_FAIL("%s: field '%s': not allowed in an abstract model (one that gives 'params'); "
                    "allowed: name, source, params, params_active, kv_bytes_per_token, max_context",
                    origin, f->name);
        if (!m->abstract && have && (f->flags & ABS_ONLY))
            RL_FAIL("%s: field '%s': only for abstract models; this one gives layers, d_model, ...",
                    origin, f->name);
    }
    if (m->abstract) {
        if (!present[find_field(F, "params_active") - F])
            m->params_active = m->params;
        if (m->params > PARAMS_MAX)
            RL_FAIL("%s: field 'params': %g is beyond the 2^51 (%.4g) that sizes in bytes can count "
                    "exactly",
                    origin, m->params, PARAMS_MAX);
        if (m->params_active > m->params)
            RL_FAIL("%s: field 'params_active': %g exceeds params %g", origin, m->params_active,
                    m->params);
        return 0;
    }
    if (m->heads % m->kv_heads != 0)
        RL_FAIL("%s: field 'kv_heads': %lld does not divide heads (%lld)", origin, m->kv_heads,
                m->heads);
    if (check_attention(m, present, origin, err, errlen) != 0)
        return -1;
    if (!present[find_field(F, "head_dim") - F] && m->attention == RL_ATTN_MLA) {
        m->head_dim = m->qk_nope_head_dim + m->qk_rope_head_dim;
    } else if (!present[find_field(F, "head_dim") - F]) {
        if (m->d_model % m->heads != 0)
            RL_FAIL("%s: field 'head_dim': missing, and d_model (%lld) is not a multiple of heads "
                    "(%lld)",
                    origin, m->d_model, m->heads);
        m->head_dim = m->d_model / m->heads;
    }
    if (m->experts == 1)
        RL_FAIL("%s: field 'experts': 1 expert is a dense MLP; use 0 (dense) or >= 2", origin);
    if (m->experts > 0 && m->top_k < 1)
        RL_FAIL("%s: field 'top_k': missing or 0, but experts = %lld", origin, m->experts);
    if (m->experts == 0 && (m->top_k > 0 || m->shared_experts > 0))
        RL_FAIL("%s: field '%s': set, but experts = 0 (dense model)", origin,
                m->top_k > 0 ? "top_k" : "shared_experts");
    if (m->top_k > m->experts)
        RL_FAIL("%s: field 'top_k': %lld exceeds experts (%lld)", origin, m->top_k, m->experts);
    if (m->quantized == RL_QUANT_EXPERTS && m->experts == 0)
        RL_FAIL("%s: field 'quantized': \"experts\" needs routed experts (experts > 0)", origin);
    if (m->dense_layers > m->layers)
        RL_FAIL("%s: field 'dense_layers': %lld exceeds layers (%lld)", origin, m->dense_layers,
                m->layers);
    if (m->experts == 0 && m->dense_layers > 0)
        RL_FAIL("%s: field 'dense_layers': set, but experts = 0 (every layer is dense)", origin);
    if (m->experts == 0 && present[find_field(F, "d_ff_expert") - F])
        RL_FAIL("%s: field 'd_ff_expert': set, but experts = 0 (dense model)", origin);
    if (!present[find_field(F, "d_ff_expert") - F])
        m->d_ff_expert = m->d_ff;
    if (!present[find_field(F, "norms_per_layer") - F])
        m->norms_per_layer = 2;
    if (m->norms_per_layer > 16)
        RL_FAIL("%s: field 'norms_per_layer': %lld; at most 16", origin, m->norms_per_layer);
    /* An upper bound of every term arch.c sums (3 MLP matrices, every expert,
     * the router, both embeddings): all terms are non-negative products of
     * integers, so if the bound is below 2^51 each product and sum is exact. */
    double L = (double)m->layers, D = (double)m->d_model, H = (double)m->head_dim;
    double E = (double)m->experts, S = (double)m->shared_experts;
    double bound = L * (2.0 * D * H * (double)(m->heads + m->kv_heads) + 3.0 * D * (double)m->d_ff +
                        3.0 * D * (double)m->d_ff_expert * (E + S) + D * E + 2.0 * D +
                        /* the small tensors: at most 16 norms and a bias per
                         * matrix row, below the matrices' D (or H) rows */
                        16.0 * D + 2.0 * H + 2.0 * H * (double)(m->heads + m->kv_heads) + D +
                        3.0 * (double)m->d_ff + 3.0 * (double)m->d_ff_expert * (E + S) + E +
                        (double)m->heads) +
                   2.0 * (double)m->vocab * D + D;
    if (bound > PARAMS_MAX) {
        char named[256];
        shape_sets_named(ov, nov, named, sizeof named);
        RL_FAIL("%s: %s: this shape has up to %.4g parameters, beyond the 2^51 (%.4g) "
                "that sizes in bytes can count exactly; refused",
                origin, named, bound, PARAMS_MAX);
    }
    return 0;
}

int rl_model_from_table(lua_State *L, int idx, const char *origin, const rl_override *ov, int nov,
                        rl_model *out, char *err, size_t errlen)
{
    rl_model m = {0};
    int present[sizeof MODEL_FIELDS / sizeof MODEL_FIELDS[0]] = {0};
    snprintf(m.origin, sizeof m.origin, "%s", origin);
    if (read_table(L, idx, MODEL_FIELDS, &m, present, origin, "model", err, errlen) != 0)
        return -1;
    if (check_model(&m, present, origin, ov, nov, err, errlen) != 0)
        return -1;
    *out = m;
    return 0;
}

/* ---- hardware ------------------------------------------------------------ */

static int check_hw(rl_hw *h, const int *present, const char *origin, char *err, size_t errlen)
{
    for (const field *f = HW_FIELDS; f->name; f++)
        if ((f->flags & REQ) && !present[f - HW_FIELDS])
            RL_FAIL("%s: field '%s': missing (required for a hardware spec)", origin, f->name);
    if (h->ici_bw > 0 && h->ici_links < 1)
        RL_FAIL("%s: field 'ici_links': ici_bw is set, so at least one link is needed", origin);
    return 0;
}

static void settle_what_if(rl_hw *h);

int rl_hw_from_table(lua_State *L, int idx, const char *origin, rl_hw *out, char *err, size_t errlen)
{
    rl_hw h = {0};
    int present[sizeof HW_FIELDS / sizeof HW_FIELDS[0]] = {0};
    snprintf(h.origin, sizeof h.origin, "%s", origin);
    if (read_table(L, idx, HW_FIELDS, &h, present, origin, "hardware", err, errlen) != 0)
        return -1;
    if (check_hw(&h, present, origin, err, errlen) != 0)
        return -1;
    rl_engine_costs alias = h.engine_costs; /* the top-level engine_costs of older profiles */
    if (alias.present && !*alias.engine)
        snprintf(alias.engine, sizeof alias.engine, "fitted");
    if (alias.present && rl_hw_put_costs(&h, &alias, err, errlen) != 0)
        return -1;
    rl_hw_sync_costs(&h);
    settle_what_if(&h);
    *out = h;
    return 0;
}

/* ---- back to Lua ------------------------------------------------------------ */

static void push_fields(lua_State *L, const field *fields, const void *base, int abstract)
{
    lua_newtable(L);
    for (const field *f = fields; f->name; f++) {
        if (abstract >= 0 && (abstract ? !(f->flags & ABS) : (f->flags & ABS_ONLY)))
            continue;
        const char *src = (const char *)base + f->off;
        if ((f->flags & POS) && !(f->flags & REQ) &&
            (f->type == T_INT ? *(const long long *)src == 0 : *(const double *)src == 0))
            continue; /* unset optional field */
        switch (f->type) {
        case T_STR:
            if (!*src)
                continue;
            lua_pushstring(L, src);
            break;
        case T_BOOL:
            lua_pushboolean(L, *(const int *)src);
            break;
        case T_ENUM:
            lua_pushstring(L, f->choices[*(const int *)src]);
            break;
        case T_INT:
            lua_pushinteger(L, *(const long long *)src);
            break;
        case T_NUM:
            lua_pushnumber(L, *(const double *)src);
            break;
        case T_EFF:
            if (!((const rl_efficiency *)(const void *)src)->present)
                continue;
            rl_efficiency_push(L, (const rl_efficiency *)(const void *)src);
            break;
        case T_ENGINES:
            if (((const rl_engines *)(const void *)src)->n == 0)
                continue;
            rl_engines_push(L, (const rl_engines *)(const void *)src);
            break;
        case T_COSTS: /* the alias: its costs are an engine's now (rl_hw_put_costs) */
            continue;
        case T_COLL:
            if (!((const rl_collectives *)(const void *)src)->present)
                continue;
            rl_collectives_push(L, (const rl_collectives *)(const void *)src);
            break;
        case T_FLOPS:
            lua_newtable(L);
            for (int t = 0; t < RL_DTYPE_COUNT; t++) {
                if (((const double *)src)[t] > 0) {
                    lua_pushnumber(L, ((const double *)src)[t]);
                    lua_setfield(L, -2, rl_dtype_name((rl_dtype)t));
                }
            }
            break;
        }
        lua_setfield(L, -2, f->name);
    }
}

void rl_model_push(lua_State *L, const rl_model *m)
{
    push_fields(L, MODEL_FIELDS, m, m->abstract);
    /* mha/gqa is derived from kv_heads: leave it out so that an override of
     * kv_heads on the pushed table (a what-if) is not contradicted */
    if (!m->abstract && m->attention != RL_ATTN_MLA) {
        lua_pushnil(L);
        lua_setfield(L, -2, "attention");
    }
    /* likewise d_ff_expert, derived from d_ff, on a dense model */
    if (!m->abstract && m->experts == 0) {
        lua_pushnil(L);
        lua_setfield(L, -2, "d_ff_expert");
    }
}

void rl_hw_push(lua_State *L, const rl_hw *h) { push_fields(L, HW_FIELDS, h, -1); }

int rl_hw_measured(const rl_hw *h)
{
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    return h->efficiency.present || (e && e->tables);
}

int rl_hw_plans_measured(const rl_hw *h)
{
    return !h->ideal && rl_hw_measured(h);
}

void rl_hw_set_ideal(rl_hw *h)
{
    h->efficiency.present = 0;
    h->engines.sel = -1;
    h->ideal = 1;
    rl_hw_sync_costs(h);
}

void rl_hw_sync_costs(rl_hw *h)
{
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    h->engine_costs = e && e->fitted.present ? e->fitted : (rl_engine_costs){0};
    rl_coll_follow_engine(&h->collectives, e ? e->name : NULL);
}

int rl_hw_what_if_of(const rl_hw *h) { return h->changed[0] != 0; }

int rl_hw_link_unused(rl_hw *h)
{
    size_t was = strlen(h->changed);
    h->link_unused = 1;
    settle_what_if(h);
    return strlen(h->changed) != was;
}

/* rl_hw.measured is set on every conversion (settle_what_if); a struct
 * filled otherwise reads as its own chip. */
double rl_hw_measured_bw(const rl_hw *h)
{
    return h->measured.hbm_bw > 0 ? h->measured.hbm_bw : h->hbm_bw;
}

int rl_hw_sm_moved(const rl_hw *h)
{
    return h->measured.hbm_bw > 0 && h->sm != h->measured.sm;
}

int rl_hw_sm_note(const rl_hw *h, char *buf, size_t n)
{
    buf[0] = '\0';
    if (!rl_hw_sm_moved(h))
        return 0;
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    rl_engine_fusion f = rl_engine_fusion_of(e ? e->name : "");
    char was[24]; /* 0: the spec gave none (both read SM90's table, ops.c ar_fused) */
    snprintf(was, sizeof was, h->measured.sm > 0 ? "sm %lld" : "sm unset", h->measured.sm);
    char sm[24];
    snprintf(sm, sizeof sm, h->sm > 0 ? "sm %lld" : "sm unset", h->sm);
    static const char *const TABLE[2] = {"AllReduceBestStrategyTableSM90 (Hopper and older)",
                                         "AllReduceBestStrategyTableSM100 (Blackwell)"};
    int now = h->sm >= 100, then = h->measured.sm >= 100;
    if (!f.ar_norm)
        snprintf(buf, n, "%s picks nothing %s times (no AllReduce with a fused norm), so no "
                 "time moves with it; the chip is not the one measured (%s), so the mode is "
                 "estimated", sm, e ? e->name : "this profile", was);
    else if (now == then)
        snprintf(buf, n, "%s reads the same TensorRT-LLM AllReduce strategy table as the chip "
                 "as measured (%s): %s, so no time moves with it; the mode is estimated and the "
                 "measured AllReduces derived, as on any chip not measured", sm, was,
                 TABLE[now]);
    else /* the row engines.c ENGINE_FUSION quotes: tp 8, hidden size in (4096, 8192) */
        snprintf(buf, n, "%s switches TensorRT-LLM's AllReduce strategy table (cpp/"
                 "tensorrt_llm/common/customAllReduceUtils.h) from %s, the one its tables were "
                 "measured under (%s), to %s: which AllReduce + RMSNorm pairs run fused in the "
                 "one-/two-shot kernel changes (at tp 8: below %d tokens instead of %d at "
                 "hidden size 4097-8191, below %d instead of %d at 8192-16383), so the AllReduce "
                 "and norm times move, and the measured AllReduces are derived (no measurement "
                 "of this chip's strategy)", sm, TABLE[then], was, TABLE[now],
                 now ? 1024 : 128, now ? 128 : 1024, now ? 512 : 64, now ? 64 : 512);
    return 1;
}

const double *rl_hw_measured_flops(const rl_hw *h)
{
    return h->measured.hbm_bw > 0 ? h->measured.flops : h->flops;
}

/* Name a changed figure in h->changed, "FIELD=NOW (as measured WAS)"
 * ("FIELD missing (as measured WAS)" where the spec lacks a peak: flops.D 0),
 * when now differs from was, after "; ": every differing figure (the
 * chip's too: naming only its first left h100-pcie's 24% lower FLOP/s
 * out of the note, tester23 F5).  Numbers with %.6g, or as many more digits as
 * tell NOW from WAS (3.3500001e12 read "3.35e+12 (as measured
 * 3.35e+12)", tester23 F6).  `names`: an enum's value names. */
static void note_change(rl_hw *h, const char *field, double now, double was,
                        const char *const *names)
{
    size_t n = strlen(h->changed);
    if (now == was)
        return;
    char v[2][32];
    for (int p = 6; p <= 17; p++) {
        for (int i = 0; i < 2; i++) {
            double x = i ? was : now;
            if (names)
                snprintf(v[i], sizeof v[i], "%s", names[(int)x]);
            else
                snprintf(v[i], sizeof v[i], "%.*g", p, x);
        }
        if (strcmp(v[0], v[1]) != 0)
            break;
    }
    /* a figure the spec lacks reads 0: say missing, not "=0" (tester64 #7:
     * a partial flops table under `base` replaces the base's whole table,
     * docs/model.md, and read "flops.fp8=0 (as measured 1.979e+15)"); an
     * sm the spec lacks (sm and measured_sm are > 0 when given) is unset */
    if (!strcmp(field, "sm") && (now == 0 || was == 0))
        snprintf(h->changed + n, sizeof h->changed - n, "%ssm=%s (as measured %s)",
                 n ? "; " : "", now ? v[0] : "unset", was ? v[1] : "unset");
    else if (!names && now == 0 && !strncmp(field, "flops.", 6))
        snprintf(h->changed + n, sizeof h->changed - n, "%s%s missing (as measured %s)",
                 n ? "; " : "", field, v[1]);
    else
        snprintf(h->changed + n, sizeof h->changed - n, "%s%s=%s (as measured %s)",
                 n ? "; " : "", field, v[0], v[1]);
}

/* The link half of settle_what_if: the ICI/NVLink figures h's measured
 * collectives were timed at (h's own when the table gives none) and, when
 * h has measured collectives, each that differs, added to h->changed.
 * Without measured collectives a link figure is no what-if: comm.h's model
 * times every collective from h's own figures. */
static void settle_link(rl_hw *h)
{
    rl_hw_figures *m = &h->measured;
    if (!(m->ici_bw > 0)) {
        m->ici_bw = h->ici_bw;
        m->ici_latency = h->ici_latency;
    }
    if (!(m->ici_links > 0)) {
        m->ici_links = h->ici_links;
        m->topology = (int)h->topology;
    }
    if (!h->collectives.present || h->link_unused)
        return;
    note_change(h, "ici_bw", h->ici_bw, m->ici_bw, NULL);
    note_change(h, "ici_latency", h->ici_latency, m->ici_latency, NULL);
    note_change(h, "ici_links", (double)h->ici_links, (double)m->ici_links, NULL);
    note_change(h, "topology", (double)h->topology, (double)m->topology, TOPO_NAMES);
}

/* The one rule for a what-if, on every conversion of a spec table: h's
 * figures against those its measurements were taken at (rl_hw.measured,
 * h's own when the table gives none: then nothing was changed; the
 * selected engine's measured_at when its tables record them, engines.h
 * at_bw, whatever the profile says: tester22 F1, a copy of h100-sxm.lua
 * with hbm_bw doubled read as measured at the doubled figure).  Sets
 * h->changed to every figure that differs.  Nothing is dropped: each
 * measurement times the changed chip at its measured efficiency (kernel
 * tables: engines.h rl_engine_time_on; efficiency tables: efficiency.h
 * rl_eff_time; fitted engine costs: enginecost.h (E), whose device terms
 * are the op list's roofline over the changed figures at the fitted
 * efficiencies and whose host terms do not depend on them; measured
 * collectives: comm.h, the link what-if rule). */
static void settle_what_if(rl_hw *h)
{
    if (!h->own_set) { /* the profile's own, kept for every later engine */
        h->own_measured = h->measured;
        h->own_set = 1;
    }
    h->measured = h->own_measured; /* each engine's figures on a copy (review28 M5) */
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    if (e && e->tables && e->at_bw > 0) { /* the figures its tables record */
        h->measured.hbm_bw = e->at_bw;
        for (int t = 0; t < RL_DTYPE_COUNT; t++)
            if (e->at_flops[t] > 0)
                h->measured.flops[t] = e->at_flops[t];
    }
    /* a dtype neither the tables nor the profile record was not measured,
     * so it is no what-if: the chip's own peak (review28 M5: --set
     * hw.flops.fp4=2e15 on h100-sxm read "as measured 0" and turned a bf16
     * run estimated) */
    for (int t = 0; t < RL_DTYPE_COUNT; t++)
        if (!(h->measured.flops[t] > 0))
            h->measured.flops[t] = h->flops[t];
    if (!(h->measured.hbm_bw > 0))
        h->measured.hbm_bw = h->hbm_bw;
    h->changed[0] = '\0';
    note_change(h, "hbm_bw", h->hbm_bw, h->measured.hbm_bw, NULL);
    for (int t = 0; t < RL_DTYPE_COUNT; t++) {
        char field[32];
        snprintf(field, sizeof field, "flops.%s", rl_dtype_name((rl_dtype)t));
        note_change(h, field, h->flops[t], h->measured.flops[t], NULL);
    }
    /* sm picks the engine's AllReduce strategy table (norm fusion inside
     * the AllReduce, engines.c ENGINE_FUSION): another sm than the chip's
     * own (unset included) times what its tables did not measure
     * (tester64 #3: --set hw.sm=100 on h100-sxm stayed calibrated) */
    note_change(h, "sm", (double)h->sm, (double)h->measured.sm, NULL);
    settle_link(h);
}

const char *rl_engine_alias(const char *name)
{
    return name && strcmp(name, "none") == 0 ? "ideal" : name;
}

int rl_hw_select_engine(rl_hw *h, const char *name, char *err, size_t errlen)
{
    if (rl_engines_select(&h->engines, name, h->origin, err, errlen) != 0)
        return -1;
    if (strcmp(name, "ideal") == 0) /* --engine ideal == --ideal */
        rl_hw_set_ideal(h);
    rl_hw_sync_costs(h);
    settle_what_if(h); /* this engine's tables may record other figures */
    return 0;
}

int rl_engine_with_ideal(int ideal, const char **engine, const char *ideal_opt,
                         const char *engine_opt, char *err, size_t errlen)
{
    if (ideal && *engine && strcmp(*engine, "ideal") != 0)
        RL_FAIL("%s and %s %s contradict each other: %s is %s ideal (the pure roofline, no "
                "engine's tables); give one of them", ideal_opt, engine_opt, *engine, ideal_opt,
                engine_opt);
    if (ideal)
        *engine = "ideal";
    return 0;
}

int rl_engine_with_formula1(int ideal, const char *engine, const char *ideal_opt,
                            const char *engine_opt, char *err, size_t errlen)
{
    if (ideal && engine && strcmp(engine, "ideal") != 0)
        RL_FAIL("%s (formula (1) at the datasheet peaks, timed by no engine) and %s %s contradict "
                "each other; give one of them", ideal_opt, engine_opt, engine);
    return 0;
}

int rl_hw_put_costs(rl_hw *h, const rl_engine_costs *c, char *err, size_t errlen)
{
    rl_engines *g = &h->engines;
    int i = 0;
    while (i < g->n && strcmp(g->e[i].name, c->engine) != 0)
        i++;
    if (i == RL_ENGINES_MAX)
        RL_FAIL("%s: field 'engine_costs': no room for engine '%s' beside the %d of 'engines'",
                h->origin, c->engine, g->n);
    rl_serving_engine *e = &g->e[i];
    if (i == g->n) {
        memset(e, 0, sizeof *e);
        snprintf(e->name, sizeof e->name, "%.31s", c->engine);
        snprintf(e->source, sizeof e->source, "%s", c->source);
        g->n++;
    }
    e->fitted = *c;
    e->launch_s = c->v[RL_EC_LAUNCH];
    snprintf(e->costs_source, sizeof e->costs_source, "%s", c->source);
    memcpy(e->fitted.engine, e->name, sizeof e->name);
    g->def = g->sel = i;
    rl_hw_sync_costs(h);
    return 0;
}

/* Whether tables measured on chip `on` are h's own: its name, or the name
 * it had before a rename (rl_hw.renamed_from). */
static int measured_here(const rl_hw *h, const char *on)
{
    return strcmp(on, h->name) == 0 || (h->renamed_from[0] && strcmp(on, h->renamed_from) == 0);
}

const char *rl_hw_tables_chip(const rl_hw *h, const char *otherwise)
{
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    return e && e->tables && *e->measured_on ? e->measured_on : otherwise;
}

const char *rl_hw_mode(const rl_hw *h, int calibrated)
{
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    if (!calibrated || h->ideal)
        return "ideal";
    if (rl_hw_what_if_of(h))
        return "estimated"; /* measured times scaled to figures nobody measured */
    if (e && e->tables) {
        if (!strcmp(e->measured_on, RL_DEVICE_UNCHECKED))
            return "estimated"; /* no chip known to have run them */
        if (e->at_bw > 0)
            return "calibrated"; /* h's figures are those the tables record */
        /* tables that record no figures (written before 0.27): the name */
        return measured_here(h, e->measured_on) ? "calibrated" : "estimated";
    }
    if (h->efficiency.present)
        return h->efficiency.measured_on[0] && !measured_here(h, h->efficiency.measured_on)
                   ? "estimated"
                   : "calibrated";
    return "estimated"; /* datasheet figures only */
}

const char *rl_topology_name(rl_topology t)
{
    return (unsigned)t < sizeof TOPO_NAMES / sizeof TOPO_NAMES[0] - 1 ? TOPO_NAMES[t] : "?";
}

const char *rl_hw_default_mode(const rl_hw *h, int calibrated)
{
    return calibrated && !h->ideal && h->engine_costs.present && !rl_hw_what_if_of(h)
               ? "fitted"
               : rl_hw_mode(h, calibrated);
}

const char *rl_hw_fit_mode(const rl_hw *h, int calibrated, const char *model, rl_dtype weights,
                           rl_dtype kv, rl_dtype compute, long long tp, long long pp, char *why,
                           size_t n)
{
    char d[RL_EC_DIFFERS_MAX] = "";
    const char *mode = rl_hw_default_mode(h, calibrated);
    const char *dt[RL_EC_DTYPES];
    rl_ec_dtypes(dt, weights, kv, compute);
    if (!strcmp(mode, "fitted"))
        rl_ec_differs(&h->engine_costs, model, dt, tp, pp, d, sizeof d);
    if (why && n)
        snprintf(why, n, "%s", d);
    return *d ? "estimated" : mode;
}

int rl_hw_fitted_untabled(const rl_hw *h)
{
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    return e && e->fitted.present && !e->tables;
}

int rl_hw_engine_caution(const rl_hw *h, const rl_dtype *plan, int which, char *s, size_t len)
{
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    s[0] = '\0';
    if (!plan || h->ideal || !e)
        return 0;
    return which == 0 ? rl_engine_kv_caution(e->name, plan[1], h->sm, s, len)
                      : rl_engine_precision_caution(e->name, plan[0], plan[2], h->sm, s, len);
}

int rl_hw_engine_unrun(const rl_hw *h, const rl_dtype *plan)
{
    char text[8]; /* the cautions write their text somewhere: only the answer is kept */
    return rl_hw_engine_caution(h, plan, 0, text, sizeof text) ||
           rl_hw_engine_caution(h, plan, 1, text, sizeof text);
}

const char *rl_run_mode(const char *base, const rl_hw *h, double share, const rl_dtype *plan)
{
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    if (!strcmp(base, "calibrated") && rl_hw_fitted_untabled(h))
        return "estimated"; /* tester39 F3 (spec.h) */
    if (!strcmp(base, "calibrated") && rl_hw_engine_unrun(h, plan))
        return "estimated"; /* fixTC: a plan the engine does not run (spec.h) */
    if (strcmp(base, "calibrated") != 0 || !e || !e->tables || share < 0)
        return base;
    return share >= RL_TABLE_SHARE_MIN ? base : "estimated";
}

/* ---- overrides ------------------------------------------------------------- */

/* s with its leading blanks skipped and trailing ones cut (in place). */
static char *trim_blanks(char *s)
{
    char *e = s + strlen(s);
    while (*s == ' ' || *s == '\t')
        s++;
    while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
        *--e = '\0';
    return s;
}

const char *rl_hw_field_alias(const char *key)
{
    /* the result keys of the chip's HBM bandwidth (hbm_bytes_per_s, list
     * hw's hbm_bw_bytes_per_s: result.c add_hbm_bw) name the spec field
     * hbm_bw; --help calls them aliases (review finding: --set
     * hw.hbm_bw_bytes_per_s was an unknown field; new-user tester D: so
     * was roofline.hw's { hbm_bytes_per_s = }) */
    static const struct {
        const char *alias, *field;
    } aliases[] = {{"hbm_bytes_per_s", "hbm_bw"}, {"hbm_bw_bytes_per_s", "hbm_bw"}};
    for (size_t i = 0; key && i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcmp(key, aliases[i].alias) == 0)
            return aliases[i].field;
    return NULL;
}

int rl_override_parse(char *arg, int *kind, rl_override *out, char *err, size_t errlen)
{
    char *eq = strchr(arg, '=');
    char *dot = strchr(arg, '.');
    if (!eq || !dot || dot > eq)
        RL_FAIL("--set '%.40s%s': expected model.FIELD=VALUE or hw.FIELD=VALUE", arg,
                rl_elide_suffix(arg));
    *dot = '\0';
    *eq = '\0';
    /* blanks around the prefix, the field name and the value trimmed, both
     * ends, as the flags take " 80" and "80 " alike (tester LOW #7: strtod
     * skipped leading ones only; CLOSING32 LOW: ' hw.flops.bf16 =1e15' read
     * prefix ' hw' and field 'flops.bf16 ') */
    char *pre = trim_blanks(arg);
    if (strcmp(pre, "model") == 0)
        *kind = 0;
    else if (strcmp(pre, "hw") == 0)
        *kind = 1;
    else
        RL_FAIL("--set: prefix '%.40s%s' (before the first '.'): the prefix must be 'model' or "
                "'hw'", pre, rl_elide_suffix(pre));
    out->field = trim_blanks(dot + 1);
    out->value = trim_blanks(eq + 1);
    if (!*out->field)
        RL_FAIL("--set: empty field name");
    if (out->field[strcspn(out->field, " \t")]) /* 'flops. bf16': no field has a blank */
        RL_FAIL("--set %s.%.40s%s: a blank inside the field name (no field has one)", pre,
                out->field, rl_elide_suffix(out->field));
    const char *field = *kind == 1 ? rl_hw_field_alias(out->field) : NULL;
    if (field) /* hbm_bytes_per_s: hbm_bw */
        out->field = field;
    char *end;
    strtod(out->value, &end);
    if (rl_number_is_hex(out->value) && end != out->value && !*end)
        RL_FAIL("--set %s.%s=%s: hexadecimal numbers are not accepted; write it in decimal", pre,
                out->field, out->value);
    return 0;
}

/* Whether string s needs the echo's quotes (spec.h rl_override_quote). */
static int needs_quotes(const char *s)
{
    size_t n = strlen(s);
    char *end;
    if (n == 0 || strcmp(s, "true") == 0 || strcmp(s, "false") == 0 || s[0] == ' ' ||
        s[n - 1] == ' ')
        return 1;
    strtod(s, &end); /* as rl_spec_apply_override reads a value */
    if (*end == '\0')
        return 1;
    for (const unsigned char *c = (const unsigned char *)s; *c; c++)
        if (*c < 0x20 || *c == 0x7f || strchr("\"\\,;={}", *c))
            return 1;
    return 0;
}

const char *rl_override_quote(const char *s, char *buf, size_t n)
{
    if (n == 0)
        return buf;
    if (!needs_quotes(s)) {
        snprintf(buf, n, "%s", s);
        return buf;
    }
    size_t k = 0;
    buf[k++] = '"';
    for (const unsigned char *c = (const unsigned char *)s; *c && k + 6 < n; c++) {
        const char *esc = *c == '"' ? "\\\"" : *c == '\\' ? "\\\\" : *c == '\n' ? "\\n"
                        : *c == '\r' ? "\\r" : *c == '\t' ? "\\t" : NULL;
        if (esc)
            k += (size_t)snprintf(buf + k, n - k, "%s", esc);
        else if (*c < 0x20 || *c == 0x7f)
            k += (size_t)snprintf(buf + k, n - k, "\\x%02x", *c);
        else
            buf[k++] = (char)*c;
    }
    if (k + 1 < n)
        buf[k++] = '"';
    buf[k < n ? k : n - 1] = '\0';
    return buf;
}

const char *rl_override_echo(const rl_override *ov, char *buf, size_t n)
{
    const char *v = ov->value;
    char *end, num[RL_NUMBER_STR], q[1024];
    double x = strtod(v, &end); /* as rl_spec_apply_override */
    if (strcmp(v, "true") == 0 || strcmp(v, "false") == 0)
        snprintf(buf, n, "%s=%s", ov->field, v);
    else if (*v && *end == '\0')
        snprintf(buf, n, "%s=%s", ov->field, rl_number_compact(x, num));
    else
        snprintf(buf, n, "%s=%s", ov->field, rl_override_quote(v, q, sizeof q));
    return buf;
}

int rl_spec_apply_override(lua_State *L, int idx, const char *origin, const rl_override *ov, char *err,
                           size_t errlen)
{
    idx = lua_absindex(L, idx);
    char path[256];
    snprintf(path, sizeof path, "%s", ov->field);
    lua_pushvalue(L, idx);
    char *part = path;
    for (char *dot; (dot = strchr(part, '.')) != NULL; part = dot + 1) {
        *dot = '\0';
        lua_getfield(L, -1, part);
        if (lua_isnil(L, -1)) { /* make the sub-table (e.g. flops) */
            lua_pop(L, 1);
            lua_newtable(L);
            lua_pushvalue(L, -1);
            lua_setfield(L, -3, part);
        } else if (!lua_istable(L, -1)) {
            lua_pop(L, 2);
            RL_FAIL("%s: --set %s: '%s' is not a table", origin, ov->field, part);
        }
        lua_remove(L, -2);
    }
    const char *v = ov->value;
    char *end; /* hex was refused by rl_override_parse; nan and inf reach the field's check */
    double num = strtod(v, &end);
    if (strcmp(v, "true") == 0 || strcmp(v, "false") == 0)
        lua_pushboolean(L, v[0] == 't');
    else if (*v && *end == '\0' && num == floor(num) && fabs(num) < 9e15)
        lua_pushinteger(L, (lua_Integer)num);
    else if (*v && *end == '\0')
        lua_pushnumber(L, num);
    else
        lua_pushstring(L, v);
    lua_setfield(L, -2, part);
    lua_pop(L, 1);
    return 0;
}

/* ---- files and presets -------------------------------------------------------- */

int rl_data_env_check(char *err, size_t errlen)
{
    const char *env = getenv("ROOFLINE_DATA");
    struct stat st;
    const char *why = NULL;
    if (!env || !*env)
        return 0;
    if (stat(env, &st) != 0)
        why = strerror(errno);
    else if (!S_ISDIR(st.st_mode))
        why = "not a directory";
    else if (access(env, R_OK | X_OK) != 0)
        why = strerror(errno);
    if (!why)
        return 0;
    snprintf(err, errlen, "ROOFLINE_DATA='%s': %s: it names the folder presets are looked up in "
             "first (model/, hw_profiles/, PRESETS); set it to such a folder (the source tree) or "
             "unset it", env, why);
    return -1;
}

int rl_data_dirs(char dirs[3][1024])
{
    int n = 0;
    const char *env = getenv("ROOFLINE_DATA");
    if (env && *env)
        snprintf(dirs[n++], 1024, "%s", env);
    char exe[900];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            snprintf(dirs[n++], 1024, "%s/..", exe);
            snprintf(dirs[n++], 1024, "%s/../share/roofline", exe);
        }
    }
    return n;
}

static int cmp_name(const void *a, const void *b) { return strcmp((const char *)a, (const char *)b); }

/* Whether names[n] holds `name`. */
static int has_name(char (*names)[64], int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return 1;
    return 0;
}

int rl_spec_presets(const char *kind, char (*names)[64], int cap)
{
    char dirs[3][1024];
    int ndirs = rl_data_dirs(dirs), n = 0;
    /* every folder rl_data_find searches, as it resolves a name: a preset
     * of $ROOFLINE_DATA holding only the user's own files still lists the
     * shipped ones beside the binary (it listed the first folder alone) */
    for (int i = 0; i < ndirs; i++) {
        char d[4096];
        snprintf(d, sizeof d, "%s/%s", dirs[i], kind);
        DIR *dir = opendir(d);
        if (!dir)
            continue;
        for (struct dirent *e; (e = readdir(dir)) != NULL && n < cap;) {
            size_t l = strlen(e->d_name);
            char name[64];
            if (l <= 4 || l >= 64 + 4 || strcmp(e->d_name + l - 4, ".lua") != 0)
                continue;
            snprintf(name, sizeof name, "%.*s", (int)(l - 4), e->d_name);
            if (!has_name(names, n, name))
                snprintf(names[n++], 64, "%s", name);
        }
        closedir(dir);
    }
    qsort(names, (size_t)n, sizeof names[0], cmp_name);
    return n;
}

/* Comma-separated, sorted preset names of kind into out. */
static void list_presets(const char *kind, char *out, size_t outlen)
{
    static char names[RL_MAX_PRESETS][64];
    int n = rl_spec_presets(kind, names, RL_MAX_PRESETS);
    out[0] = '\0';
    for (int i = 0; i < n && strlen(out) + strlen(names[i]) + 3 < outlen; i++)
        snprintf(out + strlen(out), outlen - strlen(out), "%s%s", i ? ", " : "", names[i]);
}

int rl_data_find(const char *kind, const char *file, char *path, size_t pathlen)
{
    char dirs[3][1024];
    int n = rl_data_dirs(dirs);
    for (int i = 0; i < n; i++) {
        snprintf(path, pathlen, "%s/%s/%s", dirs[i], kind, file);
        if (access(path, R_OK) == 0)
            return 0;
    }
    return -1;
}

void rl_data_tried(const char *kind, const char *file, char *out, size_t outlen)
{
    char dirs[3][1024];
    int n = rl_data_dirs(dirs);
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        size_t used = strlen(out);
        snprintf(out + used, outlen - used, "%s%s/%s/%s", i ? ", " : "", dirs[i], kind, file);
    }
}

/* Same file or folder (device and inode), both existing. */
static int same_node(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

int rl_spec_same_file(const char *kind, const char *name, const char *path)
{
    char resolved[4096], err[256];
    if (!kind)
        return same_node(name, path);
    return rl_spec_resolve(kind, name, resolved, sizeof resolved, err, sizeof err) == 0 &&
           same_node(resolved, path);
}

static int ends_in_lua(const char *name)
{
    size_t l = strlen(name);
    return l > 4 && strcmp(name + l - 4, ".lua") == 0;
}

int rl_spec_is_path(const char *name)
{
    return strchr(name, '/') || ends_in_lua(name);
}

int rl_files_same_text(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = fa && fb;
    while (same) {
        int ca = getc(fa), cb = getc(fb);
        same = ca == cb;
        if (ca == EOF)
            break;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

/* fixFI: a preset name that resolved to `path` in ROOFLINE_DATA (looked up
 * first: rl_data_dirs) while a later data folder (the shipped presets
 * beside the program or in share/roofline) holds another file of that
 * name with other content is said on stderr, once per kind and name: the
 * user's file silently stood for the shipped preset.  ROOFLINE_DATA set
 * to the source tree (make bench, the tests) finds the same file, or an
 * installed copy of it, and says nothing. */
static void note_shadowed(const char *kind, const char *name, const char *file, const char *path)
{
    static char said[32][96];
    static int nsaid;
    char dirs[3][1024], other[2200], key[96];
    int n = rl_data_dirs(dirs);
    const char *env = getenv("ROOFLINE_DATA");
    if (!env || !*env || n < 2)
        return;
    snprintf(other, sizeof other, "%s/%s/%s", dirs[0], kind, file);
    if (strcmp(other, path) != 0) /* not found in ROOFLINE_DATA */
        return;
    snprintf(key, sizeof key, "%.20s/%.70s", kind, name);
    for (int i = 0; i < nsaid; i++)
        if (!strcmp(said[i], key))
            return;
    for (int i = 1; i < n; i++) {
        snprintf(other, sizeof other, "%s/%s/%s", dirs[i], kind, file);
        if (access(other, R_OK) != 0 || same_node(other, path) || rl_files_same_text(other, path))
            continue;
        if (nsaid < (int)(sizeof said / sizeof *said))
            snprintf(said[nsaid++], sizeof said[0], "%s", key);
        rl_cli_tell(NULL, "note: %s '%s' is %s from ROOFLINE_DATA, which is looked up first: it "
                    "shadows the shipped preset of that name (%s); give a path to use that one",
                    strcmp(kind, "model") == 0 ? "model" : "hardware", name, path, other);
        return;
    }
}

/* The preset `name` of `kind` in a data directory after the first that is
 * not the file `self` (the shipped preset a ROOFLINE_DATA file of that name
 * shadows) into out; 1 if found. */
static int shipped_preset(const char *kind, const char *name, const char *self, char *out,
                          size_t len)
{
    char dirs[3][1024], file[4200];
    int n = rl_data_dirs(dirs);
    for (int i = 0; i < n && !rl_spec_is_path(name); i++) {
        snprintf(file, sizeof file, "%s/%s/%s.lua", dirs[i], kind, name);
        size_t k = strlen(file);
        if (k < len && access(file, R_OK) == 0 && !same_node(file, self)) {
            memcpy(out, file, k + 1);
            return 1;
        }
    }
    return 0;
}

int rl_spec_resolve(const char *kind, const char *name, char *path, size_t pathlen, char *err,
                    size_t errlen)
{
    size_t l = strlen(name);
    if (l == 0)
        RL_FAIL("empty %s name", kind);
    const char *what = strcmp(kind, "model") == 0 ? "model" : "hardware";
    /* the name as messages show it: control bytes as \xHH (error.h; tester62 #10) */
    char shown[1024];
    rl_name_shown(name, shown, sizeof shown);
    if (strchr(name, '/') && !ends_in_lua(name))
        RL_FAIL("%s: a %s spec file name must end in .lua", shown, what);
    if (rl_spec_is_path(name)) {
        struct stat st;
        if (stat(name, &st) != 0 || access(name, R_OK) != 0) {
            int e = errno;
            if (!strchr(name, '/'))
                RL_FAIL("%s: cannot read this %s spec: %s (preset names take no .lua: '%.*s')",
                        shown, what, strerror(e), (int)(strlen(shown) - 4), shown);
            RL_FAIL("%s: cannot read this %s spec: %s", shown, what, strerror(e));
        }
        if (S_ISDIR(st.st_mode))
            RL_FAIL("%s: is a directory, not a %s spec file", shown, what);
        snprintf(path, pathlen, "%s", name);
        return 0;
    }
    char file[1024];
    snprintf(file, sizeof file, "%s.lua", name);
    if (rl_data_find(kind, file, path, pathlen) == 0) {
        note_shadowed(kind, name, file, path);
        return 0;
    }
    char known[1024];
    list_presets(kind, known, sizeof known);
    RL_FAIL("unknown %s '%s': no %s/%s.lua (presets: %s; or give a path to a .lua file)", what,
            shown, kind, shown,
            known[0] ? known : "none found; set ROOFLINE_DATA");
}

/* A converter of the spec table at idx, its --set overrides ov[nov]
 * applied already (a hardware spec's errors do not name them). */
typedef int (*from_table_fn)(lua_State *, int, const char *, const rl_override *, int, void *,
                             char *, size_t);

static int model_from_table(lua_State *L, int idx, const char *origin, const rl_override *ov,
                            int nov, void *out, char *err, size_t errlen)
{
    return rl_model_from_table(L, idx, origin, ov, nov, out, err, errlen);
}

static int hw_from_table(lua_State *L, int idx, const char *origin, const rl_override *ov,
                         int nov, void *out, char *err, size_t errlen)
{
    (void)ov, (void)nov;
    return rl_hw_from_table(L, idx, origin, out, err, errlen);
}

/* What load_spec hands to convert_protected. */
typedef struct {
    const rl_override *ov;
    int nov;
    const char *path, *origin;
    from_table_fn convert;
    void *out;
    char *err;
    size_t errlen;
    int rc;
} convert_job;

/* Apply the overrides to the spec table (argument 2) and convert it.  Runs
 * under a protected call: --set reaches the table through lua_getfield and
 * lua_setfield, which run a hostile spec's __index / __newindex, and any
 * allocation may raise a memory error; both must unwind, not abort. */
static void keep_measured(lua_State *L, int t);

/* Whether a hardware field (with or without its "hw." prefix) is one of the
 * figures the profile's measurements were taken at (its HW_FIELDS row
 * flagged MEASURED: measured_hbm_bw, ...): only the profile that carries
 * the measurements may state them (tester11
 * #2: --set hw.measured_flops.bf16=1e12 read a 4096-token prefill at ~14
 * PFLOP/s on one H100). */
int rl_spec_is_measured_field(const char *name)
{
    if (strncmp(name, "hw.", 3) == 0)
        name += 3;
    size_t n = strcspn(name, "."); /* measured_flops.bf16: the field measured_flops */
    for (const field *f = HW_FIELDS; f->name; f++)
        if (strlen(f->name) == n && strncmp(f->name, name, n) == 0)
            return (f->flags & MEASURED) != 0;
    return 0;
}

const char *rl_spec_measured_field(lua_State *L, int idx)
{
    idx = lua_absindex(L, idx);
    const char *found = NULL;
    for (lua_pushnil(L); lua_next(L, idx) != 0; lua_pop(L, 1))
        if (!found && lua_type(L, -2) == LUA_TSTRING && rl_spec_is_measured_field(lua_tostring(L, -2)))
            found = lua_tostring(L, -2); /* the key stays referenced by the table */
    return found;
}

static int convert_protected(lua_State *L)
{
    convert_job *j = lua_touserdata(L, 1);
    if (j->convert == hw_from_table && lua_istable(L, 2))
        keep_measured(L, 2); /* the chip as measured, before --set changes it */
    for (int i = 0; j->rc == 0 && i < j->nov; i++) {
        if (!lua_istable(L, 2)) {
            snprintf(j->err, j->errlen, "%s: must return a table, got %s", j->path,
                     luaL_typename(L, 2));
            j->rc = -1;
        } else if (j->convert == hw_from_table && rl_spec_is_measured_field(j->ov[i].field)) {
            snprintf(j->err, j->errlen,
                     "%s: --set %s: the figures a profile was measured at are written with "
                     "its measurements; set the chip's own figure for a what-if",
                     j->origin, j->ov[i].field);
            j->rc = -1;
        } else {
            j->rc = rl_spec_apply_override(L, 2, j->origin, &j->ov[i], j->err, j->errlen);
        }
    }
    if (j->rc == 0)
        j->rc = j->convert(L, 2, j->origin, j->ov, j->nov, j->out, j->err, j->errlen);
    return 0;
}

/* Raw t[key] = copy of t[from] when t[key] is nil (t an absolute index): a
 * table is copied one level deep (flops), so a later change of t[from]
 * leaves the copy alone. */
static void keep_as(lua_State *L, int t, const char *key, const char *from)
{
    lua_pushstring(L, key);
    if (lua_rawget(L, t) != LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    lua_pushstring(L, from);
    if (lua_rawget(L, t) == LUA_TTABLE) {
        int src = lua_gettop(L);
        lua_newtable(L);
        for (lua_pushnil(L); lua_next(L, src) != 0;) {
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_rawset(L, src + 1);
        }
        lua_remove(L, src);
    }
    lua_pushstring(L, key);
    lua_insert(L, -2);
    lua_rawset(L, t);
    lua_pop(L, 1);
}

/* The figures the hardware spec at t (absolute index) was measured at, as
 * spec fields (rl_hw.measured) unless it gives them: its own hbm_bw,
 * flops, ici_bw, ici_latency, ici_links, topology and sm.  Done before anything can change them: on a base before a derived
 * spec's fields replace its own (tester7 #4: { base = 'h100-sxm', hbm_bw =
 * 6e12 } read the H100 tables unchanged), and on the spec before --set
 * applies; allocates (a protected call's). */
static void keep_measured(lua_State *L, int t)
{
    keep_as(L, t, "measured_hbm_bw", "hbm_bw");
    keep_as(L, t, "measured_flops", "flops");
    keep_as(L, t, "measured_ici_bw", "ici_bw");
    keep_as(L, t, "measured_ici_latency", "ici_latency");
    keep_as(L, t, "measured_ici_links", "ici_links");
    keep_as(L, t, "measured_topology", "topology");
    keep_as(L, t, "measured_sm", "sm");
}

/* A derived spec that only renames its base (index 1) renames the chip,
 * not what was measured on it: the base's name becomes renamed_from, as
 * --set hw.name and roofline.hw's rename do (rl_hw_renamed; tester11 #3:
 * { base = "h100-sxm", name = "x" } read estimated).  A spec (index 2)
 * stating renamed_from itself keeps its own. */
static void keep_renamed(lua_State *L)
{
    lua_getfield(L, 1, "name");
    lua_getfield(L, 2, "name");
    lua_getfield(L, 1, "renamed_from");
    if (lua_type(L, -3) == LUA_TSTRING && lua_type(L, -2) == LUA_TSTRING && lua_isnil(L, -1) &&
        strcmp(lua_tostring(L, -3), lua_tostring(L, -2)) != 0) {
        lua_pushvalue(L, -3);
        lua_setfield(L, 1, "renamed_from");
    }
    lua_pop(L, 3);
}

/* A derived spec (argument 2) that sets a figure of its own (anything but
 * `base` and `engines`: a what-if such as a price) is another profile than
 * its base, so without a `name` it is named after its file's stem (argument
 * 3), and keep_renamed keeps the base's as renamed_from (tester36 F4:
 * { base = "b200", price_per_chip_hour = P } read as b200, so `--hw
 * b200,that.lua` was refused as given twice).  An engine profile (base and
 * engines only: calibrate --tables, fit --save) keeps its base's name. */
static void name_what_if(lua_State *L)
{
    int own = 0;
    lua_pushnil(L);
    while (lua_next(L, 2) != 0) {
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "";
        if (strcmp(k, "name") == 0) {
            lua_pop(L, 2);
            return;
        }
        own |= strcmp(k, "base") != 0 && strcmp(k, "engines") != 0;
        lua_pop(L, 1);
    }
    if (!own)
        return;
    const char *path = lua_tostring(L, 3), *slash = strrchr(path, '/');
    const char *stem = slash ? slash + 1 : path, *dot = strrchr(stem, '.');
    lua_pushliteral(L, "name");
    lua_pushlstring(L, stem, dot && dot != stem ? (size_t)(dot - stem) : strlen(stem));
    lua_rawset(L, 2);
}

/* A derived spec (argument 2) that prices the chip without a
 * price_source of its own does not carry its base's: the base's citation
 * is for the base's price (tester83 #2: { base = "h100-sxm",
 * price_per_chip_hour = 2.0 } printed the H100 market survey beside 2.00),
 * so it names the file (argument 3) as --set names itself (rl_hw_load). */
static void own_price_source(lua_State *L)
{
    lua_getfield(L, 2, "price_per_chip_hour");
    lua_getfield(L, 2, "price_source");
    if (!lua_isnil(L, -2) && lua_isnil(L, -1)) {
        lua_pushfstring(L, "given in %s (no price_source there)", lua_tostring(L, 3));
        lua_setfield(L, 2, "price_source");
    }
    lua_pop(L, 2);
}

/* Copy every field of the derived spec (argument 2) but `base` into its base
 * (argument 1), raw, once the base's figures are kept as measured: a
 * protected call, as any allocation may raise. */
static int merge_fields(lua_State *L)
{
    name_what_if(L);
    keep_measured(L, 1);
    keep_renamed(L);
    own_price_source(L);
    lua_pushnil(L);
    while (lua_next(L, 2) != 0) {
        if (lua_type(L, -2) == LUA_TSTRING && strcmp(lua_tostring(L, -2), "base") == 0) {
            lua_pop(L, 1);
            continue;
        }
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, 1);
    }
    return 0;
}

/* The file of base `name` named by the spec at `path`: a preset name, or a
 * .lua path relative to the directory of `path`.  0, or -1 with err set. */
static int resolve_base(const char *path, const char *name, char *bpath, size_t len, char *err,
                        size_t errlen)
{
    char rel[2048];
    const char *slash = strrchr(path, '/');
    if (rl_spec_is_path(name) && name[0] != '/' && slash)
        snprintf(rel, sizeof rel, "%.*s/%s", (int)(slash - path), path, name);
    else
        snprintf(rel, sizeof rel, "%s", name);
    return rl_spec_resolve("hw_profiles", rel, bpath, len, err, errlen);
}

int rl_spec_hw_reads_file(const char *name, const char *path)
{
    char cur[1024], next[1024], err[1024];
    if (rl_spec_resolve("hw_profiles", name, cur, sizeof cur, err, sizeof err) != 0)
        return 0;
    for (int depth = 0; depth <= RL_SPEC_BASE_DEPTH; depth++) {
        if (same_node(cur, path))
            return 1;
        lua_State *L = rl_sandbox_new(&RL_SPEC_LIMITS);
        int found = L && rl_sandbox_dospec(L, cur, 1, err, sizeof err) == 0 &&
                    lua_istable(L, -1) && lua_getfield(L, -1, "base") == LUA_TSTRING &&
                    resolve_base(cur, lua_tostring(L, -1), next, sizeof next, err,
                                 sizeof err) == 0;
        if (L)
            rl_sandbox_close(L);
        if (!found)
            return 0;
        memcpy(cur, next, sizeof cur);
    }
    return 0;
}

/* The folder of the spec file `path` into dir[RL_ENGINES_DIR_MAX] ("."
 * for a bare file name), or "" for NULL: a preset's. */
static void engines_dir(const char *path, char *dir)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    if (!path)
        dir[0] = '\0';
    else if (!slash)
        snprintf(dir, RL_ENGINES_DIR_MAX, ".");
    else
        snprintf(dir, RL_ENGINES_DIR_MAX, "%.*s", slash == path ? 1 : (int)(slash - path), path);
}

/* Resolve a hardware spec's `base` (spec.h) for the table on top of L, read
 * from `path`: the base's table with the spec's other fields replacing its
 * own takes its place on the stack.  A base is a preset name, or a .lua path
 * relative to the directory of the file naming it; bases may chain up to
 * RL_SPEC_BASE_DEPTH deep.  Returns 0 or -1 with "PATH: field 'base': ...". */
static int load_base(lua_State *L, const char *path, int depth, char *edir, char *err,
                     size_t errlen)
{
    if (!lua_istable(L, -1))
        return 0; /* the conversion names what was returned */
    lua_pushstring(L, "engines");
    int own_engines = lua_rawget(L, -2) != LUA_TNIL;
    lua_pop(L, 1);
    lua_pushstring(L, "base");
    int t = lua_rawget(L, -2);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return 0;
    }
    if (t != LUA_TSTRING) {
        lua_pop(L, 1);
        RL_FAIL("%s: field 'base': expected a hardware preset name or a .lua path, got %s", path,
                lua_typename(L, t));
    }
    char name[1024], bpath[1024], e2[1024];
    snprintf(name, sizeof name, "%s", lua_tostring(L, -1));
    lua_pop(L, 1);
    if (depth >= RL_SPEC_BASE_DEPTH)
        RL_FAIL("%s: field 'base': more than %d bases in a chain (a cycle?)", path,
                RL_SPEC_BASE_DEPTH);
    if (resolve_base(path, name, bpath, sizeof bpath, e2, sizeof e2) != 0)
        RL_FAIL("%s: field 'base': %s", path, e2);
    if (same_node(bpath, path)) { /* tester77 F6: read as "more than 8 bases (a cycle?)" */
        char eg[1100] = "";
        if (shipped_preset("hw_profiles", name, path, e2, sizeof e2))
            snprintf(eg, sizeof eg, " (e.g. base = \"%s\")", e2);
        RL_FAIL("%s: field 'base': '%s' names the file itself%s; give %s path%s", path, name,
                eg[0] ? " (a ROOFLINE_DATA file, looked up before the shipped preset of its "
                        "name)" : "",
                eg[0] ? "the shipped preset's" : "another spec's", eg);
    }
    if (rl_sandbox_dospec(L, bpath, 1, e2, sizeof e2) != 0)
        RL_FAIL("%s: field 'base': %s", path, e2);
    rl_guard_read_path(bpath, "a hardware spec's base"); /* guard.h rule 4 */
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        RL_FAIL("%s: field 'base': %s must return a table", path, bpath);
    }
    /* the engines a spec takes from its base are the base's: their files
     * are looked up beside the base when it was given by path (else in the
     * shipped tree: engines.h rl_engines_spec_dir) */
    char keep[RL_ENGINES_DIR_MAX];
    snprintf(keep, sizeof keep, "%s", edir);
    engines_dir(rl_spec_is_path(name) ? bpath : NULL, edir);
    if (load_base(L, bpath, depth + 1, edir, err, errlen) != 0) {
        lua_pop(L, 1);
        return -1;
    }
    if (own_engines)
        snprintf(edir, RL_ENGINES_DIR_MAX, "%s", keep);
    const char *measured = rl_spec_measured_field(L, -2);
    if (measured) {
        snprintf(e2, sizeof e2, "%s", measured);
        lua_pop(L, 1);
        RL_FAIL("%s: field '%s': a derived spec inherits the figures its base was measured "
                "at; set the chip's own figure for a what-if", path, e2);
    }
    lua_pushcfunction(L, merge_fields);
    lua_pushvalue(L, -2); /* the base */
    lua_pushvalue(L, -4); /* the spec naming it */
    lua_pushstring(L, path);
    if (rl_sandbox_pcall(L, 3, 0, path, err, errlen) != 0) {
        lua_pop(L, 1);
        return -1;
    }
    lua_remove(L, -2); /* the merged base stands for the spec */
    return 0;
}

static int load_spec(const char *kind, const char *name, const rl_override *ov, int nov,
                     from_table_fn convert, void *out, char *err, size_t errlen)
{
    char path[1024];
    if (rl_spec_resolve(kind, name, path, sizeof path, err, errlen) != 0)
        return -1;
    lua_State *L = rl_sandbox_new(&RL_SPEC_LIMITS);
    if (!L)
        RL_FAIL("%s: out of memory", path);
    int rc = rl_sandbox_dospec(L, path, 1, err, errlen);
    rl_guard_read_path(path, strcmp(kind, "model") ? "hardware spec" : "model spec");
    char edir[RL_ENGINES_DIR_MAX]; /* where the engines' files are read first */
    engines_dir(rl_spec_is_path(name) ? path : NULL, edir);
    if (rc == 0 && strcmp(kind, "hw_profiles") == 0)
        rc = load_base(L, path, 0, edir, err, errlen);
    /* with overrides, errors name them: the preset file itself may be fine.
     * A preset is named as the user gave it, KIND/NAME.lua, not by where this
     * install keeps it (an absolute path leaked into reports); a path stays
     * as given (rl_spec_resolve copies it), and so does a preset that is no
     * shipped file (PRESETS lists those: guard.h), one of the user's own
     * in ROOFLINE_DATA: "model/bad.lua" did not say which folder held it
     * (tester59 #3). */
    char origin[1024];
    int preset = strcmp(path, name) != 0 && rl_guard_shipped_file(path) != RL_SHIPPED_NONE;
    int used = preset ? snprintf(origin, sizeof origin, "%s/%s.lua", kind, name)
                      : snprintf(origin, sizeof origin, "%s", path);
    /* each field and value cut to 40 characters and "...": a 5000-character
     * --set value filled err before the reason (tester LOW #1) */
    for (int i = 0; i < nov && used < (int)sizeof origin; i++)
        used += snprintf(origin + used, sizeof origin - (size_t)used, "%s%.40s%s=%.40s%s",
                         i ? ", " : " with --set ", ov[i].field,
                         rl_elide_suffix(ov[i].field), ov[i].value, rl_elide_suffix(ov[i].value));
    /* every message names the spec by origin: its control bytes as \xHH
     * (error.h rl_name_shown; tester62 #10: a path's newline split them) */
    char shown[1024];
    rl_name_shown(origin, shown, sizeof shown);
    if (rc == 0) {
        convert_job j = {ov, nov, path, shown, convert, out, err, errlen, 0};
        lua_pushcfunction(L, convert_protected);
        lua_pushlightuserdata(L, &j);
        lua_pushvalue(L, -3); /* the spec table */
        rl_engines_spec_dir(edir);
        rc = rl_sandbox_pcall(L, 2, 0, path, err, errlen) != 0 ? -1 : j.rc;
        rl_engines_spec_dir(NULL);
    }
    rl_sandbox_close(L);
    return rc;
}

int rl_model_load(const char *name_or_path, const rl_override *ov, int nov, rl_model *out, char *err,
                  size_t errlen)
{
    return load_spec("model", name_or_path, ov, nov, model_from_table, out, err,
                     errlen);
}

void rl_hw_renamed(rl_hw *h, const char *old_name)
{
    if (!h->renamed_from[0] && strcmp(old_name, h->name) != 0)
        snprintf(h->renamed_from, sizeof h->renamed_from, "%s", old_name);
}

/* --set hw.name renames the chip, not what was measured on it: tables
 * measured on the profile's own chip stay its own (rl_hw_mode), engines
 * read later from their files included.  Reads the profile again without
 * the overrides for its own name.  0, or -1 with err. */
static int renamed_measurements(const char *name_or_path, const rl_override *ov, int nov,
                                rl_hw *h, char *err, size_t errlen)
{
    int renamed = 0;
    for (int i = 0; i < nov; i++)
        renamed |= strcmp(ov[i].field, "name") == 0;
    if (!renamed)
        return 0;
    rl_hw *own = malloc(sizeof *own);
    if (!own)
        RL_FAIL("%s: out of memory", h->origin);
    int rc = load_spec("hw_profiles", name_or_path, NULL, 0, hw_from_table, own, err, errlen);
    if (rc == 0)
        rl_hw_renamed(h, own->name);
    free(own);
    return rc;
}

/* The lowest and highest figure of each kind over the shipped presets
 * (the hw_profiles .lua presets, their datasheet figures; tests/test_spec.c
 * preset_ranges checks this table against them, so a new preset that
 * widens a range fails until it is updated here).  The counts (count 1:
 * ici_links, domain_chips, integers of at least 1, so only the side above
 * can be crossed) are written whole in a note. */
static const struct {
    const char *field;
    double lo, hi;
    const char *unit;
    int count;
} HW_PRESET_RANGE[] = {
    {"flops", 1.97e14, 1e16, "FLOP/s", 0},            /* tpu-v5e bf16 .. gb200 fp4 */
    {"hbm_bw", 8.19e11, 8e12, "B/s", 0},              /* tpu-v5e .. b200, gb200 */
    {"hbm_bytes", 17179869184.0, 198674743296.0, "bytes", 0}, /* tpu-v5e 16 GiB .. gb200 */
    {"ici_bw", 2.5e10, 9e10, "B/s", 0},               /* a100/h100 links .. tpu-v5p */
    {"ici_latency", 1e-6, 2e-6, "s", 0},              /* the TPUs .. the NVLink GPUs (per hop) */
    {"net_bw", 3.125e9, 5e10, "B/s", 0},              /* tpu-v5e .. h100/b200 */
    {"net_latency", 5e-6, 1e-5, "s", 0},              /* the GPUs' InfiniBand .. the TPUs' DCN */
    {"host_bw", 1.6e10, 4.5e11, "B/s", 0},            /* the TPUs .. gb200 NVLink-C2C */
    {"ici_links", 4, 18, "links", 1},    /* the 2D-torus TPUs (v5e, v6e) .. NVLink 4/5 (h100..gb200) */
    {"domain_chips", 2, 6144, "chips", 1}, /* h100-pcie's NVLink bridge pair .. tpu-v5p's largest slice */
};

/* The entry of HW_PRESET_RANGE for `field` ("flops.bf16" and the other
 * dtypes share flops'), or -1. */
static int preset_range_at(const char *field)
{
    for (size_t i = 0; i < sizeof HW_PRESET_RANGE / sizeof HW_PRESET_RANGE[0]; i++) {
        const char *f = HW_PRESET_RANGE[i].field;
        if (strcmp(field, f) == 0 || (strcmp(f, "flops") == 0 && strncmp(field, "flops.", 6) == 0))
            return (int)i;
    }
    return -1;
}

int rl_hw_preset_range(const char *field, double *lo, double *hi, const char **unit)
{
    int i = preset_range_at(field);
    if (i < 0)
        return 0;
    *lo = HW_PRESET_RANGE[i].lo;
    *hi = HW_PRESET_RANGE[i].hi;
    *unit = HW_PRESET_RANGE[i].unit;
    return 1;
}

/* rl_hw_override_plausible_note with the figure named by `named` (the
 * text before its value: "hw.FIELD=" or "FILE: field 'FIELD' = "). */
static int range_note(const char *named, const char *field, double v, char *buf, size_t n)
{
    int i = preset_range_at(field);
    if (i < 0 || !(v > 0) || !isfinite(v))
        return 0; /* 0, negative and non-finite are the spec checks' to refuse */
    double lo = HW_PRESET_RANGE[i].lo, hi = HW_PRESET_RANGE[i].hi;
    if (v >= lo / RL_HW_PLAUSIBLE_FACTOR && v <= hi * RL_HW_PLAUSIBLE_FACTOR)
        return 0;
    const char *unit = HW_PRESET_RANGE[i].unit;
    int digits = HW_PRESET_RANGE[i].count ? 15 : 3; /* a count whole */
    snprintf(buf, n, "%s%.*g %s lies over %.0fx %s the shipped presets' range (%.*g to "
             "%.*g %s, hw_profiles/*.lua); a typo? (it is used as given)", named, digits, v, unit,
             RL_HW_PLAUSIBLE_FACTOR, v < lo ? "below" : "above", digits, lo, digits, hi, unit);
    return 1;
}

int rl_hw_override_plausible_note(const char *field, double v, char *buf, size_t n)
{
    char named[64];
    snprintf(named, sizeof named, "hw.%s=", field);
    return range_note(named, field, v, buf, n);
}

/* How a note names figure `field` of h: "hw.FIELD=" when a --set of
 * ov[nov] gave it, else by its spec's origin and field, "FILE: field
 * 'FIELD' = " (a preset, a spec or calibrated profile file, a Lua table:
 * fixVC #3, the note read "hw.ici_latency=" for a figure in a file); the
 * origin without load_spec's " with --set a=1, b=2" list. */
static int set_by_override(const rl_override *ov, int nov, const char *field)
{
    for (int i = 0; i < nov; i++)
        if (strcmp(ov[i].field, field) == 0)
            return 1;
    return 0;
}

static void figure_named(const rl_hw *h, const rl_override *ov, int nov, const char *field,
                         char *buf, size_t n)
{
    if (set_by_override(ov, nov, field)) {
        snprintf(buf, n, "hw.%s=", field);
        return;
    }
    const char *with = strstr(h->origin, " with --set ");
    int file = with ? (int)(with - h->origin) : (int)strlen(h->origin);
    snprintf(buf, n, "%.*s: field '%s' = ", file, h->origin, field);
}

/* The note of figure `field` of h, valued v: rl_hw_override_plausible_note
 * naming it by figure_named. */
static int figure_note(const rl_hw *h, const rl_override *ov, int nov, const char *field, double v,
                       char *buf, size_t n)
{
    char named[sizeof h->origin + 64];
    figure_named(h, ov, nov, field, named, sizeof named);
    return range_note(named, field, v, buf, n);
}

int rl_hw_plausible_notes(const rl_hw *h, const rl_override *ov, int nov,
                          void (*say)(const char *note, void *ctx), void *ctx)
{
    int measured = rl_hw_measured(h), n = 0;
    char note[sizeof h->origin + 512], field[32]; /* the origin, the field, ~200 of text */
    for (int t = 0; t < RL_DTYPE_COUNT; t++) {
        snprintf(field, sizeof field, "flops.%s", rl_dtype_name((rl_dtype)t));
        /* a peak the measurements were taken at is the chip's, however far
         * from the presets (the reference engine's CPU); a --set one is a
         * what-if even where it equals that figure, since a dtype nothing
         * measured takes its own peak as measured (settle_what_if; stop 54
         * leftover: --set hw.flops.fp4=1 on h100-sxm said nothing) */
        if (!(measured && h->flops[t] == h->measured.flops[t] && !set_by_override(ov, nov, field)) &&
            figure_note(h, ov, nov, field, h->flops[t], note, sizeof note))
            say(note, ctx), n++;
    }
    const struct {
        const char *field;
        double v;
        int as_measured; /* a figure the measurements were taken at */
    } fig[] = {
        {"hbm_bw", h->hbm_bw, measured && h->hbm_bw == h->measured.hbm_bw},
        {"hbm_bytes", h->hbm_bytes, 0},
        {"ici_bw", h->ici_bw, 0},
        {"ici_latency", h->ici_latency, 0},
        {"net_bw", h->net_bw, 0},
        {"net_latency", h->net_latency, 0},
        {"host_bw", h->host_bw, 0},
        {"ici_links", (double)h->ici_links, 0},
        {"domain_chips", (double)h->domain_chips, 0},
    };
    for (size_t i = 0; i < sizeof fig / sizeof fig[0]; i++)
        if (!fig[i].as_measured && figure_note(h, ov, nov, fig[i].field, fig[i].v, note, sizeof note))
            say(note, ctx), n++;
    return n;
}

int rl_hw_override_check(const char *field, double v, char *err, size_t errlen)
{
    if (strcmp(field, "host_bytes") == 0 && v == 0)
        RL_FAIL("hw.host_bytes=0: a hw spec reads host_bytes 0 as not given, as it reads ici_bw, "
                "net_bw and host_bw 0 (a saved profile writes 0 for a figure it lacks), so 0 "
                "cannot say 'no host memory' and would leave a host prefix tier unchecked; give "
                "host memory a chip in bytes (>= 1), or no host tier (--prefix-cache HBM_GB "
                "without :HOST_GB)");
    return 0;
}

int rl_hw_load(const char *name_or_path, const rl_override *ov, int nov, rl_hw *out, char *err,
               size_t errlen)
{
    for (int i = 0; i < nov; i++) { /* an override said as given (tester47 F15) */
        char *end;
        double v = strtod(ov[i].value, &end);
        if (*ov[i].value && !*end && rl_hw_override_check(ov[i].field, v, err, errlen) != 0)
            return -1;
    }
    if (load_spec("hw_profiles", name_or_path, ov, nov, hw_from_table, out, err, errlen) != 0)
        return -1;
    /* a price given with --set is not the profile's source's price */
    const char *price = NULL;
    int source = 0;
    for (int i = 0; i < nov; i++) {
        price = strcmp(ov[i].field, "price_per_chip_hour") == 0 ? ov[i].value : price;
        source |= strcmp(ov[i].field, "price_source") == 0;
    }
    if (price && !source)
        snprintf(out->price_source, sizeof out->price_source,
                 "given with --set hw.price_per_chip_hour=%s", price);
    return renamed_measurements(name_or_path, ov, nov, out, err, errlen);
}

/* ---- writing a spec back as Lua source (spec.h) ---- */

void rl_spec_put_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20 || c == 0x7f)
            fprintf(f, "\\%03u", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* name, then source, then the rest alphabetically */
static int cmp_field(const void *a, const void *b)
{
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    int px = strcmp(x, "name") == 0 ? 0 : strcmp(x, "source") == 0 ? 1 : 2;
    int py = strcmp(y, "name") == 0 ? 0 : strcmp(y, "source") == 0 ? 1 : 2;
    return px != py ? px - py : strcmp(x, y);
}

/* A table key as Lua reads it back: a name as written when it is one
 * (a letter or '_', then letters, digits, '_'; not a reserved word of the
 * Lua 5.4 manual section 3.1), else ["..."] quoted as rl_spec_put_string
 * (tester7 #5: fit --save of my-run.csv or end.csv wrote `my-run = {` and
 * `end = {`, which do not load). */
void rl_spec_put_key(FILE *f, const char *k)
{
    static const char *const reserved[] = {
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if",
        "in", "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while"};
    int name = isalpha((unsigned char)k[0]) || k[0] == '_';
    for (const char *p = k; *p && name; p++)
        name = isalnum((unsigned char)*p) || *p == '_';
    for (size_t i = 0; name && i < sizeof reserved / sizeof reserved[0]; i++)
        name = strcmp(k, reserved[i]) != 0;
    if (name) {
        fputs(k, f);
        return;
    }
    fputc('[', f);
    rl_spec_put_string(f, k);
    fputc(']', f);
}

void rl_spec_put_fields(FILE *f, lua_State *L, int indent)
{
    const char *keys[64]; /* the table holds the key strings while they are used */
    int nk = 0;
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {
        lua_pop(L, 1);
        if (lua_type(L, -1) == LUA_TSTRING && nk < 64)
            keys[nk++] = lua_tostring(L, -1);
    }
    qsort(keys, (size_t)nk, sizeof *keys, cmp_field);
    for (int i = 0; i < nk; i++) {
        lua_getfield(L, -1, keys[i]);
        fprintf(f, "%*s", indent, "");
        rl_spec_put_key(f, keys[i]);
        fputs(" = ", f);
        rl_spec_put_value(f, L, indent);
        fputs(",\n", f);
        lua_pop(L, 1);
    }
}

void rl_spec_put_value(FILE *f, lua_State *L, int indent)
{
    switch (lua_type(L, -1)) {
    case LUA_TSTRING:
        rl_spec_put_string(f, lua_tostring(L, -1));
        return;
    case LUA_TBOOLEAN:
        fputs(lua_toboolean(L, -1) ? "true" : "false", f);
        return;
    case LUA_TNUMBER:
        if (lua_isinteger(L, -1))
            fprintf(f, "%lld", (long long)lua_tointeger(L, -1));
        else
            fprintf(f, "%.15g", lua_tonumber(L, -1));
        return;
    case LUA_TTABLE:
        break;
    default:
        fputs("nil", f);
        return;
    }
    size_t n = lua_rawlen(L, -1);
    if (n > 0) { /* a list, e.g. efficiency {size, fraction} pairs */
        fputs("{", f);
        for (size_t i = 1; i <= n; i++) {
            lua_rawgeti(L, -1, (lua_Integer)i);
            fputs(i > 1 ? ", " : " ", f);
            rl_spec_put_value(f, L, indent + 2);
            lua_pop(L, 1);
        }
        fputs(" }", f);
        return;
    }
    fputs("{\n", f);
    rl_spec_put_fields(f, L, indent + 2);
    fprintf(f, "%*s}", indent, "");
}
