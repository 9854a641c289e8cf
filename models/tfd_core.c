/* tfd_core.c - tangential bookkeeping of the Mindlin-Deresiewicz / Walton-Braun family:
 * turning point Q*, direction of loading, constant-P stiffness (eq. 3.24, 4.7), the
 * Vu-Quoc-Zhang transitions for a varying normal force (sec. 3.2.2, eq. 3.26-3.64; ch. 5;
 * Algorithm 8.1), the friction limit |Q| <= mu P, non-simple steps and the rolling correction
 * (sec. 5.2).
 *
 * Loading frame.  The seed writes the four P/Q cases for a contact loaded in the positive
 * direction: "Q increasing" (cases 1, 2) is the loading branch, "Q decreasing" (cases 3, 4) the
 * unloading branch after the turning point Q* > 0.  A contact can be loaded either way, and the
 * model must be symmetric under (Q, delta) -> (-Q, -delta).  So every step is computed in the
 * frame of its direction d = sign(d_delta): q = d Q, q* = d Q*, and the motion increases q.  In
 * that frame a branch with q* = 0 is a virgin (loading) branch and takes cases 1 / 2, a branch
 * that starts at a turning point q* != 0 takes cases 3 / 4.  For the usual history (positive
 * loading, then unloading) this is exactly the seed's classification; for a reloading after a
 * negative peak it applies to the mirror image what the seed writes for the unloading after a
 * positive one (the seed's own cases 1 and 2 there would leave Q* where it was although the
 * contact area changes, which breaks the mirror symmetry).
 *
 * Turning-point shift.  In cases 3 and 4 the seed updates Q* -> Q* + mu dP (eq. 3.44, Alg. 8.1
 * lines 67, 100, 115), i.e. q* -> q* - d mu dP.  In the Cattaneo-Mindlin superposition
 * Q* = mu (a^3 - c*^3)/k (c*: stick radius at the turning point, a^3 = k P), so the shift is what
 * keeps the slip annuli fixed while a changes; the shift keeps 2 mu P - (q - q*) constant.  We
 * apply it in subcase 4(a) too: Remark 4.1 states that Q* is updated at every step in which P and
 * Q both decrease, and the 2 mu dP threshold between subcases (a) and (b) is precisely where the
 * shifted turning point meets state 1.  The shift never carries q* through zero: that would
 * mean a < c*, the memory of the earlier loading is released, and the branch is virgin (q* = 0,
 * which is continuous for eq. 4.7).
 *
 * K_T0 at the start of a step.  The transitions use (K_T0)_{P=P0} for their first part (eq.
 * 3.26, 3.39, 3.46, 3.53); the history keeps no K_T0 of the previous step, so the K_T0 of the
 * current normal state (n->k_t0) is used throughout.  The difference, mu dP (1/K_T0(P0) -
 * 1/K_T0(P1)), is of second order in the step, like the explicit (start-of-step) stiffness. */
#include "tfd_core.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Clamp the base of a cube root to [0, 1]; NaN maps to 0. */
static double gc_tfd_clamp01(double x)
{
  if (!(x > 0.0))
    return 0.0;
  return x < 1.0 ? x : 1.0;
}

/* Constant-P stiffness in the loading frame (the motion increases q; q* is the turning point in
 * that frame, 0 on a virgin branch). */
static double gc_tfd_kc(gc_tfd_law law, double k0, double muP, double q, double qs)
{
  if (!(k0 > 0.0) || !(muP > 0.0))
    return 0.0;
  double base;
  if (law == GC_TFD_LAW_WB) {
    /* eq. 4.7: (1 - (Q - Q*)/(mu P - Q*)) increasing, (1 - (Q* - Q)/(mu P + Q*)) decreasing.
     * A turning point at or beyond the current limit (P fell after the reversal) carries no
     * information: the virgin curve (Q* = 0) is used then. */
    double den = muP - qs;
    base = den > 0.0 ? 1.0 - (q - qs) / den : 1.0 - q / muP;
  } else {
    /* eq. 3.24: after a reversal, 2 mu P in the denominator while |Q| < |Q*| (3.24_1, 3.24_3);
     * the virgin curve otherwise (3.24_2, 3.24_4: the loop has rejoined it).  A turning point
     * beyond the current limit (P fell after the reversal) is taken at the limit: otherwise the
     * branch would reach K_T = 0 at |Q| = 2 mu P - |Q*| < mu P and stick there, while both
     * (3.24) and (4.7) must let K_T go to zero only as Q goes to mu P (sec. 4.2.2). */
    if (qs < -muP)
      qs = -muP;
    else if (qs > muP)
      qs = muP;
    if (qs != 0.0 && fabs(q) < fabs(qs))
      base = 1.0 - (q - qs) / (2.0 * muP);
    else
      base = 1.0 - q / muP;
  }
  return k0 * cbrt(gc_tfd_clamp01(base));
}

