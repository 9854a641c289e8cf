/* damping_hunt_crossley.c - damping sub-model "hunt_crossley": the dissipative force of Hunt &
 * Crossley (1975) on top of any normal spring P_el(alpha) (seed 000, eq. 3, after Lankarani &
 * Nikravesh 1994):
 *   P = P_el (1 + 3/2 alpha_c alpha_dot),
 * with alpha_c [s/m]; the seed's form K delta^n (1 + 3 (1 - e^2) / (4 delta_dot_0) delta_dot)
 * is alpha_c = (1 - e^2) / (2 v_0).  The damping vanishes with the overlap, so the force is
 * continuous at the start and end of a contact.  For an elastic force P_el = k alpha^n, m v dv =
 * -k alpha^n (1 + lambda v) dalpha (lambda = 3/2 alpha_c) integrates to the exact restitution
 *   lambda v0 - ln(1 + lambda v0) = -lambda v1 - ln(1 - lambda v1),  e = v1 / v0,
 * whatever n, k and m: e ~ 1 - alpha_c v0 for small alpha_c v0 (Hunt & Crossley's law); and
 * 1 - lambda v stays > 0, so the force never pulls (tension is not an option here). */
#include "gc_internal.h"

#include <math.h>

static int hunt_crossley_damping(const gc_pair *pair, gc_hist_normal *hn, double *h, double alpha,
                                 double alpha_dot, gc_normal *out)
{
  (void)h;
  if (!isfinite(alpha_dot))
    return GC_ENAN;
  if (alpha > 0) {
    double P = out->P * (1.0 + 1.5 * pair->p.alpha_c * alpha_dot);
    out->P = P > 0 ? P : 0.0; /* only for a discrete step far outside the law's range */
    gc_hist_record_normal(hn, alpha, out->P);
  }
  return GC_SUCCESS;
}

const gc_submodel gc_damping_hunt_crossley = {
  .name = "hunt_crossley",
  .kind = GC_KIND_DAMPING,
  .description = "Hunt & Crossley (1975) P_el (1 + 3/2 alpha_c alpha_dot), e ~ 1 - alpha_c v "
                 "(seed 000 eq. 3)",
  .hist_size = 0,
  .params = { GC_PAR_ALPHA_C, GC_NPAR },
  .damping = hunt_crossley_damping,
};
