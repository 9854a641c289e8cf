/* walls.c - contacts with the side walls and the flat bottom (see chute_int.h). */
#include "chute_int.h"

/* The law of wall record k (0, 1: the side walls z = 0 and z = width; 2: the flat bottom) of
 * a sphere of radius index ki. */
const gc_law *chute_wall_law(const chute_work *w, size_t ki, size_t k)
{
  return k < 2 ? &w->law_pw[ki] : &w->law_pb[ki];
}

/* The flag wact holds for wall record k of particle sphere i: record_used of the record */
unsigned char chute_wall_flag(const gc_chute *c, const chute_work *w, size_t i, size_t k)
{
  gc_chute_contact *ct = gc_chute_wall(c, w->nwall_per * i + k);
  return chute_record_used(ct, gc_law_hist_normal(chute_wall_law(w, w->srk[w->lawk[i]], k), ct->h));
}

/* wact from the records (after placement or a checkpoint read) */
void chute_mark_walls(gc_chute *c, chute_work *w)
{
  const size_t nps = c->np * c->nsph;
  for (size_t i = 0; i < nps; i++)
    for (size_t k = 0; k < w->nwall_per; k++)
      w->wact[w->nwall_per * i + k] = chute_wall_flag(c, w, i, k);
}

/* The overlaps of a particle sphere (centre s, radius r) with the walls of its records, into
 * alphas: 0, 1 the side walls z = 0 (overlap r - z) and z = width (r - (width - z)), 2 the
 * flat bottom y = 0 (r - y), whose record keeps its slot [3 i + 2] even without side walls;
 * -1 for a wall the chute does not have (its record stays virgin).  Returns the number of
 * records to look at: 3 with a flat bottom, else 2 with side walls, else 0.  The one
 * statement of the overlaps for wall_forces and walls_apart, which must agree. */
static size_t wall_overlaps(const gc_chute_cfg *cfg, const double s[3], double r, double alphas[3])
{
  alphas[0] = cfg->side_walls ? r - s[2] : -1.0;
  alphas[1] = cfg->side_walls ? r - (cfg->width - s[2]) : -1.0;
  alphas[2] = cfg->bottom == GC_BOTTOM_FLAT ? r - s[1] : -1.0;
  return cfg->bottom == GC_BOTTOM_FLAT ? 3 : cfg->side_walls ? 2 : 0;
}

