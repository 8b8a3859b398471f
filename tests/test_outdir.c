/* test_outdir.c — output confinement: names that would escape the --out
 * directory are refused, good names are written atomically and listed. */
#include "testutil.h"

#include <sys/stat.h>

#include "outdir.h"

static char root[64];

static int setup(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "/tmp/rl_outdir_XXXXXX");
    if (!mkdtemp(root))
        return -1;
    char p[256];
    snprintf(p, sizeof p, "%s/sub", root);
    mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/escape", root);
    if (symlink("/tmp", p) != 0) /* a directory link pointing out of the root */
        return -1;
    snprintf(p, sizeof p, "%s/filelink", root);
    return symlink("/tmp/rl_outdir_target_never_written", p);
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    return system(cmd) == 0 ? 0 : -1;
}

static void expect_refused(rl_outdir *o, const char *name, const char *fragment)
{
    char path[4200], err[1024] = "";
    if (rl_outdir_resolve(o, name, path, sizeof path, err, sizeof err) == 0)
        fail_msg("'%s' was accepted as %s", name, path);
    if (!strstr(err, fragment))
        fail_msg("refusal of '%s' lacks '%s': %s", name, fragment, err);
}

static void refuses_escapes(void **state)
{
    (void)state;
    rl_outdir o;
    char err[1024];
    assert_int_equal(rl_outdir_open(&o, root, err, sizeof err), 0);
    expect_refused(&o, "", "empty");
    expect_refused(&o, "/etc/passwd", "absolute");
    expect_refused(&o, "../x", "'..'");
    expect_refused(&o, "sub/../../x", "'..'");
    expect_refused(&o, "./x", "'.'");
    expect_refused(&o, "a//b", "empty path component");
    expect_refused(&o, "a/", "empty path component");
    expect_refused(&o, "bad\nname", "control character");
    expect_refused(&o, "escape/x", "symbolic link");
    expect_refused(&o, "filelink", "symbolic link");
    expect_refused(&o, "sub", "a directory");
    char longname[2000];
    memset(longname, 'a', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    expect_refused(&o, longname, "longer than");
    rl_outdir_close(&o);
    struct stat st;
    assert_int_not_equal(lstat("/tmp/rl_outdir_target_never_written", &st), 0);
}

static void writes_atomically_and_lists(void **state)
{
    (void)state;
    rl_outdir o;
    char err[1024], path[256];
    assert_int_equal(rl_outdir_open(&o, root, err, sizeof err), 0);
    assert_int_equal(rl_outdir_write(&o, "a.csv", "x,y\n", 4, err, sizeof err), 0);
    assert_int_equal(rl_outdir_write(&o, "new/dir/b.txt", "hi", 2, err, sizeof err), 0);
    assert_int_equal(rl_outdir_write(&o, "a.csv", "x,y\n1,2\n", 8, err, sizeof err), 0);
    snprintf(path, sizeof path, "%s/new/dir/b.txt", root);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_size, 2);
    snprintf(path, sizeof path, "%s/a.csv", root);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_size, 8); /* rewritten whole */
    char kept[1024];
    rl_outdir_kept(&o, kept, sizeof kept);
    if (!strstr(kept, "kept 2 complete files") || !strstr(kept, "a.csv, new/dir/b.txt"))
        fail_msg("kept list: %s", kept);
    rl_outdir_close(&o);
    /* no temporary left beside them */
    char cmd[256];
    snprintf(cmd, sizeof cmd, "find %s -name '*.tmp.*' | grep -q .", root);
    assert_int_not_equal(system(cmd), 0);
}

static void open_refuses_a_file(void **state)
{
    (void)state;
    char path[64], err[1024];
    write_temp(path, ".txt", "not a directory");
    rl_outdir o;
    assert_int_equal(rl_outdir_open(&o, path, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a directory"));
    unlink(path);
}

/* The default `out` of `roofline run` is created only when something is
 * written into it. */
static void deferred_open(void **state)
{
    (void)state;
    char lazy[128], err[1024], path[4200];
    snprintf(lazy, sizeof lazy, "%s/lazy/deeper", root);
    rl_outdir o;
    rl_outdir_defer(&o, lazy);
    struct stat st;
    assert_int_not_equal(stat(lazy, &st), 0); /* nothing yet */
    expect_refused(&o, "../x", "'..'"); /* a refused name creates nothing either */
    assert_int_not_equal(stat(lazy, &st), 0);
    assert_int_equal(rl_outdir_resolve(&o, "f.txt", path, sizeof path, err, sizeof err), 0);
    assert_int_equal(stat(lazy, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    rl_outdir_close(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(refuses_escapes),
        cmocka_unit_test(writes_atomically_and_lists),
        cmocka_unit_test(open_refuses_a_file),
        cmocka_unit_test(deferred_open),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
