/* sandbox.h — a restricted Lua 5.4 state for user-written specs and scenarios.
 *
 * Owns: which libraries a script sees (base without load/loadfile/dofile/
 * collectgarbage, math, string, table, utf8), the error on reads of undefined
 * globals, the instruction budget and wall-clock limit (checked by a count
 * hook; once spent, every further instruction fails, so pcall cannot swallow
 * it), the memory cap enforced through the Lua allocator, and the refusal of
 * __gc finalizers (Lua runs them with hooks off, so they could loop forever).
 * Known limit: time spent inside one C call (a pathological string pattern on
 * a long string) is not interrupted; the memory cap bounds string sizes.
 * Uses only Lua's C API. */
#ifndef RL_SANDBOX_H
#define RL_SANDBOX_H

#include <stddef.h>

#include <lua.h>

typedef struct {
    long instructions; /* VM instructions before the script is stopped */
    size_t memory;     /* bytes the state may hold at once */
    double seconds;    /* wall-clock seconds per top-level run */
} rl_sandbox_limits;

/* Limits for spec files: small, a spec is a table literal. */
extern const rl_sandbox_limits RL_SPEC_LIMITS;
/* Limits for scenario scripts, which may run sweeps. */
extern const rl_sandbox_limits RL_SCENARIO_LIMITS;

/* Create a sandboxed state.  Returns NULL only when memory is exhausted. */
lua_State *rl_sandbox_new(const rl_sandbox_limits *lim);

/* Close a state made by rl_sandbox_new (NULL is ignored). */
void rl_sandbox_close(lua_State *L);

/* Load the text chunk in `path` (binary chunks are refused) and call it with
 * no arguments, leaving `nresults` values on the stack.  On failure returns
 * -1, leaves the stack as it was and writes "path: reason" to err (syntax
 * errors, runtime errors, budget and memory exhaustion, unreadable file). */
int rl_sandbox_dofile(lua_State *L, const char *path, int nresults, char *err, size_t errlen);

/* Reset the instruction counter and the clock (call before each top-level
 * run; rl_sandbox_dofile does). */
void rl_sandbox_reset_budget(lua_State *L);

#endif
