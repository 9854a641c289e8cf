/* contact_sim.c - single-contact simulator (see contact_sim.h). */
#include "contact_sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gc_io.h"
#include "root_solve.h"
#include "units.h"
#include "tangential_drive.h"

int gc_loadpath_alloc(gc_loadpath *lp, size_t n, int with_tangential)
{
  memset(lp, 0, sizeof *lp);
  lp->t = calloc(n ? n : 1, sizeof *lp->t);
  lp->x = calloc(n ? n : 1, sizeof *lp->x);
  lp->y = with_tangential ? calloc(n ? n : 1, sizeof *lp->y) : NULL;
  if (!lp->t || !lp->x || (with_tangential && !lp->y)) {
    gc_loadpath_free(lp);
    return GC_ENOMEM;
  }
  lp->n = n;
  return GC_SUCCESS;
}

void gc_loadpath_free(gc_loadpath *lp)
{
  free(lp->t);
  free(lp->x);
  free(lp->y);
  memset(lp, 0, sizeof *lp);
}

static int first_col(const gc_table *t, const char *a, const char *b)
{
  int i = gc_table_col(t, a);
  return i >= 0 ? i : gc_table_col(t, b);
}

int gc_loadpath_read(const char *path, gc_loadpath *lp, char *msg, size_t n)
{
  gc_table t;
  int st = gc_table_read(path, &t, msg, n);
  if (st)
    return st;
  int ct = first_col(&t, "t", "time");
  int ca = gc_table_col(&t, "alpha"), cP = gc_table_col(&t, "P");
  int cd = gc_table_col(&t, "delta"), cQ = gc_table_col(&t, "Q");
  if (ct < 0 || (ca < 0) == (cP < 0) || (cd >= 0 && cQ >= 0)) {
    snprintf(msg, n,
             "%s:%zu: the header must name a time column 't' and exactly one of 'alpha' [m] or "
             "'P' [N], optionally one of 'delta' [m] or 'Q' [N]",
             path, t.header_line);
    gc_table_free(&t);
    return GC_EFORMAT;
  }
  int cx = ca >= 0 ? ca : cP, cy = cd >= 0 ? cd : cQ;
  /* every column is one of those five (a misspelt 'Qx' would otherwise drive Q = 0), and each
   * carries its unit, converted by the one units table */
  static const char known[] = "t [s] (or time), alpha [m] or P [N], delta [m] or Q [N]";
  const char *expect = ca >= 0 ? "t [s],alpha [m]" : "t [s],P [N]";
  double f[3] = { 1, 1, 1 };
  char notes[sizeof lp->notes] = "";
  for (size_t k = 0; k < t.ncols; k++) {
    const char *name = t.names[k];
    int role = (int)k == ct ? 0 : (int)k == cx ? 1 : (int)k == cy ? 2 : -1;
    if (role < 0) {
      snprintf(msg, n, "%s:%zu:%zu: unknown column '%s' (a load path has %s)", path, t.header_line,
               k + 1, name, known);
      gc_table_free(&t);
      return GC_EFORMAT;
    }
    const char *si = role == 0 ? "s" : strcmp(name, "P") == 0 || strcmp(name, "Q") == 0 ? "N" : "m";
    if (gc_table_unit(&t, path, (int)k, si, expect, &f[role], msg, n)) {
      gc_table_free(&t);
      return GC_EFORMAT;
    }
    if (f[role] != 1.0) {
      size_t l = strlen(notes);
      snprintf(notes + l, sizeof notes - l, "%s: column '%s' in [%s] converted to [%s] (x %g)\n",
               path, name, t.units[k], si, f[role]);
    }
  }
  st = gc_loadpath_alloc(lp, t.nrows, cy >= 0);
  if (st) {
    snprintf(msg, n, "%s: out of memory", path);
    gc_table_free(&t);
    return st;
  }
  lp->normal = ca >= 0 ? GC_DRIVE_ALPHA : GC_DRIVE_P;
  lp->tangential = cd >= 0 ? GC_DRIVE_DELTA : cQ >= 0 ? GC_DRIVE_Q : GC_DRIVE_NONE;
  snprintf(lp->notes, sizeof lp->notes, "%s", notes);
  for (size_t i = 0; i < t.nrows; i++) {
    lp->t[i] = f[0] * gc_table_get(&t, i, (size_t)ct);
    lp->x[i] = f[1] * gc_table_get(&t, i, (size_t)cx);
    if (cy >= 0)
      lp->y[i] = f[2] * gc_table_get(&t, i, (size_t)cy);
    if (i > 0 && !(lp->t[i] > lp->t[i - 1])) {
      snprintf(msg, n, "%s:%zu:%d: time %g does not increase (previous row %g)", path, t.line[i],
               ct + 1, lp->t[i], lp->t[i - 1]);
      st = GC_EFORMAT;
      break;
    }
    if (lp->normal == GC_DRIVE_P && lp->x[i] < 0) {
      snprintf(msg, n, "%s:%zu:%d: negative normal force P = %g N", path, t.line[i], cx + 1,
               lp->x[i]);
      st = GC_EFORMAT;
      break;
    }
  }
  gc_table_free(&t);
  if (st)
    gc_loadpath_free(lp);
  return st;
}

