/* number.c — decimal numbers from the user (see number.h). */
#include "number.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *rl_number_end(const char *end)
{
    while (isspace((unsigned char)*end))
        end++;
    return end;
}

int rl_number_is_hex(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s == '+' || *s == '-')
        s++;
    return s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}

int rl_parse_number(const char *s, double *out, const char **why)
{
    const char *dummy;
    if (!why)
        why = &dummy;
    if (rl_number_is_hex(s)) {
        *why = "hexadecimal numbers are not accepted; write it in decimal";
        return -2;
    }
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *rl_number_end(end)) {
        *why = "not a number";
        return -1;
    }
    if (errno == ERANGE && fabs(v) > 1) {
        *why = "too large for a double (above 1.8e308)";
        return -2;
    }
    if (!isfinite(v)) { /* "nan", "inf": data, not text, but no value of ours */
        *why = "not a finite number";
        return -2;
    }
    if (errno == ERANGE && v == 0) {
        *why = "so small that it underflows to 0 (below 4.9e-324)";
        return -2;
    }
    *out = v; /* a subnormal (ERANGE, nonzero) is kept */
    return 0;
}

const char *rl_number_str(double v, char *buf)
{
    if (!isfinite(v)) /* one spelling: printf's "-nan" carries a sign NaN has not */
        return snprintf(buf, RL_NUMBER_STR, "%s",
                        isnan(v) ? "NaN" : v > 0 ? "infinity" : "-infinity"),
               buf;
    for (int digits = 6; digits <= 17; digits++) { /* %g's 6 first: the usual text */
        snprintf(buf, RL_NUMBER_STR, "%.*g", digits, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return buf;
}

const char *rl_number_compact(double v, char *buf)
{
    rl_number_str(v, buf);
    char *e = strchr(buf, 'e');
    if (!e || !isfinite(v))
        return buf;
    char *d = e + 1, *from = e + 1;
    if (*from == '-')
        *d++ = *from++;
    else if (*from == '+')
        from++;
    while (*from == '0' && from[1]) /* "e+06" -> "e6" */
        from++;
    memmove(d, from, strlen(from) + 1);
    return buf;
}

int rl_parse_tuple(const char *s, double *v, int min, int max)
{
    int n = 0;
    const char *p = s;
    while (n < max) {
        char *end;
        v[n++] = strtod(p, &end);
        if (end == p)
            return -1;
        end = (char *)rl_number_end(end);
        if (rl_number_is_hex(p) || (*end && *end != ':') || !isfinite(v[n - 1]) || v[n - 1] < 0)
            return -1;
        if (!*end)
            return n >= min ? n : -1;
        p = end + 1;
    }
    return -1;
}

const char *rl_percent_str(double frac, char *buf)
{
    double p = 100 * frac;
    snprintf(buf, RL_PERCENT_STR, p != 0 && fabs(p) < 0.1 ? "%.2g%%" : "%.1f%%", p);
    return buf;
}

const char *rl_count_str(double v, char *buf)
{
    static const struct { double at; const char *unit; } u[] = {{1e9, "B"}, {1e6, "M"}, {1e3, "K"}};
    for (int i = 0; i < 3; i++)
        if (fabs(v) >= u[i].at) {
            double x = v / u[i].at;
            snprintf(buf, RL_COUNT_STR, fabs(x) < 100 ? "%.3g%s" : "%.0f%s", x, u[i].unit);
            return buf;
        }
    snprintf(buf, RL_COUNT_STR, "%.0f", v);
    return buf;
}

const char *rl_bytes_str(double bytes, char *buf)
{
    /* The unit is the largest that the value reaches; when the figure printed
     * in it rounds up to 1000 (999,960 B is 999.96 kB, printed "1000.0"), the
     * next unit up shows it instead ("1.0 MB").  The check reads the printed
     * text back, so it agrees with printf's own rounding. */
    static const struct { double at; const char *unit; } u[] = {
        {1e12, "TB"}, {1e9, "GB"}, {1e6, "MB"}, {1e3, "kB"}, {1, "byte"}};
    int i = 0;
    while (i < 4 && fabs(bytes) < u[i].at)
        i++;
    for (;;) {
        if (i == 4)
            snprintf(buf, RL_BYTES_STR, "%.0f byte%s", bytes, fabs(bytes) == 1 ? "" : "s");
        else
            snprintf(buf, RL_BYTES_STR, "%.1f %s", bytes / u[i].at, u[i].unit);
        if (i == 0 || fabs(strtod(buf, NULL)) < 1000)
            return buf;
        i--;
    }
}
