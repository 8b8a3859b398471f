/* engines.h — the serving engines of a hardware spec: each engine's measured
 * kernel tables, its costs, where they come from, and the kernel time of one
 * operator from them.
 *
 * Owns the `engines` field of a hardware spec:
 *
 *   engines = {
 *     default = "trtllm",
 *     trtllm = "engines/h100-sxm-trtllm.lua",  -- a spec file whose engines.trtllm is inline
 *                                                -- (only that table is read, not its base)
 *     vllm = {
 *       version = "0.24.0",
 *       source = "NVIDIA AIConfigurator ... (Apache-2.0)",
 *       measured_on = "h100-sxm",   -- the hw spec `name` of the chip the tables were measured on
 *       measured_at = { hbm_bw = 3.35e12, flops = { bf16 = 9.89e14, ... } },
 *                                   -- its figures as measured (optional; rl_serving_engine.at_bw)
 *       date = "2026-12-01",
 *       tables = {
 *         gemm = { bfloat16 = <ktable>, fp8 = <ktable>, ... },        -- axes m, n, k (checked)
 *         prefill_attention = { bfloat16 = <ktable>, fp8 = ... },     -- streams, isl, group, head_dim
 *         decode_attention = { bfloat16 = <ktable>, fp8 = ... },      -- streams, context, group, head_dim
 *         decode_attention_one = { bfloat16 = <ktable> },  -- optional: one KV head or one
 *                                    -- sequence per chip (RL_KX_ONE; also prefill_attention_one)
 *         moe = { bfloat16 = {                                         -- per model shape:
 *                   { hidden = 4096, inter = 14336, topk = 2, experts = 8,
 *                     table = <ktable> },                  -- tokens, tp_share, ep_share
 *                   ... }, ... },
 *       },
 *       costs = { step_s = 0, seq_s = 0, launch_s = 0, prefill_layer_s = 8e-4,
 *                 attention_context = "mean",  -- or "longest" (optional; below)
 *                 source = "..." },  -- and fitted (E) keys (enginecost.h);
 *                                    -- rl_engine_costs_default
 *       residuals = { holdout = 5, gemm = { held_back = 1200, p5 = -0.2, p10 = -0.1,
 *                     p90 = 0.1, p95 = 0.2, edge_held_back = { 900, 800, 0 },
 *                     p10_p90_per_octave = { 0.05, 0.1, 0 }, p5_p95_per_octave = {...},
 *                     up_to_octaves = { 1, 1, 0 } }, ... },
 *                     -- rl_kresidual, per class (the last four optional: the tuned
 *                     -- widening, one value per table axis, 0 held back: untuned)
 *       memory = { fraction = 0.9, fraction_of = "capacity", ... },  -- below
 *     },
 *   }
 *
 * `engines = false` is a spec without engines (`calibrate --tables` loads
 * its base spec so: the base's own tables, perhaps of an older layout, are
 * not read).  (<ktable>: the Lua form of ktable.h.)  Tables are keyed by the dtype
 * variant names of the measured data; which variant an operator uses for
 * roofline's precision flags is decided in one table (engines.c, DTYPE_MAP):
 *
 *   weights     compute      gemm, moe row |  KV cache    attention rows
 *   bf16/fp16   bf16/fp16    bfloat16    |  bf16/fp16   bfloat16
 *   fp8         fp8          fp8 (per-tensor) or       fp8 fp8 (kv_cache_dtype)
 *                            fp8_block, the faster per shape (GEMM; below);
 *                            MoE: the model's fp8_scaling, fp8 (tensor) or
 *                            fp8_block (block), the other as a cautioned
 *                            substitute where only it measures the shape
 *   int8        bf16/fp16    int8_wo (weight-only)
 *   int4        bf16/fp16    int4_wo (weight-only)
 *   int8        int8         sq (SmoothQuant W8A8)
 *   fp4         fp4          nvfp4
 *   mxfp4       bf16/fp16    w4a16_mxfp4 (MoE only: gpt-oss's experts; below)
 *   fp32        fp32         float32     |  fp32        float32 (attn_dtype float32 too)
 *   anything else: no table (the operator keeps its roofline / efficiency time)
 *
 * GEMM fp8 x fp8: the engines run per-tensor or 128 x 128 block-scaled FP8
 * as the checkpoint says (a ModelOpt per-tensor checkpoint such as
 * nvidia/Llama-3.1-70B-Instruct-FP8, or one with quantization_config.
 * weight_block_size such as DeepSeek-V3's or Qwen3's FP8), and neither
 * table row is the per-tensor kernel of a serving deployment: the `fp8`
 * rows time TensorRT-LLM's FP8 Linear with no input_scale, "so TRT-LLM's
 * FP8QDQ method runs its dynamic-quantization path and the collected fp8
 * GEMM includes the compute-scale overhead" (an amax pass over the
 * activations), which a per-tensor checkpoint's static scale skips;
 * AIConfigurator itself prices such checkpoints as `fp8_static`, the `fp8`
 * row less a separately measured compute-scale table the data here lacks
 * (collector/trtllm/collect_gemm.py, run_gemm; sdk/models/helpers.py
 * _infer_quant_modes_from_raw_config; rust operators/gemm.rs GemmOp::query;
 * github.com/ai-dynamo/aiconfigurator, Apache-2.0).  On Blackwell
 * TensorRT-LLM runs block-scaled FP8 through DeepGEMM (collect_gemm.py:
 * "SM100 uses TRTLLM/DeepGEMM backend", the `deepgemm` kernel_source of
 * b200_sxm/gb200 trtllm), and at decode shapes those rows are about half
 * the dynamic per-tensor ones (B200, m = 1, 4096 x 4096: fp8_block
 * 0.0093 ms, fp8 0.0197 ms, bfloat16 0.0099 ms), so the dynamic rows alone
 * made fp8 weights slower than bf16 on B200/GB200 (tester44 F5).  So a
 * GEMM fp8_block row is read as one more kernel of the fp8 configuration
 * of its shape, and the faster kernel stands for it (silicon.c read_file,
 * group), as for several kernel_sources of one dtype: an upper bound on
 * the static per-tensor kernel at shapes where the block kernel is slower.
 *
 * Prefill attention rows are those with attn_dtype bfloat16 (the engines'
 * default attention math) and the KV cache dtype above; decode rows likewise
 * by kv_cache_dtype; float32 rows (the reference engine's own tables, written
 * by `roofline calibrate --backend cpu|cuda`) need attn_dtype float32 too.
 * MoE rows (moe_dtype) follow the gemm column, but fp8 x fp8 reads the
 * kernel of the model's checkpoint (rl_kvariant_moe, spec.h fp8_scaling):
 * vLLM's Fp8MoEMethod runs its block-quantized kernels when the
 * checkpoint gives weight_block_size (vllm/model_executor/layers/
 * quantization/fp8.py: `self.block_quant = self.weight_block_size is not
 * None`), so `fp8_block` rows for a block-scaled checkpoint (DeepSeek-V3:
 * 128 x 128 weight blocks, quantization_config.weight_block_size of its
 * config.json, copied in tests/data/hf/deepseek-v3.json; its README_WEIGHTS.md
 * "FP8 weight format with 128x128 block scaling"), per-tensor `fp8` rows
 * for the default per-tensor one (Mixtral's ModelOpt / Neural Magic FP8).
 * The two are far apart at one shape (H200 vLLM, Mixtral-8x22B, 32 tokens,
 * TP1: fp8 4.49 ms, fp8_block 0.62 ms), so the choice is not "whichever
 * the shape has" (tester63 F4).  Where the tables measure a shape only in
 * the other scaling (DeepSeek-V3 declared per-tensor: its shape has
 * fp8_block rows only), those rows stand in and a caution says so
 * (rl_kvariant_moe_substitute, ops.h rl_ops_moe_scaling_note), as the
 * dense GEMMs' substitutes are cautioned.  mxfp4 x bf16 (gpt-oss's weights-only MXFP4 experts,
 * dtype.h) reads `w4a16_mxfp4` rows of the kernel vLLM runs for an MXFP4
 * checkpoint (quant_method "mxfp4", gpt-oss's config.json) and no other:
 * vLLM's GptOssMxfp4MoEMethod picks its backend by priority,
 * FLASHINFER_TRTLLM_MXFP4_BF16 (SM100), CK (ROCm), TRITON (SM90-SM10x,
 * OAI triton_kernels), ..., MARLIN, the MXFP8-activation backends only
 * when an environment variable asks (select_mxfp4_moe_backend,
 * _get_priority_backends, vllm/model_executor/layers/fused_moe/oracle/
 * gpt_oss_mxfp4.py): so H100/H200 rows of kernel_source
 * `vllm_gptossmxfp4moe_triton_oaitritonmxfp4expertsmonolithic`, B200/GB200
 * `vllm_gptossmxfp4moe_flashinfer_trtllm_mxfp4_bf16_...`, both at gpt-oss's
 * shapes (2880/2880, top-4 of 32 or 128).  The tables' other w4a16_mxfp4
 * rows (`vllm_compressedtensorsw4a4mxfp4moe_marlin_...`, one unrelated
 * model shape) are compressed-tensors checkpoints on Marlin, another
 * checkpoint format: not imported (silicon.c MXFP4_KERNEL).  TensorRT-LLM
 * runs gpt-oss with bf16 activations on Hopper (TRITON MoE backend) and
 * MXFP8 ones on Blackwell (TRTLLM backend) ("Deployment Guide for GPT-OSS
 * on TensorRT-LLM", MoE backend support matrix, nvidia.github.io/
 * TensorRT-LLM/deployment-guide/deployment-guide-for-gpt-oss-on-trtllm.html);
 * its tables hold no w4a16_mxfp4 row and w4a8_mxfp4_mxfp8 rows only on
 * B200/GB200 at two other models' shapes, so TensorRT-LLM's gpt-oss
 * experts are timed from the GEMM table (no variant holds gpt-oss's shape
 * for DERIVED below to scale from; ops.c rl_ops_moe_gemm_shapes).  w4a8_mxfp4_mxfp8
 * (MXFP8 activations: no roofline flag) is not imported.
 *
 * MoE (RL_KC_MOE): the routed experts of one MoE layer on one chip, timed
 * by the fused-MoE kernel's latency at the step's tokens T (all tokens
 * entering the layer), the plan's TP degree (each expert's inter split tp
 * ways) and EP degree (experts split ep ways).  Its grid axes are tokens,
 * tp_share = 1/tp and ep_share = 1/ep, the chip's shares of each expert
 * and of the experts: sizes, like every other axis, so the monotone
 * envelope (ktable.h) holds (a chip with a larger share is never faster).  Only the tables of the
 * model's own shape (hidden, inter, topk, experts, all four equal) apply:
 * the measured shapes are unrelated models, not a grid, so no shape is
 * interpolated between them; a model of another shape is timed from the
 * dense GEMM table (ops.c rl_ops_moe_gemm_shapes, provenance `derived`; before
 * stop 33 its roofline time, tester43 F10).  The rows are AIConfigurator's
 * `power_law_1.01` routing, the distribution its model builder uses by
 * default (sdk/config.py ModelConfig.workload_distribution = "power_law",
 * mapped to power_law_1.01 in its models, github.com/ai-dynamo/aiconfigurator;
 * the only routing every GPU and engine of the data has).  Under EP its
 * collector moves the most loaded rank's experts to rank 0 and times rank
 * 0 (collector/helper.py, power_law_logits_v3), so a row is the slowest
 * chip's own share of the layer, which is what a step waits for.
 *
 * Memory: rl_hw is copied by value throughout the program, so the tables a
 * spec loads are owned by this module, shared by every copy and kept until
 * exit; a file referenced by several specs is read once.  Uses ktable,
 * sandbox, dtype. */
