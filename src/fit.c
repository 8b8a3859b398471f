/* fit.c — robust bounded least squares on log error (see fit.h). */
#include "fit.h"
#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ITER 300
#define MAX_TRIES 12

/* Solve the symmetric positive (semi)definite system A y = b of size n in
 * place by Cholesky with a tiny ridge; A is n x n row-major (overwritten).
 * Returns 0, or -1 when A is not positive definite. */
static int cholesky_solve(double *A, double *b, int n)
{
    for (int j = 0; j < n; j++) {
        double d = A[j * n + j];
        for (int k = 0; k < j; k++)
            d -= A[j * n + k] * A[j * n + k];
        if (!(d > 0))
            return -1;
        A[j * n + j] = sqrt(d);
        for (int i = j + 1; i < n; i++) {
            double s = A[i * n + j];
            for (int k = 0; k < j; k++)
                s -= A[i * n + k] * A[j * n + k];
            A[i * n + j] = s / A[j * n + j];
        }
    }
    for (int i = 0; i < n; i++) { /* L z = b */
        for (int k = 0; k < i; k++)
            b[i] -= A[i * n + k] * b[k];
        b[i] /= A[i * n + i];
    }
    for (int i = n - 1; i >= 0; i--) { /* L^T y = z */
        for (int k = i + 1; k < n; k++)
            b[i] -= A[k * n + i] * b[k];
        b[i] /= A[i * n + i];
    }
    return 0;
}

static double rho(double r) { return 2 * RL_FIT_DELTA * RL_FIT_DELTA * (sqrt(1 + (r / RL_FIT_DELTA) * (r / RL_FIT_DELTA)) - 1); }
static double weight(double r) { return 1 / sqrt(1 + (r / RL_FIT_DELTA) * (r / RL_FIT_DELTA)); }

/* Row i's log residual log(pred / meas) at x into *r, grad[] = d pred / d x
 * divided by pred (d r / d x).  Returns -1 on a bad (non-positive,
 * non-finite) prediction. */
static int residual(const rl_fit_problem *p, int i, const double *x, double *grad, double *r)
{
    double pr = p->predict(p->ctx, i, x, grad);
    if (!(pr > 0) || !isfinite(pr))
        return -1;
    for (int j = 0; j < p->np; j++)
        grad[j] /= pr;
    *r = log(pr / p->meas[i]);
    return 0;
}

/* Robust cost at x; -1 on a bad prediction. */
static double cost_at(const rl_fit_problem *p, const unsigned char *use, const double *x)
{
    double c = 0, g[RL_FIT_MAXP], r;
    for (int i = 0; i < p->n; i++)
        if (!use || use[i]) {
            if (residual(p, i, x, g, &r) != 0)
                return -1;
            c += rho(r);
        }
    return c;
}

/* The weighted normal equations at x: A (np x np) = sum w J J^T, b = sum w J r,
 * J_ij = d log pred_i / d x_j.  Returns -1 on a bad prediction. */
static int normal_eq(const rl_fit_problem *p, const unsigned char *use, const double *x, double *A,
                     double *b, double *ssw)
{
    int np = p->np;
    memset(A, 0, sizeof(double) * (size_t)(np * np));
    memset(b, 0, sizeof(double) * (size_t)np);
    *ssw = 0;
    double g[RL_FIT_MAXP], r;
    for (int i = 0; i < p->n; i++) {
        if (use && !use[i])
            continue;
        if (residual(p, i, x, g, &r) != 0)
            return -1;
        double w = weight(r);
        *ssw += w * r * r;
        for (int j = 0; j < np; j++)
            b[j] += w * g[j] * r;
        for (int j = 0; j < np; j++)
            for (int k = 0; k <= j; k++)
                A[j * np + k] += w * g[j] * g[k];
    }
    for (int j = 0; j < np; j++)
        for (int k = j + 1; k < np; k++)
            A[j * np + k] = A[k * np + j];
    return 0;
}

/* Gram-Schmidt over the unit-scaled columns of J at x0 in parameter order:
 * mark those within RL_FIT_COLLINEAR of the earlier ones' span as held, and
 * name the parameters that absorb them.  Column products come from the
 * unweighted normal matrix G = J^T J. */
