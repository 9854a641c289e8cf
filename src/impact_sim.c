/* impact_sim.c - oblique sphere-plane and sphere-sphere impacts with spin (see impact_sim.h).
 * Axes: n along the line of centres from sphere 1 towards body 2 (the approach direction; into
 * the plane), t along the contact plane, spins counter-clockwise with body 2 below sphere 1.
 * The contact point is R1 below sphere 1's centre and R2 above sphere 2's, so the slip velocity
 * is v_st = (v_t1 + omega1 R1) - (v_t2 - omega2 R2) (sec. 8.4.2 for a plane), the tangential
 * displacement grows by v_st dt, and the tangential force Q of the model acts against it on
 * sphere 1 and with it on body 2: m1 dv_t1/dt = -Q, I1 domega1/dt = -R1 Q, m2 dv_t2/dt = +Q,
 * I2 domega2/dt = -R2 Q; normally m1 du1/dt = -P, m2 du2/dt = +P.  With a rolling-resistance
 * sub-model the couple M_r(w1 - w2) of the law acts as I1 domega1/dt += M_r, I2 domega2/dt
 * -= M_r (a planar impact has no twist). */
#include "impact_sim.h"

#include <math.h>
#include <string.h>

#include "drop_sim.h"
#include "timestep.h"

void gc_impact_cfg_default(gc_impact_cfg *cfg)
{
  memset(cfg, 0, sizeof *cfg);
  cfg->ntcol = 200;
}

double gc_beta_sliding(double mu, double e, double v_n, double v_st)
{
  const double k2 = 0.4; /* I / (m R^2) of a homogeneous sphere */
  return -1.0 + mu * (1.0 + e) * (1.0 + 1.0 / k2) * v_n / v_st;
}

double gc_beta_sliding_f(double f, double mu, double e, double v_n, double v_st)
{
  return -1.0 + mu * (1.0 + e) * f * v_n / v_st;
}

static int body2_free(const gc_impact_cfg *cfg)
{
  return cfg->mass2 > 0 && isfinite(cfg->mass2);
}

double gc_impact_slip_factor(const gc_impact_cfg *cfg)
{
  const double m1 = cfg->mass, R1 = cfg->radius;
  if (!(m1 > 0) || !(R1 > 0))
    return 0.0;
  const double I1 = cfg->inertia > 0 ? cfg->inertia : 0.4 * m1 * R1 * R1;
  double c = 1.0 / m1 + R1 * R1 / I1, ms = m1;
  if (body2_free(cfg)) {
    const double m2 = cfg->mass2, R2 = cfg->radius2;
    if (!(R2 > 0))
      return 0.0;
    const double I2 = cfg->inertia2 > 0 ? cfg->inertia2 : 0.4 * m2 * R2 * R2;
    c += 1.0 / m2 + R2 * R2 / I2;
    ms = m1 * m2 / (m1 + m2);
  }
  return ms * c;
}

int gc_impact_run(const gc_law *law, const gc_impact_cfg *cfg, double v_n, double v_t, double omega,
                  gc_impact_result *res)
{
  return gc_impact_run2(law, cfg, v_n, v_t, omega, 0.0, res);
}

