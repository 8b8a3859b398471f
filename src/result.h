/* result.h — results as JSON documents (cJSON), shared by the CLI and Lua.
 *
 * Owns the keys of every result the tool prints (a contract: scripts rely on
 * them).  SI units throughout; keys carry their unit (_s, _bytes, _per_s).
 * Each builder returns a new cJSON object the caller frees, or NULL when
 * memory is exhausted.  Uses arch, step, memory, spec, cJSON. */
#ifndef RL_RESULT_H
#define RL_RESULT_H

#include <cjson/cJSON.h>

#include "spec.h"
#include "step.h"

/* `roofline info`: params_total, params_active, per-component params,
 * kv_bytes_per_token, weight_bytes, flops_per_token; with context > 0 also
 * attention_flops_per_token at that context. */
cJSON *rl_result_info(const rl_model *m, rl_precision p, long long context);

/* `roofline step`: mode ("calibrated" when h has efficiency tables, else
 * "ideal"), b_crit, max_batch and one row per batch size
 * (batch, context, step_s, tokens_per_s, tokens_per_s_per_chip,
 * weight_bytes, kv_bytes, total_bytes, fits, bound, and the three terms of
 * formula (1)).  Arguments must have passed rl_step_check. */
cJSON *rl_result_step(const rl_model *m, const rl_hw *h, long long chips, const long long *batch,
                      int nbatch, long long context, rl_precision p);

#endif
