/* integrate.c - integration: the sums of a particle's forces and the leap-frog update in lanes (see
 * chute_int.h). */
#include "chute_int.h"

/* The pair forces and torques on particle p in pair order (the order of the walk's sums in
 * acc), F, T zero on entry: the pairs of its spheres' lists that carry a force (PACT_FORCE),
 * put in pair order by insertion into fq, fside (room for all of p's pairs: gcap).  Where
 * the flow is dilute few pairs carry a force (~1 of the 27 pairs of a soybean cluster at
 * 7 s), and this took half the time of the merge of the spheres' lists by pair index that it
 * replaced (the same order: a pair is in one list of p unless both its spheres are p's, and
 * then its second entry goes after its first, as the merge took the lower sphere first). */
void chute_gather_pairs(const gc_chute *c, const chute_work *w, size_t p, uint32_t *fq,
                        unsigned char *fside, double F[3], double T[3])
{
  const size_t nsph = c->nsph;
  size_t nf = 0;
  for (size_t k = 0; k < nsph; k++) {
    const uint32_t *idx;
    size_t n;
    gc_nlist_sphere_pairs(c->nl, p * nsph + k, &idx, &n);
    const unsigned char *side = gc_nlist_sphere_sides(c->nl, p * nsph + k);
    for (size_t a = 0; a < n; a++) {
      const uint32_t q = idx[a];
      if (!(w->pact[q] & PACT_FORCE))
        continue;
      size_t b = nf++;
      for (; b > 0 && fq[b - 1] > q; b--) {
        fq[b] = fq[b - 1];
        fside[b] = fside[b - 1];
      }
      fq[b] = q;
      fside[b] = side[a];
    }
  }
  for (size_t b = 0; b < nf; b++)
    add_pair(w->pf + 9 * (size_t)fq[b], fside[b], F, T);
}

/* The first part of step 3 for particle p: its pair forces summed in pair order (early: by
 * the walk, in acc; else gathered from pf in the same order, in the room fq, fside of
 * gather_pairs), then the wall contacts of its spheres, into F, T and c->force, c->torque (its
 * work into pen).  Returns nonzero on a non-finite force or torque. */
static int particle_forces(gc_chute *c, chute_work *w, size_t p, int early, uint32_t *fq,
                           unsigned char *fside, double F[3], double T[3])
{
  const size_t nsph = c->nsph;
  double *pen = w->pen + PEN_N * p;
  int fail = 0;
  for (int e = 0; e < PEN_N; e++)
    pen[e] = 0.0;
  for (int e = 0; e < 3; e++)
    F[e] = T[e] = 0.0;
  if (early) {
    const double *a = w->acc + 6 * p;
    F[0] = a[0], F[1] = a[1], F[2] = a[2];
    T[0] = a[3], T[1] = a[4], T[2] = a[5];
  } else {
    chute_gather_pairs(c, w, p, fq, fside, F, T);
  }
  if (!chute_walls_apart(c, w, p))
    for (size_t k = 0; k < nsph; k++)
      if (chute_wall_forces(c, w, p, p * nsph + k, F, T, pen))
        fail = 1;
  for (int e = 0; e < 3; e++) {
    c->force[3 * p + e] = F[e];
    c->torque[3 * p + e] = T[e];
    if (!isfinite(F[e]) || !isfinite(T[e]))
      fail = 1;
  }
  return fail;
}

/* Wrap particle p's centre into [0, length) (and z without side walls); its spheres keep their
 * images (simg).  Returns nonzero on a non-finite position or velocity. */
static int wrap_particle(gc_chute *c, chute_work *w, size_t p)
{
  const size_t nsph = c->nsph;
  double *x = c->x + 3 * p, *v = c->v + 3 * p;
  double *sm = w->simg + 3 * p * nsph;
  for (int d = 0; d < 3; d += 2) {
    if (!w->box.periodic[d])
      continue;
    double L = w->box.hi[d];
    double xn = chute_wrap(x[d], L);
    if (xn != x[d]) {
      double sh = x[d] - xn;
      for (size_t k = 0; k < nsph; k++)
        sm[3 * k + d] += sh;
      x[d] = xn;
    }
  }
  return !isfinite(x[0]) || !isfinite(x[1]) || !isfinite(x[2]) || !isfinite(v[0]) ||
         !isfinite(v[1]) || !isfinite(v[2]);
}

