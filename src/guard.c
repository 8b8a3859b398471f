/* guard.c — shipped files, writable targets and distinct outputs (see guard.h). */
#include "guard.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <linux/magic.h>

#include "error.h"
#include "spec.h"

/* The shipped files: at most this many (PRESETS lists ~70 today). */
#define SHIPPED_MAX 1024

static struct {
    char dirs[3 * 1024 + 3]; /* the data directories the list was read from */
    int loaded, n;
    struct {
        dev_t dev;
        ino_t ino;
        int kind;
    } f[SHIPPED_MAX];
} shipped;

/* Record the existing file at `path` as shipped of `kind`. */
static void add_shipped(const char *path, int kind)
{
    struct stat st;
    if (shipped.n < SHIPPED_MAX && stat(path, &st) == 0) {
        shipped.f[shipped.n].dev = st.st_dev;
        shipped.f[shipped.n].ino = st.st_ino;
        shipped.f[shipped.n++].kind = kind;
    }
}

/* Read the list once per set of data directories (ROOFLINE_DATA may change
 * between library calls in one process). */
static void load_shipped(void)
{
    char dirs[3][1024], key[sizeof shipped.dirs] = "", line[1024], p[4200];
    int n = rl_data_dirs(dirs);
    for (int i = 0; i < n; i++)
        snprintf(key + strlen(key), sizeof key - strlen(key), "%s\n", dirs[i]);
    if (shipped.loaded && strcmp(key, shipped.dirs) == 0)
        return;
    memcpy(shipped.dirs, key, sizeof key);
    shipped.loaded = 1;
    shipped.n = 0;
    add_shipped("/proc/self/exe", RL_SHIPPED_PROGRAM);
    for (int i = 0; i < n; i++) {
        snprintf(p, sizeof p, "%s/PRESETS", dirs[i]);
        FILE *f = fopen(p, "r");
        if (!f)
            continue;
        add_shipped(p, RL_SHIPPED_DATA);
        while (fgets(line, sizeof line, f)) {
            line[strcspn(line, "\r\n")] = '\0';
            if (!line[0])
                continue;
            snprintf(p, sizeof p, "%s/%s", dirs[i], line);
            add_shipped(p, !strncmp(line, "model/", 6)         ? RL_SHIPPED_MODEL
                           : !strncmp(line, "hw_profiles/", 12) ? RL_SHIPPED_HW
                                                                : RL_SHIPPED_DATA);
        }
        fclose(f);
    }
}

int rl_guard_shipped(const struct stat *st)
{
    load_shipped();
    for (int i = 0; i < shipped.n; i++)
        if (shipped.f[i].dev == st->st_dev && shipped.f[i].ino == st->st_ino)
            return shipped.f[i].kind;
    return RL_SHIPPED_NONE;
}

int rl_guard_shipped_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) ? rl_guard_shipped(&st) : RL_SHIPPED_NONE;
}

const char *rl_guard_shipped_why(int kind)
{
    switch (kind) {
    case RL_SHIPPED_MODEL:
        return "it is a shipped preset (PRESETS); write to another file, e.g. model/NAME-local.lua";
    case RL_SHIPPED_HW:
        return "it is a shipped preset (PRESETS); write to another file (a profile of your own "
               "can start with base = \"<preset>\")";
    case RL_SHIPPED_PROGRAM:
        return "it is the roofline program itself; write to another file";
    default:
        return "it is a file roofline ships and reads (PRESETS lists them: specs, plot "
               "templates, scenarios, and PRESETS itself); write to another file";
    }
}

/* Rule 4: the files read since rl_guard_reads_begin. */
static struct {
    int on, n, cap;
    struct read_file {
        dev_t dev;
        ino_t ino;
        const char *what;
    } *f;
} reads;

void rl_guard_reads_begin(void)
{
    rl_guard_reads_end();
    reads.on = 1;
}

void rl_guard_reads_end(void)
{
    free(reads.f);
    memset(&reads, 0, sizeof reads);
}

