/* test_chute_exp.c - the chute as an experiment: the bottom as built, the
 * steady-state diagnostic and the energy budget. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_fit.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_randist.h>

#include "chute.h"
#include "chute_io.h"
#include "chute_stats.h"
#include "gc_test.h"

static gc_chute *alloc_ok(const gc_chute_cfg *cfg)
{
  gc_chute *c = NULL;
  char msg[512] = "";
  int st = gc_chute_alloc(&c, cfg, msg, sizeof msg);
  if (st)
    fprintf(stderr, "gc_chute_alloc: %s\n", msg);
  CU_ASSERT_EQUAL_FATAL(st, GC_SUCCESS);
  return c;
}

/* Smallest centre distance between two beads (x periodic, z periodic without side walls). */
static double bead_min_distance(const gc_chute *c)
{
  size_t b0 = c->np * c->nsph;
  double dmin = INFINITY, L = c->cfg.length, W = c->cfg.width;
  for (size_t a = b0; a < c->ns; a++)
    for (size_t b = a + 1; b < c->ns; b++) {
      double dx = c->sx[3 * b] - c->sx[3 * a], dz = c->sx[3 * b + 2] - c->sx[3 * a + 2];
      dx -= L * round(dx / L);
      if (!c->cfg.side_walls)
        dz -= W * round(dz / W);
      dmin = fmin(dmin, sqrt(dx * dx + dz * dz));
    }
  return dmin;
}

/* The hexagonal lattice tiles the period exactly with the spacing length / n nearest to the
 * requested one, and its true nearest-neighbour distance (brute force over all bead pairs with
 * periodic images) equals the reported one to 1e-12 relative.  Reference: geometry (a regular
 * hexagonal lattice has six neighbours at the spacing), here 41.6 mm / 12 = 3.4667 mm. */
static void test_bottom_lattice(void)
{
  const double req[] = { 3.0e-3, 3.5e-3, 4.0e-3, 4.5e-3 };
  for (int walls = 1; walls >= 0; walls--)
    for (size_t k = 0; k < sizeof req / sizeof *req; k++) {
      gc_chute_cfg cfg;
      gc_chute_cfg_soybean(&cfg);
      cfg.n_particles = 1;
      cfg.bead_spacing = req[k];
      cfg.side_walls = walls;
      if (!walls)
        cfg.width = 0.05;
      gc_chute *c = alloc_ok(&cfg);
      const gc_chute_bottom_info *b = &c->bottom;
      double dmin = bead_min_distance(c);
      printf("%s    request %.2f mm, walls %d: %zu x %zu beads, spacing %.6f mm, nn %.6f mm "
             "(brute force %.6f mm)",
             k || !walls ? "" : "\n", 1e3 * req[k], walls, b->nx, b->nrow, 1e3 * b->spacing,
             1e3 * b->nn, 1e3 * dmin);
      printf("\n");
      GC_ASSERT_REL(dmin, b->nn, 1e-12);
      CU_ASSERT_EQUAL(b->n, c->nbeads);
      /* tiles the period: spacing = length / nx, and the nearest such spacing to the request */
      GC_ASSERT_REL(b->spacing * (double)b->nx, cfg.length, 1e-14);
      double d0 = fabs(b->spacing - req[k]);
      CU_ASSERT(fabs(cfg.length / (double)(b->nx + 1) - req[k]) >= d0 ||
                cfg.length / (double)(b->nx + 1) < 2 * cfg.bead_radius);
      CU_ASSERT(fabs(cfg.length / (double)(b->nx - 1) - req[k]) >= d0);
      if (walls) { /* a regular lattice: rows a sqrt(3)/2 apart, nn = spacing */
        GC_ASSERT_REL(b->nn, b->spacing, 1e-12);
        GC_ASSERT_REL(b->row_distance, b->spacing * sqrt(3.0) / 2, 1e-12);
      }
      for (size_t a = c->np * c->nsph; a < c->ns; a++) {
        CU_ASSERT(c->sx[3 * a + 2] >= (walls ? cfg.bead_radius : 0.0) - 1e-15);
        CU_ASSERT(c->sx[3 * a + 2] <= cfg.width - (walls ? cfg.bead_radius : 0.0) + 1e-15);
      }
      if (walls && k == 1)
        GC_ASSERT_REL(b->spacing, 0.0416 / 12, 1e-14);
      gc_chute_free(c);
    }
}

