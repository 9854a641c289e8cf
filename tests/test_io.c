/* test_io.c - input files: bad CSV and card input gives an error naming file:line:column and
 * the problem; good input round-trips. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "compare.h"
#include "contact_sim.h"
#include "data_check.h"
#include "fit.h"
#include "gc_io.h"
#include "gc_outputs.h"
#include "gc_test.h"
#include "units.h"

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
  expect_path_error("t [s],P [N]\n0,0\n1,-5\n", ":3:2: negative normal force");
  expect_path_error("t [s],P [N]\n0,0\n0,5\n", ":3:1: time 0 does not increase");
  expect_path_error("t,alpha,P\n0,0,0\n", "exactly one of 'alpha'");
  expect_path_error("time,x\n0,0\n", "exactly one of 'alpha'");
  expect_path_error("t [s],alpha [in]\n0,0\n",
                    ":1:2: column 'alpha' is in [in]; accepted units: m");
  expect_path_error("t [h],P [N]\n0,0\n", ":1:1: column 't' is in [h]; accepted units: s, ms");
  /* a dimensioned column without its unit, and an unknown column (not to be taken as Q = 0) */
  expect_path_error("t,P\n0,0\n1,5\n", ":1:1: column 't' has no unit; expected a header like "
                                       "'t [s],P [N]'");
  expect_path_error("t [s],alpha [m],delta\n0,0,0\n", ":1:3: column 'delta' has no unit");
  expect_path_error("t [s],P [N],Qx [N]\n0,0,0\n0.5,5,1\n",
                    ":1:3: unknown column 'Qx' (a load "
                    "path has t [s] (or time), alpha [m] or P [N], delta [m] or Q [N])");
}

/* Load paths in ms, mm, kN are converted by the units table the compression files use. */
static void test_loadpath_units(void)
{
  char *path = gc_test_write_tmp("t [ms],alpha [um],Q [kN]\n0,0,0\n500,2,0.001\n");
  gc_loadpath lp;
  char msg[512] = "";
  int st = gc_loadpath_read(path, &lp, msg, sizeof msg);
  if (st)
    fprintf(stderr, "\n  %s\n", msg);
  CU_ASSERT_EQUAL_FATAL(st, GC_SUCCESS);
  CU_ASSERT_DOUBLE_EQUAL(lp.t[1], 0.5, 1e-15);
  CU_ASSERT_DOUBLE_EQUAL(lp.x[1], 2e-6, 1e-21);
  CU_ASSERT_DOUBLE_EQUAL(lp.y[1], 1.0, 1e-15);
  CU_ASSERT_EQUAL(lp.normal, GC_DRIVE_ALPHA);
  CU_ASSERT_EQUAL(lp.tangential, GC_DRIVE_Q);
  CU_ASSERT_PTR_NOT_NULL(strstr(lp.notes, "column 'Q' in [kN] converted to [N] (x 1000)"));
  CU_ASSERT_PTR_NOT_NULL(strstr(lp.notes, "column 't' in [ms] converted to [s] (x 0.001)"));
  gc_loadpath_free(&lp);
  remove(path);
  free(path);
}

/* One units table: the factors, and a column without a unit refused only when dimensioned. */
static void test_units(void)
{
  double f = 0;
  const char *acc = NULL;
  CU_ASSERT_EQUAL(gc_unit_factor("mm", "m", &f, &acc), 0);
  CU_ASSERT_EQUAL(f, 1e-3);
  CU_ASSERT_EQUAL(gc_unit_factor("kN", "N", &f, &acc), 0);
  CU_ASSERT_EQUAL(f, 1e3);
  CU_ASSERT_EQUAL(gc_unit_factor("mm", "N", &f, &acc), -1);
  CU_ASSERT_STRING_EQUAL(acc, "N, kN, mN");
  char *path = gc_test_write_tmp("approach,P [N],e\n1e-5,1,0.5\n");
  gc_table t;
  char msg[512] = "";
  CU_ASSERT_EQUAL_FATAL(gc_table_read(path, &t, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT_EQUAL(gc_table_unit(&t, path, 0, "m", "alpha [m],P [N]", &f, msg, sizeof msg),
                  GC_EFORMAT);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, ":1:1: column 'approach' has no unit; expected a header "
                                     "like 'alpha [m],P [N]' (units of 'approach': m, mm"));
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, path));
  CU_ASSERT_EQUAL(gc_table_unit(&t, path, 1, "N", "alpha [m],P [N]", &f, msg, sizeof msg), 0);
  CU_ASSERT_EQUAL(f, 1.0);
  CU_ASSERT_EQUAL(gc_table_unit(&t, path, 2, "-", "alpha [m],P [N]", &f, msg, sizeof msg), 0);
  gc_table_free(&t);
  remove(path);
  free(path);
}

