/* impact_sim.c - oblique sphere-plane impact with spin (see impact_sim.h).
 * Axes: n normal to the plane, pointing into it (the approach direction), t along the plane,
 * spin omega counter-clockwise with the plane below the sphere.  The slip velocity of the
 * contact point is then v_st = v_t + omega R (sec. 8.4.2), the tangential displacement grows by
 * v_st dt, and the tangential force Q of the model acts against it on the sphere:
 * m dv_t/dt = -Q and I domega/dt = -R Q (the contact point is R below the centre). */
#include "impact_sim.h"

#include <math.h>
#include <string.h>

#include "drop_sim.h"

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

int gc_impact_run(const gc_law *law, const gc_impact_cfg *cfg, double v_n, double v_t,
                  double omega, gc_impact_result *res)
{
  memset(res, 0, sizeof *res);
  if (!(v_n > 0) || !isfinite(v_n) || !isfinite(v_t) || !isfinite(omega) || !(cfg->mass > 0) ||
      !(cfg->radius > 0))
    return GC_EINVAL;
  const double m = cfg->mass, R = cfg->radius;
  const double I = cfg->inertia > 0 ? cfg->inertia : 0.4 * m * R * R;
  double dt = cfg->dt;
  if (!(dt > 0)) {
    if (cfg->ntcol <= 0 || !(law->pair.E_star > 0))
      return GC_EINVAL;
    dt = gc_hertz_contact_time(&law->pair, m, v_n) / cfg->ntcol;
  }
  long max_steps = cfg->max_steps > 0 ? cfg->max_steps : 100000000L;
  res->v_n = v_n;
  res->v_t = v_t;
  res->omega = omega;
  res->v_st = v_t + omega * R;

  gc_state s;
  gc_state_init(&s);
  gc_normal nout;
  gc_tangential tout;
  double alpha = 0.0, u = v_n, vt = v_t, w = omega; /* velocities at half steps (leap-frog) */
  long n;
  for (n = 1; n <= max_steps; n++) {
    alpha += u * dt;
    int st = gc_law_normal(law, &s, alpha, u, &nout);
    if (st)
      return st;
    double vs = vt + w * R; /* slip velocity of the contact point */
    double d_delta = vs * dt;
    double ds_roll = 0.0;
    if (cfg->rolling && vt * w * R < 0) {
      /* sec. 5.2: the rolled distance is the smaller of R |w| dt and |v| dt when the centre moves
       * and the sphere rolls in the same sense (rolling of the contact point backwards) */
      ds_roll = fmin(fabs(w) * R * dt, fabs(vt) * dt);
    }
    if (nout.P > 0 || s.in_contact) {
      st = gc_law_tangential(law, &s, &nout, d_delta, vs, ds_roll, &tout);
      if (st)
        return st;
    } else {
      memset(&tout, 0, sizeof tout);
    }
    double Q = nout.P > 0 ? tout.Q : 0.0;
    u -= nout.P / m * dt;
    vt -= Q / m * dt;
    w -= R * Q / I * dt;
    if (nout.P > res->P_max)
      res->P_max = nout.P;
    if (fabs(Q) > res->Q_max)
      res->Q_max = fabs(Q);
    if (tout.sliding)
      res->n_sliding++;
    if (nout.P <= 0.0 && u < 0.0)
      break;
  }
  if (n > max_steps)
    return GC_ENOCONV;
  res->n_nonsimple = s.n_nonsimple;
  res->t_contact = n * dt;
  res->v_n_out = -u;
  res->v_t_out = vt;
  res->omega_out = w;
  res->v_st_out = vt + w * R;
  res->e = -u / v_n;
  res->beta = res->v_st != 0 ? -res->v_st_out / res->v_st : 0.0;
  if (!isfinite(res->e) || !isfinite(res->beta))
    return GC_ENAN;
  return GC_SUCCESS;
}
