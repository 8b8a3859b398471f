/* sandbox.c — restricted Lua states: chosen libraries, undefined-global
 * errors, instruction budget and memory cap (after redis's scripting sandbox). */
#include "sandbox.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lualib.h>

const rl_sandbox_limits RL_SPEC_LIMITS = {10 * 1000 * 1000, 64u << 20};
const rl_sandbox_limits RL_SCENARIO_LIMITS = {2000L * 1000 * 1000, 512u << 20};

#define HOOK_EVERY 1000

typedef struct {
    rl_sandbox_limits lim;
    size_t used;
    long executed;
} sandbox_state;

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
    s->executed += HOOK_EVERY;
    if (s->executed > s->lim.instructions)
        luaL_error(L, "instruction budget of %I exceeded (endless loop?)",
                   (lua_Integer)s->lim.instructions);
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
    lua_getglobal(L, "string"); /* string.dump makes bytecode: nothing may use it */
    lua_pushnil(L);
    lua_setfield(L, -2, "dump");
    lua_pop(L, 1);
    lua_pushglobaltable(L);
    lua_newtable(L);
    lua_pushcfunction(L, undefined_global);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, -2);
    lua_pop(L, 1);
    lua_sethook(L, budget_hook, LUA_MASKCOUNT, HOOK_EVERY);
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

void rl_sandbox_reset_budget(lua_State *L) { state_of(L)->executed = 0; }

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
    int bad = ferror(f);
    fclose(f);
    if (buf && (bad || n == cap)) { /* read error, or over 64 MiB */
        free(buf);
        errno = bad ? EIO : EFBIG;
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
    int loaded = luaL_loadbufferx(L, src, len, chunkname, "t");
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
        /* load errors already carry the chunk name; runtime ones carry file:line */
        if (msg && strstr(msg, path) == msg)
            snprintf(err, errlen, "%s", msg);
        else
            snprintf(err, errlen, "%s: %s", path, msg ? msg : "error object is not a string");
        lua_settop(L, top);
        return -1;
    }
    lua_remove(L, top + 1); /* the traceback handler */
    return 0;
}
