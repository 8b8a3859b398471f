/* test_param.c — the parameter and command tables (param.h): docs/cli.md is
 * what `roofline help --markdown` prints from them; defaults the CLI and Lua
 * share equal the modules' own defaults; every command's list is sound. */
#include "testutil.h"

#include <math.h>

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

/* Whether every value of the Lua result `lua` is in the CLI's `cli` at the
 * same path, equal (numbers to 1e-12 relative); counts the values compared
 * in *n and prints the first difference.  The Lua faces leave out a few keys
 * (simulate's kv_timeline, null values: test_keys.c), never add one. */
static int same_values(const cJSON *lua, const cJSON *cli, const char *path, int *n)
{
    if (!cli || (lua->type & 0xff) != (cli->type & 0xff)) {
        printf("%s: JSON type %d in Lua, %s on the command line\n", path, lua->type & 0xff,
               cli ? "another" : "absent");
        return 0;
    }
    if (cJSON_IsArray(lua) && cJSON_GetArraySize(lua) != cJSON_GetArraySize(cli)) {
        printf("%s: %d values in Lua, %d on the command line\n", path, cJSON_GetArraySize(lua),
               cJSON_GetArraySize(cli));
        return 0;
    }
    char sub[512];
    int i = 0;
    for (const cJSON *c = lua->child; c; c = c->next, i++) {
        if (cJSON_IsArray(lua))
            snprintf(sub, sizeof sub, "%s[%d]", path, i);
        else
            snprintf(sub, sizeof sub, "%s.%s", path, c->string);
        const cJSON *d = cJSON_IsArray(lua) ? cJSON_GetArrayItem(cli, i)
                                            : cJSON_GetObjectItemCaseSensitive(cli, c->string);
        if (!same_values(c, d, sub, n))
            return 0;
    }
    if (lua->child)
        return 1;
    (*n)++;
    if (cJSON_IsNumber(lua) &&
        !(fabs(lua->valuedouble - cli->valuedouble) <= 1e-12 * fabs(cli->valuedouble))) {
        printf("%s: %.17g in Lua, %.17g on the command line\n", path, lua->valuedouble,
               cli->valuedouble);
        return 0;
    }
    if (cJSON_IsString(lua) && strcmp(lua->valuestring, cli->valuestring) != 0) {
        printf("%s: '%s' in Lua, '%s' on the command line\n", path, lua->valuestring,
               cli->valuestring);
        return 0;
    }
    return 1;
}

/* Whether `roofline ARGS --format json` and tests/data/defaults.lua's CALL
 * give the same values; *n counts them. */
static int faces_agree(const char *args, const char *call, int *n)
{
    static char buf[1 << 20];
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --format json", args);
    cJSON *cli = run_cli_json(cmd, buf, sizeof buf);
    snprintf(cmd, sizeof cmd, "run @SRC@/tests/data/defaults.lua %s", call);
    cJSON *lua = run_cli_json(cmd, buf, sizeof buf);
    int same = same_values(lua, cli, call, n);
    cJSON_Delete(cli);
    cJSON_Delete(lua);
    return same;
}

/* CLI and Lua default alike: each command with only its required options
 * gives the same result on the command line and in Lua (tests/data/
 * defaults.lua): precisions, chips, batch, mode (calibrated by the
 * profile's tables unless --ideal, for ops and prefill too), pareto's
 * context and batch grid, simulate's requests, seed and engine settings;
 * --overlap / overlap and --kv-split / kv_split alone refine no plan in
 * either; on a plan the kernel tables or fitted costs time, overlap is
 * dropped in both (review26 M3: Lua read `ideal`, 10.31 ms, where the CLI
 * read calibrated 14.74 ms and fitted 29.90 ms; result.h
 * rl_result_drop_overlap); a fitted profile times a pipeline alike in
 * both (tester18 F10); the old spellings prompt/output give the same run as
 * prompt_len/out_len.  And the check can fail: a step at another context
 * differs. */
