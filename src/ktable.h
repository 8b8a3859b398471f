/* ktable.h — a measured kernel-latency grid over up to RL_KT_AXES shape axes,
 * its interpolation, and its compact Lua form.
 *
 * Owns one table of an engine profile (gemm over m, n, k; prefill attention
 * over batch, prompt, heads, head_dim; ...): the axes (increasing positive
 * values), one latency per grid node, and which nodes were filled rather
 * than measured.  Uses Lua (read) and stdio (write).
 *
 * Lookup of a shape x (one value per axis):
 *  - inside the grid: multilinear interpolation of log(latency) in
 *    log(shape), i.e. the latency is a product of per-axis power laws between
 *    neighbouring nodes (GEMM and attention times are near power laws of
 *    their dimensions, so straight lines in log-log space; this is the
 *    interpolation AIConfigurator's own perf database uses in log space, and
 *    an exact reproduction of any t = c * prod x_i^a_i).  `measured` when x
 *    falls on a measured node, `interpolated` otherwise;
 *  - outside the grid: x is clamped to the grid on every axis (the nearest
 *    edge point xc), and the latency there is scaled by the operator's ideal
 *    roofline time ratio ideal(x) / ideal(xc): the edge point's efficiency is
 *    held, so large shapes extrapolate along the roofline.  `extrapolated`.
 *    Without an ideal function the edge latency is held.
 *  - THE LATENCY FLOOR: a time is never below the table's fastest measured
 *    node (its operator and dtype's least latency, the launch and pipeline
 *    start-up every kernel pays, whatever its size).  Only shapes below the
 *    grid (and filled nodes) reach it: interpolation stays at or above the
 *    least of its corners, but the roofline ratio carries a shape far below
 *    the grid toward zero (tester22 F5: a one-dimension model's H100 decode
 *    step took 0.11 us, 11 operators each far under the smallest GEMM
 *    measured, and `size` gave 4.5e8 requests/s on one GPU; now 20.3 us).
 *    The GEMM tables' least rows are 1.7-2.6 us on the shipped GPUs' bf16
 *    variants (up to 12 us for others), decode attention's 5-17 us: the
 *    few-microsecond launch latency of a CUDA kernel.  Provenance stays
 *    `extrapolated`.
 *  - every table is fitted non-decreasing along its batched axes (those
 *    that count tokens or sequences: m, tokens, streams, batch, isl,
 *    context; streams = batch x the KV heads a chip holds, fixed for a
 *    model) by isotonic median regression (rl_kt_isotonic): at import
 *    (silicon.h: the measured nodes, then again with the filled ones) and
 *    when read from a profile (rl_kt_read: the identity on a profile
 *    `calibrate --tables` wrote, which is already so).  Why: a kernel over
 *    more tokens or sequences, the other axes held, is no less work, and
 *    an engine can always run fewer padded to more (vLLM and TensorRT-LLM
 *    pad batches to their CUDA-graph sizes), so a latency that falls as
 *    the batch grows is timing noise; left in, it made a step faster at a
 *    larger batch (the vLLM H100 bf16 fused gate/up GEMM, n 7168, k 8192,
 *    measured 47.8 us at m = 6 and 43.4 us at m = 7; tester14 F3a:
 *    h100-sxm tp2 llama3-8b batch 2 3.86 ms, batch 3 3.77 ms) and a decode
 *    step faster at a longer context (tester13 #7).  The fit: per chain
 *    (one batched axis varying, the others held), the non-decreasing
 *    sequence nearest the ln latencies in sum of absolute deviations,
 *    computed by pool adjacent violators with each pooled block valued at
 *    the median of its nodes (Barlow, Bartholomew, Bremner & Brunk,
 *    "Statistical Inference under Order Restrictions", Wiley 1972, ch. 1,
 *    PAVA; Robertson & Wright, "Multiple isotonic median regression",
 *    Annals of Statistics 1(3), 1973, the median version; Robertson,
 *    Wright & Dykstra, "Order Restricted Statistical Inference", Wiley
 *    1988).  Each node counts once (its value is already the geometric mean
 *    of the configurations on it); an even block takes the lower median
 *    (timing noise only slows a kernel).  A run of nodes
 *    that falls is replaced by its median, so a spike is dropped rather
 *    than averaged in (H100 vLLM bf16, n 7168, k 8192: 47.8 us at m = 6,
 *    43.4 us at m = 7).  A fall most lines of a table show is no spike
 *    but the engine's own step, and is kept (rl_kt_find_steps, below:
 *    stop 41; the b200 vLLM fp8 GEMMs' m = 1, 24.7 us at n = k = 4096
 *    against 9.2 us at m = 2, was pooled down before).  Measured before choosing (make
 *    accuracy-kernels, docs/validation.md): held-back |error| over the 105
 *    classes, geometric means of median / p90, 2.73% / 11.06% under the
 *    rule before (a node at most 10% above the fastest larger measured
 *    one, RL_KT_NOISE, now removed), 2.57% / 10.89% with this fit, 2.75% /
 *    11.28% with the least-squares (mean) fit, 2.72% / 11.28% with the
 *    exact suffix minimum.  Tables with two batched axes (attention:
 *    streams and isl or context; MLA: batch and isl or context) are
 *    fitted along each in table order, and the round of passes repeated
 *    until no chain falls (rl_kt_falls), at most RL_KT_ROUNDS rounds:
 *    fitting one axis can break the other where holes take no part (a
 *    node whose neighbour is a hole is left standing by that pass:
 *    test_ktable `test_two_axis_rounds`, worked by hand).  On a grid
 *    without holes one round was always enough (the 641 tables of make
 *    profiles, stop 25; docs/model.md); with holes 19 of them never
 *    settled (still falling after 300 rounds in a trial build).  Should a
 *    chain still fall after the last round, each node takes the least
 *    latency at or above it along the batched axes (the suffix minimum
 *    over the upper set), which is non-decreasing along every one of them
 *    by construction: the result never falls, whatever the data.  (A
 *    least-squares bivariate isotonic regression, Dykstra & Robertson,
 *    "An algorithm for isotonic regression for two or more independent
 *    variables", Annals of Statistics 10(3), 1982, cycles one-axis fits
 *    with correction terms to the L2 projection; we keep the median fit,
 *    which drops spikes, and its plain cycle.)  The
 *    other axes are the model's structure (n, k, group, head_dim, heads)
 *    or the layout (tp_share, ep_share): there a smaller shape may run
 *    another kernel, and in the AIConfigurator tables it often measures
 *    slower (neighbouring measured nodes more than 10% slower than the
 *    next larger one: group 12-15% of pairs in H100 TRT-LLM fp8 and A100
 *    vLLM decode, head_dim 13-15% in H100 TRT-LLM and B200 vLLM fp8
 *    attention, against 0-3% along isl and context and 0-8% along
 *    streams), so they are not fitted.  A measured node keeps provenance
 *    `measured`; its stored latency is the fit's.
 *
 * Lua form (4 significant digits):
 *
 *   gemm = { axes = { "m", "n", "k" },
 *            m = { 1, 2, 4, ... }, n = { ... }, k = { ... },
 *            values_us = { ... },  -- prod(len) latencies in microseconds, last axis fastest
 *            cut = { m = 1 },      -- optional: a step along a batched axis (rl_kt_find_steps)
 *            filled = { 17, ... }, -- optional: 1-based nodes filled, not measured
 *          }
 *
 * As rl_kt_write writes it since stop 46 (issue 12: each shipped profile
 * <= 1 MB of Lua, read in under 100 ms): `filled` a string in which a
 * run of consecutive filled nodes is one range, first-last ("17 20-31"),
 * and a latency of 10,000 us or more whose whole form is shorter than
 * "%.4g"'s (1.234e4, 2.345e5) written so (12340, 234500): the same
 * number.  The filled lists were 29% of h100-sxm-trtllm.lua (345 KB of
 * 1.195 MB, 62,449 node numbers in 8,561 runs) and the e-form latencies
 * 17,137 of its 138,004.  The reader takes a range in `filled` alone;
 * it reads a plain decimal by the exact fast path of strtod (ktable.c
 * decimal), which was half of a GPU preset's load (callgrind).  Pruning
 * grid nodes the interpolation reproduces was tried first and kept 137,828
 * of those 138,004 nodes at 0.5% (125,780 at 5%): a whole plane of a
 * measured grid is rarely a straight line in log-log to 0.5%.
 *
 * `values` (seconds) may stand for `values_us`, exactly one of the two
 * given: rl_kt_write writes microseconds since stop 26, a third fewer
 * characters ("12.34" against "1.234e-5"), which keeps b200-vllm under
 * 1 MB with attention's group nodes at 3 * 2^i (silicon.c subsampled);
 * profiles in seconds read as before.  `values`, `values_us` and `filled`
 * may also be strings of numbers separated by spaces, commas or newlines;
 * rl_kt_write writes them so (Lua long strings), as Lua's parser takes
 * about ten times longer over the same numbers as table constants (a
 * 90,000-value profile: ~110 ms as constants). */
