/* outdir.h — an output directory that generated files cannot escape.
 *
 * Owns the rule for where scenario and plot outputs may go: a name given by
 * a script (roofline.write, roofline.plot, ...) is a relative path inside
 * the directory named on the command line (`roofline run --out DIR`).
 * calibrate writes its tables folder through one too (all or nothing).
 * Absolute names, ".." components, empty components, control characters and
 * paths through symbolic links are refused; missing subdirectories are
 * created.  The directory is held open for the run and every name is
 * resolved from that descriptor one component at a time (openat with
 * O_NOFOLLOW | O_DIRECTORY, mkdirat), never by re-walking a path string, so
 * a directory inside it renamed or swapped for a symbolic link while the run
 * writes cannot send a file outside.  Files are written atomically
 * (report.h rl_write_atomic_at: a temporary name beside the target, renamed
 * when complete, both relative to the file's open directory), and the
 * directory keeps the list of files it completed.
 *
 * A run's outputs are all or nothing (tester9 #7: a failed run replaced
 * older good files): before a name is first written its older file, if
 * any, is kept as a hard link in a hidden folder `.roofline-undo-XXXXXX`
 * inside the directory (a copy, mode kept, where no link can be made:
 * another mount, a file system without hard links, fs.protected_hardlinks;
 * review22 #4), named N and listed as "N<TAB>NAME" in that folder's NAMES
 * file before it is made (review22 #5); rl_outdir_undo (the run failed or
 * was interrupted) puts every older file the run replaced back, deletes
 * the copy of one it never rewrote (review22 #3) and removes the new ones,
 * rl_outdir_close drops the kept copies.  Only a run killed outright
 * (SIGKILL, a second signal) or an older file that cannot be put back
 * leaves the hidden folder behind, NAMES saying which file each copy is.
 * Folders a failed run created stay (empty).  No name may replace a file
 * roofline ships (guard.h rule 1) or a file the run has read (guard.h rule
 * 4: the scenario, tester9 #3; a spec it loaded, tester12 #8).
 *
 * Each name belongs to the output that first claimed it (rl_outdir_claim):
 * roofline.write, or one figure of roofline.plot with its data file and
 * gnuplot script.  The same output may write it again (a script rewriting
 * its summary, a figure drawn again); another output may not (tester11 #6:
 * two figures y.png and y.svg shared y.dat and y.gp, a roofline.write of
 * x.dat replaced figure x.png's data), as the command line refuses two
 * outputs naming one file (guard.h rule 3).
 * Uses report (rl_write_atomic_at, rl_mkdir_p), guard and POSIX *at calls.
 *
 * An output budget bounds what one run writes (docs/hardening.md, beside
 * the instruction, wall-clock and memory budgets): RL_OUTDIR_MAX_FILES
 * distinct files and RL_OUTDIR_MAX_BYTES bytes over all rl_outdir_write
 * calls (a rewrite counts again: the budget bounds the writing, not only
 * what stays on disk).  Our stated defaults, not from a source: far above
 * any shipped scenario (a handful of files of a few kB) and far below a
 * disk (tester3 item 15 wrote 1 GB in 14 s with none).  A write past the
 * budget is refused whole, before anything is written.
 *
 * Writers that produce several files (roofline.plot) claim each name first
 * (rl_outdir_claim), then rl_outdir_resolve the file's open directory,
 * write relative to it (plot.c), and rl_outdir_note the name. */
#ifndef RL_OUTDIR_H
#define RL_OUTDIR_H

#include <stddef.h>
#include <sys/types.h>

