/* lsd_tangential.c - tangential sub-model "lsd": linear spring-dashpot with a Coulomb limit
 * (dissertation sec. 4.1, eq. 4.2): Q = min(K_T delta + C_T delta_dot, mu P), with the spring
 * slipping at the friction limit (the spring force is kept at mu P while sliding, so that the
 * spring does not store displacement that friction has already dissipated). */
#include "gc_internal.h"

static int lsd_tangential_step(const gc_pair *pair, double *h, const gc_normal *n, double d_delta,
                               double delta_dot, double ds_roll, gc_tangential *out)
{
  const gc_params *p = &pair->p;
  (void)ds_roll;
  return gc_spring_dashpot_step((gc_hist_tangential *)h, p->mu * n->P, p->k_t, p->c_t, d_delta,
                                delta_dot, out);
}

const gc_submodel gc_tangential_lsd = {
  .name = "lsd",
  .kind = GC_KIND_TANGENTIAL,
  .description = "linear spring-dashpot with Coulomb limit (sec. 4.1, eq. 4.2)",
  .hist_size = GC_HIST_TANGENTIAL_SIZE,
  .params = { GC_PAR_K_T, GC_PAR_C_T, GC_PAR_MU, GC_NPAR },
  .tangential = lsd_tangential_step,
};
