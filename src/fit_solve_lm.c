/* fit_solve_lm.c - GSL's nonlinear least squares (Levenberg-Marquardt trust region) on the
 * weighted residual vector of the objective, bounds by projection. */
#include "fit_solver.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_vector.h>

/* Bounds by projection: GSL iterates on unconstrained z, the residuals are those of x = z clamped
 * into the box [lb, ub] of the log-parameters.  Beyond a bound a parameter's Jacobian column is
 * zero, so the step stops pushing it; the result is the clamped point.  (A sine transform, as in
 * MINUIT, crawls towards an optimum on a bound: on the soybean data P_Y goes to its lower bound
 * and took over 250 iterations instead of 9.) */
typedef struct {
  gc_fit_run_ctx *c;
  double lb[GC_FIT_MAXPAR], ub[GC_FIT_MAXPAR];
  double *r1; /* n_res scratch for the Jacobian */
  double *rc; /* residuals of the last lm_f call, at zc (GSL calls df where it called f) */
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
  gc_fit_eval_keep(L->c, p, r);
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
    gc_fit_eval_keep(L->c, p, r0);
  for (int k = 0; k < n; k++) {
    memcpy(xh, x, sizeof xh);
    double h = L->h;
    if (xh[k] + h > L->ub[k])
      h = -h; /* stay inside the box */
    xh[k] += h;
    gc_fit_x_to_p(pb, xh, p);
    gc_fit_eval_keep(L->c, p, L->r1);
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
  gc_fit_trace_add(L->c, (long)iter, L->c->F);
  if (L->c->o->log) {
    double x[GC_FIT_MAXPAR], p[GC_FIT_MAXPAR];
    z_to_x(L, gsl_multifit_nlinear_position(w)->data, x, L->c->pb->nfree);
    gc_fit_x_to_p(L->c->pb, x, p);
    fprintf(L->c->o->log, "%5zu %13.7g %7ld", iter, F, L->c->pb->nevals - L->c->evals0);
    gc_fit_log_params(L->c->o->log, &L->c->pb->set, p);
    fprintf(L->c->o->log, "\n");
  }
}

void gc_fit_run_lm(gc_fit_run_ctx *c, const double *p0, long budget)
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
    snprintf(c->stop, sizeof c->stop,
             "%zu data points for %d free parameters: too few for "
             "least squares",
             pb->n_res, n);
    gc_fit_eval_keep(c, p0, NULL);
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
  double F0 = gc_fit_eval_keep(c, p0, NULL);
  gc_fit_trace_add(c, 0, F0);
  if (c->o->log) {
    fprintf(c->o->log, "%5s %13s %7s", "iter", "F", "evals");
    gc_fit_log_header(c->o->log, &pb->set);
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
             info == 1   ? "small step"
             : info == 2 ? "small gradient"
                         : "small change of F",
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

int gc_fit_check_lm(const gc_fit_problem *pb, const gc_fit_options *o, char *msg, size_t n)
{
  (void)o;
  if (pb->n_res < (size_t)pb->nfree) {
    snprintf(msg, n,
             "%zu data points for %d free parameters: least squares needs at least as many "
             "points as parameters",
             pb->n_res, pb->nfree);
    return GC_EINVAL;
  }
  return GC_SUCCESS;
}
