/* fit.c - calibration data, the parameter vector and the objective of appendix E
 * (eq. E.1-E.7); see fit.h.  The solvers are in fit_solve.c, the identifiability analysis in
 * fit_ident.c, the reports in fit_report.c. */
#include "fit.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "compare.h"
#include "contact_sim.h"
#include "gc_io.h"
#include "timestep.h"
#include "units.h"

#define GC_G 9.80665 /* standard gravity [m/s^2], as `granucal drop` */

/* ---------------------------------------------------------------- the parameter vector */

/* The scene of every test the fit models, a sphere of the card's radius R1 and mass m on a rigid
 * plane: these parameters are given by it, never fitted. */
int gc_fit_scene_param(gc_param_id id)
{
  return id == GC_PAR_R1 || id == GC_PAR_R2 || id == GC_PAR_E2 || id == GC_PAR_NU2 ||
         id == GC_PAR_SY2 || id == GC_PAR_M_EFF;
}

int gc_fit_model_reads(const gc_preset *model, gc_param_id id)
{
  const gc_submodel *nm = gc_preset_part(model, GC_KIND_NORMAL);
  const gc_submodel *dm = gc_preset_part(model, GC_KIND_DAMPING);
  return (nm && gc_submodel_reads(nm, id)) || (dm && gc_submodel_reads(dm, id));
}

/* The normal force of law along a probe path (n_probe steps into P): loading from 1e-7 R to
 * 0.1 R on a geometric grid at alpha_dot = +1 m/s, unloading back to 0 at -1 m/s and reloading
 * to 0.03 R.  Wide enough to pass the yield point of any grain the fit is meant for and to
 * exercise every unloading rule; the rates let a damping act.  NaN after a failed step. */
#define N_PROBE_LOAD 24
#define N_PROBE (2 * N_PROBE_LOAD + 1 + N_PROBE_LOAD / 2)
static void probe_path(const gc_law *law, double R, double P[N_PROBE])
{
  double h[GC_HIST_MAX];
  gc_law_history_init(law, h);
  int ok = 1;
  for (int k = 0; k < N_PROBE; k++) {
    double alpha, rate;
    if (k < N_PROBE_LOAD) {
      alpha = R * 1e-7 * pow(1e6, (double)k / (N_PROBE_LOAD - 1));
      rate = 1.0;
    } else if (k < 2 * N_PROBE_LOAD) {
      alpha = R * 1e-7 * pow(1e6, (double)(2 * N_PROBE_LOAD - 1 - k) / (N_PROBE_LOAD - 1)) *
              (k == 2 * N_PROBE_LOAD - 1 ? 0.0 : 1.0);
      rate = -1.0;
    } else {
      int i = k - 2 * N_PROBE_LOAD;
      alpha = 0.03 * R * (double)i / (N_PROBE_LOAD / 2);
      rate = 1.0;
    }
    gc_normal out;
    ok = ok && gc_law_normal(law, h, alpha, rate, &out) == GC_SUCCESS && isfinite(out.P);
    P[k] = ok ? out.P : NAN;
  }
}

/* 1 if changing parameter id of q by 10 % changes the probe forces of the model (or the law
 * cannot tell: it fails at one of the two values or on part of the path); 0 if the law's normal
 * force ignores it. */
static int changes_force(const gc_preset *model, const gc_params *q, const double P0[N_PROBE],
                         gc_param_id id)
{
  double v = gc_param_get(q, id);
  if (!isfinite(v))
    return 1;
  for (int k = 0; k < N_PROBE; k++)
    if (isnan(P0[k]))
      return 1; /* the law fails on part of the probe: it cannot tell there, keep the parameter */
  const gc_param_def *d = gc_param_def_at(id);
  gc_params q1 = *q;
  /* a parameter at 0 (mu, kt_ratio "derive from nu"): probe with a positive value */
  gc_param_put(&q1, id, v > 0 ? 0.9 * v : isfinite(d->hi) ? 0.5 * d->hi : 1.0);
  gc_law law;
  char msg[256]; /* the message is dropped; 256 so that -O3 sees no truncation */
  if (gc_law_init_preset(&law, model, NULL, &q1, msg, sizeof msg))
    return 1;
  double P1[N_PROBE];
  probe_path(&law, q->R1, P1);
  for (int k = 0; k < N_PROBE; k++) {
    if (isnan(P0[k]) != isnan(P1[k]))
      return 1;
    if (!isnan(P0[k]) && fabs(P1[k] - P0[k]) > 1e-12 * fmax(fabs(P0[k]), 1e-300))
      return 1;
  }
  return 0;
}

/* The value of parameter id at base for the fit: P_Y from sY (eq. 6.19) when only sY is given,
 * sY1 from P_Y (its inverse, eq. E.16) when only P_Y is given. */
static int base_value(const gc_params *base, gc_param_id id, double *v, char *msg, size_t n)
{
  *v = gc_param_get(base, id);
  if (id == GC_PAR_P_Y && !(*v > 0) && base->sY1 > 0) {
    gc_pair pair;
    gc_params b = *base;
    b.P_Y = 0;
    int st = gc_pair_setup(&pair, &b, msg, n);
    if (!st)
      st = gc_yield_force(&pair, v, NULL);
    if (st) {
      if (st != GC_EINVAL || !*msg)
        snprintf(msg, n, "cannot derive P_Y from sY: %s", gc_strerror(st));
      return st;
    }
  } else if (id == GC_PAR_SY1 && !(*v > 0) && base->P_Y > 0) {
    gc_pair pair;
    double AY;
    int st = gc_pair_setup(&pair, base, msg, n);
    if (!st)
      st = gc_yield_coefficient(base->nu1, &AY);
    if (st) {
      if (st != GC_EINVAL || !*msg)
        snprintf(msg, n, "cannot derive sY from P_Y: %s", gc_strerror(st));
      return st;
    }
    *v = gc_yield_pressure_of_force(base->P_Y, pair.R_star, pair.E_star) / AY;
  }
  return GC_SUCCESS;
}

