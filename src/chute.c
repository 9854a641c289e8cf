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
 * No I/O except the checkpoint functions, no global mutable state.  The checkpoint is a raw
 * binary image (native byte order and layout: for restarts on the same build, not for
 * exchange). */
#include "chute.h"

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

#include "gc_io.h"

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

/* One past the last particle of chunk b of np particles. */
static inline size_t chunk_end(size_t b, size_t np)
{
  return (b + 1) * CHUNK < np ? (b + 1) * CHUNK : np;
}

/* Private workspace (c->work). */
/* The thread count's probe (adapt_threads): on a machine whose cores are busy with other
 * processes, a thread that waits for its core makes the others wait at every barrier, and
 * several threads can then run slower than one.  So every PROBE_PERIOD steps the step runs
 * PROBE_STEPS steps on one thread and PROBE_STEPS on all, each after one step to settle, and
 * keeps until the next probe the faster by the median wall time of a step.  Results do not
 * depend on it (nor on the thread count). */
enum { PROBE_PERIOD = 1000, PROBE_STEPS = 8, PROBE_KEEP = 64 };
typedef struct {
  int one;                     /* 1: the loops run on one thread */
  /* the threads' balanced shares (bnd, ndefer) while one thread runs, so that the return to
   * all does not start again from equal shares (up to PROBE_KEEP threads) */
  int keep_n;                  /* threads of the kept shares (0: none) */
  size_t keep_bnd[PROBE_KEEP + 1];
  size_t keep_defer[PROBE_KEEP];
  int phase;                   /* 0 run, 1 probe one thread, 2 probe all */
  long left;                   /* steps left in the phase */
  int n;                       /* step times recorded in the probe's phase */
  double t_last;               /* wall time at the start of the last step [s] (0: none) */
  double times[2][PROBE_STEPS]; /* the probe's step times, one thread and all [s] */
} thread_probe;

typedef struct {
  size_t nrad;                 /* distinct radii among the shape's spheres */
  double rad[NSHAPE];          /* the distinct radii [m] */
  size_t srk[NSHAPE];          /* radius index of shape sphere k */
  gc_law law_pp[NSHAPE * NSHAPE]; /* particle-particle, [a * nrad + b] for radii (a, b) */
  gc_law law_pw[NSHAPE];       /* particle-side wall (plane, R2 = 0), per radius */
  gc_law law_pb[NSHAPE];       /* particle-bead (R2 = bead radius) or flat bottom (R2 = 0) */
  double *soff;                /* 3 np nsph: R(q) pos_k, sphere offset from the centre [m] */
  double *simg;                /* 3 np nsph: periodic image offset of each particle sphere [m] */
  double *wsp;                 /* 3 np: angular velocity in space axes at t_{n-1/2} [rad/s] */
  int centred;                 /* the shape is one sphere at the centre of mass: soff = 0 */
  size_t *lawk;                /* np nsph: shape sphere index k of each particle sphere */
  size_t cap;                  /* capacity (pairs) of the scratch below */
  double *pf;                  /* 9 cap: pair force on i, torque on owner(i), torque on owner(j),
                                * kept only for a pair with PACT_FORCE one of whose particles
                                * gathers its sum after the barrier (gather_pairs) */
  unsigned char *pact;         /* cap: PACT_FORCE if the pair carried a force this step */
  double *pen;                 /* PEN_N np: per particle, its wall / flat-bottom contacts'
                                * work of the step and the gravity work [J] */
  unsigned char *hist;         /* cap: 1 if the pair's payload may hold a contact history (a
                                * compact copy of "payload s.alpha != 0", so that the many
                                * pairs that are apart need not touch their payload) */
  double *apart_until;         /* cap: the pair is apart while path_i + path_j stays below
                                * this: its gap when it was last looked at (at the build, then
                                * at each step that finds it apart), |d| - r_i - r_j less
                                * 1e-9 (r_i + r_j) for rounding, plus path_i + path_j then [m] */
  double *path;                /* ns: a bound on the length of the path of each sphere since the
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
  double drift_v[3];           /* [m/s] */
  double drift[3];             /* the shift at the current positions [m] */
  double *rpath;               /* np: a bound on the length of each particle's path since the
                                * build in that frame (path_step of |v - drift_v|) [m]; its
                                * displacement for the criterion is measured only once this
                                * reaches the criterion's reach (move_lanes) */
  double pmax;                 /* the largest |pos_k| of the shape's spheres [m] */
  double wall_clear;           /* a distance of the centre from a wall beyond which no sphere
                                * of the particle reaches it (walls_apart) [m] */
  double path_eps;             /* rounding allowance of a step's path bound (path_step) [m] */
  double *cpe;                 /* CEN_N per chunk of CHUNK particles: its pairs' work of
                                * the step, summed in pair order */
  double *cpp;                 /* PEN_N per chunk: its particles' work, in index order */
  /* Spatial order, formed at every list build (particle_order), and the particles renumbered
   * into it (renumber_particles; also at a format-5 checkpoint read, whose particles are in
   * the order of their placement): the threads take contiguous ranges of particles, so that
   * each works on a compact region of the chute and the particle data it reads were mostly
   * written by itself (on two cores an unsorted order made every step move most particles'
   * cache lines between the cores).  Each pair writes at most its own slots, each particle
   * sums its pairs in pair order. */
  size_t *porder;              /* np: particles by grid cell (long horizontal axis slowest),
                                * formed by particle_order for renumber_particles just after */
  size_t *pstart;              /* np + 1: the pairs pstart[m] .. pstart[m + 1] - 1 are those
                                * whose sphere i belongs to particle m: the list is built in
                                * index order, so the pair loop reads its pairs' records in
                                * memory order */
  struct pkey *pkeys;          /* 2 np: sort scratch */
  size_t *sto;                 /* ns: a renumbering's new index of each sphere */
  unsigned char *pbuf;         /* scratch of a renumbering: the widest per-particle row (its
                                * wall records, prow bytes), then np marks */
  size_t prow;
  /* The step walks the chunks once: a chunk's pairs, then those of its particles whose
   * pairs are all done (which finds a particle's data still in cache from its pairs instead
   * of streaming the whole state twice per step).  Particle m is read by the pairs of the
   * blocks plo[m] .. phi[m] (its own and those of the neighbours whose block holds a pair
   * with it; a pair is in the block of its sphere i).  It may move once the walk has passed
   * phi[m], and a thread may move it before the others are done only if all those blocks are
   * in its own share; the rest wait for the barrier. */
  uint32_t *plo, *phi;         /* np each */
  double *acc;                 /* 6 np: force and torque of the pairs so far, summed in pair
                                * order by the walk for the particles that move in it; the
                                * others gather the same sums in the same order from pf */
  uint32_t *gq;                /* gcap per thread (maxthreads): gather_pairs' room for the
                                * pairs of one particle that carry a force, */
  unsigned char *gside;        /* and their sides; gcap: at least the most pairs of a particle
                                * in the list (grow_gather, at each build) */
  size_t gcap;
  /* The threads' shares of the chunks: thread t takes chunks bnd[t] .. bnd[t + 1] - 1.  Equal
   * counts at first, then each boundary moves by one chunk at most once in BALANCE_STEPS
   * steps towards the slower thread's side (by the threads' walk times summed over them:
   * balance_shares), since the chute's regions differ in work (the flowing layer, the
   * bottom).  Results do not depend on it. */
  int nbnd;                    /* threads the boundaries are for (0: none yet) */
  int maxthreads;              /* room in bnd, tph, tsum, tpo and ndefer */
  size_t *bnd;                 /* maxthreads + 1 */
  double *tph;                 /* maxthreads: each thread's walk time in the last step, up to
                                * the barrier [s] */
  double *tsum;                /* maxthreads: the walk times summed over the last nsum steps */
  int nsum;
  /* After the barrier a thread moves the particles of its share that waited for another
   * share's pairs.  They lie near the shares' boundaries, in unequal numbers: a pair is in the
   * block of its lower-ranked sphere, and the ranks are the spheres' first numbers, not the
   * spatial order (stop 40 found waiting particles in both threads' shares at every step of the
   * dilute soybean flow).  So a thread with few would idle there while another gathers:
   * instead each thread leaves the moves of the last ndefer[t] particles of its share that
   * could move in the walk until after the barrier, ndefer balanced between steps by the
   * threads' times there (balance_shares).  Results do not depend on it. */
  double *tpo;                 /* maxthreads: each thread's time after the barrier [s] */
  size_t *ndefer;              /* maxthreads */
  gc_nlist_box box;
  size_t nwall_per;            /* wall records per particle sphere: 2 or 3 */
  unsigned char *wact;         /* nwall_per np nsph: 0 if the wall record is virgin (P, alpha,
                                * the normal header's alpha and in_contact all 0), so that the
                                * walls a sphere is far from need not touch their records */
  int placed;
  double g[3];                 /* gravity vector [m/s^2] */
  thread_probe probe;          /* one thread or all: adapt_threads */
} chute_work;

struct pkey {
  uint64_t key;
  size_t p;
};

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

static int err_msg(char *msg, size_t n, int st, const char *fmt_name, double v, const char *range)
{
  if (msg && n)
    snprintf(msg, n, "%s = %g out of range %s", fmt_name, v, range);
  return st;
}

/* ---------- configuration ---------- */

void gc_chute_cfg_soybean(gc_chute_cfg *cfg)
{
  memset(cfg, 0, sizeof *cfg);
  char msg[256];
  cfg->n_particles = 1200;                          /* table 9.1 */
  /* L, W, H = 7.3, 6.1, 5.5 mm, m = 0.149 g: four spheres of R_c = H/2 = 2.75 mm (sec. 2.2) */
  if (gc_shape_ellipsoid4(7.3e-3, 6.1e-3, 5.5e-3, 0.149e-3, &cfg->shape, msg, sizeof msg))
    memset(&cfg->shape, 0, sizeof cfg->shape); /* cannot happen with these numbers */
  cfg->length = 4.16e-2;                            /* table 9.2 */
  cfg->width = 15.20e-2;
  cfg->angle = 21.1 * M_PI / 180.0;
  cfg->gravity = 9.81;
  cfg->bottom = GC_BOTTOM_BEADS;
  cfg->bead_radius = 1.5e-3;                        /* 3.0 mm glass beads */
  cfg->bead_spacing = 3.0e-3; /* touching beads requested: 3.2 mm, the nearest that tiles 4.16 cm */
  cfg->side_walls = 1;
  cfg->nfd = gc_preset_lookup("ep");
  cfg->tfd = gc_preset_lookup("ep");
  /* soybean (table 9.1); sY given and P_Y = 0, so P_Y is derived per pair geometry */
  gc_params soy;
  gc_params_default(&soy);
  soy.E1 = soy.E2 = 2.098e8;
  soy.nu1 = soy.nu2 = 0.4314;
  soy.sY1 = soy.sY2 = 4.857e6;
  soy.P_Y = 0.0;
  soy.C_a = 1.504e-5;
  soy.K_c = 2.954e-6;
  cfg->pp = soy;
  cfg->pp.mu = 0.267;
  /* glass beads: E = 6.3e10 Pa, nu = 0.23, do not yield (sY2 = 0); mu particle-glass 0.328 */
  cfg->pb = soy;
  cfg->pb.E2 = 6.3e10;
  cfg->pb.nu2 = 0.23;
  cfg->pb.sY2 = 0.0;
  cfg->pb.mu = 0.328;
  /* plexiglass side walls: E = 3.2e9 Pa, nu = 0.35, do not yield.  The seed gives no
   * particle-plexiglass friction coefficient: ASSUMPTION mu = 0.3 (between its two values). */
  cfg->pw = soy;
  cfg->pw.E2 = 3.2e9;
  cfg->pw.nu2 = 0.35;
  cfg->pw.sY2 = 0.0;
  cfg->pw.mu = 0.3;
  /* dt: "typically 1/40 of the duration of contact between two spheres" (sec. 4.2.3).  Hertz
   * duration (eq. 3.22) of two constituent spheres (R* = R_c/2, E* of soybean on soybean,
   * m* = m/2) at a typical impact speed of 1 m/s (the flow is ~0.3 m/s; 1 m/s is on the safe
   * side since tau ~ v^-1/5): tau = 1.37e-4 s, dt = 3.4e-6 s. */
  double Rc = 2.75e-3;
  double Es = 1.0 / (2.0 * (1.0 - soy.nu1 * soy.nu1) / soy.E1);
  cfg->dt = gc_hertz_contact_time(0.5 * 0.149e-3, 0.5 * Rc, Es, 1.0) / 40.0;
  cfg->skin = 0.5 * Rc;
  /* fill height: centres up to the height at which 1200 bounding spheres (radius 3.65 mm)
   * would fill the domain at a volume fraction of 0.45 (the clusters themselves fill 28 %;
   * random placement with the exact sphere-sphere test takes ~0.05 s; at 0.6 it fails):
   * bead top + r_b + N (4/3 pi r_b^3) / (0.45 L W) = 0.0015 + 0.00365 + 0.0861 = 0.0913 m.
   * The particles reach the bottom after ~0.15 s of free fall. */
  double rb = cfg->shape.bound_radius > 0 ? cfg->shape.bound_radius : 3.65e-3;
  cfg->fill_height = cfg->bead_radius + rb +
                     cfg->n_particles * (4.0 / 3.0 * M_PI * rb * rb * rb) /
                         (0.45 * cfg->length * cfg->width);
  cfg->seed = 1998;
  cfg->threads = 0;
}

