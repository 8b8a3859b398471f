/* test_comm.c — collective costs on ring, torus, switch and two-level
 * fabrics against hand-computed values, in both regimes; Appendix C's
 * latency-bound threshold. */
#include "testutil.h"

#include "comm.h"

static rl_comm must(const rl_hw *h, rl_collective k, double bytes, long long g, long long stride)
{
    rl_comm c;
    char err[512];
    if (rl_comm_time(h, k, bytes, g, stride, &c, err, sizeof err) != 0)
        fail_msg("rl_comm_time: %s", err);
    return c;
}

static rl_hw v5e_ring(void)
{
    rl_override ring = {"topology", "ring"};
    return load_hw("tpu-v5e", &ring, 1);
}

/* 1D ring, TPU v5e (4.5e10 B/s one way per link, 1 us per hop), 8 chips:
 * AllGather of 8e6 bytes: latency 4 hops * 1 us = 4 us, bandwidth
 * 8e6 / (2 * 4.5e10) = 88.89 us (by hand) -> bandwidth-bound, 88.89 us.
 * Of 6.4e4 bytes: 0.711 us of bandwidth < 4 us -> latency-bound, 4 us.
 * Tolerance 1e-12 (exact arithmetic). */
static void ring_allgather_both_regimes(void **state)
{
    (void)state;
    rl_hw h = v5e_ring();
    rl_comm big = must(&h, RL_ALLGATHER, 8e6, 8, 1);
    assert_rel(big.latency_s, 4e-6, 1e-12);
    assert_rel(big.bandwidth_s, 8e6 / 9e10, 1e-12);
    assert_rel(big.time_s, 88.888888889e-6, 1e-9);
    assert_false(big.latency_bound);
    rl_comm small = must(&h, RL_ALLGATHER, 6.4e4, 8, 1);
    assert_rel(small.time_s, 4e-6, 1e-12);
    assert_true(small.latency_bound);
    /* ReduceScatter costs the same; AllReduce twice (RS + AG) */
    assert_rel(must(&h, RL_REDUCESCATTER, 8e6, 8, 1).time_s, big.time_s, 1e-12);
    assert_rel(must(&h, RL_ALLREDUCE, 8e6, 8, 1).time_s, 2 * big.time_s, 1e-12);
    /* a group of one chip costs nothing */
    assert_true(must(&h, RL_ALLREDUCE, 8e6, 1, 1).time_s == 0.0);
}

/* 2D torus 4x4 (16 v5e): AllReduce of 1e6 bytes.  Latency 2 * (2 + 2) hops
 * = 8 us; bandwidth 2 * 1e6 / (2 * 4.5e10 * 2 axes) = 11.11 us (by hand) ->
 * bandwidth-bound.  Of 1e5 bytes: 1.11 us < 8 us -> latency-bound.
 * AllToAll of 4e6 bytes: 4e6 / (4 * 9e10 * 2) = 5.556 us vs 4 hops = 4 us. */
static void torus_both_regimes(void **state)
{
    (void)state;
    rl_hw h = load_hw("tpu-v5e", NULL, 0);
    rl_comm ar = must(&h, RL_ALLREDUCE, 1e6, 16, 1);
    assert_rel(ar.latency_s, 8e-6, 1e-12);
    assert_rel(ar.bandwidth_s, 11.111111111e-6, 1e-9);
    assert_rel(ar.time_s, 11.111111111e-6, 1e-9);
    assert_false(ar.latency_bound);
    rl_comm ar_small = must(&h, RL_ALLREDUCE, 1e5, 16, 1);
    assert_rel(ar_small.time_s, 8e-6, 1e-12);
    assert_true(ar_small.latency_bound);
    rl_comm a2a = must(&h, RL_ALLTOALL, 4e6, 16, 1);
    assert_rel(a2a.bandwidth_s, 5.5555555556e-6, 1e-9);
    assert_rel(a2a.latency_s, 4e-6, 1e-12);
    assert_false(a2a.latency_bound);
    /* point-to-point: one link, one hop: 4.5e5 / 4.5e10 = 10 us */
    assert_rel(must(&h, RL_P2P, 4.5e5, 16, 1).time_s, 10e-6, 1e-12);
}

/* TPU slice shapes: 16 -> 4x4, 128 -> 8x16, 8 -> 2x4, 12 -> 3x4; 3D 64 -> 4x4x4. */
static void torus_axes(void **state)
{
    (void)state;
    long long a[3];
    assert_int_equal(rl_comm_torus_axes(16, 2, a), 2);
    assert_true(a[0] == 4 && a[1] == 4);
    rl_comm_torus_axes(128, 2, a);
    assert_true(a[0] == 8 && a[1] == 16);
    rl_comm_torus_axes(8, 2, a);
    assert_true(a[0] == 2 && a[1] == 4);
    rl_comm_torus_axes(12, 2, a);
    assert_true(a[0] == 3 && a[1] == 4);
    assert_int_equal(rl_comm_torus_axes(64, 3, a), 3);
    assert_true(a[0] == 4 && a[1] == 4 && a[2] == 4);
    assert_int_equal(rl_comm_torus_axes(2, 3, a), 1);
}

