/* test_compare.c - models against reference curves (`granucal compare`, sec. 6.4) and the fit
 * from load paths (FEA curves, load-unload-reload data).  Sources and tolerances are named at
 * each check. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "fit.h"
#include "gc_io.h"
#include "gc_test.h"

#define FEA GC_DATADIR "/fea/"
#define AL GC_DATADIR "/materials/aluminium.card"

static void law_of(const char *model, const char *card, gc_law *law)
{
  gc_params p;
  gc_card_extra x;
  char msg[512] = "";
  gc_params_default(&p);
  gc_card_extra_default(&x);
  int st = gc_card_read(card, &p, &x, msg, sizeof msg);
  if (!st)
    st = gc_law_init_preset(law, gc_preset_lookup(model), NULL, &p, msg, sizeof msg);
  if (st)
    fprintf(stderr, "\n  %s\n", msg);
  CU_ASSERT_EQUAL_FATAL(st, GC_SUCCESS);
}

/* ------------------------------------------------------------------ closed forms */

/* A Hertz curve (aluminium sphere on a plane, eq. 3.10: P = (4/3) E* sqrt(R) alpha^1.5) loaded
 * to 1.3e-5 m and unloaded, in 2000 steps, replayed through 'hertz': errors 0 (1e-9 of P_max),
 * e = 1 and W_load = (8/15) E* sqrt(R) alpha_max^2.5 (the integral) within 1e-5 (trapezoidal
 * rule, h^2 error). */
static void test_hertz_closed_form(void)
{
  gc_law law;
  law_of("hertz", AL, &law);
  const double Es = 7e10 / (1 - 0.09), am = 1.3e-5, k = 4.0 / 3.0 * Es * sqrt(0.1);
  gc_curve c;
  CU_ASSERT_EQUAL_FATAL(gc_curve_alloc(&c, 2001), GC_SUCCESS);
  for (size_t i = 0; i <= 2000; i++) {
    double u = i <= 1000 ? i / 1000.0 : (2000 - i) / 1000.0;
    c.t[i] = (double)i;
    c.alpha[i] = am * u;
    c.P[i] = k * pow(c.alpha[i], 1.5);
  }
  double *a = malloc(c.n * sizeof *a), *P = malloc(c.n * sizeof *P);
  gc_curve_stats s;
  char msg[256];
  CU_ASSERT_EQUAL_FATAL(gc_compare_run(&law, &c, GC_COMPARE_ALPHA, a, P, &s, msg, sizeof msg),
                        GC_SUCCESS);
  CU_ASSERT(s.max_load < 1e-9 * s.P_max && s.max_unload < 1e-9 * s.P_max);
  CU_ASSERT_EQUAL(s.n_load, 1000);
  CU_ASSERT_EQUAL(s.n_unload, 1000);
  GC_ASSERT_REL(s.e, 1.0, 1e-9);
  GC_ASSERT_REL(s.W_load, 8.0 / 15.0 * Es * sqrt(0.1) * pow(am, 2.5), 1e-5);
  /* force-driven replay returns the displacements (Brent, 1e-14 relative) */
  CU_ASSERT_EQUAL_FATAL(gc_compare_run(&law, &c, GC_COMPARE_FORCE, a, P, &s, msg, sizeof msg),
                        GC_SUCCESS);
  CU_ASSERT(s.max_load < 1e-9 * am && s.max_unload < 1e-9 * am);
  free(a);
  free(P);
  gc_curve_free(&c);
}

