/* ledger.c - the energy ledger and the diagnostics of a state (see chute_int.h). */
#include "chute_int.h"

/* The step's work into the energy budget: the chunks' sums (each in pair / particle order)
 * added serially in chunk order, so that it does not depend on the thread count. */
void chute_energy_sum(gc_chute *c, const chute_work *w, size_t nchunk)
{
  gc_chute_energy *e = &c->energy;
  for (size_t b = 0; b < nchunk; b++) {
    const double *ce = w->cpe + CEN_N * b;
    e->normal[GC_CAT_PP] += ce[CEN_PN];
    e->tangential[GC_CAT_PP] += ce[CEN_PT];
    e->normal[GC_CAT_BOTTOM] += ce[CEN_BN];
    e->tangential[GC_CAT_BOTTOM] += ce[CEN_BT];
  }
  for (size_t b = 0; b < nchunk; b++) {
    const double *pen = w->cpp + PEN_N * b;
    e->normal[GC_CAT_WALL] += pen[PEN_WN];
    e->tangential[GC_CAT_WALL] += pen[PEN_WT];
    e->normal[GC_CAT_BOTTOM] += pen[PEN_BN];
    e->tangential[GC_CAT_BOTTOM] += pen[PEN_BT];
    e->gravity += pen[PEN_G];
  }
}

/* ---------- diagnostics ---------- */

void gc_chute_stats_get(const gc_chute *c, gc_chute_stats *st)
{
  const chute_work *w = c->work;
  memset(st, 0, sizeof *st);
  st->t = c->t;
  const double m = c->cfg.shape.mass, *I = c->cfg.shape.inertia;
  double ekt = 0, ekr = 0;
  for (size_t p = 0; p < c->np; p++) {
    const double *v = c->v + 3 * p, *om = c->rot[p].w;
    for (int d = 0; d < 3; d++) {
      st->v_mean[d] += v[d];
      st->momentum[d] += m * v[d];
      ekt += 0.5 * m * v[d] * v[d];
      ekr += 0.5 * I[d] * om[d] * om[d];
    }
  }
  for (int d = 0; d < 3; d++)
    st->v_mean[d] /= (double)c->np;
  st->kinetic = ekt + ekr;
  st->kinetic_rot = ekr;
  size_t npr = gc_nlist_npairs(c->nl);
  const gc_npair *pairs = gc_nlist_pairs(c->nl);
  const double *rad = c->cfg.shape.radius;
  for (size_t k = 0; k < npr; k++) {
    const gc_chute_contact *ct = gc_nlist_payload_const(c->nl, k);
    const gc_npair *pr = &pairs[k];
    if (ct->P > 0) {
      st->n_contacts++;
      if (c->owner[pr->j] >= 0)
        st->n_contacts_pp++;
      if (ct->P > st->P_max)
        st->P_max = ct->P;
    }
    if (ct->alpha > 0) {
      double ri = rad[pr->i % c->nsph];
      double rj = c->owner[pr->j] >= 0 ? rad[pr->j % c->nsph] : c->cfg.bead_radius;
      double Rs = ri * rj / (ri + rj);
      if (!(ct->alpha / Rs <= st->overlap_ratio)) {
        st->overlap_ratio = ct->alpha / Rs;
        st->overlap_alpha = ct->alpha;
        st->overlap_R_star = Rs;
        st->overlap_particle = c->id[c->owner[pr->i]];
      }
    }
  }
  size_t nw = w->nwall_per * c->np * c->nsph;
  for (size_t k = 0; k < nw; k++) {
    const gc_chute_contact *ct = gc_chute_wall(c, k);
    double P = ct->P;
    if (P > 0) {
      st->n_contacts++;
      if (P > st->P_max)
        st->P_max = P;
    }
    size_t sph = k / w->nwall_per; /* wall record nwall_per sphere + kind */
    if (ct->alpha > 0 && !(ct->alpha / rad[sph % c->nsph] <= st->overlap_ratio)) {
      st->overlap_ratio = ct->alpha / rad[sph % c->nsph];
      st->overlap_alpha = ct->alpha;
      st->overlap_R_star = rad[sph % c->nsph];
      st->overlap_particle = c->id[c->owner[sph]];
    }
  }
}

