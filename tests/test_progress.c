/* test_progress.c — the progress line of long runs: its text, nothing
 * written while disabled (the CLI's state whenever stderr is no terminal),
 * the line and its erasure when enabled, a nested run not replacing the
 * outer one. */
#include "testutil.h"

#include <fcntl.h>
#include <unistd.h>

#include "progress.h"

/* Runs `body` with stderr into a fresh file and returns what it wrote
 * (into buf, n bytes at most). */
static void captured(void (*body)(void), char *buf, size_t n)
{
    char path[] = "/tmp/rl_progress_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    assert_true(dup2(fd, STDERR_FILENO) >= 0);
    body();
    fflush(stderr);
    assert_true(dup2(saved, STDERR_FILENO) >= 0);
    close(saved);
    ssize_t got = pread(fd, buf, n - 1, 0);
    buf[got > 0 ? got : 0] = '\0';
    close(fd);
    unlink(path);
}

static void line_text(void **state)
{
    (void)state;
    char buf[128];
    rl_progress_line(buf, sizeof buf, "size", "configurations simulated", 12, 40, 8.4);
    assert_string_equal(buf, "roofline size: configurations simulated 12 of 40 (8 s)");
}

static void three_units(void)
{
    rl_progress_start("size", "configurations simulated", 3);
    rl_progress_add(1);
    rl_progress_start("size", "inner", 99); /* nested: ignored, its units too */
    rl_progress_add(5);
    rl_progress_end();
    rl_progress_add(1);
    rl_progress_end();
}

static void add_one(void)
{
    rl_progress_add(1);
}

/* The outer run's count after a nested one: 1 + 1, the inner run's 5 not
 * in it (review55 #8: it read 7 of 3). */
static void nested_units_not_counted(void **state)
{
    (void)state;
    char buf[1024];
    rl_progress_enable(1, 0);
    rl_progress_start("size", "configurations simulated", 3);
    rl_progress_add(1);
    rl_progress_start("size", "inner", 99);
    rl_progress_add(5);
    rl_progress_end();
    captured(rl_progress_clear, buf, sizeof buf); /* the next add writes at once */
    captured(add_one, buf, sizeof buf);
    rl_progress_end();
    rl_progress_enable(0, 0);
    assert_non_null(strstr(buf, "configurations simulated 2 of 3"));
}

/* A message mid-run: the line erased before it, written again after. */
static void a_note_between(void)
{
    rl_progress_start("step", "batches' plans searched", 2);
    rl_progress_add(1);
    rl_progress_clear();
    fputs("note\n", stderr);
    rl_progress_add(1);
    rl_progress_end();
}

static void disabled_writes_nothing(void **state)
{
    (void)state;
    char buf[1024];
    rl_progress_enable(0, 0);
    captured(three_units, buf, sizeof buf);
    assert_string_equal(buf, "");
}

/* Enabled with no delay: the first unit's line (the next ones come within
 * RL_PROGRESS_EVERY_S, not rewritten), the outer run's total throughout,
 * and at the end the line blanked over and the cursor back at its start. */
static void enabled_writes_then_erases(void **state)
{
    (void)state;
    char buf[1024];
    rl_progress_enable(1, 0);
    captured(three_units, buf, sizeof buf);
    rl_progress_enable(0, 0);
    const char *line = "\rroofline size: configurations simulated 1 of 3 (0 s)";
    assert_memory_equal(buf, line, strlen(line));
    assert_null(strstr(buf, "inner"));
    size_t w = strlen(line) - 1, len = strlen(buf);
    assert_int_equal(len, strlen(line) + w + 2);
    assert_int_equal(buf[strlen(line)], '\r');
    assert_int_equal(buf[len - 1], '\r');
    for (size_t i = strlen(line) + 1; i < len - 1; i++)
        assert_int_equal(buf[i], ' ');
}

static void clear_before_a_note(void **state)
{
    (void)state;
    char buf[1024], want[1024];
    const char *l1 = "roofline step: batches' plans searched 1 of 2 (0 s)";
    const char *l2 = "roofline step: batches' plans searched 2 of 2 (0 s)";
    size_t w = strlen(l1);
    snprintf(want, sizeof want, "\r%s\r%*s\rnote\n\r%s\r%*s\r", l1, (int)w, "", l2, (int)w, "");
    rl_progress_enable(1, 0);
    captured(a_note_between, buf, sizeof buf);
    rl_progress_enable(0, 0);
    assert_string_equal(buf, want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(line_text),
        cmocka_unit_test(disabled_writes_nothing),
        cmocka_unit_test(enabled_writes_then_erases),
        cmocka_unit_test(clear_before_a_note),
        cmocka_unit_test(nested_units_not_counted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