/* Random glued monolayer (random sequential adsorption).  Checks: the number of beads gives
 * the requested coverage to within half a bead (|phi - phi_req| <= pi r^2 / (2 L W)); no two
 * beads overlap (brute force, distance >= 2 r); all inside the floor (z in [r, W - r]); the
 * reported nearest distance is the brute-force one; the same seed gives the same bottom, another
 * seed another one.  A coverage above RSA's jamming limit (0.547, Feder 1980) is refused, and
 * so is a sparse monolayer with holes a particle sphere could fall through. */
static void test_bottom_random(void)
{
  gc_chute_cfg cfg;
  gc_chute_cfg_soybean(&cfg);
  cfg.n_particles = 1;
  cfg.bottom = GC_BOTTOM_RANDOM;
  cfg.bottom_seed = 3;
  const double covs[] = { 0.5, 0.45 };
  for (size_t k = 0; k < 2; k++) {
    cfg.bead_coverage = covs[k];
    gc_chute *c = alloc_ok(&cfg);
    const gc_chute_bottom_info *b = &c->bottom;
    double r = cfg.bead_radius, dmin = bead_min_distance(c);
    printf("%s    coverage %.2f: %zu beads, coverage %.5f, closest %.4f mm (brute force %.4f), "
           "largest hole %.3f mm\n",
           k ? "" : "\n", covs[k], b->n, b->coverage, 1e3 * b->nn, 1e3 * dmin, 1e3 * b->max_hole);
    CU_ASSERT(fabs(b->coverage - covs[k]) <= M_PI * r * r / (2 * cfg.length * cfg.width) + 1e-15);
    CU_ASSERT(dmin >= 2 * r * (1 - 1e-12));
    GC_ASSERT_REL(b->nn, dmin, 1e-12);
    for (size_t a = c->np * c->nsph; a < c->ns; a++) {
      CU_ASSERT(c->sx[3 * a] >= 0 && c->sx[3 * a] < cfg.length);
      CU_ASSERT(c->sx[3 * a + 2] >= r && c->sx[3 * a + 2] <= cfg.width - r);
      CU_ASSERT(c->sx[3 * a + 1] == 0.0);
    }
    CU_ASSERT(b->max_hole < 2 * sqrt(2.75e-3 * r));
    if (k == 0) {
      gc_chute *c2 = alloc_ok(&cfg);
      CU_ASSERT(memcmp(c->sx + 3 * c->np * c->nsph, c2->sx + 3 * c2->np * c2->nsph,
                       3 * c->nbeads * sizeof(double)) == 0);
      gc_chute_free(c2);
      cfg.bottom_seed = 4;
      c2 = alloc_ok(&cfg);
      CU_ASSERT(memcmp(c->sx + 3 * c->np * c->nsph, c2->sx + 3 * c2->np * c2->nsph,
                       3 * c->nbeads * sizeof(double)) != 0);
      gc_chute_free(c2);
      cfg.bottom_seed = 3;
    }
    gc_chute_free(c);
  }
  char msg[512] = "";
  gc_chute *c = NULL;
  cfg.bead_coverage = 0.6;
  CU_ASSERT_EQUAL(gc_chute_alloc(&c, &cfg, msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "bead_coverage = 0.6 out of range (0, 0.5]"));
  cfg.bead_coverage = 0.3;
  CU_ASSERT_EQUAL(gc_chute_alloc(&c, &cfg, msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "reaches the plate under the beads"));
  CU_ASSERT_PTR_NULL(c);
}

/* Steady-state diagnostic on synthetic series with a known slope and autocorrelated noise:
 * v(t) = a t + AR(1) noise, sampled every 1 ms, correlation time 30 ms (phi = exp(-1/30)),
 * stationary standard deviation 0.01 m/s (of the order of the chute's fluctuations), window
 * 1 s, 10 batches.  Reference: the known slope.
 *  (i) a = 0: over 400 replicates the 95 % interval must contain 0 in 95 % of them; allowed
 *      89-99 % (binomial: 3 standard deviations of 1.1 %, plus the small-batch bias).  An
 *      ordinary least-squares interval over the 1000 correlated samples covers far less (its
 *      coverage is printed, and checked to be below 80 %: the reason for batch means).
 * (ii) a = 0.05 m/s^2 (the accelerations): "accelerating", interval containing 0.05. */
