/* test_param.c — the parameter and command tables (param.h): docs/cli.md is
 * what `roofline help --markdown` prints from them; defaults the CLI and Lua
 * share equal the modules' own defaults; every command's list is sound. */
#include "testutil.h"

#include "param.h"
#include "sandbox.h"
#include "serve.h"

static char out[1 << 18];

/* The first byte where a and b differ, or -1 when they are equal. */
static long first_difference(const char *a, const char *b)
{
    long i = 0;
    while (a[i] && a[i] == b[i])
        i++;
    return a[i] == b[i] ? -1 : i;
}

static char *read_docs(void)
{
    FILE *f = fopen(RL_SRCDIR "/docs/cli.md", "r");
    if (!f)
        fail_msg("docs/cli.md is missing: run `make docs`");
    static char text[1 << 18];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    return text;
}

/* docs/cli.md is generated: a row added to the tables without `make docs`
 * fails here. */
static void docs_up_to_date(void **state)
{
    (void)state;
    assert_int_equal(run_cli("help --markdown", out, sizeof out), 0);
    const char *docs = read_docs();
    long at = first_difference(out, docs);
    if (at >= 0)
        fail_msg("docs/cli.md is stale at byte %ld (run `make docs`): generated '%.60s', file "
                 "'%.60s'", at, out + at, docs + at);
}

/* The comparison can fail: one changed byte is found. */
static void docs_check_can_fail(void **state)
{
    (void)state;
    assert_int_equal(run_cli("help --markdown", out, sizeof out), 0);
    static char changed[sizeof out];
    memcpy(changed, out, sizeof out);
    char *row = strstr(changed, "| --requests |");
    assert_non_null(row);
    row[4] = 'R';
    assert_int_equal(first_difference(out, changed), row + 4 - changed);
}

/* Defaults in the table equal the ones the modules apply (serve.c
 * rl_serve_config_default, sandbox.c RL_SCENARIO_LIMITS), so help, docs, CLI
 * and Lua say the same. */
static void defaults_agree(void **state)
{
    (void)state;
    rl_serve_config c = rl_serve_config_default();
    assert_true(rl_param_default(RL_P_MAX_SEQS) == c.max_seqs);
    assert_true(rl_param_default(RL_P_MAX_TOKENS) == (double)c.max_tokens);
    assert_true(rl_param_default(RL_P_REPLICAS) == c.replicas);
    assert_true(rl_param_default(RL_P_PREFILL_REPLICAS) == c.prefill_replicas);
    assert_true(rl_param_default(RL_P_PAGE) == c.page_tokens);
    assert_true(rl_param_default(RL_P_MAX_INSTRUCTIONS) == (double)RL_SCENARIO_LIMITS.instructions);
    assert_true(rl_param_default(RL_P_REQUESTS) == 20000);
    assert_true(rl_param_default(RL_P_SEED) == 1);
}

/* Each command lists known ids, no flag or Lua key twice (one meaning per
 * command), and every row has help text and a type-consistent shape. */
static void commands_sound(void **state)
{
    (void)state;
    for (int i = 0; i < RL_P_COUNT; i++) {
        const rl_param *p = &RL_PARAMS[i];
        assert_true(p->help && *p->help);
        assert_true(p->flag || p->lua);
        assert_true((p->type == RL_PT_SWITCH) == (p->arg == NULL) || p->type == RL_PT_CHOICE);
        if (p->type == RL_PT_COUNT_LIST || p->type == RL_PT_DTYPE_LIST)
            assert_true(p->cap > 0 && p->at != RL_AT_GIVEN);
    }
    for (size_t c = 0; c < RL_NCOMMANDS; c++) {
        const rl_command *cmd = &RL_COMMANDS[c];
        assert_ptr_equal(rl_command_find(cmd->name), cmd);
        for (const int *e = cmd->params; *e != RL_PARAM_END; e++) {
            int id = *e & 0xfff;
            assert_true(id >= 0 && id < RL_P_COUNT);
            for (const int *f = e + 1; *f != RL_PARAM_END; f++) {
                const rl_param *a = &RL_PARAMS[id], *b = &RL_PARAMS[*f & 0xfff];
                if (rl_command_takes(cmd, id, 1) && rl_command_takes(cmd, *f & 0xfff, 1) &&
                    strcmp(a->flag, b->flag) == 0)
                    fail_msg("%s takes --%s twice", cmd->name, a->flag);
                if (rl_command_takes(cmd, id, 0) && rl_command_takes(cmd, *f & 0xfff, 0) &&
                    strcmp(a->lua, b->lua) == 0)
                    fail_msg("roofline.%s takes %s twice", cmd->name, a->lua);
            }
        }
    }
    assert_null(rl_command_find("frobnicate"));
}

/* A declared parameter no command implements yet is refused, not ignored. */
static void declared_not_silently_taken(void **state)
{
    (void)state;
    assert_int_equal(run_cli("size --model llama3-8b --hw h100-sxm --conservative", out, sizeof out),
                     2);
    assert_non_null(strstr(out, "this command takes no option '--conservative'"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(docs_up_to_date),
        cmocka_unit_test(docs_check_can_fail),
        cmocka_unit_test(defaults_agree),
        cmocka_unit_test(commands_sound),
        cmocka_unit_test(declared_not_silently_taken),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
