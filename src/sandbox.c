/* sandbox.c — restricted Lua states: chosen libraries, undefined-global
 * errors, instruction budget and memory cap (after redis's scripting sandbox). */
#include "sandbox.h"
#include "error.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lauxlib.h>
#include <lualib.h>

#include "clock.h"
#include "interrupt.h"
#include "luakeys.h"
#include "report.h"

const rl_sandbox_limits RL_SPEC_LIMITS = {10 * 1000 * 1000, 64u << 20, 10.0};
const rl_sandbox_limits RL_SCENARIO_LIMITS = {2000L * 1000 * 1000, 512u << 20, 600.0};

#define HOOK_EVERY 1000

/* Seconds the watchdog waits past the time limit, or past a SIGINT or
 * SIGTERM, before it ends a run stuck in C.  The hook stops VM code within
 * microseconds; the roofline module's own C calls stop themselves at their
 * next check (a sweep between slices, a figure once gnuplot is done: 0.4 s
 * each on the loaded development machine, over 1 s at times), so a signal
 * gets the longer grace: ending the process mid-write is the last resort. */
#define WATCHDOG_GRACE_S 1.0
#define WATCHDOG_SIGNAL_GRACE_S 5.0

/* Calls nested deeper than this when the memory cap refuses an allocation
 * make the error a stack overflow, not a memory one: the frames (Lua
 * stack slots and CallInfo records, lstate.c) are what filled the cap.
 * No spec or shipped scenario nests calls over a few dozen deep; a
 * runaway recursion under the 64 MiB spec cap passes 10^5 levels before
 * the allocator refuses (tests/test_sandbox.c deep_recursion). */
#define DEEP_CALLS 10000

/* Estimates stop multiplying past this many steps (no budget is larger). */
#define CALL_STEPS_CAP 1e13

typedef struct {
    rl_sandbox_limits lim;
    size_t used;
    long executed;
    double deadline; /* CLOCK_MONOTONIC seconds */
    char spent[128]; /* non-empty once a budget is exhausted: the reason */
    unsigned long refusals; /* allocations refused for the memory cap */
    lua_State *L;           /* the state (no coroutines: the only thread) */
    int deep;               /* a refusal came with over DEEP_CALLS calls nested */
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
    if (nsize > old && s->used - old + nsize > s->lim.memory) {
        s->refusals++; /* Lua collects and retries once, then raises "not enough memory" */
        lua_Debug ar; /* lua_getstack only walks the CallInfo list, valid here */
        if (s->L && lua_getstack(s->L, DEEP_CALLS, &ar))
            s->deep = 1;
        return NULL;
    }
    void *p = realloc(ptr, nsize);
    if (p)
        s->used = s->used - old + nsize;
    return p;
}

static sandbox_state *state_of(lua_State *L)
{
    return *(sandbox_state **)lua_getextraspace(L);
}

/* Count events (every HOOK_EVERY instructions) check the budget, the clock
 * and the signal flag; call events only the flag, so a SIGINT or SIGTERM
 * stops a loop of long C calls (a figure per iteration) at its next call,
 * not 1000 instructions later. */
static void budget_hook(lua_State *L, lua_Debug *ar);

static int raise_spent(lua_State *L)
{
    /* from now on every instruction fails, so pcall cannot keep it alive */
    lua_sethook(L, budget_hook, LUA_MASKCOUNT, 1);
    return luaL_error(L, "%s", state_of(L)->spent);
}

static void budget_hook(lua_State *L, lua_Debug *ar)
{
    sandbox_state *s = state_of(L);
    if (!s->spent[0] && ar->event != LUA_HOOKCOUNT) {
        if (!rl_interrupted())
            return;
        snprintf(s->spent, sizeof s->spent, "interrupted (%s)", rl_interrupt_name());
    }
    if (!s->spent[0]) {
        s->executed += HOOK_EVERY;
        if (s->executed > s->lim.instructions)
            snprintf(s->spent, sizeof s->spent,
                     "instruction budget of %ld exceeded (endless loop?)", s->lim.instructions);
        else if (rl_now_s() > s->deadline)
            snprintf(s->spent, sizeof s->spent, "time limit of %.0f s exceeded", s->lim.seconds);
        else if (rl_interrupted())
            snprintf(s->spent, sizeof s->spent, "interrupted (%s)", rl_interrupt_name());
        else
            return;
    }
    raise_spent(L);
}

