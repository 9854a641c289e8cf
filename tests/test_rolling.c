/* test_rolling.c - rolling and twisting resistance (models/rolling_*.c, twisting_*.c) and
 * Cundall's local damping, against closed forms: the spring models' elastic limit and slider
 * (model level); a sphere rolling / spinning to rest on the chute's flat bottom (constant-torque
 * deceleration, spring model in its plastic regime); the spin change of a 2-D impact (impulse
 * balance); free flight under local damping (exact difference equation); and the 1-vs-2-thread
 * bitwise identity of the chute with all of them on.  Every test names its reference and
 * tolerance and prints what it measured. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "chute.h"
#include "gc_test.h"
#include "impact_sim.h"

/* soybean sphere (table 9.1 material) on glass */
static const double R_S = 2.75e-3, M_S = 0.149e-3, G_ACC = 9.81;

static void soy_on_glass(gc_params *p)
{
  gc_params_default(p);
  p->R1 = R_S;
  p->E1 = 2.098e8;
  p->nu1 = 0.4314;
  p->E2 = 6.3e10;
  p->nu2 = 0.23;
  p->mu = 0.3;
}

static void law_ok(gc_law *law, const char *normal, const char *tangential, const char *rolling,
                   const char *twisting, const gc_params *p)
{
  const gc_submodel *sub[GC_NKINDS] = { NULL };
  sub[GC_KIND_NORMAL] = gc_submodel_lookup(GC_KIND_NORMAL, normal);
  if (tangential)
    sub[GC_KIND_TANGENTIAL] = gc_submodel_lookup(GC_KIND_TANGENTIAL, tangential);
  if (rolling)
    sub[GC_KIND_ROLLING] = gc_submodel_lookup(GC_KIND_ROLLING, rolling);
  if (twisting)
    sub[GC_KIND_TWISTING] = gc_submodel_lookup(GC_KIND_TWISTING, twisting);
  char msg[256] = "";
  int st = gc_law_init(law, sub, p, msg, sizeof msg);
  if (st)
    fprintf(stderr, "gc_law_init: %s\n", msg);
  CU_ASSERT_EQUAL_FATAL(st, GC_SUCCESS);
}

/* 1. Rolling spring at constant P (sphere on glass, Hertz, P = 1 mN).  Reference: the model's
 * closed form (seed 004 corrected): M = -K_r theta with K_r = beta_r R*^2 K_T0 up to
 * theta_e = mu_r R* P / K_r, then |M| = mu_r R* P (slider); a reversal after slip unloads
 * elastically at once (|dM| = K_r dtheta, the correction of the seed's total-rotation cap).
 * Tolerance 1e-12 relative (one rounding per increment). */
