/* tangential_brendel_dippel.c - tangential sub-model "brendel_dippel": the regularised Coulomb
 * friction of Brendel & Dippel (1998) as seed 000 states it (eq. 5-6):
 *   Q = k_t xi,   xi = integral of v_t Theta(mu P - k_t |xi|) dt,
 * i.e. the elongation xi of the tangential spring grows only while the contact sticks
 * (k_t |xi| < mu P) and is kept at the radius of the friction circle, mu P / k_t, while it
 * slides, so that a reversal sticks at once instead of first unloading a spring stretched by
 * the whole slide (the defect of the Cundall-Strack spring the seed names).  A block on an
 * incline therefore comes to rest when mu >= tan(angle).  k_t is the parameter k_t [N/m]. */
#include "gc_internal.h"

#include <math.h>
#include <stdio.h>

typedef struct {
  gc_hist_tangential t;
  double xi; /* spring elongation [m] */
} bd_hist;

static int bd_check(const gc_params *p, char *msg, size_t n)
{
  if (!(p->k_t > 0)) {
    snprintf(msg, n, "k_t = %g out of range (0, inf) N/m (brendel_dippel needs a spring)", p->k_t);
    return GC_EINVAL;
  }
  return GC_SUCCESS;
}

static int bd_tangential_step(const gc_pair *pair, double *h, const gc_normal *n, double d_delta,
                              double delta_dot, double ds_roll, gc_tangential *out)
{
  (void)delta_dot;
  (void)ds_roll;
  bd_hist *s = (bd_hist *)h;
  if (!isfinite(d_delta))
    return GC_ENAN;
  const double k_t = pair->p.k_t;
  double radius = pair->p.mu * n->P / k_t; /* of the friction circle, in elongation */
  double xi = s->xi + d_delta;
  int sliding = 0;
  if (fabs(xi) > radius) { /* Theta = 0 beyond the circle: xi stays on it */
    xi = copysign(radius, xi);
    sliding = 1;
  }
  s->xi = xi;
  s->t.Q = k_t * xi;
  s->t.delta += d_delta;
  s->t.n_steps_t++;
  s->t.sliding = sliding;
  out->Q = s->t.Q;
  out->K_T = sliding ? 0.0 : k_t;
  out->delta = s->t.delta;
  out->nonsimple = 0;
  out->sliding = sliding;
  return GC_SUCCESS;
}

const gc_submodel gc_tangential_brendel_dippel = {
  .name = "brendel_dippel",
  .kind = GC_KIND_TANGENTIAL,
  .description = "Brendel & Dippel (1998) regularised Coulomb: spring k_t whose elongation "
                 "stops growing while sliding (seed 000 eq. 5-6)",
  .hist_size = sizeof(bd_hist) / sizeof(double),
  .params = { GC_PAR_MU, GC_PAR_K_T, GC_NPAR },
  .check = bd_check,
  .tangential = bd_tangential_step,
};
