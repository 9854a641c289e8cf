/* fuzz_common.h - shared by the libFuzzer targets: the fuzz input as a file (the readers take
 * paths), written to a scratch directory made once per process; a command run with its standard
 * error captured, and the check that a successful run printed no NaN. */
#ifndef GC_FUZZ_COMMON_H
#define GC_FUZZ_COMMON_H

#include <ctype.h>
#include <fcntl.h>
#include <sanitizer/common_interface_defs.h>
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

/* 1 if the n bytes of s hold "nan" as a word (printf's nan, -nan, NAN) */
static inline int gc_fuzz_has_nan(const char *s, size_t n)
{
  for (size_t i = 0; i + 3 <= n; i++)
    if (tolower((unsigned char)s[i]) == 'n' && tolower((unsigned char)s[i + 1]) == 'a' &&
        tolower((unsigned char)s[i + 2]) == 'n' && (i == 0 || !isalpha((unsigned char)s[i - 1])) &&
        (i + 3 == n || !isalpha((unsigned char)s[i + 3])))
      return 1;
  return 0;
}

/* Standard error of a command run, captured in the scratch file stderr.txt; sanitizer reports go
 * to the real standard error. */
typedef struct {
  int capture_fd, real_stderr;
} gc_fuzz_capture;

/* Set up the capture (once, from LLVMFuzzerInitialize); returns the capture file's path. */
static inline const char *gc_fuzz_capture_init(gc_fuzz_capture *c)
{
  const char *path = gc_fuzz_file("stderr.txt", NULL, 0);
  c->capture_fd = open(path, O_RDWR | O_TRUNC);
  c->real_stderr = dup(STDERR_FILENO);
  if (c->real_stderr < 0 || c->capture_fd < 0)
    abort();
  __sanitizer_set_report_fd((void *)(intptr_t)c->real_stderr);
  return path;
}

/* Run cmd with its standard error captured; an exit status other than 0, 1 or 2 is a finding. */
static inline int gc_fuzz_capture_run(const gc_fuzz_capture *c, const char *target,
                                      int (*cmd)(int, char **), int argc, char **argv)
{
  fflush(stderr);
  if (ftruncate(c->capture_fd, 0) != 0 || lseek(c->capture_fd, 0, SEEK_SET) != 0 ||
      dup2(c->capture_fd, STDERR_FILENO) < 0)
    abort();
  int rc = cmd(argc, argv);
  fflush(stderr);
  if (dup2(c->real_stderr, STDERR_FILENO) < 0)
    abort();
  if (rc < 0 || rc > 2) {
    fprintf(stderr, "%s: exit status %d\n", target, rc);
    abort();
  }
  return rc;
}

/* A finding if the captured standard error of the last run holds a NaN. */
static inline void gc_fuzz_capture_no_nan(const gc_fuzz_capture *c, const char *target)
{
  off_t n = lseek(c->capture_fd, 0, SEEK_END);
  char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (!text || pread(c->capture_fd, text, (size_t)n, 0) != (ssize_t)n)
    abort();
  text[n] = 0;
  if (gc_fuzz_has_nan(text, (size_t)n)) {
    fprintf(stderr, "%s: exit 0 with a NaN printed:\n%s\n", target, text);
    abort();
  }
  free(text);
}

#endif