#ifndef RL_KTABLE_H
#define RL_KTABLE_H

#include <stddef.h>
#include <stdio.h>

#include <lua.h>

#define RL_KT_AXES 6
#define RL_KT_AXIS_MAX 80
#define RL_KT_MEMO 8 /* values per axis in rl_ktable.memo */

typedef enum {
    RL_PROV_ROOFLINE,     /* no table: the roofline (ideal or efficiency-scaled) */
    RL_PROV_MEASURED,     /* a measured grid node */
    RL_PROV_INTERPOLATED, /* inside the grid, between nodes (or on a filled node) */
    RL_PROV_EXTRAPOLATED, /* outside the grid on some axis */
    RL_PROV_DERIVED,      /* no table of its dtype: another dtype's measured efficiency
                             at its shape applied to its roofline (engines.h DERIVED);
                             or a measured time moved to what no table measured
                             (rl_provenance_moved) */
    RL_PROV_COUNT
} rl_provenance;

typedef struct {
    int naxes;
    char axis_name[RL_KT_AXES][24];
    int len[RL_KT_AXES];
    double axis[RL_KT_AXES][RL_KT_AXIS_MAX]; /* increasing, > 0 */
    double logaxis[RL_KT_AXES][RL_KT_AXIS_MAX]; /* ln(axis), set by rl_kt_alloc */
    size_t n;                                /* prod(len) nodes */
    double *logv;          /* [n] ln(latency in seconds), last axis fastest */
    unsigned char *filled; /* [n] 1 where the node was filled, not measured */
    double cut[RL_KT_AXES]; /* a documented kernel switch along the axis: nodes at
                               or below cut[a] and those above it run different
                               kernels (0: none); rl_kt_fill_holes never fills
                               across it (below); along a batched axis
                               (rl_kt_find_steps) rl_kt_isotonic fits each
                               side apart and the profile stores it (`cut`),
                               along another it is not stored */
    const unsigned char *kernel; /* [n] or NULL: the kernel that measured each node
                                    (1-254, the tables' kernel_source, where one
                                    kernel measured all its configurations; 0:
                                    not known, a hole, or several), for
                                    rl_kt_fill_holes only; the caller's array,
                                    set around the fill at import and NULL
                                    otherwise; not stored in a profile */
    int pairs;             /* axis 0 is RL_KT_PAIRS (set by rl_kt_alloc from its name) */
    double floor_s;        /* the fastest measured node's latency, exp of its ln
                              (the latency floor, rl_kt_time; 0 without one); NaN
                              until rl_kt_time first needs it, reset by rl_kt_alloc,
                              rl_kt_isotonic, rl_kt_fill_holes */
    /* a cache of rl_kt_time's cell search (like floor_s, written by the
     * lookup through a cast): per axis the last RL_KT_MEMO values strictly
     * inside the axis with their node and ln-weight, which depend on the
     * axis alone (fixed once rl_kt_alloc took its logs; it empties them).
     * The GEMMs of a decode step share their batch axis value and each its
     * n and k on every step, so most lookups find all three here (their
     * search and log: 2.5% of a calibrated tp8 step's instructions, h32step2). */
    struct rl_kt_memo {
        double v[RL_KT_MEMO], w[RL_KT_MEMO];
        int lo[RL_KT_MEMO], next;
    } memo[RL_KT_AXES];
} rl_ktable;