/* A line longer than GC_LINE_MAX and a device that never ends are refused with file:line. */
static void test_line_limit(void)
{
  size_t n = GC_LINE_MAX + 10;
  char *text = malloc(n + 32);
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  strcpy(text, "t [s],P [N]\n0,0\n");
  memset(text + 16, '1', n);
  strcpy(text + 16 + n, "\n");
  char *path = gc_test_write_tmp(text);
  free(text);
  gc_table t;
  char msg[512] = "";
  CU_ASSERT_EQUAL(gc_table_read(path, &t, msg, sizeof msg), GC_EFORMAT);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, ":3: line longer than 1 MiB"));
  remove(path);
  free(path);
  /* a line just under the limit is read */
  n = GC_LINE_MAX - 1;
  text = malloc(n + 32);
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  strcpy(text, "x\n");
  memset(text + 2, '1', n);
  strcpy(text + 2 + n, "\n");
  path = gc_test_write_tmp(text);
  free(text);
  gc_lines lr;
  CU_ASSERT_EQUAL_FATAL(gc_lines_open(&lr, path, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT_EQUAL(gc_lines_next(&lr, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT_EQUAL(gc_lines_next(&lr, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT_EQUAL(lr.len, GC_LINE_MAX - 1);
  CU_ASSERT_EQUAL(gc_lines_next(&lr, msg, sizeof msg), GC_LINES_EOF);
  gc_lines_close(&lr);
  remove(path);
  free(path);
  if (access("/dev/zero", R_OK) == 0) {
    CU_ASSERT_EQUAL(gc_table_read("/dev/zero", &t, msg, sizeof msg), GC_EFORMAT);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "/dev/zero:1: line longer than 1 MiB"));
  }
  if (access("/dev/urandom", R_OK) == 0) {
    /* newlines now and then: the stream limit, not the line limit, ends it */
    CU_ASSERT_EQUAL_FATAL(gc_lines_open(&lr, "/dev/urandom", msg, sizeof msg), GC_SUCCESS);
    int st;
    while ((st = gc_lines_next(&lr, msg, sizeof msg)) == GC_SUCCESS || strstr(msg, "NUL byte"))
      ;
    CU_ASSERT_EQUAL(st, GC_EFORMAT);
    CU_ASSERT(lr.total > GC_STREAM_MAX);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "more than 64 MiB from a pipe or device"));
    gc_lines_close(&lr);
  }
}

/* granucal 0.1.0's fit wrote every key, 0 for the unused ones: read as "not given", noted. */
static void test_card_0_1_0(void)
{
  gc_params p;
  gc_card_extra x;
  gc_params_default(&p);
  gc_card_extra_default(&x);
  char msg[512] = "";
  int st = gc_card_read(GC_SRCDIR "/tests/fixtures/fit-0.1.0.params", &p, &x, msg, sizeof msg);
  if (st)
    fprintf(stderr, "\n  %s\n", msg);
  CU_ASSERT_EQUAL_FATAL(st, GC_SUCCESS);
  CU_ASSERT_DOUBLE_EQUAL(p.R1, 4.05e-3, 1e-18);
  CU_ASSERT_EQUAL(p.k_n, 0.0);
  CU_ASSERT_EQUAL(p.e_n, 0.0);
  CU_ASSERT_EQUAL(p.m_eff, 0.0);
  CU_ASSERT(p.C_a > 0 && p.K_c > 0 && p.P_Y > 0);
  CU_ASSERT_STRING_EQUAL(x.nfd, "ep");
  CU_ASSERT_PTR_NOT_NULL(strstr(x.note, "fit-0.1.0.params:20:10: k_n = 0 read as not given"));
  CU_ASSERT_PTR_NOT_NULL(strstr(x.note, "line 24: e_n = 0; line 25: m_eff = 0"));
  /* only 0: any other value out of range is refused as before */
  char *path = gc_test_write_tmp("R = 0.1\nk_n = -1\n");
  gc_card_extra_default(&x);
  CU_ASSERT_EQUAL(gc_card_read(path, &p, &x, msg, sizeof msg), GC_EFORMAT);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, ":2:7: k_n = -1 out of range"));
  remove(path);
  free(path);
  /* a 0 inside the range (mu = 0) is a value, not a note */
  path = gc_test_write_tmp("R = 0.1\nmu = 0\n");
  gc_card_extra_default(&x);
  CU_ASSERT_EQUAL(gc_card_read(path, &p, &x, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT_STRING_EQUAL(x.note, "");
  remove(path);
  free(path);
}

/* granucal contact's output is a curve for compare and fit: its flags column is ignored by
 * name, its units converted; a curve's unknown column is named. */
static void test_curve_contact_output(void)
{
  char *path = gc_test_write_tmp("t [s],alpha [m],P [N],a_e [m],a_p [m],delta [m],Q [N],"
                                 "K_T [N/m],flags\n0,0,0,0,0,0,0,0,-\n"
                                 "0.5,2e-8,0.1,4e-5,0,0,0,0,L\n1,1e-8,0,4e-5,0,0,0,0,P\n");
  gc_curve c;
  char msg[512] = "";
  int st = gc_curve_read(path, &c, msg, sizeof msg);
  if (st)
    fprintf(stderr, "\n  %s\n", msg);
  CU_ASSERT_EQUAL_FATAL(st, GC_SUCCESS);
  CU_ASSERT_EQUAL(c.n, 3);
  CU_ASSERT_EQUAL(c.col_t, 1);
  CU_ASSERT_EQUAL(c.col_alpha, 2);
  CU_ASSERT_EQUAL(c.col_P, 3);
  CU_ASSERT_DOUBLE_EQUAL(c.alpha[1], 2e-8, 0);
  gc_curve_free(&c);
  remove(path);
  free(path);
  path = gc_test_write_tmp("time [ms],alpha [um],P [kN]\n0,0,0\n2,3,0.5\n");
  st = gc_curve_read(path, &c, msg, sizeof msg);
  CU_ASSERT_EQUAL_FATAL(st, GC_SUCCESS);
  CU_ASSERT_DOUBLE_EQUAL(c.t[1], 2e-3, 1e-18);
  CU_ASSERT_DOUBLE_EQUAL(c.alpha[1], 3e-6, 1e-21);
  CU_ASSERT_DOUBLE_EQUAL(c.P[1], 500, 1e-12);
  CU_ASSERT_PTR_NOT_NULL(strstr(c.notes, "column 'P' in [kN] converted to [N] (x 1000)"));
  gc_curve_free(&c);
  remove(path);
  free(path);
  /* a text cell in a column the curve uses is still an error */
  path = gc_test_write_tmp("t [s],alpha [m],P [N],flags\n0,0,0,-\n1,x,1,L\n");
  CU_ASSERT_EQUAL(gc_curve_read(path, &c, msg, sizeof msg), GC_EFORMAT);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, ":3:2: column 'alpha': 'x' is not a decimal number"));
  remove(path);
  free(path);
  path = gc_test_write_tmp("alpha,P [N]\n0,0\n1e-6,1\n");
  CU_ASSERT_EQUAL(gc_curve_read(path, &c, msg, sizeof msg), GC_EFORMAT);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, ":1:1: column 'alpha' has no unit; expected a header like "
                                     "'t [s],alpha [m],P [N]'"));
  remove(path);
  free(path);
}

