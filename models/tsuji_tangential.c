/* tsuji_tangential.c - tangential sub-model "tsuji": the Mindlin no-slip spring
 * k_t = 8 G* a (eq. 3.25, K_T0 of the normal sub-model) with the damping law of the "tsuji"
 * damping sub-model (models/damping_tsuji.c) and a Coulomb limit, as DEM codes write
 * Hertz-Mindlin with restitution damping. */
#include "gc_internal.h"

#include <math.h>

static int tsuji_tangential_step(const gc_pair *pair, double *h, const gc_normal *n,
                                 double d_delta, double delta_dot, double ds_roll,
                                 gc_tangential *out)
{
  (void)ds_roll;
  gc_hist_tangential *s = (gc_hist_tangential *)h;
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
  double Q = Qs + gc_tsuji_coefficient(pair, k_t) * delta_dot;
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

const gc_submodel gc_tangential_tsuji = {
  .name = "tsuji",
  .kind = GC_KIND_TANGENTIAL,
  .description = "Mindlin no-slip spring 8 G* a with Tsuji damping and Coulomb limit",
  .hist_size = GC_HIST_TANGENTIAL_SIZE,
  .params = { GC_PAR_MU, GC_PAR_E_N, GC_PAR_M_EFF, GC_NPAR },
  .setup = gc_tsuji_setup,
  .tangential = tsuji_tangential_step,
};