#ifndef RL_ENGINES_H
#define RL_ENGINES_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

#include <lua.h>

#include "dtype.h"
#include "enginecost.h"
#include "ktable.h"

#define RL_ENGINES_MAX 4

/* The engine name of roofline's own reference engine: the tables and
 * profile `calibrate --backend` writes, the engine the floor rule spares
 * (rl_engine_floor) and one of the engines `fit --engine` knows (e2e.c). */
#define RL_ENGINE_REFERENCE "reference"

typedef enum {
    RL_KC_GEMM,
    RL_KC_PREFILL_ATTN,
    RL_KC_DECODE_ATTN,
    RL_KC_MOE, /* per model shape (rl_moe_tables), not in rl_engine_tables.t */
    RL_KC_PREFILL_MLA, /* DeepSeek MLA attention, prefill (below) */
    RL_KC_DECODE_MLA,  /* DeepSeek MLA attention, decode (below) */
    RL_KC_COUNT
} rl_kclass;

/* A table shape: the grid axes of its class, then (MoE only, from
 * RL_KX_MOE) the model shape hidden, inter, topk, experts; (attention
 * only, at RL_KX_ONE) 1 when the chip runs one KV head or one sequence,
 * else 0.
 *
 * ONE KV HEAD OR ONE SEQUENCE (stop 43, issue 12).  Attention's grid keys
 * streams = batch x KV heads per chip, so configurations of several splits
 * of one stream count share a node.  Where a file's kernel runs the splits
 * with one KV head or one sequence apart from the rest, one value per node
 * cannot read both: vLLM's decode attention on A100 (the tables' vLLM
 * 0.14.0, kernel vllm_flash_attn) measures such a configuration a median
 * 0.83x the other splits of its node (1057 nodes measuring both; 64
 * streams, context 8, group 4: 19.6, 19.9, 19.8 us at 8 x 8, 16 x 4,
 * 32 x 2 and 13.4 us at 64 x 1; why, the tables do not say), while every
 * other GPU x engine x class x KV dtype reads 0.985-1.02 (docs/
 * validation.md, stops 42 and 43).  The rule (silicon.c one_split): where
 * that median over the kept nodes measuring both kinds (at least
 * RL_ONE_MIN_NODES), or over those of one prompt length (prefill) or
 * context (decode), is below RL_ONE_SPLIT (0.9, chosen between those two
 * groups after measuring them; the per-length median since stop 44: A100
 * vLLM's prefill shows the split at one-token prompts alone, 0.69 over 60
 * nodes, which vLLM's FlashAttention runs through its decode path,
 * seqlenq_ngroups_swapped with split-KV, where query heads outnumber KV
 * heads; every other table reads 0.97 or more at every length; it splits
 * A100 vLLM bf16 decode and prefill alone today), the import builds two
 * tables, the configurations of one KV head
 * or one sequence (rl_engine_tables.one) and the rest (t); a lookup whose
 * shape has x[RL_KX_ONE] = 1 reads the first (rl_engine_table).  The
 * hold-out's nodes stay keyed on the four axes alone (silicon.c
 * first_of_node), so the same rows are held back as without the rule. */
#define RL_KSHAPE 8
#define RL_KX_MOE 4
#define RL_KX_ONE 4
#define RL_ONE_SPLIT 0.9
#define RL_ONE_MIN_NODES 20