/* Whether the error a protected call ended with (status, message on top) is
 * the memory cap: a memory error (LUA_ERRMEM, or its message raised again by
 * C code that freed its own data first, lua_api.c push_result) while the
 * allocator refused for the cap since `refusals`.  If so the budget is
 * spent for the rest of the run, like the instruction budget. */
static int memory_spent(lua_State *L, int status, unsigned long refusals)
{
    sandbox_state *s = state_of(L);
    const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    int memerr = status == LUA_ERRMEM || (msg && strcmp(msg, "not enough memory") == 0);
    if (status == LUA_OK || !memerr || s->refusals == refusals)
        return s->spent[0] != '\0';
    if (!s->spent[0] && s->deep)
        snprintf(s->spent, sizeof s->spent,
                 "stack overflow: calls nested over %d deep filled the memory budget of "
                 "%.0f MiB (runaway recursion?)", DEEP_CALLS, (double)s->lim.memory / (1 << 20));
    else if (!s->spent[0])
        snprintf(s->spent, sizeof s->spent, "memory budget of %.0f MiB exceeded",
                 (double)s->lim.memory / (1 << 20));
    return 1;
}

/* Where a message says the sandbox refused something (traceback leaves
 * such an error as it is: file, line and reason, no Lua stack; review
 * finding: `os.execute` printed a stack trace). */
#define REFUSED "refused by the sandbox"

/* Lua runs two kinds of code with hooks off, out of the budget's reach:
 * finalizers (__gc, ldo.c GCTM) and a message handler called for an error
 * raised inside the hook.  So setmetatable refuses a metatable with a __gc
 * field (Lua marks an object for finalization only at setmetatable time; the
 * real setmetatable is upvalue 1, out of any script's reach), and xpcall
 * calls its handler only after unwinding, as an ordinary hooked call. */
static int safe_setmetatable(lua_State *L)
{
    if (lua_istable(L, 2) && lua_getfield(L, 2, "__gc") != LUA_TNIL)
        return luaL_error(L, "__gc metamethods are not allowed in the sandbox: " REFUSED
                          " (finalizers run out of the time and memory limits' reach)");
    lua_settop(L, 2);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, 2, 1);
    return 1;
}

/* The errno of the first failed print (rl_sandbox_stdout_errno). */
static int stdout_errno;

int rl_sandbox_stdout_errno(void)
{
    return stdout_errno;
}

/* print, noting why its write failed: Lua's print writes and flushes stdout
 * (lua_writestring, lua_writeline), so errno right after it is the failed
 * write's; by the end of the run it is gone (fixRD #4). */
static int noted_print(lua_State *L)
{
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    int had = ferror(stdout);
    errno = 0;
    lua_call(L, lua_gettop(L) - 1, 0);
    if (!had && ferror(stdout) && !stdout_errno)
        stdout_errno = errno;
    return 0;
}

/* pcall(f, ...): Lua's own, except that a spent budget (the memory cap
 * too, whose error reaches pcall before any hook runs) is raised again. */