typedef struct {
    char root[4096];    /* canonical absolute path of the directory ("" until open) */
    int fd;             /* the directory, open while root[0] is set */
    char pending[4096]; /* rl_outdir_defer: the directory to open on first use */
    char **kept;     /* names written (relative, as given), in order */
    int nkept, cap;
    char **undo;     /* names journaled before their first write, in order, each
                        "NAME\0OWNER": the output that claimed it */
    struct rl_outdir_older {
        int state;   /* 1: its older file is kept in undo_fd; 2: could not be put back,
                        left there for the user; 0: none */
        dev_t dev;   /* the older file's identity: still there at undo means the run */
        ino_t ino;   /* never rewrote the name, and its copy is only deleted (review22 #3) */
    } *backed;       /* per undo name */
    int no_links;    /* keep older files by copying them, never by a hard link (tests; a
                        failed link falls back to a copy on its own) */
    int nundo, undo_cap;
    int undo_fd;     /* the hidden folder of older files (-1 until one is kept) */
    char undo_dir[32];
    int io_failed;       /* a file could not be written, or an older one kept, for a reason
                            of the file system (not a refused name): an output failure */
    long long bytes;     /* written so far by rl_outdir_write (rewrites included) */
    long long max_bytes; /* the budget; RL_OUTDIR_MAX_BYTES after open/defer */
    int max_files;       /* the budget; RL_OUTDIR_MAX_FILES after open/defer */
} rl_outdir;

#define RL_OUTDIR_MAX_BYTES (256LL << 20) /* 256 MiB a run */
#define RL_OUTDIR_MAX_FILES 1000          /* distinct files a run */

/* rl_outdir_open: another run holds the folder. */
#define RL_OUTDIR_BUSY (-2)

/* Open (creating it and its parents, report.h rl_mkdir_p, if missing) `dir`
 * and take its lock: one run writes a folder at a time (tester15 F-run-1:
 * two runs into one folder each put back the other's files, and the
 * original was lost).  The lock is an exclusive flock(2) on the folder
 * itself (no lock file to leave behind), dropped by rl_outdir_close or by
 * the kernel when the process ends, however it ends (SIGKILL included), so
 * a killed run never leaves a stale lock.  Returns 0; RL_OUTDIR_BUSY with
 * "DIR: another roofline run is writing to this folder ..." in err, having
 * touched nothing in it; or -1 with "DIR: reason" in err (not a directory,
 * cannot create, path too long). */
int rl_outdir_open(rl_outdir *o, const char *dir, char *err, size_t errlen);

/* The hidden undo folders an earlier run left in the open directory (a run
 * killed outright, a second Ctrl-C, an undo that could not put a file
 * back; tester11 #7: the next run said nothing), described in msg:
 * "ROOT/.roofline-undo-X holds the older copies of a.txt, b.txt" (the names
 * its NAMES gives the copies still there; the files of those names in the
 * directory are that run's).  Returns how many; 0 with msg "" when none or
 * the directory is not open. */
int rl_outdir_leftovers(const rl_outdir *o, char *msg, size_t msglen);

/* The files this run replaced that lie in roofline's own tree (guard.h
 * rl_guard_in_tree: its sources, docs and build files outside model/,
 * hw_profiles/ and out/), as a `--save` over one is said (tester13 #7: `run
 * --out .` in the checkout rewrote README.md silently).  Replacing them is
 * allowed: `make figures` writes docs/figures through `run --out`.  msg
 * reads "TOP: a, b, c and N more"; returns how many (0, msg "", when none).
 * Call before rl_outdir_close (after it the run's names are gone). */
int rl_outdir_in_tree(const rl_outdir *o, char *msg, size_t msglen);

/* The one rule for a folder named as an output (`run --out`, `--plot-dir`),
 * checked before the run: guard.h rule 2 for folders (rl_guard_folder: it,
 * or its nearest existing parent, is a folder that takes a new file; a
 * missing one is made with its missing parents, as calibrate's folders
 * are).  Returns -1 with the reason in why (exit 2), else 0 with what the
 * user should hear in note ("" when nothing): a folder that does not exist
 * ("does not exist: it will be made, with its missing parents, in NEAREST
 * when the run writes a file": a run that writes nothing makes nothing,
 * rl_outdir_defer; review35 L3; a
 * typo'd absolute path made at the file system's root was silent,
 * tester33 F3) and a folder of roofline's own tree outside model/,
 * hw_profiles/ and out/ ("is a folder of roofline's own tree (TOP) ...":
 * `--out scenarios` put new files beside the shipped scripts, tester33 F3),
 * as a --save there is said (guard.h rl_guard_in_tree).  A source folder of
 * such a tree, or one below it (guard.h rl_guard_source_folder: src/,
 * tests/, scenarios/, ...; existing or to be made), and the file system's
 * root `/` are refused (fixRD #1: `run --out tests/data/e2e` let a
 * roofline.write replace tracked test data, exit 0). */
