/* hertz.c - normal sub-model "hertz": Hertz elastic contact (dissertation sec. 3.1,
 * eq. 3.6-3.7).  Pair it with a damping (tsuji) and a tangential sub-model (md, vqz). */
#include "gc_internal.h"

static int hertz_normal_step(const gc_pair *pair, double *h, double alpha, double alpha_dot,
                             gc_normal *out)
{
  (void)alpha_dot;
  return gc_hertz_normal_step(pair, (gc_hist_normal *)h, alpha, out);
}

const gc_submodel gc_normal_hertz = {
  .name = "hertz",
  .kind = GC_KIND_NORMAL,
  .description = "Hertz elastic normal contact (sec. 3.1, eq. 3.6-3.7)",
  .flags = 0,
  .hist_size = GC_HIST_NORMAL_SIZE,
  .params = { GC_PARAMS_ELASTIC, GC_NPAR },
  .check = gc_check_elastic,
  .normal = hertz_normal_step,
  .contact_time = gc_contact_time_hertz,
};