/* MLA (RL_KC_PREFILL_MLA, RL_KC_DECODE_MLA): the attention kernel of
 * DeepSeek's multi-head latent attention alone (DeepSeek-V2, arXiv:2405.04434
 * sec. 2.1), not its projections (GEMM tables and the roofline time those):
 * prefill in the non-absorbed form (queries and keys of nope + rope, values
 * of v per head, causal), decode in the absorbed form (each head's query of
 * latent + rope against the one cached latent per token, values of latent).
 * Axes: batch (sequences), isl or context (keys read), heads on the chip.
 * The rows are NVIDIA AIConfigurator's `context_mla` / `generation_mla`
 * tables (TensorRT-LLM only: vLLM's data has MLA only as whole modules,
 * projections included, not imported), collected at DeepSeek-V3's
 * dimensions alone (collector/trtllm/collect_mla.py: kv_lora_rank 512,
 * qk_nope_head_dim 128, qk_rope_head_dim 64, v_head_dim 128), with
 * num_heads the heads on one GPU (the collector writes num_heads / tp_size
 * there; AIConfigurator's model looks them up at 128 / tp,
 * sdk/models/deepseek.py); so they time only a model of exactly those
 * dimensions (ops.c mla_table), any head count.  Variant by kv_cache_dtype,
 * attention math bfloat16 (the only mla_dtype measured), as for the other
 * attention tables. */
#define RL_MLA_LATENT 512.0
#define RL_MLA_NOPE 128.0
#define RL_MLA_ROPE 64.0
#define RL_MLA_V 128.0

/* Dtype variants of the measured data that have a roofline precision. */
typedef enum {
    RL_KV_BF16,    /* "bfloat16" */
    RL_KV_FP8,     /* "fp8" (per-tensor) */
    RL_KV_INT8_WO, /* "int8_wo" */
    RL_KV_INT4_WO, /* "int4_wo" */
    RL_KV_SQ,      /* "sq" */
    RL_KV_NVFP4,   /* "nvfp4" */
    RL_KV_FP32,    /* "float32": the CPU reference engine's tables (calibrate --backend cpu) */
    RL_KV_FP8_BLOCK, /* "fp8_block" (128 x 128 block scales): MoE (below); GEMM rows join fp8 */
    RL_KV_MXFP4,     /* "w4a16_mxfp4" (MXFP4 weights, bf16 activations): MoE only, below */
    RL_KV_COUNT
} rl_kvariant;

/* How far an operator class's table times miss measured ones it was not
 * fitted on: quantiles of log(measured / predicted) over the configurations
 * `calibrate --tables` held back (every holdout-th, silicon.h), all dtype
 * variants of the class together; n 0 when none.  The band of an operator
 * timed by the table at t is [t e^p10, t e^p90] (or p5, p95) inside the
 * table's grid; d octaves outside it (rl_engine_outside) it widens
 * (rl_kresidual_band):
 *   tuned (wn[a] > 0): [p10 - w d, p90 + w d] for d octaves above the grid
 *     along axis a, summed over the axes, w = w[a][0] (w[a][1] for p5-p95:
 *     an axis's extrapolation errs its own way, on h100_sxm/trtllm decode
 *     attention from ~0.01 per octave in streams to ~0.6 in group), tuned by
 *     nested hold-outs of the tables
 *     (silicon.h rl_silicon_widening: each axis's largest value held out,
 *     the rest's table extrapolating to it), as the fit tunes its own
 *     (enginecost.h); beyond `seen` octaves, farther than any hold-out
 *     reached, no narrower than the rule of thumb below; octaves below the
 *     grid take the rule of thumb (rl_kresidual_band), counted along each
 *     axis as no more than the table time moves there (ops.c moved_below,
 *     stop 23);
 *   else (profiles from before): [p10 (1 + d), p90 (1 + d)], the rule of
 *     thumb of fitted profiles from before their tuning. */
#define RL_KRESIDUAL_AXES 4 /* the most axes a kernel table has */
typedef struct {
    long n;                 /* held-back configurations */
    double q[4];            /* p5, p10, p90, p95 */
    /* per table axis (the class's axes, engines.h order): */
    long wn[RL_KRESIDUAL_AXES];   /* rows its hold-out tuned w on; 0: not tuned */
    double w[RL_KRESIDUAL_AXES][2]; /* widening per octave above the grid (log
                                       units): p10-p90, p5-p95 */
    double seen[RL_KRESIDUAL_AXES]; /* farthest a held-out row lay above (octaves) */
} rl_kresidual;

/* 1 when some axis of r has a tuned widening. */
int rl_kresidual_tuned(const rl_kresidual *r);

/* Fewest edge hold-out rows a class's widening is tuned on (else the rule
 * of thumb): the fit's WIDEN_MIN_ROWS (e2e.c), the same reasoning. */
#define RL_KRESIDUAL_MIN_EDGE 5

/* Fewest held-back rows whose p10 and p90 are quantiles: at rank p (n + 1)
 * (fit.h rl_fit_bound) p10's rank is below 1 and p90's above n for n < 9,
 * both clamped to the smallest and largest error, so below 9 rows the
 * band is the sample's extremes, not a p10-p90 (tester50 F12: validate
 * --tables --holdout 11906 printed p10 = p90 and per-octave widenings from
 * one held-back GEMM).  validate --tables withholds those figures (null)
 * and says so. */
#define RL_KRESIDUAL_MIN_BAND 9

/* The log band edge q (0..3: p5, p10, p90, p95) of r at above[a] octaves
 * above the table's grid along each axis a (NULL: none) by the rule above,
 * each axis by its own w (an untuned axis by the rule of thumb, q
 * above[a]), plus the rule of thumb's q du for
 * du octaves that no hold-out measured (below the grid: the tables'
 * smallest values are mostly the smallest a kernel runs, 1 token or 1
 * stream, so a hold-out there extrapolates to shapes no run asks for;
 * ops.c counts them as no more than the table time moves; and a derived
 * dtype's step, ops.c).  A low edge is at most 0 and a high
 * one at least 0: the band holds its estimate (enginecost.h rl_ec_band). */
double rl_kresidual_band(const rl_kresidual *r, int q, const double *above, double du);

/* The quantiles of rl_kresidual.q, in order: 0.05, 0.10, 0.90, 0.95. */
extern const double RL_KRESIDUAL_P[4];

/* The MoE tables of one dtype variant: one grid over (tokens, tp, ep) per
 * measured model shape (hidden, inter, topk, experts). */
#define RL_MOE_SHAPES_MAX 64
typedef struct {
    int n;
    double shape[RL_MOE_SHAPES_MAX][4];
    const rl_ktable *t[RL_MOE_SHAPES_MAX];
} rl_moe_tables;

