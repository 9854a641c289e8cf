/* fuzz_csv.c - libFuzzer target: the CSV table reader (gc_table_read) and the load-path reader
 * built on it.  Any input must give a table or an error message, never a crash or a sanitizer
 * report; an accepted table holds only finite numbers and distinct column names. */
#include <math.h>

#include "contact_sim.h"
#include "fuzz_common.h"
#include "gc_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const char *path = gc_fuzz_file("in.csv", data, size);
  gc_table t;
  char msg[512];
  if (gc_table_read(path, &t, msg, sizeof msg) == GC_SUCCESS) {
    for (size_t i = 0; i < t.nrows * t.ncols; i++)
      if (!isfinite(t.v[i]))
        abort();
    for (size_t i = 0; i < t.ncols; i++)
      for (size_t j = 0; j < i; j++)
        if (strcmp(t.names[i], t.names[j]) == 0)
          abort();
    gc_table_free(&t);
  } else if (!msg[0]) {
    abort(); /* an error without a message */
  }
  gc_loadpath lp;
  if (gc_loadpath_read(path, &lp, msg, sizeof msg) == GC_SUCCESS)
    gc_loadpath_free(&lp);
  return 0;
}
