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
 * dim) stored in `t`, quantization scales included.  fp4 is NVFP4, the
 * format the engines' fp4 kernel tables run (engines.h: fp4 -> `nvfp4`):
 * one fp8 E4M3 scale per block of 16 elements along the input dimension
 * (+1/16 byte per element: 4.5 bits; NVIDIA, "Introducing NVFP4 for
 * Efficient and Accurate Low-Precision Inference", developer.nvidia.com,
 * 2025; llm-compressor's NVFP4 scheme: "per-group (size 16) local
 * quantization scales", examples/quantization_w4a4_fp4/README.md; the
 * per-tensor fp32 scale is negligible).  OCP MXFP4 (Microscaling Formats
 * v1.0 spec, 2023: blocks of 32, an E8M0 scale: 4.25 bits), as gpt-oss
 * ships, is 0.25 bit smaller: not modelled, so fp4 overstates an MXFP4
 * checkpoint by 5.6% (the conservative side for memory).  int4 carries one
 * bf16 scale per group of 128 along the input dimension (GPTQ/AWQ group
 * size 128: +2/128 bytes per element: 4.125 bits; an assumption); int8 and
 * fp8 carry one bf16 scale per output channel (+2 * cols bytes);
 * fp32/bf16/fp16 carry none.  Activation and KV-cache scales are taken as
 * per-tensor (negligible). */
double rl_dtype_matrix_bytes(rl_dtype t, double rows, double cols);

/* Bytes per weight element stored in `t` where no matrix shape is at hand
 * (memory fits, info, step): the 4-bit formats' block scales included
 * (int4 0.515625, fp4 0.5625, as rl_dtype_matrix_bytes), 8-bit per-channel
 * scales left out (0.02% for llama3-70b: the chapter's convention,
 * parameters x bytes per element), the others their width (tester22 F11). */
double rl_dtype_weight_bytes(rl_dtype t);

/* Bytes per KV-cache element stored in `t`: the same rule as weights
 * (rl_dtype_weight_bytes), so an fp4 KV cache is NVFP4 with its E4M3
 * scale per 16 elements, 4.5 bits (TensorRT-LLM's NVFP4 KV cache: the
 * format its fp4 kernels read; tester23 F2), int4 4.125 bits, fp8 and int8
 * their width (per-tensor scales, negligible). */
double rl_dtype_kv_bytes(rl_dtype t);

/* The dtype the embedding table and LM head keep under --weights `w`: bf16
 * for the 4-bit formats, `w` otherwise.  4-bit checkpoints quantize the
 * transformer blocks' Linear layers only: llm-compressor's NVFP4 and W4A16
 * recipes `QuantizationModifier(targets="Linear", ..., ignore=["lm_head"])`
 * (the embedding is not a Linear); gpt-oss's MXFP4 checkpoint lists
 * "model.embed_tokens" and "lm_head" in modules_to_not_convert (its
 * config.json, tests/data/hf/gpt-oss-120b.json). */
rl_dtype rl_dtype_vocab(rl_dtype w);

/* Bytes of `params` weight elements stored under --weights `w`, `vocab` of
 * them the embedding table / LM head (rl_dtype_vocab), the rest at
 * rl_dtype_weight_bytes(w).  The one rule memory, info, step and shard use. */
double rl_dtype_weights_bytes(rl_dtype w, double params, double vocab);

/* Canonical lower-case name ("bf16"). */
const char *rl_dtype_name(rl_dtype t);

/* Parse a name; returns 0 and sets *out, or -1 if the name is unknown. */
int rl_dtype_parse(const char *name, rl_dtype *out);

/* Comma-separated list of all names, for error messages ("fp32, bf16, ..."). */
const char *rl_dtype_list(void);

#endif
