/* collectives.c — measured collective tables: reading, lookup and the
 * time (M) of collectives.h. */
#include "collectives.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <lauxlib.h>

#include "number.h"

static const char *const OP_NAMES[] = {"AllGather", "ReduceScatter", "AllReduce", "AllToAll",
                                       "P2P"};

const char *rl_collective_name(rl_collective c) { return OP_NAMES[c]; }

double rl_coll_row_bytes(rl_collective op, double bytes, long long gpus)
{
    /* nccl-tests' alltoall size is one rank's send buffer (collectives.h) */
    return op == RL_ALLTOALL && gpus > 1 ? bytes / (double)gpus : bytes;
}

/* The row of `impl` for op over gpus, or NULL. */
static const rl_coll_row *find_impl(const rl_collectives *t, rl_collective op, long long gpus,
                                    const char *impl)
{
    for (int i = 0; i < t->n; i++) {
        const rl_coll_row *r = &t->row[i];
        if (r->op == op && r->gpus == gpus && strcmp(r->impl, impl) == 0)
            return r;
    }
    return NULL;
}

const rl_coll_row *rl_coll_find(const rl_collectives *t, rl_collective op, long long gpus)
{
    if (!t->present)
        return NULL;
    const rl_coll_row *r = op == RL_ALLREDUCE ? find_impl(t, op, gpus, rl_coll_allreduce_impl(t))
                                              : NULL;
    return r ? r : find_impl(t, op, gpus, t->impl);
}

const char *rl_coll_allreduce_impl(const rl_collectives *t)
{
    return !t->impl_given && t->engine_impl[0] ? t->engine_impl : t->impl;
}

/* Each serving engine's own AllReduce rows (collectives.h: TensorRT-LLM's
 * AllReduce under strategy AUTO; vLLM's under CUDA graphs). */
static const char *const ENGINE_ALLREDUCE[][2] = {{"trtllm", "trtllm"}, {"vllm", "vllm_graph"}};

void rl_coll_follow_engine(rl_collectives *t, const char *engine)
{
    t->engine_impl[0] = '\0';
    for (size_t i = 0; engine && i < sizeof ENGINE_ALLREDUCE / sizeof ENGINE_ALLREDUCE[0]; i++)
        if (strcmp(engine, ENGINE_ALLREDUCE[i][0]) == 0)
            snprintf(t->engine_impl, sizeof t->engine_impl, "%s", ENGINE_ALLREDUCE[i][1]);
}

double rl_coll_fit_time(const rl_coll_row *r, double bytes)
{
    return fmax(r->floor_s, r->latency_s + bytes / r->bw);
}

void rl_coll_envelope(rl_coll_row *r)
{
    /* the suffix minimum, in seconds: a point capped by a larger size takes
     * that size's time exactly (through logs it could differ by an ulp and
     * read a smaller size a hair slower) */
    for (int i = r->np - 1; i >= 0; i--)
        r->capped[i] = i + 1 < r->np && r->capped[i + 1] < r->seconds[i] ? r->capped[i + 1]
                                                                          : r->seconds[i];
}

/* The region of `bytes`: how many of r's switches are <= bytes. */
static int region_of(const rl_coll_row *r, double bytes)
{
    int k = 0;
    while (k < r->nsw && bytes >= r->sw[k])
        k++;
    return k;
}

/* Log-log line through points a (the nearest) and b (-1: flat) at bytes,
 * slope clamped to [0, 1] (collectives.h). */
static double extrapolate(const rl_coll_row *r, const double *sec, int a, int b, double bytes)
{
    if (b < 0)
        return sec[a];
    double slope = log(sec[b] / sec[a]) / log(r->bytes[b] / r->bytes[a]);
    return sec[a] * pow(bytes / r->bytes[a], fmin(1.0, fmax(0.0, slope)));
}

/* Interpolation between points lo < hi at bytes, linear in bytes: the
 * alpha-beta form t = alpha + bytes / bw (Hockney 1994, as (M)) through
 * the two points, exact inside one algorithm and protocol, where log-log
 * reads the knee from the latency floor to the bandwidth-bound sizes high
 * (vLLM's eager AllReduce over 2 H200, 2 MiB held out between 1 and 4 MiB:
 * +15.9%, linear +11.5%; stop 39, docs/validation.md "Collectives"). */
static double between(const rl_coll_row *r, const double *sec, int lo, int hi, double bytes)
{
    if (lo == hi || r->bytes[lo] == bytes)
        return sec[lo];
    double w = (bytes - r->bytes[lo]) / (r->bytes[hi] - r->bytes[lo]);
    return sec[lo] + (sec[hi] - sec[lo]) * w;
}

