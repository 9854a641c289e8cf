/* test_fit.c - `granucal fit` (appendix E): data input, the objective of eq. E.1-E.7, the
 * reproduction of the seed's steepest-descent run (Algorithm D.1), every solver against it on
 * the soybean data, recovery of known parameters from synthetic data, the identifiability
 * analysis, the parameter file and the report directory.  Each check names its source and
 * tolerance.
 *
 * Cost: one objective evaluation (10 compression points, 3 drops at dt = 1e-6 s) takes about
 * 70 us at -O2; the suite uses about 40 000 evaluations. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>

#include "fit.h"
#include "gc_io.h"
#include "gc_test.h"
#include "stats.h"

#define SOY GC_DATADIR "/soybean/"

/* The seed's result (appendix E, eq. E.18-E.20) */
static const double seed_p[GC_FIT_NPAR] = { 128.8e6, 0.4134, 0.3952, 2.202e-5, 2.970e-6 };
static const double seed_e[3] = { 0.7457, 0.7009, 0.6615 };
/* table E.1 */
static const double table_e[3] = { 0.71, 0.70, 0.69 };

/* The bundled soybean data and card; all five parameters free, the seed's weights. */
static void soybean(gc_fit_data *d, gc_fit_setup *s, gc_card_extra *x)
{
  char msg[512] = "";
  gc_params p;
  gc_params_default(&p);
  gc_card_extra_default(x);
  memset(d, 0, sizeof *d);
  int st = gc_card_read(SOY "soybean.card", &p, x, msg, sizeof msg);
  if (!st)
    st = gc_fit_read_compression(d, SOY "compression.csv", msg, sizeof msg);
  if (!st)
    st = gc_fit_read_drops(d, SOY "drops.csv", 0, msg, sizeof msg);
  if (!st)
    st = gc_fit_setup_default(s, &p, x->mass, msg, sizeof msg);
  if (st)
    fprintf(stderr, "\n  %s\n", msg);
  CU_ASSERT_EQUAL_FATAL(st, GC_SUCCESS);
}

static void init_problem(gc_fit_problem *pb, const gc_fit_setup *s, const gc_fit_data *d)
{
  char msg[512] = "";
  int st = gc_fit_problem_init(pb, s, d, msg, sizeof msg);
  if (st)
    fprintf(stderr, "\n  %s\n", msg);
  CU_ASSERT_EQUAL_FATAL(st, GC_SUCCESS);
}

static gc_fit_result run(gc_fit_problem *pb, int alg, long max_evals)
{
  gc_fit_options o;
  gc_fit_options_default(&o);
  o.algorithm = alg;
  o.max_evals = max_evals;
  gc_fit_result r;
  char msg[512] = "";
  int st = gc_fit_run(pb, &o, &r, msg, sizeof msg);
  if (st)
    fprintf(stderr, "\n  %s: %s\n", gc_fit_alg_name(alg), msg);
  CU_ASSERT_EQUAL_FATAL(st, GC_SUCCESS);
  return r;
}

/* ------------------------------------------------------------------ quantiles */

/* The profile's threshold F_0.95(1, dof) and the intervals' t_0.975(dof) for every dof a fit of
 * 10 .. 100000 points can have: every dof to 2000, then every 13th to 200000 (GSL's
 * gsl_cdf_fdist_Pinv fails at 271, 407 and about half of the others).  Checked against the
 * closed form F(1, dof) = t(dof)^2 at the two-sided level (1e-10 relative: both are root solves
 * of GSL's CDFs, accurate to ~1e-13), against GSL's inverses where they succeed (1e-7: GSL's
 * own F inverse is off by up to 6.4e-9 near dof = 127000), by the CDF at the result, and the
 * normal limit 1.959964 at dof = 1e12. */
static void test_quantiles(void)
{
  gsl_error_handler_t *old = gsl_set_error_handler_off();
  int bad = 0, gsl_fails = 0;
  for (int dof = 1; dof <= 200000; dof += dof < 2000 ? 1 : 13) {
    double f, t;
    int sf = gc_stat_f_quantile(0.95, 1.0, dof, &f), stq = gc_stat_t_quantile(0.975, dof, &t);
    double gf = gsl_cdf_fdist_Pinv(0.95, 1.0, dof), gt = gsl_cdf_tdist_Pinv(0.975, dof);
    gsl_fails += !isfinite(gf);
    int ok = sf == GC_SUCCESS && stq == GC_SUCCESS && fabs(f / (t * t) - 1) < 1e-10 &&
             (!isfinite(gf) || fabs(f / gf - 1) < 1e-7) &&
             (!isfinite(gt) || fabs(t / gt - 1) < 1e-7) &&
             fabs(gsl_cdf_fdist_P(f, 1.0, dof) - 0.95) < 1e-10 &&
             fabs(gsl_cdf_tdist_P(t, dof) - 0.975) < 1e-10;
    if (!ok && bad++ < 5)
      fprintf(stderr, "\n  dof %d: F %.17g (%d), t %.17g (%d), GSL %.17g %.17g", dof, f, sf, t, stq,
              gf, gt);
  }
  CU_ASSERT_EQUAL(bad, 0);
  CU_ASSERT(gsl_fails > 1000); /* the inverses this replaces do fail (271 is one of them) */
  CU_ASSERT(!isfinite(gsl_cdf_fdist_Pinv(0.95, 1.0, 271.0)));
  gsl_set_error_handler(old);
  double x;
  CU_ASSERT(gc_stat_t_quantile(0.975, 1e12, &x) == GC_SUCCESS && fabs(x - 1.959963985) < 1e-8);
  CU_ASSERT(gc_stat_t_quantile(0.975, 1.0, &x) == GC_SUCCESS && fabs(x - 12.7062047362) < 1e-9);
  CU_ASSERT(gc_stat_t_quantile(0.025, 10.0, &x) == GC_SUCCESS && fabs(x + 2.228138852) < 1e-8);
  CU_ASSERT(gc_stat_f_quantile(0.95, 3.0, 10.0, &x) == GC_SUCCESS && fabs(x - 3.708264819) < 1e-8);
  CU_ASSERT_EQUAL(gc_stat_t_quantile(1.0, 10.0, &x), GC_EINVAL);
  CU_ASSERT_EQUAL(gc_stat_f_quantile(0.95, 1.0, 0.0, &x), GC_EINVAL);
}

/* ------------------------------------------------------------------ poor fits */

/* The runs test counts runs of equal signs (zeros skipped); the poor-fit flag: the bundled soybean
 * fit is not poor (its 10 residuals have 3 runs, p = 0.024 > 0.001, RMS 2 % of the force), the
 * same compression data in mm under an [m] header are (RMS 100s of times the force). */
static void test_poor_fit(void)
{
  const double r[12] = { 1, 2, 3, 0, 4, 5, -1, -2, -3, -4, -5, -6 };
  gc_runs_test t;
  gc_stat_runs_test(r, 12, &t);
  CU_ASSERT(t.runs == 2 && t.n_pos == 5 && t.n_neg == 6);
  CU_ASSERT(t.p < 0.01); /* mu = 6.45, z = -2.83 */
  double alt[40];
  for (int i = 0; i < 40; i++)
    alt[i] = i % 2 ? 1 : -1;
  gc_stat_runs_test(alt, 40, &t);
  CU_ASSERT(t.runs == 40 && t.p > 0.999);
  for (int mm = 0; mm <= 1; mm++) {
    gc_fit_data d;
    gc_fit_setup s;
    gc_card_extra x;
    soybean(&d, &s, &x);
    for (size_t i = 0; mm && i < d.n_comp; i++)
      d.alpha[i] *= 1e3;
    s.is_free[GC_FIT_NU] = 0;
    gc_fit_problem pb;
    init_problem(&pb, &s, &d);
    gc_fit_result r0 = run(&pb, GC_FIT_LM, 0);
    gc_fit_verdict *v = calloc(1, sizeof *v);
    CU_ASSERT_FATAL(v != NULL);
    for (int j = 0; j < GC_FIT_MAXPAR; j++)
      v->prof[j].j = -1;
    CU_ASSERT_EQUAL(gc_fit_verdict_quality(&pb, r0.p, v), GC_SUCCESS);
    fprintf(stderr, "\n  %s: RMS %.3g of the force, %zu runs, p = %.3g", mm ? "mm as m" : "soybean",
            v->rel_rms, v->runs, v->runs_p);
    CU_ASSERT(v->have_quality && v->n_force == 10);
    CU_ASSERT_EQUAL(v->poor, mm);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CU_ASSERT_FATAL(f != NULL);
    gc_fit_print_verdict(f, &pb, r0.p, NULL, v);
    fclose(f);
    CU_ASSERT_EQUAL(strstr(buf, "POOR FIT") != NULL, mm);
    CU_ASSERT_EQUAL(strstr(buf, "mm under [m]") != NULL, mm);
    free(buf);
    free(v);
    gc_fit_result_free(&r0);
    gc_fit_problem_free(&pb);
    gc_fit_data_free(&d);
  }
}

