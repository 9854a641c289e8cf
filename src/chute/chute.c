/* chute.c - the 3-D DEM flow simulator of chapter 9 (see chute.h).
 *
 * Layout of one step (gc_chute_step), at time t_n with positions x_n, velocities v_{n-1/2}:
 *   1. (the angular velocity of every particle in space axes, w_space = R(q_n) w_{n-1/2}, is
 *      kept from the end of the previous step);
 *   2. pair forces, in parallel, of the listed pairs that may touch (one found apart is passed
 *      over until its spheres' path bounds have grown by its gap: pair_may_touch, path_step):
 *      each pair writes at most its own 9 doubles of scratch (force on sphere i, torque on
 *      the particle of i, torque on the particle of j; only if one of its particles gathers
 *      its sum after the barrier, so never on one thread) and its own history record (the
 *      list payload);
 *   3. per particle, in parallel: the sum of its pairs' forces and torques in increasing pair
 *      index (formed by the walk as it goes, or gathered from the scratch in that order:
 *      gather_pairs), then the wall / flat-bottom contacts of its spheres (history in
 *      c->wall, owned by the particle), gravity, the leap-frog update of the translation and
 *      gc_rot_step for the rotation, the new sphere positions and the list's displacement
 *      criterion for them.  The sums are therefore formed in the same order whatever the
 *      number of threads: results are bitwise independent of it;
 *   4. the step's work (summed per chunk in steps 2-3) added in chunk order, t += dt, and a
 *      list rebuild when a sphere moved more than skin/2 in the drift frame (chute_work.drift_v).
 * Steps 2 and 3 are one walk over the chunks of CHUNK particles: a chunk's pairs, then each
 * particle whose pairs are all done (chute_work.plo), so that its data are still in cache;
 * every pair reads the state at t_n all the same, and the rest of the particles move after a
 * barrier.  The walk adds each pair's force into the sums of its particles that move in it
 * (chute_work.acc), so that these need not look through their pairs again.
 * Threads (steps 2-3): thread t of n takes whole chunks of CHUNK particles of a spatial order
 * (particle_order, formed at each list build) and the pairs of their spheres i, so it works
 * on a compact region of the chute and mostly reads what it wrote itself.  At each build (and
 * at a format-5 checkpoint read) the particles are renumbered into that order
 * (renumber_particles: all per-particle arrays move, the list with them, each particle keeps
 * its number c->id), so the spatial order is the index order and a chunk's particles and
 * pairs lie together in memory.  Results depend on the numbering only through the order of
 * sums, which is the same for any thread count and on resume.
 *
 * Periodic images.  The list stores for each pair the periodic shift found at build time, so
 * sphere positions must move continuously between builds.  Each particle sphere therefore
 * carries an image offset simg (a multiple of the periods), and its position is always
 *   sx = (x + simg) + soff,   soff = R(q) pos_k (its offset from the centre of mass, space).
 * When x is wrapped back into [0, length) the image offsets of its spheres take the opposite
 * shift, so sx does not jump (to rounding, ~1e-18 m).  At every rebuild the sphere positions
 * are wrapped into the box and simg is reset accordingly.
 *
 * Contact geometry and forces (seed sec. 4.2.3, eq. 4.9-4.21).  For a pair (i, j) of the list,
 * d = sx_j + shift - sx_i, n = d / |d| (eq. 4.9), overlap alpha = r_i + r_j - |d|.  The contact
 * point is on the line of centres at r_i - alpha/2 from the centre of sphere i (the middle of
 * the overlap); its lever arm from the centre of mass of particle I is soff_i + (r_i - alpha/2) n
 * and from that of particle J soff_j - (r_j - alpha/2) n (the same point).  The velocity of the
 * material point of each body at the contact point, v + w x lever, is evaluated with the half-
 * step velocities v_{n-1/2}, w_{n-1/2} (eq. 4.12 with the approximation 4.13: the relative
 * displacement of the step is the relative velocity times dt, projected into the current
 * tangent plane):  v_rel = v_J(c) - v_I(c),  alpha_dot = -v_rel . n,
 * Delta delta = (1 - n n) v_rel dt.  The force on sphere i is F = -P n + Q, on sphere j -F.
 * A wall is body j at rest (v_rel = -v_I(c)) with n the outward normal of the sphere towards
 * the wall.
 *
 * Choices and assumptions (not fixed by the seed):
 *  - the contact point is the middle of the overlap on the line of centres (r_i - alpha/2 from
 *    sphere i; for a wall r - alpha/2 from the centre); the torque of a contact about each
 *    particle's centre of mass is lever x force with that point, so pair torques balance and
 *    angular momentum is conserved to rounding;
 *  - the angular velocity in space axes used for contact-point velocities is R(q_n) w_{n-1/2}
 *    (the body rate of the half step rotated with the orientation at t_n);
 *  - by default no rolling correction (sec. 5.2 is a 2-D construction): ds_roll = 0.  With
 *    cfg.rolling = 1 its 3-D reading (rolling_distance below);
 *  - by default a contact whose spheres separate (alpha <= 0, so P = 0) loses its whole history
 *    (history block zeroed, Q = 0); while alpha > 0 the history is kept even if P = 0 (inside
 *    the residual dent of an elasto-plastic contact).  With cfg.keep_history = 1 the history
 *    block is kept (force and carried Q set to 0) until the pair leaves the neighbour list;
 *  - rolling / twisting resistance (cfg.rolling_model, cfg.twisting_model): the couple M of
 *    the law, driven by the relative angular velocity w_I - w_J of the two particles (w_J = 0
 *    for a wall or a bead) and d_theta = (w_I - w_J) dt, acts as +M on particle I and -M on J;
 *    it goes through the same per-pair scratch and pair-order sums as the forces.  Without
 *    them nothing is computed (bit for bit the same run).  Its work, -M . (w_I - w_J) dt, is
 *    counted with the tangential work of the energy budget;
 *  - Cundall's local damping (cfg.local_damping > 0, numerical): applied per component in space
 *    axes to the resultant force (contacts + gravity) and torque before the leap-frog update;
 *  - gc_chute_cfg_soybean: particle-plexiglass friction mu = 0.3 (not in the seed); dt = 1/40
 *    of the Hertz duration of two constituent spheres at 1 m/s (3.41e-6 s); skin 0.5 R_c;
 *    touching 3 mm beads on a lattice that tiles the period (chute_bottom.c);
 *  - random placement tests particle spheres against the bead tops conservatively (sphere
 *    bottoms above y = bead_radius), exactly against other particles' spheres and the walls.
 *
 * The files of src/chute/ hold the other concepts (chute_int.h lists them).  No I/O except
 * the checkpoint functions, no global mutable state.  The checkpoint's header is text (the
 * configuration and the contact parameters by name), its state blocks a binary image (native
 * byte order and layout: for restarts on a build of the same layout, not for exchange). */