static void test_rolling_spring_limit(void)
{
  gc_params p;
  soy_on_glass(&p);
  p.mu_r = 0.1;
  p.beta_r = 0.5;
  gc_law law;
  law_ok(&law, "hertz", NULL, "spring", NULL, &p);
  CU_ASSERT_EQUAL(law.sub[GC_KIND_ROLLING]->hist_size, 3u);
  double h[GC_HIST_MAX];
  gc_law_history_init(&law, h);
  const double P = 1e-3, alpha = pow(P / law.pair.k_hertz, 2.0 / 3.0);
  gc_normal no;
  CU_ASSERT_EQUAL_FATAL(gc_law_normal(&law, h, alpha, 0.0, &no), GC_SUCCESS);
  const double Rs = law.pair.R_star, K_r = p.beta_r * Rs * Rs * no.k_t0;
  const double Mlim = p.mu_r * Rs * no.P, th_e = Mlim / K_r;
  const double nv[3] = { 0, -1, 0 }, dth = th_e / 50.0;
  const double d[3] = { 0, 0, dth }, wr[3] = { 0, 0, 1.0 };
  double M[3], th = 0, first_slip = -1;
  for (int k = 1; k <= 100; k++) {
    CU_ASSERT_EQUAL_FATAL(gc_law_torque(&law, h, &no, nv, d, wr, M), GC_SUCCESS);
    th += dth;
    if (k < 50)
      GC_ASSERT_REL(M[2], -K_r * th, 1e-12);
    if (first_slip < 0 && fabs(M[2]) >= Mlim * (1 - 1e-12))
      first_slip = th;
    CU_ASSERT_DOUBLE_EQUAL(M[0], 0.0, 1e-30);
  }
  GC_ASSERT_REL(M[2], -Mlim, 1e-12);
  GC_ASSERT_REL(first_slip, th_e, 1e-9);
  const double back[3] = { 0, 0, -dth };
  CU_ASSERT_EQUAL_FATAL(gc_law_torque(&law, h, &no, nv, back, wr, M), GC_SUCCESS);
  GC_ASSERT_REL(M[2], -Mlim + K_r * dth, 1e-12);
  /* rotation along the normal is twist, not rolling: no rolling torque */
  double h2[GC_HIST_MAX];
  gc_law_history_init(&law, h2);
  const double dn[3] = { 0, dth, 0 };
  CU_ASSERT_EQUAL_FATAL(gc_law_torque(&law, h2, &no, nv, dn, wr, M), GC_SUCCESS);
  CU_ASSERT(M[0] == 0 && M[1] == 0 && M[2] == 0);
  printf("\n    K_r = %.4e N m/rad, theta_e = %.4e rad, M_lim = %.4e N m; slip at %.4e rad\n", K_r,
         th_e, Mlim, first_slip);
}

/* 2. Twisting spring at constant P.  Reference: Marshall (2009) / LAMMPS 'marshall':
 * k_tw = K_T0 a^2 / 2, |M| <= (2/3) mu a P, elastic limit theta_e = 4 mu P / (3 a K_T0);
 * the Hertz a = (3 P R* / (4 E*))^(1/3) (eq. 3.6).  Tolerance 1e-12 / 1e-9. */
static void test_twisting_spring_limit(void)
{
  gc_params p;
  soy_on_glass(&p);
  gc_law law;
  law_ok(&law, "hertz", NULL, NULL, "spring", &p);
  double h[GC_HIST_MAX];
  gc_law_history_init(&law, h);
  const double P = 1e-3, alpha = pow(P / law.pair.k_hertz, 2.0 / 3.0);
  gc_normal no;
  CU_ASSERT_EQUAL_FATAL(gc_law_normal(&law, h, alpha, 0.0, &no), GC_SUCCESS);
  const double a = cbrt(3 * P * law.pair.R_star / (4 * law.pair.E_star));
  GC_ASSERT_REL(no.a, a, 1e-12);
  const double k_tw = 0.5 * no.k_t0 * a * a, Mlim = 2.0 / 3.0 * p.mu * a * P;
  const double th_e = 4 * p.mu * P / (3 * a * no.k_t0), dth = th_e / 40;
  const double nv[3] = { 0, -1, 0 }, d[3] = { 0, -dth, 0 }, wr[3] = { 0, -1, 0 };
  double M[3], th = 0, first_slip = -1;
  for (int k = 1; k <= 80; k++) {
    CU_ASSERT_EQUAL_FATAL(gc_law_torque(&law, h, &no, nv, d, wr, M), GC_SUCCESS);
    th += dth;
    if (k < 40)
      GC_ASSERT_REL(M[1], k_tw * th, 1e-12); /* M = -k_tw (theta . n) n, n = -e_y */
    if (first_slip < 0 && fabs(M[1]) >= Mlim * (1 - 1e-12))
      first_slip = th;
  }
  GC_ASSERT_REL(M[1], Mlim, 1e-12);
  GC_ASSERT_REL(first_slip, th_e, 1e-9);
  printf("\n    a = %.4e m, k_tw = %.4e N m/rad, theta_e = %.4e rad, M_lim = %.4e N m\n", a, k_tw,
         th_e, Mlim);
}

