/* lsd_tangential.c - tangential sub-model "lsd": linear spring-dashpot with a Coulomb limit
 * (dissertation sec. 4.1, eq. 4.2): Q = min(K_T delta + C_T delta_dot, mu P), with the spring
 * slipping at the friction limit (the spring force is kept at mu P while sliding, so that the
 * spring does not store displacement that friction has already dissipated). */
#include "gc_internal.h"

#include <math.h>

static int lsd_tangential_step(const gc_pair *pair, double *h, const gc_normal *n,
                               double d_delta, double delta_dot, double ds_roll,
                               gc_tangential *out)
{
  const gc_params *p = &pair->p;
  gc_hist_tangential *s = (gc_hist_tangential *)h;
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

const gc_submodel gc_tangential_lsd = {
  .name = "lsd",
  .kind = GC_KIND_TANGENTIAL,
  .description = "linear spring-dashpot with Coulomb limit (sec. 4.1, eq. 4.2)",
  .hist_size = GC_HIST_TANGENTIAL_SIZE,
  .params = { GC_PAR_K_T, GC_PAR_C_T, GC_PAR_MU, GC_NPAR },
  .tangential = lsd_tangential_step,
};
