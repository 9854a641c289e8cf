/* sort.c - sphere positions, the spatial order, renumbering and the neighbour-list build (see
 * chute_int.h). */
#include "chute_int.h"

/* ---------- positions ---------- */

double chute_wrap(double x, double L)
{
  if (x >= 0.0 && x < L)
    return x;
  x -= L * floor(x / L);
  if (x >= L || x < 0.0)
    x = 0.0;
  return x;
}

/* soff of particle p's spheres, R(q) pos_k (not for a centred shape: soff = 0) */
static void sphere_offsets(gc_chute *c, chute_work *w, size_t p)
{
  double M[9];
  gc_quat_to_matrix(c->rot[p].q, M);
  for (size_t k = 0; k < c->nsph; k++)
    matvec(M, c->cfg.shape.pos[k], w->soff + 3 * (p * c->nsph + k));
}

/* sx = (x + simg) + soff of the spheres of particle p; soff from the orientation.  A centred
 * sphere has soff = 0 (calloc) whatever the orientation, so only its position is formed. */
void chute_particle_spheres(gc_chute *c, chute_work *w, size_t p)
{
  if (w->centred) {
    const double *sm = w->simg + 3 * p;
    for (int d = 0; d < 3; d++)
      c->sx[3 * p + d] = (c->x[3 * p + d] + sm[d]) + 0.0;
    return;
  }
  /* soff as sphere_offsets forms it (the same matvec) and sx from it in one pass; the matrix
   * and x are locals the stores to soff and sx cannot touch, so they stay in registers */
  double R[9];
  gc_quat_to_matrix(c->rot[p].q, R);
  const double x[3] = { c->x[3 * p], c->x[3 * p + 1], c->x[3 * p + 2] };
  const size_t nsph = c->nsph;
  const double *sm = w->simg + 3 * p * nsph;
  double *so = w->soff + 3 * p * nsph, *s = c->sx + 3 * p * nsph;
  for (size_t k = 0; k < nsph; k++) {
    double o[3], sk[3];
    sphere_position(R, c->cfg.shape.pos[k], x, sm + 3 * k, o, sk);
    so[3 * k] = o[0], so[3 * k + 1] = o[1], so[3 * k + 2] = o[2];
    s[3 * k] = sk[0], s[3 * k + 1] = sk[1], s[3 * k + 2] = sk[2];
  }
}

/* Before a list build: put every particle sphere into the box along the periodic axes. */
static void wrap_spheres(gc_chute *c, chute_work *w)
{
  size_t nps = c->np * c->nsph;
  for (size_t i = 0; i < nps; i++) {
    size_t p = i / c->nsph;
    double *so = w->soff + 3 * i, *sm = w->simg + 3 * i, *s = c->sx + 3 * i;
    for (int d = 0; d < 3; d += 2) {
      if (!w->box.periodic[d])
        continue;
      double L = w->box.hi[d];
      double raw = c->x[3 * p + d] + so[d];
      double img = -L * floor(raw / L);
      sm[d] = img;
      s[d] = (c->x[3 * p + d] + sm[d]) + so[d];
      if (s[d] >= L) { /* rounding at the upper edge */
        sm[d] -= L;
        s[d] = (c->x[3 * p + d] + sm[d]) + so[d];
      }
    }
  }
}

/* 1 if a contact record (a pair's payload or a wall record) may hold a state: its force,
 * overlap, or its normal header's alpha or in_contact is set */
unsigned char chute_record_used(const gc_chute_contact *ct, const gc_hist_normal *hn)
{
  return ct->P != 0.0 || ct->alpha != 0.0 || hn->in_contact != 0.0 || hn->alpha != 0.0;
}

/* hist[k] from the payloads (after a list build or a checkpoint read), on nt threads */
static void mark_histories(gc_chute *c, chute_work *w, int nt)
{
  const long npr = (long)gc_nlist_npairs(c->nl);
  (void)nt;
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(static)
#endif
  for (long k = 0; k < npr; k++) {
    /* a pair without a record of its own reads the list's shared zero record: not used */
    const gc_chute_contact *ct = gc_nlist_payload_const(c->nl, k);
    w->hist[k] =
        chute_record_used(ct, (const gc_hist_normal *)ct->h); /* the normal slice is first */
  }
}

