/* test_slope.c - a rigid sphere-cluster block sliding up an incline, through the chute's 3-D
 * contact path (src/chute.c: flat bottom, eq. 4.9-4.21, rigid.c for the block).
 *
 * Reference: seed 000 (Muth, Eberhard & Luding), sec. 6: a block of 0.001 m^3, rho = 2700 kg/m^3
 * (m = 2.7 kg) on a plane inclined at 30 deg, pushed up the slope at v0 = 5 m/s, dt = 5e-6 s,
 * Kelvin-Voigt normal force (their eq. 3 with n = 1) and the Brendel-Dippel friction spring (eq.
 * 5-6).  It stops at t = v0 / (g (sin a + mu cos a)): 0.546 / 0.508 / 0.499 s for mu = 0.5 /
 * 0.58 / 0.6; with mu < tan a = 0.577 it then slides down at g (sin a - mu cos a), with mu >=
 * tan a it sticks.
 *
 * How close a sphere-cluster block gets, and why.  The block here is 8 spheres of radius
 * r = 1.5 cm at the corners of a 10 cm cube (centres at +-3.5 cm); the spheres are only its
 * contact surface, their density is set so that the mass is the seed's 2.7 kg.  With a linear
 * spring k_n = 1e7 N/m per contact (static overlap 6.6e-7 m, period 1.6 ms = 330 steps) the
 * stop times agree with the closed form to 5e-6 relative (measured -4.6e-6 / -4.9e-6 /
 * -5.0e-6), for every friction law: while the block slides each contact force is capped at
 * exactly mu P and the normal forces add up to m g cos a, so contact compliance only enters
 * through the first micro-seconds (the tangential spring reaches mu P after mu P / k_t =
 * 4e-7 m, 8e-8 s at 5 m/s) and the crossing is resolved to the leap-frog's dt / 2.  The
 * seed's 3-digit values are those of the closed form rounded down (they differ from it by
 * 0.3 / 0.5 / 0.9 ms).  What a sphere cluster cannot do is stand on its edges: its support
 * is the polygon of the sphere centres' footprints, half-width b = L/2 - r, not L/2.  Friction
 * mu P acting at the base, h = L/2 below the centre of mass, is balanced by shifting the normal
 * load towards the rear by mu h; the rigid block tips once mu h > b (statics; a real cube
 * tips only at mu > 1).  The cube of 2 x 2 x 2 touching spheres (r = L/4, b/h = 0.5) slides
 * exactly at mu = 0.45, but at the seed's mu = 0.5 / 0.58 / 0.6 it rises on its rear spheres
 * and tumbles: stop times +7 % / +39 % / +61 % (lsd_e + bd), i.e. on average only 0.45-0.85
 * of mu m g cos a, with every friction law (tsuji normal, mu = 0.5: bd 0.75, mindlin 0.85,
 * md 0.84, vqz 0.74, wb 0.84).  Test 3 checks the threshold.
 *
 * Test 2 also guards the 3-D friction cap of the chute (src/chute.c, tangential(), eq.
 * 4.21): before it took the direction of the elastic trial force, a contact sliding with
 * K_T0 |Delta delta| > 2 mu P per step (here 67) turned its force by +-45 deg every step as
 * soon as rounding gave the slip a sideways part, and every law delivered only 0.72 of mu P
 * along the slip (stop times 13 % late).
 *
 * Runtime ~5 s. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "chute.h"
#include "gc_test.h"
#include "rigid.h"

#define SLOPE_G 9.81
#define SLOPE_ANGLE (30.0 * M_PI / 180.0)
#define SLOPE_V0 5.0
#define SLOPE_L 0.1 /* cube edge [m]: 0.001 m^3 */
#define SLOPE_M 2.7 /* [kg] */

/* closed form: time to stop when pushed up the slope */
static double stop_time(double mu)
{
  return SLOPE_V0 / (SLOPE_G * (sin(SLOPE_ANGLE) + mu * cos(SLOPE_ANGLE)));
}

