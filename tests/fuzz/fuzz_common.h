/* fuzz_common.h - shared by the libFuzzer targets: the fuzz input as a file (the readers take
 * paths), written to a scratch directory made once per process. */
#ifndef GC_FUZZ_COMMON_H
#define GC_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Write data to DIR/name (DIR made once) and return the path (static buffer). */
static inline const char *gc_fuzz_file(const char *name, const uint8_t *data, size_t size)
{
  static char dir[256], path[512];
  if (!dir[0]) {
    const char *t = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/gcfuzzXXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(dir))
      abort();
  }
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
    abort();
  return path;
}

#endif
