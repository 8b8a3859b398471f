/* engines.c — a hardware spec's serving engines: reading and pushing the
 * `engines` field, the precision -> dtype variant table, the tables' ideal
 * roofline, and operator times from the selected engine (engines.h). */
#include "engines.h"
#include "fastmax.h"

#include "enginecost.h"
#include "cli.h"
#include "error.h"

#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lauxlib.h>

#include "sandbox.h"
#include "spec.h"
#include "stats.h"

static const char *const CLASS_NAMES[RL_KC_COUNT] = {"gemm",        "prefill_attention",
                                                     "decode_attention", "moe",
                                                     "prefill_mla", "decode_mla"};
static const char *const VARIANT_NAMES[RL_KV_COUNT] = {"bfloat16", "fp8",     "int8_wo",
                                                       "int4_wo",  "sq",      "nvfp4",
                                                       "float32",  "fp8_block", "w4a16_mxfp4"};
/* bytes per weight and per activation element of each variant */
static const double WEIGHT_BYTES[RL_KV_COUNT] = {2, 1, 1, 0.5, 1, 0.5, 4, 1, 0.5};
static const double ACT_BYTES[RL_KV_COUNT] = {2, 1, 2, 2, 1, 0.5, 4, 1, 2};

/* the axes of each class's grid (engines.h) */
static const char *const CLASS_AXES[RL_KC_COUNT][RL_KT_AXES + 1] = {
    {"m", "n", "k", NULL},
    {"streams", "isl", "group", "head_dim", NULL},
    {"streams", "context", "group", "head_dim", NULL},
    {"tokens", "tp_share", "ep_share", NULL},
    {"batch", "isl", "heads", NULL},
    {"batch", "context", "heads", NULL},
};

const char *rl_kclass_name(rl_kclass c) { return c < RL_KC_COUNT ? CLASS_NAMES[c] : "?"; }
const char *const *rl_kclass_axes(rl_kclass c) { return CLASS_AXES[c]; }

/* Whether table t has the axes of class c, in order (pairs: the first
 * RL_KT_PAIRS, ktable.h). */
static int has_axes(const rl_ktable *t, rl_kclass c, int pairs)
{
    int a = 0;
    for (; CLASS_AXES[c][a]; a++)
        if (a >= t->naxes ||
            strcmp(t->axis_name[a], pairs && a == 0 ? RL_KT_PAIRS : CLASS_AXES[c][a]) != 0)
            return 0;
    return a == t->naxes;
}
const char *rl_kvariant_name(rl_kvariant v) { return v < RL_KV_COUNT ? VARIANT_NAMES[v] : "?"; }
double rl_kvariant_weight_bytes(rl_kvariant v) { return WEIGHT_BYTES[v]; }
double rl_kvariant_act_bytes(rl_kvariant v) { return ACT_BYTES[v]; }

int rl_kvariant_parse(const char *name)
{
    for (int v = 0; v < RL_KV_COUNT; v++)
        if (strcmp(name, VARIANT_NAMES[v]) == 0)
            return v;
    return -1;
}

static int is_half(rl_dtype d) { return d == RL_BF16 || d == RL_FP16; }

/* DTYPE_MAP: the table of engines.h. */
int rl_kvariant_gemm(rl_dtype weights, rl_dtype compute)
{
    if (is_half(weights) && is_half(compute))
        return RL_KV_BF16;
    if (weights == RL_FP8 && compute == RL_FP8)
        return RL_KV_FP8;
    if (weights == RL_INT8 && is_half(compute))
        return RL_KV_INT8_WO;
    if (weights == RL_INT4 && is_half(compute))
        return RL_KV_INT4_WO;
    if (weights == RL_INT8 && compute == RL_INT8)
        return RL_KV_SQ;
    if (weights == RL_FP4 && compute == RL_FP4)
        return RL_KV_NVFP4;
    if (weights == RL_FP32 && compute == RL_FP32)
        return RL_KV_FP32;
    return -1;
}

int rl_kvariant_moe(const rl_engine_tables *t, rl_dtype weights, rl_dtype compute, int block,
                    const double *x)
{
    if (weights == RL_MXFP4 && is_half(compute))
        return RL_KV_MXFP4;
    int v = rl_kvariant_gemm(weights, compute);
    if (v != RL_KV_FP8)
        return v;
    /* the checkpoint's scaling, else the other where only it measures x
     * (a substitute: rl_kvariant_moe_substitute) */
    int own = block ? RL_KV_FP8_BLOCK : RL_KV_FP8, other = block ? RL_KV_FP8 : RL_KV_FP8_BLOCK;
    if (rl_engine_table(t, RL_KC_MOE, own, x))
        return own;
    if (rl_engine_table(t, RL_KC_MOE, other, x))
        return other;
    return RL_KV_FP8; /* neither measures x: timed as before any table (ops.c moe_derived) */
}

int rl_kvariant_moe_substitute(const rl_engine_tables *t, rl_dtype weights, rl_dtype compute,
                               int block, const double *x)
{
    if (rl_kvariant_gemm(weights, compute) != RL_KV_FP8)
        return 0;
    int v = rl_kvariant_moe(t, weights, compute, block, x);
    return rl_engine_table(t, RL_KC_MOE, v, x) && v != (block ? RL_KV_FP8_BLOCK : RL_KV_FP8);
}

int rl_kvariant_kv(rl_dtype kv)
{
    return is_half(kv) ? RL_KV_BF16 : kv == RL_FP8 ? RL_KV_FP8 : kv == RL_FP32 ? RL_KV_FP32 : -1;
}

/* ENGINE_COSTS: the time an engine spends outside the kernels its tables
 * measure, with sources.
 *  vLLM: 0.8 ms per model layer added to each request's prefill, "CPU-side
 *    dispatch overhead [that] scales with layer count and is not captured in
 *    silicon benchmarks", NVIDIA AIConfigurator's calibration against its
 *    silicon corpus, not ours (VLLMBackend._prefill_dispatch_overhead_ms,
 *    aic-core/src/aiconfigurator_core/sdk/backends/vllm_backend.py; added in
 *    commit 0d2668649, PR #1166, 2026-06-23; Apache-2.0).  AIConfigurator
 *    adds it once to each request's TTFT however many chunks its prompt
 *    takes (BaseBackend's `_ttft_per_request`, base_backend.py), never to
 *    its TPOT, and states it "does not scale with batch size": so do we, as
 *    latency on that request's path, not time of a step (ops.h
 *    rl_ops_prefill_dispatch; serve.h rl_step_cost.dispatch_s).
 *  TensorRT-LLM (and every other engine): AIConfigurator's base backend adds
 *    0 (BaseBackend._prefill_dispatch_overhead_ms, same commit).
 *  Per-step, per-sequence and per-launch costs: 0.  Both engines overlap
 *    their host work (scheduling, input preparation, sampling post-processing)
 *    with the GPU step by default: TensorRT-LLM's overlap scheduler launches
 *    step n+1 before step n's CPU work ("Enabled by default",
 *    docs/source/features/overlap-scheduler.md at 081661b,
 *    nvidia.github.io/TensorRT-LLM/features/overlap-scheduler.html), vLLM's
 *    async scheduling runs the scheduler a step ahead (PR 19970), on by default
 *    since PR 27614 (issue 27679's plan; PR 32775, 2026-01, reads "If set to
 *    False, disable async scheduling"), before 0.24.  Host time shows only
 *    where it is longer than the GPU step.  The one public figure there, from
 *    the engines' authors: "~580 us/iter of host overhead as GPU idle" in
 *    TensorRT-LLM's single-thread _executor_loop_overlap "on steady-state
 *    decode workloads where per-iter host work is comparable to GPU work"
 *    (NVIDIA/TensorRT-LLM issue 13957, NVIDIA, 2026-05-10; Llama-3.1-8B FP8,
 *    one B200, ISL = OSL = 1000, 64 concurrent; main of May 2026, before
 *    1.3.0rc20; PR 15841's opt-in pipelined loop was closed unmerged and PR
 *    18406, 2026-08-30, still patches that loop).  It is max(0, host - GPU) at
 *    one point, not a constant: added to every step it would charge steps whose
 *    GPU time hides the host work (a 70B model's), so it is not a default.  vLLM
 *    0.20.1 led TensorRT-LLM there by hiding that work (same issue: 2-batch
 *    queue, 15638 vs 13806 output tok/s).  Older figures describe engines
 *    without the overlap: vLLM issue 6854's 4-13 ms GPU bubble per decode step
 *    is vLLM 0.5, and blog.vllm.ai/2024/09/05/perf-update.html gives shares of
 *    time for v0.5.3, not seconds.  `roofline fit` fits the three on end-to-end
 *    data.  AIConfigurator's other engine corrections are not costs of a step:
 *    TRT-LLM's "~3 steps pipeline drain" shortens the step count of its
 *    closed-form TPOT average (TRTLLMBackend._tpot_mix_steps), vLLM's
 *    _ttft_queuing_factor and _throughput_cap stand in for the queueing that
 *    serve.c simulates step by step, and _mix_step_efficiency is 1 for vLLM and
 *    the base (our mixed step reads each weight once for all its rows already;
 *    docs/model.md). */
#define SRC_NO_STEP_COSTS                                                                          \
    "step_s, seq_s, launch_s 0: host work overlaps the GPU step by default (TensorRT-LLM overlap " \
    "scheduler, vLLM async scheduling), exposed only beyond it (0.58 ms/step there: TensorRT-LLM " \
    "issue 13957); roofline fit fits them"
rl_engine_cost_default rl_engine_costs_default(const char *engine)
{
    if (!strcmp(engine, "vllm"))
        return (rl_engine_cost_default){0, 0, 0, 8e-4,
            SRC_NO_STEP_COSTS "; prefill_layer_s 0.8 ms per layer, added once to each request's "
            "TTFT, not to a step: NVIDIA AIConfigurator's calibration of vLLM's CPU-side prefill dispatch, "
            "not ours (sdk/backends/vllm_backend.py _prefill_dispatch_overhead_ms, commit "
            "0d2668649, PR #1166, 2026-06-23, Apache-2.0)", 0};
    return (rl_engine_cost_default){0, 0, 0, 0,
        SRC_NO_STEP_COSTS "; prefill_layer_s 0: NVIDIA AIConfigurator adds none for this "
        "engine (sdk/backends/base_backend.py _prefill_dispatch_overhead_ms, commit 0d2668649, "
        "2026-06-23)", 0};
}

/* ENGINE_FUSION (engines.h rl_engine_fusion), with sources.
 *  vLLM: RMSNorm.forward_cuda calls fused_add_rms_norm(x, residual, weight,
 *    eps) whenever a residual is passed (vllm/model_executor/layers/
 *    layernorm.py; the kernel, csrc/layernorm_kernels.cu, writes the sum
 *    into `residual` and the normed rows into `x` in place), and
 *    LlamaDecoderLayer passes one to every norm but the first layer's
 *    input norm, the final norm included (vllm/model_executor/models/
 *    llama.py).  Its AllReduce + RMSNorm fusion (the FlashInfer compile
 *    pass) is off by default (PassConfig enable_fi_allreduce_fusion): not
 *    modelled.
 *  TensorRT-LLM: RMSNorm.forward with a residual runs
 *    flashinfer_fused_add_rmsnorm (tensorrt_llm/_torch/modules/rms_norm.py);
 *    LlamaDecoderLayer, for hidden_size > 4096 ("Disable fusion for small
 *    models due to accuracy issues") and TP > 1, hands the pair to the
 *    o_proj and down_proj AllReduce as AllReduceFusionOp.RESIDUAL_RMS_NORM
 *    (PRE_MLP_FUSION, POST_MLP_FUSION; the last layer's with the final norm,
 *    LlamaForCausalLM.post_load_weights; tensorrt_llm/_torch/models/
 *    modeling_llama.py at commit 3a5901cd).  AllreduceOp::run (cpp/
 *    tensorrt_llm/thop/allreduceOp.cpp) runs it inside the Lamport one-shot /
 *    two-shot kernel (runFusionAllReduce) where selectImplementation picks
 *    ONESHOT or TWOSHOT, and as one residualRmsNorm kernel after the NCCL
 *    AllReduce where it falls back (fallbackRunSubsequentOps): messages over
 *    getMaxRequiredWorkspaceSize (16e6 bytes at 2 GPUs, 8e6 beyond), and
 *    under strategy AUTO the lookup table selectStrategyLookUpTable
 *    (cpp/tensorrt_llm/common/customAllReduceUtils.h, AllReduceBestStrategy
 *    TableSM90, fusion RESIDUAL_RMS_NORM, indexed by log2(tp) - 1, log2(D) -
 *    7 and log2(tokens), NCCL_SYMMETRIC outside it, so at D >= 16384 and tp
 *    16): one- or two-shot below 2048 / 1024 / 128 tokens at tp 2 / 4 / 8
 *    for D in (4096, 8192), below 1024 / 512 / 64 for D in [8192, 16384),
 *    NCCL from there.  Those are the Hopper (and older: "Map all
 *    pre-Blackwell sm versions to 90") figures of fusion RESIDUAL_RMS_NORM,
 *    the op of bf16 / fp16 layers; an fp8 layer's RESIDUAL_RMS_NORM_QUANT_FP8
 *    row fuses the same but also at 256-1023 tokens (D in (4096, 8192)) and
 *    256-511 (D in [8192, 16384)) at tp 8, an NVFP4 layer's never on
 *    Hopper (modeling_llama.py is_fp8_quant / is_nvfp4 pick the op; the
 *    workspace bound still applies).  Blackwell's table
 *    (AllReduceBestStrategyTableSM100, "Map all post-Blackwell sm versions
 *    to 100", read on a chip whose spec says sm >= 100: b200, gb200) fuses
 *    more: below 2048 / 1024 / 1024 tokens at tp 2 / 4 / 8 for D in (4096,
 *    8192), below 1024 / 512 / 512 for D in [8192, 16384), the same for
 *    all three ops, NVFP4's included.  Both tables as stored at
 *    customAllReduceUtils.h commit 005b299b (github.com/NVIDIA/
 *    TensorRT-LLM, Apache-2.0; the SM90 figures above unchanged there). */