/* A table whose first axis is named RL_KT_PAIRS is keyed on the product of
 * the shape's axes 0 and 2 there, not on axis 0: for decode attention
 * (streams, context, group, head_dim) that is streams x group = batch x
 * query heads, the (sequence, query head) pairs, one thread block each in
 * TensorRT-LLM's masked multi-head attention kernel (engines.h
 * RL_TRTLLM_MMHA says why and where).  Callers pass shapes as always:
 * rl_kt_time converts, and `ideal` is called with shapes (axis 0 = the
 * pairs over axis 2); rl_kt_coord reads a shape's coordinate along an axis
 * of the table, rl_kt_set_coord sets it. */
#define RL_KT_PAIRS "pairs"
double rl_kt_coord(const rl_ktable *t, const double *x, int a);
void rl_kt_set_coord(const rl_ktable *t, double *x, int a, double v);

/* The ideal roofline time of the table's operator at shape x[naxes],
 * seconds (> 0), for extrapolation and hole filling. */
typedef double (*rl_kt_ideal_fn)(const double *x, const void *ctx);

/* "roofline" | "measured" | "interpolated" | "extrapolated" | "derived". */
const char *rl_provenance_name(rl_provenance p);

/* THE ONE RULE for a label of a time a table lookup gave (provenance
 * `lookup`) and the caller then `moved` (nonzero) to something no table
 * measured: a what-if chip's peak or bandwidth (engines.h
 * rl_engine_time_on), a what-if link (comm.c), the score matrix's traffic
 * of materialized attention, the pairs beyond causal of --non-causal, or
 * activations of another width than the tables' (ops.c time_from_table).
 * A measured or interpolated lookup so moved reads RL_PROV_DERIVED; any
 * other provenance (roofline, extrapolated, derived), or an unmoved
 * lookup, stays: a label never claims more than was measured (docs/
 * model.md, "Labels of moved times"). */
