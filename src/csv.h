/* csv.h — one line of a CSV file split into its fields, for our readers of
 * measurement CSVs (measure.c) and traces (workload.c).
 *
 * The syntax is RFC 4180's (Shafranovich, "Common Format and MIME Type for
 * Comma-Separated Values (CSV) Files", IETF 2005, section 2), the one
 * roofline's own `--format csv` writes (report.c) and spreadsheets export:
 * fields separated by commas; a field may be enclosed in double quotes
 * (rule 5), and then may hold commas, line breaks (rule 6: a record then
 * spans several lines, rl_csv_record) and a double quote written twice
 * (rule 7).  Our readers name a record by the line it starts on, in every
 * error about it, and count a later record's line past the breaks inside
 * an earlier one's quotes (the file's own line numbers, as an editor shows
 * them).  One departure, refused with a reason rather than read otherwise:
 * a double quote inside a field that does not start with one (rule 5
 * forbids it; it is a broken quote, not data).  Blanks (space, tab) around
 * a field, and a carriage return ending the line, are dropped, as our
 * readers always did; blanks inside the quotes are kept, and so is a line
 * break there (CRLF inside quotes stays CRLF).  Uses the C library only. */
#ifndef RL_CSV_H
#define RL_CSV_H

#include <stddef.h>

/* The length of the record that starts at `text`: up to the '\n' ending
 * it (not counted) or the end of text, past line breaks inside quoted
 * fields, *breaks of them.  *open is 1 when text ends inside a quoted field
 * (a reader of lines appends the next line and asks again; at the end of
 * the file rl_csv_split refuses the unclosed quote). */
size_t rl_csv_record(const char *text, int *breaks, int *open);

/* Split `line` (one record, rl_csv_record, its ending '\n' removed) in place into at most cap
 * fields, unquoted: field[i] points into line.  Returns the number of
 * fields, cap + 1 when there are more (the rest not read), or -1 with
 * *column the 1-based field at fault and *why the reason. */
int rl_csv_split(char *line, char **field, int cap, int *column, const char **why);

/* "';'" or "a tab" when `field` holds the separator of another CSV dialect
 * (spreadsheets in some locales, TSV exports): a line that split into one
 * such field was not written with commas.  NULL otherwise. */
const char *rl_csv_other_separator(const char *field);

/* Cell `s` for a message, in buf (len bytes, at least 5): each byte outside
 * printable ASCII as \xHH (a line break a quoted cell holds, a byte-order
 * mark, a control character would otherwise print invisibly or split the
 * one-line message), cut where buf ends.  Returns buf. */
const char *rl_csv_visible(const char *s, char *buf, size_t len);

#endif
