/* dtype.c — numeric formats: names and bytes per element. */
#include "dtype.h"

#include <math.h>
#include <string.h>

static const struct {
    const char *name;
    double bytes;
} DTYPES[RL_DTYPE_COUNT] = {
    [RL_FP32] = {"fp32", 4.0}, [RL_BF16] = {"bf16", 2.0}, [RL_FP16] = {"fp16", 2.0},
    [RL_FP8] = {"fp8", 1.0},   [RL_INT8] = {"int8", 1.0}, [RL_INT4] = {"int4", 0.5},
    [RL_FP4] = {"fp4", 0.5},   [RL_MXFP4] = {"mxfp4", 0.5},
};

double rl_dtype_bytes(rl_dtype t) { return DTYPES[t].bytes; }

double rl_dtype_matrix_bytes(rl_dtype t, double rows, double cols)
{
    double scales = 0.0;
    if (t == RL_FP4) /* NVFP4: an E4M3 byte per 16 (dtype.h) */
        scales = ceil(rows / 16.0) * cols * 1.0;
    else if (t == RL_MXFP4) /* an E8M0 byte per 32 (dtype.h) */
        scales = ceil(rows / 32.0) * cols * 1.0;
    else if (t == RL_INT4)
        scales = ceil(rows / 128.0) * cols * 2.0;
    else if (t == RL_INT8 || t == RL_FP8)
        scales = cols * 2.0;
    return rows * cols * DTYPES[t].bytes + scales;
}

double rl_dtype_weight_bytes(rl_dtype t)
{
    if (t == RL_FP4)
        return DTYPES[t].bytes + 1.0 / 16.0;
    if (t == RL_MXFP4)
        return DTYPES[t].bytes + 1.0 / 32.0;
    if (t == RL_INT4)
        return DTYPES[t].bytes + 2.0 / 128.0;
    return DTYPES[t].bytes;
}

rl_dtype rl_dtype_kept(rl_dtype w) { return DTYPES[w].bytes < 2.0 ? RL_BF16 : w; }

double rl_dtype_kv_bytes(rl_dtype t) { return rl_dtype_weight_bytes(t); }

double rl_dtype_weights_bytes(rl_dtype w, double params, double kept)
{
    return (params - kept) * rl_dtype_weight_bytes(w) +
           kept * rl_dtype_weight_bytes(rl_dtype_kept(w));
}

const char *rl_dtype_name(rl_dtype t) { return DTYPES[t].name; }

int rl_dtype_parse(const char *name, rl_dtype *out)
{
    for (int i = 0; i < RL_DTYPE_COUNT; i++) {
        if (strcmp(name, DTYPES[i].name) == 0) {
            *out = (rl_dtype)i;
            return 0;
        }
    }
    return -1;
}

const char *rl_dtype_list(void) { return "fp32, bf16, fp16, fp8, int8, int4, fp4, mxfp4"; }