int gc_loadpath_ramp(gc_loadpath *lp, double P_max, size_t n, char *msg, size_t msglen)
{
  if (!(P_max > 0) || !isfinite(P_max)) {
    snprintf(msg, msglen, "--ramp P_max = %g out of range (0, inf) N", P_max);
    return GC_EINVAL;
  }
  if (n < 3) {
    snprintf(msg, msglen, "--steps %zu out of range [3, inf)", n);
    return GC_EINVAL;
  }
  if (gc_loadpath_alloc(lp, n, 0)) {
    snprintf(msg, msglen, "out of memory");
    return GC_ENOMEM;
  }
  lp->normal = GC_DRIVE_P;
  lp->tangential = GC_DRIVE_NONE;
  size_t half = (n - 1) / 2;
  for (size_t i = 0; i < n; i++) {
    lp->t[i] = (double)i / (double)(n - 1);
    double u = i <= half ? (double)i / (double)half : (double)(n - 1 - i) / (double)(n - 1 - half);
    lp->x[i] = P_max * u;
  }
  return GC_SUCCESS;
}

int gc_loadpath_sine(gc_loadpath *lp, double P0, double P1, double Q1, size_t n, char *msg,
                     size_t msglen)
{
  if (!(P0 > 0) || !(P1 >= 0) || !(P0 - P1 > 0) || !isfinite(P0 + P1 + Q1)) {
    snprintf(msg, msglen, "--sine P0=%g, P1=%g: need P0 > P1 >= 0 so that P stays > 0", P0, P1);
    return GC_EINVAL;
  }
  if (n < 8) {
    snprintf(msg, msglen, "--steps %zu out of range [8, inf)", n);
    return GC_EINVAL;
  }
  if (gc_loadpath_alloc(lp, n, 1)) {
    snprintf(msg, msglen, "out of memory");
    return GC_ENOMEM;
  }
  lp->normal = GC_DRIVE_P;
  lp->tangential = GC_DRIVE_Q;
  for (size_t i = 0; i < n; i++) {
    double t = (double)i / (double)(n - 1);
    lp->t[i] = t;
    lp->x[i] = P0 + P1 * sin(2.0 * M_PI * t);
    lp->y[i] = Q1 * sin(2.0 * M_PI * t);
  }
  return GC_SUCCESS;
}

/* ---------------------------------------------------------------- force-driven normal */

typedef struct {
  const gc_law *law;
  const double *h; /* the contact's history block (not modified by trials) */
  double dt;
  double target;
  int err;
} trial_ctx;

static double trial_force(const trial_ctx *c, double alpha, int *err)
{
  double tmp[GC_HIST_MAX];
  memcpy(tmp, c->h, gc_law_history_size(c->law) * sizeof *tmp);
  gc_normal out;
  double rate = c->dt > 0 ? (alpha - gc_law_hist_normal(c->law, tmp)->alpha) / c->dt : 0.0;
  int st = gc_law_normal(c->law, tmp, alpha, rate, &out);
  if (st)
    *err = st;
  return st ? NAN : out.P;
}

