/* param.c — the parameter and command tables (param.h) and what reads them
 * generically: parsing one value into rl_opts, the option lines of --help
 * and docs/cli.md.  Defaults and bounds are the ones the commands applied
 * before the tables existed; their sources are in the modules that use them
 * (serve.h: serving defaults after vLLM's, ops.h: RL_MFU_MIN, sandbox.h:
 * the scenario budget). */
#include "param.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "error.h"
#include "lua_api.h"
#include "number.h"
#include "ops.h"
#include "silicon.h"
#include "size.h"
#include "workload.h"

#define AT(field) offsetof(rl_opts, field)
#define NOWHERE RL_AT_GIVEN, 0, 0
/* flag, lua, lua_old, json, type, arg, unit, min, max, def, choices, help, at, at_n, cap, flags */
const rl_param RL_PARAMS[RL_P_COUNT] = {
    [RL_P_MODEL] = {"model", "model", NULL, "model", RL_PT_STRING, "M", "", 0, 0, NULL, NULL,
                    "model: a preset name (model/M.lua) or a path to a .lua spec", AT(model), 0, 0, 0},
    [RL_P_HW] = {"hw", "hw", NULL, "hw", RL_PT_STRING, "H", "", 0, 0, NULL, NULL,
                 "hardware: a preset name (hw_profiles/H.lua) or a path to a .lua spec (size: a "
                 "comma-separated list, H[,H2], split at every comma: a file whose path holds one is "
                 "refused there)", AT(hw), 0, 0, RL_PF_LIST},
    [RL_P_CHIPS] = {"chips", "chips", NULL, "chips", RL_PT_COUNT, "N", "chips", 1, 1e6, "1", NULL,
                    "chips. step, ops, prefill: the slice one copy of the model is sharded over "
                    "(calibrated without a plan: step runs each --batch on its fastest plan "
                    "that holds it, tpT x ppP times R replicas on at most N chips, T inside one "
                    "NVLink domain, P the fewest stages that hold the batch at T and R (or "
                    "deeper), R up to floor(N / (T P)) and the batch, chips left over idle; a "
                    "batch no plan holds on the nearest, fits false; ops in decode times one "
                    "replica of step's plan for its --batch, the batch split over the replicas "
                    "(the fullest share timed), where that plan has stages the fastest "
                    "without them (refused when none holds the batch); prefill and ops "
                    "--phase prefill|mixed time one replica of the automatic plan, the fewest "
                    "stages that hold the weights, then the widest T dividing N (refusing one "
                    "with stages), since step's plan is the fastest decode step, not the fastest "
                    "prompt, and prefill's one prompt runs on one replica); simulate: one "
                    "replica (tp N, or split by --pp and --ep; --replicas adds copies), as a "
                    "serving engine's instance is given its GPUs.  On a torus chip (TPU) the "
                    "chips, given or a "
                    "plan's without it (step --tp 4 --pp 3: 12), are a slice: 4, 8, ... (and "
                    "1 where the chip rents one, as tpu-v5e; one chip is also step's, shard's, "
                    "ops's and prefill's per-chip roofline on any chip) or a multiple of the "
                    "pod",
                    AT(chips), 0, 0, 0},
    [RL_P_CHIPS_LIST] = {"chips", "chips", NULL, "chips", RL_PT_COUNT_LIST, "N[,N...]", "chips", 1,
                         1e6, NULL, NULL, "chip counts to sweep (default: every valid slice)",
                         AT(chips_list), AT(nchips), 64, 0},
    [RL_P_BATCH] = {"batch", "batch", NULL, "batch", RL_PT_COUNT_LIST, "B[,B...]", "sequences", 1,
                    1e9, "1", NULL, "sequences decoded together (ops --phase prefill: prompts "
                    "prefilled together; a list gives one row each)",
                    AT(batch), AT(nbatch), RL_MAX_LIST, 0},
    [RL_P_BATCH_SWEEP] = {"batch", "batch", NULL, "batch", RL_PT_COUNT_LIST, "B[,B...]",
                          "sequences", 1, 1e9, NULL, NULL,
                          "batch sizes to sweep, all replicas together (default 1, 2, 4, ..., "
                          "2048)",
                          AT(batch), AT(nbatch), RL_MAX_LIST, 0},
    [RL_P_RESERVE_STEP] = {"hbm-reserve", "hbm_reserve", NULL, NULL, RL_PT_NUMBER, "F", "fraction",
                           0, 0.9, "0", NULL,
                           "step (its own row of this flag): HBM kept free of weights and KV "
                           "where no engine memory rule applies, as simulate's; default 0 (seed "
                           "000's max batch over the whole HBM) in ideal mode or without engines, "
                           "0.1 as simulate and size keep on a serving engine without a rule (one "
                           "an older roofline fit wrote: fit now saves the rule of the engine it "
                           "fitted against, or of the base's default engine); shard, pareto, ops and prefill judge fits with this "
                           "default",
                           NOWHERE, 0},
    /* shard's own rows of --chips and --overlap: it takes no --tp or --pp
     * (it lists tp, ep, sp, pp and 2D plans itself), so the shared text's
     * "split by --pp" and "with --pp" misled its --help (tester37) */
    [RL_P_CHIPS_SHARD] = {"chips", "chips", NULL, "chips", RL_PT_COUNT, "N", "chips", 1, 1e6, "1",
                          NULL, "chips every listed plan is laid over (shard lists the tp, ep, sp, "
                          "pp and 2D plans itself; a plan on fewer chips runs as replicas: "
                          "'tp4 x2')", AT(chips), 0, 0, 0},
    /* tester60 #4: the shared text's "a list gives one row each" is step's;
     * shard takes one B (cli.c cmd_shard) */
    [RL_P_BATCH_SHARD] = {"batch", "batch", NULL, "batch", RL_PT_COUNT_LIST, "B", "sequences", 1,
                          1e9, "1", NULL, "one value: sequences every plan decodes together, and "
                          "the prompts a prefill row's throughput splits over its replicas "
                          "(batch_step_s)", AT(batch), AT(nbatch), RL_MAX_LIST, 0},
    [RL_P_OVERLAP_SHARD] = {"overlap", "overlap", NULL, NULL, RL_PT_SWITCH, NULL, "", 0, 0, NULL,
                            NULL, "each plan's step = max(local, comm) instead of the sum (the "
                            "pp plans: max(local, comm - stage sends) + stage sends)",
                            AT(plan.overlap), 0, 0, 0},
    [RL_P_CONTEXT] = {"context", "context", NULL, "context", RL_PT_COUNT, "S", "tokens", 1, 1e9,
                      NULL, NULL, "tokens in the KV cache of each sequence", AT(context), 0, 0, 0},
    [RL_P_WEIGHTS] = {"weights", "weights", NULL, "weights", RL_PT_DTYPE, "D", "", 0, 0, "bf16", NULL,
                      "weight dtype; 8- and 4-bit weights keep the embedding, LM head, norms, "
                      "MoE router, biases and attention sinks in bf16 (as quantized checkpoints "
                      "store them; 4-bit adds its group scales)", AT(prec.weights), 0, 0, 0},
    [RL_P_WEIGHTS_LIST] = {"weights", "weights", NULL, "weights", RL_PT_DTYPE_LIST, "D[,D...]", "", 0,
                           0, "bf16", NULL, "weight dtypes to sweep (8- and 4-bit keep the "
                           "embedding, LM head, norms, router, biases and sinks in bf16)",
                           AT(weights), AT(nweights),
                           RL_DTYPE_COUNT, 0},
    [RL_P_KV] = {"kv", "kv", NULL, "kv", RL_PT_DTYPE, "D", "", 0, 0, "bf16", NULL, "KV-cache dtype",
                 AT(prec.kv), 0, 0, 0},
    [RL_P_KV_LIST] = {"kv", "kv", NULL, "kv", RL_PT_DTYPE_LIST, "D[,D...]", "", 0, 0, "bf16", NULL,
                      "KV-cache dtypes to sweep", AT(kv), AT(nkv), RL_DTYPE_COUNT, 0},
    [RL_P_COMPUTE] = {"compute", "compute", NULL, "compute", RL_PT_DTYPE, "D", "", 0, 0, "bf16", NULL,
                      "dtype of the matrix units (selects the FLOP/s peak)", AT(prec.compute), 0, 0,
                      0},
    [RL_P_IDEAL] = {"ideal", "ideal", NULL, "mode", RL_PT_SWITCH, NULL, "", 0, 0, NULL, NULL,
                    "the pure roofline even when the profile has efficiency tables (= --engine "
                    "ideal; refused beside another --engine)", AT(ideal), 0, 0, 0},
    [RL_P_IDEAL_SWEEP] = {"ideal", "ideal", NULL, "mode", RL_PT_SWITCH, NULL, "", 0, 0, NULL, NULL,
                          "formula (1) on all chips at the datasheet peaks, no communication, "
                          "instead of every sharding plan timed as step/prefill time it (mode "
                          "ideal)",
                          AT(ideal), 0, 0, 0},
    [RL_P_SET] = {"set", NULL, NULL, NULL, RL_PT_SET, "model.FIELD=V|hw.FIELD=V", "", 0, 0, NULL,
                  NULL, "override a spec field (repeatable; dotted for tables: hw.flops.bf16=2e14; the "
                        "result names them: model_overrides, hw_overrides); "
                        "hw.hbm_bw may be spelt by its result keys hbm_bytes_per_s and hbm_bw_bytes_per_s; "
                        "a hw figure (flops.*, hbm_bw, hbm_bytes, ici_bw, ici_latency, net_bw, "
                        "net_latency, host_bw, ici_links, domain_chips) over 100x outside the shipped presets' range gets "
                        "a note, set here, in a spec file or a Lua table alike (spec.h "
                        "rl_hw_plausible_notes); "
                        "hw.flops.* or hw.hbm_bw is a what-if: a profile's measured kernel times "
                        "keep their excess over their roofline, the roofline part moved to the "
                        "changed chip; its fitted costs' operator and collective terms follow the "
                        "changed figures, their prefill_act_byte_s (a time per activation byte, "
                        "not tied to FLOP/s or HBM bandwidth) does not; hw.ici_bw, ici_latency, ici_links or topology moves its "
                        "measured collective times by the link what-if rule (comm.h: the measured "
                        "curve at the bytes x the bandwidth ratio, plus the latency change; mode "
                        "estimated, with a note)",
                  NOWHERE, 0},
    [RL_P_FORMAT] = {"format", NULL, NULL, NULL, RL_PT_CHOICE, "F", "", 0, 0, "table",
                     "table|csv|json", "output format (JSON and CSV in SI units; CSV holds every top-level table, a leading table column naming each line's when there are several; a list inside a row, as shard's collective_list, and simulate's kv_timeline are JSON only)", AT(fmt), 0, 0, 0},
    [RL_P_OUTPUT] = {"save", NULL, NULL, NULL, RL_PT_STRING, "FILE", "", 0, 0, NULL, NULL,
                     "write the result there (atomically, in --format; without --format a .json "
                     "name writes JSON and a .csv name CSV, any other name the table; a --format "
                     "that contradicts .json/.csv is kept, with a note) instead of stdout (not "
                     "as a .lua file in a data directory's model/ or hw_profiles/, where every "
                     ".lua is read as a spec; import-hf's model spec may go in model/); its "
                     "folder must exist (an output file's folder is not made: exit 2)",
                     AT(output), 0, 0, RL_PF_WRITES | RL_PF_NONEMPTY},
    [RL_P_PLOT] = {"plot", NULL, NULL, NULL, RL_PT_STRING, "FILE.png|.svg", "", 0, 0, NULL, NULL,
                   "also draw the figure (data and .gp kept beside it; its folder must exist, "
                   "not made)", AT(plot), 0, 0,
                   RL_PF_WRITES},
    [RL_P_OUT] = {"out", NULL, NULL, NULL, RL_PT_STRING, "DIR", "", 0, 0, "out", NULL,
                  "the only directory roofline.write and roofline.plot write to (names cannot "
                  "leave it); a missing one is made, with its missing parents, when the script "
                  "first writes, and a note says so (a .lua file is refused in a data "
                  "directory's model/ or hw_profiles/, as --save: every .lua there is read as "
                  "a spec)",
                  AT(outdir), 0, 0, RL_PF_WRITES | RL_PF_NONEMPTY},
    [RL_P_QUIET] = {"quiet", NULL, NULL, NULL, RL_PT_SWITCH, NULL, "", 0, 0, NULL, NULL,
                    "say no \"note:\" lines on stderr (each note's text stays in the JSON "
                    "result where it has a key: *_note); errors, warnings and \"caution:\" "
                    "lines are still said",
                    AT(quiet), 0, 0, 0},
    [RL_P_MAX_INSTRUCTIONS] = {"max-instructions", NULL, NULL, NULL, RL_PT_COUNT, "N", "instructions",
                               1, 1e12, "2000000000", NULL, "Lua VM instruction budget (RL_SCENARIO_LIMITS)",
                               AT(max_instructions), 0, 0, 0},
    [RL_P_PHASE] = {"phase", "phase", NULL, "phase", RL_PT_STRING, "decode|prefill|mixed", "", 0, 0,
                    "decode", NULL, "the step: a decode batch, prefills, or one prefill chunk beside "
                    "a decode batch", AT(phase), 0, 0, 0},
    /* README tester (fixGI #3): prefill listed ops's --phase row, whose
     * text offered decode and mixed steps, and then said it ignores it */
    [RL_P_PHASE_PREFILL] = {"phase", "phase", NULL, NULL, RL_PT_STRING, "P", "", 0, 0, NULL, NULL,
                            "ignored (a note says so): prefill times prefills only; accepted so "
                            "an ops command line runs here (ops --phase prefill is this step)",
                            AT(phase), 0, 0, 0},
    [RL_P_THREADS_SIZE] = {"threads", "threads", NULL, NULL, RL_PT_INT, "N", "threads", 0,
                           RL_SIZE_MAX_THREADS, "0", NULL,
                           "CPU threads of the search: the plans of different replicas run at "
                           "once, each replica's in turn, so the rows are the same on any count "
                           "(0: the CPUs online, at most 8)",
                           NOWHERE, 0},
    [RL_P_TOKENS] = {"tokens", "tokens", NULL, "tokens", RL_PT_COUNT_LIST, "T[,T...]", "tokens", 1,
                     1e9, NULL, NULL,
                     "new tokens per prefill sequence (prefill: one row each; ops refuses it in "
                     "the decode phase)",
                     AT(tokens), AT(ntokens), RL_MAX_LIST, 0},
    [RL_P_PREFIX] = {"prefix", "prefix", NULL, "prefix", RL_PT_COUNT, "P", "tokens", 0, 1e9, "0",
                     NULL, "tokens already cached before a prefill (ops refuses it in the decode "
                     "phase)", AT(prefix), 0, 0, 0},
    [RL_P_MFU] = {"mfu", "mfu", NULL, NULL, RL_PT_NUMBER, "F", "fraction", RL_MFU_MIN, 1, NULL, NULL,
                  "compute at F * peak (e.g. 0.4) instead of the ideal peak", AT(mfu), 0, 0, 0},
    [RL_P_ACT] = {"act", "act", NULL, NULL, RL_PT_DTYPE, "D", "", 0, 0, NULL, NULL,
                  "activation dtype (default bf16; fp32 under --compute fp32, as step's)",
                  AT(act), 0, 0, 0},
    [RL_P_ATTN] = {"attn", "attn", NULL, NULL, RL_PT_CHOICE, "A", "", 0, 0, "fused",
                   "fused|materialized", "FlashAttention, or scores written to HBM",
                   AT(materialized), 0, 0, 0},
    [RL_P_NON_CAUSAL] = {"non-causal", NULL, NULL, NULL, RL_PT_SWITCH, NULL, "", 0, 0, NULL, NULL,
                         "prefill counts T(P+T) pairs, not the causal T(T+1)/2 + TP (decode: unchanged, "
                         "causal: true)",
                         AT(non_causal), 0, 0, 0},
    [RL_P_CAUSAL] = {NULL, "causal", NULL, NULL, RL_PT_SWITCH, NULL, "", 0, 0, "true", NULL,
                     "false: the non-causal prefill of --non-causal", NOWHERE, 0},
    [RL_P_CHUNK] = {"chunk", "chunk", NULL, "chunked_s", RL_PT_COUNT, "C", "tokens", 1, 1e9, NULL,
                    NULL, "also the chunked-prefill time, C tokens a chunk", AT(chunk), 0, 0, 0},
    [RL_P_PROMPT] = {"prompt", "prompt", NULL, NULL, RL_PT_COUNT, "P", "tokens", 1, 1e9, NULL, NULL,
                     "prompt tokens for TTFT (default: the context; at most --context, whose "
                     "default rises to it)", AT(prompt), 0, 0, 0},
    [RL_P_NAME] = {"name", NULL, NULL, NULL, RL_PT_STRING, "NAME", "", 0, 0, NULL, NULL,
                   "the spec's name (default: from the config)", AT(name), 0, 0, 0},
    [RL_P_SOURCE] = {"source", NULL, NULL, NULL, RL_PT_STRING, "TEXT", "", 0, 0, NULL, NULL,
                     "the spec's source line", AT(source), 0, 0, 0},
    [RL_P_TP] = {"tp", "tp", NULL, NULL, RL_PT_COUNT, "Y", "chips", 1, 1e6, "1", NULL,
                 "tensor-parallel chips (chips / (Y*Z*P) replicas, P the --pp stages where the "
                 "command takes --pp, else 1); adds collectives", AT(plan.tp),
                 0, 0, RL_PF_PLAN},
    [RL_P_EP] = {"ep", "ep", NULL, NULL, RL_PT_COUNT, "Z", "chips", 1, 1e6, "1", NULL,
                 "expert-parallel chips (MoE; simulate: groups of each stage's chips, TP inside each)",
                 AT(plan.ep), 0, 0, RL_PF_PLAN},
    [RL_P_SP] = {"sp", "sp", NULL, NULL, RL_PT_COUNT, "N", "chips", 1, 1e6, "1", NULL,
                 "sequence-parallel chips (prefill)", AT(plan.sp), 0, 0, RL_PF_PLAN},
    [RL_P_PP] = {"pp", "pp", NULL, NULL, RL_PT_COUNT, "P", "stages", 1, 1e6, "1", NULL,
                 "pipeline stages (simulate: of each replica's --chips, chips / P TP chips per stage)",
                 AT(plan.pp), 0, 0, RL_PF_PLAN},
    [RL_P_X] = {"x", "x", NULL, NULL, RL_PT_COUNT, "X", "chips", 1, 1e6, NULL, NULL,
                "--sharding 2d: chips on the D axis (default: the Scaling Book's communication "
                "optimum, Appendix B's sqrt(tp D / 2F) rounded to a divisor of tp in [2, tp/2]: "
                "the X minimizing the MLP's collectives under the chapter's model, every axis a "
                "ring at W_ici; step's own collective model (no wraparound on a partial torus "
                "axis, the attention's AllReduce_X) can time another X's collectives and step "
                "faster, which step notes)", AT(plan.x), 0, 0,
                RL_PF_PLAN},
    [RL_P_SHARDING] = {"sharding", "sharding", NULL, NULL, RL_PT_CHOICE, "L", "", 0, 0, "1d",
                       "1d|2d", "Megatron (1d) or 2D weight-stationary sharding of the --tp chips",
                       AT(plan.layout), 0, 0, RL_PF_PLAN},
    [RL_P_KV_SPLIT] = {"kv-split", "kv_split", NULL, NULL, RL_PT_CHOICE, "K", "", 0, 0,
                       "replicate", "replicate|batch|seq",
                       "what tp chips beyond the K KV heads do with the KV cache: replicate each "
                       "head, as vLLM and TensorRT-LLM run plain TP and simulate and size time it; "
                       "batch, each chip the KV of its own sequences, the attention weights still "
                       "TP-split (the default under --ideal: seed 000's layout for its worked "
                       "example; not the engines' attention data parallel, which holds the "
                       "attention weights whole: --ep with --moe-attn replicated, simulate "
                       "--attn-layout attn-dp); seq, split each sequence (docs/model.md)",
                       AT(plan.kv), 0, 0, RL_PF_REFINES},
    [RL_P_MOE_ATTN] = {"moe-attn", "moe_attn", NULL, NULL, RL_PT_CHOICE, "A", "", 0, 0, "tp",
                       "tp|replicated", "MoE attention with --ep: tensor-parallel or replicated",
                       AT(plan.attn_replicated), 0, 0, RL_PF_REFINES},
    [RL_P_OVERLAP] = {"overlap", "overlap", NULL, NULL, RL_PT_SWITCH, NULL, "", 0, 0, NULL, NULL,
                      "step = max(local, comm) instead of the sum (with --pp: max(local, comm - "
                      "stage sends) + stage sends; the roofline's: a step "
                      "kernel tables or fitted costs time keeps the sum)", AT(plan.overlap), 0, 0,
                      0},
    [RL_P_BACKEND] = {"backend", NULL, NULL, "backend", RL_PT_STRING, "cpu|cuda", "", 0, 0, NULL,
                      NULL, "the reference engine's backend", AT(calib.backend), 0, 0, 0},
    [RL_P_PROFILE] = {"profile", NULL, NULL, NULL, RL_PT_STRING, "P", "", 0, 0, NULL, NULL,
                      "calibrated hardware profile (default hw_profiles/calibrated/<host>.lua)",
                      AT(calib.profile), 0, 0, 0},
    [RL_P_QUICK] = {"quick", NULL, NULL, NULL, RL_PT_SWITCH, NULL, "", 0, 0, NULL, NULL,
                    "a smaller grid, a smoke test (tests): calibrate times GEMMs up to M = 4 only "
                    "(prefill then extrapolated), validate 3 runs in one pass; its errors are no "
                    "accuracy figure", AT(calib.quick), 0, 0, RL_PF_BACKEND},
    [RL_P_THREADS] = {"threads", NULL, NULL, NULL, RL_PT_INT, "N", "threads", 1, 1024, "1", NULL,
                      "CPU threads of the cpu backend (profile and engine runs must match: "
                      "validate and validate-serve refuse, exit 2, a profile calibrate measured "
                      "with another count)",
                      AT(calib.threads), 0, 0, RL_PF_BACKEND},
    [RL_P_HOLDOUT] = {"holdout", NULL, NULL, "holdout", RL_PT_INT, "K", "", 2, 1e6, "5", NULL,
                      "validate --tables: every K-th shape (a dtype and a grid node, all its "
                      "configurations) held back from the fit; shapes, not calibrate --tables' "
                      "'configurations' (rows fitted on the grid); a class with fewer than 9 "
                      "held back has its band_widening figures withheld (null)",
                      AT(holdout), 0, 0, RL_PF_TABLES},
    [RL_P_PASSES] = {"passes", NULL, NULL, NULL, RL_PT_INT, "N", "", 1, 10, "2", NULL,
                     "passes over the validation grid; each point keeps its fastest pass's "
                     "median (fewer: shorter on a slow host)", AT(calib.passes), 0, 0,
                     RL_PF_BACKEND},
    [RL_P_QPS] = {"qps", "qps", NULL, "qps", RL_PT_NUMBER, "Q", "req/s", 1e-9, 1e9, NULL, NULL,
                  "mean arrival rate (simulate, size: a run whose last arrival as drawn, "
                  "about --requests / --qps and fixed by --seed, lies past 4.5e9 s is refused, "
                  "the error naming the --qps that fits: the simulator's clock, a double, "
                  "resolves 1 us there and would quantise latencies beyond)", NOWHERE, 0},
    [RL_P_PROMPT_DIST] = {"prompt-len", "prompt_len", "prompt", "prompt", RL_PT_STRING, "DIST",
                          "tokens", 0, 0,
                          NULL, NULL,
                          "prompt lengths: N | uniform:MIN:MAX | lognormal:MEAN:SIGMA (SIGMA in "
                          "log space)",
                          NOWHERE, RL_PF_SERVE},
    [RL_P_OUTPUT_DIST] = {"out-len", "out_len", "output", "output_dist", RL_PT_STRING, "DIST",
                          "tokens", 0, 0, NULL, NULL, "output lengths, a DIST as --prompt-len",
                          NOWHERE, RL_PF_SERVE},
    [RL_P_TRACE] = {"trace", NULL, NULL, NULL, RL_PT_STRING, "F.csv", "", 0, 0, NULL, NULL,
                    "arrivals and lengths, one request a line, by position: arrival_s,"
                    "prompt_tokens,output_tokens[,prefix_id[,prefix_tokens]] (a header line "
                    "naming them in this order is optional; prefix_tokens >= 1, below "
                    "prompt_tokens; no prefix: both left out or empty); a file, or a pipe "
                    "read once (<(...), /dev/stdin, or - for stdin; a FIFO nothing writes to is "
                    "refused after 10 s)",
                    NOWHERE, RL_PF_SERVE},
    [RL_P_POLICY] = {"policy", "policy", NULL, "policy", RL_PT_STRING,
                     "static|interleaved|continuous|chunked|disagg", "", 0, 0, "continuous", NULL,
                     "batching policy", NOWHERE, RL_PF_SERVE},
    [RL_P_REPLICAS] = {"replicas", "replicas", NULL, "replicas", RL_PT_COUNT, "R", "replicas", 1, 1e5,
                       "1", NULL, "replicas of --chips chips (disagg: decode replicas)", NOWHERE,
                       RL_PF_SERVE},
    [RL_P_PREFILL_REPLICAS] = {"prefill-replicas", "prefill_replicas", NULL, "prefill_replicas",
                               RL_PT_COUNT, "P", "replicas", 1, 1e5, "1", NULL,
                               "prefill replicas (--policy disagg; refused beside another policy)",
                               NOWHERE, RL_PF_SERVE},
    [RL_P_ROUTE] = {"route", "route", NULL, "route", RL_PT_STRING, "least-outstanding|round-robin", "",
                    0, 0, "least-outstanding", NULL, "how requests are spread over replicas",
                    NOWHERE, RL_PF_SERVE},
    [RL_P_MAX_SEQS] = {"max-seqs", "max_seqs", NULL, "max_seqs", RL_PT_COUNT, "B", "sequences", 1,
                       1e6, "256", NULL, "batch cap: sequences running at once", NOWHERE,
                       RL_PF_SERVE},
    [RL_P_MAX_TOKENS] = {"max-tokens", "max_tokens", NULL, "max_tokens", RL_PT_COUNT, "T", "tokens", 1,
                         1e9, "8192", NULL, "tokens per step (--policy chunked: the chunk budget, "
                         "default 512; refused beside static and interleaved, which have no "
                         "budget)", NOWHERE, RL_PF_SERVE},
    [RL_P_PAGE] = {"page", "page", NULL, "page_tokens", RL_PT_COUNT, "N", "tokens", 1, 1e5, "16", NULL,
                   "KV page size, at most the model's max_context (a longer page is refused)", NOWHERE,
                   RL_PF_SERVE},
    [RL_P_PREEMPT] = {"preempt", "preempt", NULL, "preempt", RL_PT_STRING, "recompute|swap", "", 0, 0,
                      "recompute", NULL, "what a preempted sequence does with its KV", NOWHERE,
                      RL_PF_SERVE},
    [RL_P_PREFIX_CACHE] = {"prefix-cache", "prefix_cache", NULL, NULL, RL_PT_STRING, "HBM_GB[:HOST_GB]", "GB", 0,
                           0, NULL, NULL, "prefix cache sizes", NOWHERE, RL_PF_SERVE},
    [RL_P_PREFIXES] = {"prefixes", "prefixes", NULL, NULL, RL_PT_STRING, "N:LEN", "tokens", 0, 0, NULL, NULL,
                       "N shared prompt prefixes of LEN tokens", NOWHERE, RL_PF_SERVE},
    [RL_P_SPEC] = {"spec", NULL, NULL, NULL, RL_PT_STRING, "ALPHA:GAMMA[:DRAFT]", "", 0, 0, NULL, NULL,
                   "speculative decoding; DRAFT a fraction of a target step (0.05) or a draft model",
                   NOWHERE, RL_PF_SERVE},
    [RL_P_REQUESTS] = {"requests", "requests", NULL, NULL, RL_PT_COUNT, "N", "requests", 1,
                       (double)RL_REQUESTS_MAX,
                       "20000", NULL, "requests simulated", NOWHERE, RL_PF_SERVE},
    [RL_P_SEED] = {"seed", "seed", NULL, "seed", RL_PT_COUNT, "S", "", 0, 1e18, "1", NULL,
                   "random seed of the generated workload", NOWHERE, RL_PF_SERVE},
    [RL_P_BURST] = {"burst", "burst", NULL, NULL, RL_PT_NUMBER, "CV", "", 0.01, 100, NULL, NULL,
                    "gamma arrivals with this coefficient of variation (default Poisson)", NOWHERE,
                    RL_PF_SERVE},
    [RL_P_TTFT] = {"ttft-p99", "ttft_p99", "ttft_slo", "slo_ttft_p99_s", RL_PT_NUMBER, "S", "s", 1e-6,
                   1e6, NULL, NULL, "TTFT p99 target in seconds (goodput, size; a note above 60 s: ms meant?)", NOWHERE, RL_PF_SERVE},
    [RL_P_TPOT] = {"tpot-p99", "tpot_p99", "tpot_slo", "slo_tpot_p99_s", RL_PT_NUMBER, "S", "s", 1e-6,
                   1e6, NULL, NULL, "TPOT p99 target in seconds (goodput, size; a note above 1 s: ms meant?)", NOWHERE, RL_PF_SERVE},
    [RL_P_REPORT] = {"report", NULL, NULL, NULL, RL_PT_STRING, "FILE.md|FILE.html", "", 0, 0, NULL,
                     NULL, "also write the sizing report (recommendation, alternatives, frontier, "
                     "load curve, memory, sensitivity, assumptions): HTML for .html or .htm, "
                     "Markdown for .md, in any case; its folder must exist (not made)",
                     NOWHERE, RL_PF_WRITES | RL_PF_SERVE},
    [RL_P_RESERVE] = {"hbm-reserve", "hbm_reserve", NULL, NULL, RL_PT_NUMBER, "F", "fraction", 0, 0.9, "0.1",
                      NULL, "simulate, size and the serving commands (default 0.1; step's "
                      "defaults to 0): HBM kept free of weights and KV where no engine memory "
                      "rule applies (ideal mode, or a profile without one)", NOWHERE, RL_PF_SERVE},
    [RL_P_MAX_CHIPS] = {"max-chips", "max_chips", NULL, "max_chips", RL_PT_COUNT, "N", "chips", 1, 4096, NULL, NULL,
                        "most chips of one replica (default: the NVLink domain, beyond it as TP or "
                        "domain-wide PP stages while no smaller replica holds the model); on a TPU "
                        "its slices up to N (tpu-v5e 1, 4, 8, ...; a note says when N is none)",
                        NOWHERE, RL_PF_SERVE},
    [RL_P_KEEP_PREC] = {"keep-precision", "keep_precision", NULL, "keep_precision", RL_PT_SWITCH, NULL, "", 0, 0, NULL, NULL,
                        "only the --weights/--kv/--compute given (else bf16, int8, fp8 searched)",
                        NOWHERE, RL_PF_SERVE},
    [RL_P_PLOT_DIR] = {"plot-dir", NULL, NULL, NULL, RL_PT_STRING, "DIR", "", 0, 0, NULL, NULL,
                       "also draw the latency CDF and KV timeline into DIR (a missing one is "
                       "made, with its missing parents, and a note says so)", AT(plot), 0, 0,
                       RL_PF_WRITES | RL_PF_SERVE},
    [RL_P_SAVE_PROFILE] = {"save", NULL, NULL, "profile", RL_PT_STRING, "PROFILE.lua", "", 0, 0, NULL,
                           NULL, "write the profile (a hardware spec) there (calibrate --backend: "
                           "the raw samples beside it as .json; default "
                           "hw_profiles/calibrated/<host>.lua; calibrate --tables: required)",
                           NOWHERE, RL_PF_WRITES | RL_PF_NONEMPTY},
    [RL_P_SUMMARY] = {"output", NULL, NULL, NULL, RL_PT_STRING, "FILE", "", 0, 0, NULL, NULL,
                      "write the printed summary there (atomically) instead of stdout",
                      AT(output), 0, 0, RL_PF_WRITES | RL_PF_NONEMPTY},
    [RL_P_PLOT_KIND] = {NULL, "kind", NULL, NULL, RL_PT_STRING, "pareto|step|roofline|memory", "", 0,
                        0, NULL, NULL, "the figure", NOWHERE, 0},
    [RL_P_PLOT_FILE] = {NULL, "file", NULL, NULL, RL_PT_STRING, "NAME.png|.svg", "", 0, 0, NULL, NULL,
                        "a plain file name in the output directory", NOWHERE, RL_PF_WRITES},
    [RL_P_PLOT_TITLE] = {NULL, "title", NULL, NULL, RL_PT_STRING, "TEXT", "", 0, 0, NULL, NULL,
                         "the figure's title", NOWHERE, 0},
    [RL_P_PLOT_SERIES] = {NULL, "series", NULL, NULL, RL_PT_STRING, "{{title=, rows=}, ...}", "", 0,
                          0, NULL, NULL, "pareto: 1 to 16 curves of sweep/pareto rows", NOWHERE,
                          0},
    [RL_P_ENGINE] = {"engine", "engine", NULL, "engine", RL_PT_STRING, "NAME", "", 0, 0, NULL, NULL,
                     "the hw spec's serving engine whose kernel tables time the operators "
                     "(default: the spec's default; ideal: the datasheet peaks, no tables, as --ideal except "
                     "in pareto, whose --ideal is formula (1) without communication; none: the "
                     "same as ideal, the engine a result timed by no engine prints; info --hw H "
                     "lists them); "
                     "calibrate/validate --tables: the engine's tables to import; fit: the "
                     "engine the CSV rows are kept for",
                     AT(engine), 0, 0, RL_PF_NONEMPTY | RL_PF_NAME},
    [RL_P_FOLDS] = {"folds", NULL, NULL, "cv_folds", RL_PT_COUNT, "K", "", 2, 1000, "5", NULL,
                    "cross-validation folds (whole configurations each)", NOWHERE, 0},
    [RL_P_ENGINE_NAME] = {"engine-name", NULL, NULL, NULL, RL_PT_STRING, "NAME", "", 0, 0, NULL,
                          NULL, "the engine the fitted costs are named and saved under "
                          "(engines.NAME.costs; default: --engine, else the rows' 'engine' "
                          "column, else the CSV's file name, each run of characters a name "
                          "cannot hold one '-', \"fitted\" when none is left); needed to --save "
                          "rows measured "
                          "on an engine the --hw profile reads from kernel tables (trtllm, vllm)",
                          NOWHERE, RL_PF_NONEMPTY | RL_PF_NAME},
    [RL_P_TABLES] = {"tables", "tables", NULL, NULL, RL_PT_STRING, "DIR", "", 0, 0, NULL, NULL,
                     "measured kernel tables laid out as ../shared/data/silicon/<gpu>/ "
                     "(DIR/ENGINE/*_perf.csv.gz)",
                     AT(tables), 0, 0, RL_PF_NONEMPTY},
    [RL_P_TABLES_OUT] = {"tables-out", NULL, NULL, NULL, RL_PT_STRING, "DIR", "", 0, 0, NULL, NULL,
                         "calibrate --backend: write the GEMM and attention measurements there "
                         "as kernel tables (DIR/reference/*_perf.csv.gz, the --tables format) "
                         "with the host's spec DIR/base.lua (default: the profile's path less "
                         ".lua, plus -tables)",
                         AT(calib.tables_out), 0, 0, RL_PF_NONEMPTY},
    [RL_P_MOE_MODELS] = {"moe-models", NULL, NULL, NULL, RL_PT_STRING, "M[,M...]", "", 0, 0, NULL,
                         NULL, "calibrate --tables: import the MoE tables of these models' shapes "
                         "only (hidden, inter, topk, experts; default: every shape measured); "
                         "validate --tables: tune the MoE band widening on them only",
                         AT(moe_models), 0, 0, RL_PF_NONEMPTY | RL_PF_LIST | RL_PF_TABLES},
    [RL_P_DEVICE_UNCHECKED] = {"device-unchecked", NULL, NULL, NULL, RL_PT_SWITCH, NULL, "", 0, 0,
                               NULL, NULL, "calibrate/validate --tables: read tables with no '# "
                               "device:' line, whose chip cannot be checked against --hw (refused, "
                               "exit 2, without it); a calibrated profile says so (measured_on '"
                               RL_DEVICE_UNCHECKED "') and its runs are estimated, not calibrated",
                               NOWHERE, RL_PF_TABLES},
    [RL_P_AGAINST] = {"against", NULL, NULL, NULL, RL_PT_STRING, "F.csv", "", 0, 0, NULL, NULL,
                      "measurements to compare the prediction with (fit's FILE.csv format); a file, "
                      "or a pipe read once (<(...), /dev/stdin, or - for stdin)", NOWHERE, 0},
    [RL_P_BAND] = {"band", "band", NULL, "band", RL_PT_CHOICE, "B", "", 0, 0, "p10-p90",
                   "p10-p90|p5-p95",
                   "the uncertainty band: quantiles of a fitted profile's or the kernel tables' residuals",
                   NOWHERE, 0},
    [RL_P_CONSERVATIVE] = {"conservative", "conservative", NULL, NULL, RL_PT_SWITCH, NULL, "", 0, 0,
                           NULL, NULL, "size on the slow edge of the band (an edge clamped to the figure, "
                           "as ttft_p99_s_high_clamped says, adds no margin; the kernel tables' "
                           "band: the end-to-end gap of e2e_gap_note is not in it, a caution "
                           "says so)", NOWHERE, 0},
    [RL_P_HEADROOM] = {"headroom", "headroom", NULL, "headroom", RL_PT_NUMBER, "F", "fraction", 0,
                       RL_SIZE_MAX_HEADROOM, "0.2", NULL,
                       "meet the targets at (1 + F) x the load (our stated rule: docs/serving.md)",
                       NOWHERE, RL_PF_SERVE},
    [RL_P_OFFLINE] = {"offline", "offline", NULL, "offline", RL_PT_SWITCH, NULL, "", 0, 0, NULL, NULL,
                      "every request at t = 0 instead of --qps: maximum throughput (MLPerf "
                      "Offline)", NOWHERE, RL_PF_SERVE},
    /* tester72 #1: the capacity search is most of simulate's time at many
     * replicas (its samples grow with the load it reaches, serve.h
     * rl_serve_capacity); a run that needs only its latencies skips it */
    [RL_P_NO_CAPACITY] = {"no-capacity", "no_capacity", NULL, NULL, RL_PT_SWITCH, NULL, "", 0, 0, NULL,
                          NULL, "skip the capacity search (max_sustainable_qps, "
                          "capacity_utilization and max_sustainable_qps_no_slo then null, "
                          "capacity_searched false): only the run at --qps", NOWHERE, 0},
    [RL_P_SAVE_MISFIT] = {"save-misfit", NULL, NULL, NULL, RL_PT_SWITCH, NULL, "", 0, 0, NULL,
                          NULL, "--save the profile even when its cross-validated median "
                          "|error| is above 25% (refused without it: such a fit cannot match "
                          "its rows, most often measured_s not in seconds); every command that "
                          "loads it then says so", NOWHERE, 0},
    [RL_P_CAPACITY_PCT] = {"capacity-pct", NULL, NULL, NULL, RL_PT_COUNT_LIST, "P[,P...]", "%", 1,
                           100, "30,60,85", NULL,
                           "loads as percentages of the engine's measured capacity (its offline "
                           "throughput; serve_validate.h); not with --qps",
                           AT(capacity_pct), AT(ncapacity_pct), 16, 0},
    [RL_P_REPEATS] = {"repeats", NULL, NULL, "engine_runs", RL_PT_INT, "N", "", 1, 20, "3", NULL,
                      "engine runs per load (and for the capacity); measured = their median, "
                      "beside it their spread",
                      NOWHERE, 0},
    [RL_P_ATTN_LAYOUT] = {"attn-layout", "attn_layout", NULL, "attention_layout", RL_PT_STRING,
                          "tp|attn-dp", "", 0, 0, "tp", NULL,
                          "a replica's attention: tp (KV heads split, replicated beyond K, "
                          "as vLLM: MLA's latent cache whole on every chip; step's and ops' "
                          "default --kv-split replicate outside --ideal) or attn-dp (attention "
                          "data parallel, MoE models: each chip its own sequences' cache)",
                          NOWHERE, RL_PF_SERVE},
};

