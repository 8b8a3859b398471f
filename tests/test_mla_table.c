/* test_mla_table.c — the MLA attention kernel tables (engines.h
 * RL_KC_PREFILL_MLA, RL_KC_DECODE_MLA): import of
 * tests/data/silicon/h100_sxm_mla/trtllm/{context,generation}_mla_perf.csv.gz
 * (9 and 8 rows of NVIDIA AIConfigurator's H100 SXM TensorRT-LLM 1.3.0rc20
 * MLA tables, Apache-2.0; see tests/data/silicon/SOURCE.md), lookups at a
 * node and between nodes (log-log by hand), DeepSeek-V3 steps whose MLA
 * attention the tables time (TP heads, a cached prefix, replicated
 * attention), the exact-dimensions rule, and bad tables and profiles. */
#include "testutil.h"

#include <sys/stat.h>
#include <zlib.h>

#include "ops.h"
#include "silicon.h"

#define EXCERPT RL_SRCDIR "/tests/data/silicon/h100_sxm_mla"
#define EXCERPT_DEVICE "NVIDIA H100 80GB HBM3" /* its files' "# device: " line */

/* The excerpt's rows used below (ms): context_mla bfloat16/bfloat16 at
 * (num_heads, batch, isl) and generation_mla at (num_heads, batch, isl + step). */
#define CTX_16_1_1024 0.034160000582536064
#define CTX_16_1_2048 0.08130666613578796
#define GEN_32_2_2048 0.017573333034912746

static void import_mla(rl_silicon *s)
{
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    char err[1024];
    if (rl_silicon_import(EXCERPT, "trtllm", &h, 0, NULL, s, err, sizeof err) != 0)
        fail_msg("import: %s", err);
}

static double mla_time(const rl_silicon *s, rl_kclass c, rl_kvariant v, double batch, double len,
                       double heads, rl_provenance *p)
{
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    rl_serving_engine e = {.tables = s->tables};
    double x[RL_KSHAPE] = {batch, len, heads};
    return rl_engine_time(&e, c, v, x, h.flops[RL_BF16], h.hbm_bw, p);
}

static void test_mla_grid(void **state)
{
    (void)state;
    rl_silicon s;
    import_mla(&s);
    /* 8 bf16 prefill rows: heads {16, 32} x batch {1, 2} x isl {1024, 2048};
     * one fp8-KV row; 8 decode rows, bf16 only */
    assert_int_equal(s.configs[RL_KC_PREFILL_MLA][RL_KV_BF16], 8);
    assert_int_equal(s.configs[RL_KC_PREFILL_MLA][RL_KV_FP8], 1);
    assert_int_equal(s.configs[RL_KC_DECODE_MLA][RL_KV_BF16], 8);
    assert_null(s.tables->t[RL_KC_DECODE_MLA][RL_KV_FP8]);
    assert_int_equal(s.tables->t[RL_KC_PREFILL_MLA][RL_KV_BF16]->n, 8);

    /* a node is its row: mla_context,default,bfloat16,bfloat16,16,1,2048,4,0,0.0813... */
    rl_provenance p;
    assert_rel(mla_time(&s, RL_KC_PREFILL_MLA, RL_KV_BF16, 1, 2048, 16, &p),
               CTX_16_1_2048 * 1e-3, 1e-12);
    assert_int_equal(p, RL_PROV_MEASURED);
    /* the fp8 KV cache is its own variant: ...,bfloat16,fp8,16,1,2048,4,0,0.09473599990208943 */
    assert_rel(mla_time(&s, RL_KC_PREFILL_MLA, RL_KV_FP8, 1, 2048, 16, &p),
               0.09473599990208943e-3, 1e-12);
    /* decode: mla_generation,...,32,2,1,2,2047,0.0175...: context = isl + step */
    assert_rel(mla_time(&s, RL_KC_DECODE_MLA, RL_KV_BF16, 2, 2048, 32, &p),
               GEN_32_2_2048 * 1e-3, 1e-12);
    assert_int_equal(p, RL_PROV_MEASURED);

    /* a 1448-token prompt, between the rows at 1024 and 2048: log-log,
     * weight ln(1448 / 1024) / ln 2 */
    double w = log(1448.0 / 1024.0) / log(2.0);
    double mid = exp((1 - w) * log(CTX_16_1_1024 * 1e-3) + w * log(CTX_16_1_2048 * 1e-3));
    assert_rel(mla_time(&s, RL_KC_PREFILL_MLA, RL_KV_BF16, 1, 1448, 16, &p), mid, 1e-12);
    assert_int_equal(p, RL_PROV_INTERPOLATED);
    rl_silicon_free(&s);
}

