/* cli.c — `roofline` commands: info, step, pareto, run.  Each command parses the
 * common options it accepts, builds a result (result.h) and prints it in the
 * chosen format (report.h). */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "calib.h"
#include "interrupt.h"
#include "import_hf.h"
#include "lua_api.h"
#include "memory.h"
#include "plot.h"
#include "report.h"
#include "result.h"
#include "sandbox.h"
#include "shard.h"
#include "spec.h"
#include "step.h"
#include "sweep.h"
#include "serve.h"
#include "size.h"
#include "silicon.h"
#include "sizereport.h"
#include "serve_validate.h"
#include "arch.h"
#include <math.h>

#define ERRLEN 1024
#define MAX_LIST 4096
#define MAX_SETS 64

/* Options a command may accept (bit flags). */
enum {
    O_MODEL = 1 << 0,
    O_HW = 1 << 1,
    O_CHIPS = 1 << 2,
    O_BATCH = 1 << 3,
    O_CONTEXT = 1 << 4,
    O_PREC = 1 << 5, /* --weights --kv --compute */
    O_IDEAL = 1 << 6,
    O_SET = 1 << 7,
    O_OUTPUT = 1 << 8, /* --output */
    O_OPS = 1 << 9,    /* --phase --tokens --prefix --mfu --act --attn --non-causal --chunk */
    O_IMPORT = 1 << 10, /* --name --source */
    O_SHARD = 1 << 11, /* --tp --ep --sp --pp --x --sharding --kv-split --moe-attn --overlap */
    O_OVERLAP = 1 << 12,
    O_LISTS = 1 << 13, /* --chips, --weights, --kv take comma-separated lists */
    O_PLOT = 1 << 14,  /* --plot FILE.png|.svg, --prompt P */
    O_OUTDIR = 1 << 15, /* --out DIR (scenario output files) */
    O_BACKEND = 1 << 16, /* --backend --profile --quick --threads (calibrate, validate) */
    O_SERVE = 1 << 17, /* simulate/size workload and engine options (SV_*; --prompt DIST, --plot DIR,
                          --output DIST) */
    O_FMT = 1 << 18,   /* --format */
    O_ENGINE = 1 << 19, /* --engine NAME: the hw spec's serving engine (or ideal) */
    O_FORMAT = O_FMT | O_OUTPUT,
};
/* every O_* above is a distinct bit: a shared bit would let one option in
 * through another's flag */
_Static_assert((O_FMT & (O_MODEL | O_HW | O_CHIPS | O_BATCH | O_CONTEXT | O_PREC | O_IDEAL | O_SET |
                         O_OUTPUT | O_OPS | O_IMPORT | O_SHARD | O_OVERLAP | O_LISTS | O_PLOT |
                         O_OUTDIR | O_BACKEND | O_SERVE | O_ENGINE)) == 0,
               "O_FMT overlaps another option flag");

/* getopt values of the sharding options (beyond every short-option char) */
enum { OPT_TP = 256, OPT_EP, OPT_SP, OPT_PP, OPT_X, OPT_SHARDING, OPT_KV_SPLIT, OPT_MOE_ATTN,
       OPT_OVERLAP, OPT_PLOT, OPT_PROMPT, OPT_OUT, OPT_BACKEND, OPT_PROFILE, OPT_QUICK,
       OPT_THREADS, OPT_ENGINE, OPT_TABLES, OPT_HOLDOUT };

/* simulate/size options, kept as strings and parsed by serve_setup. */
enum {
    SV_QPS, SV_PROMPT, SV_TRACE, SV_POLICY, SV_REPLICAS, SV_PREFILL_REPLICAS, SV_ROUTE,
    SV_MAX_SEQS, SV_MAX_TOKENS, SV_PAGE, SV_PREEMPT, SV_PREFIX_CACHE, SV_PREFIXES, SV_SPEC,
    SV_REQUESTS, SV_SEED, SV_BURST, SV_TTFT, SV_TPOT, SV_REPORT, SV_SAVE, SV_RESERVE,
    SV_MAX_CHIPS, SV_KEEP_PREC,
    SV_COUNT
};

typedef struct {
    const char *model, *hw;
    long long chips;
    long long batch[MAX_LIST];
    int nbatch;
    long long context;
    rl_precision prec;
    int ideal;
    rl_override sets[2][MAX_SETS]; /* [0] model, [1] hw */
    int nsets[2];
    rl_format fmt;
    const char *output;
    long long max_instructions; /* --max-instructions */
    const char *phase;           /* decode | prefill | mixed */
    long long tokens[MAX_LIST];  /* prefill: T (a list for `prefill`) */
    int ntokens;
    long long prefix, chunk;
    double mfu;
    rl_dtype act;
    int materialized, non_causal;
    const char *name, *source; /* import-hf */
    rl_shard_plan plan;
    int sharded;  /* a plan option was given: --tp --ep --sp --pp --x --sharding */
    int plan_modifier; /* --kv-split or --moe-attn: they refine a plan, none alone */
    int kv_given; /* --kv was on the command line */
    long long chips_list[64]; /* pareto: --chips as a list */
    int nchips;
    rl_dtype weights[RL_DTYPE_COUNT], kv[RL_DTYPE_COUNT]; /* pareto: dtype lists */
    int nweights, nkv;
    const char *plot, *outdir;
    long long prompt;
    rl_calib_opts calib; /* calibrate, validate */
    const char *engine;  /* --engine */
    const char *tables;  /* --tables DIR (calibrate, validate) */
    int holdout;         /* --holdout K (validate --tables) */
    int nargs;    /* positional arguments left after the options */
    char **args;
    const char *sv[SV_COUNT]; /* O_SERVE option values */
    int argc;                 /* the whole command line */
    char **argv;
    char cmdline[2048];       /* it shell-quoted, taken before parsing (--set edits its argument) */
} cli_opts;

/* o's command line as a shell would take it back ("roofline size --qps 20
 * ..."): arguments with characters beyond [A-Za-z0-9_./:,=+@%-] in single
 * quotes; cut at len - 1 bytes. */
static void command_line(const cli_opts *o, char *buf, size_t len)
{
    size_t at = (size_t)snprintf(buf, len, "roofline");
    for (int i = 1; i < o->argc && at < len; i++) {
        const char *a = o->argv[i];
        int plain = a[0] != '\0' && strspn(a, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                                "0123456789_./:,=+@%-") == strlen(a);
        at += (size_t)snprintf(buf + at, len - at, plain ? " %s" : " '", a);
        for (const char *c = a; !plain && *c && at < len; c++)
            at += (size_t)snprintf(buf + at, len - at, *c == '\'' ? "'\\''" : "%c", *c);
        if (!plain && at < len)
            at += (size_t)snprintf(buf + at, len - at, "'");
    }
}

typedef struct {
    const char *name;
    int (*run)(cli_opts *o);
    int accepts;
    const char *summary;
    const char *usage; /* lines after "usage: roofline NAME " */
} command;

int rl_cli_parse_list(const char *s, long long min, long long max, long long *out, int cap, char *err,
                      unsigned long errlen)
{
    int n = 0;
    const char *p = s;
    for (;;) {
        char *end;
        errno = 0;
        long long v = strtoll(p, &end, 10);
        /* echo at most 40 characters of the list: the reason must show */
        const char *more = strlen(s) > 40 ? "..." : "";
        if (end == p || (*end && *end != ',') || errno == EINVAL) {
            snprintf(err, errlen, "'%.40s%s': expected comma-separated integers", s, more);
            return -1;
        }
        if (errno == ERANGE || v < min || v > max) {
            snprintf(err, errlen, "'%.40s%s': %.*s is outside %lld..%lld", s, more,
                     (int)(end - p) > 24 ? 24 : (int)(end - p), p, min, max);
            return -1;
        }
        if (n == cap) {
            snprintf(err, errlen, "'%.40s%s': more than %d values", s, more, cap);
            return -1;
        }
        out[n++] = v;
        if (!*end)
            return n;
        p = end + 1;
    }
}

static int parse_count(const char *flag, const char *s, long long max, long long *out)
{
    char err[ERRLEN];
    if (strchr(s, ',')) {
        fprintf(stderr, "roofline: %s '%.40s': takes one integer, not a list\n", flag, s);
        return -1;
    }
    if (rl_cli_parse_list(s, 1, max, out, 1, err, sizeof err) != 1) {
        fprintf(stderr, "roofline: %s %s\n", flag, err);
        return -1;
    }
    return 0;
}

static int parse_dtype(const char *flag, const char *s, rl_dtype *out)
{
    if (rl_dtype_parse(s, out) == 0)
        return 0;
    fprintf(stderr, "roofline: %s: unknown dtype '%s' (known: %s)\n", flag, s, rl_dtype_list());
    return -1;
}

/* A comma-separated list of dtypes into out[RL_DTYPE_COUNT]; returns the count or -1. */
static int parse_dtype_list(const char *flag, const char *s, rl_dtype *out)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    int n = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (n == RL_DTYPE_COUNT || parse_dtype(flag, t, &out[n]) != 0)
            return -1;
        n++;
    }
    if (n == 0)
        fprintf(stderr, "roofline: %s: expected a dtype\n", flag);
    return n ? n : -1;
}

/* --weights / --kv: a list for commands with O_LISTS (first value also in
 * *one), a single dtype otherwise.  Returns 0 or -1 (message printed). */
static int parse_dtype_opt(const command *c, const char *flag, const char *arg, rl_dtype *list,
                           int *n, rl_dtype *one)
{
    if (!(c->accepts & O_LISTS))
        return parse_dtype(flag, arg, one);
    if ((*n = parse_dtype_list(flag, arg, list)) < 0)
        return -1;
    *one = list[0];
    return 0;
}

static const struct option LONGOPTS[] = {
    {"model", required_argument, 0, 'm'},   {"hw", required_argument, 0, 'H'},
    {"chips", required_argument, 0, 'c'},   {"batch", required_argument, 0, 'b'},
    {"context", required_argument, 0, 's'}, {"weights", required_argument, 0, 'w'},
    {"kv", required_argument, 0, 'k'},      {"compute", required_argument, 0, 'C'},
    {"ideal", no_argument, 0, 'i'},         {"set", required_argument, 0, 'S'},
    {"format", required_argument, 0, 'f'},  {"output", required_argument, 0, 'o'},
    {"max-instructions", required_argument, 0, 'I'},
    {"phase", required_argument, 0, 'p'},   {"tokens", required_argument, 0, 'T'},
    {"prefix", required_argument, 0, 'P'},  {"mfu", required_argument, 0, 'u'},
    {"act", required_argument, 0, 'a'},     {"attn", required_argument, 0, 'A'},
    {"non-causal", no_argument, 0, 'n'},    {"chunk", required_argument, 0, 'K'},
    {"name", required_argument, 0, 'N'},    {"source", required_argument, 0, 'R'},
    {"tp", required_argument, 0, OPT_TP},   {"ep", required_argument, 0, OPT_EP},
    {"sp", required_argument, 0, OPT_SP},   {"pp", required_argument, 0, OPT_PP},
    {"x", required_argument, 0, OPT_X},     {"sharding", required_argument, 0, OPT_SHARDING},
    {"kv-split", required_argument, 0, OPT_KV_SPLIT},
    {"moe-attn", required_argument, 0, OPT_MOE_ATTN},
    {"overlap", no_argument, 0, OPT_OVERLAP},
    {"plot", required_argument, 0, OPT_PLOT}, {"prompt", required_argument, 0, OPT_PROMPT},
    {"out", required_argument, 0, OPT_OUT},
    {"backend", required_argument, 0, OPT_BACKEND}, {"profile", required_argument, 0, OPT_PROFILE},
    {"quick", no_argument, 0, OPT_QUICK}, {"threads", required_argument, 0, OPT_THREADS},
    {"engine", required_argument, 0, OPT_ENGINE}, {"tables", required_argument, 0, OPT_TABLES},
    {"holdout", required_argument, 0, OPT_HOLDOUT},
    {"help", no_argument, 0, 'h'},
    {"qps", required_argument, 0, 1000 + SV_QPS},
    {"trace", required_argument, 0, 1000 + SV_TRACE},
    {"policy", required_argument, 0, 1000 + SV_POLICY},
    {"replicas", required_argument, 0, 1000 + SV_REPLICAS},
    {"prefill-replicas", required_argument, 0, 1000 + SV_PREFILL_REPLICAS},
    {"route", required_argument, 0, 1000 + SV_ROUTE},
    {"max-seqs", required_argument, 0, 1000 + SV_MAX_SEQS},
    {"max-tokens", required_argument, 0, 1000 + SV_MAX_TOKENS},
    {"page", required_argument, 0, 1000 + SV_PAGE},
    {"preempt", required_argument, 0, 1000 + SV_PREEMPT},
    {"prefix-cache", required_argument, 0, 1000 + SV_PREFIX_CACHE},
    {"prefixes", required_argument, 0, 1000 + SV_PREFIXES},
    {"spec", required_argument, 0, 1000 + SV_SPEC},
    {"requests", required_argument, 0, 1000 + SV_REQUESTS},
    {"seed", required_argument, 0, 1000 + SV_SEED},
    {"burst", required_argument, 0, 1000 + SV_BURST},
    {"ttft-p99", required_argument, 0, 1000 + SV_TTFT},
    {"tpot-p99", required_argument, 0, 1000 + SV_TPOT},
    {"report", required_argument, 0, 1000 + SV_REPORT},
    {"save", required_argument, 0, 1000 + SV_SAVE},
    {"hbm-reserve", required_argument, 0, 1000 + SV_RESERVE},
    {"max-chips", required_argument, 0, 1000 + SV_MAX_CHIPS},
    {"keep-precision", no_argument, 0, 1000 + SV_KEEP_PREC},
    {0, 0, 0, 0},
};