/* The measured bias of MoE experts timed from the dense GEMM table (ops.c
 * rl_ops_moe_gemm_shapes: a shape no MoE table holds), per GEMM variant:
 * ln(measured fused-MoE time / GEMM-timed time) over every measured MoE row
 * of the engine's file (all model shapes, not only those kept), binned by
 * m_e, the rows per touched expert (the grouped GEMMs' M: ~1 in decode,
 * hundreds to thousands in prefill), at the nodes 4^i (i = 0..7: each row to
 * the nearest in log m_e), each node the median of its bin (at least
 * RL_MOE_GEMM_MIN_ROWS rows; fewer: no node), the nodes non-decreasing
 * (rl_moe_gemm_monotone below; stop 41).  Between nodes linear in ln
 * m_e, beyond the end nodes their value.  GEMM-timed is the GEMM table's
 * time at the two grouped GEMMs' shapes (gate+up, down), summed.  Fitted by
 * calibrate --tables (silicon.c fit_moe_gemm, stop 34: the GEMM-timed
 * centre was a median 1.45x optimistic, decode 1.17x, prefill 2.05x,
 * CLOSING33); ops.c multiplies the GEMM-timed experts by exp(the value at
 * their m_e), and their band is q, the quantiles of ln(measured /
 * corrected) of each model shape's rows with the correction fitted on the
 * other shapes (leave one shape out); before / after the median and p90
 * |ln| of that hold-out, uncorrected and corrected.  Written into the
 * profile's tables as moe_from_gemm = { VARIANT = { rows_per_expert = {...},
 * ln_ratio = {...}, p5, p10, p90, p95, fitted_rows, fitted_shapes,
 * held_out = { before median, before p90, after median, after p90 } } }.
 *
 * A GEMM variant fitted on none of the engine's own MoE rows (B200 and
 * GB200 TensorRT-LLM, whose MoE rows are all w4a8_mxfp4_mxfp8; H100 and H200
 * TensorRT-LLM bf16, which their MoE file does not measure) borrows the
 * correction (rl_moe_gemm_borrow, stop 39): `from` names the profiles it
 * came from, rows and shapes are 0 (none of its own), and its band q and
 * held_out are those of the leave-one-profile-out check (tools/moegemmcheck.py
 * --borrow; silicon.c MOE_GEMM_BORROWED), written as borrowed_from = "..."
 * in place of fitted_rows and fitted_shapes. */
#define RL_MOE_GEMM_NODES 8
#define RL_MOE_GEMM_MIN_ROWS 5
typedef struct {
    int n; /* nodes; 0: none fitted (the uncorrected time, ops.c MOE_FROM_GEMM_BAND) */
    double me[RL_MOE_GEMM_NODES]; /* rows per touched expert, ascending */
    double ln[RL_MOE_GEMM_NODES]; /* median ln(measured / GEMM-timed) there */
    double q[4];                  /* p5, p10, p90, p95 of the held-out ln(measured / corrected) */
    long rows, shapes;            /* fitted on */
    double held_out[4];           /* median, p90 |ln| uncorrected; median, p90 corrected */
    char from[200];               /* borrowed: the donors ("h100-sxm trtllm, ..."); "": own fit */
} rl_moe_gemm_fix;

/* A borrowed correction (above) for engine `engine`'s GEMM variant: of the
 * nd donors d[i] (other profiles' own fits of that variant, engine[i] and
 * name[i] theirs), those of the same engine if any, else all; at each node
 * 4^i (i = 0..7) up to the donors' last, the median of their values there
 * (rl_moe_gemm_ln: flat beyond a donor's end nodes; of an even count the
 * mean of the middle two).  Sets out's nodes and from; q, held_out, rows
 * and shapes are the caller's.  The number of donors used (0: none, out
 * has no node). */
int rl_moe_gemm_borrow(const rl_moe_gemm_fix *const *d, const char *const *engine,
                       const char *const *name, int nd, const char *target, rl_moe_gemm_fix *out);

/* The correction of f at m_e rows per touched expert (ln units; 0 when f
 * has no node). */
double rl_moe_gemm_ln(const rl_moe_gemm_fix *f, double me);

/* f's nodes made non-decreasing in m_e (stop 41, issue 12): adjacent
 * nodes out of order pooled to their mean, and on (pool adjacent
 * violators, each node one weight).  The experts' time is the correction
 * times the GEMM-timed time, and a memory-bound GEMM's time is flat in
 * its rows, so only a correction that never falls keeps the experts' time
 * from falling as the batch grows (docs/validation.md, "MoE correction
 * non-decreasing").  calibrate fits the nodes so (silicon.c mg_fit: the
 * pooled rows' median); the loader applies this to every profile read, a
 * no-op on those, a guard on older or hand-written ones.  Returns the
 * number of nodes it moved. */
int rl_moe_gemm_monotone(rl_moe_gemm_fix *f);

/* An engine's tables: t[class][variant], NULL where not measured (always
 * for RL_KC_MOE, whose tables are moe[variant]); moe_gemm[GEMM variant]
 * the bias correction above. */
typedef struct {
    const rl_ktable *t[RL_KC_COUNT][RL_KV_COUNT];
    const rl_ktable *one[RL_KC_COUNT][RL_KV_COUNT]; /* attention: the configurations
                                                       of one KV head or one sequence,
                                                       where split (RL_KX_ONE); else NULL */
    const rl_ktable *mmha[RL_KV_COUNT]; /* TensorRT-LLM decode attention: the shapes its
                                           masked MHA kernel runs, over pairs
                                           (RL_TRTLLM_MMHA); else NULL */
    double sms;                         /* the chip's SMs, which that dispatch reads (with
                                           mmha) */
    rl_moe_tables moe[RL_KV_COUNT];
    rl_moe_gemm_fix moe_gemm[RL_KV_COUNT];
} rl_engine_tables;

/* RL_TRTLLM_MMHA: TensorRT-LLM's decode attention runs one of two kernels
 * (stop 45, docs/validation.md): XQA, one CTA per (sequence, KV head) with
 * the group's query heads inside it (streams = batch x KV heads), or masked
 * multi-head attention (MMHA), one thread block per (sequence, query head):
 * mmha_launch_kernel_ex launches dim3 grid{num_heads, batch_size, seq_len_
 * tile} (cpp/tensorrt_llm/kernels/decoderMaskedMultiheadAttention/
 * decoderMaskedMultiheadAttentionLaunch.h, github.com/NVIDIA/TensorRT-LLM,
 * Apache-2.0), so its time follows batch x query heads = streams x group,
 * the (sequence, head) pairs: A100's tables measure 18.6-19.1 us at 128
 * pairs and 10.5-11.3 us at 96 and 192 for every group that runs MMHA
 * (contexts 2-4).  Which runs: XQA takes groups 2 to 32 (silicon.c
 * TRTLLM_XQA_MAX_GROUP; plain MHA, group 1, stays on MMHA) and only where
 * it "may have perf gain": num_kv_heads x batch x max(1, past KV length /
 * kMinHistoryTokensPerBlock 128) x kEnableMinBlockFactor 4 >= the SM count
 * (DecoderXQAImplJIT::mayHavePerfGain, decoderXQAImplJIT/
 * decoderXQAImplJIT.cpp, decoderXQAConstants.h, same repository).  A100
 * (108 SMs): group 16 at 4 streams 33.5 us at context 512 (4 x 4 x 4 = 64
 * < 108: MMHA), 16.9 us at 1024 (128: XQA); 8 x 256 26.5, 8 x 512 16.3 us;
 * 16 x 128 20.7, 16 x 256 15.9 us.  rl_trtllm_mmha(x, sms): 1 where decode
 * shape x (streams, context, group, ...) runs MMHA on a chip of sms SMs.
 * The import (silicon.c) builds two tables where it knows the chip's SMs:
 * the XQA side over streams (t) and the MMHA side over pairs (mmha, axis 0
 * ktable.h RL_KT_PAIRS); a lookup reads the one of its shape's kernel
 * (rl_engine_table). */
#define RL_TRTLLM_XQA_MAX_GROUP 32.0
#define RL_XQA_MIN_HISTORY 128.0
#define RL_XQA_MIN_BLOCK_FACTOR 4.0
int rl_trtllm_mmha(const double *x, double sms);

/* tables.moe_from_gemm = { VARIANT = {...}, ... } on top of L (field
 * `field` of origin) into t->moe_gemm; 0, or -1 with err. */
int rl_moe_gemm_read(lua_State *L, const char *origin, const char *field, rl_engine_tables *t,
                     char *err, size_t errlen);

