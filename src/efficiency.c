/* efficiency.c — calibrated efficiency tables: reading, interpolation and
 * the calibrated kernel time (C) of efficiency.h. */
#include "efficiency.h"
#include "fastmax.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <lauxlib.h>

#include "number.h"
#include "sandbox.h"
#include "error.h"

static const char *const CLASS_NAMES[RL_EFF_CLASSES] = {
    "gemm", "attention", "prefill_attention", "norm", "rope", "elementwise", "swiglu"};

const char *rl_eff_class_name(rl_eff_class c) { return c < RL_EFF_CLASSES ? CLASS_NAMES[c] : "?"; }

double rl_eff_frac(const rl_eff_curve *c, double size)
{
    if (c->n == 0)
        return 1.0;
    if (size <= c->size[0])
        return c->frac[0];
    for (int i = 1; i < c->n; i++) {
        if (size <= c->size[i]) {
            double w = log(size / c->size[i - 1]) / log(c->size[i] / c->size[i - 1]);
            return c->frac[i - 1] + w * (c->frac[i] - c->frac[i - 1]);
        }
    }
    return c->frac[c->n - 1];
}

double rl_eff_size(rl_eff_class c, double tokens, double flops, double bytes)
{
    return c == RL_EFF_GEMM ? tokens : c == RL_EFF_PREFILL_ATTENTION ? flops : bytes;
}

double rl_eff_time(const rl_efficiency *e, rl_eff_class c, double size, double flops, double bytes,
                   double peak, double bw)
{
    return rl_eff_time_memo(e, c, size, flops, bytes, peak, bw, NULL);
}

double rl_eff_time_memo(const rl_efficiency *e, rl_eff_class c, double size, double flops,
                        double bytes, double peak, double bw, rl_eff_memo *memo)
{
    double ideal = rl_fmax(flops / peak, bytes / bw);
    if (!e || !e->present)
        return ideal;
    const rl_eff_curve *cv = &e->curve[c];
    if (c == RL_EFF_SWIGLU && cv->n == 0) /* older profiles: the shared curve */
        cv = &e->curve[RL_EFF_ELEMENTWISE];
    if (!memo)
        return e->overhead_s + ideal / rl_eff_frac(cv, size);
    if (memo->curve != cv || memcmp(&memo->size, &size, sizeof size) != 0) {
        memo->curve = cv;
        memo->size = size;
        memo->frac = rl_eff_frac(cv, size);
    }
    return e->overhead_s + ideal / memo->frac;
}

static int read_curve(lua_State *L, const char *origin, const char *name, rl_eff_curve *c,
                      char *err, size_t errlen)
{
    if (!lua_istable(L, -1))
        RL_FAIL("%s: field 'efficiency.%s': expected a list of {size, fraction} pairs", origin, name);
    lua_Integer n = luaL_len(L, -1);
    if (n > RL_EFF_POINTS)
        RL_FAIL("%s: field 'efficiency.%s': %lld points, at most %d", origin, name, (long long)n,
                RL_EFF_POINTS);
    c->n = 0;
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, -1, i);
        int ok = lua_istable(L, -1);
        double v[2] = {0, 0};
        for (int j = 0; ok && j < 2; j++) {
            lua_rawgeti(L, -1, j + 1);
            ok = lua_type(L, -1) == LUA_TNUMBER;
            v[j] = lua_tonumber(L, -1);
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
        if (!ok)
            RL_FAIL("%s: field 'efficiency.%s[%lld]': expected {size, fraction}", origin, name,
                    (long long)i);
        char got[RL_NUMBER_STR];
        if (!(v[0] > 0) || (c->n > 0 && !(v[0] > c->size[c->n - 1])))
            RL_FAIL("%s: field 'efficiency.%s[%lld]': sizes must be > 0 and increasing, got %s",
                    origin, name, (long long)i, rl_number_str(v[0], got));
        /* a fraction of the roofline: above 1 a kernel would beat the peaks
         * (tester6: 1.5 was taken and a step beat the datasheet, unflagged) */
        if (!(v[1] > 0 && v[1] <= 1))
            RL_FAIL("%s: field 'efficiency.%s[%lld]': fraction must be in (0, 1] (the achieved "
                    "fraction of the datasheet roofline; above 1 a kernel would beat the peak), "
                    "got %g", origin, name, (long long)i, v[1]);
        c->size[c->n] = v[0];
        c->frac[c->n++] = v[1];
    }
    return 0;
}

