/* hm_step.h - one step of granucal's Hertz-Mindlin law (normal hertz, damping tsuji, tangential
 * tsuji; seed eq. 3.6-3.7, 4.10-4.21) for one contact that touches, every test a select: the
 * body of the loop of hm_rows_step (contact3.c: gc_contact3_step_lanes, gc_hm_rows_step) and of
 * tests/bench_kernel.c's fused pass, one text for both.  Inline, so that a loop over contacts
 * that calls it is vectorised, and numbers a caller does not use (the record's bookkeeping in
 * bench_kernel) are not computed.  Not part of the public interface. */
#ifndef GC_HM_STEP_H
#define GC_HM_STEP_H

#include <math.h>
#include <stdint.h>
#include <string.h>

/* c ? a : b as a blend of the bits: a select the compiler does not turn back into a branch
 * of operations.  It moved a division of a selected number into each arm (one division per
 * arm, the dearest operation of this loop), and without AVX-512's masks it would not vectorise
 * a loop in which an operation that may raise an exception (an inf - inf, a product that
 * overflows) is taken on one arm only: here both operands are always computed. */
static inline double gc_pick(int c, double a, double b)
{
  uint64_t ua, ub;
  memcpy(&ua, &a, sizeof ua);
  memcpy(&ub, &b, sizeof ub);
  const uint64_t m = (uint64_t)0 - (uint64_t)(c != 0);
  const uint64_t r = (ua & m) | (ub & ~m);
  double x;
  memcpy(&x, &r, sizeof x);
  return x;
}

/* A pair's constants: gc_pair's R_star, k_hertz, E_star, kt0_c, tsuji_c, p.mu, and tension
 * (1.0 if the law lets the normal force pull, else 0.0). */
typedef struct {
  double R_star, k_hertz, E_star, kt0_c, tsuji_c, mu, tension;
} gc_hm_consts;

/* The record's numbers the step reads and writes: P (gc_contact3.P), P_max, alpha_max
 * (gc_hist_normal), tQ, Q_star, delta, q_dir, n_steps (gc_hist_tangential's Q, Q_star, delta,
 * q_dir, n_steps_t).  None of them acts on the force: the last step's P enters only the normal
 * work, the others are bookkeeping. */
typedef struct {
  double P, P_max, alpha_max, tQ, Q_star, delta, q_dir, n_steps;
} gc_hm_record;

/* The step's results: the new tangential force Q0..Q2 (gc_contact3.Q), the force F0..F2 on
 * body 1 [N], the normal and tangential work the contact absorbed [J], sliding and active
 * (1.0 / 0.0), ok (0.0: a non-finite number; the results then not to be used). */
typedef struct {
  double Q0, Q1, Q2, F0, F1, F2, work_n, work_t, sliding, active, ok;
} gc_hm_result;

