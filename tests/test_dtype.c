/* test_dtype.c — formats and their sizes (bit widths: bf16/fp16 16 bits,
 * fp8/int8 8, int4/fp4 4, fp32 32). */
#include "testutil.h"

#include "dtype.h"

static void sizes_and_names(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        double bytes;
    } want[] = {{"fp32", 4}, {"bf16", 2}, {"fp16", 2}, {"fp8", 1}, {"int8", 1}, {"int4", 0.5}, {"fp4", 0.5}};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        rl_dtype t;
        assert_int_equal(rl_dtype_parse(want[i].name, &t), 0);
        assert_true(rl_dtype_bytes(t) == want[i].bytes);
        assert_string_equal(rl_dtype_name(t), want[i].name);
    }
    rl_dtype t;
    assert_int_equal(rl_dtype_parse("float16", &t), -1);
    assert_int_equal(rl_dtype_parse("", &t), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(sizes_and_names)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