double gc_tfd_stiffness(gc_tfd_law law, double k_t0, double muP, double Q, double Q_star, int dir)
{
  double d = dir < 0 ? -1.0 : 1.0;
  return gc_tfd_kc(law, k_t0, muP, d * Q, d * Q_star);
}

double gc_tfd_rolling_correction(double delta, double ds_roll, double a)
{
  /* eq. 5.2: the rolled-off (and rolled-on) area is dA = 2 a ds_R of A = pi a^2; eq. 5.3-5.4
   * scale delta by (1 - dA/A).  ds_R = 0 when the rotation opposes the translation (sec. 5.2),
   * so a non-positive ds_roll is no rolling. */
  if (!(ds_roll > 0.0) || !(a > 0.0))
    return 0.0;
  double f = 2.0 * ds_roll / (M_PI * a);
  if (f > 1.0)
    f = 1.0;
  return -f * delta;
}

/* Shift of the turning point (loading frame) by dq, not through zero (see the file comment). */
static double gc_tfd_shift_turning_point(double qs, double dq)
{
  double r = qs + dq;
  if ((qs < 0.0 && r >= 0.0) || (qs > 0.0 && r <= 0.0))
    return 0.0;
  return r;
}

/* Inputs and outputs of one step in the loading frame. */
typedef struct {
  gc_tfd_law law;
  double k0;   /* K_T0 [N/m] */
  double muP0; /* mu P at the previous tangential step [N] */
  double muP1; /* mu P now [N] */
  double m;    /* mu |dP| [N] */
  double x;    /* |d_delta| [m] */
  double q0;   /* force before the step [N] */
  double qs0;  /* turning point before the step [N], 0: virgin */
} gc_tfd_in;

typedef struct {
  double q;  /* force after the step [N] */
  double qs; /* turning point after the step [N] */
  double K;  /* stiffness of the last part of the step [N/m] */
  int flip;  /* 1: the contact ends on a virgin branch loaded in the direction -d (3.62) */
  int nonsimple;
} gc_tfd_out;

/* P constant (Alg. 8.1 lines 15-35): eq. 3.23 / 4.6 with the constant-P law. */
static void gc_tfd_const_p(const gc_tfd_in *in, gc_tfd_out *o)
{
  o->K = gc_tfd_kc(in->law, in->k0, in->muP1, in->q0, in->qs0);
  o->q = in->q0 + o->K * in->x;
  o->qs = in->qs0;
}

/* P increasing: case 1 (virgin branch, eq. 3.26-3.30) and case 3 (after a reversal, eq.
 * 3.38-3.45).  The first part of the step, dq01 = mu dP, is taken with K_T0 (no new micro-slip);
 * the rest follows the constant-P curve of P1.  If the displacement does not complete the first
 * part (|dQ| < mu dP), the step is not simple: Q' = Q + K_T0 d_delta (eq. 3.30, 3.45). */
static void gc_tfd_p_increasing(const gc_tfd_in *in, gc_tfd_out *o)
{
  int virgin = in->qs0 == 0.0;
  /* eq. 3.44 (Q*_1 = Q*_0 + mu dP for decreasing Q), applied after both subcases (text after
   * eq. 3.45, Alg. 8.1 line 67); a virgin branch keeps q* = 0 (case 1). */
  o->qs = virgin ? 0.0 : gc_tfd_shift_turning_point(in->qs0, -in->m);
  if (in->k0 * in->x < in->m) {
    o->q = in->q0 + in->k0 * in->x;
    o->K = in->k0;
    o->nonsimple = 1;
    return;
  }
  double q1 = in->q0 + in->m;                                   /* eq. 3.28 / 3.39 */
  double K12 = gc_tfd_kc(in->law, in->k0, in->muP1, q1, o->qs); /* eq. 3.27 / 3.41 */
  o->q = q1 + K12 * (in->x - in->m / in->k0);                   /* eq. 3.28 / 3.43 */
  o->K = K12;
}

