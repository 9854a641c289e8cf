/* normal_example.c - normal sub-model "example": the Hertz curve (sec. 3.1, eq. 3.6-3.7)
 * through its own table row, to show what a new normal sub-model takes. */
#include "gc_internal.h"

static int example_normal_step(const gc_pair *pair, double *h, double alpha, double alpha_dot,
                               gc_normal *out)
{
  (void)alpha_dot;
  return gc_hertz_normal_step(pair, (gc_hist_normal *)h, alpha, out);
}

const gc_submodel gc_normal_example = {
  .name = "example",
  .kind = GC_KIND_NORMAL,
  .description = "Hertz elastic contact again, as an example of a new sub-model",
  .hist_size = GC_HIST_NORMAL_SIZE,
  .params = { GC_PARAMS_ELASTIC, GC_NPAR },
  .check = gc_check_elastic,
  .normal = example_normal_step,
  .contact_time = gc_contact_time_hertz,
};