/* The next point index after (step +1) or before (-1) i, skipping `skip`,
 * inside region k (-1 for none; k < 0: any region). */
static int next_point(const rl_coll_row *r, int i, int step, int skip, int k)
{
    for (i += step; i >= 0 && i < r->np; i += step)
        if (i != skip)
            return k < 0 || region_of(r, r->bytes[i]) == k ? i : -1;
    return -1;
}

double rl_coll_piecewise(const rl_coll_row *r, const double *sec, double bytes, int skip, int *how)
{
    int k = region_of(r, bytes), up = 0;
    while (up < r->np && (r->bytes[up] < bytes || up == skip))
        up++; /* the first point >= bytes */
    int lo = next_point(r, up, -1, skip, k), hi = up < r->np ? up : -1;
    if (hi >= 0 && region_of(r, r->bytes[hi]) != k)
        hi = -1;
    if (hi >= 0 && r->bytes[hi] == bytes) { /* a measured size */
        if (how)
            *how = 0;
        return sec[hi];
    }
    if (how)
        *how = lo >= 0 && hi >= 0 ? 0 : lo >= 0 || hi >= 0 ? 1 : 2;
    if (lo >= 0 && hi >= 0)
        return between(r, sec, lo, hi, bytes);
    if (lo >= 0)
        return extrapolate(r, sec, lo, next_point(r, lo, -1, skip, k), bytes);
    if (hi >= 0)
        return extrapolate(r, sec, hi, next_point(r, hi, 1, skip, k), bytes);
    lo = next_point(r, up, -1, skip, -1); /* no point in the region: across the switch */
    hi = up < r->np ? up : next_point(r, up, -1, skip, -1);
    return between(r, sec, lo >= 0 ? lo : hi, hi >= 0 ? hi : lo, bytes);
}

/* rl_coll_time and rl_coll_reason: the time, its provenance and why. */
static double lookup(const rl_coll_row *r, double bytes, rl_provenance *prov, rl_coll_why *why,
                     double *sw)
{
    int outside = r->np > 0 && (bytes < r->bytes[0] || bytes > r->bytes[r->np - 1]);
    *why = outside ? RL_COLL_WHY_OUTSIDE : RL_COLL_WHY_MEASURED;
    *sw = 0;
    if (prov) /* outside the measured sizes: extrapolated (below: the smallest size's time) */
        *prov = outside ? RL_PROV_EXTRAPOLATED : RL_PROV_MEASURED;
    if (r->np == 0 || bytes > r->bytes[r->np - 1])
        return rl_coll_fit_time(r, bytes);
    if (bytes < r->bytes[0])
        return r->capped[0];
    int i = 0;
    while (i < r->np - 1 && bytes > r->bytes[i])
        i++;
    int lo = bytes < r->bytes[i] ? i - 1 : i, how; /* the points bracketing bytes */
    double t = fmin(rl_coll_piecewise(r, r->capped, bytes, -1, &how), r->capped[i]);
    int k = region_of(r, bytes);
    if (how == 1 && k > 0 && region_of(r, r->bytes[lo]) < k) /* a region's first sizes */
        t = fmax(t, fmin(rl_coll_piecewise(r, r->capped, r->sw[k - 1] * (1 - 1e-12), -1, NULL),
                         r->capped[i]));
    /* how 1: the region's points lie on one side (its switch below when
     * that is the side without a point, else above); how 2: none in it */
    *why = how == 1 || how == 2 ? (how == 1 ? RL_COLL_WHY_TOWARD : RL_COLL_WHY_ACROSS)
           : r->capped[lo] != r->seconds[lo] || r->capped[i] != r->seconds[i]
               ? RL_COLL_WHY_ENVELOPE
               : RL_COLL_WHY_MEASURED;
    if (how == 1 || how == 2)
        *sw = k > 0 && (k == r->nsw || region_of(r, r->bytes[lo]) < k) ? r->sw[k - 1] : r->sw[k];
    if (prov && *prov == RL_PROV_MEASURED)
        *prov = *why == RL_COLL_WHY_TOWARD    ? RL_PROV_EXTRAPOLATED
                : *why != RL_COLL_WHY_MEASURED ? RL_PROV_INTERPOLATED
                                               : RL_PROV_MEASURED;
    return t;
}

double rl_coll_time(const rl_coll_row *r, double bytes, rl_provenance *prov)
{
    rl_coll_why why;
    double sw;
    return lookup(r, bytes, prov, &why, &sw);
}