int gc_fit_model_params(const gc_preset *model, const gc_params *base, double mass, int want_sY,
                        gc_param_id ids[GC_FIT_MAXPAR], int *np, gc_param_id *other, int *nother,
                        char *msg, size_t n)
{
  *np = 0;
  if (nother)
    *nother = 0;
  if (!model || !gc_preset_part(model, GC_KIND_NORMAL)) {
    snprintf(msg, n,
             "'%s' has no normal part: granucal fit calibrates a normal model (see "
             "'granucal models')",
             model ? model->name : "?");
    return GC_EINVAL;
  }
  /* P_Y and sY1 are one parameter (eq. 6.19, P_Y > 0 overrides sY): one form only */
  gc_param_id yield_other = want_sY ? GC_PAR_P_Y : GC_PAR_SY1;
  gc_param_id cand[GC_NPAR];
  int nc = 0;
  for (int i = 0; i < GC_NPAR; i++) {
    gc_param_id id = (gc_param_id)i;
    if (!gc_fit_model_reads(model, id))
      continue;
    const gc_param_def *d = gc_param_def_at(id);
    int yield_pair = gc_fit_model_reads(model, GC_PAR_P_Y) && gc_fit_model_reads(model, GC_PAR_SY1);
    if (d->is_int || gc_fit_scene_param(id) || (yield_pair && id == yield_other)) {
      if (other && !gc_fit_scene_param(id) && !(yield_pair && id == yield_other))
        other[(*nother)++] = id;
      continue;
    }
    cand[nc++] = id;
  }
  /* ask the law which of them change its normal force at the initial values */
  gc_params q = *base;
  q.m_eff = mass > 0 ? mass : base->m_eff;
  for (int k = 0; k < nc; k++) {
    double v;
    int st = base_value(base, cand[k], &v, msg, n);
    if (st)
      return st;
    gc_param_put(&q, cand[k], v);
  }
  if (want_sY)
    q.P_Y = 0;
  gc_law law;
  double P0[N_PROBE];
  if (!(q.R1 > 0)) {
    snprintf(msg, n, "R = %g out of range (0, inf) m: the fit needs the particle radius", q.R1);
    return GC_EINVAL;
  }
  int st = gc_law_init_preset(&law, model, NULL, &q, msg, n);
  if (st) {
    char sub[256];
    snprintf(sub, sizeof sub, "%s", msg);
    snprintf(msg, n, "initial values of model '%s': %s", model->name, sub);
    return st;
  }
  probe_path(&law, q.R1, P0);
  const int probe = 1;
  for (int k = 0; k < nc; k++) {
    if (probe && !changes_force(model, &q, P0, cand[k])) {
      if (other)
        other[(*nother)++] = cand[k];
      continue;
    }
    if (*np == GC_FIT_MAXPAR) {
      snprintf(msg, n, "model '%s' has more than %d fittable parameters", model->name,
               GC_FIT_MAXPAR);
      return GC_EINVAL;
    }
    ids[(*np)++] = cand[k];
  }
  if (*np == 0) {
    snprintf(msg, n, "model '%s' has no parameter granucal fit can calibrate", model->name);
    return GC_EINVAL;
  }
  return GC_SUCCESS;
}

int gc_fit_find(const gc_fit_setup *s, gc_param_id id)
{
  for (int j = 0; j < s->npar; j++)
    if (s->pid[j] == id)
      return j;
  return -1;
}

int gc_fit_lookup(const gc_fit_setup *s, const char *name)
{
  const gc_param_def *d = gc_param_lookup(name);
  return d ? gc_fit_find(s, gc_param_id_of(d)) : -1;
}

const char *gc_fit_name(const gc_fit_setup *s, int j)
{
  return j >= 0 && j < s->npar ? gc_param_def_at(s->pid[j])->key : "?";
}

const char *gc_fit_unit(const gc_fit_setup *s, int j)
{
  return j >= 0 && j < s->npar ? gc_param_def_at(s->pid[j])->unit : "?";
}

void gc_fit_params_at(const gc_fit_setup *s, const double *p, gc_params *q)
{
  *q = s->base;
  for (int j = 0; j < s->npar; j++)
    gc_param_put(q, s->pid[j], p[j]);
}

/* ---------------------------------------------------------------- data */

static void free_comp(gc_fit_data *d)
{
  free(d->alpha);
  free(d->P);
  free(d->comp_line);
  d->alpha = d->P = NULL;
  d->comp_line = NULL;
  d->n_comp = 0;
}

static void free_drop(gc_fit_data *d)
{
  free(d->v_in);
  free(d->H);
  free(d->e);
  free(d->e_n);
  free(d->e_sd);
  free(d->drop_line);
  d->v_in = d->H = d->e = d->e_n = d->e_sd = NULL;
  d->drop_line = NULL;
  d->n_drop = 0;
  d->has_n = d->has_sd = 0;
}

static int alloc_comp(gc_fit_data *d, size_t n)
{
  free_comp(d);
  d->alpha = calloc(n ? n : 1, sizeof *d->alpha);
  d->P = calloc(n ? n : 1, sizeof *d->P);
  d->comp_line = calloc(n ? n : 1, sizeof *d->comp_line);
  if (!d->alpha || !d->P || !d->comp_line) {
    free_comp(d);
    return GC_ENOMEM;
  }
  d->n_comp = n;
  return GC_SUCCESS;
}

static int alloc_drop(gc_fit_data *d, size_t n)
{
  free_drop(d);
  size_t m = n ? n : 1;
  d->v_in = calloc(m, sizeof *d->v_in);
  d->H = calloc(m, sizeof *d->H);
  d->e = calloc(m, sizeof *d->e);
  d->e_n = calloc(m, sizeof *d->e_n);
  d->e_sd = calloc(m, sizeof *d->e_sd);
  d->drop_line = calloc(m, sizeof *d->drop_line);
  if (!d->v_in || !d->H || !d->e || !d->e_n || !d->e_sd || !d->drop_line) {
    free_drop(d);
    return GC_ENOMEM;
  }
  d->n_drop = n;
  return GC_SUCCESS;
}

int gc_fit_data_alloc(gc_fit_data *d, size_t n_comp, size_t n_drop)
{
  memset(d, 0, sizeof *d);
  if (alloc_comp(d, n_comp) || alloc_drop(d, n_drop)) {
    gc_fit_data_free(d);
    return GC_ENOMEM;
  }
  return GC_SUCCESS;
}

static void free_path(gc_fit_data *d)
{
  free(d->path_t);
  free(d->path_alpha);
  free(d->path_P);
  free(d->path_line);
  free(d->path_start);
  d->path_t = d->path_alpha = d->path_P = NULL;
  d->path_line = d->path_start = NULL;
  d->n_path = d->n_path_files = 0;
}

void gc_fit_data_free(gc_fit_data *d)
{
  free_comp(d);
  free_drop(d);
  free_path(d);
}

int gc_fit_read_path(gc_fit_data *d, const char *path, char *msg, size_t n)
{
  gc_curve c;
  int st = gc_curve_read(path, &c, msg, n);
  if (st)
    return st;
  st = gc_fit_add_path(d, &c, msg, n);
  gc_curve_free(&c);
  return st;
}

