/* test_engine.c — the reference engine on the CPU backend: each kernel
 * against a naive loop, prefill/generate consistency, paged vs contiguous KV,
 * slots, seeded vs .safetensors weights, and input errors. */
#include "testutil.h"

#include <time.h>

#include "backend.h"
#include "engine.h"
#include "weights.h"

/* Kernels: fp32 results of the same math in another summation order agree
 * to ~1e-6 relative; 1e-4 absolute on O(1) values leaves room for the
 * OpenBLAS blocking and expf. */
#define KTOL 1e-4

static float frand(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (float)((*s >> 40) * (1.0 / 16777216.0)) * 2.0f - 1.0f;
}

static float *rnd(size_t n, uint64_t seed)
{
    float *p = malloc(n * sizeof *p);
    for (size_t i = 0; i < n; i++)
        p[i] = frand(&seed);
    return p;
}

static void assert_close(const float *a, const float *b, size_t n, double tol)
{
    for (size_t i = 0; i < n; i++)
        if (!(fabs((double)a[i] - (double)b[i]) <= tol))
            fail_msg("element %zu: %.7g vs %.7g (tolerance %g)", i, a[i], b[i], tol);
}

static rl_backend cpu(void)
{
    rl_backend b;
    char err[256];
    assert_int_equal(rl_backend_cpu(&b, 0, err, sizeof err), 0);
    return b;
}

static void test_matmul(void **state)
{
    (void)state;
    rl_backend b = cpu();
    for (int M = 1; M <= 3; M += 2) {
        int N = 37, K = 53;
        float *x = rnd((size_t)M * K, 1), *w = rnd((size_t)N * K, 2), *y = malloc((size_t)M * N * 4),
              *r = calloc((size_t)M * N, 4);
        void *wd = b.upload_weight(b.ctx, w, (size_t)N * K);
        b.matmul(b.ctx, x, wd, y, M, N, K);
        for (int m = 0; m < M; m++)
            for (int n = 0; n < N; n++)
                for (int k = 0; k < K; k++)
                    r[m * N + n] += x[m * K + k] * w[n * K + k];
        assert_close(y, r, (size_t)M * N, KTOL);
        b.free(b.ctx, wd);
        free(x), free(w), free(y), free(r);
    }
}

static void test_norm_rope_swiglu(void **state)
{
    (void)state;
    rl_backend b = cpu();
    int M = 3, D = 16;
    float *x = rnd((size_t)M * D, 3), *g = rnd(D, 4), *y = malloc((size_t)M * D * 4);
    b.rmsnorm(b.ctx, x, g, y, M, D, 1e-5f);
    for (int m = 0; m < M; m++) {
        double ss = 0;
        for (int i = 0; i < D; i++)
            ss += x[m * D + i] * x[m * D + i];
        for (int i = 0; i < D; i++) /* y = x / sqrt(mean(x^2) + eps) * g */
            assert_true(fabs(y[m * D + i] - x[m * D + i] / sqrt(ss / D + 1e-5) * g[i]) < KTOL);
    }
    /* RoPE: head 1, pair 2 of row 2 (pos 7) rotated by 7 * 10000^(-4/8) */
    int pos[3] = {0, 3, 7}, nh = 2, hd = 8;
    float *q = rnd((size_t)M * nh * hd, 5), *q0 = malloc((size_t)M * nh * hd * 4);
    memcpy(q0, q, (size_t)M * nh * hd * 4);
    b.rope(b.ctx, q, pos, M, nh, hd, 10000.0f);
    assert_close(q, q0, (size_t)nh * hd, 0); /* position 0: unchanged */
    double a = 7 * pow(10000.0, -4.0 / 8);
    const float *p0 = q0 + 2 * nh * hd + hd + 4, *p = q + 2 * nh * hd + hd + 4;
    assert_true(fabs(p[0] - (p0[0] * cos(a) - p0[1] * sin(a))) < KTOL);
    assert_true(fabs(p[1] - (p0[0] * sin(a) + p0[1] * cos(a))) < KTOL);
    float gt[2] = {1.0f, -2.0f}, up[2] = {3.0f, 0.5f}, out[2];
    b.swiglu(b.ctx, gt, up, out, 2);
    assert_true(fabs(out[0] - 3.0 / (1 + exp(-1.0))) < KTOL); /* silu(1) * 3 = 2.1932 */
    assert_true(fabs(out[1] - 0.5 * -2.0 / (1 + exp(2.0))) < KTOL);
    free(x), free(g), free(y), free(q), free(q0);
}