/* NVLink switch, 8 H100 (18 links * 2.5e10 = 4.5e11 B/s one way, 2 us per
 * step): AllReduce of 1e9 bytes: 2 * 1e9 * 7/8 / 4.5e11 = 3.889 ms
 * (bandwidth-bound); of 1e4 bytes: 2 * 2 us = 4 us (latency-bound).
 * AllToAll of 8e6: 8e6 * 7 / (64 * 4.5e11) = 1.944 us vs 2 us. */
static void switch_both_regimes(void **state)
{
    (void)state;
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    rl_comm big = must(&h, RL_ALLREDUCE, 1e9, 8, 1);
    assert_rel(big.time_s, 3.8888888889e-3, 1e-9);
    assert_false(big.latency_bound);
    rl_comm small = must(&h, RL_ALLREDUCE, 1e4, 8, 1);
    assert_rel(small.time_s, 4e-6, 1e-12);
    assert_true(small.latency_bound);
    rl_comm a2a = must(&h, RL_ALLTOALL, 8e6, 8, 1);
    assert_rel(a2a.bandwidth_s, 1.9444444444e-6, 1e-9);
    assert_true(a2a.latency_bound);
    assert_int_equal(big.levels, 1);
}

/* Two levels: 16 H100 = 2 HGX nodes of 8 (400 Gb/s = 5e10 B/s NIC per GPU,
 * 5 us).  AllReduce of 1e9: inner 2 * 1e9 * 7/8 / 4.5e11 = 3.889 ms plus
 * outer 2 * (1e9 / 8) * (1/2) / 5e10 = 2.5 ms = 6.389 ms (by hand).  A
 * group of 2 chips 8 apart (one per node) is all network: AllReduce of 1e6:
 * 2 * max(5 us, 1e6 * 1/2 / 5e10 = 10 us) = 20 us. */
static void two_level(void **state)
{
    (void)state;
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    rl_comm c = must(&h, RL_ALLREDUCE, 1e9, 16, 1);
    assert_int_equal(c.levels, 2);
    assert_rel(c.time_s, 6.3888888889e-3, 1e-9);
    rl_comm s = must(&h, RL_ALLREDUCE, 1e6, 2, 8);
    assert_int_equal(s.levels, 2);
    assert_rel(s.time_s, 20e-6, 1e-12);
    /* the same pair inside one node: 2 * max(2 us, 1e6 / 2 / 4.5e11) = 4 us */
    assert_rel(must(&h, RL_ALLREDUCE, 1e6, 2, 1).time_s, 4e-6, 1e-12);
}

/* Appendix C (seed 000): 8-way Megatron on v5e's 1D ICI is latency-bound
 * below bytes / 8 / 4.5e10 < 1 us, i.e. 360 kB (exact: 8 * 4.5e10 * 1e-6).
 * B = 16, D = 8192 int8 activations are 131,072 bytes < 360 kB: the
 * AllReduce is latency-bound; 1 MB is not. */
static void appendix_c_threshold(void **state)
{
    (void)state;
    rl_hw h = v5e_ring();
    assert_rel(rl_comm_latency_threshold(&h, 8), 360e3, 1e-12);
    assert_true(must(&h, RL_ALLREDUCE, 16.0 * 8192, 8, 1).latency_bound);
    assert_false(must(&h, RL_ALLREDUCE, 1e6, 8, 1).latency_bound);
    /* the threshold sits exactly where the two terms meet */
    rl_comm at = must(&h, RL_ALLGATHER, 360e3, 8, 1);
    assert_rel(at.latency_s, at.bandwidth_s, 1e-12);
}

static void errors(void **state)
{
    (void)state;
    char err[512];
    rl_comm c;
    rl_override none = {"ici_bw", "0"};
    rl_hw h0 = load_hw("tpu-v5e", &none, 1);
    assert_int_equal(rl_comm_time(&h0, RL_ALLGATHER, 1e6, 4, 1, &c, err, sizeof err), -1);
    assert_non_null(strstr(err, "ici_bw"));
    /* 12 H100 across nodes of 8: 8 does not divide 12 */
    rl_hw h = load_hw("h100-sxm", NULL, 0);
    assert_int_equal(rl_comm_time(&h, RL_ALLREDUCE, 1e6, 12, 1, &c, err, sizeof err), -1);
    assert_non_null(strstr(err, "domain_chips"));
    assert_int_equal(rl_comm_time(&h, RL_ALLREDUCE, -1, 4, 1, &c, err, sizeof err), -1);
}

/* A wrong expectation (the ring AllGather at half its time) must fail. */
static void wrong_expectation(void **state)
{
    (void)state;
    rl_hw h = v5e_ring();
    assert_rel(must(&h, RL_ALLGATHER, 8e6, 8, 1).time_s, 44.4e-6, 0.01);
}

static void harness_can_fail(void **state)
{
    (void)state;
    const struct CMUnitTest bad[] = {cmocka_unit_test(wrong_expectation)};
    assert_int_not_equal(run_group_in_child(bad, 1, "must_fail"), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ring_allgather_both_regimes),
        cmocka_unit_test(torus_both_regimes),
        cmocka_unit_test(torus_axes),
        cmocka_unit_test(switch_both_regimes),
        cmocka_unit_test(two_level),
        cmocka_unit_test(appendix_c_threshold),
        cmocka_unit_test(errors),
        cmocka_unit_test(harness_can_fail),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
