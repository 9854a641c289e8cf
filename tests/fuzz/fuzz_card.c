/* fuzz_card.c - libFuzzer target: material cards / parameter files (gc_card_read) and the
 * contact law built from them.  Accepted values are finite; a law that initialises has finite
 * pair constants. */
#include <math.h>

#include "fuzz_common.h"
#include "gc_io.h"
#include "gc_model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const char *path = gc_fuzz_file("in.card", data, size);
  gc_params p;
  gc_card_extra x;
  char msg[512];
  gc_params_default(&p);
  gc_card_extra_default(&x);
  if (gc_card_read(path, &p, &x, msg, sizeof msg) != GC_SUCCESS) {
    if (!msg[0])
      abort();
    return 0;
  }
  const double *v = (const double *)&p;
  for (size_t i = 0; i < offsetof(gc_params, reload) / sizeof(double); i++)
    if (!isfinite(v[i]))
      abort();
  const gc_preset *nfd = gc_preset_lookup(x.nfd[0] ? x.nfd : "ep");
  const gc_preset *tfd = x.tfd[0] ? gc_preset_lookup(x.tfd) : NULL;
  gc_law law;
  if (nfd && (!x.tfd[0] || tfd) &&
      gc_law_init_preset(&law, nfd, tfd, &p, msg, sizeof msg) == GC_SUCCESS) {
    if (!isfinite(law.pair.E_star) || !isfinite(law.pair.P_Y))
      abort();
    double h[GC_HIST_MAX];
    gc_law_history_init(&law, h);
    gc_normal out;
    (void)gc_law_normal(&law, h, 1e-6, 0.1, &out);
  }
  return 0;
}