static double trial_residual(double alpha, void *vp)
{
  trial_ctx *c = vp;
  return trial_force(c, alpha, &c->err) - c->target;
}

int gc_normal_solve_force(const gc_law *law, double *hist, double P_target, double dt,
                          gc_normal *out, double *alpha_out)
{
  *alpha_out = NAN; /* set on every path (see restitution.c's invert: -flto's warning) */
  if (!(P_target >= 0) || !isfinite(P_target))
    return GC_EINVAL;
  trial_ctx c = { law, hist, dt, P_target, 0 };
  const gc_hist_normal *s = gc_law_hist_normal(law, hist);
  double a0 = s->alpha, P0 = s->P;
  if (P_target == P0 && (P0 > 0 || s->in_contact)) {
    *alpha_out = a0;
    return gc_law_normal(law, hist, a0, 0.0, out);
  }
  /* A displacement scale from Hertz (or the linear stiffness) for the first bracket step. */
  const gc_pair *pr = &law->pair;
  double h;
  if (pr->k_hertz > 0)
    h = fabs(pow(P_target / pr->k_hertz, 2.0 / 3.0) - pow(P0 / pr->k_hertz, 2.0 / 3.0));
  else
    h = fabs(P_target - P0) / (pr->p.k_n > 0 ? pr->p.k_n : 1.0);
  if (!(h > 0))
    h = 1e-12;
  double lo, hi, flo, fhi;
  int k;
  if (P_target > P0) {
    lo = a0;
    flo = P0 - P_target;
    for (k = 0; k < 200; k++) {
      hi = a0 + h;
      fhi = trial_residual(hi, &c);
      if (c.err)
        return c.err;
      if (fhi >= 0)
        break;
      lo = hi;
      flo = fhi;
      h *= 2.0;
    }
  } else {
    hi = a0;
    fhi = P0 - P_target;
    for (k = 0; k < 200; k++) {
      lo = a0 - h;
      flo = trial_residual(lo, &c);
      if (c.err)
        return c.err;
      if (flo <= 0)
        break;
      hi = lo;
      fhi = flo;
      h *= 2.0;
    }
  }
  if (k == 200)
    return GC_ENOCONV;
  double alpha;
  if (fhi == 0) {
    alpha = hi;
  } else if (flo == 0 && P_target > 0) {
    alpha = lo;
  } else if (P_target == 0) {
    /* Separation: the force is 0 on a whole interval; find its upper end (the residual
     * displacement) by bisection, so the contact leaves exactly where it loses contact. */
    for (k = 0; k < 200 && hi - lo > 1e-15 * fmax(fabs(hi), 1e-12); k++) {
      double mid = 0.5 * (lo + hi);
      double f = trial_residual(mid, &c);
      if (c.err)
        return c.err;
      if (f > 0)
        hi = mid;
      else
        lo = mid;
    }
    alpha = lo;
  } else {
    int st = gc_root_brent(trial_residual, &c, &c.err, lo, hi, 1e-18, 1e-14, 200, 0, &alpha);
    if (st)
      return st;
  }
  *alpha_out = alpha;
  return gc_law_normal(law, hist, alpha, dt > 0 ? (alpha - a0) / dt : 0.0, out);
}

/* ---------------------------------------------------------------- run */

void gc_flags_string(unsigned flags, char buf[5])
{
  int k = 0;
  if (flags & GC_FLAG_LOADING)
    buf[k++] = 'L';
  if (flags & GC_FLAG_PLASTIC)
    buf[k++] = 'P';
  if (flags & GC_FLAG_SLIDING)
    buf[k++] = 'S';
  if (flags & GC_FLAG_NONSIMPLE)
    buf[k++] = 'N';
  if (!k)
    buf[k++] = '-';
  buf[k] = 0;
}

