/* cli.c — `roofline` commands: info, step, run.  Each command parses the
 * common options it accepts, builds a result (result.h) and prints it in the
 * chosen format (report.h). */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calib.h"
#include "lua_api.h"
#include "report.h"
#include "result.h"
#include "spec.h"
#include "step.h"

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
    O_FORMAT = 1 << 8, /* --format --output */
    O_BACKEND = 1 << 9, /* --backend --profile --quick (calibrate, validate) */
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
    rl_calib_opts calib;
    int nargs; /* positional arguments left after the options */
    char **args;
} cli_opts;

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
        if (end == p || (*end && *end != ',') || errno) {
            snprintf(err, errlen, "'%s': expected comma-separated integers", s);
            return -1;
        }
        if (v < min || v > max) {
            snprintf(err, errlen, "'%s': %lld is outside %lld..%lld", s, v, min, max);
            return -1;
        }
        if (n == cap) {
            snprintf(err, errlen, "'%s': more than %d values", s, cap);
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

static const struct option LONGOPTS[] = {
    {"model", required_argument, 0, 'm'},   {"hw", required_argument, 0, 'H'},
    {"chips", required_argument, 0, 'c'},   {"batch", required_argument, 0, 'b'},
    {"context", required_argument, 0, 's'}, {"weights", required_argument, 0, 'w'},
    {"kv", required_argument, 0, 'k'},      {"compute", required_argument, 0, 'C'},
    {"ideal", no_argument, 0, 'i'},         {"set", required_argument, 0, 'S'},
    {"format", required_argument, 0, 'f'},  {"output", required_argument, 0, 'o'},
    {"backend", required_argument, 0, 'K'}, {"profile", required_argument, 0, 'P'},
    {"quick", no_argument, 0, 'Q'},
    {"help", no_argument, 0, 'h'},          {0, 0, 0, 0},
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
    case 'f': case 'o': return O_FORMAT;
    case 'K': case 'P': case 'Q': return O_BACKEND;
    }
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
    if (c->accepts & O_FORMAT)
        fprintf(f, "  --format table|csv|json            output format (default table; JSON and"
                   " CSV in SI units)\n"
                   "  --output FILE                      write there (atomically) instead of stdout\n");
    fprintf(f, "  M and H are preset names (model/M.lua, hw_profiles/H.lua) or paths to .lua files.\n");
}

