/* pair.c - pair contacts: geometry, the queue of contacts stepped in vector lanes, their sums (see
 * chute_int.h). */
#include "chute_int.h"

/* ---------- contact forces ---------- */

/* Rolling distance of a step for the correction of sec. 5.2 (eq. 5.2-5.5) in 3-D.  In the
 * seed's 2-D construction (a sphere on a plane, fig. 5.1) the contact area rolls by
 * ds_R = min(R w dt, v dt), 0 when the rotation opposes the rolling (MODELS.md): the traction
 * is released where the contact patch moves over the material of both bodies.  In 3-D the
 * patch moves over body k's material with the tangential velocity u_k = (v_c - v_k(c))_t,
 * v_c the velocity of the geometric contact point and v_k(c) that of body k's material there;
 * for the sphere on a plane u_plane = v and u_sphere = R w.  granucal takes
 * ds_R = dt min(|u_1|, |u_2|) cos(u_1, u_2) when the two point the same way, else 0, which
 * is the 2-D rule when both lie along one line. */
double chute_rolling_distance(const double u1[3], const double u2[3], double dt)
{
  double m1 = sqrt(dot3(u1, u1)), m2 = sqrt(dot3(u2, u2));
  if (!(m1 > 0.0) || !(m2 > 0.0))
    return 0.0;
  double cs = dot3(u1, u2) / (m1 * m2);
  return cs > 0.0 ? dt * fmin(m1, m2) * cs : 0.0;
}

void chute_tangential_part(const double v[3], const double n[3], double o[3])
{
  double vn = dot3(v, n);
  for (int e = 0; e < 3; e++)
    o[e] = v[e] - vn * n[e];
}

/* The rest of pair_force for two spheres that overlap: d = x_j - x_i (its periodic image),
 * dist2 = |d|^2 < (r_i + r_j)^2.  Not inlined into pair_force: GCC then loaded the many
 * operands of this part before the overlap test, for every pair that turns out apart. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
int chute_pair_contact(gc_chute *c, chute_work *w, size_t k, const gc_npair *pr,
                        const double d[3], double dist2, double ri, double rj,
                        contact_queue *q, int tid)
{
  const size_t i = pr->i, j = pr->j;
  const double rr = ri + rj;
  double dist = sqrt(dist2);
  if (!(dist > 0.0))
    return GC_ENAN;
  gc_contact3_lanes *b = &q->b;
  const int l = q->n;
  b->ct[l] = gc_nlist_payload_on(c->nl, k, tid);
#if defined(__GNUC__)
  /* its record is read when the queue is stepped, a few pairs on: fetched from here */
  for (size_t o = 0; o < c->rec_size; o += 64)
    __builtin_prefetch((const char *)b->ct[l] + o, 1);
#endif
  /* in locals, copied to the queue at the end: read back from the queue, a vector load of
   * numbers just stored one by one would wait for the stores to reach the cache */
  double n[3] = { d[0] / dist, d[1] / dist, d[2] / dist }; /* eq. 4.9 */
  double li[3], lj[3];
  double alpha = rr - dist;
  size_t I = (size_t)c->owner[i];
  const double *soi = w->soff + 3 * i;
  double vi[3], vj[3], tmp[3];
  double ai = ri - 0.5 * alpha, aj = rj - 0.5 * alpha;
  for (int e = 0; e < 3; e++)
    li[e] = soi[e] + ai * n[e];
  cross3(w->wsp + 3 * I, li, tmp);
  for (int e = 0; e < 3; e++)
    vi[e] = c->v[3 * I + e] + tmp[e];
  const gc_law *law;
  size_t ki = w->srk[w->lawk[i]];
  long J = c->owner[j];
  if (J >= 0) {
    const double *soj = w->soff + 3 * j;
    for (int e = 0; e < 3; e++)
      lj[e] = soj[e] - aj * n[e];
    cross3(w->wsp + 3 * J, lj, tmp);
    for (int e = 0; e < 3; e++)
      vj[e] = c->v[3 * J + e] + tmp[e];
    law = &w->law_pp[ki * w->nrad + w->srk[w->lawk[j]]];
  } else { /* a fixed bead */
    vj[0] = vj[1] = vj[2] = 0.0;
    lj[0] = lj[1] = lj[2] = 0.0;
    law = &w->law_pb[ki];
  }
  double vrel[3] = { vj[0] - vi[0], vj[1] - vi[1], vj[2] - vi[2] }, wrel[3] = { 0, 0, 0 };
  if (gc_law_rolls(law) || gc_law_twists(law))
    for (int e = 0; e < 3; e++)
      wrel[e] = w->wsp[3 * I + e] - (J >= 0 ? w->wsp[3 * J + e] : 0.0);
  double ds_roll = 0.0;
  if (c->cfg.rolling) {
    /* velocity of the contact point at r_i - alpha/2 from centre i along n: the centres'
     * velocities and the turning of n, dn/dt = (1 - n n)(v_cj - v_ci) / |d| */
    double vci[3], vcj[3] = { 0, 0, 0 }, dv[3], dvt[3], vc[3], u1[3], u2[3];
    cross3(w->wsp + 3 * I, soi, tmp);
    for (int e = 0; e < 3; e++)
      vci[e] = c->v[3 * I + e] + tmp[e];
    if (J >= 0) {
      cross3(w->wsp + 3 * J, w->soff + 3 * j, tmp);
      for (int e = 0; e < 3; e++)
        vcj[e] = c->v[3 * J + e] + tmp[e];
    }
    for (int e = 0; e < 3; e++)
      dv[e] = vcj[e] - vci[e];
    chute_tangential_part(dv, n, dvt);
    for (int e = 0; e < 3; e++) {
      vc[e] = vci[e] + ai * dvt[e] / dist;
      tmp[e] = vc[e] - vi[e];
    }
    chute_tangential_part(tmp, n, u1);
    for (int e = 0; e < 3; e++)
      tmp[e] = vc[e] - vj[e];
    chute_tangential_part(tmp, n, u2);
    ds_roll = chute_rolling_distance(u1, u2, c->cfg.dt);
  }
  b->law[l] = law;
  b->alpha[l] = alpha;
  b->ds_roll[l] = ds_roll;
  memcpy(b->nvec[l], n, sizeof n);
  memcpy(b->vrel[l], vrel, sizeof vrel);
  memcpy(b->wrel[l], wrel, sizeof wrel);
  memcpy(q->li[l], li, sizeof li);
  memcpy(q->lj[l], lj, sizeof lj);
  q->k[l] = k;
  q->I[l] = I;
  q->J[l] = J;
  if (++q->n == GC_CONTACT3_LANES)
    chute_contact_flush(c, w, q);
  return GC_SUCCESS;
}