/* P decreasing on a virgin branch (case 2, eq. 3.31-3.37) or far from the turning point
 * (subcase 4(a), q - q* > 2 mu |dP|, eq. 3.46-3.52).  The shrinking contact first releases the
 * traction of the rim annulus: q drops by mu |dP| with K_T0 (d_delta_01 = -mu|dP|/K_T0); the
 * contact then moves along the constant-P curve of P1, back to q0 (stiffness K12, eq. 3.32 /
 * 3.47) and beyond (K23, eq. 3.35 / 3.50).  When the displacement ends between state 1 and
 * state 2 the final state is on the 1-2 part of that curve. */
static void gc_tfd_release_reload(const gc_tfd_in *in, gc_tfd_out *o)
{
  int virgin = in->qs0 == 0.0;
  o->qs = virgin ? 0.0 : gc_tfd_shift_turning_point(in->qs0, in->m);
  double q1 = in->q0 - in->m;
  double r = in->x + in->m / in->k0; /* displacement left after the release */
  double K12 = gc_tfd_kc(in->law, in->k0, in->muP1, q1, o->qs);
  if (K12 * r <= in->m) {
    o->q = q1 + K12 * r;
    o->K = K12;
  } else {
    double K23 = gc_tfd_kc(in->law, in->k0, in->muP1, in->q0, o->qs);
    o->q = in->q0 + K23 * (r - in->m / K12); /* eq. 3.36 / 3.51 */
    o->K = K23;
  }
  /* Case 2 stays simple (sec. 3.2.2, item 2); case 4 is simple only if |dQ| > mu |dP|. */
  o->nonsimple = !virgin && o->q - in->q0 < in->m;
}

/* Subcase 4(b): mu|dP| < q - q* <= 2 mu|dP| (eq. 3.53-3.56).  The release of all reverse
 * traction brings the contact to a virgin state of P1 at q1 = q* + mu|dP| (seed frame:
 * Q1 = Q*0 + mu dP) with K_T0; from there it unloads, i.e. q1 is the new turning point. */
static void gc_tfd_case4b(const gc_tfd_in *in, gc_tfd_out *o)
{
  double q1 = in->qs0 + in->m;
  o->qs = gc_tfd_shift_turning_point(in->qs0, in->m); /* Alg. 8.1 line 100 */
  double r = in->x + (in->q0 - q1) / in->k0;          /* d_delta - d_delta_01, eq. 3.53 */
  double K12 = gc_tfd_kc(in->law, in->k0, in->muP1, in->q0, o->qs); /* eq. 3.54, at Q0 */
  o->q = q1 + K12 * r;                                              /* eq. 3.56 */
  o->K = K12;
  o->nonsimple = o->q - in->q0 < in->m;
}

/* Subcase 4(c): q - q* <= mu|dP| (eq. 3.57-3.64), near the turning point.  The shrinking
 * contact releases all reverse traction and part of the forward one: q moves forward to
 * q1 = q* + mu|dP| along the unloading curve of P0, evaluated at the midpoint (eq. 3.57-3.58).
 * If the displacement is shorter than that (Fig. 3.11), the contact is on the virgin curve of
 * P1 loaded in the opposite direction and comes back along it (eq. 3.59-3.61); the turning point
 * is then decided by the next step (eq. 3.62), which the caller does by leaving a virgin branch
 * in the direction -d.  Otherwise (Fig. 3.12) q1 is a turning point and the rest of the step
 * starts its unloading with K_T0 of P1 (eq. 3.63-3.64). */
static void gc_tfd_case4c(const gc_tfd_in *in, gc_tfd_out *o)
{
  double q1 = in->qs0 + in->m;
  double dq01 = q1 - in->q0; /* >= 0 */
  double K01 = gc_tfd_kc(in->law, in->k0, in->muP0, in->q0 + 0.5 * dq01, in->qs0);
  if (!(K01 > 0.0))
    K01 = in->k0; /* turning point at the old limit: no information, take K_T0 */
  if (K01 * in->x < dq01) {
    double dd01 = dq01 / K01;
    /* eq. 3.59: virgin curve (3.24_2) in the frame of -d, where the force is -q1 */
    double K12 = gc_tfd_kc(in->law, in->k0, in->muP1, -q1, 0.0);
    o->q = q1 - K12 * (dd01 - in->x); /* eq. 3.61 */
    o->qs = 0.0;
    o->K = K12;
    o->flip = 1;
  } else {
    o->qs = gc_tfd_shift_turning_point(in->qs0, in->m); /* Q*_1 = Q_1, Alg. 8.1 line 115 */
    o->q = q1 + in->k0 * (in->x - dq01 / K01);          /* eq. 3.64 */
    o->K = in->k0;
  }
  o->nonsimple = o->q - in->q0 < in->m;
}

