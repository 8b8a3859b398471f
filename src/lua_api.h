/* lua_api.h — the `roofline` Lua module and the scenario runner.
 *
 * Owns the Lua face of the core: roofline.model, roofline.hw, roofline.info,
 * roofline.step, roofline.shard, roofline.ops, roofline.prefill,
 * roofline.sweep, roofline.pareto, roofline.plot, roofline.write and
 * roofline.format, each
 * returning plain Lua tables with the same keys as the CLI's JSON (see
 * result.h), plus the conversions between Lua tables and cJSON.  Scenarios
 * run in the sandbox (sandbox.h) with this module as the global `roofline`.
 * Uses result, report, spec, step, ops, sweep, plot, sandbox, guard, cJSON.
 * Scenario output files go only through roofline.write and roofline.plot,
 * into the run's output directory (outdir.h: confined, atomic). */
#ifndef RL_LUA_API_H
#define RL_LUA_API_H

#include <stddef.h>

#include <cjson/cJSON.h>
#include <lua.h>

#include "outdir.h"

/* How a scenario runs.  A zeroed struct means: no output directory
 * (roofline.write refuses), the default RL_SCENARIO_LIMITS budget. */
typedef struct {
    rl_outdir *out;    /* `--out DIR`; roofline.write confines files there */
    long instructions; /* VM instruction budget; 0 = RL_SCENARIO_LIMITS */
} rl_scenario_opts;

/* The module's commands (param.h RL_COMMANDS): each takes its option table
 * (roofline.info: a model, then the table) and returns the command's result
 * as a Lua table; a bad field is a Lua error naming it. */
int rl_lua_info(lua_State *L);
int rl_lua_step(lua_State *L);
int rl_lua_shard(lua_State *L);
int rl_lua_ops(lua_State *L);
int rl_lua_prefill(lua_State *L);
int rl_lua_sweep(lua_State *L);
int rl_lua_pareto(lua_State *L);
int rl_lua_plot(lua_State *L);
int rl_lua_simulate(lua_State *L);
int rl_lua_size(lua_State *L);

/* Set the global `roofline` in L. */
void rl_lua_open(lua_State *L);

/* Push a JSON value as Lua values (objects -> tables, arrays -> sequences,
 * integral numbers -> integers).  An object holding a "rows" array also gets
 * `columns`, the row keys in order, so roofline.format keeps column order. */
void rl_lua_push_json(lua_State *L, const cJSON *j);

/* Convert the Lua value at idx to JSON; NULL with err set for values JSON
 * cannot hold (functions, userdata, non-finite numbers, cycles). */
cJSON *rl_lua_to_json(lua_State *L, int idx, char *err, size_t errlen);

/* Run a scenario file with `argc` extra arguments in the global `arg`
 * (arg[0] = path).  `opts` may be NULL (defaults).  Returns 0, or -1 with
 * err holding the Lua error and its traceback. */
int rl_lua_run_scenario(const char *path, int argc, char **argv, const rl_scenario_opts *opts,
                        char *err, size_t errlen);

/* The output directory of the scenario running in L; raises a Lua error
 * ("no output directory: ... --out DIR") when the run has none.  For every
 * module function that writes a file (roofline.write, roofline.plot). */
rl_outdir *rl_lua_outdir(lua_State *L);

#endif
