/* gc_internal.h - helpers shared between sub-model files; not part of the public interface. */
#ifndef GC_INTERNAL_H
#define GC_INTERNAL_H

#include "gc_model.h"

#include <math.h>

/* Initial tangential stiffness of the Hertz-type normal models for contact radius a and
 * modulus E_t (E* elastic, (E*)_ep elasto-plastic, eq. 8.3/8.6): 8 a G* E_t / E* (eq. 3.25,
 * 8.5), or 2 kt_ratio a E_t when the parameter kt_ratio > 0 overrides the ratio. */
static inline double gc_k_t0(const gc_pair *pair, double a, double E_t)
{
  return pair->kt0_c * a * E_t; /* kt0_c set by gc_pair_setup */
}

/* Hertz force, contact radius, stiffness and K_T0 = 8 a G* (eq. 3.6-3.7, 3.25; see gc_k_t0)
 * at overlap alpha [m]; used by every Hertz-based normal model.  P = (4/3) E* sqrt(R*)
 * alpha^(3/2), a = sqrt(R* alpha).  Inline (as the Hertz and Tsuji steps below): the steps
 * of the Hertz-Mindlin law are also composed by hand in contact3.c, from these same
 * functions. */
static inline void gc_hertz_fill(const gc_pair *pair, double alpha, gc_normal *out)
{
  double x = alpha > 0 ? alpha : 0.0;
  double a = sqrt(pair->R_star * x);
  out->P = pair->k_hertz * x * sqrt(x);
  out->a_e = a;
  out->a_p = 0.0;
  out->a = a;
  out->E_t = pair->E_star;
  out->k_n = 1.5 * pair->k_hertz * sqrt(x); /* dP/dalpha = 2 E* a */
  out->k_t0 = gc_k_t0(pair, a, pair->E_star);
  out->plastic = 0;
}

/* Incipient-yield constants of a pair (pair->P_Y, p_y, A_Y, alpha_Y): from p->P_Y when it is
 * given (> 0), else from the yield stresses (eq. 6.19-6.21).  Rejects a pair with neither. */
int gc_yield_setup(gc_pair *pair, char *msg, size_t msglen);
/* "sY1 or P_Y" rule of the yielding normal sub-models (thornton, ep). */
int gc_check_yield_given(const gc_params *p, char *msg, size_t msglen);

/* Record a force in the normal history header (largest force and its displacement, contact
 * flag, last state).  Inline: every normal and damping step records, some twice. */
static inline void gc_hist_record_normal(gc_hist_normal *s, double alpha, double P)
{
  s->in_contact = alpha > 0;
  s->alpha = alpha;
  s->P = P;
  if (P > s->P_max) {
    s->P_max = P;
    s->alpha_max = alpha;
  }
}

/* Contact duration of the Hertz-type normal sub-models (eq. 3.22 with the pair's E*, R*) and
 * of the linear ones (pi sqrt(m / k_n)). */
int gc_contact_time_hertz(const gc_params *p, double m_eff, double v, double *t);
int gc_contact_time_linear(const gc_params *p, double m_eff, double v, double *t);

/* The elastic parameters every Hertz-type normal sub-model reads, in the order they are
 * checked (R1, E1, nu1, R2, E2, nu2, mu, kt_ratio). */
#define GC_PARAMS_ELASTIC                                                                          \
  GC_PAR_R1, GC_PAR_E1, GC_PAR_NU1, GC_PAR_R2, GC_PAR_E2, GC_PAR_NU2, GC_PAR_MU, GC_PAR_KT_RATIO

/* Tsuji damping (models/damping_tsuji.c), shared with the tangential sub-model "tsuji":
 * beta = ln e / sqrt(ln^2 e + pi^2) into pair->beta_damp, and the coefficient
 * 2 sqrt(5/6) (-beta) sqrt(k m*) of a spring of stiffness k [N s/m]. */
int gc_tsuji_setup(gc_pair *pair, char *msg, size_t msglen);
/* beta into pair->beta_damp and the factor pair->tsuji_c = 2 sqrt(5/6) (-beta) sqrt(m*) (needs
 * pair->p.m_eff). */
void gc_tsuji_set_beta(gc_pair *pair, double beta);
static inline double gc_tsuji_coefficient(const gc_pair *pair, double stiffness)
{
  return pair->tsuji_c * sqrt(stiffness);
}

/* What gc_law_normal and gc_law_tangential (law.c) share with the Hertz-Mindlin steps of
 * contact3.c: the normal result a tangential step sees (a pulling dashpot, tension = 1, gives
 * no friction without compression: P < 0 is taken as 0, in *clipped) and the checks of the
 * steps' results. */
static inline const gc_normal *gc_friction_normal(const gc_normal *n, gc_normal *clipped)
{
  if (!(n->P < 0))
    return n;
  *clipped = *n;
  clipped->P = 0.0;
  return clipped;
}
static inline int gc_normal_finite(const gc_normal *out)
{
  return isfinite(out->P) && isfinite(out->a) && isfinite(out->k_t0);
}
static inline int gc_tangential_finite(const gc_tangential *out)
{
  return isfinite(out->Q) && isfinite(out->K_T);
}

/* The steps of the sub-models "hertz" (normal), "tsuji" (damping) and "tsuji" (tangential):
 * their registry functions (hertz.c, damping_tsuji.c, tsuji_tangential.c) and the Hertz-Mindlin
 * composition of contact3.c call these, so both compute the same numbers. */
