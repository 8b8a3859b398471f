/* param.h — every request parameter and every command, declared once.
 *
 * Owns two tables.  PARAMS: one row per parameter with its command-line
 * flag, its key in the Lua option tables, the result key that echoes it,
 * its type, unit, bounds, default and help text, and where its parsed value
 * lands in rl_opts (offsetof).  COMMANDS: one row per command with its
 * summary and usage, the parameters it accepts, the function that runs it
 * from the command line (cli.h) and from Lua (lua_api.h).  The CLI parser,
 * `--help`, the Lua option reader, the generated docs/cli.md and the CLI
 * fuzzer all read these tables, so adding an option is one PARAMS row plus
 * its id in each command's list.  Uses spec, shard, calib, report (the
 * types of the fields values land in). */
#ifndef RL_PARAM_H
#define RL_PARAM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "calib.h"
#include "report.h"
#include "shard.h"
#include "spec.h"

#define RL_MAX_LIST 4096 /* values in a list option (--batch, --tokens) */
#define RL_MAX_SETS 64   /* --set options of one kind (model or hw) */

/* Parameter ids: the index of each row of the parameter table. */
typedef enum {
    /* specs and precision */
    RL_P_MODEL, RL_P_HW, RL_P_CHIPS, RL_P_CHIPS_LIST, RL_P_BATCH, RL_P_CONTEXT, RL_P_WEIGHTS,
    RL_P_WEIGHTS_LIST, RL_P_KV, RL_P_KV_LIST, RL_P_COMPUTE, RL_P_IDEAL, RL_P_SET,
    /* output */
    RL_P_FORMAT, RL_P_OUTPUT, RL_P_PLOT, RL_P_OUT, RL_P_MAX_INSTRUCTIONS,
    /* operators */
    RL_P_PHASE, RL_P_TOKENS, RL_P_PREFIX, RL_P_MFU, RL_P_ACT, RL_P_ATTN, RL_P_NON_CAUSAL,
    RL_P_CAUSAL, RL_P_CHUNK, RL_P_PROMPT,
    /* import-hf */
    RL_P_NAME, RL_P_SOURCE,
    /* sharding */
    RL_P_TP, RL_P_EP, RL_P_SP, RL_P_PP, RL_P_X, RL_P_SHARDING, RL_P_KV_SPLIT, RL_P_MOE_ATTN,
    RL_P_OVERLAP,
    /* calibration */
    RL_P_BACKEND, RL_P_PROFILE, RL_P_QUICK, RL_P_THREADS, RL_P_PASSES, RL_P_HOLDOUT,
    /* serving workload and engine (simulate, size, validate-serve) */
    RL_P_QPS, RL_P_PROMPT_DIST, RL_P_OUTPUT_DIST, RL_P_TRACE, RL_P_POLICY, RL_P_REPLICAS,
    RL_P_PREFILL_REPLICAS, RL_P_ROUTE, RL_P_MAX_SEQS, RL_P_MAX_TOKENS, RL_P_PAGE, RL_P_PREEMPT,
    RL_P_PREFIX_CACHE, RL_P_PREFIXES, RL_P_SPEC, RL_P_REQUESTS, RL_P_SEED, RL_P_BURST, RL_P_TTFT,
    RL_P_TPOT, RL_P_REPORT, RL_P_RESERVE, RL_P_MAX_CHIPS, RL_P_KEEP_PREC, RL_P_PLOT_DIR,
    /* calibrate and fit: the profile is their product (--save); --output keeps the printed
     * result */
    RL_P_SAVE_PROFILE, RL_P_SUMMARY,
    /* roofline.plot (Lua only) */
    RL_P_PLOT_KIND, RL_P_PLOT_FILE, RL_P_PLOT_TITLE, RL_P_PLOT_SERIES,
    /* fitted engine costs (fit, validate --against, the band of step and prefill) */
    RL_P_FOLDS, RL_P_ENGINE_NAME,
    /* declared for the accuracy and serving issues; fit and validate take --engine,
     * --against and --band, the rest no command takes yet */
    RL_P_ENGINE, RL_P_TABLES, RL_P_TABLES_OUT, RL_P_MOE_MODELS, RL_P_DEVICE_UNCHECKED, RL_P_AGAINST, RL_P_BAND, RL_P_CONSERVATIVE,
    RL_P_HEADROOM, RL_P_OFFLINE, RL_P_ATTN_LAYOUT,
    /* validate-serve: its loads and repeats */
    RL_P_CAPACITY_PCT, RL_P_REPEATS,
    /* --ideal as pareto reads it (formula (1), no communication) */
    RL_P_IDEAL_SWEEP,
    RL_P_BATCH_SWEEP, /* --batch of sweep and pareto: its default is a list */
    RL_P_RESERVE_STEP, /* --hbm-reserve of step: seed 000's whole HBM by default */
    RL_P_CHIPS_SHARD,   /* --chips and --overlap of shard: it lists the plans itself (no --pp) */
    RL_P_OVERLAP_SHARD,
    RL_P_BATCH_SHARD,   /* --batch of shard: one value */
    RL_P_PHASE_PREFILL, /* --phase of prefill: accepted for ops's command lines, ignored */
    RL_P_THREADS_SIZE,  /* --threads of size: its search's threads, not the cpu backend's */
    RL_P_NO_CAPACITY,   /* --no-capacity of simulate: skip the capacity search */
    RL_P_SAVE_MISFIT,   /* --save-misfit of fit: --save a fit above RL_E2E_MISFIT_CV */
    RL_P_QUIET,         /* --quiet of every command: no "note:" lines on stderr */
    RL_P_COUNT
} rl_param_id;