static void test_curve_errors(void)
{
  static const struct {
    const char *text, *expect;
  } cases[] = {
    { "t [s],alpha [m],P [N]\n0,0,0\n1,1e-6,-2\n", ":3:3: P = -2 N out of range" },
    { "t [s],alpha [in],P [N]\n0,0,0\n", ":1:2: column 'alpha' is in [in]; accepted units: m" },
    { "t [s],alpha,P [N]\n0,0,0\n", ":1:2: column 'alpha' has no unit" },
    { "t [s],alpha [m],P [N],Qx [N]\n0,0,0,0\n",
      ":1:4: unknown column 'Qx' (a curve has t [s] (or time), alpha [m], P [N]; ignored: a" },
    { "t [s],alpha [m],P [N]\n0,0,0\n0,1e-6,2\n", ":3:1: t = 0 s does not increase" },
    { "t [s],alpha [m],F [N]\n0,0,0\n", ":1:3: unknown column 'F'" },
    { "t [s],alpha [m]\n0,0\n1,1\n", "needs the columns 'alpha' [m] and 'P' [N]" },
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *path = gc_test_write_tmp(cases[i].text);
    gc_curve c;
    char msg[512] = "";
    CU_ASSERT_EQUAL(gc_curve_read(path, &c, msg, sizeof msg), GC_EFORMAT);
    if (!strstr(msg, cases[i].expect) || !strstr(msg, path))
      fprintf(stderr, "\n  got '%s', want '%s'\n", msg, cases[i].expect);
    CU_ASSERT(strstr(msg, cases[i].expect) != NULL && strstr(msg, path) != NULL);
    remove(path);
    free(path);
  }
}

/* ------------------------------------------------------------------ the seed's sec. 6.4 */

/* The bundled CalculiX curves (scripts/fea-sphere --bundle; fea-sphere(1) gives the mesh
 * convergence) replayed through 'ep' (the seed's C_a, K_c) and 'thornton', against the seed's
 * sec. 6.4 (fig. 6.14-6.16):
 *   FEA alpha_max ~ 0.68 / 1.14 / 1.56e-5 m: within 3 % (read off the seed's figures; the
 *     bundled CAX8R curves give 6.816e-6 / 1.1469e-5 / 1.5711e-5, within 0.7 %);
 *   FEA e_FE = 0.8407 / 0.7757 / 0.7372: within 3 % (ours 0.8382 / 0.7740 / 0.7326);
 *   ep: e_pm - e_FE = +2.5 / +3.1 / +2.3 % in the seed: ours within [-1, +5] % (+2.7 / +3.2 /
 *     +2.7 %), and P_max = 468.1 / 962.1 / 1495 N: within 5 % (470.7 / 967.3 / 1510.7 N);
 *   thornton: P_max = 325.2 / 559.6 / 770.5 N, "about half" at 1500 N: within 5 % (327.1 /
 *     562.8 / 777.7 N), and e_Th = 0.6929 / 0.6091 / 0.5641 within 5 % (0.6914 / 0.6076 /
 *     0.5618). */
