/* test_memory.c — HBM footprint and the largest batch (seed 000 section 5,
 * worked problem 2). */
#include "testutil.h"

#include "memory.h"

/* Problem 2: 16 v5e x 16e9 B = 256 GB, int8 weights (18.4 GB) and KV
 * (262,144 B/token), 128,000-token context: (256 - 18.4) / 33.5 -> 7; with
 * K = 1 the KV shrinks 8x -> 56. */
static void worked_problem_2(void **state)
{
    (void)state;
    rl_hw h = load_hw("tpu-v5e", NULL, 0);
    assert_true(h.hbm_bytes == 16e9);
    rl_model m = load_model("scaling-book-18b", NULL, 0);
    assert_int_equal(rl_memory_max_batch(&m, &h, 16, 128000, RL_INT8, RL_INT8), 7);
    rl_override k1 = {"kv_heads", "1"};
    rl_model mqa = load_model("scaling-book-18b", &k1, 1);
    assert_int_equal(rl_memory_max_batch(&mqa, &h, 16, 128000, RL_INT8, RL_INT8), 56);
}

/* Weights that do not fit leave no room for any sequence: llama3-405b in
 * bf16 (810 GB) on one H100 (80 GB). */
static void weights_do_not_fit(void **state)
{
    (void)state;
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    rl_model m = load_model("llama3-405b", NULL, 0);
    assert_int_equal(rl_memory_max_batch(&m, &h, 1, 1024, RL_BF16, RL_BF16), 0);
    rl_memory u = rl_memory_use(&m, &h, 1, 1, 1024, RL_BF16, RL_BF16);
    assert_false(u.fits);
    assert_true(u.capacity_bytes == 80e9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(worked_problem_2),
        cmocka_unit_test(weights_do_not_fit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
