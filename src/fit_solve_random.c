/* fit_solve_random.c - pure random search: budget points log-uniform in the bounds, the best
 * kept (a baseline for the other solvers, not a recommendation). */
#include "fit_solver.h"

#include <math.h>
#include <stdlib.h>

void gc_fit_run_random(gc_fit_run_ctx *c, const double *p0, long budget)
{
  gc_fit_problem *pb = c->pb;
  double p[GC_FIT_MAXPAR];
  unsigned long state = c->o->seed * 2654435761UL + 1;
  gc_fit_trace_add(c, 0, gc_fit_eval_keep(c, p0, NULL));
  for (long it = 1; it < budget; it++) {
    for (int j = 0; j < pb->set.npar; j++)
      p[j] = p0[j];
    for (int k = 0; k < pb->nfree; k++) {
      int j = pb->idx[k];
      state = state * 6364136223846793005UL + 1442695040888963407UL;
      double u = (double)(state >> 11) / 9007199254740992.0;
      p[j] = exp(log(pb->set.lo[j]) + u * (log(pb->set.hi[j]) - log(pb->set.lo[j])));
    }
    gc_fit_eval_keep(c, p, NULL);
    gc_fit_trace_add(c, it, c->F);
  }
  snprintf(c->stop, sizeof c->stop, "%ld random points", budget);
  c->iter = budget;
  c->converged = 0;
}
