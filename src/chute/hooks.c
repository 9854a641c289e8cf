/* hooks.c - self-checks for the tests (chute_hooks.h) (see chute_int.h). */
#include "chute_int.h"

int gc_chute_check_past_skin(const gc_chute *c)
{
  const chute_work *w = c->work;
  return gc_nlist_needs_rebuild_shifted(c->nl, c->sx, c->fixed, w->drift);
}

size_t gc_chute_check_list_complete(const gc_chute *c)
{
  const size_t ns = c->ns, nps = c->np * c->nsph;
  unsigned char *listed = calloc(ns + 1, 1);
  if (!listed)
    return SIZE_MAX;
  const gc_npair *pairs = gc_nlist_pairs(c->nl);
  gc_nlist_frame fr; /* its minimum image along the periodic axes, no shift */
  gc_nlist_get_frame(c->nl, &fr);
  size_t missing = 0;
  for (size_t i = 0; i < nps; i++) {
    const uint32_t *idx;
    size_t n;
    gc_nlist_sphere_pairs(c->nl, i, &idx, &n);
    for (size_t a = 0; a < n; a++)
      listed[pairs[idx[a]].i == i ? pairs[idx[a]].j : pairs[idx[a]].i] = 1;
    for (size_t j = 0; j < ns; j++) {
      if ((j < nps && (j <= i || c->owner[j] == c->owner[i])) || listed[j])
        continue; /* each pair of particle spheres once */
      const double rr = c->sr[i] + c->sr[j];
      missing += gc_nlist_frame_moved2(&fr, c->sx + 3 * j, c->sx + 3 * i) < rr * rr;
    }
    for (size_t a = 0; a < n; a++)
      listed[pairs[idx[a]].i == i ? pairs[idx[a]].j : pairs[idx[a]].i] = 0;
  }
  free(listed);
  return missing;
}

size_t gc_chute_check_wall_flags(const gc_chute *c)
{
  const chute_work *w = c->work;
  const size_t nps = c->np * c->nsph;
  size_t bad = 0;
  for (size_t i = 0; i < nps; i++)
    for (size_t k = 0; k < w->nwall_per; k++)
      bad += w->wact[w->nwall_per * i + k] != chute_wall_flag(c, w, i, k);
  return bad;
}

/* The listed pairs' self-checks at sphere positions sx (chute.h): into *records (if not NULL)
 * gc_chute_check_pair_records' count, into *bounds (if not NULL) gc_chute_check_skip_bounds'. */
static void check_pairs(const gc_chute *c, const double *sx, size_t *records, size_t *bounds)
{
  const chute_work *w = c->work;
  const size_t npr = gc_nlist_npairs(c->nl);
  const gc_npair *pairs = gc_nlist_pairs(c->nl);
  double L[3];
  gc_nlist_periods(c->nl, L);
  for (size_t k = 0; k < npr; k++) {
    const gc_npair *pr = &pairs[k];
    double d[3];
    const double rr = c->sr[pr->i] + c->sr[pr->j], dist2 = pair_separation(sx, pr, L, d);
    if (bounds) /* the gap the skip test assumes at most closed */
      *bounds += !(sqrt(dist2) - rr >= w->apart_until[k] - (w->path[pr->i] + w->path[pr->j]));
    if (!records)
      continue;
    const gc_chute_contact *ct = gc_nlist_payload_const(c->nl, k);
    /* what a step would have to reset: the whole record, or with keep_history its force and
     * overlap only (the history block stays) */
    const int forced =
        ct->P != 0.0 || ct->alpha != 0.0 || ct->Q[0] != 0.0 || ct->Q[1] != 0.0 || ct->Q[2] != 0.0;
    const int to_reset = c->cfg.keep_history
                             ? forced
                             : chute_record_used(ct, (const gc_hist_normal *)ct->h) || forced;
    /* the overlap as pair_force and pair_contact form it */
    const double alpha = dist2 < rr * rr ? rr - sqrt(dist2) : 0.0;
    if (alpha > 0.0)
      *records += ct->alpha != alpha || !w->hist[k];
    else
      *records += to_reset || w->hist[k]; /* reset, and so flagged */
  }
}

size_t gc_chute_check_pair_records(const gc_chute *c, const double *sx_prev)
{
  size_t bad = 0;
  check_pairs(c, sx_prev, &bad, NULL);
  return bad;
}

size_t gc_chute_check_skip_bounds(const gc_chute *c)
{
  size_t bad = 0;
  check_pairs(c, c->sx, NULL, &bad);
  return bad;
}
