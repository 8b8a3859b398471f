/* error.h — how a library function reports bad input or a failure: it
 * writes one message into the caller's buffer (err, errlen) and returns -1
 * (0 on success); it never prints and never exits.  The caller adds context
 * and the command line prints it ("roofline CMD: MESSAGE", cli.h).  After
 * redis's C_OK/C_ERR and Lua's single l_message: one helper instead of a
 * FAIL macro per file: RL_FAIL returns, RL_FAIL_GOTO jumps to the function's
 * cleanup first. */
#ifndef RL_ERROR_H
#define RL_ERROR_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Format the message into err[errlen] (err may be NULL: only the -1);
 * returns -1. */
__attribute__((format(printf, 3, 4))) static inline int rl_fail(char *err, size_t errlen,
                                                                 const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* Return -1 from the enclosing function with the message in its `err` /
 * `errlen` parameters. */
#define RL_FAIL(...) return rl_fail(err, errlen, __VA_ARGS__)

/* The same for a function with something to release: set the message, then
 * jump to its cleanup `label` (which returns -1). */
#define RL_FAIL_GOTO(label, ...)                                                                   \
    do {                                                                                           \
        rl_fail(err, errlen, __VA_ARGS__);                                                         \
        goto label;                                                                                \
    } while (0)

/* The n names joined by ", " into buf[len] (cut at len), for a message's
 * list of the values accepted, built from the table that accepts them;
 * returns buf. */
static inline const char *rl_names_join(char *buf, size_t len, const char *const *names, int n)
{
    size_t k = 0;
    if (len)
        buf[0] = 0;
    for (int i = 0; i < n && k < len; i++) {
        int w = snprintf(buf + k, len - k, "%s%s", i ? ", " : "", names[i]);
        k += w > 0 ? (size_t)w : 0;
    }
    return buf;
}

/* A user's string in a message is cut to 40 characters (format "%.40s%s")
 * and marked "..." when longer, so the reason after it still shows (tester
 * LOW #1: a 5000-character --set value filled err before the reason): the
 * suffix for s, "..." or "". */
static inline const char *rl_elide_suffix(const char *s)
{
    return s && strlen(s) > 40 ? "..." : "";
}

#endif
