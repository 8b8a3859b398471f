/* test_cuda.c — every CUDA kernel against the CPU backend, and the whole
 * engine's logits on both.  Skips (with the reason) when the binary is built
 * without CUDA (`make cuda` builds build-cuda/tests/test_cuda) or no GPU is
 * visible. */
#include "testutil.h"

#include "backend.h"
#include "engine.h"

static rl_backend gpu, cpu;

/* fp32 kernels: 1e-4 absolute on O(1) values (expf/sincosf ulps, another
 * summation order).  bf16 matmuls: inputs rounded to 8 mantissa bits, so a
 * K-term dot product of unit values errs ~2^-8 * sqrt(K): 2e-2 * sqrt(K)/8. */
#define FTOL 1e-4

static int setup(void **state)
{
    (void)state;
    char err[256];
    if (rl_backend_cuda(&gpu, err, sizeof err) != 0) {
        printf("test_cuda: skipped: %s\n", err);
        gpu.name = NULL;
    }
    rl_backend_cpu(&cpu, 0, err, sizeof err);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    if (gpu.name)
        gpu.destroy(gpu.ctx);
    return 0;
}

#define NEED_GPU()                                                                                 \
    do {                                                                                           \
        if (!gpu.name)                                                                             \
            skip();                                                                                \
    } while (0)

static float *rnd(size_t n, uint64_t s)
{
    float *p = malloc(n * sizeof *p);
    for (size_t i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        p[i] = (float)((s >> 40) * (1.0 / 16777216.0)) * 2.0f - 1.0f;
    }
    return p;
}

static float *up(const float *h, size_t n)
{
    float *d = gpu.alloc(gpu.ctx, n);
    gpu.to_dev(gpu.ctx, d, h, n);
    return d;
}

static void check(const float *dev, const float *ref, size_t n, double tol, const char *what)
{
    float *h = malloc(n * sizeof *h);
    gpu.to_host(gpu.ctx, h, dev, n);
    for (size_t i = 0; i < n; i++)
        if (!(fabs(h[i] - ref[i]) <= tol))
            fail_msg("%s[%zu]: cuda %.7g vs cpu %.7g (tolerance %g)", what, i, h[i], ref[i], tol);
    free(h);
}

static void test_matmul(void **state)
{
    (void)state;
    NEED_GPU();
    int M = 5, N = 96, K = 64;
    float *x = rnd((size_t)M * K, 1), *w = rnd((size_t)N * K, 2), *y = malloc((size_t)M * N * 4);
    void *wc = cpu.upload_weight(cpu.ctx, w, (size_t)N * K), *wg = gpu.upload_weight(gpu.ctx, w, (size_t)N * K);
    cpu.matmul(cpu.ctx, x, wc, y, M, N, K);
    float *dx = up(x, (size_t)M * K), *dy = gpu.alloc(gpu.ctx, (size_t)M * N);
    gpu.matmul(gpu.ctx, dx, wg, dy, M, N, K);
    check(dy, y, (size_t)M * N, 2e-2 * sqrt(K) / 8 * 4, "matmul"); /* 4 sigma */
    cpu.free(cpu.ctx, wc), gpu.free(gpu.ctx, wg), gpu.free(gpu.ctx, dx), gpu.free(gpu.ctx, dy);
    free(x), free(w), free(y);
}

static void test_elementwise(void **state)
{
    (void)state;
    NEED_GPU();
    int M = 3, D = 64, nh = 4, hd = 16, pos[3] = {0, 5, 300}, tok[3] = {2, 0, 7};
    size_t n = (size_t)M * D;
    float *x = rnd(n, 3), *g = rnd(D, 4), *y = rnd(n, 5), *r = malloc(n * 4);
    float *dx = up(x, n), *dg = up(g, D), *dy = up(y, n), *dr = gpu.alloc(gpu.ctx, n);
    cpu.rmsnorm(cpu.ctx, x, g, r, M, D, 1e-5f);
    gpu.rmsnorm(gpu.ctx, dx, dg, dr, M, D, 1e-5f);
    check(dr, r, n, FTOL, "rmsnorm");
    cpu.swiglu(cpu.ctx, x, y, r, n);
    gpu.swiglu(gpu.ctx, dx, dy, dr, n);
    check(dr, r, n, FTOL, "swiglu");
    memcpy(r, x, n * 4);
    cpu.add(cpu.ctx, r, y, n);
    gpu.add(gpu.ctx, dx, dy, n);
    check(dx, r, n, FTOL, "add");
    gpu.to_dev(gpu.ctx, dx, x, n);
    memcpy(r, x, n * 4);
    cpu.rope(cpu.ctx, r, pos, M, nh, hd, 10000.0f);
    gpu.rope(gpu.ctx, dx, pos, M, nh, hd, 10000.0f);
    check(dx, r, n, 1e-3, "rope"); /* angle 300 rad: sincosf vs double cos */
    float *table = rnd(8 * (size_t)D, 6), *dt = up(table, 8 * (size_t)D);
    cpu.embed(cpu.ctx, table, tok, r, M, D);
    gpu.embed(gpu.ctx, dt, tok, dr, M, D);
    check(dr, r, n, 0, "embed");
    void *ps[] = {dx, dg, dy, dr, dt};
    for (int i = 0; i < 5; i++)
        gpu.free(gpu.ctx, ps[i]);
    free(x), free(g), free(y), free(r), free(table);
}

