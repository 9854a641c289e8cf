/* restitution.c - the exact restitution coefficient of the damped normal contacts and its
 * inverse, computed once per pair in the damping sub-models' setup().
 *
 * Hertz spring with the Tsuji-form dashpot, P = k alpha^(3/2) + eta sqrt(m k) alpha^(1/4)
 * alpha_dot (k = (4/3) E* sqrt(R*), m = m*).  With alpha = L X, t = (L / v0) T and
 * L = (m v0^2 / k)^(2/5) the impact becomes
 *     X'' = -X^(3/2) - eta X^(1/4) X',   X(0) = 0,  X'(0) = 1,
 * whose restitution e = -X'(end) depends on eta only, not on the impact speed nor on m, k
 * (Tsuji et al. 1992).  "end" is X = 0 when tension is allowed, and the instant at which the
 * force reaches 0 on unloading when it is clipped (the bodies then separate at the velocity
 * they have; the force cannot become positive again, as X^(5/4) decreases while X' < 0).
 * e(eta) has no closed form: it is integrated with classical RK4 on a fixed grid
 * (h = 1e-4 in T; the contact lasts T ~ 3.2) and the end is located by Hermite/linear
 * interpolation; e(eta) is inverted by bisection with the secant (Illinois) step on a bracket
 * grown from [0, 1].  Stack state only: nothing is allocated, no global handler is touched.
 *
 * Linear spring with a dashpot, m x'' = -k x - c x', zeta = c / (2 sqrt(m k)), closed form
 * (time in units of sqrt(m/k)): x = exp(-zeta t) sin(w t) / w, w = sqrt(1 - zeta^2):
 *   tension allowed: e = exp(-pi zeta / w) (0 when zeta >= 1: the spring never returns);
 *   clipped: the force x + 2 zeta x' vanishes at w t* = th = atan2(2 zeta w, 2 zeta^2 - 1), and
 *   e = -x'(t*) = -exp(-zeta th / w) (cos th - (zeta / w) sin th); the overdamped branch
 *   (zeta > 1) follows from the roots r = -zeta +- s, s = sqrt(zeta^2 - 1) (see below).
 *   At zeta = 1 clipped gives e = exp(-2) = 0.1353: smaller e needs zeta > 1. */
#include "gc_internal.h"

#include <math.h>

/* ------------------------------------------------------------------ Hertz + Tsuji dashpot */

static double hz_acc(double X, double V, double eta, int tension)
{
  double x = X > 0 ? X : 0.0;
  double F = x * sqrt(x) + eta * sqrt(sqrt(x)) * V;
  if (!tension && F < 0)
    F = 0.0;
  return -F;
}

static double hz_force(double X, double V, double eta)
{
  double x = X > 0 ? X : 0.0;
  return x * sqrt(x) + eta * sqrt(sqrt(x)) * V;
}

int gc_restitution_hertz(double eta, int tension, double *e)
{
  if (!(eta >= 0) || !isfinite(eta))
    return GC_EINVAL;
  const double h = 1e-4;
  const long nmax = 2000000; /* T = 200: far beyond any contact that ends */
  double X = 0.0, V = 1.0;
  for (long i = 0; i < nmax; i++) {
    double k1x = V, k1v = hz_acc(X, V, eta, tension);
    double k2x = V + 0.5 * h * k1v, k2v = hz_acc(X + 0.5 * h * k1x, k2x, eta, tension);
    double k3x = V + 0.5 * h * k2v, k3v = hz_acc(X + 0.5 * h * k2x, k3x, eta, tension);
    double k4x = V + h * k3v, k4v = hz_acc(X + h * k3x, k4x, eta, tension);
    double Xn = X + h / 6.0 * (k1x + 2 * k2x + 2 * k3x + k4x);
    double Vn = V + h / 6.0 * (k1v + 2 * k2v + 2 * k3v + k4v);
    if (tension) {
      if (Xn <= 0 && i > 0) {
        /* cubic Hermite in X on the step, then the velocity there */
        double a0 = X, b0 = V * h, a1 = Xn, b1 = Vn * h;
        double s = X / (X - Xn); /* linear first guess, refined by Newton */
        for (int it = 0; it < 20; it++) {
          double h00 = 2 * s * s * s - 3 * s * s + 1, h10 = s * s * s - 2 * s * s + s;
          double h01 = -2 * s * s * s + 3 * s * s, h11 = s * s * s - s * s;
          double f = h00 * a0 + h10 * b0 + h01 * a1 + h11 * b1;
          double d = (6 * s * s - 6 * s) * a0 + (3 * s * s - 4 * s + 1) * b0 +
                     (-6 * s * s + 6 * s) * a1 + (3 * s * s - 2 * s) * b1;
          if (d == 0)
            break;
          double ds = f / d;
          s -= ds;
          if (fabs(ds) < 1e-15)
            break;
        }
        if (!(s >= 0 && s <= 1))
          s = X / (X - Xn);
        *e = -(V + s * (Vn - V));
        return GC_SUCCESS;
      }
    } else if (Vn < 0) {
      double F0 = hz_force(X, V, eta), F1 = hz_force(Xn, Vn, eta);
      if (F1 <= 0 || Xn <= 0) {
        double s = (F0 > 0 && F1 <= 0) ? F0 / (F0 - F1) : 1.0;
        if (Xn <= 0 && F1 > 0) /* the force reaches 0 with the overlap (small eta) */
          s = X / (X - Xn);
        *e = -(V + s * (Vn - V));
        return GC_SUCCESS;
      }
    }
    X = Xn;
    V = Vn;
    if (!isfinite(X) || !isfinite(V))
      return GC_ENAN;
  }
  /* no separation within T = 200: the overlap creeps back (overdamped with tension) */
  *e = 0.0;
  return GC_SUCCESS;
}