static int check_cfg(const gc_chute_cfg *c, char *msg, size_t n)
{
  const gc_shape *s = &c->shape;
  if (c->n_particles < 1 || c->n_particles > (size_t)1 << 40)
    return err_msg(msg, n, GC_EINVAL, "n_particles", (double)c->n_particles, "[1, 2^40]");
  if (s->nsph < 1 || s->nsph > NSHAPE)
    return err_msg(msg, n, GC_EINVAL, "shape.nsph", (double)s->nsph, "[1, 16]");
  for (size_t k = 0; k < s->nsph; k++) {
    if (!(s->radius[k] > 0) || !isfinite(s->radius[k]))
      return err_msg(msg, n, GC_EINVAL, "shape.radius", s->radius[k], "(0, inf) m");
    for (int d = 0; d < 3; d++)
      if (!isfinite(s->pos[k][d]))
        return err_msg(msg, n, GC_EINVAL, "shape.pos", s->pos[k][d], "finite [m]");
  }
  if (!(s->mass > 0) || !isfinite(s->mass))
    return err_msg(msg, n, GC_EINVAL, "shape.mass", s->mass, "(0, inf) kg");
  for (int d = 0; d < 3; d++)
    if (!(s->inertia[d] > 0) || !isfinite(s->inertia[d]))
      return err_msg(msg, n, GC_EINVAL, "shape.inertia", s->inertia[d], "(0, inf) kg m^2");
  double rmax = 0, reach = 0;
  for (size_t k = 0; k < s->nsph; k++) {
    rmax = fmax(rmax, s->radius[k]);
    reach = fmax(reach, sqrt(dot3(s->pos[k], s->pos[k])) + s->radius[k]);
  }
  if (!(c->skin > 0) || !isfinite(c->skin))
    return err_msg(msg, n, GC_EINVAL, "skin", c->skin, "(0, inf) m");
  /* a sphere must not meet two images of another one, nor a cluster its own image */
  const int beads = c->bottom == GC_BOTTOM_BEADS || c->bottom == GC_BOTTOM_RANDOM;
  double rb = beads ? fmax(rmax, c->bead_radius) : rmax;
  double minper = fmax(2.0 * (rmax + rb + c->skin), 2.0 * reach + 2.0 * rmax + c->skin);
  if (!(c->length >= minper) || !isfinite(c->length)) {
    if (msg && n)
      snprintf(msg, n, "length = %g out of range [%g, inf) m (at least two particle sizes plus "
               "the skin)", c->length, minper);
    return GC_EINVAL;
  }
  double minw = c->side_walls ? 2.0 * reach : minper;
  if (!(c->width >= minw) || !isfinite(c->width)) {
    if (msg && n)
      snprintf(msg, n, "width = %g out of range [%g, inf) m", c->width, minw);
    return GC_EINVAL;
  }
  if (!(c->fill_height >= 0) || !isfinite(c->fill_height))
    return err_msg(msg, n, GC_EINVAL, "fill_height", c->fill_height, "[0, inf) m");
  if (!(fabs(c->angle) <= 0.5 * M_PI))
    return err_msg(msg, n, GC_EINVAL, "angle", c->angle, "[-pi/2, pi/2] rad");
  if (!(c->gravity >= 0) || !isfinite(c->gravity))
    return err_msg(msg, n, GC_EINVAL, "gravity", c->gravity, "[0, inf) m/s^2");
  if (c->bottom != GC_BOTTOM_BEADS && c->bottom != GC_BOTTOM_FLAT && c->bottom != GC_BOTTOM_NONE &&
      c->bottom != GC_BOTTOM_RANDOM)
    return err_msg(msg, n, GC_EINVAL, "bottom", c->bottom,
                   "{0 (beads), 1 (flat), 2 (none), 3 (random)}");
  if (beads && (!(c->bead_radius > 0) || !isfinite(c->bead_radius)))
    return err_msg(msg, n, GC_EINVAL, "bead_radius", c->bead_radius, "(0, inf) m");
  if (c->bottom == GC_BOTTOM_RANDOM &&
      (!(c->bead_coverage > 0) || !(c->bead_coverage <= 0.5)))
    return err_msg(msg, n, GC_EINVAL, "bead_coverage", c->bead_coverage,
                   "(0, 0.5] (random sequential adsorption jams at 0.547)");
  if (c->keep_history != 0 && c->keep_history != 1)
    return err_msg(msg, n, GC_EINVAL, "keep_history", c->keep_history, "{0, 1}");
  if (c->rolling != 0 && c->rolling != 1)
    return err_msg(msg, n, GC_EINVAL, "rolling", c->rolling, "{0, 1}");
  if (c->bottom == GC_BOTTOM_BEADS) {
    if (!(c->bead_spacing >= 2.0 * c->bead_radius) || !(c->bead_spacing <= c->length) ||
        !(c->bead_spacing <= c->width)) {
      if (msg && n)
        snprintf(msg, n, "bead_spacing = %g out of range [%g, %g] m (2 bead_radius .. min(length, "
                 "width))", c->bead_spacing, 2.0 * c->bead_radius, fmin(c->length, c->width));
      return GC_EINVAL;
    }
  }
  if (c->side_walls != 0 && c->side_walls != 1)
    return err_msg(msg, n, GC_EINVAL, "side_walls", c->side_walls, "{0, 1}");
  if (!(c->dt > 0) || !isfinite(c->dt))
    return err_msg(msg, n, GC_EINVAL, "dt", c->dt, "(0, inf) s");
  if (!(c->local_damping >= 0 && c->local_damping < 1))
    return err_msg(msg, n, GC_EINVAL, "local_damping", c->local_damping, "[0, 1)");
  if ((c->rolling_model && c->rolling_model->kind != GC_KIND_ROLLING) ||
      (c->twisting_model && c->twisting_model->kind != GC_KIND_TWISTING)) {
    if (msg && n)
      snprintf(msg, n, "rolling_model / twisting_model: a sub-model of another kind was given");
    return GC_EINVAL;
  }
  if (c->threads < 0 || c->threads > 4096)
    return err_msg(msg, n, GC_EINVAL, "threads", c->threads, "[0, 4096] (0: OpenMP default)");
  if (!c->nfd) {
    if (msg && n)
      snprintf(msg, n, "nfd: no normal contact model given");
    return GC_EINVAL;
  }
  return GC_SUCCESS;
}

/* ---------- laws ---------- */

static int build_law(gc_law *law, const gc_chute_cfg *cfg, const gc_params *base, double R1,
                     double R2, const char *what, char *msg, size_t n)
{
  gc_params p = *base;
  p.R1 = R1;
  p.R2 = R2;
  char m2[256] = "";
  int st = gc_law_init_full(law, cfg->nfd, cfg->tfd, cfg->rolling_model, cfg->twisting_model, &p, m2,
                            sizeof m2);
  if (st && msg && n)
    snprintf(msg, n, "contact law %s (R1 = %g m, R2 = %g m): %s", what, R1, R2, m2);
  return st;
}

static int build_laws(chute_work *w, const gc_chute_cfg *cfg, char *msg, size_t n)
{
  const gc_shape *s = &cfg->shape;
  w->nrad = 0;
  for (size_t k = 0; k < s->nsph; k++) {
    size_t a;
    for (a = 0; a < w->nrad; a++)
      if (w->rad[a] == s->radius[k])
        break;
    if (a == w->nrad)
      w->rad[w->nrad++] = s->radius[k];
    w->srk[k] = a;
  }
  int st;
  for (size_t a = 0; a < w->nrad; a++) {
    for (size_t b = 0; b < w->nrad; b++)
      if ((st = build_law(&w->law_pp[a * w->nrad + b], cfg, &cfg->pp, w->rad[a], w->rad[b],
                          "pp (particle-particle)", msg, n)))
        return st;
    if ((st = build_law(&w->law_pw[a], cfg, &cfg->pw, w->rad[a], 0.0, "pw (particle-wall)", msg,
                        n)))
      return st;
    if (cfg->bottom != GC_BOTTOM_NONE &&
        (st = build_law(&w->law_pb[a], cfg, &cfg->pb, w->rad[a],
                        cfg->bottom == GC_BOTTOM_FLAT ? 0.0 : cfg->bead_radius,
                        "pb (particle-bottom)", msg, n)))
      return st;
  }
  return GC_SUCCESS;
}

const gc_law *gc_chute_law_pp(const gc_chute *c, size_t k1, size_t k2)
{
  const chute_work *w = c->work;
  if (k1 >= c->nsph || k2 >= c->nsph)
    return NULL;
  return &w->law_pp[w->srk[k1] * w->nrad + w->srk[k2]];
}

const gc_law *gc_chute_law_pw(const gc_chute *c, size_t k)
{
  const chute_work *w = c->work;
  return k < c->nsph ? &w->law_pw[w->srk[k]] : NULL;
}

const gc_law *gc_chute_law_pb(const gc_chute *c, size_t k)
{
  const chute_work *w = c->work;
  return (k < c->nsph && c->cfg.bottom != GC_BOTTOM_NONE) ? &w->law_pb[w->srk[k]] : NULL;
}

/* ---------- allocation ---------- */

double gc_chute_memory_estimate(const gc_chute_cfg *cfg)
{
  /* in double: a typo in the domain must not overflow the estimate itself */
  double nb = 0;
  if (cfg->bottom == GC_BOTTOM_BEADS && cfg->bead_spacing > 0) {
    double nx = fmax(1.0, floor(cfg->length / cfg->bead_spacing));
    double a = cfg->length / nx;
    nb = nx * fmax(1.0, floor(cfg->width / (a * sqrt(3.0) / 2.0)));
  }
  double np = (double)cfg->n_particles, nps = np * (double)cfg->shape.nsph, ns = nps + nb;
  double rmax = 0;
  for (size_t k = 0; k < cfg->shape.nsph; k++)
    rmax = fmax(rmax, cfg->shape.radius[k]);
  double bytes = np * (double)(sizeof(gc_rot) + 15 * sizeof(double)) /* x, v, force, ... */
                 + ns * (double)(4 * sizeof(double) + sizeof(long) + 1) /* sx, sr, owner, fixed */
                 + nps * (3.0 * (double)sizeof(gc_chute_contact) + 10 * sizeof(double))
                 + ns * 14.0 * sizeof(double) /* neighbour-list arrays per sphere */
                 + ns * 8.0 * ((double)sizeof(gc_chute_contact) + 11 * sizeof(double)); /* pairs */
  if (rmax > 0) { /* the random-placement grid (gc_chute_place_random) */
    double L[3] = { cfg->length, cfg->fill_height + 4 * rmax, cfg->width }, cells = 1;
    for (int d = 0; d < 3; d++)
      cells *= fmin(1000.0, fmax(1.0, floor(L[d] / (2.0 * rmax))));
    bytes += cells * sizeof(long);
  }
  return bytes;
}

void gc_chute_free(gc_chute *c)
{
  if (!c)
    return;
  chute_work *w = c->work;
  if (w) {
    free(w->soff);
    free(w->simg);
    free(w->wsp);
    free(w->lawk);
    free(w->pf);
    free(w->pact);
    free(w->pen);
    free(w->hist);
    free(w->cpe);
    free(w->cpp);
    free(w->porder);
    free(w->pstart);
    free(w->path);
    free(w->apart_until);
    free(w->rpath);
    free(w->pkeys);
    free(w->sto);
    free(w->pbuf);
    free(w->bnd);
    free(w->tph);
    free(w->tpo);
    free(w->tsum);
    free(w->ndefer);
    free(w->plo);
    free(w->phi);
    free(w->acc);
    free(w->gq);
    free(w->gside);
    free(w->wact);
    free(w);
  }
  gc_nlist_free(c->nl);
  free(c->x);
  free(c->v);
  free(c->rot);
  free(c->force);
  free(c->torque);
  free(c->id);
  free(c->index_of);
  free(c->sx);
  free(c->sr);
  free(c->owner);
  free(c->fixed);
  free(c->wall);
  free(c);
}

