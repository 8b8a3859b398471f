/* ops.c — operator list of one step (see ops.h for every counting
 * convention and its source). */
#include "ops.h"
#include "fastmax.h"
#include "error.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* FLOPs per element of the elementwise operators (ops.h). */
#define SOFTMAX_FLOPS 5.0
#define NORM_FLOPS 4.0
/* LayerNorm (spec.h rl_norm): RMSNorm's 4 (square, accumulate, scale by the
 * reciprocal root, gain) and the mean's 3 more (accumulate the row for its
 * mean, subtract it, add the bias): torch.nn.LayerNorm's (x - mean) /
 * sqrt(var + eps) * weight + bias.  Our count, as NORM_FLOPS is; other
 * counts differ (DeepSpeed's flops profiler estimates 5 an element for an
 * affine LayerNorm, profiling/flops_profiler/profiler.py
 * _layer_norm_flops_compute), and none moves a time: at 7 FLOPs over 4
 * bytes of bf16 rows read and written an element the norm is memory-bound
 * on every profile (its ridge is hundreds of FLOPs a byte). */
#define LAYERNORM_FLOPS 7.0
#define ROPE_FLOPS 3.0

rl_ops_config rl_ops_config_default(void)
{
    rl_ops_config c = {0};
    c.chips = 1;
    c.prec = rl_precision_default();
    c.act = RL_BF16;
    return c;
}

int rl_ops_config_phase(rl_ops_config *c, const char *phase, long long batch, long long tokens,
                        long long context, char *err, size_t errlen)
{
    int prefill = strcmp(phase, "prefill") == 0 || strcmp(phase, "mixed") == 0;
    int decode = strcmp(phase, "decode") == 0 || strcmp(phase, "mixed") == 0;
    if (!prefill && !decode)
        RL_FAIL("phase '%s': expected decode, prefill or mixed", phase);
    /* fixSA #5: the moot-option rule (cli.c serve_policy, fixRC #2): a
     * setting the phase would ignore is refused, not noted (ops --phase
     * prefill --context N ran with a note, exit 0), here for the CLI and
     * Lua alike */
    if (prefill && !decode && context > 0)
        RL_FAIL("context: the decode KV length of each sequence, which phase prefill has none "
                "of (it would be ignored); a prefill's cached tokens are its prefix; leave "
                "context out, or use phase mixed");
    if (prefill) {
        if (tokens < 1)
            RL_FAIL("tokens T (new tokens per prefill sequence) is required for phase %s", phase);
        c->prefill_seqs = decode ? 1 : batch; /* mixed: one chunk beside the decode batch */
        c->prefill_tokens = tokens;
    }
    if (decode) {
        if (context < 1)
            RL_FAIL("context S (tokens in each sequence's KV cache) is required for phase %s", phase);
        c->decode_batch = batch;
        c->decode_context = context;
    }
    return 0;
}

const char *rl_op_kind_name(rl_op_kind k)
{
    static const char *const NAMES[] = {"weight", "attention", "elementwise", "communication"};
    return NAMES[k];
}

/* The prefill shapes of a configuration: its parts, or the one shape
 * prefill_seqs x (prefill_tokens on prefill_prefix) kept in *one. */
static int prefill_parts(const rl_ops_config *c, rl_ops_part *one, const rl_ops_part **parts)
{
    if (c->nparts > 0) {
        *parts = c->parts;
        return c->nparts;
    }
    *one = (rl_ops_part){c->prefill_seqs, c->prefill_tokens, c->prefill_prefix};
    *parts = one;
    return 1;
}

double rl_ops_prefill_rows(const rl_ops_config *c)
{
    rl_ops_part one;
    const rl_ops_part *pp;
    int np = prefill_parts(c, &one, &pp);
    double rows = 0;
    for (int i = 0; i < np; i++)
        rows += (double)pp[i].seqs * (double)pp[i].tokens;
    return rows;
}

int rl_ops_check(const rl_model *m, const rl_hw *h, const rl_ops_config *c, char *err,
                 size_t errlen)
{
    rl_ops_part one;
    const rl_ops_part *pp;
    int np = prefill_parts(c, &one, &pp);
    double rows = 0, cached = 0;
    long long longest = 0;
    if (c->nparts < 0 || (c->nparts > 0 && !c->parts))
        RL_FAIL("parts: a list of prefill shapes needs its count");
    for (int i = 0; i < np; i++) {
        if (pp[i].seqs < 0 || pp[i].tokens < 0 || pp[i].prefix < 0)
            RL_FAIL("tokens, prefix, batch, context: must be >= 0");
        if (pp[i].seqs > 0 && pp[i].tokens < 1)
            RL_FAIL("tokens: a prefill needs at least 1 new token");
        rows += (double)pp[i].seqs * (double)pp[i].tokens;
        cached += (double)pp[i].seqs * (double)(pp[i].prefix + pp[i].tokens);
        if (pp[i].seqs > 0 && pp[i].prefix + pp[i].tokens > longest)
            longest = pp[i].prefix + pp[i].tokens;
    }
    if (c->decode_batch < 0 || c->decode_context < 0)
        RL_FAIL("tokens, prefix, batch, context: must be >= 0");
    if (rows + (double)c->decode_batch < 1)
        RL_FAIL("tokens/batch: the step processes no token (give prefill tokens or a decode batch)");
    if (c->decode_batch > 0 && c->decode_context < 1)
        RL_FAIL("context: decode needs context >= 1 token");
    if (c->decode_batch > 0 && c->decode_context > longest)
        longest = c->decode_context;
    if (m->max_context > 0 && longest > m->max_context)
        RL_FAIL("context: %lld tokens exceeds the model's max_context (%lld, %s)", longest,
                m->max_context, m->origin);
    long long mp = (c->tp > 1 ? c->tp : 1) * (c->ep > 1 ? c->ep : 1);
    if (c->tp < 0 || c->ep < 0 || (mp > 1 && mp != c->chips))
        RL_FAIL("tp/ep: a plan of tp*ep = %lld chips for a step on %lld chips (one model replica: "
                "tp*ep must equal the chips)", mp, c->chips);
    if (c->ep > 1 && rl_shard_ep_check(m, c->ep, err, errlen) != 0) /* shard's plan check */
        return -1;
    if (c->attn_replicated && m->experts == 0)
        RL_FAIL("moe-attn: replicated lays out a MoE model's attention beside its expert "
                "parallelism; %s has no experts", m->name);
    if (mp > 1) { /* the plan check step runs (tester40 F4: tp 128 over 64 heads built
                   * nothing and read "out of memory") */
        rl_shard_plan plan = rl_ops_plan(c);
        if (rl_shard_check_plan(m, &plan, np > 0 ? RL_PHASE_PREFILL : RL_PHASE_GENERATE, mp, err,
                                errlen) != 0)
            return -1;
    }
    if (!(c->mfu == 0 || (c->mfu >= RL_MFU_MIN && c->mfu <= 1)))
        RL_FAIL("mfu: must be in [%g, 1] (or 0 for the ideal peak), got %g", RL_MFU_MIN, c->mfu);
    cached += (double)c->decode_batch * (double)c->decode_context;
    double kv = cached * rl_arch_kv_bytes_per_token(m, c->prec.kv);
    if (kv > RL_EXACT_MAX) /* as step's rl_memory_check_exact */
        RL_FAIL("batch/tokens/context: the step's KV cache would be %.4g bytes, beyond the 2^53 "
                "(%.4g) bytes that 64-bit doubles count exactly; refused (%s)",
                kv, RL_EXACT_MAX, m->origin);
    if (rl_step_check_not_weights_only("act", c->act, err, errlen) != 0)
        return -1;
    return rl_step_check(m, h, c->chips, 1, c->prec, err, errlen);
}

/* ---- builder --------------------------------------------------------------- */

/* Residual bands q0 .. q1 - 1 of residuals r at octaves above[] and below
 * the grid (engines.h rl_kresidual_band), and what they were computed
 * from: the GEMMs of a step inside their tables' grids all have the same,
 * so one computes them for the others (they were 6% of a calibrated tp8
 * step).  Empty while r is NULL. */
typedef struct {
    const rl_kresidual *r;
    int q0, q1;
    double above[RL_KRESIDUAL_AXES], below;
    double band[4];
} band_memo;

typedef struct {
    const rl_model *m;
    const rl_hw *h;
    const rl_ops_config *c;
    rl_ops *o;
    double ab, kb;     /* bytes per element: activations, KV */
    double M;          /* rows through every layer: all new tokens */
    int mixed;         /* prefill and decode in one step: prefix attention rows */
    int named;         /* 0: leave op names empty and b_crit and intensity 0 (step
                          time only: formatting names was half the cost of a build;
                          the callers of an unnamed build read times, provenance,
                          bands and the totals alone, and these divisions were 8%
                          of a calibrated tp8 step's time) */
    int bands;         /* 0: leave the residual bands (band, band_s) at 0: the step's
                          time alone, which does not depend on them, except at a band
                          edge (engines.h `edge`), where each tabled op's band of that
                          edge times it: only that one is set then (band_s stays 0) */
    int prefills;      /* the step prefills (some prompt rows) */
    double wrep;       /* groups of chips that each read a weight matmul's whole matrix,
                          split over the group's chips: attention replicated, the chips;
                          an EP plan, its ep attention groups (shard.c stores the
                          attention, dense and vocab weights once per group; fixY);
                          else 1, split over all the chips */
    int half;          /* the matmuls added now stay unquantized (rl_op.half) */
    rl_dtype kept;     /* their dtype: rl_dtype_kept(weights) */
    rl_dtype attn;     /* attention's compute dtype: attention_compute(&c->prec) */
    int fusion;        /* how residual adds and their norms run (norm_fusion) */
    int totals;        /* 0: finish() times the ops only and leaves the step's totals
                          (rl_ops_terms_of reads the ops' times alone) */
    band_memo band[RL_KC_COUNT]; /* the last residual bands time_from_table computed
                          for each kernel class (the spans of attention, between
                          a step's GEMMs, missed a memo of one, h32step2) */
    rl_eff_memo eff[RL_EFF_CLASSES]; /* the last efficiency fraction finish() read of
                          each class (a step's norms share a size, so do its residuals,
                          between ops of other classes: one memo for all missed 80% of
                          a calibrated tp8 step's lookups, h32step2) */
} builder;

/* The dtype attention's matmuls (QK^T, PV) compute in: the wider of the
 * compute dtype and the KV cache's, as both operands must be in it (K and
 * V are read from the cache; a narrower cache is dequantized to the
 * compute dtype on load, a wider one is not quantized to it).  Equal
 * widths keep the compute dtype.  So --compute fp8 over a bf16 cache runs
 * attention at the bf16 peak, the kernel the tables measure for it (rows
 * keyed by the KV dtype, attn_dtype bfloat16: engines.h), and fp8 over an
 * fp8 cache at the fp8 peak (tester13 #6: --ideal timed QK^T over bf16
 * K at the fp8 peak, and a flops.bf16 what-if left it unchanged). */
static rl_dtype attention_compute(const rl_precision *p) { return rl_attention_dtype(*p); }

/* The compute dtype of op: the kept dtype for a matmul kept unquantized
 * (rl_op.half), attention's own for attention (attention_compute). */
static rl_dtype op_compute(const builder *x, const rl_op *op)
{
    return op->half                        ? x->kept
           : op->kind == RL_OP_ATTENTION ? x->attn
                                         : x->c->prec.compute;
}

/* Engine e's time of kernel class c, variant v at `shape`, computing in
 * `compute`, on the run's chip: the table's at the chip as measured, scaled
 * on a what-if as engines.h rl_engine_time_on says (its excess kept). */
static double kernel_time(const builder *x, const rl_serving_engine *e, rl_kclass c, int v,
                          const double *shape, rl_dtype compute, rl_provenance *prov)
{
    const double was[2] = {rl_hw_measured_flops(x->h)[compute], rl_hw_measured_bw(x->h)};
    const double now[2] = {rl_hw_peak(x->h, compute), x->h->hbm_bw};
    return rl_engine_time_on(e, c, v, shape, was, now, prov);
}

/* Time op (and the span - 1 ops after it) by kernel table `cls` at `shape`
 * times `scale` in calibrated mode. */
static void table(rl_op *op, rl_kclass cls, int span, const double *shape, double scale)
{
    op->kclass = (int)cls;
    op->kspan = span;
    memcpy(op->kshape, shape, sizeof op->kshape);
    op->kscale = scale;
    op->kcausal = 1.0;
}

/* A new op of class `eff`; `segment` ("prefill" | "decode") prefixes the
 * name of attention ops in a mixed step. */
static rl_op *add(builder *x, const char *name, const char *segment, rl_op_kind kind,
                  rl_eff_class eff, double layers)
{
    static const rl_op blank;
    rl_op *op = &x->o->op[x->o->n++];
    /* cleared up to comm (set by add_collectives for its ops) by two copies
     * of half that each, which GCC 12 inlines as moves (a memset of this size
     * became a slow `rep stos`, 9% of a size search; one copy of all 304
     * bytes, past GCC's 256-byte limit for moves, a `rep movs`, 3%) */
    const size_t half = offsetof(rl_op, comm) / 2;
    memcpy(op, &blank, half);
    memcpy((char *)op + half, (const char *)&blank + half, offsetof(rl_op, comm) - half);
    if (x->named && x->mixed && segment)
        snprintf(op->name, sizeof op->name, "%s:%s", segment, name);
    else if (x->named)
        snprintf(op->name, sizeof op->name, "%s", name);
    op->kind = kind;
    op->eff = eff;
    op->layers = layers;
    op->kclass = -1;
    /* the token rows it works on (ops.h rl_op.tokens): the step's M, the
     * builders of weight matmuls and attention setting their own, a
     * collective none (tester64 #7: elementwise and attention rows read 0
     * beside the weight rows' batch) */
    op->tokens = kind == RL_OP_COMM ? 0 : x->M;
    return op;
}

/* The chips of one of the wrep groups that each read a weight matmul's
 * whole matrix (builder.wrep): a TP group's tp, or 1 with attention
 * replicated.  The one expression of the group for the GEMM table's shape
 * (matmul, row_parallel), the norms' copies (tp_copies) and the
 * AllReduce's fused norm (norm_fusion). */
static double tp_group(const builder *x)
{
    return (double)x->c->chips / x->wrep;
}

/* A weight matmul: `copies` [din, dout] matrices are read (experts touched,
 * or heads of a per-head projection); each of `tokens` tokens is multiplied
 * by `per_token` of them (k for routed experts, N for a per-head
 * projection, else 1); `use_frac` is the fraction of all copies one token
 * uses (k/E for routed experts, else 1), which scales B_crit.  Output goes
 * to the KV cache when to_kv. */
static rl_op *matmul(builder *x, const char *name, double layers, double tokens, double per_token,
                     double din, double dout, double copies, double use_frac, int to_kv)
{
    rl_op *op = add(x, name, NULL, RL_OP_WEIGHT, RL_EFF_GEMM, layers);
    rl_dtype w = x->half ? x->kept : x->c->prec.weights;
    double mat = rl_dtype_matrix_bytes(w, din, dout);
    double rows = tokens * per_token;
    op->tokens = tokens;
    op->flops = 2.0 * rows * din * dout;
    op->weight_bytes = copies * mat * x->wrep;
    op->act_read = rows * din * x->ab;
    if (to_kv)
        op->kv_write = rows * dout * x->kb;
    else
        op->act_write = rows * dout * x->ab;
    if (x->named)
        op->b_crit = rl_hw_intensity(x->h, x->half ? x->kept : x->c->prec.compute) *
                     (mat / (din * dout)) / 2.0 / use_frac;
    op->half = x->half;
    if (copies == 1 && per_token == 1) { /* a dense matmul: the gemm table */
        /* each group its tokens, dout split over the group's chips */
        double group = tp_group(x);
        double shape[RL_KSHAPE] = {tokens / x->wrep, dout / group, din, 0};
        table(op, RL_KC_GEMM, 1, shape, 1.0);
    }
    return op;
}

