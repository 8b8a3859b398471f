/* test_arch.c — parameter counts, FLOPs and KV bytes per token. */
#include "testutil.h"

#include "arch.h"
#include "memory.h"
#include "ops.h"

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

/* tester23 F2: an fp4 KV cache is NVFP4, 4.5 bits per element (an E4M3
 * scale per 16, as fp4 weights: dtype.h rl_dtype_kv_bytes).  LLaMA-3-8B:
 * 32 layers x 8 KV heads x 128 x 2 (K, V) = 65,536 elements per token;
 * fp8 65,536 B, fp4 65,536 x 0.5625 = 36,864 B (not 32,768), exact. */
static void llama3_8b_fp4_kv(void **state)
{
    (void)state;
    rl_model m = load_model("llama3-8b", NULL, 0);
    assert_true(rl_arch_kv_bytes_per_token(&m, RL_FP8) == 65536.0);
    assert_true(rl_arch_kv_bytes_per_token(&m, RL_FP4) == 36864.0);
    assert_true(rl_arch_kv_bytes_per_sequence(&m, RL_FP4, 1000, RL_KV_IDEAL) == 36864000.0);
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
    /* read at B = 1: the 2 touched experts of 8, and one gathered row of the
     * untied 32000 x 4096 embedding table instead of the table */
    double D = (double)m.d_model, VD = 32000.0 * D;
    assert_rel(rl_arch_params_read(&m, 1), p.total - p.routed_experts * 0.75 - VD + D, 1e-12);
    /* Mixtral paper (arXiv:2401.04088): 46.7e9 total, 12.9e9 active */
    assert_rel(p.total, 46.7e9, 0.01);
    assert_rel(p.active, 12.9e9, 0.01);
}

/* DeepSeek-V3 (deepseek-ai/DeepSeek-V3 config.json; the paper's "671B total,
 * 37B activated", arXiv:2412.19437), by hand:
 *   attention per layer (MLA): q_a 7168*1536 + q_b 1536*128*192 + kv_a
 *     7168*576 + kv_b 512*128*256 + o 128*128*7168 = 187,105,280; x 61 =
 *     11,413,422,080
 *   dense MLP (3 layers): 3 * 3*7168*18432 = 1,189,085,184
 *   experts (58 MoE layers, 256 routed + 1 shared): 58*257*3*7168*2048 =
 *     656,463,101,952; router 58*7168*256 = 106,430,464
 *   embedding + LM head: 2*129280*7168 = 1,853,358,080
 *   norms: 123*7168 + 61*(1536 + 512) = 1,006,592
 *   total 671,026,404,352; active (8 routed + 1 shared) 37,552,282,624.
 * KV per token (bf16): 61 * (512 + 64) * 2 = 70,272 B, versus
 * 2*61*128*192*2 = 5,996,544 B had the heads been cached (85x). */
static void deepseek_v3_mla(void **state)
{
    (void)state;
    rl_model m = load_model("deepseek-v3", NULL, 0);
    rl_params p = rl_arch_params(&m);
    assert_int_equal(m.attention, RL_ATTN_MLA);
    assert_true(p.attention == 11413422080.0);
    assert_true(p.total == 671026404352.0);
    assert_true(p.active == 37552282624.0);
    assert_true(rl_arch_kv_bytes_per_token(&m, RL_BF16) == 70272.0);
    assert_true(rl_arch_kv_bytes_per_sequence(&m, RL_BF16, 1000, RL_KV_IDEAL) == 70272000.0);
}

/* gpt-oss-120b: 36 layers alternating local (W = 128, even layers) and
 * global; 2*8*64*2 = 2048 B per token per layer.  S = 8192:
 * ideal 18*8192*2048 + 18*128*2048 = 306,708,480 B; allocator (full pages
 * everywhere) 36*8192*2048 = 603,979,776 B; at S = 100 < W both are
 * 36*100*2048 = 7,372,800 B.  Total parameters 116.8e9 (OpenAI model card:
 * 116.8B). */
