/* error.h — how a library function reports bad input or a failure: it
 * writes one message into the caller's buffer (err, errlen) and returns -1
 * (0 on success); it never prints and never exits.  The caller adds context
 * and the command line prints it ("roofline CMD: MESSAGE", cli.h).  After
 * redis's C_OK/C_ERR and Lua's single l_message: one helper instead of a
 * FAIL macro per file: RL_FAIL returns, RL_FAIL_GOTO jumps to the function's
 * cleanup first. */
#ifndef RL_ERROR_H
#define RL_ERROR_H

#include <limits.h>
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

/* After w = snprintf(buf, len, ...): when the text did not fit (w >= len),
 * end buf with "..." so the cut shows; returns w. */
static inline int rl_mark_cut(char *buf, size_t len, int w)
{
    if (w >= 0 && (size_t)w >= len && len >= 4)
        memcpy(buf + len - 4, "...", 4);
    return w;
}

/* A user's string in a message is cut to 40 characters (format "%.40s%s")
 * and marked "..." when longer, so the reason after it still shows (tester
 * LOW #1: a 5000-character --set value filled err before the reason): the
 * suffix for s, "..." or "". */
static inline const char *rl_elide_suffix(const char *s)
{
    return s && strlen(s) > 40 ? "..." : "";
}

/* s into buf[len] with each control byte (below 0x20, and DEL 0x7f) as
 * \xHH; returns buf.  The one rule for a name from a flag or a file echoed
 * in a message (a --model, --hw or --engine name, a spec path, a spec's own
 * name; tester62 #10: a model name with a newline broke the error line in
 * two, where fit's CSV cells are shown escaped, csv.h rl_csv_visible).  The
 * CLI's printer escapes control bytes too, but keeps a message's own
 * newlines and tabs, which a name's must not pass for.  A name longer than
 * buf is cut between two characters, never inside an escape, and ends in
 * "..." so the cut shows (fixIM: '%.80s' of an escaped name could end in
 * "\x0"); RL_SHOWN_PATH holds any path whole. */
static inline const char *rl_name_shown(const char *s, char *buf, size_t len)
{
    size_t k = 0, mark = 0; /* mark: the last cut with room for "..." after it */
    if (!len)
        return buf;
    for (const unsigned char *c = (const unsigned char *)(s ? s : ""); *c; c++) {
        size_t w = *c < 0x20 || *c == 0x7f ? 4 : 1;
        if (k + w >= len) { /* it and the NUL do not fit: cut at mark */
            if (len >= 4) {
                memcpy(buf + mark, "...", 4);
                return buf;
            }
            break;
        }
        if (w == 4)
            snprintf(buf + k, len - k, "\\x%02X", *c);
        else
            buf[k] = (char)*c;
        k += w;
        if (k + 4 <= len)
            mark = k;
    }
    buf[k] = '\0';
    return buf;
}

/* A buffer for rl_name_shown that holds any path whole: PATH_MAX bytes,
 * each at most 4 escaped ("\xHH"), and the NUL. */
#define RL_SHOWN_PATH (4 * PATH_MAX + 1)

/* rl_name_shown into a compound literal, which lives to the end of the
 * enclosing block: use it in the call that formats the message. */
#define RL_NAME_SHOWN(s) rl_name_shown((s), (char[1024]){0}, 1024)

/* The offset of the first byte of s[len] that breaks UTF-8 (RFC 3629: no
 * overlong form, no surrogate, nothing past U+10FFFF), or -1 when all of it
 * is UTF-8.  JSON text must be UTF-8 (RFC 8259 section 8.1): a spec's
 * strings are refused at load and a result's at render when not (tester46
 * F3: a name's raw 0xff made the JSON unreadable). */
static inline long rl_utf8_bad(const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        unsigned c = u[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t n = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : 0;
        if (n == 0 || i + n >= len)
            return (long)i;
        unsigned lo = 0x80, hi = 0xbf; /* the second byte's range (RFC 3629 section 4) */
        if (c == 0xe0)
            lo = 0xa0;
        else if (c == 0xed)
            hi = 0x9f;
        else if (c == 0xf0)
            lo = 0x90;
        else if (c == 0xf4)
            hi = 0x8f;
        if ((u[i + 1] < lo || u[i + 1] > hi))
            return (long)i;
        for (size_t k = 2; k <= n; k++)
            if (u[i + k] < 0x80 || u[i + k] > 0xbf)
                return (long)i;
        i += n + 1;
    }
    return -1;
}

#endif
