/* test_import_hf.c — Hugging Face config.json import: round trips against
 * the hand-written and shipped presets, family mappings, clear errors. */
#include "testutil.h"

#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "arch.h"
#include "import_hf.h"
#include "result.h"

#define HF RL_SRCDIR "/tests/data/hf/"

/* Import `file` (in tests/data/hf) and load the result as a model; the
 * import's stderr notes into note (notelen > 0). */
static rl_model import_noted(const char *file, const char *name, char *note, size_t notelen)
{
    char err[1024], path[64];
    int io;
    char *text = rl_import_hf(file, name, NULL, &io, err, sizeof err, note, notelen);
    if (!text)
        fail_msg("import %s: %s", file, err);
    write_temp(path, ".lua", text);
    free(text);
    rl_model m = load_model(path, NULL, 0);
    unlink(path);
    return m;
}

static rl_model import_model(const char *file, const char *name)
{
    return import_noted(file, name, NULL, 0);
}

/* `info` JSON text of a model with the name and provenance removed. */
static char *info_text(const rl_model *m)
{
    cJSON *j = rl_result_info(m, rl_precision_default(), 8192);
    assert_non_null(j);
    cJSON_DeleteItemFromObject(j, "model");
    char *s = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    return s;
}

static void assert_same_info(const rl_model *a, const rl_model *b)
{
    char *x = info_text(a), *y = info_text(b);
    if (strcmp(x, y) != 0)
        fail_msg("info differs:\n  %s\n  %s", x, y);
    free(x);
    free(y);
}

/* Round trip: the imported meta-llama/Meta-Llama-3-8B config gives the same
 * `info` (params, KV, FLOPs, context 8192) as the hand-written
 * model/llama3-8b.lua; likewise Mistral-7B (sliding_window 4096 on every
 * layer). */
static void round_trip_hand_written(void **state)
{
    (void)state;
    rl_model a = import_model(HF "llama3-8b.json", NULL);
    rl_model b = load_model("llama3-8b", NULL, 0);
    assert_string_equal(a.name, "llama3-8b"); /* default name: the file stem */
    assert_same_info(&a, &b);
    rl_model c = import_model(HF "mistral-7b.json", NULL);
    rl_model d = load_model("mistral-7b", NULL, 0);
    assert_same_info(&c, &d);
}

/* Every supported family normalizes with an RMSNorm (import_hf.c family
 * norm_class; transformers' *RMSNorm classes, configs' rms_norm_eps): the
 * import writes norm = "rmsnorm" with the class named, for each fixture. */
static void import_writes_rmsnorm(void **state)
{
    (void)state;
    static const char *const files[] = {"llama3-8b", "qwen3-32b", "gemma3-27b", "deepseek-v3",
                                        "gpt-oss-120b", "phi3-mini-4k"};
    static const char *const cls[] = {"LlamaRMSNorm", "Qwen3RMSNorm", "Gemma3RMSNorm",
                                      "DeepseekV3RMSNorm", "GptOssRMSNorm", "Phi3RMSNorm"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char file[512], err[1024], want[128];
        int io;
        snprintf(file, sizeof file, HF "%s.json", files[i]);
        char *text = rl_import_hf(file, NULL, NULL, &io, err, sizeof err, NULL, 0);
        if (!text)
            fail_msg("%s: %s", file, err);
        snprintf(want, sizeof want, "  norm = \"rmsnorm\", -- %s (transformers)", cls[i]);
        if (!strstr(text, want))
            fail_msg("%s: no '%s' in\n%s", file, want, text);
        free(text);
        assert_int_equal(import_model(file, NULL).norm, RL_NORM_RMS);
    }
}

/* The shipped presets are what the importer makes of the fixtures. */
static void presets_match_import(void **state)
{
    (void)state;
    static const char *const names[] = {"qwen3-32b", "gemma2-27b", "deepseek-v3", "mixtral-8x22b",
                                        "gpt-oss-120b"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char file[512];
        snprintf(file, sizeof file, HF "%s.json", names[i]);
        rl_model a = import_model(file, names[i]);
        rl_model b = load_model(names[i], NULL, 0);
        assert_same_info(&a, &b);
    }
}

/* Family mappings, values from the fixtures' configs:
 *  - Qwen3-32B: head_dim 128 kept (64 x 128 = 8192 != 5120);
 *  - Gemma 2 27B: tie_word_embeddings absent -> true (Gemma2Config
 *    default), gelu_pytorch_tanh -> geglu, alternating window 4096;
 *  - Gemma 3 27B: text_config read; sliding_window_pattern default 6,
 *    vocab_size default 262208;
 *  - Qwen2.5-7B: use_sliding_window false -> no window;
 *  - Mixtral-8x22B: 8 experts, top 2; 140.6e9 total, 39.2e9 active
 *    (Mistral AI: "141B ... 39B active");
 *  - DeepSeek-V3: MLA dims, 3 dense layers, 1 shared expert. */
static void family_mappings(void **state)
{
    (void)state;
    rl_model q = import_model(HF "qwen3-32b.json", NULL);
    assert_int_equal(q.head_dim, 128);
    assert_int_equal(q.heads * q.head_dim, 8192);
    rl_model g = import_model(HF "gemma2-27b.json", NULL);
    assert_true(g.tied_embeddings);
    assert_int_equal(g.mlp, RL_MLP_GEGLU);
    assert_int_equal(g.sliding_window, 4096);
    assert_int_equal(g.sliding_window_pattern, 2);
    rl_model g3 = import_model(HF "gemma3-27b.json", NULL);
    assert_int_equal(g3.sliding_window_pattern, 6);
    assert_int_equal(g3.vocab, 262208);
    assert_int_equal(g3.layers, 62);
    rl_model q2 = import_model(HF "qwen2.5-7b.json", NULL);
    assert_int_equal(q2.sliding_window, 0);
    rl_model x = import_model(HF "mixtral-8x22b.json", NULL);
    assert_int_equal(x.experts, 8);
    assert_int_equal(x.top_k, 2);
    assert_rel(rl_arch_params(&x).total, 140.6e9, 0.001);
    assert_rel(rl_arch_params(&x).active, 39.15e9, 0.001);
    rl_model d = import_model(HF "deepseek-v3.json", NULL);
    assert_int_equal(d.attention, RL_ATTN_MLA);
    assert_int_equal(d.kv_lora_rank, 512);
    assert_int_equal(d.q_lora_rank, 1536);
    assert_int_equal(d.dense_layers, 3);
    assert_int_equal(d.shared_experts, 1);
    assert_int_equal(d.d_ff_expert, 2048);
    /* its quantization_config's "weight_block_size": [128, 128] (fp8):
     * block-scaled, which picks vLLM's block-quantized MoE kernel (spec.h
     * rl_fp8_scaling; tester63 F4); Mixtral's config has none: tensor */
    assert_int_equal(d.fp8_scaling, RL_FP8_BLOCK);
    assert_int_equal(x.fp8_scaling, RL_FP8_TENSOR);
}

/* tester23 F8: quantization_config is noted, not applied: DeepSeek-V3's
 * {"quant_method": "fp8", "fmt": "e4m3"} -> --weights fp8, gpt-oss's
 * "mxfp4" -> mxfp4; a config without one (llama3-8b) -> no note. */
