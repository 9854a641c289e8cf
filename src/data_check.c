/* data_check.c - the sanity layer of measured data against the card (see data_check.h). */
#include "data_check.h"

#include <math.h>
#include <stdio.h>

/* Points (alpha, P) of one file: alpha [m] single-side, read from column col_x named name_x
 * whose values are scale * alpha (2 for the platen approach); loading: a file without a t
 * column, one loading curve. */
typedef struct {
  const char *path, *name_x;
  size_t n;
  const double *alpha, *P;
  const size_t *line;
  int col_x, col_P;
  double scale;
  int loading;
} xy_view;

static int check_xy(const xy_view *v, double R, char *msg, size_t n)
{
  double amax = 0, Pmax = 0;
  for (size_t i = 0; i < v->n; i++) {
    amax = fmax(amax, v->alpha[i]);
    Pmax = fmax(Pmax, v->P[i]);
  }
  for (size_t i = 0; i < v->n && R > 0; i++)
    if (v->alpha[i] > GC_DATA_ALPHA_R_MAX * R) {
      snprintf(msg, n,
               "%s:%zu:%d: %s = %g m gives alpha/R = %.3g (R = %g m from the card), "
               "beyond %g where the contact models hold: likely mm under [m] (write '%s [mm]') "
               "or the columns swapped",
               v->path, v->line[i], v->col_x, v->name_x, v->scale * v->alpha[i], v->alpha[i] / R, R,
               GC_DATA_ALPHA_R_MAX, v->name_x);
      return GC_EFORMAT;
    }
  if (!v->loading)
    return GC_SUCCESS;
  size_t ia = 0, iP = 0; /* rows of the largest alpha and P so far */
  for (size_t i = 1; i < v->n; i++) {
    if (v->alpha[i] < v->alpha[ia] - GC_DATA_ALPHA_FALL * amax) {
      snprintf(msg, n,
               "%s:%zu:%d: %s falls from %g m (line %zu) to %g m: a file without a t "
               "column is one loading curve; a load-unload curve read as compression points? "
               "(give it a t [s] column to read it as a load path) or several tests in one "
               "file? (one file each)",
               v->path, v->line[i], v->col_x, v->name_x, v->scale * v->alpha[ia], v->line[ia],
               v->scale * v->alpha[i]);
      return GC_EFORMAT;
    }
    if (v->P[i] < v->P[iP] - GC_DATA_P_FALL * Pmax) {
      snprintf(msg, n,
               "%s:%zu:%d: P falls from %g N (line %zu) to %g N while %s grows: the "
               "force of a compression test increases with the approach; columns swapped, an "
               "unloading without its t column, or the particle broken? (keep the rows before "
               "the failure)",
               v->path, v->line[i], v->col_P, v->P[iP], v->line[iP], v->P[i], v->name_x);
      return GC_EFORMAT;
    }
    if (v->alpha[i] >= v->alpha[ia])
      ia = i;
    if (v->P[i] >= v->P[iP])
      iP = i;
  }
  return GC_SUCCESS;
}

int gc_data_check(const gc_fit_data *d, double R, char *msg, size_t n)
{
  if (d->n_comp) {
    xy_view v = { d->comp_path,
                  d->comp_approach ? "approach" : "alpha",
                  d->n_comp,
                  d->alpha,
                  d->P,
                  d->comp_line,
                  d->comp_col_x,
                  d->comp_col_P,
                  d->comp_approach ? 2.0 : 1.0,
                  1 };
    int st = check_xy(&v, R, msg, n);
    if (st)
      return st;
  }
  for (size_t i = 0; i < d->n_drop; i++) {
    if (!(d->v_in[i] > GC_DATA_V_IN_MAX))
      continue;
    if (d->drop_col_v > 0)
      snprintf(msg, n,
               "%s:%zu:%d: v_in = %g m/s beyond %g m/s (a drop from %.3g m): likely "
               "mm/s under [m/s] (write 'v_in [mm/s]')",
               d->drop_path, d->drop_line[i], d->drop_col_v, d->v_in[i], GC_DATA_V_IN_MAX,
               GC_DATA_V_IN_MAX * GC_DATA_V_IN_MAX / (2 * 9.80665));
    else
      snprintf(msg, n,
               "%s:%zu:%d: H = %g m gives v_in = sqrt(2 g H) = %.3g m/s, beyond %g m/s "
               "(a drop from %.3g m): likely mm under [m] (write 'H [mm]')",
               d->drop_path, d->drop_line[i], d->drop_col_H, d->H[i], d->v_in[i], GC_DATA_V_IN_MAX,
               GC_DATA_V_IN_MAX * GC_DATA_V_IN_MAX / (2 * 9.80665));
    return GC_EFORMAT;
  }
  return GC_SUCCESS;
}

int gc_curve_check(const gc_curve *c, double R, char *msg, size_t n)
{
  xy_view v = { c->path, "alpha",      c->n,     c->alpha, c->P,
                c->line, c->col_alpha, c->col_P, 1.0,      c->col_t == 0 };
  return check_xy(&v, R, msg, n);
}