/* ---- commands ---------------------------------------------------------- */

#define PREC RL_P_WEIGHTS, RL_P_KV, RL_P_COMPUTE
#define OUTPUT RL_P_SET | RL_CLI_ONLY, RL_P_FORMAT, RL_P_OUTPUT, RL_P_QUIET
#define OPS RL_P_ACT, RL_P_ATTN, RL_P_NON_CAUSAL, RL_P_CAUSAL, RL_P_MFU, RL_P_PREFIX
#define SWEEP RL_P_MODEL, RL_P_HW, RL_P_CHIPS_LIST, RL_P_BATCH_SWEEP, RL_P_CONTEXT, RL_P_WEIGHTS_LIST, \
    RL_P_KV_LIST, RL_P_COMPUTE, RL_P_IDEAL_SWEEP, RL_P_ENGINE, RL_P_OVERLAP, RL_P_PROMPT
/* pre: RL_P_PREFIXES as the command takes it (size: only to refuse it) */
#define WORKLOAD(pre) RL_P_QPS, RL_P_PROMPT_DIST, RL_P_OUTPUT_DIST, RL_P_TRACE, pre, \
    RL_P_REQUESTS, RL_P_SEED, RL_P_BURST, RL_P_TTFT, RL_P_TPOT, RL_P_OUTPUT, RL_P_RESERVE