/* A soybean sphere resting on the flat glass bottom of a 5 cm periodic chute (angle 0, g =
 * 9.81), Hertz normal + Mindlin no-slip tangential (md), at the static overlap
 * (mg / k_hertz)^(2/3) so that P stays mg to within the leap-frog's small oscillation. */
static gc_chute *sphere_on_bottom(const char *rolling, const char *twisting, double mu_r,
                                  double beta_r, double w_reg, const double v[3], const double w[3],
                                  double local_damping, double dt)
{
  gc_chute_cfg cfg;
  memset(&cfg, 0, sizeof cfg);
  char msg[512] = "";
  cfg.n_particles = 1;
  CU_ASSERT_EQUAL_FATAL(gc_shape_sphere(R_S, M_S, &cfg.shape, msg, sizeof msg), GC_SUCCESS);
  cfg.length = cfg.width = 0.05;
  cfg.fill_height = 0.05;
  cfg.gravity = G_ACC;
  cfg.bottom = GC_BOTTOM_FLAT;
  cfg.nfd = gc_preset_lookup("hertz");
  cfg.tfd = gc_preset_lookup("md");
  cfg.rolling_model = rolling ? gc_submodel_lookup(GC_KIND_ROLLING, rolling) : NULL;
  cfg.twisting_model = twisting ? gc_submodel_lookup(GC_KIND_TWISTING, twisting) : NULL;
  soy_on_glass(&cfg.pp);
  cfg.pp.mu_r = mu_r;
  cfg.pp.beta_r = beta_r;
  cfg.pp.w_reg = w_reg;
  cfg.pw = cfg.pb = cfg.pp;
  cfg.skin = 0.5 * R_S;
  cfg.dt = dt;
  cfg.threads = 1;
  cfg.local_damping = local_damping;
  gc_chute *c = NULL;
  int st = gc_chute_alloc(&c, &cfg, msg, sizeof msg);
  if (st)
    fprintf(stderr, "gc_chute_alloc: %s\n", msg);
  CU_ASSERT_EQUAL_FATAL(st, GC_SUCCESS);
  const gc_law *law = gc_chute_law_pb(c, 0);
  const double alpha = pow(M_S * G_ACC / law->pair.k_hertz, 2.0 / 3.0);
  const double x[3] = { 0.02, R_S - alpha, 0.02 };
  CU_ASSERT_EQUAL_FATAL(gc_chute_place(c, x, NULL, v, w, msg, sizeof msg), GC_SUCCESS);
  return c;
}

static int step_ok(gc_chute *c)
{
  char msg[512] = "";
  int st = gc_chute_step(c, msg, sizeof msg);
  if (st)
    fprintf(stderr, "gc_chute_step: %s\n", msg);
  return st;
}

/* 3. A sphere rolling on a plane to rest, in the chute.  Reference: rigid-body rolling without
 * slip under a resisting couple mu_r R P, P = m g: deceleration a = mu_r g / (1 + I/(m R^2))
 * = (5/7) mu_r g, stop time v0 / a, stop distance v0^2 / (2 a).  v0 = 0.1 m/s, mu_r = 0.1
 * (a = 0.7007 m/s^2, t = 0.1427 s, d = 7.136 mm), dt = 1e-6 s.
 *  - const (w_reg = 0.1 rad/s): the constant-torque phase ends when w = w_reg, i.e. at
 *    t = (v0 - w_reg R)/a; tolerance 0.5 % on that time and on the distance when v < 1e-6 m/s
 *    (the regularised tail adds ~w_reg R x w_reg I_eff/M ~ 1e-7 m);
 *  - spring (beta_r = 0.5: theta_e ~ 1e-3 rad, its elastic phase ~ R theta_e = 3 um, 0.04 % of
 *    d): in the plastic regime the same deceleration; tolerance 0.5 % on the time and distance
 *    of the first stop (v_x = 0), after which the sphere rocks on the rolling spring. */