static int option_flag(int c)
{
    switch (c) {
    case 'm': return O_MODEL;
    case 'H': return O_HW;
    case 'c': return O_CHIPS;
    case 'b': return O_BATCH;
    case 's': return O_CONTEXT;
    case 'w': case 'k': case 'C': return O_PREC;
    case 'i': return O_IDEAL;
    case 'S': return O_SET;
    case 'f': return O_FMT;
    case 'o': return O_OUTPUT | O_SERVE; /* simulate/size: the output-length DIST */
    case 'I': return O_OUTDIR;
    case 'N': case 'R': return O_IMPORT;
    case 'p': case 'T': case 'P': case 'u': case 'a': case 'A': case 'n': case 'K': return O_OPS;
    case OPT_TP: case OPT_EP: case OPT_SP: case OPT_PP: case OPT_X: case OPT_SHARDING:
    case OPT_KV_SPLIT: case OPT_MOE_ATTN: return O_SHARD;
    case OPT_OVERLAP: return O_SHARD | O_OVERLAP;
    case OPT_PLOT: case OPT_PROMPT: return O_PLOT | O_SERVE;
    case OPT_OUT: return O_OUTDIR;
    case OPT_BACKEND: case OPT_PROFILE: case OPT_QUICK: case OPT_THREADS: case OPT_TABLES:
    case OPT_HOLDOUT: return O_BACKEND;
    case OPT_ENGINE: return O_ENGINE;
    case 1000 + SV_SAVE: return O_SERVE | O_BACKEND; /* calibrate --tables --save FILE */
    }
    if (c >= 1000 && c < 1000 + SV_COUNT)
        return O_SERVE;
    return 0;
}

static void print_usage(const command *c, FILE *f)
{
    fprintf(f, "usage: roofline %s %s\n\n%s\n", c->name, c->usage, c->summary);
    if (c->accepts & O_SET)
        fprintf(f, "  --set model.FIELD=V | hw.FIELD=V   override a spec field (repeatable;"
                   " dotted for tables: hw.flops.bf16=2e14)\n");
    if (c->accepts & O_PREC)
        fprintf(f, "  --weights D --kv D --compute D     dtypes (%s); default bf16\n",
                rl_dtype_list());
    if ((c->accepts & O_ENGINE) && (c->accepts & O_HW) && !(c->accepts & O_BACKEND))
        fprintf(f, "  --engine NAME                      the hw spec's serving engine whose kernel"
                   " tables time\n"
                   "                                     the operators (default: the spec's"
                   " default; ideal =\n"
                   "                                     --ideal; roofline info --hw H lists"
                   " them)\n");
    if (c->accepts & O_SHARD)
        fprintf(f, "  --tp Y --ep Z --pp P               tensor / expert parallel chips, pipeline stages\n"
                   "                                     (chips / (Y*Z*P) replicas); adds collectives\n"
                   "  --sharding 1d|2d [--x X]           Megatron or 2D weight-stationary (X chips on D)\n"
                   "  --kv-split batch|seq|replicate     KV cache beyond K heads (default batch)\n"
                   "  --moe-attn tp|replicated           MoE attention with --ep (default tp)\n");
    if (c->accepts & O_OVERLAP)
        fprintf(f, "  --overlap                          step = max(local, comm) instead of the sum\n");
    if (c->accepts & O_LISTS)
        fprintf(f, "  --chips, --weights, --kv take comma-separated lists (the sweep's grid)\n");
    if (c->accepts & O_PLOT)
        fprintf(f, "  --plot FILE.png|.svg               also draw the figure (data + .gp kept beside"
                   " it)\n  --prompt P                         prompt tokens for TTFT (default:"
                   " the context)\n");
    if (c->accepts & O_OUTDIR)
        fprintf(f, "  --out DIR                          the only directory roofline.write and"
                   " roofline.plot\n"
                   "                                     write to (default out; names cannot"
                   " leave it)\n"
                   "  --max-instructions N               Lua VM instruction budget (default"
                   " %ld)\n",
                RL_SCENARIO_LIMITS.instructions);
    if (c->accepts & O_FMT)
        fprintf(f, "  --format table|csv|json            output format (default table; JSON and"
                   " CSV in SI units)\n");
    if (c->accepts & O_OUTPUT)
        fprintf(f, "  --output FILE                      write there (atomically) instead of stdout\n");
    if (c->accepts & O_OPS)
        fprintf(f, "  --act D                            activation dtype (default bf16)\n"
                   "  --attn fused|materialized          FlashAttention (default) or scores in HBM\n"
                   "  --non-causal                       prefill counts T(P+T) pairs, not the"
                   " causal T(T+1)/2 + TP\n"
                   "  --mfu F                            compute at F * peak (e.g. 0.4); default"
                   " ideal peak\n");
    if (c->accepts & O_MODEL)
        fprintf(f, "  M and H are preset names (model/M.lua, hw_profiles/H.lua) or paths to .lua "
                   "files.\n");
}

/* The long name of the option getopt reports as `val`, or NULL. */
static const char *long_name(int val)
{
    for (const struct option *lo = LONGOPTS; lo->name; lo++)
        if (lo->val == val)
            return lo->name;
    return NULL;
}

/* The long option an argument "--NAME[=VALUE]" names (NAME in full or a
 * prefix getopt_long accepts as unique), or NULL. */
static const struct option *long_option(const char *arg)
{
    if (strncmp(arg, "--", 2) != 0)
        return NULL;
    size_t n = strcspn(arg + 2, "=");
    const struct option *hit = NULL;
    int hits = 0;
    for (const struct option *lo = LONGOPTS; lo->name; lo++) {
        if (strncmp(lo->name, arg + 2, n) != 0)
            continue;
        if (strlen(lo->name) == n)
            return lo;
        hit = lo;
        hits++;
    }
    return hits == 1 ? hit : NULL;
}

/* Parse argv for command c.  Returns 0, 1 for --help (printed), or -1. */
static int parse_options(const command *c, int argc, char **argv, cli_opts *o)
{
    o->chips = 1;
    o->prec = rl_precision_default();
    o->fmt = RL_FMT_TABLE;
    o->act = RL_BF16;
    o->plan = rl_shard_plan_default();
    optind = 0; /* glibc: 0 also resets getopt's place inside a cluster left by an earlier call */
    opterr = 0;
    int ch;
    /* `run` passes everything after the script to it; others permute */
    const char *shortopts = strcmp(c->name, "run") == 0 ? "+h" : "h";
    while ((ch = getopt_long(argc, argv, shortopts, LONGOPTS, NULL)) != -1) {
        if (ch == 'h') {
            print_usage(c, stdout);
            return 1;
        }
        if (ch == '?' || ch == ':' || !(option_flag(ch) & c->accepts)) {
            /* name the option itself, never its value */
            const char *name = optind >= 1 && optind <= argc && argv[optind - 1] ? argv[optind - 1]
                                                                                  : "?";
            if (ch != '?' && ch != ':' && long_name(ch))
                name = long_name(ch);
            const struct option *lo = ch == '?' ? long_option(name) : NULL;
            if (lo && strchr(name, '=') && lo->has_arg == no_argument)
                fprintf(stderr, "roofline %s: option '--%s' takes no value (see roofline %s --help)\n",
                        c->name, lo->name, c->name);
            else if (lo && !strchr(name, '=') && lo->has_arg == required_argument)
                fprintf(stderr, "roofline %s: option '%s' needs a value (see roofline %s --help)\n",
                        c->name, name, c->name);
            else
                fprintf(stderr, "roofline %s: %s option '%s%s' (see roofline %s --help)\n", c->name,
                        ch == '?' ? "unknown" : "this command takes no", ch == '?' ? "" : "--",
                        name, c->name);
            return -1;
        }
        char err[ERRLEN];
        switch (ch) {
        case 'm': o->model = optarg; break;
        case 'H': o->hw = optarg; break;
        case 'c':
            if (!(c->accepts & O_LISTS)) {
                if (parse_count("--chips", optarg, 1000000, &o->chips) != 0)
                    return -1;
                break;
            }
            o->nchips = rl_cli_parse_list(optarg, 1, 1000000, o->chips_list, 64, err, sizeof err);
            if (o->nchips < 0) {
                fprintf(stderr, "roofline: --chips %s\n", err);
                return -1;
            }
            o->chips = o->chips_list[0];
            break;
        case 'b':
            o->nbatch = rl_cli_parse_list(optarg, 1, 1000000000, o->batch, MAX_LIST, err, sizeof err);
            if (o->nbatch < 0) {
                fprintf(stderr, "roofline: --batch %s\n", err);
                return -1;
            }
            break;
        case 's':
            if (parse_count("--context", optarg, 1000000000, &o->context) != 0)
                return -1;
            break;
        case 'w':
            if (parse_dtype_opt(c, "--weights", optarg, o->weights, &o->nweights,
                                &o->prec.weights) != 0)
                return -1;
            break;
        case 'k':
            if (parse_dtype_opt(c, "--kv", optarg, o->kv, &o->nkv, &o->prec.kv) != 0)
                return -1;
            o->kv_given = 1;
            break;
        case 'C':
            if (parse_dtype("--compute", optarg, &o->prec.compute) != 0)
                return -1;
            break;
        case 'i': o->ideal = 1; break;
        case 'S': {
            int kind;
            rl_override ov;
            if (rl_override_parse(optarg, &kind, &ov, err, sizeof err) != 0) {
                fprintf(stderr, "roofline: %s\n", err);
                return -1;
            }
            if (o->nsets[kind] == MAX_SETS) {
                fprintf(stderr, "roofline: more than %d --set options\n", MAX_SETS);
                return -1;
            }
            o->sets[kind][o->nsets[kind]++] = ov;
            break;
        }
        case 'f':
            if (rl_format_parse(optarg, &o->fmt) != 0) {
                fprintf(stderr, "roofline: --format '%s': expected table, csv or json\n", optarg);
                return -1;
            }
            break;
        case 'o':
            if (!*optarg) {
                fprintf(stderr, "roofline %s: --output: empty name\n", c->name);
                return -1;
            }
            o->output = optarg;
            break;
        case OPT_PLOT: o->plot = optarg; break;
        case OPT_OUT: o->outdir = optarg; break;
        case 'I':
            if (parse_count("--max-instructions", optarg, 1000000000000LL, &o->max_instructions) != 0)
                return -1;
            break;
        case OPT_BACKEND: o->calib.backend = optarg; break;
        case OPT_PROFILE: o->calib.profile = optarg; break;
        case OPT_QUICK: o->calib.quick = 1; break;
        case OPT_ENGINE: o->engine = optarg; break;
        case OPT_TABLES: o->tables = optarg; break;
        case OPT_HOLDOUT: {
            long long k;
            if (parse_count("--holdout", optarg, 1000000, &k) != 0)
                return -1;
            if (k < 2) {
                fprintf(stderr, "roofline %s: --holdout: K >= 2 (every K-th configuration held "
                        "back), got %lld\n", c->name, k);
                return -1;
            }
            o->holdout = (int)k;
            break;
        }
        case OPT_THREADS: {
            long long t;
            if (parse_count("--threads", optarg, 1024, &t) != 0)
                return -1;
            o->calib.threads = (int)t;
            break;
        }
        case OPT_PROMPT:
            if (c->accepts & O_SERVE) { /* simulate/size: a length distribution */
                o->sv[SV_PROMPT] = optarg;
                break;
            }
            if (parse_count("--prompt", optarg, 1000000000, &o->prompt) != 0)
                return -1;
            break;
        case 'p': o->phase = optarg; break;
        case 'T':
            o->ntokens = rl_cli_parse_list(optarg, 1, 1000000000, o->tokens, MAX_LIST, err, sizeof err);
            if (o->ntokens < 0) {
                fprintf(stderr, "roofline: --tokens %s\n", err);
                return -1;
            }
            break;
        case 'P':
            if (rl_cli_parse_list(optarg, 0, 1000000000, &o->prefix, 1, err, sizeof err) != 1) {
                fprintf(stderr, "roofline: --prefix %s\n", err);
                return -1;
            }
            break;
        case 'K':
            if (parse_count("--chunk", optarg, 1000000000, &o->chunk) != 0)
                return -1;
            break;
        case 'u': {
            char *end;
            o->mfu = strtod(optarg, &end);
            if (end == optarg || *end || !(o->mfu >= RL_MFU_MIN && o->mfu <= 1)) {
                fprintf(stderr, "roofline: --mfu '%s': expected a fraction in [%g, 1]\n", optarg,
                        RL_MFU_MIN);
                return -1;
            }
            break;
        }
        case 'a':
            if (parse_dtype("--act", optarg, &o->act) != 0)
                return -1;
            break;
        case 'A':
            if (strcmp(optarg, "fused") != 0 && strcmp(optarg, "materialized") != 0) {
                fprintf(stderr, "roofline: --attn '%s': expected fused or materialized\n", optarg);
                return -1;
            }
            o->materialized = optarg[0] == 'm';
            break;
        case 'n': o->non_causal = 1; break;
        case 'N': o->name = optarg; break;
        case 'R': o->source = optarg; break;
        case OPT_TP: case OPT_EP: case OPT_SP: case OPT_PP: case OPT_X: {
            long long *dst = ch == OPT_TP ? &o->plan.tp : ch == OPT_EP ? &o->plan.ep
                           : ch == OPT_SP ? &o->plan.sp : ch == OPT_PP ? &o->plan.pp : &o->plan.x;
            const char *flag = ch == OPT_TP ? "--tp" : ch == OPT_EP ? "--ep" : ch == OPT_SP ? "--sp"
                             : ch == OPT_PP ? "--pp" : "--x";
            if (parse_count(flag, optarg, 1000000, dst) != 0)
                return -1;
            o->sharded = 1;
            break;
        }
        case OPT_SHARDING:
            if (rl_layout_parse(optarg, &o->plan.layout) != 0) {
                fprintf(stderr, "roofline: --sharding '%s': expected 1d or 2d\n", optarg);
                return -1;
            }
            o->sharded = 1;
            break;
        case OPT_KV_SPLIT:
            if (rl_kv_split_parse(optarg, &o->plan.kv) != 0) {
                fprintf(stderr, "roofline: --kv-split '%s': expected batch, seq or replicate\n",
                        optarg);
                return -1;
            }
            o->plan_modifier = 1;
            break;
        case OPT_MOE_ATTN:
            if (strcmp(optarg, "tp") != 0 && strcmp(optarg, "replicated") != 0) {
                fprintf(stderr, "roofline: --moe-attn '%s': expected tp or replicated\n", optarg);
                return -1;
            }
            o->plan.attn_replicated = optarg[0] == 'r';
            o->plan_modifier = 1;
            break;
        case OPT_OVERLAP: o->plan.overlap = 1; break;
        default: o->sv[ch - 1000] = optarg ? optarg : "1"; break;
        }
    }
    if (o->nsets[1] > 0 && !(c->accepts & O_HW)) {
        fprintf(stderr, "roofline %s: --set hw.%s: this command takes no hardware spec\n", c->name,
                o->sets[1][0].field);
        return -1;
    }
    if (o->plan.x > 0 && o->plan.layout != RL_LAYOUT_2D)
        fprintf(stderr, "roofline %s: note: --x applies to --sharding 2d only; ignored\n", c->name);
    o->nargs = argc - optind;
    o->args = argv + optind;
    return 0;
}

