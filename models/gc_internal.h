/* gc_internal.h - helpers shared between model files; not part of the public interface. */
#ifndef GC_INTERNAL_H
#define GC_INTERNAL_H

#include "gc_model.h"

/* Hertz force, contact radius, stiffness and K_T0 = 8 a G* (eq. 3.6-3.7, 3.25; see gc_k_t0)
 * at overlap alpha [m]; used by every Hertz-based normal model. */
void gc_hertz_fill(const gc_pair *pair, double alpha, gc_normal *out);

/* Initial tangential stiffness of the Hertz-type normal models for contact radius a and
 * modulus E_t (E* elastic, (E*)_ep elasto-plastic, eq. 8.3/8.6): 8 a G* E_t / E* (eq. 3.25,
 * 8.5), or 2 kt_ratio a E_t when the parameter kt_ratio > 0 overrides the ratio. */
double gc_k_t0(const gc_pair *pair, double a, double E_t);

/* Incipient-yield constants of a pair (pair->P_Y, p_y, A_Y, alpha_Y): from p->P_Y when it is
 * given (> 0), else from the yield stresses (eq. 6.19-6.21).  Rejects a pair with neither. */
int gc_yield_setup(gc_pair *pair, char *msg, size_t msglen);

/* Record a force in the per-contact history of a normal model (largest force and its
 * displacement), and the common contact bookkeeping. */
void gc_state_record_normal(gc_state *s, double alpha, double P);

#endif
