/* test_memory.c — HBM footprint and the largest batch (seed 000 section 5,
 * worked problem 2). */
#include "testutil.h"

#include "memory.h"
#include "serve.h"
#include "shard.h"

/* Problem 2: 16 v5e x 16e9 B = 256 GB, int8 weights (18.4 GB) and KV
 * (262,144 B/token), 128,000-token context: (256 - 18.4) / 33.5 -> 7; with
 * K = 1 the KV shrinks 8x -> 56.  The book's 16e9 B per chip (the preset
 * holds 16 GiB: preset_capacities). */
static void worked_problem_2(void **state)
{
    (void)state;
    rl_override gb = {"hbm_bytes", "16e9"};
    rl_hw h = load_hw("tpu-v5e", &gb, 1);
    assert_true(h.hbm_bytes == 16e9);
    rl_model m = load_model("scaling-book-18b", NULL, 0);
    assert_int_equal(rl_memory_max_batch(&m, &h, 16, 128000, RL_INT8, RL_INT8), 7);
    rl_override k1 = {"kv_heads", "1"};
    rl_model mqa = load_model("scaling-book-18b", &k1, 1);
    assert_int_equal(rl_memory_max_batch(&mqa, &h, 16, 128000, RL_INT8, RL_INT8), 56);
}

/* The presets' HBM in bytes, the vendor's "GB" read as GiB (docs/model.md
 * "HBM capacity"; tester22 F2): exact.  Sources: NVIDIA AIConfigurator
 * systems/<gpu>/system.yaml mem_capacity (h100_sxm and a100_sxm
 * 85899345920 "80GiB", h200_sxm 151397597184 "141GiB", b200_sxm
 * 193273528320 "180GiB", gb200 198674743296 "189471MiB reported by
 * nvidia-smi"); Google's v4 (32 GiB) and v5p (95 GiB) pages; v5e 16 GiB,
 * v6e 32 GiB by the same reading.  Fails on the decimal 80e9 ... 32e9. */
static void preset_capacities(void **state)
{
    (void)state;
    static const struct {
        const char *hw;
        double bytes;
    } want[] = {{"h100-sxm", 80.0 * 1073741824}, {"h100-pcie", 80.0 * 1073741824},
                {"a100-sxm-80g", 80.0 * 1073741824}, {"h200", 141.0 * 1073741824},
                {"b200", 180.0 * 1073741824}, {"gb200", 189471.0 * 1048576},
                {"tpu-v4", 32.0 * 1073741824}, {"tpu-v5e", 16.0 * 1073741824},
                {"tpu-v5p", 95.0 * 1073741824}, {"tpu-v6e", 32.0 * 1073741824},
                {"h100-sxm-splitwise", 80.0 * 1073741824},
                {"a100-sxm-80g-splitwise", 80.0 * 1073741824}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        rl_hw h = load_hw(want[i].hw, NULL, 0);
        if (h.hbm_bytes != want[i].bytes)
            fail_msg("%s: hbm_bytes %.0f, expected %.0f", want[i].hw, h.hbm_bytes, want[i].bytes);
    }
}

/* Weights that do not fit leave no room for any sequence: llama3-405b in
 * bf16 (810 GB) on one H100 (80 GiB). */
static void weights_do_not_fit(void **state)
{
    (void)state;
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    rl_model m = load_model("llama3-405b", NULL, 0);
    assert_int_equal(rl_memory_max_batch(&m, &h, 1, 1024, RL_BF16, RL_BF16), 0);
    rl_memory u = rl_memory_use(&m, &h, 1, 1, 1024, RL_BF16, RL_BF16);
    assert_false(u.fits);
    /* the HBM less h100-sxm's default engine's (trtllm) activation workspace
     * at one chip, 8192 x (16384 + 144 x 128 + 2 x 53248) x 2 = 2,315,255,808
     * (rl_memory_workspace): 83,584,090,112, exact */
    assert_true(u.capacity_bytes == 85899345920.0 - 2315255808.0);
}

