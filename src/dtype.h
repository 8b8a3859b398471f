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
    RL_MXFP4, /* weights only (rl_step_check): OCP MXFP4, gpt-oss's checkpoint */
    RL_DTYPE_COUNT
} rl_dtype;

/* Bytes per element (int4/fp4/mxfp4 are 0.5).  Source: the formats' bit widths. */
double rl_dtype_bytes(rl_dtype t);

/* Bytes of a [rows, cols] weight matrix (rows = input dim, cols = output
 * dim) stored in `t`, quantization scales included.  fp4 is NVFP4, the
 * format the engines' fp4 kernel tables run (engines.h: fp4 -> `nvfp4`):
 * one fp8 E4M3 scale per block of 16 elements along the input dimension
 * (+1/16 byte per element: 4.5 bits; NVIDIA, "Introducing NVFP4 for
 * Efficient and Accurate Low-Precision Inference", developer.nvidia.com,
 * 2025; llm-compressor's NVFP4 scheme: "per-group (size 16) local
 * quantization scales", examples/quantization_w4a4_fp4/README.md; the
 * per-tensor fp32 scale is negligible).  mxfp4 is OCP MXFP4 (OCP
 * Microscaling Formats (MX) Specification v1.0, 2023, section 5: blocks of
 * k = 32 FP4 E2M1 elements sharing one 8-bit E8M0 scale: +1/32 byte per
 * element, 4.25 bits), the format gpt-oss ships its MoE experts in
 * (model card, arXiv:2508.10925 section 2: "quantize the MoE weights to
 * MXFP4 format, where weights are quantized to 4.25 bits per parameter");
 * blocks run along the input dimension like NVFP4's.  int4 carries one
 * bf16 scale per group of 128 along the input dimension (GPTQ/AWQ group
 * size 128: +2/128 bytes per element: 4.125 bits; an assumption); int8 and
 * fp8 carry one bf16 scale per output channel (+2 * cols bytes);
 * fp32/bf16/fp16 carry none.  Activation and KV-cache scales are taken as
 * per-tensor (negligible). */
double rl_dtype_matrix_bytes(rl_dtype t, double rows, double cols);

/* Bytes per weight element stored in `t` where no matrix shape is at hand
 * (memory fits, info, step): the 4-bit formats' block scales included
 * (int4 0.515625, fp4 0.5625, mxfp4 0.53125, as rl_dtype_matrix_bytes), 8-bit per-channel
 * scales left out (0.02% for llama3-70b: the chapter's convention,
 * parameters x bytes per element), the others their width (tester22 F11). */
double rl_dtype_weight_bytes(rl_dtype t);

/* Bytes per KV-cache element stored in `t`: the same rule as weights
 * (rl_dtype_weight_bytes), so an fp4 KV cache is NVFP4 with its E4M3
 * scale per 16 elements, 4.5 bits (TensorRT-LLM's NVFP4 KV cache: the
 * format its fp4 kernels read; tester23 F2), int4 4.125 bits, fp8 and int8
 * their width (per-tensor scales, negligible). */
double rl_dtype_kv_bytes(rl_dtype t);

/* The dtype a checkpoint quantized to `w` keeps its unquantized tensors in
 * (the embedding table, LM head, norm gains, MoE router, and the tensor
 * classes its model's `quantized` field leaves out: spec.h): bf16 for every
 * format narrower than 16 bits (fp8, int8, int4, fp4, mxfp4), `w` otherwise.
 * Real checkpoints quantize the transformer blocks' Linear layers only:
 *  - 8-bit: neuralmagic/Meta-Llama-3-8B-Instruct-FP8's model card: "Only
 *    the weights and activations of the linear operators within
 *    transformers blocks are quantized" (its safetensors hold BF16 and
 *    F8_E4M3 tensors); llm-compressor's FP8 example
 *    QuantizationModifier(targets="Linear", scheme="FP8_DYNAMIC",
 *    ignore=["lm_head"]) (examples/big_models_with_accelerate/
 *    cpu_offloading_fp8.py), its W8A8 int8 recipes GPTQModifier(targets=
 *    "Linear", scheme="W8A8", ignore=["lm_head"]); vLLM's Fp8Config
 *    quantizes LinearBase layers not in ignored_layers and FusedMoE only
 *    (get_quant_method, vllm/model_executor/layers/quantization/fp8.py),
 *    so its VocabParallelEmbedding and an ignored lm_head stay in the
 *    model dtype.
 *  - 4-bit: llm-compressor's NVFP4 and W4A16 recipes
 *    `QuantizationModifier(targets="Linear", ..., ignore=["lm_head"])`;
 *    gpt-oss's MXFP4 checkpoint lists "model.embed_tokens", "lm_head",
 *    "*.self_attn" and "*.mlp.router" in modules_to_not_convert (its
 *    config.json, tests/data/hf/gpt-oss-120b.json).
 * The embedding is a lookup (nn.Embedding), not a Linear: no recipe above
 * targets it.  Norm gains and the router are not quantized either (not
 * Linear, or ignored), so they stay in it too. */
rl_dtype rl_dtype_kept(rl_dtype w);

/* Bytes of `params` weight elements stored under --weights `w`, `kept` of
 * them unquantized in rl_dtype_kept(w) (arch.h rl_arch_kept_params), the
 * rest at rl_dtype_weight_bytes(w).  The one rule memory, info, step,
 * shard and serve use (ops.c applies the same per operator). */
double rl_dtype_weights_bytes(rl_dtype w, double params, double kept);

/* Canonical lower-case name ("bf16"). */
const char *rl_dtype_name(rl_dtype t);

/* Parse a name; returns 0 and sets *out, or -1 if the name is unknown. */
int rl_dtype_parse(const char *name, rl_dtype *out);

/* Comma-separated list of all names, for error messages ("fp32, bf16, ..."). */
const char *rl_dtype_list(void);

#endif
