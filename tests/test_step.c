/* test_step.c — formula (1) against the Scaling Book's tables and worked
 * problems (seed 000).  Tolerances: 1% unless stated. */
#include "testutil.h"

#include "arch.h"
#include "step.h"

static const long long BATCHES[] = {1, 8, 16, 32, 64, 240};

/* 8 x TPU v5e at the book's 8.2e11 B/s, LLaMA-2-13B at 8192 tokens, bf16. */
/* The book's v5e: 8.2e11 B/s and 16 GB = 16e9 B of HBM (its rounding; the
 * preset holds 16 GiB, docs/model.md "HBM capacity"). */
static rl_hw book_v5e(void)
{
    rl_override o[2] = {{"hbm_bw", "8.2e11"}, {"hbm_bytes", "16e9"}};
    return load_hw("tpu-v5e", o, 2);
}

static rl_model llama2_13b_at_8k(void)
{
    rl_override ctx = {"max_context", "8192"};
    return load_model("llama2-13b", &ctx, 1);
}

/* Seed 000 section 1, "Modeling throughput and latency for LLaMA 2-13B",
 * first table (MHA): step ms and tokens/s for B = 1, 8, 16, 32, 64, 240. */
static void llama2_13b_mha_table(void **state)
{
    (void)state;
    static const double step_ms[] = {4.98, 12.13, 20.30, 36.65, 69.33, 249.09};
    static const double tok_s[] = {200.61, 659.30, 787.99, 873.21, 923.13, 963.53};
    rl_model m = llama2_13b_at_8k();
    rl_hw h = book_v5e();
    for (int i = 0; i < 6; i++) {
        rl_step s = rl_step_decode(&m, &h, 8, BATCHES[i], 8192, rl_precision_default());
        assert_rel(s.step_s * 1e3, step_ms[i], 0.01);
        assert_rel(s.tokens_per_s, tok_s[i], 0.01);
        assert_rel(s.tokens_per_s_per_chip, tok_s[i] / 8, 0.01);
    }
}

/* The same table's memory: only B = 1 and 8 fit in 8 x 16 GB (the book:
 * "when the batch exceeds 16, out of memory"; B = 16 needs 133 GB > 128 GB). */
static void llama2_13b_mha_fit(void **state)
{
    (void)state;
    rl_model m = llama2_13b_at_8k();
    rl_hw h = book_v5e();
    static const int fits[] = {1, 1, 0, 0, 0, 0};
    for (int i = 0; i < 6; i++) {
        rl_step s = rl_step_decode(&m, &h, 8, BATCHES[i], 8192, rl_precision_default());
        assert_int_equal(s.mem.fits, fits[i]);
    }
    rl_step s = rl_step_decode(&m, &h, 8, 16, 8192, rl_precision_default());
    assert_rel(s.mem.total_bytes, 133.2e9, 0.01); /* book: 133.2 */
}

/* The GQA table (K = 8, total parameters kept at 13e9 as the book states):
 * 4.17, 5.60, 7.23, 10.50, 17.04, 52.99 ms.  Modeled as an abstract model
 * with LLaMA-2-13B's parameters and K = 8's 163,840 KV bytes per token. */
static void llama2_13b_gqa_table(void **state)
{
    (void)state;
    static const double step_ms[] = {4.17, 5.60, 7.23, 10.50, 17.04, 52.99};
    rl_override k8 = {"kv_heads", "8"};
    rl_model mha = llama2_13b_at_8k();
    rl_model gqa_arch = load_model("llama2-13b", &k8, 1);
    rl_model gqa = {.abstract = 1,
                    .params = rl_arch_params(&mha).total,
                    .params_active = rl_arch_params(&mha).total,
                    .kv_bytes_per_token = rl_arch_kv_bytes_per_token(&gqa_arch, RL_BF16)};
    assert_true(gqa.kv_bytes_per_token == 163840.0); /* 2*40*8*128*2 */
    rl_hw h = book_v5e();
    for (int i = 0; i < 6; i++) {
        rl_step s = rl_step_decode(&gqa, &h, 8, BATCHES[i], 8192, rl_precision_default());
        assert_rel(s.step_s * 1e3, step_ms[i], 0.01);
    }
}