static int need(const cli_opts *o, const char *cmd, const char *what, int have)
{
    if (have)
        return 0;
    fprintf(stderr, "roofline %s: %s is required (see roofline %s --help)\n", cmd, what, cmd);
    (void)o;
    return -1;
}

/* Load --model with its overrides; refuse options that cannot apply to it
 * (--kv for an abstract model, --context beyond max_context). */
static int load_model(const cli_opts *o, rl_model *m)
{
    char err[ERRLEN];
    if (rl_model_load(o->model, o->sets[0], o->nsets[0], m, err, sizeof err) != 0 ||
        (o->context > 0 && rl_model_check_context(m, o->context, err, sizeof err) != 0)) {
        fprintf(stderr, "roofline: %s\n", err);
        return -1;
    }
    if (m->abstract && o->kv_given) {
        fprintf(stderr, "roofline: --kv: %s is an abstract model whose kv_bytes_per_token is given "
                        "in bytes; --kv does not apply (change kv_bytes_per_token instead)\n",
                m->origin);
        return -1;
    }
    return 0;
}

static int load_hw(const cli_opts *o, rl_hw *h)
{
    char err[ERRLEN];
    if (rl_hw_load(o->hw, o->sets[1], o->nsets[1], h, err, sizeof err) != 0 ||
        (o->engine && rl_engines_select(&h->engines, o->engine, h->origin, err, sizeof err) != 0)) {
        fprintf(stderr, "roofline: %s\n", err);
        return -1;
    }
    if (o->engine && strcmp(o->engine, "ideal") == 0) /* --engine ideal == --ideal */
        rl_hw_set_ideal(h);
    return 0;
}

/* Print (or write to --output) a malloc'd text and free it. */
static int emit_text(const cli_opts *o, char *text)
{
    char err[ERRLEN];
    int rc = RL_EXIT_OK;
    if (o->output) {
        if (rl_write_atomic(o->output, text, strlen(text), err, sizeof err) != 0) {
            fprintf(stderr, "roofline: %s\n", err);
            rc = RL_EXIT_IO;
        }
    } else if (fputs(text, stdout) == EOF || fflush(stdout) != 0) {
        rc = RL_EXIT_IO;
    }
    free(text);
    return rc;
}

/* Print (or write to --output) a result and free it. */
static int emit(const cli_opts *o, cJSON *result)
{
    char err[ERRLEN];
    if (!result) {
        fprintf(stderr, "roofline: out of memory\n");
        return RL_EXIT_IO;
    }
    char *text = rl_report_render(result, o->fmt, err, sizeof err);
    cJSON_Delete(result);
    if (!text) {
        fprintf(stderr, "roofline: %s\n", err);
        return RL_EXIT_IO;
    }
    return emit_text(o, text);
}

static int cmd_info(cli_opts *o)
{
    rl_model m;
    char err[ERRLEN];
    if (!o->hw && o->nsets[1] > 0) {
        fprintf(stderr, "roofline info: --set hw.%s: info --model takes no hardware spec (give "
                "--hw H alone for its engines)\n", o->sets[1][0].field);
        return RL_EXIT_INPUT;
    }
    if (o->hw && !o->model) {
        rl_hw h;
        if (load_hw(o, &h) != 0)
            return RL_EXIT_INPUT;
        return emit(o, rl_result_engines(&h));
    }
    if (need(o, "info", "--model M (or --hw H)", o->model != NULL) != 0 || load_model(o, &m) != 0)
        return RL_EXIT_INPUT;
    static const long long one = 1;
    if (o->context > 0 &&
        rl_memory_check_exact(&m, &one, 1, o->context, o->prec.kv, err, sizeof err) != 0) {
        fprintf(stderr, "roofline info: %s\n", err);
        return RL_EXIT_INPUT;
    }
    return emit(o, rl_result_info(&m, o->prec, o->context));
}

static int cmd_step(cli_opts *o)
{
    rl_model m;
    rl_hw h;
    if (need(o, "step", "--model M", o->model != NULL) != 0 ||
        need(o, "step", "--hw H", o->hw != NULL) != 0 ||
        need(o, "step", "--context S", o->context > 0) != 0 || load_model(o, &m) != 0 ||
        load_hw(o, &h) != 0)
        return RL_EXIT_INPUT;
    if (o->nbatch == 0)
        o->batch[o->nbatch++] = 1;
    if (o->ideal) /* --ideal: the pure roofline even with measured tables */
        rl_hw_set_ideal(&h);
    char err[ERRLEN];
    if (rl_step_check(&m, &h, o->chips, o->context, o->prec, err, sizeof err) != 0 ||
        rl_memory_check_exact(&m, o->batch, o->nbatch, o->context, o->prec.kv, err, sizeof err) != 0) {
        fprintf(stderr, "roofline step: %s\n", err);
        return RL_EXIT_INPUT;
    }
    if (!o->sharded && (o->plan_modifier || o->plan.overlap))
        fprintf(stderr, "roofline step: note: --kv-split, --moe-attn and --overlap refine a sharded "
                        "plan; give --tp (--ep, --sp, --pp, --sharding) for one; ignored\n");
    if (o->sharded) {
        cJSON *r = rl_result_step_sharded(&m, &h, &o->plan, o->chips, o->batch, o->nbatch,
                                          o->context, o->prec, err, sizeof err);
        if (!r && err[0]) {
            fprintf(stderr, "roofline step: %s\n", err);
            return RL_EXIT_INPUT;
        }
        return emit(o, r);
    }
    return emit(o, rl_result_step(&m, &h, o->chips, o->batch, o->nbatch, o->context, o->prec));
}

static int cmd_shard(cli_opts *o)
{
    rl_model m;
    rl_hw h;
    if (need(o, "shard", "--model M", o->model != NULL) != 0 ||
        need(o, "shard", "--hw H", o->hw != NULL) != 0 ||
        need(o, "shard", "--context S", o->context > 0) != 0 ||
        need(o, "shard", "one --batch B", o->nbatch <= 1) != 0 || load_model(o, &m) != 0 ||
        load_hw(o, &h) != 0)
        return RL_EXIT_INPUT;
    long long batch = o->nbatch ? o->batch[0] : 1;
    char err[ERRLEN];
    if (rl_step_check(&m, &h, o->chips, o->context, o->prec, err, sizeof err) != 0) {
        fprintf(stderr, "roofline shard: %s\n", err);
        return RL_EXIT_INPUT;
    }
    return emit(o, rl_result_shard(&m, &h, o->chips, batch, o->context, o->prec, o->plan.overlap));
}

static int cmd_run(cli_opts *o)
{
    if (need(o, "run", "a scenario file", o->nargs >= 1) != 0)
        return RL_EXIT_INPUT;
    char err[4096];
    for (int i = 1; i < o->nargs; i++)
        if (strcmp(o->args[i], "--out") == 0)
            fprintf(stderr, "roofline run: note: '--out' after the script goes to the script "
                            "(in arg); give it before: roofline run --out DIR SCRIPT.lua\n");
    rl_outdir out = {0};
    rl_scenario_opts opts = {NULL, (long)o->max_instructions};
    /* an existing --out is checked now; a missing one (or the default out)
     * is created only if the script writes */
    struct stat st;
    if (o->outdir && (!*o->outdir || stat(o->outdir, &st) == 0)) {
        if (rl_outdir_open(&out, o->outdir, err, sizeof err) != 0) {
            fprintf(stderr, "roofline run: %s\n", err);
            return RL_EXIT_IO;
        }
    } else {
        rl_outdir_defer(&out, o->outdir ? o->outdir : "out");
    }
    opts.out = &out;
    int rc = RL_EXIT_OK;
    if (rl_lua_run_scenario(o->args[0], o->nargs - 1, o->args + 1, &opts, err, sizeof err) != 0) {
        fflush(stdout);
        fprintf(stderr, "roofline run: %s\n", err);
        rc = rl_interrupted() ? RL_EXIT_INTERRUPTED : RL_EXIT_INPUT;
        if (out.root[0]) { /* say what the failed run left: only complete files */
            rl_outdir_kept(&out, err, sizeof err);
            fprintf(stderr, "roofline run: %s\n", err);
        }
    } else if (fflush(stdout) != 0) {
        rc = RL_EXIT_IO;
    }
    rl_outdir_close(&out);
    return rc;
}

/* ---- simulate / size: workload and engine options (serve.h) ---- */