static int grow_scratch(chute_work *w, size_t npairs)
{
  if (npairs <= w->cap)
    return GC_SUCCESS;
  size_t cap = npairs + npairs / 2 + 64;
  double *pf = realloc(w->pf, 9 * cap * sizeof *pf);
  if (!pf)
    return GC_ENOMEM;
  w->pf = pf;
  unsigned char *pa = realloc(w->pact, cap);
  if (!pa)
    return GC_ENOMEM;
  w->pact = pa;
  unsigned char *hi = realloc(w->hist, cap);
  if (!hi)
    return GC_ENOMEM;
  w->hist = hi;
  double *au = realloc(w->apart_until, cap * sizeof *au);
  if (!au)
    return GC_ENOMEM;
  w->apart_until = au;
  w->cap = cap;
  return GC_SUCCESS;
}

/* Room in gq, gside on each of maxthreads threads for the pairs of the particle that has the
 * most in the list (gather_pairs): the list's pairs per sphere must be formed. */
static int grow_gather(const gc_chute *c, chute_work *w)
{
  size_t most = 0;
  for (size_t p = 0; p < c->np; p++) {
    size_t n = 0;
    for (size_t k = 0; k < c->nsph; k++) {
      const uint32_t *idx;
      size_t nk;
      gc_nlist_sphere_pairs(c->nl, p * c->nsph + k, &idx, &nk);
      n += nk;
    }
    most = n > most ? n : most;
  }
  if (w->gq && most <= w->gcap)
    return GC_SUCCESS;
  const size_t cap = most + most / 2 + 16, nt = (size_t)w->maxthreads;
  uint32_t *q = realloc(w->gq, nt * cap * sizeof *q);
  if (!q)
    return GC_ENOMEM;
  w->gq = q;
  unsigned char *side = realloc(w->gside, nt * cap);
  if (!side)
    return GC_ENOMEM;
  w->gside = side;
  w->gcap = cap;
  return GC_SUCCESS;
}

int gc_chute_alloc(gc_chute **out, const gc_chute_cfg *cfg, char *msg, size_t msglen)
{
  *out = NULL;
  int st = check_cfg(cfg, msg, msglen);
  if (st)
    return st;
  gc_chute *c = calloc(1, sizeof *c);
  chute_work *w = c ? calloc(1, sizeof *w) : NULL;
  if (!w) {
    free(c);
    snprintf(msg, msglen, "out of memory");
    return GC_ENOMEM;
  }
  c->work = w;
  c->cfg = *cfg;
  if ((st = build_laws(w, cfg, msg, msglen))) {
    gc_chute_free(c);
    return st;
  }
  double *beads = NULL;
  if ((st = gc_chute_bottom_build(cfg, &beads, &c->bottom, msg, msglen))) {
    gc_chute_free(c);
    return st;
  }
  c->np = cfg->n_particles;
  c->nsph = cfg->shape.nsph;
  c->nbeads = c->bottom.n;
  size_t nps = c->np * c->nsph;
  c->ns = nps + c->nbeads;
  w->nwall_per = cfg->bottom == GC_BOTTOM_FLAT ? 3 : 2;
  c->x = calloc(3 * c->np, sizeof *c->x);
  c->v = calloc(3 * c->np, sizeof *c->v);
  c->rot = calloc(c->np, sizeof *c->rot);
  c->force = calloc(3 * c->np, sizeof *c->force);
  c->torque = calloc(3 * c->np, sizeof *c->torque);
  c->id = calloc(c->np + 1, sizeof *c->id);
  c->index_of = calloc(c->np + 1, sizeof *c->index_of);
  c->sx = calloc(3 * c->ns, sizeof *c->sx);
  c->sr = calloc(c->ns, sizeof *c->sr);
  c->owner = calloc(c->ns, sizeof *c->owner);
  c->fixed = calloc(c->ns, sizeof *c->fixed);
  /* every law of the chute composes the same sub-models: one history size */
  c->nhist = gc_law_history_size(&w->law_pp[0]);
  c->rec_size = sizeof(gc_chute_contact) + c->nhist * sizeof(double);
  c->wall = calloc(w->nwall_per * nps, c->rec_size);
  w->soff = calloc(3 * nps, sizeof *w->soff);
  w->simg = calloc(3 * nps, sizeof *w->simg);
  w->wsp = calloc(3 * c->np, sizeof *w->wsp);
  w->lawk = calloc(nps, sizeof *w->lawk);
  w->pen = calloc(PEN_N * c->np, sizeof *w->pen);
  w->cpp = calloc(PEN_N * (c->np / CHUNK + 1), sizeof *w->cpp);
  w->cpe = calloc(CEN_N * (c->np / CHUNK + 1), sizeof *w->cpe);
  w->porder = calloc(c->np + 1, sizeof *w->porder);
  w->pstart = calloc(c->np + 1, sizeof *w->pstart);
  w->path = calloc(c->ns + 1, sizeof *w->path);
  w->rpath = calloc(c->np + 1, sizeof *w->rpath);
  w->pkeys = calloc(2 * c->np + 1, sizeof *w->pkeys);
  w->wact = calloc(w->nwall_per * nps + 1, 1);
  w->sto = calloc(c->ns + 1, sizeof *w->sto);
#ifdef _OPENMP
  w->maxthreads = cfg->threads > 0 ? cfg->threads : omp_get_max_threads();
#else
  w->maxthreads = 1;
#endif
  if (w->maxthreads < 1)
    w->maxthreads = 1;
  w->bnd = calloc((size_t)w->maxthreads + 1, sizeof *w->bnd);
  w->tph = calloc((size_t)w->maxthreads, sizeof *w->tph);
  w->tpo = calloc((size_t)w->maxthreads, sizeof *w->tpo);
  w->tsum = calloc((size_t)w->maxthreads, sizeof *w->tsum);
  w->ndefer = calloc((size_t)w->maxthreads, sizeof *w->ndefer);
  w->plo = calloc(c->np + 1, sizeof *w->plo);
  w->phi = calloc(c->np + 1, sizeof *w->phi);
  w->acc = calloc(6 * c->np + 1, sizeof *w->acc);
  {
    /* the widest row a renumbering moves: a particle's wall records, else its orientation */
    size_t row = w->nwall_per * c->nsph * c->rec_size;
    row = row > sizeof(gc_rot) ? row : sizeof(gc_rot);
    row = row > 3 * c->nsph * sizeof(double) ? row : 3 * c->nsph * sizeof(double);
    w->prow = row;
    w->pbuf = malloc(row + c->np + 1);
  }
  w->centred = c->nsph == 1 && cfg->shape.pos[0][0] == 0.0 && cfg->shape.pos[0][1] == 0.0 &&
               cfg->shape.pos[0][2] == 0.0;
  w->pmax = 0.0;
  for (size_t k = 0; k < c->nsph; k++) {
    const double pk = sqrt(dot3(cfg->shape.pos[k], cfg->shape.pos[k]));
    w->pmax = pk > w->pmax ? pk : w->pmax;
  }
  /* a sphere's centre, (x + simg) + R(q) pos_k with simg = 0 on the axes that have walls, is
   * within |pos_k| of the particle's up to a few roundings of the coordinates (~1e-17 m in the
   * soybean chute), so no sphere reaches a wall from farther than the shape's bound
   * |pos_k| + r_k; the allowance, 1e-9 of the bound (3.7e-12 m for the soybean) and 1e-12 of
   * the width (the coordinates' size), is far above those roundings (walls_apart) */
  w->wall_clear = cfg->shape.bound_radius * (1.0 + 1e-9) + 1e-12 * cfg->width;
  c->nl = gc_nlist_alloc(c->ns, c->rec_size);
  if (!c->x || !c->v || !c->rot || !c->force || !c->torque || !c->sx || !c->sr || !c->owner ||
      !c->fixed || !c->wall || !w->soff || !w->simg || !w->wsp || !w->lawk || !w->pen ||
      !w->cpp || !w->cpe || !w->porder || !w->pstart || !w->path || !w->rpath || !w->pkeys ||
      !w->wact || !w->sto || !w->pbuf || !c->id || !c->index_of || !c->nl || !w->bnd ||
      !w->tph || !w->tpo || !w->tsum || !w->ndefer || !w->plo || !w->phi || !w->acc ||
      grow_scratch(w, 8 * c->ns)) {
    free(beads);
    gc_chute_free(c);
    snprintf(msg, msglen, "out of memory (%zu particles, %zu spheres)", cfg->n_particles,
             (size_t)(cfg->n_particles * cfg->shape.nsph));
    return GC_ENOMEM;
  }
  /* a region of young contact rows for each thread the steps may run on (gc_nlist_payload_on
   * in pair_contact; a build's own thread count follows its pairs, the steps' their pairs) */
  gc_nlist_set_writers(c->nl, w->maxthreads);
  for (size_t p = 0; p < c->np; p++) {
    gc_quat_identity(c->rot[p].q);
    c->id[p] = c->index_of[p] = p;
    for (size_t k = 0; k < c->nsph; k++) {
      size_t i = p * c->nsph + k;
      c->sr[i] = cfg->shape.radius[k];
      c->owner[i] = (long)p;
      c->fixed[i] = 0;
      w->lawk[i] = k;
    }
  }
  for (size_t k = 0; k < c->nbeads; k++) {
    size_t b = nps + k;
    memcpy(c->sx + 3 * b, beads + 3 * k, 3 * sizeof *beads);
    c->sr[b] = cfg->bead_radius;
    c->owner[b] = -1;
    c->fixed[b] = 1;
  }
  free(beads);
  /* neighbour-list box: x periodic over [0, length), z periodic over [0, width) without side
   * walls; y from below the bottom to above the fill height (spheres outside are clamped into
   * the edge cells by gc_nlist). */
  double rmax = 0;
  for (size_t k = 0; k < c->nsph; k++)
    rmax = fmax(rmax, cfg->shape.radius[k]);
  double ylo = c->nbeads ? -cfg->bead_radius : 0.0;
  double yhi = fmax(cfg->fill_height, ylo + 2.0 * rmax + cfg->skin) + cfg->shape.bound_radius;
  w->box.lo[0] = 0.0;
  w->box.hi[0] = cfg->length;
  w->box.lo[1] = ylo;
  w->box.hi[1] = yhi;
  w->box.lo[2] = 0.0;
  w->box.hi[2] = cfg->width;
  w->box.periodic[0] = 1;
  w->box.periodic[1] = 0;
  w->box.periodic[2] = cfg->side_walls ? 0 : 1;
  w->box.skin = cfg->skin;
  w->g[0] = cfg->gravity * sin(cfg->angle);
  w->g[1] = -cfg->gravity * cos(cfg->angle);
  w->g[2] = 0.0;
  *out = c;
  return GC_SUCCESS;
}

/* ---------- positions ---------- */

static double wrap(double x, double L)
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

/* sx = (x + simg) + soff of the spheres of particle p; soff from the orientation.  A centred
 * sphere has soff = 0 (calloc) whatever the orientation, so only its position is formed. */
static void particle_spheres(gc_chute *c, chute_work *w, size_t p)
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
static unsigned char record_used(const gc_chute_contact *ct, const gc_hist_normal *hn)
{
  return ct->P != 0.0 || ct->alpha != 0.0 || hn->in_contact != 0.0 || hn->alpha != 0.0;
}

static int nthreads(const gc_chute *c, size_t work);

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
    w->hist[k] = record_used(ct, (const gc_hist_normal *)ct->h); /* the normal slice is first */
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
 * bits are zero).  It replaced qsort, which took 0.1 ms of a soybean rebuild (1200
 * particles) and 0.4 ms of the matched case's (4000). */
static void sort_keys(const gc_chute *c, const double *xc, size_t stride, struct pkey *keys)
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
static void particle_order(gc_chute *c, chute_work *w, const double *sx)
{
  sort_keys(c, sx, 3 * c->nsph, w->pkeys);
  for (size_t m = 0; m < c->np; m++)
    w->porder[m] = w->pkeys[m].p;
}

/* pstart, the pairs of each particle (a block) of the current list, which was built in index
 * order (rebuild; a checkpoint read renumbers the particles into its order), and plo, phi.
 * GC_EFORMAT if the list's pairs are not in that order (a list of another build). */