/* Quaternion of a rotation matrix (row-major), from its largest component (Shepperd). */
static void quat_of_matrix(const double M[9], double q[4])
{
  double tr = M[0] + M[4] + M[8];
  if (tr >= M[0] && tr >= M[4] && tr >= M[8]) {
    double s = 2.0 * sqrt(1.0 + tr);
    q[0] = 0.25 * s, q[1] = (M[7] - M[5]) / s, q[2] = (M[2] - M[6]) / s, q[3] = (M[3] - M[1]) / s;
  } else if (M[0] >= M[4] && M[0] >= M[8]) {
    double s = 2.0 * sqrt(1.0 + M[0] - M[4] - M[8]);
    q[0] = (M[7] - M[5]) / s, q[1] = 0.25 * s, q[2] = (M[1] + M[3]) / s, q[3] = (M[2] + M[6]) / s;
  } else if (M[4] >= M[8]) {
    double s = 2.0 * sqrt(1.0 - M[0] + M[4] - M[8]);
    q[0] = (M[2] - M[6]) / s, q[1] = (M[1] + M[3]) / s, q[2] = 0.25 * s, q[3] = (M[5] + M[7]) / s;
  } else {
    double s = 2.0 * sqrt(1.0 - M[0] - M[4] + M[8]);
    q[0] = (M[3] - M[1]) / s, q[1] = (M[2] + M[6]) / s, q[2] = (M[5] + M[7]) / s, q[3] = 0.25 * s;
  }
  gc_quat_normalize(q);
}

typedef struct {
  double t_stop;  /* first zero of the velocity along the slope [s] (interpolated) */
  double v_end;   /* velocity along the slope at the end (+: down) [m/s] */
  double a_after; /* mean acceleration along the slope over [t_stop + 0.1, end] [m/s^2] */
  double x_after; /* displacement along the slope from t_stop to the end [m] */
  double ratio;   /* sum Q_x / (mu sum P) of the bottom contacts over 0.05-0.4 s */
  double p_min;   /* smallest normal force of a bottom sphere over 0.05-0.4 s [N] */
  double tilt;    /* largest rotation from the initial orientation [rad] */
} slope_result;

/* A cube of 2 x 2 x 2 spheres of radius r (centres at +-(L/2 - r)), resting on the flat bottom
 * in equilibrium (overlap m g cos a / (4 k_n) for the linear spring; 0 for Hertz), pushed up
 * the slope at v0, run for t_end.  nfd/tfd: presets; k_n, k_t: linear springs [N/m]; E for
 * the Hertz-type laws (aluminium, rigid plane); e_n = 0.5 damping. */
