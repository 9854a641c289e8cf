/* nlist.h - neighbour (Verlet) lists of sphere pairs for the flow simulator (seed sec. 2.2 and
 * app. A), built in O(N) with linked cells, rebuilt by a displacement criterion (eq. 2.29), with
 * a per-pair history record (the contact law's state) that survives rebuilds.
 *
 * The list holds every pair (i, j), rank_i < rank_j (the sphere's rank is its index until
 * gc_nlist_renumber moves spheres), whose centre distance (minimum image along periodic axes) is
 * below r_i + r_j + skin, except pairs of spheres of the same group (the spheres of one rigid
 * cluster) and pairs of two fixed spheres (the beads of the bumpy bottom).  Pairs are grouped
 * by i, the groups in the order of gc_nlist_set_order (increasing i by default), and sorted by
 * rank of j within a group.  Each pair carries payload_size bytes of history owned by the
 * caller's force loop: zeroed when the pair enters the list, copied unchanged while it stays in
 * it, dropped when it leaves.  A workspace allocated once; build does not allocate once the
 * capacities have grown to their working size. */
#ifndef GC_NLIST_H
#define GC_NLIST_H

#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
  double lo[3], hi[3]; /* box for binning [m]; spheres may lie outside along non-periodic axes
                        * (they are clamped into the edge cells) */
  int periodic[3];     /* 1: periodic along this axis with period hi - lo */
  double skin;         /* list pairs closer than r_i + r_j + skin [m], > 0 */
} gc_nlist_box;

/* A listed pair, 12 bytes: the pair loop of a simulation streams every listed pair each step,
 * most of them apart, so a compact record is a large part of its memory traffic. */
typedef struct {
  uint32_t i, j;   /* sphere indices, rank_i < rank_j (i < j until gc_nlist_renumber) */
  int8_t image[3]; /* periodic image: the separation is x_j + image L - x_i, L the period
                        * hi - lo of each axis (0 along a non-periodic one); see
                        * gc_nlist_shift */
  uint8_t zero;    /* 0: no padding, so that records compare bytewise */
} gc_npair;

typedef struct gc_nlist gc_nlist;

/* Sphere indices and pair indices are 32-bit (gc_npair, gc_nlist_sphere_pairs). */
#define GC_NLIST_MAX_SPHERES ((size_t)UINT32_MAX)

/* NULL if out of memory or nsph > GC_NLIST_MAX_SPHERES.  The payloads are payload_size bytes at a stride rounded up to
 * _Alignof(max_align_t); payload_size 0: no payload (gc_nlist_payload returns NULL). */
gc_nlist *gc_nlist_alloc(size_t nsph, size_t payload_size);
void gc_nlist_free(gc_nlist *nl);

/* Build (or rebuild) the list from positions x (3 nsph), radii r, group ids (spheres with the
 * same group >= 0 never pair; -1 = no group) and fixed flags (may be NULL).  Remembers x for
 * the displacement criterion.  Returns 0 or GC_EINVAL (bad box, non-finite position: msg says
 * which) / GC_ENOMEM.  Radii must be > 0; a periodic axis needs a period hi - lo >= 2 (2 r_max +
 * skin) for a unique minimum image, and positions within 63 periods of the box along it (the
 * images of a pair fit gc_npair); at most 2^32 - 1 pairs (2^31 - 1 with a payload).  On failure
 * the previous list stays current, unchanged. */
int gc_nlist_build(gc_nlist *nl, const gc_nlist_box *box, const double *x, const double *r,
                   const long *group, const unsigned char *fixed, char *msg, size_t msglen);
/* Displacement criterion: 1 if some sphere moved (minimum image) more than skin/2 since the
 * last build, so that a pair may have come into contact unlisted; else 0.  (This is eq. 2.29
 * with the exact largest displacement instead of the sum of per-step maxima.) */
int gc_nlist_needs_rebuild(const gc_nlist *nl, const double *x);
/* The criterion in a frame that has moved by shift since the build (all spheres' common
 * displacement, e.g. a flow's mean velocity times the time since the build): a pair's
 * separation changes by the difference of its spheres' displacements, which a common shift
 * leaves as it is, so each sphere's displacement less the shift counts.  Spheres flagged in
 * fixed (may be NULL) are those the build was given as fixed: they form no pair among
 * themselves, so a pair of a fixed and a free sphere needs the largest shifted displacement of
 * a free one plus that of the fixed ones (|shift| for fixed spheres that stayed in place)
 * below the skin, and two free ones twice the former (gc_nlist_past_skin).  With shift 0 (or
 * NULL) and no fixed spheres, gc_nlist_needs_rebuild. */
int gc_nlist_needs_rebuild_shifted(const gc_nlist *nl, const double *x, const unsigned char *fixed,
                                   const double shift[3]);
/* The largest squared displacement (minimum image) of the spheres first .. first + count - 1
 * since the last build (so that a parallel loop can reduce it over its own spheres);
 * INFINITY for a non-finite position or before the first build. */
