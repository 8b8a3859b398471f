/* collectives.h — measured collective times of a hardware spec.
 *
 * Owns the `collectives` field of a hardware spec: per operation, group size
 * and implementation, an alpha-beta fit of measured collective latencies
 * with a small-message floor, and the time it gives.  Uses Lua.
 *
 *   collectives = {
 *     source = "NVIDIA AIConfigurator ... (Apache-2.0)",   -- where the times come from
 *     fitted_on = "16-bit rows of silicon/h100_sxm/...",  -- which rows
 *     impl = "nccl",       -- the rows that time a plan's collectives (not given: below)
 *     rows = {
 *       { op = "AllReduce", impl = "nccl", gpus = 8,
 *         latency_s = 2.2e-5, bw = 2.2e11, floor_s = 1.56e-5,   -- the fit (M)
 *         points = { {512, 1.559e-5}, {1024, 1.56e-5}, ... } }, -- {size, seconds}, measured
 *       ...
 *     },
 *   }
 *
 * A row's sizes (`points`, `switches`, bw) are nccl-tests' "size", the
 * unit AIConfigurator's collector records (collector/network/
 * collect_nccl.py runs `<op>_perf -b SIZE -e SIZE -t num_gpus` and writes
 * message_size = SIZE / bytes per element): for all_gather the gathered
 * output, for reduce_scatter its input, for all_reduce the array, which is
 * comm.h's convention (the whole array); for alltoall EACH RANK's send
 * buffer, of which it sends SIZE / nranks to every peer (nccl-tests
 * src/alltoall.cu, AlltoAllGetCollByteCount: paramcount = count / nranks,
 * sendcount = nranks * paramcount), 1/g of comm.h's bytes, which sum the
 * group's g buffers.  AIConfigurator's own speed-of-light for its NCCL
 * table reads it so: alltoall moves message_size x (n-1)/n per GPU, as
 * all_gather does (aic-core/rust/aiconfigurator-core/src/operators/
 * communication.rs, nccl_sol_ms).  rl_coll_row_bytes maps comm.h's bytes
 * to a row's size; every lookup of a measured row goes through it.  Until
 * stop 51 this header called nccl-tests' alltoall size "the AllToAll's
 * total" and read the rows at comm.h's bytes, g times the size measured
 * (issue 12: DeepSeek-V3 ep8 on 8 H200 at batch 1024, a 117 MB dispatch
 * read at 117 MB, 0.358 ms, 41 GB/s per GPU, where each GPU's 14.7 MB
 * buffer reads 0.0652 ms, 225 GB/s: silicon/h200_sxm nccl_perf.csv.gz,
 * alltoall half 8 GPUs, 4194304 and 8388608 elements, 0.04028 and 0.07344
 * ms).
 *
 * One collective of `bytes` (comm.h's whole array, read at
 * rl_coll_row_bytes) over `gpus` GPUs
 * takes, inside the measured sizes, the measured time interpolated linearly
 * in bytes between the two nearest points (the alpha-beta line through
 * them, (M)'s form, exact inside one algorithm and protocol; log-log until
 * stop 39, which reads a floor-to-bandwidth knee high); below the
 * smallest measured size, the smallest size's time (the floor: NCCL's
 * small-message times are flat there); above the largest, or for a row
 * without points, the alpha-beta fit (below).  The points are looked up
 * through their monotone envelope (the suffix minimum in seconds): a
 * size measured slower than some larger size takes the fastest larger
 * size's time, since an engine can always pad a message to that size (a collective of zeros costs what it costs).  The
 * measured rows are not monotone: TensorRT-LLM's AllReduce over 8 A100s
 * takes 83.2 us at 1 MiB and 53.6 us at 2 MiB (custom_allreduce_perf.csv.gz),
 * vLLM's graph AllReduce over 8 A100s 14.9 us at 4 KiB and 6.3 us at 8 KiB,
 * NCCL's over 8 H100s 18.98 us at 16 KiB and 18.44 us at 32 KiB.  With a
 * 10% noise allowance (the kernel tables' rule until stop 24, which now fit
 * them by isotonic regression: ktable.h) the step of LLaMA-3-70B at batch 1
 * on 8 H100 (16 KiB AllReduces) took longer than at batch 2 (32 KiB) by
 * 2.9% over 160 AllReduces, and batch 1 fell off pareto's frontier (stop
 * 19 tester finding 4).  A capped size's
 * lookup reads `interpolated`; the stored points stay as measured.
 *
 * A row may list `switches = { bytes, ... }`: sizes at which the
 * implementation changes algorithm (vLLM's one-stage / two-stage kernels,
 * its custom AllReduce's size limit, symmetric memory, NCCL: collfit.h).
 * They cut the points into regions (a size equal to a switch belongs to
 * the region above it), and a lookup never interpolates across one: inside
 * a region, between its two nearest points; past a region's last (or
 * before its first) point, toward a switch, the log-log line through its
 * two nearest points with the slope clamped to [0, 1] (time does not fall
 * with size: an engine can pad; nor grow faster than size: it can split a
 * message in two), flat with one point (`extrapolated`); a region without
 * points interpolates across the switch (`interpolated`).  The envelope
 * still bounds the result by the next larger point's capped time, and a
 * region's first sizes never fall below the region under it at its switch
 * (monotone).  Without switches the lookup is the one above.  Above
 * the points, the alpha-beta fit
 *
 *   t = max(floor_s, latency_s + bytes / bw)                          (M)
 *
 * (Hockney, "The communication challenge for MPP", Parallel Computing
 * 20(3), 1994: alpha = latency_s, beta = 1/bw; floor_s is the smallest time
 * measured).  (M) alone misses NCCL's protocol switches (LL, LL128, Simple)
 * and the engines' switch from their own AllReduce kernel to NCCL at a size
 * threshold: collfit.h gives both errors.  `op` is one of "AllGather",
 * "ReduceScatter", "AllReduce", "AllToAll" (rl_collective_name).  `impl`
 * names the implementation a row was measured with: "nccl", or an engine's
 * own AllReduce ("trtllm", "vllm_graph", "vllm_eager").
 *
 * Which rows time a plan's collectives: the table's `impl` when the spec
 * (or --set hw.collectives.impl=) names one, for every operation ("none":
 * the alpha-beta model for all).  Not named, an AllReduce runs on the
 * selected serving engine's own AllReduce rows where the profile has them
 * for that group size (rl_coll_follow_engine), every other operation (and
 * an AllReduce without such a row) on "nccl": TensorRT-LLM reduces a
 * layer's output with its AllReduce op under AllReduceStrategy AUTO, which
 * picks its own one-shot / two-shot NVLink kernels or NCCL by message size
 * and group (TensorRT-LLM cpp/tensorrt_llm/thop/allreduceOp.cpp,
 * AllreduceOp's strategy selection); vLLM's tensor_model_parallel_all_reduce
 * runs its custom AllReduce for a message of at most max_size bytes over 2
 * GPUs or a fully NVLink-connected group, NCCL otherwise
 * (vllm/distributed/device_communicators/custom_all_reduce.py,
 * should_custom_ar).  The engines' rows were measured through those very
 * calls, so they hold each engine's own switch: AIConfigurator's collector
 * (collector/collect_all_reduce.py) times TensorRT-LLM's AllReduce with
 * strategy AUTO and vLLM's tensor_model_parallel_all_reduce inside a CUDA
 * graph ("vllm_graph") and eagerly ("vllm_eager"), and AIConfigurator's own
 * model times both engines' tensor-parallel AllReduce from these rows,
 * keeping vLLM's graph rows (sdk/operations/communication.py,
 * CustomAllReduce and load_custom_allreduce_data; github.com/ai-dynamo/
 * aiconfigurator).  vLLM therefore follows "vllm_graph": decode steps run
 * under CUDA graphs.  AllGather, ReduceScatter and AllToAll go through NCCL
 * in both engines (AIConfigurator's NCCL op).  A group size without a row,
 * a group crossing NVLink domains and point-to-point fall back to the
 * alpha-beta model of comm.h.  `roofline-collfit`
 * (tools/collfit.c, `make collectives`) writes the rows from
 * AIConfigurator's tables. */