static int order_work(gc_chute *c, chute_work *w)
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
    if (J < 0) /* a bead */
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
static int index_list(gc_chute *c, chute_work *w)
{
  const int nt = nthreads(c, gc_nlist_npairs(c->nl) + c->np);
  mark_histories(c, w, nt);
  list_gaps(c, w, nt);
  return order_work(c, w);
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
static int renumber_particles(gc_chute *c, chute_work *w, int for_build)
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
  const int st = for_build ? gc_nlist_renumber_for_build(c->nl, w->sto)
                          : gc_nlist_renumber(c->nl, w->sto);
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

static int rebuild(gc_chute *c, chute_work *w, char *msg, size_t msglen)
{
  wrap_spheres(c, w);
  particle_order(c, w, c->sx);
  if (renumber_particles(c, w, 1)) {
    snprintf(msg, msglen, "internal error: the particles' order is not a permutation");
    return GC_EINVAL;
  }
  gc_nlist_set_order(c->nl, NULL); /* index order, now the spatial order */
  gc_nlist_set_threads(c->nl, nthreads(c, gc_nlist_npairs(c->nl) + c->np));
  int st = gc_nlist_build(c->nl, &w->box, c->sx, c->sr, c->owner, c->fixed, msg, msglen);
  if (st)
    return st;
  st = grow_scratch(w, gc_nlist_npairs(c->nl));
  if (st) {
    snprintf(msg, msglen, "out of memory (%zu neighbour pairs)", gc_nlist_npairs(c->nl));
    return st;
  }
  drift_frame(c, w);
  if (index_list(c, w)) {
    snprintf(msg, msglen, "internal error: the neighbour list is not in the particles' order");
    return GC_EINVAL;
  }
  if (grow_gather(c, w)) {
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
    c->x[3 * p] = wrap(c->x[3 * p], c->cfg.length);
    if (!c->cfg.side_walls)
      c->x[3 * p + 2] = wrap(c->x[3 * p + 2], c->cfg.width);
    memset(w->simg + 3 * p * c->nsph, 0, 3 * c->nsph * sizeof *w->simg);
    particle_spheres(c, w, p);
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
  int st = rebuild(c, w, msg, msglen);
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

/* ---------- random placement ---------- */

typedef struct {
  int n[3];
  double h[3], lo[3], L[3];
  int per[3];
  long *head, *next;
} place_grid;

static int cell_of(const place_grid *g, int d, double x)
{
  int i = (int)floor((x - g->lo[d]) / g->h[d]);
  if (i < 0)
    i = 0;
  if (i >= g->n[d])
    i = g->n[d] - 1;
  return i;
}

/* Does a sphere (centre s, radius r) overlap any placed particle sphere? */
static int grid_overlap(const place_grid *g, const gc_chute *c, const double s[3], double r)
{
  int ci[3];
  for (int d = 0; d < 3; d++)
    ci[d] = cell_of(g, d, s[d]);
  for (int a = -1; a <= 1; a++)
    for (int b = -1; b <= 1; b++)
      for (int e = -1; e <= 1; e++) {
        int cc[3] = { ci[0] + a, ci[1] + b, ci[2] + e };
        int skip = 0;
        for (int d = 0; d < 3; d++) {
          if (cc[d] < 0 || cc[d] >= g->n[d]) {
            if (!g->per[d]) {
              skip = 1;
              break;
            }
            cc[d] = (cc[d] + g->n[d]) % g->n[d];
          }
        }
        if (skip)
          continue;
        long cell = ((long)cc[0] * g->n[1] + cc[1]) * g->n[2] + cc[2];
        for (long j = g->head[cell]; j >= 0; j = g->next[j]) {
          double d2 = 0;
          for (int d = 0; d < 3; d++) {
            double dx = c->sx[3 * j + d] - s[d];
            if (g->per[d])
              dx -= g->L[d] * round(dx / g->L[d]);
            d2 += dx * dx;
          }
          double rr = r + c->sr[j];
          if (d2 < rr * rr)
            return 1;
        }
      }
  return 0;
}

/* Number the placed particles (x, q of np particles, permuted in place) in the spatial order
 * of order_work: particles that are neighbours in space are neighbours in memory, which is what
 * the caches and the threads' ranges need.  The flow keeps most of this order: it mixes along
 * the chute (x) quickly, across it (z) and in depth (y) slowly, and z, y are the slower keys
 * when the width is the longer side.  The same positions and orientations as drawn (the random
 * sequence is unchanged), only numbered differently. */
static int number_in_space(gc_chute *c, double *x, double *q, char *msg, size_t msglen)
{
  const size_t np = c->np;
  chute_work *w = c->work;
  double *tmp = malloc(7 * (np > 0 ? np : 1) * sizeof *tmp);
  if (!tmp) {
    snprintf(msg, msglen, "out of memory");
    return GC_ENOMEM;
  }
  sort_keys(c, x, 3, w->pkeys);
  for (size_t m = 0; m < np; m++) {
    size_t p = w->pkeys[m].p;
    memcpy(tmp + 7 * m, x + 3 * p, 3 * sizeof *x);
    memcpy(tmp + 7 * m + 3, q + 4 * p, 4 * sizeof *q);
  }
  for (size_t m = 0; m < np; m++) {
    memcpy(x + 3 * m, tmp + 7 * m, 3 * sizeof *x);
    memcpy(q + 4 * m, tmp + 7 * m + 3, 4 * sizeof *q);
  }
  free(tmp);
  return GC_SUCCESS;
}

int gc_chute_place_random(gc_chute *c, char *msg, size_t msglen)
{
  const gc_chute_cfg *cfg = &c->cfg;
  chute_work *w = c->work;
  const gc_shape *sh = &cfg->shape;
  double rmax = 0;
  for (size_t k = 0; k < sh->nsph; k++)
    rmax = fmax(rmax, sh->radius[k]);
  /* the bottom surface: particle spheres must stay above y_floor (beads: above the bead tops,
   * a conservative test; flat: above the plane; none: centres above 0) */
  double y_floor = c->nbeads ? cfg->bead_radius
                   : cfg->bottom == GC_BOTTOM_FLAT ? 0.0 : -INFINITY;
  double ylo = cfg->bottom == GC_BOTTOM_NONE ? 0.0 : y_floor;
  if (!(cfg->fill_height > ylo + sh->bound_radius)) {
    snprintf(msg, msglen, "fill_height = %g out of range (%g, inf) m: no room above the bottom "
             "for a particle of bounding radius %g m", cfg->fill_height,
             ylo + sh->bound_radius, sh->bound_radius);
    return GC_EINVAL;
  }
  place_grid g;
  memset(&g, 0, sizeof g);
  g.lo[0] = 0;
  g.L[0] = cfg->length;
  g.lo[1] = ylo - sh->bound_radius;
  g.L[1] = cfg->fill_height + 2.0 * sh->bound_radius - g.lo[1];
  g.lo[2] = 0;
  g.L[2] = cfg->width;
  g.per[0] = 1;
  g.per[1] = 0;
  g.per[2] = !cfg->side_walls;
  long ncell = 1;
  for (int d = 0; d < 3; d++) {
    g.n[d] = (int)floor(g.L[d] / (2.0 * rmax));
    if (g.n[d] < 1)
      g.n[d] = 1;
    if (g.n[d] > 1000)
      g.n[d] = 1000;
    g.h[d] = g.L[d] / g.n[d];
    ncell *= g.n[d];
  }
  size_t nps = c->np * c->nsph;
  g.head = malloc((size_t)ncell * sizeof *g.head);
  g.next = malloc((nps > 0 ? nps : 1) * sizeof *g.next);
  double *x = malloc(3 * c->np * sizeof *x), *q = malloc(4 * c->np * sizeof *q);
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  int st = GC_SUCCESS;
  if (!g.head || !g.next || !x || !q || !rng) {
    snprintf(msg, msglen, "out of memory");
    st = GC_ENOMEM;
    goto done;
  }
  gsl_rng_set(rng, cfg->seed);
  for (long i = 0; i < ncell; i++)
    g.head[i] = -1;
  const long max_tries = 20000;
  for (size_t p = 0; p < c->np && !st; p++) {
    long tries;
    for (tries = 0; tries < max_tries; tries++) {
      double u[3] = { gsl_rng_uniform(rng), gsl_rng_uniform(rng), gsl_rng_uniform(rng) };
      double X[3];
      X[0] = cfg->length * gsl_rng_uniform(rng);
      X[1] = ylo + (cfg->fill_height - ylo) * gsl_rng_uniform(rng);
      X[2] = cfg->width * gsl_rng_uniform(rng);
      double Q[4], M[9];
      gc_quat_from_uniform(u, Q);
      gc_quat_to_matrix(Q, M);
      int bad = 0;
      double S[NSHAPE][3];
      for (size_t k = 0; k < sh->nsph && !bad; k++) {
        double o[3];
        matvec(M, sh->pos[k], o);
        double r = sh->radius[k];
        for (int d = 0; d < 3; d++)
          S[k][d] = X[d] + o[d];
        S[k][0] = wrap(S[k][0], cfg->length);
        if (!cfg->side_walls)
          S[k][2] = wrap(S[k][2], cfg->width);
        else if (S[k][2] < r || S[k][2] > cfg->width - r)
          bad = 1;
        if (cfg->bottom != GC_BOTTOM_NONE && S[k][1] - r < y_floor)
          bad = 1;
        if (!bad && grid_overlap(&g, c, S[k], r))
          bad = 1;
      }
      if (bad)
        continue;
      memcpy(x + 3 * p, X, sizeof X);
      memcpy(q + 4 * p, Q, sizeof Q);
      for (size_t k = 0; k < sh->nsph; k++) {
        size_t i = p * c->nsph + k;
        memcpy(c->sx + 3 * i, S[k], sizeof S[k]);
        long cell = ((long)cell_of(&g, 0, S[k][0]) * g.n[1] + cell_of(&g, 1, S[k][1])) * g.n[2] +
                    cell_of(&g, 2, S[k][2]);
        g.next[i] = g.head[cell];
        g.head[cell] = (long)i;
      }
      break;
    }
    if (tries == max_tries) {
      snprintf(msg, msglen, "cannot place particle %zu of %zu without overlap after %ld random "
               "trials: increase fill_height (now %g m) or reduce n_particles", p + 1, c->np,
               max_tries, cfg->fill_height);
      st = GC_EINVAL;
    }
  }
  if (!st)
    st = number_in_space(c, x, q, msg, msglen);
  if (!st)
    st = gc_chute_place(c, x, q, NULL, NULL, msg, msglen);
done:
  gsl_rng_free(rng);
  free(g.head);
  free(g.next);
  free(x);
  free(q);
  (void)w;
  return st;
}

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
static double rolling_distance(const double u1[3], const double u2[3], double dt)
{
  double m1 = sqrt(dot3(u1, u1)), m2 = sqrt(dot3(u2, u2));
  if (!(m1 > 0.0) || !(m2 > 0.0))
    return 0.0;
  double cs = dot3(u1, u2) / (m1 * m2);
  return cs > 0.0 ? dt * fmin(m1, m2) * cs : 0.0;
}

static void tangential_part(const double v[3], const double n[3], double o[3])
{
  double vn = dot3(v, n);
  for (int e = 0; e < 3; e++)
    o[e] = v[e] - vn * n[e];
}

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
  size_t k[GC_CONTACT3_LANES];                         /* the pairs */
  size_t I[GC_CONTACT3_LANES];                         /* owner of sphere i */
  long J[GC_CONTACT3_LANES];                           /* owner of sphere j, -1: a bead */
  /* the contact point from the centre of i's particle, of j's (0 for a bead) */
  double li[GC_CONTACT3_LANES][3], lj[GC_CONTACT3_LANES][3];
  int n;
  size_t m0, m1;   /* the walk's share (moves_in_walk) */
  double *ce;      /* the chunk's work sums, CEN_N */
  long *bad_pair;  /* the least pair with a non-finite force */
} contact_queue;

/* Pair k of the list, whose spheres overlap (d, dist2 as pair_separation): its payload (a new
 * one from thread tid's rows, gc_nlist_payload_on) and geometry into the queue q; GC_ENAN on
 * a non-finite separation. */
static int pair_contact(gc_chute *c, chute_work *w, size_t k, const gc_npair *pr,
                        const double d[3], double dist2, double ri, double rj,
                        contact_queue *q, int tid);
static void contact_flush(gc_chute *c, chute_work *w, contact_queue *q);
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
static inline int pair_force(gc_chute *c, chute_work *w, size_t k, const gc_npair *pr,
                             const double L[3], contact_queue *q, int tid)
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
        contact_flush(c, w, q); /* the queued pairs' work first, in pair order */
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
  return pair_contact(c, w, k, pr, d, dist2, ri, rj, q, tid);
}

/* The rest of pair_force for two spheres that overlap: d = x_j - x_i (its periodic image),
 * dist2 = |d|^2 < (r_i + r_j)^2.  Not inlined into pair_force: GCC then loaded the many
 * operands of this part before the overlap test, for every pair that turns out apart. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int pair_contact(gc_chute *c, chute_work *w, size_t k, const gc_npair *pr,
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
    tangential_part(dv, n, dvt);
    for (int e = 0; e < 3; e++) {
      vc[e] = vci[e] + ai * dvt[e] / dist;
      tmp[e] = vc[e] - vi[e];
    }
    tangential_part(tmp, n, u1);
    for (int e = 0; e < 3; e++)
      tmp[e] = vc[e] - vj[e];
    tangential_part(tmp, n, u2);
    ds_roll = rolling_distance(u1, u2, c->cfg.dt);
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
    contact_flush(c, w, q);
  return GC_SUCCESS;
}

/* 1 if particle m moves in the walk of the thread whose share is particles m0 .. m1 - 1: all
 * its pairs are in that share (chute_work.plo, phi) */
static inline int moves_in_walk(const chute_work *w, size_t m, size_t m0, size_t m1)
{
  return w->plo[m] >= m0 && w->phi[m] < m1;
}

/* Steps the queued contacts (gc_contact3_step_lanes) and finishes each in queue order: hist[k],
 * its work into q->ce, a non-finite one into *q->bad_pair; one that carries a force sets
 * PACT_FORCE in pact[k], and its force on i, torque on owner(i) and on owner(j) go into the
 * sums acc of its particles that move in the walk, in pair order, and into its slot pf only
 * if one of them gathers after the barrier (none on one thread). */
static void contact_flush(gc_chute *c, chute_work *w, contact_queue *q)
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

/* The law of wall record k (0, 1: the side walls z = 0 and z = width; 2: the flat bottom) of
 * a sphere of radius index ki. */
static const gc_law *wall_law(const chute_work *w, size_t ki, size_t k)
{
  return k < 2 ? &w->law_pw[ki] : &w->law_pb[ki];
}

/* The flag wact holds for wall record k of particle sphere i: record_used of the record */
static unsigned char wall_flag(const gc_chute *c, const chute_work *w, size_t i, size_t k)
{
  gc_chute_contact *ct = gc_chute_wall(c, w->nwall_per * i + k);
  return record_used(ct, gc_law_hist_normal(wall_law(w, w->srk[w->lawk[i]], k), ct->h));
}

/* wact from the records (after placement or a checkpoint read) */
static void mark_walls(gc_chute *c, chute_work *w)
{
  const size_t nps = c->np * c->nsph;
  for (size_t i = 0; i < nps; i++)
    for (size_t k = 0; k < w->nwall_per; k++)
      w->wact[w->nwall_per * i + k] = wall_flag(c, w, i, k);
}

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
      bad += w->wact[w->nwall_per * i + k] != wall_flag(c, w, i, k);
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
    const int forced = ct->P != 0.0 || ct->alpha != 0.0 || ct->Q[0] != 0.0 ||
                       ct->Q[1] != 0.0 || ct->Q[2] != 0.0;
    const int to_reset =
        c->cfg.keep_history ? forced : record_used(ct, (const gc_hist_normal *)ct->h) || forced;
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

/* The overlaps of a particle sphere (centre s, radius r) with the walls of its records, into
 * alphas: 0, 1 the side walls z = 0 (overlap r - z) and z = width (r - (width - z)), 2 the
 * flat bottom y = 0 (r - y), whose record keeps its slot [3 i + 2] even without side walls;
 * -1 for a wall the chute does not have (its record stays virgin).  Returns the number of
 * records to look at: 3 with a flat bottom, else 2 with side walls, else 0.  The one
 * statement of the overlaps for wall_forces and walls_apart, which must agree. */
static size_t wall_overlaps(const gc_chute_cfg *cfg, const double s[3], double r,
                            double alphas[3])
{
  alphas[0] = cfg->side_walls ? r - s[2] : -1.0;
  alphas[1] = cfg->side_walls ? r - (cfg->width - s[2]) : -1.0;
  alphas[2] = cfg->bottom == GC_BOTTOM_FLAT ? r - s[1] : -1.0;
  return cfg->bottom == GC_BOTTOM_FLAT ? 3 : cfg->side_walls ? 2 : 0;
}

/* Wall / flat-bottom contacts of particle sphere i (particle p): adds force and torque. */
static int wall_forces(gc_chute *c, chute_work *w, size_t p, size_t i, double F[3],
                       double T[3], double *pen)
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
    const gc_law *law = wall_law(w, ki, k);
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
      tangential_part(vc, nn[k], u2);
      for (int e = 0; e < 3; e++)
        tmp[e] = vc[e] - vi[e];
      tangential_part(tmp, nn[k], u1);
      ds_roll = rolling_distance(u1, u2, cfg->dt);
    }
    /* history at separation: a wall record has no list; it keeps its state while the sphere
     * is within the skin of the wall */
    int keep = cfg->keep_history && alphas[k] > -cfg->skin;
    int active;
    double work[2], mc[3]; /* the wall is at rest: w_1 - w_2 = w_p */
    int st = gc_contact3_step(law, ct, alphas[k], nn[k], vrel, w->wsp + 3 * p, cfg->dt, ds_roll, keep,
                     f, mc, &active, work);
    w->wact[rk] = record_used(ct, hk);
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
static int walls_apart(const gc_chute *c, const chute_work *w, size_t p)
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

