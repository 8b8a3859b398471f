/* interrupt.h — SIGINT and SIGTERM as a flag that long loops poll, and the
 * temporary file being written at that moment.
 *
 * Owns the process-wide "interrupted" flag and the name of the one temporary
 * output file in flight.  The CLI installs the handler (rl_interrupt_install);
 * library code never installs handlers, it only polls rl_interrupted() in
 * long loops (sweeps, calibration, the Lua sandbox's instruction hook) and
 * stops with an error "interrupted (SIGINT)" (or SIGTERM: what `timeout`,
 * `kill` and service managers send is treated the same way).  A first signal
 * only sets the flag, so every file being written is finished and renamed
 * (or removed); a second one removes the temporary file in flight and exits
 * at once with status 128 + the signal's number.  Uses POSIX sigaction and
 * unlinkat only. */
#ifndef RL_INTERRUPT_H
#define RL_INTERRUPT_H

/* Install the SIGINT and SIGTERM handler (idempotent).  Returns 0 or -1
 * (errno set). */
int rl_interrupt_install(void);

/* Nonzero once SIGINT or SIGTERM has arrived (or rl_interrupt_raise was called). */
int rl_interrupted(void);

/* "SIGTERM" when that was the signal received, else "SIGINT" (messages). */
const char *rl_interrupt_name(void);

/* The exit status for a run the signal stopped: 128 + its number (130 for
 * SIGINT, 143 for SIGTERM, as shells report them; README, docs/hardening.md). */
int rl_interrupt_status(void);

/* Set / clear the flag by hand (tests; a caller that handled it). */
void rl_interrupt_raise(void);
void rl_interrupt_clear(void);

/* Name a temporary file now being written: `name` inside the open
 * directory `dir` (AT_FDCWD for a path), tracked beside those already
 * named, up to three at once (a figure's data, script and image, plot.c);
 * name NULL: none any more.  The name is copied (over 4095 bytes it is not
 * tracked) and `dir` must stay open while it is tracked; the second-signal
 * path unlinks every one before exiting. */
void rl_interrupt_track_temp(int dir, const char *name);

/* Remove the temporary file in flight and end the process at once with
 * `status` (async-signal-safe: unlinkat and _exit only).  The second signal
 * does this; so does the Lua sandbox's watchdog for a run stuck in C. */
void rl_interrupt_exit(int status);

#endif
