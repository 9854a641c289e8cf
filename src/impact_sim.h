/* impact_sim.h - oblique impact of a spinning sphere on a frictional plane (sec. 5.5, 8.4.2,
 * appendix C) or on a second, free sphere (the two-sphere tests of Chung & Ooi 2011): translation
 * normal and tangential to the contact plane and rotation about the axis normal to the plane of
 * motion, leap-frog integration, any normal + tangential law.  The plane is rigid or deformable
 * (E2, nu2 of the law), it does not move. */
#ifndef GC_IMPACT_SIM_H
#define GC_IMPACT_SIM_H

#include "gc_model.h"

typedef struct {
  double mass;    /* [kg] */
  double inertia; /* moment of inertia about the centre [kg m^2]; 0: solid sphere 2/5 m R^2 */
  double radius;  /* [m] */
  double dt;      /* time step [s]; 0: from ntcol */
  int ntcol;      /* steps per Hertz contact duration when dt = 0 */
  int rolling;    /* 1: apply the rolling correction of sec. 5.2 */
  int mid_point;  /* 0: the contact point is on the undeformed surfaces, levers R and R2 (sec.
                    * 8.4, the default); 1: in the middle of the overlap, levers R - alpha/2
                    * and R2 - alpha/2, as `granucal chute` and the LAMMPS plugin take it */
  long max_steps; /* 0: 10^8 */
  /* body 2: a plane fixed in space when mass2 is 0 or infinite, else a free sphere */
  double mass2;    /* [kg] */
  double inertia2; /* [kg m^2]; 0: solid sphere 2/5 m2 R2^2 */
  double radius2;  /* [m], > 0 when mass2 is finite and > 0 */
} gc_impact_cfg;

typedef struct {
  double v_n, v_t, omega; /* incoming: normal speed towards the plane [m/s], tangential
                               * velocity of the centre [m/s], spin [rad/s] */
  double v_st;            /* incoming slip velocity of the contact point v_t + omega R */
  double v_n_out, v_t_out, omega_out, v_st_out; /* after separation (v_n_out > 0: away) */
  double e;                                     /* v_n_out / v_n (eq. 8.8) */
  double beta;                                  /* -v_st_out / v_st (eq. 8.9) */
  double P_max, Q_max;                          /* [N] */
  double t_contact;                             /* [s] */
  long n_nonsimple, n_sliding;
  /* body 2 after separation (0 for a plane), in the frame where it was at rest before: */
  double omega2; /* its incoming spin [rad/s] */
  double v_n2_out, v_t2_out, omega2_out;
  double alpha_max;     /* largest overlap [m] */
  double dt;            /* time step used [s] */
  double ke_in, ke_out; /* kinetic energy before and after, body 2's frame [J] */
} gc_impact_result;

void gc_impact_cfg_default(gc_impact_cfg *cfg);
/* GC_EPHYS when the result breaks physics: the overlap passed gc_law_overlap_limit (alpha_max
 * and t_contact say where and when; the run stops there), or the bodies left with more kinetic
 * energy than they came with, ke_out > ke_in (1 + GC_E_TOL)^2 (res complete). */
int gc_impact_run(const gc_law *law, const gc_impact_cfg *cfg, double v_n, double v_t, double omega,
                  gc_impact_result *res);
/* The same with a spinning body 2 (spin omega2, counter-clockwise like omega; ignored for a
 * plane).  v_n, v_t are the velocity of sphere 1 relative to body 2's centre; the contact is at
 * distance R1 from sphere 1's centre along n and R2 from sphere 2's, so the incoming slip
 * velocity is v_st = v_t + omega R1 + omega2 R2.  In the result, v_n_out and v_st_out are the
 * relative normal and slip velocities after separation, v_t_out, omega_out sphere 1's,
 * v_n2_out, v_t2_out, omega2_out sphere 2's. */
int gc_impact_run2(const gc_law *law, const gc_impact_cfg *cfg, double v_n, double v_t,
                   double omega, double omega2, gc_impact_result *res);
/* Rigid-body factor of the slip change per unit normal impulse: m* (1/m1 + R1^2/I1 + 1/m2 +
 * R2^2/I2) with m* = m1 m2 / (m1 + m2); 7/2 for any two homogeneous spheres or a sphere and a
 * plane (1 + 1/k^2 of eq. C.25).  0 if cfg is invalid. */
double gc_impact_slip_factor(const gc_impact_cfg *cfg);
/* eq. C.25 with that factor: -1 + mu (1 + e) f v_n / v_st. */
double gc_beta_sliding_f(double f, double mu, double e, double v_n, double v_st);

/* Rigid-body predictions of appendix C for a homogeneous sphere (k^2 = 2/5):
 * sliding collision (eq. C.25): beta = -1 + mu (1 + e) (1 + 1/k^2) v_n / v_st;
 * a collision is sticky when that value reaches the sticky bound (eq. C.30). */
double gc_beta_sliding(double mu, double e, double v_n, double v_st);

#endif
