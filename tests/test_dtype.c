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

/* Stored bytes of the 4-bit formats, scales included (dtype.h; tester22
 * F11).  fp4 is NVFP4: one fp8 E4M3 scale per 16 elements (NVIDIA's NVFP4
 * introduction; llm-compressor's NVFP4 scheme, group size 16): a 4096 x 4096
 * matrix is 4096 x 4096 / 2 + 4096 / 16 x 4096 = 9,437,184 B, 4.5 bits a
 * weight (the old one-bf16-per-128 rule: 8,650,752 B, 4.125 bits); int4
 * keeps GPTQ/AWQ's bf16 scale per 128: 8,650,752 B.  Per element where no
 * shape is at hand: 0.5625 and 0.515625 B; the 8-bit formats 1 (per-channel
 * scales left out).  Under 4-bit weights the embedding and LM head stay bf16
 * (llm-compressor's ignore=["lm_head"] over Linear layers; gpt-oss's
 * modules_to_not_convert).  Exact (binary fractions). */
static void four_bit_bytes(void **state)
{
    (void)state;
    assert_true(rl_dtype_matrix_bytes(RL_FP4, 4096, 4096) == 9437184.0);
    assert_true(rl_dtype_matrix_bytes(RL_INT4, 4096, 4096) == 8650752.0);
    assert_true(rl_dtype_weight_bytes(RL_FP4) == 0.5625);
    assert_true(rl_dtype_weight_bytes(RL_INT4) == 0.515625);
    assert_true(rl_dtype_weight_bytes(RL_FP8) == 1.0 && rl_dtype_weight_bytes(RL_BF16) == 2.0);
    assert_int_equal(rl_dtype_vocab(RL_FP4), RL_BF16);
    assert_int_equal(rl_dtype_vocab(RL_INT4), RL_BF16);
    assert_int_equal(rl_dtype_vocab(RL_FP8), RL_FP8);
    /* gpt-oss-120b (its config.json: 116,789,048,640 parameters, 2 x
     * 579,133,440 of them the embedding and LM head) in fp4:
     * 115,630,781,760 x 0.5625 + 1,158,266,880 x 2 = 67,358,848,500 B (the
     * checkpoint: ~65 GB in MXFP4 at 4.25 bits; the old rule, 58.39e9) */
    assert_true(rl_dtype_weights_bytes(RL_FP4, 116789048640.0, 1158266880.0) == 67358848500.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(sizes_and_names),
                                       cmocka_unit_test(four_bit_bytes)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