/* ------------------------------------------------------------------ linear spring + dashpot */

int gc_restitution_linear(double zeta, int tension, double *e)
{
  if (!(zeta >= 0) || !isfinite(zeta))
    return GC_EINVAL;
  if (zeta == 0) {
    *e = 1.0;
    return GC_SUCCESS;
  }
  if (tension) {
    *e = zeta < 1 ? exp(-M_PI * zeta / sqrt(1.0 - zeta * zeta)) : 0.0;
    return GC_SUCCESS;
  }
  if (zeta < 1) {
    /* x = exp(-z t) sin(w t) / w, x' = exp(-z t) (cos(w t) - z sin(w t) / w);
     * x + 2 z x' = 0 <=> tan(w t) = 2 z w / (2 z^2 - 1) on the first unloading half */
    double w = sqrt(1.0 - zeta * zeta);
    double th = atan2(2.0 * zeta * w, 2.0 * zeta * zeta - 1.0);
    *e = -exp(-zeta * th / w) * (cos(th) - zeta / w * sin(th));
  } else if (zeta == 1) {
    *e = exp(-2.0); /* x = t e^-t: the force (2 - t) e^-t vanishes at t = 2 */
  } else {
    /* x = (e^(r1 t) - e^(r2 t)) / (2 s), r1,2 = -z +- s; x + 2 z x' = 0 at
     * e^(2 s t) = (1 + 2 z r2) / (1 + 2 z r1) */
    double s = sqrt(zeta * zeta - 1.0), r1 = -zeta + s, r2 = -zeta - s;
    double t = log((1.0 + 2.0 * zeta * r2) / (1.0 + 2.0 * zeta * r1)) / (2.0 * s);
    *e = -(r1 * exp(r1 * t) - r2 * exp(r2 * t)) / (2.0 * s);
  }
  return GC_SUCCESS;
}

/* ------------------------------------------------------------------ inversion */

typedef int (*restitution_fn)(double x, int tension, double *e);

/* The x >= 0 with f(x) = e_target; f decreases from f(0) = 1.  Relative accuracy ~1e-12 in x. */
static int invert(restitution_fn f, double e_target, int tension, double *x)
{
  /* set on every path, NaN on an error: with -flto GCC cannot see that the callers read it
   * only after a success and warns (maybe-uninitialized) */
  *x = NAN;
  if (!(e_target > 0 && e_target <= 1))
    return GC_EINVAL;
  if (e_target == 1) {
    *x = 0.0;
    return GC_SUCCESS;
  }
  double lo = 0.0, flo = 1.0 - e_target, hi = 1.0, fhi;
  int st = f(hi, tension, &fhi);
  if (st)
    return st;
  fhi -= e_target;
  for (int k = 0; fhi > 0; k++) {
    if (k > 60)
      return GC_ENOCONV;
    lo = hi, flo = fhi;
    hi *= 2.0;
    if ((st = f(hi, tension, &fhi)))
      return st;
    fhi -= e_target;
  }
  /* Illinois: regula falsi that halves the weight of an end kept twice */
  int side = 0;
  for (int it = 0; it < 200; it++) {
    double m = (lo * fhi - hi * flo) / (fhi - flo);
    if (!(m > lo && m < hi))
      m = 0.5 * (lo + hi);
    double fm;
    if ((st = f(m, tension, &fm)))
      return st;
    fm -= e_target;
    if (fm == 0 || hi - lo < 1e-13 * hi || fabs(fm) < 1e-12) {
      *x = m;
      return GC_SUCCESS;
    }
    if (fm > 0) {
      lo = m, flo = fm;
      if (side == -1)
        fhi *= 0.5;
      side = -1;
    } else {
      hi = m, fhi = fm;
      if (side == 1)
        flo *= 0.5;
      side = 1;
    }
  }
  return GC_ENOCONV;
}

int gc_damping_hertz_eta(double e, int tension, double *eta)
{
  return invert(gc_restitution_hertz, e, tension, eta);
}

int gc_damping_linear_zeta(double e, int tension, double *zeta)
{
  return invert(gc_restitution_linear, e, tension, zeta);
}
