/* drop_sim.h - normal impact of one sphere on a rigid plane (the drop test), integrated with
 * the leap-frog scheme of sec. 6.5.1 (eq. 6.38-6.41) or velocity Verlet, with any contact law.
 * No allocation: gc_drop_run can be called in a calibration loop. */
#ifndef GC_DROP_SIM_H
#define GC_DROP_SIM_H

#include <stddef.h>

#include "gc_model.h"

enum { GC_INTEGRATOR_LEAPFROG = 0, GC_INTEGRATOR_VERLET = 1 };

typedef struct {
  double mass;    /* sphere mass [kg] */
  double g;       /* gravity along the approach [m/s^2]; 0 for none (sec. 6.5) */
  double dt;      /* time step [s]; 0: from ntcol */
  int ntcol;      /* steps per elastic collision duration (sec. 8.4.1) when dt = 0 */
  int integrator; /* GC_INTEGRATOR_* */
  long max_steps; /* safety limit; 0: 10^8 */
} gc_drop_cfg;

typedef struct {
  double v_in;      /* approach speed at first contact [m/s] */
  double v_out;     /* rebound speed at separation [m/s] */
  double e_vel;     /* v_out / v_in (eq. 6.42) */
  double e_energy;  /* sqrt(W_unload / W_load) (eq. 6.43) */
  double P_max;     /* [N] */
  double alpha_max; /* [m] */
  double alpha_res; /* residual displacement at separation [m] */
  double t_contact; /* contact duration [s] */
  double dt;        /* time step used [s] */
  long steps;       /* steps in contact */
} gc_drop_result;

/* One history sample; the optional callback receives every step (time from first contact). */
typedef void (*gc_drop_observer)(void *ctx, double t, double alpha, double P, double v);

void gc_drop_cfg_default(gc_drop_cfg *cfg);

/* Simulate one drop with impact speed v_in > 0.  obs may be NULL.  GC_EPHYS when the result
 * breaks physics: the overlap passed gc_law_overlap_limit (res->alpha_max and res->t_contact
 * say where and when; the run stops there) or the sphere left faster than it came, e_vel or
 * e_energy > 1 + GC_E_TOL (res complete). */
int gc_drop_run(const gc_law *law, const gc_drop_cfg *cfg, double v_in, gc_drop_result *res,
                gc_drop_observer obs, void *obs_ctx);
/* Impact speed after a free fall from height H [m]: sqrt(2 g H). */
double gc_drop_speed_from_height(double H, double g);

#endif
