/* test_cli.c — bin/roofline end to end: JSON contract keys, formats,
 * overrides, exit codes and error messages. */
#include "testutil.h"

#include "cli.h"
#include "collfit.h"
#include "csv.h"
#include "enginecost.h"
#include "measure.h"
#include "number.h"
#include "report.h"
#include "serve.h"
#include "spec.h"
#include "version.h"

#include <ctype.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

static char out[1 << 16];

/* run_cli_json of the command line "%s%s" (a shared base and its tail). */
static cJSON *json2(const char *base, const char *tail)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s%s", base, tail);
    return run_cli_json(cmd, out, sizeof out);
}

/* run_cli of the command line "%s%s" into out: its exit status. */
static int cli2(const char *base, const char *tail)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s%s", base, tail);
    return run_cli(cmd, out, sizeof out);
}

/* roofline args, which must succeed: its stdout parsed as JSON, whatever
 * notes it says on stderr (a note is no part of the result), which are
 * left in out. */
static cJSON *run_json(const char *args)
{
    char notes[64], cmd[4096];
    snprintf(notes, sizeof notes, "%s/rl_test_cli_notes_%d",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    use_source_tree();
    snprintf(cmd, sizeof cmd, "%s %s 2>%s", RL_BIN, args, notes);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    out[fread(out, 1, sizeof out - 1, p)] = '\0';
    int st = pclose(p), rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    cJSON *j = rc == 0 ? cJSON_Parse(out) : NULL;
    char *said = slurp_text(notes);
    unlink(notes);
    snprintf(out, sizeof out, "%s", said);
    free(said);
    if (rc != 0)
        fail_msg("roofline %s exited %d: %s", args, rc, out);
    if (!j)
        fail_msg("roofline %s printed no JSON (stderr: %s)", args, out);
    return j;
}

/* run_json of a command that also says `note` on stderr (before its JSON). */
static cJSON *run_json_noted(const char *args, const char *note)
{
    int rc = run_cli(args, out, sizeof out);
    const char *json = strchr(out, '{');
    if (rc != 0 || !json || !strstr(out, note) || strstr(out, note) > json)
        fail_msg("roofline %s: exit %d, no note '%s' before its JSON: %.600s", args, rc, note, out);
    cJSON *j = cJSON_Parse(json);
    if (!j)
        fail_msg("roofline %s printed no JSON: %s", args, out);
    return j;
}

/* `roofline run` on a scenario of text `scen` written to a temporary
 * file (removed after): its exit status, its output in out. */
static int run_scenario_text(const char *scen)
{
    char path[] = "/tmp/rl_scen_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_true(write(fd, scen, strlen(scen)) == (ssize_t)strlen(scen));
    close(fd);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "run %s", path);
    int rc = run_cli(cmd, out, sizeof out);
    unlink(path);
    return rc;
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(v))
        fail_msg("missing number '%s'", key);
    return v->valuedouble;
}

/* tester90 #1: lognormal:2000:2 on llama3-8b (max_context 8192) redraws
 * its long tail, and its requests realise a mean prompt far below 2000:
 * 816.68 tokens on the default seed (3266703 / 4000, this simulator's own
 * draw; bounds 700..950 hold it, and any seed's, well below 1900); only
 * the redrawn share (191, 4.8%) was said.  Now mean_prompt_tokens and
 * mean_output_tokens say the realised means (a fixed 10 exactly) and a
 * caution says the gap and its cause; a fixed DIST's realised mean is its
 * MEAN (100, 10 exactly) and no caution is said.  size says the same. */
static void realised_mean_lengths_said(void **state)
{
    (void)state;
    cJSON *j = run_json("simulate --model llama3-8b --hw h100-sxm --qps 1 --prompt-len "
                        "lognormal:2000:2 --out-len 10 --requests 4000 --no-capacity "
                        "--format json");
    double mp = num(j, "mean_prompt_tokens");
    assert_true(mp > 700 && mp < 950);
    assert_true(num(j, "mean_output_tokens") == 10);
    if (!strstr(out, "caution: the 4000 requests realised other lengths than asked: "
                     "--prompt-len's mean is 817 tokens, -59% of the 2000 asked") ||
        !strstr(out, "exceeded max_context (8192 tokens) and were drawn again") ||
        strstr(out, "--out-len's mean"))
        fail_msg("no caution on the realised mean: %s", out);
    cJSON_Delete(j);
    j = run_json("simulate --model llama3-8b --hw h100-sxm --qps 5 --prompt 100 --output 10 "
                 "--requests 200 --no-capacity --format json");
    assert_true(num(j, "mean_prompt_tokens") == 100 && num(j, "mean_output_tokens") == 10);
    assert_null(strstr(out, "realised other lengths"));
    cJSON_Delete(j);
    j = run_json("size --model llama3-8b --hw h100-sxm --qps 2 --prompt-len lognormal:2000:2 "
                 "--out-len 20 --ttft-p99 5 --tpot-p99 0.1 --requests 400 --max-chips 1 "
                 "--format json");
    mp = num(j, "mean_prompt_tokens");
    assert_true(mp > 700 && mp < 950 && num(j, "mean_output_tokens") == 20);
    if (!strstr(out, "roofline size: caution: the 400 requests realised other lengths than "
                     "asked: --prompt-len's mean is"))
        fail_msg("size: no caution on the realised mean: %s", out);
    cJSON_Delete(j);
}

/* stop 52 fixTG: the caution above reached stderr only; the JSON carried
 * mean_prompt_tokens but not that the sample is off its DIST, so a script
 * never learned it.  Now mean_length_note holds stderr's text word for
 * word (simulate lognormal:2000:2, 500 requests at 2 req/s: 777 tokens of
 * 2000, this simulator's draw on the default seed, said as "-61%"; bounds
 * 650..950 as above), null for a fixed DIST (its MEAN exactly) and for a
 * --trace (its lengths are its own: a 2-request trace of 3000-token
 * prompts is not compared with any DIST); size's the same.  Failed before:
 * no key mean_length_note. */
static const char *note_str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsString(v))
        fail_msg("missing string '%s'", key);
    return v->valuestring;
}

static void key_is_null(const cJSON *o, const char *key)
{
    if (!cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(o, key)))
        fail_msg("'%s' is not null", key);
}

static void mean_length_note_in_json(void **state)
{
    (void)state;
    cJSON *j = run_json("simulate --model llama3-8b --hw h100-sxm --qps 2 --prompt-len "
                        "lognormal:2000:2 --out-len 100 --requests 500 --no-capacity "
                        "--format json");
    const char *note = note_str(j, "mean_length_note");
    char said[1200];
    snprintf(said, sizeof said, "roofline simulate: caution: %s", note);
    assert_true(num(j, "mean_prompt_tokens") > 650 && num(j, "mean_prompt_tokens") < 950);
    if (!strstr(note, "the 500 requests realised other lengths than asked: --prompt-len's "
                      "mean is 777 tokens, -61% of the 2000 asked") || !strstr(out, said))
        fail_msg("mean_length_note is not stderr's caution: %s | %s", note, out);
    cJSON_Delete(j);
    j = run_json("simulate --model llama3-8b --hw h100-sxm --qps 5 --prompt-len 100 --out-len 10 "
                 "--requests 50 --no-capacity --format json");
    key_is_null(j, "mean_length_note");
    cJSON_Delete(j);
    char dir[] = "/tmp/rl_fixTG_XXXXXX", cmd[512];
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "printf '0,3000,10\\n0.5,3000,10\\n' > %s/t.csv", dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "simulate --model llama3-8b --hw h100-sxm --trace %s/t.csv "
             "--no-capacity --format json", dir);
    j = run_json(cmd);
    key_is_null(j, "mean_length_note");
    cJSON_Delete(j);
    assert_int_equal(remove_tree(dir), 0);
    j = run_json("size --model llama3-8b --hw h100-sxm --qps 2 --prompt-len lognormal:2000:2 "
                 "--out-len 20 --ttft-p99 5 --tpot-p99 0.1 --requests 400 --max-chips 1 "
                 "--format json");
    snprintf(said, sizeof said, "roofline size: caution: %s", note_str(j, "mean_length_note"));
    if (!strstr(note_str(j, "mean_length_note"), "--prompt-len's mean is") || !strstr(out, said))
        fail_msg("size: mean_length_note is not stderr's caution: %s", out);
    cJSON_Delete(j);
}

/* tester90 #3: step's rows carried `mode` only where kernel tables timed
 * them: a fitted profile's rows (h100-sxm-splitwise, fitted on
 * SplitwiseSim's llama2-70b rows at tp2, so "fitted") and --ideal's had
 * none.  Every row now carries one: the run's, a tabled row its own. */
static void step_rows_carry_mode(void **state)
{
    (void)state;
    static const struct {
        const char *tail, *mode;
    } runs[] = {
        {"--hw h100-sxm-splitwise", "fitted"},
        {"--hw h100-sxm-splitwise --tp 2", "fitted"},
        {"--hw h100-sxm-splitwise --ideal", "ideal"},
        {"--hw h100-sxm --ideal", "ideal"},
        {"--hw h100-sxm", "calibrated"},
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char args[256];
        snprintf(args, sizeof args, "step --model llama2-70b --chips 2 --batch 1,8 --context "
                 "1024 --format json %s", runs[i].tail);
        cJSON *j = run_json(args), *row;
        assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(j, "mode")), runs[i].mode);
        assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(j, "rows")), 2);
        cJSON_ArrayForEach(row, cJSON_GetObjectItem(j, "rows")) {
            const char *m = cJSON_GetStringValue(cJSON_GetObjectItem(row, "mode"));
            if (!m || strcmp(m, runs[i].mode) != 0)
                fail_msg("%s: a row's mode is %s, not %s", args, m ? m : "absent", runs[i].mode);
        }
        cJSON_Delete(j);
    }
}

/* F10: size --max-chips 2 on tpu-v5e (slices 1, 4, 8, ...) searched 1-chip
 * replicas alone, and on tpu-v5p (4, 8, ...) none ("the model does not
 * fit"), without a word; a note says so per profile.  A slice (4 on
 * tpu-v5e) or a GPU's any count (2 on h100-sxm) gets none. */
static void size_max_chips_slices_said(void **state)
{
    (void)state;
    static const struct {
        const char *hw, *max, *said;
    } runs[] = {
        {"tpu-v5e", "2", "note: --max-chips 2 on tpu-v5e: it is rented in slices of 1, 4, 8, 16, "
                         "... chips (sweep.h rl_sweep_topologies), none of 2, so replicas of at "
                         "most 1 chip are searched on it"},
        {"tpu-v5p", "2", "note: --max-chips 2 on tpu-v5p: it is rented in slices of 4, 8, 16, 32, "
                         "... chips (sweep.h rl_sweep_topologies), none of 2, so no replica of "
                         "it is searched (its smallest slice is 4 chips)"},
        {"tpu-v5e", "4", NULL},
        {"h100-sxm", "2", NULL},
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char args[512];
        snprintf(args, sizeof args, "size --model llama3-8b --hw %s --qps 2 --prompt-len 100 "
                 "--out-len 20 --ttft-p99 1 --tpot-p99 0.05 --requests 200 --max-chips %s "
                 "--format json", runs[i].hw, runs[i].max);
        run_cli(args, out, sizeof out);
        if (runs[i].said ? !strstr(out, runs[i].said) : strstr(out, "on it") != NULL ||
                                                           strstr(out, "rented in slices"))
            fail_msg("%s: %s", args, out);
    }
}

/* fixVC #1: with no replica searched at all (tpu-v5p --max-chips 1: its
 * smallest slice is 4 chips, the note above), size's none_meets_note said
 * "its weights leave no KV room", which llama3-8b's 16 GB of bf16 weights
 * never do on a 95 GB chip; it names the slice now, and exit stays 3.
 * Beside hardware that was searched (h100-sxm, where llama3-405b's 810 GB
 * do not fit one chip), the KV reason stays and the unsearched one is
 * named after it. */
static void size_none_searched_said(void **state)
{
    (void)state;
    static const struct {
        const char *model, *hw, *said;
    } runs[] = {
        {"llama3-8b", "tpu-v5p", "\"none_meets_note\":\t\"no replica was searched: --max-chips "
                                 "1 is below the smallest slice of every hardware given: "
                                 "tpu-v5p's is 4 chips (sweep.h rl_sweep_topologies); raise "
                                 "--max-chips to a slice size\""},
        {"llama3-405b", "tpu-v5p,h100-sxm",
         "\"none_meets_note\":\t\"the model does not fit: on every hardware and replica size "
         "searched (--max-chips), its weights leave no KV room for the longest request (the "
         "mean is 1100 tokens); none was searched on hardware whose smallest slice is over "
         "--max-chips 1: tpu-v5p's is 4 chips\""},
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char args[512];
        snprintf(args, sizeof args, "size --model %s --hw %s --max-chips 1 --qps 5 --prompt-len "
                 "1000 --out-len 100 --ttft-p99 2 --tpot-p99 0.05 --format json", runs[i].model,
                 runs[i].hw);
        int rc = run_cli(args, out, sizeof out);
        if (rc != 3 || !strstr(out, runs[i].said))
            fail_msg("%s: exit %d: %s", args, rc, out);
    }
}

/* fixVC #4: the range notes a run has said were kept in 2048 bytes, and
 * past them no longer recorded, so a note said once more (the same --set
 * on the next profile of size's --hw) was said twice.  A profile file at
 * a 494-character path carries six figures far out of range, each note
 * ~650 characters naming it: the first three fill 1983 of the 2048 bytes,
 * so hw.ici_links=100000's note (139, after them) went unrecorded and
 * h100-sxm said it again.  Said once now. */
static void size_range_note_once(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_said_XXXXXX", path[600], cmd[1024];
    assert_non_null(mkdtemp(dir));
    size_t at = (size_t)snprintf(path, sizeof path, "%s", dir);
    for (int k = 0; k < 3; k++) { /* 19 + 3 x "/" + 200 + 200 + 64 + "/far.lua" = 494 */
        path[at++] = '/';
        memset(path + at, 'a' + k, k < 2 ? 200 : 64);
        at += k < 2 ? 200 : 64;
        path[at] = '\0';
        assert_int_equal(mkdir(path, 0700), 0);
    }
    snprintf(path + at, sizeof path - at, "/far.lua");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("return { base = \"h100-sxm\", name = \"far\", hbm_bw = 1, hbm_bytes = 1e20, "
          "ici_latency = 1, net_bw = 1, net_latency = 1, host_bw = 1 }\n", f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "size --model llama3-8b --hw %s,h100-sxm --set hw.ici_links=100000 "
             "--qps 1 --prompt-len 100 --out-len 10 --ttft-p99 1 --tpot-p99 0.05 --requests 200 "
             "--format json", path);
    run_cli(cmd, out, sizeof out);
    const char *note = "note: hw.ici_links=100000 links lies over 100x above", *p = strstr(out, note);
    if (!p || strstr(p + 1, note) || !strstr(out, "/far.lua: field 'host_bw' = 1 B/s lies over"))
        fail_msg("%s: %s", cmd, out);
    assert_int_equal(remove_tree(dir), 0);
}

/* fixVC #5: size's set_hw_note was written into 1024 bytes, and a --set
 * value of 1000 digits (a price of 2.000..., as typed) cut it before "
 * applies to all 2 profiles (h100-sxm, h200) ...", on stderr and in the
 * JSON alike, unsaid.  Whole now, in both. */
static void size_set_hw_note_whole(void **state)
{
    (void)state;
    char cmd[2048], zeros[1001];
    memset(zeros, '0', 1000);
    zeros[1000] = '\0';
    snprintf(cmd, sizeof cmd, "size --model llama3-8b --hw h100-sxm,h200 --set "
             "hw.price_per_chip_hour=2.%s --qps 1 --prompt-len 100 --out-len 10 --ttft-p99 1 "
             "--tpot-p99 0.05 --requests 200 --max-chips 1 --format json", zeros);
    cJSON *j = run_json(cmd);
    const char *note = cJSON_GetStringValue(cJSON_GetObjectItem(j, "set_hw_note"));
    static const char tail[] = "000 applies to all 2 profiles (h100-sxm, h200); a profile file "
                               "{ base = \"NAME\", ... } changes one alone";
    if (!note || strlen(note) != strlen("--set hw.price_per_chip_hour=2.") + 1000 + sizeof tail - 4 ||
        !strstr(note, tail) || !strstr(out, tail))
        fail_msg("set_hw_note: %s; stderr: %.300s", note ? note : "(none)", out);
    cJSON_Delete(j);
}

/* tester77 F5: info's kv_bytes_per_token counts all 46 of gemma2-27b's
 * layers; past its 4096-token window only the 23 global layers grow:
 * 23 x 2 x 16 KV heads x 128 x 2 bytes (bf16) = 188416 B a token, exact
 * (model/gemma2-27b.lua), the 8192-token average (376832 + 188416) / 2 =
 * 282624 step uses.  A model without a window has no such keys. */
static void info_kv_past_window(void **state)
{
    (void)state;
    cJSON *j = run_json("info --model gemma2-27b --format json");
    assert_true(num(j, "kv_bytes_per_token") == 376832);
    assert_true(num(j, "sliding_window") == 4096);
    assert_true(num(j, "kv_bytes_per_token_past_window") == 188416);
    cJSON_Delete(j);
    j = run_json("info --model llama3-8b --format json");
    assert_null(cJSON_GetObjectItem(j, "kv_bytes_per_token_past_window"));
    cJSON_Delete(j);
}

/* tester33 F4: a spec without max_context (optional: the scaling-book
 * presets give none) checks no length, and says so: info's max_context is
 * null ("-" in a table; the key was left out), and every command that loads
 * it notes that no context is checked (step took 1e8 tokens silently). */
static void no_max_context_said(void **state)
{
    (void)state;
    cJSON *j = run_json_noted("info --model scaling-book-18b --format json",
                              "gives no max_context: no context or request length is checked");
    assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(j, "max_context")));
    cJSON_Delete(j);
    j = run_json_noted("step --model scaling-book-18b --hw h100-sxm --context 100000000 --ideal "
                       "--format json", "--set model.max_context=N");
    cJSON_Delete(j);
    j = run_json("info --model llama3-8b --format json"); /* given: a number, no note */
    assert_true(num(j, "max_context") == 8192);
    assert_null(strstr(out, "no max_context"));
    cJSON_Delete(j);
    /* tester35 F8: run said nothing; now the note once per model, however
     * often the scenario loads it (as a name and as roofline.model's table) */
    assert_int_equal(run_scenario_text("for i = 1, 3 do roofline.step{model = 'scaling-book-18b', "
                                       "hw = 'h100-sxm', context = 100000000, ideal = true} end\n"
                                       "roofline.info(roofline.model('scaling-book-18b'))\n"
                                       "roofline.info('llama3-8b')\n"),
                     0);
    const char *at = strstr(out, "scaling-book-18b.lua gives no max_context");
    if (!at || strstr(at + strlen("scaling-book-18b.lua gives no max_context"), "gives no max_context") || !strstr(out, "roofline.model(m, {max_context = N})"))
        fail_msg("run: not one max_context note: %s", out);
}

/* tester35 F9: one integer syntax for every count flag: --pp 3e0 was taken
 * but --batch 1e3 refused; both are whole numbers now, the same run as
 * their digits. */
static void integer_flags_one_syntax(void **state)
{
    (void)state;
    const char *base = "step --model llama3-8b --hw h100-sxm --context 1024 --ideal --format csv ";
    static char digits[sizeof out];
    assert_int_equal(cli2(base, "--chips 3 --pp 3 --batch 1000,2"), 0);
    snprintf(digits, sizeof digits, "%s", out);
    assert_int_equal(cli2(base, "--chips 3e0 --pp 3.0 --batch 1e3,2e0"), 0);
    assert_string_equal(out, digits);
}

/* info: the issue's contract keys; LLaMA-2-13B's exact count. */
static void info_json(void **state)
{
    (void)state;
    cJSON *j = run_json("info --model llama2-13b --format json");
    assert_true(num(j, "params_total") == 13015864320.0);
    assert_true(num(j, "params_active") == 13015864320.0);
    assert_true(num(j, "kv_bytes_per_token") == 819200.0);
    assert_true(num(j, "flops_per_token") > 2 * 12.8e9);
    cJSON_Delete(j);
    j = run_json_noted("info --model scaling-book-18b --kv int8 --format json", "no max_context");
    assert_true(num(j, "kv_bytes_per_token") == 262144.0); /* worked problem 1 */
    cJSON_Delete(j);
}

/* step: contract keys of the result and of every row; the chapter's B = 1
 * figure (4.98 ms, seed 000 section 1) through --set overrides. */
static void step_json(void **state)
{
    (void)state;
    /* stderr apart: batch 16 does not fit, and step says so (tester62 #6) */
    cJSON *j = run_cli_json("step --model llama2-13b --hw tpu-v5e --chips 8 --batch 1,8,16 "
                            "--context 8192 --set hw.hbm_bw=8.2e11 --set model.max_context=8192 "
                            "--set hw.hbm_bytes=16e9 --ideal --format json", out, sizeof out);
    /* the book's model: --ideal (issue 12), its 16 GB = 16e9 B chips (the
     * preset: 16 GiB, docs/model.md "HBM capacity") */
    assert_string_equal(cJSON_GetObjectItem(j, "mode")->valuestring, "ideal");
    assert_rel(num(j, "b_crit"), 240, 0.01);
    assert_true(num(j, "max_batch") == 15);
    const cJSON *rows = cJSON_GetObjectItem(j, "rows");
    assert_int_equal(cJSON_GetArraySize(rows), 3);
    static const char *keys[] = {"batch",       "context",      "step_s",      "tokens_per_s",
                                 "tokens_per_s_per_chip",       "weight_bytes", "kv_bytes",
                                 "total_bytes", "fits",         "bound"};
    for (const cJSON *r = rows->child; r; r = r->next)
        for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
            if (!cJSON_GetObjectItem(r, keys[k]))
                fail_msg("row lacks '%s'", keys[k]);
    assert_rel(num(rows->child, "step_s"), 4.98e-3, 0.01);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(rows->child, "fits")));
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetArrayItem(rows, 2), "fits")));
    cJSON_Delete(j);
}

static void csv_and_table(void **state)
{
    (void)state;
    assert_int_equal(run_cli("step --model llama3-8b --hw h100-sxm --batch 1,2 --context 1024 "
                             "--format csv",
                             out, sizeof out),
                     0);
    assert_non_null(strstr(out, "batch,context,step_s,tokens_per_s,"));
    /* tester4: a result without rows is a header line and one row, not key,value lines
     * (4000 requests: on fewer the capacity search repeats them, and a note says
     * so: since issue 14 item 5 its sample lasts until 2% of its arrivals
     * outnumber the resolution of its count in the system, 1000 requests of
     * 100/10 tokens read 433.4 req/s on a repeated sample);
     * stderr (merged here) holds only the host-cost note (tester50 F17), one line,
     * and the end-to-end gap note of h100-sxm's tables (fixJK #2), another */
    assert_int_equal(run_cli("simulate --model llama3-8b --hw h100-sxm --qps 1 --prompt-len 100 "
                             "--out-len 10 --requests 4000 --format csv",
                             out, sizeof out),
                     0);
    const char *csv = strstr(out, "policy,requests,completed,");
    assert_non_null(csv);
    const char *gap = strchr(out, '\n') + 1;
    if (csv != out && (strncmp(out, "roofline simulate: note: step times are kernel + collective "
                                    "time", 62) != 0 ||
                       strncmp(gap, "roofline simulate: note: the kernel tables' band holds", 54) !=
                           0 ||
                       strchr(gap, '\n') + 1 != csv))
        fail_msg("%s", out);
    const char *row = strchr(csv, '\n') + 1;
    assert_true(strncmp(row, "continuous,4000,4000,", 21) == 0);
    assert_string_equal(strchr(row, '\n'), "\n");
    assert_int_equal(run_cli("step --model llama3-8b --hw h100-sxm --context 1024", out, sizeof out), 0);
    assert_non_null(strstr(out, "step_ms"));
    assert_int_equal(run_cli("step --help", out, sizeof out), 0);
    assert_non_null(strstr(out, "usage: roofline step"));
}

/* The file `roofline ARGS PATH` writes, into out. */
static void written_by(const char *args, const char *path, char *text, size_t len)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "%s %s", args, path);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(text, 1, len - 1, f);
    text[n] = '\0';
    fclose(f);
    unlink(path);
}

/* --save writes the file atomically; nothing on stdout.  The old spelling
 * --output writes the same file, with a note naming the new one. */
static void output_file(void **state)
{
    (void)state;
    char path[] = "/tmp/rl_cli_XXXXXX.json";
    int fd = mkstemps(path, 5);
    close(fd);
    static char saved[1 << 16], old[1 << 16];
    written_by("info --model llama3-8b --format json --save", path, saved, sizeof saved);
    assert_string_equal(out, "");
    assert_non_null(strstr(saved, "\"params_total\""));
    written_by("info --model llama3-8b --format json --output", path, old, sizeof old);
    assert_non_null(strstr(out, "roofline info: note: --output here is --save now"));
    assert_string_equal(saved, old);
}

/* fixTE #1: --save's .json/.csv name picks the format when --format is not
 * given (step --save s2.json wrote the text table into it); a --format that
 * contradicts it is kept, with a note naming both; any other name keeps the
 * table. */
static void save_extension_picks_format(void **state)
{
    (void)state;
    static char saved[1 << 16];
    char path[] = "/tmp/rl_cli_XXXXXX.json";
    close(mkstemps(path, 5));
    written_by("info --model llama3-8b --save", path, saved, sizeof saved);
    assert_string_equal(out, "");
    assert_true(saved[0] == '{' && strstr(saved, "\"params_total\""));
    written_by("info --model llama3-8b --format csv --save", path, saved, sizeof saved);
    assert_true(saved[0] != '{');
    assert_non_null(strstr(out, "names a .json file, but --format csv was given: writing csv"));
    char csv[] = "/tmp/rl_cli_XXXXXX.CSV", txt[] = "/tmp/rl_cli_XXXXXX.txt";
    close(mkstemps(csv, 4));
    close(mkstemps(txt, 4));
    written_by("info --model llama3-8b --save", csv, saved, sizeof saved);
    assert_string_equal(out, "");
    assert_true(saved[0] != '{' && strchr(saved, ',') != NULL);
    static char table[1 << 16];
    written_by("info --model llama3-8b --save", txt, table, sizeof table);
    assert_true(table[0] != '{' && strcmp(table, saved) != 0);
}

/* Bad input: exit 2, a message naming the file/field/reason, no result. */
static void bad_input(void **state)
{
    (void)state;
    static const struct {
        const char *args, *fragment;
    } cases[] = {
        {"step --model llama3-8b --hw tpu-v5e --context 9000", "max_context"},
        {"step --model llama3-8b --hw tpu-v5e --context 100 --batch 0", "--batch"},
        {"step --model llama3-8b --hw tpu-v5e --context 100 --batch 1,,2", "--batch"},
        {"step --model llama3-8b --hw tpu-v5e --context 100 --weights int3", "unknown dtype 'int3'"},
        {"step --model llama3-8b --hw tpu-v5e --context 100 --compute fp8", "flops.fp8"},
        {"step --model llama3-8b --hw tpu-v5e --context 100 --set model.kv_heads=5",
         "field 'kv_heads': 5 does not divide heads (32)"},
        {"step --model llama3-8b --hw tpu-v5e --context 100 --set model.kv_head=8",
         "field 'kv_head': unknown model field"},
        {"step --model llama3-8b --hw tpu-v5e --context 100 --set hw.hbm_bw=-1",
         "field 'hbm_bw': must be > 0"},
        {"step --model llama3-8b --hw tpu-v5e --context 100 --set gpu.x=1", "prefix"},
        {"step --model nosuch --hw tpu-v5e --context 100", "unknown model 'nosuch'"},
        {"step --model llama3-8b --hw tpu-v5e", "--context S is required"},
        {"step --model llama3-8b --hw tpu-v5e --context 100 --chips 0", "--chips"},
        {"step --model llama3-8b --hw tpu-v5e --context 100 --bogus", "unknown option"},
        {"info --model llama3-8b --format xml", "--format"},
        {"info --model /nonexistent/m.lua", "cannot read"},
        {"frobnicate", "unknown command"},
        {"run /nonexistent.lua", "cannot read"},
        {"step --model llama3-8b --hw h100-sxm --context 10 --chips 8,16", "takes one integer"},
        {"step --model llama3-8b --hw h100-sxm --context 10 --set hw.hbm_bw=1e-300",
         "with --set hbm_bw=1e-300: field 'hbm_bw': must be >= 1"},
        {"step --model llama3-8b --hw h100-sxm --context 10 --set hw.flops.bf16=nan",
         "must be a finite number, got NaN"},
        {"step --model llama3-8b --hw h100-sxm --context 10 --set hw.domain_chips=0",
         "field 'domain_chips': must be > 0"},
        {"step --model llama3-8b --hw " RL_SRCDIR "/model/llama3-8b.lua --context 10",
         "is this a model spec?"},
        {"info --model llama3-8b --set hw.hbm_bw=1", "takes no hardware spec"},
        {"info --model llama3-8b --context 9000", "max_context"},
        {"info --model llama3-8b.lua", "preset names take no .lua"},
        {"info --model /tmp", "must end in .lua"},
        {"info --model /tmp/dir.lua/", "must end in .lua"},
        {"info --model /etc/passwd", "must end in .lua"},
        {"info --model llama3-8b --format", "needs a value"},
        {"run --format json x.lua", "takes no option '--format'"},
        /* tester3 #12: a repeated option (either spelling) is refused, not last-wins */
        {"step --model llama3-8b --hw h100-sxm --context 4096 --context 8192",
         "--context given twice ('4096', then --context '8192')"},
        {"simulate --model llama3-8b --hw h100-sxm --qps 1 --prompt 100 --prompt-len 200 "
         "--out-len 10", "--prompt given twice"},
        /* tester10 #11: a one-integer flag takes 1e12-style, and says what it expects */
        {"run --max-instructions 1.5 x.lua", "--max-instructions '1.5': not a whole number"},
        /* tester10 #13: so is a repeated --set of one field (it was last-wins) */
        {"info --model llama3-8b --set model.layers=10 --set model.layers=20",
         "--set model.layers given twice ('10', then '20')"},
        /* ops has no chunked prefill: --chunk is refused, not ignored */
        {"ops --model llama3-8b --hw h100-sxm --phase prefill --tokens 100 --chunk 7",
         "takes no option '--chunk'"},
        /* --moe-attn replicated on a dense model, as --ep there */
        {"step --model llama3-70b --hw h100-sxm --chips 16 --tp 16 --context 100 "
         "--moe-attn replicated", "moe-attn: replicated lays out a MoE model's attention"},
        {"prefill --model llama3-70b --hw h100-sxm --tp 8 --tokens 100 --moe-attn replicated",
         "llama3-70b has no experts"},
        /* --ep beside attn-dp: the one failing condition named */
        {"simulate --model deepseek-v3 --hw h200 --chips 8 --ep 8 --attn-layout attn-dp --qps 1 "
         "--prompt-len 100 --out-len 10", "--attn-layout attn-dp exclude each other"},
        /* tester28 F3 took step --pp 3 on llama3-8b's 32 layers as 10.67 a
         * stage; since stop 29 unequal stages are modelled (vLLM's 11 11 10,
         * shard.h rl_shard_stage_layers) and only more stages than layers
         * are refused, by step, shard's plans and simulate alike */
        {"step --model llama3-8b --hw h100-sxm --chips 33 --pp 33 --batch 8 --context 1024",
         "pp: 33 pipeline stages exceed the 32 layers of llama3-8b"},
        {"step --model llama3-8b --hw h100-sxm --chips 33 --pp 33 --batch 8 --context 1024 --ideal",
         "exceed the 32 layers"},
        {"simulate --model llama3-8b --hw h100-sxm --chips 33 --pp 33 --qps 1 --prompt-len 100 "
         "--out-len 10", "pp: 33 pipeline stages exceed the 32 layers of llama3-8b"},
        /* tester32 F7: the one failing condition named (the old message
         * named both: "must divide the replica's 3 chips and not exceed the
         * 2 layers" when 3 divides 3) */
        {"simulate --model tiny-test --hw h100-sxm --chips 3 --pp 3 --qps 1 --prompt-len 10 "
         "--out-len 5 --requests 100", "pp: 3 pipeline stages exceed the 2 layers of tiny-test"},
        {"simulate --model llama3-8b --hw h100-sxm --chips 4 --pp 3 --qps 1 --prompt-len 100 "
         "--out-len 10", "pp: 3 pipeline stages do not divide the replica's 4 chips"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int rc = run_cli(cases[i].args, out, sizeof out);
        if (rc != 2)
            fail_msg("roofline %s: exit %d, expected 2 (%s)", cases[i].args, rc, out);
        if (!strstr(out, cases[i].fragment))
            fail_msg("roofline %s: \"%s\" lacks \"%s\"", cases[i].args, out, cases[i].fragment);
        if (strstr(out, "-nan") || strstr(out, " nan\n") || strstr(out, "\"rows\""))
            fail_msg("roofline %s printed a result: %s", cases[i].args, out);
    }
}

/* --output never replaces what is not a regular file: refused before the
 * run (exit 2; tester9 #4: it failed after the run, exit 1), device kept. */
static void output_not_regular(void **state)
{
    (void)state;
    assert_int_equal(run_cli("info --model llama3-8b --output /dev/null", out, sizeof out), 2);
    assert_non_null(strstr(out, "not a regular file"));
    struct stat st;
    assert_int_equal(stat("/dev/null", &st), 0);
    assert_true(S_ISCHR(st.st_mode));
}

/* Write files[i] (relative to dir) with text[i], for i < n. */
static void put_files(const char *dir, const char *const *files, const char *const *text, int n)
{
    char path[256];
    for (int i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs(text[i], f);
        fclose(f);
    }
}

/* Shell command `cmd`'s stdout into out; returns its exit status (-1 when
 * it died by a signal). */
static int shell_out(const char *cmd)
{
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    out[fread(out, 1, sizeof out - 1, p)] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* `cmdline` (a whole command) with ROOFLINE_DATA=dir exits 2 and says
 * `fragment`. */
static void expect_refused_in(const char *dir, const char *cmdline, const char *fragment)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "ROOFLINE_DATA=%s %s 2>&1", dir, cmdline);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 2 || !strstr(out, fragment))
        fail_msg("%s: expected exit 2 and '%s', got %d: %s", cmdline, fragment,
                 WIFEXITED(st) ? WEXITSTATUS(st) : -1, out);
}

/* tester77 F6: a ROOFLINE_DATA hw profile named as a shipped preset whose
 * base is that name read its own file as base, "more than 8 bases in a
 * chain (a cycle?)"; now the error says so and gives the shipped path. */
static void self_named_base_refused(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_selfbase_XXXXXX", sub[64], file[96], cmd[256];
    assert_non_null(mkdtemp(dir));
    snprintf(sub, sizeof sub, "%s/hw_profiles", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    snprintf(file, sizeof file, "%s/h100-sxm.lua", sub);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fputs("return { base = \"h100-sxm\", hbm_bw = 1e13 }\n", f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s step --model llama3-8b --hw h100-sxm --context 1024", RL_BIN);
    expect_refused_in(dir, cmd, "field 'base': 'h100-sxm' names the file itself (a ROOFLINE_DATA "
                      "file, looked up before the shipped preset of its name); give the shipped "
                      "preset's path (e.g. base = \"");
    assert_non_null(strstr(out, "hw_profiles/h100-sxm.lua\")"));
    remove(file);
    rmdir(sub);
    rmdir(dir);
}

/* tester57 F4: a set ROOFLINE_DATA that names no readable folder was
 * skipped silently (presets came from beside the binary).  Expected: exit 2
 * naming the variable, its value and why, for a command that reads presets
 * and for one that reads none (import-hf: every command refuses it); an
 * empty one is unset (the run succeeds). */
static void roofline_data_unusable(void **state)
{
    (void)state;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s list hw", RL_BIN);
    expect_refused_in("/nonexistent/rl-data", cmd,
                      "roofline list: ROOFLINE_DATA='/nonexistent/rl-data': No such file or directory");
    snprintf(cmd, sizeof cmd, "%s import-hf %s/tests/data/hf/llama3-8b.json", RL_BIN, RL_SRCDIR);
    expect_refused_in(RL_SRCDIR "/README.md", cmd, "ROOFLINE_DATA='" RL_SRCDIR "/README.md': not "
                      "a directory: it names the folder presets are looked up in first");
    snprintf(cmd, sizeof cmd, "ROOFLINE_DATA= %s info --model llama3-8b >/dev/null 2>&1", RL_BIN);
    assert_int_equal(shell_out(cmd), 0);
}

/* fixFI: a model/llama3-8b.lua in ROOFLINE_DATA silently stood for the
 * shipped preset of that name.  Expected: one note on stderr (once, though
 * step loads the model for each of its two batches) naming both files when
 * the contents differ; none for an identical copy, nor with ROOFLINE_DATA
 * the source tree itself (make bench, the tests). */
static void roofline_data_shadow_said(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_shadow_XXXXXX", cmd[2048];
    assert_non_null(mkdtemp(dir));
    static const char *const note = "note: model 'llama3-8b' is ";
    for (int edit = 0; edit < 3; edit++) {
        snprintf(cmd, sizeof cmd, "mkdir -p %s/model && cp %s/model/llama3-8b.lua %s/model/ && %s"
                 "ROOFLINE_DATA=%s %s step --model llama3-8b --hw h100-sxm --batch 1,2 --context "
                 "128 2>&1 >/dev/null", dir, RL_SRCDIR, dir,
                 edit == 1 ? "echo '-- mine' >> model/llama3-8b.lua && " : "",
                 edit == 2 ? RL_SRCDIR : dir, RL_BIN);
        char full[2400];
        snprintf(full, sizeof full, "cd %s && %s", dir, cmd);
        assert_int_equal(shell_out(full), 0);
        const char *at = strstr(out, note);
        if ((at != NULL) != (edit == 1) || (at && strstr(at + 1, note)))
            fail_msg("case %d: %s", edit, out);
        if (at && !strstr(at, "/model/llama3-8b.lua from ROOFLINE_DATA, which is looked up "
                              "first: it shadows the shipped preset of that name ("))
            fail_msg("%s", out);
    }
    assert_int_equal(remove_tree(dir), 0);
}

/* A hardware profile given by path reads its engine files beside itself
 * (engines.h rl_engines_select; tester: a copy of h100-sxm.lua with an
 * edited engines/h100-sxm-trtllm.lua beside it read the shipped file, and
 * the edit was ignored).  Expected: the copy's engine memory fraction,
 * edited from the shipped 0.9 to 0.5, is the run's memory_fraction
 * (exactly: it is read, not computed), and llama3-70b's tp8 max_batch at
 * context 4096 falls below the shipped profile's (362 at 0.9, test_shard
 * plan_max_batch; 363 before trtllm's activation workspace: fewer bytes
 * for KV), with a note naming both files; with no engines/ beside the copy
 * the shipped file is read (0.9) and a note says so.  Each note once per
 * process (review54: with none beside, a Lua script's three roofline.step
 * calls on the copy said it three times; expected: 1). */
static void engine_file_beside_profile(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_engdir_XXXXXX", cmd[2048];
    assert_non_null(mkdtemp(dir));
    for (int beside = 1; beside >= 0; beside--) {
        snprintf(cmd, sizeof cmd, "rm -rf %s/engines && cp %s/hw_profiles/h100-sxm.lua %s/ && %s"
                 "%s step --model llama3-70b --hw %s/h100-sxm.lua --chips 8 --context 4096 "
                 "--format json 2>&1", dir, RL_SRCDIR, dir,
                 beside ? "mkdir engines && cp " RL_SRCDIR "/hw_profiles/engines/h100-sxm-trtllm.lua "
                          "engines/ && sed -i 's/fraction = 0.9,/fraction = 0.5,/' "
                          "engines/h100-sxm-trtllm.lua && " : "", RL_BIN, dir);
        char full[2400];
        snprintf(full, sizeof full, "cd %s && %s", dir, cmd);
        assert_int_equal(shell_out(full), 0);
        const char *f = strstr(out, "\"memory_fraction\":"), *b = strstr(out, "\"max_batch\":");
        if (!f || !b || strtod(f + 18, NULL) != (beside ? 0.5 : 0.9) ||
            (strtol(b + 12, NULL, 10) < 362) != beside)
            fail_msg("beside %d: %s", beside, out);
        if (!strstr(out, beside ? "engine 'trtllm' reads " : "engine 'trtllm': no ") ||
            !strstr(out, beside ? "beside the profile, not the shipped " : "beside the profile; "
                                  "read the shipped "))
            fail_msg("beside %d: no note: %s", beside, out);
        snprintf(cmd, sizeof cmd, "cd %s && printf 'for i = 1, 3 do roofline.step{model = "
                 "\"llama3-8b\", hw = \"%s/h100-sxm.lua\", batch = 8, context = 1024} end\\n'"
                 " > three.lua && %s run three.lua 2>&1", dir, dir, RL_BIN);
        assert_int_equal(shell_out(cmd), 0);
        int notes = 0;
        for (const char *at = out; (at = strstr(at, "beside the profile")) != NULL; at++)
            notes++;
        if (notes != 1)
            fail_msg("beside %d: %d notes in a script's three loads: %s", beside, notes, out);
    }
    assert_int_equal(remove_tree(dir), 0);
}

/* review54b: roofline.hw(PATH) returned the profile as a table whose
 * engines had lost the folder of PATH (rl_engines_push), so passing that
 * table to roofline.step read the shipped engine file: memory_fraction
 * 0.9, max_batch 363, against 0.5 / 202 for the same PATH as a string.
 * Expected: the copy's edited fraction 0.5 (exact: read, not computed)
 * both ways, and roofline.hw's table shows no extra key (the folder rides
 * in the engines table's metatable: a saved spec names what it did). */
static void engine_file_beside_profile_table(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_engtab_XXXXXX", cmd[4096];
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "cd %s && mkdir engines && cp %s/hw_profiles/h100-sxm.lua . && cp "
             "%s/hw_profiles/engines/h100-sxm-trtllm.lua engines/ && sed -i 's/fraction = 0.9,"
             "/fraction = 0.5,/' engines/h100-sxm-trtllm.lua && printf '"
             "local h = roofline.hw(\"%s/h100-sxm.lua\")\n"
             "local n = 0 for k in pairs(h.engines) do n = n + 1 end\n"
             "local r = roofline.step{model = \"llama3-70b\", hw = h, chips = 8, context = 4096}\n"
             "print(\"fraction=\" .. r.memory_fraction .. \" keys=\" .. n)\n' > t.lua && "
             "%s run t.lua 2>&1", dir, RL_SRCDIR, RL_SRCDIR, dir, RL_BIN);
    assert_int_equal(shell_out(cmd), 0);
    /* keys: the shipped h100-sxm names two engines and a default (3) */
    if (!strstr(out, "fraction=0.5 ") || !strstr(out, "keys=3"))
        fail_msg("%s", out);
    assert_int_equal(remove_tree(dir), 0);
}

/* review54: the folder of a profile given by path was kept in 512 bytes
 * (engines.h RL_ENGINES_DIR_MAX) and cut silently past them, so a profile
 * 615 characters deep looked for its engine file in a folder that does
 * not exist, said "no ... beside the profile" and read the shipped file
 * (memory_fraction 0.9).  Now any folder a path can name is kept.
 * Expected: the edited 0.5 read beside it (exact: read, not computed), no
 * "no ... beside" note. */
static void engine_file_beside_long_folder(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_englong_XXXXXX", deep[1024], cmd[8192];
    assert_non_null(mkdtemp(dir));
    int k = snprintf(deep, sizeof deep, "%s", dir);
    for (int level = 0; level < 3; level++) /* three 200-byte names: over 512 in all */
        k += snprintf(deep + k, sizeof deep - (size_t)k, "/%.200s",
                      "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd"
                      "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd"
                      "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd");
    assert_true(k > 600);
    snprintf(cmd, sizeof cmd, "mkdir -p %s/engines && cp %s/hw_profiles/h100-sxm.lua %s/ && cp "
             "%s/hw_profiles/engines/h100-sxm-trtllm.lua %s/engines/ && sed -i 's/fraction = "
             "0.9,/fraction = 0.5,/' %s/engines/h100-sxm-trtllm.lua && %s step --model "
             "llama3-70b --hw %s/h100-sxm.lua --chips 8 --context 4096 --format json 2>&1",
             deep, RL_SRCDIR, deep, RL_SRCDIR, deep, deep, RL_BIN, deep);
    assert_int_equal(shell_out(cmd), 0);
    const char *f = strstr(out, "\"memory_fraction\":");
    if (!f || strtod(f + 18, NULL) != 0.5 || strstr(out, "beside the profile; read the shipped"))
        fail_msg("%s", out);
    assert_int_equal(remove_tree(dir), 0);
}

/* No output replaces an input of the run or a shipped preset, and a file
 * into a missing folder is refused before any work (tester6: `fit --save
 * hw_profiles/h100-sxm.lua --hw h100-sxm` rewrote the preset it read).  The
 * presets here are a temporary ROOFLINE_DATA, so a failure cannot harm the
 * repository's. */
static void save_never_replaces_inputs(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_save_XXXXXX", path[256], cmd[1024];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/hw_profiles", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/model", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    /* chip.lua is shipped (listed in PRESETS), own.lua is the user's own
     * file in the same folder, which a spec's --save may rewrite (review21
     * #1: import-hf's); a result's (info's) may not (tester53 F1) */
    static const char *const files[] = {"hw_profiles/chip.lua", "mine.lua", "w.lua",
                                        "PRESETS", "model/own.lua", "kid.lua",
                                        "hw_profiles/own.lua"};
    static const char *const text[] = {"-- kept\n", "-- kept\n",
                                       "roofline.write('chip.lua', '-- clobbered')\n",
                                       "model/x.lua\nhw_profiles/chip.lua\n", "-- mine\n",
                                       "return { base = 'mine.lua' }\n", "-- kept\n"};
    put_files(dir, files, text, 7);
    static const struct {
        const char *args, *fragment;
    } cases[] = {
        {"info --model llama3-8b --save %s/hw_profiles/chip.lua", "it is a shipped preset"},
        {"fit x.csv --hw %s/mine.lua --save %s/mine.lua", "it is an input of this run"},
        /* a file the --hw profile inherits through `base` is an input too */
        {"fit x.csv --hw %s/kid.lua --save %s/mine.lua", "it is an input of this run"},
        {"calibrate --backend cpu --quick --save %s/hw_profiles/chip.lua", "shipped preset"},
        {"fit x.csv --hw %s/mine.lua --output %s/mine.lua", "it is an input of this run"},
        {"fit %s/mine.lua --hw h100-sxm --output %s/mine.lua", "it is an input of this run"},
        {"simulate --model llama3-8b --hw h100-sxm --trace %s/mine.lua --save %s/mine.lua",
         "it is an input of this run"},
        {"step --model llama3-8b --hw h100-sxm --context 1 --save %s/no/x.json",
         "--save '/tmp/rl_save_"},
        {"step --model llama3-8b --hw h100-sxm --context 1 --save %s/hw_profiles/",
         "names a folder"},
        /* an output folder over a preset folder: the same refusal per file */
        {"run --out %s/hw_profiles %s/w.lua", "chip.lua: it is a shipped preset"},
        {"info --model llama3-8b --save %s/hw_profiles/own.lua", "a result named .lua in the "
         "presets folder hw_profiles/"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char args[512];
        snprintf(cmd, sizeof cmd, "%s %s", RL_BIN, cases[i].args);
        snprintf(args, sizeof args, cmd, dir, dir);
        expect_refused_in(dir, args, cases[i].fragment);
    }
    /* the user's own file in a preset folder is rewritten by a spec */
    snprintf(cmd, sizeof cmd, "ROOFLINE_DATA=%s %s import-hf %s/tests/data/hf/gemma2-27b.json "
             "--save %s/model/own.lua >/dev/null 2>&1", dir, RL_BIN, RL_SRCDIR, dir);
    assert_int_equal(system(cmd), 0);
    for (int i = 0; i < 7; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        char *t = slurp_text(path);
        if (i < 2 || i == 6)
            assert_string_equal(t, "-- kept\n");
        if (i == 4)
            assert_string_not_equal(t, "-- mine\n");
        free(t);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/hw_profiles", dir);
    rmdir(path);
    snprintf(path, sizeof path, "%s/model", dir);
    rmdir(path);
    rmdir(dir);
}

/* Every output of a run is checked before any work (exit 2, nothing
 * written; guard.h), in a temporary ROOFLINE_DATA whose PRESETS lists a
 * plot template and a scenario (tester9 #1-#6): PRESETS itself, listed
 * templates and scenarios, a copy of the program run onto itself, the
 * scenario being run, a folder, /dev/full, /proc/self/x, two outputs
 * naming one file (the figure, its data file, a --plot-dir figure), a
 * --plot-dir below a file, calibrate's tables folder that is a
 * file, validate-serve's calibration below a file, run --out "".
 * calibrate names the raw samples it replaces. */
static void outputs_refused_before_the_run(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_guard_cli_XXXXXX", path[256], cmd[2048];
    assert_non_null(mkdtemp(dir));
    static const char *const dirs[] = {"plots", "scenarios", "bin", "pd", "vs"};
    for (int i = 0; i < 5; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, dirs[i]);
        assert_int_equal(mkdir(path, 0700), 0);
    }
    static const char *const files[] = {"PRESETS", "plots/t.gp", "scenarios/s.lua", "w.lua",
                                        "p.json", "q-tables", "s.lua", "vs/hw_profiles"};
    static const char *const text[] = {"plots/t.gp\nscenarios/s.lua\n", "# kept\n", "-- kept\n",
                                       "roofline.write('w.lua', '-- clobbered')\n",
                                       "{\"precious\": 1}\n", "not a folder\n",
                                       "roofline.write('s.lua', '-- clobbered')\n",
                                       "not a folder either\n"};
    put_files(dir, files, text, 8);
    snprintf(cmd, sizeof cmd, "cp %s %s/bin/roofline", RL_BIN, dir);
    assert_int_equal(system(cmd), 0);
    const char *step = "step --model llama3-8b --hw h100-sxm --context 1";
    const char *pareto = "pareto --model llama3-70b --hw tpu-v5e --chips 16,32";
    const char *sim = "simulate --model llama3-8b --hw h100-sxm --qps 1 --prompt-len 100 "
                      "--out-len 10 --requests 10";
    static const struct {
        const char *fmt, *fragment;
    } cases[] = {
        {"@BIN@ @STEP@ --save @D@/PRESETS", "it is a file roofline ships"},
        {"@BIN@ @STEP@ --save @D@/plots/t.gp", "it is a file roofline ships"},
        {"@BIN@ @STEP@ --save @D@/scenarios/s.lua", "it is a file roofline ships"},
        {"@D@/bin/roofline step --model @SRC@/model/llama3-8b.lua --hw h100-sxm --context 1 "
         "--save @D@/bin/roofline", "it is the roofline program itself"},
        {"@BIN@ run --out @D@/scenarios @D@/s.lua", /* fixRD #1: refused as a folder */
         "it is a source folder of roofline's own tree"},
        {"@BIN@ run --out @D@ @D@/w.lua", "w.lua: it is an input of this run (the scenario)"},
        {"@BIN@ @STEP@ --save @D@", "exists and is not a regular file (a folder)"},
        {"@BIN@ @STEP@ --save /dev/full", "exists and is not a regular file (a device"},
        {"@BIN@ @STEP@ --save /proc/self/x", "its folder '/proc/self' is on procfs (/proc)"},
        {"@BIN@ @PARETO@ --plot @D@/g.png --save @D@/g.png", "--plot and --save name the same file"},
        {"@BIN@ @PARETO@ --plot @D@/g.png --save @D@/./g.dat",
         "--plot's data file and --save name the same file"},
        {"@BIN@ @SIM@ --plot-dir @D@/pd --save @D@/pd/latency_cdf.dat",
         "a --plot-dir figure and --save name the same file"},
        {"@BIN@ @SIM@ --plot-dir @D@/w.lua/pd", "w.lua' exists and is not a folder"},
        /* tester38 F4: found by plot.c after the simulation (exit 1, the
         * result lost, the folder left made); since tester39 F7 a quote is
         * taken, a control character is what plot.c refuses */
        {"@BIN@ @SIM@ --plot-dir \"@D@/it$(printf '\\t')s\"",
         "holds a control character"},
        /* validate writes STEM.dat/.gp beside each figure (review22 #2) */
        {"@BIN@ validate --backend cpu --quick --plot @D@/v.png --save @D@/v-steps.dat",
         "--plot's steps data file and --save name the same file"},
        {"@BIN@ validate --backend cpu --quick --plot @D@/v.png --save @D@/v.gp",
         "--plot's gnuplot script and --save name the same file"},
        {"@BIN@ calibrate --backend cpu --quick --save @D@/q.lua",
         "the tables folder '/tmp/rl_guard_cli_"},
        {"@BIN@ run --out '' @D@/w.lua", "--out: empty"},
        /* validate-serve's own calibration (review22 #10: it found this
         * only after calibrating) */
        {"cd @D@/vs && @BIN@ validate-serve --quick", "'hw_profiles' exists and is not a folder"},
        /* the note comes before the run, which the unknown model stops */
        {"@BIN@ calibrate --backend cpu --quick --model nosuch --save @D@/p.lua",
         "note: replacing /tmp/rl_guard_cli_"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char args[1024];
        const char *const from[] = {"@BIN@", "@STEP@", "@D@", "@SRC@", "@PARETO@", "@SIM@"};
        const char *const to[] = {RL_BIN, step, dir, RL_SRCDIR, pareto, sim};
        snprintf(args, sizeof args, "%s", cases[i].fmt);
        for (int k = 0; k < 6; k++)
            for (char *at; (at = strstr(args, from[k])) != NULL;) {
                char rest[1024];
                snprintf(rest, sizeof rest, "%s", at + strlen(from[k]));
                snprintf(at, sizeof args - (size_t)(at - args), "%s%s", to[k], rest);
            }
        expect_refused_in(dir, args, cases[i].fragment);
    }
    for (int i = 0; i < 8; i++) /* every file as it was */
        assert_file_equal(dir, files[i], text[i]);
    snprintf(cmd, sizeof cmd, "cmp -s %s %s/bin/roofline && ls %s/pd | wc -l | grep -qx 0 && "
             "test ! -e \"%s/it\ts\"", RL_BIN, dir, dir, dir);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(remove_tree(dir), 0);
}

/* tester38 F4: a model name with a quote is a valid spec, and simulate
 * --plot-dir writes it into the figures' titles quoted as pareto --plot
 * does (plot.c rl_plot_render_titled: the quote doubled), where it refused
 * it after the run ("plots: title must not contain quotes", exit 1, no
 * result printed). */
static void simulate_plot_title_quoted(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_sim_title_XXXXXX", cmd[1024];
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "simulate --model llama3-8b --hw h100-sxm --qps 1 --prompt-len 100 "
             "--out-len 10 --requests 10 --set \"model.name=b'x\" --plot-dir %s/pd "
             "--format json 2>/dev/null", dir);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, "\"ttft_p50_s\""));
    char pd[300];
    snprintf(pd, sizeof pd, "%s/pd", dir);
    assert_file_contains(pd, "latency_cdf.gp", "plottitle = 'Latency CDF: b''x on 1 x h100-sxm");
    assert_file_contains(pd, "kv_occupancy.gp", "plottitle = 'KV cache occupancy: b''x on 1 x");
    assert_int_equal(remove_tree(dir), 0);
}

/* Control bytes a message echoes (C1's U+009B CSI too: review43) are
 * shown as \xHH (rl_cli_say), never
 * sent to the terminal (hostile-input sweep: --model, --weights and
 * --engine with an escape sequence recoloured it); --engine is also held
 * to a plain name, never a path (calibrate --tables DIR --engine ../x read
 * another folder's tables). */
static void control_bytes_not_echoed(void **state)
{
    (void)state;
    static const char *const cmds[] = {
        "step --model \"$(printf 'a\\033[31m')\" --hw h100-sxm --context 1",
        "step --model llama3-8b --hw h100-sxm --context 1 --weights \"$(printf 'b\\033]0;t\\007')\"",
        "step --model llama3-8b --hw h100-sxm --context 1 --engine \"$(printf 'c\\033[0m')\"",
        /* the messages cli.c printed with its own fprintf (stop 25) */
        "\"$(printf 'd\\033[2J')\"",
        "help \"$(printf 'e\\033[2J')\"",
        "step --model llama3-8b --hw h100-sxm --context 1 \"$(printf -- '--f\\033[2J')\"",
        "pareto --model llama3-8b --hw h100-sxm \"$(printf 'g\\033[2J')\"",
        "simulate --qps 1 --qps \"$(printf '2\\033[2J')\"",
        /* review43: a C1 CSI (U+009B, C2 9B), valid UTF-8 */
        "step --model \"$(printf 'h\\302\\23331m')\" --hw h100-sxm --context 1"};
    static const char *const shown[] = {"unknown model 'a\\x1B[31m'",
                                        "unknown dtype 'b\\x1B]0;t\\x07'",
                                        "--engine 'c\\x1B[0m': a name of 1-40 letters",
                                        "roofline: unknown command 'd\\x1B[2J'",
                                        "roofline help: unknown command 'e\\x1B[2J'",
                                        "roofline step: unknown option '--f\\x1B[2J'",
                                        "roofline pareto: unexpected argument 'g\\x1B[2J'",
                                        "then --qps '2\\x1B[2J'): give it once",
                                        "unknown model 'h\\xC2\\x9B31m'"};
    for (int i = 0; i < 9; i++) {
        assert_int_equal(run_cli(cmds[i], out, sizeof out), 2);
        if (!strstr(out, shown[i]) || strchr(out, '\033') || strchr(out, '\007') ||
            strstr(out, "\302\233"))
            fail_msg("%s: %s", cmds[i], out);
    }
}

/* Every switch of every command given twice is refused naming it, exit 2
 * (stop 25: `simulate --offline --offline` ran): the rule is read from the
 * parameter table's types, so the test walks the same table. */
static void repeated_switch_refused(void **state)
{
    (void)state;
    int checked = 0;
    for (size_t c = 0; c < RL_NCOMMANDS; c++)
        for (int id = 0; id < RL_P_COUNT; id++) {
            const rl_command *k = &RL_COMMANDS[c];
            if (!k->cli || RL_PARAMS[id].type != RL_PT_SWITCH || !rl_command_takes(k, id, 1))
                continue;
            char cmd[256], want[128];
            snprintf(cmd, sizeof cmd, "%s --%s --%s", k->name, RL_PARAMS[id].flag,
                     RL_PARAMS[id].flag);
            snprintf(want, sizeof want, "roofline %s: --%s given twice: give it once", k->name,
                     RL_PARAMS[id].flag);
            assert_int_equal(run_cli(cmd, out, sizeof out), 2);
            if (!strstr(out, want))
                fail_msg("%s: %s", cmd, out);
            checked++;
        }
    assert_true(checked >= 10); /* --ideal alone is on seven commands */
}

/* tester13 #7: `run --out .` in the checkout rewrote README.md and
 * src/main.c without a word.  A run's replacements of files of roofline's
 * own tree (a temporary ROOFLINE_DATA with PRESETS) are said once the run
 * succeeds, naming them; a new file, and a file in out/ (a user's folder
 * there), are not named; a run that replaces none prints no such note.
 * Since tester76 #2 a source of the tree (Makefile, src/main.c) is refused
 * as --save refuses it: the run fails (exit 2) and keeps nothing. */
static void run_into_own_tree_noted(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_run_tree_XXXXXX", path[256], cmd[1024];
    assert_non_null(mkdtemp(dir));
    static const char *const dirs[] = {"src", "out"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, dirs[i]);
        assert_int_equal(mkdir(path, 0700), 0);
    }
    static const char *const files[] = {"PRESETS", "Makefile", "src/main.c", "out/o.txt",
                                        "w.lua", "x.lua", "notes.txt", "y.lua"};
    static const char *const text[] = {"", "all:\n", "int main;\n", "older\n",
                                       "for _, n in ipairs({'notes.txt', 'out/o.txt', "
                                       "'new.txt'}) do roofline.write(n, 'x') end\n",
                                       "roofline.write('new2.txt', 'x')\n", "older\n",
                                       "roofline.write('new3.txt', 'x') "
                                       "roofline.write('src/main.c', 'x')\n"};
    put_files(dir, files, text, 8);
    for (int k = 0; k < 3; k++) {
        snprintf(cmd, sizeof cmd, "cd %s && ROOFLINE_DATA=%s %s run --out . %s 2>&1", dir, dir,
                 RL_BIN, k == 2 ? "y.lua" : k ? "x.lua" : "w.lua");
        FILE *p = popen(cmd, "r");
        assert_non_null(p);
        size_t n = fread(out, 1, sizeof out - 1, p);
        out[n] = '\0';
        int status = pclose(p);
        if (k == 2) {
            if (status != 2 << 8 || !strstr(out, "src/main.c: it is a source file of roofline's "
                                                 "own tree"))
                fail_msg("a run's write over src/main.c: status %d: %s", status, out);
            continue;
        }
        assert_int_equal(status, 0);
        const char *note = strstr(out, "note: the run replaced files of roofline's own tree (");
        if (k == 1) {
            assert_null(note);
            continue;
        }
        snprintf(path, sizeof path, "%s: notes.txt), where only the files roofline "
                 "reads are guarded", dir);
        if (!note || !strstr(note, path))
            fail_msg("no note naming notes.txt in: %s", out);
        assert_null(strstr(out, "o.txt"));
        assert_null(strstr(out, "new.txt"));
    }
    assert_file_equal(dir, "notes.txt", "x"); /* replaced, as --save would: a note */
    assert_file_equal(dir, "src/main.c", "int main;\n"); /* refused, as --save */
    snprintf(path, sizeof path, "%s/new3.txt", dir);
    assert_int_equal(access(path, F_OK), -1); /* the failed run kept nothing */
    assert_int_equal(remove_tree(dir), 0);
}

/* The exit status (as pclose gives it) of shell command cmd, its output
 * in `out`. */
static int popen_out(const char *cmd)
{
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    return pclose(p);
}

/* tester47 F6: the rule is by name, a new file too: --save docs/NEW.md and
 * a run's roofline.write of NEW.md in --out docs were written (then refused
 * on the next run as "a document roofline ships"); now both are refused
 * the first time (exit 2, nothing written), the message stating the rule
 * and the run's saying "refusing to write it", not "replace".  A new
 * docs/sizing/NEW.md is still written. */
static void new_docs_refused(const char *dir)
{
    char path[256], cmd[1024];
    static const char *const files[] = {"PRESETS", "w.lua"};
    static const char *const text[] = {"", "roofline.write('NEW.md', 'x')\n"};
    put_files(dir, files, text, 2);
    static const char *const runs[] = {"info --model llama3-8b --save docs/NEW.md",
                                       "info --model llama3-8b --save README.md",
                                       "run --out docs w.lua",
                                       "info --model llama3-8b --save docs/sizing/NEW.md"};
    for (int k = 0; k < 4; k++) {
        snprintf(cmd, sizeof cmd, "cd %s && ROOFLINE_DATA=%s %s %s 2>&1", dir, dir, RL_BIN,
                 runs[k]);
        int rc = popen_out(cmd);
        if (k == 3) {
            assert_int_equal(rc, 0);
            continue;
        }
        if (rc != 2 << 8 || !strstr(out, "are the project's documentation, which roofline never "
                                          "writes, an existing file or a new one") ||
            (k == 2 && !strstr(out, "refusing to write it")))
            fail_msg("%s: exit %d: %s", cmd, rc, out);
    }
    snprintf(path, sizeof path, "%s/docs/NEW.md", dir);
    assert_int_equal(access(path, F_OK), -1);
    snprintf(path, sizeof path, "%s/README.md", dir);
    assert_int_equal(access(path, F_OK), -1);
    snprintf(path, sizeof path, "%s/docs/sizing/NEW.md", dir);
    assert_int_equal(access(path, F_OK), 0);
}

/* tester46 F10: README.md and the .md files of docs/ beside PRESETS are shipped documents:
 * --save and a run's roofline.write over one are refused (exit 2, the file
 * kept), as a preset is; docs/sizing/, which size --report regenerates, is
 * not guarded (a note). */
static void docs_are_guarded(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_docs_guard_XXXXXX", path[256], cmd[1024];
    assert_non_null(mkdtemp(dir));
    static const char *const dirs[] = {"docs", "docs/sizing"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, dirs[i]);
        assert_int_equal(mkdir(path, 0700), 0);
    }
    new_docs_refused(dir);
    static const char *const files[] = {"PRESETS", "README.md", "docs/model.md", "docs/sizing/s.md",
                                        "w.lua"};
    static const char *const text[] = {"", "# readme\n", "# model\n", "# s\n",
                                       "roofline.write('README.md', 'x')\n"};
    put_files(dir, files, text, 5);
    static const char *const saves[] = {"README.md", "docs/model.md", "docs/sizing/s.md"};
    for (int k = 0; k < 4; k++) {
        if (k < 3)
            snprintf(cmd, sizeof cmd, "cd %s && ROOFLINE_DATA=%s %s info --model llama3-8b --save "
                     "%s 2>&1", dir, dir, RL_BIN, saves[k]);
        else
            snprintf(cmd, sizeof cmd, "cd %s && ROOFLINE_DATA=%s %s run --out . w.lua 2>&1", dir,
                     dir, RL_BIN);
        int rc = popen_out(cmd);
        const char *want = k == 2 ? "replaces a file of roofline's own tree"
                                  : "README.md and docs/*.md of a roofline tree (any folder "
                                    "with a PRESETS) are the project's documentation, which "
                                    "roofline never writes, an existing file or a new one";
        if (rc != (k == 2 ? 0 : 2 << 8) || !strstr(out, want))
            fail_msg("%s: exit %d, no '%s' in: %s", cmd, rc, want, out);
        /* fixRC #1: the hint names out/, which a fresh clone lacks and
         * --save does not make: it says how to make it */
        if (k == 0 && !strstr(out, "`run` makes it; for --save, --report or --plot there, make "
                                   "it first: mkdir out"))
            fail_msg("%s: the out/ hint does not say how out/ is made: %s", cmd, out);
    }
    assert_file_equal(dir, "README.md", "# readme\n");
    assert_file_equal(dir, "docs/model.md", "# model\n");
    assert_int_equal(remove_tree(dir), 0);
}

/* issue 14 #4: nothing is written outside the output folder without
 * saying so.  A second --save over the same file, a second --plot of the
 * same figure (NAME.dat and NAME.gp; the figure too where gnuplot drew it),
 * run creating its --out folder and a new file in a roofline tree's
 * docs/sizing/ were all silent; now each is a note, exit 0 (expected: the
 * notes below; the first --save and --plot, which replace nothing, none). */
static void outputs_said(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_said_XXXXXX", cmd[1024], want[256];
    assert_non_null(mkdtemp(dir));
    for (int k = 0; k < 2; k++) {
        snprintf(cmd, sizeof cmd, "info --model llama3-8b --save %s/x.json", dir);
        assert_int_equal(run_cli(cmd, out, sizeof out), 0);
        snprintf(want, sizeof want, "note: %s/x.json existed and was replaced", dir);
        if (!strstr(out, want) != !k)
            fail_msg("run %d: %s", k, out);
        snprintf(cmd, sizeof cmd, "pareto --model llama3-8b --hw h100-sxm --chips 1 --batch 1,8 "
                 "--plot %s/f.png", dir);
        assert_int_equal(run_cli(cmd, out, sizeof out), 0);
        snprintf(want, sizeof want, "%s/f.dat and %s/f.gp existed and were replaced", dir, dir);
        if (!strstr(out, want) != !k)
            fail_msg("run %d: %s", k, out);
    }
    static const char *const files[] = {"PRESETS", "w.lua"};
    static const char *const text[] = {"", "roofline.write('a.txt', 'x')\n"};
    put_files(dir, files, text, 2);
    snprintf(cmd, sizeof cmd, "cd %s && ROOFLINE_DATA=%s %s run --out o/p w.lua 2>&1 && "
             "mkdir -p docs/sizing && ROOFLINE_DATA=%s %s info --model llama3-8b --save "
             "docs/sizing/NEW.md 2>&1", dir, dir, RL_BIN, dir, RL_BIN);
    assert_int_equal(popen_out(cmd), 0);
    snprintf(want, sizeof want, "roofline info: note: --save 'docs/sizing/NEW.md' is a new file "
             "in roofline's own tree (");
    if (!strstr(out, "roofline run: note: created the output folder o/p (with its missing "
                     "parent folders)") || !strstr(out, want))
        fail_msg("%s", out);
    assert_int_equal(remove_tree(dir), 0);
}

/* tester76 #2: --save Makefile and --save src/main.c replaced the project's
 * own sources, exit 0, with a note among others.  In a tree (a temporary
 * ROOFLINE_DATA with PRESETS) --save over an existing Makefile, a .c under
 * src/ and any file under tests/ is refused (exit 2, the file kept); a
 * file in build/, a .json at the top and roofline's own kinds of output
 * there, a .lua (README's `calibrate ... --save host.lua`, rerun) and a .gp
 * (a figure's script) are still written (the old note; review57 #1, #2:
 * the second run of either was refused). */
static void tree_sources_are_guarded(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_src_guard_XXXXXX", path[256], cmd[1024];
    assert_non_null(mkdtemp(dir));
    static const char *const dirs[] = {"src", "tests", "tests/data", "build"};
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, dirs[i]);
        assert_int_equal(mkdir(path, 0700), 0);
    }
    static const char *const files[] = {"PRESETS", "Makefile", "src/main.c", "tests/data/r.csv",
                                        "build/x.json", "x.json", "host.lua", "f.gp"};
    static const char *const text[] = {"", "all:\n", "int main;\n", "a,b\n", "{}\n", "{}\n",
                                       "x\n", "x\n"};
    put_files(dir, files, text, 8);
    for (int k = 1; k < 8; k++) {
        snprintf(cmd, sizeof cmd, "cd %s && ROOFLINE_DATA=%s %s info --model llama3-8b --save "
                 "%s 2>&1 >/dev/null", dir, dir, RL_BIN, files[k]);
        int rc = popen_out(cmd);
        const char *want = k < 4 ? "it is a source file of roofline's own tree"
                                 : "replaces a file of roofline's own tree";
        if (rc != (k < 4 ? 2 << 8 : 0) || !strstr(out, want))
            fail_msg("%s: exit %d, no '%s' in: %s", cmd, rc, want, out);
        if (k < 4)
            assert_file_equal(dir, files[k], text[k]);
    }
    assert_int_equal(remove_tree(dir), 0);
}

/* tester33 F3: `run --out` follows the folder rule of --plot-dir, before
 * the run (outdir.h rl_outdir_check): a missing folder is made with its
 * parents and said with the nearest one that exists, and a folder under a
 * file is refused (exit 2) before the script runs (the old code said
 * nothing for the first and failed the second at the first write).  fixRD
 * #1: a source folder of roofline's own tree (scenarios/ here, in a
 * temporary ROOFLINE_DATA with PRESETS; tests/new, a folder to be made
 * below one) and the file system's root are refused too, exit 2 before the
 * script runs (until then `--out scenarios` was a note, exit 0, and `run
 * --out tests/data/e2e` let roofline.write replace tracked test data). */
static void run_out_folder_rule(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_run_out_XXXXXX", path[256], cmd[1024], want[512];
    assert_non_null(mkdtemp(dir));
    static const char *const made[] = {"scenarios", "tests"};
    for (int k = 0; k < 2; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, made[k]);
        assert_int_equal(mkdir(path, 0700), 0);
    }
    static const char *const files[] = {"PRESETS", "w.lua"};
    static const char *const text[] = {"", "print('ran') roofline.write('n.txt', 'x')\n"};
    put_files(dir, files, text, 2);
    static const char *const outs[] = {"out/a/b", "w.lua/a", "scenarios", "tests/new", "/"};
    for (int k = 0; k < 5; k++) {
        snprintf(cmd, sizeof cmd, "cd %s && ROOFLINE_DATA=%s %s run --out %s %s/w.lua 2>&1", dir,
                 dir, RL_BIN, outs[k], dir);
        FILE *p = popen(cmd, "r");
        assert_non_null(p);
        size_t n = fread(out, 1, sizeof out - 1, p);
        out[n] = '\0';
        int rc = pclose(p);
        if (k == 0)
            snprintf(want, sizeof want, "note: --out 'out/a/b' does not exist: it will be made, "
                     "with its missing parents, in '.' when the run writes a file\n");
        else if (k == 1)
            snprintf(want, sizeof want, "--out 'w.lua/a': 'w.lua' exists and is not a folder");
        else if (k < 4)
            snprintf(want, sizeof want, "--out '%s': it is a source folder of roofline's own "
                     "tree", outs[k]);
        else
            snprintf(want, sizeof want, "--out '/': it is the file system's root");
        if (!strstr(out, want) || rc != (k ? 2 << 8 : 0) || (k != 0) != (strstr(out, "ran") == NULL))
            fail_msg("--out %s: exit %d, no '%s' in: %s", outs[k], rc, want, out);
    }
    /* stop 49: without --out, run's default out/ in a source folder (the
     * working directory tests/) is refused as --out tests/out is */
    snprintf(cmd, sizeof cmd, "cd %s/tests && ROOFLINE_DATA=%s %s run %s/w.lua 2>&1", dir, dir,
             RL_BIN, dir);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    int rc = pclose(p);
    if (rc != 2 << 8 || !strstr(out, "the default output folder 'out' would lie in a source folder"))
        fail_msg("run from tests/ without --out: exit %d: %s", rc, out);
    snprintf(path, sizeof path, "%s/tests/out", dir);
    assert_int_not_equal(access(path, F_OK), 0);
    assert_file_equal(dir, "out/a/b/n.txt", "x");
    snprintf(path, sizeof path, "%s/scenarios/n.txt", dir);
    assert_int_not_equal(access(path, F_OK), 0);
    snprintf(path, sizeof path, "%s/tests/new", dir);
    assert_int_not_equal(access(path, F_OK), 0);
    assert_int_equal(remove_tree(dir), 0);
}

/* A failed run keeps nothing (tester9 #7): the file it rewrote holds its
 * older content again, the file it created is gone, and the message says
 * so; a run that succeeds replaces the file. */
static void failed_run_puts_back(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_run_undo_XXXXXX", path[256], args[1024];
    assert_non_null(mkdtemp(dir));
    static const char *const files[] = {"a.txt", "bad.lua", "ok.lua"};
    static const char *const text[] = {"old\n",
                                       "roofline.write('a.txt', 'first')\n"
                                       "roofline.write('b.txt', 'new')\nerror('later failure')\n",
                                       "roofline.write('a.txt', 'second')\n"};
    put_files(dir, files, text, 3);
    snprintf(args, sizeof args, "run --out %s %s/bad.lua", dir, dir);
    assert_int_equal(run_cli(args, out, sizeof out), 2);
    assert_non_null(strstr(out, "kept nothing in"));
    assert_non_null(strstr(out, "1 new file removed, 1 older file put back"));
    assert_file_equal(dir, "a.txt", "old\n");
    snprintf(path, sizeof path, "%s/b.txt", dir);
    assert_int_not_equal(access(path, F_OK), 0);
    snprintf(args, sizeof args, "run --out %s %s/ok.lua", dir, dir);
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    assert_file_equal(dir, "a.txt", "second");
    assert_int_equal(remove_tree(dir), 0);
}

/* tester15 F-run-1: two runs into one --out each undid the other's files
 * and the original a.txt was lost.  With another process holding the
 * folder (a run's rl_outdir_open, in a child), `run --out` exits 2 before
 * its script runs, says why, and leaves a.txt as it was ("old\n"; the
 * script would write "new" and b.txt). */
static void run_refused_while_another_holds_the_folder(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_run_lock_XXXXXX", path[256], args[1024];
    assert_non_null(mkdtemp(dir));
    static const char *const files[] = {"a.txt", "w.lua"};
    static const char *const text[] = {"old\n", "roofline.write('a.txt', 'new')\n"
                                                "roofline.write('b.txt', 'new')\n"};
    put_files(dir, files, text, 2);
    pid_t pid = hold_folder(dir);
    snprintf(args, sizeof args, "run --out %s %s/w.lua", dir, dir);
    int rc = run_cli(args, out, sizeof out);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    if (rc != 2 || !strstr(out, "another roofline run is writing to this folder"))
        fail_msg("exit %d: %s", rc, out);
    assert_file_equal(dir, "a.txt", "old\n");
    snprintf(path, sizeof path, "%s/b.txt", dir);
    assert_int_not_equal(access(path, F_OK), 0);
    assert_int_equal(remove_tree(dir), 0);
}

/* fixB's note: `run --out /sys/...` exited 2 after the run where README's
 * exit codes make an output folder that cannot be made an output failure
 * (1).  Since tester33 F3 --out is checked before the run, as every output
 * README lists and --plot-dir are (outdir.h rl_outdir_check): a --out below
 * a regular file (ENOTDIR for any user, root included; a /sys path was not
 * portable: in a chroot without sysfs mounted, /sys is a plain folder root
 * can write into) is refused with exit 2 before the script runs, naming
 * the file in the way. */
static void unwritable_out_is_an_output_failure(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_run_nodir_XXXXXX", args[1024], want[512];
    assert_non_null(mkdtemp(dir));
    static const char *const files[] = {"w.lua", "plain"};
    static const char *const text[] = {"roofline.write('a.txt', 'new')\n", "x\n"};
    put_files(dir, files, text, 2);
    snprintf(args, sizeof args, "run --out %s/plain/o %s/w.lua", dir, dir);
    snprintf(want, sizeof want, "--out '%s/plain/o': '%s/plain' exists and is not a folder", dir,
             dir);
    int rc = run_cli(args, out, sizeof out);
    if (rc != 2 || !strstr(out, want))
        fail_msg("exit %d: %s", rc, out);
    assert_int_equal(remove_tree(dir), 0);
}

/* tester15 F-lua-1/2: a roofline.plot refused for its options (q.jpg, an
 * empty series) claims no name, so the corrected calls (q.png, p.png) draw
 * (rc 0, their .dat written); a step figure of one batch (B = 1) gets the
 * x range [0.5, 2], one octave each side (gnuplot refused [1:1]), and
 * renders where gnuplot is installed. */
static void refused_plot_claims_nothing(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_run_plotclaim_XXXXXX", path[300], args[1024];
    assert_non_null(mkdtemp(dir));
    static const char *const files[] = {"p.lua"};
    static const char *const text[] = {
        "local p = roofline.pareto{model='llama3-8b', hw='tpu-v5e', chips={4,8}, batch={1,8}, "
        "context=2048}\n"
        "local ok, e = pcall(roofline.plot, {kind='pareto', file='q.jpg', series={{rows=p.rows}}})\n"
        "assert(not ok and e:find('NAME.png or NAME.svg', 1, true), e)\n"
        "ok, e = pcall(roofline.plot, {kind='pareto', file='p.png', series={{rows={}}}})\n"
        "assert(not ok and e:find('no rows to draw', 1, true), e)\n"
        "roofline.plot{kind='pareto', file='q.png', series={{title='a', rows=p.rows}}}\n"
        "roofline.plot{kind='pareto', file='p.png', series={{title='a', rows=p.rows}}}\n"
        "roofline.plot{kind='step', file='s.png', model='llama3-8b', hw='h100-sxm', batch={1}, "
        "context=10}\n"};
    put_files(dir, files, text, 1);
    snprintf(args, sizeof args, "run --out %s %s/p.lua", dir, dir);
    int rc = run_cli(args, out, sizeof out);
    if (rc != 0)
        fail_msg("exit %d: %s", rc, out);
    static const char *const made[] = {"q.dat", "p.dat", "s.dat"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, made[i]);
        assert_int_equal(access(path, F_OK), 0);
    }
    assert_file_contains(dir, "s.gp", "\nbmin = 0.5\nbmax = 2\n");
    snprintf(path, sizeof path, "%s/s.png", dir);
    if (system("command -v gnuplot >/dev/null 2>&1") == 0)
        assert_int_equal(access(path, F_OK), 0);
    assert_int_equal(remove_tree(dir), 0);
}

/* A scenario's outputs stay apart from what it read and from each other
 * (tester12 #8: roofline.write replaced the model spec the script had
 * loaded by path, rc 0; tester11 #6: two figures y.png and y.svg shared
 * y.dat and y.gp): exit 2 naming what the file is, the spec as it was and
 * the file written before the refusal removed; one output writing its own
 * name twice keeps the second text (rc 0), with a note naming the undo
 * folder a killed run left (tester11 #7). */
static void run_keeps_inputs_and_outputs_apart(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_run_apart_XXXXXX", path[300], args[1024], in[3][300];
    assert_non_null(mkdtemp(dir));
    snprintf(args, sizeof args, "cp %s/model/llama3-8b.lua %s/m.lua", RL_SRCDIR, dir);
    assert_int_equal(system(args), 0);
    snprintf(in[0], sizeof in[0], "roofline.write('pre.txt', 'p')\nroofline.step{model='%s/m.lua', "
             "hw='h100-sxm', context=10}\nroofline.write('m.lua', 'gone')\n", dir);
    snprintf(in[1], sizeof in[1], "roofline.step{model='llama3-8b', hw='%s/hw.lua', context=10}\n"
             "roofline.write('hw.lua', 'gone')\n", dir);
    static const char *const files[] = {"hw.lua", "model.lua", "hw_in.lua", "figs.lua",
                                        "twice.lua"};
    const char *const text[] = {
        "return { base = 'h100-sxm', name = 'mine' }\n", in[0], in[1],
        "roofline.plot{kind='memory', file='y.png', model='llama3-8b', hw='h100-sxm', context=128}\n"
        "roofline.plot{kind='memory', file='y.svg', model='llama3-8b', hw='h100-sxm', context=128}\n",
        "roofline.write('x.txt', '1')\nroofline.write('x.txt', '2')\n"};
    put_files(dir, files, text, 5);
    static const struct {
        const char *script, *fragment;
    } cases[] = {
        {"model.lua", "m.lua: it is an input of this run (model spec); refusing to replace it"},
        {"hw_in.lua", "hw.lua: it is an input of this run (hardware spec)"},
        {"figs.lua", "y.dat: it is another output of this run (figure y.png)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(args, sizeof args, "run --out %s %s/%s", dir, dir, cases[i].script);
        assert_int_equal(run_cli(args, out, sizeof out), 2);
        if (!strstr(out, cases[i].fragment))
            fail_msg("%s: no '%s' in: %s", cases[i].script, cases[i].fragment, out);
    }
    assert_file_contains(dir, "m.lua", "LLaMA-3-8B");
    assert_file_equal(dir, "hw.lua", text[0]);
    static const char *const gone[] = {"pre.txt", "y.png", "y.dat", "y.gp", "y.svg"};
    for (int i = 0; i < 5; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, gone[i]);
        if (access(path, F_OK) == 0)
            fail_msg("%s was left by a failed run", gone[i]);
    }
    /* tester11 #7: a killed run's undo folder is named by the next run */
    snprintf(args, sizeof args, "mkdir %s/.roofline-undo-K1 && printf '0\\tx.txt\\n' > "
             "%s/.roofline-undo-K1/NAMES && echo older > %s/.roofline-undo-K1/0", dir, dir, dir);
    assert_int_equal(system(args), 0);
    snprintf(args, sizeof args, "run --out %s %s/twice.lua", dir, dir);
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    if (!strstr(out, "note: ") || !strstr(out, "/.roofline-undo-K1 holds the older copy of x.txt"))
        fail_msg("no note of the leftover undo folder: %s", out);
    assert_file_equal(dir, "x.txt", "2");
    /* review23 M2: the same in the default out folder (no --out) */
    snprintf(args, sizeof args, "mkdir -p %s/out/.roofline-undo-Q1 && printf '0\\tx.txt\\n' > "
             "%s/out/.roofline-undo-Q1/NAMES && echo older > %s/out/.roofline-undo-Q1/0", dir, dir,
             dir);
    assert_int_equal(system(args), 0);
    char cwd[PATH_MAX];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(dir), 0);
    int rc = run_cli("run twice.lua", out, sizeof out);
    assert_int_equal(chdir(cwd), 0);
    assert_int_equal(rc, 0);
    if (!strstr(out, "/out/.roofline-undo-Q1 holds the older copy of x.txt"))
        fail_msg("no note of the leftover undo folder in out: %s", out);
    assert_int_equal(remove_tree(dir), 0);
}

/* fixIM: mean_in_system of `simulate` and of roofline.simulate with the
 * same arguments: one computation, equal to the last bit (expected: the
 * two doubles identical; before, 3.476238394666442 against
 * 3.4762383946664395, the CLI's KV samples cutting the quiet decode runs
 * into more events, each adding its nsys x dt).  Every other shared key
 * already agreed exactly. */
static void simulate_mean_in_system_as_lua(void **state)
{
    (void)state;
    static char out[1 << 20];
    cJSON *j = run_cli_json("simulate --model llama3-8b --hw h100-sxm --qps 5 --requests 500 "
                            "--prompt-len 500 --out-len 100 --format json", out, sizeof out);
    const cJSON *v = cJSON_GetObjectItem(j, "mean_in_system");
    assert_true(cJSON_IsNumber(v));
    double cli = v->valuedouble;
    cJSON_Delete(j);
    char script[64], args[128];
    write_temp(script, ".lua",
               "local r = roofline.simulate{model='llama3-8b', hw='h100-sxm', qps=5, "
               "requests=500, prompt_len=500, out_len=100}\n"
               "print(string.format('MIS=%a', r.mean_in_system))\n");
    snprintf(args, sizeof args, "run %s", script);
    int rc = run_cli(args, out, sizeof out);
    unlink(script);
    assert_int_equal(rc, 0);
    const char *m = strstr(out, "MIS=");
    if (!m)
        fail_msg("no MIS= line: %s", out);
    double lua = strtod(m + 4, NULL);
    if (!(cli > 0) || cli != lua)
        fail_msg("mean_in_system: CLI %.17g, Lua %.17g", cli, lua);
}

/* A shell command that wrote its stdout and stderr to dir/log ended in
 * status `st`: exit 1, the log holding `fragment`. */
static void exited_1_saying(int st, const char *dir, const char *fragment)
{
    char *t = slurp_in(dir, "log");
    assert_true(WIFEXITED(st));
    if (WEXITSTATUS(st) != 1 || !strstr(t, fragment))
        fail_msg("exit %d: %s", WEXITSTATUS(st), t);
    free(t);
}

/* review23 M1: a figure whose script cannot be written is an output
 * failure (exit 1, docs/hardening.md), as a roofline.write's is.  The
 * failure is a file-size limit of one block, 512 or 1024 bytes by the shell
 * (SIGXFSZ ignored, so the write returns EFBIG): y.dat (about 400 bytes)
 * fits, y.gp (about 1.6 kB, the template) does not. */
static void run_plot_write_failure_exits_1(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_run_plotfail_XXXXXX", cmd[1024];
    assert_non_null(mkdtemp(dir));
    static const char *const files[] = {"p.lua"};
    static const char *const text[] = {
        "roofline.plot{kind='memory', file='y.png', model='llama3-8b', hw='h100-sxm', "
        "context=128}\n"};
    put_files(dir, files, text, 1);
    snprintf(cmd, sizeof cmd, "cd %s && ROOFLINE_DATA=%s sh -c \"trap '' XFSZ; ulimit -f 1; "
             "exec %s run --out o p.lua\" > log 2>&1", dir, RL_SRCDIR, RL_BIN);
    exited_1_saying(system(cmd), dir, "roofline.plot: y.gp: write failed");
    assert_int_equal(remove_tree(dir), 0);
}

/* tester15 F-out-1: `pareto --plot` whose script cannot be written (a full
 * disk there; here the one-block file-size limit of
 * run_plot_write_failure_exits_1: f.dat, about 200 bytes, fits, f.gp, about
 * 1.6 kB, does not) exits 1 and leaves none of the figure's files new: with
 * no older figure, no f.dat, f.gp, f.png or temporary; with an older one
 * (drawn first without the limit, at --batch 1), its f.dat and f.gp as
 * they were, byte for byte. */
static void pareto_plot_write_failure_keeps_nothing(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_pareto_full_XXXXXX", cmd[1024], path[300];
    assert_non_null(mkdtemp(dir));
    const char *pareto = "pareto --model llama3-8b --hw tpu-v5e --chips 4,8 --context 1024 --plot f.png";
    static const char *const kept[] = {"f.dat", "f.gp"};
    for (int older = 0; older < 2; older++) {
        char *was[2] = {NULL, NULL};
        if (older) {
            snprintf(cmd, sizeof cmd, "cd %s && ROOFLINE_DATA=%s %s %s --batch 1 > /dev/null 2>&1",
                     dir, RL_SRCDIR, RL_BIN, pareto);
            assert_int_equal(system(cmd), 0);
            for (int k = 0; k < 2; k++)
                was[k] = slurp_in(dir, kept[k]);
        }
        snprintf(cmd, sizeof cmd, "cd %s && ROOFLINE_DATA=%s sh -c \"trap '' XFSZ; ulimit -f 1; "
                 "exec %s %s --batch 1,8\" > log 2>&1", dir, RL_SRCDIR, RL_BIN, pareto);
        exited_1_saying(system(cmd), dir, "f.gp: write failed");
        for (int k = 0; k < 2; k++) {
            snprintf(path, sizeof path, "%s/%s", dir, kept[k]);
            if (older)
                assert_file_equal(dir, kept[k], was[k]);
            else
                assert_int_not_equal(access(path, F_OK), 0);
            free(was[k]);
        }
        snprintf(cmd, sizeof cmd, "ls -A %s | grep -q '\\.tmp\\.'", dir);
        assert_int_not_equal(system(cmd), 0);
    }
    assert_int_equal(remove_tree(dir), 0);
}

/* One label rule for a chip with no measurements (tester3 #12): tpu-v5p
 * read `estimated` for --chips 16 and `ideal` for --tp 16, from the same
 * datasheet peaks.  Now step, ops and prefill read `estimated` with or
 * without a plan, `ideal` only under --ideal; a measured chip on a plan
 * its tables do not time (h100-sxm --sharding 2d) reads `ideal`; a 1D
 * pipeline (--pp 2) is timed by them (tester16 F12), with --overlap too,
 * which calibrated steps do not apply (result.h rl_result_drop_overlap;
 * it read `ideal` until review26 M3's rule). */
static void datasheet_chip_label(void **state)
{
    (void)state;
    static const struct {
        const char *args, *mode;
    } cases[] = {
        {"step --context 1024 --chips 16", "estimated"},
        {"step --context 1024 --chips 16 --tp 16", "estimated"},
        {"step --context 1024 --chips 16 --tp 16 --ideal", "ideal"},
        {"ops --context 1024 --chips 16 --tp 16", "estimated"},
        {"prefill --tokens 1024 --chips 16 --tp 16", "estimated"},
    };
    char args[512];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(args, sizeof args, "%s --model llama3-70b --hw tpu-v5p --format json",
                 cases[i].args);
        cJSON *j = run_cli_json(args, out, sizeof out);
        assert_string_equal(cJSON_GetObjectItem(j, "mode")->valuestring, cases[i].mode);
        cJSON_Delete(j);
    }
    static const struct {
        const char *plan, *mode;
    } measured[] = {{"--sharding 2d --tp 16", "ideal"},
                    {"--pp 2 --overlap", "calibrated"},
                    {"--pp 2", "calibrated"}};
    for (size_t i = 0; i < sizeof measured / sizeof *measured; i++) {
        snprintf(args, sizeof args, "step --model llama3-70b --hw h100-sxm --chips 16 %s "
                 "--context 1024 --format json", measured[i].plan);
        cJSON *j = run_cli_json(args, out, sizeof out);
        assert_string_equal(cJSON_GetObjectItem(j, "mode")->valuestring, measured[i].mode);
        cJSON_Delete(j);
    }
}

/* Tester7 #8, tester76 finding 5: step rows' weight_bytes and kv_bytes are
 * the whole replica's in a plan and in formula (1) alike (llama3-70b bf16:
 * 141.1e9, the same figure, 1e-12; it was tp8's per chip, 17.64e9, in a
 * plan); weight_bytes_per_chip and kv_bytes_per_chip mean per chip in
 * both: formula (1)'s is its copy over 8 chips (1e-12), within 1e-3 of
 * tp8's (tp replicates the norms: 17.638e9 against 17.641e9), KV equal
 * (1e-12). */
static void per_chip_bytes_in_every_step(void **state)
{
    (void)state;
    const char *base = "step --model llama3-70b --hw h100-sxm --chips 8 --batch 8 --context 4096 "
                       "--format json";
    cJSON *tp = json2(base, ""), *f1 = json2(base, " --ideal");
    const cJSON *a = cJSON_GetObjectItem(tp, "rows")->child, *b = cJSON_GetObjectItem(f1, "rows")->child;
    assert_string_equal(cJSON_GetObjectItem(tp, "sharding")->valuestring, "tp8");
    assert_rel(num(a, "weight_bytes"), num(b, "weight_bytes"), 1e-12);
    assert_rel(num(a, "kv_bytes"), num(b, "kv_bytes"), 1e-12);
    assert_rel(num(a, "weight_bytes"), 141.1e9, 1e-3);
    assert_rel(num(a, "weight_bytes_per_chip"), num(a, "weight_bytes") / 8, 1e-3);
    assert_rel(num(b, "weight_bytes_per_chip"), num(b, "weight_bytes") / 8, 1e-12);
    assert_rel(num(b, "kv_bytes_per_chip"), num(b, "kv_bytes") / 8, 1e-12);
    assert_rel(num(a, "weight_bytes_per_chip"), num(b, "weight_bytes_per_chip"), 1e-3);
    assert_rel(num(a, "kv_bytes_per_chip"), num(b, "kv_bytes_per_chip"), 1e-12);
    cJSON_Delete(tp);
    cJSON_Delete(f1);
    /* llama3-8b tp16 over its 8 KV heads: each token's KV on 2 chips, so
     * the replica's KV is 16 x a chip's (1e-12: 272.6e6 B at 4 x 260
     * tokens, 2 x the one copy --ideal counts), its weights the model's */
    cJSON *rep = json2("step --model llama3-8b --hw h100-sxm --tp 16 --batch 4 --context 260 "
                       "--format json", "");
    const cJSON *c = cJSON_GetObjectItem(rep, "rows")->child;
    assert_rel(num(c, "kv_bytes"), 16 * num(c, "kv_bytes_per_chip"), 1e-12);
    assert_rel(num(c, "kv_bytes"), 2 * 4 * 260 * 131072.0, 1e-12);
    assert_rel(num(c, "weight_bytes"), 16060522496.0, 1e-12);
    cJSON_Delete(rep);
}

/* tester46 F4: prefill's byte counts are whole bytes and its HBM capacity
 * is chips x usable_bytes_per_chip exactly (it read 629628377497.6 beside
 * 8 x 78703547187 = 629628377496 for llama3-70b tp8 on h100-sxm). */
static void prefill_bytes_are_whole(void **state)
{
    (void)state;
    cJSON *j = run_json_noted("prefill --model llama3-70b --hw h100-sxm --chips 8 --tokens 2048 "
                              "--format json", "tensor parallel");
    const cJSON *r = cJSON_GetObjectItem(j, "rows")->child;
    const char *keys[] = {"hbm_capacity_bytes", "hbm_weight_bytes", "hbm_kv_bytes",
                          "usable_bytes_per_chip", "weight_bytes_per_chip", "kv_bytes_per_chip"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        assert_true(num(r, keys[i]) == (double)(long long)num(r, keys[i]));
    assert_true(num(r, "hbm_capacity_bytes") == 8 * num(r, "usable_bytes_per_chip"));
    assert_true(num(r, "hbm_weight_bytes") == 8 * num(r, "weight_bytes_per_chip"));
    /* tester77 F4: the usable total spelt out, and the raw HBM beside it:
     * 8 x 80 GiB = 687194767360 B (hw_profiles/h100-sxm.lua hbm_bytes), exact */
    assert_true(num(r, "usable_total_bytes") == num(r, "hbm_capacity_bytes"));
    assert_true(num(r, "hbm_total_bytes") == 8.0 * 80 * 1073741824.0);
    assert_true(num(r, "usable_total_bytes") < num(r, "hbm_total_bytes"));
    cJSON_Delete(j);
}

/* fixUE #3: a plan's step (--chips 8 without a plan: tp8, as --tp 8)
 * printed none of the one-copy step's capacity keys (capacity_bytes,
 * hbm_total_bytes, usable_bytes, usable_total_bytes) that docs/cli.md's
 * memory-key table names for step.  Expected: capacity_bytes =
 * hbm_total_bytes = 8 x 80 GiB = 687194767360 B (hw_profiles/h100-sxm.lua
 * hbm_bytes, exact), usable_bytes = usable_total_bytes = 8 x shard's tp8
 * usable_bytes_per_chip (the same rule, rl_shard_chip_room, exact in whole
 * bytes), and the row's weight and KV bytes a chip shard's tp8 row's, exact.
 * Failed before: no capacity_bytes. */
static void step_plan_capacity_keys(void **state)
{
    (void)state;
    cJSON *j = run_json_noted("step --model llama3-70b --hw h100-sxm --chips 8 --batch 4 "
                              "--context 4096 --format json", "tensor parallel");
    cJSON *sh = run_cli_json("shard --model llama3-70b --hw h100-sxm --chips 8 --batch 4 "
                             "--context 4096 --format json", out, sizeof out);
    const cJSON *row = cJSON_GetObjectItem(j, "rows")->child, *r;
    const cJSON *tp8 = NULL;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(sh, "rows"))
        if (strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(r, "strategy")), "tp8") == 0 &&
            strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(r, "phase")), "generate") == 0)
            tp8 = r; /* shard lists prefill's plans first */
    assert_non_null(tp8);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(row, "strategy")),
                        cJSON_GetStringValue(cJSON_GetObjectItem(tp8, "strategy")));
    assert_true(num(j, "capacity_bytes") == 8.0 * 80 * 1073741824.0);
    assert_true(num(j, "hbm_total_bytes") == num(j, "capacity_bytes"));
    assert_true(num(j, "usable_bytes") == 8 * num(tp8, "usable_bytes_per_chip"));
    assert_true(num(j, "usable_total_bytes") == num(j, "usable_bytes"));
    assert_true(num(row, "usable_bytes_per_chip") == num(tp8, "usable_bytes_per_chip"));
    assert_true(num(row, "weight_bytes_per_chip") == num(tp8, "weight_bytes_per_chip"));
    assert_true(num(row, "kv_bytes_per_chip") == num(tp8, "kv_bytes_per_chip"));
    cJSON_Delete(sh);
    cJSON_Delete(j);
}

/* fixNE #3: "capacity" is raw HBM in step's capacity_bytes and usable in
 * ops' hbm_capacity_bytes.  Every command with a usable figure now carries
 * the raw one beside it under an unambiguous name, the same numbers: step
 * (one chip) hbm_total_bytes = capacity_bytes = 80 GiB = 85899345920 B
 * (hw_profiles/h100-sxm.lua hbm_bytes, exact) and usable_total_bytes =
 * usable_bytes; the rows of step --tp 8, shard and ops --tp 8
 * hbm_bytes_per_chip = 85899345920 beside usable_bytes_per_chip (below
 * it).  Each command's --help says which key is raw and which usable. */
static void capacity_keys_raw_and_usable(void **state)
{
    (void)state;
    const double hbm = 80 * 1073741824.0;
    cJSON *j = run_cli_json("step --model llama3-8b --hw h100-sxm --context 1024 --batch 8 "
                            "--format json", out, sizeof out);
    assert_true(num(j, "capacity_bytes") == hbm && num(j, "hbm_total_bytes") == hbm);
    assert_true(num(j, "usable_total_bytes") == num(j, "usable_bytes") &&
                num(j, "usable_bytes") < hbm);
    cJSON_Delete(j);
    static const char *const plans[] = {
        "step --model llama3-70b --hw h100-sxm --chips 8 --tp 8 --context 1024 --format json",
        "shard --model llama3-70b --hw h100-sxm --chips 8 --batch 4 --context 1024 --format json",
        "ops --model llama3-70b --hw h100-sxm --tp 8 --context 1024 --batch 8 --format json"};
    for (int i = 0; i < 3; i++) {
        j = run_cli_json(plans[i], out, sizeof out);
        const cJSON *r = i < 2 ? cJSON_GetObjectItem(j, "rows")->child : j;
        if (!(num(r, "hbm_bytes_per_chip") == hbm && num(r, "usable_bytes_per_chip") < hbm))
            fail_msg("%s: hbm_bytes_per_chip %.17g, usable_bytes_per_chip %.17g", plans[i],
                     num(r, "hbm_bytes_per_chip"), num(r, "usable_bytes_per_chip"));
        cJSON_Delete(j);
    }
    static const struct {
        const char *cmd, *line;
    } said[] = {{"step", "  capacity_bytes                 raw    "},
                {"step", "  usable_bytes                   usable "},
                {"ops", "  hbm_capacity_bytes             usable "},
                {"prefill", "  hbm_total_bytes                raw    "},
                {"shard", "  hbm_bytes_per_chip             raw    "},
                {"list", "  hbm_bytes                      raw    "},
                {"info", "  hbm_bytes                      raw    "}};
    for (size_t i = 0; i < sizeof said / sizeof *said; i++) {
        char args[64];
        snprintf(args, sizeof args, "%s --help", said[i].cmd);
        assert_int_equal(run_cli(args, out, sizeof out), 0);
        if (!strstr(out, said[i].line))
            fail_msg("%s: no '%s' in: %s", args, said[i].line, out);
    }
}

/* The first row's `key` of the JSON result of `args` (exit 0). */
static double first_row(const char *args, const char *key)
{
    cJSON *j = run_cli_json(args, out, sizeof out);
    double v = num(cJSON_GetObjectItem(j, "rows")->child, key);
    cJSON_Delete(j);
    return v;
}

/* The row of operator `op` in an `ops` result (fails without one). */
static const cJSON *op_row(const cJSON *j, const char *op)
{
    const cJSON *o = cJSON_GetObjectItem(j, "rows")->child;
    while (o && strcmp(cJSON_GetObjectItem(o, "op")->valuestring, op) != 0)
        o = o->next;
    assert_non_null(o);
    return o;
}

/* A what-if moves the measured kernel times' roofline part and keeps their
 * excess (engines.h rl_engine_time_on; tester8 #6: --set hw.hbm_bw=3e12 read 5.94
 * ms beside the unchanged H100's 11.41, the tables dropped).
 * - identity: hw.hbm_bw set to the chip's own 3.35e12 prints the plain
 *   run's JSON byte for byte;
 * - worked example: llama3-8b decode at B = 1, context 2048 on one H100
 *   with HBM at half (1.675e12): every kernel is memory-bound on both
 *   chips (B = 1 is far below B_crit), so each kernel's roofline part
 *   doubles and its excess stays (engines.h): o_proj at its measured node
 *   (m 1, n 4096, k 4096: 0.01628 ms in the shipped profile, 1e-6:
 *   AIConfigurator's h100_sxm/trtllm bf16 rows at n = k = 4096 read
 *   15.2-16.7 us from m = 1 to 96, falling at m = 17, so the isotonic
 *   median fit, ktable.h, pools them to m = 4's row 0.016282666474580765
 *   ms; m = 1's own row, 0.01656 ms, before stop 24; roofline 33570816 B /
 *   3.35e12 = 1.00211e-5 s) reads 0.01628 + 0.0100211 = 0.0263011 ms
 *   (1e-5; the ratio rule read 0.03256), and the step grows by the op
 *   list's memory time on the chip as measured (memory_s, 4.5635 ms; 1e-4
 *   of the step: kernel rooflines count a fused GEMM's input once, the op
 *   list once per op: 5.7e-5 of memory_s apart);
 * - 100x the bandwidth (3.35e14) keeps the kernels' excess (tester15
 *   F-whatif-1: the ratio rule read kernel_excess_s 0.0189 ms beside 1.749
 *   ms, 483 kernels in 64 us): o_proj 1.00211e-7 + 6.25886e-6 = 6.35907e-6
 *   s (1e-5), and the step's kernel_excess_s (context 1024: 1.6726 ms,
 *   1e-4, since stop 45 read decode attention from XQA's own table, 2 x
 *   6.384 us a layer against 12.619 us measured at 32 x 8 heads, context
 *   1023, AIConfigurator's h100_sxm/trtllm rows; 1.7471 from fixGC to stop
 *   44, 1.7473 before fixGC ran each residual add and norm as one
 *   kernel, engines.c ENGINE_FUSION) within 1% of the plain run's (1.7449 ms measured: the
 *   roofline-timed ops and the op list's difference from formula (1)
 *   shrink 100x);
 * - monotone: llama3-70b bf16 tp8 decode (B = 1 and 64, context 4096)
 *   and its 2048-token prefill, and llama2-70b tp8 B = 64 on the fitted
 *   h100-sxm-splitwise (its costs' device terms over the changed figures;
 *   it read 9.4 ms beside 51.7 ms with the costs dropped) never read
 *   faster as hbm_bw falls 6e12 -> 3.35e12 (as measured) -> 3e12 -> 2e12 ->
 *   1e12, nor as flops.bf16 falls 9.89e14 -> 5e14 -> 1e14 (within 1e-12 of
 *   the run before). */
static void what_if_scales_the_tables(void **state)
{
    (void)state;
    const char *b70 = "step --model llama3-70b --hw h100-sxm --chips 8 --batch 1,64 "
                      "--context 4096 --format json";
    char args[512], plain[1 << 15];
    assert_int_equal(run_cli(b70, plain, sizeof plain), 0);
    snprintf(args, sizeof args, "%s --set hw.hbm_bw=3.35e12", b70);
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    assert_same_but_override(plain, out, "hw_overrides", "hbm_bw=3.35e12");

    const char *b8 = "ops --model llama3-8b --hw h100-sxm --batch 1 --context 2048 --format json";
    snprintf(args, sizeof args, "%s --set hw.hbm_bw=1.675e12", b8);
    cJSON *p = run_cli_json(b8, plain, sizeof plain), *h = run_cli_json(args, out, sizeof out);
    assert_string_equal(cJSON_GetObjectItem(h, "mode")->valuestring, "estimated");
    assert_rel(num(p, "memory_s"), 4.5635e-3, 1e-4);
    assert_rel(num(h, "step_s"), num(p, "step_s") + num(p, "memory_s"), 1e-4);
    const cJSON *o = op_row(h, "o_proj"), *o1 = op_row(p, "o_proj");
    /* moved to a bandwidth nobody measured: derived (ktable.h
     * rl_provenance_moved; `measured` before), the chip as measured's own */
    assert_string_equal(cJSON_GetObjectItem(o, "provenance")->valuestring, "derived");
    assert_string_equal(cJSON_GetObjectItem(o1, "provenance")->valuestring, "measured");
    assert_true(num(h, "table_time_share") == 0);
    assert_rel(num(o1, "time_s"), 0.01628e-3, 1e-6);
    assert_rel(num(o, "time_s"), 0.0263011e-3, 1e-5);
    cJSON_Delete(h);
    snprintf(args, sizeof args, "%s --set hw.hbm_bw=3.35e14", b8);
    h = run_cli_json(args, out, sizeof out);
    assert_rel(num(op_row(h, "o_proj"), "time_s"), 6.35907e-6, 1e-5);
    cJSON_Delete(h);
    cJSON_Delete(p);
    const char *s8 = "step --model llama3-8b --hw h100-sxm --batch 1 --context 1024 --format json";
    snprintf(args, sizeof args, "%s --set hw.hbm_bw=3.35e14", s8);
    double excess = first_row(s8, "kernel_excess_s"), fast = first_row(args, "kernel_excess_s");
    assert_rel(excess, 1.6726e-3, 1e-4);
    assert_rel(fast, excess, 1e-2);

    static const char *const runs[] = {
        "step --model llama3-70b --hw h100-sxm --chips 8 --batch 1 --context 4096 --format json",
        "step --model llama3-70b --hw h100-sxm --chips 8 --batch 64 --context 4096 --format json",
        "prefill --model llama3-70b --hw h100-sxm --chips 8 --tokens 2048 --format json",
        "step --model llama2-70b --hw h100-sxm-splitwise --chips 8 --batch 64 --context 2048 "
        "--format json",
    };
    static const char *const figures[][5] = {
        {"hbm_bw=6e12", "hbm_bw=3.35e12", "hbm_bw=3e12", "hbm_bw=2e12", "hbm_bw=1e12"},
        {"flops.bf16=9.89e14", "flops.bf16=5e14", "flops.bf16=1e14", NULL, NULL},
    };
    for (size_t r = 0; r < sizeof runs / sizeof *runs; r++)
        for (size_t f = 0; f < 2; f++) {
            double prev = 0;
            for (size_t k = 0; k < 5 && figures[f][k]; k++) {
                snprintf(args, sizeof args, "%s --set hw.%s", runs[r], figures[f][k]);
                double t = first_row(args, r == 2 ? "ttft_s" : "step_s");
                if (!(t >= prev * (1 - 1e-12)))
                    fail_msg("%s: %g s, faster than %g s before", args, t, prev);
                prev = t;
            }
        }
}

/* A what-if --set of a field that times the chip scales the profile's
 * measured tables (engines.h rl_engine_time_on; it dropped them, tester8
 * #6): h100-sxm with hbm_bw = 1e12 B/s runs mode estimated, and B = 1 at
 * context 2048 takes at least reading LLaMA-3-8B's 16.06 GB of bf16
 * weights once, 16.06e9 / 1e12 = 16.06 ms (the roofline floor, which a
 * measured kernel's roofline part on the changed chip plus its kept excess
 * stays above; tolerance: a lower bound), with a note naming the override; the source says the
 * tables' times are scaled and names them (tester9 #8); so does --set
 * hw.flops.bf16 with --engine vllm (a file-referenced engine read on
 * selection).  --set hw.name alone renames the chip: mode calibrated and
 * the step of the plain run (rel 1e-12), with the default engine and with
 * --engine vllm. */
static void set_changes_the_chip(void **state)
{
    (void)state;
    const char *base = "step --model llama3-8b --hw h100-sxm --context 2048 --format json";
    char args[512];
    snprintf(args, sizeof args, "%s --set hw.hbm_bw=1e12", base);
    cJSON *j = run_cli_json(args, out, sizeof out);
    assert_string_equal(cJSON_GetObjectItem(j, "mode")->valuestring, "estimated");
    assert_true(num(cJSON_GetObjectItem(j, "rows")->child, "step_s") >= 16.06e-3);
    const char *src = cJSON_GetObjectItem(j, "engine_source")->valuestring;
    assert_non_null(strstr(src, "scaled what-if: hbm_bw=1e+12 (as measured 3.35e+12)"));
    assert_non_null(strstr(src, "measured: NVIDIA AIConfigurator"));
    cJSON_Delete(j);
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "note: hw.hbm_bw=1e+12 (as measured 3.35e+12) changes the chip"));
    /* tester23 F5, F6: the note names every changed figure, the FLOP/s
     * too (h100-pcie over h100-sxm's tables: its profile's bf16 7.56e14,
     * fp8 1.513e15 against 9.89e14, 1.979e15), and with the digits that
     * tell a tiny change apart (it named hbm_bw alone; "3.35e+12 (as
     * measured 3.35e+12)") */
    assert_int_equal(run_cli("step --model llama3-8b --hw h100-pcie --chips 2 --context 1024",
                             out, sizeof out), 0); /* 2 chips: the link in use (fixJK #4) */
    assert_non_null(strstr(out, "note: hw.hbm_bw=2e+12 (as measured 3.35e+12); flops.bf16=7.56e+14 "
                                "(as measured 9.89e+14); flops.fp16=7.56e+14 (as measured "
                                "9.89e+14); flops.fp8=1.513e+15 (as measured 1.979e+15); "
                                "flops.int8=1.513e+15 (as measured 1.979e+15); ici_links=12"));
    assert_int_equal(run_cli("step --model llama3-8b --hw h100-sxm --context 1024 --set "
                             "hw.hbm_bw=3.3500001e12", out, sizeof out), 0);
    assert_non_null(strstr(out, "note: hw.hbm_bw=3.3500001e+12 (as measured 3.35e+12) changes"));
    /* tester64 #7: a partial flops table under `base` replaces the base's
     * whole table (docs/model.md): the peaks it leaves out are said
     * missing, not "=0" (h200's fp8 1.979e15, fp16 9.89e14) */
    char hw[64];
    write_temp(hw, ".lua", "return { base = \"h200\", name = \"h200x\", flops = { bf16 = 2e15 } }\n");
    snprintf(args, sizeof args, "step --model llama3-8b --hw %s --context 1024", hw);
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    remove(hw);
    assert_non_null(strstr(out, "note: hw.flops.bf16=2e+15 (as measured 9.89e+14); flops.fp16 "
                                "missing (as measured 9.89e+14); flops.fp8 missing (as measured "
                                "1.979e+15)"));
    assert_null(strstr(out, "flops.fp8=0"));
    snprintf(args, sizeof args, "%s --engine vllm --set hw.flops.bf16=1e16", base);
    j = run_cli_json(args, out, sizeof out);
    assert_string_equal(cJSON_GetObjectItem(j, "mode")->valuestring, "estimated");
    cJSON_Delete(j);
    j = run_cli_json(base, out, sizeof out);
    assert_string_equal(cJSON_GetObjectItem(j, "mode")->valuestring, "calibrated");
    double plain = num(cJSON_GetObjectItem(j, "rows")->child, "step_s");
    cJSON_Delete(j);
    snprintf(args, sizeof args, "%s --set hw.name=my-chip", base);
    j = run_cli_json(args, out, sizeof out);
    assert_string_equal(cJSON_GetObjectItem(j, "mode")->valuestring, "calibrated");
    assert_string_equal(cJSON_GetObjectItem(j, "hw")->valuestring, "my-chip");
    assert_rel(num(cJSON_GetObjectItem(j, "rows")->child, "step_s"), plain, 1e-12);
    cJSON_Delete(j);
    /* so with an engine read from its file on selection (vllm): it read
     * `estimated` before rl_hw.renamed_from (measured_on h100-sxm, name x) */
    snprintf(args, sizeof args, "%s --engine vllm", base);
    j = run_cli_json(args, out, sizeof out);
    plain = num(cJSON_GetObjectItem(j, "rows")->child, "step_s");
    cJSON_Delete(j);
    snprintf(args, sizeof args, "%s --engine vllm --set hw.name=my-chip", base);
    j = run_cli_json(args, out, sizeof out);
    assert_string_equal(cJSON_GetObjectItem(j, "mode")->valuestring, "calibrated");
    assert_rel(num(cJSON_GetObjectItem(j, "rows")->child, "step_s"), plain, 1e-12);
    cJSON_Delete(j);
}

/* One rule for the mode, on what was measured, not the name (tester22 F1):
 * h100-sxm's engine tables record the figures they were measured at
 * (engines.h measured_at: 3.35e12 B/s), so
 * - a copy of hw_profiles/h100-sxm.lua with hbm_bw doubled and the name kept
 *   is the what-if --set hw.hbm_bw=6.7e12 is: mode estimated, its step_s
 *   (7.54 ms, llama3-70b fp8 tp8 B=1 ctx 4096) equal to the --set run's
 *   (rel 1e-12) and below the measured chip's 8.86 ms; it read
 *   `calibrated` at 8.86 ms, the tables taken as measured at 6.7 TB/s;
 * - h100-sxm-splitwise --engine trtllm (h100-sxm's figures and tables,
 *   another name) reads calibrated, with h100-sxm's step_s (rel 1e-12),
 *   as --set hw.name=foo does; it read `estimated`;
 * - --set hw.flops.fp4=2e15 (a dtype the tables' measured_at does not
 *   list, so never measured) leaves the fp8 run calibrated at the measured
 *   chip's step_s (rel 1e-12); it read `estimated`, "as measured 0"
 *   (review28 M5). */
static void mode_follows_the_figures(void **state)
{
    (void)state;
    const char *base = "step --model llama3-70b --chips 8 --batch 1 --context 4096 --weights fp8 "
                       "--compute fp8 --format json";
    char dir[] = "/tmp/rl_mode_fig_XXXXXX", path[256], args[1024];
    assert_non_null(mkdtemp(dir));
    char *text = slurp_text(RL_SRCDIR "/hw_profiles/h100-sxm.lua");
    assert_non_null(text);
    char *at = strstr(text, "hbm_bw = 3.35e12,");
    assert_non_null(at);
    snprintf(path, sizeof path, "%s/fast.lua", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "%.*shbm_bw = 6.7e12,%s", (int)(at - text), text, at + strlen("hbm_bw = 3.35e12,"));
    fclose(f);
    free(text);
    static char out[1 << 16];
    const struct {
        const char *hw, *mode;
    } runs[] = {{"h100-sxm", "calibrated"},
                {"h100-sxm --set hw.hbm_bw=6.7e12", "estimated"},
                {NULL, "estimated"}, /* the copy */
                {"h100-sxm-splitwise --engine trtllm", "calibrated"},
                {"h100-sxm --set hw.name=foo", "calibrated"},
                {"h100-sxm --set hw.flops.fp4=2e15", "calibrated"}};
    double t[6];
    for (int i = 0; i < 6; i++) {
        snprintf(args, sizeof args, "%s --hw %s", base, runs[i].hw ? runs[i].hw : path);
        cJSON *j = run_cli_json(args, out, sizeof out);
        assert_non_null(j);
        assert_string_equal(cJSON_GetObjectItem(j, "mode")->valuestring, runs[i].mode);
        t[i] = num(cJSON_GetObjectItem(j, "rows")->child, "step_s");
        cJSON_Delete(j);
    }
    assert_rel(t[2], t[1], 1e-12);
    assert_true(t[2] < 0.95 * t[0]);
    assert_rel(t[3], t[0], 1e-12);
    assert_rel(t[4], t[0], 1e-12);
    assert_rel(t[5], t[0], 1e-12);
    /* the copy's run says its figure overrides the measured one */
    snprintf(args, sizeof args, "%s --hw %s", base, path);
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "hbm_bw=6.7e+12 (as measured 3.35e+12) changes the chip"));
    unlink(path);
    rmdir(dir);
}

/* review28 M4: h100-pcie is a what-if of h100-sxm's tables (base
 * h100-sxm, hbm_bw 2e12 and 12 links against 3.35e12 and 18), so the
 * p10-p90 band of h100-sxm's held-back residuals is withheld with a
 * no_band naming the what-if: step (it printed step_s_low/high 6.87/7.52
 * ms), simulate (every _high key), and size, which counts such plans in
 * unbanded_off_fit (0 before; expected > 0: the search's h100-pcie plans)
 * and leaves them out under --conservative.  h100-sxm itself keeps its
 * band (the control). */
/* h31audit finding 10e: validate checks its source before anything else:
 * none of --backend, --tables and --against (and two of them) exits 2 with
 * "give one of ..."; before, `validate --hw h100-sxm` read the spec as a
 * CPU profile and answered "field 'flops.fp32': missing". */
static void validate_asks_for_a_source(void **state)
{
    (void)state;
    static const char *const cmds[] = {
        "validate --hw h100-sxm",
        "validate",
        "validate --model llama3-8b --hw h100-sxm --format json",
        "validate --backend cpu --against x.csv --hw h100-sxm",
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        assert_int_equal(run_cli(cmds[i], out, sizeof out), 2);
        if (!strstr(out, "give one of --backend, --tables and --against"))
            fail_msg("%s: %s", cmds[i], out);
        assert_null(strstr(out, "flops.fp32"));
    }
}

/* tester47 F7: validate --against (and fit) on a measurement CSV whose
 * path is not UTF-8 exited 1 at the output stage (the result's key file
 * names it, and output text must be UTF-8); now exit 2 before the run,
 * naming the byte, for an existing file (a copy of splitwise_h100.csv). */
static void against_path_not_utf8(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_utf8_XXXXXX", path[256], cmd[1024];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/m\xff.csv", dir);
    snprintf(cmd, sizeof cmd, "cp %s/tests/data/e2e/splitwise_h100.csv '%s'", RL_SRCDIR, path);
    assert_int_equal(system(cmd), 0);
    static const char *const runs[] = {"validate --against '%s'", "fit '%s'"};
    for (int i = 0; i < 2; i++) {
        char args[512];
        snprintf(args, sizeof args, runs[i], path);
        snprintf(cmd, sizeof cmd, "%s --hw h100-sxm-splitwise --model llama2-70b --set "
                 "model.max_context=16384", args);
        assert_int_equal(run_cli(cmd, out, sizeof out), 2);
        if (!strstr(out, "the path is not UTF-8 text (byte 0xff at offset"))
            fail_msg("%s: %s", cmd, out);
    }
    assert_int_equal(remove_tree(dir), 0);
}

/* h31audit finding 10c: every result without a band says why in no_band
 * (README: "no_band says why"): step, step --tp and prefill on tpu-v5e
 * (estimated, no kernel tables), step --ideal on h100-sxm, simulate on
 * tpu-v5e, a tpu-v5e size (top level) and the tpu-v5e rows of a mixed
 * h100-sxm,tpu-v5e size whose h100 rows carry a band (before: neither
 * _low/_high nor no_band); ops, shard and pareto on h100-sxm (review37
 * L1). */
static void every_unbanded_result_says_why(void **state)
{
    (void)state;
    static const char *const cmds[] = {
        "step --model llama3-8b --hw tpu-v5e --batch 8 --context 1024",
        "step --model llama3-8b --hw tpu-v5e --tp 4 --batch 8 --context 1024",
        "prefill --model llama3-8b --hw tpu-v5e --tokens 512",
        "step --model llama3-8b --hw h100-sxm --batch 8 --context 1024 --ideal",
        "simulate --model llama3-8b --hw tpu-v5e --chips 4 --qps 1 --prompt-len 100 "
        "--out-len 10 --requests 50",
        "size --model llama3-8b --hw tpu-v5e --qps 5 --prompt-len 500 --out-len 50 "
        "--ttft-p99 2 --tpot-p99 0.1 --requests 200",
        /* review37 L1: ops, shard and pareto on a chip with kernel-table
         * residuals had neither a band nor no_band */
        "ops --model llama3-70b --hw h100-sxm --batch 8 --context 4096",
        "shard --model llama3-70b --hw h100-sxm --chips 8 --batch 8 --context 4096",
        "pareto --model llama3-70b --hw h100-sxm --chips 8",
    };
    static const char *const why[] = {"tpu-v5e has neither", "tpu-v5e has neither",
                                      "tpu-v5e has neither", "the ideal roofline",
                                      "tpu-v5e has neither", "tpu-v5e has neither",
                                      "ops lists each operator's time", "shard ranks the plans",
                                      "the sweep's points carry no band"};
    char args[512];
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        snprintf(args, sizeof args, "%s --format json", cmds[i]);
        assert_int_equal(run_cli(args, out, sizeof out), 0);
        cJSON *j = cJSON_Parse(strchr(out, '{'));
        assert_non_null(j);
        const cJSON *nb = cJSON_GetObjectItem(j, "no_band");
        if (!nb)
            fail_msg("%s: no no_band", cmds[i]);
        assert_null(cJSON_GetObjectItem(j, "band"));
        assert_non_null(strstr(nb->valuestring, why[i]));
        cJSON_Delete(j);
    }
    assert_int_equal(run_cli("size --model llama3-8b --hw h100-sxm,tpu-v5e --qps 5 --prompt-len "
                             "500 --out-len 50 --ttft-p99 2 --tpot-p99 0.1 --requests 200 "
                             "--format json", out, sizeof out), 0);
    cJSON *j = cJSON_Parse(strchr(out, '{')), *row;
    assert_non_null(cJSON_GetObjectItem(j, "band"));
    int tpu = 0, h100 = 0;
    cJSON_ArrayForEach(row, cJSON_GetObjectItem(j, "rows")) {
        int banded = cJSON_GetObjectItem(row, "ttft_p99_s_low") != NULL;
        const cJSON *nb = cJSON_GetObjectItem(row, "no_band");
        if (strstr(cJSON_GetObjectItem(row, "config")->valuestring, "tpu-v5e")) {
            tpu++;
            assert_false(banded);
            assert_non_null(nb);
            assert_non_null(strstr(nb->valuestring, "tpu-v5e has neither"));
        } else if (banded) {
            h100++;
            assert_null(nb);
        }
    }
    assert_true(tpu > 0 && h100 > 0);
    cJSON_Delete(j);
}

static void what_if_has_no_band(void **state)
{
    (void)state;
    static char out[1 << 17];
    const char *hw[2] = {"h100-sxm", "h100-pcie"};
    for (int i = 0; i < 2; i++) {
        char args[512];
        snprintf(args, sizeof args, "step --model llama3-8b --hw %s --batch 8 --context 1024 "
                 "--weights fp8 --compute fp8 --format json", hw[i]);
        cJSON *j = run_cli_json(args, out, sizeof out);
        assert_non_null(j);
        cJSON *row = cJSON_GetObjectItem(j, "rows")->child, *nb = cJSON_GetObjectItem(j, "no_band");
        assert_int_equal(cJSON_GetObjectItem(row, "step_s_low") != NULL, i == 0);
        assert_int_equal(nb != NULL, i == 1);
        if (i)
            assert_non_null(strstr(nb->valuestring, "a what-if of h100-sxm's tables"));
        cJSON_Delete(j);
        snprintf(args, sizeof args, "simulate --model llama3-8b --hw %s --qps 1 --prompt-len 100 "
                 "--out-len 10 --format json", hw[i]);
        assert_int_equal(run_cli(args, out, sizeof out), 0);
        assert_int_equal(strstr(out, "_high") != NULL, i == 0);
    }
    /* RL_SAN_SMALL: 300 requests (20 unbanded off-fit rows, no h100-pcie
     * plan under --conservative: bin/roofline, 2026-12-06) */
    char size[256];
    snprintf(size, sizeof size, "size --model llama3-70b --hw h100-sxm,h100-pcie --qps 5 "
             "--prompt-len 1000 --out-len 200 --ttft-p99 2 --tpot-p99 0.1 --format json%s",
             rl_san_requests());
    cJSON *j = run_cli_json(size, out, sizeof out);
    assert_non_null(j);
    assert_true(num(j, "unbanded_off_fit") > 0);
    cJSON_Delete(j);
    char args[512];
    snprintf(args, sizeof args, "%s --conservative", size);
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    assert_null(strstr(out, "\"hw\":\t\"h100-pcie\"")); /* no plan of it */
    assert_non_null(strstr(out, "\"hw\":\t\"h100-sxm\""));
}

/* Seeds are exact 64-bit integers in 0..1e18 (tester22 F7): 2^53 and
 * 2^53 + 1 draw different workloads (the same run before: both read as the
 * double 2^53), JSON echoes 9007199254740993 digit for digit (it echoed
 * 9007199254740990.0, which drew a third run), and 1e18 + 1 is refused,
 * exit 2 (it was taken as 1e18). */
static void seed_exact(void **state)
{
    (void)state;
    static char out[1 << 16];
    const char *base = "simulate --model llama3-8b --hw h100-sxm --qps 5 --prompt-len "
                       "lognormal:1000:1 --out-len lognormal:100:1 --requests 100 --format json "
                       "--seed ";
    double ttft[2];
    for (int i = 0; i < 2; i++) {
        char args[512];
        snprintf(args, sizeof args, "%s%s", base,
                 i ? "9007199254740993" : "9007199254740992");
        cJSON *j = run_cli_json(args, out, sizeof out);
        assert_non_null(j);
        ttft[i] = num(j, "ttft_p50_s");
        cJSON_Delete(j);
        assert_non_null(strstr(out, i ? "\"seed\":\t9007199254740993," : "\"seed\":\t9007199254740992,"));
    }
    assert_true(ttft[0] != ttft[1]);
    char args[512];
    snprintf(args, sizeof args, "%s1000000000000000001", base);
    assert_int_equal(run_cli(args, out, sizeof out), 2);
    assert_non_null(strstr(out, "--seed '1000000000000000001': expected a whole number in [0, "
                                "1000000000000000000]"));
}

/* A failed write on stdout (a full device: /dev/full, Linux) says so on
 * stderr, naming stdout and the reason, once, and exits 1 (tester #21). */
/* tester60 #2: an ici_bw of 0 is taken as "no network" (a spec reads 0
 * as not given); a plan that needs the link cannot be timed, and shard says
 * so in its advice (it left 11 prefill and 8 generation plans out without
 * a word): llama3-8b on 8 H100, only tp1 x8 times. */
static void shard_says_plans_not_timed(void **state)
{
    (void)state;
    char out[1 << 16];
    cJSON *j = run_cli_json("shard --model llama3-8b --hw h100-sxm --chips 8 --batch 8 "
                            "--context 1024 --set hw.ici_bw=0 --format json", out, sizeof out);
    const cJSON *adv = cJSON_GetObjectItem(j, "advice");
    assert_string_equal(cJSON_GetObjectItem(adv, "generate_latency")->valuestring, "tp1 x8");
    const char *g = cJSON_GetObjectItem(adv, "generate")->valuestring;
    assert_non_null(strstr(g, "8 plans could not be timed without a link (limits.null_reason; "
                              "first tp1 pp8: "));
    assert_non_null(strstr(g, "field 'ici_bw': P2P over 2 chips needs it > 0"));
    assert_non_null(strstr(cJSON_GetObjectItem(adv, "prefill")->valuestring,
                           "11 plans could not be timed without a link"));
    cJSON_Delete(j);
    /* tester62 #4: llama3-70b's 141 GB of weights fit no H100 alone, so
     * the one plan timed (tp1 x8) does not fit and the 19 others were never
     * timed: the advice said "no strategy fits"; it says which plan was
     * timed and that the others could not be, and stderr's what-if note
     * says shard's mode ideal, not "mode estimated" */
    assert_int_equal(run_cli("shard --model llama3-70b --hw h100-sxm --chips 8 --context 4096 "
                             "--set hw.ici_bw=0 --format json", out, sizeof out), 0);
    assert_null(strstr(out, "mode estimated"));
    assert_non_null(strstr(out, "note: hw.ici_bw=0 (as measured 2.5e+10) changes the chip: shard "
                                "ranks every plan by formula (1) at the changed datasheet figures "
                                "(mode ideal)"));
    j = cJSON_Parse(strchr(out, '{'));
    assert_non_null(j);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(j, "mode")), "ideal");
    assert_null(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(j, "no_band")), "estimate"));
    adv = cJSON_GetObjectItem(j, "advice");
    for (int ph = 0; ph < 2; ph++) {
        g = cJSON_GetObjectItem(adv, ph ? "generate" : "prefill")->valuestring;
        assert_null(strstr(g, "no strategy fits"));
        assert_non_null(strstr(g, "the 1 timed plan does not fit in "));
        assert_non_null(strstr(g, ph ? "; 8 plans could not be timed without a link"
                                     : "; 11 plans could not be timed without a link"));
    }
    cJSON_Delete(j);
    j = run_cli_json("shard --model llama3-8b --hw h100-sxm --chips 8 --batch 8 --context 1024 "
                     "--format json", out, sizeof out); /* the links given: all timed, unsaid */
    adv = cJSON_GetObjectItem(j, "advice");
    assert_null(strstr(cJSON_GetObjectItem(adv, "generate")->valuestring, "not timed"));
    cJSON_Delete(j);
}

/* Review of stop 38 (fixGB #4): shard's limits printed 0 where a limit
 * does not exist: with --set hw.ici_bw=0 a W_ici of 0 B/s, "Tensor
 * parallelism stays compute-bound up to F*W_ici/C = 0 chips", beta 0 and
 * MLP communication times of 0 s; on one chip a latency threshold of 0
 * bytes.  Every key stays (a contract), null where the limit does not
 * exist, with limits.null_reason saying why (shard.h rl_shard_limits).
 * What exists keeps its value: llama3-8b's crossover 18 F / D = 18 x 14336
 * / 4096 = 63 chips (with a link; null without one) and its activation 1 x 4096 x 2 = 8192 bytes (exact,
 * model/llama3-8b.lua); on one chip W_ici = 18 links x 25 GB/s = 4.5e11
 * (hw_profiles/h100-sxm.lua). */
static void shard_limits_null_without_link(void **state)
{
    (void)state;
    static char buf[1 << 17];
    static const char *const tails[] = {"--chips 8 --set hw.ici_bw=0", "--chips 1"};
    for (int i = 0; i < 2; i++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "shard --model llama3-8b --hw h100-sxm --context 2048 %s "
                 "--format json", tails[i]);
        cJSON *j = run_cli_json(cmd, buf, sizeof buf);
        const cJSON *l = cJSON_GetObjectItem(j, "limits");
        static const char *const gone[] = {"mlp_comm_1d_s", "mlp_comm_2d_s",
                                           "latency_threshold_bytes", "activation_latency_bound",
                                           "w_ici_bytes_per_s", "prefill_tp_max", "beta",
                                           "generate_tp_max"};
        for (int k = 0; k < (i ? 4 : 8); k++)
            if (!cJSON_IsNull(cJSON_GetObjectItem(l, gone[k])))
                fail_msg("%s: limits.%s is not null", tails[i], gone[k]);
        /* the 1D/2D crossover compares two communication times: without a
         * link neither exists, null (tester62 #4: 63 beside null_reason) */
        assert_true(num(l, "activation_bytes") == 8192);
        if (i)
            assert_true(num(l, "crossover_2d_chips") == 63);
        else
            assert_true(cJSON_IsNull(cJSON_GetObjectItem(l, "crossover_2d_chips")));
        const char *why = cJSON_GetStringValue(cJSON_GetObjectItem(l, "null_reason"));
        assert_non_null(why);
        assert_non_null(strstr(why, i ? "one chip communicates nothing" : "has no link"));
        const char *g = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "advice"), "generate")
                            ->valuestring;
        assert_null(strstr(g, "= 0 "));
        assert_null(strstr(g, "the 0 kB latency threshold"));
        assert_null(strstr(g, "the 0 bytes latency threshold")); /* rl_bytes_str's (fixNF) */
        if (i)
            assert_true(num(l, "w_ici_bytes_per_s") == 4.5e11);
        cJSON_Delete(j);
    }
    cJSON *j = run_cli_json("shard --model llama3-8b --hw h100-sxm --chips 8 --context 2048 "
                            "--format json", buf, sizeof buf); /* the link there: all set */
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "limits"),
                                                 "null_reason")));
    assert_true(num(cJSON_GetObjectItem(j, "limits"), "w_ici_bytes_per_s") == 4.5e11);
    cJSON_Delete(j);
}

/* fixNF #1: shard's limits, its rows and its advice say latency-bound by one
 * rule (comm.h rl_comm_is_latency_bound: latency term > bandwidth term of
 * the collective as the rows time it).  llama3-70b (D 8192) on 8 H100 at
 * --context 4096: the tp8 AllReduce of a [B, D] bf16 activation, by the
 * alpha-beta model (hw_profiles/h100-sxm.lua: 18 links x 25 GB/s = Wc
 * 4.5e11 B/s, a = 2 us, NVLS) takes the cheapest of one-shot (a, n 7/Wc),
 * two-shot (2a, 2n 7/(8 Wc)) and NVLS (2a, n 9/(8 Wc)): latency-bound up to
 * 2a 8 Wc / 9 = 1.6e6 bytes (the threshold, exact to 1e-9).  B 128: 2.1 MB,
 * NVLS 5.24 us > 4 us, bandwidth-bound; B 64: 1.05 MB, 4 us > 2.62 us,
 * latency-bound; B 8: 131 kB, the one-shot's 2.04 us > 2 us, bandwidth-bound
 * below the threshold ("yet at this size").  fp8 compute moves bf16
 * activations (shard.h rl_shard_moved_dtype), so activation_bytes is the
 * rows' bytes.  Before: threshold 4,668,125 B (an AllGather, measured table),
 * activation 2,097,152 B "latency-bound" beside rows that were not, and
 * 1,048,576 B under fp8 beside 2,097,152 B rows. */
static void shard_latency_bound_one_rule(void **state)
{
    (void)state;
    static const struct { int batch; const char *dt; int bound; double bytes; const char *say; }
    c[] = {{128, "", 0, 2097152, "is above the 1.6 MB latency threshold"},
           {128, " --weights fp8 --compute fp8", 0, 2097152, "so its AllReduce over 8 chips is "
                                                           "bandwidth-bound"},
           {64, "", 1, 1048576, "so its AllReduce over 8 chips is latency-bound (latency term "
                                "4 us > bandwidth term 2.62 us"},
           {8, "", 0, 131072, "yet at this size its AllReduce over 8 chips is bandwidth-bound"}};
    for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "shard --model llama3-70b --hw h100-sxm --chips 8 --batch %d "
                 "--context 4096%s --format json", c[i].batch, c[i].dt);
        cJSON *j = run_json(cmd);
        assert_non_null(j);
        const cJSON *l = cJSON_GetObjectItem(j, "limits");
        assert_rel(num(l, "latency_threshold_bytes"), 2 * 2e-6 * 8 * 4.5e11 / 9, 1e-9);
        assert_true(num(l, "activation_bytes") == c[i].bytes);
        const cJSON *flag = cJSON_GetObjectItem(l, "activation_latency_bound");
        if (cJSON_IsTrue(flag) != c[i].bound)
            fail_msg("%s: activation_latency_bound %d, expected %d", cmd, cJSON_IsTrue(flag),
                     c[i].bound);
        assert_true((num(l, "activation_latency_s") > num(l, "activation_bandwidth_s")) ==
                    c[i].bound);
        int rows = 0;
        const cJSON *r;
        cJSON_ArrayForEach(r, cJSON_GetObjectItem(j, "collectives")) {
            if (strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(r, "strategy")), "tp8") != 0)
                continue;
            rows++;
            assert_true(num(r, "bytes") == c[i].bytes);
            assert_true(cJSON_IsTrue(cJSON_GetObjectItem(r, "latency_bound")) == c[i].bound);
        }
        assert_int_equal(rows, 2); /* tp8 leads generation in every case */
        const char *g = cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "advice"),
                                                                 "generate"));
        if (!strstr(g, c[i].say))
            fail_msg("%s: advice.generate lacks '%s': %s", cmd, c[i].say, g);
        assert_non_null(strstr(g, c[i].bound ? "2 latency-bound)" : "0 latency-bound)"));
        cJSON_Delete(j);
    }
}

/* fixVE #2 (fresh-user tester): with fp8 weights shard's advice read
 * "Y < F/(B*beta) = 120 (beta = 7.44)" where F/(B*beta) = 28672 / (16 x
 * 7.444) = 240.7: the value carries the weight/activation bytes factor
 * (shard.c rl_shard_limits_of, D F w/(Y W_hbm) against B D a/W_ici) that the
 * text left out.  Expected: the formula names it, F*w/(B*beta*a) = 28672 x
 * 1/(16 x 7.444 x 2) = 120.4 (exact to the printed 3 digits), w = 1 (fp8),
 * a = 2 (bf16 activations); in bf16 the chapter's F/(B*beta) = 241. */
static void shard_limit_names_bytes_factor(void **state)
{
    (void)state;
    static const char *const tail[] = {" --weights fp8 --compute fp8", ""};
    static const char *const say[] = {"Y < F*w/(B*beta*a) = 120 (beta = 7.44; w = 1 byte per "
                                      "weight, a = 2 bytes per activation value; ",
                                      "Y < F/(B*beta) = 241 (beta = 7.44); "};
    for (int i = 0; i < 2; i++) {
        cJSON *j = json2("shard --model llama3-70b --hw h100-sxm --chips 8 --batch 16 "
                         "--context 4096 --format json", tail[i]);
        assert_non_null(j);
        assert_rel(num(cJSON_GetObjectItem(j, "limits"), "generate_tp_max"),
                   28672.0 * (i ? 1.0 : 0.5) / (16 * 3.35e12 / 4.5e11), 1e-9);
        const char *g = cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "advice"),
                                                                 "generate"));
        if (!g || !strstr(g, say[i]))
            fail_msg("advice.generate lacks '%s': %s", say[i], g ? g : "(null)");
        cJSON_Delete(j);
    }
}

/* fixWF #1 (fresh-user tester): shard --chips 32 --batch 256 on llama3-70b
 * tpu-v5e said "Model parallelism pays while Y < F/(B*beta) = 12.3" and
 * recommended tp16 x2, whose replicas decode 128 sequences each.  The
 * chapter's B (seed 000 sec. 3, Generation) is the batch the model-parallel
 * group decodes, so the whole-batch figure is kept and named as such, and
 * the plan's own figure stands beside it: F/(B*beta) = 28672 / (256 x 9.1)
 * = 12.3 (v5e: W_hbm 8.19e11 / W_ici 9e10 = 9.1) for B = 256, and
 * 28672 / (128 x 9.1) = 24.6 for B = 128 (both as printed, 3 digits). */
static void shard_limit_per_replica_batch(void **state)
{
    (void)state;
    static char buf[1 << 17]; /* its JSON runs to 88 kB */
    cJSON *j = run_cli_json("shard --model llama3-70b --hw tpu-v5e --chips 32 --batch 256 "
                            "--context 2048 --format json", buf, sizeof buf);
    assert_non_null(j);
    const char *g = cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "advice"),
                                                             "generate"));
    const char *say = "Y < F/(B*beta) = 12.3 (beta = 9.1, B the whole batch of 256 on one "
                      "replica); tp16 kv=batch x2's replicas decode 128 each: Y < 24.6;";
    if (!g || !strstr(g, say))
        fail_msg("advice.generate lacks '%s': %s", say, g ? g : "(null)");
    cJSON_Delete(j);
}

/* fixNF #3: step's row keys changed with --chips: a one-chip row had no
 * comm_s, strategy, phase, max_batch or usable_bytes_per_chip, so a script
 * reading comm_s broke at --chips 1.  Both shapes now carry the plan row's
 * keys; the one-chip row's values are its own: phase generate, strategy
 * tp1, comm_s 0, no collectives or idle replica, the header's b_crit,
 * max_batch and usable_bytes (one chip), and flops_per_chip as a plan
 * counts it: llama3-8b at batch 8, 1024 tokens, 124,369,502,208 FLOPs,
 * twice the tp2 row's (its even split, shard.c).  Its derivation from
 * model/llama3-8b.lua (d 4096, 32 layers, d_ff 14336, 8 KV heads x 128,
 * vocab 128256, untied): matmul parameters a layer 2 d^2 (q, o) + 2 x 4096
 * x 1024 (k, v) + 3 x 4096 x 14336 (swiglu) = 218,103,808, x 32 layers =
 * 6,979,321,856, + lm_head 4096 x 128256 = 525,336,576, total 7,504,658,432;
 * a token costs 2 x that = 15,009,316,864 + attention 4 L d context =
 * 4 x 32 x 4096 x 1024 = 536,870,912, so 15,546,187,776 FLOPs, x 8 tokens =
 * 124,369,502,208; relative tolerance 1e-12 (a sum of doubles).  The
 * one-chip row keeps bound, mlp_bound and total_bytes. */
static void step_rows_keys_at_any_chips(void **state)
{
    (void)state;
    static const char *const keys[] = {"phase", "strategy", "batch", "context", "fits",
                                       "usable_bytes_per_chip", "b_crit", "max_batch",
                                       "flops_per_chip", "comm_s", "collectives",
                                       "latency_bound_collectives", "idle_replicas", "step_s"};
    cJSON *one = run_json("step --model llama3-8b --hw h100-sxm --batch 8 --context 1024 "
                          "--format json");
    cJSON *two = run_json("step --model llama3-8b --hw h100-sxm --chips 2 --tp 2 --batch 8 "
                          "--context 1024 --format json");
    assert_non_null(one);
    assert_non_null(two);
    const cJSON *r1 = cJSON_GetArrayItem(cJSON_GetObjectItem(one, "rows"), 0);
    const cJSON *r2 = cJSON_GetArrayItem(cJSON_GetObjectItem(two, "rows"), 0);
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
        if (!cJSON_GetObjectItem(r1, keys[k]) || !cJSON_GetObjectItem(r2, keys[k]))
            fail_msg("step row key %s: at --chips 1 %s, at --chips 2 %s", keys[k],
                     cJSON_GetObjectItem(r1, keys[k]) ? "present" : "missing",
                     cJSON_GetObjectItem(r2, keys[k]) ? "present" : "missing");
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(r1, "strategy")), "tp1");
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(r1, "phase")), "generate");
    assert_true(num(r1, "comm_s") == 0 && num(r1, "collectives") == 0 &&
                num(r1, "latency_bound_collectives") == 0 && num(r1, "idle_replicas") == 0);
    assert_true(num(r1, "usable_bytes_per_chip") == num(one, "usable_bytes"));
    assert_true(num(r1, "max_batch") == num(one, "max_batch"));
    assert_true(num(r1, "b_crit") == num(one, "b_crit"));
    assert_rel(num(r1, "flops_per_chip"), 124369502208.0, 1e-12);
    assert_rel(num(r1, "flops_per_chip"), 2 * num(r2, "flops_per_chip"), 1e-12);
    static const char *const kept[] = {"bound", "mlp_bound", "total_bytes"};
    for (size_t k = 0; k < 3; k++)
        assert_non_null(cJSON_GetObjectItem(r1, kept[k]));
    cJSON_Delete(one);
    cJSON_Delete(two);
}

/* tester62 #6: step printed no note when a batch does not fit in HBM
 * (ops and prefill did); one note for the three (cli.c note_fit, said by
 * emit).  llama3-8b on one H100 at 8192 tokens: batch 512 holds 16.1 GB of
 * bf16 weights (8.03e9 parameters x 2 B, model/llama3-8b.lua) + 549.8 GB
 * of KV (512 x 8192 x 131072 B/token: 32 layers x 8 KV heads x 128 x 2 x
 * 2 B) against the 78.3 GB trtllm's memory rule leaves of 80 GiB
 * (hw_profiles/h100-sxm.lua; 78.9 before its activation workspace, memory.h
 * rl_memory_workspace: 0.64 GB for llama3-8b on one chip); printed to 0.1
 * GB, exact text.  Batch 1 fits (16.1 + 1.1 GB): no note.  ops at
 * llama3-70b batch 1 and step there print the same figures (141.1 GB + 2.7
 * GB on 84.7 GB: the HBM less that rule's 1.24 GB workspace, the weights
 * leaving nothing free).  fixRE item 6: the capacity was called "HBM"
 * (84.7 GB) where h100-sxm's HBM is 85.9 GB (80 GiB): now "usable HBM
 * (the memory rule's share of 85.9 GB)", hbm_total_bytes where the result
 * has it. */
static void step_notes_batch_not_fitting(void **state)
{
    (void)state;
    static char buf[1 << 16];
    assert_int_equal(run_cli("step --model llama3-8b --hw h100-sxm --batch 1,512 --context 8192 "
                             "--format csv", buf, sizeof buf), 0);
    assert_non_null(strstr(buf, "roofline step: note: does not fit at batch 512: 16.1 GB of "
                                "weights + 549.8 GB of KV cache on 78.3 GB of usable HBM (the "
                                "memory rule's share of 85.9 GB; fits false); "
                                "the time is for a configuration that cannot be loaded"));
    assert_int_equal(run_cli("step --model llama3-8b --hw h100-sxm --batch 1 --context 8192 "
                             "--format csv", buf, sizeof buf), 0);
    assert_null(strstr(buf, "does not fit"));
    static const char *const cmd[] = {"step", "ops"};
    for (int i = 0; i < 2; i++) {
        char args[256];
        snprintf(args, sizeof args, "%s --model llama3-70b --hw h100-sxm --batch 1 --context 8192 "
                 "--format csv", cmd[i]);
        assert_int_equal(run_cli(args, buf, sizeof buf), 0);
        assert_non_null(strstr(buf, ": 141.1 GB of weights + 2.7 GB of KV cache on 84.7 GB of "
                                    "usable HBM (the memory rule's share of 85.9 GB; fits "
                                    "false)"));
    }
    /* fixNF #4: figures under 0.05 GB read "0.0 GB"; now in the unit that
     * shows them (number.h rl_bytes_str).  tiny-test (model/tiny-test.lua:
     * 98,624 parameters = 2 x 96 x 64 embedding and head + 2 layers x (2 x
     * 64 x 64 + 2 x 64 x 32 attention + 3 x 64 x 160 MLP + 2 x 64 norms) +
     * 64, in bf16: 197,248 B; KV 16 tokens x 2 layers x 2 x 2 heads x 16 x
     * 2 B = 4,096 B) on h100-sxm with hbm_bytes = 1, whose memory rule
     * leaves 0 bytes; exact text (before: "0.0 GB of weights + 0.0 GB of
     * KV cache on 0.0 GB of HBM") */
    char hw[64], args[256];
    write_temp(hw, ".lua", "return {base=\"h100-sxm\", hbm_bytes=1}\n");
    snprintf(args, sizeof args, "step --model tiny-test --hw %s --context 16 --format csv", hw);
    assert_int_equal(run_cli(args, buf, sizeof buf), 0);
    remove(hw);
    assert_non_null(strstr(buf, "note: does not fit at batch 1: 197.2 kB of weights + 4.1 kB of KV "
                                "cache on 0 bytes of usable HBM (the memory rule's share of 1 "
                                "byte; fits false)"));
}

/* tester62 #7: simulate at --qps 1e-9 put its 20000 arrivals near 2e13 s
 * (20000 / 1e-9; seed 1 draws the last at 2.01e13), where the clock's
 * double resolves 2^-8 s, and printed TTFTs on that grid (0.021484375).
 * Refused (exit 2, serve.h RL_SERVE_HORIZON_MAX_S): the error names the
 * flags, the arrival and what fits: the 5 requests that arrive within
 * 4.5036e9 s, counted (review52; the first 5 of a run are the same at
 * --requests 5); 4 requests (last near 2.1e9 s) and 5 (2.5e9 s) run. */
static void simulate_refuses_quantising_horizon(void **state)
{
    (void)state;
    static char buf[1 << 16];
    const char *base = "simulate --model llama3-8b --hw h100-sxm --qps 1e-9 --prompt-len 1000 "
                       "--out-len 200 --format json";
    assert_int_equal(run_cli(base, buf, sizeof buf), 2);
    assert_non_null(strstr(buf, "roofline simulate: --qps, --requests: the last of 20000 requests "
                                "arrives at 2.01e+13 s"));
    assert_non_null(strstr(buf, "at most 5 requests"));
    char args[512];
    for (int k = 4; k <= 5; k++) {
        snprintf(args, sizeof args, "%s --requests %d", base, k);
        cJSON *j = run_cli_json(args, buf, sizeof buf);
        assert_true(num(j, "duration_s") < RL_SERVE_HORIZON_MAX_S);
        cJSON_Delete(j);
    }
    /* stop 41: one request (seed 9 draws it at 5.96e9 s at --qps 1e-9)
     * cannot be fewer; the rate it named, 2.22e-10 (its own, counted from
     * time 0, scaled), lies below the 1e-9 asked and draws it later still.
     * Now the qps the same seed's arrival fits at, 1e-9 x 5.96e9 /
     * 4.5036e9 = 1.32e-9 rounded up: that rate runs; the same run at the
     * rate it named before stays refused */
    const char *one = "simulate --model llama3-8b --hw h100-sxm --requests 1 --seed 9 "
                      "--prompt-len 100 --out-len 10 --format json --qps";
    snprintf(args, sizeof args, "%s 1e-9", one);
    assert_int_equal(run_cli(args, buf, sizeof buf), 2);
    const char *at = strstr(buf, "a qps of at least ");
    assert_non_null(at);
    assert_null(strstr(buf, "at most"));
    double q = strtod(at + strlen("a qps of at least "), NULL);
    assert_true(q > 1e-9 && q < 1.4e-9);
    snprintf(args, sizeof args, "%s %.3g", one, q);
    cJSON *j = run_cli_json(args, buf, sizeof buf);
    assert_true(num(j, "duration_s") < RL_SERVE_HORIZON_MAX_S);
    cJSON_Delete(j);
    snprintf(args, sizeof args, "%s 2.22e-10", one);
    assert_int_equal(run_cli(args, buf, sizeof buf), 2);
}

/* tester62 #9: ideal runs print "engine": "none", a value --engine
 * refused.  --engine none is --engine ideal (spec.h rl_engine_alias):
 * step, ops and simulate print byte for byte what --engine ideal prints,
 * "engine": "none" among it, and --ideal --engine none do not contradict
 * each other; a profile may not name an engine "none" (engines.c). */
static void engine_none_is_ideal(void **state)
{
    (void)state;
    static char a[1 << 17], b[1 << 17];
    static const char *const cmd[] = {
        "step --model llama3-8b --hw h100-sxm --context 4096 --format json",
        "ops --model llama3-8b --hw h100-sxm --context 4096 --format json",
        "simulate --model llama3-8b --hw h100-sxm --qps 5 --prompt-len 500 --out-len 50 "
        "--requests 200 --format json"};
    for (int i = 0; i < 3; i++) {
        char args[512];
        snprintf(args, sizeof args, "%s --engine none", cmd[i]);
        assert_int_equal(run_cli(args, a, sizeof a), 0);
        snprintf(args, sizeof args, "%s --engine ideal", cmd[i]);
        assert_int_equal(run_cli(args, b, sizeof b), 0);
        assert_string_equal(a, b);
        assert_non_null(strstr(a, "\"engine\":\t\"none\""));
    }
    assert_int_equal(run_cli("step --model llama3-8b --hw h100-sxm --context 4096 --ideal "
                             "--engine none --format json", a, sizeof a), 0);
    char spec[256], path[64], err[512];
    snprintf(spec, sizeof spec, "return { base = 'h100-sxm', engines = { none = { } } }");
    write_temp(path, ".lua", spec);
    rl_hw h;
    use_source_tree();
    assert_int_not_equal(rl_hw_load(path, NULL, 0, &h, err, sizeof err), 0);
    if (!strstr(err, "field 'engines.none': an engine name has 1 to"))
        fail_msg("%s", err);
    unlink(path);
}

/* tester62 #10: a name with a newline reached the error text raw (fit's
 * CSV cells are shown escaped), splitting the line so the rest read as a
 * message of its own.  Every model, hw and engine name and spec path a
 * message echoes shows its control bytes as \xHH (error.h rl_name_shown):
 * exact text, one line each, the newline nowhere raw. */
static void names_escaped_in_errors(void **state)
{
    (void)state;
    static char buf[1 << 16];
    char dir[] = "/tmp/rl_nlname_XXXXXX", path[128], args[512];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/b\nad.lua", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("return { layers = ", f); /* a syntax error: Lua's own message names it too */
    assert_int_equal(fclose(f), 0);
    static const char *const run[][2] = {
        {"step --model \"$(printf 'llama\\n3-8b')\" --hw h100-sxm --context 10",
         "roofline step: unknown model 'llama\\x0A3-8b': no model/llama\\x0A3-8b.lua ("},
        {"step --model llama3-8b --hw \"$(printf 'h100\\n-sxm')\" --context 10",
         "roofline step: unknown hardware 'h100\\x0A-sxm': no hw_profiles/h100\\x0A-sxm.lua ("},
        {"step --model llama3-8b --hw h100-sxm --engine \"$(printf 'trt\\nllm')\" --context 10",
         "roofline step: --engine 'trt\\x0Allm': a name of 1-40 letters"},
        {"info --model \"%s\"", "\\x0Aad.lua: syntax error: "}};
    for (int i = 0; i < 4; i++) {
        snprintf(args, sizeof args, run[i][0], path);
        assert_int_equal(run_cli(args, buf, sizeof buf), 2);
        const char *at = strstr(buf, run[i][1]);
        if (!at || strchr(buf, '\n') != buf + strlen(buf) - 1)
            fail_msg("%s: want one line holding \"%s\", got:\n%s", args, run[i][1], buf);
    }
    assert_non_null(strstr(buf, "\\x0Aad.lua:1: unexpected symbol near <eof>"));
    unlink(path);
    assert_int_equal(remove_tree(dir), 0);
}

static void stdout_full(void **state)
{
    (void)state;
    static const char *args[] = {"step --model llama3-8b --hw h100-sxm --context 10",
                                 "list models", "help"};
    for (size_t i = 0; i < sizeof args / sizeof *args; i++) {
        char cmd[512];
        use_source_tree();
        snprintf(cmd, sizeof cmd, "%s %s 2>&1 >/dev/full", RL_BIN, args[i]);
        FILE *p = popen(cmd, "r");
        assert_non_null(p);
        size_t len = fread(out, 1, sizeof out - 1, p);
        out[len] = '\0';
        int status = pclose(p);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 1)
            fail_msg("roofline %s >/dev/full: status %d, expected exit 1 (%s)", args[i], status, out);
        const char *at = strstr(out, "stdout: write failed: No space left on device");
        if (!at || strstr(at + 1, "stdout: write failed"))
            fail_msg("roofline %s >/dev/full: stderr \"%s\" lacks one 'stdout: write failed'", args[i],
                     out);
    }
}

/* tester76 #4: a reader that closed the pipe (`pareto ... | head -1`) killed
 * roofline by SIGPIPE, exit 141, where README lists 1 for an output failure:
 * now the write fails, said once, exit 1.  The reader (true) is gone before
 * roofline writes; fd 3 carries the status past it. */
static void stdout_closed_pipe(void **state)
{
    (void)state;
    char cmd[768];
    use_source_tree();
    snprintf(cmd, sizeof cmd, "( ( sleep 0.3; %s step --model llama3-8b --hw h100-sxm --context 10 "
             "2>&3; echo \"status=$?\" >&3 ) | true ) 3>&1", RL_BIN);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t len = fread(out, 1, sizeof out - 1, p);
    out[len] = '\0';
    pclose(p);
    const char *at = strstr(out, "stdout: write failed: Broken pipe");
    if (!at || strstr(at + 1, "stdout: write failed") || !strstr(out, "status=1\n"))
        fail_msg("roofline step into a closed pipe: want one 'stdout: write failed: Broken pipe' "
                 "and status=1, got: %s", out);
}

/* fixRD #4: a scenario's print into a closed pipe (`run ... | head -1`)
 * ended "stdout: write failed" with no reason (errno was lost by the end of
 * the run); now the reason its print met, as README shows, and /dev/full's
 * too, each said once, exit 1. */
static void run_print_failure_says_why(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_run_pipe_XXXXXX", cmd[768];
    assert_non_null(mkdtemp(dir));
    static const char *const files[] = {"p.lua"};
    static const char *const text[] = {"for i = 1, 3 do print('line ' .. i) end\n"};
    put_files(dir, files, text, 1);
    use_source_tree();
    static const char *const how[] = {"| true", "> /dev/full"};
    static const char *const why[] = {"Broken pipe", "No space left on device"};
    for (int k = 0; k < 2; k++) {
        snprintf(cmd, sizeof cmd, "( ( sleep 0.3; %s run %s/p.lua 2>&3; echo \"status=$?\" >&3 ) "
                 "%s ) 3>&1", RL_BIN, dir, how[k]);
        FILE *p = popen(cmd, "r");
        assert_non_null(p);
        size_t len = fread(out, 1, sizeof out - 1, p);
        out[len] = '\0';
        pclose(p);
        char want[96];
        snprintf(want, sizeof want, "roofline run: stdout: write failed: %s\n", why[k]);
        const char *at = strstr(out, want);
        if (!at || strstr(at + strlen(want), "write failed") || !strstr(out, "status=1\n"))
            fail_msg("run %s: want one '%s' and status=1, got: %s", how[k], want, out);
    }
    assert_int_equal(remove_tree(dir), 0);
}

/* The demo scenario prints both chapter tables. */
static void demo_scenario(void **state)
{
    (void)state;
    assert_int_equal(run_cli("run " RL_SRCDIR "/scenarios/scaling_book_llama2_13b.lua", out, sizeof out), 0);
    assert_non_null(strstr(out, "MHA (K = 40)"));
    assert_non_null(strstr(out, "GQA (K = 8"));
    assert_non_null(strstr(out, "   240       1610.6       1636.6       249.44"));
    assert_non_null(strstr(out, "NO (out of HBM)"));
}

/* tester13 #7: shard listed collectives only for its best plans, so a pp
 * row's comm_s could not be checked.  Every row now carries its own in
 * collective_list (the objects of `collectives`, its phase and strategy),
 * as many as its `collectives` count, their total_s adding up to its
 * comm_s (1e-9); a row without any has no list (tp1 x8).  llama3-70b B=64 on 8 H100, generate tp2 pp4 by hand: 4
 * micro-batches of 16, 16 x 8192 x 2 = 262144 bytes; 2 AllReduces x 20
 * layers a stage x 4 ticks = 80 + 80 over 2 GPUs, each the one-shot
 * max(2 us, 262144 / 4.5e11) = 2 us (comm.h), and the 3 stage sends,
 * max(2 us, 262144 / 4.5e11) = 2 us: comm_s = 163 x 2 us = 0.326 ms
 * (1e-12).  Stops 31-32 scaled the layers' collectives with the stages'
 * pass g (shard.h rl_shard_stage_pass: the last stage's LM head, 1.039194
 * here) and read (160 x 1.039194 + 3) x 2 us = 0.33854 ms, 166.27
 * AllReduces; the LM head is local work, and a count a whole number
 * (tester43 F6). */
static void shard_rows_list_their_collectives(void **state)
{
    (void)state;
    cJSON *j = run_cli_json("shard --model llama3-70b --hw h100-sxm --chips 8 --batch 64 "
                            "--context 4096 --format json", out, sizeof out);
    int pp = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(j, "rows"))
    {
        const cJSON *list = cJSON_GetObjectItem(r, "collective_list"), *c;
        const char *strategy = cJSON_GetObjectItem(r, "strategy")->valuestring;
        assert_int_equal(cJSON_GetArraySize(list), (int)num(r, "collectives"));
        assert_true(num(r, "collectives") > 0 ? cJSON_IsArray(list) : list == NULL);
        double sum = 0;
        cJSON_ArrayForEach(c, list)
        {
            assert_string_equal(cJSON_GetObjectItem(c, "strategy")->valuestring, strategy);
            sum += num(c, "total_s");
        }
        assert_true(fabs(sum - num(r, "comm_s")) <= 1e-9 * num(r, "comm_s"));
        if (strcmp(strategy, "tp2 pp4") == 0 &&
            strcmp(cJSON_GetObjectItem(r, "phase")->valuestring, "generate") == 0) {
            pp = 1;
            assert_rel(num(r, "comm_s"), 163 * 2e-6, 1e-12);
            const cJSON *send = cJSON_GetArrayItem(list, 2);
            assert_string_equal(cJSON_GetObjectItem(send, "what")->valuestring, "stage P2P");
            assert_rel(num(send, "count"), 3, 1e-12);
        }
    }
    assert_true(pp);
    cJSON_Delete(j);
}

/* shard: the contract keys; the done-when cases of issue 4 (llama3-70b on 16
 * v5e and 8 H100) name a best plan per phase and list each collective with
 * its time and latency-bound flag.  step --tp says communication is
 * included (and plain step says it is not). */
static void shard_json(void **state)
{
    (void)state;
    cJSON *j = run_json("shard --model llama3-70b --hw tpu-v5e --chips 16 --batch 32 "
                        "--context 8192 --format json");
    const cJSON *adv = cJSON_GetObjectItem(j, "advice");
    /* tp16 kv=batch by 0.50 ms since issue 12's fixUH put the 2D plan's X
     * pairs (8 chips apart) 2 hops apart on the 4x4 (test_shard.c
     * compare_picks itemises it; 2d 2x8 kv=batch from fixUC to fixUH) */
    assert_string_equal(cJSON_GetObjectItem(adv, "generate_latency")->valuestring,
                        "tp16 kv=batch");
    assert_non_null(cJSON_GetObjectItem(adv, "prefill_latency"));
    assert_true(cJSON_IsString(cJSON_GetObjectItem(adv, "generate")));
    const cJSON *lim = cJSON_GetObjectItem(j, "limits");
    assert_rel(num(lim, "prefill_tp_max"), 28672.0 * 9e10 / 1.97e14, 1e-9);
    const cJSON *colls = cJSON_GetObjectItem(j, "collectives");
    assert_true(cJSON_GetArraySize(colls) >= 2);
    static const char *ck[] = {"phase", "strategy", "what", "collective", "group", "bytes",
                               "per_layer", "count", "each_s", "total_s", "latency_bound"};
    /* a pipeline's stage sends are per pass, not per layer: no per_layer
     * (tester58 #2 made tp1 pp16 the prefill throughput plan here) */
    for (const cJSON *c = colls->child; c; c = c->next)
        for (size_t k = 0; k < sizeof ck / sizeof *ck; k++)
            if (strcmp(ck[k], "per_layer") != 0 ||
                strcmp(cJSON_GetObjectItem(c, "collective")->valuestring, "P2P") != 0)
                assert_non_null(cJSON_GetObjectItem(c, ck[k]));
    assert_null(cJSON_GetObjectItem(j, "mode_note")); /* estimated: nothing measured */
    cJSON_Delete(j);
    j = run_cli_json("shard --model llama3-70b --hw h100-sxm --chips 8 --batch 32 "
                     "--context 8192 --format json", out, sizeof out); /* the note on stderr */
    adv = cJSON_GetObjectItem(j, "advice");
    assert_string_equal(cJSON_GetObjectItem(adv, "generate_latency")->valuestring, "tp8");
    /* a measured chip ranked at its peaks reads ideal with a note (docs/model.md;
     * tester7 #3: none was printed), on stderr too */
    assert_string_equal(cJSON_GetObjectItem(j, "mode")->valuestring, "ideal");
    assert_non_null(strstr(cJSON_GetObjectItem(j, "mode_note")->valuestring,
                           "formula (1) at h100-sxm's datasheet peaks"));
    cJSON_Delete(j);
    assert_int_equal(run_cli("shard --model llama3-70b --hw h100-sxm --chips 8 --batch 32 "
                             "--context 8192", out, sizeof out), 0);
    assert_non_null(strstr(out, "roofline shard: note: every plan is ranked by formula (1)"));
    j = run_cli_json("step --model scaling-book-18b --hw tpu-v5e --chips 16 --tp 16 --kv-split seq "
                     "--batch 1 --context 128000 --weights int8 --kv int8 --compute int8 "
                     "--format json", out, sizeof out); /* nothing measured: a note */
    assert_non_null(strstr(cJSON_GetObjectItem(j, "communication")->valuestring, "included"));
    assert_rel(num(cJSON_GetObjectItem(j, "rows")->child, "comm_s"), 64 * 28e-6, 1e-9);
    cJSON_Delete(j);
    j = run_json("step --model llama3-8b --hw h100-sxm --context 1024 --format json");
    assert_non_null(strstr(cJSON_GetObjectItem(j, "communication")->valuestring, "none"));
    cJSON_Delete(j);
    assert_int_equal(run_cli("shard --model llama3-70b --hw tpu-v5e --chips 16 --batch 32 "
                             "--context 8192", out, sizeof out), 0);
    assert_non_null(strstr(out, "collectives:"));
    assert_int_equal(run_cli("step --model llama3-70b --hw tpu-v5e --chips 16 --tp 3 --context 8",
                             out, sizeof out), 2);
    assert_non_null(strstr(out, "tp*ep*sp*pp"));
    assert_int_equal(run_cli("step --model llama3-70b --hw tpu-v5e --chips 16 --sharding 3d "
                             "--context 8", out, sizeof out), 2);
    assert_int_equal(run_cli("shard --model llama3-70b --hw tpu-v5e --chips 16 --tp 4 "
                             "--context 8", out, sizeof out), 2);
    /* the worked-problem-4 scenario: 5.85 ms (test_shard.c derives it; 5.72
     * before issue 12's fixUH put the KV sequence split's pairs, 8 chips
     * apart, 2 hops apart on the 4x4; 5.21 before fixUC counted 12 hops,
     * not 8, an AllReduce over the v5e 4x4; 5.20 before the int8
     * checkpoint's bf16 embedding, dtype.h rl_dtype_kept) */
    assert_int_equal(run_cli("run " RL_SRCDIR "/scenarios/sharding_worked_problem_4.lua", out,
                             sizeof out), 0);
    assert_non_null(strstr(out, "tp16 kv=seq: step 5.85 ms"));
}

/* The doc text at path with every run of white space one space, so a quoted
 * figure is found across the doc's line breaks and indentation. */
static char *doc_words(const char *path)
{
    char *t = slurp_text(path), *w = t;
    for (const char *r = t; *r; r++)
        if (!isspace((unsigned char)*r))
            *w++ = *r;
        else if (w > t && w[-1] != ' ')
            *w++ = ' ';
    *w = '\0';
    return t;
}

/* The doc (white space folded) must quote `fmt`'s text. */
static void doc_quotes(const char *doc, const char *name, const char *fmt, ...)
{
    char want[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(want, sizeof want, fmt, ap);
    va_end(ap);
    if (!strstr(doc, want))
        fail_msg("%s does not quote what the tool prints now: '%s'", name, want);
}

/* tester44 F6: step --chips 16 on llama3-405b / h100-sxm ran tp8 x 2
 * replicas at 101.5 GB of weights a chip on 85.9 GB and printed a step,
 * exit 0 (fits false); --chips 3 on llama3-70b was refused.  Now the
 * chips run tp8 x pp2, the step `--tp 8 --pp 2` prints (exact compare:
 * the same path; 39.87 ms, 50.7 GB a chip, fits), with a note; and with
 * no pipeline that holds the weights (hbm_bytes 40e9: 50.7 GB a chip at
 * pp2) it prints the nearest plan's step, tp8 x pp2's, fits false, exit
 * 0, as `--tp 8 --pp 2` does (tester47 F3: it was refused, exit 2, where
 * --chips 8 printed fits false, exit 0; tester48b F1: tp8 x 2 replicas
 * was timed while the note named tp8 x pp2), with a note naming it. */
static void step_chips_pipelines_weights_that_do_not_fit(void **state)
{
    (void)state;
    const char *base = "step --model llama3-405b --hw h100-sxm --batch 1 --context 1000";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --chips 16 --format json", base);
    cJSON *a = run_cli_json(cmd, out, sizeof out);
    const cJSON *ra = cJSON_GetArrayItem(cJSON_GetObjectItem(a, "rows"), 0);
    snprintf(cmd, sizeof cmd, "%s --tp 8 --pp 2 --format json", base);
    cJSON *b = run_cli_json(cmd, out, sizeof out);
    const cJSON *rb = cJSON_GetArrayItem(cJSON_GetObjectItem(b, "rows"), 0);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(ra, "fits")));
    assert_true(num(ra, "step_s") == num(rb, "step_s"));
    assert_true(num(ra, "weight_bytes_per_chip") == num(rb, "weight_bytes_per_chip"));
    assert_true(num(ra, "weight_bytes_per_chip") < 60e9);
    cJSON_Delete(a);
    cJSON_Delete(b);
    snprintf(cmd, sizeof cmd, "%s --chips 16", base);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, "16 chips without a plan run tp8 x pp2 ("));
    snprintf(cmd, sizeof cmd, "%s --chips 16 --set hw.hbm_bytes=40e9", base);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, "no plan over the 16 chips"));
    assert_non_null(strstr(out, "timed as the nearest, tp8 x pp2 (the most KV room: 50.74 GB a "
                                "chip on 39.06 GB; as --tp 8 --pp 2), fits false"));
    assert_non_null(strstr(out, "      false"));
}

/* tester45 F3: the automatic pipeline judged the weights split evenly
 * over the stages (deepseek-v3 bf16 on tp8: 169.56 GB a chip, 84.78 at
 * pp2 under h100-sxm's 85.49 GB usable), so 16 chips ran tp8 pp2, fits
 * false, and 32 ran pp2 x2.  The stages hold their own layers (trtllm's
 * split, 61 layers: pp2 [31 30], pp4 [16 15 15 15]); the heaviest is the
 * last, its MoE layers + the LM head.  By hand from DeepSeek-V3's
 * config.json (hidden 7168, q_lora 1536, kv_lora 512, rope 64, nope 128,
 * v 128, 128 heads, 256 routed experts of 2048 + 1 shared, vocab 129280),
 * bf16, tp8: an MoE layer is (7168 x 1536 + 7168 x 576 down projections
 * and norms, whole) + (q_b, kv_b, o, shared and routed experts) / 8 +
 * router = 1.4533e9 params a chip = 2.9066 GB; LM head 129280 x 7168 / 8
 * + norm.  pp2's last stage: 30 layers + head = 87.428 GB > 85.49 usable
 * (no plan over 16 chips fits: fits false, exit 0 since tester47 F3; the
 * nearest, tp4 x pp4, 87.15 GB); pp4's: 15 layers + head = 43.830 GB
 * (0.01 GB tolerance: the hand sum's rounding), which fits: 32 chips run
 * `--tp 8 --pp 4`, the same step bit for bit. */
static void step_chips_pipeline_by_heaviest_stage(void **state)
{
    (void)state;
    const char *base = "step --model deepseek-v3 --hw h100-sxm --batch 8 --context 4096";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --chips 16", base);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, "no plan over the 16 chips"));
    assert_non_null(strstr(out, "fits false"));
    snprintf(cmd, sizeof cmd, "%s --chips 32 --format json", base);
    cJSON *a = run_cli_json(cmd, out, sizeof out);
    snprintf(cmd, sizeof cmd, "%s --tp 8 --pp 4 --chips 32 --format json", base);
    cJSON *b = run_cli_json(cmd, out, sizeof out);
    const cJSON *ra = cJSON_GetArrayItem(cJSON_GetObjectItem(a, "rows"), 0);
    const cJSON *rb = cJSON_GetArrayItem(cJSON_GetObjectItem(b, "rows"), 0);
    assert_string_equal(cJSON_GetObjectItem(a, "sharding")->valuestring, "tp8 kv=replicate pp4");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(ra, "fits")));
    assert_rel(num(ra, "weight_bytes_per_chip"), 43.830e9, 0.01 / 43.830);
    assert_true(num(ra, "step_s") == num(rb, "step_s"));
    assert_true(num(ra, "weight_bytes_per_chip") == num(rb, "weight_bytes_per_chip"));
    cJSON_Delete(a);
    cJSON_Delete(b);
}

/* tester47 F2: step --chips 12 for llama3-405b on h100-sxm was refused
 * ("the widest that can, tp4, needs 202.9 GB") though --tp 4 --pp 3 holds
 * 67.99 GB a chip (test_shard auto_plan_searches_tp_and_pp derives it):
 * the automatic plan searches the TP degrees that divide the chips inside
 * a domain and their pipelines, and runs that plan, the step --tp 4 --pp 3
 * prints bit for bit, the note naming it. */
static void step_chips_searches_tp_degrees(void **state)
{
    (void)state;
    const char *base = "step --model llama3-405b --hw h100-sxm --batch 1 --context 4096 ";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s--chips 12 --format json", base);
    cJSON *a = run_json_noted(cmd, "12 chips without a plan run tp4 x pp3 (");
    assert_non_null(strstr(out, "as --tp 4 --pp 3; simulate --chips 12 --pp 3 runs the same plan"));
    cJSON *b = json2(base, "--tp 4 --pp 3 --format json");
    const cJSON *ra = cJSON_GetArrayItem(cJSON_GetObjectItem(a, "rows"), 0);
    const cJSON *rb = cJSON_GetArrayItem(cJSON_GetObjectItem(b, "rows"), 0);
    assert_string_equal(cJSON_GetObjectItem(a, "sharding")->valuestring, "tp4 pp3");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(ra, "fits")));
    assert_true(num(ra, "step_s") == num(rb, "step_s"));
    assert_true(num(ra, "weight_bytes_per_chip") == num(rb, "weight_bytes_per_chip"));
    cJSON_Delete(a);
    cJSON_Delete(b);
}

/* tester47 F3: step --chips N without a plan for a model no plan over the
 * chips holds (llama3-405b bf16, 811.7 GB, on H100s) exited 0 with fits
 * false at 1 and 8 chips and 2 at 3, 9, 12 and 16 (16 and 12 now fit).
 * One contract, an explicit plan's (`--tp 8` that does not fit prints
 * fits false, exit 0; docs/model.md): every count prints its step, fits
 * false, exit 0, and past one chip a note says no plan fits. */
static void step_chips_no_fit_exit_zero(void **state)
{
    (void)state;
    const char *base = "step --model llama3-405b --hw h100-sxm --batch 1 --context 4096 ";
    const char *tails[] = {"--chips 1", "--chips 3", "--chips 8", "--chips 9"};
    for (size_t i = 0; i < sizeof tails / sizeof *tails; i++) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "%s%s --format json", base, tails[i]);
        /* fails unless exit 0 with JSON (and past one chip the note; on
         * one, 405b's GEMMs at batch 1 run past the tables: estimated,
         * table_time_share 0.453, said since tester50 F2) */
        cJSON *j = run_json_noted(cmd, i > 0 ? "holds its weights" : "note: mode estimated: ");
        const cJSON *r = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0);
        assert_true(cJSON_IsFalse(cJSON_GetObjectItem(r, "fits")));
        cJSON_Delete(j);
    }
    assert_int_equal(cli2(base, "--chips 9"), 0);
    assert_non_null(strstr(out, "no plan over the 9 chips"));
    assert_non_null(strstr(out, "timed as the nearest, tp1 x pp9 (the most KV room: 93.46 GB a "
                                "chip on 83.58 GB; as --tp 1 --pp 9)")); /* the room: 80 GiB
                                * less trtllm's activation workspace (memory.h
                                * rl_memory_workspace), the weights leaving nothing free */
}

/* Issue 14 (left over): ops --chips N and prefill --chips N took the
 * widest TP over the chips (rl_shard_tp_over) while step --chips N
 * searches TP x PP (rl_shard_auto_plan): prefill --chips 16 for
 * llama3-405b timed tp8 x 2 replicas at 101.47 GB a chip (fits false,
 * exit 0) where step runs tp8 x pp2.  Now both take step's plan
 * (rl_shard_replica_tp): without stages it is timed, one replica (70b on
 * 16: tp8 x 2, the ttft --tp 8 prints bit for bit); with stages, which
 * ops and prefill do not time, it is refused (exit 2) naming the plan and
 * the flags that time it (405b on 16: tp8 x pp2; 70b on 3: tp1 x pp3).
 * Since fixWB #3 ops in decode takes step's plan for its batch (ops's
 * refusal names that plan: ops_chips_runs_step_plan). */
static void ops_prefill_chips_take_step_plan(void **state)
{
    (void)state;
    static const char *const refused[] = {
        "prefill --model llama3-405b --hw h100-sxm --tokens 1024 --chips 16",
        "ops --model llama3-405b --hw h100-sxm --context 4096 --chips 16"};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(run_cli(refused[i], out, sizeof out), 2);
        /* ops in decode names step's plan for its batch since fixWB #3 */
        assert_non_null(strstr(out, i ? "--chips 16: step --chips 16 runs batch 1 on tp8 x pp2 ("
                                      : "--chips 16: 16 chips' automatic plan is tp8 x pp2 ("));
        assert_non_null(strstr(out, i ? "step --chips 16 --tp 8 --pp 2 times that plan"
                                      : "ops and prefill time no pipeline stages; step --chips 16 "
                                        "--tp 8 --pp 2 times that plan"));
    }
    assert_int_equal(run_cli("prefill --model llama3-70b --hw h100-sxm --tokens 1024 --chips 3",
                             out, sizeof out), 2);
    assert_non_null(strstr(out, "3 chips' automatic plan is tp1 x pp3 ("));
    const char *base = "prefill --model llama3-70b --hw h100-sxm --tokens 1024 --format json ";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s--chips 16", base);
    cJSON *a = run_json_noted(cmd, "16 chips without a plan run tp8 (the automatic plan");
    assert_non_null(strstr(out, "in one of 2 replicas, that one timed"));
    cJSON *b = json2(base, "--tp 8");
    const cJSON *ra = cJSON_GetArrayItem(cJSON_GetObjectItem(a, "rows"), 0);
    const cJSON *rb = cJSON_GetArrayItem(cJSON_GetObjectItem(b, "rows"), 0);
    assert_true(num(ra, "ttft_s") == num(rb, "ttft_s"));
    cJSON_Delete(a);
    cJSON_Delete(b);
    /* tester51 F2: --batch is over all the chips, as step's: on 16 chips
     * (tp8 x 2 replicas) batch 8 is 4 a replica, timed as step times it
     * (9.258 ms; ops read 9.577 ms, the whole batch on one replica);
     * tolerance 1e-12 relative: the two sum the same terms in another order */
    a = run_json_noted("ops --model llama3-70b --hw h100-sxm --context 2048 --chips 16 --batch 8 "
                       "--format json",
                       "--batch is over all 16 chips, as step --chips 16's");
    b = run_json_noted("step --model llama3-70b --hw h100-sxm --context 2048 --chips 16 "
                       "--batch 8 --format json",
                       "16 chips");
    rb = cJSON_GetArrayItem(cJSON_GetObjectItem(b, "rows"), 0);
    assert_true(fabs(num(a, "step_s") / num(rb, "step_s") - 1) < 1e-12);
    assert_true(num(a, "batch") == 4);
    cJSON_Delete(b);
    /* tester52 F10: the explicit form, --chips 16 --tp 8, runs the same
     * (it was refused: tp*ep must equal the chips), bit for bit */
    b = run_json_noted("ops --model llama3-70b --hw h100-sxm --context 2048 --chips 16 --tp 8 "
                       "--batch 8 --format json",
                       "--batch is over all 16 chips");
    assert_true(num(a, "step_s") == num(b, "step_s"));
    cJSON_Delete(a);
    cJSON_Delete(b);
}

/* tester48b F1: step --chips 3 for llama3-405b on h100-sxm (no plan
 * fits) timed tp1 x 3 replicas (811.7 GB a chip) while its note named
 * tp1 x pp3 (271.97 GB) the nearest.  The plan timed is the one named:
 * the step --tp 1 --pp 3 prints, bit for bit, fits false, exit 0; on 8
 * chips tp8 (tp4 x pp2 is 4 MB nearer in 16 GB short: a tie, to the
 * fewer stages). */
static void step_chips_no_fit_times_nearest(void **state)
{
    (void)state;
    const char *base = "step --model llama3-405b --hw h100-sxm --batch 1 --context 4096 ";
    static const char *chips[] = {"--chips 3 --format json", "--chips 8 --format json"};
    static const char *flags[] = {"--tp 1 --pp 3 --format json", "--tp 8 --format json"};
    static const char *names[] = {"tp1 pp3", "tp8"};
    for (int i = 0; i < 2; i++) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "%s%s", base, chips[i]);
        cJSON *a = run_json_noted(cmd, "timed as the nearest, ");
        cJSON *b = json2(base, flags[i]);
        const cJSON *ra = cJSON_GetArrayItem(cJSON_GetObjectItem(a, "rows"), 0);
        const cJSON *rb = cJSON_GetArrayItem(cJSON_GetObjectItem(b, "rows"), 0);
        assert_string_equal(cJSON_GetObjectItem(a, "sharding")->valuestring, names[i]);
        assert_true(num(a, "replicas") == 1);
        assert_true(cJSON_IsFalse(cJSON_GetObjectItem(ra, "fits")));
        assert_true(num(ra, "step_s") == num(rb, "step_s"));
        assert_true(num(ra, "weight_bytes_per_chip") == num(rb, "weight_bytes_per_chip"));
        cJSON_Delete(a);
        cJSON_Delete(b);
    }
}

/* tester47 F12: simulate --chips 16 for llama3-405b advised "--chips 8
 * --replicas 2", which simulate refuses (101.5 GB a chip); tester46 F9:
 * step and simulate chose their plans apart.  simulate's --chips stays
 * one replica's (docs/serving.md), and its advice is step's plan from
 * the same function (rl_shard_auto_plan) as simulate flags, which run:
 * tp8 x pp2 for 405b (--chips 16 --pp 2), tp8 x 2 replicas for llama3-70b
 * (--chips 8 --replicas 2), and on --chips 12, refused (tp12 cannot
 * split 8 KV heads), tp4 x pp3 (--chips 12 --pp 3). */
static void simulate_advice_runs(void **state)
{
    (void)state;
    const char *base = "simulate --hw h100-sxm --prompt-len 1000 --out-len 100 --requests 20 "
                       "--qps 1 --format json --model ";
    assert_int_equal(cli2(base, "llama3-405b --chips 16"), 0);
    assert_non_null(strstr(out, "16 chips' automatic plan is tp8 x pp2"));
    assert_non_null(strstr(out, "simulate --chips 16 --pp 2"));
    assert_null(strstr(out, "--chips 8 --replicas 2"));
    assert_int_equal(cli2(base, "llama3-405b --chips 16 --pp 2"), 0);
    assert_null(strstr(out, "NVLink/ICI domain"));
    assert_int_equal(cli2(base, "llama3-405b --chips 12"), 2);
    assert_non_null(strstr(out, "12 chips' automatic plan is tp4 x pp3"));
    assert_non_null(strstr(out, "simulate --chips 12 --pp 3"));
    assert_int_equal(cli2(base, "llama3-405b --chips 12 --pp 3"), 0);
    /* step names the same plan and the same simulate flags */
    assert_int_equal(run_cli("step --model llama3-405b --hw h100-sxm --chips 16 --context 1000",
                             out, sizeof out), 0);
    assert_non_null(strstr(out, "run tp8 x pp2 ("));
    assert_non_null(strstr(out, "simulate --chips 16 --pp 2 runs the same plan"));
    /* batch 2: at the default batch 1 step runs tp8 on 8 of the 16 chips
     * since fixWB #1 (no replica idle), not the automatic plan */
    assert_int_equal(run_cli("step --model llama3-70b --hw h100-sxm --chips 16 --context 1000 "
                             "--batch 2", out, sizeof out), 0);
    assert_non_null(strstr(out, "run tp8 (") && strstr(out, "times 2 replicas, as --tp 8"));
    assert_non_null(strstr(out, "simulate --chips 8 --replicas 2 runs the same plan"));
    assert_int_equal(cli2(base, "llama3-70b --chips 16"), 0);
    assert_non_null(strstr(out, "16 chips' automatic plan is tp8 x 2 replicas"));
}

/* tester44 F10: the README's tour said `step --hw tpu-v5e` fits batch 16,
 * and 33 with int8 KV, for LLaMA-2-13B at the scenario's 8192 tokens; as
 * written step refused the context (the llama2-13b preset's max_context is
 * 4096).  The README now quotes a command that runs; its max_batch (the
 * top-level key) is what the sentence says: 16, 33 with --kv int8. */
static void readme_tpu_v5e_max_batch_runs(void **state)
{
    (void)state;
    const char *cmd = "step --model llama2-13b --hw tpu-v5e --chips 8 --context 8192 --ideal --set "
                      "model.max_context=8192";
    char *rd = doc_words(RL_SRCDIR "/README.md");
    doc_quotes(rd, "README.md", "`%s` gives `max_batch` 16, and 33 with `--kv int8`", cmd);
    free(rd);
    static const char *const kv[2] = {"", " --kv int8"};
    const double want[2] = {16, 33};
    for (int k = 0; k < 2; k++) {
        char c[512];
        snprintf(c, sizeof c, "%s%s --format json", cmd, kv[k]);
        cJSON *j = run_cli_json(c, out, sizeof out);
        assert_true(num(j, "max_batch") == want[k]);
        cJSON_Delete(j);
    }
}

/* h31audit finding 5: the README's AllReduce accuracy sentence quotes what
 * `make accuracy-collectives` (roofline-collfit, part of `make accuracy`)
 * prints from NVIDIA AIConfigurator's tables in ../shared/data/silicon: each
 * measured size held out and interpolated, never across one of vLLM's
 * algorithm switches (collfit.h rl_collfit_error held_out 1,
 * rl_collfit_vllm_switches), p90 per GPU and implementation, against the 15% target; the
 * NCCL, TensorRT-LLM and vLLM ranges, to 0.1% as printed, and every vLLM
 * cell that misses (none since stop 39's lookup linear in bytes: the
 * README says all 20 cells meet it).  Skipped without the data (it is not
 * in this repository). */
static void readme_quotes_collective_accuracy(void **state)
{
    (void)state;
    static const char *const GPU[] = {"a100_sxm", "b200_sxm", "gb200", "h100_sxm", "h200_sxm"};
    static const char *const FILE_OF[] = {"nccl/nccl_perf.csv.gz",
                                          "trtllm/custom_allreduce_perf.csv.gz",
                                          "vllm/custom_allreduce_perf.csv.gz"};
    static const char *const IMPL[] = {"nccl", "trtllm", "vllm_graph", "vllm_eager"};
    char path[1024], err[512], want[256];
    snprintf(path, sizeof path, "%s/../shared/data/silicon/%s/%s", RL_SRCDIR, GPU[0], FILE_OF[0]);
    if (access(path, R_OK) != 0)
        skip();
    char *rd = doc_words(RL_SRCDIR "/README.md");
    double lo[3] = {100, 100, 100}, hi[3] = {0, 0, 0}; /* percent: NCCL, TensorRT-LLM, vLLM */
    int cells = 0, miss = 0;
    for (size_t g = 0; g < sizeof GPU / sizeof GPU[0]; g++)
        for (int f = 0; f < 3; f++) {
            rl_coll_sample *smp = NULL;
            size_t n = 0, cap = 0;
            static rl_collectives t;
            snprintf(path, sizeof path, "%s/../shared/data/silicon/%s/%s", RL_SRCDIR, GPU[g],
                     FILE_OF[f]);
            if (rl_collfit_read(path, &smp, &n, &cap, err, sizeof err) < 0 ||
                rl_collfit_fit(smp, n, &t, err, sizeof err) != 0)
                fail_msg("%s", err);
            char ver[64];
            rl_collfit_table_version(path, ver, sizeof ver);
            if (f == 2 && rl_collfit_vllm_switches(&t, GPU[g], ver) <= 0)
                fail_msg("%s: no vLLM switches for version '%s'", GPU[g], ver);
            for (int i = f; i < (f == 2 ? 4 : f + 1); i++) {
                double med, p90;
                if (!rl_collfit_error(&t, smp, n, IMPL[i], 1, &med, &p90))
                    fail_msg("%s: no %s rows", GPU[g], IMPL[i]);
                snprintf(want, sizeof want, "%.1f", 100 * p90); /* as printed */
                double q = atof(want);
                int r = i < 2 ? i : 2;
                lo[r] = fmin(lo[r], q);
                hi[r] = fmax(hi[r], q);
                if (i < 2)
                    continue;
                cells++;
                if (q > 15.0) {
                    miss++;
                    doc_quotes(rd, "README.md", "%s %s %.1f%%", GPU[g], IMPL[i], q);
                }
            }
            free(smp);
        }
    doc_quotes(rd, "README.md", "NCCL within p90 %.1f-%.1f%%", lo[0], hi[0]);
    doc_quotes(rd, "README.md", "TensorRT-LLM's own AllReduce within %.1f-%.1f%%", lo[1], hi[1]);
    doc_quotes(rd, "README.md", "vLLM's within %.1f-%.1f%% on every GPU", lo[2], hi[2]);
    doc_quotes(rd, "README.md", "all %d GPU x implementation cells meet the 15%% p90", 10 + cells);
    assert_int_equal(cells, 10);
    assert_true(miss == 0 && hi[0] <= 15.0 && hi[1] <= 15.0); /* the README says all pass */
    free(rd);
}

/* max_batch of `step ARGS --format json`. */
static int step_max_batch(const char *args)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "step %s --format json", args);
    cJSON *j = run_json(cmd);
    int b = (int)num(j, "max_batch");
    cJSON_Delete(j);
    return b;
}

/* review28 M1: docs/model.md and docs/serving.md quoted figures of the
 * 80e9-byte H100 after the presets moved to 80 GiB (tp8 332, now 363;
 * max_batch 202, now 222; "leaves of 80 GB per chip").  Each figure below
 * is rerun here and must be what the doc quotes (exact: they are printed
 * integers and the tool's own sentences; fails on the docs of 45a8e51).
 * tester28 F10: serving.md's DeepSeek-V3 KV pools (1,447,495 / 8,529,979
 * before the 141 GiB H200; 1,693,129 / 10,660,634 before stop 28 kept
 * fp8 checkpoints' vocabulary bf16; now 1,687,169 / 10,280,641) and model.md's
 * negative kernel_excess_s paragraph (step 377.9 ms, excess -13.9, before
 * the MLA down-projections went whole on every chip; 381.8, -10.0 before
 * h28acc counted attention once: now 356.0, +73.3) were stale: they are
 * rerun too, to the digits the docs print. */
/* tester91 #9: prefill --mfu 0.5 --ideal read mode mfu (its time the --mfu
 * one) but no_band gave --ideal's reason; ops likewise.  Mode mfu gives the
 * --mfu reason, with --ideal or not; --ideal alone keeps its own. */
static void mfu_no_band_reason(void **state)
{
    (void)state;
    static const char *const runs[] = {
        "prefill --model llama3-8b --hw h100-sxm --tokens 512 --mfu 0.5 --ideal --format json",
        "prefill --model llama3-8b --hw h100-sxm --tokens 512 --mfu 0.5 --format json",
        "ops --model llama3-8b --hw h100-sxm --phase prefill --tokens 512 --mfu 0.5 --ideal "
        "--format json",
    };
    for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
        cJSON *j = run_json(runs[i]);
        assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(j, "mode")), "mfu");
        const char *nb = cJSON_GetStringValue(cJSON_GetObjectItem(j, "no_band"));
        if (!nb || !strstr(nb, "no band: --mfu: compute at a set fraction of the peak"))
            fail_msg("%s: no_band '%s'", runs[i], nb ? nb : "(none)");
        cJSON_Delete(j);
    }
    cJSON *j = run_json("prefill --model llama3-8b --hw h100-sxm --tokens 512 --ideal --format json");
    assert_non_null(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(j, "no_band")), "(--ideal"));
    cJSON_Delete(j);
}

/* tester101 (t41): prefill of llama3-8b on four tpu-v5e, 8192 tokens:
 * --mfu 1 read mode "ideal" at 224.0 ms (the tp4 plan and its
 * collectives, as the default's `estimated` 224.0 ms) while --ideal read
 * "ideal" at 176.3 ms (fully sharded, no collectives): one label, two
 * methods.  --mfu F is mode "mfu" for F = 1 too (docs/model.md); times
 * unchanged (measured on this build, to 0.1 ms). */
static void mfu_one_is_mode_mfu(void **state)
{
    (void)state;
    static const char *const flags[] = {"", "--mfu 1", "--ideal"};
    static const char *const mode[] = {"estimated", "mfu", "ideal"};
    static const double ms[] = {224.0, 224.0, 176.3};
    for (int i = 0; i < 3; i++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "prefill --model llama3-8b --hw tpu-v5e --chips 4 --tokens 8192 "
                 "%s --format json", flags[i]);
        cJSON *j = run_json(cmd);
        const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0);
        assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(j, "mode")), mode[i]);
        assert_true(fabs(num(row, "ttft_s") * 1e3 - ms[i]) < 0.05);
        cJSON_Delete(j);
    }
    cJSON *j = run_json("ops --model llama3-8b --hw h100-sxm --phase prefill --tokens 512 --mfu 1 "
                        "--format json");
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(j, "mode")), "mfu");
    cJSON_Delete(j);
}

/* tester91 #8: pareto had no bound on its sweep (7 chip counts x 4096
 * batches x 4 weight x 3 KV dtypes = 344064 points ran 116 s and 1.19 GB).
 * The product of the lists is bounded at RL_PARETO_MAX_POINTS (100000,
 * sweep.h) before the run: exit 2 naming the product and the flags. */
static void pareto_sweep_bounded(void **state)
{
    (void)state;
    assert_int_equal(run_cli("pareto --model llama3-70b --hw h100-sxm --chips 1,2,4,8,16,32,64 "
                             "--batch $(seq -s, 1 4096) --weights bf16,fp8,int8,int4 "
                             "--kv bf16,fp8,int8", out, sizeof out), 2);
    if (!strstr(out, "roofline pareto: the sweep is 7 chip count(s) (--chips) x 4096 batch(es) "
                     "(--batch) x 4 weight dtype(s) (--weights) x 3 KV dtype(s) (--kv) = 344064 "
                     "points, over the bound of 100000"))
        fail_msg("pareto's bound not said: %.600s", out);
    /* the default chip list counts too: h100-sxm's 1, 2, 4, 8 */
    assert_int_equal(run_cli("pareto --model llama3-8b --hw h100-sxm --batch $(seq -s, 1 4096) "
                             "--weights bf16,fp8,int8,int4 --kv bf16,fp8", out, sizeof out), 2);
    assert_non_null(strstr(out, "the sweep is 4 chip count(s) (--chips) x 4096 batch(es)"));
}

/* tester91 #3: docs/cli.md's option tables give each option a "JSON key"
 * column, the key that echoes the option in the command's JSON; size
 * lacked prompt/output_dist (the aliases simulate prints), simulate lacked
 * chips and ops lacked phase.  Each command section's keys must be in a
 * small run's JSON, at the top level or in its first row.  Not run here:
 * calibrate, validate and validate-serve (they run the reference engine;
 * test_calib reads their output), import-hf (no JSON key column), run,
 * list, and sweep and plot (Lua only). */
static void docs_json_keys_printed(void **state)
{
    (void)state;
    static const struct {
        const char *section, *args;
    } runs[] = {
        {"info", "info --model llama3-8b --context 1024 --format json"},
        {"step", "step --model llama3-8b --hw h100-sxm --context 1024 --format json"},
        {"pareto", "pareto --model llama3-8b --hw h100-sxm --batch 1,8 --context 1024 --format json"},
        {"shard", "shard --model llama3-8b --hw h100-sxm --chips 2 --batch 1 --context 1024 --format json"},
        {"ops", "ops --model llama3-8b --hw h100-sxm --context 1024 --format json"},
        {"prefill", "prefill --model llama3-8b --hw h100-sxm --tokens 128 --chunk 64 --format json"},
        {"fit", "fit " RL_SRCDIR "/tests/data/e2e/splitwise_h100.csv --hw h100-sxm --model llama2-70b "
                "--set model.max_context=16384 --format json"},
        {"simulate", "simulate --model llama3-8b --hw h100-sxm --qps 2 --prompt-len 100 --out-len 20 "
                     "--requests 50 --format json"},
        {"size", "size --model llama3-8b --hw h100-sxm --qps 2 --prompt-len 100 --out-len 20 "
                 "--ttft-p99 1 --tpot-p99 0.1 --keep-precision --format json"},
    };
    /* keys a small run cannot print, and why */
    static const char *const absent[][2] = {
        {"info", "hw"},             /* info --hw alone prints the profile; beside --model it is unused */
        {"simulate", "prefill_replicas"}, /* --policy disagg only */
        {"fit", "profile"},         /* --save only */
    };
    char *md = slurp_text(RL_SRCDIR "/docs/cli.md");
    int checked = 0;
    for (size_t r = 0; r < sizeof runs / sizeof *runs; r++) {
        char head[64];
        snprintf(head, sizeof head, "\n## %s\n", runs[r].section);
        const char *sec = strstr(md, head);
        if (!sec)
            fail_msg("docs/cli.md has no section '## %s'", runs[r].section);
        sec += strlen(head);
        const char *end = strstr(sec, "\n## ");
        if (!end)
            end = sec + strlen(sec);
        const char *table = strstr(sec, "\n| option | Lua key | JSON key |");
        if (!table || table > end)
            fail_msg("docs/cli.md's section '## %s' has no option table", runs[r].section);
        sec = table + 1;
        cJSON *j = run_json(runs[r].args);
        const cJSON *rows = cJSON_GetObjectItem(j, "rows");
        const cJSON *row0 = cJSON_IsArray(rows) ? rows->child : NULL;
        for (const char *ln = sec; ln && ln < end; ln = strchr(ln, '\n'), ln = ln ? ln + 1 : NULL) {
            /* | option | Lua key | JSON key | value | ... */
            if (*ln != '|')
                break; /* the table's end */
            if (strncmp(ln, "| option ", 9) == 0 || strncmp(ln, "|---", 4) == 0)
                continue;
            const char *c = ln;
            for (int bar = 0; bar < 3 && c; bar++)
                c = strchr(c + 1, '|');
            if (!c)
                continue;
            const char *k = c - 1;
            while (*k == ' ')
                k--;
            const char *b = k;
            while (b > ln && b[-1] != '|' && b[-1] != ' ')
                b--;
            char key[64];
            snprintf(key, sizeof key, "%.*s", (int)(k - b + 1), b);
            if (*key == '|' || !*key)
                continue; /* no JSON key */
            if (key[0] == '`') { /* `key` */
                memmove(key, key + 1, strlen(key));
                key[strcspn(key, "`")] = '\0';
            }
            int skip = 0;
            for (size_t a = 0; a < sizeof absent / sizeof *absent; a++)
                skip |= strcmp(absent[a][0], runs[r].section) == 0 && strcmp(absent[a][1], key) == 0;
            if (skip)
                continue;
            if (!cJSON_HasObjectItem(j, key) && !(row0 && cJSON_HasObjectItem(row0, key)))
                fail_msg("docs/cli.md's %s table names JSON key '%s', which `roofline %s` does not "
                         "print", runs[r].section, key, runs[r].args);
            checked++;
        }
        cJSON_Delete(j);
    }
    free(md);
    if (checked < 60) /* the tables were read */
        fail_msg("only %d JSON keys read from docs/cli.md", checked);
}

/* Whether `key` occurs in text as a whole key (not inside a longer one). */
static int names_key(const char *text, const char *key)
{
    size_t n = strlen(key);
    for (const char *c = strstr(text, key); c; c = strstr(c + 1, key)) {
        int before = c > text && (isalnum((unsigned char)c[-1]) || c[-1] == '_');
        int after = isalnum((unsigned char)c[n]) || c[n] == '_';
        if (!before && !after)
            return 1;
    }
    return 0;
}

/* fixTB #3: every top-level key `size` prints is documented: in size's
 * section of docs/cli.md (its help text and option table), docs/serving.md
 * or docs/model.md.  beyond_replica_bound, max_replicas, simulated_configs
 * and search_s were in none (and requests, burst, hbm_reserve and
 * conservative had no JSON key cell in the option table:
 * docs_json_keys_printed checks those cells against the output). */
static void size_json_keys_documented(void **state)
{
    (void)state;
    char *cli = slurp_text(RL_SRCDIR "/docs/cli.md"), *serving = slurp_text(RL_SRCDIR "/docs/serving.md"),
         *model = slurp_text(RL_SRCDIR "/docs/model.md");
    char *sec = strstr(cli, "\n## size\n");
    assert_non_null(sec);
    char *end = strstr(sec + 1, "\n## ");
    if (end)
        *end = '\0';
    cJSON *j = run_json("size --model llama3-8b --hw h100-sxm --qps 2 --prompt-len 100 --out-len 20 "
                        "--ttft-p99 1 --tpot-p99 0.1 --keep-precision --format json");
    int n = 0;
    for (const cJSON *k = j->child; k; k = k->next, n++)
        if (!names_key(sec, k->string) && !names_key(serving, k->string) &&
            !names_key(model, k->string))
            fail_msg("size prints JSON key '%s', which docs/cli.md (size), docs/serving.md and "
                     "docs/model.md do not name", k->string);
    assert_true(n > 30);
    /* fixTF: and every key of every row, nested objects' keys too (14 row
     * keys were in none: chips_total, ttft_p50_s, the p50/e2e band edges) */
    const cJSON *rows = cJSON_GetObjectItem(j, "rows");
    assert_non_null(rows->child);
    const cJSON *stack[16];
    int depth = 0, nrow = 0;
    for (const cJSON *r = rows->child; r; r = r->next) {
        stack[depth++] = r->child;
        while (depth > 0) {
            const cJSON *k = stack[--depth];
            if (!k)
                continue;
            stack[depth++] = k->next;
            nrow++;
            if (!names_key(sec, k->string) && !names_key(serving, k->string) &&
                !names_key(model, k->string))
                fail_msg("a size row prints JSON key '%s', which docs/cli.md (size), "
                         "docs/serving.md and docs/model.md do not name", k->string);
            if (cJSON_IsObject(k) && depth < 16)
                stack[depth++] = k->child;
        }
    }
    assert_true(nrow > 60);
    cJSON_Delete(j);
    free(cli);
    free(serving);
    free(model);
}

static void docs_quote_current_capacity_figures(void **state)
{
    (void)state;
    char *md = doc_words(RL_SRCDIR "/docs/model.md");
    /* the shard transcript: its advice sentences, word for word */
    const char *ideal = "every plan is ranked by formula (1)"; /* shard's note */
    cJSON *j = run_json_noted("shard --model llama3-70b --hw h100-sxm --chips 8 --batch 32 "
                              "--context 8192 --format json", ideal);
    const cJSON *adv = cJSON_GetObjectItem(j, "advice");
    doc_quotes(md, "docs/model.md", "advice.prefill %s", cJSON_GetObjectItem(adv, "prefill")->valuestring);
    doc_quotes(md, "docs/model.md", "advice.generate %s", cJSON_GetObjectItem(adv, "generate")->valuestring);
    cJSON_Delete(j);
    /* tester38 F2: the tpu-v5e transcript read generate compute_ms 1.629
     * (now 1.411 = 32 x 2 x 69.50e9 / 16 / 197e12 by hand) and "16 GB per
     * chip": its advice and generate rows, to the digits it prints */
    j = run_json("shard --model llama3-70b --hw tpu-v5e --chips 16 --batch 32 --context 8192 "
                 "--format json");
    adv = cJSON_GetObjectItem(j, "advice");
    doc_quotes(md, "docs/model.md", "advice.prefill %s", cJSON_GetObjectItem(adv, "prefill")->valuestring);
    doc_quotes(md, "docs/model.md", "advice.generate %s", cJSON_GetObjectItem(adv, "generate")->valuestring);
    int tpu_rows = 0;
    for (const cJSON *r = cJSON_GetObjectItem(j, "rows")->child; r; r = r->next) {
        const char *st = cJSON_GetObjectItem(r, "strategy")->valuestring;
        if (strcmp(cJSON_GetObjectItem(r, "phase")->valuestring, "generate") != 0 ||
            (strncmp(st, "tp16 kv=", 8) != 0 && strcmp(st, "2d 2x8 kv=batch") != 0))
            continue;
        const char *best = cJSON_GetStringValue(cJSON_GetObjectItem(r, "best"));
        doc_quotes(md, "docs/model.md", "generate %s ... %.4g %.4g ... %s ... %.0f %.4g %.4g %.4g "
                   "... %.4g %.4g %.4g %.0f %.0f%s%s", st, 1e-9 * num(r, "weight_bytes_per_chip"),
                   1e-9 * num(r, "kv_bytes_per_chip"),
                   cJSON_IsTrue(cJSON_GetObjectItem(r, "fits")) ? "true" : "false",
                   num(r, "flops_per_chip"), 1e3 * num(r, "weight_load_s"), 1e3 * num(r, "kv_load_s"),
                   1e3 * num(r, "compute_s"), 1e3 * num(r, "comm_s"), 1e3 * num(r, "step_s"),
                   num(r, "tokens_per_s_per_chip"), num(r, "collectives"),
                   num(r, "latency_bound_collectives"), best && *best ? " " : "",
                   best ? best : "");
        tpu_rows++;
    }
    assert_int_equal(tpu_rows, 4);
    cJSON_Delete(j);
    /* a plan's max_batch (the `max_batch` paragraph) */
    j = run_json_noted("shard --model llama3-70b --hw h100-sxm --chips 8 --batch 1 --context 4096 "
                       "--format json", ideal);
    int mb[4] = {-1, -1, -1, -1};
    static const char *const plan[4] = {"tp8", "tp4 x2", "tp2 x4", "tp2 pp4"};
    for (const cJSON *r = cJSON_GetObjectItem(j, "rows")->child; r; r = r->next)
        for (int k = 0; k < 4; k++)
            if (!strcmp(cJSON_GetObjectItem(r, "phase")->valuestring, "generate") &&
                !strcmp(cJSON_GetObjectItem(r, "strategy")->valuestring, plan[k]))
                mb[k] = (int)num(r, "max_batch");
    cJSON_Delete(j);
    doc_quotes(md, "docs/model.md", "4096 tokens: tp8 %d = floor(", mb[0]);
    doc_quotes(md, "docs/model.md", "tp4 x2 %d, tp2 x4 %d, tp2 pp4 %d", mb[1], mb[2], mb[3]);
    /* the memory-rule paragraph */
    const char *s8 = "--model llama3-8b --hw h100-sxm --batch 1";
    char a[256];
    snprintf(a, sizeof a, "%s --ideal --hbm-reserve 0.1 --context 1024", s8);
    doc_quotes(md, "docs/model.md", "`max_batch` %d = floor(", step_max_batch(a));
    snprintf(a, sizeof a, "%s --ideal --context 1024", s8);
    doc_quotes(md, "docs/model.md", "against %d with the whole HBM", step_max_batch(a));
    snprintf(a, sizeof a, "%s --engine vllm --context 2048", s8);
    doc_quotes(md, "docs/model.md", "GB usable, `max_batch` %d (", step_max_batch(a));
    snprintf(a, sizeof a, "%s --engine trtllm --context 2048", s8);
    doc_quotes(md, "docs/model.md", "GB, %d; ideal", step_max_batch(a));
    snprintf(a, sizeof a, "%s --ideal --context 2048", s8);
    doc_quotes(md, "docs/model.md", "85.9 GB, %d.", step_max_batch(a));
    /* fixRE item 4: the DeepSeek-V3 capacity sentence read 205 and 1640
     * (its formula left out the 440 MiB workspace) while the tool printed
     * 204 and 1632 (kv_split_default_is_the_engines): both rerun, exact */
    const char *ds = "--model deepseek-v3 --hw h200 --tp 8 --weights fp8 --compute fp8 "
                     "--batch 1 --context 4096";
    int ds1 = step_max_batch(ds);
    snprintf(a, sizeof a, "%s --kv-split batch", ds);
    doc_quotes(md, "docs/model.md", "`max_batch` %d = floor(0.9 x (141 GiB", ds1);
    doc_quotes(md, "docs/model.md", "%d = %d x 8 with `--kv-split batch`", step_max_batch(a), ds1);
    /* review29 L3: the step example (its rows a hybrid of two builds'),
     * every row regenerated from its quoted command; the README's B = 1 and
     * 256 rows; the --ideal sentence's four steps */
    static const char ex[] = "step --model llama3-70b --hw h100-sxm --chips 8 --batch 1,16,64,256 "
                             "--context 4096 --weights fp8 --compute fp8";
    char *rd = doc_words(RL_SRCDIR "/README.md");
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --format json", ex);
    j = run_json_noted(cmd, "8 chips without a plan run each batch on its own plan");
    const cJSON *er;
    cJSON_ArrayForEach(er, cJSON_GetObjectItem(j, "rows"))
    {
        char row[512]; /* each row's plan (fixUE #1: tp8, then tp4 x2 from batch 64) */
        snprintf(row, sizeof row, "generate %s %.0f %.4g %.4g ... %.4g %.4g %.4g %.4g %.4g %.4g %.4g %.4g ...",
                 cJSON_GetStringValue(cJSON_GetObjectItem(er, "strategy")),
                 num(er, "batch"), 1e-9 * num(er, "weight_bytes_per_chip"),
                 1e-9 * num(er, "kv_bytes_per_chip"), 1e3 * num(er, "weight_load_s"),
                 1e3 * num(er, "kv_load_s"), 1e3 * num(er, "compute_s"),
                 1e3 * num(er, "attention_compute_s"), 1e3 * num(er, "comm_s"),
                 1e3 * num(er, "kernel_excess_s"), 1e3 * num(er, "step_s"),
                 num(er, "tokens_per_s_per_chip"));
        doc_quotes(md, "docs/model.md", "%s", row);
        if (num(er, "batch") == 1 || num(er, "batch") == 256)
            doc_quotes(rd, "README.md", "%s", row);
    }
    cJSON_Delete(j);
    free(rd);
    snprintf(cmd, sizeof cmd, "%s --ideal --format json", ex);
    j = json2(cmd, "");
    const cJSON *ir = cJSON_GetObjectItem(j, "rows");
    doc_quotes(md, "docs/model.md", "without communication: %.4g, %.4g, %.4g, %.4g ms.",
               1e3 * num(cJSON_GetArrayItem(ir, 0), "step_s"),
               1e3 * num(cJSON_GetArrayItem(ir, 1), "step_s"),
               1e3 * num(cJSON_GetArrayItem(ir, 2), "step_s"),
               1e3 * num(cJSON_GetArrayItem(ir, 3), "step_s"));
    cJSON_Delete(j);
    /* fixGI (README tester #2): the plan paragraph's B = 256 weight reads
     * (2.5938/2.5935 quoted, 2.6335/2.6328 printed) and the pipeline
     * example (kv_load 3.205, compute 0.5704, step 23.314 quoted; 3.424,
     * 0.6093, 21.878 printed): exact, to the digits the doc prints */
    static const char b256[] = "step --model llama3-70b --hw h100-sxm --chips 8 --batch 256 "
                               "--context 8000 --weights fp8 --compute fp8 --format json";
    double wl[2];
    for (int k = 0; k < 2; k++) {
        snprintf(cmd, sizeof cmd, "%s%s", b256, k ? " --ideal" : " --ideal --tp 8");
        j = json2(cmd, "");
        wl[k] = 1e3 * num(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0), "weight_load_s");
        cJSON_Delete(j);
    }
    doc_quotes(md, "docs/model.md", "`weight_load_ms` %.5g against %.5g (the plan keeps", wl[0], wl[1]);
    static const char pp4[] = "step --model llama3-70b --hw h100-sxm --weights fp8 --compute fp8 "
                              "--context 4096 --format json ";
    double pr[2][3];
    for (int k = 0; k < 2; k++) {
        snprintf(cmd, sizeof cmd, "%s%s", pp4, k ? "--tp 2 --chips 2 --batch 16" :
                                                   "--tp 2 --pp 4 --chips 8 --batch 64");
        j = json2(cmd, "");
        const cJSON *r = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0);
        pr[k][0] = 1e3 * num(r, "kv_load_s");
        pr[k][1] = 1e3 * num(r, "compute_s");
        pr[k][2] = 1e3 * num(r, "step_s");
        cJSON_Delete(j);
    }
    doc_quotes(md, "docs/model.md", "`kv_load_ms` %.4g, `compute_ms` %.4g: the tp2 step's at B = 16 "
               "on 2 chips (%.4g, %.4g) times the pass's stage factor, %.4g", pr[0][0], pr[0][1],
               pr[1][0], pr[1][1], pr[0][0] / pr[1][0]);
    doc_quotes(md, "docs/model.md", "So the calibrated step, %.5g ms, is the tp2 step at B = 16 on 2 "
               "chips (%.5g ms:", pr[0][2], pr[1][2]);
    /* and the Mixtral ops transcript's note (68.5% quoted, 68.7% printed) */
    j = json2("ops --model mixtral-8x7b --hw h100-sxm --chips 8 --tp 8 --batch 64 --context 4096 "
              "--format json", "");
    doc_quotes(md, "docs/model.md", "roofline ops: note: %.1f%% of the step time is not timed",
               100 * (1 - num(j, "table_time_share")));
    cJSON_Delete(j);
    /* the attention-counted-once paragraph: its command's B = 2048 row */
    /* its routed experts timed from the GEMM table (trtllm measures no MoE of its shape) */
    j = run_json_noted("step --model deepseek-v3 --hw h100-sxm --chips 8 --tp 8 --kv-split batch "
                       "--batch 300,2048 --context 32000 --set model.max_context=200000 --format "
                       "json", "measure no MoE kernel of deepseek-v3's expert shape");
    const cJSON *b2k = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 1);
    double w = 1e3 * num(b2k, "weight_load_s"), kv = 1e3 * num(b2k, "kv_load_s");
    doc_quotes(md, "docs/model.md", "`kv_load_s` %.1f ms, `weight_load_s` %.2f ms", kv, w);
    doc_quotes(md, "docs/model.md", "`kernel_excess_s` -10.0 -> %+.1f ms of a %.1f ms step",
               1e3 * num(b2k, "kernel_excess_s"), 1e3 * num(b2k, "step_s"));
    doc_quotes(md, "docs/model.md", "`compute_s` 159.7 -> %.2f ms", 1e3 * num(b2k, "compute_s"));
    cJSON_Delete(j);
    /* the kept-bf16 paragraph's llama3-8b figure (tester31 F16: 8.086 quoted,
     * 8.116 printed) */
    j = run_json("step --model llama3-8b --hw h100-sxm --batch 1 --context 100 --weights fp8 "
                 "--compute fp8 --ideal --format json");
    doc_quotes(md, "docs/model.md", "llama3-8b decode fp8/fp8 `compute_s` 7.584 -> %.3f us a token",
               1e6 * num(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0), "compute_s"));
    cJSON_Delete(j);
    free(md);
    /* serving.md: a windowed model's sequences, step's max_batch */
    char *sv = doc_words(RL_SRCDIR "/docs/serving.md");
    doc_quotes(sv, "docs/serving.md", "32,100 tokens: %d sequences",
               step_max_batch("--model mistral-7b --hw h100-sxm --batch 1 --context 32100"));
    /* "Replica layouts": DeepSeek-V3's KV pool per replica under tp and attn-dp */
    double pool[2];
    for (int k = 0; k < 2; k++) {
        snprintf(a, sizeof a, "simulate --model deepseek-v3 --hw h200 --chips 8 --weights fp8 "
                 "--kv fp8 --compute fp8 --attn-layout %s --qps 1 --prompt-len 100 --out-len 10 "
                 "--requests 5 --format json", k ? "attn-dp" : "tp");
        j = run_json_noted(a, "only 5 requests");
        pool[k] = num(j, "kv_capacity_tokens_per_replica");
        cJSON_Delete(j);
    }
    doc_quotes(sv, "docs/serving.md", "holds %.2f M tokens per replica this way", pool[0] / 1e6);
    doc_quotes(sv, "docs/serving.md", "`kv_capacity_tokens_per_replica` %.0f; %.0f with "
               "`--attn-layout attn-dp`", pool[0], pool[1]);
    doc_quotes(sv, "docs/serving.md", "not the %.1f M a split would", 8 * pool[0] / 1e6);
    doc_quotes(sv, "docs/serving.md", "in fp8: %.2f M tokens per replica", pool[1] / 1e6);
    free(sv);
}

/* fixGI (README tester #3): prefill --help listed ops's --phase row
 * ("decode|prefill|mixed", which prefill then ignores) and --chips' "--batch
 * split over the replicas", a flag prefill refuses.  Its help now says what
 * it does: --phase ignored (the note it prints), --chips without a --batch
 * of prefill's; ops keeps its own --phase row. */
static void prefill_help_matches_behaviour(void **state)
{
    (void)state;
    assert_int_equal(run_cli("prefill --help", out, sizeof out), 0);
    assert_null(strstr(out, "decode|prefill|mixed"));
    assert_null(strstr(out, "--batch split over"));
    assert_non_null(strstr(out, "--phase P "));
    assert_non_null(strstr(out, "ignored (a note says so)"));
    assert_int_equal(run_cli("prefill --model llama3-8b --hw h100-sxm --tokens 100 --batch 4", out,
                             sizeof out), 2); /* the flag the old text offered */
    assert_int_equal(run_cli("prefill --model llama3-8b --hw h100-sxm --tokens 100 --phase decode "
                             "--format json", out, sizeof out), 0);
    assert_non_null(strstr(out, "note: --phase is for `roofline ops`; ignored"));
    assert_int_equal(run_cli("ops --help", out, sizeof out), 0);
    assert_non_null(strstr(out, "--phase decode|prefill|mixed"));
}

/* tester64 #6: docs/validation.md quotes the Llama-2-70B TP8 decode step
 * at context 2048, batch 1 / 16 / 64, on the SplitwiseSim-fitted profiles
 * and the kernel-table ones (`step --model llama2-70b --chips 8 --batch
 * 1,16,64 --context 2048`); it read 9.0 / 10.5 / 15.1 and 15.4 / 18.1 /
 * 27.5 ms after the tables moved them to 8.97 / 10.48 / 15.32 and 15.39 /
 * 18.12 / 27.83.  Each figure as the doc prints it (%.2f ms: exact to the
 * printed digit) and the ratio ranges (%.1f of min / max). */
static void docs_quote_splitwise_gap(void **state)
{
    (void)state;
    char *md = doc_words(RL_SRCDIR "/docs/validation.md");
    const char *hw[4] = {"h100-sxm-splitwise", "h100-sxm", "a100-sxm-80g-splitwise", "a100-sxm-80g"};
    double ms[4][3];
    for (int i = 0; i < 4; i++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "step --model llama2-70b --hw %s --chips 8 --batch 1,16,64 "
                 "--context 2048 --format json", hw[i]);
        int rc = run_cli(cmd, out, sizeof out);
        const char *js = strchr(out, '{');
        cJSON *j = rc == 0 && js ? cJSON_Parse(js) : NULL;
        if (!j)
            fail_msg("roofline %s: exit %d, no JSON: %.600s", cmd, rc, out);
        const cJSON *rows = cJSON_GetObjectItem(j, "rows");
        assert_int_equal(cJSON_GetArraySize(rows), 3);
        for (int b = 0; b < 3; b++)
            ms[i][b] = 1e3 * num(cJSON_GetArrayItem(rows, b), "step_s");
        cJSON_Delete(j);
    }
    double lo[2] = {1e9, 1e9}, hi[2] = {0, 0};
    for (int k = 0; k < 2; k++)
        for (int b = 0; b < 3; b++) {
            double r = ms[2 * k][b] / ms[2 * k + 1][b];
            lo[k] = fmin(lo[k], r);
            hi[k] = fmax(hi[k], r);
        }
    doc_quotes(md, "docs/validation.md", "1 / 16 / 64 reads %.2f / %.2f / %.2f ms on "
               "h100-sxm-splitwise against %.2f / %.2f / %.2f ms on h100-sxm (%.1f-%.1fx), %.2f / "
               "%.2f / %.2f against %.2f / %.2f / %.2f ms on the A100 pair (%.1f-%.1fx;",
               ms[0][0], ms[0][1], ms[0][2], ms[1][0], ms[1][1], ms[1][2], lo[0], hi[0],
               ms[2][0], ms[2][1], ms[2][2], ms[3][0], ms[3][1], ms[3][2], lo[1], hi[1]);
    free(md);
}

/* fixGI: docs/serving.md's simulate transcript had drifted (ttft_p99 1176
 * quoted, 1236 printed; kv_peak_frac 0.1003, 0.09178): its nine keys
 * rerun from its own command, to the digits the text format prints (%.4g) */
static void docs_quote_simulate_transcript(void **state)
{
    (void)state;
    char *sv = doc_words(RL_SRCDIR "/docs/serving.md");
    cJSON *j = json2("simulate --model llama3-70b --hw h100-sxm --chips 8 --qps 5 --prompt-len "
                     "lognormal:2000:0.8 --out-len lognormal:300:0.8 --requests 5000 --policy "
                     "chunked --ttft-p99 1 --tpot-p99 0.05 --format json", "");
    doc_quotes(sv, "docs/serving.md", "ttft_p50_ms %.4g ttft_p99_ms %.4g tpot_p50_ms %.4g "
               "tpot_p99_ms %.4g req_per_s %.4g out_tokens_per_s_per_chip %.4g goodput_req_per_s "
               "%.4g mean_decode_batch %.4g kv_peak_frac %.4g", 1e3 * num(j, "ttft_p50_s"),
               1e3 * num(j, "ttft_p99_s"), 1e3 * num(j, "tpot_p50_s"), 1e3 * num(j, "tpot_p99_s"),
               num(j, "req_per_s"), num(j, "out_tokens_per_s_per_chip"),
               num(j, "goodput_req_per_s"), num(j, "mean_decode_batch"), num(j, "kv_peak_frac"));
    cJSON_Delete(j);
    free(sv);
}

/* The issue's "done when": ops explains a decode step of LLaMA-3-70B on
 * H100 SXM and a prefill of DeepSeek-V3 on H200 operator by operator; every
 * row carries the contract keys.  LLaMA-3-70B decode B = 16, S = 4096 on 8
 * chips: the step reads 16*4096*80*2*8*128*2 = 21,474,836,480 KV bytes; the
 * MLP matmuls are memory-bound below B_crit = 9.89e14/3.35e12 = 295. */
static void ops_json(void **state)
{
    (void)state;
    static const char *keys[] = {"op",       "kind",      "layers",    "tokens", "flops",
                                 "weight_bytes", "act_bytes", "kv_bytes", "intensity", "bound",
                                 "b_crit",   "time_s",    "total_s",   "share"};
    cJSON *j = run_json("ops --model llama3-70b --hw h100-sxm --tp 8 --phase decode --batch 16 "
                        "--context 4096 --format json");
    assert_true(num(j, "kv_read_bytes") == 21474836480.0);
    const cJSON *rows = cJSON_GetObjectItem(j, "rows");
    for (const cJSON *r = rows->child; r; r = r->next)
        for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
            if (!cJSON_GetObjectItem(r, keys[k]))
                fail_msg("row lacks '%s'", keys[k]);
    const cJSON *r = rows->child;
    while (r && strcmp(cJSON_GetObjectItem(r, "op")->valuestring, "mlp_up") != 0)
        r = r->next;
    assert_non_null(r);
    assert_string_equal(cJSON_GetObjectItem(r, "bound")->valuestring, "memory");
    assert_rel(num(r, "b_crit"), 9.89e14 / 3.35e12, 1e-9);
    cJSON_Delete(j);
    j = run_json_noted("ops --model deepseek-v3 --hw h200 --tp 8 --phase prefill --tokens 4096 "
                       "--weights fp8 --compute fp8 --format json",
                       "measure no MoE kernel of deepseek-v3's expert shape");
    assert_true(cJSON_GetArraySize(cJSON_GetObjectItem(j, "rows")) > 20);
    assert_true(num(j, "achieved_mfu") > 0 && num(j, "achieved_mfu") <= 1);
    cJSON_Delete(j);
    /* review41 F2: int8 weights on h100-sxm trtllm have no int8_wo GEMM
     * table; mixtral's experts (no MoE table of their shape) are timed from
     * fp8's at decode batch 1 (memory-bound) and corrected by fp8's
     * moe_from_gemm fit (h100-sxm-trtllm.lua: ln_ratio exp x0.90 to x2.10;
     * x0.72 to x2.10 before stop 41 made the fits non-decreasing, issue 12),
     * so the note names fp8 and its fit, not the uncorrected 1.45x story */
    assert_int_equal(run_cli("ops --model mixtral-8x7b --hw h100-sxm --chips 8 --batch 1 --context "
                             "2048 --weights int8", out, sizeof out), 0);
    /* one dtype spelling, the flags', table keys in parentheses (review:
     * "bf16 compute: fp8's ..., bfloat16's when compute-bound") */
    assert_non_null(strstr(out, "(no int8 weights x bf16 compute GEMM table (key int8_wo): the fp8 "
                                "table when memory-bound, the bf16 table (key bfloat16) when "
                                "compute-bound)"));
    assert_null(strstr(out, "bfloat16's"));
    assert_non_null(strstr(out, "then x0.90 to x2.10 by rows per expert"));
    assert_null(strstr(out, "1.45x slower"));
    /* tester53 F2: mxfp4 and fp4 weights over bf16 compute map to no GEMM
     * table key (engines.h DTYPE_MAP); the note named it "?" */
    static const char *const noKey[] = {"mxfp4", "fp4"};
    for (int w = 0; w < 2; w++) {
        char cmd[256], want[96];
        snprintf(cmd, sizeof cmd, "step --model mixtral-8x7b --hw b200 --chips 8 --batch 8 "
                 "--context 4096 --weights %s", noKey[w]);
        snprintf(want, sizeof want, "(no GEMM table key for %s weights x bf16 compute: ", noKey[w]);
        assert_int_equal(run_cli(cmd, out, sizeof out), 0);
        assert_non_null(strstr(out, want));
        assert_null(strstr(out, "no ? GEMM"));
        assert_null(strstr(out, "bfloat16's"));
    }
    assert_int_equal(run_cli("ops --model llama3-8b --hw h100-sxm --phase prefill", out, sizeof out), 2);
    assert_non_null(strstr(out, "--tokens"));
    assert_int_equal(run_cli("ops --model llama3-8b --hw h100-sxm --context 10 --phase sideways",
                             out, sizeof out),
                     2);
    assert_int_equal(run_cli("prefill --model llama3-8b --hw h100-sxm --tokens 512,2048 --chunk 512 "
                             "--mfu 0.4 --format csv",
                             out, sizeof out),
                     0);
    assert_non_null(strstr(out, "tokens,prefix,ttft_s,chunked_s,flops,achieved_mfu,tokens_per_s"));
}

/* The table share of one `cmd` (step or prefill) run on mixtral/llama3
 * json: its table_time_share and the time key of its first row into *t. */
static double share_of_run(const char *cmd, const char *prec, const char *key, double *t)
{
    cJSON *j = json2(cmd, prec);
    assert_non_null(j);
    double share = num(j, "table_time_share");
    *t = num(cJSON_GetObjectItem(j, "rows")->child, key);
    cJSON_Delete(j);
    return share;
}

/* simulate's label share against step and ops of the same replica:
 * ops.h rl_ops_serving_share, (s_d T_d + s_p T_p) / (T_d + T_p) with
 * T_d = decode_steps x step_s at the run's time-weighted batch and mean
 * context (step --tp), T_p = prefill_steps x step_s of its mean prefill
 * step, prefill_sequences / prefill_steps prompts of the prompt's length
 * (a fixed length, no prefix cache, no chunking) (ops --phase prefill);
 * s_d, s_p their table_time_share.  Checked to 1e-9 (the same steps built
 * twice).  *sp (NULL: not wanted) gets s_p.  Returns simulate's prefill
 * part of the busy time. */
static double check_serving_share(const char *model, const char *hw, long long chips,
                                  long long prompt, const char *load, const char *prec,
                                  const char *want_mode, double *sp_out)
{
    char cmd[512], tp[64] = "";
    if (chips > 1)
        snprintf(tp, sizeof tp, " --chips %lld --tp %lld", chips, chips);
    snprintf(cmd, sizeof cmd, "simulate --model %s --hw %s --chips %lld --prompt-len %lld %s",
             model, hw, chips, prompt, load);
    cJSON *sim = json2(cmd, prec);
    assert_non_null(sim);
    long long b = llround(fmax(1, num(sim, "mean_decode_batch_time")));
    long long ctx = llround(num(sim, "mean_decode_context"));
    double steps = num(sim, "decode_steps"), psteps = num(sim, "prefill_steps");
    long long k = llround(fmax(1, num(sim, "prefill_sequences") / psteps));
    double share = num(sim, "table_time_share"), pf = num(sim, "table_time_share_prefill_frac");
    assert_string_equal(cJSON_GetObjectItem(sim, "mode")->valuestring, want_mode);
    char at[320];
    snprintf(at, sizeof at, "the run's busy time, estimated: %.0f%% prefill steps of its mean "
             "shape (%lld x %lld tokens), %.0f%% decode steps at its time-weighted batch %lld "
             "and mean context %lld", pf * 100, k, prompt, (1 - pf) * 100, b, ctx);
    assert_string_equal(cJSON_GetObjectItem(sim, "table_time_share_at")->valuestring, at);
    cJSON_Delete(sim);
    double td, tpf;
    snprintf(cmd, sizeof cmd, "step --model %s --hw %s%s --batch %lld --context %lld", model, hw,
             tp, b, ctx);
    double sd = share_of_run(cmd, prec, "step_s", &td);
    snprintf(cmd, sizeof cmd, "ops --model %s --hw %s%s --phase prefill --batch %lld --tokens "
             "%lld", model, hw, tp, k, prompt);
    cJSON *o = json2(cmd, prec);
    double sp = num(o, "table_time_share");
    tpf = num(o, "step_s");
    cJSON_Delete(o);
    double busy_d = steps * td, busy_p = psteps * tpf;
    assert_rel(pf, busy_p / (busy_p + busy_d), 1e-9);
    assert_rel(share, (sd * busy_d + sp * busy_p) / (busy_p + busy_d), 1e-9);
    if (sp_out)
        *sp_out = sp;
    return pf;
}

/* Tester7 #3: simulate labelled mixtral-8x7b on 8 H100 (int8 weights,
 * bf16 KV and compute, 20 req/s of 2048 + 256 tokens) calibrated while
 * step and prefill of the same deployment read estimated: the share was
 * taken at 256 sequences at the KV pool's context (~15.8k tokens, an
 * attention-heavy step the run never ran).  Tester13 #5: llama3-70b on 8
 * B200 (fp8) at 2 req/s of 4000-token prompts and 2-token outputs, about
 * 92% prefill by busy time, read the decode step's share (0.883,
 * calibrated) where prefill of that prompt reads 0.490, estimated.  Now
 * both are weighted over the run's busy time (check_serving_share): the
 * mixtral run reads estimated (both phases below spec.h's
 * RL_TABLE_SHARE_MIN); the b200 run 0.523, just above it: calibrated,
 * since 52% of its estimated time is table-timed. */
static void simulate_label_at_its_steps(void **state)
{
    (void)state;
    check_serving_share("mixtral-8x7b", "h100-sxm", 8, 2048, "--qps 20 --out-len 256 --requests 300", " --weights int8 --kv bf16 --compute bf16 --format json",
                        "estimated", NULL);
    /* estimated since tester44 F5: fp8 GEMMs take the faster block-scaled
     * rows, so the table-timed share of the run fell from 0.523 to 0.457,
     * under spec.h's RL_TABLE_SHARE_MIN 0.5 (the 4000-token prefill's
     * attention is outside the tables) */
    double pf = check_serving_share("llama3-70b", "b200", 8, 4000, "--qps 2 --out-len 2 --requests 500", " --weights fp8 --compute fp8 --format json",
                                    "estimated", NULL);
    assert_true(pf > 0.9); /* 500 x 87.5 ms of prefill, 493 x 8.1 ms of decode: 0.916 */
}

/* h31audit finding 7: a static batch of 1024 prompts of 128 tokens
 * (llama2-70b, one h200, fp8; offline: all at t = 0) runs one prefill step
 * of 1024 x 128 tokens, which ops times at table_time_share 0.027
 * (estimated: a 131k-token GEMM outside every table), and 127 decode steps
 * at batch 1024.  simulate took the share of one 128-token prefill, 0.977
 * for the whole run, calibrated; now the prefill step it ran (48% of the
 * busy time, check_serving_share), 0.514 in all: still calibrated (above
 * spec.h's 0.5: 52% of the time is decode, table-timed), but no longer
 * calling the prefill table-timed.  Expected: s_p < 0.05 (0.0267 at
 * 0.30.0's tables), the run's share < 0.6 (0.514), checked to 1e-9
 * against step and ops. */
static void simulate_share_at_its_batched_prefill(void **state)
{
    (void)state;
    double sp;
    double pf = check_serving_share("llama2-70b", "h200", 1, 128, "--offline --requests 1024 "
                                    "--out-len 128 --policy static --max-seqs 1024",
                                    " --weights fp8 --kv fp8 --compute fp8 --format json",
                                    "calibrated", &sp);
    assert_true(sp < 0.05);
    assert_true(pf > 0.4 && pf < 0.6); /* 15.08 s of prefill, 127 x 0.127 s of decode: 0.483 */
    cJSON *j = json2("simulate --model llama2-70b --hw h200 --prompt-len 128 --offline --requests "
                     "1024 --out-len 128 --policy static --max-seqs 1024",
                     " --weights fp8 --kv fp8 --compute fp8 --format json");
    assert_true(num(j, "table_time_share") < 0.6); /* 0.977 before */
    assert_true(num(j, "prefill_steps") == 1);
    assert_true(num(j, "prefill_sequences") == 1024);
    cJSON_Delete(j);
}

/* simulate --offline: every request at t = 0 (MLPerf Offline, trtllm-bench's
 * throughput mode): 100 prompts under static batching with 100 slots are one
 * batch, 1 prefill + 127 decode steps for 128-token outputs; the result says
 * offline and gives no arrival rate. */
static void simulate_offline(void **state)
{
    (void)state;
    cJSON *j = run_json("simulate --model llama3-8b --hw h100-sxm --offline --prompt-len 128 "
                        "--out-len 128 --requests 100 --policy static --max-seqs 100 --format json");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "offline")));
    assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(j, "qps")));
    assert_true(num(j, "steps") == 128);
    assert_true(num(j, "mean_decode_batch") == 100);
    assert_rel(num(j, "req_per_s"), 100 / num(j, "duration_s"), 1e-12);
    cJSON_Delete(j);
}

/* fixWD finding 1: an engine counts a step's decode tokens against its
 * token budget (vLLM V1 max_num_batched_tokens, TensorRT-LLM
 * max_num_tokens; serve.c admit_batched), so continuous batching stops
 * admitting once the decode batch fills --max-tokens, as chunked does.
 * 3000 one-token prompts at t = 0, 16 tokens out, --max-tokens 256 and
 * max_seqs far above it: the mean decode batch is at most 256 (exact,
 * the budget; measured 250 under both policies).  Failed before: 1731
 * under continuous. */
static void continuous_decode_within_max_tokens(void **state)
{
    (void)state;
    static const char *const POL[] = {"continuous", "chunked"};
    for (int i = 0; i < 2; i++) {
        char args[512];
        snprintf(args, sizeof args,
                 "simulate --model llama3-8b --hw h100-sxm --offline --prompt-len 1 --out-len 16 "
                 "--requests 3000 --max-seqs 30000 --max-tokens 256 --no-capacity --policy %s "
                 "--format json", POL[i]);
        cJSON *j = run_json(args);
        if (!(num(j, "mean_decode_batch") <= 256))
            fail_msg("%s: mean_decode_batch %g > --max-tokens 256", POL[i],
                     num(j, "mean_decode_batch"));
        cJSON_Delete(j);
    }
}

/* fixWD finding 1b: step --batch 400000 --context 1 on llama3-8b (one
 * h100-sxm, trtllm's 8192-token budget) read fits true, no note; now the
 * token_budget_note on stderr and fits false (test_memory
 * step_workspace_at_its_tokens derives the bytes).  Failed before: no
 * note, fits true. */
static void step_above_token_budget_noted(void **state)
{
    (void)state;
    assert_int_equal(run_cli("step --model llama3-8b --hw h100-sxm --batch 400000 --context 1",
                             out, sizeof out), 0);
    if (!strstr(out, "note: batch 400000 is above trtllm's default per-step token budget of "
                     "8192 tokens") ||
        !strstr(out, "does not fit at batch 400000"))
        fail_msg("want the budget and fit notes: %s", out);
}

/* fixXE: one fit rule for a decode step's workspace whichever path asks.
 * llama3-8b bf16 on one h100-sxm (trtllm) at context 1, batch 400000:
 * step's one copy, step --tp 1 (a plan) and shard --chips 1 (its tp1
 * generate row) each read fits false and max_batch 312534, the largest B
 * whose weights and B x 131,072 KV bytes fit beside the workspace at B
 * tokens (test_memory step_workspace_at_its_tokens derives it: exact,
 * integers), and each header the token_budget_note; step --tp 1 --batch
 * 312534,312535 fits the first and not the second (the bisection's
 * boundary, both sides).  Failed before: the plan paths read fits true and
 * max_batch 475167 (the workspace at trtllm's 8192 tokens), no note. */
static void workspace_fit_one_rule(void **state)
{
    (void)state;
    static const char *const CMD[3] = {
        "step --model llama3-8b --hw h100-sxm --batch 400000 --context 1 --format json",
        "step --model llama3-8b --hw h100-sxm --tp 1 --batch 400000 --context 1 --format json",
        "shard --model llama3-8b --hw h100-sxm --chips 1 --batch 400000 --context 1 --format json"};
    for (int i = 0; i < 3; i++) {
        cJSON *j = run_json(CMD[i]), *row, *gen = NULL;
        cJSON_ArrayForEach(row, cJSON_GetObjectItem(j, "rows"))
            if (!gen && !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(row, "phase")),
                                "generate"))
                gen = row;
        const char *note = cJSON_GetStringValue(cJSON_GetObjectItem(j, "token_budget_note"));
        if (!gen || !cJSON_IsFalse(cJSON_GetObjectItem(gen, "fits")) ||
            num(gen, "max_batch") != 312534 || !note ||
            !strstr(note, "batch 400000 is above trtllm's default per-step token budget"))
            fail_msg("%s: fits %d, max_batch %g, note %s", CMD[i],
                     gen ? cJSON_IsTrue(cJSON_GetObjectItem(gen, "fits")) : -1,
                     gen ? num(gen, "max_batch") : -1, note ? note : "(null)");
        cJSON_Delete(j);
    }
    cJSON *j = run_json("step --model llama3-8b --hw h100-sxm --tp 1 --batch 312534,312535 "
                        "--context 1 --format json");
    const cJSON *rows = cJSON_GetObjectItem(j, "rows");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetArrayItem(rows, 0), "fits")));
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetArrayItem(rows, 1), "fits")));
    assert_true(num(j, "max_batch") == 312534);
    cJSON_Delete(j);
    /* step --chips 2's rows run two plans (tp2 at 100, tp1 x2 at 400000:
     * 200,000 tokens a replica's step); the header is the first's, and
     * the note the second's (stepplan.c via result.h rl_result_plans_note;
     * null before) */
    j = run_json("step --model llama3-8b --hw h100-sxm --chips 2 --batch 100,400000 --context 1 "
                 "--format json");
    const char *note = cJSON_GetStringValue(cJSON_GetObjectItem(j, "token_budget_note"));
    if (!note || !strstr(note, "under tp1 x2 a step batches a replica's micro-batch, 200000"))
        fail_msg("step --chips 2: token_budget_note %s", note ? note : "(null)");
    cJSON_Delete(j);
}

/* fixWD finding 3: roofline.step and roofline.prefill in a scenario said
 * none of the command line's notes: llama3-70b bf16 on one h100-sxm
 * (141.1 GB of weights on 84.7 GB usable) now says "does not fit" once
 * though timed twice, a tpu-v5e prefill (no tables) that its times are
 * datasheet peaks, and a llama3-8b step of batch 400000 its token budget
 * note (its own kind: said after the fit note).  Failed before: no note. */
static void lua_step_prefill_notes(void **state)
{
    (void)state;
    assert_int_equal(run_scenario_text("for i = 1, 2 do roofline.step{model = 'llama3-70b', "
                                       "hw = 'h100-sxm', batch = 1, context = 4096} end\n"
                                       "roofline.prefill{model = 'llama3-8b', hw = 'tpu-v5e', "
                                       "tokens = 1024}\n"
                                       "roofline.step{model = 'llama3-8b', hw = 'h100-sxm', "
                                       "batch = 400000, context = 1}\n"),
                     0);
    static const char FIT[] = "roofline run: roofline.step: note: does not fit at batch 1";
    const char *at = strstr(out, FIT);
    if (!at || strstr(at + 1, FIT) ||
        !strstr(out, "roofline run: roofline.prefill: note: tpu-v5e has nothing measured") ||
        !strstr(out, "roofline run: roofline.step: note: batch 400000 is above trtllm's"))
        fail_msg("run: want one fit note, the prefill's unmeasured note and the budget "
                 "note: %s", out);
}

/* tester72 #1: --no-capacity skips the capacity search: the run's own
 * keys are those of the run with it (the band included: run before the
 * search), max_sustainable_qps, capacity_utilization and
 * max_sustainable_qps_no_slo null, capacity_searched false (true with
 * the search; 10 replicas at 50 req/s sustain a figure, so the search's
 * keys are numbers there). */
static void simulate_no_capacity(void **state)
{
    (void)state;
    const char *base = "simulate --model llama3-8b --hw h100-sxm --replicas 10 --qps 50 "
                       "--prompt-len 300 --out-len 20 --requests 600 --format json";
    char args[512];
    cJSON *a = run_json(base);
    snprintf(args, sizeof args, "%s --no-capacity", base);
    cJSON *b = run_json(args);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(a, "capacity_searched")));
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(b, "capacity_searched")));
    assert_true(num(a, "max_sustainable_qps") > 50);
    static const char *const cap[] = {"max_sustainable_qps", "capacity_utilization",
                                      "max_sustainable_qps_no_slo"};
    for (int i = 0; i < 3; i++)
        assert_true(cJSON_IsNull(cJSON_GetObjectItem(b, cap[i])));
    assert_non_null(cJSON_GetObjectItem(b, "ttft_p99_s_high")); /* the band kept */
    static const char *const differ[] = {"max_sustainable_qps", "capacity_utilization",
                                         "max_sustainable_qps_is_lower_bound",
                                         "max_sustainable_qps_from_repeated_sample",
                                         "capacity_searched"};
    for (int i = 0; i < 5; i++) {
        cJSON_DeleteItemFromObject(a, differ[i]);
        cJSON_DeleteItemFromObject(b, differ[i]);
    }
    assert_true(cJSON_Compare(a, b, 1));
    cJSON_Delete(a);
    cJSON_Delete(b);
}

/* tester72 #7: a batch below the replicas leaves replicas idle.  step
 * --tp 8 --chips 24 on llama3-70b runs tp8 x3: batch 2 leaves one idle, the row's
 * idle_replicas 1 and idle_replicas_note naming --chips 16, at 24 / 16 =
 * 1.5x the tokens/s a chip; batch 3 none (no note).  pareto --chips 16
 * --batch 1 on llama3-8b: 4 of its 12 points idle, counted, kept off the
 * frontier, where one would stand (the note says so; --batch 1,16 was
 * used until stop 45, whose XQA decode table left none of its 4 idle
 * points on the frontier, so no note: cli.c note_idle_points; --batch 1,4
 * until fixXB #1, whose point of step's plan at batch 4, tp8 on 8 of the
 * 16 chips at 1.749 ms, leaves no idle point on the frontier).  The plan
 * is given (--tp 8) since fixWB #1: without one, step --chips 24 runs
 * batch 2 on tp8 x2, no replica idle (step_chips_no_idle_replicas). */
static void idle_replicas_said(void **state)
{
    (void)state;
    cJSON *j = run_json("step --model llama3-70b --hw h100-sxm --chips 24 --tp 8 --batch 2,3 "
                        "--context 2048 --format json");
    const cJSON *rows = cJSON_GetObjectItem(j, "rows");
    assert_int_equal(num(cJSON_GetArrayItem(rows, 0), "idle_replicas"), 1);
    assert_int_equal(num(cJSON_GetArrayItem(rows, 1), "idle_replicas"), 0);
    const cJSON *note = cJSON_GetObjectItem(j, "idle_replicas_note");
    assert_true(cJSON_IsString(note));
    assert_non_null(strstr(note->valuestring, "--chips 16 (one replica a sequence)"));
    assert_non_null(strstr(note->valuestring, "1.5x"));
    cJSON_Delete(j);
    j = run_json("step --model llama3-70b --hw h100-sxm --chips 24 --tp 8 --batch 3 --context "
                 "2048 --format json");
    assert_null(cJSON_GetObjectItem(j, "idle_replicas_note"));
    cJSON_Delete(j);
    j = run_json("pareto --model llama3-8b --hw h100-sxm --chips 16 --batch 1 --format json");
    assert_int_equal(num(j, "idle_replica_points"), 4);
    const cJSON *row;
    cJSON_ArrayForEach(row, cJSON_GetObjectItem(j, "rows")) {
        const char *layout = cJSON_GetObjectItem(row, "layout")->valuestring;
        const char *x = strstr(layout, " x");
        long long reps = x ? atoll(x + 2) : 1;
        if (reps > num(row, "batch"))
            fail_msg("frontier row %s at batch %g idles", layout, num(row, "batch"));
    }
    assert_true(cJSON_IsString(cJSON_GetObjectItem(j, "idle_replicas_note")));
    cJSON_Delete(j);
}

/* tester5 #12b: the over-budget note of simulate (cli.c) names the engine
 * in use; vLLM's refusal of a budget below the longest prompt is cited
 * only under vLLM.  20 prompts of 1000 tokens, --max-tokens 512, one H100. */
static void over_budget_note_names_engine(void **state)
{
    (void)state;
    const char *cmd = "simulate --model llama3-8b --hw h100-sxm --max-tokens 512 --prompt-len 1000 "
                      "--out-len 10 --requests 20 --qps 1 --engine ";
    char args[512];
    snprintf(args, sizeof args, "%strtllm", cmd);
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "20 prompt(s) longer than --max-tokens 512"));
    assert_non_null(strstr(out, "does not chunk (engine trtllm);"));
    assert_null(strstr(out, "vLLM"));
    snprintf(args, sizeof args, "%svllm", cmd);
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "does not chunk (engine vllm: vLLM without chunked prefill"));
}

/* Tester10 #1 and #14: size across profiles of two modes, or with one
 * profile unpriced, says so on stderr in every output format (only the
 * Markdown/HTML report did); with some priced, a caution that the ranking
 * is by chips (fixRE item 5): the fixture h100-pcie-datasheet has nothing
 * measured and no price (h100-pcie was the example until stop 27, when it
 * took h100-sxm's measured tables as a what-if; tpu-v4 until every preset
 * was priced, new-user tester E). */
static void size_notes_mixed_modes(void **state)
{
    (void)state;
    static const char *const fmts[] = {"table", "csv", "json"};
    char cmd[512];
    /* RL_SAN_SMALL: the table format only (the notes and the caution go to
     * stderr whatever the format; size's CSV and JSON writers run under ASan
     * in size_notes_estimated_rows and the bad-input corpus).  The notes
     * are the profiles', whatever the load: 10 + 10 tokens at 1 req/s on
     * 100 requests, 0.8 CPU-s a search where 1000 + 200 at 5 req/s on 300
     * took 3.3-4.5 (2-core VM, stop 52) */
    for (int i = 0; i < (rl_san_small() ? 1 : 3); i++) {
        snprintf(cmd, sizeof cmd, "size --model llama3-8b --hw h100-sxm,%s/tests/data/hw/"
                 "h100-pcie-datasheet.lua --qps 1 --prompt-len 10 --out-len 10 --ttft-p99 1 "
                 "--tpot-p99 0.05 --requests 100 --format %s", RL_SRCDIR, fmts[i]);
        assert_int_equal(run_cli(cmd, out, sizeof out), 0);
        if (!strstr(out, "note: h100-pcie-datasheet has nothing measured") ||
            !strstr(out, "note: h100-pcie-datasheet has no price"))
            fail_msg("%s: %.600s", fmts[i], out);
        /* fixRE item 5: the priced row's USD beside a chips ranking, said
         * as a caution naming the unpriced and the priced (none before) */
        assert_non_null(strstr(out, "caution: the ranking fell back to chips, not dollars: "
                                    "h100-pcie-datasheet has no price, so every row is ranked by "
                                    "its chip count"));
        assert_non_null(strstr(out, "the USD figures of h100-sxm (usd_per_mtok) ranked nothing"));
        assert_non_null(strstr(out, "price_per_chip_hour = P } given in --hw"));
    }
    assert_int_equal(run_cli("size --model llama3-8b --hw h100-sxm --qps 1 --prompt-len 10 "
                             "--out-len 10 --ttft-p99 1 --tpot-p99 0.05 --requests 100",
                             out, sizeof out), 0);
    assert_null(strstr(out, "has nothing measured"));
    assert_null(strstr(out, "has no price"));
    assert_null(strstr(out, "ranking fell back"));
}

/* The sizing report says what an `estimated` row rests on (stop 27): on
 * h100-pcie, h100-sxm's kernel times moved to its figures; on tpu-v4,
 * datasheet figures with nothing measured.  Before, both read "under half
 * of a decode step's time comes from measured or interpolated kernel-table
 * times", true of neither (h100-pcie's tables time ~95% of its steps). */
/* The Markdown report of llama3-8b at 5 req/s on `hw` (with `extra`
 * flags), written under dir; the caller frees it. */
static char *size_report_of(const char *dir, const char *hw, const char *extra)
{
    char cmd[768];
    snprintf(cmd, sizeof cmd, "size --model llama3-8b --hw %s %s --qps 5 --prompt-len 1000 "
             "--out-len 200 --ttft-p99 1 --tpot-p99 0.05 --requests 300 --report %s/r.md",
             hw, extra, dir);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    return slurp_in(dir, "r.md");
}

/* tester91 #10: size --report rep.HTML was refused ("expected a FILE.md
 * (Markdown) or FILE.html name", exit 2).  The extension picks the format
 * in any case: .HTML and .htm write HTML, .MD Markdown; .txt is refused. */
static void size_report_extension_any_case(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_repcase_XXXXXX", cmd[512];
    assert_non_null(mkdtemp(dir));
    const char *base = "size --model llama3-8b --hw h100-sxm --qps 1 --prompt-len 10 --out-len 10 "
                       "--ttft-p99 1 --tpot-p99 0.05 --requests 100 --keep-precision";
    static const struct {
        const char *name, *starts;
    } ext[] = {{"r.HTML", "<!DOCTYPE html>"}, {"r.htm", "<!DOCTYPE html>"}, {"r.MD", "# "}};
    for (size_t i = 0; i < sizeof ext / sizeof *ext; i++) {
        snprintf(cmd, sizeof cmd, "%s --report %s/%s", base, dir, ext[i].name);
        if (run_cli(cmd, out, sizeof out) != 0)
            fail_msg("--report %s refused: %.400s", ext[i].name, out);
        char *text = slurp_in(dir, ext[i].name);
        if (strncmp(text, ext[i].starts, strlen(ext[i].starts)) != 0)
            fail_msg("--report %s does not begin '%s': %.80s", ext[i].name, ext[i].starts, text);
        free(text);
        snprintf(cmd, sizeof cmd, "%s/%s", dir, ext[i].name);
        unlink(cmd);
    }
    snprintf(cmd, sizeof cmd, "%s --report %s/r.txt", base, dir);
    assert_int_equal(run_cli(cmd, out, sizeof out), 2);
    assert_non_null(strstr(out, "expected a FILE.md (Markdown) or FILE.html name"));
    assert_int_equal(rmdir(dir), 0);
}

/* fixKJ A: size --report through a symbolic link to a regular file was
 * refused ("symbolic links are refused too") while --save wrote through
 * one, as the README says every output does: written through, the link
 * kept and its target the report. */
static void size_report_through_link(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_replink_XXXXXX", link[64], target[64];
    assert_non_null(mkdtemp(dir));
    snprintf(target, sizeof target, "%s/t.md", dir);
    snprintf(link, sizeof link, "%s/r.md", dir);
    FILE *f = fopen(target, "w");
    assert_non_null(f);
    fputs("old\n", f);
    fclose(f);
    assert_int_equal(symlink("t.md", link), 0);
    char *md = size_report_of(dir, "h100-sxm", "");
    assert_non_null(strstr(md, "# Deployment sizing"));
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    free(md);
    unlink(link);
    unlink(target);
    rmdir(dir);
}

/* fixNI #2: under --ideal and --engine ideal the report said "Collectives
 * on h100-sxm: measured times, AllReduce from the nccl rows" while ideal
 * mode times collectives by the alpha-beta model (comm.c: measured =
 * !h->ideal), and "(--ideal given)" for --engine ideal too.  Now the
 * alpha-beta line, and the option given named. */
static void size_report_ideal_says_alpha_beta(void **state)
{
    (void)state;
    const char *given[] = {"--ideal", "--engine ideal"};
    for (int i = 0; i < 2; i++) {
        char dir[] = "/tmp/rl_repideal_XXXXXX", want[64];
        assert_non_null(mkdtemp(dir));
        char *md = size_report_of(dir, "h100-sxm", given[i]);
        assert_non_null(strstr(md, "- Collectives on h100-sxm: the alpha-beta model"));
        assert_null(strstr(md, "Collectives on h100-sxm: measured times"));
        snprintf(want, sizeof want, "(%s given)", given[i]);
        assert_non_null(strstr(md, want));
        free(md);
        snprintf(want, sizeof want, "%s/r.md", dir);
        unlink(want);
        rmdir(dir);
    }
}

/* fixNI #3: under --conservative the frontier is taken on the high-edge
 * TPOT p99 (rl_size_frontier reads rl_size_candidate.tpot_p99, the edge
 * the row was sized against) while its table shows the central TPOT; the
 * frontier's text and the Conservative line did not say so.  A plain
 * report keeps its sentence. */
static void size_report_conservative_frontier_said(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_repcons_XXXXXX", p[64];
    assert_non_null(mkdtemp(dir));
    char *md = size_report_of(dir, "h100-sxm", "--conservative");
    assert_non_null(strstr(md, "under --conservative the frontier is taken on each row's TPOT "
                               "p99 at the band's high edge"));
    assert_non_null(strstr(md, "the sensitivity and the cost / latency frontier's order below "
                               "are at the band's high edge"));
    free(md);
    md = size_report_of(dir, "h100-sxm", "");
    assert_non_null(strstr(md, "each costs more than the row above it and streams tokens "
                               "faster."));
    free(md);
    snprintf(p, sizeof p, "%s/r.md", dir);
    unlink(p);
    rmdir(dir);
}

/* fixNI #4: in chips mode (no price) each hardware's "On <hw>" section
 * is its own pick, but only the fewest-chips row (b200 here) got the thin
 * margin caution: h100-sxm's llama3-70b pick sustains 6.00189 req/s
 * against 6 sized (5 req/s + 20% headroom), as the single-profile report
 * cautions, and 0.031% printed as "0.0%".  Expected: the caution in
 * h100-sxm's section (now at --qps 5.1 on 4000 requests: 6.341 req/s, 3.6%
 * above 6.12, where the draw's own rate labelled it 6.316, 3.2%, until
 * issue 14 labelled capacities by the rate asked for; the under-1% digits
 * are no longer exercised here, see the comment in the body), and never
 * "0.0%".  tester80 #9: the other cautions in their section too, and the
 * Alternatives one table per hardware. */
static void size_report_chips_margin_each_hw(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_repmarg_XXXXXX", cmd[768];
    assert_non_null(mkdtemp(dir));
    /* 4000 requests at 5.1 req/s (1000 at 5 until issue 14 item 5: the
     * capacity search now grows a short sample until its count in the system
     * resolves 2%, and 1000 requests' repeated sample put the 2x2 row below
     * its sized 6 req/s; on 4000 both searches read 6.316) */
    snprintf(cmd, sizeof cmd, "size --model llama3-70b --hw h100-sxm,b200 --qps 5.1 --prompt-len "
             "lognormal:2000:0.8 --out-len lognormal:300:0.8 --ttft-p99 1 --tpot-p99 0.05 "
             "--requests 4000 --set hw.price_per_chip_hour=0 --report %s/r.md", dir);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    char *md = slurp_in(dir, "r.md");
    const char *on = strstr(md, "### On h100-sxm"), *next = on ? strstr(on, "### On b200") : NULL;
    const char *c = on ? strstr(on, "Caution on the margin: it sustains 6.341 req/s, only "
                                    "3.6% above the 6.12 req/s") : NULL;
    assert_non_null(next);
    assert_non_null(c);
    assert_true(c < next);
    assert_null(strstr(md, "only 0.0% above"));
    /* tester80 #9: each hardware's cautions in its own section: h100-sxm's
     * host-cost caution (trtllm's tables, no host cost) before "On b200",
     * b200's after it and before the next section (before: one caution
     * after the last section) */
    const char *host = "Caution: the latencies behind this recommendation are a lower bound";
    const char *h1 = strstr(on, host), *h2 = strstr(next, host),
               *work = strstr(next, "## Workload and targets");
    assert_non_null(h1);
    assert_true(h1 < next);
    assert_non_null(h2);
    assert_true(work && h2 < work);
    /* and the alternatives ranked within each hardware */
    assert_non_null(strstr(md, "### Alternatives on h100-sxm\n\n| # |"));
    assert_non_null(strstr(md, "### Alternatives on b200\n\n| # |"));
    free(md);
    snprintf(cmd, sizeof cmd, "%s/r.md", dir);
    unlink(cmd);
    rmdir(dir);
}

/* fixNI #6: the JSON's prefill_dispatch_note (vLLM's prefill dispatch,
 * 32 layers x 0.8 ms = 25.6 ms on llama3-8b: AIConfigurator's constant,
 * result.c add_dispatch_note) was missing from the report that README says
 * reports it: now a Note beside the host-cost caution, the JSON's text;
 * none under the default engine (no dispatch). */
static void size_report_says_dispatch(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_repdisp_XXXXXX", p[64];
    assert_non_null(mkdtemp(dir));
    char *md = size_report_of(dir, "h100-sxm", "--engine vllm");
    assert_non_null(strstr(md, "Note: each TTFT carries the vllm engine's prefill dispatch, "
                               "25.6 ms (32 layers x 0.8 ms, prefill_dispatch_s)"));
    free(md);
    md = size_report_of(dir, "h100-sxm", "");
    assert_null(strstr(md, "prefill dispatch"));
    free(md);
    snprintf(p, sizeof p, "%s/r.md", dir);
    unlink(p);
    rmdir(dir);
}

/* fixNI #7: the no-price note advised { base = "h200free", ... } for a
 * file h200free.lua holding { base = "h200", price_per_chip_hour = 0 }:
 * no profile h200free loads, so the advice failed.  Now the file's path
 * (a base may be a path), and a file made by that advice costs in USD;
 * a shipped profile keeps its name (h200). */
static void size_price_advice_loads(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_freeadv_XXXXXX", f0[64], f1[64], cmd[768], want[160];
    assert_non_null(mkdtemp(dir));
    snprintf(f0, sizeof f0, "%s/h200free.lua", dir);
    snprintf(f1, sizeof f1, "%s/priced.lua", dir);
    FILE *f = fopen(f0, "w");
    assert_non_null(f);
    fputs("return { base = \"h200\", price_per_chip_hour = 0 }\n", f);
    fclose(f);
    const char *base = "size --model llama3-8b --qps 5 --prompt-len 1000 --out-len 200 "
                       "--ttft-p99 1 --tpot-p99 0.05 --requests 100";
    snprintf(cmd, sizeof cmd, "%s --hw %s", base, f0);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    snprintf(want, sizeof want, "{ base = \"%s\", price_per_chip_hour = P }", f0);
    assert_non_null(strstr(out, want));
    f = fopen(f1, "w");
    assert_non_null(f);
    fprintf(f, "return { base = \"%s\", price_per_chip_hour = 3 }\n", f0);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s --hw %s --format json", base, f1);
    cJSON *j = run_json(cmd);
    assert_string_equal(cJSON_GetObjectItem(j, "cost_unit")->valuestring, "usd_per_hour");
    cJSON_Delete(j);
    snprintf(cmd, sizeof cmd, "%s --hw h200 --set hw.price_per_chip_hour=0", base);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, "{ base = \"h200\", price_per_chip_hour = P }"));
    unlink(f0);
    unlink(f1);
    rmdir(dir);
}

/* fixKK 1, 2: a figure's side file that is a symbolic link (to an
 * existing file) was found by plot.c after the run, exit 1, with
 * latency_cdf's three files written and --save's not; a dangling link as
 * --plot-dir passed ("will be made") and failed after the run.  Expected:
 * exit 2 before the run naming the file, and nothing written (the folder
 * holds only the link, the link's target untouched). */
static void figure_links_refused_before_the_run(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_figlink_XXXXXX", p[128], q[128], cmd[1024];
    assert_non_null(mkdtemp(dir));
    static const char *const sub[] = {"pd", "pp", "tgt"};
    for (int i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, sub[i]);
        assert_int_equal(mkdir(p, 0700), 0);
    }
    put_files(dir, (const char *[]){"tgt/d"}, (const char *[]){"kept\n"}, 1);
    snprintf(p, sizeof p, "%s/tgt/d", dir);
    snprintf(q, sizeof q, "%s/pd/kv_occupancy.dat", dir);
    assert_int_equal(symlink(p, q), 0);
    snprintf(q, sizeof q, "%s/pp/f.gp", dir);
    assert_int_equal(symlink(p, q), 0);
    snprintf(q, sizeof q, "%s/pdlink", dir);
    assert_int_equal(symlink("/nonexistent/rl_figlink_dir", q), 0);
    const char *sim = "simulate --model llama3-8b --hw h100-sxm --qps 10 --prompt-len 512 "
                      "--out-len 128 --requests 200 --no-capacity";
    snprintf(cmd, sizeof cmd, "%s %s --plot-dir %s/pd --save %s/pd/res.txt", RL_BIN, sim, dir, dir);
    expect_refused_in(RL_SRCDIR, cmd, "kv_occupancy.dat: is a symbolic link");
    snprintf(cmd, sizeof cmd, "%s pareto --model llama3-8b --hw h100-sxm --chips 8 --batch 1,16 "
             "--plot %s/pp/f.svg --save %s/pp/res.json", RL_BIN, dir, dir);
    expect_refused_in(RL_SRCDIR, cmd, "f.gp: is a symbolic link");
    snprintf(cmd, sizeof cmd, "%s %s --plot-dir %s/pdlink", RL_BIN, sim, dir);
    expect_refused_in(RL_SRCDIR, cmd, "a symbolic link whose target does not exist");
    snprintf(cmd, sizeof cmd, "%s %s --plot-dir %s/pdlink/sub", RL_BIN, sim, dir);
    expect_refused_in(RL_SRCDIR, cmd, "pdlink' is a symbolic link whose target does not exist");
    snprintf(cmd, sizeof cmd, "test \"$(ls %s/pd)\" = kv_occupancy.dat && test \"$(ls %s/pp)\" "
             "= f.gp", dir, dir);
    assert_int_equal(system(cmd), 0);
    assert_file_equal(dir, "tgt/d", "kept\n");
    assert_int_equal(remove_tree(dir), 0);
}

/* fixKK 3: --save through a link to a mode-0444 file replaced the target
 * with a 0644 one.  Expected: a replaced file keeps its permission bits,
 * through a link (0444) or named directly (0600); a new one is 0644 less
 * the umask (README, the outputs paragraph). */
static void replaced_file_keeps_its_mode(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_keepmode_XXXXXX", p[128], cmd[1024];
    assert_non_null(mkdtemp(dir));
    static const char *const name[] = {"t.json", "plain.txt"};
    static const mode_t mode[] = {0444, 0600};
    put_files(dir, name, (const char *[]){"{}\n", "{}\n"}, 2);
    for (int i = 0; i < 2; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, name[i]);
        assert_int_equal(chmod(p, mode[i]), 0);
    }
    snprintf(p, sizeof p, "%s/link.json", dir);
    assert_int_equal(symlink("t.json", p), 0);
    static const char *const save[] = {"link.json", "plain.txt", "new.txt"};
    const mode_t um = umask(022);
    umask(um);
    const mode_t want[] = {0444, 0600, 0644 & ~um};
    for (int i = 0; i < 3; i++) {
        snprintf(cmd, sizeof cmd, "step --model llama3-8b --hw h100-sxm --batch 1 --context 512 "
                 "--save %s/%s", dir, save[i]);
        assert_int_equal(run_cli(cmd, out, sizeof out), 0);
        snprintf(p, sizeof p, "%s/%s", dir, i == 0 ? "t.json" : save[i]);
        struct stat st;
        assert_int_equal(stat(p, &st), 0);
        assert_true(st.st_size > 100); /* the result, not the old "{}" */
        if ((st.st_mode & 0777) != want[i])
            fail_msg("%s: mode %o, expected %o", save[i], st.st_mode & 0777, want[i]);
    }
    struct stat st;
    snprintf(p, sizeof p, "%s/link.json", dir);
    assert_int_equal(lstat(p, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(remove_tree(dir), 0);
}

/* fixKJ B: the Recommendation section's host-cost caution names the
 * engines of the profiles it recommends only: llama3-8b at 5 req/s over
 * h100-sxm and tpu-v5e recommends 1 x tpu-v5e (engine none, nothing
 * measured: its mode's caution says so), which was said to lack "the
 * trtllm engine"'s per-step host cost, h100-sxm's; on h100-sxm alone that
 * caution stays. */
static void size_report_caution_of_recommended(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_repcau_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *md = size_report_of(dir, "h100-sxm,tpu-v5e", "");
    const char *rec = strstr(md, "## Recommendation"), *end = rec ? strstr(rec + 3, "\n## ") : NULL;
    assert_non_null(end);
    char *sec = strndup(rec, (size_t)(end - rec));
    assert_non_null(strstr(sec, "Deploy 1 x tpu-v5e"));
    assert_null(strstr(sec, "trtllm"));
    free(sec);
    free(md);
    md = size_report_of(dir, "h100-sxm", "");
    rec = strstr(md, "## Recommendation");
    assert_non_null(rec);
    assert_non_null(strstr(rec, "no per-step host cost of the trtllm engine"));
    free(md);
    char p[64];
    snprintf(p, sizeof p, "%s/r.md", dir);
    unlink(p);
    rmdir(dir);
}

/* fixKJ C: simulate --offline has no offered rate, so no capacity search:
 * it read capacity_searched true beside null capacity figures, with no
 * note; now false, the figures null, and a note saying why. */
static void simulate_offline_not_searched(void **state)
{
    (void)state;
    cJSON *j = run_json_noted("simulate --model llama3-8b --hw h100-sxm --offline --requests 50 "
                              "--prompt-len 200 --out-len 20 --format json",
                              "note: no capacity search (--offline: every request arrives at t = 0");
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(j, "capacity_searched")));
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "max_sustainable_qps")));
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "max_sustainable_qps_no_slo")));
    cJSON_Delete(j);
}

/* tester52 F9: size rows of mixed modes say on stderr how many read
 * estimated and why: llama3-8b on h100-sxm at 5 req/s, 5 of 12 rows (int8
 * weights and KV, no int8 table in trtllm's, table_time_share 0 to 0.05)
 * printed no note. */
static void size_notes_estimated_rows(void **state)
{
    (void)state;
    /* the note and the rows' modes agree on any sample: --requests 300
     * (make test-asan's) in make test too, 1.1 CPU-s where the default
     * 4000 took 6.8 (2-core VM, stop 52; 5 of 12 rows estimated on both) */
    char args[256];
    snprintf(args, sizeof args, "size --model llama3-8b --hw h100-sxm --qps 5 --prompt-len 500 "
             "--out-len 100 --ttft-p99 1 --tpot-p99 0.05 --format json --requests %d",
             RL_SAN_SMALL_REQUESTS);
    cJSON *j = run_json_noted(args, " rows read mode estimated (the first, ");
    int n = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(j, "rows"))
        n += !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(r, "mode")), "estimated");
    char said[64];
    snprintf(said, sizeof said, "note: %d of %d rows read mode estimated", n,
             cJSON_GetArraySize(cJSON_GetObjectItem(j, "rows")));
    assert_true(n > 0);
    assert_non_null(strstr(out, said));
    cJSON_Delete(j);
    /* tester51 F4: the rows whose dtypes the tables lack (int8 weights and
     * KV on h100-sxm's trtllm) are derived, said once per profile on
     * stderr and in the report's provenance, as step's note says */
    char dir[] = "/tmp/rl_cli_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *t = size_report_of(dir, "h100-sxm", "");
    const char *d = strstr(out, "rows on h100-sxm run a dtype their kernel tables do not measure");
    assert_non_null(d);
    assert_null(strstr(d + 1, "rows on h100-sxm run a dtype their kernel tables do not measure"));
    assert_non_null(strstr(d, "no GEMM of int8 weights x bf16 compute, nor int8 KV-cache attention"));
    /* the first derived row named by its label (rl_size_label), as the
     * table prints it, not the chip again (review: "(the first, h100-sxm:
     * trtllm's ...") */
    assert_non_null(strstr(d, "(the first, row h100-sxm 1x1 tp1 w:int8 kv:int8 c:bf16 "));
    assert_non_null(strstr(d, " B<=256: trtllm's kernel tables measure no GEMM"));
    assert_non_null(strstr(t, "Derived on h100-sxm: "));
    assert_non_null(strstr(t, "(provenance derived)"));
    /* issue 14 #3: the recommendation, h100-sxm 1x1 tp1 w:fp8 kv:fp8 c:fp8
     * (expected: the cheapest at 5 req/s, measured on this build), runs a
     * precision no flag asked for; said on stderr and in the report (no
     * word before, beyond the assumptions' general line) */
    assert_non_null(strstr(out, "caution: the first row (h100-sxm 1x1 tp1 w:fp8 kv:fp8 c:fp8 "
                                "continuous B<=256): its precision (weights fp8, KV cache fp8, "
                                "compute fp8) is one the search chose, not one asked for"));
    assert_non_null(strstr(t, "- Caution on precision: its precision (weights fp8, KV cache "
                              "fp8, compute fp8) is one the search chose"));
    free(t);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -r %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* tester51 F3 / tester50 F17: size and pareto carry step's host_cost_note
 * (trtllm on h100-sxm charges no per-step host cost: step times are a lower
 * bound), once: on stderr for table output, the key in JSON (stderr then
 * without it, as step's); and a TPOT target below a fitted profile's fixed
 * per-step cost (h100-sxm-splitwise: decode_step_s 29.63 ms, fitted on
 * splitwise_llama2-70b.csv) is cautioned, the search still run (exit 3,
 * nothing meets). */
static void size_pareto_note_host_cost(void **state)
{
    (void)state;
    static const char *const cmds[] = {
        "size --model llama3-8b --hw h100-sxm --qps 2 --prompt-len 500 --out-len 100 "
        "--ttft-p99 1 --tpot-p99 0.05 --requests 100",
        "pareto --model llama3-8b --hw h100-sxm --chips 1,2 --batch 1,8 --context 2048"};
    static const char *const said = "note: step times are kernel + collective time: no per-step "
                                    "host cost of the trtllm engine";
    for (int i = 0; i < 2; i++) {
        char cmd[512];
        assert_int_equal(run_cli(cmds[i], out, sizeof out), 0);
        const char *n = strstr(out, said);
        if (!n || strstr(n + 1, said))
            fail_msg("roofline %s: the host-cost note not said once: %.600s", cmds[i], out);
        snprintf(cmd, sizeof cmd, "%s --format json", cmds[i]);
        assert_int_equal(run_cli(cmd, out, sizeof out), 0);
        const char *json = strchr(out, '{');
        assert_non_null(json);
        assert_null(strstr(out, said));
        cJSON *j = cJSON_Parse(json);
        assert_non_null(j);
        assert_non_null(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(j, "host_cost_note")),
                               "no per-step host cost of the trtllm engine"));
        cJSON_Delete(j);
    }
    assert_int_equal(run_cli("size --model llama2-70b --hw h100-sxm-splitwise --qps 1 "
                             "--prompt-len 500 --out-len 100 --ttft-p99 2 --tpot-p99 0.02 "
                             "--requests 100", out, sizeof out), 3);
    assert_non_null(strstr(out, "caution: --tpot-p99 20 ms is tighter than h100-sxm-splitwise's "
                                "fixed per-step host cost, 29.63 ms (the fitted decode_step_s"));
    assert_int_equal(run_cli("size --model llama2-70b --hw h100-sxm-splitwise --qps 1 "
                             "--prompt-len 500 --out-len 100 --ttft-p99 2 --tpot-p99 0.05 "
                             "--requests 100", out, sizeof out), 0);
    assert_null(strstr(out, "is tighter than"));
    /* profiles on different engines, each charging no host cost: the note
     * names each, once (before: only the first profile's, trtllm) */
    char hdir[] = "/tmp/rl_cli_XXXXXX", hsh[1536], hcmd[1024];
    assert_non_null(mkdtemp(hdir));
    snprintf(hsh, sizeof hsh, "sed 's#default = \"trtllm\"#default = \"vllm\"#; "
             "s#name = \"h100-sxm\"#name = \"h100-sxm-vllm\"#; "
             "s#\"engines/#\"%s/hw_profiles/engines/#' %s/hw_profiles/h100-sxm.lua > %s/h.lua",
             RL_SRCDIR, RL_SRCDIR, hdir);
    assert_int_equal(system(hsh), 0);
    snprintf(hcmd, sizeof hcmd, "size --model llama3-8b --hw h100-sxm,%s/h.lua --qps 2 "
             "--prompt-len 500 --out-len 100 --ttft-p99 1 --tpot-p99 0.05 --requests 100 "
             "--format json", hdir);
    cJSON *hj = run_cli_json(hcmd, out, sizeof out);
    const char *hn = cJSON_GetStringValue(cJSON_GetObjectItem(hj, "host_cost_note"));
    if (!hn || !strstr(hn, "no per-step host cost of the trtllm and vllm engines ("))
        fail_msg("%s: host_cost_note %s", hcmd, hn ? hn : "(none)");
    cJSON_Delete(hj);
    snprintf(hsh, sizeof hsh, "rm -rf %s", hdir);
    assert_int_equal(system(hsh), 0);
    /* simulate takes the targets too: the same caution, once (size.h
     * rl_tpot_host_caution), none over the host cost or under --ideal */
    const char *sim = "simulate --model llama2-70b --hw h100-sxm-splitwise --chips 8 --qps 1 "
                      "--prompt-len 500 --out-len 100 --ttft-p99 2 --requests 100 --tpot-p99 ";
    char scmd[512];
    const char *tight = "caution: --tpot-p99 20 ms is tighter than h100-sxm-splitwise's "
                        "fixed per-step host cost, 29.63 ms (the fitted decode_step_s";
    snprintf(scmd, sizeof scmd, "%s0.02", sim);
    run_cli(scmd, out, sizeof out);
    const char *at = strstr(out, tight);
    if (!at || strstr(at + 1, tight))
        fail_msg("%s: the TPOT host-cost caution not said once: %.600s", scmd, out);
    snprintf(scmd, sizeof scmd, "%s0.05", sim);
    run_cli(scmd, out, sizeof out);
    assert_null(strstr(out, "is tighter than"));
    snprintf(scmd, sizeof scmd, "%s0.02 --ideal", sim);
    run_cli(scmd, out, sizeof out);
    assert_null(strstr(out, "is tighter than"));
    /* review46: under --spec a step emits up to gamma + 1 tokens, so TPOT
     * goes below the step's host cost (p99 13.9 ms at 0.9:4:0 against the
     * 29.63 ms floor): no caution */
    snprintf(scmd, sizeof scmd, "%s0.02 --spec 0.9:4:0", sim);
    run_cli(scmd, out, sizeof out);
    assert_null(strstr(out, "is tighter than"));
}

/* One command's caution: with `want`, stderr's `said` line contains it and
 * so does the JSON's `key`; without, stderr has no `absent` and the JSON no
 * `key` (kv_dtype_engine_caution, step_floor_caution). */
static void note_case(const char *args, const char *want, const char *said, const char *absent,
                      const char *key)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s %s --format json 2>&1 >/dev/null", RL_BIN, args);
    assert_int_equal(popen_out(cmd), 0);
    const char *c = strstr(out, said);
    if (want ? !c || !strstr(c, want) : strstr(out, absent) != NULL)
        fail_msg("%s: stderr %s", args, out);
    snprintf(cmd, sizeof cmd, "%s %s --format json 2>/dev/null", RL_BIN, args);
    assert_int_equal(popen_out(cmd), 0);
    cJSON *j = cJSON_Parse(out);
    assert_non_null(j);
    const char *note = cJSON_GetStringValue(cJSON_GetObjectItem(j, key));
    if (want ? !note || !strstr(note, want) : note != NULL)
        fail_msg("%s: %s %s", args, key, note ? note : "absent");
    cJSON_Delete(j);
}

/* fixJH (README-only tester): step --kv int4 on h100-sxm ran under trtllm
 * unremarked, though TensorRT-LLM stores KV caches in fp8, int8 (and NVFP4
 * on Blackwell, sm 100-109: fp4 is cautioned elsewhere) only (its docs, Numerical Precision / features/quantization),
 * and vLLM in fp8 only (its docs, Quantized KV Cache).  Expected: a
 * "caution: the ENGINE engine (...) has no DTYPE KV cache" on stderr and
 * the same text in JSON kv_engine_note, for trtllm int4 and vllm int8 (step
 * and prefill); none for trtllm int8 and fp8, vllm fp8. */
static void kv_dtype_engine_caution(void **state)
{
    (void)state;
    static const struct {
        const char *args, *want; /* want NULL: no caution */
    } cases[] = {
        {"step --model llama3-70b --hw h100-sxm --chips 8 --context 1000 --kv int4",
         "the trtllm engine (TensorRT-LLM) has no int4 KV cache: it quantizes the KV cache to "
         "fp8 or int8"},
        {"step --model llama3-8b --hw h100-sxm --context 1000 --kv int8 --engine vllm",
         "the vllm engine (vLLM) has no int8 KV cache: it quantizes the KV cache to fp8 only"},
        {"prefill --model llama3-8b --hw h100-sxm --tokens 100 --kv int4",
         "the trtllm engine (TensorRT-LLM) has no int4 KV cache"},
        {"step --model llama3-8b --hw h100-sxm --context 1000 --kv int8", NULL},
        {"step --model llama3-8b --hw h100-sxm --context 1000 --kv fp8", NULL},
        {"step --model llama3-8b --hw h100-sxm --context 1000 --kv fp8 --engine vllm", NULL},
        /* tester72 finding 4: NVFP4 KV is trtllm-gen's, SM10x only (NVIDIA/TensorRT-LLM
         * issue #10241): cautioned on h100-sxm (sm 90), not on b200 (sm 100) */
        {"step --model llama3-70b --hw h100-sxm --chips 8 --batch 64 --context 2048 --kv fp4",
         "the trtllm engine (TensorRT-LLM) stores an fp4 (NVFP4) KV cache on Blackwell "
         "data-centre chips (sm 100 to 109) only"},
        {"step --model llama3-8b --hw h100-sxm --context 1000 --kv fp4 --set hw.sm=100", NULL},
        {"step --model llama3-8b --hw b200 --context 1000 --kv fp4", NULL},
        /* fixRE item 2: TensorRT-LLM lists no FP8 on Ampere (its Support
         * Matrix: "Ampere (SM80, SM86) - FP32, FP16, BF16, INT8, INT4"):
         * fp8 KV on a100-sxm-80g (sm 80) read calibrated with no caution;
         * vLLM stores fp8 KV there (vllm issue #3965): none.  simulate
         * carried no kv_engine_note at all before (int4 on h100-sxm) */
        {"step --model llama3-8b --hw a100-sxm-80g --context 1000 --kv fp8",
         "the trtllm engine (TensorRT-LLM) has no fp8 on this chip (sm 80)"},
        {"step --model llama3-8b --hw a100-sxm-80g --context 1000 --kv fp8 --engine vllm", NULL},
        {"step --model llama3-8b --hw a100-sxm-80g --context 1000 --kv int8", NULL},
        {"simulate --model llama3-8b --hw a100-sxm-80g --kv fp8 --qps 1 --prompt-len 100 "
         "--out-len 10 --requests 50",
         "the trtllm engine (TensorRT-LLM) has no fp8 on this chip (sm 80)"},
        {"simulate --model llama3-8b --hw h100-sxm --kv int4 --qps 1 --prompt-len 100 "
         "--out-len 10 --requests 50",
         "the trtllm engine (TensorRT-LLM) has no int4 KV cache"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        note_case(cases[i].args, cases[i].want, "caution: the ", "KV cache: it quantizes",
                  "kv_engine_note");
}

/* fixTC (issue 12 item 5, "calibrated only when the tables were measured on
 * that chip for what the run does"): --kv int4 on h100-sxm under trtllm
 * read `calibrated` in step, ops, prefill, simulate, pareto and size,
 * beside the kv_engine_note caution that TensorRT-LLM stores no int4 KV
 * cache (its docs, Numerical Precision), because the label followed the
 * table-time share alone (0.62 for step at batch 64, context 4096; 0.91
 * for size's rows).  Expected (spec.h rl_run_mode's engine-dtype rule):
 * every one of them, header and rows, reads "estimated", and step, ops,
 * prefill and simulate carry mode_note RL_ENGINE_UNRUN_NOTE; with --kv
 * bf16 (which the engine runs) the same commands read "calibrated" with no
 * mode_note.  Fails before: int4 read calibrated everywhere but pareto's
 * header, and no mode_note. */
static void engine_unrun_mode(void **state)
{
    (void)state;
    static const char *const cmds[] = {
        "step --model llama3-8b --hw h100-sxm --batch 64 --context 4096",
        "ops --model llama3-8b --hw h100-sxm --batch 64 --context 4096",
        "prefill --model llama3-8b --hw h100-sxm --tokens 2048",
        "simulate --model llama3-8b --hw h100-sxm --qps 1 --prompt-len 100 --out-len 10 "
        "--requests 50",
        "pareto --model llama3-8b --hw h100-sxm --chips 1,2 --batch 1,8 --context 2048",
        "size --model llama3-8b --hw h100-sxm --qps 1 --prompt-len 200 --out-len 20 --ttft-p99 2 "
        "--tpot-p99 0.1 --keep-precision --requests 100 --max-chips 1"};
    static const char *const kvs[] = {"bf16", "int4"};
    for (size_t c = 0; c < sizeof cmds / sizeof *cmds; c++)
        for (int k = 0; k < 2; k++) {
            char args[512];
            snprintf(args, sizeof args, "%s --kv %s --format json", cmds[c], kvs[k]);
            cJSON *j = run_json(args), *row;
            const char *want = k ? "estimated" : "calibrated";
            const char *mode = cJSON_GetStringValue(cJSON_GetObjectItem(j, "mode"));
            const char *why = cJSON_GetStringValue(cJSON_GetObjectItem(j, "mode_note"));
            if (!mode || strcmp(mode, want) != 0)
                fail_msg("%s: mode %s, expected %s", args, mode ? mode : "absent", want);
            int rows_only = !strncmp(cmds[c], "pareto", 6) || !strncmp(cmds[c], "size", 4);
            if (k ? !rows_only && (!why || strcmp(why, RL_ENGINE_UNRUN_NOTE) != 0) : why != NULL)
                fail_msg("%s: mode_note %s", args, why ? why : "absent");
            int n = 0;
            cJSON_ArrayForEach(row, cJSON_GetObjectItem(j, "rows")) {
                const char *rm = cJSON_GetStringValue(cJSON_GetObjectItem(row, "mode"));
                n++;
                if (rm && strcmp(rm, want) != 0)
                    fail_msg("%s: row %d mode %s, expected %s", args, n, rm, want);
            }
            if (k && rows_only && !strstr(out, "rows: " RL_ENGINE_UNRUN_NOTE))
                fail_msg("%s: stderr says no reason: %s", args, out);
            cJSON_Delete(j);
        }
}

/* fixSA item 1: --weights fp8 (or --compute fp8) under trtllm on
 * a100-sxm-80g (sm 80) ran unremarked while --kv fp8 there was cautioned;
 * TensorRT-LLM's support matrix lists "Ampere (SM80, SM86) - FP32, FP16,
 * BF16, INT8, INT4", FP8 from Ada (SM89) on (nvidia.github.io/TensorRT-LLM/
 * 0.18.2/reference/support-matrix.html).  Expected: a caution on stderr and
 * the same text in JSON precision_engine_note in step, prefill, ops and
 * simulate; none under vllm (W8A16 on Ampere), on sm 90, or for int8
 * weights.  Fails before: no caution, no key. */
static void precision_engine_caution(void **state)
{
    (void)state;
    static const struct {
        const char *args, *want; /* want NULL: no caution */
    } cases[] = {
        {"step --model llama3-8b --hw a100-sxm-80g --context 1000 --weights fp8",
         "has no fp8 on this chip (sm 80): its support matrix lists FP8 from Ada Lovelace (SM89) "
         "on and \"Ampere (SM80, SM86) - FP32, FP16, BF16, INT8, INT4\" (TensorRT-LLM docs, "
         "Support Matrix, Software: Precision), so this run's fp8 weights are a what-if"},
        {"prefill --model llama3-8b --hw a100-sxm-80g --tokens 100 --weights fp8",
         "this run's fp8 weights are a what-if"},
        {"ops --model llama3-8b --hw a100-sxm-80g --context 1000 --weights fp8",
         "this run's fp8 weights are a what-if"},
        {"simulate --model llama3-8b --hw a100-sxm-80g --weights fp8 --qps 1 --prompt-len 100 "
         "--out-len 10 --requests 50",
         "this run's fp8 weights are a what-if"},
        {"step --model llama3-8b --hw h100-sxm --context 1000 --weights fp8 --compute fp8 "
         "--set hw.sm=80",
         "this run's fp8 weights and compute are a what-if"},
        {"step --model llama3-8b --hw a100-sxm-80g --context 1000 --weights fp8 --engine vllm",
         NULL},
        {"step --model llama3-8b --hw h100-sxm --context 1000 --weights fp8 --compute fp8", NULL},
        {"step --model llama3-8b --hw a100-sxm-80g --context 1000 --weights int8", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        note_case(cases[i].args, cases[i].want,
                  "caution: the trtllm engine (TensorRT-LLM) has no fp8",
                  "a what-if no TensorRT-LLM deployment runs on it (its weights",
                  "precision_engine_note");
    /* tester90 #2: --weights fp4 under trtllm on a100-sxm-80g (sm 80),
     * h100-sxm and h200 (sm 90) ran unremarked: the support matrix lists FP4
     * on "Blackwell (SM100/SM120)" alone (NVIDIA/TensorRT-LLM docs/source/
     * reference/support-matrix.md, Software: Precision).  Expected: the
     * caution quoting the chip's own line; none on b200 (sm 100) nor under
     * vllm (Marlin FP4, weight-only: vllm-project/vllm issue #31085).  Fails
     * before: the rule covered fp8 alone. */
    static const struct {
        const char *args, *want;
    } fp4[] = {
        {"step --model llama3-8b --hw a100-sxm-80g --context 1000 --weights fp4",
         "has no fp4 on this chip (sm 80): its support matrix lists FP4 on Blackwell "
         "(SM100/SM120) alone and \"Ampere (SM80, SM86) - FP32, FP16, BF16, INT8, INT4\""},
        {"step --model llama3-8b --hw h100-sxm --context 1000 --weights fp4",
         "has no fp4 on this chip (sm 90): its support matrix lists FP4 on Blackwell "
         "(SM100/SM120) alone and \"Hopper (SM90) - FP32, FP16, BF16, FP8, INT8, INT4\""},
        {"prefill --model llama3-8b --hw h200 --tokens 100 --weights fp4",
         "this run's fp4 weights are a what-if"},
        {"step --model llama3-8b --hw b200 --context 1000 --weights fp4", NULL},
        {"step --model llama3-8b --hw a100-sxm-80g --context 1000 --weights fp4 --engine vllm",
         NULL},
    };
    for (size_t i = 0; i < sizeof fp4 / sizeof *fp4; i++)
        note_case(fp4[i].args, fp4[i].want, "caution: the trtllm engine (TensorRT-LLM) has no fp4",
                  "a what-if no TensorRT-LLM deployment runs on it (its weights",
                  "precision_engine_note");
}

/* F9b: size's JSON echoed neither --max-chips, --keep-precision, the
 * precisions searched nor --hbm-reserve.  Expected: max_chips 1,
 * keep_precision true, searched_precisions ["w:fp8 kv:bf16 c:bf16"] and
 * hbm_reserve 0.2 as given; without them max_chips null, keep_precision
 * false, hbm_reserve 0.1 (its default) and, over h100-sxm then
 * a100-sxm-80g, the default search (size.c precisions): bf16, int8
 * weights and KV, fp8 on h100-sxm (an fp8 peak), int8 compute on
 * a100-sxm-80g (none), in that order without repeats.  Fails before: the
 * keys are absent. */
static void size_echoes_search(void **state)
{
    (void)state;
    static const char *const args[] = {
        "--hw h100-sxm --max-chips 1 --keep-precision --weights fp8 --hbm-reserve 0.2",
        "--hw h100-sxm,a100-sxm-80g"};
    static const char *const want[] = {
        "[\"w:fp8 kv:bf16 c:bf16\"]",
        "[\"w:bf16 kv:bf16 c:bf16\",\"w:int8 kv:int8 c:bf16\",\"w:fp8 kv:fp8 c:fp8\","
        "\"w:int8 kv:int8 c:int8\"]"};
    for (int i = 0; i < 2; i++) {
        char cmd[640];
        snprintf(cmd, sizeof cmd, "%s size --model llama3-8b %s --qps 1 --prompt-len 200 "
                 "--out-len 20 --ttft-p99 2 --tpot-p99 0.1 --requests 100 --format json "
                 "2>/dev/null", RL_BIN, args[i]);
        assert_int_equal(popen_out(cmd), 0);
        cJSON *j = cJSON_Parse(out);
        assert_non_null(j);
        const cJSON *mc = cJSON_GetObjectItem(j, "max_chips");
        if (!(i == 0 ? cJSON_IsNumber(mc) && mc->valuedouble == 1 : cJSON_IsNull(mc)))
            fail_msg("%s: max_chips %s", args[i], mc ? "wrong" : "absent");
        const cJSON *kp = cJSON_GetObjectItem(j, "keep_precision");
        if (!(i == 0 ? cJSON_IsTrue(kp) : cJSON_IsFalse(kp)))
            fail_msg("%s: keep_precision %s", args[i], kp ? "wrong" : "absent");
        const cJSON *hr = cJSON_GetObjectItem(j, "hbm_reserve");
        if (!cJSON_IsNumber(hr) || fabs(hr->valuedouble - (i == 0 ? 0.2 : 0.1)) > 1e-12)
            fail_msg("%s: hbm_reserve %s", args[i], hr ? "wrong" : "absent");
        char *sp = cJSON_PrintUnformatted(cJSON_GetObjectItem(j, "searched_precisions"));
        if (!sp || strcmp(sp, want[i]) != 0)
            fail_msg("%s: searched_precisions %s, want %s", args[i], sp ? sp : "absent", want[i]);
        cJSON_free(sp);
        cJSON_Delete(j);
    }
}

/* F8b: on b200 under trtllm, --weights int4 (tp 8, batch 1, context 2048)
 * read a 7.17 ms step against bf16's 5.67 ms with no word: b200's tables
 * measure GEMMs in bfloat16, fp8 and nvfp4 only, so int4 x bf16 is derived
 * from the nearest, nvfp4 (its efficiency at the shape times int4's
 * roofline), whose rows carry their activation's FP4 quantization.
 * Expected: a caution on stderr and derived_slow_note naming the donor and
 * the dense matmuls, 5.303 ms vs bf16's 3.802 ms (x1.39: the tables, via
 * ops' own sum, to the printed digit); none at bf16, under vllm (its int4
 * reads faster than bf16 there), or on h100-sxm (derived from fp8, faster).
 * Fails before: no caution, no key. */
static void derived_slow_caution(void **state)
{
    (void)state;
    static const struct {
        const char *args, *want;
    } cases[] = {
        {"step --model llama3-70b --hw b200 --tp 8 --chips 8 --weights int4 --batch 1 "
         "--context 2048",
         "trtllm's kernel tables on b200 measure no GEMM of int4 weights x bf16 compute: its "
         "time is derived, the nvfp4 table's efficiency at the same shape times its own "
         "roofline (provenance derived), and that reads slower than the measured bfloat16 "
         "GEMMs at this run's shapes: decode batch 1 at context 2048, tp 8, dense matmuls "
         "5.303 ms vs 3.802 ms (x1.39)"},
        {"step --model llama3-70b --hw gb200 --tp 8 --chips 8 --weights int4 --batch 1 "
         "--context 2048",
         "not a measurement of int4 weights on this chip, so the figure is an estimate"},
        {"step --model llama3-70b --hw b200 --tp 8 --chips 8 --batch 1 --context 2048", NULL},
        {"step --model llama3-70b --hw b200 --tp 8 --chips 8 --weights int4 --batch 1 "
         "--context 2048 --engine vllm",
         NULL},
        {"step --model llama3-70b --hw h100-sxm --tp 8 --chips 8 --weights int4 --batch 1 "
         "--context 2048",
         NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        note_case(cases[i].args, cases[i].want, "caution: trtllm's kernel tables on",
                  "measure no GEMM of", "derived_slow_note");
}

/* tester F8: deepseek-v3's qk read 252 us a layer on a100-sxm-80g under
 * trtllm (26x h100-sxm) with no word.  The figure is measured: TensorRT-LLM
 * 1.0.0's generation_mla table on A100-SXM4-80GB (AIConfigurator) reads
 * 0.478 ms at batch 1, 4095 + 1 tokens, 128 heads, bf16 (x131 its roofline
 * of 0.0037 ms), and its MLA kernels target Hopper (NVIDIA/TensorRT-LLM
 * examples/deepseek_v3/README.md: "Current TRT-LLM MLA kernel only
 * supports Hopper architecture (SM90)").  Expected: mla_engine_note and a
 * caution quoting the table's 0.477 ms (interpolated in log space, to the
 * printed digit) in ops and step on a100-sxm-80g; none on h100-sxm, under
 * vllm (no MLA table: roofline), --ideal, or prefill (the context table
 * runs at 3.7x H100, the peak ratio).  The times stay.  Fails before: no
 * key. */
static void mla_engine_caution(void **state)
{
    (void)state;
    static const struct {
        const char *args, *want;
    } cases[] = {
        {"ops --model deepseek-v3 --hw a100-sxm-80g --engine trtllm --batch 1 --context 4096 "
         "--tp 8 --chips 8",
         "MLA decode attention (qk, softmax, pv) is TensorRT-LLM's own measured MLA kernel on "
         "this chip (sm 80; engine 1.0.0 tables, provenance measured or interpolated), and it "
         "is slow: 0.477 ms at batch 1, 4096 cached tokens and 128 heads, 131x its roofline"},
        {"step --model deepseek-v3 --hw a100-sxm-80g --tp 8 --chips 8 --context 4096",
         "\"Current TRT-LLM MLA kernel only supports Hopper architecture (SM90)."},
        {"ops --model deepseek-v3 --hw h100-sxm --tp 8 --chips 8 --context 4096", NULL},
        {"ops --model deepseek-v3 --hw a100-sxm-80g --engine vllm --tp 8 --chips 8 --context 4096",
         NULL},
        {"ops --model deepseek-v3 --hw a100-sxm-80g --ideal --tp 8 --chips 8 --context 4096", NULL},
        {"prefill --model deepseek-v3 --hw a100-sxm-80g --tp 8 --chips 8 --tokens 1000", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        note_case(cases[i].args, cases[i].want, "caution: MLA decode attention",
                  "caution: MLA decode attention", "mla_engine_note");
}

/* tester89 F4b: size's rows carried neither kv_engine_note nor
 * precision_engine_note, which step and simulate print for the same plan
 * (fp8 weights and KV under trtllm on a100-sxm-80g, sm 80: TensorRT-LLM's
 * support matrix lists FP8 from SM89 on).  Expected: every row (4 with
 * --max-chips 1) carries both, the texts step gives for that plan, and
 * stderr says each once with the count "4 of 4 rows"; on h100-sxm (sm 90)
 * both keys are null on every row.  Fails before: the keys are absent. */
static void size_engine_dtype_notes(void **state)
{
    (void)state;
    static const char *const hws[] = {"a100-sxm-80g", "h100-sxm"};
    static const char *const keys[] = {"kv_engine_note", "precision_engine_note"};
    static const char *const wants[] = {"this run's fp8 KV cache is a what-if",
                                        "this run's fp8 weights are a what-if"};
    for (int h = 0; h < 2; h++) {
        char base[512], cmd[1100];
        snprintf(base, sizeof base, "%s size --model llama3-8b --hw %s --qps 1 --prompt-len 200 "
                 "--out-len 20 --ttft-p99 2 --tpot-p99 0.1 --weights fp8 --kv fp8 "
                 "--keep-precision --requests 100 --max-chips 1 --format json", RL_BIN, hws[h]);
        snprintf(cmd, sizeof cmd, "%s 2>&1 >/dev/null", base);
        assert_int_equal(popen_out(cmd), 0);
        for (int k = 0; k < 2; k++) {
            char said[96];
            snprintf(said, sizeof said, "(the rows' %s)", keys[k]);
            if ((h == 0) != (strstr(out, said) != NULL) ||
                (h == 0 && !strstr(out, "caution: 4 of 4 rows")))
                fail_msg("%s: stderr %s", hws[h], out);
        }
        snprintf(cmd, sizeof cmd, "%s 2>/dev/null", base);
        assert_int_equal(popen_out(cmd), 0);
        cJSON *j = cJSON_Parse(out), *row;
        assert_non_null(j);
        int n = 0;
        cJSON_ArrayForEach(row, cJSON_GetObjectItem(j, "rows"))
        {
            n++;
            for (int k = 0; k < 2; k++) {
                const cJSON *v = cJSON_GetObjectItem(row, keys[k]);
                const char *note = cJSON_GetStringValue(v);
                if (h == 0 ? !note || !strstr(note, wants[k]) : !cJSON_IsNull(v))
                    fail_msg("%s row %d: %s %s", hws[h], n, keys[k], note ? note : "not a string");
            }
        }
        assert_int_equal(n, 4);
        cJSON_Delete(j);
        if (h) /* the report's recommendation says both (sizereport.c recommend_cautions) */
            continue;
        char md[256];
        snprintf(md, sizeof md, "%s/fixSH_f4b_%d.md", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
                 (int)getpid());
        snprintf(cmd, sizeof cmd, "%s --report %s >/dev/null 2>&1 && cat %s", base, md, md);
        assert_int_equal(popen_out(cmd), 0);
        remove(md);
        for (int k = 0; k < 2; k++) {
            char said[96];
            snprintf(said, sizeof said, "(%s).", keys[k]);
            if (!strstr(out, "Caution: the trtllm engine (TensorRT-LLM) has no fp8") ||
                !strstr(out, said))
                fail_msg("report names no %s: %s", keys[k], out);
        }
    }
}

/* fixSL #1: pareto's frontier rows carried none of the engine cautions
 * step and size give the same plan: fp8 weights under trtllm on
 * a100-sxm-80g (sm 80; TensorRT-LLM lists FP8 from SM89 on) read as any
 * other row.  Expected: every row carries kv_engine_note,
 * precision_engine_note and mla_engine_note (llama3-8b: no MLA, null on
 * every row); a fp8-weights row's precision_engine_note holds step's text
 * ("this run's fp8 weights are a what-if"), a bf16 row's is null; stderr
 * says it once, "(the rows' precision_engine_note)".  Fails before: the
 * keys are absent and stderr says nothing. */
static void pareto_engine_dtype_notes(void **state)
{
    (void)state;
    char base[512], cmd[700];
    snprintf(base, sizeof base, "%s pareto --model llama3-8b --hw a100-sxm-80g --weights fp8,bf16 "
             "--chips 1,2 --batch 1,8 --context 2048 --format json", RL_BIN);
    snprintf(cmd, sizeof cmd, "%s 2>&1 >/dev/null", base);
    assert_int_equal(popen_out(cmd), 0);
    if (!strstr(out, "(the rows' precision_engine_note)") ||
        strstr(out, "(the rows' mla_engine_note)"))
        fail_msg("stderr: %s", out);
    snprintf(cmd, sizeof cmd, "%s 2>/dev/null", base);
    assert_int_equal(popen_out(cmd), 0);
    cJSON *j = cJSON_Parse(out), *row;
    assert_non_null(j);
    int fp8 = 0, n = 0;
    cJSON_ArrayForEach(row, cJSON_GetObjectItem(j, "rows"))
    {
        n++;
        const char *w = cJSON_GetStringValue(cJSON_GetObjectItem(row, "weights"));
        const cJSON *pen = cJSON_GetObjectItem(row, "precision_engine_note");
        const char *note = cJSON_GetStringValue(pen);
        assert_non_null(w);
        if (!strcmp(w, "fp8")) {
            fp8++;
            if (!note || !strstr(note, "this run's fp8 weights are a what-if"))
                fail_msg("fp8 row %d: precision_engine_note %s", n, note ? note : "absent");
        } else if (!cJSON_IsNull(pen)) {
            fail_msg("%s row %d: precision_engine_note not null", w, n);
        }
        if (!cJSON_IsNull(cJSON_GetObjectItem(row, "mla_engine_note")) ||
            !cJSON_HasObjectItem(row, "kv_engine_note"))
            fail_msg("row %d: mla_engine_note not null or kv_engine_note absent", n);
    }
    assert_true(fp8 > 0);
    cJSON_Delete(j);
}

/* fixTE #4 (fresh-user tester): simulate --ep 8 of deepseek-v3 over 8 h200
 * runs tp1 ep8, each chip attending over its own sequences, and matches
 * --attn-layout attn-dp in every key but attention_layout, which read "tp"
 * beside kv_layout "batch (attention data parallel)".  Expected: "attn-dp"
 * (exact string); --ep 4 (tp2 ep4, attention split within each group)
 * stays "tp". */
static void simulate_ep_names_attn_dp(void **state)
{
    (void)state;
    const char *base = "simulate --model deepseek-v3 --hw h200 --chips 8 --weights fp8 "
                       "--compute fp8 --kv fp8 --offline --requests 64 --max-seqs 64 "
                       "--prompt-len 2048 --out-len 64 --format json --ep ";
    cJSON *j8 = json2(base, "8"), *j4 = json2(base, "4");
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(j8, "attention_layout")),
                        "attn-dp");
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(j4, "attention_layout")), "tp");
    cJSON_Delete(j8);
    cJSON_Delete(j4);
}

/* fixSL #2: size's attn-dp rows read "ep": 1 beside replica_sharding
 * "tp1 ep8" (an attn-dp stage runs its experts over all its chips: serve.c
 * rl_serve_replica_plan).  Expected: mixtral-8x7b on h200 at 5 req/s lists
 * attn-dp rows (attn-dp2, 4, 8 on main 4f5982a8), each with ep equal to
 * the N of its replica_sharding's "epN", and every row agrees likewise
 * ("tp8": ep 1).  Fails before: ep 1 on the attn-dp rows. */
static void size_attn_dp_ep(void **state)
{
    (void)state;
    int dp = 0; /* attn-dp rows seen */
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s size --model mixtral-8x7b --hw h200 --qps 5 --prompt-len 1000 "
             "--out-len 200 --ttft-p99 1 --tpot-p99 0.05 --format json 2>/dev/null", RL_BIN);
    assert_int_equal(popen_out(cmd), 0);
    cJSON *j = cJSON_Parse(out), *row;
    assert_non_null(j);
    cJSON_ArrayForEach(row, cJSON_GetObjectItem(j, "rows"))
    {
        const char *rs = cJSON_GetStringValue(cJSON_GetObjectItem(row, "replica_sharding"));
        const char *layout = cJSON_GetStringValue(cJSON_GetObjectItem(row, "attention_layout"));
        assert_non_null(rs);
        assert_non_null(layout);
        const char *at = strstr(rs, "ep");
        long long want = at ? atoll(at + 2) : 1;
        dp += !strcmp(layout, "attn-dp");
        if ((long long)cJSON_GetNumberValue(cJSON_GetObjectItem(row, "ep")) != want)
            fail_msg("row %s: ep %g, replica_sharding %s",
                     cJSON_GetStringValue(cJSON_GetObjectItem(row, "config")),
                     cJSON_GetNumberValue(cJSON_GetObjectItem(row, "ep")), rs);
    }
    assert_true(dp > 0);
    cJSON_Delete(j);
}

/* fixRE item 3 (README-only tester): a chip with nothing measured and no
 * engine costs gave tiny-test on one tpu-v5e a 0.24 us decode step, TTFT
 * p50 0.34 us and max_sustainable_qps 3.8 M req/s, unremarked.  A step
 * below one kernel launch ("Each launch takes on the order of
 * microseconds", Modal GPU Glossary, CUDA Graph; floor 1 us) now carries
 * step_floor_note and a caution, in step and simulate; the numbers stay.
 * llama3-8b's step on tpu-v5e (ms) has none. */
static void step_floor_caution(void **state)
{
    (void)state;
    static const struct {
        const char *args, *want; /* want NULL: no caution */
    } cases[] = {
        {"simulate --model tiny-test --hw tpu-v5e --qps 1000 --prompt-len 10 --out-len 10 "
         "--requests 300",
         "the decode step (itl_p50_s "},
        {"step --model tiny-test --hw tpu-v5e --context 10", "the decode step (step_s "},
        {"step --model llama3-8b --hw tpu-v5e --context 10", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        note_case(cases[i].args, cases[i].want, "caution: the decode step (",
                  "is below one kernel launch", "step_floor_note");
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s %s --format json 2>&1 >/dev/null", RL_BIN, cases[0].args);
    assert_int_equal(popen_out(cmd), 0);
    assert_non_null(strstr(out, "us) is below one kernel launch"));
    assert_non_null(strstr(out, "are not deployable figures"));
}

/* fixSA #2: size sized tiny-test on one tpu-v5e with a 0.137 us TPOT p50
 * (a decode step below one kernel launch, as step_floor_caution's) with no
 * word, while step and simulate said it.  Expected: each such row's
 * step_floor_note ("the decode step (tpot_p50_s ..."), a caution on stderr
 * counting the rows, the report's caution beside the recommendation; null
 * on llama3-8b's h100-sxm rows (ms steps).  Fails before: no key. */
static void size_step_floor_said(void **state)
{
    (void)state;
    char rep[96], args[512];
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(rep, sizeof rep, "%s/rl_fixSA_floor_%d.md", tmp, (int)getpid());
    unlink(rep);
    snprintf(args, sizeof args, "size --model tiny-test --hw tpu-v5e --qps 100 --prompt-len 10 "
             "--out-len 10 --ttft-p99 1 --tpot-p99 0.05 --requests 300 --max-chips 1 "
             "--report %s --format json", rep);
    cJSON *j = run_json(args);
    const cJSON *rows = cJSON_GetObjectItem(j, "rows");
    assert_true(cJSON_GetArraySize(rows) > 0);
    const char *note = cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(rows, 0),
                                                                "step_floor_note"));
    if (!note || !strstr(note, "the decode step (tpot_p50_s ") ||
        !strstr(note, "us) is below one kernel launch"))
        fail_msg("rows[0].step_floor_note: %s", note ? note : "absent");
    if (!strstr(out, "rows (the first: tpu-v5e ") || !strstr(out, "is below one kernel launch"))
        fail_msg("stderr: %s", out);
    cJSON_Delete(j);
    char *md = slurp_text(rep);
    unlink(rep);
    assert_non_null(md);
    if (!strstr(md, "Caution: the decode step (tpot_p50_s ") || !strstr(md, "(step_floor_note)."))
        fail_msg("report: no step floor caution");
    free(md);
    j = run_json("size --model llama3-8b --hw h100-sxm --qps 2 --prompt 100 --output 20 "
                 "--ttft-p99 1 --tpot-p99 0.05 --requests 200 --max-chips 1 --format json");
    const cJSON *row;
    cJSON_ArrayForEach(row, cJSON_GetObjectItem(j, "rows"))
    {
        const cJSON *n = cJSON_GetObjectItem(row, "step_floor_note");
        assert_true(n && cJSON_IsNull(n));
    }
    assert_null(strstr(out, "below one kernel launch"));
    cJSON_Delete(j);
}

/* tester85 #5 (fixSA): size --conservative sizes on the kernel tables'
 * band, which holds no engine's end-to-end gap (e2e_gap_note: on h100-sxm
 * trtllm at tp2, the nearest of tp1, TPOT p90 x1.64, TTFT p90 x1.60,
 * SplitwiseSim; result.c E2E_GAP), and said nothing of it beyond the
 * gap's own note.  Expected: a caution on stderr and in the report naming
 * both factors; none without --conservative.  Fails before: no caution. */
static void size_conservative_gap_said(void **state)
{
    (void)state;
    char rep[96], args[512];
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(rep, sizeof rep, "%s/rl_fixSA_cons_%d.md", tmp, (int)getpid());
    unlink(rep);
    const char *base = "size --model llama3-8b --hw h100-sxm --qps 2 --prompt 100 --output 20 "
                       "--ttft-p99 1 --tpot-p99 0.05 --requests 200 --max-chips 2 --format json";
    snprintf(args, sizeof args, "%s --conservative --report %s", base, rep);
    cJSON *j = run_json(args);
    cJSON_Delete(j);
    const char *want = "--conservative sizes against the slow edge of the kernel tables' band, "
                       "which holds their kernels' error and not an engine's end-to-end gap: on "
                       "this chip measured end-to-end runs took up to TPOT x 1.64 and TTFT x 1.60";
    if (!strstr(out, want))
        fail_msg("stderr: %s", out);
    char *md = slurp_text(rep);
    unlink(rep);
    assert_non_null(md);
    if (!strstr(md, want))
        fail_msg("report: no --conservative gap caution");
    free(md);
    j = run_json(base);
    cJSON_Delete(j);
    assert_null(strstr(out, "--conservative sizes against"));
}

/* fixJH (README-only tester): h100-sxm-splitwise, fitted on SplitwiseSim's
 * fp16 llama2-70b rows, gives the same decode step for bf16 and fp8 weights
 * (29.9 ms at tp4, batch 1, context 1000: the fitted host floor,
 * decode_step_s 29.63 ms, sets it; enginecost.h (E)) with only a note that
 * the costs extrapolate.  Expected: a caution naming the floor, that it was
 * measured at fp16, and the run's difference, for fp8 weights and for
 * another model; none at the fitted model and dtypes. */
static void fitted_floor_dtype_caution(void **state)
{
    (void)state;
    static const struct {
        const char *args;
        const char *want; /* NULL: no caution */
    } cases[] = {
        {"--model llama2-70b --chips 4 --weights fp8", "weights fp8 (fitted on weights bf16 only)"},
        {"--model llama3-8b --chips 2", "model llama3-8b (fitted on llama2-70b only)"},
        {"--model llama2-70b --chips 4", NULL},
    };
    char cmd[512];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(cmd, sizeof cmd, "%s step --hw h100-sxm-splitwise --context 1000 %s "
                 "--format json 2>&1 >/dev/null", RL_BIN, cases[i].args);
        assert_int_equal(popen_out(cmd), 0);
        const char *c = strstr(out, "caution: h100-sxm-splitwise's fitted host floor "
                                    "(decode_step_s 29.63 ms a step");
        if (cases[i].want ? !c || !strstr(c, "measured on llama2-70b rows at fp16") ||
                                !strstr(c, cases[i].want)
                          : c != NULL)
            fail_msg("%s: %s", cases[i].args, out);
    }
}

/* tester51 F7: a first row whose meets rests on its p99s alone (verdict_by
 * p99; llama3-8b at 1 req/s under a 150 ms TTFT target near the longest
 * prompts' own prefill: every 4.25 USD/h row's figure unresolved) is
 * cautioned once on stderr and once in the report's Recommendation, naming
 * why (max_sustainable_qps_unresolved); at 300 ms the first row's capacity
 * is resolved (verdict_by both: fp8 at 15.5 req/s, ranked before the
 * p99-only bf16 rows of its cost) and neither says it. */
static void size_cautions_p99_only_verdict(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_cli_XXXXXX", cmd[768], path[128];
    assert_non_null(mkdtemp(dir));
    /* the p99-only caution's own words: the first row has a precision
     * caution of its own (issue 14 #3: fp8, which the search chose) */
    const char *said = "): its meets rests on the p99s of its runs";
    for (int tight = 1; tight >= 0; tight--) {
        snprintf(path, sizeof path, "%s/r%d.md", dir, tight);
        snprintf(cmd, sizeof cmd, "size --model llama3-8b --hw h100-sxm --qps 1 --prompt "
                 "lognormal:2000:0.8 --output lognormal:300:0.8 --ttft-p99 %s --tpot-p99 0.05 "
                 "--requests 200 --report %s", tight ? "0.15" : "0.3", path);
        assert_int_equal(run_cli(cmd, out, sizeof out), 0);
        const char *at = strstr(out, said);
        int once = at && strstr(at, "(verdict_by p99)") && strstr(at, "unresolved") &&
                   !strstr(at + 1, said);
        if (tight ? !once : at != NULL)
            fail_msg("%s: the p99-only caution %s: %.800s", cmd, tight ? "not said once" : "said",
                     out);
        char *md = slurp_text(path);
        assert_non_null(md);
        at = strstr(md, "Caution on the verdict: ");
        if (tight ? !at || strstr(at + 1, "Caution on the verdict") : at != NULL)
            fail_msg("%s: the report's verdict caution %s", cmd, tight ? "not once" : "given");
        /* fixJH: each p99-only row marked in its own meets cell, not only the first */
        if (tight && !strstr(md, "| yes on p99s only: capacity not established |"))
            fail_msg("%s: no p99-only row marked in the table", cmd);
        free(md);
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* simulate says the decode-attention rule it ran under (serve.h
 * rl_serve_attn_longest): h100-sxm's trtllm tables with the engine's
 * attention_context set to "longest" (a copy of its engine file) read
 * JSON attention_context "longest" and, in the table, one note on stderr;
 * the same profile at int8 KV (no decode attention table at int8), under
 * --ideal, or the stock profile read "mean" and say nothing.  Steps at the
 * longest context are never faster: TPOT p99 at least the mean rule's
 * (6.690 against 6.677 ms on this sample). */
static void simulate_says_attention_rule(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_cli_XXXXXX", sh[2048], base[768];
    assert_non_null(mkdtemp(dir));
    snprintf(sh, sizeof sh, "cd %s && mkdir engines && sed '0,/      costs = {/s//      costs = "
             "{ attention_context = \"longest\",/' %s/hw_profiles/engines/h100-sxm-trtllm.lua > "
             "engines/t.lua && sed 's#\"engines/h100-sxm-trtllm.lua\"#\"%s/engines/t.lua\"#; "
             "s#\"engines/h100-sxm-vllm.lua\"#\"%s/hw_profiles/engines/h100-sxm-vllm.lua\"#' "
             "%s/hw_profiles/h100-sxm.lua > h.lua", dir, RL_SRCDIR, dir, RL_SRCDIR, RL_SRCDIR);
    assert_int_equal(system(sh), 0);
    const char *said = "note: decode attention timed at each batch's longest context";
    snprintf(base, sizeof base, "simulate --model llama3-8b --qps 2 --requests 100 --prompt-len "
             "500 --out-len 100 --hw ");
    static const struct {
        const char *hw, *tail, *rule;
    } cases[] = {{"/h.lua", "", "longest"},
                 {"/h.lua", " --kv int8", "mean"},
                 {"/h.lua", " --ideal", "mean"},
                 {NULL, "", "mean"}};
    double tpot[2] = {0, 0};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char hw[256];
        snprintf(hw, sizeof hw, "%s%s%s --format json", cases[i].hw ? dir : "h100-sxm",
                 cases[i].hw ? cases[i].hw : "", cases[i].tail);
        cJSON *j = json2(base, hw);
        const char *rule = cJSON_GetStringValue(cJSON_GetObjectItem(j, "attention_context"));
        if (!rule || strcmp(rule, cases[i].rule))
            fail_msg("simulate --hw %s: attention_context %s, not %s", hw, rule ? rule : "(none)",
                     cases[i].rule);
        if (i == 0 || i == 3)
            tpot[i == 3] = num(j, "tpot_p99_s");
        cJSON_Delete(j);
        snprintf(hw, sizeof hw, "%s%s%s", cases[i].hw ? dir : "h100-sxm",
                 cases[i].hw ? cases[i].hw : "", cases[i].tail);
        assert_int_equal(cli2(base, hw), 0);
        const char *at = strstr(out, said);
        if (i == 0 ? !at || strstr(at + 1, said) : at != NULL)
            fail_msg("simulate --hw %s: the attention note %s: %.600s", hw,
                     i == 0 ? "not said once" : "said", out);
    }
    assert_true(tpot[0] >= tpot[1] && tpot[1] > 0);
    snprintf(sh, sizeof sh, "rm -rf %s", dir);
    assert_int_equal(system(sh), 0);
}

static void size_report_says_why_estimated(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_cli_XXXXXX", cmd[768];
    assert_non_null(mkdtemp(dir));
    /* both unpriced, as before they were priced (new-user tester E) */
    char *t = size_report_of(dir, "h100-pcie,tpu-v4", "--set hw.price_per_chip_hour=0");
    assert_non_null(strstr(t, "Mode: estimated (another chip's measured kernel "
                              "times, their roofline part moved to this chip's datasheet"));
    assert_non_null(strstr(t, "Mode: estimated (datasheet figures at full "
                              "efficiency, nothing measured on this chip"));
    assert_null(strstr(t, "under half of a decode step's time"));
    assert_null(strstr(t, "estimated (estimated")); /* the word once (stop 38 #4) */
    free(t);
    /* review28 L2: both estimated (priced: the caution is the
     * recommendation's), on different evidence: not "two modes" */
    t = size_report_of(dir, "h100-pcie,tpu-v5e", "--set hw.price_per_chip_hour=2");
    assert_non_null(strstr(t, "Caution: the hardware is compared on different evidence."));
    assert_null(strstr(t, "two modes"));
    /* h28tidy: the caution and the Mode line describe the recommendation's
     * evidence in one wording (sizereport.c evidence_of); they were two
     * classifications, the caution's "another chip's measured kernel times
     * moved to its datasheet figures" beside the Mode line's "... their
     * roofline part moved to this chip's datasheet figures and their excess
     * kept" */
    const char *said = strstr(t, " is modelled estimated ("), *mode = strstr(t, "- Mode: estimated (");
    assert_non_null(said);
    assert_non_null(mode);
    said += strlen(" is modelled estimated (");
    mode += strlen("- Mode: estimated (");
    size_t len = strcspn(said, ")");
    assert_true(len > 20);
    if (strncmp(said, mode, len) != 0 || mode[len] != ')')
        fail_msg("caution: %.*s\nmode: %.200s", (int)len, said, mode);
    free(t);
    /* review28 L2: calibrated h100-sxm beside the what-if h100-pcie had no
     * caution (the what-if counted as measured) */
    t = size_report_of(dir, "h100-sxm,h100-pcie", "--set hw.price_per_chip_hour=2");
    assert_non_null(strstr(t, "Caution: the hardware is compared in two modes."));
    assert_non_null(strstr(t, "what-if profiles time another chip's measured kernels"));
    free(t);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* tester44 F9: size --hw a100-sxm-80g,h100-sxm --keep-precision --weights
 * fp8 --compute fp8 exited 2 (the A100 has no fp8 peak) instead of sizing
 * the H100; now it sizes every row on h100-sxm with a note naming the
 * A100, exit 0, and the A100 alone is still refused, exit 2. */
static void size_skips_chip_without_precision(void **state)
{
    (void)state;
    const char *base = "size --model llama3-8b --qps 2 --prompt-len 500 --out-len 100 "
                       "--ttft-p99 1 --tpot-p99 0.05 --requests 200 --keep-precision --weights fp8 "
                       "--compute fp8";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --hw a100-sxm-80g,h100-sxm", base);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    if (!strstr(out, "note: --keep-precision on a100-sxm-80g: ") ||
        !strstr(out, "a100-sxm-80g is not sized") || !strstr(out, "h100-sxm 1x") || strstr(out, "a100-sxm-80g 1x"))
        fail_msg("%.900s", out);
    snprintf(cmd, sizeof cmd, "%s --hw a100-sxm-80g", base);
    assert_int_equal(run_cli(cmd, out, sizeof out), 2);
    assert_non_null(strstr(out, "--keep-precision on a100-sxm-80g: "));
}

/* h27lab (review27 M2): size --conservative sizes only plans that carry a
 * band; fp8 alone (--keep-precision) on the bf16-only h100-sxm-splitwise
 * fit leaves none: exit 2, naming why; bf16 runs and notes the plans left
 * out (int8/fp8 ones). */
static void size_conservative_off_fit(void **state)
{
    (void)state;
    const char *base = "size --model llama2-70b --hw h100-sxm-splitwise --qps 1 --requests 60 "
                       "--prompt-len 500 --out-len 50 --ttft-p99 3 --tpot-p99 0.1 --conservative";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --weights fp8 --keep-precision", base);
    assert_int_equal(run_cli(cmd, out, sizeof out), 2);
    if (!strstr(out, "every plan searched lies off its fit") ||
        !strstr(out, "weights fp8 (fitted on weights bf16 only)"))
        fail_msg("%.600s", out);
    assert_int_equal(run_cli(base, out, sizeof out), 0);
    if (!strstr(out, "plans lie off the fit and were not sized"))
        fail_msg("%.600s", out);
}

/* tester20 F3: step, ops, prefill, simulate and size on a profile with nothing
 * measured (tpu-v4: datasheet peaks at efficiency 1.0) print size's note,
 * so its times are not compared with a measured profile's unaware; not on
 * a measured one (h100-sxm) nor under --ideal, which asks for the peaks. */
static void unmeasured_note_every_command(void **state)
{
    (void)state;
    static const char *const cmds[] = {
        "step --batch 1 --context 100", "ops --batch 1 --context 100", "prefill --tokens 100",
        /* 4 chips: a tpu-v4 replica is a slice, 2x2x1 the smallest (F7) */
        "simulate --chips 4 --qps 1 --requests 20 --prompt-len 100 --out-len 5",
        /* h27lab: size said it only beside a measured profile (issue 14 carried) */
        "size --qps 1 --requests 50 --prompt-len 100 --out-len 5 --ttft-p99 2 --tpot-p99 0.1"};
    static const char *const runs[][2] = {
        {"tpu-v4", ""}, {"h100-sxm", ""}, {"tpu-v4", " --ideal"}};
    char cmd[512];
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++)
        for (int r = 0; r < 3; r++) {
            snprintf(cmd, sizeof cmd, "%s --model llama3-8b --hw %s%s", cmds[i], runs[r][0],
                     runs[r][1]);
            assert_int_equal(run_cli(cmd, out, sizeof out), 0);
            if ((strstr(out, "note: tpu-v4 has nothing measured (no kernel or efficiency "
                             "tables): its times are estimated from datasheet peaks") != NULL) !=
                (r == 0))
                fail_msg("%s: %.600s", cmd, out);
        }
}

/* Tester10 #1: step --chips N without a plan runs the plan simulate's
 * replicas run on an estimated profile too (h100-pcie as it was until stop
 * 27, tests/data/hw/h100-pcie-datasheet.lua: datasheet figures, nothing
 * measured), its collectives included: llama3-70b on 2 H100 PCIe
 * at batch 1 equals step --tp 2 (same function, 1e-12), and its 160
 * AllReduces of 16 KiB take the alpha-beta model's one-shot, max(2 us,
 * 16384 / (12 x 2.5e10)) = 2 us each (its ici_latency 2e-6;
 * comm.h switch; 2 x 2 us before stop 24's one-shot) = 0.32 ms; before, the
 * step was formula (1) over 2 fully sharded chips, no collectives.  The
 * same for prefill --chips 2. */
#define PCIE_DATASHEET RL_SRCDIR "/tests/data/hw/h100-pcie-datasheet.lua"

/* tester20 F3, the ranking half (stop 27): h100-pcie is timed by h100-sxm's
 * measured tables moved to its datasheet figures (a what-if, mode
 * estimated), not by its datasheet peaks.  llama3-8b, batch 8, context
 * 2048, fp8 weights, KV and compute: the measured h100-sxm step 5.086 ms;
 * h100-pcie at its peaks (the fixture of the preset as it was) read 4.289
 * ms, faster than the measured SXM, so size ranked it ahead; now 6.824 ms
 * (figures of this commit, rounded; the test checks the order, and that
 * the PCIe card is slower than its own roofline and the SXM, not the
 * figures).  The run reads `estimated`, engine trtllm with a table time
 * share of 0 (every time moved off the chip measured), its engine_source says "scaled what-if" of the
 * h100_sxm tables, and its note names h100-sxm's measurements. */
static void h100_pcie_ranks_behind_sxm(void **state)
{
    (void)state;
    const char *tail = " --batch 8 --context 2048 --weights fp8 --kv fp8 --compute fp8 "
                       "--format json";
    char cmd[512];
    double t[3];
    const char *const hw[] = {"h100-sxm", "h100-pcie", PCIE_DATASHEET};
    for (int i = 0; i < 3; i++) {
        snprintf(cmd, sizeof cmd, "step --model llama3-8b --hw %s%s", hw[i], tail);
        cJSON *j = run_cli_json(cmd, out, sizeof out);
        t[i] = num(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0), "step_s");
        if (i == 1) {
            assert_string_equal(cJSON_GetObjectItem(j, "mode")->valuestring, "estimated");
            assert_string_equal(cJSON_GetObjectItem(j, "engine")->valuestring, "trtllm");
            /* nothing measured on a PCIe card: no table time (share 0.9+
             * before, its rows `measured`; ktable.h rl_provenance_moved) */
            assert_true(num(j, "table_time_share") == 0);
            const char *src = cJSON_GetObjectItem(j, "engine_source")->valuestring;
            assert_non_null(strstr(src, "scaled what-if"));
            assert_non_null(strstr(src, "systems/data/h100_sxm"));
        }
        cJSON_Delete(j);
    }
    assert_true(t[1] > t[0]); /* the PCIe card behind the measured SXM */
    assert_true(t[1] > t[2]); /* and behind its own peaks */
    /* the old preset's order, the finding (t[2] < t[0]), held until
     * tester44 F5: h100-sxm's fp8 GEMMs now take the faster block-scaled
     * rows, 4.259 ms, below the PCIe datasheet's 4.552 ms */
    snprintf(cmd, sizeof cmd, "step --model llama3-8b --hw h100-pcie --batch 8 --context 2048");
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, "changes the chip: h100-sxm's measurements time it"));
    assert_null(strstr(out, "has nothing measured"));
}
static void step_chips_plan_on_estimated(void **state)
{
    (void)state;
    /* run_cli_json: its stderr note is not JSON */
    cJSON *a = run_cli_json("step --model llama3-70b --hw " PCIE_DATASHEET " --chips 2 --batch 1 "
                            "--context 2048 --format json", out, sizeof out);
    cJSON *b = run_cli_json("step --model llama3-70b --hw " PCIE_DATASHEET " --tp 2 --batch 1 "
                            "--context 2048 --format json", out, sizeof out);
    assert_string_equal(cJSON_GetObjectItem(a, "sharding")->valuestring, "tp2");
    const cJSON *ra = cJSON_GetArrayItem(cJSON_GetObjectItem(a, "rows"), 0);
    const cJSON *rb = cJSON_GetArrayItem(cJSON_GetObjectItem(b, "rows"), 0);
    assert_rel(num(ra, "step_s"), num(rb, "step_s"), 1e-12);
    assert_rel(num(ra, "comm_s"), 160 * 2e-6, 1e-9);
    cJSON_Delete(a);
    cJSON_Delete(b);
    a = run_cli_json("prefill --model llama3-70b --hw " PCIE_DATASHEET " --chips 2 --tokens 512 "
                     "--format json", out, sizeof out);
    assert_non_null(strstr(cJSON_GetObjectItem(a, "communication")->valuestring, "tp2"));
    cJSON_Delete(a);
}

/* Item 3 of issue 12: in calibrated mode `step --chips 8` runs tp8 and says
 * so, with its collectives; --ideal keeps formula (1) without them; `ops
 * --tp` lists the communication operators; ops refuses a pipeline. */
static void tp_in_calibrated_mode(void **state)
{
    (void)state;
    cJSON *j = run_json("step --model llama3-70b --hw h100-sxm --tp 8 --batch 1 --context 4096 "
                        "--format json");
    assert_string_equal(cJSON_GetObjectItem(j, "mode")->valuestring, "calibrated");
    assert_string_equal(cJSON_GetObjectItem(j, "sharding")->valuestring, "tp8");
    const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0);
    /* 160 AllReduces of 16384 bytes on 8 H100 under the default engine
     * trtllm: TensorRT-LLM's own AllReduce (strategy AUTO) measured 0.003559
     * ms (h100-sxm.lua, AIConfigurator custom_allreduce_perf; collectives.h);
     * NCCL's 0.01844 ms was charged before (tester10 #2) */
    assert_rel(num(row, "comm_s"), 160 * 3.559e-6, 1e-3);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(j, "collectives")), 2);
    const cJSON *coll = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "collectives"), 0);
    assert_string_equal(cJSON_GetObjectItem(coll, "impl")->valuestring, "trtllm");
    cJSON_Delete(j);
    assert_int_equal(run_cli("step --model llama3-70b --hw h100-sxm --chips 8 --context 4096", out,
                             sizeof out), 0);
    assert_non_null(strstr(out, "run tensor parallel over them (tp8"));
    assert_non_null(strstr(out, "tp8"));
    assert_non_null(strstr(out, "collectives:"));
    /* tester5 #12a: DeepSeek-V3 on 8 H200 at batch 64 is mode estimated;
     * the plan's note names the flag, not a calibrated mode */
    assert_int_equal(run_cli("step --model deepseek-v3 --hw h200 --chips 8 --batch 64 --context "
                             "4096 --weights fp8 --compute fp8 --format json", out, sizeof out), 0);
    assert_non_null(strstr(out, "\"mode\":\t\"estimated\""));
    assert_non_null(strstr(out, "note: without --ideal: 8 chips without a plan run tensor"));
    assert_null(strstr(out, "calibrated mode"));
    j = run_json("step --model llama3-70b --hw h100-sxm --chips 8 --context 4096 --ideal "
                 "--format json");
    assert_null(cJSON_GetObjectItem(j, "collectives"));
    cJSON_Delete(j);
    j = run_json("ops --model llama3-70b --hw h100-sxm --tp 8 --batch 1 --context 4096 "
                 "--set hw.collectives.impl=nccl --format json");
    /* NCCL's rows named: 18.98 us measured at 16 KiB, 18.44 us at 32 KiB */
    assert_rel(num(j, "comm_s"), 160 * 1.844e-5, 1e-3);
    /* one provenance for one lookup (tester3 item 11): NCCL's 16 KiB
     * AllReduce, capped by the envelope, is interpolated in the op table and
     * in the collectives table, whose fabric is h100-sxm's NVLink */
    const cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "collectives"), 0);
    assert_non_null(strstr(cJSON_GetObjectItem(c, "timed_by")->valuestring,
                           "measured, interpolated"));
    assert_string_equal(cJSON_GetObjectItem(c, "fabric")->valuestring, "nvlink");
    /* review41 F1: vLLM's 6 MiB AllReduce on 2 A100s lies between the
     * measured 2 and 8 MiB, extrapolated toward vLLM's custom-AllReduce
     * switch at 8 MiB (test_comm vllm_switch_not_crossed): timed_by says
     * so, not "outside the measured sizes" (768 rows x 4096 x 2 B = 6 MiB) */
    cJSON *v = json2("step --model llama3-8b --hw a100-sxm-80g --tp 2 --engine vllm --batch "
                     "768 --context 128 --format json", "");
    const cJSON *v0 = cJSON_GetArrayItem(cJSON_GetObjectItem(v, "collectives"), 0);
    assert_rel(num(v0, "bytes"), 6291456, 1e-12);
    assert_string_equal(cJSON_GetObjectItem(v0, "timed_by")->valuestring,
                        "measured, extrapolated (inside the measured sizes, from the nearest sizes "
                        "of the same algorithm toward the engine's algorithm switch at 8388608 B)");
    cJSON_Delete(v);
    const cJSON *op, *ops = cJSON_GetObjectItem(j, "rows");
    int seen = 0;
    cJSON_ArrayForEach(op, ops)
        if (strcmp(cJSON_GetObjectItem(op, "op")->valuestring,
                   cJSON_GetObjectItem(c, "what")->valuestring) == 0) {
            assert_string_equal(cJSON_GetObjectItem(op, "provenance")->valuestring, "interpolated");
            seen = 1;
        }
    assert_true(seen);
    cJSON_Delete(j);
    j = run_json("prefill --model llama3-70b --hw h100-sxm --tp 8 --tokens 1024 --format json");
    assert_true(strstr(cJSON_GetObjectItem(j, "communication")->valuestring, "tp8") != NULL);
    cJSON_Delete(j);
    assert_int_equal(run_cli("ops --model llama3-70b --hw h100-sxm --tp 4 --pp 2 --context 8",
                             out, sizeof out), 2);
    assert_non_null(strstr(out, "takes no option"));
}

/* h31audit finding 10a: step --tp's rows count their operators by
 * provenance as the one-chip rows do, collectives included as ops counts
 * them, so step --tp 8 and ops --tp 8 of the same decode step (llama3-70b,
 * h100-sxm, batch 8 at 4096) give the same counts, exactly (before: the
 * rows had no provenance); an estimated chip (tpu-v5e: no tables) has none. */
static void step_tp_rows_count_provenance(void **state)
{
    (void)state;
    static const char *const kinds[] = {"roofline", "measured", "interpolated", "extrapolated",
                                        "derived"};
    cJSON *o = run_json("ops --model llama3-70b --hw h100-sxm --tp 8 --batch 8 --context 4096 "
                        "--format json");
    cJSON *s = run_json("step --model llama3-70b --hw h100-sxm --tp 8 --batch 8 --context 4096 "
                        "--format json");
    const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(s, "rows"), 0);
    const cJSON *po = cJSON_GetObjectItem(o, "provenance"), *ps = cJSON_GetObjectItem(row, "provenance");
    assert_non_null(ps);
    assert_rel(num(row, "step_s"), num(o, "step_s"), 1e-12); /* the same step */
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        assert_int_equal((int)num(ps, kinds[k]), (int)num(po, kinds[k]));
    assert_true(num(ps, "measured") >= 2); /* the two AllReduces, from NCCL's table */
    cJSON_Delete(o);
    cJSON_Delete(s);
    s = run_json_noted("step --model llama3-70b --hw tpu-v5e --tp 8 --batch 8 --context 4096 "
                       "--format json", "has nothing measured");
    row = cJSON_GetArrayItem(cJSON_GetObjectItem(s, "rows"), 0);
    assert_null(cJSON_GetObjectItem(row, "provenance"));
    cJSON_Delete(s);
}

/* Tester item 2: the default --sharding 1d, or an --x the note calls
 * ignored, leave `step --chips 8` the tp8 plan it is without them (10.03 ms
 * at B = 16 when this was written; compared here, not pinned). */
static void default_flags_keep_plan(void **state)
{
    (void)state;
    static const char *base = "step --model llama3-70b --hw h100-sxm --chips 8 --context 4096 "
                              "--batch 16 --format json";
    static const char *extra[] = {"--sharding 1d", "--x 2"};
    cJSON *ref = run_cli_json(base, out, sizeof out);
    const cJSON *r0 = cJSON_GetArrayItem(cJSON_GetObjectItem(ref, "rows"), 0);
    assert_string_equal(cJSON_GetObjectItem(ref, "sharding")->valuestring, "tp8");
    for (size_t i = 0; i < sizeof extra / sizeof *extra; i++) {
        char args[512];
        snprintf(args, sizeof args, "%s %s", base, extra[i]);
        cJSON *j = run_cli_json(args, out, sizeof out);
        assert_string_equal(cJSON_GetObjectItem(j, "sharding")->valuestring, "tp8");
        const cJSON *r = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0);
        assert_true(num(r, "step_s") == num(r0, "step_s"));
        assert_true(cJSON_IsTrue(cJSON_GetObjectItem(r, "fits")));
        cJSON_Delete(j);
    }
    cJSON_Delete(ref);
}

/* Tester item 11: --mfu scales compute only; `ops --chips 8` on h100-sxm
 * keeps calibrated mode's tp8 plan and its AllReduces (92.6 ms for 8192
 * prefill tokens of llama3-70b when this was written: compared with the
 * run without --mfu, not pinned), in mode "mfu". */
static void mfu_keeps_collectives(void **state)
{
    (void)state;
    static const char *base = "ops --model llama3-70b --hw h100-sxm --chips 8 --phase prefill "
                              "--tokens 8192 --format json";
    char args[512];
    cJSON *cal = run_cli_json(base, out, sizeof out);
    snprintf(args, sizeof args, "%s --mfu 0.4", base);
    cJSON *mfu = run_cli_json(args, out, sizeof out);
    assert_string_equal(cJSON_GetObjectItem(mfu, "mode")->valuestring, "mfu");
    assert_true(num(cal, "comm_s") > 0);
    assert_rel(num(mfu, "comm_s"), num(cal, "comm_s"), 1e-9);
    assert_non_null(strstr(cJSON_GetObjectItem(mfu, "communication")->valuestring, "tp8"));
    /* tester10 #9: the engine's source says its tables are not used */
    assert_non_null(strstr(cJSON_GetObjectItem(mfu, "engine_source")->valuestring,
                           "its kernel tables are not used: --mfu"));
    assert_null(strstr(cJSON_GetObjectItem(cal, "engine_source")->valuestring, "not used"));
    cJSON_Delete(cal);
    cJSON_Delete(mfu);
    /* tester71: an engine of fitted costs has no kernel tables to leave
     * unused (h100-sxm-splitwise's engine_source read "its kernel tables
     * are not used ... the tables: roofline fit on ..."), and one chip
     * keeps no collectives */
    static const struct {
        const char *args, *said, *unsaid;
    } runs[] = {{"ops --model llama2-70b --hw h100-sxm-splitwise --chips 8 --batch 8 "
                 "--context 512 --mfu 0.4 --format json",
                 "its fitted per-step costs are not used: --mfu", "kernel tables"},
                {"prefill --model llama3-8b --hw h100-sxm --tokens 512 --mfu 0.4 --format json",
                 "kept: nothing of the engine's (one chip: no collectives)", "AllReduce"}};
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        cJSON *j = run_cli_json(runs[i].args, out, sizeof out);
        const char *src = cJSON_GetObjectItem(j, "engine_source")->valuestring;
        if (!strstr(src, runs[i].said) || strstr(src, runs[i].unsaid))
            fail_msg("%s: engine_source '%s'", runs[i].args, src);
        cJSON_Delete(j);
    }
}

/* Tester item 8: with a fitted profile the breakdown columns are the
 * unfitted (here estimated: h100-sxm-splitwise carries h100-sxm's
 * efficiency tables, measured_on "h200", borrowed) step's terms, and the
 * "fitted" line says so instead of calling them formula (1)'s. */
static void fitted_breakdown_label(void **state)
{
    (void)state;
    cJSON *j = run_cli_json("step --model llama2-70b --hw h100-sxm-splitwise --chips 4 "
                            "--context 2048 --format json", out, sizeof out);
    const char *note = cJSON_GetObjectItem(j, "fitted")->valuestring;
    assert_non_null(strstr(note, "are the estimated step's roofline terms, comm_s its collectives "
                                 "at comm_eff 1 (held) of the chip's measured NCCL time, "
                                 "kernel_excess_s the fitted step_s above them, of it tp_excess_s"));
    assert_null(strstr(note, "formula (1)"));
    /* the breakdown holds on the fitted step too (step_columns_add_up) */
    const cJSON *r = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0);
    assert_rel(num(r, "kv_load_s") + num(r, "attention_compute_s") +
                   fmax(num(r, "weight_load_s"), num(r, "compute_s")) + num(r, "comm_s") +
                   num(r, "kernel_excess_s"),
               num(r, "step_s"), 1e-12);
    cJSON_Delete(j);
}

/* tester22 F6: a fitted profile's comm_s is the collectives at the chip's
 * measured NCCL time, not the TP cost the rows add beyond it.  Llama-2-70B
 * TP8 decode, context 2048 on h100-sxm-splitwise: 160 AllReduces of 16 KB,
 * 18.4 us each in h100-sxm's NCCL table (8 GPUs; 2.95 ms at batch 1); was
 * 17.3 ms (comm_eff 0.17).  What the fit adds for TP (tp_excess 4.87x
 * that time: the shipped fit, calib/fit_splitwise.sh) is device time, and
 * a step is max(host, device) + seq_s B (enginecost.h (E)), so
 * tp_excess_s is the step time it adds (review29 M2): at batch 1 the host
 * floor sets the step (29.90 ms, decode_step_s + decode_seq_s) and it adds
 * nothing, 0 (was 14.35 ms); at batch 64 it is the step less the same
 * step with tp_excess = 0 (--set), 51.63 - 47.31 = 4.32 ms (stop-42
 * profile; 51.65 - 47.33 = 4.31 before), not tp_excess x comm_s = 19.8 ms.  Tolerances: 1% on the table time, 0.5% on the
 * fitted steps (a refit moves them), 1e-9 on the difference (the same
 * arithmetic). */
static void fitted_comm_is_the_collectives(void **state)
{
    (void)state;
    const char *cmd = "step --model llama2-70b --hw h100-sxm-splitwise --chips 8 --context 2048 "
                      "--batch 1,64 --format json";
    cJSON *j = run_cli_json(cmd, out, sizeof out);
    const cJSON *one = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0),
                *b64 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 1);
    assert_rel(num(one, "comm_s"), 2.95e-3, 0.01);
    assert_rel(num(one, "step_s"), 29.90e-3, 0.005);
    assert_true(num(one, "tp_excess_s") == 0);
    char none[512];
    snprintf(none, sizeof none, "%s --set hw.engines.splitwise.costs.tp_excess=0", cmd);
    cJSON *j0 = run_cli_json(none, out, sizeof out);
    const cJSON *one0 = cJSON_GetArrayItem(cJSON_GetObjectItem(j0, "rows"), 0),
                *b640 = cJSON_GetArrayItem(cJSON_GetObjectItem(j0, "rows"), 1);
    assert_rel(num(one0, "step_s"), num(one, "step_s"), 1e-12); /* the host floor */
    assert_rel(num(b64, "step_s"), 51.63e-3, 0.005);
    assert_rel(num(b640, "step_s"), 47.31e-3, 0.005);
    assert_rel(num(b64, "tp_excess_s"), num(b64, "step_s") - num(b640, "step_s"), 1e-9);
    assert_true(num(b64, "tp_excess_s") < 4.87 * num(b64, "comm_s") / 2);
    assert_true(num(b64, "tp_excess_s") <= num(b64, "kernel_excess_s"));
    /* comm_eff is held, not fitted (review29 L1), and tp_excess named */
    const char *comm = cJSON_GetObjectItem(j, "communication")->valuestring;
    assert_non_null(strstr(comm, "the collectives at comm_eff 1 (held) of the chip's measured "
                                 "NCCL time, plus tp_excess 4.87 (fitted) x that time"));
    assert_null(strstr(comm, "fitted comm_eff"));
    cJSON_Delete(j0);
    cJSON_Delete(j);
}

/* tester29 F1, F2: a fitted profile's --tp plan rows (step's shard path,
 * e2e.h rl_e2e_fitted_shard) carry tp_excess_s as the 1D rows do: the step
 * less the same step at tp_excess 0 (--set), to 1e-9 (the same
 * arithmetic); it was absent.  Llama-2-70B on h100-sxm-splitwise, context
 * 2048: tp4 at batch 64 is device-bound (54.92 ms against the 29.9 ms
 * host floor), so it is not 0 (7.59 ms).  And tp_excess (fitted on TP
 * collectives only, enginecost.h) no longer scales a pipeline's stage
 * sends: tp4 pp2 at batch 128 is two micro-batches of 64 in one pass, the
 * tp4 batch-64 step plus its one stage P2P (4.66 us, the collectives row:
 * hidden state and residual, 2,097,152 B; 2.33 us before tester34 F2)
 * at comm_eff 1 (held), to 1e-9 s; it read the step plus 2.33 us x (1 +
 * tp_excess 4.86) = 13.7 us.  Since stop 31 (h31stage) that pass is
 * scaled whole by the stages' factor (e2e.c, shard.h
 * rl_shard_stage_pass: the last stage's LM head paces the 2
 * micro-batches), 1 + (Z - E) / T = 1 + (47.094 - 0.459) us / 18.9758 ms
 * = 1.002458 (the calibrated op list of a TP4 chip at B = 64 and its
 * collectives; 1 + (46.566 - 0.184) us / 18.7647 ms = 1.002472 before
 * fixFL ran the norms, residual adds and the embedding's write whole on
 * each of the 4 chips, ops.c tp_copies), 1e-6. */
static void fitted_tp_rows_carry_tp_excess(void **state)
{
    (void)state;
    const char *base = "step --model llama2-70b --hw h100-sxm-splitwise --context 2048 "
                       "--format json";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --chips 8 --tp 4 --pp 2 --batch 128", base);
    cJSON *pp = run_cli_json(cmd, out, sizeof out);
    snprintf(cmd, sizeof cmd, "%s --chips 8 --tp 4 --pp 2 --batch 128 "
             "--set hw.engines.splitwise.costs.tp_excess=0", base);
    cJSON *pp0 = run_cli_json(cmd, out, sizeof out);
    snprintf(cmd, sizeof cmd, "%s --chips 4 --tp 4 --batch 64", base);
    cJSON *tp = run_cli_json(cmd, out, sizeof out);
    const cJSON *r = cJSON_GetArrayItem(cJSON_GetObjectItem(pp, "rows"), 0),
                *r0 = cJSON_GetArrayItem(cJSON_GetObjectItem(pp0, "rows"), 0),
                *t = cJSON_GetArrayItem(cJSON_GetObjectItem(tp, "rows"), 0);
    assert_non_null(cJSON_GetObjectItem(t, "tp_excess_s"));
    assert_non_null(cJSON_GetObjectItem(r, "tp_excess_s"));
    assert_true(num(r, "tp_excess_s") > 1e-3);
    assert_true(fabs(num(r, "tp_excess_s") - (num(r, "step_s") - num(r0, "step_s"))) < 1e-9);
    assert_true(num(r, "tp_excess_s") <= num(r, "kernel_excess_s"));
    double sends = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(pp, "collectives"))
        if (!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(c, "what")), "stage P2P"))
            sends += num(c, "total_s");
    /* hidden state and residual, 2 x 64 x 8192 x 2 B = 2,097,152 B over
     * NVLink's 4.5e11 B/s (tester34 F2: one tensor, 2.33 us, before) */
    assert_rel(sends, 2097152.0 / 4.5e11, 1e-6);
    assert_rel(num(r, "step_s"), 1.002458 * (num(t, "step_s") + sends), 1e-6);
    cJSON_Delete(tp);
    cJSON_Delete(pp0);
    cJSON_Delete(pp);
}

/* h29tidy (stop 28's final read): pareto's fitted rows carry tp_excess_s
 * as step's do; the sweep computed it (rl_e2e_fitted_shard) and dropped
 * it.  Llama-2-70B on h100-sxm-splitwise, context 2048, 8 GPUs at batch
 * 64: the plan tp4 x2 is timed as `step --chips 4 --batch 32`, whose row
 * reads tp_excess_s 1.70 ms (device-bound: 40.18 ms against the 29.9 ms
 * host floor), so the pareto row's must be that figure, to 1e-12 s (the
 * same arithmetic).  A calibrated (unfitted) pareto has no such key. */
static void pareto_fitted_rows_carry_tp_excess(void **state)
{
    (void)state;
    cJSON *par = run_cli_json("pareto --model llama2-70b --hw h100-sxm-splitwise --chips 8 "
                              "--batch 64 --context 2048 --format json",
                              out, sizeof out);
    cJSON *st = run_cli_json("step --model llama2-70b --hw h100-sxm-splitwise --chips 4 "
                             "--batch 32 --context 2048 --format json",
                             out, sizeof out);
    const cJSON *r = NULL, *row;
    cJSON_ArrayForEach(row, cJSON_GetObjectItem(par, "rows"))
        if (!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(row, "layout")), "tp4 x2"))
            r = row;
    assert_non_null(r);
    const cJSON *t = cJSON_GetArrayItem(cJSON_GetObjectItem(st, "rows"), 0);
    assert_non_null(cJSON_GetObjectItem(r, "tp_excess_s"));
    assert_rel(num(t, "tp_excess_s"), 1.70e-3, 0.01);
    assert_true(fabs(num(r, "tp_excess_s") - num(t, "tp_excess_s")) < 1e-12);
    assert_true(num(r, "tp_excess_s") <= num(r, "kernel_excess_s"));
    cJSON *cal = run_cli_json("pareto --model llama3-8b --hw h100-sxm --chips 2 --batch 8 "
                              "--format json",
                              out, sizeof out);
    assert_null(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(cal, "rows"), 0),
                                    "tp_excess_s"));
    cJSON_Delete(cal);
    cJSON_Delete(st);
    cJSON_Delete(par);
}

/* review29 L5: mxfp4 is a weights format only (dtype.h), refused for
 * --act as for --kv and --compute (ops ran --act mxfp4 at 0.5 B an
 * activation), refused before any note on the run (step --kv mxfp4 said
 * "attention is derived" first), and size says that --weights without
 * --keep-precision is not what it searches (it sized gpt-oss --weights
 * mxfp4 in fp8 and int8 without a word). */
static void mxfp4_weights_only(void **state)
{
    (void)state;
    assert_int_equal(run_cli("ops --model llama3-8b --hw h100-sxm --act mxfp4 --batch 1 "
                             "--context 100", out, sizeof out), 2);
    assert_non_null(strstr(out, "act mxfp4: mxfp4 is a weights format only"));
    assert_int_equal(run_cli("step --model llama3-8b --hw h100-sxm --kv mxfp4 --context 100",
                             out, sizeof out), 2);
    assert_true(strncmp(out, "roofline step: kv mxfp4: mxfp4 is a weights format only", 55) == 0);
    assert_null(strstr(out, "note:"));
    assert_int_equal(run_cli("size --model llama3-8b --hw h100-sxm --qps 1 --prompt-len 100 "
                             "--out-len 10 --ttft-p99 1 --tpot-p99 0.05 --weights mxfp4 "
                             "--format json", out, sizeof out), 0);
    assert_non_null(strstr(out, "note: --weights mxfp4 ignored: without --keep-precision size "
                                "searches its own weights/KV/compute"));
}

/* tester31 F17, F13: info (CLI and Lua) refuses what step refuses
 * (rl_step_check_precision): --kv/--compute mxfp4 (info printed 34,816 B a
 * token for an mxfp4 KV cache), and weights x compute pairs no engine runs
 * (TensorRT-LLM's QuantAlgo: W8A8 int8 x int8, FP8, NVFP4, W4A8_QSERVE int4
 * x int8, W4A8_AWQ int4 x fp8, W4A8_NVFP4_FP8, W4A8_MXFP4_FP8): fp8 x int8,
 * int8 x fp8, fp4 x int8, int4 x fp4 are refused by step and info alike;
 * the W4A8 pairs still run. */
static void info_refuses_like_step(void **state)
{
    (void)state;
    static const char *const refused[][2] = {
        {"--kv mxfp4", "kv mxfp4: mxfp4 is a weights format only"},
        {"--compute mxfp4", "compute mxfp4: mxfp4 is a weights format only"},
        {"--weights fp8 --compute int8", "compute int8 with fp8 weights: no engine runs"},
        {"--weights int8 --compute fp8", "compute fp8 with int8 weights: no engine runs"},
        {"--weights fp4 --compute int8", "compute int8 with fp4 weights: no engine runs"},
        {"--weights int4 --compute fp4", "compute fp4 with int4 weights: no engine runs"},
    };
    char cmd[256];
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        snprintf(cmd, sizeof cmd, "info --model llama3-8b %s", refused[i][0]);
        if (run_cli(cmd, out, sizeof out) != 2 || !strstr(out, refused[i][1]))
            fail_msg("%s: '%s'", cmd, out);
        snprintf(cmd, sizeof cmd, "step --model llama3-8b --hw b200 --context 100 %s",
                 refused[i][0]);
        if (run_cli(cmd, out, sizeof out) != 2 || !strstr(out, refused[i][1]))
            fail_msg("%s: '%s'", cmd, out);
    }
    static const char *const runs[] = {"--weights int4 --compute int8", "--weights int4 --compute fp8",
                                       "--weights fp4 --compute fp8", "--weights mxfp4 --compute fp8",
                                       "--weights mxfp4 --compute fp4", "--weights int8 --compute bf16"};
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        snprintf(cmd, sizeof cmd, "step --model llama3-8b --hw b200 --context 100 %s", runs[i]);
        if (run_cli(cmd, out, sizeof out) != 0)
            fail_msg("%s: '%s'", cmd, out);
    }
    char lua[64];
    write_temp(lua, ".lua", "return roofline.info(\"llama3-8b\", {kv = \"mxfp4\"})");
    snprintf(cmd, sizeof cmd, "run %s", lua);
    int rc = run_cli(cmd, out, sizeof out);
    unlink(lua);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(out, "kv mxfp4: mxfp4 is a weights format only"));
}

/* tester29 F5: size searches a model's own checkpoint format: gpt-oss-120b
 * (quantized = "experts": MXFP4 experts, size.c precisions) at 2 req/s,
 * prompt 1000, output 200, TTFT p99 2 s, TPOT p99 50 ms on h100-sxm is one
 * chip in mxfp4 (cost 4.25, the chip's price; its p99s 55 ms and 6.8 ms,
 * as `--weights mxfp4 --keep-precision` gives them); without mxfp4 in the
 * search it recommended int8 on two chips (cost 8.5).  Tolerance: exact
 * (one chip's hourly price). */
static void size_tries_native_format(void **state)
{
    (void)state;
    cJSON *j = run_cli_json("size --model gpt-oss-120b --hw h100-sxm --qps 2 --prompt-len 1000 "
                            "--out-len 200 --ttft-p99 2 --tpot-p99 0.05 --format json",
                            out, sizeof out);
    const cJSON *best = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(best, "weights")), "mxfp4");
    assert_true(num(best, "cost") == 4.25);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(best, "meets")));
    cJSON_Delete(j);
}

/* tester29 F6: simulate on a fitted profile names how its costs time the
 * collectives as step does (enginecost.h rl_ec_comm_text: comm_eff 1 held,
 * tp_excess 4.87 fitted on h100-sxm-splitwise, calib/fit_splitwise.sh); it
 * said only "fitted engine costs ... + the replica plan's collectives".
 * shard's ideal-ranking note on a fitted profile says step --tp times a
 * fitted plan, not "one calibrated" (the profile has no tables). */
static void fitted_wording_simulate_shard(void **state)
{
    (void)state;
    cJSON *j = run_cli_json("simulate --model llama2-70b --hw h100-sxm-splitwise --chips 8 "
                            "--qps 1 --prompt-len 1000 --out-len 100 --requests 100 "
                            "--format json", out, sizeof out);
    const char *cost = cJSON_GetStringValue(cJSON_GetObjectItem(j, "step_cost"));
    assert_non_null(strstr(cost, "collectives at comm_eff 1 (held) of the chip's measured NCCL "
                                 "time, plus tp_excess 4.87 (fitted)"));
    /* stop 38 #7: fitted_outside as step's, null inside the fit (llama2-70b,
     * tp 8: what h100-sxm-splitwise was fitted on) */
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "fitted_outside")));
    cJSON_Delete(j);
    j = run_cli_json("simulate --model llama3-8b --hw h100-sxm-splitwise --qps 1 --prompt-len 500 "
                     "--out-len 50 --requests 100 --format json", out, sizeof out);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(j, "mode")), "estimated");
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(j, "fitted_outside")),
                        "model llama3-8b (fitted on llama2-70b only), tp 1 (fitted on tp 2-8)");
    cJSON_Delete(j);
    j = run_cli_json("shard --model llama2-70b --hw h100-sxm-splitwise --chips 8 --batch 16 "
                     "--context 1024 --format json", out, sizeof out);
    const char *note = cJSON_GetStringValue(cJSON_GetObjectItem(j, "mode_note"));
    assert_non_null(strstr(note, "not by its fitted engine costs"));
    assert_non_null(strstr(note, "step --tp N (1D plans) times one fitted"));
    cJSON_Delete(j);
}

/* Tester finding 13: a fitted step names its engine once (the fitted
 * engine's keys replace the run header's, no duplicate JSON keys). */
static void fitted_keys_once(void **state)
{
    (void)state;
    cJSON *j = run_cli_json("step --model llama2-70b --hw h100-sxm-splitwise --chips 4 "
                            "--context 2048 --batch 64 --format json", out, sizeof out);
    int engine = 0, source = 0;
    for (const cJSON *k = j->child; k; k = k->next) {
        engine += strcmp(k->string, "engine") == 0;
        source += strcmp(k->string, "engine_source") == 0;
    }
    assert_int_equal(engine, 1);
    assert_int_equal(source, 1);
    assert_string_equal(cJSON_GetObjectItem(j, "engine")->valuestring, "splitwise");
    cJSON_Delete(j);
}

/* Tester finding 6: on a fitted profile chunked_s is (E) per chunk too.  A
 * 1-token prompt is one chunk: the same prefill step as the unchunked one,
 * so chunked_s equals ttft_s (to rounding, 1e-9); 2048 tokens in chunks of
 * 256 are 8 steps, each paying the fitted per-step floor, so never faster
 * than the one-shot prefill (before: 5.0 ms against a 50.9 ms TTFT, the
 * unfitted op list). */
static void fitted_chunked_prefill(void **state)
{
    (void)state;
    cJSON *j = run_cli_json("prefill --model llama2-70b --hw h100-sxm-splitwise --chips 4 "
                            "--tokens 1,2048 --chunk 256 --format json", out, sizeof out);
    const cJSON *rows = cJSON_GetObjectItem(j, "rows");
    const cJSON *one = cJSON_GetArrayItem(rows, 0), *long_ = cJSON_GetArrayItem(rows, 1);
    assert_rel(num(one, "chunked_s"), num(one, "ttft_s"), 1e-9);
    assert_true(num(long_, "chunked_s") >= num(long_, "ttft_s"));
    cJSON_Delete(j);
}

/* Tester 4 finding 2: a fitted profile's costs model TP over the chips, so
 * an explicit 1D --tp equal to --chips is that layout: step and prefill give
 * the no-plan result to the digit (1e-12), mode fitted (before: --tp 2 read
 * 24.17 ms estimated against 37.14 ms fitted, no note).  A plan that is
 * another layout (kv=seq: shard.h rl_shard_plan_is_tp_over) keeps the
 * unfitted step and says so; naming the engines' split (replicate, step's
 * default outside --ideal since stop 31) or the plan default's (batch) is
 * the same plan, the fitted costs timing no split. */
static void fitted_tp_equal_chips(void **state)
{
    (void)state;
    static const char *const cmds[] = {
        "step --model llama2-70b --hw h100-sxm-splitwise --chips 2 --batch 1 --context 1024 "
        "--set model.max_context=16384 --format json",
        "prefill --model llama2-70b --hw h100-sxm-splitwise --chips 2 --tokens 1000 "
        "--set model.max_context=16384 --format json"};
    static const char *const key[] = {"step_s", "ttft_s"};
    char cmd[512];
    for (int i = 0; i < 2; i++) {
        cJSON *plain = json2(cmds[i], "");
        cJSON *tp = json2(cmds[i], " --tp 2");
        assert_string_equal(cJSON_GetObjectItem(tp, "mode")->valuestring, "fitted");
        assert_rel(num(cJSON_GetArrayItem(cJSON_GetObjectItem(tp, "rows"), 0), key[i]),
                   num(cJSON_GetArrayItem(cJSON_GetObjectItem(plain, "rows"), 0), key[i]), 1e-12);
        cJSON_Delete(plain);
        cJSON_Delete(tp);
    }
    snprintf(cmd, sizeof cmd, "%s --tp 2 --kv-split seq", cmds[0]);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, "fitted engine costs apply to tensor parallelism over the chips"));
    for (int k = 0; k < 2; k++) {
        snprintf(cmd, sizeof cmd, "%s --tp 2 --kv-split %s", cmds[0], k ? "batch" : "replicate");
        assert_int_equal(run_cli(cmd, out, sizeof out), 0);
        assert_null(strstr(out, "fitted engine costs apply to tensor parallelism over the chips"));
        assert_non_null(strstr(out, "\"fitted\""));
    }
}

/* Tester 4 finding 9: one label and one AllReduce size for one computation.
 *  - tpu-v5e (datasheet figures, nothing measured): step, shard and pareto
 *    all read `estimated` (shard and pareto read `ideal`), and shard says
 *    what times its collectives.
 *  - llama3-70b tp8 B=64 with fp8 GEMMs: the AllReduce moves bf16
 *    activations, 64 x 8192 x 2 = 1,048,576 B, under --ideal as in the
 *    calibrated step (shard.h rl_shard_moved_dtype; --ideal sized it at
 *    fp8's 524,288 B). */
static void mode_and_allreduce_agree(void **state)
{
    (void)state;
    static const char *const cmds[] = {
        "step --model llama3-70b --hw tpu-v5e --chips 16 --batch 32 --context 4096 --format json",
        "shard --model llama3-70b --hw tpu-v5e --chips 16 --batch 32 --context 4096 --format json",
        "pareto --model llama3-70b --hw tpu-v5e --chips 16 --batch 32 --context 4096 "
        "--format json"};
    for (int i = 0; i < 3; i++) {
        cJSON *j = run_cli_json(cmds[i], out, sizeof out);
        assert_string_equal(cJSON_GetObjectItem(j, "mode")->valuestring, "estimated");
        assert_non_null(strstr(cJSON_GetObjectItem(j, "communication")->valuestring,
                               i ? "datasheet link figures" : ""));
        cJSON_Delete(j);
    }
    cJSON *j = run_cli_json("shard --model llama3-70b --hw h100-sxm --chips 8 --batch 32 "
                            "--context 4096 --format json", out, sizeof out);
    assert_non_null(strstr(cJSON_GetObjectItem(j, "communication")->valuestring,
                           "alpha-beta model at the datasheet link figures"));
    cJSON_Delete(j);
    const char *base = "step --model llama3-70b --hw h100-sxm --chips 8 --batch 64 --context 500 "
                       "--weights fp8 --compute fp8 --format json";
    for (int ideal = 0; ideal < 2; ideal++) {
        j = json2(base, ideal ? " --tp 8 --ideal" : " --tp 8"); /* fixUE #1: batch 64 alone runs tp4 x2 */
        const cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "collectives"), 0);
        assert_string_equal(cJSON_GetObjectItem(c, "collective")->valuestring, "AllReduce");
        assert_true(num(c, "bytes") == 1048576.0);
        cJSON_Delete(j);
    }
}

/* The first generate-phase collective row of `cmd`'s JSON (*j: the
 * document, freed by the caller). */
static const cJSON *first_coll(const char *cmd, cJSON **j)
{
    *j = run_cli_json(cmd, out, sizeof out);
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(*j, "collectives"))
        if (strcmp(cJSON_GetObjectItem(c, "phase")->valuestring, "generate") == 0)
            return c;
    fail_msg("%s: no generate collective", cmd);
    return NULL;
}

/* tester12 #6, #10: ideal mode times collectives by the alpha-beta model
 * at the datasheet link figures, whatever the chip measured (comm.h).
 *  - shard (mode ideal, engine none) and step --tp 8 --ideal time the same
 *    tp8 AllReduce alike: llama3-70b B=64, 64 x 8192 x 2 = 1048576 B over 8
 *    H100 (h100-sxm.lua: 18 links x 2.5e10 B/s, 2 us a hop, nvls): the
 *    in-switch AllReduce max(2 x 2e-6, 1048576 x 9/8 / 4.5e11 = 2.62e-6) =
 *    4e-6 s (two-shot 4.0780e-6, one-shot 16.31e-6; comm.h) (1e-4), impl
 *    none; shard read TensorRT-LLM's 25.96 us and step NCCL's 25.4 us
 *    before stop 23, both the two-shot's 4.078 us at stop 23.
 *  - gb200 tp64 (no row over 64 GPUs; tp72 until stop 41, which does not
 *    divide llama3-405b's 128 heads: shard.h rl_shard_tp_check): --ideal in
 *    the switch max(2 x 2e-6, 2097152 x 65/64 / 9e11 = 2.37e-6) = 4e-6 s
 *    (1e-4), below the calibrated run, whose
 *    model is raised to TensorRT-LLM's measured 4-GPU time and says so
 *    (ideal read 27.5 us, NCCL's 4-GPU floor, calibrated 14.6 us, both
 *    labelled "alpha-beta model, none"). */
static void ideal_collectives_are_the_model(void **state)
{
    (void)state;
    cJSON *a, *b;
    const cJSON *sa = first_coll("shard --model llama3-70b --hw h100-sxm --chips 8 --batch 64 "
                                 "--context 4096 --format json", &a);
    const cJSON *sb = first_coll("step --model llama3-70b --hw h100-sxm --chips 8 --tp 8 --batch 64 "
                                 "--context 4096 --ideal --format json", &b);
    assert_rel(num(sa, "each_s"), 4e-6, 1e-4);
    assert_rel(num(sb, "each_s"), num(sa, "each_s"), 1e-12);
    assert_string_equal(cJSON_GetObjectItem(sa, "impl")->valuestring, "none");
    assert_string_equal(cJSON_GetObjectItem(sb, "impl")->valuestring, "none");
    cJSON_Delete(a);
    cJSON_Delete(b);
    const char *gb = "step --model llama3-405b --hw gb200 --chips 64 --tp 64 --batch 64 "
                     "--context 8192 --weights fp8 --compute fp8 --format json";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --ideal", gb);
    const cJSON *cal = first_coll(gb, &a), *ide = first_coll(cmd, &b);
    assert_rel(num(ide, "each_s"), 4e-6, 1e-4);
    assert_true(num(ide, "each_s") < num(cal, "each_s"));
    assert_string_equal(cJSON_GetObjectItem(cal, "impl")->valuestring, "trtllm");
    assert_non_null(strstr(cJSON_GetObjectItem(cal, "timed_by")->valuestring,
                           "raised to the measured 4-GPU time"));
    assert_string_equal(cJSON_GetObjectItem(ide, "timed_by")->valuestring, "alpha-beta model");
    cJSON_Delete(a);
    cJSON_Delete(b);
}

/* Tester 4 finding 9: one table-share rule for one prefill.  llama3-70b fp8
 * tp8 under vLLM, 2000 tokens: `prefill` and `ops --phase prefill` give the
 * same share (1e-12; 0.549, the step's own) and the same mode, calibrated;
 * vLLM's 64 ms prefill dispatch (80 layers x 0.8 ms) stays in ttft_s but
 * outside the share (prefill read 0.29, estimated). */
static void prefill_share_as_ops(void **state)
{
    (void)state;
    const char *args = " --model llama3-70b --hw h100-sxm --chips 8 --weights fp8 --compute fp8 "
                       "--engine vllm --tokens 2000 --format json";
    cJSON *pre = json2("prefill", args);
    cJSON *ops = json2("ops --phase prefill", args);
    assert_rel(num(pre, "table_time_share"), num(ops, "table_time_share"), 1e-12);
    assert_string_equal(cJSON_GetObjectItem(pre, "mode")->valuestring, "calibrated");
    assert_string_equal(cJSON_GetObjectItem(ops, "mode")->valuestring, "calibrated");
    const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(pre, "rows"), 0);
    assert_rel(num(row, "prefill_dispatch_s"), 0.064, 1e-12);
    assert_rel(num(row, "ttft_s"), num(ops, "step_s") + 0.064, 1e-12);
    cJSON_Delete(pre);
    cJSON_Delete(ops);
}

/* fixRC #3: ops's header shows the --batch asked: --phase prefill --batch
 * 4 read batch 0 (the decode batch), the 4 only in prefill_seqs; now batch
 * 4 = prefill_seqs 4 (the sequences of the step), the table too.  --phase
 * mixed keeps batch the decode batch (prefill_seqs 1, its one chunk). */
static void ops_prefill_batch_shown(void **state)
{
    (void)state;
    const char *args = " --model llama3-8b --hw h100-sxm --batch 4 --tokens 128";
    cJSON *p = json2("ops --phase prefill --format json", args);
    assert_true(num(p, "batch") == 4 && num(p, "prefill_seqs") == 4);
    cJSON_Delete(p);
    p = json2("ops --phase mixed --context 512 --format json", args);
    assert_true(num(p, "batch") == 4 && num(p, "prefill_seqs") == 1);
    cJSON_Delete(p);
    assert_int_equal(cli2("ops --phase prefill --format table", args), 0);
    assert_non_null(strstr(out, "\nbatch                        4\n"));
}

/* fixRC #4: shard's header read `engine none` (its plans are timed at the
 * peaks) while fits follow TensorRT-LLM's memory rule (memory_source); it
 * now names both: memory_engine trtllm right after engine none on h100-sxm,
 * none on tpu-v5e (no engine, no rule: memory_rule none). */
static void shard_names_memory_engine(void **state)
{
    (void)state;
    static const char *const hw[] = {"h100-sxm", "tpu-v5e"}, *const want[] = {"trtllm", "none"};
    for (int i = 0; i < 2; i++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "shard --model llama3-70b --hw %s --chips 8 --context 4096 "
                 "--format json", hw[i]);
        cJSON *j = run_json(cmd);
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, "engine");
        assert_non_null(e);
        assert_string_equal(e->valuestring, "none");
        assert_non_null(e->next);
        assert_string_equal(e->next->string, "memory_engine");
        assert_string_equal(e->next->valuestring, want[i]);
        cJSON_Delete(j);
    }
}

/* Tester 4 finding 10: step, shard, ops and prefill refuse the chip counts
 * pareto refuses on a torus chip, with pareto's message (exit 2): tpu-v5p
 * --chips 3 and 1000000 (not 4, 8, ..., 4096 or a multiple of its 6144-chip
 * domain; 1000000 read a 0.29 us llama3-405b step).  One chip and GPU counts
 * stay allowed (llama3-8b on h100-sxm --chips 3 runs tp1 replicas). */
static void torus_slices_checked(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "step --model llama3-405b --hw tpu-v5p --chips 1000000 --batch 1 --context 1",
        "shard --model llama3-70b --hw tpu-v5p --chips 3 --batch 1 --context 100",
        "ops --model llama3-8b --hw tpu-v5p --chips 3 --batch 1 --context 100",
        "prefill --model llama3-8b --hw tpu-v5p --chips 3 --tokens 100",
        /* tester20 F14: simulate timed a replica nobody can rent */
        "simulate --model llama3-8b --hw tpu-v5p --chips 2 --qps 1 --requests 10 "
        "--prompt-len 50 --out-len 5"};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(run_cli(bad[i], out, sizeof out), 2);
        assert_non_null(strstr(out, "is not a valid slice of tpu-v5p (valid: 4, 8, "));
    }
    assert_int_equal(run_cli("step --model llama3-8b --hw tpu-v5p --chips 1 --batch 1 --context 100",
                             out, sizeof out), 0);
    assert_int_equal(run_cli("step --model llama3-8b --hw h100-sxm --chips 3 --batch 1 "
                             "--context 100", out, sizeof out), 0);
    /* F7: one chip stays step's per-chip roofline, but it is no tpu-v5p
     * replica (Google Cloud's smallest v5p slice is 2x2x1, 4 chips), which
     * pareto's default sweep never listed while size offered 1-chip
     * replicas (llama3-8b at 2 req/s: six 1-chip rows) and simulate ran its
     * default --chips 1: now simulate refuses it, size's rows start at 4 */
    assert_int_equal(run_cli("simulate --model llama3-8b --hw tpu-v5p --qps 1 --prompt-len 50 "
                             "--out-len 5 --requests 10 --no-capacity", out, sizeof out), 2);
    if (!strstr(out, "--chips 1 is not a valid slice of tpu-v5p (valid: 4, 8, ") ||
        !strstr(out, "(--chips defaults to 1: give a slice;"))
        fail_msg("simulate on tpu-v5p's one chip: %s", out);
    cJSON *j = run_json("size --model llama3-8b --hw tpu-v5p --qps 2 --prompt 100 --output 20 "
                        "--ttft-p99 1 --tpot-p99 0.05 --requests 200 --max-chips 8 --format json");
    const cJSON *row;
    int rows = 0;
    cJSON_ArrayForEach(row, cJSON_GetObjectItem(j, "rows")) {
        rows++;
        assert_true(num(row, "chips_per_replica") >= 4);
    }
    assert_true(rows > 0);
    cJSON_Delete(j);
}

/* New-user tester A: the slice rule held for --chips alone; a plan given
 * without --chips ran on any count (tpu-v5e --tp 2: 2 chips, --tp 4 --pp 3:
 * 12, --tp 8 --pp 80: 640, while --chips 12 and --chips 640 were refused).
 * Now step, ops, prefill and simulate refuse the plan's chips by the same
 * rule and message (exit 2, "12 is not a valid slice of tpu-v5e (valid: 1,
 * 4, ..."); a plan whose chips are a slice (--tp 4 --pp 2: 8) and a GPU's
 * plan of any count (h100-sxm --tp 2 --pp 3: 6) still run; size over
 * tpu-v5e offers no 2-chip replica (its rows were 1, 2, 4, ... chips). */
static void torus_plan_slices_checked(void **state)
{
    (void)state;
    static const char *const bad[][2] = {
        {"step --model llama3-70b --hw tpu-v5e --batch 8 --context 2048 --weights int8 --tp 2", "2"},
        {"step --model llama3-70b --hw tpu-v5e --batch 8 --context 2048 --weights int8 --tp 4 "
         "--pp 3", "12"},
        {"step --model llama3-70b --hw tpu-v5e --batch 8 --context 2048 --weights int8 --tp 8 "
         "--pp 80", "640"},
        {"ops --model llama3-8b --hw tpu-v5e --context 100 --tp 2", "2"},
        {"prefill --model llama3-8b --hw tpu-v5e --tokens 100 --tp 2", "2"},
        {"simulate --model llama3-8b --hw tpu-v5e --pp 2 --qps 1 --requests 10 --prompt-len 50 "
         "--out-len 5", "2"}};
    char want[160];
    for (int i = 0; i < 6; i++) {
        assert_int_equal(run_cli(bad[i][0], out, sizeof out), 2);
        snprintf(want, sizeof want, "the plan's %s chips (--chips not given): %s is not a valid "
                 "slice of tpu-v5e (valid: 1, 4, 8, ", bad[i][1], bad[i][1]);
        if (!strstr(out, want))
            fail_msg("%s: %s", bad[i][0], out);
    }
    assert_int_equal(run_cli("step --model llama3-8b --hw tpu-v5e --context 100 --tp 4 --pp 2",
                             out, sizeof out), 0);
    assert_int_equal(run_cli("step --model llama3-8b --hw h100-sxm --context 100 --tp 2 --pp 3",
                             out, sizeof out), 0);
    cJSON *j = run_cli_json("size --model llama3-8b --hw tpu-v5e --qps 5 --prompt-len 500 "
                            "--out-len 100 --ttft-p99 2 --tpot-p99 0.1 --requests 300 "
                            "--format json", out, sizeof out);
    assert_non_null(j);
    cJSON *r;
    int n = 0;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(j, "rows")) {
        double c = cJSON_GetObjectItem(r, "chips_per_replica")->valuedouble;
        assert_true(c == 1 || c >= 4);
        n++;
    }
    assert_true(n > 0);
    cJSON_Delete(j);
}

/* New-user tester B: size's JSON did not record the workload it sized
 * (no prompt/output distribution, seed or hardware list at the top level).
 * It now holds prompt_len and out_len (the DIST texts as given:
 * "lognormal:500:0.8", "uniform:50:150"), seed (--seed 7) and hw (the
 * --hw list in order); simulate's JSON holds prompt_len and out_len beside
 * its first names prompt and output_dist (kept, the same text). */
static void size_records_workload(void **state)
{
    (void)state;
    cJSON *j = run_cli_json("size --model llama3-8b --hw tpu-v5e,h100-sxm --qps 2 --prompt-len "
                            "lognormal:500:0.8 --out-len uniform:50:150 --seed 7 --ttft-p99 1 "
                            "--tpot-p99 0.05 --requests 200 --max-chips 1 --format json",
                            out, sizeof out);
    assert_non_null(j);
    assert_string_equal(cJSON_GetObjectItem(j, "prompt_len")->valuestring, "lognormal:500:0.8");
    assert_string_equal(cJSON_GetObjectItem(j, "out_len")->valuestring, "uniform:50:150");
    assert_true(cJSON_GetObjectItem(j, "seed")->valuedouble == 7);
    cJSON *hw = cJSON_GetObjectItem(j, "hw");
    assert_int_equal(cJSON_GetArraySize(hw), 2);
    assert_string_equal(cJSON_GetArrayItem(hw, 0)->valuestring, "tpu-v5e");
    assert_string_equal(cJSON_GetArrayItem(hw, 1)->valuestring, "h100-sxm");
    cJSON_Delete(j);
    j = run_cli_json("simulate --model llama3-8b --hw h100-sxm --qps 1 --requests 10 --prompt-len "
                     "uniform:40:60 --out-len 5 --format json", out, sizeof out);
    assert_non_null(j);
    assert_string_equal(cJSON_GetObjectItem(j, "prompt_len")->valuestring, "uniform:40:60");
    assert_string_equal(cJSON_GetObjectItem(j, "prompt")->valuestring, "uniform:40:60");
    assert_string_equal(cJSON_GetObjectItem(j, "out_len")->valuestring, "5");
    assert_string_equal(cJSON_GetObjectItem(j, "output_dist")->valuestring, "5");
    cJSON_Delete(j);
}

/* New-user tester E: b200, gb200, h100-pcie and tpu-v4 had no
 * price_per_chip_hour, so size across hardware ranked by chips.  Each now
 * cites an on-demand list price (hw_profiles/NAME.lua price_source, with its
 * date): b200 6.03 and gb200 4.54 (Spheron, 2026-03-17; gb200 its 9.08 a
 * Superchip of 2 GPUs, halved), h100-pcie 2.86 (Lambda, 2026-05-07),
 * tpu-v4 3.22 (Google Cloud, 2022-08-11), and `list hw` shows the price
 * of every preset (a column it lacked): none is null. */
static void every_preset_priced(void **state)
{
    (void)state;
    static const struct {
        const char *preset;
        double usd;
    } want[] = {{"b200", 6.03}, {"gb200", 4.54}, {"h100-pcie", 2.86}, {"tpu-v4", 3.22}};
    cJSON *j = run_cli_json("list hw --format json", out, sizeof out);
    assert_non_null(j);
    cJSON *r;
    int n = 0, found = 0;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(j, "rows")) {
        const cJSON *p = cJSON_GetObjectItem(r, "price_per_chip_hour");
        const char *name = cJSON_GetObjectItem(r, "preset")->valuestring;
        if (!cJSON_IsNumber(p) || p->valuedouble <= 0)
            fail_msg("list hw: %s has no price", name);
        for (size_t k = 0; k < sizeof want / sizeof want[0]; k++)
            if (strcmp(name, want[k].preset) == 0) {
                assert_true(p->valuedouble == want[k].usd);
                found++;
            }
        n++;
    }
    assert_int_equal(found, 4);
    assert_true(n >= 12);
    cJSON_Delete(j);
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "info --hw %s --format json", want[k].preset);
        j = run_cli_json(cmd, out, sizeof out);
        assert_non_null(j);
        const char *src = cJSON_GetObjectItem(j, "price_source")->valuestring;
        if (!strstr(src, "USD") || !strstr(src, "retrieved 2026-12-06"))
            fail_msg("%s price_source: %s", want[k].preset, src);
        cJSON_Delete(j);
    }
}

/* tester13 #7: pareto --weights bf16,fp8 --compute fp8 refused the whole
 * sweep for its one invalid pair (bf16 weights under fp8 compute): it now
 * skips that pair with a note naming it and counting it, and sweeps fp8
 * (every row fp8 weights); bf16 alone is still refused (exit 2,
 * the step check's reason). */
static void pareto_skips_invalid_precisions(void **state)
{
    (void)state;
    const char *base = "pareto --model llama3-8b --hw h100-sxm --batch 1,8,64 --compute fp8 ";
    assert_int_equal(cli2(base, "--weights bf16,fp8 --format json"), 0);
    assert_non_null(strstr(out, "note: weights bf16, kv bf16, compute fp8 skipped: compute fp8 "
                                "with bf16 weights"));
    assert_non_null(strstr(out, "note: 1 of the 2 precision combinations skipped"));
    cJSON *j = json2(base, "--weights bf16,fp8 --format json");
    cJSON *pt;
    int n = 0;
    cJSON_ArrayForEach(pt, cJSON_GetObjectItem(j, "rows")) {
        assert_string_equal(cJSON_GetObjectItem(pt, "weights")->valuestring, "fp8");
        n++;
    }
    assert_true(n > 0);
    cJSON_Delete(j);
    assert_int_equal(cli2(base, "--weights bf16"), 2);
    assert_non_null(strstr(out, "roofline pareto: compute fp8 with bf16 weights"));
    assert_null(strstr(out, "skipped"));
}

/* Audit h31 finding 2 (issue 14 item 7): step's default KV split beyond K
 * chips is the engines' (shard.h rl_kv_split_default): vLLM and
 * TensorRT-LLM replicate the KV heads under plain TP (TensorRT-LLM
 * docs/source/features/parallel-strategy.md, enable_attention_dp default
 * false), so DeepSeek-V3's one latent head is whole on each of tp8's chips.
 * h200, fp8 weights and compute, bf16 KV, B = 1 at 4096 tokens, by hand:
 *   HBM 141 GiB = 151,397,597,184 B; TensorRT-LLM's rule (the h200
 *   default engine) keeps 0.9 of what weights, 392 MiB (411,041,792 B)
 *   of collective buffers and the 461,373,440 B activation workspace
 *   (memory.h rl_memory_workspace at 8 chips, MoE routed copies counted
 *   since fixJL; 343,932,928 before) leave: the row's
 *   usable_bytes_per_chip minus weight_bytes_per_chip = 0.9 x
 *   (151,397,597,184 - W - 411,041,792 - 461,373,440) (1e-9: the memory
 *   rule sums in another order);
 *   latent KV (512 + 64) x 2 B x 61 layers = 70,272 B a token, x 4096 =
 *   287,834,112 B a sequence;
 *   floor(0.9 x (151,397,597,184 - 85,119,449,088 - 411,041,792 -
 *   461,373,440) / 287,834,112) = floor(204.50) = 204 (exact, an integer;
 *   204.87 before fixJL, 205 before the workspace), and 1632 = 204 x 8 with --kv-split batch
 *   (attention data parallel: each chip 1/8 of the sequences), the old
 *   default's figure.
 * kv_split and kv_split_source name the split and where it came from.  A
 * GQA case with TP <= K (llama3-70b, 8 KV heads, tp8 on h100-sxm) has
 * nothing beyond K: default, batch and replicate give the same step (1e-12)
 * and max_batch, sharding plain "tp8". */
static void kv_split_default_is_the_engines(void **state)
{
    (void)state;
    const char *ds = "step --model deepseek-v3 --hw h200 --tp 8 --weights fp8 --compute fp8 "
                     "--batch 1 --context 4096 --format json";
    static const char *const tail[] = {"", " --kv-split batch", " --kv-split replicate"};
    static const double want[] = {204, 1632, 204};
    static const char *const split[] = {"replicate", "batch", "replicate"};
    for (int k = 0; k < 3; k++) {
        cJSON *j = json2(ds, tail[k]);
        const cJSON *r = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0);
        assert_true(num(j, "max_batch") == want[k]);
        assert_true(num(r, "max_batch") == want[k]);
        assert_string_equal(cJSON_GetObjectItem(j, "kv_split")->valuestring, split[k]);
        const char *src = cJSON_GetObjectItem(j, "kv_split_source")->valuestring;
        assert_non_null(strstr(src, k ? "given" : "default: each KV head replicated"));
        /* fixRE item 1: batch keeps the attention weights TP-split (85.12 GB a
         * chip here, as replicate), so it is not the engines' attention data
         * parallel, which holds them whole (--tp 1 --ep 8: 100.8 GB); the
         * source said "--kv-split batch times attention data parallel" */
        assert_null(strstr(src, "times attention data parallel"));
        if (k < 2)
            assert_non_null(strstr(src, "not the engines' attention data parallel, which holds "
                                        "them whole on every chip (--ep N with --moe-attn "
                                        "replicated, simulate --attn-layout attn-dp)"));
        if (k == 0) {
            double W = num(r, "weight_bytes_per_chip"), kv = 70272.0 * 4096;
            assert_true(num(j, "kv_bytes_per_token") == (512 + 64) * 2 * 61);
            double over = 411041792.0 + 461373440.0; /* buffers, workspace */
            assert_rel(num(r, "usable_bytes_per_chip") - W, 0.9 * (151397597184.0 - W - over),
                       1e-9); /* sums' order */
            assert_true(floor(0.9 * (151397597184.0 - W - over) / kv) == 204);
        }
        cJSON_Delete(j);
    }
    /* fixRE item 1: the real attention data parallel holds the attention
     * weights whole: more weight a chip than --kv-split batch's, and its
     * source says so (it named "the layout --kv-split batch names") */
    cJSON *dp = json2("step --model deepseek-v3 --hw h200 --tp 1 --ep 8 --weights fp8 --compute fp8 "
                      "--batch 1 --context 4096 --format json", "");
    cJSON *kb = json2(ds, " --kv-split batch");
    assert_true(num(cJSON_GetArrayItem(cJSON_GetObjectItem(dp, "rows"), 0), "weight_bytes_per_chip") >
                num(cJSON_GetArrayItem(cJSON_GetObjectItem(kb, "rows"), 0), "weight_bytes_per_chip"));
    assert_non_null(strstr(cJSON_GetObjectItem(dp, "kv_split_source")->valuestring,
                           "and the attention weights whole"));
    cJSON_Delete(dp);
    cJSON_Delete(kb);
    const char *gqa = "step --model llama3-70b --hw h100-sxm --tp 8 --weights fp8 --compute fp8 "
                      "--batch 16 --context 4096 --format json";
    double t[3], mb[3];
    for (int k = 0; k < 3; k++) {
        cJSON *j = json2(gqa, tail[k]);
        assert_string_equal(cJSON_GetObjectItem(j, "sharding")->valuestring, "tp8");
        t[k] = num(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0), "step_s");
        mb[k] = num(j, "max_batch");
        cJSON_Delete(j);
    }
    assert_rel(t[0], t[1], 1e-12);
    assert_rel(t[0], t[2], 1e-12);
    assert_true(mb[0] == mb[1] && mb[0] == mb[2]);
}

/* review37 M1: on a fitted profile, `step --tp T` beyond K (the fitted
 * costs' TP over the chips, rl_result_step) takes the same default split
 * and names it: llama2-70b (K = 8, 327,680 B of bf16 KV a token) on
 * h100-sxm-splitwise --tp 16 --context 2048.  The batch split's max_batch
 * is 1645 (review37, the old output whatever --kv-split said: floor(room /
 * (2048 x 327,680)) over the 16 chips); replicate holds each token's KV
 * on 16 / 8 = 2 chips: floor(1645.005 / 2) = 822 (exact), kv_bytes_per_chip
 * twice the batch split's (8 x 2048 x 327,680 x 2 / 16 = 671,088,640),
 * batch 1000 no longer fits (1000 > 822).  fixJL (issue 12 item 4): the
 * profile's engine allocates HBM by h100-sxm's default engine's rule
 * (trtllm, e2e.c inherit_memory), so room is that rule's, not the whole HBM:
 * a chip keeps w + 0.9 x (80 GiB - w - 411,041,792 collective buffers -
 * 203,423,744 workspace (8192 x (8192 + (80 x 128 + 2 x 28,672) / 16) x 2)),
 * w = 8,622,081,024 B of weights, = 77,618,600,448 B; x 16 less the
 * 137,953,296,384 B of weights, / 671,088,640 B a sequence = 1645.005.
 * Before fixJL (whole HBM, --hbm-reserve 0): 1842 and 921.  The code before review37
 * printed 1842 and no kv_split.  fixX (review finding 1): the time reads the split too, as
 * the calibrated `step --hw h100-sxm --tp 16` (and simulate's fitted
 * steps) read it: each chip reads the KV it holds, kv_load_s = kv_bytes_per_chip
 * / 3.35e12 B/s (h100-sxm's HBM) = 671,088,640 / 3.35e12 = 200.32 us under
 * replicate, 100.16 us under batch (1e-12 relative: one division); before,
 * replicate read 100.16 us (one copy split 16 ways) and both splits gave
 * the same fitted step_s (39.649 ms); replicate's is now above batch's
 * (39.797 ms: its op list reads both copies). */
static void fitted_tp_names_kv_split(void **state)
{
    (void)state;
    /* the rule's room, as derived above (--hbm-reserve 0 kept: the rule
     * sets the room, so it changes nothing; fixJL) */
    const char *a = "step --model llama2-70b --hw h100-sxm-splitwise --tp 16 --batch 8,1000 "
                    "--context 2048 --hbm-reserve 0 --format json";
    static const char *const tail[] = {"", " --kv-split batch"};
    static const double want[] = {822, 1645}, kvc[] = {671088640, 335544320};
    static const char *const split[] = {"replicate", "batch"};
    double t[2];
    for (int k = 0; k < 2; k++) {
        cJSON *j = json2(a, tail[k]);
        const cJSON *rows = cJSON_GetObjectItem(j, "rows");
        assert_true(num(j, "max_batch") == want[k]);
        /* stop 54 (fixVE's report): each row repeats the header's
         * max_batch; under replicate the rows read 1645 (the batch
         * split's) beside the header's 822 before */
        for (int i = 0; i < 2; i++)
            assert_true(num(cJSON_GetArrayItem(rows, i), "max_batch") == want[k]);
        assert_true(num(cJSON_GetArrayItem(rows, 0), "kv_bytes_per_chip") == kvc[k]);
        assert_int_equal(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetArrayItem(rows, 1), "fits")),
                         k == 1);
        assert_string_equal(cJSON_GetObjectItem(j, "kv_split")->valuestring, split[k]);
        assert_non_null(cJSON_GetObjectItem(j, "kv_split_source"));
        t[k] = num(cJSON_GetArrayItem(rows, 0), "step_s");
        assert_rel(num(cJSON_GetArrayItem(rows, 0), "kv_load_s"), kvc[k] / 3.35e12, 1e-12);
        cJSON_Delete(j);
    }
    assert_true(t[0] > t[1]);
    /* the calibrated path's kv_load_s, the same layout on the same HBM */
    cJSON *c = json2("step --model llama2-70b --hw h100-sxm --tp 16 --batch 8 --context 2048 ",
                     "--format json");
    assert_rel(num(cJSON_GetArrayItem(cJSON_GetObjectItem(c, "rows"), 0), "kv_load_s"),
               kvc[0] / 3.35e12, 1e-12);
    cJSON_Delete(c);
}

/* review39 F7: on a fitted profile `--chips N` is TP over the N chips
 * (the fitted costs' layout), the plan `--tp N` names, so both read the
 * same KV copies (e2e.h rl_e2e_kv_copies): llama2-70b on
 * h100-sxm-splitwise, 16 chips, context 2048, batch 8 and 1000.
 * fitted_tp_names_kv_split above derives --tp 16's figures: max_batch 822
 * (921 before fixJL: the whole HBM, now the trtllm rule),
 * kv_bytes_per_chip 671,088,640 (exact), kv_load_s 671,088,640 / 3.35e12
 * (1e-12), kv_split replicate, batch 1000 not fitting.  Now --chips 16 and
 * --chips 16 --tp 16 give them and the same step_s (1e-12: one code path).
 * Before, --chips 16 read one copy: max_batch 1842 (1645 under the rule), kv_bytes_per_chip
 * 335,544,320, step_s 39.649 ms where --tp 16 read 39.797 ms, no
 * kv_split. */
static void fitted_chips_is_tp(void **state)
{
    (void)state;
    const char *a = "step --model llama2-70b --hw h100-sxm-splitwise --batch 8,1000 "
                    "--context 2048 --hbm-reserve 0 --format json ";
    static const char *const how[] = {"--tp 16", "--chips 16", "--chips 16 --tp 16"};
    double t[3];
    for (int k = 0; k < 3; k++) {
        cJSON *j = json2(a, how[k]);
        const cJSON *rows = cJSON_GetObjectItem(j, "rows");
        assert_true(num(j, "max_batch") == 822); /* 921 before fixJL */
        assert_true(num(cJSON_GetArrayItem(rows, 0), "kv_bytes_per_chip") == 671088640);
        assert_rel(num(cJSON_GetArrayItem(rows, 0), "kv_load_s"), 671088640 / 3.35e12, 1e-12);
        assert_false(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetArrayItem(rows, 1), "fits")));
        assert_string_equal(cJSON_GetObjectItem(j, "kv_split")->valuestring, "replicate");
        assert_string_equal(cJSON_GetObjectItem(j, "mode")->valuestring, "estimated");
        t[k] = num(cJSON_GetArrayItem(rows, 0), "step_s");
        cJSON_Delete(j);
    }
    assert_rel(t[1], t[0], 1e-12);
    assert_rel(t[2], t[0], 1e-12);
    /* review40 F1: --chips 16 --kv-split batch is --tp 16 --kv-split
     * batch's plan: fitted_tp_names_kv_split's max_batch 1645 (1842 before fixJL),
     * kv_bytes_per_chip 335,544,320 (exact), kv_split batch, given, the
     * same step_s (1e-12: one code path).  Before: the split was dropped
     * ("--kv-split ... ignored", 921, replicate) yet labelled given. */
    for (int k = 0; k < 2; k++) {
        cJSON *j = json2(a, k ? "--chips 16 --kv-split batch" : "--tp 16 --kv-split batch");
        const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0);
        assert_true(num(j, "max_batch") == 1645);
        assert_true(num(row, "kv_bytes_per_chip") == 335544320);
        assert_string_equal(cJSON_GetObjectItem(j, "kv_split")->valuestring, "batch");
        assert_non_null(strstr(cJSON_GetObjectItem(j, "kv_split_source")->valuestring, "given"));
        t[k] = num(row, "step_s");
        cJSON_Delete(j);
    }
    assert_rel(t[1], t[0], 1e-12);
    static char out[8192];
    assert_int_equal(run_cli("step --model llama2-70b --hw h100-sxm-splitwise --chips 16 "
                             "--kv-split batch --context 2048", out, sizeof out), 0);
    assert_null(strstr(out, "ignored"));
}

/* fixX, review findings on KV layouts and prefix caching (each fails on
 * main f0e5910):
 * 2: prefill names its KV layout: llama3-70b (K = 8, 327,680 B of bf16 KV
 *    a token) --tp 16 holds each head on 2 chips, kv_split replicate and
 *    kv_bytes_per_chip 1024 x 327,680 x 2 / 16 = 41,943,040 (exact; before:
 *    no kv_split key).
 * 3: step --tp 1 --ep 8 (mixtral) runs attention data parallel (expert
 *    groups of one chip, rl_shard_attn_dp): kv_split batch (before:
 *    replicate, the default echoed).
 * 4: simulate's prefix cache under replicate (16 chips, 2 copies) holds
 *    floor(10e9 / (327,680 x 2)) = 15,258 tokens of a 10 GB tier (exact;
 *    before 30,517: one copy).
 * 5: a scenario reading os is refused with file, line and reason, no Lua
 *    stack (before: "stack traceback:" followed).
 * 6: a trace's prefix_tokens 0 is refused naming line, field and ">= 1"
 *    (before: "a prefix id needs its length"). */
static void fixX_kv_layout_findings(void **state)
{
    (void)state;
    cJSON *j = json2("prefill --model llama3-70b --hw h100-sxm --tp 16 --tokens 1024 ",
                     "--format json");
    assert_string_equal(cJSON_GetObjectItem(j, "kv_split")->valuestring, "replicate");
    assert_non_null(cJSON_GetObjectItem(j, "kv_split_source"));
    assert_true(num(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0), "kv_bytes_per_chip") ==
                41943040.0);
    cJSON_Delete(j);
    j = json2("step --model mixtral-8x7b --hw h100-sxm --tp 1 --ep 8 --context 4096 --batch 64 ",
              "--format json");
    assert_string_equal(cJSON_GetObjectItem(j, "kv_split")->valuestring, "batch");
    assert_non_null(strstr(cJSON_GetObjectItem(j, "kv_split_source")->valuestring, "tp 1"));
    cJSON_Delete(j);
    j = json2("simulate --model llama3-70b --hw h100-sxm --chips 16 --qps 2 --requests 20 "
              "--prompt-len 1000 --out-len 10 --prefixes 4:500 --prefix-cache 10 ",
              "--format json");
    assert_true(num(j, "kv_copies") == 2);
    assert_true(num(j, "prefix_cache_hbm_tokens_per_replica") == 15258);
    cJSON_Delete(j);
    char dir[] = "/tmp/rl_fixX_XXXXXX", cmd[512];
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "printf 'x = 1\\nos.execute()\\n' > %s/os.lua && "
             "printf '0,100,10,1,0\\n' > %s/t.csv", dir, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "run %s/os.lua", dir);
    assert_int_equal(run_cli(cmd, out, sizeof out), 2);
    assert_non_null(strstr(out, "os.lua:2: read of undefined global 'os': refused by the sandbox"));
    assert_null(strstr(out, "traceback"));
    snprintf(cmd, sizeof cmd, "simulate --model llama3-8b --hw h100-sxm --trace %s/t.csv "
             "--prefix-cache 10", dir);
    assert_int_equal(run_cli(cmd, out, sizeof out), 2);
    assert_non_null(strstr(out, "t.csv:1: field 'prefix_tokens': 0, must be >= 1"));
    assert_int_equal(remove_tree(dir), 0);
}

/* review39 F1: the --prefix-cache refusal quotes the room its check used.
 * llama3-70b on 16 H100 keeps 2 copies of each KV head (K = 8), and a
 * prefix is charged per copy (serve.c rl_serve_config_prefix_cache), so
 * the room is 1098.7 GB (1101.6 GB, 1680882 tokens x 327680 B x 2,
 * before trtllm's activation workspace, memory.h rl_memory_workspace): a
 * 1095 GB cache runs, 1300 GB is refused quoting 1098.7 GB (it quoted one
 * copy's 550.8 GB beside the 1100 GB it accepted). */
static void prefix_refusal_quotes_both_copies(void **state)
{
    (void)state;
    const char *cmd = "simulate --model llama3-70b --hw h100-sxm --chips 16 --qps 2 --requests 20 "
                      "--prompt-len 1000 --out-len 10 --prefixes 4:500 --prefix-cache %d";
    char line[256];
    snprintf(line, sizeof line, cmd, 1095);
    assert_int_equal(run_cli(line, out, sizeof out), 0);
    snprintf(line, sizeof line, cmd, 1300);
    int rc = run_cli(line, out, sizeof out);
    if (rc != 2 || !strstr(out, "1300.0 GB of prefix KV in HBM leaves no room for running "
                                "sequences: the weights leave 1098.7 GB for KV (2 copies"))
        fail_msg("%s: exit %d: %s", line, rc, out);
}

/* Tester 4 finding 11: simulate names its KV split in step's --kv-split
 * terms.  llama3-70b (K = 8) on 16 tpu-v5e: two copies of each KV head,
 * kv_layout replicate; on 8 chips (int8 weights, to fit) one copy,
 * kv_layout heads.  Since stop 31 (audit h31 finding 2, issue 14 item 7)
 * step's default outside --ideal is the simulator's replicate (shard.h
 * rl_kv_split_default; before: kv=batch, 2x the sequences here), its
 * sharding, kv_split and kv_split_source say so; --ideal keeps kv=batch. */
static void simulate_names_kv_layout(void **state)
{
    (void)state;
    const char *base = "simulate --model llama3-70b --hw tpu-v5e --offline --requests 4 "
                       "--prompt-len 100 --out-len 4 --weights int8 --format json --chips ";
    cJSON *j = json2(base, "16");
    assert_true(num(j, "kv_copies") == 2);
    assert_non_null(strstr(cJSON_GetObjectItem(j, "kv_layout")->valuestring, "replicate"));
    cJSON_Delete(j);
    j = json2(base, "8");
    assert_true(num(j, "kv_copies") == 1);
    assert_string_equal(cJSON_GetObjectItem(j, "kv_layout")->valuestring, "heads");
    cJSON_Delete(j);
    static const char *const tail[] = {"", " --ideal"};
    static const char *const label[] = {"tp16 kv=replicate", "tp16 kv=batch"};
    static const char *const source[] = {"default: each KV head replicated", "default under --ideal"};
    for (int k = 0; k < 2; k++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "step --model llama3-70b --hw tpu-v5e --chips 16 --tp 16 "
                 "--batch 32 --context 4096%s --format json", tail[k]);
        j = run_cli_json(cmd, out, sizeof out);
        assert_string_equal(cJSON_GetObjectItem(j, "sharding")->valuestring, label[k]);
        assert_string_equal(cJSON_GetObjectItem(j, "kv_split")->valuestring, label[k] + 8);
        assert_non_null(strstr(cJSON_GetObjectItem(j, "kv_split_source")->valuestring, source[k]));
        cJSON_Delete(j);
    }
    /* and a note names the split taken and the other one (cli.c
     * note_kv_split_default, docs/model.md "KV beyond K chips"): not with
     * --kv-split given, nor on 8 chips, where tp8 holds the 8 heads once */
    const char *step = "step --model llama3-70b --hw tpu-v5e --batch 32 --context 4096 ";
    assert_int_equal(cli2(step, "--chips 16 --tp 16"), 0);
    assert_non_null(strstr(out, "note: tp16 over 8 KV head shard(s) replicates each KV head on "
                                "2 chips (the default outside --ideal"));
    assert_int_equal(cli2(step, "--chips 16 --tp 16 --ideal"), 0);
    assert_non_null(strstr(out, "note: tp16 over 8 KV head shard(s) splits the KV cache by "
                                "batch beyond them (--ideal's default, seed 000's layout)"));
    assert_int_equal(cli2(step, "--chips 16 --tp 16 --kv-split batch"), 0);
    assert_null(strstr(out, "KV head shard(s)"));
    assert_int_equal(cli2(step, "--chips 8 --tp 8 --weights int8"), 0);
    assert_null(strstr(out, "KV head shard(s)"));
    /* tester13 #3: deepseek-v3 in 8 expert groups on 8 H200 (fp8 weights):
     * each group (one chip) runs attention on its own sequences, one copy
     * of each latent, named as the split it is (it said "heads") */
    j = run_cli_json("simulate --model deepseek-v3 --hw h200 --chips 8 --ep 8 --weights fp8 "
                     "--compute fp8 --offline --requests 4 --prompt-len 100 --out-len 4 "
                     "--format json", out, sizeof out);
    assert_true(num(j, "kv_copies") == 1);
    assert_string_equal(cJSON_GetObjectItem(j, "kv_layout")->valuestring,
                        "batch (attention data parallel)");
    cJSON_Delete(j);
}

/* Tester 2 finding 1: h100-sxm's TensorRT-LLM tables hold bfloat16 and fp8
 * only.  int8 weights and KV (int8_wo, int8 KV) time every GEMM and the
 * attention from fp8's measured efficiency at the same shape (engines.h
 * DERIVED): provenance derived, mode estimated (it read calibrated at the
 * ideal 2.516 ms before).  The one table-timed op is the LM head, which an
 * int8 or fp8 checkpoint keeps bf16 (dtype.h rl_dtype_kept): the bf16
 * table's (extrapolated); nothing else measured.  Same bytes as fp8
 * weights and KV, so the step lands within 2% of fp8's 4.829 ms (int8
 * 4.837 ms; 4.662 / 4.693 ms with the LM head at 1 byte, 5.883 / 5.892
 * before h20kt's hole filling). */
static void unmeasured_dtype_derived(void **state)
{
    (void)state;
    const char *base = "step --model llama3-8b --hw h100-sxm --batch 1 --context 550 --format json";
    cJSON *j = json2(base, " --weights int8 --kv int8");
    assert_string_equal(cJSON_GetObjectItem(j, "mode")->valuestring, "estimated");
    const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0);
    const cJSON *prov = cJSON_GetObjectItem(row, "provenance");
    assert_true(num(prov, "derived") >= 8);
    assert_int_equal((int)(num(prov, "measured") + num(prov, "interpolated") +
                           num(prov, "extrapolated")),
                     1);
    double int8 = num(row, "step_s");
    cJSON_Delete(j);
    j = json2(base, " --weights fp8 --kv fp8 --compute fp8");
    assert_string_equal(cJSON_GetObjectItem(j, "mode")->valuestring, "calibrated");
    assert_rel(int8, num(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0), "step_s"), 0.02);
    cJSON_Delete(j);
}

/* Tester 2 findings 5 and 8: --ideal is --engine ideal.  Beside another
 * --engine it is refused (exit 2, both flags named); a repeated --engine
 * keeps the last, as every repeated option.  simulate --ideal honours
 * --hbm-reserve as --engine ideal does, the two outputs byte-equal: the KV
 * room of llama3-8b on one h100-sxm at --hbm-reserve 0.5 is (0.5 x
 * 85,899,345,920 - 16,060,522,496) / 131072 = 205147 tokens (floor; 182643
 * on 80e9 bytes until tester22 F2)
 * (--ideal gave the trtllm memory rule's 439037 before, whatever the
 * reserve). */
static void ideal_is_engine_ideal(void **state)
{
    (void)state;
    assert_int_equal(run_cli("step --model llama3-8b --hw h100-sxm --batch 1 --context 100 "
                             "--ideal --engine vllm", out, sizeof out), 2);
    assert_non_null(strstr(out, "--ideal and --engine vllm"));
    /* a repeated --engine is refused, as every repeated option (it kept the last) */
    assert_int_equal(run_cli("step --model llama3-8b --hw h100-sxm --batch 1 --context 100 "
                             "--engine ideal --engine vllm --format json", out, sizeof out), 2);
    assert_non_null(strstr(out, "--engine given twice ('ideal', then --engine 'vllm')"));
    const char *sim = "simulate --model llama3-8b --hw h100-sxm --qps 1 --prompt-len 100 "
                      "--out-len 10 --requests 20 --hbm-reserve 0.5 --format json";
    static char first[sizeof out];
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --ideal", sim);
    assert_int_equal(run_cli(cmd, first, sizeof first), 0);
    assert_int_equal(cli2(sim, " --engine ideal"), 0);
    assert_string_equal(first, out);
    assert_non_null(strstr(out, "\"kv_capacity_tokens_per_replica\":\t205147,"));
}

/* Tester 2 findings 3 and 6: size echoes a target as given (a 1 us TTFT
 * target printed "0 ms"; now 0.001 ms at %.4g), and pareto --help gives
 * --batch one default, the sweep's 1, 2, 4, ..., 2048 (its option line
 * said "(default 1)", step's). */
static void targets_and_defaults_as_given(void **state)
{
    (void)state;
    run_cli("size --model llama3-8b --hw h100-sxm --qps 1 --prompt-len 500 --out-len 50 "
            "--ttft-p99 0.000001 --tpot-p99 0.05 --requests 100", out, sizeof out);
    assert_non_null(strstr(out, "the TTFT target (0.001 ms)"));
    assert_int_equal(run_cli("pareto --help", out, sizeof out), 0);
    const char *line = strstr(out, "  --batch ");
    assert_non_null(line);
    const char *end = strchr(line, '\n');
    assert_non_null(strstr(line, "(default 1, 2, 4, ..., 2048)"));
    assert_true(strstr(line, "(default 1, 2, 4, ..., 2048)") < end);
    assert_true(!strstr(line, "(default 1)") || strstr(line, "(default 1)") > end);
    /* tester3 #12: pareto's --engine line no longer says ideal = --ideal (pareto's --ideal
     * is formula (1)); size's --hw line says it takes a list, as its usage does */
    line = strstr(out, "\n  --engine ");
    assert_non_null(line);
    end = strchr(++line, '\n');
    assert_true(strstr(line, "whose --ideal is formula (1)") && strstr(line, "formula (1)") < end);
    assert_int_equal(run_cli("size --help", out, sizeof out), 0);
    line = strstr(out, "\n  --hw ");
    assert_non_null(line);
    line++;
    /* fixQB: "H[,H2], split at every comma: a file whose path holds one is
     * refused there)" (size_hw_comma_path_refused) */
    assert_true(strstr(line, "H[,H2], split at every comma") &&
                strstr(line, "H[,H2], split at every comma") < strchr(line, '\n'));
}

/* Tester 2 finding 10: DeepSeek-V3's MoE router stays bf16 under --weights
 * fp8 (vLLM's gate has no quant_config, TensorRT-LLM's DeepseekV3Gate is a
 * plain weight of the model dtype: ops.c).  On h200 (trtllm), 8 chips,
 * batch 1, context 4096, the fp8 run's router row equals the bf16 run's:
 * 7168 x 256 x 2 = 3670016 weight bytes on each of the 8 chips, which
 * hold it whole (ops.c `replicated`), 29,360,128 in all, and the bf16
 * table's time at its per-chip shape (m 1, n 256, k 7168): the rows m =
 * 1, 2, 3 of AIConfigurator's h200_sxm/trtllm bf16 GEMM at n 256, k 7168
 * measure 5.9456, 5.9317, 5.9371 us; m = 2 falls, so the isotonic median
 * fit (ktable.h) pools m = 1 and 2 to their lower median, 5.9317 us (the
 * profile's 4 digits: 5.932), rel 1e-3.  It was the fp8 row, 15.55 us at
 * 1835520 bytes, before that finding, and 5.572 us at n 256 / 8 = 32 (the
 * router split over the chips) before stop 25. */
static void router_stays_bf16(void **state)
{
    (void)state;
    const char *base = "ops --model deepseek-v3 --hw h200 --chips 8 --batch 1 --context 4096 "
                       "--format json";
    const char *prec[2] = {"--weights fp8 --compute fp8", "--weights bf16 --compute bf16"};
    double t[2] = {0, 0}, bytes[2] = {0, 0};
    char cmd[512];
    for (int k = 0; k < 2; k++) {
        snprintf(cmd, sizeof cmd, "%s %s", base, prec[k]);
        cJSON *j = run_cli_json(cmd, out, sizeof out);
        const cJSON *r;
        cJSON_ArrayForEach(r, cJSON_GetObjectItem(j, "rows"))
            if (!strcmp(cJSON_GetObjectItem(r, "op")->valuestring, "router")) {
                t[k] = num(r, "time_s");
                bytes[k] = num(r, "weight_bytes");
            }
        cJSON_Delete(j);
    }
    assert_rel(bytes[0], 8 * 3670016.0, 1e-12);
    assert_rel(t[0], t[1], 1e-12);
    assert_rel(t[0], 5.9317e-6, 1e-3);
}

/* tester54 F2: ops --phase prefill read step_ms 75.94 where prefill (same
 * flags) read TTFT 139.9 ms, vLLM's prefill dispatch (80 layers x 0.8 ms,
 * NVIDIA AIConfigurator's _prefill_dispatch_overhead_ms; engines.c) unsaid.
 * The step stays the step (the dispatch is a host cost per request, outside
 * every step: ops.h rl_ops_prefill_dispatch); ttft_s adds it and equals
 * prefill's ttft_s, the same doubles (1e-9 relative): vLLM 64 ms exactly
 * (1e-12 s) above step_s, TensorRT-LLM none (its dispatch is 0). */
static void ops_prefill_ttft_is_prefill(void **state)
{
    (void)state;
    static const char *const engine[] = {"vllm", "trtllm"};
    static const double dispatch[] = {80 * 0.8e-3, 0};
    for (int i = 0; i < 2; i++) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "ops --model llama3-70b --hw h100-sxm --tp 8 --phase prefill "
                 "--tokens 2048 --engine %s --format json", engine[i]);
        cJSON *ops = run_json(cmd);
        snprintf(cmd, sizeof cmd, "prefill --model llama3-70b --hw h100-sxm --tp 8 --tokens 2048 "
                 "--engine %s --format json", engine[i]);
        cJSON *pre = run_json(cmd);
        const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(pre, "rows"), 0);
        double ttft = num(ops, "ttft_s");
        assert_true(fabs(ttft - num(row, "ttft_s")) <= 1e-9 * num(row, "ttft_s"));
        assert_true(fabs(num(ops, "prefill_dispatch_s") - dispatch[i]) < 1e-12);
        assert_true(fabs(ttft - num(ops, "step_s") - dispatch[i]) < 1e-12);
        cJSON_Delete(ops);
        cJSON_Delete(pre);
    }
}

/* tester29 F3: ops times its attention and charges its collectives in one
 * KV layout, step's (shard.h rl_shard_kv_layout; --kv-split, default
 * rl_kv_split_default's: replicate, batch under --ideal): ops step_s equals step's to 1e-12 (same operator
 * list, same kernel tables, same plan collectives) for DeepSeek-V3 (MLA,
 * one latent over tp8) on h200 fp8, B 64, context 4096, and llama3-70b
 * (8 KV heads, tp16) on h100-sxm fp8, each --kv-split and the default.
 * Before, ops timed the replicated-latent attention (kv_split 0) but
 * charged the batch split's Q/O AllToAlls: DeepSeek-V3 34.111 ms against
 * step's 30.882 (batch) and 31.367 (replicate); llama3-70b 18.940 against
 * 16.892 and 18.140 (tester29's figures).  The layouts still differ from
 * each other (replicate above batch by 1.6% / 7.4% here), so the test can
 * tell them apart.  Under --ideal, replicate's KV copies (z = 8 on MLA)
 * are read by ops as by step: ops within 2% of step (ops sums per-operator
 * rooflines, step formula (1)'s terms; before, 16.66 ms against 19.78). */
static void ops_kv_layout_is_step(void **state)
{
    (void)state;
    static const char *const base[] = {
        " --model deepseek-v3 --weights fp8 --compute fp8 --hw h200 --chips 8 --tp 8 --batch 64 "
        "--context 4096 --format json",
        " --model llama3-70b --weights fp8 --compute fp8 --hw h100-sxm --chips 16 --tp 16 "
        "--batch 64 --context 4096 --format json"};
    static const char *const kv[] = {"", " --kv-split batch", " --kv-split replicate",
                                     " --kv-split seq"};
    char tail[512];
    for (size_t b = 0; b < 2; b++) {
        double t[4];
        for (size_t k = 0; k < 4; k++) {
            snprintf(tail, sizeof tail, "%s%s", base[b], kv[k]);
            cJSON *o = json2("ops", tail), *s = json2("step", tail);
            const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(s, "rows"), 0);
            t[k] = num(o, "step_s");
            assert_rel(t[k], num(row, "step_s"), 1e-12);
            assert_rel(num(o, "comm_s"), num(row, "comm_s"), 1e-12);
            cJSON_Delete(o);
            cJSON_Delete(s);
        }
        assert_rel(t[0], t[2], 1e-12);   /* the default is step's: replicate */
        /* replicate reads z copies: not batch (deepseek-v3: 0.485 ms more of a
         * 50.0 ms step, 1.0098x, since its experts are GEMM-timed, stop 33;
         * 1.016x of 31.4 ms at their roofline) */
        assert_true(t[2] > t[1] * 1.005);
    }
    /* --ideal's default is batch, in ops as in step */
    double ti[2];
    for (int k = 0; k < 2; k++) {
        snprintf(tail, sizeof tail, "%s --ideal%s", base[0], k ? " --kv-split batch" : "");
        cJSON *o = json2("ops", tail);
        ti[k] = num(o, "step_s");
        assert_string_equal(cJSON_GetObjectItem(o, "kv_split")->valuestring, "batch");
        cJSON_Delete(o);
    }
    assert_rel(ti[0], ti[1], 1e-12);
    snprintf(tail, sizeof tail, "%s --ideal --kv-split replicate", base[0]);
    cJSON *o = json2("ops", tail), *s = json2("step", tail);
    assert_rel(num(o, "step_s"), num(cJSON_GetArrayItem(cJSON_GetObjectItem(s, "rows"), 0),
                                     "step_s"), 0.02);
    cJSON_Delete(o);
    cJSON_Delete(s);
}

/* tester58 #1: ops's rows held the whole tp8 group's bytes beside one
 * chip's time (llama3-70b fp8 decode, lm_head 2.10 GB in 93.6 us: 22 TB/s
 * on a chip of 3.35 TB/s, hw_profiles/h100-sxm.lua hbm_bw).  Each row now
 * also gives one chip's share (X_per_chip = X / 8, exact to 1e-12), and a
 * memory-bound op's per-chip bytes over its time is at most the chip's
 * bandwidth (measured and interpolated kernel times are real kernels;
 * roofline ones are bytes / bw exactly, tolerance 1e-9); the table shows the
 * per-chip columns and hides the group's. */
static void ops_rows_per_chip(void **state)
{
    (void)state;
    const double bw = 3.35e12; /* h100-sxm.lua hbm_bw */
    cJSON *o = run_json_noted("ops --model llama3-70b --hw h100-sxm --chips 8 --batch 1 "
                              "--context 4096 --weights fp8 --compute fp8 --format json",
                              "tp8, its AllReduces included");
    int memory = 0, head = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(o, "rows"))
    {
        assert_rel(num(r, "flops_per_chip"), num(r, "flops") / 8, 1e-12);
        assert_rel(num(r, "weight_bytes_per_chip"), num(r, "weight_bytes") / 8, 1e-9);
        assert_rel(num(r, "act_bytes_per_chip"), num(r, "act_bytes") / 8, 1e-9);
        assert_rel(num(r, "kv_bytes_per_chip"), num(r, "kv_bytes") / 8, 1e-9);
        if (strcmp(cJSON_GetObjectItem(r, "bound")->valuestring, "memory") != 0)
            continue;
        double chip = num(r, "weight_bytes_per_chip") + num(r, "act_bytes_per_chip") +
                      num(r, "kv_bytes_per_chip");
        if (chip / num(r, "time_s") > bw * (1 + 1e-9))
            fail_msg("%s: %.4g bytes a chip in %.4g s, %.4g B/s over the chip's %.4g",
                     cJSON_GetObjectItem(r, "op")->valuestring, chip, num(r, "time_s"),
                     chip / num(r, "time_s"), bw);
        memory++;
        if (strcmp(cJSON_GetObjectItem(r, "op")->valuestring, "lm_head") == 0) {
            head = 1; /* the group's bytes over that time are beyond any chip */
            assert_true(num(r, "weight_bytes") / num(r, "time_s") > 2 * bw);
        }
    }
    assert_true(memory >= 10 && head);
    cJSON_Delete(o);
    assert_int_equal(run_cli("ops --model llama3-70b --hw h100-sxm --chips 8 --batch 1 "
                             "--context 4096 --weights fp8 --compute fp8", out, sizeof out), 0);
    const char *hdr = strstr(out, "\nop "); /* text columns left-aligned (fixRB) */
    assert_non_null(hdr);
    const char *eol = strchr(hdr + 1, '\n');
    assert_non_null(eol);
    char line[1024];
    snprintf(line, sizeof line, "%.*s", (int)(eol - hdr), hdr);
    assert_non_null(strstr(line, " flops_per_chip "));
    assert_non_null(strstr(line, " weight_GB/chip "));
    assert_non_null(strstr(line, " kv_GB/chip "));
    assert_null(strstr(line, " weight_GB "));
    assert_null(strstr(line, " flops "));
}

/* Review of stop 38 (fixGB #3): a norm's gains are held whole on every
 * chip of a plan (vLLM RMSNorm's weight on every rank), as the router and
 * MLA's down-projections are, but an EP plan counted them tp times in the
 * replica's total, so weight_bytes_per_chip read a share: deepseek-v3 on
 * h200 fp8, 8 chips, decode batch 4 at 1024, attn_norm per chip 3584 B
 * under tp2 ep4 and 1792 under attention DP (tp1 ep8), where tp8 read
 * 14336.  Now a chip's attn_norm gains are d_model x 2 bytes (bf16: gains
 * are never quantized; model/deepseek-v3.lua d_model 7168) = 14336 B
 * under each plan, exactly, with the replica's weight_bytes 8 copies;
 * --ideal keeps formula (1)'s share, 14336 / 8 = 1792 (exact).  Since
 * fixGC the engines' first norm runs fused with the residual add before it
 * (attn_add_norm), its gains the same d_model x 2 bytes. */
static void ops_norm_gains_whole(void **state)
{
    (void)state;
    static const char *const plans[] = {"--tp 2 --ep 4", "--tp 1 --ep 8", "--tp 8 --ep 1",
                                        "--tp 2 --ep 4 --ideal"};
    for (int i = 0; i < 4; i++) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "ops --model deepseek-v3 --hw h200 --weights fp8 --chips 8 %s "
                 "--batch 4 --context 1024 --format json", plans[i]);
        assert_int_equal(run_cli(cmd, out, sizeof out), 0);
        cJSON *j = cJSON_Parse(strchr(out, '{'));
        assert_non_null(j);
        const cJSON *norm = op_row(j, i < 3 ? "attn_add_norm" : "attn_norm");
        double want = i < 3 ? 14336 : 1792;
        if (num(norm, "weight_bytes_per_chip") != want)
            fail_msg("%s: attn_norm weight_bytes_per_chip %.17g, want %.0f", plans[i],
                     num(norm, "weight_bytes_per_chip"), want);
        assert_true(num(norm, "weight_bytes") == 8 * want);
        cJSON_Delete(j);
    }
}

/* A shard result's row of phase ph and strategy st (fails when absent). */
static const cJSON *shard_row(const cJSON *j, const char *ph, const char *st)
{
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(j, "rows"))
    {
        if (!strcmp(cJSON_GetObjectItem(r, "phase")->valuestring, ph) &&
            !strcmp(cJSON_GetObjectItem(r, "strategy")->valuestring, st))
            return r;
    }
    fail_msg("no %s row %s", ph, st);
    return NULL;
}

/* shard's JSON for llama3-8b on 8 H100 at --batch b --context c (noted:
 * ranked at the datasheet peaks). */
static cJSON *shard_8b_json(int b, int c)
{
    char cmd[160];
    snprintf(cmd, sizeof cmd, "shard --model llama3-8b --hw h100-sxm --chips 8 --batch %d "
             "--context %d --format json", b, c);
    return run_json_noted(cmd, "datasheet peaks");
}

/* tester58 #2: shard's prefill throughput was one prompt's, 7 of tp1 x8's
 * replicas idle (llama3-8b, 8 H100, 4096 tokens: 8196 tokens/s a chip,
 * advice tp1 sp8 at 57,830).  Now --batch 8 prompts split over the
 * replicas: tp1 x8's replicas prefill one prompt each in the one-prompt
 * step, so batch_step_s = step_s and its tokens/s a chip are 8 x 4096 /
 * (8 x step_s) = 65,570 (1e-12: the same formula (1) step), the throughput
 * advice; the TTFT view stays one prompt (the rows' step_s equal those of
 * --batch 1, 1e-12; tp1 sp8 still the lowest TTFT, 8.853 ms). */
static void shard_prefill_throughput_counts_replicas(void **state)
{
    (void)state;
    cJSON *j = shard_8b_json(8, 4096), *one = shard_8b_json(1, 4096);
    const cJSON *x8 = shard_row(j, "prefill", "tp1 x8"), *sp8 = shard_row(j, "prefill", "tp1 sp8");
    assert_rel(num(x8, "batch_step_s"), num(x8, "step_s"), 1e-12);
    assert_rel(num(x8, "tokens_per_s_per_chip"), 8.0 * 4096 / (num(x8, "step_s") * 8), 1e-12);
    assert_true(num(x8, "tokens_per_s_per_chip") > 65000 && num(x8, "tokens_per_s_per_chip") < 66000);
    assert_true(num(x8, "tokens_per_s_per_chip") > num(sp8, "tokens_per_s_per_chip"));
    assert_int_equal((int)num(x8, "batch"), 8);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(x8, "batch_fits")));
    const cJSON *adv = cJSON_GetObjectItem(j, "advice");
    assert_string_equal(cJSON_GetObjectItem(adv, "prefill_throughput")->valuestring, "tp1 x8");
    assert_string_equal(cJSON_GetObjectItem(adv, "prefill_latency")->valuestring, "tp1 sp8");
    assert_non_null(strstr(cJSON_GetObjectItem(adv, "prefill")->valuestring,
                           "(8 prompts, each replica its share): tp1 x8, 6.557e+04"));
    assert_string_equal(cJSON_GetObjectItem(x8, "best")->valuestring, "throughput");
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(j, "rows"))
    {
        if (strcmp(cJSON_GetObjectItem(r, "phase")->valuestring, "prefill") != 0)
            continue;
        const char *st = cJSON_GetObjectItem(r, "strategy")->valuestring;
        assert_rel(num(r, "step_s"), num(shard_row(one, "prefill", st), "step_s"), 1e-12);
    }
    cJSON_Delete(one);
    cJSON_Delete(j);
}

/* review49: --batch prompts that do not divide over the replicas.  At
 * --batch 5 tp2 x4's 4 replicas take ceil(5 / 4) = 2 prompts at once, the
 * step of --batch 8's 2 each (batch_step_s equal, 1e-12: the same formula
 * (1) step), and its tokens/s a chip count the 5 prompts given, not the 8
 * slots: 5 x 4096 / (batch_step_s x 8) (1e-12); tp1 x8's 8 replicas take 1
 * each, its one-prompt step. */
static void shard_prefill_batch_remainder(void **state)
{
    (void)state;
    cJSON *five = shard_8b_json(5, 4096), *eight = shard_8b_json(8, 4096);
    const cJSON *t5 = shard_row(five, "prefill", "tp2 x4"), *t8 = shard_row(eight, "prefill", "tp2 x4");
    assert_rel(num(t5, "batch_step_s"), num(t8, "batch_step_s"), 1e-12);
    assert_rel(num(t5, "tokens_per_s_per_chip"), 5.0 * 4096 / (num(t5, "batch_step_s") * 8), 1e-12);
    assert_true(num(t5, "batch_step_s") > 1.5 * num(t5, "step_s")); /* 2 prompts, not 1 */
    const cJSON *x8 = shard_row(five, "prefill", "tp1 x8");
    assert_rel(num(x8, "batch_step_s"), num(x8, "step_s"), 1e-12);
    assert_rel(num(x8, "tokens_per_s_per_chip"), 5.0 * 4096 / (num(x8, "step_s") * 8), 1e-12);
    cJSON_Delete(five);
    cJSON_Delete(eight);
}

/* tester75: a prefill row printed step_s (one prompt's TTFT) beside a
 * tokens_per_s of its batch_step_s: llama3-8b on 8 H100, --batch 16
 * --context 256, tp1 sp8 read 4.548 ms and 491,802 tokens/s, 2,237 tokens
 * a step of a 256-token prompt, and tp1 x8 read 7 idle replicas (one
 * prompt's) beside a throughput that keeps all 8 busy.  Now every row,
 * prefill and generate, gives its throughput over the time key printed
 * before it: tokens_per_s x batch_step_s = batch x context = 16 x 256 =
 * 4096 tokens in prefill, batch = 16 in generation (1e-9 relative: a
 * product of two doubles the code divides), tokens_per_s_per_chip x 8 =
 * tokens_per_s (1e-9), batch_step_s before tokens_per_s in the row, and
 * idle_replicas 16 prompts leave on 8 or fewer replicas: 0 (exact).  The
 * TTFT view and the advice stay: tp1 sp8's step_s equals --batch 1's
 * (1e-12), tp8 the lowest TTFT, tp1 x8 the most tokens/s a chip. */
static void shard_row_throughput_from_its_step(void **state)
{
    (void)state;
    cJSON *j = shard_8b_json(16, 256), *one = shard_8b_json(1, 256);
    const cJSON *r;
    int rows = 0;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(j, "rows"))
    {
        int prefill = !strcmp(cJSON_GetObjectItem(r, "phase")->valuestring, "prefill");
        const char *st = cJSON_GetObjectItem(r, "strategy")->valuestring;
        double tokens = num(r, "batch") * (prefill ? num(r, "context") : 1.0);
        assert_rel(tokens, prefill ? 4096.0 : 16.0, 0);
        double got = num(r, "tokens_per_s") * num(r, "batch_step_s");
        if (fabs(got / tokens - 1) > 1e-9)
            fail_msg("%s %s: tokens_per_s x batch_step_s %.17g, want %.0f", prefill ? "prefill"
                     : "generate", st, got, tokens);
        assert_rel(num(r, "tokens_per_s_per_chip") * 8, num(r, "tokens_per_s"), 1e-9);
        if (num(r, "idle_replicas") != 0)
            fail_msg("%s: idle_replicas %g at 16 prompts", st, num(r, "idle_replicas"));
        const cJSON *k = cJSON_GetObjectItem(r, "step_s");
        assert_non_null(k);
        assert_non_null(k->next);
        assert_string_equal(k->next->string, "batch_step_s");
        for (k = k->next; k && strcmp(k->string, "tokens_per_s") != 0; k = k->next)
            ;
        assert_non_null(k); /* tokens_per_s after batch_step_s */
        rows++;
    }
    assert_true(rows > 10);
    const cJSON *sp8 = shard_row(j, "prefill", "tp1 sp8");
    assert_rel(num(sp8, "step_s"), num(shard_row(one, "prefill", "tp1 sp8"), "step_s"), 1e-12);
    const cJSON *adv = cJSON_GetObjectItem(j, "advice");
    assert_string_equal(cJSON_GetObjectItem(adv, "prefill_latency")->valuestring, "tp8");
    assert_string_equal(cJSON_GetObjectItem(adv, "prefill_throughput")->valuestring, "tp1 x8");
    cJSON_Delete(one);
    cJSON_Delete(j);
}

/* tester58 #3: size's rows at a precision the fitted costs never saw read
 * "no band:  (the time is an estimate)", the reason copied onto itself and
 * lost.  Each such row now gives simulate's words for the same run
 * (h100-sxm-splitwise, fitted on bf16 only: its fp8 rows, exact text). */
static void size_rows_say_why_no_band(void **state)
{
    (void)state;
    cJSON *sim = run_json_noted("simulate --model llama2-70b --hw h100-sxm-splitwise --qps 2 "
                                "--prompt-len 100 --out-len 50 --requests 50 --weights fp8 "
                                "--kv fp8 --compute fp8 --format json", "note");
    const char *want = cJSON_GetStringValue(cJSON_GetObjectItem(sim, "no_band"));
    assert_non_null(want);
    assert_non_null(strstr(want, "weights fp8 (fitted on weights bf16 only)"));
    cJSON *j = run_json_noted("size --model llama2-70b --hw h100-sxm-splitwise --qps 2 "
                              "--prompt-len 100 --out-len 50 --ttft-p99 2 --tpot-p99 0.2 "
                              "--requests 100 --format json", "note");
    int fp8 = 0, unbanded = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, cJSON_GetObjectItem(j, "rows"))
    {
        const char *nb = cJSON_GetStringValue(cJSON_GetObjectItem(row, "no_band"));
        if (!nb)
            continue;
        unbanded++;
        if (strstr(nb, "no band:  ") || !strstr(nb, "(fitted on "))
            fail_msg("%s: no_band '%s'", cJSON_GetStringValue(cJSON_GetObjectItem(row, "config")),
                     nb);
        if (strstr(cJSON_GetStringValue(cJSON_GetObjectItem(row, "config")), "w:fp8 kv:fp8 ")) {
            fp8++;
            assert_string_equal(nb, want);
        }
    }
    assert_true(fp8 > 0 && unbanded >= fp8);
    cJSON_Delete(j);
    cJSON_Delete(sim);
}

/* tester58 #4: step --sp 2 (sequence parallelism is prefill's) printed
 * "calibrated mode models 1D --tp/--ep plans ...; this plan (--sp ...) is
 * evaluated ideal" and then refused: the plan is checked before any note,
 * so stderr holds the refusal alone (exit 2); the fitted profile's TP
 * over the chips keeps its own words (the bad-input corpus's --tp 6). */
static void step_plan_refused_before_notes(void **state)
{
    (void)state;
    assert_int_equal(run_cli("step --model llama3-70b --hw h100-sxm --batch 16 --context 2048 "
                             "--sp 2", out, sizeof out), 2);
    assert_non_null(strstr(out, "roofline step: --sp is not an option of step: `roofline shard` "
                                "alone times sequence-parallel plans"));
    assert_null(strstr(out, "note:"));
    assert_int_equal(run_cli("step --model llama3-70b --hw h100-sxm --chips 8 --tp 4 --sp 2 "
                             "--batch 16 --context 2048", out, sizeof out), 2);
    assert_null(strstr(out, "evaluated ideal"));
}

/* fixRD #2: shard's advice "lowest TTFT: tp2 sp4" sent users to `prefill
 * --sp 4`, refused ("this command takes no option '--sp'"), and step's
 * help listed --sp ("sequence-parallel chips (prefill)") only to refuse
 * it.  Now the advice says the plan is shard's alone, prefill's refusal
 * says why, and step's help lists no --sp (its tp, ep, pp stay). */
static void sp_advice_names_no_refused_option(void **state)
{
    (void)state;
    assert_int_equal(run_cli("shard --model llama3-70b --hw h100-sxm --chips 8 --batch 64 "
                             "--context 4096", out, sizeof out), 0);
    assert_non_null(strstr(out, "lowest TTFT: tp2 sp4"));
    assert_non_null(strstr(out, "tp2 sp4 is timed by shard alone: `roofline prefill` runs one "
                                "replica's tp/ep plan (--tp, --ep), not sp, pp or 2d."));
    assert_int_equal(run_cli("prefill --model llama3-70b --hw h100-sxm --tokens 4096 --tp 2 "
                             "--sp 4", out, sizeof out), 2);
    assert_non_null(strstr(out, "--sp is not an option of prefill: `roofline shard` alone"));
    assert_int_equal(run_cli("step --help", out, sizeof out), 0);
    assert_null(strstr(out, "--sp "));
    assert_non_null(strstr(out, "--tp "));
    assert_non_null(strstr(out, "--pp "));
    /* fixVE #3 (fresh-user tester): one plan winning both TTFT and prefill
     * throughput was named twice, "tp4 sp4 and tp4 sp4 are timed by shard
     * alone"; expected once */
    assert_int_equal(run_cli("shard --model scaling-book-18b --hw tpu-v5e --chips 16 --batch 1 "
                             "--context 131072", out, sizeof out), 0);
    assert_non_null(strstr(out, "most tokens/s per chip (1 prompt, each replica its share): "
                                "tp4 sp4, "));
    assert_non_null(strstr(out, ". tp4 sp4 is timed by shard alone: "));
    assert_null(strstr(out, "tp4 sp4 and tp4 sp4"));
}

/* fixVE #5 (fresh-user tester): --x's help said "default: the optimum",
 * yet llama3-70b tp16 2d on v5e at batch 256 ran 2x8 at 38.661 ms and
 * --x 4 at 36.051 ms.  The default stays the Scaling Book's (Appendix B:
 * sqrt(16 x 8192 / (2 x 28672)) = 1.51, nearest divisor in [2, 8]: 2),
 * which the chapter's goldens use; the help now says it is the
 * communication optimum, not the fastest step, and step notes the fastest
 * divisor when it is another. */
static void x_default_said_as_the_chapters(void **state)
{
    (void)state;
    assert_int_equal(run_cli("step --help", out, sizeof out), 0);
    assert_non_null(strstr(out, "default: the Scaling Book's communication"));
    /* fixWF #2: it said the default "minimizes the MLP's collectives", yet
     * step's own model times them faster at --x 4 (tp8, batch 256: AllGather
     * 1.864 + AllReduce_X 13.05 + ReduceScatter 1.864 = 16.8 ms at x=2, 1.864
     * + 8.699 + 1.864 = 12.4 ms at x=4): the help says whose model it is */
    assert_non_null(strstr(out, "the X minimizing the MLP's collectives under the chapter's "
                                "model, every axis a ring at W_ici; step's own collective model"));
    assert_non_null(strstr(out, "can time another X's collectives and step faster"));
    cJSON *j = run_json("step --model llama3-70b --hw tpu-v5e --tp 16 --sharding 2d --ideal "
                        "--batch 256 --context 2048 --format json");
    assert_non_null(j);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(j, "sharding")), "2d 2x8 kv=batch");
    cJSON_Delete(j);
    /* and step names the faster divisor (rl_shard_eval at each divisor of 16:
     * 4x4 36.051 ms, 1x16 36.517, 2x8 38.661, 8x2 slower), not when --x is given */
    assert_int_equal(run_cli("step --model llama3-70b --hw tpu-v5e --tp 16 --sharding 2d --ideal "
                             "--batch 256 --context 2048", out, sizeof out), 0);
    assert_non_null(strstr(out, "note: --x defaults to the Scaling Book's communication optimum "
                                "(Appendix B: sqrt(tp D / 2F) to a divisor), 2x8 here, 38.661 ms "
                                "at batch 256; --x 4 (4x4) times the step fastest, 36.051 ms"));
    assert_int_equal(run_cli("step --model llama3-70b --hw tpu-v5e --tp 16 --sharding 2d --ideal "
                             "--batch 256 --context 2048 --x 2", out, sizeof out), 0);
    assert_null(strstr(out, "--x defaults"));
}

/* fixRD #3: roofline.format(result, "json") dropped the keys the command
 * line prints as null (a Lua table holds no nil): simulate --no-capacity's
 * max_sustainable_qps, goodput_req_per_s, burst, ... .  Now the Lua json has
 * the CLI's top-level keys, each null the CLI prints null, while r.burst
 * still reads nil; roofline.null writes null from a script's own table.
 * kv_timeline, recorded only on the command line (result.c), is left out
 * of the comparison. */
static void lua_format_keeps_null_keys(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_lua_null_XXXXXX", args[512];
    assert_non_null(mkdtemp(dir));
    const char *w = "--model llama3-8b --hw h100-sxm --qps 1 --prompt-len 100 --out-len 10 "
                    "--requests 10";
    static const char *const files[] = {"n.lua", "s.lua"};
    static const char *const text[] = {
        "local r = roofline.simulate{model='llama3-8b', hw='h100-sxm', qps=1, prompt_len=100, "
        "out_len=10, requests=10, no_capacity=true}\n"
        "assert(r.burst == nil and r.max_sustainable_qps == nil)\n"
        "print(roofline.format(r, 'json'))\n",
        "print(roofline.format({a = roofline.null, b = 1}, 'json'))\n"};
    put_files(dir, files, text, 2);
    snprintf(args, sizeof args, "simulate %s --no-capacity --format json", w);
    cJSON *cli = run_json(args);
    snprintf(args, sizeof args, "run %s/n.lua", dir);
    cJSON *lua = run_json(args);
    int nulls = 0;
    for (const cJSON *k = cli->child; k; k = k->next) {
        if (!strcmp(k->string, "kv_timeline"))
            continue;
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(lua, k->string);
        if (!v || cJSON_IsNull(v) != cJSON_IsNull(k))
            fail_msg("key %s: %s in the Lua json", k->string, !v ? "missing" : "null differs");
        nulls += cJSON_IsNull(k);
    }
    for (const cJSON *k = lua->child; k; k = k->next)
        if (!cJSON_GetObjectItemCaseSensitive(cli, k->string))
            fail_msg("key %s: in the Lua json, not the CLI's", k->string);
    assert_true(nulls >= 10); /* max_sustainable_qps, burst, goodput_req_per_s, ... */
    assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(lua, "max_sustainable_qps")));
    cJSON_Delete(cli);
    cJSON_Delete(lua);
    snprintf(args, sizeof args, "run %s/s.lua", dir);
    cJSON *s = run_json(args);
    assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(s, "a")));
    cJSON_Delete(s);
    assert_int_equal(remove_tree(dir), 0);
}

/* Occurrences of `part` in s. */
static int count_of(const char *s, const char *part)
{
    int n = 0;
    for (const char *at = strstr(s, part); at; at = strstr(at + 1, part))
        n++;
    return n;
}

/* tester69 #8: stderr notes that repeat another's words.  step: the
 * nearest plan that is the widest TP itself gave its figures twice
 * (expected once: deepseek-v3 bf16 on 8 h100-sxm, 169.56 GB a chip on
 * 74.20 GB, tp8; 73.83 before fixKA sized vLLM's workspace by the model, 0.979 not 1.353 GB a chip).  size: the two kinds of unresolved capacity shared a
 * tail, and the first row's caution repeated it whole (expected: "the
 * tail is set by" once; llama3-70b, lognormal prompts, seed default:
 * 1 floor row, 10 band rows, the first row verdict_by p99; --qps 5.05 since
 * issue 14 labelled capacities by the rate asked for: at --qps 5 the 2x2
 * continuous row now sustains 6.095 = 5 x 1.02^10 req/s of the 6 sized and
 * ranks first with a figure).  The table
 * formats' host_cost_note: whole in the header, its why left out of the
 * stderr note. */
static void long_notes_said_once(void **state)
{
    (void)state;
    assert_int_equal(run_cli("step --model deepseek-v3 --hw h100-sxm --chips 8 --engine vllm "
                             "--context 1024 --format json", out, sizeof out), 0);
    assert_non_null(strchr(out, '{'));
    *strchr(out, '{') = '\0'; /* the notes before the JSON */
    if (count_of(out, "169.56 GB a chip on 74.20 GB") != 1 ||
        !strstr(out, "the widest TP at pp 1 and the most KV room: 169.56 GB"))
        fail_msg("%.3000s", out);
    assert_int_equal(run_cli("size --model llama3-70b --hw h100-sxm --qps 5.05 --prompt-len "
                             "lognormal:2000:0.8 --out-len lognormal:300:0.8 --ttft-p99 1 "
                             "--tpot-p99 0.05 --requests 400 --format json", out, sizeof out), 0);
    char *json = strchr(out, '{'); /* its rows' verdict_note keep the whole text */
    assert_non_null(json);
    *json = '\0';
    if (count_of(out, "read max_sustainable_qps null") != 2 ||
        count_of(out, "the tail is set by the requests' own service") != 1 ||
        !strstr(out, "its max_sustainable_qps is null, unresolved for the reason a note above "
                     "gives (max_sustainable_qps_unresolved)"))
        fail_msg("%.5000s", out);
    /* host_cost_note whole once: in the table format on stderr, its header
     * pointing there (stop 48 #7); in CSV in its column, stderr without
     * its why */
    assert_int_equal(run_cli("step --model llama3-8b --hw h100-sxm --context 512", out,
                             sizeof out), 0);
    if (count_of(out, "it overlaps them with the GPU step by default") != 1 ||
        !strstr(out, "note: step times are kernel + collective time: no per-step host cost of the "
                     "trtllm engine (scheduling, sampling, launch gaps) is charged: it overlaps") ||
        !strstr(out, "host_cost_note               said on stderr above (the JSON key holds "
                     "the text)"))
        fail_msg("%.3000s", out);
    assert_int_equal(run_cli("step --model llama3-8b --hw h100-sxm --context 512 --format csv",
                             out, sizeof out), 0);
    if (count_of(out, "it overlaps them with the GPU step by default") != 1 ||
        !strstr(out, "note: step times are kernel + collective time: no per-step host cost of the "
                     "trtllm engine (scheduling, sampling, launch gaps) is charged, so these "
                     "times are a lower bound on an engine's end-to-end step, furthest below it "
                     "at small batch (host_cost_note gives why); roofline fit fits one"))
        fail_msg("%.3000s", out);
}

/* leftover of stop 42: shard's header printed the trtllm rule's
 * model-free workspace_bytes 0 while its rows subtract the model's
 * activation workspace; workspace_note gives the model's.  Expected, by
 * hand (memory.c layer_elems, 2-byte activations, 8192 tokens): llama3-70b
 * one chip 8192 x (8192 + 80 x 128 + 2 x 28672) x 2 = 1.2415e9 B, on 8
 * chips 8192 x (8192 + (10240 + 57344) / 8) x 2 = 0.2726e9 B (3 digits). */
static void shard_workspace_noted(void **state)
{
    (void)state;
    cJSON *j = run_json("shard --model llama3-70b --hw h100-sxm --chips 8 --batch 4 "
                        "--context 1024 --format json");
    const char *note = cJSON_GetStringValue(cJSON_GetObjectItem(j, "workspace_note"));
    if (!note || !strstr(note, "llama3-70b's activation workspace at 8192 tokens") ||
        !strstr(note, "1.242 GB on one chip, 0.273 GB a chip on 8"))
        fail_msg("workspace_note: %s", note ? note : "(none)");
    assert_int_equal((long long)num(j, "workspace_bytes"), 0); /* the rule's own, kept */
    cJSON_Delete(j);
}

/* fixNH #2: usable_bytes_per_chip is one quantity in shard and step, the
 * usable memory of one chip of the plan (memory.c rl_memory_usable_group
 * for both): each shard row gives what step gives for that plan.  The
 * tester read shard's first row (tp1 x8: 84,657,831,936) against step --tp
 * 8 (78,458,180,403): two plans.  Under trtllm's "free" rule the figure
 * grows with the plan's weights per chip w; expected, by hand (exact to the
 * byte, step's printed integer): tp8 w = 17,640,734,720, overhead = 392 MiB
 * collective buffers + 272,629,760 workspace (8192 x (8192 + 67584 / 8) x
 * 2), usable = w + 0.9 x (85,899,345,920 - w - overhead) = 78,458,180,403;
 * tp1 holds 141.1e9 B of weights, over one chip, so the rule's no-free-
 * memory case: 85,899,345,920 - 1,241,513,984 workspace = 84,657,831,936. */
static void shard_usable_as_step(void **state)
{
    (void)state;
    static const struct {
        const char *row, *plan;
        double want; /* 0: step's own figure alone */
    } plans[] = {{"tp1 x8", "--tp 1", 84657831936.0},
                 {"tp2 x4", "--tp 2", 0},
                 {"tp4 pp2", "--tp 4 --pp 2", 0},
                 {"tp8", "--tp 8", 78458180403.0}};
    cJSON *sh = run_json("shard --model llama3-70b --hw h100-sxm --chips 8 --context 1024 "
                         "--format json");
    for (size_t i = 0; i < sizeof plans / sizeof *plans; i++) {
        char args[256];
        snprintf(args, sizeof args, "step --model llama3-70b --hw h100-sxm --context 1024 %s "
                 "--format json", plans[i].plan);
        cJSON *st = run_json(args), *r, *row = NULL;
        cJSON_ArrayForEach(r, cJSON_GetObjectItem(sh, "rows"))
            if (!row && !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(r, "phase")), "generate") &&
                !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(r, "strategy")), plans[i].row))
                row = r;
        if (!row)
            fail_msg("shard: no generate row %s", plans[i].row);
        double a = num(row, "usable_bytes_per_chip"),
               b = num(cJSON_GetArrayItem(cJSON_GetObjectItem(st, "rows"), 0),
                       "usable_bytes_per_chip");
        if (fabs(a - b) > 1 || (plans[i].want > 0 && fabs(b - plans[i].want) > 1))
            fail_msg("%s: shard %.0f, step %s %.0f, expected %.0f", plans[i].row, a, plans[i].plan,
                     b, plans[i].want);
        cJSON_Delete(st);
    }
    cJSON_Delete(sh);
}

/* leftover of stop 42: --help gave --chips "(default 1)" while --tp 2 or
 * --pp 2 alone ran on tp x pp chips unsaid.  The help of step, ops,
 * prefill and simulate now names the plan's chips as the default, and a
 * run whose count came from the plan says it (expected: "2 chips" and
 * JSON chips 2, exact; none when --chips is given). */
static void plan_chips_said(void **state)
{
    (void)state;
    const char *base = "--model llama3-8b --hw h100-sxm --format json ";
    static const struct {
        const char *cmd, *tail, *plan, *key;
    } runs[] = {{"step", "--context 64 --pp 2", "tp1 x pp2", "chips"},
                {"ops", "--context 64 --tp 2", "tp2", "chips"},
                {"prefill", "--tokens 64 --tp 2", "tp2", "chips"},
                {"simulate", "--pp 2 --qps 1 --prompt-len 64 --out-len 8 --requests 20",
                 "tp1 x pp2", "chips_per_replica"}};
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char args[512], note[128];
        snprintf(args, sizeof args, "%s %s%s", runs[i].cmd, base, runs[i].tail);
        snprintf(note, sizeof note, "note: 2 chips: --chips not given, the plan's %s",
                 runs[i].plan);
        cJSON *j = run_json_noted(args, note);
        assert_int_equal((long long)num(j, runs[i].key), 2);
        cJSON_Delete(j);
        snprintf(args, sizeof args, "%s --help", runs[i].cmd);
        assert_int_equal(run_cli(args, out, sizeof out), 0);
        assert_non_null(strstr(out, ", else 1)")); /* the plan's chips, else 1 */
    }
    assert_int_equal(run_cli("step --model llama3-8b --hw h100-sxm --context 64 --chips 2 --tp 2",
                             out, sizeof out), 0);
    assert_null(strstr(out, "--chips not given"));
}

/* tester29 F8: ops on a fitted profile lists its operators at their
 * roofline or kernel-table times, without the fitted per-step engine
 * costs (step and prefill apply them): it says so on stderr, its mode
 * stays the operator list's (estimated on h100-sxm-splitwise, no tables),
 * and engine_source says the costs do not time it (before: the fit's
 * source alone, as if it timed the 12.0 ms against step's fitted 51.6). */
static void ops_fitted_costs_named(void **state)
{
    (void)state;
    const char *cmd = "ops --model llama2-70b --hw h100-sxm-splitwise --chips 8 --batch 64 "
                      "--context 2048 --format json";
    cJSON *j = run_json_noted(cmd, "fitted per-step engine costs are not applied to the "
                                   "operator list");
    assert_string_equal(cJSON_GetObjectItem(j, "mode")->valuestring, "estimated");
    assert_non_null(strstr(cJSON_GetObjectItem(j, "engine_source")->valuestring,
                           "its fitted engine costs do not time this run"));
    cJSON_Delete(j);
}

/* Tester finding 18: a table cell renders provenance's counts ("roofline
 * N, measured N, ..."), as the JSON gives them, never the literal
 * "(nested)"; CSV gives each count a dotted column, provenance.measured
 * (tester50 F6: it was one prose cell a script had to parse). */
static void provenance_cell(void **state)
{
    (void)state;
    const char *args = "step --model llama3-8b --hw h100-sxm --context 2048 --batch 1";
    char want[256] = "\"";
    cJSON *j = json2(args, " --format json");
    const cJSON *p = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0),
                                         "provenance");
    assert_non_null(p);
    for (const cJSON *k = p->child; k; k = k->next)
        snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s %.0f",
                 k == p->child ? "" : ", ", k->string, k->valuedouble);
    strcat(want, "\"");
    assert_int_equal(cli2(args, " --format csv 2>/dev/null | cat"), 0);
    for (const cJSON *k = p->child; k; k = k->next) {
        char col[64];
        snprintf(col, sizeof col, ",provenance.%s", k->string);
        assert_non_null(strstr(out, col));
    }
    cJSON_Delete(j);
    assert_null(strstr(out, "(nested)"));
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    want[strlen(want) - 1] = '\0';
    assert_non_null(strstr(out, want + 1));
    assert_null(strstr(out, "(nested)"));
}

/* Tester20 F5: info --hw on a fitted profile lists the fitted costs of (E)
 * and what they were fitted on, as the profile holds them (loaded here
 * with rl_hw_load: the same numbers, exactly), in JSON and in the table;
 * before, the engine row showed only the kernel-table keys step_s, seq_s,
 * launch_s = 0, as if the fitted engine had no host floor.  An engine
 * without fitted costs has both keys null.  Those keys stay (0, numbers)
 * and the fitted engine's costs_source says fitted_costs replace them,
 * naming decode_step_s (h27lab: the 0 beside 0.0296 read as a second,
 * zero floor); fitted_on records kv and compute beside weights. */
static void info_fitted_costs(void **state)
{
    (void)state;
    rl_hw h;
    char err[512];
    assert_int_equal(rl_hw_load("h100-sxm-splitwise", NULL, 0, &h, err, sizeof err), 0);
    const rl_engine_costs *c = &h.engine_costs;
    assert_true(c->present && c->v[RL_EC_DECODE_STEP] > 0); /* the profile's host floor */
    cJSON *j = json2("info --hw h100-sxm-splitwise", " --format json");
    const cJSON *rows = cJSON_GetObjectItem(j, "engines"), *fitted = NULL;
    for (const cJSON *r = rows ? rows->child : NULL; r; r = r->next) {
        const cJSON *f = cJSON_GetObjectItem(r, "fitted_costs");
        assert_non_null(f);
        const char *src = cJSON_GetStringValue(cJSON_GetObjectItem(r, "costs_source"));
        assert_true(cJSON_IsNumber(cJSON_GetObjectItem(r, "step_s")));
        if (!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(r, "engine")), c->engine))
            fitted = r;
        else {
            assert_true(cJSON_IsNull(f) && cJSON_IsNull(cJSON_GetObjectItem(r, "fitted_on")));
            assert_null(strstr(src, "fitted_costs replace them"));
        }
    }
    assert_non_null(fitted);
    char replaced[160];
    snprintf(replaced, sizeof replaced, "step_s, seq_s, launch_s, prefill_layer_s unused: "
             "fitted_costs replace them (decode_step_s %.4g s,", c->v[RL_EC_DECODE_STEP]);
    const char *src = cJSON_GetStringValue(cJSON_GetObjectItem(fitted, "costs_source"));
    if (strncmp(src, replaced, strlen(replaced)) != 0)
        fail_msg("%s", src);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(
                            cJSON_GetObjectItem(fitted, "fitted_on"), "kv")), "bf16");
    const cJSON *f = cJSON_GetObjectItem(fitted, "fitted_costs");
    for (int p = 0; p < RL_EC_N; p++) {
        const cJSON *v = cJSON_GetObjectItem(f, rl_ec_name((rl_ec_param)p));
        assert_true(cJSON_IsNumber(v));
        assert_rel(v->valuedouble, c->v[p], 1e-12);
    }
    const cJSON *on = cJSON_GetObjectItem(fitted, "fitted_on");
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(on, "models")), c->models);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(on, "weights")), c->weights);
    assert_int_equal((long long)cJSON_GetNumberValue(cJSON_GetObjectItem(on, "rows")), c->rows);
    /* what the fit set and what it held (review29 M4): comm_eff held at 1,
     * tp_excess fitted (the shipped profile's fitted_on.status) */
    const cJSON *st = cJSON_GetObjectItem(on, "status");
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(st, "comm_eff")), "held");
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(st, "tp_excess")), "fitted");
    const cJSON *tp = cJSON_GetObjectItem(cJSON_GetObjectItem(on, "grid"), "tp");
    assert_int_equal(cJSON_GetArraySize(tp), 2);
    assert_rel(cJSON_GetArrayItem(tp, 1)->valuedouble, c->grid[RL_EC_TP][1], 1e-12);
    cJSON_Delete(j);
    char want[64]; /* the table shows the grid, not "(nested)" */
    snprintf(want, sizeof want, "grid (tp [%g, %g]", c->grid[RL_EC_TP][0], c->grid[RL_EC_TP][1]);
    assert_int_equal(cli2("info --hw h100-sxm-splitwise", ""), 0);
    assert_non_null(strstr(out, want));
    assert_non_null(strstr(out, "decode_step_s "));
}

/* tester28 F11: info --hw printed `date` beside `measured_on`, read as the
 * day the tables were measured; it is the day calibrate --tables imported
 * them (silicon.c writes today).  Each engine row has imported_on, the
 * same string as the old key `date` (kept in JSON); the table shows
 * imported_on and no `date` column. */
static void engine_date_says_imported(void **state)
{
    (void)state;
    cJSON *j = json2("info --hw h100-sxm", " --format json");
    int n = 0;
    for (const cJSON *r = cJSON_GetObjectItem(j, "engines")->child; r; r = r->next, n++)
        assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(r, "imported_on")),
                            cJSON_GetStringValue(cJSON_GetObjectItem(r, "date")));
    assert_int_equal(n, 2);
    cJSON_Delete(j);
    assert_int_equal(cli2("info --hw h100-sxm", ""), 0);
    assert_non_null(strstr(out, "measured_on  imported_on"));
    assert_null(strstr(out, " date "));
}

/* tester64 #2: step and prefill said nothing where pareto names the same
 * configuration outside gb200's tables: llama3-70b tp8's two AllReduces
 * over 8 GPUs are raised to the measured 4-GPU trtllm time
 * (hw_profiles/gb200.lua's collectives stop at 4 GPUs), deepseek-v3 ep8's
 * AllToAlls to the 4-GPU nccl time with 1 operator extrapolated (ops'
 * provenance column: "extrapolated 1"), and llama3-70b tp16 on h200 crosses
 * the 8-chip NVLink domain (timed_by "measured domain + alpha-beta
 * network"); the key outside_tables says each (pareto's name and text,
 * comm.h rl_comm_floors_text), the note once; llama3-8b tp8 on h100-sxm
 * (AllReduce measured on 8 GPUs) has none: null. */
static void step_names_rows_outside_tables(void **state)
{
    (void)state;
    cJSON *j = json2("step --model llama3-70b --hw gb200 --chips 8 --tp 8 --batch 256 "
                     "--context 8192 --weights fp8 --compute fp8", " --format json");
    const char *far = cJSON_GetStringValue(cJSON_GetObjectItem(j, "outside_tables"));
    assert_non_null(far);
    assert_non_null(strstr(far, "collectives gb200's collectives table does not measure at "
                                "their group size, timed by the alpha-beta model and raised to "
                                "the same collective's measured time on fewer GPUs (AllReduce "
                                "over 8 raised to its 4-GPU trtllm time, 1 octave beyond)"));
    cJSON_Delete(j);
    assert_int_equal(cli2("step --model llama3-70b --hw gb200 --chips 8 --tp 8 --batch 256 "
                          "--context 8192 --weights fp8 --compute fp8", ""), 0);
    const char *note = strstr(out, "note: rows outside what gb200's tables measured");
    assert_non_null(note);
    assert_null(strstr(note + 1, "note: rows outside")); /* once */
    j = json2("step --model deepseek-v3 --hw gb200 --chips 8 --tp 1 --ep 8 --batch 64 "
              "--context 8192 --weights fp8 --compute fp8", " --format json");
    far = cJSON_GetStringValue(cJSON_GetObjectItem(j, "outside_tables"));
    assert_non_null(far);
    assert_non_null(strstr(far, "1 of 1 rows (batch 64): up to 1 operator(s) timed by "
                                "extrapolating"));
    assert_non_null(strstr(far, "AllToAll over 8 raised to its 4-GPU nccl time"));
    cJSON_Delete(j);
    j = json2("step --model llama3-70b --hw h200 --chips 16 --tp 16 --batch 16 --context 4096",
              " --format json");
    far = cJSON_GetStringValue(cJSON_GetObjectItem(j, "outside_tables"));
    assert_non_null(far);
    assert_non_null(strstr(far, "collectives over up to 16 GPUs cross h200's 8-chip "
                                "NVLink/ICI domain"));
    cJSON_Delete(j);
    j = json2("prefill --model llama3-70b --hw gb200 --tp 8 --tokens 8192 --weights fp8 "
              "--compute fp8", " --format json");
    far = cJSON_GetStringValue(cJSON_GetObjectItem(j, "outside_tables"));
    assert_non_null(far);
    assert_non_null(strstr(far, "AllReduce over 8 raised to its 4-GPU trtllm time"));
    cJSON_Delete(j);
    j = json2("step --model llama3-8b --hw h100-sxm --chips 8 --tp 8 --batch 4 --context 2048",
              " --format json");
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "outside_tables")));
    cJSON_Delete(j);
    /* stop 41: a one-chip step (no plan) carried no key, though its rows'
     * provenance read extrapolated 1 (llama3-8b's lm_head on h100-sxm
     * trtllm: ops' provenance column);
     * now as a plan's, the note too; --ideal: no key (no table times it) */
    j = json2("step --model llama3-8b --hw h100-sxm --context 1024 --batch 1,8", " --format json");
    far = cJSON_GetStringValue(cJSON_GetObjectItem(j, "outside_tables"));
    assert_non_null(far);
    assert_non_null(strstr(far, "2 of 2 rows (batch 1, 8): up to 1 operator(s) timed by "
                                "extrapolating a kernel table past its measured grid"));
    const cJSON *prov = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0),
                                            "provenance");
    assert_true(num(prov, "extrapolated") == 1);
    cJSON_Delete(j);
    assert_int_equal(cli2("step --model llama3-8b --hw h100-sxm --context 1024 --batch 1,8", ""), 0);
    assert_non_null(strstr(out, "note: rows outside what h100-sxm's tables measured"));
    j = json2("step --model llama3-8b --hw h100-sxm --context 1024 --ideal", " --format json");
    assert_null(cJSON_GetObjectItem(j, "outside_tables"));
    cJSON_Delete(j);
}

/* The outside_tables of simulate at `chips` on llama3-70b h100-sxm (one
 * tp`chips` replica) and of step --tp `chips` at the decode step its
 * table_time_share_at names, into far[0] and far[1] (NULL: null); returns
 * simulate's result (which the caller deletes) with step's in *step. */
static cJSON *simulate_and_step_outside(int chips, const char *far[2], cJSON **step)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "simulate --model llama3-70b --hw h100-sxm --chips %d --qps 2 "
             "--requests 100 --prompt-len 512 --out-len 128 --format json", chips);
    cJSON *j = run_json(cmd);
    const cJSON *key = cJSON_GetObjectItem(j, "outside_tables");
    assert_true(cJSON_IsString(key) || cJSON_IsNull(key)); /* the key, always */
    far[0] = cJSON_GetStringValue(key);
    const char *at = strstr(cJSON_GetStringValue(cJSON_GetObjectItem(j, "table_time_share_at")),
                            "time-weighted batch ");
    long long b = 0, ctx = 0;
    assert_non_null(at);
    assert_int_equal(sscanf(at, "time-weighted batch %lld and mean context %lld", &b, &ctx), 2);
    snprintf(cmd, sizeof cmd, "step --model llama3-70b --hw h100-sxm --chips %d --tp %d "
             "--batch %lld --context %lld --format json", chips, chips, b, ctx);
    *step = run_json(cmd);
    far[1] = cJSON_GetStringValue(cJSON_GetObjectItem(*step, "outside_tables"));
    return j;
}

/* A README-only tester: simulate --chips 16 on h100-sxm said only on
 * stderr that its AllReduces cross the 8-chip NVLink domain, where step
 * --tp 16 names it in outside_tables.  Now simulate carries the key for
 * the steps its table_time_share weighs (ops.h rl_ops_serving_steps), in
 * the one collector's words (result.c outside_set): the same text as step
 * --tp 16 at its decode step (here batch 3 at context 575: no operator
 * extrapolated, so the crossing alone); --chips 8 (one domain): null, as
 * step --tp 8's; --ideal: null; each size row carries the key. */
static void simulate_names_collectives_outside_tables(void **state)
{
    (void)state;
    const char *far[2];
    cJSON *step, *j = simulate_and_step_outside(16, far, &step);
    assert_non_null(far[0]);
    assert_non_null(far[1]);
    assert_string_equal(far[0], far[1]);
    assert_non_null(strstr(far[0], "collectives over up to 16 GPUs cross h100-sxm's 8-chip "
                                   "NVLink/ICI domain"));
    cJSON_Delete(step);
    cJSON_Delete(j);
    j = simulate_and_step_outside(8, far, &step);
    assert_null(far[0]);
    assert_null(far[1]);
    cJSON_Delete(step);
    cJSON_Delete(j);
    j = run_json("simulate --model llama3-70b --hw h100-sxm --chips 16 --ideal --qps 2 "
                 "--requests 100 --prompt-len 512 --out-len 128 --format json");
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "outside_tables")));
    cJSON_Delete(j);
    j = run_json("size --model llama3-70b --hw h100-sxm --qps 5 --prompt-len 512 --out-len 128 "
                 "--ttft-p99 1 --tpot-p99 0.05 --requests 100 --format json");
    const cJSON *row, *rows = cJSON_GetObjectItem(j, "rows");
    assert_true(cJSON_GetArraySize(rows) > 0);
    cJSON_ArrayForEach(row, rows) {
        const cJSON *key = cJSON_GetObjectItem(row, "outside_tables");
        assert_true(cJSON_IsString(key) || cJSON_IsNull(key));
    }
    cJSON_Delete(j);
}

/* tester64 #3: --set hw.sm=100 on h100-sxm (measured at sm 90,
 * hw_profiles/h100-sxm.lua) switches TensorRT-LLM's AllReduce strategy to
 * Blackwell's table and its norms into the AllReduce (17.559 -> 17.335 ms,
 * engines.c ENGINE_FUSION), yet read calibrated with its band and no
 * what-if: now a what-if as hw.hbm_bw's (spec.c settle_what_if): mode
 * estimated, the changed figure named "sm=100 (as measured 90)", no band,
 * and both trtllm AllReduces derived (comm.c link_what_if; ktable.h
 * rl_provenance_moved), where the unchanged chip reads calibrated with 0
 * derived; a derived spec {base = "h100-sxm", sm = 100} alike. */
static void step_sm_override_is_what_if(void **state)
{
    (void)state;
    const char *run = "step --model llama3-70b --hw h100-sxm --chips 8 --batch 64 --context 4096";
    cJSON *j = json2(run, " --format json");
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(j, "mode")), "calibrated");
    const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0);
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(row, "provenance"),
                                         "derived")->valueint, 0);
    cJSON_Delete(j);
    j = json2(run, " --set hw.sm=100 --format json");
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(j, "mode")), "estimated");
    assert_non_null(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(j, "engine_source")),
                           "sm=100 (as measured 90)"));
    row = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0);
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(row, "provenance"),
                                         "derived")->valueint, 2);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(row, "step_s_low")) ||
                !cJSON_GetObjectItem(row, "step_s_low"));
    cJSON_Delete(j);
    char spec[] = "/tmp/rl_cli_sm_XXXXXX.lua";
    int fd = mkstemps(spec, 4);
    assert_true(fd >= 0);
    const char *text = "return { base = 'h100-sxm', sm = 100 }\n";
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    char argv[256];
    snprintf(argv, sizeof argv, "step --model llama3-70b --hw %s --chips 8 --batch 64 "
             "--context 4096", spec);
    j = json2(argv, " --format json");
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(j, "mode")), "estimated");
    cJSON_Delete(j);
    unlink(spec);
}

/* stop 41: a trace's, a measurement CSV's and a config.json's path was
 * echoed in their content errors through rl_input_shown alone, so a
 * newline in the name split the error line in two (the printer keeps a
 * message's own newlines); each is now shown as the open errors show it,
 * \x0A (error.h rl_name_shown; report.h rl_input_named).  Each link,
 * named "a<LF>b.*", points at a bad-input file whose error names its path
 * (tests/bad_inputs/cases.txt gives the same errors without the link). */
static void content_errors_escape_the_path(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_ctlpath_XXXXXX", path[3][128], cmd[1024];
    assert_non_null(mkdtemp(dir));
    static const char *const src[3] = {"trace/control_char.csv", "e2e/unknown_phase.csv",
                                       "hf/missing_layers.json"};
    static const char *const ext[3] = {"csv", "csv", "json"};
    for (int i = 0; i < 3; i++) {
        snprintf(path[i], sizeof path[i], "%s/a\nb%d.%s", dir, i, ext[i]);
        snprintf(cmd, sizeof cmd, "%s/tests/bad_inputs/%s", RL_SRCDIR, src[i]);
        assert_int_equal(symlink(cmd, path[i]), 0);
    }
    static const char *const want[3] = {
        "b0.csv:2: field 'output_tokens': '\\x01' is not an integer",
        "b1.csv:2: column 'phase' (column 1): unknown phase 'steady'",
        "b2.json: key 'num_hidden_layers': missing"};
    for (int i = 0; i < 3; i++) {
        if (i == 0)
            snprintf(cmd, sizeof cmd, "simulate --model llama3-8b --hw h100-sxm --trace '%s'",
                     path[i]);
        else if (i == 1)
            snprintf(cmd, sizeof cmd, "fit '%s' --model llama2-70b --hw h100-sxm --save %s/f.lua",
                     path[i], dir);
        else
            snprintf(cmd, sizeof cmd, "import-hf '%s' --save %s/m.lua", path[i], dir);
        assert_int_equal(run_cli(cmd, out, sizeof out), 2);
        char shown[160];
        snprintf(shown, sizeof shown, "a\\x0A%s", want[i]);
        if (!strstr(out, shown) || strstr(out, "a\nb"))
            fail_msg("%s: no '%s' (the newline escaped) in: %s", cmd, shown, out);
    }
    assert_int_equal(remove_tree(dir), 0);
}

/* fixIE (issue 12 leftover): the sm what-if note named the change and
 * "mode estimated" but not why the times moved.  It now says which
 * TensorRT-LLM AllReduce strategy table the sm picks (spec.h
 * rl_hw_sm_note): --set hw.sm=100 on h100-sxm (sm 90) switches SM90's
 * table for SM100's (17.559 -> 17.335 ms at batch 64, tp 8: the norms
 * fuse into more AllReduces); under vllm, whose AllReduce fuses no norm,
 * and at sm 95 (the same SM90 table) the note says no time moves, and
 * the step is the unchanged chip's (1e-12: the same arithmetic).
 * measured_sm: 0 is refused (> 0 as sm; tests/bad_inputs measured_sm_zero),
 * absent is the spec's own sm, unset when it gives none: a copy of
 * h100-sxm.lua without its sm line reads calibrated at h100-sxm's step
 * (an unset sm reads SM90's table, ops.c ar_fused), and --set hw.sm=100
 * on it is the same what-if, named "sm=100 (as measured unset)". */
static void step_sm_note_and_measured_sm(void **state)
{
    (void)state;
    const char *run = "step --model llama3-70b --hw h100-sxm --chips 8 --batch 64 --context "
                      "4096 --format json";
    assert_int_equal(cli2(run, " --set hw.sm=100"), 0);
    if (!strstr(out, "sm 100 switches TensorRT-LLM's AllReduce strategy table (cpp/tensorrt_llm/"
                     "common/customAllReduceUtils.h) from AllReduceBestStrategyTableSM90 (Hopper "
                     "and older), the one its tables were measured under (sm 90), to "
                     "AllReduceBestStrategyTableSM100 (Blackwell)") ||
        !strstr(out, "so the AllReduce and norm times move"))
        fail_msg("%.3000s", out);
    cJSON *base = json2(run, ""), *moved = json2(run, " --set hw.sm=100");
    double t = num(cJSON_GetArrayItem(cJSON_GetObjectItem(base, "rows"), 0), "step_s");
    double t100 = num(cJSON_GetArrayItem(cJSON_GetObjectItem(moved, "rows"), 0), "step_s");
    assert_rel(t, 17.559e-3, 1e-3);
    assert_rel(t100, 17.335e-3, 1e-3);
    static const struct {
        const char *tail, *says;
    } same[] = {{" --set hw.sm=95", "sm 95 reads the same TensorRT-LLM AllReduce strategy table "
                                    "as the chip as measured (sm 90)"},
                {" --engine vllm --set hw.sm=100", "sm 100 picks nothing vllm times (no "
                                                   "AllReduce with a fused norm), so no time "
                                                   "moves with it"}};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(cli2(run, same[i].tail), 0);
        if (!strstr(out, same[i].says))
            fail_msg("%s: %.3000s", same[i].tail, out);
        cJSON *w = json2(run, same[i].tail);
        cJSON *c = json2(run, i ? " --engine vllm" : "");
        assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(w, "mode")), "estimated");
        assert_rel(num(cJSON_GetArrayItem(cJSON_GetObjectItem(w, "rows"), 0), "step_s"),
                   num(cJSON_GetArrayItem(cJSON_GetObjectItem(c, "rows"), 0), "step_s"), 1e-12);
        cJSON_Delete(w);
        cJSON_Delete(c);
    }
    /* a copy of h100-sxm.lua without `sm = 90` */
    char *text = slurp_text(RL_SRCDIR "/hw_profiles/h100-sxm.lua");
    char *at = strstr(text, "\n  sm = 90,");
    assert_non_null(at);
    char *eol = strchr(at + 1, '\n');
    memmove(at, eol, strlen(eol) + 1);
    char spec[64];
    write_temp(spec, ".lua", text);
    free(text);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "step --model llama3-70b --hw %s --chips 8 --batch 64 --context "
             "4096 --format json", spec);
    cJSON *j = json2(cmd, "");
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(j, "mode")), "calibrated");
    assert_rel(num(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0), "step_s"), t, 1e-12);
    cJSON_Delete(j);
    assert_int_equal(cli2(cmd, " --set hw.sm=100"), 0);
    if (!strstr(out, "hw.sm=100 (as measured unset) changes the chip") ||
        !strstr(out, "the one its tables were measured under (sm unset)"))
        fail_msg("%.3000s", out);
    j = json2(cmd, " --set hw.sm=100");
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(j, "mode")), "estimated");
    assert_rel(num(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0), "step_s"), t100,
               1e-12);
    cJSON_Delete(j);
    unlink(spec);
    cJSON_Delete(base);
    cJSON_Delete(moved);
}

/* tester64 #4: gpt-oss-120b --weights fp4 on gb200 vLLM times its routed
 * experts from vLLM's w4a16_mxfp4 MoE kernel at gpt-oss's shape
 * (hw_profiles/engines/gb200-vllm.lua moe.w4a16_mxfp4, hidden 2880, top-4
 * of 128; the nearest variant, ops.c derived_variant), provenance derived
 * with the MoE table's narrow band, and said nothing: stderr now says it
 * (ops.c rl_ops_moe_variant_note), not the GEMM-timed note that trtllm
 * (no MoE kernel of that shape) gives; the checkpoint's own mxfp4 weights
 * are measured: no note. */
static void step_moe_variant_derived_noted(void **state)
{
    (void)state;
    const char *run = "step --model gpt-oss-120b --hw gb200 --chips 8 --tp 8 --batch 64 "
                      "--context 8192";
    assert_int_equal(cli2(run, " --weights fp4 --engine vllm"), 0);
    assert_non_null(strstr(out, "note: vllm's kernel tables on gb200 measure gpt-oss-120b's "
                                "expert shape (hidden 2880, inter 2880, top-4 of 128 experts) "
                                "but not at fp4 weights x bf16 compute: its routed experts are "
                                "derived from the w4a16_mxfp4 MoE table at that same shape"));
    assert_null(strstr(out, "measure no MoE kernel"));
    /* review55: their band is the dtype hold-out's (ops.c DERIVED_BAND, stop
     * 42), x0.55-x2.82 of the step (tolerance 0.05), no longer the MoE
     * table's residuals (x0.89-x1.18), which step --help still said */
    cJSON *j = run_json_noted("step --model gpt-oss-120b --hw gb200 --chips 8 --tp 8 --batch 64 "
                              "--context 8192 --weights fp4 --engine vllm --format json", "");
    const cJSON *r0 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0);
    assert_rel(num(r0, "step_s_high") / num(r0, "step_s"), 2.82, 0.05);
    assert_rel(num(r0, "step_s_low") / num(r0, "step_s"), 0.55, 0.05);
    cJSON_Delete(j);
    assert_int_equal(run_cli("step --help", out, sizeof out), 0);
    if (strstr(out, "derived with the MoE table's band") ||
        !strstr(out, "with the band of a dtype's tables derived from another's"))
        fail_msg("step --help: %.3000s", out);
    assert_int_equal(cli2(run, " --weights fp4 --engine trtllm"), 0);
    assert_non_null(strstr(out, "measure no MoE kernel of gpt-oss-120b's expert shape"));
    assert_null(strstr(out, "at that same shape"));
    assert_int_equal(cli2(run, " --engine vllm"), 0);
    assert_null(strstr(out, "at that same shape"));
    /* review53: pareto notes it for each weights x compute of its grid, as
     * its GEMM notes, once (two fp4 points here, kv bf16 and fp8): it read
     * o->prec alone, so --weights bf16,fp4 said nothing of its fp4 points */
    assert_int_equal(cli2("pareto --model gpt-oss-120b --hw gb200 --engine vllm --chips 8 "
                          "--batch 64 --context 8192 --weights bf16,fp4 --kv bf16,fp8", ""), 0);
    const char *v = strstr(out, "but not at fp4 weights x bf16 compute: its routed experts are "
                                "derived from the w4a16_mxfp4 MoE table at that same shape");
    assert_non_null(v);
    assert_null(strstr(strstr(v, "at that same shape") + 1, "at that same shape"));
}

/* stop 38 #1 (tester56): DeepSeek-V3's frontier on gb200 lists TP64 and
 * TP32 rows (mode calibrated: most of their step is kernel-table time)
 * whose AllReduces over 64 and 32 GPUs the alpha-beta model times, raised
 * to the measured 4-GPU time (hw_profiles/gb200.lua's collectives rows are
 * on 2 and 4 GPUs): outside_tables names them and why, kept in the
 * frontier, and the note says it once; llama3-8b on h100-sxm at 1-8 chips
 * (collectives measured on 2, 4 and 8 GPUs) has none: null. */
static void pareto_names_rows_outside_tables(void **state)
{
    (void)state;
    cJSON *j = json2("pareto --model deepseek-v3 --hw gb200 --context 2048", " --format json");
    const char *far = cJSON_GetStringValue(cJSON_GetObjectItem(j, "outside_tables"));
    assert_non_null(far);
    assert_non_null(strstr(far, "64 chips tp64 kv=replicate B=1, 32 chips tp32 kv=replicate B=1"));
    assert_non_null(strstr(far, "collectives gb200's collectives table does not measure at "
                                "their group size, timed by the alpha-beta model and raised to "
                                "the same collective's measured time on fewer GPUs (AllReduce "
                                "over 64 raised to its 4-GPU trtllm time, 4 octaves beyond; "));
    cJSON_Delete(j);
    /* tester60 #3: on h200 (AllReduce and AllToAll measured on 8 GPUs, ops
     * says so) the note read "measures on 4 at most ... raised to the
     * measured 4-GPU time" for every row, the largest floor of any; each
     * collective, group, floor and table impl now, as ops's timed_by: the
     * 16-chip tp2 ep8 rows' AllToAll over 8 GPUs (crossing the 8-GPU NVLink
     * domain at stride 2) raised to its 4-GPU nccl time.  Until stop 51
     * (issue 12: a measured AllToAll read at the whole array, 8x each
     * rank's buffer over 8) ep16 cost more and the frontier's crossing rows
     * were tp4 ep4's, "AllToAll over 4 raised to its 2-GPU nccl time";
     * now tp1 ep16 and tp2 ep8 rows are on it */
    j = json2("pareto --model deepseek-v3 --hw h200 --weights fp8 --chips 8,16", " --format json");
    far = cJSON_GetStringValue(cJSON_GetObjectItem(j, "outside_tables"));
    assert_non_null(far);
    assert_non_null(strstr(far, "AllToAll over 8 raised to its 4-GPU nccl time, 1 octave beyond"));
    assert_non_null(strstr(far, "AllToAll over 16 raised to its 8-GPU nccl time, 1 octave beyond"));
    assert_null(strstr(far, "at most"));
    cJSON_Delete(j);
    j = json2("pareto --model deepseek-v3 --hw gb200 --context 2048", " --format json");
    const cJSON *first = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(first, "layout")),
                        "tp64 kv=replicate"); /* not hidden */
    cJSON_Delete(j);
    assert_int_equal(cli2("pareto --model deepseek-v3 --hw gb200 --context 2048", ""), 0);
    const char *note;
    note = strstr(out, "note: frontier rows outside what gb200's tables measured");
    assert_non_null(note);
    assert_null(strstr(note + 1, "note: frontier rows outside")); /* once */
    j = json2("pareto --model llama3-8b --hw h100-sxm --context 2048", " --format json");
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "outside_tables")));
    cJSON_Delete(j);
    /* size's rows likewise, once per profile (size.h rl_size_outside_note),
     * and its report under Assumptions */
    char dir[] = "/tmp/rl_cli_XXXXXX", tail[64];
    assert_non_null(mkdtemp(dir));
    snprintf(tail, sizeof tail, " --report %s/r.md", dir);
    assert_int_equal(cli2("size --model deepseek-v3 --hw gb200 --qps 5 --prompt-len 1000 "
                          "--out-len 200 --ttft-p99 2 --tpot-p99 0.1 --requests 200", tail), 0);
    /* review of stop 38 (fixGB #2): the note said "run tensor parallel ...
     * an AllReduce on (4 at most ...)" for every row whose stage had over 4
     * chips, 22 of 33: EP and attention-DP rows too, and rows whose
     * collectives gb200 measures (1x8 tp2 ep4: AllReduce over 2, AllToAll
     * over 4).  Now each row's decode collectives (size.h
     * rl_size_outside_note), named per collective and table impl as
     * pareto's (comm.h rl_comm_floors_text): 19 of the 33 rows of this run
     * (each row's collectives listed by hand from rl_shard_collectives),
     * the AllToAll of the EP and attention-DP rows raised to its 4-GPU
     * nccl time, the AllReduce to its 4-GPU trtllm time.  35 rows since
     * stop 39 (gb200 TensorRT-LLM's experts carry a borrowed MoE-from-GEMM
     * correction, slower: two more rows, still 19 outside); 33 again since
     * stop 41 (the correction non-decreasing, issue 12: its 1-row node
     * x1.39 -> x0.95 for fp8, the two rows gone); 30 since stop 51
     * (issue 12: the measured AllToAll read at each rank's buffer, so EP
     * and attention-DP rows cost less and the first row is attn-dp8's;
     * still 19 outside) */
    note = strstr(out, "note: 19 of 30 rows on gb200 (the first, row gb200 1x8 attn-dp8 ");
    if (!note)
        fail_msg("%s", out);
    assert_non_null(strstr(note, ", layout attn-dp8) run collectives gb200's collectives table "
                                 "does not measure at their group size"));
    assert_non_null(strstr(note, "AllReduce over 8 raised to its 4-GPU trtllm time, 1 octave "
                                 "beyond"));
    assert_non_null(strstr(note, "AllToAll over 8 raised to its 4-GPU nccl time, 1 octave "
                                 "beyond"));
    assert_null(strstr(out, "run tensor parallel over more GPUs"));
    assert_null(strstr(note + 1, "note: 19 of 30 rows on gb200")); /* once */
    char *t = slurp_in(dir, "r.md");
    assert_non_null(strstr(t, "Collectives beyond the measured GPU counts on gb200: "));
    free(t);
    assert_int_equal(remove_tree(dir), 0);
}

/* stop 38 #2: info --hw listed engines only; now the chip's figures as its
 * spec gives them (hw_profiles/a100-sxm-80g.lua: 312 TFLOP/s bf16 dense
 * and 1248 int4 (A100 datasheet), 85899345920 bytes at 2.039e12 B/s, 12
 * NVLink links of 2.5e10 B/s one-way = 3e11 per chip, net 2.5e10 one-way
 * per GPU, USD 2.25 with its source; exact, the spec's numbers), in JSON
 * and in the table (GB/s, TFLOP/s); a spec without a price (the fixture
 * h100-pcie-datasheet.lua; gb200.lua until new-user tester E priced it): null. */
static void info_hw_chip_figures(void **state)
{
    (void)state;
    cJSON *j = json2("info --hw a100-sxm-80g", " --format json");
    const cJSON *f = cJSON_GetObjectItem(j, "peak_flops_per_s");
    assert_true(num(f, "bf16") == 3.12e14 && num(f, "int4") == 1.248e15);
    assert_null(cJSON_GetObjectItem(f, "fp8")); /* no fp8 on Ampere: absent, not 0 */
    assert_true(num(j, "hbm_bytes") == 85899345920.0 && num(j, "hbm_bytes_per_s") == 2.039e12);
    assert_true(num(j, "ici_links") == 12 && num(j, "ici_link_bytes_per_s") == 2.5e10);
    assert_true(num(j, "ici_chip_bytes_per_s") == 3e11 && num(j, "net_bytes_per_s") == 2.5e10);
    assert_true(num(j, "host_link_bytes_per_s") == 3.2e10 && num(j, "price_per_chip_hour") == 2.25);
    assert_non_null(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(j, "price_source")), "A100"));
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(j, "ici_topology")), "switch");
    cJSON_Delete(j);
    assert_int_equal(cli2("info --hw a100-sxm-80g", ""), 0);
    assert_non_null(strstr(out, "peak_TFLOP/s.bf16            312\n"));
    assert_non_null(strstr(out, "net_GB/s                     25\n"));
    assert_non_null(strstr(out, "ici_chip_GB/s                300\n"));
    char unpriced[512];
    snprintf(unpriced, sizeof unpriced, "info --hw %s/tests/data/hw/h100-pcie-datasheet.lua",
             RL_SRCDIR);
    j = json2(unpriced, " --format json");
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "price_per_chip_hour")));
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "price_source")));
    cJSON_Delete(j);
}

/* One quantity, one canonical key in every mode (README tester #2: HBM
 * bandwidth was hbm_bw_bytes_per_s in list hw, hbm_bytes_per_s in info --hw,
 * only hbm_bw_total in step; a plan's calibrated rows lacked tokens_per_s).
 * Expected: list hw's rows carry hbm_bytes_per_s equal to the old
 * hbm_bw_bytes_per_s; every step header hbm_bytes_per_s = 3.35e12 for
 * h100-sxm (its datasheet figure, hw_profiles/h100-sxm.lua) and hbm_bw_total
 * = chips x that; every row tokens_per_s = batch / step_s (one decoded
 * token a sequence a step) = chips x tokens_per_s_per_chip, to 1e-12
 * relative (one division apart). */
static void one_key_per_quantity(void **state)
{
    (void)state;
    static char buf[1 << 20];
    cJSON *j = run_cli_json("list hw --format json", buf, sizeof buf);
    int rows = 0;
    for (const cJSON *r = cJSON_GetObjectItem(j, "rows")->child; r; r = r->next, rows++)
        assert_true(num(r, "hbm_bytes_per_s") == num(r, "hbm_bw_bytes_per_s"));
    assert_true(rows > 5);
    cJSON_Delete(j);
    static const struct {
        const char *args;
        double chips;
    } cases[] = {{"", 1}, {" --ideal", 1}, {" --ideal --chips 8", 8}, {" --chips 8", 8},
                 {" --chips 16 --tp 8", 16}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "step --model llama3-70b --hw h100-sxm --batch 1,8 --context "
                 "2048 --format json%s", cases[i].args);
        j = run_cli_json(cmd, buf, sizeof buf);
        if (num(j, "hbm_bytes_per_s") != 3.35e12 ||
            num(j, "hbm_bw_total") != cases[i].chips * 3.35e12)
            fail_msg("%s: hbm_bytes_per_s %g, hbm_bw_total %g", cmd, num(j, "hbm_bytes_per_s"),
                     num(j, "hbm_bw_total"));
        for (const cJSON *r = cJSON_GetObjectItem(j, "rows")->child; r; r = r->next) {
            double t = num(r, "tokens_per_s");
            if (fabs(t - num(r, "batch") / num(r, "step_s")) > 1e-12 * t ||
                fabs(t - cases[i].chips * num(r, "tokens_per_s_per_chip")) > 1e-12 * t)
                fail_msg("%s: tokens_per_s %.17g", cmd, t);
        }
        cJSON_Delete(j);
    }
}

/* h27lab (issue 14 carried): the memory rule's byte counts print whole
 * (round to the nearest byte): vLLM's context 1.79 GiB read
 * cuda_context_bytes 1921997864.96 in info, and usable_bytes 0.92 x 80e9
 * - ... 70325087436.8 in step.  Expected: 1921997865 (context and, at TP
 * > 1, collective buffers: 1.79 GiB each), every *_bytes key an integer
 * (the workspace, 1352914698 = 1.26 GiB in engine files before fixKA, is
 * 0 after: vLLM's now follows the model, memory.h rl_memory_workspace). */
static void memory_bytes_whole(void **state)
{
    (void)state;
    cJSON *j = json2("info --hw h100-sxm", " --format json");
    int vllm = 0;
    for (const cJSON *r = cJSON_GetObjectItem(j, "engines")->child; r; r = r->next)
        if (!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(r, "engine")), "vllm")) {
            vllm = 1;
            assert_true(num(r, "cuda_context_bytes") == 1921997865.0);
            assert_true(num(r, "comm_buffer_bytes") == 1921997865.0);
        }
    assert_true(vllm);
    cJSON_Delete(j);
    static const char *const keys[] = {"cuda_context_bytes", "comm_buffer_bytes",
                                       "workspace_bytes", "capacity_bytes", "usable_bytes"};
    static const char *const steps[] = {"--model llama3-70b --chips 4", /* comm buffers */
                                        "--model llama3-8b"};          /* usable_bytes */
    for (int s = 0; s < 2; s++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "step %s --hw h100-sxm --engine vllm --batch 8 --context 1000",
                 steps[s]);
        j = json2(cmd, " --format json");
        for (size_t i = 0; i < (s ? 5 : 3); i++) {
            double v = num(j, keys[i]);
            if (!(v > 0 || (s && i == 1)) || v != floor(v)) /* no comm buffers at TP 1 */
                fail_msg("%s: %s %.17g", cmd, keys[i], v);
        }
        cJSON_Delete(j);
    }
}

/* Tester finding 4: size selects --engine as simulate does (vLLM's kernel
 * tables time the steps, so the rows change) and refuses an engine a
 * profile lacks with exit 2, naming the profile (over a list: only when no
 * profile listed has it, fixND #11). */
static void size_engine(void **state)
{
    (void)state;
    const char *base = "size --model llama3-8b --qps 5 --prompt-len 500 --out-len 50 "
                       "--ttft-p99 0.5 --tpot-p99 0.05 --requests 100 --keep-precision";
    cJSON *def = json2(base, " --hw h100-sxm --format json");
    double t_def = num(cJSON_GetArrayItem(cJSON_GetObjectItem(def, "rows"), 0), "tpot_p99_s");
    cJSON *vllm = json2(base, " --hw h100-sxm --engine vllm --format json");
    double t_vllm = num(cJSON_GetArrayItem(cJSON_GetObjectItem(vllm, "rows"), 0), "tpot_p99_s");
    assert_true(t_vllm != t_def);
    cJSON_Delete(def);
    cJSON_Delete(vllm);
    assert_int_equal(cli2(base, " --hw h100-sxm --engine bogus"), 2);
    assert_non_null(strstr(out, "carries no engine 'bogus'"));
    /* fixND #11: a list applies the engine where a profile has it (the
     * rows: size_engine_where_it_applies); refused when none listed has it */
    assert_int_equal(cli2(base, " --hw tpu-v5e,tpu-v5p --engine vllm"), 2);
    assert_non_null(strstr(out, "--engine vllm: no profile listed carries it"));
    assert_non_null(strstr(out, "tpu-v5e.lua carries no engine 'vllm'"));
}

/* fixNI #1: --keep-precision fp8 drops tpu-v5e (no fp8 peak); h100-sxm,
 * which carries vllm, is then sized on vllm (before: exit 2 "no profile
 * listed carries it", counting the dropped tpu-v5e as the first lacking
 * it; with tpu-v5e listed first the message quoted its fp8 error as the
 * engine reason).  A list none of which carries it is still refused:
 * size_engine. */
static void size_engine_after_keep_precision(void **state)
{
    (void)state;
    const char *base = "size --model llama3-8b --engine vllm --keep-precision --weights fp8 "
                       "--compute fp8 --prompt-len 1000 --out-len 200 --qps 5 --ttft-p99 1 "
                       "--tpot-p99 0.05 --requests 100";
    const char *lists[] = {" --hw h100-sxm,tpu-v5e", " --hw tpu-v5e,h100-sxm"};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(cli2(base, lists[i]), 0);
        assert_non_null(strstr(out, "note: --keep-precision on tpu-v5e: "));
        assert_null(strstr(out, "no profile listed carries it"));
    }
}

/* Issue 13 item 4 and tester finding 10 (stop 18): simulate and size carry
 * the kernel-table band of h100-sxm (TensorRT-LLM residuals), from the same
 * requests served with every table-timed kernel at its class's p10 / p90
 * (e2e.h rl_e2e_band_edge), and `size --conservative` sizes on that high
 * edge: each of its rows reads exactly its own _high (the same run), and
 * the plain search's row of the same configuration has that figure as its
 * _high (same requests, same edge: equal to the last bit).  The p5-p95 band
 * (--band p5-p95) is at least as wide as p10-p90. */
static void size_band_is_conservative_edge(void **state)
{
    (void)state;
    const char *sim = "simulate --model llama3-8b --hw h100-sxm --qps 5 --requests 100 "
                      "--prompt-len 1000 --out-len 100 --format json";
    cJSON *j = run_cli_json(sim, out, sizeof out);
    assert_string_equal(cJSON_GetObjectItem(j, "band")->valuestring, "p10-p90");
    double v = num(j, "tpot_p99_s"), hi = num(j, "tpot_p99_s_high");
    assert_true(num(j, "tpot_p99_s_low") <= v && v < hi);
    cJSON *w = json2(sim, " --band p5-p95");
    assert_string_equal(cJSON_GetObjectItem(w, "band")->valuestring, "p5-p95");
    assert_true(num(w, "tpot_p99_s_high") >= hi && num(w, "tpot_p99_s") == v);
    cJSON_Delete(j);
    cJSON_Delete(w);
    const char *base = "size --model llama3-8b --qps 2 --prompt-len 1000 --out-len 100 "
                       "--ttft-p99 1 --tpot-p99 0.05 --requests 200 --keep-precision "
                       "--format json";
    cJSON *plain = json2(base, " --hw h100-sxm");
    cJSON *cons = json2(base, " --hw h100-sxm --conservative");
    const cJSON *row, *prow;
    int matched = 0;
    /* fixND #2: the keys mean the same in both modes: a conservative row's
     * ttft_p99_s / tpot_p99_s are the central prediction, the plain row's
     * of the same configuration (its run at the band's centre: the same
     * requests on the same profile, exactly), and its _low / _high the
     * plain row's band; the high edge it was sized against is its _high
     * (sized_against band_high).  Before: ttft_p99_s held the high edge. */
    cJSON_ArrayForEach(row, cJSON_GetObjectItem(cons, "rows")) {
        assert_true(num(row, "ttft_p99_s") <= num(row, "ttft_p99_s_high"));
        assert_true(num(row, "tpot_p99_s") <= num(row, "tpot_p99_s_high"));
        cJSON_ArrayForEach(prow, cJSON_GetObjectItem(plain, "rows"))
            if (!strcmp(cJSON_GetObjectItem(prow, "config")->valuestring,
                        cJSON_GetObjectItem(row, "config")->valuestring)) {
                static const char *const k[6] = {"ttft_p99_s", "ttft_p99_s_low",
                                                  "ttft_p99_s_high", "tpot_p99_s",
                                                  "tpot_p99_s_low", "tpot_p99_s_high"};
                for (int i = 0; i < 6; i++)
                    if (num(prow, k[i]) != num(row, k[i]))
                        fail_msg("%s: %s %.9g conservative, %.9g plain",
                                 cJSON_GetObjectItem(row, "config")->valuestring, k[i],
                                 num(row, k[i]), num(prow, k[i]));
                matched++;
            }
    }
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(cons, "sized_against")),
                        "band_high");
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(plain, "sized_against")),
                        "central");
    assert_true(matched > 0); /* rows of the same configuration, each checked exactly */
    /* tester3 item 8: a saved result says how it was sized */
    assert_false(cJSON_IsTrue(cJSON_GetObjectItem(plain, "conservative")));
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(cons, "conservative")));
    assert_string_equal(cJSON_GetObjectItem(cons, "band")->valuestring, "p10-p90");
    cJSON_Delete(plain);
    cJSON_Delete(cons);
    assert_int_equal(cli2(base, " --hw tpu-v5e --conservative"), 2);
    assert_non_null(strstr(out, "tpu-v5e has none"));
}

/* A size row's p5-p95 band holds its p10-p90 band (simulate's rule, e2e.h
 * rl_e2e_band_runs, now in size's band_rows): llama3-8b on h100-sxm at 20
 * req/s, 256+64 tokens, 1000 requests: every row of the wide search reads
 * each KEY_low at most, each KEY_high at least, the same row's edge in the
 * default search (exact: the same runs' figures, no tolerance), and some
 * edge reads wider.  Before: the bf16 chunked:2048 B<=256 row read
 * ttft_p99_s_low 18.248 ms at p5-p95 above 18.214 ms at p10-p90 (its p5
 * run alone). */
static void size_wide_band_holds_narrow(void **state)
{
    (void)state;
    /* RL_SAN_SMALL: 300 requests (the same 12 rows, 144 edges, all wider:
     * bin/roofline, 2026-12-06) */
    char base[256];
    snprintf(base, sizeof base, "size --model llama3-8b --hw h100-sxm --qps 20 --prompt-len 256 "
             "--out-len 64 --ttft-p99 0.5 --tpot-p99 0.05 --requests %d --format json",
             rl_san_small() ? RL_SAN_SMALL_REQUESTS : 1000);
    cJSON *narrow = json2(base, ""), *wide = json2(base, " --band p5-p95");
    const cJSON *row, *nrow;
    int keys = 0, wider = 0;
    cJSON_ArrayForEach(row, cJSON_GetObjectItem(wide, "rows"))
        cJSON_ArrayForEach(nrow, cJSON_GetObjectItem(narrow, "rows")) {
            if (strcmp(cJSON_GetObjectItem(nrow, "config")->valuestring,
                       cJSON_GetObjectItem(row, "config")->valuestring))
                continue;
            for (const cJSON *k = nrow->child; k; k = k->next) {
                size_t n = strlen(k->string);
                int low = n > 4 && !strcmp(k->string + n - 4, "_low");
                if (!cJSON_IsNumber(k) || (!low && (n < 6 || strcmp(k->string + n - 5, "_high"))))
                    continue;
                double w = num(row, k->string);
                if (low ? w > k->valuedouble : w < k->valuedouble)
                    fail_msg("%s %s: %.6g at p5-p95, %.6g at p10-p90",
                             cJSON_GetObjectItem(row, "config")->valuestring, k->string, w,
                             k->valuedouble);
                keys++;
                wider += w != k->valuedouble;
            }
        }
    assert_true(keys >= 12 * 12); /* 12 rows, 12 edges each */
    assert_true(wider > 0);
    cJSON_Delete(narrow);
    cJSON_Delete(wide);
}

/* Tester finding 9, then stop 19's tester finding 4: pareto's label says how
 * its points were timed.  On a profile with kernel tables they are timed
 * calibrated (sweep.h) and the result says mode calibrated and names the
 * engine; --ideal (formula (1), no collectives) and --engine ideal (the
 * plans at the datasheet peaks) say ideal; the help says which is which.
 * The plot's title says the same mode and engine as the JSON (review-a
 * finding 8: it read "shard plans + collectives" whatever the mode), the
 * frontier rows' mode by the JSON's rule (fixIE); since fixTE #3 the mode
 * its curves share (one curve here, so the rows'). */
static void pareto_mode_honest(void **state)
{
    (void)state;
    static const char *const args[][3] = {
        {"", "calibrated",
         "S = 2048: frontier per precision (calibrated, engine trtllm; collectives)"},
        {"--ideal", "ideal",
         "S = 2048: frontier per precision (ideal, engine none; no collectives)"},
        {"--engine ideal", "ideal",
         "S = 2048: frontier per precision (ideal, engine none; collectives)"}};
    char dir[] = "/tmp/rl_ptitle_XXXXXX";
    assert_non_null(mkdtemp(dir));
    for (int i = 0; i < 3; i++) {
        char cmd[256], gp[64];
        snprintf(cmd, sizeof cmd, "pareto --model llama3-8b --hw h100-sxm --chips 1 --batch 1 %s "
                                  "--plot %s/p%d.svg --format json", args[i][0], dir, i);
        cJSON *j = run_cli_json(cmd, out, sizeof out);
        assert_string_equal(cJSON_GetObjectItem(j, "mode")->valuestring, args[i][1]);
        assert_string_equal(cJSON_GetObjectItem(j, "engine")->valuestring,
                            i == 0 ? "trtllm" : "none");
        cJSON_Delete(j);
        snprintf(gp, sizeof gp, "p%d.gp", i);
        assert_file_contains(dir, gp, args[i][2]);
    }
    assert_int_equal(remove_tree(dir), 0);
    assert_int_equal(run_cli("pareto --help", out, sizeof out), 0);
    assert_null(strstr(out, "with or without --ideal"));
    /* fixIL #3: the TPU presets read estimated (the datasheet figures), not ideal */
    assert_non_null(strstr(out, "Without measurements (the TPU\npresets: mode estimated"));
    assert_non_null(strstr(out, "--engine ideal (mode ideal)"));
    assert_non_null(strstr(out, "as `step --tp` and `prefill --tp` time it"));
}

/* fixIL #3 (README tester): pareto --help said a profile without
 * measurements runs in mode ideal; tpu-v5e's result reads estimated (the
 * datasheet figures, as step --tp labels them: docs/model.md, the modes),
 * and its rows had no mode or table_time_share, which calibrated rows
 * have.  Each row now carries the header's mode (estimated; ideal under
 * --ideal and --engine ideal), table_time_share null, ttft_mode alike. */
static void pareto_uncalibrated_rows_have_mode(void **state)
{
    (void)state;
    static const struct {
        const char *args, *mode;
    } cases[] = {{"--hw tpu-v5e --chips 8,16", "estimated"},
                 {"--hw tpu-v5e --chips 16 --ideal", "ideal"},
                 {"--hw h100-sxm --chips 8 --engine ideal", "ideal"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "pareto --model llama3-70b %s --format json", cases[i].args);
        cJSON *j = run_cli_json(cmd, out, sizeof out), *r;
        assert_string_equal(cJSON_GetObjectItem(j, "mode")->valuestring, cases[i].mode);
        int rows = 0;
        cJSON_ArrayForEach(r, cJSON_GetObjectItem(j, "rows")) {
            const cJSON *mode = cJSON_GetObjectItem(r, "mode");
            if (!cJSON_IsString(mode))
                fail_msg("%s: row %d has no mode", cmd, rows);
            assert_string_equal(mode->valuestring, cases[i].mode);
            assert_string_equal(cJSON_GetObjectItem(r, "ttft_mode")->valuestring, cases[i].mode);
            assert_true(cJSON_IsNull(cJSON_GetObjectItem(r, "table_time_share")));
            rows++;
        }
        assert_true(rows > 0);
        cJSON_Delete(j);
    }
}

/* fixIL #2 (README tester): docs/cli.md lists slo_ttft_p99_s and
 * slo_tpot_p99_s among simulate's JSON keys (param.c, the flags' keys), but
 * the result had only slo_attainment: a saved run did not say what it was
 * judged against.  Now it records the targets as given (0.05 s, 0.01 s,
 * exact), null without them. */
static void simulate_records_slo_targets(void **state)
{
    (void)state;
    static const char base[] = "simulate --model llama3-8b --hw h100-sxm --qps 2 --requests 200 "
                               "--prompt-len 500 --out-len 50 --format json";
    char cmd[256];
    snprintf(cmd, sizeof cmd, "%s --ttft-p99 0.05 --tpot-p99 0.01", base);
    cJSON *j = run_cli_json(cmd, out, sizeof out);
    assert_true(cJSON_IsNumber(cJSON_GetObjectItem(j, "slo_attainment")));
    assert_true(num(j, "slo_ttft_p99_s") == 0.05);
    assert_true(num(j, "slo_tpot_p99_s") == 0.01);
    cJSON_Delete(j);
    j = run_cli_json(base, out, sizeof out);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "slo_ttft_p99_s")));
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "slo_tpot_p99_s")));
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "slo_attainment")));
    cJSON_Delete(j);
}

/* fixIL #1 (README tester): pareto --plot of llama3-70b on 2, 4, 8 H100
 * at bf16/fp8 weights x KV drew four curves (each precision's own
 * frontier: 10, 11, 10, 11 points) beside 11 fp8/fp8 rows, keyed by
 * precision only, under a title "frontier rows estimated" while the bf16
 * weights' curves are calibrated (every point's table time share >= the
 * calibrated bound; rl_result_sweep_mode per curve), cut off at the PNG's
 * right edge (125 characters).  Now each key names its mode, the result's
 * plot_curves says what the plot draws, and the title is shorter (104
 * characters here, which fit 1280 pixels: checked by eye on the PNG).
 * Since stop 45's XQA / masked-MHA decode tables the bf16-KV curves hold
 * 9 points (a batch-1 step on a bf16 KV cache reads masked MHA's table). */
static void pareto_plot_curves_labelled(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_pcurves_XXXXXX", cmd[320];
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "pareto --model llama3-70b --hw h100-sxm --chips 2,4,8 --weights "
             "bf16,fp8 --kv bf16,fp8 --plot %s/p.png --format json", dir);
    cJSON *j = run_cli_json(cmd, out, sizeof out);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(j, "rows")), 11);
    const cJSON *pc = cJSON_GetObjectItem(j, "plot_curves");
    assert_true(cJSON_IsString(pc));
    assert_string_equal(pc->valuestring,
                        "the plot draws each precision's own frontier (weights bf16, KV bf16 "
                        "(calibrated): 9 point(s); weights bf16, KV fp8 (calibrated): 11 "
                        "point(s); weights fp8, KV bf16 (estimated): 9 point(s); weights fp8, KV "
                        "fp8 (estimated): 11 point(s)); rows hold the overall frontier");
    cJSON_Delete(j);
    assert_file_contains(dir, "p.gp", "titles[1] = 'weights bf16, KV bf16 (calibrated)'");
    assert_file_contains(dir, "p.gp", "titles[4] = 'weights fp8, KV fp8 (estimated)'");
    assert_file_contains(dir, "p.gp", "plottitle = 'llama3-70b on h100-sxm, S = 2048: frontier "
                                      "per precision (mode per curve, engine trtllm; collectives)'");
    /* fixTE #3 (fresh-user tester): at S = 4096, batches 1..256, bf16/fp8
     * weights, the title read "rows estimated" above a bf16 curve keyed
     * calibrated, and the fp8 curve keyed estimated held a calibrated point
     * (8 chips, batch 256: table time share 0.53).  Now the title says the
     * curves' modes differ and the fp8 key counts its calibrated points, 1
     * of its 6 (each by rl_result_sweep_mode alone; exact counts). */
    snprintf(cmd, sizeof cmd, "pareto --model llama3-70b --hw h100-sxm --chips 2,4,8 --batch "
             "1,16,64,256 --context 4096 --weights bf16,fp8 --plot %s/f.png", dir);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    assert_file_contains(dir, "f.gp", "plottitle = 'llama3-70b on h100-sxm, S = 4096: frontier "
                                      "per precision (mode per curve, engine trtllm; collectives)'");
    assert_file_contains(dir, "f.gp",
                         "titles[2] = 'weights fp8, KV bf16 (estimated; 1 of 6 points calibrated)'");
    assert_int_equal(remove_tree(dir), 0);
    /* without --plot, no plot_curves */
    j = run_cli_json("pareto --model llama3-8b --hw h100-sxm --chips 1 --batch 1 --format json",
                     out, sizeof out);
    assert_null(cJSON_GetObjectItem(j, "plot_curves"));
    cJSON_Delete(j);
}

/* tester56 F1: deepseek-v3 on b200's trtllm has no MoE kernel of its expert
 * shape, so its routed experts are timed from the dense GEMM table (step's
 * note; provenance derived).  pareto's rows read derived "none" and it said
 * nothing: every row now names the experts in `derived` and stderr gives
 * step's note once, before the JSON; ttft_mode labels its prefill, which
 * the decode step's mode did not (the tp8 row read calibrated).  tester56 F3: on vLLM, whose b200
 * tables hold fp8 attention but no MLA attention at fp8, the note and the
 * rows name MLA attention, not "fp8 KV-cache attention". */
static void pareto_derived_moe_and_mla(void **state)
{
    (void)state;
    static const char note[] = "note: trtllm's kernel tables on b200 measure no MoE kernel of "
                               "deepseek-v3's expert shape";
    const char *base = "pareto --model deepseek-v3 --hw b200 --chips 8 --weights fp8 --kv fp8 "
                       "--compute fp8 --batch 1,64 --format json";
    assert_int_equal(cli2(base, ""), 0);
    const char *at = strstr(out, note), *json = strchr(out, '{');
    if (!at || strstr(at + 1, note) || !json || at > json)
        fail_msg("the MoE note not once before the JSON: %.800s", out);
    cJSON *j = cJSON_Parse(json), *r;
    int rows = 0;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(j, "rows")) {
        rows++;
        assert_non_null(strstr(cJSON_GetObjectItem(r, "derived")->valuestring,
                               "routed experts from the dense GEMM table"));
        /* the prefill's own label: `prefill --chips 8 --tp 8 --tokens 2000`
         * reads estimated (table_time_share 0.223) */
        assert_string_equal(cJSON_GetObjectItem(r, "ttft_mode")->valuestring, "estimated");
    }
    assert_true(rows > 0);
    cJSON_Delete(j);
    assert_int_equal(cli2(base, " --engine vllm"), 0);
    assert_non_null(strstr(out, "vllm's kernel tables on b200 have no MLA decode/prefill attention "
                                "at a fp8 KV cache"));
    assert_null(strstr(out, "no fp8 KV-cache attention"));
    j = cJSON_Parse(strchr(out, '{'));
    r = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0);
    assert_non_null(r);
    assert_non_null(strstr(cJSON_GetObjectItem(r, "derived")->valuestring,
                           "MLA attention at a fp8 KV cache"));
    cJSON_Delete(j);
}

/* tester54 F1: pareto's mode labelled the whole run (estimated when any
 * feasible point was), and its rows said nothing of their own.  The
 * document's mode is now its rows' worst, as a fitted pareto's (one rule,
 * sweep_mode): here every row is calibrated (shares 0.70-0.94), so the
 * header reads calibrated (it read estimated from points not shown).  Each
 * row of a calibrated sweep now carries its mode and table_time_share as
 * step's --batch rows do: the tp8 batch-1 fp8 point is `step --tp 8` at
 * that batch, the same share (0.9127, 1e-9) and mode; every row's mode is
 * calibrated exactly when its share is at least RL_TABLE_SHARE_MIN.  With
 * --weights bf16,fp8 under bf16 compute the fp8-weight points' GEMMs have
 * no table on h100-sxm's trtllm (derived): the note step gives is said
 * once, and those rows name it in `derived` ("none" on the others). */
static void pareto_rows_mode_and_derived(void **state)
{
    (void)state;
    cJSON *j = run_cli_json("pareto --model llama3-70b --hw h100-sxm --chips 1,2,4,8,16 --weights "
                            "fp8 --kv fp8 --compute fp8 --format json", out, sizeof out);
    cJSON *st = run_cli_json("step --model llama3-70b --hw h100-sxm --tp 8 --batch 1 --context 2048 "
                             "--weights fp8 --kv fp8 --compute fp8 --format json", out, sizeof out);
    const cJSON *want = cJSON_GetArrayItem(cJSON_GetObjectItem(st, "rows"), 0), *r;
    assert_string_equal(cJSON_GetObjectItem(j, "mode")->valuestring, "calibrated");
    int seen = 0;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(j, "rows")) {
        double share = num(r, "table_time_share");
        assert_string_equal(cJSON_GetObjectItem(r, "mode")->valuestring,
                            share >= RL_TABLE_SHARE_MIN ? "calibrated" : "estimated");
        assert_string_equal(cJSON_GetObjectItem(r, "derived")->valuestring, "none");
        if (num(r, "batch") == 1 && !strcmp(cJSON_GetObjectItem(r, "layout")->valuestring, "tp8")) {
            seen++;
            assert_true(fabs(share - num(want, "table_time_share")) < 1e-9);
            assert_string_equal(cJSON_GetObjectItem(r, "mode")->valuestring,
                                cJSON_GetObjectItem(want, "mode")->valuestring);
        }
    }
    assert_int_equal(seen, 1);
    cJSON_Delete(st);
    cJSON_Delete(j);
    static const char note[] = "note: trtllm's kernel tables on h100-sxm have no GEMM of fp8 "
                               "weights x bf16 compute";
    assert_int_equal(run_cli("pareto --model llama3-70b --hw h100-sxm --chips 8 --weights bf16,fp8 "
                             "--kv bf16,fp8 --format json", out, sizeof out), 0);
    const char *at = strstr(out, note), *json = strchr(out, '{');
    if (!at || strstr(at + 1, note) || !json)
        fail_msg("the derived note not once: %.800s", out);
    j = cJSON_Parse(json);
    int derived = 0;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(j, "rows")) {
        const cJSON *d = cJSON_GetObjectItem(r, "derived");
        if (!strcmp(cJSON_GetObjectItem(r, "weights")->valuestring, "fp8")) {
            derived++;
            assert_string_equal(d->valuestring, "GEMM of fp8 weights x bf16 compute");
            assert_string_equal(cJSON_GetObjectItem(r, "mode")->valuestring, "estimated");
        } else
            assert_string_equal(d->valuestring, "none");
    }
    assert_true(derived > 0);
    cJSON_Delete(j);
}

/* Tester finding 16: one function labels a profile's default runs
 * (spec.h rl_hw_default_mode), so list hw, info --hw and step agree that
 * h100-sxm-splitwise (fitted engine costs, its default engine) runs
 * "fitted" (list and info said "estimated"), and list --help no longer
 * says a profile without efficiency tables reads "ideal". */
static void mode_labels_agree(void **state)
{
    (void)state;
    cJSON *j = run_cli_json("list hw --format json", out, sizeof out);
    int seen = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(j, "rows"))
        if (strcmp(cJSON_GetObjectItem(r, "name")->valuestring, "h100-sxm-splitwise") == 0) {
            assert_string_equal(cJSON_GetObjectItem(r, "mode")->valuestring, "fitted");
            seen = 1;
        }
    assert_true(seen);
    cJSON_Delete(j);
    j = run_cli_json("info --hw h100-sxm-splitwise --format json", out, sizeof out);
    assert_string_equal(cJSON_GetObjectItem(j, "mode")->valuestring, "fitted");
    cJSON_Delete(j);
    j = run_cli_json("step --model llama2-70b --hw h100-sxm-splitwise --chips 4 --context 2048 "
                     "--format json", out, sizeof out);
    assert_string_equal(cJSON_GetObjectItem(j, "mode")->valuestring, "fitted");
    cJSON_Delete(j);
    assert_int_equal(run_cli("list --help", out, sizeof out), 0);
    assert_null(strstr(out, "else ideal"));
}

/* Tester3 finding 6: `calibrated` only when ops timed by kernel tables at
 * the run's dtypes carry at least half of the step (spec.h rl_run_mode).
 * Shares from the h100-sxm / h200 TensorRT-LLM tables in the repo, decode
 * at context 8192 (measured with `ops` on this branch after main 4e2605b's
 * fused q/k/v and gate/up lookups; tolerance 0.05, as lookups change the
 * shares move a little, the verdict is what matters): llama3-70b tp8 B=1
 * int8 0.201 (GEMMs derived; 0.147 and deepseek-v3's below 0.354 before
 * tester44 F5, whose faster fp8 GEMMs moved both), fp8 0.937 (0.116 and 0.743 while its 160
 * AllReduces took NCCL's 18.44 us each rather than TensorRT-LLM's own
 * 3.56 us, fixS: the collectives are in the denominator); deepseek-v3 h200 ep8 B=64 fp8
 * 0.280 (0.300 with the experts timed from the GEMM table since stop 33,
 * tester43 F10, the step 33.95 -> 37.66 ms; then 0.280 with fp8 GEMMs from
 * the faster block-scaled rows, tester44 F5; 0.333 at their roofline, quoted 0.354; 0.300 before stop 24, when each chip's attention GEMMs
 * read 1/8 of the weights its group stores whole; its MLA attention read from decode_mla since
 * h20mla, 0.251 when it was roofline; 0.419 before fixY, when each chip's
 * MLA kernel read all 64 sequences' latent for 16 heads instead of its
 * group's 8 sequences for all 128: shard.h rl_shard_kv_layout); llama3-8b fp4 weights 0.251 (GEMMs
 * derived; 0.212 before h20kt's hole filling). */
static void table_share_labels(void **state)
{
    (void)state;
    static const struct {
        const char *args, *mode;
        double share;
    } cases[] = {
        {"--model llama3-70b --hw h100-sxm --chips 8 --tp 8 --batch 1 --weights int8 --compute int8",
         "estimated", 0.201},
        {"--model llama3-70b --hw h100-sxm --chips 8 --tp 8 --batch 1 --weights fp8 --compute fp8",
         "calibrated", 0.937},
        {"--model deepseek-v3 --hw h200 --chips 8 --ep 8 --batch 64 --weights fp8 --compute fp8",
         "estimated", 0.280},
        {"--model llama3-8b --hw h100-sxm --batch 1 --weights fp4", "estimated", 0.251},
    };
    char cmd[512];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(cmd, sizeof cmd, "ops %s --context 8192 --format json", cases[i].args);
        cJSON *j = run_cli_json(cmd, out, sizeof out);
        assert_string_equal(cJSON_GetObjectItem(j, "mode")->valuestring, cases[i].mode);
        assert_true(fabs(num(j, "table_time_share") - cases[i].share) < 0.05);
        cJSON_Delete(j);
    }
    /* one configuration, every command: simulate's replica (tp8 int8, the
     * decode step at its time-weighted batch and mean context, ops.h
     * rl_ops_serving_share) reads what step and ops say of that decode step */
    cJSON *sim = run_cli_json("simulate --model llama3-70b --hw h100-sxm --chips 8 --weights int8 "
                              "--compute int8 --qps 2 --prompt-len 1024 --out-len 256 "
                              "--requests 50 --format json", out, sizeof out);
    long long b = llround(fmax(1, num(sim, "mean_decode_batch_time")));
    long long ctx = llround(num(sim, "mean_decode_context"));
    const char *mode = cJSON_GetObjectItem(sim, "mode")->valuestring;
    static const char *const cmds[] = {"step", "ops"};
    double share[2];
    for (int i = 0; i < 2; i++) {
        snprintf(cmd, sizeof cmd, "%s --model llama3-70b --hw h100-sxm --chips 8 --tp 8 "
                 "--weights int8 --compute int8 --batch %lld --context %lld --format json",
                 cmds[i], b, ctx);
        cJSON *j = run_cli_json(cmd, out, sizeof out);
        assert_string_equal(cJSON_GetObjectItem(j, "mode")->valuestring, mode);
        share[i] = num(j, "table_time_share");
        cJSON_Delete(j);
    }
    assert_true(fabs(share[0] - share[1]) < 1e-9);
    cJSON_Delete(sim);
}

/* validate --against on a profile with kernel tables but no fitted costs
 * predicts its rows calibrated, as step does (tester8 #5; before: ideal,
 * with a warning saying so); each row says its mode. */
static void validate_against_calibrated(void **state)
{
    (void)state;
    int rc = run_cli("validate --against " RL_SRCDIR "/tests/data/e2e/splitwise_h100.csv "
                     "--model llama2-70b --hw h100-sxm --set model.max_context=16384 --format json",
                     out, sizeof out);
    assert_int_equal(rc, 0);
    assert_null(strstr(out, "warning:"));
    assert_non_null(strstr(out, "\"mode\":\t\"calibrated\""));
    assert_null(strstr(out, "\"ideal\""));
    rc = run_cli("validate --against " RL_SRCDIR "/tests/bad_inputs/e2e/three_rows.csv " /* no hw column */
                 "--model llama2-70b --hw h100-sxm-splitwise --format csv", out, sizeof out);
    assert_int_equal(rc, 0);
    assert_null(strstr(out, "warning:"));
}

/* fixGI (README tester #1): the shipped h100-sxm-splitwise profile was
 * fitted (calib/fit_splitwise.sh) on the 94 rows of which
 * tests/data/e2e/splitwise_h100.csv holds the 47 H100 ones, so validating
 * it on them reads in-sample, all 47, whether the model comes from --model
 * (the excerpt has no model column) or from a model column: the key is
 * the row as timed.  Before the refit its fitted_on.row_keys were the old
 * cell keys of fit's own CSV (model column given), which this excerpt
 * spells otherwise: in_sample false, 0 rows. */
static void validate_shipped_splitwise_in_sample(void **state)
{
    (void)state;
    static const char *const csv[] = {
        "cat " RL_SRCDIR "/tests/data/e2e/splitwise_h100.csv",
        "awk -F, -v OFS=, '/^#/ {print; next} {$1 = $1 \",\" ($1 == \"phase\" ? \"model\" "
        ": \"llama2-70b\"); print}' " RL_SRCDIR "/tests/data/e2e/splitwise_h100.csv"};
    char dir[] = "/tmp/rl_swin_XXXXXX", cmd[1024];
    assert_non_null(mkdtemp(dir));
    for (size_t k = 0; k < sizeof csv / sizeof *csv; k++) {
        snprintf(cmd, sizeof cmd, "%s > %s/rows.csv", csv[k], dir);
        assert_int_equal(system(cmd), 0);
        snprintf(cmd, sizeof cmd, "validate --against %s/rows.csv --hw h100-sxm-splitwise "
                 "--model llama2-70b --set model.max_context=16384 --plot %s/v.svg --format json",
                 dir, dir);
        cJSON *v = run_json_noted(cmd, "warning: the profile was fitted on these very rows");
        /* fixIL #4: the figure's title says in-sample as the JSON does */
        assert_file_contains(dir, "v.gp", "plottitle = 'roofline validate: in-sample (fitted on "
                                          "these rows), predicted vs measured (47 rows)'");
        assert_int_equal(cJSON_GetObjectItem(v, "measured_rows")->valueint, 47);
        assert_true(cJSON_IsTrue(cJSON_GetObjectItem(v, "in_sample")));
        assert_int_equal(cJSON_GetObjectItem(v, "in_sample_rows")->valueint, 47);
        cJSON_Delete(v);
    }
    snprintf(cmd, sizeof cmd, "rm -r %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* tester54 F4: validate --against a CSV whose one estimated row (tpu-v5e,
 * no kernel tables) is its line 9 of 10 named it "the first, a row"; the
 * note names it by its CSV line (the row's key line, 9). */
static void validate_estimated_rows_by_line(void **state)
{
    (void)state;
    cJSON *j = run_json_noted("validate --against " RL_SRCDIR "/tests/data/e2e/estimated_last_row.csv "
                              "--format json", "1 of 6 rows read mode estimated (CSV line 9)");
    const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "rows"), 4);
    assert_int_equal((long long)num(row, "line"), 9);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(row, "mode")->valuestring, "estimated");
    assert_null(strstr(out, "a row"));
    /* tester55 F1: the row has no kernel tables, so the note does not say
     * tables time less than half of it (its reason for table-timed rows) */
    assert_non_null(strstr(out, "a chip with no tables"));
    assert_null(strstr(out, "time less than half"));
    cJSON_Delete(j);
}

/* tester5 #4: simulate --chips 16 on h100-sxm (8-GPU NVLink domain) runs
 * one 16-chip replica across two nodes, where step runs tp8 x2: a note
 * names the layout and the flags that keep replicas inside a domain; 8
 * chips (one domain) get no such note. */
static void simulate_notes_cross_domain(void **state)
{
    (void)state;
    const char *base = "simulate --model llama3-70b --hw h100-sxm --weights fp8 --compute fp8 "
                       "--prompt-len 1000 --out-len 200 --requests 50 --qps 5 --format json ";
    assert_int_equal(cli2(base, "--chips 16"), 0);
    assert_non_null(strstr(out, "note: each replica runs 16 chips per pipeline stage, beyond one "
                                "8-chip NVLink/ICI domain of h100-sxm"));
    assert_non_null(strstr(out, "16 chips' automatic plan is tp8 x 2 replicas"));
    assert_non_null(strstr(out, "simulate --chips 8 --replicas 2"));
    /* tester64 #5: the note names the collectives that cross, as step's
     * fabric column (nvlink+net): tp16's AllReduces here; under tp4 ep4
     * (deepseek-v3, --ep 4) only the AllToAlls, 4 chips 4 apart (stride x
     * group 16 > 8, comm.c), while the TP AllReduces over 4 neighbours stay
     * on NVLink (step --chips 16 --tp 4 --ep 4: AllReduce group 4 nvlink) */
    assert_non_null(strstr(out, "AllReduce over 16 chips (attn out AllReduce, MLP out "
                                "AllReduce), of its tp16 ep1 plan, crosses the scale-out"));
    assert_int_equal(cli2("simulate --model deepseek-v3 --hw h200 --chips 16 --ep 4 --weights fp8 "
                          "--compute fp8 --qps 1 --prompt-len 1000 --out-len 100 --requests 30 "
                          "--format json", ""), 0);
    assert_non_null(strstr(out, "AllToAll over 4 chips (MoE dispatch, MoE combine), of its tp4 "
                                "ep4 plan, crosses the scale-out network"));
    /* fixKI: and what the crossing AllToAlls cost a prefill of the mean
     * prompt, 1000 tokens: each of the 4 TP chips of a group dispatches its
     * 250 rows x 8 copies x 7168 x 2 B = 28.672 MB / 4 (comm.h's array over
     * the group of 4 chips 4 apart: 28.672 MB); 2 of the 4 share a node:
     * inner AllToAll of V/4 over 2 on NVLink, 7.168e6 / (4 x 4.5e11 B/s) =
     * 3.98 us (above the 2 us hop), outer V/8 = 3.584 MB at net_bw 5e10:
     * 71.68 us (h200.lua); 75.66 us x 58 MoE layers x 2 (dispatch, combine)
     * = 8.777 ms (3 significant digits).  Before fixKI each TP chip sent all
     * 1000 rows: 302.6 us each, 35.1 ms. */
    assert_non_null(strstr(out, "(at the prompts' mean of 1000 tokens 8.78 ms of a prefill's "));
    assert_null(strstr(out, "tensor-parallel collectives cross"));
    assert_int_equal(cli2(base, "--chips 8"), 0);
    assert_null(strstr(out, "NVLink/ICI domain"));
    assert_int_equal(cli2(base, "--chips 16 --pp 2"), 0);
    assert_null(strstr(out, "NVLink/ICI domain"));
}

/* review30 M2: simulate charges every stream's pass the steady state (P
 * ticks of the slowest stage) at every load; where that is far from a lone
 * stream's pass (the charged factor g > 1.01; 1.1 before fixQB) a note says so.  s32 review
 * M2 (fixW): the note read the layer-only factor P ceil(L/P) / L, not the
 * charged g (shard.h rl_shard_stage_pass: the embedding on the first
 * stage, the final norm and LM head on the last): llama3-70b pp16 on H100
 * (16 equal 5-layer stages, layer factor 1) said nothing while a lone
 * stream's TPOT read 62.39 ms against step --pp 16 --batch 1's 51.21 ms.
 * Now the note gives g at the run's mean decode context (575 tokens) and
 * the TPOT is g x step's batch-1 step at that context, to 1e-3 (left: the
 * 15 stage sends, 30 us, which the pass does not scale, and the context
 * moving over the stream's 128 tokens).  llama3-8b pp12 ideal: the 3-layer
 * last stage and the 1.05 GB LM head, g = 1.534 (the layer factor was
 * 1.125); llama3-70b pp3 ideal (g ~ 1.03) notes nothing. */
static void simulate_notes_uneven_stage_bias(void **state)
{
    (void)state;
    const char *base = "simulate --hw h100-sxm --ideal --qps 0.05 --requests 20 --prompt-len 500 "
                       "--out-len 50 --format json ";
    assert_int_equal(cli2(base, "--model llama3-8b --chips 12 --pp 12"), 0);
    assert_non_null(strstr(out, "note: --pp 12 on 32 layers: simulate charges every decode step 12 "
                                "ticks of the slowest stage (up to 3 layers; the first adds the "
                                "embedding, the last the final norm and LM head), as with every "
                                "stream busy: for a lone stream at its mean context (524 tokens) "
                                "1.534 x the stages' sum"));
    assert_non_null(strstr(out, "its TPOT reads 53.4% above step --pp --batch 1"));
    /* fixQB (issue 14 follow-up #5): the note's floor is 1%, not 10%, and
     * it says which figure is right for one micro-batch (tester83: llama3-8b
     * --pp 2 on h100-sxm, calibrated, TPOT p50 6.572 ms beside step --pp 2
     * --batch 1's 6.196 ms at 1049 tokens, 1.061 x, said nothing); 70b pp3
     * ideal, 41.79 ms beside step's 41.55 (1.006 x), still notes nothing */
    assert_int_equal(cli2(base, "--model llama3-70b --chips 3 --pp 3"), 0);
    assert_null(strstr(out, "note: --pp"));
    assert_int_equal(run_cli("simulate --model llama3-8b --hw h100-sxm --pp 2 --qps 0.05 "
                             "--requests 20 --prompt-len 1000 --out-len 100 --no-capacity",
                             out, sizeof out), 0);
    if (!strstr(out, "note: --pp 2 on 32 layers") || !strstr(out, "1.061 x the stages' sum") ||
        !strstr(out, "With one micro-batch in flight the sum is the pass"))
        fail_msg("llama3-8b pp2: %s", out);
    int rc = run_cli("simulate --model llama3-70b --hw h100-sxm --chips 16 --pp 16 --qps 0.01 "
                     "--prompt-len 512 --out-len 128 --requests 5 --format json",
                     out, sizeof out);
    const char *note = strstr(out, "note: --pp 16 on 80 layers");
    const char *at = note ? strstr(note, "mean context (") : NULL;
    long long ctx = 0;
    double g = 0;
    if (rc != 0 || !at || sscanf(at, "mean context (%lld tokens) %lf x", &ctx, &g) != 2)
        fail_msg("simulate llama3-70b pp16: exit %d, no pipeline note: %.2000s", rc, out);
    cJSON *sim = cJSON_Parse(strchr(out, '{'));
    assert_non_null(sim);
    double tpot = num(sim, "tpot_p50_s");
    assert_true(llround(num(sim, "mean_decode_context")) == ctx);
    cJSON_Delete(sim);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "step --model llama3-70b --hw h100-sxm --chips 16 --pp 16 --batch 1 "
             "--context %lld --format json", ctx);
    cJSON *st = run_json_noted(cmd, "");
    double one = num(cJSON_GetArrayItem(cJSON_GetObjectItem(st, "rows"), 0), "step_s");
    cJSON_Delete(st);
    assert_true(g > 1.2 && g < 1.23);
    assert_rel(tpot, g * one, 1e-3);
}

/* tester89 F1: on many replicas a run too short for the count's ramp in the
 * system (serve.h steady_unramped) read "overloaded" and capped
 * max_sustainable_qps one lattice step below its arrivals, whatever the
 * search found on its longer sample.  llama3-8b on h100-sxm, 1000 + 100
 * tokens, 2000 requests: one replica reads 35.79 req/s (this search, at
 * --qps 30); 20 replicas at --qps 520 read 519.1 (0.725 x 20 x one's) and
 * 10 at --qps 340 read 339.4 (0.948 x) before, with the overload note;
 * now 726.9 (1.016 x) and 360.2 (1.006 x).  Each must lie within 0.96-1.04
 * x R x one replica's (two lattice steps of 2%), with no overload note. */
static void simulate_capacity_short_run_many_replicas(void **state)
{
    (void)state;
    const char *base = "simulate --model llama3-8b --hw h100-sxm --prompt-len 1000 --out-len 100 "
                       "--requests 2000 --format json ";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s--qps 30", base);
    cJSON *j = run_json(cmd);
    double one = num(j, "max_sustainable_qps");
    cJSON_Delete(j);
    assert_true(one > 34 && one < 38);
    static const int reps[2] = {20, 10}, qps[2] = {520, 340};
    for (int i = 0; i < 2; i++) {
        snprintf(cmd, sizeof cmd, "%s--replicas %d --qps %d", base, reps[i], qps[i]);
        j = run_json(cmd);
        double many = num(j, "max_sustainable_qps"), x = many / (reps[i] * one);
        cJSON_Delete(j);
        if (!(x >= 0.96 && x <= 1.04) || strstr(out, "overloaded"))
            fail_msg("%d replicas at --qps %d: %g req/s, %g x %d x one replica's %g (%s)",
                     reps[i], qps[i], many, x, reps[i], one, out);
    }
}

/* tester89 F2: 5 llama3-8b replicas on h100-sxm, 1000 + 100 tokens, 1 s
 * TTFT and 50 ms TPOT targets, --qps 50: max_sustainable_qps read null
 * ("unresolved"), its note blaming the prompts' own prefill (22 ms).
 * Every load the search tried from 131 to 170 req/s met both p99s with no
 * request over a target (TTFT p99 0.34-0.47 s) but was open: 75-140
 * effective requests of 29000, a floor of 2-4% (serve.h
 * RL_SERVE_LOWER_CONFIDENCE).  Now the figure stands as a lower bound:
 * 128.9 req/s measured, which must lie between 0.5 and 1 x the figure
 * without targets (180.4 req/s, this search at --qps 50 without them),
 * with max_sustainable_qps_is_lower_bound true, not unresolved, and a
 * note that names the effective requests, not the prefill.  At --qps 52
 * since issue 14 labelled capacities by the rate asked for: the grown
 * samples' sizes follow the labels (0.4% more requests at --qps 50, whose
 * draw came at 49.81 req/s), and --qps 50 then resolved 140.0 req/s, no
 * longer this case; --qps 52 reads 131.9 req/s, a lower bound, beside
 * 181.1 without targets. */
static void simulate_capacity_unseen_open_lower_bound(void **state)
{
    (void)state;
    const char *base = "simulate --model llama3-8b --hw h100-sxm --replicas 5 --qps 52 "
                       "--prompt-len 1000 --out-len 100 --format json";
    cJSON *j = run_json(base);
    double free = num(j, "max_sustainable_qps");
    cJSON_Delete(j);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --ttft-p99 1 --tpot-p99 0.05", base);
    j = run_json(cmd);
    const cJSON *q = cJSON_GetObjectItem(j, "max_sustainable_qps");
    if (!cJSON_IsNumber(q) || !(q->valuedouble >= 0.5 * free && q->valuedouble <= free))
        fail_msg("with targets: %s req/s beside %g without (%s)",
                 cJSON_IsNumber(q) ? "a figure" : "null", free, out);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(j, "max_sustainable_qps_is_lower_bound")));
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(j, "max_sustainable_qps_unresolved")));
    assert_non_null(strstr(out, "effective requests"));
    assert_null(strstr(out, "prefill)"));
    cJSON_Delete(j);
}

/* tester6: a TTFT target missed at low load read "overloaded" (the capacity
 * search counts the targets).  llama3-8b on one h100-sxm at 1 req/s of
 * 2000-token prompts: about half busy, sustained without targets near 19
 * req/s (this run's search), TTFT p99 about 80 ms over a 50 ms target: the
 * note says SLO missed and names the target; at 30 req/s, past the
 * target-free capacity, it still says overloaded. */
static void simulate_slo_missed_not_overloaded(void **state)
{
    (void)state;
    const char *base = "simulate --model llama3-8b --hw h100-sxm --prompt-len 2000 --out-len 100 "
                       "--ttft-p99 0.05 --requests 300 --format json ";
    assert_int_equal(cli2(base, "--qps 1"), 0);
    assert_non_null(strstr(out, "note: SLO missed: TTFT p99 "));
    assert_non_null(strstr(out, "ms over the --ttft-p99 target 50 ms"));
    assert_null(strstr(out, "note: overloaded"));
    assert_int_equal(cli2(base, "--qps 30"), 0);
    assert_non_null(strstr(out, "note: overloaded:"));
    assert_null(strstr(out, "SLO missed"));
    /* review30 L1: both p99s met (TTFT p99 1.157 s <= 1.2 s, 99.3% within
     * the targets) but the 95% upper bound on the share over a target is
     * above 1% (serve.h RL_SERVE_SLO_TAIL), so max_sustainable_qps (13.33)
     * is below the 13.5 offered: the note says that, not "SLO missed" nor
     * the capacity search's sample (the merged wording).  The bound is the
     * floor (tester32 F2, serve.h RL_SERVE_SLO_NONE): 2.996 / 35.7
     * effective requests = 8.39%, over the clustered bound's 3.68%.  (Until
     * stop 30 seed 3 at 14 req/s: 3.06%; its capacity now reads 14.13.)
     * Stop 31 (review36 L2): the confirming sample past the 4000 is a
     * stationary bootstrap of them, and seed 10 reads 14.42; seed 2 at 13.5
     * req/s has none of its 3600 counted requests over the targets, and its
     * 104 effective ones bound the share at 2.996 / 104.4 = 2.87% (it read
     * its own rate until stop 30, which counted a run with none over as
     * 3600 independent requests); its capacity reads 11.73. */
    assert_int_equal(cli2("simulate --model llama3-8b --hw h100-sxm --ideal --max-seqs 1 "
                          "--prompt-len 1000 --out-len 11 --ttft-p99 1.2 --tpot-p99 0.01 "
                          "--requests 4000 --seed 2 --format json ", "--qps 13.5"), 0);
    assert_non_null(strstr(out, "note: the targets hold at p99 in this run (100% of requests "
                                "within them) but not with 95% confidence: the upper bound on the "
                                "share of requests over a target is 2.87%, above 1%"));
    assert_null(strstr(out, "SLO missed"));
    /* tester89 F3: 20 replicas at 700 req/s meet both targets, bound too
     * (20000 requests, none over: 0%), while the capacity search's samples
     * read 684 (serve.h rl_serve_capacity): the note said "the upper bound
     * ... is 0%, above 1%"; now that this run met them with confidence and
     * the search's samples did not.  Exact strings, no tolerance. */
    assert_int_equal(cli2("simulate --model llama3-8b --hw h100-sxm --prompt-len 1000 "
                          "--out-len 100 --replicas 20 --ttft-p99 1 --tpot-p99 0.05 ", "--qps 700"),
                     0);
    assert_null(strstr(out, "is 0%, above 1%")); /* fails before */
    if (strstr(out, "not overloaded")) /* the search below 700 (today): the note's case */
        assert_non_null(strstr(out, "the targets hold in this run, with 95% confidence too"));
}

/* tester6: step --ideal used the whole HBM where simulate --ideal keeps
 * --hbm-reserve (0.1) back.  With the same reserve they agree: llama3-8b on
 * one h100-sxm, bf16, ideal: simulate's KV room is (0.9 x 85,899,345,920 B
 * (80 GiB) - 16,060,522,496 B) / 131072 B = 467292 tokens (floor), so step's
 * max batch at 1024 tokens is floor(467292 / 1024) = 456 (exact, integers;
 * 416 on 80e9 bytes until tester22 F2); without --hbm-reserve step keeps
 * seed 000's whole-HBM rule: 69,838,823,424 / 134,217,728 = 520 (was 476). */
static void step_reserve_agrees_with_simulate(void **state)
{
    (void)state;
    cJSON *j = run_cli_json("simulate --model llama3-8b --hw h100-sxm --ideal --qps 1 --prompt-len "
                            "100 --out-len 10 --requests 100 --format json 2>/dev/null",
                            out, sizeof out);
    double kv_tokens = num(j, "kv_capacity_tokens_per_replica");
    cJSON_Delete(j);
    j = run_cli_json("step --model llama3-8b --hw h100-sxm --ideal --context 1024 --hbm-reserve 0.1 "
                     "--format json", out, sizeof out);
    assert_true(num(j, "max_batch") == floor(kv_tokens / 1024));
    assert_true(num(j, "max_batch") == 456);
    assert_rel(num(j, "usable_bytes"), 0.9 * 85899345920.0, 1e-12);
    cJSON_Delete(j);
    j = run_cli_json("step --model llama3-8b --hw h100-sxm --ideal --context 1024 --format json",
                     out, sizeof out);
    assert_true(num(j, "max_batch") == 520);
    cJSON_Delete(j);
    assert_int_equal(run_cli("step --model llama3-8b --hw h100-sxm --context 1024 --hbm-reserve 0.1",
                             out, sizeof out), 0);
    assert_non_null(strstr(out, "note: --hbm-reserve does not apply: the memory rule of the trtllm"));
}

/* tester8 item 2: a fit that cannot match its rows warns on stderr:
 * splitwise_h100.csv with measured_s x 1000 (milliseconds written as
 * seconds) fits with a CV median |error| far above 25% (96% here), the
 * costs at their bounds and every residual positive; the warning names
 * each.  tester76 #1: its --save is refused (exit 2, nothing written, the
 * unit named) unless --save-misfit; a step on the profile saved so says
 * "caution" once on stderr and carries fitted_misfit_note.  The profile's
 * band holds its point (step_s_low <= step_s <= step_s_high).  The same
 * rows in seconds give no warning. */
static void fit_warns_on_a_misfit(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_misfit_XXXXXX", cmd[2048], out[8192];
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "awk -F, 'BEGIN{OFS=\",\"} /^#/||/^phase/{print;next} "
             "{$7=$7*1000; print}' " RL_SRCDIR "/tests/data/e2e/splitwise_h100.csv > %s/ms.csv", dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "fit %s/ms.csv --hw h100-sxm --model llama2-70b "
             "--set model.max_context=16384 --save %s/ms.lua --plot %s/ms.png --format json", dir,
             dir, dir);
    assert_int_equal(run_cli(cmd, out, sizeof out), 2);
    snprintf(cmd, sizeof cmd, "%s/ms.lua", dir);
    assert_int_equal(access(cmd, F_OK), -1);
    snprintf(cmd, sizeof cmd, "%s/ms.png", dir); /* nothing written: the figure neither */
    assert_int_equal(access(cmd, F_OK), -1);
    static const char *const refused[] = {"ms.csv: the fit cannot match its rows", "(above 25%)",
                                          "nothing written to ", "is measured_s in seconds?",
                                          "--save-misfit"};
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++)
        if (!strstr(out, refused[i]))
            fail_msg("fit --save on ms lacks '%s': %.600s", refused[i], out);
    snprintf(cmd, sizeof cmd, "fit %s/ms.csv --hw h100-sxm --model llama2-70b "
             "--set model.max_context=16384 --save %s/ms.lua --save-misfit --format json", dir,
             dir);
    if (run_cli(cmd, out, sizeof out) != 0)
        fail_msg("fit --save-misfit refused: %.600s", out);
    static const char *const want[] = {
        "roofline fit: warning: cross-validated median |error| ", "(above 25%",
        "at a bound of its range: decode_step_s", "is measured_s in seconds?", "\"fit_warning\""};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        if (!strstr(out, want[i]))
            fail_msg("fit on ms lacks '%s': %.600s", want[i], out);
    snprintf(cmd, sizeof cmd, "step --model llama2-70b --set model.max_context=16384 --hw %s/ms.lua "
             "--chips 2 --batch 1,64 --context 1024 --format json", dir);
    /* stderr apart: batch 64 does not fit, and step says so (tester62 #6) */
    char text[16384], tcmd[2048];
    snprintf(tcmd, sizeof tcmd, "simulate --model llama2-70b --set model.max_context=16384 "
             "--hw %s/ms.lua --chips 2 --qps 1 --prompt-len 512 --out-len 64 --requests 50 "
             "--no-capacity", dir);
    assert_int_equal(run_cli(tcmd, text, sizeof text), 0);
    const char *caution = strstr(text, "roofline simulate: caution: h100-sxm-ms's engine costs "
                                       "were fitted with a cross-validated median |error| of 96%");
    if (!caution)
        fail_msg("simulate on the misfit profile: no caution: %.800s", text);
    assert_null(strstr(caution + 30, "caution: h100-sxm-ms's engine costs")); /* once */
    cJSON *j = run_cli_json(cmd, out, sizeof out);
    const cJSON *mn = cJSON_GetObjectItem(j, "fitted_misfit_note");
    assert_true(cJSON_IsString(mn) && strstr(mn->valuestring, "above 25%"));
    const cJSON *row;
    cJSON_ArrayForEach(row, cJSON_GetObjectItem(j, "rows")) {
        double t = num(row, "step_s");
        assert_true(num(row, "step_s_low") <= t && t <= num(row, "step_s_high"));
    }
    cJSON_Delete(j);
    assert_int_equal(run_cli("fit " RL_SRCDIR "/tests/data/e2e/splitwise_h100.csv --hw h100-sxm "
                             "--model llama2-70b --set model.max_context=16384 --format json",
                             out, sizeof out), 0);
    assert_null(strstr(out, "warning"));
    assert_int_equal(remove_tree(dir), 0);
}

/* tester23 F4: 10 rows (10 configurations) for 8 identifiable parameters
 * fit, but a 5-fold CV fold trains on 8: refused, exit 2, saying 12
 * configurations are needed (n - ceil(n/5) >= 9) and that --folds 10
 * (leave one out: 9 each) fits; with it the fit runs, exit 0. */
static void fit_too_few_for_folds(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_folds_XXXXXX", cmd[1024], out[8192];
    assert_non_null(mkdtemp(dir));
    static const char *const name[] = {"s.csv"};
    static const char *const text[] = {
        "phase,tp,batch,context,tokens,measured_s\ndecode,1,1,1024,,0.0095\n"
        "decode,1,8,1024,,0.0102\ndecode,1,32,1024,,0.0125\ndecode,1,64,2048,,0.0160\n"
        "decode,2,1,1024,,0.0058\ndecode,2,16,2048,,0.0075\nprefill,1,1,,512,0.045\n"
        "prefill,1,1,,2048,0.160\nprefill,2,1,,1024,0.050\nprefill,2,1,,4096,0.190\n"};
    put_files(dir, name, text, 1);
    snprintf(cmd, sizeof cmd, "fit %s/s.csv --hw h100-sxm --model llama3-8b --format json", dir);
    assert_int_equal(run_cli(cmd, out, sizeof out), 2);
    assert_non_null(strstr(out, "give at least 12 configurations (this file has 10), or --folds "
                                "10 (one configuration left out at a time, which needs 10)"));
    snprintf(cmd, sizeof cmd, "fit %s/s.csv --hw h100-sxm --model llama3-8b --folds 10 "
             "--format json", dir);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    assert_int_equal(remove_tree(dir), 0);
}

/* CLOSING21 leftover: fit --save wrote a profile its reader refused ("does
 * not load back") when the rows scattered so wide that a band quantile
 * passed +-5 (148x).  splitwise_h100.csv with row n's measured_s times
 * e^(9 frac(0.618 n)) (up to 8100x, deterministic) gives a band quantile
 * past 5 (the figure, from the fit's cross-validated residuals, is not pinned:
 * the test is about the limit, review23 L5): refused before anything is
 * written, naming the quantile and the limit; the same rows without --save
 * fit (exit 0); times e^(5 frac(...)) the band stays inside and the profile
 * is saved. */
static void fit_band_past_the_reader_refused(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_wideband_XXXXXX", cmd[2048], out[8192], lua[128];
    assert_non_null(mkdtemp(dir));
    snprintf(lua, sizeof lua, "%s/wide.lua", dir);
    for (int k = 9; k >= 5; k -= 4) {
        snprintf(cmd, sizeof cmd, "awk -F, 'BEGIN{OFS=\",\"} /^#/||/^phase/{print;next} "
                 "{n++; f=n*0.6180339887; f-=int(f); $7=$7*exp(%d*f); print}' "
                 RL_SRCDIR "/tests/data/e2e/splitwise_h100.csv > %s/wide.csv", k, dir);
        assert_int_equal(system(cmd), 0);
        /* --save-misfit: rows this scattered fit above 25% CV median |error|
         * (98%), which --save alone refuses first (tester76 #1) */
        snprintf(cmd, sizeof cmd, "fit %s/wide.csv --hw h100-sxm --model llama2-70b "
                 "--set model.max_context=16384 --save %s --save-misfit", dir, lua);
        int rc = run_cli(cmd, out, sizeof out);
        if (k == 5) {
            assert_int_equal(rc, 0);
            assert_int_equal(access(lua, R_OK), 0);
            break;
        }
        assert_int_equal(rc, 2);
        /* which quantile passes first is not pinned either: the prefill p90
         * under the shared-shape band, the decode p95 since each class's
         * band is its own residuals' (issue 13) */
        static const char said[] = " is log(measured / predicted) = ";
        const char *at = strstr(out, said);
        if (!strstr(out, "the band's ") || !at || !(strtod(at + sizeof said - 1, NULL) > 5) ||
            !strstr(out, "beyond the +-5 (148x) a profile holds") || !strstr(out, "nothing written"))
            fail_msg("%s", out);
        assert_int_not_equal(access(lua, F_OK), 0);
        snprintf(cmd, sizeof cmd, "fit %s/wide.csv --hw h100-sxm --model llama2-70b "
                 "--set model.max_context=16384", dir);
        assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    }
    assert_int_equal(remove_tree(dir), 0);
}

/* tester50 F7: rows measured on an engine h100-sxm reads from kernel
 * tables (trtllm) could not be saved: the refusal said "a name of their
 * own" and --engine accepts only an engine the tool or the CSV knows.
 * --engine-name names the saved costs: refused without it (exit 2, the
 * message naming --engine-name, nothing written); with --engine-name
 * trtllm-fit the profile is written, its default engine trtllm-fit, and
 * loads back for step. */
static void fit_engine_name_saves_table_engine_rows(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_engname_XXXXXX", cmd[2048], lua[128];
    static char out[1 << 17];
    assert_non_null(mkdtemp(dir));
    snprintf(lua, sizeof lua, "%s/p.lua", dir);
    const char *base = "fit " RL_SRCDIR "/tests/data/e2e/splitwise_h100.csv --hw h100-sxm "
                       "--model llama2-70b --engine trtllm";
    snprintf(cmd, sizeof cmd, "%s --save %s", base, lua);
    assert_int_equal(run_cli(cmd, out, sizeof out), 2);
    if (!strstr(out, "give --engine-name NAME (e.g. --engine-name trtllm-fit"))
        fail_msg("%s", out);
    assert_int_not_equal(access(lua, F_OK), 0);
    snprintf(cmd, sizeof cmd, "%s --engine-name trtllm-fit --save %s --format json", base, lua);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    if (!strstr(out, "\"engine\":\t\"trtllm-fit\""))
        fail_msg("%s", out);
    snprintf(cmd, sizeof cmd, "step --hw %s --model llama2-70b --chips 8 --context 2048 "
             "--format json", lua);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    if (!strstr(out, "\"engine\":\t\"trtllm-fit\"") || !strstr(out, "\"mode\":\t\"fitted\""))
        fail_msg("%s", out);
    /* tester52 F1: validate --against reads fit's own CSV back on the
     * profile fit saved: its rows' hw h100-sxm is the chip the profile
     * serves, so their engine, trtllm-fit, is the profile's (validate
     * loaded the bare h100-sxm preset, which has no such engine: exit 2) */
    char csv[128];
    snprintf(csv, sizeof csv, "%s/fit.csv", dir);
    snprintf(cmd, sizeof cmd, "%s --engine-name trtllm-fit --format csv 2>/dev/null >%s && test -s %s",
             base, csv, csv); /* fit's --save is the profile: its CSV from stdout, notes dropped */
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    snprintf(cmd, sizeof cmd, "validate --against %s --hw %s --model llama2-70b --format json",
             csv, lua);
    if (run_cli(cmd, out, sizeof out) != 0 || !strstr(out, "\"median_abs_error\""))
        fail_msg("%s", out);
    assert_int_equal(remove_tree(dir), 0);
}

/* simulate on a fitted profile names the serving steps its band
 * extrapolates to (stop 23; CLOSING22: step and prefill had the note,
 * simulate none): h100-sxm-splitwise is fitted on prompts of 128-8192
 * tokens and decode contexts of 192-8256 (its fitted_on.grid), so 100-token
 * prompts lie below both: the note names "tokens 100 (fitted on
 * 128-8192)"; 1000-token prompts with 50 outputs and at most 32 sequences
 * lie inside every axis: no such note. */
static void simulate_notes_band_outside_grid(void **state)
{
    (void)state;
    const char *base = "simulate --model llama2-70b --hw h100-sxm-splitwise --chips 8 --qps 2 "
                       "--out-len 50 --requests 50 --max-seqs 32 --prompt-len ";
    assert_int_equal(cli2(base, "100"), 0);
    if (!strstr(out, "band is applied to serving steps outside the grid") ||
        !strstr(out, "tokens 100 (fitted on 128-8192)"))
        fail_msg("%s", out);
    assert_int_equal(cli2(base, "1000"), 0);
    if (strstr(out, "outside the grid"))
        fail_msg("%s", out);
    /* size prints it too (h23band left it out), from its rows' band runs */
    assert_int_equal(run_cli("size --model llama2-70b --hw h100-sxm-splitwise --qps 2 "
                             "--prompt-len 100 --out-len 50 --ttft-p99 2 --tpot-p99 0.2 "
                             "--requests 100 --format csv", out, sizeof out), 0);
    if (!strstr(out, "roofline size: note: h100-sxm-splitwise's band is applied to serving steps "
                     "outside the grid") || !strstr(out, "tokens 100 (fitted on 128-8192)"))
        fail_msg("%s", out);
}

/* tester8 item 4: very bursty arrivals (--burst 100: gamma, CV 100) at 5
 * req/s on a server 0.1% busy are not "overloaded": the sample's last clump
 * arrives at once and an idle server admits it over a few steps, which the
 * keep-up test took for a growing queue even at a millionth of the load
 * (max_sustainable_qps 0).  Keep-up now counts to the last instant of the
 * window's second half at which the queue was empty (serve.c
 * queue_emptied): capacity 808 req/s here (the same arrival pattern
 * compressed); the bound checked is 10x the offered 5 req/s, far below
 * it, far above 0. */
static void bursty_idle_is_not_overloaded(void **state)
{
    (void)state;
    static char out[131072];
    assert_int_equal(run_cli("simulate --model llama3-8b --hw h100-sxm --qps 5 --prompt-len 100 "
                             "--out-len 10 --burst 100 --requests 1000 --format json", out,
                             sizeof out), 0);
    assert_null(strstr(out, "overloaded"));
    cJSON *j = cJSON_Parse(strchr(out, '{'));
    assert_non_null(j);
    assert_true(num(j, "utilization") < 0.01);
    assert_true(num(j, "max_sustainable_qps") > 50);
    /* tester46 F7: the CV is echoed, and the sample's own rate, (n - 1) /
     * span, far from --qps (CV 100 over 1000 requests: mean gap's relative
     * sd about 100 / sqrt(999) = 3.2), is said */
    assert_true(num(j, "burst") == 100);
    double a = num(j, "arrival_req_per_s");
    if (!(a > 0 && fabs(a / 5 - 1) > 0.2) || !strstr(out, "note: --burst 100: these arrivals came at"))
        fail_msg("arrival_req_per_s %g: %s", a, out);
    cJSON_Delete(j);
    /* tester47 F9: size rows carry both keys too, simulate's figures for
     * the same arrivals (every row ran them at the load): --burst 2 over
     * 1000 requests at 5 req/s, 4.824 req/s in both */
    const char *work = "--model llama3-8b --hw h100-sxm --qps 5 --prompt-len 100 --out-len 10 "
                       "--burst 2 --requests 1000 --format json";
    j = json2("simulate ", work);
    a = num(j, "arrival_req_per_s");
    cJSON_Delete(j);
    char targets[256];
    snprintf(targets, sizeof targets, "%s --ttft-p99 1 --tpot-p99 0.05", work);
    j = json2("size ", targets);
    const cJSON *row;
    cJSON_ArrayForEach(row, cJSON_GetObjectItem(j, "rows"))
        if (num(row, "burst") != 2 || num(row, "arrival_req_per_s") != a)
            fail_msg("size row: burst %g, arrival_req_per_s %g, simulate's %g", num(row, "burst"),
                     num(row, "arrival_req_per_s"), a);
    assert_true(a > 4 && a < 6);
    /* issue 14: the top level echoes the setting as it does qps and
     * requests (expected 2, --burst as given; the key was absent) */
    assert_true(num(j, "burst") == 2);
    cJSON_Delete(j);
    /* tester47 F1: 60 and 3 such arrivals came within 2.4e-179 s and at
     * one instant: arrival_req_per_s read 2.4e180 and null without a word;
     * now null, with a note naming the span (serve.h
     * rl_serve_arrival_rate) */
    static const char *const tail[2] = {"60 arrivals came within 2.43e-179 s",
                                        "3 arrivals came at one instant"};
    for (int k = 0; k < 2; k++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "simulate --model llama3-8b --hw h100-sxm --qps 5 --prompt-len "
                 "500 --out-len 100 --burst 100 --requests %d --format json", k ? 3 : 60);
        assert_int_equal(run_cli(cmd, out, sizeof out), 0);
        j = cJSON_Parse(strchr(out, '{'));
        assert_non_null(j);
        if (!cJSON_IsNull(cJSON_GetObjectItem(j, "arrival_req_per_s")) ||
            !strstr(out, "note: arrival_req_per_s null: these") || !strstr(out, tail[k]))
            fail_msg("%s", out);
        cJSON_Delete(j);
    }
}

/* tester81 A: --qps 50 --burst 100 over 2000 requests came at 6.64 req/s
 * (arrival_req_per_s), which a note said, and the overload note then read
 * "overloaded: 50 req/s offered; 1.67 req/s completed (steady window)" with
 * the server busy 0.17 and keep-up 1 (expected, measured on this build: the
 * whole run completed 6.03 req/s; the window 1.75 req/s since fixWD, whose
 * continuous steps count decode tokens in --max-tokens).  Without a capacity figure a bursty run
 * is judged by its own queue test: no verdict, said.  At --qps 5000 the
 * same sample (664 req/s) is too short for a window and its queue grew: the
 * note states 664, the rate it judged, not --qps. */
static void burst_overload_note_uses_own_rate(void **state)
{
    (void)state;
    static char out[65536];
    const char *work = "simulate --model llama3-8b --hw h100-sxm --burst 100 --prompt-len 1000 "
                       "--out-len 100 --requests 2000 --no-capacity --qps ";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s50", work);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    if (strstr(out, "overloaded:") ||
        !strstr(out, "note: no overload verdict: the steady window completed 1.75 req/s of "
                     "these arrivals' 6.64"))
        fail_msg("%s", out);
    snprintf(cmd, sizeof cmd, "%s5000", work);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    if (!strstr(out, "note: overloaded: 664 req/s offered (these arrivals' own rate, "
                     "arrival_req_per_s; --qps 5e+03)"))
        fail_msg("%s", out);
    /* issue 14 #2: at --qps 500 the same sample (66.4 req/s) kept the
     * server busy 0.81 of the run at 28.6 req/s, 35.3 req/s while busy,
     * with TTFT p50 12.5 s against 0.182 s of service (expected, measured
     * on this build), and got no verdict: the steady window's keep-up read
     * 1.  Without a capacity search the run's own figures say it:
     * overloaded, with them; at --qps 50 (35.3 req/s while busy against
     * 6.64 arrived) no verdict stays, said with that rate.  fixWD (a step's
     * prompts share --max-tokens with its decode tokens): busy 0.809, 28.7
     * and 35.4 req/s, TTFT service 0.161 s, 77.3 x (measured on this build) */
    snprintf(cmd, sizeof cmd, "%s500", work);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    if (!strstr(out, "note: overloaded: 66.4 req/s offered (these arrivals' own rate, "
                     "arrival_req_per_s; --qps 500); with no capacity search, the run's own "
                     "figures: busy 0.809 of the run, it completed 28.7 req/s over it, 35.4 "
                     "req/s while busy, under these arrivals' rate, and the median TTFT (12.5 s) "
                     "is 77.3 x the median TTFT service (0.161 s)") ||
        strstr(out, "no overload verdict"))
        fail_msg("%s", out);
}

/* tester101 (t14): --qps 10 --burst 100 over 2000 requests came at 1.33
 * req/s (arrival_req_per_s), which the arrival note said, and the SLO note
 * after it read "(10 req/s offered, replicas 5% busy": now it states the
 * rate the verdict took, 1.33, with --qps beside it.  Over 500 requests the
 * same draw came at 205 req/s, past the 27.8 req/s it sustains without the
 * targets (max_sustainable_qps_no_slo, a search labelled by the sample's
 * own rate: serve.h rl_serve_asked_qps), and read "not overloaded at 10
 * req/s"; now it is judged at 205: overloaded (figures measured on this
 * build, printed to 3 digits). */
static void burst_slo_note_uses_own_rate(void **state)
{
    (void)state;
#define BURST_SLO_RUN                                                                            \
    "simulate --model llama3-8b --hw h100-sxm --qps 10 --burst 100 --prompt-len 1000 "           \
    "--out-len 200 --ttft-p99 1 --tpot-p99 0.05 --format json --requests "
    cJSON *j = run_json_noted(BURST_SLO_RUN "2000", "not overloaded at 1.33 req/s offered (these "
                              "arrivals' own rate, arrival_req_per_s; --qps 10), replicas 5% busy");
    assert_null(strstr(out, "10 req/s offered"));
    cJSON_Delete(j);
    j = run_json_noted(BURST_SLO_RUN "500", "note: overloaded: 205 req/s offered (these arrivals' "
                       "own rate, arrival_req_per_s; --qps 10), above the 27.8 req/s");
    assert_null(strstr(out, "not overloaded"));
    assert_true(fabs(num(j, "arrival_req_per_s") - 205.1) < 0.1);
    cJSON_Delete(j);
#undef BURST_SLO_RUN
}

/* tester81 D: SplitwiseSim's Llama-2-70B rows (tests/data/e2e/
 * splitwise_h100.csv) fitted as llama3-8b exited 0 with compute_eff 0.098,
 * memory_eff 0.083 and no word; fitted as llama2-70b they are 0.93 and
 * 0.72 (measured on this build).  Below the 0.2 floor (e2e.c
 * RL_E2E_EFF_FLOOR) fit says so on stderr and in plausibility_note, still
 * exit 0; the right model gets neither.
 * Issue 13 item 1: the same rows as mixtral-8x7b fitted compute_eff 0.16
 * "not identified" (so no note), the step floors taking the time.  The
 * rows' median measured / roofline (step --ideal's) is checked too
 * (e2e.c RL_E2E_ROOF_RATIO_MAX, 4x): 11.8x as mixtral-8x7b, 22.6x as
 * llama3-8b (printed to 3 digits; measured on this build, exact match);
 * the right models, which must get no note, run 2.75x (Llama-2-70B on
 * H100), 2.54x (on A100: splitwise_a100.csv, the same configurations) and
 * 2.69x (BLOOM-176B on H100: splitwise_bloom_h100.csv).  Failed before the
 * ratio check: mixtral-8x7b got no plausibility_note. */
static void fit_wrong_model_noted(void **state)
{
    (void)state;
    static const struct {
        const char *csv, *model, *hw, *note; /* note: NULL when none is due */
    } C[] = {
        {"splitwise_h100", "llama3-8b", "h100-sxm",
         "compute_eff 0.0983, memory_eff 0.0831 (below 0.2 of the chip's peak"},
        {"splitwise_h100", "llama3-8b", "h100-sxm",
         "the rows' measured times are a median 22.6x their roofline under llama3-8b on h100-sxm"},
        {"splitwise_h100", "mixtral-8x7b", "h100-sxm",
         "the rows' measured times are a median 11.8x their roofline under mixtral-8x7b on "
         "h100-sxm"},
        {"splitwise_h100", "llama2-70b", "h100-sxm", NULL},
        {"splitwise_a100", "llama2-70b", "a100-sxm-80g", NULL},
        {"splitwise_bloom_h100", "bloom-176b", "h100-sxm", NULL},
    };
    for (size_t i = 0; i < sizeof C / sizeof *C; i++) {
        char args[512];
        snprintf(args, sizeof args, "fit " RL_SRCDIR "/tests/data/e2e/%s.csv --hw %s --model %s "
                 "--set model.max_context=16384 --format json", C[i].csv, C[i].hw, C[i].model);
        cJSON *j = run_json(args); /* exit 0; stderr left in out */
        const char *note = cJSON_GetStringValue(cJSON_GetObjectItem(j, "plausibility_note"));
        if (C[i].note ? !note || !strstr(note, C[i].note) || !strstr(out, "roofline fit: note: ") ||
                            !strstr(out, C[i].note)
                      : note || strstr(out, "roofline fit: note: "))
            fail_msg("%s: %s", args, note ? note : out);
        cJSON_Delete(j);
    }
}

/* tester83 #3: a CSV whose 'model' column names bloom-176b on some rows,
 * fitted with --model llama2-70b, fits those rows as bloom-176b (the columns
 * override the command line) without a word, and the result named no model.
 * Now `models` lists the fitted models (as the profile's fitted_on.models)
 * and model_note, on stderr too, counts the rows that overrode --model: the
 * H100 excerpts, llama2-70b's 47 rows and bloom-176b's 32 (max_context
 * raised so none is left out; 79 rows, counted from the two files). */
static void fit_row_models_noted(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_fitmod_XXXXXX", cmd[2048];
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "cd %s && { echo phase,model,hw,tp,batch,context,tokens,measured_s; "
             "for m in h100:llama2-70b bloom_h100:bloom-176b; do grep -v '^#' " RL_SRCDIR
             "/tests/data/e2e/splitwise_${m%%%%:*}.csv | tail -n +2 | sed \"s/^\\([a-z]*\\),/\\1,${m#*:},/\"; "
             "done; } > mix.csv", dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "fit %s/mix.csv --hw h100-sxm --model llama2-70b "
             "--set model.max_context=16384 --format json", dir);
    cJSON *j = run_json(cmd);
    const char *note = cJSON_GetStringValue(cJSON_GetObjectItem(j, "model_note"));
    const char *want = "32 of 79 fitted rows name their own model in the CSV's 'model' column "
                       "(the first: bloom-176b), which overrides --model llama2-70b for them";
    if (!note || !strstr(note, want) || !strstr(out, "roofline fit: note: 32 of 79 fitted rows") ||
        strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(j, "models")), "llama2-70b,bloom-176b") != 0)
        fail_msg("%s", note ? note : out);
    cJSON_Delete(j);
    snprintf(cmd, sizeof cmd, "rm -r %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* tester101 (t46, t47): llama3-8b on one H100, --policy static at 0.02
 * req/s of lognormal 1000/200-token requests under 1 s / 50 ms targets:
 * max_sustainable_qps null (unresolved), and the note blamed "the longest
 * prompts' prefill" while the run's TTFT p99 (0.5625 s) is 8.9 x its
 * TTFT service p99 (0.0631 s, the prefill alone): the tail is requests
 * waiting out a running static batch's decode (about 200 tokens x 6.2
 * ms).  Expected: the note names that wait, with the run's two p99s to 3
 * digits (measured on this build), and not the prefill. */
static void unresolved_static_tail_is_the_wait(void **state)
{
    (void)state;
    cJSON *j = run_json_noted("simulate --model llama3-8b --hw h100-sxm --policy static --qps 0.02 "
                              "--prompt-len lognormal:1000:0.5 --out-len lognormal:200:0.5 "
                              "--ttft-p99 1 --tpot-p99 0.05 --requests 2000 --format json",
                              "the tail is set by requests waiting behind a running static batch, "
                              "not by their own prefill (this run: TTFT p99 0.562 s against "
                              "0.0631 s of prefill, ttft_service_p99)");
    assert_null(strstr(out, "the longest prompts' prefill"));
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(j, "max_sustainable_qps_unresolved")));
    cJSON_Delete(j);
}

/* tester46 F1: llama3-70b fp8 on 27 single-H100 replicas, chunked:512,
 * lognormal 2000/300-token requests under TTFT p99 1 s: the longest
 * prompts' prefill alone takes 0.9-1.05 s, so the p99 meets the target at
 * any load (0.909 s, 99.5% within the targets at 1 req/s) while the 95%
 * bound on the share over it misses even unloaded.  max_sustainable_qps
 * read 0 ("the targets hold only up to 0 req/s"), and size listed the row
 * meeting with capacity 0; now null with max_sustainable_qps_unresolved
 * true and a note, in simulate and in size's meeting row. */
static void unresolved_tail_is_null_not_zero(void **state)
{
    (void)state;
    static char out[262144];
    const char *base = "--model llama3-70b --hw h100-sxm --prompt-len lognormal:2000:0.8 "
                       "--out-len lognormal:300:0.8 --ttft-p99 1 --tpot-p99 0.05 --format json";
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "simulate %s --chips 1 --replicas 27 --weights fp8 --kv fp8 "
             "--compute fp8 --policy chunked --max-tokens 512 --max-seqs 32 --qps 1 "
             "--requests 1200", base);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    cJSON *j = cJSON_Parse(strchr(out, '{'));
    assert_non_null(j);
    if (!cJSON_IsNull(cJSON_GetObjectItem(j, "max_sustainable_qps")) ||
        !cJSON_IsTrue(cJSON_GetObjectItem(j, "max_sustainable_qps_unresolved")) ||
        !(num(j, "ttft_p99_s") < 1) || !strstr(out, "note: max_sustainable_qps null: even at") ||
        strstr(out, "hold only up to 0 req/s") ||
        !strstr(out, "the tail is set by the requests' own service (the longest prompts' "
                     "prefill)")) /* its TTFT tail is the prefill's (unresolved_tail) */
        fail_msg("%s", out);
    cJSON_Delete(j);
    snprintf(cmd, sizeof cmd, "size %s --qps 10 --requests 400", base);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    j = cJSON_Parse(strchr(out, '{'));
    assert_non_null(j);
    int seen = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, cJSON_GetObjectItem(j, "rows")) {
        const cJSON *q = cJSON_GetObjectItem(row, "max_sustainable_qps");
        if (cJSON_IsNumber(q) && q->valuedouble == 0 && cJSON_IsTrue(cJSON_GetObjectItem(row, "meets")))
            fail_msg("a meeting row reads capacity 0: %s", out);
        if (cJSON_IsTrue(cJSON_GetObjectItem(row, "max_sustainable_qps_unresolved"))) {
            seen++;
            assert_true(cJSON_IsNull(q));
        }
    }
    if (!seen || !strstr(out, "row(s) read max_sustainable_qps null: even at"))
        fail_msg("no unresolved row: %s", out);
    cJSON_Delete(j);
    /* tester47 F8: llama3-8b on one h100-sxm, lognormal:4000:0.8 prompts under
     * a 0.2 s TTFT target: the tail is the longest prompts' own prefill (TTFT
     * p99 0.195-0.198 s, ttft_service p99 0.183 s at 1 req/s), and the share
     * over the target rises slowly with the load (0.47% at 0.5 req/s, 0.86% at
     * 1.4), so which load's sample resolved the 95% bound was chance:
     * max_sustainable_qps read 0.73-1.04 req/s by the seed (seed 3: 0.728,
     * capacity_utilization 1.37) beside runs meeting the targets at 1 req/s, and
     * size's meeting 2x1 int8 B<=64 row (seed 1) 0.469 at a load of 1 (2.12).
     * An open load no longer fails the search (serve.h
     * RL_SERVE_CAPACITY_OPEN_BAND): over seeds 1-5 each meeting run reads null
     * with max_sustainable_qps_unresolved and a note, or a figure at least its
     * arrivals' rate / 1.25 (expected: seeds 1, 3, 4, 5 null, seed 2 0.849);
     * every meeting size row a capacity_utilization of at most 1.25 or null.
     * RL_SAN_SMALL: seeds 1 and 2 (one of each kind above) and the size
     * search on 300 requests (each check is a rule every run or row keeps,
     * on any sample): ASan 114 CPU-s for this test at full size, 2-core VM. */
    base = "--model llama3-8b --hw h100-sxm --qps 1 --prompt-len lognormal:4000:0.8 "
           "--out-len lognormal:300:0.8 --ttft-p99 0.2 --tpot-p99 0.05 --format json";
    for (int seed = 1; seed <= (rl_san_small() ? 2 : 5); seed++) {
        snprintf(cmd, sizeof cmd, "simulate %s --chips 1 --seed %d", base, seed);
        assert_int_equal(run_cli(cmd, out, sizeof out), 0);
        j = cJSON_Parse(strchr(out, '{'));
        assert_non_null(j);
        if (num(j, "ttft_p99_s") <= 0.2 && num(j, "tpot_p99_s") <= 0.05) { /* a meeting run */
            const cJSON *q = cJSON_GetObjectItem(j, "max_sustainable_qps");
            int unresolved = cJSON_IsTrue(cJSON_GetObjectItem(j, "max_sustainable_qps_unresolved"));
            if (cJSON_IsNull(q) ? !unresolved || !strstr(out, "note: max_sustainable_qps null:") ||
                                      !strstr(out, "near a target")
                                : !(q->valuedouble >= num(j, "arrival_req_per_s") / 1.25))
                fail_msg("seed %d: %.2000s", seed, out);
        }
        cJSON_Delete(j);
    }
    snprintf(cmd, sizeof cmd, "size %s --seed 1%s", base, rl_san_requests());
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    j = cJSON_Parse(strchr(out, '{'));
    assert_non_null(j);
    cJSON_ArrayForEach(row, cJSON_GetObjectItem(j, "rows")) {
        const cJSON *u = cJSON_GetObjectItem(row, "capacity_utilization");
        if (cJSON_IsTrue(cJSON_GetObjectItem(row, "meets")) && cJSON_IsNumber(u) &&
            u->valuedouble > 1.25)
            fail_msg("a meeting row at %g x its capacity: %s", u->valuedouble, out);
    }
    cJSON_Delete(j);
}

/* tester8 item 3: a fitted profile applied outside the batch, context or
 * tokens it was fitted on says so, as TP outside its range did: the
 * splitwise preset's grid is batch 1-64, context 192-8256, tokens
 * 128-8192 (hw_profiles/h100-sxm-splitwise.lua fitted_on.grid); inside it
 * no such note.  Each axis names its value farthest outside, in octaves. */
static void fitted_grid_note(void **state)
{
    (void)state;
    char out[8192];
    static const char *const cases[][2] = {
        {"step --model llama2-70b --hw h100-sxm-splitwise --chips 2 --batch 1 --context 100",
         "band is applied outside the grid its costs were fitted on: context 100 (fitted on "
         "192-8256)"},
        {"step --model llama2-70b --hw h100-sxm-splitwise --chips 2 --batch 1,128 --context 4096",
         "fitted on: batch 128 (fitted on 1-64);"},
        /* tester20 F12: the farthest value out (the extent of the
         * extrapolation), not the first: 512 is 3 octaves above 64, 128 one */
        {"step --model llama2-70b --hw h100-sxm-splitwise --chips 2 --batch 64,128,512,256 "
         "--context 4096", "fitted on: batch 512 (fitted on 1-64);"},
        {"prefill --model llama2-70b --hw h100-sxm-splitwise --chips 2 --tokens 64",
         "fitted on: tokens 64 (fitted on 128-8192);"},
        {"step --model llama2-70b --hw h100-sxm-splitwise --chips 2 --batch 1,64 --context 4096",
         NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        assert_int_equal(run_cli(cases[i][0], out, sizeof out), 0);
        if (cases[i][1] ? !strstr(out, cases[i][1]) : strstr(out, "outside the grid") != NULL)
            fail_msg("%s: %.400s", cases[i][0], out);
    }
}

/* tester23 F1: in-sample is decided by the rows (fitted_on.row_keys), not
 * the file's bytes: the 47 fitted rows reordered, with a comment added, are
 * all in-sample (the old byte hash said false); with one new row, 47 of 48
 * (in_sample false, in_sample_rows 47, a warning); a profile without
 * row_keys (before 0.27) keeps the file-hash check. dir holds p.lua, fitted
 * on splitwise_h100.csv. */
static void fit_rows_in_sample(const char *dir)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "f=%s; (grep '^phase' $f; grep -v '^#' $f | grep -v '^phase' | sort -r; "
             "echo '# a note') > %s/shuf.csv && (cat %s/shuf.csv; echo "
             "'decode,h100-sxm,4,1,777,,0.05') > %s/plus.csv && grep -v row_keys %s/p.lua > "
             "%s/old.lua", RL_SRCDIR "/tests/data/e2e/splitwise_h100.csv", dir, dir, dir, dir, dir);
    assert_int_equal(system(cmd), 0);
    static const char *const csv[] = {"shuf", "plus", "shuf"};
    static const char *const prof[] = {"p", "p", "old"};
    static const int in_rows[] = {47, 47, 0};
    for (int i = 0; i < 3; i++) {
        snprintf(cmd, sizeof cmd, "validate --against %s/%s.csv --hw %s/%s.lua --model llama2-70b "
                 "--set model.max_context=16384 --format json", dir, csv[i], dir, prof[i]);
        cJSON *v = i < 2 ? run_json_noted(cmd, i == 0 ? "warning: the profile was fitted on these "
                                                        "very rows" : "warning: 47 of 48 rows were "
                                                        "fitted on")
                         : run_json(cmd);
        assert_int_equal(cJSON_IsTrue(cJSON_GetObjectItem(v, "in_sample")), i == 0);
        assert_int_equal(cJSON_GetObjectItem(v, "in_sample_rows")->valueint, in_rows[i]);
        cJSON_Delete(v);
    }
    /* tester59 F2: the same 47 rows spelled otherwise are the fitted rows
     * (the keys of their cells counted 0): the dtypes written out as the
     * defaults (bf16), the hw column left to --hw, fit's own --format csv
     * (its rows carry model, hw, engine, dtypes, kv_split) */
    snprintf(cmd, sizeof cmd, "f=%s; awk -F, '/^#/ {print; next} /^phase/ {print $0 \",weights,kv,"
             "compute\"; next} {print $0 \",bf16,bf16,bf16\"}' $f > %s/spelled.csv && cut -d, "
             "-f1,3- $f | grep -v '^#' > %s/nohw.csv && " RL_BIN " fit $f --hw h100-sxm --model "
             "llama2-70b --set model.max_context=16384 --format csv > %s/own.csv 2>/dev/null",
             RL_SRCDIR "/tests/data/e2e/splitwise_h100.csv", dir, dir, dir);
    assert_int_equal(system(cmd), 0);
    static const char *const spelled[] = {"spelled", "nohw", "own"};
    for (int i = 0; i < 3; i++) {
        snprintf(cmd, sizeof cmd, "validate --against %s/%s.csv --hw %s/p.lua --model llama2-70b "
                 "--set model.max_context=16384 --format json", dir, spelled[i], dir);
        cJSON *v = run_json_noted(cmd, "warning: the profile was fitted on these very rows");
        if (cJSON_GetObjectItem(v, "in_sample_rows")->valueint != 47)
            fail_msg("%s: in_sample_rows %d, want 47", cmd,
                     cJSON_GetObjectItem(v, "in_sample_rows")->valueint);
        assert_true(cJSON_IsTrue(cJSON_GetObjectItem(v, "in_sample")));
        cJSON_Delete(v);
    }
    /* a profile saved before tester59 F2 recorded its rows' cell keys
     * (rl_meas_row_key): its row_keys replaced by those, it still counts
     * its 47 rows, and by the cells only (the spelled-out file: 0) */
    rl_meas m;
    char err[512];
    assert_int_equal(rl_measure_read(RL_SRCDIR "/tests/data/e2e/splitwise_h100.csv", &m, err,
                                     sizeof err), 0);
    unsigned int keys[64];
    assert_true(m.n <= 64);
    for (int i = 0; i < m.n; i++)
        keys[i] = rl_meas_row_key(&m.row[i]);
    rl_engine_costs c = rl_engine_costs_ideal();
    rl_ec_set_row_keys(&c, keys, m.n);
    rl_measure_free(&m);
    char hex[64 * 9 + 1] = "";
    for (int i = 0, k = 0; i < c.nrow_keys; i++)
        k += snprintf(hex + k, sizeof hex - (size_t)k, "%s%08x", i ? " " : "", c.row_keys[i]);
    snprintf(cmd, sizeof cmd, "sed 's/row_keys = \"[0-9a-f ]*\"/row_keys = \"%s\"/' %s/p.lua > "
             "%s/cells.lua && ! cmp -s %s/p.lua %s/cells.lua", hex, dir, dir, dir, dir);
    assert_int_equal(system(cmd), 0);
    static const char *const old_csv[] = {RL_SRCDIR "/tests/data/e2e/splitwise_h100.csv", "spelled"};
    for (int i = 0; i < 2; i++) {
        char path[1024];
        snprintf(path, sizeof path, i ? "%s/%s.csv" : "%.0s%s", dir, old_csv[i]);
        snprintf(cmd, sizeof cmd, "validate --against %s --hw %s/cells.lua --model llama2-70b "
                 "--set model.max_context=16384 --format json", path, dir);
        cJSON *v = i ? run_json(cmd)
                     : run_json_noted(cmd, "warning: the profile was fitted on these very rows");
        assert_int_equal(cJSON_GetObjectItem(v, "in_sample_rows")->valueint, i ? 0 : 47);
        cJSON_Delete(v);
    }
    /* fixGI #1: nor by how the model was given.  Cell keys of the rows with
     * a model column (as calib/splitwise_csv.sh writes them; the shipped
     * splitwise profiles carried such keys) count the 47 rows left to
     * --model, and the keys above (no model column) count the 47 rows that
     * name it: both read 0 when the model cell was part of the match */
    snprintf(cmd, sizeof cmd, "awk -F, -v OFS=, '/^#/ {print; next} {$1 = $1 \",\" ($1 == "
             "\"phase\" ? \"model\" : \"llama2-70b\"); print}' %s > %s/modelcol.csv",
             RL_SRCDIR "/tests/data/e2e/splitwise_h100.csv", dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s/modelcol.csv", dir);
    assert_int_equal(rl_measure_read(cmd, &m, err, sizeof err), 0);
    assert_int_equal(m.n, 47);
    for (int i = 0; i < m.n; i++)
        keys[i] = rl_meas_row_key(&m.row[i]);
    rl_ec_set_row_keys(&c, keys, m.n);
    rl_measure_free(&m);
    hex[0] = '\0';
    for (int i = 0, k = 0; i < c.nrow_keys; i++)
        k += snprintf(hex + k, sizeof hex - (size_t)k, "%s%08x", i ? " " : "", c.row_keys[i]);
    snprintf(cmd, sizeof cmd, "sed 's/row_keys = \"[0-9a-f ]*\"/row_keys = \"%s\"/' %s/p.lua > "
             "%s/cells_model.lua", hex, dir, dir);
    assert_int_equal(system(cmd), 0);
    static const char *const swap[][2] = {{"cells_model.lua", RL_SRCDIR "/tests/data/e2e/splitwise_h100.csv"},
                                          {"cells.lua", "modelcol.csv"}};
    for (int i = 0; i < 2; i++) {
        char path[1024];
        snprintf(path, sizeof path, i ? "%s/%s" : "%.0s%s", dir, swap[i][1]);
        snprintf(cmd, sizeof cmd, "validate --against %s --hw %s/%s --model llama2-70b "
                 "--set model.max_context=16384 --format json", path, dir, swap[i][0]);
        cJSON *v = run_json_noted(cmd, "warning: the profile was fitted on these very rows");
        assert_int_equal(cJSON_GetObjectItem(v, "in_sample_rows")->valueint, 47);
        cJSON_Delete(v);
    }
}

/* Tester3 item 1: fit then validate --against on the same CSV (its rows name
 * hw h100-sxm): the --hw profile fit saved serves the rows of the chip it was
 * fitted on, so validate reports mode fitted and the fit's own median
 * |error| (the same rows and costs: equal to the printed 4 digits). */
static void fit_then_validate(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_fitval_XXXXXX", cmd[1024];
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "fit " RL_SRCDIR "/tests/data/e2e/splitwise_h100.csv --hw h100-sxm "
             "--model llama2-70b --set model.max_context=16384 --save %s/p.lua --format json", dir);
    cJSON *f = run_json(cmd);
    double fit_med = cJSON_GetObjectItem(f, "fit_median_abs_error")->valuedouble;
    cJSON_Delete(f);
    snprintf(cmd, sizeof cmd, "validate --against " RL_SRCDIR "/tests/data/e2e/splitwise_h100.csv "
             "--hw %s/p.lua --model llama2-70b --set model.max_context=16384 --format json", dir);
    static const char IN_SAMPLE[] = "roofline validate: warning: the profile was fitted on these "
                                    "very rows";
    cJSON *v = run_json_noted(cmd, IN_SAMPLE);
    assert_string_equal(cJSON_GetObjectItem(v, "mode")->valuestring, "fitted");
    assert_null(cJSON_GetObjectItem(v, "mode_note"));
    assert_true(fabs(cJSON_GetObjectItem(v, "median_abs_error")->valuedouble - fit_med) < 1e-4);
    /* tester19 F5: the profile records the CSV's hash (fitted_on.hash), so
     * the error is said to be in-sample (a key and its note, which the CLI
     * prints on stderr: run_json_noted) */
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(v, "in_sample")));
    assert_non_null(strstr(cJSON_GetObjectItem(v, "in_sample_note")->valuestring,
                           "fitted on these very rows"));
    assert_int_equal(cJSON_GetObjectItem(v, "in_sample_rows")->valueint, 47);
    const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(v, "rows"), 0);
    assert_string_equal(cJSON_GetObjectItem(row, "hw")->valuestring, "h100-sxm-splitwise_h100");
    assert_null(cJSON_GetObjectItem(v, "fitted_on_note")); /* its own model, dtypes and TP */
    cJSON_Delete(v);
    /* issue 13 item 2: validated as another model than the one fitted,
     * validate said nothing where step says "applied outside what they were
     * fitted on" (cli.c note_fitted_on); now the same sentence
     * (e2e.h rl_e2e_fitted_outside), on stderr and in fitted_on_note, with
     * how many rows and the first.  Failed before: no such key or note. */
    snprintf(cmd, sizeof cmd, "validate --against " RL_SRCDIR "/tests/data/e2e/splitwise_h100.csv "
             "--hw %s/p.lua --model mixtral-8x7b --set model.max_context=16384 --format json", dir);
    static const char OUTSIDE[] = "47 of 47 rows are timed outside what their profile's costs "
                                  "were fitted on (the first, line 7: h100-sxm-splitwise_h100's "
                                  "engine costs are applied outside what they were fitted on: "
                                  "model mixtral-8x7b (fitted on llama2-70b only); the time "
                                  "extrapolates their host floor and efficiencies";
    v = run_json_noted(cmd, OUTSIDE);
    const char *off = cJSON_GetStringValue(cJSON_GetObjectItem(v, "fitted_on_note"));
    if (!off || strncmp(off, OUTSIDE, sizeof OUTSIDE - 1) != 0 ||
        !strstr(out, "roofline validate: note: 47 of 47 rows are timed outside"))
        fail_msg("%s", off ? off : out);
    cJSON_Delete(v);
    /* tester5 #6: --profile is --hw's alias (the README's validate flag):
     * the same fitted result, not the stock profile's ideal one */
    snprintf(cmd, sizeof cmd, "validate --against " RL_SRCDIR "/tests/data/e2e/splitwise_h100.csv "
             "--profile %s/p.lua --model llama2-70b --set model.max_context=16384 --format json", dir);
    v = run_json_noted(cmd, IN_SAMPLE);
    assert_string_equal(cJSON_GetObjectItem(v, "mode")->valuestring, "fitted");
    assert_true(fabs(cJSON_GetObjectItem(v, "median_abs_error")->valuedouble - fit_med) < 1e-4);
    cJSON_Delete(v);
    /* the stock profile was not fitted on it: out of sample, no note of
     * that (fixFL: its tp8 prefill of 512 tokens, the norms and residual
     * adds whole on each chip and roofline-timed, read estimated, which a
     * note said; fixGC: each add and norm one kernel, as TensorRT-LLM runs
     * them, engines.c ENGINE_FUSION, so the tables time enough of it again:
     * every row calibrated, nothing on stderr, the JSON alone) */
    v = run_json("validate --against " RL_SRCDIR "/tests/data/e2e/splitwise_h100.csv "
                 "--hw h100-sxm --model llama2-70b --set model.max_context=16384 --format json");
    assert_string_equal(cJSON_GetObjectItem(v, "mode")->valuestring, "calibrated");
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(v, "in_sample")));
    assert_null(cJSON_GetObjectItem(v, "in_sample_note"));
    cJSON_Delete(v);
    /* and two different profiles are refused, exit 2, naming both */
    snprintf(cmd, sizeof cmd, "validate --against " RL_SRCDIR "/tests/data/e2e/splitwise_h100.csv "
             "--profile %s/p.lua --hw h200 --model llama2-70b", dir);
    assert_int_equal(run_cli(cmd, out, sizeof out), 2);
    assert_non_null(strstr(out, "and --hw 'h200' name two profiles"));
    /* a --hw of another chip does not serve them: their own spec does, and the note says so */
    assert_int_equal(run_cli("validate --against " RL_SRCDIR "/tests/data/e2e/splitwise_h100.csv "
                             "--hw h200 --model llama2-70b --set model.max_context=16384 "
                             "--format csv", out, sizeof out), 0);
    assert_non_null(strstr(out, "warning: 47 of 47 rows name a chip that --hw h200 does not "
                                "serve and are predicted by their own hw spec"));
    /* tester18 F2: rows outside the fit's TP read estimated, as step does:
     * fitted on the 17 TP4 rows, the 15 TP2 and 15 TP8 rows are estimated */
    snprintf(cmd, sizeof cmd, "awk -F, '/^#/ || /^phase/ || $3 == 4' " RL_SRCDIR
             "/tests/data/e2e/splitwise_h100.csv > %s/tp4.csv", dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "fit %s/tp4.csv --hw h100-sxm --model llama2-70b "
             "--set model.max_context=16384 --save %s/p4.lua --format json", dir, dir);
    cJSON_Delete(run_json(cmd));
    snprintf(cmd, sizeof cmd, "validate --against " RL_SRCDIR "/tests/data/e2e/splitwise_h100.csv "
             "--hw %s/p4.lua --model llama2-70b --set model.max_context=16384 --format json", dir);
    /* tester23 F1: the 17 TP4 rows were fitted on, and validate says so */
    v = run_json_noted(cmd, "warning: 17 of 47 rows were fitted on");
    assert_string_equal(cJSON_GetObjectItem(v, "mode")->valuestring, "mixed");
    /* and the estimated ones are said as step says a TP outside the fit */
    off = cJSON_GetStringValue(cJSON_GetObjectItem(v, "fitted_on_note"));
    if (!off || !strstr(off, "30 of 47 rows are timed outside") ||
        !strstr(off, "tp 2 (fitted on tp 4 only)"))
        fail_msg("%s", off ? off : "no fitted_on_note");
    int fitted = 0, estimated = 0;
    cJSON_ArrayForEach(row, cJSON_GetObjectItem(v, "rows")) {
        const char *mode = cJSON_GetObjectItem(row, "mode")->valuestring;
        int tp4 = cJSON_GetObjectItem(row, "tp")->valueint == 4;
        assert_string_equal(mode, tp4 ? "fitted" : "estimated");
        fitted += tp4;
        estimated += !tp4;
    }
    assert_int_equal(fitted, 17);
    assert_int_equal(estimated, 30);
    cJSON_Delete(v);
    fit_rows_in_sample(dir);
    assert_int_equal(remove_tree(dir), 0);
}

/* Tester3 item 9: step --band on the calibrated tensor-parallel path (8
 * chips of h100-sxm: tp8 over TensorRT-LLM's tables, its AllReduces added)
 * gives the band as the 1-chip step does: the op list's residual band plus
 * the same collectives, so low < step_s < high, and p5-p95 at least as
 * wide as p10-p90. */
static void step_tp_band(void **state)
{
    (void)state;
    const char *base = "step --model llama3-70b --hw h100-sxm --chips 8 --context 1024 "
                       "--batch 1,64 --format json";
    cJSON *n = run_cli_json(base, out, sizeof out);
    cJSON *w = json2(base, " --band p5-p95");
    assert_string_equal(cJSON_GetObjectItem(n, "band")->valuestring, "p10-p90");
    assert_string_equal(cJSON_GetObjectItem(w, "band")->valuestring, "p5-p95");
    for (int i = 0; i < 2; i++) {
        const cJSON *rn = cJSON_GetArrayItem(cJSON_GetObjectItem(n, "rows"), i);
        const cJSON *rw = cJSON_GetArrayItem(cJSON_GetObjectItem(w, "rows"), i);
        double v = num(rn, "step_s");
        assert_true(num(rn, "step_s_low") < v && v < num(rn, "step_s_high"));
        assert_true(num(rw, "step_s") == v);
        assert_true(num(rw, "step_s_low") <= num(rn, "step_s_low"));
        assert_true(num(rw, "step_s_high") >= num(rn, "step_s_high"));
    }
    cJSON_Delete(n);
    cJSON_Delete(w);
}

/* Tester3 item 12: size --help gives size's own --requests default (4000,
 * cli.c rl_cli_size), simulate's stays 20000; user help cites the docs,
 * not source headers. */
static void help_defaults_and_citations(void **state)
{
    (void)state;
    assert_int_equal(run_cli("size --help", out, sizeof out), 0);
    const char *req = strstr(out, "--requests N");
    assert_non_null(req);
    const char *def = strstr(req, "(default 4000)");
    assert_non_null(def);
    assert_true(def < strchr(req, '\n')); /* on --requests' own line */
    assert_null(strstr(out, "size.h"));
    assert_int_equal(run_cli("simulate --help", out, sizeof out), 0);
    assert_non_null(strstr(strstr(out, "--requests N"), "(default 20000)"));
    assert_int_equal(run_cli("fit --help", out, sizeof out), 0);
    assert_null(strstr(out, "src/enginecost.h"));
    /* tester15 F-doc-1: validate-serve's table gave simulate's 20000 and
     * 256; it serves 24 requests (at most 10000) on 4 slots (at most 64),
     * cli.c validate_serve_opts, and refuses past them before any run */
    assert_int_equal(run_cli("validate-serve --help", out, sizeof out), 0);
    static const char *const own[][2] = {{"\n  --requests N", "[1..10000 requests] (default 24)"},
                                         {"\n  --max-seqs B", "[1..64 sequences] (default 4)"}};
    for (int i = 0; i < 2; i++) {
        const char *row = strstr(out, own[i][0]); /* the option table's row */
        assert_non_null(row);
        row++;
        const char *b = strstr(row, own[i][1]);
        if (!b || b > strchr(row, '\n'))
            fail_msg("%s: no '%s' on its line: %s", own[i][0], own[i][1], row);
    }
    assert_int_equal(run_cli("validate-serve --requests 10001", out, sizeof out), 2);
    assert_non_null(strstr(out, "expected a whole number in [1, 10000]"));
    assert_int_equal(run_cli("validate-serve --max-seqs 65", out, sizeof out), 2);
    assert_non_null(strstr(out, "expected a whole number in [1, 64]"));
    /* sweep is Lua only: its reference lists Lua keys, no flags */
    assert_int_equal(run_cli("help --markdown", out, sizeof out), 0);
    const char *sw = strstr(out, "\n## sweep\n"), *next = sw ? strstr(sw + 1, "\n## ") : NULL;
    assert_true(sw && next);
    assert_non_null(strstr(sw, "Lua only: `roofline.sweep{...}`"));
    const char *flag = strstr(sw, "| --");
    assert_true(!flag || flag > next);
}

/* roofline list: one row per preset file (model/NAME.lua: 22 when this was
 * written, counted here from the directory), each loaded: llama3-8b has
 * 8,030,261,248 parameters (test_arch.c) and 8192 tokens of context;
 * h100-sxm carries efficiency tables (calibrated), tpu-v5e none (ideal, 16 GB
 * of HBM); engines lists ideal; `hardware` lists what hw does; anything
 * else is bad input. */
static void list_presets(void **state)
{
    (void)state;
    static char buf[1 << 16];
    cJSON *j = run_cli_json("list models --format json", buf, sizeof buf);
    cJSON *rows = cJSON_GetObjectItem(j, "rows"), *r;
    int files = 0, found = 0;
    FILE *p = popen("ls " RL_SRCDIR "/model/*.lua | wc -l", "r");
    assert_int_equal(fscanf(p, "%d", &files), 1);
    pclose(p);
    assert_int_equal(cJSON_GetArraySize(rows), files);
    cJSON_ArrayForEach(r, rows) {
        if (strcmp(cJSON_GetObjectItem(r, "name")->valuestring, "llama3-8b") != 0)
            continue;
        found = 1;
        assert_true(cJSON_GetObjectItem(r, "params")->valuedouble == 8030261248.0);
        assert_true(cJSON_GetObjectItem(r, "max_context")->valuedouble == 8192);
    }
    assert_true(found);
    /* tester60 #2: params_active counts the input embedding; the row also
     * gives info's params_active_nonembedding, the count OpenAI quotes:
     * gpt-oss-120b "5.13B" active (model card, Table 1), ours 5,132,849,472
     * (within 0.1%, three figures), below params_active by the untied
     * embedding table 201,088 x 2,880 = 579,133,440 exact. */
    found = 0;
    cJSON_ArrayForEach(r, rows) {
        if (strcmp(cJSON_GetObjectItem(r, "name")->valuestring, "gpt-oss-120b") != 0)
            continue;
        found = 1;
        double act = cJSON_GetObjectItem(r, "params_active")->valuedouble;
        cJSON *ne = cJSON_GetObjectItem(r, "params_active_nonembedding");
        assert_true(cJSON_IsNumber(ne));
        assert_rel(ne->valuedouble, 5.13e9, 0.001);
        assert_true(act - ne->valuedouble == 579133440.0);
    }
    assert_true(found);
    cJSON_Delete(j);
    j = run_cli_json("list hw --format json", buf, sizeof buf);
    found = 0;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(j, "rows")) {
        const char *name = cJSON_GetObjectItem(r, "name")->valuestring;
        const char *mode = cJSON_GetObjectItem(r, "mode")->valuestring;
        if (strcmp(name, "h100-sxm") == 0)
            found += strcmp(mode, "calibrated") == 0;
        if (strcmp(name, "tpu-v5e") == 0) /* no measurement: datasheet figures, estimated */
            found += strcmp(mode, "estimated") == 0 &&
                     cJSON_GetObjectItem(r, "hbm_bytes")->valuedouble == 17179869184.0;
    }
    assert_int_equal(found, 2);
    cJSON_Delete(j);
    /* every engine the presets carry, with the presets carrying it (tester4
     * #15: only ideal was listed): h100-sxm's default trtllm, its vllm, and the
     * splitwise profile's fitted engine */
    j = run_cli_json("list engines --format json", buf, sizeof buf);
    int engines = 0;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(j, "rows")) {
        const char *name = cJSON_GetObjectItem(r, "name")->valuestring;
        const char *hw = cJSON_GetObjectItem(r, "hardware")->valuestring;
        engines += !strcmp(name, "ideal") && !strcmp(hw, "every");
        engines += !strcmp(name, "trtllm") && strstr(hw, "h100-sxm*") != NULL;
        engines += !strcmp(name, "vllm") && strstr(hw, "h100-sxm,") != NULL;
        engines += !strcmp(name, "splitwise") && strstr(hw, "h100-sxm-splitwise*") != NULL;
    }
    assert_int_equal(engines, 4);
    cJSON_Delete(j);
    assert_int_equal(run_cli("list gpus", out, sizeof out), 2);
    assert_non_null(strstr(out, "roofline list: expected one of models, hw or engines (got 'gpus')"));
    /* tester12 #4: the help's "hardware" is hw (it was refused) */
    static char hw[1 << 16];
    assert_int_equal(run_cli("list hw", buf, sizeof buf), 0);
    assert_int_equal(run_cli("list hardware", hw, sizeof hw), 0);
    assert_string_equal(hw, buf);
    /* tester10 #11: the extra argument is named, not the valid one */
    assert_int_equal(run_cli("list hw extra", out, sizeof out), 2);
    assert_non_null(strstr(out, "(got 'extra' after 'hw')"));
}

/* tester50 F10: pareto --overlap on a calibrated profile was ignored with
 * no note and no key, and applied on a chip without measurements with no
 * key either: the note step --tp gives, and the `overlap` key. */
static void pareto_says_overlap(void **state)
{
    (void)state;
    const char *base = "pareto --model llama3-70b --hw h100-sxm --chips 8 --batch 1 --format json";
    char cmd[256];
    snprintf(cmd, sizeof cmd, "%s --overlap", base);
    cJSON *j = run_json_noted(cmd, "calibrated step adds its collectives to the local time (no "
                                   "overlap was measured); --overlap ignored");
    assert_string_equal(cJSON_GetObjectItem(j, "overlap")->valuestring, "local + comm");
    cJSON_Delete(j);
    j = run_json("pareto --model llama3-70b --hw tpu-v5e --chips 16 --batch 1 --overlap --format json");
    assert_string_equal(cJSON_GetObjectItem(j, "overlap")->valuestring,
                        "max(local, comm); pipeline plans max(local, comm - stage sends) + stage sends");
    cJSON_Delete(j);
}

/* The CSV header holds column `col` (a whole name between commas). */
static int csv_has_column(const char *header, const char *col)
{
    size_t n = strlen(col);
    for (const char *p = header; (p = strstr(p, col)) != NULL; p++)
        if ((p == header || p[-1] == ',') && (p[n] == ',' || p[n] == '\n'))
            return 1;
    return 0;
}

/* tester50 F1 (tester10 #8 noted it): --format csv left out every table but
 * one (validate --tables printed hw,engine,holdout alone; fit its
 * parameters; step and shard their collectives).  Each command with tables
 * in its JSON: the CSV has a line per element of each, led by the table's
 * name when there are several, and a column per scalar of each (another
 * table's as NAME.KEY, nested objects dotted: shard's limits.beta, step's
 * provenance.measured: F5, F6).  kv_timeline is JSON only
 * (docs/serving.md). */
static void csv_holds_every_table(void **state)
{
    (void)state;
    static char csv[1 << 20], js[1 << 20];
    static const char *const cmds[] = {
        "validate --tables " RL_SRCDIR "/tests/data/silicon/h100_sxm --hw h100-sxm "
        "--engine trtllm",
        "fit " RL_SRCDIR "/tests/data/e2e/splitwise_h100.csv --hw h100-sxm --model llama2-70b",
        "step --model llama3-70b --hw h100-sxm --chips 8 --batch 1,64 --context 4096",
        "shard --model llama3-70b --hw h100-sxm --chips 8 --batch 1 --context 4096",
        "info --hw h100-sxm",
        "prefill --model llama3-8b --hw h100-sxm --tokens 100,1000",
    };
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "%s --format json 2>/dev/null | cat", cmds[i]);
        assert_int_equal(run_cli(cmd, js, sizeof js), 0);
        snprintf(cmd, sizeof cmd, "%s --format csv 2>/dev/null | cat", cmds[i]);
        assert_int_equal(run_cli(cmd, csv, sizeof csv), 0);
        cJSON *j = cJSON_Parse(js);
        assert_non_null(j);
        int ntables = 0, lines = 0;
        for (const cJSON *t = j->child; t; t = t->next)
            ntables += cJSON_IsArray(t) && cJSON_IsObject(t->child);
        for (const char *p = csv; (p = strchr(p, '\n')) != NULL; p++)
            lines++;
        int elements = 0;
        for (const cJSON *t = j->child; t; t = t->next) {
            if (!cJSON_IsArray(t) || !cJSON_IsObject(t->child))
                continue;
            int n = cJSON_GetArraySize(t), led = 0;
            elements += n;
            char lead[128];
            snprintf(lead, sizeof lead, "\n%s,", t->string);
            for (const char *p = csv; (p = strstr(p, lead)) != NULL; p++)
                led++;
            if (ntables > 1 && led != n)
                fail_msg("%s: %d CSV lines of table %s, its JSON has %d", cmds[i], led, t->string, n);
            for (const cJSON *k = t->child->child; k; k = k->next) {
                char col[256];
                int bare = ntables == 1 || !strcmp(t->string, "rows");
                if (cJSON_IsObject(k) && k->child) /* nested: dotted, its first field */
                    snprintf(col, sizeof col, "%s%s%s.%s", bare ? "" : t->string, bare ? "" : ".",
                             k->string, k->child->string);
                else if (cJSON_IsArray(k))
                    continue;
                else
                    snprintf(col, sizeof col, "%s%s%s", bare ? "" : t->string, bare ? "" : ".",
                             k->string);
                if (!csv_has_column(csv, col))
                    fail_msg("%s: no CSV column %s", cmds[i], col);
            }
        }
        assert_true(ntables >= 1);
        assert_int_equal(lines, 1 + elements);
        if (ntables > 1)
            assert_true(strncmp(csv, "table,", 6) == 0);
        cJSON_Delete(j);
    }
    /* F5: the run's nested scalars lead each line, dotted */
    assert_int_equal(run_cli("shard --model llama3-70b --hw h100-sxm --chips 8 --batch 1 --context 4096 "
                             "--format csv 2>/dev/null | cat", csv, sizeof csv), 0);
    assert_true(csv_has_column(csv, "limits.beta") && csv_has_column(csv, "advice.generate"));
    /* one table prints as before: no table column */
    assert_int_equal(run_cli("step --model llama3-8b --hw h100-sxm --batch 1 --context 100 "
                             "--format csv 2>/dev/null | cat", csv, sizeof csv), 0);
    assert_false(csv_has_column(csv, "table"));
}

/* Issue 12, one calibration path: the profile `calibrate --backend cpu`
 * writes is the one `calibrate --tables` makes from the tables it wrote
 * (the same file but for the date lines and the line naming the command
 * that wrote it), and `--engine reference` selects
 * its tables on step, ops, prefill, simulate and validate; --tables-out
 * belongs to --backend (exit 2 with --tables). */
static void reference_engine_profile(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_ref_XXXXXX", cmd[2048];
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "calibrate --backend cpu --quick --model tiny-test --save %s/p.lua "
             "--tables-out %s/t --format json", dir, dir);
    cJSON *j = run_cli_json(cmd, out, sizeof out);
    assert_string_equal(cJSON_GetObjectItem(j, "engine")->valuestring, "reference");
    assert_non_null(cJSON_GetObjectItem(j, "peak_flops")); /* the keys kept from before */
    assert_non_null(cJSON_GetObjectItem(j, "rows"));
    cJSON_Delete(j);
    snprintf(cmd, sizeof cmd, "calibrate --tables %s/t --hw %s/t/base.lua --engine reference "
             "--save %s/p2.lua --format json", dir, dir, dir);
    cJSON_Delete(run_cli_json(cmd, out, sizeof out));
    char sh[2048];
    /* the same but for the engine costs: calibrate --backend measured its
     * sampling (calibrate.c sampling_costs), which no kernel table holds */
    snprintf(sh, sizeof sh, "cd %s && diff <(grep -v 'date\\|Written by\\|step_s' p.lua) "
             "<(grep -v 'date\\|Written by\\|step_s' p2.lua) >/dev/null && grep -q 'seq_s = [1-9]' p.lua && "
             "grep -q 'seq_s = 0,' p2.lua", dir);
    char bash[2200];
    snprintf(bash, sizeof bash, "bash -c \"%s\"", sh);
    assert_int_equal(system(bash), 0);
    /* each names the command that wrote it (CLOSING22: p.lua named
     * `calibrate --tables`, which the user never ran) */
    snprintf(sh, sizeof sh, "grep -q '^-- Written by .roofline calibrate --backend. over the tables "
             "it measured (as .roofline calibrate --tables %s/t ' %s/p.lua && grep -q "
             "'^-- Written by .roofline calibrate --tables %s/t --hw ' %s/p2.lua", dir, dir, dir,
             dir);
    assert_int_equal(system(sh), 0);
    /* the engine's attention rule (engines.h attn_longest): the CPU
     * backend's, "mean", in both; the same tables with the decode
     * attention rows named reference_cuda (one block per row and head)
     * import as "longest" (silicon.c put_engine) */
    snprintf(sh, sizeof sh, "cd %s && grep -q 'attention_context = .mean.' p.lua && grep -q "
             "'attention_context = .mean.' p2.lua && cp -r t tc && gzip -dc "
             "t/reference/generation_attention_perf.csv.gz | sed 's/,reference_cpu,/,"
             "reference_cuda,/' | gzip > tc/reference/generation_attention_perf.csv.gz && "
             "%s calibrate --tables tc --hw tc/base.lua --engine reference --save p3.lua "
             ">/dev/null 2>&1 && grep -q 'attention_context = .longest.' p3.lua", dir, RL_BIN);
    assert_int_equal(system(sh), 0);

    /* The --quick grid (calibrate.c): GEMM rows M 1-4, decode attention at
     * batch 1-4 and context 128-512, prefill attention at 32-128 tokens.  A
     * decode step inside it is timed by the tables (calibrated, share 0.92
     * on this VM); a 64-token prefill's GEMMs (M = 64) and simulate's step
     * at its batch cap are extrapolated, so whether the tables carry half
     * (spec.h rl_run_mode) depends on this host's measured attention and
     * GEMM speeds (prefill share 0.61 on one run, under half on another:
     * the flake of stop 24): those two must read the mode their reported
     * table_time_share gives (NULL below). */
    static const char *const cmds[] = {
        "step --batch 2 --context 256",
        "ops --phase decode --batch 2 --context 256",
        "prefill --tokens 64",
        "simulate --qps 20 --prompt-len 64 --out-len 8 --requests 100",
    };
    static const char *const modes[] = {"calibrated", "calibrated", NULL, NULL};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        /* ops --act fp32: the activations the fp32 tables measured (ops.c
         * table_act_bytes; at bf16 their times move and read derived) */
        snprintf(cmd, sizeof cmd, "%s --model tiny-test --hw %s/p.lua --engine reference "
                 "--weights fp32 --compute fp32 --kv fp32%s --format json", cmds[i], dir,
                 i == 1 ? " --act fp32" : "");
        j = run_cli_json(cmd, out, sizeof out);
        double share = num(j, "table_time_share");
        const char *rule = share >= RL_TABLE_SHARE_MIN ? "calibrated" : "estimated";
        const char *mode = cJSON_GetObjectItem(j, "mode")->valuestring;
        assert_string_equal(mode, rule);
        if (modes[i])
            assert_string_equal(mode, modes[i]);
        const cJSON *e = cJSON_GetObjectItem(j, "engine"); /* simulate too (tester 2) */
        assert_non_null(e);
        assert_string_equal(e->valuestring, "reference");
        const cJSON *prov = cJSON_GetObjectItem(j, "provenance");
        if (prov) /* ops: matmuls and attention from the float32 tables */
            assert_true(num(prov, "measured") + num(prov, "interpolated") +
                        num(prov, "extrapolated") >= 7);
        cJSON_Delete(j);
    }
    /* the --quick profile says it is a smoke test wherever it is used
     * (tester9 #7b); validate-serve exits 3 when its verdict fails, except
     * for a smoke test (a spec over p.lua with smoke_test = false is not
     * one); 2 requests make it fast, and the exit follows the printed verdict */
    snprintf(cmd, sizeof cmd, "step --model tiny-test --hw %s/p.lua --batch 2 --context 256 "
             "--engine reference --weights fp32 --compute fp32 --kv fp32", dir);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, "is a `calibrate --quick` profile, a smoke test"));
    /* tester20 F11: the default bf16 compute has no flops on this profile:
     * the refusal names the figure and the --compute it has, with no note
     * promising bf16 kernels derived from the float32 tables first */
    snprintf(cmd, sizeof cmd, "step --model tiny-test --hw %s/p.lua --batch 2 --context 256 "
             "--engine reference", dir);
    assert_int_equal(run_cli(cmd, out, sizeof out), 2);
    assert_non_null(strstr(out, "field 'flops.bf16': missing, so compute dtype bf16 cannot be used "
                                "(give --compute, Lua field compute, one of: fp32)"));
    assert_null(strstr(out, "derived"));
    snprintf(sh, sizeof sh, "%s/full.lua", dir);
    FILE *f = fopen(sh, "w");
    assert_non_null(f);
    fprintf(f, "return { base = 'p.lua', smoke_test = false }\n");
    fclose(f);
    /* and in its JSON (review22 #10: stderr only), a key present only then */
    for (int smoke = 0; smoke < 2; smoke++) {
        snprintf(cmd, sizeof cmd, "step --model tiny-test --hw %s/%s --batch 2 --context 256 "
                 "--engine reference --weights fp32 --compute fp32 --kv fp32 --format json", dir,
                 smoke ? "p.lua" : "full.lua");
        j = run_cli_json(cmd, out, sizeof out);
        const cJSON *k = cJSON_GetObjectItem(j, "smoke_test");
        if (smoke ? !cJSON_IsTrue(k) : k != NULL)
            fail_msg("%s: smoke_test %s", cmd, k ? "present" : "absent");
        cJSON_Delete(j);
    }
    for (int smoke = 0; smoke < 2; smoke++) {
        snprintf(cmd, sizeof cmd, "validate-serve --profile %s/%s --model tiny-test --requests 2 "
                 "--repeats 1 --qps 2", dir, smoke ? "p.lua" : "full.lua");
        int rc = run_cli(cmd, out, sizeof out), missed = strstr(out, "NOT all within") != NULL;
        if (rc != (missed && !smoke ? 3 : 0) || !strstr(out, "within 10% of the engine") ||
            !strstr(out, "smoke test") != !smoke)
            fail_msg("%s: exit %d: %s", cmd, rc, out);
        /* fixQB (issue 14 follow-up #4): it printed nothing for minutes;
         * now the runs and their expected time first (1 for the capacity,
         * 1 at the one load), then a line as each ends */
        if (!strstr(out, "roofline validate-serve: 2 engine runs of 2 requests (1 for the "
                         "capacity, 1 at each of 1 load(s)), about ") ||
            !strstr(out, "roofline validate-serve: engine run 1/2 done (capacity: every "
                         "request at t = 0)") ||
            !strstr(out, "roofline validate-serve: engine run 2/2 done (load 2 req/s, "))
            fail_msg("%s: no progress lines: %s", cmd, out);
    }
    /* review22 #7: --quick shaped no calibration here, yet switched a full
     * profile's verdict off; tester77 #6: refused (exit 2), it broke the
     * README's smoke path.  Taken with a note, and the full profile's verdict
     * still judged: exit 3 when it misses, as without --quick */
    snprintf(cmd, sizeof cmd, "validate-serve --profile %s/full.lua --quick --model tiny-test "
             "--requests 2 --repeats 1 --qps 2", dir);
    int rc = run_cli(cmd, out, sizeof out), missed = strstr(out, "NOT all within") != NULL;
    if (rc != (missed ? 3 : 0) || !strstr(out, "note: --quick shapes the calibration") ||
        !strstr(out, "with --profile the profile's own smoke_test decides") ||
        strstr(out, "the verdict is not judged"))
        fail_msg("%s: exit %d: %s", cmd, rc, out);
    snprintf(cmd, sizeof cmd, "validate --backend cpu --quick --model tiny-test --profile %s/p.lua "
             "--engine ideal --format json", dir);
    j = run_cli_json(cmd, out, sizeof out);
    assert_string_equal(cJSON_GetObjectItem(j, "mode")->valuestring, "ideal");
    assert_string_equal(cJSON_GetObjectItem(j, "engine")->valuestring, "none");
    cJSON_Delete(j);
    /* tester55 F2: the quick profile's 32-token prefill is extrapolated
     * (its GEMM times stop at M = 4), its decode rows table-timed: the run
     * reads mixed and the note counts and names the estimated row, where
     * it read "mode estimated: N% of the time is not timed" of that one
     * row's share as the run's */
    snprintf(cmd, sizeof cmd, "validate --backend cpu --quick --model tiny-test --profile %s/p.lua",
             dir);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    if (!strstr(out, " of 3 rows read mode estimated (prefill batch 1 context 32") ||
        strstr(out, "note: mode estimated: ") || !strstr(out, "mixed"))
        fail_msg("%s: %s", cmd, out);
    /* review22 #11 / CLOSING23: validate --backend printed its own smoke
     * note, and fit/validate --against loaded --hw a second time to print
     * it; now the CLI's one note from the libraries' own copies: said once,
     * naming the profile, with smoke_test in the JSON */
    snprintf(sh, sizeof sh, "%s/rows.csv", dir);
    f = fopen(sh, "w");
    assert_non_null(f);
    fprintf(f, "phase,tp,batch,context,measured_s\ndecode,1,2,256,0.5\n");
    fclose(f);
    static const char *const smoke_runs[] = {
        "validate --backend cpu --quick --model tiny-test --profile %s/p.lua --engine ideal "
        "--format json",
        "validate --against %s/rows.csv --model tiny-test --hw %s/p.lua --engine reference "
        "--weights fp32 --compute fp32 --kv fp32 --format json"};
    for (int k = 0; k < 2; k++) {
        snprintf(cmd, sizeof cmd, smoke_runs[k], dir, dir);
        if (run_cli(cmd, out, sizeof out) != 0)
            fail_msg("%s: %s", cmd, out);
        const char *note = strstr(out, "is a `calibrate --quick` profile, a smoke test");
        if (!note || strstr(note + 1, "is a `calibrate --quick` profile") ||
            !strstr(out, "\"smoke_test\":\ttrue"))
            fail_msg("%s: the smoke note once and smoke_test: %s", cmd, out);
    }
    snprintf(cmd, sizeof cmd, "calibrate --tables %s/t --hw %s/t/base.lua --engine reference "
             "--save %s/p3.lua --tables-out %s/x", dir, dir, dir, dir);
    assert_int_equal(run_cli(cmd, out, sizeof out), 2);
    assert_non_null(strstr(out, "--tables-out is where calibrate --backend writes its tables"));
    assert_int_equal(remove_tree(dir), 0);
}

/* roofline --version and roofline version print the one version of
 * src/version.h (tester4 #15: --version was an unknown command, exit 2). */
static void version(void **state)
{
    (void)state;
    char out[256], want[64];
    snprintf(want, sizeof want, "roofline %s\n", RL_VERSION);
    assert_int_equal(run_cli("--version", out, sizeof out), 0);
    assert_string_equal(out, want);
    assert_int_equal(run_cli("version", out, sizeof out), 0);
    assert_string_equal(out, want);
    assert_int_equal(run_cli("--version extra", out, sizeof out), 2);
    assert_non_null(strstr(out, "roofline --version: takes no arguments"));
}

/* tester9 #8: blanks around a number are ignored on both sides, by the
 * integer lists (--batch), the decimal numbers (--qps, --set, trace fields)
 * and the A:B tuples alike ("5 " was refused where " 5" was taken); text
 * after the blanks is still refused. */
static void blanks_around_numbers(void **state)
{
    (void)state;
    long long v[4];
    char err[256];
    const char *lists[] = {"5 ", " 5", " 5\t", "5 ,6", "5, 6 "};
    for (size_t i = 0; i < sizeof lists / sizeof *lists; i++)
        if (rl_cli_parse_list(lists[i], 1, 100, v, 4, err, sizeof err) < 1 || v[0] != 5)
            fail_msg("--batch '%s' refused: %s", lists[i], err);
    assert_int_equal(rl_cli_parse_list("5 6", 1, 100, v, 4, err, sizeof err), -1);
    assert_int_equal(rl_cli_parse_list("5, ", 1, 100, v, 4, err, sizeof err), -1);
    double x = 0, t[2];
    assert_int_equal(rl_parse_number("2.5 ", &x, NULL), 0);
    assert_true(x == 2.5);
    assert_int_equal(rl_parse_number(" 2.5 x", &x, NULL), -1);
    /* -2 for what strtod reads whole but we refuse (number.h): the trace
     * reader tells a data line from a header by it */
    static const char *const refused[] = {"nan", " -inf", "0x10", "1e400", "1e-400"};
    for (int i = 0; i < 5; i++)
        assert_int_equal(rl_parse_number(refused[i], &x, NULL), -2);
    assert_int_equal(rl_parse_number("arrival_s", &x, NULL), -1);
    assert_int_equal(rl_parse_tuple("4 :800 ", t, 2, 2), 2);
    assert_true(t[0] == 4 && t[1] == 800);
}

/* tester47 F5: the override echo's one spelling of a number
 * (number.h rl_number_compact): %g's shortest text that reads back, the
 * exponent without '+' or leading zeros; exact strings, no tolerance. */
static void compact_numbers(void **state)
{
    (void)state;
    static const double v[] = {3e12, 3.35e12, 2.5e-6, 9000, 1e100, -1e-300, 0, 1e6, 0.5};
    static const char *const want[] = {"3e12", "3.35e12", "2.5e-6", "9000", "1e100",
                                       "-1e-300", "0", "1e6", "0.5"};
    char buf[RL_NUMBER_STR];
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        assert_string_equal(rl_number_compact(v[i], buf), want[i]);
        assert_true(strtod(buf, NULL) == v[i]);
    }
    assert_string_equal(rl_number_compact(NAN, buf), "NaN");
    char q[64];
    assert_string_equal(rl_override_quote("h100 sxm", q, sizeof q), "h100 sxm");
    assert_string_equal(rl_override_quote("a\"b\\c,\td\x01", q, sizeof q),
                        "\"a\\\"b\\\\c,\\td\\x01\"");
    assert_string_equal(rl_override_quote("12", q, sizeof q), "\"12\"");
    assert_string_equal(rl_override_quote("", q, sizeof q), "\"\"");
}

/* CLOSING21 leftover: `list` read the first preset folder that had any
 * file, while a name resolves in $ROOFLINE_DATA, then beside the binary:
 * a ROOFLINE_DATA holding only the user's model/mine.lua listed mine alone
 * though llama3-8b (beside bin/) still loaded.  Now both are listed, and
 * a preset name that lookup resolves is one that `list` names. */
static void list_names_what_lookup_finds(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_listdata_XXXXXX", cmd[1024];
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "mkdir %s/model && sed 's/name = \"llama3-8b\"/name = \"mine\"/' "
             "%s/model/llama3-8b.lua > %s/model/mine.lua", dir, RL_SRCDIR, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "ROOFLINE_DATA=%s %s list models --format json 2>/dev/null", dir, RL_BIN);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    out[fread(out, 1, sizeof out - 1, p)] = '\0';
    assert_int_equal(pclose(p), 0);
    cJSON *j = cJSON_Parse(out);
    assert_non_null(j);
    int mine = 0, shipped = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(j, "rows")) {
        const char *name = cJSON_GetObjectItem(r, "name")->valuestring;
        mine += strcmp(name, "mine") == 0;
        shipped += strcmp(name, "llama3-8b") == 0;
    }
    cJSON_Delete(j);
    assert_int_equal(mine, 1);
    assert_int_equal(shipped, 1);
    assert_int_equal(remove_tree(dir), 0);
}

/* tester59 #2: list printed each spec's `name` field, not the preset (file)
 * name that --model/--hw take: a ROOFLINE_DATA holding model/other.lua
 * named "llama3-8b" inside listed a second llama3-8b, and --model of what
 * was listed read the shipped one.  Expected: key `preset` "other" beside
 * name "llama3-8b", and --model other loads.  tester59 #3: a preset of
 * that folder that does not load is named by its full path (it read
 * "model/bad.lua", no folder). */
static void list_names_the_preset(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_listpre_XXXXXX", cmd[1024], want[256];
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "mkdir %s/model && cp %s/model/llama3-8b.lua %s/model/other.lua",
             dir, RL_SRCDIR, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "ROOFLINE_DATA=%s %s list models --format json 2>/dev/null", dir, RL_BIN);
    assert_int_equal(shell_out(cmd), 0);
    cJSON *j = cJSON_Parse(out);
    assert_non_null(j);
    int other = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(j, "rows")) {
        const char *pre = cJSON_GetStringValue(cJSON_GetObjectItem(r, "preset"));
        assert_non_null(pre);
        if (strcmp(pre, "other") == 0) {
            other++;
            assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(r, "name")), "llama3-8b");
        }
    }
    cJSON_Delete(j);
    assert_int_equal(other, 1);
    snprintf(cmd, sizeof cmd, "ROOFLINE_DATA=%s %s info --model other >/dev/null 2>&1", dir, RL_BIN);
    assert_int_equal(shell_out(cmd), 0);
    snprintf(cmd, sizeof cmd, "echo 'return {name=\"bad\", layers=-1}' > %s/model/bad.lua", dir);
    assert_int_equal(system(cmd), 0);
    /* fixVE #1: that preset is skipped, said, and the others listed (exit 0) */
    snprintf(cmd, sizeof cmd, "ROOFLINE_DATA=%s %s list models 2>&1", dir, RL_BIN);
    assert_int_equal(shell_out(cmd), 0);
    snprintf(want, sizeof want, "roofline list: note: skipped (not listed; fix or move the file): "
             "%s/model/bad.lua: field 'layers'", dir);
    if (!strstr(out, want) || !strstr(out, "\nother ") || !strstr(out, "\nllama3-70b "))
        fail_msg("expected '%s' and the rows other and llama3-70b: %s", want, out);
    assert_int_equal(remove_tree(dir), 0);
}

/* tester59 #6: a profile `roofline fit` wrote has a serving engine without
 * a memory rule, and step used the whole HBM (max_batch 260 for llama3-8b
 * at context 2048 on h100-sxm-splitwise) where simulate kept its 10%
 * reserve.  Expected: step's max_batch is simulate's KV room over the
 * context, floor(467291 / 2048) = 228 (exact: both count whole tokens of
 * 0.9 x 80 GiB less 16.06 GB of weights at 131072 bytes a token).
 * fixJL (issue 12 item 4): the profile's engine now carries h100-sxm's
 * default engine's memory rule (trtllm, e2e.c inherit_memory), which both
 * apply: 0.9 x (80 GiB - 16,060,522,496 B of weights - 637,534,208 B of
 * workspace (8192 x (4096 + 48 x 128 + 2 x 14,336) x 2)) = 62,281,160,294 B
 * of KV, 475,167 tokens, floor(475167 / 2048) = 232 (was 228). */
static void step_reserve_as_simulate_on_fitted(void **state)
{
    (void)state;
    char buf[1 << 16];
    cJSON *j = run_cli_json("simulate --model llama3-8b --hw h100-sxm-splitwise --qps 1 "
                            "--requests 20 --prompt-len 100 --out-len 10 --format json",
                            buf, sizeof buf);
    double kv = cJSON_GetNumberValue(cJSON_GetObjectItem(j, "kv_capacity_tokens_per_replica"));
    cJSON_Delete(j);
    j = run_cli_json("step --model llama3-8b --hw h100-sxm-splitwise --context 2048 --format json",
                     buf, sizeof buf);
    double mb = cJSON_GetNumberValue(cJSON_GetObjectItem(j, "max_batch"));
    cJSON_Delete(j);
    assert_true(kv > 0);
    if (mb != floor(kv / 2048) || mb != 232)
        fail_msg("step max_batch %.0f, simulate's KV room %.0f tokens / 2048", mb, kv);
}

/* review49: after tester59 #6 step kept 10% of HBM back on a fitted
 * engine without a memory rule, while shard, pareto and ops (whose `fits`
 * and max_batch follow step's, as their help says) kept the whole HBM:
 * shard's tp4 row of llama3-70b at 2048 tokens on 4 x h100-sxm-splitwise
 * read max_batch 301 beside step --tp 4's 250.  Expected: step --tp 4's
 * max_batch (250) in shard's and pareto's tp4 rows, and ops's
 * usable_bytes_per_chip 0.9 x 80 GiB = 77309411328 bytes (exact).
 * fixJL: the profile's engine carries trtllm's rule now (no 10% reserve):
 * step --tp 4's max_batch 267 (was 250) in all three; ops's
 * usable_bytes_per_chip w + 0.9 x (80 GiB - w - 411,041,792 collective
 * buffers - 411,041,792 workspace (8192 x (8192 + (80 x 128 + 2 x 28,672) /
 * 4) x 2)), w = 35,278,831,616 B of weights a chip, = 80,097,419,264 B
 * (exact to the byte: integers and 0.9 x an integer). */
static void fits_follow_step_on_fitted(void **state)
{
    (void)state;
    static char buf[1 << 18];
    const char *at = "--model llama3-70b --hw h100-sxm-splitwise --context 2048 --batch 8";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "step %s --tp 4 --format json", at);
    cJSON *j = run_cli_json(cmd, buf, sizeof buf);
    double step_mb = cJSON_GetNumberValue(cJSON_GetObjectItem(j, "max_batch"));
    cJSON_Delete(j);
    assert_true(step_mb == 267);
    snprintf(cmd, sizeof cmd, "shard %s --chips 4 --format json", at);
    j = run_cli_json(cmd, buf, sizeof buf);
    double shard_mb = -1;
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(j, "rows"))
    {
        if (!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(r, "phase")), "generate") &&
            !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(r, "strategy")), "tp4"))
            shard_mb = cJSON_GetNumberValue(cJSON_GetObjectItem(r, "max_batch"));
    }
    cJSON_Delete(j);
    snprintf(cmd, sizeof cmd, "pareto %s --chips 4 --format json", at);
    j = run_cli_json(cmd, buf, sizeof buf);
    double pareto_mb = cJSON_GetNumberValue(
        cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0), "max_batch"));
    cJSON_Delete(j);
    snprintf(cmd, sizeof cmd, "ops %s --chips 4 --format json", at);
    j = run_cli_json(cmd, buf, sizeof buf);
    double usable = cJSON_GetNumberValue(cJSON_GetObjectItem(j, "usable_bytes_per_chip"));
    cJSON_Delete(j);
    if (shard_mb != step_mb || pareto_mb != step_mb || usable != 80097419264.0)
        fail_msg("step --tp 4 max_batch %.0f; shard tp4 %.0f, pareto %.0f; ops usable %.0f",
                 step_mb, shard_mb, pareto_mb, usable);
}

/* Issue 12 item 4 (fixJL): TensorRT-LLM's activation workspace ignored the
 * run's token budget: simulate --policy chunked --max-tokens 2048, 8192 and
 * 65536 kept the same KV capacity.  An engine built for more batched tokens
 * reserves more activation memory (TensorRT-LLM docs/source/reference/
 * memory.md: activations ~ max_num_tokens x a constant), so the workspace is
 * sized at max(8192, --max-tokens) (memory.h rl_memory_workspace's budget).
 * llama3-70b on 4 x h100-sxm (trtllm, TP4): 2048 equals 8192 (the engine's
 * default is the floor); 65536 holds (65536 - 8192) x (8192 + (80 x 128 +
 * 2 x 28,672) / 4) x 2 B = 2,877,292,544 B more workspace a chip, of which
 * the free fraction 0.9 came out of KV: x 4 chips / 327,680 B a token =
 * 31,610.76 tokens fewer (within 1: whole tokens).  vLLM's rule (fixKA)
 * sizes its workspace the same way from 8192 tokens, x 2.1221 (engines.c:
 * 1.26 GiB over Llama-3-8B's working set at 8192), all of it out of the
 * pool (fraction_of capacity): (65536 - 8192) x 25,088 x 2 B x 2.1221 =
 * 6,105,917,651.3 B a chip, x 4 / 327,680 B = 74,535.13 tokens fewer
 * (within 1), 2048 equal to 8192. */
static void trtllm_workspace_follows_max_tokens(void **state)
{
    (void)state;
    static rl_hw h;
    h = load_hw("h100-sxm", NULL, 0);
    char why[256];
    assert_int_equal(rl_hw_select_engine(&h, "vllm", why, sizeof why), 0);
    /* the shipped vLLM file sizes by tokens (8192 on h100-sxm: calibrate's
     * rl_engine_memory_default since fixKA); review56: a branch for an
     * older file (workspace_tokens 0) let this test pass on either */
    assert_true(rl_engines_selected(&h.engines)->mem.workspace_tokens == 8192);
    static char buf[1 << 16];
    static const char *const eng[2] = {"", " --engine vllm"};
    for (int e = 0; e < 2; e++) {
        double kv[3];
        static const int tok[3] = {2048, 8192, 65536};
        for (int k = 0; k < 3; k++) {
            char cmd[512];
            snprintf(cmd, sizeof cmd, "simulate --model llama3-70b --hw h100-sxm%s --chips 4 "
                     "--policy chunked --max-tokens %d --qps 1 --requests 20 --prompt-len 100 "
                     "--out-len 10 --format json", eng[e], tok[k]);
            cJSON *j = run_cli_json(cmd, buf, sizeof buf);
            kv[k] = cJSON_GetNumberValue(cJSON_GetObjectItem(j, "kv_capacity_tokens_per_replica"));
            cJSON_Delete(j);
        }
        assert_true(kv[0] > 0 && kv[0] == kv[1]);
        if (e == 0 && fabs(kv[1] - kv[2] - 2877292544.0 * 0.9 * 4 / 327680) > 1)
            fail_msg("trtllm: %.0f at 8192 tokens, %.0f at 65536", kv[1], kv[2]);
        if (e == 1 && fabs(kv[1] - kv[2] - 74535.13) > 1)
            fail_msg("vllm: %.0f at 8192 tokens, %.0f at 65536", kv[1], kv[2]);
    }
}

/* tester53 F1: a spec in hw_profiles/ that does not load (here not Lua)
 * made `list hw` exit 2 yet print, and --save write, the other rows;
 * then it listed nothing (exit 2).  fixVE #1 (a fresh-user tester: one bad
 * user file broke `list` completely): the broken file is skipped and said
 * (file and reason on stderr), the others are listed and saved, exit 0.
 * The same for a hardware profile calibrate was told to save into model/:
 * now refused before the run (exit 2, nothing written). */
/* --quiet (stop 55; tester97 asked for it): no "note: " line on stderr,
 * the result unchanged and a caution still said.  step on h100-sxm says
 * three notes (outside the tables, no host cost, the e2e gap) without it;
 * the run on tpu-v5e, which has nothing measured, cautions nothing but
 * notes its estimate: none with --quiet. */
static void quiet_says_no_notes(void **state)
{
    (void)state;
    char cmd[512];
    static char loud[sizeof out];
    const char *step = "step --model llama3-8b --hw h100-sxm --batch 1 --context 1024 "
                       "--format json";
    snprintf(cmd, sizeof cmd, "%s %s 2>&1 >/dev/null", RL_BIN, step);
    assert_int_equal(shell_out(cmd), 0);
    assert_non_null(strstr(out, "roofline step: note: "));
    snprintf(cmd, sizeof cmd, "%s %s 2>/dev/null", RL_BIN, step);
    assert_int_equal(shell_out(cmd), 0);
    memcpy(loud, out, sizeof loud);
    snprintf(cmd, sizeof cmd, "%s %s --quiet 2>&1 >/dev/null", RL_BIN, step);
    assert_int_equal(shell_out(cmd), 0);
    assert_null(strstr(out, "note: "));
    snprintf(cmd, sizeof cmd, "%s %s --quiet 2>/dev/null", RL_BIN, step);
    assert_int_equal(shell_out(cmd), 0);
    assert_string_equal(out, loud);
    /* the table's header points to no note it did not say: the
     * host-cost text stays in it */
    snprintf(cmd, sizeof cmd, "%s step --model llama3-8b --hw h100-sxm --batch 1 --context 1024 "
             "--quiet 2>/dev/null", RL_BIN);
    assert_int_equal(shell_out(cmd), 0);
    assert_null(strstr(out, "said on stderr above"));
    assert_non_null(strstr(out, "no per-step host cost"));
    /* a note the option checks say (--x without --sharding 2d) too
     * (review55 #2: --quiet was read after them) */
    snprintf(cmd, sizeof cmd, "%s step --model llama3-8b --hw h100-sxm --batch 1 --context 1024 "
             "--x 2 --quiet 2>&1 >/dev/null", RL_BIN);
    assert_int_equal(shell_out(cmd), 0);
    assert_null(strstr(out, "note: "));
    /* an error is still said */
    snprintf(cmd, sizeof cmd, "%s step --model llama3-8b --hw h100-sxm --batch 1 --quiet 2>&1",
             RL_BIN);
    assert_int_equal(shell_out(cmd), 2);
    assert_non_null(strstr(out, "--context S is required"));
}

static void list_skips_a_broken_preset(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_listbad_XXXXXX", cmd[1024], path[128];
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "mkdir %s/hw_profiles %s/model && echo 'return {' > "
             "%s/hw_profiles/mine.lua", dir, dir, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "ROOFLINE_DATA=%s %s list hw --format json 2>/dev/null", dir, RL_BIN);
    assert_int_equal(shell_out(cmd), 0);
    cJSON *j = cJSON_Parse(out);
    assert_non_null(j);
    int h100 = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(j, "rows"))
        h100 += !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(r, "preset")), "h100-sxm");
    /* the skipped file is a row of `skipped` for scripts (stop 55: only
     * stderr named it), with the file and the parser's reason */
    const cJSON *sk = cJSON_GetObjectItem(j, "skipped");
    assert_int_equal(cJSON_GetArraySize(sk), 1);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(sk, 0),
                                                                  "preset")), "mine");
    assert_non_null(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(sk, 0),
                                                                     "reason")),
                           "hw_profiles/mine.lua: syntax error"));
    cJSON_Delete(j);
    assert_int_equal(h100, 1);
    snprintf(cmd, sizeof cmd, "ROOFLINE_DATA=%s %s list hw --save %s/l.csv 2>&1", dir, RL_BIN, dir);
    assert_int_equal(shell_out(cmd), 0);
    assert_non_null(strstr(out, "note: skipped (not listed; fix or move the file): "));
    assert_non_null(strstr(out, "hw_profiles/mine.lua: syntax error"));
    snprintf(path, sizeof path, "%s/l.csv", dir);
    assert_int_equal(access(path, F_OK), 0);
    snprintf(cmd, sizeof cmd, "%s calibrate --backend cpu --quick --save %s/model/x.lua", RL_BIN,
             dir);
    expect_refused_in(dir, cmd, "a hardware profile in the presets folder model/");
    snprintf(path, sizeof path, "%s/model/x.lua", dir);
    assert_int_equal(access(path, F_OK), -1);
    assert_int_equal(remove_tree(dir), 0);
}

/* tester53 F1: `step --save hw_profiles/mine.lua` wrote a result where
 * every .lua is read as a spec, and `list hw` broke on it.  Expected: a
 * result named .lua in a data directory's hw_profiles/ or model/ is
 * refused before the run (exit 2, nothing written); as .json it is
 * written (exit 0). */
static void result_not_saved_as_a_preset(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_presetsave_XXXXXX", cmd[1024], path[128];
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "mkdir %s/hw_profiles %s/model", dir, dir);
    assert_int_equal(system(cmd), 0);
    static const char *const name[] = {"hw_profiles/mine.lua", "model/mine.lua",
                                       "hw_profiles/mine.json"};
    for (int i = 0; i < 3; i++) {
        snprintf(cmd, sizeof cmd, "ROOFLINE_DATA=%s %s step --model llama3-8b --hw h100-sxm "
                 "--context 1024 --format json --save %s/%s 2>&1", dir, RL_BIN, dir, name[i]);
        int rc = shell_out(cmd);
        snprintf(path, sizeof path, "%s/%s", dir, name[i]);
        if (i < 2 && (rc != 2 || !strstr(out, "a result named .lua in the presets folder") ||
                      access(path, F_OK) == 0))
            fail_msg("%s: exit %d: %s", name[i], rc, out);
        if (i == 2 && (rc != 0 || access(path, F_OK) != 0))
            fail_msg("%s: exit %d: %s", name[i], rc, out);
    }
    /* review45: import-hf's model spec may go in model/ (save_never_replaces_inputs)
     * but not in hw_profiles/, where `list hw` read it as a hardware spec and
     * listed nothing */
    snprintf(cmd, sizeof cmd, "ROOFLINE_DATA=%s %s import-hf %s/tests/data/hf/gemma2-27b.json "
             "--save %s/hw_profiles/g.lua 2>&1", dir, RL_BIN, RL_SRCDIR, dir);
    assert_int_equal(shell_out(cmd), 2);
    assert_non_null(strstr(out, "a model spec in the presets folder hw_profiles/"));
    snprintf(path, sizeof path, "%s/hw_profiles/g.lua", dir);
    assert_int_equal(access(path, F_OK), -1);
    /* tester101 (t38): `run --out DATA/model` let roofline.write put
     * llama3-8b.lua there, shadowing the shipped preset (every later
     * --model llama3-8b failed), exit 0, while --save refused it.  Now
     * the same rule per file (outdir.c rl_outdir_resolve): exit 2, and
     * nothing kept, the .json written before it removed too; from the
     * data directory's top, a write into its hw_profiles/ likewise. */
    static const char *const script[] = {
        "roofline.write(\"ok.json\", \"{}\")\nroofline.write(\"llama3-8b.lua\", \"return 1\")\n",
        "roofline.write(\"hw_profiles/x.lua\", \"return 1\")\n"};
    static const char *const run_out[] = {"model", ""};
    static const char *const refused[] = {"llama3-8b.lua: a .lua file in the presets folder "
                                          "model/, where every .lua file is read as a spec",
                                          "hw_profiles/x.lua: a .lua file in the presets folder "
                                          "hw_profiles/"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/w%d.lua", dir, i);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs(script[i], f);
        fclose(f);
        snprintf(cmd, sizeof cmd, "ROOFLINE_DATA=%s %s run --out %s/%s %s 2>&1", dir, RL_BIN,
                 dir, run_out[i], path);
        int rc = shell_out(cmd);
        if (rc != 2 || !strstr(out, refused[i]))
            fail_msg("run --out %s: exit %d: %s", run_out[i], rc, out);
    }
    static const char *const unwritten[] = {"model/llama3-8b.lua", "model/ok.json",
                                            "hw_profiles/x.lua"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, unwritten[i]);
        if (access(path, F_OK) == 0)
            fail_msg("%s was written", path);
    }
    assert_int_equal(remove_tree(dir), 0);
}

/* tester53 F7: a trace from a pipe (a shell's <(...) is /dev/fd/N, a
 * pipe) was refused as "not a regular file (a FIFO)".  Expected: read
 * once as a stream: 3 requests, arrivals 0, 0.5 and 1 s, so 2 req/s
 * (2 gaps over 1 s, exact); an empty pipe is the empty file's error. */
static void trace_from_a_pipe(void **state)
{
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "printf '0,100,10\\n0.5,100,10\\n1,200,20\\n' | %s simulate "
             "--model llama3-8b --hw h100-sxm --trace /dev/stdin --format json 2>/dev/null", RL_BIN);
    assert_int_equal(shell_out(cmd), 0);
    cJSON *j = cJSON_Parse(out);
    assert_non_null(j);
    assert_int_equal((int)cJSON_GetObjectItem(j, "requests")->valuedouble, 3);
    assert_true(cJSON_GetObjectItem(j, "qps")->valuedouble == 2);
    cJSON_Delete(j);
    snprintf(cmd, sizeof cmd, ": | %s simulate --model llama3-8b --hw h100-sxm --trace /dev/stdin "
             "2>&1", RL_BIN);
    assert_int_equal(shell_out(cmd), 2);
    assert_non_null(strstr(out, "--trace stdin: no requests")); /* tester62 #8: one name */
    /* review45: a pipe whose writer sends its first line after the named
     * FIFO's wait (report.h RL_PIPE_WAIT_S, 10 s) is still read: a pipe has
     * its writer (it was refused as "nothing wrote to within 10 s") */
    snprintf(cmd, sizeof cmd, "{ sleep %d; printf '0,100,10\\n0.5,100,10\\n1,200,20\\n'; } | %s "
             "simulate --model llama3-8b --hw h100-sxm --trace /dev/stdin --format json "
             "2>/dev/null", RL_PIPE_WAIT_S + 1, RL_BIN);
    assert_int_equal(shell_out(cmd), 0);
    j = cJSON_Parse(out);
    assert_non_null(j);
    assert_int_equal((int)cJSON_GetObjectItem(j, "requests")->valuedouble, 3);
    cJSON_Delete(j);
}

/* tester57 F2, F3: fit's CSV, validate --against's and import-hf's config
 * were refused from a pipe ("not a regular file (a FIFO)") that --trace
 * reads, and "-" was no name for stdin.  Expected: each reads a pipe, as
 * /dev/stdin and as "-", once: fit's content hash from the pipe equals the
 * file's (the same bytes, fnv1a64:574cdbb4074013b8 for splitwise_h100.csv),
 * its key file and messages say "stdin", and a spec read from a pipe takes
 * its name from --name (refused without: no file name to go by). */
static void inputs_from_a_pipe(void **state)
{
    (void)state;
    static const char *const csv = RL_SRCDIR "/tests/data/e2e/splitwise_h100.csv";
    static const char *const args = "--model llama2-70b --hw h100-sxm --set model.max_context=16384 "
                                    "--format json 2>/dev/null";
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s fit %s %s", RL_BIN, csv, args);
    assert_int_equal(shell_out(cmd), 0);
    cJSON *j = cJSON_Parse(out);
    assert_non_null(j);
    char hash[64];
    snprintf(hash, sizeof hash, "%s", cJSON_GetObjectItem(j, "hash")->valuestring);
    assert_string_equal(hash, "fnv1a64:574cdbb4074013b8");
    cJSON_Delete(j);
    static const char *const runs[] = {"fit -", "fit /dev/stdin", "validate --against -",
                                       "validate --against /dev/stdin"};
    for (int i = 0; i < 4; i++) {
        snprintf(cmd, sizeof cmd, "cat %s | %s %s %s", csv, RL_BIN, runs[i], args);
        if (shell_out(cmd) != 0 || !(j = cJSON_Parse(out)))
            fail_msg("%s: %s", runs[i], out);
        const cJSON *h = cJSON_GetObjectItem(j, "hash"), *f = cJSON_GetObjectItem(j, "file");
        /* "stdin" in any spelling (tester62 #8: /dev/stdin was reported as given) */
        if ((i < 2 && strcmp(h->valuestring, hash) != 0) || strcmp(f->valuestring, "stdin") != 0)
            fail_msg("%s: file %s, hash %s", runs[i], f->valuestring, i < 2 ? h->valuestring : "");
        cJSON_Delete(j);
    }
    snprintf(cmd, sizeof cmd, "%s import-hf - --name piped < %s/tests/data/hf/llama3-8b.json",
             RL_BIN, RL_SRCDIR);
    assert_int_equal(shell_out(cmd), 0);
    assert_non_null(strstr(out, "name = \"piped\""));
    assert_non_null(strstr(out, "source = \"Hugging Face config.json (stdin)\""));
    snprintf(cmd, sizeof cmd, "cat %s/tests/data/hf/llama3-8b.json | %s import-hf /dev/stdin 2>&1",
             RL_SRCDIR, RL_BIN);
    assert_int_equal(shell_out(cmd), 2);
    assert_non_null(strstr(out, "stdin: a config read from stdin has no file name to name "
                                "the spec by; give --name NAME"));
    assert_null(strstr(out, "/dev/stdin")); /* one name for stdin (tester62 #8) */
    snprintf(cmd, sizeof cmd, "cat %s/tests/data/hf/llama3-8b.json | %s import-hf /dev/fd/3 3<&0 "
             "2>&1", RL_SRCDIR, RL_BIN);
    assert_int_equal(shell_out(cmd), 2);
    assert_non_null(strstr(out, "/dev/fd/3: a config read from a pipe has no file name to name "
                                "the spec by; give --name NAME"));
    snprintf(cmd, sizeof cmd, "printf '0,100,10\\n0.5,100,10\\nx\\n' | %s simulate --model "
             "llama3-8b --hw h100-sxm --trace - 2>&1", RL_BIN);
    assert_int_equal(shell_out(cmd), 2);
    assert_non_null(strstr(out, "--trace stdin:3: expected 3 to 5 comma-separated fields"));
    snprintf(cmd, sizeof cmd, "printf '0,100,10\\n0.5,100,10\\n1,200,20\\n' | %s simulate "
             "--model llama3-8b --hw h100-sxm --trace - --format json 2>/dev/null", RL_BIN);
    assert_int_equal(shell_out(cmd), 0);
    j = cJSON_Parse(out);
    assert_non_null(j);
    assert_int_equal((int)cJSON_GetObjectItem(j, "requests")->valuedouble, 3);
    cJSON_Delete(j);
}

/* review48: fit --save on a pipe named by its descriptor (<(...), here
 * /dev/fd/3 with a pipe on it) recorded the pipe's last path component as
 * the CSV it was fitted on: fitted_on.file = "0" and the profile's header
 * "on 0: 47 rows" (bash's <(...) gave "63").  Expected "a pipe", as
 * import-hf's spec says where its config came from, and "stdin" for "-".
 * fixFI: the header read "the engine costs of fitted fitted by" (the
 * engine named "fitted" for want of a file name); now "the engine costs
 * 'fitted', fitted by `roofline fit` ... on\n-- a pipe: 47 rows".
 * Stop 38's final review: `fit /dev/fd/0 < runs.csv` (stdin, a file on it)
 * still recorded "0" (only a pipe was caught); one rule now (report.h
 * rl_input_origin): stdin in any spelling is "stdin", on a pipe or a file,
 * and another descriptor on a file is "a descriptor". */
static void fit_from_a_pipe_names_no_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_pipefit_XXXXXX", cmd[2048];
    assert_non_null(mkdtemp(dir));
    static const char *const in[] = {"/dev/fd/3 3<&0", "-", "/dev/fd/0", "/dev/fd/0", "/dev/fd/4"};
    static const char *const feed[] = {"|", "|", "|", "<", "4<"};
    static const char *const want[] = {"a pipe", "stdin", "stdin", "stdin", "a descriptor"};
    for (int i = 0; i < 5; i++) {
        char csv[512];
        snprintf(csv, sizeof csv, "%s/tests/data/e2e/splitwise_h100.csv", RL_SRCDIR);
        char run[600];
        if (feed[i][0] == '|')
            snprintf(run, sizeof run, "cat %s | %s fit %s", csv, RL_BIN, in[i]);
        else
            snprintf(run, sizeof run, "%s fit %s %s %s", RL_BIN, in[i], feed[i], csv);
        snprintf(cmd, sizeof cmd, "%s --model llama2-70b --hw h100-sxm --set "
                 "model.max_context=16384 --save %s/p%d.lua >/dev/null 2>&1 && cat %s/p%d.lua",
                 run, dir, i, dir, i);
        assert_int_equal(shell_out(cmd), 0);
        char file[64], head[64];
        snprintf(file, sizeof file, "file = \"%s\",", want[i]);
        snprintf(head, sizeof head, "on\n-- %s: 47 rows", want[i]);
        if (!strstr(out, file) || !strstr(out, head) ||
            !strstr(out, "with the engine costs 'fitted', fitted by `roofline fit`"))
            fail_msg("fit %s: want '%s' and '%s' in:\n%.400s", in[i], file, head, out);
    }
    assert_int_equal(remove_tree(dir), 0);
}

/* The writer of a FIFO test: a child that copies `file` into the FIFO
 * `fifo`, as `cat file > fifo &` would, but that the test reaps.  Its open
 * blocks until a reader opens the FIFO; alarm(60) ends it if none ever
 * does.  Returns its pid. */
static pid_t fifo_writer(const char *fifo, const char *file)
{
    pid_t w = fork();
    assert_true(w >= 0);
    if (w == 0) {
        signal(SIGPIPE, SIG_DFL);
        alarm(60);
        FILE *in = fopen(file, "rb");
        int fd = open(fifo, O_WRONLY);
        if (!in || fd < 0)
            _exit(1);
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, in)) > 0)
            if (write(fd, buf, n) != (ssize_t)n)
                _exit(1);
        _exit(0);
    }
    return w;
}

/* Reap fifo_writer's child w.  Where the command under test never opened
 * the FIFO (it failed first), the child still waits in open(): opening and
 * closing a reader (non-blocking, so this never waits for a writer) lets
 * its open return and its write fail (SIGPIPE), so it ends; retried while
 * the child has not yet reached its open, up to 10 s, then killed. */
static void fifo_reap(pid_t w, const char *fifo)
{
    int st;
    for (int i = 0; i < 200; i++) {
        if (waitpid(w, &st, WNOHANG) == w)
            return;
        int r = open(fifo, O_RDONLY | O_NONBLOCK);
        if (r >= 0)
            close(r);
        usleep(50000);
    }
    kill(w, SIGKILL);
    waitpid(w, &st, 0);
}

/* tester62 #8: validate --against /dev/fd/0 < file reported "file":
 * "/dev/fd/0", and its notes named the path as spelled, where fit's profile
 * records "stdin" (report.h rl_input_origin).  Expected: "stdin" in the
 * result and the notes for every spelling of descriptor 0 (-, /dev/stdin,
 * /dev/fd/0, /proc/self/fd/0), exactly; a CSV with a column 'foo' no
 * measurement field reads gives the note. */
static void validate_names_stdin_once(void **state)
{
    (void)state;
    static const char *const in[] = {"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"};
    char dir[] = "/tmp/rl_valstdin_XXXXXX", csv[128], cmd[1024];
    assert_non_null(mkdtemp(dir));
    snprintf(csv, sizeof csv, "%s/r.csv", dir);
    FILE *f = fopen(csv, "w");
    assert_non_null(f);
    fputs("model,hw,phase,tp,batch,context,tokens,output,measured_s,foo\n"
          "llama3-8b,h100-sxm,decode,1,8,2048,,,0.008,1\n"
          "llama3-8b,h100-sxm,decode,1,16,2048,,,0.009,1\n", f);
    assert_int_equal(fclose(f), 0);
    for (int i = 0; i < 4; i++) {
        snprintf(cmd, sizeof cmd, "%s validate --against %s --hw h100-sxm --format json < %s 2>&1",
                 RL_BIN, in[i], csv);
        assert_int_equal(shell_out(cmd), 0);
        if (!strstr(out, "roofline validate: note: stdin: columns not read (not measurement "
                         "fields): 'foo'") || !strstr(out, "\"file\":\t\"stdin\"") ||
            strstr(out, "/dev/") || strstr(out, "/proc/"))
            fail_msg("validate --against %s:\n%.600s", in[i], out);
    }
    assert_int_equal(remove_tree(dir), 0);
}

/* Stop 38's review: import-hf on a FIFO made by mkfifo was refused without
 * --name ("a config read from a pipe has no file name"), though the user
 * named the FIFO.  Expected: a FIFO is named by its path as a file is
 * (report.h rl_input_origin), here .../llama-fifo.json: the spec's name
 * "llama-fifo" and its source "Hugging Face config.json (llama-fifo.json)".
 * The writer is a child of the test (fifo_writer), reaped whether or not
 * import-hf opened the FIFO (review: a background `cat` stayed blocked in
 * open() when import-hf failed first); the second run fails before it
 * opens the FIFO (an unknown option) and the writer is reaped all the same. */
static void import_hf_named_fifo(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_hffifo_XXXXXX", cmd[1024], fifo[128], src[512];
    assert_non_null(mkdtemp(dir));
    snprintf(fifo, sizeof fifo, "%s/llama-fifo.json", dir);
    snprintf(src, sizeof src, "%s/tests/data/hf/llama3-8b.json", RL_SRCDIR);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    pid_t w = fifo_writer(fifo, src);
    snprintf(cmd, sizeof cmd, "%s import-hf %s 2>&1", RL_BIN, fifo);
    int rc = shell_out(cmd);
    fifo_reap(w, fifo);
    assert_int_equal(rc, 0);
    if (!strstr(out, "name = \"llama-fifo\"") ||
        !strstr(out, "source = \"Hugging Face config.json (llama-fifo.json)\""))
        fail_msg("%.600s", out);
    w = fifo_writer(fifo, src);
    snprintf(cmd, sizeof cmd, "%s import-hf %s --no-such-option 2>&1", RL_BIN, fifo);
    rc = shell_out(cmd);
    fifo_reap(w, fifo);
    assert_int_equal(rc, 2);
    assert_int_equal(remove_tree(dir), 0);
}

/* fixFI: fit's folds grouped repeats by their raw cells, so the
 * splitwise CSV's first row repeated (measured 1% slower) with its
 * weights written out as bf16, where the other rows leave the weights
 * cell empty (--weights' default, bf16), counted as a 48th configuration
 * and could land in another fold than its twin.  Expected: 48 rows, 47
 * configurations (the file's 47 plus none; exact). */
static void fit_configurations_resolved(void **state)
{
    (void)state;
    char csv[] = "/tmp/rl_fitconf_XXXXXX", cmd[2048];
    int fd = mkstemp(csv);
    assert_true(fd >= 0);
    close(fd);
    snprintf(cmd, sizeof cmd, "grep -v '^#' %s/tests/data/e2e/splitwise_h100.csv | awk -F, "
             "'NR==1{print $0\",weights\"; next} {print $0\",\"} NR==2{f=$0} END{n=split(f,a,"
             "\",\"); a[n]=a[n]*1.01; for(i=1;i<=n;i++) printf \"%%s,\", a[i]; print \"bf16\"}' > %s "
             "&& %s fit %s --model llama2-70b --hw h100-sxm --set model.max_context=16384 --format "
             "json", RL_SRCDIR, csv, RL_BIN, csv);
    assert_int_equal(shell_out(cmd), 0);
    cJSON *j = cJSON_Parse(out);
    assert_non_null(j);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(j, "rows")), 48);
    assert_int_equal((int)cJSON_GetObjectItem(j, "configurations")->valuedouble, 47);
    cJSON_Delete(j);
    assert_int_equal(unlink(csv), 0);
}

/* review48: size --report on --trace - said "Traffic: trace - (120
 * requests, ...)", the flag's argument, where every message says "stdin"
 * (report.h rl_input_shown).  Expected "trace stdin (120 requests, 2 req/s
 * mean)": 120 arrivals 0.5 s apart (119 gaps over 59.5 s, exact). */
static void size_report_names_stdin(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_stdinrep_XXXXXX", cmd[1024];
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "awk 'BEGIN{for(i=0;i<120;i++) printf \"%%g,200,20\\n\", i*0.5}' | "
             "%s size --model llama3-8b --hw h100-sxm --trace - --ttft-p99 1 --tpot-p99 0.05 "
             "--report %s/r.md >/dev/null 2>&1 && cat %s/r.md", RL_BIN, dir, dir);
    assert_int_equal(shell_out(cmd), 0);
    if (!strstr(out, "- Traffic: trace stdin (120 requests, 2 req/s mean)."))
        fail_msg("%.600s", out);
    assert_int_equal(remove_tree(dir), 0);
}

/* tester63 #6, #12: size models no prefix cache, and its report's Traffic
 * line said neither that a trace's shared prefixes are not reused nor the
 * --burst CV.  Expected: a trace of 120 requests 0.5 s apart, each naming
 * prefix i % 2 of 100 tokens, gives the note "120 of 120 trace requests
 * name a shared prefix" and the Traffic line "120 of them name a shared
 * prefix (prefix_id), not reused"; --burst 3 gives "bursty (gamma,
 * coefficient of variation 3)". */
static void size_report_says_prefixes_and_burst(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_prefrep_XXXXXX", cmd[1024];
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "awk 'BEGIN{for(i=0;i<120;i++) printf \"%%g,200,20,%%d,100\\n\", "
             "i*0.5, i%%2}' > %s/t.csv && %s size --model llama3-8b --hw h100-sxm --trace %s/t.csv "
             "--ttft-p99 1 --tpot-p99 0.05 --report %s/r.md 2>&1 >/dev/null && cat %s/r.md",
             dir, RL_BIN, dir, dir, dir);
    assert_int_equal(shell_out(cmd), 0);
    if (!strstr(out, "note: 120 of 120 trace requests name a shared prefix (prefix_id), but size "
                     "models no prefix cache") ||
        !strstr(out, "requests, 2 req/s mean); 120 of them name a shared prefix (prefix_id), not "
                     "reused: size models no prefix cache"))
        fail_msg("%.3000s", out);
    snprintf(cmd, sizeof cmd, "%s size --model llama3-8b --hw h100-sxm --qps 2 --prompt-len 200 "
             "--out-len 20 --burst 3 --requests 200 --ttft-p99 1 --tpot-p99 0.05 --report %s/b.md "
             ">/dev/null 2>&1 && cat %s/b.md", RL_BIN, dir, dir);
    assert_int_equal(shell_out(cmd), 0);
    if (!strstr(out, "- Traffic: bursty (gamma, coefficient of variation 3) arrivals at 2 req/s, "
                     "prompt 200 tokens, output 20 tokens, seed 1."))
        fail_msg("%.3000s", out);
    assert_int_equal(remove_tree(dir), 0);
}

/* Text t with each line's first comma-separated field cut (the `file`
 * column, which names the CSV each validate read). */
static void cut_first_field(char *t)
{
    char *w = t;
    for (const char *r = t; *r;) {
        r += strcspn(r, ",\n");
        r += *r == ',';
        size_t n = strcspn(r, "\n") + (r[strcspn(r, "\n")] == '\n');
        memmove(w, r, n);
        w += n;
        r += n;
    }
    *w = '\0';
}

/* tester53 F5: validate --against on its own CSV named kv_split among the
 * columns not read, refused its static rows (measured_s, no
 * measured_tok_s_per_gpu: exit 2) and, on a chip timed by no engine
 * (tpu-v5e), its engine "none" (exit 2).  Expected: exit 0, kv_split read
 * (not in the note, which names validate's result columns), and the same
 * CSV again (exact text, but for the `file` column) on h100-sxm and
 * tpu-v5e. */
static void validate_reads_its_own_csv(void **state)
{
    (void)state;
    static const char *const hw[] = {"h100-sxm", "tpu-v5e"};
    char dir[] = "/tmp/rl_valrt_XXXXXX", cmd[1024];
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "printf 'phase,tp,batch,context,tokens,output,measured_s,"
             "measured_tok_s_per_gpu\\ndecode,2,8,100,,,0.03,\\nstatic,2,8,,512,128,,300\\n' "
             "> %s/m.csv", dir);
    assert_int_equal(system(cmd), 0);
    for (size_t i = 0; i < sizeof hw / sizeof *hw; i++) {
        snprintf(cmd, sizeof cmd, "validate --against %s/m.csv --model llama3-8b --hw %s "
                 "--format csv --save %s/v.csv", dir, hw[i], dir);
        assert_int_equal(run_cli(cmd, out, sizeof out), 0);
        snprintf(cmd, sizeof cmd, "validate --against %s/v.csv --model llama3-8b --hw %s "
                 "--format csv --save %s/w.csv", dir, hw[i], dir);
        if (run_cli(cmd, out, sizeof out) != 0 || strstr(out, "'kv_split'"))
            fail_msg("%s: %s", hw[i], out);
        char *v = slurp_in(dir, "v.csv"), *w = slurp_in(dir, "w.csv");
        cut_first_field(v);
        cut_first_field(w);
        assert_string_equal(v, w);
        free(v);
        free(w);
    }
    assert_int_equal(remove_tree(dir), 0);
}

/* CLOSING21 leftover: `roofline help step` printed the command list; it
 * prints what `step --help` does, and an unknown command exits 2. */
static void help_names_a_command(void **state)
{
    (void)state;
    static char want[1 << 16];
    assert_int_equal(run_cli("step --help", want, sizeof want), 0);
    assert_int_equal(run_cli("help step", out, sizeof out), 0);
    assert_non_null(strstr(out, "usage: roofline step "));
    assert_string_equal(out, want);
    assert_int_equal(run_cli("help nosuch", out, sizeof out), 2);
    assert_non_null(strstr(out, "roofline help: unknown command 'nosuch'"));
}

/* Tester20 F7: a decode plan's compute_s held the attention FLOPs and
 * kv_load_s the same kernels' KV bytes, so formula (1)'s sum counted the
 * attention kernels twice, and kernel_excess_s went negative where MLA's
 * attention is near the ridge (-10.02 ms at main 3ba4c55: 171.8 +
 * max(50.55, 159.7) + 60.25 = 391.75 ms of terms against a 381.8 ms step).
 * review29 H1: folding attention's FLOPs beyond its read into compute_s
 * then hid them under the MLP's weight read, a different kernel, wherever
 * weight_load_s > compute_s.  Now the attention kernels take kv_load_s +
 * attention_compute_s = max(KV read, attention FLOPs) as their own term and
 * compute_s is the matmuls (shard.c, step.c).  DeepSeek-V3 tp8 on h100-sxm
 * at 32000 tokens, batch 2048 (256 per chip):
 *   bf16 KV, 1152 B per cached token per layer for 2 x 128 x (576 + 512)
 *   FLOPs (242 FLOP/B, below the 295 of 9.89e14 / 3.35e12): all hidden,
 *   attention_compute_s 0, compute_s = the matmuls' alone, 2048 x
 *   73,249,193,984 / 8 / 9.89e14 = 18.96 ms, plain --ideal --chips 8's
 *   compute_s (1e-12); kernel_excess_s > 0 (+73.3 ms).
 *   fp8 KV halves the bytes: attention compute-bound, attention_compute_s
 *   = 140.73 ms of attention FLOPs (2048 x 2 x 128 x 1088 x 32000 x 61 / 8
 *   / 9.89e14) - 85.92 ms of read = 54.81 ms (1e-3), compute_s still
 *   18.96 ms (1e-12); plain --ideal --chips 8 (one fully sharded copy)
 *   the same attention_compute_s (1e-9, formula (1) had no attention
 *   FLOPs at all) and bound "compute" (140.7 ms of attention FLOPs against
 *   50.55 ms of weight read; a plan read "memory" from compute_s 18.96 +
 *   140.73 - 85.92 = 73.77 < 85.92 + 50.55).
 * The regime H1 describes, --ideal --tp 8 on h200 (9.89e14 FLOP/s bf16,
 * 4.8e12 B/s), B = 256 (32 per chip), fp8 weights, --kv fp8, by hand:
 *   attention FLOPs per chip 256 x 2 x 128 x (2 x 512 + 64) x 32000 x 61 / 8
 *     = 1.7398e13 -> 17.592 ms at 9.89e14;
 *   KV read 256 x 32000 x 61 x 576 B / 8 / 4.8e12 = 7.4957 ms;
 *   matmuls 256 x 73,249,193,984 / 8 / 9.89e14 = 2.3700 ms, below the
 *   row's 17.68 ms weight read;
 *   step = max(7.4957, 17.592) + max(17.68, 2.370) + comm_s 1.4925
 *        = 36.76 ms (1e-9 against the hand attention time and the row's
 *   weight_load_s and comm_s; 26.67 ms before, the attention's 10.1 ms
 *   beyond its read hidden under the weight read).  `ops --ideal` of the
 *   same plan sums the kernels one by one and adds the elementwise ops:
 *   38.05 ms, within 4% (it was 30% above the plan's step). */
static void mla_attention_counted_once(void **state)
{
    (void)state;
    const char *run = "step --model deepseek-v3 --hw h100-sxm --chips 8 --batch 2048 "
                      "--context 32000 --set model.max_context=200000";
    /* the calibrated plan split by batch (256 sequences a chip; step's
     * default replicates the latent: every chip reads all 2048) */
    const char *cal = " --tp 8 --kv-split batch --format json";
    cJSON *j = json2(run, cal);
    assert_non_null(strstr(cJSON_GetObjectItem(j, "breakdown")->valuestring,
                           "the attention kernels take kv_load_s + attention_compute_s"));
    const cJSON *r = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0);
    double x = num(r, "kernel_excess_s");
    assert_true(x > 0);
    assert_true(num(r, "attention_compute_s") == 0);
    assert_rel(num(r, "kv_load_s") + fmax(num(r, "weight_load_s"), num(r, "compute_s")) +
                   num(r, "comm_s") + x,
               num(r, "step_s"), 1e-12);
    double mm = 2048.0 * 73249193984.0 / 8 / 9.89e14;
    assert_rel(num(r, "compute_s"), mm, 1e-12);
    cJSON *ideal = json2(run, " --ideal --format json");
    assert_rel(num(r, "compute_s"),
               num(cJSON_GetArrayItem(cJSON_GetObjectItem(ideal, "rows"), 0), "compute_s"), 1e-12);
    cJSON_Delete(ideal);
    cJSON_Delete(j);
    char kv8[128];
    snprintf(kv8, sizeof kv8, " --kv fp8%s", cal);
    j = json2(run, kv8);
    r = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0);
    assert_rel(num(r, "attention_compute_s"),
               2048.0 * 2 * 128 * 1088 * 32000 * 61 / 8 / 9.89e14 - num(r, "kv_load_s"), 1e-9);
    assert_rel(num(r, "attention_compute_s"), 0.05481, 1e-3);
    assert_rel(num(r, "compute_s"), mm, 1e-12);
    ideal = json2(run, " --kv fp8 --ideal --format json"); /* one fully sharded copy */
    const cJSON *ri = cJSON_GetArrayItem(cJSON_GetObjectItem(ideal, "rows"), 0);
    assert_rel(num(ri, "attention_compute_s"), num(r, "attention_compute_s"), 1e-9);
    assert_string_equal(cJSON_GetObjectItem(ri, "bound")->valuestring, "compute");
    cJSON_Delete(ideal);
    cJSON_Delete(j);
    /* H1's regime: attention compute-bound, the weight read longer */
    const char *h200 = "--model deepseek-v3 --hw h200 --chips 8 --tp 8 --batch 256 "
                       "--context 32000 --weights fp8 --kv fp8 --ideal --format json";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "step %s", h200);
    j = run_json_noted(cmd, "splits the KV cache by batch");
    r = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0);
    double attn = 256.0 * 2 * 128 * (2 * 512 + 64) * 32000 * 61 / 8 / 9.89e14;
    double kv = 256.0 * 32000 * 61 * 576 / 8 / 4.8e12;
    double mm8 = 256.0 * 73249193984.0 / 8 / 9.89e14;
    assert_rel(num(r, "kv_load_s"), kv, 1e-12);
    assert_rel(num(r, "compute_s"), mm8, 1e-12);
    assert_rel(num(r, "attention_compute_s"), attn - kv, 1e-9);
    assert_true(num(r, "weight_load_s") > mm8);
    assert_rel(num(r, "step_s"), attn + num(r, "weight_load_s") + num(r, "comm_s"), 1e-9);
    assert_rel(num(r, "step_s"), 0.03676, 1e-3);
    snprintf(cmd, sizeof cmd, "ops %s", h200);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0); /* stderr: a "does not fit" note */
    cJSON *o = cJSON_Parse(strchr(out, '{'));
    assert_non_null(o);
    assert_rel(num(r, "step_s"), num(o, "step_s"), 0.04);
    cJSON_Delete(o);
    cJSON_Delete(j);
}

/* review29 M1: the kept tensors (arch.h rl_arch_kept_params) stay bf16 in
 * an fp8 checkpoint, their math too (ops.c times its `half` matmuls at the
 * bf16 peak), but step and shard charged their FLOPs at the --compute peak.
 * h100-sxm: bf16 9.89e14, fp8 1.979e15 FLOP/s (hw_profiles/h100-sxm.lua).
 *   Decode, llama3-8b --weights fp8 --compute fp8 --ideal, B = 1: the LM
 *   head's 2 x 128256 x 4096 = 1,050,673,152 FLOPs at bf16, the rest of
 *   flops_per_token 15,009,316,864 at fp8: 14,003,294,208 / 1.979e15 +
 *   1,050,673,152 / 9.89e14 = 8.0862 us (7.584 us before, all at fp8), 1e-9.
 *   Prefill, gpt-oss-120b (quantized = "experts": attention kept bf16) on
 *   one chip, 8000 tokens, fp8/fp8: the attention projections, 36 layers x
 *   2 x 8000 x 2880 x (4096 + 512 + 512 + 4096) = 1.52881e13 FLOPs, run at
 *   bf16 and not at fp8 only under "experts", so shard's prefill compute_s
 *   and ops' compute_s each move by 1.52881e13 x (1/9.89e14 - 1/1.979e15)
 *   = 7.733 ms from --set model.quantized=linear to the default (1e-6;
 *   shard moved by 0 before: 41.83 ms in both). */
static void kept_matmuls_at_kept_peak(void **state)
{
    (void)state;
    cJSON *j = json2("step --model llama3-8b --hw h100-sxm --batch 1 --context 4096 --weights fp8 "
                     "--compute fp8 --ideal --format json", "");
    double head = 2.0 * 128256 * 4096;
    assert_rel(num(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0), "compute_s"),
               (15009316864.0 - head) / 1.979e15 + head / 9.89e14, 1e-9);
    cJSON_Delete(j);
    double sh[2], ops[2];
    static const char *const q[] = {"experts", "linear"};
    for (int k = 0; k < 2; k++) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "shard --model gpt-oss-120b --hw h100-sxm --chips 1 --batch 1 "
                 "--context 8000 --weights fp8 --compute fp8 --set model.quantized=%s "
                 "--format json", q[k]);
        j = json2(cmd, "");
        sh[k] = -1;
        const cJSON *r;
        cJSON_ArrayForEach(r, cJSON_GetObjectItem(j, "rows"))
            if (strcmp(cJSON_GetObjectItem(r, "phase")->valuestring, "prefill") == 0)
                sh[k] = num(r, "compute_s");
        cJSON_Delete(j);
        snprintf(cmd, sizeof cmd, "ops --phase prefill --model gpt-oss-120b --hw h100-sxm "
                 "--weights fp8 --compute fp8 --tokens 8000 --ideal --set model.quantized=%s "
                 "--format json", q[k]);
        j = json2(cmd, "");
        ops[k] = num(j, "compute_s");
        cJSON_Delete(j);
    }
    double moved = 36.0 * 2 * 8000 * 2880 * (4096 + 512 + 512 + 4096) * (1 / 9.89e14 - 1 / 1.979e15);
    assert_rel(sh[0] - sh[1], moved, 1e-6);
    assert_rel(ops[0] - ops[1], moved, 1e-6);
}

/* The time columns of every step row add up (result.c "breakdown"; tester12
 * #9: the README's calibrated step showed 3.57 of its 9.03 ms at batch 1):
 * step_s = kv_load_s + attention_compute_s + max(weight_load_s, compute_s) +
 * comm_s + kernel_excess_s to 1e-12 (rounding), comm_s 0 where a row has none.  In
 * calibrated mode the terms are the plan's roofline terms, equal to the
 * --ideal --tp 8 rows' (1e-12), and kernel_excess_s is the measured time
 * above them, > 0 here (the kernels run below their roofline: at batch 1,
 * 8.858 ms against 2.633 + 0.050 + 0.569 ms of terms and collectives);
 * --ideal rows have kernel_excess_s exactly 0.  Cases: the README's tp8
 * step, one chip (the unsharded rows), and the ideal runs of both. */
static void step_columns_add_up(void **state)
{
    (void)state;
    static const char *const runs[] = {
        "step --model llama3-70b --hw h100-sxm --chips 8 --tp 8 --batch 1,16,64,256 --context 4096 "
        "--weights fp8 --compute fp8 --format json",
        "step --model llama3-70b --hw h100-sxm --chips 8 --tp 8 --ideal --batch 1,16,64,256 "
        "--context 4096 --weights fp8 --compute fp8 --format json",
        "step --model llama3-8b --hw h100-sxm --batch 1,64,512 --context 4096 --format json",
        "step --model llama3-8b --hw h100-sxm --batch 1,64,512 --context 4096 --ideal "
        "--format json"};
    cJSON *j[4];
    for (int k = 0; k < 4; k++) {
        j[k] = json2(runs[k], "");
        assert_non_null(j[k]);
        int ideal = k % 2;
        assert_non_null(strstr(cJSON_GetObjectItem(j[k], "breakdown")->valuestring,
                               "step_s = kv_load_s + attention_compute_s + max(weight_load_s, "
                               "compute_s) + comm_s + kernel_excess_s"));
        const cJSON *r;
        cJSON_ArrayForEach(r, cJSON_GetObjectItem(j[k], "rows"))
        {
            const cJSON *c = cJSON_GetObjectItem(r, "comm_s");
            double x = num(r, "kernel_excess_s");
            double sum = num(r, "kv_load_s") + num(r, "attention_compute_s") +
                         fmax(num(r, "weight_load_s"), num(r, "compute_s")) +
                         (c ? c->valuedouble : 0) + x;
            assert_rel(sum, num(r, "step_s"), 1e-12);
            assert_true(ideal ? x == 0 : x > 0);
        }
    }
    const cJSON *a = cJSON_GetObjectItem(j[0], "rows"), *b = cJSON_GetObjectItem(j[1], "rows");
    for (int i = 0; i < 4; i++) {
        const cJSON *ra = cJSON_GetArrayItem(a, i), *rb = cJSON_GetArrayItem(b, i);
        assert_rel(num(ra, "weight_load_s"), num(rb, "weight_load_s"), 1e-12);
        assert_rel(num(ra, "kv_load_s"), num(rb, "kv_load_s"), 1e-12);
        assert_rel(num(ra, "compute_s"), num(rb, "compute_s"), 1e-12);
    }
    /* the README's figure, 7.101 ms since stop 45 read the batch-1 decode
     * attention (1 KV head a chip, 8 query heads: below XQA's 132-SM
     * threshold, 1 x 1 x 32 x 4 = 128) from masked MHA's table over
     * (sequence, head) pairs, 2 x 8.253 us a layer against 16.51 us
     * measured at batch 1, 8 x 1 heads, context 4095 (AIConfigurator's
     * h100_sxm/trtllm rows; 2 x 7.088 us before); 6.920 ms before that
     * (6.915 before fixFL's whole norms on
     * each of the 8 chips, ops.c tp_copies; 8.893 while fp8 GEMMs read the
     * dynamic per-tensor rows alone, before tester44 F5, engines.h DTYPE_MAP;
     * 8.858 while fp8 counted the LM head at 1 B, before dtype.h
     * rl_dtype_kept kept it bf16 as fp8 checkpoints do; 9.033 before stop
     * 24's isotonic fit of the tables, ktable.h), to its 4 digits */
    assert_rel(num(cJSON_GetArrayItem(a, 0), "step_s"), 7.101e-3, 1e-3);
    for (int k = 0; k < 4; k++)
        cJSON_Delete(j[k]);
    /* tester11 #4: a faster HBM lengthened compute_s (2.248 -> 2.686 ms at
     * batch 256 for hbm_bw 3.35e12 -> 4e12): the terms are the roofline's,
     * so compute_s stays (1e-12) and weight_load_s scales by 3.35 / 4 */
    const char *b256 = "step --model llama3-70b --hw h100-sxm --chips 8 --batch 256 "
                       "--context 4096 --weights fp8 --compute fp8 --format json";
    cJSON *plain = json2(b256, ""), *fast = json2(b256, " --set hw.hbm_bw=4e12");
    assert_true(plain && fast);
    const cJSON *p0 = cJSON_GetArrayItem(cJSON_GetObjectItem(plain, "rows"), 0);
    const cJSON *f0 = cJSON_GetArrayItem(cJSON_GetObjectItem(fast, "rows"), 0);
    assert_rel(num(f0, "compute_s"), num(p0, "compute_s"), 1e-12);
    assert_rel(num(f0, "weight_load_s"), num(p0, "weight_load_s") * 3.35 / 4, 1e-12);
    assert_true(num(f0, "step_s") < num(p0, "step_s"));
    cJSON_Delete(plain);
    cJSON_Delete(fast);
}

/* tester14 F5: under --overlap the header's breakdown stated the plain sum
 * and the overlap rule only after it, and the rows did not obey the sum
 * (tp8 batch 1: 5.2125 ms against a sum of 5.8525).  The key now states the
 * rule this run obeys, and every row obeys it to 1e-12: without a pipeline
 * max(local, comm_s); with --pp, max(local, comm_s - sends) + sends, sends
 * the batch's P2P rows in collectives (the stage sends); local is
 * kv_load_s + attention_compute_s + max(weight_load_s, compute_s) +
 * kernel_excess_s.  The sum no
 * longer holds there (comm hidden: the rows differ by > 1%), so the test
 * fails on the old text and on a rule that does not match the rows. */
static void overlap_breakdown_states_its_rule(void **state)
{
    (void)state;
    static const char *const runs[] = {
        "step --model llama3-70b --hw h100-sxm --chips 8 --tp 8 --overlap --ideal --batch 1,16,128 "
        "--context 2048 --format json",
        "step --model llama3-70b --hw h100-sxm --chips 8 --tp 2 --pp 4 --overlap --ideal "
        "--batch 1,16,128 --context 2048 --format json"};
    static const char *const rule[] = {
        "step_s = max(kv_load_s + attention_compute_s + max(weight_load_s, compute_s) + "
        "kernel_excess_s, comm_s):",
        "step_s = max(kv_load_s + attention_compute_s + max(weight_load_s, compute_s) + "
        "kernel_excess_s, comm_s - sends) + sends, sends the summed total_s of the batch's P2P rows in collectives"};
    for (int k = 0; k < 2; k++) {
        cJSON *j = json2(runs[k], "");
        assert_non_null(j);
        const char *b = cJSON_GetObjectItem(j, "breakdown")->valuestring;
        if (strncmp(b, rule[k], strlen(rule[k])) != 0)
            fail_msg("breakdown '%s' does not open with '%s'", b, rule[k]);
        /* tester35 F11: and the `overlap` key (it said max(local, comm) under --pp) */
        assert_string_equal(cJSON_GetObjectItem(j, "overlap")->valuestring,
                            k == 0 ? "max(local, comm)" : "max(local, comm - stage sends) + stage sends");
        const cJSON *r, *c;
        cJSON_ArrayForEach(r, cJSON_GetObjectItem(j, "rows"))
        {
            double sends = 0;
            cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "collectives"))
                if (num(c, "batch") == num(r, "batch") &&
                    strcmp(cJSON_GetObjectItem(c, "collective")->valuestring, "P2P") == 0)
                    sends += num(c, "total_s");
            assert_true(k == 0 ? sends == 0 : sends > 0);
            double local = num(r, "kv_load_s") + num(r, "attention_compute_s") +
                           fmax(num(r, "weight_load_s"), num(r, "compute_s")) +
                           num(r, "kernel_excess_s");
            assert_rel(fmax(local, num(r, "comm_s") - sends) + sends, num(r, "step_s"), 1e-12);
            assert_true(local + num(r, "comm_s") > 1.01 * num(r, "step_s"));
        }
        cJSON_Delete(j);
    }
}

/* tester12 #7: a KV dtype or weight x compute pair the engine's tables do
 * not measure (h100-sxm trtllm: bf16 and fp8) is derived, and stderr says
 * so; fp8 and bf16 are measured (no note), and --ideal uses no table. */
static void derived_dtype_note(void **state)
{
    (void)state;
    const char *base = "step --model llama3-8b --hw h100-sxm --context 1000";
    static const char *const tails[] = {" --kv int4", " --kv int8", " --weights int4",
                                        " --kv fp8", "", " --kv int4 --ideal"};
    static const char *const want[] = {"no int4 KV-cache attention (they measure bfloat16, fp8)",
                                       "no int8 KV-cache attention", "no GEMM of int4 weights",
                                       NULL, NULL, NULL};
    for (int i = 0; i < 6; i++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "%s%s", base, tails[i]);
        assert_int_equal(run_cli(cmd, out, sizeof out), 0);
        if (want[i])
            assert_non_null(strstr(out, want[i]));
        else
            assert_null(strstr(out, "kernel tables on h100-sxm have no"));
    }
    assert_int_equal(run_cli("ops --model llama3-8b --hw h100-sxm --context 1000 --kv int4", out,
                             sizeof out), 0);
    assert_non_null(strstr(out, "roofline ops: note: trtllm's kernel tables on h100-sxm have no "
                                "int4 KV-cache attention"));
}

/* tester46 F2: b200's TensorRT-LLM tables time NVFP4 decode GEMMs slower
 * than bf16 ones at Llama-3-70B's TP8 shapes (raw rows of
 * silicon/b200_sxm/trtllm/gemm_perf.csv.gz at m = 1..256, n = 1024, k = 8192:
 * nvfp4 0.0210-0.0222 ms, bfloat16 0.0075-0.0116 ms), and step and ops say
 * so.  Expected ratio of the dense matmuls a step at batch 1: 5.140 / 3.802
 * ms = x1.35 (the ops rows of the shipped b200-trtllm profile: nvfp4 q/k/v
 * 21.2, o 7.9, gate+up 22.2, down 12.9 us a layer), tolerance x1.25..x1.45
 * for a profile regenerated from the same rows.  vLLM's tables (FlashInfer
 * CuTe-DSL NVFP4, 0.0111 ms at m = 1, n = 1024, k = 8192) and a bf16 run get
 * no caution, nor --ideal (no table). */
static void slow_precision_caution(void **state)
{
    (void)state;
    const char *base = "step --model llama3-70b --hw b200 --chips 8 --batch 1,64,256 "
                       "--context 4096";
    static const char *const tails[] = {" --weights fp4 --compute fp4 --engine trtllm",
                                        " --weights fp4 --compute fp4 --engine vllm",
                                        " --engine trtllm",
                                        " --weights fp4 --compute fp4 --ideal"};
    for (int i = 0; i < 4; i++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "%s%s", base, tails[i]);
        assert_int_equal(run_cli(cmd, out, sizeof out), 0);
        const char *c = strstr(out, "caution: trtllm's measured nvfp4 GEMMs on b200 are slower "
                                    "than its bfloat16 ones at this run's shapes: decode batch 1 "
                                    "at context 4096, tp 8 (the worst of the 3 compared)");
        if (i > 0) {
            assert_null(strstr(out, "GEMMs on b200 are slower"));
            continue;
        }
        assert_non_null(c);
        const char *x = strstr(c, "(x");
        assert_non_null(x);
        double ratio = strtod(x + 2, NULL);
        assert_true(ratio > 1.25 && ratio < 1.45);
    }
    assert_int_equal(run_cli("ops --model llama3-70b --hw b200 --chips 8 --batch 64 --context 4096 "
                             "--weights fp4 --compute fp4 --engine trtllm",
                             out, sizeof out), 0);
    assert_non_null(strstr(out, "roofline ops: caution: trtllm's measured nvfp4 GEMMs on b200"));
    /* ops times step --chips 8's plan for batch 64, tp4 x 2 (fixWB #3; it
     * read the automatic plan, tp8, before): 32 sequences at tp 4 */
    assert_non_null(strstr(out, "at this run's shapes: decode batch 32 at context 4096, tp 4,"));
}

/* tester63 F5 (stop 42): a step that reads slower at a smaller batch says
 * so and names the measured fall.  Shipped b200-vllm profile, llama3-8b,
 * fp8 x fp8, context 1024, one chip: batch 1 4.522 ms, batch 2 2.566 ms
 * (x1.76; accepted x1.5..x2.1 for a profile regenerated from the same
 * rows), from its fp8 GEMM table's kernel switch at m = 1 (`cut = { m = 1
 * }`, ktable.h rl_kt_find_steps: ../shared/data/silicon/b200_sxm/vllm/
 * gemm_perf.csv.gz, fp8, n = k = 4096: 24.7 us at m = 1, 9.2 us at m = 2),
 * its dense matmuls 4.019 vs 2.058 ms a step.  The note is on stderr and in
 * batch_fall_note; none where the step does not fall (bf16, TensorRT-LLM's
 * tables, --ideal) nor with one batch. */
static void batch_fall_note(void **state)
{
    (void)state;
    const char *base = "step --model llama3-8b --hw b200 --context 1024";
    assert_int_equal(cli2(base, " --engine vllm --weights fp8 --compute fp8 --batch 1,2"),
                     0);
    const char *c = strstr(out, "roofline step: note: batch 1 reads slower than batch 2 (");
    assert_non_null(c);
    double t1 = strtod(c + strlen("roofline step: note: batch 1 reads slower than batch 2 ("),
                       NULL);
    const char *vs = strstr(c, " ms vs ");
    assert_non_null(vs);
    double t2 = strtod(vs + 7, NULL);
    assert_true(t1 / t2 > 1.5 && t1 / t2 < 2.1);
    assert_non_null(strstr(c, "vllm's measured fp8 GEMMs on b200 run a slower kernel at m <= 1 "
                              "than above it"));
    assert_non_null(strstr(c, "the profile's `cut` at m = 1"));
    cJSON *j = run_cli_json("step --model llama3-8b --hw b200 --context 1024 --engine vllm "
                            "--weights fp8 --compute fp8 --batch 1,2 --format json",
                            out, sizeof out);
    assert_non_null(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(j, "batch_fall_note")),
                           "batch 1 reads slower than batch 2"));
    cJSON_Delete(j);
    /* tester81 B: llama3-8b on 16 H100s (tp8 x2), context 1000: batch 8
     * (4 sequences a replica, masked MHA: 8 x 4 x 4 = 128 < 132 SMs) 1.832
     * ms, batch 9 (5, XQA) 1.626 ms, their qk/pv interpolated in each
     * kernel's table: the note names the switch and claims no measurement
     * at these shapes (it read "measured, not a modelling error") */
    /* fixUE #2: batch 9 runs 5 + 4, its step the 4-sequence replica's
     * masked MHA: batch 10 (5 + 5) is the XQA side */
    assert_int_equal(cli2("step --model llama3-8b --hw h100-sxm --chips 16 --tp 8 --context 1000",
                          " --batch 1,8,10"), 0);
    if (!strstr(out, "batch 8 reads slower than batch 10") ||
        !strstr(out, "trtllm switches decode-attention kernel between them, masked MHA at "
                     "batch 8 and XQA at batch 10 on this plan (4 and 5 sequences") ||
        !strstr(out, "its times are not measured at these shapes") ||
        strstr(out, "measured, not a modelling error"))
        fail_msg("%s", out);
    static const char *const quiet[] = {" --engine vllm --batch 1,2",
                                        " --engine trtllm --weights fp8 --compute fp8 --batch 1,2",
                                        " --weights fp8 --compute fp8 --batch 1,2 --ideal",
                                        " --engine vllm --weights fp8 --compute fp8 --batch 1"};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(cli2(base, quiet[i]), 0);
        if (strstr(out, "reads slower than batch"))
            fail_msg("%s%s: %s", base, quiet[i], out);
    }
}

/* fixUF #3: a larger batch that reads fewer tokens/s (no smaller batch
 * slower) gets batch_fall_note too, for a user choosing batch for
 * throughput.  llama3-8b bf16 on a100-sxm-80g (trtllm tables), context
 * 2048: batch 128 4293 tokens/s, batch 160 4007 (the rows' own
 * tokens_per_s, quoted to the unit), the dense matmuls x1.39 the time for
 * x1.25 the rows (11.878 vs 16.463 ms a step: the measured GEMM table's
 * step); before, batch_fall_note was null.  None where tokens/s rises
 * (batch 64, 128). */
static void batch_throughput_fall_note(void **state)
{
    (void)state;
    cJSON *j = run_cli_json("step --model llama3-8b --hw a100-sxm-80g --context 2048 "
                            "--batch 128,160 --format json", out, sizeof out);
    const char *n = cJSON_GetStringValue(cJSON_GetObjectItem(j, "batch_fall_note"));
    assert_non_null(n);
    const cJSON *rows = cJSON_GetObjectItem(j, "rows");
    char want[128];
    snprintf(want, sizeof want, "batch 160 reads fewer tokens/s than batch 128 (%.0f vs %.0f tokens/s): ",
             cJSON_GetNumberValue(cJSON_GetObjectItem(cJSON_GetArrayItem(rows, 1), "tokens_per_s")),
             cJSON_GetNumberValue(cJSON_GetObjectItem(cJSON_GetArrayItem(rows, 0), "tokens_per_s")));
    if (strncmp(n, want, strlen(want)) != 0 ||
        !strstr(n, "trtllm's measured bfloat16 GEMMs on a100-sxm-80g take x1.39 the time for "
                   "x1.25 the rows") ||
        !strstr(n, "for throughput batch 128 is the better of the two"))
        fail_msg("%s", n);
    cJSON_Delete(j);
    assert_int_equal(cli2("step --model llama3-8b --hw a100-sxm-80g --context 2048", " --batch 64,128"),
                     0);
    assert_null(strstr(out, "fewer tokens/s"));
}

/* fixUE #2: a batch split over replicas was timed on its larger share
 * alone.  llama3-8b on 16 H100s as tp8 x2 at context 2048 (trtllm's kernel
 * tables): batch 5 runs 3 + 2, and the 2-sequence replica's masked MHA
 * takes the batch-4 row's step (2 + 2: 1.809 ms) where the 3-sequence one
 * takes 1.630 ms (the batch-6 row, 3 + 3, XQA).  Expected: batch 5's step
 * equal to batch 4's exactly (the same replica shape timed), tokens_per_s
 * 5 over it (rel 1e-12), its memory the fuller share's (batch 6's KV a
 * chip, exact), and the fall note naming the replica shares.  Failed
 * before: batch 5 read 1.630 ms, batch 6's. */
static void step_slowest_replica_share(void **state)
{
    (void)state;
    cJSON *j = run_cli_json("step --model llama3-8b --hw h100-sxm --chips 16 --tp 8 --batch 4,5,6 "
                            "--context 2048 --format json", out, sizeof out);
    const cJSON *rows = cJSON_GetObjectItem(j, "rows");
    const cJSON *r4 = cJSON_GetArrayItem(rows, 0), *r5 = cJSON_GetArrayItem(rows, 1),
                *r6 = cJSON_GetArrayItem(rows, 2);
    if (num(r5, "step_s") != num(r4, "step_s"))
        fail_msg("batch 5 %.6g s, batch 4 %.6g s", num(r5, "step_s"), num(r4, "step_s"));
    assert_true(num(r6, "step_s") < num(r4, "step_s") / 1.05); /* the fall is there */
    assert_rel(num(r5, "tokens_per_s"), 5 / num(r5, "step_s"), 1e-12);
    assert_true(num(r5, "kv_bytes_per_chip") == num(r6, "kv_bytes_per_chip"));
    const char *note = cJSON_GetStringValue(cJSON_GetObjectItem(j, "batch_fall_note"));
    if (!note || !strstr(note, "masked MHA at batch 4 and XQA at batch 6 on this plan (2 and 3 "
                                "sequences on a replica's smaller share"))
        fail_msg("batch_fall_note: %s", note ? note : "(none)");
    cJSON_Delete(j);
}

/* fixUE #1: step --chips N without a plan timed the widest TP dividing N
 * whatever its step, so more chips read slower.  Now each batch runs the
 * plan over the chips that holds it with the shortest step (stepplan.h),
 * chips left over idle.  Expected, each exact (the same plan timed the
 * same way; tokens_per_s_per_chip rel 1e-12):
 *  - llama3-70b fp8 on 10 H100 at batch 1 (context 4096): tp8 on 8 chips,
 *    2 idle (idle_chips 2), step_s that of `--tp 8` on 8 chips (7.101 ms;
 *    it read tp2 x5, 15.7 ms), tokens_per_s_per_chip over all 10, header
 *    chips 10;
 *  - llama3-8b fp8 on 32 TPU v5p at batches 1 and 64: each row's step_s
 *    the least of --tp T --chips 32 over T in 1..32 dividing 32 (batch 64
 *    tp8 x4, 1.136 ms, where tp32 read 2.293 ms), the row's strategy that
 *    plan's (batch 1: its replicas the batch fills, tp8 with 24 chips idle
 *    where --tp 8 --chips 32 reads tp8 x4 with 3 replicas idle, the same
 *    step: fixWB #1); plan_choice states the rule.
 * Failed before: the 10-chip row read tp2 x5, the 32-chip batch-64 row
 * tp32. */
static void step_chips_fastest_plan(void **state)
{
    (void)state;
    const char *base = "step --model llama3-70b --hw h100-sxm --batch 1 --context 4096 "
                       "--weights fp8 --compute fp8 --format json";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --chips 10", base);
    cJSON *a = run_json_noted(cmd, "batch 1 tp8 (2 chips idle)");
    snprintf(cmd, sizeof cmd, "%s --tp 8", base);
    cJSON *b = run_cli_json(cmd, out, sizeof out);
    const cJSON *ra = cJSON_GetArrayItem(cJSON_GetObjectItem(a, "rows"), 0);
    const cJSON *rb = cJSON_GetArrayItem(cJSON_GetObjectItem(b, "rows"), 0);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(ra, "strategy")), "tp8");
    assert_true(num(ra, "idle_chips") == 2 && num(a, "chips") == 10);
    if (num(ra, "step_s") != num(rb, "step_s"))
        fail_msg("--chips 10 %.6g s, --tp 8 %.6g s", num(ra, "step_s"), num(rb, "step_s"));
    assert_rel(num(ra, "tokens_per_s_per_chip"), num(ra, "tokens_per_s") / 10, 1e-12);
    assert_non_null(cJSON_GetStringValue(cJSON_GetObjectItem(a, "plan_choice")));
    cJSON_Delete(a);
    cJSON_Delete(b);
    const char *v5p = "step --model llama3-8b --hw tpu-v5p --chips 32 --batch 1,64 --context 4096 "
                      "--weights fp8 --format json";
    cJSON *j = run_cli_json(v5p, out, sizeof out);
    double best[2] = {0, 0};
    char name[2][64] = {"", ""};
    for (int t = 1; t <= 32; t *= 2) {
        snprintf(cmd, sizeof cmd, "%s --tp %d", v5p, t);
        cJSON *k = run_cli_json(cmd, out, sizeof out);
        for (int i = 0; i < 2; i++) {
            const cJSON *r = cJSON_GetArrayItem(cJSON_GetObjectItem(k, "rows"), i);
            if (cJSON_IsTrue(cJSON_GetObjectItem(r, "fits")) &&
                (!name[i][0] || num(r, "step_s") < best[i])) {
                best[i] = num(r, "step_s");
                snprintf(name[i], sizeof name[i], "%s",
                         cJSON_GetStringValue(cJSON_GetObjectItem(r, "strategy")));
            }
        }
        cJSON_Delete(k);
    }
    snprintf(name[0], sizeof name[0], "%s", strcmp(name[0], "tp8 x4") == 0 ? "tp8" : "?");
    for (int i = 0; i < 2; i++) {
        const cJSON *r = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), i);
        const char *s = cJSON_GetStringValue(cJSON_GetObjectItem(r, "strategy"));
        if (num(r, "step_s") != best[i] || strcmp(s, name[i]) != 0)
            fail_msg("row %d: %s %.6g s, the fastest --tp %s %.6g s", i, s, num(r, "step_s"),
                     name[i], best[i]);
    }
    assert_true(num(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0), "idle_chips") == 24);
    assert_string_equal(name[1], "tp8 x4");
    cJSON_Delete(j);
}

/* Row i of step command `cmd` (JSON), whose result *j keeps (the caller
 * deletes it). */
static const cJSON *step_row(cJSON **j, const char *cmd, int i)
{
    *j = run_cli_json(cmd, out, sizeof out);
    return cJSON_GetArrayItem(cJSON_GetObjectItem(*j, "rows"), i);
}

/* Whether step `a`'s row i and step `b`'s row i have the same step_s
 * (fail_msg naming both when not). */
static void same_step(const char *a, const char *b, int i)
{
    cJSON *ja, *jb;
    double sa = num(step_row(&ja, a, i), "step_s"), sb = num(step_row(&jb, b, i), "step_s");
    if (sa != sb)
        fail_msg("%s: %.6g s; %s: %.6g s", a, sa, b, sb);
    cJSON_Delete(ja);
    cJSON_Delete(jb);
}

/* Cell `col` of record `rec` (1: the first after the header) of CSV text
 * csv (roofline's --format csv), into buf; fails the test when the column
 * or record is missing. */
static const char *csv_cell(const char *csv, int rec, const char *col, char *buf, size_t len)
{
    char *f[512], *line;
    int breaks, open, column, idx = -1, n = 0;
    const char *why;
    for (int r = 0; *csv; r++) {
        size_t k = rl_csv_record(csv, &breaks, &open);
        line = strndup(csv, k);
        assert_non_null(line);
        n = rl_csv_split(line, f, 512, &column, &why);
        assert_true(n > 0 && n <= 512);
        for (int i = 0; r == 0 && i < n; i++)
            if (strcmp(f[i], col) == 0)
                idx = i;
        if (r == 0 && idx < 0)
            fail_msg("no CSV column '%s'", col);
        if (r == rec) {
            assert_true(idx < n);
            snprintf(buf, len, "%s", f[idx]);
            free(line);
            return buf;
        }
        free(line);
        csv += k + (csv[k] == '\n');
    }
    fail_msg("no CSV record %d", rec);
    return NULL;
}

/* Token `i` from the end (0: the last) of the table line of `text` that
 * starts with `lead`, space-separated, into buf. */
static const char *table_token_from_end(const char *text, const char *lead, int i, char *buf,
                                        size_t len)
{
    const char *l = strstr(text, lead);
    if (!l)
        fail_msg("no table line '%s'", lead);
    const char *end = strchr(l, '\n');
    end = end ? end : l + strlen(l);
    while (end > l && end[-1] == ' ')
        end--;
    for (;; i--) {
        const char *t = end;
        while (t > l && t[-1] != ' ')
            t--;
        if (i == 0) {
            snprintf(buf, len, "%.*s", (int)(end - t), t);
            return buf;
        }
        end = t;
        while (end > l && end[-1] == ' ')
            end--;
        assert_true(end > l);
    }
}

/* fixXB #2: step --chips 8 --batch 1,8,64 (llama3-8b, h100-sxm, context
 * 4096) runs tp8 at batches 1 and 8 and tp4 x2 at 64 (stepplan.h), and its
 * csv's replicas column read 1 on the tp4 x2 row: the header's, the first
 * row's plan's, as sharding (tp8) and workspace_bytes (138412032, tp8's).
 * Each row now carries its own plan: expected, exact, tp 4, pp 1, replicas
 * 2, sharding "tp4 x2", and the memory `step --chips 8 --tp 4 --batch 64`'s
 * header states (workspace_bytes 209715200, TP 4's one-layer activations:
 * memory.h rl_memory_workspace; comm_buffer_bytes 411041792), the
 * header's under run.replicas (1) and run.workspace_bytes; the same in
 * JSON and in the table.  Failed before: the row's replicas read 1. */
static void step_chips_rows_carry_own_plan(void **state)
{
    (void)state;
    static char csv[1 << 18];
    char c[64];
    const char *base = "step --model llama3-8b --hw h100-sxm --chips 8 --batch 1,8,64 "
                       "--context 4096 ";
    cJSON *tp4 = run_cli_json("step --model llama3-8b --hw h100-sxm --chips 8 --tp 4 --batch 64 "
                              "--context 4096 --format json", out, sizeof out);
    double ws = num(tp4, "workspace_bytes"), cb = num(tp4, "comm_buffer_bytes");
    cJSON_Delete(tp4);
    assert_true(ws == 209715200 && cb == 411041792);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "%s--format csv 2>/dev/null | cat", base);
    assert_int_equal(run_cli(cmd, csv, sizeof csv), 0);
    assert_string_equal(csv_cell(csv, 3, "strategy", c, sizeof c), "tp4 x2");
    assert_string_equal(csv_cell(csv, 3, "sharding", c, sizeof c), "tp4 x2");
    assert_string_equal(csv_cell(csv, 3, "tp", c, sizeof c), "4");
    assert_string_equal(csv_cell(csv, 3, "pp", c, sizeof c), "1");
    assert_string_equal(csv_cell(csv, 3, "replicas", c, sizeof c), "2");
    assert_string_equal(csv_cell(csv, 3, "workspace_bytes", c, sizeof c), "209715200");
    assert_string_equal(csv_cell(csv, 3, "comm_buffer_bytes", c, sizeof c), "411041792");
    assert_string_equal(csv_cell(csv, 3, "run.replicas", c, sizeof c), "1");
    assert_string_equal(csv_cell(csv, 3, "run.workspace_bytes", c, sizeof c), "138412032");
    assert_string_equal(csv_cell(csv, 1, "replicas", c, sizeof c), "1");
    assert_string_equal(csv_cell(csv, 1, "sharding", c, sizeof c), "tp8");
    cJSON *j = json2(base, "--format json");
    const cJSON *r = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 2);
    assert_true(num(r, "tp") == 4 && num(r, "pp") == 1 && num(r, "replicas") == 2);
    assert_true(num(r, "workspace_bytes") == ws && num(r, "comm_buffer_bytes") == cb);
    assert_string_equal(cJSON_GetObjectItem(r, "sharding")->valuestring, "tp4 x2");
    assert_true(num(j, "replicas") == 1); /* the header: the first row's plan */
    cJSON_Delete(j);
    snprintf(cmd, sizeof cmd, "%s2>/dev/null | cat", base);
    assert_int_equal(run_cli(cmd, csv, sizeof csv), 0);
    /* the rows' table ends sharding, tp, ep, pp, replicas, comm_buffer_GB, workspace_GB */
    const char *lead = "generate   tp4 x2            64";
    assert_string_equal(table_token_from_end(csv, lead, 0, c, sizeof c), "0.2097");
    assert_string_equal(table_token_from_end(csv, lead, 2, c, sizeof c), "2");
    assert_string_equal(table_token_from_end(csv, lead, 4, c, sizeof c), "1");
    assert_string_equal(table_token_from_end(csv, lead, 5, c, sizeof c), "4");
    assert_string_equal(table_token_from_end(csv, lead, 6, c, sizeof c), "x2");
}

/* fixXB #1: pareto's points were the compared plans alone (shard.h
 * rl_shard_compare), each on every chip of the point, where step --chips N
 * plans on up to N (stepplan.h): llama3-8b on h100-sxm at context 4096,
 * --chips 9,64 --batch 1,8,64, held 9 chips at batch 64 as tp1 x9, 8.091
 * ms (7910 tokens/s), where step --chips 9 runs tp4 x2 (1 chip idle) at
 * 4.430 ms, and 64 chips at batch 8 as tp8 x8, 1.809 ms, where step
 * --chips 64 runs tp8 x4 (32 idle) at 1.737.  Now each point also holds
 * step's plan (sweep.h step_plans): expected, the frontier's 9-chip row at
 * batch 64 and 64-chip row at batch 8 at step's step_s, exact (the same
 * plan timed by the same calibrated step: `step --chips N --batch B`, run
 * here), 4.430 and 1.737 ms (within 0.1%: step's figures above), its
 * chip_s_per_token 1 / step's tokens_per_s_per_chip (1e-12 relative), and
 * the plan named: tp 4 pp 1 replicas 2 idle_chips 1, tp 8 pp 1 replicas 4
 * idle_chips 32, in json, csv and the table.  Failed before: the 9-chip
 * row read tp1 x9 at 8.091 ms, no tp key. */
static void pareto_takes_step_plan(void **state)
{
    (void)state;
    static char csv[1 << 18];
    static const struct {
        long long chips, batch, tp, replicas, idle;
        double ms;
    } want[] = {{9, 64, 4, 2, 1, 4.430}, {64, 8, 8, 4, 32, 1.737}};
    const char *base = "pareto --model llama3-8b --hw h100-sxm --chips 9,64 --batch 1,8,64 "
                       "--context 4096 ";
    cJSON *j = json2(base, "--format json");
    char cmd[256], c[64];
    for (size_t w = 0; w < sizeof want / sizeof *want; w++) {
        const cJSON *r, *hit = NULL;
        int at = 0, k = 0;
        cJSON_ArrayForEach(r, cJSON_GetObjectItem(j, "rows")) {
            k++;
            if (num(r, "chips") == want[w].chips && num(r, "batch") == want[w].batch)
                hit = r, at = k;
        }
        if (!hit)
            fail_msg("no frontier row of %lld chips at batch %lld", want[w].chips, want[w].batch);
        snprintf(cmd, sizeof cmd, "step --model llama3-8b --hw h100-sxm --chips %lld --batch %lld "
                 "--context 4096 --format json", want[w].chips, want[w].batch);
        cJSON *sj;
        const cJSON *sr = step_row(&sj, cmd, 0);
        if (num(hit, "step_s") != num(sr, "step_s"))
            fail_msg("%lld chips batch %lld: pareto %.6g s, step %.6g s", want[w].chips,
                     want[w].batch, num(hit, "step_s"), num(sr, "step_s"));
        assert_rel(num(hit, "step_s"), want[w].ms * 1e-3, 1e-3);
        assert_rel(num(hit, "chip_s_per_token"), 1 / num(sr, "tokens_per_s_per_chip"), 1e-12);
        assert_string_equal(cJSON_GetObjectItem(hit, "layout")->valuestring,
                            cJSON_GetObjectItem(sr, "strategy")->valuestring);
        cJSON_Delete(sj);
        assert_true(num(hit, "tp") == want[w].tp && num(hit, "pp") == 1 &&
                    num(hit, "replicas") == want[w].replicas &&
                    num(hit, "idle_chips") == want[w].idle);
        if (w == 0) {
            snprintf(cmd, sizeof cmd, "%s--format csv 2>/dev/null | cat", base);
            assert_int_equal(run_cli(cmd, csv, sizeof csv), 0);
            assert_string_equal(csv_cell(csv, at, "layout", c, sizeof c), "tp4 x2");
            assert_string_equal(csv_cell(csv, at, "tp", c, sizeof c), "4");
            assert_string_equal(csv_cell(csv, at, "pp", c, sizeof c), "1");
            assert_string_equal(csv_cell(csv, at, "replicas", c, sizeof c), "2");
            assert_string_equal(csv_cell(csv, at, "idle_chips", c, sizeof c), "1");
        }
    }
    cJSON_Delete(j);
    snprintf(cmd, sizeof cmd, "%s2>/dev/null | cat", base);
    assert_int_equal(run_cli(cmd, csv, sizeof csv), 0);
    assert_non_null(strstr(csv, "  chips  layout            tp         ep         pp   replicas  "
                                "idle_chips "));
    assert_non_null(strstr(csv, "        9  tp4 x2             4          1          1          2"
                                "           1         64 "));
}

/* tester102 #3: a pareto row with expert parallelism did not account for
 * its chips: mixtral-8x7b on 16 TPU v6e read layout "tp8 ep2", tp 8, pp 1,
 * replicas 1, idle_chips 0 (8 chips named of 16).  Now rows carry ep
 * (shard.h rl_shard_plan.ep): expected, exact, tp x ep x pp x replicas +
 * idle_chips = chips on every row, the tp8 ep2 row's ep 2; step --chips
 * N's rows read ep 1 (its plans have none).  Failed before: no ep key. */
static void pareto_rows_count_ep(void **state)
{
    (void)state;
    cJSON *j = json2("pareto --model mixtral-8x7b --hw tpu-v6e --chips 16 --context 2048 "
                     "--batch 1,64 ", "--format json");
    const cJSON *r;
    int ep2 = 0;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(j, "rows")) {
        const cJSON *ep = cJSON_GetObjectItem(r, "ep");
        if (!cJSON_IsNumber(ep))
            fail_msg("row %s: no ep", cJSON_GetStringValue(cJSON_GetObjectItem(r, "layout")));
        if (num(r, "tp") * ep->valuedouble * num(r, "pp") * num(r, "replicas") +
                num(r, "idle_chips") != num(r, "chips"))
            fail_msg("row %s: tp x ep x pp x replicas + idle_chips != %g chips",
                     cJSON_GetStringValue(cJSON_GetObjectItem(r, "layout")), num(r, "chips"));
        ep2 += strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(r, "layout")), "tp8 ep2") == 0 &&
               ep->valuedouble == 2;
    }
    assert_true(ep2 > 0);
    cJSON_Delete(j);
    cJSON *sj;
    const cJSON *sr = step_row(&sj, "step --model mixtral-8x7b --hw tpu-v6e --chips 16 --batch 64 "
                               "--context 2048 --format json", 0);
    assert_true(num(sr, "ep") == 1 &&
                num(sr, "tp") * num(sr, "pp") * num(sr, "replicas") + num(sr, "idle_chips") == 16);
    cJSON_Delete(sj);
}

/* tester102 #4: step --chips N's rows on a TPU (no engine memory rule,
 * memory_rule none) lacked comm_buffer_bytes and workspace_bytes, which
 * docs/cli.md lists for every such row.  Expected: both keys on every row,
 * null (no engine reserves them).  Failed before: absent. */
static void step_chips_tpu_rows_memory_keys(void **state)
{
    (void)state;
    static const char *const keys[] = {"comm_buffer_bytes", "workspace_bytes"};
    for (int i = 0; i < 4; i++) { /* batch 1 and 512, each key */
        cJSON *j;
        const cJSON *r = step_row(&j, "step --model mixtral-8x22b --hw tpu-v5p --chips 16 "
                                  "--context 4096 --batch 1,512 --format json", i / 2);
        if (!cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(r, keys[i % 2])))
            fail_msg("row %d: %s not null", i / 2, keys[i % 2]);
        cJSON_Delete(j);
    }
}

/* fixVA #1: step --chips N tried every T with the automatic plan's one P
 * over all N chips (pp3 on 9 H100s), so tp8 pp1 was never a candidate:
 * llama3-70b bf16 (context 2048) on 9 H100s ran tp2 pp3, 3 chips idle,
 * 26.97 ms at batch 1 and 30.63 at 64, where 8 ran tp8 at 9.208 and
 * 15.385; 5 ran tp1 pp5 (51.12 ms) where 4 ran tp4 (15.046); llama3-405b
 * fp8 on 9 ran tp1 pp9 (138.5 ms) where 8 ran tp8 (24.263).  Now each T
 * takes the fewest P whose row fits.  Expected, exact (the same plan timed
 * the same way, `--tp T --chips T`): 9 chips' rows tp8 with 1 chip idle
 * at --tp 8's step_s, 5 chips' tp4 at --tp 4's, 405b fp8's 9 chips at 8
 * chips'.  Failed before: the 9-chip rows read tp2 pp3. */
static void step_chips_fewest_stages_per_tp(void **state)
{
    (void)state;
    const char *b70 = "step --model llama3-70b --hw h100-sxm --context 2048 --format json "
                      "--batch 1,64";
    char a[512], b[512];
    snprintf(a, sizeof a, "%s --chips 9", b70);
    cJSON *j;
    for (int i = 0; i < 2; i++) {
        const cJSON *r = step_row(&j, a, i);
        assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(r, "strategy")), "tp8");
        assert_true(num(r, "idle_chips") == 1);
        cJSON_Delete(j);
    }
    snprintf(b, sizeof b, "%s --tp 8", b70);
    same_step(a, b, 0);
    same_step(a, b, 1);
    snprintf(a, sizeof a, "%s --chips 5", b70);
    snprintf(b, sizeof b, "%s --tp 4", b70);
    same_step(a, b, 0);
    const char *b405 = "step --model llama3-405b --hw h100-sxm --context 2048 --batch 1 "
                       "--weights fp8 --compute fp8 --format json";
    snprintf(a, sizeof a, "%s --chips 9", b405);
    snprintf(b, sizeof b, "%s --chips 8", b405);
    same_step(a, b, 0);
}

/* fixVA #2: the chooser took the most replicas floor(N / (T P)) only, but
 * a replica's step is not monotone in its share (TensorRT-LLM's masked
 * MHA below XQA's dispatch): llama3-8b on 32 H100s (context 2048) at
 * batch 9 ran tp8 x4 (shares 3 + 2 + 2 + 2, the 2-sequence replica's
 * masked MHA: 1.809 ms) where 24 ran tp8 x3 (3 + 3 + 3, XQA: 1.630), and
 * at batch 8 it read 1.809 ms where 16 read 1.749.  Now fewer replicas are
 * candidates.  Expected: 32 chips at batch 9 run tp8 x3 with 8 chips
 * idle, its step_s exactly --tp 8 --chips 24's; at batch 8 32 chips'
 * step_s at most 16 chips' (both the shipped profile's times; no
 * tolerance: a plan of 16 chips is a candidate on 32).  Failed before:
 * tp8 x4, 1.809 ms, above both. */
static void step_chips_fewer_replicas(void **state)
{
    (void)state;
    const char *b8 = "step --model llama3-8b --hw h100-sxm --context 2048 --format json";
    char a[512], b[512];
    snprintf(a, sizeof a, "%s --batch 9 --chips 32", b8);
    cJSON *j;
    const cJSON *r = step_row(&j, a, 0);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(r, "strategy")), "tp8 x3");
    assert_true(num(r, "idle_chips") == 8);
    assert_rel(num(r, "step_s"), 1.630e-3, 0.001 / 1.630);
    cJSON_Delete(j);
    snprintf(b, sizeof b, "%s --batch 9 --tp 8 --chips 24", b8);
    same_step(a, b, 0);
    cJSON *k;
    snprintf(a, sizeof a, "%s --batch 8 --chips 32", b8);
    snprintf(b, sizeof b, "%s --batch 8 --chips 16", b8);
    double s32 = num(step_row(&j, a, 0), "step_s"), s16 = num(step_row(&k, b, 0), "step_s");
    if (!(s32 <= s16))
        fail_msg("32 chips %.6g s above 16 chips' %.6g s", s32, s16);
    cJSON_Delete(j);
    cJSON_Delete(k);
}

/* fixWB #1: at a batch below the most replicas every replica count from
 * the batch's up times one step (a sequence a replica), and the tie went
 * to the most replicas: 64 H100s ran llama3-8b (context 2048) at batch 1
 * as tp8 x8 with 7 replicas idle (idle_replicas 7), llama3-70b at batch 4
 * as tp8 x8 with 4 idle.  Now the replicas stop at the batch, the chips
 * past them idle.  Expected: llama3-8b batch 1 tp8, idle_chips 56,
 * idle_replicas 0, step_s exactly --tp 8's on 8 chips (1.807 ms; the same
 * step as before), the note naming "batch 1 tp8 (56 chips idle)" and no
 * idle_replicas_note; llama3-70b batches 2 and 4 tp8 x2 and tp8 x4, no
 * replica idle.  Failed before: tp8 x8, idle_replicas 7. */
static void step_chips_no_idle_replicas(void **state)
{
    (void)state;
    const char *b8 = "step --model llama3-8b --hw h100-sxm --context 2048 --batch 1 --format json";
    char a[512], b[512];
    snprintf(a, sizeof a, "%s --chips 64", b8);
    cJSON *j = run_json_noted(a, "batch 1 tp8 (56 chips idle)");
    const cJSON *r = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(r, "strategy")), "tp8");
    assert_true(num(r, "idle_chips") == 56 && num(r, "idle_replicas") == 0);
    assert_null(cJSON_GetObjectItem(j, "idle_replicas_note"));
    cJSON_Delete(j);
    snprintf(b, sizeof b, "%s --tp 8", b8);
    same_step(a, b, 0);
    j = run_json("step --model llama3-70b --hw h100-sxm --context 2048 --batch 2,4 --chips 64 "
                 "--format json");
    static const char *const want[] = {"tp8 x2", "tp8 x4"};
    for (int i = 0; i < 2; i++) {
        r = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), i);
        assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(r, "strategy")), want[i]);
        assert_true(num(r, "idle_replicas") == 0);
    }
    cJSON_Delete(j);
}

/* fixWB #2: a deeper pipeline was timed at the most replicas it leaves
 * only, but fewer replicas give it larger micro-batches, which TensorRT-
 * LLM's decode attention can run faster (XQA from 3 sequences, masked MHA
 * below): llama3-8b on 48 H100s (context 2048) at batch 10 ran tp8 x3
 * (shares 4 + 3 + 3, 1.749 ms) where one tp8 pp3 replica on 24 chips
 * (micro-batches 4 + 3 + 3) takes 1.681, and on 64 chips at batch 8 it
 * read tp8 x2 at 1.749 ms where 32 chips read tp8 pp3 at 1.702 (more
 * chips slower).  Expected, exact (the same plan timed the same way):
 * 48 chips' row tp8 pp3, 24 chips idle, at --tp 8 --pp 3 --chips 24's
 * step_s; 64 chips' batch-8 step_s at most 32 chips'.  Failed before:
 * tp8 x3 at 1.749 ms; 64 chips 1.749 above 32 chips' 1.702. */
static void step_chips_deeper_fewer_replicas(void **state)
{
    (void)state;
    const char *b8 = "step --model llama3-8b --hw h100-sxm --context 2048 --format json";
    char a[512], b[512];
    snprintf(a, sizeof a, "%s --batch 10 --chips 48", b8);
    cJSON *j, *k;
    const cJSON *r = step_row(&j, a, 0);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(r, "strategy")), "tp8 pp3");
    assert_true(num(r, "idle_chips") == 24);
    cJSON_Delete(j);
    snprintf(b, sizeof b, "%s --batch 10 --tp 8 --pp 3 --chips 24", b8);
    same_step(a, b, 0);
    snprintf(a, sizeof a, "%s --batch 8 --chips 64", b8);
    snprintf(b, sizeof b, "%s --batch 8 --chips 32", b8);
    double s64 = num(step_row(&j, a, 0), "step_s"), s32 = num(step_row(&k, b, 0), "step_s");
    if (!(s64 <= s32))
        fail_msg("64 chips %.6g s above 32 chips' %.6g s", s64, s32);
    cJSON_Delete(j);
    cJSON_Delete(k);
}

/* fixWB #3: ops --chips N in decode timed the automatic plan (the fewest
 * stages, then the widest T dividing N) where step --chips N ran the
 * batch's fastest: llama3-70b fp8 on 10 H100s (context 4096) at batch 64
 * read tp2 (2 chips, 32 sequences), 19.80 ms, where step runs tp4 x2 at
 * 15.59.  Now ops times one replica of step's plan.  Expected: ops's
 * chips 4 and batch 32, its step_s exactly step's row's (the same replica
 * timed the same way), the note naming "batch 64 on tp4 x 2 replicas";
 * llama3-8b on 48 H100s at batch 10 (step: tp8 pp3, which ops does not
 * time) the fastest plan without stages, tp8 x3 (batch 4 a replica), the
 * note naming step's.  Failed before: chips 2, 19.80 ms. */
static void ops_chips_runs_step_plan(void **state)
{
    (void)state;
    const char *b70 = "--model llama3-70b --hw h100-sxm --chips 10 --batch 64 --context 4096 "
                      "--weights fp8 --compute fp8 --format json";
    char a[512], b[512];
    snprintf(a, sizeof a, "ops %s", b70);
    cJSON *j = run_json_noted(a, "run batch 64 on tp4 x 2 replicas, 2 chips idle, step --chips "
                                 "10's plan for it");
    assert_true(num(j, "chips") == 4 && num(j, "batch") == 32);
    snprintf(b, sizeof b, "step %s", b70);
    cJSON *k;
    double s = num(step_row(&k, b, 0), "step_s");
    if (num(j, "step_s") != s)
        fail_msg("ops %.6g s, step %.6g s", num(j, "step_s"), s);
    cJSON_Delete(j);
    cJSON_Delete(k);
    j = run_json_noted("ops --model llama3-8b --hw h100-sxm --chips 48 --batch 10 --context 2048 "
                       "--format json", "run batch 10 on tp8 x 3 replicas, 24 chips idle, the "
                       "fastest plan without pipeline stages: step --chips 48 runs the batch on "
                       "tp8 x pp3");
    assert_true(num(j, "chips") == 8 && num(j, "batch") == 4);
    cJSON_Delete(j);
}

/* fixVA #3: a batch no plan holds ran the automatic plan, the widest T
 * dividing N: llama3-70b bf16 on 64 TPU v5e at batch 512, context 8192,
 * ran tp64 at 171.8 GB of KV a chip, 157 GB over its 17.2 usable;
 * the nearest, tp8 pp8 (8 stages of 10 layers, 64 sequences' KV a chip),
 * is 6.70 GB over (the row's weight_bytes_per_chip + kv_bytes_per_chip -
 * usable_bytes_per_chip; tolerance 0.01 GB, the figure as printed).  At
 * context 2048 tp16 pp2 x2 holds it (fits true; tp64 read fits false).
 * The note names the nearest.  Failed before: tp64, 157 GB over, and
 * fits false at 2048. */
static void step_chips_nearest_plan(void **state)
{
    (void)state;
    const char *base = "step --model llama3-70b --hw tpu-v5e --chips 64 --batch 512 "
                       "--format json --context ";
    cJSON *j = run_json_noted("step --model llama3-70b --hw tpu-v5e --chips 64 --batch 512 "
                              "--format json --context 8192", "batch 512 tp8 pp8 (no plan holds "
                              "it: the nearest, 6.70 GB a chip over its usable room, fits false)");
    const cJSON *r = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(r, "strategy")), "tp8 pp8");
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(r, "fits")));
    double over = num(r, "weight_bytes_per_chip") + num(r, "kv_bytes_per_chip") -
                  num(r, "usable_bytes_per_chip");
    assert_rel(over, 6.70e9, 0.01 / 6.70);
    assert_non_null(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(j, "plan_choice")),
                           "a batch no plan holds runs the nearest"));
    cJSON_Delete(j);
    j = json2(base, "2048");
    r = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(r, "fits")));
    cJSON_Delete(j);
}

/* fixVA #5: step --chips N's rows may run different plans, but the batch
 * fall note read both on the header's (the first row's) plan and the
 * header's outside_tables and e2e_gap_note were the first row's plan's
 * alone.  Expected (texts):
 *  - llama3-70b fp8 on 8 GB200s (context 8192) at batches 256 and 1: tp4
 *    x2 and tp8; outside_tables names the tp8 row's AllReduce over 8
 *    GPUs raised to the 4-GPU time (gb200's collectives table stops at 4)
 *    after its plan's name (it was null, the tp4 x2 row's);
 *  - README's 8 H100s (fp8, context 4096) at batches 1 and 256, tp8 and
 *    tp4 x2: e2e_gap_note says it is quoted at the first row's plan's TP;
 *  - llama3-70b bf16 on 16 H100s (context 2048) at batches 4 and 6, tp8
 *    (8 idle) and tp8 x2: batch 4's 9.214 ms above batch 6's 8.876 is read
 *    on batch 6's plan, 2 and 3 sequences a replica (masked MHA, XQA).
 * Failed before: outside_tables null, no words on the plans. */
static void step_chips_rows_own_plans(void **state)
{
    (void)state;
    cJSON *j = run_cli_json("step --model llama3-70b --hw gb200 --chips 8 --batch 256,1 "
                            "--context 8192 --weights fp8 --compute fp8 --format json",
                            out, sizeof out);
    const char *far = cJSON_GetStringValue(cJSON_GetObjectItem(j, "outside_tables"));
    if (!far || !strstr(far, "tp8's rows: collectives gb200's collectives table does not "
                             "measure at their group size") ||
        !strstr(far, "AllReduce over 8 raised to its 4-GPU trtllm time"))
        fail_msg("outside_tables: %s", far ? far : "(null)");
    cJSON_Delete(j);
    j = run_cli_json("step --model llama3-70b --hw h100-sxm --chips 8 --batch 1,256 --context "
                     "4096 --weights fp8 --compute fp8 --format json", out, sizeof out);
    const char *gap = cJSON_GetStringValue(cJSON_GetObjectItem(j, "e2e_gap_note"));
    if (!gap || !strstr(gap, "quoted at the first row's plan's TP (tp8): the rows run 2 plans"))
        fail_msg("e2e_gap_note: %s", gap ? gap : "(null)");
    cJSON_Delete(j);
    j = run_cli_json("step --model llama3-70b --hw h100-sxm --chips 16 --batch 4,6 --context "
                     "2048 --format json", out, sizeof out);
    const char *n = cJSON_GetStringValue(cJSON_GetObjectItem(j, "batch_fall_note"));
    if (!n || !strstr(n, "masked MHA at batch 4 and XQA at batch 6 on batch 6's plan (2 and 3 "
                         "sequences") ||
        !strstr(n, "read on batch 6's plan, tp8 x2: each row runs its batch's fastest plan found "
                   "(batch 4 tp8;"))
        fail_msg("batch_fall_note: %s", n ? n : "(null)");
    cJSON_Delete(j);
}

/* tester63 F4 (stop 42): MoE experts timed from the other fp8 scaling's
 * kernel than the checkpoint's get a caution, as dense GEMMs do: h200
 * vLLM measures deepseek-v3's expert shape block-scaled only (fp8_block
 * rows of ../shared/data/silicon/h200_sxm/vllm/moe_perf.csv.gz), so
 * declared per-tensor it is timed from them and cautioned; the preset
 * (fp8_scaling = "block") is not. */
static void moe_scaling_caution(void **state)
{
    (void)state;
    const char *base = "ops --model deepseek-v3 --hw h200 --engine vllm --weights fp8 "
                       "--compute fp8 --batch 32 --context 1024 --tp 8";
    assert_int_equal(cli2(base, " --set model.fp8_scaling=tensor"), 0);
    assert_non_null(strstr(out, "roofline ops: caution: vllm's kernel tables on h200 measure "
                                "deepseek-v3's expert shape (hidden 7168, inter 2048, top-8 of "
                                "256 experts) in fp8 with 128 x 128 block scales (fp8_block "
                                "rows) only, but its checkpoint has per-tensor scales"));
    assert_int_equal(cli2(base, ""), 0);
    assert_null(strstr(out, "fp8_block rows) only"));
}

/* tester47 F4/F13, review41 F7: the caution is judged on the shapes the
 * command evaluates and names them; it cited a decode step of batch 1 in
 * prefill and simulate.  b200-trtllm Llama-3-70B tp8 fp4: a 16-token
 * prefill's nvfp4 dense matmuls read x1.32 bf16's (5.231 vs 3.957 ms, the
 * shipped profile's rows; tolerance x1.2..x1.45), a 2048-token one's are
 * faster than bf16's (no caution); simulate names the run's mean decode
 * step, never "decode batch 1," alone. */
static void slow_precision_shapes(void **state)
{
    (void)state;
    static const char *const runs[] = {"prefill %s --tokens 2048", "prefill %s --tokens 16",
                                       "simulate %s --qps 5 --prompt-len 1000 --out-len 100 "
                                       "--requests 100"};
    static const char *const want[] = {NULL, "at this run's shapes: prefill of 16 tokens, tp 8, "
                                             "dense matmuls",
                                       "at this run's shapes: the run's mean decode batch "};
    for (int i = 0; i < 3; i++) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, runs[i], "--model llama3-70b --hw b200 --chips 8 --weights fp4 "
                                           "--compute fp4 --engine trtllm");
        assert_int_equal(run_cli(cmd, out, sizeof out), 0);
        const char *c = strstr(out, "caution: trtllm's measured nvfp4 GEMMs on b200 are slower "
                                    "than its bfloat16 ones");
        if (!want[i] ? c != NULL : !c || !strstr(c, want[i]))
            fail_msg("%s: %s", cmd, out);
        if (i == 1) {
            assert_null(strstr(out, "decode batch"));
            double ratio = strtod(strstr(c, "(x") + 2, NULL);
            assert_true(ratio > 1.2 && ratio < 1.45);
        }
    }
}

/* tester18 F5: a run that gives each replica fewer requests than a steady
 * window needs (serve.h RL_SERVE_STEADY_MIN, 50) says its throughput is
 * noise, as a run of under 100 requests does: 200 requests on 20 replicas
 * (10 each) are noted, on 2 replicas (100 each) not, and a disagg run
 * counts its larger pool (200 requests, 2 decode and 8 prefill replicas:
 * 25 each). */
static void short_run_per_replica_noted(void **state)
{
    (void)state;
    static const char *const tails[] = {"--replicas 20", "--replicas 2",
                                        "--policy disagg --replicas 2 --prefill-replicas 8"};
    static const char *const want[] = {"200 requests over 20 replicas, 10 each", NULL,
                                       "200 requests over 8 replicas, 25 each"};
    for (int i = 0; i < 3; i++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "simulate --model llama3-8b --hw h100-sxm --qps 20 "
                 "--prompt-len 100 --out-len 10 --requests 200 --format json %s", tails[i]);
        assert_int_equal(run_cli(cmd, out, sizeof out), 0);
        if (want[i])
            assert_non_null(strstr(out, want[i]));
        else
            assert_null(strstr(out, "short a run"));
    }
}

/* fixJK #1: vLLM's measured per-tensor fp8 MoE rows on h100-sxm time
 * mixtral-8x7b's expert GEMMs at 0.437 ms each (decode batch 16, tp2), its
 * bf16 rows 0.163 ms and its fp8_block rows 0.091 ms (AIConfigurator's
 * tables, as ops lists them): 32 layers x 3 = 41.95 ms vs 15.66 ms a step,
 * x2.68 (41.952 / 15.661, to the note's 2 decimals; 0.412 ms and x2.53
 * until stop 48's profiles kept the measured token step the fit had
 * smoothed, ktable.h RL_KT_FALL).  Before: no word.  Now a
 * caution on stderr once and moe_slow_note in the JSON naming both times
 * and --set model.fp8_scaling=block; none at bf16 nor under a block-scaled
 * checkpoint (0.091 < 0.163); simulate says it once too. */
static void moe_slow_caution(void **state)
{
    (void)state;
    static const char base[] = "--model mixtral-8x7b --hw h100-sxm --chips 2 --weights fp8 "
                               "--compute fp8 --engine vllm";
    static const char head[] = "caution: vllm's measured fp8 (per-tensor scaled) MoE kernel on "
                               "h100-sxm is slower than its bf16 one";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "ops %s --batch 16 --context 2048 --format json", base);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    const char *at = strstr(out, head);
    assert_non_null(at);
    assert_null(strstr(at + 1, head));
    snprintf(cmd, sizeof cmd, "step %s --batch 16 --context 2048 --format json", base);
    cJSON *j = run_json(cmd);
    const char *n = cJSON_GetStringValue(cJSON_GetObjectItem(j, "moe_slow_note"));
    assert_non_null(n);
    assert_non_null(strstr(n, "(x2.68, block-scaled fp8 "));
    assert_non_null(strstr(n, "--set model.fp8_scaling=block"));
    cJSON_Delete(j);
    static const char *const none[] = {"--weights bf16 --compute bf16",
                                       "--weights fp8 --compute fp8 --set model.fp8_scaling=block"};
    for (int i = 0; i < 2; i++) {
        snprintf(cmd, sizeof cmd, "step --model mixtral-8x7b --hw h100-sxm --chips 2 --engine "
                 "vllm %s --batch 16 --context 2048 --format json", none[i]);
        j = run_json(cmd);
        assert_null(cJSON_GetObjectItem(j, "moe_slow_note"));
        cJSON_Delete(j);
    }
    snprintf(cmd, sizeof cmd, "simulate %s --qps 2 --requests 100 --prompt-len 512 --out-len 64 "
             "--format json", base);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    at = strstr(out, head);
    assert_non_null(at);
    assert_null(strstr(at + 1, head));
}

/* fixJK #2, #3: simulate and size carry e2e_gap_note and
 * prefill_dispatch_note as step and prefill do.  llama2-70b on h100-sxm
 * vLLM at tp4: SplitwiseSim's decode gap p90 x2.57 and prefill p90 x1.70
 * (src/result.c E2E_GAP, calib/e2e_gap.sh), the TPOT and TTFT high ends;
 * 80 layers x 0.8 ms = 64 ms of dispatch.  Before: simulate had no
 * e2e_gap_note, size neither note.  The note says it quotes p10-p90 under
 * --band p5-p95 (before: it did so without a word).  validate --against an
 * end-to-end file on the kernel-table profile (47 rows, median error 0.48)
 * says its error holds that gap (before: no key). */
static void e2e_gap_serving_notes(void **state)
{
    (void)state;
    cJSON *j = run_json("simulate --model llama2-70b --hw h100-sxm --engine vllm --chips 4 "
                        "--qps 2 --requests 100 --prompt-len 512 --out-len 64 --format json");
    const char *g = cJSON_GetStringValue(cJSON_GetObjectItem(j, "e2e_gap_note"));
    assert_non_null(g);
    assert_non_null(strstr(g, "TPOT x 2.57 and TTFT x 1.70"));
    assert_non_null(strstr(g, "whatever --band"));
    assert_non_null(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(j, "prefill_dispatch_note")),
                           "64 ms (80 layers x 0.8 ms"));
    cJSON_Delete(j);
    j = run_json("size --model llama2-70b --hw h100-sxm --engine vllm --qps 2 --requests 200 "
                 "--prompt-len 512 --out-len 64 --ttft-p99 2 --tpot-p99 0.1 --format json");
    assert_non_null(cJSON_GetStringValue(cJSON_GetObjectItem(j, "e2e_gap_note")));
    assert_non_null(cJSON_GetStringValue(cJSON_GetObjectItem(j, "prefill_dispatch_note")));
    cJSON_Delete(j);
    j = run_json("step --model llama2-70b --hw h100-sxm --engine trtllm --tp 4 --batch 16 "
                 "--context 1088 --band p5-p95 --format json");
    g = cJSON_GetStringValue(cJSON_GetObjectItem(j, "e2e_gap_note"));
    assert_non_null(g);
    assert_non_null(strstr(g, "quoted at its p10 and p90 whatever --band"));
    cJSON_Delete(j);
    j = run_json("validate --against " RL_SRCDIR "/tests/data/e2e/splitwise_h100.csv "
                 "--profile h100-sxm --model llama2-70b --set model.max_context=16384 --format json");
    g = cJSON_GetStringValue(cJSON_GetObjectItem(j, "e2e_gap_note"));
    assert_non_null(g);
    assert_non_null(strstr(g, "47 of 47 rows are timed by kernel tables"));
    cJSON_Delete(j);
}

/* fixJK #4: a one-chip step has no collective, so --set hw.ici_bw leaves
 * h100-sxm as measured: mode calibrated, its band kept (before: estimated,
 * no band); on 2 chips (tp2, AllReduces timed over the link) it still is a
 * what-if, estimated; hw.hbm_bw still is one on one chip. */
static void link_set_one_chip(void **state)
{
    (void)state;
    static const char *const run[3][2] = {
        {"", "calibrated"}, {" --chips 2", "estimated"}, {" --set hw.hbm_bw=4e12", "estimated"}};
    for (int i = 0; i < 3; i++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "step --model llama3-8b --hw h100-sxm --batch 8 --context 2048 "
                 "--set hw.ici_bw=4.5e11%s --format json", run[i][0]);
        cJSON *j = run_json(cmd);
        assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(j, "mode")), run[i][1]);
        assert_int_equal(cJSON_GetObjectItem(j, "band") != NULL, i == 0);
        cJSON_Delete(j);
    }
    /* tester81 C: h100-pcie, h100-sxm's tables under its own bandwidth and
     * FLOPs (mode estimated, no band) with its own link figures, read "leave
     * h100-pcie as measured (its mode and band kept)" on one chip */
    static char err[65536];
    assert_int_equal(run_cli("step --model llama3-8b --hw h100-pcie --batch 1,64 --context 1000",
                             err, sizeof err), 0);
    if (strstr(err, "as measured (its mode and band kept)") ||
        !strstr(err, "they change nothing here, and h100-pcie's other figures that differ from "
                     "the chip its tables measured (the next note) still make it a what-if: "
                     "mode estimated, no band"))
        fail_msg("%s", err);
}

/* fixND #11: size --hw h100-sxm,tpu-v5e --engine vllm applies vllm on
 * h100-sxm (its rows' engine vllm, engine_note null) and sizes tpu-v5e,
 * which carries no vllm tables, on its default (engine none, engine_note
 * and a stderr note saying --engine vllm did not apply there); before, the
 * whole command was refused (exit 2, "tpu-v5e.lua carries no engine
 * 'vllm'").  Refused still where no profile listed has it (tpu-v5e,tpu-v5p),
 * and for one profile without it. */
static void size_engine_where_it_applies(void **state)
{
    (void)state;
    static const char base[] = "size --model llama3-8b --qps 2 --prompt-len 100 --out-len 20 "
                               "--ttft-p99 1 --tpot-p99 0.05 --requests 200 --max-chips 1 "
                               "--engine vllm";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --hw h100-sxm,tpu-v5e --format json", base);
    cJSON *j = run_json(cmd); /* its notes left in out */
    assert_non_null(strstr(out, "note: --engine vllm: tpu-v5e carries no vllm tables, so its rows "
                                "are timed by its default engine"));
    int seen[2] = {0, 0};
    for (const cJSON *r = cJSON_GetObjectItem(j, "rows")->child; r; r = r->next) {
        int tpu = !strncmp(cJSON_GetStringValue(cJSON_GetObjectItem(r, "config")), "tpu-v5e", 7);
        const cJSON *n = cJSON_GetObjectItem(r, "engine_note");
        assert_non_null(n);
        seen[tpu]++;
        if (tpu) {
            assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(r, "engine")), "none");
            assert_string_equal(cJSON_GetStringValue(n), "--engine vllm does not apply: tpu-v5e "
                                "carries no vllm tables, so its default engine (none: datasheet "
                                "peaks) times this row");
        } else {
            assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(r, "engine")), "vllm");
            assert_true(cJSON_IsNull(n));
        }
    }
    assert_true(seen[0] > 0 && seen[1] > 0);
    cJSON_Delete(j);
    assert_int_equal(cli2(base, " --hw tpu-v5e,tpu-v5p"), 2);
    assert_non_null(strstr(out, "--engine vllm: no profile listed carries it"));
    assert_int_equal(cli2(base, " --hw tpu-v5e"), 2);
    assert_non_null(strstr(out, "carries no engine 'vllm'"));
    /* review58 #5: "ideal" is carried by every profile (engines.h
     * rl_engines_find, the one matching rl_engines_select reads too): over
     * a list each row is engine none with engine_note null, no note */
    static const char ideal[] = "size --model llama3-8b --qps 2 --prompt-len 100 --out-len 20 "
                                "--ttft-p99 1 --tpot-p99 0.05 --requests 200 --max-chips 1 "
                                "--engine ideal --hw h100-sxm,tpu-v5e --format json";
    j = run_json(ideal);
    assert_null(strstr(out, "does not apply"));
    int rows = 0;
    for (const cJSON *r = cJSON_GetObjectItem(j, "rows")->child; r; r = r->next, rows++) {
        assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(r, "engine")), "none");
        assert_true(cJSON_IsNull(cJSON_GetObjectItem(r, "engine_note")));
    }
    assert_true(rows > 0);
    cJSON_Delete(j);
}

/* fixND #6: a price of 0 (here --set hw.price_per_chip_hour=0 on the one
 * profile searched) reads as no price, not as free: cost_unit chips, and
 * cost_note (printed in the table too) and a stderr note say so, naming the
 * profile.  Before: cost_unit chips with no word anywhere.  A priced search
 * reads cost_note null. */
static void size_zero_price_said(void **state)
{
    (void)state;
    static const char base[] = "size --model llama3-8b --hw h100-sxm --qps 2 --prompt-len 100 "
                               "--out-len 20 --ttft-p99 1 --tpot-p99 0.05 --requests 200 "
                               "--max-chips 1 --keep-precision";
    cJSON *j = json2(base, " --set hw.price_per_chip_hour=0 --format json");
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(j, "cost_unit")), "chips");
    const char *n = cJSON_GetStringValue(cJSON_GetObjectItem(j, "cost_note"));
    assert_non_null(n);
    assert_non_null(strstr(n, "cost is in chips, not USD/hour: h100-sxm has no "
                              "price_per_chip_hour (absent or 0; 0 reads as no price, not as "
                              "free)"));
    cJSON_Delete(j);
    assert_int_equal(cli2(base, " --set hw.price_per_chip_hour=0"), 0);
    assert_non_null(strstr(out, "cost is in chips, not USD/hour: h100-sxm has no"));
    assert_non_null(strstr(out, "note: h100-sxm has no price (price_per_chip_hour absent or 0"));
    j = json2(base, " --format json");
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(j, "cost_unit")), "usd_per_hour");
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "cost_note")));
    cJSON_Delete(j);
}

/* fixND #4: every size row carries `derived`, what of its precision the
 * kernel tables do not measure, in pareto's words for the same precision on
 * the same profile (llama3-8b on h100-sxm, whose trtllm tables hold bf16
 * and fp8: int8 reads "GEMM of int8 weights x int8 compute; int8 KV-cache
 * attention", fp8 "none"; --ideal "none": no table times it).  Before: no
 * such key in size rows. */
static void size_rows_say_derived(void **state)
{
    (void)state;
    static const char *const dt[3] = {"int8", "fp8", "fp8"};
    for (int i = 0; i < 3; i++) {
        char cmd[512];
        const char *ideal = i == 2 ? " --ideal" : "";
        snprintf(cmd, sizeof cmd, "pareto --model llama3-8b --hw h100-sxm --chips 1 --context 1024 "
                 "--weights %s --kv %s --compute %s%s --format json", dt[i], dt[i], dt[i], ideal);
        cJSON *p = run_json(cmd);
        const char *want = cJSON_GetStringValue(cJSON_GetObjectItem(
            cJSON_GetArrayItem(cJSON_GetObjectItem(p, "rows"), 0), "derived"));
        snprintf(cmd, sizeof cmd, "size --model llama3-8b --hw h100-sxm --qps 2 --prompt-len 100 "
                 "--out-len 20 --ttft-p99 1 --tpot-p99 0.05 --requests 200 --max-chips 1 "
                 "--weights %s --kv %s --compute %s --keep-precision%s --format json", dt[i],
                 dt[i], dt[i], ideal);
        cJSON *j = run_json(cmd);
        const cJSON *rows = cJSON_GetObjectItem(j, "rows");
        assert_true(cJSON_GetArraySize(rows) > 0);
        for (const cJSON *r = rows->child; r; r = r->next) {
            const char *d = cJSON_GetStringValue(cJSON_GetObjectItem(r, "derived"));
            assert_non_null(d);
            assert_string_equal(d, i == 0 ? "GEMM of int8 weights x int8 compute; int8 KV-cache "
                                            "attention" : "none");
            if (want) /* pareto --ideal rows carry none */
                assert_string_equal(d, want);
        }
        cJSON_Delete(j);
        cJSON_Delete(p);
    }
}

/* stop 48 #1 (a README-only tester): llama3-70b at 2 req/s on h100-sxm
 * under a 90 ms TTFT target with --requests 500 recommended 4x8 fp8 (32
 * chips) "met at the load and at 20% above it" and "no load up to 1.25 x
 * it misses them outright", while its own load curve read TTFT p99 102 ms
 * at 2.25 req/s (over 90 ms, under the sized 2.4).  (a) The report says
 * the curve misses there and is not monotone instead of "met ... at 20%
 * above it", and qualifies the capacity search's "no load ... misses";
 * (b) a p99 over 500 requests (its 5 worst) is cautioned on stderr, in the
 * report and in the JSON's sample_note (size.h RL_SIZE_FEW_REQUESTS 2000),
 * which is null at --requests 2000. */
static void size_small_sample_said(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_cli_XXXXXX", cmd[512], path[128];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/tight.md", dir);
    static const char base[] = "size --model llama3-70b --hw h100-sxm --qps 2 --prompt-len 2000 "
                               "--out-len 300 --ttft-p99 0.09 --tpot-p99 0.05 --format json";
    snprintf(cmd, sizeof cmd, "%s --requests 500 --report %s", base, path);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, "caution: the p99 verdicts rest on 500 requests a run: a p99 "
                                "over 500 requests is set by its 5 worst"));
    char *md = slurp_text(path);
    assert_non_null(md);
    assert_non_null(strstr(md, "Caution on the sample: the p99 verdicts rest on 500 requests"));
    assert_null(strstr(md, "met at the load and at 20% above it"));
    assert_non_null(strstr(md, "sized to meet them at the load and at 20% above it (--headroom "
                               "0.20); the recommended row's runs met them at 2 and 2.4 req/s, "
                               "but its load curve below misses at 2.25 req/s"));
    assert_non_null(strstr(md, "that is on the capacity search's own samples: the load curve "
                               "below, one sample a point, misses at 2.25 req/s"));
    free(md);
    unlink(path);
    rmdir(dir);
    snprintf(cmd, sizeof cmd, "%s --requests 500", base);
    cJSON *j = run_json(cmd);
    assert_non_null(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(j, "sample_note")),
                           "rest on 500 requests a run"));
    cJSON_Delete(j);
    j = run_json("size --model llama3-8b --hw h100-sxm --qps 2 --prompt-len 500 --out-len 100 "
                 "--ttft-p99 1 --tpot-p99 0.05 --requests 2000 --format json");
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "sample_note")));
    cJSON_Delete(j);
}

/* fixRC #9: validate --tables --plot on a folder of MLA tables alone
 * drew no series (the template knew classes 0-3), gnuplot refused the log
 * axes ("logscaled axis must have positive range"), and the report was not
 * printed (exit 1, stderr only).  Now the MLA classes are drawn (exit 0,
 * the figure written), and where gnuplot fails (a stand-in that exits 1)
 * the report is printed all the same, its plot_note and stderr saying why,
 * exit 1; pareto --plot too (fixSA #3, fails before: no rows). */
static void validate_plot_keeps_report(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_val_plot_XXXXXX", cmd[2048], path[256];
    assert_non_null(mkdtemp(dir));
    const char *base = RL_BIN " validate --tables " RL_SRCDIR "/tests/data/silicon/h100_sxm_mla "
                       "--hw h100-sxm --engine trtllm --format json --plot";
    if (system("command -v gnuplot >/dev/null 2>&1") == 0) {
        snprintf(cmd, sizeof cmd, "%s %s/mla.png 2>&1", base, dir);
        int rc = popen_out(cmd);
        if (rc != 0 || !strstr(out, "\"plot\":"))
            fail_msg("%s: status %d: %s", cmd, rc, out);
        snprintf(path, sizeof path, "%s/mla.png", dir);
        assert_int_equal(access(path, F_OK), 0);
    }
    static const char *const fake[] = {"bin/gnuplot"};
    static const char *const says[] = {"#!/bin/sh\necho 'stand-in gnuplot fails' >&2\nexit 1\n"};
    snprintf(path, sizeof path, "%s/bin", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    put_files(dir, fake, says, 1);
    snprintf(path, sizeof path, "%s/bin/gnuplot", dir);
    assert_int_equal(chmod(path, 0700), 0);
    snprintf(cmd, sizeof cmd, "PATH=%s/bin:$PATH %s %s/f.png 2>&1", dir, base, dir);
    int rc = popen_out(cmd);
    if (rc != 1 << 8 || !strstr(out, "\"operators\"") || !strstr(out, "\"plot_note\"") ||
        !strstr(out, "roofline validate: gnuplot failed on "))
        fail_msg("%s: status %d, want exit 1 with the report: %s", cmd, rc, out);
    /* fixSA #3: pareto --plot printed nothing when gnuplot failed (exit 1,
     * stderr only); now its rows as validate's report, plot_note, exit 1 */
    snprintf(cmd, sizeof cmd, "PATH=%s/bin:$PATH %s pareto --model llama3-8b --hw h100-sxm "
             "--chips 1,2 --batch 1,8 --format json --plot %s/p.png 2>&1", dir, RL_BIN, dir);
    rc = popen_out(cmd);
    if (rc != 1 << 8 || !strstr(out, "\"rows\"") || !strstr(out, "\"plot_note\"") ||
        !strstr(out, "roofline pareto: gnuplot failed on "))
        fail_msg("%s: status %d, want exit 1 with the rows: %s", cmd, rc, out);
    assert_int_equal(remove_tree(dir), 0);
}

/* fixRC #7: size --report with targets nothing can meet wrote no report
 * when every plan was pruned analytically (exit 3, the reason on stderr
 * only).  It writes one now, in both formats, saying nothing met them and
 * by how far: a TTFT target of 0.01 ms against the fastest prefill of the
 * 1000-token prompt (rl_size_why_none; 9.5 ms on h100-sxm, not pinned
 * here), with no empty tables; the exit stays 3. */
static void size_none_still_reports(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_size_none_XXXXXX", cmd[1024];
    assert_non_null(mkdtemp(dir));
    static const char *const ext[] = {"md", "html"};
    for (int k = 0; k < 2; k++) {
        snprintf(cmd, sizeof cmd, "size --model llama3-8b --hw h100-sxm --qps 1 --prompt-len "
                 "1000 --out-len 100 --ttft-p99 0.00001 --tpot-p99 0.00001 --report %s/r.%s",
                 dir, ext[k]);
        assert_int_equal(run_cli(cmd, out, sizeof out), 3);
        char name[16];
        snprintf(name, sizeof name, "r.%s", ext[k]);
        char *rep = slurp_in(dir, name);
        assert_non_null(rep);
        if (!strstr(rep, "No configuration in the search space meets both targets: the TTFT "
                         "target (0.01 ms) is below the fastest prefill of the mean prompt "
                         "(1000 tokens) in the search space") ||
            !strstr(rep, "every plan was pruned analytically") || strstr(rep, "Alternatives"))
            fail_msg("size --report %s: %.2000s", name, rep);
        free(rep);
    }
    assert_int_equal(remove_tree(dir), 0);
}

/* fixTB #1, #5: that verdict with nothing simulated (every plan pruned
 * analytically) wrote its report but no result: --save FILE was not
 * written and stdout was empty (the help said nothing was written,
 * docs/serving.md that the report was).  A verdict is a result: --save
 * writes it, in --format, as stdout would: meeting 0, simulated_configs 0,
 * rows empty and none_meets_note saying by how far (the stderr sentence,
 * rl_size_why_none: a TTFT target of 0.01 ms against the fastest prefill
 * of the 1000-token prompt), exit 3.  And the caution "the p99 verdicts
 * rest on 1200 requests a run" (--requests 500 is below 2000,
 * rl_size_sample_caution) was said, and sample_note set, with no request
 * simulated: neither now. */
static void size_none_still_results(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_size_none_json_XXXXXX", cmd[1024];
    assert_non_null(mkdtemp(dir));
    static const char base[] = "size --model llama3-8b --hw h100-sxm --qps 1 --prompt-len 1000 "
                               "--out-len 100 --ttft-p99 0.00001 --tpot-p99 0.05 --requests 500 "
                               "--format json";
    snprintf(cmd, sizeof cmd, "%s --save %s/s.json", base, dir);
    assert_int_equal(run_cli(cmd, out, sizeof out), 3);
    if (strstr(out, "p99 verdicts rest on"))
        fail_msg("the few-requests caution with nothing simulated: %s", out);
    char *saved = slurp_in(dir, "s.json");
    if (!saved)
        fail_msg("size --save wrote nothing on its verdict (exit 3): %s", out);
    for (int k = 0; k < 2; k++) {
        cJSON *j = cJSON_Parse(saved);
        assert_non_null(j);
        assert_int_equal(num(j, "meeting"), 0);
        assert_int_equal(num(j, "simulated_configs"), 0);
        assert_true(num(j, "pruned") > 0);
        const cJSON *rows = cJSON_GetObjectItem(j, "rows");
        assert_true(cJSON_IsArray(rows) && cJSON_GetArraySize(rows) == 0);
        assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "sample_note")));
        const char *why = cJSON_GetStringValue(cJSON_GetObjectItem(j, "none_meets_note"));
        if (!why || !strstr(why, "the TTFT target (0.01 ms) is below the fastest prefill of the "
                                 "mean prompt (1000 tokens) in the search space"))
            fail_msg("none_meets_note: %s", why ? why : "(none)");
        cJSON_Delete(j);
        free(saved);
        if (k == 1)
            break;
        /* stdout: the same result */
        assert_int_equal(run_cli(base, out, sizeof out), 3);
        assert_non_null(strchr(out, '{'));
        saved = strdup(strchr(out, '{'));
    }
    assert_int_equal(remove_tree(dir), 0);
}

/* fixJK #6: size's first row for llama3-8b at 5 req/s on h100-sxm (TPOT
 * target 6 ms) meets at its p99s but its band's p10-p90 high edge reads
 * TPOT p99 7.06 ms (7.03 before stop 44's GEMM tile-step rule, 7.01 before stop 52's
 * GEMM hole fill along the table's step profile widened the GEMM residual band), 1.18x the
 * target (the report's "Caution on the band",
 * the same figures).  Before: stdout and stderr said nothing of it.  Under
 * --conservative the row is sized on that edge: no caution. */
static void size_band_edge_said(void **state)
{
    (void)state;
    static const char cmd[] = "size --model llama3-8b --hw h100-sxm --qps 5 --prompt-len 512 "
                              "--out-len 64 --ttft-p99 2 --tpot-p99 0.006 --requests 200";
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    const char *c = strstr(out, "caution: at its band's upper edge (p10-p90) the first row (");
    assert_non_null(c);
    assert_non_null(strstr(c, "meets the targets at its p99s, reads TPOT p99 7.06 ms, 1.18x the "
                              "6 ms target"));
    char cons[512];
    snprintf(cons, sizeof cons, "%s --conservative", cmd);
    run_cli(cons, out, sizeof out);
    assert_null(strstr(out, "band's upper edge (p10-p90)"));
}

/* fixWE #1: llama3-70b int4 x bf16 on h100-sxm (trtllm's tables measure no
 * int4 GEMM: derived) meets at its p99s, its band's edge misses, and the
 * caution read "size --conservative sizes against it" while the same
 * command with --conservative refused every plan as derived, exit 2.  The
 * rows keep their printed (widened) band; the caution now says
 * --conservative does not size such a plan and why, and the refusal says
 * why that printed band is no edge to size on.  Here llama3-8b, 200
 * requests: the same derived plans (exact clauses, no figure). */
static void size_derived_edge_not_advised(void **state)
{
    (void)state;
    static const char cmd[] = "size --model llama3-8b --hw h100-sxm --qps 5 --prompt-len 512 "
                              "--out-len 64 --ttft-p99 2 --tpot-p99 0.006 --requests 200 "
                              "--keep-precision --weights int4 --kv fp8 --compute bf16";
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    const char *c = strstr(out, "caution: at its band's upper edge (p10-p90) the first row (");
    assert_non_null(c);
    assert_null(strstr(c, "size --conservative sizes against it"));
    assert_non_null(strstr(c, "size --conservative does not size this plan (h100-sxm: trtllm's "
                              "kernel tables measure no GEMM of int4 weights x bf16 compute): "
                              "a derived dtype's band"));
    char cons[512];
    snprintf(cons, sizeof cons, "%s --conservative", cmd);
    assert_int_equal(run_cli(cons, out, sizeof out), 2);
    assert_non_null(strstr(out, "so none has a slow edge to size on (the band a derived dtype's "
                                "rows print without --conservative"));
}

/* prefill_dispatch_note of `cmd`'s one row says its dispatch share of the
 * TTFT, in (lo, hi): whole percents from 10% up, two significant digits
 * below (src/result.c add_dispatch_caution), never "up to 0%". */
static void dispatch_share_said(const char *cmd, double lo, double hi)
{
    cJSON *j = run_json(cmd);
    const char *d = cJSON_GetStringValue(cJSON_GetObjectItem(j, "prefill_dispatch_note"));
    assert_non_null(d);
    const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0);
    double share = cJSON_GetNumberValue(cJSON_GetObjectItem(row, "prefill_dispatch_s")) /
                   cJSON_GetNumberValue(cJSON_GetObjectItem(row, "ttft_s"));
    assert_true(share > lo && share < hi);
    char want[96];
    snprintf(want, sizeof want, 100 * share < 9.95 ? "it is up to %#.2g%% of these TTFTs"
                                                  : "it is up to %.0f%% of these TTFTs",
             100 * share);
    assert_non_null(strstr(d, want));
    assert_non_null(strstr(d, "no range"));
    assert_null(strstr(d, "up to 0% "));
    cJSON_Delete(j);
}

/* Issue 13 item 4 (b), (c).  (b) The kernel tables' step of llama2-70b
 * fp16 at tp4 on h100-sxm under TensorRT-LLM reads x2.00 below
 * SplitwiseSim's end-to-end decode medians (p10 x1.94, p90 x2.44 over its
 * 16 tp4 configurations; calib/e2e_gap.sh on ../shared/data/e2e/
 * splitwise_perf_model.csv, src/result.c E2E_GAP): e2e_gap_note says so
 * with the one-sided high end, step_s x 2.44 (to the note's 4 digits),
 * and step_s_high stays the kernels' own; a100-sxm-80g under vLLM at tp8
 * x2.78 (p90 x3.05); none on b200 (no end-to-end data) nor --ideal.
 * Before: no such key.  (c) vLLM's prefill dispatch, 32 x 0.8 ms = 25.6 ms
 * of llama3-8b's 128-token TTFT on h100-sxm, is 79% of it (the row's
 * prefill_dispatch_s / ttft_s, to the note's whole percent), a share the
 * band leaves out and its source gives no range for ("~0.8ms/layer",
 * AIConfigurator vllm_backend.py): prefill_dispatch_note says so. */
static void e2e_gap_and_dispatch_caution(void **state)
{
    (void)state;
    cJSON *j = run_json("step --model llama2-70b --hw h100-sxm --engine trtllm --tp 4 --batch 16 "
                        "--context 1088 --format json");
    const char *g = cJSON_GetStringValue(cJSON_GetObjectItem(j, "e2e_gap_note"));
    assert_non_null(g);
    assert_non_null(strstr(g, "ran x2.00 the trtllm tables' prediction at tp4 (p10 x1.94, p90 "
                              "x2.44; this TP)"));
    const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0);
    double step = cJSON_GetNumberValue(cJSON_GetObjectItem(row, "step_s"));
    char want[64];
    snprintf(want, sizeof want, "step_s x 2.44 = %.4g ms", step * 2.44 * 1e3);
    assert_non_null(strstr(g, want));
    assert_true(cJSON_GetNumberValue(cJSON_GetObjectItem(row, "step_s_high")) < step * 2.44);
    cJSON_Delete(j);
    j = run_json("step --model llama2-70b --hw a100-sxm-80g --engine vllm --tp 8 --batch 8 "
                 "--context 640 --format json");
    g = cJSON_GetStringValue(cJSON_GetObjectItem(j, "e2e_gap_note"));
    assert_non_null(g);
    assert_non_null(strstr(g, "ran x2.78 the vllm tables' prediction at tp8 (p10 x2.71, p90 x3.05"));
    cJSON_Delete(j);
    /* tester81 #3: the gap follows the chip the tables were measured on
     * (measured_on), not the spec's name: h100-sxm renamed a100-sxm-80g read
     * A100's x2.89 at tp8, renamed foo lost the note; H100's tp8 gap x3.38
     * (p90 x3.56) is kept */
    static const char *const renamed[] = {"a100-sxm-80g", "foo"};
    for (int i = 0; i < 2; i++) {
        char cmd[200];
        snprintf(cmd, sizeof cmd, "step --model llama2-70b --hw h100-sxm --engine trtllm --tp 8 "
                 "--batch 8 --context 640 --set hw.name=%s --format json", renamed[i]);
        j = run_json(cmd);
        g = cJSON_GetStringValue(cJSON_GetObjectItem(j, "e2e_gap_note"));
        assert_non_null(g);
        assert_non_null(strstr(g, "ran x3.38 the trtllm tables' prediction at tp8"));
        cJSON_Delete(j);
    }
    static const char *const none[] = {"b200", "h100-sxm --ideal"}; /* no data; no tables */
    for (int i = 0; i < 2; i++) {
        char cmd[160];
        snprintf(cmd, sizeof cmd, "step --model llama2-70b --hw %s --tp 4 --batch 8 --context 640 "
                 "--format json", none[i]);
        j = run_json(cmd);
        assert_null(cJSON_GetObjectItem(j, "e2e_gap_note"));
        cJSON_Delete(j);
    }
    dispatch_share_said("prefill --model llama3-8b --hw h100-sxm --engine vllm --tokens 128 "
                        "--format json", 0.78, 0.80);
    /* fixJM #3: a small share keeps two significant digits (it read "up to
     * 0%"): 126 layers x 0.8 ms = 100.8 ms of dispatch on a 164 s TTFT
     * (100,000 tokens of llama3.1-405b on one h100), 0.061% */
    dispatch_share_said("prefill --model llama3.1-405b --hw h100-sxm --engine vllm "
                        "--tokens 100000 --format json", 0.0005, 0.0007);
}

/* What an engine-timed result leaves out and adds (tester28 F8): vLLM's
 * prefill carries 32 layers x 0.8 ms = 25.6 ms of dispatch on every TTFT,
 * AIConfigurator's constant, and no engine has a per-step host cost.  The
 * header names both (host_cost_note, prefill_dispatch_note, with the
 * source); TensorRT-LLM (dispatch 0) has the first only; --ideal neither;
 * ops --phase prefill, whose ttft_s carries the dispatch since tester54 F2,
 * the dispatch note too; ops of a decode step none. */
static void host_cost_notes(void **state)
{
    (void)state;
    cJSON *j = json2("prefill --model llama3-8b --hw h100-sxm --engine vllm --tokens 128 "
                     "--format json", "");
    const cJSON *d = cJSON_GetObjectItem(j, "prefill_dispatch_note");
    assert_true(cJSON_IsString(d));
    assert_non_null(strstr(d->valuestring, "25.6 ms (32 layers x 0.8 ms"));
    assert_non_null(strstr(d->valuestring, "AIConfigurator"));
    assert_true(cJSON_IsString(cJSON_GetObjectItem(j, "host_cost_note")));
    cJSON_Delete(j);
    j = json2("prefill --model llama3-8b --hw h100-sxm --engine trtllm --tokens 128 "
              "--format json", "");
    assert_null(cJSON_GetObjectItem(j, "prefill_dispatch_note"));
    const cJSON *hc = cJSON_GetObjectItem(j, "host_cost_note");
    assert_true(cJSON_IsString(hc));
    assert_non_null(strstr(hc->valuestring, "kernel + collective time"));
    cJSON_Delete(j);
    j = run_json("ops --model llama3-8b --hw h100-sxm --engine vllm --phase prefill --tokens 128 "
                 "--format json");
    assert_true(cJSON_IsString(cJSON_GetObjectItem(j, "prefill_dispatch_note")));
    assert_true(cJSON_IsString(cJSON_GetObjectItem(j, "host_cost_note")));
    cJSON_Delete(j);
    j = run_json("ops --model llama3-8b --hw h100-sxm --engine vllm --batch 8 --context 1024 "
                 "--format json");
    assert_null(cJSON_GetObjectItem(j, "prefill_dispatch_note"));
    assert_null(cJSON_GetObjectItem(j, "ttft_s"));
    cJSON_Delete(j);
    j = run_json("step --model llama3-8b --hw h100-sxm --batch 1 --context 2048 --ideal "
                 "--format json");
    assert_null(cJSON_GetObjectItem(j, "host_cost_note"));
    cJSON_Delete(j);
    /* tester50 F17: the table and CSV formats say it on stderr too, once (JSON: its key,
     * and run_json above parsed stdout + stderr, so none there) */
    static const char note[] = "note: step times are kernel + collective time: no per-step host "
                               "cost of the trtllm engine";
    for (int csv = 0; csv < 2; csv++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "step --model llama3-70b --hw h100-sxm --tp 8 --batch 1 "
                 "--context 1024%s", csv ? " --format csv" : "");
        assert_int_equal(run_cli(cmd, out, sizeof out), 0);
        const char *at = strstr(out, note);
        if (!at || strstr(at + 1, note) || !strstr(out, "lower bound on an engine's end-to-end "
                                                        "step, furthest below it at small batch"))
            fail_msg("%s", out);
    }
}

/* tester31 F12: `step --sharding 2d --chips 16` without --tp said "x: 4
 * must divide tp = 1 and leave YZ > 1" (the plan spans tp chips, 1 by
 * default): now exit 2 saying to give --tp, with --chips' count; with
 * --tp 16 the same line runs (2d 4x4). */
static void sharding_2d_asks_for_tp(void **state)
{
    (void)state;
    const char *base = "step --model llama3-70b --hw tpu-v5e --chips 16 --sharding 2d --x 4 "
                       "--batch 64 --context 4096 --ideal";
    assert_int_equal(cli2(base, ""), 2);
    if (!strstr(out, "--sharding 2d: give --tp N, the chips the 2D plan spans (N >= 4: two axes "
                     "of >= 2 chips; --tp 16 spans all --chips)"))
        fail_msg("%s", out);
    assert_int_equal(cli2(base, " --tp 16"), 0);
}

/* tester40 F4: ops/prefill with --tp above the model's query heads built
 * nothing and read "roofline ops: out of memory", exit 1.  They run the
 * plan check step runs (shard.c rl_shard_check_plan): exit 2 (bad input)
 * with step's reason.  llama3-70b has 64 query heads, llama3-8b 32. */
static void ops_tp_over_heads_refused(void **state)
{
    (void)state;
    static const char *const cmd[] = {
        "ops --model llama3-70b --hw tpu-v5e --chips 128 --tp 128 --batch 1 --context 100",
        "prefill --model llama3-70b --hw tpu-v5e --chips 128 --tp 128 --tokens 100",
    };
    for (size_t i = 0; i < sizeof cmd / sizeof *cmd; i++) {
        int rc = run_cli(cmd[i], out, sizeof out);
        if (rc != 2 || !strstr(out, "tp: 128 exceeds the 64 query heads") ||
            strstr(out, "out of memory"))
            fail_msg("roofline %s: exit %d: %s", cmd[i], rc, out);
    }
    int rc = run_cli("prefill --model llama3-8b --hw h100-sxm --chips 64 --tp 64 --tokens 100", out,
                     sizeof out);
    if (rc != 2 || !strstr(out, "tp: 64 exceeds the 32 query heads"))
        fail_msg("prefill tp64 llama3-8b: exit %d: %s", rc, out);
}

/* tester40 F3: simulate --chips 128 on llama3-70b (one tp128 replica over
 * 64 query heads) said "the weights (1979.1 GB) leave no KV room ..." (a
 * made-up figure: the usable HBM).  It gives step's plan reason, exit 2. */
static void simulate_tp_over_heads_refused(void **state)
{
    (void)state;
    int rc = run_cli("simulate --chips 128 --model llama3-70b --hw h100-sxm --offline --requests 10 "
                     "--prompt-len 100 --out-len 10",
                     out, sizeof out);
    if (rc != 2 || !strstr(out, "tp: 128 exceeds the 64 query heads") || strstr(out, "KV room"))
        fail_msg("simulate --chips 128 llama3-70b: exit %d: %s", rc, out);
}

/* fixW (s32 review, MEDIUM): simulate's "the weights leave no KV room"
 * refusal quoted usable - pool x a token's KV bytes, which under KV copies
 * (MLA's latent cache whole on each of tp8's chips) or a pipeline is not
 * the weights its check used: DeepSeek-V3 bf16 tp8 read 768.0 GB on H100
 * and 277.8 GB on TPU v5e, where step's weight_GB/chip is 169.6 (1356.5 GB
 * on the 8).  The refusal now quotes serve.h rl_serve_hbm_budget, the one
 * function the pool is sized by: a chip's weights and usable bytes equal
 * step's weight_bytes_per_chip and usable_bytes_per_chip for the same plan
 * (printed to 0.1 GB: tolerance 0.051 GB; step's --hbm-reserve at
 * simulate's default 0.1 where no engine memory rule applies, TPU v5e),
 * the total chips x a chip's.
 * The pipeline case (llama3-405b tp2 pp2 on 4 H100) quotes the binding
 * stage's weights, step's 202.9 GB a chip.
 * review39 F3: a pipeline's total is the weights the chips hold, every
 * stage's once (`info`'s weight_bytes for a plan that replicates nothing;
 * llama3-70b pp4 on 4 tpu-v5e: 141.1 GB where the binding stage x 4 read
 * 145.3), and the binding stage is counted from 1 (stage 4 of 4, the LM
 * head's; it read "stage 3 of 4").  `info` (NULL: chips x a chip's) names
 * the model whose weight_bytes the total must equal; `stage` the words the
 * refusal must hold (NULL: none). */
static void refusal_weights_as_step(const char *sim, const char *step, long long chips,
                                    const char *note, const char *info, const char *stage)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "simulate %s --qps 1 --prompt-len 512 --out-len 128 --requests 10",
             sim);
    int rc = run_cli(cmd, out, sizeof out);
    const char *w = strstr(out, "the weights (");
    double chip = 0, all = 0, usable = 0;
    long long n = 0;
    const char *u = w ? strstr(w, "leave no KV room in the ") : NULL;
    if (rc != 2 || !w || sscanf(w, "the weights (%lf GB a chip", &chip) != 1 || !u ||
        sscanf(u, "leave no KV room in the %lf GB a chip usable", &usable) != 1)
        fail_msg("roofline %s: exit %d: %s", cmd, rc, out);
    const char *t = strstr(w, "; ");
    if (chips > 1 && (!t || sscanf(t, "; %lf GB on the %lld chips", &all, &n) != 2 || n != chips))
        fail_msg("roofline %s: no total on the %lld chips: %s", cmd, chips, out);
    if (stage && !strstr(w, stage))
        fail_msg("roofline %s: no '%s': %s", cmd, stage, out);
    snprintf(cmd, sizeof cmd, "step %s --batch 1 --context 640 --format json", step);
    cJSON *st = run_json_noted(cmd, note);
    const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(st, "rows"), 0);
    double want = num(row, "weight_bytes_per_chip") / 1e9;
    double room = num(row, "usable_bytes_per_chip") / 1e9;
    cJSON_Delete(st);
    double total = want * (double)chips;
    if (info) {
        snprintf(cmd, sizeof cmd, "info --model %s --format json", info);
        cJSON *in = run_json_noted(cmd, "");
        total = num(in, "weight_bytes") / 1e9;
        cJSON_Delete(in);
    }
    if (fabs(chip - want) > 0.051 || fabs(usable - room) > 0.051 ||
        (chips > 1 && fabs(all - total) > 0.051))
        fail_msg("%s: refusal %.1f GB a chip (%.1f in all), usable %.1f; step %.4g GB a chip, "
                 "usable %.4g, %.4g GB in all", sim, chip, all, usable, want, room, total);
}

/* stop 48 #3: step --chips 8 --overlap on a calibrated profile said
 * "--overlap refines a plan given with --tp; ... ignored", and step --tp 8
 * --overlap then said the calibrated step ignores it too: a dead end.  The
 * --chips note now says the calibrated step keeps the sum with or without
 * --tp and that --overlap applies to --ideal --tp N --overlap, which does
 * apply it (its breakdown names "--overlap runs the collectives beside"). */
static void step_overlap_note_no_dead_end(void **state)
{
    (void)state;
    int rc = run_cli("step --model llama3-70b --hw h100-sxm --chips 8 --context 2048 --batch 8 "
                     "--overlap", out, sizeof out);
    if (rc != 0 || strstr(out, "refines a plan given with --tp") ||
        !strstr(out, "note: --overlap ignored: h100-sxm's calibrated step adds its collectives "
                     "to the local time with or without --tp") ||
        !strstr(out, "--overlap applies to the ideal roofline of a plan: --ideal --tp N "
                     "--overlap"))
        fail_msg("step --chips 8 --overlap: exit %d: %.1500s", rc, out);
    rc = run_cli("step --model llama3-70b --hw h100-sxm --tp 8 --context 2048 --batch 8 "
                 "--overlap --ideal", out, sizeof out);
    if (rc != 0 || strstr(out, "ignored") ||
        !strstr(out, "--overlap runs the collectives beside the local step"))
        fail_msg("step --ideal --tp 8 --overlap: exit %d: %.1500s", rc, out);
}

/* stop 48 #4: simulate's unresolved-capacity note read "this run misses
 * them:  (0.0667% of requests within them)", the targets it missed left
 * out (cli.c note_unresolved).  llama3-8b on one h100-sxm with
 * lognormal:4000:0.8 prompts under a 0.2 s TTFT target (tester47 F8's
 * slow-rising tail: the figure unresolved) at 2 req/s misses TTFT p99
 * (225.6 ms, cli.c missed_targets): the note names it after "misses them: ".
 * (The stop 48 case, --policy static at 8 req/s, now reads a figure:
 * simulate_static_short_has_figure.) */
static void simulate_unresolved_names_missed(void **state)
{
    (void)state;
    int rc = run_cli("simulate --model llama3-8b --hw h100-sxm --qps 2 --prompt-len "
                     "lognormal:4000:0.8 --out-len lognormal:200:0.8 --requests 1500 "
                     "--ttft-p99 0.2 --tpot-p99 0.05 --seed 1", out, sizeof out);
    const char *at = strstr(out, "this run misses them: ");
    if (rc != 0 || !at || strncmp(at + strlen("this run misses them: "), "TTFT p99 ", 9) != 0)
        fail_msg("simulate unresolved: exit %d: %.2000s", rc, at ? at : out);
}

/* fixRB (stop 48 left, issue 14): a --policy static run far short of its
 * targets read max_sustainable_qps null "unresolved" (the open band: the
 * share of TTFTs over the target grows only about as fast as the load
 * near the figure, so no load within 1.25x of it missed outright).  Under
 * static batching a request waits out the batch running when it arrives,
 * a queue's knee, and here the load asked for (8 req/s) misses TTFT p99
 * by far (243 s against 0.5 s): short whichever load of the band
 * resolves, so the figure stands (serve.c rl_serve_capacity short_static):
 * 0.00884 req/s on main's profiles (the search's 2% lattice; the test
 * asks for a figure above 0 and below 1% of the load, not null, and
 * unresolved false).  Fails before: null, unresolved true. */
static void simulate_static_short_has_figure(void **state)
{
    (void)state;
    int rc = run_cli("simulate --model llama3-8b --hw h100-sxm --qps 8 --prompt-len "
                     "lognormal:1500:0.7 --out-len lognormal:250:0.6 --requests 1500 "
                     "--ttft-p99 0.5 --tpot-p99 0.03 --policy static --format json",
                     out, sizeof out);
    const char *j = strchr(out, '{');
    cJSON *r = j ? cJSON_Parse(j) : NULL;
    cJSON *q = cJSON_GetObjectItem(r, "max_sustainable_qps");
    cJSON *u = cJSON_GetObjectItem(r, "max_sustainable_qps_unresolved");
    int good = rc == 0 && cJSON_IsNumber(q) && q->valuedouble > 0 && q->valuedouble < 0.08 &&
               cJSON_IsFalse(u);
    cJSON_Delete(r);
    if (!good)
        fail_msg("simulate --policy static far short: exit %d: %.2000s", rc, out);
}

/* stop 48 #7: step's table ran lines of up to 1,415 characters, its
 * norm_fusion cell about 800 of them in every row, and e2e_gap_note and
 * host_cost_note stood whole both on stderr and in the header.  Now a text
 * cell over 80 characters (report.c RL_TABLE_CELL_MAX) reads "[N]" and is
 * printed once under its table as "[N] norm_fusion: ..." (llama3-70b tp8
 * at batch 1, 8, 64 on h100-sxm: two distinct texts, the batch-64 row's
 * AllReduce past the fused kernel's sizes), every row line is within 500
 * characters (479: the row's 30 columns), the header's two notes point
 * to stderr, and the JSON keeps each row's whole norm_fusion (a contract). */
static void step_table_long_cells_noted(void **state)
{
    (void)state;
    static const char cmd[] = "step --model llama3-70b --hw h100-sxm --tp 8 --context 2048 "
                              "--batch 1,8,64";
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    const char *rows = strstr(out, "\nphase ");
    assert_non_null(rows);
    for (const char *l = rows + 1; *l && *l != '\n'; l = strchr(l, '\n') + 1) {
        const char *e = strchr(l, '\n');
        if (!e || e - l > 500)
            fail_msg("a row line of %ld characters: %.200s", e ? (long)(e - l) : -1L, l);
    }
    if (count_of(out, "[1] norm_fusion: ") != 1 || count_of(out, "in the AllReduce: each "
                                                                  "residual add") != 1 ||
        count_of(out, "SplitwiseSim's end-to-end decode step medians") != 1 ||
        !strstr(out, "e2e_gap_note                 said on stderr above"))
        fail_msg("%s: %.3000s", cmd, out);
    char js[128];
    snprintf(js, sizeof js, "%s --format json", cmd);
    cJSON *j = run_json(js);
    const char *nf = cJSON_GetStringValue(
        cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0), "norm_fusion"));
    assert_non_null(nf);
    assert_true(strlen(nf) > 80 && !strncmp(nf, "in the AllReduce: each residual add", 35));
    assert_non_null(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(j, "e2e_gap_note")),
                           "SplitwiseSim"));
    cJSON_Delete(j);
}

/* s32 review LOW (fixW): step --help said the largest batch is "not given
 * for a sharding plan", but step prints max_batch under plans (the header
 * and each row since tester37 F1: tp4 x2 of llama3-70b on 8 H100 at 4096
 * tokens, 266 = 2 replicas x 133 since trtllm's activation workspace,
 * memory.h rl_memory_workspace; 268 before).  The help now says so. */
static void step_help_max_batch_under_plans(void **state)
{
    (void)state;
    int rc = run_cli("step --help", out, sizeof out);
    if (rc != 0 || strstr(out, "not given for a sharding plan") ||
        !strstr(out, "under a sharding plan the plan's"))
        fail_msg("step --help: exit %d: %.1500s", rc, out);
    cJSON *st = run_json_noted("step --model llama3-70b --hw h100-sxm --chips 8 --tp 4 --batch 1 "
                               "--context 4096 --format json", "");
    assert_true(num(st, "max_batch") == 266);
    assert_true(num(cJSON_GetArrayItem(cJSON_GetObjectItem(st, "rows"), 0), "max_batch") == 266);
    cJSON_Delete(st);
}

static void simulate_refusal_quotes_step_weights(void **state)
{
    (void)state;
    refusal_weights_as_step("--model deepseek-v3 --hw h100-sxm --chips 8",
                            "--model deepseek-v3 --hw h100-sxm --chips 8", 8, "", NULL, NULL);
    refusal_weights_as_step("--model deepseek-v3 --hw tpu-v5e --chips 8",
                            "--model deepseek-v3 --hw tpu-v5e --chips 8 --hbm-reserve 0.1", 8,
                            "nothing measured", NULL, NULL);
    refusal_weights_as_step("--model llama3-405b --hw h100-sxm --chips 4 --pp 2",
                            "--model llama3-405b --hw h100-sxm --chips 4 --tp 2 --pp 2", 4, "",
                            "llama3-405b", " on stage 2 of 2, the binding one, as step's");
    refusal_weights_as_step("--model llama3-70b --hw tpu-v5e --chips 4 --pp 4",
                            "--model llama3-70b --hw tpu-v5e --chips 4 --tp 1 --pp 4 "
                            "--hbm-reserve 0.1", 4, "nothing measured", "llama3-70b",
                            " on stage 4 of 4, the binding one, as step's");
    refusal_weights_as_step("--model llama3-70b --hw h100-sxm",
                            "--model llama3-70b --hw h100-sxm --tp 1", 1, "", NULL, NULL);
}

/* tester40 F2: validate --against on a chip with nothing measured (tpu-v5e)
 * timed a llama3-70b tp16 decode row (tp above the 8 KV heads) at 15.48 ms,
 * mode ideal (the ideal engine costs, half the KV read), where
 * `step --chips 16 --tp 16 --batch 32 --context 4096` gives 18.65 ms,
 * estimated, kv=replicate (formula (1): 10.816 weights + 6.555 KV + 1.28
 * collectives).  The row takes step's path: same time to 0.1%, same mode. */
static void validate_unmeasured_row_as_step(void **state)
{
    (void)state;
    char csv[256];
    snprintf(csv, sizeof csv, "%s/fixU_v1.csv", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    FILE *f = fopen(csv, "w");
    assert_non_null(f);
    fputs("phase,model,hw,tp,batch,context,tokens,measured_s\n"
          "decode,llama3-70b,tpu-v5e,16,32,4096,,0.018651\n", f);
    fclose(f);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "validate --against %s --model llama3-70b --hw tpu-v5e --format json",
             csv);
    cJSON *v = run_json_noted(cmd, "");
    cJSON *st = run_json_noted("step --model llama3-70b --hw tpu-v5e --chips 16 --tp 16 --batch 32 "
                               "--context 4096 --format json", "nothing measured");
    const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(v, "rows"), 0);
    double pred = num(row, "predicted_s");
    double step = num(cJSON_GetArrayItem(cJSON_GetObjectItem(st, "rows"), 0), "step_s");
    if (fabs(pred / step - 1) > 1e-3 ||
        strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(row, "mode")), "estimated") != 0)
        fail_msg("validate tpu-v5e tp16 row %.5g s (%s) vs step %.5g s", pred,
                 cJSON_GetStringValue(cJSON_GetObjectItem(row, "mode")), step);
    remove(csv);
    cJSON_Delete(v);
    cJSON_Delete(st);
}

/* A temporary folder holding `name` with `text`: its path to dir (64
 * bytes), the file's to csv (300). */
static void csv_in_temp(char *dir, char *csv, const char *name, const char *text)
{
    snprintf(dir, 64, "/tmp/rl_fixV_XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(csv, 300, "%s/%s", dir, name);
    FILE *f = fopen(csv, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* tester41 F1: validate --against whose every row is longer than the
 * model's max_context (llama2-70b: 4096) left them all out and exited 0
 * with measured_rows 0 and errors of 0.  Now exit 2 naming the file and
 * the first such row, and nothing written (--save, --plot). */
static void validate_no_rows_left(void **state)
{
    (void)state;
    char dir[64], csv[300], cmd[1024], path[400];
    csv_in_temp(dir, csv, "long.csv", "phase,hw,tp,batch,context,tokens,measured_s\n"
                                      "decode,h100-sxm,2,1,100000,,0.037\n"
                                      "prefill,h100-sxm,2,1,,200000,0.5\n");
    for (int plot = 0; plot < 2; plot++) { /* with --plot gnuplot said 'No valid data points' */
        char fig[128] = "";
        if (plot)
            snprintf(fig, sizeof fig, " --plot %s/p.png", dir);
        snprintf(cmd, sizeof cmd, "validate --against %s --model llama2-70b --hw h100-sxm%s --save "
                 "%s/v.json --format json", csv, fig, dir);
        int rc = run_cli(cmd, out, sizeof out);
        if (rc != 2 || !strstr(out, "long.csv: no rows left: every row exceeds its model's "
                                    "max_context (the first: line 2 holds 100000 tokens"))
            fail_msg("%s: exit %d: %s", cmd, rc, out);
    }
    static const char *const none[] = {"p.png", "p.dat", "p.gp", "v.json"};
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, none[i]);
        if (access(path, F_OK) == 0)
            fail_msg("%s written", path);
    }
    assert_int_equal(remove_tree(dir), 0);
}

/* tester41 F2: validate --against took --passes and --holdout (options of
 * its --backend and --tables sources) and ignored them.  Each option one
 * source reads alone (param.c rows flagged RL_PF_BACKEND / RL_PF_TABLES)
 * is refused beside another source, exit 2, naming the option and its
 * source, before anything is read or written. */
static void validate_source_options_refused(void **state)
{
    (void)state;
    char dir[64], csv[300], cmd[1024], path[400];
    csv_in_temp(dir, csv, "one.csv", "phase,hw,tp,batch,context,tokens,measured_s\n"
                                     "decode,h100-sxm,2,1,1024,,0.037\n");
    static const struct {
        const char *source, *flag, *want;
    } c[] = {
        {"--against", "--passes 3", "--passes is not an option of validate --against: it is "
                                    "--backend's"},
        {"--against", "--holdout 4", "--holdout is not an option of validate --against: it is "
                                     "--tables's"},
        {"--against", "--quick", "--quick is not an option of validate --against"},
        {"--against", "--device-unchecked", "--device-unchecked is not an option of validate "
                                            "--against: it is --tables's"},
        {"--tables", "--passes 3", "--passes is not an option of validate --tables: it is "
                                   "--backend's"},
        {"--backend", "--holdout 4", "--holdout is not an option of validate --backend: it is "
                                     "--tables's"},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        char src[400];
        snprintf(src, sizeof src, "%s %s%s", c[i].source,
                 !strcmp(c[i].source, "--against") ? csv
                 : !strcmp(c[i].source, "--tables") ? dir
                                                     : "cpu",
                 !strcmp(c[i].source, "--tables") ? " --engine trtllm" : "");
        snprintf(cmd, sizeof cmd, "validate %s --model llama2-70b --hw h100-sxm %s --save %s/v.json",
                 src, c[i].flag, dir);
        int rc = run_cli(cmd, out, sizeof out);
        if (rc != 2 || !strstr(out, c[i].want))
            fail_msg("%s: exit %d: %s", cmd, rc, out);
        snprintf(path, sizeof path, "%s/v.json", dir);
        assert_int_equal(access(path, F_OK), -1);
    }
    assert_int_equal(remove_tree(dir), 0);
}

/* tester41 F3: validate --against a one-row CSV with --plot: gnuplot
 * warned on stderr ("Can't compute errors of slope and intercept. Not
 * enough data points": plots/validate_e2e.gp's two-column stats fits a
 * line).  Now nothing but the result is printed and the PNG is drawn
 * (where gnuplot is installed).  (The script also widens the axes to
 * whole decades, 0.01 to 0.1 here, so they carry numbers: seen on the
 * figure, not checked.) */
static void validate_one_row_plot(void **state)
{
    (void)state;
    char dir[64], csv[300], cmd[1024], path[400];
    csv_in_temp(dir, csv, "one.csv", "phase,hw,tp,batch,context,tokens,measured_s\n"
                                     "decode,h100-sxm,2,1,1024,,0.037\n");
    snprintf(cmd, sizeof cmd, "validate --against %s --model llama2-70b --hw h100-sxm --plot "
             "%s/p.png --format json", csv, dir);
    int rc = run_cli(cmd, out, sizeof out);
    if (rc != 0 || out[0] != '{' || strstr(out, "arning"))
        fail_msg("exit %d, not the JSON alone: %s", rc, out);
    snprintf(path, sizeof path, "%s/p.png", dir);
    if (system("command -v gnuplot >/dev/null 2>&1") == 0)
        assert_int_equal(access(path, F_OK), 0);
    /* tester46 F11: the key lists the classes with rows only (it listed
     * static, and prefill here, beside one decode row) */
    snprintf(path, sizeof path, "%s/p.gp", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = '\0';
    fclose(f);
    if (!strstr(out, "has0 = 1\nhas1 = 0\nhas2 = 0\n") || !strstr(out, "(has2 ? 'static' : '')"))
        fail_msg("p.gp does not draw the decode class alone: %s", out);
    assert_int_equal(remove_tree(dir), 0);
}

/* tester41 F4: validate --against rows lacked step's kv_split, the KV
 * layout beyond the K KV heads the row was timed in.  llama3-8b (K = 8)
 * decode at tp16 on h100-sxm: step --tp 16's kv_split (replicate, the
 * engines' default); the same row under --engine ideal: batch, step
 * --ideal's; a prefill row: replicate (a prefill splits no KV head beyond
 * K).  The CSV carries the column too. */
static void validate_rows_name_kv_split(void **state)
{
    (void)state;
    char dir[64], csv[300], cmd[1024];
    csv_in_temp(dir, csv, "kv.csv", "phase,hw,tp,batch,context,tokens,measured_s\n"
                                    "decode,h100-sxm,16,8,1024,,0.004\n"
                                    "prefill,h100-sxm,16,1,,1024,0.01\n");
    cJSON *st = run_json_noted("step --model llama3-8b --hw h100-sxm --tp 16 --batch 8 --context "
                               "1024 --format json", "");
    cJSON *sti = run_json_noted("step --model llama3-8b --hw h100-sxm --ideal --tp 16 --batch 8 "
                                "--context 1024 --format json", "");
    static const char *const engine[2] = {"", " --engine ideal"};
    const cJSON *want[2] = {cJSON_GetObjectItem(st, "kv_split"), cJSON_GetObjectItem(sti, "kv_split")};
    assert_string_equal(want[0]->valuestring, "replicate");
    assert_string_equal(want[1]->valuestring, "batch");
    for (int e = 0; e < 2; e++) {
        snprintf(cmd, sizeof cmd, "validate --against %s --model llama3-8b --hw h100-sxm%s "
                 "--format json", csv, engine[e]);
        cJSON *v = run_json_noted(cmd, "");
        const cJSON *rows = cJSON_GetObjectItem(v, "rows");
        const char *got[2];
        for (int i = 0; i < 2; i++)
            if (!(got[i] = cJSON_GetStringValue(
                      cJSON_GetObjectItem(cJSON_GetArrayItem(rows, i), "kv_split"))))
                fail_msg("%s: row %d has no kv_split", cmd, i);
        assert_string_equal(got[0], want[e]->valuestring);
        assert_string_equal(got[1], "replicate");
        cJSON_Delete(v);
    }
    snprintf(cmd, sizeof cmd, "validate --against %s --model llama3-8b --hw h100-sxm --format csv",
             csv);
    int rc = run_cli(cmd, out, sizeof out);
    if (rc != 0 || !strstr(out, ",pp,kv_split,batch,") || !strstr(out, ",16,1,1,replicate,8,"))
        fail_msg("exit %d: %s", rc, out);
    cJSON_Delete(st);
    cJSON_Delete(sti);
    assert_int_equal(remove_tree(dir), 0);
}

/* tester44 F9: a draft no smaller than the target (llama3-70b, 70.6 B active
 * parameters, drafting for llama3-8b, 8.03 B) was accepted without a word
 * while TPOT came out 6.8x worse; now a note says why, and a smaller draft
 * (llama3-8b for llama3-70b) gets none. */
static void spec_draft_not_smaller_noted(void **state)
{
    (void)state;
    const char *w = "--qps 1 --requests 20 --prompt-len 500 --out-len 100 --format json";
    char args[512];
    snprintf(args, sizeof args, "simulate --model llama3-8b --hw h100-sxm --chips 4 --spec 0.8:4:llama3-70b %s", w);
    cJSON_Delete(run_json_noted(args, "note: --spec draft llama3-70b (70.6 B active parameters) "
                                      "is not smaller than the target llama3-8b (8.03 B)"));
    snprintf(args, sizeof args, "simulate --model llama3-70b --hw h100-sxm --chips 2 "
                                "--spec 0.8:4:llama3-8b %s", w);
    cJSON_Delete(run_json_noted(args, "note: only 20 requests"));
    assert_null(strstr(out, "is not smaller than the target"));
}

/* tester44 F4: a workload naming shared prefixes with no --prefix-cache got
 * 0 hits without a word; now a note counts them (--prefixes 4:1500: every
 * one of 30 requests names one), and with a cache the note is gone. */
static void prefixes_without_cache_noted(void **state)
{
    (void)state;
    const char *w = "simulate --model llama3-70b --hw h100-sxm --chips 8 --qps 2 --requests 30 "
                    "--prompt-len 2000 --out-len 100 --prefixes 4:1500 --format json";
    char args[512];
    cJSON_Delete(run_json_noted(w, "note: 30 of 30 requests name a shared prefix, but without "
                                   "a prefix cache (--prefix-cache GB; absent or 0 here) none is reused"));
    snprintf(args, sizeof args, "%s --prefix-cache 10", w);
    cJSON *j = run_json_noted(args, "note: only 30 requests");
    assert_null(strstr(out, "none is reused"));
    assert_true(num(j, "prefix_hit_rate") > 0.5); /* 4 prefixes of 1500 tokens fit 10 GB */
    cJSON_Delete(j);
}

/* fixWD finding 4: --prefix-cache 1e-9 (an HBM tier under one token)
 * reused nothing and said nothing, where 0.1 GB (762 tokens) said the tier
 * is below the shortest prefix; now the same note for any tier that small
 * (0 tokens here; the prefixes are 1500).  And pareto with
 * price_per_chip_hour 0 returned usd_per_mtok null without a word: now
 * size's no-price note.  Failed before: neither note. */
static void too_small_tier_and_no_price_noted(void **state)
{
    (void)state;
    cJSON_Delete(run_json_noted(
        "simulate --model llama3-70b --hw h100-sxm --chips 8 --qps 2 --requests 30 "
        "--prompt-len 2000 --out-len 100 --prefixes 4:1500 --format json --prefix-cache 1e-9",
        "note: --prefix-cache: the HBM tier holds 0 tokens, less than the shortest prefix "
        "(1500 tokens): no prefix is cached"));
    assert_int_equal(run_cli("pareto --model llama3-8b --hw h100-sxm --chips 1 --batch 1 "
                             "--set hw.price_per_chip_hour=0 --format csv", out, sizeof out), 0);
    assert_non_null(strstr(out, "note: h100-sxm has no price (price_per_chip_hour absent or 0: 0 "
                                "reads as no price, not as free), so usd_per_mtok is null"));
}

/* fixWD finding 2: pareto --context 1024 --prompt 4096 paired a 4096-token
 * prompt's TTFT with decode at 1024 cached tokens, exit 0; a prompt leaves
 * at least its tokens in the cache, so now exit 2 naming both flags, and a
 * --prompt alone raises the default context (2048) to it: the result's
 * row's context is 4096 (exact).  Failed before: exit 0; context 2048. */
static void pareto_context_below_prompt(void **state)
{
    (void)state;
    assert_int_equal(run_cli("pareto --model llama3-8b --hw tpu-v5e --chips 4 --context 1024 "
                             "--prompt 4096", out, sizeof out), 2);
    assert_non_null(strstr(out, "--context 1024 is below --prompt 4096"));
    cJSON *j = run_json("pareto --model llama3-8b --hw h100-sxm --chips 1 --batch 1 "
                        "--prompt 4096 --format json");
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(j, "rows");
    assert_true(num(cJSON_GetArrayItem(rows, 0), "context") == 4096);
    cJSON_Delete(j);
}

/* fixQB (issue 14 follow-up #4): size --hw /tmp/X,d/my.lua split the file's
 * path at its comma and read "/tmp/X: a hardware spec file name must end in
 * .lua"; now exit 2 naming the file and why (the list has no quoting), alone
 * or in a list, and simulate still takes the file. */
static void size_hw_comma_path_refused(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_fixQB_XXXXXX", cmd[1024];
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "mkdir '%s/a,b' && cp %s/hw_profiles/h100-sxm.lua '%s/a,b/my.lua'",
             dir, RL_SRCDIR, dir);
    assert_int_equal(system(cmd), 0);
    for (int list = 0; list < 2; list++) {
        snprintf(cmd, sizeof cmd, "size --model llama3-8b --hw %s%s/a,b/my.lua --qps 20 "
                 "--prompt-len 1000 --out-len 100 --ttft-p99 1 --tpot-p99 0.05",
                 list ? "b200," : "", dir);
        assert_int_equal(run_cli(cmd, out, sizeof out), 2);
        if (!strstr(out, "/a,b/my.lua' is one file whose path holds a comma, but size's --hw is "
                         "a comma-separated list of profiles (no quoting)"))
            fail_msg("%s: %s", cmd, out);
    }
    snprintf(cmd, sizeof cmd, "simulate --model llama3-8b --hw %s/a,b/my.lua --qps 2 "
             "--requests 20 --prompt-len 1000 --out-len 10 --no-capacity", dir);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    assert_int_equal(remove_tree(dir), 0);
}

/* fixQB (issue 14 follow-up #3): simulate --chips 16 runs one tp16 replica
 * where 16 chips' automatic plan is tp8 x2 (shard.h rl_shard_auto_plan), and the
 * result named no plan: replica_sharding names it in step's terms ("tp16",
 * "tp1 ep4 pp2" for mixtral's --chips 8 --ep 4 --pp 2: 4 chips a stage in 4
 * expert groups), and the note names step's plan and the flags for it. */
static void simulate_names_its_plan(void **state)
{
    (void)state;
    cJSON *j = run_json_noted("simulate --model llama3-70b --hw h100-sxm --chips 16 --qps 1 "
                              "--requests 30 --prompt-len 1000 --out-len 10 --no-capacity "
                              "--format json",
                              "16 chips' automatic plan is tp8 x 2 replicas");
    assert_string_equal(cJSON_GetObjectItem(j, "replica_sharding")->valuestring, "tp16");
    assert_non_null(strstr(out, "simulate --chips 8 --replicas 2"));
    cJSON_Delete(j);
    j = run_json_noted("simulate --model mixtral-8x7b --hw h100-sxm --chips 8 --ep 4 --pp 2 "
                       "--qps 1 --requests 30 --prompt-len 1000 --out-len 10 --no-capacity "
                       "--format json", "note: only 30 requests");
    assert_string_equal(cJSON_GetObjectItem(j, "replica_sharding")->valuestring, "tp1 ep4 pp2");
    cJSON_Delete(j);
}

/* fixQB (issue 14 follow-up #3): prefill's --tokens counts the new tokens
 * after --prefix cached ones; simulate's prompt length (a trace's
 * prompt_tokens, --prompt-len) counts the whole prompt, its shared prefix
 * (prefix_tokens, --prefixes N:LEN) included.  A hit on a 1500-token prefix
 * of a 2000-token prompt prefills 500 new tokens over 1500 cached: the same
 * time as prefill --prefix 1500 --tokens 500 (12.32 ms, llama3-8b on one
 * h100-sxm, calibrated), the first request's miss that of prefill --tokens
 * 2000 (42.40 ms); within 1e-9 relative (the two sum the same operator
 * times).  Passed before: it pins the meaning docs/serving.md now states. */
static void prefix_tokens_mean_what_prefill_means(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_fixQB_XXXXXX", args[512];
    assert_non_null(mkdtemp(dir));
    snprintf(args, sizeof args, "printf '0,2000,2,1,1500\\n10,2000,2,1,1500\\n20,2000,2,1,1500\\n' "
             "> %s/t.csv", dir);
    assert_int_equal(system(args), 0);
    snprintf(args, sizeof args, "simulate --model llama3-8b --hw h100-sxm --trace %s/t.csv "
             "--prefix-cache 10 --no-capacity --format json", dir);
    cJSON *sim = run_json_noted(args, "note: only 3 requests");
    cJSON *hit = json2("prefill --model llama3-8b --hw h100-sxm --prefix 1500 --tokens 500 ",
                       "--format json");
    cJSON *miss = json2("prefill --model llama3-8b --hw h100-sxm --tokens 2000 ", "--format json");
    double h = num(cJSON_GetArrayItem(cJSON_GetObjectItem(hit, "rows"), 0), "ttft_s");
    double m = num(cJSON_GetArrayItem(cJSON_GetObjectItem(miss, "rows"), 0), "ttft_s");
    if (!(fabs(num(sim, "prefix_hit_rate") - 2.0 / 3.0) < 1e-12) ||
        !(fabs(num(sim, "ttft_p50_s") - h) <= 1e-9 * h) ||
        !(fabs(num(sim, "ttft_max_s") - m) <= 1e-9 * m))
        fail_msg("hit rate %g, TTFT p50 %.12g s vs prefill --prefix 1500 --tokens 500 %.12g s, "
                 "max %.12g s vs prefill --tokens 2000 %.12g s", num(sim, "prefix_hit_rate"),
                 num(sim, "ttft_p50_s"), h, num(sim, "ttft_max_s"), m);
    cJSON_Delete(sim);
    cJSON_Delete(hit);
    cJSON_Delete(miss);
    assert_int_equal(remove_tree(dir), 0);
}

/* fixQB (issue 14 follow-up #2): --prefix-cache with no shared prefix
 * carved its HBM tier out of the KV room with no word: llama3-8b on one
 * h100-sxm read kv_capacity_tokens_per_replica 93,697 under --prefix-cache
 * 50 beside 475,167 without it (50e9 B / 131,072 B a token = 381,470
 * tokens reserved).  Now nothing is reserved, the pool reads 475,167
 * exactly as without the flag, and a note (stderr and prefix_cache_note)
 * says why; with --prefixes the tier is still carved out (93,697). */
static void prefix_cache_without_prefixes_reserves_nothing(void **state)
{
    (void)state;
    const char *w = "simulate --model llama3-8b --hw h100-sxm --qps 2 --requests 30 --no-capacity "
                    "--prompt-len 1000 --out-len 10 --format json --prefix-cache 50";
    cJSON *j = run_json_noted(w, "no request names a shared prefix");
    assert_true(num(j, "kv_capacity_tokens_per_replica") == 475167);
    assert_true(num(j, "prefix_cache_hbm_tokens_per_replica") == 0);
    assert_non_null(strstr(cJSON_GetObjectItem(j, "prefix_cache_note")->valuestring,
                           "the cache reserves nothing"));
    cJSON_Delete(j);
    char args[512];
    snprintf(args, sizeof args, "%s --prefixes 4:500", w);
    j = run_json_noted(args, "note: only 30 requests");
    assert_true(num(j, "kv_capacity_tokens_per_replica") == 93697);
    assert_null(cJSON_GetObjectItem(j, "prefix_cache_note"));
    cJSON_Delete(j);
}

/* tester45 F0: under --policy disagg a request that ends at its first token
 * sends no KV, and its prefill replica held that KV forever (review40 F3's
 * hold read the token count before it counted the first token): the pool
 * (551,639 tokens on this run) filled after ~137 prompts of 4001 tokens and
 * the run printed percentiles of unset latencies (ttft_p99 1.7e243 s),
 * exit 0.  Now all 300 finish; TTFT p99 0.592 s at 0.5 req/s (capacity
 * ~4.2 req/s), checked below 1 s. */
static void disagg_one_token_requests_finish(void **state)
{
    (void)state;
    cJSON *j = run_json("simulate --model llama3-70b --hw h100-sxm --chips 4 --policy disagg "
                        "--qps 0.5 --prompt-len 4000 --out-len 1 --requests 300 --format json");
    assert_int_equal((long long)num(j, "completed"), 300);
    assert_true(num(j, "ttft_p99_s") > 0 && num(j, "ttft_p99_s") < 1);
    cJSON_Delete(j);
}

/* tester45 F1: a disagg run bound by its KV link (llama3-70b on 4 H100, 2
 * req/s of 4000-token prompts, 1.31 GB of KV each, over --set
 * hw.net_bw=1e7: 40 MB/s a replica) was told "TPOT is capped by the batch
 * cap" (its decode batch is about 1), and kv_peak_frac 0.0076 showed the
 * decode pool only.  Now the note names the link, and
 * prefill_kv_peak_frac shows the prefill pool filled by the KV waiting on
 * it: 0.993 on this run, checked above 0.9 (the pool full) and at most 1
 * (take_prefill's room check).  A disagg run bound by its decode batch
 * (max_seqs 8; link busy 0.0013 of the run) keeps the batch-cap wording;
 * without disagg the key is null. */
static void disagg_link_bound_named(void **state)
{
    (void)state;
    cJSON *j = run_json_noted("simulate --model llama3-70b --hw h100-sxm --chips 4 --policy disagg "
                              "--qps 2 --prompt-len 4000 --out-len 200 --requests 200 "
                              "--set hw.net_bw=1e7 --format json",
                              "the bottleneck is the KV link to the decode pool, busy 0.9995");
    assert_null(strstr(out, "batch cap"));
    assert_true(num(j, "prefill_kv_peak_frac") > 0.9 && num(j, "prefill_kv_peak_frac") <= 1);
    assert_true(num(j, "kv_peak_frac") < 0.05);
    cJSON_Delete(j);
    /* tester47 F11: bound by its prefill pool (llama3-8b, 1 prefill and 2
     * decode H100s, 6000-token prompts at 20 req/s, 7.15 req/s completed;
     * the prefill replica busy 0.996 of the run, the decode batch 1.31 of a
     * cap of 256), it was told "TPOT is capped by the batch cap"; now the
     * note names the prefill pool (cli.c prefill_bound: busy 0.9 or more) */
    j = run_json_noted("simulate --model llama3-8b --hw h100-sxm --policy disagg "
                       "--prefill-replicas 1 --replicas 2 --qps 20 --prompt-len 6000 "
                       "--out-len 50 --requests 600 --format json",
                       "the bottleneck is the prefill pool, its 1 replica(s) busy 0.996");
    assert_true(!strstr(out, "batch cap") && num(j, "mean_decode_batch") < 2);
    cJSON_Delete(j);
    j = run_json_noted("simulate --model llama3-8b --hw h100-sxm --policy disagg --qps 20 "
                       "--prompt-len 200 --out-len 500 --requests 300 --max-seqs 8 --format json",
                       "TPOT is capped by the batch cap (max_seqs 8)");
    assert_null(strstr(out, "KV link"));
    cJSON_Delete(j);
    /* tester54 F3: bound by its KV cache (llama3-70b fp8 on one H100, 3000 +
     * 2000-token requests at 3 req/s: KV peak 0.9998, 262 preemptions, the
     * decode batch 17.2 of a cap of 256; 0.9999 and 266 before fixGC ran
     * each residual add and norm as one kernel, engines.c ENGINE_FUSION;
     * 254 preemptions and a batch of 15.6 since trtllm's activation
     * workspace, 1.24 GB here, shrank the pool, memory.h
     * rl_memory_workspace), it was told "TPOT is capped by the batch cap";
     * now the note names the KV cache (cli.c kv_bound) */
    j = run_json_noted("simulate --model llama3-70b --hw h100-sxm --chips 1 --weights fp8 --kv fp8 "
                       "--compute fp8 --qps 3 --prompt-len 3000 --out-len 2000 --requests 500 "
                       "--format json", "and the KV cache is the limit: it peaked at 99.98% of its "
                       "pages (kv_peak_frac) with 254 preemptions while the decode batch "
                       "averaged 15.6, below the batch cap (max_seqs 256)");
    assert_null(strstr(out, "capped by the batch cap"));
    assert_true(num(j, "kv_peak_frac") > 0.95 && num(j, "preemptions") > 0 &&
                num(j, "mean_decode_batch") < 0.9 * 256);
    cJSON_Delete(j);
    /* review46: a run that reaches its cap with the KV nearly full (peak
     * 0.955, no preemption) is the batch cap's, however short: at 400
     * requests ramp and drain held its mean batch to 198 of 256 (under 0.9
     * of it) and it read "the KV cache is the limit"; 2000 read the cap */
    j = run_json_noted("simulate --model llama3-8b --hw h100-sxm --qps 200 --prompt-len 1000 "
                       "--out-len 800 --requests 400 --format json",
                       "and TPOT is capped by the batch cap (max_seqs 256)");
    assert_null(strstr(out, "the KV cache is the limit"));
    assert_true(num(j, "kv_peak_frac") > 0.95 && num(j, "mean_decode_batch") < 0.9 * 256);
    cJSON_Delete(j);
    /* tester56 F2: llama3-70b fp8 on two H100s, 500 + 50 tokens at 60 req/s
     * under max_seqs 1024: the decode batch averaged 388, no request ever
     * waited at the cap, the KV peaked at 77.9% (79% since trtllm's
     * activation workspace shrank the pool, memory.h rl_memory_workspace;
     * 377 and 75.5% since fixWD: a step's prompts share --max-tokens with
     * its decode tokens, serve.c admit_batched; measured);
     * it read "TPOT is capped by
     * the batch cap (max_seqs 1024)".  The step throughput is named now (no
     * step held back by the cap: "in 0% of decode steps"). */
    j = run_json_noted("simulate --model llama3-70b --hw h100-sxm --chips 2 --weights fp8 --kv fp8 "
                       "--compute fp8 --qps 60 --max-seqs 1024 --prompt-len 500 --out-len 50 "
                       "--requests 800 --format json", "and the step throughput (the GPU) is the "
                       "limit: the decode batch averaged 377 and requests waited at the batch cap "
                       "(max_seqs 1024) in 0% of decode steps, the KV cache peaked at 75.5% of its "
                       "pages");
    assert_null(strstr(out, "capped by the batch cap"));
    assert_true(num(j, "mean_decode_batch") < 0.5 * 1024 && num(j, "kv_peak_frac") < 0.95);
    cJSON_Delete(j);
    /* tester101 (t30): --max-tokens 1 held the decode batch to 1 (each
     * decoding sequence takes one of a step's tokens, serve.c
     * admit_batched) of a max_seqs of 256, and the note read "the step
     * throughput (the GPU) is the limit ... a larger batch cap helps
     * little".  Now it names the token budget, from the run's decode steps
     * that left a request waiting with their decode tokens filling it
     * (serve.h decode_steps_at_budget: 99.6% here, measured). */
    j = run_json_noted("simulate --model llama3-8b --hw h100-sxm --qps 5 --prompt-len 1000 "
                       "--out-len 200 --requests 300 --no-capacity --max-tokens 1 --format json",
                       "the decode batch is capped by the step token budget (--max-tokens 1)");
    assert_null(strstr(out, "step throughput (the GPU)"));
    assert_true(num(j, "mean_decode_batch") < 1.01);
    cJSON_Delete(j);
    /* tester102 #2: a static batch admitted at its cap, requests waiting,
     * was counted only at its admission step (no decode in it), and a
     * chunked step filled by its decode tokens and prompt chunks not at all:
     * both read "the step throughput (the GPU) is the limit ... 0% of decode
     * steps" while capacity followed the cap (2.40 -> 5.86 -> 9.24 req/s for
     * max_seqs 8 -> 32 -> 128) and the budget (1.82 -> 6.47 -> 24.4 for
     * max_tokens 16 -> 64 -> 512).  Now 94.9% and 99.1% of decode steps
     * (measured on this build); failed before (0%). */
    j = run_json_noted("simulate --model llama3-8b --hw h100-sxm --chips 1 --qps 20 "
                       "--prompt-len 2000 --out-len 400 --requests 300 --policy static "
                       "--max-seqs 8 --seed 5 --no-capacity --format json",
                       "TPOT is capped by the batch cap (max_seqs 8): a lower TPOT past capacity "
                       "is not a better deployment; requests waited at it in 94.9% of decode steps");
    assert_null(strstr(out, "step throughput (the GPU)"));
    cJSON_Delete(j);
    j = run_json_noted("simulate --model llama3-8b --hw h100-sxm --chips 1 --qps 20 "
                       "--prompt-len 1000 --out-len 200 --requests 300 --policy chunked "
                       "--max-tokens 16 --seed 1 --no-capacity --format json",
                       "each step is capped by the step token budget (--max-tokens 16): each "
                       "decoding sequence takes one of a step's tokens, the prompts' chunks the "
                       "rest, and requests waited with the decode tokens and prefill chunks "
                       "filling it in 99.1% of decode steps");
    assert_null(strstr(out, "step throughput (the GPU)"));
    cJSON_Delete(j);
    j = run_json_noted("simulate --model llama3-8b --hw h100-sxm --qps 2 --prompt-len 200 "
                       "--out-len 50 --requests 100 --format json", "rests on these 100 requests");
    assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(j, "prefill_kv_peak_frac")));
    cJSON_Delete(j);
}

/* tester45 F5: a short disagg run on a starved link (20 requests at 1
 * req/s, 110 tokens of KV each over 1 B/s: 7.6e-8 req/s completed) got no
 * verdict: the short-run rule read the prefill queue only, and the link's
 * wait comes after the first token, so TTFT stays at its service.  Now
 * the link and decode queues count: 18 of 20 waiting at the last arrival
 * (one request on the link, one in prefill), 18 past their service.  The
 * same arrivals on the spec's link keep up and stay silent. */
static void disagg_short_run_starved_link_overloaded(void **state)
{
    (void)state;
    const char *w = "simulate --model llama3-8b --hw h100-sxm --qps 1 --prompt-len 100 "
                    "--out-len 10 --requests 20 --policy disagg --format json";
    char args[512];
    snprintf(args, sizeof args, "%s --set hw.net_bw=1", w);
    cJSON_Delete(run_json_noted(args, "its queues grew: 18 of its 20 requests were waiting for "
                                      "their prefill, the KV link or a decode batch when the last "
                                      "arrived, 18 waited there longer"));
    cJSON_Delete(run_json_noted(w, "note: only 20 requests"));
    assert_null(strstr(out, "overloaded"));
}

/* tester45 F8: a fractional draft that slows decoding got no note (a draft
 * model as large as the target did): --spec 0.8:4:1 on llama3-70b, 4 H100,
 * TPOT p50 27.5 ms against 17.2 ms without.  Leviathan et al. 2023 sec. 3's
 * walltime factor (1 - a^(g+1)) / ((1 - a)(g c + 1)) = 3.3616 / 5 = 0.672
 * (hand-computed) is now quoted; 0.8:4:0.2 (3.3616 / 1.8 = 1.87) gets no
 * note. */
static void spec_fraction_slower_noted(void **state)
{
    (void)state;
    const char *w = "simulate --model llama3-70b --hw h100-sxm --chips 4 --qps 2 --prompt-len 1000 "
                    "--out-len 200 --requests 20 --format json --spec";
    char args[512];
    snprintf(args, sizeof args, "%s 0.8:4:1", w);
    cJSON_Delete(run_json_noted(args, "note: --spec 0.8:4:1: 3.36 expected tokens a verify step"));
    assert_non_null(strstr(out, "a walltime factor of at most 0.672"));
    snprintf(args, sizeof args, "%s 0.8:4:0.2", w);
    cJSON_Delete(run_json_noted(args, "note: only 20 requests"));
    assert_null(strstr(out, "walltime factor"));
}

/* tester47 F10/F14: speculation that slows a loaded server, or one with a
 * draft model, got no note (the load-free gain note, above, sees neither).
 * Now the same requests are simulated without --spec and a note compares:
 * llama3-8b on one H100 at 60 req/s, --spec 0.6:4:0.1 (a load-free factor
 * of 2.306 / 1.4 = 1.65, no gain note) reads TPOT p50 17.88 ms against
 * 15.81 ms without; the "against" figure is the plain run's own tpot_p50_s
 * (4 significant digits: tolerance 5e-4 relative); at 1 req/s no note; a
 * draft model (llama3-8b for llama3-70b on 8 H100 at 100 req/s) is charged
 * at its own step time, and the note says so. */
static void spec_slower_under_load_noted(void **state)
{
    (void)state;
    static const char *const tails[] = {"--qps 60", "--qps 60 --spec 0.6:4:0.1",
                                        "--qps 1 --spec 0.6:4:0.1"};
    double t0 = 0;
    for (int i = 0; i < 3; i++) {
        char args[512];
        snprintf(args, sizeof args, "simulate --model llama3-8b --hw h100-sxm --prompt-len 500 "
                 "--out-len 200 --requests 200 --format json %s", tails[i]);
        assert_int_equal(run_cli(args, out, sizeof out), 0);
        const char *note = strstr(out, "note: --spec 0.6:4:0.1 worsens this run's TPOT");
        if (i == 0) {
            cJSON *j = cJSON_Parse(strchr(out, '{'));
            t0 = num(j, "tpot_p50_s");
            cJSON_Delete(j);
        }
        if (i != 1) {
            assert_null(strstr(out, "worsens this run's"));
            continue;
        }
        const char *a = note ? strstr(note, "ms against ") : NULL;
        if (!a || strstr(out, "walltime factor"))
            fail_msg("%s: %s", args, out);
        assert_rel(strtod(a + 11, NULL) / 1e3, t0, 5e-4);
    }
    cJSON_Delete(run_json_noted("simulate --model llama3-70b --hw h100-sxm --chips 8 --prompt-len "
                                "500 --out-len 200 --requests 200 --qps 100 --format json --spec "
                                "0.8:4:llama3-8b", "worsens this run's"));
    assert_non_null(strstr(out, "draft steps are charged at the draft model's own step time"));
}

/* CLOSING33: the prefix cache's host tier was unbounded, hw.host_bytes
 * parsed and read nowhere.  Now HOST_GB above the replica's host memory
 * (2 chips x 20e9 = 40 GB) is refused, exit 2, nothing on stdout; 40 GB,
 * exactly the bound, runs; without host_bytes (no preset gives it) a note
 * says the tier is unchecked. */
static void prefix_host_tier_bounded(void **state)
{
    (void)state;
    const char *w = "simulate --model llama3-8b --hw h100-sxm --chips 2 --qps 2 --requests 30 "
                    "--prompt-len 2000 --out-len 20 --prefixes 4:1500 --format json --prefix-cache";
    char args[512];
    snprintf(args, sizeof args, "%s 5:50 --set hw.host_bytes=20e9", w);
    assert_int_equal(run_cli(args, out, sizeof out), 2);
    if (!strstr(out, "field 'host_bytes': the prefix cache's host tier (--prefix-cache HBM:HOST) "
                     "of 50 GB a replica exceeds its host memory, 40 GB") || strchr(out, '{'))
        fail_msg("%s: %s", args, out);
    snprintf(args, sizeof args, "%s 5:40 --set hw.host_bytes=20e9", w);
    cJSON_Delete(run_json_noted(args, "note: only 30 requests"));
    assert_null(strstr(out, "not checked against host memory"));
    snprintf(args, sizeof args, "%s 5:50", w);
    cJSON_Delete(run_json_noted(args, "note: --prefix-cache: the host tier's 50 GB are not "
                                      "checked against host memory: h100-sxm gives no host_bytes"));
}

/* The JSON after the notes of `out` (run_cli's merged output: stderr's
 * notes, then the result), parsed; exit 0 required. */
static cJSON *json_after_notes(const char *args)
{
    int rc = run_cli(args, out, sizeof out);
    const char *j = strchr(out, '{');
    if (rc != 0 || !j)
        fail_msg("roofline %s: exit %d: %.600s", args, rc, out);
    cJSON *r = cJSON_Parse(j);
    if (!r)
        fail_msg("roofline %s printed no JSON: %.600s", args, out);
    return r;
}

static const char *str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsString(v))
        fail_msg("missing string '%s'", key);
    return v->valuestring;
}

/* Labels of moved times (docs/model.md; ktable.h rl_provenance_moved):
 * --non-causal on a calibrated prefill is the tables' causal attention
 * scaled by the pairs, said on stderr before the JSON and in
 * attention_timed_by, qk `derived` (it read `measured`, no note, before);
 * a collective on a what-if link (step --tp 2 --set hw.ici_bw=12.5e9,
 * AllReduce 9.4 -> 17.1 us here) reads timed_by "derived: ..." (it read
 * "measured"); the chip as measured keeps "measured". */
static void moved_labels_said(void **state)
{
    (void)state;
    cJSON *r = json_after_notes("ops --model llama3-8b --hw h100-sxm --phase prefill --tokens 8192 "
                                "--non-causal --format json");
    const char *note = strstr(out, "note: --non-causal: the kernel tables time causal attention");
    assert_true(note && note < strchr(out, '{'));
    assert_non_null(strstr(str(r, "attention_timed_by"), "scaled to all query-key pairs"));
    assert_string_equal(str(op_row(r, "qk"), "provenance"), "derived");
    assert_string_equal(str(op_row(r, "q_proj"), "provenance"), "measured");
    cJSON_Delete(r);
    const char *step = "step --model llama3-8b --hw h100-sxm --tp 2 --chips 2 --batch 256 "
                       "--context 2048 --format json";
    char cmd[512];
    for (int k = 0; k < 2; k++) {
        snprintf(cmd, sizeof cmd, "%s%s", step, k ? " --set hw.ici_bw=12.5e9" : "");
        r = json_after_notes(cmd);
        const cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItem(r, "collectives"), 0);
        assert_non_null(c);
        const char *by = str(c, "timed_by");
        if (k ? strncmp(by, "derived: ", 9) != 0 : strcmp(by, "measured") != 0)
            fail_msg("%s: timed_by '%s'", cmd, by);
        cJSON_Delete(r);
    }
}

/* The share of an ops result's operator rows (not collectives) labelled
 * measured or interpolated. */
static double labelled_share(const cJSON *r)
{
    double s = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, cJSON_GetObjectItem(r, "rows"))
    {
        const char *p = str(row, "provenance");
        if (strcmp(str(row, "kind"), "communication") != 0 &&
            (!strcmp(p, "measured") || !strcmp(p, "interpolated")))
            s += num(row, "share");
    }
    return s;
}

/* tester62 #1: one meaning of `derived` for the label, the share and the
 * mode (docs/model.md, "Labels of moved times"): table_time_share is the
 * share column summed over the rows labelled measured or interpolated
 * (1e-9).  llama3-70b tp8 on h100-sxm, decode B 16 at 4096: bf16 reads
 * 0.850 (this build, 1e-3), calibrated; --act fp8 moves the GEMM and
 * attention rows to derived and reads estimated, the share 4.6e-5 (softmax
 * alone; below 0.001) where it read 0.902, calibrated, before.
 * tester62 #5: decode attends to every cached key, causal or not, so
 * --non-causal in decode prints causal true (it read false) with step_s
 * unchanged (1e-12) and the stderr note that it is ignored; a mixed step's
 * prefill chunk honours it (causal false). */
static void ops_labels_decide_share(void **state)
{
    (void)state;
    const char *run = "ops --model llama3-70b --hw h100-sxm --chips 8 --batch 16 --context 4096 "
                      "--format json";
    cJSON *b = json2(run, ""), *f = json2(run, " --act fp8");
    assert_string_equal(str(b, "mode"), "calibrated");
    assert_rel(num(b, "table_time_share"), 0.850, 1e-3);
    assert_rel(num(b, "table_time_share"), labelled_share(b), 1e-9);
    assert_string_equal(str(f, "mode"), "estimated");
    assert_string_equal(str(op_row(f, "q_proj"), "provenance"), "derived");
    assert_true(num(f, "table_time_share") < 1e-3);
    assert_rel(num(f, "table_time_share"), labelled_share(f), 1e-9);
    cJSON_Delete(f);
    cJSON *nc = json_after_notes("ops --model llama3-70b --hw h100-sxm --chips 8 --batch 16 "
                                 "--context 4096 --non-causal --format json");
    assert_non_null(strstr(out, "ignored in decode (for the prefill and mixed phases only): "
                                "--non-causal"));
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(nc, "causal")));
    assert_rel(num(nc, "step_s"), num(b, "step_s"), 1e-12);
    cJSON_Delete(nc);
    cJSON_Delete(b);
    nc = json_after_notes("ops --model llama3-8b --hw h100-sxm --phase mixed --tokens 512 "
                          "--batch 4 --context 1024 --non-causal --format json");
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(nc, "causal")));
    cJSON_Delete(nc);
}

/* tester50 F2: every `estimated` result says why on stderr: a prefill past the
 * GEMM table's grid (table_time_share 9e-6 at 131072 tokens on llama3.1-70b
 * tp8, h100-sxm trtllm; calibrated, no such note, at 16384), ops of the
 * same step, and a --tokens list whose one row is estimated, each row
 * carrying its own mode. */
static void estimated_result_noted(void **state)
{
    (void)state;
    static const char *const noted[] = {
        "prefill --model llama3.1-70b --hw h100-sxm --chips 8 --tokens 131072 --format json",
        "ops --model llama3.1-70b --hw h100-sxm --chips 8 --phase prefill --tokens 131072 "
        "--format json",
        /* 32, not 8192 (fixFL: tp8's norms and residual adds whole on each
         * chip, roofline-timed, leave 8192 tokens table_time_share 0.479,
         * estimated; 32 tokens read 0.691) */
        "prefill --model llama3-8b --hw h100-sxm --chips 8 --tokens 1,128,32 --format json"};
    for (size_t i = 0; i < sizeof noted / sizeof *noted; i++) {
        cJSON *r = json_after_notes(noted[i]);
        assert_string_equal(str(r, "mode"), "estimated");
        if (!strstr(out, "note: mode estimated: ") || strstr(out, "note: mode estimated") > strchr(out, '{'))
            fail_msg("roofline %s: no note that the result is estimated: %.600s", noted[i], out);
        if (!strstr(out, "(table_time_share ") || strstr(out, "(table_time_share ") > strchr(out, '{'))
            fail_msg("roofline %s: the note names no table_time_share: %.600s", noted[i], out);
        cJSON_Delete(r);
    }
    assert_non_null(strstr(out, "(at tokens 128)")); /* the one row below the share */
    cJSON *r = json_after_notes(noted[2]);
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(r, "rows");
    assert_int_equal(cJSON_GetArraySize(rows), 3);
    static const char *const want[] = {"calibrated", "estimated", "calibrated"};
    for (int i = 0; i < 3; i++)
        assert_string_equal(str(cJSON_GetArrayItem(rows, i), "mode"), want[i]);
    cJSON_Delete(r);
    /* 16384 (share 0.641), not 32768: that one reads 0.471 since fixFL ran
     * tp8's norms and residual adds whole on each chip, roofline-timed
     * (0.511 before) */
    r = json_after_notes("prefill --model llama3.1-70b --hw h100-sxm --chips 8 --tokens 16384 --format json");
    assert_string_equal(str(r, "mode"), "calibrated");
    assert_null(strstr(out, "mode estimated"));
    cJSON_Delete(r);
    /* tester52 F2: two causes, each named once: h100-pcie's figures borrowed
     * from h100-sxm's tables (the changed-chip note) and 96% of the step
     * untimed, int8 KV attention derived from another dtype's table at
     * context 100000 (its note was silenced by the first) */
    r = json_after_notes("step --model llama3.1-8b --hw h100-pcie --kv int8 --batch 64 "
                         "--context 100000 --format json");
    assert_string_equal(str(r, "mode"), "estimated");
    const char *chip = strstr(out, "changes the chip"), *est = strstr(out, "note: mode estimated: ");
    const char *json = strchr(out, '{'), *again = chip ? strstr(chip + 1, "changes the chip") : NULL;
    assert_true(chip && chip < json && est && est < json);
    assert_true(!again || again > json); /* the JSON's engine_source says it too */
    assert_null(strstr(est + 1, "note: mode estimated: "));
    assert_non_null(strstr(est, "derived (another dtype's table"));
    cJSON_Delete(r);
    /* one cause said once: tpu-v5e has nothing measured, which is also why
     * no table times its step (table_time_share 0): no second note */
    r = json_after_notes("step --model llama3-8b --hw tpu-v5e --batch 1 --context 100 "
                         "--format json");
    assert_string_equal(str(r, "mode"), "estimated");
    assert_non_null(strstr(out, "tpu-v5e has nothing measured"));
    assert_null(strstr(out, "note: mode estimated"));
    cJSON_Delete(r);
    /* review45: the same on a fitted profile with no tables whose costs do
     * not time an EP plan (h100-sxm-splitwise, table_time_share 0): its
     * mode_note says why, once; no share note says "beyond what the tables
     * measured" of tables it does not have */
    r = json_after_notes("step --model mixtral-8x7b --hw h100-sxm-splitwise --tp 2 --ep 4 "
                         "--batch 8 --context 2048 --format json");
    assert_string_equal(str(r, "mode"), "estimated");
    est = strstr(out, "note: mode estimated: ");
    assert_true(est && strstr(est, "fitted costs do not time this run"));
    assert_null(strstr(est + 1, "note: mode estimated: "));
    assert_null(strstr(out, "not timed by a measured or interpolated kernel"));
    cJSON_Delete(r);
    /* review45: validate --against's mode_note (rows of a chip --hw does not
     * serve, here tpu-v4 beside --hw tpu-v5e, both estimated) is said once,
     * as its warning, not again as why the mode is estimated */
    char dir[] = "/tmp/rl_modenote_XXXXXX", cmd[256];
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "printf 'phase,tp,batch,context,measured_s,hw\\ndecode,1,8,100,0.03,"
             "tpu-v4\\ndecode,1,8,100,0.03,\\n' > %s/m.csv", dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "validate --against %s/m.csv --model llama3-8b --hw tpu-v5e "
             "--format json", dir);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    static const char other_rows[] = "1 of 2 rows name a chip that --hw tpu-v5e does not serve";
    const char *other = strstr(out, other_rows), *brace = strchr(out, '{');
    assert_true(other && brace && other < brace); /* the warning, before the JSON */
    const char *twice = strstr(other + 1, other_rows);
    assert_true(!twice || twice > brace); /* else only the JSON's mode_note */
    assert_null(strstr(out, "note: mode estimated: 1 of 2 rows"));
    assert_int_equal(remove_tree(dir), 0);
}

/* tester50 F4: a trace's offered rate is its arrivals' own, arrival_req_per_s: one
 * request has none (qps null, said; it read qps 1), and arrivals at 0 and
 * 2 s read 0.5 exactly (it read 0.49999999999975, the span + 1e-12). */
static void trace_rate_is_the_arrivals(void **state)
{
    (void)state;
    static const char *const text[] = {"0,1000,100\n", "5,1000,100\n", "0,1000,100\n2,1000,100\n"};
    for (int i = 0; i < 3; i++) {
        char path[64], args[256];
        write_temp(path, ".csv", text[i]);
        snprintf(args, sizeof args, "simulate --model llama3-8b --hw h100-sxm --trace %s --format json",
                 path);
        cJSON *r = json_after_notes(args);
        const cJSON *q = cJSON_GetObjectItemCaseSensitive(r, "qps");
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(r, "arrival_req_per_s");
        if (i < 2) {
            assert_true(cJSON_IsNull(q));
            assert_true(cJSON_IsNull(a));
            assert_non_null(strstr(out, "its one request arrives at t = "));
        } else {
            assert_true(cJSON_IsNumber(q) && cJSON_IsNumber(a));
            assert_true(q->valuedouble == 0.5 && a->valuedouble == 0.5); /* (2 - 1) / 2 s, exact */
        }
        cJSON_Delete(r);
        unlink(path);
    }
}

/* tester50 F3: a paged KV cache charges whole pages (vLLM PagedAttention, Kwon et
 * al. SOSP 2023): llama3-8b on h100-sxm holds 475167 KV tokens a replica
 * (479545 before trtllm's activation workspace, memory.h
 * rl_memory_workspace), floor(475167 / 50000) = 9 pages of 50000, so one
 * 1000 + 200-token sequence peaks at 1/9 of the pool (it read 0.0582,
 * tokens + page / 2) and 40 offline requests run at most 9 at once (17
 * ran); at --page 1024 it holds 2 of floor(475167 / 1024) = 464 pages (it
 * read 0.00357).
 * Exact ratios of whole pages: tolerance 1e-12. */
static void kv_whole_pages(void **state)
{
    (void)state;
    /* max_context raised to the page: a longer page is refused (fixGI #5) */
    const char *base = "simulate --model llama3-8b --hw h100-sxm --offline --prompt-len 1000 "
                       "--out-len 200 --set model.max_context=50000 --format json ";
    char args[512];
    snprintf(args, sizeof args, "%s--requests 1 --page 50000", base);
    cJSON *r = json_after_notes(args);
    assert_int_equal((long long)num(r, "kv_capacity_tokens_per_replica"), 475167);
    assert_float_equal(num(r, "kv_peak_frac"), 1.0 / 9, 1e-12);
    cJSON_Delete(r);
    snprintf(args, sizeof args, "%s--requests 1 --page 1024", base);
    r = json_after_notes(args);
    assert_float_equal(num(r, "kv_peak_frac"), 2.0 / 464, 1e-12);
    cJSON_Delete(r);
    snprintf(args, sizeof args, "%s--requests 40 --page 50000", base);
    r = json_after_notes(args);
    assert_true(num(r, "mean_decode_batch") <= 9);
    assert_true(num(r, "kv_peak_frac") <= 1 + 1e-12);
    cJSON_Delete(r);
}

/* tester50 F13: an sd beyond 10x the parameter's value or its whole range is no
 * estimate: null (prefill_step_s at 0 on tester50's static rows printed sd
 * 5e+148), every other sd within 10x its range (fit.h
 * RL_FIT_SD_UNIDENTIFIED; the widest range, decode_seq_s's, is 99 s). */
static void fit_sd_bounded(void **state)
{
    (void)state;
    cJSON *r = json_after_notes("fit " RL_SRCDIR "/tests/data/e2e/t50_static.csv --hw h100-sxm "
                                "--model llama3-8b --format json");
    const cJSON *ps = cJSON_GetObjectItemCaseSensitive(r, "parameters"), *p;
    int seen = 0;
    cJSON_ArrayForEach(p, ps) {
        const cJSON *sd = cJSON_GetObjectItemCaseSensitive(p, "sd");
        assert_true(cJSON_IsNull(sd) || (cJSON_IsNumber(sd) && sd->valuedouble < 990));
        if (!strcmp(str(p, "parameter"), "prefill_step_s")) {
            seen = 1;
            assert_true(cJSON_IsNull(sd));
            assert_non_null(strstr(str(p, "status"), "not identifiable (sd beyond 10x its range)"));
        }
    }
    assert_true(seen);
    cJSON_Delete(r);
}

/* tester50 F9: --folds above the configurations (40 in splitwise_h100.csv under
 * llama2-70b's max_context) runs one a configuration, and says so. */
static void folds_above_configurations_noted(void **state)
{
    (void)state;
    cJSON *r = json_after_notes("fit " RL_SRCDIR "/tests/data/e2e/splitwise_h100.csv --hw h100-sxm "
                                "--model llama2-70b --folds 100 --format json");
    assert_int_equal((int)num(r, "cv_folds"), 40);
    assert_non_null(strstr(out, "note: --folds 100: the CSV has 40 configurations, so 40 folds ran"));
    cJSON_Delete(r);
}

/* tester50 F8: a cell of a column the row's phase does not read is noted with its
 * file, line and column (a prefill's context 512 and a decode's tokens 512
 * were dropped silently); empty or 0, as roofline's own CSVs write them,
 * stays silent. */
static void unread_cell_noted(void **state)
{
    (void)state;
    static const struct { const char *row, *want; } c[] = {
        {"prefill,1,1,512,512,0.02\n", "line 2, column 'context' (column 4): 512, which a prefill "
                                        "row does not read"},
        {"decode,1,1,512,512,0.0065\n", "line 2, column 'tokens' (column 5): 512, which a decode "
                                         "row does not read"},
        {"prefill,1,1,0,512,0.02\nprefill,1,1,,512,0.02\ndecode,1,1,512,,0.0065\n", NULL}};
    for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
        char text[256], path[64], args[256];
        snprintf(text, sizeof text, "phase,tp,batch,context,tokens,measured_s\n%s", c[i].row);
        write_temp(path, ".csv", text);
        snprintf(args, sizeof args, "validate --against %s --hw h100-sxm --model llama3-8b "
                 "--format json", path);
        cJSON *r = json_after_notes(args);
        if (c[i].want)
            assert_non_null(strstr(out, c[i].want));
        else
            assert_null(strstr(out, "not read"));
        cJSON_Delete(r);
        unlink(path);
    }
}

/* tester63: a profile fitted on llama3-8b rows of TP 1 and 2 on h100-sxm
 * (decode and prefill, 19 configurations: invented times of the shape an
 * 8B model takes there), saved as DIR/my.lua, its name h100-sxm-t63; its
 * CSV stays as DIR/my.csv.  dir: at least 64 bytes, removed by the caller. */
static void t63_fitted(char *dir, const char *engine_column)
{
    static const char *const rows[] = {
        "decode,1,1,512,,0.0068",   "decode,1,1,2048,,0.0070",  "decode,1,8,1024,,0.0075",
        "decode,1,16,1024,,0.0081", "decode,1,32,2048,,0.0102", "decode,1,64,2048,,0.0131",
        "decode,2,1,512,,0.0045",   "decode,2,8,1024,,0.0050",  "decode,2,32,2048,,0.0066",
        "decode,2,64,2048,,0.0085", "prefill,1,1,,512,0.021",   "prefill,1,1,,1024,0.034",
        "prefill,1,1,,2048,0.066",  "prefill,1,2,,1024,0.065",  "prefill,1,4,,1024,0.128",
        "prefill,2,1,,1024,0.021",  "prefill,2,1,,2048,0.039",  "prefill,2,2,,2048,0.077",
        "prefill,2,1,,4096,0.081"};
    snprintf(dir, 64, "/tmp/rl_t63_XXXXXX");
    assert_non_null(mkdtemp(dir));
    char path[128], cmd[512];
    snprintf(path, sizeof path, "%s/my.csv", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "phase,tp,batch,context,tokens,measured_s%s\n", engine_column ? ",engine" : "");
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
        fprintf(f, "%s%s%s\n", rows[i], engine_column ? "," : "",
                engine_column ? engine_column : "");
    fclose(f);
    snprintf(cmd, sizeof cmd, "fit %s --hw h100-sxm --model llama3-8b --engine-name t63 --save "
             "%s/my.lua --format json", path, dir);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
}

/* tester63 #1: pareto labels a fitted row as step labels its plan (one
 * rule: result.c point_fit_mode): on a profile fitted on TP 1-2, the tp4
 * rows read estimated, as step --chips 4 does (fitted_outside "tp 4
 * (fitted on tp 1-2)"), the tp1 and tp2 rows fitted, the document's mode
 * the worst row's; every fitted row with a TTFT has its ttft_mode (the
 * help's promise; fitted rows had none). */
static void pareto_fitted_rows_as_step(void **state)
{
    (void)state;
    char dir[64], cmd[512];
    t63_fitted(dir, NULL);
    snprintf(cmd, sizeof cmd, "step --hw %s/my.lua --model llama3-8b --chips 4 --batch 16 "
             "--context 2048 --format json", dir);
    cJSON *st = run_cli_json(cmd, out, sizeof out);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(st, "mode")), "estimated");
    assert_non_null(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(st, "fitted_outside")),
                           "tp 4 (fitted on tp 1-2)"));
    snprintf(cmd, sizeof cmd, "pareto --hw %s/my.lua --model llama3-8b --chips 1,2,4 "
             "--batch 16,64 --format json", dir);
    cJSON *par = run_cli_json(cmd, out, sizeof out);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(par, "mode")), "estimated");
    assert_non_null(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(par, "fitted_outside")),
                           "tp 4 (fitted on tp 1-2)"));
    int tp4 = 0, inside = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, cJSON_GetObjectItem(par, "rows")) {
        const char *layout = cJSON_GetStringValue(cJSON_GetObjectItem(row, "layout"));
        const char *mode = cJSON_GetStringValue(cJSON_GetObjectItem(row, "mode"));
        const char *ttft = cJSON_GetStringValue(cJSON_GetObjectItem(row, "ttft_mode"));
        if (!layout || !mode || !ttft)
            fail_msg("row without layout, mode or ttft_mode: %s", cJSON_Print(row));
        int four = !strcmp(layout, "tp4"), plain = !strcmp(layout, "tp1") || !strcmp(layout, "tp2");
        tp4 += four;
        inside += plain;
        if ((four && strcmp(mode, "estimated")) || (plain && strcmp(mode, "fitted")))
            fail_msg("%s read %s", layout, mode);
        assert_string_equal(ttft, mode);
    }
    assert_true(tp4 > 0 && inside > 0);
    cJSON_Delete(par);
    cJSON_Delete(st);
    assert_int_equal(remove_tree(dir), 0);
}

/* tester63 #4: validate --against reads its own CSV back: the rows' hw is
 * the fitted profile's own name (h100-sxm-t63), which is --hw (it was
 * looked up as a preset: "unknown hardware", exit 2); the predictions are
 * those of the first run. */
static void validate_reads_its_own_csv_on_a_fitted_profile(void **state)
{
    (void)state;
    char dir[64], cmd[1024];
    t63_fitted(dir, NULL);
    snprintf(cmd, sizeof cmd, "validate --against %s/my.csv --hw %s/my.lua --model llama3-8b "
             "--format csv >%s/v.csv 2>/dev/null && grep -q h100-sxm-t63 %s/v.csv", dir, dir, dir,
             dir);
    assert_int_equal(run_cli(cmd, out, sizeof out), 0);
    snprintf(cmd, sizeof cmd, "validate --against %s/my.csv --hw %s/my.lua --model llama3-8b "
             "--format json", dir, dir);
    cJSON *a = run_cli_json(cmd, out, sizeof out);
    snprintf(cmd, sizeof cmd, "validate --against %s/v.csv --hw %s/my.lua --model llama3-8b "
             "--format json", dir, dir);
    cJSON *b = run_cli_json(cmd, out, sizeof out);
    assert_non_null(b);
    assert_true(num(a, "median_abs_error") == num(b, "median_abs_error"));
    assert_true(num(b, "measured_rows") == 19);
    cJSON_Delete(a);
    cJSON_Delete(b);
    assert_int_equal(remove_tree(dir), 0);
}

/* tester63 #5: a row's engine cell selects its engine over --engine (the
 * help's rule), now said: a fit's CSV whose engine column reads trtllm,
 * validated on the profile saved with --engine-name t63 and --engine t63,
 * is timed by trtllm's tables, and the result's engine_note (a warning on
 * stderr) counts the 19 rows that overrode --engine; without the column
 * none is said. */
static void validate_says_rows_override_engine(void **state)
{
    (void)state;
    char dir[64], cmd[1024];
    t63_fitted(dir, "trtllm");
    snprintf(cmd, sizeof cmd, "validate --against %s/my.csv --hw %s/my.lua --model llama3-8b "
             "--engine t63 --format json", dir, dir);
    cJSON *j = run_json_noted(cmd, "warning: 19 of 19 rows were timed by the engine their "
                                   "engine column names, not --engine t63");
    assert_non_null(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(j, "engine_note")),
                           "line 2's 'trtllm'"));
    cJSON_Delete(j);
    snprintf(cmd, sizeof cmd, "cut -d, -f1-6 %s/my.csv > %s/bare.csv", dir, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "validate --against %s/bare.csv --hw %s/my.lua --model llama3-8b "
             "--engine t63 --format json", dir, dir);
    j = run_cli_json(cmd, out, sizeof out);
    assert_null(cJSON_GetObjectItem(j, "engine_note"));
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(j, "mode")), "fitted");
    cJSON_Delete(j);
    assert_int_equal(remove_tree(dir), 0);
}

/* tester63 #2: comm_eff scales the collectives as the chip times them:
 * tpu-v5e has no measured collectives table (the alpha-beta model, comm.h),
 * so a fit there says so in comm_eff's unit and step's communication text
 * (both said "measured" beside "no measured table"); h100-sxm's fit keeps
 * "measured".  14 invented tpu-v5e rows of llama3-8b, TP 4 and 8. */
static void fitted_comm_names_what_it_scales(void **state)
{
    (void)state;
    static const char csv[] =
        "phase,tp,batch,context,tokens,measured_s\n"
        "decode,4,1,512,,0.0110\ndecode,4,8,1024,,0.0118\ndecode,4,32,2048,,0.0150\n"
        "decode,4,64,2048,,0.0185\ndecode,8,1,512,,0.0072\ndecode,8,8,1024,,0.0078\n"
        "decode,8,32,2048,,0.0098\ndecode,8,64,2048,,0.0121\nprefill,4,1,,512,0.060\n"
        "prefill,4,1,,1024,0.105\nprefill,4,1,,2048,0.205\nprefill,8,1,,1024,0.060\n"
        "prefill,8,1,,2048,0.112\nprefill,8,2,,2048,0.220\n";
    char path[64], cmd[512], lua[96];
    write_temp(path, ".csv", csv);
    snprintf(lua, sizeof lua, "%s.lua", path);
    snprintf(cmd, sizeof cmd, "fit %s --hw tpu-v5e --model llama3-8b --save %s --format json",
             path, lua);
    cJSON *fit = run_cli_json(cmd, out, sizeof out);
    int units = 0;
    const cJSON *p;
    cJSON_ArrayForEach(p, cJSON_GetObjectItem(fit, "parameters")) {
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(p, "parameter"));
        if (name && (!strcmp(name, "comm_eff") || !strcmp(name, "prefill_comm_eff"))) {
            units++;
            assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(p, "unit")),
                                "fraction of the alpha-beta model's collective speed (no "
                                "measured table)");
        }
    }
    assert_int_equal(units, 2);
    snprintf(cmd, sizeof cmd, "step --hw %s --model llama3-8b --chips 4 --batch 16 --context 2048 "
             "--format json", lua);
    cJSON *st = run_cli_json(cmd, out, sizeof out);
    const char *comm = cJSON_GetStringValue(cJSON_GetObjectItem(st, "communication"));
    if (!strstr(comm, "of the alpha-beta model's time") || strstr(comm, "measured NCCL"))
        fail_msg("%s", comm);
    cJSON_Delete(st);
    cJSON_Delete(fit);
    unlink(lua);
    unlink(path);
    st = run_cli_json("step --hw h100-sxm-splitwise --model llama2-70b --chips 4 --batch 16 "
                      "--context 2048 --format json", out, sizeof out);
    assert_non_null(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(st, "communication")),
                           "of the chip's measured NCCL time"));
    cJSON_Delete(st);
}

/* tester63 #7: fit counts only the parameters some row depends on: 9
 * decode rows (TP 1 and 2, no prefill row) fit, the prefill parameters
 * held (they were refused "9 rows for 10 parameters", the four prefill ones
 * counted), and the fit's prefill parameters say "not fitted: no prefill
 * row"; 3 such rows are refused for the decode step's 6 parameters
 * (decode_step_s, decode_seq_s, compute_eff, memory_eff, tp_excess with
 * comm_eff, launch_s), the held prefill ones named. */
static void fit_counts_parameters_rows_reach(void **state)
{
    (void)state;
    static const char nine[] =
        "phase,tp,batch,context,tokens,measured_s\n"
        "decode,1,1,512,,0.0068\ndecode,1,1,2048,,0.0070\ndecode,1,8,1024,,0.0075\n"
        "decode,1,16,1024,,0.0081\ndecode,1,32,2048,,0.0102\ndecode,1,64,2048,,0.0131\n"
        "decode,2,1,512,,0.0045\ndecode,2,8,1024,,0.0050\ndecode,2,32,2048,,0.0066\n";
    char path[64], cmd[512];
    write_temp(path, ".csv", nine);
    snprintf(cmd, sizeof cmd, "fit %s --hw h100-sxm --model llama3-8b --format json", path);
    cJSON *fit = run_cli_json(cmd, out, sizeof out);
    assert_true(num(fit, "fitted_rows") == 9);
    const cJSON *p;
    int held = 0;
    cJSON_ArrayForEach(p, cJSON_GetObjectItem(fit, "parameters"))
        held += !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(p, "status")),
                        "not fitted: no prefill row (held at its start value)");
    assert_int_equal(held, 3); /* prefill_step_s, prefill_seq_s, prefill_comm_eff */
    cJSON_Delete(fit);
    unlink(path);
    write_temp(path, ".csv", "phase,tp,batch,context,tokens,measured_s\n"
                             "decode,1,1,512,,0.0068\ndecode,1,8,1024,,0.0075\n"
                             "decode,2,32,2048,,0.0066\n");
    snprintf(cmd, sizeof cmd, "fit %s --hw h100-sxm --model llama3-8b", path);
    assert_int_equal(run_cli(cmd, out, sizeof out), 2);
    if (!strstr(out, "3 rows of hardware h100-sxm for 6 parameters (decode_step_s, decode_seq_s, "
                     "compute_eff, memory_eff, tp_excess with comm_eff, launch_s; prefill_step_s, "
                     "prefill_seq_s, prefill_comm_eff, prefill_act_byte_s, prefill_rank_s held: no "
                     "prefill row)"))
        fail_msg("%s", out);
    unlink(path);
}

/* tester63 #3: size's report words a fitted profile as its rows' mode
 * reads: beside h100-sxm (calibrated), the profile fitted on TP 1-2 is
 * "fitted (engine costs fitted to this chip's ...)" in the caution and
 * its cheapest-on note, never the what-if wording ("another chip's
 * measured kernel(s)") both used while its row's JSON read mode fitted. */
static void size_report_words_fitted_as_fitted(void **state)
{
    (void)state;
    char dir[64], cmd[1024], md[96];
    static char text[1 << 16];
    t63_fitted(dir, NULL);
    snprintf(md, sizeof md, "%s/two.md", dir);
    snprintf(cmd, sizeof cmd, "size --model llama3-8b --hw %s/my.lua,h100-sxm --qps 5 "
             "--prompt-len 1000 --out-len 200 --ttft-p99 0.5 --tpot-p99 0.03 --requests 200 "
             "--keep-precision --report %s --format json", dir, md);
    cJSON *j = run_cli_json(cmd, out, sizeof out);
    int fitted = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, cJSON_GetObjectItem(j, "rows"))
        fitted += !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(row, "hw")), "h100-sxm-t63") &&
                  !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(row, "mode")), "fitted");
    assert_true(fitted > 0);
    FILE *f = fopen(md, "r");
    assert_non_null(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    if (strstr(text, "another chip's measured") || strstr(text, "what-if profiles") ||
        !strstr(text, "fitted (engine costs fitted to this chip's end-to-end benchmark rows"))
        fail_msg("%s", text);
    cJSON_Delete(j);
    assert_int_equal(remove_tree(dir), 0);
}

/* tester63 #9: a size report made with a smoke-test profile (smoke_test =
 * true, as `calibrate --quick` writes it) says so in the report, not on
 * stderr alone (RL_HW_SMOKE_NOTE, "Smoke test: " and the profile's name);
 * one on h100-sxm itself says nothing of it. */
static void size_report_says_smoke_test(void **state)
{
    (void)state;
    char spec[64], md[96], cmd[1024];
    static char text[1 << 16];
    write_temp(spec, ".lua", "return { base = \"h100-sxm\", name = \"smoky\", smoke_test = true }\n");
    snprintf(md, sizeof md, "%s.md", spec);
    for (int k = 0; k < 2; k++) {
        snprintf(cmd, sizeof cmd, "size --model llama3-8b --hw %s --qps 2 --prompt-len 500 "
                 "--out-len 50 --ttft-p99 1 --tpot-p99 0.05 --requests 100 --max-chips 2 "
                 "--report %s --format json", k ? "h100-sxm" : spec, md);
        cJSON *j = run_cli_json(cmd, out, sizeof out);
        cJSON_Delete(j);
        FILE *f = fopen(md, "r");
        assert_non_null(f);
        size_t n = fread(text, 1, sizeof text - 1, f);
        text[n] = '\0';
        fclose(f);
        if (!k != !!strstr(text, "Smoke test: smoky is a \\`calibrate --quick\\` profile, a smoke "
                                 "test"))
            fail_msg("%s: %s", k ? "h100-sxm" : "smoky", text);
        unlink(md);
    }
    unlink(spec);
}

/* tester77 #1: the sizing report carries the JSON's e2e_gap_note (measured
 * end-to-end runs at x1.40-x3.38 the kernel tables, SplitwiseSim) in its
 * cautions, verbatim for the recommended row (one profile, priced: the
 * JSON's first row); before, only the JSON and stderr said it.  The HTML
 * report words it too. */
static void size_report_carries_e2e_gap(void **state)
{
    (void)state;
    char spec[64], cmd[1024];
    write_temp(spec, ".md", "");
    for (int html = 0; html < 2; html++) {
        char path[96];
        snprintf(path, sizeof path, "%s%s", spec, html ? ".html" : "");
        snprintf(cmd, sizeof cmd, "size --model llama3-8b --hw h100-sxm --qps 2 --prompt-len 500 "
                 "--out-len 50 --ttft-p99 1 --tpot-p99 0.05 --requests 100 --max-chips 2 "
                 "--report %s --format json", path);
        cJSON *j = run_cli_json(cmd, out, sizeof out);
        const char *gap = cJSON_GetStringValue(cJSON_GetObjectItem(j, "e2e_gap_note"));
        assert_non_null(gap);
        char *text = slurp_text(path);
        assert_non_null(text);
        if (!strstr(text, "Caution: end-to-end gap of h100-sxm") ||
            !strstr(text, "SplitwiseSim's end-to-end decode step medians") ||
            (!html && !strstr(text, gap)))
            fail_msg("%s: %s", path, text);
        free(text);
        cJSON_Delete(j);
        unlink(path);
    }
}

/* tester77 #2: size --hw h100-sxm,b200 --set hw.price_per_chip_hour=6
 * repriced both profiles without a word: a note names the override and
 * every profile it reached; with one profile nothing is said. */
static void size_says_set_hw_reaches_every_profile(void **state)
{
    (void)state;
    for (int two = 0; two < 2; two++) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "size --model llama3-8b --hw h100-sxm%s --qps 2 --prompt-len 500 "
                 "--out-len 50 --ttft-p99 1 --tpot-p99 0.05 --requests 100 --max-chips 1 "
                 "--set hw.price_per_chip_hour=6 --format json", two ? ",b200" : "");
        assert_int_equal(run_cli(cmd, out, sizeof out), 0);
        int said = strstr(out, "note: --set hw.price_per_chip_hour=6 applies to all 2 profiles "
                               "(h100-sxm, b200)") != NULL;
        const char *brace = strstr(out, "{\n"); /* the JSON after stderr's notes */
        cJSON *j = brace ? cJSON_Parse(brace) : NULL;
        assert_non_null(j);
        /* tester77 left: the note reached stderr only; the JSON's
         * set_hw_note holds it (absent with one profile) */
        const char *key = cJSON_GetStringValue(cJSON_GetObjectItem(j, "set_hw_note"));
        if (said != two || (key != NULL) != two ||
            (key && strcmp(key, "--set hw.price_per_chip_hour=6 applies to all 2 profiles "
                                "(h100-sxm, b200); a profile file { base = \"NAME\", ... } "
                                "changes one alone") != 0))
            fail_msg("%s: set_hw_note %s: %s", cmd, key ? key : "(none)", out);
        cJSON_Delete(j);
    }
}

/* tester77 #3: --ttft-p99 500 --tpot-p99 40 (milliseconds meant) ran as
 * 500 s and 40 s targets silently: size and simulate note each target past
 * its bound (TTFT 60 s, TPOT 1 s, the flags' help) and its seconds reading;
 * the shipped sizing's 1 s and 0.05 s draw no note. */
static void slo_in_milliseconds_noted(void **state)
{
    (void)state;
    static const char *const cmds[] = {
        "size --model llama3-8b --hw h100-sxm --qps 2 --prompt-len 500 --out-len 50 --requests 100 "
        "--max-chips 1 --format json",
        "simulate --model llama3-8b --hw h100-sxm --qps 1 --requests 10 --prompt-len 100 "
        "--out-len 10 --format json",
    };
    for (int i = 0; i < 2; i++)
        for (int ms = 0; ms < 2; ms++) {
            char cmd[512];
            snprintf(cmd, sizeof cmd, "%s %s", cmds[i],
                     ms ? "--ttft-p99 500 --tpot-p99 40" : "--ttft-p99 1 --tpot-p99 0.05");
            run_cli(cmd, out, sizeof out);
            int said = strstr(out, "note: --tpot-p99 40 s per token: did you mean milliseconds? "
                                   "targets are in seconds (--tpot-p99 0.04 for 40 ms)") &&
                       strstr(out, "note: --ttft-p99 500 s: did you mean milliseconds?");
            if (said != ms || (!ms && strstr(out, "did you mean milliseconds")))
                fail_msg("%s: %s", cmd, out);
        }
}

/* tester77 left: roofline.size{...} and roofline.simulate{...} with
 * ttft_p99 = 500, tpot_p99 = 40 said nothing where the command line notes
 * them; now the same words (serve.h rl_slo_units_note), the field names
 * for the flags; 1 and 0.05 draw no note. */
static void lua_slo_in_milliseconds_noted(void **state)
{
    (void)state;
    static const char *const calls[] = {
        "roofline.size{model='llama3-8b', hw='h100-sxm', qps=2, prompt_len='500', out_len='50', "
        "requests=100, max_chips=1, ",
        "roofline.simulate{model='llama3-8b', hw='h100-sxm', qps=1, requests=10, "
        "prompt_len='100', out_len='10', ",
    };
    for (int i = 0; i < 2; i++)
        for (int ms = 0; ms < 2; ms++) {
            char script[64], text[512], args[128], want[160];
            snprintf(text, sizeof text, "local r = %s%s}\nprint('done')\n", calls[i],
                     ms ? "ttft_p99=500, tpot_p99=40" : "ttft_p99=1, tpot_p99=0.05");
            write_temp(script, ".lua", text);
            snprintf(args, sizeof args, "run %s", script);
            int rc = run_cli(args, out, sizeof out);
            unlink(script);
            snprintf(want, sizeof want, "note: roofline.%s: tpot_p99 40 s per token: did you mean "
                     "milliseconds? targets are in seconds (tpot_p99 = 0.04 for 40 ms)",
                     i ? "simulate" : "size");
            int said = strstr(out, want) && strstr(out, "ttft_p99 500 s: did you mean milliseconds?");
            if (rc != 0 || said != ms || (!ms && strstr(out, "did you mean milliseconds")))
                fail_msg("%s: exit %d: %s", text, rc, out);
        }
}

/* tester77 #4: simulate --qps 1 --requests 1 printed req_per_s 16.1 and
 * out_tokens_per_s 161 (1 request over its own 62 ms latency) at 1 req/s
 * offered.  One completed request has no rate: those keys, kept, read null
 * and stderr says why; 2 requests keep numbers (docs/serving.md). */
static void one_request_has_no_rate(void **state)
{
    (void)state;
    static const char *const keys[] = {"req_per_s", "out_tokens_per_s",
                                       "out_tokens_per_s_per_chip", "total_tokens_per_s"};
    for (int n = 1; n <= 2; n++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "simulate --model llama3-8b --hw h100-sxm --qps 1 --requests %d "
                 "--prompt-len 1000 --out-len 10 --format json", n);
        cJSON *j = run_cli_json(cmd, out, sizeof out);
        for (int k = 0; k < 4; k++) {
            const cJSON *v = cJSON_GetObjectItem(j, keys[k]);
            assert_non_null(v);
            if (n == 1 ? !cJSON_IsNull(v) : !(cJSON_IsNumber(v) && v->valuedouble > 0))
                fail_msg("--requests %d: %s", n, keys[k]);
        }
        cJSON_Delete(j);
        run_cli(cmd, out, sizeof out);
        if ((n == 1) != (strstr(out, "note: only 1 request: p99 needs 100 or more, and one request "
                                     "has no rate: req_per_s") != NULL))
            fail_msg("%s: %s", cmd, out);
    }
}

int main(void)
{
    struct CMUnitTest tests[] = {
        cmocka_unit_test(info_kv_past_window),
        cmocka_unit_test(self_named_base_refused),
        cmocka_unit_test(blanks_around_numbers),
        cmocka_unit_test(compact_numbers),
        cmocka_unit_test(list_names_what_lookup_finds),
        cmocka_unit_test(list_names_the_preset),
        cmocka_unit_test(step_reserve_as_simulate_on_fitted),
        cmocka_unit_test(fits_follow_step_on_fitted),
        cmocka_unit_test(trtllm_workspace_follows_max_tokens),
        cmocka_unit_test(quiet_says_no_notes),
        cmocka_unit_test(continuous_decode_within_max_tokens),
        cmocka_unit_test(step_above_token_budget_noted),
        cmocka_unit_test(workspace_fit_one_rule),
        cmocka_unit_test(too_small_tier_and_no_price_noted),
        cmocka_unit_test(pareto_context_below_prompt),
        cmocka_unit_test(lua_step_prefill_notes),
        cmocka_unit_test(list_skips_a_broken_preset),
        cmocka_unit_test(result_not_saved_as_a_preset),
        cmocka_unit_test(trace_from_a_pipe),
        cmocka_unit_test(inputs_from_a_pipe),
        cmocka_unit_test(fit_from_a_pipe_names_no_file),
        cmocka_unit_test(import_hf_named_fifo),
        cmocka_unit_test(fit_configurations_resolved),
        cmocka_unit_test(size_report_names_stdin),
        cmocka_unit_test(size_report_says_prefixes_and_burst),
        cmocka_unit_test(roofline_data_unusable),
        cmocka_unit_test(roofline_data_shadow_said),
        cmocka_unit_test(engine_file_beside_profile),
        cmocka_unit_test(engine_file_beside_long_folder),
        cmocka_unit_test(engine_file_beside_profile_table),
        cmocka_unit_test(one_key_per_quantity),
        cmocka_unit_test(validate_reads_its_own_csv),
        cmocka_unit_test(help_names_a_command),
        cmocka_unit_test(fit_band_past_the_reader_refused),
        cmocka_unit_test(fit_engine_name_saves_table_engine_rows),
        cmocka_unit_test(simulate_notes_band_outside_grid),
        cmocka_unit_test(pareto_skips_invalid_precisions),
        cmocka_unit_test(info_json),   cmocka_unit_test(no_max_context_said), cmocka_unit_test(integer_flags_one_syntax),   cmocka_unit_test(step_json), cmocka_unit_test(csv_and_table), cmocka_unit_test(csv_holds_every_table), cmocka_unit_test(pareto_says_overlap),
        cmocka_unit_test(output_file), cmocka_unit_test(bad_input), cmocka_unit_test(demo_scenario),
        cmocka_unit_test(output_not_regular),
        cmocka_unit_test(save_never_replaces_inputs),
        cmocka_unit_test(outputs_refused_before_the_run),
        cmocka_unit_test(simulate_plot_title_quoted),
        cmocka_unit_test(failed_run_puts_back),
        cmocka_unit_test(run_refused_while_another_holds_the_folder),
        cmocka_unit_test(unwritable_out_is_an_output_failure),
        cmocka_unit_test(refused_plot_claims_nothing),
        cmocka_unit_test(pareto_plot_write_failure_keeps_nothing),
        cmocka_unit_test(run_keeps_inputs_and_outputs_apart),
        cmocka_unit_test(run_plot_write_failure_exits_1),
        cmocka_unit_test(shard_says_plans_not_timed),
        cmocka_unit_test(shard_limits_null_without_link),
        cmocka_unit_test(shard_latency_bound_one_rule),
        cmocka_unit_test(shard_limit_names_bytes_factor),
        cmocka_unit_test(shard_limit_per_replica_batch),
        cmocka_unit_test(step_rows_keys_at_any_chips),
        cmocka_unit_test(step_notes_batch_not_fitting),
    cmocka_unit_test(simulate_refuses_quantising_horizon),
    cmocka_unit_test(validate_names_stdin_once),
    cmocka_unit_test(engine_none_is_ideal),
    cmocka_unit_test(names_escaped_in_errors),
    cmocka_unit_test(stdout_full),
    cmocka_unit_test(stdout_closed_pipe),
        cmocka_unit_test(set_changes_the_chip),
        cmocka_unit_test(what_if_scales_the_tables),
        cmocka_unit_test(mode_follows_the_figures),
        cmocka_unit_test(seed_exact),
        cmocka_unit_test(per_chip_bytes_in_every_step),
        cmocka_unit_test(prefill_bytes_are_whole),
        cmocka_unit_test(capacity_keys_raw_and_usable),
        cmocka_unit_test(step_plan_capacity_keys),
        cmocka_unit_test(step_slowest_replica_share),
        cmocka_unit_test(step_chips_fastest_plan),
        cmocka_unit_test(step_chips_fewest_stages_per_tp),
        cmocka_unit_test(step_chips_fewer_replicas),
        cmocka_unit_test(step_chips_no_idle_replicas),
        cmocka_unit_test(step_chips_deeper_fewer_replicas),
        cmocka_unit_test(ops_chips_runs_step_plan),
        cmocka_unit_test(step_chips_rows_carry_own_plan),
        cmocka_unit_test(pareto_takes_step_plan),
        cmocka_unit_test(pareto_rows_count_ep),
        cmocka_unit_test(step_chips_tpu_rows_memory_keys),
        cmocka_unit_test(step_chips_nearest_plan),
        cmocka_unit_test(step_chips_rows_own_plans),
        cmocka_unit_test(datasheet_chip_label),
        cmocka_unit_test(list_presets),
        cmocka_unit_test(shard_json),
        cmocka_unit_test(docs_quote_current_capacity_figures),
        cmocka_unit_test(docs_json_keys_printed),
        cmocka_unit_test(size_json_keys_documented),
        cmocka_unit_test(pareto_sweep_bounded),
        cmocka_unit_test(mfu_no_band_reason),
        cmocka_unit_test(mfu_one_is_mode_mfu),
        cmocka_unit_test(docs_quote_simulate_transcript),
        cmocka_unit_test(docs_quote_splitwise_gap),
        cmocka_unit_test(prefill_help_matches_behaviour),
        cmocka_unit_test(engine_date_says_imported),
        cmocka_unit_test(info_hw_chip_figures),
        cmocka_unit_test(pareto_names_rows_outside_tables),
        cmocka_unit_test(step_names_rows_outside_tables),
        cmocka_unit_test(simulate_names_collectives_outside_tables),
        cmocka_unit_test(content_errors_escape_the_path),
        cmocka_unit_test(step_sm_override_is_what_if),
        cmocka_unit_test(step_sm_note_and_measured_sm),
        cmocka_unit_test(step_moe_variant_derived_noted),
        cmocka_unit_test(shard_rows_list_their_collectives),
        cmocka_unit_test(simulate_offline),
        cmocka_unit_test(simulate_no_capacity),
        cmocka_unit_test(idle_replicas_said),
        cmocka_unit_test(simulate_label_at_its_steps),
        cmocka_unit_test(simulate_share_at_its_batched_prefill),
        cmocka_unit_test(ops_json),
        cmocka_unit_test(tp_in_calibrated_mode),
        cmocka_unit_test(step_chips_plan_on_estimated),
        cmocka_unit_test(h100_pcie_ranks_behind_sxm),
        cmocka_unit_test(size_report_says_why_estimated),
        cmocka_unit_test(size_notes_estimated_rows),
        cmocka_unit_test(size_report_through_link),
        cmocka_unit_test(size_report_extension_any_case),
        cmocka_unit_test(size_report_ideal_says_alpha_beta),
        cmocka_unit_test(size_report_conservative_frontier_said),
        cmocka_unit_test(size_report_chips_margin_each_hw),
        cmocka_unit_test(size_report_says_dispatch),
        cmocka_unit_test(size_price_advice_loads),
        cmocka_unit_test(size_report_caution_of_recommended),
        cmocka_unit_test(simulate_offline_not_searched),
        cmocka_unit_test(size_pareto_note_host_cost),
        cmocka_unit_test(simulate_says_attention_rule),
        cmocka_unit_test(size_cautions_p99_only_verdict),
        cmocka_unit_test(size_notes_mixed_modes),
        cmocka_unit_test(unmeasured_note_every_command),
        cmocka_unit_test(over_budget_note_names_engine),
        cmocka_unit_test(default_flags_keep_plan),
        cmocka_unit_test(mfu_keeps_collectives),
        cmocka_unit_test(fitted_breakdown_label),
        cmocka_unit_test(fitted_comm_is_the_collectives),
        cmocka_unit_test(fitted_tp_rows_carry_tp_excess),
        cmocka_unit_test(pareto_fitted_rows_carry_tp_excess),
        cmocka_unit_test(size_tries_native_format),
        cmocka_unit_test(fitted_wording_simulate_shard),
        cmocka_unit_test(mxfp4_weights_only),
        cmocka_unit_test(info_refuses_like_step),
        cmocka_unit_test(overlap_breakdown_states_its_rule),
        cmocka_unit_test(run_into_own_tree_noted),
        cmocka_unit_test(docs_are_guarded),
        cmocka_unit_test(outputs_said),
        cmocka_unit_test(tree_sources_are_guarded),
        cmocka_unit_test(kv_dtype_engine_caution),
        cmocka_unit_test(engine_unrun_mode),
        cmocka_unit_test(precision_engine_caution),
        cmocka_unit_test(size_engine_dtype_notes),
        cmocka_unit_test(pareto_engine_dtype_notes),
        cmocka_unit_test(size_attn_dp_ep),
        cmocka_unit_test(mla_engine_caution),
        cmocka_unit_test(derived_slow_caution),
        cmocka_unit_test(size_echoes_search),
        cmocka_unit_test(step_floor_caution),
        cmocka_unit_test(size_step_floor_said),
        cmocka_unit_test(size_conservative_gap_said),
        cmocka_unit_test(fitted_floor_dtype_caution),
cmocka_unit_test(run_out_folder_rule),
        cmocka_unit_test(control_bytes_not_echoed),
        cmocka_unit_test(repeated_switch_refused),
        cmocka_unit_test(fitted_keys_once),
        cmocka_unit_test(fitted_chunked_prefill),
        cmocka_unit_test(fitted_tp_equal_chips),
        cmocka_unit_test(mode_and_allreduce_agree),
        cmocka_unit_test(ideal_collectives_are_the_model),
        cmocka_unit_test(prefill_share_as_ops),
        cmocka_unit_test(ops_prefill_batch_shown),
        cmocka_unit_test(shard_names_memory_engine),
        cmocka_unit_test(torus_slices_checked),
        cmocka_unit_test(torus_plan_slices_checked),
        cmocka_unit_test(size_records_workload),
        cmocka_unit_test(every_preset_priced),
        cmocka_unit_test(kv_split_default_is_the_engines),
        cmocka_unit_test(fitted_tp_names_kv_split),
        cmocka_unit_test(fitted_chips_is_tp),
        cmocka_unit_test(fixX_kv_layout_findings),
        cmocka_unit_test(simulate_names_kv_layout),
        cmocka_unit_test(provenance_cell),
        cmocka_unit_test(step_tp_rows_count_provenance),
        cmocka_unit_test(info_fitted_costs),
        cmocka_unit_test(size_conservative_off_fit),
        cmocka_unit_test(size_skips_chip_without_precision),
        cmocka_unit_test(memory_bytes_whole),
        cmocka_unit_test(mla_attention_counted_once),
        cmocka_unit_test(kept_matmuls_at_kept_peak),
        cmocka_unit_test(unmeasured_dtype_derived),
        cmocka_unit_test(ideal_is_engine_ideal),
        cmocka_unit_test(targets_and_defaults_as_given),
        cmocka_unit_test(router_stays_bf16),
        cmocka_unit_test(ops_kv_layout_is_step),
        cmocka_unit_test(ops_prefill_ttft_is_prefill),
        cmocka_unit_test(ops_fitted_costs_named),
        cmocka_unit_test(size_engine),
        cmocka_unit_test(size_engine_after_keep_precision),
        cmocka_unit_test(size_band_is_conservative_edge),
        cmocka_unit_test(size_wide_band_holds_narrow),
        cmocka_unit_test(pareto_mode_honest),
        cmocka_unit_test(pareto_plot_curves_labelled),
        cmocka_unit_test(simulate_records_slo_targets),
        cmocka_unit_test(pareto_uncalibrated_rows_have_mode),
        cmocka_unit_test(pareto_rows_mode_and_derived),
        cmocka_unit_test(pareto_derived_moe_and_mla),
        cmocka_unit_test(mode_labels_agree),
        cmocka_unit_test(table_share_labels),
        cmocka_unit_test(validate_against_calibrated),
        cmocka_unit_test(validate_shipped_splitwise_in_sample),
        cmocka_unit_test(validate_estimated_rows_by_line),
        cmocka_unit_test(simulate_notes_cross_domain),
        cmocka_unit_test(simulate_slo_missed_not_overloaded),
        cmocka_unit_test(simulate_capacity_short_run_many_replicas),
        cmocka_unit_test(simulate_capacity_unseen_open_lower_bound),
        cmocka_unit_test(simulate_notes_uneven_stage_bias),
        cmocka_unit_test(step_reserve_agrees_with_simulate),
        cmocka_unit_test(fit_then_validate),
        cmocka_unit_test(fit_too_few_for_folds),
        cmocka_unit_test(step_tp_band),
        cmocka_unit_test(help_defaults_and_citations),
        cmocka_unit_test(reference_engine_profile),
        cmocka_unit_test(version),
        cmocka_unit_test(fit_warns_on_a_misfit),
        cmocka_unit_test(bursty_idle_is_not_overloaded),
        cmocka_unit_test(burst_overload_note_uses_own_rate),
        cmocka_unit_test(burst_slo_note_uses_own_rate),
        cmocka_unit_test(fit_wrong_model_noted),
        cmocka_unit_test(fit_row_models_noted),
        cmocka_unit_test(unresolved_tail_is_null_not_zero),
        cmocka_unit_test(unresolved_static_tail_is_the_wait),
        cmocka_unit_test(fitted_grid_note),
        cmocka_unit_test(step_columns_add_up),
        cmocka_unit_test(what_if_has_no_band),
        cmocka_unit_test(every_unbanded_result_says_why),
        cmocka_unit_test(validate_asks_for_a_source),
        cmocka_unit_test(against_path_not_utf8),
        cmocka_unit_test(readme_quotes_collective_accuracy),
        cmocka_unit_test(readme_tpu_v5e_max_batch_runs),
        cmocka_unit_test(step_chips_pipelines_weights_that_do_not_fit),
        cmocka_unit_test(step_chips_pipeline_by_heaviest_stage),
        cmocka_unit_test(step_chips_searches_tp_degrees),
        cmocka_unit_test(step_chips_no_fit_exit_zero),
        cmocka_unit_test(step_chips_no_fit_times_nearest),
        cmocka_unit_test(ops_prefill_chips_take_step_plan),
        cmocka_unit_test(simulate_advice_runs),
        cmocka_unit_test(derived_dtype_note),
        cmocka_unit_test(slow_precision_caution),
        cmocka_unit_test(batch_fall_note),
        cmocka_unit_test(batch_throughput_fall_note),
        cmocka_unit_test(moe_scaling_caution),
        cmocka_unit_test(slow_precision_shapes),
        cmocka_unit_test(short_run_per_replica_noted),
        cmocka_unit_test(host_cost_notes),
        cmocka_unit_test(e2e_gap_and_dispatch_caution),
        cmocka_unit_test(moe_slow_caution),
        cmocka_unit_test(size_band_edge_said),
        cmocka_unit_test(size_derived_edge_not_advised),
        cmocka_unit_test(size_none_still_reports),
        cmocka_unit_test(size_none_still_results),
        cmocka_unit_test(validate_plot_keeps_report),
        cmocka_unit_test(size_small_sample_said),
        cmocka_unit_test(size_rows_say_derived),
        cmocka_unit_test(size_zero_price_said),
        cmocka_unit_test(size_engine_where_it_applies),
        cmocka_unit_test(link_set_one_chip),
        cmocka_unit_test(e2e_gap_serving_notes),
        cmocka_unit_test(sharding_2d_asks_for_tp),
        cmocka_unit_test(ops_tp_over_heads_refused),
        cmocka_unit_test(simulate_tp_over_heads_refused),
        cmocka_unit_test(simulate_refusal_quotes_step_weights),
        cmocka_unit_test(prefix_refusal_quotes_both_copies),
        cmocka_unit_test(step_help_max_batch_under_plans),
        cmocka_unit_test(step_overlap_note_no_dead_end),
        cmocka_unit_test(simulate_unresolved_names_missed),
        cmocka_unit_test(simulate_static_short_has_figure),
        cmocka_unit_test(step_table_long_cells_noted),
        cmocka_unit_test(validate_unmeasured_row_as_step),
        cmocka_unit_test(validate_no_rows_left),
        cmocka_unit_test(validate_source_options_refused),
        cmocka_unit_test(validate_one_row_plot),
        cmocka_unit_test(validate_rows_name_kv_split),
        cmocka_unit_test(spec_draft_not_smaller_noted),
        cmocka_unit_test(prefixes_without_cache_noted),
        cmocka_unit_test(prefix_cache_without_prefixes_reserves_nothing),
        cmocka_unit_test(simulate_names_its_plan),
        cmocka_unit_test(size_hw_comma_path_refused),
        cmocka_unit_test(prefix_tokens_mean_what_prefill_means),
        cmocka_unit_test(disagg_one_token_requests_finish),
        cmocka_unit_test(disagg_link_bound_named),
        cmocka_unit_test(disagg_short_run_starved_link_overloaded),
        cmocka_unit_test(spec_fraction_slower_noted),
        cmocka_unit_test(spec_slower_under_load_noted),
        cmocka_unit_test(prefix_host_tier_bounded),
        cmocka_unit_test(estimated_result_noted),
        cmocka_unit_test(moved_labels_said),
        cmocka_unit_test(ops_labels_decide_share),
        cmocka_unit_test(trace_rate_is_the_arrivals),
        cmocka_unit_test(kv_whole_pages),
        cmocka_unit_test(fit_sd_bounded),
        cmocka_unit_test(folds_above_configurations_noted),
        cmocka_unit_test(unread_cell_noted),
        cmocka_unit_test(ops_rows_per_chip),
        cmocka_unit_test(ops_norm_gains_whole),
        cmocka_unit_test(shard_prefill_throughput_counts_replicas),
        cmocka_unit_test(shard_prefill_batch_remainder),
        cmocka_unit_test(shard_row_throughput_from_its_step),
        cmocka_unit_test(size_rows_say_why_no_band),
        cmocka_unit_test(step_plan_refused_before_notes),
        cmocka_unit_test(sp_advice_names_no_refused_option),
        cmocka_unit_test(x_default_said_as_the_chapters),
        cmocka_unit_test(lua_format_keeps_null_keys),
        cmocka_unit_test(run_print_failure_says_why),
        cmocka_unit_test(pareto_fitted_rows_as_step),
        cmocka_unit_test(validate_reads_its_own_csv_on_a_fitted_profile),
        cmocka_unit_test(validate_says_rows_override_engine),
        cmocka_unit_test(fitted_comm_names_what_it_scales),
        cmocka_unit_test(fit_counts_parameters_rows_reach),
        cmocka_unit_test(size_report_words_fitted_as_fitted),
        cmocka_unit_test(size_report_says_smoke_test),
        cmocka_unit_test(size_report_carries_e2e_gap),
        cmocka_unit_test(size_says_set_hw_reaches_every_profile),
        cmocka_unit_test(slo_in_milliseconds_noted),
        cmocka_unit_test(lua_slo_in_milliseconds_noted),
        cmocka_unit_test(one_request_has_no_rate),
        cmocka_unit_test(simulate_mean_in_system_as_lua),
        cmocka_unit_test(plan_chips_said),
        cmocka_unit_test(shard_workspace_noted),
        cmocka_unit_test(shard_usable_as_step),
        cmocka_unit_test(long_notes_said_once),
        cmocka_unit_test(figure_links_refused_before_the_run),
        cmocka_unit_test(replaced_file_keeps_its_mode),
        cmocka_unit_test(realised_mean_lengths_said),
        cmocka_unit_test(mean_length_note_in_json),
        cmocka_unit_test(step_rows_carry_mode),
        cmocka_unit_test(size_max_chips_slices_said),
        cmocka_unit_test(size_none_searched_said),
        cmocka_unit_test(size_range_note_once),
        cmocka_unit_test(size_set_hw_note_whole),
        cmocka_unit_test(save_extension_picks_format),
        cmocka_unit_test(simulate_ep_names_attn_dp),
    };
    if (getenv("RL_TEST_FILTER")) /* one test's name (a glob): a single test while editing */
        cmocka_set_test_filter(getenv("RL_TEST_FILTER"));
    size_t ntests = rl_test_shard(tests, sizeof tests / sizeof tests[0]);
    /* The suite works in a folder of its own, removed after it: a `run`
     * without --out writes ./out (the command's default), and `make test`
     * runs this binary beside the others (TESTS_BESIDE), whose runs use the
     * checkout's out/.  Files of the tree are named by RL_SRCDIR. */
    char home[] = "/tmp/rl_test_cli_XXXXXX";
    if (!mkdtemp(home) || chdir(home) != 0) {
        perror("test_cli: a working folder in /tmp");
        return 1;
    }
    int failed = _cmocka_run_group_tests("tests", tests, ntests, NULL, NULL);
    if (chdir("/") != 0 || remove_tree(home) != 0)
        fprintf(stderr, "test_cli: could not remove %s\n", home);
    return failed;
}
