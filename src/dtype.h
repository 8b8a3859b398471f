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

/* Canonical lower-case name ("bf16"). */
const char *rl_dtype_name(rl_dtype t);

/* Parse a name; returns 0 and sets *out, or -1 if the name is unknown. */
int rl_dtype_parse(const char *name, rl_dtype *out);

/* Comma-separated list of all names, for error messages ("fp32, bf16, ..."). */
const char *rl_dtype_list(void);

#endif