/* Parse option k as a number in [lo, hi] into *v (left as is when absent). */
static int sv_num(const cli_opts *o, int k, const char *flag, double lo, double hi, double *v)
{
    if (!o->sv[k])
        return 0;
    char *end;
    errno = 0;
    double x = strtod(o->sv[k], &end);
    /* counts are whole: a fraction is an error, not silently cut */
    int whole = k == SV_REQUESTS || k == SV_SEED || k == SV_MAX_SEQS || k == SV_MAX_TOKENS ||
                k == SV_PAGE || k == SV_REPLICAS || k == SV_PREFILL_REPLICAS || k == SV_MAX_CHIPS;
    if (end == o->sv[k] || *end || errno || !(x >= lo && x <= hi) || (whole && x != floor(x))) {
        fprintf(stderr, "roofline: %s '%s': expected %s in [%g, %g]\n", flag, o->sv[k],
                whole ? "a whole number" : "a number", lo, hi);
        return -1;
    }
    *v = x;
    return 0;
}

/* Option k as one of two names: *second set to 1 for `b`, 0 for `a`
 * (left as is when absent).  Returns 0 or -1. */
static int sv_choice(const cli_opts *o, int k, const char *flag, const char *a, const char *b,
                     int *second)
{
    if (!o->sv[k])
        return 0;
    if (strcmp(o->sv[k], a) != 0 && strcmp(o->sv[k], b) != 0) {
        fprintf(stderr, "roofline: %s '%s': expected %s or %s\n", flag, o->sv[k], a, b);
        return -1;
    }
    *second = strcmp(o->sv[k], b) == 0;
    return 0;
}

/* "A:B[:C]" into up to 3 numbers; returns how many were given or -1. */
static int sv_tuple(const cli_opts *o, int k, const char *flag, double *v, int min, int max)
{
    if (!o->sv[k])
        return 0;
    int n = 0;
    const char *p = o->sv[k];
    while (n < max) {
        char *end;
        v[n++] = strtod(p, &end);
        if (end == p || (*end && *end != ':') || !isfinite(v[n - 1]) || v[n - 1] < 0)
            break;
        if (!*end) {
            if (n >= min)
                return n;
            break;
        }
        p = end + 1;
    }
    fprintf(stderr, "roofline: %s '%s': expected %d to %d non-negative numbers separated by ':'\n",
            flag, o->sv[k], min, max);
    return -1;
}

/* Requests longer than the model's context are shortened to fit (prompt +
 * output <= max_context); say how many, since the results then describe
 * shorter requests than asked for. */
static int warn_truncated(long long cut, long long n, long long max_context)
{
    if (2 * cut > n) {
        fprintf(stderr, "roofline: %lld of %lld requests exceed the model's max_context (%lld "
                        "tokens): shorten --prompt/--output, or raise it with --set "
                        "model.max_context=N if the model supports longer contexts\n",
                cut, n, max_context);
        return -1;
    }
    if (cut > 0)
        fprintf(stderr, "roofline: note: %lld of %lld requests (%.1f%%) exceed the model's "
                        "max_context (%lld tokens) and were shortened to fit: the results "
                        "describe shorter requests than asked for\n",
                cut, n, 100.0 * (double)cut / (double)n, max_context);
    return 0;
}

/* Refuse the serving options (SV_*, and --plot unless `plot_ok`) that
 * command `cmd` does not use, instead of ignoring them: `allowed` lists
 * the SV_* it takes, ending in -1.  0, or -1 with the option named. */
static int sv_only(const cli_opts *o, const char *cmd, const int *allowed, int plot_ok,
                   const char *why)
{
    for (int k = 0; k < SV_COUNT; k++) {
        if (!o->sv[k])
            continue;
        int ok = 0;
        for (const int *a = allowed; *a >= 0; a++)
            ok |= *a == k;
        if (!ok) {
            fprintf(stderr, "roofline %s: --%s is not an option of %s (%s)\n", cmd,
                    long_name(1000 + k), cmd, why);
            return -1;
        }
    }
    if (o->plot && !plot_ok) {
        fprintf(stderr, "roofline %s: --plot is not an option of %s (%s)\n", cmd, cmd, why);
        return -1;
    }
    return 0;
}

/* Percentiles of a handful of requests mean little: say so. */
static void warn_few(long long n)
{
    if (n < 100)
        fprintf(stderr, "roofline: note: only %lld requests: p99 needs 100 or more, and throughput "
                        "over so short a run is noise\n", n);
}

/* Requests from --trace FILE, or generated from --qps/--prompt/--output
 * (DIST, taken from o->output here)/--requests/--seed/--burst/--prefixes;
 * few_note: say so when there are fewer than 100.  *truncated: requests
 * shortened to max_context (an error when they are more than half). */
static int serve_workload(const cli_opts *o, long long default_n, long long max_context,
                          int few_note, rl_workload *w, rl_request **req, long long *n,
                          long long *truncated)
{
    char err[ERRLEN];
    double v[3] = {0}, d;
    memset(w, 0, sizeof *w);
    w->n = default_n;
    w->seed = 1;
    if (sv_tuple(o, SV_PREFIXES, "--prefixes", v, 2, 2) < 0)
        return -1;
    w->prefixes = (int)v[0];
    w->prefix_len = (int)v[1];
    if (o->sv[SV_TRACE]) {
        if (o->sv[SV_QPS] || o->sv[SV_REQUESTS] || o->sv[SV_PROMPT])
            fprintf(stderr, "roofline: note: --trace sets arrivals and lengths; --qps, --requests "
                            "and --prompt are ignored\n");
        *n = rl_trace_read(o->sv[SV_TRACE], w->prefix_len, req, err, sizeof err);
        if (*n < 0) {
            fprintf(stderr, "roofline: --trace %s\n", err);
            return -1;
        }
        *truncated = rl_requests_truncate(*req, *n, max_context);
        if (warn_truncated(*truncated, *n, max_context) != 0)
            return -1;
        if (few_note)
            warn_few(*n);
        w->n = *n;
        w->qps = *n > 1 ? (double)(*n - 1) / ((*req)[*n - 1].arrival - (*req)[0].arrival + 1e-12) : 1;
        w->prompt.kind = w->output.kind = RL_DIST_TRACE;
        return 0;
    }
    if (!o->sv[SV_QPS] || !o->sv[SV_PROMPT] || !o->output) {
        fprintf(stderr, "roofline: need --trace FILE, or --qps Q --prompt DIST --output DIST\n");
        return -1;
    }
    d = (double)w->n;
    if (sv_num(o, SV_QPS, "--qps", 1e-9, 1e9, &w->qps) || sv_num(o, SV_REQUESTS, "--requests", 1, 1e8, &d))
        return -1;
    w->n = (long long)d;
    d = 1;
    if (sv_num(o, SV_SEED, "--seed", 0, 1e18, &d))
        return -1;
    w->seed = (uint64_t)d;
    w->max_context = 0; /* the CLI truncates below, and says so */
    if (o->sv[SV_BURST]) {
        w->arrival = RL_ARRIVAL_GAMMA;
        if (sv_num(o, SV_BURST, "--burst", 0.01, 100, &w->burst_cv))
            return -1;
    }
    if (rl_dist_parse(o->sv[SV_PROMPT], "--prompt", &w->prompt, err, sizeof err) != 0 ||
        rl_dist_parse(o->output, "--output", &w->output, err, sizeof err) != 0) {
        fprintf(stderr, "roofline: %s%s\n", err,
                strpbrk(o->output, "./") && rl_dist_parse(o->output, "--output", &w->output, NULL, 0)
                    ? " (here --output is the output-length DIST; write the result with --save FILE)"
                    : "");
        return -1;
    }
    if (w->prompt.kind == RL_DIST_TRACE || w->output.kind == RL_DIST_TRACE) {
        fprintf(stderr, "roofline: --prompt/--output 'trace' take lengths from --trace FILE; give "
                        "--trace, or a DIST\n");
        return -1;
    }
    if (rl_workload_generate(w, req, err, sizeof err) != 0) {
        fprintf(stderr, "roofline: %s\n", err);
        return -1;
    }
    w->max_context = max_context;
    *n = w->n;
    *truncated = rl_requests_truncate(*req, *n, max_context);
    if (warn_truncated(*truncated, *n, max_context) != 0)
        return -1;
    if (few_note)
        warn_few(*n);
    return 0;
}

/* Engine options into c for replicas of `chips` chips of h running m; a
 * draft model given in --spec is loaded into *draft (*has_draft 1). */
static int serve_config(const cli_opts *o, const rl_model *m, const rl_hw *h, rl_serve_config *c,
                        rl_model *draft, int *has_draft)
{
    *c = rl_serve_config_default();
    double v[3] = {0}, reserve = 0.1, x;
    if (o->sv[SV_POLICY] && rl_policy_parse(o->sv[SV_POLICY], &c->policy) != 0) {
        fprintf(stderr, "roofline: --policy '%s': expected static, interleaved, continuous, chunked "
                        "or disagg\n", o->sv[SV_POLICY]);
        return -1;
    }
    if (c->policy == RL_POLICY_CHUNKED)
        c->max_tokens = 512;
    if (o->sv[SV_PREFILL_REPLICAS] && c->policy != RL_POLICY_DISAGG)
        fprintf(stderr, "roofline: note: --prefill-replicas applies to --policy disagg; ignored\n");
    if (o->sv[SV_MAX_TOKENS] && (c->policy == RL_POLICY_STATIC || c->policy == RL_POLICY_INTERLEAVED))
        fprintf(stderr, "roofline: note: --max-tokens applies to continuous, chunked and disagg "
                        "batching; ignored with --policy %s\n", rl_policy_name(c->policy));
    int rr = 0, swap = 0;
    if (sv_choice(o, SV_ROUTE, "--route", "least-outstanding", "round-robin", &rr) != 0 ||
        sv_choice(o, SV_PREEMPT, "--preempt", "recompute", "swap", &swap) != 0)
        return -1;
    c->route = rr ? RL_ROUTE_ROUND_ROBIN : RL_ROUTE_LEAST_OUTSTANDING;
    c->preempt = swap ? RL_PREEMPT_SWAP : RL_PREEMPT_RECOMPUTE;
    struct { int k; const char *flag; double lo, hi; int *i; long long *ll; } ints[] = {
        {SV_REPLICAS, "--replicas", 1, 1e5, &c->replicas, NULL},
        {SV_PREFILL_REPLICAS, "--prefill-replicas", 1, 1e5, &c->prefill_replicas, NULL},
        {SV_MAX_SEQS, "--max-seqs", 1, 1e6, &c->max_seqs, NULL},
        {SV_MAX_TOKENS, "--max-tokens", 1, 1e9, NULL, &c->max_tokens},
        {SV_PAGE, "--page", 1, 1e5, &c->page_tokens, NULL},
    };
    for (size_t j = 0; j < sizeof ints / sizeof ints[0]; j++) {
        x = ints[j].i ? *ints[j].i : (double)*ints[j].ll;
        if (sv_num(o, ints[j].k, ints[j].flag, ints[j].lo, ints[j].hi, &x))
            return -1;
        if (ints[j].i)
            *ints[j].i = (int)x;
        else
            *ints[j].ll = (long long)x;
    }
    if (sv_num(o, SV_RESERVE, "--hbm-reserve", 0, 0.9, &reserve) ||
        sv_num(o, SV_TTFT, "--ttft-p99", 1e-6, 1e6, &c->slo_ttft) ||
        sv_num(o, SV_TPOT, "--tpot-p99", 1e-6, 1e6, &c->slo_tpot))
        return -1;
    c->spec_draft_frac = 0.05;
    const char *draft_name = NULL;
    if (o->sv[SV_SPEC]) {
        /* ALPHA:GAMMA[:DRAFT], DRAFT a fraction of a target step or a model spec */
        char buf[512], *end;
        snprintf(buf, sizeof buf, "%s", o->sv[SV_SPEC]);
        char *g = strchr(buf, ':'), *d = g ? strchr(g + 1, ':') : NULL;
        if (d)
            *d++ = 0;
        if (g)
            *g++ = 0;
        c->spec_alpha = strtod(buf, &end);
        int ok = g && *end == 0 && c->spec_alpha >= 0 && c->spec_alpha < 1;
        double gamma = ok ? strtod(g, &end) : 0;
        ok = ok && *end == 0 && gamma >= 1 && gamma <= 64 && gamma == floor(gamma);
        if (ok && d) {
            double frac = strtod(d, &end);
            if (*end == 0 && end != d)
                ok = frac >= 0 && frac <= 1, c->spec_draft_frac = frac;
            else
                draft_name = o->sv[SV_SPEC] + (d - buf);
        }
        if (!ok) {
            fprintf(stderr, "roofline: --spec '%s': expected ALPHA:GAMMA[:DRAFT] with 0 <= ALPHA "
                            "< 1, GAMMA in 1..64, DRAFT a fraction in [0, 1] or a model\n",
                    o->sv[SV_SPEC]);
            return -1;
        }
        c->spec_gamma = (int)gamma;
    }
    rl_serve_config_hw(c, m, h, o->chips, o->prec, reserve);
    *has_draft = draft_name != NULL;
    if (draft_name) { /* its weights and KV share the replica's HBM */
        char err[ERRLEN];
        if (rl_model_load(draft_name, NULL, 0, draft, err, sizeof err) != 0) {
            fprintf(stderr, "roofline: --spec draft: %s\n", err);
            return -1;
        }
        rl_serve_config_draft(c, draft, h, o->chips, o->prec);
        if (draft->vocab != m->vocab)
            fprintf(stderr, "roofline: note: --spec draft %s has vocab %lld, the target %lld: "
                            "speculative decoding needs one tokenizer\n", draft->name,
                    draft->vocab, m->vocab);
    }
    if (m->max_context > 0 && c->page_tokens > m->max_context)
        fprintf(stderr, "roofline: note: --page %d is longer than the model's max_context (%lld): "
                        "every sequence holds a whole page\n", c->page_tokens, m->max_context);
    int np = sv_tuple(o, SV_PREFIX_CACHE, "--prefix-cache", v, 1, 2);
    if (np < 0)
        return -1;
    c->prefix_hbm_tokens = v[0] * 1e9 / c->kv_bytes_per_token;
    c->prefix_host_tokens = v[1] * 1e9 / c->kv_bytes_per_token;
    if (np > 0 && v[1] > 0 && c->prefix_hbm_tokens < 1)
        fprintf(stderr, "roofline: note: --prefix-cache: the host tier holds prefixes evicted from "
                        "the HBM tier; with no HBM tier it stays empty\n");
    /* the HBM budget in words: weights, then the prefix cache, must leave a page of KV */
    double usable = (double)o->chips * h->hbm_bytes * (1 - reserve);
    double room = c->kv_capacity_tokens * c->kv_bytes_per_token; /* bytes after the weights */
    if (c->kv_capacity_tokens < c->page_tokens) {
        fprintf(stderr, "roofline: the weights (%.1f GB%s) leave no KV room in the %.1f GB usable on "
                        "%lld x %s (%.0f GB each less the %.0f%% --hbm-reserve): more --chips, or "
                        "int8/fp8 --weights\n", (usable - room) / 1e9,
                *has_draft ? ", target and draft" : "", usable / 1e9, o->chips, h->name,
                h->hbm_bytes / 1e9, 100 * reserve);
        return -1;
    }
    if (c->kv_capacity_tokens - c->prefix_hbm_tokens < c->page_tokens) {
        fprintf(stderr, "roofline: --prefix-cache: %.1f GB of prefix KV in HBM leaves no room for "
                        "running sequences: the weights leave %.1f GB for KV\n", v[0], room / 1e9);
        return -1;
    }
    c->keep_requests = o->plot != NULL;
    return 0;
}

