/* timestep.h - the contact duration of a pair and the time-step rule shared by the simulators
 * of the command line (drop, impact, chute).
 *
 * Rule (stated in granucal-drop(1), granucal-impact(1), granucal-chute(5)): with t_c the
 * elastic contact duration of the stiffest pair at the impact speed (eq. 3.22, or the half
 * period pi sqrt(m/k_n) of the linear-spring models),
 *   dt > t_c / GC_DT_REFUSE_NTCOL (10)  is refused before any work,
 *   dt > t_c / GC_DT_WARN_NTCOL (20)    runs with a warning,
 * Why these: leap-frog on the Hertz impact of the seed's aluminium sphere (v_in = 0.1 m/s)
 * gives e = 1.0233 at t_c/4, 1.0010 at t_c/10 and 1.00012 at t_c/20 for a model that must
 * give e = 1 exactly; the elasto-plastic e is off by 3 % at t_c/4, 0.5 % at t_c/10 and 0.1 %
 * at t_c/20 against dt = t_c/840.  t_c/20 is the coarsest step the seed validated (sec. 8.4.1,
 * fig. 8.8-8.10, ntcol = 20). */
#ifndef GC_TIMESTEP_H
#define GC_TIMESTEP_H

#include <stddef.h>

#include "gc_model.h"

#define GC_DT_REFUSE_NTCOL 10
#define GC_DT_WARN_NTCOL 20
/* An impact that returns more than (1 + GC_E_TOL) of its incoming speed created energy: at
 * dt <= t_c/10 the integration error of an elastic impact is 1.0e-3 (above). */
#define GC_E_TOL 5e-3

/* The contact duration of the law's normal sub-model (gc_law_contact_time, which states eq.
 * 3.22 or the linear half period) for reduced mass m_eff [kg] at approach speed v [m/s], with
 * a message naming what is missing when there is none. */
int gc_law_contact_time_msg(const gc_law *law, double m_eff, double v, double *tc, char *msg,
                            size_t msglen);

/* The most steps a run may take.  drop, impact, contact and chute refuse before any work a run
 * whose step count (span / dt) is beyond it: 10^8 leap-frog steps of one contact take about
 * 10 s (the simulators' own safety stop, max_steps, is the same 10^8), and the bundled chute
 * cases take at most 1.4e7 (soybean.chute: 7 s at dt = 5e-7 s). */
#define GC_STEPS_MAX 1e8
/* The cost of one step of a single contact (drop, impact, contact), for the time estimate:
 * 10^8 steps of the soybean drop take 5-27 s on the machines measured. */
#define GC_SEC_PER_CONTACT_STEP 1e-7

/* GC_EINVAL with msg "dt = X s over WHAT = SPAN s is N steps, above the limit of 1e8 steps
 * (about T at an estimated S s per step): give dt >= SPAN/1e8 s (dt <= t_c/10 = DT_MAX s is
 * required)" when span / dt > GC_STEPS_MAX, else GC_SUCCESS; when SPAN/1e8 is above dt_max (the
 * coarsest step the time-step rule allows, t_c/10), the way out is a shorter span instead: "at
 * this dt, WHAT can be at most 1e8 dt s".  sec_per_step (> 0) is the caller's estimate of the
 * cost of one step, for the time estimate. */
int gc_steps_check(double dt, double span, const char *what, double dt_max, double sec_per_step,
                   char *msg, size_t msglen);

/* Before an impact of reduced mass m_eff [kg] at speed v [m/s]: GC_EPHYS with msg when the
 * elastic (Hertz) overlap of that impact, alpha = (15 m v^2 / (16 E* sqrt(R*)))^(2/5), is
 * already beyond the geometric bound gc_law_overlap_limit (an elasto-plastic contact, softer,
 * goes deeper); GC_SUCCESS otherwise and for the linear models.  cause as gc_law_overlap_check. */
int gc_impact_overlap_precheck(const gc_law *law, double m_eff, double v, const char *cause,
                               char *msg, size_t msglen);

enum { GC_DT_OK = 0, GC_DT_WARN = 1, GC_DT_REFUSE = 2 };
/* Classify dt against t_c; msg (if not GC_DT_OK) says "dt = X s is above t_c/N = Y s (t_c =
 * Z s, the contact duration of WHAT)". */
int gc_dt_check(double dt, double tc, const char *what, char *msg, size_t msglen);

#endif
