/* test_impact.c - oblique impacts with spin against rigid-body theory (appendix B and C). */
#include <math.h>
#include <stdio.h>

#include "gc_test.h"
#include "impact_sim.h"

static gc_law law_of(const char *nfd, const char *tfd, const gc_params *p)
{
  gc_law law;
  char msg[256] = "";
  int st = gc_law_init(&law, gc_model_lookup(nfd), gc_model_lookup(tfd), p, msg, sizeof msg);
  if (st)
    fprintf(stderr, "%s\n", msg);
  CU_ASSERT_EQUAL_FATAL(st, GC_SUCCESS);
  return law;
}

/* Superball (appendix B): elastic normal spring, no slip, and a tangential spring whose
 * period equals the normal one, K_T / K_N = I / (I + m R^2) = 2/7 for a homogeneous sphere
 * (eq. C.32-C.33).  Then every contact reverses the slip velocity of the contact point
 * (beta = 1) and e = 1; with the superball's initial condition omega = m R v_t / I
 * (= 5 v_t / (2 R)), the impulse J = 2 m v_t also reverses the centre's velocity and the spin,
 * v_t' = -v_t, omega' = -omega (eq. B.1-B.2), so the trajectory repeats bounce after bounce.
 * Linear springs make the periods exact; tolerance 2e-3 for the time discretisation
 * (dt = contact duration / 2000). */
static void test_superball(void)
{
  gc_params p;
  gc_params_default(&p);
  const double m = 0.01, R = 0.01, kn = 1e6;
  p.k_n = kn;
  p.k_t = kn * 2.0 / 7.0;
  p.mu = 10.0; /* no sliding */
  gc_law law = law_of("lsd", "lsd", &p);
  gc_impact_cfg cfg;
  gc_impact_cfg_default(&cfg);
  cfg.mass = m;
  cfg.radius = R;
  cfg.dt = M_PI * sqrt(m / kn) / 2000.0;
  const double vt[] = { 0.3, -0.2, 0.05 }, w[] = { 10.0, 35.0, -50.0 };
  for (int i = 0; i < 3; i++) {
    gc_impact_result r;
    CU_ASSERT_EQUAL_FATAL(gc_impact_run(&law, &cfg, 1.0, vt[i], w[i], &r), GC_SUCCESS);
    CU_ASSERT_DOUBLE_EQUAL(r.e, 1.0, 2e-3);
    CU_ASSERT_DOUBLE_EQUAL(r.beta, 1.0, 2e-3);
    CU_ASSERT_EQUAL(r.n_sliding, 0);
    /* superball initial condition */
    double ws = 2.5 * vt[i] / R;
    CU_ASSERT_EQUAL_FATAL(gc_impact_run(&law, &cfg, 1.0, vt[i], ws, &r), GC_SUCCESS);
    CU_ASSERT_DOUBLE_EQUAL(r.v_t_out, -vt[i], 2e-3 * fabs(vt[i]));
    CU_ASSERT_DOUBLE_EQUAL(r.omega_out, -ws, 2e-3 * fabs(ws));
  }
}

/* Sliding collisions (appendix C, eq. C.25): when the contact slides throughout,
 * beta = -1 + (7/2) mu (1 + e) v_n / v_st for any normal law, here a linear spring with the
 * Coulomb limit (e = 1).  Tolerance 1 % of |beta| + 1e-3. */
static void test_sliding_theory(void)
{
  gc_params p;
  gc_params_default(&p);
  const double m = 0.01, R = 0.01, kn = 1e6;
  p.k_n = kn;
  p.k_t = kn * 2.0 / 7.0;
  p.mu = 0.1;
  gc_law law = law_of("lsd", "lsd", &p);
  gc_impact_cfg cfg;
  gc_impact_cfg_default(&cfg);
  cfg.mass = m;
  cfg.radius = R;
  cfg.dt = M_PI * sqrt(m / kn) / 2000.0;
  const double ratio[] = { 0.05, 0.1, 0.2 }; /* v_n / v_st, well inside the sliding regime */
  for (int i = 0; i < 3; i++) {
    double w = 1.0 / (ratio[i] * R);
    gc_impact_result r;
    CU_ASSERT_EQUAL_FATAL(gc_impact_run(&law, &cfg, 1.0, 0.0, w, &r), GC_SUCCESS);
    double b = gc_beta_sliding(p.mu, r.e, 1.0, r.v_st);
    CU_ASSERT_DOUBLE_EQUAL(r.beta, b, 0.01 * fabs(b) + 1e-3);
  }
}

int gc_test_add_impact(void)
{
  CU_pSuite s = CU_add_suite("oblique impacts (appendix B, C)", NULL, NULL);
  if (!s)
    return CU_get_error();
  if (!CU_add_test(s, "superball reverses v_t and omega", test_superball) ||
      !CU_add_test(s, "sliding collisions follow eq. C.25", test_sliding_theory))
    return CU_get_error();
  return CUE_SUCCESS;
}
