/* test_guard.c — what an output may not replace (guard.h): the files PRESETS
 * lists, PRESETS itself and the running program; targets that are not
 * writable files; two outputs of one run naming the same file.  Every case
 * runs in a temporary ROOFLINE_DATA, so a failure cannot harm the
 * repository's files (tester9 #1-#4, #6). */
#include "testutil.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>

#include "guard.h"
#include "report.h"
#include <zlib.h>

static char data[64];

/* Make the file `rel` (its folders too) below `top`, holding `text`. */
static void put_at(const char *top, const char *rel, const char *text)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", top, rel);
    for (char *c = p + strlen(top) + 1; (c = strchr(c, '/')); c++) {
        *c = '\0';
        mkdir(p, 0700);
        *c = '/';
    }
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void put(const char *rel, const char *text)
{
    put_at(data, rel, text);
}

static int setup(void **state)
{
    (void)state;
    snprintf(data, sizeof data, "/tmp/rl_guard_XXXXXX");
    if (!mkdtemp(data))
        return -1;
    char p[256];
    static const char *const dirs[] = {"model", "hw_profiles", "plots", "scenarios"};
    for (int i = 0; i < 4; i++) {
        snprintf(p, sizeof p, "%s/%s", data, dirs[i]);
        if (mkdir(p, 0700) != 0)
            return -1;
    }
    setenv("ROOFLINE_DATA", data, 1);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return remove_tree(data);
}

/* Kinds: a listed model and hardware spec, a listed plot template and
 * scenario (not protected before: PRESETS named specs only), PRESETS itself,
 * the running program; a file of the user's own beside them is not shipped.
 * The list is read once per set of data directories: a line added to
 * PRESETS later is seen only when ROOFLINE_DATA changes. */
static void shipped_files(void **state)
{
    (void)state;
    put("model/m.lua", "return {}\n");
    put("hw_profiles/h.lua", "return {}\n");
    put("plots/t.gp", "plot x\n");
    put("scenarios/s.lua", "print(1)\n");
    put("scenarios/own.lua", "print(2)\n");
    put("PRESETS", "model/m.lua\nhw_profiles/h.lua\nplots/t.gp\nscenarios/s.lua\n");
    setenv("ROOFLINE_DATA", "/nonexistent", 1); /* a fresh list below */
    assert_int_equal(rl_guard_shipped_file("/nonexistent"), RL_SHIPPED_NONE);
    setenv("ROOFLINE_DATA", data, 1);
    static const struct {
        const char *rel;
        int kind;
    } want[] = {{"model/m.lua", RL_SHIPPED_MODEL},   {"hw_profiles/h.lua", RL_SHIPPED_HW},
                {"plots/t.gp", RL_SHIPPED_DATA},     {"scenarios/s.lua", RL_SHIPPED_DATA},
                {"PRESETS", RL_SHIPPED_DATA},        {"scenarios/own.lua", RL_SHIPPED_NONE}};
    char p[256];
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        snprintf(p, sizeof p, "%s/%s", data, want[i].rel);
        if (rl_guard_shipped_file(p) != want[i].kind)
            fail_msg("%s: kind %d, expected %d", want[i].rel, rl_guard_shipped_file(p), want[i].kind);
    }
    assert_int_equal(rl_guard_shipped_file("/proc/self/exe"), RL_SHIPPED_PROGRAM);
    assert_non_null(strstr(rl_guard_shipped_why(RL_SHIPPED_PROGRAM), "the roofline program"));
    /* cached: own.lua listed now is not seen until the directories change */
    put("PRESETS", "model/m.lua\nscenarios/own.lua\n");
    snprintf(p, sizeof p, "%s/scenarios/own.lua", data);
    assert_int_equal(rl_guard_shipped_file(p), RL_SHIPPED_NONE);
    char again[128];
    snprintf(again, sizeof again, "%s/.", data); /* the same folder, another key */
    setenv("ROOFLINE_DATA", again, 1);
    assert_int_equal(rl_guard_shipped_file(p), RL_SHIPPED_DATA);
    setenv("ROOFLINE_DATA", data, 1);
}

