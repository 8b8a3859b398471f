/* spec.h — model and hardware specs: load from sandboxed Lua, validate, override.
 *
 * Owns the spec formats (field names, types, defaults, cross-field rules), the
 * search for preset files, `--set` overrides and the conversion between Lua
 * tables and the C structs below.  Uses sandbox (Lua state), dtype, guard (files read),
 * cli (rl_cli_tell: the note of a ROOFLINE_DATA preset shadowing a shipped one).
 *
 * Field names follow the Scaling Book's symbols (seed 000, section 1
 * "What about memory?" table: L, D, F, N, K, H, V) and Hugging Face config
 * names.  Every size is a count (elements) or SI unit: bytes, bytes/s, FLOP/s,
 * seconds.  Unknown fields are errors: a typo must not silently change a result.
 *
 * A hardware spec may name a base: `base = "h100-sxm"` (a preset name, or a
 * .lua path relative to the file's own directory).  The base is loaded first
 * and each top-level field the spec gives replaces the base's field whole;
 * the rest comes from the base.  Engine profiles written by `calibrate
 * --tables` are such specs: `{ base = "h100-sxm", engines = { default =
 * "trtllm", trtllm = {...} } }`, so they hold only their engine and load
 * everywhere `--hw FILE.lua` is taken.  Bases chain (a base may name its own)
 * up to RL_SPEC_BASE_DEPTH deep; --set applies after the merge.  A spec that
 * sets anything but `base` and `engines` and no `name` is named after its
 * file's stem (spec.c name_what_if). */
#ifndef RL_SPEC_H
#define RL_SPEC_H

#include <stddef.h>
#include <stdio.h>

#include <lua.h>

#include "dtype.h"
#include "collectives.h"
#include "efficiency.h"
#include "engines.h"
#include "enginecost.h"

/* swiglu / geglu: gated, 3 matrices (gate, up, down); gelu: 2 (up, down). */
typedef enum { RL_MLP_SWIGLU, RL_MLP_GELU, RL_MLP_GEGLU } rl_mlp;

/* mha: K = N; gqa: K < N (K divides N); mla: DeepSeek-V2/V3 multi-head
 * latent attention (kv_lora_rank ... below).  Default: mha when K = N, else gqa. */
typedef enum { RL_ATTN_MHA, RL_ATTN_GQA, RL_ATTN_MLA } rl_attention;

/* The tensor classes the model's checkpoints quantize under --weights
 * narrower than 16 bits (dtype.h rl_dtype_kept: the rest stay bf16).
 * linear (default): every Linear layer of the transformer blocks
 * (attention, dense MLP, shared and routed experts), as llm-compressor's
 * recipes (targets="Linear", ignore=["lm_head"]) and NVIDIA's and Neural
 * Magic's FP8/NVFP4 checkpoints do.  experts: the routed experts only, as
 * gpt-oss ships: its MXFP4 checkpoint lists "model.layers.*.self_attn",
 * "model.layers.*.mlp.router", "model.embed_tokens" and "lm_head" in
 * modules_to_not_convert (config.json, tests/data/hf/gpt-oss-120b.json);
 * "it uses the standard bfloat16 for attention and other layers" (the vLLM
 * blog's GPT-OSS post, vllm-project.github.io).  The embedding, LM head,
 * norms and router are never quantized (dtype.h). */
typedef enum { RL_QUANT_LINEAR, RL_QUANT_EXPERTS } rl_quantized;

/* How the model's FP8 checkpoint scales its weights (`fp8_scaling`), which
 * decides the MoE kernel an engine runs for --weights fp8 --compute fp8
 * (engines.h DTYPE_MAP, rl_kvariant_moe).  tensor (default): one scale per
 * tensor, as NVIDIA's ModelOpt and Neural Magic's FP8 checkpoints (e.g.
 * nvidia/Llama-3.1-70B-Instruct-FP8) ship.  block: one scale per 128 x 128
 * weight block, as a config.json whose quantization_config has
 * weight_block_size says: DeepSeek-V3 ("natively supports FP8 weight
 * format with 128x128 block scaling", README_WEIGHTS.md of
 * github.com/deepseek-ai/DeepSeek-V3; "weight_block_size": [128, 128] in
 * tests/data/hf/deepseek-v3.json), Qwen3's FP8 checkpoints.  vLLM's
 * Fp8MoEMethod runs its block-quantized kernels exactly when the
 * checkpoint gives weight_block_size (`self.block_quant =
 * self.weight_block_size is not None`, vllm/model_executor/layers/
 * quantization/fp8.py); import-hf writes `block` then. */
typedef enum { RL_FP8_TENSOR, RL_FP8_BLOCK } rl_fp8_scaling;

/* The normalization of the residual stream (`norm`): rmsnorm (default)
 * scales each row by its root mean square and a gain, as Llama, Mistral,
 * Mixtral, Qwen2/3, Phi-3, Gemma 2/3, DeepSeek-V2/V3 and gpt-oss do (their
 * HF modeling files' LlamaRMSNorm, MistralRMSNorm, ..., DeepseekV3RMSNorm;
 * config key rms_norm_eps); layernorm subtracts the row's mean too and adds
 * a bias beside the gain (torch.nn.LayerNorm), as BLOOM does (transformers
 * modeling_bloom.py BloomBlock input_layernorm / post_attention_layernorm
 * are nn.LayerNorm; config key layer_norm_epsilon), and GPT-2, OPT and
 * Falcon.  What it changes: the engines' fused add + RMSNorm kernels do not
 * apply to a LayerNorm (ops.c norm_fusion), and each norm reads its bias
 * and makes one more pass over the row for the mean (ops.c residual_norm). */
