/* test_scenarios.c — every scenario in scenarios/ runs through the CLI
 * binary (RL_BIN run --out DIR), and the numbers each prints as
 * "check NAME VALUE" are asserted against the source it reproduces. */
#include "testutil.h"

#include <dirent.h>

#define MAX_CHECKS 64

typedef struct {
    char name[64];
    double value;
} check;

typedef struct {
    check c[MAX_CHECKS];
    int n;
} checks;

static char g_outdir[64];

/* Run one scenario; fail unless it exits 0.  Collects its check lines. */
static void run_scenario(const char *file, checks *out)
{
    static char text[1 << 16];
    char args[1024];
    snprintf(args, sizeof args, "run --out '%s' '%s/scenarios/%s'", g_outdir, RL_SRCDIR, file);
    int st = run_cli(args, text, sizeof text);
    if (st != 0)
        fail_msg("scenario %s failed (exit %d):\n%s", file, st, text);
    out->n = 0;
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        check c;
        if (sscanf(line, "check %63s %lf", c.name, &c.value) == 2 && out->n < MAX_CHECKS)
            out->c[out->n++] = c;
    }
}

static double get(const checks *cs, const char *name)
{
    for (int i = 0; i < cs->n; i++)
        if (strcmp(cs->c[i].name, name) == 0)
            return cs->c[i].value;
    fail_msg("the scenario printed no 'check %s' line", name);
    return 0;
}

/* Seed 000 section 1, "Modeling throughput and latency for LLaMA 2-13B":
 * step ms at B = 1, 8, 16, 32, 64, 240, S = 8192, 8 v5e at 8.2e11 B/s.
 * MHA 4.98 12.13 20.30 36.65 69.33 249.09; GQA (K = 8, parameters kept)
 * 4.17 5.60 7.23 10.50 17.04 52.99.  Tolerance 0.5% (the book rounds the
 * parameter count to 13e9 and KV to 819 kB) after one correction: the book
 * reads every parameter, we read the B gathered rows of the 32000 x 5120
 * bf16 embedding table instead of the table (tester12 #2, arch.h
 * rl_arch_params_read), (32000 - B) * 5120 * 2 bytes / (8 * 8.2e11 B/s)
 * less: 0.0500 ms at B = 1 (1% of the book's 4.98), 0.0486 ms at B = 240.
 * The GQA model is abstract (a parameter count, no embedding): no
 * correction. */
static void test_llama2_13b_tables(void **state)
{
    (void)state;
    checks cs;
    run_scenario("scaling_book_llama2_13b.lua", &cs);
    static const int B[] = {1, 8, 16, 32, 64, 240};
    static const double mha[] = {4.98, 12.13, 20.30, 36.65, 69.33, 249.09};
    static const double gqa[] = {4.17, 5.60, 7.23, 10.50, 17.04, 52.99};
    for (int i = 0; i < 6; i++) {
        char n[64];
        double gather = (32000.0 - B[i]) * 5120 * 2 / (8 * 8.2e11) * 1e3; /* ms */
        snprintf(n, sizeof n, "mha_step_ms_b%d", B[i]);
        assert_rel(get(&cs, n), mha[i] - gather, 0.005);
        snprintf(n, sizeof n, "gqa_step_ms_b%d", B[i]);
        assert_rel(get(&cs, n), gqa[i], 0.005);
    }
}

/* Seed 000 section 1 "Linear operations": B_crit on v5e 240 (bf16), 120
 * (int8 weights, bf16 compute), 240 (int8 x int8); 0.5%.  The 30B case
 * study: B = 4 -> "~2.5 ms" (3%: the book rounds), B = 256 -> "~21 ms" (1%). */
static void test_int8_weights(void **state)
{
    (void)state;
    checks cs;
    run_scenario("int8_weights.lua", &cs);
    assert_rel(get(&cs, "b_crit_bf16"), 240, 0.005);
    assert_rel(get(&cs, "b_crit_int8_weights"), 120, 0.005);
    assert_rel(get(&cs, "b_crit_int8_int8"), 240, 0.005);
    assert_rel(get(&cs, "case30b_step_ms_b4"), 2.5, 0.03);
    assert_rel(get(&cs, "case30b_step_ms_b256"), 21, 0.01);
}