typedef enum {
    RL_PT_SWITCH,     /* no value: sets an int to 1 */
    RL_PT_COUNT,      /* one whole number in [min, max] (long long) */
    RL_PT_INT,        /* one whole number in [min, max] (int) */
    RL_PT_COUNT_LIST, /* comma-separated whole numbers (long long[cap] + int count) */
    RL_PT_NUMBER,     /* a real number in [min, max] (double) */
    RL_PT_STRING,     /* text (const char *) */
    RL_PT_DTYPE,      /* a dtype name (rl_dtype) */
    RL_PT_DTYPE_LIST, /* comma-separated dtypes (rl_dtype[RL_DTYPE_COUNT] + int count) */
    RL_PT_CHOICE,     /* one of `choices` ("a|b|c"); the index lands as an int */
    RL_PT_SET,        /* model.FIELD=V | hw.FIELD=V, repeatable */
} rl_param_type;

/* Row flags. */
enum {
    RL_PF_WRITES = 1 << 0,   /* names a file or folder the command writes */
    RL_PF_SERVE = 1 << 1,    /* a serving option: refused with the command's `why_not` */
    RL_PF_PLAN = 1 << 2,     /* chooses a shard plan (step: sharded result) */
    RL_PF_REFINES = 1 << 3,  /* refines a plan given by an RL_PF_PLAN option */
    RL_PF_NONEMPTY = 1 << 4, /* an empty value is refused */
    RL_PF_LIST = 1 << 5,     /* a comma-separated list of names (as RL_PT_DTYPE_LIST): no empty item */
    RL_PF_NAME = 1 << 6,     /* a plain name: 1-40 letters, digits, '_', '.', '-', not led by '.' */
    RL_PF_BACKEND = 1 << 7,  /* validate, calibrate: read by their --backend source only (beside
                              * --against or --tables refused naming the source: cli.c
                              * source_options) */
    RL_PF_TABLES = 1 << 8,   /* validate, calibrate: read by their --tables source only (likewise) */
};

/* Where a value lands: offsetof(rl_opts, field), or RL_AT_GIVEN when the
 * command parses the text kept in rl_opts.given[id] itself. */
#define RL_AT_GIVEN ((size_t)-1)

typedef struct {
    const char *flag;    /* long option without "--"; NULL: Lua only */
    const char *lua;     /* key in the Lua option table; NULL: command line only */
    const char *lua_old; /* an older Lua spelling still accepted, or NULL */
    const char *json;    /* result key that echoes it, or NULL */
    rl_param_type type;
    const char *arg;     /* how usage names the value ("N", "DIST"); NULL: a switch */
    const char *unit;    /* "tokens", "s", "req/s", "fraction", "GB" or "" */
    double min, max;     /* bounds of a number, a count, each value of a list */
    const char *def;     /* the default as text, NULL: none (required or off) */
    const char *choices; /* RL_PT_CHOICE: "a|b|c" */
    const char *help;
    size_t at;           /* offsetof(rl_opts, ...) or RL_AT_GIVEN */
    size_t at_n;         /* lists: offsetof the int count */
    int cap;             /* lists: most values */
    unsigned flags;      /* RL_PF_* */
} rl_param;

