/* ep_nfd.c - normal sub-model "ep": Vu-Quoc & Zhang elasto-plastic normal force-displacement model
 * (dissertation ch. 6, Algorithms 6.1 and 6.2; granucal-models(7)), for two spheres of possibly
 * different materials or a sphere on a plane: R*, E* of the pair replace R, E/(1-nu^2).
 *
 *   a_ep = a_e + a_p,  a_e = C P^(1/3),  a_p = C_a <P - P_Y>         (eq. 6.2-6.3, 3.6)
 *   loading:   a_ep^2 = C_R(P) R* alpha,  C_R = 1 + K_c <P - P_Y>     (eq. 6.11-6.13)
 *   unloading: a_e^2 = C_R(P_max) R* (alpha - alpha_res), P = a_e^3 / C^3 (eq. 6.33-6.36)
 *
 * The tangential part of the "ep" model is the elasto-plastic TFD (ch. 8, models/ep_tfd.c),
 * which receives K_T0 = 4 a_ep (E*)_ep (1-nu)/(2-nu) (eq. 8.5) from this file. */
#include "gc_internal.h"
#include "tfd_core.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The ranges of R1 ... reload come from the parameter table (gc_law_init); this is the rule
 * the table cannot state. */
static int ep_check(const gc_params *p, char *msg, size_t n)
{
  int st = gc_check_elastic(p, msg, n);
  if (st)
    return st;
  return gc_check_yield_given(p, msg, n);
}

/* History of the EP normal sub-model: the normal header and the unloading curve. */
typedef struct {
  GC_HIST_NORMAL_FIELDS;
  double a_p;         /* plastic part of the contact radius [m] (eq. 6.3) */
  double CR_exc;      /* C_R(P_max) - 1 = K_c <P_max - P_Y> (eq. 6.13), stored as the excess
                       * over 1 so that a zeroed block is the virgin state */
  double alpha_shift; /* literal reloading: shift of the virgin curve [m] */
  double P_prev2, alpha_prev2; /* for the Newton predictor (eq. 6.32) */
} ep_hist;

static int ep_setup(gc_pair *pair, char *msg, size_t n)
{
  return gc_yield_setup(pair, msg, n);
}

static double macaulay(double x)
{
  return x > 0 ? x : 0.0;
}

/* The unknown of the plastic loading curve is s = P^(1/3), so that a_e = C s (eq. 3.6) and
 * P = s^3.  Eq. 6.29 times C_a (so that C_a = 0, no plastic growth of the contact radius, stays
 * well defined) is a_ep(s) = sqrt(C_R(s^3) R* alpha), a_ep = C_a (s^3 - P_Y) + C s (eq. 6.2-6.3,
 * 6.11); squared, it needs neither a cube root nor a square root:
 *   H(s) = a_ep^2 - C_R(s^3) R* alpha,  H'(s) = 2 a_ep (3 C_a s^2 + C) - 3 K_c s^2 R* alpha.
 * H has the sign of G = a_ep - sqrt(C_R R* alpha) (eq. 6.29) wherever a_ep > 0, i.e. on the whole
 * bracket s >= P_Y^(1/3), and the same root; near it H ~ 2 a_ep G, so Newton's steps H / H' are
 * G / G' (eq. 6.30-6.31) to first order. */
static void ep_residual(const gc_pair *pair, double alpha, double s, double *G, double *dG,
                        double *d2G)
{
  const gc_params *p = &pair->p;
  double s2 = s * s, dP = s2 * s - pair->P_Y;
  double ra = pair->R_star * alpha;
  double aep = p->C_a * dP + pair->C * s, daep = 3.0 * p->C_a * s2 + pair->C;
  *G = aep * aep - (1.0 + p->K_c * dP) * ra;
  *dG = 2.0 * aep * daep - 3.0 * p->K_c * s2 * ra;
  /* H'' = 2 a_ep'^2 + 2 a_ep 6 C_a s - 6 K_c s R* alpha, for the convergence test */
  *d2G = 2.0 * daep * daep + 12.0 * aep * p->C_a * s - 6.0 * p->K_c * s * ra;
}