#ifndef RL_COLLECTIVES_H
#define RL_COLLECTIVES_H

#include <stddef.h>

#include <lua.h>

#include "ktable.h"

typedef enum {
    RL_ALLGATHER,
    RL_REDUCESCATTER,
    RL_ALLREDUCE,
    RL_ALLTOALL,
    RL_P2P,
} rl_collective;

/* "AllGather", "ReduceScatter", "AllReduce", "AllToAll", "P2P". */
const char *rl_collective_name(rl_collective c);

#define RL_COLL_ROWS 32
#define RL_COLL_POINTS 32
#define RL_COLL_SWITCHES 4

typedef struct {
    rl_collective op;
    char impl[24];    /* "nccl", "trtllm", ... */
    long long gpus;   /* group size, >= 2 */
    double latency_s; /* alpha, seconds (>= 0) */
    double bw;        /* 1 / beta, bytes/s (> 0) */
    double floor_s;   /* smallest time, seconds (>= 0) */
    int np;           /* measured points (0: the fit alone) */
    double bytes[RL_COLL_POINTS];   /* increasing, > 0 */
    double seconds[RL_COLL_POINTS]; /* > 0 */
    double capped[RL_COLL_POINTS];  /* seconds under the monotone envelope (above):
                                     * rl_coll_envelope sets it, lookups read it */
    int nsw;                        /* algorithm switches (0: none) */
    double sw[RL_COLL_SWITCHES];    /* increasing bytes: a size >= sw[k] runs the
                                     * algorithm of region k + 1 (below) */
} rl_coll_row;