/* Threads of the parallel loops: cfg.threads when given; by default the OpenMP default, but a
 * single thread for small systems (below ~1000 pairs the fork/join and barrier costs exceed the
 * work, and on a loaded machine spinning barriers are very slow); at most the workspace's
 * maxthreads (room in bnd and tph; the OpenMP default may have grown since the allocation).
 * Results do not depend on it. */
static int nthreads(const gc_chute *c, size_t work)
{
#ifdef _OPENMP
  const chute_work *w = c->work;
  const int n = c->cfg.threads > 0 ? c->cfg.threads : work < 1000 ? 1 : omp_get_max_threads();
  if (w->probe.one)
    return 1;
  return n < w->maxthreads ? n : w->maxthreads;
#else
  (void)c;
  (void)work;
  return 1;
#endif
}

/* Adds a pair's force f on its sphere i and the torque t on the particle of sphere i (is_i)
 * or of sphere j to that particle's sums F, T.  The walk (into acc, contact_flush) and
 * gather_pairs (add_pair) both sum through it, so that a particle's sum is the same to the
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

/* The pair forces and torques on particle p in pair order (the order of the walk's sums in
 * acc), F, T zero on entry: the pairs of its spheres' lists that carry a force (PACT_FORCE),
 * put in pair order by insertion into fq, fside (room for all of p's pairs: gcap).  Where
 * the flow is dilute few pairs carry a force (~1 of the 27 pairs of a soybean cluster at
 * 7 s), and this took half the time of the merge of the spheres' lists by pair index that it
 * replaced (the same order: a pair is in one list of p unless both its spheres are p's, and
 * then its second entry goes after its first, as the merge took the lower sphere first). */
static void gather_pairs(const gc_chute *c, const chute_work *w, size_t p, uint32_t *fq,
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
    gather_pairs(c, w, p, fq, fside, F, T);
  }
  if (!walls_apart(c, w, p))
    for (size_t k = 0; k < nsph; k++)
      if (wall_forces(c, w, p, p * nsph + k, F, T, pen))
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
    double xn = wrap(x[d], L);
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

/* The step's work into the energy budget: the chunks' sums (each in pair / particle order)
 * added serially in chunk order, so that it does not depend on the thread count. */
static void energy_sum(gc_chute *c, const chute_work *w, size_t nchunk)
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
  uint32_t *gq; /* the thread's room for gather_pairs (chute_work.gq, gside) */
  unsigned char *gside;
  double reach; /* rpath below which a particle cannot call for a rebuild (gc_chute_step) */
} lanes;

/* Move each boundary between two threads' shares one chunk towards the thread whose walks took
 * more than 2 % longer in the last BALANCE_STEPS steps (a chunk is 1 / 19 of a thread's share
 * in the soybean chute on 2 threads, so the shares settle within ~3 % of balance).  Not after
 * each step: one step's walk times differ by as much by chance, and the boundary moved in 86 %
 * of the steps of the dilute soybean flow; each move hands a chunk's particles, pairs and
 * contact records to the other core, whose first reads of them then miss its caches (the
 * threads' walks took 1.14x, their contact laws 1.41x, the processor time of one thread).
 * A step lasts the longest walk (the barrier) plus the longest part after it, so the two parts
 * are balanced each on its own: the walks by the boundaries, the parts after the barrier by
 * the moves each thread defers to it (ndefer, LANES more per step while its part is below 90 %
 * of the longest, LANES fewer while it is the longest; that moves no data between the cores).
 * Balanced on whole times instead, the walk of the thread with fewer waiting particles was
 * ~6 % the longer on the soybean chute on 2 threads. */
static void balance_shares(chute_work *w, size_t np)
{
  size_t *b = w->bnd;
  double *tp = w->tsum;
  for (int t = 0; t < w->nbnd; t++)
    tp[t] += w->tph[t];
  if (++w->nsum == BALANCE_STEPS) {
    for (int t = 0; t + 1 < w->nbnd; t++) {
      if (tp[t] > 1.02 * tp[t + 1] && b[t + 1] > b[t] + 1)
        b[t + 1]--;
      else if (tp[t + 1] > 1.02 * tp[t] && b[t + 1] + 1 < b[t + 2])
        b[t + 1]++;
    }
    for (int t = 0; t < w->nbnd; t++)
      tp[t] = 0.0;
    w->nsum = 0;
  }
  double longest = 0.0;
  for (int t = 0; t < w->nbnd; t++)
    longest = w->tpo[t] > longest ? w->tpo[t] : longest;
  for (int t = 0; t < w->nbnd; t++) {
    const size_t share = (b[t + 1] - b[t]) * CHUNK < np ? (b[t + 1] - b[t]) * CHUNK : np;
    if (w->tpo[t] < 0.9 * longest && w->ndefer[t] + LANES <= share)
      w->ndefer[t] += LANES;
    else if (w->tpo[t] == longest && w->ndefer[t] >= LANES)
      w->ndefer[t] -= LANES;
  }
}

/* move_lanes' leap-frog, gravity work and rotation over the lanes; isotropic (the shape's
 * moments are equal) and damped (local damping ld > 0) are constants where this is inlined.
 * WS: the angular velocities in space axes at t_{n-1/2}, replaced by those at t_{n+1/2}. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void lanes_step(const double I[3], const double g[3], double mass, double dt,
                              double ld, double F[3][LANES], double T[3][LANES],
                              double X[3][LANES], double V[3][LANES], double Q[4][LANES],
                              double W[3][LANES], double DW[3][LANES], double WS[3][LANES],
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

/* A bound on how far a step moves any sphere of a particle whose centre moves at speed v and
 * which turns at angular speed w (both at t_{n+1/2}, the step's): the centre by |v| dt, a
 * sphere at |pos| <= pmax from it by at most the angle turned times pmax, and the Cayley step
 * (eq. 2.24-2.27) turns by 4 atan(dt |w| / 4) <= dt |w|; eps for the roundings
 * (chute_work.path_eps).  A NaN stays a NaN (the pairs are then looked at). */