/* P decreasing: case 2 or case 4 with its subcases (Alg. 8.1 lines 71-115). */
static void gc_tfd_p_decreasing(const gc_tfd_in *in, gc_tfd_out *o)
{
  double u = in->q0 - in->qs0; /* amount unloaded since the turning point */
  if (in->qs0 == 0.0 || u > 2.0 * in->m)
    gc_tfd_release_reload(in, o);
  else if (u > in->m)
    gc_tfd_case4b(in, o);
  else
    gc_tfd_case4c(in, o);
}

/* Separation (P = 0): the contact loses its tangential history. */
static void gc_tfd_separate(gc_hist_tangential *s)
{
  s->Q = 0.0;
  s->Q_star = 0.0;
  s->q_dir = 0;
  s->delta = 0.0;
  s->P_t = 0.0;
  s->sliding = 0;
}

/* eq. 3.24 read as Masing's rule: once an MD branch after a reversal reaches the virgin curve
 * (|Q| >= |Q*| in the loading frame, i.e. q >= -q*, or q* ahead of the load, q* > 0), the
 * turning point carries no memory any more (the reverse slip annulus has reached the stick
 * radius of the earlier loading).  Dropping it keeps the transitions on the virgin cases. */
static double gc_tfd_md_rejoin(double q, double qs)
{
  if (qs != 0.0 && (qs > 0.0 || q >= -qs))
    return 0.0;
  return qs;
}

static int gc_tfd_check_inputs(const gc_tfd_config *cfg, double mu, const gc_hist_tangential *s,
                               const gc_normal *n, const gc_tangential *out, double d_delta,
                               double ds_roll)
{
  if (!cfg || !s || !n || !out)
    return GC_EINVAL;
  if (!isfinite(d_delta) || !isfinite(ds_roll) || !isfinite(n->P) || !isfinite(n->k_t0) ||
      !isfinite(mu) || !isfinite(s->Q) || !isfinite(s->Q_star) || !isfinite(s->delta))
    return GC_ENAN;
  if (cfg->rolling && ds_roll > 0.0 && !isfinite(n->a))
    return GC_ENAN;
  if (n->P < 0.0 || n->k_t0 < 0.0 || mu < 0.0)
    return GC_EINVAL;
  return GC_SUCCESS;
}

/* Set up one step in the loading frame: direction d of this step, turning point (reset at a
 * reversal) and the change of the normal force since the previous tangential step. */
static void gc_tfd_frame(const gc_tfd_config *cfg, double mu, const gc_hist_tangential *s,
                         const gc_normal *n, double dd, gc_tfd_in *in, int *d_out, double *dP_out)
{
  in->law = cfg->law;
  in->k0 = n->k_t0;
  in->muP1 = mu * n->P;
  /* First step of a contact (no previous normal force): a constant-P step.  From the virgin
   * state (Q = 0) case 1 gives the same force as the constant-P law (K_T0 up to mu P1, then
   * the friction limit), but it would count a non-simple step for every new contact. */
  double P0 = s->P_t > 0.0 ? s->P_t : n->P;
  double dP = cfg->transitions ? n->P - P0 : 0.0;
  if (dd == 0.0 && s->Q == 0.0 && s->Q_star == 0.0)
    dP = 0.0; /* nothing loaded tangentially: the normal change has nothing to transform */
  in->muP0 = mu * P0;
  in->m = mu * fabs(dP);
  in->x = fabs(dd);
  /* Q* is reset to the force of the previous step when the direction reverses (eq. 3.24 text,
   * sec. 4.2.2, Alg. 8.1 lines 29-30, 57-58, 87-88); a step with dd = 0 keeps the direction. */
  int d = dd > 0.0 ? 1
          : dd < 0.0
              ? -1
              : (s->q_dir < 0.0
                     ? -1
                     : 1); /* no int cast of a stored double: a damaged history must not be UB */
  double Qs = s->Q_star;
  if (dd != 0.0 && s->q_dir != 0 && d != s->q_dir)
    Qs = s->Q;
  in->q0 = d * s->Q;
  in->qs0 = d * Qs;
  if (cfg->law == GC_TFD_LAW_MD)
    in->qs0 = gc_tfd_md_rejoin(in->q0, in->qs0);
  *d_out = d;
  *dP_out = dP;
}