/* A target is refused before any work when it is a folder, not a regular
 * file (/dev/full), in a folder that takes no file (/proc/self), in a
 * missing folder, or shipped; a new file in a writable folder passes, and
 * with may_create so does one in folders the run will make, unless a file
 * stands where one of them would go. */
static void targets(void **state)
{
    (void)state;
    put("PRESETS", "plots/t.gp\n");
    setenv("ROOFLINE_DATA", "/nonexistent", 1);
    rl_guard_shipped_file("/nonexistent");
    setenv("ROOFLINE_DATA", data, 1);
    char p[256], why[512];
    static const struct {
        const char *path, *fragment;
    } bad[] = {{"/tmp", "exists and is not a regular file (a folder)"},
               {"/dev/full", "a device, pipe or socket"},
               {"/proc/self/x", "its folder '/proc/self' is on procfs (/proc), a virtual file system"}, /* tester22 F13 */
               {"/nonexistent/x.json", "its folder does not exist"},
               {"/tmp/", "names a folder"},
               {"/tmp/a\nb.json", "control character (byte 0x0a)"}, /* tester10 #12 */
               {"-", "'-' is not standard output here"}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        why[0] = '\0';
        if (rl_guard_target(bad[i].path, 0, why, sizeof why) == 0 || !strstr(why, bad[i].fragment))
            fail_msg("%s: expected '%s', got '%s'", bad[i].path, bad[i].fragment, why);
    }
    snprintf(p, sizeof p, "%s/plots/t.gp", data);
    assert_int_equal(rl_guard_target(p, 0, why, sizeof why), -1);
    assert_non_null(strstr(why, "roofline ships"));
    snprintf(p, sizeof p, "%s/new.json", data);
    assert_int_equal(rl_guard_target(p, 0, why, sizeof why), 0);
    /* tester23 F9: a symlink whose target is absent is refused before the
     * run (exit 2), not when written (exit 1); one to a file is taken */
    char t[300];
    snprintf(p, sizeof p, "%s/dangling.txt", data);
    snprintf(t, sizeof t, "%s/absent.txt", data);
    assert_int_equal(symlink(t, p), 0);
    assert_int_equal(rl_guard_target(p, 0, why, sizeof why), -1);
    assert_non_null(strstr(why, "a symlink whose target cannot be resolved (No such file"));
    put("absent.txt", "x\n");
    assert_int_equal(rl_guard_target(p, 0, why, sizeof why), 0);
    assert_int_equal(unlink(p), 0);
    assert_int_equal(unlink(t), 0);
    snprintf(p, sizeof p, "%s/made/new.svg", data);
    assert_int_equal(rl_guard_target(p, 0, why, sizeof why), -1);
    assert_int_equal(rl_guard_target(p, 1, why, sizeof why), 0);
    snprintf(p, sizeof p, "%s/made/deeper/new.svg", data); /* made with its parents */
    assert_int_equal(rl_guard_target(p, 1, why, sizeof why), 0);
    put("afile", "x\n");
    snprintf(p, sizeof p, "%s/afile/deeper/new.svg", data);
    assert_int_equal(rl_guard_target(p, 1, why, sizeof why), -1);
    assert_non_null(strstr(why, "afile' exists and is not a folder"));
    /* no probe file left behind */
    char cmd[256];
    snprintf(cmd, sizeof cmd, "find %s -name '.roofline-probe-*' | grep -q .", data);
    assert_int_not_equal(system(cmd), 0);
}

/* Two outputs of a run naming one file: the same path, the same file
 * through './' or a hard link, a file in a folder still to be made; two
 * different files pass. */
