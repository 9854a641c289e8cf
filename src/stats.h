/* stats.h - the quantiles and tests the fit and the chute's steady-state check use, computed so
 * that they cannot fail where the distribution is defined.  GSL's own inverses
 * (gsl_cdf_fdist_Pinv, gsl_cdf_tdist_Pinv) report "inverse failed to converge" for many
 * degrees of freedom (F(1, dof) at 0.95 first at dof = 271); these solve CDF(x) = P with GSL's
 * Brent root finder on GSL's distribution functions instead, which are evaluated by series that
 * do not fail. */
#ifndef GC_STATS_H
#define GC_STATS_H

#include <stddef.h>

/* Student t quantile: x with P(T <= x) = P for dof > 0 degrees of freedom (the normal quantile
 * when dof is infinite), 0 < P < 1.  GC_EINVAL out of those ranges, GC_ENOCONV if the root
 * solve fails (not seen for dof in [1e-3, 1e12]). */
int gc_stat_t_quantile(double P, double dof, double *x);
/* Fisher F quantile: x >= 0 with P(F(d1, d2) <= x) = P, 0 < P < 1, d1, d2 > 0. */
int gc_stat_f_quantile(double P, double d1, double d2, double *x);

/* Wald-Wolfowitz runs test on the signs of r[0 .. n - 1] in their order (zeros skipped):
 * too few runs means neighbouring residuals share their sign, i.e. the residuals are systematic
 * (the model misses the shape of the data), not noise.  With n_pos and n_neg signs and R runs,
 * mu = 2 n_pos n_neg / N + 1, var = (mu - 1)(mu - 2) / (N - 1), N = n_pos + n_neg, and z =
 * (R - mu) / sqrt(var); p is the one-sided normal tail P(Z <= z) (too few runs).  p = 1 when
 * either sign is absent or N < 2 (no test). */
typedef struct {
  size_t n_pos, n_neg, runs;
  double mu, z, p;
} gc_runs_test;
void gc_stat_runs_test(const double *r, size_t n, gc_runs_test *t);

#endif