/* KV bytes per token 2 * L * K * H * bytes with LLaMA-2-13B's L = 40, K = 40,
 * H = 128 (seed 000 "What about memory?"): 819,200 (bf16), 409,600 (int8),
 * exact.  Largest batch (section 5 problem 2's formula) on 8 x 16 GB at
 * S = 8192: floor((128e9 - 2 P) / (8192 * kv)), P = L*D*(3F + 2H(N+K)) +
 * 2VD + (2L+1)D from the HF config (D 5120, F 13824, V 32000), computed here. */
static void test_kv_int8(void **state)
{
    (void)state;
    checks cs;
    run_scenario("kv_int8.lua", &cs);
    double L = 40, D = 5120, F = 13824, N = 40, K = 40, H = 128, V = 32000;
    double P = L * D * (3 * F + 2 * H * (N + K)) + 2 * V * D + (2 * L + 1) * D;
    assert_rel(get(&cs, "kv_bytes_per_token_bf16"), 2 * L * K * H * 2, 1e-12);
    assert_rel(get(&cs, "kv_bytes_per_token_int8"), 2 * L * K * H * 1, 1e-12);
    assert_rel(get(&cs, "max_batch_bf16"), floor((128e9 - 2 * P) / (8192 * 2 * L * K * H * 2)), 0);
    assert_rel(get(&cs, "max_batch_int8"), floor((128e9 - 2 * P) / (8192 * 2 * L * K * H * 1)), 0);
    assert_rel(get(&cs, "kv_load_ratio_b8"), 0.5, 1e-9);
}

/* Seed 000 section 5: problem 6 (2) — ~212 GB of int8 MoE weights need
 * ceil(212/16) = 14 chips, smallest slice 4x4 = 16 (0.5% on the GB, exact on
 * the counts); problem 2 — max batch 7 at K = 8 and 56 at K = 1 (exact). */
static void test_smallest_slice(void **state)
{
    (void)state;
    checks cs;
    run_scenario("smallest_slice.lua", &cs);
    assert_rel(get(&cs, "moe_weights_gb"), 212, 0.005);
    assert_rel(get(&cs, "moe_chips_for_weights"), 14, 0);
    assert_rel(get(&cs, "moe_smallest_slice"), 16, 0);
    assert_rel(get(&cs, "dense_max_batch_k8"), 7, 0);
    assert_rel(get(&cs, "dense_max_batch_k1"), 56, 0);
}

/* PaLM paper Table 1 parameter counts 8.63e9, 62.50e9, 540.35e9 (0.1%).
 * The cheapest frontier point sits at the first grid batch above TPU v4's
 * B_crit = 2.75e14 / 1.2e12 = 229 (256 on the doubling grid), and int8
 * weights leave the compute-bound cost floor unchanged (1%) — the chapter's
 * reading of the ESTI figure (seed 000 section 1). */
static void test_palm_frontier(void **state)
{
    (void)state;
    checks cs;
    run_scenario("palm_frontier.lua", &cs);
    assert_rel(get(&cs, "params_8b"), 8.63e9, 0.001);
    assert_rel(get(&cs, "params_62b"), 62.50e9, 0.001);
    assert_rel(get(&cs, "params_540b"), 540.35e9, 0.001);
    double bcrit = 2.75e14 / 1.2e12, first = 1;
    while (first < bcrit)
        first *= 2;
    assert_rel(get(&cs, "cheapest_batch_8b"), first, 0);
    assert_rel(get(&cs, "cheapest_batch_62b"), first, 0);
    assert_rel(get(&cs, "cheapest_batch_540b"), first, 0);
    assert_rel(get(&cs, "floor_ratio_540b_int8_over_bf16"), 1.0, 0.01);
}

/* Formula (1): KV loading equals parameter loading at S* = P_bytes / (B *
 * kv_per_token); LLaMA-3-70B (HF config: L 80, D 8192, F 28672, N 64, K 8,
 * H 128, V 128256, untied) in bf16, computed here; 0.01%.  The sweep's first
 * doubling-grid context past S* is the next power of two (exact). */
