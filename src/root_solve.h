/* root_solve.h - one-dimensional root finding shared by the force-driven simulators. */
#ifndef GC_ROOT_SOLVE_H
#define GC_ROOT_SOLVE_H

/* Brent's method (GSL's gsl_root_fsolver_brent) for f(x) = 0 on a bracket [lo, hi] whose end
 * values have opposite signs.  f may fail: it then stores a GC_* status in *err (the caller's
 * context field, read after every evaluation) and that status is returned.  Stops when the
 * bracket satisfies gsl_root_test_interval(epsabs, epsrel) or has shrunk to rounding level;
 * GC_ENOCONV after maxit iterations.  With best_of_bracket, the result is whichever of the last
 * iterate and the two ends of the last bracket has the smallest |f| (they differ only where f
 * jumps); otherwise the last iterate.  Allocates the GSL solver (not for inner loops). */
int gc_root_brent(double (*f)(double x, void *ctx), void *ctx, const int *err, double lo, double hi,
                  double epsabs, double epsrel, int maxit, int best_of_bracket, double *x);

#endif