/* cell coordinate of x >= 0 in cells of edge h, clamped to 21 bits */
static uint64_t cell21(double x, double h)
{
  double c = floor(x / h);
  return c > 0 ? (c < 2097151.0 ? (uint64_t)c : 2097151u) : 0u;
}

/* keys[0 .. np) sorted: the particles at points xc + stride p (a centre, or a sphere's centre)
 * by the cell of that point in a grid of edge one particle diameter + skin, with the longer
 * horizontal axis (x or z) the slowest index, then the height, then the other horizontal
 * axis; ties by index.  keys has room for 2 np (the second half is scratch).  A radix sort,
 * 8 bits a pass from the lowest, each pass stable, so the keys made in index order keep it
 * among equal cells; a pass whose byte is the same in every key is skipped (most of the 63
 * bits are zero).  It replaced qsort, which took 0.1 ms of a soybean chute_rebuild (1200
 * particles) and 0.4 ms of the matched case's (4000). */
void chute_sort_keys(const gc_chute *c, const double *xc, size_t stride, struct pkey *keys)
{
  const size_t np = c->np;
  const double h = 2.0 * c->cfg.shape.bound_radius + c->cfg.skin;
  const int along = c->cfg.length >= c->cfg.width ? 0 : 2, across = 2 - along;
  size_t count[8][256] = { { 0 } };
  for (size_t p = 0; p < np; p++) {
    const double *x = xc + stride * p;
    const uint64_t key = cell21(x[along], h) << 42 | cell21(x[1], h) << 21 | cell21(x[across], h);
    keys[p].key = key;
    keys[p].p = p;
    for (int d = 0; d < 8; d++)
      count[d][key >> (8 * d) & 255]++;
  }
  struct pkey *from = keys, *to = keys + np;
  for (int d = 0; d < 8 && np > 0; d++) {
    size_t *at = count[d];
    if (at[from[0].key >> (8 * d) & 255] == np)
      continue; /* one byte value for all */
    size_t sum = 0;
    for (int v = 0; v < 256; v++) {
      const size_t nv = at[v];
      at[v] = sum;
      sum += nv;
    }
    for (size_t m = 0; m < np; m++)
      to[at[from[m].key >> (8 * d) & 255]++] = from[m];
    struct pkey *t = from;
    from = to;
    to = t;
  }
  if (from != keys)
    memcpy(keys, from, np * sizeof *keys);
}

/* The spatial order of the particles (porder; see chute_work.porder) by the cells of
 * their first spheres at sx (3 ns). */
void chute_particle_order(gc_chute *c, chute_work *w, const double *sx)
{
  chute_sort_keys(c, sx, 3 * c->nsph, w->pkeys);
  for (size_t m = 0; m < c->np; m++)
    w->porder[m] = w->pkeys[m].p;
}

/* pstart, the pairs of each particle (a block) of the current list, which was built in index
 * order (rebuild; a checkpoint read renumbers the particles into its order), and plo, phi.
 * GC_EFORMAT if the list's pairs are not in that order (a list of another build). */
int chute_order_work(gc_chute *c, chute_work *w)
{
  const size_t np = c->np;
  const size_t npr = gc_nlist_npairs(c->nl);
  const gc_npair *pairs = gc_nlist_pairs(c->nl);
  size_t k = 0;
  for (size_t m = 0; m < np; m++) {
    w->pstart[m] = k;
    while (k < npr && c->owner[pairs[k].i] == (long)m)
      k++;
  }
  w->pstart[np] = k;
  if (k != npr)
    return GC_EFORMAT;
  for (size_t m = 0; m < np; m++)
    w->plo[m] = w->phi[m] = (uint32_t)m;
  for (k = 0; k < npr; k++) {
    const long J = c->owner[pairs[k].j];
    const uint32_t b = (uint32_t)c->owner[pairs[k].i]; /* the block of the pair */
    if (J < 0)                                         /* a bead */
      continue;
    if (b < w->plo[J])
      w->plo[J] = b;
    if (b > w->phi[J])
      w->phi[J] = b;
  }
  return GC_SUCCESS;
}

