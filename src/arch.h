/* arch.h — architecture arithmetic: parameter counts, FLOPs per token, KV
 * bytes per token, MoE total/active and expert coverage.
 *
 * Owns every formula that depends on the model alone (plus dtypes).  Uses
 * spec (rl_model), dtype.  Sources: seed 000 section 1 "What about memory?"
 * (parameter table, KV formula) and section 5 problems 1 and 5. */
#ifndef RL_ARCH_H
#define RL_ARCH_H

#include "dtype.h"
#include "spec.h"

/* Which KV footprint a windowed (local) layer has: `ideal` caps it at the
 * window W (a ring buffer); `allocator` is what a paged engine that reserves
 * full-length pages for every layer holds (no cap). */
typedef enum { RL_KV_IDEAL, RL_KV_ALLOCATOR } rl_kv_view;

/* Parameter counts (elements, not bytes), all layers. */
typedef struct {
    double attention;  /* W_Q, W_K, W_V, W_O: L * 2 * D * H * (N + K), plus their
                        * biases and the sinks when the model has them
                        * (spec.h); MLA: see rl_arch_attention_params_layer */
    double mlp;        /* every MLP / expert matrix (and its bias, mlp_bias) */
    double mlp_active; /* MLP matrices one token uses (k routed + shared experts) */
    double router;     /* MoE gates: D * E per MoE layer (+ E, mlp_bias) */
    double embedding;  /* input embedding table V * D */
    double lm_head;    /* output projection V * D; 0 when tied to the embedding */
    double norms;      /* RMSNorm gains: (norms_per_layer L + 1) * D, + 2 H per
                        * layer with qk_norm, + MLA's latent norms */
    double total;
    double active;     /* used per token; equals total for dense models.  Counts the
                        * input embedding table, which a token only reads one row of */
    double active_nonembedding; /* active less the input embedding table (untied
                        * models; a tied table is the LM head's matmul and stays):
                        * the weights one token multiplies by, so flops_per_token
                        * = 2 x (this - norms - the biases and sinks it
                        * holds, which multiply nothing); OpenAI's convention for gpt-oss
                        * ("5.13B active" for gpt-oss-120b, model card Table 1).
                        * Abstract models: equals active */
    double routed_experts; /* routed-expert matrices only (subset of mlp) */
} rl_params;

/* Parameter counts of a model.  For an abstract model only total and active
 * are known (the others are 0).  Formula: seed 000 section 5 problem 1,
 * L*D*(3F + 2H(N+K)) + D*V, extended with norms, untied heads, GELU's two
 * matrices and MoE experts (problem 5). */
rl_params rl_arch_params(const rl_model *m);

/* Parameters every tensor-parallel chip holds and multiplies whole (0 for
 * none): MLA's down-projections q_a_proj (D x q_lora_rank) and
 * kv_a_proj_with_mqa (D x (kv_lora_rank + qk_rope_head_dim)), all layers.
 * The engines replicate them: vLLM builds both as ReplicatedLinear
 * (vllm/model_executor/models/deepseek_v2.py, DeepseekV2MLAAttention; the
 * newer fused_qkv_a_proj is a MergedColumnParallelLinear with
 * disable_tp=True), SGLang likewise (python/sglang/srt/models/
 * deepseek_v2.py), TensorRT-LLM as one Linear of width q_lora_rank +
 * kv_lora_rank + qk_rope_head_dim with no tensor-parallel mapping (MLA's
 * kv_a_proj_with_mqa, tensorrt_llm/_torch/modules/attention.py).  Used by
 * shard.c (weights per chip), ops.c (their FLOPs and reads on every chip)
 * and serve.c (tester22 F3). */
double rl_arch_tp_replicated_params(const rl_model *m);

/* Vectors of d_model per residual-stream norm: 1 (the gain) for an RMSNorm,
 * 2 (gain and bias, torch.nn.LayerNorm's weight and bias; BLOOM's
 * input_layernorm.bias, HF modeling_bloom.py) for a LayerNorm (spec.h
 * rl_norm).  norms_per_layer counts norms, each of this many vectors. */
double rl_arch_norm_vectors(const rl_model *m);

/* The final norm's parameters (before the LM head, on the last pipeline
 * stage): rl_arch_norm_vectors of d_model (Llama's `model.norm` a gain,
 * BLOOM's `ln_f` a gain and a bias); 0 for an abstract model.
 * The one count rl_arch_params' norms and the stage split read. */
double rl_arch_final_norm_params(const rl_model *m);

/* Of rl_arch_params_read(m, tokens): the embedding / LM head elements (the
 * LM head's table, or the tied table, plus the `tokens` gathered embedding
 * rows); 0 for abstract models.  They keep rl_dtype_kept's dtype. */
double rl_arch_vocab_read(const rl_model *m, double tokens);

