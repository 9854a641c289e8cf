/* libgranucal.c - the public API of libgranucal (granucal/granucal.h): opaque handles over the
 * parameter table (models/params.c), the registry's presets and sub-models (models/registry.c),
 * gc_law and the 3-D contact step (models/contact3.c).  Nothing here computes physics: the
 * library is the same code the granucal command runs, so that a LAMMPS run with the plugin
 * and `granucal drop` agree to rounding. */
#include "granucal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gc_io.h"
#include "gc_model.h"

/* The public codes are granucal's own. */
_Static_assert((int)GRANUCAL_EINVAL == (int)GC_EINVAL && (int)GRANUCAL_ENOCONV == (int)GC_ENOCONV &&
                   (int)GRANUCAL_ENOMEM == (int)GC_ENOMEM && (int)GRANUCAL_EIO == (int)GC_EIO &&
                   (int)GRANUCAL_EFORMAT == (int)GC_EFORMAT &&
                   (int)GRANUCAL_ENOTSUP == (int)GC_ENOTSUP && (int)GRANUCAL_ENAN == (int)GC_ENAN,
               "public status codes differ from gc_model.h");
_Static_assert(GC_CONTACT3_HEAD == 5, "the state layout of granucal.h changed");

struct granucal_params {
  gc_params p;
  gc_card_extra x;
};

struct granucal_law {
  gc_law law;
  char name[96];
};

static int fail(char *msg, size_t n, int st, const char *fmt, const char *a)
{
  if (msg && n)
    snprintf(msg, n, fmt, a);
  return st;
}

const char *granucal_version(void)
{
  return GRANUCAL_VERSION_STRING;
}

const char *granucal_strerror(int status)
{
  return gc_strerror(status);
}

int granucal_params_new(granucal_params **out)
{
  if (!out)
    return GRANUCAL_EINVAL;
  granucal_params *p = calloc(1, sizeof *p);
  if (!p)
    return GRANUCAL_ENOMEM;
  gc_params_default(&p->p);
  gc_card_extra_default(&p->x);
  *out = p;
  return GRANUCAL_SUCCESS;
}

void granucal_params_free(granucal_params *p)
{
  free(p);
}

int granucal_params_copy(granucal_params *dst, const granucal_params *src)
{
  if (!dst || !src)
    return GRANUCAL_EINVAL;
  *dst = *src;
  return GRANUCAL_SUCCESS;
}

int granucal_params_read(granucal_params *p, const char *path, char *msg, size_t n)
{
  char buf[512];
  if (!p || !path)
    return fail(msg, n, GRANUCAL_EINVAL, "%s", "granucal_params_read: NULL argument");
  /* read into a copy: a file with an error leaves p as it was */
  granucal_params tmp = *p;
  int st = gc_card_read(path, &tmp.p, &tmp.x, buf, sizeof buf);
  if (st)
    return fail(msg, n, st, "%s", buf);
  *p = tmp;
  return GRANUCAL_SUCCESS;
}

int granucal_params_set(granucal_params *p, const char *name, double value, char *msg, size_t n)
{
  if (!p || !name)
    return fail(msg, n, GRANUCAL_EINVAL, "%s", "granucal_params_set: NULL argument");
  const gc_param_def *d = gc_param_lookup(name);
  if (!d)
    return fail(msg, n, GRANUCAL_EINVAL,
                "unknown parameter '%s' (see granucal-params(5) or `granucal models`)", name);
  gc_param_id id = gc_param_id_of(d);
  if (!isfinite(value) || !gc_param_in_range(id, value) || (d->is_int && value != floor(value))) {
    char range[96], buf[256];
    gc_param_range_text(id, range, sizeof range);
    snprintf(buf, sizeof buf, "%s = %.6g out of range %s", d->key, value, range);
    return fail(msg, n, GRANUCAL_EINVAL, "%s", buf);
  }
  gc_param_put(&p->p, id, value);
  return GRANUCAL_SUCCESS;
}

