/* test_keys.c — every command's JSON keys, their types and units, pinned.
 *
 * tests/data/result_keys.txt lists, for each command line run here through
 * bin/roofline with small inputs (and each Lua command through
 * tests/data/keys.lua, which prints its result as JSON), every key path of its JSON result
 * ("rows[].step_s" for the keys of the objects in an array), its JSON type
 * (null counts as a number: the nullable keys are numbers) and its unit.
 * The unit comes from the parameter table when the key echoes a parameter
 * (param.h: json and unit; rl_param_by_json, so the key a command echoes a
 * parameter under by its own table counts: size's hbm_reserve) and otherwise, for a number, from the key's
 * suffix (_s seconds, _bytes bytes, _per_s per second, ...; "-" for counts,
 * names and ratios without one); a string or bool that echoes no parameter
 * has none ("-": attention_context is "mean" or "longest", not tokens).  A renamed, dropped or added key, a changed type or unit
 * fails here (the keys are a contract: result.h).  After an intended change
 * rewrite the file with  RL_PIN_KEYS=1 build/tests/test_keys  and say in the
 * commit which keys changed and which old spellings stay as aliases. */
#include "testutil.h"

#include <errno.h>

#include "param.h"

#define PINNED RL_SRCDIR "/tests/data/result_keys.txt"
#define MAX_KEYS 4096

static char out[1 << 20];

static cJSON *run_json(const char *args) { return run_cli_json(args, out, sizeof out); }

/* The unit of a key holding v in command cmd's result: the parameter
 * table's when the key echoes a parameter (under the table's json or the
 * command's own key: fixTF, size's requests and hbm_reserve read "-"),
 * else, for a number (or null), what its suffix says, else "-". */
static const char *unit_of(const char *cmd, const char *key, const cJSON *v)
{
    int id = rl_param_by_json(cmd, key);
    if (id >= 0)
        return *RL_PARAMS[id].unit ? RL_PARAMS[id].unit : "-";
    if (!cJSON_IsNumber(v) && !cJSON_IsNull(v) && !cJSON_IsArray(v) && !cJSON_IsObject(v))
        return "-";
    static const struct {
        const char *suffix, *unit;
    } rules[] = { /* the first match counts: longer suffixes first */
        {"bytes_per_token", "bytes/token"},
        {"bytes_per_sequence_allocator", "bytes/sequence"},
        {"bytes_per_sequence", "bytes/sequence"},
        {"flops_per_token", "FLOP/token"},
        {"_s_per_token", "s/token"},
        {"flops_per_s", "FLOP/s"},
        {"_bytes_per_s", "bytes/s"},
        {"tokens_per_s_per_chip", "tokens/s/chip"},
        {"tokens_per_s", "tokens/s"},
        {"req_per_s", "requests/s"},
        {"_per_s", "1/s"},
        {"bytes_per_chip", "bytes/chip"},
        {"flops_per_chip", "FLOP/chip"},
        {"usd_per_mtok", "USD/Mtoken"},
        {"chip_hour", "USD/chip-hour"},
        {"bytes", "bytes"},
        {"_s", "s"},
        {"_frac", "fraction"},
        {"_mfu", "fraction"},
        {"utilization", "fraction"},
        {"attainment", "fraction"},
        {"share", "fraction"},
        {"_rate", "fraction"},
        {"_bw_total", "bytes/s"},
        {"_tokens_per_replica", "tokens"},
        {"_tokens", "tokens"},
        {"_context", "tokens"},
        {"flops", "FLOP"},
    };
    if (strncmp(key, "params", 6) == 0)
        return "params";
    size_t n = strlen(key);
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        size_t m = strlen(rules[i].suffix);
        if (n >= m && strcmp(key + n - m, rules[i].suffix) == 0)
            return rules[i].unit;
    }
    return "-";
}

static const char *type_of(const cJSON *v)
{
    if (cJSON_IsNumber(v) || cJSON_IsNull(v))
        return "number";
    if (cJSON_IsString(v))
        return "string";
    if (cJSON_IsBool(v))
        return "bool";
    if (cJSON_IsArray(v))
        return "array";
    return "object";
}

typedef struct {
    char *line[MAX_KEYS];
    int n;
} key_set;

static void add_line(key_set *s, const char *line)
{
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->line[i], line) == 0)
            return;
    assert_true(s->n < MAX_KEYS);
    s->line[s->n++] = strdup(line);
}

/* Every key path under `prefix` of the object j: "path type unit"; a
 * number whose own key names no unit takes its object's (`unit`, "-" at
 * the top): info --hw's peak_flops_per_s.bf16 is FLOP/s. */
static void collect(const char *cmd, const cJSON *j, const char *prefix, const char *unit,
                    key_set *s)
{
    for (const cJSON *v = j->child; v; v = v->next) {
        char path[512], line[768];
        const char *u = unit_of(cmd, v->string, v);
        if (!strcmp(u, "-") && (cJSON_IsNumber(v) || cJSON_IsNull(v)))
            u = unit;
        snprintf(path, sizeof path, "%s%s", prefix, v->string);
        snprintf(line, sizeof line, "%s %s %s", path, type_of(v), u);
        add_line(s, line);
        if (cJSON_IsObject(v)) {
            char sub[520];
            snprintf(sub, sizeof sub, "%s.", path);
            collect(cmd, v, sub, u, s);
        } else if (cJSON_IsArray(v)) {
            char sub[520];
            snprintf(sub, sizeof sub, "%s[].", path);
            for (const cJSON *e = v->child; e; e = e->next)
                if (cJSON_IsObject(e))
                    collect(cmd, e, sub, "-", s);
        }
    }
}