static void defaults_cli_equal_lua(void **state)
{
    (void)state;
    static const struct {
        const char *args, *call;
    } pairs[] = {
        {"info --model llama3-8b", "info"},
        {"step --model llama3-8b --hw h100-sxm --context 1024", "step"},
        {"step --model llama3-8b --hw h100-sxm --context 1024 --overlap --kv-split seq",
         "step_overlap"},
        {"step --model llama3-70b --hw h100-sxm --chips 8 --context 1024 --tp 8", "step_tp"},
        {"step --model llama3-70b --hw h100-sxm --chips 8 --context 1024 --tp 4 --overlap",
         "step_tp_overlap"},
        {"step --model llama2-70b --hw h100-sxm-splitwise --chips 8 --context 2048 --tp 4 "
         "--overlap", "step_fitted_overlap"},
        {"step --model llama2-70b --hw h100-sxm-splitwise --chips 8 --context 2048 --tp 4 --pp 2",
         "step_fitted_pp"},
        {"shard --model llama3-70b --hw h100-sxm --chips 8 --context 1024", "shard"},
        {"ops --model llama3-8b --hw h100-sxm --context 1024", "ops"},
        {"prefill --model llama3-8b --hw h100-sxm --tokens 512", "prefill"},
        {"pareto --model llama3-8b --hw h100-sxm --chips 1,2", "pareto"},
        {"simulate --model llama3-8b --hw h100-sxm --qps 5 --prompt-len 100 --out-len 10",
         "simulate"},
        {"simulate --model llama3-8b --hw h100-sxm --qps 5 --prompt 100 --output 10",
         "simulate_old"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        int n = 0;
        if (!faces_agree(pairs[i].args, pairs[i].call, &n))
            fail_msg("roofline %s differs from roofline.%s (tests/data/defaults.lua)",
                     pairs[i].args, pairs[i].call);
        if (n < 10)
            fail_msg("%s: only %d values compared", pairs[i].call, n);
    }
    int n = 0;
    assert_false(faces_agree("step --model llama3-8b --hw h100-sxm --context 2048", "step", &n));
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

/* fixJM #4: step's and prefill's help name the note keys their results
 * carry (stop 42 added them with no word in --help or docs/cli.md). */
static void help_names_note_keys(void **state)
{
    (void)state;
    static const char *const keys[] = {"kv_engine_note", "moe_slow_note", "e2e_gap_note",
                                       "precision_engine_note", "batch_fall_note"};
    const rl_command *step = rl_command_find("step"), *pre = rl_command_find("prefill");
    assert_non_null(step);
    assert_non_null(pre);
    for (int k = 0; k < 5; k++) {
        if (!strstr(step->summary, keys[k]))
            fail_msg("step --help does not name %s", keys[k]);
        if (k < 4 && !strstr(pre->summary, keys[k])) /* batch_fall_note: step's alone */
            fail_msg("prefill --help does not name %s", keys[k]);
    }
}

/* fixSA #4: simulate --help named none of the note keys its JSON carries
 * (step's and prefill's did since fixJM #4); each one simulate emits
 * (result.c add_host_notes, add_engine_dtype_notes, add_e2e_gap_serving;
 * cli.c emit, note_step_floor, rl_cli_simulate's prefix_cache_note). */
static void simulate_help_names_note_keys(void **state)
{
    (void)state;
    static const char *const keys[] = {"host_cost_note",        "prefill_dispatch_note",
                                       "e2e_gap_note",          "kv_engine_note",
                                       "precision_engine_note", "moe_slow_note",
                                       "step_floor_note",       "fitted_misfit_note",
                                       "prefix_cache_note"};
    const rl_command *sim = rl_command_find("simulate");
    assert_non_null(sim);
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
        if (!strstr(sim->summary, keys[k]))
            fail_msg("simulate --help does not name %s", keys[k]);
}

/* shard's option lines name no flag it refuses (tester37: its --chips and
 * --overlap rows spoke of --pp, which shard refuses, as it lists the pp
 * plans itself): neither --pp nor --tp appears in them. */
static void shard_help_names_only_its_flags(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    rl_param_usage(rl_command_find("shard"), f);
    fclose(f);
    assert_non_null(strstr(text, "--chips"));
    assert_non_null(strstr(text, "--overlap"));
    if (strstr(text, "--pp") || strstr(text, "--tp"))
        fail_msg("shard's --help names a flag shard refuses:\n%s", text);
    /* tester60 #4: --batch said "B[,B...] (a list gives one row each)",
     * and `shard --batch 1,256` is refused: one value */
    const char *b = strstr(text, "--batch");
    assert_non_null(b);
    const char *eol = strchr(b, '\n');
    const char *l1 = strstr(b, "[,B"), *l2 = strstr(b, "a list");
    if ((l1 && l1 < eol) || (l2 && l2 < eol))
        fail_msg("shard's --batch line offers a list:\n%.*s", (int)(eol - b), b);
    assert_non_null(strstr(b, "one value"));
    free(text);
}

/* fixSE #3: size --help listed --prefixes as an option, and size always
 * refuses it (it models no prefix cache).  It is left out of size's option
 * lines and Lua known keys (RL_REFUSED), still taken, so size.c's refusal
 * says why; simulate lists it.  Fails before: size's help had the line. */
static void size_help_leaves_out_refused_prefixes(void **state)
{
    (void)state;
    const rl_command *size = rl_command_find("size"), *sim = rl_command_find("simulate");
    char *text[2] = {NULL, NULL};
    size_t len;
    for (int i = 0; i < 2; i++) {
        FILE *f = open_memstream(&text[i], &len);
        assert_non_null(f);
        rl_param_usage(i ? sim : size, f);
        fclose(f);
    }
    if (strstr(text[0], "--prefixes"))
        fail_msg("size's --help lists --prefixes, which it refuses:\n%s", text[0]);
    assert_non_null(strstr(text[1], "--prefixes"));
    assert_true(rl_command_takes(size, RL_P_PREFIXES, 1) && rl_command_takes(size, RL_P_PREFIXES, 0));
    const char *keys[RL_P_COUNT * 2];
    int n = rl_command_lua_keys(size, keys, RL_P_COUNT * 2);
    for (int k = 0; k < n; k++)
        assert_string_not_equal(keys[k], "prefixes");
    free(text[0]);
    free(text[1]);
}

/* docs/lua.md has an entry "### `roofline.NAME ..." for every function of
 * the module (the commands with a Lua face and the four that are not
 * commands), and each command's entry names every Lua key it takes (old
 * spellings too) as `key` before the next entry: a key added to the tables
 * without a word in the Lua reference fails here. */
static const char *lua_entry(const char *docs, const char *name, const char **end)
{
    char head[96];
    snprintf(head, sizeof head, "### `roofline.%s ", name);
    const char *at = strstr(docs, head);
    if (!at)
        fail_msg("docs/lua.md has no entry '%s'", head);
    const char *next = strstr(at + strlen(head), "\n#");
    *end = next ? next : at + strlen(at);
    return at;
}

static void lua_docs_cover_module(void **state)
{
    (void)state;
    static char docs[1 << 16];
    FILE *f = fopen(RL_SRCDIR "/docs/lua.md", "r");
    assert_non_null(f);
    docs[fread(docs, 1, sizeof docs - 1, f)] = '\0';
    fclose(f);
    const char *end;
    static const char *const OTHERS[] = {"model", "hw", "format", "write"};
    for (size_t i = 0; i < sizeof OTHERS / sizeof *OTHERS; i++)
        lua_entry(docs, OTHERS[i], &end);
    int entries = 0;
    for (size_t c = 0; c < RL_NCOMMANDS; c++) {
        if (!RL_COMMANDS[c].lua)
            continue;
        const char *at = lua_entry(docs, RL_COMMANDS[c].name, &end);
        const char *keys[RL_P_COUNT * 2];
        int n = rl_command_lua_keys(&RL_COMMANDS[c], keys, RL_P_COUNT * 2);
        assert_true(n > 0);
        for (int k = 0; k < n; k++) {
            char quoted[80];
            snprintf(quoted, sizeof quoted, "`%s`", keys[k]);
            const char *hit = strstr(at, quoted);
            if (!hit || hit > end)
                fail_msg("docs/lua.md: roofline.%s does not name its key %s",
                         RL_COMMANDS[c].name, quoted);
        }
        entries++;
    }
    assert_true(entries >= 9); /* info step pareto sweep shard ops prefill simulate plot */
}

/* A declared parameter no command implements yet is refused, not ignored. */
static void declared_not_silently_taken(void **state)
{
    (void)state;
    /* (--conservative, once the example here, is size's since issue 13) */
    assert_int_equal(run_cli("step --model llama3-8b --hw h100-sxm --context 10 --offline", out,
                             sizeof out),
                     2);
    assert_non_null(strstr(out, "this command takes no option '--offline'"));
}

/* `make help` names every .PHONY target of the Makefile (CLOSING21
 * leftover: profiles, presets, the accuracy parts and cuda-compile were
 * missing). */
static void make_help_covers_targets(void **state)
{
    (void)state;
    char *mk = slurp_text(RL_SRCDIR "/Makefile");
    assert_non_null(mk);
    FILE *p = popen("env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s -C " RL_SRCDIR " help", "r");
    assert_non_null(p);
    out[fread(out, 1, sizeof out - 1, p)] = '\0';
    assert_int_equal(pclose(p), 0);
    int targets = 0;
    for (char *line = strstr(mk, "\n.PHONY:"); line; line = strstr(line + 1, "\n.PHONY:")) {
        char names[1024];
        snprintf(names, sizeof names, "%.*s", (int)strcspn(line + 9, "\n"), line + 9);
        for (char *save, *t = strtok_r(names, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
            char want[128];
            snprintf(want, sizeof want, "make %s ", t);
            if (strcmp(t, "all") != 0 && !strstr(out, want))
                fail_msg("make help does not name '%s'", t);
            targets++;
        }
    }
    assert_true(targets > 20);
    free(mk);
}

/* tester44 F7: --set model.FIELD left no trace in the result (a 16-layer
 * llama3-8b was printed and saved as "model": "llama3-8b").  The result
 * now names the overrides, model_overrides and hw_overrides ("FIELD=V,
 * ..." as given), and a run without --set has neither key. */
static void set_overrides_recorded(void **state)
{
    (void)state;
    static char buf[1 << 16];
    cJSON *j = run_cli_json("step --model llama3-8b --hw h100-sxm --context 1000 --set "
                            "model.layers=16 --set hw.hbm_bw=4e12 --set model.max_context=9000 "
                            "--format json", buf, sizeof buf);
    const cJSON *mo = cJSON_GetObjectItem(j, "model_overrides"), *ho = cJSON_GetObjectItem(j, "hw_overrides");
    assert_true(cJSON_IsString(mo) && cJSON_IsString(ho));
    assert_string_equal(mo->valuestring, "layers=16, max_context=9000");
    assert_string_equal(ho->valuestring, "hbm_bw=4e12");
    cJSON_Delete(j);
    j = run_cli_json("step --model llama3-8b --hw h100-sxm --context 1000 --format json", buf,
                     sizeof buf);
    assert_null(cJSON_GetObjectItem(j, "model_overrides"));
    assert_null(cJSON_GetObjectItem(j, "hw_overrides"));
    cJSON_Delete(j);
}

/* tester57 F3: "-" is stdin for --trace, --against and fit's and
 * import-hf's file (report.h rl_fopen_stream), and stdin holds one input:
 * no command takes two of them, so none can be given "-" twice.  A command
 * given a second one needs a check that refuses two "-" before this test
 * is changed. */
static void one_stdin_input_per_command(void **state)
{
    (void)state;
    int seen = 0;
    for (size_t c = 0; c < RL_NCOMMANDS; c++) {
        const rl_command *cmd = &RL_COMMANDS[c];
        if (!cmd->cli)
            continue;
        int file_arg = !strcmp(cmd->name, "fit") || !strcmp(cmd->name, "import-hf");
        int n = file_arg + rl_command_takes(cmd, RL_P_TRACE, 1) + rl_command_takes(cmd, RL_P_AGAINST, 1);
        if (n > 1)
            fail_msg("%s takes %d inputs that may be '-' (stdin)", cmd->name, n);
        seen += n;
    }
    assert_true(seen >= 5); /* fit, import-hf, validate, simulate and size at least */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(docs_up_to_date),
        cmocka_unit_test(docs_check_can_fail),
        cmocka_unit_test(defaults_agree),
        cmocka_unit_test(defaults_cli_equal_lua),
        cmocka_unit_test(commands_sound),
        cmocka_unit_test(help_names_note_keys),
        cmocka_unit_test(simulate_help_names_note_keys),
        cmocka_unit_test(shard_help_names_only_its_flags),
        cmocka_unit_test(lua_docs_cover_module),
        cmocka_unit_test(declared_not_silently_taken),
        cmocka_unit_test(make_help_covers_targets),
        cmocka_unit_test(size_help_leaves_out_refused_prefixes),
        cmocka_unit_test(set_overrides_recorded),
        cmocka_unit_test(one_stdin_input_per_command),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
