/* gc_internal.h - helpers shared between model files; not part of the public interface. */
#ifndef GC_INTERNAL_H
#define GC_INTERNAL_H

#include "gc_model.h"

/* Hertz force, contact radius, stiffness and K_T0 = 8 a G* (eq. 3.6-3.7, 3.25) at overlap
 * alpha [m]; used by every Hertz-based normal model. */
void gc_hertz_fill(const gc_pair *pair, double alpha, gc_normal *out);

/* Incipient-yield constants of a pair (pair->P_Y, p_y, A_Y, alpha_Y): from p->P_Y when it is
 * given (> 0), else from the yield stresses (eq. 6.19-6.21).  Rejects a pair with neither. */
int gc_yield_setup(gc_pair *pair, char *msg, size_t msglen);

/* Record a force in the per-contact history of a normal model (largest force and its
 * displacement), and the common contact bookkeeping. */
void gc_state_record_normal(gc_state *s, double alpha, double P);

#endif
