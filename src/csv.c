/* csv.c — RFC 4180 fields of one CSV line (rules and departures in csv.h). */
#include "csv.h"

#include <stdio.h>
#include <string.h>

static int blank(char c) { return c == ' ' || c == '\t'; }

/* The quoted field opening at *p (on its '"'), unquoted in place; *p is left
 * on the ',' or '\0' after it.  Returns 0, or -1 with *why. */
static int quoted(char **p, const char **why)
{
    char *r = *p + 1, *w = *p;
    for (;; r++) {
        if (!*r) {
            *why = "a quoted field without its closing quote (it runs to the end of the file; "
                   "a quote inside a quoted field is written twice)";
            return -1;
        }
        if (*r == '"' && r[1] == '"')
            *w++ = *r++; /* "" is one quote (RFC 4180 rule 7) */
        else if (*r == '"')
            break;
        else
            *w++ = *r;
    }
    for (r++; blank(*r) || (*r == '\r' && !r[1]); r++)
        ;
    if (*r && *r != ',') {
        *why = "text after the closing quote (a quote inside a quoted field is written twice)";
        return -1;
    }
    *w = '\0';
    *p = r;
    return 0;
}

size_t rl_csv_record(const char *text, int *breaks, int *open)
{
    int start = 1, quoted = 0; /* start: at a field's start, blanks aside */
    const char *p = text;
    *breaks = 0;
    for (; *p; p++) {
        if (quoted) {
            if (*p == '"' && p[1] == '"')
                p++; /* "" is one quote (rule 7) */
            else if (*p == '"')
                quoted = 0;
            else if (*p == '\n')
                ++*breaks;
        } else if (*p == '\n')
            break;
        else if (*p == '"' && start)
            quoted = 1, start = 0; /* only a field's first character opens quotes (rule 5):
                                    * not a quote after a closing one ("a" "b, refused
                                    * by rl_csv_split as text after the closing quote) */
        else if (*p == ',')
            start = 1;
        else if (!blank(*p))
            start = 0;
    }
    *open = quoted;
    return (size_t)(p - text);
}

const char *rl_csv_visible(const char *s, char *buf, size_t len)
{
    size_t n = 0;
    for (; *s && n + 5 < len; s++) {
        unsigned char c = (unsigned char)*s;
        n += (size_t)snprintf(buf + n, len - n, c < 0x20 || c >= 0x7f ? "\\x%02X" : "%c", c);
    }
    buf[n] = '\0';
    return buf;
}

const char *rl_csv_other_separator(const char *field)
{
    return strchr(field, ';') ? "';'" : strchr(field, '\t') ? "a tab" : NULL;
}

int rl_csv_split(char *line, char **field, int cap, int *column, const char **why)
{
    int n = 0;
    for (char *p = line;;) {
        if (n == cap)
            return cap + 1;
        *column = n + 1;
        while (blank(*p))
            p++;
        field[n++] = p;
        char *end = p, *e;
        if (*p == '"') {
            if (quoted(&end, why) != 0)
                return -1;
        } else {
            end = p + strcspn(p, ",");
            for (e = end; e > p && (blank(e[-1]) || e[-1] == '\r');)
                e--;
            if (memchr(p, '"', (size_t)(e - p))) {
                *why = "a double quote inside a field that does not start with one (quote the "
                       "whole field and write the quote twice, RFC 4180 rules 5 and 7)";
                return -1;
            }
            if (e < end)
                *e = '\0'; /* the blanks before the comma */
        }
        if (*end != ',')
            return n;
        *end = '\0';
        p = end + 1;
    }
}
