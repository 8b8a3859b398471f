/* sandbox.c — restricted Lua states: chosen libraries, undefined-global
 * errors, instruction budget and memory cap (after redis's scripting sandbox). */
#include "sandbox.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lauxlib.h>
#include <lualib.h>

#include "interrupt.h"

const rl_sandbox_limits RL_SPEC_LIMITS = {10 * 1000 * 1000, 64u << 20, 10.0};
const rl_sandbox_limits RL_SCENARIO_LIMITS = {2000L * 1000 * 1000, 512u << 20, 600.0};

#define HOOK_EVERY 1000

/* Upper bound on the steps one string.find/match/gmatch/gsub call may take,
 * estimated from the pattern (see pattern_guard).  Lua's matcher runs in C,
 * out of reach of the instruction hook, and backtracks: "a*a*a*...c" on a
 * line of a's takes exponential time.  1e10 steps is seconds to minutes. */
#define PATTERN_STEPS_MAX 1e10

typedef struct {
    rl_sandbox_limits lim;
    size_t used;
    long executed;
    double deadline; /* CLOCK_MONOTONIC seconds */
    char spent[128]; /* non-empty once a budget is exhausted: the reason */
} sandbox_state;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void *capped_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    sandbox_state *s = ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        s->used -= old;
        return NULL;
    }
    if (nsize > old && s->used - old + nsize > s->lim.memory)
        return NULL; /* Lua turns this into a "not enough memory" error */
    void *p = realloc(ptr, nsize);
    if (p)
        s->used = s->used - old + nsize;
    return p;
}

static sandbox_state *state_of(lua_State *L)
{
    return *(sandbox_state **)lua_getextraspace(L);
}

static void budget_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    sandbox_state *s = state_of(L);
    if (!s->spent[0]) {
        s->executed += HOOK_EVERY;
        if (s->executed > s->lim.instructions)
            snprintf(s->spent, sizeof s->spent,
                     "instruction budget of %ld exceeded (endless loop?)", s->lim.instructions);
        else if (now_s() > s->deadline)
            snprintf(s->spent, sizeof s->spent, "time limit of %.0f s exceeded", s->lim.seconds);
        else if (rl_interrupted())
            snprintf(s->spent, sizeof s->spent, "interrupted (%s)", rl_interrupt_name());
        else
            return;
        /* from now on every instruction fails, so pcall cannot keep it alive */
        lua_sethook(L, budget_hook, LUA_MASKCOUNT, 1);
    }
    luaL_error(L, "%s", s->spent);
}

/* Lua runs two kinds of code with hooks off, out of the budget's reach:
 * finalizers (__gc, ldo.c GCTM) and a message handler called for an error
 * raised inside the hook.  So setmetatable refuses a metatable with a __gc
 * field (Lua marks an object for finalization only at setmetatable time; the
 * real setmetatable is upvalue 1, out of any script's reach), and xpcall
 * calls its handler only after unwinding, as an ordinary hooked call. */
static int safe_setmetatable(lua_State *L)
{
    if (lua_istable(L, 2) && lua_getfield(L, 2, "__gc") != LUA_TNIL)
        return luaL_error(L, "__gc metamethods are not allowed in the sandbox");
    lua_settop(L, 2);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, 2, 1);
    return 1;
}

/* xpcall(f, handler, ...): like pcall; on error returns false and
 * handler(err) (or handler's own error). */
static int safe_xpcall(lua_State *L)
{
    luaL_checktype(L, 2, LUA_TFUNCTION);
    int n = lua_gettop(L);
    lua_pushvalue(L, 1); /* f, then the extra arguments */
    for (int i = 3; i <= n; i++)
        lua_pushvalue(L, i);
    if (lua_pcall(L, n - 2, LUA_MULTRET, 0) == LUA_OK) {
        lua_pushboolean(L, 1);
        lua_replace(L, n); /* true where the last argument was; results after */
        return lua_gettop(L) - n + 1;
    }
    lua_pushvalue(L, 2);
    lua_insert(L, -2);
    lua_pcall(L, 1, 1, 0); /* handler(err); its error, if any, is the result */
    lua_pushboolean(L, 0);
    lua_insert(L, -2);
    return 2;
}

