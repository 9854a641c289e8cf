/* rolling_spring.c - elastic-plastic spring rolling resistance (type C of Ai et al. 2011 without
 * the dashpot), as written down for Yade in seed 004 (Kozicki 2009, "DEM equations") with its
 * sign errors corrected.
 *
 * Seed 004: K_r = beta R_A R_B K_s, M = K_r Dw (the relative rotation since the contact began),
 * |M| <= eta (R_A + R_B)/2 |F_n|, M_A -= M, M_B += M.  What granucal does instead, and why:
 *  - its normal N = (X_A - X_B)/|X_A - X_B| points from B to A, so the contact point is
 *    X_A - (R_A - U/2) N (not +), the lever arms of the contact-point velocities are -R_A N on
 *    A and +R_B N on B (the seed swaps both signs), and the repulsive force acts as +F on A and
 *    -F on B (the seed's F_A -= F_n + F_s pulls the spheres together).  The simulators build
 *    their own geometry (src/chute.c, src/impact_sim.c); this model only sees the relative
 *    rotation w1 - w2 and returns the torque on body 1, M1 = -K_r dtheta, i.e. against body 1's
 *    rotation relative to body 2;
 *  - the seed caps the TOTAL rotation spring, which forgets the plastic rotation: after a
 *    slip, reversing the rotation would keep the torque at its limit until the whole rotation
 *    is undone.  Here the spring is incremental with a slider (as the tangential force,
 *    eq. 4.20-4.21): M <- M - K_r dtheta_t, then |M| <= mu_r R* P, so the plastic rotation is
 *    forgotten and reversal unloads elastically at once;
 *  - R_A R_B and (R_A + R_B)/2 become R*^2 and R* (finite for a sphere on a plane, R_B = inf):
 *    K_r = beta_r R*^2 K_T0 (K_T0 the tangential stiffness the normal model implies, eq. 3.25,
 *    in place of the seed's K_s), |M| <= mu_r R* P.
 * Elastic limit rotation: theta_e = mu_r R* P / K_r = mu_r / (beta_r R* K_T0) P.
 * History: the torque vector on body 1 (3 doubles, space axes), carried into the current
 * contact plane with its magnitude kept, as the chute carries Q. */
#include "gc_internal.h"

#include <math.h>

static int rolling_spring(const gc_pair *pair, double *h, const gc_normal *no, const double nvec[3],
                          const double d_theta[3], const double w_rel[3], double M[3])
{
  (void)w_rel;
  const double Rs = gc_pair_R_star(pair);
  const double K_r = pair->p.beta_r * Rs * Rs * no->k_t0;
  double m_old = sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]), Mt[3], dt[3];
  gc_vec_tangent(nvec, h, Mt);
  double m_t = sqrt(Mt[0] * Mt[0] + Mt[1] * Mt[1] + Mt[2] * Mt[2]);
  double f = m_t > 0 ? m_old / m_t : 0.0;
  gc_vec_tangent(nvec, d_theta, dt);
  for (int d = 0; d < 3; d++)
    M[d] = f * Mt[d] - K_r * dt[d];
  double m = sqrt(M[0] * M[0] + M[1] * M[1] + M[2] * M[2]);
  double lim = pair->p.mu_r * Rs * (no->P > 0 ? no->P : 0.0);
  if (m > lim) {
    double c = m > 0 ? lim / m : 0.0;
    for (int d = 0; d < 3; d++)
      M[d] *= c;
  }
  for (int d = 0; d < 3; d++)
    h[d] = M[d];
  return isfinite(M[0] + M[1] + M[2]) ? GC_SUCCESS : GC_ENAN;
}

const gc_submodel gc_rolling_spring = {
  .name = "spring",
  .kind = GC_KIND_ROLLING,
  .flags = 0,
  .description = "elastic-plastic spring, K_r = beta_r R*^2 K_T0, |M| <= mu_r R* P (seed 004, "
                 "corrected)",
  .hist_size = 3,
  .params = { GC_PAR_MU_R, GC_PAR_BETA_R, GC_NPAR },
  .torque = rolling_spring,
};