/* move_lanes' leap-frog, gravity work and rotation over the lanes; isotropic (the shape's
 * moments are equal) and damped (local damping ld > 0) are constants where this is inlined.
 * WS: the angular velocities in space axes at t_{n-1/2}, replaced by those at t_{n+1/2}. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
lanes_step(const double I[3], const double g[3], double mass, double dt, double ld,
           double F[3][LANES], double T[3][LANES], double X[3][LANES], double V[3][LANES],
           double Q[4][LANES], double W[3][LANES], double DW[3][LANES], double WS[3][LANES],
           double PG[LANES], const int isotropic, const int damped)
{
  for (int l = 0; l < LANES; l++) {
    double vsum = 0.0; /* g . (v_{n-1/2} + v_{n+1/2}) for the gravity work */
    double Tl[3] = { T[0][l], T[1][l], T[2][l] };
    for (int e = 0; e < 3; e++) {
      double *v = &V[e][l];
      if (damped) {
        /* Cundall's local damping (seed 004, Cundall & Hart 1992), numerical: each component
         * of the resultant force (contacts + gravity) and of the torque (space axes) loses
         * ld |F_k| against the sign of the velocity component at t_{n-1/2} */
        double Fr = F[e][l] + mass * g[e];
        Fr -= ld * fabs(Fr) * (*v > 0 ? 1.0 : *v < 0 ? -1.0 : 0.0);
        vsum += g[e] * *v;
        *v += Fr / mass * dt;
        vsum += g[e] * *v;
        Tl[e] -= ld * fabs(Tl[e]) * (WS[e][l] > 0 ? 1.0 : WS[e][l] < 0 ? -1.0 : 0.0);
      } else {
        /* leap-frog (sec. 2.1): v_{n+1/2} = v_{n-1/2} + (F/m + g) dt */
        vsum += g[e] * *v;
        *v += (F[e][l] / mass + g[e]) * dt;
        vsum += g[e] * *v;
      }
      X[e][l] += *v * dt; /* x_{n+1} = x_n + v_{n+1/2} dt */
    }
    PG[l] = 0.5 * mass * dt * vsum;
    /* rotation (eq. 2.14-2.28): torque in body axes M = R(q_n)^T T */
    double Mq[9], Mb[3];
    gc_rot r = { { Q[0][l], Q[1][l], Q[2][l], Q[3][l] },
                 { W[0][l], W[1][l], W[2][l] },
                 { DW[0][l], DW[1][l], DW[2][l] } };
    gc_quat_to_matrix(r.q, Mq);
    matTvec(Mq, Tl, Mb);
    gc_rot_step_body(I, Mb, dt, &r, isotropic);
    double ws[3];
    gc_rot_omega_space(&r, ws); /* for the next step's contacts */
    for (int e = 0; e < 4; e++)
      Q[e][l] = r.q[e];
    for (int e = 0; e < 3; e++) {
      W[e][l] = r.w[e];
      DW[e][l] = r.dw[e];
      WS[e][l] = ws[e];
    }
  }
}

/* The new sphere positions (soff, sx) of the n particles pl of a lane set (bad: left as they
 * were) from their orientations Q and their wrapped positions (xp: each one's x), four lanes
 * side by side as in particle_spheres, operation for operation. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
lanes_spheres(gc_chute *c, chute_work *w, const size_t pl[LANES], int n, const int bad[LANES],
              const double (*Q)[LANES], const double *const xp[LANES])
{
  const size_t nsph = c->nsph;
  double R[9][LANES];
  for (int l = 0; l < LANES; l++) {
    double Rl[9];
    const double ql[4] = { Q[0][l], Q[1][l], Q[2][l], Q[3][l] };
    gc_quat_to_matrix(ql, Rl);
    for (int e = 0; e < 9; e++)
      R[e][l] = Rl[e];
  }
  GC_LANE_ALIGN double X[3][LANES]; /* the wrapped positions */
  for (int e = 0; e < 3; e++)
    lane_row(X[e], xp[0][e], xp[1][e], xp[2][e], xp[3][e]);
  for (size_t k = 0; k < nsph; k++) {
    const double *pos = c->cfg.shape.pos[k];
    GC_LANE_ALIGN double SM[3][LANES];
    double O[3][LANES], S[3][LANES];
    const double *sm[LANES];
    for (int l = 0; l < LANES; l++)
      sm[l] = w->simg + 3 * (pl[l] * nsph + k);
    for (int e = 0; e < 3; e++)
      lane_row(SM[e], sm[0][e], sm[1][e], sm[2][e], sm[3][e]);
    for (int l = 0; l < LANES; l++) {
      const double Rl[9] = { R[0][l], R[1][l], R[2][l], R[3][l], R[4][l],
                             R[5][l], R[6][l], R[7][l], R[8][l] };
      const double xl[3] = { X[0][l], X[1][l], X[2][l] };
      const double sml[3] = { SM[0][l], SM[1][l], SM[2][l] };
      double o[3], sk[3];
      sphere_position(Rl, pos, xl, sml, o, sk);
      O[0][l] = o[0], O[1][l] = o[1], O[2][l] = o[2];
      S[0][l] = sk[0], S[1][l] = sk[1], S[2][l] = sk[2];
    }
    for (int l = 0; l < n; l++) {
      if (bad[l])
        continue;
      const size_t i = pl[l] * nsph + k;
      for (int e = 0; e < 3; e++) {
        w->soff[3 * i + e] = O[e][l];
        c->sx[3 * i + e] = S[e][l];
      }
    }
  }
}

