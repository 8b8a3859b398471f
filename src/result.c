/* result.c — JSON documents for info, step, ops, prefill, shard, sweep,
 * simulate and size results: every key the tool prints is written here. */
#include "result.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "e2e.h"
#include "memory.h"
#include "ops.h"
#include "number.h"
#include "shard.h"

/* max_context, null when the spec gives none (no length is checked:
 * tester33 F4, info left the key out, list printed 0). */
static void add_max_context(cJSON *o, const rl_model *m)
{
    if (m->max_context > 0)
        cJSON_AddNumberToObject(o, "max_context", (double)m->max_context);
    else
        cJSON_AddNullToObject(o, "max_context");
}

static void add_precision(cJSON *o, rl_precision p, int abstract)
{
    cJSON_AddStringToObject(o, "weights", rl_dtype_name(p.weights));
    cJSON_AddStringToObject(o, "kv", abstract ? "as given" : rl_dtype_name(p.kv));
    cJSON_AddStringToObject(o, "compute", rl_dtype_name(p.compute));
}

/* The engine a run in `mode` on h uses: the selected one's, NULL in ideal
 * mode or without one ("engine": "none"). */
static const rl_serving_engine *run_engine(const rl_hw *h, const char *mode)
{
    return strcmp(mode, "ideal") != 0 ? rl_engines_selected(&h->engines) : NULL;
}

static void add_engine_name(cJSON *o, const rl_hw *h, const char *mode)
{
    cJSON_AddStringToObject(o, "engine", rl_result_engine_name(h, mode));
}

/* engine, engine_version, engine_source: the selected engine, unless mode
 * is ideal ("none").  On a what-if chip (spec.h rl_hw_what_if_of) the
 * source says that its tables' times are scaled, not used as measured
 * (tester9 #8: `engine trtllm` read as if the tables timed the changed
 * chip; tester6: the source must say what is used). */
static void add_engine(cJSON *o, const char *mode, const rl_hw *h, long long chips)
{
    add_engine_name(o, h, mode);
    const rl_serving_engine *e = run_engine(h, mode);
    if (!e)
        return;
    cJSON_AddStringToObject(o, "engine_version", e->version);
    char used[3072];
    if (strcmp(mode, "mfu") == 0) {
        /* tester10 #9: read as if its tables timed the run; tester71: an
         * engine of fitted costs (h100-sxm-splitwise) was said to have
         * tables, and one chip to keep collectives it has none of */
        const char *what = e->tables ? "kernel tables" : e->fitted.present ? "fitted per-step costs"
                                                                          : "measurements";
        snprintf(used, sizeof used, "its %s are not used: --mfu times compute at the given "
                 "fraction of peak, memory at the ideal bandwidth; kept: %s; the %s: %s", what,
                 chips <= 1 ? "nothing of the engine's (one chip: no collectives)"
                 : e->tables ? "the plan and its collectives (the engine's own AllReduce where "
                               "it measured the group, else NCCL's)"
                             : "the plan and its collectives",
                 e->tables ? "tables" : e->fitted.present ? "costs" : "measurements", e->source);
        cJSON_AddStringToObject(o, "engine_source", used);
        return;
    }
    if (!rl_hw_what_if_of(h)) {
        cJSON_AddStringToObject(o, "engine_source", e->source);
        return;
    }
    char sm[1024]; /* why an sm change moves times or not (spec.h rl_hw_sm_note) */
    int smn = rl_hw_sm_note(h, sm, sizeof sm);
    snprintf(used, sizeof used, "scaled what-if: %s changes the chip%s%s%s; %s: "
             RL_ENGINE_WHAT_IF_RULE "%s; measured: %s", h->changed, smn ? " (" : "", sm,
             smn ? ")" : "", e->tables ? "the engine's tables" : "its measurements",
             h->collectives.present ? ", " RL_COMM_WHAT_IF_RULE : "",
             e->source);
    cJSON_AddStringToObject(o, "engine_source", used);
}

/* The fields every run result opens with; mode "ideal" or "mfu". */
static void add_run_header(cJSON *o, const char *mode, const rl_model *m, const rl_hw *h,
                           long long chips)
{
    cJSON_AddStringToObject(o, "mode", mode);
    cJSON_AddStringToObject(o, "model", m->name);
    cJSON_AddStringToObject(o, "hw", h->name);
    cJSON_AddNumberToObject(o, "chips", (double)chips);
    add_engine(o, mode, h, chips);
}

/* A note's text as its writer (f(..., char *s, size_t len), returning 1
 * when the note applies) gives it, in a buffer that grows until the text
 * fits whole: a buffer sized by hand cut a longer text short, unsaid.
 * The idiom, the writer named once:
 *     note_buf b = {0};
 *     while (WHEN && note_pass(&b))
 *         b.applies = writer(..., b.s, b.len);
 *     add_note(o, "KEY", &b, nulls);
 * A writer that returns nothing leaves b.applies 1 (note_pass sets it);
 * WHEN false: the note does not apply. */
typedef struct {
    char *s;
    size_t len;
    int applies;
} note_buf;

/* Whether the writer runs (again): on the first pass, and after a text that
 * filled the buffer to its last byte, which the writer's snprintf may have
 * cut (it writes len - 1 bytes at most), in a buffer twice the size.  Out
 * of memory: no pass (the note absent, or as long as the last buffer held). */
static int note_pass(note_buf *b)
{
    if (b->s && !(b->applies && strlen(b->s) + 1 == b->len))
        return 0;
    size_t len = b->s ? 2 * b->len : 1024;
    char *s = realloc(b->s, len);
    if (!s)
        return 0;
    *b = (note_buf){s, len, 1};
    return 1;
}

char *rl_result_vfmt(const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s)
        vsnprintf(s, (size_t)n + 1, fmt, again);
    va_end(again);
    return s;
}

char *rl_result_fmt(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = rl_result_vfmt(fmt, ap);
    va_end(ap);
    return s;
}

void rl_result_add_fmt(cJSON *o, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = rl_result_vfmt(fmt, ap);
    va_end(ap);
    if (s)
        cJSON_AddStringToObject(o, key, s);
    free(s);
}

/* Key `key` of o: b's text when its note applies, else null (`nulls`) or
 * nothing; frees b's buffer and empties b for the next note. */
static void add_note(cJSON *o, const char *key, note_buf *b, int nulls)
{
    if (b->applies)
        cJSON_AddStringToObject(o, key, b->s);
    else if (nulls)
        cJSON_AddNullToObject(o, key);
    free(b->s);
    *b = (note_buf){0};
}

/* The engine a result timed by h's engine charges no per-step host cost
 * under (its steps kernel + collective time only: host_cost_note), else NULL. */
static const rl_serving_engine *hostless_engine(const rl_model *m, const rl_hw *h, int cal)
{
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    if (!cal || h->ideal || h->engine_costs.present || !e || m->abstract || !rl_hw_measured(h))
        return NULL;
    return e->step_s == 0 && e->seq_s == 0 && e->launch_s == 0 ? e : NULL;
}

#define RL_SIZE_HW_NAMED 16 /* engines a size note names at most */

/* host_cost_note's text naming the engines `names` ("trtllm", "trtllm and
 * vllm"; `n` of them) into s[len]. */
static void host_cost_text(char *s, size_t len, const char *names, int n)
{
    snprintf(s, len, "step times are kernel + collective time: no per-step host cost of "
             "the %s engine%s (scheduling, sampling, launch gaps) is charged: it overlaps them "
             "with the GPU step by default, host time beyond the step's has one public "
             "figure, not a constant (docs/model.md, engine costs), so these times are a lower "
             "bound on an engine's end-to-end step, furthest below it at small batch; "
             "roofline fit fits one on end-to-end measurements", names, n > 1 ? "s" : "");
}

const char *rl_result_host_cost_brief(const char *note, char *buf, size_t len)
{
    /* host_cost_text's clauses: "... is charged: <why>, so these times are
     * ... at small batch; roofline fit fits one ..." */
    const char *charged = strstr(note, " is charged: ");
    const char *so = charged ? strstr(charged, ", so these times are") : NULL;
    const char *fit = so ? strstr(so, "; roofline fit") : NULL;
    if (!fit)
        return note;
    snprintf(buf, len, "%.*s%.*s (host_cost_note gives why)%s", (int)(charged + 11 - note), note,
             (int)(fit - so), so, fit);
    return buf;
}

int rl_result_step_floor_note(const char *what, double t, char *s, size_t len)
{
    s[0] = '\0';
    if (!(t > 0 && t < RL_LAUNCH_FLOOR_S))
        return 0;
    snprintf(s, len, "the decode step (%s %.3g us) is below one kernel launch, which takes "
             "on the order of microseconds (Modal GPU Glossary, CUDA Graph: \"Each launch takes "
             "on the order of microseconds\"; an engine's step is at least one launch plus its "
             "host work): it carries no engine cost, so it and the rates derived from it "
             "(tokens/s, max_sustainable_qps) are not deployable figures; a fitted profile "
             "(roofline fit) adds a measured floor per step", what, t * 1e6);
    return 1;
}

/* host_cost_note naming the engines `names` (`n` of them) into o. */
static void add_host_cost_note(cJSON *o, const char *names, int n)
{
    note_buf b = {0};
    while (note_pass(&b))
        host_cost_text(b.s, b.len, names, n);
    add_note(o, "host_cost_note", &b, 0);
}

/* kv_engine_note: the selected engine stores no KV cache in p's KV dtype
 * (engines.h rl_engine_kv_caution; fixJH: --kv int4 ran under trtllm
 * unremarked); precision_engine_note: it runs no fp8 weights or compute on
 * this chip (rl_engine_precision_caution; fixSA: --weights fp8 under trtllm
 * on an A100 ran unremarked). */
int rl_result_engine_dtype_note(const rl_hw *h, rl_precision p, int abstract, int which, char *s,
                                size_t len)
{
    s[0] = '\0';
    return !abstract && rl_hw_engine_caution(h, RL_PLAN_DTYPES(p), which, s, len);
}

/* tester F8: deepseek-v3's qk read 252 us a layer on a100-sxm-80g under
 * trtllm (26x h100-sxm's 9.7 us) with no word.  The figure is measured
 * (AIConfigurator's generation_mla table of TensorRT-LLM 1.0.0 on
 * A100-SXM4-80GB: 0.478 ms at batch 1, 4095 cached tokens, 128 heads,
 * linear in the context, where H100's 1.3.0rc20 table reads 0.021 ms), so
 * the number stays; the note says it is measured and why it is slow:
 * "Current TRT-LLM MLA kernel only supports Hopper architecture (SM90).
 * Ampere architecture (SM80 & SM86) will be supported in the future
 * release" (NVIDIA/TensorRT-LLM examples/deepseek_v3/README.md, Hardware,
 * the DeepSeek-V3 preview for 0.18), and on sm 80 its attention falls
 * back to an unfused path ("Fall back to unfused MHA for ... head_size =
 * 576, head_size_V = 512 ... in sm_80", NVIDIA/TensorRT-LLM pull request
 * #1758).  The prefill (context) MLA table is not cautioned: A100's reads
 * 4.66 ms at 4096 tokens, 3.7x H100's 1.26 ms, about the two chips' bf16
 * peak ratio (312 / 989 TFLOP/s). */
int rl_result_mla_engine_note(const rl_model *m, const rl_hw *h, rl_precision p, char *s,
                              size_t len)
{
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    s[0] = '\0';
    int v = rl_kvariant_kv(p.kv);
    if (m->abstract || h->ideal || !e || !e->tables || strcmp(e->name, "trtllm") != 0 ||
        m->attention != RL_ATTN_MLA || !(h->sm > 0 && h->sm < 90) || v < 0 ||
        !rl_engine_has(e->tables, RL_KC_DECODE_MLA, v) ||
        (double)m->kv_lora_rank != RL_MLA_LATENT || (double)m->qk_nope_head_dim != RL_MLA_NOPE ||
        (double)m->qk_rope_head_dim != RL_MLA_ROPE || (double)m->v_head_dim != RL_MLA_V)
        return 0;
    double x[RL_KSHAPE] = {1.0, 4096.0, 128.0};
    const double was[2] = {rl_hw_measured_flops(h)[RL_BF16], rl_hw_measured_bw(h)};
    rl_provenance prov;
    double t = rl_engine_time_on(e, RL_KC_DECODE_MLA, v, x, was, was, &prov);
    double roof = rl_engine_floor(RL_KC_DECODE_MLA, v, x, was[0], was[1]);
    if (!(t > 0) || !(roof > 0))
        return 0;
    snprintf(s, len, "MLA decode attention (qk, softmax, pv) is TensorRT-LLM's own measured MLA "
             "kernel on this chip (sm %lld; engine %s tables, provenance measured or "
             "interpolated), and it is slow: %.3f ms at batch 1, 4096 cached tokens and 128 "
             "heads, %.0fx its roofline of %.4f ms (FLOPs at the bf16 peak, bytes at hbm_bw), "
             "growing linearly with the context; TensorRT-LLM's MLA kernels target Hopper "
             "(\"Current TRT-LLM MLA kernel only supports Hopper architecture (SM90). Ampere "
             "architecture (SM80 & SM86) will be supported in the future release\", "
             "NVIDIA/TensorRT-LLM examples/deepseek_v3/README.md), so on this chip the engine "
             "runs a fallback path: the time is what that engine version measured, not what "
             "an MLA kernel tuned for this chip would take (--engine ideal: the roofline)",
             h->sm, e->version[0] ? e->version : "(unversioned)", t * 1e3, t / roof,
             roof * 1e3);
    return 1;
}

/* mla_engine_note into o (`nulls`: null where it does not apply, else absent). */
static void add_mla_engine_note(cJSON *o, const rl_model *m, const rl_hw *h, rl_precision p,
                                int nulls)
{
    note_buf b = {0};
    while (note_pass(&b))
        b.applies = rl_result_mla_engine_note(m, h, p, b.s, b.len);
    add_note(o, "mla_engine_note", &b, nulls);
}

/* Both notes into o (`nulls`: a key that does not apply is null, else absent). */
static void engine_dtype_notes(cJSON *o, const rl_hw *h, rl_precision p, int abstract,
                               int nulls)
{
    static const char *const keys[] = {"kv_engine_note", "precision_engine_note"};
    note_buf b = {0};
    for (int k = 0; k < 2; k++) {
        while (note_pass(&b))
            b.applies = rl_result_engine_dtype_note(h, p, abstract, k, b.s, b.len);
        add_note(o, keys[k], &b, nulls);
    }
}

/* A row's engine cautions, each key on every row, null where it does not
 * apply (size's and pareto's rows: tester89 F4b, fixSL #1): kv_engine_note
 * and precision_engine_note as step says them for the row's plan, and
 * mla_engine_note; `timed`: the row is timed by the engine (not an ideal,
 * uncalibrated search, which times no kernel table: tester F8). */
static void add_row_engine_notes(cJSON *o, const rl_model *m, const rl_hw *h, rl_precision p,
                                 int timed)
{
    engine_dtype_notes(o, h, p, m->abstract || !timed, 1);
    if (timed)
        add_mla_engine_note(o, m, h, p, 1);
    else
        cJSON_AddNullToObject(o, "mla_engine_note");
}

/* The two notes, each key absent when it does not apply (step, prefill,
 * ops, simulate: one plan a result). */
static void add_engine_dtype_notes(cJSON *o, const rl_hw *h, rl_precision p, int abstract)
{
    engine_dtype_notes(o, h, p, abstract, 0);
}

/* What a result timed by an engine (`cal`: its tables or efficiency; not
 * --ideal, --mfu or a fitted profile, whose costs time steps and requests
 * end to end) leaves out and adds from elsewhere (tester28 F8; docs/model.md,
 * engine costs): host_cost_note when the engine has no per-step cost (its
 * steps are kernel + collective time only), and with `ttft` (prefill,
 * simulate) prefill_dispatch_note naming the source of the dispatch each
 * TTFT carries (rl_ops_prefill_dispatch). */
static void add_dispatch_note(cJSON *o, const rl_model *m, const rl_hw *h);
static void add_host_notes(cJSON *o, const rl_model *m, const rl_hw *h, int cal, int ttft)
{
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    if (!cal || h->ideal || h->engine_costs.present || !e || m->abstract)
        return;
    if (hostless_engine(m, h, cal))
        add_host_cost_note(o, e->name, 1);
    if (ttft)
        add_dispatch_note(o, m, h);
}

/* add_host_notes' prefill_dispatch_note alone, of h's selected engine
 * (size's first row: fixJK #2); none without a dispatch. */
static void add_dispatch_note(cJSON *o, const rl_model *m, const rl_hw *h)
{
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    if (!e || !(e->prefill_layer_s > 0) || cJSON_GetObjectItem(o, "prefill_dispatch_note"))
        return;
    int stock = rl_engine_costs_default(e->name).prefill_layer_s == e->prefill_layer_s;
    rl_result_add_fmt(o, "prefill_dispatch_note", "each TTFT carries the %s engine's prefill dispatch, %.3g ms (%lld layers "
             "x %.3g ms, prefill_dispatch_s): %s", e->name,
             e->prefill_layer_s * (double)m->layers * 1e3, m->layers, e->prefill_layer_s * 1e3,
             stock ? "NVIDIA AIConfigurator's calibrated constant for vLLM's CPU-side prefill "
                     "dispatch (vllm_backend.py _prefill_dispatch_overhead_ms), not a kernel "
                     "measurement and not ours"
                   : "the profile's engine cost prefill_layer_s (info --hw H gives its source)");
}

/* How far SplitwiseSim's end-to-end medians of llama2-70b fp16 on DGX-A100
 * and DGX-H100 (Patel et al., ISCA 2024; ../shared/data/e2e/
 * splitwise_perf_model.csv, MIT; its serving framework not stated) lie
 * above the kernel-table prediction of the same configurations: measured /
 * predicted per configuration (the median of its repeats, calib/
 * splitwise_csv.sh), its median, p10 and p90 (rank p (n + 1), fit.h
 * rl_fit_bound) over the 11-16 configurations of each chip, engine, phase
 * and TP; the 12 of 4160-token context left out (beyond llama2-70b's
 * max_context).  calib/e2e_gap.sh regenerates them (stop 42, issue 13
 * item 4 (b); docs/model.md, "The end-to-end gap"). */
typedef struct {
    const char *hw, *engine;
    double r[2][3][3]; /* [decode, prefill][tp 2, 4, 8][median, p10, p90] */
} e2e_gap;
static const e2e_gap E2E_GAP[] = {
    {"a100-sxm-80g", "trtllm",
     {{{1.30, 1.18, 1.38}, {1.76, 1.71, 1.96}, {2.89, 2.78, 2.96}},
      {{1.31, 1.15, 1.44}, {1.56, 1.20, 2.21}, {1.62, 1.22, 2.63}}}},
    {"a100-sxm-80g", "vllm",
     {{{1.27, 1.15, 1.31}, {1.73, 1.64, 1.88}, {2.78, 2.71, 3.05}},
      {{1.16, 0.68, 1.53}, {1.20, 0.65, 2.24}, {1.01, 0.68, 2.56}}}},
    {"h100-sxm", "trtllm",
     {{{1.40, 1.38, 1.64}, {2.00, 1.94, 2.44}, {3.38, 3.24, 3.56}},
      {{1.39, 1.36, 1.60}, {1.73, 1.51, 2.43}, {2.35, 1.53, 3.52}}}},
    {"h100-sxm", "vllm",
     {{{1.48, 1.46, 1.73}, {2.11, 2.03, 2.57}, {3.54, 3.41, 4.02}},
      {{1.11, 0.52, 1.35}, {1.05, 0.60, 1.70}, {0.93, 0.63, 2.29}}}},
};

/* The gap of h's chip and selected engine at tp, `prefill` (else decode),
 * as a clause ("SplitwiseSim's end-to-end decode step medians ... ran
 * x2.00 the trtllm tables' prediction at tp4 (p10 x1.94, p90 x2.44; this
 * TP)"; `brief`: "its prefill medians ran ...") into buf, with r its median,
 * p10, p90; 0 when none applies. */
static int e2e_gap_words(const rl_hw *h, long long tp, int prefill, int brief, const double **r,
                         char *buf, size_t n)
{
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    char why[256];
    if (!e || !e->tables || h->ideal || h->engine_costs.present ||
        rl_e2e_what_if_band(h, why, sizeof why))
        return 0;
    for (size_t i = 0; i < sizeof E2E_GAP / sizeof *E2E_GAP; i++) {
        const e2e_gap *g = &E2E_GAP[i];
        /* the chip the tables were measured on, not the spec's name: a copy
         * of h100-sxm renamed keeps H100's gap (tester81 #3) */
        if (strcmp(g->hw, rl_hw_tables_chip(h, h->name)) != 0 ||
            strcmp(g->engine, e->name) != 0)
            continue;
        int k = tp <= 2 ? 0 : tp <= 5 ? 1 : 2; /* the nearest of 2, 4, 8 in octaves */
        *r = g->r[prefill][k];
        snprintf(buf, n, "%s %s medians%s ran x%.2f the %s tables' prediction at tp%d (p10 "
                 "x%.2f, p90 x%.2f; %s)", brief ? "its" : "SplitwiseSim's end-to-end",
                 prefill ? "prefill" : "decode step",
                 brief ? "" : " of llama2-70b fp16 on this chip (ISCA 2024, framework not "
                              "stated; the only end-to-end measurement here)",
                 (*r)[0], e->name, 2 << k, (*r)[1], (*r)[2],
                 tp == (2LL << k) ? "this TP" : "the nearest measured TP");
        return 1;
    }
    return 0;
}

/* What the note says of --band (fixJK #3): the gap's p10-p90 whatever it is. */
#define E2E_GAP_BAND "; the gap is quoted at its p10 and p90 whatever --band (11-16 " \
                     "configurations a TP: no p5 or p95 is taken from so few)"

/* e2e_gap_note: the gap above for h's chip and selected engine at tp
 * and `prefill` (else decode), the one-sided high end `key` x p90
 * labelled (with its figure when t, the one row's time, is above 0);
 * nothing on another chip or engine, a what-if chip, or without tables.
 * The band (`key`_low/_high) stays the kernel tables' error: this gap is
 * what an end-to-end run adds, measured on one model by one unnamed
 * framework. */
static void add_e2e_gap_note(cJSON *o, const rl_hw *h, long long tp, int prefill,
                             const char *key, double t)
{
    const double *r;
    char s[1280], w[512], at[64] = "";
    if (cJSON_GetObjectItem(o, "e2e_gap_note") || !e2e_gap_words(h, tp, prefill, 0, &r, w, sizeof w))
        return;
    if (t > 0) /* one row: its figure */
        snprintf(at, sizeof at, " = %.4g ms", t * r[2] * 1e3);
    snprintf(s, sizeof s, "the kernel tables' band holds their kernels' error, not an "
             "engine's: %s: a one-sided end-to-end high end, %s x %.2f%s, labelled as that and "
             "kept out of %s_high (docs/model.md, \"The end-to-end gap\")" E2E_GAP_BAND,
             w, key, r[2], at, key);
    cJSON_AddStringToObject(o, "e2e_gap_note", s);
}

/* e2e_gap_note of a serving run (simulate, size's first row: fixJK #2) on h
 * at tp: its TPOTs against the decode gap, its TTFTs against the prefill
 * gap (their p90 ratios the one-sided high ends). */
int rl_result_e2e_gap_serving_note(const rl_hw *h, long long tp, char *s, size_t len)
{
    const double *rd, *rp;
    char wd[512], wp[512];
    if (!e2e_gap_words(h, tp, 0, 0, &rd, wd, sizeof wd) ||
        !e2e_gap_words(h, tp, 1, 1, &rp, wp, sizeof wp))
        return 0;
    snprintf(s, len, "the kernel tables' band holds their kernels' error, not an "
             "engine's: %s, and %s: one-sided end-to-end high ends, TPOT x %.2f and TTFT x "
             "%.2f, labelled as that and kept out of the band (docs/model.md, \"The end-to-end "
             "gap\")" E2E_GAP_BAND, wd, wp, rd[2], rp[2]);
    return 1;
}

int rl_result_conservative_gap_note(const rl_hw *h, long long tp, char *s, size_t len)
{
    double p90[2]; /* decode, prefill: e2e_gap_words's p90 factors */
    for (int prefill = 0; prefill < 2; prefill++) {
        const double *r;
        char w[512];
        if (!e2e_gap_words(h, tp, prefill, 1, &r, w, sizeof w))
            return 0;
        p90[prefill] = r[2];
    }
    snprintf(s, len, "--conservative sizes against the slow edge of the kernel tables' band, "
             "which holds their kernels' error and not an engine's end-to-end gap: on this chip "
             "measured end-to-end runs took up to TPOT x %.2f and TTFT x %.2f the tables' "
             "prediction (p90; e2e_gap_note), which no size option applies, so this sizing is "
             "not conservative against that gap and a deployed engine can miss the targets by "
             "it", p90[0], p90[1]);
    return 1;
}

static void add_e2e_gap_serving(cJSON *o, const rl_hw *h, long long tp)
{
    note_buf b = {0};
    while (!cJSON_GetObjectItem(o, "e2e_gap_note") && note_pass(&b))
        b.applies = rl_result_e2e_gap_serving_note(h, tp, b.s, b.len);
    add_note(o, "e2e_gap_note", &b, 0);
}

/* prefill_dispatch_note's caution (stop 42, issue 13 item 4 (c)): the
 * engine's prefill dispatch is up to `most` of a row's TTFT and the band
 * leaves it out.  Its source states one figure, no range: "Recalibrated at
 * ~0.8ms/layer against the full silicon corpus" (AIConfigurator
 * vllm_backend.py _prefill_dispatch_overhead_ms), so no band is taken from
 * it; the note says how much of the TTFT rests on that one constant. */
static void add_dispatch_caution(cJSON *o, double most)
{
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, "prefill_dispatch_note");
    if (!cJSON_IsString(n) || !(most > 0))
        return;
    char s[1400], pct[32];
    /* fixJM #3: two significant digits under 10% ("0.31%", not "0%"; %#
     * keeps "5.0"), whole percents above ("79%"; 9.95 up reads "10") */
    snprintf(pct, sizeof pct, 100 * most < 9.95 ? "%#.2g" : "%.0f", 100 * most);
    snprintf(s, sizeof s, "%s; it is up to %s%% of these TTFTs and ttft_s_low/_high leave it "
             "out (the same constant at both edges): its source states one figure (\"~0.8ms/"
             "layer\"), no range, so that share of a TTFT rests on one constant no table "
             "measured, read it as a caution (docs/model.md, engine costs)",
             n->valuestring, pct);
    cJSON_ReplaceItemInObjectCaseSensitive(o, "prefill_dispatch_note", cJSON_CreateString(s));
}

/* The mode of a plan's result on h, `cal` when the calibrated path timed
 * it: a chip with nothing measured reads `estimated` (its datasheet
 * figures) unless --ideal asked for the peaks (h->ideal); a measured chip
 * on a plan its measurements do not time reads `ideal` (docs/model.md,
 * the modes).  One rule for step --tp, shard and pareto (tester4 #9: the
 * TPU presets read estimated in step, ideal in shard and pareto). */
static const char *plan_mode(const rl_hw *h, int cal)
{
    return rl_hw_mode(h, cal || !rl_hw_measured(h));
}