/* One dense layer's MLP block (parameters, biases included; *vectors: its
 * biases) of an MoE model with dense_layers > 0: layers 0 .. dense_layers-1
 * (DeepSeek's first_k_dense_replace: HF modeling_deepseek.py builds a
 * DeepseekV3MoE for layer_idx >= first_k_dense_replace, a dense
 * DeepseekV3MLP of intermediate_size below).  0 (and *vectors 0) for any
 * other model.  For a pipeline stage's own layers (shard.c plan_weights). */
double rl_arch_dense_layer_mlp(const rl_model *m, double *vectors);

/* Of rl_arch_params(m): the elements outside the weight matrices, per
 * field (attention: its biases and sinks; mlp, routed_experts, router:
 * their biases; total: all of them); the others 0, and all 0 for abstract
 * models. */
rl_params rl_arch_vector_params(const rl_model *m);

/* Of rl_arch_params(m).total: the elements a checkpoint quantized below 16
 * bits keeps unquantized, in rl_dtype_kept's dtype (dtype.h): the embedding
 * table, the LM head, the norm gains, the MoE router and every bias and
 * attention sink always; the attention and the dense and shared MLP blocks
 * too when the model's `quantized` field is "experts" (spec.h; gpt-oss).
 * Biases are vectors added after a matmul, not Linear weights: quantizers
 * leave them in the model dtype.  gpt-oss's MXFP4 checkpoint stores its
 * experts' biases as tensors of their own, `mlp.experts.gate_up_proj_bias`
 * and `down_proj_bias` beside the quantized `_blocks` and `_scales`
 * (openai/gpt-oss-120b on Hugging Face; OpenAI's reference loader reads
 * `mlp1_bias` apart from `mlp1_weight.blocks` / `.scales`), in bf16 as
 * vLLM holds them (its MXFP4 MoE method's w13_bias / w2_bias,
 * torch.bfloat16, vllm/model_executor/layers/quantization/mxfp4.py).
 * 0 for abstract models (all their parameters take --weights).  The one
 * split memory, info, step, shard and ops use. */
double rl_arch_kept_params(const rl_model *m);

/* rl_arch_kept_params' rule on non-vocabulary weights given by class: of
 * `norms` norm gains, `router` MoE router, `attention` attention and
 * `dense_mlp` dense and shared MLP elements (biases included), and
 * `dense_vectors` the biases and sinks among those two, the elements kept:
 * the norms and the router; the attention and the dense MLP whole under
 * `quantized = "experts"`, else their vectors only.  The routed experts'
 * vectors are kept too; the caller adds them.  The classes may be one
 * chip's shard of each (shard.c plan_weights); the whole model's give
 * rl_arch_kept_params less the vocabulary and the routed experts' vectors. */
double rl_arch_kept_of(const rl_model *m, double norms, double router, double attention,
                       double dense_mlp, double dense_vectors);

/* The weights x compute dtypes the model's dense (not routed-expert)
 * matmuls run at, given the run's in *weights and *compute: both become
 * rl_dtype_kept(weights) for a `quantized = "experts"` model quantized
 * below 16 bits (spec.h; gpt-oss keeps its attention bf16), unchanged
 * otherwise.  What a kernel-table check of "the run's GEMM" asks (step's
 * derived note, size --conservative). */
void rl_arch_dense_gemm(const rl_model *m, rl_dtype *weights, rl_dtype *compute);

/* Of rl_arch_params_read(m, tokens): its kept elements, as
 * rl_arch_kept_params (the vocabulary as rl_arch_vocab_read counts it). */
double rl_arch_kept_read(const rl_model *m, double tokens);

/* Matmul FLOPs per token from the weights alone (no attention scores):
 * 2 * (attention + active MLP + router + V*D LM head).  The embedding lookup
 * costs none; the LM head costs 2*V*D whether or not it is tied.  Abstract
 * models: 2 * params_active (seed 000 section 5 problem 5 (4)). */
double rl_arch_flops_per_token(const rl_model *m);

/* Of rl_arch_flops_per_token(m): the FLOPs of the matmuls on kept tensors
 * (rl_arch_kept_params), which run in rl_dtype_kept(weights) when the
 * checkpoint is quantized below 16 bits: the V*D LM head and the MoE
 * router always, plus the attention and the dense and shared MLP blocks
 * under `quantized = "experts"` (gpt-oss).  The operator list's `half`
 * matmuls (ops.c), so step and shard time them at the same peak as ops
 * (review29 M1).  0 for abstract models. */
double rl_arch_kept_flops_per_token(const rl_model *m);

/* The per-model counts a step asks for several times, counted once: each
 * field is what the function it names returns, bit for bit (a calibrated
 * step counted the parameters ~15 times an evaluation, ~1.6k of ~27k
 * instructions; issue 12).  The model must not change while c is used. */