/* Worked problem 3: loading all int8 weights of the 18.4B model over 16 v5e
 * takes 18.4e9 / (16 * 8.1e11) ~ 1.4 ms (+-2%; the preset's 8.19e11 B/s). */
static void worked_problem_3(void **state)
{
    (void)state;
    rl_model m = load_model("scaling-book-18b", NULL, 0);
    rl_hw h = load_hw("tpu-v5e", NULL, 0);
    rl_precision p = {RL_INT8, RL_INT8, RL_INT8};
    rl_step s = rl_step_decode(&m, &h, 16, 1, 1, p);
    assert_rel(s.weight_load_s * 1e3, 1.4, 0.02);
}

/* Seed 000 section 1, the 30B example: 16 v5e, int8 weights, bf16 compute,
 * 100 kB/token KV, S = 8192: ~2.5 ms at B = 4 and ~21 ms at B = 256 (+-3%),
 * compute-bound MLP at 256 ("the MLP block enters the compute-bound
 * region"), while the whole step stays memory-bound (16 ms of KV loading
 * against 4.9 ms of FLOPs). */
static void abstract_30b(void **state)
{
    (void)state;
    rl_model m = {.abstract = 1, .params = 30e9, .params_active = 30e9, .kv_bytes_per_token = 100e3};
    rl_hw h = load_hw("tpu-v5e", NULL, 0);
    rl_precision p = {RL_INT8, RL_BF16, RL_BF16};
    rl_step b4 = rl_step_decode(&m, &h, 16, 4, 8192, p);
    rl_step b256 = rl_step_decode(&m, &h, 16, 256, 8192, p);
    assert_rel(b4.step_s * 1e3, 2.5, 0.03);
    assert_rel(b256.step_s * 1e3, 21.0, 0.03);
    assert_int_equal(b4.mlp_bound, RL_MEMORY_BOUND);
    assert_int_equal(b256.mlp_bound, RL_COMPUTE_BOUND);
    assert_int_equal(b256.bound, RL_MEMORY_BOUND);
    /* with a short context the whole step turns compute-bound */
    rl_step short_ctx = rl_step_decode(&m, &h, 16, 4096, 16, p);
    assert_int_equal(short_ctx.bound, RL_COMPUTE_BOUND);
}

/* Worked problem 5 (2): B_crit of the E = 16, k = 2 MoE on v5e is
 * 240 * 16 / 2 = 1920 (bf16); the dense model's is 240. */
static void moe_b_crit(void **state)
{
    (void)state;
    rl_hw h = load_hw("tpu-v5e", NULL, 0);
    rl_model moe = load_model("scaling-book-18b-moe", NULL, 0);
    rl_model dense = load_model("scaling-book-18b", NULL, 0);
    assert_rel(rl_step_b_crit(&moe, &h, rl_precision_default()), 1920, 0.01);
    assert_rel(rl_step_b_crit(&dense, &h, rl_precision_default()), 240, 0.01);
}

/* rl_step_calibrated_curves (step.h): with its curves, rl_step_calibrated
 * bit for bit; without, the `calibrated` flag still set and step_s formula
 * (1)'s with the KV term times kv_copies, exactly the sum the code forms
 * (kv * 1.5 + max(0, attention - kv * 1.5) + max(weights, compute)), and
 * not the curves' (fails if the flag leaves the curves on or off).
 * llama3-8b on h100-sxm (which has efficiency curves), batch 16, 2048. */