static void quantization_noted(void **state)
{
    (void)state;
    static const char *const file[] = {HF "deepseek-v3.json", HF "gpt-oss-120b.json",
                                       HF "llama3-8b.json"};
    static const char *const want[] = {
        "quantization_config says quant_method \"fp8\", fmt \"e4m3\": the spec has no dtype "
        "and runs default to bf16 weights; give the commands that run it --weights fp8 to match",
        "quant_method \"mxfp4\": the spec has no dtype and runs default to bf16 weights; give "
        "the commands that run it --weights mxfp4 to match", ""};
    for (int i = 0; i < 3; i++) {
        char err[1024], note[512];
        int io;
        char *text = rl_import_hf(file[i], NULL, NULL, &io, err, sizeof err, note, sizeof note);
        assert_non_null(text);
        free(text);
        if (*want[i] ? !strstr(note, want[i]) : *note != '\0')
            fail_msg("%s: note '%s', want '%s'", file[i], note, want[i]);
    }
}

static void expect_error(const char *file_or_text, int is_text, const char *want, int want_io);
static void fixture_with(char *path, const char *file, int text, const char *key, cJSON *value);

/* issue 13 item 3: torch_dtype "bfloat17" (llama3-8b's config, edited)
 * imported with no word; the key is not read into the spec (no dtype; runs
 * assume bf16), so a name torch does not have is a note naming the file,
 * the key and the assumption, as an unknown quant_method is; the same under
 * transformers' newer key dtype.  The shipped configs' bfloat16 (llama3-8b)
 * and float32 (gemma2-27b) are torch names: no note.  A number is refused
 * as every ill-typed key is.  Failed before: no note, and 16 imported. */
static void unknown_torch_dtype_noted(void **state)
{
    (void)state;
    static const struct {
        const char *file, *key, *value, *want; /* want "": no note */
    } C[] = {
        {"llama3-8b.json", "torch_dtype", "bfloat17",
         ": torch_dtype \"bfloat17\" is not a torch dtype (bfloat16, float16, float32, ...): not "
         "read; the spec has no dtype and runs assume bf16 weights"},
        {"llama3-8b.json", "dtype", "fp42", ": dtype \"fp42\" is not a torch dtype"},
        {"llama3-8b.json", "torch_dtype", "bfloat16", ""},
        {"gemma2-27b.json", "torch_dtype", "float32", ""},
    };
    for (size_t i = 0; i < sizeof C / sizeof *C; i++) {
        char path[64], err[1024], note[2048] = "";
        fixture_with(path, C[i].file, 0, C[i].key, cJSON_CreateString(C[i].value));
        int io;
        char *text = rl_import_hf(path, "t", NULL, &io, err, sizeof err, note, sizeof note);
        if (!text)
            fail_msg("%s: %s", C[i].value, err);
        free(text);
        const char *at = strstr(note, C[i].want);
        if (*C[i].want ? !at || strncmp(note, path, strlen(path)) != 0
                       : strstr(note, "torch dtype") != NULL)
            fail_msg("%s %s: note '%s', want '%s' after the file's name", C[i].key, C[i].value,
                     note, C[i].want);
        unlink(path);
    }
    char path[64];
    fixture_with(path, "llama3-8b.json", 0, "torch_dtype", cJSON_CreateNumber(16));
    expect_error(path, 0, "key 'torch_dtype': expected a string naming a torch dtype", 0);
    unlink(path);
}

/* tester55 F5: Qwen2 (tests/data/hf/qwen2.5-7b.json, Qwen/Qwen2.5-7B's
 * config) carries q, k and v biases and no o bias (transformers
 * modeling_qwen2.py Qwen2Attention): 28 x 128 x (28 + 2 x 4) = 129,024
 * parameters, which the import left out (7,615,487,488).  Now qkv_bias and
 * 7,615,616,512, the sum of Qwen2ForCausalLM's parameters the tester
 * counted (15,231,233,024 bytes of bf16 safetensors / 2; exact).  A qwen2
 * config without hidden_act takes Qwen2Config's default "silu" (swiglu) with
 * a note (it was refused); so do mistral, mixtral and qwen3_moe configs
 * (tester58 #5: MistralConfig, MixtralConfig and Qwen3MoeConfig default
 * hidden_act to "silu" too; they were refused); and phi3, deepseek_v2,
 * deepseek_v3 and gpt_oss ones (fixFI: Phi3Config, DeepseekV2Config,
 * DeepseekV3Config and GptOssConfig default it to "silu"; they were
 * refused): the shipped test configs with their hidden_act cut (deepseek_v2:
 * the deepseek-v3 config renamed) import as swiglu, the note said.  No
 * family is left without a default, so the refusal has no case here. */
static void qwen2_biases_and_default_act(void **state)
{
    (void)state;
    rl_model q2 = import_model(HF "qwen2.5-7b.json", NULL);
    assert_true(q2.qkv_bias && !q2.attention_bias);
    assert_true(rl_arch_params(&q2).total == 7615616512.0);
    char note[2048] = "", path[64];
    static const char *const cfg =
        "{\"model_type\": \"%s\", \"num_hidden_layers\": 2, \"hidden_size\": 64, "
        "\"intermediate_size\": 128, \"num_attention_heads\": 4, \"num_key_value_heads\": 2, "
        "\"vocab_size\": 10, \"max_position_embeddings\": 100}";
    char text[512];
    snprintf(text, sizeof text, cfg, "qwen2");
    write_temp(path, ".json", text);
    rl_model m = import_noted(path, "q", note, sizeof note);
    unlink(path);
    assert_int_equal(m.mlp, RL_MLP_SWIGLU);
    assert_non_null(strstr(note, "hidden_act not given: \"silu\", the default of transformers' "
                                 "config for model_type \"qwen2\""));
    static const char *const moe[] = {
        "", ", \"num_local_experts\": 4, \"num_experts_per_tok\": 2",
        ", \"num_experts\": 4, \"num_experts_per_tok\": 2, \"moe_intermediate_size\": 32"};
    static const char *const fam[] = {"mistral", "mixtral", "qwen3_moe"};
    for (int i = 0; i < 3; i++) {
        char t[640], want[160];
        snprintf(text, sizeof text, cfg, fam[i]);
        snprintf(t, sizeof t, "%.*s%s}", (int)strlen(text) - 1, text, moe[i]);
        write_temp(path, ".json", t);
        note[0] = '\0';
        m = import_noted(path, "q", note, sizeof note);
        unlink(path);
        assert_int_equal(m.mlp, RL_MLP_SWIGLU);
        assert_true(i == 0 ? m.experts == 0 : m.experts == 4);
        snprintf(want, sizeof want, "hidden_act not given: \"silu\", the default of transformers' "
                 "config for model_type \"%s\"", fam[i]);
        assert_non_null(strstr(note, want));
    }
    static const struct {
        const char *file, *type;
    } cut[] = {{"phi3-mini-4k.json", "phi3"},
               {"deepseek-v3.json", "deepseek_v3"},
               {"deepseek-v3.json", "deepseek_v2"},
               {"gpt-oss-120b.json", "gpt_oss"}};
    for (size_t i = 0; i < sizeof cut / sizeof *cut; i++) {
        char *t = slurp_in(RL_SRCDIR "/tests/data/hf", cut[i].file), want[160];
        char *act = strstr(t, "\"hidden_act\": \"silu\",");
        assert_non_null(act);
        memmove(act, act + strlen("\"hidden_act\": \"silu\","),
                strlen(act + strlen("\"hidden_act\": \"silu\",")) + 1);
        char *type = strstr(t, "\"deepseek_v3\"");
        if (strcmp(cut[i].type, "deepseek_v2") == 0) /* same length: renamed in place */
            memcpy(type + 1, "deepseek_v2", strlen("deepseek_v2"));
        write_temp(path, ".json", t);
        free(t);
        note[0] = '\0';
        m = import_noted(path, "q", note, sizeof note);
        unlink(path);
        assert_int_equal(m.mlp, RL_MLP_SWIGLU);
        snprintf(want, sizeof want, "hidden_act not given: \"silu\", the default of transformers' "
                 "config for model_type \"%s\"", cut[i].type);
        if (!strstr(note, want))
            fail_msg("%s as %s: want '%s' in '%s'", cut[i].file, cut[i].type, want, note);
    }
}

