/* vqz.c - tangential sub-model "vqz": Vu-Quoc and Zhang improved TFD (ch. 5): the Walton-Braun
 * stiffness (eq. 4.7) while P is constant ("we use Walton and Braun [1986] TFD model for
 * loading cases with P constant", sec. 5.1), the transitions of Mindlin and Deresiewicz
 * (sec. 3.2.2, eq. 3.26-3.64) when P varies, and the rolling correction of sec. 5.2.  With
 * tfd_transitions = 0 it falls back to the constant-P stiffness of eq. 3.24 (the md law),
 * keeping the rolling correction.  The bookkeeping is in tfd_core.c. */
#include "tfd_core.h"

static int gc_vqz_tangential_step(const gc_pair *pair, double *h, const gc_normal *n,
                                  double d_delta, double delta_dot, double ds_roll,
                                  gc_tangential *out)
{
  (void)delta_dot;
  static const gc_tfd_config with = { GC_TFD_LAW_WB, 1, 1 };
  static const gc_tfd_config without = { GC_TFD_LAW_MD, 0, 1 };
  const gc_tfd_config *cfg = pair->p.tfd_transitions ? &with : &without;
  return gc_tfd_step(cfg, pair->p.mu, (gc_hist_tangential *)h, n, d_delta, ds_roll, out);
}

const gc_submodel gc_tangential_vqz = {
  .name = "vqz",
  .kind = GC_KIND_TANGENTIAL,
  .description = "Vu-Quoc-Zhang improved TFD for varying P with rolling correction (ch. 5, "
                 "eq. 3.26-3.64, 4.7, 5.5)",
  .hist_size = GC_HIST_TANGENTIAL_SIZE,
  .params = { GC_PAR_MU, GC_PAR_NU1, GC_PAR_TFD_TRANSITIONS, GC_NPAR },
  .tangential = gc_vqz_tangential_step,
};
