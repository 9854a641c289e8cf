/* md.c - tangential sub-model "md" of the Mindlin-Deresiewicz family (pair it with a normal
 * sub-model, which supplies P, the contact radius a and K_T0 in gc_normal); vqz.c is its
 * Vu-Quoc-Zhang improvement:
 *   md:  Mindlin and Deresiewicz [1953] stiffness for a constant normal force (sec. 3.2.1,
 *        eq. 3.23-3.25): the four branches of eq. 3.24 with the current P, no transitions;
 *   vqz: Vu-Quoc and Zhang improved TFD (ch. 5): the Walton-Braun stiffness (eq. 4.7) while P is
 *        constant ("we use Walton and Braun [1986] TFD model for loading cases with P constant",
 *        sec. 5.1), the transitions of Mindlin and Deresiewicz (sec. 3.2.2, eq. 3.26-3.64) when P
 *        varies, and the rolling correction of sec. 5.2.  With tfd_transitions = 0 it falls back
 *        to the constant-P stiffness of eq. 3.24 (the md law), keeping the rolling correction.
 * The bookkeeping is in tfd_core.c. */
#include "tfd_core.h"

#include <math.h>
#include <stdio.h>

/* E1 is not read: K_T0 comes from the normal sub-model (E1 may be 0, "not given", with the
 * Walton-Braun normal model, whose K_T0 is eq. 4.8). */
static int gc_md_tangential_step(const gc_pair *pair, double *h, const gc_normal *n, double d_delta,
                                 double delta_dot, double ds_roll, gc_tangential *out)
{
  (void)delta_dot;
  (void)ds_roll;
  static const gc_tfd_config cfg = { GC_TFD_LAW_MD, 0, 0 };
  return gc_tfd_step(&cfg, pair->p.mu, (gc_hist_tangential *)h, n, d_delta, 0.0, out);
}

const gc_submodel gc_tangential_md = {
  .name = "md",
  .kind = GC_KIND_TANGENTIAL,
  .description = "Mindlin-Deresiewicz [1953] TFD for constant P (sec. 3.2.1, eq. 3.23-3.25)",
  .hist_size = GC_HIST_TANGENTIAL_SIZE,
  .params = { GC_PAR_MU, GC_PAR_NU1, GC_NPAR },
  .tangential = gc_md_tangential_step,
};