int gc_contact_run(const gc_law *law, const gc_loadpath *lp, gc_contact_rec *recs,
                   gc_contact_summary *sum, char *msg, size_t n)
{
  double s[GC_HIST_MAX];
  gc_law_history_init(law, s);
  memset(sum, 0, sizeof *sum);
  double alpha_prev = 0.0, P_prev = 0.0, t_prev = lp->n ? lp->t[0] : 0.0;
  double delta_prev = 0.0;
  for (size_t i = 0; i < lp->n; i++) {
    double dt = i ? lp->t[i] - t_prev : 0.0;
    gc_normal nout;
    double alpha;
    int st;
    if (lp->normal == GC_DRIVE_ALPHA) {
      alpha = lp->x[i];
      st = gc_law_normal(law, s, alpha, dt > 0 ? (alpha - alpha_prev) / dt : 0.0, &nout);
    } else {
      st = gc_normal_solve_force(law, s, lp->x[i], dt, &nout, &alpha);
    }
    if (st) {
      snprintf(msg, n, "step %zu (t = %g): normal model '%s' failed: %s", i, lp->t[i],
               law->name_normal, gc_strerror(st));
      return st;
    }
    if (gc_law_overlap_check(law, lp->t[i], alpha,
                             lp->normal == GC_DRIVE_P
                                 ? "E too small or the load P too large"
                                 : "the displacement path too large (units?) or R too small",
                             msg, n))
      return GC_EPHYS;
    /* Work of the normal force, trapezoidal rule (for eq. 6.43). */
    double dW = 0.5 * (nout.P + P_prev) * (alpha - alpha_prev);
    if (alpha > alpha_prev)
      sum->W_load += dW;
    else
      sum->W_unload -= dW;
    gc_tangential tout = { 0 };
    if (lp->tangential == GC_DRIVE_DELTA) {
      double d = lp->y[i] - delta_prev;
      st = gc_law_tangential(law, s, &nout, d, dt > 0 ? d / dt : 0.0, 0.0, &tout);
    } else if (lp->tangential == GC_DRIVE_Q) {
      st = gc_tangential_solve_force(law, s, &nout, lp->y[i], dt, 0.0, &tout, NULL);
    }
    if (st) {
      snprintf(msg, n, "step %zu (t = %g): tangential model '%s' failed: %s%s", i, lp->t[i],
               law->name_tangential, gc_strerror(st),
               st == GC_EINVAL && lp->tangential == GC_DRIVE_Q ? " (|Q| > mu P cannot be reached)"
                                                               : "");
      return st;
    }
    unsigned flags = 0;
    if (alpha > alpha_prev)
      flags |= GC_FLAG_LOADING;
    if (nout.plastic)
      flags |= GC_FLAG_PLASTIC;
    if (tout.sliding) {
      flags |= GC_FLAG_SLIDING;
      sum->n_sliding++;
    }
    if (tout.nonsimple)
      flags |= GC_FLAG_NONSIMPLE;
    if (recs) {
      gc_contact_rec *r = &recs[i];
      r->t = lp->t[i];
      r->alpha = alpha;
      r->P = nout.P;
      r->a_e = nout.a_e;
      r->a_p = nout.a_p;
      r->delta = lp->tangential ? tout.delta : 0.0;
      r->Q = tout.Q;
      r->K_T = tout.K_T;
      r->flags = flags;
    }
    if (nout.P > sum->P_max)
      sum->P_max = nout.P;
    if (alpha > sum->alpha_max)
      sum->alpha_max = alpha;
    if (fabs(tout.Q) > sum->Q_max)
      sum->Q_max = fabs(tout.Q);
    alpha_prev = alpha;
    P_prev = nout.P;
    t_prev = lp->t[i];
    if (lp->tangential)
      delta_prev = lp->tangential == GC_DRIVE_DELTA ? lp->y[i] : tout.delta;
  }
  sum->alpha_res = gc_law_hist_normal(law, s)->alpha_res;
  sum->n_nonsimple = (long)gc_law_hist_tangential(law, s)->n_nonsimple;
  sum->e_energy = sum->W_load > 0 && sum->W_unload > 0 ? sqrt(sum->W_unload / sum->W_load) : 0.0;
  return GC_SUCCESS;
}