/* The path bounds of the n particles pl of a lane set (velocities V, angular velocities W)
 * grown by the step, and into M2 the squared displacement in the list's frame fr of those
 * whose bound in the drift frame reached q->reach (0 for the others; INFINITY for all before
 * the first build). */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
lanes_paths(gc_chute *c, chute_work *w, const gc_nlist_frame *fr, const lanes *q,
            const size_t pl[LANES], int n, const double (*V)[LANES], const double (*W)[LANES],
            double M2[LANES])
{
  const size_t nsph = c->nsph;
  const double dt = c->cfg.dt;
  if (fr->x0) {
    /* the path bound of each sphere grows by the step's (its particle's, path_step), and
     * that in the drift frame (rpath) by the step's with v - drift_v */
    double D[LANES], RD[LANES];
    const double *u = w->drift_v;
    for (int l = 0; l < LANES; l++) {
      const double v2 = V[0][l] * V[0][l] + V[1][l] * V[1][l] + V[2][l] * V[2][l];
      const double w2 = W[0][l] * W[0][l] + W[1][l] * W[1][l] + W[2][l] * W[2][l];
      const double r0 = V[0][l] - u[0], r1 = V[1][l] - u[1], r2 = V[2][l] - u[2];
      D[l] = path_step(sqrt(v2), sqrt(w2), w->pmax, dt, w->path_eps);
      RD[l] = path_step(sqrt(r0 * r0 + r1 * r1 + r2 * r2), sqrt(w2), w->pmax, dt, w->path_eps);
    }
    /* the rebuild criterion (the largest displacement from the build in the drift frame, in
     * M2) needs only the particles whose bound rpath has reached q->reach: the others have
     * not moved that far, and their computed displacement stays below it by far more than its
     * rounding (the bound holds a 1e-9 relative allowance, q->reach another 1e-6) */
    for (int l = 0; l < n; l++) {
      double *pp = w->path + pl[l] * nsph;
      const double pn = pp[0] + D[l];
      for (size_t k = 0; k < nsph; k++)
        pp[k] = pn;
      const double rp = w->rpath[pl[l]] + RD[l];
      w->rpath[pl[l]] = rp;
      if (!(rp < q->reach))
        M2[l] = gc_nlist_frame_moved(fr, c->sx, pl[l] * nsph, (pl[l] + 1) * nsph, NULL);
    }
  } else { /* no list built: every displacement is infinite */
    for (int l = 0; l < LANES; l++) {
      M2[l] = INFINITY;
      for (size_t k = 0; k < nsph && l < n; k++)
        w->path[pl[l] * nsph + k] = INFINITY;
      if (l < n)
        w->rpath[pl[l]] = INFINITY;
    }
  }
}

/* Step 3 for the particles of q (emptied), side by side: each one's forces
 * (particle_forces), then gravity, the leap-frog, the rotation (gc_rot_step_body) and the new
 * sphere positions (particle_spheres) of all of them in loops over the lanes, which the
 * compiler turns into vector operations -- each particle's numbers, operation for operation,
 * those of one particle alone (the same IEEE operations in the same order in each lane; the
 * loops cut the latency of the chain quaternion -> matrix -> spheres, ~13 % of the soybean
 * flow's step) -- then the wrap of each and the list's displacement criterion for its spheres
 * (the beads do not move), measured in the list's frame fr (gc_nlist_get_frame), into
 * *dmax2.  bad_p takes the least index of a particle with a non-finite force (its state is
 * then left as it was) or position (its spheres are then left). */