static void test_chute_rolling_stop(void)
{
  const double v0 = 0.1, mu_r = 0.1, dt = 1e-6;
  const double acc = 5.0 / 7.0 * mu_r * G_ACC, t_ref = v0 / acc, d_ref = v0 * v0 / (2 * acc);
  for (int model = 0; model < 2; model++) {
    const double w_reg = 0.1;
    const double v[3] = { v0, 0, 0 }, w[3] = { 0, 0, -v0 / R_S };
    gc_chute *c =
        sphere_on_bottom(model ? "spring" : "const", NULL, mu_r, 0.5, w_reg, v, w, 0.0, dt);
    const double x0 = c->x[0];
    double t_stop = -1, d_stop = -1, slip = 0;
    long n;
    for (n = 1; n <= 400000; n++) {
      CU_ASSERT_EQUAL_FATAL(step_ok(c), GC_SUCCESS);
      double ws[3];
      gc_rot_omega_space(&c->rot[0], ws);
      slip = fmax(slip, fabs(c->v[0] + ws[2] * R_S));
      double vx = c->v[0];
      if (model == 0 && t_stop < 0 && -ws[2] <= w_reg)
        t_stop = n * dt;
      if (model == 0 && vx < 1e-6) {
        d_stop = c->x[0] - x0;
        break;
      }
      if (model == 1 && vx <= 0) {
        t_stop = n * dt;
        d_stop = c->x[0] - x0;
        break;
      }
    }
    const double t_exp = model ? t_ref : (v0 - w_reg * R_S) / acc;
    printf("%s    rolling %s: stop time %.5f s (closed form %.5f), distance %.4f mm (%.4f), "
           "max slip %.2e m/s\n",
           model ? "" : "\n", model ? "spring" : "const", t_stop, t_exp, 1e3 * d_stop, 1e3 * d_ref,
           slip);
    GC_ASSERT_REL(t_stop, t_exp, 5e-3);
    GC_ASSERT_REL(d_stop, d_ref, 5e-3);
    CU_ASSERT(slip < 1e-2 * v0); /* it rolls, it does not slide */
    gc_chute_free(c);
  }
}

/* 4. A sphere spinning about the normal of the plane to rest.  Reference: I dw/dt = -(2/3) mu
 * a P, P = m g, a the Hertz radius (3 P R / (4 E*))^(1/3): stop time I w0 / ((2/3) mu a m g).
 * w0 = 2 rad/s, mu = 0.3 (t ~ 0.1 s), dt = 1e-6 s.  const (w_reg = 0.01 rad/s): time to
 * reach w_reg, (w0 - w_reg) I / M, tolerance 0.2 %; spring: time of the first w = 0, which
 * adds to I w0 / M the elastic loading phase: the torque ramps up over theta_e =
 * 4 mu P / (3 a K_T0) (K_T0 = 8 a G*, eq. 3.25; 2.7e-3 rad here) while w ~ w0, i.e. at half
 * strength for theta_e / w0, a delay of theta_e / (2 w0) = 0.5 % of the stop time; tolerance
 * 0.2 % (measured 0.07 %). */
