/* test_sandbox.c — the restricted Lua state: what is absent, budgets, the
 * memory cap, pcall cannot swallow a stop, SIGINT, pattern backtracking. */
#include "testutil.h"

#include <lauxlib.h>

#include "interrupt.h"
#include "sandbox.h"

static const rl_sandbox_limits SMALL = {1000 * 1000, 8u << 20, 60.0};

/* Run `code` in a fresh sandbox with `lim`; return 0 or -1, error in err. */
static int run_code(const rl_sandbox_limits *lim, const char *code, char *err, size_t errlen)
{
    char path[64];
    write_temp(path, ".lua", code);
    lua_State *L = rl_sandbox_new(lim);
    assert_non_null(L);
    int rc = rl_sandbox_dofile(L, path, 0, err, errlen);
    rl_sandbox_close(L);
    unlink(path);
    return rc;
}

/* Expect failure with `fragment` in the error message. */
static void expect_error(const rl_sandbox_limits *lim, const char *code, const char *fragment)
{
    char err[4096] = "";
    if (run_code(lim, code, err, sizeof err) == 0)
        fail_msg("expected an error containing '%s' from: %s", fragment, code);
    if (!strstr(err, fragment))
        fail_msg("error for `%s` lacks '%s': %s", code, fragment, err);
}

static void expect_ok(const char *code)
{
    char err[4096] = "";
    if (run_code(&SMALL, code, err, sizeof err) != 0)
        fail_msg("`%s` failed: %s", code, err);
}

static void absent_libraries(void **state)
{
    (void)state;
    const char *names[] = {"io", "os", "require", "load", "loadfile", "dofile", "collectgarbage",
                           "coroutine", "debug", "package", "loadstring"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char code[128];
        snprintf(code, sizeof code, "local x = %s", names[i]);
        expect_error(&SMALL, code, "read of undefined global");
    }
    expect_ok("assert(string.dump == nil and rawget(_G, 'io') == nil)");
    expect_ok("assert(math.sqrt(4) == 2 and table.concat({1,2}) == '12' and utf8.char(65) == 'A')");
}

static void undefined_global_rule_is_locked(void **state)
{
    (void)state;
    expect_error(&SMALL, "setmetatable(_G, nil)", "cannot change a protected metatable");
    expect_ok("assert(type(getmetatable(_G)) == 'string')"); /* the lock, not the table */
    /* rawset/rawget work on _G but cannot reach anything not already there */
    expect_ok("rawset(_G, 'x', 1) assert(x == 1) assert(rawget(_G, 'os') == nil)");
}

static void binary_chunk_refused(void **state)
{
    (void)state;
    expect_error(&SMALL, "\x1bLua\x54\x00\x19\x93\r\n\x1a\n", "binary chunk");
}

/* The budget stops a runaway loop, and pcall cannot swallow the stop: the
 * hook raises again on the first instruction after pcall returns. */
static void instruction_budget(void **state)
{
    (void)state;
    expect_error(&SMALL, "while true do end", "instruction budget of");
    expect_error(&SMALL, "while true do pcall(function() while true do end end) end",
                 "instruction budget of");
    expect_error(&SMALL, "local function h() while true do end end\n"
                         "while true do xpcall(h, h) end",
                 "instruction budget of");
    /* a __gc finalizer runs with hooks off: refused at setmetatable */
    expect_error(&SMALL, "setmetatable({}, {__gc = function() while true do end end})",
                 "__gc metamethods are not allowed");
    /* and the unchecked setmetatable is nowhere a script can reach */
    expect_ok("assert(rawget(_G, '\\1setmetatable') == nil)");
    /* xpcall's handler runs as an ordinary (hooked) call */
    expect_ok("local ok, m = xpcall(error, function(e) return 'h:' .. e end, 'x')\n"
              "assert(not ok and m == 'h:x')");
    /* the message states the budget */
    expect_error(&SMALL, "repeat until false", "budget of 1000000 exceeded");
}

static void memory_cap(void **state)
{
    (void)state;
    expect_error(&SMALL, "local s = string.rep('x', 1e10)", "too large");
    expect_error(&SMALL, "local s = string.rep('x', 1e8)", "not enough memory");
    expect_error(&SMALL, "local t = {} for i = 1, 1e8 do t[i] = i end", "not enough memory");
    expect_error(&SMALL, "local s = 'x' for i = 1, 40 do s = s .. s end", "not enough memory");
}

static void deep_recursion(void **state)
{
    (void)state;
    rl_sandbox_limits big = {100 * 1000 * 1000, 256u << 20, 60.0};
    expect_error(&big, "local function f(n) return 1 + f(n + 1) end f(1)", "stack overflow");
    /* a deeply nested expression hits the parser's C-stack limit */
    char code[20000] = "local x = ";
    for (int i = 0; i < 5000; i++)
        strcat(code, "(");
    strcat(code, "1");
    for (int i = 0; i < 5000; i++)
        strcat(code, ")");
    expect_error(&SMALL, code, "overflow");
}

/* string.find("aaaa...a", "a*a*...a*c") backtracks exponentially inside C,
 * out of the hook's reach: the guard refuses it before it starts. */
static void pattern_backtracking(void **state)
{
    (void)state;
    expect_error(&SMALL, "local s = string.rep('a', 30) .. 'b'\n"
                         "s:find(string.rep('a*', 30) .. 'c')",
                 "could backtrack");
    expect_ok("assert(('k=v'):match('(%w+)=(%w+)') == 'k')");
    expect_ok("assert(('a*b'):find('*', 1, true) == 2)"); /* plain find: no pattern */
    expect_ok("assert(select(2, ('a b  c'):gsub('%s+', ' ')) == 2)");
}

static void sigint_stops_script(void **state)
{
    (void)state;
    rl_interrupt_raise();
    char err[4096] = "";
    int rc = run_code(&RL_SCENARIO_LIMITS, "while true do pcall(error) end", err, sizeof err);
    rl_interrupt_clear();
    assert_int_equal(rc, -1);
    if (!strstr(err, "interrupted (SIGINT)"))
        fail_msg("error lacks 'interrupted (SIGINT)': %s", err);
}

/* A wrong expectation must make the harness fail. */
static void wrong_fragment(void **state)
{
    (void)state;
    expect_error(&SMALL, "while true do end", "this text is not in the message");
}

static void harness_can_fail(void **state)
{
    (void)state;
    const struct CMUnitTest bad[] = {cmocka_unit_test(wrong_fragment)};
    assert_int_not_equal(run_group_in_child(bad, 1, "must_fail"), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(absent_libraries),     cmocka_unit_test(undefined_global_rule_is_locked),
        cmocka_unit_test(binary_chunk_refused), cmocka_unit_test(instruction_budget),
        cmocka_unit_test(memory_cap),           cmocka_unit_test(deep_recursion),
        cmocka_unit_test(pattern_backtracking), cmocka_unit_test(sigint_stops_script),
        cmocka_unit_test(harness_can_fail),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