/* Parse argv for command c.  Returns 0, 1 for --help (printed), or -1. */
static int parse_options(const command *c, int argc, char **argv, cli_opts *o)
{
    o->chips = 1;
    o->prec = rl_precision_default();
    o->fmt = RL_FMT_TABLE;
    optind = 1;
    opterr = 0;
    int ch;
    while ((ch = getopt_long(argc, argv, "+h", LONGOPTS, NULL)) != -1) {
        if (ch == 'h') {
            print_usage(c, stdout);
            return 1;
        }
        if (ch == '?' || ch == ':' || !(option_flag(ch) & c->accepts)) {
            const char *bad = argv[optind - 1];
            fprintf(stderr, "roofline %s: %s '%s' (see roofline %s --help)\n", c->name,
                    ch == ':' || (ch == '?' && optopt) ? "missing value or bad option"
                                                       : "unknown option",
                    bad, c->name);
            return -1;
        }
        char err[ERRLEN];
        switch (ch) {
        case 'm': o->model = optarg; break;
        case 'H': o->hw = optarg; break;
        case 'c':
            if (parse_count("--chips", optarg, 1000000, &o->chips) != 0)
                return -1;
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
            if (parse_dtype("--weights", optarg, &o->prec.weights) != 0)
                return -1;
            break;
        case 'k':
            if (parse_dtype("--kv", optarg, &o->prec.kv) != 0)
                return -1;
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
        case 'o': o->output = optarg; break;
        case 'K': o->calib.backend = optarg; break;
        case 'P': o->calib.profile = optarg; break;
        case 'Q': o->calib.quick = 1; break;
        }
    }
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

static int load_model(const cli_opts *o, rl_model *m)
{
    char err[ERRLEN];
    if (rl_model_load(o->model, o->sets[0], o->nsets[0], m, err, sizeof err) == 0)
        return 0;
    fprintf(stderr, "roofline: %s\n", err);
    return -1;
}

static int load_hw(const cli_opts *o, rl_hw *h)
{
    char err[ERRLEN];
    if (rl_hw_load(o->hw, o->sets[1], o->nsets[1], h, err, sizeof err) == 0)
        return 0;
    fprintf(stderr, "roofline: %s\n", err);
    return -1;
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

static int cmd_info(cli_opts *o)
{
    rl_model m;
    if (need(o, "info", "--model M", o->model != NULL) != 0 || load_model(o, &m) != 0)
        return RL_EXIT_INPUT;
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
    if (o->ideal) /* --ideal: the pure roofline even with efficiency tables */
        h.efficiency.present = 0;
    char err[ERRLEN];
    if (rl_step_check(&m, &h, o->chips, o->context, o->prec, err, sizeof err) != 0) {
        fprintf(stderr, "roofline step: %s\n", err);
        return RL_EXIT_INPUT;
    }
    return emit(o, rl_result_step(&m, &h, o->chips, o->batch, o->nbatch, o->context, o->prec));
}

static int cmd_run(cli_opts *o)
{
    if (need(o, "run", "a scenario file", o->nargs >= 1) != 0)
        return RL_EXIT_INPUT;
    char err[4096];
    if (rl_lua_run_scenario(o->args[0], o->nargs - 1, o->args + 1, err, sizeof err) != 0) {
        fflush(stdout);
        fprintf(stderr, "roofline run: %s\n", err);
        return RL_EXIT_INPUT;
    }
    return fflush(stdout) == 0 ? RL_EXIT_OK : RL_EXIT_IO;
}

static int cmd_calibrate(cli_opts *o)
{
    char err[ERRLEN];
    o->calib.model = o->model;
    cJSON *r = rl_calibrate(&o->calib, err, sizeof err);
    if (!r) {
        fprintf(stderr, "roofline calibrate: %s\n", err);
        return RL_EXIT_INPUT;
    }
    return emit(o, r);
}

static int cmd_validate(cli_opts *o)
{
    char err[ERRLEN];
    o->calib.model = o->model;
    cJSON *r = rl_validate(&o->calib, err, sizeof err);
    if (!r) {
        fprintf(stderr, "roofline validate: %s\n", err);
        return RL_EXIT_INPUT;
    }
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

static const command COMMANDS[] = {
    {"info", cmd_info, O_MODEL | O_CONTEXT | O_PREC | O_SET | O_FORMAT,
     "Parameter counts (total, active, per component), KV bytes per token and FLOPs per token.",
     "--model M [--weights D] [--kv D] [--context S] [--set ...] [--format F]"},
    {"step", cmd_step,
     O_MODEL | O_HW | O_CHIPS | O_BATCH | O_CONTEXT | O_PREC | O_IDEAL | O_SET | O_FORMAT,
     "Decode step time, tokens/s and memory by the Scaling Book's formula (1), over --chips\n"
     "chips holding one fully sharded copy of the model; B_crit and the largest batch that fits.",
     "--model M --hw H [--chips N] --batch 1,8,16 --context S [--weights D] [--kv D]\n"
     "       [--compute D] [--ideal] [--set ...] [--format F]"},
    {"calibrate", cmd_calibrate, O_MODEL | O_BACKEND | O_FORMAT,
     "Measure this host through the reference engine's kernels (stream, GEMM/GEMV grid,\n"
     "attention, norms, overhead), fit efficiency tables and write\n"
     "hw_profiles/calibrated/<host>.lua with the raw samples in <host>.json.",
     "--backend cpu|cuda [--model M (GEMM shapes; default tiny-ref)] [--quick] [--format F]"},
    {"validate", cmd_validate, O_MODEL | O_BACKEND | O_FORMAT,
     "Run the reference engine over decode B x S and prefill T grids, predict each run from\n"
     "the calibrated profile and print predicted vs measured, per run and per operator.",
     "--backend cpu|cuda [--model M] [--profile P (default calibrated/<host>)] [--quick]\n"
     "       [--format F]"},
    {"run", cmd_run, 0,
     "Run a what-if scenario: a Lua script with the `roofline` module (model, hw, info, step,\n"
     "format) in a sandbox (no io/os/require; instruction and memory budgets).",
     "SCRIPT.lua [ARGS...]"},
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
        fprintf(f, "  %-10s %.*s\n", COMMANDS[i].name, len, COMMANDS[i].summary);
    }
}

int rl_cli_main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        print_help(argc < 2 ? stderr : stdout);
        return argc < 2 ? RL_EXIT_INPUT : RL_EXIT_OK;
    }
    for (size_t i = 0; i < NCOMMANDS; i++) {
        if (strcmp(argv[1], COMMANDS[i].name) != 0)
            continue;
        /* The engine's OpenMP kernels and OpenBLAS's threads share the cores:
         * spinning OpenMP workers starve OpenBLAS (10-100x slower GEMMs), so
         * commands that run the engine restart once with passive waiting
         * (libgomp reads OMP_WAIT_POLICY only at load). */
        if ((COMMANDS[i].accepts & O_BACKEND) && !getenv("OMP_WAIT_POLICY")) {
            setenv("OMP_WAIT_POLICY", "passive", 1);
            execv("/proc/self/exe", argv);
        }
        static cli_opts o;
        memset(&o, 0, sizeof o);
        int rc = parse_options(&COMMANDS[i], argc - 1, argv + 1, &o);
        if (rc != 0)
            return rc > 0 ? RL_EXIT_OK : RL_EXIT_INPUT;
        if (o.nargs > 0 && COMMANDS[i].run != cmd_run) {
            fprintf(stderr, "roofline %s: unexpected argument '%s'\n", argv[1], o.args[0]);
            return RL_EXIT_INPUT;
        }
        return COMMANDS[i].run(&o);
    }
    fprintf(stderr, "roofline: unknown command '%s'\n", argv[1]);
    print_help(stderr);
    return RL_EXIT_INPUT;
}