static void test_card(void)
{
  char *path =
      gc_test_write_tmp("# card\nmodel = thornton\nR = 0.1   # m\nE=7e10\nnu = 0.3\nsY = 1e8\n"
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

  struct {
    const char *text, *expect;
  } bad[] = {
    { "R = 0.1\nE = abc\n", ":2:5: parameter 'E': 'abc' is not a decimal number" },
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

/* The strict number parser: what strtod alone would take but the man pages refuse. */
static void test_numbers(void)
{
  static const struct {
    const char *s;
    int code;
    double v;
  } cases[] = {
    { "1", GC_NUM_OK, 1 },          { " 2.5e3\t", GC_NUM_OK, 2500 },
    { "+.5", GC_NUM_OK, 0.5 },      { "-7.", GC_NUM_OK, -7 },
    { "1E-3", GC_NUM_OK, 1e-3 },    { "0x10", GC_NUM_HEX, 0 },
    { "-0X1p3", GC_NUM_HEX, 0 },    { "nan", GC_NUM_NONFINITE, 0 },
    { "inf", GC_NUM_NONFINITE, 0 }, { "-Infinity", GC_NUM_NONFINITE, 0 },
    { "1e999", GC_NUM_RANGE, 0 },   { "1e-400", GC_NUM_RANGE, 0 },
    { "", GC_NUM_EMPTY, 0 },        { "  ", GC_NUM_EMPTY, 0 },
    { "1.5x", GC_NUM_JUNK, 0 },     { ".", GC_NUM_JUNK, 0 },
    { "1e", GC_NUM_JUNK, 0 },       { "1,5", GC_NUM_JUNK, 0 },
    { "- 1", GC_NUM_JUNK, 0 },      { "1 2", GC_NUM_JUNK, 0 },
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    double v = -99;
    int st = gc_parse_double(cases[i].s, &v);
    if (st != cases[i].code)
      fprintf(stderr, "\n  '%s': code %d, want %d\n", cases[i].s, st, cases[i].code);
    CU_ASSERT_EQUAL(st, cases[i].code);
    if (cases[i].code == GC_NUM_OK)
      CU_ASSERT_EQUAL(v, cases[i].v);
  }
  double v;
  CU_ASSERT_EQUAL(gc_number_parse("1\0"
                                  "999",
                                  5, &v),
                  GC_NUM_NUL); /* 'E = 1\0999' */
  long l = 0;
  CU_ASSERT_EQUAL(gc_parse_long("4294967300", 0, 2147483647L, &l), GC_NUM_RANGE);
  CU_ASSERT_EQUAL(gc_parse_long("1.5", 0, 10, &l), GC_NUM_NOTINT);
  CU_ASSERT_EQUAL(gc_parse_long("1e3", 0, 10000, &l), GC_NUM_OK);
  CU_ASSERT_EQUAL(l, 1000);
}

/* Text lines: CR-only ends, a UTF-8 byte-order mark, NUL bytes, duplicate CSV columns, and a
 * read error (a directory) that is not an end of file. */
static void test_lines(void)
{
  char *p = gc_test_write_tmp("\xEF\xBB\xBFt [s],P [N]\r0,0\r1,5\r\r2,0");
  gc_table t;
  char msg[512] = "";
  int st = gc_table_read(p, &t, msg, sizeof msg);
  if (st)
    fprintf(stderr, "\n  %s\n", msg);
  CU_ASSERT_EQUAL_FATAL(st, GC_SUCCESS);
  CU_ASSERT_EQUAL(t.nrows, 3);
  CU_ASSERT_STRING_EQUAL(t.names[0], "t");
  CU_ASSERT_EQUAL(t.line[2], 5);
  CU_ASSERT_EQUAL(gc_table_get(&t, 1, 1), 5.0);
  gc_table_free(&t);
  remove(p);
  free(p);
  expect_table_error("t [s],P [N],t [ms]\n0,0,0\n", "1:3: column name 't' repeats column 1");
  /* a NUL-led row is an error, not silently dropped */
  p = gc_test_write_tmp("");
  FILE *f = fopen(p, "wb");
  fwrite("t,P\n0,0\n\0,1\n", 1, 13, f);
  fclose(f);
  CU_ASSERT_NOT_EQUAL(gc_table_read(p, &t, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, ":3:1: NUL byte"));
  /* 'E = 1\0999' is an error, not E = 1 */
  f = fopen(p, "wb");
  fwrite("R = 0.1\nE = 1\0"
         "999\n",
         1, 17, f);
  fclose(f);
  gc_params q;
  gc_card_extra y;
  gc_params_default(&q);
  gc_card_extra_default(&y);
  CU_ASSERT_NOT_EQUAL(gc_card_read(p, &q, &y, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, ":2:6: NUL byte"));
  remove(p);
  free(p);
  CU_ASSERT_EQUAL(gc_card_read("/tmp", &q, &y, msg, sizeof msg), GC_EIO);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "read error"));
}

/* The sanity layer against the card: alpha / R, v_in, a loading curve's order; file:line:col. */
static void expect_check_error(int kind, const char *text, double R, const char *expect)
{
  char *path = gc_test_write_tmp(text);
  char msg[1024] = "", want[1200];
  int st;
  if (kind == 3) {
    gc_curve c;
    st = gc_curve_read(path, &c, msg, sizeof msg);
    CU_ASSERT_EQUAL_FATAL(st, GC_SUCCESS);
    st = gc_curve_check(&c, R, msg, sizeof msg);
    gc_curve_free(&c);
  } else {
    gc_fit_data d;
    memset(&d, 0, sizeof d);
    st = kind == 1 ? gc_fit_read_compression(&d, path, msg, sizeof msg)
                   : gc_fit_read_drops(&d, path, 9.80665, msg, sizeof msg);
    CU_ASSERT_EQUAL_FATAL(st, GC_SUCCESS);
    st = gc_data_check(&d, R, msg, sizeof msg);
    gc_fit_data_free(&d);
  }
  snprintf(want, sizeof want, "%s:%s", path, expect);
  if (!strstr(msg, want))
    fprintf(stderr, "\n  message '%s' lacks '%s'\n", msg, want);
  CU_ASSERT_EQUAL(st, GC_EFORMAT);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, want));
  remove(path);
  free(path);
}

