/* plot.c — figure data, gnuplot scripts from plots/NAME.gp, atomic rendering. */
#define _GNU_SOURCE /* memfd_create */
#include "plot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arch.h"
#include "interrupt.h"
#include "memory.h"
#include "ops.h"
#include "report.h"
#include "roofline.h"

#define PATHLEN 4096

/* A string built with stdio (open_memstream). */
typedef struct {
    FILE *f;
    char *s;
    size_t len;
} text;

static int text_open(text *t)
{
    t->s = NULL;
    t->len = 0;
    t->f = open_memstream(&t->s, &t->len);
    return t->f ? 0 : -1;
}

/* Close the stream; returns the string (caller frees) or NULL. */
static char *text_close(text *t)
{
    int bad = ferror(t->f);
    fclose(t->f);
    if (bad) {
        free(t->s);
        return NULL;
    }
    return t->s;
}

static const char *terminal_for(const char *out)
{
    const char *dot = strrchr(out, '.');
    if (dot && strcmp(dot, ".png") == 0)
        return "set terminal pngcairo size 1280,860 enhanced font 'DejaVu Sans,15' linewidth 1.6\n";
    if (dot && strcmp(dot, ".svg") == 0)
        return "set terminal svg size 1280,860 dynamic enhanced font 'DejaVu Sans,15' linewidth 1.6\n";
    return NULL;
}

