/* fuzz_cli.c — libFuzzer harness for the CLI argument parser and the
 * commands behind it (cli.h rl_cli_main).  The input is argv: arguments
 * separated by NUL bytes, the first one the command.  So that a run cannot
 * touch the file system, arguments holding '/' (paths) or naming an option
 * that writes files (the parameter table's RL_PF_WRITES rows: --save,
 * --out, --plot, --plot-dir, --report, their old spellings such as --output,
 * and any abbreviation of them) are
 * dropped; presets come from the source tree.  stdout goes to /dev/null.
 * calibrate, validate and validate-serve are skipped: they run real
 * benchmarks for tens of seconds and write a profile (and restart the
 * process unless OMP_WAIT_POLICY is set, which fuzz_init's caller sets). */
#include "fuzz_util.h"

#include <string.h>

#include "cli.h"
#include "param.h"

#define MAX_ARGS 64

/* An option "--NAME[=V]" whose NAME is a prefix (an abbreviation getopt
 * may take) of a flag that names an output file or folder. */
static int writes_files(const char *arg)
{
    if (strncmp(arg, "--", 2) != 0)
        return 0;
    size_t n = strcspn(arg + 2, "=");
    for (int i = 0; i < RL_P_COUNT; i++)
        if (RL_PARAMS[i].flag && (RL_PARAMS[i].flags & RL_PF_WRITES) &&
            strncmp(RL_PARAMS[i].flag, arg + 2, n) == 0)
            return 1;
    for (size_t i = 0; i < RL_NFLAG_ALIASES; i++) /* old spellings: --output FILE, --plot DIR */
        if ((RL_PARAMS[RL_FLAG_ALIASES[i].id].flags & RL_PF_WRITES) &&
            strncmp(RL_FLAG_ALIASES[i].old, arg + 2, n) == 0)
            return 1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    if (!ready) {
        fuzz_init(1);
        setenv("OMP_WAIT_POLICY", "passive", 1); /* no re-exec of this process */
        ready = 1;
    }
    if (size > 4096)
        return 0;
    char buf[4097];
    memcpy(buf, data, size);
    buf[size] = '\0';
    char *argv[MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = "roofline";
    for (size_t i = 0; i <= size && argc < MAX_ARGS;) {
        char *arg = buf + i;
        size_t len = strlen(arg);
        if (!strchr(arg, '/') && !writes_files(arg))
            argv[argc++] = arg;
        i += len + 1;
    }
    argv[argc] = NULL;
    if (argc > 1 && (strcmp(argv[1], "calibrate") == 0 || strcmp(argv[1], "validate") == 0 ||
                     strcmp(argv[1], "validate-serve") == 0))
        return 0;
    (void)rl_cli_main(argc, argv);
    return 0;
}
