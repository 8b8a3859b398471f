/* fit.h — robust, bounded least squares on log error, with parameter
 * uncertainty and an identifiability check.
 *
 * Owns the estimator: minimize sum_i rho(r_i), r_i = log(pred_i(x) / meas_i),
 * with the soft-L1 loss rho(r) = 2 d^2 (sqrt(1 + (r/d)^2) - 1) (quadratic
 * below d, linear beyond: a few bad rows cannot drag the fit; Triggs et al.,
 * "Bundle Adjustment — A Modern Synthesis", 2000, sec. 3.3; the loss
 * scipy.optimize.least_squares calls soft_l1), d = RL_FIT_DELTA, each
 * parameter inside [lo, hi].  Solved by iteratively reweighted
 * Levenberg-Marquardt (weights w_i = rho'(r_i) / r_i = 1 / sqrt(1 + (r/d)^2)
 * each iteration, Marquardt's diagonal damping; steps projected onto the
 * box, parameters on a bound with the gradient pointing out held for that
 * step).  Uncertainty: cov = s^2 (J^T W J)^-1 at the optimum, s^2 =
 * sum w r^2 / (n - p) (the Gauss-Newton covariance, Seber & Wild, Nonlinear
 * Regression, sec. 2.1).  Identifiability: a parameter whose Jacobian
 * column (scaled to unit length, at the start) lies within RL_FIT_COLLINEAR
 * of the span of the columns of earlier parameters cannot be told apart
 * from them: it is held at its start value and the fit says which
 * parameters absorb it (they then fit the sum).  Uses libc, libm. */
#ifndef RL_FIT_H
#define RL_FIT_H

#include <stddef.h>

#define RL_FIT_MAXP 16
#define RL_FIT_DELTA 0.05     /* soft-L1 scale: 5% log error */
#define RL_FIT_COLLINEAR 1e-3 /* relative norm of a column outside the others' span */

typedef struct {
    int np;                  /* parameters (<= RL_FIT_MAXP) */
    int n;                   /* rows */
    const char *const *name; /* np names, for notes */
    const double *lo, *hi;   /* np bounds */
    const double *meas;      /* n measured values, > 0 */
    /* predicted value of row i at x (> 0), grad[np] = d pred / d x */
    double (*predict)(void *ctx, int i, const double *x, double *grad);
    /* optional: the design columns of row i for the identifiability check,
     * cols[np] = d pred / d x with every term of the model active (a model
     * with a max() has a zero derivative for the inactive side at x0, yet
     * the data may still tell that side apart); NULL: grad of predict at x0 */
    void (*columns)(void *ctx, int i, const double *x, double *cols);
    void *ctx;
} rl_fit_problem;

/* An sd above this many times its parameter's value means the rows do not
 * pin it: printed as "not identifiable" with no sd (our threshold: one
 * order of magnitude of uncertainty is no estimate). */
#define RL_FIT_SD_UNIDENTIFIED 10.0

typedef struct {
    double x[RL_FIT_MAXP];  /* the optimum */
    double sd[RL_FIT_MAXP]; /* standard deviations (0 when held) */
    int held[RL_FIT_MAXP];  /* 1: not identifiable from these rows, kept at its start value */
    int at_bound[RL_FIT_MAXP];
    int absorber[RL_FIT_MAXP]; /* the free parameter most correlated with it at the optimum
                                * (|r| > 0.9), which takes up what the rows cannot tell
                                * apart (-1: none) */
    int rows;               /* rows fitted */
    int iterations;
    double cost;            /* sum of rho at the optimum */
    double scale;           /* s: robust residual standard deviation (log) */
    char note[1024];        /* identifiability notes, "" when every parameter is identified */
} rl_fit_result;

/* Fit p over the rows with use[i] != 0 (use NULL: all), from x0 (inside the
 * bounds).  Returns 0, or -1 with err set: fewer rows than identifiable
 * parameters (names them), a non-positive or non-finite prediction. */
int rl_fit_solve(const rl_fit_problem *p, const double *x0, const unsigned char *use,
                 rl_fit_result *out, char *err, size_t errlen);

/* rl_fit_solve from each of the nstart starts x0[s * np ...], keeping the
 * least cost.  Returns 0, or -1 with err set (every start failed). */
int rl_fit_best(const rl_fit_problem *p, const double *x0, int nstart, const unsigned char *use,
                rl_fit_result *out, char *err, size_t errlen);

/* p-quantile (0..1) of v[n] by linear interpolation between order
 * statistics (Hyndman & Fan type 7, R's default); v is sorted in place.
 * n >= 1. */
double rl_fit_quantile(double *v, int n, double p);

/* p-quantile (0..1) of v[n] as a bound for one more value from the same
 * source: the order statistic at rank p (n + 1), interpolated (Hyndman &
 * Fan type 6), clamped to the smallest and largest; v is sorted in place;
 * n >= 1.  When v[0..n-1] and the next value are exchangeable the next
 * one's rank is uniform on 1..n+1, so it falls at or below the k-th
 * smallest with probability k / (n + 1) (the rank argument of split
 * conformal prediction: Vovk, Gammerman and Shafer, "Algorithmic Learning
 * in a Random World", 2005; Lei et al., "Distribution-Free Predictive
 * Inference for Regression", JASA 113, 2018): [bound(p_lo), bound(p_hi)]
 * holds about a share p_hi - p_lo of new values, exactly only when
 * 1 <= (n + 1) p_lo and (n + 1) p_hi <= n: a rank outside is clamped to the
 * smallest or largest, which covers (n - 1) / (n + 1) (under 90% for a
 * p5-p95 of n < 19 values), and the argument is split conformal's, which
 * needs values the fit did not see: k-fold residuals of one fit are only
 * roughly exchangeable with a new row (review23
 * L3).  Type 7 puts its
 * tails at rank 1 + p (n - 1), inside that: on 47 rows its p10-p90 lies
 * at ranks 5.6 and 42.4 and covers (42.4 - 5.6) / 48 = 77% of new values
 * on average, not 80% (type 6: ranks 4.8 and 43.2, 80%).  The band's quantiles
 * (e2e.c, enginecost.c) use it; error summaries (medians, p90 |error|)
 * describe the sample and keep type 7. */
double rl_fit_bound(double *v, int n, double p);

/* Summary of signed relative errors e_i = pred / meas - 1. */
typedef struct {
    int n;
    double median_abs, p90_abs, max_abs; /* of |e| */
    double bias;                          /* mean of e */
} rl_fit_summary;

/* The summary of e[n] (n >= 1); e is not modified. */
rl_fit_summary rl_fit_summarize(const double *e, int n);

#endif