int granucal_params_get(const granucal_params *p, const char *name, double *value)
{
  const gc_param_def *d = p && name ? gc_param_lookup(name) : NULL;
  if (!d || !value)
    return GRANUCAL_EINVAL;
  *value = gc_param_get(&p->p, gc_param_id_of(d));
  return GRANUCAL_SUCCESS;
}

void granucal_params_like_bodies(granucal_params *p)
{
  if (!p)
    return;
  p->p.E2 = p->p.E1;
  p->p.nu2 = p->p.nu1;
  p->p.sY2 = p->p.sY1;
}

const char *granucal_params_model(const granucal_params *p, int which)
{
  if (!p)
    return "";
  return which == 0 ? p->x.nfd : which == 1 ? p->x.tfd : "";
}

size_t granucal_param_count(void)
{
  return GC_NPAR;
}

int granucal_param_info_at(size_t i, granucal_param_info *info)
{
  const gc_param_def *d = i < GC_NPAR ? gc_param_def_at((gc_param_id)i) : NULL;
  if (!d || !info)
    return GRANUCAL_EINVAL;
  info->name = d->name;
  info->key = d->key;
  info->unit = d->unit;
  info->lo = d->lo;
  info->hi = d->hi;
  info->lo_open = d->lo_open;
  info->hi_open = d->hi_open;
  info->equation = d->equation;
  info->help = d->help;
  return GRANUCAL_SUCCESS;
}

/* A sub-model of kind k by name: "none"/NULL the kind's none row. */
static const gc_submodel *submodel(gc_kind k, const char *name)
{
  if (!name || !name[0] || strcmp(name, "none") == 0)
    return gc_submodel_none(k);
  return gc_submodel_lookup(k, name);
}

int granucal_law_new(granucal_law **out, const granucal_params *p, const char *normal,
                     const char *tangential, const char *rolling, const char *twisting, char *msg,
                     size_t n)
{
  char buf[512];
  if (!out || !p)
    return fail(msg, n, GRANUCAL_EINVAL, "%s", "granucal_law_new: NULL argument");
  *out = NULL;
  const gc_preset *nfd, *tfd;
  const char *bad;
  gc_kind bad_kind;
  /* "NAME+DAMPING": NAME's normal part with that damping sub-model ("+DAMPING": the file's
   * model's) */
  char base[64] = "";
  const char *damping = normal ? strchr(normal, '+') : NULL;
  if (damping && !gc_preset_lookup(normal)) {
    snprintf(base, sizeof base, "%.*s", (int)(damping - normal), normal);
    normal = base[0] ? base : NULL;
    damping++;
  } else {
    damping = NULL;
  }
  if (gc_preset_resolve(normal, tangential, p->x.nfd, p->x.tfd, &nfd, &tfd, &bad, &bad_kind))
    return fail(msg, n, GRANUCAL_EINVAL,
                bad_kind == GC_KIND_NORMAL
                    ? "'%s' is not a normal model (see `granucal models`)"
                    : "'%s' is not a tangential model (see `granucal models`)",
                bad);
  /* the sub-models the file names one by one (normal =, damping = ...), then the damping */
  const char *names[GC_NKINDS];
  const gc_submodel *file_rs = NULL, *file_ts = NULL;
  gc_card_law_names(&p->x, names);
  if (normal)
    names[GC_KIND_NORMAL] = NULL; /* the caller's normal model replaces the file's */
  if (tangential)
    names[GC_KIND_TANGENTIAL] = NULL;
  if (damping)
    names[GC_KIND_DAMPING] = damping;
  if (gc_law_compose(names, &nfd, &tfd, &file_rs, &file_ts, &bad_kind)) {
    gc_law_key_check(bad_kind, gc_kind_name(bad_kind), names[bad_kind], buf, sizeof buf);
    return fail(msg, n, GRANUCAL_EINVAL, "%s", buf);
  }
  const gc_submodel *rs = rolling || !file_rs ? submodel(GC_KIND_ROLLING, rolling) : file_rs;
  const gc_submodel *ts = twisting || !file_ts ? submodel(GC_KIND_TWISTING, twisting) : file_ts;
  if (!rs)
    return fail(msg, n, GRANUCAL_EINVAL, "'%s' is not a rolling model (none, spring, const)",
                rolling);
  if (!ts)
    return fail(msg, n, GRANUCAL_EINVAL, "'%s' is not a twisting model (none, spring, const)",
                twisting);
  granucal_law *l = calloc(1, sizeof *l);
  if (!l)
    return GRANUCAL_ENOMEM;
  int st = gc_law_init_full(&l->law, nfd, tfd, rs, ts, &p->p, buf, sizeof buf);
  if (st) {
    free(l);
    return fail(msg, n, st, "%s", buf);
  }
  snprintf(l->name, sizeof l->name, "%s/%s%s%s%s%s", l->law.name_normal, l->law.name_tangential,
           gc_law_rolls(&l->law) ? " rolling " : "", gc_law_rolls(&l->law) ? rs->name : "",
           gc_law_twists(&l->law) ? " twisting " : "", gc_law_twists(&l->law) ? ts->name : "");
  *out = l;
  return GRANUCAL_SUCCESS;
}

