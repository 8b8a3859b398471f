/* sizereport.h — the deployment sizing report: Markdown or self-contained
 * HTML (inline SVG figures, no scripts, no network fetches).
 *
 * Owns the report's sections (recommendation, workload and targets,
 * alternatives, cost/latency frontier, load -> latency curve, memory per
 * chip, sensitivity, assumptions, method) and the small SVG line/scatter
 * charts.  Markdown and HTML come from the same code path.  Uses size,
 * serve, spec, report (rl_write_atomic). */
#ifndef RL_SIZEREPORT_H
#define RL_SIZEREPORT_H

#include <stddef.h>

#include "size.h"

typedef struct {
    const rl_size_input *in;
    const rl_size_result *res;
    const rl_size_curve *curve;       /* of res->c[0]; NULL when nothing meets */
    const rl_size_sensitivity *sens;  /* 3 entries, or NULL */
    const char *workload_desc;        /* "Poisson 20 req/s, prompt lognormal:2000:0.8, ..." */
    const char *command;              /* the command line that produced it */
} rl_size_report_data;

/* 1 and a sentence in buf (n bytes, "its KV pool on ...") when row c's KV
 * pool rests on a memory rule that charges no activation workspace or
 * context (the trtllm default, engines.c: no public figure) and what the
 * rule leaves per chip is below vLLM's profiled context + workspace
 * (3.27 GB, Llama-3-8B on an H100): the pool is then optimistic, perhaps
 * absent (tester34 F4: DeepSeek-V3 fp8 on 8 H100, 0.33 GB of KV a GPU,
 * recommended with no caution).  0 otherwise. */
int rl_size_activation_caution(const rl_size_input *in, const rl_size_candidate *c, char *buf,
                               size_t n);

/* Render to a malloc'd string; html selects the format.  NULL on OOM. */
char *rl_size_report_render(const rl_size_report_data *d, int html);

/* A single SVG line chart (exposed for tests): series of n points each;
 * hline > 0 draws a dashed target line labelled `hlabel`.  Malloc'd or NULL. */
typedef struct {
    const char *name;
    const double *x, *y;
    int n;
    int points_only; /* scatter instead of a line */
} rl_svg_series;

char *rl_svg_chart(const char *title, const char *xlabel, const char *ylabel,
                   const rl_svg_series *s, int ns, double hline, const char *hlabel);

#endif
