/* weights.h — the reference engine's weight tensors: names and shapes for a
 * model spec, a seeded generator, and .safetensors files (read and write).
 *
 * Owns the tensor list (Hugging Face LLaMA names: model.embed_tokens.weight,
 * model.layers.I.self_attn.q_proj.weight, ..., lm_head.weight) and the
 * safetensors format: 8-byte little-endian header length, a JSON header
 * {name: {dtype, shape, data_offsets: [begin, end)}} (offsets relative to the
 * end of the header), then the raw little-endian data (huggingface/
 * safetensors README, "Format").  The header is parsed with cJSON and every
 * tensor is checked against the spec's shape.  Uses spec (rl_model), cJSON. */
#ifndef RL_WEIGHTS_H
#define RL_WEIGHTS_H

#include <stddef.h>
#include <stdint.h>

#include "spec.h"

typedef struct {
    char name[96];
    long long rows, cols; /* a 1-D tensor (norm gain) has rows = 1 */
} rl_tensor_info;

/* Fill `out` (cap entries) with the tensors of model m in file order:
 * embed, per layer (input_layernorm, q, k, v, o, post_attention_layernorm,
 * gate, up, down), final norm, lm_head (absent when tied).  Returns the
 * count, or -1 if cap is too small or the model is not a dense SwiGLU one. */
int rl_weights_list(const rl_model *m, rl_tensor_info *out, int cap, char *err, size_t errlen);

/* Deterministic weights: tensor `index` of the list filled from `seed`.
 * Matrices are uniform in +-sqrt(3 / cols) (unit variance of each output for
 * unit-variance inputs), norm gains 1 + U(-0.1, 0.1), embeddings U(-1, 1). */
void rl_weights_generate(const rl_tensor_info *t, int index, uint64_t seed, float *out);

/* An open .safetensors file: the parsed header and the file mapped. */
typedef struct rl_safetensors rl_safetensors;

/* Open and check the header (length within the file, valid JSON, every
 * entry a dtype F32/BF16 with shape and in-bounds data_offsets whose size
 * matches the shape).  Returns NULL with "PATH: field 'T': reason" in err. */
rl_safetensors *rl_safetensors_open(const char *path, char *err, size_t errlen);
void rl_safetensors_close(rl_safetensors *f);

/* Read tensor t into out (rows * cols floats, converted from BF16 when
 * stored so).  Errors when absent or of another shape. */
int rl_safetensors_read(rl_safetensors *f, const rl_tensor_info *t, float *out, char *err,
                        size_t errlen);

/* Write the seeded weights of model m as an F32 .safetensors file (what the
 * tests use to make a file).  Returns 0 or -1 with err set. */
int rl_safetensors_write_seeded(const char *path, const rl_model *m, uint64_t seed, char *err,
                                size_t errlen);

#endif
