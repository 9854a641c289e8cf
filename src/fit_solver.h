/* fit_solver.h - what the solver files of `granucal fit` share (private to fit_solve*.c): the
 * state of one start and the runners the solver table (fit_solve.c) names.  A solver is one file
 * with its runner plus one row of that table. */
#ifndef GC_FIT_SOLVER_H
#define GC_FIT_SOLVER_H

#include <stdio.h>

#include "fit.h"

/* One start of one solver: its best point, its history and why it stopped. */
struct gc_fit_run_ctx {
  gc_fit_problem *pb;
  const gc_fit_options *o;
  int start;               /* 1-based */
  double p[GC_FIT_MAXPAR]; /* best point of this start */
  double F;                /* its objective */
  long iter;
  int converged;
  char stop[160];
  gc_fit_trace *trace;
  size_t ntrace, cap;
  int oom;
  long evals0;     /* pb->nevals at the start */
  long budget_end; /* stop evaluating new points after this many (NLopt) */
};

/* Append (iter, F) to the start's history (sets c->oom when out of memory). */
void gc_fit_trace_add(gc_fit_run_ctx *c, long iter, double F);
/* Evaluate the objective at p (residuals into r unless NULL) and keep the best point. */
double gc_fit_eval_keep(gc_fit_run_ctx *c, const double *p, double *r);
/* The parameters (and their header) in the iteration history. */
void gc_fit_log_params(FILE *f, const gc_fit_setup *s, const double *p);
void gc_fit_log_header(FILE *f, const gc_fit_setup *s);

/* Runners of the table's rows (gc_fit_solver_type.run) and their option checks. */
void gc_fit_run_sd(gc_fit_run_ctx *c, const double *p0, long budget);
int gc_fit_check_sd(const gc_fit_problem *pb, const gc_fit_options *o, char *msg, size_t n);
void gc_fit_run_lm(gc_fit_run_ctx *c, const double *p0, long budget);
int gc_fit_check_lm(const gc_fit_problem *pb, const gc_fit_options *o, char *msg, size_t n);
void gc_fit_run_nlopt(gc_fit_run_ctx *c, const double *p0, long budget);

/* Polish x (log-parameters, in place) with the NLopt local solver alg (BOBYQA when alg is not an
 * NLopt row) and at most budget evaluations; *why is NLopt's reason for stopping.  Returns 1 if
 * it converged (not on its budget). */
int gc_fit_nlopt_polish(gc_fit_run_ctx *c, int alg, double *x, long budget, const char **why);

#endif