#define SRC_ADD_NORM_VLLM                                                                      \
    "vLLM RMSNorm.forward_cuda: fused_add_rms_norm when a residual is passed "                  \
    "(vllm/model_executor/layers/layernorm.py), every norm but the first layer's input norm "    \
    "(LlamaDecoderLayer, vllm/model_executor/models/llama.py)"
#define SRC_FUSION_TRTLLM                                                                      \
    "TensorRT-LLM RMSNorm with a residual: flashinfer_fused_add_rmsnorm "                       \
    "(tensorrt_llm/_torch/modules/rms_norm.py); LlamaDecoderLayer at hidden_size > 4096 and "   \
    "TP > 1 fuses it into the AllReduce (AllReduceFusionOp.RESIDUAL_RMS_NORM, "                 \
    "_torch/models/modeling_llama.py at 3a5901cd), inside the one-/two-shot kernel where "      \
    "strategy AUTO picks one (cpp/tensorrt_llm/common/customAllReduceUtils.h "                  \
    "AllReduceBestStrategyTableSM90, SM100 on a chip of sm >= 100; workspace 16e6 B at 2 "      \
    "GPUs, 8e6 beyond), after NCCL "                                                            \
    "as one residualRmsNorm kernel otherwise (thop/allreduceOp.cpp)"
rl_engine_fusion rl_engine_fusion_of(const char *engine)
{
    rl_engine_fusion f = {0, 0, 0, 0, {0, 0}, {{{{0}}}}, ""};
    if (!strcmp(engine, "vllm")) {
        f.add_norm = 1;
        f.source = SRC_ADD_NORM_VLLM;
    } else if (!strcmp(engine, "trtllm")) {
        /* AllReduceBestStrategyTableSM90's entries 4 (ONESHOT) and 5
         * (TWOSHOT) at hidden index 5 and 6: RESIDUAL_RMS_NORM rows below
         * 2048 / 1024 / 128 tokens at tp 2 / 4 / 8 (hidden index 5) and
         * 1024 / 512 / 64 (index 6); RESIDUAL_RMS_NORM_QUANT_FP8 the same
         * but at tp 8, where it fuses again at 256-1023 (index 5) and
         * 256-511 tokens (index 6), NCCL between; QUANT_NVFP4 all NCCL.
         * AllReduceBestStrategyTableSM100's: every op below 2048 / 1024 /
         * 1024 tokens (index 5) and 1024 / 512 / 512 (index 6) */
        f = (rl_engine_fusion){1, 1, 4096, 16384, {16e6, 8e6},
                               {{{{0x7ff, 0x3ff}, {0x3ff, 0x1ff}, {0x7f, 0x3f}},
                                 {{0x7ff, 0x3ff}, {0x3ff, 0x1ff}, {0x37f, 0x13f}},
                                 {{0, 0}, {0, 0}, {0, 0}}},
                                {{{0x7ff, 0x3ff}, {0x3ff, 0x1ff}, {0x3ff, 0x1ff}},
                                 {{0x7ff, 0x3ff}, {0x3ff, 0x1ff}, {0x3ff, 0x1ff}},
                                 {{0x7ff, 0x3ff}, {0x3ff, 0x1ff}, {0x3ff, 0x1ff}}}},
                               SRC_FUSION_TRTLLM};
    }
    return f;
}

/* ENGINE_MEMORY: how each engine sizes its KV cache, with sources.
 *  vLLM: CacheConfig.gpu_memory_utilization, "the fraction of GPU memory to
 *    be used for the model executor": 0.92 for vLLM 0.24.0, the tables'
 *    version (../shared/data/README.md).  NVIDIA AIConfigurator reads it from
 *    vllm/config/cache.py per release: 0.9 at v0.14.0 and v0.19.0, 0.92 at
 *    v0.22.0 and unchanged at v0.24.0/v0.25.x
 *    (aic-core/src/aiconfigurator_core/sdk/backends/vllm_backend.py,
 *    VLLM_GPU_MEMORY_UTILIZATION_BY_VERSION, commit c56db49fe, 2026-07-29,
 *    github.com/ai-dynamo/aiconfigurator, Apache-2.0); 0.9 at vLLM commit
 *    c1d8642 is an older release's.  Overheads from vLLM's memory-profiling log in
 *    github.com/vllm-project/vllm/pull/10511 (2024-12-14, Llama-3-8B on an
 *    H100 80GB): non_torch_memory 1.79 GiB on one GPU (context), 3.58 GiB
 *    at TP2 (+1.79 GiB: collective buffers), PyTorch activation peak
 *    1.26 GiB (workspace; measured for that model and vLLM's default
 *    batched-token limit: the anchor of vLLM's workspace rule below).
 *  TensorRT-LLM: KvCacheConfig.free_gpu_memory_fraction 0.9, "the fraction
 *    of GPU memory that should be allocated for the KV cache"
 *    (tensorrt_llm/llmapi/llm_args.py at commit fcd3f31,
 *    github.com/NVIDIA/TensorRT-LLM), of the memory left free after the
 *    weights and the activation memory are allocated
 *    (docs/source/reference/memory.md there; vllm-project/vllm PR 5158
 *    compares the two rules).  Collective buffers: 411041792 bytes (392 MiB)
 *    at 4 and 8 GPUs, NVIDIA AIConfigurator's systems/<gpu>/system.yaml
 *    misc.nccl_mem ("correction based on observations", Apache-2.0; 342 MiB
 *    at 2).  Context: no public figure for TensorRT-LLM found: 0, the tenth
 *    of the free memory the fraction leaves being the engine's headroom.
 *    Activation workspace: TensorRT-LLM sizes it before the KV cache, at the
 *    build-time maximum of input tokens ("activation size will be close to
 *    max number of input tokens * some constant factor", one block's
 *    tensors, split by tensor parallelism: docs/source/reference/memory.md,
 *    "Activation size"); max_num_tokens defaults to 8192 (trtllm-serve
 *    --max_num_tokens, nvidia.github.io/TensorRT-LLM commands/trtllm-serve;
 *    NeMo's TensorRTLLMAPIDeployable max_num_tokens = 8192,
 *    docs.nvidia.com/nemo/export-deploy).  workspace_tokens = 8192: the
 *    model's one-layer working set at 8192 tokens (memory.h
 *    rl_memory_workspace), a floor on the constant factor.
 *  vLLM's workspace follows the model: vLLM sizes it by profiling a dummy
 *    forward pass at max_num_batched_tokens and reserving its peak, so the
 *    rule is the model's one-layer working set at that many tokens (as
 *    trtllm's) times a constant anchored on the one measured peak: 1.26
 *    GiB for Llama-3-8B (PR 10511, a V0 engine: chunked prefill only above
 *    32K context, vllm/engine/arg_utils.py at commit 001999d2, so
 *    SchedulerConfig's default max(max_model_len, 2048) = 8192 tokens),
 *    whose working set at 8192 tokens is 8192 x 38,912 x 2 B =
 *    637,534,208 B: scale 1.26 GiB / 637,534,208 B = 2.1221.  The tokens
 *    are `vllm serve`'s (UsageContext.OPENAI_API_SERVER) default
 *    max_num_batched_tokens, vllm/engine/arg_utils.py
 *    EngineArgs.get_batch_defaults at commit 99d7eb5d: 8192 on a GPU of 70
 *    GiB or more whose name has no "a100" (H100, H200, B200, GB200), else
 *    2048 (the A100 exception: vLLM PR 17885). */
#define VLLM_MEASURED_TOKENS 8192.0
#define VLLM_MEASURED_LAYER_ELEMS 38912.0 /* Llama-3-8B: 4096 + 48 x 128 + 2 x 14336 */
#define TRTLLM_MAX_NUM_TOKENS 8192
int rl_engine_memory_default(const char *engine, const char *chip, double hbm_bytes,
                             rl_engine_memory *out)
{
    memset(out, 0, sizeof *out);
    out->present = 1;
    out->fraction = 0.9;
    out->workspace_scale = 1;
    if (!strcmp(engine, "vllm")) {
        /* get_batch_defaults: device_memory >= 70 GiB and "a100" not in
         * the device name */
        int small = chip && (hbm_bytes < 70 * RL_GIB || strstr(chip, "a100") ||
                             strstr(chip, "A100"));
        out->fraction = 0.92;
        out->context_bytes = 1.79 * RL_GIB;
        out->comm_bytes = (3.58 - 1.79) * RL_GIB;
        out->workspace_tokens = small ? 2048 : 8192;
        out->workspace_scale = RL_VLLM_ACT_PEAK_BYTES /
                               (VLLM_MEASURED_TOKENS * VLLM_MEASURED_LAYER_ELEMS * 2.0);
        snprintf(out->source, sizeof out->source,
                 "vLLM gpu_memory_utilization 0.92 of capacity, the default of vLLM 0.22-0.25 "
                 "(vllm/config/cache.py, as NVIDIA AIConfigurator's vllm_backend.py reads it per "
                 "version, commit c56db49fe, 2026-07-29); context 1.79 GiB, collective "
                 "buffers +1.79 GiB at TP > 1: vLLM's memory profile of Llama-3-8B on an H100 "
                 "80GB (github.com/vllm-project/vllm/pull/10511); activation workspace: the "
                 "model's one-layer activations at vllm serve's default max_num_batched_tokens "
                 "(%d here: vllm/engine/arg_utils.py get_batch_defaults at commit 99d7eb5d, 8192 "
                 "on GPUs of 70 GiB or more but A100, else 2048) x %.4f, the factor that gives "
                 "Llama-3-8B its measured 1.26 GiB peak at 8192 tokens (PR 10511), memory.h "
                 "rl_memory_workspace", (int)out->workspace_tokens, out->workspace_scale);
        return 0;
    }
    if (!strcmp(engine, "trtllm")) {
        out->of_free = 1;
        out->comm_bytes = 411041792; /* AIConfigurator misc.nccl_mem, 4 and 8 GPUs */
        out->workspace_tokens = TRTLLM_MAX_NUM_TOKENS;
        snprintf(out->source, sizeof out->source,
                 "TensorRT-LLM KvCacheConfig.free_gpu_memory_fraction 0.9 of the memory free after "
                 "weights and activations (tensorrt_llm/llmapi/llm_args.py at commit fcd3f31; "
                 "docs/source/reference/memory.md); collective buffers 392 MiB at TP > 1 (NVIDIA "
                 "AIConfigurator systems/*/system.yaml misc.nccl_mem, 4 and 8 GPUs, observed, "
                 "Apache-2.0); context: no public figure found, 0 (the tenth the fraction leaves "
                 "free covers it); activation workspace: one layer's activations at "
                 "max_num_tokens 8192 (trtllm-serve's default; activations ~ max input tokens x "
                 "a constant, split by TP: docs/source/reference/memory.md), memory.h "
                 "rl_memory_workspace");
        return 0;
    }
    out->present = 0;
    return -1;
}

