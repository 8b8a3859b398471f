/* guard.h — what a file roofline writes may not replace, checked before the run.
 *
 * Owns three rules behind every output (--save, --output, --plot and its
 * side files, --report, --plot-dir, calibrate's raw samples and tables,
 * run --out and roofline.write):
 *
 * 1. What roofline ships or runs from is never replaced: the files listed in
 *    PRESETS at the top of a data directory (spec.h rl_data_dirs; the
 *    tracked model and hardware specs, plots/NAME.gp templates and
 *    scenarios/NAME.lua: `make presets` writes it from git ls-files), PRESETS
 *    itself (tester9 #1: a --save over it switched the guard off), and the
 *    running program (/proc/self/exe; tester9 #2), each compared by device
 *    and inode.  The list is read once per process and set of data
 *    directories (a scenario writing thousands of files used to read PRESETS
 *    and stat every listed file for each).
 * 2. A file named on the command line is writable before any work: its
 *    name has no control character (tester10 #12: --save $'a\nb.json'
 *    made one) and is not "-" (not standard output: ./- names such a
 *    file), its folder exists and takes a new file (tried: a temporary
 *    file is created and removed), the name is not a folder, and an existing
 *    file there is a
 *    regular file (tester9 #4: a directory, /dev/full or /proc/self/x failed
 *    only after the run).
 * 3. No two outputs of one run name the same file (tester9 #6: pareto
 *    --plot g.png --save g.png lost the figure): names are compared as
 *    canonical paths (the folder resolved by realpath), and existing files
 *    also by device and inode (hard links, symbolic links).
 * 4. A scenario's outputs do not replace what it has read (tester12 #8: a
 *    roofline.write replaced the model spec the same script had loaded
 *    through roofline.step{model=PATH}): while a recording is open
 *    (rl_guard_reads_begin .. rl_guard_reads_end, around a scenario's run)
 *    every file opened as an input (report.h rl_open_input: the scenario,
 *    model and hardware specs and their bases, engine files, traces, CSVs;
 *    the kernel tables' gzip files) is noted by device and inode with what
 *    it is, and outdir.c refuses an output that is one of them.
 *
 * The command line's inputs are checked before the run by the caller (cli.c
 * is_input); a scenario's are known only as it reads them (rule 4).  Uses
 * spec (rl_data_dirs). */
#ifndef RL_GUARD_H
#define RL_GUARD_H

#include <stddef.h>
#include <sys/types.h>

struct stat;

/* What a shipped file is, for the message. */
enum { RL_SHIPPED_NONE, RL_SHIPPED_MODEL, RL_SHIPPED_HW, RL_SHIPPED_DATA, RL_SHIPPED_PROGRAM,
       RL_SHIPPED_DOC };

/* Whether the file of stat `st` is shipped (rule 1): RL_SHIPPED_NONE or its
 * kind (model/: MODEL; hw_profiles/...: HW; PRESETS, plots/, scenarios/:
 * DATA; the running binary: PROGRAM; README.md and the .md files of docs/ beside
 * PRESETS: DOC, tester46 F10 -- not docs/sizing/ or docs/figures/, which
 * roofline's own commands regenerate). */
int rl_guard_shipped(const struct stat *st);

/* The same for an existing path (0 when missing or not a regular file). */
int rl_guard_shipped_file(const char *path);

/* Why a shipped file of `kind` is refused, for "NAME: <why>". */
const char *rl_guard_shipped_why(int kind);

/* Whether a file named `leaf` in the folder whose canonical path (realpath)
 * is `folder` is a file of a roofline tree (any folder holding a PRESETS,
 * not only the data directories: fixJH, a --save replaced another
 * checkout's README.md), by its name, whether it exists or not: README.md or
 * PRESETS at a tree's top, a .md file directly in its docs/ (not
 * docs/figures/ or docs/sizing/, which roofline regenerates), or a path that
 * tree's PRESETS lists.  Such a file is never written, new or existing
 * (tester47 F6).  RL_SHIPPED_NONE, or the kind (DOC, DATA, MODEL, HW) for
 * rl_guard_shipped_why.  Callers pass the folder a write really reaches: a
 * symbolic link is judged by its resolved target. */
int rl_guard_doc_name(const char *folder, const char *leaf);

/* Whether the existing file `path` lies in a roofline tree (the nearest
 * folder at or above it holding a PRESETS, as rl_guard_doc_name finds one:
 * the source checkout, another checkout, an install's share/roofline;
 * fixNH #1: not only the running program's data directories; the trees
 * holding it are tried nearest first, outward) outside the folders a user's own files go to there
 * (model/, hw_profiles/, out/): its sources, docs and build files, which
 * rule 1 does not protect (tester11 #5: --save src/main.c replaced it
 * silently).  A replacement is allowed (the generators write docs/figures
 * and docs/sizing so) but said: 1 with that directory in tree[len], else
 * 0. */
int rl_guard_in_tree(const char *path, char *tree, size_t len);

/* The same for a file `path` that does not exist yet (its folder does): 1
 * with the tree's top in tree[len] when it would be a new file of a
 * roofline tree outside model/, hw_profiles/ and out/ (issue 14 #4: size
 * --report docs/sizing/NEW.md was written there without a word), else 0. */
int rl_guard_in_tree_new(const char *path, char *tree, size_t len);

/* The hint of a refusal inside a roofline tree: where outputs go there.
 * A fresh clone has no out/: `run` makes its --out folder, --save, --report
 * and --plot do not (their folder must exist), so the hint says how to make
 * it (fixRC #1: the hint pointed to a folder --save then refused). */
