/* fuzz_scenario.c — libFuzzer harness for scenario scripts: the input runs
 * as a Lua scenario with the `roofline` module in the sandbox
 * (lua_api.h rl_lua_run_scenario) under a 1e6-instruction budget and with no
 * output directory, so roofline.write and roofline.plot must refuse. */
#include "fuzz_util.h"

#include "lua_api.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    if (!ready) {
        fuzz_init(1); /* print() goes to stdout */
        ready = 1;
    }
    const char *path = fuzz_file("scenario", ".lua", data, size);
    char err[4096];
    rl_scenario_opts opts = {NULL, 1000000};
    (void)rl_lua_run_scenario(path, 0, NULL, &opts, err, sizeof err);
    return 0;
}
