/* outdir.c — confined output directory (see outdir.h for the rules). */
#include "outdir.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "guard.h"
#include "report.h"

#define NAME_MAX_LEN 1024
#define COMPONENT_MAX RL_NAME_MAX /* report.h: room for ".tmp.XXXXXX" */

/* Empty o with the default output budget. */
static void outdir_init(rl_outdir *o)
{
    memset(o, 0, sizeof *o);
    o->undo_fd = -1;
    o->max_bytes = RL_OUTDIR_MAX_BYTES;
    o->max_files = RL_OUTDIR_MAX_FILES;
}

int rl_outdir_open(rl_outdir *o, const char *dir, char *err, size_t errlen)
{
    outdir_init(o);
    if (!dir || !*dir)
        RL_FAIL("--out: empty directory name");
    struct stat st;
    if (stat(dir, &st) != 0 && rl_mkdir_p(dir, err, errlen) != 0)
        return -1;
    if (stat(dir, &st) != 0)
        RL_FAIL("%s: cannot use as output directory: %s", dir, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        RL_FAIL("%s: output path exists and is not a directory", dir);
    char real[PATH_MAX];
    if (!realpath(dir, real))
        RL_FAIL("%s: cannot resolve the output directory: %s", dir, strerror(errno));
    if (strlen(real) >= sizeof o->root)
        RL_FAIL("%s: output directory path too long", dir);
    o->fd = open(real, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (o->fd < 0)
        RL_FAIL("%s: cannot open the output directory: %s", dir, strerror(errno));
    memcpy(o->root, real, strlen(real) + 1);
    return 0;
}

void rl_outdir_defer(rl_outdir *o, const char *dir)
{
    outdir_init(o);
    snprintf(o->pending, sizeof o->pending, "%s", dir);
}

/* Remove the undo folder and its kept files; forget the journal. */
static void drop_undo(rl_outdir *o)
{
    for (int i = 0; i < o->nundo; i++) {
        if (o->backed[i] == 1 && o->undo_fd >= 0) { /* 2: not put back, left for the user */
            char n[16];
            snprintf(n, sizeof n, "%d", i);
            unlinkat(o->undo_fd, n, 0);
        }
        free(o->undo[i]);
    }
    if (o->undo_fd >= 0) {
        close(o->undo_fd);
        unlinkat(o->fd, o->undo_dir, AT_REMOVEDIR); /* fails, keeping it, when not empty */
    }
    free(o->undo);
    free(o->backed);
    o->undo = NULL;
    o->backed = NULL;
    o->nundo = o->undo_cap = 0;
    o->undo_fd = -1;
}

static void forget_kept(rl_outdir *o)
{
    for (int i = 0; i < o->nkept; i++)
        free(o->kept[i]);
    free(o->kept);
    o->kept = NULL;
    o->nkept = o->cap = 0;
}

void rl_outdir_close(rl_outdir *o)
{
    drop_undo(o);
    forget_kept(o);
    if (o->root[0])
        close(o->fd);
    o->root[0] = '\0';
}

int rl_outdir_protect(rl_outdir *o, const char *path)
{
    struct stat st;
    if (o->ninputs == (int)(sizeof o->inputs / sizeof o->inputs[0]) || stat(path, &st) != 0)
        return -1;
    o->inputs[o->ninputs].dev = st.st_dev;
    o->inputs[o->ninputs++].ino = st.st_ino;
    return 0;
}

/* Check the name's syntax: relative, no '..', '.', or empty component, no
 * control characters, bounded lengths. */
static int check_name(const char *name, char *err, size_t errlen)
{
    size_t len = strlen(name);
    if (len == 0)
        RL_FAIL("output name is empty");
    if (len > NAME_MAX_LEN)
        RL_FAIL("output name longer than %d bytes", NAME_MAX_LEN);
    if (name[0] == '/')
        RL_FAIL("%s: absolute output names are refused; give a name inside the --out directory",
                name);
    for (const char *c = name; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            RL_FAIL("output name has a control character (byte 0x%02x)", (unsigned char)*c);
    const char *p = name;
    for (;;) {
        const char *slash = strchr(p, '/');
        size_t n = slash ? (size_t)(slash - p) : strlen(p);
        if (n == 0)
            RL_FAIL("%s: empty path component ('//' or a trailing '/')", name);
        if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
            RL_FAIL("%s: '.' and '..' components are refused (outputs stay inside the --out "
                    "directory)",
                    name);
        if (n > COMPONENT_MAX)
            RL_FAIL("%s: a path component is longer than %d bytes (a file's temporary name adds "
                    "11 to it, and 255 is the limit)", name, COMPONENT_MAX);
        if (!slash)
            return 0;
        p = slash + 1;
    }
}

/* Open component `comp` (n bytes) of `name` inside `dir` as a directory,
 * creating it if missing; never through a symbolic link.  Returns the
 * descriptor or -1 with err set. */
static int open_component(int dir, const char *name, const char *comp, size_t n, int create,
                          char *err, size_t errlen)
{
    char c[COMPONENT_MAX + 1];
    memcpy(c, comp, n); /* n <= COMPONENT_MAX: check_name */
    c[n] = '\0';
    const int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
    int fd = openat(dir, c, flags);
    if (fd < 0 && errno == ENOENT && create && (mkdirat(dir, c, 0755) == 0 || errno == EEXIST))
        fd = openat(dir, c, flags);
    if (fd >= 0)
        return fd;
    int e = errno;
    struct stat st;
    if ((e == ELOOP || e == ENOTDIR) && fstatat(dir, c, &st, AT_SYMLINK_NOFOLLOW) == 0)
        RL_FAIL("%s: '%.*s' is %s; outputs stay inside the --out directory", name,
                (int)(comp + n - name), name, S_ISLNK(st.st_mode) ? "a symbolic link" : "not a directory");
    RL_FAIL("%s: cannot create directory '%.*s': %s", name, (int)(comp + n - name), name, strerror(e));
}

/* Open the folder NAME goes in, from the held root one component at a time
 * (creating missing ones when `create`); *leaf is set to NAME's last
 * component.  The descriptor, or -1 with err set. */
static int open_folder(const rl_outdir *o, const char *name, int create, const char **leaf,
                       char *err, size_t errlen)
{
    int dir = fcntl(o->fd, F_DUPFD_CLOEXEC, 0);
    if (dir < 0)
        RL_FAIL("%s: %s", name, strerror(errno));
    const char *c = name;
    for (const char *slash; (slash = strchr(c, '/')) != NULL; c = slash + 1) {
        int next = open_component(dir, name, c, (size_t)(slash - c), create, err, errlen);
        close(dir);
        if (next < 0)
            return -1;
        dir = next;
    }
    *leaf = c;
    return dir;
}

/* Record NAME before its first write of the run, keeping its older file
 * (leaf inside dir), if any, as a hard link in the undo folder.  0, or -1
 * with err set. */
static int journal(rl_outdir *o, const char *name, int dir, const char *leaf, char *err,
                   size_t errlen)
{
    for (int i = 0; i < o->nundo; i++)
        if (strcmp(o->undo[i], name) == 0)
            return 0;
    if (o->nundo == o->undo_cap) {
        int cap = o->undo_cap ? 2 * o->undo_cap : 8;
        char **u = realloc(o->undo, (size_t)cap * sizeof *u);
        if (u)
            o->undo = u;
        int *b = u ? realloc(o->backed, (size_t)cap * sizeof *b) : NULL;
        if (!b)
            RL_FAIL("%s: out of memory", name);
        o->backed = b;
        o->undo_cap = cap;
    }
    struct stat st;
    int older = fstatat(dir, leaf, &st, AT_SYMLINK_NOFOLLOW) == 0;
    if (older && o->undo_fd < 0) {
        char made[sizeof o->root + sizeof o->undo_dir];
        snprintf(made, sizeof made, "%s/.roofline-undo-XXXXXX", o->root);
        if (!mkdtemp(made))
            RL_FAIL("%s: cannot make a folder in %s that keeps older files until the run "
                    "succeeds: %s", name, o->root, strerror(errno));
        snprintf(o->undo_dir, sizeof o->undo_dir, "%s", strrchr(made, '/') + 1);
        o->undo_fd = openat(o->fd, o->undo_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (o->undo_fd < 0)
            RL_FAIL("%s: cannot open %s: %s", name, made, strerror(errno));
    }
    char n[16];
    snprintf(n, sizeof n, "%d", o->nundo);
    if (older && linkat(dir, leaf, o->undo_fd, n, 0) != 0)
        RL_FAIL("%s: cannot keep the older file until the run succeeds (a hard link in %s/%s): "
                "%s", name, o->root, o->undo_dir, strerror(errno));
    if (!(o->undo[o->nundo] = strdup(name))) {
        if (older)
            unlinkat(o->undo_fd, n, 0);
        RL_FAIL("%s: out of memory", name);
    }
    o->backed[o->nundo++] = older;
    return 0;
}

void rl_outdir_undo(rl_outdir *o, char *msg, size_t msglen)
{
    int restored = 0, removed = 0, stuck = 0;
    for (int i = o->nundo - 1; i >= 0; i--) {
        const char *leaf;
        char n[16], err[256];
        int dir = open_folder(o, o->undo[i], 0, &leaf, err, sizeof err), ok;
        snprintf(n, sizeof n, "%d", i);
        if (o->backed[i]) {
            restored += ok = dir >= 0 && renameat(o->undo_fd, n, dir, leaf) == 0;
            o->backed[i] = ok ? 0 : 2; /* not put back: its copy stays in the undo folder */
        } else {
            removed += ok = dir >= 0 && unlinkat(dir, leaf, 0) == 0;
            ok = ok || errno == ENOENT; /* never written */
        }
        stuck += !ok;
        if (dir >= 0)
            close(dir);
    }
    const char *root = o->root[0] ? o->root : "(no --out directory)";
    size_t n = (size_t)snprintf(msg, msglen, "%s in %s", stuck ? "could not undo all of the run"
                                                               : "kept nothing", root);
    if (n < msglen && removed + restored + stuck > 0)
        n += (size_t)snprintf(msg + n, msglen - n, " (the run failed: %d new file%s removed, %d "
                              "older file%s put back", removed, removed == 1 ? "" : "s",
                              restored, restored == 1 ? "" : "s");
    if (n < msglen && stuck)
        n += (size_t)snprintf(msg + n, msglen - n, "; %d could not be, older copies stay in %s",
                              stuck, o->undo_dir);
    if (n < msglen && removed + restored + stuck > 0)
        snprintf(msg + n, msglen - n, ")");
    drop_undo(o);
    forget_kept(o);
}

int rl_outdir_resolve(rl_outdir *o, const char *name, char *path, size_t pathlen, char *err,
                      size_t errlen)
{
    if (check_name(name, err, errlen) != 0)
        return -1;
    if (!o->root[0] && o->pending[0]) {
        char dir[sizeof o->pending];
        memcpy(dir, o->pending, sizeof dir);
        long long max_bytes = o->max_bytes;
        int max_files = o->max_files;
        int rc = rl_outdir_open(o, dir, err, errlen);
        o->max_bytes = max_bytes; /* open cleared them */
        o->max_files = max_files;
        if (rc != 0) {
            snprintf(o->pending, sizeof o->pending, "%s", dir);
            return -1;
        }
    }
    if (!o->root[0])
        RL_FAIL("no output directory: run the scenario with `roofline run --out DIR`");
    if (path && (size_t)snprintf(path, pathlen, "%s/%s", o->root, name) >= pathlen)
        RL_FAIL("%s: output path too long", name);
    const char *c;
    int dir = open_folder(o, name, 1, &c, err, errlen);
    if (dir < 0)
        return -1;
    struct stat st;
    const char *why = NULL;
    int shipped = 0;
    if (fstatat(dir, c, &st, AT_SYMLINK_NOFOLLOW) == 0) {
        if (S_ISLNK(st.st_mode) || S_ISDIR(st.st_mode))
            why = S_ISLNK(st.st_mode) ? "exists and is a symbolic link" : "exists and is a directory";
        else if ((shipped = rl_guard_shipped(&st)) != 0) /* --out hw_profiles (review21 #1) */
            why = rl_guard_shipped_why(shipped);
        for (int i = 0; !why && i < o->ninputs; i++)
            if (o->inputs[i].dev == st.st_dev && o->inputs[i].ino == st.st_ino)
                why = "it is an input of this run (the scenario)"; /* tester9 #3 */
    }
    if (why) {
        close(dir);
        RL_FAIL("%s: %s; refusing to replace it", name, why);
    }
    if (journal(o, name, dir, c, err, errlen) != 0) {
        close(dir);
        return -1;
    }
    return dir;
}

/* 1 when NAME is among the kept files. */
static int kept(const rl_outdir *o, const char *name)
{
    for (int i = 0; i < o->nkept; i++)
        if (strcmp(o->kept[i], name) == 0)
            return 1;
    return 0;
}

int rl_outdir_budget(const rl_outdir *o, const char *name, size_t len, char *err, size_t errlen)
{
    if (!kept(o, name) && o->nkept >= o->max_files)
        RL_FAIL("%s: the run's output budget of %d files is spent (docs/hardening.md); "
                "nothing written", name, o->max_files);
    if ((double)len > (double)(o->max_bytes - o->bytes))
        RL_FAIL("%s: %zu bytes would pass the run's output budget of %lld bytes (%lld written "
                "so far; docs/hardening.md); nothing written", name, len, o->max_bytes, o->bytes);
    return 0;
}

int rl_outdir_note(rl_outdir *o, const char *name)
{
    if (kept(o, name))
        return 0; /* rewritten: listed once */
    if (o->nkept == o->cap) {
        int cap = o->cap ? 2 * o->cap : 8;
        char **k = realloc(o->kept, (size_t)cap * sizeof *k);
        if (!k)
            return -1;
        o->kept = k;
        o->cap = cap;
    }
    char *copy = strdup(name);
    if (!copy)
        return -1;
    o->kept[o->nkept++] = copy;
    return 0;
}

int rl_outdir_write(rl_outdir *o, const char *name, const char *data, size_t len, char *err,
                    size_t errlen)
{
    if (rl_outdir_budget(o, name, len, err, errlen) != 0)
        return -1;
    int dir = rl_outdir_resolve(o, name, NULL, 0, err, errlen);
    if (dir < 0)
        return -1;
    const char *leaf = strrchr(name, '/');
    int rc = rl_write_atomic_at(dir, leaf ? leaf + 1 : name, name, data, len, err, errlen);
    close(dir);
    if (rc != 0)
        return -1;
    o->bytes += (long long)len;
    if (rl_outdir_note(o, name) != 0)
        RL_FAIL("%s: written, but out of memory recording it", name);
    return 0;
}