typedef enum { RL_NORM_RMS, RL_NORM_LAYER } rl_norm;

typedef struct {
    char name[64];
    char source[512];
    char origin[512]; /* file it came from, for error messages */

    /* Abstract ("napkin") model: totals given directly (seed 000 section 1,
     * the 30B example).  When set, only name/params/params_active/
     * kv_bytes_per_token/max_context/source may be given. */
    int abstract;
    double params;             /* total parameter count */
    double params_active;      /* parameters used per token (default params) */
    double kv_bytes_per_token; /* bytes of K and V per token over all layers */

    long long layers;   /* L */
    long long d_model;  /* D */
    long long d_ff;     /* F: hidden width of a dense MLP */
    long long heads;    /* N: query heads */
    long long kv_heads; /* K: key/value heads (K = N is MHA, K < N is GQA) */
    long long head_dim; /* H: default d_model / heads */
    long long vocab;    /* V */
    int tied_embeddings;
    rl_mlp mlp;         /* swiglu: 3 matrices; gelu: 2 matrices */

    long long experts;        /* E: routed experts per MoE layer; 0 = dense */
    long long top_k;          /* k: experts each token uses */
    long long shared_experts; /* always-on experts per MoE layer */
    long long d_ff_expert;    /* hidden width of one expert (default d_ff) */
    long long dense_layers;   /* first layers that use the dense MLP */

    /* Attention kind and MLA's latent dims (DeepSeek-V2 arXiv:2405.04434
     * section 2.1; HF DeepseekV3Config names).  Only with attention = "mla":
     * kv_lora_rank (d_c, required) is the cached latent width; qk_rope_head_dim
     * (d_h^R, required) the decoupled RoPE key shared by all heads, cached too;
     * qk_nope_head_dim and v_head_dim (required) the per-head widths of the
     * non-RoPE query/key part and of the values; q_lora_rank (d_c', optional,
     * 0 = a direct D x N(nope+rope) query projection) the query latent.
     * The cache holds kv_lora_rank + qk_rope_head_dim elements per token per
     * layer.  head_dim defaults to qk_nope_head_dim + qk_rope_head_dim. */
    rl_attention attention;
    long long kv_lora_rank;
    long long q_lora_rank;
    long long qk_rope_head_dim;
    long long qk_nope_head_dim;
    long long v_head_dim;

    /* Sliding-window (local) attention: `sliding_window` tokens (W; 0 = none,
     * as given too: --set model.sliding_window=0 clears it).
     * sliding_window_pattern P (>= 2): in each run of P layers the first P-1
     * are local and the last is global (gpt-oss and Gemma 2: 2, alternating
     * starting with a local layer; Gemma 3: 6, i.e. 5 local : 1 global);
     * unset (0) with a window means every layer is local (Mistral v0.1).
     * first_sliding_layer N (0 < N < layers, not with a pattern; 0 = unset,
     * as given too, so --set can clear it: every windowed layer local):
     * layers 0..N-1 are global and N.. local -- Qwen2/Qwen3's max_window_layers
     * (transformers Qwen2Config.layer_types: "sliding_attention" iff
     * i >= max_window_layers).  arch.c (rl_arch_layer_is_local,
     * rl_arch_local_layers) owns which layers are local. */
    long long sliding_window;
    long long sliding_window_pattern;
    long long first_sliding_layer;

    /* Small tensors (counted in the parameters, arch.c; tester28 F1), from
     * the Hugging Face modeling files of each family.  norms_per_layer: RMSNorm
     * gains of D per layer (default 2, input_layernorm and
     * post_attention_layernorm; Gemma 2 and 3: 4, adding pre_feedforward_ and
     * post_feedforward_layernorm, modeling_gemma2.py Gemma2DecoderLayer).
     * qk_norm: an RMSNorm of head_dim on the queries and one on the keys per
     * layer (Qwen3Attention q_norm/k_norm, Gemma3Attention).  attention_bias:
     * the q, k, v and o projections carry biases of their output widths (HF
     * `attention_bias`, LlamaAttention / GptOssAttention).  mlp_bias: every MLP
     * and expert matrix carries a bias of its output width and the MoE router
     * one of E (HF `mlp_bias`; gpt-oss always: GptOssExperts gate_up_proj_bias
     * and down_proj_bias, GptOssTopKRouter bias).  attention_sinks: one
     * learned sink logit per query head per layer (GptOssAttention sinks).
     * Not with attention = "mla" (attention_bias). */
    long long norms_per_layer;
    int qk_norm;
    int attention_bias;
    /* qkv_bias: q, k and v carry biases of their output widths, o none
     * (Qwen2Attention, transformers modeling_qwen2.py; import-hf writes it
     * for model_type qwen2, tester55 F5); attention_bias counts them too */
    int qkv_bias;
    int mlp_bias;
    int attention_sinks;

    long long max_context; /* longest sequence the model supports (tokens) */
    rl_quantized quantized; /* `quantized`: "linear" | "experts" (above) */
    rl_fp8_scaling fp8_scaling; /* `fp8_scaling`: "tensor" | "block" (above) */
    rl_norm norm;           /* `norm`: "rmsnorm" | "layernorm" (above) */
} rl_model;

