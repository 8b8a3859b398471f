/* test_numeric.c — sizes are exact or refused, never wrapped or rounded. */
#include "testutil.h"

#include <limits.h>

#include "arch.h"
#include "memory.h"
#include "number.h"

/* rl_memory_check_exact for one batch size. */
static int check(const rl_model *m, long long batch, long long context, rl_dtype kv, char *err,
                 size_t errlen)
{
    return rl_memory_check_exact(m, &batch, 1, context, kv, err, errlen);
}

/* LLaMA-3-405B, 1,048,576 tokens of context, batch 4096, bf16 KV:
 * KV bytes per token 2 * L * K * H * 2 = 2 * 126 * 8 * 128 * 2 = 516,096
 * (meta-llama/Llama-3.1-405B config.json: 126 layers, 8 KV heads, head 128);
 * times 2^20 * 4096 = 2,216,615,441,596,416 bytes, below 2^53: exact. */
static void llama3_405b_million_context_exact(void **state)
{
    (void)state;
    rl_override ov[] = {{"max_context", "1048576"}};
    rl_model m = load_model("llama3-405b", ov, 1);
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    char err[1024];
    assert_int_equal(check(&m, 4096, 1048576, RL_BF16, err, sizeof err), 0);
    rl_memory r = rl_memory_use(&m, &h, 1000000, 4096, 1048576, RL_BF16, RL_BF16);
    assert_true(r.kv_bytes == 2216615441596416.0);
    /* 2^53 / (2^20 * 516,096) = 16,644.06: batch 16,644 is exact, 16,645 refused */
    assert_int_equal(check(&m, 16644, 1048576, RL_BF16, err, sizeof err), 0);
    assert_int_equal(check(&m, 16645, 1048576, RL_BF16, err, sizeof err), -1);
    assert_non_null(strstr(err, "2^53"));
    /* a list is checked at its largest batch */
    long long list[] = {1, 16645, 8};
    assert_int_equal(rl_memory_check_exact(&m, list, 3, 1048576, RL_BF16, err, sizeof err), -1);
    assert_non_null(strstr(err, "batch 16645"));
    /* in fp32 KV the limit halves (8,322) */
    assert_int_equal(check(&m, 8322, 1048576, RL_FP32, err, sizeof err), 0);
    assert_int_equal(check(&m, 8323, 1048576, RL_FP32, err, sizeof err), -1);
}

/* max_batch never overflows its integer, whatever the spec: an abstract model
 * with 1 byte of KV per token on a million 80 GB chips gives 8e16 sequences of
 * one token -> saturates at RL_MAX_BATCH (1e9). */
static void max_batch_capped(void **state)
{
    (void)state;
    rl_model m = {0};
    snprintf(m.name, sizeof m.name, "tiny");
    m.abstract = 1;
    m.params = m.params_active = 1;
    m.kv_bytes_per_token = 1;
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    long long b = rl_memory_max_batch(&m, &h, 1000000, 1, RL_BF16, RL_BF16);
    assert_true(b == (long long)RL_MAX_BATCH);
    assert_true(b > 0 && b < LLONG_MAX);
}

/* A shape whose parameter count passes 2^51 is refused at load time. */
static void huge_shape_refused(void **state)
{
    (void)state;
    rl_override ov[] = {{"layers", "1000000"}, {"d_ff", "1000000000"}};
    rl_model m;
    char err[1024];
    use_source_tree();
    assert_int_equal(rl_model_load("llama3-8b", ov, 2, &m, err, sizeof err), -1);
    assert_non_null(strstr(err, "beyond the 2^51"));
    /* the largest real models are far inside the limit */
    m = load_model("llama3-405b", NULL, 0);
    assert_true(rl_arch_params(&m).total < 2251799813685248.0 / 1000);
}

/* tester77 #5: a sizing report read "0.0% of the requests drawn exceed
 * max_context" for 1 of 4000 redrawn and "0.0B parameters" for a tiny
 * model.  Exact strings (printf rounding, no tolerance): a share below 0.1%
 * keeps two significant digits, a count its unit and three. */
static void percent_and_count_words(void **state)
{
    (void)state;
    char b[RL_PERCENT_STR], c[RL_COUNT_STR];
    assert_string_equal(rl_percent_str(1.0 / 4000, b), "0.025%");
    assert_string_equal(rl_percent_str(0.117, b), "11.7%");
    assert_string_equal(rl_percent_str(0, b), "0.0%");
    assert_string_equal(rl_count_str(70.6e9, c), "70.6B");
    assert_string_equal(rl_count_str(8.03e9, c), "8.03B");
    assert_string_equal(rl_count_str(405.9e9, c), "406B");
    assert_string_equal(rl_count_str(1.23e6, c), "1.23M");
    assert_string_equal(rl_count_str(4096, c), "4.1K");
    assert_string_equal(rl_count_str(512, c), "512");
    /* fixNF: bytes in the SI unit that shows them, to 0.1 of it (number.h
     * rl_bytes_str), whole bytes below 1 kB */
    char y[RL_BYTES_STR];
    assert_string_equal(rl_bytes_str(141.1e9, y), "141.1 GB");
    assert_string_equal(rl_bytes_str(549.8e9, y), "549.8 GB");
    assert_string_equal(rl_bytes_str(2097152, y), "2.1 MB");
    assert_string_equal(rl_bytes_str(1.6e6, y), "1.6 MB");
    assert_string_equal(rl_bytes_str(720e3, y), "720.0 kB");
    assert_string_equal(rl_bytes_str(4.2e12, y), "4.2 TB");
    assert_string_equal(rl_bytes_str(2048, y), "2.0 kB");
    assert_string_equal(rl_bytes_str(999, y), "999 bytes");
    assert_string_equal(rl_bytes_str(1, y), "1 byte");
    assert_string_equal(rl_bytes_str(0, y), "0 bytes");
    /* fixNJ: the unit is picked from the rounded figure, so a value that
     * rounds up to 1000 of one unit shows as 1.0 of the next (999,960 B is
     * 999.96 kB, which rounds to 1000.0 kB: "1.0 MB"), exact strings */
    assert_string_equal(rl_bytes_str(999960, y), "1.0 MB");
    assert_string_equal(rl_bytes_str(999999999, y), "1.0 GB");
    assert_string_equal(rl_bytes_str(999.6, y), "1.0 kB");
    assert_string_equal(rl_bytes_str(1000, y), "1.0 kB");
    assert_string_equal(rl_bytes_str(999940, y), "999.9 kB");
    assert_string_equal(rl_bytes_str(-999960, y), "-1.0 MB");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(llama3_405b_million_context_exact),
        cmocka_unit_test(max_batch_capped),
        cmocka_unit_test(huge_shape_refused),
        cmocka_unit_test(percent_and_count_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