/* Steps the queued contacts (gc_contact3_step_lanes) and finishes each in queue order: hist[k],
 * its work into q->ce, a non-finite one into *q->bad_pair; one that carries a force sets
 * PACT_FORCE in pact[k], and its force on i, torque on owner(i) and on owner(j) go into the
 * sums acc of its particles that move in the walk, in pair order, and into its slot pf only
 * if one of them gathers after the barrier (none on one thread). */
void chute_contact_flush(gc_chute *c, chute_work *w, contact_queue *q)
{
  if (q->n == 0)
    return;
  gc_contact3_lanes *b = &q->b;
  gc_contact3_step_lanes(b, q->n, c->cfg.dt, c->cfg.keep_history);
  for (int l = 0; l < q->n; l++) {
    const size_t k = q->k[l];
    const gc_chute_contact *ct = b->ct[l];
    w->hist[k] = ct->h[0] != 0.0 || ct->alpha != 0.0; /* the normal header's alpha */
    const long J = q->J[l];
    const int bead = J < 0;
    q->ce[bead ? CEN_BN : CEN_PN] += b->work[l][0];
    q->ce[bead ? CEN_BT : CEN_PT] += b->work[l][1];
    if (b->status[l]) {
      if ((long)k < *q->bad_pair)
        *q->bad_pair = (long)k;
      continue;
    }
    if (!b->active[l])
      continue;
    /* the force on i, the torques on i's and j's particles, in locals (an array written one
     * by one and read back as vectors by add_pair waited for its stores) */
    const double F[3] = { b->F[l][0], b->F[l][1], b->F[l][2] }, *M = b->M[l];
    const double mF[3] = { -F[0], -F[1], -F[2] };
    double ti[3], tj[3];
    cross3(q->li[l], F, ti);
    cross3(q->lj[l], mF, tj);
    if (M[0] != 0.0 || M[1] != 0.0 || M[2] != 0.0) /* the rolling / twisting couple */
      for (int e = 0; e < 3; e++) {
        ti[e] += M[e];
        tj[e] -= M[e];
      }
    w->pact[k] = PACT_FORCE;
    const size_t I = q->I[l];
    int slot = 0;
    if (moves_in_walk(w, I, q->m0, q->m1))
      add_pair_parts(F, ti, 1, w->acc + 6 * I, w->acc + 6 * I + 3);
    else
      slot = 1;
    if (J >= 0 && moves_in_walk(w, (size_t)J, q->m0, q->m1))
      add_pair_parts(F, tj, 0, w->acc + 6 * J, w->acc + 6 * J + 3);
    else if (J >= 0)
      slot = 1;
    if (slot) {
      double *pf = w->pf + 9 * k;
      memcpy(pf, F, sizeof F);
      memcpy(pf + 3, ti, sizeof ti);
      memcpy(pf + 6, tj, sizeof tj);
    }
  }
  q->n = 0;
}