static void distinct_outputs(void **state)
{
    (void)state;
    static rl_guard_outputs s;
    char a[256], b[256], err[1024];
    s.n = 0;
    snprintf(a, sizeof a, "%s/g.png", data);
    assert_int_equal(rl_guard_distinct(&s, "--plot", a, err, sizeof err), 0);
    snprintf(b, sizeof b, "%s/./g.png", data);
    assert_int_equal(rl_guard_distinct(&s, "--save", b, err, sizeof err), -1);
    assert_non_null(strstr(err, "--save and --plot name the same file"));
    snprintf(b, sizeof b, "%s/g.dat", data);
    assert_int_equal(rl_guard_distinct(&s, "--plot's data file", b, err, sizeof err), 0);
    put("real.csv", "x\n");
    snprintf(a, sizeof a, "%s/real.csv", data);
    snprintf(b, sizeof b, "%s/link.csv", data);
    assert_int_equal(link(a, b), 0);
    assert_int_equal(rl_guard_distinct(&s, "--save", a, err, sizeof err), 0);
    assert_int_equal(rl_guard_distinct(&s, "--output", b, err, sizeof err), -1);
    snprintf(a, sizeof a, "%s/pd/latency_cdf.dat", data);
    assert_int_equal(rl_guard_distinct(&s, "a --plot-dir figure", a, err, sizeof err), 0);
    snprintf(b, sizeof b, "%s/../%s/pd/latency_cdf.dat", data, strrchr(data, '/') + 1);
    assert_int_equal(rl_guard_distinct(&s, "--save", b, err, sizeof err), -1);
    assert_non_null(strstr(err, "--save and a --plot-dir figure name the same file"));
}

/* review22 #9: a path 540 missing folders deep is compared by its nearest
 * existing folder without a stack frame per folder (the recursion took
 * ~12 kB a level: 6.5 MB here, run on a 512 kB thread stack), two names
 * there stay distinct, and a path whose canonical form passes 4095 bytes
 * is refused as too long rather than cut (cut names collided). */
static void *deep_paths(void *arg)
{
    static rl_guard_outputs s;
    char *err = arg, *p = malloc(8192);
    s.n = 0;
    int at = snprintf(p, 8192, "%s/deep", data);
    for (int i = 0; i < 540; i++)
        at += snprintf(p + at, (size_t)(8192 - at), "/d");
    snprintf(p + at, (size_t)(8192 - at), "/a.svg");
    int rc = rl_guard_distinct(&s, "a --plot-dir figure", p, err, 1024);
    snprintf(p + at, (size_t)(8192 - at), "/b.svg");
    rc = rc * 10 + rl_guard_distinct(&s, "another figure", p, err, 1024);
    for (int i = 0; i < 1600; i++)
        at += snprintf(p + at, (size_t)(8192 - at), "/d");
    rc = rc * 10 + rl_guard_distinct(&s, "a long one", p, err, 1024);
    free(p);
    return (void *)(long)rc;
}

static void deep_missing_folders(void **state)
{
    (void)state;
    char err[1024];
    pthread_attr_t attr;
    pthread_t t;
    void *rc;
    assert_int_equal(pthread_attr_init(&attr), 0);
    assert_int_equal(pthread_attr_setstacksize(&attr, 512 << 10), 0);
    assert_int_equal(pthread_create(&t, &attr, deep_paths, err), 0);
    assert_int_equal(pthread_join(t, &rc), 0);
    pthread_attr_destroy(&attr);
    assert_int_equal((long)rc, -1); /* 0, 0, then -1 */
    assert_non_null(strstr(err, "a long one"));
    assert_non_null(strstr(err, "path too long"));
}

/* tester11 #5: a file of the tree roofline ships (a data directory holding
 * PRESETS) outside model/, hw_profiles/ and out/ is named with that
 * directory, also through a path with '..'; the user's own files there, a
 * missing file and a file outside are not; a data directory without
 * PRESETS is no such tree. */
static void own_tree_named(void **state)
{
    (void)state;
    char p[256], tree[4096], real[4096];
    snprintf(p, sizeof p, "%s/src", data);
    mkdir(p, 0700);
    snprintf(p, sizeof p, "%s/out", data);
    mkdir(p, 0700);
    put("PRESETS", "model/m.lua\n");
    put("src/main.c", "int main(void) { return 0; }\n");
    put("README.md", "# roofline\n");
    put("model/mine.lua", "return {}\n");
    put("hw_profiles/mine.lua", "return {}\n");
    put("out/r.json", "{}\n");
    assert_non_null(realpath(data, real));
    static const struct {
        const char *rel;
        int in;
    } want[] = {{"src/main.c", 1},   {"model/../README.md", 1}, {"model/mine.lua", 0},
                {"hw_profiles/mine.lua", 0}, {"out/r.json", 0}, {"src/missing.c", 0}};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        snprintf(p, sizeof p, "%s/%s", data, want[i].rel);
        tree[0] = '\0';
        if (rl_guard_in_tree(p, tree, sizeof tree) != want[i].in)
            fail_msg("%s: expected %d", want[i].rel, want[i].in);
        if (want[i].in)
            assert_string_equal(tree, real);
    }
    char tmp[] = "/tmp/rl_guard_out_XXXXXX";
    int fd = mkstemp(tmp);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(rl_guard_in_tree(tmp, tree, sizeof tree), 0);
    unlink(tmp);
    snprintf(p, sizeof p, "%s/PRESETS", data);
    rename(p, tmp);
    snprintf(p, sizeof p, "%s/src/main.c", data);
    assert_int_equal(rl_guard_in_tree(p, tree, sizeof tree), 0); /* no PRESETS: no tree */
    snprintf(p, sizeof p, "%s/PRESETS", data);
    rename(tmp, p);
}

