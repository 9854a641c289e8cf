/* none.c - the "none" row of each optional kind: no damping, frictionless (the tangential
 * displacement is still tracked, so that a simulator can report it), no rolling and no
 * twisting resistance.  They read no parameter and add no force. */
#include "gc_internal.h"

#include <math.h>

static int none_damping(const gc_pair *pair, gc_hist_normal *hn, double *h, double alpha,
                        double alpha_dot, gc_normal *out)
{
  (void)pair, (void)hn, (void)h, (void)alpha, (void)alpha_dot, (void)out;
  return GC_SUCCESS;
}

static int none_tangential(const gc_pair *pair, double *h, const gc_normal *n, double d_delta,
                           double delta_dot, double ds_roll, gc_tangential *out)
{
  (void)pair, (void)n, (void)delta_dot, (void)ds_roll;
  gc_hist_tangential *s = (gc_hist_tangential *)h;
  out->Q = out->K_T = 0.0;
  out->nonsimple = out->sliding = 0;
  s->delta += d_delta;
  out->delta = s->delta;
  return GC_SUCCESS;
}

static int none_torque(const gc_pair *pair, double *h, const gc_normal *no, const double nvec[3],
                       const double d_theta[3], const double w_rel[3], double M[3])
{
  (void)pair, (void)h, (void)no, (void)nvec, (void)d_theta, (void)w_rel;
  M[0] = M[1] = M[2] = 0.0;
  return GC_SUCCESS;
}

const gc_submodel gc_damping_none = {
  .name = "none",
  .kind = GC_KIND_DAMPING,
  .flags = GC_SUB_NONE,
  .description = "no damping",
  .hist_size = 0,
  .params = { GC_NPAR },
  .damping = none_damping,
};

const gc_submodel gc_tangential_none = {
  .name = "none",
  .kind = GC_KIND_TANGENTIAL,
  .flags = GC_SUB_NONE,
  .description = "frictionless (Q = 0; the tangential displacement is tracked)",
  .hist_size = GC_HIST_TANGENTIAL_SIZE,
  .params = { GC_NPAR },
  .tangential = none_tangential,
};

const gc_submodel gc_rolling_none = {
  .name = "none",
  .kind = GC_KIND_ROLLING,
  .flags = GC_SUB_NONE,
  .description = "no rolling resistance",
  .hist_size = 0,
  .params = { GC_NPAR },
  .torque = none_torque,
};

const gc_submodel gc_twisting_none = {
  .name = "none",
  .kind = GC_KIND_TWISTING,
  .flags = GC_SUB_NONE,
  .description = "no twisting resistance",
  .hist_size = 0,
  .params = { GC_NPAR },
  .torque = none_torque,
};
