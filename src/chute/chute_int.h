/* chute_int.h - the chute simulator's private workspace and the functions its files share
 * (the files of src/chute/; the public interface is chute.h). */
#ifndef GC_CHUTE_INT_H
#define GC_CHUTE_INT_H

#include "../chute.h"
#include "chute_hooks.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <errno.h>
#include <float.h>
#include <sys/stat.h>

#include <gsl/gsl_rng.h>
#include <zlib.h>

#include "../gc_io.h"

#ifdef _OPENMP
#include <omp.h>
#endif

#define NSHAPE GC_SHAPE_MAX_SPHERES

enum { PACT_FORCE = 1 };
/* per-particle energy slots: wall normal / tangential, flat bottom normal / tangential, gravity */
enum { PEN_WN, PEN_WT, PEN_BN, PEN_BT, PEN_G, PEN_N };
/* per-chunk pair energy slots: particle-particle / bead normal and tangential */
enum { CEN_PN, CEN_PT, CEN_BN, CEN_BT, CEN_N };
/* The step's work is divided in chunks of CHUNK consecutive particles (of the spatial order,
 * into which they are renumbered at each build) with their pairs (pstart), whatever the thread
 * count: a thread takes whole chunks, and each chunk sums the energies of its pairs (in list
 * order, right after computing them) and of its particles (in index order, once they have all
 * moved) into its own slot; the slots are added in chunk order, so the energy budget is also
 * independent of the threads.  32 particles: small enough that two threads' shares differ by
 * ~3 % of the soybean chute's 38 chunks. */
#define CHUNK 32
/* steps whose walk times decide a move of the threads' shares (balance_shares) */
enum { BALANCE_STEPS = 16 };
/* pairs the walk sorts out at a time (gc_chute_step) */
enum { WALK_BATCH = 256 };

/* Private workspace (c->work). */
/* The thread count's probe (chute_adapt_threads): on a machine whose cores are busy with other
 * processes, a thread that waits for its core makes the others wait at every barrier, and
 * several threads can then run slower than one.  So every PROBE_PERIOD steps the step runs
 * PROBE_STEPS steps on one thread and PROBE_STEPS on all, each after one step to settle, and
 * keeps until the next probe the faster by the median wall time of a step.  Results do not
 * depend on it (nor on the thread count). */
enum { PROBE_PERIOD = 1000, PROBE_STEPS = 8, PROBE_KEEP = 64 };
typedef struct {
  int one; /* 1: the loops run on one thread */
  /* the threads' balanced shares (bnd, ndefer) while one thread runs, so that the return to
   * all does not start again from equal shares (up to PROBE_KEEP threads) */
  int keep_n; /* threads of the kept shares (0: none) */
  size_t keep_bnd[PROBE_KEEP + 1];
  size_t keep_defer[PROBE_KEEP];
  int phase;                    /* 0 run, 1 probe one thread, 2 probe all */
  long left;                    /* steps left in the phase */
  int n;                        /* step times recorded in the probe's phase */
  double t_last;                /* wall time at the start of the last step [s] (0: none) */
  double times[2][PROBE_STEPS]; /* the probe's step times, one thread and all [s] */
} thread_probe;