void chute_move_lanes(gc_chute *c, chute_work *w, const gc_nlist_frame *fr, lanes *q, int early,
                      double *dmax2, long *bad_p)
{
  const int n = q->n;
  q->n = 0;
  if (n == 0)
    return;
  const double dt = c->cfg.dt, mass = c->cfg.shape.mass, *I = c->cfg.shape.inertia;
  const double ld = c->cfg.local_damping;
  const double *g = w->g;
  size_t pl[LANES];
  int bad[LANES];
  /* the lanes beyond n repeat lane 0's numbers and are not written back */
  GC_LANE_ALIGN double F[3][LANES], T[3][LANES], X[3][LANES], V[3][LANES], Q[4][LANES], W[3][LANES],
      DW[3][LANES], WS[3][LANES];
  double PG[LANES];
  double f[LANES][3], t[LANES][3];
  /* each lane's particle and its rows' sources, from the particle's number as a scalar (a
   * vector load of numbers stored one by one waits as the rows below would) */
  const gc_rot *r[LANES];
  const double *xp[LANES], *vp[LANES], *wp[LANES];
  for (int l = 0; l < LANES; l++) {
    const size_t p = q->m[l < n ? l : 0];
    pl[l] = p;
    r[l] = &c->rot[p];
    xp[l] = c->x + 3 * p;
    vp[l] = c->v + 3 * p;
    wp[l] = w->wsp + 3 * p;
    bad[l] = l < n ? particle_forces(c, w, p, early, q->gq, q->gside, f[l], t[l]) : 1;
  }
  for (int l = n; l < LANES; l++)
    for (int e = 0; e < 3; e++)
      f[l][e] = f[0][e], t[l][e] = t[0][e];
  /* each row of the lanes formed in registers and stored whole: four scalar stores read back
   * as one vector by lanes_step's loops cannot be forwarded, and that load waited for the
   * stores to reach the cache (~10 % of move_lanes' samples on its first row) */
  for (int e = 0; e < 3; e++) {
    lane_row(F[e], f[0][e], f[1][e], f[2][e], f[3][e]);
    lane_row(T[e], t[0][e], t[1][e], t[2][e], t[3][e]);
    lane_row(X[e], xp[0][e], xp[1][e], xp[2][e], xp[3][e]);
    lane_row(V[e], vp[0][e], vp[1][e], vp[2][e], vp[3][e]);
    lane_row(W[e], r[0]->w[e], r[1]->w[e], r[2]->w[e], r[3]->w[e]);
    lane_row(DW[e], r[0]->dw[e], r[1]->dw[e], r[2]->dw[e], r[3]->dw[e]);
    lane_row(WS[e], wp[0][e], wp[1][e], wp[2][e], wp[3][e]);
  }
  for (int e = 0; e < 4; e++)
    lane_row(Q[e], r[0]->q[e], r[1]->q[e], r[2]->q[e], r[3]->q[e]);
  /* the leap-frog (sec. 2.1), gravity work and rotation (eq. 2.14-2.28), in copies whose loops
   * are free of the shape's and the damping's branches (the damped one, rare, keeps one) */
  const int iso = I[0] == I[1] && I[1] == I[2];
  if (ld > 0.0)
    lanes_step(I, g, mass, dt, ld, F, T, X, V, Q, W, DW, WS, PG, iso, 1);
  else if (iso)
    lanes_step(I, g, mass, dt, ld, F, T, X, V, Q, W, DW, WS, PG, 1, 0);
  else
    lanes_step(I, g, mass, dt, ld, F, T, X, V, Q, W, DW, WS, PG, 0, 0);
  for (int l = 0; l < n; l++) {
    if (bad[l])
      continue;
    const size_t p = pl[l];
    for (int e = 0; e < 3; e++) {
      c->x[3 * p + e] = X[e][l];
      c->v[3 * p + e] = V[e][l];
      c->rot[p].w[e] = W[e][l];
      c->rot[p].dw[e] = DW[e][l];
      w->wsp[3 * p + e] = WS[e][l];
    }
    for (int e = 0; e < 4; e++)
      c->rot[p].q[e] = Q[e][l];
    w->pen[PEN_N * p + PEN_G] = PG[l];
    bad[l] = wrap_particle(c, w, p);
  }
  /* particle_spheres */
  if (w->centred) {
    for (int l = 0; l < n; l++)
      if (!bad[l])
        chute_particle_spheres(c, w, pl[l]);
  } else {
    lanes_spheres(c, w, pl, n, bad, (const double(*)[LANES])Q, xp);
  }
  double M2[LANES] = { 0.0 };
  lanes_paths(c, w, fr, q, pl, n, (const double(*)[LANES])V, (const double(*)[LANES])W, M2);
  for (int l = 0; l < n; l++) {
    if (M2[l] > *dmax2)
      *dmax2 = M2[l];
    if (bad[l] && (long)pl[l] < *bad_p)
      *bad_p = (long)pl[l];
  }
}