static int cmd_simulate(cli_opts *o)
{
    rl_model m;
    rl_hw h;
    char err[ERRLEN];
    const char *out_dist = o->output;
    if (need(o, "simulate", "--model M", o->model != NULL) != 0 ||
        need(o, "simulate", "--hw H", o->hw != NULL) != 0 || load_model(o, &m) != 0 ||
        load_hw(o, &h) != 0)
        return RL_EXIT_INPUT;
    if (rl_step_check(&m, &h, o->chips, 1, o->prec, err, sizeof err) != 0) {
        fprintf(stderr, "roofline simulate: %s\n", err);
        return RL_EXIT_INPUT;
    }
    static const int sim_opts[] = {SV_QPS, SV_PROMPT, SV_TRACE, SV_POLICY, SV_REPLICAS,
                                   SV_PREFILL_REPLICAS, SV_ROUTE, SV_MAX_SEQS, SV_MAX_TOKENS, SV_PAGE,
                                   SV_PREEMPT, SV_PREFIX_CACHE, SV_PREFIXES, SV_SPEC, SV_REQUESTS,
                                   SV_SEED, SV_BURST, SV_TTFT, SV_TPOT, SV_SAVE, SV_RESERVE, -1};
    if (sv_only(o, "simulate", sim_opts, 1, "it is a `size` option") != 0)
        return RL_EXIT_INPUT;
    rl_workload w;
    rl_serve_config c;
    rl_request *req = NULL;
    long long n = 0;
    int has_draft;
    static rl_model draft;
    rl_ops_cost dc = {0};
    rl_step_cost dcost = {rl_serve_ops_time, &dc};
    long long truncated = 0;
    if (serve_workload(o, 20000, m.max_context, 1, &w, &req, &n, &truncated) != 0 ||
        serve_config(o, &m, &h, &c, &draft, &has_draft) != 0) {
        free(req);
        return RL_EXIT_INPUT;
    }
    if (has_draft) {
        /* the draft model runs on the same chips, its own op list per draft step */
        if (rl_ops_cost_init(&dc, &draft, &h, o->chips, o->prec, !o->ideal, err, sizeof err) != 0) {
            fprintf(stderr, "roofline simulate: --spec draft: %s\n", err);
            free(req);
            return RL_EXIT_INPUT;
        }
        c.spec_draft = &dcost;
    }
    o->output = o->sv[SV_SAVE]; /* --output was the DIST; --save FILE writes the result */
    rl_serve_result r;
    int rc = rl_serve_simulate(&m, &h, o->chips, o->prec, !o->ideal, req, n, &c, &r, err, sizeof err);
    rl_ops_cost_free(&dc);
    free(req);
    if (rc != 0) {
        fprintf(stderr, "roofline simulate: %s\n", err);
        return rl_interrupted() ? RL_EXIT_INTERRUPTED : RL_EXIT_INPUT;
    }
    long long chips = o->chips * (c.replicas + (c.policy == RL_POLICY_DISAGG ? c.prefill_replicas : 0));
    cJSON *j = rl_serve_result_json(&r, c.policy, chips);
    rl_serve_describe_run(j, &m, &h, !o->ideal, o->chips, chips, &c, o->prec,
                          o->sv[SV_TRACE] ? "trace" : o->sv[SV_PROMPT],
                          o->sv[SV_TRACE] ? "trace" : out_dist, w.qps,
                          o->sv[SV_TRACE] ? -1 : (double)w.seed);
    if (j)
        cJSON_AddNumberToObject(j, "truncated_requests", (double)truncated);
    double done_rate = r.steady_valid ? r.steady_req_per_s : r.req_per_s;
    if (n >= 2 && done_rate < 0.8 * w.qps)
        fprintf(stderr, "roofline simulate: note: overloaded: %.3g req/s completed of the %.3g "
                        "offered; the queue grows, so the latency percentiles grow with "
                        "--requests\n", done_rate, w.qps);
    if (j && o->fmt != RL_FMT_JSON)
        cJSON_DeleteItemFromObject(j, "kv_timeline");
    if (o->plot) {
        char title[256];
        int plotted;
        snprintf(title, sizeof title, "%s on %lld x %s, %s", m.name, o->chips, h.name,
                 rl_policy_name(c.policy));
        if (rl_serve_write_plots(&r, o->plot, title, &plotted, err, sizeof err) != 0) {
            fprintf(stderr, "roofline simulate: %s\n", err);
            rl_serve_result_free(&r);
            cJSON_Delete(j);
            return RL_EXIT_IO;
        }
        if (!plotted)
            fprintf(stderr, "roofline simulate: gnuplot not found; wrote %s/simulate.gp and data\n",
                    o->plot);
    }
    rl_serve_result_free(&r);
    return emit(o, j);
}

/* "Poisson 20 req/s, prompt DIST, output DIST" for reports. */
static void workload_desc(const cli_opts *o, const rl_workload *w, const char *out_dist, char *buf,
                          size_t len)
{
    if (o->sv[SV_TRACE])
        snprintf(buf, len, "trace %s (%lld requests, %.3g req/s mean)", o->sv[SV_TRACE], w->n, w->qps);
    else
        snprintf(buf, len, "%s arrivals at %.3g req/s, prompt %s tokens, output %s tokens, seed %llu",
                 w->arrival == RL_ARRIVAL_GAMMA ? "bursty (gamma)" : "Poisson", w->qps,
                 o->sv[SV_PROMPT], out_dist, (unsigned long long)w->seed);
}

/* The size result; `detail` adds each row's configuration fields and more
 * metrics (JSON, CSV), which the table leaves out to stay readable. */
static cJSON *size_json(const rl_size_input *in, const rl_size_result *r, int detail)
{
    cJSON *j = cJSON_CreateObject();
    if (!j)
        return NULL;
    cJSON_AddStringToObject(j, "model", in->m->name);
    int cal = 0;
    for (int i = 0; i < in->nhw; i++)
        cal += in->calibrated && rl_hw_measured(&in->hw[i]);
    cJSON_AddStringToObject(j, "mode", cal == in->nhw ? "calibrated" : cal == 0 ? "ideal"
                                                                         : "mixed (see each row)");
    cJSON_AddNumberToObject(j, "qps", in->w.qps);
    cJSON_AddNumberToObject(j, "slo_ttft_p99_s", in->slo_ttft);
    cJSON_AddNumberToObject(j, "slo_tpot_p99_s", in->slo_tpot);
    cJSON_AddStringToObject(j, "cost_unit", r->priced ? "usd_per_hour" : "chips");
    cJSON_AddNumberToObject(j, "meeting", r->nmeet);
    cJSON_AddNumberToObject(j, "simulated_configs", r->n);
    cJSON_AddNumberToObject(j, "pruned", (double)r->pruned);
    cJSON_AddNumberToObject(j, "search_s", r->search_s);
    cJSON *rows = cJSON_AddArrayToObject(j, "rows");
    for (int i = 0; rows && i < r->n; i++) {
        const rl_size_candidate *c = &r->c[i];
        char label[128];
        rl_size_label(in, c, label, sizeof label);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "config", label);
        const char *keys[] = {"chips_total", "cost", "ttft_p99_s", "tpot_p99_s", "e2e_p50_s",
                              "out_tokens_per_s"};
        double v[] = {(double)c->chips_total, c->cost_per_hour, c->ttft_p99, c->tpot_p99,
                      c->e2e_p50, c->out_tokens_per_s};
        for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
            cJSON_AddNumberToObject(o, keys[k], v[k]);
        cJSON_AddBoolToObject(o, "meets", c->meets);
        if (detail) {
            const rl_hw *h = &in->hw[c->hw];
            cJSON_AddStringToObject(o, "hw", h->name);
            cJSON_AddStringToObject(o, "mode", rl_hw_mode(h, in->calibrated));
            cJSON_AddStringToObject(o, "policy", rl_policy_name(c->policy));
            cJSON_AddStringToObject(o, "weights", rl_dtype_name(c->p.weights));
            cJSON_AddStringToObject(o, "kv", rl_dtype_name(c->p.kv));
            cJSON_AddStringToObject(o, "compute", rl_dtype_name(c->p.compute));
            const char *more[] = {"chips_per_replica", "replicas", "prefill_replicas", "max_seqs",
                                  "max_tokens", "usd_per_mtok", "ttft_p50_s", "tpot_p50_s",
                                  "e2e_p99_s", "slo_attainment", "utilization",
                                  "mean_decode_batch", "kv_capacity_tokens_per_replica"};
            double mv[] = {(double)c->chips, c->replicas,
                           c->policy == RL_POLICY_DISAGG ? c->prefill_replicas : 0, c->max_seqs,
                           (double)c->max_tokens, c->usd_per_mtok, c->ttft_p50, c->tpot_p50,
                           c->e2e_p99, c->slo_attainment, c->utilization, c->mean_decode_batch,
                           floor(c->kv_capacity_tokens)};
            for (size_t k = 0; k < sizeof mv / sizeof mv[0]; k++)
                cJSON_AddNumberToObject(o, more[k], mv[k]);
        }
        cJSON_AddItemToArray(rows, o);
    }
    return j;
}

/* A --report path must end in .md or .html, and its folder must exist and
 * take a new file; an existing path must be a regular file.  0, or -1 with
 * the reason printed. */
static int report_path_check(const char *path)
{
    size_t n = strlen(path);
    const char *why = NULL;
    struct stat st;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == dir)
        dir[1] = 0;
    else
        *slash = 0;
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t bn = strlen(base);
    if (!((bn > 3 && strcmp(path + n - 3, ".md") == 0) ||
          (bn > 5 && strcmp(path + n - 5, ".html") == 0)))
        why = "expected a FILE.md (Markdown) or FILE.html name";
    else if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
        why = "exists and is not a regular file (symbolic links are refused too)";
    else if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        why = "its folder does not exist";
    else if (access(dir, W_OK) != 0)
        why = "its folder is not writable";
    if (why)
        fprintf(stderr, "roofline size: --report '%s': %s\n", path, why);
    return why ? -1 : 0;
}

