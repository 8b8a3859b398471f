/* fuzz_spec.c — libFuzzer harness for the spec loader: the input is a Lua
 * file loaded as a model spec and as a hardware spec in the sandbox
 * (spec.h rl_model_load / rl_hw_load), and again with a --set override
 * when it loads. */
#include "fuzz_util.h"

#include "spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    if (!ready) {
        fuzz_init(0);
        ready = 1;
    }
    const char *path = fuzz_file("spec", ".lua", data, size);
    char err[1024];
    rl_model m;
    rl_hw h;
    rl_override ov[] = {{"max_context", "1048576"}, {"flops.bf16", "1e15"}};
    /* the override runs only on specs that loaded: a runaway script costs
     * its whole instruction budget on every load */
    if (rl_model_load(path, NULL, 0, &m, err, sizeof err) == 0)
        (void)rl_model_load(path, ov, 1, &m, err, sizeof err);
    if (rl_hw_load(path, NULL, 0, &h, err, sizeof err) == 0)
        (void)rl_hw_load(path, ov + 1, 1, &h, err, sizeof err);
    return 0;
}
