/* tangential_drive.c - force-driven tangential stepping (see tangential_drive.h).
 *
 * Q(dδ) of one step is non-decreasing in dδ for every model of the family (each part of a step
 * has a stiffness >= 0, and the friction limit only flattens it), so the target is bracketed by
 * doubling a first guess dδ = (Q_target - Q(0)) / K_T0 (K_T0 is the largest stiffness, so the
 * guess is short of the root) and then solved with GSL's Brent method.  A target equal to the
 * friction limit is reached on a plateau; there the smallest increment that reaches it is found
 * by bisection, so that sliding does not add an arbitrary displacement. */
#include "tangential_drive.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "root_solve.h"

enum { GC_TDRIVE_MAXIT = 300 };

typedef struct {
  const gc_law *law;
  const double *h; /* the contact's history block (not modified by trials) */
  const gc_normal *n;
  double dt;
  double ds_roll;
  double target;
  int err; /* first model failure during the trial steps */
} gc_tdrive_ctx;

/* Residual Q(x) - Q_target of a trial step of increment x on a copy of the state. */
static double gc_tdrive_residual(double x, void *vp)
{
  gc_tdrive_ctx *c = vp;
  double tmp[GC_HIST_MAX];
  memcpy(tmp, c->h, gc_law_history_size(c->law) * sizeof *tmp);
  gc_tangential o;
  int st = gc_law_tangential(c->law, tmp, c->n, x, c->dt > 0 ? x / c->dt : 0.0, c->ds_roll, &o);
  if (st) {
    if (!c->err)
      c->err = st;
    return NAN;
  }
  return o.Q - c->target;
}

static int gc_tdrive_sign(double f)
{
  return (f > 0) - (f < 0);
}

/* Grow a bracket from x = 0 (residual f0 != 0) in the direction that reduces |f|: on return
 * [*lo, *hi] (lo < hi) holds the sign change of the residual, or a zero at an end. */
static int gc_tdrive_bracket(gc_tdrive_ctx *c, double f0, double h, double *lo, double *hi,
                             double *flo, double *fhi)
{
  int dir = f0 < 0 ? 1 : -1; /* Q grows with the increment */
  double xa = 0.0, fa = f0;
  for (int k = 0; k < GC_TDRIVE_MAXIT; k++) {
    double xb = dir * h;
    double fb = gc_tdrive_residual(xb, c);
    if (c->err)
      return c->err;
    if (gc_tdrive_sign(fb) != gc_tdrive_sign(f0)) {
      *lo = dir > 0 ? xa : xb;
      *hi = dir > 0 ? xb : xa;
      *flo = dir > 0 ? fa : fb;
      *fhi = dir > 0 ? fb : fa;
      return GC_SUCCESS;
    }
    xa = xb;
    fa = fb;
    h *= 2.0;
    if (!isfinite(h))
      break;
  }
  return GC_ENOCONV;
}

/* The end of [lo, hi] next to the side where the residual has the sign of f0 is moved until the
 * interval is at rounding level; returns the end where the residual has left that sign (for a
 * plateau at the friction limit: the smallest increment that reaches it). */
static int gc_tdrive_bisect(gc_tdrive_ctx *c, double f0, double lo, double hi, double *x)
{
  int s0 = gc_tdrive_sign(f0);
  /* the side with the sign of f0 is the one nearer to x = 0 */
  double in = f0 < 0 ? lo : hi, out = f0 < 0 ? hi : lo;
  for (int k = 0; k < GC_TDRIVE_MAXIT; k++) {
    if (fabs(out - in) <= 4.0 * DBL_EPSILON * fmax(fabs(out), fabs(in)))
      break;
    double mid = 0.5 * (in + out);
    double f = gc_tdrive_residual(mid, c);
    if (c->err)
      return c->err;
    if (gc_tdrive_sign(f) == s0)
      in = mid;
    else
      out = mid;
  }
  *x = out;
  return GC_SUCCESS;
}

int gc_tangential_solve_force(const gc_law *law, double *s, const gc_normal *n, double Q_target,
                              double dt, double ds_roll, gc_tangential *out, double *d_delta_out)
{
  if (!law || !gc_law_frictional(law) || !s || !n || !out)
    return GC_EINVAL;
  if (!isfinite(Q_target) || !isfinite(n->P) || !isfinite(n->k_t0))
    return GC_ENAN;
  /* |Q| <= mu P is kept by every model (eq. 4.2, 4.21, 3.24): a larger target is unreachable.
   * A target above the limit by rounding only (1e-12 relative) is taken as the limit. */
  double limit = law->pair.p.mu * (n->P > 0 ? n->P : 0.0);
  if (fabs(Q_target) > limit * (1.0 + 1e-12))
    return GC_EINVAL;
  if (fabs(Q_target) > limit)
    Q_target = copysign(limit, Q_target);

  gc_tdrive_ctx c = { law, s, n, dt, ds_roll, Q_target, 0 };
  double f0 = gc_tdrive_residual(0.0, &c);
  if (c.err)
    return c.err;
  double x = 0.0;
  int st = GC_SUCCESS;
  if (f0 != 0.0) {
    double h = n->k_t0 > 0 ? fabs(f0) / n->k_t0 : 0.0;
    if (!(h > 0) || !isfinite(h))
      h = 1e-12;
    double lo, hi, flo, fhi;
    st = gc_tdrive_bracket(&c, f0, h, &lo, &hi, &flo, &fhi);
    if (!st) {
      if (flo == 0.0 || fhi == 0.0)
        st = gc_tdrive_bisect(&c, f0, lo, hi, &x);
      else
        st = gc_root_brent(gc_tdrive_residual, &c, &c.err, lo, hi, 0.0, 4.0 * DBL_EPSILON,
                           GC_TDRIVE_MAXIT, 1, &x);
    }
    if (st)
      return st;
  }
  st = gc_law_tangential(law, s, n, x, dt > 0 ? x / dt : 0.0, ds_roll, out);
  if (!st && d_delta_out)
    *d_delta_out = x;
  return st;
}