static void gpt_oss_window(void **state)
{
    (void)state;
    rl_model m = load_model("gpt-oss-120b", NULL, 0);
    assert_int_equal(rl_arch_local_layers(&m), 18);
    assert_true(rl_arch_layer_is_local(&m, 0) && !rl_arch_layer_is_local(&m, 1));
    assert_true(rl_arch_kv_bytes_per_sequence(&m, RL_BF16, 8192, RL_KV_IDEAL) == 306708480.0);
    assert_true(rl_arch_kv_bytes_per_sequence(&m, RL_BF16, 8192, RL_KV_ALLOCATOR) == 603979776.0);
    assert_true(rl_arch_kv_bytes_per_sequence(&m, RL_BF16, 100, RL_KV_IDEAL) == 7372800.0);
    assert_true(rl_arch_kv_bytes_per_sequence(&m, RL_BF16, 100, RL_KV_ALLOCATOR) == 7372800.0);
    assert_rel(rl_arch_params(&m).total, 116.8e9, 0.001);
    /* params_active counts the 201088 x 2880 input embedding table (5.71e9);
     * OpenAI's "5.13B active" (model card Table 1) leaves it out, as
     * params_active_nonembedding does, and flops_per_token is twice that
     * less the norm gains (issue 16). */
    rl_params p = rl_arch_params(&m);
    assert_rel(p.active_nonembedding, 5.13e9, 0.001);
    assert_true(p.active - p.active_nonembedding == 201088.0 * 2880);
    /* less the biases and sinks one token holds (they multiply nothing): per
     * layer q/k/v/o 8000, sinks 64, router 128, 4 experts x (5760 + 2880) */
    double small = 36.0 * (8000 + 64 + 128 + 4 * 8640);
    assert_rel(rl_arch_flops_per_token(&m), 2 * (p.active_nonembedding - p.norms - small), 1e-12);
}

/* The small tensors (tester28 F1): each preset's total equals the Hugging
 * Face safetensors total, exact (tester28's hand counts from the configs;
 * OpenAI's model card: 116.83B):
 *  - gemma2-27b 27,227,128,320: 4 RMSNorms of D = 4608 per layer (input,
 *    post_attention, pre_feedforward, post_feedforward), 46 layers, + final;
 *  - qwen3-32b 32,762,123,264: q_norm and k_norm of head_dim 128 per layer;
 *  - gpt-oss-120b 116,829,156,672: per layer 1,114,112 = expert biases
 *    128 x (5760 + 2880), q/k/v/o biases 4096 + 512 + 512 + 2880 = 8000,
 *    64 attention sinks, router bias 128.
 * The old counts were 27,226,704,384, 32,762,106,880 and 116,789,048,640. */
static void small_tensors_exact(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        double params;
    } want[] = {{"gemma2-27b", 27227128320.0},
                {"qwen3-32b", 32762123264.0},
                {"gpt-oss-120b", 116829156672.0}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        rl_model m = load_model(want[i].name, NULL, 0);
        assert_true(rl_arch_params(&m).total == want[i].params);
    }
    rl_model g = load_model("gemma2-27b", NULL, 0);
    assert_true(rl_arch_params(&g).norms == (4.0 * 46 + 1) * 4608);
    rl_model q = load_model("qwen3-32b", NULL, 0);
    assert_true(rl_arch_params(&q).norms == (2.0 * 64 + 1) * 5120 + 64 * 2 * 128.0);
    rl_model o = load_model("gpt-oss-120b", NULL, 0);
    rl_model bare = o;
    bare.attention_bias = bare.mlp_bias = bare.attention_sinks = 0;
    assert_true(rl_arch_params(&o).total - rl_arch_params(&bare).total == 36.0 * 1114112);
    assert_true(rl_arch_params(&o).router - rl_arch_params(&bare).router == 36.0 * 128);
}

/* The op named `name` in o, or NULL. */
static const rl_op *find_op(const rl_ops *o, const char *name)
{
    for (int i = 0; i < o->n; i++)
        if (strcmp(o->op[i].name, name) == 0)
            return &o->op[i];
    return NULL;
}