void granucal_law_free(granucal_law *law)
{
  free(law);
}

const char *granucal_law_name(const granucal_law *law)
{
  return law ? law->name : "";
}

int granucal_law_frictional(const granucal_law *law)
{
  return gc_law_frictional(&law->law);
}

int granucal_law_rotational(const granucal_law *law)
{
  return gc_law_rolls(&law->law) || gc_law_twists(&law->law);
}

int granucal_law_reads(const granucal_law *law, const char *name)
{
  const gc_param_def *d = law && name ? gc_param_lookup(name) : NULL;
  if (!d)
    return 0;
  for (int k = 0; k < GC_NKINDS; k++)
    if (gc_submodel_reads(law->law.sub[k], gc_param_id_of(d)))
      return 1;
  return 0;
}

int granucal_law_contact_time(const granucal_law *law, double m_eff, double v, double *t)
{
  if (!law || !t || !(m_eff > 0) || !(v > 0) || !isfinite(m_eff) || !isfinite(v))
    return GRANUCAL_EINVAL;
  return gc_law_contact_time(&law->law, m_eff, v, t);
}

size_t granucal_law_state_size(const granucal_law *law)
{
  return GC_CONTACT3_HEAD + gc_law_history_size(&law->law);
}

void granucal_law_state_init(const granucal_law *law, double *state)
{
  memset(state, 0, granucal_law_state_size(law) * sizeof *state);
}

int granucal_contact_step(const granucal_law *law, double *state, double overlap, const double n[3],
                          const double vrel[3], const double wrel[3], double dt, int keep,
                          double F[3], double M[3], double work[2], int *active)
{
  static const double zero[3] = { 0, 0, 0 };
  if (!law || !state || !n || !vrel || !F || !(dt > 0) || !isfinite(dt))
    return GRANUCAL_EINVAL;
  if (!wrel && granucal_law_rotational(law))
    return GRANUCAL_EINVAL;
  double Mloc[3], wloc[2];
  int act;
  F[0] = F[1] = F[2] = 0.0;
  int st = gc_contact3_step(&law->law, (gc_contact3 *)state, overlap, n, vrel, wrel ? wrel : zero,
                            dt, 0.0, keep, F, Mloc, &act, wloc);
  if (st)
    return st;
  if (!act)
    F[0] = F[1] = F[2] = 0.0;
  if (M)
    memcpy(M, Mloc, sizeof Mloc);
  if (work)
    memcpy(work, wloc, sizeof wloc);
  if (active)
    *active = act;
  return GRANUCAL_SUCCESS;
}

int granucal_contact_normal(const granucal_law *law, double *state, double alpha, double alpha_dot,
                            double *P)
{
  if (!law || !state || !P || !isfinite(alpha) || !isfinite(alpha_dot))
    return GRANUCAL_EINVAL;
  gc_normal no;
  int st = gc_law_normal(&law->law, state + GC_CONTACT3_HEAD, alpha, alpha_dot, &no);
  if (st)
    return st;
  state[3] = no.P;
  state[4] = alpha;
  *P = no.P;
  return GRANUCAL_SUCCESS;
}