/* What times the collectives of a plan whose local step is formula (1) at
 * the peaks (shard, an uncalibrated pareto): the alpha-beta model at the
 * datasheet link figures, measured tables or not (comm.h, ideal mode;
 * tester12 #6: shard read `engine none` beside TensorRT-LLM's rows). */
static const char *peak_plan_comm(const rl_hw *h)
{
    return h->collectives.present ? "included: collectives by the alpha-beta model at the "
                                    "datasheet link figures (ideal mode: no measured rows) beside "
                                    "per-chip formula (1) at the datasheet peaks"
                                  : "included: collectives at the datasheet link figures beside "
                                    "per-chip formula (1) at the datasheet peaks";
}

/* The smaller of two table-time shares (spec.h rl_run_mode), < 0 unknown. */
static double min_share(double a, double b)
{
    return a < 0 ? b : b < 0 ? a : fmin(a, b);
}

/* The share of step_s (time_s) carried by table-timed ops (table_s), -1 with no time. */
static double share_of(double table_s, double time_s)
{
    return time_s > 0 ? table_s / time_s : -1.0;
}

/* mode_note RL_ENGINE_UNRUN_NOTE in o when base reads "calibrated" and the
 * engine does not run the dtypes of `plan` (spec.h rl_run_mode lowers it
 * then: fixTC), unless o has a mode_note already. */
static void add_unrun_note(cJSON *o, const rl_hw *h, const char *base, const rl_dtype *plan)
{
    if (!strcmp(base, "calibrated") && rl_hw_engine_unrun(h, plan) &&
        !cJSON_GetObjectItem(o, "mode_note"))
        cJSON_AddStringToObject(o, "mode_note", RL_ENGINE_UNRUN_NOTE);
}

/* Result o's "mode" (from its run header) under the table-time share of
 * its rows and the dtypes of its plan (`plan`, RL_PLAN_DTYPES; NULL on an
 * abstract model) (spec.h rl_run_mode), and the key table_time_share (null
 * when unknown).  A calibrated header lowered because the engine does not
 * run the plan's dtypes says so in mode_note (fixTC), unless a note is
 * there already. */
static void add_table_share(cJSON *o, const rl_hw *h, double share, const rl_dtype *plan)
{
    cJSON *mode = cJSON_GetObjectItemCaseSensitive(o, "mode");
    const char *label = rl_run_mode(mode->valuestring, h, share, plan);
    if (strcmp(label, mode->valuestring) != 0) {
        add_unrun_note(o, h, mode->valuestring, plan);
        cJSON_SetValuestring(mode, label);
    }
    if (share >= 0)
        cJSON_AddNumberToObject(o, "table_time_share", share);
    else
        cJSON_AddNullToObject(o, "table_time_share");
}

/* Row r's own table-time share and the mode it alone would read (tester50
 * F2: a --tokens or --batch list read `estimated` as a whole, no row saying
 * which of them is): as add_table_share under base, the header's mode
 * before the rows' shares decide it; `plan` as add_table_share's. */
static void add_row_share(cJSON *r, const char *base, const rl_hw *h, double share,
                          const rl_dtype *plan)
{
    if (!r || share < 0)
        return;
    cJSON_AddStringToObject(r, "mode", rl_run_mode(base, h, share, plan));
    cJSON_AddNumberToObject(r, "table_time_share", share);
}

/* Every row of o's "rows" that has no "mode" of its own takes o's (tester90
 * #3: step's rows carried one only where kernel tables timed them, so a
 * fitted profile's and an --ideal run's rows had none; a tabled row keeps
 * its own, add_row_share's).  Called once o's mode is final. */
static void rows_take_mode(cJSON *o)
{
    const char *mode = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "mode"));
    cJSON *row;
    cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(o, "rows"))
        if (mode && !cJSON_GetObjectItemCaseSensitive(row, "mode"))
            cJSON_AddStringToObject(row, "mode", mode);
}

void rl_result_untabled_note(cJSON *r, const rl_hw *h)
{
    cJSON *mode = r ? cJSON_GetObjectItemCaseSensitive(r, "mode") : NULL;
    if (!cJSON_IsString(mode) || !rl_hw_fitted_untabled(h) ||
        (strcmp(mode->valuestring, "calibrated") != 0 && strcmp(mode->valuestring, "estimated") != 0))
        return;
    cJSON_SetValuestring(mode, "estimated");
    if (!cJSON_GetObjectItem(r, "mode_note"))
        cJSON_AddStringToObject(r, "mode_note", RL_FITTED_UNTABLED_NOTE);
}

/* rl_e2e_no_band's reason on a profile with a band whose run got none */
#define NO_RESIDUALS "no operator of the step was timed by a kernel table with residuals"
/* the no_band reason of mode "mfu" (ops and prefill --mfu) */
#define MFU_NO_BAND "--mfu: compute at a set fraction of the peak"

/* KEY_low / KEY_high of row o: the op list's p10-p90 band (p5-p95 when the
 * engine's wide_band is set: --band p5-p95) from its engine's kernel-table
 * residuals (ops.h band_s), when it has one; the result top names it. */
static void add_band(cJSON *top, cJSON *o, const char *key, const double *band_s, int banded,
                     const rl_hw *h)
{
    char k[48], why[512];
    if (!banded)
        return;
    if (rl_e2e_what_if_band(h, why, sizeof why)) { /* no band on a what-if (e2e.h) */
        if (!cJSON_GetObjectItem(top, "no_band"))
            rl_result_add_fmt(top, "no_band", "no band: %s (the time is an estimate)", why);
        return;
    }
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    int wide = e && e->wide_band;
    if (!cJSON_GetObjectItem(top, "band")) /* the result names its band once */
        cJSON_AddStringToObject(top, "band", wide ? "p5-p95" : "p10-p90");
    snprintf(k, sizeof k, "%s_low", key);
    cJSON_AddNumberToObject(o, k, band_s[wide ? 0 : 1]);
    snprintf(k, sizeof k, "%s_high", key);
    cJSON_AddNumberToObject(o, k, band_s[wide ? 3 : 2]);
}

static void add_table_band(cJSON *top, cJSON *o, const char *key, const rl_ops *ops,
                           const rl_hw *h)
{
    add_band(top, o, key, ops->band_s, ops->banded, h);
}

/* How many operators of an op list were timed measured, interpolated,
 * extrapolated or by the roofline (its counts, ops.h rl_ops.prov). */
static void add_provenance(cJSON *o, const int prov[RL_PROV_COUNT])
{
    cJSON *p = cJSON_AddObjectToObject(o, "provenance");
    for (int i = 0; i < RL_PROV_COUNT; i++)
        cJSON_AddNumberToObject(p, rl_provenance_name((rl_provenance)i), prov[i]);
}

/* An engine's costs outside its kernels (engines.h): per step, per
 * sequence, per launch, the prefill dispatch per layer, the context its
 * decode attention is timed at (attention_context), and their source.
 * Beside fitted costs (add_fitted_costs) the four are the kernel-table
 * engine's and unused; costs_source says that their fitted_costs replace
 * them, naming the decode floor (tester20 F5 carried, issue 14: info read
 * step_s 0 beside decode_step_s 0.0296 on h100-sxm-splitwise).  The keys
 * and their type stay (a contract). */
static void add_engine_costs(cJSON *r, const rl_serving_engine *e)
{
    cJSON_AddNumberToObject(r, "step_s", e->step_s);
    cJSON_AddNumberToObject(r, "seq_s", e->seq_s);
    cJSON_AddNumberToObject(r, "launch_s", e->launch_s);
    cJSON_AddNumberToObject(r, "prefill_layer_s", e->prefill_layer_s);
    /* the context a mixed decode batch's attention is timed at (engines.h) */
    cJSON_AddStringToObject(r, "attention_context", e->attn_longest ? "longest" : "mean");
    if (!e->fitted.present) {
        cJSON_AddStringToObject(r, "costs_source", e->costs_source);
        return;
    }
    rl_result_add_fmt(r, "costs_source", "step_s, seq_s, launch_s, prefill_layer_s unused: fitted_costs "
            "replace them (decode_step_s %.4g s, prefill_step_s %.4g s per step); %s",
            e->fitted.v[RL_EC_DECODE_STEP], e->fitted.v[RL_EC_PREFILL_STEP], e->costs_source);
}

/* An engine's fitted costs of (E) (enginecost.h: `roofline fit`) as
 * "fitted_costs" {decode_step_s, ..., prefill_act_byte_s} and what they
 * were fitted on as "fitted_on" {file, hash, date, rows, configs,
 * cv_median_abs_error, cv_p90_abs_error, models, weights, grid {tp: [lo,
 * hi], ...}, status {decode_step_s: "fitted", comm_eff: "held", ...}}
 * (rl_ec_said), the keys of the profile's engines.NAME.costs; both null for
 * an engine without fitted costs.  step_s, seq_s and launch_s above are the
 * kernel-table engine's keys, 0 beside fitted costs, which time a fitted
 * step instead (tester20 F5: a script reading info saw a fitted engine
 * with no host floor). */
static void add_fitted_costs(cJSON *r, const rl_engine_costs *c)
{
    if (!c->present) {
        cJSON_AddNullToObject(r, "fitted_costs");
        cJSON_AddNullToObject(r, "fitted_on");
        return;
    }
    cJSON *v = cJSON_AddObjectToObject(r, "fitted_costs");
    for (int p = 0; p < RL_EC_N; p++)
        cJSON_AddNumberToObject(v, rl_ec_name((rl_ec_param)p), c->v[p]);
    if (c->rows <= 0) { /* costs written by hand: no fit recorded */
        cJSON_AddNullToObject(r, "fitted_on");
        return;
    }
    cJSON *on = cJSON_AddObjectToObject(r, "fitted_on");
    cJSON_AddStringToObject(on, "file", c->file);
    cJSON_AddStringToObject(on, "hash", c->hash);
    cJSON_AddStringToObject(on, "date", c->date);
    cJSON_AddNumberToObject(on, "rows", (double)c->rows);
    cJSON_AddNumberToObject(on, "configs", (double)c->configs);
    cJSON_AddNumberToObject(on, "cv_median_abs_error", c->cv_median);
    cJSON_AddNumberToObject(on, "cv_p90_abs_error", c->cv_p90);
    cJSON_AddStringToObject(on, "models", c->models);
    cJSON_AddStringToObject(on, "weights", c->weights);
    cJSON_AddStringToObject(on, "kv", c->kv);
    cJSON_AddStringToObject(on, "compute", c->compute);
    cJSON *grid = cJSON_AddObjectToObject(on, "grid");
    for (int a = 0; a < RL_EC_AXES; a++)
        if (c->grid[a][0] > 0)
            cJSON_AddItemToObject(grid, rl_ec_axis_name((rl_ec_axis)a),
                                  cJSON_CreateDoubleArray(c->grid[a], 2));
    /* which values the fit set and which it held (the profile's
     * fitted_on.status; review29 M4: a held comm_eff of 1 read as fitted) */
    cJSON *st = cJSON_AddObjectToObject(on, "status");
    for (int p = 0; p < RL_EC_N; p++)
        cJSON_AddStringToObject(st, rl_ec_name((rl_ec_param)p), rl_ec_said(c, (rl_ec_param)p));
}

/* A byte count, whole: the memory rule's figures are computed from
 * fractions (vLLM's 1.79 GiB context = 1921997864.96; capacity x 0.92),
 * which the model keeps as they are; the JSON prints them rounded to the
 * nearest byte (h27lab, issue 14 carried: info read cuda_context_bytes
 * 1921997864.96). */
static void add_bytes(cJSON *o, const char *key, double v)
{
    cJSON_AddNumberToObject(o, key, round(v));
}

/* An engine's memory rule (engines.h): fraction, what it is a fraction of,
 * per-chip overheads and source; "memory_rule": "none" without one. */
static void add_memory_rule_name(cJSON *r, const rl_engine_memory *m)
{
    cJSON_AddStringToObject(r, "memory_rule", !m->present ? "none" : m->of_free ? "free" : "capacity");
}

static void add_memory_rule(cJSON *r, const rl_engine_memory *m)
{
    add_memory_rule_name(r, m);
    if (!m->present)
        return;
    cJSON_AddNumberToObject(r, "memory_fraction", m->fraction);
    add_bytes(r, "cuda_context_bytes", m->context_bytes);
    add_bytes(r, "comm_buffer_bytes", m->comm_bytes);
    add_bytes(r, "workspace_bytes", m->workspace_bytes);
    cJSON_AddStringToObject(r, "memory_source", m->source);
}

/* The memory rule a plan's `fits` follows (rl_shard_chip_room): the
 * selected engine's, or "none" (HBM less --hbm-reserve), whatever times
 * the plan (shard's plans are ideal: tester15 F-mem-1).  group > 0: the
 * chips of one of the plan's stages (tp x ep x sp), whose
 * comm_buffer_bytes is what the rule charges them
 * (rl_memory_comm_charged: 0 at one chip, tester39 F11) and whose
 * workspace_bytes is model m's over them (rl_memory_workspace); 0: the
 * rule's figures (shard's header, for plans of every size). */
static void add_plan_memory_rule(cJSON *o, const rl_model *m, const rl_hw *h, long long group)
{
    static const rl_engine_memory none;
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    rl_engine_memory mem = e ? e->mem : none;
    if (group > 0 && mem.present) {
        mem.comm_bytes = rl_memory_comm_charged(h, group);
        mem.workspace_bytes = rl_memory_workspace(m, &mem, group, 0);
    }
    add_memory_rule(o, &mem);
}

/* shard's header's workspace_bytes is the rule's own figure, before any
 * model (add_plan_memory_rule, group 0), while each row's usable bytes
 * subtract model m's activation workspace over the plan's chips: the
 * header's workspace_note says so with m's figure on one chip and on all
 * `chips` (leftover of stop 42: the header read 0 beside rows that
 * subtracted 0.35 GB).  None without a rule that sizes it by tokens. */
static void add_shard_workspace_note(cJSON *o, const rl_model *m, const rl_hw *h,
                                     long long chips)
{
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    if (!e || !e->mem.present || m->abstract || !(e->mem.workspace_tokens > 0))
        return;
    rl_result_add_fmt(o, "workspace_note", "workspace_bytes is the rule's floor before any model; each "
            "plan's usable bytes subtract %s's activation workspace at %.0f tokens (memory.h "
            "rl_memory_workspace), split over the plan's tp x ep x sp chips: %.3f GB on one "
            "chip, %.3f GB a chip on %lld; comm_buffer_bytes is charged on plans of more than "
            "one chip", m->name, e->mem.workspace_tokens,
            rl_memory_workspace(m, &e->mem, 1, 0) / 1e9, rl_memory_workspace(m, &e->mem, chips, 0) / 1e9,
            chips);
}

/* Where a step's HBM goes, all chips together (memory.h): vendor capacity,
 * the engine's fraction and overheads, and what weights + KV may use.
 * capacity_bytes is the raw HBM (the vendor's figure), usable_bytes what
 * the engine's memory rule leaves, kept as named (contract); ops' and
 * prefill's hbm_capacity_bytes is the usable one, so both are also spelt
 * as ops spells them, hbm_total_bytes and usable_total_bytes (fixNE #3). */
static void add_memory(cJSON *o, const rl_memory *mem)
{
    add_bytes(o, "capacity_bytes", mem->hbm_bytes);
    add_bytes(o, "hbm_total_bytes", mem->hbm_bytes);
    cJSON_AddNumberToObject(o, "memory_fraction", mem->engine_fraction);
    add_bytes(o, "cuda_context_bytes", mem->context_bytes);
    add_bytes(o, "comm_buffer_bytes", mem->comm_bytes);
    add_bytes(o, "workspace_bytes", mem->workspace_bytes);
    add_bytes(o, "usable_bytes", mem->capacity_bytes);
    add_bytes(o, "usable_total_bytes", mem->capacity_bytes);
}

/* The chip's own figures as its spec gives them (spec.h rl_hw; stop 38 #2:
 * info --hw listed engines only): dense peak FLOP/s per compute dtype it
 * has, HBM bytes and bytes/s, the ICI/NVLink links (one-way bytes/s of one
 * link, and of all a chip's links), the scale-out network and the host link
 * (one-way bytes/s per chip: spec.h net_bw, host_bw), latencies, and the
 * price with its source (null when the spec gives none). */
static void add_chip_figures(cJSON *o, const rl_hw *h)
{
    cJSON_AddStringToObject(o, "source", h->source);
    cJSON *f = cJSON_AddObjectToObject(o, "peak_flops_per_s");
    for (int t = 0; t < RL_DTYPE_COUNT; t++)
        if (h->flops[t] > 0)
            cJSON_AddNumberToObject(f, rl_dtype_name((rl_dtype)t), h->flops[t]);
    add_bytes(o, "hbm_bytes", h->hbm_bytes);
    cJSON_AddNumberToObject(o, "hbm_bytes_per_s", h->hbm_bw);
    cJSON_AddStringToObject(o, "ici_topology", rl_topology_name(h->topology));
    cJSON_AddNumberToObject(o, "ici_links", (double)h->ici_links);
    cJSON_AddNumberToObject(o, "ici_link_bytes_per_s", h->ici_bw);
    cJSON_AddNumberToObject(o, "ici_chip_bytes_per_s", h->ici_bw * (double)h->ici_links);
    cJSON_AddNumberToObject(o, "ici_latency_s", h->ici_latency);
    cJSON_AddNumberToObject(o, "domain_chips", (double)h->domain_chips);
    cJSON_AddNumberToObject(o, "net_bytes_per_s", h->net_bw);
    cJSON_AddNumberToObject(o, "net_latency_s", h->net_latency);
    cJSON_AddNumberToObject(o, "host_link_bytes_per_s", h->host_bw);
    cJSON_AddStringToObject(o, "bandwidths", "one-way (each direction); ici_link per link, "
                                             "ici_chip = ici_links x ici_link, net and host_link "
                                             "per chip");
    int priced = h->price_per_chip_hour > 0;
    if (priced)
        cJSON_AddNumberToObject(o, "price_per_chip_hour", h->price_per_chip_hour);
    else
        cJSON_AddNullToObject(o, "price_per_chip_hour");
    if (priced && h->price_source[0])
        cJSON_AddStringToObject(o, "price_source", h->price_source);
    else
        cJSON_AddNullToObject(o, "price_source");
}

cJSON *rl_result_engines(const rl_hw *h)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "hw", h->name);
    cJSON_AddStringToObject(o, "mode", rl_hw_default_mode(h, 1));
    const rl_serving_engine *d = rl_engines_selected(&h->engines);
    if (d)
        cJSON_AddStringToObject(o, "default_engine", d->name);
    else
        cJSON_AddNullToObject(o, "default_engine");
    add_chip_figures(o, h);
    cJSON *rows = cJSON_AddArrayToObject(o, "engines");
    for (int i = 0; i < h->engines.n; i++) {
        rl_hw one = *h;
        char err[512];
        if (rl_hw_select_engine(&one, h->engines.e[i].name, err, sizeof err) != 0) {
            cJSON_Delete(o);
            return NULL; /* an unreadable engine file */
        }
        const rl_serving_engine *e = &one.engines.e[i];
        cJSON *r = cJSON_CreateObject();
        cJSON_AddStringToObject(r, "engine", e->name);
        cJSON_AddBoolToObject(r, "default", i == h->engines.def);
        cJSON_AddStringToObject(r, "mode", rl_hw_default_mode(&one, 1));
        cJSON_AddStringToObject(r, "version", e->version);
        cJSON_AddStringToObject(r, "measured_on", e->measured_on);
        /* the spec's `date` is the day calibrate --tables wrote the tables
         * (silicon.c), not when their source measured them: imported_on
         * says so; `date` stays for JSON and CSV readers, the table shows
         * imported_on alone (report.c table_hides; tester28 F11) */
        cJSON_AddStringToObject(r, "imported_on", e->date);
        cJSON_AddStringToObject(r, "date", e->date);
        char tables[1024] = ""; /* every class x variant: under 900 characters */
        for (int c = 0; e->tables && c < RL_KC_COUNT; c++)
            for (int v = 0; v < RL_KV_COUNT; v++)
                if (rl_engine_has(e->tables, (rl_kclass)c, v))
                    snprintf(tables + strlen(tables), sizeof tables - strlen(tables), "%s%s/%s",
                             tables[0] ? " " : "", rl_kclass_name((rl_kclass)c),
                             rl_kvariant_name((rl_kvariant)v));
        cJSON_AddStringToObject(r, "tables", tables);
        cJSON_AddStringToObject(r, "source", e->source);
        add_engine_costs(r, e);
        add_fitted_costs(r, &e->fitted);
        add_memory_rule(r, &e->mem);
        cJSON_AddItemToArray(rows, r);
    }
    return o;
}


/* A windowed model's info: kv_bytes_per_token counts every layer, true
 * while a sequence is below the window W; past it a local layer keeps W
 * tokens (the ideal view, arch.h rl_kv_view) and each further token adds
 * the global layers' KV only (tester77 F5: gemma2-27b's 376832 beside
 * step's 282624 a token at 8192).  Layers hold equal KV a token (arch.h
 * rl_arch_kv_elems_per_token_layer), so the global share is exact. */
static void add_kv_window(cJSON *o, const rl_model *m, rl_dtype kv)
{
    long long local = m->abstract ? 0 : rl_arch_local_layers(m);
    if (local <= 0 || m->sliding_window <= 0 || m->layers <= 0)
        return;
    double per = rl_arch_kv_bytes_per_token(m, kv);
    double past = per * (double)(m->layers - local) / (double)m->layers;
    cJSON_AddNumberToObject(o, "sliding_window", (double)m->sliding_window);
    cJSON_AddNumberToObject(o, "kv_bytes_per_token_past_window", round(past));
    rl_result_add_fmt(o, "kv_window_note", "kv_bytes_per_token holds below the %lld-token sliding window; "
            "past it %lld of %lld layers keep %lld tokens and each further token adds "
            "kv_bytes_per_token_past_window (an allocator that reserves the whole context "
            "on local layers keeps kv_bytes_per_token)", m->sliding_window, local, m->layers,
            m->sliding_window);
}

cJSON *rl_result_info(const rl_model *m, rl_precision p, long long context)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    rl_params pc = rl_arch_params(m);
    cJSON_AddStringToObject(o, "model", m->name);
    cJSON_AddBoolToObject(o, "abstract", m->abstract);
    add_precision(o, p, m->abstract);
    cJSON_AddNumberToObject(o, "params_total", pc.total);
    cJSON_AddNumberToObject(o, "params_active", pc.active);
    if (!m->abstract) /* arch.h: without the embedding lookup, as flops_per_token */
        cJSON_AddNumberToObject(o, "params_active_nonembedding", pc.active_nonembedding);
    if (!m->abstract) {
        cJSON *c = cJSON_AddObjectToObject(o, "params");
        cJSON_AddNumberToObject(c, "attention", pc.attention);
        cJSON_AddNumberToObject(c, "mlp", pc.mlp);
        cJSON_AddNumberToObject(c, "mlp_active", pc.mlp_active);
        cJSON_AddNumberToObject(c, "router", pc.router);
        cJSON_AddNumberToObject(c, "embedding", pc.embedding);
        cJSON_AddNumberToObject(c, "lm_head", pc.lm_head);
        cJSON_AddNumberToObject(c, "norms", pc.norms);
    }
    cJSON_AddNumberToObject(o, "weight_bytes",
                            rl_dtype_weights_bytes(p.weights, pc.total, rl_arch_kept_params(m)));
    cJSON_AddNumberToObject(o, "kv_bytes_per_token", rl_arch_kv_bytes_per_token(m, p.kv));
    add_kv_window(o, m, p.kv);
    cJSON_AddNumberToObject(o, "flops_per_token", rl_arch_flops_per_token(m));
    if (context > 0) {
        cJSON_AddNumberToObject(o, "context", (double)context);
        cJSON_AddNumberToObject(o, "attention_flops_per_token",
                                rl_arch_attention_flops_per_token(m, (double)context));
        cJSON_AddNumberToObject(o, "kv_bytes_per_sequence",
                                rl_arch_kv_bytes_per_sequence(m, p.kv, (double)context, RL_KV_IDEAL));
        cJSON_AddNumberToObject(o, "kv_bytes_per_sequence_allocator",
                                rl_arch_kv_bytes_per_sequence(m, p.kv, (double)context,
                                                              RL_KV_ALLOCATOR));
    }
    add_max_context(o, m);
    if (!m->abstract) {
        static const char *const ATTN[] = {"mha", "gqa", "mla"};
        cJSON_AddStringToObject(o, "attention", ATTN[m->attention]);
        cJSON_AddStringToObject(o, "norm", m->norm == RL_NORM_LAYER ? "layernorm" : "rmsnorm");
        cJSON_AddNumberToObject(o, "local_layers", (double)rl_arch_local_layers(m));
    }
    return o;
}

/* The rule the rows' time columns obey in this run (step.h; tester12 #9:
 * they explained 40% of a calibrated step and said nothing of the rest;
 * tester14 F5: under --overlap the key stated the sum, the rule after it).
 * A plan with --overlap runs its collectives beside the local step: each of
 * its pp ticks takes max(local, its layers' collectives), then come the pp-1
 * stage sends (shard.c), so over a step the rows obey the max form. */
/* The `overlap` key: how a step adds its local time and its collectives
 * (add_breakdown says it at length).  With pp > 1 the stage sends follow
 * the overlapped tick (tester35 F11: the key said "max(local, comm)" where
 * the rows are max(local, comm - sends) + sends); pp < 0 stands for a
 * comparison of plans with and without a pipeline (shard). */
static const char *overlap_text(int overlap, long long pp)
{
    if (!overlap)
        return "local + comm";
    return pp > 1   ? "max(local, comm - stage sends) + stage sends"
           : pp < 0 ? "max(local, comm); pipeline plans max(local, comm - stage sends) + stage sends"
                    : "max(local, comm)";
}

static void add_breakdown(cJSON *o, int overlap, long long pp)
{
    static const char terms[] =
        "formula (1)'s roofline terms, the collectives, and the time the kernels take above "
        "their roofline (measured kernels, elementwise ops and activations formula (1) leaves "
        "out, engine costs; 0 in ideal mode, and on a chip with nothing measured, whose step "
        "is formula (1) where ops and simulate time the operator list, its elementwise ops and "
        "activation traffic included); the attention kernels take kv_load_s + "
        "attention_compute_s = max(KV read, attention FLOPs) and the matmuls max(weight_load_s, "
        "compute_s), one after the other (docs/model.md)";
    char rule[1024];
    if (!overlap)
        snprintf(rule, sizeof rule, "step_s = kv_load_s + attention_compute_s + max(weight_load_s, compute_s) + "
                 "comm_s + kernel_excess_s: %s%s", terms, pp > 1 ? "; the columns are per step (pp ticks; "
                 "comm_s holds the pp-1 stage sends)" : "");
    else if (pp <= 1)
        snprintf(rule, sizeof rule, "step_s = max(kv_load_s + attention_compute_s + max(weight_load_s, "
                 "compute_s) + kernel_excess_s, comm_s): --overlap runs the collectives beside the local "
                 "step; %s", terms);
    else
        snprintf(rule, sizeof rule, "step_s = max(kv_load_s + attention_compute_s + max(weight_load_s, "
                 "compute_s) + kernel_excess_s, comm_s - sends) + sends, sends the summed total_s of the "
                 "batch's P2P rows in collectives (the stage sends): --overlap runs each of the "
                 "pp ticks' collectives "
                 "beside its local step, then the pp-1 stage sends follow; the columns are per "
                 "step (pp ticks); %s", terms);
    cJSON_AddStringToObject(o, "breakdown", rule);
}

