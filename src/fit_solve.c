/* fit_solve.c - the solvers of `granucal fit`: steepest descent exactly as Algorithm D.1 of the
 * dissertation, NLopt's derivative-free local and global algorithms, and GSL's nonlinear least
 * squares (Levenberg-Marquardt) on the weighted residual vector; multi-start driver. */
#include "fit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_vector.h>
#include <nlopt.h>

static const struct {
  const char *name;
  const char *what;
} algs[GC_FIT_NALG] = {
  [GC_FIT_LM] = { "lm", "GSL nonlinear least squares, Levenberg-Marquardt trust region (default)" },
  [GC_FIT_SD] = { "sd", "steepest descent on relative parameters, Algorithm D.1 of the seed" },
  [GC_FIT_BOBYQA] = { "bobyqa", "NLopt BOBYQA, derivative-free local, quadratic models" },
  [GC_FIT_NELDERMEAD] = { "neldermead", "NLopt Nelder-Mead simplex, derivative-free local" },
  [GC_FIT_SBPLX] = { "sbplx", "NLopt Subplex (Nelder-Mead on subspaces), derivative-free local" },
  [GC_FIT_DIRECT] = { "direct", "NLopt DIRECT-L global search, then local polishing" },
  [GC_FIT_CRS2] = { "crs2", "NLopt CRS2 (controlled random search) global, then local polishing" },
};

const char *gc_fit_alg_name(int a) { return a >= 0 && a < GC_FIT_NALG ? algs[a].name : "?"; }
const char *gc_fit_alg_description(int a) { return a >= 0 && a < GC_FIT_NALG ? algs[a].what : "?"; }
int gc_fit_alg_is_global(int a) { return a == GC_FIT_DIRECT || a == GC_FIT_CRS2; }