double rl_kideal(const double *x, const void *ctx)
{
    const rl_kideal_ctx *c = ctx;
    double flops = 0, bytes = 0;
    switch (c->cls) {
    case RL_KC_GEMM: /* m, n, k */
        flops = 2.0 * x[0] * x[1] * x[2];
        bytes = (x[0] * x[2] + x[0] * x[1]) * ACT_BYTES[c->var] + x[2] * x[1] * WEIGHT_BYTES[c->var];
        break;
    case RL_KC_PREFILL_ATTN: /* streams, isl, group, head_dim */
        flops = 2.0 * x[0] * x[2] * x[3] * x[1] * (x[1] + 1.0);
        bytes = 2.0 * x[0] * x[1] * x[3] * (x[2] + 1.0) * (c->var == RL_KV_FP32 ? 4.0 : 2.0);
        break;
    case RL_KC_DECODE_ATTN: /* streams, context, group, head_dim */
        flops = 4.0 * x[0] * x[2] * x[1] * x[3];
        bytes = 2.0 * x[0] * x[1] * x[3] * ACT_BYTES[c->var];
        break;
    case RL_KC_MOE: { /* tokens, 1/tp, 1/ep; shape hidden, inter, topk, experts */
        double H = c->moe[0], I = c->moe[1], k = c->moe[2], E = c->moe[3];
        double routed = x[0] * k, share = x[1] * x[2];
        double read = c->expected < 0 ? 1.0 /* the fewest a routed token reads (engines.h) */
                      : c->expected   ? E * (1.0 - pow(1.0 - k / E, x[0]))
                      : routed < E    ? routed
                                      : E;
        flops = 6.0 * routed * H * I * share;
        bytes = read * share * 3.0 * H * I * WEIGHT_BYTES[c->var] +
                2.0 * x[0] * H * ACT_BYTES[c->var];
        break;
    }
    case RL_KC_PREFILL_MLA: { /* batch, isl, heads: causal, q/k of nope + rope, v/o of v */
        double qk = RL_MLA_NOPE + RL_MLA_ROPE, v = RL_MLA_V;
        flops = 2.0 * x[0] * x[2] * (qk + v) * x[1] * (x[1] + 1.0) / 2.0;
        bytes = x[0] * x[1] * x[2] * (qk + v) * (2.0 + ACT_BYTES[c->var]);
        break;
    }
    case RL_KC_DECODE_MLA: { /* batch, context, heads: absorbed, over the shared latent */
        double k = RL_MLA_LATENT + RL_MLA_ROPE, v = RL_MLA_LATENT;
        flops = 2.0 * x[0] * x[2] * x[1] * (k + v);
        bytes = x[0] * x[1] * k * ACT_BYTES[c->var] + x[0] * x[2] * (k + v) * 2.0;
        break;
    }
    case RL_KC_COUNT:
        break;
    }
    double tc = c->peak > 0 ? flops / c->peak : 0, tm = c->bw > 0 ? bytes / c->bw : 0;
    return tc > tm ? tc : tm;
}

double rl_kvariant_peak(const double *flops, rl_kvariant v)
{
    static const rl_dtype compute[RL_KV_COUNT] = {RL_BF16, RL_FP8, RL_BF16, RL_BF16, RL_INT8,
                                                  RL_FP4,  RL_FP32, RL_FP8,  RL_BF16};
    double p = flops[compute[v]];
    return p > 0 ? p : flops[RL_BF16];
}

int rl_engine_nearest_variant(const rl_serving_engine *e, rl_kclass c, double bytes,
                              double act_bytes, int compute_bound)
{
    int best = -1;
    double b1 = 0, b2 = 0;
    for (int v = 0; e && e->tables && v < RL_KV_COUNT; v++) {
        if (!rl_engine_has(e->tables, c, v))
            continue;
        int weights = c == RL_KC_GEMM || c == RL_KC_MOE; /* stores weights, else KV */
        double stored = fabs(log2((weights ? WEIGHT_BYTES[v] : ACT_BYTES[v]) / bytes));
        double math = weights ? fabs(log2(ACT_BYTES[v] / act_bytes)) : 0;
        double d1 = compute_bound ? math : stored, d2 = compute_bound ? stored : math;
        if (best < 0 || d1 < b1 - 1e-9 || (d1 < b1 + 1e-9 && d2 < b2 - 1e-9)) {
            best = v;
            b1 = d1;
            b2 = d2;
        }
    }
    return best;
}

/* The roofline context of class c, variant v at shape x on (peak, bw). */
static rl_kideal_ctx ideal_ctx(rl_kclass c, int v, const double *x, double peak, double bw)
{
    rl_kideal_ctx k = {c, (rl_kvariant)v, peak, bw, {0}, 0};
    if (c == RL_KC_MOE)
        memcpy(k.moe, x + RL_KX_MOE, sizeof k.moe);
    return k;
}

double rl_engine_efficiency(const rl_serving_engine *e, rl_kclass c, int v, const double *x,
                            const double *flops, double bw)
{
    double peak = v >= 0 && v < RL_KV_COUNT ? rl_kvariant_peak(flops, (rl_kvariant)v) : 0;
    double t = rl_engine_time(e, c, v, x, peak, bw, NULL);
    rl_kideal_ctx k = ideal_ctx(c, v, x, peak, bw);
    k.expected = 1; /* the experts the operator's own roofline reads (engines.h) */
    double ideal = t > 0 ? rl_kideal(x, &k) : 0;
    return ideal > 0 ? t / ideal : -1;
}

int rl_trtllm_mmha(const double *x, double sms)
{
    double blocks = floor(x[1] / RL_XQA_MIN_HISTORY);
    return x[2] < 2 || x[2] > RL_TRTLLM_XQA_MAX_GROUP ||
           x[0] * (blocks > 1 ? blocks : 1) * RL_XQA_MIN_BLOCK_FACTOR < sms;
}

const rl_ktable *rl_engine_table(const rl_engine_tables *t, rl_kclass c, int v, const double *x)
{
    if (!t || v < 0 || v >= RL_KV_COUNT || c >= RL_KC_COUNT)
        return NULL;
    if (c == RL_KC_DECODE_ATTN && t->mmha[v] && x && rl_trtllm_mmha(x, t->sms))
        return t->mmha[v];
    if (c != RL_KC_MOE)
        return t->one[c][v] && x && x[RL_KX_ONE] == 1 ? t->one[c][v] : t->t[c][v];
    const rl_moe_tables *m = &t->moe[v];
    for (int i = 0; i < m->n; i++)
        if (!memcmp(m->shape[i], x + RL_KX_MOE, sizeof m->shape[i]))
            return m->t[i];
    return NULL;
}

int rl_engine_has(const rl_engine_tables *t, rl_kclass c, int v)
{
    return t && (c == RL_KC_MOE ? t->moe[v].n > 0 : t->t[c][v] != NULL);
}

int rl_engine_derived(const rl_engine_tables *t, int mla, rl_dtype weights, rl_dtype kv,
                      rl_dtype compute)
{
    if (!t)
        return 0;
    int a = rl_kvariant_kv(kv), g = rl_kvariant_gemm(weights, compute);
    return (a < 0 || !rl_engine_has(t, mla ? RL_KC_DECODE_MLA : RL_KC_DECODE_ATTN, a)
                ? RL_DERIVED_KV
                : 0) |
           (g < 0 || !rl_engine_has(t, RL_KC_GEMM, g) ? RL_DERIVED_GEMM : 0);
}

/* Table times raised to their roofline floor in this process (engines.h;
 * atomic: size's search times steps on several threads, size.c
 * simulate_plans). */
static _Atomic long FLOORED;

double rl_engine_time(const rl_serving_engine *e, rl_kclass c, int v, const double *x, double peak,
                      double bw, rl_provenance *prov)
{
    const rl_ktable *t = rl_engine_table(e ? e->tables : NULL, c, v, x);
    if (!t)
        return -1;
    rl_kideal_ctx k = ideal_ctx(c, v, x, peak, bw);
    double time = rl_kt_time(t, x, rl_kideal, &k, prov);
    double floor_s = c == RL_KC_MOE ? 0 : rl_kideal(x, &k); /* rl_engine_floor, k reused */
    if (time < floor_s) { /* the floor rule (engines.h): never faster than the roofline */
        FLOORED++;
        return floor_s;
    }
    return time;
}

long rl_engine_floored(void) { return FLOORED; }

double rl_engine_floor(rl_kclass c, int v, const double *x, double peak, double bw)
{
    if (c == RL_KC_MOE)
        return 0;
    rl_kideal_ctx k = ideal_ctx(c, v, x, peak, bw);
    return rl_kideal(x, &k);
}

double rl_engine_time_on(const rl_serving_engine *e, rl_kclass c, int v, const double *x,
                         const double was[2], const double now[2], rl_provenance *prov)
{
    double t = rl_engine_time(e, c, v, x, was[0], was[1], prov);
    if (t <= 0 || (now[0] == was[0] && now[1] == was[1]))
        return t; /* the chip as measured: the table's time itself */
    rl_kideal_ctx k0 = ideal_ctx(c, v, x, was[0], was[1]), k1 = ideal_ctx(c, v, x, now[0], now[1]);
    double r0 = rl_kideal(x, &k0), r1 = rl_kideal(x, &k1);
    if (!(r0 > 0 && r1 > 0) || r1 == r0)
        return t; /* no roofline, or one the change does not move: the time as measured */
    /* the excess over the roofline as measured stays; a kernel measured at
     * or below its roofline (MoE, reference: no floor) keeps its ratio;
     * moved to figures nobody measured, no longer a measured time */
    if (prov)
        *prov = rl_provenance_moved(*prov, 1);
    return t > r0 ? r1 + (t - r0) : t * (r1 / r0);
}

/* ---- tables kept until exit ------------------------------------------------ */

typedef struct kept {
    rl_engine_tables *t;
    struct kept *next;
} kept;
static kept *KEPT;

static void free_table(const rl_ktable *t)
{
    rl_ktable *k = (rl_ktable *)(void *)t;
    if (k) {
        rl_kt_free(k);
        free(k);
    }
}

void rl_engine_tables_free(rl_engine_tables *t)
{
    for (int v = 0; t && v < RL_KV_COUNT; v++) {
        for (int c = 0; c < RL_KC_COUNT; c++) {
            free_table(t->t[c][v]);
            free_table(t->one[c][v]);
        }
        free_table(t->mmha[v]);
        for (int i = 0; i < t->moe[v].n; i++)
            free_table(t->moe[v].t[i]);
    }
    free(t);
}

static void free_kept(void)
{
    while (KEPT) {
        kept *k = KEPT;
        KEPT = k->next;
        rl_engine_tables_free(k->t);
        free(k);
    }
}

const rl_engine_tables *rl_engines_keep(rl_engine_tables *t)
{
    kept *k = malloc(sizeof *k);
    if (!k)
        return NULL;
    if (!KEPT)
        atexit(free_kept);
    k->t = t;
    k->next = KEPT;
    KEPT = k;
    return t;
}

/* Engines read from referenced files, by resolved path: read once. */
typedef struct cached {
    char path[PATH_MAX];
    rl_serving_engine e;
    struct cached *next;
} cached;
static cached *CACHE;

/* The files beside a profile that engine_file_path has noted, so that each
 * is said once per process (review54: a missing one was said on every
 * load, three times for a Lua script's three roofline.step calls on one
 * profile: the engine cache is keyed by the file read, the shipped one). */
typedef struct noted {
    struct noted *next;
    char path[PATH_MAX];
} noted;
static noted *NOTED;

/* Both lists, at exit (registered by the first entry of either). */
static void free_cache(void)
{
    while (CACHE) {
        cached *c = CACHE;
        CACHE = c->next;
        free(c);
    }
    for (noted *n = NOTED; n; n = NOTED) {
        NOTED = n->next;
        free(n);
    }
}

/* ---- reading ---------------------------------------------------------------- */

static int read_string(lua_State *L, const char *origin, const char *field, char *dst, size_t size,
                       char *err, size_t errlen)
{
    size_t len;
    if (lua_type(L, -1) != LUA_TSTRING)
        RL_FAIL("%s: field '%s': expected a string, got %s", origin, field, luaL_typename(L, -1));
    const char *s = lua_tolstring(L, -1, &len);
    if (len >= size)
        RL_FAIL("%s: field '%s': longer than %zu characters", origin, field, size - 1);
    memcpy(dst, s, len + 1);
    return 0;
}

/* The ktable of class c on top of the stack (field f) into a new *out. */
static int read_table(lua_State *L, const char *origin, const char *f, rl_kclass c, int pairs,
                      rl_ktable **out, char *err, size_t errlen)
{
    rl_ktable *kt = calloc(1, sizeof *kt);
    if (!kt || rl_kt_read(L, -1, origin, f, kt, err, errlen) != 0) {
        free(kt);
        if (!kt)
            RL_FAIL("%s: field '%s': out of memory", origin, f);
        return -1;
    }
    if (!has_axes(kt, c, pairs)) {
        const char *const *ax = CLASS_AXES[c];
        snprintf(err, errlen, "%s: field '%s.axes': expected { %s, %s, %s%s%s } (a table "
                 "of an older layout: rewrite it with roofline calibrate --tables)",
                 origin, f, pairs ? RL_KT_PAIRS : ax[0], ax[1], ax[2], ax[3] ? ", " : "",
                 ax[3] ? ax[3] : "");
        free_table(kt);
        return -1;
    }
    *out = kt;
    return 0;
}

/* The MoE shapes of one variant, { { hidden =, inter =, topk =, experts =,
 * table = <ktable> }, ... } on top of the stack (field f), into *m. */
