/* lua_api.h — the `roofline` Lua module and the scenario runner.
 *
 * Owns the Lua face of the core: roofline.model, roofline.hw, roofline.info,
 * roofline.step, roofline.shard, roofline.ops, roofline.prefill,
 * roofline.sweep, roofline.pareto, roofline.plot and roofline.format, each
 * returning plain Lua tables with the same keys as the CLI's JSON (see
 * result.h), plus the conversions between Lua tables and cJSON.  Scenarios
 * run in the sandbox (sandbox.h) with this module as the global `roofline`.
 * Uses result, report, spec, step, ops, sweep, plot, sandbox, cJSON.
 * Scenario output files go only through roofline.plot, into the output
 * directory (rl_lua_set_outdir). */
#ifndef RL_LUA_API_H
#define RL_LUA_API_H

#include <stddef.h>

#include <cjson/cJSON.h>
#include <lua.h>

/* Set the global `roofline` in L. */
void rl_lua_open(lua_State *L);

/* Push a JSON value as Lua values (objects -> tables, arrays -> sequences,
 * integral numbers -> integers).  An object holding a "rows" array also gets
 * `columns`, the row keys in order, so roofline.format keeps column order. */
void rl_lua_push_json(lua_State *L, const cJSON *j);

/* Convert the Lua value at idx to JSON; NULL with err set for values JSON
 * cannot hold (functions, userdata, non-finite numbers, cycles). */
cJSON *rl_lua_to_json(lua_State *L, int idx, char *err, size_t errlen);

/* Directory roofline.plot writes into (created on first use); default "out". */
void rl_lua_set_outdir(const char *dir);

/* Run a scenario file with `argc` extra arguments in the global `arg`
 * (arg[0] = path).  Returns 0, or -1 with err holding the Lua error and its
 * traceback. */
int rl_lua_run_scenario(const char *path, int argc, char **argv, char *err, size_t errlen);

#endif