/* ------------------------------------------------------------------ data */

/* The bundled files: ten points on fig. E.4's curve P = 70.24 (2e3 alpha)^1.318 (1e-6
 * relative: the file holds 7 significant digits) and table E.1, with v_in = sqrt(2 g H) to the
 * table's 3 decimals. */
static void test_soybean_data(void)
{
  gc_fit_data d;
  gc_fit_setup s;
  gc_card_extra x;
  soybean(&d, &s, &x);
  CU_ASSERT_EQUAL(d.n_comp, 10);
  for (size_t i = 0; i < d.n_comp; i++)
    GC_ASSERT_REL(d.P[i], 70.24 * pow(2e3 * d.alpha[i], 1.318), 1e-6);
  CU_ASSERT_DOUBLE_EQUAL(d.alpha[d.n_comp - 1], 0.03e-3, 1e-12);
  CU_ASSERT_EQUAL(d.n_drop, 3);
  const double H[] = { 0.148, 0.289, 0.508 }, v[] = { 1.705, 2.381, 3.156 };
  for (int k = 0; k < 3; k++) {
    CU_ASSERT_DOUBLE_EQUAL(d.v_in[k], v[k], 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(d.e[k], table_e[k], 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(sqrt(2 * 9.80665 * H[k]), v[k], 1.5e-3);
  }
  CU_ASSERT_DOUBLE_EQUAL(s.base.R1, 4.05e-3, 1e-15); /* eq. E.17 */
  CU_ASSERT_DOUBLE_EQUAL(s.mass, 1.49e-4, 1e-15);
  /* the seed's trial values (sec. E.3.1) */
  const double trial[] = { 126e6, 0.4, 0.40, 2.0e-5, 3.0e-6 };
  for (int j = 0; j < GC_FIT_NPAR; j++)
    GC_ASSERT_REL(s.trial[j], trial[j], 1e-15);
  gc_fit_data_free(&d);
}

/* Reading `text` fails and the message holds "FILE:expect" (expect may start with the line). */
static void expect_read_error(int drops, const char *text, const char *expect)
{
  char *path = gc_test_write_tmp(text);
  gc_fit_data d;
  memset(&d, 0, sizeof d);
  char msg[512] = "", want[600];
  int st = drops ? gc_fit_read_drops(&d, path, 0, msg, sizeof msg)
                 : gc_fit_read_compression(&d, path, msg, sizeof msg);
  CU_ASSERT_NOT_EQUAL(st, GC_SUCCESS);
  snprintf(want, sizeof want, "%s:%s", path, expect);
  if (!strstr(msg, want))
    fprintf(stderr, "\n  message '%s' lacks '%s'\n", msg, want);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, want));
  CU_ASSERT_EQUAL(d.n_comp + d.n_drop, 0);
  gc_fit_data_free(&d);
  remove(path);
  free(path);
}

