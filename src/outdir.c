/* outdir.c — confined output directory (see outdir.h for the rules). */
#include "outdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "guard.h"
#include "interrupt.h"
#include "report.h"

#define NAME_MAX_LEN 1024
#define COMPONENT_MAX RL_NAME_MAX /* report.h: room for ".tmp.XXXXXX" */
#define UNDO_NAMES "NAMES"        /* the undo folder's list of its copies */
#define UNDO_PREFIX ".roofline-undo-"

/* Empty o with the default output budget. */
static void outdir_init(rl_outdir *o)
{
    memset(o, 0, sizeof *o);
    o->undo_fd = -1;
    o->max_bytes = RL_OUTDIR_MAX_BYTES;
    o->max_files = RL_OUTDIR_MAX_FILES;
}

/* Take the exclusive lock on the open folder `fd` (flock(2): held by the
 * open file description, so the kernel drops it when the run exits, is
 * killed, or closes the folder; O_CLOEXEC keeps it from gnuplot).  Returns
 * -1 when another run holds it; 0 when taken, and also where the file
 * system has no flock locks (ENOLCK, EINVAL, EBADF: NFS without lockd, some
 * FUSE), as before the lock existed. */
static int lock_folder(int fd)
{
    int rc;
    while ((rc = flock(fd, LOCK_EX | LOCK_NB)) != 0 && errno == EINTR)
        ;
    return rc != 0 && errno == EWOULDBLOCK ? -1 : 0;
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
        RL_FAIL("%s: cannot use as output directory: %s", RL_NAME_SHOWN(dir), strerror(errno));
    if (!S_ISDIR(st.st_mode))
        RL_FAIL("%s: output path exists and is not a directory", RL_NAME_SHOWN(dir));
    char real[PATH_MAX];
    if (!realpath(dir, real))
        RL_FAIL("%s: cannot resolve the output directory: %s", RL_NAME_SHOWN(dir), strerror(errno));
    if (strlen(real) >= sizeof o->root)
        RL_FAIL("%s: output directory path too long", RL_NAME_SHOWN(dir));
    o->fd = open(real, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (o->fd < 0)
        RL_FAIL("%s: cannot open the output directory: %s", RL_NAME_SHOWN(dir), strerror(errno));
    if (lock_folder(o->fd) != 0) { /* tester15 F-run-1 */
        close(o->fd);
        snprintf(err, errlen, "%s: another roofline run is writing to this folder (it holds the "
                 "folder's lock); wait for it to end or choose another output folder", RL_NAME_SHOWN(dir));
        return RL_OUTDIR_BUSY;
    }
    memcpy(o->root, real, strlen(real) + 1);
    return 0;
}

int rl_outdir_check(const char *dir, char *note, size_t notelen, char *why, size_t whylen)
{
    char nearest[PATH_MAX], tree[PATH_MAX];
    note[0] = '\0';
    if (rl_guard_folder(dir, why, whylen) != 0)
        return -1;
    char real[PATH_MAX];
    if (rl_guard_source_folder(dir)) /* fixRD #1: as --save there (guard.h) */
        return rl_fail(why, whylen, "it is a source folder of roofline's own tree (or a folder "
                       "below one: src/, calib/, reference_engine/, tests/, bench/, fuzz/, "
                       "scripts/, tools/, scenarios/, plots/), where roofline never writes; "
                       "out/ is the tree's folder for outputs");
    if (realpath(dir, real) && strcmp(real, "/") == 0) /* fixRD #1: beside /etc, /usr */
        return rl_fail(why, whylen, "it is the file system's root; name a folder of your own");
    int own = rl_guard_folder_in_tree(dir, nearest, sizeof nearest, tree, sizeof tree);
    size_t n = 0;
    if (strcmp(nearest, dir) != 0)
        n = (size_t)snprintf(note, notelen, "does not exist: it will be made, with its missing "
                             "parents, in '%s' when the run writes a file", RL_NAME_SHOWN(nearest));
    if (own && n < notelen)
        snprintf(note + n, notelen - n, "%sis a folder of roofline's own tree (%s), where files "
                 "roofline does not ship would lie beside its sources (a later `git add` takes "
                 "them); out/ is the tree's folder for outputs", n ? "; it " : "", RL_NAME_SHOWN(tree));
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
    int left = 0;
    for (int i = 0; i < o->nundo; i++) {
        left += o->backed[i].state == 2;
        if (o->backed[i].state == 1 && o->undo_fd >= 0) { /* 2: not put back, left for the user */
            char n[16];
            snprintf(n, sizeof n, "%d", i);
            unlinkat(o->undo_fd, n, 0);
        }
        free(o->undo[i]);
    }
    if (o->undo_fd >= 0) {
        if (!left)
            unlinkat(o->undo_fd, UNDO_NAMES, 0);
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

int rl_outdir_check_name(const char *name, int plain, char *err, size_t errlen)
{
    size_t len = strlen(name);
    if (len == 0)
        RL_FAIL("output name is empty");
    if (len > NAME_MAX_LEN)
        RL_FAIL("output name longer than %d bytes", NAME_MAX_LEN);
    for (const char *c = name; *c; c++) /* the name is not echoed: it could drive the terminal */
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            RL_FAIL("output name has a control character (byte 0x%02x at byte %td)",
                    (unsigned char)*c, c - name);
    if (name[0] == '/')
        RL_FAIL("%s: it begins with '/': absolute output names are refused; give a name inside "
                "the --out directory", name);
    const char *p = name;
    for (;;) {
        const char *slash = strchr(p, '/');
        size_t n = slash ? (size_t)(slash - p) : strlen(p);
        if (n == 0)
            RL_FAIL("%s: empty path component at byte %td ('//' or a trailing '/')", name,
                    p - name);
        if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
            RL_FAIL("%s: component '%.*s' at byte %td: '.' and '..' components are refused "
                    "(outputs stay inside the --out directory; dots inside a component, as in "
                    "'..txt', are fine)", name, (int)n, p, p - name);
        if (p == name && !strncmp(p, UNDO_PREFIX, strlen(UNDO_PREFIX)))
            RL_FAIL("%s: names beginning '" UNDO_PREFIX "' are roofline's own (its undo "
                    "folders, named on the next run as an interrupted run's); choose another "
                    "name", name); /* tester31 F8: a script forged one */
        if (n > COMPONENT_MAX)
            RL_FAIL("%s: a path component is longer than %d bytes (the one at byte %td; a "
                    "file's temporary name adds 11 to it, and 255 is the limit)", name,
                    COMPONENT_MAX, p - name);
        if (!slash)
            return 0;
        if (plain)
            RL_FAIL("%s: '/' at byte %td: a plain file name, without folders (written into the "
                    "output directory)", name, slash - name);
        p = slash + 1;
    }
}

static int check_name(const char *name, char *err, size_t errlen)
{
    return rl_outdir_check_name(name, 0, err, errlen);
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

/* Copy the regular file `from` (in folder fdir) to `to` (in tdir), mode
 * kept, through a temporary renamed into place.  0, or -1 with errno set
 * and nothing left. */
static int copy_at(int fdir, const char *from, int tdir, const char *to)
{
    char tmp[300], e[256], buf[65536];
    struct stat st;
    int in = openat(fdir, from, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (in < 0)
        return -1;
    int out = fstat(in, &st) == 0 ? rl_temp_at(tdir, to, to, tmp, sizeof tmp, e, sizeof e) : -1;
    int ok = out >= 0, saved = errno;
    ssize_t n;
    while (ok && (n = read(in, buf, sizeof buf)) != 0) {
        ok = n > 0 || errno == EINTR;
        for (ssize_t done = 0, w; ok && n > 0 && done < n; done += w > 0 ? w : 0)
            ok = (w = write(out, buf + done, (size_t)(n - done))) > 0 || errno == EINTR;
    }
    ok = ok && fchmod(out, st.st_mode & 07777) == 0 && fsync(out) == 0;
    if (!ok)
        saved = errno;
    if (out >= 0 && close(out) != 0 && ok) {
        saved = errno;
        ok = 0;
    }
    if (ok && renameat(tdir, tmp, tdir, to) != 0) {
        saved = errno;
        ok = 0;
    }
    if (out >= 0 && !ok)
        unlinkat(tdir, tmp, 0);
    if (out >= 0)
        rl_interrupt_track_temp(AT_FDCWD, NULL);
    close(in);
    errno = saved;
    return ok ? 0 : -1;
}

/* Keep the older file `leaf` (in dir) as copy `n` of the undo folder: a
 * hard link, or a copy where none can be made (review22 #4). */
static int keep_older(const rl_outdir *o, int dir, const char *leaf, const char *n)
{
    if (!o->no_links && linkat(dir, leaf, o->undo_fd, n, 0) == 0)
        return 0;
    if (!o->no_links && errno != EXDEV && errno != EPERM && errno != ENOTSUP &&
        errno != EOPNOTSUPP && errno != EMLINK)
        return -1;
    return copy_at(dir, leaf, o->undo_fd, n);
}

/* Make the undo folder and its NAMES list, once.  0, or -1 with err set. */
static int undo_folder(rl_outdir *o, const char *name, char *err, size_t errlen)
{
    if (o->undo_fd >= 0)
        return 0;
    char made[sizeof o->root + sizeof o->undo_dir];
    snprintf(made, sizeof made, "%s/" UNDO_PREFIX "XXXXXX", o->root);
    if (!mkdtemp(made)) {
        o->io_failed = 1;
        RL_FAIL("%s: cannot make a folder in %s that keeps older files until the run "
                "succeeds: %s", name, RL_NAME_SHOWN(o->root), strerror(errno));
    }
    snprintf(o->undo_dir, sizeof o->undo_dir, "%s", strrchr(made, '/') + 1);
    o->undo_fd = openat(o->fd, o->undo_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (o->undo_fd < 0)
        RL_FAIL("%s: cannot open %s: %s", name, RL_NAME_SHOWN(made), strerror(errno));
    return 0;
}

/* Append "N<TAB>NAME" to the undo folder's NAMES (review22 #5: copies 0, 1,
 * ... said nothing of the file each one is).  0 or -1 (errno). */
static int list_copy(const rl_outdir *o, const char *n, const char *name)
{
    int fd = openat(o->undo_fd, UNDO_NAMES, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC,
                    0644);
    if (fd < 0)
        return -1;
    char line[1100];
    int len = snprintf(line, sizeof line, "%s\t%s\n", n, name); /* name: <= 1024, no control */
    int ok = write(fd, line, (size_t)len) == len, saved = errno;
    close(fd);
    errno = saved;
    return ok ? 0 : -1;
}

/* The output that claimed undo name i (stored after the name's NUL). */
static const char *owner_of(const rl_outdir *o, int i)
{
    return o->undo[i] + strlen(o->undo[i]) + 1;
}

/* Record NAME for `owner` before its first write of the run, keeping its
 * older file (leaf inside dir), if any, in the undo folder (keep_older) and
 * its identity in backed.  A name another owner claimed is refused
 * (tester11 #6).  0, or -1 with err set. */
static int journal(rl_outdir *o, const char *name, const char *owner, int dir, const char *leaf,
                   char *err, size_t errlen)
{
    for (int i = 0; i < o->nundo; i++) {
        if (strcmp(o->undo[i], name) != 0)
            continue;
        if (strcmp(owner_of(o, i), owner) == 0)
            return 0; /* the same output again: a rewrite */
        RL_FAIL("%s: it is another output of this run (%s); refusing to replace it, give "
                "this one another name", name, owner_of(o, i));
    }
    if (o->nundo == o->undo_cap) {
        int cap = o->undo_cap ? 2 * o->undo_cap : 8;
        char **u = realloc(o->undo, (size_t)cap * sizeof *u);
        if (u)
            o->undo = u;
        struct rl_outdir_older *b = u ? realloc(o->backed, (size_t)cap * sizeof *b) : NULL;
        if (!b)
            RL_FAIL("%s: out of memory", name);
        o->backed = b;
        o->undo_cap = cap;
    }
    struct stat st = {0};
    int older = fstatat(dir, leaf, &st, AT_SYMLINK_NOFOLLOW) == 0;
    if (older && undo_folder(o, name, err, errlen) != 0)
        return -1;
    char n[16];
    snprintf(n, sizeof n, "%d", o->nundo);
    if (older && (list_copy(o, n, name) != 0 || keep_older(o, dir, leaf, n) != 0)) {
        o->io_failed = 1;
        RL_FAIL("%s: cannot keep the older file until the run succeeds (in %s/%s): %s", name,
                RL_NAME_SHOWN(o->root), o->undo_dir, strerror(errno));
    }
    size_t nl = strlen(name) + 1, ol = strlen(owner) + 1;
    if (!(o->undo[o->nundo] = malloc(nl + ol))) {
        if (older)
            unlinkat(o->undo_fd, n, 0);
        RL_FAIL("%s: out of memory", name);
    }
    memcpy(o->undo[o->nundo], name, nl); /* "NAME\0OWNER\0": owner_of */
    memcpy(o->undo[o->nundo] + nl, owner, ol);
    o->backed[o->nundo++] = (struct rl_outdir_older){older, st.st_dev, st.st_ino};
    return 0;
}

/* Put copy n back as leaf (in dir), or only delete it when leaf is still
 * the older file (the run never rewrote it).  1 put back, 0 nothing to put
 * back, -1 failed (the copy stays). */
static int put_back(const rl_outdir *o, const struct rl_outdir_older *b, const char *n, int dir,
                    const char *leaf)
{
    struct stat st;
    if (fstatat(dir, leaf, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_dev == b->dev &&
        st.st_ino == b->ino)
        return unlinkat(o->undo_fd, n, 0) == 0 || errno == ENOENT ? 0 : -1;
    if (renameat(o->undo_fd, n, dir, leaf) == 0)
        return 1;
    if (errno != EXDEV || copy_at(o->undo_fd, n, dir, leaf) != 0)
        return -1;
    unlinkat(o->undo_fd, n, 0);
    return 1;
}

/* Append "; COUNT WHAT: NAME[, ...]" for the undo names in state `state`
 * (2: older files left in the undo folder; 3: new files not removed). */
static size_t say_stuck(const rl_outdir *o, int state, const char *what, char *msg, size_t n,
                        size_t msglen)
{
    int count = 0;
    for (int i = 0; i < o->nundo; i++)
        count += o->backed[i].state == state;
    if (!count || n >= msglen)
        return n;
    n += (size_t)snprintf(msg + n, msglen - n, "; %d %s:", count, what);
    for (int i = 0, shown = 0; i < o->nundo && n < msglen; i++)
        if (o->backed[i].state == state)
            n += (size_t)snprintf(msg + n, msglen - n, "%s %s", shown++ ? "," : "", o->undo[i]);
    return n;
}

int rl_outdir_undo(rl_outdir *o, char *msg, size_t msglen)
{
    int restored = 0, removed = 0, older = 0;
    for (int i = o->nundo - 1; i >= 0; i--) {
        const char *leaf = NULL; /* set by open_folder when dir >= 0 */
        char n[16], err[256];
        int dir = open_folder(o, o->undo[i], 0, &leaf, err, sizeof err), ok;
        snprintf(n, sizeof n, "%d", i);
        if (o->backed[i].state == 1) {
            ok = dir >= 0 ? put_back(o, &o->backed[i], n, dir, leaf) : -1;
            restored += ok == 1;
            o->backed[i].state = ok < 0 ? 2 : 0; /* 2: its copy stays in the undo folder */
            older += ok < 0;
        } else {
            removed += ok = dir >= 0 && unlinkat(dir, leaf, 0) == 0;
            if (!ok && errno != ENOENT) /* ENOENT: never written */
                o->backed[i].state = 3;
        }
        if (dir >= 0)
            close(dir);
    }
    int stuck = older;
    for (int i = 0; i < o->nundo; i++)
        stuck += o->backed[i].state == 3;
    const char *root = o->root[0] ? o->root : "(no --out directory)";
    size_t n = (size_t)snprintf(msg, msglen, "%s in %s", stuck ? "could not undo all of the run"
                                                               : "kept nothing", root);
    if (n < msglen && removed + restored + stuck > 0)
        n += (size_t)snprintf(msg + n, msglen - n, " (the run failed: %d new file%s removed, %d "
                              "older file%s put back", removed, removed == 1 ? "" : "s",
                              restored, restored == 1 ? "" : "s");
    n = say_stuck(o, 3, "new file(s) could not be removed", msg, n, msglen);
    n = say_stuck(o, 2, "older file(s) could not be put back", msg, n, msglen);
    if (n < msglen && older)
        n += (size_t)snprintf(msg + n, msglen - n, "; their older copies stay in %s/%s, listed "
                              "in its " UNDO_NAMES, root, o->undo_dir);
    if (n < msglen && removed + restored + stuck > 0)
        snprintf(msg + n, msglen - n, ")");
    drop_undo(o);
    forget_kept(o);
    return stuck;
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
        if (rc != 0) { /* a folder it could not make or open: an output failure (README:
                        * exit 1); one another run holds stays bad input (exit 2) */
            o->io_failed = rc != RL_OUTDIR_BUSY;
            snprintf(o->pending, sizeof o->pending, "%s", dir);
            return -1;
        }
    }
    if (!o->root[0])
        RL_FAIL("no output directory: run the scenario with `roofline run --out DIR`");
    if (path && (size_t)snprintf(path, pathlen, "%s/%s", o->root, name) >= pathlen)
        RL_FAIL("%s: output path too long", name);
    const char *c = NULL;
    int dir = open_folder(o, name, 1, &c, err, errlen);
    if (dir < 0)
        return -1;
    struct stat st;
    const char *why = NULL, *input = NULL;
    int shipped = 0, exists = fstatat(dir, c, &st, AT_SYMLINK_NOFOLLOW) == 0;
    if (exists) {
        if (S_ISLNK(st.st_mode) || S_ISDIR(st.st_mode))
            why = S_ISLNK(st.st_mode) ? "exists and is a symbolic link" : "exists and is a directory";
        else if (!S_ISREG(st.st_mode)) /* as guard.h rule 2 */
            why = "exists and is not a regular file (a device, pipe or socket)";
        else if ((shipped = rl_guard_shipped(&st)) != 0) /* --out hw_profiles (review21 #1) */
            why = rl_guard_shipped_why(shipped);
        else /* tester9 #3 (the scenario), tester12 #8 (a spec it loaded) */
            input = rl_guard_was_read(&st);
    }
    char fd_path[64], real[PATH_MAX], preset_why[200];
    const char *kind;
    ssize_t rn;
    snprintf(fd_path, sizeof fd_path, "/proc/self/fd/%d", dir);
    if (!why && !input && (rn = readlink(fd_path, real, sizeof real - 1)) > 0) {
        real[rn] = '\0'; /* a new file too, by its name (guard.h rl_guard_doc_name) */
        char full[PATH_MAX + 256], tree[PATH_MAX];
        int src;
        if ((shipped = rl_guard_doc_name(real, c)) != 0) /* any tree's (fixJH) */
            why = rl_guard_shipped_why(shipped);
        else if ((size_t)snprintf(full, sizeof full, "%s/%s", real, c) < sizeof full &&
                 (src = rl_guard_tree_source(full, tree, sizeof tree)) != 0)
            why = RL_GUARD_TREE_SOURCE_WHY; /* as --save, new or existing (tester76 #2, fixNE
                                             * #1); `--out scenarios` is refused (fixRD #1) */
        else if (strlen(c) > 4 && !strcmp(c + strlen(c) - 4, ".lua") && strlen(full) < PATH_MAX &&
                 (kind = rl_guard_preset_folder(full)) != NULL) {
            /* as --save names a result there (cli.c check_result_name; tester101:
             * `run --out DATA/model` and roofline.write("llama3-8b.lua", ...)
             * shadowed the shipped preset, and every --model llama3-8b failed) */
            snprintf(preset_why, sizeof preset_why, "a .lua file in the presets folder %s/, "
                     "where every .lua file is read as a spec (list, a preset name); write it "
                     "elsewhere or as .json, .csv or .txt", kind);
            why = preset_why;
        }
    }
    if (why || input) {
        close(dir);
        if (input)
            RL_FAIL("%s: it is an input of this run (%s); refusing to replace it", name,
                    RL_NAME_SHOWN(input));
        RL_FAIL("%s: %s; refusing to %s it", name, why, exists ? "replace" : "write");
    }
    return dir;
}

int rl_outdir_claim(rl_outdir *o, const char *name, const char *owner, char *path,
                    size_t pathlen, char *err, size_t errlen)
{
    int dir = rl_outdir_resolve(o, name, path, pathlen, err, errlen);
    const char *leaf = strrchr(name, '/');
    if (dir >= 0 && journal(o, name, owner, dir, leaf ? leaf + 1 : name, err, errlen) != 0) {
        close(dir);
        return -1;
    }
    return dir;
}

/* 1 when the NAMES line `copy` TAB `name` can be shown: the copy a number
 * (never a path out of the folder), the name one check_name accepts (no
 * control character drives the terminal; review23 L1). */
static int names_line_ok(const char *copy, const char *name)
{
    char err[8];
    return copy[0] && strspn(copy, "0123456789") == strlen(copy) &&
           check_name(name, err, sizeof err) == 0;
}

/* Append to msg what the leftover undo folder `undo` (in the open
 * directory) holds: its copies that are still there, by the names NAMES
 * gives them (the first three, then a count).  The new length. */
static size_t describe_leftover(const rl_outdir *o, const char *undo, char *msg, size_t n,
                                size_t msglen)
{
    char line[1100], names[400] = "", why[300] = "";
    struct stat st;
    int ufd = openat(o->fd, undo, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    /* a FIFO planted as NAMES would block a plain open forever (review23 H1) */
    int nf = ufd < 0 ? -1 : rl_open_regular_at(ufd, UNDO_NAMES, O_NOFOLLOW, UNDO_NAMES, &st, why,
                                                sizeof why);
    FILE *f = nf < 0 ? NULL : fdopen(nf, "r");
    int count = 0, bad = 0;
    size_t used = 0;
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *tab = strchr(line, '\t');
        if (!tab || (*tab = '\0', !names_line_ok(line, tab + 1))) {
            bad++;
            continue;
        }
        if (fstatat(ufd, line, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue; /* a copy already put back */
        if (count++ < 3 && used < sizeof names)
            used += (size_t)snprintf(names + used, sizeof names - used, "%s%s",
                                     count > 1 ? ", " : "", tab + 1);
    }
    if (f)
        fclose(f);
    else if (nf >= 0)
        close(nf);
    if (ufd >= 0)
        close(ufd);
    if (n >= msglen)
        return n;
    if (bad)
        snprintf(why, sizeof why, "%d unreadable " UNDO_NAMES " line%s", bad, bad > 1 ? "s" : "");
    if (!count)
        return n + (size_t)snprintf(msg + n, msglen - n, "%s%s/%s (no older copy listed in its "
                                    UNDO_NAMES "%s%s)", n ? "; " : "", o->root, undo,
                                    why[0] ? ": " : "", why);
    n += (size_t)snprintf(msg + n, msglen - n, "%s%s/%s holds the older cop%s of %s", n ? "; " : "",
                          o->root, undo, count == 1 ? "y" : "ies", names);
    if (count > 3 && n < msglen)
        n += (size_t)snprintf(msg + n, msglen - n, " and %d more", count - 3);
    if (bad && n < msglen)
        n += (size_t)snprintf(msg + n, msglen - n, " (%s)", why);
    return n;
}

int rl_outdir_in_tree(const rl_outdir *o, char *msg, size_t msglen)
{
    char path[PATH_MAX + 1100], top[1024];
    int count = 0;
    size_t n = 0;
    *msg = '\0';
    for (int i = 0; i < o->nundo && o->root[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", o->root, o->undo[i]);
        if (o->backed[i].state != 1 || !rl_guard_in_tree(path, top, sizeof top))
            continue;
        if (count++ == 0)
            n = (size_t)snprintf(msg, msglen, "%s: ", top);
        if (count <= 3 && n < msglen)
            n += (size_t)snprintf(msg + n, msglen - n, "%s%s", count > 1 ? ", " : "", o->undo[i]);
    }
    if (count > 3 && n < msglen)
        snprintf(msg + n, msglen - n, " and %d more", count - 3);
    return count;
}

int rl_outdir_leftovers(const rl_outdir *o, char *msg, size_t msglen)
{
    msg[0] = '\0';
    /* opened anew: a dup would share (and move) the held descriptor's offset */
    int fd = o->root[0] ? openat(o->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    DIR *d = fd < 0 ? NULL : fdopendir(fd);
    if (!d) {
        if (fd >= 0)
            close(fd);
        return 0;
    }
    int found = 0;
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (!strncmp(e->d_name, UNDO_PREFIX, strlen(UNDO_PREFIX)) &&
            strcmp(e->d_name, o->undo_dir) != 0) {
            n = describe_leftover(o, e->d_name, msg, n, msglen);
            found++;
        }
    closedir(d);
    return found;
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
    int dir = rl_outdir_claim(o, name, RL_OUTDIR_BY_WRITE, NULL, 0, err, errlen);
    if (dir < 0)
        return -1;
    const char *leaf = strrchr(name, '/');
    int rc = rl_write_atomic_at(dir, leaf ? leaf + 1 : name, name, data, len, err, errlen);
    close(dir);
    if (rc != 0) {
        o->io_failed = 1;
        return -1;
    }
    o->bytes += (long long)len;
    if (rl_outdir_note(o, name) != 0)
        RL_FAIL("%s: written, but out of memory recording it", name);
    return 0;
}