/* apart_until of every pair, its gap at the list's build positions, and path (0 right after a
 * build; after a checkpoint read, the largest distance a sphere of the particle has moved
 * since the list was built), on nt threads, each pair and each sphere on its own.  path_eps
 * from the largest coordinate. */
static void list_gaps(gc_chute *c, chute_work *w, int nt)
{
  const long npr = (long)gc_nlist_npairs(c->nl);
  const gc_npair *pairs = gc_nlist_pairs(c->nl);
  const double *x0 = gc_nlist_build_positions(c->nl);
  const size_t ns = c->ns;
#ifdef _OPENMP
#pragma omp parallel num_threads(nt)
#endif
  {
    size_t tid = 0, nth = 1;
#ifdef _OPENMP
    tid = (size_t)omp_get_thread_num();
    nth = (size_t)omp_get_num_threads();
#pragma omp for schedule(static) nowait
#endif
    for (long k = 0; k < npr; k++) {
      const gc_npair *pr = &pairs[k];
      const double *a = x0 + 3 * pr->i, *b = x0 + 3 * pr->j;
      double sh[3];
      gc_nlist_shift(c->nl, pr, sh);
      double d[3] = { b[0] + sh[0] - a[0], b[1] + sh[1] - a[1], b[2] + sh[2] - a[2] };
      double rr = c->sr[pr->i] + c->sr[pr->j];
      w->apart_until[k] = sqrt(dot3(d, d)) - rr * (1.0 + 1e-9);
    }
    const size_t s0 = ns * tid / nth, s1 = ns * (tid + 1) / nth;
    gc_nlist_moved(c->nl, c->sx, s0, s1 - s0, w->path + s0);
    /* rpath: the displacement in the drift frame (0 right after a build) */
    gc_nlist_frame fr;
    gc_nlist_get_frame(c->nl, &fr);
    for (int a = 0; a < 3; a++)
      fr.shift[a] = w->drift[a];
    const size_t p0 = c->np * tid / nth, p1 = c->np * (tid + 1) / nth;
    for (size_t p = p0; p < p1; p++)
      w->rpath[p] = sqrt(gc_nlist_frame_moved(&fr, c->sx, p * c->nsph, (p + 1) * c->nsph, NULL));
  }
  (void)nt;
  /* a particle's spheres share one path bound (move_lanes grows and tests the first's) */
  for (size_t p = 0; p < c->np; p++) {
    double *pp = w->path + p * c->nsph, most = 0.0;
    for (size_t k = 0; k < c->nsph; k++)
      most = !(pp[k] <= most) ? pp[k] : most; /* a NaN (INFINITY from gc_nlist_moved) wins */
    for (size_t k = 0; k < c->nsph; k++)
      pp[k] = most;
  }
  /* a step moves a sphere by x += v dt, the orientation by q -> q', then s = (x + simg) + R(q)
   * pos: each rounding at most ~ulp(|s|) or ulp(|pos|); the allowance is 64 of them at the
   * largest coordinate the spheres may reach before the next build (now + the skin) */
  double smax = 0.0;
  for (size_t k = 0; k < 3 * ns; k++)
    smax = fabs(c->sx[k]) > smax ? fabs(c->sx[k]) : smax;
  w->path_eps = 64.0 * DBL_EPSILON * (smax + c->cfg.skin + w->pmax);
}

/* What the step derives from a list (after a build or a checkpoint read, in index order): the
 * history flags, the gaps and the pairs of each particle.  GC_EFORMAT as
 * order_work. */
int chute_index_list(gc_chute *c, chute_work *w)
{
  const int nt = chute_nthreads(c, gc_nlist_npairs(c->nl) + c->np);
  mark_histories(c, w, nt);
  list_gaps(c, w, nt);
  return chute_order_work(c, w);
}

/* a[order[m]] moves to a[m] (rows of size bytes), in place along the permutation's cycles
 * with one row of scratch t; done (n bytes) marks the rows placed */
static void permute_rows(void *a, size_t size, const size_t *order, size_t n, unsigned char *t,
                         unsigned char *done)
{
  unsigned char *b = a;
  memset(done, 0, n);
  for (size_t s = 0; s < n; s++) {
    if (done[s] || order[s] == s)
      continue;
    memcpy(t, b + s * size, size);
    size_t m = s;
    while (order[m] != s) {
      memcpy(b + m * size, b + order[m] * size, size);
      done[m] = 1;
      m = order[m];
    }
    memcpy(b + m * size, t, size);
    done[m] = 1;
  }
}

