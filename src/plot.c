/* plot.c — figure data, gnuplot scripts from plots/NAME.gp, atomic rendering. */
#define _GNU_SOURCE /* memfd_create */
#include "plot.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arch.h"
#include "interrupt.h"
#include "memory.h"
#include "ops.h"
#include "report.h"
#include "result.h"
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

/* The gnuplot terminal for figure `out` by its extension, in any case
 * (fixRD #4: --plot f.PNG was refused), or NULL. */
static const char *terminal_for(const char *out)
{
    const char *dot = strrchr(out, '.');
    if (dot && strcasecmp(dot, ".png") == 0)
        return "set terminal pngcairo size 1280,860 enhanced font 'DejaVu Sans,15' linewidth 1.6\n";
    if (dot && strcasecmp(dot, ".svg") == 0)
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
        signal(SIGPIPE, SIG_DFL); /* ignored by roofline (cli.c), not by gnuplot */
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
    /* each reason its own (tester39 F7: a quote read "must be shorter than
     * 4064 bytes"); quotes are taken: the .gp names the figure in gnuplot's
     * single quotes with a quote doubled (put_quoted) and in its rerun
     * comment shell-quoted (put_shell) */
    if (strlen(out) > PATHLEN - 32) {
        snprintf(err, errlen, "%.200s...: figure path must be shorter than %d bytes", out,
                 PATHLEN - 32);
        return -1;
    }
    /* F4: a 300-byte name read "NAME.gp: exists and was not written by
     * roofline" (its .gp's open failed, ENAMETOOLONG); --save's rule
     * (report.c rl_temp_at), said before the run */
    if (strlen(base) > RL_NAME_MAX) {
        snprintf(err, errlen, "%.200s...: file name longer than %d bytes (its temporary "
                 "'.tmp.XXXXXX' must fit in 255)", out, RL_NAME_MAX);
        return -1;
    }
    for (const unsigned char *c = (const unsigned char *)out; *c; c++)
        if (*c < 0x20 || *c == 0x7f) {
            snprintf(err, errlen, "figure path '%.*s...' holds a control character (byte 0x%02x: "
                     "a newline, tab, ...), which its .gp script cannot name on one line",
                     (int)((const char *)c - out), out, *c);
            return -1;
        }
    return 0;
}

static void put_quoted(FILE *f, const char *s);

/* s as a POSIX shell word: as it is when it holds only characters no shell
 * reads specially, else in single quotes with each quote written '\\''
 * (tester39 F7: the rerun hint left `$(...)` in a name to run when pasted;
 * cli.c's command_line quotes the same way). */
static void put_shell(FILE *f, const char *s)
{
    if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:,=+@%-") ==
                  strlen(s)) {
        fputs(s, f);
        return;
    }
    fputc('\'', f);
    for (; *s; s++)
        if (*s == '\'')
            fputs("'\\''", f);
        else
            fputc(*s, f);
    fputc('\'', f);
}

#define GP_MARK "# Generated by roofline from plots/"

/* Whether STEM.dat and STEM.gp beside a figure may be replaced: STEM.gp
 * is absent or opens with GP_MARK (a pair roofline wrote: its rerun; a
 * lone STEM.dat is taken for one whose .gp was removed or never written,
 * as an interrupted run leaves it).  Otherwise they are someone else's
 * files, which a figure's side files overwrote unasked (tester7 #11:
 * pareto --plot keep.png replaced keep.dat and keep.gp).  A symbolic link
 * at either is refused.  0, or -1 with err naming it. */