/* Worst-case steps of matching pattern p against a subject of n bytes: a
 * pattern with k unbounded repetitions ('*', '+', '-') backtracks over at
 * most (n+1)^k splits per start position, times n+1 start positions, times
 * 2 per optional item ('?').  Escapes (%x) and sets ([...]) are skipped. */
static double pattern_steps(const char *p, size_t plen, size_t n)
{
    int k = 0, opt = 0;
    for (size_t i = 0; i < plen; i++) {
        if (p[i] == '%') {
            i++;
        } else if (p[i] == '[') {
            i++;
            if (i < plen && p[i] == '^')
                i++;
            if (i < plen && p[i] == ']')
                i++; /* a leading ']' is literal */
            while (i < plen && p[i] != ']')
                i += p[i] == '%' ? 2 : 1;
        } else if (p[i] == '*' || p[i] == '+' || p[i] == '-') {
            k++;
        } else if (p[i] == '?') {
            opt++;
        }
    }
    double steps = (double)n + 1.0;
    for (int i = 0; i < k && steps <= PATTERN_STEPS_MAX; i++)
        steps *= (double)n + 1.0;
    for (int i = 0; i < opt && steps <= PATTERN_STEPS_MAX; i++)
        steps *= 2.0;
    return steps;
}

/* string.find / match / gmatch / gsub with the original as upvalue 1 and
 * its name as upvalue 2: refuse a pattern whose worst case exceeds
 * PATTERN_STEPS_MAX, since the hook cannot stop a C call. */
static int pattern_guard(lua_State *L)
{
    size_t n, plen;
    luaL_checklstring(L, 1, &n);
    const char *p = luaL_checklstring(L, 2, &plen);
    const char *name = lua_tostring(L, lua_upvalueindex(2));
    int plain = strcmp(name, "find") == 0 && lua_toboolean(L, 4);
    if (!plain && pattern_steps(p, plen, n) > PATTERN_STEPS_MAX) {
        char msg[256]; /* lua_pushfstring has no precision: format here */
        snprintf(msg, sizeof msg,
                 "string.%s: pattern \"%.40s\" on a %zu-byte subject could backtrack more than "
                 "%.0e steps (the sandbox's limit); use fewer repetitions or a shorter subject",
                 name, p, n, PATTERN_STEPS_MAX);
        return luaL_error(L, "%s", msg);
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

static int undefined_global(lua_State *L)
{
    const char *name = lua_tostring(L, 2);
    return luaL_error(L, "read of undefined global '%s'", name ? name : "?");
}

lua_State *rl_sandbox_new(const rl_sandbox_limits *lim)
{
    sandbox_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->lim = *lim;
    lua_State *L = lua_newstate(capped_alloc, s);
    if (!L) {
        free(s);
        return NULL;
    }
    *(sandbox_state **)lua_getextraspace(L) = s;
    static const luaL_Reg libs[] = {{LUA_GNAME, luaopen_base},     {LUA_MATHLIBNAME, luaopen_math},
                                    {LUA_STRLIBNAME, luaopen_string}, {LUA_TABLIBNAME, luaopen_table},
                                    {LUA_UTF8LIBNAME, luaopen_utf8}, {NULL, NULL}};
    for (const luaL_Reg *l = libs; l->func; l++) {
        luaL_requiref(L, l->name, l->func, 1);
        lua_pop(L, 1);
    }
    static const char *removed[] = {"load", "loadfile", "dofile", "collectgarbage", "require", NULL};
    for (const char **r = removed; *r; r++) {
        lua_pushnil(L);
        lua_setglobal(L, *r);
    }
    /* the real setmetatable lives only as the wrapper's upvalue (a global,
     * even under an odd name, is reachable through rawget(_G, name)) */
    lua_getglobal(L, "setmetatable");
    lua_pushcclosure(L, safe_setmetatable, 1);
    lua_setglobal(L, "setmetatable");
    lua_pushcfunction(L, safe_xpcall);
    lua_setglobal(L, "xpcall");
    lua_getglobal(L, "string"); /* string.dump makes bytecode: nothing may use it */
    lua_pushnil(L);
    lua_setfield(L, -2, "dump");
    static const char *matchers[] = {"find", "match", "gmatch", "gsub", NULL};
    for (const char **m = matchers; *m; m++) {
        lua_getfield(L, -1, *m);
        lua_pushstring(L, *m);
        lua_pushcclosure(L, pattern_guard, 2);
        lua_setfield(L, -2, *m);
    }
    lua_pop(L, 1);
    /* undefined globals are errors; __metatable locks the metatable so
     * setmetatable(_G, nil) cannot lift the rule */
    lua_pushglobaltable(L);
    lua_newtable(L);
    lua_pushcfunction(L, undefined_global);
    lua_setfield(L, -2, "__index");
    lua_pushliteral(L, "locked by the roofline sandbox");
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, -2);
    lua_pop(L, 1);
    rl_sandbox_reset_budget(L);
    return L;
}

void rl_sandbox_close(lua_State *L)
{
    if (!L)
        return;
    sandbox_state *s = state_of(L);
    lua_close(L);
    free(s);
}

void rl_sandbox_reset_budget(lua_State *L)
{
    sandbox_state *s = state_of(L);
    s->executed = 0;
    s->spent[0] = '\0';
    s->deadline = now_s() + s->lim.seconds;
    lua_sethook(L, budget_hook, LUA_MASKCOUNT, HOOK_EVERY);
}

static int traceback(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (!msg)
        msg = luaL_tolstring(L, 1, NULL);
    luaL_traceback(L, L, msg, 1);
    return 1;
}

/* Read a whole file into a malloc'd buffer; NULL on failure (errno set). */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    errno = 0;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap || cap >= (64u << 20))
            break;
        char *bigger = realloc(buf, cap * 2);
        if (!bigger) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = bigger;
        cap *= 2;
    }
    int saved = errno;
    int bad = ferror(f);
    fclose(f);
    if (buf && (bad || n == cap)) { /* read error (EISDIR for a directory), or over 64 MiB */
        free(buf);
        errno = bad ? (saved ? saved : EIO) : EFBIG;
        return NULL;
    }
    *len = n;
    return buf;
}