typedef struct {
  size_t nrad;                    /* distinct radii among the shape's spheres */
  double rad[NSHAPE];             /* the distinct radii [m] */
  size_t srk[NSHAPE];             /* radius index of shape sphere k */
  gc_law law_pp[NSHAPE * NSHAPE]; /* particle-particle, [a * nrad + b] for radii (a, b) */
  gc_law law_pw[NSHAPE];          /* particle-side wall (plane, R2 = 0), per radius */
  gc_law law_pb[NSHAPE];          /* particle-bead (R2 = bead radius) or flat bottom (R2 = 0) */
  double *soff;                   /* 3 np nsph: R(q) pos_k, sphere offset from the centre [m] */
  double *simg;                   /* 3 np nsph: periodic image offset of each particle sphere [m] */
  double *wsp;                    /* 3 np: angular velocity in space axes at t_{n-1/2} [rad/s] */
  int centred;                    /* the shape is one sphere at the centre of mass: soff = 0 */
  size_t *lawk;                   /* np nsph: shape sphere index k of each particle sphere */
  size_t cap;                     /* capacity (pairs) of the scratch below */
  double *pf;                     /* 9 cap: pair force on i, torque on owner(i), torque on owner(j),
                                * kept only for a pair with PACT_FORCE one of whose particles
                                * gathers its sum after the barrier (gather_pairs) */
  unsigned char *pact;            /* cap: PACT_FORCE if the pair carried a force this step */
  double *pen;                    /* PEN_N np: per particle, its wall / flat-bottom contacts'
                                * work of the step and the gravity work [J] */
  unsigned char *hist;            /* cap: 1 if the pair's payload may hold a contact history (a
                                * compact copy of "payload s.alpha != 0", so that the many
                                * pairs that are apart need not touch their payload) */
  double *apart_until;            /* cap: the pair is apart while path_i + path_j stays below
                                * this: its gap when it was last looked at (at the build, then
                                * at each step that finds it apart), |d| - r_i - r_j less
                                * 1e-9 (r_i + r_j) for rounding, plus path_i + path_j then [m] */
  double *path;                   /* ns: a bound on the length of the path of each sphere since the
                                * last build [m], one value for a particle's spheres (the
                                * beads: 0; after a checkpoint read, the largest displacement
                                * of its spheres since the build to begin with), grown at each
                                * step by path_step.  A particle's displacement is measured for
                                * the rebuild criterion only once its bound reaches skin/2
                                * (move_lanes).  A pair has closed its gap by at most the
                                * growth of path_i + path_j since, so one whose apart_until is
                                * larger is apart without looking at it.  A bound on the path,
                                * not the displacement, so that the gap a pair is found at
                                * re-arms it (apart_until); with the displacement since the
                                * build a pair stays to be looked at in every step once its
                                * gap at the build has been used up */
  /* The rebuild criterion's moving frame (gc_nlist_needs_rebuild_shifted): a pair's
   * separation changes by the difference of its spheres' displacements, so the list holds
   * while the displacements less any common shift stay small.  The shift since the build is
   * drift_v times the time since, drift_v the middle of the range of the particles'
   * velocities at the build (per axis: it halves the largest |v - drift_v| of a flow whose
   * particles all move downhill, 0.1-1.3 m/s at 7 s of the soybean chute: 40 builds per 6000
   * steps there instead of 77).  Kept in the checkpoint (format 7). */
  double drift_v[3]; /* [m/s] */
  double drift[3];   /* the shift at the current positions [m] */
  double *rpath;     /* np: a bound on the length of each particle's path since the
                                * build in that frame (path_step of |v - drift_v|) [m]; its
                                * displacement for the criterion is measured only once this
                                * reaches the criterion's reach (move_lanes) */
  double pmax;       /* the largest |pos_k| of the shape's spheres [m] */
  double wall_clear; /* a distance of the centre from a wall beyond which no sphere
                                * of the particle reaches it (walls_apart) [m] */
  double path_eps;   /* rounding allowance of a step's path bound (path_step) [m] */
  double *cpe;       /* CEN_N per chunk of CHUNK particles: its pairs' work of
                                * the step, summed in pair order */
  double *cpp;       /* PEN_N per chunk: its particles' work, in index order */
  /* Spatial order, formed at every list build (particle_order), and the particles renumbered
   * into it (renumber_particles; also at a format-5 checkpoint read, whose particles are in
   * the order of their placement): the threads take contiguous ranges of particles, so that
   * each works on a compact region of the chute and the particle data it reads were mostly
   * written by itself (on two cores an unsorted order made every step move most particles'
   * cache lines between the cores).  Each pair writes at most its own slots, each particle
   * sums its pairs in pair order. */
  size_t *porder;      /* np: particles by grid cell (long horizontal axis slowest),
                                * formed by particle_order for renumber_particles just after */
  size_t *pstart;      /* np + 1: the pairs pstart[m] .. pstart[m + 1] - 1 are those
                                * whose sphere i belongs to particle m: the list is built in
                                * index order, so the pair loop reads its pairs' records in
                                * memory order */
  struct pkey *pkeys;  /* 2 np: sort scratch */
  size_t *sto;         /* ns: a renumbering's new index of each sphere */
  unsigned char *pbuf; /* scratch of a renumbering: the widest per-particle row (its
                                * wall records, prow bytes), then np marks */
  size_t prow;
  /* The step walks the chunks once: a chunk's pairs, then those of its particles whose
   * pairs are all done (which finds a particle's data still in cache from its pairs instead
   * of streaming the whole state twice per step).  Particle m is read by the pairs of the
   * blocks plo[m] .. phi[m] (its own and those of the neighbours whose block holds a pair
   * with it; a pair is in the block of its sphere i).  It may move once the walk has passed
   * phi[m], and a thread may move it before the others are done only if all those blocks are
   * in its own share; the rest wait for the barrier. */
  uint32_t *plo, *phi;  /* np each */
  double *acc;          /* 6 np: force and torque of the pairs so far, summed in pair
                                * order by the walk for the particles that move in it; the
                                * others gather the same sums in the same order from pf */
  uint32_t *gq;         /* gcap per thread (maxthreads): gather_pairs' room for the
                                * pairs of one particle that carry a force, */
  unsigned char *gside; /* and their sides; gcap: at least the most pairs of a particle
                                * in the list (grow_gather, at each build) */
  size_t gcap;
  /* The threads' shares of the chunks: thread t takes chunks bnd[t] .. bnd[t + 1] - 1.  Equal
   * counts at first, then each boundary moves by one chunk at most once in BALANCE_STEPS
   * steps towards the slower thread's side (by the threads' walk times summed over them:
   * balance_shares), since the chute's regions differ in work (the flowing layer, the
   * bottom).  Results do not depend on it. */
  int nbnd;       /* threads the boundaries are for (0: none yet) */
  int maxthreads; /* room in bnd, tph, tsum, tpo and ndefer */
  size_t *bnd;    /* maxthreads + 1 */
  double *tph;    /* maxthreads: each thread's walk time in the last step, up to
                                * the barrier [s] */
  double *tsum;   /* maxthreads: the walk times summed over the last nsum steps */
  int nsum;
  /* After the barrier a thread moves the particles of its share that waited for another
   * share's pairs.  They lie near the shares' boundaries, in unequal numbers: a pair is in the
   * block of its lower-ranked sphere, and the ranks are the spheres' first numbers, not the
   * spatial order (stop 40 found waiting particles in both threads' shares at every step of the
   * dilute soybean flow).  So a thread with few would idle there while another gathers:
   * instead each thread leaves the moves of the last ndefer[t] particles of its share that
   * could move in the walk until after the barrier, ndefer balanced between steps by the
   * threads' times there (balance_shares).  Results do not depend on it. */
  double *tpo;    /* maxthreads: each thread's time after the barrier [s] */
  size_t *ndefer; /* maxthreads */
  gc_nlist_box box;
  size_t nwall_per;    /* wall records per particle sphere: 2 or 3 */
  unsigned char *wact; /* nwall_per np nsph: 0 if the wall record is virgin (P, alpha,
                                * the normal header's alpha and in_contact all 0), so that the
                                * walls a sphere is far from need not touch their records */
  int placed;
  double g[3];        /* gravity vector [m/s^2] */
  thread_probe probe; /* one thread or all: chute_adapt_threads */
} chute_work;