/* Import the small config `cfg` (one %s: its model_type) with `extra`
 * keys; its total parameters, the notes into note. */
static double small_params(const char *type, const char *extra, char *note, size_t notelen)
{
    char text[512], path[64];
    snprintf(text, sizeof text,
             "{\"model_type\": \"%s\", \"num_hidden_layers\": 2, \"hidden_size\": 64, "
             "\"intermediate_size\": 128, \"num_attention_heads\": 4, \"num_key_value_heads\": 2, "
             "\"vocab_size\": 10, \"max_position_embeddings\": 100, \"hidden_act\": \"silu\"%s}",
             type, extra);
    write_temp(path, ".json", text);
    if (note && notelen)
        note[0] = 0;
    rl_model m = import_noted(path, "b", note, notelen);
    unlink(path);
    return rl_arch_params(&m).total;
}

/* stop 38 #8: attention_bias true on a qwen2 config counted an o_proj bias
 * (and mlp_bias true MLP biases), which Qwen2 has not: Qwen2Attention's
 * q/k/v_proj take bias=True and o_proj bias=False, Qwen2MLP's projections
 * bias=False, neither reading the config (transformers modeling_qwen2.py at
 * 00d4b3d2).  2 layers, hidden 64, 4 heads of 16, 2 KV heads: q, k and v
 * biases are 16 x (4 + 2 x 2) = 128 per layer, 256 in all, whatever the
 * keys say (exact).  LlamaAttention gives all four projections
 * bias=config.attention_bias (modeling_llama.py at 00227283): llama with
 * attention_bias true adds 128 + 64 (o) per layer = 384 (exact). */
static void bias_keys_follow_modeling_code(void **state)
{
    (void)state;
    char note[2048];
    double q_plain = small_params("qwen2", "", NULL, 0);
    double q_set = small_params("qwen2", ", \"attention_bias\": true, \"mlp_bias\": true", note,
                                sizeof note);
    assert_true(q_set == q_plain);
    assert_non_null(strstr(note, "attention_bias and mlp_bias true not used: model_type \"qwen2\" "
                                 "has biases on q, k and v only"));
    double l_plain = small_params("llama", "", NULL, 0);
    double l_set = small_params("llama", ", \"attention_bias\": true", note, sizeof note);
    assert_true(l_set - l_plain == 384.0);
    assert_null(strstr(note, "not used"));
    assert_true(q_plain - l_plain == 256.0); /* qwen2's q, k, v biases over llama without */
}

static void expect_error(const char *file_or_text, int is_text, const char *want, int want_io)
{
    char err[1024], path[64];
    const char *file = file_or_text;
    if (is_text) {
        write_temp(path, ".json", file_or_text);
        file = path;
    }
    int io = -1;
    char *text = rl_import_hf(file, NULL, NULL, &io, err, sizeof err, NULL, 0);
    if (is_text)
        unlink(path);
    assert_null(text);
    assert_int_equal(io, want_io);
    if (!strstr(err, want))
        fail_msg("error '%s' lacks '%s'", err, want);
    if (!strstr(err, file))
        fail_msg("error '%s' does not name the file", err);
}

/* Unknown model_type, missing keys, bad JSON, a bad layer pattern and an
 * unreadable file each give a clear error naming file and key. */
static void errors(void **state)
{
    (void)state;
    expect_error(HF "bad-unknown-type.json", 0, "key 'model_type': \"falcon\" is not a supported", 0);
    /* a LayerNorm family (Falcon's nn.LayerNorm; spec.h rl_norm) is told to
     * write its spec by hand with norm = "layernorm"; an RMSNorm one not */
    expect_error(HF "bad-unknown-type.json", 0, "it normalizes with LayerNorm: write its spec "
                 "by hand with norm = \"layernorm\"", 0);
    expect_error("{\"model_type\": \"bloom\"}", 1, "norm = \"layernorm\"", 0);
    expect_error(HF "bad-missing-key.json", 0, "key 'intermediate_size': missing", 0);
    expect_error("{\"model_type\": \"llama\",", 1, "not valid JSON", 0);
    expect_error("[1, 2]", 1, "expected a JSON object", 0);
    /* tester34 F6: a string quantization_config was ignored with no note */
    expect_error("{\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"hidden_size\": 64, "
                 "\"intermediate_size\": 64, \"num_attention_heads\": 4, \"vocab_size\": 10, "
                 "\"max_position_embeddings\": 100, \"hidden_act\": \"silu\", "
                 "\"quantization_config\": \"fp8\"}",
                 1, "key 'quantization_config': expected an object", 0);
    expect_error("{\"model_type\": \"gpt_oss\", \"num_hidden_layers\": 2, \"hidden_size\": 64, "
                 "\"intermediate_size\": 64, \"num_attention_heads\": 4, \"num_key_value_heads\": 2,"
                 " \"vocab_size\": 10, \"max_position_embeddings\": 100, \"hidden_act\": \"silu\","
                 " \"num_local_experts\": 4, \"num_experts_per_tok\": 2, \"sliding_window\": 8,"
                 " \"layer_types\": [\"full_attention\", \"banded_attention\"]}",
                 1, "key 'layer_types': entry 1 is neither", 0);
    expect_error("{\"model_type\": \"llama\", \"num_hidden_layers\": 2.5}", 1,
                 "key 'num_hidden_layers': expected a positive integer", 0);
    /* tester33 F2: heads 0 named under its key (was "field 'kv_heads': must be > 0",
     * kv_heads defaulting to it), a negative width as not positive (was "non-negative") */
    expect_error("{\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"hidden_size\": 64, "
                 "\"intermediate_size\": 64, \"num_attention_heads\": 0, \"vocab_size\": 10, "
                 "\"max_position_embeddings\": 100, \"hidden_act\": \"silu\"}",
                 1, "key 'num_attention_heads': expected a positive integer, got 0", 0);
    expect_error("{\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"hidden_size\": -64}",
                 1, "key 'hidden_size': expected a positive integer, got -64", 0);
    expect_error("/nonexistent/config.json", 0, "cannot read", 0); /* bad input, not out of memory */
    /* tester29 F9: a malformed modules_to_not_convert (it decides which
     * weights stay bf16: gpt-oss's attention, 1.4 GB) was ignored, the spec
     * written as if every linear layer were quantized */
    static const char *const bad_skip[] = {"\"self_attn\"", "[1, null]"};
    for (int i = 0; i < 2; i++) {
        char cfg[1024];
        snprintf(cfg, sizeof cfg,
                 "{\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"hidden_size\": 64, "
                 "\"intermediate_size\": 64, \"num_attention_heads\": 4, "
                 "\"num_key_value_heads\": 2, \"vocab_size\": 10, "
                 "\"max_position_embeddings\": 100, \"hidden_act\": \"silu\", "
                 "\"quantization_config\": {\"modules_to_not_convert\": %s}}", bad_skip[i]);
        expect_error(cfg, 1, "key 'quantization_config.modules_to_not_convert'", 0);
    }
}

/* The spec's provenance names the model's folder and config.json, not the
 * directories above it, which are this machine's (issue 16: the absolute
 * path was written into `source`). */