/* What of a result's rows lies outside what h's tables measured (stop 38
 * #1; tester64 #2: step said nothing where pareto names the same rows):
 * operators extrapolated past a kernel table's grid, collectives raised to
 * a smaller group's measured time (comm.h rl_comm_floors), collectives
 * crossing the NVLink/ICI domain whose network level the model times
 * (rl_comm measured 2).  One collector and one text for the key
 * outside_tables of step's, prefill's and pareto's rows and its note:
 * each row begun by outside_row, its collectives added after it. */
typedef struct {
    char name[6][96]; /* the first six rows named, the rest counted */
    int n, all;
} outside_rows;

typedef struct {
    const char *at;  /* before the rows' names: "batch ", "tokens ", or "" (pareto's
                        name themselves) */
    const char *ops; /* the command that lists a row's operators */
    const char *rows; /* what its rows are called (NULL: "rows"; simulate's and size's "steps") */
    int pareto;      /* pareto's text: the rows of floored collectives named, first;
                        extrapolated operators not counted */
    char row[96];    /* the row being added */
    int row_floored; /* it is named in fl */
    outside_rows x, fl; /* rows with extrapolated operators, with floored collectives */
    int xops;           /* the most extrapolated operators of a row */
    rl_comm_floors floors;
    long long cross_group;
} outside_set;

static void outside_name(outside_rows *r, const char *name)
{
    if (r->n < 6)
        snprintf(r->name[r->n++], sizeof r->name[0], "%.*s", (int)sizeof r->name[0] - 1, name);
    r->all++;
}

/* A row named `row` with `nx` operators extrapolated. */
static void outside_row(outside_set *f, const char *row, int nx)
{
    snprintf(f->row, sizeof f->row, "%.*s", (int)sizeof f->row - 1, row);
    f->row_floored = 0;
    if (nx <= 0)
        return;
    outside_name(&f->x, row);
    if (nx > f->xops)
        f->xops = nx;
}

/* A row at batch or tokens `at` (outside_set.at): step's and prefill's. */
static void outside_row_at(outside_set *f, long long at, int nx)
{
    char row[24];
    snprintf(row, sizeof row, "%lld", at);
    outside_row(f, row, nx);
}

/* A collective of the row, `kind` over `group` GPUs, raised to the time
 * `impl` measured on `floor`. */
static void outside_floor(outside_set *f, rl_collective kind, long long group, long long floor,
                          const char *impl)
{
    rl_comm_floors_add(&f->floors, kind, group, floor, impl);
    if (!f->row_floored)
        outside_name(&f->fl, f->row);
    f->row_floored = 1;
}

/* A collective cc of the row as timed on h. */
static void outside_comm(outside_set *f, const rl_hw *h, const rl_comm *cc)
{
    if (rl_comm_floored(h, cc))
        outside_floor(f, cc->kind, cc->group, cc->floor_gpus, cc->impl);
    else if (h->collectives.present && cc->measured == 2 && cc->group > f->cross_group)
        f->cross_group = cc->group;
}

/* The collectives of op list ops, the row just begun. */
static void outside_op_comms(outside_set *f, const rl_hw *h, const rl_ops *ops)
{
    for (int k = 0; k < ops->n; k++)
        if (ops->op[k].kind == RL_OP_COMM)
            outside_comm(f, h, &ops->op[k].comm);
}

/* A step or prefill row at `at` timed by op list ops: its extrapolated
 * operators and collectives. */
static void outside_ops(outside_set *f, const rl_hw *h, long long at, const rl_ops *ops)
{
    outside_row_at(f, at, ops->prov[RL_PROV_EXTRAPOLATED]);
    outside_op_comms(f, h, ops);
}

/* "[; ]ALL of N rows (AT name, ...[, ...])" from buf[k] (rows: f->rows); returns the new k. */
static size_t outside_rows_text(const outside_rows *r, const char *at, const char *rows,
                                size_t nrows, char *buf, size_t len, size_t k)
{
    if (k < len)
        k += (size_t)snprintf(buf + k, len - k, "%s%d of %zu %s (%s", k ? "; " : "", r->all,
                              nrows, rows ? rows : "rows", at);
    for (int i = 0; i < r->n && k < len; i++)
        k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? ", " : "", r->name[i]);
    if (k < len)
        k += (size_t)snprintf(buf + k, len - k, "%s)", r->all > r->n ? ", ..." : "");
    return k;
}

/* f's text on `nrows` rows as o's key outside_tables (null when nothing
 * lies outside). */
static void outside_add(cJSON *o, const outside_set *f, const rl_hw *h, size_t nrows)
{
    char buf[1536];
    size_t k = 0, len = sizeof buf;
    buf[0] = 0;
    for (int piece = 0; piece < 2; piece++) { /* pareto's order: floors, then extrapolated */
        if (piece == !f->pareto && f->floors.n > 0) {
            if (f->pareto)
                k = outside_rows_text(&f->fl, f->at, f->rows, nrows, buf, len, k);
            if (k < len)
                k += (size_t)snprintf(buf + k, len - k, "%s", f->pareto ? ": " : k ? "; " : "");
            k = rl_comm_floors_text(&f->floors, h->name, buf, len, k);
        } else if (piece == f->pareto && f->x.all > 0) {
            char ops[32] = "operators";
            if (!f->pareto)
                snprintf(ops, sizeof ops, "up to %d operator(s)", f->xops);
            k = outside_rows_text(&f->x, f->at, f->rows, nrows, buf, len, k);
            if (k < len)
                k += (size_t)snprintf(buf + k, len - k, ": %s timed by extrapolating a kernel "
                                      "table past its measured grid (%s lists them, provenance "
                                      "extrapolated)", ops, f->ops);
        }
    }
    if (f->cross_group > 0 && k < len)
        k += (size_t)snprintf(buf + k, len - k, "%scollectives over up to %lld GPUs cross %s's "
                              "%lld-chip NVLink/ICI domain: the domain level from its "
                              "collectives table, the network level by the alpha-beta model "
                              "(timed_by measured domain + alpha-beta network)", k ? "; " : "",
                              f->cross_group, h->name, h->domain_chips);
    if (k >= len && len > 4)
        memcpy(buf + len - 4, "...", 4);
    if (buf[0])
        cJSON_AddStringToObject(o, "outside_tables", buf);
    else
        cJSON_AddNullToObject(o, "outside_tables");
}

/* outside_tables of a serving replica (simulate's run, a size row; stage
 * 38 #1 for step, tester: simulate --chips 16 said on stderr only that its
 * AllReduces cross the domain): the steps its table_time_share weighs
 * (ops.h rl_ops_serving_steps: its decode step and mean prefill step on
 * one stage's chips), as step's rows; null when nothing lies outside or
 * the run is not calibrated. */
static void outside_serving(cJSON *o, const rl_model *m, const rl_hw *h, int calibrated,
                            long long stage_chips, long long ep, int attn_dp,
                            const rl_ops_run_mix *mix, rl_precision p)
{
    rl_ops ops[2];
    char name[2][64];
    int n = calibrated && !h->ideal
                ? rl_ops_serving_steps(m, h, stage_chips, ep, attn_dp, mix, p, ops, name) : 0;
    outside_set far = {.at = "", .ops = "ops", .rows = "steps"};
    for (int i = 0; i < n; i++) {
        outside_row(&far, name[i], ops[i].prov[RL_PROV_EXTRAPOLATED]);
        outside_op_comms(&far, h, &ops[i]);
    }
    outside_add(o, &far, h, (size_t)n);
}

static void add_row(cJSON *rows, const rl_step *s, long long chips)
{
    cJSON *r = cJSON_CreateObject();
    cJSON_AddNumberToObject(r, "batch", (double)s->batch);
    cJSON_AddNumberToObject(r, "context", (double)s->context);
    cJSON_AddNumberToObject(r, "step_s", s->step_s);
    cJSON_AddNumberToObject(r, "tokens_per_s", s->tokens_per_s);
    cJSON_AddNumberToObject(r, "tokens_per_s_per_chip", s->tokens_per_s_per_chip);
    cJSON_AddNumberToObject(r, "kv_load_s", s->kv_load_s);
    cJSON_AddNumberToObject(r, "weight_load_s", s->weight_load_s);
    cJSON_AddNumberToObject(r, "compute_s", s->compute_s);
    cJSON_AddNumberToObject(r, "attention_compute_s", s->attention_compute_s);
    cJSON_AddNumberToObject(r, "kernel_excess_s", s->kernel_excess_s);
    cJSON_AddNumberToObject(r, "weight_bytes", s->mem.weight_bytes);
    cJSON_AddNumberToObject(r, "kv_bytes", s->mem.kv_bytes);
    /* one meaning in every step row (tester7 #8): weight_bytes and kv_bytes
     * are the fully sharded copy's here and in a plan's rows (tester76
     * finding 5: add_shard_row), per chip in the _per_chip keys */
    cJSON_AddNumberToObject(r, "weight_bytes_per_chip", s->mem.weight_bytes / (double)chips);
    cJSON_AddNumberToObject(r, "kv_bytes_per_chip", s->mem.kv_bytes / (double)chips);
    cJSON_AddNumberToObject(r, "total_bytes", s->mem.total_bytes);
    cJSON_AddBoolToObject(r, "fits", s->mem.fits);
    cJSON_AddStringToObject(r, "bound", rl_bound_name(s->bound));
    cJSON_AddStringToObject(r, "mlp_bound", rl_bound_name(s->mlp_bound));
    cJSON_AddItemToArray(rows, r);
}

/* A one-copy row's values of the keys a plan's row carries (add_shard_row),
 * so that a script reads them at any --chips (fixNF #3: at --chips 1 a
 * row had no comm_s, strategy, phase, max_batch or usable_bytes_per_chip):
 * a decode step ("generate") of one fully sharded copy, "tp1" on one chip
 * ("one copy over N chips" under --ideal without a plan), no collectives
 * (comm_s 0), the header's b_crit and max_batch, the usable bytes over the
 * chips, FLOPs a chip as shard counts them (shard.c: the matmuls' 2 x
 * active parameters plus attention at the context, a token each of the
 * batch), no idle replica. */
static void add_plan_keys(cJSON *r, const rl_model *m, const rl_hw *h, const rl_step *s,
                          long long chips, long long context, rl_precision p)
{
    char name[64] = "tp1";
    if (chips > 1)
        snprintf(name, sizeof name, "one copy over %lld chips", chips);
    cJSON_AddStringToObject(r, "phase", rl_phase_name(RL_PHASE_GENERATE));
    cJSON_AddStringToObject(r, "strategy", name);
    add_bytes(r, "usable_bytes_per_chip", s->mem.capacity_bytes / (double)chips);
    cJSON_AddNumberToObject(r, "b_crit", rl_step_b_crit(m, h, p));
    cJSON_AddNumberToObject(r, "max_batch",
                            (double)rl_memory_max_batch(m, h, chips, context, p.weights, p.kv));
    double flops = m->abstract ? 0.0
                               : (double)s->batch *
                                     (rl_arch_counts_of(m).flops_per_token +
                                      rl_arch_attention_flops_per_token(m, (double)context));
    cJSON_AddNumberToObject(r, "flops_per_chip", flops / (double)chips);
    cJSON_AddNumberToObject(r, "comm_s", s->comm_s);
    cJSON_AddNumberToObject(r, "idle_replicas", 0);
    cJSON_AddNumberToObject(r, "collectives", 0);
    cJSON_AddNumberToObject(r, "latency_bound_collectives", 0);
}

/* The chip's HBM bandwidth under its canonical key hbm_bytes_per_s (info
 * --hw's; list hw's hbm_bw_bytes_per_s is an alias: README tester #2, one
 * quantity had three keys) and hbm_bw_total, the `chips` chips' together. */
static void add_hbm_bw(cJSON *o, const rl_hw *h, long long chips)
{
    cJSON_AddNumberToObject(o, "hbm_bw_total", (double)chips * h->hbm_bw);
    cJSON_AddNumberToObject(o, "hbm_bytes_per_s", h->hbm_bw);
}

/* step's and shard's token_budget_note: batch B, whose decode step batches
 * T tokens on a chip (one a sequence: B for one copy, a replica's
 * micro-batch under plan `plan`, shard.h rl_shard_step_tokens), above the
 * engine rule's workspace_tokens, the default per-step token budget
 * (max_num_tokens, max_num_batched_tokens), says an engine runs it only
 * when built for T batched tokens and that fits and the rows' usable bytes
 * charge the workspace at T (rl_memory_workspace over `group` chips
 * sharing the tensors, times `chips`; memory.h rl_memory_batch_fit; fixWD
 * finding 1b, fixXE); null when T is not above. */
static void add_token_budget_note(cJSON *o, const rl_model *m, const rl_hw *h, long long chips,
                                  long long group, long long B, double T, const char *plan)
{
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    if (!e || !rl_memory_budget_moves(h, T)) {
        cJSON_AddNullToObject(o, "token_budget_note");
        return;
    }
    char how[160] = "";
    if (plan)
        snprintf(how, sizeof how, "; under %s a step batches a replica's micro-batch, %.0f",
                 plan, T);
    rl_result_add_fmt(o, "token_budget_note",
                      "batch %lld is above %s's default per-step token budget of %.0f tokens "
                      "(a decode step batches one token a sequence%s): an engine runs it only "
                      "when built for %.0f batched tokens, whose activation workspace (%.3g GB "
                      "over the %lld chip(s), against %.3g GB at %.0f) fits and the rows' "
                      "usable bytes charge (memory.h rl_memory_batch_fit)",
                      B, e->name, e->mem.workspace_tokens, how, T,
                      (double)chips * rl_memory_workspace(m, &e->mem, group, T) / 1e9, chips,
                      (double)chips * rl_memory_workspace(m, &e->mem, group, 0) / 1e9,
                      e->mem.workspace_tokens);
}

/* token_budget_note for plan results r[0..n) at batch B: the plan whose
 * decode step batches the most tokens (rl_shard_step_tokens), its chips
 * each holding the workspace over the tp x ep x sp chips of a stage. */
static void add_plan_budget_note(cJSON *o, const rl_model *m, const rl_hw *h,
                                 const rl_shard_result *r, int n, long long B)
{
    const rl_shard_result *big = NULL;
    for (int i = 0; i < n; i++)
        if (r[i].phase == RL_PHASE_GENERATE &&
            (!big || rl_shard_step_tokens(&r[i], B) > rl_shard_step_tokens(big, B)))
            big = &r[i];
    if (!big) {
        cJSON_AddNullToObject(o, "token_budget_note");
        return;
    }
    add_token_budget_note(o, m, h, big->chips, big->plan.tp * big->plan.ep * big->plan.sp, B,
                          rl_shard_step_tokens(big, B), big->name);
}

void rl_result_plans_note(cJSON *out, cJSON *const *res, int n, const char *key)
{
    if (cJSON_IsString(cJSON_GetObjectItemCaseSensitive(out, key)))
        return;
    for (int g = 0; g < n; g++) {
        const char *t = res[g] ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(res[g], key))
                               : NULL;
        cJSON *v = t ? cJSON_CreateString(t) : NULL;
        if (v && !cJSON_ReplaceItemInObjectCaseSensitive(out, key, v))
            cJSON_Delete(v);
        if (t)
            return;
    }
}

cJSON *rl_result_step(const rl_model *m, const rl_hw *h, long long chips, const long long *batch,
                      int nbatch, long long context, rl_precision p, double kv_copies)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    add_run_header(o, rl_hw_mode(h, 1), m, h, chips);
    add_host_notes(o, m, h, 1, 0);
    add_engine_dtype_notes(o, h, p, m->abstract);
    add_mla_engine_note(o, m, h, p, 0);
    add_precision(o, p, m->abstract);
    cJSON_AddStringToObject(o, "communication",
                            "none: one fully sharded copy, no collectives (use --tp to add them)");
    cJSON_AddNumberToObject(o, "b_crit", rl_step_b_crit(m, h, p));
    cJSON_AddNumberToObject(o, "max_batch",
                            (double)rl_memory_max_batch(m, h, chips, context, p.weights, p.kv));
    rl_memory mem = rl_memory_use(m, h, chips, 0, context, p.weights, p.kv);
    add_memory(o, &mem);
    long long B = 0; /* the largest batch's step: B tokens on one copy */
    for (int i = 0; i < nbatch; i++)
        B = batch[i] > B ? batch[i] : B;
    add_token_budget_note(o, m, h, chips, chips, B, (double)B, NULL);
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    /* the rule max_batch follows, named with its source as step --chips 2+
     * names it (add_plan_memory_rule; tester fixKL #7: absent at one chip) */
    static const rl_engine_memory no_rule;
    add_memory_rule_name(o, e ? &e->mem : &no_rule);
    if (e && e->mem.present)
        cJSON_AddStringToObject(o, "memory_source", e->mem.source);
    add_hbm_bw(o, h, chips);
    cJSON_AddNumberToObject(o, "kv_bytes_per_token", rl_arch_kv_bytes_per_token(m, p.kv));
    int tables = e && e->tables && !m->abstract;
    if (tables)
        cJSON_AddStringToObject(o, "step_time", "the operator list timed by the engine's kernel "
                                "tables (step_s, tokens_per_s); the other time columns are the "
                                "formula's ideal split and kernel_excess_s the time above it");
    add_breakdown(o, 0, 1);
    cJSON *rows = cJSON_AddArrayToObject(o, "rows");
    double share = -1.0;
    outside_set far = {.at = "batch ", .ops = "ops"};
    const rl_dtype *dt = m->abstract ? NULL : RL_PLAN_DTYPES(p);
    for (int i = 0; i < nbatch; i++) {
        rl_step s = rl_step_calibrated(m, h, chips, batch[i], context, p, kv_copies);
        rl_ops ops;
        char why[512];
        int timed = tables && rl_ops_engine_step(m, h, chips, &s, p, kv_copies, NULL, &ops, why,
                                                 sizeof why);
        if (timed)
            rl_step_settle_excess(&s);
        /* an untimed row of a tabled profile: no table timed any of it */
        double row_share = tables && !timed ? 0.0 : share_of(s.table_s, s.step_s);
        if (!m->abstract)
            share = min_share(share, row_share);
        add_row(rows, &s, chips);
        cJSON *row = cJSON_GetArrayItem(rows, i);
        add_plan_keys(row, m, h, &s, chips, context, p);
        if (timed) { /* the op list that timed the row: its band, provenance, fusion */
            add_table_band(o, row, "step_s", &ops, h);
            add_provenance(row, ops.prov);
            add_row_share(row, rl_hw_mode(h, 1), h, row_share, dt);
            cJSON_AddStringToObject(row, "norm_fusion",
                                    rl_ops_norm_fusion_words(ops.norm_fusion, m));
            outside_ops(&far, h, batch[i], &ops);
        } else if (tables) {
            /* an op list refused (rl_ops_check; the CLI and Lua check the
             * same first, so only a C caller gets here): no band or
             * provenance from a list never built; the formula's time,
             * estimated, and why (it read the unbuilt list's fields) */
            add_row_share(row, rl_hw_mode(h, 1), h, row_share, dt);
            rl_result_add_fmt(row, "mode_note", "the engine's kernel tables timed no operator of this "
                    "row (its operator list was refused: %s); step_s is the formula's estimate",
                    why);
        }
    }
    add_table_share(o, h, share, dt);
    if (tables && nbatch > 0) /* the end-to-end gap (stop 42): one copy over chips */
        add_e2e_gap_note(o, h, chips, 0, "step_s",
                         nbatch == 1 ? cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(
                                           cJSON_GetArrayItem(rows, 0), "step_s"))
                                     : 0);
    if (!h->ideal) /* calibrated, as prefill's and a plan's rows (tester64 #2) */
        outside_add(o, &far, h, (size_t)nbatch);
    rl_e2e_no_band(o, m, h, NO_RESIDUALS);
    rows_take_mode(o); /* a fitted profile's retime (e2e.h rl_e2e_retime) relabels them */
    return o;
}

/* ---- sharded results (shard.h) ---------------------------------------------- */

/* One collective's keys into o: what, collective, group, bytes, per_layer
 * (when > 0), count, each_s, total_s, latency_bound, fabric, timed_by, impl
 * (the measured rows' implementation, collectives.h; "none": the model). */
static void fill_collective(cJSON *o, const char *what, const rl_comm *c, double per_layer,
                            double count)
{
    cJSON_AddStringToObject(o, "what", what);
    cJSON_AddStringToObject(o, "collective", rl_collective_name(c->kind));
    cJSON_AddNumberToObject(o, "group", (double)c->group);
    cJSON_AddNumberToObject(o, "bytes", c->bytes);
    if (per_layer > 0)
        cJSON_AddNumberToObject(o, "per_layer", per_layer);
    cJSON_AddNumberToObject(o, "count", count);
    cJSON_AddNumberToObject(o, "each_s", c->time_s);
    cJSON_AddNumberToObject(o, "total_s", count * c->time_s);
    cJSON_AddBoolToObject(o, "latency_bound", c->latency_bound);
    const char *fabric = c->nvlink ? "nvlink" : "ici"; /* the domain's, as the hw topology */
    char buf[32];
    snprintf(buf, sizeof buf, "%s%s", fabric, c->levels > 1 ? "+net" : "");
    cJSON_AddStringToObject(o, "fabric", buf);
    /* the provenance the op table prints for the same lookup (comm.h prov) */
    char sw[160]; /* why the lookup gave that provenance (collectives.h rl_coll_why) */
    snprintf(sw, sizeof sw, c->why == RL_COLL_WHY_TOWARD
                                ? "measured, extrapolated (inside the measured sizes, from the "
                                  "nearest sizes of the same algorithm toward the engine's "
                                  "algorithm switch at %.0f B)"
                                : "measured, interpolated (across the algorithm switch at %.0f B: "
                                  "no measured size runs this size's algorithm)",
             c->why_sw);
    const char *by = c->measured == 1 && (c->why == RL_COLL_WHY_TOWARD ||
                                          c->why == RL_COLL_WHY_ACROSS)
                         ? sw
                     : c->measured == 1 && c->prov == RL_PROV_INTERPOLATED
                         ? "measured, interpolated (a larger size's time: the table's "
                           "monotone envelope)"
                     : c->measured == 1 && c->prov == RL_PROV_DERIVED
                         ? "derived: the collectives table's measured time moved to this "
                           "chip's changed link figures (the link what-if rule, comm.h; "
                           "engine_source names them), not measured"
                     : c->measured == 1 && c->prov == RL_PROV_EXTRAPOLATED
                         ? "measured, extrapolated (outside the measured sizes: the "
                           "smallest size's time below, the alpha-beta fit above)"
                     : c->measured == 1 ? "measured"
                     : c->measured == 2 ? "measured domain + alpha-beta network"
                                        : "alpha-beta model";
    char floored[256]; /* comm.h: raised to the same collective measured over fewer GPUs */
    if (c->floor_gpus > 0)
        snprintf(floored, sizeof floored, "%s, raised to the measured %lld-GPU time", by,
                 c->floor_gpus);
    cJSON_AddStringToObject(o, "timed_by", c->floor_gpus > 0 ? floored : by);
    cJSON_AddStringToObject(o, "impl", c->impl);
}

static void add_collectives(cJSON *arr, const rl_shard_result *s, long long batch)
{
    for (int i = 0; i < s->ncoll; i++) {
        const rl_shard_coll *c = &s->coll[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "phase", rl_phase_name(s->phase));
        cJSON_AddStringToObject(o, "strategy", s->name);
        if (batch > 0)
            cJSON_AddNumberToObject(o, "batch", (double)batch);
        fill_collective(o, c->what, &c->c, c->per_layer, c->count);
        cJSON_AddItemToArray(arr, o);
    }
}

/* A plan's row on h; `excess`: with kernel_excess_s (step's rows; shard's
 * plans are ideal, their columns add up without it).  context: S cached
 * (generation) or the prompt (prefill), as step's rows (tester15 F-csv-1);
 * usable_bytes_per_chip: the room `fits` is judged against
 * (rl_shard_chip_room, tester15 F-mem-1; a pipeline: the heaviest stage's,
 * each stage judged in its own, shard.h rl_shard_stage_room); b_crit (step.h rl_step_b_crit)
 * and max_batch (rl_shard_max_batch), as step's header gives them for one
 * copy, null on a prefill row. */
/* A pipeline's split of m's layers over pp stages (shard.h
 * rl_shard_stage_layers under h's engine's split, rl_shard_split_of):
 * "pp_stage_layers" (each stage's layers), "pp_max_stage_layers" (the
 * largest stage, which sets the pace) and, with `note` where the stages
 * are unequal, "pp_stages_note"; nothing for pp <= 1 or an abstract model. */
static void add_stages(cJSON *o, const rl_model *m, const rl_hw *h, long long pp, int note)
{
    if (pp <= 1 || m->abstract)
        return;
    int split = rl_shard_split_of(h);
    cJSON *a = cJSON_AddArrayToObject(o, "pp_stage_layers");
    long long big = 0;
    for (long long s = 0; s < pp; s++) {
        long long k = rl_shard_stage_layers(m->layers, pp, s, split);
        big = k > big ? k : big;
        cJSON_AddItemToArray(a, cJSON_CreateNumber((double)k));
    }
    cJSON_AddNumberToObject(o, "pp_max_stage_layers", (double)big);
    if (m->layers % pp == 0 || !note)
        return;
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    char how[320];
    if (split == RL_SPLIT_TRTLLM)
        snprintf(how, sizeof how,
                 "as TensorRT-LLM splits them (engine %s; mapping.py pp_layers: %lld each, the "
                 "%lld left over one each to the first stages; vLLM gives them to the stages "
                 "before the last: the same sizes, another heaviest stage)",
                 e->name, m->layers / pp, m->layers % pp);
    else
        snprintf(how, sizeof how,
                 "as vLLM splits them (%s%s; get_pp_indices: %lld each, the %lld left over one "
                 "each to the stages before the last; TensorRT-LLM gives them to the first: the "
                 "same sizes, another heaviest stage)",
                 e ? "engine " : "no engine selected: vLLM's split taken", e ? e->name : "",
                 m->layers / pp, m->layers % pp);
    rl_result_add_fmt(o, "pp_stages_note",
            "unequal stages: %lld layers over %lld stages %s; the pipeline runs at the pace of "
            "its slowest stage: each stage runs its layers' share of the whole model's op list "
            "and collectives, the first the embedding too and the last the final norm and LM "
            "head, and a pass of m = min(batch, %lld) micro-batches takes max(the whole "
            "model's step, m x the slowest stage's) plus the %lld stage sends (simulate and "
            "size: m = %lld at every load; the largest stage's %lld layers alone would give "
            "x%.6g the whole model at m = %lld); each chip holds "
            "its stage's layers' weights and KV, the first stage's the embedding too and the "
            "last stage's the LM head (vLLM, TensorRT-LLM): weight_bytes_per_chip is the "
            "heaviest stage's, kv_bytes_per_chip the fullest stage's, and fits and max_batch "
            "each stage's own (the stage with the least room for its KV binds)",
            m->layers, pp, how, pp, pp - 1, pp, big, rl_shard_stage_scale(m, pp), pp);
}