static void test_seed_fig_6_14_16(void)
{
  static const struct {
    const char *file;
    double alpha_max, e_FE, P_ep, P_th, e_th;
  } ref[] = {
    { FEA "al-ABC-500N.csv", 0.68e-5, 0.8407, 468.1, 325.2, 0.6929 },
    { FEA "al-ADE-1000N.csv", 1.14e-5, 0.7757, 962.1, 559.6, 0.6091 },
    { FEA "al-AFG-1500N.csv", 1.56e-5, 0.7372, 1495.0, 770.5, 0.5641 },
  };
  gc_law ep, th;
  law_of("ep", AL, &ep);
  law_of("thornton", AL, &th);
  for (size_t i = 0; i < sizeof ref / sizeof ref[0]; i++) {
    gc_curve c;
    char msg[512] = "";
    int st = gc_curve_read(ref[i].file, &c, msg, sizeof msg);
    if (st)
      fprintf(stderr, "\n  %s\n", msg);
    CU_ASSERT_EQUAL_FATAL(st, GC_SUCCESS);
    gc_curve_stats fs, es, ts;
    gc_curve_stats_of(c.alpha, c.P, c.n, &fs);
    double *a = malloc(c.n * sizeof *a), *P = malloc(c.n * sizeof *P);
    CU_ASSERT_EQUAL_FATAL(gc_compare_run(&ep, &c, GC_COMPARE_ALPHA, a, P, &es, msg, sizeof msg), 0);
    CU_ASSERT_EQUAL_FATAL(gc_compare_run(&th, &c, GC_COMPARE_ALPHA, a, P, &ts, msg, sizeof msg), 0);
    fprintf(stderr,
            "\n  %s: FEA alpha_max %.4e e %.4f | ep P_max %.1f e %.4f (%+.1f %%) | "
            "thornton P_max %.1f e %.4f",
            ref[i].file + strlen(FEA), fs.alpha_max, fs.e, es.P_max, es.e, 100 * (es.e / fs.e - 1),
            ts.P_max, ts.e);
    GC_ASSERT_REL(fs.alpha_max, ref[i].alpha_max, 0.03);
    GC_ASSERT_REL(fs.e, ref[i].e_FE, 0.03);
    CU_ASSERT(es.e / fs.e - 1 > -0.01 && es.e / fs.e - 1 < 0.05);
    GC_ASSERT_REL(es.P_max, ref[i].P_ep, 0.05);
    GC_ASSERT_REL(ts.P_max, ref[i].P_th, 0.05);
    GC_ASSERT_REL(ts.e, ref[i].e_th, 0.05);
    free(a);
    free(P);
    gc_curve_free(&c);
  }
}

/* ------------------------------------------------------------------ fit from load paths */

/* BOBYQA: from the start of test_path_recovery, LM (the CLI's default) stops in a local minimum
 * with P_Y on its upper bound (F = 2.6e-4 against 0 at the truth); BOBYQA and Nelder-Mead
 * reach the truth (F < 1e-19). */
static gc_fit_result fit_run(gc_fit_problem *pb)
{
  gc_fit_options o;
  gc_fit_options_default(&o);
  o.algorithm = GC_FIT_BOBYQA;
  gc_fit_result r;
  char msg[512] = "";
  int st = gc_fit_run(pb, &o, &r, msg, sizeof msg);
  if (st)
    fprintf(stderr, "\n  %s\n", msg);
  CU_ASSERT_EQUAL_FATAL(st, GC_SUCCESS);
  return r;
}

static void al_setup(gc_fit_setup *s)
{
  gc_params p;
  gc_card_extra x;
  char msg[512] = "";
  gc_params_default(&p);
  gc_card_extra_default(&x);
  int st = gc_card_read(AL, &p, &x, msg, sizeof msg);
  if (!st)
    st = gc_fit_setup_default(s, &p, 11.306, msg, sizeof msg);
  if (st)
    fprintf(stderr, "\n  %s\n", msg);
  CU_ASSERT_EQUAL_FATAL(st, GC_SUCCESS);
}

/* Recovery from a synthetic load (alpha to 1.0e-5 m) - unload (to 0.55e-5) - reload (to
 * 1.6e-5) - unload (to 0) path, 200 points, made by the model itself from the aluminium values
 * of sec. 6.1-6.2 (E = 70 GPa, nu = 0.3, P_Y = 36.4 N, C_a = 2.33e-7 m/N, K_c = 2.69e-4 1/N),
 * started 20-30 % away: E, P_Y, C_a and K_c within 1 % (no noise), K_c included, which a
 * monotonic curve identifies only together with C_a (its effect is that of a_p's on loading,
 * eq. 6.26; the unloading curve, eq. 6.33-6.36, separates them).
 * nu is held at its true value: E and nu enter the model only through E* = E / (1 - nu^2)
 * (eq. 6.28, with P_Y a parameter), so no normal force-displacement data can give both: the
 * identifiability analysis measures nu's effect at fixed E* as 0 (< 1e-6 of E*'s). */