static void source_without_local_directories(void **state)
{
    (void)state;
    char dir[] = "/tmp/rl_hf_XXXXXX", sub[128], cfg[160], cmd[400], err[1024];
    assert_non_null(mkdtemp(dir));
    snprintf(sub, sizeof sub, "%s/Model-X", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    snprintf(cfg, sizeof cfg, "%s/config.json", sub);
    snprintf(cmd, sizeof cmd, "cp %sllama3-8b.json %s", HF, cfg);
    assert_int_equal(system(cmd), 0);
    int io;
    char *text = rl_import_hf(cfg, NULL, NULL, &io, err, sizeof err, NULL, 0);
    assert_non_null(text);
    if (!strstr(text, "source = \"Hugging Face config.json (Model-X/config.json)\"") ||
        strstr(text, dir))
        fail_msg("the spec leaks the local path or lacks the short one:\n%s", text);
    free(text);
    assert_int_equal(remove_tree(dir), 0);
}

/* The CLI exits 2 on bad content and on a missing file (bad input, like
 * every other input file), 0 on success. */
static void cli_exit_codes(void **state)
{
    (void)state;
    int rc = system(RL_BIN " import-hf " HF "bad-unknown-type.json >/dev/null 2>&1");
    assert_int_equal(WEXITSTATUS(rc), 2);
    rc = system(RL_BIN " import-hf /nonexistent/config.json >/dev/null 2>&1");
    assert_int_equal(WEXITSTATUS(rc), 2);
    rc = system(RL_BIN " import-hf " HF "llama3-8b.json --name x >/dev/null 2>&1");
    assert_int_equal(WEXITSTATUS(rc), 0);
    /* a descriptor path (/dev/fd/N, here a file on descriptor 3) has no
     * file name: exit 2 without --name, 0 with it; the help says so
     * (fixHC: it named <(...), /dev/stdin and - only) */
    rc = system(RL_BIN " import-hf /dev/fd/3 3< " HF "llama3-8b.json >/dev/null 2>&1");
    assert_int_equal(WEXITSTATUS(rc), 2);
    rc = system(RL_BIN " import-hf /dev/fd/3 --name x 3< " HF "llama3-8b.json >/dev/null 2>&1");
    assert_int_equal(WEXITSTATUS(rc), 0);
    rc = system(RL_BIN " import-hf --help 2>&1 | tr '\\n' ' ' | grep -q 'descriptor path "
                "/dev/fd/N (a pipe or a file on it), which has no file name: give --name'");
    assert_int_equal(WEXITSTATUS(rc), 0);
}

/* The families added after users reached for them (issue 16), against the
 * published parameter counts:
 *  - Qwen3-30B-A3B: "30.5B in total and 3.3B activated", "Non-Embedding:
 *    29.9B" (Qwen/Qwen3-30B-A3B model card); Qwen3-235B-A22B: "235B in
 *    total and 22B activated", "Non-Embedding: 234B" (its card).  The cards
 *    round to 2-3 significant figures: totals within 0.2%, active counts
 *    within 2% (3.35e9 is printed 3.3B), non-embedding (total less the
 *    embedding table and the untied LM head) within 0.5%.
 *  - Phi-3-mini: "3.8 billion parameters" (Phi-3 technical report,
 *    arXiv:2404.14219, abstract), MHA, sliding_window 2047 on every layer;
 *    Phi-4-mini: "3.8-billion-parameter" (arXiv:2503.01743, abstract),
 *    tied embeddings, 24 heads / 8 KV heads; both within 1.5% (two
 *    significant figures). */
static void qwen3_moe_and_phi3(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        double total, active, nonemb, tol_total, tol_active;
    } want[] = {
        {"qwen3-30b-a3b.json", 30.5e9, 3.3e9, 29.9e9, 0.002, 0.02},
        {"qwen3-235b-a22b.json", 235e9, 22e9, 234e9, 0.002, 0.02},
        {"phi3-mini-4k.json", 3.8e9, 3.8e9, 0, 0.015, 0.015},
        {"phi4-mini.json", 3.8e9, 3.8e9, 0, 0.015, 0.015},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        char file[512];
        snprintf(file, sizeof file, HF "%s", want[i].file);
        rl_model m = import_model(file, NULL);
        rl_params p = rl_arch_params(&m);
        assert_rel(p.total, want[i].total, want[i].tol_total);
        assert_rel(p.active, want[i].active, want[i].tol_active);
        if (want[i].nonemb > 0)
            assert_rel(p.total - p.embedding - p.lm_head, want[i].nonemb, 0.005);
    }
    rl_model q = import_model(HF "qwen3-30b-a3b.json", NULL);
    assert_int_equal(q.experts, 128);
    assert_int_equal(q.top_k, 8);
    assert_int_equal(q.d_ff_expert, 768);
    assert_int_equal(q.dense_layers, 0);
    assert_int_equal(q.sliding_window, 0);
    rl_model p3 = import_model(HF "phi3-mini-4k.json", NULL);
    assert_int_equal(p3.sliding_window, 2047);
    assert_int_equal(p3.sliding_window_pattern, 0);
    rl_model p4 = import_model(HF "phi4-mini.json", NULL);
    assert_true(p4.tied_embeddings);
    assert_int_equal(p4.kv_heads, 8);
    assert_int_equal(p4.heads * 128, 3072);
    /* other Qwen3-MoE layouts are refused, not guessed */
    expect_error("{\"model_type\": \"qwen3_moe\", \"num_hidden_layers\": 4, \"hidden_size\": 64, "
                 "\"intermediate_size\": 64, \"moe_intermediate_size\": 32, \"num_attention_heads\": 4,"
                 " \"vocab_size\": 10, \"max_position_embeddings\": 100, \"hidden_act\": \"silu\","
                 " \"num_experts\": 4, \"num_experts_per_tok\": 2, \"decoder_sparse_step\": 2}",
                 1, "key 'decoder_sparse_step': 2: only every layer", 0);
    expect_error("{\"model_type\": \"qwen3_moe\", \"num_hidden_layers\": 4, \"hidden_size\": 64, "
                 "\"intermediate_size\": 64, \"moe_intermediate_size\": 32, \"num_attention_heads\": 4,"
                 " \"vocab_size\": 10, \"max_position_embeddings\": 100, \"hidden_act\": \"silu\","
                 " \"num_experts\": 4, \"num_experts_per_tok\": 2, \"mlp_only_layers\": [1]}",
                 1, "key 'mlp_only_layers': only leading layers 0, 1, ..., k-1, in order, can be "
                 "dense (the spec's dense_layers); entry 1 is not 0", 0);
    expect_error("{\"model_type\": \"qwen3_moe\", \"num_hidden_layers\": 4, \"hidden_size\": 64, "
                 "\"intermediate_size\": 64, \"moe_intermediate_size\": 32, \"num_attention_heads\": 4,"
                 " \"vocab_size\": 10, \"max_position_embeddings\": 100, \"hidden_act\": \"silu\","
                 " \"num_experts\": 4, \"num_experts_per_tok\": 2, \"mlp_only_layers\": [0, 2]}",
                 1, "entry 2 is not 1", 0);
    /* tester60 #3: leading dense layers map to dense_layers (Qwen3MoeMLP of
     * intermediate_size, import_hf.c qwen3_moe_layers).  Qwen3-30B-A3B with
     * mlp_only_layers [0, 1], by hand: each of the two layers drops 128
     * experts x 3 x 2048 x 768 = 603,979,776 plus the router 2048 x 128 =
     * 262,144 and gains a dense 3 x 2048 x 6144 = 37,748,736: total
     * -1,132,986,368 exact; active drops 8 experts (37,748,736) and the
     * router for the same dense MLP: -524,288 exact. */
    char path[64];
    cJSON *two = cJSON_CreateArray();
    cJSON_AddItemToArray(two, cJSON_CreateNumber(0));
    cJSON_AddItemToArray(two, cJSON_CreateNumber(1));
    fixture_with(path, "qwen3-30b-a3b.json", 0, "mlp_only_layers", two);
    rl_model qd = import_model(path, NULL);
    unlink(path);
    assert_int_equal(qd.dense_layers, 2);
    assert_int_equal(qd.d_ff, 6144);
    rl_params pq = rl_arch_params(&q), pd = rl_arch_params(&qd);
    assert_true(pd.total - pq.total == -1132986368.0);
    assert_true(pd.active - pq.active == -524288.0);
}