typedef enum {
    RL_TOPO_RING,
    RL_TOPO_TORUS2D,
    RL_TOPO_TORUS3D,
    RL_TOPO_SWITCH,
} rl_topology;

/* The figures that time a chip's kernels on the roofline: HBM bytes/s and
 * dense peak FLOP/s per compute dtype (0 = absent); and those of its link
 * inside a domain that time its collectives (comm.h): ICI/NVLink bytes/s
 * per link, per-hop latency, links per chip and the domain's topology. */
typedef struct {
    double hbm_bw, flops[RL_DTYPE_COUNT];
    double ici_bw, ici_latency;
    long long ici_links; /* 0: absent (the chip's own) */
    int topology;        /* an rl_topology; read with ici_links */
    long long sm;        /* the compute capability its kernel tables' engine ran at (rl_hw.sm,
                          * 0 unset): it picks TensorRT-LLM's AllReduce strategy table
                          * (engines.c ENGINE_FUSION), so another sm is a what-if (tester64 #3) */
} rl_hw_figures;

/* Bytes in a GiB: vendors' "80GB" of HBM is 80 GiB (docs/model.md,
 * HBM capacity), the unit reports name a chip's memory in. */
#define RL_GIB 1073741824.0

typedef struct {
    char name[64];
    char source[512];
    char origin[512];

    double flops[RL_DTYPE_COUNT]; /* dense peak FLOP/s per compute dtype; 0 = absent */
    double hbm_bytes;             /* HBM capacity per chip, bytes */
    double hbm_bw;                /* HBM bandwidth per chip, bytes/s */

    /* Chip-to-chip interconnect (TPU ICI or NVLink). */
    rl_topology topology;
    double ici_bw;       /* one-way bandwidth of one link, bytes/s */
    long long ici_links; /* links per chip */
    double ici_latency;  /* per-hop latency, seconds */
    long long domain_chips; /* chips one ICI/NVLink domain holds (pod or node) */
    int nvls;            /* the NVLink switch reduces in the switch (NVLink SHARP,
                          * NVLink4 and later: comm.h); 0 none or not a switch */
    /* `sm`: an NVIDIA GPU's compute capability x 10 (80 A100, 90 H100 and
     * H200, 100 B200 and GB200: NVIDIA's CUDA GPUs list,
     * developer.nvidia.com/cuda-gpus); 0 unset (not a GPU, or not said).
     * Read where an engine's behaviour is chosen per architecture:
     * TensorRT-LLM's AllReduce strategy table, SM100 from 100 on, SM90
     * below and when unset (engines.c ENGINE_FUSION). */
    long long sm;
    /* Scale-out network between domains (InfiniBand/RoCE/DCN). */
    double net_bw;       /* one-way bytes/s per chip */
    double net_latency;  /* seconds */
    /* Host link (PCIe) and host memory. */
    double host_bw;      /* one-way bytes/s per chip */
    double host_bytes;   /* host memory per chip, bytes */

    double price_per_chip_hour; /* USD, on-demand; 0 = unknown */
    char price_source[256];

    /* Measured efficiency tables (efficiency.h); present = 0 when absent:
     * then every estimate is the ideal roofline. */
    rl_efficiency efficiency;
    /* Serving engines with measured kernel tables (engines.h); n = 0 when
     * absent.  engines.sel is the one calibrated mode uses. */
    rl_engines engines;
    /* The fitted engine costs in effect (enginecost.h, written by
     * `roofline fit`): the selected engine's (rl_hw_sync_costs); present = 0
     * when it has none.  Read from a spec, the top-level `engine_costs`
     * alias, which becomes the engine it names (rl_hw_put_costs). */
    rl_engine_costs engine_costs;
    /* Measured collective times (collectives.h); present = 0 when absent:
     * then collectives follow comm.h's alpha-beta model. */
    rl_collectives collectives;
    /* 1 after rl_hw_set_ideal (--ideal, --engine ideal): the pure roofline
     * asked for; not a spec field. */
    int ideal;
    /* The timing figures (hbm_bw, flops, ici_bw, ici_latency, ici_links,
     * topology) of the chip its measurements were taken at: the profile's
     * own as read, before a --set, a derived spec's fields over its `base`
     * or a Lua override changed them (spec fields measured_hbm_bw,
     * measured_flops, measured_ici_bw, measured_ici_latency,
     * measured_ici_links, measured_topology, measured_sm: set on the table before
     * any change, so a table Lua passes on, edited field by field or not,
     * keeps them).  When h's figures differ, h is a what-if of the chip
     * as measured (rl_hw_what_if_of): its kernel tables and efficiency
     * tables stay, each measured time's roofline part moved to the changed
     * chip and its excess kept (engines.h rl_engine_time_on), its measured collectives stay, each
     * moved by the link what-if rule (comm.h), and the mode is
     * `estimated`. */
    rl_hw_figures measured;
    /* The profile's own `measured` as read (own_set 1 once kept), before
     * settle_what_if overlays the selected engine's measured_at on a copy:
     * switching to an engine whose tables record none restores it
     * (review28 M5).  Not a spec field. */
    rl_hw_figures own_measured;
    int own_set;
    /* 1: the run uses no link (one chip; rl_hw_link_unused), so a changed
     * link figure is no what-if.  Not a spec field. */
    int link_unused;
    /* "FIELD=VALUE (as measured WAS)" of every timing figure that differs
     * from the chip as measured (hbm_bw, then flops.* in dtype order: a
     * what-if note named only the first, tester23 F5; each value with the
     * digits that tell it from the other, at least 6, tester23 F6), then each of
     * ici_bw, ici_latency, ici_links and topology that differs when the
     * spec has measured
     * collectives ("; " between), else "": set from
     * the figures on every conversion (rl_hw_from_table), the one place
     * that decides.  A spec field only so that older tables still read. */
    char changed[1024];
    /* The chip's name in its profile when `name` was overridden (--set
     * hw.name, Lua roofline.hw(name, {name = ...})), else "": tables whose
     * measured_on names it are still this chip's own (rl_hw_mode).  A spec
     * field, so a renamed chip that Lua passes on stays calibrated. */
    char renamed_from[64];
    /* 1 in a profile `calibrate --quick` wrote (spec field smoke_test,
     * inherited through `base`): a smoke test whose figures are not an
     * accuracy figure; every command that uses one says so (tester9 #7b). */
    int smoke_test;
    /* The fraction of HBM kept free of weights and KV where no engine
     * memory rule applies (memory.h rl_memory_usable): step's
     * --hbm-reserve, 0 (seed 000's whole HBM) unless set; not a spec field.
     * The simulator applies its own reserve (serve.h) and leaves this 0. */
    double hbm_reserve;
} rl_hw;

