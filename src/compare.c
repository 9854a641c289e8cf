/* compare.c - a model against a reference curve (see compare.h). */
#include "compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gc_io.h"
#include "units.h"

int gc_curve_alloc(gc_curve *c, size_t n)
{
  memset(c, 0, sizeof *c);
  size_t m = n ? n : 1;
  c->t = calloc(m, sizeof *c->t);
  c->alpha = calloc(m, sizeof *c->alpha);
  c->P = calloc(m, sizeof *c->P);
  c->line = calloc(m, sizeof *c->line);
  if (!c->t || !c->alpha || !c->P || !c->line) {
    gc_curve_free(c);
    return GC_ENOMEM;
  }
  c->n = n;
  return GC_SUCCESS;
}

void gc_curve_free(gc_curve *c)
{
  free(c->t);
  free(c->alpha);
  free(c->P);
  free(c->line);
  memset(c, 0, sizeof *c);
}

/* used: their SI unit; ignored: NULL (granucal contact's other outputs, an FEA curve's a) */
static const struct {
  const char *name, *si;
} curve_cols[] = { { "t", "s" },  { "time", "s" }, { "alpha", "m" }, { "P", "N" },
                   { "a", NULL }, { "a_e", NULL }, { "a_p", NULL },  { "delta", NULL },
                   { "Q", NULL }, { "K_T", NULL }, { "flags", NULL } };

const char gc_curve_columns[] = "t [s] (or time), alpha [m], P [N]; ignored: a, a_e, a_p, "
                                "delta, Q, K_T, flags";

static const char curve_header[] = "t [s],alpha [m],P [N]";

int gc_curve_read(const char *path, gc_curve *c, char *msg, size_t n)
{
  gc_table t;
  memset(c, 0, sizeof *c);
  int st = gc_table_read_lenient(path, &t, msg, n);
  if (st)
    return st;
  double f[sizeof curve_cols / sizeof curve_cols[0]];
  for (size_t j = 0; j < sizeof f / sizeof f[0]; j++)
    f[j] = 1.0;
  char notes[sizeof c->notes] = "";
  for (size_t k = 0; k < t.ncols && !st; k++) {
    size_t j;
    for (j = 0; j < sizeof curve_cols / sizeof curve_cols[0]; j++)
      if (strcmp(t.names[k], curve_cols[j].name) == 0)
        break;
    if (j == sizeof curve_cols / sizeof curve_cols[0]) {
      snprintf(msg, n, "%s:%zu:%zu: unknown column '%s' (a curve has %s)", path, t.header_line,
               k + 1, t.names[k], gc_curve_columns);
      st = GC_EFORMAT;
    } else if (curve_cols[j].si) {
      double fk = 1;
      st = gc_table_check_col(&t, path, (int)k, msg, n);
      if (!st)
        st = gc_table_unit(&t, path, (int)k, curve_cols[j].si, curve_header, &fk, msg, n);
      if (!st && fk != 1.0) {
        size_t l = strlen(notes);
        snprintf(notes + l, sizeof notes - l, "%s: column '%s' in [%s] converted to [%s] (x %g)\n",
                 path, t.names[k], t.units[k], curve_cols[j].si, fk);
      }
      f[j] = fk;
    }
  }
  int ct = gc_table_col(&t, "t");
  if (ct < 0)
    ct = gc_table_col(&t, "time");
  int ca = gc_table_col(&t, "alpha"), cP = gc_table_col(&t, "P");
  if (!st && (ca < 0 || cP < 0)) {
    snprintf(msg, n, "%s:%zu:1: a curve needs the columns 'alpha' [m] and 'P' [N]", path,
             t.header_line);
    st = GC_EFORMAT;
  }
  if (!st && t.nrows < 2) {
    snprintf(msg, n, "%s: a curve needs at least two rows (it has %zu)", path, t.nrows);
    st = GC_EFORMAT;
  }
  if (!st && gc_curve_alloc(c, t.nrows)) {
    snprintf(msg, n, "%s: out of memory", path);
    st = GC_ENOMEM;
  }
  /* the factors by role: t and time share a row of curve_cols, so take the column's own */
  double ft = ct >= 0 ? f[strcmp(t.names[ct], "t") == 0 ? 0 : 1] : 1.0, fa = f[2], fP = f[3];
  for (size_t i = 0; i < t.nrows && !st; i++) {
    double a = fa * gc_table_get(&t, i, (size_t)ca), P = fP * gc_table_get(&t, i, (size_t)cP);
    double tt = ct >= 0 ? ft * gc_table_get(&t, i, (size_t)ct) : (double)i;
    if (!isfinite(a) || a < 0) {
      snprintf(msg, n, "%s:%zu:%d: alpha = %g m out of range [0, inf)", path, t.line[i], ca + 1, a);
      st = GC_EFORMAT;
    } else if (!isfinite(P) || P < 0) {
      snprintf(msg, n, "%s:%zu:%d: P = %g N out of range [0, inf)", path, t.line[i], cP + 1, P);
      st = GC_EFORMAT;
    } else if (i > 0 && !(tt > c->t[i - 1])) {
      snprintf(msg, n, "%s:%zu:%d: t = %g s does not increase (previous row %g s)", path, t.line[i],
               ct + 1, tt, c->t[i - 1]);
      st = GC_EFORMAT;
    } else {
      c->t[i] = tt;
      c->alpha[i] = a;
      c->P[i] = P;
      c->line[i] = t.line[i];
    }
  }
  gc_table_free(&t);
  if (st) {
    gc_curve_free(c);
    return st;
  }
  snprintf(c->path, sizeof c->path, "%s", path);
  snprintf(c->notes, sizeof c->notes, "%s", notes);
  c->col_t = ct + 1;
  c->col_alpha = ca + 1;
  c->col_P = cP + 1;
  return GC_SUCCESS;
}

