/* tangential_drive.h - force-driven tangential stepping for the single-contact simulator.
 *
 * The tangential models are displacement driven (Q_{n+1} = Q_n + K_T dδ, eq. 3.23 / 4.6).  To
 * follow a prescribed force history Q(t), as in the MATLAB experiments of sec. 5.3 and the
 * force-driven MD curves of ch. 5 and 8, each step finds the increment dδ that produces the
 * target force: trial steps on a copy of the contact state inside a bracket, refined by GSL's
 * Brent solver, then one committed step. */
#ifndef GC_TANGENTIAL_DRIVE_H
#define GC_TANGENTIAL_DRIVE_H

#include "gc_model.h"

/* Take the tangential step of law (which must have a tangential model) from the state s that
 * ends at the force Q_target [N], given this step's normal result n (its normal step already
 * taken), time step dt [s] (> 0 gives the rate d_delta/dt to rate-dependent models, 0 none) and
 * rolling distance ds_roll [m].  On success s is advanced, *out holds the step's result and
 * *d_delta_out (if not NULL) the increment found [m].
 * Returns GC_EINVAL if |Q_target| > mu P (it cannot be reached: the models keep |Q| <= mu P),
 * or if law has no tangential model; GC_ENAN for a non-finite target; GC_ENOCONV if no
 * increment reaches the target; otherwise the status of the model.  If the model's Q(dδ) jumps
 * over the target (the transitions of a varying P differ, by O((mu dP)^2), on the two sides of
 * a reversal) the step ends at the side of the jump closest to the target. */
int gc_tangential_solve_force(const gc_law *law, double *s, const gc_normal *n, double Q_target,
                              double dt, double ds_roll, gc_tangential *out, double *d_delta_out);

#endif