/* issue 12 #4: TensorRT-LLM's activation workspace (memory.h
 * rl_memory_workspace, engines.c ENGINE_MEMORY): T = 8192 tokens
 * (max_num_tokens, trtllm-serve's default) x one layer's working set,
 * (D + ((N + 2K) H + 2 F_active + R) / group) elements of 2 bytes, exact in
 * doubles (tolerance 0).  deepseek-v3 at TP8 (D 7168, N = K = 128, H = 192
 * = qk_nope 128 + qk_rope 64, F_active = (8 + 1) x 2048, R = top_k 8 x
 * 7168 routed copies): 8192 x (7168 + (73,728 + 36,864 + 57,344) / 8) x 2
 * = 461,373,440 (343,932,928 before fixJL counted the routed copies, issue
 * 12 item 4); llama3-8b (dense, R = 0) at TP1 (4096, 32 +
 * 16 heads of 128, F 14336): 8192 x 38,912 x 2 = 637,534,208.  vLLM's
 * rule: vllm_workspace_follows_model. */
static void trtllm_workspace_closed_form(void **state)
{
    (void)state;
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    char err[256];
    assert_int_equal(rl_engines_select(&h.engines, "trtllm", h.origin, err, sizeof err), 0);
    const rl_engine_memory *g = &rl_engines_selected(&h.engines)->mem;
    assert_true(g->present && g->workspace_tokens == 8192);
    rl_model ds = load_model("deepseek-v3", NULL, 0);
    rl_model l8 = load_model("llama3-8b", NULL, 0);
    assert_true(rl_memory_workspace(&ds, g, 8, 0) == 461373440.0);
    assert_true(rl_memory_workspace(&l8, g, 1, 0) == 637534208.0);
    assert_true(rl_memory_workspace(NULL, g, 8, 0) == 0); /* no model: the rule's 0 */
}

/* Issue 12 #4 (fixKA): vLLM's activation workspace follows the model
 * (engines.c rl_engine_memory_default, memory.h rl_memory_workspace):
 * scale x T x the one-layer working set x 2 B, T = vllm serve's default
 * max_num_batched_tokens (8192 on a GPU of 70 GiB or more but A100,
 * vllm/engine/arg_utils.py get_batch_defaults at commit 99d7eb5d; 2048
 * else), the scale anchored so Llama-3-8B at 8192 tokens gets vLLM's
 * measured 1.26 GiB (PR 10511: V0's default there, max(max_model_len 8192,
 * 2048)).  Hand-computed, tolerance 1e-15 relative (doubles): llama3-8b on
 * one H100 1.26 GiB = 1,352,914,698.24 B; deepseek-v3 at TP8 that x
 * 461,373,440 / 637,534,208 (its working set over Llama-3-8B's,
 * trtllm_workspace_closed_form) = 979,083,005.3 B; llama3-70b at TP4
 * (8192 + (80 x 128 + 2 x 28,672) / 4 = 25,088 elements) that x 25,088 /
 * 38,912 = 872,273,950.2 B; on an A100 (2048 tokens) llama3-8b a quarter,
 * 338,228,674.56 B; a 48 GB GPU also 2048.  Before, 1.26 GiB for every
 * model and chip. */