/* The excerpt saved as an engine profile on h100-sxm (path: 64 bytes). */
static void save_mla(char *path)
{
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    char err[1024];
    write_temp(path, ".lua", "");
    if (rl_silicon_calibrate(EXCERPT, "trtllm", EXCERPT_DEVICE, &h, 0, NULL, "h100-sxm", NULL, 0, "2026-12-02", NULL, NULL,
                             path, NULL, err, sizeof err) != 0)
        fail_msg("calibrate: %s", err);
}

/* qk + softmax + pv of one layer (seconds) in a step of m on h under
 * configuration c (chips and plan set): `seqs` prefills of `tokens` on
 * `prefix` cached tokens, or (tokens 0) a decode batch of `seqs` at
 * `context`; *prov gets qk's provenance. */
static double mla_ops_plan(const rl_model *m, const rl_hw *h, rl_ops_config c, long long seqs,
                           long long tokens, long long prefix, long long context,
                           rl_provenance *prov)
{
    c.calibrated = 1;
    if (tokens > 0) {
        c.prefill_seqs = seqs;
        c.prefill_tokens = tokens;
        c.prefill_prefix = prefix;
    } else {
        c.decode_batch = seqs;
        c.decode_context = context;
    }
    rl_ops o;
    char err[256];
    if (rl_ops_build(m, h, &c, &o, err, sizeof err) != 0)
        fail_msg("ops: %s", err);
    double t = 0;
    for (int i = 0; i < o.n; i++) {
        const char *n = o.op[i].name;
        if (!strcmp(n, "qk") || !strcmp(n, "softmax") || !strcmp(n, "pv"))
            t += o.op[i].t.time_s;
        if (!strcmp(n, "qk"))
            *prov = o.op[i].prov;
    }
    return t;
}

/* mla_ops_plan on `chips` chips, plan TP = chips. */
static double mla_ops(const rl_model *m, const rl_hw *h, long long chips, long long seqs,
                      long long tokens, long long prefix, long long context, rl_provenance *prov)
{
    rl_ops_config c = rl_ops_config_default();
    c.chips = c.tp = chips;
    return mla_ops_plan(m, h, c, seqs, tokens, prefix, context, prov);
}