int rl_outdir_check(const char *dir, char *note, size_t notelen, char *why, size_t whylen);

/* Like rl_outdir_open, but only on the first rl_outdir_resolve: a run that
 * writes nothing creates nothing (the default `out` of `roofline run`). */
void rl_outdir_defer(rl_outdir *o, const char *dir);

/* Free the list of kept names, drop the older files kept for an undo and
 * close the directory (it and its files stay). */
void rl_outdir_close(rl_outdir *o);

/* The run failed: put back every older file a name of this run replaced
 * and remove the files it created, then say so in msg ("kept nothing in
 * ROOT ...").  The kept list is emptied.  Returns how many files it could
 * not put back or remove (0: the folder's files are as the run found
 * them). */
int rl_outdir_undo(rl_outdir *o, char *msg, size_t msglen);

/* Check `name` and open the directory it goes in (creating missing
 * subdirectories), walking from the held root one component at a time.
 * Returns that directory's descriptor (the caller closes it; the file's own
 * name is the last component of `name`) and, when path is not NULL, the
 * absolute path for messages in path (pathlen bytes).  Returns -1 with
 * "NAME: reason" in err: empty, absolute, '..' or empty component, control
 * character, a first component beginning ".roofline-undo-" (the undo
 * folders' names), longer than 1024 bytes in all or RL_NAME_MAX (244) a component
 * (room for the temporary's suffix), a component that is a symbolic link or
 * not a directory, a target that is a directory, a symbolic link or not a
 * regular file (a FIFO, a device), a
 * shipped file (guard.h) or a file the run has read ("it is an input of
 * this run (model spec)").  Claims nothing: rl_outdir_claim does. */
int rl_outdir_resolve(rl_outdir *o, const char *name, char *path, size_t pathlen, char *err,
                      size_t errlen);

/* The one rule for an output name inside the --out directory
 * (roofline.write, roofline.plot, rl_outdir_resolve): not empty, at most
 * 1024 bytes, no control character, relative, no empty, '.' or '..'
 * component ("..txt" is a name, not a component), a first component not
 * beginning ".roofline-undo-" (the undo folders), no component longer than
 * RL_NAME_MAX; `plain` also refuses folders (a '/': roofline.plot's file).
 * 0, or -1 with "NAME: what part breaks the rule" in err (the name left
 * out where it is empty, too long or has a control character). */
int rl_outdir_check_name(const char *name, int plain, char *err, size_t errlen);

/* The owner of the names roofline.write writes. */
#define RL_OUTDIR_BY_WRITE "roofline.write"

/* rl_outdir_resolve, then claim `name` for `owner` (RL_OUTDIR_BY_WRITE,
 * "figure NAME.png"; a string the caller keeps or not) before its first
 * write: its older file is kept for an undo.  Also -1 when another owner
 * claimed the name ("NAME: it is another output of this run (OWNER)") or
 * the older file cannot be kept. */
int rl_outdir_claim(rl_outdir *o, const char *name, const char *owner, char *path,
                    size_t pathlen, char *err, size_t errlen);

/* 0 when writing `len` more bytes to NAME stays inside the output budget
 * (a NAME not yet kept is one more file); else -1 with "NAME: ..." naming
 * the budget spent in err. */
int rl_outdir_budget(const rl_outdir *o, const char *name, size_t len, char *err, size_t errlen);

/* Record a completed file (for the "kept" list).  Returns 0 or -1 (no memory). */
int rl_outdir_note(rl_outdir *o, const char *name);

/* rl_outdir_budget + rl_outdir_claim (RL_OUTDIR_BY_WRITE) + rl_write_atomic + rl_outdir_note:
 * write `len` bytes of `data` to NAME inside the directory.  Returns 0, or -1 with err set and
 * no file (complete or partial) left by this call. */
int rl_outdir_write(rl_outdir *o, const char *name, const char *data, size_t len, char *err,
                    size_t errlen);


#endif