rl_provenance rl_provenance_moved(rl_provenance lookup, int moved);

/* Allocate the nodes of a table whose naxes, axis_name, len and axis are
 * set: every node starts as a hole (logv NaN, filled 0).  Returns 0, or -1
 * (err set) when out of memory or an axis is empty, too long, not
 * increasing or not positive. */
int rl_kt_alloc(rl_ktable *t, char *err, size_t errlen);

/* Free the nodes (the struct itself is the caller's). */
void rl_kt_free(rl_ktable *t);

/* Rounds of one-axis passes before the suffix minimum (above): random
 * 2- to 6-node-a-side grids with a third of their nodes holes settled
 * within 4. */
#define RL_KT_ROUNDS 8

/* A bracket whose latency ratio exceeds its roofline ratio (or 1) by this
 * factor, or falls below its inverse, spans a kernel switch
 * (rl_kt_fill_holes). */
#ifndef RL_KT_STEP
#define RL_KT_STEP 2.0
#endif

/* A bracket end more than this factor above both its other neighbour
 * along the axis and the bracket's other end, or below both, is a spike
 * the hole is not read from (rl_kt_fill_holes). */
#ifndef RL_KT_SPIKE
#define RL_KT_SPIKE 1.25
#endif

/* The row multiple a GEMM kernel's threadblock tile along m is made of
 * (rl_kt_fill_holes: a measured tile step): CUTLASS's tensor-core tiles
 * are whole MMA shapes, 16 rows on sm80 and sm90 (mma.sync m16n8k16) and
 * 64 or 128 on sm100 (tcgen05), so a tile boundary lies at a multiple of
 * 16. */
#define RL_KT_TILE_M 16.0

/* Fit t's ln latencies non-decreasing along its batched axes, in place,
 * by isotonic median regression (above), at most `rounds` rounds of
 * one-axis passes (RL_KT_ROUNDS; fewer in tests) before the suffix
 * minimum; holes (NaN) take no part and stay holes.  Returns the rounds
 * it ran (0: t was already non-decreasing), rounds + 1 when the suffix
 * minimum settled it, or -1 when out of memory (t then partly fitted). */
int rl_kt_isotonic(rl_ktable *t, int rounds);