/* The entry of the file of stat st, or NULL. */
static struct read_file *read_entry(const struct stat *st)
{
    for (int i = 0; i < reads.n; i++)
        if (reads.f[i].dev == st->st_dev && reads.f[i].ino == st->st_ino)
            return &reads.f[i];
    return NULL;
}

void rl_guard_read(const struct stat *st, const char *what)
{
    if (!reads.on)
        return;
    struct read_file *e = read_entry(st);
    if (!e && reads.n == reads.cap) {
        int cap = reads.cap ? 2 * reads.cap : 16;
        struct read_file *f = realloc(reads.f, (size_t)cap * sizeof *f);
        if (!f)
            return; /* out of memory: the run fails soon anyway */
        reads.f = f;
        reads.cap = cap;
    }
    if (!e) {
        e = &reads.f[reads.n++];
        *e = (struct read_file){st->st_dev, st->st_ino, "a file it read"};
    }
    if (what)
        e->what = what;
}

void rl_guard_read_path(const char *path, const char *what)
{
    struct stat st;
    if (reads.on && stat(path, &st) == 0)
        rl_guard_read(&st, what);
}

const char *rl_guard_was_read(const struct stat *st)
{
    const struct read_file *e = reads.on ? read_entry(st) : NULL;
    return e ? e->what : NULL;
}

/* Whether the canonical path `real` lies in a tree roofline ships outside
 * its users' folders (rl_guard_in_tree); `dir`: real is a folder, which may
 * be the tree's top itself or a user folder's parent. */
static int in_tree(const char *real, int dir, char *tree, size_t len)
{
    char dirs[3][1024], top[PATH_MAX], p[PATH_MAX + 16];
    struct stat st;
    int n = rl_data_dirs(dirs);
    for (int i = 0; i < n; i++) {
        snprintf(p, sizeof p, "%s/PRESETS", dirs[i]);
        if (stat(p, &st) != 0 || !realpath(dirs[i], top))
            continue;
        size_t k = strlen(top);
        if (strncmp(real, top, k) != 0 || (real[k] != '/' && !(dir && real[k] == '\0')))
            continue;
        const char *rest = real[k] ? real + k + 1 : "";
        static const char *const user[] = {"model", "hw_profiles", "out"};
        for (size_t u = 0; u < sizeof user / sizeof *user; u++) {
            size_t m = strlen(user[u]);
            if (!strncmp(rest, user[u], m) && (rest[m] == '/' || (dir && rest[m] == '\0')))
                return 0;
        }
        snprintf(tree, len, "%s", top);
        return 1;
    }
    return 0;
}