static void calibrated_curves(void **state)
{
    (void)state;
    rl_model m = load_model("llama3-8b", NULL, 0);
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    assert_true(h.efficiency.present);
    rl_precision p = rl_precision_default();
    rl_step a = rl_step_calibrated(&m, &h, 1, 16, 2048, p, 1.5);
    rl_step b = rl_step_calibrated_curves(&m, &h, 1, 16, 2048, p, 1.5, 1);
    rl_step c = rl_step_calibrated_curves(&m, &h, 1, 16, 2048, p, 1.5, 0);
    rl_step d = rl_step_decode(&m, &h, 1, 16, 2048, p);
    assert_memory_equal(&a.step_s, &b.step_s, sizeof a.step_s);
    assert_memory_equal(&a.tokens_per_s, &b.tokens_per_s, sizeof a.tokens_per_s);
    assert_memory_equal(&a.kernel_excess_s, &b.kernel_excess_s, sizeof a.kernel_excess_s);
    assert_int_equal(a.calibrated, 1);
    assert_int_equal(b.calibrated, 1);
    assert_int_equal(c.calibrated, 1);
    double kv = d.kv_load_s * 1.5;
    double roof = kv + fmax(0.0, d.attention_s - kv) + fmax(d.weight_load_s, d.compute_s);
    assert_memory_equal(&c.step_s, &roof, sizeof roof);
    assert_true(a.step_s > c.step_s); /* the curves' overheads and fractions add time */
}

/* rl_step_check refuses what formula (1) cannot evaluate. */
static void check_errors(void **state)
{
    (void)state;
    char err[512];
    rl_model m = load_model("llama3-8b", NULL, 0);
    rl_hw h = load_hw("tpu-v5e", NULL, 0);
    rl_precision p = rl_precision_default();
    assert_int_equal(rl_step_check(&m, &h, 1, 8192, p, err, sizeof err), 0);
    assert_int_equal(rl_step_check(&m, &h, 1, 8193, p, err, sizeof err), -1);
    assert_non_null(strstr(err, "max_context"));
    assert_int_equal(rl_step_check(&m, &h, 0, 100, p, err, sizeof err), -1);
    assert_non_null(strstr(err, "chips"));
    p.compute = RL_FP8; /* v5e lists no fp8 peak */
    assert_int_equal(rl_step_check(&m, &h, 1, 100, p, err, sizeof err), -1);
    assert_non_null(strstr(err, "flops.fp8"));
    /* fixAA: an fp8-only chip (flops = {fp8 = 1e15}) passed --weights fp8
     * --kv fp8 --compute fp8 and timed the kept bf16 tensors (embedding, LM
     * head) at a peak of 0: TTFT infinite, simulate spun forever.  Refused,
     * naming the field; attention over a bf16 cache under fp8 compute too. */
    rl_hw f = load_hw("h100-sxm", NULL, 0);
    for (int d = 0; d < RL_DTYPE_COUNT; d++)
        if (d != RL_FP8)
            f.flops[d] = 0;
    rl_precision q = {RL_FP8, RL_FP8, RL_FP8};
    assert_int_equal(rl_step_check(&m, &f, 1, 100, q, err, sizeof err), -1);
    assert_non_null(strstr(err, "'flops.bf16': missing"));
    assert_non_null(strstr(err, "--weights fp8"));
    q.kv = RL_BF16;
    assert_int_equal(rl_step_check(&m, &f, 1, 100, q, err, sizeof err), -1);
    assert_non_null(strstr(err, "attention"));
    f.flops[RL_BF16] = 1e14; /* with the peak: accepted */
    q.kv = RL_FP8;
    assert_int_equal(rl_step_check(&m, &f, 1, 100, q, err, sizeof err), 0);
}

/* A deliberately wrong expectation: MHA's 4.98 ms with the GQA model. */
static void wrong_expectation(void **state)
{
    (void)state;
    rl_override k8 = {"kv_heads", "8"};
    rl_model m = load_model("llama2-13b", &k8, 1);
    rl_hw h = book_v5e();
    rl_step s = rl_step_decode(&m, &h, 8, 1, 8192, rl_precision_default());
    assert_rel(s.step_s * 1e3, 4.98, 0.01);
}

/* The harness can fail: the group above must exit non-zero. */
static void harness_can_fail(void **state)
{
    (void)state;
    assert_test_fails(wrong_expectation);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(llama2_13b_mha_table), cmocka_unit_test(llama2_13b_mha_fit),
        cmocka_unit_test(llama2_13b_gqa_table), cmocka_unit_test(worked_problem_3),
        cmocka_unit_test(abstract_30b),         cmocka_unit_test(moe_b_crit),
        cmocka_unit_test(check_errors),
        cmocka_unit_test(calibrated_curves),
        cmocka_unit_test(harness_can_fail),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
