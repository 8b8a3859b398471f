/* collfit.h — fit a hardware spec's `collectives` table (collectives.h) on
 * measured collective latencies.
 *
 * Owns reading NVIDIA AIConfigurator's collective tables (aiconfigurator-core
 * 0.12.0 systems/data, Apache-2.0; gzipped CSV as ../shared/data/silicon
 * holds them: nccl/nccl_perf.csv.gz with columns op_name, kernel_source,
 * nccl_dtype, num_gpus, message_size, latency; <engine>/
 * custom_allreduce_perf.csv.gz with allreduce_dtype instead of nccl_dtype),
 * the fit of (M) per (op, impl, gpus) with the measured points, and its
 * error.  Uses collectives, zlib, guard (files read).
 *
 * Units: message_size counts elements of the row's dtype (half, bfloat16: 2
 * bytes; int8: 1), of nccl-tests' size (an alltoall's: each rank's send
 * buffer, not comm.h's whole array; collectives.h), latency is milliseconds
 * per call (the data's README).  Only
 * 16-bit rows are fitted (activations travel in bf16/fp16).  op_name
 * all_gather, reduce_scatter, all_reduce, alltoall map to comm.h's
 * operations; impl is "nccl" for kernel_source NCCL, "trtllm" for TRTLLM,
 * "vllm_graph" / "vllm_eager" for vLLM_custom_graph / vLLM_custom_eager.
 *
 * The fit, per group of rows (x_i bytes, t_i seconds):
 *   floor_s = min t_i (the small-message floor);
 *   latency_s, 1/bw = the least-squares line a + b x in relative error,
 *     minimizing sum ((a + b x_i - t_i) / t_i)^2 over the rows with t_i >
 *     floor_s * (1 + RL_COLLFIT_KNEE) (the bandwidth-bound tail and the
 *     knee; the floor rows are the floor's), a clamped at >= 0 (then b
 *     refitted through the origin);
 *   points = every measured (bytes, seconds) of the group, by size (a size
 *     measured twice: the mean, an error when more than 2x apart). */
#ifndef RL_COLLFIT_H
#define RL_COLLFIT_H

#include <stddef.h>

#include "collectives.h"

/* Rows within this fraction of the floor are left to floor_s. */
#define RL_COLLFIT_KNEE 0.25

typedef struct {
    rl_collective op;
    char impl[24];
    long long gpus;
    double bytes;   /* nccl-tests' size: the whole array, an alltoall's one rank's
                     * send buffer (collectives.h, rl_coll_row_bytes) */
    double seconds; /* one call */
} rl_coll_sample;

/* Append the 16-bit rows of one table (gzip or plain CSV) to *s (*n rows,
 * *cap allocated; realloc'd, the caller frees).  Returns the rows added, or
 * -1 with err "FILE:LINE: column 'C': reason" (a missing column, an unknown
 * op, kernel_source or dtype, gpus < 2, a size or latency not > 0 or not
 * finite, an unreadable file). */
long rl_collfit_read(const char *path, rl_coll_sample **s, size_t *n, size_t *cap, char *err,
                     size_t errlen);

/* Fit every (op, impl, gpus) group of s into out's rows (out's source,
 * fitted_on and impl are left to the caller; present set).  Returns 0, or -1
 * with err set (more than RL_COLL_ROWS groups, a group of fewer than 2
 * rows). */
int rl_collfit_fit(const rl_coll_sample *s, size_t n, rl_collectives *out, char *err,
                   size_t errlen);

/* The "# version: X" header of a table into v (n bytes); "" if none or
 * unreadable. */
void rl_collfit_table_version(const char *path, char *v, size_t n);

/* vLLM's AllReduce switches (collectives.h `switches`) on t's vllm_graph
 * and vllm_eager rows, from the dispatch of the vLLM release that measured
 * them (`version`, the table's "# version:" header) on `gpu` (the silicon
 * folder's name).  tensor_model_parallel_all_reduce runs, in order (vLLM
 * v0.14.0, commit b17039bcc, and v0.24.0, commit ee0da84ab, identical but
 * for the last `<=`; vllm/distributed/device_communicators/
 * cuda_communicator.py CudaCommunicator.all_reduce; NCCL symmetric memory
 * and FlashInfer are off by default, envs.py VLLM_USE_NCCL_SYMM_MEM = 0,
 * VLLM_ALLREDUCE_USE_FLASHINFER = 0):
 *   1. the custom AllReduce while bytes < max_size (custom_all_reduce.py
 *      should_custom_ar), max_size 8 MiB, or min(8 MiB,
 *      CUSTOM_ALL_REDUCE_MAX_SIZES[capability][gpus]) when symmetric memory
 *      is up (all_reduce_utils.py: sm90 2: 64 MiB, 4: 32 MiB, 8: 256 KiB;
 *      sm100 2: 2 MiB, 4: 2 MiB, 8: 1 MiB); its kernel is one-stage below
 *      512 KiB over 4 GPUs and 256 KiB over 8 (always over 2), two-stage
 *      above (csrc/custom_all_reduce.cuh, CustomAllreduce::allreduce);
 *   2. torch symmetric memory while bytes < (v0.14.0) or <= (v0.24.0)
 *      SYMM_MEM_ALL_REDUCE_MAX_SIZES[capability][gpus] (symm_mem.py
 *      should_use_symm_mem; sm90 2: 64 MiB, 4: 32 MiB, 8: 64 MiB; sm100 2:
 *      8 MiB, 4: 32 MiB, 8: 128 MiB), one algorithm per group size; up
 *      when VLLM_ALLREDUCE_USE_SYMM_MEM (default 1), the capability has a
 *      row there and the NVLink multicast handle is non-zero;
 *   3. NCCL.
 * a100_sxm (sm80: no symmetric-memory row), h100_sxm and h200_sxm (sm90),
 * b200_sxm (sm100) follow the source.  gb200 (sm100) measures no change at
 * sm100's 2 MiB custom limit over 2 or 4 GPUs and a 2.5x step from 4 to
 * 8 MiB (24.7 -> 62.2 us over 2 GPUs, graph): its rows ran with symmetric
 * memory down (symm_mem.py drops it when the rendezvous fails or the
 * multicast handle is 0; which, the data do not say), so its switches are
 * those of step 1 with max_size 8 MiB: inferred from the data, and
 * docs/model.md says so.  Returns the rows set, or -1 (nothing set)
 * for a gpu or version not listed. */
int rl_collfit_vllm_switches(rl_collectives *t, const char *gpu, const char *version);

/* |predicted / measured - 1| of every sample of `impl` (NULL: all) through
 * t's rows of that impl: median and p90 into *median, *p90; returns the
 * count (0: none, both 0).  held_out 0: the fit (M) alone; 1: each
 * interior point predicted by the lookup of collectives.h from the other
 * points (itself held out; end points are not counted): between its two
 * neighbours, or, next to one of the row's switches, from its own
 * region's points (rl_coll_piecewise over the measured times, without the
 * envelope), the error of interpolating between measured sizes twice as
 * far apart as the table's. */
size_t rl_collfit_error(const rl_collectives *t, const rl_coll_sample *s, size_t n,
                        const char *impl, int held_out, double *median, double *p90);

#endif