double gc_nlist_max_moved2(const gc_nlist *nl, const double *x, size_t first, size_t count);
/* The same, and the distance each of those spheres moved since the last build [m] into
 * dist[0 .. count) (may be NULL; INFINITY for a non-finite position or before the first
 * build): a pair whose gap at the build exceeds the sum of its two spheres' distances is
 * still apart. */
double gc_nlist_moved(const gc_nlist *nl, const double *x, size_t first, size_t count,
                      double *dist);
/* What gc_nlist_moved measures from, for a caller that measures a few spheres at a time in a
 * hot loop (gc_nlist_frame_moved, inline): the positions of the last build and, per axis, the
 * period L, 1 / L and the displacement beyond which the minimum image may differ from it (L/2
 * along a periodic axis, +inf along another).  Valid until the next build, read or clear. */
typedef struct {
  const double *x0; /* NULL: no list built (every displacement is then infinite) */
  double L[3], inv_L[3], lim[3];
  double shift[3]; /* subtracted from each displacement (gc_nlist_needs_rebuild_shifted): 0
                     * from gc_nlist_get_frame, the caller may set it */
} gc_nlist_frame;
void gc_nlist_get_frame(const gc_nlist *nl, gc_nlist_frame *f);
/* The squared displacement of one sphere from x0 (its build position) to x in frame f (x0
 * set), the minimum image along a periodic axis; a NaN counts as infinite. */
static inline double gc_nlist_frame_moved2(const gc_nlist_frame *f, const double x[3],
                                           const double x0[3])
{
  /* for |d| <= L/2 the shift is 0 (nearbyint(+-0.5) = 0): skip the division and the
   * rounding for the usual small displacement.  lim is +inf along a non-periodic axis, so
   * that one compare serves both (a NaN compares false and is left as it is) */
  double dx = (x[0] - f->shift[0]) - x0[0], dy = (x[1] - f->shift[1]) - x0[1],
         dz = (x[2] - f->shift[2]) - x0[2];
  if (fabs(dx) > f->lim[0])
    dx -= f->L[0] * nearbyint(dx * f->inv_L[0]);
  if (fabs(dy) > f->lim[1])
    dy -= f->L[1] * nearbyint(dy * f->inv_L[1]);
  if (fabs(dz) > f->lim[2])
    dz -= f->L[2] * nearbyint(dz * f->inv_L[2]);
  double d2 = dx * dx + dy * dy + dz * dz;
  return d2 != d2 ? INFINITY : d2;
}
/* gc_nlist_moved of spheres first .. end - 1 (the same numbers) */
static inline double gc_nlist_frame_moved(const gc_nlist_frame *f, const double *x, size_t first,
                                          size_t end, double *dist)
{
  if (!f->x0) {
    for (size_t i = first; dist && i < end; i++)
      dist[i - first] = INFINITY;
    return INFINITY;
  }
  double m2 = 0.0;
  for (size_t i = first; i < end; i++) {
    const double d2 = gc_nlist_frame_moved2(f, x + 3 * i, f->x0 + 3 * i);
    if (dist)
      dist[i - first] = sqrt(d2);
    if (!(d2 <= m2))
      m2 = d2;
  }
  return m2;
}
/* The displacement criterion on such maxima: moved2 of the free spheres, fixed2 of the fixed
 * ones (0 if there are none; see gc_nlist_needs_rebuild_shifted).  1 if moved2 > (skin/2)^2,
 * or sqrt(moved2) + sqrt(fixed2) is not below the skin (less 1e-9 of it for rounding), or
 * either is NaN. */
int gc_nlist_past_skin(const gc_nlist *nl, double moved2, double fixed2);
/* The same criterion turned round: the displacement of the free spheres up to which it holds
 * with fixed2 (gc_nlist_past_skin is 0 for every moved2 below its square), so that a caller
 * with a bound on each sphere's displacement measures only the spheres that may reach it. */
double gc_nlist_skin_reach(const gc_nlist *nl, double fixed2);
/* The positions of the last build (3 nsph), NULL before it. */
const double *gc_nlist_build_positions(const gc_nlist *nl);

/* The order in which the next builds take the spheres i (seq: a permutation of 0 .. nsph - 1,
 * copied; NULL: increasing index).  A caller that walks the pairs in the order of its data
 * (particles sorted in space, say) gets the pairs' records in memory order.  GC_EINVAL if seq
 * is not a permutation (the order is then unchanged). */
int gc_nlist_set_order(gc_nlist *nl, const size_t *seq);

/* Renumber the spheres: sphere s becomes sphere to[s] (to: a permutation of 0 .. nsph - 1),
 * for a caller that moves its sphere data (into spatial order, say).  The list keeps its pairs
 * in place with their payloads, relabelled; each sphere keeps its rank (gc_nlist_ranks), which
 * orients its pairs, so a pair's i stays the same physical sphere (rank_i < rank_j) and a
 * history stays in its frame.  The build positions and the build order (gc_nlist_set_order)
 * move with the spheres.  GC_EINVAL if to is not a permutation (nothing changed). */