static inline int gc_hertz_normal_step(const gc_pair *pair, gc_hist_normal *s, double alpha,
                                       gc_normal *out)
{
  if (!isfinite(alpha))
    return GC_ENAN;
  gc_hertz_fill(pair, alpha, out);
  out->loading = alpha > s->alpha;
  gc_hist_record_normal(s, alpha, out->P);
  return GC_SUCCESS;
}

/* Tsuji damping on top of the Hertz spring of out (see damping_tsuji.c) */
static inline int gc_tsuji_damping_step(const gc_pair *pair, gc_hist_normal *hn, double alpha,
                                        double alpha_dot, gc_normal *out)
{
  if (!isfinite(alpha_dot))
    return GC_ENAN;
  if (alpha > 0) {
    double S_n = 2.0 * pair->E_star * out->a; /* dP/dalpha of the Hertz spring */
    double P = out->P + gc_tsuji_coefficient(pair, S_n) * alpha_dot;
    out->P = (P > 0 || pair->p.tension) ? P : 0.0;
    gc_hist_record_normal(hn, alpha, out->P);
  }
  return GC_SUCCESS;
}

/* The tangential springs with a Coulomb limit (sub-models mindlin, lsd, tsuji): the spring
 * force s->Q + k_t d_delta, kept at the limit while sliding (*sliding = 1), so that the spring
 * does not store displacement that friction has already dissipated. */
static inline double gc_spring_coulomb(gc_hist_tangential *s, double limit, double k_t,
                                       double d_delta, int *sliding)
{
  double Qs = s->Q + k_t * d_delta;
  *sliding = 0;
  if (fabs(Qs) > limit) {
    Qs = copysign(limit, Qs);
    *sliding = 1;
  }
  s->Q = Qs;
  s->delta += d_delta;
  return Qs;
}

/* The end of those steps: the counters and the result for force Q (K_T 0 while sliding). */
static inline void gc_spring_finish(gc_hist_tangential *s, double Q, double k_t, int sliding,
                                    gc_tangential *out)
{
  s->n_steps_t++;
  s->sliding = sliding;
  out->Q = Q;
  out->K_T = sliding ? 0.0 : k_t;
  out->delta = s->delta;
  out->nonsimple = 0;
  out->sliding = sliding;
}

/* A spring k_t with a dashpot c_t beside it and a Coulomb limit (sub-models lsd, eq. 4.2, and
 * tsuji): the dashpot's force is added to the spring's and the sum capped again. */
static inline int gc_spring_dashpot_step(gc_hist_tangential *s, double limit, double k_t,
                                         double c_t, double d_delta, double delta_dot,
                                         gc_tangential *out)
{
  if (!isfinite(d_delta) || !isfinite(delta_dot))
    return GC_ENAN;
  int sliding;
  double Q = gc_spring_coulomb(s, limit, k_t, d_delta, &sliding) + c_t * delta_dot;
  if (fabs(Q) > limit) {
    Q = copysign(limit, Q);
    sliding = 1;
  }
  gc_spring_finish(s, Q, k_t, sliding, out);
  return GC_SUCCESS;
}

/* The Mindlin no-slip spring K_T0 = 8 G* a with Tsuji damping and a Coulomb limit (see
 * tsuji_tangential.c) */
static inline int gc_tsuji_tangential_step(const gc_pair *pair, gc_hist_tangential *s,
                                           const gc_normal *n, double d_delta, double delta_dot,
                                           gc_tangential *out)
{
  return gc_spring_dashpot_step(s, pair->p.mu * n->P, n->k_t0, gc_tsuji_coefficient(pair, n->k_t0),
                                d_delta, delta_dot, out);
}

/* Rolling and twisting sub-models (models/rolling_*.c, twisting_*.c). */
/* R* = (1/R1 + 1/R2)^-1 of the pair (R2 = 0: a plane), from the parameters, so that linear
 * normal models (which set no Hertz constants) have it too. */
double gc_pair_R_star(const gc_pair *pair);
/* Part of v in the plane normal to the unit vector n (out may be v), and part along n. */
void gc_vec_tangent(const double n[3], const double v[3], double out[3]);
double gc_vec_normal(const double n[3], const double v[3]);
/* The factor min(1, |w| / w_reg) / |w| of the regularised constant-torque models: the torque
 * is -limit * w * factor (0 when w = 0). */
double gc_reg_factor(double w_norm, double w_reg);
/* Exact restitution of the damped normal contacts (models/restitution.c), for the tension rule
 * of the damping sub-models (tension = 1: the force may become negative; 0: clipped at 0).
 * Hertz spring with the dashpot eta sqrt(m* k) alpha^(1/4) alpha_dot (k = (4/3) E* sqrt(R*)):
 * e(eta), independent of the impact speed, and its inverse.  Linear spring with the dashpot
 * 2 zeta sqrt(m* k_n) alpha_dot: e(zeta) in closed form, and its inverse. */
int gc_restitution_hertz(double eta, int tension, double *e);
int gc_damping_hertz_eta(double e, int tension, double *eta);
int gc_restitution_linear(double zeta, int tension, double *e);
int gc_damping_linear_zeta(double e, int tension, double *zeta);

#endif
