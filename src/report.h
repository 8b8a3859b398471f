/* report.h — rendering results as table, CSV or JSON, and safe file writes.
 *
 * Owns output formats.  A result is a cJSON object: scalar fields describe
 * the run; an optional "rows" array of flat objects is the table.  JSON keeps
 * SI units.  CSV prints the rows (info --hw: its engines; a result
 * without either: a header line and one line of its scalars) in SI units,
 * each number column in one spelling (whole numbers in full digits, others
 * the shortest that reads back exactly).  The table format is for people: keys ending in _s are shown
 * in ms (_ms), keys ending in _bytes in GB (_GB, 1 GB = 1e9 bytes), in
 * _bytes_per_chip as _GB/chip (a row's X_bytes column is then left out of
 * the table: its meaning varies by row), a text cell over 80 characters
 * as "[N]" with its text once under the table (report.c
 * RL_TABLE_CELL_MAX); other
 * top-level arrays of objects follow the rows as tables titled by their key.
 * Uses cJSON and guard (rl_guard_read). */
#ifndef RL_REPORT_H
#define RL_REPORT_H

#include <stddef.h>
#include <sys/stat.h>
#include <stdio.h>

#include <cjson/cJSON.h>

typedef enum { RL_FMT_TABLE, RL_FMT_CSV, RL_FMT_JSON } rl_format;

/* "table" | "csv" | "json"; returns 0 or -1. */
int rl_format_parse(const char *s, rl_format *out);

/* Render to a malloc'd NUL-terminated string.  Refuses (NULL, err set) a
 * result holding a NaN or infinite number: such a value is a bug, never
 * output. */
char *rl_report_render(const cJSON *result, rl_format fmt, char *err, size_t errlen);

/* Write `len` bytes to `path` through a temporary file in the same
 * directory, renamed into place only when complete.  A symbolic link at
 * `path` is written through (its target replaced); anything else that is
 * not a regular file is refused.  Returns 0, or -1 with err set and no file
 * left behind. */
int rl_write_atomic(const char *path, const char *data, size_t len, char *err, size_t errlen);

/* The file a write to `path` replaces: `path`, or the target of a symbolic
 * link there (written through: every output named on the command line,
 * fixKJ A), into resolved[PATH_MAX]; its folder opened into *dir (AT_FDCWD
 * for a bare name; else the caller closes it) and its last component into
 * *name, pointing into resolved.  Anything that is not a regular file is
 * refused.  0, or -1 with err set. */
int rl_write_target(const char *path, char *resolved, int *dir, const char **name, char *err,
                    size_t errlen);

/* Several files put in place together (calibrate's profile and its raw
 * samples): rl_stage reserves an empty temporary beside each target (the
 * target resolved as rl_write_atomic does), the caller writes each one
 * with rl_write_atomic(temp), then rl_stage_commit renames them all into
 * place; on any failure rl_unstage removes the temporaries, so the older
 * files stay untouched.  The renames are within one folder each, so only
 * a failing rename between them (not a full disk) can leave some new.
 * rl_stage and rl_stage_commit return 0, or -1 with err set (temporaries
 * removed by rl_stage_commit). */
typedef struct {
    char target[4096]; /* PATH_MAX */
    char temp[4096];   /* "" when none is held */
} rl_staged;
int rl_stage(const char *path, rl_staged *s, char *err, size_t errlen);
int rl_stage_commit(rl_staged *s, int n, char *err, size_t errlen);
void rl_unstage(rl_staged *s, int n);

/* The temporary's suffix ".tmp.XXXXXX": a file name (one component) may be
 * at most RL_NAME_MAX bytes so that its temporary fits in NAME_MAX (255). */
#define RL_TEMP_SUFFIX_LEN 11
#define RL_NAME_MAX (255 - RL_TEMP_SUFFIX_LEN)

/* Create NAME.tmp.XXXXXX (random, exclusive, never through a link, mode
 * 0644 less the umask, or the permission bits of the regular file NAME it
 * will replace) inside the open directory `dir`; its name goes to tmp (tmplen >= 256
 * bytes) and is tracked for interrupts (interrupt.h).  Returns the open
 * descriptor, or -1 with "SHOWN: reason" in err. */