/* A folder below a tree's top, and whether rl_guard_source_folder calls it
 * a source folder. */
typedef struct {
    const char *rel;
    int in;
} folder_want;

/* A path below a tree's top, what rl_guard_tree_source calls it and
 * whether the tree it names is `clone` (else `real`, the top's). */
typedef struct {
    const char *rel;
    int src, clone;
} source_want;

static void sources_are(const char *top, const source_want *w, size_t n, const char *real,
                        const char *clone)
{
    char p[512], tree[4096];
    for (size_t i = 0; i < n; i++) {
        snprintf(p, sizeof p, "%s/%s", top, w[i].rel);
        tree[0] = '\0';
        int got = rl_guard_tree_source(p, tree, sizeof tree);
        if (got != w[i].src)
            fail_msg("%s: %d, expected %d", w[i].rel, got, w[i].src);
        if (got)
            assert_string_equal(tree, w[i].clone ? clone : real);
    }
}

static void source_folders_are(const char *top, const folder_want *w, size_t n)
{
    char p[512];
    for (size_t i = 0; i < n; i++) {
        snprintf(p, sizeof p, "%s/%s", top, w[i].rel);
        if (rl_guard_source_folder(p) != w[i].in)
            fail_msg("folder %s: expected %d", w[i].rel, w[i].in);
    }
}

/* fixNE #1: a source of the tree is one by its name and place, whether it
 * exists or not (a new src/x.json was written, then its rerun refused as
 * an existing source): a new file in src/ or in a missing folder below it
 * (by the folder rule), a new .c at the top (by the name rule); a new
 * .json, .lua (README's `--save host.lua`) or .gp at the top, and a file
 * in out/ or build/, are none.  scenarios/ and a folder below src/ are
 * source folders (`run --out scenarios` is refused, fixRD #1), and so is
 * a missing folder below one (src/none/deeper, tests/none: until fixRD #1
 * only an existing folder was judged); the top, out/ and a missing folder
 * at the top or in out/ are not. */
static void new_sources_named(void **state)
{
    (void)state;
    char p[256], real[4096];
    snprintf(p, sizeof p, "%s/src", data);
    mkdir(p, 0700);
    snprintf(p, sizeof p, "%s/src/sub", data);
    mkdir(p, 0700);
    put("PRESETS", "model/m.lua\n");
    assert_non_null(realpath(data, real));
    static const source_want want[] = {{"src/new.json", RL_GUARD_SOURCE_FOLDER, 0},
                {"src/missing/new.json", RL_GUARD_SOURCE_FOLDER, 0},
                {"scenarios/n.txt", RL_GUARD_SOURCE_FOLDER, 0},
                {"new.c", RL_GUARD_SOURCE_NAME, 0},
                {"src/new.c", RL_GUARD_SOURCE_NAME, 0},
                {"x.json", 0, 0},
                {"host.lua", 0, 0},
                {"f.gp", 0, 0},
                {"out/r.json", 0, 0},
                {"build/x.c", 0, 0}};
    sources_are(data, want, sizeof want / sizeof *want, real, NULL);
    static const folder_want folders[] = {
        {"src", 1}, {"src/sub", 1}, {"scenarios", 1}, {".", 0}, {"model", 0},
        {"src/none/deeper", 1}, {"tests/none", 1}, {"out/none", 0}, {"none", 0}};
    source_folders_are(data, folders, sizeof folders / sizeof *folders);
}