static void slope_run(double r, const char *nfd, const char *tfd, double mu, double t_end,
                      slope_result *res)
{
  char msg[512] = "";
  const double h = 0.5 * SLOPE_L - r, k_n = 1e7;
  double pos[8][3], rad[8];
  for (int k = 0; k < 8; k++) {
    pos[k][0] = (k & 1) ? h : -h;
    pos[k][1] = (k & 2) ? h : -h;
    pos[k][2] = (k & 4) ? h : -h;
    rad[k] = r;
  }
  const double V = 8.0 * 4.0 / 3.0 * M_PI * r * r * r;
  gc_chute_cfg cfg;
  memset(&cfg, 0, sizeof cfg);
  CU_ASSERT_EQUAL_FATAL(gc_shape_cluster(8, (const double(*)[3])pos, rad, SLOPE_M / V, 0,
                                         &cfg.shape, msg, sizeof msg),
                        GC_SUCCESS);
  GC_ASSERT_REL(cfg.shape.mass, SLOPE_M, 1e-9);
  cfg.n_particles = 1;
  cfg.length = cfg.width = cfg.fill_height = 0.2; /* periodic images 0.1 m apart */
  cfg.angle = SLOPE_ANGLE;
  cfg.gravity = SLOPE_G;
  cfg.bottom = GC_BOTTOM_FLAT;
  cfg.side_walls = 0;
  cfg.nfd = gc_preset_lookup(nfd);
  cfg.tfd = gc_preset_lookup(tfd);
  CU_ASSERT_PTR_NOT_NULL_FATAL(cfg.nfd);
  CU_ASSERT_PTR_NOT_NULL_FATAL(cfg.tfd);
  gc_params_default(&cfg.pb);
  cfg.pb.E1 = 7e10; /* aluminium (the seed's rho = 2700) on a rigid plane, for Hertz */
  cfg.pb.nu1 = cfg.pb.nu2 = 0.3;
  cfg.pb.P_Y = 1e30; /* no yield */
  cfg.pb.mu = mu;
  cfg.pb.k_n = k_n;
  cfg.pb.k_t = 0.8 * k_n;
  cfg.pb.e_n = 0.5;
  cfg.pb.m_eff = SLOPE_M / 4;
  cfg.pp = cfg.pw = cfg.pb;
  cfg.skin = 0.1 * r;
  cfg.dt = 5e-6;
  cfg.threads = 1;
  gc_chute *c = NULL;
  int st = gc_chute_alloc(&c, &cfg, msg, sizeof msg);
  if (st)
    fprintf(stderr, "gc_chute_alloc: %s\n", msg);
  CU_ASSERT_EQUAL_FATAL(st, GC_SUCCESS);
  /* the cluster's sphere positions are in principal axes, which for a cube are arbitrary:
   * the orientation maps them back onto the cube's, R = sum p p_body^T / sum |p|^2 / 3 */
  double M[9] = { 0 }, s2 = 0, q[4];
  for (int k = 0; k < 8; k++) {
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++)
        M[3 * i + j] += pos[k][i] * cfg.shape.pos[k][j];
    s2 += (pos[k][0] * pos[k][0] + pos[k][1] * pos[k][1] + pos[k][2] * pos[k][2]) / 3.0;
  }
  for (int i = 0; i < 9; i++)
    M[i] /= s2;
  quat_of_matrix(M, q);
  for (int k = 0; k < 8; k++) {
    double o[3];
    gc_quat_rotate(q, cfg.shape.pos[k], o);
    for (int i = 0; i < 3; i++)
      CU_ASSERT_DOUBLE_EQUAL_FATAL(o[i], pos[k][i], 1e-6 * SLOPE_L);
  }
  const gc_law *law = gc_chute_law_pb(c, 0);
  double d0 = gc_law_linear(law) ? SLOPE_M * SLOPE_G * cos(SLOPE_ANGLE) / (4.0 * k_n) : 0.0;
  double x[3] = { 0.1, 0.5 * SLOPE_L - d0, 0.1 }, v[3] = { -SLOPE_V0, 0, 0 };
  CU_ASSERT_EQUAL_FATAL(gc_chute_place(c, x, q, v, NULL, msg, sizeof msg), GC_SUCCESS);
  memset(res, 0, sizeof *res);
  res->t_stop = -1;
  res->p_min = INFINITY;
  const double dt = cfg.dt;
  double vprev = -SLOPE_V0, xs = 0, sQ = 0, sP = 0, v1 = 0, t1 = -1;
  long n = (long)(t_end / dt + 0.5);
  for (long k = 0; k < n; k++) {
    st = gc_chute_step(c, msg, sizeof msg);
    if (st) {
      fprintf(stderr, "gc_chute_step: %s\n", msg);
      gc_chute_free(c);
      CU_FAIL_FATAL("gc_chute_step failed");
    }
    double vx = c->v[0], t = c->t - 0.5 * dt; /* v is at the half step */
    xs += vx * dt;
    if (res->t_stop < 0 && vprev < 0 && vx >= 0) {
      res->t_stop = t - dt * vx / (vx - vprev);
      xs = 0;
    }
    if (res->t_stop > 0 && t1 < 0 && t >= res->t_stop + 0.1)
      t1 = t, v1 = vx;
    vprev = vx;
    if (c->t > 0.05 && c->t < 0.4)
      for (size_t i = 0; i < c->nsph; i++) {
        if (c->sx[3 * i + 1] > c->x[1])
          continue; /* the top layer */
        const gc_chute_contact *ct = gc_chute_wall(c, 3 * i + 2);
        sQ += ct->Q[0];
        sP += ct->P;
        res->p_min = fmin(res->p_min, ct->P);
      }
    double cq =
        fabs(q[0] * c->rot->q[0] + q[1] * c->rot->q[1] + q[2] * c->rot->q[2] + q[3] * c->rot->q[3]);
    res->tilt = fmax(res->tilt, 2.0 * acos(fmin(1.0, cq)));
  }
  res->v_end = c->v[0];
  res->x_after = xs;
  res->a_after = t1 > 0 ? (c->v[0] - v1) / (c->t - 0.5 * dt - t1) : NAN;
  res->ratio = sP > 0 ? sQ / (mu * sP) : 0.0;
  gc_chute_free(c);
}