static void add_shard_row(cJSON *rows, const rl_model *m, const rl_hw *h,
                          const rl_shard_result *s, const char *best, int excess, double b_crit,
                          int stages, rl_precision p)
{
    /* weight_bytes, kv_bytes: the whole replica's, as --ideal's rows and
     * ops' header give them (one copy of the model's weights, the KV of the
     * replica's sequences: rl_memory_use), the KV times the chips that hold
     * each token's (rl_shard_kv_layout copies, as a fitted step's rows:
     * rl_result_step_kv_layout); per chip in the _per_chip keys (tester76
     * finding 5: weight_bytes was per chip here only) */
    rl_memory whole = rl_memory_use(m, h, 1, s->replica_batch, s->context, p.weights, p.kv);
    if (!m->abstract)
        whole.kv_bytes *= rl_shard_kv_layout(m, &s->plan, s->phase == RL_PHASE_GENERATE).copies;
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "phase", rl_phase_name(s->phase));
    cJSON_AddStringToObject(r, "strategy", s->name);
    if (s->phase == RL_PHASE_GENERATE)
        cJSON_AddNumberToObject(r, "batch", (double)s->batch);
    cJSON_AddNumberToObject(r, "context", (double)s->context);
    cJSON_AddNumberToObject(r, "weight_bytes", whole.weight_bytes);
    cJSON_AddNumberToObject(r, "kv_bytes", whole.kv_bytes);
    cJSON_AddNumberToObject(r, "weight_bytes_per_chip", s->weight_bytes); /* shard.h */
    cJSON_AddNumberToObject(r, "kv_bytes_per_chip", s->kv_bytes);
    add_bytes(r, "usable_bytes_per_chip", rl_shard_chip_room(m, h, s));
    add_bytes(r, "hbm_bytes_per_chip", h->hbm_bytes); /* raw, beside usable (fixNE #3) */
    cJSON_AddBoolToObject(r, "fits", s->fits);
    if (s->phase == RL_PHASE_GENERATE) {
        cJSON_AddNumberToObject(r, "b_crit", b_crit);
        cJSON_AddNumberToObject(r, "max_batch", (double)rl_shard_max_batch(m, h, s));
    } else {
        cJSON_AddNullToObject(r, "b_crit");
        cJSON_AddNullToObject(r, "max_batch");
    }
    cJSON_AddNumberToObject(r, "flops_per_chip", s->flops);
    cJSON_AddNumberToObject(r, "weight_load_s", s->weight_load_s);
    cJSON_AddNumberToObject(r, "kv_load_s", s->kv_load_s);
    cJSON_AddNumberToObject(r, "compute_s", s->compute_s);
    cJSON_AddNumberToObject(r, "attention_compute_s", s->attention_compute_s);
    cJSON_AddNumberToObject(r, "comm_s", s->comm_s);
    if (excess)
        cJSON_AddNumberToObject(r, "kernel_excess_s", s->kernel_excess_s);
    if (excess && s->fitted) /* as step's 1D rows (e2e.c add_fitted_comm; tester29 F1) */
        cJSON_AddNumberToObject(r, "tp_excess_s", s->tp_excess_s);
    cJSON_AddNumberToObject(r, "step_s", s->step_s);
    /* as a one-chip row's (add_row): the step's tokens over step_s, so a
     * script reads it whatever the mode (README tester #2) */
    cJSON_AddNumberToObject(r, "tokens_per_s", s->tokens_per_s);
    cJSON_AddNumberToObject(r, "tokens_per_s_per_chip", s->tokens_per_s_per_chip);
    /* tester72 #7: replicas without a sequence (batch below the replicas),
     * whose chips tokens_per_s_per_chip counts all the same */
    cJSON_AddNumberToObject(r, "idle_replicas",
                            (double)(s->replicas > s->batch ? s->replicas - s->batch : 0));
    cJSON_AddNumberToObject(r, "collectives", s->ncoll);
    cJSON_AddNumberToObject(r, "latency_bound_collectives", s->latency_bound);
    if (stages) /* shard's rows; step's header holds them (rl_result_step_sharded) */
        add_stages(r, m, h, s->plan.pp, 0);
    if (best)
        cJSON_AddStringToObject(r, "best", best);
    cJSON_AddItemToArray(rows, r);
}

/* A number key, null where the value does not exist (have 0). */
static void add_number_or_null(cJSON *o, const char *key, double v, int have)
{
    if (have)
        cJSON_AddNumberToObject(o, key, v);
    else
        cJSON_AddNullToObject(o, key);
}

/* A string key, null where s is NULL. */
static void add_string_or_null(cJSON *o, const char *key, const char *s)
{
    if (s)
        cJSON_AddStringToObject(o, key, s);
    else
        cJSON_AddNullToObject(o, key);
}

/* add_number_or_null, null where v is NAN. */
static void add_or_null(cJSON *o, const char *key, double v)
{
    add_number_or_null(o, key, v, !isnan(v));
}

/* shard's limits: every key always, null where the limit does not exist
 * (shard.h rl_shard_limits), and null_reason saying why (null when every
 * limit has a value). */
static void add_limits(cJSON *o, const rl_shard_limits *l)
{
    cJSON *j = cJSON_AddObjectToObject(o, "limits");
    add_or_null(j, "w_ici_bytes_per_s", l->w_ici);
    add_or_null(j, "prefill_tp_max", l->prefill_tp_max);
    add_or_null(j, "beta", l->beta);
    add_or_null(j, "generate_tp_max", l->generate_tp_max);
    add_or_null(j, "crossover_2d_chips", l->crossover_2d);
    add_or_null(j, "mlp_comm_1d_s", l->t_1d_s);
    add_or_null(j, "mlp_comm_2d_s", l->t_2d_s);
    add_or_null(j, "latency_threshold_bytes", l->latency_bytes);
    add_or_null(j, "activation_bytes", l->activation_bytes);
    if (l->activation_latency_bound < 0)
        cJSON_AddNullToObject(j, "activation_latency_bound");
    else
        cJSON_AddBoolToObject(j, "activation_latency_bound", l->activation_latency_bound);
    /* the two terms that flag compares (comm.h rl_comm_is_latency_bound; fixNF) */
    add_or_null(j, "activation_latency_s", l->activation_latency_s);
    add_or_null(j, "activation_bandwidth_s", l->activation_bandwidth_s);
    if (*l->why)
        cJSON_AddStringToObject(j, "null_reason", l->why);
    else
        cJSON_AddNullToObject(j, "null_reason");
}

/* What shard's advice says of the `dropped` plans rl_shard_compare_why
 * could not time (the first's reason dwhy), appended to out: without a
 * link (l->w_ici NAN: limits.null_reason) they could not be timed, which
 * is not "none fits" (tester62 #4); else "N plans not timed (first ...)"
 * (tester60 #2). */
static void say_untimed(char *out, size_t n, int dropped, const char *dwhy,
                        const rl_shard_limits *l)
{
    size_t k = strlen(out);
    if (dropped <= 0 || k >= n)
        return;
    if (isnan(l->w_ici) && l->activation_bytes > 0)
        snprintf(out + k, n - k, "%s%d plan%s could not be timed without a link "
                 "(limits.null_reason; first %.400s)", k ? " " : "", dropped,
                 dropped == 1 ? "" : "s", dwhy);
    else
        snprintf(out + k, n - k, "%s%d plan%s not timed (%.400s)", k ? " " : "", dropped,
                 dropped == 1 ? "" : "s", dwhy);
}

/* Whether `roofline prefill` runs plan pl: a 1D tp/ep plan without
 * sequence parallelism or stages (param.c PREFILL takes --tp and --ep). */
static int prefill_runs(const rl_shard_plan *pl)
{
    return pl->sp <= 1 && pl->pp <= 1 && pl->layout == RL_LAYOUT_1D;
}

/* The chapter's generation limit on model parallelism into lim[256]:
 * Y < F/(B*beta) (sec. 3, Generation: 2DF/(Y W_hbm) of weights against
 * 2BD/W_ici of activations, bf16 both), and with the factor w/a named when
 * the weights and the moved activations differ in bytes (fixVE #2: fp8
 * weights printed "F/(B*beta) = 120" for F/(B*beta) = 241). */
/* Seed 000 sec. 3 ("Distributing Inference Over Multiple Accelerators",
 * Generation): Y < F/(B beta) with B the batch the model-parallel group
 * decodes, i.e. one replica's.  generate_tp_max takes B = the whole --batch
 * (the JSON limit, one replica of all the chips); a recommended plan of
 * several replicas is judged on its replica_batch, so the limit scales by
 * batch / replica_batch (fixWF: "Y < ... = 12.3" beside tp16 x2, whose
 * replicas decode 128 of 256 each and may take Y < 24.6). */
static int replica_limit(char *out, size_t n, const rl_shard_result *r, const rl_shard_limits *l)
{
    if (!r || r->replica_batch <= 0 || r->replica_batch >= r->batch)
        return 0;
    double y = l->generate_tp_max * (double)r->batch / (double)r->replica_batch;
    return snprintf(out, n, "%s's replicas decode %lld each: Y < %.3g%s", r->name, r->replica_batch,
                    y, (double)r->plan.tp >= y ? " (its tp is not, yet times fastest)" : "");
}

static const char *gen_limit(const rl_shard_limits *l, const rl_shard_result *lat,
                             const rl_shard_result *thr, char *lim, size_t n)
{
    char whole[64] = "", a[160] = "", b[160] = "";
    if (lat && replica_limit(a, sizeof a, lat, l) > 0)
        snprintf(whole, sizeof whole, ", B the whole batch of %lld on one replica", lat->batch);
    if (thr && thr != lat && strcmp(thr->name, lat ? lat->name : "") &&
        (!lat || thr->replica_batch != lat->replica_batch))
        replica_limit(b, sizeof b, thr, l);
    if (b[0] && !whole[0])
        snprintf(whole, sizeof whole, ", B the whole batch of %lld on one replica", thr->batch);
    int k;
    if (l->weight_bytes == l->act_bytes)
        k = snprintf(lim, n, "Y < F/(B*beta) = %.3g (beta = %.3g%s)", l->generate_tp_max, l->beta,
                     whole);
    else
        k = snprintf(lim, n, "Y < F*w/(B*beta*a) = %.3g (beta = %.3g; w = %g byte%s per weight, "
                     "a = %g bytes per activation value; the chapter's F/(B*beta) has w = a%s)",
                     l->generate_tp_max, l->beta, l->weight_bytes,
                     l->weight_bytes == 1 ? "" : "s", l->act_bytes, whole);
    if (k >= 0 && (size_t)k < n && (a[0] || b[0]))
        snprintf(lim + k, n - (size_t)k, "; %s%s%s", a, a[0] && b[0] ? ", " : "", b);
    return lim;
}

/* One sentence on why the best plans of a phase win; prefill's throughput
 * plan thr at its `prompts` prompts over the replicas (rl_result_shard);
 * nplans timed, nfit of them fit, `dropped` more not timed (say_untimed). */
static void explain(char *out, size_t n, const rl_shard_result *lat, const rl_shard_result *thr,
                    const rl_shard_limits *l, const rl_hw *h, int nplans, int nfit,
                    long long prompts, int dropped, const char *dwhy)
{
    char room[256], lim[512]; /* room: what `fits` was judged against (rl_shard_chip_room) */
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    /* the capacity also in GiB, the datasheet's unit (its "80GB" H100), review28 M2 */
    char cap[64];
    snprintf(cap, sizeof cap, "%.3g GB (%.4g GiB)", h->hbm_bytes * 1e-9, h->hbm_bytes / RL_GIB);
    if (e && e->mem.present)
        snprintf(room, sizeof room, "what the %s engine's memory rule leaves of %s per chip "
                 "(usable_bytes_per_chip)", e->name, cap);
    else
        snprintf(room, sizeof room, "%s per chip", cap);
    if (!lat) {
        if (nplans == 0 && dropped > 0) /* nothing timed: nothing was found not to fit */
            out[0] = '\0';
        else if (dropped > 0)
            snprintf(out, n, nplans == 1 ? "the %d timed plan does not fit in %s;"
                                         : "none of the %d timed plans fits in %s;",
                     nplans, room);
        else
            snprintf(out, n, "no strategy fits in %s", room);
        say_untimed(out, n, dropped, dwhy, l);
        return;
    }
    int pre = lat->phase == RL_PHASE_PREFILL;
    char over[96] = "", best[160];
    if (pre)
        snprintf(over, sizeof over, " (%lld prompt%s, each replica its share)", prompts,
                 prompts == 1 ? "" : "s");
    if (thr)
        snprintf(best, sizeof best, "%s, %.4g", thr->name, thr->tokens_per_s_per_chip);
    else /* prefill: its --batch prompts at once fit no plan (generation has one when lat) */
        snprintf(best, sizeof best, "none fits them at once");
    int k = snprintf(out, n,
                     "lowest %s: %s, %.3g ms (local %.3g ms: %s-bound; %d collectives %.3g ms, %d"
                     " latency-bound); most tokens/s per chip%s: %s. ",
                     pre ? "TTFT" : "TPOT", lat->name, lat->step_s * 1e3, lat->local_s * 1e3,
                     rl_bound_name(lat->bound), lat->ncoll, lat->comm_s * 1e3, lat->latency_bound,
                     over, best);
    if (k < 0 || (size_t)k >= n)
        return;
    /* fixRD #2: "lowest TTFT: tp2 sp4" sent users to `prefill --sp 4`, which
     * prefill refuses: it times one replica's tp/ep plan (param.c PREFILL) */
    int lat_off = pre && !prefill_runs(&lat->plan), thr_off = pre && thr && !prefill_runs(&thr->plan);
    if (lat_off && thr_off && !strcmp(lat->name, thr->name)) /* one plan wins both: named once
                                                                 (fixVE #3: "tp4 sp4 and tp4 sp4
                                                                 are timed") */
        thr_off = 0;
    if (lat_off || thr_off) {
        int k2 = snprintf(out + k, n - k, "%s%s%s %s timed by shard alone: `roofline prefill` "
                          "runs one replica's tp/ep plan (--tp, --ep), not sp, pp or 2d. ",
                          lat_off ? lat->name : "", lat_off && thr_off ? " and " : "",
                          thr_off ? thr->name : "", lat_off && thr_off ? "are" : "is");
        if (k2 < 0 || (size_t)(k += k2) >= n)
            return;
    }
    if (nfit < nplans) {
        int k2 = snprintf(out + k, n - k, "%d of %d plans do not fit in %s. ", nplans - nfit,
                          nplans, room);
        if (k2 < 0 || (size_t)(k += k2) >= n)
            return;
    }
    if (!(l->activation_bytes > 0))
        snprintf(out + k, n - k,
                 "An abstract model has no D or F: collectives and the chapter's limits are not"
                 " modelled.");
    else if (isnan(pre ? l->prefill_tp_max : l->generate_tp_max)) /* no link: null, not 0 */
        snprintf(out + k, n - k, "The chapter's %s limits do not apply: %s (limits.null_reason).",
                 pre ? "prefill" : "generation", l->why);
    else if (!pre && isnan(l->latency_bytes)) /* one chip */
        snprintf(out + k, n - k, "Model parallelism pays while %s; %s (limits.null_reason).",
                 gen_limit(l, lat, thr, lim, sizeof lim), l->why);
    else if (pre && l->act_bytes != 2)
        snprintf(out + k, n - k,
                 "Tensor parallelism stays compute-bound up to 2*F*W_ici/(C*a) = %.3g chips per"
                 " axis (a = %g bytes per activation value; the chapter's F*W_ici/C has a = 2);"
                 " beyond it sequence parallelism or replicas.",
                 l->prefill_tp_max, l->act_bytes);
    else if (pre)
        snprintf(out + k, n - k,
                 "Tensor parallelism stays compute-bound up to F*W_ici/C = %.3g chips per axis;"
                 " beyond it sequence parallelism or replicas.",
                 l->prefill_tp_max);
    else {
        /* the limits' flag and terms, the rows' rule (comm.h rl_comm_is_latency_bound;
         * fixNF: "below the 4.67e+03 kB latency threshold, so its collectives are
         * latency-bound" beside tp8 rows of 2.1 MB that were not) */
        char a[RL_BYTES_STR], t[RL_BYTES_STR], terms[128] = "";
        int above = l->activation_bytes > l->latency_bytes, lb = l->activation_latency_bound > 0;
        if (!isnan(l->activation_latency_s))
            snprintf(terms, sizeof terms, " (latency term %.3g us %s bandwidth term %.3g us, "
                     "each row's latency_bound rule)", l->activation_latency_s * 1e6,
                     lb ? ">" : "<=", l->activation_bandwidth_s * 1e6);
        snprintf(out + k, n - k,
                 "Model parallelism pays while %s; a [B,D]"
                 " activation of %s is %s the %s latency threshold (the largest AllReduce over"
                 " %lld chips the alpha-beta model times latency-bound), %s its AllReduce over"
                 " %lld chips is %s%s.",
                 gen_limit(l, lat, thr, lim, sizeof lim), rl_bytes_str(l->activation_bytes, a),
                 above ? "above" : "at or below", rl_bytes_str(l->latency_bytes, t), l->chips,
                 lb || above ? "so" : "yet at this size", l->chips,
                 lb ? "latency-bound" : "bandwidth-bound", terms);
    }
    say_untimed(out, n, dropped, dwhy, l);
}

#define SHARD_CAP 256

/* Key `key` of o (added with value v) moved to just after key `after`, so a
 * row reads its time keys before the throughput they give (tester75). */
static void put_after(cJSON *o, const char *after, const char *key, cJSON *v)
{
    if (!v)
        return;
    if (!cJSON_AddItemToObject(o, key, v)) {
        cJSON_Delete(v);
        return;
    }
    cJSON *it = cJSON_GetObjectItemCaseSensitive(o, after);
    for (it = it ? it->next : NULL; it && it != v;) { /* the keys between go behind v */
        cJSON *next = it->next;
        cJSON_AddItemToArray(o, cJSON_DetachItemViaPointer(o, it)); /* keeps its key */
        it = next;
    }
}

/* A prefill row of plan `one` (one prompt on one replica: its step_s the
 * TTFT, its terms and collectives that prompt's): `batch`, the --batch
 * prompts split over its replicas, and from the same plan's result among
 * rb[0..nb) at that batch batch_step_s (a replica prefilling its
 * ceil(batch / replicas) prompts at once), batch_fits, tokens_per_s (all
 * replicas' batch x context tokens over batch_step_s), tokens_per_s_per_chip
 * (that over the chips) and idle_replicas (the replicas that batch leaves
 * without a prompt: tester75, the one prompt's 7 of tp1 x8's 8 beside a
 * throughput of 16 prompts that kept all 8 busy); null where the plan does
 * not evaluate at that batch.  batch_step_s sits after step_s, before the
 * throughput it gives. */
static void add_prefill_batch(cJSON *row, const rl_shard_result *one, const rl_shard_result *rb,
                              int nb, long long batch)
{
    const rl_shard_result *b = NULL;
    for (int j = 0; j < nb && !b; j++)
        if (strcmp(rb[j].name, one->name) == 0)
            b = &rb[j];
    /* after strategy, where generation's is */
    put_after(row, "strategy", "batch", cJSON_CreateNumber((double)batch));
    put_after(row, "step_s", "batch_step_s", b ? cJSON_CreateNumber(b->step_s) : cJSON_CreateNull());
    put_after(row, "batch_step_s", "batch_fits", b ? cJSON_CreateBool(b->fits) : cJSON_CreateNull());
    cJSON_ReplaceItemInObjectCaseSensitive(
        row, "tokens_per_s", b ? cJSON_CreateNumber(b->tokens_per_s) : cJSON_CreateNull());
    cJSON_ReplaceItemInObjectCaseSensitive(
        row, "tokens_per_s_per_chip",
        b ? cJSON_CreateNumber(b->tokens_per_s_per_chip) : cJSON_CreateNull());
    cJSON_ReplaceItemInObjectCaseSensitive(
        row, "idle_replicas",
        b ? cJSON_CreateNumber((double)(b->replicas > batch ? b->replicas - batch : 0))
          : cJSON_CreateNull());
}

/* shard's memory_engine, right after its engine: the engine whose memory
 * rule judges the plans' fits (add_plan_memory_rule), "none" without one.
 * The plans are timed at the peaks (engine none), their memory is the
 * engine's (tester77 F3), and the header named only the first (fixRC #4:
 * `engine none` beside TensorRT-LLM's memory_source). */
static void add_memory_engine(cJSON *o, const rl_hw *h)
{
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    cJSON *item = cJSON_CreateString(e && e->mem.present ? e->name : "none");
    int at = 0;
    for (const cJSON *k = o->child; k && strcmp(k->string, "engine") != 0; k = k->next)
        at++;
    cJSON_AddItemToObject(o, "memory_engine", item); /* names it; then moved after engine */
    cJSON_DetachItemViaPointer(o, item);
    cJSON_InsertItemInArray(o, at + 1, item);
}

cJSON *rl_result_shard(const rl_model *m, const rl_hw *h, long long chips, long long batch,
                       long long context, rl_precision p, int overlap)
{
    cJSON *o = cJSON_CreateObject();
    rl_shard_result *res = malloc(3 * SHARD_CAP * sizeof *res);
    if (!o || !res) {
        cJSON_Delete(o);
        free(res);
        return NULL;
    }
    add_run_header(o, plan_mode(h, 0), m, h, chips);
    add_memory_engine(o, h);
    if (rl_hw_measured(h) && !h->ideal) { /* docs/model.md: ideal on a measured chip, with a note */
        int fit = h->engine_costs.present; /* tester29 F6: a fitted profile's step is fitted */
        const rl_serving_engine *e = rl_engines_selected(&h->engines);
        char mem[400] = "";
        /* tester77 F3: shard's tp8 read 77.6 GB usable, max_batch 408, step --tp 8 --ideal
         * 85.9 GB, 457: the times are ideal, the memory is the engine's */
        if (e && e->mem.present)
            snprintf(mem, sizeof mem, "; fits, usable_bytes_per_chip and max_batch keep %s's "
                     "memory rule (memory_rule, collective buffers, workspace), as step --tp N "
                     "judges them; step --tp N --ideal applies no engine rule (all HBM usable), "
                     "so its usable bytes and max_batch run higher", e->name);
        rl_result_add_fmt(o, "mode_note", "every plan is ranked by formula (1) at %s's datasheet peaks "
                "(mode ideal), not by its %s, so its times are lower bounds; "
                "step --tp N (1D plans) times one %s%s", h->name,
                fit ? "fitted engine costs" : "measured tables", fit ? "fitted" : "calibrated",
                mem);
    }
    cJSON_AddStringToObject(o, "communication", peak_plan_comm(h));
    cJSON_AddNumberToObject(o, "batch", (double)batch);
    cJSON_AddNumberToObject(o, "prefill_batch", 1);
    cJSON_AddNumberToObject(o, "context", (double)context);
    add_precision(o, p, m->abstract);
    /* the model's and KV dtype's, one for every plan (step's header has it too; tester37 F1) */
    cJSON_AddNumberToObject(o, "kv_bytes_per_token", rl_arch_kv_bytes_per_token(m, p.kv));
    cJSON_AddStringToObject(o, "overlap", overlap_text(overlap, -1)); /* pp plans among them */
    rl_shard_limits l = rl_shard_limits_of(m, h, chips, batch, p);
    add_limits(o, &l);
    add_plan_memory_rule(o, m, h, 0);
    add_shard_workspace_note(o, m, h, chips);
    cJSON *advice = cJSON_AddObjectToObject(o, "advice");
    cJSON *rows = cJSON_AddArrayToObject(o, "rows");
    cJSON *colls = cJSON_AddArrayToObject(o, "collectives");
    for (int ph = 0; ph < 2; ph++) {
        rl_shard_result *r = res + ph * SHARD_CAP;
        int bl, bt;
        /* prefill: one prompt of `context` tokens (the chapter's single-sequence case) */
        long long b = ph == RL_PHASE_PREFILL ? 1 : batch;
        int dropped;
        char dwhy[512];
        int n = rl_shard_compare_why(m, h, (rl_phase)ph, chips, b, context, p, overlap, r,
                                     SHARD_CAP, &bl, &bt, &dropped, dwhy, sizeof dwhy);
        /* prefill's throughput: the --batch prompts split over each plan's
         * replicas as generation splits its sequences, every replica
         * prefilling its share at once (tester58 #2: tp1 x8 read one prompt
         * on one of 8 replicas, 8196 tokens/s a chip where its 8 replicas
         * give 65,570); the rows' step_s stays one prompt's TTFT */
        rl_shard_result *rb = res + 2 * SHARD_CAP, *thr = bt >= 0 ? &r[bt] : NULL;
        int nb = 0;
        if (ph == RL_PHASE_PREFILL) {
            int bbl, bbt;
            nb = rl_shard_compare(m, h, RL_PHASE_PREFILL, chips, batch, context, p, overlap, rb,
                                  SHARD_CAP, &bbl, &bbt);
            thr = bbt >= 0 ? &rb[bbt] : NULL;
            bt = -1;
            for (int i = 0; thr && i < n; i++)
                if (strcmp(r[i].name, thr->name) == 0)
                    bt = i;
        }
        for (int i = 0; i < n; i++) {
            add_shard_row(rows, m, h, &r[i],
                          i == bl && i == bt ? "latency+throughput"
                          : i == bl          ? "latency"
                          : i == bt          ? "throughput"
                                             : "", 0, rl_step_b_crit(m, h, p), 1, p);
            /* every plan's own collectives (tester13 #7: `collectives` lists the
             * best plans' only, so a pp row's comm_s could not be checked); none,
             * no key (Lua would give an empty list back as an object) */
            cJSON *row = cJSON_GetArrayItem(rows, cJSON_GetArraySize(rows) - 1);
            if (ph == RL_PHASE_PREFILL) {
                add_prefill_batch(row, &r[i], rb, nb, batch);
            } else { /* its step is already the batch's: every row the same keys */
                put_after(row, "step_s", "batch_step_s", cJSON_CreateNumber(r[i].step_s));
                put_after(row, "batch_step_s", "batch_fits", cJSON_CreateBool(r[i].fits));
            }
            if (r[i].ncoll > 0)
                add_collectives(cJSON_AddArrayToObject(row, "collective_list"), &r[i], 0);
        }
        if (ph == RL_PHASE_GENERATE) /* step's note, at the plan stepping the most tokens */
            add_plan_budget_note(o, m, h, r, n, batch);
        const char *pn = rl_phase_name((rl_phase)ph);
        char key[64], why[1536];
        snprintf(key, sizeof key, "%s_latency", pn);
        cJSON_AddStringToObject(advice, key, bl >= 0 ? r[bl].name : "none fits");
        snprintf(key, sizeof key, "%s_throughput", pn);
        cJSON_AddStringToObject(advice, key, thr ? thr->name : "none fits");
        int nfit = 0;
        for (int i = 0; i < n; i++)
            nfit += r[i].fits;
        /* the untimed said, not silently left out (tester60 #2: ici_bw 0) */
        explain(why, sizeof why, bl >= 0 ? &r[bl] : NULL, thr, &l, h, n, nfit, batch, dropped,
                dwhy);
        cJSON_AddStringToObject(advice, pn, why);
        if (bl >= 0)
            add_collectives(colls, &r[bl], 0);
        if (bt >= 0 && bt != bl)
            add_collectives(colls, &r[bt], 0);
    }
    free(res);
    /* a what-if ranked at the peaks (mode ideal) is no what-if of the tables:
     * rl_e2e_no_band's "a what-if of h100-sxm's tables ... (the time is an
     * estimate)" read beside mode ideal (tester62 #4) */
    if (!m->abstract && !h->ideal && rl_hw_what_if_of(h) &&
        strcmp(plan_mode(h, 0), "ideal") == 0) {
        char nb[512];
        snprintf(nb, sizeof nb, "no band: shard ranks the plans by formula (1) at the changed "
                 "chip's datasheet figures (%.*s; mode ideal), nothing measured to take a band "
                 "from; step --tp N times one 1D plan", (int)sizeof nb / 2, h->changed);
        cJSON_AddStringToObject(o, "no_band", nb);
    }
    rl_e2e_no_band(o, m, h, "shard ranks the plans at the datasheet peaks; step --tp N times "
                            "one 1D plan with its band");
    return o;
}