/* fixNH #1: the source rule holds in any roofline tree (a folder holding
 * PRESETS, found by walking up from the file), not only in the data
 * directory the program reads (ROOFLINE_DATA here is `data`): a clone's
 * src/main.c, Makefile, makefile (lower case), GNUmakefile, new files in
 * scenarios/, tests/ and calib/ were replaced by another checkout's binary.
 * Its model/, hw_profiles/, out/, a .lua and a .gp at its top stay
 * writable.  Nested trees: a tree in another's out/ (a clone there) guards
 * its own sources; a tree below another's tests/ (a test's tree) lies in
 * that source folder, out/ of it too. */
static void other_tree_sources(void **state)
{
    (void)state;
    char other[] = "/tmp/rl_guard_other_XXXXXX", p[512], tree[4096], real[4096], clone[4200];
    assert_non_null(mkdtemp(other));
    put_at(other, "PRESETS", "");
    put_at(other, "src/main.c", "int main(void) { return 0; }\n");
    put_at(other, "Makefile", "all:\n");
    put_at(other, "scenarios/s.lua", "print(1)\n");
    put_at(other, "model/mine.lua", "return {}\n");
    put_at(other, "out/clone/PRESETS", "");
    put_at(other, "tests/fake/PRESETS", "");
    put_at(other, "tests/fake/out/r.json", "{}\n");
    assert_non_null(realpath(other, real));
    snprintf(clone, sizeof clone, "%s/out/clone", real);
    static const source_want want[] = { /* clone: the tree named is out/clone */
                {"src/main.c", RL_GUARD_SOURCE_NAME, 0},
                {"Makefile", RL_GUARD_SOURCE_NAME, 0},
                {"makefile", RL_GUARD_SOURCE_NAME, 0},
                {"GNUmakefile", RL_GUARD_SOURCE_NAME, 0},
                {"scenarios/new.lua", RL_GUARD_SOURCE_FOLDER, 0},
                {"tests/new.txt", RL_GUARD_SOURCE_FOLDER, 0},
                {"calib/x.json", RL_GUARD_SOURCE_FOLDER, 0},
                {"tests/fake/out/r.json", RL_GUARD_SOURCE_FOLDER, 0},
                {"out/clone/src/a.c", RL_GUARD_SOURCE_NAME, 1},
                {"out/clone/Makefile", RL_GUARD_SOURCE_NAME, 1},
                {"out/clone/out/r.json", 0, 0},
                {"host.lua", 0, 0},
                {"f.gp", 0, 0},
                {"x.json", 0, 0},
                {"model/mine.lua", 0, 0},
                {"hw_profiles/h.lua", 0, 0},
                {"out/r.json", 0, 0}};
    sources_are(other, want, sizeof want / sizeof *want, real, clone);
    snprintf(p, sizeof p, "%s/src/main.c", other); /* the note of an existing file */
    assert_int_equal(rl_guard_in_tree(p, tree, sizeof tree), 1);
    assert_string_equal(tree, real);
    static const folder_want folders[] = {
        {"src", 1}, {"scenarios", 1}, {".", 0}, {"model", 0}, {"out", 0}};
    source_folders_are(other, folders, sizeof folders / sizeof *folders);
    assert_int_equal(remove_tree(other), 0);
}

/* Rule 4 records a table only once rl_gzopen_input accepts it (stop 38
 * #6): a plain-text "kernel table" is refused and is not then "read as a
 * kernel table" (a later write to it was refused as an input); a gzipped
 * one is. */
static void refused_table_not_read(void **state)
{
    (void)state;
    char p[256], err[512];
    struct stat st;
    snprintf(p, sizeof p, "%s/plain.csv.gz", data);
    put("plain.csv.gz", "a,b\n1,2\n");
    assert_int_equal(stat(p, &st), 0);
    rl_guard_reads_begin();
    assert_null(rl_gzopen_input(p, "a kernel table", err, sizeof err));
    assert_non_null(strstr(err, "not gzip-compressed"));
    assert_null(rl_guard_was_read(&st));
    gzFile w = gzopen(p, "wb");
    assert_non_null(w);
    gzputs(w, "a,b\n1,2\n");
    assert_int_equal(gzclose(w), Z_OK);
    assert_int_equal(stat(p, &st), 0);
    gzFile g = rl_gzopen_input(p, "a kernel table", err, sizeof err);
    assert_non_null(g);
    gzclose(g);
    assert_non_null(rl_guard_was_read(&st));
    assert_string_equal(rl_guard_was_read(&st), "a kernel table");
    rl_guard_reads_end();
    unlink(p);
}