static int side_files_ours(int dir, const char *dat, const char *gp, const char *shown_gp,
                           char *err, size_t errlen)
{
    char head[sizeof GP_MARK] = "";
    int fd = openat(dir, gp, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd >= 0) {
        ssize_t n = read(fd, head, sizeof head - 1);
        head[n > 0 ? n : 0] = '\0';
        close(fd);
    }
    int gp_errno = errno;
    struct stat st;
    const char *link = fd < 0 && gp_errno == ELOOP ? gp
                     : fstatat(dir, dat, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode) ? dat
                                                                                            : NULL;
    if (link) { /* refused before either is written (the .dat was, then the .gp link refused) */
        snprintf(err, errlen, "%s: is a symbolic link; a figure's side files are written only as "
                 "regular files; nothing written", link);
        return -1;
    }
    if ((fd < 0 && gp_errno == ENOENT) || (fd >= 0 && strcmp(head, GP_MARK) == 0))
        return 0;
    if (fd < 0 && gp_errno != EACCES) { /* F4: not "exists" where it could not be opened */
        snprintf(err, errlen, "%s: cannot be checked (%s); nothing written", shown_gp,
                 strerror(gp_errno));
        return -1;
    }
    snprintf(err, errlen, "%s: exists and was not written by roofline (its data and script go "
             "beside the figure as NAME.dat and NAME.gp); name the figure otherwise or move them; "
             "nothing written", shown_gp);
    return -1;
}

void rl_plot_side_files(const char *out, char *dat, char *gp, size_t len)
{
    const char *dot = strrchr(out, '.');
    int stem = dot ? (int)(dot - out) : (int)strlen(out);
    snprintf(dat, len, "%.*s.dat", stem, out);
    snprintf(gp, len, "%.*s.gp", stem, out);
}

/* The folder of figure path `out` (from `dir`), into *fd: `dir` itself
 * where out names no folder, else the folder as named, opened (close it
 * with folder_close); *leaf the figure's name in it.  0, or -1 with errno
 * set (the folder cannot be opened). */
static int folder_of(int dir, const char *out, int *fd, const char **leaf)
{
    const char *slash = strrchr(out, '/');
    *leaf = slash ? slash + 1 : out;
    *fd = dir;
    if (!slash)
        return 0;
    char parent[PATHLEN];
    snprintf(parent, sizeof parent, "%.*s", slash == out ? 1 : (int)(slash - out), out);
    *fd = openat(dir, parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    return *fd < 0 ? -1 : 0;
}

static void folder_close(int dir, int fd)
{
    if (fd != dir)
        close(fd);
}

int rl_plot_check_sides(const char *out, char *err, size_t errlen)
{
    char dat[PATHLEN], gp[PATHLEN], shown_dat[PATHLEN], shown_gp[PATHLEN];
    const char *leaf;
    int dir;
    if (folder_of(AT_FDCWD, out, &dir, &leaf) != 0) /* a folder the run makes holds nothing yet */
        return 0;
    rl_plot_side_files(leaf, dat, gp, sizeof dat);
    rl_plot_side_files(out, shown_dat, shown_gp, sizeof shown_gp);
    int rc = side_files_ours(dir, dat, gp, shown_gp, err, errlen);
    folder_close(AT_FDCWD, dir);
    return rc;
}

/* One notice (report.h rl_notice) naming those of a figure `out` and its
 * side files `dat` and `gp` that existed (had[3], in that order) and were
 * replaced. */
static void note_replaced(const int had[3], const char *out, const char *dat, const char *gp)
{
    const char *names[3] = {out, dat, gp};
    char list[3 * PATHLEN + 16] = "";
    int n = had[0] + had[1] + had[2], k = 0;
    for (int i = 0; i < 3; i++)
        if (had[i]) {
            k++;
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                     k == 1 ? "" : k == n ? " and " : ", ", names[i]);
        }
    if (n > 0)
        rl_notice("note: %s existed and %s replaced", list, n > 1 ? "were" : "was");
}

/* Write STEM.dat and STEM.gp inside the open directory `dir` and render
 * `leaf` there (see rl_plot_render); `out` names the figure in messages and
 * ends with `leaf`.  `through`: `out` was named on the command line (a
 * path from the working directory), so a symbolic link at the figure is
 * written through. */
