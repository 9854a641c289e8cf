/* gc_test.c - helpers shared by the CUnit suites. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gc_test.h"

char *gc_test_write_tmp(const char *text)
{
  static const char templ[] = "/tmp/granucal-test-XXXXXX";
  char *path = malloc(sizeof templ);
  CU_ASSERT_PTR_NOT_NULL_FATAL(path);
  memcpy(path, templ, sizeof templ);
  int fd = mkstemp(path);
  CU_ASSERT_FATAL(fd >= 0);
  FILE *f = fdopen(fd, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fputs(text, f);
  fclose(f);
  return path;
}