/* 1. Seed 000's three cases with its laws: linear Kelvin-Voigt spring-dashpot (lsd_e, e = 0.5)
 * and Brendel-Dippel friction (bd).  Block of corner spheres r = 1.5 cm (b/h = 0.7 > 0.6).
 * Tolerances: stop time 1e-4 relative to the closed form (measured 5e-6) and 1 ms to the
 * seed's 3-digit values (which are the closed form rounded down); mu = 0.5: slides back down at
 * g (sin a - mu cos a) = 0.657 m/s^2 within 1 %; mu = 0.58, 0.6: stays at rest (|v| < 1e-4
 * m/s after 0.3 s, and it creeps less than 1 mm while the friction springs reverse). */
static void test_seed000(void)
{
  const double mus[3] = { 0.5, 0.58, 0.6 }, seed[3] = { 0.546, 0.508, 0.499 };
  printf("\n");
  for (int k = 0; k < 3; k++) {
    slope_result r;
    slope_run(0.015, "lsd_e", "bd", mus[k], 0.85, &r);
    double tc = stop_time(mus[k]), as = SLOPE_G * (sin(SLOPE_ANGLE) - mus[k] * cos(SLOPE_ANGLE));
    printf("    mu = %.2f: t_stop = %.6f s (closed form %.6f, rel %.1e; seed %.3f), then v = %.3g "
           "m/s, a = %.4g m/s^2 (closed form %.4g), moved %.3g m; sum Q_x/(mu sum P) = %.6f\n",
           mus[k], r.t_stop, tc, r.t_stop / tc - 1, seed[k], r.v_end, r.a_after, as > 0 ? as : 0.0,
           r.x_after, r.ratio);
    GC_ASSERT_REL(r.t_stop, tc, 1e-4);
    CU_ASSERT_DOUBLE_EQUAL(r.t_stop, seed[k], 1e-3);
    CU_ASSERT_DOUBLE_EQUAL(r.ratio, 1.0, 1e-6);
    if (as > 0) {
      GC_ASSERT_REL(r.a_after, as, 1e-2);
    } else {
      CU_ASSERT(fabs(r.v_end) < 1e-4);
      CU_ASSERT(fabs(r.x_after) < 1e-3);
    }
  }
}

/* 2. Every friction law decelerates the sliding block at g (sin a + mu cos a): the chute's
 * 3-D contact path delivers |Q| = mu P on a sliding contact with each tangential model (Hertz
 * normal with Tsuji damping e = 0.5 for the Hertz-based TFDs, the linear spring for lsd and
 * bd, test 1).  mu = 0.5, block of corner spheres (no tipping).  Tolerance: stop time 1e-4 relative to
 * the closed form (measured 5e-6 for all), sum Q_x / (mu sum P) over the slide 1 within 1e-6. */
