/* fit_profile.c - what the data determine, in words a user can act on: profiles of the
 * objective along each free parameter (which parameters are determined, which are only bounded
 * on one side, which not at all), and a ranking of candidate extra measurements by what they add
 * to the Jacobian of the weighted residuals. */
#include "fit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "stats.h"

/* ---------------------------------------------------------------- profiles */

/* Minimise F over the free parameters other than j with p_j = val, from start, with pb's
 * normalisation (so that every point of a profile evaluates the same F). */
static int refit_fixed(const gc_fit_problem *pb, const double *start, int j, double val,
                       double *out, double *F, char *msg, size_t n)
{
  gc_fit_setup s = pb->set;
  for (int k = 0; k < s.npar; k++)
    if (s.is_free[k])
      s.trial[k] = fmin(fmax(start[k], s.lo[k]), s.hi[k]);
  s.trial[j] = val;
  s.is_free[j] = 0;
  s.norm_Fa = pb->Fa_ref > 0 ? pb->Fa_ref : 0.0;
  s.norm_Fe = pb->Fe_ref > 0 ? pb->Fe_ref : 0.0;
  int others = 0;
  for (int k = 0; k < s.npar; k++)
    others += s.is_free[k];
  gc_fit_problem q;
  if (!others) {
    /* nothing left to optimise: F at the point */
    gc_fit_problem c = *pb;
    memcpy(out, s.trial, sizeof s.trial);
    long nf = c.nfail;
    gc_fit_value v = gc_fit_eval(&c, out, NULL);
    *F = c.nfail == nf ? v.F : INFINITY;
    return GC_SUCCESS;
  }
  int st = gc_fit_problem_init(&q, &s, pb->data, msg, n);
  if (st)
    return st;
  gc_fit_options o;
  gc_fit_options_default(&o);
  gc_fit_result r;
  st = gc_fit_run(&q, &o, &r, msg, n);
  if (!st) {
    memcpy(out, r.p, sizeof r.p);
    *F = r.val.F;
  }
  gc_fit_result_free(&r);
  gc_fit_problem_free(&q);
  return st;
}

