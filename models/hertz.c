/* hertz.c - Hertz elastic normal contact (dissertation sec. 3.1, eq. 3.6-3.7).
 * Normal only: pair it with a tangential model (md, vqz). */
#include "gc_internal.h"

#include <math.h>

static int hertz_check(const gc_params *p, char *msg, size_t n)
{
  return gc_check_elastic(p, msg, n);
}

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

static int hertz_normal_step(const gc_pair *pair, gc_state *s, double alpha, double alpha_dot,
                             gc_normal *out)
{
  (void)alpha_dot;
  if (!isfinite(alpha))
    return GC_ENAN;
  gc_hertz_fill(pair, alpha, out);
  out->loading = alpha > s->alpha;
  gc_state_record_normal(s, alpha, out->P);
  return GC_SUCCESS;
}

const gc_model gc_model_hertz = {
  .name = "hertz",
  .description = "Hertz elastic normal contact (sec. 3.1, eq. 3.6-3.7)",
  .flags = GC_MODEL_NORMAL,
  .check = hertz_check,
  .setup = NULL,
  .normal_step = hertz_normal_step,
  .tangential_step = NULL,
};