static int by_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_set(key_set *s)
{
    for (int i = 0; i < s->n; i++)
        free(s->line[i]);
    s->n = 0;
}

/* Lines of `a` missing from `b`, printed with `what`; returns how many. */
static int missing(const key_set *a, const key_set *b, const char *cmd, const char *what)
{
    int n = 0;
    for (int i = 0; i < a->n; i++) {
        int found = 0;
        for (int k = 0; k < b->n && !found; k++)
            found = strcmp(a->line[i], b->line[k]) == 0;
        if (!found) {
            printf("roofline %s: %s '%s'\n", cmd, what, a->line[i]);
            n++;
        }
    }
    return n;
}

/* The keys of one pinned section against those of the live run: the
 * differences, printed. */
static int compare(const char *cmd, const key_set *pinned, const key_set *live)
{
    return missing(pinned, live, cmd, "lost (renamed, dropped or retyped?)") +
           missing(live, pinned, cmd, "new, not pinned");
}

/* The command a section's ARGS run: its first word, or the Lua command
 * keys.lua is run with (its last word) after "run". */
static const char *command_of(const char *args, char *name, size_t cap)
{
    const char *w = args;
    if (strncmp(args, "run ", 4) == 0 && strrchr(args, ' '))
        w = strrchr(args, ' ') + 1;
    snprintf(name, cap, "%.*s", (int)strcspn(w, " "), w);
    return name;
}

/* Read the pinned file: sections "## ARGS" then "path type unit" lines.
 * For each section run ARGS; RL_PIN_KEYS set rewrites the file from the
 * live runs instead.  Returns the number of differences. */
static int check_file(const char *path, int rewrite)
{
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("%s: %s", path, strerror(errno));
    static char head[1 << 14], text[1 << 18];
    size_t hn = 0, tn = 0;
    char line[1024], cmd[1024] = "";
    static key_set pinned, live;
    int diffs = 0;
    for (int more = 1; more;) {
        more = fgets(line, sizeof line, f) != NULL;
        line[strcspn(line, "\n")] = '\0';
        if (more && line[0] == '#' && line[1] != '#' && !cmd[0]) { /* the header comment */
            hn += (size_t)snprintf(head + hn, sizeof head - hn, "%s\n", line);
            continue;
        }
        if (more && strncmp(line, "## ", 3) != 0) {
            if (line[0])
                add_line(&pinned, line);
            continue;
        }
        if (cmd[0]) { /* the section before ends: run it */
            cJSON *j = run_json(cmd);
            char name[64];
            collect(command_of(cmd, name, sizeof name), j, "", "-", &live);
            cJSON_Delete(j);
            qsort(live.line, (size_t)live.n, sizeof live.line[0], by_text);
            tn += (size_t)snprintf(text + tn, sizeof text - tn, "\n## %s\n", cmd);
            for (int i = 0; i < live.n; i++)
                tn += (size_t)snprintf(text + tn, sizeof text - tn, "%s\n", live.line[i]);
            if (!rewrite)
                diffs += compare(cmd, &pinned, &live);
            free_set(&pinned);
            free_set(&live);
        }
        if (more)
            snprintf(cmd, sizeof cmd, "%s", line + 3);
    }
    fclose(f);
    if (rewrite) {
        f = fopen(path, "w");
        assert_non_null(f);
        fprintf(f, "%s%s", head, text);
        assert_int_equal(fclose(f), 0);
    }
    return diffs;
}

static void keys_pinned(void **state)
{
    (void)state;
    int rewrite = getenv("RL_PIN_KEYS") != NULL;
    int diffs = check_file(PINNED, rewrite);
    if (diffs)
        fail_msg("%d result keys differ from %s (see above)", diffs, PINNED);
}

/* The comparison can fail: a pinned section with one key renamed and one
 * dropped reports both ways. */
static void compare_can_fail(void **state)
{
    (void)state;
    key_set a = {{0}, 0}, b = {{0}, 0};
    add_line(&a, "step_s number s");
    add_line(&a, "b_crit number -");
    add_line(&b, "step_time_s number s");
    assert_int_equal(compare("(test)", &a, &b), 3);
    free_set(&a);
    free_set(&b);
    cJSON *num = cJSON_CreateNumber(1), *str = cJSON_CreateString("mean");
    assert_string_equal(unit_of("step", "tokens_per_s_per_chip", num), "tokens/s/chip");
    assert_string_equal(unit_of("step", "context", num), "tokens"); /* from the parameter table */
    /* from size's own JSON key of a parameter (param.c OWN_JSON; fixTF) */
    assert_string_equal(unit_of("size", "hbm_reserve", num), "fraction");
    assert_string_equal(unit_of("size", "requests", num), "requests");
    char name[64];
    assert_string_equal(command_of("run @SRC@/tests/data/keys.lua size", name, sizeof name), "size");
    assert_string_equal(command_of("size --model m", name, sizeof name), "size");
    cJSON *obj = cJSON_CreateObject();
    assert_string_equal(unit_of("info", "peak_flops_per_s", obj), "FLOP/s"); /* its numbers inherit it */
    cJSON_Delete(obj);
    /* a string's suffix names no unit: "mean" or "longest" are not tokens */
    assert_string_equal(unit_of("simulate", "attention_context", str), "-");
    assert_string_equal(unit_of("simulate", "output_dist", str), "tokens"); /* a parameter's (param.c) */
    cJSON_Delete(num);
    cJSON_Delete(str);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(compare_can_fail),
        cmocka_unit_test(keys_pinned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