int gc_fit_profile_run(const gc_fit_problem *pb, const double *p_opt, int j, gc_fit_profile *pr,
                       char *msg, size_t n)
{
  memset(pr, 0, sizeof *pr);
  pr->j = -1;
  int dof = (int)pb->n_res - pb->nfree;
  if (dof <= 0) {
    snprintf(msg, n, "%zu residuals for %d free parameters: no degrees of freedom for a profile",
             pb->n_res, pb->nfree);
    return GC_EINVAL;
  }
  double lo = pb->set.lo[j], hi = pb->set.hi[j];
  /* log-spaced grid over the search bounds, with the optimum inserted */
  int np = 0, iopt = -1;
  for (int i = 0; i < GC_FIT_PROF_N; i++) {
    double x = lo * pow(hi / lo, (double)i / (GC_FIT_PROF_N - 1));
    if (iopt < 0 && p_opt[j] <= x * (1 + 1e-9)) {
      iopt = np;
      pr->x[np++] = p_opt[j];
      if (fabs(x - p_opt[j]) <= 1e-6 * x)
        continue;
    }
    pr->x[np++] = x;
  }
  if (iopt < 0) {
    iopt = np;
    pr->x[np++] = p_opt[j];
  }
  pr->npts = np;
  gc_fit_problem c = *pb; /* counters only; shares the weights */
  memcpy(pr->q[iopt], p_opt, (size_t)pb->set.npar * sizeof *p_opt);
  long nf = c.nfail;
  gc_fit_value v0 = gc_fit_eval(&c, p_opt, NULL);
  pr->F[iopt] = c.nfail == nf ? v0.F : INFINITY;
  for (int dir = -1; dir <= 1; dir += 2)
    for (int i = iopt + dir; i >= 0 && i < np; i += dir) {
      int st = refit_fixed(pb, pr->q[i - dir], j, pr->x[i], pr->q[i], &pr->F[i], msg, n);
      if (st) { /* the model fails there: that part of the range does not fit */
        memcpy(pr->q[i], pr->q[i - dir], sizeof pr->q[i]);
        pr->q[i][j] = pr->x[i];
        pr->F[i] = INFINITY;
      }
    }
  int imin = iopt;
  for (int i = 0; i < np; i++)
    if (pr->F[i] < pr->F[imin])
      imin = i;
  pr->F_min = pr->F[imin];
  if (!isfinite(pr->F_min)) {
    snprintf(msg, n, "%s: the model fails along the whole profile", gc_fit_name(&pb->set, j));
    return GC_ENOCONV;
  }
  double s2 = pr->F_min / dof;
  /* a floor for exact (synthetic) data, where s^2 = 0 would call rounding noise significant */
  double floor_dF = 1e-9 * (pb->set.w_a + pb->set.w_e);
  double F95;
  if (gc_stat_f_quantile(0.95, 1.0, (double)dof, &F95)) {
    snprintf(msg, n, "no F(1, %d) quantile for the profile's threshold", dof);
    return GC_ENOCONV;
  }
  pr->dF = fmax(s2 * F95, floor_dF);
  double thr = pr->F_min + pr->dF;
  pr->open_hi = 1;
  pr->hi = pr->x[np - 1];
  for (int i = imin + 1; i < np; i++)
    if (pr->F[i] > thr) {
      double a = log(pr->x[i - 1]), b = log(pr->x[i]);
      double t = isfinite(pr->F[i]) ? (thr - pr->F[i - 1]) / (pr->F[i] - pr->F[i - 1]) : 0.5;
      pr->hi = exp(a + t * (b - a));
      pr->open_hi = 0;
      break;
    }
  pr->open_lo = 1;
  pr->lo = pr->x[0];
  for (int i = imin - 1; i >= 0; i--)
    if (pr->F[i] > thr) {
      double a = log(pr->x[i + 1]), b = log(pr->x[i]);
      double t = isfinite(pr->F[i]) ? (thr - pr->F[i + 1]) / (pr->F[i] - pr->F[i + 1]) : 0.5;
      pr->lo = exp(a + t * (b - a));
      pr->open_lo = 0;
      break;
    }
  pr->cls = pr->open_lo && pr->open_hi ? GC_FIT_UNDETERMINED
            : pr->open_lo              ? GC_FIT_UPPER_ONLY
            : pr->open_hi              ? GC_FIT_LOWER_ONLY
                                       : GC_FIT_DETERMINED;
  pr->j = j;
  return GC_SUCCESS;
}

int gc_fit_verdict_profile(const gc_fit_problem *pb, const double *p_full, double F_full,
                           gc_fit_verdict *v, char *msg, size_t n)
{
  memset(v, 0, sizeof *v);
  memcpy(v->p_full, p_full, (size_t)pb->set.npar * sizeof *p_full);
  v->F_full = F_full;
  const int iE = gc_fit_find(&pb->set, GC_PAR_E1), inu = gc_fit_find(&pb->set, GC_PAR_NU1);
  int both = iE >= 0 && inu >= 0 && pb->set.is_free[iE] && pb->set.is_free[inu];
  for (int j = 0; j < GC_FIT_MAXPAR; j++)
    v->prof[j].j = -1;
  for (int j = 0; j < pb->set.npar; j++)
    v->analysed[j] = pb->set.is_free[j] && !(both && j == inu);
  for (int j = 0; j < pb->set.npar; j++) {
    /* with E and nu both free only E* is determined: profile nu (E follows it), not E */
    if (!pb->set.is_free[j] || (both && j == iE))
      continue;
    int st = gc_fit_profile_run(pb, p_full, j, &v->prof[j], msg, n);
    if (st)
      return st;
  }
  return GC_SUCCESS;
}

