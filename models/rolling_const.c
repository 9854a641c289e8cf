/* rolling_const.c - constant rolling-resistance torque (type A of Ai et al. 2011; Zhou et al.
 * 1999): M_r = -mu_r R* P w_r / |w_r| on body 1, w_r the part of w1 - w2 in the contact plane.
 * Regularisation (stated): the torque grows linearly, -mu_r R* P w_r / w_reg, while
 * |w_r| < w_reg, so that it vanishes at rest instead of flipping sign every step (the chatter
 * of the discontinuous form under explicit integration).  A body rolling at w > w_reg feels
 * the exact constant torque; the regularisation only changes the last w_reg of the stop (a
 * time ~ I w_reg / M_r). */
#include "gc_internal.h"

#include <math.h>

static int rolling_const(const gc_pair *pair, double *h, const gc_normal *no, const double nvec[3],
                         const double d_theta[3], const double w_rel[3], double M[3])
{
  (void)h, (void)d_theta;
  double wt[3];
  gc_vec_tangent(nvec, w_rel, wt);
  const double lim = pair->p.mu_r * gc_pair_R_star(pair) * (no->P > 0 ? no->P : 0.0);
  const double c =
      lim * gc_reg_factor(sqrt(wt[0] * wt[0] + wt[1] * wt[1] + wt[2] * wt[2]), pair->p.w_reg);
  for (int d = 0; d < 3; d++)
    M[d] = -c * wt[d];
  return isfinite(M[0] + M[1] + M[2]) ? GC_SUCCESS : GC_ENAN;
}

const gc_submodel gc_rolling_const = {
  .name = "const",
  .kind = GC_KIND_ROLLING,
  .flags = 0,
  .description = "constant torque M = -mu_r R* P w_r/|w_r|, linear below w_reg (type A, "
                 "Zhou et al. 1999)",
  .hist_size = 0,
  .params = { GC_PAR_MU_R, GC_PAR_W_REG, GC_NPAR },
  .torque = rolling_const,
};