/* A weight matmul replicated on every chip: each holds the whole [din,
 * dout] matrix and multiplies its group's M / wrep rows by it (TP groups
 * compute the same rows on each of their chips), so FLOPs, weight and
 * activation bytes are one chip's times the chips, and its GEMM shape is
 * (M / wrep, dout, din).  The MoE router (gate) is so in both engines:
 * vLLM builds it as a ReplicatedLinear (MixtralMoE's gate, vllm/
 * model_executor/models/mixtral.py; GateLinear, a ReplicatedLinear
 * subclass, in vllm/model_executor/layers/fused_moe/router/
 * gate_linear.py), TensorRT-LLM as a Linear with no tensor-parallel mapping
 * (MixtralMoE.gate, tensorrt_llm/_torch/models/modeling_mixtral.py: Linear
 * defaults to Mapping(), tp_size 1, tensor_parallel_mode None, so its
 * out_features stay whole, tensorrt_llm/_torch/modules/linear.py) or a
 * plain [E, D] weight (DeepseekV3Gate); shard.c stores it whole too.  So
 * are MLA's down-projections (arch.h rl_arch_tp_replicated_params); the one
 * writing the latent cache (to_kv) writes it as matmul would: the KV
 * layout (ops_kv_layout) counts the cache's copies. */
static rl_op *replicated(builder *x, const char *name, double layers, double din, double dout,
                         int to_kv)
{
    double wrep = x->wrep, chips = (double)x->c->chips;
    x->wrep = chips; /* every chip its own group: the whole matrix each */
    rl_op *op = matmul(x, name, layers, x->M * chips / wrep, 1, din, dout, 1, 1, to_kv);
    op->tokens = x->M; /* the step's rows, as the other matmuls (efficiency.h size) */
    if (to_kv) /* the cache written as before: the KV layout counts its copies */
        op->kv_write = x->M * dout * x->kb;
    x->wrep = wrep;
    return op;
}

/* Gives a row-parallel matmul its GEMM shape.  Tensor parallelism splits
 * the first matmul of a pair by its output columns (q/k/v, gate/up: each chip
 * m x din by din x dout/tp) and the second by its input rows (o_proj,
 * down_proj: each chip m x din/tp by din/tp x dout, a partial sum of the
 * whole output, then AllReduced): Shoeybi et al. 2019, "Megatron-LM", sec. 3
 * (arXiv:1909.08053); the Scaling Book, "Sharded matrices" (jax-ml.github.io/
 * scaling-book/sharding).  FLOPs and bytes are the same either way; the kernel
 * table is not, so its shape turns to (m, dout, din/tp), tp the chips of
 * one of the wrep groups (replicated attention: 1, unchanged). */
static void row_parallel(const builder *x, rl_op *op)
{
    double group = tp_group(x);
    if (op->kclass == RL_KC_GEMM && group > 1) {
        op->kshape[1] *= group;
        op->kshape[2] /= group;
    }
}

/* Times the column-parallel matmuls op[first .. first + n) as the one GEMM
 * the engines run, of their summed output width: vLLM's QKVParallelLinear
 * (q, k, v: n = (N + 2K) H / tp) and MergedColumnParallelLinear (gate, up:
 * n = 2F / tp), vllm/model_executor/layers/linear.py; TensorRT-LLM's
 * Attention.qkv_proj and GatedMLP.gate_up_proj, tensorrt_llm/_torch/modules/
 * attention.py and gated_mlp.py.  The ops keep their own rows (FLOPs, bytes);
 * time_from_table splits the one table time over them by their own times.
 * Left as they are unless each is a GEMM-table op of the same m, k and dtype. */
static void fuse(const builder *x, int first, int n)
{
    rl_op *op = &x->o->op[first];
    for (int i = 0; i < n; i++)
        if (op[i].kclass != RL_KC_GEMM || op[i].kspan != 1 || op[i].half != op->half ||
            op[i].kshape[0] != op->kshape[0] || op[i].kshape[2] != op->kshape[2])
            return;
    for (int i = 1; i < n; i++) {
        op->kshape[1] += op[i].kshape[1];
        op[i].kclass = -1;
        op[i].kspan = 0;
    }
    op->kspan = n;
}

/* a followed by b in buf (size n), when ops are named; else "". */
static const char *join(const builder *x, char *buf, size_t n, const char *a, const char *b)
{
    if (!x->named)
        return "";
    snprintf(buf, n, "%s%s", a, b);
    return buf;
}

/* An elementwise op of class eff over `elems` elements: reads `reads`
 * tensors of that size, writes one, `weights` weight elements (norm gains). */
static void elementwise(builder *x, const char *name, rl_eff_class eff, double layers,
                        double elems, double fpe, double reads, double weights)
{
    rl_op *op = add(x, name, NULL, RL_OP_ELEMENTWISE, eff, layers);
    op->flops = fpe * elems;
    op->act_read = reads * elems * x->ab;
    op->act_write = elems * x->ab;
    op->weight_bytes = weights * rl_dtype_weight_bytes(x->kept); /* gains: never quantized */
}

/* The chips that each run an op on the full hidden activation of their
 * group's rows: under a TP plan in calibrated mode with a serving engine
 * selected (an engine's TP, below), the group's chips (tp_group: tp,
 * or 1 with attention replicated); else 1, the op split evenly over the
 * chips (formula (1)'s share: --ideal, --engine ideal, --mfu, no plan; a
 * chip with no engine, such as the TPU profiles, whose step is formula
 * (1) in step and simulate alike, so ops agrees with them there (stop 39:
 * ops charged tpu-v5e tp16's norms whole where step did not, 6% at batch
 * 64), no engine's source saying how its TP lays the norms out; and the
 * fitted engine costs' terms, e2e.c terms_on, an uncalibrated build).  Megatron TP splits only the attention and MLP GEMMs;
 * "rather than having one GPU compute part of the dropout, layer
 * normalization, or residual connections" it duplicates them on every GPU
 * of the group (Shoeybi et al., "Megatron-LM", arXiv:1909.08053, section
 * 3), so they are replicated across the TP group, not divided by t
 * (Korthikanti et al., "Reducing Activation Recomputation in Large
 * Transformer Models", arXiv:2205.05198, section 4.2.2, which splits them
 * over the sequence only with sequence parallelism).  The serving engines
 * run that TP without it: after o_proj's and down_proj's AllReduce every
 * rank holds all [M, D] rows and applies the residual add and RMSNorm to
 * them (vLLM LlamaDecoderLayer, RMSNorm(hidden_size) beside two
 * RowParallelLinear with reduce_results, vllm/model_executor/models/
 * llama.py; TensorRT-LLM's LlamaDecoderLayer likewise,
 * tensorrt_llm/_torch/models/modeling_llama.py). */
static double tp_copies(const builder *x)
{
    return x->c->calibrated && !x->h->ideal && x->c->tp > 1 && rl_engines_selected(&x->h->engines)
               ? tp_group(x)
               : 1.0;
}

/* The chips that each read a norm's gains whole: under a plan in
 * calibrated mode on a serving engine (its TP, EP or attention-DP:
 * tp_copies' condition, or groups of chips that each hold the attention and
 * dense weights, wrep > 1) every chip of the replica, which holds them whole as
 * it holds the router's and MLA's down-projections (replicated) and reads
 * them for its own rows (vLLM RMSNorm's weight is a plain
 * Parameter(hidden_size) on every rank, vllm/model_executor/layers/
 * layernorm.py); else 1, formula (1)'s share.  Review of stop 38: an EP
 * plan's (tp2 ep4) gains counted tp copies, so weight_bytes_per_chip read
 * a quarter of a chip's. */
static double gain_copies(const builder *x)
{
    return x->c->calibrated && !x->h->ideal && (x->c->tp > 1 || x->wrep > 1) &&
                   rl_engines_selected(&x->h->engines)
               ? (double)x->c->chips
               : 1.0;
}

/* An elementwise op on the full hidden rows (norms, residual adds, MLA's
 * latent norm on the replicated down-projections' output): every chip of
 * a TP group runs it whole (tp_copies), its gains read by every chip that
 * holds them (gain_copies). */
static void replicated_elementwise(builder *x, const char *name, rl_eff_class eff, double layers,
                                   double elems, double fpe, double reads, double weights)
{
    elementwise(x, name, eff, layers, elems * tp_copies(x), fpe, reads, weights * gain_copies(x));
}

/* Whether the selected engine runs a residual add with the RMSNorm after it
 * inside the TP AllReduce before them (engines.h rl_engine_fusion ar_norm;
 * RL_FUSE_ALLREDUCE), and if not, why (ops.h RL_FUSE_*: RL_FUSE_ADD_NORM
 * where the layer hands its AllReduce no fusion op, RL_FUSE_NCCL_* where
 * it does and the AllReduce runs NCCL):
 * a dense model whose attention and MLP outputs are AllReduced over a TP
 * group of tp chips, of hidden D, M rows of `ab`-byte activations in the
 * message, where TensorRT-LLM's AUTO strategy picks its one- or two-shot
 * kernel (the index arithmetic of selectStrategyLookUpTable: log2(tp) - 1,
 * log2(D) - 7 and log2(M) truncated, the row the fusion op of weights w
 * picks, the table h's sm picks; engines.c ENGINE_FUSION).  The group must lie in
 * one NVLink domain of h (tp <= domain_chips): AllreduceOp::
 * ifFallbackToNCCL sends a group not all NVLink- and P2P-connected to NCCL
 * whatever the table says (cpp/tensorrt_llm/thop/allreduceOp.cpp; h100-pcie
 * tp4 spans two bridged pairs), the add and norm then one residualRmsNorm
 * kernel after it (fallbackRunSubsequentOps). */
static int ar_fused(const rl_engine_fusion *f, const rl_model *m, const rl_hw *h, double tp,
                    double M, double ab, rl_dtype w)
{
    double D = (double)m->d_model;
    if (!f->ar_norm || tp < 2 || m->experts > 0 || m->attention == RL_ATTN_MLA ||
        D <= f->ar_hidden_above)
        return RL_FUSE_ADD_NORM; /* the layer hands no fusion op to its AllReduce */
    double ti = floor(log2(tp) - 1.0);
    /* tp 16 on or hidden 16384 on: outside the table, NCCL_SYMMETRIC
     * (review56: hidden 16384 read "no fusion op", which the layer hands) */
    if (ti > 2 || D >= f->ar_hidden_below ||
        (h->domain_chips > 0 && tp > (double)h->domain_chips))
        return RL_FUSE_NCCL_GROUP;
    if (M * D * ab > f->ar_workspace[tp > 2])
        return RL_FUSE_NCCL_WORKSPACE;
    if (M < 1 || M >= 32768)
        return RL_FUSE_NCCL_TABLE; /* rows index log2(M): 0 to 14, NCCL_SYMMETRIC past */
    int var = w == RL_FP8 ? RL_FUSE_VARIANT_FP8 : w == RL_FP4 ? RL_FUSE_VARIANT_NVFP4
                                                              : RL_FUSE_VARIANT_NONE;
    /* SM100's table from sm 100 on, SM90's below and unset (spec.h rl_hw.sm) */
    return f->ar_rows[h->sm >= 100][var][(int)ti][D >= 8192] >> (int)floor(log2(M)) & 1u
               ? RL_FUSE_ALLREDUCE
               : RL_FUSE_NCCL_TABLE;
}

/* Whether t's AllReduce rows are another implementation than the selected
 * engine's own: the spec or --set hw.collectives.impl names one (say
 * "nccl") that is not the engine's (collectives.h: a given impl times every
 * operation; "none", the alpha-beta model, names no implementation).  Then
 * TensorRT-LLM's AllReduce does not run its one- / two-shot fused kernel
 * (strategy NCCL: thop/allreduceOp.cpp runs the residual add and RMSNorm
 * after it, fallbackRunSubsequentOps; tester76 finding 3). */
static int coll_not_engines(const rl_collectives *t)
{
    return t->impl_given && strcmp(t->impl, "none") != 0 &&
           strcmp(rl_coll_allreduce_impl(t), t->engine_impl) != 0;
}

/* How a residual add and the RMSNorm after it are run in this build
 * (rl_ops.norm_fusion, ops.h): calibrated against a selected engine (not
 * --ideal, whose operator list is formula (1)'s), as its property table
 * says (engines.h rl_engine_fusion); else apart. */
static int norm_fusion(const builder *x)
{
    const rl_serving_engine *e = rl_engines_selected(&x->h->engines);
    if (!x->c->calibrated || x->h->ideal || !e)
        return RL_FUSE_NONE;
    /* A LayerNorm model (spec.h rl_norm): neither engine fuses its residual
     * add with the norm.  vLLM's BloomBlock builds nn.LayerNorm and adds
     * each residual in PyTorch (`attention_output + residual`, `self.mlp(..)
     * + residual`; vllm/model_executor/models/bloom.py at 01dbb081):
     * fused_add_rms_norm is RMSNorm's (layers/layernorm.py).  TensorRT-LLM's
     * BloomDecoderLayer likewise (`residual + attention_output`, then
     * post_layernorm, a LayerNorm; tensorrt_llm/models/bloom/model.py at
     * 027cd518), and AllReduceFusionOp has RMSNorm variants only
     * (RESIDUAL_RMS_NORM and its quantized forms; engines.c ENGINE_FUSION).
     * A compiler's own fusion (vLLM's torch.compile / Inductor, TensorRT's
     * builder) is not modelled. */
    if (x->m->norm == RL_NORM_LAYER)
        return RL_FUSE_NONE;
    rl_engine_fusion f = rl_engine_fusion_of(e->name);
    if (x->c->tp > 1 && !x->c->attn_replicated && f.ar_norm) {
        int r = ar_fused(&f, x->m, x->h, tp_group(x), x->M, x->ab, x->c->prec.weights);
        return r == RL_FUSE_ALLREDUCE && coll_not_engines(&x->h->collectives) ? RL_FUSE_NCCL_IMPL
                                                                             : r;
    }
    return f.add_norm ? RL_FUSE_ADD_NORM : RL_FUSE_NONE;
}

/* One norm of the residual stream, `layers` of it, over the M rows of D
 * (replicated_elementwise): an RMSNorm NORM_FLOPS per element and its gain
 * of D read; a LayerNorm (spec.h rl_norm) LAYERNORM_FLOPS and its gain and
 * bias, 2 D.  Either kernel reads each row once and writes it once (the
 * mean's pass runs over the row in registers, no second HBM read). */
static void residual_norm(builder *x, const char *name, double layers)
{
    double D = (double)x->m->d_model;
    int ln = x->m->norm == RL_NORM_LAYER;
    replicated_elementwise(x, name, RL_EFF_NORM, layers, x->M * D,
                           ln ? LAYERNORM_FLOPS : NORM_FLOPS, 1, ln ? 2 * D : D);
}

/* A residual add (`res`) and the norm after it (`norm`: residual_norm), `layers` of
 * each, on every chip of a TP group (replicated_elementwise): apart, the
 * add reads two [M, D] tensors and writes one, the norm reads and writes
 * one; fused (RL_FUSE_ADD_NORM) one kernel `fused` reads the sublayer
 * output and the residual and writes the normed rows and the new residual,
 * its FLOPs the two's; inside the AllReduce (RL_FUSE_ALLREDUCE) nothing of
 * its own: its bytes move within the measured AllReduce kernel, whose
 * table (AIConfigurator's custom_allreduce_perf, fusion NONE) does not
 * count them, so they are left out, not added (ops.h rl_ops.norm_fusion). */
static void add_norm(builder *x, const char *res, const char *norm, const char *fused,
                     double layers)
{
    double D = (double)x->m->d_model;
    if (x->fusion == RL_FUSE_ALLREDUCE)
        return;
    if (x->fusion == RL_FUSE_NONE) {
        if (res)
            replicated_elementwise(x, res, RL_EFF_ELEMENTWISE, layers, x->M * D, 1, 2, 0);
        residual_norm(x, norm, layers);
        return;
    }
    /* fused: RMSNorm only (norm_fusion) */
    replicated_elementwise(x, fused, RL_EFF_NORM, layers, x->M * D, 1 + NORM_FLOPS, 2, D);
    x->o->op[x->o->n - 1].act_write *= 2; /* the normed rows and the residual */
}