rl_coll_why rl_coll_reason(const rl_coll_row *r, double bytes, double *sw)
{
    rl_coll_why why;
    double s;
    lookup(r, bytes, NULL, &why, &s);
    if (sw)
        *sw = s;
    return why;
}

/* The string on top of the stack into dst (size n): one line, fits.  The
 * error names `field`. */
static int read_text(lua_State *L, const char *origin, const char *field, char *dst, size_t n,
                     char *err, size_t errlen)
{
    size_t len = 0;
    const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &len) : NULL;
    int ctrl = 0;
    for (size_t i = 0; s && i < len; i++)
        ctrl |= (unsigned char)s[i] < 0x20 || s[i] == 0x7f;
    if (!s || len == 0 || len >= n || ctrl) {
        snprintf(err, errlen, "%s: field '%s': expected a non-empty one-line string of at most %zu "
                              "characters", origin, field, n - 1);
        return -1;
    }
    memcpy(dst, s, len + 1);
    return 0;
}

/* The number on top of the stack into *v: finite, >= 0 (> 0 when `pos`). */
static int read_num(lua_State *L, const char *origin, const char *field, int pos, double *v,
                    char *err, size_t errlen)
{
    *v = lua_tonumber(L, -1);
    if (lua_type(L, -1) != LUA_TNUMBER || !isfinite(*v) || (pos ? !(*v > 0) : !(*v >= 0)) ||
        *v > 1e300) {
        snprintf(err, errlen, "%s: field '%s': expected a finite number %s", origin, field,
                 pos ? "> 0" : ">= 0");
        return -1;
    }
    return 0;
}

/* The {bytes, seconds} list on top of the stack into r's points. */
static int read_points(lua_State *L, const char *origin, const char *field, rl_coll_row *r,
                       char *err, size_t errlen)
{
    lua_Integer n = lua_istable(L, -1) ? luaL_len(L, -1) : -1;
    if (n < 0 || n > RL_COLL_POINTS) {
        snprintf(err, errlen, "%s: field '%s': expected a list of at most %d {bytes, seconds} "
                              "pairs", origin, field, RL_COLL_POINTS);
        return -1;
    }
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, -1, i);
        double v[2] = {0, 0};
        int ok = lua_istable(L, -1);
        for (int j = 0; ok && j < 2; j++) {
            lua_rawgeti(L, -1, j + 1);
            v[j] = lua_tonumber(L, -1);
            ok = lua_type(L, -1) == LUA_TNUMBER && isfinite(v[j]) && v[j] > 0 && v[j] < 1e300;
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
        if (!ok || (i > 1 && !(v[0] > r->bytes[i - 2]))) {
            snprintf(err, errlen, "%s: field '%s[%lld]': expected {bytes, seconds}, both finite "
                                  "and > 0, bytes increasing", origin, field, (long long)i);
            return -1;
        }
        r->bytes[i - 1] = v[0];
        r->seconds[i - 1] = v[1];
    }
    r->np = (int)n;
    rl_coll_envelope(r);
    return 0;
}

/* The switches list on top of the stack into r (collectives.h). */
static int read_switches(lua_State *L, const char *origin, const char *field, rl_coll_row *r,
                         char *err, size_t errlen)
{
    lua_Integer n = lua_istable(L, -1) ? luaL_len(L, -1) : -1;
    for (lua_Integer i = 1; n >= 0 && n <= RL_COLL_SWITCHES && i <= n; i++) {
        lua_rawgeti(L, -1, i);
        double v = lua_tonumber(L, -1);
        int ok = lua_type(L, -1) == LUA_TNUMBER && isfinite(v) && v > 0 && v < 1e300 &&
                 (i == 1 || v > r->sw[i - 2]);
        lua_pop(L, 1);
        if (!ok)
            n = -1;
        else
            r->sw[i - 1] = v;
    }
    if (n < 0 || n > RL_COLL_SWITCHES) {
        snprintf(err, errlen, "%s: field '%s': expected a list of at most %d sizes in bytes, "
                              "finite, > 0 and increasing", origin, field, RL_COLL_SWITCHES);
        return -1;
    }
    r->nsw = (int)n;
    return 0;
}