static void test_mla_step(void **state)
{
    (void)state;
    char hw[64];
    save_mla(hw);
    rl_hw h = load_hw(hw, NULL, 0);
    rl_model m = load_model("deepseek-v3", NULL, 0);
    rl_provenance p;
    /* the profile keeps 4 significant digits: 1e-3 */
    /* prefill of 2048 tokens at TP 8: 128 / 8 = 16 heads a chip, the row above */
    assert_rel(mla_ops(&m, &h, 8, 1, 2048, 0, 0, &p), CTX_16_1_2048 * 1e-3, 1e-3);
    assert_int_equal(p, RL_PROV_MEASURED);
    /* 1024 new tokens on a 1024-token prefix: the 2048-token row times the
     * query-key pairs, 1024 x 1024 + 1024 x 1025 / 2, over a causal 2048
     * prompt's 2048 x 2049 / 2 (ops.c attention_table) */
    double pairs = (1024.0 * 1024.0 + 1024.0 * 1025.0 / 2.0) / (2048.0 * 2049.0 / 2.0);
    assert_rel(mla_ops(&m, &h, 8, 1, 1024, 1024, 0, &p), CTX_16_1_2048 * 1e-3 * pairs, 1e-3);
    /* decode batch 2 at context 2048 on TP 4: 32 heads a chip */
    assert_rel(mla_ops(&m, &h, 4, 2, 0, 0, 2048, &p), GEN_32_2_2048 * 1e-3, 1e-3);
    assert_int_equal(p, RL_PROV_MEASURED);
    /* replicated attention (EP 2 on 2 chips, --moe-attn replicated): each
     * chip all heads on its ceil(3 / 2) = 2 sequences; with the heads cut to
     * 32 (the excerpt's), the row (32, 2, 2048) again */
    rl_override h32[] = {{"heads", "32"}, {"kv_heads", "32"}};
    rl_model m32 = load_model("deepseek-v3", h32, 2);
    rl_ops_config rep = rl_ops_config_default();
    rep.chips = rep.ep = 2;
    rep.attn_replicated = 1;
    assert_rel(mla_ops_plan(&m32, &h, rep, 3, 0, 0, 2048, &p), GEN_32_2_2048 * 1e-3, 1e-3);
    assert_int_equal(p, RL_PROV_MEASURED);
    /* decode with the latent split by batch over TP 4 (--kv-split batch,
     * tester5 #1): each chip all 32 heads on its ceil(7 / 4) = 2 sequences,
     * the row (32, 2, 2048); split by sequence: all heads on 8192 / 4 = 2048
     * of each of the 2 sequences' tokens, the same row */
    rl_ops_config split = rl_ops_config_default();
    split.chips = split.tp = 4;
    split.kv_split = RL_KV_BATCH;
    assert_rel(mla_ops_plan(&m32, &h, split, 7, 0, 0, 2048, &p), GEN_32_2_2048 * 1e-3, 1e-3);
    assert_int_equal(p, RL_PROV_MEASURED);
    split.kv_split = RL_KV_SEQ;
    assert_rel(mla_ops_plan(&m32, &h, split, 2, 0, 0, 8192, &p), GEN_32_2_2048 * 1e-3, 1e-3);
    assert_int_equal(p, RL_PROV_MEASURED);

    /* MLA of other dimensions (v_head_dim 64) is not what the tables
     * measured: its roofline time */
    rl_override v64 = {"v_head_dim", "64"};
    rl_model other = load_model("deepseek-v3", &v64, 1);
    double t = mla_ops(&other, &h, 4, 2, 0, 0, 2048, &p);
    assert_int_equal(p, RL_PROV_ROOFLINE);
    assert_true(t > 0 && fabs(t / (GEN_32_2_2048 * 1e-3) - 1) > 0.5);
    unlink(hw);
}

static void test_mla_bad_tables(void **state)
{
    (void)state;
    static const char *H =
        "op_name,kernel_source,mla_dtype,kv_cache_dtype,num_heads,batch_size,isl,tp_size,step,latency";
    static const struct {
        const char *header, *body, *want;
    } cases[] = {
        {"op_name,kernel_source,mla_dtype,kv_cache_dtype,batch_size,isl,tp_size,step,latency",
         "c,d,bfloat16,bfloat16,1,16,1,0,0.01\n",
         "context_mla_perf.csv.gz: line 2: missing column 'num_heads'"},
        {NULL, "c,d,fp9,bfloat16,16,1,16,1,0,0.01\n",
         "line 3, column 3 (mla_dtype): unknown dtype 'fp9'"},
        {NULL, "c,d,bfloat16,bfloat16,16,1,16,1,0,0\n",
         "line 3, column 10 (latency): expected a positive finite number, got '0'"},
        {NULL, "c,d,bfloat16,bfloat16,16,1,16,1,0,nan\n", "line 3, column 10 (latency)"},
        {NULL, "c,d,bfloat16,bfloat16,0,1,16,1,0,0.01\n", "line 3, column 5 (num_heads)"},
        {NULL, "c,d,bfloat16,bfloat16,16,1,16,1,0,0.01\nc,d,bfloat16,bfloat16,16,1,16,1,0,0.05\n",
         "line 4, column latency: 0.05 ms, but line 3 measures the same kernel, dtype and shape "
         "at 0.01 ms (more than 2x apart)"},
        {NULL, "c,d,fp8,bfloat16,16,1,16,1,0,0.01\n",
         "no row of an imported dtype variant (mla_dtype bfloat16 with a bfloat16 or fp8 KV "
         "cache)"},
    };
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char dir[64], err[1024] = "";
        table_dir(dir, "context_mla_perf.csv.gz", cases[i].header ? cases[i].header : H,
                  cases[i].body);
        rl_silicon s;
        assert_int_equal(rl_silicon_import(dir, "trtllm", &h, 0, NULL, &s, err, sizeof err), -1);
        if (!strstr(err, cases[i].want))
            fail_msg("case %zu: error '%s' lacks '%s'", i, err, cases[i].want);
        assert_calibrate_refused(dir); /* the CLI: exit 2, no profile */
        assert_int_equal(remove_tree(dir), 0);
    }
}