static int cmd_size(cli_opts *o)
{
    enum { MAX_HW = 8 };
    rl_model m;
    static rl_hw hw[MAX_HW];
    char err[ERRLEN];
    const char *out_dist = o->output;
    if (need(o, "size", "--model M", o->model != NULL) != 0 ||
        need(o, "size", "--hw H[,H2]", o->hw != NULL) != 0 ||
        need(o, "size", "--ttft-p99 S and --tpot-p99 S", o->sv[SV_TTFT] && o->sv[SV_TPOT]) != 0 ||
        load_model(o, &m) != 0)
        return RL_EXIT_INPUT;
    static const int size_opts[] = {SV_QPS, SV_PROMPT, SV_TRACE, SV_PREFIXES, SV_REQUESTS, SV_SEED,
                                    SV_BURST, SV_TTFT, SV_TPOT, SV_REPORT, SV_SAVE, SV_RESERVE,
                                    SV_MAX_CHIPS, SV_KEEP_PREC, -1};
    if (sv_only(o, "size", size_opts, 0, "size searches policy, batch caps and replicas itself; "
                                         "check one configuration with `simulate`") != 0)
        return RL_EXIT_INPUT;
    if (o->sv[SV_REPORT] && report_path_check(o->sv[SV_REPORT]) != 0)
        return RL_EXIT_INPUT; /* before a search that may take a minute */
    if (o->sv[SV_REPORT] && o->sv[SV_SAVE] && strcmp(o->sv[SV_REPORT], o->sv[SV_SAVE]) == 0) {
        fprintf(stderr, "roofline size: --report and --save name the same file '%s'\n",
                o->sv[SV_SAVE]);
        return RL_EXIT_INPUT;
    }
    char hwnames[1024];
    snprintf(hwnames, sizeof hwnames, "%s", o->hw);
    int nhw = 0;
    for (char *save, *t = strtok_r(hwnames, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (nhw == MAX_HW) {
            fprintf(stderr, "roofline size: more than %d hardware profiles\n", MAX_HW);
            return RL_EXIT_INPUT;
        }
        if (rl_hw_load(t, o->sets[1], o->nsets[1], &hw[nhw], err, sizeof err) != 0) {
            fprintf(stderr, "roofline: %s\n", err);
            return RL_EXIT_INPUT;
        }
        for (int i = 0; i < nhw; i++)
            if (strcmp(hw[i].name, hw[nhw].name) == 0) {
                fprintf(stderr, "roofline size: --hw: %s is given twice\n", hw[nhw].name);
                return RL_EXIT_INPUT;
            }
        /* what simulate would refuse: a compute dtype the chip has no peak for */
        if (o->sv[SV_KEEP_PREC] && rl_step_check(&m, &hw[nhw], 1, 1, o->prec, err, sizeof err) != 0) {
            fprintf(stderr, "roofline size: --keep-precision on %s: %s\n", hw[nhw].name, err);
            return RL_EXIT_INPUT;
        }
        nhw++;
    }
    if (m.abstract) {
        fprintf(stderr, "roofline size: %s: an abstract model has no operator list to simulate "
                        "serving with; give layers, d_model, d_ff, heads, kv_heads, vocab\n", m.origin);
        return RL_EXIT_INPUT;
    }
    rl_size_input in = {.m = &m, .hw = hw, .nhw = nhw, .hbm_reserve = 0.1, .calibrated = !o->ideal};
    rl_request *req = NULL;
    long long n = 0;
    double maxc = 0;
    long long truncated = 0;
    if (serve_workload(o, 4000, m.max_context, o->sv[SV_TRACE] != NULL, &in.w, &req, &n,
                       &truncated) != 0 ||
        sv_num(o, SV_TTFT, "--ttft-p99", 1e-6, 1e6, &in.slo_ttft) ||
        sv_num(o, SV_TPOT, "--tpot-p99", 1e-6, 1e6, &in.slo_tpot) ||
        sv_num(o, SV_RESERVE, "--hbm-reserve", 0, 0.9, &in.hbm_reserve) ||
        sv_num(o, SV_MAX_CHIPS, "--max-chips", 1, 4096, &maxc)) {
        free(req);
        return RL_EXIT_INPUT;
    }
    in.max_chips = (long long)maxc;
    in.truncated_frac = n > 0 ? (double)truncated / (double)n : 0;
    if (o->sv[SV_KEEP_PREC]) {
        in.prec = &o->prec;
        in.nprec = 1;
    }
    if (o->sv[SV_TRACE]) {
        in.trace = req;
        in.ntrace = n;
    } else {
        free(req);
        req = NULL;
    }
    o->output = o->sv[SV_SAVE];
    rl_size_result r;
    if (rl_size_search(&in, &r, err, sizeof err) != 0) {
        fprintf(stderr, "roofline size: %s\n", err);
        free(req);
        return rl_interrupted() ? RL_EXIT_INTERRUPTED : RL_EXIT_INPUT;
    }
    int rc = RL_EXIT_OK;
    if (r.nmeet == 0) {
        char why[512];
        rl_size_why_none(&in, &r, why, sizeof why);
        fprintf(stderr, "roofline size: no configuration meets both targets: %s\n", why);
        if (r.n == 0) { /* nothing simulated: nothing to report */
            rl_size_result_free(&r);
            free(req);
            return RL_EXIT_INPUT;
        }
    }
    if (o->sv[SV_REPORT]) {
        rl_size_curve curve;
        rl_size_sensitivity sens[3];
        int studied = r.nmeet > 0 &&
                      rl_size_study(&in, &r.c[0], &curve, sens, err, sizeof err) == 0;
        if (r.nmeet > 0 && !studied)
            fprintf(stderr, "roofline size: %s\n", err);
        if (rl_interrupted()) { /* SIGINT during the study: write no report */
            rl_size_result_free(&r);
            free(req);
            return RL_EXIT_INTERRUPTED;
        }
        char desc[512];
        workload_desc(o, &in.w, out_dist, desc, sizeof desc);
        const char *rp = o->sv[SV_REPORT];
        size_t rl = strlen(rp);
        int html = rl > 5 && strcmp(rp + rl - 5, ".html") == 0;
        rl_size_report_data d = {&in, &r, studied ? &curve : NULL, studied ? sens : NULL, desc,
                                 o->cmdline};
        char *text = rl_size_report_render(&d, html);
        if (!text || rl_write_atomic(rp, text, strlen(text), err, sizeof err) != 0) {
            fprintf(stderr, "roofline size: %s\n", text ? err : "out of memory");
            rc = RL_EXIT_IO;
        }
        free(text);
    }
    int none = r.nmeet == 0;
    cJSON *j = size_json(&in, &r, o->fmt != RL_FMT_TABLE);
    rl_size_result_free(&r);
    free(req);
    int erc = emit(o, j);
    if (rc == RL_EXIT_OK && erc == RL_EXIT_OK && none)
        return RL_EXIT_INPUT; /* no deployment meets the targets: the outputs say why */
    return rc != RL_EXIT_OK ? rc : erc;
}

/* Model, hardware and the ops configuration common to `ops` and `prefill`. */
static int load_ops(cli_opts *o, const char *cmd, rl_model *m, rl_hw *h, rl_ops_config *c)
{
    if (need(o, cmd, "--model M", o->model != NULL) != 0 ||
        need(o, cmd, "--hw H", o->hw != NULL) != 0 || load_model(o, m) != 0 || load_hw(o, h) != 0)
        return -1;
    *c = rl_ops_config_default();
    c->chips = o->chips;
    c->prec = o->prec;
    c->act = o->act;
    c->materialized = o->materialized;
    c->non_causal = o->non_causal;
    c->mfu = o->mfu;
    c->prefill_prefix = o->prefix;
    c->calibrated = !o->ideal && o->mfu == 0; /* efficiency tables unless --ideal / --mfu */
    return 0;
}

static int check_ops(const char *cmd, const rl_model *m, const rl_hw *h, const rl_ops_config *c)
{
    char err[ERRLEN];
    if (m->abstract) {
        fprintf(stderr, "roofline %s: %s: an abstract model has no operators\n", cmd, m->origin);
        return -1;
    }
    if (rl_ops_check(m, h, c, err, sizeof err) == 0)
        return 0;
    fprintf(stderr, "roofline %s: %s\n", cmd, err);
    return -1;
}

static int cmd_ops(cli_opts *o)
{
    rl_model m;
    rl_hw h;
    rl_ops_config c;
    if (load_ops(o, "ops", &m, &h, &c) != 0)
        return RL_EXIT_INPUT;
    if (o->ntokens > 1 || o->nbatch > 1) {
        fprintf(stderr, "roofline ops: --tokens and --batch take one value here\n");
        return RL_EXIT_INPUT;
    }
    char err[ERRLEN];
    if (rl_ops_config_phase(&c, o->phase ? o->phase : "decode", o->nbatch ? o->batch[0] : 1,
                            o->ntokens ? o->tokens[0] : 0, o->context, err, sizeof err) != 0) {
        fprintf(stderr, "roofline ops: --%s\n", err);
        return RL_EXIT_INPUT;
    }
    if (check_ops("ops", &m, &h, &c) != 0)
        return RL_EXIT_INPUT;
    if (c.prefill_seqs == 0 && (o->ntokens || o->prefix))
        fprintf(stderr, "roofline ops: note: --tokens and --prefix apply to the prefill and mixed "
                        "phases; ignored in decode\n");
    if (c.decode_batch == 0 && o->context)
        fprintf(stderr, "roofline ops: note: --context is the decode KV length; a prefill's cached "
                        "prefix is --prefix; --context ignored\n");
    return emit(o, rl_result_ops(&m, &h, &c));
}

static int cmd_prefill(cli_opts *o)
{
    rl_model m;
    rl_hw h;
    rl_ops_config c;
    if (load_ops(o, "prefill", &m, &h, &c) != 0 ||
        need(o, "prefill", "--tokens T[,T...]", o->ntokens > 0) != 0)
        return RL_EXIT_INPUT;
    if (o->phase)
        fprintf(stderr, "roofline prefill: note: --phase is for `roofline ops`; ignored\n");
    for (int i = 0; i < o->ntokens; i++) {
        c.prefill_seqs = 1;
        c.prefill_tokens = o->tokens[i];
        if (check_ops("prefill", &m, &h, &c) != 0)
            return RL_EXIT_INPUT;
        char err[ERRLEN];
        if (rl_ops_check_chunks(o->tokens[i], o->chunk, err, sizeof err) != 0) {
            fprintf(stderr, "roofline prefill: --%s\n", err);
            return RL_EXIT_INPUT;
        }
    }
    return emit(o, rl_result_prefill(&m, &h, &c, o->tokens, o->ntokens, o->chunk));
}

static int cmd_import_hf(cli_opts *o)
{
    if (need(o, "import-hf", "a config.json path", o->nargs == 1) != 0)
        return RL_EXIT_INPUT;
    char err[ERRLEN];
    int oom;
    char *text = rl_import_hf(o->args[0], o->name, o->source, &oom, err, sizeof err);
    if (!text) {
        fprintf(stderr, "roofline import-hf: %s\n", err);
        return oom ? RL_EXIT_IO : RL_EXIT_INPUT;
    }
    return emit_text(o, text);
}

/* Fill the sweep's precision grid (weights x kv) from the options. */
static int precision_grid(const cli_opts *o, rl_precision *out)
{
    int n = 0;
    for (int w = 0; w < (o->nweights ? o->nweights : 1); w++)
        for (int k = 0; k < (o->nkv ? o->nkv : 1); k++) {
            out[n] = o->prec;
            if (o->nweights)
                out[n].weights = o->weights[w];
            if (o->nkv)
                out[n].kv = o->kv[k];
            n++;
        }
    return n;
}

static int cmd_pareto(cli_opts *o)
{
    rl_model m;
    rl_hw h;
    if (need(o, "pareto", "--model M", o->model != NULL) != 0 ||
        need(o, "pareto", "--hw H", o->hw != NULL) != 0 || load_model(o, &m) != 0 ||
        load_hw(o, &h) != 0)
        return RL_EXIT_INPUT;
    char err[ERRLEN];
    if ((o->prompt > 0 && rl_model_check_context(&m, o->prompt, err, sizeof err) != 0) ||
        (o->plot && rl_plot_check_path(o->plot, err, sizeof err) != 0)) {
        fprintf(stderr, "roofline pareto: %s%s\n", o->prompt > 0 && !o->plot ? "--prompt " : "", err);
        return RL_EXIT_INPUT;
    }
    if (o->nbatch == 0) /* default: B = 1, 2, 4, ..., 2048 */
        for (long long b = 1; b <= 2048; b *= 2)
            o->batch[o->nbatch++] = b;
    if (o->context == 0) /* default: 2048 tokens, or the model's max_context if shorter */
        o->context = m.max_context > 0 && m.max_context < 2048 ? m.max_context : 2048;
    rl_precision prec[RL_DTYPE_COUNT * RL_DTYPE_COUNT];
    int nprec = precision_grid(o, prec);
    rl_sweep_space sp = {o->chips_list, o->nchips, o->batch, o->nbatch, &o->context, 1,
                         prec, nprec, o->prompt, 0, !o->ideal, o->plan.overlap};
    rl_sweep s;
    if (rl_sweep_run(&m, &h, &sp, &s, err, sizeof err) != 0) {
        fprintf(stderr, "roofline pareto: %s\n", err);
        return rl_interrupted() ? RL_EXIT_INTERRUPTED : RL_EXIT_INPUT;
    }
    size_t *idx = malloc((s.n ? s.n : 1) * sizeof *idx);
    long nf = idx ? rl_sweep_frontier(&s, NULL, idx) : -1;
    int rc = RL_EXIT_OK;
    if (nf < 0) {
        fprintf(stderr, "roofline pareto: out of memory\n");
        rc = RL_EXIT_IO;
    }
    if (rc == RL_EXIT_OK && s.n == 0) {
        fprintf(stderr, "roofline pareto: none of the %lld points fits in HBM (more chips, int8"
                        " weights or KV, a shorter context?)\n", s.evaluated);
        rc = RL_EXIT_INPUT; /* no answer (and nothing to draw), with or without --plot */
    }
    if (rc == RL_EXIT_OK && o->plot) {
        char title[256];
        snprintf(title, sizeof title, "%s on %s: latency vs cost frontier (S = %lld, %s)", m.name,
                 h.name, o->context, o->ideal ? "ideal: no communication" : "shard plans + collectives");
        int pr = rl_plot_sweep_pareto(o->plot, title, &h, &s, prec, nprec, err, sizeof err);
        if (pr != 0)
            fprintf(stderr, "roofline pareto: %s\n", err);
        if (pr < 0)
            rc = RL_EXIT_IO;
    }
    if (rc == RL_EXIT_OK)
        rc = emit(o, rl_result_sweep(&m, &h, &s, o->prompt ? o->prompt : o->context, idx, nf));
    free(idx);
    rl_sweep_free(&s);
    return rc;
}

/* Run calibrate or validate (fn) with the command's options; NULL on error
 * (printed as "roofline NAME: ..."). */
static cJSON *run_calib(cli_opts *o, const char *name,
                        cJSON *(*fn)(const rl_calib_opts *, char *, size_t))
{
    char err[ERRLEN];
    o->calib.model = o->model;
    cJSON *r = fn(&o->calib, err, sizeof err);
    if (!r)
        fprintf(stderr, "roofline %s: %s\n", name, err);
    return r;
}

/* calibrate/validate --tables DIR --hw H --engine E: import the measured
 * kernel tables of DIR/E for H into *s (holding back every --holdout-th
 * configuration) with *h loaded.  Returns 0 or an exit code (printed). */
static int import_tables(cli_opts *o, const char *cmd, rl_hw *h, rl_silicon *s)
{
    char err[ERRLEN];
    if (o->calib.backend) {
        fprintf(stderr, "roofline %s: give --backend or --tables, not both\n", cmd);
        return RL_EXIT_INPUT;
    }
    if (need(o, cmd, "--hw H", o->hw != NULL) != 0 ||
        need(o, cmd, "--engine E", o->engine != NULL) != 0)
        return RL_EXIT_INPUT;
    if (rl_hw_load(o->hw, o->sets[1], o->nsets[1], h, err, sizeof err) != 0 ||
        rl_silicon_import(o->tables, o->engine, h, o->holdout, s, err, sizeof err) != 0) {
        fprintf(stderr, "roofline %s: %s\n", cmd, err);
        return RL_EXIT_INPUT;
    }
    return 0;
}

/* calibrate --tables: write the calibrated spec to --save FILE. */
static int cmd_calibrate_tables(cli_opts *o)
{
    const char *save = o->sv[SV_SAVE];
    if (need(o, "calibrate", "--save FILE.lua", save != NULL) != 0)
        return RL_EXIT_INPUT;
    rl_hw h;
    rl_silicon s;
    int rc = import_tables(o, "calibrate", &h, &s);
    if (rc != 0)
        return rc;
    char err[ERRLEN], date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    if (rl_silicon_save(&s, &h, o->hw, o->engine, o->tables, date, save, err, sizeof err) != 0) {
        fprintf(stderr, "roofline calibrate: %s\n", err);
        rl_silicon_free(&s);
        return RL_EXIT_IO;
    }
    cJSON *r = rl_silicon_summary(&s);
    cJSON_AddStringToObject(r, "profile", save);
    cJSON_AddStringToObject(r, "engine", o->engine);
    rl_silicon_free(&s);
    return emit(o, r);
}

/* validate --tables: predicted vs measured on held-back configurations. */
static int cmd_validate_tables(cli_opts *o)
{
    if (!o->holdout)
        o->holdout = 5;
    rl_hw h;
    rl_silicon s;
    int rc = import_tables(o, "validate", &h, &s);
    if (rc != 0)
        return rc;
    char err[ERRLEN];
    cJSON *r = rl_silicon_validate(&s, &h, o->plot, err, sizeof err);
    rl_silicon_free(&s);
    if (!r) {
        fprintf(stderr, "roofline validate: %s\n", err);
        return RL_EXIT_IO;
    }
    cJSON_AddStringToObject(r, "hw", h.name);
    cJSON_AddStringToObject(r, "engine", o->engine);
    cJSON_AddNumberToObject(r, "holdout", o->holdout);
    return emit(o, r);
}

static int cmd_calibrate(cli_opts *o)
{
    if (o->tables)
        return cmd_calibrate_tables(o);
    cJSON *r = run_calib(o, "calibrate", rl_calibrate);
    return r ? emit(o, r) : rl_interrupted() ? RL_EXIT_INTERRUPTED : RL_EXIT_INPUT;
}

static int cmd_validate(cli_opts *o)
{
    if (o->tables)
        return cmd_validate_tables(o);
    cJSON *r = run_calib(o, "validate", rl_validate);
    if (!r)
        return rl_interrupted() ? RL_EXIT_INTERRUPTED : RL_EXIT_INPUT;
    if (o->fmt != RL_FMT_JSON) { /* the table shows runs; JSON keeps everything */
        fprintf(stderr, "validate: %d runs, |error| median %.1f%%, p90 %.1f%%, max %.1f%%; plot %s\n",
                cJSON_GetObjectItem(r, "runs")->valueint,
                100 * cJSON_GetObjectItem(r, "median_abs_error")->valuedouble,
                100 * cJSON_GetObjectItem(r, "p90_abs_error")->valuedouble,
                100 * cJSON_GetObjectItem(r, "max_abs_error")->valuedouble,
                cJSON_GetObjectItem(r, "plot")->valuestring);
        cJSON_DeleteItemFromObject(r, "plot_points");
        cJSON_DeleteItemFromObject(r, "op_residuals");
        cJSON_DeleteItemFromObject(r, "operators");
    }
    return emit(o, r);
}

/* validate-serve: the simulator against the engine serving a trace. */
static int cmd_validate_serve(cli_opts *o)
{
    char err[ERRLEN], host[128], prof[256];
    rl_model m;
    static rl_hw h;
    rl_calib_host(host, sizeof host);
    snprintf(prof, sizeof prof, "hw_profiles/calibrated/%s.lua", host);
    const char *mname = o->model ? o->model : "tiny-ref", *pname = o->calib.profile ? o->calib.profile : prof;
    static const int vs_opts[] = {SV_REQUESTS, SV_QPS, SV_SEED, SV_MAX_SEQS, -1};
    if (sv_only(o, "validate-serve", vs_opts, 0, "it serves its own trace with the interleaved "
                                                 "policy") != 0)
        return RL_EXIT_INPUT;
    if (!o->calib.profile) { /* a fresh profile: this host's speed drifts over minutes */
        cJSON *c = run_calib(o, "validate-serve", rl_calibrate);
        if (!c)
            return rl_interrupted() ? RL_EXIT_INTERRUPTED : RL_EXIT_INPUT;
        cJSON_Delete(c);
    }
    if (rl_model_load(mname, NULL, 0, &m, err, sizeof err) != 0 ||
        rl_hw_load(pname, NULL, 0, &h, err, sizeof err) != 0) {
        fprintf(stderr, "roofline validate-serve: %s (run `roofline calibrate` first)\n", err);
        return RL_EXIT_INPUT;
    }
    /* a small trace: Poisson arrivals, prompts 32..256, outputs 8..64 */
    rl_workload w = {.n = 40, .qps = 0.5, .prompt = {RL_DIST_UNIFORM, 32, 256},
                     .output = {RL_DIST_UNIFORM, 8, 64}, .seed = 1};
    double d = (double)w.n, seed = 1, slots = 4;
    if (sv_num(o, SV_REQUESTS, "--requests", 1, 10000, &d) || sv_num(o, SV_QPS, "--qps", 1e-6, 1e6, &w.qps) ||
        sv_num(o, SV_SEED, "--seed", 0, 1e18, &seed) || sv_num(o, SV_MAX_SEQS, "--max-seqs", 1, 64, &slots))
        return RL_EXIT_INPUT;
    w.n = (long long)d;
    w.seed = (uint64_t)seed;
    rl_request *req;
    if (rl_workload_generate(&w, &req, err, sizeof err) != 0) {
        fprintf(stderr, "roofline validate-serve: %s\n", err);
        return RL_EXIT_INPUT;
    }
    cJSON *r = rl_serve_validate(&m, &h, o->calib.backend ? o->calib.backend : "cpu", o->calib.threads,
                                 (int)slots, req, w.n, err, sizeof err);
    free(req);
    if (!r) {
        fprintf(stderr, "roofline validate-serve: %s\n", err);
        return RL_EXIT_INPUT;
    }
    fprintf(stderr, "validate-serve: TTFT and TPOT p50/p90 %s within %.0f%% of the engine\n",
            cJSON_IsTrue(cJSON_GetObjectItem(r, "all_within_target")) ? "all" : "NOT all",
            100 * RL_SERVE_VALIDATE_TARGET);
    return emit(o, r);
}

static const command COMMANDS[] = {
    {"info", cmd_info, O_MODEL | O_HW | O_CONTEXT | O_PREC | O_SET | O_FORMAT,
     "Parameters, KV bytes and FLOPs per token of a model; or a hardware spec's engines.\n"
     "Parameter counts in total, active and per component (attention, MLP, router,\n"
     "embedding, LM head, norms), KV bytes per token, FLOPs per token.  --hw H: the serving\n"
     "engines H carries (version, source, chip measured, kernel tables), the default and the\n"
     "mode each gives.",
     "--model M [--weights D] [--kv D] [--context S] [--set ...] [--format F]\n"
     "   or: --hw H [--set ...] [--format F]"},
    {"step", cmd_step,
     O_MODEL | O_HW | O_CHIPS | O_BATCH | O_CONTEXT | O_PREC | O_IDEAL | O_SHARD | O_OVERLAP |
         O_SET | O_FORMAT | O_ENGINE,
     "Decode step time, tokens/s and memory (the Scaling Book's formula (1)).\n"
     "Over --chips chips holding one fully sharded copy of the model; B_crit and the\n"
     "largest batch that fits.  --batch defaults to 1.  With a sharding option the step\n"
     "is per chip plus collectives (\"communication\": \"included\").",
     "--model M --hw H [--chips N] [--batch 1,8,16] --context S [--weights D] [--kv D]\n"
     "       [--compute D] [--ideal] [--tp Y --ep Z --pp P --sharding 1d|2d ...] [--set ...]\n"
     "       [--format F]"},
    {"pareto", cmd_pareto,
     O_MODEL | O_HW | O_CHIPS | O_BATCH | O_CONTEXT | O_PREC | O_IDEAL | O_OVERLAP | O_SET |
         O_FORMAT | O_LISTS | O_PLOT,
     "Latency / cost Pareto frontier of a sweep over chips x layout x batch x precision.\n"
     "Every sharding plan (roofline shard's candidates, collectives included) for each chip\n"
     "count, batch and weight x KV precision at one context; rows: chips, layout, batch,\n"
     "precision, step_s, ttft_s (best prefill plan), comm_s, cost per token.  Points that do\n"
     "not fit in HBM are counted and kept out.  --chips defaults to every valid slice;\n"
     "--ideal uses formula (1) on all chips without communication instead.",
     "--model M --hw H [--chips 8,16,32] [--batch 1,8,64] [--context S] [--prompt P]\n"
     "       [--weights bf16,int8] [--kv bf16,int8] [--compute D] [--ideal] [--overlap]\n"
     "       [--plot F.png|.svg] [--set ...] [--format F]"},
    {"shard", cmd_shard,
     O_MODEL | O_HW | O_CHIPS | O_BATCH | O_CONTEXT | O_PREC | O_OVERLAP | O_SET | O_FORMAT,
     "Compare sharding strategies for prefill and generation side by side.\n"
     "Prefill of a prompt of S tokens and generation at S cached tokens on --chips chips:\n"
     "per-chip memory, HBM/compute/communication time, each collective's time and\n"
     "latency-bound flag, the chapter's limits, the best plan for latency and for\n"
     "throughput per chip.",
     "--model M --hw H --chips N --batch B --context S [--overlap] [--weights D] [--kv D]\n"
     "       [--compute D] [--set ...] [--format F]"},
    {"ops", cmd_ops,
     O_MODEL | O_HW | O_CHIPS | O_BATCH | O_CONTEXT | O_PREC | O_IDEAL | O_SET | O_FORMAT | O_OPS |
         O_ENGINE,
     "Operator-by-operator roofline of one decode, prefill or mixed step.\n"
     "FLOPs, weight/activation/KV bytes, intensity, bound, B_crit and ideal time of every operator of a layer, the embedding and the LM head.\n"
     "decode: --batch B sequences at --context S; prefill: --batch sequences of --tokens T new\n"
     "tokens on a cached --prefix P; mixed: one T-token prefill chunk beside a decode batch.",
     "--model M --hw H [--chips N] [--phase decode|prefill|mixed] [--batch B]\n"
     "       [--context S] [--tokens T] [--prefix P] [--weights D] [--kv D] [--compute D]\n"
     "       [--act D] [--attn fused|materialized] [--non-causal] [--mfu F] [--set ...]\n"
     "       [--format F]"},
    {"prefill", cmd_prefill,
     O_MODEL | O_HW | O_CHIPS | O_PREC | O_IDEAL | O_SET | O_FORMAT | O_OPS | O_ENGINE,
     "Prefill time (TTFT without queueing) of prompts of --tokens tokens.\n"
     "One row per --tokens value, from the operator list; achieved MFU; with --chunk c also the chunked-prefill time (chunks on the prefix so far).",
     "--model M --hw H [--chips N] --tokens T[,T...] [--prefix P] [--chunk c] [--mfu F]\n"
     "       [--weights D] [--kv D] [--compute D] [--act D] [--attn ...] [--set ...] [--format F]"},
    {"import-hf", cmd_import_hf, O_IMPORT | O_OUTPUT,
     "Convert a Hugging Face config.json into a model spec (Lua).\n"
     "Families: llama, mistral, mixtral, qwen2, qwen3, gemma2, gemma3, deepseek_v2/v3, gpt_oss;\n"
     "e.g. roofline import-hf config.json > model/NAME.lua.  The spec is validated before it\n"
     "is printed; an unknown model_type or a missing key is an error (exit 2) naming the file\n"
     "and key.",
     "CONFIG.json [--name NAME] [--source TEXT] [--output FILE]"},
    {"calibrate", cmd_calibrate, O_MODEL | O_HW | O_SET | O_ENGINE | O_BACKEND | O_FORMAT,
     "Measure this host's kernels and write its calibrated profile, or import measured tables.\n"
     "--backend: runs the reference engine's kernels (stream, GEMM/GEMV grid, attention, norms,\n"
     "overhead), fits efficiency tables to their median times and writes\n"
     "hw_profiles/calibrated/<host>.lua with the raw samples in <host>.json.\n"
     "--tables DIR: imports DIR/E/{gemm,context_attention,generation_attention}_perf.csv.gz\n"
     "(the layout of ../shared/data/silicon/<gpu>/, NVIDIA AIConfigurator data) into kernel\n"
     "tables of engine E and writes H with them as a calibrated hardware spec to --save FILE.",
     "--backend cpu|cuda [--model M (GEMM shapes; default tiny-ref)] [--threads N (cpu, 1)]\n"
     "       [--quick] [--format F]\n"
     "   or: --tables DIR --hw H --engine E --save FILE.lua [--format F]"},
    {"validate", cmd_validate, O_MODEL | O_HW | O_SET | O_ENGINE | O_BACKEND | O_PLOT | O_FORMAT,
     "The operator model against measurements.\n"
     "--backend: runs the reference engine over decode B x S and prefill T grids, predicts each\n"
     "run from the calibrated profile and prints predicted vs measured, per run and per operator.\n"
     "--tables DIR: fits kernel tables of engine E on DIR (as calibrate --tables) with every K-th\n"
     "configuration held back (--holdout K, default 5), predicts the held-back ones and prints\n"
     "median / p90 / max |error| per operator class and dtype (--plot: predicted vs measured).",
     "--backend cpu|cuda [--model M] [--profile P (default calibrated/<host>)] [--quick]\n"
     "       [--threads N (cpu, 1: as calibrated)] [--format F]\n"
     "   or: --tables DIR --hw H --engine E [--holdout K] [--plot FILE.png] [--format F]"},
    {"run", cmd_run, O_OUTDIR,
     "Run a what-if scenario: a Lua script with the `roofline` module.\n"
     "The script runs in a sandbox (no io/os/require; instruction, time and memory budgets);\n"
     "its arguments are in the global table `arg` (arg[0] is the script).  Files go only\n"
     "through roofline.write and roofline.plot, into --out DIR (default out), confined there.",
     "[--out DIR] [--max-instructions N] SCRIPT.lua [ARGS...]"},
    {"simulate", cmd_simulate,
     O_MODEL | O_HW | O_CHIPS | O_PREC | O_IDEAL | O_SET | O_FMT | O_SERVE | O_ENGINE,
     "Serving simulation: TTFT/TPOT percentiles, throughput, goodput and KV under a policy.\n"
     "A discrete-event simulation (seed 000 section 4); --chips N is one replica (its TP degree).\n"
     "  DIST: N | uniform:MIN:MAX | lognormal:MEAN:SIGMA   (tokens; SIGMA in log space)\n"
     "  --trace CSV: arrival_s,prompt_tokens,output_tokens[,prefix_id[,prefix_tokens]]\n"
     "  --policy static|interleaved|continuous|chunked|disagg (default continuous)  --replicas R\n"
     "  --prefill-replicas P (disagg)  --route round-robin|least-outstanding\n"
     "  --max-seqs B --max-tokens T (chunked: the per-step budget, default 512) --page 16\n"
     "  --preempt recompute|swap  --prefix-cache HBM_GB[:HOST_GB] --prefixes N:LEN\n"
     "  --spec ALPHA:GAMMA[:DRAFT] (DRAFT: fraction of a target step, default 0.05, or a draft\n"
     "  model spec costed on its op list)  --burst CV (gamma arrivals)  --requests N --seed S\n"
     "  --ttft-p99 S --tpot-p99 S (SLOs for goodput)  --hbm-reserve F (default 0.1)\n"
     "  --plot DIR (latency CDF, KV timeline)  --save FILE (result in --format, instead of stdout)\n"
     "  --ideal: the pure roofline even when the profile has efficiency tables",
     "--model M --hw H [--chips N] (--qps Q --prompt DIST --output DIST | --trace F.csv)\n"
     "       [--policy P] [--ideal] [options]"},
    {"size", cmd_size, O_MODEL | O_HW | O_PREC | O_IDEAL | O_SET | O_FMT | O_SERVE | O_ENGINE,
     "Deployment sizing: the cheapest deployment meeting TTFT and TPOT p99 targets at a load.\n"
     "Searches hardware, precision, chips per replica, policy, batch cap, chunk budget,\n"
     "replicas and the prefill:decode split; analytic pruning, then simulation.  Cost from\n"
     "price_per_chip_hour when every profile has one, else chips.\n"
     "  --hw H[,H2...]  --qps Q --prompt DIST --output DIST (or --trace F.csv)\n"
     "  --ttft-p99 S --tpot-p99 S  --max-chips N  --requests N (simulated, default 4000)\n"
     "  --keep-precision: only the --weights/--kv/--compute given (else bf16, int8, fp8 searched)\n"
     "  --report FILE.md|FILE.html (recommendation, alternatives, frontier, load curve, memory,\n"
     "  sensitivity, assumptions)  --save FILE (result in --format, instead of stdout)\n"
     "  --ideal: the pure roofline even for profiles with efficiency tables\n"
     "  Exit 2 when no configuration meets the targets; the report and result then list the\n"
     "  closest simulated ones (nothing is written when none could be simulated).",
     "--model M --hw H[,H2] --qps Q --prompt DIST --output DIST --ttft-p99 S --tpot-p99 S\n"
     "       [--report out.html|out.md] [options]"},
    {"validate-serve", cmd_validate_serve, O_MODEL | O_BACKEND | O_FORMAT | O_SERVE,
     "The serving simulator against the reference engine serving a trace (TTFT/TPOT p50/p90).\n"
     "The engine serves a seeded trace with the interleaved policy (prefill at B=1 when a slot\n"
     "is free, else one generate step) on a virtual clock of measured calls; the simulator\n"
     "predicts the same trace from the calibrated profile.  Without --profile it first runs\n"
     "calibrate (rewriting hw_profiles/calibrated/<host>.lua): a profile minutes old can be off\n"
     "by 20% on a shared host.  The engine serves the trace 3 times; measured = the median.\n"
     "--requests N (40) --qps Q (0.5) --max-seqs SLOTS (4) --seed S; --model (tiny-ref).",
     "[--backend cpu|cuda (cpu)] [--model M] [--profile P] [--threads N (cpu, 1: as\n"
     "       calibrated)] [--requests N] [--qps Q] [--max-seqs B]"},
};
#define NCOMMANDS (sizeof COMMANDS / sizeof COMMANDS[0])

static void print_help(FILE *f)
{
    fprintf(f, "roofline — roofline performance model and capacity planner for LLM inference\n\n"
               "usage: roofline COMMAND [OPTIONS]   (roofline COMMAND --help for details)\n\n"
               "commands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++) {
        const char *nl = strchr(COMMANDS[i].summary, '\n');
        int len = nl ? (int)(nl - COMMANDS[i].summary) : (int)strlen(COMMANDS[i].summary);
        fprintf(f, "  %-14s %.*s\n", COMMANDS[i].name, len, COMMANDS[i].summary);
    }
}

int rl_cli_main(int argc, char **argv)
{
    rl_interrupt_install(); /* SIGINT sets a flag long loops poll (interrupt.h) */
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        print_help(argc < 2 ? stderr : stdout);
        return argc < 2 ? RL_EXIT_INPUT : RL_EXIT_OK;
    }
    for (size_t i = 0; i < NCOMMANDS; i++) {
        if (strcmp(argv[1], COMMANDS[i].name) != 0)
            continue;
        static cli_opts o;
        memset(&o, 0, sizeof o);
        o.calib.threads = 1; /* --threads: one CPU thread unless asked (calib.h) */
        o.argc = argc;
        o.argv = argv;
        command_line(&o, o.cmdline, sizeof o.cmdline);
        int rc = parse_options(&COMMANDS[i], argc - 1, argv + 1, &o);
        if (rc != 0)
            return rc > 0 ? RL_EXIT_OK : RL_EXIT_INPUT;
        /* With several CPU threads the engine's OpenMP kernels and OpenBLAS's
         * threads share the cores: spinning OpenMP workers starve OpenBLAS
         * (10-100x slower GEMMs), so such a run restarts once with passive
         * waiting (libgomp reads OMP_WAIT_POLICY only at load).  One thread
         * (the default) needs none of it. */
        if ((COMMANDS[i].accepts & O_BACKEND) && o.calib.threads != 1 &&
            !getenv("OMP_WAIT_POLICY")) {
            setenv("OMP_WAIT_POLICY", "passive", 1);
            execv("/proc/self/exe", argv);
        }
        if (o.nargs > 0 && COMMANDS[i].run != cmd_run && COMMANDS[i].run != cmd_import_hf) {
            fprintf(stderr, "roofline %s: unexpected argument '%s'\n", argv[1], o.args[0]);
            return RL_EXIT_INPUT;
        }
        return COMMANDS[i].run(&o);
    }
    fprintf(stderr, "roofline: unknown command '%s'\n", argv[1]);
    print_help(stderr);
    return RL_EXIT_INPUT;
}
