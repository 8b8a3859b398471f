/* test_arch.c — parameter counts, FLOPs and KV bytes per token. */
#include "testutil.h"

#include "arch.h"

/* LLaMA-2-13B: 13,015,864,320 parameters, exact.  Source: the sum of the
 * shapes in meta-llama/Llama-2-13b-hf config.json (the Hugging Face model's
 * parameter count): 40 * (4*5120^2 + 3*5120*13824 + 2*5120) + 2*32000*5120
 * + 5120.  Seed 000 section 1 rounds it to "13B (8.5e9 + 4.2e9 + 0.3e9)". */
static void llama2_13b_params_exact(void **state)
{
    (void)state;
    rl_model m = load_model("llama2-13b", NULL, 0);
    rl_params p = rl_arch_params(&m);
    assert_true(p.total == 13015864320.0);
    assert_true(p.active == p.total);
    assert_rel(p.mlp, 8.5e9, 0.01);       /* seed 000 table: FFW ~8.5e9 */
    assert_rel(p.attention, 4.2e9, 0.01); /* attention ~4.2e9 */
}

/* KV bytes per token, bf16: 2 * L * K * H * 2 = 2*40*40*128*2 = 819,200 B
 * (seed 000 section 1 "What about memory?"; 8192 tokens -> 6.7 GB). */
static void llama2_13b_kv(void **state)
{
    (void)state;
    rl_model m = load_model("llama2-13b", NULL, 0);
    assert_true(rl_arch_kv_bytes_per_token(&m, RL_BF16) == 819200.0);
    assert_rel(8192 * rl_arch_kv_bytes_per_token(&m, RL_BF16), 6.7e9, 0.01);
}

/* Worked problem 1 (seed 000 section 5): L*D*(3F + 2H(N+K)) + D*V ~ 18.4e9
 * parameters (tied embeddings counted once); int8 KV 2*64*8*256 = 262,144 B. */
static void worked_problem_1(void **state)
{
    (void)state;
    rl_model m = load_model("scaling-book-18b", NULL, 0);
    rl_params p = rl_arch_params(&m);
    assert_rel(p.total, 18.4e9, 0.01);
    assert_true(p.lm_head == 0.0); /* tied: the output projection is the embedding */
    assert_true(rl_arch_kv_bytes_per_token(&m, RL_INT8) == 262144.0);
}

/* Worked problem 5: E = 16, k = 2: ~212e9 total, ~31.2e9 active (+-1%). */
static void worked_problem_5(void **state)
{
    (void)state;
    rl_model m = load_model("scaling-book-18b-moe", NULL, 0);
    rl_params p = rl_arch_params(&m);
    assert_rel(p.total, 212e9, 0.01);
    assert_rel(p.active, 31.2e9, 0.01);
    /* (4): FLOPs per token ~ 2 * active parameters */
    assert_rel(rl_arch_flops_per_token(&m), 2 * 31.2e9, 0.01);
    /* (3): MoE leaves the KV cache unchanged */
    rl_model dense = load_model("scaling-book-18b", NULL, 0);
    assert_true(rl_arch_kv_bytes_per_token(&m, RL_BF16) == rl_arch_kv_bytes_per_token(&dense, RL_BF16));
}

/* Pitfall (issue 3): a SwiGLU MLP has 3 matrices.  LLaMA-3-8B:
 * 3 * 4096 * 14336 = 176,160,768 per layer (config.json shapes). */
static void swiglu_three_matrices(void **state)
{
    (void)state;
    rl_model m = load_model("llama3-8b", NULL, 0);
    assert_true(rl_arch_params(&m).mlp / 32 == 176160768.0);
    rl_override gelu = {"mlp", "gelu"};
    rl_model g = load_model("llama3-8b", &gelu, 1);
    assert_true(rl_arch_params(&g).mlp / 32 == 2.0 * 4096 * 14336);
}

/* Pitfall: tied embeddings are counted once, yet the LM head still costs
 * 2*V*D FLOPs per token; the embedding lookup costs none. */
static void tied_embeddings(void **state)
{
    (void)state;
    rl_override untie = {"tied_embeddings", "false"};
    rl_model tied = load_model("scaling-book-18b", NULL, 0);
    rl_model untied = load_model("scaling-book-18b", &untie, 1);
    double VD = 32128.0 * 4096.0;
    assert_true(rl_arch_params(&untied).total - rl_arch_params(&tied).total == VD);
    assert_true(rl_arch_flops_per_token(&untied) == rl_arch_flops_per_token(&tied));
    rl_params p = rl_arch_params(&tied);
    assert_true(rl_arch_flops_per_token(&tied) == 2.0 * (p.attention + p.mlp + VD));
}

/* Expected distinct experts E(1 - (1 - k/E)^B): Mixtral (E 8, k 2) reads k = 2
 * at B = 1 and nearly all 8 by B = 16: 8 * (1 - 0.75^16) = 7.920 (by hand). */
static void expected_experts(void **state)
{
    (void)state;
    rl_model m = load_model("mixtral-8x7b", NULL, 0);
    assert_rel(rl_arch_expected_experts(&m, 1), 2.0, 1e-12);
    assert_rel(rl_arch_expected_experts(&m, 16), 7.91982, 1e-5);
    rl_params p = rl_arch_params(&m);
    assert_rel(rl_arch_params_read(&m, 1), p.total - p.routed_experts * 0.75, 1e-12);
    /* Mixtral paper (arXiv:2401.04088): 46.7e9 total, 12.9e9 active */
    assert_rel(p.total, 46.7e9, 0.01);
    assert_rel(p.active, 12.9e9, 0.01);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(llama2_13b_params_exact), cmocka_unit_test(llama2_13b_kv),
        cmocka_unit_test(worked_problem_1),        cmocka_unit_test(worked_problem_5),
        cmocka_unit_test(swiglu_three_matrices),   cmocka_unit_test(tied_embeddings),
        cmocka_unit_test(expected_experts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