/* Weight bytes as quantized checkpoints store them (dtype.h rl_dtype_kept,
 * arch.h rl_arch_kept_params; tester23 F3).  LLaMA-3-8B under fp8 or int8,
 * by hand from its config (L 32, D 4096, F 14336, 32 heads, 8 KV heads of
 * 128, V 128,256, untied):
 *   Linear layers at 1 B: 32 x (2 x 4096 x 4096 (q, o) + 2 x 4096 x 1024
 *     (k, v) + 3 x 4096 x 14336 (gate, up, down)) = 6,979,321,856;
 *   kept bf16: embedding + LM head 2 x 128,256 x 4096 = 1,050,673,152, norm
 *     gains 65 x 4096 = 266,240: 1,050,939,392 x 2 B;
 *   9,081,200,640 B (the old rule, all 8,030,261,248 parameters at 1 B:
 *   8,030,261,248 B, 11.6% low; tester23's ~9.08 GB real).
 * bf16 and fp32 weights keep every tensor in their own width.  The step's
 * LM head reads 128,256 x 4096 x 2 B under fp8 (ops, a bf16 matmul).
 * gpt-oss-120b ships MXFP4 experts only (quantized = "experts"): 36 x 128
 * x 3 x 2880 x 2880 = 114,661,785,600 expert weights at 0.53125 B (MXFP4:
 * 4 bits + an E8M0 byte per 32) = 60,914,073,600 B, beside, at 2 B, the
 * experts' 36 x 128 x (5760 + 2880) = 39,813,120 biases (fixY's small
 * tensors; kept bf16 as the checkpoint stores them, arch.h), the attention
 * 955,805,184 (its q/k/v/o biases and sinks included), router 13,275,648
 * (+ bias), embedding + LM head 1,158,266,880 and norms 210,240:
 * 2,167,371,072 x 2 = 4,334,742,144 B; total 65,248,815,744 B (the
 * checkpoint: ~65 GB).  Stop 28 counted the expert biases at 0.53125 B:
 * 65,190,340,224, 39,813,120 x 1.46875 = 58,475,520 B lower.  Under fp4
 * (NVFP4, 0.5625 B) 68,831,996,544 B (stop 28: 68,774,765,184, biases at
 * fp4; the old rule, attention at fp4 too: 67,358,848,500 before the small
 * tensors were counted).
 * Its q_proj is a bf16 matmul (2880 x 4096 x 2 B), its experts are not.
 * Exact (integers and binary fractions). */
static void quantized_checkpoint_bytes(void **state)
{
    (void)state;
    rl_model m = load_model("llama3-8b", NULL, 0);
    rl_hw *h = malloc(sizeof *h);
    assert_non_null(h);
    *h = load_hw("h100-sxm", NULL, 0);
    double linear = 32.0 * (2 * 4096.0 * 4096 + 2 * 4096.0 * 1024 + 3 * 4096.0 * 14336);
    double kept = 2 * 128256.0 * 4096 + 65 * 4096.0;
    assert_true(linear == 6979321856.0 && kept == 1050939392.0);
    assert_true(rl_arch_params(&m).total == linear + kept);
    assert_true(rl_arch_kept_params(&m) == kept);
    assert_true(rl_memory_use(&m, h, 1, 0, 1, RL_FP8, RL_FP8).weight_bytes == 9081200640.0);
    assert_true(rl_memory_use(&m, h, 1, 0, 1, RL_INT8, RL_FP8).weight_bytes == 9081200640.0);
    assert_true(rl_memory_use(&m, h, 1, 0, 1, RL_BF16, RL_FP8).weight_bytes == 2 * 8030261248.0);
    assert_true(rl_memory_use(&m, h, 1, 0, 1, RL_FP32, RL_FP8).weight_bytes == 4 * 8030261248.0);
    rl_ops *o = malloc(sizeof *o);
    assert_non_null(o);
    char err[256];
    rl_ops_config c = rl_ops_mixed_config(1, (rl_precision){RL_FP8, RL_FP8, RL_FP8}, 0, 0, 1, 1024);
    assert_int_equal(rl_ops_build(&m, h, &c, o, err, sizeof err), 0);
    const rl_op *lm = find_op(o, "lm_head");
    assert_non_null(lm);
    assert_true(lm->half && lm->weight_bytes == 128256.0 * 4096 * 2);

    rl_model g = load_model("gpt-oss-120b", NULL, 0);
    assert_int_equal(g.quantized, RL_QUANT_EXPERTS);
    double experts = 36 * 128 * 3 * 2880.0 * 2880 + 39813120.0;
    double rest = 955805184.0 + 13275648 + 1158266880 + 210240;
    assert_true(rl_arch_params(&g).total == experts + rest);
    assert_true(rl_arch_kept_params(&g) == rest + 39813120.0);
    assert_true(rl_arch_vector_params(&g).routed_experts == 39813120.0);
    assert_true(rl_memory_use(&g, h, 1, 0, 1, RL_MXFP4, RL_BF16).weight_bytes == 65248815744.0);
    assert_true(rl_memory_use(&g, h, 1, 0, 1, RL_FP4, RL_BF16).weight_bytes == 68831996544.0);
    c = rl_ops_mixed_config(1, (rl_precision){RL_MXFP4, RL_BF16, RL_BF16}, 0, 0, 1, 1024);
    assert_int_equal(rl_ops_build(&g, h, &c, o, err, sizeof err), 0);
    const rl_op *q = find_op(o, "q_proj"), *e = find_op(o, "expert_up");
    assert_non_null(q);
    assert_non_null(e);
    assert_true(q->half && q->weight_bytes == 2880.0 * 4096 * 2);
    assert_false(e->half);
    free(o);
    free(h);
}