void gc_curve_stats_of(const double *alpha, const double *P, size_t n, gc_curve_stats *s)
{
  memset(s, 0, sizeof *s);
  s->rms_load = s->max_load = s->rms_unload = s->max_unload = NAN;
  for (size_t i = 0; i < n; i++) {
    s->P_max = fmax(s->P_max, P[i]);
    s->alpha_max = fmax(s->alpha_max, alpha[i]);
    if (i == 0)
      continue;
    /* eq. 6.43: the works as trapezoidal sums along the path */
    double dW = 0.5 * (P[i] + P[i - 1]) * (alpha[i] - alpha[i - 1]);
    if (alpha[i] > alpha[i - 1])
      s->W_load += dW;
    else
      s->W_unload -= dW;
  }
  s->W_diss = s->W_load - s->W_unload;
  s->e = s->W_load > 0 ? sqrt(fmax(s->W_unload, 0.0) / s->W_load) : NAN;
  s->alpha_res = n > 0 && P[n - 1] <= 1e-3 * s->P_max ? alpha[n - 1] : NAN;
}

int gc_compare_run(const gc_law *law, const gc_curve *ref, int drive, double *alpha_m, double *P_m,
                   gc_curve_stats *st, char *msg, size_t n)
{
  gc_loadpath lp;
  memset(&lp, 0, sizeof lp);
  gc_contact_rec *recs = calloc(ref->n ? ref->n : 1, sizeof *recs);
  /* the driver wants increasing time: the reference's own t */
  lp.n = ref->n;
  lp.t = ref->t;
  lp.x = drive == GC_COMPARE_FORCE ? ref->P : ref->alpha;
  lp.y = NULL;
  lp.normal = drive == GC_COMPARE_FORCE ? GC_DRIVE_P : GC_DRIVE_ALPHA;
  lp.tangential = GC_DRIVE_NONE;
  if (!recs) {
    snprintf(msg, n, "out of memory");
    return GC_ENOMEM;
  }
  gc_contact_summary sum;
  int rc = gc_contact_run(law, &lp, recs, &sum, msg, n);
  if (rc) {
    free(recs);
    return rc;
  }
  for (size_t i = 0; i < ref->n; i++) {
    alpha_m[i] = recs[i].alpha;
    P_m[i] = recs[i].P;
    if (!isfinite(alpha_m[i]) || !isfinite(P_m[i])) {
      snprintf(msg, n, "model '%s' gave a non-finite result at row %zu", law->name_normal, i);
      free(recs);
      return GC_ENAN;
    }
  }
  free(recs);
  gc_curve_stats_of(alpha_m, P_m, ref->n, st);
  st->alpha_res = sum.alpha_res;
  /* errors on the reference's loading / unloading steps */
  double s2l = 0, s2u = 0, ml = 0, mu = 0;
  size_t nl = 0, nu = 0;
  for (size_t i = 1; i < ref->n; i++) {
    double d = drive == GC_COMPARE_FORCE ? alpha_m[i] - ref->alpha[i] : P_m[i] - ref->P[i];
    if (ref->alpha[i] > ref->alpha[i - 1]) {
      s2l += d * d;
      ml = fmax(ml, fabs(d));
      nl++;
    } else if (ref->alpha[i] < ref->alpha[i - 1]) {
      s2u += d * d;
      mu = fmax(mu, fabs(d));
      nu++;
    }
  }
  st->n_load = nl;
  st->n_unload = nu;
  st->rms_load = nl ? sqrt(s2l / (double)nl) : NAN;
  st->max_load = nl ? ml : NAN;
  st->rms_unload = nu ? sqrt(s2u / (double)nu) : NAN;
  st->max_unload = nu ? mu : NAN;
  return GC_SUCCESS;
}