/* Whether h's measurements time plan pl: calibrated, a 1D plan's replicas
 * at their calibrated step (shard.h), a pipeline's as its stages'
 * (shard.h rl_shard_pp_step_calibrated); fitted (`fit`: rl_e2e_fitted_plan), plain TP
 * replicas and their pipelines by the costs (e2e.h rl_e2e_fitted_shard, as
 * pareto; tester16 F4).  Neither times a step with its collectives
 * overlapped (rl_result_drop_overlap). */
static int plan_measured(const rl_hw *h, const rl_shard_plan *pl, int fit)
{
    return (rl_hw_measured(h) || fit) && pl->sp <= 1 && pl->layout == RL_LAYOUT_1D &&
           !pl->overlap;
}

int rl_result_drop_overlap(const rl_model *m, const rl_hw *h, rl_shard_plan *pl)
{
    rl_shard_plan added = *pl;
    added.overlap = 0;
    if (!pl->overlap || h->ideal ||
        !plan_measured(h, &added, !m->abstract && rl_e2e_fitted_plan(h, &added)))
        return 0;
    pl->overlap = 0;
    return 1;
}

/* One row of a plan's step at `batch`: calibrated (a pipeline's stages,
 * or a 1D plan) where the measurements time the plan, else rl_shard_eval. */
static int step_plan_row(const rl_model *m, const rl_hw *h, const rl_shard_plan *plan, int cal,
                         long long chips, long long batch, long long context, rl_precision p,
                         rl_shard_result *s, char *err, size_t errlen)
{
    rl_step st;
    if (cal && plan->pp > 1)
        return rl_shard_pp_step_calibrated(m, h, plan, chips, batch, context, p, s, err, errlen);
    if (cal)
        return rl_shard_step_calibrated(m, h, plan, chips, batch, context, p, &st, s, err, errlen);
    return rl_shard_eval(m, h, plan, RL_PHASE_GENERATE, chips, batch, context, p, s, err, errlen);
}

/* The one-copy step's capacity keys (add_memory) for a plan, all `chips`
 * together as ops and prefill give them (add_hbm: whole bytes a chip x
 * chips): capacity_bytes = hbm_total_bytes the raw HBM, usable_bytes =
 * usable_total_bytes the plan's usable bytes a chip with the workspace at
 * the rule's own budget x chips (rl_shard_chip_room_rule: the one-copy
 * header's at 0 tokens; a row above the budget charges its own step's,
 * usable_bytes_per_chip).  fixUE #3: a plan's step had none
 * of them, which docs/cli.md's memory keys promise. */
static void add_plan_capacity(cJSON *o, const rl_model *m, const rl_hw *h,
                              const rl_shard_result *s, long long chips)
{
    double n = (double)chips, usable = round(rl_shard_chip_room_rule(m, h, s)) * n;
    add_bytes(o, "capacity_bytes", h->hbm_bytes * n);
    add_bytes(o, "hbm_total_bytes", h->hbm_bytes * n);
    add_bytes(o, "usable_bytes", usable);
    add_bytes(o, "usable_total_bytes", usable);
}

cJSON *rl_result_step_sharded(const rl_model *m, const rl_hw *h, const rl_shard_plan *plan,
                              long long chips, const long long *batch, int nbatch,
                              long long context, rl_precision p, char *err, size_t errlen)
{
    rl_shard_result s;
    cJSON *o = cJSON_CreateObject();
    const rl_dtype *dt = m->abstract ? NULL : RL_PLAN_DTYPES(p);
    if (!o)
        return NULL;
    int fit = !m->abstract && rl_e2e_fitted_plan(h, plan);
    int cal = plan_measured(h, plan, fit);
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    int tables = cal && !fit && e && e->tables && !m->abstract; /* the kernel tables time it */
    /* the label rule of ops and prefill: a chip with no measurements reads
     * `estimated` unless --ideal asked for the peaks (h->ideal); a measured
     * chip on a plan its measurements do not time reads `ideal` (cli.c
     * notes it) (tester3 #12: tpu-v5p --tp 16 read ideal, --chips 16
     * estimated, from the same datasheet peaks) */
    add_run_header(o, plan_mode(h, cal), m, h, chips);
    add_host_notes(o, m, h, cal, 0);
    add_engine_dtype_notes(o, h, p, m->abstract);
    add_mla_engine_note(o, m, h, p, 0);
    if (fit) /* inside the fit's model, dtype and TP (spec.h rl_hw_fit_mode; tester16 F11) */
        rl_e2e_fitted_label(o, h, m->name, p, plan->tp, plan->pp);
    else {
        rl_result_untabled_note(o, h);
        rl_e2e_unfitted_label(o, h, m->abstract ? "an abstract model"
                                             : "EP, --sp, 2D sharding, a KV split other than by "
                                               "batch, --moe-attn or --overlap");
    }
    add_precision(o, p, m->abstract);
    char label[512], how[320];
    cJSON_AddStringToObject(o, "communication",
                            fit ? rl_e2e_fitted_comm_label(h, 0,
                                                           "each replica's chips", label,
                                                           sizeof label)
                            : cal ? "included: each replica's calibrated step plus its collectives"
                                  : "included: per-chip formula (1) plus collectives");
    char fitted[1024];
    rl_ec_comm_text(&h->engine_costs, 0, 0, h->collectives.present, how, sizeof how);
    snprintf(fitted, sizeof fitted, "step_s and its band (none off the fit: no_band says why) from the "
             "fitted engine costs (src/enginecost.h (E)) per replica, as step --chips tp gives "
             "them%s; kv_load_s, attention_compute_s, weight_load_s and compute_s "
             "are the calibrated step's roofline terms, kernel_excess_s the fitted step_s above "
             "them (tp_excess's share, tp_excess_s, included), comm_s the collectives %s",
             plan->pp > 1 ? " (per pass: the op list on a stage's chips, the stage sends among "
                            "its collectives, at the comm_eff but no tp_excess, as simulate --pp "
                            "times a step)" : "", how);
    if (fit)
        cJSON_AddStringToObject(o, "fitted", fitted);
    cJSON_AddStringToObject(o, "overlap", overlap_text(plan->overlap, plan->pp));
    add_plan_memory_rule(o, m, h, plan->tp * plan->ep * plan->sp);
    add_breakdown(o, plan->overlap, plan->pp);
    add_stages(o, m, h, plan->pp, 1);
    cJSON *rows = cJSON_AddArrayToObject(o, "rows");
    cJSON *colls = cJSON_AddArrayToObject(o, "collectives");
    double share = -1.0;
    outside_set far = {.at = "batch ", .ops = "ops"};
    for (int i = 0; i < nbatch; i++) {
        if (step_plan_row(m, h, plan, cal, chips, batch[i], context, p, &s, err, errlen) != 0) {
            cJSON_Delete(o);
            return NULL;
        }
        /* the slowest replica's step (fixUE #2: shard.h rl_shard_slowest_share);
         * fitted costs grow with the batch, so there the larger share is it */
        long long lo = s.replicas > 1 ? batch[i] / s.replicas : 0;
        rl_shard_result f;
        if (!fit && lo >= 1 && batch[i] % s.replicas != 0) {
            if (step_plan_row(m, h, plan, cal, chips, lo * s.replicas, context, p, &f, err,
                              errlen) != 0) {
                cJSON_Delete(o);
                return NULL;
            }
            rl_shard_slowest_share(&s, &f);
        }
        if (fit && rl_e2e_fitted_shard(m, h, p, &s) != 0) {
            snprintf(err, errlen, "%s's fitted engine costs do not time %s", h->name, s.name);
            cJSON_Delete(o);
            return NULL;
        }
        if (fit && rl_e2e_fitted_band(o, m, h, p, &s, err, errlen) != 0) {
            cJSON_Delete(o);
            return NULL;
        }
        if (i == 0) {
            cJSON_AddStringToObject(o, "sharding", s.name);
            cJSON_AddNumberToObject(o, "replicas", (double)s.replicas);
            /* the keys of step's header without a plan, so a script reads
             * them whatever the flags (tester37 F1): the model's and KV
             * dtype's bytes a token, and the plan's b_crit and max_batch
             * (each row repeats them: they depend on the plan and the
             * context, not the row's batch) */
            cJSON_AddNumberToObject(o, "b_crit", rl_step_b_crit(m, h, p));
            cJSON_AddNumberToObject(o, "max_batch", (double)rl_shard_max_batch(m, h, &s));
            add_plan_capacity(o, m, h, &s, chips);
            add_hbm_bw(o, h, chips);
            cJSON_AddNumberToObject(o, "kv_bytes_per_token", rl_arch_kv_bytes_per_token(m, p.kv));
        }
        add_shard_row(rows, m, h, &s, NULL, 1, rl_step_b_crit(m, h, p), 0, p);
        add_band(o, cJSON_GetArrayItem(rows, i), "step_s", s.band_s, cal && s.banded, h);
        if (tables) { /* as the one-chip rows: the replica's (a stage's) op list */
            add_provenance(cJSON_GetArrayItem(rows, i), s.prov);
            add_row_share(cJSON_GetArrayItem(rows, i),
                          cJSON_GetObjectItemCaseSensitive(o, "mode")->valuestring, h,
                          m->abstract ? -1.0 : share_of(s.table_s, s.step_s), dt);
        }
        if (tables && s.norm_fusion > 0) /* the replica's op list timed the row */
            cJSON_AddStringToObject(cJSON_GetArrayItem(rows, i), "norm_fusion",
                                    rl_ops_norm_fusion_words(s.norm_fusion - 1, m));
        add_collectives(colls, &s, batch[i]);
        if (!m->abstract)
            share = min_share(share, share_of(s.table_s, s.step_s));
        if (tables && i == nbatch - 1) /* the end-to-end gap (stop 42): its TP's */
            add_e2e_gap_note(o, h, plan->tp, 0, "step_s", nbatch == 1 ? s.step_s : 0);
        if (cal && !fit) {
            outside_row_at(&far, batch[i], tables ? s.prov[RL_PROV_EXTRAPOLATED] : 0);
            for (int c = 0; c < s.ncoll; c++)
                outside_comm(&far, h, &s.coll[c].c);
        }
    }
    long long big = 0; /* the largest batch's step, as step's one copy (fixXE) */
    for (int i = 0; i < nbatch; i++)
        big = batch[i] > big ? batch[i] : big;
    add_plan_budget_note(o, m, h, &s, nbatch > 0, big);
    add_table_share(o, h, share, dt);
    if (!h->ideal) /* as pareto's key and note (tester64 #2); null where no table timed it */
        outside_add(o, &far, h, (size_t)nbatch);
    rl_e2e_no_band(o, m, h, cal ? NO_RESIDUALS : "the plan is timed at the roofline: the "
                                                 "measurements time 1D tp/ep plans without --sp "
                                                 "or --overlap");
    rows_take_mode(o);
    return o;
}

/* What one chip of c's TP/EP plan (rl_ops_plan) holds, as step --tp judges
 * it (shard.c eval_pass: the plan's stored weights a chip, its KV under the
 * plan's layout, rl_shard_kv_layout, against rl_shard_chip_room): *w, *kv
 * and *room per chip for dec_b sequences at dec_s plus pre_b prompts of
 * pre_s tokens (a prompt's KV as prefill lays it out: replicated beyond
 * the heads).  Returns 0, or -1 when the plan does not evaluate (ops has
 * checked it: not expected). */
static int plan_hbm(const rl_model *m, const rl_hw *h, const rl_ops_config *c, long long dec_b,
                    long long dec_s, long long pre_b, long long pre_s, double *w, double *kv,
                    double *room)
{
    rl_shard_plan pl = rl_ops_plan(c);
    const long long b[2] = {dec_b, pre_b}, s[2] = {dec_s, pre_s};
    const rl_phase ph[2] = {RL_PHASE_GENERATE, RL_PHASE_PREFILL};
    char err[256];
    *kv = 0;
    *w = -1;
    for (int i = 0; i < 2; i++) {
        rl_shard_result r;
        if (b[i] < 1)
            continue;
        if (rl_shard_eval(m, h, &pl, ph[i], c->chips, b[i], s[i], c->prec, &r, err, sizeof err) !=
            0)
            return -1;
        *w = r.weight_bytes;
        *kv += r.kv_bytes;
        *room = rl_shard_chip_room(m, h, &r);
    }
    return *w < 0 ? -1 : 0;
}

/* The HBM the chips of c hold: all weights plus the KV of dec_b sequences
 * at dec_s and pre_b at pre_s, against the chips' capacity:
 * hbm_weight_bytes, hbm_kv_bytes, hbm_capacity_bytes, fits.  Without a
 * TP/EP plan memory.h's fully sharded view (as step's rows without --tp);
 * with one, step --tp's per-chip rule (plan_hbm: tester39 F1, ops counted
 * one copy of a replicated KV cache against all chips' HBM and said a batch
 * fits that step said did not): weight_bytes_per_chip, kv_bytes_per_chip
 * and usable_bytes_per_chip as step's rows name them, the hbm_ totals those
 * x chips, and fits judged per chip. */
static void add_hbm(cJSON *o, const rl_model *m, const rl_hw *h, const rl_ops_config *c,
                    long long dec_b, long long dec_s, long long pre_b, long long pre_s)
{
    rl_memory d = rl_memory_use(m, h, c->chips, dec_b, dec_s, c->prec.weights, c->prec.kv);
    rl_memory p = rl_memory_use(m, h, c->chips, pre_b, pre_s, c->prec.weights, c->prec.kv);
    double w = d.weight_bytes, kv = d.kv_bytes + p.kv_bytes, cap = d.capacity_bytes;
    double cw, ckv, croom;
    int fits = w + kv <= cap;
    if ((c->tp > 1 || c->ep > 1) && !m->abstract &&
        plan_hbm(m, h, c, dec_b, dec_s, pre_b, pre_s, &cw, &ckv, &croom) == 0) {
        /* whole bytes per chip, the totals those x chips exactly (tester46
         * F4: hbm_capacity_bytes read 629628377497.6 beside 8 x 78703547187) */
        double n = (double)c->chips;
        fits = cw + ckv <= croom;
        w = round(cw) * n;
        kv = round(ckv) * n;
        cap = round(croom) * n;
        add_bytes(o, "weight_bytes_per_chip", cw);
        add_bytes(o, "kv_bytes_per_chip", ckv);
        add_bytes(o, "usable_bytes_per_chip", croom);
        add_bytes(o, "hbm_bytes_per_chip", h->hbm_bytes); /* raw, beside usable (fixNE #3) */
    }
    add_bytes(o, "hbm_weight_bytes", w);
    add_bytes(o, "hbm_kv_bytes", kv);
    /* hbm_capacity_bytes is the usable total (the engine's memory rule,
     * per chip x chips), kept as it was named (contract); tester77 F4 read
     * it as raw HBM beside step --ideal's capacity_bytes: both spelt out */
    add_bytes(o, "hbm_capacity_bytes", cap);
    add_bytes(o, "usable_total_bytes", cap);
    add_bytes(o, "hbm_total_bytes", d.hbm_bytes);
    cJSON_AddBoolToObject(o, "fits", fits);
}

/* Whether an ops or prefill run is in mode "mfu": --mfu F given, 1
 * included (tester101: --mfu 1 read mode "ideal", the label of --ideal's
 * fully sharded chips without collectives, while it keeps the plan and its
 * collectives, 224.0 ms on four tpu-v5e where --ideal reads 176.3 ms). */
static int mfu_mode(const rl_ops_config *c) { return c->mfu > 0; }

/* ttft: the result reports TTFTs (prefill), not steps (ops) */
static void add_ops_header(cJSON *o, const rl_model *m, const rl_hw *h, const rl_ops_config *c,
                           int ttft)
{
    add_run_header(o, mfu_mode(c) ? "mfu" : rl_hw_mode(h, c->calibrated), m, h,
                   c->chips);
    add_host_notes(o, m, h, c->calibrated && !(mfu_mode(c)), ttft);
    add_engine_dtype_notes(o, h, c->prec, m->abstract);
    if (c->decode_batch > 0) /* a decode batch's attention (ops; prefill has none) */
        add_mla_engine_note(o, m, h, c->prec, 0);
    add_precision(o, c->prec, m->abstract);
    cJSON_AddStringToObject(o, "act", rl_dtype_name(c->act));
    cJSON_AddStringToObject(o, "attention_impl", c->materialized ? "materialized" : "fused");
    const rl_serving_engine *e = c->calibrated ? rl_engines_selected(&h->engines) : NULL;
    int tabled = e && e->tables, mat = c->materialized && m->attention != RL_ATTN_MLA;
    int nc = c->non_causal && c->prefill_seqs > 0; /* the prompt's attention, not decode's */
    if (tabled && (mat || nc)) /* docs/model.md, "Labels of moved times" */
        cJSON_AddStringToObject(
            o, "attention_timed_by",
            mat && nc ? "the kernel table's fused causal attention, scaled to all query-key pairs "
                        "(non-causal), plus the score matrix's HBM write and reads at the "
                        "roofline (both not measured, provenance derived; not table time)"
            : mat ? "the kernel table's fused attention plus the score matrix's HBM write and "
                    "reads at the roofline (not measured, provenance derived; not table time)"
                  : "the kernel table's causal attention, scaled to all query-key pairs "
                    "(non-causal): the pairs beyond causal not measured, provenance derived; "
                    "not table time");
    /* what was used: decode attends to every cached key, causal or not
     * (tester62 #5: decode --non-causal read causal false, timed causal) */
    cJSON_AddBoolToObject(o, "causal", !nc);
    if (mfu_mode(c))
        cJSON_AddNumberToObject(o, "mfu", c->mfu);
    char plan[96];
    if (c->tp > 1 || c->ep > 1) {
        int k = snprintf(plan, sizeof plan, "tp%lld", c->tp > 1 ? c->tp : 1);
        if (c->ep > 1)
            k += snprintf(plan + k, sizeof plan - (size_t)k, " ep%lld", c->ep);
        snprintf(plan + k, sizeof plan - (size_t)k, ": included, the plan's collectives");
    } else
        snprintf(plan, sizeof plan, "none: %s", c->chips > 1 ? "fully sharded chips, no collectives "
                                                               "(--tp adds them)"
                                                             : "one chip");
    cJSON_AddStringToObject(o, "communication", plan);
}

cJSON *rl_result_ops(const rl_model *m, const rl_hw *h, const rl_ops_config *c)
{
    char err[256];
    return rl_result_ops_err(m, h, c, err, sizeof err);
}

cJSON *rl_result_ops_err(const rl_model *m, const rl_hw *h, const rl_ops_config *c, char *err,
                         size_t errlen)
{
    rl_ops ops;
    err[0] = '\0';
    if (rl_ops_build(m, h, c, &ops, err, errlen) != 0)
        return NULL;
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    /* a step of prompts alone (--phase prefill) is each one's TTFT with the
     * engine's prefill dispatch (ops.h rl_ops_prefill_dispatch), a host cost
     * per request outside the step, as simulate charges it: step_s stays the
     * step, ttft_s adds it (tester54 F2: ops read 75.9 ms where prefill read
     * 139.9 ms, vLLM's 64 ms unsaid) */
    int ttft = c->prefill_seqs > 0 && c->decode_batch == 0 && !h->engine_costs.present;
    add_ops_header(o, m, h, c, ttft);
    if (c->calibrated) { /* a fitted engine's costs are per step: ops lists operators (tester29 F8) */
        rl_result_untabled_note(o, h);
        rl_e2e_unfitted_label(o, h, "ops's operator list, each operator at its roofline or "
                                    "kernel-table time; step and prefill apply them per step");
    }
    /* the step's phase, as --phase names it (docs/cli.md's ops table gives
     * --phase the key; tester91 #3: a saved ops JSON did not say it):
     * prompts beside a decode batch are a mixed step (ops.h rl_ops_config_phase) */
    int prompts = c->prefill_seqs > 0 || c->nparts > 0;
    cJSON_AddStringToObject(o, "phase", !prompts ? "decode" : c->decode_batch ? "mixed" : "prefill");
    cJSON_AddNumberToObject(o, "prefill_seqs", (double)c->prefill_seqs);
    cJSON_AddNumberToObject(o, "tokens", (double)c->prefill_tokens);
    cJSON_AddNumberToObject(o, "prefix", (double)c->prefill_prefix);
    /* batch: the sequences of the step, as --batch asked: the decode batch,
     * or in a step of prompts alone the prompts (prefill_seqs, the parts'
     * sum) (fixRC #3: ops --phase prefill --batch 4 read batch 0) */
    long long seqs = c->decode_batch ? c->decode_batch : c->nparts ? 0 : c->prefill_seqs;
    for (int i = 0; c->decode_batch == 0 && i < c->nparts; i++)
        seqs += c->parts[i].seqs;
    cJSON_AddNumberToObject(o, "batch", (double)seqs);
    cJSON_AddNumberToObject(o, "context", (double)c->decode_context);
    cJSON_AddNumberToObject(o, "flops", ops.flops);
    add_bytes(o, "weight_bytes", ops.weight_bytes); /* whole bytes (tester46 F4) */
    add_bytes(o, "act_bytes", ops.act_bytes);
    add_bytes(o, "kv_read_bytes", ops.kv_read);
    add_bytes(o, "kv_write_bytes", ops.kv_write);
    cJSON_AddNumberToObject(o, "compute_s", ops.compute_s);
    cJSON_AddNumberToObject(o, "memory_s", ops.memory_s);
    cJSON_AddNumberToObject(o, "comm_s", ops.comm_s);
    cJSON_AddNumberToObject(o, "step_s", ops.step_s);
    cJSON_AddNumberToObject(o, "tokens_per_s", ops.tokens / ops.step_s);
    double peak = (double)c->chips * rl_hw_peak(h, c->prec.compute);
    cJSON_AddNumberToObject(o, "achieved_mfu", ops.flops / (ops.step_s * peak));
    cJSON_AddNumberToObject(o, "engine_s", ops.engine_s);
    if (ttft) {
        double d = rl_ops_prefill_dispatch(m, h, c);
        cJSON_AddNumberToObject(o, "prefill_dispatch_s", d);
        cJSON_AddNumberToObject(o, "ttft_s", ops.step_s + d);
    }
    add_provenance(o, ops.prov);
    cJSON_AddStringToObject(o, "norm_fusion", rl_ops_norm_fusion_words(ops.norm_fusion, m));
    add_table_share(o, h, rl_ops_table_share(&ops),
                    m->abstract ? NULL : RL_PLAN_DTYPES(c->prec));
    add_hbm(o, m, h, c, c->decode_batch, c->decode_context, c->prefill_seqs,
            c->prefill_prefix + c->prefill_tokens);
    cJSON *rows = cJSON_AddArrayToObject(o, "rows");
    for (int i = 0; i < ops.n; i++) {
        const rl_op *op = &ops.op[i];
        cJSON *r = cJSON_CreateObject();
        double bytes = op->weight_bytes + op->act_read + op->act_write + op->kv_read + op->kv_write;
        cJSON_AddStringToObject(r, "op", op->name);
        cJSON_AddStringToObject(r, "kind", rl_op_kind_name(op->kind));
        cJSON_AddNumberToObject(r, "layers", op->layers);
        cJSON_AddNumberToObject(r, "tokens", op->tokens);
        cJSON_AddNumberToObject(r, "flops", op->flops);
        add_bytes(r, "weight_bytes", op->weight_bytes);
        add_bytes(r, "act_bytes", op->act_read + op->act_write);
        add_bytes(r, "kv_bytes", op->kv_read + op->kv_write);
        /* one chip's part of the replica's figures above (ops.h: every op is
         * spread over c->chips chips, its time that of one of them; a
         * tensor every chip holds or runs whole counted once per chip in
         * them, ops.c tp_copies, gain_copies, replicated), so
         * the table's bytes / time_ms is a chip's own bandwidth (tester58 #1:
         * lm_head's 2.10 GB in 93.6 us read as 22 TB/s on a 3.35 TB/s chip);
         * the table shows these and hides the group's (report.c table_hides) */
        double per = 1.0 / (double)c->chips;
        cJSON_AddNumberToObject(r, "flops_per_chip", op->flops * per);
        cJSON_AddNumberToObject(r, "weight_bytes_per_chip", op->weight_bytes * per);
        cJSON_AddNumberToObject(r, "act_bytes_per_chip", (op->act_read + op->act_write) * per);
        cJSON_AddNumberToObject(r, "kv_bytes_per_chip", (op->kv_read + op->kv_write) * per);
        if (bytes > 0)
            cJSON_AddNumberToObject(r, "intensity", op->intensity);
        else
            cJSON_AddNullToObject(r, "intensity");
        cJSON_AddStringToObject(r, "bound", op->kind != RL_OP_COMM ? rl_bound_name(op->t.bound)
                                            : op->comm.latency_bound ? "latency"
                                                                     : "bandwidth");
        if (op->kind == RL_OP_WEIGHT && op->b_crit > 0)
            cJSON_AddNumberToObject(r, "b_crit", op->b_crit);
        else
            cJSON_AddNullToObject(r, "b_crit");
        cJSON_AddNumberToObject(r, "time_s", op->t.time_s);
        cJSON_AddNumberToObject(r, "total_s", op->layers * op->t.time_s);
        cJSON_AddNumberToObject(r, "share", op->layers * op->t.time_s / ops.step_s);
        cJSON_AddStringToObject(r, "provenance", rl_provenance_name(op->prov));
        cJSON_AddItemToArray(rows, r);
    }
    if (ops.comm_s > 0 || c->tp > 1 || c->ep > 1) {
        cJSON *colls = cJSON_AddArrayToObject(o, "collectives");
        for (int i = 0; i < ops.n; i++)
            if (ops.op[i].kind == RL_OP_COMM) {
                cJSON *r = cJSON_CreateObject();
                fill_collective(r, ops.op[i].name, &ops.op[i].comm, 0, ops.op[i].layers);
                cJSON_AddItemToArray(colls, r);
            }
    }
    if (mfu_mode(c)) /* mode mfu: its reason, --ideal or not (tester91 #9) */
        rl_e2e_no_band_as_mode(o, MFU_NO_BAND);
    rl_e2e_no_band(o, m, h, "ops lists each operator's time; step and prefill carry the "
                            "whole step's band");
    return o;
}

