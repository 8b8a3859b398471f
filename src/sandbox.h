/* sandbox.h — a restricted Lua 5.4 state for user-written specs and scenarios.
 *
 * Owns: which libraries a script sees (base without load/loadfile/dofile/
 * collectgarbage, math, string, table, utf8), the error on reads of undefined
 * globals, the instruction budget and wall-clock limit (checked by a count
 * hook; once spent, every further instruction fails, so pcall cannot swallow
 * it), the memory cap enforced through the Lua allocator, and the refusal of
 * __gc finalizers (Lua runs them with hooks off, so they could loop forever).
 * A C call cannot be interrupted, so the library functions whose work the
 * arguments can make unbounded (string.find/match/gmatch/gsub, string.rep,
 * table.insert/remove/move) refuse a call whose worst-case steps exceed the
 * instruction budget; a watchdog thread ends the process when a run is
 * still stuck in C 1 s past its time limit or 5 s past a SIGINT/SIGTERM
 * (status 2, or 128 + the signal like a second one: interrupt.h).  xpcall's
 * handler runs after unwinding (hooked); _G's metatable is locked.  SIGINT
 * and SIGTERM stop a script like an exhausted budget; a spec file naming a
 * field twice in one table is refused (rl_sandbox_dospec, luakeys.h).  Uses
 * Lua's C API and POSIX threads. */
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

/* The errno of the first print of a sandbox's script that failed to write
 * stdout (a closed pipe: EPIPE; a full disk: ENOSPC), or 0: the command's
 * "stdout: write failed: REASON" says it after the run (fixRD #4). */
int rl_sandbox_stdout_errno(void);

/* Load the text chunk in `path` (binary chunks are refused) and call it with
 * no arguments, leaving `nresults` values on the stack.  On failure returns
 * -1, leaves the stack as it was and writes "path: reason" to err (syntax
 * errors, runtime errors, budget and memory exhaustion, unreadable file).
 * A run still stuck in one C call past the time limit ends the process
 * (see above): the watchdog runs for the duration of the call. */
int rl_sandbox_dofile(lua_State *L, const char *path, int nresults, char *err, size_t errlen);

/* rl_sandbox_dofile of a spec file (a model or hardware spec, an engine's
 * profile): also refused, before it runs, when one of its table
 * constructors names a field twice ("path: field 'NAME': given twice in one
 * table, at lines A and B ...", luakeys.h; fixRC #6).  A scenario is a
 * program and is not checked. */
int rl_sandbox_dospec(lua_State *L, const char *path, int nresults, char *err, size_t errlen);

/* Call the function below the `nargs` arguments on top of the stack as a
 * new top-level run (budget reset, watchdog), leaving `nresults` values.
 * On failure pops the function and arguments, writes "path: reason" to err
 * and returns -1. */
int rl_sandbox_pcall(lua_State *L, int nargs, int nresults, const char *path, char *err,
                     size_t errlen);

/* Bytes the state may still allocate before its memory cap: C code called
 * from a script sizes (or refuses) its own allocations with this. */
size_t rl_sandbox_memory_left(lua_State *L);

/* The table key at idx as a field name: the string itself when the key is
 * a string without NUL bytes; otherwise NULL, with desc describing the key
 * ("1", "true", "a table", "layers\0x") read without calling any
 * metamethod (a hostile __tostring may raise, loop or return a non-string,
 * and spec checking runs outside a protected call). */
const char *rl_sandbox_key(lua_State *L, int idx, char *desc, size_t desclen);

/* Reset the instruction counter and the clock (call before each top-level
 * run; rl_sandbox_dofile does). */
void rl_sandbox_reset_budget(lua_State *L);

#endif