const char *rl_ops_norm_fusion_words(int f, const rl_model *m)
{
    if (f == RL_FUSE_NONE && m->norm == RL_NORM_LAYER)
        return "apart: each residual add and LayerNorm its own kernel (a LayerNorm model: "
               "the engines' fused add + norm kernels and AllReduce fusion are RMSNorm's; "
               "ops.c norm_fusion)";
    if (f == RL_FUSE_ALLREDUCE)
        return "in the AllReduce: each residual add and the RMSNorm after it run inside the "
               "TP AllReduce before them (TensorRT-LLM's one-/two-shot kernel, "
               "AllReduceFusionOp.RESIDUAL_RMS_NORM or its fp8 / NVFP4 form, which its AUTO "
               "strategy's lookup table picks at this tp, hidden size and token count: "
               "customAllReduceUtils.h AllReduceBestStrategyTableSM90 / SM100), no kernel of "
               "their own, so kernel_excess_s drops by the add + norm kernels where a batch "
               "moves in; collectives rows of impl trtllm (TensorRT-LLM's AllReduce op "
               "measured under AUTO with fusion NONE) time it; final_norm is the first "
               "layer's plain input norm (engines.c ENGINE_FUSION)";
    if (f == RL_FUSE_NCCL_TABLE)
        return "fused add + norm after NCCL: the layer hands each residual add and RMSNorm to "
               "the TP AllReduce (AllReduceFusionOp.RESIDUAL_RMS_NORM, its fp8 / NVFP4 form for "
               "such weights), but TensorRT-LLM's AUTO strategy picks NCCL at this tp, hidden "
               "size and token count (customAllReduceUtils.h selectStrategyLookUpTable, "
               "AllReduceBestStrategyTableSM90 / SM100, one entry per power-of-two token "
               "count), so they run as one residualRmsNorm kernel after it (attn_add_norm, "
               "mlp_add_norm; thop/allreduceOp.cpp fallbackRunSubsequentOps).  That table is "
               "measured, not monotone: Hopper, fp8 weights, tp 8, hidden 8192 fuse below 64 "
               "tokens and at 256-511, NCCL at 64-255 and from 512, so this mode can change "
               "back and forth with the batch, kernel_excess_s with it.  Collectives rows of impl "
               "trtllm time the AllReduce from TensorRT-LLM's AllReduce op measured under AUTO "
               "with fusion NONE (that op's own pick at this size), not from the NCCL rows "
               "(engines.c ENGINE_FUSION)";
    if (f == RL_FUSE_NCCL_WORKSPACE)
        return "fused add + norm after NCCL: the layer hands each residual add and RMSNorm to "
               "the TP AllReduce (AllReduceFusionOp.RESIDUAL_RMS_NORM or its fp8 / NVFP4 "
               "form), but the message (tokens x hidden x activation bytes) exceeds the fused "
               "kernel's workspace (customAllReduceUtils.h getMaxRequiredWorkspaceSize: 16e6 "
               "bytes at 2 GPUs, 8e6 beyond), so AllreduceOp runs NCCL and the pair as one "
               "residualRmsNorm kernel after it (attn_add_norm, mlp_add_norm; "
               "thop/allreduceOp.cpp).  Collectives rows of impl trtllm time the AllReduce from "
               "TensorRT-LLM's AllReduce op measured under AUTO with fusion NONE (engines.c "
               "ENGINE_FUSION)";
    if (f == RL_FUSE_NCCL_GROUP)
        return "fused add + norm after NCCL: the layer hands each residual add and RMSNorm to "
               "the TP AllReduce (AllReduceFusionOp.RESIDUAL_RMS_NORM or its fp8 / NVFP4 "
               "form), but the TP group or the hidden size is outside TensorRT-LLM's strategy "
               "table (tp 16 and beyond, hidden size 16384 and beyond: NCCL_SYMMETRIC; "
               "customAllReduceUtils.h) or the group is not all in one NVLink domain "
               "(thop/allreduceOp.cpp ifFallbackToNCCL), so it runs NCCL and the pair as one residualRmsNorm kernel "
               "after it (attn_add_norm, mlp_add_norm; engines.c ENGINE_FUSION)";
    if (f == RL_FUSE_NCCL_IMPL)
        return "fused add + norm after NCCL: the layer hands each residual add and RMSNorm to "
               "the TP AllReduce (AllReduceFusionOp.RESIDUAL_RMS_NORM or its fp8 / NVFP4 "
               "form), but the hardware's collectives impl (hw.collectives.impl, e.g. --set "
               "hw.collectives.impl=nccl) times the AllReduce from other rows than TensorRT-LLM's "
               "own one- / two-shot kernel, so the pair runs as one residualRmsNorm kernel after "
               "it (attn_add_norm, mlp_add_norm; strategy NCCL, thop/allreduceOp.cpp "
               "fallbackRunSubsequentOps; ops.c coll_not_engines)";
    if (f == RL_FUSE_ADD_NORM)
        return "fused add + norm: each residual add and the RMSNorm after it one kernel "
               "(attn_add_norm, mlp_add_norm: reads the sublayer output and the residual, "
               "writes the normed rows and the new residual), final_norm the first layer's "
               "plain input norm (vLLM fused_add_rms_norm; TensorRT-LLM "
               "flashinfer_fused_add_rmsnorm where its layer hands the AllReduce no fusion op: "
               "no TP, hidden size 4096 or less, a MoE or MLA layer; engines.c ENGINE_FUSION)";
    return "apart: each residual add and RMSNorm its own kernel (ideal mode, no engine, or an "
           "engine not known to fuse them)";
}

/* One attention segment: the shapes of one kind ("prefill" | "decode"),
 * costed as one kernel over all of them (their FLOPs and bytes add up). */
typedef struct {
    const char *name;
    rl_eff_class eff; /* of its attention ops */
    const rl_ops_part *part;
    int n;
} segment;

/* Sequences and new-token rows of a segment. */
static double seg_seqs(const segment *s)
{
    double v = 0;
    for (int i = 0; i < s->n; i++)
        v += (double)s->part[i].seqs;
    return v;
}

static double seg_rows(const segment *s)
{
    double v = 0;
    for (int i = 0; i < s->n; i++)
        v += (double)s->part[i].seqs * (double)s->part[i].tokens;
    return v;
}

/* Query-key pairs per sequence of T new tokens on prefix P and distinct
 * keys the T queries read, with keys capped at W (0 = no window), under a
 * causal mask (the one the kernel tables time). */
static void causal_pairs_keys(double T, double P, double W, double *pairs, double *keys)
{
    double all = P + T;
    if (W <= 0 || P + T <= W) {
        *pairs = T * P + T * (T + 1.0) / 2.0;
        *keys = all;
        return;
    }
    /* query i (0-based) sees min(P + i + 1, W) keys */
    double n1 = W - P > 0 ? fmin(T, W - P) : 0.0;
    *pairs = n1 * P + n1 * (n1 + 1.0) / 2.0 + (T - n1) * W;
    *keys = fmin(all, W + T - 1.0);
}

/* causal_pairs_keys, or under --non-causal every query reading every key
 * (keys capped at W). */
static void pairs_keys(const builder *x, double T, double P, double W, double *pairs, double *keys)
{
    double all = P + T;
    if (x->c->non_causal) {
        *keys = W > 0 && all > W ? W : all;
        *pairs = T * *keys;
        return;
    }
    causal_pairs_keys(T, P, W, pairs, keys);
}

/* QK^T, softmax, PV of one segment on `layers` layers with window W.  qk_dim
 * and v_dim: per-head widths of the scores and values; q_bytes / o_bytes
 * per token; k_* / v_*: bytes per key from the KV cache (kv) and from
 * activations (act). */
typedef struct {
    double qk_dim, v_dim;
    double q_bytes, o_bytes;
    double k_kv, k_act, v_kv, v_act;
} attn_shape;

/* A chunk's candidate lookups for prefix_envelope: the prefixes q it
 * tries in the table's order (q = 0, then each that puts q + T on a grid
 * length), each with its lookup's length, pairs scale and scaled time;
 * found lazily, axis node by node, as far as the longest prefix asked so
 * far (`next`: the node to try next, -1 for q = 0), so no lookup is made
 * that the loop over the prefixes below P would not make.  Keyed by all
 * the lookups read: the table, chip, engine, variant, dtype, causality,
 * T, window and the shape's other axes. */
typedef struct {
    const rl_ktable *t; /* NULL: an empty entry */
    const rl_hw *h;
    const rl_serving_engine *e;
    int v, d, non_causal;
    double T, W, shape[RL_KSHAPE]; /* shape[1] (the length) 0 */
    int next, n;
    double q[RL_KT_AXIS_MAX + 1], len[RL_KT_AXIS_MAX + 1], sc[RL_KT_AXIS_MAX + 1],
        tq[RL_KT_AXIS_MAX + 1];
} envelope;

#define ENVELOPES 128 /* direct mapped by (T, W): chunks of a run repeat their lengths */

struct rl_ops_memo {
    envelope env[ENVELOPES];
};

rl_ops_memo *rl_ops_memo_new(void) { return calloc(1, sizeof(rl_ops_memo)); }

void rl_ops_memo_free(rl_ops_memo *memo) { free(memo); }

/* The envelope entry of chunk (T, W) at `shape` for table t: the memo's
 * (emptied when it held another key), else *scratch, empty. */
static envelope *envelope_of(const builder *x, const rl_serving_engine *e, const rl_ktable *t,
                             int v, rl_dtype d, double T, double W, const double *shape,
                             envelope *scratch)
{
    double other[RL_KSHAPE]; /* the shape's axes but the length */
    memcpy(other, shape, sizeof other);
    other[1] = 0;
    envelope *c = scratch;
    if (x->c->memo) {
        unsigned long long h = (unsigned long long)T * 0x9E3779B97F4A7C15ull ^
                               (unsigned long long)W * 0xC2B2AE3D27D4EB4Full;
        c = &x->c->memo->env[h >> 57 & (ENVELOPES - 1)];
        if (c->t == t && c->h == x->h && c->e == e && c->v == v && c->d == (int)d &&
            c->non_causal == x->c->non_causal && c->T == T && c->W == W &&
            !memcmp(c->shape, other, sizeof other))
            return c;
    }
    c->t = t; /* the key, no candidates yet (the lists are written as they are found) */
    c->h = x->h;
    c->e = e;
    c->v = v;
    c->d = (int)d;
    c->non_causal = x->c->non_causal;
    c->T = T;
    c->W = W;
    memcpy(c->shape, other, sizeof other);
    c->next = -1;
    c->n = 0;
    return c;
}

/* Extend c's candidates to every prefix below P (the axis increases, so
 * those are the ones before the first at or beyond P). */
static void envelope_extend(const builder *x, envelope *c, double P)
{
    const rl_ktable *t = c->t;
    double x1[RL_KSHAPE], pairs, keys;
    rl_provenance prov;
    memcpy(x1, c->shape, sizeof x1);
    for (; c->next < t->len[1]; c->next++) {
        int k = c->next;
        double q = k < 0 ? 0 : t->axis[1][k] - c->T; /* the candidate prefix */
        if (q >= P)
            break;
        if (q < 0 || (k >= 0 && q == 0))
            continue;
        pairs_keys(x, c->T, q, c->W, &pairs, &keys);
        double len = q + c->T, sc = pairs / (len * (len + 1.0) / 2.0);
        x1[1] = len;
        c->q[c->n] = q;
        c->len[c->n] = len;
        c->sc[c->n] = sc;
        c->tq[c->n++] = kernel_time(x, c->e, RL_KC_PREFILL_ATTN, c->v, x1, (rl_dtype)c->d, &prov) * sc;
    }
}

/* The prefill attention table's monotone envelope in the cached prefix:
 * the lookup of T new tokens on prefix P (a causal prompt of P + T tokens
 * scaled by the query-key pairs, attention_table) is the largest of those
 * at P, at P = 0 and at each prefix that puts P + T on a grid length of
 * the table below P + T, so a longer prefix never reads faster (tester4
 * #13: T = 100 on llama3-8b/h100-sxm read 502, 357, 316 and 553 us at
 * P = 0, 200, 1000, 4000, the interpolation between lengths times the
 * falling pairs ratio).  *shape's length and *scale become the chosen
 * lookup's; nothing changes without the engine's table of the KV dtype.
 * And never below the decode-attention table at the same streams and
 * context (the distinct keys read, P + T without a window), once (scale
 * 1): a few new tokens on a long prefix still
 * read the whole cached KV, which the pairs ratio does not see (review-c
 * finding 3: 16 tokens on a 30000-token prefix read 485 us, 2.4x below
 * the roofline's 1179 us; a 4-token verify at 8000 read less than a
 * 1-token decode).  Engines verify a few draft tokens with their decode
 * kernel (TensorRT-LLM's XQA has a speculative-decoding variant of
 * multi-token queries: NVIDIA TensorRT-Edge-LLM docs, DecoderXQARunner
 * dispatchSpecDecodeXQAKernel; FlashInfer PR 2105 enables it in
 * trtllm_batch_decode_with_kv_cache), whose measured time at that context
 * is a step that reads the same KV.  Returns the kernel class chosen
 * (RL_KC_PREFILL_ATTN, or RL_KC_DECODE_ATTN when that floor is larger).
 * One shape of sequences (segment s of one part) only. */
static rl_kclass prefix_envelope(const builder *x, const segment *s, double W, double *shape,
                                 double *scale)
{
    const rl_serving_engine *e = x->c->calibrated ? rl_engines_selected(&x->h->engines) : NULL;
    int v = rl_kvariant_kv(x->c->prec.kv);
    /* the table every lookup below reads (rl_engine_table: the one-KV-head/
     * one-sequence one at shape[RL_KX_ONE] 1, where split), whose grid the
     * candidates follow (review: t[] was read here directly) */
    const rl_ktable *t = e ? rl_engine_table(e->tables, RL_KC_PREFILL_ATTN, v, shape) : NULL;
    double T = (double)s->part[0].tokens, P = (double)s->part[0].prefix;
    if (!t || P <= 0)
        return RL_KC_PREFILL_ATTN;
    rl_dtype d = x->attn;
    double x1[RL_KSHAPE], pairs, keys;
    rl_provenance prov;
    memcpy(x1, shape, sizeof x1);
    double best = kernel_time(x, e, RL_KC_PREFILL_ATTN, v, x1, d, &prov) * *scale;
    pairs_keys(x, T, P, W, &pairs, &keys);
    double read = keys; /* the distinct keys read, as a decode step's length */
    x1[1] = read;
    double floor_s = kernel_time(x, e, RL_KC_DECODE_ATTN, v, x1, d, &prov);
    envelope scratch, *c = envelope_of(x, e, t, v, d, T, W, shape, &scratch);
    envelope_extend(x, c, P);
    for (int k = 0; k < c->n && c->q[k] < P; k++) /* the candidates below P, in order */
        if (c->tq[k] > best) {
            best = c->tq[k];
            shape[1] = c->len[k];
            *scale = c->sc[k];
        }
    if (!(floor_s > best))
        return RL_KC_PREFILL_ATTN;
    shape[1] = read;
    *scale = 1.0;
    return RL_KC_DECODE_ATTN;
}

/* The plan's KV layout (shard.h rl_shard_kv_layout: the one step, ops and
 * the simulator share) for the step's attention: tp chips by heads in ep
 * groups; no plan (tp, ep 0 or 1), tp over all the chips; replicated
 * attention, every chip a group of its own. */
static rl_kv_layout ops_kv_layout(const builder *x, int decode)
{
    const rl_ops_config *c = x->c;
    rl_shard_plan pl = rl_shard_plan_default();
    pl.ep = c->ep > 1 ? c->ep : 1;
    pl.tp = c->tp > 1 ? c->tp : c->chips / pl.ep;
    if (c->attn_replicated && x->wrep > 1) {
        pl.tp = 1;
        pl.ep = c->chips;
        pl.attn_replicated = 1;
    }
    pl.kv = c->kv_split;
    return rl_shard_kv_layout(x->m, &pl, decode);
}

/* The decode cache a chip attends over under layout k (ops_kv_layout):
 * its group's ceil(seqs / groups) sequences; then, where z chips share a
 * KV head (MLA: its one latent, z = the group's chips), as k.split says
 * (ops.h kv_split): replicate, every sequence of the group whole; batch,
 * the busiest chip's ceil(seqs / z); seq, 1/z of every sequence's keys.
 * *seqs and *len become the chip's; returns the factor on the chip's share
 * of the query heads (N / k.tp): 1 under replicate, z under batch or seq,
 * where each chip runs all the query heads of its KV head (shard.c's Q
 * AllToAll or AllGather over the z chips brings them). */