static void test_laws(void)
{
  static const char *const laws[][2] = { { "tsuji", "md" },      { "tsuji", "vqz" },
                                         { "tsuji", "wb" },      { "tsuji", "ep" },
                                         { "tsuji", "mindlin" }, { "tsuji", "bd" },
                                         { "lsd_e", "lsd" } };
  const double mu = 0.5, tc = stop_time(mu);
  printf("\n");
  for (size_t k = 0; k < sizeof laws / sizeof laws[0]; k++) {
    slope_result r;
    slope_run(0.015, laws[k][0], laws[k][1], mu, tc + 0.01, &r);
    printf("    %s + %s: t_stop = %.6f s (closed form %.6f, rel %.1e), sum Q_x/(mu sum P) = "
           "%.6f\n",
           laws[k][0], laws[k][1], r.t_stop, tc, r.t_stop / tc - 1, r.ratio);
    GC_ASSERT_REL(r.t_stop, tc, 1e-4);
    CU_ASSERT_DOUBLE_EQUAL(r.ratio, 1.0, 1e-6);
  }
}

/* 3. Tipping of a sphere cluster.  Reference: statics of a rigid block sliding on its base,
 * it tips when mu > b / h (b: half-width of the support polygon along the slide, h: height of
 * the centre of mass).  The cube of 2 x 2 x 2 touching spheres (r = L/4) has b = h = L/4,
 * so b/h = 0.5.  mu = 0.40 and 0.45: all four base spheres stay loaded, the tilt stays below
 * 1e-3 rad and the stop time is the closed form's within 1e-4; mu = 0.52 and 0.55: a base
 * sphere lifts off (P = 0), the block pitches by more than 0.1 rad (it tumbles) and the stop
 * time is more than 5 % late (measured 22 % and 10 %).  The loaded contacts still slide at
 * mu P (sum Q_x / (mu sum P) = 1 within 1e-6 without tipping, above 0.98 while it tumbles:
 * the deficit is the flight, not the friction law). */
static void test_tipping(void)
{
  const double mus[4] = { 0.40, 0.45, 0.52, 0.55 };
  printf("\n");
  for (int k = 0; k < 4; k++) {
    slope_result r;
    double tc = stop_time(mus[k]);
    slope_run(0.25 * SLOPE_L, "lsd_e", "bd", mus[k], tc + 0.2, &r);
    printf("    b/h = 0.5, mu = %.2f: t_stop = %.6f s (closed form %.6f, rel %+.2e), smallest "
           "base load %.3g N, tilt %.3g rad, sum Q_x/(mu sum P) = %.6f\n",
           mus[k], r.t_stop, tc, r.t_stop / tc - 1, r.p_min, r.tilt, r.ratio);
    if (mus[k] < 0.5) {
      GC_ASSERT_REL(r.t_stop, tc, 1e-4);
      CU_ASSERT(r.p_min > 0);
      CU_ASSERT(r.tilt < 1e-3);
      CU_ASSERT_DOUBLE_EQUAL(r.ratio, 1.0, 1e-6);
    } else {
      CU_ASSERT(r.t_stop > 1.05 * tc || r.t_stop < 0);
      CU_ASSERT(r.p_min == 0);
      CU_ASSERT(r.tilt > 0.1);
      CU_ASSERT(r.ratio > 0.98 && r.ratio <= 1.0 + 1e-9);
    }
  }
}

int gc_test_add_slope(void)
{
  CU_pSuite s = CU_add_suite("slope", NULL, NULL);
  if (!s)
    return CU_get_error();
  if (!CU_add_test(s, "1 seed 000 block on a slope, stick/slip (lsd_e + bd)", test_seed000) ||
      !CU_add_test(s, "2 every friction law: sliding block decelerates at g(sin + mu cos)",
                   test_laws) ||
      !CU_add_test(s, "3 a sphere-cluster block tips at mu > b/h", test_tipping))
    return CU_get_error();
  return CUE_SUCCESS;
}
