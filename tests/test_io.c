/* test_io.c - input files: bad CSV and card input gives an error naming file:line:column and
 * the problem; good input round-trips. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "contact_sim.h"
#include "gc_io.h"
#include "gc_test.h"

/* Reading `text` as a table fails, and the message holds "FILE:expect". */
static void expect_table_error(const char *text, const char *expect)
{
  char *path = gc_test_write_tmp(text);
  gc_table t;
  char msg[512] = "", want[600];
  CU_ASSERT_NOT_EQUAL(gc_table_read(path, &t, msg, sizeof msg), GC_SUCCESS);
  snprintf(want, sizeof want, "%s:%s", path, expect);
  if (!strstr(msg, want))
    fprintf(stderr, "\n  message '%s' lacks '%s'\n", msg, want);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, want));
  remove(path);
  free(path);
}

static void test_table_errors(void)
{
  expect_table_error("t [s],P [N]\n0,0\n1,abc\n", "3:2: column 'P'");
  expect_table_error("t,P\n0,0\n1,nan\n", "3:2");
  expect_table_error("t,P\n0,0\n1,inf\n", "3:2");
  expect_table_error("t,P\n0,0\n1\n", "3:2: row has 1 fields");
  expect_table_error("t,P\n0,0,5\n", "2:3: more fields");
  expect_table_error("# only a comment\n", "1:1: empty file");
  expect_table_error("t,P\n", "1:1: no data rows");
  expect_table_error("t,P\n# comment\n\n0,0\n1,\n", "5:2");
}

static void test_table_good(void)
{
  char *path = gc_test_write_tmp("# comment line\nt [s], alpha [m]\n0,0\n\n0.5, 1e-6\n1,2e-6\n");
  gc_table t;
  char msg[256];
  CU_ASSERT_EQUAL_FATAL(gc_table_read(path, &t, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT_EQUAL(t.ncols, 2);
  CU_ASSERT_EQUAL(t.nrows, 3);
  CU_ASSERT_STRING_EQUAL(t.names[1], "alpha");
  CU_ASSERT_STRING_EQUAL(t.units[1], "m");
  CU_ASSERT_EQUAL(gc_table_col(&t, "alpha"), 1);
  CU_ASSERT_EQUAL(gc_table_col(&t, "P"), -1);
  CU_ASSERT_DOUBLE_EQUAL(gc_table_get(&t, 1, 1), 1e-6, 0.0);
  CU_ASSERT_EQUAL(t.line[1], 5);
  gc_table_free(&t);
  remove(path);
  free(path);
}

static void expect_path_error(const char *text, const char *expect)
{
  char *path = gc_test_write_tmp(text);
  gc_loadpath lp;
  char msg[512] = "";
  CU_ASSERT_NOT_EQUAL(gc_loadpath_read(path, &lp, msg, sizeof msg), GC_SUCCESS);
  if (!strstr(msg, expect))
    fprintf(stderr, "\n  message '%s' lacks '%s'\n", msg, expect);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, expect));
  remove(path);
  free(path);
}

static void test_loadpath_errors(void)
{
  expect_path_error("t,P\n0,0\n1,-5\n", ":3:2: negative normal force");
  expect_path_error("t,P\n0,0\n0,5\n", ":3:1: time 0 does not increase");
  expect_path_error("t,alpha,P\n0,0,0\n", "exactly one of 'alpha'");
  expect_path_error("time,x\n0,0\n", "exactly one of 'alpha'");
  expect_path_error("t [s],alpha [mm]\n0,0\n", ":1:2: column 'alpha' is in [mm]; granucal reads SI units: use [m]");
  expect_path_error("t [ms],P [N]\n0,0\n", ":1:1: column 't' is in [ms]");
}