int gc_fit_add_path(gc_fit_data *d, const gc_curve *cv, char *msg, size_t n)
{
  const gc_curve c = *cv;
  const char *path = c.path;
  const size_t ln0 = strlen(d->notes);
  int loads = 0;
  for (size_t i = 1; i < c.n; i++)
    loads |= c.alpha[i] > c.alpha[i - 1] && c.P[i] > 0;
  if (!loads) {
    snprintf(msg, n,
             "%s: the path never loads the contact (no step with alpha increasing and "
             "P > 0)",
             path);
    return GC_EFORMAT;
  }
  size_t m = d->n_path + c.n, nf = d->n_path_files + 1;
  double *t = realloc(d->path_t, m * sizeof *t);
  if (t)
    d->path_t = t;
  double *a = realloc(d->path_alpha, m * sizeof *a);
  if (a)
    d->path_alpha = a;
  double *P = realloc(d->path_P, m * sizeof *P);
  if (P)
    d->path_P = P;
  size_t *ln = realloc(d->path_line, m * sizeof *ln);
  if (ln)
    d->path_line = ln;
  size_t *ps = realloc(d->path_start, (nf + 1) * sizeof *ps);
  if (ps)
    d->path_start = ps;
  if (!t || !a || !P || !ln || !ps) {
    snprintf(msg, n, "%s: out of memory", path);
    return GC_ENOMEM;
  }
  if (d->n_path_files == 0)
    d->path_start[0] = 0;
  memcpy(d->path_t + d->n_path, c.t, c.n * sizeof *t);
  memcpy(d->path_alpha + d->n_path, c.alpha, c.n * sizeof *a);
  memcpy(d->path_P + d->n_path, c.P, c.n * sizeof *P);
  memcpy(d->path_line + d->n_path, c.line, c.n * sizeof *ln);
  d->n_path = m;
  d->n_path_files = nf;
  d->path_start[nf] = m;
  if (nf <= sizeof d->path_paths / sizeof d->path_paths[0])
    snprintf(d->path_paths[nf - 1], sizeof d->path_paths[0], "%s", path);
  snprintf(d->notes + ln0, sizeof d->notes - ln0, "%s", c.notes); /* one line each, '\n' ended */
  return GC_SUCCESS;
}