static void test_attention(void **state)
{
    (void)state;
    NEED_GPU();
    int T = 70, nh = 4, kvh = 2, hd = 16, qd = nh * hd, kd = kvh * hd, page = 16, mb = 5;
    float *q = rnd((size_t)T * qd, 7), *k = rnd((size_t)T * kd, 8), *v = rnd((size_t)T * kd, 9);
    float *o = malloc((size_t)T * qd * 4);
    float *dq = up(q, (size_t)T * qd), *dk = up(k, (size_t)T * kd), *dv = up(v, (size_t)T * kd);
    float *dO = gpu.alloc(gpu.ctx, (size_t)T * qd);
    cpu.attn_prefill(cpu.ctx, q, k, v, o, T, nh, kvh, hd);
    gpu.attn_prefill(gpu.ctx, dq, dk, dv, dO, T, nh, kvh, hd);
    check(dO, o, (size_t)T * qd, FTOL, "attn_prefill");
    /* paged decode: 2 slots (70 and 33 tokens) on scattered pages of 16 */
    int bt[10] = {7, 2, 9, 0, 4, 3, 8, 1, 0, 0}, len[2] = {70, 33}, slots[103];
    for (int t = 0; t < 103; t++) /* slot 0's 70 positions, then slot 1's 33 */
        slots[t] = t < 70 ? bt[t / page] * page + t % page : bt[5 + (t - 70) / page] * page + (t - 70) % page;
    size_t pool = 10 * (size_t)page * kd;
    float *kp = calloc(pool, 4), *vp = calloc(pool, 4), *dkp = gpu.alloc(gpu.ctx, pool),
          *dvp = gpu.alloc(gpu.ctx, pool);
    cpu.kv_write(cpu.ctx, k, v, kp, vp, slots, 70, kvh, hd);
    cpu.kv_write(cpu.ctx, k, v, kp, vp, slots + 70, 33, kvh, hd);
    gpu.kv_write(gpu.ctx, dk, dv, dkp, dvp, slots, 70, kvh, hd);
    gpu.kv_write(gpu.ctx, dk, dv, dkp, dvp, slots + 70, 33, kvh, hd);
    check(dkp, kp, pool, 0, "kv_write k");
    check(dvp, vp, pool, 0, "kv_write v");
    cpu.attn_decode(cpu.ctx, q, kp, vp, bt, len, 2, mb, page, nh, kvh, hd, o);
    gpu.attn_decode(gpu.ctx, dq, dkp, dvp, bt, len, 2, mb, page, nh, kvh, hd, dO);
    check(dO, o, 2 * (size_t)qd, FTOL, "attn_decode");
    void *ps[] = {dq, dk, dv, dO, dkp, dvp};
    for (int i = 0; i < 6; i++)
        gpu.free(gpu.ctx, ps[i]);
    free(q), free(k), free(v), free(o), free(kp), free(vp);
}

/* The whole engine: the same prompt's last logits on CUDA (bf16 weights)
 * and CPU (fp32) agree to 5e-2 on logits of size ~1 (bf16 rounding through
 * 2 layers). */
static void test_engine_logits(void **state)
{
    (void)state;
    NEED_GPU();
    rl_model m = load_model("tiny-test", NULL, 0);
    char err[512];
    rl_engine_config c = {.max_slots = 2, .max_prefill = 64, .seed = 3};
    rl_backend g2, c2;
    assert_int_equal(rl_backend_cuda(&g2, err, sizeof err), 0);
    rl_backend_cpu(&c2, 0, err, sizeof err);
    rl_engine *eg = rl_engine_new(&m, &g2, &c, err, sizeof err), *ec = rl_engine_new(&m, &c2, &c, err, sizeof err);
    assert_non_null(eg);
    assert_non_null(ec);
    int tok[40];
    for (int i = 0; i < 40; i++)
        tok[i] = (i * 31 + 5) % 96;
    float lg[96], lc[96], sg[2 * 96], sc[2 * 96];
    rl_prefix pg, pc;
    assert_int_equal(rl_engine_prefill(eg, tok, 40, &pg, lg, err, sizeof err), 0);
    assert_int_equal(rl_engine_prefill(ec, tok, 40, &pc, lc, err, sizeof err), 0);
    for (int i = 0; i < 96; i++)
        assert_true(fabs(lg[i] - lc[i]) < 5e-2);
    assert_int_equal(rl_engine_insert(eg, &pg, 1, 3, err, sizeof err), 0);
    assert_int_equal(rl_engine_insert(ec, &pc, 1, 3, err, sizeof err), 0);
    assert_int_equal(rl_engine_generate(eg, sg, err, sizeof err), 1);
    assert_int_equal(rl_engine_generate(ec, sc, err, sizeof err), 1);
    for (int i = 96; i < 192; i++)
        assert_true(fabs(sg[i] - sc[i]) < 5e-2);
    rl_engine_free(eg);
    rl_engine_free(ec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matmul),
        cmocka_unit_test(test_elementwise),
        cmocka_unit_test(test_attention),
        cmocka_unit_test(test_engine_logits),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