static void test_chute_twisting_stop(void)
{
  const double w0 = 2.0, dt = 1e-6, I = 0.4 * M_S * R_S * R_S;
  for (int model = 0; model < 2; model++) {
    const double w_reg = 0.01, v[3] = { 0, 0, 0 }, w[3] = { 0, w0, 0 };
    gc_chute *c = sphere_on_bottom(NULL, model ? "spring" : "const", 0, 0, w_reg, v, w, 0.0, dt);
    const gc_law *law = gc_chute_law_pb(c, 0);
    const double P = M_S * G_ACC, a = cbrt(3 * P * law->pair.R_star / (4 * law->pair.E_star));
    const double Mt = 2.0 / 3.0 * law->pair.p.mu * a * P;
    const double th_e = 4 * law->pair.p.mu * P / (3 * a * 8 * a * law->pair.G_star);
    const double t_exp = model ? w0 * I / Mt + th_e / (2 * w0) : (w0 - w_reg) * I / Mt;
    double t_stop = -1;
    for (long n = 1; n <= 1000000; n++) {
      CU_ASSERT_EQUAL_FATAL(step_ok(c), GC_SUCCESS);
      double ws[3];
      gc_rot_omega_space(&c->rot[0], ws);
      if (ws[1] <= (model ? 0.0 : w_reg)) {
        t_stop = n * dt;
        break;
      }
    }
    printf("%s    twisting %s: stop time %.5f s (closed form %.5f; a = %.3e m, M = %.3e N m)\n",
           model ? "" : "\n", model ? "spring" : "const", t_stop, t_exp, a, Mt);
    GC_ASSERT_REL(t_stop, t_exp, 2e-3);
    gc_chute_free(c);
  }
}

/* 5. Cundall's local damping on a free sphere (no contact, gravity, bottom none).  Reference:
 * the damped leap-frog difference equation.  Thrown up at v0: while v > 0 the resultant -m g
 * becomes -(1 + ld) m g, so v_{n+1/2} = v0 - (1 + ld) g dt n exactly (to rounding); falling
 * (v < 0) the pull is (1 - ld) m g.  ld = 0.3, v0 = 1 m/s, dt = 1e-5 s; tolerance 1e-12. */
static void test_local_damping_free(void)
{
  const double ld = 0.3, v0 = 1.0, dt = 1e-5;
  gc_chute_cfg cfg;
  memset(&cfg, 0, sizeof cfg);
  char msg[512] = "";
  cfg.n_particles = 1;
  CU_ASSERT_EQUAL_FATAL(gc_shape_sphere(R_S, M_S, &cfg.shape, msg, sizeof msg), GC_SUCCESS);
  cfg.length = cfg.width = 0.05;
  cfg.fill_height = 0.05;
  cfg.gravity = G_ACC;
  cfg.bottom = GC_BOTTOM_NONE;
  cfg.nfd = gc_preset_lookup("hertz");
  soy_on_glass(&cfg.pp);
  cfg.pw = cfg.pb = cfg.pp;
  cfg.skin = 0.5 * R_S;
  cfg.dt = dt;
  cfg.threads = 1;
  cfg.local_damping = ld;
  gc_chute *c = NULL;
  CU_ASSERT_EQUAL_FATAL(gc_chute_alloc(&c, &cfg, msg, sizeof msg), GC_SUCCESS);
  const double x[3] = { 0.02, 0.02, 0.02 }, v[3] = { 0, v0, 0 };
  CU_ASSERT_EQUAL_FATAL(gc_chute_place(c, x, NULL, v, NULL, msg, sizeof msg), GC_SUCCESS);
  double v_up = 0, v_last = 0, vprev = v0;
  long n_up = 0, n_down = 0;
  for (long n = 1; n <= 20000; n++) {
    CU_ASSERT_EQUAL_FATAL(step_ok(c), GC_SUCCESS);
    double vy = c->v[1];
    if (vprev > 0) { /* this step was damped as a rising one */
      n_up = n;
      v_up = vy;
    } else {
      n_down++;
      v_last = vy;
    }
    vprev = vy;
  }
  /* rising: v = v0 - (1 + ld) g dt n_up; then one step at v = v_up (< 0 or = 0 after it) */
  CU_ASSERT_DOUBLE_EQUAL(v_up, v0 - (1 + ld) * G_ACC * dt * n_up, 1e-12);
  double v_turn = v_up;
  double v_exp = v_turn - (1 - ld) * G_ACC * dt * n_down;
  if (v_turn == 0) /* sgn(0) = 0: one undamped step */
    v_exp = -G_ACC * dt - (1 - ld) * G_ACC * dt * (n_down - 1);
  printf("\n    up for %ld steps (v = %.6f), down %ld steps: v = %.9f m/s (damped leap-frog "
         "%.9f)\n",
         n_up, v_up, n_down, v_last, v_exp);
  CU_ASSERT_DOUBLE_EQUAL(v_last, v_exp, 1e-10);
  CU_ASSERT(n_up > 1000 && n_down > 1000);
  gc_chute_free(c);
  /* out of range: refused with the parameter's name */
  cfg.local_damping = 1.0;
  c = NULL;
  CU_ASSERT_EQUAL(gc_chute_alloc(&c, &cfg, msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "local_damping"));
  CU_ASSERT_PTR_NULL(c);
}

