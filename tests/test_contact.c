/* test_contact.c - the single-contact simulator: force-driven inversion, work bookkeeping,
 * built-in paths. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contact_sim.h"
#include "gc_test.h"

static gc_law aluminium_law(const char *nfd, const char *tfd)
{
  gc_params p;
  gc_params_default(&p);
  p.R1 = 0.1;
  p.E1 = 7.0e10;
  p.nu1 = 0.3;
  p.sY1 = 1.0e8;
  p.C_a = 2.33e-7;
  p.K_c = 2.69e-4;
  p.mu = 0.5;
  gc_law law;
  char msg[256];
  CU_ASSERT_EQUAL_FATAL(gc_law_init_preset(&law, gc_preset_lookup(nfd),
                                           tfd ? gc_preset_lookup(tfd) : NULL, &p, msg, sizeof msg),
                        GC_SUCCESS);
  return law;
}

/* Force-driven stepping hits every target force (relative 1e-10) on loading and unloading,
 * and P = 0 lands exactly on the residual displacement (eq. 6.33). */
static void test_force_inversion(void)
{
  const char *models[] = { "hertz", "thornton", "ep" };
  for (int m = 0; m < 3; m++) {
    gc_law law = aluminium_law(models[m], NULL);
    gc_loadpath lp;
    char msg[256];
    CU_ASSERT_EQUAL_FATAL(gc_loadpath_ramp(&lp, 1200.0, 301, msg, sizeof msg), GC_SUCCESS);
    gc_contact_rec *r = calloc(lp.n, sizeof *r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    gc_contact_summary sum;
    CU_ASSERT_EQUAL(gc_contact_run(&law, &lp, r, &sum, msg, sizeof msg), GC_SUCCESS);
    for (size_t i = 0; i < lp.n; i++)
      CU_ASSERT_DOUBLE_EQUAL(r[i].P, lp.x[i], 1e-10 * 1200.0);
    /* displacement rises then falls monotonically */
    for (size_t i = 1; i < lp.n; i++) {
      if (lp.x[i] > lp.x[i - 1]) {
        CU_ASSERT(r[i].alpha > r[i - 1].alpha);
      }
      if (lp.x[i] < lp.x[i - 1]) {
        CU_ASSERT(r[i].alpha < r[i - 1].alpha);
      }
    }
    CU_ASSERT_DOUBLE_EQUAL(r[lp.n - 1].alpha, sum.alpha_res, 1e-12 * sum.alpha_max + 1e-18);
    if (m == 0) {
      CU_ASSERT_DOUBLE_EQUAL(sum.alpha_res, 0.0, 1e-15);
    } else {
      CU_ASSERT(sum.alpha_res > 0);
    }
    free(r);
    gc_loadpath_free(&lp);
  }
}

/* Energy restitution (eq. 6.43) is sqrt(W_unload / W_load); for the EP model W_load is the
 * closed-form Hertz work up to P_Y plus the plastic part, so check only the bookkeeping: a
 * path that stops at P_max (no unloading) returns nothing, e = 0. */
static void test_work_bookkeeping(void)
{
  gc_law law = aluminium_law("ep", NULL);
  gc_loadpath lp;
  CU_ASSERT_EQUAL_FATAL(gc_loadpath_alloc(&lp, 3, 0), GC_SUCCESS);
  lp.normal = GC_DRIVE_ALPHA;
  lp.t[0] = 0, lp.t[1] = 1, lp.t[2] = 2;
  lp.x[0] = 0, lp.x[1] = 0.5e-6, lp.x[2] = 1.0e-6; /* below alpha_Y: Hertz */
  gc_contact_summary sum;
  char msg[256];
  CU_ASSERT_EQUAL(gc_contact_run(&law, &lp, NULL, &sum, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT_EQUAL(sum.W_unload, 0.0);
  CU_ASSERT_EQUAL(sum.e_energy, 0.0);
  /* trapezoid of the Hertz curve over two steps vs the exact (2/5) k alpha^(5/2): the
   * trapezoidal rule overestimates a convex integrand, by < 10 % with two steps */
  double exact = 0.4 * law.pair.k_hertz * pow(1.0e-6, 2.5);
  CU_ASSERT(sum.W_load > exact && sum.W_load < 1.1 * exact);
  gc_loadpath_free(&lp);
}

/* The sec. 5.3 built-in sinusoidal path: P = P0 + P1 sin, Q = Q1 sin, in phase. */
static void test_sine_path(void)
{
  gc_loadpath lp;
  char msg[256];
  CU_ASSERT_EQUAL_FATAL(gc_loadpath_sine(&lp, 150, 100, 40, 101, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT_EQUAL(lp.normal, GC_DRIVE_P);
  CU_ASSERT_EQUAL(lp.tangential, GC_DRIVE_Q);
  CU_ASSERT_DOUBLE_EQUAL(lp.x[25], 250.0, 1e-9);
  CU_ASSERT_DOUBLE_EQUAL(lp.y[75], -40.0, 1e-9);
  gc_loadpath_free(&lp);
  CU_ASSERT_EQUAL(gc_loadpath_sine(&lp, 50, 100, 40, 101, msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "P0 > P1"));
}

int gc_test_add_contact(void)
{
  CU_pSuite s = CU_add_suite("single-contact simulator", NULL, NULL);
  if (!s)
    return CU_get_error();
  if (!CU_add_test(s, "force-driven inversion", test_force_inversion) ||
      !CU_add_test(s, "work bookkeeping", test_work_bookkeeping) ||
      !CU_add_test(s, "sinusoidal path of sec. 5.3", test_sine_path))
    return CU_get_error();
  return CUE_SUCCESS;
}