#include "chute_int.h"

/* Pair k in the walk of thread tid (the queue q's): its force (pair_force, contact_flush;
 * *q->bad_pair takes the least k of a non-finite one) into the sums of its particles that move
 * in the walk, in pair order. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
walk_pair(gc_chute *c, chute_work *w, const gc_npair *pairs, size_t k, const double L[3],
          contact_queue *q, int tid)
{
  if (pair_force(c, w, k, &pairs[k], L, q, tid) && (long)k < *q->bad_pair)
    *q->bad_pair = (long)k;
}

/* Queue particle m for move_lanes, which runs when LANES are queued. */
static inline void move_queued(gc_chute *c, chute_work *w, const gc_nlist_frame *fr, lanes *q,
                               size_t m, int early, double *dmax2, long *bad_p)
{
  q->m[q->n++] = m;
  if (q->n == LANES)
    chute_move_lanes(c, w, fr, q, early, dmax2, bad_p);
}

/* Equal shares of the nch chunks for nt threads, no moves deferred (when the thread count
 * changes). */
static void reset_shares(chute_work *w, int nt, size_t nch)
{
  for (int t = 0; t <= nt; t++)
    w->bnd[t] = nch * (size_t)t / (size_t)nt;
  for (int t = 0; t < nt; t++) {
    w->ndefer[t] = 0;
    w->tsum[t] = 0.0;
  }
  w->nsum = 0;
  w->nbnd = nt;
}

/* The pairs k0 .. k1 - 1 of a chunk in the walk of thread tid (walk_pair), the skip test
 * (pair_may_touch) passing over the pairs apart for certain.  *sparse: the last batch of
 * pairs was mostly apart (set for the next). */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