/* A fall along a batched axis that most lines show is the engine's own
 * step, not noise, and is kept: where, between two neighbouring
 * coordinates of a batched axis a without a switch, the lower node is
 * more than RL_KT_FALL times the upper on a strict majority of the lines
 * measured at both (at least RL_KT_STEP_CHAINS of them; the other axes
 * held), t->cut[a] is set to the lower coordinate's value (the one pair
 * with the largest such majority where several are).  rl_kt_isotonic then
 * fits each side of it apart, rl_kt_fill_holes brackets no hole across
 * it, and the profile keeps it (`cut`, rl_kt_write).  Call on the measured
 * nodes, before the fit.  Why: the non-decreasing fit drops a fall as a
 * spike, which is right for a node or two (timing noise only slows a
 * kernel) but not for a fall on most lines of a table: vLLM's fp8 GEMM
 * on B200 measures m = 1 more than 2x slower than m = 2 on 280 of its 483
 * (n, k) lines (GB200: 365; the same CUTLASS kernel runs m = 1..16, vLLM
 * csrc/quantization/w8a8/cutlass/c3x/scaled_mm_sm100_fp8_dispatch.cuh),
 * and the fit read every m = 1 row at its m = 2 time (held back, a median
 * 58% fast; docs/validation.md, stop 41).  A table then reads slower at
 * m = 1 than at m = 2, as measured.  The factor a line must fall by,
 * RL_KT_FALL = 1.05, is a margin over timing noise, not a kernel switch's
 * 2x (RL_KT_STEP, which it was until stop 48): the strict majority is what
 * tells the engine's step from noise (a spike falls on a line or two; two
 * neighbouring rows of one tile's work differ by a median 0.8-1.9% in the
 * GEMM tables, vLLM's m = 2..16 on one CUTLASS configuration), and a fall
 * most lines show by 5% to 2x was pooled away all the same: TensorRT-LLM's
 * int4 weight-only GEMM on A100 measures m = 1 more than 1.05x m = 2 on
 * 173 of its 288 (n, k) lines (median 1.08x), and its held-back m = 1 rows
 * read a median 10% fast (19 of 57 beyond 15%; docs/validation.md, stop
 * 48).  5% is the median target of issue 12: a fall under it, pooled,
 * costs less than that.  The cuts it adds over the ten GPU x engine
 * pairs (A100 TensorRT-LLM's MMHA spike at 128 (sequence, query head)
 * pairs, stop 44's, among them) and what each did to the held-back
 * figures are listed in docs/validation.md, stop 48. */
#ifndef RL_KT_FALL
#define RL_KT_FALL 1.05
#endif
#ifndef RL_KT_STEP_CHAINS
#define RL_KT_STEP_CHAINS 3
#endif
int rl_kt_find_steps(rl_ktable *t);

/* 1 when some chain along a batched axis of t falls (a non-hole node
 * above the next non-hole node after it), else 0. */
int rl_kt_falls(const rl_ktable *t);

/* Node index of grid coordinates idx[naxes]. */
size_t rl_kt_index(const rl_ktable *t, const int *idx);