static void add_note(gc_fit_data *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_note(gc_fit_data *d, const char *fmt, ...)
{
  size_t l = strlen(d->notes);
  if (l + 2 >= sizeof d->notes)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(d->notes + l, sizeof d->notes - l - 1, fmt, ap);
  va_end(ap);
  l = strlen(d->notes);
  d->notes[l] = '\n';
  d->notes[l + 1] = 0;
}

/* The factor from column col's unit to si (mm -> m: 1e-3), echoed in d->notes; an error naming
 * the accepted units, or the expected header when a dimensioned column has no unit. */
static int unit_scale(gc_fit_data *d, const char *path, const gc_table *t, int col, const char *si,
                      const char *expect, double *f, char *msg, size_t n)
{
  int st = gc_table_unit(t, path, col, si, expect, f, msg, n);
  if (!st && *f != 1.0)
    add_note(d, "%s: column '%s' in [%s] converted to [%s] (x %g)", path, t->names[col],
             t->units[col], si, *f);
  return st;
}

static void unknown_columns(gc_fit_data *d, const char *path, const gc_table *t,
                            const char *const *known, const char *expect)
{
  for (size_t c = 0; c < t->ncols; c++) {
    int found = 0;
    for (const char *const *k = known; *k; k++)
      found |= strcmp(t->names[c], *k) == 0;
    if (!found)
      add_note(d, "%s:%zu:%zu: column '%s' ignored (%s)", path, t->header_line, c + 1, t->names[c],
               expect);
  }
  if (t->delim == ';' || t->delim == '\t')
    add_note(d, "%s: read as %s-separated (no comma in the header line %zu)", path,
             t->delim == ';' ? "semicolon" : "tab", t->header_line);
}

static const char *const comp_cols[] = { "alpha", "approach", "P", NULL };
static const char *const comp_expect =
    "compression data: alpha [m] (single-side displacement) or approach [m] (platen approach), "
    "and P [N]";
static const char *const drop_cols[] = { "v_in", "H", "e", "n", "sd", NULL };
static const char *const drop_expect =
    "drop data: v_in [m/s] and/or H [m], e, optionally n (repeat count) or sd (standard "
    "deviation of e)";
static const char *const comp_known = "known: alpha, approach, P";
static const char *const comp_header = "alpha [m],P [N]";
static const char *const drop_header = "H [m],v_in [m/s],e";
static const char *const drop_known = "known: v_in, H, e, n, sd";

/* The kind of data a header names (GC_FIT_KIND_*, 0: none) */
static int kind_of(const gc_table *t)
{
  int has_t = gc_table_col(t, "t") >= 0 || gc_table_col(t, "time") >= 0;
  if (has_t && gc_table_col(t, "alpha") >= 0 && gc_table_col(t, "P") >= 0)
    return GC_FIT_KIND_PATH; /* a load path: replayed in time order through the contact driver */
  if (gc_table_col(t, "P") >= 0 || gc_table_col(t, "alpha") >= 0 ||
      gc_table_col(t, "approach") >= 0)
    return GC_FIT_KIND_COMPRESSION;
  if (gc_table_col(t, "e") >= 0 || gc_table_col(t, "v_in") >= 0 || gc_table_col(t, "H") >= 0)
    return GC_FIT_KIND_DROPS;
  return 0;
}

const char *gc_fit_kind_name(int kind)
{
  return kind == GC_FIT_KIND_COMPRESSION ? "compression data (alpha or approach, P)"
         : kind == GC_FIT_KIND_DROPS     ? "drop data (v_in or H, e)"
         : kind == GC_FIT_KIND_PATH      ? "load-path data (t, alpha, P)"
                                         : "data of no known kind";
}

int gc_fit_csv_kind(const char *path, char *msg, size_t n)
{
  gc_table t;
  int st = gc_table_read_lenient(path, &t, msg, n);
  if (st)
    return -1;
  int kind = kind_of(&t);
  if (!kind)
    snprintf(msg, n, "%s:%zu:1: cannot tell the kind of data from the header: %s; %s", path,
             t.header_line, comp_expect, drop_expect);
  gc_table_free(&t);
  return kind;
}

int gc_fit_read_compression(gc_fit_data *d, const char *path, char *msg, size_t n)
{
  gc_table t;
  int st = gc_table_read_lenient(path, &t, msg, n);
  if (st)
    return st;
  int ca = gc_table_col(&t, "alpha"), cw = gc_table_col(&t, "approach"), cP = gc_table_col(&t, "P");
  if ((ca < 0) == (cw < 0) || cP < 0) {
    snprintf(msg, n,
             "%s:%zu:1: the header must name exactly one of 'alpha' [m] or 'approach' "
             "[m], and 'P' [N] (%s); this header is %s",
             path, t.header_line, comp_expect, gc_fit_kind_name(kind_of(&t)));
    st = GC_EFORMAT;
  }
  if (!st && kind_of(&t) == GC_FIT_KIND_PATH) {
    /* a load-unload curve with its t column: replayed as a path, never taken as points */
    snprintf(msg, n,
             "%s:%zu:1: the header names %s, not compression data: give it as a data "
             "file argument, whose kind the header tells",
             path, t.header_line, gc_fit_kind_name(GC_FIT_KIND_PATH));
    st = GC_EFORMAT;
  }
  int cx = ca >= 0 ? ca : cw;
  double fx = 1, fP = 1;
  if (!st)
    st = gc_table_check_col(&t, path, cx, msg, n);
  if (!st)
    st = gc_table_check_col(&t, path, cP, msg, n);
  if (!st)
    st = unit_scale(d, path, &t, cx, "m", comp_header, &fx, msg, n);
  if (!st)
    st = unit_scale(d, path, &t, cP, "N", comp_header, &fP, msg, n);
  if (!st)
    unknown_columns(d, path, &t, comp_cols, comp_known);
  if (!st && alloc_comp(d, t.nrows)) {
    snprintf(msg, n, "%s: out of memory", path);
    st = GC_ENOMEM;
  }
  int positive = 0;
  for (size_t i = 0; i < t.nrows && !st; i++) {
    double x = fx * gc_table_get(&t, i, (size_t)cx), P = fP * gc_table_get(&t, i, (size_t)cP);
    if (x < 0) {
      snprintf(msg, n, "%s:%zu:%d: negative displacement %s = %g m", path, t.line[i], cx + 1,
               t.names[cx], x);
      st = GC_EFORMAT;
    } else if (P < 0) {
      snprintf(msg, n, "%s:%zu:%d: negative force P = %g N", path, t.line[i], cP + 1, P);
      st = GC_EFORMAT;
    } else {
      d->alpha[i] = cw >= 0 ? 0.5 * x : x;
      d->P[i] = P;
      d->comp_line[i] = t.line[i];
      positive += x > 0 && P > 0;
    }
  }
  if (!st && !positive) {
    snprintf(msg, n, "%s:%zu:1: no point with a positive displacement and force", path,
             t.header_line);
    st = GC_EFORMAT;
  }
  if (st) {
    free_comp(d);
  } else {
    snprintf(d->comp_path, sizeof d->comp_path, "%s", path);
    d->comp_col_x = cx + 1;
    d->comp_col_P = cP + 1;
    d->comp_approach = cw >= 0;
  }
  gc_table_free(&t);
  return st;
}

int gc_fit_read_drops(gc_fit_data *d, const char *path, double g, char *msg, size_t n)
{
  return gc_fit_read_drops_ex(d, path, g, 1, msg, n);
}

int gc_fit_read_drops_ex(gc_fit_data *d, const char *path, double g, int need_e, char *msg,
                         size_t n)
{
  gc_table t;
  int st = gc_table_read_lenient(path, &t, msg, n);
  if (st)
    return st;
  if (!(g > 0))
    g = GC_G;
  int cv = gc_table_col(&t, "v_in"), cH = gc_table_col(&t, "H"), ce = gc_table_col(&t, "e");
  int cn = gc_table_col(&t, "n"), cs = gc_table_col(&t, "sd");
  if ((cv < 0 && cH < 0) || (need_e && ce < 0)) {
    snprintf(msg, n,
             "%s:%zu:1: the header must name 'v_in' [m/s] or 'H' [m]%s (%s); this "
             "header is %s",
             path, t.header_line, need_e ? ", and 'e'" : "", drop_expect,
             gc_fit_kind_name(kind_of(&t)));
    st = GC_EFORMAT;
  }
  double fv = 1, fH = 1, f1;
  for (int k = 0; k < 5 && !st; k++) {
    int col = (int[]){ cv, cH, ce, cn, cs }[k];
    if (col >= 0)
      st = gc_table_check_col(&t, path, col, msg, n);
  }
  if (!st && cv >= 0)
    st = unit_scale(d, path, &t, cv, "m/s", drop_header, &fv, msg, n);
  if (!st && cH >= 0)
    st = unit_scale(d, path, &t, cH, "m", drop_header, &fH, msg, n);
  if (!st && ce >= 0)
    st = unit_scale(d, path, &t, ce, "-", drop_header, &f1, msg, n);
  if (!st && cn >= 0)
    st = unit_scale(d, path, &t, cn, "-", drop_header, &f1, msg, n);
  if (!st && cs >= 0)
    st = unit_scale(d, path, &t, cs, "-", drop_header, &f1, msg, n);
  if (!st)
    unknown_columns(d, path, &t, drop_cols, drop_known);
  if (!st && alloc_drop(d, t.nrows)) {
    snprintf(msg, n, "%s: out of memory", path);
    st = GC_ENOMEM;
  }
  for (size_t i = 0; i < t.nrows && !st; i++) {
    size_t ln = t.line[i];
    double v = cv >= 0 ? fv * gc_table_get(&t, i, (size_t)cv) : 0.0;
    double H = cH >= 0 ? fH * gc_table_get(&t, i, (size_t)cH) : 0.0;
    double e = ce >= 0 ? gc_table_get(&t, i, (size_t)ce) : 0.0;
    if (cv >= 0 && !(v > 0)) {
      snprintf(msg, n, "%s:%zu:%d: v_in = %g m/s out of range (0, inf)", path, ln, cv + 1, v);
      st = GC_EFORMAT;
    } else if (cH >= 0 && !(H > 0)) {
      snprintf(msg, n, "%s:%zu:%d: H = %g m out of range (0, inf)", path, ln, cH + 1, H);
      st = GC_EFORMAT;
    } else if (ce >= 0 && !(e > 0 && e <= 1)) {
      snprintf(msg, n, "%s:%zu:%d: e = %g out of range (0, 1]", path, ln, ce + 1, e);
      st = GC_EFORMAT;
    } else if (cn >= 0 && !(gc_table_get(&t, i, (size_t)cn) >= 1)) {
      snprintf(msg, n, "%s:%zu:%d: repeat count n = %g out of range [1, inf)", path, ln, cn + 1,
               gc_table_get(&t, i, (size_t)cn));
      st = GC_EFORMAT;
    } else if (cs >= 0 && !(gc_table_get(&t, i, (size_t)cs) > 0)) {
      snprintf(msg, n, "%s:%zu:%d: sd = %g out of range (0, inf)", path, ln, cs + 1,
               gc_table_get(&t, i, (size_t)cs));
      st = GC_EFORMAT;
    } else if (cv >= 0 && cH >= 0 && fabs(v - sqrt(2.0 * g * H)) > 0.02 * v) {
      /* a factor 10, 100 or 1000 between the two is a unit read wrongly: name it */
      double rH = H / (v * v / (2.0 * g)), rv = v / sqrt(2.0 * g * H);
      const char *hint = "";
      if (fabs(rH / 1000 - 1) < 0.05)
        hint = " (H 1000 times too large: likely mm under [m], write 'H [mm]')";
      else if (fabs(rH / 100 - 1) < 0.05)
        hint = " (H 100 times too large: likely cm under [m], write 'H [cm]')";
      else if (fabs(rv / 1000 - 1) < 0.02)
        hint = " (v_in 1000 times too large: likely mm/s under [m/s], write 'v_in [mm/s]')";
      else if (fabs(rv / 100 - 1) < 0.02)
        hint = " (v_in 100 times too large: likely cm/s under [m/s], write 'v_in [cm/s]')";
      snprintf(msg, n,
               "%s:%zu:%d: v_in = %g m/s disagrees with H = %g m (sqrt(2 g H) = %.4g m/s, "
               "g = %g m/s^2) by more than 2 %%%s",
               path, ln, cv + 1, v, H, sqrt(2.0 * g * H), g, hint);
      st = GC_EFORMAT;
    } else {
      d->v_in[i] = cv >= 0 ? v : sqrt(2.0 * g * H);
      d->H[i] = H;
      d->e[i] = e;
      d->e_n[i] = cn >= 0 ? gc_table_get(&t, i, (size_t)cn) : 0.0;
      d->e_sd[i] = cs >= 0 ? gc_table_get(&t, i, (size_t)cs) : 0.0;
      d->drop_line[i] = ln;
    }
  }
  if (!st && cv < 0)
    add_note(d, "%s: v_in = sqrt(2 g H) from the column H, g = %g m/s^2", path, g);
  if (st) {
    free_drop(d);
  } else {
    d->has_n = cn >= 0;
    d->has_sd = cs >= 0;
    d->drop_col_v = cv + 1;
    d->drop_col_H = cH + 1;
    snprintf(d->drop_path, sizeof d->drop_path, "%s", path);
  }
  gc_table_free(&t);
  return st;
}

static int grow(double **a, size_t n)
{
  double *q = realloc(*a, (n ? n : 1) * sizeof *q);
  if (!q)
    return GC_ENOMEM;
  *a = q;
  return GC_SUCCESS;
}

static int grow_z(size_t **a, size_t n)
{
  size_t *q = realloc(*a, (n ? n : 1) * sizeof *q);
  if (!q)
    return GC_ENOMEM;
  *a = q;
  return GC_SUCCESS;
}

static void join_path(char *dst, size_t cap, const char *src)
{
  size_t l = strlen(dst);
  if (*src)
    snprintf(dst + l, cap - l, "%s%s", l ? ", " : "", src);
}

int gc_fit_data_append(gc_fit_data *dst, const gc_fit_data *s, char *msg, size_t n)
{
  size_t nc = dst->n_comp + s->n_comp, nd = dst->n_drop + s->n_drop;
  if (grow(&dst->alpha, nc) || grow(&dst->P, nc) || grow_z(&dst->comp_line, nc) ||
      grow(&dst->v_in, nd) || grow(&dst->H, nd) || grow(&dst->e, nd) || grow(&dst->e_n, nd) ||
      grow(&dst->e_sd, nd) || grow_z(&dst->drop_line, nd)) {
    snprintf(msg, n, "out of memory");
    return GC_ENOMEM;
  }
  for (size_t i = 0; i < s->n_comp; i++) {
    dst->alpha[dst->n_comp + i] = s->alpha[i];
    dst->P[dst->n_comp + i] = s->P[i];
    dst->comp_line[dst->n_comp + i] = s->comp_line[i];
  }
  for (size_t k = 0; k < s->n_drop; k++) {
    size_t q = dst->n_drop + k;
    dst->v_in[q] = s->v_in[k];
    dst->H[q] = s->H[k];
    dst->e[q] = s->e[k];
    dst->e_n[q] = s->e_n[k];
    dst->e_sd[q] = s->e_sd[k];
    dst->drop_line[q] = s->drop_line[k];
  }
  if (s->n_drop) {
    /* a weight column counts only when every drop file has it */
    dst->has_n = dst->n_drop ? dst->has_n && s->has_n : s->has_n;
    dst->has_sd = dst->n_drop ? dst->has_sd && s->has_sd : s->has_sd;
  }
  dst->n_comp = nc;
  dst->n_drop = nd;
  join_path(dst->comp_path, sizeof dst->comp_path, s->comp_path);
  join_path(dst->drop_path, sizeof dst->drop_path, s->drop_path);
  size_t l = strlen(dst->notes);
  snprintf(dst->notes + l, sizeof dst->notes - l, "%s", s->notes);
  return GC_SUCCESS;
}

/* ---------------------------------------------------------------- setup */

int gc_fit_setup_default(gc_fit_setup *s, const gc_params *base, double mass, char *msg, size_t n)
{
  return gc_fit_setup_model(s, gc_preset_lookup("ep"), 0, base, mass, msg, n);
}

int gc_fit_setup_model(gc_fit_setup *s, const gc_preset *model, int want_sY, const gc_params *base,
                       double mass, char *msg, size_t n)
{
  memset(s, 0, sizeof *s);
  s->model = model;
  s->base = *base;
  s->mass = mass;
  if (mass > 0 && gc_fit_model_reads(model, GC_PAR_M_EFF))
    s->base.m_eff = mass; /* a sphere on a rigid plane: the reduced mass is the sphere's */
  gc_drop_cfg_default(&s->drop);
  s->drop.mass = mass;
  s->drop.max_steps = 10000000L; /* 10 s of contact at 1e-6 s: a bound, never reached */
  s->w_a = 0.1;
  s->w_e = 0.9;
  s->point_weights = GC_FIT_PW_NONE;
  int st = gc_fit_model_params(model, base, mass, want_sY, s->pid, &s->npar, NULL, NULL, msg, n);
  if (st)
    return st;
  for (int j = 0; j < s->npar; j++) {
    st = base_value(base, s->pid[j], &s->trial[j], msg, n);
    if (st)
      return st;
  }
  if (want_sY)
    s->base.P_Y = 0; /* the law derives P_Y from the fitted sY1 */
  for (int j = 0; j < s->npar; j++) {
    const gc_param_def *d = gc_param_def_at(s->pid[j]);
    s->is_free[j] = 1;
    if (isfinite(d->hi) && s->trial[j] * 10.0 >= d->hi) {
      /* bounded above near the trial value (nu1 < 0.5, e_n <= 1): the upper tenth of the
       * range */
      double hi = d->hi_open ? d->hi - 0.02 * fabs(d->hi) : d->hi;
      s->hi[j] = hi;
      s->lo[j] = fmax(s->trial[j] / 10.0, d->hi / 10.0);
    } else {
      /* unbounded, or bounded far above (K_c <= 10 1/N) */
      s->lo[j] = s->trial[j] / 10.0;
      s->hi[j] = s->trial[j] * 10.0;
    }
  }
  return GC_SUCCESS;
}

/* ---------------------------------------------------------------- the law */

/* The model's normal law (with its damping, no tangential part) at the parameter vector p: the
 * same composition `granucal drop` and `granucal contact` build for the model.  In the P_Y form
 * the fit gives P_Y itself (the compression data fix it, not sY), so it must be > 0. */
static int law_from(const gc_fit_setup *set, const double *p, gc_law *law, char *msg, size_t n)
{
  gc_params q;
  gc_fit_params_at(set, p, &q);
  memset(law, 0, sizeof *law);
  if (gc_fit_find(set, GC_PAR_P_Y) >= 0 && (!(q.P_Y > 0) || !isfinite(q.P_Y))) {
    snprintf(msg, n, "P_Y = %g out of range (0, inf) N", q.P_Y);
    return GC_EINVAL;
  }
  return gc_law_init_preset(law, set->model, NULL, &q, msg, n);
}

int gc_fit_law(const gc_fit_problem *pb, const double *p, gc_law *law)
{
  char msg[256]; /* the message is dropped; 256 so that -O3 sees no truncation */
  return law_from(&pb->set, p, law, msg, sizeof msg);
}

/* P_model at each alpha_i (fresh state, monotonic loading) and the drops. */
static int simulate(const gc_law *law, const gc_drop_cfg *cfg, const gc_fit_data *d,
                    double *P_model, gc_drop_result *drops, int *failed)
{
  int first = GC_SUCCESS;
  for (size_t i = 0; P_model && i < d->n_comp; i++) {
    double s[GC_HIST_MAX];
    gc_law_history_init(law, s);
    gc_normal out;
    int st = d->alpha[i] > 0 ? gc_law_normal(law, s, d->alpha[i], 0.0, &out) : GC_SUCCESS;
    double P = d->alpha[i] > 0 ? out.P : 0.0;
    if (st || !isfinite(P)) {
      P = NAN;
      if (!first)
        first = st ? st : GC_ENAN;
    }
    P_model[i] = P;
  }
  for (size_t k = 0; drops && k < d->n_drop; k++) {
    int st = gc_drop_run(law, cfg, d->v_in[k], &drops[k], NULL, NULL);
    if (st || !isfinite(drops[k].e_vel)) {
      drops[k].e_vel = NAN;
      if (!first)
        first = st ? st : GC_ENAN;
    }
  }
  if (failed)
    *failed = first != GC_SUCCESS;
  return first;
}

int gc_fit_predict(const gc_fit_problem *pb, const double *p, double *P_model,
                   gc_drop_result *drops)
{
  gc_law law;
  int st = gc_fit_law(pb, p, &law);
  if (st)
    return st;
  return simulate(&law, &pb->set.drop, pb->data, P_model, drops, NULL);
}

/* A failed point costs this much (raw units), so that the objective stays finite and larger
 * than anywhere the model works. */
static double penalty_P(const gc_fit_data *d)
{
  double m = 0;
  for (size_t i = 0; i < d->n_comp; i++)
    m = fmax(m, d->P[i]);
  for (size_t i = 0; i < d->n_path; i++)
    m = fmax(m, d->path_P[i]);
  return 10.0 * m + 1.0;
}

/* Replay every load path from a fresh contact through the contact driver (displacement-driven,
 * the same history rules as `granucal contact` and `granucal compare`).  The forces go to
 * pb->path_recs[i].P; P_path (may be NULL) receives a copy. */
static int replay_paths(gc_fit_problem *pb, const gc_law *law, double *P_path)
{
  const gc_fit_data *d = pb->data;
  gc_contact_rec *rec = pb->path_recs;
  char msg[256];
  for (size_t f = 0; f < d->n_path_files; f++) {
    size_t i0 = d->path_start[f], i1 = d->path_start[f + 1];
    gc_loadpath lp;
    memset(&lp, 0, sizeof lp);
    lp.n = i1 - i0;
    lp.t = d->path_t + i0;
    lp.x = d->path_alpha + i0;
    lp.normal = GC_DRIVE_ALPHA;
    lp.tangential = GC_DRIVE_NONE;
    gc_contact_summary sum;
    int st = gc_contact_run(law, &lp, rec + i0, &sum, msg, sizeof msg);
    if (st)
      return st;
    for (size_t i = i0; i < i1; i++)
      if (!isfinite(rec[i].P))
        return GC_ENAN;
  }
  if (P_path)
    for (size_t i = 0; i < d->n_path; i++)
      P_path[i] = rec[i].P;
  return GC_SUCCESS;
}

int gc_fit_predict_path(gc_fit_problem *pb, const double *p, double *P_path)
{
  gc_law law;
  int st = gc_fit_law(pb, p, &law);
  if (st)
    return st;
  return replay_paths(pb, &law, P_path);
}
#define GC_FIT_PENALTY_E 10.0

gc_fit_value gc_fit_eval(gc_fit_problem *pb, const double *p, double *r)
{
  const gc_fit_data *d = pb->data;
  gc_fit_value v = { 0, 0, 0 };
  gc_law law;
  pb->nevals++;
  int bad_law = gc_fit_law(pb, p, &law) != GC_SUCCESS;
  int failed = bad_law;
  double penP = penalty_P(d);
  for (size_t i = 0; i < d->n_comp; i++) {
    double P = 0.0;
    int ok = !bad_law;
    if (ok && d->alpha[i] > 0) {
      double s[GC_HIST_MAX];
      gc_law_history_init(&law, s);
      gc_normal out;
      ok = gc_law_normal(&law, s, d->alpha[i], 0.0, &out) == GC_SUCCESS && isfinite(out.P);
      P = out.P;
    }
    double diff = ok ? P - d->P[i] : penP;
    failed |= !ok;
    v.Fa += diff * diff;
    if (r)
      r[i] = pb->sa * diff;
  }
  for (size_t k = 0; k < d->n_drop; k++) {
    gc_drop_result dr;
    int ok = !bad_law &&
             gc_drop_run(&law, &pb->set.drop, d->v_in[k], &dr, NULL, NULL) == GC_SUCCESS &&
             isfinite(dr.e_vel);
    double diff = ok ? dr.e_vel - d->e[k] : GC_FIT_PENALTY_E;
    failed |= !ok;
    v.Fe += pb->c[k] * diff * diff;
    if (r)
      r[d->n_comp + k] = pb->se * pb->sqc[k] * diff;
  }
  if (d->n_path) {
    size_t off = d->n_comp + d->n_drop;
    int ok = !bad_law && replay_paths(pb, &law, NULL) == GC_SUCCESS;
    const gc_contact_rec *rec = pb->path_recs;
    for (size_t i = 0; i < d->n_path; i++) {
      double diff = ok ? rec[i].P - d->path_P[i] : penP;
      v.Fa += diff * diff;
      if (r)
        r[off + i] = pb->sa * diff;
    }
    failed |= !ok;
  }
  if (failed)
    pb->nfail++;
  /* eq. E.5-E.7 */
  v.F = (pb->Fa_ref > 0 ? pb->set.w_a * v.Fa / pb->Fa_ref : 0.0) +
        (pb->Fe_ref > 0 ? pb->set.w_e * v.Fe / pb->Fe_ref : 0.0);
  return v;
}

/* ---------------------------------------------------------------- the problem */

void gc_fit_x_to_p(const gc_fit_problem *pb, const double *x, double *p)
{
  for (int j = 0; j < pb->set.npar; j++)
    p[j] = pb->set.trial[j];
  for (int k = 0; k < pb->nfree; k++) {
    int j = pb->idx[k];
    p[j] = fmin(fmax(pb->set.trial[j] * exp(x[k]), pb->set.lo[j]), pb->set.hi[j]);
  }
}

void gc_fit_p_to_x(const gc_fit_problem *pb, const double *p, double *x)
{
  for (int k = 0; k < pb->nfree; k++) {
    int j = pb->idx[k];
    x[k] = log(p[j] / pb->set.trial[j]);
  }
}

void gc_fit_problem_free(gc_fit_problem *pb)
{
  free(pb->c);
  free(pb->sqc);
  free(pb->path_recs);
  memset(pb, 0, sizeof *pb);
}

/* The drops' time step against the contact duration (the rule of timestep.h) at the fastest
 * drop, for the initial values and for the stiffest corner of the search box (each free
 * parameter at the bound that shortens t_c), so that no inner simulation of the fit runs on a
 * step too coarse for its parameters. */
static int check_drop_dt(const gc_fit_setup *set, const gc_fit_data *d, char *msg, size_t n)
{
  double v = 0;
  for (size_t k = 0; k < d->n_drop; k++)
    v = fmax(v, d->v_in[k]);
  if (!(v > 0))
    return GC_SUCCESS;
  double p[GC_FIT_MAXPAR], tc_trial, tc;
  char sub[400], what[300];
  gc_law law;
  for (int j = 0; j < set->npar; j++)
    p[j] = set->trial[j];
  if (law_from(set, p, &law, sub, sizeof sub) ||
      gc_law_contact_time_msg(&law, set->mass, v, &tc_trial, sub, sizeof sub)) {
    snprintf(msg, n, "initial values: %s", sub);
    return GC_EINVAL;
  }
  snprintf(what, sizeof what, "the drop at v_in = %.4g m/s with the initial values", v);
  if (gc_dt_check(set->drop.dt, tc_trial, what, sub, sizeof sub) == GC_DT_REFUSE) {
    snprintf(msg, n, "--dt: %s", sub);
    return GC_EINVAL;
  }
  /* the corner: each free parameter at the bound with the shorter t_c, the others held */
  for (int j = 0; j < set->npar; j++) {
    if (!set->is_free[j])
      continue;
    double best = tc_trial, at = set->trial[j], ends[2] = { set->lo[j], set->hi[j] };
    for (int e = 0; e < 2; e++) {
      double q[GC_FIT_MAXPAR];
      memcpy(q, set->trial, sizeof q);
      q[j] = ends[e];
      if (!law_from(set, q, &law, sub, sizeof sub) &&
          !gc_law_contact_time(&law, set->mass, v, &tc) && tc > 0 && tc < best) {
        best = tc;
        at = ends[e];
      }
    }
    p[j] = at;
  }
  if (law_from(set, p, &law, sub, sizeof sub) || gc_law_contact_time(&law, set->mass, v, &tc) ||
      !(tc > 0))
    return GC_SUCCESS; /* no law there: the search meets it as a failed point */
  int len = snprintf(what, sizeof what,
                     "the drop at v_in = %.4g m/s at the stiffest corner of "
                     "the bounds (",
                     v);
  for (int j = 0, first = 1; j < set->npar && len > 0 && (size_t)len < sizeof what; j++)
    if (set->is_free[j]) {
      len += snprintf(what + len, sizeof what - (size_t)len, "%s%s = %g", first ? "" : ", ",
                      gc_fit_name(set, j), p[j]);
      first = 0;
    }
  if (len > 0 && (size_t)len < sizeof what)
    snprintf(what + len, sizeof what - (size_t)len, ")");
  if (gc_dt_check(set->drop.dt, tc, what, sub, sizeof sub) == GC_DT_REFUSE) {
    snprintf(msg, n, "--dt: %s, or narrower --bounds", sub);
    return GC_EINVAL;
  }
  return GC_SUCCESS;
}

int gc_fit_problem_init(gc_fit_problem *pb, const gc_fit_setup *set, const gc_fit_data *d,
                        char *msg, size_t n)
{
  memset(pb, 0, sizeof *pb);
  pb->set = *set;
  pb->data = d;
  pb->set.drop.mass = set->mass;
  pb->model = set->model;
  if (!pb->model || set->npar < 1 || set->npar > GC_FIT_MAXPAR) {
    snprintf(msg, n, "no model to fit (set up with gc_fit_setup_model)");
    return GC_EINVAL;
  }
  if (d->n_comp + d->n_drop + d->n_path == 0) {
    snprintf(msg, n, "no data: give compression, drop and/or load-path data");
    return GC_EINVAL;
  }
  if (!(set->mass > 0) || !isfinite(set->mass)) {
    snprintf(msg, n,
             "m = %g out of range (0, inf) kg: the drops need the particle mass (give m "
             "or rho in the card)",
             set->mass);
    return GC_EINVAL;
  }
  if (set->base.R2 > 0 || set->base.E2 > 0) {
    snprintf(msg, n,
             "the fit models a sphere on a rigid plane (the compression and drop tests): "
             "R2 and E2 must be 0");
    return GC_EINVAL;
  }
  if (!(set->w_a >= 0) || !(set->w_e >= 0) || !isfinite(set->w_a + set->w_e) ||
      !(set->w_a + set->w_e > 0)) {
    snprintf(msg, n, "weights w_a = %g, w_e = %g: need w_a, w_e >= 0, not both 0", set->w_a,
             set->w_e);
    return GC_EINVAL;
  }
  if (!(set->drop.dt > 0) || !isfinite(set->drop.dt)) {
    snprintf(msg, n, "dt = %g out of range (0, inf) s", set->drop.dt);
    return GC_EINVAL;
  }
  for (int j = 0; j < set->npar; j++) {
    const char *nm = gc_fit_name(set, j);
    double t = set->trial[j], lo = set->lo[j], hi = set->hi[j];
    if (!isfinite(t)) {
      snprintf(msg, n, "%s = %g is not finite", nm, t);
      return GC_EINVAL;
    }
    if (!set->is_free[j])
      continue;
    if (!(t > 0)) {
      snprintf(msg, n,
               "%s = %g: a free parameter needs a positive initial value (give one in "
               "the card or with -s %s=VALUE, or fix it with --fix %s)",
               nm, t, nm, nm);
      return GC_EINVAL;
    }
    if (!(lo > 0) || !(lo <= t) || !(t <= hi) || !isfinite(hi)) {
      snprintf(msg, n, "%s: bounds [%g, %g] %s must satisfy 0 < lo <= initial value %g <= hi < inf",
               nm, lo, hi, gc_fit_unit(set, j), t);
      return GC_EINVAL;
    }
    if (!gc_param_in_range(set->pid[j], hi)) {
      /* the table's range, positive (the search is on ln p) */
      const gc_param_def *dd = gc_param_def_at(set->pid[j]);
      char range[96];
      gc_range_text(dd->lo > 0 ? dd->lo : 0, dd->hi, dd->lo > 0 ? dd->lo_open : 1, dd->hi_open, 0,
                    dd->unit, range, sizeof range);
      snprintf(msg, n, "%s: upper bound %g out of range %s", nm, hi, range);
      return GC_EINVAL;
    }
    pb->idx[pb->nfree++] = j;
  }
  if (pb->nfree == 0) {
    snprintf(msg, n, "every parameter is fixed: nothing to fit");
    return GC_EINVAL;
  }
  gc_law law;
  int st = law_from(&pb->set, set->trial, &law, msg, n);
  if (st) {
    char sub[256];
    snprintf(sub, sizeof sub, "%s", msg);
    snprintf(msg, n, "initial values: %s", sub);
    return st;
  }
  if ((st = check_drop_dt(&pb->set, d, msg, n)))
    return st;
  pb->n_res = d->n_comp + d->n_drop + d->n_path;
  size_t nd = d->n_drop ? d->n_drop : 1;
  pb->c = calloc(nd, sizeof *pb->c);
  pb->sqc = calloc(nd, sizeof *pb->sqc);
  pb->path_recs = calloc(d->n_path ? d->n_path : 1, sizeof(gc_contact_rec));
  if (!pb->c || !pb->sqc || !pb->path_recs) {
    gc_fit_problem_free(pb);
    snprintf(msg, n, "out of memory");
    return GC_ENOMEM;
  }
  /* point weights c_k, normalised to mean 1 */
  double sum = 0;
  for (size_t k = 0; k < d->n_drop; k++) {
    double c = 1.0;
    if (set->point_weights == GC_FIT_PW_COUNT || set->point_weights == GC_FIT_PW_SD) {
      int cnt = set->point_weights == GC_FIT_PW_COUNT;
      if (cnt ? !d->has_n : !d->has_sd) {
        snprintf(msg, n, "%s: point weights from the %s need a column '%s'",
                 d->drop_path[0] ? d->drop_path : "drop data",
                 cnt ? "repeat count" : "standard deviation", cnt ? "n" : "sd");
        gc_fit_problem_free(pb);
        return GC_EINVAL;
      }
      c = cnt ? d->e_n[k] : 1.0 / (d->e_sd[k] * d->e_sd[k]);
    }
    pb->c[k] = c;
    sum += c;
  }
  for (size_t k = 0; k < d->n_drop; k++) {
    pb->c[k] /= sum / (double)d->n_drop;
    pb->sqc[k] = sqrt(pb->c[k]);
  }
  /* raw sums at the trial values: F_a(trial), F_e(trial) (eq. E.6-E.7) */
  pb->sa = pb->se = 0.0;
  pb->Fa_ref = pb->Fe_ref = 0.0;
  gc_fit_value v0 = gc_fit_eval(pb, set->trial, NULL);
  if (pb->nfail) {
    gc_fit_problem_free(pb);
    snprintf(msg, n,
             "the model fails at the initial values (a drop did not rebound or a force "
             "could not be computed): give other initial values");
    return GC_EINVAL;
  }
  double Pscale = 0, escale = 0;
  for (size_t i = 0; i < d->n_comp; i++)
    Pscale += d->P[i] * d->P[i];
  for (size_t i = 0; i < d->n_path; i++)
    Pscale += d->path_P[i] * d->path_P[i];
  for (size_t k = 0; k < d->n_drop; k++)
    escale += d->e[k] * d->e[k];
  /* An initial guess that fits a data set exactly (synthetic data) would divide by zero. */
  int use_a = d->n_comp + d->n_path > 0 && set->w_a > 0, use_e = d->n_drop > 0 && set->w_e > 0;
  pb->Fa_ref = use_a ? (set->norm_Fa > 0 ? set->norm_Fa : fmax(v0.Fa, 1e-12 * Pscale)) : 0.0;
  pb->Fe_ref = use_e ? (set->norm_Fe > 0 ? set->norm_Fe : fmax(v0.Fe, 1e-12 * escale)) : 0.0;
  pb->sa = use_a ? sqrt(set->w_a / pb->Fa_ref) : 0.0;
  pb->se = use_e ? sqrt(set->w_e / pb->Fe_ref) : 0.0;
  pb->nevals = 0;
  pb->nfail = 0;
  return GC_SUCCESS;
}

/* ---------------------------------------------------------------- derived quantities */

int gc_fit_yield_stress(const gc_fit_setup *set, const double *p, double *sY, double *A_Y)
{
  int jP = gc_fit_find(set, GC_PAR_P_Y);
  if (jP < 0)
    return GC_ENOTSUP; /* no yield force among the fitted parameters */
  gc_params q;
  gc_fit_params_at(set, p, &q);
  double ay;
  int st = gc_yield_coefficient(q.nu1, &ay);
  if (st)
    return st;
  double nu = q.nu1, R = set->base.R1;
  double Es = q.E1 / (1.0 - nu * nu);
  /* eq. E.16 (6.19 for a sphere on a rigid plane): P_Y = pi^3 R^2 (A_Y sY)^3 / (6 E*^2) */
  *sY = gc_yield_pressure_of_force(p[jP], R, Es) / ay;
  if (A_Y)
    *A_Y = ay;
  return GC_SUCCESS;
}

int gc_fit_synthesize(const gc_fit_setup *set, gc_fit_data *d, const double *p, double noise_P_rel,
                      double noise_e, unsigned long seed, char *msg, size_t n)
{
  gc_law law;
  int st = set->model ? law_from(set, p, &law, msg, n) : GC_EINVAL;
  if (st)
    return st;
  gc_drop_cfg cfg = set->drop;
  cfg.mass = set->mass;
  double *P = malloc((d->n_comp ? d->n_comp : 1) * sizeof *P);
  gc_drop_result *dr = malloc((d->n_drop ? d->n_drop : 1) * sizeof *dr);
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  if (!P || !dr || !rng) {
    free(P);
    free(dr);
    if (rng)
      gsl_rng_free(rng);
    snprintf(msg, n, "out of memory");
    return GC_ENOMEM;
  }
  gsl_rng_set(rng, seed);
  st = simulate(&law, &cfg, d, P, dr, NULL);
  if (st) {
    snprintf(msg, n, "synthetic data: the model failed: %s", gc_strerror(st));
  } else {
    for (size_t i = 0; i < d->n_comp; i++)
      d->P[i] =
          fmax(0.0, P[i] * (1.0 + (noise_P_rel > 0 ? gsl_ran_gaussian(rng, noise_P_rel) : 0.0)));
    for (size_t k = 0; k < d->n_drop; k++)
      d->e[k] = fmin(1.0, dr[k].e_vel + (noise_e > 0 ? gsl_ran_gaussian(rng, noise_e) : 0.0));
  }
  if (!st && d->n_path) {
    /* the load paths: the same replay as the objective's */
    gc_fit_problem tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.data = d;
    tmp.path_recs = calloc(d->n_path, sizeof(gc_contact_rec));
    double *Pp = malloc(d->n_path * sizeof *Pp);
    if (!tmp.path_recs || !Pp) {
      snprintf(msg, n, "out of memory");
      st = GC_ENOMEM;
    } else if ((st = replay_paths(&tmp, &law, Pp)) != GC_SUCCESS) {
      snprintf(msg, n, "synthetic data: the model failed on a load path: %s", gc_strerror(st));
    } else {
      for (size_t i = 0; i < d->n_path; i++)
        d->path_P[i] =
            fmax(0.0, Pp[i] * (1.0 + (noise_P_rel > 0 ? gsl_ran_gaussian(rng, noise_P_rel) : 0.0)));
    }
    free(tmp.path_recs);
    free(Pp);
  }
  free(P);
  free(dr);
  gsl_rng_free(rng);
  return st;
}