/* x^(1/3) to ~1e-6 for x > 0 (a normal number), without libm: the exponent divided by 3 in the
 * bits of x (fdlibm's cbrt, B1), then two Newton steps.  Only a starting guess of the Newton
 * iteration below: its error changes the number of iterations, not the root. */
static double ep_cbrt_guess(double x)
{
  uint64_t b;
  memcpy(&b, &x, sizeof b);
  b = ((b >> 32) / 3 + UINT64_C(715094163)) << 32;
  double y;
  memcpy(&y, &b, sizeof y);
  y -= (y * y * y - x) / (3.0 * y * y);
  y -= (y * y * y - x) / (3.0 * y * y);
  return y;
}

/* Algorithm 6.2 with a safeguard: Newton steps (eq. 6.30, on H(s), s = P^(1/3)) from the predictor
 * guess (eq. 6.32, a force), kept inside a bracket [lo, hi] with G(lo) < 0 < G(hi) and replaced
 * by bisection whenever they leave it or stall, so the iteration cannot diverge or return NaN.
 * Returns the force and a_e = C P^(1/3). */
static int ep_virgin_plastic_force(const gc_pair *pair, double alpha, double guess, double *P_out,
                                   double *ae_out)
{
  /* G(s_Y) = C P_Y^(1/3) - sqrt(R* alpha), as C_R(P_Y) = 1 */
  double ah = sqrt(pair->R_star * alpha);
  if (pair->a_Y - ah >= 0) { /* alpha only just above alpha_Y: the root is P_Y to rounding */
    *P_out = pair->P_Y;
    *ae_out = pair->a_Y;
    return GC_SUCCESS;
  }
  /* The Hertz root s = sqrt(R* alpha) / C (the force k alpha^(3/2)) is an upper bound when
   * C_a = K_c = 0, and at least (2 P_Y)^(1/3); expand until G > 0. */
  double lo = pair->s_Y, hi = fmax(ah / pair->C, 1.2599210498948732 * pair->s_Y), G, dG, d2G;
  /* At hi, P - P_Y = d >= P_Y and C s >= sqrt(R* alpha), so G >= d (C_a - K_c sqrt(R* alpha) / 2)
   * (sqrt(1 + x) <= 1 + x/2): with K_c sqrt(R* alpha) <= C_a, G(hi) >= P_Y C_a / 2, positive far
   * beyond rounding when P_Y C_a >= 1e-9 sqrt(R* alpha), and the bracket needs no evaluation
   * (soybean, table 9.1: K_c sqrt(R* alpha) / C_a < 1e-4).  Otherwise expand until G > 0. */
  const gc_params *p = &pair->p;
  if (!(p->K_c * ah <= p->C_a && pair->P_Y * p->C_a >= 1e-9 * ah)) {
    int k;
    for (k = 0; k < 200; k++) {
      ep_residual(pair, alpha, hi, &G, &dG, &d2G);
      if (G > 0)
        break;
      lo = hi;
      hi *= 2.0;
    }
    if (k == 200 || !isfinite(hi))
      return GC_ENOCONV;
  }
  double sg = guess > 0 && isfinite(guess) ? ep_cbrt_guess(guess) : 0.0;
  double s = (sg > lo && sg < hi) ? sg : 0.5 * (lo + hi);
  double dx_old = hi - lo, dx = dx_old;
  ep_residual(pair, alpha, s, &G, &dG, &d2G);
  for (int it = 0; it < 100; it++) {
    if (G < 0)
      lo = s;
    else
      hi = s;
    int bisect = !(dG != 0) || ((s - hi) * dG - G) * ((s - lo) * dG - G) > 0 ||
                 fabs(2.0 * G) > fabs(dx_old * dG);
    dx_old = dx;
    if (bisect) {
      dx = 0.5 * (hi - lo);
      s = lo + dx;
    } else {
      dx = G / dG;
      s -= dx;
    }
    /* the tolerances of the force (1e-13 P per step, a bracket of 1e-14 P) in s = P^(1/3); and
     * after a Newton step, its error |H'' / (2 H')| dx^2 (quadratic convergence) below 1e-17 s,
     * a tenth of the rounding of s: the step landed on the root, which saves the evaluation
     * that would only confirm it (one of ~3.3 per plastic loading step) */
    if (fabs(dx) <= 1e-13 / 3.0 * s + 1e-300 || hi - lo <= 1e-14 / 3.0 * hi ||
        (!bisect && fabs(d2G) * dx * dx <= 2e-17 * fabs(dG) * s))
      break;
    ep_residual(pair, alpha, s, &G, &dG, &d2G);
    if (G == 0)
      break;
    if (it == 99)
      return GC_ENOCONV;
  }
  *P_out = s * s * s;
  *ae_out = pair->C * s;
  return GC_SUCCESS;
}