/* The table of class c, variant v for shape x[RL_KSHAPE] (MoE: the one of
 * the model shape x[RL_KX_MOE..], which must equal a measured shape;
 * attention: one[c][v] where x[RL_KX_ONE] is 1 and t has it), or NULL. */
const rl_ktable *rl_engine_table(const rl_engine_tables *t, rl_kclass c, int v, const double *x);

/* Whether t has any table of class c, variant v. */
int rl_engine_has(const rl_engine_tables *t, rl_kclass c, int v);

/* Which of a run's dtypes tables t have no kernel for, so that ops.c times
 * those operators derived (DERIVED below), not measured: RL_DERIVED_KV
 * when t has no decode attention (MLA's when mla) of KV dtype kv,
 * RL_DERIVED_GEMM when t has no GEMM of weights x compute; 0 for both
 * measured, and without tables (t NULL: nothing is derived).  One check
 * for step's stderr note and size --conservative (size.c
 * conservative_plans; review28 L3). */
enum { RL_DERIVED_KV = 1, RL_DERIVED_GEMM = 2 };
int rl_engine_derived(const rl_engine_tables *t, int mla, rl_dtype weights, rl_dtype kv,
                      rl_dtype compute);

/* How an engine allocates HBM on each chip (memory.h applies it):
 *
 *   memory = { fraction = 0.9, fraction_of = "capacity" | "free",
 *              context_bytes = ..., comm_bytes = ..., workspace_bytes = ...,
 *              workspace_tokens = ..., workspace_scale = ..., source = "..." }
 *
 * overhead = context_bytes + comm_bytes (only when the copy spans > 1 chip)
 *          + workspace (memory.h rl_memory_workspace: the larger of
 *            workspace_bytes and workspace_scale x the model's one-layer
 *            activations at workspace_tokens; a memory block without
 *            workspace_tokens or workspace_scale takes the engine's
 *            default, rl_engine_memory_default);
 * "capacity" (vLLM's gpu_memory_utilization): weights + KV <= fraction x
 *   hbm_bytes - overhead;
 * "free" (TensorRT-LLM's KV-cache free_gpu_memory_fraction): KV <= fraction x
 *   (hbm_bytes - weights - overhead).
 * Each engine's defaults and their sources: rl_engine_memory_default. */
typedef struct {
    int present;
    double fraction;
    int of_free; /* 1: fraction_of = "free" */
    double context_bytes;   /* CUDA context and libraries, per chip */
    double comm_bytes;      /* collective (NCCL) buffers per chip, multi-chip copies only */
    double workspace_bytes; /* activation workspace per chip (a floor, model-free) */
    double workspace_tokens; /* the engine's default batched-token limit its activation
                              * workspace is sized at (rl_memory_workspace); 0: none */
    double workspace_scale;  /* the engine's peak over the one-layer working set at
                              * those tokens (rl_memory_workspace; 0 read as 1): 1 for
                              * trtllm (a floor), vLLM's anchored on its measured peak */
    char source[1024];
} rl_engine_memory;

/* vLLM's measured activation peak: its memory profile of Llama-3-8B on an
 * H100 80GB, "PyTorch activation peak memory 1.26GiB", at the V0 engine's
 * default of max(max_model_len 8192, 2048) = 8192 batched tokens
 * (github.com/vllm-project/vllm/pull/10511, 2024-12-14; engines.c). */
#define RL_VLLM_ACT_PEAK_BYTES (1.26 * 1073741824.0)

/* The memory block calibrate --tables writes for a known engine ("trtllm",
 * "vllm") on the chip named `chip` with hbm_bytes of HBM (chip NULL: a GPU
 * of 70 GiB or more other than an A100), with its sources (engines.c); 0,
 * or -1 for another name.  vLLM's workspace_tokens is `vllm serve`'s
 * default max_num_batched_tokens on that chip: 8192, or 2048 on an A100
 * or a GPU under 70 GiB. */
int rl_engine_memory_default(const char *engine, const char *chip, double hbm_bytes,
                             rl_engine_memory *out);

/* The costs calibrate --tables writes for engine (seconds; every engine
 * gets them, 0 where no figure is sourced) and their source sentence
 * (engines.c ENGINE_COSTS); *source is static. */
typedef struct {
    double step_s, seq_s, launch_s, prefill_layer_s;
    const char *source;
    int attn_longest; /* costs.attention_context: 1 "longest", 0 "mean" (rl_serving_engine) */
} rl_engine_cost_default;
rl_engine_cost_default rl_engine_costs_default(const char *engine);

/* ENGINE_FUSION: which elementwise kernels an engine fuses around the
 * residual stream of a dense decoder layer, with sources (engines.c);
 * rl_engine_fusion_of names them per engine, a property table as
 * ENGINE_COSTS and ENGINE_MEMORY are (a name not listed: nothing fused).
 *
 *   add_norm: the residual add and the RMSNorm after it run as one kernel
 *     that reads the sublayer output and the residual once and writes the
 *     normed activation and the new residual (2 reads + 2 writes of [M, D]
 *     where the separate add and norm move 3 + 2), as a layer's attention
 *     residual with its MLP norm and its MLP residual with the next
 *     layer's input norm (or the final norm) pair up: 2L such kernels and
 *     one plain norm (the first layer's) per forward pass.
 *   ar_norm: under TP the pair runs inside the AllReduce before it (the
 *     one-shot / two-shot NVLink kernel with AllReduceFusionOp
 *     RESIDUAL_RMS_NORM) while the engine's AUTO strategy picks such a
 *     kernel for the message, and then costs no kernel of its own; where
 *     it picks NCCL the pair runs as the add_norm kernel after it.  The
 *     rule: tp 2 to 15 (the table's rows log2(tp) - 1 = 0, 1, 2,
 *     truncated), hidden D with ar_hidden_above < D < ar_hidden_below, the
 *     message M D activation bytes at most ar_workspace[tp > 2], bit
 *     floor(log2(M)) set in ar_rows[sm >= 100][variant][log2(tp) - 1][D >= 8192]
 *     (variant: the fusion op the weights pick, RL_FUSE_VARIANT_*), and the
 *     group inside one NVLink domain (tp <= the chip's domain_chips; else
 *     NCCL: ops.c ar_fused). */
typedef struct {
    int add_norm;
    int ar_norm;
    double ar_hidden_above, ar_hidden_below;
    double ar_workspace[2]; /* bytes: tp 2, tp 4 and 8 */
    /* the lookup table's one-/two-shot entries: [table: SM90, SM100][variant]
     * [tp 2, 4, 8][hidden < 8192, >= 8192], bit k for M rows in [2^k,
     * 2^(k+1)); the chip's `sm` (spec.h) picks the table: SM100 from 100 on,
     * SM90 below and when unset */
    unsigned ar_rows[2][3][3][2];
    const char *source;     /* static; "" when nothing is fused */
} rl_engine_fusion;

/* rl_engine_fusion.ar_rows's variants: the AllReduceFusionOp
 * LlamaDecoderLayer picks by the layer's quantization (bf16 / fp16:
 * RESIDUAL_RMS_NORM; fp8: RESIDUAL_RMS_NORM_QUANT_FP8; fp4 (NVFP4):
 * RESIDUAL_RMS_NORM_QUANT_NVFP4). */
enum { RL_FUSE_VARIANT_NONE, RL_FUSE_VARIANT_FP8, RL_FUSE_VARIANT_NVFP4 };

rl_engine_fusion rl_engine_fusion_of(const char *engine);

/* Push *m as its Lua table (above). */
void rl_engine_memory_push(lua_State *L, const rl_engine_memory *m);

