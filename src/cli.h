/* cli.h — the `roofline` command line: option parsing, commands, exit codes.
 *
 * Owns argument parsing (lists such as --batch 1,8,16, --set overrides,
 * precisions, --format, --output) and the command table.  Exit codes: 0 ok,
 * 2 bad input (usage, specs, values), 1 failure writing output, 130
 * interrupted by SIGINT (after finishing or removing any file in flight).  Uses every
 * core module; the library never exits, only this layer does. */
#ifndef RL_CLI_H
#define RL_CLI_H

enum { RL_EXIT_OK = 0, RL_EXIT_IO = 1, RL_EXIT_INPUT = 2, RL_EXIT_INTERRUPTED = 130 };

/* Run the CLI; returns the process exit code. */
int rl_cli_main(int argc, char **argv);

/* Parse a comma-separated list of integers in [min, max] into out (at most
 * cap entries).  Returns the count, or -1 with err set (empty items,
 * non-numbers, out of range, too many). */
int rl_cli_parse_list(const char *s, long long min, long long max, long long *out, int cap, char *err,
                      unsigned long errlen);

#endif