#define END RL_PARAM_END

static const int INFO[] = {RL_P_MODEL, RL_P_HW | RL_CLI_ONLY, RL_P_CONTEXT, PREC,
                           OUTPUT, END};
/* step: PLAN without --sp, which a decode step refuses (T = 1 in generation;
 * shard.c); fixRD #2: its help listed it only to refuse it */
static const int STEP[] = {RL_P_MODEL, RL_P_HW, RL_P_CHIPS, RL_P_BATCH, RL_P_CONTEXT, PREC,
                           RL_P_IDEAL, RL_P_ENGINE, RL_P_TP, RL_P_EP, RL_P_PP, RL_P_X,
                           RL_P_SHARDING, RL_P_KV_SPLIT, RL_P_MOE_ATTN, RL_P_OVERLAP, RL_P_BAND,
                           RL_P_RESERVE_STEP, OUTPUT, END};
static const int PARETO[] = {SWEEP, RL_P_PLOT, OUTPUT, END};
static const int SWEEP_P[] = {SWEEP, END};
static const int SHARD[] = {RL_P_MODEL, RL_P_HW, RL_P_CHIPS_SHARD, RL_P_BATCH_SHARD, RL_P_CONTEXT, PREC,
                            RL_P_OVERLAP_SHARD, OUTPUT, END};
/* ops and prefill: one replica's 1D TP/EP plan (its collectives join the step) */
#define REPLICA_PLAN RL_P_TP, RL_P_EP, RL_P_MOE_ATTN
static const int OPS_P[] = {RL_P_MODEL, RL_P_HW, RL_P_CHIPS, RL_P_BATCH, RL_P_CONTEXT, PREC,
                            RL_P_IDEAL, RL_P_ENGINE, RL_P_PHASE, RL_P_TOKENS, OPS,
                            REPLICA_PLAN, RL_P_KV_SPLIT, OUTPUT, END};
static const int PREFILL[] = {RL_P_MODEL, RL_P_HW, RL_P_CHIPS, PREC, RL_P_IDEAL, RL_P_ENGINE,
                              RL_P_TOKENS, RL_P_CHUNK, OPS, RL_P_PHASE_PREFILL | RL_CLI_ONLY, REPLICA_PLAN,
                              RL_P_BAND, OUTPUT, END};
static const int IMPORT_HF[] = {RL_P_NAME, RL_P_SOURCE, RL_P_OUTPUT, RL_P_QUIET, END};
static const int CALIBRATE[] = {RL_P_MODEL, RL_P_BACKEND, RL_P_PROFILE, RL_P_THREADS, RL_P_QUICK,
                                RL_P_SAVE_PROFILE, RL_P_TABLES_OUT, RL_P_TABLES, RL_P_HW,
                                RL_P_ENGINE, RL_P_MOE_MODELS, RL_P_DEVICE_UNCHECKED,
                                RL_P_SET | RL_CLI_ONLY, RL_P_FORMAT, RL_P_SUMMARY, RL_P_QUIET, END};
static const int VALIDATE[] = {RL_P_MODEL, RL_P_BACKEND, RL_P_PROFILE, RL_P_THREADS, RL_P_PASSES,
                               RL_P_QUICK, RL_P_AGAINST, RL_P_HW, PREC, RL_P_BAND, RL_P_PLOT,
                               RL_P_TABLES, RL_P_ENGINE, RL_P_HOLDOUT, RL_P_MOE_MODELS,
                               RL_P_DEVICE_UNCHECKED, OUTPUT, END};
static const int FIT[] = {RL_P_MODEL, RL_P_HW, PREC, RL_P_ENGINE, RL_P_ENGINE_NAME, RL_P_FOLDS,
                          RL_P_SAVE_PROFILE, RL_P_SAVE_MISFIT,
                          RL_P_PLOT, RL_P_SET | RL_CLI_ONLY, RL_P_FORMAT, RL_P_SUMMARY, RL_P_QUIET, END};
static const int RUN[] = {RL_P_OUT, RL_P_MAX_INSTRUCTIONS, RL_P_QUIET, END};
static const int SIMULATE[] = {RL_P_MODEL, RL_P_HW, RL_P_CHIPS, PREC, RL_P_IDEAL,
                               RL_P_ENGINE,
                               RL_P_SET | RL_CLI_ONLY, RL_P_FORMAT, RL_P_QUIET, WORKLOAD(RL_P_PREFIXES), RL_P_POLICY,
                               RL_P_REPLICAS, RL_P_PREFILL_REPLICAS, RL_P_ROUTE, RL_P_MAX_SEQS,
                               RL_P_MAX_TOKENS, RL_P_PAGE, RL_P_PREEMPT, RL_P_PREFIX_CACHE,
                               RL_P_SPEC, RL_P_PLOT_DIR, RL_P_BAND,
                               RL_P_OFFLINE, RL_P_ATTN_LAYOUT, RL_P_PP, RL_P_EP,
                               RL_P_NO_CAPACITY, END};
static const int SIZE[] = {RL_P_MODEL, RL_P_HW, PREC, RL_P_IDEAL, RL_P_ENGINE,
                           RL_P_SET, RL_P_FORMAT, RL_P_QUIET, WORKLOAD(RL_P_PREFIXES | RL_REFUSED),
                           RL_P_CONSERVATIVE, RL_P_BAND,
                           RL_P_REPORT, RL_P_MAX_CHIPS, RL_P_KEEP_PREC, RL_P_HEADROOM,
                           RL_P_THREADS_SIZE, END};
static const int VALIDATE_SERVE[] = {RL_P_MODEL, RL_P_BACKEND, RL_P_PROFILE, RL_P_THREADS,
                                     RL_P_QUICK, RL_P_FORMAT, RL_P_OUTPUT, RL_P_REQUESTS,
                                     RL_P_QPS, RL_P_CAPACITY_PCT, RL_P_REPEATS, RL_P_SEED,
                                     RL_P_MAX_SEQS, RL_P_QUIET, END};
static const int LIST[] = {RL_P_FORMAT, RL_P_OUTPUT, RL_P_QUIET, END};
static const int PLOT[] = {RL_P_PLOT_KIND, RL_P_PLOT_FILE, RL_P_PLOT_TITLE, RL_P_PLOT_SERIES,
                           RL_P_MODEL, RL_P_HW, RL_P_CHIPS, RL_P_BATCH, RL_P_CONTEXT, PREC, END};

