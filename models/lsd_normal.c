/* lsd_normal.c - normal sub-model "lsd": the linear spring of the linear spring-dashpot
 * contact (dissertation sec. 4.1, eq. 4.1): P = K_N alpha.  The dashpot C_N alpha_dot is the
 * damping sub-model "linear" (models/damping_linear.c). */
#include "gc_internal.h"

#include <math.h>

static int lsd_normal_step(const gc_pair *pair, double *h, double alpha, double alpha_dot,
                           gc_normal *out)
{
  (void)alpha_dot;
  const gc_params *p = &pair->p;
  gc_hist_normal *s = (gc_hist_normal *)h;
  if (!isfinite(alpha))
    return GC_ENAN;
  double P = alpha > 0 ? p->k_n * alpha : 0.0;
  out->P = P;
  out->a_e = out->a = out->a_p = 0.0;
  out->E_t = 0.0;
  out->k_n = p->k_n;
  out->k_t0 = p->k_t;
  out->plastic = 0;
  out->loading = alpha > s->alpha;
  gc_hist_record_normal(s, alpha, P);
  return GC_SUCCESS;
}

const gc_submodel gc_normal_lsd = {
  .name = "lsd",
  .kind = GC_KIND_NORMAL,
  .description = "linear spring P = K_N alpha (sec. 4.1, eq. 4.1)",
  .flags = GC_SUB_LINEAR,
  .hist_size = GC_HIST_NORMAL_SIZE,
  .params = { GC_PAR_K_N, GC_PAR_K_T, GC_NPAR },
  .normal = lsd_normal_step,
  .contact_time = gc_contact_time_linear,
};
