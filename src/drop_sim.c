/* drop_sim.c - normal sphere-plane impact (sec. 6.5.1).  Coordinates: alpha is the overlap
 * (R - x in eq. 6.39), u = d(alpha)/dt the approach velocity, positive towards the plane. */
#include "drop_sim.h"

#include <math.h>
#include <string.h>

#include "timestep.h"

void gc_drop_cfg_default(gc_drop_cfg *cfg)
{
  memset(cfg, 0, sizeof *cfg);
  cfg->dt = 1.0e-6; /* the seed's step for the aluminium impacts (sec. 6.5.2) */
  cfg->integrator = GC_INTEGRATOR_LEAPFROG;
}

double gc_drop_speed_from_height(double H, double g)
{
  return sqrt(2.0 * g * H);
}

static int time_step(const gc_law *law, const gc_drop_cfg *cfg, double v_in, double *dt)
{
  if (cfg->dt > 0) {
    *dt = cfg->dt;
    return GC_SUCCESS;
  }
  if (cfg->ntcol <= 0)
    return GC_EINVAL;
  /* The normal sub-model states its contact duration: eq. 3.22 for the Hertz-type ones, the
   * half period of a linear oscillator for the linear ones (lsd, Walton-Braun loading K1). */
  double tc;
  int st = gc_law_contact_time(law, cfg->mass, v_in, &tc);
  if (st)
    return GC_EINVAL;
  *dt = tc / cfg->ntcol;
  return GC_SUCCESS;
}

int gc_drop_run(const gc_law *law, const gc_drop_cfg *cfg, double v_in, gc_drop_result *res,
                gc_drop_observer obs, void *obs_ctx)
{
  memset(res, 0, sizeof *res);
  if (!(v_in > 0) || !isfinite(v_in) || !(cfg->mass > 0) || !(cfg->g >= 0))
    return GC_EINVAL;
  double dt;
  int st = time_step(law, cfg, v_in, &dt);
  if (st)
    return st;
  long max_steps = cfg->max_steps > 0 ? cfg->max_steps : 100000000L;
  double s[GC_HIST_MAX];
  gc_law_history_init(law, s);
  const gc_hist_normal *hn = gc_law_hist_normal(law, s);
  gc_normal out;
  const double m = cfg->mass, g = cfg->g;
  double alpha = 0.0, u = v_in, P = 0.0, alpha_prev = 0.0;
  double W_load = 0.0, W_unload = 0.0;
  double acc = g; /* velocity Verlet: acceleration at the current position */
  long n;
  for (n = 1; n <= max_steps; n++) {
    double alpha_new;
    if (cfg->integrator == GC_INTEGRATOR_VERLET)
      alpha_new = alpha + u * dt + 0.5 * acc * dt * dt;
    else
      alpha_new = alpha + u * dt; /* eq. 6.38, u is the velocity at the half step */
    st = gc_law_normal(law, s, alpha_new, u, &out);
    if (st)
      return st;
    double P_new = out.P;
    double dW = 0.5 * (P + P_new) * (alpha_new - alpha); /* eq. 6.43 terms */
    if (alpha_new > alpha)
      W_load += dW;
    else
      W_unload -= dW;
    if (cfg->integrator == GC_INTEGRATOR_VERLET) {
      double acc_new = g - P_new / m;
      u += 0.5 * (acc + acc_new) * dt;
      acc = acc_new;
    } else {
      u += (g - P_new / m) * dt; /* eq. 6.40-6.41 */
    }
    alpha_prev = alpha;
    alpha = alpha_new;
    P = P_new;
    if (P > res->P_max)
      res->P_max = P;
    if (alpha > res->alpha_max)
      res->alpha_max = alpha;
    if (!(alpha <= gc_law_overlap_limit(law))) {
      /* beyond the model's small strains (gc_law_overlap_check): stop, with where and when */
      res->t_contact = n * dt;
      res->dt = dt;
      res->steps = n;
      res->alpha_max = alpha;
      return GC_EPHYS;
    }
    if (obs)
      obs(obs_ctx, n * dt, alpha, P, u);
    /* Separation (sec. 6.5.1): the force has dropped to zero while the sphere moves away;
     * a residual dent may remain.  With tension = 1 a pulling dashpot (P < 0) holds the
     * contact until the overlap is gone (the damping then adds nothing: P = 0). */
    if (u < 0.0 && (law->pair.p.tension ? P == 0.0 : P <= 0.0))
      break;
  }
  if (n > max_steps)
    return GC_ENOCONV;
  res->v_in = v_in;
  res->v_out = -u;
  res->e_vel = -u / v_in;
  res->e_energy = W_load > 0 ? sqrt(W_unload / W_load) : 0.0;
  res->alpha_res = hn->alpha_res;
  res->steps = n;
  res->dt = dt;
  /* the force vanished between the last two steps, where alpha crossed alpha_res: interpolate
   * the separation time linearly instead of rounding it up to a whole step */
  double frac = alpha_prev > alpha ? (alpha_prev - hn->alpha_res) / (alpha_prev - alpha) : 1.0;
  if (!(frac >= 0.0 && frac <= 1.0))
    frac = 1.0;
  res->t_contact = (n - 1 + frac) * dt;
  if (!isfinite(res->e_vel) || !isfinite(res->e_energy))
    return GC_ENAN;
  /* a passive contact cannot return more than it received (GC_E_TOL: the integration error) */
  if (res->e_vel > 1.0 + GC_E_TOL || res->e_energy > 1.0 + GC_E_TOL)
    return GC_EPHYS;
  return GC_SUCCESS;
}
