/* dtype.h — numeric formats: names, bytes per element, parsing.
 *
 * Owns the list of precisions the model reasons about (weights, KV cache,
 * activations, compute).  Uses nothing else in the project. */
#ifndef RL_DTYPE_H
#define RL_DTYPE_H

typedef enum {
    RL_FP32,
    RL_BF16,
    RL_FP16,
    RL_FP8,
    RL_INT8,
    RL_INT4,
    RL_FP4,
    RL_DTYPE_COUNT
} rl_dtype;

/* Bytes per element (int4/fp4 are 0.5).  Source: the formats' bit widths. */
double rl_dtype_bytes(rl_dtype t);

/* Bytes of a [rows, cols] weight matrix (rows = input dim, cols = output
 * dim) stored in `t`, quantization scales included.  Assumptions (stated,
 * not from one standard): int4 and fp4 carry one bf16 scale per group of 128
 * elements along the input dimension (GPTQ/AWQ-style group size 128: +2/128
 * bytes per element); int8 and fp8 carry one bf16 scale per output channel
 * (+2 * cols bytes); fp32/bf16/fp16 carry none.  Activation and KV-cache
 * scales are taken as per-tensor (negligible). */
double rl_dtype_matrix_bytes(rl_dtype t, double rows, double cols);

/* Canonical lower-case name ("bf16"). */
const char *rl_dtype_name(rl_dtype t);

/* Parse a name; returns 0 and sets *out, or -1 if the name is unknown. */
int rl_dtype_parse(const char *name, rl_dtype *out);

/* Comma-separated list of all names, for error messages ("fp32, bf16, ..."). */
const char *rl_dtype_list(void);

#endif
