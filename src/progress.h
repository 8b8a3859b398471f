/* progress.h — a progress line on stderr for the long runs (size's search
 * over configurations, step's batch list under --chips, simulate's runs and
 * capacity searches).
 *
 * Owns one process-wide count of work done out of a total and the line that
 * shows it, "roofline CMD: WHAT D of N (E s)", written over itself ('\r')
 * at most every RL_PROGRESS_EVERY_S once `after_s` have passed since the
 * start, and erased when the run ends: a short run shows nothing.  Off until
 * enabled: the CLI enables it when stderr is a terminal and --quiet was not
 * given, so a script's or a test's stderr (a pipe, a file) never holds it
 * and every result stays byte-identical.  Thread-safe: size's workers count
 * their plans as they finish. */
#ifndef RL_PROGRESS_H
#define RL_PROGRESS_H

#include <stddef.h>

#define RL_PROGRESS_AFTER_S 2.0 /* the CLI's delay before a first line */
#define RL_PROGRESS_EVERY_S 0.5 /* the line is rewritten at most this often */

/* Enable (on) or disable the line; after_s: the delay before a first one. */
void rl_progress_enable(int on, double after_s);

/* A run of `total` units named `what` ("configurations simulated") of
 * command `cmd` begins: its count at 0, its clock started.  A start while
 * another run is open (a command nesting two) is ignored, and so are its
 * end and the units added while it is open: the outer run's line and
 * count go on. */
void rl_progress_start(const char *cmd, const char *what, long long total);

/* The open run goes on to its next phase (simulate: its run, then its
 * capacity search): its count at 0 again, of `total` units named `what`;
 * the clock and the line's cadence go on.  Ignored unless exactly one run
 * is open, as rl_progress_add's units are. */
void rl_progress_phase(const char *what, long long total);

/* n more units done; the line is rewritten when it is due. */
void rl_progress_add(long long n);

/* The run ends: its line, if one was written, erased. */
void rl_progress_end(void);

/* The line, if one is shown, erased for a message about to be written on
 * stderr (the CLI's notes); the next rl_progress_add writes it again. */
void rl_progress_clear(void);

/* The line's text for `done` of `total` after `elapsed` s (no '\r'):
 * "roofline size: configurations simulated 12 of 40 (8 s)", or with a
 * total of 0 or less (none known) "roofline simulate: capacity loads
 * tried 7 (3 s)".  Returns the length snprintf gives. */
int rl_progress_line(char *buf, size_t n, const char *cmd, const char *what, long long done,
                     long long total, double elapsed);

#endif