/* tester60 #1: a DeepSeek config without n_shared_experts,
 * first_k_dense_replace or q_lora_rank took 0, 0 and a full-rank q,
 * silently.  Now transformers' defaults, with a note: DeepseekV3Config 1,
 * 3, 1536 (configuration_deepseek_v3.py at 0fc683d1), which are
 * DeepSeek-V3's own values, so the import equals the full fixture's:
 * 671,026,404,352 parameters, exact (same integer sum); DeepseekV2Config
 * 2, 0, 1536 (modular_deepseek_v2.py at ecd75d53).  An explicit null
 * q_lora_rank (DeepSeek-V2-Lite) stays a full-rank q (0); a null
 * first_k_dense_replace is refused (transformers fails on it). */
static void deepseek_defaults(void **state)
{
    (void)state;
    static const char *const keys[] = {"n_shared_experts", "first_k_dense_replace", "q_lora_rank"};
    char full[512];
    snprintf(full, sizeof full, HF "deepseek-v3.json");
    char *t = slurp_text(full);
    cJSON *root = cJSON_Parse(t);
    free(t);
    for (int v2 = 0; v2 < 2; v2++) {
        cJSON *c = cJSON_Duplicate(root, 1);
        for (size_t i = 0; i < 3; i++)
            cJSON_DeleteItemFromObjectCaseSensitive(c, keys[i]);
        if (v2)
            cJSON_ReplaceItemInObjectCaseSensitive(c, "model_type", cJSON_CreateString("deepseek_v2"));
        char *out = cJSON_PrintUnformatted(c), path[64], note[2048] = "";
        write_temp(path, ".json", out);
        free(out);
        cJSON_Delete(c);
        rl_model m = import_noted(path, "d", note, sizeof note);
        unlink(path);
        assert_int_equal(m.shared_experts, v2 ? 2 : 1);
        assert_int_equal(m.dense_layers, v2 ? 0 : 3);
        assert_int_equal(m.q_lora_rank, 1536);
        if (!v2)
            assert_true(rl_arch_params(&m).total == 671026404352.0);
        const char *want = v2 ? "q_lora_rank = 1536, n_shared_experts = 2, first_k_dense_replace = "
                                "0, the defaults of transformers' config for model_type \"deepseek_v2\""
                              : "q_lora_rank = 1536, n_shared_experts = 1, first_k_dense_replace = "
                                "3, the defaults of transformers' config for model_type \"deepseek_v3\"";
        if (!strstr(note, want))
            fail_msg("v2 %d: note '%s'", v2, note);
    }
    cJSON_Delete(root);
    /* the full fixture draws no such note */
    char note[2048] = "", path[64];
    rl_model d = import_noted(HF "deepseek-v3.json", "d", note, sizeof note);
    assert_null(strstr(note, "not given"));
    assert_int_equal(d.q_lora_rank, 1536);
    /* explicit null: full-rank q, no shared expert */
    fixture_with(path, "deepseek-v3.json", 0, "q_lora_rank", cJSON_CreateNull());
    d = import_noted(path, "d", note, sizeof note);
    unlink(path);
    assert_int_equal(d.q_lora_rank, 0);
    assert_null(strstr(note, "q_lora_rank ="));
    fixture_with(path, "deepseek-v3.json", 0, "first_k_dense_replace", cJSON_CreateNull());
    expect_error(path, 0, "key 'first_k_dense_replace': null", 0);
    unlink(path);
}

/* A small Qwen2-style config (LLaMA-3-8B shape: 32 layers, 8 KV heads of
 * 128, so 2*8*128*2 = 4096 B of bf16 KV per token per layer) with `extra`
 * keys, imported and loaded. */
static rl_model qwen_window(const char *type, const char *extra)
{
    char cfg[2048], path[64];
    snprintf(cfg, sizeof cfg,
             "{\"model_type\": \"%s\", \"hidden_size\": 4096, \"intermediate_size\": 14336, "
             "\"num_hidden_layers\": 32, \"num_attention_heads\": 32, \"num_key_value_heads\": 8, "
             "\"vocab_size\": 128256, \"max_position_embeddings\": 8192, \"hidden_act\": \"silu\", "
             "\"moe_intermediate_size\": 512, \"num_experts\": 8, \"num_experts_per_tok\": 2, "
             "\"sliding_window\": 4096%s}", type, extra);
    write_temp(path, ".json", cfg);
    rl_model m = import_model(path, NULL);
    unlink(path);
    return m;
}

/* tester30 F1: Qwen2/Qwen3 slide only layers i >= max_window_layers
 * (transformers Qwen2Config/Qwen3Config: layer_types[i] =
 * "sliding_attention" iff sliding_window is set, i.e. use_sliding_window,
 * and i >= max_window_layers, default 28; an explicit layer_types wins).
 * The tester's config (32 layers, max_window_layers 28, W 4096) at 8192
 * tokens, by hand: 28 global layers x 8192 + 4 local x 4096 tokens, x 4096
 * B = 939,524,096 + 67,108,864 = 1,006,632,960 B, exact (integer bytes);
 * the old importer slid every layer: 32 x 4096 x 4096 = 536,870,912 B. */
static void qwen_max_window_layers(void **state)
{
    (void)state;
    static const struct {
        const char *type, *extra;
        long long local;
        double kv;
    } want[] = {
        {"qwen2", ", \"use_sliding_window\": true, \"max_window_layers\": 28", 4, 1006632960.0},
        {"qwen3", ", \"use_sliding_window\": true", 4, 1006632960.0}, /* default 28 */
        /* Qwen3MoeConfig has no max_window_layers: every layer slides */
        {"qwen3_moe", ", \"use_sliding_window\": true", 32, 536870912.0},
        {"qwen3_moe", ", \"use_sliding_window\": true, \"max_window_layers\": 28", 4, 1006632960.0},
        {"qwen2", ", \"use_sliding_window\": true, \"max_window_layers\": 0", 32, 536870912.0},
        /* none slides: use_sliding_window false, or max_window_layers >= layers */
        {"qwen2", ", \"use_sliding_window\": false, \"max_window_layers\": 4", 0, 1073741824.0},
        {"qwen2", ", \"max_window_layers\": 4", 0, 1073741824.0},
        {"qwen2", ", \"use_sliding_window\": true, \"max_window_layers\": 32", 0, 1073741824.0},
        {"qwen2", ", \"use_sliding_window\": true, \"max_window_layers\": 40", 0, 1073741824.0},
        /* explicit layer_types (30 full, 2 sliding): 30 x 8192 + 2 x 4096 tokens x 4096 B */
        {"qwen2", ", \"use_sliding_window\": true, \"max_window_layers\": 4, \"layer_types\": ["
                  "\"full_attention\", \"full_attention\", \"full_attention\", \"full_attention\", "
                  "\"full_attention\", \"full_attention\", \"full_attention\", \"full_attention\", "
                  "\"full_attention\", \"full_attention\", \"full_attention\", \"full_attention\", "
                  "\"full_attention\", \"full_attention\", \"full_attention\", \"full_attention\", "
                  "\"full_attention\", \"full_attention\", \"full_attention\", \"full_attention\", "
                  "\"full_attention\", \"full_attention\", \"full_attention\", \"full_attention\", "
                  "\"full_attention\", \"full_attention\", \"full_attention\", \"full_attention\", "
                  "\"full_attention\", \"full_attention\", \"sliding_attention\", "
                  "\"sliding_attention\"]", 2, 1040187392.0},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        rl_model m = qwen_window(want[i].type, want[i].extra);
        if (rl_arch_local_layers(&m) != want[i].local)
            fail_msg("case %zu: local_layers %lld, want %lld", i, rl_arch_local_layers(&m),
                     want[i].local);
        assert_true(rl_arch_kv_bytes_per_sequence(&m, RL_BF16, 8192, RL_KV_IDEAL) == want[i].kv);
        if (want[i].local == 4)
            assert_true(!rl_arch_layer_is_local(&m, 27) && rl_arch_layer_is_local(&m, 28));
    }
    /* a layout the spec cannot express (tester31 F9: every family) is refused */
    expect_error("{\"model_type\": \"qwen2\", \"num_hidden_layers\": 3, \"hidden_size\": 64, "
                 "\"intermediate_size\": 64, \"num_attention_heads\": 4, \"vocab_size\": 10, "
                 "\"max_position_embeddings\": 100, \"hidden_act\": \"silu\", \"sliding_window\": 8, "
                 "\"use_sliding_window\": true, \"layer_types\": [\"sliding_attention\", "
                 "\"full_attention\", \"full_attention\"]}",
                 1, "key 'layer_types': entry 2 is \"full_attention\": the layers start sliding", 0);
    expect_error("{\"model_type\": \"qwen2\", \"num_hidden_layers\": 2, \"hidden_size\": 64, "
                 "\"intermediate_size\": 64, \"num_attention_heads\": 4, \"vocab_size\": 10, "
                 "\"max_position_embeddings\": 100, \"hidden_act\": \"silu\", \"sliding_window\": 8, "
                 "\"use_sliding_window\": true, \"layer_types\": [\"full_attention\"]}",
                 1, "key 'layer_types': expected a list of 2", 0);
}

