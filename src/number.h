/* number.h — the one syntax for a decimal number read from the user.
 *
 * Owns what counts as a number on the command line (--qps, --mfu, --spec,
 * A:B tuples, integer lists), in --set values and in trace files: C's
 * strtod decimal syntax (sign, digits, '.', exponent), the whole string,
 * finite; blanks before and after it are ignored alike (strtod and strtoll
 * skip those before; tester9: "5 " was refused where " 5" was taken).
 * Hexadecimal floats ("0x1p3", which strtod also takes) are refused, as are
 * "nan"/"inf" and values that overflow a double or underflow to zero; a
 * subnormal value (1e-320) is kept as it is (callers' range checks judge
 * it).  Each refusal says which of these it is.  Uses the C library only. */
#ifndef RL_NUMBER_H
#define RL_NUMBER_H

/* Parse all of `s` into *out.  Returns 0; -1 when it is no number (text:
 * *why "not a number"); -2 when strtod reads it whole but it is refused for
 * a reason worth saying (*why: "hexadecimal numbers are not accepted; write
 * it in decimal", "not a finite number" for nan and inf, too large,
 * underflows to 0).  *why is set when why is not NULL.  So `!= -1` tells a
 * field that is meant as a number (a trace line's data, even a bad value)
 * from text (a header). */
int rl_parse_number(const char *s, double *out, const char **why);

/* `end` (where strtod or strtoll stopped) past the blanks (isspace) after
 * the number: every parser here ends a number there. */
const char *rl_number_end(const char *end);

/* Whether `s` starts (after blanks and a sign) like a hexadecimal number,
 * "0x" or "0X". */
int rl_number_is_hex(const char *s);

/* "A:B[:C]": min to max non-negative finite decimal numbers separated by
 * ':' (--prefixes N:LEN, --prefix-cache HBM_GB[:HOST_GB]) into v[max].
 * Returns how many, or -1. */
int rl_parse_tuple(const char *s, double *v, int min, int max);

/* v as the shortest %g text that reads back (strtod) as v itself, at most
 * 17 significant digits, into buf[RL_NUMBER_STR] (also returned): what a
 * range error prints, so "must be an integer, got 4096.0000000001" never
 * reads "got 4096" (tester31 F14: %g's 6 digits contradicted the rule);
 * NaN as "NaN" and the infinities as "infinity" and "-infinity", the one
 * spelling of every message that names a non-finite input (tester38 F6:
 * printf wrote "-nan" in some, "NaN" in others). */
#define RL_NUMBER_STR 32
const char *rl_number_str(double v, char *buf);

/* v as rl_number_str writes it with the exponent compact: no '+' and no
 * leading zeros ("3e12", "2.5e-6", "9000"), into buf[RL_NUMBER_STR] (also
 * returned).  The one spelling of a number in a result's model_overrides /
 * hw_overrides, whether it came from --set (given as "3e12", "3e+12" or
 * "3000000000000") or from a Lua table (tester47 F5: Lua's 3e12 read
 * "3e+12" where --set's read "3e12"). */
const char *rl_number_compact(double v, char *buf);

/* A share `frac` (0..1) as a percentage into buf[RL_PERCENT_STR] (also
 * returned): "%.1f%%", or two significant digits below 0.1% so a nonzero
 * share never reads "0.0%" (tester77 #5: 1 of 4000 redrawn read 0.0%). */
#define RL_PERCENT_STR 32
const char *rl_percent_str(double frac, char *buf);

/* A count such as a parameter count in B (>= 1e9), M (>= 1e6), K (>= 1e3)
 * or whole, with 3 significant digits below 100 of the unit, into
 * buf[RL_COUNT_STR] (tester77 #5: a tiny model read "0.0B parameters"). */
#define RL_COUNT_STR 32
const char *rl_count_str(double v, char *buf);

/* A byte figure in the SI unit that shows its size, to 0.1 of it: TB, GB,
 * MB, kB (>= 1e12, 1e9, 1e6, 1e3; "141.1 GB", "2.1 MB", "720.0 kB", as
 * the notes printed GB before), whole bytes below 1 kB ("1 byte", "512
 * bytes"), into buf[RL_BYTES_STR] (also returned).  The one spelling of
 * bytes in a sentence (fixNF: a 2-layer model on a 1-byte chip read "0.0
 * GB of weights + 0.0 GB of KV cache on 0.0 GB of HBM"; shard's advice
 * "2.1e+03 kB").  A figure that rounds up to 1000 of a unit is said in the
 * next ("1.0 MB" for 999,960 B, not "1000.0 kB"; fixNJ). */
#define RL_BYTES_STR 32
const char *rl_bytes_str(double bytes, char *buf);

#endif