static double kv_split_share(const rl_kv_layout *k, double *seqs, double *len)
{
    *seqs = ceil(*seqs / (double)k->groups);
    if (k->z <= 1 || k->split == RL_KV_REPLICATE)
        return 1.0;
    if (k->split == RL_KV_BATCH)
        *seqs = ceil(*seqs / (double)k->z);
    else
        *len /= (double)k->z;
    return (double)k->z;
}

/* The MLA kernel table (engines.h) that times a segment's qk, softmax and
 * pv (MLA's attention kernel; its projections are GEMMs of their own), for
 * a model of the tables' dimensions only (latent 512, nope 128, rope 64,
 * v 128; any head count): batch = the segment's sequences, isl or context =
 * their mean length (prefill scaled as attention_table's), heads per chip
 * as the plan's layout puts them (ops_kv_layout).  MLA has one latent
 * shared by all heads, so the z = tp chips of an attention group split its
 * decode cache as kv_split_share says: replicate, every chip every one of
 * the group's sequences' latent (ops.h kv_copies) and its N / tp heads
 * over them; batch, all N heads on ceil(seqs / tp) of them; seq, all N
 * heads on 1/tp of every latent.  One chip per group (tp1 epN, replicated
 * attention): all N heads on its ceil(seqs / groups) sequences. */
static void mla_table(builder *x, double seqs, int decode, double len, double scale, rl_op *qk)
{
    const rl_model *m = x->m;
    if ((double)m->kv_lora_rank != RL_MLA_LATENT || (double)m->qk_nope_head_dim != RL_MLA_NOPE ||
        (double)m->qk_rope_head_dim != RL_MLA_ROPE || (double)m->v_head_dim != RL_MLA_V)
        return;
    rl_kv_layout k = ops_kv_layout(x, decode);
    double heads = (double)m->heads / (double)k.tp * kv_split_share(&k, &seqs, &len);
    double shape[RL_KSHAPE] = {seqs, len, heads};
    table(qk, decode ? RL_KC_DECODE_MLA : RL_KC_PREFILL_MLA, 3, shape, decode ? 1.0 : scale);
}

/* attention_table's lookup of a segment of `seqs` sequences, `tokens` new
 * tokens and `pairs_all` query-key pairs, at the summed lengths `len`. */
static void attention_table_at(builder *x, const segment *s, double W, rl_op *qk, double seqs,
                               double tokens, double len, double pairs_all)
{
    double N = (double)x->m->heads;
    double K = (double)x->m->kv_heads, H = (double)x->m->head_dim;
    len /= seqs;
    double scale = pairs_all / (seqs * len * (len + 1.0) / 2.0);
    if (x->m->attention == RL_ATTN_MLA) {
        mla_table(x, seqs, tokens == seqs, len, scale, qk);
        return;
    }
    /* per chip, in its attention group (ops_kv_layout) of tp chips on
     * ceil(seqs / groups) sequences: K / tp KV heads (one, replicated,
     * beyond K chips), each shared by its group of the chip's N / tp query
     * heads; beyond K chips a batch or seq split runs all N / K of them
     * (kv_split_share).  One chip per group: all K KV heads, all N query
     * heads. */
    int decode = tokens == seqs;
    rl_kv_layout k = ops_kv_layout(x, decode);
    double kv = K / (double)k.heads; /* KV heads per chip */
    double group = N / (double)k.tp / kv * kv_split_share(&k, &seqs, &len);
    double shape[RL_KSHAPE] = {seqs * kv, len, group, H};
    shape[RL_KX_ONE] = seqs <= 1 || kv <= 1; /* one sequence or one KV head (engines.h) */
    if (decode) {
        table(qk, RL_KC_DECODE_ATTN, 3, shape, 1.0);
        return;
    }
    rl_kclass cls = s->n == 1 ? prefix_envelope(x, s, W, shape, &scale) : RL_KC_PREFILL_ATTN;
    table(qk, cls, 3, shape, scale);
}

/* The kernel table that times a segment's fused MHA/GQA attention (qk,
 * softmax, pv): one kernel over its sequences at their mean length (decode,
 * every part one new token: keys read; prefill: prefix + new tokens),
 * prefill scaled by the segment's query-key pairs over those of causal
 * prompts of that length (a cached prefix or a window does less work). */
static void attention_table(builder *x, const segment *s, double W, rl_op *qk)
{
    double seqs = 0, tokens = 0, len = 0, pairs_all = 0, causal_all = 0;
    for (int i = 0; i < s->n; i++) {
        double n = (double)s->part[i].seqs, T = (double)s->part[i].tokens;
        double P = (double)s->part[i].prefix, pairs, keys, cp, ck;
        pairs_keys(x, T, P, W, &pairs, &keys);
        causal_pairs_keys(T, P, W, &cp, &ck);
        seqs += n;
        tokens += n * T;
        len += n * (T == 1 ? keys : P + T);
        pairs_all += n * pairs;
        causal_all += n * cp;
    }
    if (seqs <= 0)
        return;
    attention_table_at(x, s, W, qk, seqs, tokens, len, pairs_all);
    /* the tables time causal attention only: under --non-causal the pairs
     * beyond causal are the table's time scaled by pairs (kscale), not
     * measured (docs/model.md, "Labels of moved times") */
    if (qk->kclass >= 0 && pairs_all > causal_all && causal_all > 0)
        qk->kcausal = causal_all / pairs_all;
}

static void attention(builder *x, const segment *s, double layers, double W, const char *suffix,
                      const attn_shape *a)
{
    if (layers <= 0 || seg_seqs(s) <= 0)
        return;
    double N = (double)x->m->heads;
    char name[32];
    rl_op *qk = add(x, join(x, name, sizeof name, "qk", suffix), s->name, RL_OP_ATTENTION,
                    s->eff, layers);
    rl_op *sm = add(x, join(x, name, sizeof name, "softmax", suffix), s->name, RL_OP_ATTENTION,
                    s->eff, layers);
    rl_op *pv = add(x, join(x, name, sizeof name, "pv", suffix), s->name, RL_OP_ATTENTION,
                    s->eff, layers);
    qk->tokens = sm->tokens = pv->tokens = seg_rows(s); /* the segment's query tokens */
    for (int i = 0; i < s->n; i++) {
        double seqs = (double)s->part[i].seqs, T = (double)s->part[i].tokens, pairs, keys;
        pairs_keys(x, T, (double)s->part[i].prefix, W, &pairs, &keys);
        double scores = x->c->materialized ? seqs * N * T * keys * x->ab : 0.0;
        qk->flops += 2.0 * seqs * pairs * N * a->qk_dim;
        qk->act_read += seqs * (T * a->q_bytes + keys * a->k_act);
        qk->kv_read += seqs * keys * a->k_kv;
        qk->act_write += scores;
        qk->scores += scores;
        sm->scores += 2.0 * scores;
        pv->scores += scores;
        sm->flops += SOFTMAX_FLOPS * seqs * pairs * N;
        sm->act_read += scores;
        sm->act_write += scores;
        pv->flops += 2.0 * seqs * pairs * N * a->v_dim;
        pv->act_read += scores + seqs * keys * a->v_act;
        pv->kv_read += seqs * keys * a->v_kv;
        pv->act_write += seqs * T * a->o_bytes;
    }
    attention_table(x, s, W, qk); /* materialized: + the scores' traffic (ops.h) */
}

/* Attention of one segment on global and local layers. */
static void attention_layers(builder *x, const segment *s, const attn_shape *a)
{
    double local = (double)rl_arch_local_layers(x->m);
    attention(x, s, (double)x->m->layers - local, 0, "", a);
    attention(x, s, local, (double)x->m->sliding_window, "(local)", a);
}

/* The layer's ops on all M rows before attention: q/k/v (one fused GEMM)
 * and RoPE. */
static void mha_head(builder *x)
{
    const rl_model *m = x->m;
    double L = (double)m->layers, D = (double)m->d_model, H = (double)m->head_dim;
    double N = (double)m->heads, K = (double)m->kv_heads;
    int qkv = x->o->n;
    matmul(x, "q_proj", L, x->M, 1, D, N * H, 1, 1, 0);
    /* the z chips of a TP group beyond its K KV heads each read their head's
     * K/V projections (shard.c plan_weights: K/V weights over min(tp, K)
     * chips), so those weights are read z times (tester20 F1) */
    double z = (double)ops_kv_layout(x, 1).z;
    matmul(x, "k_proj", L, x->M, 1, D, K * H, 1, 1, 1)->weight_bytes *= z;
    matmul(x, "v_proj", L, x->M, 1, D, K * H, 1, 1, 1)->weight_bytes *= z;
    fuse(x, qkv, 3);
    elementwise(x, "rope", RL_EFF_ROPE, L, x->M * (N + K) * H, ROPE_FLOPS, 1, 0);
}

/* The attention of one segment. */
static void mha_segment(builder *x, const segment *s)
{
    const rl_model *m = x->m;
    double H = (double)m->head_dim, N = (double)m->heads, K = (double)m->kv_heads;
    attn_shape a = {H, H, N * H * x->ab, N * H * x->ab, K * H * x->kb, 0, K * H * x->kb, 0};
    attention_layers(x, s, &a);
}

/* MLA's ops on all M rows before attention: the query and latent
 * projections, the latent norm, RoPE. */
static void mla_head(builder *x)
{
    const rl_model *m = x->m;
    double L = (double)m->layers, D = (double)m->d_model, N = (double)m->heads;
    double cq = (double)m->q_lora_rank, ckv = (double)m->kv_lora_rank;
    double rope = (double)m->qk_rope_head_dim, nope = (double)m->qk_nope_head_dim;
    /* the down-projections whole on every chip, as the engines hold them
     * (arch.h rl_arch_tp_replicated_params; tester22 F3), and with a query
     * LoRA run as one GEMM of n = q_lora_rank + kv_lora_rank + rope (2112
     * for DeepSeek-V3): vLLM's fused_qkv_a_proj, a MergedColumnParallelLinear
     * of [q_lora_rank, kv_lora_rank + qk_rope_head_dim] with disable_tp
     * (DeepseekV2MLAAttention, vllm/model_executor/models/deepseek_v2.py);
     * TensorRT-LLM's MLA kv_a_proj_with_mqa, one Linear of q_lora_rank +
     * kv_lora_rank + qk_rope_head_dim outputs unless is_lite (no q LoRA),
     * tensorrt_llm/_torch/modules/attention.py.  Without a query LoRA
     * (DeepSeek-V2-Lite) kv_a_proj runs alone in both. */
    if (cq > 0) {
        int down = x->o->n;
        replicated(x, "q_a_proj", L, D, cq, 0);
        replicated(x, "kv_a_proj", L, D, ckv + rope, 1);
        fuse(x, down, 2);
        matmul(x, "q_b_proj", L, x->M, 1, cq, N * (nope + rope), 1, 1, 0);
    } else {
        matmul(x, "q_proj", L, x->M, 1, D, N * (nope + rope), 1, 1, 0);
        replicated(x, "kv_a_proj", L, D, ckv + rope, 1);
    }
    replicated_elementwise(x, "latent_norm", RL_EFF_NORM, L, x->M * (cq + ckv), NORM_FLOPS, 1, cq + ckv);
    elementwise(x, "rope", RL_EFF_ROPE, L, x->M * (N + 1) * rope, ROPE_FLOPS, 1, 0);
}

/* MLA attention of one segment: decode in the absorbed form over the
 * latent, prefill up-projecting the latents of all P + T tokens. */
static void mla_segment(builder *x, const segment *s)
{
    const rl_model *m = x->m;
    double L = (double)m->layers, N = (double)m->heads;
    double ckv = (double)m->kv_lora_rank;
    double rope = (double)m->qk_rope_head_dim, nope = (double)m->qk_nope_head_dim;
    double v = (double)m->v_head_dim;
    double rows = seg_rows(s);
    if (seg_seqs(s) <= 0)
        return;
    if (rows == seg_seqs(s)) { /* one token each (decode): absorbed form over the latent */
        matmul(x, "q_absorb", L, rows, N, nope, ckv, N, 1, 0);
        /* fused (FlashMLA, TensorRT-LLM's MLA generation kernel): one kernel
         * reads each cached latent once, as K (latent + rope) and as V (the
         * latent), so qk and pv share those bytes in the ratio of their
         * FLOPs and their summed roofline is the kernel's, max(bytes,
         * FLOPs); with all of them on qk, pv's FLOP time came on top of qk's
         * byte time (DeepSeek-V3: 242 FLOP/B of a bf16 cache, near the
         * ridge).  Materialized: pv reads the latent again. */
        double lat = (ckv + rope) * x->kb, qk_part = (ckv + rope) / (2.0 * ckv + rope);
        int mat = x->c->materialized;
        attn_shape a = {ckv + rope,     ckv,          N * (ckv + rope) * x->ab, N * ckv * x->ab,
                        mat ? lat : lat * qk_part, 0,
                        mat ? ckv * x->kb : lat * (1.0 - qk_part), 0};
        attention_layers(x, s, &a);
        matmul(x, "v_absorb", L, rows, N, ckv, v, N, 1, 0);
    } else { /* prefill: up-project the latents of all P + T tokens */
        double cached = 0;
        for (int j = 0; j < s->n; j++)
            cached += (double)s->part[j].seqs * (double)s->part[j].prefix;
        rl_op *kvb = matmul(x, "kv_b_proj", L, cached + rows, 1, ckv, N * (nope + v), 1, 1, 0);
        kvb->act_read = rows * ckv * x->ab;
        kvb->kv_read = cached * ckv * x->kb;
        attn_shape a = {nope + rope, v, N * (nope + rope) * x->ab, N * v * x->ab, rope * x->kb,
                        N * nope * x->ab, 0, N * v * x->ab};
        attention_layers(x, s, &a);
    }
}

/* The attention output projection on all M rows (row parallel). */
static void o_proj(builder *x)
{
    const rl_model *m = x->m;
    double width = m->attention == RL_ATTN_MLA ? (double)m->heads * (double)m->v_head_dim
                                               : (double)m->heads * (double)m->head_dim;
    row_parallel(x, matmul(x, "o_proj", (double)m->layers, x->M, 1, width, (double)m->d_model, 1,
                           1, 0));
}

/* gate/up/down (or up/down) of `copies` [D, F] blocks, each token using
 * `per_token` of them (see matmul). */
static void mlp(builder *x, const char *prefix, double layers, double per_token, double F,
                double copies, double use_frac)
{
    if (layers <= 0 || copies <= 0)
        return;
    double D = (double)x->m->d_model;
    char name[32];
    int gate = x->o->n, gated = rl_arch_mlp_matrices(x->m) == 3;
    if (gated)
        matmul(x, join(x, name, sizeof name, prefix, "_gate"), layers, x->M, per_token, D, F, copies,
               use_frac, 0);
    matmul(x, join(x, name, sizeof name, prefix, "_up"), layers, x->M, per_token, D, F, copies,
           use_frac, 0);
    if (gated && use_frac == 1) /* not routed experts: those have the MoE table */
        fuse(x, gate, 2);
    row_parallel(x, matmul(x, join(x, name, sizeof name, prefix, "_down"), layers, x->M, per_token,
                           F, D, copies, use_frac, 0));
}

/* The table variant of op's class for the run's precision in engine e's
 * tables (engines.h), or -1. */
static int table_variant(const builder *x, const rl_serving_engine *e, const rl_op *op)
{
    const rl_precision *p = &x->c->prec;
    if (op->kclass == RL_KC_MOE && !op->half)
        return rl_kvariant_moe(e ? e->tables : NULL, p->weights, p->compute,
                               x->m->fp8_scaling == RL_FP8_BLOCK, op->kshape);
    if (op->kclass == RL_KC_GEMM || op->kclass == RL_KC_MOE)
        return op->half ? rl_kvariant_gemm(x->kept, x->kept) : rl_kvariant_gemm(p->weights, p->compute);
    return rl_kvariant_kv(p->kv);
}

/* The variant that times op's class in place of a dtype without a table
 * (engines.h DERIVED) were op compute-bound (1) or memory-bound (0), or -1. */