/* The note every consumer of a smoke-test profile (rl_hw.smoke_test)
 * prints, with the profile's name for %s. */
#define RL_HW_SMOKE_NOTE                                                                           \
    "%s is a `calibrate --quick` profile, a smoke test: its GEMM times stop at M = 4 rows, so "    \
    "prefill is extrapolated, and its figures are not an accuracy figure; calibrate without "     \
    "--quick for a profile to size or validate with"

/* Whether h carries measurements calibrated mode uses: efficiency tables,
 * or a selected engine with kernel tables. */
int rl_hw_measured(const rl_hw *h);
/* Whether h plans as a measured chip: measured (rl_hw_measured, a what-if
 * of one included: it keeps its tables), not --ideal.  Its chips without a
 * plan run tensor parallel with their collectives, so a what-if changes the
 * figures, not the plan (tester7 #4:
 * --set hw.hbm_bw on h100-sxm --chips 8 fell back to formula (1)'s
 * collective-free fully sharded chips, 17.57 -> 5.84 ms at its own value). */
int rl_hw_plans_measured(const rl_hw *h);

/* Drop them (--ideal, --engine ideal): the pure roofline. */
void rl_hw_set_ideal(rl_hw *h);

/* h->engine_costs = the selected engine's fitted costs (none without),
 * and h's AllReduce follows that engine's own rows (rl_coll_follow_engine). */
void rl_hw_sync_costs(rl_hw *h);

/* The engine name --engine / Lua `engine` stands for: "ideal" for "none"
 * (tester62 #9: a result timed by no engine prints "engine": "none", the
 * ideal runs and the datasheet-only profiles', whose times are the same
 * roofline; the value a result prints is taken back), else name (NULL
 * stays NULL).  Applied where the option is read (cli.c one_ideal,
 * e2e_setup; lua_api.c select_engine), so "none" is "ideal" everywhere. */
const char *rl_engine_alias(const char *name);

/* Select engine `name` (engines.h; "ideal": rl_hw_set_ideal) and its fitted
 * costs.  0, or -1 with err. */
int rl_hw_select_engine(rl_hw *h, const char *name, char *err, size_t errlen);

/* pareto's and sweep's --ideal (Lua ideal = true) is formula (1) at the
 * datasheet peaks, which no engine times: beside an engine other than
 * "ideal" it is refused, as --ideal is beside one elsewhere; nothing is
 * selected.  `ideal_opt`/`engine_opt` spell the options in err.  0, or -1
 * with err. */
int rl_engine_with_formula1(int ideal, const char *engine, const char *ideal_opt,
                            const char *engine_opt, char *err, size_t errlen);

/* --ideal is --engine ideal, on the command line and in Lua alike: with
 * ideal set, *engine becomes "ideal" (the pure roofline: no tables, no
 * engine memory rule); ideal beside another engine contradicts it.  `ideal`
 * and `engine` spell the two options in err ("--ideal", "--engine" or Lua's
 * field names).  0, or -1 with err. */
int rl_engine_with_ideal(int ideal, const char **engine, const char *ideal_opt,
                         const char *engine_opt, char *err, size_t errlen);

/* Make c the fitted costs of engine c->engine (added when h has none of that
 * name; its launch_s becomes c's), the default and selected one.  0, or -1
 * with err when h's engines are full. */
