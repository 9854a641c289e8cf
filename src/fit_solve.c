/* fit_solve.c - the solvers of `granucal fit`: their table (one row per solver, as GSL's
 * gsl_multifit_nlinear_type), the multi-start driver and the check that the result is a
 * minimum.  The solvers are in fit_solve_sd.c (Algorithm D.1 of the dissertation),
 * fit_solve_lm.c (GSL Levenberg-Marquardt) and fit_solve_nlopt.c (NLopt). */
#include "fit_solver.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_rng.h>
#include <nlopt.h>

/* The solvers.  The first rows are in the order of the GC_FIT_* indices (fit.h); a new solver
 * is its file (a runner declared in fit_solver.h) and a row here, or only a row for another
 * NLopt algorithm.  -A, --polish, their help, the completion and the man page list these rows. */
static const gc_fit_solver_type solvers[] = {
  { "lm", "GSL nonlinear least squares, Levenberg-Marquardt trust region (default)", NULL, 0, 0,
    gc_fit_check_lm, gc_fit_run_lm },
  { "sd", "steepest descent on relative parameters, Algorithm D.1 of the seed", NULL,
    GC_FIT_SOLVER_OWN_POINT | GC_FIT_SOLVER_HISTORY, 0, gc_fit_check_sd, gc_fit_run_sd },
  { "bobyqa", "NLopt BOBYQA, derivative-free local, quadratic models", NULL, GC_FIT_SOLVER_POLISHER,
    NLOPT_LN_BOBYQA, NULL, gc_fit_run_nlopt },
  { "neldermead", "NLopt Nelder-Mead simplex, derivative-free local", "nelder-mead",
    GC_FIT_SOLVER_POLISHER, NLOPT_LN_NELDERMEAD, NULL, gc_fit_run_nlopt },
  { "sbplx", "NLopt Subplex (Nelder-Mead on subspaces), derivative-free local", "subplex",
    GC_FIT_SOLVER_POLISHER, NLOPT_LN_SBPLX, NULL, gc_fit_run_nlopt },
  { "direct", "NLopt DIRECT-L global search, then local polishing", "direct-l directl",
    GC_FIT_SOLVER_GLOBAL, NLOPT_GN_DIRECT_L, NULL, gc_fit_run_nlopt },
  { "crs2", "NLopt CRS2 (controlled random search) global, then local polishing", NULL,
    GC_FIT_SOLVER_GLOBAL, NLOPT_GN_CRS2_LM, NULL, gc_fit_run_nlopt },
};

int gc_fit_solver_count(void)
{
  return (int)(sizeof solvers / sizeof solvers[0]);
}

const gc_fit_solver_type *gc_fit_solver_at(int a)
{
  return a >= 0 && a < gc_fit_solver_count() ? &solvers[a] : NULL;
}

const char *gc_fit_alg_name(int a)
{
  return gc_fit_solver_at(a) ? solvers[a].name : "?";
}
const char *gc_fit_alg_description(int a)
{
  return gc_fit_solver_at(a) ? solvers[a].description : "?";
}
int gc_fit_alg_is_global(int a)
{
  return gc_fit_solver_at(a) && (solvers[a].flags & GC_FIT_SOLVER_GLOBAL);
}

/* 1 if name is one of the space-separated words of list */
static int in_list(const char *list, const char *name)
{
  size_t l = strlen(name);
  for (const char *w = list; w && *w; w += strspn(w, " ")) {
    size_t wl = strcspn(w, " ");
    if (wl == l && strncmp(w, name, l) == 0)
      return 1;
    w += wl;
  }
  return 0;
}

int gc_fit_alg_lookup(const char *name)
{
  for (int a = 0; a < gc_fit_solver_count(); a++)
    if (strcmp(name, solvers[a].name) == 0)
      return a;
  for (int a = 0; a < gc_fit_solver_count(); a++)
    if (in_list(solvers[a].aliases, name))
      return a;
  return -1;
}

size_t gc_fit_solver_names(char *buf, size_t n, unsigned need, unsigned refuse)
{
  size_t l = 0;
  if (n)
    buf[0] = 0;
  for (int a = 0; a < gc_fit_solver_count(); a++) {
    if ((solvers[a].flags & need) != need || (solvers[a].flags & refuse))
      continue;
    int w = snprintf(buf + (l < n ? l
                            : n   ? n - 1
                                  : 0),
                     l < n ? n - l : 0, "%s%s", l ? ", " : "", solvers[a].name);
    l += (size_t)w;
  }
  return l;
}

