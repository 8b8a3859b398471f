/* backend.c — picking a backend by name; the CUDA entry point of builds
 * without CUDA.  Uses backend.h. */
#include "backend.h"

#include <stdio.h>
#include <string.h>

#include "clock.h"

double rl_backend_clock(const rl_backend *be)
{
    if (be->clock)
        return be->clock(be->ctx);
    return rl_now_s();
}

const char *rl_backend_clock_name(const rl_backend *be)
{
    return be->clock && be->clock_name ? be->clock_name : "wall";
}

#ifndef RL_HAVE_CUDA
int rl_backend_cuda(rl_backend *out, char *err, size_t errlen)
{
    (void)out;
    snprintf(err, errlen, "backend 'cuda': this binary is built without CUDA "
                          "(`make cuda` builds bin/roofline-cuda)");
    return -1;
}
#endif

int rl_backend_open(const char *name, int threads, rl_backend *out, char *err, size_t errlen)
{
    if (strcmp(name, "cpu") == 0)
        return rl_backend_cpu(out, threads, err, errlen);
    if (strcmp(name, "cuda") == 0)
        return rl_backend_cuda(out, err, errlen);
    snprintf(err, errlen, "--backend '%s': expected cpu or cuda", name);
    return -1;
}