int rl_temp_at(int dir, const char *name, const char *shown, char *tmp, size_t tmplen, char *err,
               size_t errlen);

/* rl_write_atomic relative to the open directory `dir`: `name` is one
 * component; an existing link, directory or other non-regular file there
 * is refused (renameat replaces a name, it never writes through it).  Every
 * step is relative to `dir`, so a directory above it renamed or swapped for
 * a link during the write cannot redirect it.  `shown` names the file in
 * messages. */
int rl_write_atomic_at(int dir, const char *name, const char *shown, const char *data, size_t len,
                       char *err, size_t errlen);

/* The first half of rl_write_atomic_at: `data` written and synced to a new
 * temporary beside `name` (rl_temp_at: its name into tmp, tracked for
 * interrupts), not yet renamed: the caller renames it (renameat) or removes
 * it, then stops tracking it (interrupt.h).  Several files put in place
 * together (a figure's data and script, plot.c).  Returns 0, or -1 with
 * "SHOWN: reason" in err and no temporary left (a link, directory or other
 * non-regular file at `name` is refused, as rl_write_atomic_at does). */
int rl_write_temp_at(int dir, const char *name, const char *shown, const char *data, size_t len,
                     char *tmp, size_t tmplen, char *err, size_t errlen);

/* Open `name` (relative to the open directory `dir`, or AT_FDCWD) for
 * reading with extra open `flags` (O_NOFOLLOW), refusing anything but a
 * regular file: opened O_NONBLOCK so a FIFO cannot block the open itself,
 * checked with fstat (into *st), then made blocking.  Not noted as read.
 * Returns the descriptor, or -1 with "SHOWN: reason" in err (errno that of
 * the open, or EINVAL for a file that is not regular). */
int rl_open_regular_at(int dir, const char *name, int flags, const char *shown, struct stat *st,
                       char *err, size_t errlen);

/* Open `path` for reading, refusing anything but a regular file (a FIFO
 * would block forever, a device never end, a directory read as empty):
 * opened with O_NONBLOCK so a FIFO cannot block the open itself, checked
 * with fstat, then made blocking, and noted as read (guard.h rule 4: a
 * scenario may not replace a file it read).  Returns the descriptor, or -1
 * with "PATH: reason" in err. */
int rl_open_input(const char *path, char *err, size_t errlen);

/* rl_open_input as a stdio stream ("rb"). */
FILE *rl_fopen_input(const char *path, char *err, size_t errlen);

/* The longest rl_fopen_stream waits for a named FIFO's first byte: a
 * writer started beside the reader (`gen > fifo &`) sends within it; a FIFO
 * nothing writes to is refused after it, not waited on forever (param.c
 * --trace's help quotes it).  A pipe (a shell's <(...) or |) has its
 * writer and is not timed.  10 s is our own choice, from no external
 * source: far above a writer's start-up (a shell forks it in
 * milliseconds), short enough that a forgotten writer is said before a
 * user gives up on the run; Ctrl-C ends the wait at once (exit 130). */
#define RL_PIPE_WAIT_S 10

/* rl_fopen_input, but a FIFO or pipe (a shell's <(...) as /dev/fd/N, a
 * named FIFO) is read too, once, as a stream (tester53 F7): a pipe as its
 * writer sends, a named FIFO once it holds a byte or its writer has
 * closed, within RL_PIPE_WAIT_S; a directory or a device is still
 * refused. */
FILE *rl_fopen_stream(const char *path, char *err, size_t errlen);
/* ... and "-" is stdin (tester57 F3): a pipe or a redirected file, read
 * once; a terminal is refused.  Each command takes one input as "-"
 * (cli.c one_stdin_input). */

/* The name an input's messages and result keys (validate's and fit's
 * "file") give it: "stdin" for "-" and every other spelling of descriptor
 * 0 (/dev/stdin, /dev/fd/0, /proc/self/fd/0: rl_input_origin's "stdin"),
 * else path as given (a pipe's /dev/fd/63 stays, so a message names the
 * argument). */
const char *rl_input_shown(const char *path);