walk_chunk(gc_chute *c, chute_work *w, const gc_npair *pairs, size_t k0, size_t k1,
           const double L[3], contact_queue *cq, int tid, int *sparse)
{
  /* the skip test's arrays in locals: a store to pact (bytes, which may alias anything)
   * would otherwise make the compiler read each pointer from w again for every pair */
  const unsigned char *const hist = w->hist;
  unsigned char *const pact = w->pact;
  const double *const apart_until = w->apart_until, *const path = w->path;
  for (size_t kb = k0; kb < k1; kb += WALK_BATCH) {
    const size_t ke = kb + WALK_BATCH < k1 ? kb + WALK_BATCH : k1;
    /* The skip test (pair_may_touch) passes over the pairs apart for certain.  Where
     * most are apart (the dilute flow: ~1 in 5 passes), the batch's passing pairs are
     * first gathered without a branch, since which ones pass is as good as random to the
     * branch predictor (the walk 0.8x its time); where most pass (a dense flow), the
     * test stays in the loop, whose branch is then predicted.  Chosen by the previous
     * batch; the same pairs in the same order either way. */
    size_t npass = 0;
    if (*sparse) {
      unsigned short todo[WALK_BATCH];
      size_t ntodo = 0;
      for (size_t k = kb; k < ke; k++) {
        todo[ntodo] = (unsigned short)(k - kb);
        ntodo += pair_may_touch(hist, apart_until, path, pairs, k);
        pact[k] = 0;
      }
      for (size_t q = 0; q < ntodo; q++)
        walk_pair(c, w, pairs, kb + todo[q], L, cq, tid);
      npass = ntodo;
    } else {
      for (size_t k = kb; k < ke; k++) {
        if (!hist[k] && !pair_may_touch(hist, apart_until, path, pairs, k)) {
          pact[k] = 0; /* apart for certain, nothing to reset */
          continue;
        }
        npass++;
        walk_pair(c, w, pairs, k, L, cq, tid);
      }
    }
    *sparse = 2 * npass < ke - kb;
  }
}

/* Steps 2-3 on the calling thread of the step's parallel region: its share of the chunks
 * walked (pair forces, then the particles whose pairs are all done), the barrier, the rest of
 * its particles and each chunk's particle work.  bad_pair, bad_p, dmax2: the thread's
 * reductions (the least pair and particle with a non-finite result, the largest squared
 * displacement since the build). */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