static inline double path_step(double v, double w, double pmax, double dt, double eps)
{
  return (v + w * pmax) * dt * (1.0 + 1e-9) + eps;
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
static void move_lanes(gc_chute *c, chute_work *w, const gc_nlist_frame *fr, lanes *q,
                       int early, double *dmax2, long *bad_p)
{
  const int n = q->n;
  q->n = 0;
  if (n == 0)
    return;
  const size_t nsph = c->nsph;
  const double dt = c->cfg.dt, mass = c->cfg.shape.mass, *I = c->cfg.shape.inertia;
  const double ld = c->cfg.local_damping;
  const double *g = w->g;
  size_t pl[LANES];
  int bad[LANES];
  /* the lanes beyond n repeat lane 0's numbers and are not written back */
  GC_LANE_ALIGN double F[3][LANES], T[3][LANES], X[3][LANES], V[3][LANES], Q[4][LANES],
      W[3][LANES], DW[3][LANES], WS[3][LANES];
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
        particle_spheres(c, w, pl[l]);
  } else {
    double R[9][LANES];
    for (int l = 0; l < LANES; l++) {
      double Rl[9];
      const double ql[4] = { Q[0][l], Q[1][l], Q[2][l], Q[3][l] };
      gc_quat_to_matrix(ql, Rl);
      for (int e = 0; e < 9; e++)
        R[e][l] = Rl[e];
    }
    for (int e = 0; e < 3; e++) /* wrapped */
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
  double M2[LANES] = { 0.0 };
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
  for (int l = 0; l < n; l++) {
    if (M2[l] > *dmax2)
      *dmax2 = M2[l];
    if (bad[l] && (long)pl[l] < *bad_p)
      *bad_p = (long)pl[l];
  }
}

/* Pair k in the walk of thread tid (the queue q's): its force (pair_force, contact_flush;
 * *q->bad_pair takes the least k of a non-finite one) into the sums of its particles that move
 * in the walk, in pair order. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void walk_pair(gc_chute *c, chute_work *w, const gc_npair *pairs, size_t k,
                             const double L[3], contact_queue *q, int tid)
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
    move_lanes(c, w, fr, q, early, dmax2, bad_p);
}

#ifdef _OPENMP
static int cmp_double(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median_of(double *t, int n)
{
  qsort(t, (size_t)n, sizeof *t, cmp_double);
  return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}
#endif

/* one thread from this step on; the shares of the threads before it kept */
static void probe_to_one(chute_work *w)
{
  thread_probe *pr = &w->probe;
  if (!pr->one && w->nbnd > 1 && w->nbnd <= PROBE_KEEP) {
    pr->keep_n = w->nbnd;
    memcpy(pr->keep_bnd, w->bnd, (size_t)(w->nbnd + 1) * sizeof *w->bnd);
    memcpy(pr->keep_defer, w->ndefer, (size_t)w->nbnd * sizeof *w->ndefer);
  }
  pr->one = 1;
}

/* all threads from this step on, with their kept shares */
static void probe_to_all(chute_work *w)
{
  thread_probe *pr = &w->probe;
  if (pr->one && pr->keep_n > 1) {
    memcpy(w->bnd, pr->keep_bnd, (size_t)(pr->keep_n + 1) * sizeof *w->bnd);
    memcpy(w->ndefer, pr->keep_defer, (size_t)pr->keep_n * sizeof *w->ndefer);
    for (int t = 0; t < pr->keep_n; t++)
      w->tsum[t] = 0.0;
    w->nsum = 0;
    w->nbnd = pr->keep_n;
  }
  pr->one = 0;
}

/* At the start of a step: the wall time of the last one into the thread probe (thread_probe),
 * which then sets probe.one for this step.  Only where more than one thread would run. */
static void adapt_threads(gc_chute *c)
{
#ifdef _OPENMP
  chute_work *w = c->work;
  thread_probe *pr = &w->probe;
  const int n = c->cfg.threads > 0 ? c->cfg.threads : omp_get_max_threads();
  if (w->maxthreads < 2 || n < 2) {
    pr->one = 0;
    return;
  }
  const double now = omp_get_wtime(), dt = pr->t_last > 0 ? now - pr->t_last : -1.0;
  pr->t_last = now;
  if (pr->phase > 0 && dt >= 0 && pr->left < PROBE_STEPS)
    pr->times[pr->phase - 1][pr->n++] = dt; /* the first step of a phase settles */
  if (pr->left > 0) {
    pr->left--;
    return;
  }
  if (pr->phase == 1) { /* one thread measured: now all */
    pr->phase = 2;
    probe_to_all(w);
    pr->n = 0;
    pr->left = PROBE_STEPS;
  } else if (pr->phase == 2) { /* both measured: keep the faster until the next probe */
    if (median_of(pr->times[0], PROBE_STEPS) < median_of(pr->times[1], PROBE_STEPS))
      probe_to_one(w);
    pr->phase = 0;
    pr->left = PROBE_PERIOD;
  } else { /* a probe: one thread first */
    pr->phase = 1;
    probe_to_one(w);
    pr->n = 0;
    pr->left = PROBE_STEPS;
  }
#else
  (void)c;
#endif
}

int gc_chute_step(gc_chute *c, char *msg, size_t msglen)
{
  chute_work *w = c->work;
  if (!w->placed) {
    snprintf(msg, msglen, "the particles have not been placed (gc_chute_place / "
             "gc_chute_place_random)");
    return GC_EINVAL;
  }
  adapt_threads(c);
  const long np = (long)c->np;
  const int nt = nthreads(c, gc_nlist_npairs(c->nl) + c->np);
  const long npr = (long)gc_nlist_npairs(c->nl);
  const gc_npair *pairs = gc_nlist_pairs(c->nl);
  const size_t nch = ((size_t)np + CHUNK - 1) / CHUNK;
  if (w->nbnd != nt) { /* equal shares to begin with, no moves deferred */
    for (int t = 0; t <= nt; t++)
      w->bnd[t] = nch * (size_t)t / (size_t)nt;
    for (int t = 0; t < nt; t++) {
      w->ndefer[t] = 0;
      w->tsum[t] = 0.0;
    }
    w->nsum = 0;
    w->nbnd = nt;
  }
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
    /* the skip test's arrays in locals: a store to pact (bytes, which may alias anything)
     * would otherwise make the compiler read each pointer from w again for every pair */
    const unsigned char *const hist = w->hist;
    unsigned char *const pact = w->pact;
    const double *const apart_until = w->apart_until, *const path = w->path;
    int sparse = 0; /* the last batch of pairs mostly apart (the skip test below) */
    size_t u = m0; /* the walk's next particle to move */
    /* particles queued to move (move_queued) */
    lanes mv = { .n = 0, .gq = w->gq + tid * w->gcap, .gside = w->gside + tid * w->gcap,
                 .reach = reach };
    /* the pairs that touch, queued for the contact lanes (contact_flush) */
    contact_queue cq;
    cq.n = 0;
    cq.m0 = m0;
    cq.m1 = m1;
    cq.ce = NULL;
    cq.bad_pair = &bad_pair;
    for (size_t b = b0; b < b1; b++) {
      const size_t e = chunk_end(b, (size_t)np);
      const size_t k0 = w->pstart[b * CHUNK];
      const size_t k1 = w->pstart[e];
      double ce[CEN_N] = { 0, 0, 0, 0 };
      cq.ce = ce;
      for (size_t kb = k0; kb < k1; kb += WALK_BATCH) {
        const size_t ke = kb + WALK_BATCH < k1 ? kb + WALK_BATCH : k1;
        /* The skip test (pair_may_touch) passes over the pairs apart for certain.  Where
         * most are apart (the dilute flow: ~1 in 5 passes), the batch's passing pairs are
         * first gathered without a branch, since which ones pass is as good as random to the
         * branch predictor (the walk 0.8x its time); where most pass (a dense flow), the
         * test stays in the loop, whose branch is then predicted.  Chosen by the previous
         * batch; the same pairs in the same order either way. */
        size_t npass = 0;
        if (sparse) {
          unsigned short todo[WALK_BATCH];
          size_t ntodo = 0;
          for (size_t k = kb; k < ke; k++) {
            todo[ntodo] = (unsigned short)(k - kb);
            ntodo += pair_may_touch(hist, apart_until, path, pairs, k);
            pact[k] = 0;
          }
          for (size_t q = 0; q < ntodo; q++)
            walk_pair(c, w, pairs, kb + todo[q], L, &cq, (int)tid);
          npass = ntodo;
        } else {
          for (size_t k = kb; k < ke; k++) {
            if (!hist[k] && !pair_may_touch(hist, apart_until, path, pairs, k)) {
              pact[k] = 0; /* apart for certain, nothing to reset */
              continue;
            }
            npass++;
            walk_pair(c, w, pairs, k, L, &cq, (int)tid);
          }
        }
        sparse = 2 * npass < ke - kb;
      }
      contact_flush(c, w, &cq); /* the chunk's last contacts, before its particles move */
      cq.ce = NULL;
      memcpy(w->cpe + CEN_N * b, ce, sizeof ce);
      /* the blocks up to e - 1 are done: queue the particles in order while they may move
       * (moved four at a time, move_queued; the rest of the queue before the barrier) */
      for (; u < e && u < md; u++) {
        if (!moves_in_walk(w, u, m0, m1))
          continue; /* after the barrier */
        if (w->phi[u] >= e)
          break; /* a later block of this share still reads it */
        move_queued(c, w, &frame, &mv, u, 1, &dmax2, &bad_p);
      }
    }
    for (; u < md; u++) /* all blocks of the share are done */
      if (moves_in_walk(w, u, m0, m1))
        move_queued(c, w, &frame, &mv, u, 1, &dmax2, &bad_p);
    move_lanes(c, w, &frame, &mv, 1, &dmax2, &bad_p);
#ifdef _OPENMP
    double tw = omp_get_wtime() - t0;
#pragma omp barrier
    const double ta = omp_get_wtime();
#endif
    for (size_t m = m0; m < m1; m++)
      if (!moves_in_walk(w, m, m0, m1))
        move_queued(c, w, &frame, &mv, m, 0, &dmax2, &bad_p);
    move_lanes(c, w, &frame, &mv, 0, &dmax2, &bad_p);
    for (size_t m = md; m < m1; m++) /* the deferred ones */
      if (moves_in_walk(w, m, m0, m1))
        move_queued(c, w, &frame, &mv, m, 1, &dmax2, &bad_p);
    move_lanes(c, w, &frame, &mv, 1, &dmax2, &bad_p);
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
  balance_shares(w, (size_t)np);
  if (bad_pair < npr) {
    const gc_npair *pr = &pairs[bad_pair];
    /* particles by number (id), their spheres by place in the cluster */
    const long I = c->owner[pr->i], J = c->owner[pr->j];
    const gc_params *q = &c->cfg.pp;
    snprintf(msg, msglen, "step %ld (t = %g s): non-finite contact force between sphere %zu of "
             "particle %zu and %s %zu (particle parameters E = %g Pa, nu = %g, sY = %g Pa, "
             "C_a = %g m/N, K_c = %g 1/N, mu = %g; dt = %g s)", c->step, c->t,
             (size_t)pr->i % c->nsph, c->id[I], J >= 0 ? "particle" : "bead",
             J >= 0 ? c->id[J] : (size_t)pr->j - c->np * c->nsph, q->E1, q->nu1, q->sY1,
             q->C_a, q->K_c, q->mu, c->cfg.dt);
    return GC_ENAN;
  }
  if (bad_p < np) {
    const double *F = c->force + 3 * bad_p;
    const gc_params *q = &c->cfg.pp;
    snprintf(msg, msglen, "step %ld (t = %g s): non-finite force, contact state or position of "
             "particle %zu (force %g %g %g N; particle parameters E = %g Pa, nu = %g, sY = %g "
             "Pa, C_a = %g m/N, K_c = %g 1/N, mu = %g; dt = %g s)", c->step, c->t,
             c->id[bad_p], F[0], F[1], F[2], q->E1, q->nu1, q->sY1, q->C_a, q->K_c, q->mu,
             c->cfg.dt);
    return GC_ENAN;
  }
  energy_sum(c, w, nch);
  c->t += c->cfg.dt;
  c->step++;
  /* 4. neighbour list (eq. 2.29): a rebuild when a sphere moved more than skin/2 in the drift
   * frame, or it and the beads' shift together more than the skin (also a
   * non-finite position: dmax2 is then INFINITY) */
  for (int a = 0; a < 3; a++)
    w->drift[a] = frame.shift[a];
  if (gc_nlist_past_skin(c->nl, dmax2, fixed2)) {
    int st = rebuild(c, w, msg, msglen);
    if (st)
      return st;
  }
  return GC_SUCCESS;
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
    const gc_law *law = cat == GC_CAT_PP ? &w->law_pp[ki * w->nrad + w->srk[w->lawk[j]]]
                                         : &w->law_pb[ki];
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
      stored_one(wall_law(w, ki, r), ct, &normal[cat], &tangential[cat]);
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

/* ---------- checkpoint ---------- */

#define CKPT_MAGIC "GCCHUTE\n"
/* Format 7 (2: the contact histories became the laws' history blocks, with their layout
 * recorded in the header; 3: the energy budget, the record's overlap and the random-bottom keys
 * (issue 14), or the info record and CRC (issue 11); 4: both): magic, format version, the info
 * record (granucal version, byte-order mark and the state layout as named sizes), the header
 * (5: with the rolling and twisting sub-models, whose history slices may have equal sizes)
 * (configuration, history layout), the state blocks (7: with the list's drift frame), the
 * neighbour list, "END\n", then the
 * CRC-32 (zlib) of every byte before it.  Any single flipped bit, a truncation or a file from a
 * build with another layout is refused with a message. */
#define CKPT_VERSION 8u /* 8: the outputs' record of the run (a length and the bytes, opaque
                        * here) after the neighbour list; 7: the drift frame
                        * (chute_work.drift_v, drift) after the wall records; 6: the particle
                        * numbers (id) after the torques; 5 to 7 are read (id = index; no
                        * drift; no record) */
#define CKPT_RECORD_MAX ((uint64_t)1 << 40)

typedef struct {
  uint64_t np, nsph, nbeads, ns, nwall;
  uint64_t nhist;           /* doubles of contact-law history per contact */
  uint32_t hist_layout;     /* GC_HIST_LAYOUT_VERSION of the models that wrote it */
  uint32_t hist_kinds;      /* GC_NKINDS */
  double length, width, fill_height, angle, gravity, bead_radius, bead_spacing, dt, skin;
  double bead_coverage;
  uint64_t bottom_seed;
  int32_t bottom, side_walls, keep_history, rolling;
  char nfd[32], tfd[32];
  char rolling_model[32], twisting_model[32]; /* sub-model names ("none" without) */
  gc_shape shape;
  gc_params pp, pw, pb;
} ckpt_head;
#define CKPT_BOM 0x01020304u

/* The state layout: what must be equal for the raw image to mean the same thing.  Named so a
 * mismatch says which; a new entry (e.g. a history layout version) is one more row. */
typedef struct {
  char name[24];
  uint64_t value;
} ckpt_layout;

static size_t ckpt_layout_fill(ckpt_layout *l)
{
  size_t n = 0;
#define LAYOUT(nm, v) (snprintf(l[n].name, sizeof l[n].name, "%s", nm), l[n++].value = (uint64_t)(v))
  LAYOUT("ckpt_head", sizeof(ckpt_head));
  LAYOUT("gc_chute_contact", sizeof(gc_chute_contact)); /* + the law's history block */
  LAYOUT("hist_layout", GC_HIST_LAYOUT_VERSION);         /* the models' history layout */
  LAYOUT("hist_kinds", GC_NKINDS);
  LAYOUT("gc_params", sizeof(gc_params));
  LAYOUT("gc_shape", sizeof(gc_shape));
  LAYOUT("gc_rot", sizeof(gc_rot));
  LAYOUT("double", sizeof(double));
  LAYOUT("long", sizeof(long));
  LAYOUT("size_t", sizeof(size_t));
#undef LAYOUT
  return n;
}
enum { CKPT_LAYOUT_MAX = 32 };

typedef struct {
  char version[32];       /* granucal version that wrote the file */
  uint32_t bom;           /* CKPT_BOM in the writer's byte order */
  uint32_t nlayout;
  ckpt_layout layout[CKPT_LAYOUT_MAX];
} ckpt_info;


static void ckpt_fill(const gc_chute *c, ckpt_head *h)
{
  const chute_work *w = c->work;
  const gc_chute_cfg *cf = &c->cfg;
  memset(h, 0, sizeof *h);
  h->np = c->np;
  h->nsph = c->nsph;
  h->nbeads = c->nbeads;
  h->ns = c->ns;
  h->nwall = w->nwall_per;
  h->nhist = c->nhist;
  h->hist_layout = GC_HIST_LAYOUT_VERSION;
  h->hist_kinds = GC_NKINDS;
  h->length = cf->length;
  h->width = cf->width;
  h->fill_height = cf->fill_height;
  h->angle = cf->angle;
  h->gravity = cf->gravity;
  h->bead_radius = cf->bead_radius;
  h->bead_spacing = cf->bead_spacing;
  h->dt = cf->dt;
  h->skin = cf->skin;
  h->bottom = cf->bottom;
  h->side_walls = cf->side_walls;
  h->bead_coverage = cf->bottom == GC_BOTTOM_RANDOM ? cf->bead_coverage : 0.0;
  h->bottom_seed = cf->bottom == GC_BOTTOM_RANDOM ? cf->bottom_seed : 0;
  h->keep_history = cf->keep_history;
  h->rolling = cf->rolling;
  snprintf(h->nfd, sizeof h->nfd, "%s", cf->nfd ? cf->nfd->name : "");
  snprintf(h->tfd, sizeof h->tfd, "%s", cf->tfd ? cf->tfd->name : "");
  snprintf(h->rolling_model, sizeof h->rolling_model, "%s",
           cf->rolling_model ? cf->rolling_model->name : "none");
  snprintf(h->twisting_model, sizeof h->twisting_model, "%s",
           cf->twisting_model ? cf->twisting_model->name : "none");
  memcpy(&h->shape, &cf->shape, sizeof h->shape);
  memcpy(&h->pp, &cf->pp, sizeof h->pp);
  memcpy(&h->pw, &cf->pw, sizeof h->pw);
  memcpy(&h->pb, &cf->pb, sizeof h->pb);
}

typedef struct {
  void *p;
  size_t size;
} ckpt_blk;

static size_t ckpt_blocks(gc_chute *c, ckpt_blk *b, uint32_t ver)
{
  chute_work *w = c->work;
  size_t nps = c->np * c->nsph, n = 0;
  b[n++] = (ckpt_blk){ &c->t, sizeof c->t };
  b[n++] = (ckpt_blk){ &c->step, sizeof c->step };
  b[n++] = (ckpt_blk){ &c->energy, sizeof c->energy };
  b[n++] = (ckpt_blk){ c->x, 3 * c->np * sizeof *c->x };
  b[n++] = (ckpt_blk){ c->v, 3 * c->np * sizeof *c->v };
  b[n++] = (ckpt_blk){ c->rot, c->np * sizeof *c->rot };
  b[n++] = (ckpt_blk){ c->force, 3 * c->np * sizeof *c->force };
  b[n++] = (ckpt_blk){ c->torque, 3 * c->np * sizeof *c->torque };
  if (ver >= 6)
    b[n++] = (ckpt_blk){ c->id, c->np * sizeof *c->id };
  b[n++] = (ckpt_blk){ c->sx, 3 * c->ns * sizeof *c->sx };
  b[n++] = (ckpt_blk){ w->soff, 3 * nps * sizeof *w->soff };
  b[n++] = (ckpt_blk){ w->simg, 3 * nps * sizeof *w->simg };
  b[n++] = (ckpt_blk){ c->wall, w->nwall_per * nps * c->rec_size };
  if (ver >= 7) {
    b[n++] = (ckpt_blk){ w->drift_v, sizeof w->drift_v };
    b[n++] = (ckpt_blk){ w->drift, sizeof w->drift };
  }
  return n;
}

/* index_of from id after a read: GC_EFORMAT unless the list's sphere ranks are the numbers'
 * (sphere k of particle number n has rank n nsph + k; the beads their indices).  The ranks
 * are a permutation (gc_nlist_read checks it), so numbers below np that match them are one
 * too. */
static int check_ids(gc_chute *c)
{
  const size_t np = c->np, nsph = c->nsph;
  const uint32_t *rank = gc_nlist_ranks(c->nl);
  for (size_t p = 0; p < np; p++) {
    if (c->id[p] >= np)
      return GC_EFORMAT;
    for (size_t k = 0; k < nsph; k++)
      if (rank[p * nsph + k] != c->id[p] * nsph + k)
        return GC_EFORMAT;
    c->index_of[c->id[p]] = p;
  }
  for (size_t s = np * nsph; s < c->ns; s++)
    if (rank[s] != s)
      return GC_EFORMAT;
  return GC_SUCCESS;
}

int gc_chute_checkpoint_write(const gc_chute *c, const char *path, char *msg, size_t msglen)
{
  return gc_chute_checkpoint_write_record(c, path, NULL, 0, msg, msglen);
}

int gc_chute_checkpoint_write_record(const gc_chute *c, const char *path, const void *rec,
                                     size_t reclen, char *msg, size_t msglen)
{
  const chute_work *w = c->work;
  if (!w->placed) {
    snprintf(msg, msglen, "%s: nothing to checkpoint, the particles have not been placed", path);
    return GC_EINVAL;
  }
  /* the image is built in memory, so that its CRC-32 can follow it */
  char *buf = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&buf, &len);
  if (!m) {
    snprintf(msg, msglen, "%s: out of memory", path);
    return GC_ENOMEM;
  }
  ckpt_head h;
  ckpt_fill(c, &h);
  ckpt_info info;
  memset(&info, 0, sizeof info);
  snprintf(info.version, sizeof info.version, "%s", GC_VERSION);
  info.bom = CKPT_BOM;
  info.nlayout = (uint32_t)ckpt_layout_fill(info.layout);
  uint32_t ver = CKPT_VERSION, ilen = (uint32_t)sizeof info;
  ckpt_blk b[16];
  size_t nb = ckpt_blocks((gc_chute *)c, b, CKPT_VERSION);
  int ok = fwrite(CKPT_MAGIC, 1, 8, m) == 8 && fwrite(&ver, sizeof ver, 1, m) == 1 &&
           fwrite(&ilen, sizeof ilen, 1, m) == 1 && fwrite(&info, sizeof info, 1, m) == 1 &&
           fwrite(&h, sizeof h, 1, m) == 1;
  for (size_t k = 0; ok && k < nb; k++)
    ok = fwrite(b[k].p, 1, b[k].size, m) == b[k].size;
  if (ok)
    ok = gc_nlist_write(c->nl, m) == GC_SUCCESS;
  uint64_t rl = reclen;
  if (ok)
    ok = fwrite(&rl, sizeof rl, 1, m) == 1 && (!reclen || fwrite(rec, 1, reclen, m) == reclen);
  if (ok)
    ok = fwrite("END\n", 1, 4, m) == 4;
  if (fclose(m) != 0)
    ok = 0;
  if (!ok) {
    free(buf);
    snprintf(msg, msglen, "%s: cannot build the checkpoint (out of memory)", path);
    return GC_ENOMEM;
  }
  uint32_t crc = (uint32_t)crc32_z(crc32(0L, Z_NULL, 0), (const Bytef *)buf, len);
  gc_outfile o;
  int st = gc_outfile_open(&o, path, msg, msglen);
  if (st) {
    free(buf);
    return st;
  }
  ok = fwrite(buf, 1, len, o.f) == len && fwrite(&crc, sizeof crc, 1, o.f) == 1;
  free(buf);
  if (!ok) {
    gc_outfile_abort(&o);
    snprintf(msg, msglen, "%s: cannot write the checkpoint", path);
    return GC_EIO;
  }
  /* on the disk before it replaces the previous one: a run resumes from a whole checkpoint */
  if ((st = gc_outfile_sync(&o, msg, msglen))) {
    gc_outfile_abort(&o);
    return st;
  }
  return gc_outfile_commit(&o, msg, msglen);
}