/* Virgin (first-loading) curve at displacement x measured from the curve's origin; also
 * a_e = C P^(1/3). */
static int ep_virgin_force(const gc_pair *pair, const ep_hist *s, double x, double *P, double *ae)
{
  if (x <= pair->alpha_Y) { /* eq. 6.24: Hertz below incipient yield, a_e = sqrt(R* x) */
    double xp = x > 0 ? x : 0.0;
    *P = pair->k_hertz * xp * sqrt(xp);
    *ae = sqrt(pair->R_star * xp);
    return GC_SUCCESS;
  }
  /* predictor of eq. 6.32 from the two previous states when both are on this curve */
  double guess = s->P;
  if (s->alpha > s->alpha_prev2 && s->P_prev2 > 0)
    guess =
        s->P + (s->P - s->P_prev2) / (s->alpha - s->alpha_prev2) * (x + s->alpha_shift - s->alpha);
  return ep_virgin_plastic_force(pair, x, guess, P, ae);
}

/* Unloading curve through the turning point (alpha_max, P_max): eq. 6.33 for alpha_res.
 * ae: C P_max^(1/3) when the caller has it, else < 0. */
static void ep_set_turning_point(const gc_pair *pair, ep_hist *s, double alpha_max, double P_max,
                                 double ae)
{
  if (ae < 0)
    ae = pair->C * cbrt(P_max);
  s->alpha_max = alpha_max;
  s->P_max = P_max;
  s->CR_exc = pair->p.K_c * macaulay(P_max - pair->P_Y);
  double CR_max = 1.0 + s->CR_exc;
  s->a_p = pair->p.C_a * macaulay(P_max - pair->P_Y);
  s->alpha_res = alpha_max - ae * ae / (CR_max * pair->R_star);
}

/* eq. 6.35-6.36: elastic unloading/reloading along the curve of the last turning point; also
 * a_e (eq. 6.35), which is C P^(1/3). */
static double ep_unloading_force(const gc_pair *pair, const ep_hist *s, double alpha,
                                 double *ae_out)
{
  double x = alpha - s->alpha_res;
  if (x <= 0) {
    *ae_out = 0.0;
    return 0.0;
  }
  double ae = sqrt((1.0 + s->CR_exc) * pair->R_star * x);
  *ae_out = ae;
  return ae * ae * ae / (pair->C * pair->C * pair->C);
}

/* ae = C P^(1/3), from the curve that gave P (eq. 3.6, 6.35): no cube root per step. */
static void ep_fill(const gc_pair *pair, const ep_hist *s, double P, int virgin, double ae,
                    gc_normal *out)
{
  const gc_params *p = &pair->p;
  double ap, cr;
  int plastic_loading = virgin && P > pair->P_Y;
  if (plastic_loading) {
    ap = p->C_a * (P - pair->P_Y);       /* eq. 6.3 */
    cr = 1.0 + p->K_c * (P - pair->P_Y); /* eq. 6.13 */
  } else if (virgin) {                   /* Hertz below yield (eq. 6.24) */
    ap = 0.0;
    cr = 1.0;
  } else {
    ap = s->a_p;
    cr = 1.0 + s->CR_exc;
  }
  double a = ae + ap;
  out->P = P;
  out->a_e = ae;
  out->a_p = ap;
  out->a = a;
  /* eq. 8.3 (P increasing) and 8.6 (P constant or decreasing): (E*)_ep = 3 P C_R R* / (4 a^3)
   * with a = a_ep on the virgin curve and a = a_e on the elastic curve.  On the elastic curves
   * (and the virgin one below yield, C_R = 1) P = a_e^3 / C^3 with C^3 = 3 R* / (4 E*)
   * (eq. 6.35-6.36, 3.6), so that (E*)_ep = C_R E*, without the division; tangent normal
   * stiffness dP/dalpha = 2 E*_t a for the Hertz-type curves. */
  if (plastic_loading) {
    out->E_t = 3.0 * P * cr * pair->R_star / (4.0 * a * a * a);
    out->k_n = 2.0 * out->E_t * a;
  } else {
    out->E_t = cr * pair->E_star;
    out->k_n = P > 0 ? 2.0 * out->E_t * ae : 0.0;
  }
  /* eq. 8.5 generalised to two materials: 4 a E*_ep (1-nu)/(2-nu) = 8 a G* (E*_ep / E*)
   * (or 2 kt_ratio a E*_ep, see gc_k_t0). */
  out->k_t0 = gc_k_t0(pair, a, out->E_t);
  out->plastic = s->P_max > pair->P_Y;
}