/* A fixture (tests/data/hf) with `key` of its language-model object
 * (text_config when `text` is set) replaced by `value` (taken; NULL:
 * deleted), written to a temporary file `path`. */
static void fixture_with(char *path, const char *file, int text, const char *key, cJSON *value)
{
    char full[512];
    snprintf(full, sizeof full, HF "%s", file);
    char *t = slurp_text(full);
    cJSON *root = cJSON_Parse(t);
    free(t);
    assert_non_null(root);
    cJSON *cfg = text ? cJSON_GetObjectItemCaseSensitive(root, "text_config") : root;
    cJSON_DeleteItemFromObjectCaseSensitive(cfg, key);
    if (value)
        cJSON_AddItemToObject(cfg, key, value);
    char *out = cJSON_PrintUnformatted(root);
    write_temp(path, ".json", out);
    free(out);
    cJSON_Delete(root);
}

/* layer_types from a layout: layer i is sliding iff layout[i % len] is 's'. */
static cJSON *layer_types(long long layers, const char *layout)
{
    cJSON *a = cJSON_CreateArray();
    size_t n = strlen(layout);
    for (long long i = 0; i < layers; i++)
        cJSON_AddItemToArray(a, cJSON_CreateString(layout[i % (long long)n] == 's'
                                                       ? "sliding_attention" : "full_attention"));
    return a;
}

/* tester31 F9, F6, F2: layer_types decides which layers slide in every
 * family (one rule, import_hf.c emit_window).  Expected KV per sequence at
 * 8192 tokens (bf16, ideal view), by hand, exact:
 *  - gemma3-27b (62 layers, W 1024, 16 KV heads x 128 x 2 x 2 = 8192 B a
 *    token and layer): all full 62 x 8192 x 8192 = 4,160,749,568 (the old
 *    importer kept pattern 6: 1,107,296,256); full every 4th layer (15 full,
 *    47 local) (15 x 8192 + 47 x 1024) x 8192 = 1,400,897,536; the first two
 *    full (first_sliding_layer 2) (2 x 8192 + 60 x 1024) x 8192 =
 *    637,534,208; the explicit 5:1 list = the default pattern 6,
 *    (10 x 8192 + 52 x 1024) x 8192 = 1,107,296,256;
 *  - tester31 F6's published Qwen3 config (huggingface.co/C10X/v334: 12
 *    layers, W 512, 3 x [s, s, s, f], 2 KV heads x 64 -> 512 B): 3 full + 9
 *    local, (3 x 8192 + 9 x 512) x 512 = 14,942,208 B;
 *  - mistral-7b all sliding (32 x 4096 x 4096 = 536,870,912, as without the
 *    list); gpt-oss without layer_types = GptOssConfig's default
 *    alternating list = the fixture's own. */
static void layer_types_every_family(void **state)
{
    (void)state;
    static const struct {
        const char *file, *layout;
        int text;
        long long local;
        double kv;
    } want[] = {
        {"gemma3-27b.json", "f", 1, 0, 4160749568.0},
        {"gemma3-27b.json", "sssf", 1, 47, 1400897536.0},
        {"gemma3-27b.json", "ffssssssssssssssssssssssssssssssssssssssssssssssssssssssssssss", 1, 60,
         637534208.0},
        {"gemma3-27b.json", "sssssf", 1, 52, 1107296256.0},
        {"mistral-7b.json", "s", 0, 32, 536870912.0},
    };
    char path[64];
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        long long L = strstr(want[i].file, "gemma3") ? 62 : 32;
        fixture_with(path, want[i].file, want[i].text, "layer_types",
                     layer_types(L, want[i].layout));
        rl_model m = import_model(path, NULL);
        unlink(path);
        if (rl_arch_local_layers(&m) != want[i].local)
            fail_msg("case %zu: local_layers %lld, want %lld", i, rl_arch_local_layers(&m),
                     want[i].local);
        assert_true(rl_arch_kv_bytes_per_sequence(&m, RL_BF16, 8192, RL_KV_IDEAL) == want[i].kv);
    }
    /* the published Qwen3 config of tester31 F6 */
    char cfg[4096];
    cJSON *lt = layer_types(12, "sssf");
    char *lts = cJSON_PrintUnformatted(lt);
    cJSON_Delete(lt);
    snprintf(cfg, sizeof cfg,
             "{\"model_type\": \"qwen3\", \"hidden_size\": 512, \"intermediate_size\": 1536, "
             "\"num_hidden_layers\": 12, \"num_attention_heads\": 8, \"num_key_value_heads\": 2, "
             "\"head_dim\": 64, \"vocab_size\": 151936, \"max_position_embeddings\": 40960, "
             "\"hidden_act\": \"silu\", \"use_sliding_window\": true, \"sliding_window\": 512, "
             "\"max_window_layers\": 9, \"layer_types\": %s}", lts);
    write_temp(path, ".json", cfg);
    rl_model q = import_model(path, NULL);
    unlink(path);
    assert_int_equal(rl_arch_local_layers(&q), 9);
    assert_true(!rl_arch_layer_is_local(&q, 3) && rl_arch_layer_is_local(&q, 4));
    assert_true(rl_arch_kv_bytes_per_sequence(&q, RL_BF16, 8192, RL_KV_IDEAL) == 14942208.0);
    /* tester31 F2: sliding layers with no window are refused (transformers'
     * masking_utils stops: "Could not find a `sliding_window` argument") */
    cJSON *no_window[] = {cJSON_CreateNull(), cJSON_CreateNumber(0)};
    for (int i = 0; i < 2; i++) {
        fixture_with(path, "gpt-oss-120b.json", 0, "sliding_window", no_window[i]);
        expect_error(path, 0, "key 'sliding_window': missing, null or 0, but layer_types lists 18 "
                     "sliding layers", 0);
        unlink(path);
    }
    char *noqwen = strstr(cfg, "\"use_sliding_window\": true");
    memcpy(noqwen, "\"use_sliding_window\":false", 26);
    write_temp(path, ".json", cfg);
    expect_error(path, 0, "key 'use_sliding_window': false", 0);
    unlink(path);
    free(lts);
    /* Mistral's model slides every layer whatever layer_types says */
    fixture_with(path, "mistral-7b.json", 0, "layer_types", layer_types(32, "f"));
    expect_error(path, 0, "key 'layer_types': lists 32 full layers, but transformers' mistral", 0);
    unlink(path);
    /* GptOssConfig's default layer_types (alternating, sliding first) */
    fixture_with(path, "gpt-oss-120b.json", 0, "layer_types", NULL);
    rl_model a = import_model(path, NULL), b = import_model(HF "gpt-oss-120b.json", NULL);
    unlink(path);
    assert_same_info(&a, &b);
}