static int ckpt_mismatch(char *msg, size_t n, const char *path, const char *what, double a,
                         double b)
{
  snprintf(msg, n, "%s: checkpoint is from a different configuration: %s = %.17g in the file, "
           "%.17g here", path, what, a, b);
  return GC_EINVAL;
}

/* Read a whole checkpoint image of len bytes from f (positioned at its start), named path in
 * the messages.  The CRC-32 is verified over the whole image before anything is parsed. */
static int ckpt_read_stream(gc_chute *c, FILE *f, size_t len, const char *path, void **rec,
                            size_t *reclen, char *msg, size_t msglen)
{
  chute_work *w = c->work;
  if (len < 8 + 4 + 4) {
    snprintf(msg, msglen, "%s: not a granucal chute checkpoint (%zu bytes)", path, len);
    return GC_EFORMAT;
  }
  /* pass 1: the CRC-32 of everything before the last 4 bytes */
  {
    unsigned char chunk[65536];
    uLong crc = crc32(0L, Z_NULL, 0);
    size_t left = len - 4;
    while (left) {
      size_t k = left < sizeof chunk ? left : sizeof chunk;
      if (fread(chunk, 1, k, f) != k) {
        snprintf(msg, msglen, "%s: %s", path, ferror(f) ? "read error" : "truncated checkpoint");
        return ferror(f) ? GC_EIO : GC_EFORMAT;
      }
      crc = crc32_z(crc, chunk, k);
      left -= k;
    }
    uint32_t stored;
    if (fread(&stored, sizeof stored, 1, f) != 1) {
      snprintf(msg, msglen, "%s: %s", path, ferror(f) ? "read error" : "truncated checkpoint");
      return ferror(f) ? GC_EIO : GC_EFORMAT;
    }
    char magic[8];
    if (fseek(f, 0, SEEK_SET) != 0 || fread(magic, 1, 8, f) != 8) {
      snprintf(msg, msglen, "%s: read error", path);
      return GC_EIO;
    }
    if (memcmp(magic, CKPT_MAGIC, 8) != 0) {
      snprintf(msg, msglen, "%s: not a granucal chute checkpoint (bad magic)", path);
      return GC_EFORMAT;
    }
    if ((uint32_t)crc != stored) {
      snprintf(msg, msglen, "%s: checkpoint is corrupt: CRC-32 %08lx of the contents, %08lx "
               "recorded (a damaged or truncated copy; use an intact checkpoint)", path,
               (unsigned long)(uint32_t)crc, (unsigned long)stored);
      return GC_EFORMAT;
    }
  }
  uint32_t ver = 0, ilen = 0;
  ckpt_head h, mine;
  ckpt_info info, myinfo;
  int st = GC_SUCCESS, reading = 0;
  if (fread(&ver, sizeof ver, 1, f) != 1 || ver < 5 || ver > CKPT_VERSION) {
    snprintf(msg, msglen, "%s: checkpoint format version %u, this granucal (%s) reads versions 5 "
             "to %u", path, (unsigned)ver, GC_VERSION, CKPT_VERSION);
    return GC_EFORMAT;
  }
  if (fread(&ilen, sizeof ilen, 1, f) != 1 || ilen != sizeof info ||
      fread(&info, sizeof info, 1, f) != 1) {
    snprintf(msg, msglen, "%s: checkpoint written by another build (info record of %u bytes, "
             "%zu here)", path, (unsigned)ilen, sizeof info);
    return GC_EFORMAT;
  }
  info.version[sizeof info.version - 1] = 0;
  if (info.bom != CKPT_BOM) {
    snprintf(msg, msglen, "%s: checkpoint written on a machine of another byte order", path);
    return GC_EFORMAT;
  }
  memset(&myinfo, 0, sizeof myinfo);
  myinfo.nlayout = (uint32_t)ckpt_layout_fill(myinfo.layout);
  if (info.nlayout != myinfo.nlayout) {
    snprintf(msg, msglen, "%s: checkpoint of granucal %s has %u state-layout entries, this "
             "granucal (%s) %u: it cannot continue it", path, info.version, (unsigned)info.nlayout,
             GC_VERSION, (unsigned)myinfo.nlayout);
    return GC_EFORMAT;
  }
  for (uint32_t i = 0; i < myinfo.nlayout; i++)
    if (strncmp(info.layout[i].name, myinfo.layout[i].name, sizeof info.layout[i].name) ||
        info.layout[i].value != myinfo.layout[i].value) {
      snprintf(msg, msglen, "%s: checkpoint of granucal %s has another state layout: %.23s = "
               "%llu in the file, %.23s = %llu in this granucal (%s): it cannot continue it",
               path, info.version, info.layout[i].name,
               (unsigned long long)info.layout[i].value, myinfo.layout[i].name,
               (unsigned long long)myinfo.layout[i].value, GC_VERSION);
      return GC_EFORMAT;
    }
  if (fread(&h, sizeof h, 1, f) != 1) {
    snprintf(msg, msglen, "%s: truncated checkpoint header", path);
    return GC_EFORMAT;
  }
  ckpt_fill(c, &mine);
  if (h.hist_layout != mine.hist_layout || h.hist_kinds != mine.hist_kinds ||
      h.nhist != mine.nhist) {
    snprintf(msg, msglen, "%s: the contact-history layout differs: %llu doubles per contact "
             "(layout version %u, %u kinds) in the file, %llu (layout version %u, %u kinds) "
             "here; restart the run from its start", path, (unsigned long long)h.nhist,
             (unsigned)h.hist_layout, (unsigned)h.hist_kinds, (unsigned long long)mine.nhist,
             (unsigned)mine.hist_layout, (unsigned)mine.hist_kinds);
    st = GC_EFORMAT;
    goto done;
  }
#define CK(field, name)                                                                     \
  if (h.field != mine.field) {                                                              \
    st = ckpt_mismatch(msg, msglen, path, name, (double)h.field, (double)mine.field);       \
    goto done;                                                                              \
  }
  CK(np, "n_particles")
  CK(nsph, "spheres per particle")
  CK(nbeads, "number of bottom beads")
  CK(ns, "number of spheres")
  CK(nwall, "wall records per sphere")
  CK(length, "length")
  CK(width, "width")
  CK(fill_height, "fill_height")
  CK(angle, "angle")
  CK(gravity, "gravity")
  CK(bead_radius, "bead_radius")
  CK(bead_spacing, "bead_spacing")
  CK(dt, "dt")
  CK(skin, "skin")
  CK(bottom, "bottom")
  CK(side_walls, "side_walls")
  CK(bead_coverage, "bead_coverage")
  CK(bottom_seed, "bottom_seed")
  /* how contacts are treated from now on is physics too: a run that changed it would not be
   * the run its record describes */
  CK(keep_history, "keep_history")
  CK(rolling, "rolling")
#undef CK
  if (strncmp(h.nfd, mine.nfd, sizeof h.nfd) || strncmp(h.tfd, mine.tfd, sizeof h.tfd)) {
    snprintf(msg, msglen, "%s: checkpoint is from a different configuration: models %.31s/%.31s "
             "in the file, %.31s/%.31s here", path, h.nfd, h.tfd, mine.nfd, mine.tfd);
    st = GC_EINVAL;
    goto done;
  }
  if (strncmp(h.rolling_model, mine.rolling_model, sizeof h.rolling_model) ||
      strncmp(h.twisting_model, mine.twisting_model, sizeof h.twisting_model)) {
    snprintf(msg, msglen, "%s: checkpoint is from a different configuration: rolling / twisting "
             "models %.31s/%.31s in the file, %.31s/%.31s here", path, h.rolling_model,
             h.twisting_model, mine.rolling_model, mine.twisting_model);
    st = GC_EINVAL;
    goto done;
  }
  if (memcmp(&h.shape, &mine.shape, sizeof h.shape)) {
    snprintf(msg, msglen, "%s: checkpoint is from a different configuration: the particle shape "
             "(sphere positions, radii, mass or inertia) differs", path);
    st = GC_EINVAL;
    goto done;
  }
  const char *pn[3] = { "pp (particle-particle)", "pw (particle-wall)", "pb (particle-bottom)" };
  const gc_params *ph[3] = { &h.pp, &h.pw, &h.pb }, *pm[3] = { &mine.pp, &mine.pw, &mine.pb };
  for (int k = 0; k < 3; k++)
    if (memcmp(ph[k], pm[k], sizeof(gc_params))) {
      snprintf(msg, msglen, "%s: checkpoint is from a different configuration: the contact "
               "parameters %s differ", path, pn[k]);
      st = GC_EINVAL;
      goto done;
    }
  ckpt_blk b[16];
  size_t nb = ckpt_blocks(c, b, ver);
  reading = 1;
  for (size_t k = 0; k < nb; k++)
    if (fread(b[k].p, 1, b[k].size, f) != b[k].size) {
      snprintf(msg, msglen, "%s: truncated checkpoint (state block %zu)", path, k);
      st = GC_EFORMAT;
      goto done;
    }
  char m2[200] = "";
  if ((st = gc_nlist_read(c->nl, f, m2, sizeof m2))) {
    snprintf(msg, msglen, "%s: neighbour list: %s", path, m2);
    goto done;
  }
  if (ver >= 8) {
    uint64_t rl;
    long at = ftell(f);
    if (fread(&rl, sizeof rl, 1, f) != 1 || at < 0 || rl > CKPT_RECORD_MAX ||
        rl > (uint64_t)len - (uint64_t)at) {
      snprintf(msg, msglen, "%s: truncated checkpoint (the outputs' record)", path);
      st = GC_EFORMAT;
      goto done;
    }
    void *r = NULL;
    if (rl && rec) {
      if (!(r = malloc((size_t)rl))) {
        snprintf(msg, msglen, "%s: out of memory (the outputs' record)", path);
        st = GC_ENOMEM;
        goto done;
      }
      if (fread(r, 1, (size_t)rl, f) != (size_t)rl) {
        free(r);
        snprintf(msg, msglen, "%s: truncated checkpoint (the outputs' record)", path);
        st = GC_EFORMAT;
        goto done;
      }
    } else if (rl && fseek(f, (long)rl, SEEK_CUR) != 0) {
      snprintf(msg, msglen, "%s: truncated checkpoint (the outputs' record)", path);
      st = GC_EFORMAT;
      goto done;
    }
    if (rec) {
      *rec = r;
      *reclen = (size_t)rl;
    }
  }
  char end[4];
  if (fread(end, 1, 4, f) != 4 || memcmp(end, "END\n", 4)) {
    snprintf(msg, msglen, "%s: truncated checkpoint (no end marker)", path);
    st = GC_EFORMAT;
    goto done;
  }
  if ((st = grow_scratch(w, gc_nlist_npairs(c->nl)))) {
    snprintf(msg, msglen, "out of memory");
    goto done;
  }
  long here = ftell(f);
  if (here < 0 || (size_t)here != len - 4) {
    snprintf(msg, msglen, "%s: checkpoint has %ld bytes of unexpected data after its end marker",
             path, here < 0 ? -1L : (long)(len - 4) - here);
    st = GC_EFORMAT;
    goto done;
  }
  if (!(c->step >= 0) || !isfinite(c->t) || fabs(c->t - (double)c->step * c->cfg.dt) >
      1e-6 * fmax(c->t, c->cfg.dt)) {
    snprintf(msg, msglen, "%s: checkpoint time t = %g s does not match step %ld of dt = %g s",
             path, c->t, c->step, c->cfg.dt);
    st = GC_EFORMAT;
    goto done;
  }
  for (size_t k = 0; k < 3 * c->np; k++)
    if (!isfinite(c->x[k]) || !isfinite(c->v[k])) {
      snprintf(msg, msglen, "%s: checkpoint holds a non-finite position or velocity", path);
      st = GC_EFORMAT;
      goto done;
    }
  if (ver < 7) /* the list was built without a drift frame */
    for (int a = 0; a < 3; a++)
      w->drift_v[a] = w->drift[a] = 0.0;
  for (int a = 0; a < 3; a++)
    if (!isfinite(w->drift_v[a]) || !isfinite(w->drift[a])) {
      snprintf(msg, msglen, "%s: the neighbour list's drift frame is not finite (corrupt file)",
               path);
      st = GC_EFORMAT;
      goto done;
    }
  if (ver < 6)
    for (size_t p = 0; p < c->np; p++)
      c->id[p] = p;
  if ((st = check_ids(c))) {
    snprintf(msg, msglen, "%s: the particle numbers in the checkpoint are not a permutation or "
             "do not match its neighbour list (corrupt file)", path);
    goto done;
  }
  for (size_t p = 0; p < c->np; p++)
    gc_rot_omega_space(&c->rot[p], w->wsp + 3 * p);
  mark_walls(c, w);
  /* The list's order (as at its build).  A format-6 file's particles are already in it; a
   * format-5 file's are in the order of their placement, and are renumbered as at a build */
  const double *x0 = gc_nlist_build_positions(c->nl);
  particle_order(c, w, x0 ? x0 : c->sx);
  if (renumber_particles(c, w, 0) || index_list(c, w)) {
    snprintf(msg, msglen, "%s: the neighbour list in the checkpoint is not in this build's "
             "order of the particles (a checkpoint of another granucal build?)", path);
    st = GC_EFORMAT;
    goto done;
  }
  if ((st = grow_gather(c, w))) {
    snprintf(msg, msglen, "%s: out of memory (gathering the pairs of a particle)", path);
    goto done;
  }
  w->placed = 1;
done:
  if (st && reading)
    w->placed = 0; /* the state was partly overwritten: it must be placed or read again */
  if (st && rec) {
    free(*rec);
    *rec = NULL;
    *reclen = 0;
  }
  return st;
}