typedef struct {
    int present;        /* the spec gave `collectives` */
    char source[256];   /* where the measured times come from */
    char fitted_on[256];
    char impl[24];      /* rows used for a plan's collectives (default "nccl") */
    int impl_given;     /* the spec named impl: it times every operation */
    char engine_impl[24]; /* the selected engine's AllReduce rows ("" none):
                           * rl_coll_follow_engine */
    int n;
    rl_coll_row row[RL_COLL_ROWS];
} rl_collectives;

/* The row that times operation `op` over `gpus` GPUs (the choice above),
 * or NULL when there is none (or t is absent). */
const rl_coll_row *rl_coll_find(const rl_collectives *t, rl_collective op, long long gpus);

/* The impl whose rows an AllReduce of t reads first (the engine's, or
 * t->impl; rl_coll_find falls back to t->impl's for a group without one). */
const char *rl_coll_allreduce_impl(const rl_collectives *t);

/* Let t's AllReduce follow serving engine `engine` (NULL or "": none, as
 * under --ideal): the rows named above for "trtllm" and "vllm" where t has
 * them, else nothing (NCCL's rows). */
void rl_coll_follow_engine(rl_collectives *t, const char *engine);

/* Set r->capped from r's points (the envelope above). */
void rl_coll_envelope(rl_coll_row *r);

/* Time of `bytes` (>= 0) through row r, seconds: the points (capped)
 * inside their range, the smallest point's below it, (M) above it (see
 * above).  *prov (may be NULL): `extrapolated` outside the measured sizes
 * (a row of points), `interpolated` when a point it reads was capped, else
 * `measured`. */
double rl_coll_time(const rl_coll_row *r, double bytes, rl_provenance *prov);

/* Why rl_coll_time's provenance is what it is (review41 F1: timed_by words
 * it): MEASURED a measured size or between two points of one algorithm's
 * region; OUTSIDE beyond the measured sizes (the smallest size's time
 * below, (M) above); TOWARD extrapolated inside the measured range from
 * the points on one side of a size, up to (or down from) the algorithm
 * switch *sw; ACROSS interpolated across the switch *sw (no point in the
 * size's region); ENVELOPE a point it reads was capped by a larger size's
 * time (the monotone envelope). */
typedef enum {
    RL_COLL_WHY_MEASURED,
    RL_COLL_WHY_OUTSIDE,
    RL_COLL_WHY_TOWARD,
    RL_COLL_WHY_ACROSS,
    RL_COLL_WHY_ENVELOPE,
} rl_coll_why;

/* rl_coll_time's reason for `bytes` through r; *sw (may be NULL) the
 * switch for TOWARD and ACROSS, else 0. */
rl_coll_why rl_coll_reason(const rl_coll_row *r, double bytes, double *sw);

/* The size at which a measured row reads a collective of `bytes` (comm.h's
 * convention: the whole array, summed over the group) over `gpus` GPUs:
 * nccl-tests' size (above), bytes / gpus for an AllToAll (each rank's send
 * buffer), bytes for every other operation. */
double rl_coll_row_bytes(rl_collective op, double bytes, long long gpus);

/* (M) alone. */
double rl_coll_fit_time(const rl_coll_row *r, double bytes);

/* The piecewise rule (above) over r's points with times sec (r->seconds or
 * r->capped), point `skip` left out (-1: none): inside the region of
 * `bytes`, between its points; else extrapolated from the region's two
 * nearest points; a region without another point interpolates across.
 * *how (may be NULL): 0 between points of the region, 1 extrapolated in it,
 * 2 across a switch.  Needs a point other than skip. */
double rl_coll_piecewise(const rl_coll_row *r, const double *sec, double bytes, int skip,
                         int *how);

/* Read the table on top of L's stack into *out (present = 1).  Errors name
 * "ORIGIN: field 'collectives.rows[3].bw': reason": unknown keys, an
 * unknown op, gpus < 2, negative or non-finite times, bw <= 0, points not
 * {bytes, seconds} > 0 with bytes increasing, more than RL_COLL_POINTS
 * points, the same (op, impl, gpus) twice, more than RL_COLL_ROWS rows,
 * no rows. */
int rl_collectives_read(lua_State *L, const char *origin, rl_collectives *out, char *err,
                        size_t errlen);

/* Push *t as the Lua table above. */
void rl_collectives_push(lua_State *L, const rl_collectives *t);

#endif