static char *read_file(const char *path, char *err, size_t errlen)
{
    FILE *f = rl_fopen_input(path, err, errlen);
    if (!f)
        return NULL;
    text t;
    if (text_open(&t) != 0) {
        fclose(f);
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        fwrite(chunk, 1, n, t.f);
    fclose(f);
    char *s = text_close(&t);
    if (!s)
        snprintf(err, errlen, "%s: out of memory", path);
    return s;
}

/* A memory file holding `s` (rewound), for gnuplot to read.  Returns the
 * descriptor or -1. */
static int memory_file(const char *label, const char *s)
{
    int fd = memfd_create(label, MFD_CLOEXEC);
    size_t len = strlen(s), done = 0;
    while (fd >= 0 && done < len) {
        ssize_t n = write(fd, s + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            close(fd);
            return -1;
        }
        done += (size_t)n;
    }
    if (fd >= 0 && lseek(fd, 0, SEEK_SET) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Run gnuplot on the script in memory file `script` (as /dev/fd/5), reading
 * the data from memory file `data` and writing the figure to the open file
 * `out`: it opens nothing by name in the output folder, so no link planted
 * or swapped there can redirect it or feed it another script.  Returns the
 * exit status, 127 when gnuplot cannot be executed, or -1 when fork fails. */
static int run_gnuplot(int script, int data, int out)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        /* move the three above 9 first, so no dup2 below clobbers another */
        int s = fcntl(script, F_DUPFD, 10), d = fcntl(data, F_DUPFD, 10), o = fcntl(out, F_DUPFD, 10);
        if (s < 0 || d < 0 || o < 0 || dup2(o, 3) < 0 || dup2(d, 4) < 0 || dup2(s, 5) < 0)
            _exit(126);
        execlp("gnuplot", "gnuplot", "-e", "outfile='/dev/fd/3'; datafile='/dev/fd/4'",
               "/dev/fd/5", (char *)NULL);
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

int rl_plot_check_path(const char *out, char *err, size_t errlen)
{
    const char *base = strrchr(out, '/');
    base = base ? base + 1 : out;
    if (!terminal_for(out) || strlen(base) <= 4) {
        snprintf(err, errlen, "%s: figure name must be NAME.png or NAME.svg", out);
        return -1;
    }
    if (strchr(out, '\'') || strchr(out, '\n') || strlen(out) > PATHLEN - 32) {
        snprintf(err, errlen, "%s: figure path must be shorter than %d bytes, without quotes or "
                              "newlines",
                 out, PATHLEN - 32);
        return -1;
    }
    return 0;
}

/* Write STEM.dat and STEM.gp inside the open directory `dir` and render
 * `leaf` there (see rl_plot_render); `out` names the figure in messages and
 * ends with `leaf`. */
static int render_at(int dir, const char *tmpl, const char *out, const char *leaf, const char *vars,
                     const char *data, char *err, size_t errlen)
{
    const char *term = terminal_for(leaf);
    char stem[PATHLEN - 32], dat[PATHLEN], gp[PATHLEN], tpath[PATHLEN], tmp[PATHLEN];
    snprintf(stem, sizeof stem, "%.*s", (int)(strrchr(leaf, '.') - leaf), leaf); /* checked */
    snprintf(dat, sizeof dat, "%s.dat", stem);
    snprintf(gp, sizeof gp, "%s.gp", stem);
    if (rl_data_find("plots", tmpl, tpath, sizeof tpath) != 0) {
        char tried[3200];
        rl_data_tried("plots", tmpl, tried, sizeof tried);
        snprintf(err, errlen, "plots/%s: template not found (tried %s; set ROOFLINE_DATA)", tmpl,
                 tried);
        return -1;
    }
    char *body = read_file(tpath, err, errlen);
    if (!body)
        return -1;
    text t;
    char *script = NULL;
    if (text_open(&t) == 0) {
        fprintf(t.f,
                "# Generated by roofline from plots/%s.  Rerun in this folder: gnuplot %s\n%s"
                "if (!exists('outfile')) outfile = '%s'\nset output outfile\n"
                "if (!exists('datafile')) datafile = '%s'\n%s\n%s",
                tmpl, gp, term, leaf, dat, vars, body);
        script = text_close(&t);
    }
    free(body);
    if (!script) {
        snprintf(err, errlen, "%s: out of memory", out);
        return -1;
    }
    char shown_dat[2 * PATHLEN], shown_gp[2 * PATHLEN]; /* as the user named the folder */
    snprintf(shown_dat, sizeof shown_dat, "%.*s%s", (int)(leaf - out), out, dat);
    snprintf(shown_gp, sizeof shown_gp, "%.*s%s", (int)(leaf - out), out, gp);
    int rc = rl_write_atomic_at(dir, dat, shown_dat, data, strlen(data), err, errlen);
    if (rc == 0)
        rc = rl_write_atomic_at(dir, gp, shown_gp, script, strlen(script), err, errlen);
    int sfd = rc == 0 ? memory_file("roofline-gp", script) : -1;
    free(script);
    if (rc != 0)
        return -1;
    int dfd = memory_file("roofline-dat", data);
    if (sfd < 0 || dfd < 0) {
        snprintf(err, errlen, "%s: cannot hand the script to gnuplot: %s", out, strerror(errno));
        if (sfd >= 0)
            close(sfd);
        if (dfd >= 0)
            close(dfd);
        return -1;
    }
    int fd = rl_temp_at(dir, leaf, out, tmp, sizeof tmp, err, errlen); /* tracked for a 2nd signal */
    int st = fd < 0 ? -2 : run_gnuplot(sfd, dfd, fd);
    close(sfd);
    close(dfd);
    if (st == -2)
        return -1;
    struct stat sb;
    int empty = fstat(fd, &sb) != 0 || sb.st_size == 0;
    close(fd);
    if (st == 0 && !empty && renameat(dir, tmp, dir, leaf) == 0) {
        rl_interrupt_track_temp(AT_FDCWD, NULL);
        return 0;
    }
    int e = errno;
    unlinkat(dir, tmp, 0);
    rl_interrupt_track_temp(AT_FDCWD, NULL);
    if (st == 127) {
        snprintf(err, errlen, "gnuplot not found: kept %s and %s (install gnuplot, then run "
                 "gnuplot %s in that folder)", shown_dat, shown_gp, gp);
        return RL_PLOT_NO_GNUPLOT;
    }
    if (st != 0 || empty)
        snprintf(err, errlen, "gnuplot failed on %s (exit status %d); %s not written", shown_gp, st,
                 out);
    else
        snprintf(err, errlen, "%s: cannot move into place: %s", out, strerror(e));
    return -1;
}

int rl_plot_render(int dir, const char *tmpl, const char *out, const char *vars, const char *data,
                   char *err, size_t errlen)
{
    if (rl_plot_check_path(out, err, errlen) != 0)
        return -1;
    const char *slash = strrchr(out, '/');
    int pdir = dir;
    if (slash) { /* a path given on the command line: its folder as named */
        char parent[PATHLEN];
        snprintf(parent, sizeof parent, "%.*s", slash == out ? 1 : (int)(slash - out), out);
        pdir = openat(dir, parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (pdir < 0) {
            snprintf(err, errlen, "%s: cannot open its folder: %s", out, strerror(errno));
            return -1;
        }
    }
    int rc = render_at(pdir, tmpl, out, slash ? slash + 1 : out, vars, data, err, errlen);
    if (slash)
        close(pdir);
    return rc;
}

/* Render from two memstreams (vars, data) that the caller filled. */
static int finish(int dir, const char *tmpl, const char *out, text *vars, text *data, char *err,
                  size_t errlen)
{
    char *v = text_close(vars), *d = text_close(data);
    int rc = -1;
    if (v && d)
        rc = rl_plot_render(dir, tmpl, out, v, d, err, errlen);
    else
        snprintf(err, errlen, "%s: out of memory", out);
    free(v);
    free(d);
    return rc;
}

static int open_pair(text *vars, text *data, const char *out, char *err, size_t errlen)
{
    if (text_open(vars) != 0) {
        snprintf(err, errlen, "%s: out of memory", out);
        return -1;
    }
    if (text_open(data) != 0) {
        free(text_close(vars));
        snprintf(err, errlen, "%s: out of memory", out);
        return -1;
    }
    return 0;
}

/* gnuplot single-quoted string: ' doubled. */
/* Write user text with every control character (newline included) made a
 * space: a newline inside a gnuplot string or comment would end it and let
 * the rest run as gnuplot commands (`!cmd` runs a shell). */
static void put_clean(FILE *f, const char *s, int quoted)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (quoted && c == '\'')
            fputc('\'', f);
        fputc(c < 0x20 || c == 0x7f ? ' ' : c, f);
    }
}

static void put_quoted(FILE *f, const char *s)
{
    fputc('\'', f);
    put_clean(f, s, 1);
    fputc('\'', f);
}

static void put_title(FILE *f, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void put_title(FILE *f, const char *name, const char *fmt, ...)
{
    char s[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s, sizeof s, fmt, ap);
    va_end(ap);
    fprintf(f, "%s = ", name);
    put_quoted(f, s);
    fputc('\n', f);
}

int rl_plot_pareto(int dir, const char *out, const char *title, const rl_plot_series *s, int ns, int usd,
                   char *err, size_t errlen)
{
    text v, d;
    size_t npts = 0;
    for (int i = 0; i < ns; i++)
        npts += s[i].n;
    if (ns < 1 || npts == 0) {
        snprintf(err, errlen, "%s: a frontier figure needs at least one series with points", out);
        return -1;
    }
    if (open_pair(&v, &d, out, err, errlen) != 0)
        return -1;
    put_title(v.f, "plottitle", "%s", title);
    put_title(v.f, "ylabel", "%s", usd ? "cost (USD per million generated tokens)"
                                       : "cost (chip-milliseconds per generated token)");
    fprintf(v.f, "nseries = %d\narray titles[%d]\n", ns, ns);
    fprintf(d.f, "# per-token latency (ms), cost (%s), label C:B = chips:batch\n",
            usd ? "USD per 1e6 tokens" : "chip-ms per token");
    for (int i = 0; i < ns; i++) {
        fprintf(v.f, "titles[%d] = ", i + 1);
        put_quoted(v.f, s[i].title);
        fputc('\n', v.f);
        fprintf(d.f, "%s# series %d: ", i ? "\n\n" : "", i + 1);
        put_clean(d.f, s[i].title, 0);
        fputc('\n', d.f);
        for (size_t j = 0; j < s[i].n; j++) {
            const rl_sweep_point *p = &s[i].pts[j];
            fprintf(d.f, "%.6g %.6g \"%lld:%lld\"\n", p->step_s * 1e3,
                    usd ? p->usd_per_mtok : p->chip_s_per_token * 1e3, p->chips, p->batch);
        }
    }
    return finish(dir, "pareto.gp", out, &v, &d, err, errlen);
}

int rl_plot_sweep_pareto(int dir, const char *out, const char *title, const rl_hw *h, const rl_sweep *s,
                         const rl_precision *prec, int nprec, char *err, size_t errlen)
{
    rl_plot_series *ser = calloc((size_t)nprec, sizeof *ser);
    rl_sweep_point *pts = malloc((s->n ? s->n : 1) * sizeof *pts);
    size_t *idx = malloc((s->n ? s->n : 1) * sizeof *idx);
    char (*titles)[128] = calloc((size_t)nprec, sizeof *titles);
    int rc = -1, ns = 0;
    size_t used = 0;
    if (!ser || !pts || !idx || !titles) {
        snprintf(err, errlen, "%s: out of memory", out);
        goto done;
    }
    for (int q = 0; q < nprec; q++) {
        long m = rl_sweep_frontier(s, &prec[q], idx);
        if (m < 0) {
            snprintf(err, errlen, "%s: out of memory", out);
            goto done;
        }
        if (m == 0)
            continue; /* nothing of this precision fits */
        rl_precision_label(prec[q], titles[ns], sizeof titles[ns]);
        ser[ns].title = titles[ns];
        ser[ns].pts = pts + used;
        ser[ns].n = (size_t)m;
        for (long i = 0; i < m; i++)
            pts[used++] = s->pts[idx[i]];
        ns++;
    }
    if (ns == 0) {
        snprintf(err, errlen, "%s: no point of the sweep fits in memory; nothing to draw", out);
        goto done;
    }
    rc = rl_plot_pareto(dir, out, title, ser, ns, h->price_per_chip_hour > 0, err, errlen);
done:
    free(ser);
    free(pts);
    free(idx);
    free(titles);
    return rc;
}

int rl_plot_step_breakdown(int dir, const char *out, const rl_model *m, const rl_hw *h, long long chips,
                           rl_precision p, const long long *ctx, int nctx, const long long *batch,
                           int nb, char *err, size_t errlen)
{
    text v, d;
    if (open_pair(&v, &d, out, err, errlen) != 0)
        return -1;
    put_title(v.f, "plottitle", "%s on %lld x %s: decode step time by formula (1), %s weights",
              m->name, chips, h->name, rl_dtype_name(p.weights));
    fprintf(v.f, "bcrit = %.6g\nbmin = %lld\nbmax = %lld\nncontexts = %d\narray titles[%d]\n",
            rl_step_b_crit(m, h, p), batch[0], batch[nb - 1], nctx, nctx);
    fprintf(d.f, "# batch, parameter loading (ms), KV loading (ms), matmul FLOPs (ms), step (ms)\n");
    for (int c = 0; c < nctx; c++) {
        fprintf(v.f, "titles[%d] = 'S = %lld'\n", c + 1, ctx[c]);
        fprintf(d.f, "%s# context %lld tokens\n", c ? "\n\n" : "", ctx[c]);
        for (int b = 0; b < nb; b++) {
            rl_step s = rl_step_decode(m, h, chips, batch[b], ctx[c], p);
            if (s.mem.fits)
                fprintf(d.f, "%lld %.6g %.6g %.6g %.6g\n", batch[b], s.weight_load_s * 1e3,
                        s.kv_load_s * 1e3, s.compute_s * 1e3, s.step_s * 1e3);
            else /* out of HBM: gnuplot leaves NaN undrawn */
                fprintf(d.f, "%lld %.6g NaN %.6g NaN\n", batch[b], s.weight_load_s * 1e3,
                        s.compute_s * 1e3);
        }
    }
    return finish(dir, "step_breakdown.gp", out, &v, &d, err, errlen);
}

/* One operator-kind point: its FLOPs over its bytes, on the roof. */
static void put_op_point(FILE *f, const rl_ops *o, rl_op_kind k, double peak, double bw,
                         const char *label)
{
    double fl, by;
    rl_ops_sum_kind(o, k, &fl, &by);
    if (fl <= 0 || by <= 0)
        return;
    double ai = fl / by;
    fprintf(f, "%.6g %.6g \"%s\"\n", ai, ai * bw < peak ? ai * bw : peak, label);
}

int rl_plot_roofline(int dir, const char *out, const rl_model *m, const rl_hw *h, rl_precision p,
                     const long long *batch, int nb, long long context, char *err, size_t errlen)
{
    if (m->abstract) {
        snprintf(err, errlen, "%s: the roofline chart needs an operator list, and an abstract "
                 "model has none", m->origin);
        return -1;
    }
    rl_ops *ops = malloc(sizeof *ops); /* large: keep it off the stack */
    text v, d;
    if (!ops || open_pair(&v, &d, out, err, errlen) != 0) {
        free(ops);
        if (!ops)
            snprintf(err, errlen, "%s: out of memory", out);
        return -1;
    }
    double peak = rl_hw_peak(h, p.compute), bw = h->hbm_bw;
    put_title(v.f, "plottitle", "Roofline of one %s chip (%s compute) with %s's decode step",
              h->name, rl_dtype_name(p.compute), m->name);
    fprintf(v.f, "peak = %.6g\nbw = %.6g\n", peak, bw);
    fprintf(d.f, "# arithmetic intensity (FLOPs/byte), attainable (FLOP/s), operators (ops.c);\n"
                 "# block 0: weight matmuls per batch, 1: attention, 2: elementwise (largest batch)\n");
    rl_ops_config c = rl_ops_config_default();
    c.prec = p;
    c.decode_context = context;
    int rc = 0;
    for (int b = 0; b < nb && rc == 0; b++) {
        c.decode_batch = batch[b];
        rc = rl_ops_build(m, h, &c, ops, err, errlen);
        char label[32];
        snprintf(label, sizeof label, "B=%lld", batch[b]);
        if (rc == 0)
            put_op_point(d.f, ops, RL_OP_WEIGHT, peak, bw, label);
    }
    if (rc == 0) { /* *ops is the last batch's step */
        char label[64];
        snprintf(label, sizeof label, "attention S=%lld", context);
        fprintf(d.f, "\n\n");
        put_op_point(d.f, ops, RL_OP_ATTENTION, peak, bw, label);
        fprintf(d.f, "\n\n");
        put_op_point(d.f, ops, RL_OP_ELEMENTWISE, peak, bw, "norms, RoPE, adds");
    }
    free(ops);
    if (rc != 0) {
        free(text_close(&v));
        free(text_close(&d));
        return -1;
    }
    return finish(dir, "roofline.gp", out, &v, &d, err, errlen);
}

int rl_plot_memory(int dir, const char *out, const rl_model *m, const rl_hw *h, long long chips,
                   rl_precision p, long long context, const long long *batch, int nb, char *err,
                   size_t errlen)
{
    text v, d;
    if (open_pair(&v, &d, out, err, errlen) != 0)
        return -1;
    put_title(v.f, "plottitle", "%s on %lld x %s: HBM use at S = %lld (weights %s, KV %s)",
              m->name, chips, h->name, context, rl_dtype_name(p.weights), rl_dtype_name(p.kv));
    fprintf(v.f, "capacity = %.6g\nbmin = %lld\nbmax = %lld\nmaxbatch = %lld\n",
            (double)chips * h->hbm_bytes / 1e9, batch[0], batch[nb - 1],
            rl_memory_max_batch(m, h, chips, context, p.weights, p.kv));
    fprintf(d.f, "# batch, weights (GB), KV cache (GB), activations (GB); 1 GB = 1e9 bytes\n");
    for (int b = 0; b < nb; b++) {
        rl_memory mem = rl_memory_use(m, h, chips, batch[b], context, p.weights, p.kv);
        fprintf(d.f, "%lld %.6g %.6g %.6g\n", batch[b], mem.weight_bytes / 1e9, mem.kv_bytes / 1e9,
                rl_memory_activation_bytes(m, batch[b], p.compute) / 1e9);
    }
    return finish(dir, "memory.gp", out, &v, &d, err, errlen);
}