void gc_fit_verdict_best(const gc_fit_problem *pb, const gc_fit_verdict *v, double *q, double *F)
{
  *F = INFINITY;
  for (int j = 0; j < pb->set.npar; j++) {
    const gc_fit_profile *pr = &v->prof[j];
    for (int i = 0; pr->j >= 0 && i < pr->npts; i++)
      if (pr->F[i] < *F) {
        *F = pr->F[i];
        memcpy(q, pr->q[i], (size_t)pb->set.npar * sizeof *q);
      }
  }
}

int gc_fit_verdict_quality(gc_fit_problem *pb, const double *p, gc_fit_verdict *v)
{
  const gc_fit_data *d = pb->data;
  double *r = malloc(pb->n_res * sizeof *r), *f = malloc(pb->n_res * sizeof *f);
  if (!r || !f) {
    free(r);
    free(f);
    return GC_ENOMEM;
  }
  long ne = pb->nevals, nf = pb->nfail;
  gc_fit_eval(pb, p, r);
  int failed = pb->nfail != nf;
  pb->nevals = ne;
  pb->nfail = nf;
  /* r_i = sa (P_model,i - P_i) for the force residuals: compression first, then the paths */
  size_t m = 0;
  double s2r = 0, s2P = 0;
  for (size_t i = 0; pb->sa > 0 && i < d->n_comp; i++, m++) {
    f[m] = r[i] / pb->sa;
    s2P += d->P[i] * d->P[i];
  }
  for (size_t i = 0; pb->sa > 0 && i < d->n_path; i++, m++) {
    f[m] = r[d->n_comp + d->n_drop + i] / pb->sa;
    s2P += d->path_P[i] * d->path_P[i];
  }
  for (size_t i = 0; i < m; i++)
    s2r += f[i] * f[i];
  gc_runs_test t;
  gc_stat_runs_test(f, m, &t);
  free(r);
  free(f);
  if (failed || !(s2P > 0) || !isfinite(s2r))
    return failed ? GC_ENAN : GC_SUCCESS;
  v->have_quality = 1;
  v->n_force = m;
  v->runs = t.runs;
  v->n_pos = t.n_pos;
  v->n_neg = t.n_neg;
  v->runs_p = m >= 10 ? t.p : 1.0;
  v->rel_rms = sqrt(s2r / s2P);
  v->poor = v->rel_rms > GC_FIT_POOR_RMS ||
            (v->runs_p < GC_FIT_RUNS_P && v->rel_rms > GC_FIT_SYSTEMATIC_RMS);
  return GC_SUCCESS;
}

/* The poor-fit flag in words. */
static void print_quality(FILE *f, const gc_fit_verdict *v)
{
  if (!v->have_quality || !v->poor)
    return;
  fprintf(f, "  POOR FIT: the force residuals' RMS is %.3g %% of the RMS force", 100 * v->rel_rms);
  if (v->runs_p < GC_FIT_RUNS_P)
    fprintf(f,
            " and they are systematic\n  (Wald-Wolfowitz runs test on their signs in data "
            "order: %zu runs in %zu residuals, %zu + and %zu -,\n  p = %.2g < %g)",
            v->runs, v->n_pos + v->n_neg, v->n_pos, v->n_neg, v->runs_p, GC_FIT_RUNS_P);
  fprintf(f, ".\n  The model does not describe these data; likely causes: values in other units "
             "than the\n  header says (mm under [m], kN under [N]), mislabelled or swapped "
             "columns, or a law\n  that does not fit this material (try another -m).  No "
             "parameter here is calibrated\n  until that is resolved.\n");
}

/* ---------------------------------------------------------------- extra measurements */

enum { CAND_DROP, CAND_UNLOAD, CAND_COMP };
typedef struct {
  int kind;
  double x;      /* v_in [m/s], or alpha [m] */
  double x_load; /* unloading: the largest displacement before unloading */
} cand;