/* Gemma 3's 5:1 local:global (sliding_window_pattern 6): of 62 layers the
 * global ones are 5, 11, ..., 59 (10), so 52 are local.  Mistral v0.1 has
 * every layer local (no pattern). */
static void window_patterns(void **state)
{
    (void)state;
    rl_override g3[] = {{"layers", "62"}, {"sliding_window_pattern", "6"}};
    rl_model m = load_model("gemma2-27b", g3, 2);
    assert_int_equal(rl_arch_local_layers(&m), 52);
    assert_false(rl_arch_layer_is_local(&m, 5));
    rl_model mi = load_model("mistral-7b", NULL, 0);
    assert_int_equal(rl_arch_local_layers(&mi), 32);
}

/* Explicit head_dim: Qwen3-32B attention is 2*5120*128*(64 + 8) =
 * 94,371,840 per layer (q_proj 5120 x 8192, not 5120 x 5120); total
 * 32.76e9 (Qwen3 technical report: 32.8B). */
static void qwen3_attention_params(void **state)
{
    (void)state;
    rl_model m = load_model("qwen3-32b", NULL, 0);
    assert_true(rl_arch_attention_params_layer(&m) == 94371840.0);
    assert_rel(rl_arch_params(&m).total, 32.8e9, 0.002);
}

/* The Llama 3.1 / 3.3 presets (issue 16): 128k context (max_position_embeddings
 * 131072 in their config.json) and the parameter counts Hugging Face shows
 * for the checkpoints (safetensors totals, "8.03B", "70.6B", "406B" params on
 * the meta-llama/Llama-3.1-8B, -70B, -405B pages; Llama-3.3-70B-Instruct
 * "70.6B"); those figures have 3 significant figures, so 0.1%. */
static void llama31_presets(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        double params;
    } want[] = {{"llama3.1-8b", 8.03e9}, {"llama3.1-70b", 70.6e9}, {"llama3.1-405b", 406e9},
                {"llama3.3-70b", 70.6e9}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        rl_model m = load_model(want[i].name, NULL, 0);
        assert_int_equal(m.max_context, 131072);
        assert_rel(rl_arch_params(&m).total, want[i].params, 0.001);
    }
}