const rl_command RL_COMMANDS[] = {
    {"info", rl_cli_info, rl_lua_info, INFO, NULL, 0,
     "Parameters, KV bytes and FLOPs per token of a model; or a hardware spec's engines.\n"
     "Parameter counts in total, active and per component (attention, MLP, router,\n"
     "embedding, LM head, norms), KV bytes per token (all layers; a sliding-window model adds\n"
     "sliding_window and kv_bytes_per_token_past_window, what each token past the window\n"
     "adds: kv_window_note), FLOPs per token.  --hw H alone: the\n"
     "chip's figures (peak_flops_per_s per dtype, hbm_bytes and hbm_bytes_per_s, ICI/NVLink,\n"
     "network and host-link bytes/s one-way, latencies, price_per_chip_hour and its source,\n"
     "null when the spec gives none), then the serving engines H carries (version, source, chip measured, kernel tables), the default\n"
     "and the mode each gives; a fitted engine's costs (fitted_costs: decode_step_s, ...),\n"
     "which replace the kernel-table keys step_s, seq_s, launch_s (0 there; costs_source\n"
     "says so), and what they were fitted on (fitted_on: file, rows, models, weights, kv,\n"
     "compute, grid).  Byte counts print whole (rounded to the nearest byte).  --model M\n"
     "with --hw H prints the model's section only: H is checked and a note says it is not\n"
     "used (run info --hw H for its engines).",
     "--model M [--weights D] [--kv D] [--context S] [--set ...] [--format F]\n"
     "   or: --hw H [--set ...] [--format F]"},
    {"step", rl_cli_step, rl_lua_step, STEP, NULL, 0,
     "Decode step time, tokens/s and memory (the Scaling Book's formula (1)).\n"
     "With --ideal over --chips chips holding one fully sharded copy of the model; B_crit and the\n"
     "largest batch that fits, max_batch (of that copy; under a sharding plan the plan's, by\n"
     "each chip's memory, over all its replicas, in the header and each row beside fits).\n"
     "--batch defaults to 1.  Every row carries mode: the run's (ideal, fitted, ...), or a\n"
     "row the kernel tables timed its own, by its table_time_share.\n"
     "With a sharding option the step is per chip\n"
     "plus collectives (\"communication\": \"included\").  Rows' weight_bytes and kv_bytes\n"
     "(what HBM holds) are the whole copy's in formula (1) and in a plan alike (a plan's\n"
     "replica: the model once, and its sequences' KV as its chips hold it, a KV head\n"
     "or MLA latent held whole on k chips counted k times); weight_bytes_per_chip and\n"
     "kv_bytes_per_chip are per chip in both (the table's\n"
     "weight_GB/chip, kv_GB/chip).  weight_load_s times the bytes a step reads: the\n"
     "embedding table's B gathered rows, not the table (ops's weight_GB; its\n"
     "hbm_weight_GB is what HBM holds).  The time columns add up (\"breakdown\"):\n"
     "step_s = kv_load_s + attention_compute_s + max(weight_load_s, compute_s) +\n"
     "comm_s + kernel_excess_s, formula (1)'s roofline terms (the attention kernels take\n"
     "max(KV read, attention FLOPs), attention_compute_s the FLOP time beyond the read,\n"
     "the FLOPs at the peak of the wider of --kv and --compute, as ops's qk/pv rows;\n"
     "then the matmuls), the collectives, and the time the kernels take\n"
     "above their roofline (0 with --ideal); a --pp plan's columns are per step (pp\n"
     "ticks; comm_s holds the pp-1 stage sends).  With --overlap the key states the\n"
     "max form the rows obey: step_s = max(local, comm_s), local = kv_load_s +\n"
     "attention_compute_s + max(weight_load_s, compute_s) + kernel_excess_s; with\n"
     "--pp, max(local, comm_s - sends) + sends, sends the stage sends (the batch's P2P\n"
     "collectives).\n"
     "In calibrated mode\n"
     "(efficiency tables, no --ideal) a 1D --tp/--ep plan stays calibrated.  Without\n"
     "--ideal (every profile, as simulate's replicas), --chips N\n"
     "without a plan runs each --batch on its fastest plan that holds it (stepplan.h):\n"
     "tpT x ppP times R replicas on R T P <= N chips, T inside one NVLink domain that\n"
     "splits the heads (any T, not only a divisor of N), R up to floor(N / T P) and the\n"
     "batch (no replica idle: 64 H100s, llama3-8b, batch 1: tp8, 56 chips idle) (the most\n"
     "unless fewer step the batch faster: a replica's step is not monotone in its share,\n"
     "32 H100s, llama3-8b, batch 9: tp8 x3, 1.630 ms, where tp8 x4 took 1.809), P the\n"
     "fewest stages whose row fits at T and R (9 H100s, llama3-70b: tp8, 9.21 ms, where the\n"
     "automatic plan's pp3 took 26.97), or a deeper pipeline up to the batch at the most\n"
     "replicas it leaves (its micro-batches are smaller) or fewer while a micro-batch holds\n"
     "at most 4 sequences (48 H100s, llama3-8b, batch 10: tp8 pp3, 1.681 ms, where tp8 x3\n"
     "took 1.749), the chips left over idle (the\n"
     "row's idle_chips; tokens_per_s_per_chip still divides by all N); of the plans whose\n"
     "row fits, the shortest step_s, ties to the fewer T, then the more replicas: more\n"
     "chips never read a slower step.  Each row's strategy names its plan (as its\n"
     "sharding, tp, pp and replicas, with its comm_buffer_bytes and workspace_bytes: in\n"
     "csv these columns are the row's, the header's run.replicas etc.), plan_choice\n"
     "states the rule, the header's sharding, replicas, max_batch, memory keys and\n"
     "e2e_gap_note are the first row's plan (outside_tables every row's), and a note\n"
     "names the plans (10 H100s, llama3-70b fp8, batch 1: tp8 on 8 chips, 2 idle, 7.1 ms,\n"
     "where tp2 x 5 took 15.7; 32 TPU v5p, llama3-8b fp8, batch 64: tp8 x 4, 1.14 ms,\n"
     "where tp32 took 2.29).  A batch no plan holds runs the nearest, the plan with the\n"
     "least weights + KV over its usable room a chip, fits false (64 TPU v5e, llama3-70b,\n"
     "batch 512 at context 8192: tp8 pp8, 6.7 GB over, where tp64 was 157 GB over).  When\n"
     "no plan holds the weights, the nearest (the most KV room; --chips 3 for llama3-405b:\n"
     "tp1 x pp3), fits false, exit 0, as a --tp --pp plan that does not fit; simulate's\n"
     "--chips 16 is one tp16 replica.  A row the engine's kernel tables time\n"
     "(its operator list) carries norm_fusion, as ops prints it: how that list ran each\n"
     "residual add and the norm after it (apart, one fused kernel, or inside the TP\n"
     "AllReduce; a LayerNorm model's always apart; docs/model.md).  Without --ideal (one\n"
     "chip or a plan), outside_tables (null when none; pareto's key) names what its rows\n"
     "time outside the measured tables: operators extrapolated past a kernel table's grid,\n"
     "collectives over more GPUs than the collectives table measures (raised to a smaller\n"
     "group's time), and collectives crossing the NVLink/ICI domain (network level\n"
     "modelled); stderr says it.  Where a smaller --batch reads slower than a larger one,\n"
     "batch_fall_note names the pair and the cause (B200/GB200 vLLM fp8 GEMMs: m = 1 runs\n"
     "slower than m = 2, kept as measured; TensorRT-LLM's decode attention switching from\n"
     "masked MHA to XQA between the two batches, each side looked up in its kernel's\n"
     "measured table; stderr says it too); where none does but a larger --batch reads\n"
     "fewer tokens/s than a smaller one, it names that pair and how much more its dense\n"
     "matmuls take than the batch grew (a step in the measured GEMM table, e.g. A100\n"
     "TensorRT-LLM bf16 from batch 128 to 160), the smaller being the better for throughput.\n"
     "Routed experts: with no MoE kernel of the model's expert shape the dense GEMM table\n"
     "times them (wide band, up to x5.7); a MoE kernel of that shape in another dtype times\n"
     "them derived, with the band of a dtype's tables derived from another's, wider than the\n"
     "MoE table's residuals (both noted; docs/model.md, Bands of unmeasured operators).\n"
     "fp8 x fp8 reads the MoE kernel of the model's fp8_scaling (tensor or block); the\n"
     "other's rows where only they measure the shape, with a caution.\n"
     "Notes, each key absent when it does not apply: kv_engine_note, the engine stores no\n"
     "KV cache in --kv's dtype (a caution on stderr); precision_engine_note, the engine runs\n"
     "no fp8 or fp4 --weights or --compute on this chip (trtllm: fp8 below SM89, fp4 below\n"
     "SM100; a caution); either makes a calibrated run read mode estimated (mode_note says\n"
     "why: the tables were measured on this chip, but not for what the run does); mla_engine_note, an MLA model's decode attention timed from\n"
     "TensorRT-LLM's measured MLA kernel on a chip below SM90, far above its roofline (a\n"
     "caution: measured, and why); derived_slow_note, a GEMM dtype no table measures,\n"
     "derived from another variant's efficiency, slower than a wider measured one (a\n"
     "caution);\n"
     "moe_slow_note, the measured MoE kernel\n"
     "of the weights' dtype runs slower than its bf16 one at these shapes (a caution);\n"
     "e2e_gap_note, how far SplitwiseSim's end-to-end decode step medians ran above this\n"
     "chip's engine tables, its p90 labelled (stderr outside JSON; docs/model.md, The\n"
     "end-to-end gap); step_floor_note, a step below one kernel launch (1 us), which\n"
     "carries no engine cost and is no deployable rate (a caution; simulate and size's\n"
     "rows too); idle_replicas_note, the first row whose batch leaves replicas idle (its\n"
     "idle_replicas): tokens_per_s_per_chip counts their chips, and the --chips that runs\n"
     "one replica a sequence times the same step at more tokens/s a chip.\n"
     "Keys in every mode: the header's hbm_bytes_per_s (the chip's HBM bandwidth, its\n"
     "canonical key, as info --hw names it; list hw's hbm_bw_bytes_per_s is an alias) and\n"
     "hbm_bw_total (chips x it); each row's batch, context, step_s, tokens_per_s,\n"
     "tokens_per_s_per_chip, the time columns, weight_/kv_bytes(_per_chip), fits, phase,\n"
     "strategy, b_crit, max_batch, usable_bytes_per_chip, flops_per_chip, comm_s,\n"
     "collectives, latency_bound_collectives and idle_replicas (--chips N without a plan\n"
     "also idle_chips, sharding, tp, ep (1: these plans have no expert parallelism), pp,\n"
     "replicas, comm_buffer_bytes and workspace_bytes, both null where no engine memory\n"
     "rule reserves them (memory_rule none, as a TPU profile's);\n"
     "a one-chip row: strategy\n"
     "tp1, comm_s 0, no collectives; --ideal without a plan: \"one copy over N chips\").\n"
     "Keys by path: a one-chip row (any mode, calibrated too), an --ideal row without a\n"
     "plan and a fitted-costs row also carry total_bytes, bound and mlp_bound (a plan's\n"
     "row of --tp, --pp or --chips N not timed by fitted costs does not); a row the\n"
     "kernel tables time adds mode, table_time_share, provenance, norm_fusion and\n"
     "step_s_low and step_s_high (the band's ends); one chip on them, the header's\n"
     "step_time says what times step_s (the operator list timed by the engine's kernel\n"
     "tables; the other time columns are the formula's ideal split).",
     "--model M --hw H [--chips N] [--batch 1,8,16] --context S [--weights D] [--kv D]\n"
     "       [--compute D] [--ideal] [--tp Y --ep Z --pp P --sharding 1d|2d ...] [--set ...]\n"
     "       [--format F]"},
    {"pareto", rl_cli_pareto, rl_lua_pareto, PARETO, NULL, 0,
     "Latency / cost Pareto frontier of a sweep over chips x layout x batch x precision.\n"
     "Every sharding plan (roofline shard's candidates, collectives included) for each chip\n"
     "count, batch and weight x KV precision at one context, and the plan step --chips N\n"
     "runs each batch on (tp x pp times replicas on up to N chips, the rest idle; not with\n"
     "--ideal or fitted costs); rows: chips, layout, its tp, ep, pp, replicas and idle_chips\n"
     "(tp x ep x pp x replicas + idle_chips = chips; a prefill_layout's sp splits replicas),\n"
     "batch, precision, step_s, ttft_s (best prefill plan), comm_s, cost per token (over all\n"
     "N chips, as step's tokens_per_s_per_chip).  Points that do\n"
     "not fit in HBM are counted and kept out; when no point is kept (none fits, none leaves\n"
     "room to prefill, the calibrated path times none) the result is written with rows empty\n"
     "and none_kept_note saying why (null otherwise), no figure is drawn, and pareto exits 3\n"
     "(a verdict, as size's; it was 2 before 0.54; plans refused as bad input, an ici_bw of 0,\n"
     "still exit 2).  --chips defaults to every valid slice;\n"
     "--ideal uses formula (1) on all chips without communication instead.  --context\n"
     "defaults to 2048 (or the model's max_context if shorter), --batch to 1, 2, 4, ..., 2048.\n"
     "A run past 5 s says its progress on stderr every 5 s when stderr is a terminal or\n"
     "the grid holds 20000 cells or more (chips x precisions x batches).  The grid is bounded:\n"
     "chip counts x batches x weight x KV dtypes over 100000 points is refused before the\n"
     "run (exit 2, naming each list's length; sweep.h RL_PARETO_MAX_POINTS).\n"
     "On a profile with measured tables (mode calibrated, or estimated when borrowed), each\n"
     "1D tp/ep plan is timed as `step --tp` and `prefill --tp` time it: the --engine's kernel\n"
     "tables and costs (default: the profile's), each chip's own KV share, measured\n"
     "collectives, HBM under the engine's memory rule, a pipeline as `step --pp` times it;\n"
     "plans that path does not time (2d, --sp) are left out and counted (uncalibrated_plans),\n"
     "and TTFT is the plan's own prefill (no sequence parallelism); each row has its own\n"
     "mode and table_time_share, as step's rows (the document's mode: the worst row's; the\n"
     "decode step's alone: ttft_mode is ttft_s's prefill's, as prefill labels it), and derived,\n"
     "what of its precision the\n"
     "tables do not measure, and routed experts timed from the GEMM table (\"none\").  On a\n"
     "profile with fitted\n"
     "engine costs (`roofline fit`, mode fitted) each plan they model (one replica TP over\n"
     "its GPUs, and its pipelines) is timed as\n"
     "`step --chips tp` and `prefill --chips tp` time it there, each row's mode and\n"
     "ttft_mode as they label it (estimated outside the fit's model, dtypes, TP range or\n"
     "pipeline; the document's mode its rows' worst, fitted_outside each reason); other\n"
     "plans are left out and counted (uncalibrated_plans).  Without measurements (the TPU\n"
     "presets: mode estimated, the datasheet figures) or with --engine ideal (mode ideal),\n"
     "every plan runs at the datasheet peaks with its collectives, an upper bound on speed;\n"
     "each row has that mode (table_time_share null).  A row whose plan its engine does\n"
     "not run on its chip carries kv_engine_note and precision_engine_note (else null),\n"
     "the text step gives that plan, and reads mode estimated, and mla_engine_note likewise (an MLA model's measured\n"
     "TensorRT-LLM decode kernel below SM90), each a caution on stderr once with the count\n"
     "of rows, as size's rows.  `fits` follows the selected engine's memory rule, as step's (the\n"
     "whole HBM under --ideal).  --plot draws each precision's own frontier, one curve each\n"
     "keyed by its precision and its mode (e.g. \"weights bf16, KV bf16 (calibrated)\"), while\n"
     "the rows hold the overall frontier; the title gives the rows' mode and engine, and the\n"
     "result's plot_curves lists the curves and their points; plot, the figure's path.\n"
     "A figure that fails leaves the rows printed, plot_note and stderr saying why, exit 1\n"
     "(as validate --plot; gnuplot missing: data and script kept, plot_note, exit 0).",
     "--model M --hw H [--chips 8,16,32] [--batch 1,8,64] [--context S] [--prompt P]\n"
     "       [--weights bf16,int8] [--kv bf16,int8] [--compute D] [--ideal] [--engine E]\n"
     "       [--overlap]\n"
     "       [--plot F.png|.svg] [--set ...] [--format F] [--save FILE]"},
    {"sweep", NULL, rl_lua_sweep, SWEEP_P, NULL, 0,
     "Every feasible point of the pareto sweep (Lua: roofline.sweep), not only the frontier\n"
     "(the frontier alone is the `pareto` command's, on the command line).",
     "(Lua only) roofline.sweep{model=, hw=, ...}"},
    {"shard", rl_cli_shard, rl_lua_shard, SHARD, NULL, 0,
     "Compare sharding strategies for prefill and generation side by side.\n"
     "Prefill of a prompt of S tokens and generation at S cached tokens on --chips chips:\n"
     "per-chip memory, HBM/compute/communication time, each collective's time and\n"
     "latency-bound flag, the chapter's limits (null where one does not exist: no link, as\n"
     "under --set hw.ici_bw=0, or one chip, which communicates nothing; limits.null_reason\n"
     "says why; the 1D/2D crossover too without a link), the best plan for latency and for\n"
     "throughput per chip; advice counts the plans that could not be timed (without a link\n"
     "every plan with a collective).  A prefill row's step_s is one prompt on one replica (TTFT)\n"
     "and its terms (flops_per_chip, the *_load_s, compute_s, comm_s, collectives, kv_bytes,\n"
     "fits) that prompt's; its batch_step_s is the row's batch: --batch prompts split over the\n"
     "plan's replicas as generation splits B, each prefilling its share at once (batch_fits).\n"
     "On every row tokens_per_s = batch x tokens a sequence (prefill: context; generate: 1) /\n"
     "batch_step_s, tokens_per_s_per_chip = tokens_per_s / chips, and idle_replicas counts the\n"
     "replicas that batch leaves without a sequence (a generate row's batch_step_s is its step_s).\n"
     "Plans are timed at the datasheet peaks (engine none); `fits` follows the\n"
     "profile's engine memory rule (memory_engine names that engine; usable_bytes_per_chip),\n"
     "as step and step --tp judge it\n"
     "with that engine; step --tp N --ideal applies no engine rule (memory_rule none: all HBM\n"
     "usable), so its usable_bytes_per_chip and max_batch run higher (mode_note says so)\n"
     "(workspace_note: the model's activation workspace the rows subtract; the header's\n"
     "workspace_bytes is the rule's own).  JSON: `collectives` lists the best plans'\n"
     "collectives, each row with any its own in collective_list (their total_s add up\n"
     "to its comm_s).",
     "--model M --hw H --chips N --batch B --context S [--overlap] [--weights D] [--kv D]\n"
     "       [--compute D] [--set ...] [--format F]"},
    {"ops", rl_cli_ops, rl_lua_ops, OPS_P, NULL, 0,
     "Operator-by-operator roofline of one decode, prefill or mixed step.\n"
     "FLOPs, weight/activation/KV bytes, intensity, bound, B_crit and ideal time of every "
     "operator of a layer, the embedding and the LM head.\n"
     "A row's flops, weight_bytes, act_bytes and kv_bytes are the whole replica's (all its\n"
     "chips); flops_per_chip and X_bytes_per_chip are one chip's (the figure over the chips:\n"
     "an even share of what is split, whole what every chip holds or runs whole: the router,\n"
     "MLA's down-projections, norm gains under a plan, a TP group's norms and residual adds\n"
     "outside --ideal), which the table shows (flops_per_chip, X_GB/chip), and time_s is one\n"
     "chip's, so per-chip bytes / time_s is a chip's bandwidth.  A row's tokens are the\n"
     "token rows it works on: the step's M (decode B, prefill sequences x T, mixed T + B)\n"
     "for weight matmuls and elementwise ops, the sequences for the LM head, the query tokens of its\n"
     "segment (prefill: or decode:) for attention rows; 0 on communication rows.\n"
     "decode: --batch B sequences at --context S; prefill: --batch sequences of --tokens T new\n"
     "tokens on a cached --prefix P; mixed: one T-token prefill chunk beside a decode batch.\n"
     "An option the phase makes moot is refused (exit 2): --tokens and --prefix in decode,\n"
     "--context in prefill.\n"
     "--tp/--ep: one replica's plan, its collectives among the rows, its decode KV in step's\n"
     "--kv-split layout (default replicate, batch under --ideal), so calibrated, ops and step\n"
     "time one step alike.  Under --ideal they do not: step is formula (1) over the weights\n"
     "and KV cache ops reads (weight_GB, kv_read_GB), ops each operator's own roofline, so\n"
     "ops is above step; where every operator with bytes is memory-bound (a decode below\n"
     "B_crit), by exactly act_GB + kv_write_GB at the HBM bandwidth plus the compute-bound\n"
     "rows' time (softmax): llama3-70b on 8 h100-sxm, B 16 at 4096, 6.015 against 5.988 ms.\n"
     "prefill: ttft_s is the step plus the engine's prefill dispatch, a host\n"
     "cost per request outside the step (prefill_dispatch_s; vLLM 0.8 ms per layer), as\n"
     "prefill's ttft_s.  A fitted profile's per-step engine costs are not applied to the operator\n"
     "list (step and prefill apply them; a note says so).  norm_fusion: how the selected\n"
     "engine runs each residual add and the RMSNorm after it: apart, one fused kernel\n"
     "(attn_add_norm, mlp_add_norm), or inside the TP AllReduce (no op of their own;\n"
     "docs/model.md); a LayerNorm model (norm = \"layernorm\") apart, neither engine fusing it.\n"
     "mla_engine_note (a decode batch of an MLA model under trtllm below SM90): its MLA\n"
     "attention is TensorRT-LLM's measured kernel, far above its roofline there (a caution).",
     "--model M --hw H [--chips N] [--phase decode|prefill|mixed] [--batch B]\n"
     "       [--context S] [--tokens T] [--prefix P] [--weights D] [--kv D] [--compute D]\n"
     "       [--act D] [--attn fused|materialized] [--non-causal] [--mfu F] [--tp Y --ep Z]\n"
     "       [--kv-split K] [--set ...] [--format F]"},
    {"prefill", rl_cli_prefill, rl_lua_prefill, PREFILL, NULL, 0,
     "Prefill time (TTFT without queueing) of prompts of --tokens tokens.\n"
     "One row per --tokens value, one request each, from the operator list plus the engine's "
     "prefill dispatch once (prefill_dispatch_s: vLLM 0.8 ms per layer); achieved MFU; with "
     "--chunk c also the chunked-prefill time (chunks on the prefix so far). Each row carries "
     "its own `mode` and `table_time_share` (the header's are the lowest share's: one long or "
     "one-token prompt makes the whole list `estimated`, and a note on stderr names why). "
     "Calibrated, outside_tables names what the rows time outside the measured tables, as "
     "step's (null when none; stderr says it).\n"
     "Notes, each key absent when it does not apply: kv_engine_note, the engine stores no\n"
     "KV cache in --kv's dtype (a caution on stderr); precision_engine_note, the engine runs\n"
     "no fp8 or fp4 --weights or --compute on this chip (trtllm: fp8 below SM89, fp4 below\n"
     "SM100; a caution); either makes a calibrated run read mode estimated (mode_note says\n"
     "why: the tables were measured on this chip, but not for what the run does);\n"
     "moe_slow_note, the measured MoE kernel\n"
     "of the weights' dtype runs slower than its bf16 one at these shapes (a caution);\n"
     "e2e_gap_note, how far SplitwiseSim's end-to-end prefill medians ran above this\n"
     "chip's engine tables, its p90 labelled (stderr outside JSON; docs/model.md, The\n"
     "end-to-end gap).",
     "--model M --hw H [--chips N] --tokens T[,T...] [--prefix P] [--chunk c] [--mfu F]\n"
     "       [--weights D] [--kv D] [--compute D] [--act D] [--attn ...] [--tp Y --ep Z]\n"
     "       [--set ...] [--format F]"},
    {"import-hf", rl_cli_import_hf, NULL, IMPORT_HF, NULL, 1,
     "Convert a Hugging Face config.json into a model spec (Lua).\n"
     "Families: llama, mistral, mixtral, qwen2, qwen3, qwen3_moe, phi3, gemma2, gemma3,\n"
     "deepseek_v2/v3, gpt_oss; e.g. roofline import-hf config.json > model/NAME.lua.\n"
     "The spec is validated before it\n"
     "is printed; an unknown model_type or a missing key is an error (exit 2) naming the file\n"
     "and key, except keys the family's transformers config defaults (e.g. head_dim: qwen3\n"
     "128, gemma 256, gpt_oss 64; hidden_act: silu, gemma's hidden_activation:\n"
     "gelu_pytorch_tanh; a note says so).\n"
     "qwen2's q/k/v biases (no o bias, as transformers' Qwen2Attention) are written as\n"
     "qkv_bias = true and counted in the parameters.  layer_types decides which layers slide\n"
     "(a layout the spec cannot express is an error).  A quantization_config (an object) is not applied (the spec has no dtype; runs default to\n"
     "bf16 weights): a note on stderr says what it says and which --weights matches.\n"
     "torch_dtype (dtype in newer configs) is not read either: a name torch has not (e.g.\n"
     "bfloat17) is said in a note naming the file and key, runs assuming bf16; a value that\n"
     "is not a string is an error.\n"
     "deepseek_v2/v3 without n_shared_experts, first_k_dense_replace or q_lora_rank take\n"
     "transformers' defaults (v2: 2, 0, 1536; v3: 1, 3, 1536), with a note; q_lora_rank null\n"
     "is a full-rank q.  qwen3_moe mlp_only_layers [0, ..., k-1] is dense_layers = k (other\n"
     "lists are an error).\n"
     "rope_scaling sets max_context as vLLM derives max_model_len (yarn:\n"
     "original_max_position_embeddings x factor; linear, dynamic: max_position_embeddings x\n"
     "factor; llama3, longrope: unchanged), with a note, for every model_type but gemma3,\n"
     "whose max_position_embeddings already is the scaled length (vLLM skips its factor): a\n"
     "note says so where its block would move it.  CONFIG.json may be a pipe read\n"
     "once (<(...), /dev/stdin, or - for stdin) or any descriptor path /dev/fd/N (a pipe or\n"
     "a file on it), which has no file name: give --name (without it: exit 2); a FIFO made\n"
     "by mkfifo is named by its path, as a file is.\n"
     "Every family above normalizes with RMSNorm (transformers' LlamaRMSNorm, ...,\n"
     "GptOssRMSNorm; rms_norm_eps), written as norm = \"rmsnorm\"; a LayerNorm family\n"
     "(bloom, gpt2, opt, falcon, gpt_neox, phi) is refused with a note to write its spec by\n"
     "hand with norm = \"layernorm\" (model/bloom-176b.lua).\n"
     "import-hf takes no --set: edit a\n"
     "field of the saved spec, or pass --set model.FIELD=V to the commands that load it.\n"
     "A rope type other than default, linear, dynamic, ntk, yarn, longrope, su, llama3, mrope\n"
     "(case-sensitive), rope_type and type that disagree, a linear, dynamic, ntk or yarn\n"
     "block with no factor, or a quantization_config without quant_method, is an error.",
     "CONFIG.json [--name NAME] [--source TEXT] [--save FILE]"},
    {"calibrate", rl_cli_calibrate, NULL, CALIBRATE, NULL, 0,
     "Measure this host's kernels and write its calibrated profile, or import measured tables.\n"
     "--backend: runs the reference engine's kernels (stream, GEMM/GEMV grid, attention, norms,\n"
     "overhead), fits efficiency tables to their median times, writes the GEMM and attention\n"
     "medians as kernel tables (--tables-out DIR, default <host>-tables/: DIR/reference/*.csv.gz\n"
     "in the --tables format, the host's spec in DIR/base.lua) and imports them as --tables\n"
     "does into hw_profiles/calibrated/<host>.lua (or --save PROFILE.lua) with engine\n"
     "`reference` as its default; raw samples in <host>.json (PROFILE.json); --output FILE\n"
     "keeps the printed summary.  The profile's tables name the release and the build's commit\n"
     "(engine version 'roofline VERSION (commit HASH)', the hash's -dirty: built with uncommitted\n"
     "changes; make rebuilds it whenever HEAD or the tree's state changes).\n"
     "--tables DIR: imports DIR/E/{gemm,context_attention,generation_attention}_perf.csv.gz\n"
     "(the layout of ../shared/data/silicon/<gpu>/, NVIDIA AIConfigurator data) into kernel\n"
     "tables of engine E and writes H with them as a calibrated hardware spec to --save FILE\n"
     "(H's own tables are not kept: a note names any of the three files DIR/E lacks, whose\n"
     "work the profile's runs time at the roofline);\n"
     "tables whose '# device:' is not H's chip (as H's engines name it) are refused, and so\n"
     "are tables with no '# device:' line unless --device-unchecked (the profile then reads\n"
     "estimated).",
     "--backend cpu|cuda [--model M (GEMM shapes; default tiny-ref)] [--threads N (cpu, 1)]\n"
     "       [--quick] [--save PROFILE.lua] [--tables-out DIR] [--format F]\n"
     "   or: --tables DIR --hw H --engine E --save PROFILE.lua [--device-unchecked] [--format F]"},
    {"validate", rl_cli_validate, NULL, VALIDATE, NULL, 0,
     "Predicted vs measured: the reference engine's steps, or a benchmark CSV.\n"
     "--backend: runs the engine over decode B x S and prefill T grids, predicts each run\n"
     "from the calibrated profile and prints predicted vs measured, per run and per operator.\n"
     "Its prediction times the reference engine's own operators (calib/engine_ops.c: q, k,\n"
     "v and gate, up as separate GEMMs, fp32 activations, its norms, RoPE, SwiGLU and KV\n"
     "write), not the serving op list step and prefill time (fused q/k/v and gate/up, --act\n"
     "bf16): its figure and error are not step's or prefill's for that shape (prefill of\n"
     "512 tokens on one CPU profile: 418.2 against prefill's 395.5 ms; docs/validation.md).\n"
     "--against FILE.csv: predicts every row of a measurement CSV (see roofline fit --help)\n"
     "as step and prefill do on its hardware (each row's mode): by the fitted engine costs,\n"
     "else calibrated by the selected --engine's kernel tables (as step --tp TP, prefill --tp\n"
     "TP), else (datasheet figures only, or --engine ideal: step --ideal's formula (1)) as\n"
     "step --tp TP and prefill --tp TP time it there; a row whose hw names --hw's chip, as in\n"
     "fit, or the --hw profile's own name (h100-sxm-myeng, as validate's CSV writes it), is\n"
     "predicted by --hw, a row of another chip by its own spec, with a warning; each\n"
     "row's hw says which); a row's engine column selects its engine as --engine would, over\n"
     "--engine (an empty cell: --engine, else the hw's default; one the hw does not carry is\n"
     "refused, exit 2; rows whose cell overrides --engine are counted in engine_note, with a\n"
     "warning: a fit's CSV saying trtllm on --engine trtllm-fit is timed by trtllm's tables,\n"
     "so empty the column to time them by the fit); a row with pp or ep > 1 as step --tp TP --ep EP --pp PP\n"
     "--batch B times its decode step, and its prefill as prefill --tp TP --ep EP of the whole\n"
     "batch plus a pipeline's pp-1 stage sends (one pass); each row echoes the model, hw,\n"
     "engine, dtypes, tp, ep, pp and kv_split (step's) it was timed as:\n"
     "error = predicted / measured - 1 per row, median_abs_error,\n"
     "p90_abs_error, max_abs_error, bias (mean error) as fractions; --plot draws predicted\n"
     "vs measured (log-log, y = x and +-10%); a row with a band (fitted costs, kernel-table\n"
     "residuals) adds predicted_s_low/_high (--band), the result band_coverage.  Rows timed\n"
     "by a profile's fitted costs outside the models, dtypes or TP they were fitted on are\n"
     "counted in fitted_on_note, said on stderr (step's note on such a run, the first row's).\n"
     "--tables DIR: fits kernel tables of engine E on DIR (as calibrate --tables) with every K-th\n"
     "shape of a class held back, each grid node with all its configurations (--holdout K,\n"
     "default 5; a class with fewer than K is named in a note, a K above every class's count\n"
     "refused), predicts the held-back ones and\n"
     "prints median / p90 / max |error| per operator class and dtype (--plot: predicted vs\n"
     "measured); tables of another chip's device are refused, as by calibrate --tables.\n"
     "An option of one source given with another (--passes, --holdout, ...) is refused.",
     "--backend cpu|cuda [--model M] [--profile P (default calibrated/<host>)] [--quick]\n"
     "       [--threads N (cpu, 1: as calibrated)] [--passes N (2)] [--format F]\n"
     "   or: --against FILE.csv [--model M] [--hw H] [--engine E] [--weights D --kv D\n"
     "       --compute D] [--band p10-p90|p5-p95] [--plot F.png] [--set ...] [--format F]\n"
     "   or: --tables DIR --hw H --engine E [--holdout K] [--plot FILE.png] [--format F]"},
    {"fit", rl_cli_fit, NULL, FIT, NULL, 1,
     "Fit a serving engine's costs to end-to-end benchmark results; save a profile.\n"
     "FILE.csv (a file, or a pipe read once: <(...), /dev/stdin, or - for stdin, which key\n"
     "  file and messages call stdin; a pipe, -, /dev/stdin or /dev/fd/N has no file name to\n"
     "  name the saved costs by: 'fitted' unless named, and fitted_on.file says \"stdin\" (any\n"
     "  spelling of descriptor 0, a file redirected into it too), \"a pipe\" or \"a descriptor\"\n"
     "  (/dev/fd/N on a file); a FIFO made by mkfifo is named by its path, as a file is):\n"
     "  a header line, one row per measured configuration\n"
     "  (repeats allowed; fields\n"
     "  may be quoted as RFC 4180 says, as --format csv and spreadsheets write them; a\n"
     "  quoted cell may span lines, and an error names the line its row starts on):\n"
     "  phase (decode|prefill|static), tp, batch; decode: context, measured_s (one step);\n"
     "  prefill: tokens, measured_s (prefill of the batch); static: tokens, output,\n"
     "  measured_tok_s_per_gpu.  Optional: model, hw, engine, weights, kv, compute (override\n"
     "  the command line), pp, ep (pipeline stages, expert groups: 1 when absent; the row\n"
     "  runs on tp x ep x pp GPUs; validate --against predicts such rows, fit refuses them,\n"
     "  exit 2, naming the column: its terms are per tensor-parallel step, which a\n"
     "  pipeline's streams and sends or EP's AllToAlls do not enter; no --pp/--ep flags:\n"
     "  as tp, the layout is each row's); kv_split (batch|seq|replicate: a row that names\n"
     "  another layout than step's, which every row is timed in, is refused); a static row\n"
     "  may give measured_s (the whole run) instead, or both agreeing within 1% (else\n"
     "  refused, exit 2, naming both); an engine 'none' (validate's, for a row\n"
     "  timed by no engine) reads as an empty cell.  Other columns (roofline's own CSV\n"
     "  results: fit's, validate's) are not read, named in a note.  A row's hw that names\n"
     "  --hw's chip (H itself, or the preset a profile H is of: name BASE-..., BASE's\n"
     "  datasheet figures) is --hw's; rows of another chip (or --engine) are left out, and\n"
     "  so are rows longer than the model's max_context (a warning names the first of each;\n"
     "  --set model.max_context=N keeps the long ones).\n"
     "  A row whose weights, or weights and its batch's KV cache, exceed the HBM of a chip\n"
     "  of its plan (what step --tp --ep --pp holds on a chip, a pipeline's heaviest\n"
     "  stage) cannot have run: refused (exit 2, naming its line).\n"
     "--engine names the engine measured: trtllm, vllm, reference, splitwise (SplitwiseSim's\n"
     "  measured H100/A100 perf model, the shipped *-splitwise profiles) or a name the CSV's\n"
     "  engine column carries; anything else is refused as a likely typo.  It picks the\n"
     "  rows fitted and names the saved costs, so with --save it may not be an engine --hw\n"
     "  reads from its own tables (the GPU presets' trtllm and vllm) or ideal: those keep no\n"
     "  fitted costs (refused, exit 2, nothing written); leave --engine out and the CSV's\n"
     "  file name names them (rename an engine column that says trtllm or vllm).  A fit is\n"
     "  one engine's costs: without --engine, rows whose engine column names two or more\n"
     "  engines are refused (exit 2, naming them); fit each with --engine E.\n"
     "Per step: max(host: step floor + launches (+ prefill_rank_s x TP degree in a prefill),\n"
     "device: op list at fitted compute/memory\n"
     "efficiency + TP collectives at a fitted comm efficiency + a time per activation byte\n"
     "of the prompt tokens, prefill_act_byte_s x tokens x layers x d_model x dtype bytes) + a\n"
     "cost per sequence, per phase, by robust bounded least squares on log error\n"
     "(docs/model.md, Engine costs).  On prefill rows of one TP degree prefill_act_byte_s is\n"
     "held at 0 (it cannot be told from compute_eff and prefill_comm_eff there); unless the\n"
     "fit puts prefill rows on the host floor at two TP degrees or more, prefill_rank_s is\n"
     "held at 0 (it cannot be told from prefill_step_s there).\n"
     "Prints each parameter with its sd and status (not identified: sd above its value or\n"
     "half its range; no sd, '-', beyond 10x its value or range), each row's residual,\n"
     "--folds K cross-validated\n"
     "|error| over whole configurations (signs, key sign_convention: residual, cv_error and\n"
     "the fit_*/cv_* errors are predicted/measured - 1, positive when the prediction is slower;\n"
     "the band_* quantiles are ln(measured/predicted) of the cross-validated rows, positive\n"
     "when the measurement is slower: a row of cv_error e sits at -ln(1 + e) in the band).\n"
     "Without --save, rows of one phase only (decode, or prefill) fit that phase: a warning\n"
     "says the other's parameters are not fitted (status 'not fitted', start values) and its\n"
     "band_* borrowed; --save refuses such a fit; --save writes --hw plus engines.NAME.costs (NAME:\n"
     "--engine-name, else --engine, else the rows' engine column when they agree, else the\n"
     "CSV's file name without folder and extension (runs/my.csv: engine my; 'fitted' when none\n"
     "of its characters is a name's); what it was fitted on, CV error, band, each parameter's\n"
     "status and sd), its default engine, loadable with --hw\n"
     "PROFILE.lua.  Rows of an engine --hw reads from kernel tables (h100-sxm's trtllm, vllm)\n"
     "are saved only under a name of their own: --engine-name NAME (e.g. trtllm-fit).\n"
     "--plot draws the cross-validated predictions against the measurements.\n"
     "A fit whose cross-validated median |error| exceeds 25% (about 7x the shipped fits'\n"
     "  3.2% / 3.7%; times in milliseconds under measured_s fit at 96%) cannot match its\n"
     "  rows: it warns (fit_warning), and --save refuses it (exit 2, nothing written) unless\n"
     "  --save-misfit; every command that loads a profile whose fitted_on.cv_median_abs_error\n"
     "  exceeds 25% says so on stderr (caution) and in its JSON (fitted_misfit_note).\n"
     "A fitted compute_eff or memory_eff below 0.2 (published serving runs and measured\n"
     "  engines' fits sit at 0.7 or more) is said on stderr and in plausibility_note: the rows\n"
     "  run many times the roofline of --model on --hw (another model, chip or dtype?); the\n"
     "  fit still exits 0, a slow engine being a real one.  So are rows whose measured times\n"
     "  are a median over 4x their roofline (step --ideal's time of each row; right-model fits\n"
     "  of SplitwiseSim's rows sit at 2.2-2.8x), which the step floors then absorb.\n"
     "Rows whose 'model' column names another model than --model are fitted as theirs: the\n"
     "  result's models lists the fitted models and model_note (stderr too) counts those rows.\n"
     "The band it saves covers the fitted model(s) and weight/KV/compute dtypes only, and a TP\n"
     "degree other than the one fitted only when the rows have two or more: elsewhere results\n"
     "carry no band (no_band).  Each row class (decode, prefill, static) gets its band from\n"
     "its own cross-validated residuals (an outlier of one class leaves the others' alone); a\n"
     "class of fewer than 5 rows takes every class's residuals pooled, widened to hold its own\n"
     "(band_per_class_from says which).  Cross-validation is required (the band is its\n"
     "residuals): each of the K folds is fitted on the other configurations' rows, one more\n"
     "than the identifiable parameters (e.g. 8: 12 configurations for 5 folds); a smaller CSV\n"
     "is refused, exit 2, saying how many it needs and which --folds (up to one per\n"
     "configuration) it allows.  The parameters of a phase no row has (decode_step_s,\n"
     "decode_seq_s, comm_eff and tp_excess; prefill_step_s, prefill_seq_s,\n"
     "prefill_comm_eff, prefill_act_byte_s and prefill_rank_s) are held at their start\n"
     "values and not counted (9 decode rows fit the decode step's 6 parameters); fewer rows\n"
     "than the rest are refused before any fold, naming them and the held ones.",
     "FILE.csv --hw H [--model M] [--engine NAME] [--save PROFILE.lua [--save-misfit]]\n"
     "       [--folds K] [--plot F.png] [--weights D --kv D --compute D] [--set ...] [--format F]"},
    {"run", rl_cli_run, NULL, RUN, NULL, 1,
     "Run a what-if scenario: a Lua script with the `roofline` module.\n"
     "The script runs in a sandbox (no io/os/require; instruction, time and memory budgets);\n"
     "its arguments are in the global table `arg` (arg[0] is the script).  Files go only\n"
     "through roofline.write and roofline.plot, into --out DIR (default out), confined there.\n"
     "Reads are not confined: roofline.model and roofline.hw load a spec .lua from any path\n"
     "the user running it can read, as --model and --hw do (each run in a fresh sandbox of\n"
     "its own, with the spec budgets, that gives back its table alone).\n"
     "The module's functions (docs/lua.md): roofline.model, hw, info, step, shard, ops,\n"
     "prefill, sweep, pareto, simulate, size, format, write, plot.  A result keeps the keys the\n"
     "command line prints null (nil in Lua; roofline.format writes them null), and\n"
     "roofline.null stands for null in a script's own table.",
     "[--out DIR] [--max-instructions N] SCRIPT.lua [ARGS...]"},
    {"simulate", rl_cli_simulate, rl_lua_simulate, SIMULATE, "it is a `size` option", 0,
     "Serving simulation: TTFT/TPOT percentiles, throughput, goodput and KV under a policy.\n"
     "A discrete-event simulation (seed 000 section 4); --chips N is one replica (its TP degree).\n"
     "--prompt-len and --out-len are length DISTs (old spellings --prompt and --output still\n"
     "work); --save FILE writes the result, --plot-dir DIR (old: --plot) the figures.\n"
     "--prefixes N:LEN draws each request's shared prefix apart from its arrival and\n"
     "lengths (the same requests as without it); reused only under --prefix-cache.\n"
     "--band p5-p95 holds the p10-p90 band: each edge the farther of its two runs.\n"
     "mean_prompt_tokens and mean_output_tokens are the requests' realised mean lengths; a\n"
     "caution says when one is more than 5% off its DIST's MEAN, and why (a draw over\n"
     "max_context drawn again cuts a heavy tail: lognormal:2000:2 on llama3-8b realises 817),\n"
     "also as JSON key mean_length_note (null when none, and for a --trace).\n"
     "After the run a capacity search finds max_sustainable_qps: the highest load (1.02^k x\n"
     "--qps, the requests' arrivals rescaled; a trace's or --burst draw's own rate) whose run\n"
     "completes, keeps up with its arrivals and meets the targets' p99s, bracketing then\n"
     "bisecting, up to 40 runs of a sample (4000 requests or 30 s of\n"
     "arrivals, at most 30000; grown up to 3 times, to 200000, until it outlasts 2 latencies\n"
     "at the load above and 2% of its arrivals outnumber the resolution of its count of\n"
     "requests in the system: keeping up also means that count does not grow,\n"
     "docs/serving.md).  Its cost grows with the load sustained: most of the time on many\n"
     "replicas (llama3-8b, 10000 replicas: 5 s of CPU, the run alone 0.3 s).  --no-capacity\n"
     "skips it (the capacity keys null, capacity_searched false), as --offline or a trace\n"
     "arriving at one instant do (no offered rate to search over); a signal during it keeps\n"
     "the finished run's result the same way, exit 130 or 143.\n"
     "Notes, each key absent when it does not apply (as step's and prefill's): host_cost_note,\n"
     "the engine's per-step host cost not charged; prefill_dispatch_note, where each TTFT's\n"
     "dispatch comes from; e2e_gap_note, how far end-to-end runs ran above the tables (both\n"
     "on stderr outside JSON); kv_engine_note and precision_engine_note, a --kv, --weights or\n"
     "--compute dtype the engine does not run on this chip (the run reads mode estimated,\n"
     "mode_note says why); mla_engine_note, MLA decode\n"
     "attention from TensorRT-LLM's measured kernel below SM90 (slow there, measured);\n"
     "derived_slow_note, a GEMM dtype no table measures, derived from another variant's\n"
     "efficiency, slower than a wider measured one (b200 int4 from nvfp4);\n"
     "moe_slow_note, the MoE kernel of\n"
     "the weights' dtype slower than bf16's; step_floor_note, itl_p50_s below one kernel\n"
     "launch (1 us: no engine cost, no deployable rate); fitted_misfit_note, a fitted profile\n"
     "whose fit missed its own rows; prefix_cache_note, --prefix-cache with no shared prefix\n"
     "(nothing reserved); each also a caution or note on stderr.\n"
     "Lua: roofline.simulate{...} takes the fields with a Lua key (no trace or speculation\n"
     "yet) and returns the result without the KV timeline.",
     "--model M --hw H [--chips N] (--qps Q --prompt-len DIST --out-len DIST | --trace F.csv)\n"
     "       [--policy P] [--ideal] [--save FILE] [options]"},
    {"size", rl_cli_size, rl_lua_size, SIZE,
     "size searches policy, batch caps and replicas itself; check one configuration with "
     "`simulate`",
     0,
     "Deployment sizing: the cheapest deployment meeting TTFT and TPOT p99 targets at a load.\n"
     "Searches hardware, precision, chips per replica and their layout (tp; attn-dp for MoE\n"
     "models), policy, batch cap, chunk budget, replicas and the prefill:decode split;\n"
     "analytic pruning, then simulation.  Each row names its layout.  Cost from\n"
     "price_per_chip_hour when every profile has one, else chips.  --hw takes a list; each\n"
     "configuration simulates --requests requests (default 4000 here, not 20000); their\n"
     "realised mean lengths are mean_prompt_tokens and mean_output_tokens, with simulate's\n"
     "caution when one is more than 5% off its DIST's MEAN (JSON key mean_length_note).\n"
     "A --trace gives the load by its arrivals: 101 requests or more (the rate of n gaps is\n"
     "known to 1/sqrt(n), 10% at 100), spread over time: a shorter one, or one whose\n"
     "arrivals all fall at one instant (no gap, no rate), is refused (exit 2; simulate\n"
     "replays either, the latter as one burst).\n"
     "size models no prefix cache: --prefixes is refused (exit 2), a trace's prefix_id is\n"
     "noted and every prompt prefilled in full (simulate --prefix-cache weighs reuse).\n"
     "A row meets only when its runs at the load and at (1 + --headroom) x it meet both\n"
     "p99s and its max_sustainable_qps (the capacity search, 95% bound), where found, is at\n"
     "least that sized load; verdict_by names the rule that decided (both, p99, capacity).\n"
     "A row that meets on its p99s alone (capacity null, unresolved or a lower bound below\n"
     "the sized load) is marked in the row (verdict_note, the report's meets cell) and\n"
     "ranks after a meeting row of equal cost and mode whose capacity is established.\n"
     "A row whose tpot_p50_s is below one kernel launch (1 us: no engine cost in it, no\n"
     "deployable rate) carries step_floor_note (else null), a caution on stderr and in the\n"
     "report, as step's and simulate's.\n"
     "A row whose plan its engine does not run on its chip (a --kv, --weights or --compute\n"
     "dtype the engine stores or runs nowhere, or not on that chip's sm) carries\n"
     "kv_engine_note and precision_engine_note (else null), the text step and simulate\n"
     "give that plan, and reads mode estimated, each a caution on stderr once with the count of rows; mla_engine_note\n"
     "likewise (an MLA model's measured TensorRT-LLM decode kernel below SM90).\n"
     "The search's bounds are echoed: max_chips (null when not given), keep_precision,\n"
     "searched_precisions (each \"w:W kv:K c:C\" as the rows name it, over every --hw) and\n"
     "hbm_reserve (the fraction kept free where no engine memory rule applies).\n"
     "--set hw.FIELD=V with several --hw profiles reaches every one: a note on stderr and\n"
     "in the JSON's set_hw_note (absent otherwise).\n"
     "The search's counts: simulated_configs (the rows: configurations simulated, one of\n"
     "those with the same outcome kept), pruned (plans dropped analytically, not\n"
     "simulated), max_replicas (256, the fixed bound on the replicas of one pool, no flag\n"
     "raises it), beyond_replica_bound (plans needing more replicas than it by estimate,\n"
     "not simulated) and search_s (the search's wall-clock seconds, which vary run to run).\n"
     "Exit 3 (a verdict, as validate-serve's; 2 is bad input alone) when no configuration\n"
     "meets the targets: the report and result are written as ever, meeting 0, the rows\n"
     "the closest simulated ones (none when every plan was pruned analytically:\n"
     "simulated_configs 0) and none_meets_note the reason stderr gives, by how far (null\n"
     "when a row meets).  A load past the search limit\n"
     "(more than 256 replicas a pool in every configuration: fixed, no flag raises it;\n"
     "also when the rows simulated all miss for want of replicas at the most replicas\n"
     "the bound allows each pool: their queue growing, their capacity short, or a p99\n"
     "missed that a lower load meets) is no verdict: exit 2, \"search limit\n"
     "reached\", nothing written, with the share of the load to size per deployment\n"
     "(each about 128 replicas a pool or fewer by the best evidence: half the bound).",
     "--model M --hw H[,H2] --qps Q --prompt-len DIST --out-len DIST --ttft-p99 S\n"
     "       --tpot-p99 S [--report out.html|out.md] [--save FILE] [options]"},
    {"validate-serve", rl_cli_validate_serve, NULL, VALIDATE_SERVE,
     "it serves its own trace with the interleaved policy", 0,
     "The serving simulator against the reference engine serving a trace (TTFT/TPOT p50/p90).\n"
     "The engine serves a seeded trace with the interleaved policy (prefill at B=1 when a slot\n"
     "is free, else one generate step) on a virtual clock of measured calls; the simulator\n"
     "predicts the same trace from the calibrated profile.  Without --profile it first runs\n"
     "calibrate (rewriting hw_profiles/calibrated/<host>.lua): a profile minutes old can be off\n"
     "by 20% on a shared host.  It measures the engine's capacity first (the whole trace at\n"
     "t = 0: requests / makespan), then serves the trace at each --capacity-pct of it (or at\n"
     "--qps), --repeats times each; measured = the median, beside each error its range over\n"
     "the repeats, and each load's capacity utilisation.  Exit 3 when TTFT and TPOT p50/p90\n"
     "are not all within 10% (exit 0 with a note for a smoke test: a profile marked\n"
     "smoke_test, as calibrate --quick marks it, key smoke_test; --quick, refused with\n"
     "--profile, makes the fresh calibration one).\n"
     "Here: --requests N (24, at most 10000) --max-seqs SLOTS (4, at most 64); --model\n"
     "(tiny-ref).",
     "[--backend cpu|cuda (cpu)] [--model M] [--profile P] [--threads N (cpu, 1: as\n"
     "       calibrated)] [--requests N] [--capacity-pct P,.. | --qps Q] [--repeats N]\n"
     "       [--max-seqs B] [--quick (without --profile)]"},
    {"list", rl_cli_list, NULL, LIST, NULL, 1,
     "The presets, one table row each: models, hardware or engines.\n"
     "preset: the name --model/--hw take (the file name); name: the spec's own name field\n"
     "(results print it; a file of your own may set another).\n"
     "models: params (total), params_active (used per token, the input embedding table\n"
     "counted, as info's params_active), params_active_nonembedding (the same without that\n"
     "table, of which a token reads one row: the count model cards quote, e.g. gpt-oss-120b\n"
     "5.13B; info's key of that name) and max_context; hw: peak bf16 FLOP/s,\n"
     "HBM capacity and bandwidth (the table in TFLOP/s and GB/s, as every table shows a\n"
     "rate; CSV and JSON in FLOP/s and bytes/s), and the mode its default engine's runs take (fitted,\n"
     "calibrated or estimated, as step, simulate and size label them); engines: the engines\n"
     "step costs can follow (ideal; serving engines come from hardware profiles that carry\n"
     "them).  A preset that does not load is skipped: a note on stderr names its file, field\n"
     "and reason, the others are listed and the exit is 0 (exit 2 only when none loads);\n"
     "skipped: those files' rows (preset, reason) in the result, empty when all loaded.",
     "models|hw|engines [--format F] [--save FILE]   (hardware: the same as hw)"},
    {"plot", NULL, rl_lua_plot, PLOT, NULL, 0,
     "A figure into the scenario's output directory (Lua: roofline.plot); nil and a message\n"
     "when gnuplot is missing (data and script kept).",
     "(Lua only) roofline.plot{kind=, file=, ...}"},
};
const size_t RL_NCOMMANDS = sizeof RL_COMMANDS / sizeof RL_COMMANDS[0];