static int safe_pcall(lua_State *L)
{
    luaL_checkany(L, 1);
    unsigned long refusals = state_of(L)->refusals;
    int status = lua_pcall(L, lua_gettop(L) - 1, LUA_MULTRET, 0);
    if (memory_spent(L, status, refusals))
        return raise_spent(L);
    lua_pushboolean(L, status == LUA_OK);
    lua_insert(L, 1);
    return lua_gettop(L);
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
    unsigned long refusals = state_of(L)->refusals;
    int status = lua_pcall(L, n - 2, LUA_MULTRET, 0);
    if (memory_spent(L, status, refusals))
        return raise_spent(L);
    if (status == LUA_OK) {
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

/* ---- C calls the hook cannot interrupt -------------------------------------
 * A library function written in C runs to its end without the count hook
 * firing, so a call that loops 2^63 times (string.rep('', math.maxinteger))
 * or backtracks exponentially stops no budget.  Each function below is
 * wrapped: its worst-case work in steps (about one VM instruction's worth:
 * a byte compared, an element moved) is computed from the arguments, and a
 * call costing more than the state's whole instruction budget is refused
 * before it starts.  Anything still stuck in C at the time limit is ended
 * by the watchdog (see rl_sandbox_dofile). */

/* Worst-case steps of matching pattern p against a subject of n bytes,
 * blind to the subject.  Per start position (n+1 of them) the matcher walks
 * the pattern's items (at most plen), and each item that may scan the
 * subject -- an unbounded repetition ('*', '+', '-'), a balance %b, a
 * back-reference %1-%9 -- multiplies the work by n+1 (backtracking over its
 * splits); each optional item ('?') doubles it.  Sets ([...]) are one item.
 * What a malformed pattern is charged (Lua raises its error only when the
 * matcher reaches the bad item, after any backtracking before it). */
static double pattern_steps_blind(const char *p, size_t plen, size_t n)
{
    int k = 0, opt = 0;
    for (size_t i = 0; i < plen; i++) {
        if (p[i] == '%') {
            i++;
            if (i < plen && (p[i] == 'b' || (p[i] >= '1' && p[i] <= '9')))
                k++;
            if (i < plen && p[i] == 'b')
                i += 2; /* the two delimiters are not items */
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
    double steps = ((double)n + 1.0) * ((double)plen + 1.0);
    for (int i = 0; i < k && steps <= CALL_STEPS_CAP; i++)
        steps *= (double)n + 1.0;
    for (int i = 0; i < opt && steps <= CALL_STEPS_CAP; i++)
        steps *= 2.0;
    return steps;
}

/* Whether byte c is in class %cl (cl a letter) or is cl itself: Lua 5.4's
 * lstrlib.c match_class (MIT licence), the same <ctype.h> calls. */
static int class_has(int c, int cl)
{
    int res;
    switch (tolower(cl)) {
    case 'a': res = isalpha(c); break;
    case 'c': res = iscntrl(c); break;
    case 'd': res = isdigit(c); break;
    case 'g': res = isgraph(c); break;
    case 'l': res = islower(c); break;
    case 'p': res = ispunct(c); break;
    case 's': res = isspace(c); break;
    case 'u': res = isupper(c); break;
    case 'w': res = isalnum(c); break;
    case 'x': res = isxdigit(c); break;
    default: return cl == c;
    }
    return isupper(cl) ? !res : res != 0;
}

/* Whether byte c matches the single-character class p..ep (".", "%w",
 * "[^,]", a literal): lstrlib.c singlematch and matchbracketclass. */
static int single_has(int c, const char *p, const char *ep)
{
    if (*p == '.')
        return 1;
    if (*p == '%')
        return class_has(c, (unsigned char)p[1]);
    if (*p != '[')
        return (unsigned char)*p == c;
    const char *ec = ep - 1; /* the closing ']' */
    int sig = 1;
    if (p[1] == '^') {
        sig = 0;
        p++;
    }
    while (++p < ec) {
        if (*p == '%') {
            p++;
            if (class_has(c, (unsigned char)*p))
                return sig;
        } else if (p[1] == '-' && p + 2 < ec) {
            p += 2;
            if ((unsigned char)p[-2] <= c && c <= (unsigned char)*p)
                return sig;
        } else if ((unsigned char)*p == c) {
            return sig;
        }
    }
    return !sig;
}

/* The end of the single-character class at p (lstrlib.c classEnd), or NULL
 * when the pattern is malformed there. */
static const char *class_end(const char *p, const char *pe)
{
    if (*p == '%')
        return p + 1 < pe ? p + 2 : NULL;
    if (*p != '[')
        return p + 1;
    p++;
    if (p < pe && *p == '^')
        p++;
    do { /* the first character is in the set even if it is ']' */
        if (p >= pe)
            return NULL;
        if (*p++ == '%' && p < pe)
            p++;
    } while (p >= pe || *p != ']');
    return p + 1;
}

/* The longest run of subject bytes s[0..n) in the class p..ep: how many
 * splits a repetition of it can try from any start. */
static double longest_run(const char *s, size_t n, const char *p, const char *ep)
{
    size_t best = 0, run = 0;
    for (size_t i = 0; i < n; i++) {
        run = single_has((unsigned char)s[i], p, ep) ? run + 1 : 0;
        best = run > best ? run : best;
    }
    return (double)best;
}

/* Worst-case steps of matching pattern p against the subject s[0..n) by
 * Lua 5.4's matcher (lstrlib.c do_match), with the subject known (tester43
 * F9: the blind bound charged every repetition n+1 splits, so
 * '%s*(%w+)%s*=' on 2 KB read 2e14 steps and was refused; it takes ~1e5).
 * Per start the matcher walks the items left to right; only a repetition
 * or an optional item branches:
 *   X*, X+, X-   at most R+1 splits, R the longest run of X in s, each
 *                costing X's test and the rest:  (R + 1) (w + rest)
 *   X?           with and without X:             w + 2 rest
 *   %b, %1-%9    one scan of at most n bytes:    n + 1 + rest
 *   X, (, ), %f  one test:                       w + rest
 * with w the class's length in the pattern (a set tests each entry), and
 * the end 1.  A bound, not a guess: every path the matcher takes is
 * counted, so the time budget still holds.  Starts: n+1, or 1 when
 * anchored ('^' outside gmatch).  Returns -1 for a malformed pattern. */
static double pattern_steps(const char *s, size_t n, const char *p, size_t plen, int anchor_ok)
{
    const char *pe = p + plen;
    double starts = (double)n + 1.0;
    if (anchor_ok && plen && *p == '^') {
        starts = 1.0;
        p++;
    }
    /* the items' ends first, then the cost from the last item back */
    enum { MAX_ITEMS = 512 };
    const char *at[MAX_ITEMS + 1];
    char quant[MAX_ITEMS] = {0}; /* the repetition of a class: '*', '+', '-', '?' or 0 */
    int nitems = 0;
    for (const char *q = p; q < pe; nitems++) {
        if (nitems == MAX_ITEMS)
            return -1;
        at[nitems] = q;
        if (*q == '(' || *q == ')' || (*q == '$' && q + 1 == pe)) {
            q++;
        } else if (*q == '%' && q + 1 < pe && q[1] == 'b') {
            if (q + 3 >= pe)
                return -1;
            q += 4;
        } else if (*q == '%' && q + 1 < pe && q[1] == 'f') {
            if (q + 2 >= pe || q[2] != '[' || !(q = class_end(q + 2, pe)))
                return -1;
        } else if (*q == '%' && q + 1 < pe && q[1] >= '0' && q[1] <= '9') {
            q += 2;
        } else {
            if (!(q = class_end(q, pe)))
                return -1;
            if (q < pe && (*q == '*' || *q == '+' || *q == '-' || *q == '?'))
                quant[nitems] = *q++;
        }
    }
    at[nitems] = pe;
    double rest = 1.0;
    for (int i = nitems - 1; i >= 0 && rest <= CALL_STEPS_CAP; i--) {
        const char *q = at[i], *next = at[i + 1];
        double w = (double)(next - q);
        if (quant[i] == '?')
            rest = w + 2.0 * rest;
        else if (quant[i])
            rest = (longest_run(s, n, q, next - 1) + 1.0) * (w + rest);
        else if (*q == '%' && (q[1] == 'b' || (q[1] >= '0' && q[1] <= '9')))
            rest += (double)n + 1.0;
        else /* one test: a class, a capture's bound, %f, the end anchor */
            rest += w;
    }
    return starts * rest;
}

/* string.find / match / gmatch / gsub (s, p [, init [, plain]]): the
 * pattern's worst case, the smaller of two bounds: the blind one, and when
 * that exceeds the budget, the one on this subject (not read otherwise:
 * a call in a loop scans its subject once more per repetition); or for a
 * plain find the naive search's n * plen. */
static double cost_pattern(lua_State *L, const char *name)
{
    size_t n, plen;
    const char *s = luaL_checklstring(L, 1, &n);
    const char *p = luaL_checklstring(L, 2, &plen);
    if (strcmp(name, "find") == 0 && lua_toboolean(L, 4))
        return ((double)n + 1.0) * ((double)plen + 1.0);
    double blind = pattern_steps_blind(p, plen, n);
    sandbox_state *st = state_of(L);
    if (blind <= (double)st->lim.instructions)
        return blind;
    /* the estimate's own work (review40 F2: it ran unbounded before the
     * guard decided): longest_run tests each quantified class, of at most
     * w entries, on every byte, so at most (n+1) plen tests.  Beyond the
     * budget it is not run (the blind bound refuses the call, as before
     * the subject-aware bound); else it is spent (the hook sees it) and
     * counted in the call's cost. */
    double scan = ((double)n + 1.0) * (double)plen;
    if (scan > (double)st->lim.instructions)
        return blind;
    st->executed += (long)scan;
    double steps = pattern_steps(s, n, p, plen, strcmp(name, "gmatch") != 0);
    return steps >= 0 && steps < blind ? steps + scan : blind;
}

/* string.rep(s, n [, sep]): n copies, even of an empty string. */
static double cost_rep(lua_State *L, const char *name)
{
    (void)name;
    lua_Integer n = luaL_checkinteger(L, 2);
    return n > 0 ? (double)n : 0.0;
}

/* Steps per element that table.insert/remove/move shift with lua_geti and
 * lua_seti: moving absent elements (nil into a missing key) took 190 ns
 * each against 29 ns per VM instruction of a numeric for loop, on the
 * development machine (table.move({}, 1, 1e8, 1): 19.4 s). */
#define ELEMENT_STEPS 8.0

/* table.insert / table.remove: they shift up to #t elements; #t of a table
 * with a __len metamethod is whatever it returns (asked here once more).
 * A plain table's length is bounded by the memory cap. */
static double cost_shift(lua_State *L, const char *name)
{
    (void)name;
    if (luaL_getmetafield(L, 1, "__len") == LUA_TNIL)
        return 0.0;
    lua_pop(L, 1);
    lua_Integer len = luaL_len(L, 1);
    return len > 0 ? ELEMENT_STEPS * (double)len : 0.0;
}

/* table.move(a1, f, e, t [, a2]): e - f + 1 elements. */
static double cost_move(lua_State *L, const char *name)
{
    (void)name;
    lua_Integer f = luaL_checkinteger(L, 2), e = luaL_checkinteger(L, 3);
    return e >= f ? ELEMENT_STEPS * ((double)e - (double)f + 1.0) : 0.0;
}

static const struct {
    const char *lib, *name;
    double (*cost)(lua_State *L, const char *name);
} GUARDED[] = {
    {LUA_STRLIBNAME, "find", cost_pattern}, {LUA_STRLIBNAME, "match", cost_pattern},
    {LUA_STRLIBNAME, "gmatch", cost_pattern}, {LUA_STRLIBNAME, "gsub", cost_pattern},
    {LUA_STRLIBNAME, "rep", cost_rep},      {LUA_TABLIBNAME, "insert", cost_shift},
    {LUA_TABLIBNAME, "remove", cost_shift}, {LUA_TABLIBNAME, "move", cost_move},
};

/* The wrapper: upvalue 1 is the original function, upvalue 2 its index in
 * GUARDED.  Refuses a call whose cost exceeds the instruction budget. */
static int guarded_call(lua_State *L)
{
    int g = (int)lua_tointeger(L, lua_upvalueindex(2));
    double cost = GUARDED[g].cost(L, GUARDED[g].name);
    double limit = (double)state_of(L)->lim.instructions;
    if (cost > limit) {
        char msg[256]; /* lua_pushfstring has no precision: format here */
        snprintf(msg, sizeof msg,
                 "%s.%s: this call could take up to %.3g steps inside C, where the instruction "
                 "hook cannot stop it; one call may take at most the instruction budget (%.3g)%s",
                 GUARDED[g].lib, GUARDED[g].name, cost, limit,
                 GUARDED[g].cost == cost_pattern ? "; use a shorter subject or pattern, or fewer "
                                                   "repetitions"
                                                 : "");
        return luaL_error(L, "%s", msg);
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

static void guard_library_calls(lua_State *L)
{
    for (size_t g = 0; g < sizeof GUARDED / sizeof GUARDED[0]; g++) {
        lua_getglobal(L, GUARDED[g].lib);
        lua_getfield(L, -1, GUARDED[g].name);
        lua_pushinteger(L, (lua_Integer)g);
        lua_pushcclosure(L, guarded_call, 2);
        lua_setfield(L, -2, GUARDED[g].name);
        lua_pop(L, 1);
    }
}

/* The standard library globals the sandbox leaves out (the base library's
 * file and code loaders, removed by rl_sandbox_new; os, io, package, debug
 * and coroutine, never opened). */
static int removed_global(const char *name)
{
    static const char *const GONE[] = {"os",     "io",       "package", "debug",
                                       "coroutine", "require", "dofile", "loadfile",
                                       "load",   "collectgarbage"};
    for (size_t i = 0; name && i < sizeof GONE / sizeof GONE[0]; i++)
        if (strcmp(name, GONE[i]) == 0)
            return 1;
    return 0;
}

static int undefined_global(lua_State *L)
{
    const char *name = lua_tostring(L, 2);
    if (removed_global(name))
        return luaL_error(L, "read of undefined global '%s': " REFUSED " (Lua code sees base "
                          "Lua, math, string, table, utf8 and, in scenarios, roofline, which "
                          "reads and writes its files: docs/hardening.md)", name);
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
    s->L = L;
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
    lua_getglobal(L, "print"); /* the real print as the wrapper's upvalue */
    lua_pushcclosure(L, noted_print, 1);
    lua_setglobal(L, "print");
    lua_pushcfunction(L, safe_pcall);
    lua_setglobal(L, "pcall");
    lua_pushcfunction(L, safe_xpcall);
    lua_setglobal(L, "xpcall");
    lua_getglobal(L, "string"); /* string.dump makes bytecode: nothing may use it */
    lua_pushnil(L);
    lua_setfield(L, -2, "dump");
    lua_pop(L, 1);
    guard_library_calls(L);
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
    s->deep = 0;
    s->deadline = rl_now_s() + s->lim.seconds;
    lua_sethook(L, budget_hook, LUA_MASKCOUNT | LUA_MASKCALL, HOOK_EVERY);
}

const char *rl_sandbox_key(lua_State *L, int idx, char *desc, size_t desclen)
{
    size_t len;
    switch (lua_type(L, idx)) {
    case LUA_TSTRING: {
        const char *k = lua_tolstring(L, idx, &len); /* a string: no conversion, no metamethod */
        if (strlen(k) == len)
            return k;
        size_t o = 0; /* printable: NUL as \0, other control bytes as ?, cut to fit */
        for (size_t i = 0; i < len && o + 3 < desclen; i++) {
            unsigned char c = (unsigned char)k[i];
            if (c == 0)
                desc[o++] = '\\', desc[o++] = '0';
            else
                desc[o++] = c < 0x20 || c == 0x7f ? '?' : (char)c;
        }
        if (desclen)
            desc[o] = '\0';
        return NULL;
    }
    case LUA_TNUMBER:
        if (lua_isinteger(L, idx))
            snprintf(desc, desclen, LUA_INTEGER_FMT, lua_tointeger(L, idx));
        else
            snprintf(desc, desclen, "%.14g", lua_tonumber(L, idx));
        return NULL;
    case LUA_TBOOLEAN:
        snprintf(desc, desclen, "%s", lua_toboolean(L, idx) ? "true" : "false");
        return NULL;
    default:
        snprintf(desc, desclen, "a %s", lua_typename(L, lua_type(L, idx)));
        return NULL;
    }
}

/* ---- the watchdog -------------------------------------------------------------
 * The backstop for what the hook cannot reach: a thread per top-level run
 * that wakes every 50 ms.  When the run is still going WATCHDOG_GRACE_S
 * after its time limit, or WATCHDOG_SIGNAL_GRACE_S after a SIGINT or
 * SIGTERM, it is stuck in a C call that cannot be unwound safely, so the watchdog ends the process the
 * way a second signal does (rl_interrupt_exit: the temporary file in flight
 * is removed): status 2 for the time limit, 128 + the signal otherwise. */
typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int done;
    double deadline; /* CLOCK_MONOTONIC seconds */
    double seconds;  /* the limit, for the message */
    const char *path;
} watchdog;

static void *watch(void *arg)
{
    watchdog *w = arg;
    double sigint_at = 0; /* when SIGINT or SIGTERM arrived */
    pthread_mutex_lock(&w->mu);
    while (!w->done) {
        double t = rl_now_s();
        if (!sigint_at && rl_interrupted())
            sigint_at = t;
        if (t > w->deadline + WATCHDOG_GRACE_S ||
            (sigint_at && t > sigint_at + WATCHDOG_SIGNAL_GRACE_S))
            break;
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_nsec += 50 * 1000 * 1000;
        if (ts.tv_nsec >= 1000 * 1000 * 1000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000 * 1000 * 1000;
        }
        pthread_cond_timedwait(&w->cv, &w->mu, &ts);
    }
    int done = w->done;
    pthread_mutex_unlock(&w->mu);
    if (done)
        return NULL;
    const char *sig = rl_interrupt_name();
    if (sigint_at)
        fprintf(stderr, "roofline: %s: interrupted (%s) inside a C call that cannot be unwound; "
                        "run ended\n", w->path, sig);
    else
        fprintf(stderr, "roofline: %s: time limit of %.3g s exceeded inside a C call that the "
                        "instruction budget cannot stop; run ended\n", w->path, w->seconds);
    rl_interrupt_exit(!sigint_at ? 2 : rl_interrupt_status());
    return NULL;
}

static int watchdog_start(watchdog *w, pthread_t *thread, const char *path, double seconds)
{
    pthread_condattr_t ca;
    w->done = 0;
    w->seconds = seconds;
    w->deadline = rl_now_s() + seconds;
    w->path = path;
    if (pthread_condattr_init(&ca) != 0)
        return -1;
    int rc = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    rc = rc ? rc : pthread_cond_init(&w->cv, &ca);
    pthread_condattr_destroy(&ca);
    if (rc != 0)
        return -1;
    if (pthread_mutex_init(&w->mu, NULL) != 0) {
        pthread_cond_destroy(&w->cv);
        return -1;
    }
    if (pthread_create(thread, NULL, watch, w) != 0) {
        pthread_mutex_destroy(&w->mu);
        pthread_cond_destroy(&w->cv);
        return -1;
    }
    return 0;
}

static void watchdog_stop(watchdog *w, pthread_t thread)
{
    pthread_mutex_lock(&w->mu);
    w->done = 1;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(thread, NULL);
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cv);
}

size_t rl_sandbox_memory_left(lua_State *L)
{
    sandbox_state *s = state_of(L);
    return s->used < s->lim.memory ? s->lim.memory - s->used : 0;
}

static int traceback(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (msg && strstr(msg, REFUSED)) /* file:line: reason, as it is */
        return 1;
    /* Lua's own "stack overflow" (lua stack past LUAI_MAXSTACK, or C calls
     * past LUAI_MAXCCALLS: "C stack overflow"): its traceback is 20 copies
     * of one line; say what it means instead */
    if (msg && strstr(msg, "stack overflow")) {
        lua_pushfstring(L, "%s (calls nested too deep: runaway recursion?)", msg);
        return 1;
    }
    /* an error object that is no string or number: its __tostring where it
     * has one, else what it is and where error() was called (tester76 #4:
     * error({}) was reported as "table: 0x5632f1bcff90") */
    if (!msg && luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
        msg = lua_tostring(L, -1);
    else if (!msg) {
        luaL_where(L, 2); /* "file:line: " of the caller of error(), "" for a C function */
        msg = lua_pushfstring(L, "%serror object is %s%s, not a string (error() takes a "
                              "message: error(\"what went wrong\"))", lua_tostring(L, -1),
                              lua_isnil(L, 1) ? "" : "a ", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

/* Read a whole regular file into a malloc'd buffer; NULL on failure (err
 * set by rl_fopen_input, else errno set). */
static char *slurp(const char *path, size_t *len, char *err, size_t errlen)
{
    FILE *f = rl_fopen_input(path, err, errlen);
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

int rl_sandbox_pcall(lua_State *L, int nargs, int nresults, const char *path, char *err,
                     size_t errlen)
{
    int base = lua_gettop(L) - nargs; /* the function */
    lua_pushcfunction(L, traceback);
    lua_insert(L, base);
    watchdog w;
    pthread_t thread;
    if (watchdog_start(&w, &thread, path, state_of(L)->lim.seconds) != 0) {
        snprintf(err, errlen, "%s: cannot start the time-limit watchdog", path);
        lua_settop(L, base - 1);
        return -1;
    }
    rl_sandbox_reset_budget(L);
    unsigned long refusals = state_of(L)->refusals;
    int rc = lua_pcall(L, nargs, nresults, base);
    watchdog_stop(&w, thread);
    if (rc != LUA_OK) {
        const char *msg = lua_tostring(L, -1);
        sandbox_state *s = state_of(L);
        /* runtime errors carry file:line */
        if (memory_spent(L, rc, refusals))
            snprintf(err, errlen, "%s: %s", path, s->spent);
        else if (msg && strstr(msg, path) == msg)
            snprintf(err, errlen, "%s", msg);
        else
            snprintf(err, errlen, "%s: %s", path, msg ? msg : "error object is not a string");
        lua_settop(L, base - 1);
        return -1;
    }
    lua_remove(L, base); /* the traceback handler */
    return 0;
}

/* rl_sandbox_dofile, and with `unique` rl_sandbox_dospec. */
static int dofile(lua_State *L, const char *path, int nresults, int unique, char *err,
                  size_t errlen)
{
    size_t len = 0;
    err[0] = '\0';
    /* the path as its messages and Lua's own show it (the chunk name):
     * control bytes as \xHH (error.h rl_name_shown; tester62 #10) */
    char shown[1024];
    rl_name_shown(path, shown, sizeof shown);
    char *src = slurp(path, &len, err, errlen);
    if (!src) {
        if (!err[0])
            snprintf(err, errlen, "%s: cannot read: %s", shown, strerror(errno));
        return -1;
    }
    char chunkname[1026];
    snprintf(chunkname, sizeof chunkname, "@%s", shown);
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
    /* a field named twice in one table: Lua keeps the last silently, which a
     * loaded table cannot show; the source can (luakeys.h; fixRC #6) */
    char dup[512];
    int twice = loaded == LUA_OK && unique ? rl_lua_duplicate_key(text, len, dup, sizeof dup)
                                           : 0;
    free(src);
    if (twice != 0 && (twice > 0 || dup[0])) { /* found, or out of memory */
        lua_pop(L, 1);
        snprintf(err, errlen, "%s: %s", shown, dup);
        return -1;
    }
    if (loaded != LUA_OK) {
        const char *msg = lua_tostring(L, -1);
        if (loaded == LUA_ERRMEM) /* load errors already carry the chunk name */
            snprintf(err, errlen, "%s: %s", shown, msg ? msg : "not enough memory");
        else
            snprintf(err, errlen, "%s: syntax error: %s", shown, msg ? msg : "?");
        lua_pop(L, 1);
        return -1;
    }
    return rl_sandbox_pcall(L, 0, nresults, shown, err, errlen);
}

int rl_sandbox_dofile(lua_State *L, const char *path, int nresults, char *err, size_t errlen)
{
    return dofile(L, path, nresults, 0, err, errlen);
}

int rl_sandbox_dospec(lua_State *L, const char *path, int nresults, char *err, size_t errlen)
{
    return dofile(L, path, nresults, 1, err, errlen);
}
