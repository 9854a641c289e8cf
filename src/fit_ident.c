/* fit_ident.c - what the data determine: the Jacobian of the weighted residuals with respect to
 * the log-parameters at the optimum, its singular values, the correlations of the free
 * parameters and linearised confidence intervals; the E-nu degeneracy (only E* = E/(1-nu^2)
 * enters the normal model once P_Y is a fitted parameter). */
#include "fit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "stats.h"

void gc_fit_ident_free(gc_fit_ident *id)
{
  free(id->J);
  id->J = NULL;
}

/* Singular values (descending) and right singular vectors of the m x nc matrix A (m may be
 * smaller than nc: zero rows are added). */
static int svd(const double *A, size_t m, size_t lda, const int *cols, int nc, double *sv,
               double *V)
{
  size_t rows = m > (size_t)nc ? m : (size_t)nc;
  gsl_matrix *U = gsl_matrix_calloc(rows, (size_t)nc);
  gsl_matrix *W = gsl_matrix_alloc((size_t)nc, (size_t)nc);
  gsl_vector *S = gsl_vector_alloc((size_t)nc);
  gsl_vector *work = gsl_vector_alloc((size_t)nc);
  int st = GC_ENOMEM;
  if (U && W && S && work) {
    for (size_t i = 0; i < m; i++)
      for (int k = 0; k < nc; k++)
        gsl_matrix_set(U, i, (size_t)k, A[i * lda + (size_t)cols[k]]);
    st = gsl_linalg_SV_decomp(U, W, S, work) ? GC_ENOCONV : GC_SUCCESS;
    if (!st)
      for (int k = 0; k < nc; k++) {
        sv[k] = gsl_vector_get(S, (size_t)k);
        for (int l = 0; l < nc; l++)
          V[k * nc + l] = gsl_matrix_get(W, (size_t)k, (size_t)l); /* row k: parameter k */
      }
  }
  if (U)
    gsl_matrix_free(U);
  if (W)
    gsl_matrix_free(W);
  if (S)
    gsl_vector_free(S);
  if (work)
    gsl_vector_free(work);
  return st;
}