/* One meaning per flag (issue 15): a length distribution is --prompt-len /
 * --out-len, a command's product --save FILE, a folder of figures
 * --plot-dir DIR.  The spellings they had keep working where they meant
 * that: --prompt and --output DIST on simulate and size (pareto's --prompt
 * is a token count and stays), --output FILE on every command whose result
 * it wrote (calibrate's --output stays its summary: its product, --save, is
 * the profile), --plot DIR on simulate (pareto's --plot is a file and
 * stays).  Order matters for --output: a command with a length DIST reads
 * it as the DIST, as before. */
const rl_flag_alias RL_FLAG_ALIASES[] = {
    {"prompt", RL_P_PROMPT_DIST},
    {"output", RL_P_OUTPUT_DIST},
    {"output", RL_P_OUTPUT},
    {"plot", RL_P_PLOT_DIR},
};
const size_t RL_NFLAG_ALIASES = sizeof RL_FLAG_ALIASES / sizeof RL_FLAG_ALIASES[0];

const rl_command *rl_command_find(const char *name)
{
    for (size_t i = 0; i < RL_NCOMMANDS; i++)
        if (strcmp(RL_COMMANDS[i].name, name) == 0)
            return &RL_COMMANDS[i];
    return NULL;
}

/* Whether list entry e serves the command line (cli = 1) or Lua (cli = 0). */
static int entry_for(int e, int cli)
{
    const rl_param *p = &RL_PARAMS[e & 0xfff];
    if (cli)
        return p->flag && !(e & RL_LUA_ONLY);
    return p->lua && !(e & RL_CLI_ONLY);
}