/* tester31 F1: a config without head_dim takes the family's transformers
 * default (Qwen3Config 128, Gemma2Config 256, GptOssConfig 64; Qwen3Moe has
 * no such field and derives hidden / heads), with a note, not hidden /
 * heads.  KV bytes a token (bf16, 1-token sequence: every layer holds one
 * token), by hand: gpt-oss 36 layers x 8 KV heads x 64 x 2 x 2 = 73,728
 * (the old importer: 2880 / 64 = 45 -> 51,840, which is also what
 * GptOssConfig makes of an explicit null); gemma2-27b 46 x 16 x 256 x 4 =
 * 753,664; qwen3-32b the fixture's own 128 -> 64 x 8 x 128 x 4 = 262,144;
 * qwen3-30b-a3b 48 x 4 x (2048 / 32 = 64) x 4 = 49,152. */
static void head_dim_defaults(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int null;
        double kv;
        const char *note;
    } want[] = {
        {"gpt-oss-120b.json", 0, 73728.0, "head_dim not given: 64, the default of transformers' "
                                          "config for model_type \"gpt_oss\""},
        {"gpt-oss-120b.json", 1, 51840.0, NULL},
        {"gemma2-27b.json", 0, 753664.0, "head_dim not given: 256"},
        {"qwen3-32b.json", 1, 262144.0, "head_dim not given: 128"},
        {"qwen3-30b-a3b.json", 0, 49152.0, NULL},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        char path[64], note[1024] = "";
        fixture_with(path, want[i].file, 0, "head_dim", want[i].null ? cJSON_CreateNull() : NULL);
        rl_model m = import_noted(path, NULL, note, sizeof note);
        unlink(path);
        double kv = rl_arch_kv_bytes_per_sequence(&m, RL_BF16, 1, RL_KV_IDEAL);
        if (kv != want[i].kv)
            fail_msg("case %zu: kv %.0f B a token, want %.0f", i, kv, want[i].kv);
        if (want[i].note ? !strstr(note, want[i].note) : strstr(note, "head_dim") != NULL)
            fail_msg("case %zu: note '%s'", i, note);
    }
}

/* tester57 F1: import-hf takes no --set and no --weights, so a note's
 * advice names what works: the saved spec's field, or --set for the
 * commands that load the spec, and --weights for those that run it.  Each
 * note a config can draw (activation, head_dim, kv_heads defaulted;
 * rope_scaling; quantization_config) is checked for its advice. */
