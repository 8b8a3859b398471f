/* test_lua_api.c — the `roofline` Lua module: same numbers as the C core,
 * argument errors, format round trip, sweep / pareto / plot, simulate. */
#include "testutil.h"

#include <lauxlib.h>

#include "lua_api.h"
#include "sandbox.h"

static lua_State *L;

static int setup(void **state)
{
    (void)state;
    use_source_tree();
    L = rl_sandbox_new(&RL_SCENARIO_LIMITS);
    rl_lua_open(L);
    return L ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    rl_sandbox_close(L);
    return 0;
}

/* Run a chunk; returns 0 or -1 and leaves the message in err. */
static int run(const char *code, char *err, size_t n)
{
    rl_sandbox_reset_budget(L);
    if (luaL_loadstring(L, code) != LUA_OK || lua_pcall(L, 0, 1, 0) != LUA_OK) {
        snprintf(err, n, "%s", lua_tostring(L, -1));
        lua_pop(L, 1);
        return -1;
    }
    return 0;
}

static double run_number(const char *code)
{
    char err[1024];
    if (run(code, err, sizeof err) != 0)
        fail_msg("%s: %s", code, err);
    double v = lua_tonumber(L, -1);
    lua_pop(L, 1);
    return v;
}

/* The chapter's B = 240 MHA figure, 249.09 ms (seed 000 section 1, 1%). */
static void step_from_lua(void **state)
{
    (void)state;
    double ms = run_number(
        "local r = roofline.step{ model = roofline.model('llama2-13b', { max_context = 8192 }),"
        " hw = roofline.hw('tpu-v5e', { hbm_bw = 8.2e11 }), chips = 8, batch = { 1, 240 },"
        " context = 8192 } return r.rows[2].step_s * 1e3");
    assert_rel(ms, 249.09, 0.01);
    assert_true(run_number("return roofline.info('llama2-13b').params_total") == 13015864320.0);
    assert_true(run_number("return roofline.info('scaling-book-18b', { kv = 'int8' })"
                           ".kv_bytes_per_token") == 262144.0);
}

