/* impact_sim.h - oblique impact of a spinning sphere on a rigid frictional plane (sec. 5.5,
 * 8.4.2, appendix C): translation normal and tangential to the plane and rotation about the
 * axis normal to the plane of motion, leap-frog integration, any normal + tangential law. */
#ifndef GC_IMPACT_SIM_H
#define GC_IMPACT_SIM_H

#include "gc_model.h"

typedef struct {
  double mass;     /* [kg] */
  double inertia;  /* moment of inertia about the centre [kg m^2]; 0: solid sphere 2/5 m R^2 */
  double radius;   /* [m] */
  double dt;       /* time step [s]; 0: from ntcol */
  int ntcol;       /* steps per Hertz contact duration when dt = 0 */
  int rolling;     /* 1: apply the rolling correction of sec. 5.2 */
  long max_steps;  /* 0: 10^8 */
} gc_impact_cfg;

typedef struct {
  double v_n, v_t, omega;     /* incoming: normal speed towards the plane [m/s], tangential
                               * velocity of the centre [m/s], spin [rad/s] */
  double v_st;                /* incoming slip velocity of the contact point v_t + omega R */
  double v_n_out, v_t_out, omega_out, v_st_out; /* after separation (v_n_out > 0: away) */
  double e;                   /* v_n_out / v_n (eq. 8.8) */
  double beta;                /* -v_st_out / v_st (eq. 8.9) */
  double P_max, Q_max;        /* [N] */
  double t_contact;           /* [s] */
  long n_nonsimple, n_sliding;
} gc_impact_result;

void gc_impact_cfg_default(gc_impact_cfg *cfg);
int gc_impact_run(const gc_law *law, const gc_impact_cfg *cfg, double v_n, double v_t,
                  double omega, gc_impact_result *res);

/* Rigid-body predictions of appendix C for a homogeneous sphere (k^2 = 2/5):
 * sliding collision (eq. C.25): beta = -1 + mu (1 + e) (1 + 1/k^2) v_n / v_st;
 * a collision is sticky when that value reaches the sticky bound (eq. C.30). */
double gc_beta_sliding(double mu, double e, double v_n, double v_st);

#endif