typedef struct {
    rl_params params;            /* rl_arch_params */
    rl_params vectors;           /* rl_arch_vector_params */
    double kept_params;          /* rl_arch_kept_params */
    double flops_per_token;      /* rl_arch_flops_per_token */
    double kept_flops_per_token; /* rl_arch_kept_flops_per_token */
} rl_arch_counts;
rl_arch_counts rl_arch_counts_of(const rl_model *m);

/* rl_arch_params_read, rl_arch_kept_read and rl_arch_vocab_read of m from
 * c = rl_arch_counts_of(m) */
double rl_arch_counts_params_read(const rl_model *m, const rl_arch_counts *c, double tokens);
double rl_arch_counts_kept_read(const rl_model *m, const rl_arch_counts *c, double tokens);
double rl_arch_counts_vocab_read(const rl_model *m, const rl_arch_counts *c, double tokens);

/* Attention-score FLOPs of one new token against `context` cached tokens:
 * QK^T and PV, 2 * 2 * context * N * H per layer (seed 000 section 1
 * "What about attention?", 2BSTD each with T = 1), with context capped at
 * the window on local layers.  MLA in the absorbed form (DeepSeek-V2 paper
 * section 2.1.3: W_UK folded into the query, W_UV into the output): scores
 * over the latent plus RoPE key, 2 * N * (d_c + d_h^R), and the weighted sum
 * of latents, 2 * N * d_c, per cached token.  0 for abstract models. */
double rl_arch_attention_flops_per_token(const rl_model *m, double context);

/* KV-cache bytes per token over all layers, no window cap (every layer
 * holds the token): 2 * L * K * H * bytes(kv) (seed 000 section 1 "What
 * about memory?"); MLA: L * (kv_lora_rank + qk_rope_head_dim) * bytes(kv)
 * (DeepSeek-V2 paper, Table 1: (d_c + d_h^R) l elements per token).
 * Abstract models return their given kv_bytes_per_token, whatever `kv` is. */
double rl_arch_kv_bytes_per_token(const rl_model *m, rl_dtype kv);

/* KV elements one token adds to one layer's cache: 2 K H, or d_c + d_h^R
 * for MLA.  0 for abstract models. */
double rl_arch_kv_elems_per_token_layer(const rl_model *m);

/* KV-cache bytes of one sequence holding `context` tokens, all layers.
 * Local layers hold min(context, W) tokens in the ideal view and `context`
 * in the allocator view (see rl_kv_view).  Abstract: context * given bytes. */
double rl_arch_kv_bytes_per_sequence(const rl_model *m, rl_dtype kv, double context,
                                     rl_kv_view view);

/* 1 if layer `l` (0-based) uses the sliding window, per sliding_window,
 * sliding_window_pattern and first_sliding_layer (spec.h). */
int rl_arch_layer_is_local(const rl_model *m, long long l);

/* Number of local (windowed) layers. */
long long rl_arch_local_layers(const rl_model *m);

/* Attention weights of one layer (elements).  MHA/GQA: 2 D H (N + K).  MLA:
 * q (D d_c' + d_c' N (nope + rope), or D N (nope + rope) without a query
 * latent) + kv_a D (d_c + d_h^R) + kv_b d_c N (nope + v) + o N v D. */
double rl_arch_attention_params_layer(const rl_model *m);

/* Expected distinct routed experts one MoE layer reads for `tokens` tokens
 * routed uniformly: E * (1 - (1 - k/E)^tokens).  Returns 0 for dense models. */
double rl_arch_expected_experts(const rl_model *m, double tokens);

/* Experts' weights an expert-parallel group of `ep` chips (E/ep experts on
 * each) is charged for one MoE layer, as ep times the busiest chip's
 * share, so that dividing by the chips gives that chip's bytes: the
 * rl_arch_expected_experts touched experts cannot sit on fewer than
 * ceil(touched / ep) experts of one chip (the balanced-integer lower bound
 * of the load; routing that puts two of them on one chip costs more).
 * At batch 1 with top-2 routing (mixtral ep8) the busiest chip reads one
 * whole expert, not 2/8 of one.  ep <= 1: the touched experts.  Our rule
 * (docs/model.md "Expert parallelism at small batch"); the touched count
 * is a fractional expectation, so ceil takes a 1e-9 slack (2.0000000001
 * experts on 2 chips stay one each). */
double rl_arch_experts_read_ep(const rl_model *m, double tokens, long long ep);

/* Parameters whose bytes a step over `tokens` tokens reads from HBM: every
 * non-expert weight plus the routed experts actually touched, with the
 * input embedding table's `tokens` gathered rows (tokens x D) in
 * place of the table (tied: the LM head reads the table whole), as the
 * operator list counts them (ops.h).  Abstract models: total (seed 000
 * formula (1) reads all parameters). */
double rl_arch_params_read(const rl_model *m, double tokens);

/* MLP matrices per expert or dense block: 3 for SwiGLU, 2 for GELU. */
int rl_arch_mlp_matrices(const rl_model *m);

#endif