static void errors(void **state)
{
    (void)state;
    char err[1024];
    assert_int_equal(run("return roofline.model('llama2-13b', { kv_heads = 7 })", err, sizeof err), -1);
    assert_non_null(strstr(err, "kv_heads"));
    assert_int_equal(run("return roofline.step{ model = 'llama3-8b', hw = 'tpu-v5e' }", err, sizeof err), -1);
    assert_non_null(strstr(err, "context"));
    assert_int_equal(run("return roofline.info('llama3-8b', { weights = 'int3' })", err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown dtype"));
    assert_int_equal(run("return roofline.step{ model = 'llama3-8b', hw = 'tpu-v5e', context = 10,"
                         " batch = { 1, -2 } }",
                         err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "batch"));
    assert_int_equal(run("return roofline.step{ model = 'llama3-8b', hw = 'tpu-v5e', context = 10,"
                         " bogus = 1 }",
                         err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "unknown field 'bogus'"));
}

/* Override tables merge into nested spec tables (like --set hw.flops.fp4). */
static void nested_overrides(void **state)
{
    (void)state;
    assert_true(run_number("return roofline.hw('h100-sxm', { flops = { fp4 = 4e15 } }).flops.bf16") ==
                9.89e14);
}

/* format keeps the column order of step rows and SI units in CSV. */
static void format_round_trip(void **state)
{
    (void)state;
    char err[1024];
    assert_int_equal(run("return roofline.format(roofline.step{ model = 'llama3-8b', hw = 'h100-sxm',"
                         " context = 1024, batch = { 1, 4 } }, 'csv')",
                         err, sizeof err),
                     0);
    const char *csv = lua_tostring(L, -1);
    assert_non_null(strstr(csv, "batch,context,step_s,tokens_per_s,tokens_per_s_per_chip,"));
    lua_pop(L, 1);
    assert_int_equal(run("return roofline.format({ a = 0/0 }, 'json')", err, sizeof err), -1);
    assert_non_null(strstr(err, "not finite"));
}

/* sweep and pareto: counts add up (infeasible + feasible = grid), the
 * frontier is a subset of the sweep in latency order; plot checks its
 * arguments before writing anything. */
static void sweep_pareto_plot(void **state)
{
    (void)state;
    const char *grid = "{ model = 'llama3-70b', hw = 'tpu-v5e', chips = { 8, 16, 32 },"
                       " batch = { 1, 16, 64, 256 }, context = 4096, weights = { 'bf16', 'int8' }, ideal = true }";
    char code[1024], err[1024];
    snprintf(code, sizeof code, "local s = roofline.sweep%s return s.infeasible + s.feasible", grid);
    assert_true(run_number(code) == 24.0); /* 3 chips x 4 batches x 2 precisions */
    snprintf(code, sizeof code,
             "local s, f = roofline.sweep%s, roofline.pareto%s\n"
             "for i, r in ipairs(f.rows) do\n"
             "  if i > 1 and not (r.step_s > f.rows[i-1].step_s and"
             "      r.chip_s_per_token < f.rows[i-1].chip_s_per_token) then return -1 end\n"
             "  local found = false\n"
             "  for _, q in ipairs(s.rows) do found = found or (q.chips == r.chips and"
             "    q.batch == r.batch and q.weights == r.weights) end\n"
             "  if not found then return -2 end\n"
             "end\nreturn #f.rows",
             grid, grid);
    assert_true(run_number(code) >= 2);
    assert_int_equal(run("return roofline.plot{ kind = 'pie', file = 'x.png', model = 'llama3-8b',"
                         " hw = 'tpu-v5e', context = 8 }", err, sizeof err), -1);
    assert_non_null(strstr(err, "expected pareto, step, roofline or memory"));
    assert_int_equal(run("return roofline.plot{ kind = 'memory', file = '../x.png' }", err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "plain file name"));
    assert_int_equal(run("return roofline.sweep{ model = 'llama3-8b', hw = 'tpu-v5e', chips = { 3 },"
                         " context = 8 }", err, sizeof err), -1);
    assert_non_null(strstr(err, "not a valid slice"));
}

/* roofline.shard and the step's sharding options give the C results:
 * worked problem 4's communication, 64 layers * 18 us (test_shard.c). */
static void shard_from_lua(void **state)
{
    (void)state;
    double comm = run_number(
        "local r = roofline.step{ model = 'scaling-book-18b', hw = 'tpu-v5e', chips = 16,"
        " tp = 16, kv_split = 'seq', batch = 1, context = 128000, weights = 'int8',"
        " kv = 'int8', compute = 'int8' } return r.rows[1].comm_s");
    assert_rel(comm, 64 * 18e-6, 1e-9);
    double n = run_number(
        "local r = roofline.shard{ model = 'llama3-70b', hw = 'h100-sxm', chips = 8, batch = 32,"
        " context = 8192 } assert(r.advice.generate_latency == 'tp8') return #r.collectives");
    assert_true(n >= 2);
    char err[1024];
    assert_int_equal(run("return roofline.step{ model = 'llama3-70b', hw = 'tpu-v5e', chips = 16,"
                         " context = 8, kv_split = 'heads' }", err, sizeof err), -1);
    assert_non_null(strstr(err, "kv_split"));
}

/* roofline.ops and roofline.prefill give the C core's numbers: LLaMA-2-70B
 * decode B = 8, S = 4096 reads 10,737,418,240 KV bytes (test_ops.c); the
 * op rows keep their order (first the embedding); errors name the field. */
static void ops_from_lua(void **state)
{
    (void)state;
    assert_true(run_number("return roofline.ops{ model = 'llama2-70b', hw = 'h100-sxm', batch = 8,"
                           " context = 4096 }.kv_read_bytes") == 10737418240.0);
    assert_true(run_number("local r = roofline.ops{ model = 'llama3-8b', hw = 'h100-sxm',"
                           " phase = 'prefill', tokens = 512 } return r.rows[1].op == 'embedding'"
                           " and r.tokens or -1") == 512);
    assert_true(run_number("local r = roofline.prefill{ model = 'llama3-8b', hw = 'h100-sxm',"
                           " tokens = { 512, 4096 }, chunk = 1024 }"
                           " return r.rows[2].chunked_s > r.rows[2].ttft_s and #r.rows or -1") == 2);
    char err[1024];
    assert_int_equal(run("return roofline.ops{ model = 'llama3-8b', hw = 'h100-sxm', phase = 'prefill' }",
                         err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "tokens"));
    assert_int_equal(run("return roofline.ops{ model = 'llama3-8b', hw = 'h100-sxm', context = 10,"
                         " attn = 'flash' }",
                         err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "attn"));
}

/* roofline.simulate: every request completes (500 here); the same seed gives
 * the same p99 as a second call; errors name the field or the DIST. */
static void simulate_from_lua(void **state)
{
    (void)state;
    const char *sim = "return roofline.simulate{ model = 'llama3-8b', hw = 'h100-sxm', qps = 5,"
                      " prompt = 'lognormal:1000:0.5', output = '100', requests = 500,"
                      " policy = 'chunked' }";
    char code[512];
    snprintf(code, sizeof code, "local a = (function() %s end)() return a.completed", sim);
    assert_true(run_number(code) == 500.0);
    snprintf(code, sizeof code,
             "local f = function() %s end return f().ttft_p99_s == f().ttft_p99_s and 1 or 0", sim);
    assert_true(run_number(code) == 1.0);
    /* the same run-describing keys as the CLI's JSON (rl_serve_describe_run) */
    snprintf(code, sizeof code,
             "local r = (function() %s end)() return (r.mode == 'calibrated' and r.model == "
             "'llama3-8b' and r.chips_total == 1 and r.qps == 5 and r.prompt == "
             "'lognormal:1000:0.5') and 1 or 0",
             sim);
    assert_true(run_number(code) == 1.0);
    char err[1024];
    assert_int_equal(run("return roofline.simulate{ model = 'llama3-8b', hw = 'h100-sxm', qps = 5,"
                         " prompt = 'uniform:9:1', output = '10' }",
                         err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "prompt"));
    assert_int_equal(run("return roofline.simulate{ model = 'llama3-8b', hw = 'h100-sxm', qps = 5,"
                         " prompt = '10', output = '10', policy = 'fifo' }",
                         err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "policy"));
    /* as on the command line (param.h): seed 0 is a seed; the latency targets are
     * ttft_p99/tpot_p99, the old ttft_slo/tpot_slo spellings give the same run */
    const char *base = "roofline.simulate{ model = 'llama3-8b', hw = 'h100-sxm', qps = 5,"
                       " prompt = '200', output = '20', requests = 100";
    snprintf(code, sizeof code, "return %s, seed = 0 }.seed", base);
    assert_true(run_number(code) == 0.0);
    snprintf(code, sizeof code,
             "local a = %s, ttft_p99 = 0.01, tpot_p99 = 0.005 }\n"
             "local b = %s, ttft_slo = 0.01, tpot_slo = 0.005 }\n"
             "return (a.slo_attainment == b.slo_attainment and a.slo_attainment < 1) and 1 or 0",
             base, base);
    assert_true(run_number(code) == 1.0);
    snprintf(code, sizeof code, "return %s, seed = -1 }", base);
    assert_int_equal(run(code, err, sizeof err), -1);
    assert_non_null(strstr(err, "field 'seed'"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(step_from_lua),
        cmocka_unit_test(sweep_pareto_plot),
        cmocka_unit_test(errors),
        cmocka_unit_test(format_round_trip),
        cmocka_unit_test(nested_overrides),
        cmocka_unit_test(shard_from_lua),
        cmocka_unit_test(ops_from_lua),
        cmocka_unit_test(simulate_from_lua),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