/* Move the particles into the spatial order porder (particle porder[m] becomes particle m)
 * with everything kept per particle or per particle sphere, and the list with them
 * (gc_nlist_renumber, which keeps each pair's orientation and history).  The flow mixes the
 * particles; without this their data are read in random places of memory at every step (at
 * 19200 soybeans the run was 1.3x slower for it).  Nothing physical changes; the particle
 * numbers (id) follow the particles.  for_build: the list is built next (its pairs per sphere
 * are then left to the build). */
int chute_renumber_particles(gc_chute *c, chute_work *w, int for_build)
{
  const size_t np = c->np, nsph = c->nsph, nps = np * nsph;
  size_t m0 = 0;
  while (m0 < np && w->porder[m0] == m0)
    m0++;
  if (m0 == np)
    return GC_SUCCESS;
  const size_t *o = w->porder;
  unsigned char *t = w->pbuf, *done = w->pbuf + w->prow;
  permute_rows(c->x, 3 * sizeof(double), o, np, t, done);
  permute_rows(c->v, 3 * sizeof(double), o, np, t, done);
  permute_rows(c->force, 3 * sizeof(double), o, np, t, done);
  permute_rows(c->torque, 3 * sizeof(double), o, np, t, done);
  permute_rows(c->rot, sizeof(gc_rot), o, np, t, done);
  permute_rows(c->id, sizeof(size_t), o, np, t, done);
  permute_rows(c->sx, 3 * nsph * sizeof(double), o, np, t, done); /* the beads stay */
  permute_rows(w->simg, 3 * nsph * sizeof(double), o, np, t, done);
  permute_rows(c->wall, w->nwall_per * nsph * c->rec_size, o, np, t, done);
  /* wact moves with the records: each flag is record_used of its record (set by mark_walls
   * at placement and a checkpoint read, by wall_forces after each step of a record; a record
   * it passes over is virgin and flagged 0), and reading every record again to form the same
   * flags took ~0.3 ms per build of the soybean chute */
  permute_rows(w->wact, w->nwall_per * nsph, o, np, t, done);
  /* sr, owner, fixed and lawk depend on the sphere's place in its particle only; wsp and soff
   * are derived again from the moved orientations (the same numbers); path and the per-pair
   * scratch anew after the build (index_list) */
  for (size_t m = 0; m < np; m++) {
    c->index_of[c->id[m]] = m;
    gc_rot_omega_space(&c->rot[m], w->wsp + 3 * m); /* as at the end of the step */
    if (!w->centred)
      sphere_offsets(c, w, m);
    for (size_t k = 0; k < nsph; k++)
      w->sto[o[m] * nsph + k] = m * nsph + k;
  }
  for (size_t s = nps; s < c->ns; s++)
    w->sto[s] = s;
  const int st =
      for_build ? gc_nlist_renumber_for_build(c->nl, w->sto) : gc_nlist_renumber(c->nl, w->sto);
  return st ? GC_EINVAL : GC_SUCCESS;
}

/* The drift frame of a new build (chute_work.drift_v): the middle of the range of the
 * particles' velocities on each axis (min and max: the same whatever their order), 0 where
 * that is not finite; no shift yet. */
static void drift_frame(const gc_chute *c, chute_work *w)
{
  for (int a = 0; a < 3; a++) {
    double lo = INFINITY, hi = -INFINITY;
    for (size_t p = 0; p < c->np; p++) {
      const double v = c->v[3 * p + a];
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    }
    const double mid = 0.5 * (lo + hi);
    w->drift_v[a] = isfinite(mid) ? mid : 0.0;
    w->drift[a] = 0.0;
  }
}

