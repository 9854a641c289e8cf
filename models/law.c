/* law.c - composition of one sub-model per kind into a contact law, and the layout of the
 * per-contact history block. */
#include "gc_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int gc_submodel_check(const gc_submodel *m, const gc_params *p, char *msg, size_t n)
{
  for (size_t i = 0; i < GC_SUB_MAXPAR && m->params[i] != GC_NPAR; i++) {
    int st = gc_param_check(p, m->params[i], msg, n);
    if (st)
      return st;
  }
  return m->check ? m->check(p, msg, n) : GC_SUCCESS;
}

int gc_law_init(gc_law *law, const gc_submodel *const sub[GC_NKINDS], const gc_params *p, char *msg,
                size_t n)
{
  memset(law, 0, sizeof *law);
  for (int k = 0; k < GC_NKINDS; k++) {
    const gc_submodel *m = sub ? sub[k] : NULL;
    if (!m)
      m = gc_submodel_none((gc_kind)k);
    if (!m || m->kind != (gc_kind)k) {
      snprintf(msg, n, "no %s sub-model%s%s%s", gc_kind_name((gc_kind)k), m ? " ('" : "",
               m ? m->name : "", m ? "' is of another kind)" : "");
      return GC_EINVAL;
    }
    law->sub[k] = m;
  }
  law->name_normal = law->sub[GC_KIND_NORMAL]->name;
  law->name_tangential = law->sub[GC_KIND_TANGENTIAL]->name;
  law->hertz_mindlin = law->sub[GC_KIND_NORMAL] == &gc_normal_hertz &&
                       law->sub[GC_KIND_DAMPING] == &gc_damping_tsuji &&
                       law->sub[GC_KIND_TANGENTIAL] == &gc_tangential_tsuji &&
                       (law->sub[GC_KIND_ROLLING]->flags & GC_SUB_NONE) &&
                       (law->sub[GC_KIND_TWISTING]->flags & GC_SUB_NONE);
  /* kt_ratio is read by every K_T0 (eq. 3.25, 4.8, 8.5): checked first */
  int st = gc_param_check(p, GC_PAR_KT_RATIO, msg, n);
  for (int k = 0; !st && k < GC_NKINDS; k++)
    st = gc_submodel_check(law->sub[k], p, msg, n);
  if (st)
    return st;
  size_t off = 0;
  for (int k = 0; k < GC_NKINDS; k++) {
    law->off[k] = off;
    off += law->sub[k]->hist_size;
  }
  law->nhist = off;
  if (off > GC_HIST_MAX) {
    snprintf(msg, n, "history of %zu doubles exceeds GC_HIST_MAX = %d", off, GC_HIST_MAX);
    return GC_EINVAL;
  }
  /* Linear models have no elastic constants: only fill the Hertz ones when they are valid. */
  if (p->E1 > 0 && p->R1 > 0) {
    st = gc_pair_setup(&law->pair, p, msg, n);
    if (st)
      return st;
  } else {
    law->pair.p = *p;
  }
  for (int k = 0; k < GC_NKINDS; k++)
    if (law->sub[k]->setup && (st = law->sub[k]->setup(&law->pair, msg, n)))
      return st;
  return GC_SUCCESS;
}

int gc_law_init_preset(gc_law *law, const gc_preset *nfd, const gc_preset *tfd, const gc_params *p,
                       char *msg, size_t n)
{
  memset(law, 0, sizeof *law);
  if (!nfd || !nfd->normal) {
    snprintf(msg, n, "model '%s' has no normal force-displacement part",
             nfd ? nfd->name : "(none)");
    return GC_EINVAL;
  }
  if (tfd && !tfd->tangential) {
    snprintf(msg, n, "model '%s' has no tangential force-displacement part", tfd->name);
    return GC_EINVAL;
  }
  const gc_submodel *sub[GC_NKINDS] = { NULL };
  sub[GC_KIND_NORMAL] = gc_preset_part(nfd, GC_KIND_NORMAL);
  sub[GC_KIND_DAMPING] = gc_preset_part(nfd, GC_KIND_DAMPING);
  if (tfd)
    sub[GC_KIND_TANGENTIAL] = gc_preset_part(tfd, GC_KIND_TANGENTIAL);
  if (!sub[GC_KIND_NORMAL] || !sub[GC_KIND_DAMPING] || (tfd && !sub[GC_KIND_TANGENTIAL])) {
    snprintf(msg, n, "preset '%s' names a sub-model that is not registered", nfd->name);
    return GC_EINVAL;
  }
  int st = gc_law_init(law, sub, p, msg, n);
  law->name_normal = nfd->name;
  law->name_tangential = tfd ? tfd->name : "none";
  return st;
}

size_t gc_law_history_size(const gc_law *law)
{
  return law->nhist;
}

