/* test_dtype.c — formats and their sizes (bit widths: bf16/fp16 16 bits,
 * fp8/int8 8, int4/fp4/mxfp4 4, fp32 32). */
#include "testutil.h"

#include "dtype.h"

static void sizes_and_names(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        double bytes;
    } want[] = {{"fp32", 4}, {"bf16", 2}, {"fp16", 2}, {"fp8", 1}, {"int8", 1}, {"int4", 0.5}, {"fp4", 0.5},
                  {"mxfp4", 0.5}};
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
 * scales left out).  mxfp4 is OCP MXFP4: one E8M0 byte per 32 elements
 * (OCP MX spec v1.0; gpt-oss's "4.25 bits per parameter"): 4096 x 4096 / 2
 * + 4096 / 32 x 4096 = 8,912,896 B, 0.53125 B an element.  Under any
 * --weights narrower than 16 bits the unquantized tensors (embedding, LM
 * head, norms, router) stay bf16, fp8 and int8 included (tester23 F3:
 * neuralmagic's FP8 checkpoints quantize "only the linear operators within
 * transformers blocks"; llm-compressor's ignore=["lm_head"] over Linear
 * layers; gpt-oss's modules_to_not_convert); 16- and 32-bit weights keep
 * their own.  Exact (binary fractions). */
static void four_bit_bytes(void **state)
{
    (void)state;
    assert_true(rl_dtype_matrix_bytes(RL_FP4, 4096, 4096) == 9437184.0);
    assert_true(rl_dtype_matrix_bytes(RL_INT4, 4096, 4096) == 8650752.0);
    assert_true(rl_dtype_weight_bytes(RL_FP4) == 0.5625);
    assert_true(rl_dtype_weight_bytes(RL_INT4) == 0.515625);
    assert_true(rl_dtype_weight_bytes(RL_FP8) == 1.0 && rl_dtype_weight_bytes(RL_BF16) == 2.0);
    assert_true(rl_dtype_matrix_bytes(RL_MXFP4, 4096, 4096) == 8912896.0);
    assert_true(rl_dtype_weight_bytes(RL_MXFP4) == 0.53125);
    static const rl_dtype kept[][2] = {{RL_FP4, RL_BF16},  {RL_INT4, RL_BF16}, {RL_MXFP4, RL_BF16},
                                       {RL_FP8, RL_BF16},  {RL_INT8, RL_BF16}, {RL_BF16, RL_BF16},
                                       {RL_FP16, RL_FP16}, {RL_FP32, RL_FP32}};
    for (size_t i = 0; i < sizeof kept / sizeof *kept; i++)
        assert_int_equal(rl_dtype_kept(kept[i][0]), kept[i][1]);
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