/* Spec rules for the new fields: each error names the field. */
static void attention_field_errors(void **state)
{
    (void)state;
    static const struct {
        const char *extra, *field;
    } cases[] = {
        {"kv_lora_rank = 512", "'kv_lora_rank': only for attention"},
        {"attention = 'mha'", "'attention'"},
        {"attention = 'mla', qk_rope_head_dim = 64, qk_nope_head_dim = 128, v_head_dim = 128",
         "'kv_lora_rank': missing"},
        {"sliding_window_pattern = 2", "'sliding_window_pattern': set, but"},
        {"sliding_window = 128, sliding_window_pattern = 1", "'sliding_window_pattern': 1"},
        {"first_sliding_layer = 1", "'first_sliding_layer': set, but sliding_window"},
        {"sliding_window = 8, sliding_window_pattern = 2, first_sliding_layer = 1",
         "'first_sliding_layer': not with sliding_window_pattern"},
        {"sliding_window = 8, first_sliding_layer = 2", "'first_sliding_layer': 2 leaves no local"},
        {"sliding_window = 8, first_sliding_layer = -1", "'first_sliding_layer'"},
        {"attention = 'sparse'", "'attention': unknown value"},
        {"quantized = 'experts'", "'quantized': \"experts\" needs routed experts"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512], path[64], err[1024];
        snprintf(text, sizeof text,
                 "return { name = 'x', layers = 2, d_model = 64, d_ff = 128, heads = 4, "
                 "kv_heads = 2, vocab = 100, %s }",
                 cases[i].extra);
        write_temp(path, ".lua", text);
        rl_model m;
        int rc = rl_model_load(path, NULL, 0, &m, err, sizeof err);
        unlink(path);
        assert_int_equal(rc, -1);
        if (!strstr(err, cases[i].field))
            fail_msg("case %zu: '%s' lacks '%s'", i, err, cases[i].field);
    }
}

/* review30 L5: first_sliding_layer could not be cleared with --set (0 was
 * refused, and the advice "leave sliding_window unset" could not be
 * followed: 0 was refused there too).  0 is "unset" for both (spec.h):
 * a 28-layer model with W 4096 and first_sliding_layer 20 (an imported
 * Qwen2.5-7B with use_sliding_window: 8 local layers) gets every layer
 * local with first_sliding_layer=0 (28) and none with sliding_window=0 as
 * well (0); first_sliding_layer=28 is refused with advice that now works,
 * and sliding_window=0 alone says to clear first_sliding_layer too. */
static void sliding_fields_clear_with_set(void **state)
{
    (void)state;
    char path[64], err[1024];
    write_temp(path, ".lua",
               "return { name = 'q', layers = 28, d_model = 64, d_ff = 128, heads = 4, "
               "kv_heads = 2, vocab = 100, sliding_window = 4096, first_sliding_layer = 20 }");
    rl_model m;
    assert_int_equal(rl_model_load(path, NULL, 0, &m, err, sizeof err), 0);
    assert_int_equal(rl_arch_local_layers(&m), 8);
    rl_override all_local[1] = {{"first_sliding_layer", "0"}};
    assert_int_equal(rl_model_load(path, all_local, 1, &m, err, sizeof err), 0);
    assert_int_equal(rl_arch_local_layers(&m), 28);
    rl_override none[2] = {{"sliding_window", "0"}, {"first_sliding_layer", "0"}};
    assert_int_equal(rl_model_load(path, none, 2, &m, err, sizeof err), 0);
    assert_int_equal(rl_arch_local_layers(&m), 0);
    rl_override all_global[1] = {{"first_sliding_layer", "28"}};
    assert_int_equal(rl_model_load(path, all_global, 1, &m, err, sizeof err), -1);
    assert_non_null(strstr(err, "--set model.sliding_window=0 --set model.first_sliding_layer=0"));
    assert_int_equal(rl_model_load(path, none, 1, &m, err, sizeof err), -1);
    assert_non_null(strstr(err, "clear it too: --set model.first_sliding_layer=0"));
    unlink(path);
}