/* prefill's KV layout beyond the K heads of c's plan (review finding 2:
 * prefill named none): kv_split and kv_split_source, as step's
 * (rl_result_kv_split).  A prompt's K/V are projected on every chip of
 * its head, so each KV head sits on tp / K chips (shard.h rl_kv_layout:
 * prefill has no split beyond the heads; add_hbm holds those copies);
 * under attention data parallel each chip holds its own prompts whole. */
static void add_prefill_kv_split(cJSON *o, const rl_ops_config *c)
{
    rl_shard_plan pl = rl_ops_plan(c);
    if (rl_shard_attn_dp(&pl)) {
        rl_result_kv_split(o, &pl, 0, 0);
        return;
    }
    cJSON_AddStringToObject(o, "kv_split", rl_kv_split_name(RL_KV_REPLICATE));
    cJSON_AddStringToObject(o, "kv_split_source",
                            "prefill: each KV head replicated beyond K chips (every chip of a "
                            "head projects the prompt's K/V, as vLLM and TensorRT-LLM under plain "
                            "TP; docs/model.md); step and ops --kv-split split the decode cache");
}

cJSON *rl_result_prefill(const rl_model *m, const rl_hw *h, const rl_ops_config *c,
                         const long long *tokens, int ntokens, long long chunk)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    add_ops_header(o, m, h, c, 1);
    cJSON_AddNumberToObject(o, "prefix", (double)c->prefill_prefix);
    if (chunk > 0)
        cJSON_AddNumberToObject(o, "chunk", (double)chunk);
    double peak = (double)c->chips * rl_hw_peak(h, c->prec.compute);
    cJSON *rows = cJSON_AddArrayToObject(o, "rows");
    double share = -1.0, dispatch_max = 0; /* the largest share of a TTFT its dispatch is */
    outside_set far = {.at = "tokens ", .ops = "ops"};
    for (int i = 0; i < ntokens; i++) {
        rl_ops_config p = *c;
        p.prefill_seqs = 1;
        p.prefill_tokens = tokens[i];
        p.decode_batch = 0;
        rl_ops ops;
        char err[256];
        if (rl_ops_build(m, h, &p, &ops, err, sizeof err) != 0) {
            cJSON_Delete(o);
            return NULL;
        }
        /* one request's TTFT: its step and the engine's dispatch, once (ops.h);
         * the share is the step's, as in ops and simulate: the dispatch is a
         * per-request host constant outside every step (docs/model.md,
         * tester4 #9: vLLM's 2000-token prefill read estimated here only) */
        double d = rl_ops_prefill_dispatch(m, h, c), ttft = ops.step_s + d;
        dispatch_max = fmax(dispatch_max, ttft > 0 ? d / ttft : 0);
        double row_share = share_of(ops.table_s, ops.step_s);
        share = min_share(share, row_share);
        for (int q = 0; q < 4; q++)
            ops.band_s[q] += d;
        cJSON *r = cJSON_CreateObject();
        cJSON_AddNumberToObject(r, "tokens", (double)tokens[i]);
        cJSON_AddNumberToObject(r, "prefix", (double)c->prefill_prefix);
        cJSON_AddNumberToObject(r, "ttft_s", ttft);
        add_table_band(o, r, "ttft_s", &ops, h);
        if (chunk > 0)
            cJSON_AddNumberToObject(r, "chunked_s",
                                    rl_ops_chunked_prefill_time(m, h, c, tokens[i],
                                                                c->prefill_prefix, chunk));
        cJSON_AddNumberToObject(r, "flops", ops.flops);
        cJSON_AddNumberToObject(r, "achieved_mfu", ops.flops / (ttft * peak));
        cJSON_AddNumberToObject(r, "tokens_per_s", (double)tokens[i] / ttft);
        cJSON_AddNumberToObject(r, "prefill_dispatch_s", d);
        add_provenance(r, ops.prov);
        add_row_share(r, cJSON_GetObjectItemCaseSensitive(o, "mode")->valuestring, h, row_share,
                      m->abstract ? NULL : RL_PLAN_DTYPES(c->prec));
        add_hbm(r, m, h, c, 0, 0, 1, c->prefill_prefix + tokens[i]);
        cJSON_AddItemToArray(rows, r);
        if (c->calibrated) /* as step's rows (tester64 #2) */
            outside_ops(&far, h, tokens[i], &ops);
    }
    add_table_share(o, h, share, m->abstract ? NULL : RL_PLAN_DTYPES(c->prec));
    add_dispatch_caution(o, dispatch_max);
    if (c->calibrated && !(mfu_mode(c)) && ntokens > 0) /* stop 42 */
        add_e2e_gap_note(o, h, c->tp > 1 ? c->tp : c->chips, 1, "ttft_s",
                         ntokens == 1 ? cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(
                                            cJSON_GetArrayItem(rows, 0), "ttft_s"))
                                      : 0);
    if (c->calibrated)
        outside_add(o, &far, h, (size_t)ntokens);
    if (mfu_mode(c)) /* mode mfu: its reason, --ideal or not (tester91 #9) */
        rl_e2e_no_band_as_mode(o, MFU_NO_BAND);
    rl_e2e_no_band(o, m, h, c->calibrated ? NO_RESIDUALS : "the ideal roofline");
    if (c->tp > 1 || c->ep > 1) /* the prompt's KV layout, as step names its own */
        add_prefill_kv_split(o, c);
    return o;
}

/* What of precision p the selected engine's kernel tables do not measure,
 * so the ops are derived from the nearest measured variant (engines.h
 * rl_engine_derived, as step's stderr note and its rows' provenance say it),
 * into buf: "" when nothing is, or there are no tables. */
static const char *derived_text(const rl_model *m, const rl_hw *h, rl_precision p, char *buf,
                                size_t n)
{
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    buf[0] = '\0';
    if (!e || !e->tables || m->abstract)
        return buf;
    rl_dtype gw = p.weights, gc = p.compute;
    rl_arch_dense_gemm(m, &gw, &gc);
    int d = rl_engine_derived(e->tables, m->attention == RL_ATTN_MLA, gw, p.kv, gc);
    int k = 0;
    if (d & RL_DERIVED_GEMM)
        k = snprintf(buf, n, "GEMM of %s weights x %s compute", rl_dtype_name(gw),
                     rl_dtype_name(gc));
    int mla = m->attention == RL_ATTN_MLA;
    if (d & RL_DERIVED_KV) /* an MLA model's own tables (tester56 F3) */
        k += snprintf(buf + k, n - (size_t)k, "%s%s%s%s", k ? "; " : "",
                      mla ? "MLA attention at a " : "", rl_dtype_name(p.kv),
                      mla ? " KV cache" : " KV-cache attention");
    if (rl_ops_moe_from_gemm(m, h, &p) && k < (int)n) /* tester56 F1: as step's note */
        snprintf(buf + k, n - (size_t)k, "%srouted experts from the dense GEMM table (no MoE "
                 "kernel)", k ? "; " : "");
    return buf;
}

/* Point p's own mode and table-time share, as step's --batch rows carry
 * them (tester54 F1: a sweep reads `estimated` as a whole when one point
 * does), and what of its precision is derived ("none": nothing): a
 * calibrated sweep's; a fitted sweep's mode is its precision's label on the
 * fit (spec.h rl_hw_fit_mode) and its share null (its times are the fitted
 * costs', no table's). */
/* A fitted point's label, as step --chips tp (--pp pp) labels its plan:
 * spec.h rl_hw_fit_mode at the point's model, dtypes, TP and pipeline;
 * why (n > 0) gets its fitted_outside.  The one rule of a fitted sweep's
 * rows, their ttft_mode and its header (tester63 #1: the rows and the
 * header passed TP 0, so the tp4 rows of a profile fitted on tp 1-2 read
 * fitted where step --chips 4 reads estimated). */
static const char *point_fit_mode(const rl_model *m, const rl_hw *h, const rl_sweep_point *p,
                                  char *why, size_t n)
{
    return rl_hw_fit_mode(h, 1, m->name, p->prec.weights, p->prec.kv, p->prec.compute, p->tp,
                          p->pp > 1 ? p->pp : 1, why, n);
}

static void add_point_mode(cJSON *r, const rl_sweep *s, const rl_sweep_point *p,
                           const rl_model *m, const rl_hw *h)
{
    if (s->fitted) {
        /* its own TP and pipeline (point_fit_mode; review47: pareto's tp2
         * pp4 row read fitted where step --tp 2 --pp 4 reads estimated) */
        const char *mode = point_fit_mode(m, h, p, NULL, 0);
        cJSON_AddStringToObject(r, "mode", mode);
        cJSON_AddNullToObject(r, "table_time_share");
        /* ttft_s's prefill is the plan's, timed by the same costs at the
         * same TP (sweep.c fitted_ttft): prefill --chips tp's label, as
         * pareto's help promises every row (tester63 #1: fitted rows had
         * none) */
        if (p->ttft_s >= 0)
            cJSON_AddStringToObject(r, "ttft_mode", mode);
        return;
    }
    if (!s->calibrated) {
        /* fixIL #3: a row timed at the datasheet figures says so as a
         * calibrated row does (tpu-v5e's rows had no mode beside the
         * header's estimated): the header's rule (sweep_mode) with no
         * tables, so no share */
        const char *mode = s->sharded ? plan_mode(h, 0) : "ideal";
        cJSON_AddStringToObject(r, "mode", mode);
        cJSON_AddNullToObject(r, "table_time_share");
        if (p->ttft_s >= 0)
            cJSON_AddStringToObject(r, "ttft_mode", mode);
        return;
    }
    if (m->abstract)
        return;
    add_row_share(r, plan_mode(h, 1), h, share_of(p->table_s, p->step_s), RL_PLAN_DTYPES(p->prec));
    char d[256];
    cJSON_AddStringToObject(r, "derived", *derived_text(m, h, p->prec, d, sizeof d) ? d : "none");
    /* tester56 F1: mode and table_time_share are the decode step's; ttft_s's
     * prefill reads its own, as `prefill` at the plan labels it */
    if (p->ttft_s >= 0 && p->ttft_share >= 0)
        cJSON_AddStringToObject(r, "ttft_mode", rl_run_mode(plan_mode(h, 1), h, p->ttft_share,
                                                            RL_PLAN_DTYPES(p->prec)));
}

static void add_point(cJSON *rows, const rl_sweep *s, const rl_sweep_point *p, const rl_model *m,
                      const rl_hw *h, int priced)
{
    int abstract = m->abstract;
    cJSON *r = cJSON_CreateObject();
    cJSON_AddNumberToObject(r, "chips", (double)p->chips);
    int sharded = s->sharded;
    cJSON_AddStringToObject(r, "layout", rl_sweep_name(s, p->layout));
    if (sharded) { /* the plan by its figures (fixXB #1), as step --chips N's rows */
        cJSON_AddNumberToObject(r, "tp", (double)p->tp);
        /* tp x ep x pp x replicas + idle_chips = chips (tester102 #3); a
         * prefill plan's sp splits the replicas (prefill_layout) */
        cJSON_AddNumberToObject(r, "ep", (double)p->ep);
        cJSON_AddNumberToObject(r, "pp", (double)p->pp);
        cJSON_AddNumberToObject(r, "replicas", (double)p->replicas);
        cJSON_AddNumberToObject(r, "idle_chips", (double)p->idle_chips);
    }
    cJSON_AddNumberToObject(r, "batch", (double)p->batch);
    cJSON_AddNumberToObject(r, "context", (double)p->context);
    add_precision(r, p->prec, abstract);
    cJSON_AddNumberToObject(r, "step_s", p->step_s);
    if (p->ttft_s >= 0)
        cJSON_AddNumberToObject(r, "ttft_s", p->ttft_s);
    else
        cJSON_AddNullToObject(r, "ttft_s");
    if (sharded)
        cJSON_AddStringToObject(r, "prefill_layout", rl_sweep_name(s, p->prefill_layout));
    cJSON_AddNumberToObject(r, "tokens_per_s", p->tokens_per_s);
    cJSON_AddNumberToObject(r, "chip_s_per_token", p->chip_s_per_token);
    if (priced)
        cJSON_AddNumberToObject(r, "usd_per_mtok", p->usd_per_mtok);
    cJSON_AddNumberToObject(r, "weight_load_s", p->weight_load_s);
    cJSON_AddNumberToObject(r, "kv_load_s", p->kv_load_s);
    cJSON_AddNumberToObject(r, "compute_s", p->compute_s);
    cJSON_AddNumberToObject(r, "attention_compute_s", p->attention_compute_s);
    if (sharded) {
        cJSON_AddNumberToObject(r, "comm_s", p->comm_s);
        cJSON_AddNumberToObject(r, "kernel_excess_s", p->kernel_excess_s);
    }
    if (s->fitted) /* as step's and its plans' rows (e2e.c fitted_tp_excess) */
        cJSON_AddNumberToObject(r, "tp_excess_s", p->tp_excess_s);
    cJSON_AddNumberToObject(r, sharded ? "bytes_per_chip" : "total_bytes", p->total_bytes);
    if (sharded)
        cJSON_AddNumberToObject(r, "prefill_bytes_per_chip", p->prefill_bytes);
    cJSON_AddNumberToObject(r, "b_crit", p->b_crit);
    cJSON_AddNumberToObject(r, "max_batch", (double)p->max_batch);
    add_point_mode(r, s, p, m, h);
    /* fixSL #1: the point's plan under its engine, as step and size say it
     * (pareto's rows carried none: fp8 weights under trtllm on an A100) */
    add_row_engine_notes(r, m, h, p->prec, s->calibrated);
    cJSON_AddItemToArray(rows, r);
}

/* The point a fitted sweep's label is decided on: the first of the n
 * points listed (idx: s's points at idx[0..n-1], the rows a result shows;
 * NULL: s's first n) the fit does not cover (point_fit_mode: model,
 * dtypes, TP, pipeline), else the first (NULL: none).  The document's mode
 * is the worst row's (tester63 #1: a precision check alone labelled tp4
 * rows outside a tp 1-2 fit "fitted"; a bf16 check came first until stop
 * 26); the rows shown, not the whole grid, whose tp1 and pipeline plans
 * lie outside nearly every fit (review47). */
static const rl_sweep_point *sweep_fit_point(const rl_model *m, const rl_hw *h,
                                             const rl_sweep *s, const size_t *idx, size_t n)
{
    char why[600];
    for (size_t i = 0; i < n; i++)
        if (point_fit_mode(m, h, &s->pts[idx ? idx[i] : i], why, sizeof why), *why)
            return &s->pts[idx ? idx[i] : i];
    return n ? &s->pts[idx ? idx[0] : 0] : NULL;
}

/* fitted_outside of a fitted sweep: each distinct reason of the n points
 * idx lists (sweep_fit_point; point_fit_mode), as step's for one (tester63 #1: the header named its
 * first outside point's pp 2 alone beside tp4 rows). */
static void sweep_fitted_outside(cJSON *o, const rl_model *m, const rl_hw *h, const rl_sweep *s,
                                 const size_t *idx, size_t n)
{
    char all[1200] = "", why[RL_EC_DIFFERS_MAX];
    size_t k = 0;
    for (size_t i = 0; i < n && k < sizeof all - 1; i++) {
        point_fit_mode(m, h, &s->pts[idx ? idx[i] : i], why, sizeof why);
        if (*why && !strstr(all, why)) {
            int w = snprintf(all + k, sizeof all - k, "%s%s", k ? "; " : "", why);
            k = w < 0 ? k : k + (size_t)w < sizeof all ? k + (size_t)w : sizeof all - 1;
        }
    }
    cJSON_DeleteItemFromObjectCaseSensitive(o, "fitted_outside");
    cJSON_AddStringToObject(o, "fitted_outside", all);
}

/* The mode of s over the n points idx lists (NULL: s's first n), the rows
 * a result shows: fitted, the worst of them (sweep_fit_point); calibrated,
 * the smallest table-time share of them (rl_run_mode).  One rule for both
 * (review: a calibrated pareto read estimated over the whole grid beside
 * ten calibrated frontier rows, llama3-8b h100-sxm --weights bf16,int8 at
 * 8192); the plot's title by the same rows (rl_result_sweep_mode, fixIE:
 * it took every point of the grid and read estimated above a calibrated
 * header).  *pt gets the point a fitted sweep's label is decided on, NULL
 * otherwise. */
static const char *sweep_mode(const rl_model *m, const rl_hw *h, const rl_sweep *s,
                              const size_t *idx, size_t n, const rl_sweep_point **pt)
{
    *pt = s->fitted ? sweep_fit_point(m, h, s, idx, n) : NULL;
    if (s->fitted) /* every point timed by the fitted costs (sweep.h) */
        return *pt ? point_fit_mode(m, h, *pt, NULL, 0)
                   : rl_hw_fit_mode(h, 1, m->name, RL_BF16, RL_BF16, RL_BF16, 0, 1, NULL, 0);
    /* calibrated only when every point listed is (rl_run_mode: the
     * smallest table-time share of the points decides, and a point whose
     * dtypes the engine does not run, fixTC, the first such, else the
     * first point's, is the plan the rule checks) */
    double share = -1.0;
    rl_dtype plan[3];
    int have = 0, unrun = 0;
    for (size_t i = 0; i < n && !m->abstract; i++) {
        const rl_sweep_point *p = &s->pts[idx ? idx[i] : i];
        share = min_share(share, share_of(p->table_s, p->step_s));
        if (!unrun) {
            const rl_dtype *q = RL_PLAN_DTYPES(p->prec);
            unrun = rl_hw_engine_unrun(h, q);
            if (unrun || !have)
                memcpy(plan, q, sizeof plan), have = 1;
        }
    }
    return rl_run_mode(s->sharded ? plan_mode(h, s->calibrated) : "ideal", h, share,
                       have ? plan : NULL);
}

const char *rl_result_sweep_mode(const rl_model *m, const rl_hw *h, const rl_sweep *s,
                                 const size_t *idx, long nidx)
{
    const rl_sweep_point *pt; /* rl_result_sweep's rows: the same idx, the same rule */
    return sweep_mode(m, h, s, idx, idx ? (size_t)nidx : s->n, &pt);
}

const char *rl_result_engine_name(const rl_hw *h, const char *mode)
{
    const rl_serving_engine *e = run_engine(h, mode);
    return e ? e->name : "none";
}

cJSON *rl_result_sweep(const rl_model *m, const rl_hw *h, const rl_sweep *s, long long prompt,
                       const size_t *idx, long nidx)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    int priced = h->price_per_chip_hour > 0;
    const rl_sweep_point *pt;
    size_t nrows = idx ? (size_t)nidx : s->n;
    const char *mode = sweep_mode(m, h, s, idx, nrows, &pt);
    cJSON_AddStringToObject(o, "mode", mode);
    add_engine(o, mode, h, 0); /* a sweep's mode is never mfu */
    add_host_notes(o, m, h, s->calibrated, 0); /* as step's (tester51 F3, tester50 F17) */
    if (s->fitted) /* the worst point's label and fitted_outside (sweep_fit_point) */
        rl_e2e_fitted_label(o, h, m->name,
                            pt ? pt->prec : (rl_precision){RL_BF16, RL_BF16, RL_BF16},
                            pt ? pt->tp : 0, pt && pt->pp > 1 ? pt->pp : 1);
    if (s->fitted && cJSON_GetObjectItem(o, "fitted_outside"))
        sweep_fitted_outside(o, m, h, s, idx, nrows);
    char label[512];
    cJSON_AddStringToObject(o, "communication",
                            !s->sharded     ? "ignored"
                            : s->fitted     ? rl_e2e_fitted_comm_label(h, 0,
                                                                       "each replica's chips",
                                                                       label, sizeof label)
                            : s->calibrated ? "included: each replica's calibrated step plus its "
                                              "collectives"
                                            : peak_plan_comm(h));
    if (s->sharded) /* tester50 F10: as step's and shard's key (--overlap applied or not) */
        cJSON_AddStringToObject(o, "overlap", overlap_text(s->overlap, -1));
    if (s->fitted)
        cJSON_AddStringToObject(o, "fitted",
                                "step_s and ttft_s from the fitted engine costs (src/enginecost.h "
                                "(E)), as step --chips tp and prefill --chips tp give them on this "
                                "profile, tp each plan's GPUs per replica; kv_load_s, "
                                "attention_compute_s, weight_load_s and compute_s are the "
                                "calibrated step's roofline terms, kernel_excess_s the "
                                "fitted step_s above them "
                                "(tp_excess's share, tp_excess_s, included); plans the "
                                "costs do not model (EP, KV split other than by batch, 2d) "
                                "are left out and counted in uncalibrated_plans; pipelines "
                                "as step --pp times them");
    cJSON_AddStringToObject(o, "model", m->name);
    cJSON_AddStringToObject(o, "hw", h->name);
    cJSON_AddNumberToObject(o, "prompt", (double)prompt);
    cJSON_AddNumberToObject(o, "price_per_chip_hour", h->price_per_chip_hour);
    cJSON_AddStringToObject(o, "price_source", priced ? h->price_source : "no price (price_per_chip_hour absent or 0)");
    cJSON_AddNumberToObject(o, "evaluated", (double)s->evaluated);
    cJSON_AddNumberToObject(o, "infeasible", (double)s->infeasible);
    if (s->sharded)
        cJSON_AddNumberToObject(o, "infeasible_prefill", (double)s->infeasible_prefill);
    if (s->sharded) /* tester72 #7: kept off the frontier (sweep.h rl_sweep_frontier) */
        cJSON_AddNumberToObject(o, "idle_replica_points", (double)s->idle_points);
    if (s->sharded) /* fixKL #6: stderr counted them (tp over the heads), JSON had no key */
        cJSON_AddNumberToObject(o, "untimed_plans", (double)s->dropped);
    if (s->calibrated)
        cJSON_AddNumberToObject(o, "uncalibrated_plans", (double)s->uncalibrated);
    cJSON_AddNumberToObject(o, "feasible", (double)s->n);
    cJSON *rows = cJSON_AddArrayToObject(o, "rows");
    size_t n = idx ? (size_t)nidx : s->n;
    for (size_t i = 0; i < n; i++)
        add_point(rows, s, &s->pts[idx ? idx[i] : i], m, h, priced);
    /* rows the tables do not reach, named, whatever their mode (stop 38 #1);
     * null when none */
    outside_set far = {.at = "", .ops = "ops --chips N --batch B", .pareto = 1};
    for (size_t i = 0; i < n; i++) {
        const rl_sweep_point *p = &s->pts[idx ? idx[i] : i];
        char row[96];
        snprintf(row, sizeof row, "%lld chips %s B=%lld", p->chips, rl_sweep_name(s, p->layout),
                 p->batch);
        outside_row(&far, row, p->extrapolated);
        if (p->coll_group > 0)
            outside_floor(&far, (rl_collective)p->coll_kind, p->coll_group, p->coll_floor,
                          p->coll_impl);
    }
    outside_add(o, &far, h, n);
    rl_e2e_no_band(o, m, h, "the sweep's points carry no band; step or prefill of a point "
                            "gives its band");
    return o;
}

/* ---- serving ----------------------------------------------------------- */

/* NAME_{p50,p90,p99,mean,max}_s of p; null when p has no sample (e.g. TPOT
 * when every output is one token). */
static void add_pcts(cJSON *o, const char *name, const rl_pcts *p)
{
    const char *q[5] = {"p50", "p90", "p99", "mean", "max"};
    double v[5] = {p->p50, p->p90, p->p99, p->mean, p->max};
    for (int i = 0; i < 5; i++) {
        char key[64];
        snprintf(key, sizeof key, "%s_%s_s", name, q[i]);
        if (p->n > 0)
            cJSON_AddNumberToObject(o, key, v[i]);
        else
            cJSON_AddNullToObject(o, key);
    }
}

typedef struct {
    const char *key;
    double v;
} keyed;

/* max_sustainable_qps_is_lower_bound and max_sustainable_qps_from_repeated_sample
 * (serve.h rl_serve_config.capacity_lower_bound, capacity_repeated): null
 * with max_sustainable_qps */
static void add_capacity_flags(cJSON *o, double max_qps, int lower_bound, int repeated)
{
    static const char *const key[] = {"max_sustainable_qps_is_lower_bound",
                                      "max_sustainable_qps_from_repeated_sample"};
    const int v[] = {lower_bound, repeated};
    for (int i = 0; i < 2; i++)
        cJSON_AddItemToObject(o, key[i],
                              isfinite(max_qps) ? cJSON_CreateBool(v[i]) : cJSON_CreateNull());
}

static void add_numbers(cJSON *o, const keyed *k, size_t n)
{
    for (size_t i = 0; i < n; i++)
        cJSON_AddNumberToObject(o, k[i].key, k[i].v);
}

/* The simulator's measurements: counts, then the latency percentiles, then
 * throughput and engine statistics, nulls where there is no value. */