struct pkey {
  uint64_t key;
  size_t p;
};

/* The walk's pairs that touch, stepped GC_CONTACT3_LANES at a time (gc_contact3_step_lanes,
 * which puts the Hertz-Mindlin contacts side by side in vector lanes: one contact's step is a
 * chain of square roots and divisions, and its slip test a branch at the chain's end that the
 * processor guesses wrong in a flowing contact; contacts of other laws are stepped one by one
 * as before).  pair_contact queues a pair with its geometry; contact_flush steps the queue and
 * finishes its pairs in queue order, which is pair order: every sum (the particles' in acc,
 * the chunk's work in ce) takes its terms in the order the walk met the pairs, as when each
 * pair was finished at once, so the numbers are the same to the bit.  The queue is flushed
 * when full, before a pair that adds to ce without touching (a separation), and at the end of
 * each chunk's pairs, before any particle of the chunk moves. */
typedef struct {
  gc_contact3_lanes b;
  size_t k[GC_CONTACT3_LANES]; /* the pairs */
  size_t I[GC_CONTACT3_LANES]; /* owner of sphere i */
  long J[GC_CONTACT3_LANES];   /* owner of sphere j, -1: a bead */
  /* the contact point from the centre of i's particle, of j's (0 for a bead) */
  double li[GC_CONTACT3_LANES][3], lj[GC_CONTACT3_LANES][3];
  int n;
  size_t m0, m1;  /* the walk's share (moves_in_walk) */
  double *ce;     /* the chunk's work sums, CEN_N */
  long *bad_pair; /* the least pair with a non-finite force */
} contact_queue;

