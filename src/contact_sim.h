/* contact_sim.h - the single-contact simulator: a contact law driven along a load path
 * (displacement- or force-driven in the normal direction, optionally with a tangential
 * displacement or force history), as in the dissertation's MATLAB validations (sec. 5.3, 6.4). */
#ifndef GC_CONTACT_SIM_H
#define GC_CONTACT_SIM_H

#include <stddef.h>

#include "gc_model.h"

enum { GC_DRIVE_ALPHA = 0, GC_DRIVE_P = 1 };                    /* normal input */
enum { GC_DRIVE_NONE = 0, GC_DRIVE_DELTA = 1, GC_DRIVE_Q = 2 }; /* tangential input */

typedef struct {
  size_t n;
  double *t;       /* time [s] */
  double *x;       /* alpha [m] or P [N] */
  double *y;       /* delta [m] or Q [N], NULL if no tangential input */
  int normal;      /* GC_DRIVE_ALPHA or GC_DRIVE_P */
  int tangential;  /* GC_DRIVE_NONE, _DELTA or _Q */
  char notes[512]; /* gc_loadpath_read: units converted, one line each */
} gc_loadpath;

/* Output flags of one step */
enum {
  GC_FLAG_LOADING = 1,  /* L: normal displacement increasing */
  GC_FLAG_PLASTIC = 2,  /* P: the contact has yielded */
  GC_FLAG_SLIDING = 4,  /* S: |Q| = mu P */
  GC_FLAG_NONSIMPLE = 8 /* N: non-simple tangential step (|dQ| < mu |dP|) */
};

typedef struct {
  double t, alpha, P, a_e, a_p, delta, Q, K_T;
  unsigned flags;
} gc_contact_rec;

typedef struct {
  double P_max;     /* largest normal force [N] */
  double alpha_max; /* largest normal displacement [m] */
  double alpha_res; /* residual displacement at the end (0 if elastic) [m] */
  double W_load;    /* work done on the contact while alpha increased [J] */
  double W_unload;  /* work returned while alpha decreased [J] */
  double e_energy;  /* sqrt(W_unload / W_load) (eq. 6.43); 0 if no loading */
  double Q_max;     /* largest |Q| [N] */
  long n_nonsimple; /* non-simple tangential steps */
  long n_sliding;   /* sliding tangential steps */
} gc_contact_summary;

int gc_loadpath_alloc(gc_loadpath *lp, size_t n, int with_tangential);
void gc_loadpath_free(gc_loadpath *lp);
/* Read a load path CSV: columns t (or time) [s], then alpha [m] or P [N], optionally delta [m]
 * or Q [N].  Units in the header are converted by the one units table (units.h: ms, mm, um,
 * kN, ...); a column without a unit and a column of another name are refused (naming it and
 * the known ones), never dropped. */
int gc_loadpath_read(const char *path, gc_loadpath *lp, char *msg, size_t msglen);
/* Built-in paths: P ramps linearly 0 -> P_max -> 0 in n steps (force-driven). */
int gc_loadpath_ramp(gc_loadpath *lp, double P_max, size_t n, char *msg, size_t msglen);
/* Sec. 5.3 experiments: P = P0 + P1 sin(2 pi t), Q = Q1 sin(2 pi t), t in [0, 1], n steps. */
int gc_loadpath_sine(gc_loadpath *lp, double P0, double P1, double Q1, size_t n, char *msg,
                     size_t msglen);

/* Find the normal displacement giving force P_target from the current state (trial steps on a
 * copy, then commit).  dt [s] gives the rate for rate-dependent models.  *alpha_out is NaN
 * after an error. */
int gc_normal_solve_force(const gc_law *law, double *hist, double P_target, double dt,
                          gc_normal *out, double *alpha_out);

/* Run the law along the path; recs (n entries) may be NULL.  GC_EPHYS (msg: the time, the
 * overlap, alpha/R*) at the first step whose overlap is beyond gc_law_overlap_limit. */
int gc_contact_run(const gc_law *law, const gc_loadpath *lp, gc_contact_rec *recs,
                   gc_contact_summary *sum, char *msg, size_t msglen);

/* Letters for the flags column: L P S N (or '-'). buf needs 5 bytes. */
void gc_flags_string(unsigned flags, char buf[5]);

#endif