/* Fill every hole (NaN node), marking it filled; only measured nodes serve
 * as sources, so the order of filling does not matter:
 *  - a hole with measured nodes on both sides along some axis (the other
 *    coordinates held; the nearest measured one on each side, holes
 *    skipped) is interpolated in log-log between them, as a lookup between
 *    those two nodes would be; over several such axes, the mean of their
 *    ln interpolations weighted by the inverse of each bracket's width in
 *    ln(shape) (a geometric mean weighted 1 / width).  Why weighted: an
 *    interpolation's error grows with its bracket (a straight line in
 *    log-log misses the curvature and the steps of the kernel in between,
 *    more so over 16x than over 2x: GEMM m and MoE tokens are measured
 *    at steps of 1.25-2x, heads, tp and ep shares at 2-8x), so the nearer
 *    pair of measured neighbours is the better witness; it is not dropped,
 *    since one bracket alone picks up its own nodes' noise (the narrowest
 *    bracket alone, tried at stop 20, lost on GEMM bf16: p90 8.9% -> 9.8%).
 *    1 / width^2 (inverse of a curvature error) and the median over the
 *    axes were tried beside it (stop 30, docs/validation.md).  A bracket
 *    that spans a kernel switch is left out while another is not: its
 *    latency ratio (upper node over lower) above RL_KT_STEP times the
 *    larger of its roofline ratio ideal(upper) / ideal(lower) and 1, or
 *    below 1 / RL_KT_STEP.  One kernel's time grows no faster than its
 *    work (efficiency rises with size; a grid of ceil(work / wave) blocks
 *    at most doubles when the work doubles), so a steeper bracket holds
 *    two kernels (TensorRT-LLM decode attention: XQA up to group 32,
 *    masked MHA from 48, H100 bf16 512 streams, context 128, head_dim 64
 *    27.8 us at group 32 and 318 us at 48); and a larger shape at under
 *    half the smaller's time is a faster kernel or a spike.  Without an
 *    ideal function only the second test applies.  Held back (make
 *    accuracy-kernels, stop 34): GEMM / attention classes meeting the
 *    targets 44 -> 49 of 61, no class worse by more than 0.2 points.
 *    Along a bracket that is no switch the hole follows the line's
 *    curvature rather than its chord: the parabola in (ln shape, ln
 *    latency) through the bracket and the next measured node out on either
 *    side (each where that outer pair is no switch either), the mean of
 *    the two, kept between the bracket's two latencies.  A kernel's time
 *    leaving its launch floor is convex in log-log (flat, then rising to
 *    its work's power), so the chord reads high across it: held-back rows
 *    read a median +2.0% high on H100 vLLM prefill attention bf16 before.
 *    Not on GEMM tables (first axis m): their time is a staircase in
 *    ceil(m / tile), ceil(n / tile) (CUTLASS's threadblock tiles), where a
 *    parabola through three steps overshoots (H100 vLLM GEMM bf16 p90
 *    10.5% -> 11.2% with it); the chord stays.  Held back: every class
 *    but GEMM's median fell on H100 (docs/validation.md, stop 34);
 *    A bracket across a documented switch (t->cut: the engine's dispatch
 *    says which kernel runs on each side, silicon.c) never counts, nor
 *    does an outer node across one for the parabola (stop 39); on a GEMM
 *    table (first axis m) nor does one across a measured tile step: m0
 *    and m0 + 1 both on the axis, m0 a multiple of RL_KT_TILE_M (stop 44).
 *    The tables measure m on both sides of each tile boundary they probe
 *    (32 and 33, ..., 4352 and 4353: AIConfigurator's GEMM grid) because
 *    the time steps there (CUTLASS pads m up to its threadblock tile, a
 *    multiple of 16 rows); the rows show the step, median m0 / (m0 +
 *    1) 0.74 at 128 on H100 vLLM fp8, 0.82 at 256 on B200 vLLM fp8 (vLLM's
 *    SM100 fp8 dispatch switches from its 128 x 128 tiles to the default
 *    256 x 128 above m = 256, csrc/quantization/w8a8/cutlass/c3x/
 *    scaled_mm_sm100_fp8_dispatch.cuh), and a hole at 256 bracketed by 193
 *    and 257 read 257's slower time (B200 vLLM fp8 rows at m = 256 a
 *    median 12% high, docs/validation.md stop 43); the hole is filled from
 *    the brackets along n and k then, at its own m;
 *    on a GEMM table the chord's weight is the hole's place in the table's
 *    own profile along the axis, not in ln shape (fixTC): u(c0) = 0 and
 *    u(c_j+1) = u(c_j) + max(0, the lower median, over the lines measured
 *    at both, of ln t(c_j+1) - ln t(c_j)), weight (u(hole) - u(lo)) /
 *    (u(up) - u(lo)); ln shape where the profile is flat over the bracket
 *    or a step of it has no line measured at both ends.  Why: a GEMM's
 *    time is a staircase along m, n and k (whole CUTLASS threadblock
 *    tiles, above, and TensorRT-LLM's plugins run the tactic profiled at
 *    the next power of two of m, "mRounded = std::min(nextPowerOfTwo(m),
 *    MAX_PROFILE_M)", NVIDIA/TensorRT-LLM cpp/tensorrt_llm/plugins/
 *    common/gemmPluginProfiler.cpp getBestConfig), and a straight line in
 *    ln m puts a hole between two steps halfway up the step where the
 *    table's other lines measure which side of it the hole lies on: A100
 *    TensorRT-LLM int4_wo's median line steps 1.167x from m 64 to 80 and
 *    1.000x from 80 to 96, so a hole at 80 read about halfway up (its
 *    held-back rows' median |error| there 5.9%, now 3.4%).  No constant: the profile
 *    is the measured nodes' own.  Held back (make accuracy-kernels,
 *    docs/validation.md fixTC): A100 TensorRT-LLM GEMM p90 bf16 13.3% ->
 *    11.7%, int4_wo 15.7% -> 14.9%, A100 vLLM bf16 13.1% -> 11.8%; no
 *    GEMM class worse by more than 0.15 points, the other classes
 *    unchanged (the profile is the GEMM tables' only);
 *    where the tables name the kernel of each node (t->kernel), the hole
 *    runs the kernel a strict majority of its nearest measured neighbours
 *    ran (the one below and the one above along each axis; a tie decides
 *    nothing), and a bracket whose two ends ran different kernels, or both
 *    another kernel than the hole's, spans a switch (as the ratio test's);
 *    when every bracket it has ran another kernel, the hole is filled as
 *    an edge hole (below) from its own kernel's nodes.
 *    A bracket end that is a spike, its latency more than RL_KT_SPIKE
 *    (1.25) times both the next measured node beyond it along the axis and
 *    the bracket's other end, or under 1 / RL_KT_SPIKE times both, is
 *    stepped over: the bracket runs from the next measured node beyond it
 *    (stop 44).  A node that one neighbour on each side contradicts by a
 *    quarter is no witness of a shape between it and the other: the DeepSeek
 *    MLA decode tables measure 32 heads a chip about 1.5x both 16 and 64
 *    at large batch x context (B200 TensorRT-LLM bf16, batch 1024, context
 *    16384: 3273, 4669 and 3389 us at 16, 32, 64 heads), and a held-back
 *    64-head node read from the 32-to-128 bracket read 37% high.  1.25 was
 *    stated before measuring; along a batched axis the fit leaves no such
 *    node (a fitted chain never falls), so it acts on the shape axes.
 *    Held back (make accuracy-kernels and the every-7th split,
 *    docs/validation.md, stop 44): B200 decode MLA bf16 p90 16.1% -> 14.0%
 *    (7th: 15.8% -> 15.5%), GB200 15.6% -> 15.4% (7th: 16.3% -> 14.0%).  The axis that
 *    changes the kernel is the one whose bracket disagrees: vLLM on B200
 *    runs Triton attention at head_dim 192 and FlashInfer's TensorRT-LLM
 *    kernels at 128 and 256 (kernel_source), and a held-back head_dim-192
 *    node read its head_dim bracket, up to 10x faster (fp8-KV prefill
 *    rows there a median 38% fast before; stop 40, docs/validation.md);
 *    an outer node of another kernel shapes no parabola;
 *  - otherwise (a hole on the grid's edge on every axis it has neighbours
 *    along) from the measured nodes nearest to it (fewest grid steps): the
 *    geometric mean of their latencies each scaled by ideal(hole) /
 *    ideal(node) (their efficiencies averaged); only nodes on the hole's
 *    side of every documented switch, where there is one, and only nodes
 *    of the hole's kernel (above), where it has one and the table some.
 * The sources are the measured nodes as they stand: fit them first
 * (rl_kt_isotonic), or a spike (b200 vLLM fp8 GEMM: 8.6% of rows more than
 * 1.5x a larger-m row of the same n, k) spreads to its holes; a filled
 * node may then break the order, so fit again after.
 * Interpolation comes first because the roofline ratio is far off on the
 * launch floor (~15 us: a 1- to 16-token prompt at one head costs about
 * the same, its roofline time 2x or more apart), while measured latencies
 * are near power laws between neighbours (the lookup rule above).
 * Held back under `validate --holdout 5` (make accuracy-kernels), the rule
 * took H100 TRT-LLM's p90 |error| from 44% to 17% (MLA prefill, bfloat16),
 * 18% to 10% (MoE bfloat16), 8.9% to 4.7% (fp8 GEMM); docs/validation.md.
 * Returns the number of holes filled, or -1 when the table has no measured
 * node or memory runs out. */
