/* fastmax.h — fmax computed inline, for the per-operation hot paths.
 *
 * Owns rl_fmax: C99 fmax (a NaN argument yields the other one) without the
 * libm call GCC emits for fmax at -O2 (it inlines it only under
 * -ffinite-math-only); the calibrated step made ~75 such calls an
 * evaluation, ~2% of its instructions (issue 12).  A tie returns b, as
 * glibc's x86-64 fmax does (maxsd after its NaN check: sysdeps/x86_64/
 * fpu/s_fmax.S), so +0 and -0 read as before there.  Uses nothing. */
#ifndef RL_FASTMAX_H
#define RL_FASTMAX_H

static inline double rl_fmax(double a, double b)
{
    return a > b ? a : b == b ? b : a;
}

#endif