static void vllm_workspace_follows_model(void **state)
{
    (void)state;
    rl_engine_memory g, a100, small;
    assert_int_equal(rl_engine_memory_default("vllm", NULL, 0, &g), 0);
    assert_int_equal(rl_engine_memory_default("vllm", "a100-sxm-80g", 85899345920.0, &a100), 0);
    assert_int_equal(rl_engine_memory_default("vllm", "l40s", 48e9, &small), 0);
    assert_true(g.workspace_tokens == 8192 && g.workspace_bytes == 0);
    assert_true(a100.workspace_tokens == 2048 && small.workspace_tokens == 2048);
    rl_engine_memory h100;
    assert_int_equal(rl_engine_memory_default("vllm", "h100-sxm", 85899345920.0, &h100), 0);
    assert_true(h100.workspace_tokens == 8192);
    rl_model l8 = load_model("llama3-8b", NULL, 0);
    rl_model ds = load_model("deepseek-v3", NULL, 0);
    rl_model l70 = load_model("llama3-70b", NULL, 0);
    assert_rel(rl_memory_workspace(&l8, &g, 1, 0), 1352914698.24, 1e-15);
    assert_rel(rl_memory_workspace(&ds, &g, 8, 0), 1352914698.24 * 461373440 / 637534208, 1e-15);
    assert_rel(rl_memory_workspace(&ds, &g, 8, 0), 979083005.3, 1e-10);
    assert_rel(rl_memory_workspace(&l70, &g, 4, 0), 1352914698.24 * 25088 / 38912, 1e-15);
    assert_rel(rl_memory_workspace(&l8, &a100, 1, 0), 338228674.56, 1e-15);
    /* a budget above vLLM's default raises it as trtllm's (memory.h) */
    assert_rel(rl_memory_workspace(&l8, &g, 1, 16384), 2 * 1352914698.24, 1e-15);
}

/* The token budget is the memory query's, not the profile's (fixKA; before,
 * rl_memory_token_budget wrote it into the rl_hw, which size then copied,
 * 98 KB, for every verification run): rl_serve_config_hw sizes trtllm's
 * workspace at max(8192, c->max_tokens).  llama3-8b on one h100-sxm
 * (trtllm, rule "free", fraction 0.9): 65536 tokens hold (65536 - 8192) x
 * 38,912 elements x 2 B = 4,462,739,456 B more workspace than 8192
 * (trtllm_workspace_closed_form's working set), of which 0.9 comes out of
 * the KV pool: / 131,072 B a token = 30,643.2 tokens fewer (hand-computed;
 * tolerance 1e-9 tokens, the pools are ~4.5e5 tokens in doubles).  2048
 * equals 8192 exactly (the rule's default is the floor), and the rl_hw is
 * byte-for-byte what it was.  Fails before: rl_serve_config_hw ignored
 * max_tokens, both pools equal. */
static void token_budget_is_the_querys(void **state)
{
    (void)state;
    static rl_hw h, before;
    h = load_hw("h100-sxm", NULL, 0);
    rl_model m = load_model("llama3-8b", NULL, 0);
    memcpy(&before, &h, sizeof h);
    double kv[3];
    static const long long tok[3] = {2048, 8192, 65536};
    for (int i = 0; i < 3; i++) {
        rl_serve_config c = rl_serve_config_default();
        c.max_tokens = tok[i];
        rl_serve_config_hw(&c, &m, &h, 1, rl_precision_default(), 0.1);
        kv[i] = c.kv_capacity_tokens;
    }
    assert_true(kv[0] > 4e5 && kv[0] == kv[1]);
    if (fabs(kv[1] - kv[2] - 4462739456.0 * 0.9 / 131072) > 1e-9)
        fail_msg("%.6f tokens at 8192, %.6f at 65536: %.6f fewer, want 30643.2", kv[1], kv[2],
                 kv[1] - kv[2]);
    assert_true(memcmp(&before, &h, sizeof h) == 0);
    assert_true(rl_memory_budget_moves(&h, 65536) && !rl_memory_budget_moves(&h, 8192));
}

/* fixWD finding 1b: a decode step of B sequences batches B tokens, so
 * above trtllm's 8192-token budget its workspace is the one at B tokens
 * (memory.h rl_memory_use_counts).  llama3-8b bf16 on one h100-sxm at
 * context 1 (131,072 KV bytes a sequence, 77,824 workspace bytes a token
 * = 38,912 elements x 2 B, rule "free" 0.9): B fits while B x (131,072 +
 * 0.9 x 77,824) <= 0.9 x the free bytes after weights and context, by hand
 * ~312,550; the rule's own integer 312,534 (fits, 312,535 does not:
 * exact, the boundary checked both sides).  400,000 (31.1 GB of
 * workspace) does not fit.  Failed before: max_batch 475,167 (the 8192
 * tokens' workspace) and 400,000 fit. */