step_share(gc_chute *c, chute_work *w, const gc_npair *pairs, const double L[3],
           const gc_nlist_frame *fr, double reach, size_t nch, long np, long *bad_pair_out,
           long *bad_p_out, double *dmax2_out)
{
  size_t tid = 0, nth = 1;
#ifdef _OPENMP
  tid = (size_t)omp_get_thread_num();
  nth = (size_t)omp_get_num_threads();
#endif
  /* the shares, unless the runtime gave another number of threads than asked */
  const int own = (int)nth == w->nbnd;
  const size_t b0 = own ? w->bnd[tid] : nch * tid / nth;
  const size_t b1 = own ? w->bnd[tid + 1] : nch * (tid + 1) / nth;
  const size_t m0 = b0 * CHUNK, m1 = b1 > b0 ? chunk_end(b1 - 1, (size_t)np) : m0;
  /* the walk moves particles up to md, the rest of its share's after the barrier */
  const size_t nd = own ? w->ndefer[tid] : 0;
  const size_t md = nd < m1 - m0 ? m1 - nd : m0;
#ifdef _OPENMP
  double t0 = omp_get_wtime();
#endif
  memset(w->acc + 6 * m0, 0, 6 * (m1 - m0) * sizeof *w->acc);
  int sparse = 0; /* the last batch of pairs mostly apart (the skip test below) */
  size_t u = m0;  /* the walk's next particle to move */
  /* particles queued to move (move_queued) */
  lanes mv = {
    .n = 0, .gq = w->gq + tid * w->gcap, .gside = w->gside + tid * w->gcap, .reach = reach
  };
  /* the pairs that touch, queued for the contact lanes (contact_flush) */
  contact_queue cq;
  cq.n = 0;
  cq.m0 = m0;
  cq.m1 = m1;
  cq.ce = NULL;
  cq.bad_pair = bad_pair_out;
  for (size_t b = b0; b < b1; b++) {
    const size_t e = chunk_end(b, (size_t)np);
    const size_t k0 = w->pstart[b * CHUNK];
    const size_t k1 = w->pstart[e];
    double ce[CEN_N] = { 0, 0, 0, 0 };
    cq.ce = ce;
    walk_chunk(c, w, pairs, k0, k1, L, &cq, (int)tid, &sparse);
    chute_contact_flush(c, w, &cq); /* the chunk's last contacts, before its particles move */
    cq.ce = NULL;
    memcpy(w->cpe + CEN_N * b, ce, sizeof ce);
    /* the blocks up to e - 1 are done: queue the particles in order while they may move
     * (moved four at a time, move_queued; the rest of the queue before the barrier) */
    for (; u < e && u < md; u++) {
      if (!moves_in_walk(w, u, m0, m1))
        continue; /* after the barrier */
      if (w->phi[u] >= e)
        break; /* a later block of this share still reads it */
      move_queued(c, w, fr, &mv, u, 1, dmax2_out, bad_p_out);
    }
  }
  for (; u < md; u++) /* all blocks of the share are done */
    if (moves_in_walk(w, u, m0, m1))
      move_queued(c, w, fr, &mv, u, 1, dmax2_out, bad_p_out);
  chute_move_lanes(c, w, fr, &mv, 1, dmax2_out, bad_p_out);
#ifdef _OPENMP
  double tw = omp_get_wtime() - t0;
#pragma omp barrier
  const double ta = omp_get_wtime();
#endif
  for (size_t m = m0; m < m1; m++)
    if (!moves_in_walk(w, m, m0, m1))
      move_queued(c, w, fr, &mv, m, 0, dmax2_out, bad_p_out);
  chute_move_lanes(c, w, fr, &mv, 0, dmax2_out, bad_p_out);
  for (size_t m = md; m < m1; m++) /* the deferred ones */
    if (moves_in_walk(w, m, m0, m1))
      move_queued(c, w, fr, &mv, m, 1, dmax2_out, bad_p_out);
  chute_move_lanes(c, w, fr, &mv, 1, dmax2_out, bad_p_out);
  for (size_t b = b0; b < b1; b++) { /* each chunk's particle work */
    double cp[PEN_N] = { 0, 0, 0, 0, 0 };
    for (size_t m = b * CHUNK; m < chunk_end(b, (size_t)np); m++)
      for (int e = 0; e < PEN_N; e++)
        cp[e] += w->pen[PEN_N * m + e];
    memcpy(w->cpp + PEN_N * b, cp, sizeof cp);
  }
#ifdef _OPENMP
  if (own) {
    w->tph[tid] = tw;
    w->tpo[tid] = omp_get_wtime() - ta;
  }
#endif
}

/* The message of a step whose pair bad_pair (< npairs) or particle bad_p (< np) came out
 * non-finite: GC_ENAN, or GC_SUCCESS if neither. */
static int step_nan(const gc_chute *c, const gc_npair *pairs, long npr, long bad_pair, long bad_p,
                    char *msg, size_t msglen)
{
  const long np = (long)c->np;
  if (bad_pair < npr) {
    const gc_npair *pr = &pairs[bad_pair];
    /* particles by number (id), their spheres by place in the cluster */
    const long I = c->owner[pr->i], J = c->owner[pr->j];
    const gc_params *q = &c->cfg.pp;
    snprintf(msg, msglen,
             "step %ld (t = %g s): non-finite contact force between sphere %zu of "
             "particle %zu and %s %zu (particle parameters E = %g Pa, nu = %g, sY = %g Pa, "
             "C_a = %g m/N, K_c = %g 1/N, mu = %g; dt = %g s)",
             c->step, c->t, (size_t)pr->i % c->nsph, c->id[I], J >= 0 ? "particle" : "bead",
             J >= 0 ? c->id[J] : (size_t)pr->j - c->np * c->nsph, q->E1, q->nu1, q->sY1, q->C_a,
             q->K_c, q->mu, c->cfg.dt);
    return GC_ENAN;
  }
  if (bad_p < np) {
    const double *F = c->force + 3 * bad_p;
    const gc_params *q = &c->cfg.pp;
    snprintf(msg, msglen,
             "step %ld (t = %g s): non-finite force, contact state or position of "
             "particle %zu (force %g %g %g N; particle parameters E = %g Pa, nu = %g, sY = %g "
             "Pa, C_a = %g m/N, K_c = %g 1/N, mu = %g; dt = %g s)",
             c->step, c->t, c->id[bad_p], F[0], F[1], F[2], q->E1, q->nu1, q->sY1, q->C_a, q->K_c,
             q->mu, c->cfg.dt);
    return GC_ENAN;
  }
  return GC_SUCCESS;
}