int gc_impact_run2(const gc_law *law, const gc_impact_cfg *cfg, double v_n, double v_t,
                   double omega, double omega2, gc_impact_result *res)
{
  memset(res, 0, sizeof *res);
  const int free2 = body2_free(cfg);
  if (!(v_n > 0) || !isfinite(v_n) || !isfinite(v_t) || !isfinite(omega) || !isfinite(omega2) ||
      !(cfg->mass > 0) || !(cfg->radius > 0) || (free2 && !(cfg->radius2 > 0)) || cfg->mass2 < 0 ||
      cfg->inertia < 0 || cfg->inertia2 < 0)
    return GC_EINVAL;
  const double m = cfg->mass, R = cfg->radius;
  const double I = cfg->inertia > 0 ? cfg->inertia : 0.4 * m * R * R;
  /* body 2: inverse mass and the lever arm over the inertia (0 for a fixed plane) */
  const double R2 = free2 ? cfg->radius2 : 0.0;
  const double inv_m2 = free2 ? 1.0 / cfg->mass2 : 0.0;
  const double I2 = free2 ? (cfg->inertia2 > 0 ? cfg->inertia2 : 0.4 * cfg->mass2 * R2 * R2) : 0.0;
  const double R2_over_I2 = free2 ? R2 / I2 : 0.0;
  if (!free2)
    omega2 = 0.0;
  const double m_red = free2 ? m * cfg->mass2 / (m + cfg->mass2) : m;
  double dt = cfg->dt;
  if (!(dt > 0)) {
    double tc;
    if (cfg->ntcol <= 0 || gc_law_contact_time(law, m_red, v_n, &tc))
      return GC_EINVAL;
    dt = tc / cfg->ntcol;
  }
  long max_steps = cfg->max_steps > 0 ? cfg->max_steps : 100000000L;
  res->dt = dt;
  res->v_n = v_n;
  res->v_t = v_t;
  res->omega = omega;
  res->omega2 = omega2;
  res->v_st = v_t + omega * R + omega2 * R2;

  double s[GC_HIST_MAX];
  gc_law_history_init(law, s);
  const int roll = gc_law_rolls(law);
  const gc_hist_normal *hn = gc_law_hist_normal(law, s);
  gc_normal nout;
  gc_tangential tout;
  /* velocities at half steps (leap-frog); body 2 starts at rest (translation) */
  double alpha = 0.0, u = v_n, vt = v_t, w = omega, u2 = 0.0, vt2 = 0.0, w2 = omega2;
  long n;
  for (n = 1; n <= max_steps; n++) {
    double un = u - u2; /* approach rate */
    alpha += un * dt;
    int st = gc_law_normal(law, s, alpha, un, &nout);
    if (st)
      return st;
    if (!(alpha <= gc_law_overlap_limit(law))) {
      /* beyond the model's small strains (gc_law_overlap_check): stop, with where and when */
      res->alpha_max = alpha;
      res->t_contact = n * dt;
      return GC_EPHYS;
    }
    if (alpha > res->alpha_max)
      res->alpha_max = alpha;
    /* levers of the contact point (cfg->mid_point: the middle of the overlap) */
    const double ha = cfg->mid_point && alpha > 0 ? 0.5 * alpha : 0.0;
    const double Rl = R - ha, R2l = free2 ? R2 - ha : 0.0;
    double vs = (vt + w * Rl) - (vt2 - w2 * R2l); /* slip velocity of the contact point */
    double d_delta = vs * dt;
    double ds_roll = 0.0;
    double vrel = vt - vt2;
    if (cfg->rolling && vrel * w * R < 0) {
      /* sec. 5.2: the rolled distance is the smaller of R |w| dt and |v| dt when the centre moves
       * and the sphere rolls in the same sense (rolling of the contact point backwards) */
      ds_roll = fmin(fabs(w) * R * dt, fabs(vrel) * dt);
    }
    if (nout.P > 0 || hn->in_contact) {
      st = gc_law_tangential(law, s, &nout, d_delta, vs, ds_roll, &tout);
      if (st)
        return st;
    } else {
      memset(&tout, 0, sizeof tout);
    }
    double Q = nout.P > 0 ? tout.Q : 0.0;
    double Mr = 0.0; /* rolling resistance couple on sphere 1 about e_z (-Mr on body 2) */
    if (roll && (nout.P > 0 || hn->in_contact)) {
      /* n = e_x (into body 2), t = e_y, spins about e_z = e_x x e_y: w1 - w2 is the relative
       * rolling rate; no twist in a planar impact (no spin about n) */
      const double nv[3] = { 1, 0, 0 }, wr[3] = { 0, 0, w - w2 };
      const double dth[3] = { 0, 0, (w - w2) * dt };
      double M[3];
      st = gc_law_torque(law, s, &nout, nv, dth, wr, M);
      if (st)
        return st;
      Mr = M[2];
    }
    u -= nout.P / m * dt;
    vt -= Q / m * dt;
    w -= (Rl * Q - Mr) / I * dt;
    u2 += nout.P * inv_m2 * dt;
    vt2 += Q * inv_m2 * dt;
    w2 -= ((free2 ? R2l / I2 : R2_over_I2) * Q + (free2 ? Mr / I2 : 0.0)) * dt;
    if (nout.P > res->P_max)
      res->P_max = nout.P;
    if (fabs(Q) > res->Q_max)
      res->Q_max = fabs(Q);
    if (tout.sliding)
      res->n_sliding++;
    /* separation; with tension = 1 a pulling dashpot holds the contact until P = 0 */
    if (u - u2 < 0.0 && (law->pair.p.tension ? nout.P == 0.0 : nout.P <= 0.0))
      break;
  }
  if (n > max_steps)
    return GC_ENOCONV;
  res->n_nonsimple = (long)gc_law_hist_tangential(law, s)->n_nonsimple;
  res->t_contact = n * dt;
  res->v_n_out = -(u - u2);
  res->v_t_out = vt;
  res->omega_out = w;
  res->v_n2_out = u2;
  res->v_t2_out = vt2;
  res->omega2_out = w2;
  res->v_st_out = (vt + w * R) - (vt2 - w2 * R2);
  res->e = res->v_n_out / v_n;
  res->beta = res->v_st != 0 ? -res->v_st_out / res->v_st : 0.0;
  if (!isfinite(res->e) || !isfinite(res->beta))
    return GC_ENAN;
  /* Kinetic energy before and after (the contact stores none once separated: P = Q = 0), in
   * the frame where body 2 was at rest.  A passive contact cannot create energy; the allowed
   * excess 2 GC_E_TOL + GC_E_TOL^2 is the integration error that GC_E_TOL allows the normal
   * speed (timestep.h). */
  const double m2 = free2 ? cfg->mass2 : 0.0;
  res->ke_in = 0.5 * (m * (v_n * v_n + v_t * v_t) + I * omega * omega + I2 * omega2 * omega2);
  res->ke_out =
      0.5 * (m * (u * u + vt * vt) + I * w * w + m2 * (u2 * u2 + vt2 * vt2) + I2 * w2 * w2);
  if (!isfinite(res->ke_out))
    return GC_ENAN;
  if (res->ke_out > res->ke_in * (1.0 + GC_E_TOL) * (1.0 + GC_E_TOL))
    return GC_EPHYS;
  return GC_SUCCESS;
}