static void identify(const rl_fit_problem *p, const double *G, rl_fit_result *out)
{
    int np = p->np, nk = 0;
    double Q[RL_FIT_MAXP][RL_FIT_MAXP] = {{0}}; /* kept orthonormal directions, in column coordinates */
    for (int j = 0; j < np; j++) {
        double norm = sqrt(G[j * np + j]);
        if (!(norm > 0)) {
            out->held[j] = 1;
            snprintf(out->note + strlen(out->note), sizeof out->note - strlen(out->note),
                     "%s%s: no row depends on it; held at its start value", *out->note ? "; " : "",
                     p->name[j]);
            continue;
        }
        /* v = e_j / norm minus its projection on the kept directions */
        double v[RL_FIT_MAXP] = {0};
        v[j] = 1 / norm;
        double coef[RL_FIT_MAXP];
        for (int q = 0; q < nk; q++) {
            double dot = 0;
            for (int a = 0; a < np; a++)
                for (int c = 0; c < np; c++)
                    dot += Q[q][a] * G[a * np + c] * (c == j ? 1 / norm : 0);
            coef[q] = dot;
            for (int a = 0; a < np; a++)
                v[a] -= dot * Q[q][a];
        }
        double len2 = 0;
        for (int a = 0; a < np; a++)
            for (int c = 0; c < np; c++)
                len2 += v[a] * G[a * np + c] * v[c];
        double len = sqrt(fmax(len2, 0));
        if (len > RL_FIT_COLLINEAR) {
            for (int a = 0; a < np; a++)
                Q[nk][a] = v[a] / len;
            nk++;
            continue;
        }
        out->held[j] = 1;
        /* the parameters whose columns make up column j: its projection in
         * parameter coordinates, weighted by their column lengths */
        char with[256] = "";
        for (int a = 0; a < np; a++) {
            double w = 0;
            for (int q = 0; q < nk; q++)
                w += coef[q] * Q[q][a];
            if (a != j && fabs(w) * sqrt(G[a * np + a]) > RL_FIT_COLLINEAR)
                snprintf(with + strlen(with), sizeof with - strlen(with), "%s%s", *with ? " + " : "",
                         p->name[a]);
        }
        snprintf(out->note + strlen(out->note), sizeof out->note - strlen(out->note),
                 "%s%s cannot be separated from %s in these rows: held at its start value, %s "
                 "fit%s the sum",
                 *out->note ? "; " : "", p->name[j], with, with, strchr(with, '+') ? "" : "s");
    }
}

int rl_fit_solve(const rl_fit_problem *p, const double *x0, const unsigned char *use,
                 rl_fit_result *out, char *err, size_t errlen)
{
    int np = p->np;
    memset(out, 0, sizeof *out);
    memcpy(out->x, x0, sizeof(double) * (size_t)np);
    for (int i = 0; i < p->n; i++)
        out->rows += !use || use[i];
    double A[RL_FIT_MAXP * RL_FIT_MAXP], b[RL_FIT_MAXP], ssw;
    if (normal_eq(p, use, out->x, A, b, &ssw) != 0) {
        snprintf(err, errlen, "a prediction at the start values is not a positive number");
        return -1;
    }
    if (p->columns) { /* G = sum c c^T over the rows, c_j = cols_j / pred */
        double c[RL_FIT_MAXP], g[RL_FIT_MAXP];
        memset(A, 0, sizeof A);
        for (int i = 0; i < p->n; i++) {
            if (use && !use[i])
                continue;
            double pr = p->predict(p->ctx, i, out->x, g);
            p->columns(p->ctx, i, out->x, c);
            for (int j = 0; j < np; j++)
                for (int k = 0; k < np; k++)
                    A[j * np + k] += c[j] * c[k] / (pr * pr);
        }
    }
    identify(p, A, out);
    int nfree = 0;
    for (int j = 0; j < np; j++)
        nfree += !out->held[j];
    if (out->rows <= nfree) { /* one row more for the residual scale */
        snprintf(err, errlen, "fewer rows than parameters: %d rows for %d identifiable "
                              "parameters (at least %d rows needed)",
                 out->rows, nfree, nfree + 1);
        return -1;
    }
    double cost = cost_at(p, use, out->x), lambda = 1e-3;
    for (out->iterations = 0; out->iterations < MAX_ITER; out->iterations++) {
        if (normal_eq(p, use, out->x, A, b, &ssw) != 0)
            break;
        int act[RL_FIT_MAXP], na = 0; /* parameters free to move this step */
        for (int j = 0; j < np; j++) {
            int out_lo = out->x[j] <= p->lo[j] && b[j] > 0, out_hi = out->x[j] >= p->hi[j] && b[j] < 0;
            if (!out->held[j] && !out_lo && !out_hi && A[j * np + j] > 0)
                act[na++] = j;
        }
        if (na == 0)
            break;
        int improved = 0, converged = 0;
        for (int t = 0; t < MAX_TRIES && !improved; t++) {
            double M[RL_FIT_MAXP * RL_FIT_MAXP], d[RL_FIT_MAXP], x[RL_FIT_MAXP];
            for (int a = 0; a < na; a++) {
                for (int c = 0; c < na; c++)
                    M[a * na + c] = A[act[a] * np + act[c]] * (a == c ? 1 + lambda : 1);
                d[a] = -b[act[a]];
            }
            memcpy(x, out->x, sizeof x);
            if (cholesky_solve(M, d, na) == 0) {
                for (int a = 0; a < na; a++)
                    x[act[a]] = fmin(fmax(x[act[a]] + d[a], p->lo[act[a]]), p->hi[act[a]]);
                double c = cost_at(p, use, x);
                if (c >= 0 && c < cost) {
                    improved = 1;
                    double rel = (cost - c) / fmax(cost, 1e-300);
                    memcpy(out->x, x, sizeof x);
                    cost = c;
                    lambda = fmax(lambda / 3, 1e-12);
                    converged = rel < 1e-12;
                    continue;
                }
            }
            lambda *= 8;
        }
        if (!improved || converged || lambda > 1e12)
            break;
    }
    out->cost = cost;
    /* uncertainty at the optimum over the identified parameters */
    if (normal_eq(p, use, out->x, A, b, &ssw) != 0) {
        snprintf(err, errlen, "a prediction at the optimum is not a positive number");
        return -1;
    }
    int idx[RL_FIT_MAXP], k = 0;
    for (int j = 0; j < np; j++) {
        out->at_bound[j] = !out->held[j] && (out->x[j] <= p->lo[j] || out->x[j] >= p->hi[j]);
        if (!out->held[j])
            idx[k++] = j;
    }
    int dof = out->rows - k;
    out->scale = dof > 0 ? sqrt(ssw / dof) : 0;
    double C[RL_FIT_MAXP][RL_FIT_MAXP]; /* C[c]: column c of the inverse (NAN: singular) */
    for (int c = 0; c < k; c++) { /* column c of the inverse: solve A y = e_c */
        double M[RL_FIT_MAXP * RL_FIT_MAXP], y[RL_FIT_MAXP] = {0};
        for (int a = 0; a < k; a++)
            for (int e = 0; e < k; e++)
                M[a * k + e] = A[idx[a] * np + idx[e]] + (a == e ? 1e-300 : 0);
        y[c] = 1;
        int ok = cholesky_solve(M, y, k) == 0 && y[c] > 0;
        out->sd[idx[c]] = ok ? out->scale * sqrt(y[c]) : INFINITY;
        for (int a = 0; a < k; a++)
            C[c][a] = ok ? y[a] : NAN;
    }
    for (int j = 0; j < np; j++)
        out->absorber[j] = -1;
    for (int c = 0; c < k; c++) { /* the largest |correlation| C_ca / sqrt(C_cc C_aa) */
        double best = 0.9; /* below it no one parameter takes it up */
        for (int a = 0; a < k; a++) {
            double r = fabs(C[c][a]) / (sqrt(C[c][c]) * sqrt(C[a][a])); /* no overflow */
            if (a != c && r > best) { /* NAN compares false */
                best = r;
                out->absorber[idx[c]] = idx[a];
            }
        }
    }
    return 0;
}