static void notes_advise_what_works(void **state)
{
    (void)state;
    static const struct {
        const char *file, *key; /* key deleted (NULL: none) */
        const char *want;
    } cases[] = {
        {"gpt-oss-120b.json", "head_dim", "if the checkpoint differs, edit the saved spec's "
                                          "head_dim field, or pass --set model.head_dim=N to the "
                                          "commands that load it"},
        {"gpt-oss-120b.json", NULL, "give the commands that run it --weights mxfp4 to match"},
        {"llama3-8b.json", "num_key_value_heads",
         "if the checkpoint differs, edit the saved spec's kv_heads field, or pass --set "
         "model.kv_heads=N to the commands that load it"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[64], note[2048] = "";
        fixture_with(path, cases[i].file, 0, cases[i].key ? cases[i].key : "no such key", NULL);
        import_noted(path, NULL, note, sizeof note);
        unlink(path);
        if (!strstr(note, cases[i].want) || strstr(note, "; pass --"))
            fail_msg("case %zu: note '%s', want '%s'", i, note, cases[i].want);
    }
    static const char *const text[] = {
        "{\"model_type\": \"qwen2\", \"num_hidden_layers\": 2, \"hidden_size\": 64, "
        "\"intermediate_size\": 128, \"num_attention_heads\": 4, \"num_key_value_heads\": 2, "
        "\"vocab_size\": 10, \"max_position_embeddings\": 100}",
        "{\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"hidden_size\": 64, "
        "\"intermediate_size\": 64, \"num_attention_heads\": 4, \"num_key_value_heads\": 4, "
        "\"vocab_size\": 10, \"max_position_embeddings\": 8192, \"hidden_act\": \"silu\", "
        "\"rope_scaling\": {\"type\": \"linear\", \"factor\": 2}}"};
    static const char *const want[] = {
        "if the checkpoint differs, edit the saved spec's mlp field, or pass --set model.mlp=NAME "
        "to the commands that load it",
        "to plan for another length, edit the saved spec's max_context field, or pass --set "
        "model.max_context=N to the commands that load it"};
    for (int i = 0; i < 2; i++) {
        char path[64], note[2048] = "";
        write_temp(path, ".json", text[i]);
        import_noted(path, "t", note, sizeof note);
        unlink(path);
        if (!strstr(note, want[i]) || strstr(note, "; pass --"))
            fail_msg("text %d: note '%s', want '%s'", i, note, want[i]);
    }
}


/* tester LOW #2: "head_dim": 0 is refused under its key (it was taken as
 * not given, hidden / heads = 4096 / 32 = 128 used silently); a config
 * without num_key_value_heads takes num_attention_heads (32 in
 * meta-llama/Meta-Llama-3-8B's config.json; LlamaConfig's default) with a
 * note on stderr, as import-hf --help promises; one with the key notes
 * nothing about it. */
static void kv_heads_and_head_dim_keys(void **state)
{
    (void)state;
    char path[64], note[1024] = "";
    fixture_with(path, "llama3-8b.json", 0, "head_dim", cJSON_CreateNumber(0));
    expect_error(path, 0, "key 'head_dim': expected a positive integer, got 0", 0);
    unlink(path);
    fixture_with(path, "llama3-8b.json", 0, "num_key_value_heads", NULL);
    rl_model m = import_noted(path, NULL, note, sizeof note);
    unlink(path);
    assert_int_equal(m.kv_heads, 32);
    if (!strstr(note, "num_key_value_heads not given: kv_heads = num_attention_heads = 32"))
        fail_msg("note '%s'", note);
    m = import_noted(HF "llama3-8b.json", NULL, note, sizeof note);
    assert_int_equal(m.kv_heads, 8);
    assert_null(strstr(note, "num_key_value_heads"));
}

/* tester30 F2: rope_scaling sets max_context by vLLM's max_model_len rule
 * (_get_and_verify_max_len: yarn -> original_max_position_embeddings x
 * factor, linear/dynamic -> max_position_embeddings x factor, llama3 /
 * longrope / su unchanged) with a note naming it.  Expected lengths exact:
 * the tester's yarn 4 x 8192 = 32768; Qwen2.5's documented YaRN block
 * (factor 4, original 32768; Qwen/Qwen2.5-7B-Instruct model card) = 131072;
 * linear 2 x 4096 = 8192; llama3 keeps 8192 and notes nothing. */
static void rope_scaling_context(void **state)
{
    (void)state;
    static const struct {
        const char *rope;
        long long max_pos, want;
        const char *note;
    } cases[] = {
        {"{\"type\": \"yarn\", \"factor\": 4.0, \"original_max_position_embeddings\": 8192}", 8192,
         32768, "rope_scaling yarn factor 4 on original_max_position_embeddings 8192: "
                "max_context = 32768"},
        {"{\"rope_type\": \"yarn\", \"factor\": 4.0, \"original_max_position_embeddings\": 32768}",
         32768, 131072, "max_position_embeddings says 32768); to plan for another length, edit the saved "
                "spec's max_context field"},
        /* review30 L3: without the key the note names the one used */
        {"{\"type\": \"yarn\", \"factor\": 4.0}", 8192, 32768,
         "yarn factor 4 on max_position_embeddings (no original_max_position_embeddings) 8192: "
         "max_context = 32768"},
        {"{\"rope_type\": \"linear\", \"factor\": 2}", 4096, 8192,
         "linear factor 2 on max_position_embeddings 4096: max_context = 8192"},
        {"{\"rope_type\": \"llama3\", \"factor\": 8.0, \"original_max_position_embeddings\": 8192}",
         8192, 8192, ""},
        {"null", 8192, 8192, ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char cfg[1024], path[64], err[1024], note[1024];
        snprintf(cfg, sizeof cfg,
                 "{\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"hidden_size\": 64, "
                 "\"intermediate_size\": 64, \"num_attention_heads\": 4, "
                 "\"num_key_value_heads\": 4, \"vocab_size\": 10, "
                 "\"max_position_embeddings\": %lld, \"hidden_act\": \"silu\", "
                 "\"rope_scaling\": %s}", cases[i].max_pos, cases[i].rope);
        write_temp(path, ".json", cfg);
        int io;
        char *text = rl_import_hf(path, NULL, NULL, &io, err, sizeof err, note, sizeof note);
        unlink(path);
        if (!text)
            fail_msg("case %zu: %s", i, err);
        char want[64];
        snprintf(want, sizeof want, "max_context = %lld,", cases[i].want);
        if (!strstr(text, want))
            fail_msg("case %zu: no '%s' in\n%s", i, want, text);
        free(text);
        if (*cases[i].note ? !strstr(note, cases[i].note) : *note != '\0')
            fail_msg("case %zu: note '%s', want '%s'", i, note, cases[i].note);
    }
    /* DeepSeek-V3 (yarn 40 x 4096 = its 163840) and gpt-oss (32 x 4096 =
     * 131072) already agree: the presets stay (presets_match_import), no note */
    char err[1024], note[1024];
    int io;
    char *text = rl_import_hf(HF "gpt-oss-120b.json", NULL, NULL, &io, err, sizeof err, note,
                              sizeof note);
    assert_non_null(text);
    assert_null(strstr(note, "rope_scaling"));
    free(text);
    /* fixSE #2: gemma3 keeps max_position_embeddings (vLLM skips its factor,
     * "Gemma3's max_model_len (128K) is already scaled"); its linear 8 block,
     * which would give 8 x 131072 = 1048576 elsewhere, now says it is not
     * applied (before: no note).  gemma-3-27b's config, max_context exact. */
    text = rl_import_hf(HF "gemma3-27b.json", NULL, NULL, &io, err, sizeof err, note, sizeof note);
    assert_non_null(text);
    assert_non_null(strstr(text, "max_context = 131072,"));
    if (!strstr(note, "rope_scaling linear factor 8 not applied: gemma3 keeps max_context = "
                      "max_position_embeddings 131072"))
        fail_msg("gemma3 note: '%s'", note);
    free(text);
    expect_error("{\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"hidden_size\": 64, "
                 "\"intermediate_size\": 64, \"num_attention_heads\": 4, \"vocab_size\": 10, "
                 "\"max_position_embeddings\": 100, \"hidden_act\": \"silu\", "
                 "\"rope_scaling\": {\"type\": \"yarn\", \"factor\": -2}}",
                 1, "key 'rope_scaling.factor'", 0);
    expect_error("{\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"hidden_size\": 64, "
                 "\"intermediate_size\": 64, \"num_attention_heads\": 4, \"vocab_size\": 10, "
                 "\"max_position_embeddings\": 100, \"hidden_act\": \"silu\", "
                 "\"rope_scaling\": {\"factor\": 2}}",
                 1, "key 'rope_scaling': no rope_type", 0);
    /* tester34 F6: a rope type transformers' ROPE_INIT_FUNCTIONS / vLLM's
     * get_rope do not know -- also a case slip -- is refused (before: gpt-oss
     * "YaRN" x 32 gave 4194304 tokens, "weird" x 3 gave 3 x the length), and
     * so is a rope_type/type pair that disagree (vLLM's
     * patch_rope_scaling_dict raises); an agreeing pair and vLLM's legacy
     * "mrope" (-> default, factor 1) import. */
    static const struct {
        const char *rope, *err;
    } bad[] = {
        {"{\"rope_type\": \"YaRN\", \"factor\": 32}",
         "key 'rope_scaling.rope_type': unknown rope type \"YaRN\""},
        {"{\"type\": \"weird\", \"factor\": 3}", "key 'rope_scaling.type': unknown rope type"},
        {"{\"type\": \"yarn\", \"rope_type\": \"linear\", \"factor\": 4}",
         "key 'rope_scaling': rope_type \"linear\" and type \"yarn\" disagree"},
        {"{\"type\": 1, \"rope_type\": \"linear\", \"factor\": 4}", "disagree"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char cfg[1024];
        snprintf(cfg, sizeof cfg,
                 "{\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"hidden_size\": 64, "
                 "\"intermediate_size\": 64, \"num_attention_heads\": 4, \"vocab_size\": 10, "
                 "\"max_position_embeddings\": 4096, \"hidden_act\": \"silu\", "
                 "\"rope_scaling\": %s}", bad[i].rope);
        expect_error(cfg, 1, bad[i].err, 0);
    }
    static const char *const good[] = {
        "{\"type\": \"linear\", \"rope_type\": \"linear\", \"factor\": 2}",
        "{\"type\": \"mrope\", \"mrope_section\": [16, 24, 24]}",
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        char cfg[1024], path[64];
        snprintf(cfg, sizeof cfg,
                 "{\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"hidden_size\": 64, "
                 "\"intermediate_size\": 64, \"num_attention_heads\": 4, \"vocab_size\": 10, "
                 "\"max_position_embeddings\": 4096, \"hidden_act\": \"silu\", "
                 "\"rope_scaling\": %s}", good[i]);
        write_temp(path, ".json", cfg);
        char *t = rl_import_hf(path, NULL, NULL, &io, err, sizeof err, note, sizeof note);
        unlink(path);
        if (!t)
            fail_msg("good %zu: %s", i, err);
        /* linear 2 x 4096 = 8192; mrope (no factor) keeps 4096 */
        if (!strstr(t, i == 0 ? "max_context = 8192," : "max_context = 4096,"))
            fail_msg("good %zu:\n%s", i, t);
        free(t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip_hand_written),
        cmocka_unit_test(quantization_noted),
        cmocka_unit_test(unknown_torch_dtype_noted),
        cmocka_unit_test(presets_match_import),
        cmocka_unit_test(import_writes_rmsnorm),
        cmocka_unit_test(family_mappings),
        cmocka_unit_test(qwen3_moe_and_phi3),
        cmocka_unit_test(deepseek_defaults),
        cmocka_unit_test(qwen_max_window_layers),
        cmocka_unit_test(layer_types_every_family),
        cmocka_unit_test(head_dim_defaults),
        cmocka_unit_test(kv_heads_and_head_dim_keys),
        cmocka_unit_test(notes_advise_what_works),
        cmocka_unit_test(rope_scaling_context),
        cmocka_unit_test(source_without_local_directories),
        cmocka_unit_test(errors),
        cmocka_unit_test(qwen2_biases_and_default_act),
        cmocka_unit_test(bias_keys_follow_modeling_code),
        cmocka_unit_test(cli_exit_codes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