int rl_hw_put_costs(rl_hw *h, const rl_engine_costs *c, char *err, size_t errlen);

/* The mode of estimates on h: "ideal" when !calibrated or after
 * rl_hw_set_ideal (the pure roofline asked for); "estimated" on a what-if
 * (rl_hw_what_if_of: h's figures differ from those its measurements were
 * taken at, the selected engine's measured_at among them, whatever h's
 * name; h100-pcie over h100-sxm's tables); else "calibrated" when the
 * selected engine's tables record the figures they were measured at
 * (engines.h at_bw; tables imported --device-unchecked aside: "estimated"),
 * or, for tables recording none (written before 0.27) and for efficiency
 * tables, when measured_on names this chip (h's name or renamed_from; not
 * given, for efficiency); "estimated" when they were borrowed from another
 * chip, or when h has no measurement at all (the TPU presets): its
 * datasheet figures at full efficiency, an assumption each result and the
 * sizing report state (issue 12 item 5). */
const char *rl_hw_mode(const rl_hw *h, int calibrated);

/* The chip whose measurements h's selected engine's kernel tables are: its
 * measured_on (engines.h), when that engine has tables and they name one;
 * else `otherwise`.  What a note names as "the chip the tables were
 * measured on" (cli.c note_changed, e2e.c rl_e2e_what_if_band, result.c
 * e2e_gap_words): h100-pcie, a spec over h100-sxm's tables, names
 * h100-sxm, and a renamed copy of h100-sxm keeps it. */
const char *rl_hw_tables_chip(const rl_hw *h, const char *otherwise);

/* The mode of a run that follows h's default costs (list, info, simulate,
 * size): "fitted" when calibrated and h's selected engine carries fitted
 * engine costs (enginecost.h) and h is no what-if (rl_hw_what_if_of: then
 * they time figures they were not fitted on), else rl_hw_mode.  A step result says
 * "fitted" only once its rows are re-timed by them (e2e.h rl_e2e_retime). */
const char *rl_hw_default_mode(const rl_hw *h, int calibrated);

/* The spec's name of topology t ("ring", "torus2d", "torus3d", "switch"). */
const char *rl_topology_name(rl_topology t);

/* The mode of a run of model `model` with `weights` weights, `kv` KV cache
 * and `compute` math, TP over `tp` GPUs (0: not checked), on h:
 * rl_hw_default_mode, except that "fitted" costs applied outside what the
 * profile records they were fitted on (enginecost.h rl_ec_differs: another
 * model, weight, KV or compute dtype, TP outside the fitted range, or a
 * pipeline, pp > 1, which no fit saw: tester55 F1) read
 * "estimated" (tester16 F11; the dtypes all three, as rl_ec_no_band checks
 * them: review28 M3); *why (when given) gets what differs, "" else.  Every
 * command labels fitted runs by it. */
const char *rl_hw_fit_mode(const rl_hw *h, int calibrated, const char *model, rl_dtype weights,
                           rl_dtype kv, rl_dtype compute, long long tp, long long pp, char *why,
                           size_t n);

/* A plan's dtypes for rl_run_mode, rl_hw_engine_unrun and
 * rl_hw_engine_caution: an rl_precision's (step.h) weights, KV and
 * compute, in that order. */
#define RL_PLAN_DTYPES(p) ((const rl_dtype[3]){(p).weights, (p).kv, (p).compute})

/* Whether h's selected engine does not run a plan of dtypes `plan`
 * (RL_PLAN_DTYPES; NULL: none known, 0) on h's chip: its KV cache's dtype
 * or its weights or compute (either caution of rl_hw_engine_caution
 * applies).  0 under --ideal or without a selected engine.  The one rule
 * behind the results' two notes (result.h rl_result_engine_dtype_note) and
 * their mode (rl_run_mode). */
int rl_hw_engine_unrun(const rl_hw *h, const rl_dtype *plan);

/* The caution behind rl_hw_engine_unrun, one of two, into s[len] (len >
 * 0): which 0, the engine stores no KV cache in the plan's KV dtype
 * (engines.h rl_engine_kv_caution: kv_engine_note); 1, it runs no such
 * weights or compute on the chip (rl_engine_precision_caution:
 * precision_engine_note).  1 when it applies, else 0 (s ""). */
int rl_hw_engine_caution(const rl_hw *h, const rl_dtype *plan, int which, char *s, size_t len);

/* The reason rl_run_mode's engine-dtype rule gives, for a result's mode_note. */
#define RL_ENGINE_UNRUN_NOTE                                                                       \
    "the selected engine does not run this plan's dtypes on this chip (kv_engine_note or "         \
    "precision_engine_note says which and why): its kernel tables were measured on this chip, "  \
    "but not for what this run does, so its times are a what-if beyond what the engine ran and "  \
    "it reads estimated, whatever share of its time they carry"

/* The smallest share of a step's time that operators timed by kernel
 * tables must carry for the run to read "calibrated" (rl_run_mode): half,
 * so that measured kernels, not derived or roofline times, decide the step
 * (tester3 finding 6; docs/model.md, the provenance list). */
#define RL_TABLE_SHARE_MIN 0.5

