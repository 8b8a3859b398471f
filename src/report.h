/* report.h — rendering results as table, CSV or JSON, and safe file writes.
 *
 * Owns output formats.  A result is a cJSON object: scalar fields describe
 * the run; an optional "rows" array of flat objects is the table.  JSON keeps
 * SI units.  CSV prints the rows (or key,value pairs when there are none)
 * in SI units.  The table format is for people: keys ending in _s are shown
 * in ms (_ms), keys ending in _bytes in GB (_GB, 1 GB = 1e9 bytes); other
 * top-level arrays of objects follow the rows as tables titled by their key.
 * Uses cJSON. */
#ifndef RL_REPORT_H
#define RL_REPORT_H

#include <stddef.h>

#include <cjson/cJSON.h>

typedef enum { RL_FMT_TABLE, RL_FMT_CSV, RL_FMT_JSON } rl_format;

/* "table" | "csv" | "json"; returns 0 or -1. */
int rl_format_parse(const char *s, rl_format *out);

/* Render to a malloc'd NUL-terminated string.  Refuses (NULL, err set) a
 * result holding a NaN or infinite number: such a value is a bug, never
 * output. */
char *rl_report_render(const cJSON *result, rl_format fmt, char *err, size_t errlen);

/* Write `len` bytes to `path` through a temporary file in the same
 * directory, renamed into place only when complete.  Returns 0, or -1 with
 * err set and no file left behind. */
int rl_write_atomic(const char *path, const char *data, size_t len, char *err, size_t errlen);

/* Create directory `dir` and its missing parents (mode 0755), like mkdir -p.
 * Returns 0, or -1 with err set. */
int rl_mkdir_p(const char *dir, char *err, size_t errlen);

#endif