int gc_chute_checkpoint_read_mem(gc_chute *c, const void *data, size_t len, const char *name,
                                 char *msg, size_t msglen)
{
  if (!len) {
    snprintf(msg, msglen, "%s: empty checkpoint", name);
    return GC_EFORMAT;
  }
  FILE *f = fmemopen((void *)data, len, "rb");
  if (!f) {
    snprintf(msg, msglen, "%s: out of memory", name);
    return GC_ENOMEM;
  }
  void *rec = NULL;
  size_t reclen = 0;
  int st = ckpt_read_stream(c, f, len, name, &rec, &reclen, msg, msglen);
  free(rec);
  fclose(f);
  return st;
}

int gc_chute_checkpoint_read(gc_chute *c, const char *path, char *msg, size_t msglen)
{
  return gc_chute_checkpoint_read_record(c, path, NULL, NULL, msg, msglen);
}

int gc_chute_checkpoint_read_record(gc_chute *c, const char *path, void **rec, size_t *reclen,
                                    char *msg, size_t msglen)
{
  if (rec) {
    *rec = NULL;
    *reclen = 0;
  }
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(msg, msglen, "%s: cannot open the checkpoint: %s", path, strerror(errno));
    return GC_EIO;
  }
  struct stat sb;
  int st;
  if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) {
    snprintf(msg, msglen, "%s: not a regular file", path);
    st = GC_EIO;
  } else {
    st = ckpt_read_stream(c, f, (size_t)sb.st_size, path, rec, reclen, msg, msglen);
  }
  fclose(f);
  return st;
}