/* Bit for bit, as memcmp sees a double (a count differing in its last bit fails). */
#define assert_same(a, b)                                                                          \
    do {                                                                                           \
        double a_ = (a), b_ = (b);                                                                 \
        if (memcmp(&a_, &b_, sizeof a_) != 0)                                                      \
            fail_msg("%s: %s = %a, %s = %a", name, #a, a_, #b, b_);                               \
    } while (0)

/* issue 12 (h33speed): rl_arch_counts_of counts once what a calibrated step
 * asked ~15 times an evaluation.  Each field and reader must return exactly
 * what its function does (expected: the function's own value, tolerance 0)
 * on every preset -- dense, GQA, MoE with dense layers and shared experts,
 * MLA, biases and sinks, windows, experts-only quantization -- and on an
 * abstract model; rl_memory_use_counts equals rl_memory_use.  A field taken
 * from the other count (matrices for biases) fails on gpt-oss-120b, whose
 * biases and sinks are not 0. */
static void counts_equal_functions(void **state)
{
    (void)state;
    const char *names[] = {"llama2-13b",  "llama3-70b",  "mixtral-8x7b",
                           "deepseek-v3", "gpt-oss-120b", "gemma2-27b",
                           "qwen3-32b",   "bloom-176b",  "scaling-book-18b-moe", "abstract"};
    const double tokens[] = {1, 7, 64, 300, 4096};
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        const char *name = names[i];
        rl_model m;
        if (strcmp(name, "abstract") == 0) {
            char path[64], err[1024];
            write_temp(path, ".lua",
                       "return { name = 'napkin', params = 30e9, params_active = 3e9, "
                       "kv_bytes_per_token = 1e5 }");
            int rc = rl_model_load(path, NULL, 0, &m, err, sizeof err);
            unlink(path);
            if (rc != 0)
                fail_msg("%s", err);
            assert_true(m.abstract);
        } else {
            m = load_model(name, NULL, 0);
        }
        rl_arch_counts c = rl_arch_counts_of(&m);
        rl_params p = rl_arch_params(&m), v = rl_arch_vector_params(&m);
        assert_memory_equal(&c.params, &p, sizeof p);
        assert_memory_equal(&c.vectors, &v, sizeof v);
        assert_same(c.kept_params, rl_arch_kept_params(&m));
        assert_same(c.flops_per_token, rl_arch_flops_per_token(&m));
        assert_same(c.kept_flops_per_token, rl_arch_kept_flops_per_token(&m));
        for (size_t k = 0; k < sizeof tokens / sizeof *tokens; k++) {
            double t = tokens[k];
            assert_same(rl_arch_counts_params_read(&m, &c, t), rl_arch_params_read(&m, t));
            assert_same(rl_arch_counts_kept_read(&m, &c, t), rl_arch_kept_read(&m, t));
            assert_same(rl_arch_counts_vocab_read(&m, &c, t), rl_arch_vocab_read(&m, t));
            rl_memory a = rl_memory_use(&m, &h, 8, (long long)t, 4096, RL_FP8, RL_BF16);
            rl_memory b = rl_memory_use_counts(&m, &c, &h, 8, (long long)t, 4096, RL_FP8, RL_BF16, 0);
            assert_same(a.weight_bytes, b.weight_bytes);
            assert_same(a.capacity_bytes, b.capacity_bytes);
            assert_same(a.total_bytes, b.total_bytes);
        }
    }
    rl_model g = load_model("gpt-oss-120b", NULL, 0);
    assert_true(rl_arch_vector_params(&g).total > 0); /* the biases the check above needs */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(llama2_13b_params_exact), cmocka_unit_test(llama2_13b_kv),
        cmocka_unit_test(llama3_8b_fp4_kv),
        cmocka_unit_test(worked_problem_1),        cmocka_unit_test(worked_problem_5),
        cmocka_unit_test(swiglu_three_matrices),   cmocka_unit_test(tied_embeddings),
        cmocka_unit_test(expected_experts),        cmocka_unit_test(deepseek_v3_mla),
        cmocka_unit_test(gpt_oss_window),          cmocka_unit_test(small_tensors_exact),
        cmocka_unit_test(window_patterns),
        cmocka_unit_test(sliding_fields_clear_with_set),         cmocka_unit_test(quantized_checkpoint_bytes),
        cmocka_unit_test(qwen3_attention_params), cmocka_unit_test(llama31_presets),  cmocka_unit_test(attention_field_errors),
        cmocka_unit_test(counts_equal_functions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