/* The observable of a candidate under the law of p: e, or P [N]. */
static int observe(const gc_fit_problem *pb, const double *p, const cand *c, double *y)
{
  gc_law law;
  int st = gc_fit_law(pb, p, &law);
  if (st)
    return st;
  if (c->kind == CAND_DROP) {
    gc_drop_result dr;
    st = gc_drop_run(&law, &pb->set.drop, c->x, &dr, NULL, NULL);
    *y = dr.e_vel;
  } else {
    double s[GC_HIST_MAX];
    gc_law_history_init(&law, s);
    gc_normal out;
    st = gc_law_normal(&law, s, c->kind == CAND_UNLOAD ? c->x_load : c->x, 0.0, &out);
    if (!st && c->kind == CAND_UNLOAD)
      st = gc_law_normal(&law, s, c->x, -1.0, &out);
    *y = out.P;
  }
  return st ? st : isfinite(*y) ? GC_SUCCESS : GC_ENAN;
}

/* Smallest eigenvalue of the symmetric k x k matrix M and, for the parameters of A, the 95 %
 * interval factor exp(2 t se) with se^2 = s2 (M^-1)_jj (INFINITY along a null direction). */
static int analyse(const double *M, int k, double s2, double tq, double *lam_min, double *factor)
{
  gsl_matrix *A = gsl_matrix_alloc((size_t)k, (size_t)k),
             *V = gsl_matrix_alloc((size_t)k, (size_t)k);
  gsl_vector *L = gsl_vector_alloc((size_t)k);
  gsl_eigen_symmv_workspace *w = gsl_eigen_symmv_alloc((size_t)k);
  int st = GC_ENOMEM;
  if (A && V && L && w) {
    for (int a = 0; a < k; a++)
      for (int b = 0; b < k; b++)
        gsl_matrix_set(A, (size_t)a, (size_t)b, M[a * k + b]);
    st = gsl_eigen_symmv(A, L, V, w) ? GC_ENOCONV : GC_SUCCESS;
  }
  if (!st) {
    double lmax = 0, lmin = INFINITY;
    for (int a = 0; a < k; a++) {
      lmax = fmax(lmax, gsl_vector_get(L, (size_t)a));
      lmin = fmin(lmin, gsl_vector_get(L, (size_t)a));
    }
    *lam_min = fmax(lmin, 0.0);
    /* as gc_fit_identify: singular values below 1e-5 of the largest are null directions */
    double tol = 1e-10 * lmax;
    for (int a = 0; a < k; a++) {
      double var = 0;
      int null = 0;
      for (int m = 0; m < k; m++) {
        double l = gsl_vector_get(L, (size_t)m), vv = gsl_matrix_get(V, (size_t)a, (size_t)m);
        if (!(l > tol)) {
          if (fabs(vv) > 1e-3)
            null = 1;
        } else {
          var += vv * vv / l;
        }
      }
      factor[a] = null || !(s2 >= 0) ? INFINITY : exp(2 * tq * sqrt(s2 * var));
    }
  }
  if (A)
    gsl_matrix_free(A);
  if (V)
    gsl_matrix_free(V);
  if (L)
    gsl_vector_free(L);
  if (w)
    gsl_eigen_symmv_free(w);
  return st;
}

static void describe(const cand *c, double g, char *buf, size_t n)
{
  if (c->kind == CAND_DROP)
    snprintf(buf, n, "a drop at v_in = %.3g m/s (H = %.3g mm)", c->x, 1e3 * c->x * c->x / (2 * g));
  else if (c->kind == CAND_UNLOAD)
    snprintf(buf, n, "an unloading point: P at alpha = %.3g um after compressing to %.3g um",
             1e6 * c->x, 1e6 * c->x_load);
  else
    snprintf(buf, n, "a compression point at alpha = %.3g um", 1e6 * c->x);
}

#define NCAND_MAX 40