int gc_fit_identify(gc_fit_problem *pb, const double *p, double h, gc_fit_ident *id, char *msg,
                    size_t n)
{
  memset(id, 0, sizeof *id);
  size_t m = pb->n_res;
  id->n_res = m;
  id->nfree = pb->nfree;
  id->dof = (int)m - pb->nfree;
  if (!(h > 0))
    h = 1e-4;
  const int np = pb->set.npar;
  id->J = calloc(m * GC_FIT_MAXPAR, sizeof *id->J);
  double *rp = malloc(m * sizeof *rp), *rm = malloc(m * sizeof *rm), *r0 = malloc(m * sizeof *r0);
  if (!id->J || !rp || !rm || !r0) {
    free(rp);
    free(rm);
    free(r0);
    gc_fit_ident_free(id);
    snprintf(msg, n, "out of memory");
    return GC_ENOMEM;
  }
  long ne = pb->nevals, nf = pb->nfail;
  gc_fit_value v0 = gc_fit_eval(pb, p, r0);
  /* central differences in ln p_j; one-sided where the model fails on one side (nu close to
   * 0.5, say) */
  for (int j = 0; j < np; j++) {
    double q[GC_FIT_MAXPAR];
    memcpy(q, p, (size_t)pb->set.npar * sizeof *q);
    q[j] = p[j] * exp(h);
    long f0 = pb->nfail;
    gc_fit_eval(pb, q, rp);
    int okp = pb->nfail == f0;
    q[j] = p[j] * exp(-h);
    f0 = pb->nfail;
    gc_fit_eval(pb, q, rm);
    int okm = pb->nfail == f0;
    for (size_t i = 0; i < m; i++) {
      double d = okp && okm ? (rp[i] - rm[i]) / (2 * h)
                 : okp      ? (rp[i] - r0[i]) / h
                 : okm      ? (r0[i] - rm[i]) / h
                            : 0.0;
      id->J[i * GC_FIT_MAXPAR + (size_t)j] = d;
    }
  }
  pb->nevals = ne; /* the analysis is not part of the solver's count */
  pb->nfail = nf;
  free(rp);
  free(rm);
  free(r0);

  gsl_error_handler_t *old = gsl_set_error_handler_off();
  int all[GC_FIT_MAXPAR] = { 0 };
  for (int j = 0; j < np; j++)
    all[j] = j;
  double V[GC_FIT_MAXPAR * GC_FIT_MAXPAR];
  int st = svd(id->J, m, GC_FIT_MAXPAR, all, np, id->sv_all, V);
  if (!st)
    for (int j = 0; j < np; j++)
      id->null_all[j] = V[j * np + np - 1];

  /* d r / d ln nu at fixed E*: d ln E = -(2 nu^2 / (1 - nu^2)) d ln nu keeps E* (models with
   * both E1 and nu1 among their parameters: the Hertz-type ones) */
  const int iE = gc_fit_find(&pb->set, GC_PAR_E1), inu = gc_fit_find(&pb->set, GC_PAR_NU1);
  double nu = inu >= 0 ? p[inu] : pb->set.base.nu1, g_nu = 2 * nu * nu / (1 - nu * nu);
  double a2 = 0, b2 = 0;
  for (size_t i = 0; iE >= 0 && inu >= 0 && i < m; i++) {
    double JE = id->J[i * GC_FIT_MAXPAR + (size_t)iE], Jn = id->J[i * GC_FIT_MAXPAR + (size_t)inu];
    double d = Jn - g_nu * JE;
    a2 += d * d;
    b2 += JE * JE;
  }
  id->nu_at_fixed_Estar = b2 > 0 ? sqrt(a2 / b2) : 0.0;

  /* free columns: singular values, regularised covariance for the correlations, pseudo-inverse
   * for the standard errors (infinite along numerically null directions) */
  int nfr = pb->nfree;
  double Vf[GC_FIT_MAXPAR * GC_FIT_MAXPAR];
  if (!st)
    st = svd(id->J, m, GC_FIT_MAXPAR, pb->idx, nfr, id->sv_free, Vf);
  gsl_set_error_handler(old);
  if (st) {
    gc_fit_ident_free(id);
    snprintf(msg, n, "identifiability: the singular value decomposition failed");
    return st;
  }
  double smax = id->sv_free[0], smin = id->sv_free[nfr - 1];
  id->cond_free = smin > 0 ? smax / smin : INFINITY;
  /* relative: a combination that changes the residuals by less than 1e-5 of the best determined
   * one is treated as not identifiable (finite-difference noise of J is below 1e-7) */
  const double rank_tol = 1e-5;
  id->rank_deficient = !(smin > rank_tol * smax);
  id->s2 = id->dof > 0 ? v0.F / id->dof : NAN;
  id->tq = NAN;
  if (id->dof > 0 && gc_stat_t_quantile(0.975, (double)id->dof, &id->tq)) {
    gc_fit_ident_free(id);
    snprintf(msg, n, "identifiability: no t quantile for %d degrees of freedom", id->dof);
    return GC_ENOCONV;
  }
  /* the ridge of the correlations; with J = 0 on the free columns (no free parameter acts on
   * the data) any positive one gives their limit, the identity: no correlation to report */
  double lam = smax > 0 ? (1e-8 * smax) * (1e-8 * smax) : 1.0;
  double Creg[GC_FIT_MAXPAR * GC_FIT_MAXPAR], Cp[GC_FIT_MAXPAR * GC_FIT_MAXPAR];
  for (int a = 0; a < nfr; a++)
    for (int b = 0; b < nfr; b++) {
      double sr = 0, sp = 0;
      for (int k = 0; k < nfr; k++) {
        double s = id->sv_free[k], vv = Vf[a * nfr + k] * Vf[b * nfr + k];
        sr += vv / (s * s + lam);
        if (s > rank_tol * smax)
          sp += vv / (s * s);
      }
      Creg[a * nfr + b] = sr;
      Cp[a * nfr + b] = sp;
    }
  for (int a = 0; a < nfr; a++)
    for (int b = 0; b < nfr; b++)
      id->corr[a * GC_FIT_MAXPAR + b] =
          Creg[a * nfr + b] / sqrt(Creg[a * nfr + a] * Creg[b * nfr + b]);
  for (int a = 0; a < nfr; a++) {
    int j = pb->idx[a];
    int null_load = 0;
    for (int k = 0; k < nfr; k++)
      if (!(id->sv_free[k] > rank_tol * smax) && fabs(Vf[a * nfr + k]) > 1e-3)
        null_load = 1;
    double se = null_load || !(id->s2 >= 0) ? INFINITY : sqrt(id->s2 * Cp[a * nfr + a]);
    id->se_log[j] = se;
    id->ci_lo[j] = isfinite(se) ? p[j] * exp(-id->tq * se) : 0.0;
    id->ci_hi[j] = isfinite(se) ? p[j] * exp(id->tq * se) : INFINITY;
  }
  /* E* = E / (1 - nu^2): gradient of ln E* wrt the free ln p */
  id->Estar = (iE >= 0 ? p[iE] : pb->set.base.E1) / (1 - nu * nu);
  double g[GC_FIT_MAXPAR] = { 0 };
  int any = 0;
  for (int a = 0; a < nfr; a++) {
    if (pb->idx[a] == iE)
      g[a] = 1.0, any = 1;
    if (pb->idx[a] == inu)
      g[a] = g_nu, any = 1;
  }
  double var = 0, gn = 0, proj = 0;
  for (int a = 0; a < nfr; a++) {
    gn += g[a] * g[a];
    for (int b = 0; b < nfr; b++)
      var += g[a] * Cp[a * nfr + b] * g[b];
  }
  for (int k = 0; k < nfr; k++)
    if (!(id->sv_free[k] > rank_tol * smax)) {
      double d = 0;
      for (int a = 0; a < nfr; a++)
        d += g[a] * Vf[a * nfr + k];
      proj = fmax(proj, fabs(d));
    }
  double se = !any ? 0.0 : proj > 1e-3 * sqrt(gn) || !(id->s2 >= 0) ? INFINITY : sqrt(id->s2 * var);
  id->Estar_lo = isfinite(se) ? id->Estar * exp(-id->tq * se) : 0.0;
  id->Estar_hi = isfinite(se) ? id->Estar * exp(id->tq * se) : INFINITY;
  if (!any)
    id->Estar_lo = id->Estar_hi = id->Estar;
  int kE = -1, kn = -1;
  for (int a = 0; a < nfr; a++) {
    if (pb->idx[a] == iE)
      kE = a;
    if (pb->idx[a] == inu)
      kn = a;
  }
  id->Enu_free = kE >= 0 && kn >= 0;
  id->Enu_corr = id->Enu_free ? id->corr[kE * GC_FIT_MAXPAR + kn] : 0.0;
  return GC_SUCCESS;
}
