/* wb_tangential.c - tangential sub-model "wb" of the Walton and Braun [1986] contact model
 * (dissertation sec. 4.2): Q_{n+1} = Q_n + K_T dδ (eq. 4.6) with the two-branch stiffness of
 * eq. 4.7, the turning point Q* reset at reversals only (Remark 4.1), the friction limit
 * |Q| <= mu P and K_T0 from the normal sub-model (eq. 4.8 with "wb"). */
#include "tfd_core.h"

/* eq. 4.6-4.7 with the friction limit; no varying-P transitions, no rolling correction (those
 * are the improvements of ch. 5, model vqz). */
static int gc_wb_tangential_step(const gc_pair *pair, double *h, const gc_normal *n, double d_delta,
                                 double delta_dot, double ds_roll, gc_tangential *out)
{
  (void)delta_dot;
  (void)ds_roll;
  static const gc_tfd_config cfg = { GC_TFD_LAW_WB, 0, 0 };
  return gc_tfd_step(&cfg, pair->p.mu, (gc_hist_tangential *)h, n, d_delta, 0.0, out);
}

const gc_submodel gc_tangential_wb = {
  .name = "wb",
  .kind = GC_KIND_TANGENTIAL,
  .description = "Walton-Braun [1986] turning-point TFD (sec. 4.2, eq. 4.6-4.7)",
  .hist_size = GC_HIST_TANGENTIAL_SIZE,
  .params = { GC_PAR_MU, GC_NPAR },
  .tangential = gc_wb_tangential_step,
};