int gc_fit_advise(const gc_fit_problem *pb, const double *p, const gc_fit_ident *id,
                  gc_fit_verdict *v, char *msg, size_t n)
{
  gc_fit_advice *ad = &v->adv;
  memset(ad, 0, sizeof *ad);
  const gc_fit_data *d = pb->data;
  for (int j = 0; j < pb->set.npar; j++)
    if (v->analysed[j])
      ad->A[ad->nA++] = j;
  int k = ad->nA;
  if (k == 0 || !(id->s2 > 0) || !isfinite(id->tq)) {
    snprintf(msg, n, "no residual variance to weigh extra measurements against");
    return GC_EINVAL;
  }
  /* the candidates */
  cand cs[NCAND_MAX];
  int nc = 0;
  static const double speeds[] = { 0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.4, 2.0, 3.0, 4.5, 6.0, 8.0 };
  for (size_t i = 0; i < sizeof speeds / sizeof *speeds; i++) {
    int near = 0;
    for (size_t q = 0; q < d->n_drop; q++)
      near |= fabs(d->v_in[q] - speeds[i]) < 0.05 * speeds[i];
    if (!near)
      cs[nc++] = (cand){ CAND_DROP, speeds[i], 0 };
  }
  double amax = 0;
  for (size_t i = 0; i < d->n_comp; i++)
    amax = fmax(amax, d->alpha[i]);
  if (!(amax > 0)) { /* no compression data: the displacement of the fastest drop's P_max */
    amax = 30e-6;
  }
  static const double unload[] = { 0.95, 0.9, 0.8, 0.7, 0.6 };
  for (size_t i = 0; i < sizeof unload / sizeof *unload; i++)
    cs[nc++] = (cand){ CAND_UNLOAD, unload[i] * amax, amax };
  static const double comp[] = { 0.02, 0.05, 1.5, 2.0, 3.0 };
  for (size_t i = 0; i < sizeof comp / sizeof *comp; i++)
    cs[nc++] = (cand){ CAND_COMP, comp[i] * amax, 0 };

  /* rows of the candidates: d y / d ln p_A, weighted as the data of the same kind (or, without
   * such data, for 1 % of e or 2 % of P at the residual variance of the fit) */
  double rows[NCAND_MAX][GC_FIT_MAXPAR];
  int ok[NCAND_MAX];
  const double h = 1e-4;
  double sres = sqrt(id->s2);
  int nok = 0;
  for (int c = 0; c < nc; c++) {
    double y0;
    ok[c] = observe(pb, p, &cs[c], &y0) == GC_SUCCESS && !(cs[c].kind != CAND_DROP && !(y0 > 0));
    double w = cs[c].kind == CAND_DROP ? (pb->se > 0 ? pb->se : sres / 0.01)
                                       : (pb->sa > 0 ? pb->sa : sres / (0.02 * fmax(y0, 1e-6)));
    for (int a = 0; a < k && ok[c]; a++) {
      double q[GC_FIT_MAXPAR], yp, ym;
      memcpy(q, p, (size_t)pb->set.npar * sizeof *q);
      q[ad->A[a]] = p[ad->A[a]] * exp(h);
      int sp = observe(pb, q, &cs[c], &yp);
      q[ad->A[a]] = p[ad->A[a]] * exp(-h);
      int sm = observe(pb, q, &cs[c], &ym);
      if (sp || sm)
        ok[c] = 0;
      else
        rows[c][a] = w * (yp - ym) / (2 * h);
    }
    nok += ok[c];
  }
  ad->ncand = nok;
  /* A parameter that changes neither the data nor any candidate by 1e-3 of what the most
   * influential one does cannot be determined by these kinds of measurement (K_c of a soft grain:
   * C_R - 1 = K_c (P - P_Y) stays ~1e-5 at every force reached): report it, and rank the
   * candidates on the others, whose smallest singular value it would otherwise mask. */
  double sens[GC_FIT_MAXPAR] = { 0 }, smax = 0;
  for (int a = 0; a < k; a++) {
    for (size_t i = 0; i < id->n_res; i++)
      sens[a] = fmax(sens[a], fabs(id->J[i * GC_FIT_MAXPAR + (size_t)ad->A[a]]));
    for (int c = 0; c < nc; c++)
      if (ok[c])
        sens[a] = fmax(sens[a], fabs(rows[c][a]));
    smax = fmax(smax, sens[a]);
  }
  int keep = 0;
  for (int a = 0; a < k; a++) {
    if (sens[a] < 1e-3 * smax) {
      ad->irr[ad->nirr++] = ad->A[a];
      continue;
    }
    for (int c = 0; c < nc; c++)
      rows[c][keep] = rows[c][a];
    ad->A[keep++] = ad->A[a];
  }
  ad->nA = k = keep;
  if (k == 0) {
    snprintf(msg, n, "no parameter has an effect on the data");
    return GC_EINVAL;
  }
  /* the largest force reached: the data's drops and compression, and the candidates */
  {
    gc_law law;
    if (gc_fit_law(pb, p, &law) == GC_SUCCESS) {
      for (size_t q = 0; q < d->n_drop; q++) {
        gc_drop_result dr;
        if (gc_drop_run(&law, &pb->set.drop, d->v_in[q], &dr, NULL, NULL) == GC_SUCCESS)
          ad->P_peak = fmax(ad->P_peak, dr.P_max);
      }
      for (size_t q = 0; q < d->n_comp; q++)
        ad->P_peak = fmax(ad->P_peak, d->P[q]);
    }
  }
  /* M = J_A^T J_A of the data */
  double M[GC_FIT_MAXPAR * GC_FIT_MAXPAR] = { 0 }, T[GC_FIT_MAXPAR * GC_FIT_MAXPAR];
  for (size_t i = 0; i < id->n_res; i++)
    for (int a = 0; a < k; a++)
      for (int b = 0; b < k; b++)
        M[a * k + b] += id->J[i * GC_FIT_MAXPAR + (size_t)ad->A[a]] *
                        id->J[i * GC_FIT_MAXPAR + (size_t)ad->A[b]];
  gsl_error_handler_t *old = gsl_set_error_handler_off();
  double lam;
  int st = analyse(M, k, id->s2, id->tq, &lam, ad->factor0);
  ad->sv_min0 = sqrt(lam);
  int used[NCAND_MAX] = { 0 };
  for (int step = 0; !st && step < GC_FIT_ADVICE_STEPS; step++) {
    /* stop when every analysed parameter is determined within a factor 10 */
    const double *f = step ? ad->factor[step - 1] : ad->factor0;
    int all = 1;
    for (int a = 0; a < k; a++)
      all &= f[a] < 10.0;
    if (all)
      break;
    int best = -1;
    double best_lam = -1, best_f[GC_FIT_MAXPAR];
    for (int c = 0; c < nc; c++) {
      if (!ok[c] || used[c])
        continue;
      double l, fc[GC_FIT_MAXPAR];
      for (int a = 0; a < k; a++)
        for (int b = 0; b < k; b++)
          T[a * k + b] = M[a * k + b] + rows[c][a] * rows[c][b];
      if (analyse(T, k, id->s2, id->tq, &l, fc))
        continue;
      if (l > best_lam * (1 + 1e-9)) {
        best_lam = l;
        best = c;
        memcpy(best_f, fc, sizeof fc);
      }
    }
    if (best < 0)
      break;
    used[best] = 1;
    for (int a = 0; a < k; a++)
      for (int b = 0; b < k; b++)
        M[a * k + b] += rows[best][a] * rows[best][b];
    describe(&cs[best], pb->set.drop.g > 0 ? pb->set.drop.g : 9.80665, ad->what[step],
             sizeof ad->what[step]);
    ad->sv_min[step] = sqrt(best_lam);
    memcpy(ad->factor[step], best_f, sizeof best_f);
    ad->nsteps = step + 1;
  }
  gsl_set_error_handler(old);
  if (st) {
    snprintf(msg, n, "extra measurements: the eigen decomposition failed");
    return st;
  }
  v->have_advice = 1;
  return GC_SUCCESS;
}

