/* lsd.c - linear spring-dashpot contact (dissertation sec. 4.1, eq. 4.1-4.2). */
#include "gc_internal.h"

#include <math.h>
#include <stdio.h>

static int lsd_check(const gc_params *p, char *msg, size_t n)
{
  if (!(p->k_n > 0) || !isfinite(p->k_n)) {
    snprintf(msg, n, "k_n = %g out of range (0, inf) N/m", p->k_n);
    return GC_EINVAL;
  }
  if (!(p->c_n >= 0) || !isfinite(p->c_n)) {
    snprintf(msg, n, "c_n = %g out of range [0, inf) N s/m", p->c_n);
    return GC_EINVAL;
  }
  if (!(p->k_t >= 0) || !isfinite(p->k_t)) {
    snprintf(msg, n, "k_t = %g out of range [0, inf) N/m", p->k_t);
    return GC_EINVAL;
  }
  if (!(p->c_t >= 0) || !isfinite(p->c_t)) {
    snprintf(msg, n, "c_t = %g out of range [0, inf) N s/m", p->c_t);
    return GC_EINVAL;
  }
  if (!(p->mu >= 0) || !isfinite(p->mu)) {
    snprintf(msg, n, "mu = %g out of range [0, inf)", p->mu);
    return GC_EINVAL;
  }
  return GC_SUCCESS;
}

/* eq. 4.1: P = K_N alpha + C_N alpha_dot.  A dashpot can pull the bodies together at the end
 * of a contact; a contact cannot transmit tension, so P is clipped at 0. */
static int lsd_normal_step(const gc_pair *pair, gc_state *s, double alpha, double alpha_dot,
                           gc_normal *out)
{
  const gc_params *p = &pair->p;
  if (!isfinite(alpha) || !isfinite(alpha_dot))
    return GC_ENAN;
  double P = alpha > 0 ? p->k_n * alpha + p->c_n * alpha_dot : 0.0;
  if (P < 0)
    P = 0.0;
  out->P = P;
  out->a_e = out->a = out->a_p = 0.0;
  out->E_t = 0.0;
  out->k_n = p->k_n;
  out->k_t0 = p->k_t;
  out->plastic = 0;
  out->loading = alpha > s->alpha;
  gc_state_record_normal(s, alpha, P);
  return GC_SUCCESS;
}

/* eq. 4.2: Q = min(K_T delta + C_T delta_dot, mu P), with the spring slipping at the friction
 * limit (the spring force is kept at mu P while sliding, so that the spring does not store
 * displacement that friction has already dissipated). */
static int lsd_tangential_step(const gc_pair *pair, gc_state *s, const gc_normal *n,
                               double d_delta, double delta_dot, double ds_roll,
                               gc_tangential *out)
{
  const gc_params *p = &pair->p;
  (void)ds_roll;
  if (!isfinite(d_delta) || !isfinite(delta_dot))
    return GC_ENAN;
  double limit = p->mu * n->P;
  double Qs = s->Q + p->k_t * d_delta;
  int sliding = 0;
  if (fabs(Qs) > limit) {
    Qs = copysign(limit, Qs);
    sliding = 1;
  }
  s->Q = Qs;
  s->delta += d_delta;
  double Q = Qs + p->c_t * delta_dot;
  if (fabs(Q) > limit) {
    Q = copysign(limit, Q);
    sliding = 1;
  }
  s->n_steps_t++;
  s->sliding = sliding;
  out->Q = Q;
  out->K_T = sliding ? 0.0 : p->k_t;
  out->delta = s->delta;
  out->nonsimple = 0;
  out->sliding = sliding;
  return GC_SUCCESS;
}

const gc_model gc_model_lsd = {
  .name = "lsd",
  .description = "linear spring-dashpot with Coulomb limit (sec. 4.1, eq. 4.1-4.2)",
  .flags = GC_MODEL_NORMAL | GC_MODEL_TANGENTIAL,
  .check = lsd_check,
  .setup = NULL,
  .normal_step = lsd_normal_step,
  .tangential_step = lsd_tangential_step,
};
