/* twisting_const.c - constant twisting torque at full slip of the contact circle,
 * M_tw = -(2/3) mu a P w_n / |w_n| along the normal (w_n the part of w1 - w2 along it), the
 * slider limit of twisting "spring".  Regularised like rolling "const": linear in w_n while
 * |w_n| < w_reg. */
#include "gc_internal.h"

#include <math.h>

static int twisting_const(const gc_pair *pair, double *h, const gc_normal *no, const double nvec[3],
                          const double d_theta[3], const double w_rel[3], double M[3])
{
  (void)h, (void)d_theta;
  const double wn = gc_vec_normal(nvec, w_rel);
  const double lim = 2.0 / 3.0 * pair->p.mu * no->a * (no->P > 0 ? no->P : 0.0);
  const double m = -lim * gc_reg_factor(fabs(wn), pair->p.w_reg) * wn;
  for (int d = 0; d < 3; d++)
    M[d] = m * nvec[d];
  return isfinite(m) ? GC_SUCCESS : GC_ENAN;
}

const gc_submodel gc_twisting_const = {
  .name = "const",
  .kind = GC_KIND_TWISTING,
  .flags = 0,
  .description = "constant torque (2/3) mu a P against the twist, linear below w_reg",
  .hist_size = 0,
  .params = { GC_PAR_MU, GC_PAR_W_REG, GC_NPAR },
  .torque = twisting_const,
};