void gc_fit_options_default(gc_fit_options *o)
{
  memset(o, 0, sizeof *o);
  o->algorithm = GC_FIT_LM;
  o->polish = GC_FIT_BOBYQA;
  o->max_evals = 0;
  o->xtol = 1e-8;
  o->ftol = 1e-12;
  o->fd_step = 1e-6;
  o->sd_delta = 0.01;
  o->sd_eps = 1e-3;
  o->sd_max_iter = 1000;
  o->starts = 1;
  o->seed = 1;
  o->log = NULL;
}

void gc_fit_result_free(gc_fit_result *res)
{
  free(res->trace);
  res->trace = NULL;
  res->ntrace = res->trace_cap = 0;
  free(res->all);
  res->all = NULL;
  res->nall = res->all_cap = 0;
}

/* Append a start's history to res->all (0 or GC_ENOMEM). */
static int all_add(gc_fit_result *res, const gc_fit_trace *t, size_t nt)
{
  if (res->nall + nt > res->all_cap) {
    size_t cap = res->all_cap ? res->all_cap : 256;
    while (cap < res->nall + nt)
      cap *= 2;
    gc_fit_trace *a = realloc(res->all, cap * sizeof *a);
    if (!a)
      return GC_ENOMEM;
    res->all = a;
    res->all_cap = cap;
  }
  memcpy(res->all + res->nall, t, nt * sizeof *t);
  res->nall += nt;
  return GC_SUCCESS;
}

void gc_fit_trace_add(gc_fit_run_ctx *c, long iter, double F)
{
  if (c->oom)
    return;
  if (c->ntrace == c->cap) {
    size_t cap = c->cap ? 2 * c->cap : 256;
    gc_fit_trace *t = realloc(c->trace, cap * sizeof *t);
    if (!t) {
      c->oom = 1;
      return;
    }
    c->trace = t;
    c->cap = cap;
  }
  c->trace[c->ntrace].start = c->start;
  c->trace[c->ntrace].iter = iter;
  c->trace[c->ntrace].nevals = c->pb->nevals - c->evals0;
  c->trace[c->ntrace].F = F;
  c->ntrace++;
}

/* Evaluate and keep the best point. */
double gc_fit_eval_keep(gc_fit_run_ctx *c, const double *p, double *r)
{
  gc_fit_value v = gc_fit_eval(c->pb, p, r);
  if (v.F < c->F) {
    c->F = v.F;
    memcpy(c->p, p, (size_t)c->pb->set.npar * sizeof *p);
  }
  return v.F;
}

/* The parameters in the iteration history: the 'ep' columns as appendix E's tables, any other
 * model's in the columns its header names (log_header). */
void gc_fit_log_params(FILE *f, const gc_fit_setup *s, const double *p)
{
  if (s->npar == GC_FIT_NPAR && s->pid[GC_FIT_NU] == GC_PAR_NU1 &&
      s->pid[GC_FIT_KC] == GC_PAR_K_C) {
    fprintf(f, " %10.5g %7.5f %8.5g %10.5g %10.5g", p[0], p[1], p[2], p[3], p[4]);
    return;
  }
  for (int j = 0; j < s->npar; j++)
    fprintf(f, " %12.6g", p[j]);
}

void gc_fit_log_header(FILE *f, const gc_fit_setup *s)
{
  if (s->npar == GC_FIT_NPAR && s->pid[GC_FIT_NU] == GC_PAR_NU1 &&
      s->pid[GC_FIT_KC] == GC_PAR_K_C) {
    fprintf(f, " %10s %7s %8s %10s %10s", "E [Pa]", "nu", "P_Y [N]", "C_a [m/N]", "K_c [1/N]");
    return;
  }
  for (int j = 0; j < s->npar; j++) {
    char h[48];
    snprintf(h, sizeof h, "%s [%s]", gc_fit_name(s, j), gc_fit_unit(s, j));
    fprintf(f, " %12s", h);
  }
}

/* ---------------------------------------------------------------- the best point, checked */

/* Probes of p along each free log-parameter, steps of 1e-2 and 1e-4 both ways (only inward at a
 * search bound).  The lowest probe below F by more than the tolerance (1e-6 of F, and 1e-12 of
 * w_a + w_e for exact data) goes to q, *Fq, with the parameter in *which and 1 returned: p is not
 * a minimum.  A solver stops short of one when its small-step or small-change test fires far
 * from a stationary point, when the budget ends, or (the projected Levenberg-Marquardt) when a
 * parameter pushed past a search bound loses its Jacobian column and cannot come back. */
