/* compare.h - a contact model against a reference force-displacement curve (an FEA curve or a
 * cyclic compression test): the reference's displacement (or force) path is replayed through
 * the single-contact driver (contact_sim.h) and the two curves are compared as in the
 * dissertation's sec. 6.4 (fig. 6.14-6.16): maximum force, residual displacement, dissipated
 * energy, energy restitution e = sqrt(W_unload / W_load) (eq. 6.43) and the force error on the
 * loading and on the unloading branches. */
#ifndef GC_COMPARE_H
#define GC_COMPARE_H

#include <stddef.h>

#include "contact_sim.h"
#include "gc_model.h"

/* A reference curve: columns alpha [m] and P [N], optionally t [s] (else the row index).
 * Columns that granucal writes and a curve does not use are ignored by name: a [m] (an FEA
 * curve's contact radius) and the other columns of `granucal contact`'s output (a_e, a_p,
 * delta, Q, K_T and the letter-valued flags), so that its output reads as a curve. */
typedef struct gc_curve_s {
  size_t n;
  double *t, *alpha, *P;
  size_t *line;                /* line of each row in its file */
  int col_t, col_alpha, col_P; /* 1-based columns of t, alpha, P in the file; col_t 0: none */
  char path[512];
  char notes[512]; /* units converted, one line each */
} gc_curve;

/* The columns a curve reads and those it ignores, for messages ("t, time, alpha, P; ignored:
 * a, ..."). */
extern const char gc_curve_columns[];

/* Read a curve; errors name file:line:column.  Units in the header are converted by the one
 * units table (units.h: mm, um, kN, ms, ...); a column without a unit, an unknown column,
 * negative alpha or P, non-increasing t and non-finite values are refused. */
int gc_curve_read(const char *path, gc_curve *c, char *msg, size_t msglen);
/* Allocate an empty curve of n rows (for tests and synthetic data). */
int gc_curve_alloc(gc_curve *c, size_t n);
void gc_curve_free(gc_curve *c);

typedef struct {
  double P_max;     /* largest force [N] */
  double alpha_max; /* largest displacement [m] */
  double alpha_res; /* residual displacement after the last unloading [m]; NAN if unknown */
  double W_load;    /* work done while alpha increases [J] (trapezoidal rule) */
  double W_unload;  /* work returned while alpha decreases [J] */
  double W_diss;    /* W_load - W_unload [J] */
  double e;         /* sqrt(W_unload / W_load) (eq. 6.43); NAN without loading */
  /* errors against the reference (NAN for the reference itself): force [N] when the path is
   * displacement-driven, displacement [m] when force-driven */
  double rms_load, max_load, rms_unload, max_unload;
  size_t n_load, n_unload;
} gc_curve_stats;

/* Energies, extremes and restitution of a curve (alpha, P).  The residual displacement is the
 * last alpha when the curve ends unloaded (last P <= 1e-3 P_max), else NAN. */
void gc_curve_stats_of(const double *alpha, const double *P, size_t n, gc_curve_stats *s);

enum { GC_COMPARE_ALPHA = 0, GC_COMPARE_FORCE = 1 };

/* Replay the reference through law: drive GC_COMPARE_ALPHA (alpha path in, P out) or
 * GC_COMPARE_FORCE (P path in, alpha out).  alpha_m, P_m (ref->n each) receive the model's
 * curve; st its statistics and the errors against the reference on the reference's loading
 * (alpha increasing) and unloading (alpha decreasing) steps.  The model's alpha_res is the
 * driver's (the model's own residual displacement). */
int gc_compare_run(const gc_law *law, const gc_curve *ref, int drive, double *alpha_m, double *P_m,
                   gc_curve_stats *st, char *msg, size_t msglen);

#endif