/* Pair k of the list, whose spheres overlap (d, dist2 as pair_separation): its payload (a new
 * one from thread tid's rows, gc_nlist_payload_on) and geometry into the queue q; GC_ENAN on
 * a non-finite separation. */
int chute_pair_contact(gc_chute *c, chute_work *w, size_t k, const gc_npair *pr, const double d[3],
                       double dist2, double ri, double rj, contact_queue *q, int tid);
void chute_contact_flush(gc_chute *c, chute_work *w, contact_queue *q);

/* Particles whose step 3 waits to be done LANES at a time (move_lanes). */
enum { LANES = 4 };

/* One row of the lanes (move_lanes) from four numbers: with GCC's vector extension one 32-byte
 * store of a vector formed in registers, which the loops' vector loads of the row can take
 * from the store buffer; elsewhere four stores. */
_Static_assert(LANES == 4, "lane_row takes four numbers");
#if defined(__GNUC__)
typedef double lane_vec __attribute__((vector_size(LANES * sizeof(double))));
#define GC_LANE_ALIGN _Alignas(sizeof(lane_vec))
static inline void lane_row(double row[LANES], double a, double b, double c, double d)
{
  *(lane_vec *)row = (lane_vec){ a, b, c, d };
}
#else
#define GC_LANE_ALIGN
static inline void lane_row(double row[LANES], double a, double b, double c, double d)
{
  row[0] = a, row[1] = b, row[2] = c, row[3] = d;
}
#endif
typedef struct {
  size_t m[LANES];
  int n;
  uint32_t *gq; /* the thread's room for chute_gather_pairs (chute_work.gq, gside) */
  unsigned char *gside;
  double reach; /* rpath below which a particle cannot call for a chute_rebuild (gc_chute_step) */
} lanes;

/* alloc.c */
int chute_grow_scratch(chute_work *w, size_t npairs);
int chute_grow_gather(const gc_chute *c, chute_work *w);

/* config.c */
int chute_check_cfg(const gc_chute_cfg *c, char *msg, size_t n);
int chute_build_laws(chute_work *w, const gc_chute_cfg *cfg, char *msg, size_t n);

/* integrate.c */
void chute_gather_pairs(const gc_chute *c, const chute_work *w, size_t p, uint32_t *fq,
                        unsigned char *fside, double F[3], double T[3]);
void chute_move_lanes(gc_chute *c, chute_work *w, const gc_nlist_frame *fr, lanes *q, int early,
                      double *dmax2, long *bad_p);

/* ledger.c */
void chute_energy_sum(gc_chute *c, const chute_work *w, size_t nchunk);

/* pair.c */
double chute_rolling_distance(const double u1[3], const double u2[3], double dt);
void chute_tangential_part(const double v[3], const double n[3], double o[3]);

