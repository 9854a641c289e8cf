/* tangential_mindlin.c - tangential sub-model "mindlin": the Mindlin no-slip spring as the peer
 * codes write it (LAMMPS granular "tangential mindlin", Yade's Hertz-Mindlin, the Chung & Ooi
 * benchmark implementations): incremental Q += k_t d_delta with k_t = 8 G* a (eq. 3.25, the
 * K_T0 of the normal sub-model), Q capped at mu P (the stored force is set to the cap while
 * sliding); no damping, no Mindlin-Deresiewicz softening (that is md / vqz). */
#include "gc_internal.h"

#include <math.h>

static int mindlin_tangential_step(const gc_pair *pair, double *h, const gc_normal *n,
                                   double d_delta, double delta_dot, double ds_roll,
                                   gc_tangential *out)
{
  (void)delta_dot;
  (void)ds_roll;
  gc_hist_tangential *s = (gc_hist_tangential *)h;
  if (!isfinite(d_delta))
    return GC_ENAN;
  int sliding;
  double Q = gc_spring_coulomb(s, pair->p.mu * n->P, n->k_t0, d_delta, &sliding);
  gc_spring_finish(s, Q, n->k_t0, sliding, out);
  return GC_SUCCESS;
}

const gc_submodel gc_tangential_mindlin = {
  .name = "mindlin",
  .kind = GC_KIND_TANGENTIAL,
  .description = "Mindlin no-slip spring k_t = 8 G* a (eq. 3.25), incremental, Coulomb cap "
                 "(as LAMMPS/Yade)",
  .hist_size = GC_HIST_TANGENTIAL_SIZE,
  .params = { GC_PAR_MU, GC_NPAR },
  .tangential = mindlin_tangential_step,
};