/* rl_input_shown(path) with each control byte as \xHH (error.h
 * rl_name_shown) into buf[len], returned: the name an error or a note
 * echoes (a path's newline would split the message in two, and read as
 * the message's own).  A buf of RL_SHOWN_PATH bytes holds any path whole;
 * a shorter one cuts between characters and ends in "...". */
const char *rl_input_named(const char *path, char *buf, size_t len);

/* What the content of input `path` (read by rl_read_input or
 * rl_fopen_stream) is recorded as where a name is derived from its file
 * name (fit's engine name and fitted_on.file, import-hf's spec name and
 * source) -- the one rule for all of them: NULL when path names it (a
 * file, or a FIFO made by mkfifo, whose name the user chose: its last part
 * serves as a file's does); else "stdin" for stdin however spelled ("-",
 * /dev/stdin, /dev/fd/0, /proc/self/fd/0, /proc/PID/fd/0: `fit /dev/fd/0
 * < runs.csv` records "stdin", as `fit - < runs.csv` does, not "0"; the
 * redirected file's name is not on the command line), "a pipe" for another
 * descriptor (/dev/fd/N, /proc/.../fd/N) that is a pipe, FIFO or socket (a
 * shell's <(...) as /dev/fd/63) or any path leading to an unnamed pipe,
 * and "a descriptor" for another descriptor on a file (`5< runs.csv` read
 * as /dev/fd/5).  A static string. */
const char *rl_input_origin(const char *path);

/* The whole input `path` (rl_fopen_stream: a file, a pipe or FIFO, "-" for
 * stdin) read once into a NUL-terminated buffer of *len bytes, at most max
 * (tester57 F2: fit's CSV, validate --against's and import-hf's config
 * refused a pipe that --trace reads; whether it has a file name to go by
 * is rl_input_origin's to say).  NULL with "NAME: reason" in err and
 * errno ENOMEM when memory ran out, EFBIG when larger than max. */
char *rl_read_input(const char *path, size_t max, size_t *len, char *err, size_t errlen);

/* rl_open_input as a zlib stream of a gzip-compressed file, noted (once accepted) as read
 * as `what` (guard.h rule 4: "a kernel table").  NULL with "PATH: reason" in
 * err, errno ENOENT when the file is absent (review23 L2: a table that is a
 * FIFO blocked gzopen forever), EINVAL when it is empty (0 bytes, or a gzip
 * stream of no text) or not gzip-compressed (plain text): each table read
 * so, kernel or collective, is refused so. */
struct gzFile_s *rl_gzopen_input(const char *path, const char *what, char *err, size_t errlen);

/* Create directory `dir` and its missing parents (mode 0755), like mkdir -p.
 * Where it created any, notes "created the output folder DIR" (rl_notice).
 * Returns 0, or -1 with err set. */
int rl_mkdir_p(const char *dir, char *err, size_t errlen);

/* Notices of what an output did beside writing its own file (issue 14 #4,
 * our rule: nothing is written outside the output folder without saying
 * so): a file named on the command line that existed and was replaced
 * (rl_write_atomic, rl_stage_commit, a figure and its .dat and .gp drawn
 * from a command-line path), a folder made (rl_mkdir_p).  The library does
 * not print: `fn` (the CLI's, which prints it on stderr as a note of the
 * running command; NULL: none, the default) gets each message, "note:
 * ...".  Not thread-safe: set it once before the command runs. */
void rl_notice_set(void (*fn)(const char *msg));
void rl_notice(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Whether `path` (relative to the directory fd `dir`, or AT_FDCWD) names
 * something that holds anything, not following a final symbolic link: what
 * a rename onto it would lose.  An empty file, as mkstemp or rl_stage leaves
 * it, loses nothing; a missing one is 0.  rl_rename_noted's test, and
 * plot.c render_at's for a figure's three files. */
int rl_file_has_content(int dir, const char *path);

/* renameat(fromdir, from, todir, to), then, when it replaced a file that
 * held anything (an empty one, as mkstemp or rl_stage leaves it, loses
 * nothing), rl_notice "SHOWN existed and was replaced" (the caller's path
 * for it).  Returns renameat's result, errno kept. */
int rl_rename_noted(int fromdir, const char *from, int todir, const char *to, const char *shown);

#endif