/* sort.c */
double chute_wrap(double x, double L);
void chute_particle_spheres(gc_chute *c, chute_work *w, size_t p);
unsigned char chute_record_used(const gc_chute_contact *ct, const gc_hist_normal *hn);
void chute_sort_keys(const gc_chute *c, const double *xc, size_t stride, struct pkey *keys);
void chute_particle_order(gc_chute *c, chute_work *w, const double *sx);
int chute_order_work(gc_chute *c, chute_work *w);
int chute_index_list(gc_chute *c, chute_work *w);
int chute_renumber_particles(gc_chute *c, chute_work *w, int for_build);
int chute_rebuild(gc_chute *c, chute_work *w, char *msg, size_t msglen);

/* threads.c */
int chute_nthreads(const gc_chute *c, size_t work);
void chute_balance_shares(chute_work *w, size_t np);
void chute_adapt_threads(gc_chute *c);

/* walls.c */
const gc_law *chute_wall_law(const chute_work *w, size_t ki, size_t k);
unsigned char chute_wall_flag(const gc_chute *c, const chute_work *w, size_t i, size_t k);
void chute_mark_walls(gc_chute *c, chute_work *w);
int chute_wall_forces(gc_chute *c, chute_work *w, size_t p, size_t i, double F[3], double T[3],
                      double *pen);
int chute_walls_apart(const gc_chute *c, const chute_work *w, size_t p);

/* One past the last particle of chunk b of np particles. */
static inline size_t chunk_end(size_t b, size_t np)
{
  return (b + 1) * CHUNK < np ? (b + 1) * CHUNK : np;
}

/* ---------- small vector helpers ---------- */
static inline double dot3(const double a[3], const double b[3])
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static inline void cross3(const double a[3], const double b[3], double c[3])
{
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}
static inline void matvec(const double M[9], const double v[3], double o[3])
{
  o[0] = M[0] * v[0] + M[1] * v[1] + M[2] * v[2];
  o[1] = M[3] * v[0] + M[4] * v[1] + M[5] * v[2];
  o[2] = M[6] * v[0] + M[7] * v[1] + M[8] * v[2];
}
static inline void matTvec(const double M[9], const double v[3], double o[3])
{
  o[0] = M[0] * v[0] + M[3] * v[1] + M[6] * v[2];
  o[1] = M[1] * v[0] + M[4] * v[1] + M[7] * v[2];
  o[2] = M[2] * v[0] + M[5] * v[1] + M[8] * v[2];
}

/* A sphere of a particle at x with rotation matrix R: its offset o = R pos from the centre
 * and its position s = (x + sm) + o with its periodic image offset sm (particle_spheres, and
 * move_lanes for four particles side by side). */
static inline void sphere_position(const double R[9], const double pos[3], const double x[3],
                                   const double sm[3], double o[3], double s[3])
{
  matvec(R, pos, o);
  s[0] = (x[0] + sm[0]) + o[0];
  s[1] = (x[1] + sm[1]) + o[1];
  s[2] = (x[2] + sm[2]) + o[2];
}
static inline void add_pair_parts(const double f[3], const double t[3], int is_i, double F[3],
                                  double T[3]);

/* d = x_j - x_i of pair pr (x_j's periodic image) from the sphere centres sx; returns |d|^2.
 * The one statement of a pair's separation, for pair_force and the check of the records
 * (gc_chute_check_pair_records), which compares the overlaps bit for bit. */
static inline double pair_separation(const double *sx, const gc_npair *pr, const double L[3],
                                     double d[3])
{
  const double *si = sx + 3 * pr->i, *sj = sx + 3 * pr->j;
  d[0] = sj[0] + pr->image[0] * L[0] - si[0];
  d[1] = sj[1] + pr->image[1] * L[1] - si[1];
  d[2] = sj[2] + pr->image[2] * L[2] - si[2];
  return dot3(d, d);
}

