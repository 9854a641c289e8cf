/* twisting_spring.c - twisting (torsional) resistance as a spring-slider about the contact
 * normal, with the constants of Marshall (2009) that LAMMPS's "twisting marshall" uses: the
 * torsion of a Hertz contact circle of radius a carrying the tangential stiffness K_T0 over
 * its area, k_tw = K_T0 a^2 / 2, and full slip of the circle at the Coulomb limit,
 * |M_tw| <= (2/3) mu a P (Lubkin 1951: uniform pressure gives 2/3, the Hertz pressure 3 pi/16;
 * LAMMPS takes 2/3).  No dashpot.  M_tw <- M_tw - k_tw dtheta_n, then the slider.
 * Elastic limit twist: theta_e = (2/3) mu a P / (K_T0 a^2 / 2) = 4 mu P / (3 a K_T0).
 * Needs a contact radius: with the linear (lsd) normal model a = 0 and the torque is 0.
 * History: the scalar torque along the contact normal (1 double). */
#include "gc_internal.h"

#include <math.h>

static int twisting_spring(const gc_pair *pair, double *h, const gc_normal *no,
                           const double nvec[3], const double d_theta[3], const double w_rel[3],
                           double M[3])
{
  (void)w_rel;
  const double k_tw = 0.5 * no->k_t0 * no->a * no->a;
  double m = h[0] - k_tw * gc_vec_normal(nvec, d_theta);
  const double lim = 2.0 / 3.0 * pair->p.mu * no->a * (no->P > 0 ? no->P : 0.0);
  if (fabs(m) > lim)
    m = m > 0 ? lim : -lim;
  h[0] = m;
  for (int d = 0; d < 3; d++)
    M[d] = m * nvec[d];
  return isfinite(m) ? GC_SUCCESS : GC_ENAN;
}

const gc_submodel gc_twisting_spring = {
  .name = "spring",
  .kind = GC_KIND_TWISTING,
  .flags = 0,
  .description = "spring-slider about the normal, k_tw = K_T0 a^2/2, |M| <= (2/3) mu a P "
                 "(Marshall 2009, LAMMPS 'marshall')",
  .hist_size = 1,
  .params = { GC_PAR_MU, GC_NPAR },
  .torque = twisting_spring,
};