static void step_workspace_at_its_tokens(void **state)
{
    (void)state;
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    rl_model m = load_model("llama3-8b", NULL, 0);
    rl_arch_counts c = rl_arch_counts_of(&m);
    long long b = rl_memory_max_batch(&m, &h, 1, 1, RL_BF16, RL_BF16);
    if (b != 312534)
        fail_msg("max_batch %lld, want 312534", b);
    static const long long B[3] = {312534, 312535, 400000};
    for (int i = 0; i < 3; i++) {
        rl_memory u = rl_memory_use_counts(&m, &c, &h, 1, B[i], 1, RL_BF16, RL_BF16, (double)B[i]);
        if (u.fits != (i == 0))
            fail_msg("batch %lld: fits %d", B[i], u.fits);
    }
    assert_rel(rl_memory_use_counts(&m, &c, &h, 1, 1, 1, RL_BF16, RL_BF16, 400000).workspace_bytes,
               400000.0 * 77824, 1e-12);
}

/* issue 12 #4 (a README-only tester): `step --model deepseek-v3 --hw
 * h100-sxm --chips 8 --weights fp8 --compute fp8 --context 4096` (trtllm,
 * TP8) read fits true, 85.12 of 85.45 GB a GPU, max batch 1.  Per chip:
 * weights w (about 85.12e9 B: TP keeps the embeddings, norms and router
 * whole on every chip), HBM 85,899,345,920, collective buffers 411,041,792
 * and now the workspace 461,373,440 (routed copies counted, fixJL; it was
 * 343,932,928 and free about 0.02 GB): free = HBM - w - both is below 0
 * (about -0.1 GB), so the rule leaves HBM - both (memory.c), under the
 * weights alone, and no sequence's KV (70,272 B a token x 4096, each KV head
 * replicated on the 8 chips: 287,834,112 B) fits: the row reads fits false
 * and max batch 0 (tolerance 1e-12 on the room), and
 * simulate's and size's pool (rl_serve_kv_capacity over the same
 * rl_memory_usable_group) holds fewer tokens than one 4096-token sequence.
 * Fails before the workspace: fits true, max batch 1. */
static void deepseek_v3_fp8_h100_does_not_fit(void **state)
{
    (void)state;
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    rl_model m = load_model("deepseek-v3", NULL, 0);
    rl_precision p = {RL_FP8, RL_BF16, RL_FP8};
    rl_shard_plan pl = rl_shard_plan_default();
    pl.tp = 8;
    rl_shard_result r;
    char err[512];
    if (rl_shard_eval(&m, &h, &pl, RL_PHASE_GENERATE, 8, 1, 4096, p, &r, err, sizeof err) != 0)
        fail_msg("%s", err);
    double w = r.weight_bytes, free = h.hbm_bytes - w - 411041792.0 - 461373440.0;
    assert_true(w > 85.0e9 && w < 85.2e9);
    assert_rel(r.kv_bytes, 4096 * 70272.0, 1e-15);
    assert_true(free < 0);
    assert_rel(rl_shard_chip_room(&m, &h, &r), h.hbm_bytes - 411041792.0 - 461373440.0, 1e-12);
    assert_false(r.fits);
    assert_int_equal(rl_shard_max_batch(&m, &h, &r), 0);
    double tokens = rl_serve_kv_capacity(&m, &h, 8, 1, 1, p, 0.1, RL_ATTN_LAYOUT_TP, 0, 0);
    assert_true(tokens < 4096);
}

/* An engine's memory rule (engines.h, memory.h) on a made-up 80e9-byte chip
 * with overheads 1e9 (context), 2e9 (collective buffers) and 3e9
 * (workspace); LLaMA-3-8B bf16 weights are 16,060,522,496 bytes and its KV
 * 131,072 bytes per token (128 KB: 32 layers x 8 KV heads x 128 x 2 x 2). */