/* The mode of one run on h: `base` (rl_hw_mode or rl_hw_default_mode of h,
 * as the run's results report) unless base reads "calibrated", h's selected
 * engine has kernel tables and `share` (the fraction of the step's time,
 * collectives and engine costs included, carried by operators timed by a
 * table at the run's own dtypes with provenance measured or interpolated:
 * rl_ops.table_s / step_s; the smallest over a result's rows) is below
 * RL_TABLE_SHARE_MIN: then "estimated" (int8 or fp4 weights on an engine
 * measured in bf16 and fp8, or MoE experts and MLA attention no table
 * times: derived or roofline times dominate).  share < 0 (unknown: an
 * abstract model, no operator list) keeps base. */
const char *rl_run_mode(const char *base, const rl_hw *h, double share, const rl_dtype *plan);
/* And "estimated", whatever the share, when base reads "calibrated" and
 * h's selected engine does not run the plan's dtypes on this chip: `plan`
 * (RL_PLAN_DTYPES: weights, KV, compute; NULL: not known, an abstract
 * model, which no engine note covers either) draws a kv_engine_note or a
 * precision_engine_note (rl_hw_engine_unrun).  The tables were measured on
 * this chip, but not for what the run does: TensorRT-LLM stores no int4 KV
 * cache anywhere and no fp4 KV cache off SM10x, so `step --kv int4` on
 * h100-sxm under trtllm is a what-if no deployment of that engine runs,
 * whatever share of its time the tables carry (issue 12 item 5: calibrated
 * only when the tables were measured on that chip for what the run does;
 * fixTC: it read calibrated at table_time_share 0.73). */
/* Also "estimated", whatever the share, when base reads "calibrated" and
 * h's selected engine has fitted costs but no kernel tables
 * (rl_hw_fitted_untabled): a run those costs do not time (EP, a KV split
 * other than by batch, ...) is then timed by the chip's efficiency curves,
 * measured with no engine's kernels, while the engine that ran the fitted
 * rows is not known to be one whose tables the profile carries (fit's
 * --save keeps the base chip's engines but not which one the rows came
 * from): tester39 F3, such plans read `calibrated` with table_time_share 0
 * and ~30% below the base chip's trtllm tables. */
int rl_hw_fitted_untabled(const rl_hw *h);

/* What rl_run_mode's fitted-untabled rule says, for a result's mode_note. */
#define RL_FITTED_UNTABLED_NOTE                                                                    \
    "the selected engine's fitted costs do not time this run and it has no kernel tables: the "   \
    "chip's efficiency curves (measured with no engine's kernels) time its operators, so it "     \
    "reads estimated; --engine NAME times it by that engine's kernel tables"


/* One `--set kind.field=value` override; `field` may be dotted ("flops.bf16"). */
typedef struct {
    const char *field;
    const char *value;
} rl_override;

/* Whether h is a what-if of the chip its measurements were taken at: a
 * timing figure differs from rl_hw.measured (rl_hw.changed names it).  A
 * figure set to the chip's own value changes nothing (tester7 #4:
 * --set hw.hbm_bw=3.35e12 on h100-sxm dropped its tables). */
int rl_hw_what_if_of(const rl_hw *h);

/* For a run that uses no link (one chip, no collective: fixJK #4, tester:
 * --set hw.ici_bw=450 on a one-chip step turned it estimated and dropped
 * its band): the link figures (ici_bw, ici_latency, ici_links, topology)
 * leave h no what-if; the others still do.  Returns 1 when that changed
 * whether h is a what-if or what rl_hw.changed names, else 0. */
int rl_hw_link_unused(rl_hw *h);

/* The figures h's measurements were taken at (rl_hw.measured): HBM bytes/s,
 * and the peak FLOP/s per compute dtype (RL_DTYPE_COUNT, 0 = none). */
double rl_hw_measured_bw(const rl_hw *h);
/* Whether h's sm differs from the one its measurements were taken at
 * (rl_hw_figures.sm; 0 on a struct not read from a spec): a what-if that
 * moves TensorRT-LLM's AllReduce choice (comm.c, tester64 #3). */
int rl_hw_sm_moved(const rl_hw *h);
/* When rl_hw_sm_moved: 1 with why the times moved or not in buf, for the
 * what-if note and engine_source (fixIE): the sm picks TensorRT-LLM's
 * AllReduce strategy table (SM90's below 100 and unset, SM100's from 100
 * on: engines.c ENGINE_FUSION), so a change across 100 switches which
 * AllReduce + RMSNorm pairs fuse; within one table, or on an engine that
 * fuses no norm into its AllReduce (vllm), no time moves and only the mode
 * says estimated.  Else 0, buf "". */
int rl_hw_sm_note(const rl_hw *h, char *buf, size_t n);
const double *rl_hw_measured_flops(const rl_hw *h);

/* h, read as `old_name`, now bears another name: record it in
 * h->renamed_from (kept when already set: the first name measured). */
void rl_hw_renamed(rl_hw *h, const char *old_name);

#define RL_SPEC_BASE_DEPTH 8

/* Whether a spec name is a file path (it contains '/' or ends in ".lua")
 * rather than a preset name. */
int rl_spec_is_path(const char *name);