int rl_command_takes(const rl_command *c, rl_param_id id, int cli)
{
    for (const int *e = c->params; *e != RL_PARAM_END; e++)
        if ((*e & 0xfff) == (int)id && entry_for(*e, cli))
            return 1;
    return 0;
}

int rl_command_flag(const rl_command *c, const char *flag)
{
    for (const int *e = c->params; *e != RL_PARAM_END; e++)
        if (entry_for(*e, 1) && strcmp(RL_PARAMS[*e & 0xfff].flag, flag) == 0)
            return *e & 0xfff;
    for (size_t i = 0; i < RL_NFLAG_ALIASES; i++)
        if (strcmp(RL_FLAG_ALIASES[i].old, flag) == 0 && rl_command_takes(c, RL_FLAG_ALIASES[i].id, 1))
            return RL_FLAG_ALIASES[i].id;
    return -1;
}

const char *rl_command_old_flag(const rl_command *c, rl_param_id id)
{
    for (size_t i = 0; i < RL_NFLAG_ALIASES; i++)
        if (RL_FLAG_ALIASES[i].id == id && rl_command_flag(c, RL_FLAG_ALIASES[i].old) == (int)id)
            return RL_FLAG_ALIASES[i].old;
    return NULL;
}

const char *rl_param_flag(const rl_opts *o, rl_param_id id)
{
    return o->spelled[id] ? o->spelled[id] : RL_PARAMS[id].flag;
}