/* Elastic energy of one contact (see chute.h): its state unloaded in 32 steps on a copy. */
static void stored_one(const gc_law *law, const gc_chute_contact *ct, double *en, double *et)
{
  if (!(ct->alpha > 0.0) || !(ct->P > 0.0))
    return;
  enum { NU = 32 };
  double h[GC_HIST_MAX];
  if (law->nhist > GC_HIST_MAX)
    return;
  memcpy(h, ct->h, law->nhist * sizeof *h);
  gc_normal no;
  /* the current point again (rate 0: no viscous part), for K_T0 */
  if (gc_law_normal(law, h, ct->alpha, 0.0, &no))
    return;
  double Pk = no.P, sum = 0.0;
  if (gc_law_frictional(law) && no.k_t0 > 0.0)
    *et += dot3(ct->Q, ct->Q) / (2.0 * no.k_t0);
  for (int k = 1; k <= NU && Pk > 0.0; k++) {
    double a = ct->alpha * (double)(NU - k) / NU, P = 0.0;
    if (a > 0.0) {
      if (gc_law_normal(law, h, a, 0.0, &no))
        break;
      P = no.P;
    }
    sum += 0.5 * (Pk + P) * (ct->alpha / NU);
    Pk = P;
  }
  *en += sum;
}

void gc_chute_energy_stored(const gc_chute *c, double normal[GC_NCAT], double tangential[GC_NCAT])
{
  const chute_work *w = c->work;
  for (int k = 0; k < GC_NCAT; k++)
    normal[k] = tangential[k] = 0.0;
  size_t npr = gc_nlist_npairs(c->nl);
  const gc_npair *pairs = gc_nlist_pairs(c->nl);
  for (size_t k = 0; k < npr; k++) {
    const gc_chute_contact *ct = gc_nlist_payload_const(c->nl, k);
    if (!(ct->P > 0.0))
      continue;
    size_t i = pairs[k].i, j = pairs[k].j;
    size_t ki = w->srk[w->lawk[i]];
    int cat = c->owner[j] >= 0 ? GC_CAT_PP : GC_CAT_BOTTOM;
    const gc_law *law =
        cat == GC_CAT_PP ? &w->law_pp[ki * w->nrad + w->srk[w->lawk[j]]] : &w->law_pb[ki];
    stored_one(law, ct, &normal[cat], &tangential[cat]);
  }
  size_t nps = c->np * c->nsph;
  for (size_t i = 0; i < nps; i++)
    for (size_t r = 0; r < w->nwall_per; r++) {
      const gc_chute_contact *ct = gc_chute_wall(c, w->nwall_per * i + r);
      if (!(ct->P > 0.0))
        continue;
      size_t ki = w->srk[w->lawk[i]];
      int cat = r < 2 ? GC_CAT_WALL : GC_CAT_BOTTOM;
      stored_one(chute_wall_law(w, ki, r), ct, &normal[cat], &tangential[cat]);
    }
}

size_t gc_chute_contact_forces(const gc_chute *c, double *P, size_t cap)
{
  const chute_work *w = c->work;
  size_t cnt = 0;
  size_t npr = gc_nlist_npairs(c->nl);
  for (size_t k = 0; k < npr; k++) {
    const gc_chute_contact *ct = gc_nlist_payload_const(c->nl, k);
    if (ct->P > 0) {
      if (cnt < cap)
        P[cnt] = ct->P;
      cnt++;
    }
  }
  size_t nw = w->nwall_per * c->np * c->nsph;
  for (size_t k = 0; k < nw; k++)
    if (gc_chute_wall(c, k)->P > 0) {
      if (cnt < cap)
        P[cnt] = gc_chute_wall(c, k)->P;
      cnt++;
    }
  return cnt;
}

void gc_chute_point_velocity(const gc_chute *c, size_t k, const double p[3], double v[3])
{
  const chute_work *w = c->work;
  double r[3], om[3], tmp[3];
  for (int d = 0; d < 3; d++) {
    r[d] = p[d] - c->x[3 * k + d];
    if (w->box.periodic[d]) {
      double L = w->box.hi[d];
      r[d] -= L * round(r[d] / L);
    }
  }
  gc_rot_omega_space(&c->rot[k], om);
  cross3(om, r, tmp);
  for (int d = 0; d < 3; d++)
    v[d] = c->v[3 * k + d] + tmp[d];
}