int rl_fit_best(const rl_fit_problem *p, const double *x0, int nstart, const unsigned char *use,
                rl_fit_result *out, char *err, size_t errlen)
{
    int ok = 0;
    rl_fit_result r;
    for (int s = 0; s < nstart; s++) {
        if (rl_fit_solve(p, x0 + s * p->np, use, &r, err, errlen) != 0)
            continue;
        if (!ok || r.cost < out->cost)
            *out = r;
        ok = 1;
    }
    return ok ? 0 : -1;
}

/* The value at 0-based position h of v[n] sorted in place, interpolated
 * linearly between neighbours and clamped to v[0] .. v[n - 1]. */
static double at_position(double *v, int n, double h)
{
    qsort(v, (size_t)n, sizeof *v, rl_cmp_double);
    if (!(h > 0))
        return v[0];
    int lo = (int)floor(h);
    if (lo >= n - 1)
        return v[n - 1];
    if (h == lo) /* on a sample: v[lo], also where v[lo + 1] is infinite (0 x inf is NaN;
                    review22 #6) */
        return v[lo];
    return v[lo] + (h - lo) * (v[lo + 1] - v[lo]);
}

double rl_fit_quantile(double *v, int n, double p)
{
    return at_position(v, n, (n - 1) * p);
}

double rl_fit_bound(double *v, int n, double p)
{
    return at_position(v, n, (n + 1) * p - 1);
}

rl_fit_summary rl_fit_summarize(const double *e, int n)
{
    rl_fit_summary s = {0};
    double *a = malloc((size_t)n * sizeof *a);
    if (!a || n < 1) {
        free(a);
        return s;
    }
    s.n = n;
    for (int i = 0; i < n; i++) {
        a[i] = fabs(e[i]);
        s.bias += e[i] / n;
        s.max_abs = fmax(s.max_abs, a[i]);
    }
    s.median_abs = rl_fit_quantile(a, n, 0.5);
    s.p90_abs = rl_fit_quantile(a, n, 0.9);
    free(a);
    return s;
}
