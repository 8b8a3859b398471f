/* fuzz_import_hf.c — libFuzzer harness for the Hugging Face config.json
 * importer (import_hf.h rl_import_hf): cJSON parse, key mapping, and the
 * validation of the produced spec in the sandbox. */
#include "fuzz_util.h"

#include "import_hf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    if (!ready) {
        fuzz_init(0);
        ready = 1;
    }
    const char *path = fuzz_file("hf", ".json", data, size);
    char err[1024];
    int oom;
    char *text = rl_import_hf(path, NULL, NULL, &oom, err, sizeof err, NULL, 0);
    free(text);
    return 0;
}
