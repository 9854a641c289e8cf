/* law.c - pairing of a normal and a tangential model into a contact law. */
#include "gc_model.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int gc_law_init(gc_law *law, const gc_model *nfd, const gc_model *tfd, const gc_params *p,
                char *msg, size_t n)
{
  memset(law, 0, sizeof *law);
  if (!nfd || !(nfd->flags & GC_MODEL_NORMAL)) {
    snprintf(msg, n, "model '%s' has no normal force-displacement part", nfd ? nfd->name : "(none)");
    return GC_EINVAL;
  }
  if (tfd && !(tfd->flags & GC_MODEL_TANGENTIAL)) {
    snprintf(msg, n, "model '%s' has no tangential force-displacement part", tfd->name);
    return GC_EINVAL;
  }
  if (!(p->kt_ratio >= 0) || !isfinite(p->kt_ratio)) {
    snprintf(msg, n, "kt_ratio = %g out of range [0, inf) (0: derived from nu)", p->kt_ratio);
    return GC_EINVAL;
  }
  int st = nfd->check(p, msg, n);
  if (!st && tfd && tfd != nfd)
    st = tfd->check(p, msg, n);
  if (st)
    return st;
  law->nfd = nfd;
  law->tfd = tfd;
  /* Linear models have no elastic constants: only fill the Hertz ones when they are valid. */
  if (p->E1 > 0 && p->R1 > 0) {
    st = gc_pair_setup(&law->pair, p, msg, n);
    if (st)
      return st;
  } else {
    law->pair.p = *p;
  }
  if (nfd->setup && (st = nfd->setup(&law->pair, msg, n)))
    return st;
  if (tfd && tfd != nfd && tfd->setup && (st = tfd->setup(&law->pair, msg, n)))
    return st;
  return GC_SUCCESS;
}

int gc_law_normal(const gc_law *law, gc_state *s, double alpha, double alpha_dot, gc_normal *out)
{
  int st = law->nfd->normal_step(&law->pair, s, alpha, alpha_dot, out);
  if (!st && !(isfinite(out->P) && isfinite(out->a) && isfinite(out->k_t0)))
    return GC_ENAN;
  return st;
}

int gc_law_tangential(const gc_law *law, gc_state *s, const gc_normal *n, double d_delta,
                      double delta_dot, double ds_roll, gc_tangential *out)
{
  if (!law->tfd) {
    memset(out, 0, sizeof *out);
    s->delta += d_delta;
    out->delta = s->delta;
    return GC_SUCCESS;
  }
  int st = law->tfd->tangential_step(&law->pair, s, n, d_delta, delta_dot, ds_roll, out);
  if (!st && !(isfinite(out->Q) && isfinite(out->K_T)))
    return GC_ENAN;
  return st;
}