int rl_efficiency_read(lua_State *L, const char *origin, rl_efficiency *out, char *err,
                       size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (!lua_istable(L, -1))
        RL_FAIL("%s: field 'efficiency': expected a table (overhead_s, gemm, attention, ...), got %s",
                origin, luaL_typename(L, -1));
    luaL_checkstack(L, 8, NULL);
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        char desc[64];
        const char *k = rl_sandbox_key(L, -2, desc, sizeof desc);
        if (!k) {
            lua_pop(L, 2);
            RL_FAIL("%s: field 'efficiency': key [%s] must be a named field (overhead_s, source, "
                    "gemm, ...)",
                    origin, desc);
        }
        int cls = -1;
        for (int c = 0; c < RL_EFF_CLASSES; c++)
            if (strcmp(k, CLASS_NAMES[c]) == 0)
                cls = c;
        int rc = 0;
        if (strcmp(k, "overhead_s") == 0) {
            out->overhead_s = lua_tonumber(L, -1);
            if (lua_type(L, -1) != LUA_TNUMBER || !(out->overhead_s >= 0 && out->overhead_s < 1)) {
                snprintf(err, errlen, "%s: field 'efficiency.overhead_s': expected seconds in [0, 1)",
                         origin);
                rc = -1;
            }
        } else if (strcmp(k, "source") == 0 || strcmp(k, "measured_on") == 0) {
            int src = k[0] == 's';
            char *dst = src ? out->source : out->measured_on;
            size_t cap = src ? sizeof out->source : sizeof out->measured_on;
            size_t n = 0;
            const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &n) : NULL;
            int ctrl = 0;
            for (size_t i = 0; s && i < n; i++)
                ctrl |= (unsigned char)s[i] < 0x20 || s[i] == 0x7f;
            if (!s || n >= cap || ctrl) {
                snprintf(err, errlen, "%s: field 'efficiency.%s': expected a one-line string "
                                      "of at most %zu characters", origin, k, cap - 1);
                rc = -1;
            } else {
                memcpy(dst, s, n + 1);
            }
        } else if (cls >= 0) {
            rc = read_curve(L, origin, k, &out->curve[cls], err, errlen);
        } else {
            snprintf(err, errlen, "%s: field 'efficiency.%s': unknown (known: overhead_s, source, measured_on, "
                                  "gemm, attention, prefill_attention, norm, rope, elementwise, swiglu)",
                     origin, k);
            rc = -1;
        }
        lua_pop(L, 1);
        if (rc != 0) {
            lua_pop(L, 1);
            return -1;
        }
    }
    out->present = 1;
    return 0;
}

void rl_efficiency_push(lua_State *L, const rl_efficiency *e)
{
    lua_newtable(L);
    lua_pushnumber(L, e->overhead_s);
    lua_setfield(L, -2, "overhead_s");
    if (e->source[0]) {
        lua_pushstring(L, e->source);
        lua_setfield(L, -2, "source");
    }
    if (e->measured_on[0]) {
        lua_pushstring(L, e->measured_on);
        lua_setfield(L, -2, "measured_on");
    }
    for (int c = 0; c < RL_EFF_CLASSES; c++) {
        lua_createtable(L, e->curve[c].n, 0);
        for (int i = 0; i < e->curve[c].n; i++) {
            lua_createtable(L, 2, 0);
            lua_pushnumber(L, e->curve[c].size[i]);
            lua_rawseti(L, -2, 1);
            lua_pushnumber(L, e->curve[c].frac[i]);
            lua_rawseti(L, -2, 2);
            lua_rawseti(L, -2, i + 1);
        }
        lua_setfield(L, -2, CLASS_NAMES[c]);
    }
}
