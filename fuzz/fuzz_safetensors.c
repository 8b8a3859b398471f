/* fuzz_safetensors.c — libFuzzer harness for the reference engine's
 * .safetensors reader (weights.h rl_safetensors_open: 8-byte header length,
 * JSON header, data offsets; rl_safetensors_read of an F32 and a BF16
 * tensor).  Built by `make fuzz` once reference_engine/weights.h is in the
 * tree (the reference engine, issue 5). */
#include "fuzz_util.h"

#include "weights.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file("st", ".safetensors", data, size);
    char err[1024];
    rl_safetensors *f = rl_safetensors_open(path, err, sizeof err);
    if (!f)
        return 0;
    static float out[64];
    rl_tensor_info norm = {"model.norm.weight", 1, 64}, embed = {"model.embed_tokens.weight", 8, 8};
    (void)rl_safetensors_read(f, &norm, out, err, sizeof err);
    (void)rl_safetensors_read(f, &embed, out, err, sizeof err);
    rl_safetensors_close(f);
    return 0;
}