/* ---------------------------------------------------------------- the verdict in words */

/* E stands for E* when nu1 is a parameter of the model too (only E* is determined). */
static const char *name_or_Estar(const gc_fit_setup *s, int j)
{
  return j == gc_fit_find(s, GC_PAR_E1) && gc_fit_find(s, GC_PAR_NU1) >= 0 ? "E*"
                                                                           : gc_fit_name(s, j);
}

void gc_fit_print_verdict(FILE *f, const gc_fit_problem *pb, const double *p,
                          const gc_fit_ident *id, const gc_fit_verdict *v)
{
  const gc_fit_setup *s = &pb->set;
  const int iE = gc_fit_find(s, GC_PAR_E1), inu = gc_fit_find(s, GC_PAR_NU1);
  const int iK = gc_fit_find(s, GC_PAR_K_C), iP = gc_fit_find(s, GC_PAR_P_Y);
  int det[GC_FIT_MAXPAR], nd = 0, nopen = 0;
  for (int j = 0; j < s->npar; j++) {
    int analysed = v->analysed[j] || v->held[j];
    int cls = v->prof[j].j >= 0 ? v->prof[j].cls : GC_FIT_DETERMINED;
    if (j == iE && inu >= 0 && v->prof[j].j < 0 && s->is_free[inu] == 0 && !v->analysed[j])
      analysed = 0;
    if (analysed && cls == GC_FIT_DETERMINED && !v->held[j])
      det[nd++] = j;
    else if (analysed)
      nopen++;
  }
  if (v->unconverged) {
    /* a profile is a statement about the neighbourhood of a minimum: at another point its
     * "determined" or "bounded" would describe the solver's stopping place, not the data */
    fprintf(f,
            "verdict: the solver did not converge (%s):\n  the result is not a minimum of F, so "
            "what the data determine is not judged; the parameters\n  below are where it "
            "stopped (try -A lm, -A bobyqa, --starts 4 or a larger --max-evals)\n",
            v->why);
    print_quality(f, v);
    return;
  }
  fprintf(f, "verdict:");
  if (nd) {
    fprintf(f, " ");
    for (int a = 0; a < nd; a++)
      fprintf(f, "%s%s", name_or_Estar(s, det[a]), a + 2 < nd ? ", " : a + 1 < nd ? " and " : "");
    fprintf(f, " %s determined by these data", nd > 1 ? "are" : "is");
    fprintf(f, nopen ? ";" : ".");
  }
  fprintf(f, "\n");
  print_quality(f, v);
  for (int j = 0; j < s->npar; j++) {
    const gc_fit_profile *pr = &v->prof[j];
    if (pr->j < 0 || pr->cls == GC_FIT_DETERMINED)
      continue;
    const char *u = gc_fit_unit(&pb->set, j), *nm = gc_fit_name(&pb->set, j);
    if (pr->cls == GC_FIT_UPPER_ONLY)
      fprintf(f,
              "  %s is only bounded above: %s <= %.3g %s (95 %% profile); every value down to the "
              "search bound %.3g %s fits as well\n",
              nm, nm, pr->hi, u, pr->lo, u);
    else if (pr->cls == GC_FIT_LOWER_ONLY)
      fprintf(f,
              "  %s is only bounded below: %s >= %.3g %s (95 %% profile); every value up to the "
              "search bound %.3g %s fits as well\n",
              nm, nm, pr->lo, u, pr->hi, u);
    else
      fprintf(f,
              "  %s is not determined: every value in the search range [%.3g, %.3g] %s fits as "
              "well (95 %% profile)\n",
              nm, pr->lo, pr->hi, u);
  }
  int nh = 0;
  for (int j = 0; j < s->npar; j++)
    nh += v->held[j];
  if (nh) {
    fprintf(f, "  held (--undetermined fit lets them run free), the rest fitted with them:\n   ");
    int c = 0;
    for (int j = 0; j < s->npar; j++)
      if (v->held[j])
        fprintf(f, "%s %s = %.4g %s (%s)", c++ ? ";" : "", gc_fit_name(&pb->set, j), v->hold[j],
                gc_fit_unit(&pb->set, j),
                v->hold_from_card[j] ? "the card's value" : "the nearest value the data allow");
    fprintf(f, "\n");
    /* how much the determined parameters move over what the held ones may be */
    for (int j = 0; j < s->npar; j++) {
      const gc_fit_profile *pr = &v->prof[j];
      if (!v->held[j] || pr->j < 0)
        continue;
      double thr = pr->F_min + pr->dF;
      for (int a = 0; a < nd; a++) {
        int k = det[a];
        double lo = INFINITY, hi = -INFINITY;
        for (int i = 0; i < pr->npts; i++) {
          if (!(pr->F[i] <= thr))
            continue;
          double x = pr->q[i][k];
          if (k == iE && inu >= 0)
            x /= 1 - pr->q[i][inu] * pr->q[i][inu];
          lo = fmin(lo, x);
          hi = fmax(hi, x);
        }
        if (lo <= hi && hi - lo > 1e-4 * fabs(hi))
          fprintf(f, "  over the %s the data allow, %s ranges over [%.4g, %.4g] %s\n",
                  gc_fit_name(&pb->set, j), name_or_Estar(s, k), lo, hi,
                  k == iE ? "Pa" : gc_fit_unit(s, k));
      }
    }
  }
  if (v->have_advice)
    for (int a = 0; a < v->adv.nirr; a++) {
      int j = v->adv.irr[a];
      if (j == iK && iP >= 0)
        fprintf(f,
                "  K_c has no effect at these forces: C_R - 1 = K_c (P - P_Y) <= %.2g at the "
                "largest "
                "force reached\n  (%.3g N, K_c = %.3g 1/N at its upper search bound); no drop or "
                "compression in this range\n  determines it, and for the same reason it does not "
                "matter in a simulation at such forces\n",
                s->hi[iK] * fmax(v->adv.P_peak - p[iP], 0.0), v->adv.P_peak, s->hi[iK]);
      else
        fprintf(f, "  %s has no effect on these data or on any candidate measurement\n",
                gc_fit_name(&pb->set, j));
    }
  if (v->have_advice && v->adv.nsteps > 0) {
    const gc_fit_advice *ad = &v->adv;
    fprintf(f,
            "  to determine the rest, add (greedy choice among %d candidate measurements by the "
            "rise of the\n"
            "  smallest singular value of the Jacobian on",
            ad->ncand);
    for (int a = 0; a < ad->nA; a++)
      fprintf(f, " %s", name_or_Estar(s, ad->A[a]));
    fprintf(f, "; each as precise as the data of its kind):\n");
    for (int st = 0; st < ad->nsteps; st++) {
      fprintf(f, "    %d. %s:\n       smallest singular value %.3g -> %.3g", st + 1, ad->what[st],
              st ? ad->sv_min[st - 1] : ad->sv_min0, ad->sv_min[st]);
      const double *f0 = st ? ad->factor[st - 1] : ad->factor0;
      for (int a = 0; a < ad->nA; a++) {
        int j = ad->A[a];
        if (f0[a] >= 10.0 || ad->factor[st][a] >= 10.0) {
          char b0[32], b1[32];
          snprintf(b0, sizeof b0, isfinite(f0[a]) ? "%.3g" : "inf", f0[a]);
          snprintf(b1, sizeof b1, isfinite(ad->factor[st][a]) ? "%.3g" : "inf", ad->factor[st][a]);
          fprintf(f, "; %s 95 %% interval hi/lo %s -> %s", gc_fit_name(&pb->set, j), b0, b1);
        }
      }
      fprintf(f, "\n");
    }
  } else if (nopen && v->have_advice) {
    fprintf(f, "  (no candidate measurement raises the smallest singular value)\n");
  }
  (void)p;
  (void)id;
}