static int derived_variant(const builder *x, const rl_serving_engine *e, const rl_op *op,
                           int compute_bound)
{
    const rl_precision *p = &x->c->prec;
    int gemm = op->kclass == RL_KC_GEMM || op->kclass == RL_KC_MOE;
    return rl_engine_nearest_variant(
        e, (rl_kclass)op->kclass, rl_dtype_bytes(op->half ? x->kept : gemm ? p->weights : p->kv),
        rl_dtype_bytes(op->half ? x->kept : p->compute), compute_bound);
}

/* The routed experts' op without an MoE table of the run's own dtypes at
 * its shape: the variants derived_variant picks, memory- and
 * compute-bound, each kept where its MoE table measures that same shape,
 * else RL_MOE_FROM_GEMM (the dense GEMM table's, time_from_table: there
 * -1 stands for it as a variant), recorded on the list
 * (rl_ops.moe_derived: the note reads this decision, not one of its own);
 * returns the one of op's bound. */
static int moe_derived(builder *x, const rl_serving_engine *e, const rl_op *op)
{
    int *d = x->o->moe_derived;
    for (int b = 0; b < 2; b++) {
        d[b] = derived_variant(x, e, op, b);
        if (!rl_engine_table(e->tables, RL_KC_MOE, d[b], op->kshape))
            d[b] = RL_MOE_FROM_GEMM;
    }
    int v = d[op->t.compute_s > op->t.memory_s];
    return v < 0 ? -1 : v;
}

/* The octaves below the table's grid that op's band widens by, t its
 * table time: along each axis a the shape lies below, no more than the
 * estimate moves over the extrapolated part, min(log2(smallest / x_a),
 * |log2(t / t')|) with t' the table time at x_a = smallest (stop 23; the
 * rule of fitted bands, e2e.c moved_octaves).  Below the grid a table time
 * is the edge's scaled by the roofline ratio (ktable.h): where the
 * roofline barely moves (a shorter context beside the weights' bytes) the
 * estimate is the measured edge's and the input's octaves overstate its
 * error (CLOSING22: below-grid kernel shapes widened by input octaves). */
static double moved_below(const builder *x, const rl_serving_engine *e, rl_kclass c, int v,
                          const rl_op *op, double t)
{
    const rl_ktable *tb = rl_engine_table(e->tables, c, v, op->kshape);
    double sum = 0;
    for (int a = 0; tb && a < tb->naxes && a < RL_KRESIDUAL_AXES; a++) {
        double lo = tb->axis[a][0], xa = rl_kt_coord(tb, op->kshape, a);
        double oct = xa > 0 ? log2(lo / xa) : 0;
        if (!(oct > 0))
            continue;
        double s[RL_KSHAPE];
        rl_provenance prov;
        memcpy(s, op->kshape, sizeof s);
        rl_kt_set_coord(tb, s, a, lo); /* the table's coordinate (ktable.h RL_KT_PAIRS) */
        double ts = kernel_time(x, e, c, v, s, op_compute(x, op), &prov);
        sum += ts > 0 ? fmin(oct, fabs(log2(t / ts))) : oct;
    }
    return sum;
}

/* MoE experts of a shape no MoE table holds (tester43 F10): the GEMM
 * shapes of the routed experts' grouped GEMMs on one chip, into g[0] (gate
 * and up, fused as the engines run them: n = 2 F / tp; up alone without a
 * gate) and g[1] (down: n = D, k = F / tp).  A grouped GEMM of X touched
 * experts, each over its m_e rows, does the FLOPs and reads the weights of
 * one dense GEMM of m_e rows and X times the columns, so that is its
 * shape: m_e = T k / touched (the uniform expectation of rows per touched
 * expert, arch.h rl_arch_expected_experts; at least 1), X the busiest
 * chip's touched experts (rl_arch_experts_read_ep / ep, as the operator
 * reads them).  Our rule (docs/model.md "MoE"). */
/* The band of MoE experts timed from the GEMM table (rl_ops_moe_gemm_shapes)
 * in a profile without their bias correction (engines.h rl_moe_gemm_fix):
 * p5, p10, p90, p95 of ln(measured / GEMM-timed) over 864 configurations
 * whose shape a MoE table does measure, each timed both ways (the shipped
 * profile, and a copy of it without its `moe` tables):
 * tools/moegemmcheck.py over a100-sxm-80g trtllm and vllm, h100-sxm, h200
 * and b200 vllm; Mixtral-8x7B and 8x22B bf16 and fp8, DeepSeek-V3 fp8; tp
 * 1-8, ep 8, tp2 ep4; decode batch 1-256 at context 2048, prefill 512-8192
 * tokens (stop 33, tester43 F10).  The fused MoE kernels are slower than a
 * dense GEMM of the same FLOPs and bytes: median 1.45x (decode 1.17x,
 * prefill 2.05x; vLLM's per-tensor fp8 Mixtral on H100/H200 4.4-6.3x), so
 * the band is mostly above the time; the tables' residual band of a GEMM
 * widened by the rule of thumb (h100-sxm trtllm bf16 p10-p90 -3.3%..+4.5%,
 * doubled) would hold fewer than 2 in 10 of them, not 8. */
static const double MOE_FROM_GEMM_BAND[4] = {-0.2394, -0.1252, 1.7367, 1.8715};

/* The bands of operators no table of their own dtype measured (issue 13
 * item 4; docs/model.md, "Bands of unmeasured operators"), by the
 * operator's roofline time, in five bins: under 1 us, 10 us, 100 us, 1 ms,
 * and beyond.  From every measured node of the shipped GPU profiles'
 * GEMM, attention and MLA tables (a100-sxm-80g, h100-sxm, h200, b200,
 * gb200; trtllm and vllm: 687,498 nodes), pooled, quantiles at rank
 * p (n + 1) (fit.h rl_fit_bound): `make accuracy-bands`
 * (tools/bandcheck.c).
 *
 * ROOFLINE_*: the node's measured time against its own roofline (engines.h
 * rl_kideal at the chip's measured peaks): at p5 it is already x1.15 to
 * x7.4 above, so a time at the roofline is a floor (its low edge 0) and its
 * high edge (p90, p95) is, under 10 us, the roofline plus the measured
 * excess in seconds (ROOFLINE_EXCESS_S: the kernels' latency floor, which
 * a ratio to a nanosecond roofline would make x1500), and from 10 us on
 * the roofline times the measured ratio (ROOFLINE_LN, ln units). */
static const double ROOFLINE_EXCESS_S[2][2] = {{18.9023e-6, 28.5217e-6}, {47.2414e-6, 85.5547e-6}};
static const double ROOFLINE_LN[3][2] = {{1.8670, 2.1977}, {1.5565, 1.7873}, {1.2923, 1.4652}};
/* DERIVED_BAND: ln(measured / derived) with the node's own dtype table
 * hidden and its time derived from the nearest remaining variant as
 * time_from_table derives it (the other dtype's measured / ideal at the
 * same shape times this dtype's roofline); p5, p10, p90, p95 per bin.
 * The residual band of the donor table widened one octave (the rule of
 * thumb before, stop 23) held 2% to 10% of a dtype the tables measure in
 * place of 80%: bf16-to-fp8 GEMMs miss by a median 20-40%
 * (`make accuracy-derived`). */
static const double DERIVED_BAND[5][4] = {{-1.8889, -1.5138, 1.6110, 2.0003},
                                          {-1.6761, -1.2502, 1.1539, 1.5876},
                                          {-1.1223, -0.8062, 0.7125, 0.9687},
                                          {-0.7942, -0.6392, 0.5720, 0.7082},
                                          {-0.7134, -0.6339, 0.4988, 0.6629}};

/* The bin of a roofline time t (seconds) in the bands above. */
static int unmeasured_bin(double t)
{
    return t < 1e-6 ? 0 : t < 1e-5 ? 1 : t < 1e-4 ? 2 : t < 1e-3 ? 3 : 4;
}

/* Log band edge q (0..3: p5, p10, p90, p95) of an operator timed at t
 * whose roofline is roof, timed by neither a table nor another dtype's
 * (provenance roofline): 0 at the low edges (the roofline is a floor),
 * the measured excess or ratio above (ROOFLINE_*). */
static double roofline_band(double roof, double t, int q)
{
    if (q < 2 || !(t > 0) || !(roof > 0))
        return 0;
    int b = unmeasured_bin(roof), k = q == 3;
    double hi = b < 2 ? log((roof + ROOFLINE_EXCESS_S[b][k]) / t) : log(roof / t) + ROOFLINE_LN[b - 2][k];
    return rl_fmax(hi, 0);
}

double rl_ops_moe_gemm_shapes(const rl_model *m, const double *kshape, double g[2][RL_KSHAPE])
{
    double T = kshape[0], tp_share = kshape[1], ep = 1 / kshape[2];
    double D = kshape[RL_KX_MOE], F = kshape[RL_KX_MOE + 1], k = kshape[RL_KX_MOE + 2];
    double touched = rl_arch_expected_experts(m, T);
    double me = touched > 0 ? fmax(1, T * k / touched) : 1;
    double X = fmax(1, rl_arch_experts_read_ep(m, T, llround(ep)) / (ep > 1 ? ep : 1));
    double up = rl_arch_mlp_matrices(m) == 3 ? 2 : 1;
    memset(g, 0, 2 * sizeof g[0]);
    g[0][0] = g[1][0] = me;
    g[0][1] = X * up * F * tp_share;
    g[0][2] = D;
    g[1][1] = X * D;
    g[1][2] = F * tp_share;
    return me;
}

int rl_ops_moe_gemm_variant(const rl_serving_engine *e, const rl_precision *p, int compute_bound)
{
    int v = rl_kvariant_gemm(p->weights, p->compute);
    if (v < 0 || !e || !rl_engine_has(e->tables, RL_KC_GEMM, v)) /* a GEMM table: any shape */
        v = rl_engine_nearest_variant(e, RL_KC_GEMM, rl_dtype_bytes(p->weights),
                                      rl_dtype_bytes(p->compute), compute_bound);
    return v;
}

/* The efficiency (time / roofline) of the dense GEMM table at shape g in
 * variant v, else in the nearest variant (DERIVED), with *vout the variant
 * used; -1 without a GEMM table. */
static double gemm_efficiency(const builder *x, const rl_serving_engine *e, const rl_op *op,
                              const double *g, int *vout)
{
    int v = rl_ops_moe_gemm_variant(e, &x->c->prec, op->t.compute_s > op->t.memory_s);
    *vout = v;
    return v < 0 ? -1
                 : rl_engine_efficiency(e, RL_KC_GEMM, v, g, rl_hw_measured_flops(x->h),
                                        rl_hw_measured_bw(x->h));
}

/* Op o's weight in its span's split of a table time: its time, or for
 * materialized attention its fused kernel's (the time scaled by its
 * roofline without the score matrix's traffic, bw the chips' HBM
 * bandwidth), so the table's fused time splits as it does fused. */
static double fused_share(const rl_op *o, double bw)
{
    if (!(o->scores > 0))
        return o->t.time_s;
    double roof = rl_fmax(o->t.compute_s, o->t.memory_s), sc = o->scores / bw;
    return roof > 0 ? o->t.time_s * rl_fmax(o->t.compute_s, o->t.memory_s - sc) / roof : 0.0;
}

/* Activation bytes per element a kernel table of class c, variant v
 * measured: bf16 (2), fp32 under the fp32 variant (4).  Both engines keep
 * the hidden states between kernels in the model dtype (bf16) and
 * quantize an fp8 GEMM's input inside the kernel chain (engines.h
 * rl_kideal counts bf16 Q and O for attention). */
static double table_act_bytes(rl_kvariant v)
{
    return v == RL_KV_FP32 ? 4.0 : 2.0;
}

/* The change of op o's roofline when its activations are --act's width
 * instead of the table's (table_act_bytes): its fused roofline (sc: the
 * materialized scores' part of memory_s, bw the chips' HBM bandwidth) less
 * that with the activation bytes at the table's width.  The table's time
 * is split at its roofline and this moves the roofline part, the excess
 * kept, as a what-if chip moves it (engines.h rl_engine_time_on: Hockney's
 * t0 + n / r_inf).  0 at the table's width.  *moved: 1 when o has
 * activations and they are not the table's width, whatever the change (a
 * compute-bound prefill GEMM's is 0: its wider bytes hide under its FLOPs),
 * as the time is then not what the table measured (tester62 #2: prefill's
 * q/k/v/o at --act fp32 read `measured` with bf16 times). */
static double act_moved(const builder *x, const rl_op *o, int v, double sc, double bw, int *moved)
{
    double tab = v >= 0 ? table_act_bytes((rl_kvariant)v) : x->ab;
    double act = o->act_read + o->act_write - o->scores;
    *moved = tab != x->ab && act > 0;
    if (!*moved)
        return 0.0;
    double mem = o->t.memory_s - sc, was = mem - act * (1.0 - tab / x->ab) / bw;
    return rl_fmax(o->t.compute_s, mem) - rl_fmax(o->t.compute_s, was);
}

/* Time op[i .. i + kspan) from the selected engine's table, when it has
 * one for op i: the table time split in the ratio of their current times,
 * each with the engine's residual band.  Without a table of the run's
 * dtype, each op of the span at its own roofline time times the efficiency
 * of the nearest tabled variant (engines.h DERIVED), its band one octave
 * wider; MoE experts of a shape no MoE table holds, at their roofline
 * times the GEMM table's efficiency at their grouped GEMMs' shapes
 * (rl_ops_moe_gemm_shapes) and their measured bias (engines.h rl_moe_gemm_fix;
 * without one, MOE_FROM_GEMM_BAND).  Returns 1 when it did any,
 * else 0. */