static void test_card(void)
{
  char *path = gc_test_write_tmp("# card\nmodel = thornton\nR = 0.1   # m\nE=7e10\nnu = 0.3\nsY = 1e8\n"
                         "reload = literal\n");
  gc_params p;
  gc_card_extra x;
  gc_params_default(&p);
  gc_card_extra_default(&x);
  char msg[512];
  CU_ASSERT_EQUAL_FATAL(gc_card_read(path, &p, &x, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT_DOUBLE_EQUAL(p.R1, 0.1, 0);
  CU_ASSERT_DOUBLE_EQUAL(p.E1, 7e10, 0);
  CU_ASSERT_EQUAL(p.reload, GC_RELOAD_LITERAL);
  CU_ASSERT_STRING_EQUAL(x.nfd, "thornton");
  remove(path);
  free(path);

  /* write -> read gives back the same numbers bit for bit */
  p.C_a = 2.33e-7 / 3.0;
  x.rho = 2699;
  char *out = gc_test_write_tmp("");
  FILE *f = fopen(out, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  CU_ASSERT_EQUAL(gc_card_write(f, &p, &x), GC_SUCCESS);
  fclose(f);
  gc_params q;
  gc_card_extra y;
  gc_params_default(&q);
  gc_card_extra_default(&y);
  CU_ASSERT_EQUAL(gc_card_read(out, &q, &y, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT(memcmp(&p, &q, sizeof p) == 0);
  CU_ASSERT_STRING_EQUAL(y.nfd, "thornton");
  CU_ASSERT_DOUBLE_EQUAL(y.rho, 2699, 0);
  remove(out);
  free(out);

  struct { const char *text, *expect; } bad[] = {
    { "R = 0.1\nE = abc\n", ":2:5: parameter 'E': 'abc' is not a finite number" },
    { "R = 0.1\nYoung = 5\n", ":2:1: unknown parameter 'Young'" },
    { "R = 0.1\n   Young = 5\n", ":2:4: unknown parameter 'Young'" },
    { "R 0.1\n", ":1:1: expected 'key = value'" },
    { "nu = nan\n", ":1:6:" },
    { "reload = sometimes\n", "must be 'continuous' or 'literal'" },
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char *b = gc_test_write_tmp(bad[i].text);
    gc_params_default(&q);
    CU_ASSERT_NOT_EQUAL(gc_card_read(b, &q, &y, msg, sizeof msg), GC_SUCCESS);
    if (!strstr(msg, bad[i].expect))
      fprintf(stderr, "\n  message '%s' lacks '%s'\n", msg, bad[i].expect);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, bad[i].expect));
    remove(b);
    free(b);
  }
}

/* Atomic output: an aborted file leaves nothing behind; a committed one appears whole. */
static void test_outfile(void)
{
  char path[] = "/tmp/granucal-out-test.csv";
  remove(path);
  gc_outfile o;
  char msg[256];
  CU_ASSERT_EQUAL_FATAL(gc_outfile_open(&o, path, msg, sizeof msg), GC_SUCCESS);
  fputs("partial", o.f);
  gc_outfile_abort(&o);
  CU_ASSERT_EQUAL(access(path, F_OK), -1);
  CU_ASSERT_EQUAL_FATAL(gc_outfile_open(&o, path, msg, sizeof msg), GC_SUCCESS);
  fputs("whole\n", o.f);
  CU_ASSERT_EQUAL(gc_outfile_commit(&o, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT_EQUAL(access(path, F_OK), 0);
  remove(path);
  CU_ASSERT_EQUAL(gc_outfile_open(&o, "/nonexistent-dir/x.csv", msg, sizeof msg), GC_EIO);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "/nonexistent-dir/x.csv"));
}

int gc_test_add_io(void)
{
  CU_pSuite s = CU_add_suite("input and output files", NULL, NULL);
  if (!s)
    return CU_get_error();
  if (!CU_add_test(s, "CSV errors name file:line:column", test_table_errors) ||
      !CU_add_test(s, "CSV header, units, comments", test_table_good) ||
      !CU_add_test(s, "load path errors", test_loadpath_errors) ||
      !CU_add_test(s, "material cards", test_card) ||
      !CU_add_test(s, "atomic output files", test_outfile))
    return CU_get_error();
  return CUE_SUCCESS;
}
