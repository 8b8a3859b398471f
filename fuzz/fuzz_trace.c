/* fuzz_trace.c — libFuzzer harness for the serving simulator's trace CSV
 * reader (workload.h rl_trace_read: "arrival_s,prompt_tokens,output_tokens
 * [,prefix_id[,prefix_tokens]]" lines, RFC 4180 quoting; with and without a
 * max_context).  Built by `make fuzz` once
 * src/workload.h is in the tree (the serving simulator, issue 7). */
#include "fuzz_util.h"

#include "workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file("trace", ".csv", data, size);
    char err[1024];
    rl_request *req = NULL;
    for (int prefix = 0; prefix <= 64; prefix += 64) { /* without and with a default prefix */
        if (rl_trace_read(path, prefix, prefix ? 8192 : 0, &req, err, sizeof err) >= 0)
            free(req);
        req = NULL;
    }
    return 0;
}