static int read_moe(lua_State *L, const char *origin, const char *f, rl_moe_tables *m, char *err,
                    size_t errlen)
{
    static const char *const KEYS[4] = {"hidden", "inter", "topk", "experts"};
    int n = (int)lua_rawlen(L, -1);
    if (n < 1 || n > RL_MOE_SHAPES_MAX)
        RL_FAIL("%s: field '%s': expected an array of 1 to %d model shapes", origin, f,
                RL_MOE_SHAPES_MAX);
    char g[600];
    for (int i = 0; i < n; i++) {
        lua_rawgeti(L, -1, i + 1);
        snprintf(g, sizeof g, "%s[%d]", f, i + 1);
        if (!lua_istable(L, -1)) {
            lua_pop(L, 1);
            RL_FAIL("%s: field '%s': expected { hidden, inter, topk, experts, table }", origin, g);
        }
        for (int k = 0; k < 4; k++) {
            lua_getfield(L, -1, KEYS[k]);
            int isnum;
            double v = lua_tonumberx(L, -1, &isnum);
            lua_pop(L, 1);
            if (!isnum || !(v >= 1 && v <= 1e7) || v != floor(v)) {
                lua_pop(L, 1);
                RL_FAIL("%s: field '%s.%s': expected a positive integer", origin, g, KEYS[k]);
            }
            m->shape[i][k] = v;
        }
        lua_getfield(L, -1, "table");
        snprintf(g + strlen(g), sizeof g - strlen(g), ".table");
        rl_ktable *kt;
        int rc = read_table(L, origin, g, RL_KC_MOE, 0, &kt, err, errlen);
        lua_pop(L, 2);
        if (rc != 0)
            return -1;
        m->t[m->n++] = kt;
    }
    return 0;
}

/* tables = { gemm = { bfloat16 = <ktable>, ... }, ..., moe = { bfloat16 =
 * { shapes }, ... } } on top of the stack into a new kept block. */
double rl_moe_gemm_ln(const rl_moe_gemm_fix *f, double me)
{
    if (!f || f->n < 1)
        return 0;
    if (me <= f->me[0] || f->n == 1)
        return f->ln[0];
    for (int i = 1; i < f->n; i++)
        if (me < f->me[i]) {
            double u = log(me / f->me[i - 1]) / log(f->me[i] / f->me[i - 1]);
            return f->ln[i - 1] + u * (f->ln[i] - f->ln[i - 1]);
        }
    return f->ln[f->n - 1];
}

/* The mean of nodes [a, b]: each node one weight (rl_moe_gemm_monotone). */
static double mean_of_nodes(const double *v, int a, int b, void *ctx)
{
    (void)ctx;
    double sum = 0;
    for (int i = a; i <= b; i++)
        sum += v[i];
    return sum / (b - a + 1);
}

int rl_moe_gemm_monotone(rl_moe_gemm_fix *f)
{
    if (!f || f->n < 1)
        return 0;
    int moved = rl_pav_blocks(f->ln, f->n < RL_MOE_GEMM_NODES ? f->n : RL_MOE_GEMM_NODES,
                              mean_of_nodes, NULL);
    return moved > 0 ? moved : 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int rl_moe_gemm_borrow(const rl_moe_gemm_fix *const *d, const char *const *engine,
                       const char *const *name, int nd, const char *target, rl_moe_gemm_fix *out)
{
    int same = 0, used = 0;
    memset(out, 0, sizeof *out);
    for (int i = 0; i < nd; i++)
        same += d[i]->n > 0 && !strcmp(engine[i], target);
    double top = 0, v[64];
    for (int i = 0; i < nd; i++)
        if (d[i]->n > 0 && (!same || !strcmp(engine[i], target)) && used < 64) {
            top = fmax(top, d[i]->me[d[i]->n - 1]);
            size_t len = strlen(out->from);
            snprintf(out->from + len, sizeof out->from - len, "%s%s", len ? ", " : "", name[i]);
            used++;
        }
    for (int k = 0; used > 0 && k < RL_MOE_GEMM_NODES && pow(4.0, k) <= top; k++) {
        int m = 0;
        for (int i = 0; i < nd && m < 64; i++)
            if (d[i]->n > 0 && (!same || !strcmp(engine[i], target)))
                v[m++] = rl_moe_gemm_ln(d[i], pow(4.0, k));
        qsort(v, (size_t)m, sizeof v[0], cmp_double);
        out->me[out->n] = pow(4.0, k);
        out->ln[out->n++] = m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
    }
    if (out->n == 0)
        out->from[0] = '\0';
    return out->n ? used : 0;
}

/* The list on top of L (1 to max numbers in [lo, hi], integers when
 * whole) into out[]; its length, or -1 when it is not one. */
static int read_list(lua_State *L, double *out, int max, double lo, double hi, int whole)
{
    lua_Integer n = lua_istable(L, -1) ? luaL_len(L, -1) : 0;
    if (n < 1 || n > max)
        return -1;
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, -1, i);
        int isnum;
        double v = lua_tonumberx(L, -1, &isnum);
        lua_pop(L, 1);
        if (!isnum || !(v >= lo && v <= hi) || (whole && v != floor(v)))
            return -1;
        out[i - 1] = v;
    }
    return (int)n;
}

/* moe_from_gemm.VARIANT (engines.h rl_moe_gemm_fix) on top of the stack
 * (field f) into *x. */
static int read_moe_gemm_fix(lua_State *L, const char *origin, const char *f, rl_moe_gemm_fix *x,
                             char *err, size_t errlen)
{
    static const char *const Q[4] = {"p5", "p10", "p90", "p95"};
    int nme = 0, nln = 0, nh = 0, seen = 0; /* seen: bit q for Q[q] */
    double held[RL_MOE_GEMM_NODES];
    if (!lua_istable(L, -1))
        RL_FAIL("%s: field '%s': expected a table, got %s", origin, f, luaL_typename(L, -1));
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
        int isnum, q = 0, ok;
        double v = lua_tonumberx(L, -1, &isnum);
        while (q < 4 && strcmp(k, Q[q]) != 0)
            q++;
        if (!strcmp(k, "rows_per_expert"))
            ok = (nme = read_list(L, x->me, RL_MOE_GEMM_NODES, 1, 1e9, 0)) > 0;
        else if (!strcmp(k, "ln_ratio"))
            ok = (nln = read_list(L, x->ln, RL_MOE_GEMM_NODES, -5, 5, 0)) > 0;
        else if (!strcmp(k, "held_out"))
            ok = (nh = read_list(L, held, RL_MOE_GEMM_NODES, 0, 10, 0)) == 4;
        else if (!strcmp(k, "borrowed_from")) /* engines.h: a borrowed correction */
            ok = lua_type(L, -1) == LUA_TSTRING && lua_rawlen(L, -1) > 0 &&
                 lua_rawlen(L, -1) < sizeof x->from &&
                 snprintf(x->from, sizeof x->from, "%s", lua_tostring(L, -1)) > 0;
        else if (!strcmp(k, "fitted_rows") || !strcmp(k, "fitted_shapes")) {
            ok = isnum && v >= 1 && v <= 1e12 && v == floor(v);
            *(!strcmp(k, "fitted_rows") ? &x->rows : &x->shapes) = ok ? (long)v : 0;
        } else if (q < 4) {
            ok = isnum && isfinite(v) && fabs(v) <= 5;
            x->q[q] = ok ? v : 0;
            seen |= 1 << q;
        } else {
            ok = -1;
        }
        lua_pop(L, 1);
        if (ok != 1) {
            lua_pop(L, 1);
            RL_FAIL("%s: field '%s.%.60s': %s", origin, f, k,
                    ok < 0 ? "unknown key (rows_per_expert, ln_ratio, p5, p10, p90, p95, "
                             "fitted_rows, fitted_shapes, borrowed_from, held_out)"
                    : !strcmp(k, "borrowed_from")
                        ? "expected a non-empty string under 200 characters (the profiles it "
                          "was borrowed from)"
                    : !strcmp(k, "rows_per_expert") ? "expected 1 to 8 counts in [1, 1e9]"
                    : !strcmp(k, "ln_ratio")        ? "expected 1 to 8 log ratios in [-5, 5]"
                    : !strcmp(k, "held_out") ? "expected 4 numbers in [0, 10] (median, p90 |ln| "
                                               "uncorrected, then corrected)"
                    : q < 4 ? "expected a log ratio in [-5, 5]"
                            : "expected a count >= 1");
        }
    }
    /* the band and the note's held-out figures: calibrate writes all five;
     * one left out would read 0, a zero-width band (review41 F4) */
    for (int q = 0; q < 5; q++)
        if (q < 4 ? !(seen & 1 << q) : nh != 4)
            RL_FAIL("%s: field '%s.%s': missing (the fit's %s)", origin, f,
                    q < 4 ? Q[q] : "held_out",
                    q < 4 ? "held-out log-ratio quantile; calibrate writes p5, p10, p90 and p95"
                          : "held-out |ln| median and p90, uncorrected and corrected");
    int sorted = nme > 0;
    for (int i = 1; i < nme; i++)
        sorted &= x->me[i] > x->me[i - 1];
    /* fitted_rows and fitted_shapes, or borrowed_from: one or the other */
    int counted = x->rows >= 1 && x->shapes >= 1, borrowed = x->from[0] != '\0';
    if (!sorted || nln != nme || counted == borrowed ||
        !(x->q[0] <= x->q[1] && x->q[1] <= x->q[2] && x->q[2] <= x->q[3]))
        RL_FAIL("%s: field '%s': expected rows_per_expert ascending, as many ln_ratio values, "
                "fitted_rows and fitted_shapes >= 1 or else borrowed_from (not both), and "
                "p5 <= p10 <= p90 <= p95", origin, f);
    for (int i = 0; i < 4; i++)
        x->held_out[i] = held[i];
    x->n = nme;
    rl_moe_gemm_monotone(x); /* a guard: calibrate writes them so (engines.h) */
    return 0;
}

/* The dtype variant named vname (field f), or -1 with err naming the known ones. */
static int table_variant(const char *origin, const char *f, const char *vname, char *err,
                         size_t errlen)
{
    int v = rl_kvariant_parse(vname);
    char known[256];
    if (v < 0)
        RL_FAIL("%s: field '%s': unknown dtype variant (%s)", origin, f,
                rl_names_join(known, sizeof known, VARIANT_NAMES, RL_KV_COUNT));
    return v;
}

int rl_moe_gemm_read(lua_State *L, const char *origin, const char *field, rl_engine_tables *t,
                     char *err, size_t errlen)
{
    if (!lua_istable(L, -1))
        RL_FAIL("%s: field '%s.moe_from_gemm': expected a table of dtype variants, got %s", origin,
                field, luaL_typename(L, -1));
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {
        const char *vname = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
        char f[512];
        snprintf(f, sizeof f, "%.200s.moe_from_gemm.%.60s", field, vname);
        int v = table_variant(origin, f, vname, err, errlen);
        if (v < 0) {
            lua_pop(L, 2);
            return -1;
        }
        if (read_moe_gemm_fix(L, origin, f, &t->moe_gemm[v], err, errlen) != 0) {
            lua_pop(L, 2);
            return -1;
        }
        lua_pop(L, 1);
    }
    return 0;
}