/* P constant, increasing or decreasing (Alg. 8.1 lines 15, 37, 71). */
static void gc_tfd_dispatch(const gc_tfd_in *in, double dP, gc_tfd_out *o)
{
  if (!(in->k0 > 0.0)) {
    o->q = in->q0; /* no stiffness: Q cannot change (other than by the friction limit) */
    o->qs = in->qs0;
  } else if (dP == 0.0) {
    gc_tfd_const_p(in, o);
  } else if (dP > 0.0) {
    gc_tfd_p_increasing(in, o);
  } else {
    gc_tfd_p_decreasing(in, o);
  }
}

/* Back to the real frame, friction limit, and the update of the history. */
static int gc_tfd_commit(const gc_tfd_config *cfg, const gc_tfd_in *in, const gc_tfd_out *o, int d,
                         double dd, double P, gc_hist_tangential *s, gc_tangential *out)
{
  int dir = o->flip ? -d : d;
  double Q = d * o->q, Qs = d * o->qs, K = o->K;
  if (cfg->law == GC_TFD_LAW_MD)
    Qs = dir * gc_tfd_md_rejoin(dir * Q, dir * Qs);
  if (!isfinite(Q) || !isfinite(Qs) || !isfinite(K))
    return GC_ENAN;
  /* Friction limit |Q| <= mu P (eq. 4.2, 4.21, and K_T -> 0 at mu P in eq. 3.24 / 4.7). */
  int sliding = 0;
  if (!(fabs(Q) < in->muP1)) {
    Q = copysign(in->muP1, Q);
    K = 0.0;
    sliding = 1;
  }
  s->Q = Q;
  s->Q_star = Qs;
  if (dd != 0.0 || o->flip)
    s->q_dir = dir;
  s->delta += dd;
  s->P_t = P;
  s->sliding = sliding;
  s->n_steps_t++;
  s->n_nonsimple += o->nonsimple;
  out->Q = Q;
  out->K_T = K;
  out->delta = s->delta;
  out->nonsimple = o->nonsimple;
  out->sliding = sliding;
  return GC_SUCCESS;
}

int gc_tfd_step(const gc_tfd_config *cfg, double mu, gc_hist_tangential *s, const gc_normal *n,
                double d_delta, double ds_roll, gc_tangential *out)
{
  int st = gc_tfd_check_inputs(cfg, mu, s, n, out, d_delta, ds_roll);
  if (st)
    return st;
  memset(out, 0, sizeof *out);
  if (n->P <= 0.0) {
    gc_tfd_separate(s);
    s->n_steps_t++;
    return GC_SUCCESS;
  }
  /* eq. 5.5: the rolling adjustment is added to the increment that drives Q. */
  double dd = d_delta;
  if (cfg->rolling)
    dd += gc_tfd_rolling_correction(s->delta, ds_roll, n->a);
  gc_tfd_in in;
  int d;
  double dP;
  gc_tfd_frame(cfg, mu, s, n, dd, &in, &d, &dP);
  gc_tfd_out o = { 0.0, 0.0, 0.0, 0, 0 };
  gc_tfd_dispatch(&in, dP, &o);
  return gc_tfd_commit(cfg, &in, &o, d, dd, n->P, s, out);
}

int gc_tfd_check_mu(const gc_params *p, char *msg, size_t n)
{
  if (!(p->mu >= 0.0) || !isfinite(p->mu)) {
    if (msg && n)
      snprintf(msg, n, "mu = %g out of range [0, inf)", p->mu);
    return GC_EINVAL;
  }
  return GC_SUCCESS;
}

int gc_tfd_check_transitions(const gc_params *p, char *msg, size_t n)
{
  if (p->tfd_transitions != 0 && p->tfd_transitions != 1) {
    if (msg && n)
      snprintf(msg, n, "tfd_transitions = %d out of range {0, 1}", p->tfd_transitions);
    return GC_EINVAL;
  }
  return GC_SUCCESS;
}
