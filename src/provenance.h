/* provenance.h - where an output came from: the granucal version, the command line, the date
 * (UTC) and the CRC-32 (zlib) and size of every input file.  Written into parameter files,
 * fit reports and chute output directories so that a result can be traced and reproduced. */
#ifndef GC_PROVENANCE_H
#define GC_PROVENANCE_H

#include <stddef.h>
#include <stdio.h>

/* CRC-32 (zlib's crc32, the checksum of gzip and PNG; `crc32 FILE` or `gzip -l` show the same
 * value) and size of a file.  GC_EIO if it cannot be read, GC_EINVAL if it is not a regular
 * file (a pipe or device, which may not end or give the same bytes twice). */
int gc_file_crc32(const char *path, unsigned long *crc, long long *size);

/* Lines "<prefix>granucal VERSION", "<prefix>command: granucal ARGS", "<prefix>date: ...Z",
 * and "<prefix>input: PATH (crc32 XXXXXXXX, N bytes)" for each of the n inputs (NULL or ""
 * entries are skipped; an unreadable one says so).  argv[0] is the subcommand's name. */
void gc_provenance_write(FILE *f, const char *prefix, int argc, char *const *argv,
                         const char *const *inputs, size_t n);

#endif