int rl_command_lua_keys(const rl_command *c, const char **keys, int cap)
{
    int n = 0;
    for (const int *e = c->params; *e != RL_PARAM_END && n + 2 <= cap; e++) {
        const rl_param *p = &RL_PARAMS[*e & 0xfff];
        if (!entry_for(*e, 0) || (*e & RL_REFUSED))
            continue;
        keys[n++] = p->lua;
        if (p->lua_old)
            keys[n++] = p->lua_old;
    }
    return n;
}

int rl_command_lua_param(const rl_command *c, const char *key)
{
    for (const int *e = c->params; *e != RL_PARAM_END; e++) {
        const rl_param *p = &RL_PARAMS[*e & 0xfff];
        if (entry_for(*e, 0) && (!strcmp(p->lua, key) || (p->lua_old && !strcmp(p->lua_old, key))))
            return *e & 0xfff;
    }
    return -1;
}

int rl_param_by_flag(const char *flag)
{
    for (int i = 0; i < RL_P_COUNT; i++)
        if (RL_PARAMS[i].flag && strcmp(RL_PARAMS[i].flag, flag) == 0)
            return i;
    return -1;
}

/* ---- parsing ----------------------------------------------------------- */

/* "a, b or c" from "a|b|c" into buf. */
static void choice_list(const char *choices, char *buf, size_t len)
{
    size_t n = 0, bars = 0;
    for (const char *s = choices; *s; s++)
        bars += *s == '|';
    size_t seen = 0;
    for (const char *s = choices; *s && n + 5 < len; s++) {
        if (*s != '|') {
            buf[n++] = *s;
            continue;
        }
        seen++;
        n += (size_t)snprintf(buf + n, len - n, seen == bars ? " or " : ", ");
    }
    buf[n < len ? n : len - 1] = '\0';
}

/* The index of `s` among "a|b|c", or -1. */
static int choice_index(const char *choices, const char *s)
{
    size_t len = strlen(s);
    int i = 0;
    for (const char *c = choices; *c; i++) {
        size_t n = strcspn(c, "|");
        if (n == len && strncmp(c, s, n) == 0)
            return i;
        c += n + (c[n] == '|');
    }
    return -1;
}

#define NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-"

/* A plain name (RL_PF_NAME): an engine's, also a folder of --tables DIR,
 * so never a path ("../x" read another folder's tables, and became the
 * profile's engine name) nor text that drives a terminal when echoed. */
static int plain_name(const char *s)
{
    size_t n = strspn(s, NAME_CHARS);
    return n > 0 && n <= 40 && !s[n] && s[0] != '.';
}

static int parse_dtype(const rl_opts *o, rl_param_id id, const char *s, rl_dtype *out)
{
    if (rl_dtype_parse(s, out) == 0)
        return 0;
    return rl_cli_say(o, "--%s: unknown dtype '%s' (known: %s)", rl_param_flag(o, id), s,
                      rl_dtype_list());
}

/* A comma-separated list of dtypes into out[cap]; returns the count or -1. */
static int parse_dtype_list(const rl_opts *o, rl_param_id id, const char *s, rl_dtype *out, int cap)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    int n = 0;
    long long seen[RL_DTYPE_COUNT];
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (n == cap || n == RL_DTYPE_COUNT || parse_dtype(o, id, t, &out[n]) != 0)
            return -1;
        seen[n] = out[n];
        if (rl_list_repeats(seen, ++n))
            return rl_cli_say(o, "--%s '%s': %s is given twice", rl_param_flag(o, id),
                              RL_NAME_SHOWN(s), RL_NAME_SHOWN(t));
    }
    return n ? n : rl_cli_say(o, "--%s: expected a dtype", rl_param_flag(o, id));
}

static int parse_number(const rl_opts *o, rl_param_id id, const char *s, double lo, double hi,
                        double *v);

/* One whole number in [min, max] in the integer syntax of every count flag,
 * scalar or list (cli.h rl_cli_parse_int: digits, 1e3, 2.0; tester10 #11,
 * tester35 F9). */
static int parse_count(const rl_opts *o, rl_param_id id, const char *s, long long *out)
{
    const rl_param *p = &RL_PARAMS[id];
    char err[1024];
    if (strchr(s, ','))
        return rl_cli_say(o, "--%s '%.40s': takes one integer, not a list", rl_param_flag(o, id), s);
    if (rl_cli_parse_int(s, (long long)p->min, (long long)p->max, out, err, sizeof err) != 0)
        return rl_cli_say(o, "--%s %s", rl_param_flag(o, id), err);
    return 0;
}

/* A number in [lo, hi] (a whole one for counts) from s into *v. */
static int parse_number(const rl_opts *o, rl_param_id id, const char *s, double lo, double hi,
                        double *v)
{
    const rl_param *p = &RL_PARAMS[id];
    double x = 0;
    const char *why;
    int bad = rl_parse_number(s, &x, &why); /* number.h: hex, overflow, underflow said */
    if (bad == -2)
        return rl_cli_say(o, "--%s '%s': %s", rl_param_flag(o, id), s, why);
    int whole = p->type != RL_PT_NUMBER;
    if (bad || !(x >= lo && x <= hi) || (whole && x != floor(x)))
        return rl_cli_say(o, "--%s '%s': expected %s in [%g, %g]", rl_param_flag(o, id), s,
                          whole ? "a whole number"
                          : strcmp(p->unit, "fraction") == 0 ? "a fraction"
                                                             : "a number",
                          lo, hi);
    *v = x;
    return 0;
}

static int parse_set(rl_opts *o, const char *arg)
{
    char err[1024];
    int kind;
    rl_override ov;
    if (rl_override_parse((char *)arg, &kind, &ov, err, sizeof err) != 0)
        return rl_cli_say(o, "%s", err);
    if (o->nsets[kind] == RL_MAX_SETS)
        return rl_cli_say(o, "more than %d --set options", RL_MAX_SETS);
    for (int i = 0; i < o->nsets[kind]; i++) /* as every repeated flag (tester10 #13) */
        if (strcmp(o->sets[kind][i].field, ov.field) == 0)
            return rl_cli_say(o, "--set %s.%s given twice ('%s', then '%s'): give it once",
                              kind ? "hw" : "model", ov.field, o->sets[kind][i].value, ov.value);
    o->sets[kind][o->nsets[kind]++] = ov;
    return 0;
}

/* A string flag's own rules (RL_PF_NONEMPTY, RL_PF_NAME), on every path:
 * 0, or -1 said. */
static int check_string(rl_opts *o, rl_param_id id, const char *arg)
{
    const rl_param *p = &RL_PARAMS[id];
    if ((p->flags & RL_PF_NONEMPTY) && !*arg)
        return rl_cli_say(o, "--%s: empty name", rl_param_flag(o, id));
    if ((p->flags & RL_PF_NAME) && !plain_name(arg))
        return rl_cli_say(o, "--%s '%s': a name of 1-40 letters, digits, '_', '.' or '-', not "
                             "starting with '.' (it names a spec's engine and, for --tables, a "
                             "folder inside DIR)", rl_param_flag(o, id), RL_NAME_SHOWN(arg));
    return 0;
}

/* Store arg as id's value in o (its row's type and destination). */
static int land(rl_opts *o, rl_param_id id, const char *arg)
{
    const rl_param *p = &RL_PARAMS[id];
    char err[1024], names[256];
    double x;
    void *at = (char *)o + p->at;
    int *n = (int *)((char *)o + p->at_n);
    switch (p->type) {
    case RL_PT_SWITCH: *(int *)at = 1; return 0;
    case RL_PT_COUNT: return parse_count(o, id, arg, at);
    case RL_PT_INT: {
        long long v;
        if (parse_count(o, id, arg, &v) != 0)
            return -1;
        *(int *)at = (int)v;
        return 0;
    }
    case RL_PT_COUNT_LIST:
        *n = rl_cli_parse_list(arg, (long long)p->min, (long long)p->max, at, p->cap, err,
                               sizeof err);
        return *n < 0 ? rl_cli_say(o, "--%s %s", rl_param_flag(o, id), err) : 0;
    case RL_PT_NUMBER:
        if (parse_number(o, id, arg, p->min, p->max, &x) != 0)
            return -1;
        *(double *)at = x;
        return 0;
    case RL_PT_STRING:
        if (check_string(o, id, arg) != 0)
            return -1;
        *(const char **)at = arg;
        return 0;
    case RL_PT_DTYPE: return parse_dtype(o, id, arg, at);
    case RL_PT_DTYPE_LIST:
        *n = parse_dtype_list(o, id, arg, at, p->cap);
        return *n < 0 ? -1 : 0;
    case RL_PT_CHOICE: {
        int i = choice_index(p->choices, arg);
        if (i < 0) {
            choice_list(p->choices, names, sizeof names);
            return rl_cli_say(o, "--%s '%s': expected %s", rl_param_flag(o, id), arg, names);
        }
        *(int *)at = i;
        return 0;
    }
    case RL_PT_SET: break;
    }
    return 0;
}

/* Whether the comma-separated list s has an empty item (",a", "a,,b", "a,"). */
static int empty_item(const char *s)
{
    return s[0] == ',' || strstr(s, ",,") || (*s && s[strlen(s) - 1] == ',');
}

int rl_param_set(rl_opts *o, rl_param_id id, const char *flag, const char *arg)
{
    const rl_param *p = &RL_PARAMS[id];
    int list = (p->flags & RL_PF_LIST) || p->type == RL_PT_DTYPE_LIST; /* counts: rl_cli_parse_list */
    if (list && arg && empty_item(arg)) /* tester4 #15: --hw h100-sxm, was taken as h100-sxm */
        return rl_cli_say(o, "--%s '%s': an empty item in the list", flag, arg);
    o->given[id] = arg ? arg : "1";
    o->spelled[id] = flag;
    if (strcmp(flag, p->flag) != 0) /* an old spelling: same meaning, new name */
        rl_cli_say(o, "note: --%s here is --%s now; the old spelling still works", flag, p->flag);
    o->sharded |= !!(p->flags & RL_PF_PLAN);
    o->plan_modifier |= !!(p->flags & RL_PF_REFINES);
    if (p->type == RL_PT_SET)
        return parse_set(o, arg);
    if (p->at == RL_AT_GIVEN && p->type == RL_PT_CHOICE && choice_index(p->choices, arg) < 0) {
        /* checked here, on every path, though the command reads the text itself
         * (tester4 #7: a multi-chip calibrated step never looked at --band) */
        char names[256];
        choice_list(p->choices, names, sizeof names);
        return rl_cli_say(o, "--%s '%s': expected %s", rl_param_flag(o, id), arg, names);
    }
    if (p->at == RL_AT_GIVEN && (p->type == RL_PT_NUMBER || p->type == RL_PT_COUNT ||
                                 p->type == RL_PT_INT)) {
        /* a number's range too, as the flags parsed into rl_opts: every
         * command names a bad value before a missing flag (tester37: size
         * --qps -1 without lengths named the lengths first); the command
         * reads the text again, with any narrower bounds of its own */
        double x;
        uint64_t u;
        if (id == RL_P_SEED ? rl_param_seed(o, id, &u)
            : o->cmd        ? rl_param_number_for(o, o->cmd, id, &x)
                            : rl_param_number(o, id, &x))
            return -1;
    }
    /* a string the command reads itself keeps its row's rules (tester52 F4:
     * fit --engine-name "" saved an engine with no name) */
    if (p->at == RL_AT_GIVEN && p->type == RL_PT_STRING && check_string(o, id, arg) != 0)
        return -1;
    if (p->at == RL_AT_GIVEN)
        return 0; /* the command parses the text */
    return land(o, id, arg);
}

