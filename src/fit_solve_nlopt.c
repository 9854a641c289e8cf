/* fit_solve_nlopt.c - NLopt's derivative-free local and global solvers (the rows of the solver
 * table whose runner is gc_fit_run_nlopt name the NLopt algorithm in their variant), and the
 * local polish after a global search or from the best point. */
#include "fit_solver.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <nlopt.h>

static double nlopt_obj(unsigned n, const double *x, double *grad, void *data)
{
  (void)n;
  gc_fit_run_ctx *c = data;
  if (grad) /* derivative-free algorithms only */
    memset(grad, 0, n * sizeof *grad);
  double p[GC_FIT_MAXPAR];
  gc_fit_x_to_p(c->pb, x, p);
  double F = gc_fit_eval_keep(c, p, NULL);
  gc_fit_trace_add(c, c->pb->nevals - c->evals0, c->F);
  return F;
}

/* The NLopt algorithm of row a; BOBYQA for a row that is not NLopt's (a polish named lm or sd) */
static nlopt_algorithm nlopt_alg(int a)
{
  const gc_fit_solver_type *t = gc_fit_solver_at(a);
  return t && t->run == gc_fit_run_nlopt ? (nlopt_algorithm)t->variant : NLOPT_LN_BOBYQA;
}

static const char *nlopt_why(nlopt_result r)
{
  switch (r) {
  case NLOPT_SUCCESS: return "success";
  case NLOPT_STOPVAL_REACHED: return "stopval reached";
  case NLOPT_FTOL_REACHED: return "ftol reached";
  case NLOPT_XTOL_REACHED: return "xtol reached";
  case NLOPT_MAXEVAL_REACHED: return "evaluation budget reached";
  case NLOPT_MAXTIME_REACHED: return "time limit reached";
  case NLOPT_FAILURE: return "generic failure";
  case NLOPT_INVALID_ARGS: return "invalid arguments";
  case NLOPT_OUT_OF_MEMORY: return "out of memory";
  case NLOPT_ROUNDOFF_LIMITED: return "roundoff limited";
  case NLOPT_FORCED_STOP: return "forced stop";
  default: return "unknown";
  }
}

/* One NLopt run of algorithm a from x (in place), maxeval evaluations. */
static nlopt_result nlopt_once(gc_fit_run_ctx *c, int a, double *x, long maxeval, int global)
{
  gc_fit_problem *pb = c->pb;
  int n = pb->nfree;
  double lb[GC_FIT_MAXPAR], ub[GC_FIT_MAXPAR], step[GC_FIT_MAXPAR], f;
  for (int k = 0; k < n; k++) {
    int j = pb->idx[k];
    lb[k] = log(pb->set.lo[j] / pb->set.trial[j]);
    ub[k] = log(pb->set.hi[j] / pb->set.trial[j]);
    x[k] = fmin(fmax(x[k], lb[k]), ub[k]);
    /* first steps of about 10 % of each parameter, inside the box */
    step[k] = fmin(0.1, 0.5 * (ub[k] - lb[k]));
    if (!(step[k] > 0))
      step[k] = 1e-3;
  }
  nlopt_opt opt = nlopt_create(nlopt_alg(a), (unsigned)n);
  if (!opt)
    return NLOPT_OUT_OF_MEMORY;
  nlopt_result r = nlopt_set_min_objective(opt, nlopt_obj, c);
  if (r > 0)
    r = nlopt_set_lower_bounds(opt, lb);
  if (r > 0)
    r = nlopt_set_upper_bounds(opt, ub);
  if (r > 0)
    r = nlopt_set_maxeval(opt, (int)maxeval);
  if (r > 0 && !global) {
    r = nlopt_set_xtol_abs1(opt, c->o->xtol);
    if (r > 0)
      r = nlopt_set_ftol_rel(opt, c->o->ftol);
    if (r > 0)
      r = nlopt_set_initial_step(opt, step);
  }
  if (r > 0)
    r = nlopt_optimize(opt, x, &f);
  nlopt_destroy(opt);
  return r;
}

void gc_fit_run_nlopt(gc_fit_run_ctx *c, const double *p0, long budget)
{
  gc_fit_problem *pb = c->pb;
  const gc_fit_options *o = c->o;
  double x[GC_FIT_MAXPAR];
  gc_fit_p_to_x(pb, p0, x);
  double F0 = gc_fit_eval_keep(c, p0, NULL);
  gc_fit_trace_add(c, 0, F0);
  int a = o->algorithm;
  nlopt_result r;
  if (gc_fit_alg_is_global(a)) {
    /* Global phase with 2/3 of the budget, then polish the best point with the rest. */
    long bg = o->polish >= 0 ? 2 * budget / 3 : budget;
    nlopt_srand(o->seed);
    r = nlopt_once(c, a, x, bg, 1);
    if (o->log)
      fprintf(o->log, "  %s: F = %.7g after %ld evaluations (%s)\n", gc_fit_alg_name(a), c->F,
              pb->nevals - c->evals0, nlopt_why(r));
    char why[80];
    snprintf(why, sizeof why, "%s: %s", gc_fit_alg_name(a), nlopt_why(r));
    if (r > 0 && o->polish >= 0) {
      gc_fit_p_to_x(pb, c->p, x);
      long left = budget - (pb->nevals - c->evals0);
      if (left < 50)
        left = 50;
      nlopt_result r2 = nlopt_once(c, o->polish, x, left, 0);
      if (o->log)
        fprintf(o->log, "  polish (%s): F = %.7g after %ld evaluations (%s)\n",
                gc_fit_alg_name(o->polish), c->F, pb->nevals - c->evals0, nlopt_why(r2));
      snprintf(c->stop, sizeof c->stop, "%s; polish %s: %s", why, gc_fit_alg_name(o->polish),
               nlopt_why(r2));
      c->converged = r2 > 0 && r2 != NLOPT_MAXEVAL_REACHED;
    } else {
      snprintf(c->stop, sizeof c->stop, "%s", why);
      c->converged = r > 0;
    }
  } else {
    r = nlopt_once(c, a, x, budget, 0);
    snprintf(c->stop, sizeof c->stop, "%s", nlopt_why(r));
    c->converged = r > 0 && r != NLOPT_MAXEVAL_REACHED;
  }
  c->iter = pb->nevals - c->evals0;
}

int gc_fit_nlopt_polish(gc_fit_run_ctx *c, int alg, double *x, long budget, const char **why)
{
  nlopt_result r = nlopt_once(c, alg, x, budget, 0);
  *why = nlopt_why(r);
  return r > 0 && r != NLOPT_MAXEVAL_REACHED;
}
