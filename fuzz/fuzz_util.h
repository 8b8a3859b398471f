/* fuzz_util.h — shared by the libFuzzer harnesses: put the input in a
 * per-process temporary file (the loaders take paths), point preset lookup
 * at the source tree, and silence the tool's own printing. */
#ifndef RL_FUZZ_UTIL_H
#define RL_FUZZ_UTIL_H

#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Write data to /tmp/rl_fuzz_<tag>_<pid><suffix>; returns the path (static). */
static inline const char *fuzz_file(const char *tag, const char *suffix, const uint8_t *data,
                                    size_t size)
{
    static char path[256];
    snprintf(path, sizeof path, "/tmp/rl_fuzz_%s_%d%s", tag, (int)getpid(), suffix);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        abort();
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(fd, data + done, size - done);
        if (n <= 0)
            abort();
        done += (size_t)n;
    }
    close(fd);
    return path;
}

/* Once per process: presets from the source tree; stdout/stderr to /dev/null
 * (the CLI prints results and errors; libFuzzer reports through its own fd). */
static inline void fuzz_init(int quiet)
{
    setenv("ROOFLINE_DATA", RL_SRCDIR, 1);
    if (quiet) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0) {
            dup2(fd, 1);
            close(fd);
        }
    }
}

#endif
