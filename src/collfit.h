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
 * bytes; int8: 1), latency is milliseconds per call (the data's README).  Only
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
    double bytes;   /* whole array */
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

/* |predicted / measured - 1| of every sample of `impl` (NULL: all) through
 * t's rows of that impl: median and p90 into *median, *p90; returns the
 * count (0: none, both 0).  held_out 0: the fit (M) alone; 1: each
 * interior point predicted by the log-log interpolation between its two
 * neighbours (itself held out; end points are not counted), the error of
 * interpolating between measured sizes twice as far apart as the table's. */
size_t rl_collfit_error(const rl_collectives *t, const rl_coll_sample *s, size_t n,
                        const char *impl, int held_out, double *median, double *p90);

#endif
