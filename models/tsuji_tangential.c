/* tsuji_tangential.c - tangential sub-model "tsuji": the Mindlin no-slip spring
 * k_t = 8 G* a (eq. 3.25, K_T0 of the normal sub-model) with the damping law of the "tsuji"
 * damping sub-model (models/damping_tsuji.c) and a Coulomb limit, as DEM codes write
 * Hertz-Mindlin with restitution damping. */
#include "gc_internal.h"

static int tsuji_tangential_step(const gc_pair *pair, double *h, const gc_normal *n, double d_delta,
                                 double delta_dot, double ds_roll, gc_tangential *out)
{
  (void)ds_roll;
  return gc_tsuji_tangential_step(pair, (gc_hist_tangential *)h, n, d_delta, delta_dot, out);
}

const gc_submodel gc_tangential_tsuji = {
  .name = "tsuji",
  .kind = GC_KIND_TANGENTIAL,
  .description = "Mindlin no-slip spring 8 G* a with Tsuji damping and Coulomb limit",
  .hist_size = GC_HIST_TANGENTIAL_SIZE,
  .params = { GC_PAR_MU, GC_PAR_E_N, GC_PAR_M_EFF, GC_NPAR },
  .setup = gc_tsuji_setup,
  .tangential = tsuji_tangential_step,
};