static int ep_normal_step(const gc_pair *pair, double *h, double alpha, double alpha_dot,
                          gc_normal *out)
{
  ep_hist *s = (ep_hist *)h;
  (void)alpha_dot;
  if (!isfinite(alpha))
    return GC_ENAN;
  double P = 0.0, ae = 0.0;
  int virgin, st;
  int increasing = alpha > s->alpha;
  if (pair->p.reload == GC_RELOAD_LITERAL) {
    /* eq. 6.16-6.18 read literally: every reloading restarts the virgin curve from the
     * accumulated residual displacement; every unloading turns at the previous state. */
    if (increasing && !s->loading && s->P_max > 0) {
      s->alpha_shift = s->alpha_res;
      s->alpha_max = s->alpha_shift;
      s->P_max = 0.0;
    }
    if (!increasing && s->loading && alpha < s->alpha)
      ep_set_turning_point(pair, s, s->alpha, s->P, -1.0);
    virgin = increasing || (alpha == s->alpha && s->loading);
    if (virgin) {
      st = ep_virgin_force(pair, s, alpha - s->alpha_shift, &P, &ae);
      if (st)
        return st;
      s->loading = 1;
      if (P >= s->P_max)
        ep_set_turning_point(pair, s, alpha, P, ae);
    } else {
      P = ep_unloading_force(pair, s, alpha, &ae);
      s->loading = 0;
    }
  } else {
    /* Default (reload = continuous, granucal-models(7)): time-independent and
     * path-independent given the largest displacement reached: beyond alpha_max the virgin
     * curve, below it the elastic curve of the last turning point (continuous at alpha_max,
     * no ratcheting). */
    virgin = alpha > s->alpha_max;
    if (virgin) {
      st = ep_virgin_force(pair, s, alpha, &P, &ae);
      if (st)
        return st;
      ep_set_turning_point(pair, s, alpha, P, ae);
    } else {
      P = ep_unloading_force(pair, s, alpha, &ae);
    }
    s->loading = increasing;
  }
  if (!isfinite(P) || P < 0)
    return GC_ENAN;
  ep_fill(pair, s, P, virgin, ae, out);
  out->loading = increasing;
  s->alpha_prev2 = s->alpha;
  s->P_prev2 = s->P;
  s->in_contact = alpha > 0;
  s->alpha = alpha;
  s->P = P;
  return GC_SUCCESS;
}

const gc_submodel gc_normal_ep = {
  .name = "ep",
  .kind = GC_KIND_NORMAL,
  .flags = GC_SUB_HIST_DRIVEN,
  .description = "Vu-Quoc-Zhang elasto-plastic NFD (ch. 6, Alg. 6.1/6.2)",
  .hist_size = sizeof(ep_hist) / sizeof(double),
  .params = { GC_PARAMS_ELASTIC, GC_PAR_SY1, GC_PAR_SY2, GC_PAR_P_Y, GC_PAR_C_A, GC_PAR_K_C,
              GC_PAR_RELOAD, GC_NPAR },
  .check = ep_check,
  .setup = ep_setup,
  .normal = ep_normal_step,
  .contact_time = gc_contact_time_hertz,
};