static int check_ok(int kind, const char *text, double R)
{
  char *path = gc_test_write_tmp(text);
  char msg[1024] = "";
  int st;
  if (kind == 3) {
    gc_curve c;
    st = gc_curve_read(path, &c, msg, sizeof msg);
    if (!st)
      st = gc_curve_check(&c, R, msg, sizeof msg);
    gc_curve_free(&c);
  } else {
    gc_fit_data d;
    memset(&d, 0, sizeof d);
    st = kind == 1 ? gc_fit_read_compression(&d, path, msg, sizeof msg)
                   : gc_fit_read_drops(&d, path, 9.80665, msg, sizeof msg);
    if (!st)
      st = gc_data_check(&d, R, msg, sizeof msg);
    gc_fit_data_free(&d);
  }
  if (st)
    fprintf(stderr, "\n  %s\n", msg);
  remove(path);
  free(path);
  return st;
}

static void test_data_check(void)
{
  /* alpha / R: 0.1 R passes, beyond it the file's own value and column are named */
  CU_ASSERT_EQUAL(check_ok(1, "alpha [m],P [N]\n1e-4,1\n1e-3,2\n", 0.01), GC_SUCCESS);
  expect_check_error(1, "alpha [m],P [N]\n1e-4,1\n1.1e-3,2\n", 0.01,
                     "3:1: alpha = 0.0011 m gives alpha/R = 0.11 (R = 0.01 m from the card)");
  expect_check_error(1, "# c\nP [N],approach [mm]\n1,1\n2,3\n", 0.01,
                     "4:2: approach = 0.003 m gives alpha/R = 0.15");
  /* R unknown (0): no alpha / R test */
  CU_ASSERT_EQUAL(check_ok(1, "alpha [m],P [N]\n1,1\n2,2\n", 0), GC_SUCCESS);
  /* a loading curve: alpha may not fall by more than 1 %, P by more than 10 % */
  CU_ASSERT_EQUAL(check_ok(1, "alpha [um],P [N]\n1,1\n100,10\n99.5,9.5\n101,10\n", 0.01),
                  GC_SUCCESS);
  expect_check_error(1, "alpha [um],P [N]\n1,1\n100,10\n98,9.5\n", 0.01,
                     "4:1: alpha falls from 0.0001 m (line 3) to 9.8e-05 m");
  expect_check_error(1, "alpha [um],P [N]\n1,1\n100,10\n101,8.9\n", 0.01,
                     "4:2: P falls from 10 N (line 3) to 8.9 N while alpha grows");
  /* drops: 20 m/s passes; beyond, the column given is named with the likely unit */
  CU_ASSERT_EQUAL(check_ok(2, "v_in [m/s],e\n20,0.5\n", 0), GC_SUCCESS);
  expect_check_error(2, "v_in [m/s],e\n2,0.5\n20.5,0.5\n", 0,
                     "3:1: v_in = 20.5 m/s beyond 20 m/s (a drop from 20.4 m): likely mm/s");
  expect_check_error(2, "e,H [m]\n0.5,148\n", 0,
                     "2:2: H = 148 m gives v_in = sqrt(2 g H) = 53.9 m/s, beyond 20 m/s");
  /* curves: with t, unloading is the point; without t, one loading curve */
  CU_ASSERT_EQUAL(check_ok(3, "t [s],alpha [m],P [N]\n0,0,0\n1,5e-6,100\n2,1e-6,0\n", 0.1),
                  GC_SUCCESS);
  expect_check_error(3, "alpha [m],P [N]\n0,0\n5,100\n0,0\n", 0.1,
                     "3:1: alpha = 5 m gives alpha/R = 50");
  expect_check_error(3, "alpha [m],P [N]\n0,0\n5e-6,100\n0,0\n", 0.1,
                     "4:1: alpha falls from 5e-06 m (line 3) to 0 m: a file without a t column");
  expect_check_error(3, "t [s],alpha [mm],P [N]\n0,0,0\n1,20,100\n", 0.1,
                     "3:2: alpha = 0.02 m gives alpha/R = 0.2");
}