/* Bad MLA entries in a profile: file, field and reason. */
static void test_mla_bad_profile(void **state)
{
    (void)state;
    assert_tables_refused("prefill_mla", "bfloat16 = { axes = { 'm', 'n', 'k' }, m = { 1 }, "
                          "n = { 1 }, k = { 1 }, values = { 1 } }",
                          "tables.prefill_mla.bfloat16.axes': expected { batch, isl, heads }");
    assert_tables_refused("decode_mla", "bfloat16 = { axes = { 'batch', 'isl', 'heads' }, "
                          "batch = { 1 }, isl = { 1 }, heads = { 1 }, values = { 1 } }",
                          "tables.decode_mla.bfloat16.axes': expected { batch, context, heads }");
    assert_tables_refused("mla", "", "tables.mla': unknown operator class (gemm, "
                          "prefill_attention, decode_attention, moe, prefill_mla, decode_mla)");
}

/* Every measured prompt length is a node (silicon.c subsampled, stop 27):
 * three rows of NVIDIA AIConfigurator's GB200 TensorRT-LLM 1.3.0rc20
 * context_mla table (Apache-2.0; ../shared/data/silicon/gb200/trtllm/
 * context_mla_perf.csv.gz), 8 heads, batch 1: prompt 2048 45.44 us, 3072
 * 54.92 us, 4096 70.58 us.  3072 reads its own row (exact, tolerance
 * 1e-12).  The import before kept prompts at 2^i only and read 3072 in
 * log-log between 2048 and 4096: exp(0.415 ln 45.44 + 0.585 ln 70.58) =
 * 58.9 us, 7% slow. */
static void test_mla_keeps_every_prompt(void **state)
{
    (void)state;
    static const char *H = "op_name,kernel_source,mla_dtype,kv_cache_dtype,num_heads,batch_size,"
                           "isl,tp_size,step,latency";
    char dir[64], err[1024] = "";
    table_dir(dir, "context_mla_perf.csv.gz", H,
              "mla_context,default,bfloat16,bfloat16,8,1,2048,8,0,0.04543999830881754\n"
              "mla_context,default,bfloat16,bfloat16,8,1,3072,8,0,0.05492266515890757\n"
              "mla_context,default,bfloat16,bfloat16,8,1,4096,8,0,0.0705813318490982\n");
    rl_hw h = load_hw("gb200", NULL, 0);
    rl_silicon s;
    if (rl_silicon_import(dir, "trtllm", &h, 0, NULL, &s, err, sizeof err) != 0)
        fail_msg("import: %s", err);
    const rl_ktable *t = s.tables->t[RL_KC_PREFILL_MLA][RL_KV_BF16];
    assert_non_null(t);
    assert_int_equal(t->len[1], 3);
    rl_provenance p;
    double x[RL_KSHAPE] = {1, 3072, 8};
    assert_rel(rl_kt_time(t, x, NULL, NULL, &p), 0.05492266515890757e-3, 1e-12);
    assert_int_equal(p, RL_PROV_MEASURED);
    rl_silicon_free(&s);
    assert_int_equal(remove_tree(dir), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mla_grid),
        cmocka_unit_test(test_mla_step),
        cmocka_unit_test(test_mla_bad_tables),
        cmocka_unit_test(test_mla_bad_profile),
        cmocka_unit_test(test_mla_keeps_every_prompt),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
