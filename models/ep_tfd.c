/* ep_tfd.c - tangential sub-model "ep": Vu-Quoc and Zhang elasto-plastic tangential model (dissertation ch. 8,
 * Algorithm 8.1, eq. 8.2-8.6), the tangential part of the "ep" model.
 *
 * Plastic deformation enters the TFD only through the initial stiffness (sec. 8.1):
 *   K_T0 = 4 a_ep (E*)_ep (1-nu)/(2-nu)                                          (eq. 8.5)
 *   (E*)_ep = 3 P C_R(P) R* / (4 a_ep^3)       while P increases               (eq. 8.3)
 *   (E*)_ep = 3 P C_R(P_max) R* / (4 a_e^3)    while P is constant or decreases (eq. 8.6)
 * and the EP normal model (models/ep_nfd.c) evaluates them into gc_normal.k_t0.  Below the
 * yield force they reduce to eq. 3.25 (Alg. 8.1 lines 17-18, 39-40, 73-74).  "The shape of the
 * TFD curves obtained from elasto-plastic FEA is similar to that obtained from [MD] and from the
 * [VQZ 1998a] TFD model; we employ the same procedure as described in Chapter 5" (sec. 8.2), so
 * the bookkeeping is that of vqz (the same bookkeeping as the improved TFD of ch. 5): the
 * turning point, the transitions of eq. 3.26-3.64 when P varies, non-simple steps, the friction
 * limit and the rolling correction with a = a_ep.
 *
 * Ambiguity: Algorithm 8.1 cites eq. 3.24 for the steps with P constant (lines 25, 32), while
 * ch. 5 uses the Walton-Braun stiffness eq. 4.7 there.  We follow ch. 5 (eq. 4.7), which keeps
 * ep identical to vqz for an elastic contact with constant P; the seed states that both give
 * similar results for constant P (sec. 4.2.2).  With tfd_transitions = 0
 * the constant-P stiffness of eq. 3.24 is used without transitions, as the parameter documents. */
#include "tfd_core.h"

static int gc_ep_tfd_step(const gc_pair *pair, double *h, const gc_normal *n, double d_delta,
                          double delta_dot, double ds_roll, gc_tangential *out)
{
  gc_hist_tangential *s = (gc_hist_tangential *)h;
  (void)delta_dot;
  if (!pair)
    return GC_EINVAL;
  static const gc_tfd_config with = { GC_TFD_LAW_WB, 1, 1 };
  static const gc_tfd_config without = { GC_TFD_LAW_MD, 0, 1 };
  const gc_tfd_config *cfg = pair->p.tfd_transitions ? &with : &without;
  return gc_tfd_step(cfg, pair->p.mu, s, n, d_delta, ds_roll, out);
}

const gc_submodel gc_tangential_ep = {
  .name = "ep",
  .kind = GC_KIND_TANGENTIAL,
  .description = "Vu-Quoc-Zhang elasto-plastic TFD (ch. 8, Alg. 8.1, eq. 8.2-8.6)",
  .hist_size = GC_HIST_TANGENTIAL_SIZE,
  .params = { GC_PAR_MU, GC_PAR_TFD_TRANSITIONS, GC_NPAR },
  .tangential = gc_ep_tfd_step,
};