int rl_sandbox_dofile(lua_State *L, const char *path, int nresults, char *err, size_t errlen)
{
    size_t len = 0;
    char *src = slurp(path, &len);
    if (!src) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    int top = lua_gettop(L);
    char chunkname[1024];
    snprintf(chunkname, sizeof chunkname, "@%s", path);
    lua_pushcfunction(L, traceback);
    /* like luaL_loadfile: skip a UTF-8 BOM and a first line starting with
     * '#' (a shebang), keeping the newline so line numbers stay right */
    const char *text = src;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
        text += 3;
        len -= 3;
    }
    if (len > 0 && text[0] == '#') {
        const char *nl = memchr(text, '\n', len);
        len -= nl ? (size_t)(nl - text) : len;
        text = nl ? nl : text + len;
    }
    int loaded = luaL_loadbufferx(L, text, len, chunkname, "t");
    free(src);
    int rc = loaded;
    if (rc == LUA_OK) {
        rl_sandbox_reset_budget(L);
        rc = lua_pcall(L, 0, nresults, top + 1);
    }
    if (rc != LUA_OK) {
        const char *msg = lua_tostring(L, -1);
        if (loaded != LUA_OK && loaded != LUA_ERRMEM) {
            snprintf(err, errlen, "%s: syntax error: %s", path, msg ? msg : "?");
            lua_settop(L, top);
            return -1;
        }
        sandbox_state *s = state_of(L);
        /* load errors already carry the chunk name; runtime ones carry file:line */
        if (s->spent[0])
            snprintf(err, errlen, "%s: %s", path, s->spent);
        else if (msg && strstr(msg, path) == msg)
            snprintf(err, errlen, "%s", msg);
        else
            snprintf(err, errlen, "%s: %s", path, msg ? msg : "error object is not a string");
        lua_settop(L, top);
        return -1;
    }
    lua_remove(L, top + 1); /* the traceback handler */
    return 0;
}
