/* fuzz_measure.c — libFuzzer harness for the measurement CSV reader of
 * `validate --against` and `fit` (measure.h rl_measure_read: a header
 * naming its columns, RFC 4180 quoting, numbers through number.h). */
#include "fuzz_util.h"

#include "measure.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file("measure", ".csv", data, size);
    char err[1024];
    rl_meas m;
    if (rl_measure_read(path, &m, err, sizeof err) == 0)
        rl_measure_free(&m);
    return 0;
}
