/* root_solve.c - see root_solve.h. */
#include "root_solve.h"

#include <float.h>
#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>

#include "gc_model.h"

int gc_root_brent(double (*f)(double x, void *ctx), void *ctx, const int *err, double lo, double hi,
                  double epsabs, double epsrel, int maxit, int best_of_bracket, double *x)
{
  gsl_function F = { f, ctx };
  /* GSL's default handler aborts; a failed bracket is reported as a status instead. */
  gsl_error_handler_t *old = gsl_set_error_handler_off();
  gsl_root_fsolver *r = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
  if (!r) {
    gsl_set_error_handler(old);
    return GC_ENOMEM;
  }
  int st = gsl_root_fsolver_set(r, &F, lo, hi);
  double xl = lo, xu = hi, root = 0.5 * (lo + hi);
  int k;
  for (k = 0; st == GSL_SUCCESS && !*err && k < maxit; k++) {
    st = gsl_root_fsolver_iterate(r);
    if (st || *err)
      break;
    root = gsl_root_fsolver_root(r);
    xl = gsl_root_fsolver_x_lower(r);
    xu = gsl_root_fsolver_x_upper(r);
    if (gsl_root_test_interval(xl, xu, epsabs, epsrel) == GSL_SUCCESS ||
        xu - xl <= 4.0 * DBL_EPSILON * fmax(fabs(xl), fabs(xu)))
      break;
  }
  gsl_root_fsolver_free(r);
  gsl_set_error_handler(old);
  if (*err)
    return *err;
  if (st != GSL_SUCCESS || k >= maxit)
    return GC_ENOCONV;
  double best = root;
  if (best_of_bracket) {
    double cand[3] = { root, xl, xu }, fbest = INFINITY;
    for (int i = 0; i < 3; i++) {
      double fi = fabs(f(cand[i], ctx));
      if (*err)
        return *err;
      if (fi < fbest) {
        fbest = fi;
        best = cand[i];
      }
    }
  }
  *x = best;
  return GC_SUCCESS;
}