/* Naive causal attention of query i over keys 0..n-1 (one head). */
static void naive_attn(const float *q, const float *k, const float *v, int n, int hd, int kstride,
                       float *o)
{
    double s[512], mx = -1e300, sum = 0;
    for (int j = 0; j < n; j++) {
        s[j] = 0;
        for (int i = 0; i < hd; i++)
            s[j] += q[i] * k[(size_t)j * kstride + i];
        s[j] /= sqrt(hd);
        mx = s[j] > mx ? s[j] : mx;
    }
    for (int j = 0; j < n; j++)
        sum += (s[j] = exp(s[j] - mx));
    for (int i = 0; i < hd; i++) {
        double acc = 0;
        for (int j = 0; j < n; j++)
            acc += s[j] / sum * v[(size_t)j * kstride + i];
        o[i] = (float)acc;
    }
}

static void test_attention_kernels(void **state)
{
    (void)state;
    rl_backend b = cpu();
    int T = 45, nh = 4, kvh = 2, hd = 8, qd = nh * hd, kd = kvh * hd, g = nh / kvh;
    float *q = rnd((size_t)T * qd, 6), *k = rnd((size_t)T * kd, 7), *v = rnd((size_t)T * kd, 8);
    float *o = malloc((size_t)T * qd * 4), r[8];
    b.attn_prefill(b.ctx, q, k, v, o, T, nh, kvh, hd);
    for (int t = 0; t < T; t += 11)
        for (int n = 0; n < nh; n++) {
            naive_attn(q + t * qd + n * hd, k + n / g * hd, v + n / g * hd, t + 1, hd, kd, r);
            assert_close(o + t * qd + n * hd, r, hd, KTOL);
        }
    /* Paged decode: two slots (lengths 45 and 9) over shuffled pages of 4. */
    int page = 4, pages = 16, mb = 12, len[2] = {45, 9}, bt[24];
    float *kp = calloc((size_t)pages * page * kd, 4), *vp = calloc((size_t)pages * page * kd, 4);
    for (int i = 0; i < 12; i++)
        bt[i] = (i * 5 + 3) % 16; /* slot 0: 12 distinct pages in scrambled order */
    int used[3] = {4, 7, 9};      /* slot 1: pages slot 0 does not use */
    for (int i = 0; i < 3; i++) {
        int free_page = 0;
        for (int p = 0; p < pages; p++) {
            int taken = 0;
            for (int j = 0; j < 12; j++)
                taken |= bt[j] == p;
            if (!taken && free_page++ == i)
                used[i] = p;
        }
        bt[12 + i] = used[i];
    }
    int slots[45]; /* position t of a sequence: page bt[t / page], offset t % page */
    for (int t = 0; t < 45; t++)
        slots[t] = bt[t / page] * page + t % page;
    b.kv_write(b.ctx, k, v, kp, vp, slots, 45, kvh, hd);
    for (int t = 0; t < 9; t++)
        slots[t] = bt[12 + t / page] * page + t % page;
    b.kv_write(b.ctx, k, v, kp, vp, slots, 9, kvh, hd);
    float *od = malloc(2 * (size_t)qd * 4);
    b.attn_decode(b.ctx, q, kp, vp, bt, len, 2, mb, page, nh, kvh, hd, od);
    for (int s = 0; s < 2; s++)
        for (int n = 0; n < nh; n++) {
            naive_attn(q + s * qd + n * hd, k + n / g * hd, v + n / g * hd, len[s], hd, kd, r);
            assert_close(od + s * qd + n * hd, r, hd, KTOL);
        }
    free(q), free(k), free(v), free(o), free(kp), free(vp), free(od);
}