int rl_param_number_in(const rl_opts *o, rl_param_id id, double lo, double hi, double *v)
{
    return o->given[id] ? parse_number(o, id, o->given[id], lo, hi, v) : 0;
}

int rl_param_number(const rl_opts *o, rl_param_id id, double *v)
{
    return rl_param_number_in(o, id, RL_PARAMS[id].min, RL_PARAMS[id].max, v);
}

int rl_list_repeats(const long long *v, int n)
{
    for (int i = 0; i + 1 < n; i++)
        if (v[i] == v[n - 1])
            return 1;
    return 0;
}

int rl_param_seed(const rl_opts *o, rl_param_id id, uint64_t *v)
{
    const char *s = o->given[id];
    if (!s)
        return 0;
    const rl_param *p = &RL_PARAMS[id];
    const unsigned long long lo = (unsigned long long)p->min, hi = (unsigned long long)p->max;
    if (*s && strspn(s, "0123456789") == strlen(s)) {
        char *end;
        errno = 0;
        unsigned long long x = strtoull(s, &end, 10);
        if (errno == ERANGE || *end || x < lo || x > hi)
            return rl_cli_say(o, "--%s '%.40s': expected a whole number in [%llu, %llu]",
                              rl_param_flag(o, id), s, lo, hi);
        *v = x;
        return 0;
    }
    double x = 0;
    if (parse_number(o, id, s, p->min, p->max, &x) != 0)
        return -1;
    if (x > 9007199254740992.0) /* 2^53: above it a double skips whole numbers */
        return rl_cli_say(o, "--%s '%.40s': above 2^53 = 9007199254740992 give the seed in plain "
                             "digits (this form is read as a double, which rounds it)",
                          rl_param_flag(o, id), s);
    *v = (uint64_t)x;
    return 0;
}

double rl_param_default(rl_param_id id)
{
    return RL_PARAMS[id].def ? strtod(RL_PARAMS[id].def, NULL) : 0;
}

/* ---- help and docs ----------------------------------------------------- */

/* "--flag ARG" (or the choices) of p into buf. */
static void synopsis(const rl_param *p, char *buf, size_t len)
{
    const char *arg = p->type == RL_PT_CHOICE ? p->choices : p->arg;
    snprintf(buf, len, "--%s%s%s", p->flag, arg ? " " : "", arg ? arg : "");
}

/* Where a command gives a parameter its own default or bounds (size
 * simulates 4000 requests per configuration: cli.c rl_cli_size, its
 * serve_workload call; validate-serve serves 24 requests, at most 10000, on
 * 4 slots, at most 64: cli.c validate_serve_opts, tester15 F-doc-1: its
 * help gave simulate's 20000 and 256).  min = max = 0: the parameter's own
 * bounds. */
static const struct {
    const char *cmd;
    rl_param_id id;
    const char *def;
    double min, max;
} OWN[] = {{"size", RL_P_REQUESTS, "4000", 0, 0},
           /* --tp 2 alone runs on 2 chips (cli.c note_plan_chips) */
           {"step", RL_P_CHIPS, "tp x ep x pp of a plan given, else 1", 0, 0},
           {"ops", RL_P_CHIPS, "tp x ep of a plan given, else 1", 0, 0},
           {"prefill", RL_P_CHIPS, "tp x ep of a plan given, else 1", 0, 0},
           {"simulate", RL_P_CHIPS, "pp x ep with --pp or --ep, else 1", 0, 0},
           {"validate-serve", RL_P_REQUESTS, "24", 1, 10000},
           {"validate-serve", RL_P_MAX_SEQS, "4", 1, 64}};

/* Where a command's result echoes a parameter under a key the parameter
 * table does not give (its json is NULL, since other commands that take
 * it print no such key): docs/cli.md's JSON key cell (fixTB #3: size's
 * top level echoes requests, burst, hbm_reserve and conservative, result.c
 * rl_result_size; simulate's requests and burst, result.c
 * add_serve_numbers and the burst beside it). */
static const struct {
    const char *cmd;
    rl_param_id id;
    const char *json;
} OWN_JSON[] = {{"size", RL_P_REQUESTS, "requests"},
                {"size", RL_P_BURST, "burst"},
                {"size", RL_P_RESERVE, "hbm_reserve"},
                {"size", RL_P_CONSERVATIVE, "conservative"},
                {"simulate", RL_P_REQUESTS, "requests"},
                {"simulate", RL_P_BURST, "burst"}};

/* The JSON key of parameter id in command c: OWN_JSON's, else the
 * parameter's own (NULL: none). */
static const char *command_json(const rl_command *c, int id)
{
    for (size_t i = 0; i < sizeof OWN_JSON / sizeof OWN_JSON[0]; i++)
        if (OWN_JSON[i].id == (rl_param_id)id && strcmp(OWN_JSON[i].cmd, c->name) == 0)
            return OWN_JSON[i].json;
    return RL_PARAMS[id].json;
}

int rl_param_by_json(const char *cmd, const char *key)
{
    for (size_t i = 0; cmd && i < sizeof OWN_JSON / sizeof OWN_JSON[0]; i++)
        if (strcmp(OWN_JSON[i].cmd, cmd) == 0 && strcmp(OWN_JSON[i].json, key) == 0)
            return (int)OWN_JSON[i].id;
    for (int i = 0; i < RL_P_COUNT; i++)
        if (RL_PARAMS[i].json && strcmp(RL_PARAMS[i].json, key) == 0)
            return i;
    return -1;
}

/* The OWN row of parameter id in command `cmd`, or -1. */
static int own_row(const char *cmd, int id)
{
    for (size_t i = 0; i < sizeof OWN / sizeof OWN[0]; i++)
        if (OWN[i].id == (rl_param_id)id && strcmp(OWN[i].cmd, cmd) == 0)
            return (int)i;
    return -1;
}

/* The default of parameter id in command c: the parameter's own, unless
 * the command sets another (OWN). */
static const char *command_default(const rl_command *c, int id)
{
    int i = own_row(c->name, id);
    return i >= 0 ? OWN[i].def : RL_PARAMS[id].def;
}

/* The bounds of parameter id in command `cmd` into lo and hi: OWN's, else
 * the parameter's own. */
static void command_bounds(const char *cmd, int id, double *lo, double *hi)
{
    int i = own_row(cmd, id), own = i >= 0 && OWN[i].max > 0;
    *lo = own ? OWN[i].min : RL_PARAMS[id].min;
    *hi = own ? OWN[i].max : RL_PARAMS[id].max;
}

int rl_param_number_for(const rl_opts *o, const char *cmd, rl_param_id id, double *v)
{
    double lo, hi;
    int i = own_row(cmd, id);
    if (!o->given[id] && i >= 0)
        *v = strtod(OWN[i].def, NULL);
    command_bounds(cmd, id, &lo, &hi);
    return rl_param_number_in(o, id, lo, hi, v);
}

/* The bounds and unit of p in command c as text ("1..1e+06 chips"), or "". */
static void bounds(const rl_command *c, const rl_param *p, char *buf, size_t len)
{
    buf[0] = '\0';
    double lo, hi;
    command_bounds(c->name, (int)(p - RL_PARAMS), &lo, &hi);
    if (p->type == RL_PT_COUNT || p->type == RL_PT_INT || p->type == RL_PT_COUNT_LIST ||
        p->type == RL_PT_NUMBER)
        snprintf(buf, len, "%.*g..%.*g%s%s", lo < 1e13 ? 13 : 1, lo, hi < 1e13 ? 13 : 1, hi,
                 *p->unit ? " " : "", p->unit);
    else if (*p->unit)
        snprintf(buf, len, "%s", p->unit);
}

/* The results' memory capacity keys, each raw (the chips' HBM as the
 * vendor states it) or usable (what the engine's memory rule leaves the
 * weights and KV cache: memory.h rl_memory_usable).  fixNE #3 (tester77
 * F4): "capacity" meant raw in step's capacity_bytes and usable in ops'
 * hbm_capacity_bytes; the keys stay as named (a contract), each said here
 * and in the commands' --help, with an unambiguous pair beside them. */
static const struct {
    const char *key, *cmds, *kind, *what;
} CAPACITY_KEYS[] = {
    {"capacity_bytes", " step ", "raw", "the step's chips together (table: capacity_GB); the same "
                                        "figure as hbm_total_bytes"},
    {"hbm_total_bytes", " step ops prefill ", "raw", "the chips together"},
    {"hbm_bytes", " info list ", "raw", "one chip (list hw: also hbm_GiB)"},
    {"hbm_bytes_per_chip", " step shard ops prefill ", "raw",
     "one chip, beside usable_bytes_per_chip (rows of a plan)"},
    {"usable_bytes", " step ", "usable", "the step's chips together; the same figure as "
                                         "usable_total_bytes"},
    {"usable_total_bytes", " step ops prefill ", "usable", "the chips together"},
    {"hbm_capacity_bytes", " ops prefill ", "usable",
     "the chips together, despite its word (table: hbm_capacity_GB); the same figure as "
     "usable_total_bytes"},
    {"usable_bytes_per_chip", " step shard ops prefill ", "usable",
     "one chip of the row's plan, the same figure in every command for one plan (shard's tp1 x8 "
     "row is step --tp 1's); under a rule of the free memory (trtllm) it grows with the plan's "
     "weights a chip w: w + fraction x (raw - w - overheads), or raw - overheads where w leaves "
     "no free memory (fixNH #2)"},
    {"kv_capacity_tokens_per_replica", " simulate size ", "usable",
     "KV tokens a replica's usable memory holds after its weights"},
};
#define CAPACITY_KEYS_WHY                                                                          \
    "raw: the chips' HBM as the vendor states it; usable: what the engine's memory rule leaves "  \
    "the weights and KV cache"

/* Whether `cmds` (" a b ") names the command `name`. */
static int names_command(const char *cmds, const char *name)
{
    char w[40];
    snprintf(w, sizeof w, " %s ", name);
    return strstr(cmds, w) != NULL;
}

void rl_param_capacity_keys(const rl_command *c, FILE *f)
{
    int n = 0;
    for (size_t i = 0; i < sizeof CAPACITY_KEYS / sizeof *CAPACITY_KEYS; i++) {
        if (!names_command(CAPACITY_KEYS[i].cmds, c->name))
            continue;
        if (n++ == 0)
            fprintf(f, "\nmemory capacity keys of the result (" CAPACITY_KEYS_WHY "):\n");
        fprintf(f, "  %-30s %-6s %s\n", CAPACITY_KEYS[i].key, CAPACITY_KEYS[i].kind,
                CAPACITY_KEYS[i].what);
    }
}

void rl_param_usage(const rl_command *c, FILE *f)
{
    for (const int *e = c->params; *e != RL_PARAM_END; e++) {
        if (!entry_for(*e, 1) || (*e & RL_REFUSED))
            continue;
        const rl_param *p = &RL_PARAMS[*e & 0xfff];
        char syn[128], b[64];
        synopsis(p, syn, sizeof syn);
        bounds(c, p, b, sizeof b);
        fprintf(f, strlen(syn) > 34 ? "  %s\n%37s%s" : "  %-34s %s%s", syn, "", p->help);
        if (*b)
            fprintf(f, " [%s]", b);
        const char *def = command_default(c, *e & 0xfff);
        if (def)
            fprintf(f, " (default %s)", def);
        const char *old = rl_command_old_flag(c, (rl_param_id)(*e & 0xfff));
        if (old)
            fprintf(f, " (old spelling: --%s)", old);
        fputc('\n', f);
    }
}

/* A Markdown table cell: s with '|' escaped, then " |". */
static void cell(FILE *f, const char *s)
{
    fputc(' ', f);
    for (; s && *s; s++)
        fprintf(f, *s == '|' ? "\\|" : "%c", *s);
    fputs(" |", f);
}

void rl_param_markdown(FILE *f)
{
    fprintf(f, "# roofline command reference\n\n"
               "Generated from the parameter and command tables (src/param.c) by\n"
               "`roofline help --markdown`; `make docs` rewrites this file and `make test`\n"
               "fails when it is stale.  JSON and CSV results are in SI units.\n\n"
               "An option may be shortened to a prefix that begins only one of the\n"
               "command's options (`step --bat 4` is `--batch 4`); a prefix that begins\n"
               "several (`step --b`: `--batch`, `--band`) is refused, listing them (exit 2),\n"
               "as is another command's option written in full (`simulate --tp 2` is not\n"
               "`--tpot-p99 2`: simulate takes no --tp).\n");
    fprintf(f, "\n## Memory capacity keys\n\nThe results' memory capacity keys, each raw or "
               "usable (" CAPACITY_KEYS_WHY "; memory.h rl_memory_usable).  The keys keep their "
               "names (a contract): `capacity_bytes` is raw, `hbm_capacity_bytes` usable; the "
               "`hbm_total_bytes` / `usable_total_bytes` and `hbm_bytes_per_chip` / "
               "`usable_bytes_per_chip` pairs say it in their names.  Each command's `--help` "
               "lists its own.\n\n| key | commands | raw or usable | what |\n|---|---|---|---|\n");
    for (size_t i = 0; i < sizeof CAPACITY_KEYS / sizeof *CAPACITY_KEYS; i++) {
        char key[64], cmds[64];
        snprintf(key, sizeof key, "`%s`", CAPACITY_KEYS[i].key);
        snprintf(cmds, sizeof cmds, "%.*s", (int)strlen(CAPACITY_KEYS[i].cmds) - 2,
                 CAPACITY_KEYS[i].cmds + 1);
        const char *cells[] = {key, cmds, CAPACITY_KEYS[i].kind, CAPACITY_KEYS[i].what};
        fputc('|', f);
        for (size_t k = 0; k < sizeof cells / sizeof *cells; k++)
            cell(f, cells[k]);
        fputc('\n', f);
    }
    for (size_t i = 0; i < RL_NCOMMANDS; i++) {
        const rl_command *c = &RL_COMMANDS[i];
        fprintf(f, "\n## %s\n\n", c->name);
        if (c->cli)
            fprintf(f, "    roofline %s %s\n\n", c->name, c->usage);
        fprintf(f, "%s\n\n", c->summary);
        if (c->lua) /* a Lua-only command (sweep) has no flags (tester15 F-doc-1) */
            fprintf(f, c->cli ? "Lua: `roofline.%s{...}`.\n\n"
                              : "Lua only: `roofline.%s{...}` in a scenario (`roofline run "
                                "SCRIPT.lua`); there is no `roofline %s` command (refused, exit 2, "
                                "saying so), so the table's option column is empty: its keys are "
                                "the Lua table's.\n\n",
                    c->name, c->name);
        fprintf(f, "| option | Lua key | JSON key | value | bounds, unit | default | meaning |\n"
                   "|---|---|---|---|---|---|---|\n");
        for (const int *e = c->params; *e != RL_PARAM_END; e++) {
            if (*e & RL_REFUSED)
                continue;
            const rl_param *p = &RL_PARAMS[*e & 0xfff];
            char opt[96] = "", lua[96] = "", b[64];
            const char *old = rl_command_old_flag(c, (rl_param_id)(*e & 0xfff));
            if (c->cli && entry_for(*e, 1))
                snprintf(opt, sizeof opt, "--%s%s%s%s", p->flag, old ? " (old: --" : "",
                         old ? old : "", old ? ")" : "");
            if (entry_for(*e, 0))
                snprintf(lua, sizeof lua, "%s%s%s%s", p->lua, p->lua_old ? " (old: " : "",
                         p->lua_old ? p->lua_old : "", p->lua_old ? ")" : "");
            bounds(c, p, b, sizeof b);
            const char *arg = p->type == RL_PT_CHOICE ? p->choices : p->arg;
            const char *cells[] = {opt, lua, command_json(c, *e & 0xfff), arg ? arg : "(switch)", b,
                                   command_default(c, *e & 0xfff), p->help};
            fputc('|', f);
            for (size_t k = 0; k < sizeof cells / sizeof cells[0]; k++)
                cell(f, cells[k]);
            fputc('\n', f);
        }
    }
}