static int time_from_table(builder *x, const rl_serving_engine *e, int i)
{
    rl_op *op = &x->o->op[i];
    rl_kclass c = (rl_kclass)op->kclass;
    int v = table_variant(x, e, op);
    rl_provenance prov;
    double t = kernel_time(x, e, c, v, op->kshape, op_compute(x, op), &prov);
    double eff = -1, eff_down = -1, sum = 0;
    double g[2][RL_KSHAPE];
    int from_gemm = 0; /* MoE experts timed from the GEMM table */
    const rl_moe_gemm_fix *fix = NULL; /* and their measured bias */
    if (t <= 0) { /* the efficiency measured, applied to the roofline now (a what-if too) */
        int bound = op->t.compute_s > op->t.memory_s;
        v = c == RL_KC_MOE ? moe_derived(x, e, op) : derived_variant(x, e, op, bound);
        eff = rl_engine_efficiency(e, c, v, op->kshape, rl_hw_measured_flops(x->h),
                                   rl_hw_measured_bw(x->h));
        if (eff <= 0 && c == RL_KC_MOE) { /* no MoE table of this shape: the GEMM table's */
            x->o->moe_derived[bound] = RL_MOE_FROM_GEMM; /* as timed (a variant without a peak) */
            double me = rl_ops_moe_gemm_shapes(x->m, op->kshape, g);
            int vd;
            eff = gemm_efficiency(x, e, op, g[0], &v);
            eff_down = gemm_efficiency(x, e, op, g[1], &vd);
            from_gemm = eff > 0;
            /* the measured bias of the fused MoE kernels against that
             * (engines.h rl_moe_gemm_fix), when the profile carries one */
            fix = from_gemm && v >= 0 && e->tables->moe_gemm[v].n > 0 ? &e->tables->moe_gemm[v]
                                                                        : NULL;
            double corr = fix ? exp(rl_moe_gemm_ln(fix, me)) : 1;
            eff *= corr;
            eff_down *= corr;
        }
        if (eff <= 0)
            return 0;
        prov = RL_PROV_DERIVED;
    }
    const double bw = (double)x->c->chips * x->h->hbm_bw;
    for (int k = i; k < i + op->kspan; k++)
        sum += fused_share(&x->o->op[k], bw);
    const rl_kresidual *r = &e->resid[c];
    double above[RL_KRESIDUAL_AXES] = {0};
    /* the bands: all four (x->bands), else at one edge of the band (engines.h
     * edge) that edge's, which times the op */
    double below = x->bands || e->edge > 0 ? rl_engine_outside(e, c, v, op->kshape, above) : 0;
    if (below > 0 && eff <= 0)
        below = moved_below(x, e, c, v, op, t);
    below += eff > 0; /* a derived dtype: one octave more, by the rule of thumb */
    /* the bands it sets: all four (x->bands), else the edge's alone (none at edge 0) */
    int q0 = x->bands ? 0 : e->edge - 1, q1 = x->bands ? 4 : e->edge;
    q0 = q0 > 0 ? q0 : 0;
    band_memo *bm = &x->band[c]; /* the same for every op of the span */
    if (!(bm->r == r && bm->q0 == q0 && bm->q1 == q1 &&
          !memcmp(bm->above, above, sizeof bm->above) &&
          !memcmp(&bm->below, &below, sizeof below))) {
        bm->r = r;
        bm->q0 = q0;
        bm->q1 = q1;
        memcpy(bm->above, above, sizeof bm->above);
        bm->below = below;
        for (int q = 0; q < 4; q++)
            bm->band[q] = q >= q0 && q < q1 && r->n > 0 ? rl_kresidual_band(r, q, above, below) : 0;
    }
    /* experts from the GEMM table: the band their check measured
     * (MOE_FROM_GEMM_BAND), corrected: the held-out band of the correction */
    const double *band = fix ? fix->q : from_gemm ? MOE_FROM_GEMM_BAND : bm->band;
    for (int k = i; k < i + op->kspan; k++) {
        rl_op *o = &x->o->op[k];
        /* the fused kernel's own roofline: the materialized scores' traffic,
         * which no table measured, is added below (it was in the floor too,
         * and added again: llama3-8b prefill 8192 read qk 2.589 ms, its
         * scores' 1.28 ms twice over the fused 0.542 ms) */
        double sc = o->scores / bw;
        double roof = rl_fmax(o->t.compute_s, o->t.memory_s - sc);
        double ek = from_gemm && eff_down > 0 && k == i + op->kspan - 1 ? eff_down : eff; /* down */
        o->t.time_s = ek > 0 ? ek * roof
                             : t * op->kscale *
                                   (sum > 0 ? fused_share(o, bw) / sum : 1.0 / op->kspan);
        /* the floor (docs/model.md): never below the op's own roofline, the
         * bytes and FLOPs it lists, which the step's roofline terms sum.  A
         * lookup scaled by query-key pairs (a window, a cached prefix: kscale
         * < 1) shrinks the FLOPs, not the bytes (tester15 F-phys-1:
         * gpt-oss-120b's qk(local) read 75.5 MB in 20.71 us, 22.54 us at 3.35
         * TB/s); a MoE table measured under skewed routing (power_law_1.01)
         * reads fewer experts than the uniform expectation ops count
         * (mixtral-8x7b bf16 on A100, batch 4: 0.3124 ms for 0.6423 GB, 0.315
         * ms at 2.039 TB/s); and a span's time is split by the ops' shares
         * (tester16 F1) */
        o->t.time_s = rl_fmax(o->t.time_s, roof);
        o->prov = prov;
        /* another dtype's efficiency (DERIVED, not experts from the GEMM
         * table, whose band their own check measured): the wider of the
         * donor's widened residuals and DERIVED_BAND at the op's roofline */
        const double *dq = ek > 0 && !from_gemm ? DERIVED_BAND[unmeasured_bin(roof)] : NULL;
        for (int q = q0; q < q1; q++)
            o->band[q] = !dq ? band[q] : q < 2 ? fmin(band[q], dq[q]) : rl_fmax(band[q], dq[q]);
        /* nor is a low edge (tester16 F1); a band left unset stays 0, which
         * this never lowers (time_s >= roof: log <= 0), so only the bands
         * set above need it (its log was 9% of a decode span's terms), the
         * one log for both low edges */
        double floor_log = q0 < 2 && q0 < q1 && roof > 0 ? log(roof / o->t.time_s) : 0;
        for (int q = q0; q < q1 && q < 2 && roof > 0; q++)
            o->band[q] = rl_fmax(o->band[q], floor_log);
        if (e->edge > 0) /* one edge of the band (engines.h) */
            o->t.time_s *= exp(o->band[e->edge - 1]);
        /* what the table timed moved to what it did not (docs/model.md,
         * "Labels of moved times"): the fused kernel's time, of which
         * --non-causal's pairs beyond causal are scaled, not measured
         * (kcausal); the activations' width (act_moved); the materialized
         * scores' HBM traffic at the roofline (ops.h) */
        int widened = 0;
        double act = ek > 0 ? 0 : act_moved(x, o, v, sc, bw, &widened);
        o->untabled_s = sc + act;
        o->t.time_s += o->untabled_s;
        o->prov = rl_provenance_moved(prov, op->kcausal < 1 || widened || sc > 0);
        /* one meaning of `derived` for the label and the share (docs/
         * model.md, "Labels of moved times"): a row's time is table time
         * when its label is measured or interpolated, all of it; a derived
         * row counts none, moved or of a derived dtype alike (tester62 #1:
         * --act fp8's GEMMs read derived in a share of 0.902 `calibrated`,
         * their moved times counted whole, while --weights int8's read 0) */
        o->tabled_s = o->prov == RL_PROV_MEASURED || o->prov == RL_PROV_INTERPOLATED
                          ? o->t.time_s
                          : 0.0;
    }
    return 1;
}

/* Engine e's fixed costs of a step of configuration c with `launches`
 * kernel launches (op instances): per step, per sequence, per launch. */
static double engine_fixed(const rl_serving_engine *e, const rl_ops_config *c, double launches)
{
    return rl_engine_step_cost(e, (double)(c->prefill_seqs + c->decode_batch), launches);
}

/* expm1(b), b the last band of its quantile or another: the ops of a
 * span share one band (time_from_table), the ops beside them have none
 * (expm1 of 0, Annex F: 0 of b's sign), so most of a step's expm1 calls
 * (6% of a calibrated tp8 step) repeat the last one.  Exactly expm1(b). */
typedef struct {
    double b, e; /* the last band taken, and its expm1 */
} band_expm1;

static double expm1_again(double b, band_expm1 *last)
{
    if (b == 0)
        return b;
    if (memcmp(&b, &last->b, sizeof b) != 0) {
        last->b = b;
        last->e = expm1(b);
    }
    return last->e;
}