#define RL_GUARD_OUT_HINT                                                                        \
    "out/ is the tree's folder for outputs: `run` makes it; for --save, --report or --plot "    \
    "there, make it first: mkdir out"

/* Whether the file `path`, existing or to be made, is one of the sources
 * of such a tree (rl_guard_in_tree, then by its place and name: a Makefile,
 * makefile or GNUmakefile, or a .c, .h, .cu, .cuh, .cc, .cpp, .py, .sh or .mk file outside build*\/
 * and docs/, or any file below src/, calib/, reference_engine/, tests/,
 * bench/, fuzz/, scripts/, tools/, scenarios/ or plots/), which --save,
 * --output and --report refuse to write, a new file as an existing one
 * (tester76 #2; fixNE #1: a new src/x.json was written, its rerun
 * refused).  .lua and .gp outside those folders are roofline's own outputs
 * (review57).  RL_GUARD_SOURCE_NAME (a source by its name) or
 * RL_GUARD_SOURCE_FOLDER (by its folder) with the tree's top in tree[len],
 * else 0. */
#define RL_GUARD_SOURCE_NAME 1
#define RL_GUARD_SOURCE_FOLDER 2
int rl_guard_tree_source(const char *path, char *tree, size_t len);
/* Why an output file's missing folder is refused, not made (fixTB #6:
 * `run --out /a/b` made /a/b while `--plot /a/b.png` refused /a, unsaid
 * which rule held): the folders named as outputs are made with their
 * parents, and said (rl_outdir_check, README "nothing written outside the
 * output folder without a word"); a file's folder is not, so a typo'd
 * --save path writes nothing.  After "its folder does not exist ('F'". */
#define RL_GUARD_NO_FOLDER_WHY                                                                   \
    "; roofline makes the folders named as outputs, run --out, --plot-dir and calibrate "       \
    "--tables-out, with their missing parents, never an output file's folder: make it first)"

#define RL_GUARD_TREE_SOURCE_WHY                                                                 \
    "it is a source file of roofline's own tree (a Makefile, a source file, or a file of its "    \
    "source folders), which roofline never writes, an existing file or a new one; write to "    \
    "another file (" RL_GUARD_OUT_HINT ")"

/* Whether the folder `dir`, existing or to be made, is a source folder of
 * such a tree, or a folder below one (src/, tests/, scenarios/, ...:
 * rl_guard_tree_source).  `run --out` and `--plot-dir` refuse one (fixRD
 * #1: `run --out tests/data/e2e` let roofline.write replace tracked test
 * data, exit 0 with a note; until then tester33 F3 wrote there, said). */
int rl_guard_source_folder(const char *dir);

/* The preset folder `path` would lie in: "model" or "hw_profiles" when
 * its folder is that folder of a data directory (spec.h rl_data_dirs,
 * where `list` and a preset name look), else NULL.  A .lua result there
 * is refused: --save (cli.c check_result_name) and a file of run --out
 * (outdir.c rl_outdir_resolve; tester101). */
const char *rl_guard_preset_folder(const char *path);

/* The same for a folder the run writes into, existing or to be made: its
 * nearest existing folder (itself, or a parent) goes to nearest[nlen]; 1
 * with the tree's top in tree[len] when it is that tree's top or a folder
 * of the tree outside model/, hw_profiles/ and out/ (tester33 F3: `run
 * --out scenarios` put new files beside the shipped scripts), else 0. */
int rl_guard_folder_in_tree(const char *dir, char *nearest, size_t nlen, char *tree, size_t len);

/* Rule 2 for `path`, a file the run writes.  `may_create` set: its folder
 * may be missing, as rl_guard_folder allows (the run makes it).  0, or -1
 * with the reason (without the path) in why. */
int rl_guard_target(const char *path, int may_create, char *why, size_t whylen);

/* Rule 2 for a folder the run writes into, made with its missing parents
 * (report.h rl_mkdir_p): the nearest existing one of it and its parents is
 * a folder that takes a new file; a dangling symbolic link on the way is
 * refused (not taken for a folder to make).  0, or -1 with the reason in
 * why. */
int rl_guard_folder(const char *dir, char *why, size_t whylen);

/* Rule 4: open a recording of the files read (forgetting an earlier one),
 * and close it.  Without one, rl_guard_read notes nothing. */
void rl_guard_reads_begin(void);
void rl_guard_reads_end(void);

/* Note the file of stat `st` (rl_guard_read) or at `path`
 * (rl_guard_read_path; a missing path is ignored) as read, `what` naming it
 * ("model spec", a static string); NULL keeps an earlier name, or says
 * "a file it read". */
void rl_guard_read(const struct stat *st, const char *what);
void rl_guard_read_path(const char *path, const char *what);

/* What the file of stat `st` was read as in the open recording, or NULL. */
const char *rl_guard_was_read(const struct stat *st);

/* Rule 3: the outputs of one run seen so far. */
#define RL_GUARD_MAX_OUTPUTS 32
typedef struct {
    struct {
        char canon[4096];  /* folder resolved by realpath + '/' + leaf */
        char label[96];    /* "--save", "--plot's data file", ... */
        dev_t dev;
        ino_t ino;
        int exists;
    } v[RL_GUARD_MAX_OUTPUTS];
    int n;
} rl_guard_outputs;

/* Add the output `path`, written for `label`, to s.  0, or -1 with
 * "LABEL and EARLIER name the same file 'PATH'" in err when an earlier
 * output is that file (or s is full). */
int rl_guard_distinct(rl_guard_outputs *s, const char *label, const char *path, char *err,
                      size_t errlen);

#endif