/* 6. The spin change of a planar impact (gc_impact_run) under constant rolling resistance,
 * frictionless tangential part.  Reference: the angular impulse -mu_r R int P dt with
 * int P dt = m v_n (1 + e) (leap-frog: the normal impulse equals the momentum change exactly),
 * so w_out - w_in = -mu_r R m (1 + e) v_n / I while w stays above w_reg.  Soybean sphere on
 * glass, v_n = 1 m/s, w = 1000 rad/s, mu_r = 0.05.  Tolerance 1e-9 relative. */
static void test_impact_rolling(void)
{
  gc_params p;
  soy_on_glass(&p);
  p.mu_r = 0.05;
  p.w_reg = 1e-3;
  gc_law law;
  law_ok(&law, "hertz", NULL, "const", NULL, &p);
  gc_impact_cfg ic;
  gc_impact_cfg_default(&ic);
  ic.mass = M_S;
  ic.radius = R_S;
  gc_impact_result r;
  CU_ASSERT_EQUAL_FATAL(gc_impact_run(&law, &ic, 1.0, 0.0, 1000.0, &r), GC_SUCCESS);
  const double I = 0.4 * M_S * R_S * R_S;
  const double dw = -p.mu_r * R_S * M_S * (1 + r.e) * 1.0 / I;
  printf("\n    e = %.6f, w_out - w_in = %.6f rad/s (impulse balance %.6f)\n", r.e,
         r.omega_out - 1000.0, dw);
  GC_ASSERT_REL(r.omega_out - 1000.0, dw, 1e-9);
  CU_ASSERT_DOUBLE_EQUAL(r.v_t_out, 0.0, 1e-15);
  /* rolling none: the spin is untouched */
  law_ok(&law, "hertz", NULL, NULL, NULL, &p);
  CU_ASSERT_EQUAL_FATAL(gc_impact_run(&law, &ic, 1.0, 0.0, 1000.0, &r), GC_SUCCESS);
  CU_ASSERT_EQUAL(r.omega_out, 1000.0);
}

/* 7. Thread-count independence with rolling spring, twisting spring and local damping on.
 * Reference: the same run with 1 and 2 threads must be bitwise identical (memcmp), as for the
 * plain chute: the couples go through the same per-pair scratch and fixed-order gather.
 * 40 soybean clusters thrown onto the bead bottom, 1000 steps. */