/* Outputs never replace a device, a FIFO, a directory or an input; a symbolic link is followed. */
static void test_outputs_safe(void)
{
  gc_outfile o;
  char msg[512];
  CU_ASSERT_EQUAL_FATAL(gc_outfile_open(&o, "/dev/null", msg, sizeof msg), GC_SUCCESS);
  fputs("x\n", o.f);
  CU_ASSERT_EQUAL(gc_outfile_commit(&o, msg, sizeof msg), GC_SUCCESS);
  struct stat sb;
  CU_ASSERT(stat("/dev/null", &sb) == 0 && S_ISCHR(sb.st_mode));
  CU_ASSERT_EQUAL(gc_outfile_open(&o, "/tmp", msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "is a directory"));
  char *in = gc_test_write_tmp("R = 1\n");
  char link[64], alias[96], fresh[64];
  snprintf(link, sizeof link, "%s.lnk", in);
  CU_ASSERT_EQUAL_FATAL(symlink(in, link), 0);
  snprintf(alias, sizeof alias, "/tmp/../tmp/./%s", in + 5);
  snprintf(fresh, sizeof fresh, "%s.new", in);
  const char *ins[] = { in };
  const char *o1[] = { link }, *o2[] = { alias }, *o3[] = { fresh, "/tmp/./../tmp/" },
             *o4[] = { "/dev/null", "/dev/null", "-", "-" };
  CU_ASSERT_EQUAL(gc_outputs_check(o1, 1, ins, 1, msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "is the input"));
  CU_ASSERT_EQUAL(gc_outputs_check(o2, 1, ins, 1, msg, sizeof msg), GC_EINVAL);
  char fresh2[96];
  snprintf(fresh2, sizeof fresh2, "/tmp/../tmp/%s.new", in + 5);
  o3[1] = fresh2; /* the same new file by two names */
  CU_ASSERT_EQUAL(gc_outputs_check(o3, 2, ins, 1, msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "are the same file"));
  CU_ASSERT_EQUAL(gc_outputs_check(o4, 4, ins, 1, msg, sizeof msg), GC_SUCCESS);
  /* writing through the link: the link stays, the target gets the text */
  CU_ASSERT_EQUAL_FATAL(gc_outfile_open(&o, link, msg, sizeof msg), GC_SUCCESS);
  fputs("written\n", o.f);
  CU_ASSERT_EQUAL(gc_outfile_commit(&o, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT(lstat(link, &sb) == 0 && S_ISLNK(sb.st_mode));
  char buf[32] = "";
  FILE *f = fopen(in, "r");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  CU_ASSERT_PTR_NOT_NULL(fgets(buf, sizeof buf, f));
  fclose(f);
  CU_ASSERT_STRING_EQUAL(buf, "written\n");
  remove(link);
  remove(in);
  free(in);
}

/* The output plan: numbered names in a directory against inputs (by inode, through links and
 * ./ ../ spellings) and against file outputs; an input spared for one output; the lock. */
static void test_outplan(void)
{
  char msg[1024];
  CU_ASSERT(gc_name_matches_format("particles_%06ld.vtk", "particles_000012.vtk"));
  CU_ASSERT(gc_name_matches_format("particles_%06ld.vtk", "particles_1234567.vtk"));
  CU_ASSERT(!gc_name_matches_format("particles_%06ld.vtk", "particles_.vtk"));
  CU_ASSERT(!gc_name_matches_format("particles_%06ld.vtk", "particles_00001x.vtk"));
  CU_ASSERT(!gc_name_matches_format("particles_%06ld.vtk", "particles.pvd"));
  CU_ASSERT(gc_name_matches_format("a%d%db", "a12b"));
  CU_ASSERT(gc_name_matches_format("100%%_%d", "100%_7"));
  CU_ASSERT(gc_name_matches_format("series.csv", "series.csv"));
  CU_ASSERT(!gc_name_matches_format("series.csv", "series.csv2"));

  char dir[] = "/tmp/gc_outplan_XXXXXX";
  CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
  char in[64], numbered[64], link[64], other[64], spelled[160];
  snprintf(in, sizeof in, "%s/in.card", dir);
  snprintf(numbered, sizeof numbered, "%s/snap_0042.vtk", dir);
  snprintf(link, sizeof link, "%s/snap_0007.vtk", dir);
  snprintf(other, sizeof other, "%s/sub", dir);
  snprintf(spelled, sizeof spelled, "%s/../%s/./snap_0042.vtk", dir, dir + 5);
  FILE *f = fopen(in, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fputs("R = 1\n", f);
  fclose(f);
  CU_ASSERT_EQUAL_FATAL(mkdir(other, 0777), 0);

  /* an input in the directory under a numbered name, given as another spelling */
  CU_ASSERT_EQUAL_FATAL(rename(in, numbered), 0);
  gc_outplan p;
  gc_outplan_init(&p);
  gc_outplan_dir(&p, dir);
  gc_outplan_dir_file(&p, dir, "snap_%04ld.vtk", NULL);
  gc_outplan_input(&p, spelled, -1);
  CU_ASSERT_EQUAL(gc_outplan_check(&p, msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "snap_0042.vtk is the input"));
  gc_outplan_free(&p);
  CU_ASSERT_EQUAL_FATAL(rename(numbered, in), 0);

  /* a numbered file already there that links to an input elsewhere */
  CU_ASSERT_EQUAL_FATAL(symlink(in, link), 0);
  char moved[96];
  snprintf(moved, sizeof moved, "%s/sub/in.card", dir);
  CU_ASSERT_EQUAL_FATAL(rename(in, moved), 0);
  CU_ASSERT_EQUAL_FATAL(unlink(link), 0);
  CU_ASSERT_EQUAL_FATAL(symlink(moved, link), 0);
  gc_outplan_init(&p);
  gc_outplan_dir_file(&p, dir, "snap_%04ld.vtk", NULL);
  gc_outplan_input(&p, moved, -1);
  CU_ASSERT_EQUAL(gc_outplan_check(&p, msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "snap_0007.vtk is the input"));
  gc_outplan_free(&p);
  unlink(link);

  /* the same input spared for the output that may replace it, not for another */
  char ckpt[128];
  snprintf(ckpt, sizeof ckpt, "%s/sub/checkpoint.bin", dir);
  CU_ASSERT_EQUAL_FATAL(rename(moved, ckpt), 0);
  long spare = -1;
  gc_outplan_init(&p);
  gc_outplan_dir_file(&p, other, "series.csv", NULL);
  gc_outplan_dir_file(&p, other, "checkpoint.bin", &spare);
  CU_ASSERT_EQUAL(spare, 1);
  gc_outplan_input(&p, ckpt, spare);
  CU_ASSERT_EQUAL(gc_outplan_check(&p, msg, sizeof msg), GC_SUCCESS);
  gc_outplan_input(&p, ckpt, -1);
  CU_ASSERT_EQUAL(gc_outplan_check(&p, msg, sizeof msg), GC_EINVAL);
  gc_outplan_free(&p);

  /* a file output under a numbered name of an output directory, and a file that is the
   * directory; a link to a file not yet there is that file */
  char out[160], dang[64], target[96];
  snprintf(out, sizeof out, "%s/./snap_0001.vtk", other);
  snprintf(dang, sizeof dang, "%s/dangling", dir);
  snprintf(target, sizeof target, "%s/new.csv", other);
  CU_ASSERT_EQUAL_FATAL(symlink(target, dang), 0);
  gc_outplan_init(&p);
  gc_outplan_dir_file(&p, other, "snap_%04ld.vtk", NULL);
  gc_outplan_file(&p, out, NULL);
  CU_ASSERT_EQUAL(gc_outplan_check(&p, msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "are the same file"));
  gc_outplan_free(&p);
  gc_outplan_init(&p);
  gc_outplan_dir(&p, other);
  gc_outplan_file(&p, other, NULL);
  CU_ASSERT_EQUAL(gc_outplan_check(&p, msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "is the output directory"));
  gc_outplan_free(&p);
  gc_outplan_init(&p);
  gc_outplan_file(&p, target, NULL);
  gc_outplan_file(&p, dang, NULL);
  gc_outplan_file(&p, "-", NULL);
  gc_outplan_file(&p, "-", NULL);
  CU_ASSERT_EQUAL(gc_outplan_check(&p, msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "are the same file"));
  gc_outplan_free(&p);
  unlink(dang);

  /* the lock: held, released with its file, taken again */
  gc_dirlock l = GC_DIRLOCK_INIT;
  char lockfile[128];
  snprintf(lockfile, sizeof lockfile, "%s/%s", other, GC_DIRLOCK_NAME);
  CU_ASSERT_EQUAL(gc_dirlock_acquire(&l, other, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT_EQUAL(access(lockfile, F_OK), 0);
  gc_dirlock_release(&l);
  CU_ASSERT_NOT_EQUAL(access(lockfile, F_OK), 0);
  CU_ASSERT_EQUAL(gc_dirlock_acquire(&l, other, msg, sizeof msg), GC_SUCCESS);
  gc_dirlock_release(&l);
  gc_dirlock_release(&l); /* a second release does nothing */
  CU_ASSERT_EQUAL(gc_dirlock_acquire(&l, "/nonexistent-dir-of-granucal", msg, sizeof msg), GC_EIO);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "cannot make the lock file"));

  unlink(ckpt);
  rmdir(other);
  rmdir(dir);
}

/* "Did you mean": the Damerau-Levenshtein distance (a swap of neighbours is one edit) and the
 * nearest name within (length + 1) / 3 edits; ranges as every message prints them. */
static void test_suggest_and_ranges(void)
{
  CU_ASSERT_EQUAL(gc_edit_distance("vni", "vin"), 1); /* a swap */
  CU_ASSERT_EQUAL(gc_edit_distance("tend", "t_end"), 1);
  CU_ASSERT_EQUAL(gc_edit_distance("Ee", "e"), 1); /* case ignored, one deletion */
  CU_ASSERT_EQUAL(gc_edit_distance("kitten", "sitting"), 3);
  CU_ASSERT_EQUAL(gc_edit_distance("", "abc"), 3);
  static const char *const names[] = { "vin", "vout", "dt", "card", "output", "ntcol" };
  gc_suggest sg;
  gc_suggest_init(&sg, "vni");
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    gc_suggest_add(&sg, names[i]);
  CU_ASSERT_STRING_EQUAL(gc_suggest_best(&sg), "vin");
  char buf[96];
  CU_ASSERT_STRING_EQUAL(gc_suggest_text(&sg, buf, sizeof buf), "; did you mean 'vin'?");
  gc_suggest_init(&sg, "outptu"); /* a mistyped abbreviation */
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    gc_suggest_add(&sg, names[i]);
  CU_ASSERT_STRING_EQUAL(gc_suggest_best(&sg), "output");
  gc_suggest_init(&sg, "zzzz"); /* nothing near: no suggestion */
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    gc_suggest_add(&sg, names[i]);
  CU_ASSERT_PTR_NULL(gc_suggest_best(&sg));
  CU_ASSERT_STRING_EQUAL(gc_suggest_text(&sg, buf, sizeof buf), "");
  gc_suggest_init(&sg, "x"); /* one letter: only a case difference is near enough */
  gc_suggest_add(&sg, "m");
  CU_ASSERT_PTR_NULL(gc_suggest_best(&sg));
  /* an unknown card key names the nearest one */
  gc_params p;
  gc_card_extra x;
  gc_params_default(&p);
  gc_card_extra_default(&x);
  char msg[256];
  CU_ASSERT_EQUAL(gc_param_set(&p, &x, "C_aa", "1e-6", msg, sizeof msg), GC_EFORMAT);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "unknown parameter 'C_aa'; did you mean 'C_a'?"));
  /* the range text: open and closed ends, inf, a unit, integers, no unit for "-" */
  gc_range_text(0, INFINITY, 1, 1, 0, "s", buf, sizeof buf);
  CU_ASSERT_STRING_EQUAL(buf, "(0, inf) s");
  gc_range_text(-1, 0.5, 1, 1, 0, "-", buf, sizeof buf);
  CU_ASSERT_STRING_EQUAL(buf, "(-1, 0.5)");
  gc_range_text(1, 4294967295.0, 0, 0, 1, "", buf, sizeof buf);
  CU_ASSERT_STRING_EQUAL(buf, "an integer in [1, 4294967295]");
  gc_range_text(0, 1, 0, 0, 1, NULL, buf, sizeof buf);
  CU_ASSERT_STRING_EQUAL(buf, "{0, 1}");
  /* a range check names the card key, not the field: nu, not nu1 */
  p.nu1 = 0.6;
  CU_ASSERT_EQUAL(gc_param_check(&p, GC_PAR_NU1, msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_STRING_EQUAL(msg, "nu = 0.6 out of range (-1, 0.5)");
}

int gc_test_add_io(void)
{
  CU_pSuite s = CU_add_suite("input and output files", NULL, NULL);
  if (!s)
    return CU_get_error();
  if (!CU_add_test(s, "CSV errors name file:line:column", test_table_errors) ||
      !CU_add_test(s, "CSV header, units, comments", test_table_good) ||
      !CU_add_test(s, "load path errors", test_loadpath_errors) ||
      !CU_add_test(s, "load path units converted", test_loadpath_units) ||
      !CU_add_test(s, "one units table, units required", test_units) ||
      !CU_add_test(s, "line-length and stream limits", test_line_limit) ||
      !CU_add_test(s, "granucal 0.1.0 parameter files", test_card_0_1_0) ||
      !CU_add_test(s, "contact's output read as a curve", test_curve_contact_output) ||
      !CU_add_test(s, "implausible data refused against the card", test_data_check) ||
      !CU_add_test(s, "material cards", test_card) ||
      !CU_add_test(s, "atomic output files", test_outfile) ||
      !CU_add_test(s, "strict numbers", test_numbers) ||
      !CU_add_test(s, "text lines: CR, BOM, NUL, duplicates, read errors", test_lines) ||
      !CU_add_test(s, "outputs never replace devices or inputs", test_outputs_safe) ||
      !CU_add_test(s, "output plans: numbered files, links, spared inputs, the lock",
                   test_outplan) ||
      !CU_add_test(s, "did you mean; range texts; card keys in messages", test_suggest_and_ranges))
    return CU_get_error();
  return CUE_SUCCESS;
}
