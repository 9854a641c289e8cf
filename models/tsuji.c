/* tsuji.c - Hertz-Mindlin contact with viscoelastic damping set from a restitution
 * coefficient, in the form most DEM codes use (Tsuji et al. 1992 as written in EDEM and in
 * LAMMPS granular "damping tsuji"-like models):
 *   P = (4/3) E* sqrt(R*) alpha^(3/2) + 2 sqrt(5/6) (-beta) sqrt(S_n m*) alpha_dot,
 *   S_n = 2 E* sqrt(R* alpha),  beta = ln e / sqrt(ln^2 e + pi^2),
 * and the Mindlin no-slip tangential spring k_t = 8 G* a (eq. 3.25) with the same damping law
 * and a Coulomb limit.  Provided for comparison with other DEM codes, not from the dissertation. */
#include "gc_internal.h"

#include <math.h>
#include <stdio.h>

static int tsuji_check(const gc_params *p, char *msg, size_t n)
{
  int st = gc_check_elastic(p, msg, n);
  if (st)
    return st;
  if (!(p->e_n > 0 && p->e_n <= 1.0)) {
    snprintf(msg, n, "e_n = %g out of range (0, 1]", p->e_n);
    return GC_EINVAL;
  }
  if (!(p->m_eff > 0) || !isfinite(p->m_eff)) {
    snprintf(msg, n, "m_eff = %g out of range (0, inf) kg", p->m_eff);
    return GC_EINVAL;
  }
  return GC_SUCCESS;
}

static int tsuji_setup(gc_pair *pair, char *msg, size_t n)
{
  (void)msg;
  (void)n;
  double le = log(pair->p.e_n);
  pair->beta_damp = le / sqrt(le * le + M_PI * M_PI); /* <= 0 */
  return GC_SUCCESS;
}

static double damping(const gc_pair *pair, double stiffness)
{
  return 2.0 * sqrt(5.0 / 6.0) * (-pair->beta_damp) * sqrt(stiffness * pair->p.m_eff);
}

static int tsuji_normal_step(const gc_pair *pair, gc_state *s, double alpha, double alpha_dot,
                             gc_normal *out)
{
  if (!isfinite(alpha) || !isfinite(alpha_dot))
    return GC_ENAN;
  gc_hertz_fill(pair, alpha, out);
  if (alpha > 0) {
    double S_n = 2.0 * pair->E_star * out->a; /* dP/dalpha of the Hertz spring */
    double P = out->P + damping(pair, S_n) * alpha_dot;
    out->P = P > 0 ? P : 0.0; /* no tension at the end of the contact */
  }
  out->loading = alpha > s->alpha;
  gc_state_record_normal(s, alpha, out->P);
  return GC_SUCCESS;
}

static int tsuji_tangential_step(const gc_pair *pair, gc_state *s, const gc_normal *n,
                                 double d_delta, double delta_dot, double ds_roll,
                                 gc_tangential *out)
{
  (void)ds_roll;
  if (!isfinite(d_delta) || !isfinite(delta_dot))
    return GC_ENAN;
  double limit = pair->p.mu * n->P;
  double k_t = n->k_t0; /* 8 G* a */
  double Qs = s->Q + k_t * d_delta;
  int sliding = 0;
  if (fabs(Qs) > limit) {
    Qs = copysign(limit, Qs);
    sliding = 1;
  }
  s->Q = Qs;
  s->delta += d_delta;
  double Q = Qs + damping(pair, k_t) * delta_dot;
  if (fabs(Q) > limit) {
    Q = copysign(limit, Q);
    sliding = 1;
  }
  s->n_steps_t++;
  s->sliding = sliding;
  out->Q = Q;
  out->K_T = sliding ? 0.0 : k_t;
  out->delta = s->delta;
  out->nonsimple = 0;
  out->sliding = sliding;
  return GC_SUCCESS;
}

const gc_model gc_model_tsuji = {
  .name = "tsuji",
  .description = "Hertz-Mindlin (no slip) with restitution-based viscous damping (Tsuji form)",
  .flags = GC_MODEL_NORMAL | GC_MODEL_TANGENTIAL,
  .check = tsuji_check,
  .setup = tsuji_setup,
  .normal_step = tsuji_normal_step,
  .tangential_step = tsuji_tangential_step,
};