/* fixJH: another roofline tree (a folder with a PRESETS that is not a data
 * directory: a second checkout) is guarded as the own one, and a target is
 * judged where the write lands, through a symbolic link.  Expected: every
 * case below refused (-1) with its kind's reason; a file of the user's own
 * in that tree's model/ and a link to a plain file are taken (0).  Before
 * the fix, all but the data directory's own files were taken. */
static void other_tree_and_links(void **state)
{
    (void)state;
    char tree[] = "/tmp/rl_guard_other_XXXXXX", p[256], t[256], why[512];
    assert_non_null(mkdtemp(tree));
    static const char *const dirs[] = {"docs", "model"};
    for (int i = 0; i < 2; i++) {
        snprintf(p, sizeof p, "%s/%s", tree, dirs[i]);
        assert_int_equal(mkdir(p, 0700), 0);
    }
    static const char *const files[] = {"PRESETS", "README.md", "docs/a.md", "model/m.lua",
                                        "plain.txt"};
    for (int i = 0; i < 5; i++) {
        snprintf(p, sizeof p, "%s/%s", tree, files[i]);
        FILE *f = fopen(p, "w");
        assert_non_null(f);
        fputs(i == 0 ? "model/m.lua\n" : "x\n", f);
        fclose(f);
    }
    static const struct {
        const char *rel, *fragment;
    } bad[] = {{"README.md", "README.md and docs/*.md of a roofline tree"},
               {"docs/a.md", "README.md and docs/*.md"},
               {"docs/new.md", "README.md and docs/*.md"}, /* a new one too */
               {"PRESETS", "PRESETS itself"},
               {"model/m.lua", "a shipped preset"}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(p, sizeof p, "%s/%s", tree, bad[i].rel);
        why[0] = '\0';
        if (rl_guard_target(p, 0, why, sizeof why) == 0 || !strstr(why, bad[i].fragment))
            fail_msg("%s: expected '%s', got '%s'", bad[i].rel, bad[i].fragment, why);
        /* the same through a link outside the tree (the README really replaced) */
        snprintf(t, sizeof t, "%s/link%zu.json", data, i);
        assert_int_equal(symlink(p, t), 0);
        why[0] = '\0';
        int rc = i == 2 ? 0 : rl_guard_target(t, 0, why, sizeof why); /* a dangling link */
        if (i != 2 && (rc == 0 || !strstr(why, bad[i].fragment)))
            fail_msg("link to %s: expected '%s', got '%s'", bad[i].rel, bad[i].fragment, why);
        unlink(t);
    }
    snprintf(p, sizeof p, "%s/model/mine.lua", tree);
    assert_int_equal(rl_guard_target(p, 0, why, sizeof why), 0);
    snprintf(p, sizeof p, "%s/plain.txt", tree);
    snprintf(t, sizeof t, "%s/link.json", data);
    assert_int_equal(symlink(p, t), 0);
    assert_int_equal(rl_guard_target(t, 0, why, sizeof why), 0);
    unlink(t);
    /* a link to a folder holding the tree: the resolved folder is judged */
    snprintf(t, sizeof t, "%s/treelink", data);
    assert_int_equal(symlink(tree, t), 0);
    snprintf(p, sizeof p, "%s/treelink/docs/x.md", data);
    assert_int_equal(rl_guard_target(p, 0, why, sizeof why), -1);
    unlink(t);
    assert_int_equal(remove_tree(tree), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shipped_files),
        cmocka_unit_test(targets),
        cmocka_unit_test(distinct_outputs),
        cmocka_unit_test(own_tree_named),
        cmocka_unit_test(new_sources_named),
        cmocka_unit_test(other_tree_sources),
        cmocka_unit_test(deep_missing_folders),
        cmocka_unit_test(refused_table_not_read),
        cmocka_unit_test(other_tree_and_links),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