int rl_guard_in_tree(const char *path, char *tree, size_t len)
{
    char real[PATH_MAX];
    struct stat st;
    if (!realpath(path, real) || stat(real, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    return in_tree(real, 0, tree, len);
}

/* The folder of `path` into dir[len] ("." for a bare name). */
static void folder_of(const char *path, char *dir, size_t len)
{
    const char *slash = strrchr(path, '/');
    snprintf(dir, len, "%.*s", !slash ? 1 : slash == path ? 1 : (int)(slash - path),
             slash ? path : ".");
}

/* The name of the virtual file system `dir` is on (proc, sysfs and the
 * like: statfs f_type, linux/magic.h), or NULL. */
static const char *virtual_fs(const char *dir)
{
    static const struct {
        long magic;
        const char *name;
    } kinds[] = {{PROC_SUPER_MAGIC, "procfs (/proc)"},   {SYSFS_MAGIC, "sysfs (/sys)"},
                 {DEBUGFS_MAGIC, "debugfs"},             {SECURITYFS_MAGIC, "securityfs"},
                 {CGROUP_SUPER_MAGIC, "cgroupfs"},       {CGROUP2_SUPER_MAGIC, "cgroup2fs"},
                 {TRACEFS_MAGIC, "tracefs"},             {BPF_FS_MAGIC, "bpffs"}};
    struct statfs fs;
    if (statfs(dir, &fs) != 0)
        return NULL;
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if ((long)fs.f_type == kinds[i].magic)
            return kinds[i].name;
    return NULL;
}

/* Whether the existing folder `dir` takes a new file: one is created and
 * removed (access(W_OK) says yes to root on a folder that refuses files,
 * such as /proc/self).  0, or -1 with the reason in why. */
static int takes_a_file(const char *dir, char *why, size_t whylen)
{
    char probe[PATH_MAX];
    if ((size_t)snprintf(probe, sizeof probe, "%s/.roofline-probe-XXXXXX", dir) >= sizeof probe)
        return rl_fail(why, whylen, "its folder's path is too long");
    int fd = mkstemp(probe);
    if (fd < 0) {
        int e = errno;
        const char *vfs = virtual_fs(dir);
        if (vfs) /* tester22 F13: /proc/version read "No such file or directory" */
            return rl_fail(why, whylen, "its folder '%s' is on %s, a virtual file system of the "
                           "kernel's own files that takes no new file (roofline writes a "
                           "temporary file beside the target, then renames it over); name a "
                           "file on a disk", dir, vfs);
        if (e == ENOENT) /* an existing folder: the file system makes no files */
            return rl_fail(why, whylen, "its folder '%s' takes no new files (a read-only or "
                           "virtual file system)", dir);
        return rl_fail(why, whylen, "its folder '%s' does not take a new file: %s", dir,
                       strerror(e));
    }
    close(fd);
    unlink(probe);
    return 0;
}

int rl_guard_folder_in_tree(const char *dir, char *nearest, size_t nlen, char *tree, size_t len)
{
    char at[PATH_MAX], up[PATH_MAX], real[PATH_MAX];
    struct stat st;
    snprintf(at, sizeof at, "%s", dir);
    while (stat(at, &st) != 0) { /* the nearest existing folder, as rl_guard_folder */
        folder_of(at, up, sizeof up);
        if (strcmp(up, at) == 0)
            break;
        memcpy(at, up, sizeof at);
    }
    snprintf(nearest, nlen, "%s", at);
    if (!realpath(at, real) || stat(real, &st) != 0 || !S_ISDIR(st.st_mode))
        return 0;
    if (strcmp(at, dir) != 0) { /* a folder to be made: in a user folder when its first */
        size_t k = strlen(at); /* missing component is one (out/new); at "." for a */
        const char *rest = strncmp(dir, at, k) == 0 ? dir + k : dir; /* bare relative name */
        rest += *rest == '/';
        size_t n = strlen(real), m = strcspn(rest, "/");
        if (n + 1 + m < sizeof real)
            snprintf(real + n, sizeof real - n, "%s%.*s", strcmp(real, "/") ? "/" : "", (int)m, rest);
    }
    return in_tree(real, 1, tree, len);
}

int rl_guard_folder(const char *dir, char *why, size_t whylen)
{
    struct stat st;
    char at[PATH_MAX], up[PATH_MAX];
    snprintf(at, sizeof at, "%s", dir);
    while (stat(at, &st) != 0) { /* made with its parents (report.h rl_mkdir_p) */
        folder_of(at, up, sizeof up);
        if (strcmp(up, at) == 0)
            return rl_fail(why, whylen, "cannot be made: %s", strerror(errno));
        memcpy(at, up, sizeof at);
    }
    if (!S_ISDIR(st.st_mode))
        return strcmp(at, dir) ? rl_fail(why, whylen, "'%s' exists and is not a folder", at)
                               : rl_fail(why, whylen, "exists and is not a folder");
    return takes_a_file(at, why, whylen);
}

int rl_guard_target(const char *path, int may_create, char *why, size_t whylen)
{
    char dir[PATH_MAX];
    struct stat st;
    size_t n = strlen(path);
    folder_of(path, dir, sizeof dir);
    if (n == 0 || path[n - 1] == '/')
        return rl_fail(why, whylen, "names a folder, not a file");
    if (strcmp(path, "-") == 0) /* read as stdout elsewhere (tester10 #12): say so */
        return rl_fail(why, whylen, "'-' is not standard output here; name a file (./- for one "
                                    "called -)");
    for (const char *c = path; *c; c++) /* as roofline.write's names (tester10 #12) */
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            return rl_fail(why, whylen, "the name has a control character (byte 0x%02x)",
                           (unsigned char)*c);
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        if (may_create && stat(dir, &st) != 0)
            return rl_guard_folder(dir, why, whylen);
        return rl_fail(why, whylen, "its folder does not exist");
    }
    /* written through a link (report.c write_target), whose target must
     * resolve: said here, exit 2, not after the run, exit 1 (tester23 F9) */
    char real[PATH_MAX];
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && !realpath(path, real))
        return rl_fail(why, whylen, "a symlink whose target cannot be resolved (%s); remove the "
                                    "link or name another file", strerror(errno));
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return rl_fail(why, whylen, "exists and is not a regular file (%s); name a file",
                       S_ISDIR(st.st_mode) ? "a folder" : "a device, pipe or socket");
    int kind = stat(path, &st) == 0 ? rl_guard_shipped(&st) : RL_SHIPPED_NONE;
    if (kind)
        return rl_fail(why, whylen, "%s", rl_guard_shipped_why(kind));
    return takes_a_file(dir, why, whylen);
}