static int render_at(int dir, int through, const char *tmpl, const char *out, const char *leaf,
                     const char *vars, const char *data, char *err, size_t errlen)
{
    const char *term = terminal_for(leaf);
    char dat[PATHLEN], gp[PATHLEN], tpath[PATHLEN], tmp[PATHLEN];
    rl_plot_side_files(leaf, dat, gp, sizeof dat);
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
        fprintf(t.f, GP_MARK "%s.  Rerun in this folder: gnuplot ", tmpl);
        put_shell(t.f, gp);
        fprintf(t.f, "\n%sif (!exists('outfile')) outfile = ", term);
        put_quoted(t.f, leaf);
        fprintf(t.f, "\nset output outfile\nif (!exists('datafile')) datafile = ");
        put_quoted(t.f, dat);
        fprintf(t.f, "\n%s\n%s", vars, body);
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
    if (side_files_ours(dir, dat, gp, shown_gp, err, errlen) != 0) {
        free(script);
        return -1;
    }
    /* the data and script to temporaries, the figure rendered to a third,
     * then all renamed into place: a file that cannot be written (a full
     * disk) leaves none of the three new and the older ones as they were
     * (tester15 F-out-1: the new .dat stayed when the .gp failed) */
    char tdat[300] = "", tgp[300] = "";
    int rc = rl_write_temp_at(dir, dat, shown_dat, data, strlen(data), tdat, sizeof tdat, err, errlen);
    if (rc == 0 && rl_write_temp_at(dir, gp, shown_gp, script, strlen(script), tgp, sizeof tgp, err,
                                    errlen) != 0) {
        unlinkat(dir, tdat, 0);
        rc = -1;
    }
    int sfd = rc == 0 ? memory_file("roofline-gp", script) : -1;
    free(script);
    if (rc != 0) {
        rl_interrupt_track_temp(AT_FDCWD, NULL);
        return RL_PLOT_WRITE_FAILED;
    }
    int dfd = memory_file("roofline-dat", data);
    /* the figure: a symbolic link named on the command line (dir AT_FDCWD)
     * is written through, as every output is (README; fixKJ A: a
     * --plot-dir figure's link was replaced by a file, the target left);
     * inside a run's folder a link is refused (outdir.h: confined), as any
     * other non-regular file */
    char resolved[PATH_MAX];
    int fdir = dir;
    const char *fleaf = leaf;
    struct stat ls;
    int fd = sfd < 0 || dfd < 0 ? -1 : 0;
    if (fd == 0 && fstatat(dir, leaf, &ls, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(ls.st_mode)) {
        if (S_ISLNK(ls.st_mode) && through)
            fd = rl_write_target(out, resolved, &fdir, &fleaf, err, errlen);
        else {
            snprintf(err, errlen, "%s: exists and is %s; refusing to replace it", out,
                     S_ISLNK(ls.st_mode) ? "a symbolic link" : S_ISDIR(ls.st_mode) ? "a directory"
                                                                     : "not a regular file");
            fd = -1;
        }
    }
    if (fd == 0)
        fd = rl_temp_at(fdir, fleaf, out, tmp, sizeof tmp, err, errlen);
    if (fd < 0) {
        if (sfd < 0 || dfd < 0)
            snprintf(err, errlen, "%s: cannot hand the script to gnuplot: %s", out, strerror(errno));
        if (sfd >= 0)
            close(sfd);
        if (dfd >= 0)
            close(dfd);
        unlinkat(dir, tdat, 0);
        unlinkat(dir, tgp, 0);
        if (fdir != dir)
            close(fdir);
        rl_interrupt_track_temp(AT_FDCWD, NULL);
        return sfd < 0 || dfd < 0 ? -1 : RL_PLOT_WRITE_FAILED;
    }
    int st = run_gnuplot(sfd, dfd, fd);
    close(sfd);
    close(dfd);
    struct stat sb;
    int empty = st == 0 && (fstat(fd, &sb) != 0 || sb.st_size == 0);
    close(fd);
    /* a figure drawn: all three in place; gnuplot missing or failing: the
     * data and script kept for a rerun (documented), no figure */
    int drawn = st == 0 && !empty;
    /* a command-line path's files that existed are said replaced, in one
     * note (issue 14 #4: --plot docs/figures/frontier.png and NAME.dat went
     * in silence); inside a run's folder (through 0) they are its own */
    int had[3] = {through && drawn && rl_file_has_content(fdir, fleaf), /* as rl_rename_noted */
                  through && rl_file_has_content(dir, dat),
                  through && rl_file_has_content(dir, gp)};
    int dat_in = renameat(dir, tdat, dir, dat) == 0; /* renames need no room: only a */
    int gp_in = dat_in && renameat(dir, tgp, dir, gp) == 0; /* folder swapped meanwhile fails */
    int moved = gp_in && (!drawn || renameat(fdir, tmp, fdir, fleaf) == 0);
    int e = errno;
    if (moved)
        note_replaced(had, out, shown_dat, shown_gp);
    if (!dat_in)
        unlinkat(dir, tdat, 0);
    if (!gp_in)
        unlinkat(dir, tgp, 0);
    if (!drawn || !moved)
        unlinkat(fdir, tmp, 0);
    if (fdir != dir)
        close(fdir);
    rl_interrupt_track_temp(AT_FDCWD, NULL);
    if (!moved) {
        snprintf(err, errlen, "%s: cannot move into place: %s", out, strerror(e));
        return RL_PLOT_WRITE_FAILED;
    }
    if (drawn)
        return 0;
    if (st == 127) {
        snprintf(err, errlen, "gnuplot not found: kept %s and %s (install gnuplot, then run "
                 "gnuplot %s in that folder)", shown_dat, shown_gp, gp);
        return RL_PLOT_NO_GNUPLOT;
    }
    snprintf(err, errlen, "gnuplot failed on %s (exit status %d); %s not written", shown_gp, st, out);
    return -1;
}

int rl_plot_render(int dir, const char *tmpl, const char *out, const char *vars, const char *data,
                   char *err, size_t errlen)
{
    if (rl_plot_check_path(out, err, errlen) != 0)
        return -1;
    const char *leaf;
    int pdir;
    /* a path given on the command line: its folder as named */
    if (folder_of(dir, out, &pdir, &leaf) != 0) {
        snprintf(err, errlen, "%s: cannot open its folder: %s", out, strerror(errno));
        return -1;
    }
    int rc = render_at(pdir, dir == AT_FDCWD, tmpl, out, leaf, vars, data, err, errlen);
    folder_close(dir, pdir);
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

static void vput_title(FILE *f, const char *name, const char *fmt, va_list ap)
{
    char s[512];
    vsnprintf(s, sizeof s, fmt, ap);
    fprintf(f, "%s = ", name);
    put_quoted(f, s);
    fputc('\n', f);
}

static void put_title(FILE *f, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void put_title(FILE *f, const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vput_title(f, name, fmt, ap);
    va_end(ap);
}

/* `plottitle`: the caller's `title` when one is given (NULL or "": none),
 * else the figure's own from fmt (tester17 F2: roofline.plot's title was
 * kept by the pareto figure only). */
static void put_plottitle(FILE *f, const char *title, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void put_plottitle(FILE *f, const char *title, const char *fmt, ...)
{
    if (title && title[0]) {
        put_title(f, "plottitle", "%s", title);
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    vput_title(f, "plottitle", fmt, ap);
    va_end(ap);
}

int rl_plot_outcome(cJSON *j, const char *plot, int rc, const char *err)
{
    if (j && rc >= 0)
        cJSON_AddStringToObject(j, "plot", plot);
    if (j && rc != 0)
        cJSON_AddStringToObject(j, "plot_note", err);
    return rc < 0;
}

int rl_plot_render_titled(int dir, const char *tmpl, const char *out, const char *title,
                          const char *data, char *err, size_t errlen)
{
    return rl_plot_render_titled_vars(dir, tmpl, out, title, "", data, err, errlen);
}

int rl_plot_render_titled_vars(int dir, const char *tmpl, const char *out, const char *title,
                               const char *more, const char *data, char *err, size_t errlen)
{
    text v;
    if (text_open(&v) != 0)
        return snprintf(err, errlen, "%s: out of memory", out), -1;
    fputs("plottitle = ", v.f);
    put_quoted(v.f, title);
    fputc('\n', v.f);
    fputs(more, v.f);
    char *vars = text_close(&v);
    if (!vars)
        return snprintf(err, errlen, "%s: out of memory", out), -1;
    int rc = rl_plot_render(dir, tmpl, out, vars, data, err, errlen);
    free(vars);
    return rc;
}

/* The batch axis of a figure, `bmin = ..` and `bmax = ..`: the smallest
 * and largest of batch[nb], widened one octave each side when they are one
 * value (tester15 F-lua-2: a single batch is a legal `batch`, and gnuplot
 * refused the empty x range). */
static void put_batch_range(FILE *f, const long long *batch, int nb)
{
    long long lo = batch[0], hi = batch[0];
    for (int i = 1; i < nb; i++) {
        lo = batch[i] < lo ? batch[i] : lo;
        hi = batch[i] > hi ? batch[i] : hi;
    }
    fprintf(f, "bmin = %.6g\nbmax = %.6g\n", lo < hi ? (double)lo : 0.5 * (double)lo,
            lo < hi ? (double)hi : 2.0 * (double)hi);
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
    /* fixIL #4: no title (roofline.plot without one) drew an empty one;
     * the CLI's words instead, with the context all points share and the
     * curves' titles (no model or chip is known here) */
    long long ctx = s[0].n ? s[0].pts[0].context : 0;
    char names[256] = "";
    size_t at = 0;
    for (int i = 0; i < ns; i++) {
        for (size_t j = 0; j < s[i].n; j++)
            if (s[i].pts[j].context != ctx)
                ctx = 0;
        if (s[i].title[0] && at < sizeof names)
            at += (size_t)snprintf(names + at, sizeof names - at, "%s%s", at ? ", " : ": ",
                                   s[i].title);
    }
    char sctx[40] = "";
    if (ctx > 0)
        snprintf(sctx, sizeof sctx, " (S = %lld)", ctx);
    put_plottitle(v.f, title, "latency vs cost frontier%s%s", sctx, names);
    put_title(v.f, "ylabel", "%s", usd ? "cost (USD per million generated tokens)"
                                       : "cost (chip-milliseconds per generated token)");
    /* tester77 #5: series={p} without a title drew an empty key box: no key
     * when no series has a title */
    fprintf(v.f, "nseries = %d\nhaskey = %d\narray titles[%d]\n", ns, names[0] != '\0', ns);
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

/* How many of a curve's m points (s's points at idx) read mode `mode` by
 * themselves (rl_result_sweep_mode over the one point). */
static long points_in_mode(const rl_model *md, const rl_hw *h, const rl_sweep *s,
                           const size_t *idx, long m, const char *mode)
{
    long k = 0;
    for (long i = 0; i < m; i++)
        k += strcmp(rl_result_sweep_mode(md, h, s, &idx[i], 1), mode) == 0;
    return k;
}

const char *rl_plot_sweep_curves_mode(const rl_model *md, const rl_hw *h, const rl_sweep *s,
                                      const rl_precision *prec, int nprec)
{
    size_t *idx = malloc((s->n ? s->n : 1) * sizeof *idx);
    const char *same = NULL;
    int differ = 0;
    for (int q = 0; idx && q < nprec && !differ; q++) {
        long m = rl_sweep_frontier(s, &prec[q], idx);
        if (m <= 0)
            continue;
        const char *mode = rl_result_sweep_mode(md, h, s, idx, m);
        differ = same && strcmp(same, mode) != 0;
        same = mode;
    }
    free(idx);
    return differ ? NULL : same;
}

int rl_plot_sweep_pareto(int dir, const char *out, const char *title, const rl_model *md,
                         const rl_hw *h, const rl_sweep *s, const rl_precision *prec, int nprec,
                         char *said, size_t saidlen, char *err, size_t errlen)
{
    rl_plot_series *ser = calloc((size_t)nprec, sizeof *ser);
    rl_sweep_point *pts = malloc((s->n ? s->n : 1) * sizeof *pts);
    size_t *idx = malloc((s->n ? s->n : 1) * sizeof *idx);
    char (*titles)[192] = calloc((size_t)nprec, sizeof *titles);
    int rc = -1, ns = 0;
    size_t used = 0, at = 0;
    if (said && saidlen)
        said[0] = '\0';
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
        /* fixIL #1: each curve is its precision's own frontier, timed in its
         * own mode (by the rule of the JSON's rows, rl_result_sweep_mode):
         * the key says both, as a bf16 curve can be calibrated beside fp8
         * rows that are estimated */
        char prl[64], other[64] = "";
        rl_precision_label(prec[q], prl, sizeof prl);
        const char *mode = rl_result_sweep_mode(md, h, s, idx, m);
        /* fixTE #3: a curve read estimated for its weakest point may hold
         * calibrated ones (the fp8 curve's 256-batch point): said */
        long cal = strcmp(mode, "calibrated") ? points_in_mode(md, h, s, idx, m, "calibrated") : 0;
        if (cal > 0)
            snprintf(other, sizeof other, "; %ld of %ld points calibrated", cal, m);
        snprintf(titles[ns], sizeof titles[ns], "%s (%s%s)", prl, mode, other);
        if (said && at < saidlen)
            at += (size_t)snprintf(said + at, saidlen - at, "%s%s: %ld point(s)", ns ? "; " : "",
                                   titles[ns], m);
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

int rl_plot_step_breakdown(int dir, const char *out, const char *title, const rl_model *m,
                           const rl_hw *h, long long chips,
                           rl_precision p, const long long *ctx, int nctx, const long long *batch,
                           int nb, char *err, size_t errlen)
{
    text v, d;
    if (open_pair(&v, &d, out, err, errlen) != 0)
        return -1;
    put_plottitle(v.f, title, "%s on %lld x %s: decode step time by formula (1), %s weights",
              m->name, chips, h->name, rl_dtype_name(p.weights));
    put_batch_range(v.f, batch, nb);
    fprintf(v.f, "bcrit = %.6g\nncontexts = %d\narray titles[%d]\n", rl_step_b_crit(m, h, p), nctx,
            nctx);
    /* the step's fifth term, attention_compute_s (step.h: the attention
     * kernels' FLOP time beyond their KV read; stop 28, fixR), a sixth
     * column so the first five keep their places; drawn (hasattn) only
     * where some point has it (MLA: GQA's stays under its KV read) */
    fprintf(d.f, "# batch, parameter loading (ms), KV loading (ms), matmul FLOPs (ms), step (ms), "
                 "attention FLOPs beyond the KV read (ms)\n");
    int hasattn = 0;
    for (int c = 0; c < nctx; c++) {
        fprintf(v.f, "titles[%d] = 'S = %lld'\n", c + 1, ctx[c]);
        fprintf(d.f, "%s# context %lld tokens\n", c ? "\n\n" : "", ctx[c]);
        for (int b = 0; b < nb; b++) {
            rl_step s = rl_step_decode(m, h, chips, batch[b], ctx[c], p);
            if (s.mem.fits) {
                fprintf(d.f, "%lld %.6g %.6g %.6g %.6g %.6g\n", batch[b], s.weight_load_s * 1e3,
                        s.kv_load_s * 1e3, s.compute_s * 1e3, s.step_s * 1e3,
                        s.attention_compute_s * 1e3);
                hasattn |= s.attention_compute_s > 0;
            } else { /* out of HBM: gnuplot leaves NaN undrawn */
                fprintf(d.f, "%lld %.6g NaN %.6g NaN NaN\n", batch[b], s.weight_load_s * 1e3,
                        s.compute_s * 1e3);
            }
        }
    }
    fprintf(v.f, "hasattn = %d\n", hasattn);
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

int rl_plot_roofline(int dir, const char *out, const char *title, const rl_model *m,
                     const rl_hw *h, rl_precision p,
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
    put_plottitle(v.f, title, "Roofline of one %s chip (%s compute) with %s's decode step",
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

/* The memory figure's `usable` (GB) and `usablelabel`: what weights + KV
 * may use, the limit max_batch is judged against (memory.h
 * rl_memory_usable: the selected engine's rule, else the HBM reserve), named
 * by its rule; usable < 0 (not drawn) when it is the whole HBM (tester50
 * F16: the largest-batch marker sat at trtllm's 78.9 GB below the only
 * drawn line, HBM capacity 86 GB). */
static void put_usable(FILE *f, const rl_model *m, const rl_hw *h, long long chips,
                       long long context, rl_precision p)
{
    rl_memory u = rl_memory_use(m, h, chips, 0, context, p.weights, p.kv);
    const rl_serving_engine *e = rl_engines_selected(&h->engines);
    const rl_engine_memory *g = e && e->mem.present ? &e->mem : NULL;
    /* tester63 #11: weights over the usable memory read "usable ...: 85.9
     * GB" beside 141 GB of weights (llama3-70b, 1 x h100-sxm), where step
     * says fits false and max_batch 0: the line is drawn and says so */
    int over = u.weight_bytes > u.capacity_bytes;
    int whole = !g && !over && u.capacity_bytes >= u.hbm_bytes;
    char rule[160];
    if (!g)
        snprintf(rule, sizeof rule, "usable: HBM less the %.3g%% reserve", 100 * h->hbm_reserve);
    else if (g->of_free)
        snprintf(rule, sizeof rule, "usable under %s's rule (KV <= %.3g x free HBM)", e->name,
                 g->fraction);
    else
        snprintf(rule, sizeof rule, "usable under %s's rule (weights + KV <= %.3g x HBM - "
                 "overheads)", e->name, g->fraction);
    fprintf(f, "usable = %.6g\n", whole ? -1.0 : u.capacity_bytes / 1e9);
    if (over)
        put_title(f, "usablelabel", "does not fit: the weights (%.1f GB) exceed what is %s",
                  u.weight_bytes / 1e9, rule);
    else
        put_title(f, "usablelabel", "%s", rule);
}

int rl_plot_memory(int dir, const char *out, const char *title, const rl_model *m,
                   const rl_hw *h, long long chips,
                   rl_precision p, long long context, const long long *batch, int nb, char *err,
                   size_t errlen)
{
    text v, d;
    if (open_pair(&v, &d, out, err, errlen) != 0)
        return -1;
    rl_memory u = rl_memory_use(m, h, chips, 0, context, p.weights, p.kv);
    put_plottitle(v.f, title, "%s on %lld x %s: HBM use at S = %lld (weights %s, KV %s)%s",
                  m->name, chips, h->name, context, rl_dtype_name(p.weights), rl_dtype_name(p.kv),
                  u.weight_bytes > u.capacity_bytes ? ": does not fit" : "");
    put_batch_range(v.f, batch, nb);
    fprintf(v.f, "capacity = %.6g\nmaxbatch = %lld\n", (double)chips * h->hbm_bytes / 1e9,
            rl_memory_max_batch(m, h, chips, context, p.weights, p.kv));
    put_usable(v.f, m, h, chips, context, p);
    fprintf(d.f, "# batch, weights (GB), KV cache (GB), activations (GB); 1 GB = 1e9 bytes\n");
    for (int b = 0; b < nb; b++) {
        rl_memory mem = rl_memory_use(m, h, chips, batch[b], context, p.weights, p.kv);
        fprintf(d.f, "%lld %.6g %.6g %.6g\n", batch[b], mem.weight_bytes / 1e9, mem.kv_bytes / 1e9,
                rl_memory_activation_bytes(m, batch[b], p.compute) / 1e9);
    }
    return finish(dir, "memory.gp", out, &v, &d, err, errlen);
}