/* Row i (1-based) on top of the stack into *r. */
static int read_row(lua_State *L, const char *origin, lua_Integer i, rl_coll_row *r, char *err,
                    size_t errlen)
{
    char f[96];
    snprintf(f, sizeof f, "collectives.rows[%lld]", (long long)i);
    if (!lua_istable(L, -1)) {
        snprintf(err, errlen, "%s: field '%s': expected a table {op, impl, gpus, latency_s, bw, "
                              "floor_s}", origin, f);
        return -1;
    }
    memset(r, 0, sizeof *r);
    r->op = RL_P2P; /* "not given" */
    int seen = 0;
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
        char kf[128];
        snprintf(kf, sizeof kf, "%s.%s", f, k);
        int rc = 0;
        double v = 0;
        if (strcmp(k, "op") == 0) {
            const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
            for (int o = 0; o < RL_P2P; o++)
                if (strcmp(s, OP_NAMES[o]) == 0)
                    r->op = (rl_collective)o;
            if (r->op == RL_P2P) {
                snprintf(err, errlen, "%s: field '%s': expected AllGather, ReduceScatter, "
                                      "AllReduce or AllToAll", origin, kf);
                rc = -1;
            }
            seen |= 1;
        } else if (strcmp(k, "impl") == 0) {
            rc = read_text(L, origin, kf, r->impl, sizeof r->impl, err, errlen);
            seen |= 2;
        } else if (strcmp(k, "gpus") == 0) {
            rc = read_num(L, origin, kf, 1, &v, err, errlen);
            if (rc == 0 && (v < 2 || v != floor(v) || v > 1e6)) {
                char got[RL_NUMBER_STR];
                snprintf(err, errlen, "%s: field '%s': expected a whole number of GPUs >= 2, got %s",
                         origin, kf, rl_number_str(v, got));
                rc = -1;
            }
            r->gpus = (long long)v;
            seen |= 4;
        } else if (strcmp(k, "latency_s") == 0) {
            rc = read_num(L, origin, kf, 0, &r->latency_s, err, errlen);
            seen |= 8;
        } else if (strcmp(k, "bw") == 0) {
            rc = read_num(L, origin, kf, 1, &r->bw, err, errlen);
            seen |= 16;
        } else if (strcmp(k, "floor_s") == 0) {
            rc = read_num(L, origin, kf, 0, &r->floor_s, err, errlen);
            seen |= 32;
        } else if (strcmp(k, "points") == 0) {
            rc = read_points(L, origin, kf, r, err, errlen);
        } else if (strcmp(k, "switches") == 0) {
            rc = read_switches(L, origin, kf, r, err, errlen);
        } else {
            snprintf(err, errlen, "%s: field '%s': unknown (known: op, impl, gpus, latency_s, bw, "
                                  "floor_s, points, switches)", origin, kf);
            rc = -1;
        }
        lua_pop(L, 1);
        if (rc != 0) {
            lua_pop(L, 1);
            return -1;
        }
    }
    static const char *const NEED[] = {"op", "impl", "gpus", "latency_s", "bw", "floor_s"};
    for (int b = 0; b < 6; b++)
        if (!(seen & (1 << b))) {
            snprintf(err, errlen, "%s: field '%s.%s': missing", origin, f, NEED[b]);
            return -1;
        }
    if (r->latency_s + r->floor_s <= 0) {
        snprintf(err, errlen, "%s: field '%s': latency_s and floor_s are both 0 (a collective "
                              "takes time)", origin, f);
        return -1;
    }
    return 0;
}

static int read_rows(lua_State *L, const char *origin, rl_collectives *out, char *err,
                     size_t errlen)
{
    if (!lua_istable(L, -1)) {
        snprintf(err, errlen, "%s: field 'collectives.rows': expected a list of rows", origin);
        return -1;
    }
    lua_Integer n = luaL_len(L, -1);
    if (n < 1 || n > RL_COLL_ROWS) {
        snprintf(err, errlen, "%s: field 'collectives.rows': %lld rows, expected 1 to %d", origin,
                 (long long)n, RL_COLL_ROWS);
        return -1;
    }
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, -1, i);
        rl_coll_row *r = &out->row[out->n];
        int rc = read_row(L, origin, i, r, err, errlen);
        lua_pop(L, 1);
        if (rc != 0)
            return -1;
        for (int j = 0; j < out->n; j++)
            if (out->row[j].op == r->op && out->row[j].gpus == r->gpus &&
                strcmp(out->row[j].impl, r->impl) == 0) {
                snprintf(err, errlen, "%s: field 'collectives.rows[%lld]': %s over %lld GPUs "
                                      "(impl %s) is given twice (rows %d and %lld)",
                         origin, (long long)i, OP_NAMES[r->op], r->gpus, r->impl, j + 1,
                         (long long)i);
                return -1;
            }
        out->n++;
    }
    return 0;
}

/* t->impl must name an implementation some row measures, or "none" (the
 * alpha-beta model of comm.h times every collective): a typo would
 * otherwise fall back to that model silently.  0, or -1 with err listing
 * the valid names. */
