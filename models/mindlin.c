/* mindlin.c - tangential-only models of the Mindlin-Deresiewicz family (pair them with a normal
 * model, which supplies P, the contact radius a and K_T0 in gc_normal):
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

/* K_T0 comes from the normal model, so E1 is not needed here; it may be 0 ("not given", e.g.
 * with the Walton-Braun normal model, whose K_T0 is eq. 4.8) but not negative or non-finite. */
static int gc_mindlin_check(const gc_params *p, char *msg, size_t n)
{
  int st = gc_tfd_check_mu(p, msg, n);
  if (st)
    return st;
  if (!(p->nu1 > -1.0 && p->nu1 < 0.5)) {
    if (msg && n)
      snprintf(msg, n, "nu1 = %g out of range (-1, 0.5)", p->nu1);
    return GC_EINVAL;
  }
  if (!(p->E1 >= 0.0) || !isfinite(p->E1)) {
    if (msg && n)
      snprintf(msg, n, "E1 = %g out of range (0, inf) Pa (or 0 if the normal model has none)",
               p->E1);
    return GC_EINVAL;
  }
  return GC_SUCCESS;
}

static int gc_vqz_check(const gc_params *p, char *msg, size_t n)
{
  int st = gc_mindlin_check(p, msg, n);
  if (st)
    return st;
  return gc_tfd_check_transitions(p, msg, n);
}

static int gc_md_tangential_step(const gc_pair *pair, gc_state *s, const gc_normal *n,
                                 double d_delta, double delta_dot, double ds_roll,
                                 gc_tangential *out)
{
  (void)delta_dot;
  (void)ds_roll;
  static const gc_tfd_config cfg = { GC_TFD_LAW_MD, 0, 0 };
  return gc_tfd_step(&cfg, pair->p.mu, s, n, d_delta, 0.0, out);
}

static int gc_vqz_tangential_step(const gc_pair *pair, gc_state *s, const gc_normal *n,
                                  double d_delta, double delta_dot, double ds_roll,
                                  gc_tangential *out)
{
  (void)delta_dot;
  static const gc_tfd_config with = { GC_TFD_LAW_WB, 1, 1 };
  static const gc_tfd_config without = { GC_TFD_LAW_MD, 0, 1 };
  const gc_tfd_config *cfg = pair->p.tfd_transitions ? &with : &without;
  return gc_tfd_step(cfg, pair->p.mu, s, n, d_delta, ds_roll, out);
}

const gc_model gc_model_md = {
  .name = "md",
  .description = "Mindlin-Deresiewicz [1953] TFD for constant P (sec. 3.2.1, eq. 3.23-3.25)",
  .flags = GC_MODEL_TANGENTIAL,
  .check = gc_mindlin_check,
  .setup = NULL,
  .normal_step = NULL,
  .tangential_step = gc_md_tangential_step,
};

const gc_model gc_model_vqz = {
  .name = "vqz",
  .description = "Vu-Quoc-Zhang improved TFD for varying P with rolling correction (ch. 5, "
                 "eq. 3.26-3.64, 4.7, 5.5)",
  .flags = GC_MODEL_TANGENTIAL,
  .check = gc_vqz_check,
  .setup = NULL,
  .normal_step = NULL,
  .tangential_step = gc_vqz_tangential_step,
};