/* The canonical form of `path` into out[len]: its nearest existing folder
 * through realpath + the rest as given (a folder still to be made, and the
 * last component).  Walks up without recursion (review22 #9: a frame per
 * missing folder).  0, or -1 when the result would not fit. */
static int canonical(const char *path, char *out, size_t len)
{
    char dir[PATH_MAX], up[PATH_MAX], real[PATH_MAX];
    if (strlen(path) >= sizeof dir)
        return -1;
    snprintf(dir, sizeof dir, "%s", path);
    for (;;) {
        folder_of(dir, up, sizeof up);
        int top = !strcmp(up, ".") || !strcmp(up, "/");
        if (realpath(up, real)) {
            /* up is "." (dir a bare name), "/" or path's prefix before a '/' */
            const char *rest = !strcmp(up, ".") && !strchr(dir, '/') ? path
                               : !strcmp(up, "/") && dir[0] == '/'    ? path + 1
                                                                      : path + strlen(up) + 1;
            size_t n = (size_t)snprintf(out, len, "%s/%s", strcmp(real, "/") ? real : "", rest);
            return n < len ? 0 : -1;
        }
        if (top || !strcmp(up, dir))
            return (size_t)snprintf(out, len, "%s", path) < len ? 0 : -1;
        memcpy(dir, up, sizeof dir);
    }
}

int rl_guard_distinct(rl_guard_outputs *s, const char *label, const char *path, char *err,
                      size_t errlen)
{
    if (s->n == RL_GUARD_MAX_OUTPUTS)
        RL_FAIL("more than %d output files in one run", RL_GUARD_MAX_OUTPUTS);
    struct stat st;
    int exists = stat(path, &st) == 0;
    char canon[sizeof s->v[0].canon];
    if (canonical(path, canon, sizeof canon) != 0) /* review22 #9: cut paths collided */
        RL_FAIL("%s '%.80s...': path too long (its canonical form passes %zu bytes)", label, path,
                sizeof canon - 1);
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->v[i].canon, canon) == 0 ||
            (exists && s->v[i].exists && s->v[i].dev == st.st_dev && s->v[i].ino == st.st_ino))
            RL_FAIL("%s and %s name the same file '%s'; give them different names", label,
                    s->v[i].label, path);
    memcpy(s->v[s->n].canon, canon, sizeof canon);
    snprintf(s->v[s->n].label, sizeof s->v[0].label, "%s", label);
    s->v[s->n].exists = exists;
    s->v[s->n].dev = exists ? st.st_dev : 0;
    s->v[s->n].ino = exists ? st.st_ino : 0;
    s->n++;
    return 0;
}
