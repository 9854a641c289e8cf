/* damping_linear.c - damping sub-model "linear": the dashpot of the linear spring-dashpot
 * contact (dissertation sec. 4.1, eq. 4.1), P = K_N alpha + C_N alpha_dot.  A dashpot can pull
 * the bodies together at the end of a contact; a contact cannot transmit tension, so P is
 * clipped at 0 (tension = 0, the default) unless tension = 1. */
#include "gc_internal.h"

#include <math.h>

static int linear_damping(const gc_pair *pair, gc_hist_normal *hn, double *h, double alpha,
                          double alpha_dot, gc_normal *out)
{
  (void)h;
  if (!isfinite(alpha_dot))
    return GC_ENAN;
  if (alpha > 0) {
    double P = out->P + pair->p.c_n * alpha_dot;
    out->P = (P > 0 || pair->p.tension) ? P : 0.0;
    gc_hist_record_normal(hn, alpha, out->P);
  }
  return GC_SUCCESS;
}

const gc_submodel gc_damping_linear = {
  .name = "linear",
  .kind = GC_KIND_DAMPING,
  .description = "linear dashpot C_N alpha_dot (sec. 4.1, eq. 4.1)",
  .hist_size = 0,
  .params = { GC_PAR_C_N, GC_PAR_TENSION, GC_NPAR },
  .damping = linear_damping,
};