#if defined(__GNUC__)
__attribute__((always_inline)) /* into both paths of the walk (walk_pair) */
#endif
static inline int
pair_force(gc_chute *c, chute_work *w, size_t k, const gc_npair *pr, const double L[3],
           contact_queue *q, int tid)
{
  size_t i = pr->i, j = pr->j;
  double d[3];
  double ri = c->sr[i], rj = c->sr[j];
  double dist2 = pair_separation(c->sx, pr, L, d), rr = ri + rj;
  w->pact[k] = 0;
  if (dist2 >= rr * rr) { /* apart: only reset a history (a separated contact is virgin) */
    /* re-armed: apart while the paths grow by less than the gap (as at the build) */
    w->apart_until[k] = (sqrt(dist2) - rr * (1.0 + 1e-9)) + (w->path[i] + w->path[j]);
    if (w->hist[k]) {
      gc_chute_contact *ct = gc_nlist_payload_on(c->nl, k, tid);
      /* the last part of the unloading, from alpha_{n-1} to 0 (see contact) */
      double wn = -0.5 * ct->P * ct->alpha;
      if (wn != 0.0) {
        chute_contact_flush(c, w, q); /* the queued pairs' work first, in pair order */
        q->ce[c->owner[j] < 0 ? CEN_BN : CEN_PN] += wn;
      }
      if (!c->cfg.keep_history)
        memset(ct->h, 0, c->nhist * sizeof *ct->h);
      ct->Q[0] = ct->Q[1] = ct->Q[2] = 0.0;
      ct->P = 0.0;
      ct->alpha = 0.0;
      w->hist[k] = 0;
    }
    return dist2 == dist2 ? GC_SUCCESS : GC_ENAN;
  }
  return chute_pair_contact(c, w, k, pr, d, dist2, ri, rj, q, tid);
}

/* 1 if particle m moves in the walk of the thread whose share is particles m0 .. m1 - 1: all
 * its pairs are in that share (chute_work.plo, phi) */
static inline int moves_in_walk(const chute_work *w, size_t m, size_t m0, size_t m1)
{
  return w->plo[m] >= m0 && w->phi[m] < m1;
}

/* Adds a pair's force f on its sphere i and the torque t on the particle of sphere i (is_i)
 * or of sphere j to that particle's sums F, T.  The walk (into acc, contact_flush) and
 * chute_gather_pairs (add_pair) both sum through it, so that a particle's sum is the same to the
 * bit whichever forms it. */
static inline void add_pair_parts(const double f[3], const double t[3], int is_i, double F[3],
                                  double T[3])
{
  if (is_i) {
    F[0] += f[0], F[1] += f[1], F[2] += f[2];
  } else {
    F[0] -= f[0], F[1] -= f[1], F[2] -= f[2];
  }
  T[0] += t[0], T[1] += t[1], T[2] += t[2];
}

/* The same for pair slot f (pf of a pair with PACT_FORCE: the force on i, the torque on the
 * particle of i, on the particle of j). */
static inline void add_pair(const double *f, int is_i, double F[3], double T[3])
{
  add_pair_parts(f, is_i ? f + 3 : f + 6, is_i, F, T);
}

/* The walk's skip test (gc_chute_step): 0 if pair k has no history to reset (hist) and its
 * apart_until exceeds the path bounds of its two spheres (its gap when last looked at is more
 * than they can have travelled since), so that it is apart for certain; else 1.  Without a
 * branch, for the gathering of the passing pairs (the walk's other path tests hist first: in
 * a dense flow most pairs have a history). */
static inline int pair_may_touch(const unsigned char *hist, const double *apart_until,
                                 const double *path, const gc_npair *pairs, size_t k)
{
  return hist[k] | !(apart_until[k] > path[pairs[k].i] + path[pairs[k].j]);
}

/* A bound on how far a step moves any sphere of a particle whose centre moves at speed v and
 * which turns at angular speed w (both at t_{n+1/2}, the step's): the centre by |v| dt, a
 * sphere at |pos| <= pmax from it by at most the angle turned times pmax, and the Cayley step
 * (eq. 2.24-2.27) turns by 4 atan(dt |w| / 4) <= dt |w|; eps for the roundings
 * (chute_work.path_eps).  A NaN stays a NaN (the pairs are then looked at). */
static inline double path_step(double v, double w, double pmax, double dt, double eps)
{
  return (v + w * pmax) * dt * (1.0 + 1e-9) + eps;
}

#endif /* GC_CHUTE_INT_H */