static void add_serve_numbers(cJSON *o, const rl_serve_result *r, long long chips)
{
    const keyed counts[] = {
        {"requests", (double)r->requests},
        {"completed", (double)r->completed},
        {"duration_s", r->duration_s},
    };
    const keyed rates[] = {
        {"req_per_s", r->req_per_s},
        {"out_tokens_per_s", r->out_tokens_per_s},
        {"out_tokens_per_s_per_chip", r->out_tokens_per_s / (double)chips},
        {"total_tokens_per_s", r->total_tokens_per_s},
        {"steady_req_per_s", r->steady_req_per_s},
        {"steady_out_tokens_per_s", r->steady_out_tokens_per_s},
        {"goodput_req_per_s", r->goodput_req_per_s},
        {"steady_goodput_req_per_s", r->steady_goodput_req_per_s},
        {"slo_attainment", r->slo_attainment},
        {"utilization", r->utilization},
        {"kv_link_utilization", r->kv_link_utilization},
        {"mean_in_system", r->mean_in_system},
        {"mean_decode_batch", r->mean_decode_batch},
        {"mean_decode_batch_time", r->mean_decode_batch_time},
        {"mean_decode_context", r->mean_decode_context},
        {"mean_decode_step_s", r->mean_decode_step_s},
        {"mean_decode_only_step_s", r->mean_decode_only_step_s},
        {"steps", (double)r->steps},
        {"decode_steps", (double)r->decode_steps},
        /* the mean prefill step's shape, table_time_share's (serve.h) */
        {"prefill_steps", (double)r->prefill_steps},
        {"prefill_sequences", (double)r->prefill_parts},
        {"preemptions", (double)r->preemptions},
        {"prefix_hit_rate", r->prefix_hit_rate},
        {"prefill_tokens_saved", r->prefill_tokens_saved},
        {"kv_peak_frac", r->kv_peak_frac},
        {"prefill_kv_peak_frac", r->prefill_kv_peak_frac},
        {"spec_tokens_per_step", r->spec_tokens_per_step},
    };
    add_numbers(o, counts, sizeof counts / sizeof counts[0]);
    add_pcts(o, "ttft", &r->ttft);
    add_pcts(o, "tpot", &r->tpot);
    add_pcts(o, "e2e", &r->e2e);
    add_pcts(o, "ttft_service", &r->ttft_service);
    add_pcts(o, "itl", &r->itl);
    add_numbers(o, rates, sizeof rates / sizeof rates[0]);
    /* no value where there is none: no window, no SLO (so no goodput) */
    const char *none[11] = {NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    if (!r->steady_valid)
        none[0] = "steady_req_per_s", none[1] = "steady_out_tokens_per_s";
    if (!r->slo_given)
        none[2] = "goodput_req_per_s", none[3] = "slo_attainment";
    if (!r->steady_valid || !r->slo_given)
        none[4] = "steady_goodput_req_per_s";
    if (!isfinite(r->kv_link_utilization)) /* no link without disagg */
        none[5] = "kv_link_utilization";
    if (!isfinite(r->prefill_kv_peak_frac)) /* no prefill pool without disagg */
        none[6] = "prefill_kv_peak_frac";
    if (r->completed < 2) { /* one request has no rate (tester77 #4; docs/serving.md) */
        none[2] = "goodput_req_per_s";
        none[7] = "req_per_s", none[8] = "out_tokens_per_s";
        none[9] = "out_tokens_per_s_per_chip", none[10] = "total_tokens_per_s";
    }
    for (int k = 0; k < 11; k++)
        if (none[k])
            cJSON_ReplaceItemInObject(o, none[k], cJSON_CreateNull());
}

/* What describes the run: model, hardware, mode, chips, workload, precision
 * and engine settings. */
/* A replica's layout (serve.h): its name, the copies of each token's KV,
 * its pipeline stages (pp), expert-parallel groups per stage (ep) and the
 * chips of one stage. */
static void add_layout(cJSON *j, const rl_model *m, const rl_hw *h, long long chips, long long pp, long long ep,
                       rl_attn_layout l)
{
    pp = pp > 1 ? pp : 1;
    ep = ep > 1 ? ep : 1;
    rl_kv_layout kl = rl_serve_kv_layout(m, chips / pp, ep, l);
    /* the layout run (fixTE #4: simulate --ep 8 over 8 chips ran tp1 ep8,
     * each chip attending over its own sequences, as --attn-layout attn-dp
     * does to the digit, and read "tp" beside kv_layout "batch (attention
     * data parallel)"): a tp layout whose ep groups are single chips is
     * attn-dp (serve.c rl_serve_replica_plan: the same plan but for
     * attn_replicated, which tp 1 makes moot) */
    rl_shard_plan run = rl_serve_replica_plan(chips / pp, ep, l);
    rl_attn_layout named = l == RL_ATTN_LAYOUT_TP && run.tp == 1 && run.ep > 1
                               ? RL_ATTN_LAYOUT_DP
                               : l;
    cJSON_AddStringToObject(j, "attention_layout", rl_attn_layout_name(named));
    cJSON_AddNumberToObject(j, "kv_copies", kl.copies);
    /* the KV split in step's and shard's --kv-split terms (tester4 #11: tp16
     * over 8 KV heads replicates here, step's default splits by batch); the
     * sequences split over ep groups (tester13 #3: "heads" hid it) */
    cJSON_AddStringToObject(j, "kv_layout",
                            kl.groups > 1 && kl.copies > 1
                                ? "batch (attention data parallel over the ep groups), replicate "
                                  "within each (each KV head on kv_copies chips)"
                            : kl.groups > 1 ? "batch (attention data parallel)"
                            : kl.copies > 1 ? "replicate (each KV head on kv_copies chips: step "
                                              "--kv-split replicate)"
                                            : "heads");
    /* the replica's plan in step's terms (fixQB, issue 14 follow-up #3:
     * simulate --chips 16 runs one tp16 replica where step --chips 16 runs
     * its own plan, tp8 x2, and simulate named neither): step --tp T --pp
     * P --ep E --chips (this) times the same replica */
    rl_shard_plan sp = run;
    cJSON_AddNumberToObject(j, "pp", (double)pp);
    /* the plan's ep, as replica_sharding names it (fixSL #2: an attn-dp
     * stage runs its experts over all its chips, serve.c
     * rl_serve_replica_plan, and read "ep": 1 beside "tp1 ep8") */
    cJSON_AddNumberToObject(j, "ep", (double)sp.ep);
    cJSON_AddNumberToObject(j, "chips_per_stage", (double)(chips / pp));
    char name[96];
    int at = snprintf(name, sizeof name, "tp%lld", sp.tp);
    if (sp.ep > 1)
        at += snprintf(name + at, sizeof name - (size_t)at, " ep%lld", sp.ep);
    if (pp > 1)
        snprintf(name + at, sizeof name - (size_t)at, " pp%lld", pp);
    cJSON_AddStringToObject(j, "replica_sharding", name);
    add_stages(j, m, h, pp, 1);
}

/* The run's table-time share (ops.h rl_ops_serving_share: its decode steps
 * and prefills weighted by the busy time it spent on each) as
 * table_time_share (null: unknown, no kernel tables), what it was taken
 * over (table_time_share_at) and the prefill's part of that busy time
 * (table_time_share_prefill_frac); returns the share. */
static double add_serve_share(cJSON *j, const rl_serve_result *r, const rl_simulate_run *run)
{
    const rl_serve_config *c = run->c;
    long long pp = c->pp > 1 ? c->pp : 1;
    rl_ops_run_mix mix = rl_serve_run_mix(r);
    double pf = 0;
    double share = rl_ops_serving_share(run->m, run->h, run->chips_per_replica / pp, c->ep,
                                        c->layout == RL_ATTN_LAYOUT_DP, &mix, run->p, &pf);
    add_number_or_null(j, "table_time_share", share, share >= 0);
    char at[320], pre[96];
    double seqs, prompt;
    if (rl_ops_mix_prefill_step(run->m, &mix, &seqs, &prompt))
        snprintf(pre, sizeof pre, "prefill steps of its mean shape (%.0f x %.0f tokens)", seqs,
                 prompt);
    else
        snprintf(pre, sizeof pre, "prefill of its mean prompt (%.0f tokens)", prompt);
    if (pf > 0)
        snprintf(at, sizeof at, "the run's busy time, estimated: %.0f%% %s, %.0f%% decode steps "
                 "at its time-weighted batch %.0f and mean context %.0f", pf * 100, pre,
                 (1 - pf) * 100, fmax(1, round(r->mean_decode_batch_time)),
                 fmax(1, round(r->mean_decode_context)));
    else
        snprintf(at, sizeof at, "decode step at the run's time-weighted batch %.0f and mean "
                 "context %.0f", fmax(1, round(r->mean_decode_batch_time)),
                 fmax(1, round(r->mean_decode_context)));
    cJSON_AddStringToObject(j, "table_time_share_at", at);
    add_number_or_null(j, "table_time_share_prefill_frac", pf, share >= 0);
    return share;
}

static void add_serve_run(cJSON *j, const rl_serve_result *r, const rl_simulate_run *run)
{
    const rl_serve_config *c = run->c;
    cJSON_AddStringToObject(j, "model", run->m->name);
    cJSON_AddStringToObject(j, "hw", run->h->name);
    long long pp = c->pp > 1 ? c->pp : 1;
    char outside[RL_EC_DIFFERS_MAX];
    const char *base = rl_hw_fit_mode(run->h, run->calibrated, run->m->name, run->p.weights,
                                      run->p.kv, run->p.compute, run->chips_per_replica / pp, pp,
                                      outside, sizeof outside);
    const rl_dtype *plan = run->m->abstract ? NULL : RL_PLAN_DTYPES(run->p);
    const char *mode = rl_run_mode(base, run->h, add_serve_share(j, r, run), plan);
    cJSON_AddStringToObject(j, "mode", mode);
    add_unrun_note(j, run->h, base, plan);
    /* what lies outside the engine costs' fit, as step's and prefill's
     * fitted_outside (e2e.h rl_e2e_fitted_label); null when nothing does or
     * nothing was fitted (stop 38 #7: simulate had no such key) */
    if (*outside)
        cJSON_AddStringToObject(j, "fitted_outside", outside);
    else
        cJSON_AddNullToObject(j, "fitted_outside");
    rl_ops_run_mix mix = rl_serve_run_mix(r);
    outside_serving(j, run->m, run->h, run->calibrated, run->chips_per_replica / pp, c->ep,
                    c->layout == RL_ATTN_LAYOUT_DP, &mix, run->p);
    add_engine_name(j, run->h, mode);
    /* the decode-attention rule the steps ran under (serve.h rl_serve_attn_longest) */
    cJSON_AddStringToObject(j, "attention_context",
                            rl_serve_attn_longest(run->m, run->h, run->p, run->calibrated)
                                ? "longest" : "mean");
    /* pipelined: the stage-to-stage sends too (serve.h rl_ops_cost_pipeline);
     * fitted: how the costs time the collectives, comm_eff and tp_excess
     * named as step names them (rl_ec_comm_text; tester29 F6) */
    int fit = run->calibrated && run->h->engine_costs.present;
    char how[320] = "", cost[768];
    if (fit)
        rl_ec_comm_text(&run->h->engine_costs, 0, 1, run->h->collectives.present, how,
                        sizeof how);
    snprintf(cost, sizeof cost, "%s%s%s%s",
             fit ? "fitted engine costs (enginecost.h (E)) on the operator list + the replica "
                   "plan's collectives"
                 : "operator list (ops) + the replica plan's collectives (shard; serve.h "
                   "rl_attn_layout)",
             fit ? " " : "", how,
             c->pp > 1 ? fit ? " + the pipeline's stage-to-stage activation sends (serve.h "
                               "rl_ops_cost_pipeline; at the comm_eff, no tp_excess)"
                             : " + the pipeline's stage-to-stage activation sends (serve.h "
                               "rl_ops_cost_pipeline)" : "");
    cJSON_AddStringToObject(j, "step_cost", cost);
    add_host_notes(j, run->m, run->h, run->calibrated, 1);
    /* fixRE item 2: simulate's KV dtype the engine does not store, as step's
     * (fixSA: and its fp8 weights or compute) */
    rl_precision dt = run->p;
    dt.kv = c->kv_dtype;
    add_engine_dtype_notes(j, run->h, dt, run->m->abstract);
    add_mla_engine_note(j, run->m, run->h, dt, 0);
    if (run->calibrated)
        add_e2e_gap_serving(j, run->h, rl_serve_replica_plan(run->chips_per_replica / (c->pp > 1 ? c->pp : 1),
                                                             c->ep, c->layout).tp);
    /* chips: --chips as given, a replica's (docs/cli.md's simulate table and
     * docs/serving.md name the key; tester91 #3: simulate printed only the
     * two below), kept beside them as step's "chips" */
    cJSON_AddNumberToObject(j, "chips", (double)run->chips_per_replica);
    cJSON_AddNumberToObject(j, "chips_per_replica", (double)run->chips_per_replica);
    cJSON_AddNumberToObject(j, "chips_total", (double)run->chips_total);
    add_layout(j, run->m, run->h, run->chips_per_replica, c->pp, c->ep, c->layout);
    /* the running sequences' pool: what --prefix-cache's HBM tier leaves of
     * the KV room (serve.c carves the tier out of it; tester28 F7), and the
     * tier beside it */
    cJSON_AddNumberToObject(j, "kv_capacity_tokens_per_replica",
                            floor(c->kv_capacity_tokens - c->prefix_hbm_tokens));
    cJSON_AddNumberToObject(j, "prefix_cache_hbm_tokens_per_replica", floor(c->prefix_hbm_tokens));
    /* the flags' and Lua keys' names (prompt_len, out_len) beside the first
     * spellings, kept as aliases (new-user tester B: size recorded neither) */
    cJSON_AddStringToObject(j, "prompt_len", run->prompt);
    cJSON_AddStringToObject(j, "out_len", run->output);
    cJSON_AddStringToObject(j, "prompt", run->prompt);
    cJSON_AddStringToObject(j, "output_dist", run->output);
    cJSON_AddNumberToObject(j, "qps", run->qps);
    if (run->seed < 0) /* a trace draws nothing (tester9 #8: -1 leaked into the key) */
        cJSON_AddNullToObject(j, "seed");
    else
        rl_result_add_seed(j, run->seed);
    cJSON_AddStringToObject(j, "weights", rl_dtype_name(run->p.weights));
    cJSON_AddStringToObject(j, "kv", rl_dtype_name(run->p.kv));
    cJSON_AddStringToObject(j, "compute", rl_dtype_name(run->p.compute));
    cJSON_AddNumberToObject(j, "replicas", c->replicas);
    if (c->policy == RL_POLICY_DISAGG)
        cJSON_AddNumberToObject(j, "prefill_replicas", c->prefill_replicas);
    cJSON_AddNumberToObject(j, "max_seqs", c->max_seqs);
    cJSON_AddNumberToObject(j, "max_tokens", (double)c->max_tokens);
    cJSON_AddNumberToObject(j, "page_tokens", c->page_tokens);
    cJSON_AddStringToObject(j, "route", c->route == RL_ROUTE_ROUND_ROBIN ? "round-robin"
                                                                          : "least-outstanding");
    cJSON_AddStringToObject(j, "preempt", c->preempt == RL_PREEMPT_SWAP ? "swap" : "recompute");
    if (c->spec_gamma > 0) {
        cJSON_AddNumberToObject(j, "spec_alpha", c->spec_alpha);
        cJSON_AddNumberToObject(j, "spec_gamma", c->spec_gamma);
    }
}

/* The seed as its digits (a raw JSON number): a double holds whole numbers
 * exactly only to 2^53 and the seed goes to 1e18 (tester22 F7: 2^53 + 1
 * echoed as 9007199254740990, which draws another run). */
void rl_result_add_seed(cJSON *j, long long seed)
{
    char digits[24];
    snprintf(digits, sizeof digits, "%lld", seed);
    cJSON_AddRawToObject(j, "seed", digits);
}

cJSON *rl_result_simulate(const rl_serve_result *r, const rl_simulate_run *run)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddStringToObject(o, "policy", rl_policy_name(run->c->policy));
    add_serve_numbers(o, r, run->chips_total);
    /* fixIL #2: the targets slo_attainment and goodput were judged against
     * (--ttft-p99, --tpot-p99; null when not given), as size records them,
     * so a saved result says what it met */
    add_number_or_null(o, "slo_ttft_p99_s", run->c->slo_ttft, run->c->slo_ttft > 0);
    add_number_or_null(o, "slo_tpot_p99_s", run->c->slo_tpot, run->c->slo_tpot > 0);
    cJSON *tl = run->timeline ? cJSON_AddArrayToObject(o, "kv_timeline") : NULL;
    for (int i = 0; tl && i < r->nkv; i++) {
        cJSON *p = cJSON_CreateObject();
        cJSON_AddNumberToObject(p, "t_s", r->kv_t[i]);
        cJSON_AddNumberToObject(p, "kv_frac", r->kv_frac[i]);
        cJSON_AddItemToArray(tl, p);
    }
    add_serve_run(o, r, run);
    if (run->truncated >= 0) { /* truncated_requests: the spelling before stop 29 */
        cJSON_AddNumberToObject(o, "redrawn_requests", (double)run->truncated);
        cJSON_AddNumberToObject(o, "truncated_requests", (double)run->truncated);
    }
    cJSON_AddBoolToObject(o, "offline", run->offline);
    if (run->offline || !(run->qps > 0)) /* no arrival rate: every request at one instant */
        cJSON_ReplaceItemInObject(o, "qps", cJSON_CreateNull());
    /* null offline or with too few requests; utilization null when nothing is sustained */
    add_number_or_null(o, "max_sustainable_qps", run->max_qps, isfinite(run->max_qps));
    add_number_or_null(o, "capacity_utilization", run->reached_qps / run->max_qps,
                       isfinite(run->max_qps) && run->max_qps > 0 && run->qps > 0);
    add_capacity_flags(o, run->max_qps, run->max_qps_lower_bound, run->max_qps_repeated);
    cJSON_AddBoolToObject(o, "max_sustainable_qps_unresolved", run->max_qps_unresolved);
    /* tester46 F7: a --burst sample's own rate can be far from qps */
    add_number_or_null(o, "burst", run->burst, run->burst > 0);
    add_number_or_null(o, "arrival_req_per_s", run->arrival_rate, isfinite(run->arrival_rate));
    /* filled in after the search (rl_result_simulate_no_slo) */
    cJSON_AddNullToObject(o, "max_sustainable_qps_no_slo");
    /* tester72 #1: the capacity keys' nulls told apart from a search that
     * found nothing (simulate --no-capacity, or interrupted after the run) */
    cJSON_AddBoolToObject(o, "capacity_searched", !run->capacity_skipped);
    /* tester90 #1: lognormal:2000:2 realised an 817-token mean, the
     * redraws over max_context cutting its tail; the DIST text alone hid it */
    add_number_or_null(o, "mean_prompt_tokens", run->mean_prompt, run->mean_prompt > 0);
    add_number_or_null(o, "mean_output_tokens", run->mean_output, run->mean_output > 0);
    /* stop 52 fixTG: stderr's caution when one is off its DIST's MEAN */
    add_string_or_null(o, "mean_length_note", run->mean_note);
    return o;
}


void rl_result_simulate_no_slo(cJSON *j, rl_simulate_run *run, double free_qps)
{
    cJSON_ReplaceItemInObject(j, "max_sustainable_qps_no_slo",
                              isfinite(free_qps) ? cJSON_CreateNumber(free_qps) : cJSON_CreateNull());
    /* tester89 F3: never above the figure without targets.  Targets only
     * take loads away, so a figure above it is the two searches' samples
     * grown apart (serve.c next_sample grows each by its own verdicts); a
     * load the search without targets failed (its queue grew) fails with
     * them too, so the lower figure stands: clamped, not searched again
     * (a third search would cost as much as the two, for the same load) */
    if (!(free_qps < run->max_qps))
        return;
    run->max_qps = free_qps;
    run->max_qps_lower_bound = 0;
    cJSON_ReplaceItemInObject(j, "max_sustainable_qps", cJSON_CreateNumber(free_qps));
    cJSON_ReplaceItemInObject(j, "capacity_utilization",
                              free_qps > 0 ? cJSON_CreateNumber(run->reached_qps / free_qps)
                                           : cJSON_CreateNull());
    cJSON_ReplaceItemInObject(j, "max_sustainable_qps_is_lower_bound", cJSON_CreateFalse());
}

/* A size row's KEY_low / KEY_high from its runs at the band's edges
 * (rl_size_candidate.edge, e2e.h rl_e2e_band_from_runs). */
static void add_size_band(cJSON *o, const rl_size_candidate *c, int wide)
{
    static const char *const KEYS[6] = {"ttft_p50_s", "ttft_p99_s", "tpot_p50_s",
                                        "tpot_p99_s", "e2e_p50_s", "e2e_p99_s"};
    cJSON *edge[2] = {cJSON_CreateObject(), cJSON_CreateObject()};
    for (int s = 0; s < 2; s++)
        for (int k = 0; edge[s] && k < 6; k++)
            cJSON_AddNumberToObject(edge[s], KEYS[k], c->edge[s][k]);
    if (edge[0] && edge[1])
        rl_e2e_band_from_runs(o, edge[0], edge[1], wide);
    cJSON_Delete(edge[0]);
    cJSON_Delete(edge[1]);
}

/* Under --conservative, a row whose band runs the work budget left out
 * (unbanded_for_time: no run at the centre, so its central keys are null,
 * rl_size_time) was still sized against the band's high edge, its own
 * figures (fixNJ: the run appeared nowhere): each time's KEY_high gives
 * it; KEY_low stays absent (no low-edge run).  tpot's only where the row
 * has one.  The row's no_band says why there is no band. */
static void add_size_high_own(cJSON *o, const rl_size_candidate *c)
{
    static const char *const KEYS[6] = {"ttft_p50_s_high", "ttft_p99_s_high",
                                        "tpot_p50_s_high", "tpot_p99_s_high",
                                        "e2e_p50_s_high",  "e2e_p99_s_high"};
    const double own[6] = {c->ttft_p50, c->ttft_p99, c->tpot_p50, c->tpot_p99, c->e2e_p50,
                           c->e2e_p99};
    for (int k = 0; k < 6; k++)
        if (!cJSON_GetObjectItem(o, KEYS[k]))
            add_number_or_null(o, KEYS[k], own[k], !(c->no_tpot && (k == 2 || k == 3)));
}

/* A `size` row's detail keys: the configuration's fields, more metrics and
 * the band. */
static void add_size_detail(cJSON *o, const rl_size_input *in, const rl_size_candidate *c)
{
    const rl_hw *h = &in->hw[c->hw];
    cJSON_AddStringToObject(o, "hw", h->name);
    cJSON_AddStringToObject(o, "policy", rl_policy_name(c->policy));
    cJSON_AddStringToObject(o, "weights", rl_dtype_name(c->p.weights));
    cJSON_AddStringToObject(o, "kv", rl_dtype_name(c->p.kv));
    cJSON_AddStringToObject(o, "compute", rl_dtype_name(c->p.compute));
    add_layout(o, in->m, h, c->chips, c->pp, c->ep, c->layout);
    const keyed more[] = {
        {"chips_per_replica", (double)c->chips},
        {"replicas", c->replicas},
        {"prefill_replicas", c->policy == RL_POLICY_DISAGG ? c->prefill_replicas : 0},
        {"max_seqs", c->max_seqs},
        {"max_tokens", (double)c->max_tokens},
    };
    add_numbers(o, more, sizeof more / sizeof more[0]);
    /* null without a price (t56 #3: 0 read as free) */
    add_number_or_null(o, "usd_per_mtok", c->usd_per_mtok, h->price_per_chip_hour > 0);
    const int cons = in->conservative; /* rl_size_time: the central figures (fixND #2) */
    add_number_or_null(o, "ttft_p50_s", rl_size_time(cons, c, 0), isfinite(rl_size_time(cons, c, 0)));
    add_number_or_null(o, "tpot_p50_s", rl_size_time(cons, c, 2),
                       !c->no_tpot && isfinite(rl_size_time(cons, c, 2)));
    add_number_or_null(o, "e2e_p99_s", rl_size_time(cons, c, 5), isfinite(rl_size_time(cons, c, 5)));
    const keyed rest[] = {
        {"slo_attainment", c->slo_attainment},
        {"utilization", c->utilization},
        {"mean_decode_batch", c->mean_decode_batch},
        {"kv_capacity_tokens_per_replica", rl_size_kv_tokens(c)},
    };
    add_numbers(o, rest, sizeof rest / sizeof rest[0]);
    if (c->banded) /* the band beside the times, from the runs at its edges (size.h) */
        add_size_band(o, c, in->band_wide);
    else if (cons && !c->has_centre)
        add_size_high_own(o, c);
}

/* The band of row c's key (c->edge index k: add_size_band's order) as
 * rl_e2e_band_from_runs writes it, the figure within its edges; null ("-"
 * in the table, its columns in place beside a banded row's) on a row
 * without a band. */
static void add_p99_band(cJSON *o, const rl_size_candidate *c, const char *key, int k,
                         int conservative)
{
    double v = cJSON_GetNumberValue(cJSON_GetObjectItem(o, key));
    char name[64];
    snprintf(name, sizeof name, "%s_low", key);
    add_number_or_null(o, name, fmin(c->edge[0][k], v), c->banded);
    snprintf(name, sizeof name, "%s_high", key);
    if (!c->banded && conservative && !c->has_centre) { /* the row's own run (add_size_high_own) */
        add_number_or_null(o, name, k == 1 ? c->ttft_p99 : c->tpot_p99, 1);
        return;
    }
    add_number_or_null(o, name, fmax(c->edge[1][k], v), c->banded);
}

/* F9b: what bounded the search, as given (size's JSON echoed none of
 * them): max_chips, --max-chips (null: not given, each profile's NVLink
 * domain, past it only while no smaller replica holds the model);
 * keep_precision, the switch; searched_precisions, the precisions tried,
 * each "w:W kv:K c:C" as the rows' config names them, over every profile
 * in order without repeats (rl_size_precisions: they differ where a chip
 * has no fp8 peak); hbm_reserve, the HBM fraction kept free where no
 * engine memory rule applies (ideal mode, a profile without one). */
static void add_size_search_echo(cJSON *j, const rl_size_input *in)
{
    add_number_or_null(j, "max_chips", (double)in->max_chips, in->max_chips > 0);
    cJSON_AddBoolToObject(j, "keep_precision", in->prec && in->nprec > 0);
    cJSON *a = cJSON_AddArrayToObject(j, "searched_precisions");
    for (int hi = 0; a && hi < in->nhw; hi++) {
        rl_precision pr[8];
        int np = rl_size_precisions(in, hi, pr);
        for (int k = 0; k < np; k++) {
            char s[64];
            snprintf(s, sizeof s, "w:%s kv:%s c:%s", rl_dtype_name(pr[k].weights),
                     rl_dtype_name(pr[k].kv), rl_dtype_name(pr[k].compute));
            int seen = 0;
            const cJSON *v;
            cJSON_ArrayForEach(v, a)
                seen |= !strcmp(cJSON_GetStringValue(v), s);
            if (!seen)
                cJSON_AddItemToArray(a, cJSON_CreateString(s));
        }
    }
    cJSON_AddNumberToObject(j, "hbm_reserve", in->hbm_reserve);
}

/* One `size` row: the configuration, its cost and latencies; with `detail`
 * the configuration's fields and more metrics. */
