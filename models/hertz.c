/* hertz.c - normal sub-model "hertz": Hertz elastic contact (dissertation sec. 3.1,
 * eq. 3.6-3.7).  Pair it with a damping (tsuji) and a tangential sub-model (md, vqz). */
#include "gc_internal.h"

#include <math.h>

/* Shared by every Hertz-based model: force, contact radius and K_T0 (eq. 3.25) at overlap
 * alpha.  P = (4/3) E* sqrt(R*) alpha^(3/2), a = sqrt(R* alpha). */
void gc_hertz_fill(const gc_pair *pair, double alpha, gc_normal *out)
{
  double x = alpha > 0 ? alpha : 0.0;
  double a = sqrt(pair->R_star * x);
  out->P = pair->k_hertz * x * sqrt(x);
  out->a_e = a;
  out->a_p = 0.0;
  out->a = a;
  out->E_t = pair->E_star;
  out->k_n = 1.5 * pair->k_hertz * sqrt(x); /* dP/dalpha = 2 E* a */
  out->k_t0 = gc_k_t0(pair, a, pair->E_star);
  out->plastic = 0;
}

static int hertz_normal_step(const gc_pair *pair, double *h, double alpha, double alpha_dot,
                             gc_normal *out)
{
  (void)alpha_dot;
  gc_hist_normal *s = (gc_hist_normal *)h;
  if (!isfinite(alpha))
    return GC_ENAN;
  gc_hertz_fill(pair, alpha, out);
  out->loading = alpha > s->alpha;
  gc_hist_record_normal(s, alpha, out->P);
  return GC_SUCCESS;
}

const gc_submodel gc_normal_hertz = {
  .name = "hertz",
  .kind = GC_KIND_NORMAL,
  .description = "Hertz elastic normal contact (sec. 3.1, eq. 3.6-3.7)",
  .flags = 0,
  .hist_size = GC_HIST_NORMAL_SIZE,
  .params = { GC_PARAMS_ELASTIC, GC_NPAR },
  .check = gc_check_elastic,
  .normal = hertz_normal_step,
  .contact_time = gc_contact_time_hertz,
};