static int probe_lower(gc_fit_problem *pb, gc_fit_run_ctx *c, const double *p, double F, double *q,
                       double *Fq, int *which)
{
  static const double steps[] = { 1e-2, -1e-2, 1e-4, -1e-4 };
  const double tol = 1e-6 * fabs(F) + 1e-12 * (pb->set.w_a + pb->set.w_e);
  int found = 0;
  *Fq = F;
  for (int k = 0; k < pb->nfree; k++) {
    int j = pb->idx[k];
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
      double t[GC_FIT_MAXPAR];
      memcpy(t, p, (size_t)pb->set.npar * sizeof *t);
      t[j] = p[j] * exp(steps[i]);
      if (t[j] > pb->set.hi[j] || t[j] < pb->set.lo[j])
        continue;
      double Ft = gc_fit_eval_keep(c, t, NULL);
      if (Ft < F - tol && Ft < *Fq) {
        *Fq = Ft;
        memcpy(q, t, (size_t)pb->set.npar * sizeof *q);
        *which = j;
        found = 1;
      }
    }
  }
  return found;
}

/* Append a run's history to the result's (the best start's history, and all starts'). */
static int trace_join(gc_fit_result *res, gc_fit_run_ctx *c)
{
  if (!c->ntrace)
    return GC_SUCCESS;
  if (all_add(res, c->trace, c->ntrace))
    return GC_ENOMEM;
  gc_fit_trace *t = realloc(res->trace, (res->ntrace + c->ntrace) * sizeof *t);
  if (!t)
    return GC_ENOMEM;
  memcpy(t + res->ntrace, c->trace, c->ntrace * sizeof *t);
  res->trace = t;
  res->ntrace += c->ntrace;
  res->trace_cap = res->ntrace;
  return GC_SUCCESS;
}

/* The reported optimum is the best point evaluated (all starts, every evaluation of the solver),
 * and it must be a minimum: while a probe finds a lower point, polish from there with the local
 * algorithm of --polish (BOBYQA, which keeps the bounds) and probe again (three rounds at most);
 * a solve that ended on its budget is polished once too.  A solver flagged
 * GC_FIT_SOLVER_OWN_POINT (Algorithm D.1, the seed's algorithm reproduced as published) keeps
 * its own point; for it, as for a polish that still leaves a lower probe, the result is marked
 * not converged and the stop reason says how much lower F is and along which parameter. */
static int finish(gc_fit_problem *pb, const gc_fit_options *o, long budget, gc_fit_result *res,
                  char *msg, size_t n)
{
  if (!isfinite(res->val.F) || pb->nfree == 0)
    return GC_SUCCESS;
  gc_fit_run_ctx c;
  memset(&c, 0, sizeof c);
  c.pb = pb;
  c.o = o;
  c.start = res->best_start;
  c.F = res->val.F;
  c.evals0 = pb->nevals;
  memcpy(c.p, res->p, sizeof c.p);
  double q[GC_FIT_MAXPAR], Fq;
  int j = 0, lower = 0, polished = 0;
  const long ne = pb->nevals, nf = pb->nfail;
  for (int round = 0;; round++) {
    lower = probe_lower(pb, &c, c.p, c.F, q, &Fq, &j);
    /* a budget or iteration limit is no minimum either: polish once from the best point */
    if ((solvers[o->algorithm].flags & GC_FIT_SOLVER_OWN_POINT) || round == 3 ||
        !(lower || (round == 0 && !res->converged)))
      break;
    polished = 1;
    double x[GC_FIT_MAXPAR];
    gc_fit_p_to_x(pb, c.p, x);
    const char *why;
    res->converged =
        gc_fit_nlopt_polish(&c, o->polish >= 0 ? o->polish : GC_FIT_BOBYQA, x, budget, &why);
    size_t l = strlen(res->stop);
    if (round == 0)
      snprintf(res->stop + l, sizeof res->stop - l, "; polished (%s) from the best point: %s",
               gc_fit_alg_name(o->polish >= 0 ? o->polish : GC_FIT_BOBYQA), why);
  }
  if (c.oom || trace_join(res, &c)) {
    free(c.trace);
    snprintf(msg, n, "out of memory");
    return GC_ENOMEM;
  }
  free(c.trace);
  if (!polished) { /* the probes are a check, not part of the solver's count */
    pb->nevals = ne;
    pb->nfail = nf;
  }
  /* D.1's own point is its result; a probe lower by less than the tolerance is noise */
  if (polished && c.F < res->val.F) {
    memcpy(res->p, c.p, sizeof res->p);
    res->val.F = c.F;
  }
  if (lower) {
    res->converged = 0;
    size_t l = strlen(res->stop);
    snprintf(res->stop + l, sizeof res->stop - l,
             "; not a minimum: F is %.3g %% lower at a "
             "nearby %s",
             100 * (res->val.F - Fq) / res->val.F, gc_fit_name(&pb->set, j));
  }
  return GC_SUCCESS;
}

