/* provenance.c - see provenance.h. */
#include "provenance.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include <sys/stat.h>

#include <zlib.h>

#include "cli.h"
#include "gc_model.h"

int gc_file_crc32(const char *path, unsigned long *crc, long long *size)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return GC_EIO;
  /* a pipe or device was read once already and may never end: no second, unbounded read */
  struct stat sb;
  if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) {
    fclose(f);
    return GC_EINVAL;
  }
  uLong c = crc32(0L, Z_NULL, 0);
  long long total = 0;
  unsigned char buf[65536];
  size_t got;
  while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
    c = crc32(c, buf, (uInt)got);
    total += (long long)got;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad)
    return GC_EIO;
  *crc = (unsigned long)c;
  *size = total;
  return GC_SUCCESS;
}

void gc_provenance_write(FILE *f, const char *prefix, int argc, char *const *argv,
                         const char *const *inputs, size_t n)
{
  fprintf(f, "%sgranucal %s\n", prefix, GC_VERSION);
  fprintf(f, "%scommand: granucal", prefix);
  for (int i = 0; i < argc; i++) {
    /* one line whatever the arguments hold */
    fputc(' ', f);
    for (const char *q = argv[i]; *q; q++)
      fputc(*q == '\n' || *q == '\r' ? ' ' : *q, f);
  }
  fputc('\n', f);
  time_t now = time(NULL);
  struct tm tm;
  char date[32] = "unknown";
  if (gmtime_r(&now, &tm))
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
  fprintf(f, "%sdate: %s\n", prefix, date);
  for (size_t i = 0; i < n; i++) {
    if (!inputs[i] || !*inputs[i])
      continue;
    unsigned long crc;
    long long size;
    if (gc_file_crc32(inputs[i], &crc, &size) == GC_SUCCESS)
      fprintf(f, "%sinput: %s (crc32 %08lx, %lld bytes)\n", prefix, inputs[i], crc, size);
    else
      fprintf(f, "%sinput: %s (not a regular file or unreadable: no checksum)\n", prefix,
              inputs[i]);
  }
}