static void test_long_context(void **state)
{
    (void)state;
    checks cs;
    run_scenario("long_context.lua", &cs);
    double L = 80, D = 8192, F = 28672, N = 64, K = 8, H = 128, V = 128256;
    double P = L * D * (3 * F + 2 * H * (N + K)) + 2 * V * D + (2 * L + 1) * D;
    double kv = 2 * L * K * H * 2;
    assert_rel(get(&cs, "kv_bytes_per_token"), kv, 0);
    static const int B[] = {1, 8, 32};
    for (int i = 0; i < 3; i++) {
        char n[64];
        double s = 2 * P / (B[i] * kv);
        snprintf(n, sizeof n, "crossover_b%d", B[i]);
        assert_rel(get(&cs, n), s, 1e-4);
        if (s <= 131072) {
            double g = 1024;
            while (g < s)
                g *= 2;
            snprintf(n, sizeof n, "grid_crossover_b%d", B[i]);
            assert_rel(get(&cs, n), g, 0);
        }
    }
}

/* Seed 000 section 5 worked problem 4: ~4.8 ms per decode step at B = 1,
 * S = 128k on 16 v5e in int8 (2.58 KV + 1.42 weights + ~0.8 collectives);
 * 22%: the sharding module's collectives cost 1.79 ms (4 latency-bound ones
 * per layer at 1 us per hop: two AllReduces over the 4x4, 12 hops each
 * without wraparound, and two over pairs of chips 8 apart, 2 hops each)
 * where the seed rounds to 0.8 (test_shard.c worked_problem_4 itemises
 * it; 5.72 ms and 20% before issue 12's fixUH put those pairs 2 hops
 * apart; 5.21 ms and 10% before fixUC took the 4x4 as wrapping: 8 hops
 * an AllReduce).
 * Prefill and generation pick different plans (exact). */
static void test_prefill_vs_generation(void **state)
{
    (void)state;
    checks cs;
    run_scenario("prefill_vs_generation.lua", &cs);
    assert_rel(get(&cs, "wp4_step_ms"), 4.8, 0.22);
    assert_rel(get(&cs, "wp4_prefill_differs"), 1, 0);
}

/* The v5e ridge point: the chapter's 240 FLOPs/byte (1%). */
static void test_figures(void **state)
{
    (void)state;
    checks cs;
    run_scenario("figures.lua", &cs);
    assert_rel(get(&cs, "ridge_v5e"), 240, 0.01);
}

/* Every scenario file runs: those without a test above (added by other
 * modules, asserted in their own suites) at least run to completion here. */
static void test_every_scenario_runs(void **state)
{
    (void)state;
    static const char *known[] = {"scaling_book_llama2_13b.lua", "int8_weights.lua", "kv_int8.lua",
                                  "smallest_slice.lua", "palm_frontier.lua", "long_context.lua",
                                  "figures.lua", "prefill_vs_generation.lua"};
    DIR *d = opendir(RL_SRCDIR "/scenarios");
    assert_non_null(d);
    struct dirent *e;
    int ran = 0;
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcmp(e->d_name + l - 4, ".lua") != 0)
            continue;
        int found = 0;
        for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
            found |= strcmp(known[i], e->d_name) == 0;
        if (!found) {
            checks cs;
            run_scenario(e->d_name, &cs);
            ran++;
        }
    }
    closedir(d);
    print_message("%d scenario(s) without checks here ran to completion\n", ran);
}

/* A wrong expectation must fail (the harness can fail). */
static void wrong_ridge(void **state)
{
    (void)state;
    checks cs;
    run_scenario("figures.lua", &cs);
    assert_rel(get(&cs, "ridge_v5e"), 120, 0.01);
}

static void test_harness_can_fail(void **state)
{
    (void)state;
    assert_test_fails(wrong_ridge);
}

static int setup(void **state)
{
    (void)state;
    snprintf(g_outdir, sizeof g_outdir, "/tmp/rl_scen_XXXXXX");
    return mkdtemp(g_outdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return remove_tree(g_outdir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_llama2_13b_tables), cmocka_unit_test(test_int8_weights),
        cmocka_unit_test(test_kv_int8),           cmocka_unit_test(test_smallest_slice),
        cmocka_unit_test(test_palm_frontier),     cmocka_unit_test(test_long_context),
        cmocka_unit_test(test_figures),           cmocka_unit_test(test_prefill_vs_generation),           cmocka_unit_test(test_every_scenario_runs),
        cmocka_unit_test(test_harness_can_fail),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