typedef struct {
    char name[32];
    char version[64];
    char source[512];
    char measured_on[64]; /* hw spec name of the chip measured */
    /* The timing figures of the chip as the tables were measured (key
     * measured_at = { hbm_bw = B/s, flops = { bf16 = ..., ... } }, written
     * by calibrate --tables from its --hw): at_bw 0 when the file records
     * none (written before 0.27).  When recorded they are the chip "as
     * measured" (spec.h rl_hw.measured) while this engine is selected, so a
     * profile whose figures differ from them is a what-if, whatever its
     * name (tester22 F1). */
    double at_bw;
    double at_flops[RL_DTYPE_COUNT];
    char date[32];
    const rl_engine_tables *tables; /* kept until exit; NULL: none */
    rl_kresidual resid[RL_KC_COUNT];  /* per class; residuals.holdout below */
    int resid_holdout;
    double step_s;   /* fixed cost per step, seconds (0: none sourced) */
    double seq_s;    /* cost per sequence in the batch per step, seconds */
    double launch_s; /* cost per kernel launch, seconds */
    /* host dispatch of a prefill, seconds per model layer, added once to
     * each request's TTFT, never to a step (ops.h rl_ops_prefill_dispatch;
     * rl_engine_costs_default) */
    double prefill_layer_s;
    /* costs.attention_context: the context a decode batch's attention kernel
     * is timed at when its sequences' contexts differ.  0 "mean" (the
     * default, and a profile without the key): the kernel's time follows
     * the batch's KV tokens, as in decode kernels that split each
     * sequence's keys into chunks spread over the SMs and so balance the
     * work (FlashDecoding, Dao et al. 2023, crfm.stanford.edu/2023/10/12/
     * flashdecoding.html: "split the keys/values in smaller chunks";
     * TensorRT-LLM's generation attention in multi-block mode, docs/source/
     * advanced/gpt-attention.md; vLLM's FlashAttention and FlashInfer
     * decode backends split the KV likewise): the trtllm and vllm tables
     * stay on it.  So is the CPU reference engine, whose (slot, KV head)
     * work items run as one dynamic OpenMP loop, its time their sum
     * (reference_engine/cpu/cpu_backend.c cpu_attn_decode).  1 "longest":
     * one thread block per (query row, head) walks that row's whole
     * context, so while the B x heads blocks are resident at once the
     * batch lasts as its longest row: the CUDA reference engine's attn_k,
     * grid (B, heads) (reference_engine/cuda/cuda_backend.cu
     * cu_attn_decode).  serve.h rl_step_work.decode_longest says how the
     * simulator uses it. */
    int attn_longest;
    char costs_source[512];
    /* the fitted costs of (E) (enginecost.h: `roofline fit`), present = 0
     * when the costs carry none; fitted.engine is name, fitted.source
     * costs_source */
    rl_engine_costs fitted;
    rl_engine_memory mem; /* mem.present = 0: HBM as the spec states it */
    /* Set by the caller, never read from a file: edge 1..4 puts every
     * table-timed operator at its class's residual quantile p5, p10, p90,
     * p95 (widened as its band; ops.c), and every operator no table times
     * (collectives aside) at that edge of its own band (ops.c roofline_band;
     * docs/model.md, "Bands of unmeasured operators"), one edge of the kernel-table band
     * (e2e.h rl_e2e_band_edge); 0: the table time.  wide_band 1: results
     * report the p5-p95 band (--band p5-p95), else p10-p90. */
    int edge, wide_band;
    char ref[1024]; /* the spec file it comes from, until read (on selection); else "" */
    char file[1024]; /* the reference to the spec file it was read from, as the spec
                        wrote it ("" when inline) */
} rl_serving_engine;

/* Any folder a path names (review54: 512 cut a 615-byte folder silently,
 * and its engine files were looked for where none are). */
#define RL_ENGINES_DIR_MAX PATH_MAX
typedef struct {
    int n;          /* engines given (0: none) */
    int def;        /* index of the default engine */
    int sel;        /* index of the selected engine; -1: none (ideal) */
    rl_serving_engine e[RL_ENGINES_MAX];
    char dir[RL_ENGINES_DIR_MAX]; /* folder of the profile given by path whose `engines` these are
                     * ("": a preset's): an engine file is looked up there first */
} rl_engines;

/* "gemm" | "prefill_attention" | "decode_attention". */
const char *rl_kclass_name(rl_kclass c);
/* The names of class c's grid axes, NULL-terminated (the table above);
 * reading an engine checks each table against them. */
const char *const *rl_kclass_axes(rl_kclass c);
/* "bfloat16", "fp8", ...; rl_kvariant_parse returns -1 for other names. */
const char *rl_kvariant_name(rl_kvariant v);
int rl_kvariant_parse(const char *name);

/* The gemm variant for weights/compute, the attention variant for a KV
 * dtype (the table above); -1 when none applies. */
int rl_kvariant_gemm(rl_dtype weights, rl_dtype compute);
int rl_kvariant_kv(rl_dtype kv);
/* The MoE variant for weights/compute at shape x[RL_KSHAPE] in tables t:
 * the gemm variant; for fp8 x fp8 the checkpoint's scaling (block: 1 for
 * a block-scaled checkpoint, spec.h rl_fp8_scaling), `fp8_block` or
 * per-tensor `fp8`, where t measures x so, else the other where only it
 * does (a substitute, rl_kvariant_moe_substitute), else `fp8`;
 * w4a16_mxfp4 for mxfp4 x bf16/fp16 (the table above); -1 when none. */
int rl_kvariant_moe(const rl_engine_tables *t, rl_dtype weights, rl_dtype compute, int block,
                    const double *x);
/* 1 when rl_kvariant_moe times x from the other fp8 scaling's table than
 * the checkpoint's (block as there): a kernel the engine does not run for
 * that checkpoint stands for the one it runs, which t does not measure. */
int rl_kvariant_moe_substitute(const rl_engine_tables *t, rl_dtype weights, rl_dtype compute,
                               int block, const double *x);

/* Per-byte sizes of a variant: weight bytes, activation bytes (GEMM), KV
 * bytes (attention). */
double rl_kvariant_weight_bytes(rl_kvariant v);
double rl_kvariant_act_bytes(rl_kvariant v);

/* The ideal roofline time of one table's operator at a table shape, for
 * extrapolation and hole filling: max(FLOPs / peak, bytes / bw).
 *   gemm (m, n, k):              2mnk FLOPs; (mk + mn) activations + kn weights
 *   prefill (streams = batch x kv_heads, isl, group = heads / kv_heads,
 *           head_dim):           causal 2 * 2 s g d isl (isl+1)/2 FLOPs;
 *                                Q, O of s g isl d and K, V of s isl d elements
 *   decode (streams = batch x kv_heads, context, group = heads / kv_heads,
 *          head_dim):            4 s g c d FLOPs; K and V of s c d elements
 *   prefill_mla (batch b, isl s, heads h per chip), MLA's non-absorbed
 *        prefill: causal 2 b h (nope + rope + v) s (s+1)/2 FLOPs; Q, O
 *        (bf16) and K, V (the variant's KV bytes) of b s h (nope + rope + v)
 *        elements
 *   decode_mla (batch b, context c, heads h per chip), the absorbed form:
 *        2 b h c (latent + rope + latent) FLOPs; the cached latents, b c
 *        (latent + rope) KV elements, plus Q and O, b h (2 latent + rope)
 *        bf16 elements
 *   moe (tokens T, tp_share = 1/tp, ep_share = 1/ep; shape hidden H,
 *       inter I, topk k, experts E), one chip's share:
 *                                2 * 3 T k H I / (tp ep) FLOPs (gate, up,
 *                                down); weights 3 H I / tp of each of its
 *                                min(E, T k) / ep touched experts, tokens
 *                                in and out (T H each) */