/* Find the file for a preset name or path.  `kind` is "model" or
 * "hw_profiles".  A name containing '/' or ending in ".lua" is a path.
 * Presets are searched in $ROOFLINE_DATA/<kind>, <exe>/../<kind> and the
 * compile-time data directory.  Returns 0, or -1 with err set. */
int rl_spec_resolve(const char *kind, const char *name, char *path, size_t pathlen, char *err,
                    size_t errlen);

/* Whether the spec `name` of `kind` (a preset name or a path, as
 * rl_spec_resolve takes it; kind NULL: name is a plain path) is the
 * existing file `path`. */
int rl_spec_same_file(const char *kind, const char *name, const char *path);
/* Whether files a and b hold the same bytes (both readable). */
int rl_files_same_text(const char *a, const char *b);

/* Whether the hardware spec `name` (preset or path) is the existing file
 * `path` or inherits it through its chain of `base`s (review21: --save onto
 * a user's base file rewrote an input of the run). */
int rl_spec_hw_reads_file(const char *name, const char *path);

/* The preset names of `kind` ("model" or "hw_profiles"), sorted, into
 * names[cap]: those of every search directory, each once, so exactly the
 * names rl_spec_resolve finds (each from the first directory holding it);
 * returns how many. */
#define RL_MAX_PRESETS 128
int rl_spec_presets(const char *kind, char (*names)[64], int cap);

/* A set (non-empty) $ROOFLINE_DATA that is no readable directory: -1 with
 * err naming the variable, its value and why (tester57 F4: it was skipped
 * silently, so presets came from beside the binary and a user's own specs
 * there were "unknown").  Every command refuses it (cli.c, exit 2): a set
 * variable says which data a run uses.  0 when unset, empty or usable. */
int rl_data_env_check(char *err, size_t errlen);

/* The directories that may hold data (<dir>/model/<name>.lua, PRESETS,
 * ...), in search order: $ROOFLINE_DATA, <exe>/.., <exe>/../share/roofline.
 * Returns how many (up to 3). */
int rl_data_dirs(char dirs[3][1024]);

/* Find a data file (a plot template, ...) as <dir>/<kind>/<file> in the same
 * directories as presets.  Returns 0 with path set, or -1 if none is readable. */
int rl_data_find(const char *kind, const char *file, char *path, size_t pathlen);

/* The paths rl_data_find tries for <kind>/<file>, comma-separated, into out
 * (for an error message that names what was looked for). */
void rl_data_tried(const char *kind, const char *file, char *out, size_t outlen);

/* Load, override and validate.  `ov` may be NULL when nov == 0.  Returns 0,
 * or -1 with "FILE: field 'F': reason" in err. */
int rl_model_load(const char *name_or_path, const rl_override *ov, int nov, rl_model *out, char *err,
                  size_t errlen);
int rl_hw_load(const char *name_or_path, const rl_override *ov, int nov, rl_hw *out, char *err,
               size_t errlen);

/* Validate the table at stack index `idx` of L into *out.  `origin` names it
 * in errors.  The table is not modified.  A model's `ov[nov]` (NULL, 0:
 * none) are the --set overrides applied to the table already: a shape
 * whose parameter count is refused names the fields they changed. */
int rl_model_from_table(lua_State *L, int idx, const char *origin, const rl_override *ov, int nov,
                        rl_model *out, char *err, size_t errlen);
int rl_hw_from_table(lua_State *L, int idx, const char *origin, rl_hw *out, char *err, size_t errlen);

/* Push a validated spec as a Lua table (the inverse of *_from_table). */
void rl_model_push(lua_State *L, const rl_model *m);
void rl_hw_push(lua_State *L, const rl_hw *h);

/* Write Lua source that reads back as the value on top of L: a string
 * literal (quotes, backslashes and control bytes escaped), a boolean, a
 * number (%.15g), a list (1..n) on one line, or a table of its string keys
 * sorted (name and source first), one per line, indented `indent` spaces
 * deeper each level; anything else (a light userdata standing for loaded
 * tables, engines.h) as nil.  rl_spec_put_fields writes only a table's
 * "key = value," lines; rl_spec_put_key a table key: the name when it is a
 * Lua name and no reserved word, else ["..."].  For the profiles calibrate
 * --tables and fit save. */
void rl_spec_put_string(FILE *f, const char *s);
void rl_spec_put_key(FILE *f, const char *k);
void rl_spec_put_value(FILE *f, lua_State *L, int indent);
void rl_spec_put_fields(FILE *f, lua_State *L, int indent);

/* The first measured_* field (measured_hbm_bw, ...) the spec table at idx
 * states itself, or NULL (raw traversal: no metamethod of a hostile spec
 * runs).  Only the profile that carries the measurements states them: a
 * derived spec, --set or roofline.hw's overrides may not (tester11 #2). */
const char *rl_spec_measured_field(lua_State *L, int idx);

/* Read the table of FLOP/s by dtype on top of the stack (field `field`:
 * flops, measured_flops, an engine's measured_at.flops) into
 * flops[RL_DTYPE_COUNT].  0, or -1 with err. */
int rl_spec_read_flops(lua_State *L, const char *origin, const char *field, double *flops,
                       char *err, size_t errlen);