static void finish(builder *x)
{
    rl_ops *o = x->o;
    double mfu = x->c->mfu > 0 ? x->c->mfu : 1.0;
    double bw = (double)x->c->chips * x->h->hbm_bw;
    const rl_serving_engine *e = x->c->calibrated ? rl_engines_selected(&x->h->engines) : NULL;
    int tables = e && e->tables;
    double kvc = x->c->kv_copies > 1 ? x->c->kv_copies : 1.0;
    for (int i = 0; i < o->n; i++) {
        rl_op *op = &o->op[i];
        op->kv_read *= kvc; /* every copy is written and read (ops.h kv_copies) */
        op->kv_write *= kvc;
        op->prov = op->kind == RL_OP_COMM ? rl_comm_provenance(&op->comm) : RL_PROV_ROOFLINE;
        if (op->kind == RL_OP_COMM)
            continue; /* timed by comm.h when added */
        double bytes = op->weight_bytes + op->act_read + op->act_write + op->kv_read + op->kv_write;
        if (x->named)
            op->intensity = bytes > 0 ? op->flops / bytes : 0.0;
        double peak = (double)x->c->chips * rl_hw_peak(x->h, op_compute(x, op)) * mfu;
        op->t = rl_roofline_time(op->flops, bytes, peak, bw);
        if (tables && op->kclass >= 0 && op->kspan == 1 && time_from_table(x, e, i))
            continue; /* a table's kernel alone (a GEMM): no efficiency curve needed */
        if (x->c->calibrated && x->h->efficiency.present)
            op->t.time_s = rl_eff_time_memo(&x->h->efficiency, op->eff,
                                            rl_eff_size(op->eff, op->tokens, op->flops, bytes),
                                            op->flops, bytes, peak, bw, &x->eff[op->eff]);
    }
    for (int i = 0; tables && i < o->n; i++) /* spans of several ops (attention) */
        if (o->op[i].kclass >= 0 && o->op[i].kspan > 1)
            time_from_table(x, e, i);
    /* the ops no table timed (provenance roofline, collectives aside): their
     * band (roofline_band), all four (x->bands), else at one edge of the
     * band (engines.h edge) that edge's, which times the op */
    int q0 = x->bands ? 0 : tables ? e->edge - 1 : 0, q1 = x->bands ? 4 : tables ? e->edge : 0;
    for (int i = 0; tables && q1 > q0 && i < o->n; i++) {
        rl_op *op = &o->op[i];
        if (op->kind == RL_OP_COMM || op->prov != RL_PROV_ROOFLINE)
            continue;
        double roof = rl_fmax(op->t.compute_s, op->t.memory_s);
        for (int q = q0 > 0 ? q0 : 0; q < q1; q++)
            op->band[q] = roofline_band(roof, op->t.time_s, q);
        if (e->edge > 0)
            op->t.time_s *= exp(op->band[e->edge - 1]);
    }
    if (!x->totals)
        return;
    /* summed in locals and stored after: sums into *o beside its op[] had
     * the compiler reload each op's fields after every add (the same sums,
     * in the same order) */
    double flops = 0, weight_bytes = 0, act_bytes = 0, kv_read = 0, kv_write = 0, step_s = 0;
    double compute_s = 0, memory_s = 0, comm_s = 0, table_s = 0, band_s[4] = {0, 0, 0, 0};
    int prov[RL_PROV_COUNT] = {0}, banded = 0;
    double launches = 0;
    band_expm1 seen[4] = {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
    for (int i = 0; i < o->n; i++) {
        const rl_op *op = &o->op[i];
        prov[op->prov]++;
        launches += op->layers;
        if (op->kind == RL_OP_COMM) {
            comm_s += op->layers * op->t.time_s;
            step_s += op->layers * op->t.time_s;
            continue;
        }
        flops += op->layers * op->flops;
        weight_bytes += op->layers * op->weight_bytes;
        act_bytes += op->layers * (op->act_read + op->act_write);
        kv_read += op->layers * op->kv_read;
        kv_write += op->layers * op->kv_write;
        step_s += op->layers * op->t.time_s;
        double tabled = op->layers * (op->t.time_s - op->untabled_s);
        table_s += op->layers * op->tabled_s; /* what a table measured (time_from_table) */
        for (int q = 0; q < 4 && x->bands; q++)
            band_s[q] += tabled * expm1_again(op->band[q], &seen[q]);
        banded |= op->band[0] != 0 || op->band[3] != 0;
        compute_s += op->layers * op->t.compute_s;
        memory_s += op->layers * op->t.memory_s;
    }
    o->flops = flops;
    o->weight_bytes = weight_bytes;
    o->act_bytes = act_bytes;
    o->kv_read = kv_read;
    o->kv_write = kv_write;
    o->step_s = step_s;
    o->compute_s = compute_s;
    o->memory_s = memory_s;
    o->engine_s = 0;
    o->comm_s = comm_s;
    o->table_s = table_s;
    memcpy(o->prov, prov, sizeof o->prov);
    memcpy(o->band_s, band_s, sizeof o->band_s);
    o->banded = banded;
    if (e) {
        o->engine_s = engine_fixed(e, x->c, launches);
        o->step_s += o->engine_s;
    }
    for (int q = 0; q < 4; q++)
        o->band_s[q] += o->step_s;
}

rl_shard_plan rl_ops_plan(const rl_ops_config *c)
{
    rl_shard_plan plan = rl_shard_plan_default();
    plan.tp = c->tp > 1 ? c->tp : 1;
    plan.ep = c->ep > 1 ? c->ep : 1;
    plan.attn_replicated = c->attn_replicated;
    plan.kv = c->kv_split;
    return plan;
}

/* The collectives of the configuration's TP/EP plan over the step's M
 * token rows (ops.h), moving activations of the configuration's act dtype:
 * prefill phase when the step prefills (K/V projections replicated beyond K
 * chips), else generation. */
static int add_collectives(builder *x, char *err, size_t errlen)
{
    const rl_ops_config *c = x->c;
    if ((c->tp <= 1 && c->ep <= 1) || c->no_collectives || x->M <= 0)
        return 0;
    rl_shard_plan plan = rl_ops_plan(c); /* its kv: the layout ops_kv_layout times */
    rl_phase ph = x->prefills ? RL_PHASE_PREFILL : RL_PHASE_GENERATE;
    rl_precision moved = c->prec;
    moved.compute = c->act; /* the activations the collectives move (shard.h) */
    rl_shard_result r;
    if (rl_shard_collectives(x->m, x->h, &plan, ph, x->M, moved, &r, err, errlen) != 0)
        return -1;
    for (int i = 0; i < r.ncoll; i++) {
        rl_op *op = add(x, r.coll[i].what, NULL, RL_OP_COMM, RL_EFF_ELEMENTWISE, r.coll[i].count);
        op->comm = r.coll[i].c;
        op->t.time_s = r.coll[i].c.time_s;
    }
    return 0;
}

/* The step's first ops on all M rows: the embedding, the attention norm,
 * the projections before attention. */
static void rows_head(builder *x)
{
    double L = (double)x->m->layers, D = (double)x->m->d_model;
    rl_op *emb = add(x, "embedding", NULL, RL_OP_WEIGHT, RL_EFF_GEMM, 1);
    emb->tokens = x->M;
    /* gathered rows only, in the table's dtype (dtype.h rl_dtype_kept) */
    emb->weight_bytes = x->M * D * rl_dtype_weight_bytes(x->kept);
    /* vocab-parallel under TP: each chip gathers the rows of its vocab
     * shard, but writes all [M, D] (the others zeroed) before the
     * AllReduce (vLLM VocabParallelEmbedding, vllm/model_executor/layers/
     * vocab_parallel_embedding.py) */
    emb->act_write = x->M * D * x->ab * tp_copies(x);
    /* fused: the previous layer's MLP residual with this input norm (the
     * first layer's plain norm stands as final_norm, the last layer's
     * residual joins the final norm: the same kernels, 2L fused and one
     * plain; add_norm) */
    add_norm(x, NULL, "attn_norm", "attn_add_norm", L);
    if (x->m->attention == RL_ATTN_MLA)
        mla_head(x);
    else
        mha_head(x);
}

/* The step's ops on all M rows after attention: the output projection,
 * residuals, the MLP (dense, or MoE router, experts and shared experts),
 * the final norm. */
static void rows_tail(builder *x)
{
    const rl_model *m = x->m;
    const rl_ops_config *c = x->c;
    double L = (double)m->layers, D = (double)m->d_model;
    o_proj(x);
    add_norm(x, "attn_residual", "mlp_norm", "mlp_add_norm", L);
    if (m->experts == 0) {
        mlp(x, "mlp", L, 1, (double)m->d_ff, 1, 1);
    } else {
        double moe = L - (double)m->dense_layers, E = (double)m->experts, k = (double)m->top_k;
        mlp(x, "mlp", (double)m->dense_layers, 1, (double)m->d_ff, 1, 1);
        /* the router's weights stay bf16 in the engines whatever the checkpoint's
         * precision, its GEMM a bf16 one: vLLM's DeepseekV2MoE builds its gate as a
         * GateLinear with no quant_config (vllm/model_executor/models/deepseek_v2.py
         * at commit 002d607); TensorRT-LLM's DeepseekV3Gate holds a plain weight of
         * the model's torch_dtype, not a quantized Linear
         * (tensorrt_llm/_torch/models/modeling_deepseekv3.py at commit 000561d);
         * and it is whole on every chip (replicated).  A checkpoint of 16 bits or
         * more quantizes nothing (dtype.h rl_dtype_kept): its router is then a
         * matmul like the rest, at --compute's peak as rl_step_matmul_s times it
         * (fixSE #1: --weights fp16 timed it at a flops.fp16 the TPU presets lack:
         * compute_s inf) */
        int half = x->half;
        x->half = x->kept != c->prec.weights;
        replicated(x, "router", moe, D, E, 0);
        x->half = 0; /* the routed experts take --weights (spec.h `quantized`) */
        double wrep = x->wrep; /* routed experts stay split over the chips (EP) */
        x->wrep = 1;
        int first = x->o->n;
        /* the EP group's busiest chip's experts (arch.h), as c->ep copies */
        mlp(x, "expert", moe, k, (double)m->d_ff_expert,
            rl_arch_experts_read_ep(m, x->M, c->ep), k / E);
        x->wrep = wrep;
        x->half = half;
        if (x->o->n > first) { /* the fused MoE table: this chip's share at the plan's TP and EP */
            double ep = c->ep > 1 ? (double)c->ep : 1; /* tp: the other chips */
            double shape[RL_KSHAPE] = {x->M, ep / (double)c->chips, 1 / ep, 0,
                                       D, (double)m->d_ff_expert, k, E};
            table(&x->o->op[first], RL_KC_MOE, x->o->n - first, shape, 1.0);
        }
        double sh = (double)m->shared_experts;
        mlp(x, "shared", moe, sh, (double)m->d_ff_expert, sh, 1);
    }
    if (x->fusion == RL_FUSE_NONE)
        replicated_elementwise(x, "mlp_residual", RL_EFF_ELEMENTWISE, L, x->M * D, 1, 2, 0);
    residual_norm(x, "final_norm", 1);
}

#define ALL_SPANS ((1u << RL_OPS_SPANS) - 1)

/* rl_ops_build, with op names when `named`, residual bands when `bands`,
 * of the spans in the mask `want` only (1 << rl_ops_span; ALL_SPANS: the
 * whole step with its collectives); ends (NULL: not wanted) gets each
 * span's end in out->op (ops.h rl_ops_span), and a caller that wants them
 * (rl_ops_terms_of) reads the ops' times alone, so out's step totals are
 * then left unset (finish). */
static int build_spans(const rl_model *m, const rl_hw *h, const rl_ops_config *c, int named,
                       int bands, unsigned want, rl_ops *out, int *ends, char *err, size_t errlen)
{
    if (m->abstract)
        RL_FAIL("%s: an abstract model (given 'params') has no layer shapes, so no operator list; "
                "give layers, d_model, d_ff, heads, kv_heads, vocab",
                m->origin);
    if (rl_ops_check(m, h, c, err, errlen) != 0)
        return -1;
    out->n = 0; /* each op is cleared as it is added; the totals by finish() */
    out->moe_derived[0] = out->moe_derived[1] = -1;
    builder x = {m, h, c, out, rl_dtype_bytes(c->act),
                 rl_dtype_kv_bytes(c->prec.kv), 0, 0, named, bands, 0,
                 c->attn_replicated && c->chips > 1 && (c->ep > 1 || c->tp <= 1)
                     ? (double)c->chips
                 : c->ep > 1 ? (double)c->ep
                             : 1.0, 0, rl_dtype_kept(c->prec.weights),
                 attention_compute(&c->prec), RL_FUSE_NONE, !ends, {{NULL, 0, 0, {0}, 0, {0}}},
                 {{NULL, 0, 0}}};
    /* --weights below 16 bits: the kept tensors (arch.h rl_arch_kept_params)
     * stay unquantized; a `quantized = "experts"` model keeps all its
     * matmuls but the routed experts' so (spec.h) */
    int quantized = x.kept != c->prec.weights;
    x.half = quantized && m->quantized == RL_QUANT_EXPERTS;
    rl_ops_part one, dec = {c->decode_batch, 1, c->decode_context - 1};
    const rl_ops_part *pp;
    int np = prefill_parts(c, &one, &pp);
    segment seg[2] = {{"prefill", RL_EFF_PREFILL_ATTENTION, pp, np},
                      {"decode", RL_EFF_ATTENTION, &dec, 1}};
    x.M = seg_rows(&seg[0]) + seg_rows(&seg[1]);
    x.prefills = seg_seqs(&seg[0]) > 0;
    x.mixed = x.prefills && seg_seqs(&seg[1]) > 0;
    x.fusion = norm_fusion(&x);
    out->tokens = x.M;
    out->norm_fusion = x.fusion;
    int end[RL_OPS_SPANS];
    for (int sp = 0; sp < RL_OPS_SPANS; sp++) {
        if (want & 1u << sp) {
            if (sp == RL_OPS_HEAD)
                rows_head(&x);
            else if (sp == RL_OPS_TAIL)
                rows_tail(&x);
            else if (sp == RL_OPS_SEQS) { /* never quantized (dtype.h rl_dtype_kept) */
                int half = x.half;
                x.half = quantized;
                matmul(&x, "lm_head", 1, seg_seqs(&seg[0]) + seg_seqs(&seg[1]), 1,
                       (double)m->d_model, (double)m->vocab, 1, 1, 0);
                x.half = half;
            }
            else if (m->attention == RL_ATTN_MLA)
                mla_segment(&x, &seg[sp - RL_OPS_PREFILL]);
            else
                mha_segment(&x, &seg[sp - RL_OPS_PREFILL]);
        }
        end[sp] = x.o->n;
    }
    if (want == ALL_SPANS && add_collectives(&x, err, errlen) != 0)
        return -1;
    finish(&x);
    if (ends)
        memcpy(ends, end, sizeof end);
    return 0;
}

static int build(const rl_model *m, const rl_hw *h, const rl_ops_config *c, int named, int bands,
                 rl_ops *out, char *err, size_t errlen)
{
    return build_spans(m, h, c, named, bands, ALL_SPANS, out, NULL, err, errlen);
}

int rl_ops_terms_of(const rl_model *m, const rl_hw *h, const rl_ops_config *c, unsigned spans,
                    rl_ops_terms *out)
{
    rl_ops o;
    int end[RL_OPS_SPANS];
    char err[256];
    if (((c->tp > 1 || c->ep > 1) && !c->no_collectives) ||
        build_spans(m, h, c, 0, 0, spans & ALL_SPANS, &o, end, err, sizeof err) != 0)
        return -1;
    for (int sp = 0, i = 0; sp < RL_OPS_SPANS; i = end[sp++]) {
        if (!(spans & 1u << sp))
            continue;
        if (end[sp] - i > RL_OPS_TERMS)
            return -1;
        out[sp].n = 0;
        out[sp].launches = 0;
        for (; i < end[sp]; i++) {
            out[sp].t[out[sp].n++] = o.op[i].layers * o.op[i].t.time_s;
            out[sp].launches += o.op[i].layers;
        }
    }
    return 0;
}

double rl_ops_terms_time(const rl_hw *h, const rl_ops_config *c,
                         const rl_ops_terms *const spans[RL_OPS_SPANS])
{
    double step = 0, launches = 0; /* in finish()'s order: the same sum, bit for bit */
    for (int sp = 0; sp < RL_OPS_SPANS; sp++) {
        for (int i = 0; i < spans[sp]->n; i++)
            step += spans[sp]->t[i];
        launches += spans[sp]->launches;
    }
    const rl_serving_engine *e = c->calibrated ? rl_engines_selected(&h->engines) : NULL;
    return e ? step + engine_fixed(e, c, launches) : step;
}

int rl_ops_build(const rl_model *m, const rl_hw *h, const rl_ops_config *c, rl_ops *out, char *err,
                 size_t errlen)
{
    return build(m, h, c, 1, 1, out, err, errlen);
}

void rl_ops_sum_kind(const rl_ops *o, rl_op_kind kind, double *flops, double *bytes)
{
    double f = 0, b = 0;
    for (int i = 0; i < o->n; i++) {
        const rl_op *op = &o->op[i];
        if (op->kind != kind)
            continue;
        f += op->layers * op->flops;
        b += op->layers *
             (op->weight_bytes + op->act_read + op->act_write + op->kv_read + op->kv_write);
    }
    if (flops)
        *flops = f;
    if (bytes)
        *bytes = b;
}

/* Step time of a configuration, or -1. */
static double step_time(const rl_model *m, const rl_hw *h, const rl_ops_config *c,
                        double *table_s)
{
    rl_ops o;
    char err[256];
    if (build(m, h, c, 0, 0, &o, err, sizeof err) != 0)
        return -1.0;
    if (table_s)
        *table_s = o.table_s;
    return o.step_s;
}

double rl_ops_prefill_dispatch(const rl_model *m, const rl_hw *h, const rl_ops_config *c)
{
    const rl_serving_engine *e = c->calibrated ? rl_engines_selected(&h->engines) : NULL;
    return e ? e->prefill_layer_s * (double)m->layers : 0.0;
}

/* One sequence's prefill step of `tokens` on `prefix` cached ones, alone. */
static double prefill_step_time(const rl_model *m, const rl_hw *h, const rl_ops_config *c,
                                long long tokens, long long prefix, double *table_s)
{
    rl_ops_config p = *c;
    p.prefill_seqs = 1;
    p.prefill_tokens = tokens;
    p.prefill_prefix = prefix;
    p.parts = NULL;
    p.nparts = 0;
    p.decode_batch = 0;
    return step_time(m, h, &p, table_s);
}

double rl_ops_prefill_time_share(const rl_model *m, const rl_hw *h, const rl_ops_config *c,
                                 long long tokens, long long prefix, double *share)
{
    double table_s = 0, t = prefill_step_time(m, h, c, tokens, prefix, &table_s);
    if (share) /* the step's, as prefill's rows (result.c: the dispatch is outside it) */
        *share = t > 0 ? table_s / t : -1.0;
    return t < 0 ? -1.0 : t + rl_ops_prefill_dispatch(m, h, c);
}

double rl_ops_prefill_time(const rl_model *m, const rl_hw *h, const rl_ops_config *c,
                           long long tokens, long long prefix)
{
    return rl_ops_prefill_time_share(m, h, c, tokens, prefix, NULL);
}

double rl_ops_chunked_prefill_time(const rl_model *m, const rl_hw *h, const rl_ops_config *c,
                                   long long tokens, long long prefix, long long chunk)
{
    if (chunk < 1 || tokens < 1)
        return -1.0;
    double total = rl_ops_prefill_dispatch(m, h, c); /* once per request (ops.h) */
    for (long long done = 0; done < tokens; done += chunk) {
        long long n = tokens - done < chunk ? tokens - done : chunk;
        double t = prefill_step_time(m, h, c, n, prefix + done, NULL);
        if (t < 0)
            return -1.0;
        total += t;
    }
    return total;
}

int rl_ops_check_chunks(long long tokens, long long chunk, char *err, size_t errlen)
{
    if (chunk > 0 && (tokens + chunk - 1) / chunk > RL_OPS_MAX_CHUNKS)
        RL_FAIL("chunk %lld: a %lld-token prompt would take %lld chunks, more than %d", chunk, tokens,
                (tokens + chunk - 1) / chunk, RL_OPS_MAX_CHUNKS);
    return 0;
}

rl_ops_config rl_ops_mixed_config(long long chips, rl_precision p, long long prefill_tokens,
                                  long long prefill_prefix, long long decode_batch,
                                  long long decode_context)
{
    rl_ops_config c = rl_ops_config_default();
    c.chips = chips;
    c.prec = p;
    c.prefill_seqs = prefill_tokens > 0 ? 1 : 0;
    c.prefill_tokens = prefill_tokens;
    c.prefill_prefix = prefill_prefix;
    c.decode_batch = decode_batch;
    c.decode_context = decode_context;
    /* an fp32 engine keeps fp32 activations, any other bf16 (shard.h
     * rl_shard_moved_dtype): step, prefill and the size share time the
     * activations simulate does and the fp32 tables measured
     * (table_act_bytes), not bf16 moved to derived */
    c.act = rl_shard_moved_dtype(p.compute);
    return c;
}

double rl_ops_step_time(const rl_model *m, const rl_hw *h, const rl_ops_config *c)
{
    return step_time(m, h, c, NULL);
}

double rl_ops_mixed_step_time(const rl_model *m, const rl_hw *h, long long chips, rl_precision p,
                              long long prefill_tokens, long long prefill_prefix,
                              long long decode_batch, long long decode_context)
{
    rl_ops_config c = rl_ops_mixed_config(chips, p, prefill_tokens, prefill_prefix, decode_batch,
                                          decode_context);
    return step_time(m, h, &c, NULL);
}

double rl_ops_table_share(const rl_ops *o)
{
    return o->step_s > 0 ? o->table_s / o->step_s : -1.0;
}

/* The op list of one calibrated step of prefill_seqs sequences of
 * `prefill_tokens` each (0: none) and `batch` decoding sequences at
 * `context` on `chips` chips under a tp x ep plan into *o; -1 when it has
 * no kernel tables or cannot be built. */
static int step_ops(const rl_model *m, const rl_hw *h, long long chips, long long tp,
                    long long ep, long long prefill_seqs, long long prefill_tokens,
                    long long batch, long long context, rl_precision p, rl_ops *o)
{
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    rl_ops_config c = rl_ops_mixed_config(chips, p, prefill_tokens, 0, batch, context);
    if (prefill_tokens > 0) /* that many sequences of prefill_tokens each */
        c.prefill_seqs = prefill_seqs;
    c.calibrated = 1;
    c.tp = tp;
    c.ep = ep;
    char err[256];
    if (!e || !e->tables || m->abstract || rl_ops_check(m, h, &c, err, sizeof err) != 0 ||
        build(m, h, &c, 0, 0, o, err, sizeof err) != 0)
        return -1;
    return 0;
}

/* step_ops' table share, and that step's time into *step_s; -1 when
 * step_ops builds none. */
static double step_share(const rl_model *m, const rl_hw *h, long long chips, long long tp,
                         long long ep, long long prefill_seqs, long long prefill_tokens,
                         long long batch, long long context, rl_precision p, double *step_s)
{
    rl_ops o;
    *step_s = 0;
    if (step_ops(m, h, chips, tp, ep, prefill_seqs, prefill_tokens, batch, context, p, &o) != 0)
        return -1.0;
    *step_s = o.step_s;
    return rl_ops_table_share(&o);
}

double rl_ops_decode_share(const rl_model *m, const rl_hw *h, long long chips, long long tp,
                           long long ep, long long batch, long long context, rl_precision p)
{
    double t;
    return step_share(m, h, chips, tp, ep, 0, 0, batch, context, p, &t);
}

int rl_ops_mix_prefill_step(const rl_model *m, const rl_ops_run_mix *mix, double *seqs,
                            double *tokens)
{
    int steps = mix->prefill_steps > 0 && mix->prefill_parts > 0;
    double parts = steps ? mix->prefill_parts : mix->prompts;
    *seqs = steps ? fmax(1.0, round(mix->prefill_parts / mix->prefill_steps)) : 1.0;
    *tokens = mix->prompts > 0 && parts > 0 ? fmax(1.0, round(mix->prefill_tokens / parts)) : 0;
    if (m->max_context > 0)
        *tokens = fmin(*tokens, (double)m->max_context);
    return steps;
}

/* The steps rl_ops_serving_share weighs for mix, on the chips of one
 * stage: its plan, decode step and mean prefill step. */
typedef struct {
    long long tp, ep, batch, context;
    double seqs, prompt; /* prompt 0: no prefill step */
    int steps;           /* rl_ops_mix_prefill_step's */
} serving_shape;

static serving_shape serving_shape_of(const rl_model *m, long long stage_chips, long long ep,
                                      int attn_dp, const rl_ops_run_mix *mix)
{
    serving_shape s;
    s.batch = mix->batch > 1 ? llround(mix->batch) : 1;
    double ctx = fmax(1.0, round(mix->context));
    s.steps = rl_ops_mix_prefill_step(m, mix, &s.seqs, &s.prompt);
    if (m->max_context > 0)
        ctx = fmin(ctx, (double)m->max_context);
    s.context = (long long)ctx;
    s.ep = attn_dp ? stage_chips : ep > 1 ? ep : 1;
    s.tp = stage_chips / s.ep > 1 ? stage_chips / s.ep : 1;
    return s;
}

double rl_ops_serving_share(const rl_model *m, const rl_hw *h, long long stage_chips,
                            long long ep, int attn_dp, const rl_ops_run_mix *mix,
                            rl_precision p, double *prefill_frac)
{
    serving_shape sh = serving_shape_of(m, stage_chips, ep, attn_dp, mix);
    double td, tp_s = 0;
    double sd = step_share(m, h, stage_chips, sh.tp, sh.ep, 0, 0, sh.batch, sh.context, p, &td);
    double sp = sh.prompt > 0 ? step_share(m, h, stage_chips, sh.tp, sh.ep, (long long)sh.seqs,
                                           (long long)sh.prompt, 0, 0, p, &tp_s)
                              : -1.0;
    /* busy time estimated per phase: decode steps x the decode step, prefill
     * steps x the mean prefill step (without them: prompts x one prompt's) */
    double busy_d = mix->decode_steps > 0 ? mix->decode_steps * td : 0;
    double busy_p = sp >= 0 ? (sh.steps ? mix->prefill_steps : mix->prompts) * tp_s : 0;
    if (prefill_frac)
        *prefill_frac = 0;
    if (!(busy_p > 0))
        return sd; /* prefill not weighed: the decode step alone */
    if (!(mix->decode_steps > 0)) {
        if (prefill_frac)
            *prefill_frac = 1;
        return sp;
    }
    if (sd < 0 || !(busy_d > 0))
        return -1.0;
    if (prefill_frac)
        *prefill_frac = busy_p / (busy_p + busy_d);
    return (sp * busy_p + sd * busy_d) / (busy_p + busy_d);
}

int rl_ops_serving_steps(const rl_model *m, const rl_hw *h, long long stage_chips, long long ep,
                         int attn_dp, const rl_ops_run_mix *mix, rl_precision p, rl_ops out[2],
                         char name[2][64])
{
    serving_shape sh = serving_shape_of(m, stage_chips, ep, attn_dp, mix);
    int n = 0;
    if ((mix->decode_steps > 0 || !(sh.prompt > 0)) &&
        step_ops(m, h, stage_chips, sh.tp, sh.ep, 0, 0, sh.batch, sh.context, p, &out[n]) == 0)
        snprintf(name[n++], 64, "decode batch %lld at context %lld", sh.batch, sh.context);
    if (sh.prompt > 0 && step_ops(m, h, stage_chips, sh.tp, sh.ep, (long long)sh.seqs,
                                  (long long)sh.prompt, 0, 0, p, &out[n]) == 0)
        snprintf(name[n++], 64, "prefill %.0f x %.0f tokens", sh.seqs, sh.prompt);
    return n;
}

int rl_ops_engine_step(const rl_model *m, const rl_hw *h, long long chips, rl_step *st,
                       rl_precision p, double kv_copies, const rl_shard_plan *plan, rl_ops *ops,
                       char *why, size_t whylen)
{
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    char err[512] = "";
    rl_ops_config c = rl_ops_mixed_config(chips, p, 0, 0, st->batch, st->context);
    c.calibrated = 1;
    c.kv_copies = kv_copies;
    if (plan) { /* its shape of the local ops; the caller adds its collectives */
        c.tp = plan->tp;
        c.ep = plan->ep;
        c.attn_replicated = plan->attn_replicated;
        c.kv_split = plan->kv;
        c.no_collectives = 1;
    }
    if (!e || !e->tables || m->abstract || build(m, h, &c, 0, 1, ops, err, sizeof err) != 0) {
        if (whylen > 0)
            snprintf(why, whylen, "%s", !e || !e->tables ? "no kernel tables"
                                        : m->abstract    ? "an abstract model has no operator list"
                                                         : err);
        return 0;
    }
    if (whylen > 0) /* unnamed: the callers read times and provenance */
        *why = '\0';
    st->step_s = ops->step_s;
    st->table_s = ops->table_s;
    st->tokens_per_s = (double)st->batch / st->step_s;
    st->tokens_per_s_per_chip = st->tokens_per_s / (double)chips;
    return 1;
}

/* The build order (build_spans): the embedding is the first op, the final
 * norm the last of the TAIL span, the LM head the SEQS span's one op, the
 * plan's collectives after them. */
void rl_ops_stage_ends(const rl_ops *o, double *first, double *last)
{
    int j = o->n - 1;
    while (j > 0 && o->op[j].kind == RL_OP_COMM)
        j--;
    *first = o->n > 0 ? o->op[0].layers * o->op[0].t.time_s : 0.0;
    *last = j >= 2 ? o->op[j].layers * o->op[j].t.time_s +
                         o->op[j - 1].layers * o->op[j - 1].t.time_s
                   : 0.0;
}

void rl_ops_terms_ends(const rl_ops_terms *const spans[RL_OPS_SPANS], double *first,
                       double *last)
{
    const rl_ops_terms *head = spans[RL_OPS_HEAD], *tail = spans[RL_OPS_TAIL],
                       *seqs = spans[RL_OPS_SEQS];
    *first = head->n > 0 ? head->t[0] : 0.0;
    *last = tail->n > 0 ? tail->t[tail->n - 1] : 0.0;
    for (int i = 0; i < seqs->n; i++)
        *last += seqs->t[i];
}

/* GEMM table variant v said in roofline's --weights/--compute spelling,
 * `noun` after it, then its table key where that differs (review: the MoE
 * note read "mxfp4 weights x bf16 compute: ... bfloat16's"): "fp8 table",
 * "bf16 table (key bfloat16)", "int8 weights x bf16 compute GEMM table
 * (key int8_wo)". */
static void gemm_variant_words(int v, const char *noun, char *buf, size_t n)
{
    static const rl_dtype W[RL_KV_COUNT] = {RL_BF16, RL_FP8,  RL_INT8, RL_INT4, RL_INT8,
                                            RL_FP4,  RL_FP32, RL_FP8,  RL_MXFP4};
    static const rl_dtype C[RL_KV_COUNT] = {RL_BF16, RL_FP8,  RL_BF16, RL_BF16, RL_INT8,
                                            RL_FP4,  RL_FP32, RL_FP8,  RL_BF16};
    /* one entry per variant, in engines.h's order (review46: a variant
     * added there would read W/C 0, bf16, unsaid) */
    _Static_assert(RL_KV_MXFP4 == 8 && RL_KV_COUNT == 9, "W and C list every rl_kvariant");
    const char *key = rl_kvariant_name((rl_kvariant)v), *w = rl_dtype_name(W[v]);
    char pair[48];
    if (W[v] == C[v])
        snprintf(pair, sizeof pair, "%s", w);
    else
        snprintf(pair, sizeof pair, "%s weights x %s compute", w, rl_dtype_name(C[v]));
    snprintf(buf, n, "%s %s%s%s%s", pair, noun, strcmp(pair, key) ? " (key " : "",
             strcmp(pair, key) ? key : "", strcmp(pair, key) ? ")" : "");
}

void rl_ops_moe_record(const rl_model *m, const rl_hw *h, const rl_precision *p, int d[2])
{
    d[0] = d[1] = -1;
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    if (m->abstract || m->experts == 0 || !e || !e->tables)
        return;
    rl_ops_config c = rl_ops_config_default();
    c.prec = *p;
    c.decode_batch = 1;
    c.decode_context = 1;
    c.calibrated = 1;
    rl_ops *o = malloc(sizeof *o);
    char err[256];
    if (o && build(m, h, &c, 0, 0, o, err, sizeof err) == 0) {
        d[0] = o->moe_derived[0];
        d[1] = o->moe_derived[1];
    }
    free(o);
}

int rl_ops_moe_from_gemm(const rl_model *m, const rl_hw *h, const rl_precision *p)
{
    int d[2];
    rl_ops_moe_record(m, h, p, d);
    return d[0] == RL_MOE_FROM_GEMM || d[1] == RL_MOE_FROM_GEMM;
}

int rl_ops_moe_variant_note(const rl_model *m, const rl_hw *h, const rl_precision *p, char *buf,
                            size_t n)
{
    if (n)
        buf[0] = '\0';
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    int d[2];
    rl_ops_moe_record(m, h, p, d);
    if (d[0] < 0 && d[1] < 0)
        return 0; /* its own dtypes' MoE table, or the GEMM table's (rl_ops_moe_gemm_note) */
    char side[2][80], from[224];
    for (int b = 0; b < 2; b++)
        if (d[b] < 0)
            snprintf(side[b], sizeof side[b], "the dense GEMM table");
        else
            snprintf(side[b], sizeof side[b], "the %s%s", rl_kvariant_name((rl_kvariant)d[b]),
                     b == 0 || d[0] < 0 ? " MoE table" : "");
    if (d[0] == d[1])
        snprintf(from, sizeof from, "%s", side[0]);
    else
        snprintf(from, sizeof from, "%s when memory-bound, %s when compute-bound", side[0],
                 side[1]);
    return snprintf(buf, n, "%s's kernel tables on %s measure %s's expert shape (hidden %lld, "
             "inter %lld, top-%lld of %lld experts) but not at %s weights x %s compute: its routed "
             "experts are derived from %s at that same shape, its measured efficiency on the "
             "%s roofline (provenance derived; band: the spread of a dtype's tables derived from "
             "another's at the same shapes, wider than the MoE table's residuals: docs/model.md, "
             "Bands of unmeasured operators)",
             e->name, h->name, m->name, m->d_model, m->d_ff_expert, m->top_k, m->experts,
             rl_dtype_name(p->weights), rl_dtype_name(p->compute), from,
             rl_dtype_name(p->weights));
}

int rl_ops_moe_scaling_note(const rl_model *m, const rl_hw *h, const rl_precision *p, char *buf,
                            size_t n)
{
    if (n)
        buf[0] = '\0';
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    int block = m->fp8_scaling == RL_FP8_BLOCK;
    double x[RL_KSHAPE] = {0, 0, 0, 0, (double)m->d_model, (double)m->d_ff_expert,
                           (double)m->top_k, (double)m->experts};
    if (m->abstract || m->experts == 0 || !e || !e->tables ||
        !rl_kvariant_moe_substitute(e->tables, p->weights, p->compute, block, x))
        return 0;
    static const char *const how[2] = {"per-tensor scales", "128 x 128 block scales"};
    return snprintf(buf, n, "%s's kernel tables on %s measure %s's expert shape (hidden %lld, "
             "inter %lld, top-%lld of %lld experts) in fp8 with %s (%s rows) only, but its "
             "checkpoint has %s (the model's fp8_scaling = \"%s\"), which %s runs with other "
             "kernels (%s rows): its routed experts are timed from the %s rows as a substitute, "
             "not measured for this checkpoint (they differ up to 7x: H200 vLLM, Mixtral-8x22B, "
             "32 tokens, TP1: fp8 4.49 ms, fp8_block 0.62 ms; "
             "docs/model.md, MoE); set fp8_scaling in the model spec to the checkpoint's",
             e->name, h->name, m->name, m->d_model, m->d_ff_expert, m->top_k, m->experts,
             how[!block], block ? "fp8" : "fp8_block", how[block], block ? "block" : "tensor",
             e->name, block ? "fp8_block" : "fp8", block ? "fp8" : "fp8_block");
}

char *rl_ops_moe_note(rl_ops_moe_note_kind k, const rl_model *m, const rl_hw *h,
                      const rl_serving_engine *e, const rl_precision *p)
{
    char *s = NULL;
    size_t n = 0;
    for (;;) { /* the length, then the text */
        int len = k == RL_OPS_MOE_NOTE_GEMM      ? rl_ops_moe_gemm_note(m, h, e, p, s, n)
                  : k == RL_OPS_MOE_NOTE_VARIANT ? rl_ops_moe_variant_note(m, h, p, s, n)
                                                 : rl_ops_moe_scaling_note(m, h, p, s, n);
        if (s || len <= 0)
            return s;
        n = (size_t)len + 1;
        if (!(s = malloc(n)))
            return NULL;
    }
}

/* Say so when the selected engine's tables hold no MoE kernel of model m's
 * expert shape in any dtype: its routed experts are timed from the dense
 * GEMM table (ops.c rl_ops_moe_gemm_shapes; tester43 F10: they read the bare
 * roofline, 51% of a Mixtral tp8 step on h100-sxm trtllm, with no word and
 * a band of +-0.6%).  emit then says how much of the step no table times. */
int rl_ops_moe_gemm_note(const rl_model *m, const rl_hw *h, const rl_serving_engine *e,
                         const rl_precision *p, char *buf, size_t n)
{
    if (n)
        buf[0] = '\0';
    if (!rl_ops_moe_from_gemm(m, h, p))
        return 0;
    /* the variant the experts are timed from, as ops picks it (review41 F2):
     * the run's own, else the nearest tabled one, by whether the experts
     * are memory- (v) or compute-bound (vc) */
    int v = rl_ops_moe_gemm_variant(e, p, 0), vc = rl_ops_moe_gemm_variant(e, p, 1);
    const rl_moe_gemm_fix *f = v >= 0 && e->tables ? &e->tables->moe_gemm[v] : NULL;
    char bias[640], from[384] = "", own[128], wv[80], wvc[80];
    int vo = rl_kvariant_gemm(p->weights, p->compute);
    /* the run's own table, or, where no key maps its weights x compute
     * (mxfp4 or fp4 weights over bf16 compute: engines.h DTYPE_MAP), the
     * pair itself (tester53 F2: it printed "no ? GEMM table"); every dtype
     * in flag spelling (gemm_variant_words) */
    if (vo >= 0) {
        gemm_variant_words(vo, "GEMM table", own, sizeof own);
    } else {
        snprintf(own, sizeof own, "GEMM table key for %s weights x %s compute",
                 rl_dtype_name(p->weights), rl_dtype_name(p->compute));
    }
    if (v >= 0 && v != vo) {
        gemm_variant_words(v, "table", wv, sizeof wv);
        if (vc >= 0 && vc != v) {
            gemm_variant_words(vc, "table", wvc, sizeof wvc);
            snprintf(from, sizeof from, " (no %s: the %s when memory-bound, the %s when compute-bound)",
                     own, wv, wvc);
        } else {
            snprintf(from, sizeof from, " (no %s: the %s)", own, wv);
        }
    }
    if (f && f->n > 0) { /* the engine's measured bias (engines.h rl_moe_gemm_fix) */
        double lo = f->ln[0], hi = f->ln[0];
        for (int i = 1; i < f->n; i++) {
            lo = fmin(lo, f->ln[i]);
            hi = fmax(hi, f->ln[i]);
        }
        if (f->from[0]) /* borrowed (engines.h): says whose, and how that was checked */
            snprintf(bias, sizeof bias, "then x%.2f to x%.2f by rows per expert, borrowed: the "
                     "median of the corrections fitted on %s, none of this engine's own MoE rows "
                     "fitting one; band p10-p90 x%.2f to x%.2f of that, as each fitted profile's "
                     "rows read with its correction borrowed from the others", exp(lo), exp(hi),
                     f->from, exp(f->q[1]), exp(f->q[2]));
        else
            snprintf(bias, sizeof bias, "then x%.2f to x%.2f by rows per expert, the measured MoE "
                     "kernels' median over the GEMM-timed ones (%ld rows of %ld model shapes); "
                     "band p10-p90 x%.2f to x%.2f of that", exp(lo), exp(hi), f->rows, f->shapes,
                     exp(f->q[1]), exp(f->q[2]));
    } else {
        snprintf(bias, sizeof bias, "measured MoE kernels run a median 1.45x slower than that, "
                 "so its band reaches x5.7 above");
    }
    /* the MoE tables that measure the shape, in variants the run's dtypes
     * do not derive from (ops.c moe_derived: the nearest tabled variant;
     * deepseek-v3 bf16 on vLLM, whose fp8_block table measures its shape) */
    double x[RL_KSHAPE] = {0, 0, 0, 0, (double)m->d_model, (double)m->d_ff_expert,
                           (double)m->top_k, (double)m->experts};
    char only[160] = "";
    for (int k = 0; k < RL_KV_COUNT; k++)
        if (rl_engine_table(e->tables, RL_KC_MOE, k, x))
            snprintf(only + strlen(only), sizeof only - strlen(only), "%s%s", *only ? ", " : "",
                     rl_kvariant_name((rl_kvariant)k));
    char what[640];
    if (*only)
        snprintf(what, sizeof what, "measure %s's expert shape (hidden %lld, inter %lld, top-%lld "
                 "of %lld experts) only in their %s MoE table%s, not one that %s weights x %s "
                 "compute derive from", m->name, m->d_model, m->d_ff_expert, m->top_k, m->experts,
                 only, strchr(only, ',') ? "s" : "", rl_dtype_name(p->weights),
                 rl_dtype_name(p->compute));
    else
        snprintf(what, sizeof what, "measure no MoE kernel of %s's expert shape (hidden %lld, "
                 "inter %lld, top-%lld of %lld experts)", m->name, m->d_model, m->d_ff_expert,
                 m->top_k, m->experts);
    return snprintf(buf, n, "%s's kernel tables on %s %s: its routed experts are timed from "
                    "the dense GEMM table, at the efficiency of the one GEMM of their grouped "
                    "GEMMs' FLOPs and bytes%s (provenance derived; %s: docs/model.md, MoE)",
                    e->name, h->name, what, from, bias);
}