typedef struct {
    rl_kclass cls;
    rl_kvariant var;
    double peak; /* FLOP/s of the variant's compute dtype */
    double bw;   /* bytes/s */
    double moe[4]; /* MoE: the model shape hidden, inter, topk, experts */
    int expected;  /* MoE: the experts read are those T tokens touch on average
                      under uniform routing, E (1 - (1 - k/E)^T) (arch.h
                      rl_arch_expected_experts, what ops.c counts), not min(E, T k)
                      (rl_engine_efficiency); -1: one expert, the fewest a routed
                      token reads, the floor `calibrate --tables` checks MoE rows
                      against (silicon.c drop_below_floor): not k, because
                      AIConfigurator's power-law routing at 1 token reads fewer
                      (h100_sxm/trtllm moe, hidden 8192, inter 5120, top-22 of
                      512, fp8: 17 rows faster than 22 experts' weights at
                      3.35 TB/s, 0.633 ms vs 0.826 ms) */
} rl_kideal_ctx;
double rl_kideal(const double *x, const void *ctx);

/* The peak of the compute dtype a variant's kernels run in, from a chip's
 * peaks per dtype (rl_hw.flops): bfloat16 and the weight-only variants
 * bf16, fp8 fp8, sq int8, nvfp4 fp4, float32 fp32 (the table above); bf16's
 * when the chip lists none for it. */
double rl_kvariant_peak(const double *flops, rl_kvariant v);

/* Read the `engines` table on top of L's stack into *out and select the
 * default.  String entries name spec files (found under the preset
 * directories, else as paths) read when the engine is first selected.
 * Errors: "ORIGIN: field 'engines.vllm.tables.gemm.fp8.values[3]': reason".
 * Returns 0 or -1. */
int rl_engines_read(lua_State *L, const char *origin, rl_engines *out, char *err, size_t errlen);
/* The folder rl_engines_read records as out->dir on this thread until set
 * again ("" or NULL: none): load_spec sets it to the folder of a hardware
 * spec given by path whose `engines` table it converts (spec.c), so that
 * "engines/x.lua" is read beside the spec before the shipped tree. */
void rl_engines_spec_dir(const char *dir);

/* Push *e as a Lua table like the above: an engine read from a file as
 * that file's name, an inline one with its `tables` as a light userdata
 * that rl_engines_read takes back (scenario scripts pass specs through Lua;
 * they cannot make one); `default` names the selected engine.  e->dir,
 * when set, rides in the table's metatable (field engines_dir, unseen by
 * pairs and by a saved spec) and rl_engines_read takes it back, so engine
 * files stay read beside a profile given by path. */
void rl_engines_push(lua_State *L, const rl_engines *e);
/* Set measured_at = { hbm_bw, flops } (g->at_bw > 0) on the table on top. */
void rl_engine_measured_at_push(lua_State *L, const rl_serving_engine *g);

/* Where engine `name` is in e->e[]: its index, RL_ENGINE_IDEAL for "ideal"
 * (no engine: every spec carries it), RL_ENGINE_ABSENT when the spec
 * carries no engine of that name.  The one matching of a name to a spec's
 * engines: rl_engines_select and size's per-profile --engine (cli.c
 * size_load_hw) both read it (review58 #5: size kept its own copy). */
#define RL_ENGINE_IDEAL (-1)
#define RL_ENGINE_ABSENT (-2)
int rl_engines_find(const rl_engines *e, const char *name);

/* Select engine `name` ("ideal": none), reading its file when it has not
 * been: a relative file name in e->dir first (said on stderr when it differs
 * from the shipped file of that name, or when it is not there and the
 * shipped one is read), then the data folders (rl_data_find), then as a
 * path.  Returns 0, or -1 with err naming the engines the spec carries (or
 * why its file cannot be read). */
int rl_engines_select(rl_engines *e, const char *name, const char *origin, char *err,
                      size_t errlen);

/* The selected engine, or NULL. */
const rl_serving_engine *rl_engines_selected(const rl_engines *e);

/* Whether serving engine `engine` ("trtllm", "vllm"; others unknown: 0)
 * stores no KV cache in the quantized dtype `kv` (below 2 bytes) on a chip
 * of compute capability `sm` (spec.h rl_hw.sm; 0 unset): 1 with a caution
 * naming the engine and what it stores, with the source, in buf[len], else
 * 0 (buf "").  TensorRT-LLM: fp8, int8, NVFP4 on sm 100-109 only; vLLM:
 * fp8 (engines.c, fixJH). */
int rl_engine_kv_caution(const char *engine, rl_dtype kv, long long sm, char *buf, size_t len);

/* Whether serving engine `engine` runs no fp8 or fp4 `weights` or
 * `compute` on a chip of compute capability `sm` (0 unset: no claim): 1
 * with a caution naming it and the source in buf[len], else 0 (buf "").
 * TensorRT-LLM: fp8 below sm 89, fp4 below sm 100, its support matrix; the
 * same table as rl_engine_kv_caution's fp8 KV (engines.c TRTLLM_MIN_SM,
 * fixSA, tester90 #2).  vLLM runs both weight-only (Marlin): none. */
int rl_engine_precision_caution(const char *engine, rl_dtype weights, rl_dtype compute,
                                long long sm, char *buf, size_t len);

/* Engine e's fixed costs of one step of `seqs` sequences making `launches`
 * kernel launches: step_s + seq_s * seqs + launch_s * launches (the cost
 * terms above; their sources are the engine's `costs`). */
double rl_engine_step_cost(const rl_serving_engine *e, double seqs, double launches);

/* Free a block of tables and its tables (NULL is ignored). */
void rl_engine_tables_free(rl_engine_tables *t);

/* Keep a block of tables (allocated with malloc, each table too) until
 * exit: this module frees them then. */
const rl_engine_tables *rl_engines_keep(rl_engine_tables *t);

/* Octaves by which shape x[RL_KSHAPE] of class c, variant v lies outside the selected
 * engine's table grid: the sum over axes of log2(x / largest) or
 * log2(smallest / x), whichever is positive; 0 inside or without a table.
 * With above non-NULL, above[a] gets the octaves above the grid along
 * each axis a (log2(x / largest), else 0; RL_KRESIDUAL_AXES of them) and
 * only the octaves below it are returned. */
double rl_engine_outside(const rl_serving_engine *e, rl_kclass c, int v, const double *x,
                         double *above);

/* Write e's residuals as `residuals = {...},` at indent (Lua source). */
void rl_engine_put_residuals(FILE *f, const rl_kresidual *r, int holdout, int indent);

/* Time of one operator of class c and variant v at table shape
 * x[RL_KSHAPE] from the selected engine's table (e may be NULL); -1 when there is none.  *prov
 * gets the provenance.  peak and bw: the figures the table was measured at.
 *
 * THE FLOOR RULE: a kernel time is never below its own roofline at those
 * figures, rl_kideal(x; peak, bw): no kernel moves its bytes faster than
 * the chip's HBM bandwidth or computes faster than its peak (seed 000
 * section 1; Williams et al., CACM 52(4), 2009, the roof as an upper bound
 * on attainable performance).  A measured row below it is not a timing of
 * that shape: AIConfigurator's A100 TensorRT-LLM 1.0.0 decode attention
 * (silicon/a100_sxm/trtllm/generation_attention_perf.csv.gz) has GQA rows
 * reading K/V at up to 1.69x A100's 2.039 TB/s (batch 64, 32 heads, 8 KV
 * heads, head_dim 128, bf16, step 8191: 64 x 8192 x 4096 B in 0.639 ms,
 * 3.36 TB/s; the MHA row of the same 8 KV heads, 1.256 ms, 1.71 TB/s),
 * while no H100, H200, B200 or GB200 table, and neither A100 vLLM, exceeds
 * 0.96x.  Such rows are left out when tables are imported (silicon.h);
 * interpolation in log space between nodes at or above the floor stays at
 * or above it (the floor is convex in the log axes and a table time is a
 * convex combination of its nodes), and extrapolation scales a node by the
 * roofline ratio, so this floor only acts on a profile imported before
 * the rule (or edited by hand): it returns the floor and counts it
 * (rl_engine_floored; the command line notes it once per run).  MoE rows
 * are not floored: rl_kideal counts every expert a chip's tokens can reach
 * (min(T k, E)) as read, while the measured routing (power_law_1.01) may
 * touch fewer, so it is not a lower bound there.  ops.c floors each operator it times by a
 * table at the operator's own roofline again (the bytes and FLOPs it
 * lists), MoE and derived times included (tester16 F1). */