static cJSON *size_row(const rl_size_input *in, const rl_size_result *r,
                       const rl_size_candidate *c, int detail)
{
    char label[128];
    rl_size_label(in, c, label, sizeof label);
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddStringToObject(o, "config", label);
    const keyed main[] = {
        {"chips_total", (double)c->chips_total}, {"cost", c->cost_per_hour},
    };
    add_numbers(o, main, sizeof main / sizeof main[0]);
    /* the table (no detail) shows the cost per token and the p99s' bands
     * beside them too, as the report and JSON have them (tester59 #4: the
     * table dropped them) */
    if (!detail)
        add_number_or_null(o, "usd_per_mtok", c->usd_per_mtok,
                           in->hw[c->hw].price_per_chip_hour > 0);
    /* the central prediction in every mode (rl_size_time; fixND #2: under
     * --conservative these held the band's high edge, now its _high) */
    const int cons = in->conservative;
    add_number_or_null(o, "ttft_p99_s", rl_size_time(cons, c, 1), isfinite(rl_size_time(cons, c, 1)));
    if (!detail && in->calibrated) /* an ideal search has no band at all */
        add_p99_band(o, c, "ttft_p99_s", 1, cons);
    add_number_or_null(o, "tpot_p99_s", rl_size_time(cons, c, 3), /* as simulate (tester19 F4) */
                       !c->no_tpot && isfinite(rl_size_time(cons, c, 3)));
    if (!detail && in->calibrated && !c->no_tpot)
        add_p99_band(o, c, "tpot_p99_s", 3, cons);
    add_number_or_null(o, "e2e_p50_s", rl_size_time(cons, c, 4), isfinite(rl_size_time(cons, c, 4)));
    const keyed rates[] = {
        {"out_tokens_per_s", c->out_tokens_per_s},
        /* each as simulate names it (tester12 #3: out_tokens_per_s was the
         * steady figure under the whole run's name) */
        {"steady_out_tokens_per_s", c->steady_out_tokens_per_s},
    };
    add_numbers(o, rates, sizeof rates / sizeof rates[0]);
    cJSON_AddBoolToObject(o, "meets", c->meets);
    add_number_or_null(o, "max_sustainable_qps", c->max_qps, isfinite(c->max_qps));
    /* as simulate's: the load's arrivals' rate over the capacity of the
     * row's replicas (h31audit finding 10: size rows had none) */
    add_number_or_null(o, "capacity_utilization", c->reached_qps / c->max_qps,
                       isfinite(c->max_qps) && c->max_qps > 0 && c->reached_qps > 0);
    /* as simulate (fixU left them out of size rows) */
    add_capacity_flags(o, c->max_qps, c->max_qps_lower_bound, c->max_qps_repeated);
    cJSON_AddBoolToObject(o, "max_sustainable_qps_unresolved", c->max_qps_unresolved);
    /* as simulate's (tester47 F9: size rows had neither): every row ran the
     * same arrivals at the load */
    double burst = rl_size_burst(in);
    add_number_or_null(o, "burst", burst, burst > 0);
    add_number_or_null(o, "arrival_req_per_s", r->arrival_rate,
                       isfinite(r->arrival_rate) && r->arrival_rate > 0);
    /* where and why a row misses (null when it meets; size.h rl_size_verify) */
    char why[64];
    add_number_or_null(o, "fails_at_qps", c->fails_at_qps, !c->meets);
    if (c->meets)
        cJSON_AddNullToObject(o, "fails_on");
    else
        cJSON_AddStringToObject(o, "fails_on", rl_size_miss_names(c->fails_on, why, sizeof why));
    /* which rule decided meets (size.h rl_size_decide; tester48 F1) */
    cJSON_AddStringToObject(o, "verdict_by", rl_size_verdict_name(c->verdict_by));
    note_buf b = {0}; /* a meeting row on its p99s alone, marked in the row (fixJH) */
    while (note_pass(&b))
        b.applies = rl_size_verdict_note(in, c, b.s, b.len);
    add_note(o, "verdict_note", &b, 1);
    /* fixSA #2: a plan whose decode step is below one kernel launch, as
     * step's and simulate's step_floor_note (null when not): its TPOT p50,
     * at least one step a token, is the row's step figure (size reports no
     * inter-token latency) */
    while (!c->no_tpot && note_pass(&b))
        b.applies = rl_result_step_floor_note("tpot_p50_s", c->tpot_p50, b.s, b.len);
    add_note(o, "step_floor_note", &b, 1);
    const char *mode = rl_size_mode(in, c);
    cJSON_AddStringToObject(o, "mode", mode);
    double share = rl_size_share(in, c); /* where: simulate's table_time_share_at */
    add_number_or_null(o, "table_time_share", share, share >= 0);
    /* what of its precision is derived, as pareto's rows say it (fixND #4:
     * size rows had no such key): "none" where nothing is, and on a row
     * timed by no kernel table (ideal, or fitted engine costs) */
    char d[256] = "";
    const rl_hw *dh = &in->hw[c->hw];
    if (in->calibrated && !dh->ideal && !dh->engine_costs.present)
        derived_text(in->m, dh, c->p, d, sizeof d);
    cJSON_AddStringToObject(o, "derived", *d ? d : "none");
    if (detail) { /* the steps of that share, as simulate's (JSON, CSV: too wide a column) */
        rl_ops_run_mix mix = rl_size_mix(c);
        outside_serving(o, in->m, &in->hw[c->hw], in->calibrated,
                        c->chips / (c->pp > 1 ? c->pp : 1), c->ep,
                        c->layout == RL_ATTN_LAYOUT_DP, &mix, c->p);
    }
    add_engine_name(o, &in->hw[c->hw], mode);
    /* tester89 F4b: the row's plan under its engine, as step and simulate
     * say it for the same plan (null where nothing applies: a row's keys
     * are the same on every row; an ideal search names no engine) */
    add_row_engine_notes(o, in->m, dh, c->p, in->calibrated);
    /* fixND #11: --engine E over a list applies where the profile has E;
     * a row of one without it says so (null: E applied, or none asked) */
    if (in->engine_asked && in->engine_lacking && in->engine_lacking[c->hw]) {
        char en[256];
        snprintf(en, sizeof en, "--engine %s does not apply: %s carries no %s tables, so its "
                 "default engine (%s) times this row", in->engine_asked, in->hw[c->hw].name,
                 in->engine_asked,
                 strcmp(rl_result_engine_name(&in->hw[c->hw], mode), "none")
                     ? rl_result_engine_name(&in->hw[c->hw], mode)
                     : "none: datasheet peaks");
        cJSON_AddStringToObject(o, "engine_note", en);
    } else {
        cJSON_AddNullToObject(o, "engine_note");
    }
    cJSON_AddStringToObject(o, "attention_context", /* as simulate's */
                            rl_serve_attn_longest(in->m, &in->hw[c->hw], c->p, in->calibrated)
                                ? "longest" : "mean");
    if (detail)
        add_size_detail(o, in, c);
    /* in every format, after the band (the edge runs are at the load only):
     * the p99s at sized_for_qps, where meets is judged too (tester12 #3: the
     * table showed only the p99s at the load beside a row that missed) */
    const keyed sized[] = {{"ttft_p99_at_sized_s", c->sized_ttft_p99}};
    add_numbers(o, sized, 1);
    add_number_or_null(o, "tpot_p99_at_sized_s", c->sized_tpot_p99, !c->no_tpot);
    return o;
}

/* Why size row c (NULL: the whole result, whose rows have none) carries no
 * band, into o's no_band (e2e.h rl_e2e_no_band on its profile): size ran
 * ideal, the fit withholds it (rl_e2e_band_withheld), or the CPU budget
 * ran out before its band runs (size.h unbanded_for_time). */
static void add_size_no_band(cJSON *o, const rl_size_input *in, const rl_size_result *r,
                             const rl_size_candidate *c)
{
    const rl_hw *base = in->band_hw ? in->band_hw : in->hw;
    const rl_hw *h = &base[c ? c->hw : r->no_band > 0 ? r->no_band - 1 : 0];
    char why[512] = "";
    long long pp = c && c->pp > 1 ? c->pp : 1;
    if (!c && r->n == 0) { /* fixTB #1: no row, so no band run was left out */
        cJSON_AddStringToObject(o, "no_band", "no band: no configuration was simulated (every "
                                              "plan was pruned analytically: none_meets_note), "
                                              "so no row has one");
        return;
    }
    if (!in->calibrated) {
        snprintf(why, sizeof why, "size ran ideal: nothing measured to take a band from");
    } else if (c ? rl_e2e_band_withheld(h, in->m->name, &c->p, c->chips / pp, pp, why, sizeof why)
                 : r->unbanded_off_fit > 0) {
        /* simulate's words for the same run, after rl_e2e_no_band's own
         * reasons (tester58 #3: why was copied onto itself, which left
         * "no band:  (the time is an estimate)") */
        rl_e2e_no_band(o, in->m, h, NULL);
        if (!cJSON_GetObjectItem(o, "band") && !cJSON_GetObjectItem(o, "no_band"))
            rl_e2e_withheld_no_band(o, h, c ? why : r->off_fit_why);
        return;
    } else {
        snprintf(why, sizeof why, "the search's CPU budget ran out before the band runs "
                 "(unbanded_for_time)%s",
                 in->conservative ? "; under --conservative its central times (ttft_p99_s, "
                                    "tpot_p99_s, e2e_*) are null, the run at the band's centre "
                                    "not made, and its *_high keys give the run it was sized "
                                    "against, the band's high edge" : "");
    }
    rl_e2e_no_band(o, in->m, h, why);
}

int rl_result_size_host_cost_note(const rl_size_input *in, char *s, size_t len)
{
    return rl_result_size_host_cost_note_of(in, NULL, s, len);
}

int rl_result_size_host_cost_note_of(const rl_size_input *in, const int *only, char *s, size_t len)
{
    /* step's host_cost_note, once, naming each engine that charges no
     * per-step host cost over the profiles searched, once (tester51 F3,
     * tester50 F17: size said none; then only the first profile's engine) */
    char names[512] = "";
    const char *named[RL_SIZE_HW_NAMED];
    int nnames = 0;
    for (int i = 0; i < in->nhw; i++) {
        if (only && !only[i])
            continue;
        const rl_serving_engine *e = hostless_engine(in->m, &in->hw[i], in->calibrated);
        int seen = !e;
        for (int k = 0; k < nnames && !seen; k++)
            seen = !strcmp(named[k], e->name);
        if (seen || nnames == RL_SIZE_HW_NAMED)
            continue;
        named[nnames++] = e->name;
    }
    for (int k = 0; k < nnames; k++) { /* "a", "a and b", "a, b and c" */
        size_t at = strlen(names);
        snprintf(names + at, sizeof names - at, "%s%s",
                 k == 0 ? "" : k == nnames - 1 ? " and " : ", ", named[k]);
    }
    if (nnames > 0)
        host_cost_text(s, len, names, nnames);
    return nnames > 0;
}

/* size's prefill_dispatch_note, of its first row's engine, into o */
static void size_dispatch_note(cJSON *o, const rl_size_input *in, const rl_size_result *r)
{
    if (r->n == 0 || !in->calibrated)
        return;
    const rl_hw *h0 = &in->hw[r->c[0].hw];
    const rl_serving_engine *e0 = run_engine(h0, rl_size_mode(in, &r->c[0]));
    if (e0 && !h0->ideal && !h0->engine_costs.present && !in->m->abstract)
        add_dispatch_note(o, in->m, h0);
}

int rl_result_size_dispatch_note(const rl_size_input *in, const rl_size_result *r, char *s,
                                 size_t len)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return 0;
    size_dispatch_note(o, in, r);
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, "prefill_dispatch_note");
    int have = cJSON_IsString(n);
    if (have)
        snprintf(s, len, "%s", n->valuestring);
    cJSON_Delete(o);
    return have;
}

/* The workload size sized, as simulate records its own (new-user tester
 * B: size's JSON lacked it): prompt_len and out_len (the DIST texts, the
 * flags' and Lua keys' names; "trace" on a --trace), seed (null on a
 * trace, which draws nothing) and hw (the profiles searched, in order). */
static void add_size_workload(cJSON *j, const rl_size_input *in)
{
    char d[96];
    static const rl_dist trace = {RL_DIST_TRACE, 0, 0};
    cJSON_AddStringToObject(j, "prompt_len", rl_dist_format(in->trace ? &trace : &in->w.prompt,
                                                             d, sizeof d));
    cJSON_AddStringToObject(j, "out_len", rl_dist_format(in->trace ? &trace : &in->w.output,
                                                          d, sizeof d));
    /* the first spellings beside them, as simulate prints them (docs/cli.md's
     * size table names them; docs/serving.md: kept as aliases; tester91 #3) */
    cJSON_AddStringToObject(j, "prompt", rl_dist_format(in->trace ? &trace : &in->w.prompt,
                                                        d, sizeof d));
    cJSON_AddStringToObject(j, "output_dist", rl_dist_format(in->trace ? &trace : &in->w.output,
                                                             d, sizeof d));
    if (in->trace)
        cJSON_AddNullToObject(j, "seed");
    else { /* raw digits: a 64-bit seed exceeds a double's 2^53 */
        char digits[24];
        snprintf(digits, sizeof digits, "%llu", (unsigned long long)in->w.seed);
        cJSON_AddRawToObject(j, "seed", digits);
    }
    cJSON *hw = cJSON_AddArrayToObject(j, "hw");
    for (int i = 0; hw && i < in->nhw; i++)
        cJSON_AddItemToArray(hw, cJSON_CreateString(in->hw[i].name));
}

cJSON *rl_result_size(const rl_size_input *in, const rl_size_result *r, int detail)
{
    cJSON *j = cJSON_CreateObject();
    if (!j)
        return NULL;
    cJSON_AddStringToObject(j, "model", in->m->name);
    /* one mode over the candidates (over the hardware when none was evaluated) */
    const char *mode = r->n > 0 ? rl_size_mode(in, &r->c[0]) : rl_hw_default_mode(in->hw, in->calibrated);
    int same = 1;
    for (int i = 1; i < (r->n > 0 ? r->n : in->nhw); i++)
        same &= strcmp(r->n > 0 ? rl_size_mode(in, &r->c[i])
                                : rl_hw_default_mode(&in->hw[i], in->calibrated),
                       mode) == 0;
    cJSON_AddStringToObject(j, "mode", same ? mode : "mixed (see each row)");
    const char *engine = NULL; /* one engine name over the hardware searched */
    for (int i = 0; i < in->nhw; i++) {
        const rl_serving_engine *e =
            run_engine(&in->hw[i], rl_hw_default_mode(&in->hw[i], in->calibrated));
        const char *name = e ? e->name : "none";
        engine = !engine || !strcmp(engine, name) ? name : "mixed (see each row)";
    }
    cJSON_AddStringToObject(j, "engine", engine ? engine : "none");
    note_buf b = {0};
    while (note_pass(&b))
        b.applies = rl_result_size_host_cost_note(in, b.s, b.len);
    add_note(j, "host_cost_note", &b, 0);
    if (r->n > 0 && in->calibrated) { /* the first row's, as simulate's (fixJK #2) */
        const rl_size_candidate *c0 = &r->c[0];
        const rl_hw *h0 = &in->hw[c0->hw];
        size_dispatch_note(j, in, r);
        add_e2e_gap_serving(j, in->band_hw ? &in->band_hw[c0->hw] : h0,
                            rl_serve_replica_plan(c0->chips, c0->ep, c0->layout).tp);
    }
    cJSON_AddNumberToObject(j, "qps", in->w.qps);
    add_size_workload(j, in);
    /* tester90 #1: the README's lognormal:2000:0.8 / lognormal:300:0.8
     * realised other means, redrawn at max_context; as simulate's */
    add_number_or_null(j, "mean_prompt_tokens", r->mean_prompt_tokens, r->mean_prompt_tokens > 0);
    add_number_or_null(j, "mean_output_tokens", r->mean_output_tokens, r->mean_output_tokens > 0);
    add_string_or_null(j, "mean_length_note", in->mean_note); /* as simulate's (fixTG) */
    cJSON_AddNumberToObject(j, "slo_ttft_p99_s", in->slo_ttft);
    cJSON_AddNumberToObject(j, "slo_tpot_p99_s", in->slo_tpot);
    const keyed sizing[] = {
        {"headroom", in->headroom},
        {"sized_for_qps", rl_size_sized_qps(in)},
        /* the load of the rows' ttft_p99_s, tpot_p99_s, e2e and throughput
         * figures: --qps, not sized_for_qps, which only the *_at_sized_s
         * keys are at (tester76 #3: the table read sized_for_qps 24 above
         * the p99s of the 20 req/s run, simulate --qps 20's) */
        {"latency_at_qps", in->w.qps},
        /* the requests each row ran at qps (tester11 #11: simulate on fewer
         * read another sample, 41.92 against the row's 41.70 req/s) */
        {"requests", (double)rl_size_requests(in, 1)},
        {"max_replicas", RL_SIZE_MAX_REPLICAS},
        {"beyond_replica_bound", (double)r->beyond_bound},
        {"skipped_for_time", (double)r->skipped_for_time},
        {"unbanded_for_time", (double)r->unbanded_for_time},
        {"unbanded_off_fit", (double)r->unbanded_off_fit},
        {"unbanded_derived", (double)r->unbanded_derived}, /* review28 L3 */
    };
    add_numbers(j, sizing, sizeof sizing / sizeof sizing[0]);
    /* the arrivals' --burst CV, as each row's burst and simulate's (issue
     * 14: the top level echoed qps and requests, not it); null for Poisson
     * or a trace */
    double burst = rl_size_burst(in);
    add_number_or_null(j, "burst", burst, burst > 0);
    int banded = in->conservative; /* the band the rows report (and --conservative sized on) */
    for (int i = 0; i < r->n; i++)
        banded |= r->c[i].banded;
    if (banded)
        cJSON_AddStringToObject(j, "band", in->band_wide ? "p5-p95" : "p10-p90");
    cJSON_AddBoolToObject(j, "conservative", in->conservative);
    add_size_search_echo(j, in);
    /* fixND #2: which figure the verdicts (meets, max_sustainable_qps, the
     * *_at_sized_s keys) were made on; the rows' ttft_p99_s etc. are the
     * central prediction either way, the band's high edge their _high */
    cJSON_AddStringToObject(j, "sized_against", in->conservative ? "band_high" : "central");
    cJSON_AddStringToObject(j, "cost_unit", r->priced ? "usd_per_hour" : "chips");
    /* fixND #6: a price of 0 switched the unit to chips without a word.
     * Our decision: 0 (or no price_per_chip_hour) reads as "no price", as
     * the profiles have always meant it, not as free (a free chip would rank
     * every plan of it first at cost 0); the unit change is said here, in
     * the table (which prints this key) and on stderr (cli.c) */
    char unpriced[256] = "";
    for (int i = 0; !r->priced && i < in->nhw; i++)
        if (!(in->hw[i].price_per_chip_hour > 0))
            snprintf(unpriced + strlen(unpriced), sizeof unpriced - strlen(unpriced), "%s%s",
                     unpriced[0] ? ", " : "", in->hw[i].name);
    if (!r->priced) {
        rl_result_add_fmt(j, "cost_note", "cost is in chips, not USD/hour: %s %s no price_per_chip_hour "
                "(absent or 0; 0 reads as no price, not as free), so every row is costed in "
                "chips; price every profile searched (a profile file { base = \"NAME\", "
                "price_per_chip_hour = P }, or --set hw.price_per_chip_hour=P) to cost in "
                "USD/hour", unpriced, strchr(unpriced, ',') ? "have" : "has");
    } else {
        cJSON_AddNullToObject(j, "cost_note");
    }
    /* stop 48 #1b: the p99 verdicts on few requests (size.h rl_size_sample_caution) */
    while (r->n > 0 && note_pass(&b)) /* fixTB #5: null when no request was simulated */
        b.applies = rl_size_sample_caution(in, b.s, b.len);
    add_note(j, "sample_note", &b, 1);
    /* fixTB #1: the verdict's reason beside meeting 0, as stderr says it
     * (rl_size_why_none: with no row simulated, how far the fastest
     * prefill or decode step is from its target); null when a row meets */
    while (r->nmeet == 0 && note_pass(&b))
        rl_size_why_none(in, r, b.s, b.len);
    add_note(j, "none_meets_note", &b, 1);
    cJSON_AddNumberToObject(j, "meeting", r->nmeet);
    cJSON_AddNumberToObject(j, "simulated_configs", r->n);
    cJSON_AddNumberToObject(j, "pruned", (double)r->pruned);
    cJSON_AddNumberToObject(j, "search_s", r->search_s);
    cJSON *rows = cJSON_AddArrayToObject(j, "rows");
    for (int i = 0; rows && i < r->n; i++) {
        cJSON *o = size_row(in, r, &r->c[i], detail);
        if (banded && detail && !r->c[i].banded) /* a mixed search: its unbanded rows say why */
            add_size_no_band(o, in, r, &r->c[i]);
        cJSON_AddItemToArray(rows, o);
    }
    if (!banded)
        add_size_no_band(j, in, r, NULL);
    return j;
}

/* ---- roofline list ------------------------------------------------------ */

/* A list row's names: `preset`, the file name that --model/--hw take, and
 * `name`, the spec's own name field (what results print), which a user's
 * file may set otherwise (tester59 #2: hw_profiles/h100-mine.lua listed as
 * h100-sxm-myeng, which --hw refused). */
static void add_preset(cJSON *r, const char *preset, const char *name)
{
    cJSON_AddStringToObject(r, "preset", preset);
    cJSON_AddStringToObject(r, "name", name);
}

static cJSON *list_doc(const char *what, cJSON **rows)
{
    cJSON *o = cJSON_CreateObject();
    if (o)
        cJSON_AddStringToObject(o, "list", what);
    *rows = o ? cJSON_AddArrayToObject(o, "rows") : NULL;
    return o;
}

cJSON *rl_result_list_models(const rl_model *m, char (*presets)[64], int n)
{
    cJSON *rows, *o = list_doc("models", &rows);
    for (int i = 0; rows && i < n; i++) {
        rl_params pc = rl_arch_params(&m[i]);
        cJSON *r = cJSON_CreateObject();
        add_preset(r, presets[i], m[i].name);
        cJSON_AddNumberToObject(r, "params", pc.total);
        cJSON_AddNumberToObject(r, "params_active", pc.active);
        /* info's count (arch.h): without the input embedding table, as
         * OpenAI and DeepSeek quote active parameters (tester60 #2:
         * gpt-oss-120b 5.71B here, 5.13B in its model card); null for an
         * abstract spec, which gives one active count and no parts */
        if (m[i].abstract)
            cJSON_AddNullToObject(r, "params_active_nonembedding");
        else
            cJSON_AddNumberToObject(r, "params_active_nonembedding", pc.active_nonembedding);
        add_max_context(r, &m[i]);
        cJSON_AddItemToArray(rows, r);
    }
    return o;
}

cJSON *rl_result_list_hw(const rl_hw *h, char (*presets)[64], int n)
{
    cJSON *rows, *o = list_doc("hw", &rows);
    for (int i = 0; rows && i < n; i++) {
        cJSON *r = cJSON_CreateObject();
        add_preset(r, presets[i], h[i].name);
        cJSON_AddNumberToObject(r, "bf16_flops_per_s", h[i].flops[RL_BF16]);
        cJSON_AddNumberToObject(r, "hbm_bytes", h[i].hbm_bytes);
        /* the capacity in the datasheet's unit: an "80GB" H100 is 80 GiB, which
         * hbm_GB (decimal, as every other byte figure) prints as 85.9 (review28 M2) */
        cJSON_AddNumberToObject(r, "hbm_GiB", h[i].hbm_bytes / RL_GIB);
        cJSON_AddNumberToObject(r, "hbm_bw_bytes_per_s", h[i].hbm_bw);
        cJSON_AddNumberToObject(r, "hbm_bytes_per_s", h[i].hbm_bw); /* canonical: add_hbm_bw */
        /* the on-demand price size ranks by (null: none, size ranks by chips;
         * new-user tester E: the list did not show which presets had one) */
        if (h[i].price_per_chip_hour > 0)
            cJSON_AddNumberToObject(r, "price_per_chip_hour", h[i].price_per_chip_hour);
        else
            cJSON_AddNullToObject(r, "price_per_chip_hour");
        cJSON_AddStringToObject(r, "mode", rl_hw_default_mode(&h[i], 1));
        char names[256] = "";
        for (int k = 0; k < h[i].engines.n; k++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s%s", k ? "," : "",
                     h[i].engines.e[k].name, k == h[i].engines.def ? "*" : "");
        cJSON_AddStringToObject(r, "engines", names[0] ? names : "-");
        cJSON_AddItemToArray(rows, r);
    }
    return o;
}

/* One row of `list engines`: engine `name`, the presets h[0..n) that carry
 * it (comma-separated, * where it is their default) and a description. */
static void engine_row(cJSON *rows, const char *name, const rl_hw *h, char (*presets)[64], int n,
                       const char *desc)
{
    char carried[1024] = "";
    for (int i = 0; i < n; i++)
        for (int k = 0; k < h[i].engines.n; k++)
            if (!strcmp(h[i].engines.e[k].name, name))
                snprintf(carried + strlen(carried), sizeof carried - strlen(carried), "%s%s%s",
                         carried[0] ? "," : "", presets[i], k == h[i].engines.def ? "*" : "");
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "name", name);
    cJSON_AddStringToObject(r, "hardware", carried[0] ? carried : "every");
    cJSON_AddStringToObject(r, "description", desc);
    cJSON_AddItemToArray(rows, r);
}

cJSON *rl_result_list_engines(const rl_hw *h, char (*presets)[64], int n)
{
    cJSON *rows, *o = list_doc("engines", &rows);
    if (!rows)
        return o;
    engine_row(rows, "ideal", h, presets, 0, "the roofline at the profile's peaks (--ideal), on every hardware");
    /* every engine the presets carry, once, in the order first met (tester4
     * #15: only `ideal` was listed) */
    const char *listed[64];
    int nl = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < h[i].engines.n && nl < 64; k++) {
            const char *name = h[i].engines.e[k].name;
            int seen = 0;
            for (int j = 0; j < nl && !seen; j++)
                seen = !strcmp(listed[j], name);
            if (seen)
                continue;
            listed[nl++] = name;
            const rl_serving_engine *e = &h[i].engines.e[k];
            char desc[256];
            snprintf(desc, sizeof desc, "a serving engine's %s (roofline info --hw %s: version, "
                     "source, tables, costs)", e->fitted.present ? "costs fitted by roofline fit"
                                                                 : "kernel tables", presets[i]);
            engine_row(rows, name, h, presets, n, desc);
        }
    cJSON_AddStringToObject(o, "note",
                            "hardware: the presets that carry each engine (* their default); "
                            "select one with --engine NAME");
    return o;
}

void rl_result_kv_split(cJSON *r, const rl_shard_plan *pl, int given, int ideal)
{
    if (!r)
        return;
    if (rl_shard_attn_dp(pl)) { /* tester39 F10: the split given was echoed, not run */
        cJSON_AddStringToObject(r, "kv_split", rl_kv_split_name(RL_KV_BATCH));
        cJSON_AddStringToObject(r, "kv_split_source", rl_shard_attn_dp_source(pl));
        return;
    }
    cJSON_AddStringToObject(r, "kv_split", rl_kv_split_name(pl->kv));
    cJSON_AddStringToObject(r, "kv_split_source", rl_kv_split_source(pl->kv, given, ideal));
}

void rl_result_step_kv_layout(cJSON *r, const rl_model *m, const rl_hw *h, const rl_shard_plan *pl,
                              long long chips, long long context, rl_precision p, int given,
                              int ideal)
{
    if (!r)
        return;
    /* z chips hold each token's KV under replicate (shard.h rl_kv_layout),
     * an integer: floor(floor(x) / z) = floor(x / z) */
    double z = m->abstract ? 1 : rl_shard_kv_layout(m, pl, 1).copies;
    if (z > 1) {
        long long b = rl_memory_max_batch(m, h, chips, context, p.weights, p.kv);
        cJSON_ReplaceItemInObject(r, "max_batch", cJSON_CreateNumber((double)(b / (long long)z)));
        double cap = rl_memory_use(m, h, chips, 0, context, p.weights, p.kv).capacity_bytes;
        const cJSON *row;
        cJSON_ArrayForEach(row, cJSON_GetObjectItem(r, "rows"))
        {
            cJSON *kv = cJSON_GetObjectItem(row, "kv_bytes"),
                  *kvc = cJSON_GetObjectItem(row, "kv_bytes_per_chip"),
                  *w = cJSON_GetObjectItem(row, "weight_bytes");
            if (!cJSON_IsNumber(kv) || !cJSON_IsNumber(kvc) || !cJSON_IsNumber(w))
                continue;
            /* the row's max_batch is the header's: the rows repeat it */
            cJSON_ReplaceItemInObject((cJSON *)row, "max_batch",
                                      cJSON_CreateNumber((double)(b / (long long)z)));
            double k = kv->valuedouble * z;
            cJSON_SetNumberValue(kv, k);
            cJSON_SetNumberValue(kvc, kvc->valuedouble * z);
            cJSON_SetNumberValue(cJSON_GetObjectItem(row, "total_bytes"), w->valuedouble + k);
            cJSON_ReplaceItemInObject((cJSON *)row, "fits", cJSON_CreateBool(w->valuedouble + k <= cap));
        }
    }
    rl_result_kv_split(r, pl, given, ideal);
}