/* Wall / flat-bottom contacts of particle sphere i (particle p): adds force and torque. */
int chute_wall_forces(gc_chute *c, chute_work *w, size_t p, size_t i, double F[3], double T[3],
                      double *pen)
{
  const gc_chute_cfg *cfg = &c->cfg;
  const double *so = w->soff + 3 * i;
  const double r = c->sr[i];
  /* normals from the sphere to the walls of the records (see wall_overlaps) */
  static const double nn[3][3] = { { 0, 0, -1 }, { 0, 0, 1 }, { 0, -1, 0 } };
  double alphas[3];
  const size_t nw = wall_overlaps(cfg, c->sx + 3 * i, r, alphas);
  const size_t ki = w->srk[w->lawk[i]];
  for (size_t k = 0; k < nw; k++) {
    const size_t rk = w->nwall_per * i + k;
    if (!(alphas[k] > 0.0) && !w->wact[rk])
      continue; /* apart, a virgin record */
    const gc_law *law = chute_wall_law(w, ki, k);
    gc_chute_contact *ct = gc_chute_wall(c, rk);
    const gc_hist_normal *hk = gc_law_hist_normal(law, ct->h);
    if (!(alphas[k] > 0.0) && ct->P == 0.0 && ct->alpha == 0.0 &&
        (cfg->keep_history ? alphas[k] > -cfg->skin || hk->in_contact == 0.0
                           : hk->in_contact == 0.0 && hk->alpha == 0.0))
      continue; /* apart, nothing to reset */
    double lev[3], vi[3], tmp[3], vrel[3], f[3];
    double a = r - 0.5 * alphas[k];
    for (int e = 0; e < 3; e++)
      lev[e] = so[e] + a * nn[k][e];
    cross3(w->wsp + 3 * p, lev, tmp);
    for (int e = 0; e < 3; e++) {
      vi[e] = c->v[3 * p + e] + tmp[e];
      vrel[e] = -vi[e]; /* the wall is at rest */
    }
    double ds_roll = 0.0;
    if (cfg->rolling) {
      /* a plane: the contact point moves with the sphere centre (tangentially) */
      double vc[3], u1[3], u2[3];
      cross3(w->wsp + 3 * p, so, tmp);
      for (int e = 0; e < 3; e++)
        vc[e] = c->v[3 * p + e] + tmp[e];
      chute_tangential_part(vc, nn[k], u2);
      for (int e = 0; e < 3; e++)
        tmp[e] = vc[e] - vi[e];
      chute_tangential_part(tmp, nn[k], u1);
      ds_roll = chute_rolling_distance(u1, u2, cfg->dt);
    }
    /* history at separation: a wall record has no list; it keeps its state while the sphere
     * is within the skin of the wall */
    int keep = cfg->keep_history && alphas[k] > -cfg->skin;
    int active;
    double work[2], mc[3]; /* the wall is at rest: w_1 - w_2 = w_p */
    int st = gc_contact3_step(law, ct, alphas[k], nn[k], vrel, w->wsp + 3 * p, cfg->dt, ds_roll,
                              keep, f, mc, &active, work);
    w->wact[rk] = chute_record_used(ct, hk);
    if (st)
      return st;
    pen[k < 2 ? PEN_WN : PEN_BN] += work[0];
    pen[k < 2 ? PEN_WT : PEN_BT] += work[1];
    if (active) {
      double tq[3];
      cross3(lev, f, tq);
      for (int e = 0; e < 3; e++) {
        F[e] += f[e];
        T[e] += tq[e] + mc[e];
      }
    }
  }
  return GC_SUCCESS;
}

/* 1 if no sphere of particle p has a wall within reach (wall_overlaps) or a wall record to
 * reset, so that wall_forces would pass over every record of every sphere.  Tested for the
 * whole particle first, since most particles are far from the walls: its records (contiguous
 * in wact) eight at a time (an OR over the bytes, 12 for the soybean, was 34 instructions more
 * per particle-step and 1.08x the dilute one-thread step), then its centre against wall_clear;
 * only a particle near a wall has its spheres' overlaps computed (the same numbers that
 * wall_forces computes). */
int chute_walls_apart(const gc_chute *c, const chute_work *w, size_t p)
{
  const size_t nsph = c->nsph, nrec = w->nwall_per * nsph;
  const unsigned char *wa = w->wact + nrec * p;
  size_t k = 0;
  for (; k + 8 <= nrec; k += 8) {
    uint64_t used;
    memcpy(&used, wa + k, sizeof used);
    if (used)
      return 0;
  }
  for (; k < nrec; k++)
    if (wa[k])
      return 0;
  /* the centre as a sphere of radius wall_clear clear of every wall (overlaps below 0; -1 for
   * a wall the chute does not have): no sphere overlaps one either (a NaN goes on to the
   * spheres' test) */
  const gc_chute_cfg *cfg = &c->cfg;
  double a[3];
  wall_overlaps(cfg, c->x + 3 * p, w->wall_clear, a);
  if (a[0] < 0.0 && a[1] < 0.0 && a[2] < 0.0)
    return 1;
  const double *s = c->sx + 3 * nsph * p, *r = c->sr + nsph * p;
  for (k = 0; k < nsph; k++) {
    wall_overlaps(cfg, s + 3 * k, r[k], a);
    if (a[0] > 0.0 || a[1] > 0.0 || a[2] > 0.0)
      return 0;
  }
  return 1;
}