static void test_steady_fit(void)
{
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 11);
  const size_t n = 1001;
  double *t = malloc(n * sizeof *t), *v = malloc(n * sizeof *v);
  const double phi = exp(-1.0 / 30.0), sd = 0.01, eps = sd * sqrt(1 - phi * phi);
  char msg[256];
  int cover = 0, cover_ols = 0, reps = 400;
  for (int r = 0; r < reps + 1; r++) {
    double a = r < reps ? 0.0 : 0.05, x = gsl_ran_gaussian(rng, sd);
    for (size_t i = 0; i < n; i++) {
      t[i] = 2.0 + 1e-3 * (double)i;
      x = phi * x + gsl_ran_gaussian(rng, eps);
      v[i] = 0.3 + a * t[i] + x;
    }
    gc_steady s;
    CU_ASSERT_EQUAL_FATAL(gc_steady_fit(t, v, n, 1.0, 10, 0.95, &s, msg, sizeof msg), GC_SUCCESS);
    if (r < reps) {
      cover += fabs(s.slope) <= s.half_ci;
      CU_ASSERT_EQUAL(s.verdict == GC_STEADY_STEADY, fabs(s.slope) <= s.half_ci);
      double c0, c1, c00, c01, c11, ss;
      gsl_fit_linear(t, 1, v, 1, n, &c0, &c1, &c00, &c01, &c11, &ss);
      cover_ols += fabs(c1) <= 1.96 * sqrt(c11);
    } else {
      char buf[400];
      gc_steady_format(&s, buf, sizeof buf);
      printf("\n    a = 0.05 m/s^2: %s\n", buf);
      CU_ASSERT_EQUAL(s.verdict, GC_STEADY_ACCELERATING);
      CU_ASSERT(fabs(s.slope - 0.05) <= s.half_ci);
      CU_ASSERT_PTR_NOT_NULL(strstr(buf, "accelerating at"));
    }
  }
  printf("    a = 0: batch-means 95 %% CI covers 0 in %d of %d replicates; naive OLS over the "
         "correlated samples in %d\n",
         cover, reps, cover_ols);
  CU_ASSERT(cover >= 0.89 * reps && cover <= 0.99 * reps);
  CU_ASSERT(cover_ols < 0.8 * reps);
  /* bad input */
  CU_ASSERT_EQUAL(gc_steady_fit(t, v, n, 2.0, 10, 0.95, &(gc_steady){ 0 }, msg, sizeof msg),
                  GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "less than the window"));
  CU_ASSERT_EQUAL(gc_steady_fit(t, v, n, 1.0, 2, 0.95, &(gc_steady){ 0 }, msg, sizeof msg),
                  GC_EINVAL);
  free(t);
  free(v);
  gsl_rng_free(rng);
}

/* Stored elastic energy against the closed form: a Hertz (frictionless) sphere pressed into
 * the flat bottom holds (2/5) k alpha^(5/2) (Johnson 1985, integral of P = k alpha^(3/2)).  The
 * 32-step trapezoid of gc_chute_energy_stored overestimates it by 2.9e-4 (computed for
 * x^(3/2) on 32 panels); tolerance 5e-4. */
