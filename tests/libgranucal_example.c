/* libgranucal_example.c - a program built against the INSTALLED libgranucal (via pkg-config) by
 * tests/libgranucal.sh; also the example of libgranucal(3).
 *
 * A head-on collision of two like spheres (R 5 mm, E 70 GPa, nu 0.3, rho 2700: Chung & Ooi's
 * aluminium) at 1 m/s, integrated with velocity Verlet through granucal_contact_step, checked
 * against closed forms:
 *   - elastic Hertz: restitution 1 (energy conserved by the symmetric integrator; 1e-6) and
 *     duration 2.94328 (5 m* / (4 k))^(2/5) v^(-1/5), k = (4/3) E* sqrt(R*) (Timoshenko &
 *     Goodier; the seed's eq. 3.22 with its constant 2.87 rounded), within 0.2 % (dt = t/4000:
 *     the contact starts and ends inside a step);
 *   - elasto-plastic ep (sY 100 MPa): 0 < e < 1 and the dissipated energy equals the work the
 *     contact absorbed (the energy balance of the trapezoid, 1e-3 of the impact energy);
 *   - a parameter out of range is refused with a message naming it.
 * Prints one line per check and exits non-zero on a failure. */
#include <granucal/granucal.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static void check(int ok, const char *what, double got, double want)
{
  printf("%s %-44s got %.9g want %.9g\n", ok ? "PASS" : "FAIL", what, got, want);
  if (!ok)
    failures++;
}

/* Two spheres approach along x, each at v0/2 (relative speed v0); *dissipated is the residual
 * of the energy balance. */
static int collide(const granucal_law *law, double m, double v0, double R, double dt, double *e,
                   double *tc, double *dissipated)
{
  size_t ns = granucal_law_state_size(law);
  double *state = malloc(ns * sizeof *state);
  if (!state)
    return GRANUCAL_ENOMEM;
  granucal_law_state_init(law, state);
  /* sphere 1 at x1 moving +x, sphere 2 at x2 moving -x; relative speed v0 */
  double x1 = -R - 1e-7, x2 = R + 1e-7, v1 = 0.5 * v0, v2 = -0.5 * v0, f = 0.0;
  double t = 0.0, t_in = -1.0, t_out = -1.0, wsum = 0.0;
  const double n[3] = { 1, 0, 0 };
  int st = GRANUCAL_SUCCESS;
  for (long k = 0; k < 10000000 && t_out < 0; k++) {
    /* velocity Verlet: half kick, drift, force, half kick */
    v1 += 0.5 * dt * f / m;
    v2 -= 0.5 * dt * f / m;
    x1 += dt * v1;
    x2 += dt * v2;
    t += dt;
    double overlap = 2 * R - (x2 - x1), vrel[3] = { v2 - v1, 0, 0 }, F[3], work[2];
    int active;
    st = granucal_contact_step(law, state, overlap, n, vrel, NULL, dt, 0, F, NULL, work, &active);
    if (st)
      break;
    wsum += work[0] + work[1];
    f = F[0]; /* force on sphere 1 along x */
    if (overlap > 0 && t_in < 0)
      t_in = t;
    if (overlap <= 0 && t_in >= 0)
      t_out = t;
    v1 += 0.5 * dt * f / m;
    v2 -= 0.5 * dt * f / m;
  }
  free(state);
  if (st)
    return st;
  if (t_out < 0)
    return GRANUCAL_ENOCONV;
  *e = (v2 - v1) / v0; /* separation speed over approach speed */
  *tc = t_out - t_in;
  double ek0 = 2 * 0.5 * m * (0.5 * v0) * (0.5 * v0), ek1 = 0.5 * m * (v1 * v1 + v2 * v2);
  *dissipated = (ek0 - ek1) - wsum; /* kinetic energy lost minus the work absorbed */
  return GRANUCAL_SUCCESS;
}

int main(void)
{
  char msg[256];
  const double R = 5e-3, E = 70e9, nu = 0.3, rho = 2700, v0 = 1.0;
  const double m = rho * 4.0 / 3.0 * M_PI * R * R * R;
  printf("libgranucal %s (header %s)\n", granucal_version(), GRANUCAL_VERSION_STRING);
  check(strcmp(granucal_version(), GRANUCAL_VERSION_STRING) == 0, "library version = header", 0, 0);

  granucal_params *p;
  if (granucal_params_new(&p))
    return 2;
  if (granucal_params_set(p, "R1", R, msg, sizeof msg) ||
      granucal_params_set(p, "R2", R, msg, sizeof msg) ||
      granucal_params_set(p, "E", E, msg, sizeof msg) ||
      granucal_params_set(p, "nu", nu, msg, sizeof msg) ||
      granucal_params_set(p, "sY", 100e6, msg, sizeof msg) ||
      granucal_params_set(p, "C_a", 2.446e-7, msg, sizeof msg) ||
      granucal_params_set(p, "K_c", 3.14e-4, msg, sizeof msg)) {
    fprintf(stderr, "set: %s\n", msg);
    return 2;
  }
  granucal_params_like_bodies(p);

  /* refused: nu out of (-1, 0.5) */
  int st = granucal_params_set(p, "nu", 0.7, msg, sizeof msg);
  check(st == GRANUCAL_EINVAL && strstr(msg, "nu = 0.7") != NULL, "nu = 0.7 refused, named", st,
        GRANUCAL_EINVAL);
  printf("     message: %s\n", msg);

  /* elastic Hertz, frictionless */
  granucal_law *hertz;
  if (granucal_law_new(&hertz, p, "hertz", "none", NULL, NULL, msg, sizeof msg)) {
    fprintf(stderr, "hertz: %s\n", msg);
    return 2;
  }
  double E_star = E / (2 * (1 - nu * nu)), R_star = R / 2, m_star = m / 2;
  double k = 4.0 / 3.0 * E_star * sqrt(R_star);
  double t_exact = 2.94328 * pow(5 * m_star / (4 * k), 0.4) * pow(v0, -0.2);
  double e, tc, resid;
  st = collide(hertz, m, v0, R, t_exact / 4000, &e, &tc, &resid);
  check(st == 0 && fabs(e - 1) < 1e-6, "hertz: restitution 1", e, 1.0);
  check(st == 0 && fabs(tc / t_exact - 1) < 2e-3, "hertz: contact time (Timoshenko)", tc, t_exact);
  double tl;
  st = granucal_law_contact_time(hertz, m_star, v0, &tl);
  check(st == 0 && fabs(tl / t_exact - 1) < 5e-3, "hertz: granucal_law_contact_time", tl, t_exact);

  /* elasto-plastic */
  granucal_law *ep;
  if (granucal_law_new(&ep, p, "ep", "ep", NULL, NULL, msg, sizeof msg)) {
    fprintf(stderr, "ep: %s\n", msg);
    return 2;
  }
  printf("     law: %s, state %zu doubles\n", granucal_law_name(ep), granucal_law_state_size(ep));
  st = collide(ep, m, v0, R, t_exact / 4000, &e, &tc, &resid);
  double ek0 = 0.25 * m * v0 * v0;
  check(st == 0 && e > 0 && e < 1, "ep: 0 < e < 1", e, 0.5);
  check(st == 0 && fabs(resid) < 1e-3 * ek0, "ep: energy balance residual / E_kin", resid / ek0, 0);

  granucal_law_free(hertz);
  granucal_law_free(ep);
  granucal_params_free(p);
  printf("%s: %d failure(s)\n", failures ? "FAIL" : "PASS", failures);
  return failures ? 1 : 0;
}
