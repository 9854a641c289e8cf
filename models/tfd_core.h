/* tfd_core.h - tangential force-displacement (TFD) bookkeeping shared by the Mindlin-Deresiewicz
 * family of models: Mindlin-Deresiewicz (md), Walton-Braun (wb), the Vu-Quoc-Zhang improved TFD
 * (vqz, ch. 5) and the Vu-Quoc-Zhang elasto-plastic TFD (ep, ch. 8, Algorithm 8.1).
 *
 * All of them are incremental, displacement driven models
 *     Q_{n+1} = Q_n + K_T dδ                                               (eq. 3.23, 4.6)
 * that differ in the constant-P stiffness K_T (eq. 3.24 or 4.7), in whether the transitions of
 * Mindlin and Deresiewicz [1953] for a varying normal force are applied (sec. 3.2.2, eq.
 * 3.26-3.64) and in whether the rolling correction of sec. 5.2 is applied.  The initial
 * stiffness K_T0 always comes from the normal model (gc_normal.k_t0): eq. 3.25, 4.8 or 8.5.
 *
 * Units: forces in N, displacements in m, stiffnesses in N/m.  Reference: X. Zhang (1998),
 * dissertation ("the seed"), and ../shared/MODELS.md; equation numbers are the seed's. */
#ifndef GC_TFD_CORE_H
#define GC_TFD_CORE_H

#include <stddef.h>

#include "gc_model.h"

/* Constant-P stiffness law (the "P constant" part of every step). */
typedef enum {
  GC_TFD_LAW_MD = 0, /* Mindlin-Deresiewicz, eq. 3.24 (four branches, 2 mu P after a reversal) */
  GC_TFD_LAW_WB = 1  /* Walton-Braun, eq. 4.7 (two branches, mu P -/+ Q* after a reversal) */
} gc_tfd_law;

/* What a model does on top of the constant-P law. */
typedef struct {
  gc_tfd_law law;
  int transitions; /* 1: Vu-Quoc-Zhang varying-P transitions (sec. 3.2.2, ch. 5, Alg. 8.1) */
  int rolling;     /* 1: rolling correction d_delta_R = -(2 ds_R / (pi a)) delta (eq. 5.3-5.5) */
} gc_tfd_config;

/* Constant-P tangential stiffness [N/m] for a step in direction dir (+1: delta increasing,
 * -1: decreasing) from the force Q [N] with the turning point Q_star [N] (0: virgin loading),
 * friction limit muP = mu P [N] and initial stiffness k_t0 [N/m]:
 *   GC_TFD_LAW_WB (eq. 4.7): K_T0 (1 - (Q - Q*)/(mu P - Q*))^(1/3) for dir = +1,
 *                            K_T0 (1 - (Q* - Q)/(mu P + Q*))^(1/3) for dir = -1;
 *   GC_TFD_LAW_MD (eq. 3.24): K_T0 (1 -/+ (Q - Q*)/(2 mu P))^(1/3) while |Q| < |Q*|, else the
 *                            virgin curve K_T0 (1 -/+ Q/(mu P))^(1/3).
 * The base of the cube root is clamped to [0, 1] (K_T0 is the largest stiffness the theory
 * allows; a base slightly outside through rounding must not give NaN or K_T > K_T0).
 * Returns 0 when muP <= 0 or k_t0 <= 0. */
double gc_tfd_stiffness(gc_tfd_law law, double k_t0, double muP, double Q, double Q_star, int dir);

/* Rolling correction of sec. 5.2 (eq. 5.3-5.5): the change of the tangential displacement
 * d_delta_R = -(2 ds_roll / (pi a)) delta [m] caused by rolling the distance ds_roll [m]
 * (ds_R = min(R w dt, v dt), computed by the caller; a value <= 0 means no rolling) over a
 * contact of radius a [m].  The factor 2 ds_roll/(pi a) is capped at 1: rolling cannot release
 * more traction than the contact carries.  Returns 0 when a <= 0. */
double gc_tfd_rolling_correction(double delta, double ds_roll, double a);

/* One tangential step of the MD / WB / VQZ family.
 *   cfg     law and options
 *   mu      friction coefficient [-]
 *   s       per-contact history: uses and updates delta, Q, Q_star, q_dir, P_t (normal force at
 *           the previous tangential step), sliding, n_steps_t, n_nonsimple
 *   n       result of this step's normal step: P [N] (> 0 in contact), a [m] (rolling), k_t0
 *   d_delta increment of the tangential displacement [m]
 *   ds_roll rolling distance of this step [m] (used when cfg->rolling)
 *   out     Q, K_T (stiffness of the last part of the step; 0 when sliding), delta,
 *           nonsimple (|dQ| < mu |dP|, eq. 3.30 / 3.45, or a case-4 step that moved Q by less
 *           than mu |dP|), sliding (|Q| = mu P)
 * P <= 0 is a separation: Q, Q*, delta and the direction are reset and Q = 0 is returned.  The
 * first step of a contact (P_t == 0) is a constant-P step.  |Q| <= mu P always holds on
 * return.  Returns GC_SUCCESS, GC_EINVAL (NULL pointer, negative P, k_t0 or mu) or GC_ENAN. */
int gc_tfd_step(const gc_tfd_config *cfg, double mu, gc_hist_tangential *s, const gc_normal *n,
                double d_delta, double ds_roll, gc_tangential *out);

/* Parameter checks shared by the tangential models; on failure msg names the parameter and its
 * allowed range and GC_EINVAL is returned. */
int gc_tfd_check_mu(const gc_params *p, char *msg, size_t msglen);
int gc_tfd_check_transitions(const gc_params *p, char *msg, size_t msglen);

#endif
