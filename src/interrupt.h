/* interrupt.h — SIGINT as a flag that long loops poll, and the temporary
 * file being written at that moment.
 *
 * Owns the process-wide "interrupted" flag and the name of the one temporary
 * output file in flight.  The CLI installs the handler (rl_interrupt_install);
 * library code never installs handlers, it only polls rl_interrupted() in
 * long loops (sweeps, calibration, the Lua sandbox's instruction hook) and
 * stops with an error "interrupted (SIGINT)".  A first SIGINT only sets the
 * flag, so every file being written is finished and renamed (or removed);
 * a second SIGINT removes the temporary file in flight and exits at once
 * with status 130 (128 + SIGINT).  Uses POSIX sigaction only. */
#ifndef RL_INTERRUPT_H
#define RL_INTERRUPT_H

/* Install the SIGINT handler (idempotent).  Returns 0 or -1 (errno set). */
int rl_interrupt_install(void);

/* Nonzero once SIGINT has arrived (or rl_interrupt_raise was called). */
int rl_interrupted(void);

/* Set / clear the flag by hand (tests; a caller that handled it). */
void rl_interrupt_raise(void);
void rl_interrupt_clear(void);

/* Name the temporary file now being written (NULL: none).  The string is
 * copied (paths over 4095 bytes are not tracked); the second-SIGINT path
 * unlinks it before exiting. */
void rl_interrupt_track_temp(const char *path);

/* Remove the temporary file in flight and end the process at once with
 * `status` (async-signal-safe: unlink and _exit only).  The second SIGINT
 * does this; so does the Lua sandbox's watchdog for a run stuck in C. */
void rl_interrupt_exit(int status);

#endif