static int read_tables(lua_State *L, const char *origin, const char *field,
                       const rl_engine_tables **out, char *err, size_t errlen)
{
    if (lua_type(L, -1) == LUA_TLIGHTUSERDATA) { /* pushed by rl_engines_push */
        *out = lua_touserdata(L, -1);
        return 0;
    }
    if (!lua_istable(L, -1))
        RL_FAIL("%s: field '%s': expected a table of kernel tables, got %s", origin, field,
                luaL_typename(L, -1));
    rl_engine_tables *t = calloc(1, sizeof *t);
    if (!t || !rl_engines_keep(t)) {
        free(t);
        RL_FAIL("%s: field '%s': out of memory", origin, field);
    }
    *out = t;
    char f[512];
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {
        const char *cname = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
        if (!strcmp(cname, "moe_from_gemm")) { /* the MoE-from-GEMM bias (engines.h) */
            if (rl_moe_gemm_read(L, origin, field, t, err, errlen) != 0) {
                lua_pop(L, 2);
                return -1;
            }
            lua_pop(L, 1);
            continue;
        }
        /* one: CLASS_one, an attention class's RL_KX_ONE table; mmha:
         * decode_attention_mmha, TensorRT-LLM's MMHA side (RL_TRTLLM_MMHA) */
        int c = 0, one = 0, mmha = 0;
        for (; c < RL_KC_COUNT; c++) {
            size_t n = strlen(CLASS_NAMES[c]);
            if (!strcmp(cname, CLASS_NAMES[c]))
                break;
            if ((c == RL_KC_PREFILL_ATTN || c == RL_KC_DECODE_ATTN) &&
                !strncmp(cname, CLASS_NAMES[c], n) && !strcmp(cname + n, "_one")) {
                one = 1;
                break;
            }
            if (c == RL_KC_DECODE_ATTN && !strncmp(cname, CLASS_NAMES[c], n) &&
                !strcmp(cname + n, "_mmha")) {
                mmha = 1;
                break;
            }
        }
        if (c == RL_KC_COUNT || !lua_istable(L, -1)) {
            lua_pop(L, 2);
            char known[256];
            RL_FAIL("%s: field '%s.%s': %s%s%s", origin, field, cname,
                    c == RL_KC_COUNT ? "unknown operator class (" : "expected a table of dtype variants",
                    c == RL_KC_COUNT ? rl_names_join(known, sizeof known, CLASS_NAMES, RL_KC_COUNT) : "",
                    c == RL_KC_COUNT ? ")" : "");
        }
        lua_pushnil(L);
        while (lua_next(L, -2) != 0) {
            const char *vname = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
            snprintf(f, sizeof f, "%.200s.%.60s.%.60s", field, cname, vname);
            if (mmha && !strcmp(vname, "sms")) { /* the chip's SMs the dispatch reads */
                int isnum = 0;
                t->sms = lua_tonumberx(L, -1, &isnum);
                if (!isnum || !(t->sms >= 1) || !isfinite(t->sms)) {
                    lua_pop(L, 4);
                    RL_FAIL("%s: field '%s': expected the chip's SM count, a number >= 1",
                            origin, f);
                }
                lua_pop(L, 1);
                continue;
            }
            int v = table_variant(origin, f, vname, err, errlen);
            if (v < 0) {
                lua_pop(L, 4);
                return -1;
            }
            rl_ktable *kt = NULL;
            int rc = !lua_istable(L, -1) && c == RL_KC_MOE
                         ? (snprintf(err, errlen, "%s: field '%s': expected an array of model "
                                     "shapes", origin, f), -1)
                     : c == RL_KC_MOE ? read_moe(L, origin, f, &t->moe[v], err, errlen)
                                      : read_table(L, origin, f, (rl_kclass)c, mmha, &kt, err,
                                                   errlen);
            if (rc != 0) {
                lua_pop(L, 4);
                return -1;
            }
            if (c != RL_KC_MOE) {
                if (mmha)
                    t->mmha[v] = kt;
                else if (one)
                    t->one[c][v] = kt;
                else
                    t->t[c][v] = kt;
            }
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    for (int c = 0; c < RL_KC_COUNT; c++) /* a table of the one split stands beside the rest's */
        for (int v = 0; v < RL_KV_COUNT; v++)
            if (t->one[c][v] && !t->t[c][v])
                RL_FAIL("%s: field '%s.%s_one.%s': no %s.%s beside it (the table of one KV head "
                        "or one sequence stands beside that of the other configurations)",
                        origin, field, CLASS_NAMES[c], VARIANT_NAMES[v], CLASS_NAMES[c],
                        VARIANT_NAMES[v]);
    for (int v = 0; v < RL_KV_COUNT; v++) { /* MMHA's side stands beside XQA's, with its SMs */
        const char *dn = CLASS_NAMES[RL_KC_DECODE_ATTN], *vn = VARIANT_NAMES[v];
        if (t->mmha[v] && !t->t[RL_KC_DECODE_ATTN][v])
            RL_FAIL("%s: field '%s.%s_mmha.%s': no %s.%s beside it (the masked MHA side of "
                    "decode attention stands beside its XQA side)", origin, field, dn, vn, dn, vn);
        if (t->mmha[v] && !(t->sms >= 1))
            RL_FAIL("%s: field '%s.%s_mmha.sms': missing (the SM count TensorRT-LLM's XQA "
                    "dispatch reads, engines.h RL_TRTLLM_MMHA)", origin, field, dn);
    }
    return 0;
}

/* What a key of an engine table is read into. */
typedef struct {
    const char *origin;
    const char *field; /* "engines.NAME" or "engines.NAME.costs" */
    rl_serving_engine *e;
} reading;

typedef int (*key_fn)(lua_State *L, const char *key, const reading *r, char *err, size_t errlen);

/* fn(key) with each key's value on top of the stack, for every key of the
 * table on top; stops at the first failure (-1). */
static int each_key(lua_State *L, key_fn fn, const reading *r, char *err, size_t errlen)
{
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
        if (fn(L, k, r, err, errlen) != 0) {
            lua_pop(L, 2);
            return -1;
        }
        lua_pop(L, 1);
    }
    return 0;
}

static int cost_key(lua_State *L, const char *k, const reading *r, char *err, size_t errlen)
{
    char f[512];
    snprintf(f, sizeof f, "%.200s.%.60s", r->field, k);
    rl_serving_engine *e = r->e;
    if (!strcmp(k, "source"))
        return read_string(L, r->origin, f, e->costs_source, sizeof e->costs_source, err, errlen);
    if (!strcmp(k, "attention_context")) {
        const char *v = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        if (!v || (strcmp(v, "mean") != 0 && strcmp(v, "longest") != 0))
            RL_FAIL("%s: field '%s': expected \"mean\" or \"longest\" (the context a decode "
                    "batch's attention is timed at)", r->origin, f);
        e->attn_longest = !strcmp(v, "longest");
        return 0;
    }
    double *dst = !strcmp(k, "step_s") ? &e->step_s : !strcmp(k, "seq_s") ? &e->seq_s
                : !strcmp(k, "launch_s") ? &e->launch_s
                : !strcmp(k, "prefill_layer_s") ? &e->prefill_layer_s : NULL;
    int fitted = dst ? 1 : rl_engine_costs_key(L, r->origin, r->field, k, &e->fitted, err, errlen);
    if (fitted <= 0)
        return fitted;
    if (!dst)
        RL_FAIL("%s: field '%s': unknown key (step_s, seq_s, launch_s, prefill_layer_s, "
                "attention_context, source, and the fitted %s)", r->origin, f, rl_ec_known_keys());
    int isnum;
    *dst = lua_tonumberx(L, -1, &isnum);
    if (!isnum || !(*dst >= 0) || !isfinite(*dst))
        RL_FAIL("%s: field '%s': expected seconds >= 0", r->origin, f);
    return 0;
}

/* The largest memory.workspace_tokens (memory_key). */
#define WORKSPACE_TOKENS_MAX 2147483647.0

static int memory_key(lua_State *L, const char *k, const reading *r, char *err, size_t errlen)
{
    char f[512];
    snprintf(f, sizeof f, "%.200s.%.60s", r->field, k);
    rl_engine_memory *m = &r->e->mem;
    if (!strcmp(k, "source"))
        return read_string(L, r->origin, f, m->source, sizeof m->source, err, errlen);
    if (!strcmp(k, "fraction_of")) {
        char v[16];
        if (read_string(L, r->origin, f, v, sizeof v, err, errlen) != 0 ||
            (strcmp(v, "capacity") != 0 && strcmp(v, "free") != 0))
            RL_FAIL("%s: field '%s': expected \"capacity\" or \"free\"", r->origin, f);
        m->of_free = v[0] == 'f';
        return 0;
    }
    double *dst = !strcmp(k, "fraction") ? &m->fraction
                : !strcmp(k, "context_bytes") ? &m->context_bytes
                : !strcmp(k, "comm_bytes") ? &m->comm_bytes
                : !strcmp(k, "workspace_bytes") ? &m->workspace_bytes
                : !strcmp(k, "workspace_tokens") ? &m->workspace_tokens
                : !strcmp(k, "workspace_scale") ? &m->workspace_scale : NULL;
    if (!dst)
        RL_FAIL("%s: field '%s': unknown key (fraction, fraction_of, context_bytes, comm_bytes, "
                "workspace_bytes, workspace_tokens, workspace_scale, source)", r->origin, f);
    int isnum;
    *dst = lua_tonumberx(L, -1, &isnum);
    int frac = dst == &m->fraction, tok = dst == &m->workspace_tokens;
    /* a factor over the working set: finite and > 0, at most 1e3 (vLLM's is
     * 2.12; a larger one is a typo, not an engine) */
    if (dst == &m->workspace_scale && (!isnum || !isfinite(*dst) || *dst <= 0 || *dst > 1e3))
        RL_FAIL("%s: field '%s': expected a factor in (0, 1000]", r->origin, f);
    /* workspace_tokens counts tokens, not bytes (review55: its error said
     * bytes), at most a 32-bit count, as TensorRT-LLM's max_num_tokens
     * (std::optional<SizeType32> mMaxNumTokens, executor.h ExecutorConfig):
     * 1e306 tokens made an infinite workspace, an internal error, exit 1 */
    if (!isnum || !isfinite(*dst) || *dst < 0 || (frac && (*dst <= 0 || *dst > 1)) ||
        (tok && (*dst != floor(*dst) || *dst > WORKSPACE_TOKENS_MAX)))
        RL_FAIL("%s: field '%s': expected %s", r->origin, f,
                frac  ? "a fraction in (0, 1]"
                : tok ? "a whole number of tokens in [0, 2147483647] (a 32-bit count, as "
                        "TensorRT-LLM's max_num_tokens)"
                      : "bytes >= 0");
    return 0;
}

const double RL_KRESIDUAL_P[4] = {0.05, 0.10, 0.90, 0.95};
static const char *const QNAMES[4] = {"p5", "p10", "p90", "p95"};

/* residuals.CLASS = { held_back = N, p5 = ..., p10 = ..., p90 = ..., p95 = ... } on top of
 * the stack into *res (field g names it). */
/* The widening keys of a residual class, each a list of one value per
 * table axis (rl_kresidual): their names, ranges and places. */
static const char *const WKEYS[4] = {"edge_held_back", "p10_p90_per_octave", "p5_p95_per_octave",
                                     "up_to_octaves"};

/* The list on top of L (1 to RL_KRESIDUAL_AXES numbers in [lo, hi],
 * integers when whole) into out[]; 0, or -1 when it is not one. */
static int read_axes(lua_State *L, double *out, double lo, double hi, int whole)
{
    return read_list(L, out, RL_KRESIDUAL_AXES, lo, hi, whole) < 0 ? -1 : 0;
}

/* residuals.CLASS = { held_back = N, p5 = ..., p10 = ..., p90 = ..., p95 = ..., and
 * optionally the widening lists WKEYS } on top of the stack into *res (field g names it). */
static int read_residual(lua_State *L, const char *origin, const char *g, rl_kresidual *res,
                         char *err, size_t errlen)
{
    double wl[4][RL_KRESIDUAL_AXES] = {{0}};
    const double hi[4] = {1e12, RL_EC_WIDEN_MAX, RL_EC_WIDEN_MAX, 1000};
    int given[4] = {0};
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
        int isnum, q = 0, w = 0;
        double v = lua_tonumberx(L, -1, &isnum);
        while (q < 4 && strcmp(k, QNAMES[q]) != 0)
            q++;
        while (w < 4 && strcmp(k, WKEYS[w]) != 0)
            w++;
        int ok = w < 4 ? read_axes(L, wl[w], 0, hi[w], w == 0) == 0 : 0;
        if (w < 4)
            given[w] = 1;
        lua_pop(L, 1);
        if (!strcmp(k, "held_back") && isnum && v >= 1 && v <= 1e12 && v == floor(v))
            res->n = (long)v;
        else if (q < 4 && isnum && isfinite(v) && fabs(v) <= 5)
            res->q[q] = v;
        else if (!ok) {
            lua_pop(L, 1);
            RL_FAIL("%s: field '%s.%.60s': %s", origin, g, k,
                    !strcmp(k, "held_back") ? "expected a count >= 1"
                    : q < 4                 ? "expected a log ratio in [-5, 5]"
                    : w < 4 ? "expected a list of 1 to 4 numbers, one per table axis (counts; "
                              "widenings in [0, 5] per octave; octaves in [0, 1000])"
                            : "unknown key (held_back, p5, p10, p90, p95, edge_held_back, "
                              "p10_p90_per_octave, p5_p95_per_octave, up_to_octaves)");
        }
    }
    if (res->n < 1 || !(res->q[0] <= res->q[1] && res->q[1] <= res->q[2] && res->q[2] <= res->q[3]))
        RL_FAIL("%s: field '%s': expected held_back >= 1 and p5 <= p10 <= p90 <= p95", origin, g);
    /* an axis counts as tuned only with rows held back there (wn > 0): a
     * widening given without them would be read as untuned, silently
     * (review21 #8) */
    if (!given[0] && (given[1] || given[2] || given[3]))
        RL_FAIL("%s: field '%s.edge_held_back': missing; the widening (%s) counts only on axes "
                "with rows held back there", origin, g,
                given[1] ? WKEYS[1] : given[2] ? WKEYS[2] : WKEYS[3]);
    for (int a = 0; a < RL_KRESIDUAL_AXES; a++) {
        res->wn[a] = (long)wl[0][a];
        res->w[a][0] = wl[1][a];
        res->w[a][1] = fmax(wl[2][a], wl[1][a]); /* the wider band holds the narrower */
        res->seen[a] = wl[3][a];
    }
    return 0;
}

double rl_kresidual_band(const rl_kresidual *r, int q, const double *above, double du)
{
    double b = r->q[q] * (1 + du);
    for (int a = 0; a < RL_KRESIDUAL_AXES; a++) {
        double d = above ? above[a] : 0, rule = r->q[q] * d;
        if (r->wn[a] <= 0 || !(d > 0)) {
            b += rule;
            continue;
        }
        int high = q >= 2;
        double t = (high ? 1 : -1) * r->w[a][q == 0 || q == 3] * d;
        if (d > r->seen[a]) /* beyond what the hold-outs saw */
            t = high ? rl_fmax(t, rule) : fmin(t, rule);
        b += t;
    }
    return q >= 2 ? rl_fmax(b, 0) : fmin(b, 0); /* the band holds its estimate (rl_ec_band) */
}