int chute_rebuild(gc_chute *c, chute_work *w, char *msg, size_t msglen)
{
  wrap_spheres(c, w);
  chute_particle_order(c, w, c->sx);
  if (chute_renumber_particles(c, w, 1)) {
    snprintf(msg, msglen, "internal error: the particles' order is not a permutation");
    return GC_EINVAL;
  }
  gc_nlist_set_order(c->nl, NULL); /* index order, now the spatial order */
  gc_nlist_set_threads(c->nl, chute_nthreads(c, gc_nlist_npairs(c->nl) + c->np));
  int st = gc_nlist_build(c->nl, &w->box, c->sx, c->sr, c->owner, c->fixed, msg, msglen);
  if (st)
    return st;
  st = chute_grow_scratch(w, gc_nlist_npairs(c->nl));
  if (st) {
    snprintf(msg, msglen, "out of memory (%zu neighbour pairs)", gc_nlist_npairs(c->nl));
    return st;
  }
  drift_frame(c, w);
  if (chute_index_list(c, w)) {
    snprintf(msg, msglen, "internal error: the neighbour list is not in the particles' order");
    return GC_EINVAL;
  }
  if (chute_grow_gather(c, w)) {
    snprintf(msg, msglen, "out of memory (gathering the pairs of a particle)");
    return GC_ENOMEM;
  }
  return GC_SUCCESS;
}

int gc_chute_place(gc_chute *c, const double *x, const double *q, const double *v,
                   const double *w_body, char *msg, size_t msglen)
{
  chute_work *w = c->work;
  for (size_t p = 0; p < c->np; p++) {
    for (int d = 0; d < 3; d++) {
      if (!isfinite(x[3 * p + d]) || (v && !isfinite(v[3 * p + d])) ||
          (w_body && !isfinite(w_body[3 * p + d]))) {
        snprintf(msg, msglen, "particle %zu: non-finite position or velocity", p);
        return GC_EINVAL;
      }
    }
    if (q) {
      double n2 = 0;
      for (int d = 0; d < 4; d++)
        n2 += q[4 * p + d] * q[4 * p + d];
      if (!(n2 > 0.5 && n2 < 2.0)) {
        snprintf(msg, msglen, "particle %zu: quaternion norm^2 = %g out of range (0.5, 2)", p, n2);
        return GC_EINVAL;
      }
    }
  }
  w->placed = 0; /* the state is overwritten from here: placed again only on success */
  for (size_t p = 0; p < c->np; p++) {
    gc_rot *r = &c->rot[p];
    memset(r, 0, sizeof *r);
    if (q) {
      memcpy(r->q, q + 4 * p, sizeof r->q);
      gc_quat_normalize(r->q);
    } else {
      gc_quat_identity(r->q);
    }
    for (int d = 0; d < 3; d++) {
      c->x[3 * p + d] = x[3 * p + d];
      c->v[3 * p + d] = v ? v[3 * p + d] : 0.0;
      r->w[d] = w_body ? w_body[3 * p + d] : 0.0;
    }
    c->x[3 * p] = chute_wrap(c->x[3 * p], c->cfg.length);
    if (!c->cfg.side_walls)
      c->x[3 * p + 2] = chute_wrap(c->x[3 * p + 2], c->cfg.width);
    memset(w->simg + 3 * p * c->nsph, 0, 3 * c->nsph * sizeof *w->simg);
    chute_particle_spheres(c, w, p);
    gc_rot_omega_space(r, w->wsp + 3 * p);
  }
  memset(c->force, 0, 3 * c->np * sizeof *c->force);
  memset(c->torque, 0, 3 * c->np * sizeof *c->torque);
  memset(c->wall, 0, w->nwall_per * c->np * c->nsph * c->rec_size);
  memset(w->wact, 0, w->nwall_per * c->np * c->nsph);
  /* a new state: particle p of the arguments is number p; the list (histories and the
   * ranks of an earlier numbering) is forgotten */
  for (size_t p = 0; p < c->np; p++)
    c->id[p] = c->index_of[p] = p;
  gc_nlist_clear(c->nl);
  int st = chute_rebuild(c, w, msg, msglen);
  if (st)
    return st;
  /* a new state: no contact history.  After gc_nlist_clear every pair of the build is new,
   * its record zero, and index_list marked none in hist. */
  c->t = 0.0;
  c->step = 0;
  w->placed = 1;
  memset(&c->energy, 0, sizeof c->energy);
  gc_chute_stats st0;
  gc_chute_stats_get(c, &st0);
  c->energy.kinetic0 = st0.kinetic;
  return GC_SUCCESS;
}