long rl_kt_fill_holes(rl_ktable *t, rl_kt_ideal_fn ideal, const void *ctx);

/* hold 1: rl_kt_time on the calling thread reads the tables' caches
 * (rl_ktable.floor_s, memo) but writes none, so threads may time steps
 * on the same tables at once (size.c simulate_plans); the times are the
 * same either way (a cache).  hold 0: it fills them again. */
void rl_kt_hold_caches(int hold);

/* Latency at shape x[naxes], seconds, as described above; *prov (may be
 * NULL) gets its provenance.  `ideal` may be NULL (hold the edge latency). */
double rl_kt_time(const rl_ktable *t, const double *x, rl_kt_ideal_fn ideal, const void *ctx,
                  rl_provenance *prov);

/* Read the table at stack index idx into *out (allocated: rl_kt_free).
 * `field` names it in errors: "ORIGIN: field 'FIELD.values[3]': reason".
 * Returns 0 or -1 with err set and nothing allocated. */
int rl_kt_read(lua_State *L, int idx, const char *origin, const char *field, rl_ktable *out,
               char *err, size_t errlen);

/* Write the Lua form, indented by `indent` spaces, with no trailing comma
 * or newline.  Holes must be filled first. */
void rl_kt_write(FILE *f, const rl_ktable *t, int indent);

#endif