static int read_residuals(lua_State *L, const reading *r, char *err, size_t errlen)
{
    char f[512];
    snprintf(f, sizeof f, "%.200s.residuals", r->field);
    if (!lua_istable(L, -1))
        RL_FAIL("%s: field '%s': expected a table, got %s", r->origin, f, luaL_typename(L, -1));
    rl_serving_engine *e = r->e;
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
        char g[600];
        snprintf(g, sizeof g, "%s.%.60s", f, k);
        int c = 0, isnum;
        while (c < RL_KC_COUNT && strcmp(k, CLASS_NAMES[c]) != 0)
            c++;
        double v = lua_tonumberx(L, -1, &isnum);
        int rc = 0;
        if (!strcmp(k, "holdout")) {
            if (!isnum || !(v >= 2 && v <= 1e6) || v != floor(v))
                snprintf(err, errlen, "%s: field '%s': expected an integer K >= 2", r->origin, g), rc = -1;
            e->resid_holdout = (int)v;
        } else if (c == RL_KC_COUNT || !lua_istable(L, -1)) {
            char known[256];
            snprintf(err, errlen, "%s: field '%s': expected holdout or a class (%s) = { held_back, "
                     "p5, p10, p90, p95 }", r->origin, g,
                     rl_names_join(known, sizeof known, CLASS_NAMES, RL_KC_COUNT));
            rc = -1;
        } else {
            rc = read_residual(L, r->origin, g, &e->resid[c], err, errlen);
        }
        if (rc != 0) {
            lua_pop(L, 2);
            return -1;
        }
        lua_pop(L, 1);
    }
    return 0;
}

int rl_kresidual_tuned(const rl_kresidual *r)
{
    int any = 0;
    for (int a = 0; a < RL_KRESIDUAL_AXES; a++)
        any |= r->wn[a] > 0;
    return any;
}

/* The value of widening key w (WKEYS) of axis a. */
static double widen_value(const rl_kresidual *r, int w, int a)
{
    return w == 0 ? (double)r->wn[a] : w == 3 ? r->seen[a] : r->w[a][w - 1];
}

void rl_engine_put_residuals(FILE *f, const rl_kresidual *r, int holdout, int indent)
{
    int any = 0;
    for (int c = 0; c < RL_KC_COUNT; c++)
        any |= r[c].n > 0;
    if (!any)
        return;
    fprintf(f, "%*sresiduals = { -- log(measured / table time) of held-back configurations\n",
            indent, "");
    fprintf(f, "%*s  holdout = %d,\n", indent, "", holdout);
    for (int c = 0; c < RL_KC_COUNT; c++)
        if (r[c].n > 0) {
            fprintf(f, "%*s  %s = { held_back = %ld, p5 = %.6g, p10 = %.6g, p90 = %.6g, "
                    "p95 = %.6g", indent, "", CLASS_NAMES[c], r[c].n, r[c].q[0], r[c].q[1],
                    r[c].q[2], r[c].q[3]);
            for (int w = 0; w < 4 && rl_kresidual_tuned(&r[c]); w++) {
                fprintf(f, ",\n%*s    %s = {", indent, "", WKEYS[w]);
                for (int a = 0; a < RL_KRESIDUAL_AXES; a++)
                    fprintf(f, "%s%.6g", a ? ", " : " ", widen_value(&r[c], w, a));
                fprintf(f, " }");
            }
            fprintf(f, " },\n");
        }
    fprintf(f, "%*s},\n", indent, "");
}

static void push_residuals(lua_State *L, const rl_serving_engine *g)
{
    int any = 0;
    for (int c = 0; c < RL_KC_COUNT; c++)
        any |= g->resid[c].n > 0;
    if (!any)
        return;
    lua_createtable(L, 0, RL_KC_COUNT + 1);
    lua_pushinteger(L, g->resid_holdout);
    lua_setfield(L, -2, "holdout");
    for (int c = 0; c < RL_KC_COUNT; c++) {
        if (g->resid[c].n <= 0)
            continue;
        lua_createtable(L, 0, 5);
        lua_pushinteger(L, g->resid[c].n);
        lua_setfield(L, -2, "held_back");
        for (int q = 0; q < 4; q++) {
            lua_pushnumber(L, g->resid[c].q[q]);
            lua_setfield(L, -2, QNAMES[q]);
        }
        for (int w = 0; w < 4 && rl_kresidual_tuned(&g->resid[c]); w++) {
            lua_createtable(L, RL_KRESIDUAL_AXES, 0);
            for (int a = 0; a < RL_KRESIDUAL_AXES; a++) {
                lua_pushnumber(L, widen_value(&g->resid[c], w, a));
                lua_rawseti(L, -2, a + 1);
            }
            lua_setfield(L, -2, WKEYS[w]);
        }
        lua_setfield(L, -2, CLASS_NAMES[c]);
    }
    lua_setfield(L, -2, "residuals");
}

double rl_engine_outside(const rl_serving_engine *e, rl_kclass c, int v, const double *x,
                         double *above)
{
    const rl_ktable *t = rl_engine_table(e ? e->tables : NULL, c, v, x);
    double up = 0, below = 0;
    for (int a = 0; above && a < RL_KRESIDUAL_AXES; a++)
        above[a] = 0;
    for (int a = 0; t && a < t->naxes && a < RL_KRESIDUAL_AXES; a++)
        if (x[a] > 0) {
            /* inside the grid the ratio is <= 1, its log2 <= 0, which fmax
             * takes to 0: only an axis outside the grid needs the log2 (two
             * a lookup, each axis, were 5% of a calibrated tp8 step) */
            double hi = t->axis[a][t->len[a] - 1], lo = t->axis[a][0];
            double xa = rl_kt_coord(t, x, a);
            double d = xa > hi ? fmax(0, log2(xa / hi)) : 0;
            up += d;
            if (above)
                above[a] = d;
            below += xa < lo ? fmax(0, log2(lo / xa)) : 0;
        }
    return above ? below : up + below;
}

/* measured_at = { hbm_bw = B/s, flops = { dtype = FLOP/s, ... } } (field f,
 * on top of the stack): the figures the tables were measured at, both
 * required (engines.h rl_serving_engine.at_bw). */
static int read_measured_at(lua_State *L, const char *origin, const char *f, rl_serving_engine *e,
                            char *err, size_t errlen)
{
    if (!lua_istable(L, -1))
        RL_FAIL("%s: field '%s': expected a table { hbm_bw = B/s, flops = { bf16 = ... } }, got %s",
                origin, f, luaL_typename(L, -1));
    char g[600];
    lua_getfield(L, -1, "hbm_bw");
    snprintf(g, sizeof g, "%s.hbm_bw", f);
    double bw = lua_tonumber(L, -1);
    int ok = lua_type(L, -1) == LUA_TNUMBER && isfinite(bw) && bw >= 1 && bw <= 1e30;
    lua_pop(L, 1);
    if (!ok)
        RL_FAIL("%s: field '%s': expected a finite number of bytes/s in [1, 1e30]", origin, g);
    lua_getfield(L, -1, "flops");
    snprintf(g, sizeof g, "%s.flops", f);
    int rc = rl_spec_read_flops(L, origin, g, e->at_flops, err, errlen);
    lua_pop(L, 1);
    if (rc != 0)
        return -1;
    lua_pushnil(L); /* only the two keys */
    while (lua_next(L, -2)) {
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
        if (strcmp(k, "hbm_bw") && strcmp(k, "flops")) {
            snprintf(err, errlen, "%s: field '%s.%.60s': unknown key (hbm_bw, flops)", origin, f, k);
            lua_pop(L, 2);
            return -1;
        }
        lua_pop(L, 1);
    }
    e->at_bw = bw;
    return 0;
}

static int engine_key(lua_State *L, const char *k, const reading *r, char *err, size_t errlen)
{
    char f[512];
    snprintf(f, sizeof f, "%.200s.%.60s", r->field, k);
    rl_serving_engine *e = r->e;
#define S(n) {#n, offsetof(rl_serving_engine, n), sizeof e->n}
    static const struct {
        const char *key;
        size_t off, size;
    } strings[] = {S(version), S(source), S(measured_on), S(date)};
#undef S
    for (size_t i = 0; i < sizeof strings / sizeof *strings; i++)
        if (!strcmp(k, strings[i].key))
            return read_string(L, r->origin, f, (char *)e + strings[i].off, strings[i].size, err,
                               errlen);
    if (!strcmp(k, "tables"))
        return read_tables(L, r->origin, f, &e->tables, err, errlen);
    if (!strcmp(k, "measured_at"))
        return read_measured_at(L, r->origin, f, e, err, errlen);
    if (!strcmp(k, "residuals"))
        return read_residuals(L, r, err, errlen);
    if (!strcmp(k, "costs")) {
        if (!lua_istable(L, -1))
            RL_FAIL("%s: field '%s': expected a table, got %s", r->origin, f, luaL_typename(L, -1));
        reading c = {r->origin, f, e};
        e->fitted = rl_engine_costs_blank();
        if (each_key(L, cost_key, &c, err, errlen) != 0 ||
            (e->fitted.present && rl_engine_costs_check(r->origin, f, &e->fitted, err, errlen) != 0))
            return -1;
        if (!e->fitted.present)
            e->fitted = rl_engine_costs_ideal();
        double lo, hi; /* launch_s is one key: (E)'s launch cost is the engine's */
        rl_ec_range(RL_EC_LAUNCH, &lo, &hi);
        if (e->fitted.present && e->launch_s > hi)
            RL_FAIL("%s: field '%s.launch_s': expected a number in [%g, %g] beside fitted costs",
                    r->origin, f, lo, hi);
        e->fitted.v[RL_EC_LAUNCH] = e->launch_s;
        snprintf(e->fitted.engine, sizeof e->fitted.engine, "%s", e->name);
        snprintf(e->fitted.source, sizeof e->fitted.source, "%s", e->costs_source);
        return 0;
    }
    if (!strcmp(k, "memory")) {
        if (!lua_istable(L, -1))
            RL_FAIL("%s: field '%s': expected a table, got %s", r->origin, f, luaL_typename(L, -1));
        reading c = {r->origin, f, e};
        /* a block without workspace_tokens (the files calibrate wrote
         * before it) takes the engine's default (rl_engine_memory_default) */
        rl_engine_memory d;
        int known = rl_engine_memory_default(e->name, NULL, 0, &d) == 0;
        e->mem.workspace_tokens = known ? d.workspace_tokens : 0;
        e->mem.workspace_scale = known ? d.workspace_scale : 1;
        e->mem.present = 1;
        e->mem.fraction = 1;
        return each_key(L, memory_key, &c, err, errlen);
    }
    RL_FAIL("%s: field '%s': unknown key (version, source, measured_on, measured_at, date, "
            "tables, costs, residuals, memory)", r->origin, f);
}

/* One inline engine (table on top of the stack) named `name`. */
static int read_engine(lua_State *L, const char *origin, const char *name, rl_serving_engine *e,
                       char *err, size_t errlen)
{
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", name);
    char f[128];
    snprintf(f, sizeof f, "engines.%.60s", name);
    reading r = {origin, f, e};
    return each_key(L, engine_key, &r, err, errlen);
}

/* The folder rl_engines_read records (engines.h rl_engines_spec_dir).
 * Specs are read on the main thread only today (load_spec; CACHE and NOTED
 * above are plain lists with no lock, so a second reading thread would need
 * one); _Thread_local keeps a worker's reads from seeing the main thread's
 * folder should one ever read a spec. */
/* The metatable field of a pushed engines table naming out->dir. */
#define ENGINES_DIR_FIELD "engines_dir"

static _Thread_local char SPEC_DIR[RL_ENGINES_DIR_MAX];

void rl_engines_spec_dir(const char *dir)
{
    snprintf(SPEC_DIR, sizeof SPEC_DIR, "%s", dir ? dir : "");
}

/* 1 the first time `path` is asked (recorded), else 0; 1 too without
 * memory (a note said twice rather than lost). */
static int first_note(const char *path)
{
    for (const noted *n = NOTED; n; n = n->next)
        if (!strcmp(n->path, path))
            return 0;
    noted *n = malloc(sizeof *n);
    if (n) {
        if (!NOTED && !CACHE)
            atexit(free_cache);
        snprintf(n->path, sizeof n->path, "%s", path);
        n->next = NOTED;
        NOTED = n;
    }
    return 1;
}

/* Where engine file `ref` of a profile in folder `dir` ("": a preset) is
 * read: DIR/REF first, so a profile copied with its engines/ folder reads
 * its own copies (tester: an edited engines/h100-sxm-trtllm.lua beside
 * /tmp/p3/h100-sxm.lua was ignored for the shipped one), then the data
 * folders (rl_data_find), then REF as a path.  Either choice that a user
 * may not expect is said once per file and process (first_note): a file
 * beside the profile that differs from the shipped one of that name, or
 * none beside it so the shipped one is read.  0, or -1 with err. */