/* The parsed command line of one command (the CLI's request). */
typedef struct {
    const char *model, *hw;
    long long chips;
    long long batch[RL_MAX_LIST];
    int nbatch;
    long long context;
    rl_precision prec;
    int ideal;
    rl_override sets[2][RL_MAX_SETS]; /* [0] model, [1] hw */
    int nsets[2];
    rl_format fmt;
    int quiet; /* --quiet: the notes are not said (cli.c vtell) */
    const char *output;
    long long max_instructions;
    const char *phase;
    long long tokens[RL_MAX_LIST];
    int ntokens;
    long long prefix, chunk;
    double mfu;
    rl_dtype act;
    int materialized, non_causal;
    const char *name, *source; /* import-hf */
    rl_shard_plan plan;
    int sharded;       /* an RL_PF_PLAN option was given */
    int plan_modifier; /* an RL_PF_REFINES option was given */
    long long chips_list[64];
    int nchips;
    rl_dtype weights[RL_DTYPE_COUNT], kv[RL_DTYPE_COUNT];
    int nweights, nkv;
    const char *plot, *outdir;
    long long prompt;
    rl_calib_opts calib;
    const char *engine; /* --engine: the hw spec's serving engine, or "ideal" */
    const char *tables; /* --tables DIR (calibrate, validate) */
    const char *moe_models; /* --moe-models M[,M...] (calibrate --tables) */
    int holdout;        /* --holdout K (validate --tables) */
    long long capacity_pct[16]; /* --capacity-pct (validate-serve), percent */
    int ncapacity_pct;
    int nargs; /* positional arguments left after the options */
    char **args;
    const char *given[RL_P_COUNT]; /* each option's text as given ("1" for a switch), or NULL */
    int argc;                      /* the whole command line */
    char **argv;
    char cmdline[2048]; /* it shell-quoted, taken before parsing (--set edits its argument) */
    const char *spelled[RL_P_COUNT]; /* the flag as given (an old spelling too), or NULL */
    const char *cmd;                 /* the command's name: messages say "roofline CMD: ..." */
} rl_opts;

/* An older flag spelling kept working (a flag is a contract): --old reads as
 * parameter id in a command that takes id and has no parameter spelled
 * --old of its own; among aliases with the same spelling the first the
 * command takes wins.  Using one prints a note naming the new spelling; the
 * value means what it meant before. */
typedef struct {
    const char *old;
    rl_param_id id;
} rl_flag_alias;

/* A command's parameter list entry: an id, optionally marked for one face. */
#define RL_CLI_ONLY 0x1000 /* the Lua function takes it otherwise (or not at all) */
#define RL_LUA_ONLY 0x2000
/* Taken only to be refused by the command itself, with its own reason (size's
 * --prefixes: it models no prefix cache): parsed, so that refusal is said, but
 * left out of --help, docs/cli.md and the Lua known-keys list (fixSE #3: size
 * --help listed --prefixes as an option it always refuses). */
#define RL_REFUSED 0x4000
#define RL_PARAM_END (-1)

typedef struct lua_State lua_State;

typedef struct {
    const char *name;
    int (*cli)(rl_opts *o);     /* NULL: a Lua function only */
    int (*lua)(lua_State *L);   /* NULL: the command line only */
    const int *params;          /* RL_P_* (| RL_CLI_ONLY / RL_LUA_ONLY), ending in RL_PARAM_END */
    const char *why_not;        /* why it refuses the serving options it does not list, or NULL */
    int args;                   /* takes positional arguments after the options */
    const char *summary;        /* first line: the one-line summary */
    const char *usage;          /* lines after "usage: roofline NAME " */
} rl_command;

extern const rl_param RL_PARAMS[RL_P_COUNT];
extern const rl_command RL_COMMANDS[];
extern const size_t RL_NCOMMANDS;
extern const rl_flag_alias RL_FLAG_ALIASES[];
extern const size_t RL_NFLAG_ALIASES;