static rl_engine *engine(int page, const char *weights)
{
    rl_model m = load_model("tiny-test", NULL, 0);
    rl_backend b = cpu();
    char err[1024];
    rl_engine_config c = {.page_size = page, .max_slots = 4, .max_prefill = 64, .seed = 42,
                          .weights_path = weights};
    rl_engine *e = rl_engine_new(&m, &b, &c, err, sizeof err);
    if (!e)
        fail_msg("engine: %s", err);
    return e;
}

static int prompt(int i) { return (i * 37 + 11) % 96; }

/* prefill(T) then generate(1) must equal prefill(T+1)'s last logits.  The
 * two paths sum in different orders (sgemv vs sgemm, paged decode vs causal
 * prefill attention): fp32 round-off only, 1e-4 on logits of size ~1. */
static void test_prefill_then_generate(void **state)
{
    (void)state;
    rl_engine *e = engine(8, NULL);
    char err[256];
    int tok[40];
    for (int i = 0; i < 40; i++)
        tok[i] = prompt(i);
    float full[96], step[4 * 96];
    rl_prefix p;
    for (int T = 17; T <= 39; T += 11) {
        assert_int_equal(rl_engine_prefill(e, tok, T + 1, &p, full, err, sizeof err), 0);
        rl_engine_prefix_free(e, &p);
        assert_int_equal(rl_engine_prefill(e, tok, T, &p, NULL, err, sizeof err), 0);
        assert_int_equal(rl_engine_insert(e, &p, 1, tok[T], err, sizeof err), 0);
        assert_int_equal(rl_engine_generate(e, step, err, sizeof err), 1);
        assert_close(step + 96, full, 96, 1e-4);
        rl_engine_release(e, 1);
    }
    rl_engine_free(e);
}

/* Run 3 prompts in slots 0, 2, 3 for 6 steps; logits (3 * 6 * 96) out. */
static void decode_run(rl_engine *e, float *out)
{
    char err[256];
    int tok[30];
    for (int i = 0; i < 30; i++)
        tok[i] = prompt(i);
    int slots[3] = {0, 2, 3}, lens[3] = {30, 5, 17};
    for (int i = 0; i < 3; i++) {
        rl_prefix p;
        assert_int_equal(rl_engine_prefill(e, tok, lens[i], &p, NULL, err, sizeof err), 0);
        assert_int_equal(rl_engine_insert(e, &p, slots[i], 7, err, sizeof err), 0);
    }
    float lg[4 * 96];
    for (int s = 0; s < 6; s++) {
        assert_int_equal(rl_engine_generate(e, lg, err, sizeof err), 3);
        for (int i = 0; i < 3; i++)
            memcpy(out + ((size_t)i * 6 + s) * 96, lg + slots[i] * 96, 96 * 4);
    }
    for (int i = 0; i < 3; i++)
        rl_engine_release(e, slots[i]);
}

/* Pages of 4 tokens (a block table of many scattered pages) vs one page of
 * the whole context (contiguous KV): identical math, so equal to 1e-6. */
static void test_paged_vs_contiguous(void **state)
{
    (void)state;
    static float a[3 * 6 * 96], b[3 * 6 * 96];
    rl_engine *e = engine(4, NULL);
    decode_run(e, a);
    rl_engine_free(e);
    e = engine(256, NULL);
    decode_run(e, b);
    rl_engine_free(e);
    assert_close(a, b, sizeof a / sizeof a[0], 1e-6);
}

/* The seeded weights written to .safetensors and read back give the same
 * logits bit for bit (F32 round trip); a header whose shape disagrees with
 * the spec is refused naming the tensor. */