static void test_path_recovery(void)
{
  const double truth[GC_FIT_NPAR] = { 70e9, 0.3, 36.4, 2.33e-7, 2.69e-4 };
  const double start[GC_FIT_NPAR] = { 55e9, 0.3, 28.0, 3.0e-7, 2.0e-4 };
  gc_fit_setup s;
  al_setup(&s);
  gc_fit_data d;
  memset(&d, 0, sizeof d);
  /* the path file: written, then read as the CLI does */
  size_t n = 200;
  const double knots[5] = { 0, 1.0e-5, 0.55e-5, 1.6e-5, 0 };
  size_t len = 64 + n * 64;
  char *text = malloc(len), *q = text;
  q += sprintf(q, "t [s],alpha [m],P [N]\n");
  for (size_t i = 0; i < n; i++) {
    double u = 4.0 * (double)i / (double)(n - 1);
    int seg = u >= 4 ? 3 : (int)u;
    double f = u - seg;
    q += sprintf(q, "%zu,%.10e,1\n", i, knots[seg] + f * (knots[seg + 1] - knots[seg]));
  }
  char *path = gc_test_write_tmp(text);
  free(text);
  char msg[512] = "";
  CU_ASSERT_EQUAL_FATAL(gc_fit_csv_kind(path, msg, sizeof msg), 3);
  CU_ASSERT_EQUAL_FATAL(gc_fit_read_path(&d, path, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT_EQUAL_FATAL(gc_fit_synthesize(&s, &d, truth, 0, 0, 1, msg, sizeof msg), GC_SUCCESS);
  double Pm = 0;
  for (size_t i = 0; i < d.n_path; i++)
    Pm = fmax(Pm, d.path_P[i]);
  CU_ASSERT(Pm > 1000 && Pm < 2500); /* a realistic load level: 1.6e-5 m is about 1500 N */
  for (int j = 0; j < GC_FIT_NPAR; j++) {
    s.trial[j] = start[j];
    s.lo[j] = start[j] / 10;
    s.hi[j] = start[j] * 10;
    s.is_free[j] = j != GC_FIT_NU;
  }
  s.lo[GC_FIT_NU] = 0.05;
  s.hi[GC_FIT_NU] = 0.49;
  gc_fit_problem pb;
  int st = gc_fit_problem_init(&pb, &s, &d, msg, sizeof msg);
  if (st)
    fprintf(stderr, "\n  %s\n", msg);
  CU_ASSERT_EQUAL_FATAL(st, GC_SUCCESS);
  gc_fit_result r = fit_run(&pb);
  for (int j = 0; j < GC_FIT_NPAR; j++) {
    if (fabs(r.p[j] / truth[j] - 1) > 0.01)
      fprintf(stderr, "\n  %s = %g, true %g\n", gc_fit_name(&s, j), r.p[j], truth[j]);
    GC_ASSERT_REL(r.p[j], truth[j], 0.01);
  }
  gc_fit_ident id;
  CU_ASSERT_EQUAL_FATAL(gc_fit_identify(&pb, r.p, 1e-4, &id, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT(id.nu_at_fixed_Estar < 1e-6);
  CU_ASSERT(!id.rank_deficient);
  gc_fit_ident_free(&id);
  gc_fit_result_free(&r);
  gc_fit_problem_free(&pb);
  gc_fit_data_free(&d);
  remove(path);
  free(path);
}

/* C_a and K_c from the three bundled aluminium FEA curves (E, nu,
 * P_Y of sY = 100 MPa known), jointly, against the seed's C_a = 2.33e-7 m/N (sec. 6.2.1) and
 * K_c = 2.69e-4 1/N (eq. 6.13), which the seed took from the FEA's contact radius and
 * curvature rather than from its force curve.  Ours from the force curves of the bundled
 * curves (CAX8R, level 1): C_a = 2.446e-7 (+5.0 %), K_c = 3.14e-4 (+17 %), RMS force error
 * 17 N (on the CAX4 level-1 curves, 1-2 % stiffer: 2.347e-7 and 3.06e-4); checked: C_a within
 * 6 %, K_c within 20 % of the seed's (the two routes weigh different features of the same FEA:
 * K_c is the weaker one, correlated with C_a at r = 0.95), the RMS force error below 2 % of
 * 1500 N, and the two separable (not rank deficient, |r| < 0.99). */
static void test_fea_fit(void)
{
  gc_fit_setup s;
  al_setup(&s);
  gc_fit_data d;
  memset(&d, 0, sizeof d);
  char msg[512] = "";
  const char *files[3] = { FEA "al-ABC-500N.csv", FEA "al-ADE-1000N.csv", FEA "al-AFG-1500N.csv" };
  for (int f = 0; f < 3; f++) {
    CU_ASSERT_EQUAL_FATAL(gc_fit_csv_kind(files[f], msg, sizeof msg), 3);
    int st = gc_fit_read_path(&d, files[f], msg, sizeof msg);
    if (st)
      fprintf(stderr, "\n  %s\n", msg);
    CU_ASSERT_EQUAL_FATAL(st, GC_SUCCESS);
  }
  CU_ASSERT_EQUAL(d.n_path_files, 3);
  s.is_free[GC_FIT_E] = s.is_free[GC_FIT_NU] = s.is_free[GC_FIT_PY] = 0;
  gc_fit_problem pb;
  int st = gc_fit_problem_init(&pb, &s, &d, msg, sizeof msg);
  if (st)
    fprintf(stderr, "\n  %s\n", msg);
  CU_ASSERT_EQUAL_FATAL(st, GC_SUCCESS);
  gc_fit_result r = fit_run(&pb);
  gc_fit_ident id;
  CU_ASSERT_EQUAL_FATAL(gc_fit_identify(&pb, r.p, 1e-4, &id, msg, sizeof msg), GC_SUCCESS);
  double rms = sqrt(r.val.Fa / (double)d.n_path);
  fprintf(stderr,
          "\n  FEA fit: C_a = %.4g m/N [%.3g, %.3g] (seed 2.33e-7), K_c = %.4g 1/N "
          "[%.3g, %.3g] (seed 2.69e-4), corr %.3f, RMS force error %.2f N",
          r.p[GC_FIT_CA], id.ci_lo[GC_FIT_CA], id.ci_hi[GC_FIT_CA], r.p[GC_FIT_KC],
          id.ci_lo[GC_FIT_KC], id.ci_hi[GC_FIT_KC], id.corr[0 * GC_FIT_NPAR + 1], rms);
  GC_ASSERT_REL(r.p[GC_FIT_CA], 2.33e-7, 0.06);
  GC_ASSERT_REL(r.p[GC_FIT_KC], 2.69e-4, 0.20);
  CU_ASSERT(rms < 0.02 * 1500);
  CU_ASSERT(!id.rank_deficient);
  CU_ASSERT(fabs(id.corr[0 * GC_FIT_NPAR + 1]) < 0.99);
  gc_fit_ident_free(&id);
  gc_fit_result_free(&r);
  gc_fit_problem_free(&pb);
  gc_fit_data_free(&d);
}

int gc_test_add_compare(void)
{
  CU_pSuite s = CU_add_suite("compare and path fit (sec. 6.4)", NULL, NULL);
  if (!s)
    return -1;
  if (!CU_add_test(s, "Hertz closed form through the comparison", test_hertz_closed_form) ||
      !CU_add_test(s, "bad curve files: file:line:column", test_curve_errors) ||
      !CU_add_test(s, "FEA curves vs the seed's fig. 6.14-6.16", test_seed_fig_6_14_16) ||
      !CU_add_test(s, "recovery from a load-unload-reload path", test_path_recovery) ||
      !CU_add_test(s, "C_a, K_c from the FEA curves", test_fea_fit))
    return -1;
  return 0;
}
