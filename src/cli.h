/* cli.h — the `roofline` command line: option parsing, commands, exit codes.
 *
 * Owns the commands' command-line runs and option parsing through the
 * parameter and command tables (param.h: lists such as --batch 1,8,16,
 * --set overrides, precisions, --format, --output).  Exit codes: 0 ok,
 * 2 bad input (usage, specs, values), 1 failure writing output, 130
 * interrupted by SIGINT (after finishing or removing any file in flight).  Uses every
 * core module; the library never exits, only this layer does.
 *
 * Messages (one prefix rule): the library never prints; it fills an error
 * buffer (err, errlen), with RL_FAIL (error.h), and returns -1.  This
 * layer prints every error and note of a running command on stderr as
 * "roofline CMD: MESSAGE" through rl_cli_say, notes as "roofline CMD: note:
 * ...".  Only what comes before a command is known (no or an unknown
 * command) says "roofline: ...".  Lua functions raise "roofline.FUNC: ..."
 * errors, which `roofline run` prints after its own prefix.  Progress lines
 * of calibrate/validate ("calibrate [###  ] 12/80 ...") are not messages and
 * carry no prefix. */
#ifndef RL_CLI_H
#define RL_CLI_H

/* RL_EXIT_VERDICT: the check ran and its verdict failed (validate-serve: TTFT
 * and TPOT p50/p90 not all within 10%; not for a smoke test; size: no
 * deployment meets the targets, tester33: it exited 2, bad input, for a
 * valid search), for CI and scripts: 2 stays bad input alone. */
enum { RL_EXIT_OK = 0, RL_EXIT_IO = 1, RL_EXIT_INPUT = 2, RL_EXIT_VERDICT = 3,
       RL_EXIT_INTERRUPTED = 130 };

#include "param.h"

/* Print "roofline CMD: " + the printf-style message + a newline on stderr,
 * CMD being o->cmd ("roofline: " when o or its command is NULL), its control
 * bytes but newline and tab, each byte that breaks UTF-8 and both bytes
 * of a C1 control (C2 80-9F), shown as \xHH.  Returns -1, so an error is
 * `return rl_cli_say(o, ...)`. */
int rl_cli_say(const rl_opts *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* rl_cli_say for a command named cmd (NULL: "roofline: "), where no
 * options are at hand. */
int rl_cli_tell(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The notes emit says of an ops, prefill or step result, for a Lua
 * run's roofline.ops / prefill / step (lua_api.c; fixWD finding 3: a
 * script was told none): that `unmeasured` has nothing measured (when the
 * result's mode is estimated; NULL: h is measured or fitted, or the call
 * asked for its peaks), the estimated
 * share (each once a run, as the command's), a batch above the token
 * budget (token_budget_note) and that the result or one of its rows does
 * not fit, each once a run for `fn` (*said, the caller's, 0 at first).  Said as "roofline run: roofline.FN: note: ...". */
struct cJSON;
void rl_cli_result_notes(const char *fn, const struct cJSON *result, const rl_hw *unmeasured,
                         unsigned *said);

/* Run the CLI; returns the process exit code. */
int rl_cli_main(int argc, char **argv);

/* The commands (param.h RL_COMMANDS): each runs on the parsed options and
 * returns the exit code, the result printed or written to --output. */
int rl_cli_info(rl_opts *o);
int rl_cli_step(rl_opts *o);
int rl_cli_shard(rl_opts *o);
int rl_cli_pareto(rl_opts *o);
int rl_cli_ops(rl_opts *o);
int rl_cli_prefill(rl_opts *o);
int rl_cli_import_hf(rl_opts *o);
int rl_cli_calibrate(rl_opts *o);
int rl_cli_validate(rl_opts *o);
int rl_cli_fit(rl_opts *o);
int rl_cli_run(rl_opts *o);
int rl_cli_simulate(rl_opts *o);
int rl_cli_size(rl_opts *o);
int rl_cli_validate_serve(rl_opts *o);
int rl_cli_list(rl_opts *o);

/* Parse a comma-separated list of integers in [min, max] into out (at most
 * cap entries).  Returns the count, or -1 with err set (empty items,
 * non-numbers, out of range, a value given twice, too many). */
int rl_cli_parse_list(const char *s, long long min, long long max, long long *out, int cap, char *err,
                      unsigned long errlen);

/* One integer in [min, max] into *out, in the list's syntax: digits, or a
 * whole number in decimal or exponent form (1e3, 2.0); every integer flag
 * reads this way.  0, or -1 with err set. */
int rl_cli_parse_int(const char *s, long long min, long long max, long long *out, char *err,
                     unsigned long errlen);

#endif
