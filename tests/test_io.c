/* test_io.c - input files: bad CSV and card input gives an error naming file:line:column and
 * the problem; good input round-trips. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

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

/* The strict number parser (issue 11): what strtod alone would take but the man pages refuse. */
static void test_numbers(void)
{
  static const struct {
    const char *s;
    int code;
    double v;
  } cases[] = {
    { "1", GC_NUM_OK, 1 },          { " 2.5e3\t", GC_NUM_OK, 2500 }, { "+.5", GC_NUM_OK, 0.5 },
    { "-7.", GC_NUM_OK, -7 },       { "1E-3", GC_NUM_OK, 1e-3 },     { "0x10", GC_NUM_HEX, 0 },
    { "-0X1p3", GC_NUM_HEX, 0 },    { "nan", GC_NUM_NONFINITE, 0 },  { "inf", GC_NUM_NONFINITE, 0 },
    { "-Infinity", GC_NUM_NONFINITE, 0 }, { "1e999", GC_NUM_RANGE, 0 }, { "1e-400", GC_NUM_RANGE, 0 },
    { "", GC_NUM_EMPTY, 0 },        { "  ", GC_NUM_EMPTY, 0 },       { "1.5x", GC_NUM_JUNK, 0 },
    { ".", GC_NUM_JUNK, 0 },        { "1e", GC_NUM_JUNK, 0 },        { "1,5", GC_NUM_JUNK, 0 },
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
  CU_ASSERT_EQUAL(gc_number_parse("1\0" "999", 5, &v), GC_NUM_NUL); /* 'E = 1\0999' */
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
  /* a NUL-led row was silently dropped before */
  p = gc_test_write_tmp("");
  FILE *f = fopen(p, "wb");
  fwrite("t,P\n0,0\n\0,1\n", 1, 13, f);
  fclose(f);
  CU_ASSERT_NOT_EQUAL(gc_table_read(p, &t, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, ":3:1: NUL byte"));
  /* 'E = 1\0999' read as E = 1 before */
  f = fopen(p, "wb");
  fwrite("R = 0.1\nE = 1\0" "999\n", 1, 17, f);
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

/* "Did you mean": the Damerau-Levenshtein distance (a swap of neighbours is one edit) and the
 * nearest name within (length + 1) / 3 edits; ranges as every message prints them. */
static void test_suggest_and_ranges(void)
{
  CU_ASSERT_EQUAL(gc_edit_distance("vni", "vin"), 1);  /* a swap */
  CU_ASSERT_EQUAL(gc_edit_distance("tend", "t_end"), 1);
  CU_ASSERT_EQUAL(gc_edit_distance("Ee", "e"), 1);     /* case ignored, one deletion */
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
      !CU_add_test(s, "material cards", test_card) ||
      !CU_add_test(s, "atomic output files", test_outfile) ||
      !CU_add_test(s, "strict numbers", test_numbers) ||
      !CU_add_test(s, "text lines: CR, BOM, NUL, duplicates, read errors", test_lines) ||
      !CU_add_test(s, "outputs never replace devices or inputs", test_outputs_safe) ||
      !CU_add_test(s, "did you mean; range texts; card keys in messages",
                   test_suggest_and_ranges))
    return CU_get_error();
  return CUE_SUCCESS;
}