/* Bad input names file:line:column and the problem; never NaN. */
static void test_data_errors(void)
{
  expect_read_error(0, "alpha [m],P [N]\n1e-6,0.1\n2e-6,abc\n",
                    "3:2: column 'P': 'abc' is not a decimal number");
  expect_read_error(0, "alpha [m],P [N]\n1e-6,nan\n", "2:2: column 'P'");
  expect_read_error(0, "alpha [m],P [N]\n1e-6,0.1\n2e-6,-0.2\n", "3:2: negative force");
  expect_read_error(0, "alpha [m],P [N]\n-1e-6,0.1\n", "2:1: negative displacement");
  expect_read_error(0, "# c\nalpha [in],P [N]\n1,0.1\n",
                    "2:1: column 'alpha' is in [in]; accepted units: m, mm, cm, um");
  expect_read_error(0, "alpha [m]\n1e-6\n", "1:1: the header must name");
  expect_read_error(0, "alpha [m],P [N],T [K]\n1e-6,1,abc\n1e-6,x,1\n", "3:2: column 'P': 'x'");
  expect_read_error(1, "H [m];e\n0.148;0,71\n",
                    "2:2: column 'e': '0,71' is not a decimal number (a decimal comma?");
  expect_read_error(0, "alpha [m],P [N]\n1e-6,0.1,3\n", "2:3: more fields");
  expect_read_error(0, "alpha [m],P [N]\n0,0\n", "1:1: no point with a positive");
  expect_read_error(1, "v_in [m/s],e\n1.7,1.2\n", "2:2: e = 1.2 out of range (0, 1]");
  expect_read_error(1, "v_in [m/s],e\n0,0.7\n", "2:1: v_in = 0 m/s out of range");
  expect_read_error(1, "H [m],v_in [m/s],e\n0.148,2.0,0.7\n", "2:2: v_in = 2 m/s disagrees with H");
  expect_read_error(1, "v_in [m/s]\n1.7\n", "1:1: the header must name");
  expect_read_error(1, "v_in [m/s],e,n\n1.7,0.7,0\n", "2:3: repeat count");
  expect_read_error(1, "v_in [km/h],e\n1.7,0.7\n", "1:1: column 'v_in' is in [km/h]");

  /* one data-file contract: units in the header converted (um, kN, cm, mm/s), columns the
   * reader does not know ignored (text too), semicolons detected, each with a note */
  {
    char *u = gc_test_write_tmp("alpha [um];P [kN];operator\n3;0.0001;A\n30;0.0017;B\n");
    char *w = gc_test_write_tmp("H [cm]\tv_in [mm/s]\te\ttemperature [K]\n14.8\t1704\t0.71\t293\n");
    gc_fit_data du;
    memset(&du, 0, sizeof du);
    char m2[512] = "";
    CU_ASSERT_EQUAL(gc_fit_read_compression(&du, u, m2, sizeof m2), GC_SUCCESS);
    CU_ASSERT_EQUAL(gc_fit_read_drops(&du, w, 0, m2, sizeof m2), GC_SUCCESS);
    CU_ASSERT_EQUAL(du.n_comp, 2);
    CU_ASSERT_DOUBLE_EQUAL(du.alpha[1], 30e-6, 1e-18); /* 30 um */
    CU_ASSERT_DOUBLE_EQUAL(du.P[1], 1.7, 1e-12);       /* 0.0017 kN */
    CU_ASSERT_DOUBLE_EQUAL(du.H[0], 0.148, 1e-15);     /* 14.8 cm */
    CU_ASSERT_DOUBLE_EQUAL(du.v_in[0], 1.704, 1e-12);  /* 1704 mm/s */
    CU_ASSERT_PTR_NOT_NULL(strstr(du.notes, "column 'operator' ignored"));
    CU_ASSERT_PTR_NOT_NULL(strstr(du.notes, "column 'temperature' ignored"));
    CU_ASSERT_PTR_NOT_NULL(strstr(du.notes, "column 'P' in [kN] converted to [N] (x 1000)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(du.notes, "read as semicolon-separated"));
    CU_ASSERT_PTR_NOT_NULL(strstr(du.notes, "read as tab-separated"));
    gc_fit_data_free(&du);
    remove(u);
    remove(w);
    free(u);
    free(w);
  }

  /* platen approach: alpha is half of it; H alone: v_in = sqrt(2 g H) */
  char *a = gc_test_write_tmp("approach [m],P [N]\n2e-5,0.5\n");
  char *b = gc_test_write_tmp("H [m],e,sd\n0.148,0.71,0.02\n");
  gc_fit_data d;
  memset(&d, 0, sizeof d);
  char msg[512] = "";
  CU_ASSERT_EQUAL(gc_fit_read_compression(&d, a, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT_EQUAL(gc_fit_read_drops(&d, b, 0, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT_DOUBLE_EQUAL(d.alpha[0], 1e-5, 1e-20);
  CU_ASSERT_DOUBLE_EQUAL(d.v_in[0], sqrt(2 * 9.80665 * 0.148), 1e-12);
  CU_ASSERT(d.has_sd && !d.has_n);
  CU_ASSERT_EQUAL(gc_fit_csv_kind(a, msg, sizeof msg), 1);
  CU_ASSERT_EQUAL(gc_fit_csv_kind(b, msg, sizeof msg), 2);
  gc_fit_data_free(&d);
  remove(a);
  remove(b);
  free(a);
  free(b);
}

/* Settings that the problem refuses, with the parameter and its range in the message. */
static void test_setup_errors(void)
{
  gc_fit_data d;
  gc_fit_setup s0, s;
  gc_card_extra x;
  soybean(&d, &s0, &x);
  gc_fit_problem pb;
  char msg[512];
  s = s0;
  s.trial[GC_FIT_KC] = 0.0;
  CU_ASSERT_EQUAL(gc_fit_problem_init(&pb, &s, &d, msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "K_c = 0: a free parameter needs a positive initial value"));
  s.is_free[GC_FIT_KC] = 0; /* K_c = 0 is fine when fixed */
  CU_ASSERT_EQUAL(gc_fit_problem_init(&pb, &s, &d, msg, sizeof msg), GC_SUCCESS);
  gc_fit_problem_free(&pb);
  s = s0;
  s.hi[GC_FIT_NU] = 0.5;
  CU_ASSERT_EQUAL(gc_fit_problem_init(&pb, &s, &d, msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "nu: upper bound 0.5 out of range (0, 0.5)"));
  s = s0;
  s.lo[GC_FIT_E] = 2e8;
  CU_ASSERT_EQUAL(gc_fit_problem_init(&pb, &s, &d, msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "E: bounds [2e+08, 1.26e+09] Pa"));
  s = s0;
  s.is_free[GC_FIT_NU] = 0;
  s.trial[GC_FIT_NU] = 0.6;
  CU_ASSERT_EQUAL(gc_fit_problem_init(&pb, &s, &d, msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "nu = 0.6 out of range (-1, 0.5)"));
  s = s0;
  s.point_weights = GC_FIT_PW_SD; /* drops.csv has n, not sd */
  CU_ASSERT_EQUAL(gc_fit_problem_init(&pb, &s, &d, msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "need a column 'sd'"));
  for (int j = 0; j < GC_FIT_NPAR; j++)
    s0.is_free[j] = 0;
  CU_ASSERT_EQUAL(gc_fit_problem_init(&pb, &s0, &d, msg, sizeof msg), GC_EINVAL);
  gc_fit_data_free(&d);
}

/* ------------------------------------------------------------------ objective */

/* The allocation-free law of the objective equals gc_law_init's in every constant the normal
 * step uses (exactly: same formulas), and gives the same forces. */
static void test_law_matches(void)
{
  gc_fit_data d;
  gc_fit_setup s;
  gc_card_extra x;
  soybean(&d, &s, &x);
  gc_fit_problem pb;
  init_problem(&pb, &s, &d);
  gc_law a, b;
  CU_ASSERT_EQUAL_FATAL(gc_fit_law(&pb, seed_p, &a), GC_SUCCESS);
  gc_params q = s.base;
  q.E1 = seed_p[0], q.nu1 = seed_p[1], q.P_Y = seed_p[2], q.C_a = seed_p[3], q.K_c = seed_p[4];
  char msg[256];
  CU_ASSERT_EQUAL_FATAL(gc_law_init_preset(&b, gc_preset_lookup("ep"), NULL, &q, msg, sizeof msg),
                        GC_SUCCESS);
  CU_ASSERT_EQUAL(a.pair.E_star, b.pair.E_star);
  CU_ASSERT_EQUAL(a.pair.R_star, b.pair.R_star);
  CU_ASSERT_EQUAL(a.pair.C, b.pair.C);
  CU_ASSERT_EQUAL(a.pair.k_hertz, b.pair.k_hertz);
  CU_ASSERT_EQUAL(a.pair.P_Y, b.pair.P_Y);
  CU_ASSERT_EQUAL(a.pair.p_y, b.pair.p_y);
  CU_ASSERT_EQUAL(a.pair.alpha_Y, b.pair.alpha_Y);
  CU_ASSERT_EQUAL(a.pair.G_star, b.pair.G_star);
  for (double al = 1e-6; al < 4e-5; al += 3e-6) {
    double sa[GC_HIST_MAX], sb[GC_HIST_MAX];
    memset(sa, 0, sizeof sa);
    memset(sb, 0, sizeof sb);
    gc_normal oa, ob;
    CU_ASSERT_EQUAL(gc_law_normal(&a, sa, al, 0, &oa), GC_SUCCESS);
    CU_ASSERT_EQUAL(gc_law_normal(&b, sb, al, 0, &ob), GC_SUCCESS);
    CU_ASSERT_EQUAL(oa.P, ob.P);
  }
  gc_fit_problem_free(&pb);
  gc_fit_data_free(&d);
}

/* eq. E.5-E.7: F(trial) = w_a + w_e exactly; F = |r|^2; F_a, F_e are the raw sums.  At the
 * seed's result the simulated e are an independent simulation's 0.7466 / 0.7020 / 0.6627
 * (0.05 %) and within 0.002 of the seed's 0.7457 / 0.7009 / 0.6615.  A non-physical point gives
 * a finite penalty, never NaN. */
static void test_objective(void)
{
  gc_fit_data d;
  gc_fit_setup s;
  gc_card_extra x;
  soybean(&d, &s, &x);
  gc_fit_problem pb;
  init_problem(&pb, &s, &d);
  double r[13];
  CU_ASSERT_EQUAL_FATAL(pb.n_res, 13);
  gc_fit_value v = gc_fit_eval(&pb, s.trial, r);
  CU_ASSERT_DOUBLE_EQUAL(v.F, 1.0, 1e-14);
  CU_ASSERT_DOUBLE_EQUAL(v.Fa, pb.Fa_ref, 1e-18);
  CU_ASSERT_DOUBLE_EQUAL(v.Fe, pb.Fe_ref, 1e-18);
  v = gc_fit_eval(&pb, seed_p, r);
  double ss = 0;
  for (int i = 0; i < 13; i++)
    ss += r[i] * r[i];
  GC_ASSERT_REL(ss, v.F, 1e-12);
  GC_ASSERT_REL(v.F, 0.1 * v.Fa / pb.Fa_ref + 0.9 * v.Fe / pb.Fe_ref, 1e-12);
  gc_drop_result dr[3];
  double Pm[10];
  CU_ASSERT_EQUAL_FATAL(gc_fit_predict(&pb, seed_p, Pm, dr), GC_SUCCESS);
  const double indep[] = { 0.7466, 0.7020, 0.6627 };
  double fe = 0;
  for (int k = 0; k < 3; k++) {
    GC_ASSERT_REL(dr[k].e_vel, indep[k], 5e-4);
    CU_ASSERT_DOUBLE_EQUAL(dr[k].e_vel, seed_e[k], 0.002);
    fe += (dr[k].e_vel - table_e[k]) * (dr[k].e_vel - table_e[k]);
  }
  GC_ASSERT_REL(v.Fe, fe, 1e-12);
  long nf = pb.nfail;
  double bad[GC_FIT_NPAR] = { 128.8e6, 0.7, 0.3952, 2.202e-5, 2.97e-6 };
  v = gc_fit_eval(&pb, bad, r);
  CU_ASSERT(isfinite(v.F) && v.F > 1e3);
  CU_ASSERT_EQUAL(pb.nfail, nf + 1);
  gc_fit_problem_free(&pb);
  gc_fit_data_free(&d);
}

/* ------------------------------------------------------------------ Algorithm D.1 */

static double sd_F; /* SD's objective on the seed's setting, for the solver comparison */

/* The seed's run (sec. E.3.1): trial E = 126 MPa, nu = 0.4, P_Y = 0.40 N, C_a = 2.0e-5 m/N,
 * K_c = 3.0e-6 1/N, eps = 1e-3, w_a = 0.1, w_e = 0.9, all five free -> 18 iterations,
 * E = 128.8 MPa, nu = 0.4134, P_Y = 0.3952 N, C_a = 2.202e-5 m/N, K_c = 2.970e-6 1/N,
 * e = 0.7457 / 0.7009 / 0.6615, sY = 2.750 MPa (eq. E.18-E.20).  The seed does not give delta
 * nor the ten abscissae of its compression points; with delta = 0.01 (granucal's default) and
 * the bundled points:
 *   iterations 19 (tested: 14-24);
 *   E, nu, P_Y, C_a within 1 % of the seed's, K_c within 2 % (K_c hardly moves: the data do not
 *   determine it, see test_identify);
 *   simulated e within 0.002 of the seed's simulated e, sY within 2 % of 2.750 MPa;
 *   the final |F_new - F_old| below the seed's 2.373e-4 (read as the change of the objective at
 *   convergence; the objective itself cannot be that small: the seed's own e miss table E.1 by
 *   0.036, which alone makes F > 0.5 in the normalisation of eq. E.6-E.7);
 *   F at the result lower than F at the seed's published parameters;
 *   e within 0.04 of table E.1 (the seed's own result misses 0.71 by 0.0357; within 0.01 is not
 *   reachable by this model: see test_solvers_vs_sd, where the best fit has 0.743 at 1.705 m/s). */
static void test_sd_seed(void)
{
  gc_fit_data d;
  gc_fit_setup s;
  gc_card_extra x;
  soybean(&d, &s, &x);
  gc_fit_problem pb;
  init_problem(&pb, &s, &d);
  gc_fit_result r = run(&pb, GC_FIT_SD, 0);
  /* D.1's own stopping test (eq. E.14) is met, but its point is not a minimum: a probe 1e-4 away
   * is lower, so the result is not called converged (the seed's point is kept as published) */
  CU_ASSERT(strncmp(r.stop, "|F_new - F_old| = ", 18) == 0);
  CU_ASSERT(strstr(r.stop, "; not a minimum: F is ") != NULL);
  CU_ASSERT(!r.converged);
  CU_ASSERT(r.niter >= 14 && r.niter <= 24);
  CU_ASSERT(r.nevals == 1 + 6 * r.niter); /* 5 probes + 1 step per iteration */
  for (int j = 0; j < GC_FIT_NPAR; j++)
    GC_ASSERT_REL(r.p[j], seed_p[j], j == GC_FIT_KC ? 0.02 : 0.01);
  gc_drop_result dr[3];
  CU_ASSERT_EQUAL_FATAL(gc_fit_predict(&pb, r.p, NULL, dr), GC_SUCCESS);
  for (int k = 0; k < 3; k++) {
    CU_ASSERT_DOUBLE_EQUAL(dr[k].e_vel, seed_e[k], 0.002);
    CU_ASSERT_DOUBLE_EQUAL(dr[k].e_vel, table_e[k], 0.04);
  }
  double sY;
  CU_ASSERT_EQUAL(gc_fit_yield_stress(&pb.set, r.p, &sY, NULL), GC_SUCCESS);
  GC_ASSERT_REL(sY, 2.750e6, 0.02);
  /* the last entry of the history is the converged step: |F_new - F_old| */
  CU_ASSERT_FATAL(r.ntrace >= 2);
  double dF = fabs(r.trace[r.ntrace - 1].F - r.trace[r.ntrace - 2].F);
  CU_ASSERT(dF < 2.373e-4);
  gc_fit_value vs = gc_fit_eval(&pb, seed_p, NULL);
  CU_ASSERT(r.val.F < vs.F);
  CU_ASSERT(r.val.F < 1.0);
  sd_F = r.val.F;
  gc_fit_result_free(&r);
  gc_fit_problem_free(&pb);
  gc_fit_data_free(&d);
}

/* Every solver reaches an objective at least as low as SD's on the soybean data (same setting:
 * all five free, the seed's trial values and weights), within its bounds.  The best fit found
 * (F = 0.5103) has P_Y at its lower bound: the data push P_Y towards 0. */
static void test_solvers_vs_sd(void)
{
  CU_ASSERT_FATAL(sd_F > 0);
  gc_fit_data d;
  gc_fit_setup s;
  gc_card_extra x;
  soybean(&d, &s, &x);
  gc_fit_problem pb;
  init_problem(&pb, &s, &d);
  const int algs[] = { GC_FIT_LM,    GC_FIT_BOBYQA, GC_FIT_NELDERMEAD,
                       GC_FIT_SBPLX, GC_FIT_DIRECT, GC_FIT_CRS2 };
  for (size_t i = 0; i < sizeof algs / sizeof algs[0]; i++) {
    gc_fit_result r = run(&pb, algs[i], 0);
    if (!(r.val.F <= sd_F))
      fprintf(stderr, "\n  %s: F = %.8g > SD's %.8g\n", gc_fit_alg_name(algs[i]), r.val.F, sd_F);
    CU_ASSERT(r.val.F <= sd_F);
    CU_ASSERT(r.val.F < 0.52); /* the best fit is 0.5103 */
    CU_ASSERT(r.nevals > 0 && r.seconds >= 0 && isfinite(r.val.F));
    for (int j = 0; j < GC_FIT_NPAR; j++)
      CU_ASSERT(r.p[j] >= s.lo[j] && r.p[j] <= s.hi[j]);
    CU_ASSERT(r.ntrace >= 1);
    for (size_t t = 1; t < r.ntrace; t++)
      CU_ASSERT(r.trace[t].F <= r.trace[t - 1].F); /* best-so-far history */
    gc_fit_result_free(&r);
  }
  gc_fit_problem_free(&pb);
  gc_fit_data_free(&d);
}

/* Multi-start: deterministic for a given seed (bitwise), and never worse than its first start
 * (which is the single start from the trial values). */
static void test_multistart(void)
{
  gc_fit_data d;
  gc_fit_setup s;
  gc_card_extra x;
  soybean(&d, &s, &x);
  s.is_free[GC_FIT_NU] = 0;
  gc_fit_problem pb;
  init_problem(&pb, &s, &d);
  gc_fit_options o;
  gc_fit_options_default(&o);
  o.algorithm = GC_FIT_BOBYQA;
  char msg[256];
  gc_fit_result one, a, b;
  CU_ASSERT_EQUAL_FATAL(gc_fit_run(&pb, &o, &one, msg, sizeof msg), GC_SUCCESS);
  o.starts = 4;
  o.seed = 7;
  CU_ASSERT_EQUAL_FATAL(gc_fit_run(&pb, &o, &a, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT_EQUAL_FATAL(gc_fit_run(&pb, &o, &b, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT(memcmp(a.p, b.p, sizeof a.p) == 0);
  CU_ASSERT_EQUAL(a.nevals, b.nevals);
  CU_ASSERT_EQUAL(a.best_start, b.best_start);
  CU_ASSERT(a.val.F <= one.val.F);
  CU_ASSERT(a.nevals > one.nevals);
  gc_fit_result_free(&one);
  gc_fit_result_free(&a);
  gc_fit_result_free(&b);
  gc_fit_problem_free(&pb);
  gc_fit_data_free(&d);
}

/* ------------------------------------------------------------------ recovery */

/* Synthetic data from known parameters at the soybean abscissae (10 alpha_i, 3 v_in), nu fixed
 * at its true value, trial values off by 15-50 %.  K_c = 0.2 1/N so that the curvature
 * correction matters (C_R up to 1.3); at the seed's K_c = 3e-6 1/N it changes C_R by 1e-5 and
 * is not identifiable (test_identify).  Without noise, the identifiable combinations E* (= E
 * here), P_Y, C_a, K_c are recovered within 1 % by lm, bobyqa, neldermead, sbplx, direct, crs2.
 * Algorithm D.1 (sd) is run too: it recovers E* and C_a within 1 % and lowers F by a factor
 * > 100, but its step only ever shrinks, so it stalls in the narrow P_Y valley (condition number
 * of the Jacobian about 150): P_Y within 30 % only.  This is reported, not hidden.
 * With noise (1 % on P, 0.005 on e, GSL mt19937 seed 42), lm recovers every parameter within
 * its 95 % interval and E* within 3 %. */
static const double truth[GC_FIT_NPAR] = { 130e6, 0.4, 0.40, 2.2e-5, 0.2 };

static void recovery_setup(gc_fit_data *d, gc_fit_setup *s, double nP, double ne)
{
  gc_card_extra x;
  soybean(d, s, &x);
  char msg[256] = "";
  int st = gc_fit_synthesize(s, d, truth, nP, ne, 42, msg, sizeof msg);
  if (st)
    fprintf(stderr, "\n  %s\n", msg);
  CU_ASSERT_EQUAL_FATAL(st, GC_SUCCESS);
  const double tr[GC_FIT_NPAR] = { 110e6, 0.4, 0.30, 2.6e-5, 0.3 };
  for (int j = 0; j < GC_FIT_NPAR; j++) {
    s->trial[j] = tr[j];
    s->lo[j] = tr[j] / 10;
    s->hi[j] = tr[j] * 10;
  }
  s->lo[GC_FIT_NU] = 0.05;
  s->hi[GC_FIT_NU] = 0.49;
  s->is_free[GC_FIT_NU] = 0;
}

static void test_recovery(void)
{
  gc_fit_data d;
  gc_fit_setup s;
  recovery_setup(&d, &s, 0, 0);
  gc_fit_problem pb;
  init_problem(&pb, &s, &d);
  const int algs[] = { GC_FIT_LM,    GC_FIT_BOBYQA, GC_FIT_NELDERMEAD,
                       GC_FIT_SBPLX, GC_FIT_DIRECT, GC_FIT_CRS2 };
  for (size_t i = 0; i < sizeof algs / sizeof algs[0]; i++) {
    /* Subplex converges slowly here: 12000 evaluations (about 0.5 s) */
    gc_fit_result r = run(&pb, algs[i], algs[i] == GC_FIT_SBPLX ? 12000 : 0);
    for (int j = 0; j < GC_FIT_NPAR; j++) {
      if (fabs(r.p[j] / truth[j] - 1) > 0.01)
        fprintf(stderr, "\n  %s: %s = %g, true %g\n", gc_fit_alg_name(algs[i]), gc_fit_name(&s, j),
                r.p[j], truth[j]);
      GC_ASSERT_REL(r.p[j], truth[j], 0.01);
    }
    gc_fit_result_free(&r);
  }
  gc_fit_options o;
  gc_fit_options_default(&o);
  o.algorithm = GC_FIT_SD;
  o.sd_eps = 1e-12;
  o.sd_max_iter = 3000;
  gc_fit_result r;
  char msg[256];
  CU_ASSERT_EQUAL_FATAL(gc_fit_run(&pb, &o, &r, msg, sizeof msg), GC_SUCCESS);
  GC_ASSERT_REL(r.p[GC_FIT_E], truth[GC_FIT_E], 0.01);
  GC_ASSERT_REL(r.p[GC_FIT_CA], truth[GC_FIT_CA], 0.01);
  GC_ASSERT_REL(r.p[GC_FIT_PY], truth[GC_FIT_PY], 0.30);
  CU_ASSERT(r.val.F < 1e-2);
  gc_fit_result_free(&r);
  gc_fit_problem_free(&pb);
  gc_fit_data_free(&d);

  recovery_setup(&d, &s, 0.01, 0.005);
  init_problem(&pb, &s, &d);
  r = run(&pb, GC_FIT_LM, 0);
  gc_fit_ident id;
  CU_ASSERT_EQUAL_FATAL(gc_fit_identify(&pb, r.p, 1e-4, &id, msg, sizeof msg), GC_SUCCESS);
  for (int j = 0; j < GC_FIT_NPAR; j++)
    if (s.is_free[j]) {
      if (!(truth[j] >= id.ci_lo[j] && truth[j] <= id.ci_hi[j]))
        fprintf(stderr, "\n  %s = %g outside [%g, %g]\n", gc_fit_name(&s, j), truth[j], id.ci_lo[j],
                id.ci_hi[j]);
      CU_ASSERT(truth[j] >= id.ci_lo[j] && truth[j] <= id.ci_hi[j]);
    }
  GC_ASSERT_REL(id.Estar, truth[GC_FIT_E] / (1 - 0.16), 0.03);
  CU_ASSERT(id.Estar_lo < id.Estar && id.Estar < id.Estar_hi);
  gc_fit_ident_free(&id);
  gc_fit_result_free(&r);
  gc_fit_problem_free(&pb);
  gc_fit_data_free(&d);
}

/* ------------------------------------------------------------------ identifiability */

/* At the seed's result with all five free: nu at fixed E* changes the residuals by < 1e-5 of
 * E*'s effect (it is exactly 0 in the model; the rest is finite-difference noise), the smallest
 * singular value is < 1e-5 of the largest with a direction made of E and nu only, and E and nu
 * correlate at |r| > 0.999; their intervals are reported as not identifiable while E*'s is
 * finite.  On the soybean data K_c is not identifiable either (it changes C_R by 1e-5): with nu
 * fixed the free Jacobian is numerically rank deficient.  On the recovery data (K_c = 0.2) with
 * nu fixed it is not (condition number < 1e3). */
static void test_identify(void)
{
  gc_fit_data d;
  gc_fit_setup s;
  gc_card_extra x;
  soybean(&d, &s, &x);
  gc_fit_problem pb;
  init_problem(&pb, &s, &d);
  gc_fit_ident id;
  char msg[256];
  CU_ASSERT_EQUAL_FATAL(gc_fit_identify(&pb, seed_p, 1e-4, &id, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT(id.nu_at_fixed_Estar < 1e-5);
  CU_ASSERT(id.sv_all[4] < 1e-5 * id.sv_all[0]);
  CU_ASSERT(fabs(id.null_all[GC_FIT_E]) + fabs(id.null_all[GC_FIT_NU]) > 0.99);
  CU_ASSERT(id.rank_deficient);
  CU_ASSERT(id.Enu_free && fabs(id.Enu_corr) > 0.999);
  CU_ASSERT(isinf(id.ci_hi[GC_FIT_E]) && isinf(id.ci_hi[GC_FIT_NU]));
  CU_ASSERT(isfinite(id.Estar_hi) && id.Estar_lo < id.Estar && id.Estar < id.Estar_hi);
  GC_ASSERT_REL(id.Estar, seed_p[0] / (1 - seed_p[1] * seed_p[1]), 1e-12);
  gc_fit_ident_free(&id);
  gc_fit_problem_free(&pb);
  s.is_free[GC_FIT_NU] = 0;
  init_problem(&pb, &s, &d);
  CU_ASSERT_EQUAL_FATAL(gc_fit_identify(&pb, seed_p, 1e-4, &id, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT(id.rank_deficient); /* K_c */
  CU_ASSERT(isinf(id.ci_hi[GC_FIT_KC]));
  CU_ASSERT(isfinite(id.ci_hi[GC_FIT_CA]));
  gc_fit_ident_free(&id);
  gc_fit_problem_free(&pb);
  gc_fit_data_free(&d);

  /* P_Y far above every force of the data: the loading is Hertz's, and none of the free P_Y,
   * C_a, K_c acts on the residuals (J = 0 on the free columns): no parameter is identifiable,
   * and the correlations are the identity, not 0/0 */
  soybean(&d, &s, &x);
  s.is_free[GC_FIT_E] = s.is_free[GC_FIT_NU] = 0;
  s.trial[GC_FIT_PY] = 1e3;
  s.lo[GC_FIT_PY] = 1e2;
  s.hi[GC_FIT_PY] = 1e4;
  init_problem(&pb, &s, &d);
  double elastic[GC_FIT_NPAR];
  memcpy(elastic, seed_p, sizeof elastic);
  elastic[GC_FIT_PY] = 1e3;
  CU_ASSERT_EQUAL_FATAL(gc_fit_identify(&pb, elastic, 1e-4, &id, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT(id.sv_free[0] == 0 && id.rank_deficient);
  for (int a = 0; a < 3; a++) {
    CU_ASSERT(isinf(id.se_log[pb.idx[a]]));
    for (int b = 0; b < 3; b++)
      CU_ASSERT(fabs(id.corr[a * GC_FIT_MAXPAR + b] - (a == b)) < 1e-12);
  }
  gc_fit_ident_free(&id);
  gc_fit_problem_free(&pb);
  gc_fit_data_free(&d);

  recovery_setup(&d, &s, 0, 0);
  init_problem(&pb, &s, &d);
  CU_ASSERT_EQUAL_FATAL(gc_fit_identify(&pb, truth, 1e-4, &id, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT(!id.rank_deficient);
  CU_ASSERT(id.cond_free < 1e3);
  gc_fit_ident_free(&id);
  gc_fit_problem_free(&pb);
  gc_fit_data_free(&d);
}

/* ------------------------------------------------------------------ output */

/* The parameter file reads back with gc_card_read to the same values (%.17g), builds the same
 * law with gc_law_init, and says that E and nu are not separable. */
static void test_params_file(void)
{
  gc_fit_data d;
  gc_fit_setup s;
  gc_card_extra x;
  soybean(&d, &s, &x);
  gc_fit_problem pb;
  init_problem(&pb, &s, &d);
  gc_fit_result r;
  memset(&r, 0, sizeof r);
  memcpy(r.p, seed_p, sizeof seed_p);
  r.val = gc_fit_eval(&pb, r.p, NULL);
  char *path = gc_test_write_tmp("");
  FILE *f = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  CU_ASSERT_EQUAL(gc_fit_write_params(f, &pb, &r, &x, "test"), GC_SUCCESS);
  fclose(f);
  gc_params q;
  gc_card_extra y;
  gc_params_default(&q);
  gc_card_extra_default(&y);
  char msg[512] = "";
  CU_ASSERT_EQUAL_FATAL(gc_card_read(path, &q, &y, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT_STRING_EQUAL(y.nfd, "ep");
  CU_ASSERT_EQUAL(q.E1, seed_p[0]);
  CU_ASSERT_EQUAL(q.nu1, seed_p[1]);
  CU_ASSERT_EQUAL(q.P_Y, seed_p[2]);
  CU_ASSERT_EQUAL(q.C_a, seed_p[3]);
  CU_ASSERT_EQUAL(q.K_c, seed_p[4]);
  CU_ASSERT_EQUAL(q.R1, 4.05e-3);
  CU_ASSERT_EQUAL(y.mass, 1.49e-4);
  GC_ASSERT_REL(q.sY1, 2.750e6, 0.01); /* eq. E.20 */
  gc_law law;
  CU_ASSERT_EQUAL(gc_law_init_preset(&law, gc_preset_lookup("ep"), NULL, &q, msg, sizeof msg),
                  GC_SUCCESS);
  CU_ASSERT_EQUAL(law.pair.P_Y, seed_p[2]);
  FILE *g = fopen(path, "r");
  char buf[8192];
  size_t n = fread(buf, 1, sizeof buf - 1, g);
  buf[n] = 0;
  fclose(g);
  CU_ASSERT_PTR_NOT_NULL(strstr(buf, "E and nu are not separable"));
  remove(path);
  free(path);
  gc_fit_problem_free(&pb);
  gc_fit_data_free(&d);
}

/* --report DIR: every text file is there and nothing temporary is left; PNGs when gnuplot
 * works. */
static void test_report(void)
{
  gc_fit_data d;
  gc_fit_setup s;
  gc_card_extra x;
  soybean(&d, &s, &x);
  s.is_free[GC_FIT_NU] = 0;
  gc_fit_problem pb;
  init_problem(&pb, &s, &d);
  gc_fit_options o;
  gc_fit_options_default(&o);
  gc_fit_result r;
  char msg[512];
  CU_ASSERT_EQUAL_FATAL(gc_fit_run(&pb, &o, &r, msg, sizeof msg), GC_SUCCESS);
  gc_fit_ident id;
  CU_ASSERT_EQUAL_FATAL(gc_fit_identify(&pb, r.p, 1e-4, &id, msg, sizeof msg), GC_SUCCESS);
  char dir[] = "/tmp/granucal-report-XXXXXX";
  CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
  char sub[64];
  snprintf(sub, sizeof sub, "%s/rep", dir);
  int warn = 0;
  int st = gc_fit_write_report(sub, &pb, &o, &r, &id, NULL, &x, "test", &warn, msg, sizeof msg);
  if (st)
    fprintf(stderr, "\n  %s\n", msg);
  CU_ASSERT_EQUAL(st, GC_SUCCESS);
  const char *files[] = { "summary.txt",           "fit.params",      "compression.csv",
                          "compression-model.csv", "restitution.csv", "restitution-model.csv",
                          "convergence.csv",       "plot-fit.gp" };
  char p[600];
  struct stat sb;
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    snprintf(p, sizeof p, "%s/%s", sub, files[i]);
    CU_ASSERT(stat(p, &sb) == 0 && sb.st_size > 0);
  }
  if (!warn) {
    const char *png[] = { "compression.png", "restitution.png", "convergence.png" };
    for (int i = 0; i < 3; i++) {
      snprintf(p, sizeof p, "%s/%s", sub, png[i]);
      CU_ASSERT(stat(p, &sb) == 0 && sb.st_size > 1000);
    }
  }
  /* only rep/ in the parent: no temporary directory left */
  DIR *dp = opendir(dir);
  struct dirent *e;
  int others = 0;
  while (dp && (e = readdir(dp)))
    others += strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, "rep");
  if (dp)
    closedir(dp);
  CU_ASSERT_EQUAL(others, 0);
  /* a report into a path whose parent does not exist fails and leaves nothing */
  snprintf(p, sizeof p, "%s/none/rep", dir);
  CU_ASSERT_NOT_EQUAL(gc_fit_write_report(p, &pb, &o, &r, &id, NULL, &x, "", &warn, msg,
                                          sizeof msg),
                      GC_SUCCESS);
  snprintf(p, sizeof p, "%s/none", dir);
  CU_ASSERT(stat(p, &sb) != 0);
  /* clean up */
  dp = opendir(sub);
  while (dp && (e = readdir(dp)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
      snprintf(p, sizeof p, "%s/%s", sub, e->d_name);
      remove(p);
    }
  if (dp)
    closedir(dp);
  rmdir(sub);
  rmdir(dir);
  gc_fit_ident_free(&id);
  gc_fit_result_free(&r);
  gc_fit_problem_free(&pb);
  gc_fit_data_free(&d);
}

/* The objective history of every start is kept (res.all, start after start; the best
 * start's equals res.trace) and the report's convergence.csv holds one block per start, the
 * chosen one flagged, which plot-fit.gp draws as one line each. */
static void test_all_starts_history(void)
{
  gc_fit_data d;
  gc_fit_setup s;
  gc_card_extra x;
  soybean(&d, &s, &x);
  s.is_free[GC_FIT_NU] = 0;
  gc_fit_problem pb;
  init_problem(&pb, &s, &d);
  gc_fit_options o;
  gc_fit_options_default(&o);
  o.starts = 3;
  gc_fit_result r;
  char msg[512];
  CU_ASSERT_EQUAL_FATAL(gc_fit_run(&pb, &o, &r, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT_EQUAL(r.nstarts, 3);
  size_t nbest = 0, first_best = 0;
  int prev = 0, order_ok = 1;
  for (size_t i = 0; i < r.nall; i++) {
    order_ok &= r.all[i].start >= prev && r.all[i].start >= 1 && r.all[i].start <= 3;
    if (r.all[i].start == r.best_start && nbest++ == 0)
      first_best = i;
    prev = r.all[i].start;
  }
  CU_ASSERT(order_ok);
  CU_ASSERT_EQUAL_FATAL(nbest, r.ntrace);
  for (size_t i = 0; i < r.ntrace; i++)
    CU_ASSERT_EQUAL(r.all[first_best + i].F, r.trace[i].F);
  /* the report's CSV: three blocks, the chosen one flagged */
  char dir[] = "/tmp/granucal-conv-XXXXXX";
  CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
  char sub[64], p[600];
  snprintf(sub, sizeof sub, "%s/rep", dir);
  int warn = 0;
  CU_ASSERT_EQUAL_FATAL(gc_fit_write_report(sub, &pb, &o, &r, NULL, NULL, &x, "test", &warn, msg,
                                            sizeof msg),
                        GC_SUCCESS);
  snprintf(p, sizeof p, "%s/convergence.csv", sub);
  FILE *f = fopen(p, "r");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  char line[256];
  int blocks = 0, blank = 2, flagged_ok = 1;
  size_t rows = 0;
  CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof line, f)); /* header */
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '\n') {
      blank++;
      continue;
    }
    if (blank >= 2)
      blocks++;
    blank = 0;
    int st, ch;
    long it, ev;
    double F;
    CU_ASSERT_EQUAL(sscanf(line, "%d,%ld,%ld,%lf,%d", &st, &it, &ev, &F, &ch), 5);
    flagged_ok &= st == blocks && ch == (st == r.best_start);
    rows++;
  }
  fclose(f);
  CU_ASSERT_EQUAL(blocks, 3);
  CU_ASSERT_EQUAL(rows, r.nall);
  CU_ASSERT(flagged_ok);
  if (!warn) {
    snprintf(p, sizeof p, "%s/convergence.png", sub);
    struct stat sb;
    CU_ASSERT(stat(p, &sb) == 0 && sb.st_size > 1000);
  }
  DIR *dp = opendir(sub);
  struct dirent *e;
  while (dp && (e = readdir(dp)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
      snprintf(p, sizeof p, "%s/%s", sub, e->d_name);
      remove(p);
    }
  if (dp)
    closedir(dp);
  rmdir(sub);
  rmdir(dir);
  gc_fit_result_free(&r);
  gc_fit_problem_free(&pb);
  gc_fit_data_free(&d);
}

/* ------------------------------------------------------------------ other models */

/* Closed-loop recovery for the models other than 'ep': synthetic data made by
 * the model's own law through the simulators (the loading step for the ten compression
 * displacements of the soybean file, 3 to 30 um; gc_drop_run for drops at v_in = 1.705, 2.381,
 * 3.156 m/s, leap-frog dt = 1e-6 s) from known parameters, then `granucal fit`'s default solver
 * (lm) from a start 15-30 % away, in the default search box of gc_fit_setup_model.  Without
 * noise every free parameter comes back within 1e-3 relative, the tolerance checked (reached:
 * below 1e-13; the stopping tests are 1e-8 on the log-parameters).  nu is held:
 * the Hertz-type laws see E and nu only through E* (eq. 3.1).  Soybean geometry (R = 4.05 mm,
 * m = 0.149 g, eq. E.17).
 *   hertz     E = 130 MPa                   (compression only: an elastic drop gives e = 1)
 *   thornton  E = 130 MPa, sY1 = 3 MPa      (the sY form of the yield parameter, eq. 6.19)
 *   thornton  E = 130 MPa, P_Y = 0.8 N      (the P_Y form)
 *   tsuji     E = 130 MPa, e_n = 0.7        (compression and drops)
 *   wb        k_n = 5e4 N/m, e_n = 0.7      (compression and drops; wb reads no E) */
static void test_model_recovery(void)
{
  static const struct {
    const char *model;
    int want_sY, drops;
    const char *names[3];
    double truth[3], start[3];
  } cases[] = {
    { "hertz", 0, 0, { "E", "nu", NULL }, { 130e6, 0.4 }, { 100e6, 0.4 } },
    { "thornton", 1, 1, { "E", "nu", "sY" }, { 130e6, 0.4, 3e6 }, { 110e6, 0.4, 2.4e6 } },
    { "thornton", 0, 1, { "E", "nu", "P_Y" }, { 130e6, 0.4, 0.8 }, { 110e6, 0.4, 0.6 } },
    { "tsuji", 0, 1, { "E", "nu", "e_n" }, { 130e6, 0.4, 0.7 }, { 100e6, 0.4, 0.8 } },
    { "wb", 0, 1, { "k_n", "e_n", NULL }, { 5e4, 0.7 }, { 4e4, 0.85 } },
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    gc_fit_data d;
    gc_fit_setup s;
    gc_card_extra x;
    soybean(&d, &s, &x); /* the soybean displacements and drop speeds */
    gc_params base = s.base;
    base.C_a = base.K_c = base.P_Y = 0.0;
    int n = cases[c].names[2] ? 3 : 2;
    for (int j = 0; j < n; j++) {
      const gc_param_def *pd = gc_param_lookup(cases[c].names[j]);
      CU_ASSERT_PTR_NOT_NULL_FATAL(pd);
      gc_param_put(&base, gc_param_id_of(pd), cases[c].start[j]);
    }
    char msg[512] = "";
    int st = gc_fit_setup_model(&s, gc_preset_lookup(cases[c].model), cases[c].want_sY, &base,
                                x.mass, msg, sizeof msg);
    if (st)
      fprintf(stderr, "\n  %s: %s\n", cases[c].model, msg);
    CU_ASSERT_EQUAL_FATAL(st, GC_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(s.npar, n);
    double truth[GC_FIT_MAXPAR];
    for (int j = 0; j < n; j++) {
      CU_ASSERT_STRING_EQUAL(gc_fit_name(&s, j), cases[c].names[j]);
      truth[j] = cases[c].truth[j];
    }
    if (!cases[c].drops)
      d.n_drop = 0; /* the arrays stay allocated; gc_fit_data_free frees them */
    CU_ASSERT_EQUAL_FATAL(gc_fit_synthesize(&s, &d, truth, 0, 0, 1, msg, sizeof msg), GC_SUCCESS);
    int inu = gc_fit_find(&s, GC_PAR_NU1);
    if (inu >= 0)
      s.is_free[inu] = 0;
    gc_fit_problem pb;
    init_problem(&pb, &s, &d);
    gc_fit_result r = run(&pb, GC_FIT_LM, 0);
    for (int j = 0; j < n; j++) {
      if (s.is_free[j])
        fprintf(stderr, "%s%s %s = %.8g (true %.6g, %+.1e)", j ? ", " : "\n  ", cases[c].model,
                gc_fit_name(&s, j), r.p[j], truth[j], r.p[j] / truth[j] - 1);
      GC_ASSERT_REL(r.p[j], truth[j], 1e-3);
    }
    CU_ASSERT(r.converged);
    gc_fit_result_free(&r);
    gc_fit_problem_free(&pb);
    gc_fit_data_free(&d);
  }
}

/* A load path replayed through the contact driver for a model other than 'ep': Walton-Braun's
 * K1 = k_n and e_n from a load (to 30 um) - unload (to 0) - reload (to 20 um) path, 120 points,
 * made by the model (k_n = 5e4 N/m, e_n = 0.7), fitted from k_n = 4e4, e_n = 0.85: K1 is the
 * loading slope and K2 = K1 / e_n^2 the unloading one (eq. 4.3-4.5), so both come back within
 * 1e-3 (reached: rounding level). */
static void test_model_path_recovery(void)
{
  gc_fit_data d;
  gc_fit_setup s;
  gc_card_extra x;
  soybean(&d, &s, &x);
  gc_fit_data_free(&d);
  memset(&d, 0, sizeof d);
  size_t n = 120;
  const double knots[4] = { 0, 30e-6, 0, 20e-6 };
  char *text = malloc(64 + n * 64), *q = text;
  q += sprintf(q, "t [s],alpha [m],P [N]\n");
  for (size_t i = 0; i < n; i++) {
    double u = 3.0 * (double)i / (double)(n - 1);
    int seg = u >= 3 ? 2 : (int)u;
    double f = u - seg;
    q += sprintf(q, "%zu,%.10e,1\n", i, knots[seg] + f * (knots[seg + 1] - knots[seg]));
  }
  char *path = gc_test_write_tmp(text);
  free(text);
  char msg[512] = "";
  CU_ASSERT_EQUAL_FATAL(gc_fit_read_path(&d, path, msg, sizeof msg), GC_SUCCESS);
  gc_params base = s.base;
  base.k_n = 4e4;
  base.e_n = 0.85;
  CU_ASSERT_EQUAL_FATAL(gc_fit_setup_model(&s, gc_preset_lookup("wb"), 0, &base, x.mass, msg,
                                           sizeof msg),
                        GC_SUCCESS);
  const double truth[2] = { 5e4, 0.7 };
  CU_ASSERT_EQUAL_FATAL(gc_fit_synthesize(&s, &d, truth, 0, 0, 1, msg, sizeof msg), GC_SUCCESS);
  /* the synthetic unloading reaches P = 0 at alpha_res = 30 um (1 - e^2) = 15.3 um */
  double Pmin_unload = INFINITY;
  for (size_t i = n / 3; i < 2 * n / 3; i++)
    Pmin_unload = fmin(Pmin_unload, d.path_P[i]);
  CU_ASSERT_EQUAL(Pmin_unload, 0.0);
  gc_fit_problem pb;
  init_problem(&pb, &s, &d);
  gc_fit_result r = run(&pb, GC_FIT_LM, 0);
  for (int j = 0; j < 2; j++) {
    fprintf(stderr, "%swb (path) %s = %.8g (true %.6g, %+.1e)", j ? ", " : "\n  ",
            gc_fit_name(&s, j), r.p[j], truth[j], r.p[j] / truth[j] - 1);
    GC_ASSERT_REL(r.p[j], truth[j], 1e-3);
  }
  gc_fit_result_free(&r);
  gc_fit_problem_free(&pb);
  gc_fit_data_free(&d);
  remove(path);
  free(path);
}

/* A parameter the model does not read is not in its vector (the CLI refuses it by name, see
 * tests/cli.sh); the ones it reads but that do not change its normal force are not either:
 * wb's nu1 (only its K_T0, eq. 4.8), mu and kt_ratio of every model. */
static void test_model_params(void)
{
  gc_fit_data d;
  gc_fit_setup s;
  gc_card_extra x;
  soybean(&d, &s, &x);
  gc_params base = s.base;
  base.k_n = 5e4;
  base.e_n = 0.7;
  base.mu = 0.3;
  char msg[512] = "";
  gc_param_id ids[GC_FIT_MAXPAR], other[GC_NPAR];
  int n = 0, no = 0;
  CU_ASSERT_EQUAL_FATAL(gc_fit_model_params(gc_preset_lookup("wb"), &base, x.mass, 0, ids, &n,
                                            other, &no, msg, sizeof msg),
                        GC_SUCCESS);
  CU_ASSERT_EQUAL(n, 2);
  CU_ASSERT(!gc_fit_model_reads(gc_preset_lookup("wb"), GC_PAR_E1));
  int nu_other = 0, mu_other = 0;
  for (int k = 0; k < no; k++) {
    nu_other |= other[k] == GC_PAR_NU1;
    mu_other |= other[k] == GC_PAR_MU;
  }
  CU_ASSERT(nu_other && mu_other);
  /* the model's law is the one the drop driver builds: same forces in the objective */
  CU_ASSERT_EQUAL_FATAL(gc_fit_setup_model(&s, gc_preset_lookup("wb"), 0, &base, x.mass, msg,
                                           sizeof msg),
                        GC_SUCCESS);
  gc_fit_problem pb;
  init_problem(&pb, &s, &d);
  gc_law a, b;
  CU_ASSERT_EQUAL_FATAL(gc_fit_law(&pb, s.trial, &a), GC_SUCCESS);
  CU_ASSERT_EQUAL_FATAL(gc_law_init_preset(&b, gc_preset_lookup("wb"), NULL, &base, msg,
                                           sizeof msg),
                        GC_SUCCESS);
  CU_ASSERT_PTR_EQUAL(a.sub[GC_KIND_NORMAL], b.sub[GC_KIND_NORMAL]);
  CU_ASSERT_EQUAL(a.pair.K2, b.pair.K2); /* K1 / e^2, eq. 4.5 */
  gc_fit_problem_free(&pb);
  gc_fit_data_free(&d);
}

int gc_test_add_fit(void)
{
  CU_pSuite s = CU_add_suite("fit (appendix E, Algorithm D.1)", NULL, NULL);
  if (!s)
    return CU_get_error();
  if (!CU_add_test(s, "bundled soybean data (table E.1, fig. E.4)", test_soybean_data) ||
      !CU_add_test(s, "F and t quantiles for dof 1..200000", test_quantiles) ||
      !CU_add_test(s, "poor fits: runs test and RMS (mm under [m])", test_poor_fit) ||
      !CU_add_test(s, "bad data: file:line:column", test_data_errors) ||
      !CU_add_test(s, "bad settings name the parameter", test_setup_errors) ||
      !CU_add_test(s, "objective's law equals gc_law_init's", test_law_matches) ||
      !CU_add_test(s, "objective eq. E.1-E.7", test_objective) ||
      !CU_add_test(s, "Algorithm D.1 reproduces the seed's run", test_sd_seed) ||
      !CU_add_test(s, "every solver at least as low as SD", test_solvers_vs_sd) ||
      !CU_add_test(s, "multi-start is deterministic", test_multistart) ||
      !CU_add_test(s, "recovery of known parameters", test_recovery) ||
      !CU_add_test(s, "identifiability: E and nu through E*", test_identify) ||
      !CU_add_test(s, "parameter file reads back", test_params_file) ||
      !CU_add_test(s, "--report directory", test_report) ||
      !CU_add_test(s, "every start's history", test_all_starts_history) ||
      !CU_add_test(s, "other models: closed-loop recovery", test_model_recovery) ||
      !CU_add_test(s, "other models: load-path recovery (wb)", test_model_path_recovery) ||
      !CU_add_test(s, "other models: parameter sets", test_model_params))
    return CU_get_error();
  return CUE_SUCCESS;
}