double rl_engine_time(const rl_serving_engine *e, rl_kclass c, int v, const double *x, double peak,
                      double bw, rl_provenance *prov);

/* The floor rule's floor for a kernel of class c and variant v at shape x,
 * measured at peak and bw: rl_kideal, or 0 for MoE (above).  Every
 * engine's tables, the `reference` engine's included: `calibrate
 * --backend` reads their weights and K/V pages from DRAM (calib.h: one
 * rotation through 256 MiB), and its base.lua's hbm_bw and flops are the
 * same run's stream copy and best GEMM, so a row below this floor read a
 * cache, not the chip's DRAM (tester19 F1: they were spared until stop 26,
 * and a 1 MiB GEMM that read its predecessor's cached weights became
 * peak_flops).  One rule for lookups (rl_engine_time) and imports
 * (silicon.h). */
double rl_engine_floor(rl_kclass c, int v, const double *x, double peak, double bw);

/* How many table times were raised to their roofline floor (the floor rule
 * of rl_engine_time) in this process. */
long rl_engine_floored(void);

/* WHAT-IF: a kernel's time on a chip whose figures `now` (peak FLOP/s of
 * the kernel's compute dtype, HBM bytes/s) differ from those `was` its
 * table was measured at (spec.h rl_hw.measured: --set hw.hbm_bw, a spec
 * over a `base`, a Lua override or an edited table):
 *
 *   t_now(x) = ideal(x; now) + (t_table(x) - ideal(x; was))
 *
 * t_table(x): rl_engine_time at the figures `was` (interpolated or
 * extrapolated as any table time); ideal: rl_kideal, the kernel's roofline
 * max(FLOPs / peak, bytes / bw) (seed 000 section 1, "Linear operations:
 * what bottlenecks us?"; Williams, Waterman and Patterson, "Roofline", CACM
 * 52(4), 2009).  The measured time is split at its roofline on the chip as
 * measured: the roofline part moves to the changed chip, and the excess
 * above it (launch, a latency-bound tail, fixed pipeline start-up) is kept.
 * This is Hockney's two-parameter model, t = t0 + n / r_inf, a start-up t0
 * that does not depend on the asymptotic rate r_inf (Hockney and Jesshope,
 * "Parallel Computers 2", Adam Hilger, 1988, for vector operations; Hockney,
 * "The communication challenge for MPP", Parallel Computing 20(3), 1994, for
 * messages), with the roofline as n / r_inf: the rule comm.h applies to
 * measured collectives (Hockney's terms apart).  Until stop 24 the whole time
 * was scaled by ideal(x; now) / ideal(x; was), excess included: 100x the
 * bandwidth read llama3-8b's 483 decode kernels in 64 us on H100 (tester15
 * F-whatif-1), and H100 at H200's 4.8 TB/s read its decode steps 3-11% faster
 * than the H200 tables themselves; now -0.8% to +3.5% (docs/model.md).  Where
 * part of the excess scales with the bandwidth (a kernel sustaining 90% of
 * peak), keeping it whole understates how far that kernel moves, as the old
 * ratio overstated it.  A kernel measured below its roofline (MoE and
 * reference rows, which the floor rule spares: rl_engine_floor) has no excess
 * and keeps its ratio, t_table x ideal(now) / ideal(was).  Lowering either
 * figure never lowers ideal(x; now), so never a time (monotone); the time is
 * never below ideal(x; now) unless the table's was below ideal(x; was); `now`
 * equal to `was` returns the table's time unchanged (to the bit).
 * was[2], now[2]: {peak, bw}. */
double rl_engine_time_on(const rl_serving_engine *e, rl_kclass c, int v, const double *x,
                         const double was[2], const double now[2], rl_provenance *prov);

/* How a hardware what-if moves a measured kernel, in the words every label
 * uses (rl_engine_time_on). */
#define RL_ENGINE_WHAT_IF_RULE                                                    \
    "each measured kernel time split at its roofline on the chip as measured: "   \
    "the roofline part moved to the changed chip, the excess above it kept "       \
    "(Hockney's terms apart, engines.h)"

/* DERIVED: an operator whose precision has no table of its class (int8
 * weights or KV on an engine measured in bf16 and fp8 only) takes the
 * efficiency the engine's nearest measured variant shows at the same shape:
 *
 *   time = (t_ref(x) / ideal_ref(x)) x the operator's own roofline time
 *
 * t_ref: the reference variant's table time at shape x (interpolated or
 * extrapolated as any table time); ideal_ref: rl_kideal of that variant at
 * its compute dtype's peak (rl_kvariant_peak, as calibrate --tables filled
 * the tables' holes) and bw.  The reference variant: of the class's tabled
 * variants, the one nearest on what bounds the operator's own roofline: a
 * memory-bound operator the stored element (|log2| of the bytes ratio: GEMM
 * weight bytes, attention KV bytes), ties to the nearest compute dtype
 * (GEMM activation bytes); a compute-bound one the compute dtype first,
 * then the stored bytes; remaining ties the first in the variant order.
 * So int8 weights with bf16 compute (int8_wo) on an engine measured in bf16
 * and fp8 take fp8's efficiency in a decode GEMM (1-byte weights streamed)
 * and bf16's in a prefill GEMM (bf16 math).  A MoE ideal_ref counts the
 * experts the operator reads (rl_kideal_ctx.expected), not min(E, T k):
 * the latter, beside the operator's expected count, counted the untouched
 * experts twice (tester16 F1: Mixtral int8 experts at 0.68 of their
 * roofline).  Provenance `derived`; its band is the wider of the class's
 * residual band widened one octave more than the reference's own (the dtype
 * step counts as one octave outside the grid) and the dtype hold-out's
 * (ops.c DERIVED_BAND; docs/model.md, "Bands of unmeasured operators").  No variant was measured for the dtype, so a
 * step whose only table-based times are derived is labelled `estimated`
 * (spec.h rl_hw_run_mode).
 *
 * rl_engine_nearest_variant: the reference variant of class c for an
 * element of `bytes` bytes (weights or KV) and a compute dtype of
 * `act_bytes` bytes, `compute_bound` as the operator's own roofline, or -1
 * when the engine has no table of the class.
 * rl_engine_efficiency: t_ref(x) / ideal_ref(x) of variant v, `flops` the
 * chip's peak per dtype (rl_hw.flops); -1 without that table or an ideal. */
int rl_engine_nearest_variant(const rl_serving_engine *e, rl_kclass c, double bytes,
                              double act_bytes, int compute_bound);
double rl_engine_efficiency(const rl_serving_engine *e, rl_kclass c, int v, const double *x,
                            const double *flops, double bw);

#endif