static rl_hw rule_hw(const char *rule, const char *hbm)
{
    char text[512], path[64];
    snprintf(text, sizeof text,
             "return { name = 'm', flops = { bf16 = 1e15 }, hbm_bytes = %s, hbm_bw = 1e12, "
             "engines = { default = 'e', e = { memory = { fraction = 0.9, fraction_of = '%s', "
             "context_bytes = 1e9, comm_bytes = 2e9, workspace_bytes = 3e9, source = 't' } } } }",
             hbm, rule);
    write_temp(path, ".lua", text);
    rl_hw h = load_hw(path, NULL, 0);
    unlink(path);
    return h;
}

static void engine_memory_rules(void **state)
{
    (void)state;
    rl_model m = load_model("llama3-8b", NULL, 0);
    double w = 16060522496.0, kvtok = 131072.0;
    /* capacity (vLLM): 0.9 x 80e9 - 1e9 - 3e9 = 68e9 for weights + KV */
    rl_hw h = rule_hw("capacity", "80e9");
    rl_memory r = rl_memory_use(&m, &h, 1, 0, 2048, RL_BF16, RL_BF16);
    assert_rel(r.weight_bytes, w, 0);
    assert_rel(r.capacity_bytes, 68e9, 1e-12);
    assert_rel(r.hbm_bytes, 80e9, 0);
    assert_true(r.comm_bytes == 0); /* one chip: no collective buffers */
    /* max batch at 2048 tokens: floor((68e9 - w) / (2048 x 131072)) = 193 */
    assert_int_equal(rl_memory_max_batch(&m, &h, 1, 2048, RL_BF16, RL_BF16),
                     (long long)floor((68e9 - w) / (2048 * kvtok)));
    assert_int_equal(rl_memory_max_batch(&m, &h, 1, 2048, RL_BF16, RL_BF16), 193);
    /* two chips: each 72e9 - 1e9 - 2e9 - 3e9 = 66e9 */
    r = rl_memory_use(&m, &h, 2, 0, 2048, RL_BF16, RL_BF16);
    assert_rel(r.capacity_bytes, 132e9, 1e-12);
    assert_rel(r.comm_bytes, 4e9, 0);
    /* free (TensorRT-LLM): w + 0.9 x (80e9 - w - 4e9) = 70,006,052,249.6 */
    h = rule_hw("free", "80e9");
    r = rl_memory_use(&m, &h, 1, 0, 2048, RL_BF16, RL_BF16);
    assert_rel(r.capacity_bytes, w + 0.9 * (80e9 - w - 4e9), 1e-12);
    assert_rel(r.capacity_bytes, 70006052249.6, 1e-12);
    /* weights beyond the free memory: what the weights may use, 10e9 - 4e9 */
    h = rule_hw("free", "10e9");
    r = rl_memory_use(&m, &h, 1, 0, 2048, RL_BF16, RL_BF16);
    assert_rel(r.capacity_bytes, 6e9, 1e-12);
    assert_false(r.fits);
    /* ideal (no engine): the vendor capacity, seed 000's rule */
    h = rule_hw("capacity", "80e9");
    char err[256];
    assert_int_equal(rl_engines_select(&h.engines, "ideal", "t", err, sizeof err), 0);
    r = rl_memory_use(&m, &h, 1, 0, 2048, RL_BF16, RL_BF16);
    assert_rel(r.capacity_bytes, 80e9, 0);
    assert_int_equal(r.engine_memory, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(worked_problem_2),
        cmocka_unit_test(preset_capacities),
        cmocka_unit_test(weights_do_not_fit),
        cmocka_unit_test(engine_memory_rules),
        cmocka_unit_test(trtllm_workspace_closed_form),
        cmocka_unit_test(token_budget_is_the_querys),
        cmocka_unit_test(step_workspace_at_its_tokens),
        cmocka_unit_test(vllm_workspace_follows_model),
        cmocka_unit_test(deepseek_v3_fp8_h100_does_not_fit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