static void test_safetensors(void **state)
{
    (void)state;
    rl_model m = load_model("tiny-test", NULL, 0);
    char path[64], err[1024];
    write_temp(path, ".safetensors", "");
    assert_int_equal(rl_safetensors_write_seeded(path, &m, 42, err, sizeof err), 0);
    static float a[3 * 6 * 96], b[3 * 6 * 96];
    rl_engine *e = engine(16, NULL);
    decode_run(e, a);
    rl_engine_free(e);
    e = engine(16, path);
    decode_run(e, b);
    rl_engine_free(e);
    assert_close(a, b, sizeof a / sizeof a[0], 0);

    rl_model wrong = m;
    wrong.d_ff = 128;
    assert_int_equal(rl_safetensors_write_seeded(path, &wrong, 42, err, sizeof err), 0);
    rl_backend bk = cpu();
    rl_engine_config c = {.max_slots = 2, .max_prefill = 16, .weights_path = path};
    assert_null(rl_engine_new(&m, &bk, &c, err, sizeof err));
    assert_non_null(strstr(err, "field 'model.layers.0.mlp.gate_proj.weight': shape"));

    write_temp(path + 0, ".safetensors", "\x10\0\0\0\0\0\0\0{\"a\":{\"dtype\":1}");
    assert_null(rl_safetensors_open(path, err, sizeof err));
    unlink(path);
}

static void test_errors_and_timers(void **state)
{
    (void)state;
    rl_engine *e = engine(16, NULL);
    char err[256];
    int tok[65] = {0};
    rl_prefix p;
    assert_int_equal(rl_engine_prefill(e, tok, 65, &p, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "max_prefill"));
    tok[3] = 96;
    assert_int_equal(rl_engine_prefill(e, tok, 8, &p, NULL, err, sizeof err), -1);
    tok[3] = 1;
    rl_engine_set_timing(e, 1);
    assert_int_equal(rl_engine_prefill(e, tok, 8, &p, NULL, err, sizeof err), 0);
    double s[RL_EOP_COUNT];
    long n[RL_EOP_COUNT];
    rl_engine_timers(e, s, n);
    assert_int_equal(n[RL_EOP_Q_PROJ], 2);  /* one per layer */
    assert_int_equal(n[RL_EOP_MLP_NORM], 2);   /* one per layer */
    assert_int_equal(n[RL_EOP_FINAL_NORM], 1); /* once, on the last position */
    assert_true(s[RL_EOP_MLP_UP] > 0);
    assert_string_equal(rl_eop_name(RL_EOP_ATTENTION), "attention");
    assert_int_equal(rl_engine_insert(e, &p, 9, 0, err, sizeof err), -1);
    assert_int_equal(rl_engine_insert(e, &p, 0, 0, err, sizeof err), 0);
    assert_int_equal(rl_engine_fill_slot(e, 0, 10, err, sizeof err), -1); /* busy */
    rl_engine_free(e);
}

/* Kernel timing clock (backend.h, stop 27): on one CPU thread it is that
 * thread's CPU time, so time the thread does not run (here a 50 ms sleep;
 * on a shared host another process's time slice) is not counted; on more
 * threads, and on a backend without one, the wall clock, which counts it.
 * Expected: one thread < 10 ms over the sleep (the thread's own CPU time
 * for two clock reads and the syscall, microseconds); two threads >= 50 ms
 * (CLOCK_MONOTONIC never runs short of a completed nanosleep).  Last in
 * main: it leaves OpenMP and OpenBLAS at two threads. */
static void test_backend_clock(void **state)
{
    (void)state;
    char err[256];
    rl_backend one, two;
    struct timespec nap = {0, 50000000};
    assert_int_equal(rl_backend_cpu(&one, 1, err, sizeof err), 0);
    assert_non_null(strstr(rl_backend_clock_name(&one), "thread CPU time"));
    double t0 = rl_backend_clock(&one);
    nanosleep(&nap, NULL);
    double slept_cpu = rl_backend_clock(&one) - t0;
    assert_true(slept_cpu >= 0 && slept_cpu < 0.01);
    assert_int_equal(rl_backend_cpu(&two, 2, err, sizeof err), 0);
    assert_string_equal(rl_backend_clock_name(&two), "wall");
    t0 = rl_backend_clock(&two);
    nanosleep(&nap, NULL);
    assert_true(rl_backend_clock(&two) - t0 >= 0.05);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matmul),
        cmocka_unit_test(test_norm_rope_swiglu),
        cmocka_unit_test(test_attention_kernels),
        cmocka_unit_test(test_prefill_then_generate),
        cmocka_unit_test(test_paged_vs_contiguous),
        cmocka_unit_test(test_safetensors),
        cmocka_unit_test(test_errors_and_timers),
        cmocka_unit_test(test_backend_clock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
