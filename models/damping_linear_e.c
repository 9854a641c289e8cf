/* damping_linear_e.c - damping sub-model "linear_e": the dashpot of the linear spring-dashpot
 * contact (eq. 4.1) with C_N set from the restitution coefficient e_n exactly:
 * C_N = 2 zeta sqrt(m* K_N), zeta the root of e(zeta) = e_n (models/restitution.c).
 *   tension = 1: e = exp(-pi zeta / sqrt(1 - zeta^2)), i.e. the textbook
 *                zeta = -ln e / sqrt(ln^2 e + pi^2);
 *   tension = 0 (default, force clipped at 0): the contact ends where K_N alpha + C_N alpha_dot
 *                = 0, before the overlap vanishes; with w = sqrt(1 - zeta^2) and
 *                th = atan2(2 zeta w, 2 zeta^2 - 1),
 *                e = -exp(-zeta th / w) (cos th - (zeta / w) sin th)  (zeta < 1; e(1) = e^-2;
 *                the overdamped branch zeta > 1 is needed for e_n < 0.135).
 * Pair it with the linear normal spring "lsd" (it reads k_n). */
#include "gc_internal.h"

#include <math.h>
#include <stdio.h>

static int linear_e_setup(gc_pair *pair, char *msg, size_t n)
{
  double zeta;
  int st = gc_damping_linear_zeta(pair->p.e_n, pair->p.tension, &zeta);
  if (st) {
    snprintf(msg, n, "e_n = %g: cannot invert the linear restitution e(zeta): %s", pair->p.e_n,
             gc_strerror(st));
    return st;
  }
  pair->c_damp = 2.0 * zeta * sqrt(pair->p.m_eff * pair->p.k_n);
  return GC_SUCCESS;
}

static int linear_e_damping(const gc_pair *pair, gc_hist_normal *hn, double *h, double alpha,
                            double alpha_dot, gc_normal *out)
{
  (void)h;
  if (!isfinite(alpha_dot))
    return GC_ENAN;
  if (alpha > 0) {
    double P = out->P + pair->c_damp * alpha_dot;
    out->P = (P > 0 || pair->p.tension) ? P : 0.0;
    gc_hist_record_normal(hn, alpha, out->P);
  }
  return GC_SUCCESS;
}

const gc_submodel gc_damping_linear_e = {
  .name = "linear_e",
  .kind = GC_KIND_DAMPING,
  .description = "linear dashpot 2 zeta sqrt(m* K_N) from e_n, exact with or without tension "
                 "(eq. 4.1)",
  .hist_size = 0,
  .params = { GC_PAR_E_N, GC_PAR_M_EFF, GC_PAR_K_N, GC_PAR_TENSION, GC_NPAR },
  .setup = linear_e_setup,
  .damping = linear_e_damping,
};