static void test_threads_rolling(void)
{
#ifndef _OPENMP
  CU_PASS("compiled without OpenMP: thread-count independence not tested");
#else
  gc_chute *c[2];
  double Mmax = 0;
  for (int k = 0; k < 2; k++) {
    gc_chute_cfg cfg;
    gc_chute_cfg_soybean(&cfg);
    cfg.n_particles = 40;
    cfg.width = 0.03;
    cfg.fill_height = 0.03;
    cfg.threads = k + 1;
    cfg.rolling_model = &gc_rolling_spring;
    cfg.twisting_model = &gc_twisting_spring;
    cfg.local_damping = 0.1;
    gc_params *ps[3] = { &cfg.pp, &cfg.pw, &cfg.pb };
    for (int i = 0; i < 3; i++) {
      ps[i]->mu_r = 0.1;
      ps[i]->beta_r = 0.5;
    }
    char msg[512] = "";
    int st = gc_chute_alloc(&c[k], &cfg, msg, sizeof msg);
    if (!st)
      st = gc_chute_place_random(c[k], msg, sizeof msg);
    if (st)
      fprintf(stderr, "%s\n", msg);
    CU_ASSERT_EQUAL_FATAL(st, GC_SUCCESS);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    for (size_t p = 0; p < c[k]->np; p++)
      for (int d = 0; d < 3; d++)
        c[k]->v[3 * p + d] = (d == 1 ? -2.0 : 0.0) + 2.0 * gsl_rng_uniform(rng) - 1.0;
    gsl_rng_free(rng);
    for (int b = 0; b < 1000; b++) { /* the largest over the run: at one instant there may
                                      * be no contact at all (1 to 7 at a time here) */
      CU_ASSERT_EQUAL_FATAL(step_ok(c[k]), GC_SUCCESS);
      for (size_t p = 0; p < c[k]->np; p++)
        Mmax = fmax(Mmax, fabs(c[k]->torque[3 * p + 2]));
    }
  }
  printf("\n    largest torque %.3e N m\n", Mmax);
  CU_ASSERT(Mmax > 0);
  CU_ASSERT(memcmp(c[0]->x, c[1]->x, 3 * c[0]->np * sizeof(double)) == 0);
  CU_ASSERT(memcmp(c[0]->v, c[1]->v, 3 * c[0]->np * sizeof(double)) == 0);
  CU_ASSERT(memcmp(c[0]->rot, c[1]->rot, c[0]->np * sizeof(gc_rot)) == 0);
  gc_chute_free(c[0]);
  gc_chute_free(c[1]);
#endif
}

/* 8. Parameter checks come from the table: a spring without beta_r, a constant torque
 * without w_reg, a negative mu_r are refused naming the parameter and its range. */
static void test_rolling_params(void)
{
  gc_params p;
  soy_on_glass(&p);
  const gc_submodel *sub[GC_NKINDS] = { &gc_normal_hertz, NULL, NULL, &gc_rolling_spring, NULL };
  gc_law law;
  char msg[256] = "";
  CU_ASSERT_EQUAL(gc_law_init(&law, sub, &p, msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "beta_r"));
  sub[GC_KIND_ROLLING] = &gc_rolling_const;
  CU_ASSERT_EQUAL(gc_law_init(&law, sub, &p, msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "w_reg"));
  p.w_reg = 0.1;
  p.mu_r = -1;
  CU_ASSERT_EQUAL(gc_law_init(&law, sub, &p, msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "mu_r"));
  p.mu_r = 0.1;
  CU_ASSERT_EQUAL(gc_law_init(&law, sub, &p, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT(gc_law_rolls(&law) && !gc_law_twists(&law));
}

int gc_test_add_rolling(void)
{
  CU_pSuite s = CU_add_suite("rolling and twisting resistance, local damping", NULL, NULL);
  if (!s)
    return CU_get_error();
  if (!CU_add_test(s, "rolling spring: elastic limit and slider", test_rolling_spring_limit) ||
      !CU_add_test(s, "twisting spring: elastic limit and slider", test_twisting_spring_limit) ||
      !CU_add_test(s, "parameters from the table", test_rolling_params) ||
      !CU_add_test(s, "sphere rolling to rest: stop time and distance", test_chute_rolling_stop) ||
      !CU_add_test(s, "sphere spinning to rest on a plane", test_chute_twisting_stop) ||
      !CU_add_test(s, "local damping: damped free flight", test_local_damping_free) ||
      !CU_add_test(s, "impact: spin change by the rolling couple", test_impact_rolling) ||
      !CU_add_test(s, "thread-count independence with rolling", test_threads_rolling))
    return CU_get_error();
  return CUE_SUCCESS;
}