int gc_fit_alg_lookup(const char *name)
{
  for (int a = 0; a < GC_FIT_NALG; a++)
    if (strcmp(name, algs[a].name) == 0)
      return a;
  if (strcmp(name, "direct-l") == 0 || strcmp(name, "directl") == 0)
    return GC_FIT_DIRECT;
  if (strcmp(name, "subplex") == 0)
    return GC_FIT_SBPLX;
  if (strcmp(name, "nelder-mead") == 0)
    return GC_FIT_NELDERMEAD;
  return -1;
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

/* ---------------------------------------------------------------- one start */

typedef struct {
  gc_fit_problem *pb;
  const gc_fit_options *o;
  int start;               /* 1-based */
  double p[GC_FIT_MAXPAR];   /* best point of this start */
  double F;                /* its objective */
  long iter;
  int converged;
  char stop[160];
  gc_fit_trace *trace;
  size_t ntrace, cap;
  int oom;
  long evals0;             /* pb->nevals at the start */
  long budget_end;         /* stop evaluating new points after this many (NLopt) */
} run_ctx;

static void trace_add(run_ctx *c, long iter, double F)
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
static double eval_keep(run_ctx *c, const double *p, double *r)
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
static void log_params(FILE *f, const gc_fit_setup *s, const double *p)
{
  if (s->npar == GC_FIT_NPAR && s->pid[GC_FIT_NU] == GC_PAR_NU1 && s->pid[GC_FIT_KC] == GC_PAR_K_C) {
    fprintf(f, " %10.5g %7.5f %8.5g %10.5g %10.5g", p[0], p[1], p[2], p[3], p[4]);
    return;
  }
  for (int j = 0; j < s->npar; j++)
    fprintf(f, " %12.6g", p[j]);
}

static void log_header(FILE *f, const gc_fit_setup *s)
{
  if (s->npar == GC_FIT_NPAR && s->pid[GC_FIT_NU] == GC_PAR_NU1 && s->pid[GC_FIT_KC] == GC_PAR_K_C) {
    fprintf(f, " %10s %7s %8s %10s %10s", "E [Pa]", "nu", "P_Y [N]", "C_a [m/N]", "K_c [1/N]");
    return;
  }
  for (int j = 0; j < s->npar; j++) {
    char h[48];
    snprintf(h, sizeof h, "%s [%s]", gc_fit_name(s, j), gc_fit_unit(s, j));
    fprintf(f, " %12s", h);
  }
}

/* ---------------------------------------------------------------- Algorithm D.1 */

/* Steepest descent on the relative parameters (eq. E.8-E.15, Algorithm D.1):
 *   dF/dp~_j = (F(.., (1 + delta) p_j, ..) - F(p)) / delta              (E.8-E.10)
 *   p_j <- p_j (1 - (delta / g) dF/dp~_j),  g = |dF/dp~|                 (E.11-E.12)
 *   if F rises: delta <- 0.8 delta, eps <- 0.8 eps (the step is retried from the old point);
 *   if F falls: stop when |F_new - F_old| < eps (E.14), else accept.
 * The seed does not give delta; granucal's default is 0.01 (option --sd-delta).  A new point is
 * kept inside the bounds (the seed has none; they are wide enough not to act on its run). */
static void run_sd(run_ctx *c, const double *p0)
{
  gc_fit_problem *pb = c->pb;
  const gc_fit_options *o = c->o;
  FILE *lg = o->log;
  double p_old[GC_FIT_MAXPAR], p_new[GC_FIT_MAXPAR], q[GC_FIT_MAXPAR], G[GC_FIT_MAXPAR];
  memcpy(p_old, p0, sizeof p_old);
  double F_old = gc_fit_eval(pb, p_old, NULL).F;
  double delta = o->sd_delta, eps = o->sd_eps;
  trace_add(c, 0, F_old);
  if (lg) {
    fprintf(lg, "Algorithm D.1 (steepest descent): delta = %g, eps = %g\n", delta, eps);
    fprintf(lg, "%5s %13s %11s %9s %9s", "iter", "F", "|F_new-F_old|", "delta", "eps");
    log_header(lg, &pb->set);
    fprintf(lg, "  %s\n", "step");
    fprintf(lg, "%5d %13.7g %11s %9.3g %9.3g", 0, F_old, "", delta, eps);
    log_params(lg, &pb->set, p_old);
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
      snprintf(c->stop, sizeof c->stop, "the numerical gradient is %s", isfinite(g) ? "zero" : "not finite");
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
    trace_add(c, it, F_old);
    if (lg) {
      fprintf(lg, "%5ld %13.7g %11.4g %9.3g %9.3g", it, F_new, dF, delta, eps);
      log_params(lg, &pb->set, p_new);
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

/* ---------------------------------------------------------------- NLopt */

static double nlopt_obj(unsigned n, const double *x, double *grad, void *data)
{
  (void)n;
  run_ctx *c = data;
  if (grad) /* derivative-free algorithms only */
    memset(grad, 0, n * sizeof *grad);
  double p[GC_FIT_MAXPAR];
  gc_fit_x_to_p(c->pb, x, p);
  double F = eval_keep(c, p, NULL);
  trace_add(c, c->pb->nevals - c->evals0, c->F);
  return F;
}

static nlopt_algorithm nlopt_alg(int a)
{
  switch (a) {
  case GC_FIT_BOBYQA: return NLOPT_LN_BOBYQA;
  case GC_FIT_NELDERMEAD: return NLOPT_LN_NELDERMEAD;
  case GC_FIT_SBPLX: return NLOPT_LN_SBPLX;
  case GC_FIT_DIRECT: return NLOPT_GN_DIRECT_L;
  case GC_FIT_CRS2: return NLOPT_GN_CRS2_LM;
  default: return NLOPT_LN_BOBYQA;
  }
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
static nlopt_result nlopt_once(run_ctx *c, int a, double *x, long maxeval, int global)
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

static void run_nlopt(run_ctx *c, const double *p0, long budget)
{
  gc_fit_problem *pb = c->pb;
  const gc_fit_options *o = c->o;
  double x[GC_FIT_MAXPAR];
  gc_fit_p_to_x(pb, p0, x);
  double F0 = eval_keep(c, p0, NULL);
  trace_add(c, 0, F0);
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

/* ---------------------------------------------------------------- GSL Levenberg-Marquardt */

/* Bounds by projection: GSL iterates on unconstrained z, the residuals are those of x = z clamped
 * into the box [lb, ub] of the log-parameters.  Beyond a bound a parameter's Jacobian column is
 * zero, so the step stops pushing it; the result is the clamped point.  (A sine transform, as in
 * MINUIT, crawls towards an optimum on a bound: on the soybean data P_Y goes to its lower bound
 * and took over 250 iterations instead of 9.) */
typedef struct {
  run_ctx *c;
  double lb[GC_FIT_MAXPAR], ub[GC_FIT_MAXPAR];
  double *r1;   /* n_res scratch for the Jacobian */
  double *rc;   /* residuals of the last lm_f call, at zc (GSL calls df where it called f) */
  double zc[GC_FIT_MAXPAR];
  int have_c;
  double h;
} lm_ctx;

static void z_to_x(const lm_ctx *L, const double *z, double *x, int n)
{
  for (int k = 0; k < n; k++)
    x[k] = fmin(fmax(z[k], L->lb[k]), L->ub[k]);
}

static int lm_f(const gsl_vector *zv, void *data, gsl_vector *f)
{
  lm_ctx *L = data;
  gc_fit_problem *pb = L->c->pb;
  double x[GC_FIT_MAXPAR], p[GC_FIT_MAXPAR];
  z_to_x(L, zv->data, x, pb->nfree);
  gc_fit_x_to_p(pb, x, p);
  double *r = f->data; /* stride 1: allocated by GSL */
  eval_keep(L->c, p, r);
  memcpy(L->rc, r, pb->n_res * sizeof *r);
  memcpy(L->zc, zv->data, (size_t)pb->nfree * sizeof *L->zc);
  L->have_c = 1;
  return GSL_SUCCESS;
}

/* Forward differences in the log-parameters x with step h (the drop simulation's time
 * discretisation makes e piecewise smooth; 1e-6 is far above its noise); zero columns for the
 * parameters held at a bound by the projection. */
static int lm_df(const gsl_vector *zv, void *data, gsl_matrix *J)
{
  lm_ctx *L = data;
  gc_fit_problem *pb = L->c->pb;
  int n = pb->nfree;
  double x[GC_FIT_MAXPAR], xh[GC_FIT_MAXPAR], p[GC_FIT_MAXPAR];
  z_to_x(L, zv->data, x, n);
  gc_fit_x_to_p(pb, x, p);
  double *r0 = L->rc;
  if (!L->have_c || memcmp(L->zc, zv->data, (size_t)n * sizeof *L->zc) != 0)
    eval_keep(L->c, p, r0);
  for (int k = 0; k < n; k++) {
    memcpy(xh, x, sizeof xh);
    double h = L->h;
    if (xh[k] + h > L->ub[k])
      h = -h; /* stay inside the box */
    xh[k] += h;
    gc_fit_x_to_p(pb, xh, p);
    eval_keep(L->c, p, L->r1);
    double zk = gsl_vector_get(zv, (size_t)k);
    double dxdz = zk > L->ub[k] || zk < L->lb[k] ? 0.0 : 1.0;
    for (size_t i = 0; i < pb->n_res; i++)
      gsl_matrix_set(J, i, (size_t)k, (L->r1[i] - r0[i]) / h * dxdz);
  }
  return GSL_SUCCESS;
}

static void lm_callback(const size_t iter, void *params, const gsl_multifit_nlinear_workspace *w)
{
  lm_ctx *L = params;
  gsl_vector *f = gsl_multifit_nlinear_residual(w);
  double F;
  gsl_blas_ddot(f, f, &F);
  L->c->iter = (long)iter;
  trace_add(L->c, (long)iter, L->c->F);
  if (L->c->o->log) {
    double x[GC_FIT_MAXPAR], p[GC_FIT_MAXPAR];
    z_to_x(L, gsl_multifit_nlinear_position(w)->data, x, L->c->pb->nfree);
    gc_fit_x_to_p(L->c->pb, x, p);
    fprintf(L->c->o->log, "%5zu %13.7g %7ld", iter, F, L->c->pb->nevals - L->c->evals0);
    log_params(L->c->o->log, &L->c->pb->set, p);
    fprintf(L->c->o->log, "\n");
  }
}

static void run_lm(run_ctx *c, const double *p0, long budget)
{
  gc_fit_problem *pb = c->pb;
  int n = pb->nfree;
  lm_ctx L = { .c = c, .h = c->o->fd_step > 0 ? c->o->fd_step : 1e-6 };
  double x[GC_FIT_MAXPAR];
  gc_fit_p_to_x(pb, p0, x);
  for (int k = 0; k < n; k++) {
    int j = pb->idx[k];
    L.lb[k] = log(pb->set.lo[j] / pb->set.trial[j]);
    L.ub[k] = log(pb->set.hi[j] / pb->set.trial[j]);
  }
  if (pb->n_res < (size_t)n) {
    snprintf(c->stop, sizeof c->stop, "%zu data points for %d free parameters: too few for "
             "least squares", pb->n_res, n);
    eval_keep(c, p0, NULL);
    return;
  }
  L.r1 = malloc(pb->n_res * sizeof *L.r1);
  L.rc = malloc(pb->n_res * sizeof *L.rc);
  gsl_vector *z = gsl_vector_alloc((size_t)n);
  gsl_multifit_nlinear_parameters fp = gsl_multifit_nlinear_default_parameters();
  fp.trs = gsl_multifit_nlinear_trs_lm;
  fp.scale = gsl_multifit_nlinear_scale_more;
  fp.solver = gsl_multifit_nlinear_solver_qr; /* robust when E and nu are both free */
  gsl_multifit_nlinear_workspace *w =
      gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &fp, pb->n_res, (size_t)n);
  if (!L.r1 || !L.rc || !z || !w) {
    snprintf(c->stop, sizeof c->stop, "out of memory");
    c->oom = 1;
    goto out;
  }
  for (int k = 0; k < n; k++)
    gsl_vector_set(z, (size_t)k, fmin(fmax(x[k], L.lb[k]), L.ub[k]));
  gsl_multifit_nlinear_fdf fdf;
  memset(&fdf, 0, sizeof fdf);
  fdf.f = lm_f;
  fdf.df = lm_df;
  fdf.n = pb->n_res;
  fdf.p = (size_t)n;
  fdf.params = &L;
  double F0 = eval_keep(c, p0, NULL);
  trace_add(c, 0, F0);
  if (c->o->log)
  {
    fprintf(c->o->log, "%5s %13s %7s", "iter", "F", "evals");
    log_header(c->o->log, &pb->set);
    fprintf(c->o->log, "\n");
  }
  int st = gsl_multifit_nlinear_init(z, &fdf, w);
  int info = 0;
  /* iterations: each costs a Jacobian (nfree + 1 evaluations) and 1-3 trial steps */
  size_t maxiter = (size_t)(budget / (n + 2) > 10 ? budget / (n + 2) : 10);
  if (!st)
    st = gsl_multifit_nlinear_driver(maxiter, c->o->xtol, 1e-12, c->o->ftol, lm_callback, &L, &info,
                                     w);
  if (st == GSL_SUCCESS) {
    c->converged = 1;
    snprintf(c->stop, sizeof c->stop, "converged (%s) after %zu iterations",
             info == 1 ? "small step" : info == 2 ? "small gradient" : "small change of F",
             gsl_multifit_nlinear_niter(w));
  } else if (st == GSL_EMAXITER) {
    snprintf(c->stop, sizeof c->stop, "iteration limit %zu reached", maxiter);
  } else {
    /* GSL_ENOPROG: no step decreases F any more (at the optimum within noise) */
    c->converged = st == GSL_ENOPROG;
    snprintf(c->stop, sizeof c->stop, "stopped: %s after %zu iterations", gsl_strerror(st),
             gsl_multifit_nlinear_niter(w));
  }
  c->iter = (long)gsl_multifit_nlinear_niter(w);
out:
  if (w)
    gsl_multifit_nlinear_free(w);
  if (z)
    gsl_vector_free(z);
  free(L.r1);
  free(L.rc);
}

/* ---------------------------------------------------------------- the best point, checked */

/* Probes of p along each free log-parameter, steps of 1e-2 and 1e-4 both ways (only inward at a
 * search bound).  The lowest probe below F by more than the tolerance (1e-6 of F, and 1e-12 of
 * w_a + w_e for exact data) goes to q, *Fq, with the parameter in *which and 1 returned: p is not
 * a minimum.  A solver stops short of one when its small-step or small-change test fires far
 * from a stationary point, when the budget ends, or (the projected Levenberg-Marquardt) when a
 * parameter pushed past a search bound loses its Jacobian column and cannot come back. */
static int probe_lower(gc_fit_problem *pb, run_ctx *c, const double *p, double F, double *q,
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
      double Ft = eval_keep(c, t, NULL);
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
static int trace_join(gc_fit_result *res, run_ctx *c)
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
 * a solve that ended on its budget is polished once too.  Algorithm D.1 keeps its own point (it is the seed's algorithm, reproduced as published); for it, as for
 * a polish that still leaves a lower probe, the result is marked not converged and the stop
 * reason says how much lower F is and along which parameter. */
static int finish(gc_fit_problem *pb, const gc_fit_options *o, long budget, gc_fit_result *res,
                  char *msg, size_t n)
{
  if (!isfinite(res->val.F) || pb->nfree == 0)
    return GC_SUCCESS;
  run_ctx c;
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
    if (o->algorithm == GC_FIT_SD || round == 3 || !(lower || (round == 0 && !res->converged)))
      break;
    polished = 1;
    double x[GC_FIT_MAXPAR];
    gc_fit_p_to_x(pb, c.p, x);
    nlopt_result r = nlopt_once(&c, o->polish >= 0 ? o->polish : GC_FIT_BOBYQA, x, budget, 0);
    res->converged = r > 0 && r != NLOPT_MAXEVAL_REACHED;
    size_t l = strlen(res->stop);
    if (round == 0)
      snprintf(res->stop + l, sizeof res->stop - l, "; polished (%s) from the best point: %s",
               gc_fit_alg_name(o->polish >= 0 ? o->polish : GC_FIT_BOBYQA), nlopt_why(r));
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
    snprintf(res->stop + l, sizeof res->stop - l, "; not a minimum: F is %.3g %% lower at a "
             "nearby %s", 100 * (res->val.F - Fq) / res->val.F, gc_fit_name(&pb->set, j));
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

int gc_fit_run(gc_fit_problem *pb, const gc_fit_options *o, gc_fit_result *res, char *msg,
               size_t n)
{
  memset(res, 0, sizeof *res);
  if (o->algorithm < 0 || o->algorithm >= GC_FIT_NALG) {
    snprintf(msg, n, "unknown algorithm %d", o->algorithm);
    return GC_EINVAL;
  }
  if (o->starts < 1 || o->starts > 100000) {
    snprintf(msg, n, "starts = %d out of range [1, 100000]", o->starts);
    return GC_EINVAL;
  }
  if (o->algorithm == GC_FIT_SD && (!(o->sd_delta > 0 && o->sd_delta < 1) || !(o->sd_eps > 0))) {
    snprintf(msg, n, "Algorithm D.1 needs 0 < delta < 1 (got %g) and eps > 0 (got %g)", o->sd_delta,
             o->sd_eps);
    return GC_EINVAL;
  }
  if (gc_fit_alg_is_global(o->polish)) {
    snprintf(msg, n, "the polishing algorithm must be a local one, not %s", gc_fit_alg_name(o->polish));
    return GC_EINVAL;
  }
  if (o->algorithm == GC_FIT_LM && pb->n_res < (size_t)pb->nfree) {
    snprintf(msg, n, "%zu data points for %d free parameters: least squares needs at least as many "
             "points as parameters", pb->n_res, pb->nfree);
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
  int st = GC_SUCCESS;
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
      log_params(o->log, &pb->set, p0);
      fprintf(o->log, "\n");
    }
    run_ctx c;
    memset(&c, 0, sizeof c);
    c.pb = pb;
    c.o = o;
    c.start = s;
    c.F = INFINITY;
    c.evals0 = pb->nevals;
    memcpy(c.p, p0, sizeof c.p);
    switch (o->algorithm) {
    case GC_FIT_SD: run_sd(&c, p0); break;
    case GC_FIT_LM: run_lm(&c, p0, budget); break;
    default: run_nlopt(&c, p0, budget); break;
    }
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
