/* stats.c - see stats.h. */
#include "stats.h"

#include <math.h>

#include <gsl/gsl_cdf.h>

#include "gc_model.h"
#include "root_solve.h"

typedef struct {
  double Q;    /* upper tail wanted */
  double a, b; /* degrees of freedom */
  int is_t;    /* t(a) or F(a, b) */
  int err;
} tail_ctx;

/* Upper tail minus the wanted one: the upper tail is accurate where P is near 1 (a 0.975 or 0.95
 * quantile), and decreasing in x, so the bracket [lo, hi] has f(lo) > 0 > f(hi). */
static double tail_gap(double x, void *ctx)
{
  tail_ctx *c = ctx;
  double q = c->is_t ? gsl_cdf_tdist_Q(x, c->a) : gsl_cdf_fdist_Q(x, c->a, c->b);
  if (!isfinite(q)) {
    c->err = GC_ENAN;
    return 0.0;
  }
  return q - c->Q;
}

/* The root of the upper tail = Q on x > lo0 (a point where the tail exceeds Q). */
static int solve_tail(tail_ctx *c, double lo0, double guess, double *x)
{
  double lo = lo0, hi = fmax(guess, 1.0);
  /* widen until the tail is below Q: t quantiles grow like P^(-1/dof) for small dof */
  for (int k = 0; tail_gap(hi, c) > 0; k++) {
    if (c->err || k > 2000 || !isfinite(hi))
      return c->err ? c->err : GC_ENOCONV;
    lo = hi;
    hi *= 2;
  }
  if (c->err)
    return c->err;
  if (tail_gap(hi, c) == 0) {
    *x = hi;
    return GC_SUCCESS;
  }
  return gc_root_brent(tail_gap, c, &c->err, lo, hi, 0.0, 1e-14, 500, 1, x);
}

int gc_stat_t_quantile(double P, double dof, double *x)
{
  if (!(P > 0 && P < 1) || !(dof > 0))
    return GC_EINVAL;
  if (isinf(dof)) {
    *x = gsl_cdf_ugaussian_Pinv(P);
    return isfinite(*x) ? GC_SUCCESS : GC_ENOCONV;
  }
  if (P == 0.5) {
    *x = 0.0;
    return GC_SUCCESS;
  }
  /* symmetric: solve for the upper quantile */
  double Q = P > 0.5 ? 1 - P : P;
  tail_ctx c = { Q, dof, 0.0, 1, 0 };
  double z = gsl_cdf_ugaussian_Qinv(Q), q;
  int st = solve_tail(&c, 0.0, z, &q);
  if (st)
    return st;
  *x = P > 0.5 ? q : -q;
  return GC_SUCCESS;
}

int gc_stat_f_quantile(double P, double d1, double d2, double *x)
{
  if (!(P > 0 && P < 1) || !(d1 > 0) || !(d2 > 0))
    return GC_EINVAL;
  tail_ctx c = { 1 - P, d1, d2, 0, 0 };
  return solve_tail(&c, 0.0, 1.0, x);
}

void gc_stat_runs_test(const double *r, size_t n, gc_runs_test *t)
{
  *t = (gc_runs_test){ 0, 0, 0, 0.0, 0.0, 1.0 };
  int last = 0;
  for (size_t i = 0; i < n; i++) {
    int s = r[i] > 0 ? 1 : r[i] < 0 ? -1 : 0;
    if (!s)
      continue;
    if (s > 0)
      t->n_pos++;
    else
      t->n_neg++;
    t->runs += s != last;
    last = s;
  }
  double np = (double)t->n_pos, nn = (double)t->n_neg, N = np + nn;
  if (!(np > 0 && nn > 0))
    return;
  t->mu = 2 * np * nn / N + 1;
  double var = (t->mu - 1) * (t->mu - 2) / (N - 1);
  if (!(var > 0))
    return;
  t->z = ((double)t->runs - t->mu) / sqrt(var);
  t->p = gsl_cdf_ugaussian_P(t->z);
}