/* ---------------------------------------------------------------- driver */

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static long default_budget(const gc_fit_options *o, int nfree)
{
  if (o->max_evals > 0)
    return o->max_evals;
  if (gc_fit_alg_is_global(o->algorithm))
    return 600L * nfree;
  return 400L * nfree;
}

int gc_fit_run(gc_fit_problem *pb, const gc_fit_options *o, gc_fit_result *res, char *msg, size_t n)
{
  memset(res, 0, sizeof *res);
  const gc_fit_solver_type *type = gc_fit_solver_at(o->algorithm);
  if (!type) {
    snprintf(msg, n, "unknown algorithm %d", o->algorithm);
    return GC_EINVAL;
  }
  if (o->starts < 1 || o->starts > 100000) {
    snprintf(msg, n, "starts = %d out of range [1, 100000]", o->starts);
    return GC_EINVAL;
  }
  int st = type->check ? type->check(pb, o, msg, n) : GC_SUCCESS;
  if (st)
    return st;
  if (gc_fit_alg_is_global(o->polish)) {
    snprintf(msg, n, "the polishing algorithm must be a local one, not %s",
             gc_fit_alg_name(o->polish));
    return GC_EINVAL;
  }
  gsl_error_handler_t *old = gsl_set_error_handler_off();
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  if (!rng) {
    gsl_set_error_handler(old);
    snprintf(msg, n, "out of memory");
    return GC_ENOMEM;
  }
  gsl_rng_set(rng, o->seed);
  double t0 = now();
  long evals0 = pb->nevals, fail0 = pb->nfail;
  long budget = default_budget(o, pb->nfree);
  res->val.F = INFINITY;
  for (int s = 1; s <= o->starts; s++) {
    double p0[GC_FIT_MAXPAR];
    memcpy(p0, s == 1 && o->have_start ? o->start : pb->set.trial,
           (size_t)pb->set.npar * sizeof *p0);
    if (s > 1) /* log-uniform in the bounds */
      for (int k = 0; k < pb->nfree; k++) {
        int j = pb->idx[k];
        double a = log(pb->set.lo[j]), b = log(pb->set.hi[j]);
        p0[j] = exp(a + (b - a) * gsl_rng_uniform(rng));
      }
    if (o->log && o->starts > 1) {
      fprintf(o->log, "start %d of %d:", s, o->starts);
      gc_fit_log_params(o->log, &pb->set, p0);
      fprintf(o->log, "\n");
    }
    gc_fit_run_ctx c;
    memset(&c, 0, sizeof c);
    c.pb = pb;
    c.o = o;
    c.start = s;
    c.F = INFINITY;
    c.evals0 = pb->nevals;
    memcpy(c.p, p0, sizeof c.p);
    type->run(&c, p0, budget);
    if (c.oom) {
      free(c.trace);
      st = GC_ENOMEM;
      snprintf(msg, n, "out of memory");
      break;
    }
    if (o->log && o->starts > 1)
      fprintf(o->log, "start %d: F = %.8g (%s)\n", s, c.F, c.stop);
    res->nstarts = s;
    if (all_add(res, c.trace, c.ntrace)) {
      free(c.trace);
      st = GC_ENOMEM;
      snprintf(msg, n, "out of memory");
      break;
    }
    if (c.F < res->val.F) {
      memcpy(res->p, c.p, sizeof res->p);
      res->val.F = c.F;
      res->niter = c.iter;
      res->converged = c.converged;
      res->best_start = s;
      snprintf(res->stop, sizeof res->stop, "%s", c.stop);
      free(res->trace);
      res->trace = c.trace;
      res->ntrace = c.ntrace;
      res->trace_cap = c.cap;
    } else {
      free(c.trace);
    }
  }
  gsl_rng_free(rng);
  if (!st)
    st = finish(pb, o, budget, res, msg, n);
  res->seconds = now() - t0;
  res->nevals = pb->nevals - evals0;
  res->nfail = pb->nfail - fail0;
  if (!st) {
    /* the objective at the result, with the raw sums (not counted as a solver evaluation) */
    long ne = pb->nevals, nf = pb->nfail;
    res->val = gc_fit_eval(pb, res->p, NULL);
    int failed = pb->nfail != nf;
    pb->nevals = ne;
    pb->nfail = nf;
    if (!isfinite(res->val.F) || failed) {
      snprintf(msg, n, "no start reached a point where the model works (objective %g)", res->val.F);
      st = GC_ENAN;
    }
  }
  gsl_set_error_handler(old);
  return st;
}