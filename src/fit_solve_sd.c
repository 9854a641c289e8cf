/* fit_solve_sd.c - steepest descent exactly as Algorithm D.1 of the dissertation (appendix D). */
#include "fit_solver.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Steepest descent on the relative parameters (eq. E.8-E.15, Algorithm D.1):
 *   dF/dp~_j = (F(.., (1 + delta) p_j, ..) - F(p)) / delta              (E.8-E.10)
 *   p_j <- p_j (1 - (delta / g) dF/dp~_j),  g = |dF/dp~|                 (E.11-E.12)
 *   if F rises: delta <- 0.8 delta, eps <- 0.8 eps (the step is retried from the old point);
 *   if F falls: stop when |F_new - F_old| < eps (E.14), else accept.
 * The seed does not give delta; granucal's default is 0.01 (option --sd-delta).  A new point is
 * kept inside the bounds (the seed has none; they are wide enough not to act on its run). */
void gc_fit_run_sd(gc_fit_run_ctx *c, const double *p0, long budget)
{
  (void)budget; /* D.1 stops on eps or --max-iter */
  gc_fit_problem *pb = c->pb;
  const gc_fit_options *o = c->o;
  FILE *lg = o->log;
  double p_old[GC_FIT_MAXPAR], p_new[GC_FIT_MAXPAR], q[GC_FIT_MAXPAR], G[GC_FIT_MAXPAR];
  memcpy(p_old, p0, sizeof p_old);
  double F_old = gc_fit_eval(pb, p_old, NULL).F;
  double delta = o->sd_delta, eps = o->sd_eps;
  gc_fit_trace_add(c, 0, F_old);
  if (lg) {
    fprintf(lg, "Algorithm D.1 (steepest descent): delta = %g, eps = %g\n", delta, eps);
    fprintf(lg, "%5s %13s %11s %9s %9s", "iter", "F", "|F_new-F_old|", "delta", "eps");
    gc_fit_log_header(lg, &pb->set);
    fprintf(lg, "  %s\n", "step");
    fprintf(lg, "%5d %13.7g %11s %9.3g %9.3g", 0, F_old, "", delta, eps);
    gc_fit_log_params(lg, &pb->set, p_old);
    fprintf(lg, "  trial\n");
  }
  long it;
  snprintf(c->stop, sizeof c->stop, "iteration limit %ld reached", o->sd_max_iter);
  for (it = 1; it <= o->sd_max_iter; it++) {
    double g2 = 0.0;
    for (int k = 0; k < pb->nfree; k++) {
      int j = pb->idx[k];
      memcpy(q, p_old, sizeof q);
      q[j] *= 1.0 + delta;
      G[k] = (gc_fit_eval(pb, q, NULL).F - F_old) / delta;
      g2 += G[k] * G[k];
    }
    double g = sqrt(g2);
    if (!(g > 0) || !isfinite(g)) {
      snprintf(c->stop, sizeof c->stop, "the numerical gradient is %s",
               isfinite(g) ? "zero" : "not finite");
      c->converged = isfinite(g);
      break;
    }
    memcpy(p_new, p_old, sizeof p_new);
    for (int k = 0; k < pb->nfree; k++) {
      int j = pb->idx[k];
      p_new[j] = p_old[j] * (1.0 - delta / g * G[k]);
      p_new[j] = fmin(fmax(p_new[j], pb->set.lo[j]), pb->set.hi[j]);
    }
    double F_new = gc_fit_eval(pb, p_new, NULL).F;
    double dF = fabs(F_new - F_old);
    const char *what;
    int done = 0;
    if (F_new > F_old) {
      delta *= 0.8; /* lines 21-24 */
      eps *= 0.8;
      what = "rise: delta, eps *= 0.8";
    } else if (F_new < F_old) {
      if (dF < eps) { /* eq. E.14 */
        what = "converged";
        done = 1;
      } else {
        what = "accepted";
      }
      memcpy(p_old, p_new, sizeof p_old);
      F_old = F_new;
    } else {
      what = "no change";
      done = 1;
    }
    c->iter = it;
    gc_fit_trace_add(c, it, F_old);
    if (lg) {
      fprintf(lg, "%5ld %13.7g %11.4g %9.3g %9.3g", it, F_new, dF, delta, eps);
      gc_fit_log_params(lg, &pb->set, p_new);
      fprintf(lg, "  %s\n", what);
    }
    if (done) {
      c->converged = 1;
      snprintf(c->stop, sizeof c->stop, "|F_new - F_old| = %.4g < eps = %.4g after %ld iterations",
               dF, eps, it);
      break;
    }
    if (delta < 1e-14) {
      snprintf(c->stop, sizeof c->stop, "delta = %.3g: no descent step left", delta);
      break;
    }
  }
  /* The result is the algorithm's: the converged p_new (lines 39-43), which is p_old here;
   * gradient probes are not candidates, even when one of them happens to be lower. */
  c->F = F_old;
  memcpy(c->p, p_old, sizeof c->p);
}

int gc_fit_check_sd(const gc_fit_problem *pb, const gc_fit_options *o, char *msg, size_t n)
{
  (void)pb;
  if (!(o->sd_delta > 0 && o->sd_delta < 1) || !(o->sd_eps > 0)) {
    snprintf(msg, n, "Algorithm D.1 needs 0 < delta < 1 (got %g) and eps > 0 (got %g)", o->sd_delta,
             o->sd_eps);
    return GC_EINVAL;
  }
  return GC_SUCCESS;
}