static int engine_file_path(const char *origin, const char *dir, const char *name,
                            const char *ref, char *path, size_t len, char *err, size_t errlen)
{
    char beside[PATH_MAX] = "", shipped[1024];
    if (dir[0] && ref[0] != '/' &&
        snprintf(beside, sizeof beside, "%s/%s", dir, ref) >= (int)sizeof beside)
        RL_FAIL("%s: field 'engines.%s': %s/%s: path too long", origin, RL_NAME_SHOWN(name),
                RL_NAME_SHOWN(dir), RL_NAME_SHOWN(ref));
    int in_data = rl_data_find("hw_profiles", ref, shipped, sizeof shipped) == 0;
    if (beside[0] && access(beside, R_OK) == 0) {
        if (in_data && first_note(beside) && !rl_files_same_text(beside, shipped))
            rl_cli_tell(NULL, "note: %s: engine '%s' reads %s beside the profile, not the "
                        "shipped %s of that name (they differ)", origin, RL_NAME_SHOWN(name),
                        RL_NAME_SHOWN(beside), RL_NAME_SHOWN(shipped));
        snprintf(path, len, "%s", beside);
        return 0;
    }
    if (in_data) {
        if (beside[0] && first_note(beside))
            rl_cli_tell(NULL, "note: %s: engine '%s': no %s beside the profile; read the "
                        "shipped %s", origin, RL_NAME_SHOWN(name), RL_NAME_SHOWN(beside),
                        RL_NAME_SHOWN(shipped));
        snprintf(path, len, "%s", shipped);
        return 0;
    }
    if (access(ref, R_OK) != 0) {
        int e = errno;
        char tried[3200], *shown = malloc(RL_SHOWN_PATH);
        rl_data_tried("hw_profiles", ref, tried, sizeof tried);
        /* every name escaped (error.h rl_name_shown: a newline in ref
         * split the message; final-read finding) */
        rl_fail(err, errlen, "%s: field 'engines.%s': %s: cannot read: %s (tried %s%s%s and ./%s; "
                "an install without hw_profiles/engines/?)", origin, RL_NAME_SHOWN(name),
                RL_NAME_SHOWN(ref), strerror(e), RL_NAME_SHOWN(beside), beside[0] ? ", " : "",
                shown ? rl_name_shown(tried, shown, RL_SHOWN_PATH) : "?", RL_NAME_SHOWN(ref));
        free(shown);
        return -1;
    }
    snprintf(path, len, "%s", ref);
    return 0;
}

/* An engine from the spec file `ref` (its engines[name] must be inline),
 * named by a profile in folder `dir` (engine_file_path). */
static int read_engine_file(const char *origin, const char *dir, const char *name, const char *ref,
                            rl_serving_engine *e, char *err, size_t errlen)
{
    char path[PATH_MAX], e2[1024];
    if (engine_file_path(origin, dir, name, ref, path, sizeof path, err, errlen) != 0)
        return -1;
    for (const cached *c = CACHE; c; c = c->next)
        if (!strcmp(c->path, path) && !strcmp(c->e.name, name)) {
            *e = c->e;
            return 0;
        }
    lua_State *L = rl_sandbox_new(&RL_SPEC_LIMITS);
    if (!L)
        RL_FAIL("%s: field 'engines.%s': out of memory", origin, name);
    int rc = rl_sandbox_dospec(L, path, 1, e2, sizeof e2);
    if (rc != 0)
        snprintf(err, errlen, "%s: field 'engines.%s': %s", origin, name, e2);
    if (rc == 0) {
        if (lua_istable(L, -1))
            lua_getfield(L, -1, "engines");
        if (!lua_istable(L, -1) || (lua_getfield(L, -1, name), !lua_istable(L, -1))) {
            snprintf(err, errlen, "%s: field 'engines.%s': %s has no inline engines.%s table",
                     origin, name, path, name);
            rc = -1;
        }
    }
    if (rc == 0)
        rc = read_engine(L, path, name, e, err, errlen);
    if (rc == 0)
        snprintf(e->file, sizeof e->file, "%s", ref); /* as written: a pushed spec names it so */
    rl_sandbox_close(L);
    cached *c = rc == 0 ? malloc(sizeof *c) : NULL;
    if (c) {
        if (!CACHE && !NOTED)
            atexit(free_cache);
        snprintf(c->path, sizeof c->path, "%s", path);
        c->e = *e;
        c->next = CACHE;
        CACHE = c;
    }
    return rc;
}

static int by_engine_name(const void *a, const void *b)
{
    return strcmp(((const rl_serving_engine *)a)->name, ((const rl_serving_engine *)b)->name);
}

int rl_engines_read(lua_State *L, const char *origin, rl_engines *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    snprintf(out->dir, sizeof out->dir, "%s", SPEC_DIR);
    /* a table rl_engines_push made carries the folder in its metatable
     * (pairs and saved specs never see it), so roofline.hw(PATH) passed
     * back to roofline.step reads the engine files beside PATH (review54b:
     * it read the shipped ones) */
    if (lua_istable(L, -1) && lua_getmetatable(L, -1)) {
        lua_pushstring(L, ENGINES_DIR_FIELD);
        if (lua_rawget(L, -2) == LUA_TSTRING)
            snprintf(out->dir, sizeof out->dir, "%s", lua_tostring(L, -1));
        lua_pop(L, 2);
    }
    if (lua_isboolean(L, -1) && !lua_toboolean(L, -1))
        return 0; /* engines = false: none (calibrate --tables reads its base so) */
    if (!lua_istable(L, -1))
        RL_FAIL("%s: field 'engines': expected a table or false, got %s", origin,
                luaL_typename(L, -1));
    char def[32] = "";
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {
        if (lua_type(L, -2) != LUA_TSTRING) {
            lua_pop(L, 2);
            RL_FAIL("%s: field 'engines': keys must be engine names", origin);
        }
        const char *k = lua_tostring(L, -2);
        int rc = 0;
        if (!strcmp(k, "default")) {
            rc = read_string(L, origin, "engines.default", def, sizeof def, err, errlen);
        } else if (strlen(k) >= sizeof out->e[0].name || !strcmp(k, "ideal") ||
                   !strcmp(k, "none")) { /* none: --engine's word for ideal (spec.h) */
            snprintf(err, errlen, "%s: field 'engines.%s': an engine name has 1 to %zu characters "
                     "and is not 'ideal' or 'none'", origin, RL_NAME_SHOWN(k),
                     sizeof out->e[0].name - 1);
            rc = -1;
        } else if (out->n == RL_ENGINES_MAX) {
            snprintf(err, errlen, "%s: field 'engines.%s': at most %d engines", origin, k,
                     RL_ENGINES_MAX);
            rc = -1;
        } else if (lua_type(L, -1) == LUA_TSTRING) { /* read when selected */
            rl_serving_engine *e = &out->e[out->n++];
            snprintf(e->name, sizeof e->name, "%s", k);
            rc = read_string(L, origin, k, e->ref, sizeof e->ref, err, errlen);
        } else if (lua_istable(L, -1)) {
            rc = read_engine(L, origin, k, &out->e[out->n++], err, errlen);
        } else {
            snprintf(err, errlen, "%s: field 'engines.%s': expected an engine table or a spec "
                     "file name, got %s", origin, k, luaL_typename(L, -1));
            rc = -1;
        }
        if (rc != 0) {
            lua_pop(L, 2);
            return -1;
        }
        lua_pop(L, 1);
    }
    if (out->n == 0)
        RL_FAIL("%s: field 'engines': no engine given", origin);
    /* by name: lua_next's order changes from run to run (Lua seeds its string
     * hashes per state), and `list hw` printed the engines in it */
    qsort(out->e, (size_t)out->n, sizeof out->e[0], by_engine_name);
    out->def = -1;
    for (int i = 0; i < out->n; i++)
        if (!strcmp(out->e[i].name, def) || (!def[0] && out->n == 1))
            out->def = i;
    if (out->def < 0)
        RL_FAIL("%s: field 'engines.default': %s", origin,
                def[0] ? "names no engine of the table" : "required with several engines");
    return rl_engines_select(out, out->e[out->def].name, origin, err, errlen);
}

static void push_string(lua_State *L, const char *key, const char *v)
{
    if (v[0]) {
        lua_pushstring(L, v);
        lua_setfield(L, -2, key);
    }
}

static void push_number(lua_State *L, const char *key, double v)
{
    lua_pushnumber(L, v);
    lua_setfield(L, -2, key);
}

void rl_engine_memory_push(lua_State *L, const rl_engine_memory *m)
{
    lua_createtable(L, 0, 8);
    push_number(L, "fraction", m->fraction);
    push_string(L, "fraction_of", m->of_free ? "free" : "capacity");
    push_number(L, "context_bytes", m->context_bytes);
    push_number(L, "comm_bytes", m->comm_bytes);
    push_number(L, "workspace_bytes", m->workspace_bytes);
    push_number(L, "workspace_tokens", m->workspace_tokens);
    push_number(L, "workspace_scale", m->workspace_scale > 0 ? m->workspace_scale : 1);
    push_string(L, "source", m->source);
}

void rl_engine_measured_at_push(lua_State *L, const rl_serving_engine *g)
{
    lua_createtable(L, 0, 2);
    push_number(L, "hbm_bw", g->at_bw);
    lua_createtable(L, 0, RL_DTYPE_COUNT);
    for (int t = 0; t < RL_DTYPE_COUNT; t++)
        if (g->at_flops[t] > 0)
            push_number(L, rl_dtype_name((rl_dtype)t), g->at_flops[t]);
    lua_setfield(L, -2, "flops");
    lua_setfield(L, -2, "measured_at");
}

void rl_engines_push(lua_State *L, const rl_engines *e)
{
    lua_createtable(L, 0, e->n + 1);
    if (e->dir[0]) { /* the folder engine files are read from first (rl_engines_read) */
        lua_createtable(L, 0, 1);
        lua_pushstring(L, e->dir);
        lua_setfield(L, -2, ENGINES_DIR_FIELD);
        lua_setmetatable(L, -2);
    }
    lua_pushstring(L, e->e[e->sel >= 0 ? e->sel : e->def].name); /* the selection survives */
    lua_setfield(L, -2, "default");
    for (int i = 0; i < e->n; i++) {
        const rl_serving_engine *g = &e->e[i];
        if (g->ref[0] || g->file[0]) { /* from a file: the file reference */
            lua_pushstring(L, g->ref[0] ? g->ref : g->file);
            lua_setfield(L, -2, g->name);
            continue;
        }
        lua_createtable(L, 0, 8);
        push_string(L, "version", g->version);
        push_string(L, "source", g->source);
        push_string(L, "measured_on", g->measured_on);
        if (g->at_bw > 0)
            rl_engine_measured_at_push(L, g);
        push_string(L, "date", g->date);
        if (g->tables) {
            lua_pushlightuserdata(L, (void *)(uintptr_t)g->tables);
            lua_setfield(L, -2, "tables");
        }
        push_residuals(L, g);
        lua_createtable(L, 0, 4);
        push_number(L, "step_s", g->step_s);
        push_number(L, "seq_s", g->seq_s);
        push_number(L, "launch_s", g->launch_s);
        push_number(L, "prefill_layer_s", g->prefill_layer_s);
        push_string(L, "attention_context", g->attn_longest ? "longest" : "mean");
        push_string(L, "source", g->costs_source);
        if (g->fitted.present)
            rl_engine_costs_push_keys(L, &g->fitted);
        lua_setfield(L, -2, "costs");
        if (g->mem.present) {
            rl_engine_memory_push(L, &g->mem);
            lua_setfield(L, -2, "memory");
        }
        lua_setfield(L, -2, g->name);
    }
}

int rl_engines_find(const rl_engines *e, const char *name)
{
    if (!strcmp(name, "ideal"))
        return RL_ENGINE_IDEAL;
    for (int i = 0; i < e->n; i++)
        if (!strcmp(e->e[i].name, name))
            return i;
    return RL_ENGINE_ABSENT;
}

int rl_engines_select(rl_engines *e, const char *name, const char *origin, char *err,
                      size_t errlen)
{
    int i = rl_engines_find(e, name);
    if (i == RL_ENGINE_IDEAL) {
        e->sel = -1;
        return 0;
    }
    if (i >= 0) {
        rl_serving_engine *g = &e->e[i];
        if (g->ref[0]) { /* a file reference not read yet */
            char ref[sizeof g->ref], gname[sizeof g->name];
            snprintf(ref, sizeof ref, "%s", g->ref);
            snprintf(gname, sizeof gname, "%s", g->name);
            if (read_engine_file(origin, e->dir, gname, ref, g, err, errlen) != 0)
                return -1;
        }
        e->sel = i;
        return 0;
    }
    char list[256] = "ideal";
    for (i = 0; i < e->n; i++) { /* names shown escaped (error.h; tester62 #10) */
        size_t k = strlen(list);
        if (k + 3 < sizeof list) {
            memcpy(list + k, ", ", 3);
            rl_name_shown(e->e[i].name, list + k + 2, sizeof list - k - 2);
        }
    }
    RL_FAIL("engine: %s carries no engine '%s' (it has: %s)", RL_NAME_SHOWN(origin),
            RL_NAME_SHOWN(name), list);
}