/* The step of a contact with overlap alpha > 0 [m] (first touch already set up), unit normal
 * n0..n2 from body 1 to body 2, v0..v2 = v_2 - v_1 at the contact point [m/s], the record's
 * tangential force q0..q2 and alpha a0 of the last step; the operations of gc_contact3_step
 * in its order, so the same numbers to the bit. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
gc_hm_step(double alpha, double n0, double n1, double n2, double v0, double v1, double v2,
           const gc_hm_consts *k, double q0, double q1, double q2, double a0, double dt,
           gc_hm_record *s, gc_hm_result *o)
{
  const double vn = v0 * n0 + v1 * n1 + v2 * n2;
  /* hm_normal: gc_hertz_normal_step (gc_hertz_fill, the record) */
  const double x = alpha > 0 ? alpha : 0.0;
  const double a = sqrt(k->R_star * x);
  const double P_el = k->k_hertz * x * sqrt(x);
  const double k_t0 = k->kt0_c * a * k->E_star;
  const int peak1 = P_el > s->P_max;
  const double P_max1 = peak1 ? P_el : s->P_max;
  const double alpha_max1 = peak1 ? alpha : s->alpha_max;
  /* gc_tsuji_damping_step */
  const double alpha_dot = -vn;
  const double S_n = 2.0 * k->E_star * a;
  double P = P_el + k->tsuji_c * sqrt(S_n) * alpha_dot;
  P = gc_pick((P > 0) | (k->tension != 0.0), P, 0.0);
  const int peak2 = P > P_max1;
  s->P_max = peak2 ? P : P_max1;
  s->alpha_max = peak2 ? alpha : alpha_max1;
  /* x - x is 0 for a finite x, NaN for an infinite or NaN one */
  const double bad_normal =
      (alpha - alpha) + (alpha_dot - alpha_dot) + (P - P) + (a - a) + (k_t0 - k_t0);
  const double P0 = s->P;
  s->P = P;
  o->work_n = 0.5 * (P0 + P) * (alpha - a0);
  const double d0 = (v0 - vn * n0) * dt, d1 = (v1 - vn * n1) * dt, d2 = (v2 - vn * n2) * dt;
  /* tangential (eq. 4.10-4.21) */
  const double qn = q0 * n0 + q1 * n1 + q2 * n2;
  const double c0 = q0 - qn * n0, c1 = q1 - qn * n1, c2 = q2 - qn * n2;
  /* The square roots and divisions share one unit, which bounds this loop: the ones the
   * scalar step takes on one branch only are taken once here on the selected operands
   * (the same operation on the same numbers, so the same result).  sqrt(x) > 0 just when
   * x > 0, so the tests need no root: carried (m0 > 0 and mold > 0) is cc > 0 and qq > 0,
   * Delta delta's direction (md > 0) dd > 0. */
  const double cc = c0 * c0 + c1 * c1 + c2 * c2, qq = q0 * q0 + q1 * q1 + q2 * q2;
  const double dd = d0 * d0 + d1 * d1 + d2 * d2;
  const double mold = sqrt(qq);
  const int carried = (cc > 0.0) & (qq > 0.0), along = dd > 0.0;
  /* t = Q0 / m0 when carried, else Delta delta / md, else 0 (0 / 1) */
  const double m_dir = sqrt(gc_pick(carried, cc, dd)); /* m0 or md */
  const double den = gc_pick(carried | along, m_dir, 1.0);
  const double t0 = gc_pick(carried, c0, gc_pick(along, d0, 0.0)) / den;
  const double t1 = gc_pick(carried, c1, gc_pick(along, d1, 0.0)) / den;
  const double t2 = gc_pick(carried, c2, gc_pick(along, d2, 0.0)) / den;
  const int mirror = carried & (s->tQ < 0.0);
  s->Q_star = mirror ? -s->Q_star : s->Q_star;
  const double delta = mirror ? -s->delta : s->delta;
  s->q_dir = mirror ? -s->q_dir : s->q_dir;
  const double qc = gc_pick(carried, mold, 0.0);
  const double dpar = d0 * t0 + d1 * t1 + d2 * t2;
  const double e0 = d0 - dpar * t0, e1 = d1 - dpar * t1, e2 = d2 - dpar * t2;
  /* hm_tangential: gc_friction_normal, gc_tsuji_tangential_step */
  const double P_f = P < 0 ? 0.0 : P;
  const double limit = k->mu * P_f;
  const double delta_dot = dpar / dt;
  const double c_t = k->tsuji_c * sqrt(k_t0);
  double Qs = qc + k_t0 * dpar;
  const int over1 = fabs(Qs) > limit;
  Qs = over1 ? copysign(limit, Qs) : Qs;
  s->tQ = Qs;
  s->delta = delta + dpar;
  double Qd = Qs + c_t * delta_dot;
  const int over2 = fabs(Qd) > limit;
  Qd = over2 ? copysign(limit, Qd) : Qd;
  const double sliding = over1 ? 1.0 : over2 ? 1.0 : 0.0;
  s->n_steps = s->n_steps + 1;
  o->sliding = sliding;
  const double K_T = sliding != 0.0 ? 0.0 : k_t0;
  const double bad_tangential = (dpar - dpar) + (delta_dot - delta_dot) + (Qd - Qd) + (K_T - K_T);
  /* Q' = Q_par t + K_T0 Delta delta_perp, capped at mu P along the trial force (eq. 4.21) */
  const double Q0 = Qd * t0 + k_t0 * e0, Q1 = Qd * t1 + k_t0 * e1, Q2 = Qd * t2 + k_t0 * e2;
  const double mq = sqrt(Q0 * Q0 + Q1 * Q1 + Q2 * Q2), lim = k->mu * P;
  const double T0 = qc * t0 + k_t0 * d0, T1 = qc * t1 + k_t0 * d1, T2 = qc * t2 + k_t0 * d2;
  const double mt = sqrt(T0 * T0 + T1 * T1 + T2 * T2);
  const double tr = gc_pick(mt > 0.0, T0 * Q0 + T1 * Q1 + T2 * Q2, 0.0);
  const int trial = tr > 0.0; /* mt > 0 and Q_tr . Q' > 0 */
  /* lim / mt, lim / mq */
  const double f = lim / gc_pick(trial, mt, mq), fq = gc_pick(mq > 0, f, 0.0);
  const int cap = mq > lim;
  const double Qf0 = gc_pick(cap, gc_pick(trial, T0 * f, Q0 * fq), Q0);
  const double Qf1 = gc_pick(cap, gc_pick(trial, T1 * f, Q1 * fq), Q1);
  const double Qf2 = gc_pick(cap, gc_pick(trial, T2 * f, Q2 * fq), Q2);
  o->Q0 = Qf0;
  o->Q1 = Qf1;
  o->Q2 = Qf2;
  o->work_t = 0.5 * ((q0 + Qf0) * d0 + (q1 + Qf1) * d1 + (q2 + Qf2) * d2);
  const double active = P > 0.0      ? 1.0
                        : Qf0 != 0.0 ? 1.0
                        : Qf1 != 0.0 ? 1.0
                        : Qf2 != 0.0 ? 1.0
                                     : 0.0;
  o->active = active;
  o->F0 = gc_pick(active != 0.0, -P * n0 + Qf0, 0.0);
  o->F1 = gc_pick(active != 0.0, -P * n1 + Qf1, 0.0);
  o->F2 = gc_pick(active != 0.0, -P * n2 + Qf2, 0.0);
  o->ok = bad_normal + bad_tangential == 0.0 ? 1.0 : 0.0;
}

#endif