/* Whether `name` (with or without "hw.", "measured_flops.bf16" as its
 * field) is one of those measured_* fields. */
int rl_spec_is_measured_field(const char *name);

/* Apply one override to the table at `idx`: the value is parsed as a boolean
 * ("true"/"false"), a number, or else kept as a string.  Returns 0 or -1. */
int rl_spec_apply_override(lua_State *L, int idx, const char *origin, const rl_override *ov, char *err,
                           size_t errlen);

/* An override of hw field `field` to number v that a spec cannot state:
 * host_bytes 0, which a spec reads as not given (MIN1 fields, saved
 * profiles' "host_bytes = 0"), so `--set hw.host_bytes=0` or
 * roofline.hw(h, {host_bytes = 0}) cannot mean "no host memory" and is
 * refused, not read as unset (tester47 F15: a host prefix tier then ran
 * unchecked).  0, or -1 with the reason in err. */
int rl_hw_override_check(const char *field, double v, char *err, size_t errlen);

/* The shipped presets' range of hw figure `field` (flops.* under one
 * range for every dtype, hbm_bw, hbm_bytes, ici_bw, ici_latency, net_bw,
 * net_latency, host_bw, and the counts ici_links and domain_chips),
 * lowest and highest over the hw_profiles presets: 1 and *lo, *hi, unit set;
 * 0 for a field outside the table. */
int rl_hw_preset_range(const char *field, double *lo, double *hi, const char **unit);

/* A plausibility note for `--set hw.FIELD=v`: when v is a figure of the
 * range table above and lies over RL_HW_PLAUSIBLE_FACTOR beyond its
 * range (1 FLOP/s: an exponent dropped), writes the note to buf (without
 * the "note: " prefix) and returns 1; else 0.  Only a note: a what-if of
 * another chip may lie outside the presets. */
#define RL_HW_PLAUSIBLE_FACTOR 100.0
int rl_hw_override_plausible_note(const char *field, double v, char *buf, size_t n);

/* The one range check of a loaded hardware spec, however it arrived (a
 * preset or file, --set, a Lua table or roofline.hw's overrides; fixUF #2:
 * a Lua table's flops = {bf16 = 1} and --set hw.ici_latency=1e6 ran
 * without a word): each figure of h with a preset range (every flops.*,
 * hbm_bw, hbm_bytes, ici_bw, ici_latency, net_bw, net_latency, host_bw,
 * ici_links, domain_chips: fixVC #2, the counts were not checked)
 * checked by rl_hw_override_plausible_note, each note passed to say(note,
 * ctx) in that order.  A figure a --set of ov[nov] gave (the command
 * line's hw overrides; NULL, 0 where none) is named "hw.FIELD=", any
 * other by its spec's origin and field, "FILE: field 'FIELD' = " (a spec
 * or calibrated profile file, a preset, a Lua table; fixVC #3).  A figure a profile's measurements were taken at
 * (hbm_bw and flops.* equal to h->measured's on a measured chip: a CPU's
 * calibrated profile reads 2e10 FLOP/s) is a measurement, not a typo, and
 * is not noted.  Returns the count of notes. */
int rl_hw_plausible_notes(const rl_hw *h, const rl_override *ov, int nov,
                          void (*say)(const char *note, void *ctx), void *ctx);

/* The hardware spec field a result key names, taken as an alias of it by
 * both front ends' overrides (--set hw.KEY=V, roofline.hw's override
 * table): "hbm_bw" for hbm_bytes_per_s and hbm_bw_bytes_per_s (result.c
 * add_hbm_bw); NULL for any other key. */
const char *rl_hw_field_alias(const char *key);

/* Parse "model.F=V" / "hw.F=V" into kind (0 model, 1 hw) and override
 * (pointers into `arg`, which is modified).  Returns 0 or -1. */
int rl_override_parse(char *arg, int *kind, rl_override *out, char *err, size_t errlen);

/* The override echo (a result's model_overrides / hw_overrides, from --set
 * or from roofline.model / roofline.hw overrides): "FIELD=VALUE, ..." with
 * each field once (its last value), sorted, nested fields dotted, and each
 * value in one spelling (tester47 F5: a value with a quote, a comma or a
 * control character was written raw, so "name=a, b=1" read as two fields;
 * Lua's 3e12 read "3e+12"; a re-override was listed twice):
 *   - true / false bare; a number as rl_number_compact writes it ("3e12");
 *   - a string bare when it is plain: not empty, not "true"/"false", not
 *     read as a number, no blank at either end, none of " \ , ; = { }
 *     and no control character; else in double quotes, with \" \\ \n
 *     \r \t and \xHH (other control bytes) escaped, C and Lua style
 *     (name="a\"b, c");
 *   - a table that is a list "{...}".
 * rl_override_quote writes string s so into buf[n] (cut to fit) and
 * returns buf. */
const char *rl_override_quote(const char *s, char *buf, size_t n);

/* "FIELD=VALUE" of one --set override in the echo's spelling, its value
 * read as rl_spec_apply_override reads it (true/false, a number, else a
 * string), into buf[n]; returns buf. */
const char *rl_override_echo(const rl_override *ov, char *buf, size_t n);

#endif
