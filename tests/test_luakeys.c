/* test_luakeys.c — a field named twice in one Lua table constructor
 * (luakeys.h): found with its lines and dotted path; never in strings,
 * comments, function bodies or other tables (fixRC #6). */
#include "testutil.h"

#include "luakeys.h"

/* rl_lua_duplicate_key of src: its return, err into err[512]. */
static int scan(const char *src, char *err)
{
    return rl_lua_duplicate_key(src, strlen(src), err, 512);
}

static void found_with_lines_and_path(void **state)
{
    (void)state;
    char err[512];
    assert_int_equal(scan("return {\n  name = 'x',\n  layers = 32,\n  d_model = 4096,\n"
                          "  layers = 40,\n}\n", err), 1);
    assert_string_equal(err, "field 'layers': given twice in one table, at lines 3 and 5 (Lua "
                             "keeps the last without a word, so which one is meant is unclear); "
                             "keep one");
    /* nested: the path through the keys holding the table; a third copy
     * names the first pair */
    assert_int_equal(scan("return { flops = { bf16 = 1e15,\n fp8 = 2e15,\n bf16 = 3,\n bf16 = 4 } }",
                          err), 1);
    assert_non_null(strstr(err, "field 'flops.bf16': given twice in one table, at lines 1 and 3"));
    /* ';' separates fields too; a key right after '{' counts */
    assert_int_equal(scan("local t = {a = 1; b = 2; a = 3}\nreturn t", err), 1);
    assert_non_null(strstr(err, "field 'a': given twice"));
    /* a list element's table keeps its parent's path */
    assert_int_equal(scan("return { rows = { {x = 1}, {x = 1,\n x = 2} } }", err), 1);
    assert_non_null(strstr(err, "field 'rows.x': given twice in one table, at lines 1 and 2"));
}

static void not_found_where_no_field_is(void **state)
{
    (void)state;
    char err[512];
    static const char *const fine[] = {
        /* the same name in different tables, and at different depths */
        "return { a = 1, t = { a = 2 }, u = { a = 3 } }",
        /* in strings: short ones with escaped quotes, long ones at any level */
        "return { a = 'a = 1, a = 2', b = \"x\\\" a = 3\", c = [[a = 1\n a = 2]], d = [==[ ]] a = 5 ]==] }",
        /* in comments: a line comment and long comments */
        "return { a = 1, -- a = 2\n --[[ a = 3,\n a = 4 ]] --[=[ a = 5 ]] ]=] b = 2 }",
        /* a function body inside a table holds statements, not fields */
        "return { f = function(x) local a, b = 1, 2; a = 3; if x then a = 4 end; "
        "for i = 1, 2 do b = i end; while false do a = 5 end; repeat a = 6 until true; "
        "return a end, a = 7 }",
        /* comparison and call syntax are not keys */
        "local a = 1\nreturn { x = a == 1, y = a <= 2, z = a ~= 3, w = f and f{ q = 1 }, q = 2 }",
        /* a key after a value that spans lines */
        "return { a = [[\n]], b = { c = 1 }, ['a'] = 2 }",
        /* statements outside any table */
        "local t = {}\nt.a = 1\nt.a = 2\nreturn t",
        /* numbers with exponents and hex */
        "return { a = 1e-3, b = 0x1p+4, c = .5, d = 2E+10 }",
    };
    for (size_t i = 0; i < sizeof fine / sizeof *fine; i++)
        if (scan(fine[i], err) != 0)
            fail_msg("case %zu: '%s': %s", i, fine[i], err);
}

/* A text whose nesting does not scan (never one Lua loaded) gives no
 * verdict (-1, err empty), so a loader can go on. */
static void no_verdict_on_odd_nesting(void **state)
{
    (void)state;
    char err[512];
    assert_int_equal(scan("return { a = 1 ) }", err), -1);
    assert_string_equal(err, "");
    assert_int_equal(scan("return { a = 'unclosed }", err), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(found_with_lines_and_path),
        cmocka_unit_test(not_found_where_no_field_is),
        cmocka_unit_test(no_verdict_on_odd_nesting),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