static void test_stored_hertz(void)
{
  gc_chute_cfg cfg;
  gc_chute_cfg_soybean(&cfg);
  char msg[256];
  cfg.n_particles = 1;
  CU_ASSERT_EQUAL_FATAL(gc_shape_sphere(2.75e-3, 1.49e-4, &cfg.shape, msg, sizeof msg), 0);
  cfg.nfd = gc_preset_lookup("hertz");
  cfg.tfd = NULL;
  cfg.bottom = GC_BOTTOM_FLAT;
  cfg.gravity = 0;
  cfg.dt = 1e-7;
  gc_chute *c = alloc_ok(&cfg);
  double x[3] = { 0.02, 2.75e-3 - 2e-5, 0.07 };
  CU_ASSERT_EQUAL_FATAL(gc_chute_place(c, x, NULL, NULL, NULL, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT_EQUAL_FATAL(gc_chute_step(c, msg, sizeof msg), GC_SUCCESS);
  const gc_chute_contact *ct = gc_chute_wall(c, 2);
  const gc_law *law = gc_chute_law_pb(c, 0);
  double en[GC_NCAT], et[GC_NCAT];
  gc_chute_energy_stored(c, en, et);
  double ref = 0.4 * law->pair.k_hertz * pow(ct->alpha, 2.5);
  printf("\n    alpha = %.4g m: stored %.8g J, (2/5) k alpha^(5/2) = %.8g J\n", ct->alpha,
         en[GC_CAT_BOTTOM], ref);
  GC_ASSERT_REL(en[GC_CAT_BOTTOM], ref, 5e-4);
  CU_ASSERT_EQUAL(en[GC_CAT_PP], 0.0);
  CU_ASSERT_EQUAL(et[GC_CAT_BOTTOM], 0.0);
  gc_chute_free(c);
}

/* Energy budget of a shortened run: data/chute/tiny.chute (24 soybean clusters falling onto
 * the bead bottom between the walls, 0.1 s), at ntcol = 20 and 40.  Reference: conservation of
 * energy, W_gravity = Delta E_kin + W_contacts (= stored elastic + dissipated).  The balance
 * is not exact in discrete time: the trapezoid rule of the contact work and the rotation step
 * are second order, so the residual must shrink ~4x when dt halves; measured 0.077 % of the
 * gravity work at ntcol = 20 and 0.013 % at 40 (ratio 5.9).  Tolerances: |residual| <= 0.3 %
 * of the gravity work at ntcol = 20, and the ratio >= 3 (order >= 1.6).  Each dissipation is
 * >= 0 (to 1e-3 of the gravity work: the stored tangential energy is a lower bound). */
static void budget_run(int ntcol, int rolling, gc_chute_budget *b)
{
  char msg[1024];
  char set[32];
  snprintf(set, sizeof set, "ntcol=%d", ntcol);
  char *sets[] = { set, "threads=1" };
  gc_chute_run *run = malloc(sizeof *run);
  CU_ASSERT_EQUAL_FATAL(gc_chute_run_load(GC_DATADIR "/chute/tiny.chute", sets, 2, run, msg,
                                          sizeof msg),
                        GC_SUCCESS);
  if (rolling) { /* rolling spring resistance of seed 004 on every pair */
    run->sim.rolling_model = gc_submodel_lookup(GC_KIND_ROLLING, "spring");
    gc_params *pr[3] = { &run->sim.pp, &run->sim.pw, &run->sim.pb };
    for (int k = 0; k < 3; k++) {
      pr[k]->mu_r = 0.05;
      pr[k]->beta_r = 0.5;
    }
  }
  gc_chute *c = alloc_ok(&run->sim);
  CU_ASSERT_EQUAL_FATAL(gc_chute_place_random(c, msg, sizeof msg), GC_SUCCESS);
  for (long k = 0; k < run->n_steps; k++)
    CU_ASSERT_EQUAL_FATAL(gc_chute_step(c, msg, sizeof msg), GC_SUCCESS);
  gc_chute_budget_get(c, b);
  printf("    ntcol %d%s: gravity %.6g J = dE_kin %.6g + stored %.4g + dissipated (pp %.4g/%.4g, "
         "wall %.4g/%.4g, bottom %.4g/%.4g) + residual %.3g J\n",
         ntcol, rolling ? ", rolling spring" : "", b->gravity, b->dkinetic, b->elastic,
         b->d_normal[0], b->d_tangential[0], b->d_normal[1], b->d_tangential[1], b->d_normal[2],
         b->d_tangential[2], b->residual);
  gc_chute_free(c);
  free(run);
}

static void test_energy_budget(void)
{
  gc_chute_budget b20, b40;
  printf("\n");
  budget_run(20, 0, &b20);
  budget_run(40, 0, &b40);
  CU_ASSERT(b20.gravity > 0);
  CU_ASSERT(fabs(b20.residual) <= 3e-3 * b20.gravity);
  CU_ASSERT(fabs(b40.residual) * 3 <= fabs(b20.residual));
  for (int k = 0; k < GC_NCAT; k++) {
    CU_ASSERT(b20.d_normal[k] >= -1e-3 * b20.gravity);
    CU_ASSERT(b20.d_tangential[k] >= -1e-3 * b20.gravity);
  }
  /* with rolling resistance the couples' work is in the budget too (without it the residual
   * would be 9 % of the gravity work over 0.3 s; 0.055 % with it) */
  gc_chute_budget br;
  budget_run(20, 1, &br);
  CU_ASSERT(fabs(br.residual) <= 3e-3 * br.gravity);
  CU_ASSERT(br.d_tangential[GC_CAT_PP] >= -1e-3 * br.gravity);
}

/* History at separation: an ep sphere dropped on the flat bottom at 1 m/s bounces off.  With
 * keep_history = 0 its record is reset when it leaves; with 1 the model state (P_max of the
 * first impact) stays while the sphere is within the skin of the bottom and is dropped beyond. */
static void test_keep_history(void)
{
  for (int keep = 0; keep <= 1; keep++) {
    gc_chute_cfg cfg;
    gc_chute_cfg_soybean(&cfg);
    char msg[256];
    cfg.n_particles = 1;
    CU_ASSERT_EQUAL_FATAL(gc_shape_sphere(2.75e-3, 1.49e-4, &cfg.shape, msg, sizeof msg), 0);
    cfg.bottom = GC_BOTTOM_FLAT;
    cfg.gravity = 0;
    cfg.dt = 1e-7;
    cfg.keep_history = keep;
    gc_chute *c = alloc_ok(&cfg);
    double x[3] = { 0.02, 2.75e-3 + 1e-6, 0.07 }, v[3] = { 0, -1.0, 0 };
    CU_ASSERT_EQUAL_FATAL(gc_chute_place(c, x, NULL, v, NULL, msg, sizeof msg), GC_SUCCESS);
    gc_chute_contact *ct = gc_chute_wall(c, 2);
    const gc_hist_normal *hn = gc_law_hist_normal(gc_chute_law_pb(c, 0), ct->h);
    long n = 0;
    while (!(c->v[1] > 0 && ct->P == 0.0 && c->x[1] > 2.75e-3) && n < 100000) {
      CU_ASSERT_EQUAL_FATAL(gc_chute_step(c, msg, sizeof msg), GC_SUCCESS);
      n++;
    }
    CU_ASSERT_EQUAL_FATAL(gc_chute_step(c, msg, sizeof msg), GC_SUCCESS);
    if (keep) {
      CU_ASSERT(hn->P_max > 0.0);
    } else {
      CU_ASSERT_EQUAL(hn->P_max, 0.0);
    }
    CU_ASSERT_EQUAL(ct->P, 0.0);
    /* beyond the skin the record is reset in both cases */
    while (c->x[1] - 2.75e-3 < 1.5 * cfg.skin && n < 400000) {
      CU_ASSERT_EQUAL_FATAL(gc_chute_step(c, msg, sizeof msg), GC_SUCCESS);
      n++;
    }
    CU_ASSERT_EQUAL(hn->P_max, 0.0);
    gc_chute_free(c);
  }
}

int gc_test_add_chute_exp(void)
{
  CU_pSuite s = CU_add_suite("chute experiment", NULL, NULL);
  if (!s)
    return CU_get_error();
  if (!CU_add_test(s, "bead lattice tiles the period, true spacing", test_bottom_lattice) ||
      !CU_add_test(s, "random monolayer bottom (RSA)", test_bottom_random) ||
      !CU_add_test(s, "steady-state slope and CI with batch means", test_steady_fit) ||
      !CU_add_test(s, "stored elastic energy = Hertz closed form", test_stored_hertz) ||
      !CU_add_test(s, "energy budget of a short run", test_energy_budget) ||
      !CU_add_test(s, "history at separation option", test_keep_history))
    return CU_get_error();
  return CUE_SUCCESS;
}