void gc_law_history_init(const gc_law *law, double *h)
{
  memset(h, 0, law->nhist * sizeof *h);
}

int gc_law_linear(const gc_law *law)
{
  return (law->sub[GC_KIND_NORMAL]->flags & GC_SUB_LINEAR) != 0;
}

int gc_law_contact_time(const gc_law *law, double m_eff, double v, double *t)
{
  const gc_submodel *m = law->sub[GC_KIND_NORMAL];
  return m->contact_time ? m->contact_time(&law->pair.p, m_eff, v, t) : GC_ENOTSUP;
}

int gc_law_normal(const gc_law *law, double *h, double alpha, double alpha_dot, gc_normal *out)
{
  const gc_submodel *d = law->sub[GC_KIND_DAMPING];
  double *hn = h + law->off[GC_KIND_NORMAL];
  int st = law->sub[GC_KIND_NORMAL]->normal(&law->pair, hn, alpha, alpha_dot, out);
  if (!st && !(d->flags & GC_SUB_NONE)) {
    /* a history-driven normal sub-model keeps its header: the damping records into a copy */
    gc_hist_normal scratch, *rec = (gc_hist_normal *)hn;
    if (law->sub[GC_KIND_NORMAL]->flags & GC_SUB_HIST_DRIVEN) {
      scratch = *rec;
      rec = &scratch;
    }
    st = d->damping(&law->pair, rec, h + law->off[GC_KIND_DAMPING], alpha, alpha_dot, out);
  }
  if (!st && !gc_normal_finite(out))
    return GC_ENAN;
  return st;
}

double gc_law_overlap_limit(const gc_law *law)
{
  /* a linear spring given without a radius has no geometry to leave */
  return law->pair.R_star > 0 ? GC_ALPHA_R_MAX * law->pair.R_star : INFINITY;
}

int gc_law_overlap_check(const gc_law *law, double t, double alpha, const char *cause, char *msg,
                         size_t n)
{
  if (alpha <= gc_law_overlap_limit(law))
    return GC_SUCCESS;
  if (msg && n)
    snprintf(msg, n,
             "at t = %.6g s the overlap alpha = %.4g m is alpha/R* = %.3g, beyond the "
             "geometric validity alpha <= %g R* (R* = %.4g m) of the contact laws%s%s",
             t, alpha, alpha / law->pair.R_star, GC_ALPHA_R_MAX, law->pair.R_star,
             cause ? ": " : "", cause ? cause : "");
  return GC_EPHYS;
}

int gc_law_tangential(const gc_law *law, double *h, const gc_normal *n, double d_delta,
                      double delta_dot, double ds_roll, gc_tangential *out)
{
  gc_normal clipped;
  int st = law->sub[GC_KIND_TANGENTIAL]->tangential(&law->pair, h + law->off[GC_KIND_TANGENTIAL],
                                                    gc_friction_normal(n, &clipped), d_delta,
                                                    delta_dot, ds_roll, out);
  if (!st && !gc_tangential_finite(out))
    return GC_ENAN;
  return st;
}

int gc_law_torque(const gc_law *law, double *h, const gc_normal *no, const double nvec[3],
                  const double d_theta[3], const double w_rel[3], double M[3])
{
  double Mt[3] = { 0, 0, 0 };
  M[0] = M[1] = M[2] = 0.0;
  int st = law->sub[GC_KIND_ROLLING]->torque(&law->pair, h + law->off[GC_KIND_ROLLING], no, nvec,
                                             d_theta, w_rel, M);
  if (!st)
    st = law->sub[GC_KIND_TWISTING]->torque(&law->pair, h + law->off[GC_KIND_TWISTING], no, nvec,
                                            d_theta, w_rel, Mt);
  for (int d = 0; d < 3; d++)
    M[d] += Mt[d];
  if (!st && !isfinite(M[0] + M[1] + M[2]))
    return GC_ENAN;
  return st;
}

int gc_law_init_full(gc_law *law, const gc_preset *nfd, const gc_preset *tfd,
                     const gc_submodel *rolling, const gc_submodel *twisting, const gc_params *p,
                     char *msg, size_t n)
{
  int st = gc_law_init_preset(law, nfd, tfd, p, msg, n);
  if (st || (!rolling && !twisting))
    return st;
  const gc_submodel *sub[GC_NKINDS];
  for (int k = 0; k < GC_NKINDS; k++)
    sub[k] = law->sub[k];
  sub[GC_KIND_ROLLING] = rolling ? rolling : sub[GC_KIND_ROLLING];
  sub[GC_KIND_TWISTING] = twisting ? twisting : sub[GC_KIND_TWISTING];
  const char *nn = law->name_normal, *nt = law->name_tangential;
  st = gc_law_init(law, sub, p, msg, n);
  law->name_normal = nn;
  law->name_tangential = nt;
  return st;
}