static int check_impl(const char *origin, const rl_collectives *t, char *err, size_t errlen)
{
    char names[256] = "";
    size_t used = 0;
    if (strcmp(t->impl, "none") == 0)
        return 0;
    for (int i = 0; i < t->n; i++) {
        if (strcmp(t->row[i].impl, t->impl) == 0)
            return 0;
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = strcmp(t->row[j].impl, t->row[i].impl) == 0;
        if (!seen && used < sizeof names)
            used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "",
                                     t->row[i].impl);
    }
    snprintf(err, errlen, "%s: field 'collectives.impl': unknown value \"%s\" (the rows measure: "
                          "%s; or none for the alpha-beta model)", origin, t->impl, names);
    return -1;
}

int rl_collectives_read(lua_State *L, const char *origin, rl_collectives *out, char *err,
                        size_t errlen)
{
    memset(out, 0, sizeof *out);
    snprintf(out->impl, sizeof out->impl, "nccl");
    if (!lua_istable(L, -1)) {
        snprintf(err, errlen, "%s: field 'collectives': expected a table (source, fitted_on, impl, "
                              "rows), got %s", origin, luaL_typename(L, -1));
        return -1;
    }
    luaL_checkstack(L, 8, NULL);
    int has_rows = 0;
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
        int rc;
        if (strcmp(k, "source") == 0) {
            rc = read_text(L, origin, "collectives.source", out->source, sizeof out->source, err,
                           errlen);
        } else if (strcmp(k, "fitted_on") == 0) {
            rc = read_text(L, origin, "collectives.fitted_on", out->fitted_on,
                           sizeof out->fitted_on, err, errlen);
        } else if (strcmp(k, "impl") == 0) {
            rc = read_text(L, origin, "collectives.impl", out->impl, sizeof out->impl, err, errlen);
            out->impl_given = 1;
        } else if (strcmp(k, "rows") == 0) {
            rc = read_rows(L, origin, out, err, errlen);
            has_rows = 1;
        } else {
            snprintf(err, errlen, "%s: field 'collectives.%s': unknown (known: source, fitted_on, "
                                  "impl, rows)", origin, k);
            rc = -1;
        }
        lua_pop(L, 1);
        if (rc != 0) {
            lua_pop(L, 1);
            return -1;
        }
    }
    if (!has_rows || !out->source[0]) {
        snprintf(err, errlen, "%s: field 'collectives.%s': missing (a measured table names its "
                              "source and rows)", origin, has_rows ? "source" : "rows");
        return -1;
    }
    if (check_impl(origin, out, err, errlen) != 0)
        return -1;
    out->present = 1;
    return 0;
}

void rl_collectives_push(lua_State *L, const rl_collectives *t)
{
    lua_newtable(L);
    lua_pushstring(L, t->source);
    lua_setfield(L, -2, "source");
    if (t->fitted_on[0]) {
        lua_pushstring(L, t->fitted_on);
        lua_setfield(L, -2, "fitted_on");
    }
    if (t->impl_given) { /* not given: the engine's choice stays the engine's */
        lua_pushstring(L, t->impl);
        lua_setfield(L, -2, "impl");
    }
    lua_createtable(L, t->n, 0);
    for (int i = 0; i < t->n; i++) {
        const rl_coll_row *r = &t->row[i];
        lua_createtable(L, 0, 8);
        lua_pushstring(L, OP_NAMES[r->op]);
        lua_setfield(L, -2, "op");
        lua_pushstring(L, r->impl);
        lua_setfield(L, -2, "impl");
        lua_pushinteger(L, r->gpus);
        lua_setfield(L, -2, "gpus");
        lua_pushnumber(L, r->latency_s);
        lua_setfield(L, -2, "latency_s");
        lua_pushnumber(L, r->bw);
        lua_setfield(L, -2, "bw");
        lua_pushnumber(L, r->floor_s);
        lua_setfield(L, -2, "floor_s");
        lua_createtable(L, r->np, 0);
        for (int p = 0; p < r->np; p++) {
            lua_createtable(L, 2, 0);
            lua_pushnumber(L, r->bytes[p]);
            lua_rawseti(L, -2, 1);
            lua_pushnumber(L, r->seconds[p]);
            lua_rawseti(L, -2, 2);
            lua_rawseti(L, -2, p + 1);
        }
        lua_setfield(L, -2, "points");
        if (r->nsw > 0) {
            lua_createtable(L, r->nsw, 0);
            for (int k = 0; k < r->nsw; k++) {
                lua_pushnumber(L, r->sw[k]);
                lua_rawseti(L, -2, k + 1);
            }
            lua_setfield(L, -2, "switches");
        }
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "rows");
}