int gc_nlist_renumber(gc_nlist *nl, const size_t *to);
/* The same for a caller that builds the list next (gc_nlist_build): the pairs of each sphere
 * (gc_nlist_sphere_pairs, gc_nlist_sphere_sides) are not formed for the renumbered list, which
 * the build replaces (they took ~0.2 ms of a soybean chute's build); until that build they
 * are empty, as before a first build. */
int gc_nlist_renumber_for_build(gc_nlist *nl, const size_t *to);
/* Forget the list (no pairs, no build positions: the next build starts without histories)
 * and any renumbering (ranks = indices, build order increasing); the build count stays. */
void gc_nlist_clear(gc_nlist *nl);
/* The rank of each sphere (nsph): its index until a renumbering, then the index it had before
 * the first.  Pairs are oriented and ordered within a sphere's block by rank. */
const uint32_t *gc_nlist_ranks(const gc_nlist *nl);

/* Threads of the next builds (default 1; n < 1 counts as 1).  The list does not depend on it;
 * unless gc_nlist_set_writers says otherwise, they are also the writers. */
void gc_nlist_set_threads(gc_nlist *nl, int n);
/* Threads that will ask for records (gc_nlist_payload_on, thread 0 .. n - 1) after the next
 * builds and reads: each gets a region of rows (n < 1: the build threads).  Where records lie,
 * not what they hold, depends on it. */
void gc_nlist_set_writers(gc_nlist *nl, int n);
/* How the next builds scan (on: 1, the default): spheres that form units (runs of consecutive
 * indices with one group >= 0, a rigid cluster's spheres, at most 3 units per 4 spheres) are
 * scanned by unit, a bounding sphere per unit ruling out all pairs of two far units at once;
 * off (0), or where they do not, sphere by sphere.  The list does not depend on it.
 * gc_nlist_used_units: 1 if the last build scanned by units. */
void gc_nlist_set_units(gc_nlist *nl, int on);
int gc_nlist_used_units(const gc_nlist *nl);

size_t gc_nlist_npairs(const gc_nlist *nl);
const gc_npair *gc_nlist_pairs(const gc_nlist *nl);
/* The periods of the current list's box, L = hi - lo per axis [m] (all 0 before the first
 * build): the shift of a pair along axis a is p->image[a] * L[a]. */
void gc_nlist_periods(const gc_nlist *nl, double L[3]);
/* The periodic shift of pair p of the current list [m]: x_j + shift - x_i is its separation. */
void gc_nlist_shift(const gc_nlist *nl, const gc_npair *p, double shift[3]);
/* History record of pair k, payload_size bytes (suitably aligned for any type), valid until
 * the next build, checkpoint read or gc_nlist_clear.  gc_nlist_payload gives the pair a record
 * of its own if it has none (threads may ask for different pairs at once): the next build keeps
 * it if it is then not all zero, packed with the other kept records (see nlist.c).  A pair never
 * handed out writable reads a shared record of zeros (gc_nlist_payload_const; not to be written
 * through a cast) and costs a build nothing.  So a force loop should ask for the writable
 * record only for a pair it writes. */
void *gc_nlist_payload(gc_nlist *nl, size_t k);
/* gc_nlist_payload for a force loop on threads: thread (0, 1, ...) takes a pair's new record
 * from a region of rows of its own (region thread % the writers of the last build or read,
 * gc_nlist_set_writers; past its region's end, from rows all threads share), so that no cache
 * line holds two threads' records.  The same records otherwise; thread 0 is gc_nlist_payload. */
void *gc_nlist_payload_on(gc_nlist *nl, size_t k, int thread);
const void *gc_nlist_payload_const(const gc_nlist *nl, size_t k);
/* 1 if pair k has no record of its own (none kept by the last build or read, and not handed out
 * writable since): it is all zero, and a reader may skip it without touching its memory. */
int gc_nlist_payload_zero(const gc_nlist *nl, size_t k);
/* The pairs a sphere belongs to, in increasing pair index (CSR), for a deterministic
 * per-sphere gather of pair forces.  Before the first build: *n = 0. */
void gc_nlist_sphere_pairs(const gc_nlist *nl, size_t sphere, const uint32_t **idx, size_t *n);
/* Aligned with gc_nlist_sphere_pairs' idx: 1 where the sphere is the pair's i, 0 where it is
 * its j (saves the gather a look-up of the pair).  NULL before the first build. */
const unsigned char *gc_nlist_sphere_sides(const gc_nlist *nl, size_t sphere);
size_t gc_nlist_builds(const gc_nlist *nl); /* number of builds so far */

/* Checkpoint: write/read the complete list (box, pairs, payloads, positions of the last build,
 * build count) in a binary form that gc_nlist_read restores bit for bit into a workspace
 * allocated with the same nsph and payload_size.  Native byte order (checked on read).
 * write: 0 or GC_EIO.  read: 0; GC_EINVAL if nsph or payload_size differ from the workspace's;
 * GC_EFORMAT for a file that is not a list checkpoint, truncated or corrupt; GC_EIO on a read
 * error; msg says which.  A failed read leaves the workspace's list unchanged. */
int gc_nlist_write(const gc_nlist *nl, FILE *f);
int gc_nlist_read(gc_nlist *nl, FILE *f, char *msg, size_t msglen);

#endif
