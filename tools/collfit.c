/* collfit.c — roofline-collfit: a hardware profile's `collectives` table
 * from NVIDIA AIConfigurator's measured collective tables (collfit.h).
 *
 *   roofline-collfit SILICON_DIR
 *
 * reads SILICON_DIR/nccl/nccl_perf.csv.gz and, where present,
 * SILICON_DIR/{trtllm,vllm}/custom_allreduce_perf.csv.gz (the layout of
 * ../shared/data/silicon/<gpu>), prints `collectives = { ... },` for the
 * profile on stdout and the fit's |error| (median, p90) per implementation
 * on stderr.  Exit 2 on bad input.  `make collectives` runs it for every GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "collfit.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: roofline-collfit SILICON_DIR (e.g. ../shared/data/silicon/h100_sxm)\n");
        return 2;
    }
    static const char *const TABLES[][2] = {{"nccl", "nccl/nccl_perf.csv.gz"},
                                            {"trtllm", "trtllm/custom_allreduce_perf.csv.gz"},
                                            {"vllm", "vllm/custom_allreduce_perf.csv.gz"}};
    char dirbuf[1024];
    snprintf(dirbuf, sizeof dirbuf, "%s", argv[1]);
    for (size_t l = strlen(dirbuf); l > 1 && dirbuf[l - 1] == '/'; l--)
        dirbuf[l - 1] = '\0';
    const char *dir = dirbuf, *gpu = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
    rl_coll_sample *s = NULL;
    size_t n = 0, cap = 0;
    char err[512], path[1024], ver[64], vllm_ver[64] = "";
    static rl_collectives t;
    int k = snprintf(t.source, sizeof t.source,
                     "NVIDIA AIConfigurator (aiconfigurator-core 0.12.0, Apache-2.0), "
                     "systems/data/%s:", gpu);
    int f = snprintf(t.fitted_on, sizeof t.fitted_on, "16-bit rows of silicon/%s/", gpu);
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, TABLES[i][1]);
        FILE *probe = fopen(path, "rb");
        if (!probe && i > 0)
            continue; /* engine tables are optional */
        if (probe)
            fclose(probe);
        if (rl_collfit_read(path, &s, &n, &cap, err, sizeof err) < 0) {
            fprintf(stderr, "roofline-collfit: %s\n", err);
            free(s);
            return 2;
        }
        rl_collfit_table_version(path, ver, sizeof ver);
        if (i == 2)
            snprintf(vllm_ver, sizeof vllm_ver, "%s", ver);
        k += snprintf(t.source + k, sizeof t.source - (size_t)k, "%s %s %s", i ? "," : "",
                      TABLES[i][0], ver);
        f += snprintf(t.fitted_on + f, sizeof t.fitted_on - (size_t)f, "%s%s", i ? " + " : "",
                      TABLES[i][1]);
    }
    snprintf(t.fitted_on + f, sizeof t.fitted_on - (size_t)f, " (%zu rows; roofline-collfit)", n);
    if (rl_collfit_fit(s, n, &t, err, sizeof err) != 0) {
        fprintf(stderr, "roofline-collfit: %s: %s\n", dir, err);
        free(s);
        return 2;
    }
    /* vLLM's algorithm switches (collfit.h); the lookup never interpolates
     * across one (collectives.h) */
    if (vllm_ver[0] && rl_collfit_vllm_switches(&t, gpu, vllm_ver) < 0)
        fprintf(stderr, "roofline-collfit: %s: no vLLM switches known for vLLM %s on this GPU: "
                        "its rows interpolate across sizes\n", gpu, vllm_ver);
    /* no top-level impl: a plan's AllReduce follows the selected engine
     * (collectives.h); --set hw.collectives.impl= names one for all */
    printf("  collectives = {\n    source = \"%s\",\n    fitted_on = \"%s\",\n"
           "    rows = {\n", t.source, t.fitted_on);
    for (int i = 0; i < t.n; i++) {
        const rl_coll_row *r = &t.row[i];
        printf("      { op = \"%s\", impl = \"%s\", gpus = %lld, latency_s = %.4g, bw = %.4g, "
               "floor_s = %.4g,\n        points = {", rl_collective_name(r->op), r->impl, r->gpus,
               r->latency_s, r->bw, r->floor_s);
        for (int p = 0; p < r->np; p++)
            printf("%s{%.10g, %.4g}", p ? (p % 4 ? ", " : ",\n          ") : " ", r->bytes[p],
                   r->seconds[p]);
        printf(" }");
        for (int k = 0; k < r->nsw; k++)
            printf("%s%.10g%s", k ? ", " : ",\n        switches = { ", r->sw[k],
                   k == r->nsw - 1 ? " }" : "");
        printf(" },\n");
    }
    printf("    },\n  },\n");
    static const char *const IMPLS[] = {"nccl", "trtllm", "vllm_graph", "vllm_eager"};
    for (int i = 0; i < 4; i++) {
        double med, p90, hmed, hp90;
        size_t c = rl_collfit_error(&t, s, n, IMPLS[i], 0, &med, &p90);
        size_t h = rl_collfit_error(&t, s, n, IMPLS[i], 1, &hmed, &hp90);
        if (c)
            fprintf(stderr, "%-9s %-10s |error| of (M) over %3zu rows: median %5.1f%%, p90 %5.1f%%;"
                            " of the points, each held out (%3zu): median %4.1f%%, p90 %4.1f%%\n",
                    gpu, IMPLS[i], c, 100 * med, 100 * p90, h, 100 * hmed, 100 * hp90);
    }
    free(s);
    return 0;
}