/* The command named `name`, or NULL. */
const rl_command *rl_command_find(const char *name);

/* Whether command c takes parameter id on the command line (cli = 1) or
 * in Lua (cli = 0). */
int rl_command_takes(const rl_command *c, rl_param_id id, int cli);

/* The parameter of c with command-line flag `flag` (its own spelling, else
 * an old one of RL_FLAG_ALIASES), or -1. */
int rl_command_flag(const rl_command *c, const char *flag);

/* The old spelling c accepts for parameter id, or NULL. */
const char *rl_command_old_flag(const rl_command *c, rl_param_id id);

/* The flag of id as the user spelled it in o ("prompt" for an old
 * --prompt), else the row's own. */
const char *rl_param_flag(const rl_opts *o, rl_param_id id);

/* The Lua keys c takes (old spellings too) into keys[cap]; returns how many. */
int rl_command_lua_keys(const rl_command *c, const char **keys, int cap);

/* The parameter of c with Lua key `key` (its own or its old spelling), or -1. */
int rl_command_lua_param(const rl_command *c, const char *key);

/* The first parameter with flag `flag`, or -1. */
int rl_param_by_flag(const char *flag);

/* The parameter command `cmd`'s result echoes under JSON key `key`: the
 * command's own key for it (param.c OWN_JSON: size's requests and
 * hbm_reserve, which the table's json leaves NULL), else the first whose
 * json is `key`; -1 when none.  test_keys takes its unit from it. */
int rl_param_by_json(const char *cmd, const char *key);

/* Parse `arg` as parameter id, spelled --`flag` on the command line (an
 * old spelling gets a note), into o (the row's type, bounds and
 * destination).  Returns 0, or -1 with the reason printed. */
int rl_param_set(rl_opts *o, rl_param_id id, const char *flag, const char *arg);

/* The number given for id (a RL_AT_GIVEN row) within [lo, hi], a whole
 * number for counts; *v is left as is when it was not given.  Returns 0 or
 * -1 with the reason printed. */
int rl_param_number_in(const rl_opts *o, rl_param_id id, double lo, double hi, double *v);

/* The same within the row's own bounds. */
int rl_param_number(const rl_opts *o, rl_param_id id, double *v);
/* A seed (--seed), exact: plain digits are read as a 64-bit integer
 * (strtoull, every digit kept), other forms (1e6) as numbers up to 2^53,
 * where a double is still exact; in [min, max] of id (0..1e18).  *v kept
 * when not given.  0, or -1 (said) (tester22 F7: 2^53 and 2^53 + 1 were one
 * run, 1e18 + 1 was taken as 1e18). */
int rl_param_seed(const rl_opts *o, rl_param_id id, uint64_t *v);

/* The number given for id within the bounds command `cmd` gives it, and
 * when not given that command's own default (the ones its --help and
 * docs/cli.md print: param.c OWN, e.g. validate-serve --requests 24, at
 * most 10000); *v left as is where the command sets no default of its
 * own.  Returns 0 or -1 with the reason printed. */
int rl_param_number_for(const rl_opts *o, const char *cmd, rl_param_id id, double *v);

/* The row's default as a number (0 when it has none). */
double rl_param_default(rl_param_id id);

/* Whether v[n-1] repeats one of v[0..n-2]: a list option that gives a
 * value twice runs nothing new and is refused, by the CLI (--batch 1,2,1,
 * --weights bf16,fp8,bf16) and by Lua (batch = {1, 2, 1}) alike (tester6:
 * --chips 4,4; review21 #4).  Called as each value is added. */
int rl_list_repeats(const long long *v, int n);

/* The option lines of c's `--help`, from the table. */
void rl_param_usage(const rl_command *c, FILE *f);

/* docs/cli.md: every command with its parameters, as Markdown. */
void rl_param_markdown(FILE *f);

/* --help's lines on the memory capacity keys command c's results carry,
 * each raw or usable (fixNE #3; docs/cli.md "Memory capacity keys" lists
 * them all); nothing for a command with none. */
void rl_param_capacity_keys(const rl_command *c, FILE *f);

#endif