int gc_chute_step(gc_chute *c, char *msg, size_t msglen)
{
  chute_work *w = c->work;
  if (!w->placed) {
    snprintf(msg, msglen,
             "the particles have not been placed (gc_chute_place / "
             "gc_chute_place_random)");
    return GC_EINVAL;
  }
  chute_adapt_threads(c);
  const long np = (long)c->np;
  const int nt = chute_nthreads(c, gc_nlist_npairs(c->nl) + c->np);
  const long npr = (long)gc_nlist_npairs(c->nl);
  const gc_npair *pairs = gc_nlist_pairs(c->nl);
  const size_t nch = ((size_t)np + CHUNK - 1) / CHUNK;
  if (w->nbnd != nt)
    reset_shares(w, nt, nch);
  long bad_pair = npr, bad_p = np;
  double dmax2 = 0.0; /* the largest squared displacement since the build after this step */
  double L[3];
  gc_nlist_periods(c->nl, L);
  gc_nlist_frame frame; /* the list's, for the particles' displacements (move_lanes) */
  gc_nlist_get_frame(c->nl, &frame);
  /* the drift frame's shift at the new positions, the beads' displacement in it (|shift|)
   * and the criterion's reach there (gc_nlist_skin_reach; 1e-6 of it for the roundings of
   * the measured displacements, see move_lanes) */
  for (int a = 0; a < 3; a++)
    frame.shift[a] = w->drift[a] + w->drift_v[a] * c->cfg.dt;
  const double fixed2 = c->nbeads ? dot3(frame.shift, frame.shift) : 0.0;
  const double reach = gc_nlist_skin_reach(c->nl, fixed2) * (1.0 - 1e-6);
  /* One parallel region.  Thread t of n takes a contiguous range of the chunks of CHUNK
   * particles of the spatial order (its share, w->bnd, balanced between steps) and the pairs
   * of their spheres i, and walks them once: a chunk's pair forces (each pair into the sums
   * of its particles that move in the walk, and into its slot pf only if one of them waits
   * for the barrier) and pair work, then (3.) the particles of its share whose pairs are all
   * done (their sums, walls, the update; see chute_work.plo), but for the last ndefer of the
   * share (see chute_work.ndefer).  After a barrier, the particles of the share that waited
   * for other threads' pairs (their sums gathered from the slots) and the deferred ones, then
   * each chunk's particle work.
   * The order of the moves does not change a number: every pair reads the state of t_n,
   * every particle's sum is in pair order either way.  w->wsp (angular velocities in space
   * axes at t_{n-1/2}) was computed at the end of the previous step / at placement. */
#ifdef _OPENMP
#pragma omp parallel num_threads(nt) reduction(min : bad_pair, bad_p) reduction(max : dmax2)
#endif
  step_share(c, w, pairs, L, &frame, reach, nch, np, &bad_pair, &bad_p, &dmax2);
  chute_balance_shares(w, (size_t)np);
  int st = step_nan(c, pairs, npr, bad_pair, bad_p, msg, msglen);
  if (st)
    return st;
  chute_energy_sum(c, w, nch);
  c->t += c->cfg.dt;
  c->step++;
  /* 4. neighbour list (eq. 2.29): a rebuild when a sphere moved more than skin/2 in the drift
   * frame, or it and the beads' shift together more than the skin (also a
   * non-finite position: dmax2 is then INFINITY) */
  for (int a = 0; a < 3; a++)
    w->drift[a] = frame.shift[a];
  if (gc_nlist_past_skin(c->nl, dmax2, fixed2) && (st = chute_rebuild(c, w, msg, msglen)))
    return st;
  return GC_SUCCESS;
}