const rl_serving_engine *rl_engines_selected(const rl_engines *e)
{
    return e->n > 0 && e->sel >= 0 ? &e->e[e->sel] : NULL;
}

double rl_engine_step_cost(const rl_serving_engine *e, double seqs, double launches)
{
    return e->step_s + e->seq_s * seqs + e->launch_s * launches;
}

/* The one table of the lowest sm on which TensorRT-LLM runs each narrow
 * dtype, shared by the KV cache's caution (fp8) and the weights'/compute's
 * (fixSA item 1: --weights fp8 under trtllm on an A100 read unremarked while
 * --kv fp8 was cautioned; tester90 #2: --weights fp4 on A100/H100 read
 * unremarked).  Its support matrix (Software, Precision) lists
 *   "Blackwell (SM100/SM120) - FP32, FP16, BF16, FP8, FP4, INT8, INT4"
 *   "Hopper (SM90) - FP32, FP16, BF16, FP8, INT8, INT4"
 *   "Ada Lovelace (SM89) - FP32, FP16, BF16, FP8, INT8, INT4"
 *   "Ampere (SM80, SM86) - FP32, FP16, BF16, INT8, INT4"
 * (NVIDIA/TensorRT-LLM docs/source/reference/support-matrix.md, container
 * 25.06 / TensorRT 10.11; the 0.18.2 page, nvidia.github.io/TensorRT-LLM/
 * 0.18.2/reference/support-matrix.html, lists the three below Blackwell
 * alike): FP8 from SM89 on, FP4 (NVFP4) from SM100 on.  int8 and int4 are
 * listed from Ampere on, so they carry no row.  (A W4A16 NVFP4 path for
 * Hopper was proposed in NVIDIA/TensorRT-LLM pull request #14775, open in
 * May 2026, for Nemotron-H only: not a supported configuration.) */
static const struct {
    rl_dtype dt;
    long long min_sm;
    const char *from; /* the matrix's first architecture listing it */
} TRTLLM_MIN_SM[] = {
    {RL_FP8, 89, "FP8 from Ada Lovelace (SM89) on"},
    {RL_FP4, 100, "FP4 on Blackwell (SM100/SM120) alone"},
};

/* The support matrix's line for a chip of sm `sm` (NULL: none lists it). */
static const char *trtllm_arch_line(long long sm)
{
    if (sm >= 80 && sm < 89)
        return "Ampere (SM80, SM86) - FP32, FP16, BF16, INT8, INT4";
    if (sm == 89)
        return "Ada Lovelace (SM89) - FP32, FP16, BF16, FP8, INT8, INT4";
    if (sm >= 90 && sm < 100)
        return "Hopper (SM90) - FP32, FP16, BF16, FP8, INT8, INT4";
    return NULL;
}

/* 1 when `engine` is trtllm, dt has a row in TRTLLM_MIN_SM and the chip's
 * spec says an sm below its minimum (sm 0: unset, no claim). */
static int trtllm_dtype_unlisted(const char *engine, rl_dtype dt, long long sm)
{
    if (!engine || strcmp(engine, "trtllm") != 0 || sm <= 0)
        return 0;
    for (size_t i = 0; i < sizeof TRTLLM_MIN_SM / sizeof *TRTLLM_MIN_SM; i++)
        if (TRTLLM_MIN_SM[i].dt == dt)
            return sm < TRTLLM_MIN_SM[i].min_sm;
    return 0;
}

/* The caution's opening for dtype dt on chip sm, naming what runs in it with
 * its verb (`what`: "fp8 KV cache is", "fp4 weights are", ...), the chip and
 * the support matrix's words. */
static int trtllm_dtype_head(char *buf, size_t len, rl_dtype dt, long long sm, const char *what)
{
    const char *from = "";
    for (size_t i = 0; i < sizeof TRTLLM_MIN_SM / sizeof *TRTLLM_MIN_SM; i++)
        if (TRTLLM_MIN_SM[i].dt == dt)
            from = TRTLLM_MIN_SM[i].from;
    const char *line = trtllm_arch_line(sm);
    char listed[96] = "no line for this sm";
    if (line)
        snprintf(listed, sizeof listed, "\"%s\"", line);
    return snprintf(buf, len, "the trtllm engine (TensorRT-LLM) has no %s on this chip (sm %lld): "
                    "its support matrix lists %s and %s (TensorRT-LLM docs, Support Matrix, "
                    "Software: Precision), so this run's %s a what-if no TensorRT-LLM deployment runs on "
                    "it", rl_dtype_name(dt), sm, from, listed, what);
}

/* The quantized KV-cache dtypes each serving engine stores (fixJH, README-only
 * tester: step --kv int4 ran "under trtllm" unremarked):
 * - TensorRT-LLM: INT8 and FP8 KV caches (TensorRT-LLM docs, "Numerical
 *   Precision", INT8/FP8 KV caches: nvidia.github.io/TensorRT-LLM/reference/
 *   precision.html) and NVFP4 KV on Blackwell (docs, features/quantization,
 *   "NVFP4 KV Cache": offline quantization with ModelOpt required), on the
 *   data-centre parts only: "Currently NVFP4 is only available for SM10X in
 *   trtllm-gen" (NVIDIA/TensorRT-LLM issue #10241, 2025-12-23, SM120 asked
 *   for), so a chip whose spec says sm outside 100-109, or none, is cautioned
 *   for fp4 too (tester72 finding 4: --kv fp4 on h100-sxm, sm 90, ran
 *   unremarked while --kv int4 was cautioned).
 * - vLLM: FP8 only (vLLM docs, "Quantized KV Cache": kv_cache_dtype="fp8",
 *   docs.vllm.ai/en/latest/features/quantization/quantized_kvcache/).
 * - FP8 before Ada (fixRE item 2: step --hw a100-sxm-80g --kv fp8 read
 *   calibrated, unremarked): TensorRT-LLM's support matrix lists "Ampere
 *   (SM80, SM86) - FP32, FP16, BF16, INT8, INT4" and FP8 from "Ada Lovelace
 *   (SM89)" (nvidia.github.io/TensorRT-LLM/0.18.2/reference/
 *   support-matrix.html, Hardware, Precision), so trtllm's fp8 KV on a chip
 *   whose spec says sm below 89 is cautioned (int8 is its KV cache there;
 *   TRTLLM_MIN_SM, the table fp8 weights and compute share).
 *   vLLM is not: it stores an fp8 KV cache on Ampere and upconverts it to
 *   16 bits for the attention math ("The kv cache is quantized but
 *   upconverted to fp16 for computation", vllm-project/vllm issue #3965 on
 *   an A100; pull request #24577 measured it on A100), which is what this
 *   run times: fp8 bytes read, attention at the compute dtype. */
int rl_engine_kv_caution(const char *engine, rl_dtype kv, long long sm, char *buf, size_t len)
{
    static const struct {
        const char *engine, *who, *stores, *source, *give;
        rl_dtype kv[3];
        int n;
    } E[] = {
        {"trtllm", "TensorRT-LLM", "fp8 or int8 (NVFP4, fp4 here, on Blackwell)",
         "TensorRT-LLM docs, Numerical Precision: INT8/FP8 KV caches; features/quantization: "
         "NVFP4 KV Cache",
         "--kv fp8 or --kv int8", {RL_FP8, RL_INT8, RL_FP4}, 3},
        {"vllm", "vLLM", "fp8 only", "vLLM docs, Quantized KV Cache: kv_cache_dtype=\"fp8\"",
         "--kv fp8", {RL_FP8}, 1},
    };
    buf[0] = '\0';
    if (!engine || rl_dtype_bytes(kv) >= 2) /* bf16/fp16/fp32: every engine stores those */
        return 0;
    if (kv == RL_FP8 && trtllm_dtype_unlisted(engine, kv, sm)) {
        int n = trtllm_dtype_head(buf, len, kv, sm, "fp8 KV cache is");
        if (n >= 0 && (size_t)n < len)
            snprintf(buf + n, len - (size_t)n, " (its KV cache there is int8 or 16-bit); give "
                     "--kv int8, or --engine vllm, which stores fp8 KV on Ampere and computes "
                     "attention in 16 bits (vllm-project/vllm issue #3965)");
        return 1;
    }
    for (size_t i = 0; i < sizeof E / sizeof *E; i++) {
        if (strcmp(engine, E[i].engine) != 0)
            continue;
        for (int k = 0; k < E[i].n; k++)
            if (E[i].kv[k] == kv && !(kv == RL_FP4 && !strcmp(engine, "trtllm") &&
                                      (sm < 100 || sm >= 110))) {
                return 0;
            } else if (E[i].kv[k] == kv) { /* NVFP4 KV off SM10x (tester72 finding 4) */
                char on[48] = "a chip whose spec gives no sm";
                if (sm > 0)
                    snprintf(on, sizeof on, "sm %lld", sm);
                snprintf(buf, len, "the %s engine (%s) stores an fp4 (NVFP4) KV cache on "
                         "Blackwell data-centre chips (sm 100 to 109) only: its trtllm-gen "
                         "attention kernels are built for SM10x alone (NVIDIA/TensorRT-LLM "
                         "issue #10241, \"NVFP4 is only available for SM10X in trtllm-gen\"; "
                         "%s), and this chip is %s, so this run's fp4 KV is a what-if no %s "
                         "deployment runs on it; give %s", engine, E[i].who, E[i].source, on,
                         E[i].who, E[i].give);
                return 1;
            }
        snprintf(buf, len, "the %s engine (%s) has no %s KV cache: it quantizes the KV cache "
                 "to %s (%s), so this run's %s KV is a what-if no %s deployment runs; give "
                 "%s", engine, E[i].who, rl_dtype_name(kv), E[i].stores, E[i].source,
                 rl_dtype_name(kv), E[i].who, E[i].give);
        return 1;
    }
    return 0;
}

/* fixSA item 1, tester90 #2: fp8 or fp4 weights or compute under
 * TensorRT-LLM on a chip below the dtype's minimum sm (TRTLLM_MIN_SM's
 * rule and source, as the KV cache's caution).
 * vLLM is not cautioned: it runs both weight-only where the chip lacks the
 * dtype's tensor cores, which --weights fp8|fp4 at bf16 compute models:
 * "FP8 models will run on compute capability >= 7.5 (Turing) as
 * weight-only W8A16" (vLLM docs, FP8 W8A8; FP8 Marlin, vllm-project/vllm
 * pull request #5975, "Expand FP8 support to Ampere GPUs"), and "Your GPU
 * does not have native support for FP4 computation but FP4 quantization is
 * being used. Weight-only FP4 compression will be used leveraging the
 * Marlin kernel" (vLLM's marlin_utils_fp4.py warning, quoted in
 * vllm-project/vllm issue #31085).  --compute fp8|fp4 on a chip without
 * flops.fp8|fp4 is refused before this. */
int rl_engine_precision_caution(const char *engine, rl_dtype weights, rl_dtype compute,
                                long long sm, char *buf, size_t len)
{
    buf[0] = '\0';
    int w = trtllm_dtype_unlisted(engine, weights, sm);
    int c = trtllm_dtype_unlisted(engine, compute, sm);
    if (!(w || c))
        return 0;
    char what[64];
    if (w && c && weights == compute)
        snprintf(what, sizeof what, "%s weights and compute are", rl_dtype_name(weights));
    else if (w && c)
        snprintf(what, sizeof what, "%s weights and %s compute are", rl_dtype_name(weights),
                 rl_dtype_name(compute));
    else
        snprintf(what, sizeof what, "%s %s", rl_dtype_name(w ? weights : compute),
                 w ? "weights are" : "compute is");
    rl_dtype dt = w ? weights : compute;
    int n = trtllm_dtype_head(buf, len, dt, sm, what);
    if (n < 0 || (size_t)n >= len)
        return 1;
    if (dt == RL_FP8)
        snprintf(buf + n, len - (size_t)n, " (its weights there are 16-bit, int8 or int4); "
                 "give --weights int8 or bf16, or --engine vllm, which runs fp8 weights on "
                 "Ampere weight-only (W8A16, FP8 Marlin: vLLM docs, FP8 W8A8)");
    else
        snprintf(buf + n, len - (size_t)n, " (its weights there are 16-bit, int8%s int4%s); "
                 "give --weights int4 (W4A16 AWQ/GPTQ)%s, or --engine vllm, which runs fp4 "
                 "weights weight-only where the chip lacks FP4 (W4A16, Marlin FP4: vLLM's "
                 "warning \"Weight-only FP4 compression will be used leveraging the Marlin "
                 "kernel\", vllm-project/vllm issue #31085)",
                 sm >= 89 ? "," : " or", sm >= 89 ? " or fp8" : "",
                 sm >= 89 ? " or --weights fp8" : "");
    return 1;
}
