/* test_nlist.c - neighbour lists (src/nlist.h; seed sec. 2.2 and app. A): the cell-list build
 * against an O(N^2) brute-force search with the minimum image, periodic images and shifts,
 * the history that survives rebuilds (app. A.4), the displacement criterion (eq. 2.29), the
 * checkpoint round trip and bad input. */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gc_model.h"
#include "gc_test.h"
#include "nlist.h"

/* ---- helpers ------------------------------------------------------------------------- */

typedef struct {
  size_t n;
  double *x, *r;
  long *group;
  unsigned char *fixed;
} spheres;

static void spheres_free(spheres *s)
{
  free(s->x);
  free(s->r);
  free(s->group);
  free(s->fixed);
}

static spheres spheres_alloc(size_t n)
{
  spheres s = { n, malloc(3 * n * sizeof(double)), malloc(n * sizeof(double)),
                malloc(n * sizeof(long)), malloc(n) };
  CU_ASSERT_FATAL(s.x && s.r && s.group && s.fixed);
  return s;
}

/* dst's sphere to[i] becomes src's sphere i (position, radius, group, fixed flag), for the
 * n spheres of src (dst has as many) */
static void move_spheres(spheres *dst, const spheres *src, const size_t *to)
{
  for (size_t i = 0; i < src->n; i++) {
    memcpy(dst->x + 3 * to[i], src->x + 3 * i, 3 * sizeof(double));
    dst->r[to[i]] = src->r[i];
    dst->group[to[i]] = src->group[i];
    dst->fixed[to[i]] = src->fixed[i];
  }
}

static gc_nlist_box make_box(double Lx, double Ly, double Lz, double skin)
{
  gc_nlist_box b = { { 0, 0, 0 }, { Lx, Ly, Lz }, { 1, 0, 1 }, skin };
  return b;
}

/* n random spheres: x, z uniform over three periods [-L, 2 L) (so that most lie outside the
 * box and must be wrapped), y uniform in [-1, Ly + 1) (some below lo, some above hi), radii
 * uniform in [rmin, rmax] with sphere 0 of radius exactly rmax; groups of 4 consecutive
 * spheres among the first quarter, every 7th sphere fixed. */
static spheres random_spheres(gsl_rng *rng, size_t n, const gc_nlist_box *b, double rmin,
                              double rmax)
{
  spheres s = spheres_alloc(n);
  for (size_t i = 0; i < n; i++) {
    for (int a = 0; a < 3; a++) {
      double L = b->hi[a] - b->lo[a];
      s.x[3 * i + a] = b->periodic[a] ? b->lo[a] + (3 * gsl_rng_uniform(rng) - 1) * L
                                      : b->lo[a] - 1 + (L + 2) * gsl_rng_uniform(rng);
    }
    s.r[i] = i == 0 ? rmax : rmin + (rmax - rmin) * gsl_rng_uniform(rng);
    s.group[i] = i < n / 4 ? (long)(i / 4) : -1;
    s.fixed[i] = i % 7 == 3;
  }
  return s;
}

/* The reference list: every pair i < j tested, the image along a periodic axis chosen by
 * trying k = -16..16 periods and keeping the shortest (independent of nlist.c's rounding);
 * separation (x_j - x_i) + k L, the same arithmetic as the contract's x_j + image L - x_i. */
static size_t brute(const spheres *s, const gc_nlist_box *b, gc_npair **out)
{
  size_t cap = 64, n = 0;
  gc_npair *p = malloc(cap * sizeof *p);
  CU_ASSERT_PTR_NOT_NULL_FATAL(p);
  for (size_t i = 0; i < s->n; i++)
    for (size_t j = i + 1; j < s->n; j++) {
      if (s->group && s->group[i] >= 0 && s->group[i] == s->group[j])
        continue;
      if (s->fixed && s->fixed[i] && s->fixed[j])
        continue;
      double d2 = 0;
      int im[3];
      for (int a = 0; a < 3; a++) {
        double d0 = s->x[3 * j + a] - s->x[3 * i + a], d = d0;
        im[a] = 0;
        if (b->periodic[a]) {
          double L = b->hi[a] - b->lo[a];
          for (int k = -16; k <= 16; k++)
            if (k && fabs(d0 + k * L) < fabs(d)) {
              d = d0 + k * L;
              im[a] = k;
            }
        }
        d2 += d * d;
      }
      double rc = s->r[i] + s->r[j] + b->skin;
      if (!(d2 < rc * rc))
        continue;
      if (n == cap) {
        cap *= 2;
        p = realloc(p, cap * sizeof *p);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
      }
      p[n] = (gc_npair){ .i = (uint32_t)i,
                         .j = (uint32_t)j,
                         .image = { (int8_t)im[0], (int8_t)im[1], (int8_t)im[2] } };
      n++;
    }
  *out = p;
  return n;
}

static int build(gc_nlist *nl, const gc_nlist_box *b, const spheres *s)
{
  char msg[256] = "";
  int st = gc_nlist_build(nl, b, s->x, s->r, s->group, s->fixed, msg, sizeof msg);
  if (st)
    fprintf(stderr, "%s\n", msg);
  return st;
}

/* The list equals the reference (same pairs in the same order, same images), and
 * the CSR of every sphere lists exactly its pairs in increasing pair index.  Returns the
 * number of pairs across a periodic boundary (non-zero shift). */
static size_t check_against_brute(const gc_nlist *nl, const spheres *s, const gc_nlist_box *b)
{
  gc_npair *ref;
  size_t nref = brute(s, b, &ref), ncross = 0;
  size_t n = gc_nlist_npairs(nl);
  const gc_npair *p = gc_nlist_pairs(nl);
  CU_ASSERT_EQUAL(n, nref);
  int same = n == nref;
  for (size_t k = 0; same && k < n; k++) {
    same = p[k].i == ref[k].i && p[k].j == ref[k].j;
    for (int a = 0; a < 3; a++)
      same = same && p[k].image[a] == ref[k].image[a];
    if (!same)
      fprintf(stderr, "pair %zu: (%u, %u) expected (%u, %u)\n", k, (unsigned)p[k].i,
              (unsigned)p[k].j, (unsigned)ref[k].i, (unsigned)ref[k].j);
    if (p[k].image[0] != 0 || p[k].image[1] != 0 || p[k].image[2] != 0)
      ncross++;
  }
  CU_ASSERT(same);
  /* CSR: increasing pair indices, each containing the sphere, and 2 n entries in all */
  size_t total = 0;
  int csr_ok = 1;
  for (size_t i = 0; i < s->n; i++) {
    const uint32_t *idx;
    size_t m;
    gc_nlist_sphere_pairs(nl, i, &idx, &m);
    total += m;
    for (size_t q = 0; q < m; q++) {
      csr_ok = csr_ok && idx[q] < n && (p[idx[q]].i == i || p[idx[q]].j == i);
      csr_ok = csr_ok && (q == 0 || idx[q - 1] < idx[q]);
    }
  }
  CU_ASSERT(csr_ok);
  CU_ASSERT_EQUAL(total, 2 * n);
  free(ref);
  return ncross;
}

/* CSR entries of the nsph spheres that are out of range, not increasing, or whose side does
 * not name the sphere (0: all consistent) */
static size_t csr_errors(const gc_nlist *nl, size_t nsph)
{
  const size_t n = gc_nlist_npairs(nl);
  const gc_npair *p = gc_nlist_pairs(nl);
  size_t bad = 0;
  for (size_t i = 0; i < nsph; i++) {
    const uint32_t *idx;
    size_t m;
    gc_nlist_sphere_pairs(nl, i, &idx, &m);
    const unsigned char *side = gc_nlist_sphere_sides(nl, i);
    for (size_t q = 0; q < m; q++)
      bad += idx[q] >= n || (q && idx[q - 1] >= idx[q]) ||
             (side[q] ? p[idx[q]].i != i : p[idx[q]].j != i);
  }
  return bad;
}

static int find_pair(const gc_npair *p, size_t n, size_t i, size_t j)
{
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t m = lo + (hi - lo) / 2;
    if (p[m].i < i || (p[m].i == i && p[m].j < j))
      lo = m + 1;
    else
      hi = m;
  }
  return lo < n && p[lo].i == i && p[lo].j == j ? (int)lo : -1;
}

/* ---- tests --------------------------------------------------------------------------- */

/* Random spheres in a 10 x 6 x 10 box periodic along x and z (positions over three periods,
 * y beyond both ends), radii 0.3-0.5, skins 0.05 / 0.3 / 1.0, groups and fixed spheres: the
 * cell list equals the O(N^2) minimum-image reference pair for pair, shift for shift.  Also
 * a thin box whose period along x is exactly 2 (2 r_max + skin) (one cell along x) and 2.3
 * cut-offs along z (two cells: the all-cells fallback), and a sparse box (few spheres, the
 * grid is coarsened).  The reference is brute() above. */
static void test_brute_force(void)
{
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 20261123);
  const double skins[] = { 0.05, 0.3, 1.0 };
  for (int k = 0; k < 3; k++) {
    gc_nlist_box b = make_box(10, 6, 10, skins[k]);
    spheres s = random_spheres(rng, 500, &b, 0.3, 0.5);
    gc_nlist *nl = gc_nlist_alloc(s.n, 16);
    CU_ASSERT_PTR_NOT_NULL_FATAL(nl);
    CU_ASSERT_EQUAL_FATAL(build(nl, &b, &s), GC_SUCCESS);
    CU_ASSERT(gc_nlist_npairs(nl) > 200); /* not vacuous: ~400 expected at skin 0.05 */
    CU_ASSERT(check_against_brute(nl, &s, &b) > 20);
    /* and again without groups and fixed flags */
    spheres t = s;
    t.group = NULL;
    t.fixed = NULL;
    CU_ASSERT_EQUAL_FATAL(gc_nlist_build(nl, &b, t.x, t.r, NULL, NULL, NULL, 0), GC_SUCCESS);
    check_against_brute(nl, &t, &b);
    CU_ASSERT_EQUAL(gc_nlist_builds(nl), 2);
    gc_nlist_free(nl);
    spheres_free(&s);
  }
  /* thin box: cut-off 2 0.5 + 0.25 = 1.25, period 2.5 along x, 2.9 along z */
  {
    gc_nlist_box b = make_box(2.5, 4, 2.9, 0.25);
    spheres s = random_spheres(rng, 80, &b, 0.3, 0.5);
    gc_nlist *nl = gc_nlist_alloc(s.n, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(nl);
    CU_ASSERT_EQUAL_FATAL(build(nl, &b, &s), GC_SUCCESS);
    CU_ASSERT(check_against_brute(nl, &s, &b) > 20);
    CU_ASSERT_PTR_NULL(gc_nlist_payload(nl, 0)); /* payload_size 0 */
    gc_nlist_free(nl);
    spheres_free(&s);
  }
  /* sparse: 6 spheres in a 40 x 40 x 40 box, 3 of them close together across the corner */
  {
    gc_nlist_box b = make_box(40, 40, 40, 0.2);
    spheres s = random_spheres(rng, 6, &b, 0.3, 0.5);
    const double c[9] = { 39.8, 20, 39.9, 0.3, 20.4, 0.2, -0.1, 19.5, 40.3 };
    memcpy(s.x, c, sizeof c);
    s.group[0] = s.group[1] = s.group[2] = -1;
    s.fixed[0] = s.fixed[1] = s.fixed[2] = 0;
    gc_nlist *nl = gc_nlist_alloc(s.n, 8);
    CU_ASSERT_PTR_NOT_NULL_FATAL(nl);
    CU_ASSERT_EQUAL_FATAL(build(nl, &b, &s), GC_SUCCESS);
    CU_ASSERT(check_against_brute(nl, &s, &b) >= 2);
    gc_nlist_free(nl);
    spheres_free(&s);
  }
  gsl_rng_free(rng);
}

/* Hand-placed spheres (r = 0.5, skin 0.1: cut-off 1.1) in a 10^3 box periodic along x and z;
 * the expected pairs and shifts follow from the geometry:
 *   (0, 1): x 0.2 and 9.9 -> across x = 0, shift (-10, 0, 0), separation (-0.3, 0, 0);
 *   (2, 3): z 29.95 (two periods out) and 0.05 -> shift (0, 0, 30), separation (0, 0, 0.1);
 *   (4, 5): both below y = lo (y -3 and -2.2), no shift, separation (0, 0.8, 0);
 *   (7, 8): both above y = hi (14, 14.5), separation (0.5, 0.5, 0);
 *   (9, 10): (9.8, 8, 9.8) and (10.1, 8, -9.9) -> shift (0, 0, 20), separation (0.3, 0, 0.3);
 * sphere 6 (y -3, 5 from sphere 4 along x) pairs with nothing.  Then groups and fixed flags
 * remove pairs: same group (4, 5), both fixed (7, 8); one fixed (9) keeps (9, 10). */
static void test_periodic_images(void)
{
  const double x[] = { 0.2, 5, 5,  9.9, 5, 5,  5, 5,   29.95, 5, 5,   0.05, 2,   -3,   2, 2,   -2.2,
                       2,   7, -3, 2,   2, 14, 7, 2.5, 14.5,  7, 9.8, 8,    9.8, 10.1, 8, -9.9 };
  enum { N = 11 };
  double r[N];
  for (int i = 0; i < N; i++)
    r[i] = 0.5;
  gc_nlist_box b = make_box(10, 10, 10, 0.1);
  gc_nlist *nl = gc_nlist_alloc(N, 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(nl);
  char msg[256] = "";
  CU_ASSERT_EQUAL_FATAL(gc_nlist_build(nl, &b, x, r, NULL, NULL, msg, sizeof msg), GC_SUCCESS);
  const size_t ei[] = { 0, 2, 4, 7, 9 }, ej[] = { 1, 3, 5, 8, 10 };
  const double esh[5][3] = { { -10, 0, 0 }, { 0, 0, 30 }, { 0, 0, 0 }, { 0, 0, 0 }, { 0, 0, 20 } };
  const double ed[5][3] = {
    { -0.3, 0, 0 }, { 0, 0, 0.1 }, { 0, 0.8, 0 }, { 0.5, 0.5, 0 }, { 0.3, 0, 0.3 }
  };
  CU_ASSERT_EQUAL_FATAL(gc_nlist_npairs(nl), 5);
  const gc_npair *p = gc_nlist_pairs(nl);
  for (int k = 0; k < 5; k++) {
    CU_ASSERT_EQUAL(p[k].i, ei[k]);
    CU_ASSERT_EQUAL(p[k].j, ej[k]);
    double sh[3];
    gc_nlist_shift(nl, &p[k], sh);
    for (int a = 0; a < 3; a++) {
      CU_ASSERT_EQUAL(sh[a], esh[k][a]);
      CU_ASSERT_EQUAL(p[k].image[a] * 10, (int)esh[k][a]);
      double d = x[3 * p[k].j + a] + sh[a] - x[3 * p[k].i + a];
      CU_ASSERT_DOUBLE_EQUAL(d, ed[k][a], 1e-12);
    }
  }
  const uint32_t *idx;
  size_t m;
  gc_nlist_sphere_pairs(nl, 6, &idx, &m);
  CU_ASSERT_EQUAL(m, 0);
  gc_nlist_sphere_pairs(nl, 10, &idx, &m);
  CU_ASSERT_EQUAL_FATAL(m, 1);
  CU_ASSERT_EQUAL(idx[0], 4);

  long group[N];
  unsigned char fixed[N] = { 0 };
  for (int i = 0; i < N; i++)
    group[i] = -1;
  group[4] = group[5] = 3;
  group[0] = 1, group[1] = 2; /* different groups: still a pair */
  fixed[7] = fixed[8] = fixed[9] = 1;
  CU_ASSERT_EQUAL_FATAL(gc_nlist_build(nl, &b, x, r, group, fixed, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT_EQUAL_FATAL(gc_nlist_npairs(nl), 3);
  p = gc_nlist_pairs(nl);
  CU_ASSERT(p[0].i == 0 && p[0].j == 1);
  CU_ASSERT(p[1].i == 2 && p[1].j == 3);
  CU_ASSERT(p[2].i == 9 && p[2].j == 10);
  gc_nlist_free(nl);
}

/* Payload with an odd size (rounded up to the max_align_t stride). */
typedef struct {
  size_t i, j;
  double mark;
  char tail[5];
} marker;

/* qsort order of (cache line, thread) rows */
static int cmp_line(const void *a, const void *b)
{
  const uintptr_t *x = a, *y = b;
  return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] < y[1] ? -1 : x[1] > y[1];
}

/* 1 if the n bytes at p are all zero */
static int all_zero(const void *p, size_t n)
{
  const unsigned char *u = p;
  for (size_t q = 0; q < n; q++)
    if (u[q])
      return 0;
  return 1;
}

/* The history tests' set-up: 400 random spheres (radii 0.3-0.5) in an 8 x 6 x 8 box with skin
 * 0.2 from generator seed, and a list with marker payloads built on nt threads. */
static gc_nlist *marker_list(unsigned long seed, int nt, gsl_rng **rng, gc_nlist_box *b, spheres *s)
{
  *rng = gsl_rng_alloc(gsl_rng_mt19937);
  CU_ASSERT_PTR_NOT_NULL_FATAL(*rng);
  gsl_rng_set(*rng, seed);
  *b = make_box(8, 6, 8, 0.2);
  *s = random_spheres(*rng, 400, b, 0.3, 0.5);
  gc_nlist *nl = gc_nlist_alloc(s->n, sizeof(marker));
  CU_ASSERT_PTR_NOT_NULL_FATAL(nl);
  gc_nlist_set_threads(nl, nt);
  CU_ASSERT_EQUAL_FATAL(build(nl, b, s), GC_SUCCESS);
  return nl;
}

/* History: every payload gets a marker naming its pair; after the spheres move (by up to 0.25
 * in each coordinate) and the list is rebuilt, the pairs found in the old list (binary search)
 * carry their marker unchanged, the new pairs have all-zero payloads, and departed pairs are
 * gone (checked against the brute-force list).  The test requires persisting, new and departed
 * pairs to exist.  A rebuild with unchanged positions keeps every payload, and with double
 * buffering the build after next writes into the same pair buffer again (no allocation). */
static void test_history(void)
{
  gsl_rng *rng;
  gc_nlist_box b;
  spheres s;
  gc_nlist *nl = marker_list(7, 1, &rng, &b, &s);
  size_t n0 = gc_nlist_npairs(nl);
  CU_ASSERT_FATAL(n0 > 100);
  int aligned = 1, zero = 1;
  for (size_t k = 0; k < n0; k++) {
    marker *m = gc_nlist_payload(nl, k);
    aligned = aligned && (uintptr_t)m % _Alignof(max_align_t) == 0;
    zero = zero && all_zero(m, sizeof *m);
    m->i = gc_nlist_pairs(nl)[k].i;
    m->j = gc_nlist_pairs(nl)[k].j;
    m->mark = 1000.0 + (double)k;
    memcpy(m->tail, "hist", 5);
  }
  CU_ASSERT(aligned);
  CU_ASSERT(zero); /* first build: all payloads zeroed */
  gc_npair *old = malloc(n0 * sizeof *old);
  CU_ASSERT_PTR_NOT_NULL_FATAL(old);
  memcpy(old, gc_nlist_pairs(nl), n0 * sizeof *old);

  for (size_t q = 0; q < 3 * s.n; q++)
    s.x[q] += 0.25 * (2 * gsl_rng_uniform(rng) - 1);
  CU_ASSERT_EQUAL_FATAL(build(nl, &b, &s), GC_SUCCESS);
  check_against_brute(nl, &s, &b);
  size_t n1 = gc_nlist_npairs(nl), kept = 0, fresh = 0, bad = 0;
  const gc_npair *p = gc_nlist_pairs(nl);
  for (size_t k = 0; k < n1; k++) {
    const marker *m = gc_nlist_payload_const(nl, k);
    int ko = find_pair(old, n0, p[k].i, p[k].j);
    if (ko >= 0) {
      kept++;
      bad += m->i != p[k].i || m->j != p[k].j || m->mark != 1000.0 + ko ||
             memcmp(m->tail, "hist", 5) != 0;
    } else {
      fresh++;
      bad += !all_zero(m, sizeof *m);
    }
  }
  CU_ASSERT_EQUAL(bad, 0);
  CU_ASSERT(kept > 0);
  CU_ASSERT(fresh > 0);
  CU_ASSERT(n0 > kept); /* some pairs departed */

  /* unchanged positions: every payload kept; third build reuses the first buffer */
  const void *buf1 = gc_nlist_pairs(nl);
  for (size_t k = 0; k < n1; k++)
    ((marker *)gc_nlist_payload(nl, k))->mark = -(double)k;
  CU_ASSERT_EQUAL_FATAL(build(nl, &b, &s), GC_SUCCESS);
  CU_ASSERT_EQUAL_FATAL(gc_nlist_npairs(nl), n1);
  bad = 0;
  for (size_t k = 0; k < n1; k++)
    bad += ((const marker *)gc_nlist_payload_const(nl, k))->mark != -(double)k;
  CU_ASSERT_EQUAL(bad, 0);
  CU_ASSERT_EQUAL_FATAL(build(nl, &b, &s), GC_SUCCESS);
  CU_ASSERT_PTR_EQUAL(gc_nlist_pairs(nl), buf1);
  CU_ASSERT_EQUAL(gc_nlist_builds(nl), 4);

  free(old);
  gc_nlist_free(nl);
  spheres_free(&s);
  gsl_rng_free(rng);
}

/* Where the payloads live (nlist.c: a build packs the non-zero ones; a pair handed out writable
 * after it takes a young row; every other pair reads a row of zeros): the kinds of pair a force
 * loop leaves behind, lists built on 1 and 3 threads.
 * - Pair k % 3 == 0 gets a marker; k % 3 == 1 is handed out writable and left zero (a contact
 *   that ended); k % 3 == 2 is not touched.  gc_nlist_payload_zero is 1 for the untouched ones
 *   only.  A rebuild at the same positions keeps every marker, and the zero ones read zero
 *   with gc_nlist_payload_zero 1 (they were dropped).
 * - Markers then written into pairs that were not packed (young rows, asked for from the
 *   threads of an OpenMP loop, or in the first round for three threads in turn with
 *   gc_nlist_payload_on):
 *   each pair reads its own marker (no two share a row), no cache line (64 bytes) holds rows
 *   of two threads (a marker is 32 bytes: rows one stride apart would share lines), and on
 *   a list built on 3 threads each thread's rows lie together (ordered by address, the rows
 *   change thread at most twice; taken in turns from one sequence they would change ~n
 *   times).  The
 *   spheres moved and the list rebuilt: persisting pairs carry their markers, every pair new
 *   to the list is all zero, also once handed out writable (a young row taken before the build
 *   must not show through).
 * - The spheres drawn together (y 0.3 about the middle of the box; x and z are periodic): more
 *   than twice the pairs, past the young rows, so new ones; the same checks.
 * - Checkpoint round trip of such a list: the same payloads, and a pair reads as known zero
 *   after the read exactly where its payload is all zero.
 * - gc_nlist_clear and a build: every payload zero. */
static void test_packed_payloads(void)
{
  for (int nt = 1; nt <= 3; nt += 2) {
    gsl_rng *rng;
    gc_nlist_box b;
    spheres s;
    gc_nlist *nl = marker_list(515, nt, &rng, &b, &s);
    size_t n = gc_nlist_npairs(nl), bad = 0;
    CU_ASSERT_FATAL(n > 100);
    for (size_t k = 0; k < n; k++) {
      bad += !gc_nlist_payload_zero(nl, k);
      if (k % 3 == 2)
        continue;
      marker *m = gc_nlist_payload(nl, k);
      if (k % 3 == 0) {
        m->i = gc_nlist_pairs(nl)[k].i, m->j = gc_nlist_pairs(nl)[k].j, m->mark = 7.0 + (double)k;
        memcpy(m->tail, "pool", 5);
      }
    }
    CU_ASSERT_EQUAL(bad, 0); /* first build: all known zero */
    for (size_t k = 0; k < n; k++)
      bad += gc_nlist_payload_zero(nl, k) != (k % 3 == 2);
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL_FATAL(build(nl, &b, &s), GC_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(gc_nlist_npairs(nl), n);
    for (size_t k = 0; k < n; k++) {
      const marker *m = gc_nlist_payload_const(nl, k);
      if (k % 3 == 0)
        bad += gc_nlist_payload_zero(nl, k) || m->mark != 7.0 + (double)k ||
               m->i != gc_nlist_pairs(nl)[k].i || memcmp(m->tail, "pool", 5) != 0;
      else
        bad += !gc_nlist_payload_zero(nl, k) || !all_zero(m, sizeof *m);
    }
    CU_ASSERT_EQUAL(bad, 0);

    for (int round = 0; round < 2; round++) {
      /* markers in young rows too (round 0; all pairs in round 1), then moved (round 0) or
       * drawn together (round 1) */
      n = gc_nlist_npairs(nl);
      const long nl_n = (long)n;
      int *who = malloc(n * sizeof *who); /* the thread that took the pair's row */
      CU_ASSERT_PTR_NOT_NULL_FATAL(who);
#ifdef _OPENMP
#pragma omp parallel for num_threads(3) schedule(static, 7) if (round)
#endif
      for (long k = 0; k < nl_n; k++) {
        const int t = (int)(k / 7 % 3); /* round 0: for the threads of such a loop in turn */
        who[k] = -1;
        if (k % 3 != 0 || round) {
          marker *m =
              round ? gc_nlist_payload(nl, (size_t)k) : gc_nlist_payload_on(nl, (size_t)k, t);
          who[k] = round ? 0 : t;
          m->i = gc_nlist_pairs(nl)[k].i, m->j = gc_nlist_pairs(nl)[k].j, m->mark = 7.0 + (double)k;
          memcpy(m->tail, "yng", 4);
        }
      }
      if (!round) { /* a line holds the rows of one thread: its rows' lines, sorted */
        uintptr_t(*line)[2] = malloc(2 * n * sizeof *line); /* a row on at most 2 lines */
        CU_ASSERT_PTR_NOT_NULL_FATAL(line);
        size_t nrow = 0, shared = 0, turns = 0;
        for (size_t k = 0; k < n; k++)
          if (who[k] >= 0) {
            const uintptr_t a = (uintptr_t)gc_nlist_payload_const(nl, k);
            for (uintptr_t l = a / 64; l <= (a + sizeof(marker) - 1) / 64; l++)
              line[nrow][0] = l, line[nrow++][1] = (uintptr_t)who[k];
          }
        qsort(line, nrow, sizeof *line, cmp_line);
        for (size_t q = 1; q < nrow; q++) {
          shared += line[q][0] == line[q - 1][0] && line[q][1] != line[q - 1][1];
          turns += line[q][1] != line[q - 1][1];
        }
        CU_ASSERT(nrow > n / 2);
        CU_ASSERT_EQUAL(shared, 0);
        if (nt == 3)
          CU_ASSERT(turns <= 2); /* a region of rows per thread of the build */
        free(line);
      }
      free(who);
      for (size_t k = 0; k < n; k++) {
        const marker *m = gc_nlist_payload_const(nl, k);
        bad += m->mark != 7.0 + (double)k || m->i != gc_nlist_pairs(nl)[k].i ||
               m->j != gc_nlist_pairs(nl)[k].j || gc_nlist_payload_zero(nl, k);
      }
      CU_ASSERT_EQUAL(bad, 0);
      gc_npair *old = malloc(n * sizeof *old);
      marker *oldm = malloc(n * sizeof *oldm);
      CU_ASSERT_FATAL(old && oldm);
      memcpy(old, gc_nlist_pairs(nl), n * sizeof *old);
      for (size_t k = 0; k < n; k++)
        memcpy(&oldm[k], gc_nlist_payload_const(nl, k), sizeof *oldm);
      for (size_t q = 0; q < 3 * s.n; q++)
        s.x[q] = !round       ? s.x[q] + 0.25 * (2 * gsl_rng_uniform(rng) - 1)
                 : q % 3 == 1 ? 3.0 + 0.3 * (s.x[q] - 3.0)
                              : s.x[q];
      CU_ASSERT_EQUAL_FATAL(build(nl, &b, &s), GC_SUCCESS);
      check_against_brute(nl, &s, &b);
      const size_t n1 = gc_nlist_npairs(nl);
      if (round)
        CU_ASSERT(n1 > 2 * n); /* past the young rows (capacity doubles) */
      size_t kept = 0, fresh = 0;
      const gc_npair *p = gc_nlist_pairs(nl);
      for (size_t k = 0; k < n1; k++) {
        const marker *m = gc_nlist_payload_const(nl, k);
        int ko = find_pair(old, n, p[k].i, p[k].j);
        if (ko >= 0) {
          kept++;
          bad += memcmp(m, &oldm[ko], sizeof *m) != 0 || gc_nlist_payload_zero(nl, k);
        } else {
          fresh++;
          bad += !all_zero(m, sizeof *m) || !gc_nlist_payload_zero(nl, k);
          /* handed out writable: a young row, zero (the rows taken before were cleared) */
          bad += !all_zero(gc_nlist_payload(nl, k), sizeof *m) || gc_nlist_payload_zero(nl, k);
        }
      }
      CU_ASSERT_EQUAL(bad, 0);
      CU_ASSERT(kept > 0 && fresh > 0);
      free(old);
      free(oldm);
    }

    /* checkpoint: pairs of every kind (marked, zeroed after a write, untouched) */
    n = gc_nlist_npairs(nl);
    for (size_t k = 0; k < n; k++)
      if (k % 3 == 1)
        memset(gc_nlist_payload(nl, k), 0, sizeof(marker));
    FILE *f = tmpfile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL_FATAL(gc_nlist_write(nl, f), GC_SUCCESS);
    rewind(f);
    gc_nlist *c = gc_nlist_alloc(s.n, sizeof(marker));
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    char msg[256] = "";
    CU_ASSERT_EQUAL_FATAL(gc_nlist_read(c, f, msg, sizeof msg), GC_SUCCESS);
    fclose(f);
    CU_ASSERT_EQUAL_FATAL(gc_nlist_npairs(c), n);
    size_t zeros = 0;
    for (size_t k = 0; k < n; k++) {
      const void *u = gc_nlist_payload_const(c, k);
      zeros += all_zero(u, sizeof(marker));
      bad += memcmp(u, gc_nlist_payload_const(nl, k), sizeof(marker)) != 0 ||
             gc_nlist_payload_zero(c, k) != all_zero(u, sizeof(marker));
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT(zeros > n / 4 && zeros < n);
    gc_nlist_free(c);

    gc_nlist_clear(nl);
    CU_ASSERT_EQUAL_FATAL(build(nl, &b, &s), GC_SUCCESS);
    n = gc_nlist_npairs(nl);
    for (size_t k = 0; k < n; k++)
      bad +=
          !all_zero(gc_nlist_payload_const(nl, k), sizeof(marker)) || !gc_nlist_payload_zero(nl, k);
    CU_ASSERT_EQUAL(bad, 0);
    gc_nlist_free(nl);
    spheres_free(&s);
    gsl_rng_free(rng);
  }
}

/* The young rows' regions (gc_nlist_payload_on): on a list built on 3 threads, one thread asks
 * for the record of every pair, more than its region holds (a third of the rows, which are
 * fewer than 2 n): each pair gets a row of its own (the records' addresses all differ by at
 * least a record) and reads its own marker, and a build at the same positions keeps every
 * marker; after gc_nlist_clear and a build the same rows, taken again, read zero.  With 2
 * writers set (gc_nlist_set_writers) after gc_nlist_clear and a build, rows
 * asked for by threads 0 and 1 in turn lie in two runs (ordered by address, one change of
 * thread). */
static int cmp_uptr(const void *a, const void *b)
{
  const uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
  return x < y ? -1 : x > y;
}

static void test_young_regions(void)
{
  gsl_rng *rng;
  gc_nlist_box b;
  spheres s;
  gc_nlist *nl = marker_list(2024, 3, &rng, &b, &s);
  const size_t n = gc_nlist_npairs(nl);
  CU_ASSERT_FATAL(n > 100);
  uintptr_t *at = malloc(n * sizeof *at);
  CU_ASSERT_PTR_NOT_NULL_FATAL(at);
  size_t bad = 0;
  for (size_t k = 0; k < n; k++) {
    marker *m = gc_nlist_payload_on(nl, k, 1);
    bad += !all_zero(m, sizeof *m);
    m->i = gc_nlist_pairs(nl)[k].i, m->j = gc_nlist_pairs(nl)[k].j, m->mark = 3.0 + (double)k;
    at[k] = (uintptr_t)m;
  }
  for (size_t k = 0; k < n; k++) {
    const marker *m = gc_nlist_payload_const(nl, k);
    bad += m->mark != 3.0 + (double)k || m->i != gc_nlist_pairs(nl)[k].i;
  }
  qsort(at, n, sizeof *at, cmp_uptr);
  for (size_t k = 1; k < n; k++)
    bad += at[k] - at[k - 1] < sizeof(marker);
  CU_ASSERT_EQUAL(bad, 0);
  CU_ASSERT_EQUAL_FATAL(build(nl, &b, &s), GC_SUCCESS);
  CU_ASSERT_EQUAL_FATAL(gc_nlist_npairs(nl), n);
  for (size_t k = 0; k < n; k++)
    bad += ((const marker *)gc_nlist_payload_const(nl, k))->mark != 3.0 + (double)k;
  CU_ASSERT_EQUAL(bad, 0);
  /* the rows taken were zeroed by that build (the markers went to the pool): taken again
   * after gc_nlist_clear, the region's and the shared ones read zero */
  gc_nlist_clear(nl);
  CU_ASSERT_EQUAL_FATAL(build(nl, &b, &s), GC_SUCCESS);
  for (size_t k = 0; k < n; k++)
    bad += !all_zero(gc_nlist_payload_on(nl, k, 1), sizeof(marker));
  CU_ASSERT_EQUAL(bad, 0);

  gc_nlist_set_writers(nl, 2);
  gc_nlist_clear(nl);
  CU_ASSERT_EQUAL_FATAL(build(nl, &b, &s), GC_SUCCESS);
  CU_ASSERT_EQUAL_FATAL(gc_nlist_npairs(nl), n);
  uintptr_t(*row)[2] = malloc(n * sizeof *row);
  CU_ASSERT_PTR_NOT_NULL_FATAL(row);
  for (size_t k = 0; k < n; k++) {
    row[k][0] = (uintptr_t)gc_nlist_payload_on(nl, k, (int)(k % 2));
    row[k][1] = k % 2;
  }
  qsort(row, n, sizeof *row, cmp_line);
  size_t turns = 0;
  for (size_t k = 1; k < n; k++)
    turns += row[k][1] != row[k - 1][1];
  CU_ASSERT_EQUAL(turns, 1);
  free(row);
  free(at);
  gc_nlist_free(nl);
  spheres_free(&s);
  gsl_rng_free(rng);
}

/* The criterion in a moving frame (gc_nlist_needs_rebuild_shifted), skin 0.2: a pair's
 * separation changes by the difference of its spheres' displacements, so a common shift is no
 * move.  Closed forms: every sphere moved by (0.5, 0, 0) calls for a rebuild, not in a frame
 * shifted by that much; one sphere moved 0.09 more (along y) in that frame does not, 0.11
 * does; a shift by a period plus 0.03 along the periodic x is a shift of 0.03.  With spheres
 * 0-9 fixed (left in place) and the others shifted by s: the largest free displacement in the
 * frame plus |s| (that of the fixed ones) must stay below the skin, so s = 0.12 with a free
 * sphere 0.05 further is no rebuild (0.17), 0.09 further is (0.21); without the fixed flags
 * the fixed spheres count as free ones displaced by 0.12 > skin/2 (a rebuild).  The reach of
 * the free spheres (gc_nlist_skin_reach) is then skin - 0.12 = 0.08, else skin/2 = 0.1. */
static void test_needs_rebuild_shifted(void)
{
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 7);
  gc_nlist_box b = make_box(10, 10, 10, 0.2);
  spheres s = random_spheres(rng, 100, &b, 0.3, 0.5);
  gc_nlist *nl = gc_nlist_alloc(s.n, 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(nl);
  CU_ASSERT_EQUAL_FATAL(build(nl, &b, &s), GC_SUCCESS);
  double *y = malloc(3 * s.n * sizeof(double));
  unsigned char fixed[100] = { 0 };
  CU_ASSERT_PTR_NOT_NULL_FATAL(y);
  const double zero[3] = { 0, 0, 0 }, half[3] = { 0.5, 0, 0 }, period[3] = { 10.03, 0, 0 };
  for (size_t i = 0; i < s.n; i++)
    for (int a = 0; a < 3; a++)
      y[3 * i + a] = s.x[3 * i + a] + half[a];
  CU_ASSERT_EQUAL(gc_nlist_needs_rebuild(nl, y), 1);
  CU_ASSERT_EQUAL(gc_nlist_needs_rebuild_shifted(nl, y, NULL, zero), 1);
  CU_ASSERT_EQUAL(gc_nlist_needs_rebuild_shifted(nl, y, NULL, half), 0);
  y[3 * 31 + 1] += 0.09;
  CU_ASSERT_EQUAL(gc_nlist_needs_rebuild_shifted(nl, y, NULL, half), 0);
  y[3 * 31 + 1] += 0.02;
  CU_ASSERT_EQUAL(gc_nlist_needs_rebuild_shifted(nl, y, NULL, half), 1);
  for (size_t i = 0; i < s.n; i++)
    for (int a = 0; a < 3; a++)
      y[3 * i + a] = s.x[3 * i + a] + period[a];
  CU_ASSERT_EQUAL(gc_nlist_needs_rebuild_shifted(nl, y, NULL, period), 0);
  CU_ASSERT_EQUAL(gc_nlist_needs_rebuild(nl, y), 0); /* 0.03 in the minimum image */
  const double sh[3] = { 0.12, 0, 0 };
  for (size_t i = 0; i < s.n; i++) {
    fixed[i] = i < 10;
    for (int a = 0; a < 3; a++)
      y[3 * i + a] = s.x[3 * i + a] + (i < 10 ? 0.0 : sh[a]);
  }
  y[3 * 50 + 2] += 0.05;
  CU_ASSERT_EQUAL(gc_nlist_needs_rebuild_shifted(nl, y, fixed, sh), 0);
  CU_ASSERT_EQUAL(gc_nlist_needs_rebuild_shifted(nl, y, NULL, sh), 1);
  y[3 * 50 + 2] += 0.04;
  CU_ASSERT_EQUAL(gc_nlist_needs_rebuild_shifted(nl, y, fixed, sh), 1);
  /* the criterion on given maxima: twice the free one, or it plus the fixed one */
  CU_ASSERT_EQUAL(gc_nlist_past_skin(nl, 0.09 * 0.09, 0.0), 0);
  CU_ASSERT_EQUAL(gc_nlist_past_skin(nl, 0.11 * 0.11, 0.0), 1);
  CU_ASSERT_EQUAL(gc_nlist_past_skin(nl, 0.05 * 0.05, 0.12 * 0.12), 0);
  CU_ASSERT_EQUAL(gc_nlist_past_skin(nl, 0.09 * 0.09, 0.12 * 0.12), 1);
  CU_ASSERT_EQUAL(gc_nlist_past_skin(nl, NAN, 0.0), 1);
  CU_ASSERT_EQUAL(gc_nlist_past_skin(nl, 0.0, NAN), 1);
  /* the reach: skin/2 = 0.1, or skin - |shift| = 0.08 for the fixed ones at 0.12 */
  CU_ASSERT_DOUBLE_EQUAL(gc_nlist_skin_reach(nl, 0.0), 0.1, 1e-15);
  CU_ASSERT_DOUBLE_EQUAL(gc_nlist_skin_reach(nl, 0.05 * 0.05), 0.1, 1e-15);
  CU_ASSERT_DOUBLE_EQUAL(gc_nlist_skin_reach(nl, 0.12 * 0.12), 0.08, 1e-9);
  CU_ASSERT_EQUAL(gc_nlist_past_skin(nl, 0.0799 * 0.0799, 0.12 * 0.12), 0);
  CU_ASSERT_EQUAL(gc_nlist_past_skin(nl, 0.0801 * 0.0801, 0.12 * 0.12), 1);
  free(y);
  spheres_free(&s);
  gc_nlist_free(nl);
  gsl_rng_free(rng);
}

/* Displacement criterion (eq. 2.29 with the exact largest displacement), skin 0.2 so the
 * threshold is 0.1: true before any build; false after moving every sphere by 0.09; true when
 * one sphere moves by 0.11; a move by exactly one period along x or z (or both) is no move;
 * 9.95 -> 0.03 across the periodic boundary is a move of 0.08 (false), 9.95 -> 0.06 one of
 * 0.11 (true); along the non-periodic y a move by 10 counts; a NaN position asks for a rebuild
 * (so that the build reports it). */
static void test_needs_rebuild(void)
{
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 99);
  gc_nlist_box b = make_box(10, 10, 10, 0.2);
  spheres s = random_spheres(rng, 200, &b, 0.3, 0.5);
  s.x[0] = 9.95; /* sphere 0 near the upper x boundary */
  gc_nlist *nl = gc_nlist_alloc(s.n, 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(nl);
  CU_ASSERT_EQUAL(gc_nlist_needs_rebuild(nl, s.x), 1);
  double d0[2] = { 0, 0 };
  CU_ASSERT(isinf(gc_nlist_moved(nl, s.x, 0, 2, d0)) && isinf(d0[0]) && isinf(d0[1]));
  CU_ASSERT_EQUAL_FATAL(build(nl, &b, &s), GC_SUCCESS);
  CU_ASSERT_EQUAL(gc_nlist_needs_rebuild(nl, s.x), 0);
  double *y = malloc(3 * s.n * sizeof(double));
  CU_ASSERT_PTR_NOT_NULL_FATAL(y);
  for (size_t i = 0; i < s.n; i++) {
    double u[3], n2 = 0;
    for (int a = 0; a < 3; a++) {
      u[a] = 2 * gsl_rng_uniform(rng) - 1 + 1e-3;
      n2 += u[a] * u[a];
    }
    for (int a = 0; a < 3; a++)
      y[3 * i + a] = s.x[3 * i + a] + 0.09 * u[a] / sqrt(n2);
  }
  CU_ASSERT_EQUAL(gc_nlist_needs_rebuild(nl, y), 0);
  /* the largest displacement: 0.09 for every sphere (to rounding), any range */
  CU_ASSERT_DOUBLE_EQUAL(gc_nlist_max_moved2(nl, y, 0, s.n), 0.09 * 0.09, 1e-15);
  CU_ASSERT_DOUBLE_EQUAL(gc_nlist_max_moved2(nl, y, 40, 3), 0.09 * 0.09, 1e-15);
  CU_ASSERT_EQUAL(gc_nlist_max_moved2(nl, s.x, 0, s.n), 0.0);
  y[3 * 17 + 1] = s.x[3 * 17 + 1] + 0.11;
  CU_ASSERT_EQUAL(gc_nlist_needs_rebuild(nl, y), 1);
  double e17 = 0; /* sphere 17: 0.11 along y, its earlier move along x and z */
  for (int a = 0; a < 3; a++)
    e17 += (y[3 * 17 + a] - s.x[3 * 17 + a]) * (y[3 * 17 + a] - s.x[3 * 17 + a]);
  CU_ASSERT(e17 > 0.11 * 0.11);
  CU_ASSERT_DOUBLE_EQUAL(gc_nlist_max_moved2(nl, y, 0, s.n), e17, 1e-15);
  CU_ASSERT_DOUBLE_EQUAL(gc_nlist_max_moved2(nl, y, 0, 17), 0.09 * 0.09, 1e-15); /* without 17 */
  /* each sphere's distance (gc_nlist_moved): 0.09, sqrt(e17) for sphere 17; the same maximum */
  double dist[30];
  CU_ASSERT_EQUAL(gc_nlist_moved(nl, y, 0, s.n, NULL), gc_nlist_max_moved2(nl, y, 0, s.n));
  CU_ASSERT_EQUAL(gc_nlist_moved(nl, y, 3, 30, dist), gc_nlist_max_moved2(nl, y, 3, 30));
  int dist_ok = 1;
  for (size_t i = 3; i < 33; i++)
    dist_ok = dist_ok && fabs(dist[i - 3] - (i == 17 ? sqrt(e17) : 0.09)) < 1e-14; /* ulp(10) */
  CU_ASSERT(dist_ok);

  memcpy(y, s.x, 3 * s.n * sizeof(double));
  y[3 * 5] += 10;
  y[3 * 6 + 2] -= 10;
  y[3 * 7] -= 10, y[3 * 7 + 2] += 20;
  CU_ASSERT_EQUAL(gc_nlist_needs_rebuild(nl, y), 0);
  y[0] = 0.03;
  CU_ASSERT_EQUAL(gc_nlist_needs_rebuild(nl, y), 0);
  y[0] = 0.06;
  CU_ASSERT_EQUAL(gc_nlist_needs_rebuild(nl, y), 1);
  y[0] = s.x[0];
  y[3 * 8 + 1] += 10;
  CU_ASSERT_EQUAL(gc_nlist_needs_rebuild(nl, y), 1);
  y[3 * 8 + 1] = NAN;
  CU_ASSERT_EQUAL(gc_nlist_needs_rebuild(nl, y), 1);
  CU_ASSERT(isinf(gc_nlist_max_moved2(nl, y, 0, s.n))); /* a non-finite position */
  CU_ASSERT(isinf(gc_nlist_moved(nl, y, 5, 5, dist)));
  CU_ASSERT(isinf(dist[3]) && dist[2] == 0.0 && dist[4] == 0.0); /* sphere 8; 7 and 9 moved
                                                                  * by whole periods */
  /* the build positions are those given to the build */
  CU_ASSERT_EQUAL(memcmp(gc_nlist_build_positions(nl), s.x, 3 * s.n * sizeof(double)), 0);
  free(y);
  gc_nlist_free(nl);
  spheres_free(&s);
  gsl_rng_free(rng);
}

/* Copy the first len bytes of f into a new temporary file. */
static FILE *truncated_copy(FILE *f, long len)
{
  FILE *g = tmpfile();
  CU_ASSERT_PTR_NOT_NULL_FATAL(g);
  rewind(f);
  for (long q = 0; q < len; q++) {
    int c = fgetc(f);
    CU_ASSERT_FATAL(c != EOF);
    fputc(c, g);
  }
  rewind(g);
  return g;
}

/* How two lists over the same spheres differ: 1 for different pair counts, else the number
 * of differing pair records (i, j, image), payloads (psz bytes) and spheres whose CSR entries
 * or sides differ, plus 1 if the ranks differ.  0: byte for byte the same list. */
static size_t list_differences(const gc_nlist *a, const gc_nlist *b, size_t nsph, size_t psz)
{
  const size_t n = gc_nlist_npairs(a);
  if (gc_nlist_npairs(b) != n)
    return 1;
  const gc_npair *pa = gc_nlist_pairs(a), *pb = gc_nlist_pairs(b);
  size_t diff = 0;
  for (size_t k = 0; k < n; k++) {
    diff += memcmp(pa + k, pb + k, sizeof *pa) != 0;
    diff += psz && memcmp(gc_nlist_payload_const(a, k), gc_nlist_payload_const(b, k), psz) != 0;
  }
  for (size_t i = 0; i < nsph; i++) {
    const uint32_t *ia, *ib;
    size_t ma, mb;
    gc_nlist_sphere_pairs(a, i, &ia, &ma);
    gc_nlist_sphere_pairs(b, i, &ib, &mb);
    const unsigned char *sa = gc_nlist_sphere_sides(a, i), *sb = gc_nlist_sphere_sides(b, i);
    diff += ma != mb || (ma && (memcmp(ia, ib, ma * sizeof *ia) || memcmp(sa, sb, ma)));
  }
  diff += memcmp(gc_nlist_ranks(a), gc_nlist_ranks(b), nsph * sizeof(uint32_t)) != 0;
  return diff;
}

/* Threads (gc_nlist_set_threads): builds on 2, 3 and 5 threads give the list of one thread,
 * byte for byte (pairs with their shifts, CSR, sides), and carry the same payloads through a
 * rebuild after the spheres moved (each persisting pair keeps its own random bytes, new pairs
 * are zero) -- the ranges are concatenated in order and the merge searches each range's start
 * in the old list.  Also a range with no spheres (more threads than spheres). */
static void test_threads(void)
{
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 77);
  gc_nlist_box b = make_box(8, 6, 8, 0.3);
  spheres s = random_spheres(rng, 400, &b, 0.3, 0.5);
  const size_t psz = 24;
  const int nts[] = { 1, 2, 3, 5 };
  gc_nlist *nl[4];
  for (int q = 0; q < 4; q++) {
    nl[q] = gc_nlist_alloc(s.n, psz);
    CU_ASSERT_PTR_NOT_NULL_FATAL(nl[q]);
    gc_nlist_set_threads(nl[q], nts[q]);
    CU_ASSERT_EQUAL_FATAL(build(nl[q], &b, &s), GC_SUCCESS);
  }
  size_t n = gc_nlist_npairs(nl[0]);
  CU_ASSERT_FATAL(n > 200);
  /* the same random bytes in every list's payloads */
  for (size_t k = 0; k < n; k++)
    for (size_t u = 0; u < psz; u++) {
      unsigned char v = (unsigned char)gsl_rng_uniform_int(rng, 256);
      for (int q = 0; q < 4; q++)
        ((unsigned char *)gc_nlist_payload(nl[q], k))[u] = v;
    }
  for (size_t i = 0; i < 3 * s.n; i++)
    s.x[i] += 0.25 * (2 * gsl_rng_uniform(rng) - 1);
  for (int q = 0; q < 4; q++)
    CU_ASSERT_EQUAL_FATAL(build(nl[q], &b, &s), GC_SUCCESS);
  n = gc_nlist_npairs(nl[0]);
  size_t carried = 0, fresh = 0, diff = 0;
  for (size_t k = 0; k < n; k++) {
    const unsigned char *u = gc_nlist_payload(nl[0], k);
    size_t nz = 0;
    for (size_t v = 0; v < psz; v++)
      nz += u[v] != 0;
    if (nz)
      carried++;
    else
      fresh++;
  }
  CU_ASSERT(carried > n / 4); /* the moves (<= 0.25) keep most pairs, and some are new */
  CU_ASSERT(fresh > 0);
  for (int q = 1; q < 4; q++) {
    CU_ASSERT_EQUAL_FATAL(gc_nlist_npairs(nl[q]), n);
    diff += list_differences(nl[0], nl[q], s.n, psz);
  }
  CU_ASSERT_EQUAL(diff, 0);
  /* sides: sphere i of pair k is its i exactly where the side says so */
  for (size_t i = 0; i < s.n; i++) {
    const uint32_t *ia;
    size_t ma;
    gc_nlist_sphere_pairs(nl[2], i, &ia, &ma);
    const unsigned char *sa = gc_nlist_sphere_sides(nl[2], i);
    for (size_t m = 0; m < ma; m++)
      diff += (gc_nlist_pairs(nl[2])[ia[m]].i == i) != (sa[m] == 1);
  }
  CU_ASSERT_EQUAL(diff, 0);
  /* more threads than spheres */
  spheres t = random_spheres(rng, 3, &b, 0.3, 0.5);
  gc_nlist *few = gc_nlist_alloc(t.n, psz);
  CU_ASSERT_PTR_NOT_NULL_FATAL(few);
  gc_nlist_set_threads(few, 5);
  CU_ASSERT_EQUAL(build(few, &b, &t), GC_SUCCESS);
  gc_nlist_free(few);
  spheres_free(&t);
  for (int q = 0; q < 4; q++)
    gc_nlist_free(nl[q]);
  spheres_free(&s);
  gsl_rng_free(rng);
}

/* Build order (gc_nlist_set_order): with a random permutation of the spheres the list holds
 * the pairs of the brute-force reference (each exactly once, shifts equal), grouped by i in
 * the given order and by increasing j within; the CSR of every sphere is its pairs in
 * increasing index with the right sides; persisting pairs carry their payloads through
 * rebuilds whose order changes (ordered -> another order -> index order), new pairs are zero;
 * builds on 1 and 3 threads are identical; a checkpoint of an ordered list reads back
 * identical; set_order refuses a sequence that is not a permutation. */
static void test_order(void)
{
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 99);
  gc_nlist_box b = make_box(8, 6, 8, 0.3);
  spheres s = random_spheres(rng, 400, &b, 0.3, 0.5);
  gc_nlist *nl = gc_nlist_alloc(s.n, sizeof(marker)), *nl3 = gc_nlist_alloc(s.n, sizeof(marker));
  size_t *seq = malloc(s.n * sizeof *seq), *pos = malloc(s.n * sizeof *pos);
  CU_ASSERT_FATAL(nl && nl3 && seq && pos);
  gc_nlist_set_threads(nl3, 3);
  size_t bad = 0, kept = 0, fresh = 0, diff = 0;
  for (int round = 0; round < 3; round++) {
    if (round < 2) {
      for (size_t i = 0; i < s.n; i++)
        seq[i] = i;
      gsl_ran_shuffle(rng, seq, s.n, sizeof *seq);
      CU_ASSERT_EQUAL(gc_nlist_set_order(nl, seq), GC_SUCCESS);
      CU_ASSERT_EQUAL(gc_nlist_set_order(nl3, seq), GC_SUCCESS);
    } else {
      for (size_t i = 0; i < s.n; i++)
        seq[i] = i;
      CU_ASSERT_EQUAL(gc_nlist_set_order(nl, NULL), GC_SUCCESS);
      CU_ASSERT_EQUAL(gc_nlist_set_order(nl3, NULL), GC_SUCCESS);
    }
    for (size_t m = 0; m < s.n; m++)
      pos[seq[m]] = m;
    /* the previous list's pairs with their marks, to check the carried payloads */
    size_t n0 = round ? gc_nlist_npairs(nl) : 0;
    gc_npair *old = malloc((n0 ? n0 : 1) * sizeof *old);
    CU_ASSERT_PTR_NOT_NULL_FATAL(old);
    if (n0)
      memcpy(old, gc_nlist_pairs(nl), n0 * sizeof *old);
    CU_ASSERT_EQUAL_FATAL(build(nl, &b, &s), GC_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(build(nl3, &b, &s), GC_SUCCESS);
    diff += list_differences(nl, nl3, s.n, sizeof(marker));
    const size_t n = gc_nlist_npairs(nl);
    const gc_npair *p = gc_nlist_pairs(nl);
    /* grouping: i's position in seq never decreases, j increases within a group */
    for (size_t k = 1; k < n; k++)
      bad += pos[p[k].i] < pos[p[k - 1].i] || (p[k].i == p[k - 1].i && p[k].j <= p[k - 1].j);
    /* the same pairs as the reference (brute(): sorted, each pair once; n equal) */
    gc_npair *ref;
    size_t nref = brute(&s, &b, &ref);
    CU_ASSERT_EQUAL_FATAL(nref, n);
    for (size_t k = 0; k < n; k++) {
      int kr = find_pair(ref, nref, p[k].i, p[k].j);
      bad += kr < 0 || memcmp(ref[kr].image, p[k].image, sizeof p[k].image) != 0;
    }
    bad += csr_errors(nl, s.n);
    /* payloads: carried for persisting pairs, zero for new ones; then marked afresh */
    for (size_t k = 0; k < n; k++) {
      marker *mk = gc_nlist_payload(nl, k);
      int ko = -1;
      for (size_t q = 0; q < n0 && ko < 0; q++)
        if (old[q].i == p[k].i && old[q].j == p[k].j)
          ko = (int)q;
      if (ko >= 0) {
        kept++;
        bad += mk->i != p[k].i || mk->j != p[k].j || mk->mark != 1000.0 * round + ko;
      } else {
        fresh++;
        bad += mk->i != 0 || mk->j != 0 || mk->mark != 0.0;
      }
    }
    for (size_t k = 0; k < n; k++) {
      marker *mk = gc_nlist_payload(nl, k), *m3 = gc_nlist_payload(nl3, k);
      mk->i = m3->i = p[k].i;
      mk->j = m3->j = p[k].j;
      mk->mark = m3->mark = 1000.0 * (round + 1) + (double)k;
    }
    free(ref);
    free(old);
    for (size_t q = 0; q < 3 * s.n; q++)
      s.x[q] += 0.15 * (2 * gsl_rng_uniform(rng) - 1);
  }
  CU_ASSERT_EQUAL(bad, 0);
  CU_ASSERT_EQUAL(diff, 0);
  CU_ASSERT(kept > 500);
  CU_ASSERT(fresh > 0);
  /* a checkpoint of a list built in a shuffled order reads back identical */
  gsl_ran_shuffle(rng, seq, s.n, sizeof *seq);
  CU_ASSERT_EQUAL(gc_nlist_set_order(nl, seq), GC_SUCCESS);
  CU_ASSERT_EQUAL_FATAL(build(nl, &b, &s), GC_SUCCESS);
  FILE *f = tmpfile();
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  CU_ASSERT_EQUAL(gc_nlist_write(nl, f), GC_SUCCESS);
  rewind(f);
  char msg[256] = "";
  CU_ASSERT_EQUAL(gc_nlist_read(nl3, f, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT_EQUAL(list_differences(nl, nl3, s.n, sizeof(marker)), 0);
  /* the same file with two pairs of different spheres i swapped, which splits both groups:
   * refused as corrupt (the pairs start after the 124-byte header, the 3 nsph positions and
   * the nsph ranks, 40 bytes each), nl3 unchanged */
  const gc_npair *pp = gc_nlist_pairs(nl);
  size_t ka = 0;
  while (ka + 2 < gc_nlist_npairs(nl) && pp[ka].i != pp[ka + 1].i)
    ka++; /* a group of at least two pairs: swap its first with a later group's pair */
  size_t kb = ka + 2;
  while (kb < gc_nlist_npairs(nl) && pp[kb].i == pp[ka].i)
    kb++;
  CU_ASSERT_FATAL(kb + 1 < gc_nlist_npairs(nl));
  kb++; /* inside or at the start of a later group, after a pair of another i */
  unsigned char ra[40], rb[40];
  const long off = 124 + 28 * (long)s.n;
  CU_ASSERT_FATAL(fseek(f, off + 40 * (long)ka, SEEK_SET) == 0 && fread(ra, 1, 40, f) == 40);
  CU_ASSERT_FATAL(fseek(f, off + 40 * (long)kb, SEEK_SET) == 0 && fread(rb, 1, 40, f) == 40);
  CU_ASSERT_FATAL(fseek(f, off + 40 * (long)ka, SEEK_SET) == 0 && fwrite(rb, 1, 40, f) == 40);
  CU_ASSERT_FATAL(fseek(f, off + 40 * (long)kb, SEEK_SET) == 0 && fwrite(ra, 1, 40, f) == 40);
  rewind(f);
  msg[0] = 0;
  CU_ASSERT_EQUAL(gc_nlist_read(nl3, f, msg, sizeof msg), GC_EFORMAT);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "corrupt pair order"));
  CU_ASSERT_EQUAL(list_differences(nl, nl3, s.n, sizeof(marker)), 0);
  /* pairs back in place, then a shift that is not a whole number of periods (half of L_x,
   * the 3rd double of record ka): refused as a corrupt pair, nl3 unchanged */
  CU_ASSERT_FATAL(fseek(f, off + 40 * (long)ka, SEEK_SET) == 0 && fwrite(ra, 1, 40, f) == 40);
  CU_ASSERT_FATAL(fseek(f, off + 40 * (long)kb, SEEK_SET) == 0 && fwrite(rb, 1, 40, f) == 40);
  const double half = 0.5 * (b.hi[0] - b.lo[0]);
  CU_ASSERT_FATAL(fseek(f, off + 40 * (long)ka + 16, SEEK_SET) == 0 &&
                  fwrite(&half, sizeof half, 1, f) == 1);
  rewind(f);
  msg[0] = 0;
  CU_ASSERT_EQUAL(gc_nlist_read(nl3, f, msg, sizeof msg), GC_EFORMAT);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "corrupt pair"));
  CU_ASSERT_PTR_NULL(strstr(msg, "order"));
  CU_ASSERT_EQUAL(list_differences(nl, nl3, s.n, sizeof(marker)), 0);
  fclose(f);
  /* not a permutation: refused, the order unchanged */
  seq[1] = seq[0];
  CU_ASSERT_EQUAL(gc_nlist_set_order(nl, seq), GC_EINVAL);
  seq[1] = s.n;
  CU_ASSERT_EQUAL(gc_nlist_set_order(nl, seq), GC_EINVAL);
  free(seq);
  free(pos);
  gc_nlist_free(nl);
  gc_nlist_free(nl3);
  spheres_free(&s);
  gsl_rng_free(rng);
}

/* Renumbering (gc_nlist_renumber): list B holds the spheres of list A, first in A's numbering,
 * then under a random permutation renewed before each of three more builds (sphere o of A is
 * B's loc[o], its data moved with it).  After every renumbering and every build: B's pairs are A's pairs, each once, with
 * the same orientation by the original index (B's ranks map B's spheres back to A's) and the
 * same images; their payloads (marks written per physical pair) are A's; B's blocks are
 * grouped by i with increasing rank within; its CSR lists each sphere's pairs; the distances
 * moved since the build (gc_nlist_moved) are A's for the same sphere.  B also survives a
 * checkpoint round trip (ranks included) and builds the same list on 3 threads, renumbered
 * by gc_nlist_renumber_for_build (no pairs per sphere until its build, then B's CSR).  A
 * non-permutation is refused and changes nothing. */
static void test_renumber(void)
{
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 4242);
  gc_nlist_box b = make_box(8, 6, 8, 0.3);
  spheres sa = random_spheres(rng, 400, &b, 0.3, 0.5);
  const size_t n = sa.n;
  spheres sb = random_spheres(rng, n, &b, 0.3, 0.5); /* overwritten from sa by loc */
  gc_nlist *la = gc_nlist_alloc(n, sizeof(marker)), *lb = gc_nlist_alloc(n, sizeof(marker));
  gc_nlist *lb3 = gc_nlist_alloc(n, sizeof(marker));
  size_t *loc = malloc(n * sizeof *loc), *to = malloc(n * sizeof *to);
  size_t *perm = malloc(n * sizeof *perm), *nloc = malloc(n * sizeof *nloc);
  double *da = malloc(n * sizeof *da), *db = malloc(n * sizeof *db);
  CU_ASSERT_FATAL(la && lb && lb3 && loc && to && perm && nloc && da && db);
  gc_nlist_set_threads(lb3, 3);
  for (size_t o = 0; o < n; o++)
    loc[o] = o;
  size_t bad = 0, checked = 0, carried = 0;
  for (int round = 0; round < 4; round++) {
    /* move B's data to a new random place: sphere loc[o] of B goes to nloc[o] */
    for (size_t o = 0; o < n; o++)
      perm[o] = o;
    if (round > 0) /* B's first build has A's numbering: its ranks are A's indices */
      gsl_ran_shuffle(rng, perm, n, sizeof *perm);
    for (size_t o = 0; o < n; o++) {
      nloc[o] = perm[o];
      to[loc[o]] = nloc[o];
    }
    if (round > 0) {
      CU_ASSERT_EQUAL_FATAL(gc_nlist_renumber(lb, to), GC_SUCCESS);
      CU_ASSERT_EQUAL_FATAL(gc_nlist_renumber_for_build(lb3, to), GC_SUCCESS);
      size_t listed = 0;
      for (size_t s3 = 0; s3 < n; s3++) {
        const uint32_t *idx;
        size_t m;
        gc_nlist_sphere_pairs(lb3, s3, &idx, &m);
        listed += m + (gc_nlist_sphere_sides(lb3, s3) != NULL);
      }
      CU_ASSERT_EQUAL(listed, 0);
    }
    memcpy(loc, nloc, n * sizeof *loc);
    move_spheres(&sb, &sa, loc);
    for (int phase = 0; phase < 2; phase++) { /* 0: renumbered, not rebuilt; 1: rebuilt */
      if (phase == 1) {
        CU_ASSERT_EQUAL_FATAL(build(la, &b, &sa), GC_SUCCESS);
        CU_ASSERT_EQUAL_FATAL(build(lb, &b, &sb), GC_SUCCESS);
        CU_ASSERT_EQUAL_FATAL(build(lb3, &b, &sb), GC_SUCCESS);
      } else if (round == 0) {
        continue;
      }
      const size_t na = gc_nlist_npairs(la), nb = gc_nlist_npairs(lb);
      CU_ASSERT_EQUAL_FATAL(na, nb);
      const gc_npair *pa = gc_nlist_pairs(la), *pb = gc_nlist_pairs(lb);
      const uint32_t *rank = gc_nlist_ranks(lb);
      for (size_t k = 0; k < nb; k++) {
        /* the original indices of B's pair: A's pair, same orientation, images, payload */
        const size_t oi = rank[pb[k].i], oj = rank[pb[k].j];
        int ka = find_pair(pa, na, oi, oj);
        bad += ka < 0 || loc[oi] != pb[k].i || loc[oj] != pb[k].j;
        if (ka < 0)
          continue;
        bad += memcmp(pa[ka].image, pb[k].image, sizeof pb[k].image) != 0;
        const marker *ma = gc_nlist_payload_const(la, (size_t)ka),
                     *mb = gc_nlist_payload_const(lb, k);
        bad += ma->i != mb->i || ma->j != mb->j || ma->mark != mb->mark;
        carried += ma->mark != 0.0;
        checked++;
        /* grouping by i, increasing rank of j within */
        if (k > 0 && pb[k - 1].i == pb[k].i)
          bad += rank[pb[k - 1].j] >= rank[pb[k].j];
      }
      bad += csr_errors(lb, n);
      /* distances moved since the build, per physical sphere (positions moved a little) */
      double *xa = malloc(3 * n * sizeof *xa), *xb = malloc(3 * n * sizeof *xb);
      CU_ASSERT_FATAL(xa && xb);
      for (size_t o = 0; o < n; o++)
        for (int a = 0; a < 3; a++) {
          xa[3 * o + a] = sa.x[3 * o + a] + 0.01 * (double)((o + (size_t)a) % 5);
          xb[3 * loc[o] + a] = xa[3 * o + a];
        }
      double ma2 = gc_nlist_moved(la, xa, 0, n, da), mb2 = gc_nlist_moved(lb, xb, 0, n, db);
      bad += ma2 != mb2;
      for (size_t o = 0; o < n; o++)
        bad += da[o] != db[loc[o]];
      free(xa);
      free(xb);
      if (phase == 1) {
        CU_ASSERT_EQUAL(list_differences(lb, lb3, n, sizeof(marker)), 0);
        /* marks for the next round: the same per physical pair in both */
        for (size_t k = 0; k < na; k++) {
          marker *mk = gc_nlist_payload(la, k);
          *mk = (marker){ pa[k].i, pa[k].j, 1000.0 * round + 1.0 + (double)k, "mark" };
        }
        for (size_t k = 0; k < nb; k++) {
          const size_t oi = rank[pb[k].i], oj = rank[pb[k].j];
          int ka = find_pair(pa, na, oi, oj);
          marker *mk = gc_nlist_payload(lb, k), *m3 = gc_nlist_payload(lb3, k);
          if (ka >= 0)
            *mk = *m3 = *(const marker *)gc_nlist_payload_const(la, (size_t)ka);
        }
      }
    }
    /* move the spheres a little for the next build */
    for (size_t q = 0; q < 3 * n; q++)
      sa.x[q] += 0.2 * (2 * gsl_rng_uniform(rng) - 1);
  }
  CU_ASSERT_EQUAL(bad, 0);
  CU_ASSERT(checked > 4 * n);
  CU_ASSERT(carried > n); /* most pairs persist between builds, with their marks */
  /* a version-2 file (no ranks: those of a list never renumbered) is still read: A's list
   * written, its rank block cut out and the version set to 2 reads back as A; B's (renumbered,
   * so some pairs have i > j) made a version-2 file the same way is refused as corrupt */
  for (int which = 0; which < 2; which++) {
    const gc_nlist *src = which ? lb : la;
    FILE *f3 = tmpfile(), *f2 = tmpfile();
    CU_ASSERT_FATAL(f3 && f2);
    CU_ASSERT_EQUAL(gc_nlist_write(src, f3), GC_SUCCESS);
    long len = ftell(f3);
    rewind(f3);
    unsigned char *buf = malloc((size_t)len);
    CU_ASSERT_FATAL(buf && fread(buf, 1, (size_t)len, f3) == (size_t)len);
    const uint32_t v2 = 2;
    memcpy(buf + 8, &v2, sizeof v2); /* after the 8-byte magic */
    const size_t cut = 124 + 24 * n; /* the header and the positions */
    CU_ASSERT_FATAL(fwrite(buf, 1, cut, f2) == cut);
    const size_t rest = (size_t)len - cut - 4 * n; /* after the ranks */
    CU_ASSERT_FATAL(fwrite(buf + cut + 4 * n, 1, rest, f2) == rest);
    rewind(f2);
    gc_nlist *l2 = gc_nlist_alloc(n, sizeof(marker));
    CU_ASSERT_PTR_NOT_NULL_FATAL(l2);
    char m2[256] = "";
    int st2 = gc_nlist_read(l2, f2, m2, sizeof m2);
    if (!which) {
      CU_ASSERT_EQUAL(st2, GC_SUCCESS);
      CU_ASSERT_EQUAL(list_differences(la, l2, n, sizeof(marker)), 0);
    } else {
      CU_ASSERT_EQUAL(st2, GC_EFORMAT);
      CU_ASSERT_PTR_NOT_NULL(strstr(m2, "corrupt pair"));
    }
    free(buf);
    fclose(f3);
    fclose(f2);
    gc_nlist_free(l2);
  }
  /* checkpoint of the renumbered list: read back identical, ranks included */
  FILE *f = tmpfile();
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  CU_ASSERT_EQUAL(gc_nlist_write(lb, f), GC_SUCCESS);
  rewind(f);
  gc_nlist *lr = gc_nlist_alloc(n, sizeof(marker));
  CU_ASSERT_PTR_NOT_NULL_FATAL(lr);
  char msg[256] = "";
  CU_ASSERT_EQUAL(gc_nlist_read(lr, f, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT_EQUAL(list_differences(lb, lr, n, sizeof(marker)), 0);
  CU_ASSERT_EQUAL(memcmp(gc_nlist_ranks(lb), gc_nlist_ranks(lr), n * sizeof(uint32_t)), 0);
  fclose(f);
  /* not a permutation: refused, nothing changed */
  to[1] = to[0];
  CU_ASSERT_EQUAL(gc_nlist_renumber(lb, to), GC_EINVAL);
  CU_ASSERT_EQUAL(list_differences(lb, lr, n, sizeof(marker)), 0);
  gc_nlist_free(la);
  gc_nlist_free(lb);
  gc_nlist_free(lb3);
  gc_nlist_free(lr);
  free(loc);
  free(to);
  free(perm);
  free(nloc);
  free(da);
  free(db);
  spheres_free(&sa);
  spheres_free(&sb);
  gsl_rng_free(rng);
}

/* Checkpoint: a list with random payload bytes written and read into a fresh workspace is
 * identical (memcmp of the pairs and of every payload, build count, CSR, displacement
 * criterion), and both continue identically through a rebuild.  A file cut anywhere (after 10
 * bytes, mid-pairs, one byte short) gives GC_EFORMAT with "truncated" and leaves the
 * workspace as it was; a workspace with another payload size or nsph gives GC_EINVAL naming
 * it; a file that is no checkpoint gives GC_EFORMAT. */
static void test_checkpoint(void)
{
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 4242);
  gc_nlist_box b = make_box(8, 6, 8, 0.3);
  spheres s = random_spheres(rng, 300, &b, 0.3, 0.5);
  const size_t psz = 44;
  gc_nlist *a = gc_nlist_alloc(s.n, psz), *c = gc_nlist_alloc(s.n, psz);
  CU_ASSERT_FATAL(a && c);
  CU_ASSERT_EQUAL_FATAL(build(a, &b, &s), GC_SUCCESS);
  for (size_t q = 0; q < 3 * s.n; q++)
    s.x[q] += 0.1 * (2 * gsl_rng_uniform(rng) - 1);
  CU_ASSERT_EQUAL_FATAL(build(a, &b, &s), GC_SUCCESS);
  size_t n = gc_nlist_npairs(a);
  CU_ASSERT_FATAL(n > 100);
  for (size_t k = 0; k < n; k++) {
    unsigned char *u = gc_nlist_payload(a, k);
    for (size_t q = 0; q < psz; q++)
      u[q] = (unsigned char)gsl_rng_uniform_int(rng, 256);
  }
  FILE *f = tmpfile();
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  CU_ASSERT_EQUAL_FATAL(gc_nlist_write(a, f), GC_SUCCESS);
  long len = ftell(f);
  rewind(f);
  char msg[256] = "";
  CU_ASSERT_EQUAL_FATAL(gc_nlist_read(c, f, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT_EQUAL_FATAL(gc_nlist_npairs(c), n);
  CU_ASSERT_EQUAL(memcmp(gc_nlist_pairs(a), gc_nlist_pairs(c), n * sizeof(gc_npair)), 0);
  CU_ASSERT_EQUAL(list_differences(a, c, s.n, psz), 0); /* payloads, CSR, sides too */
  CU_ASSERT_EQUAL(gc_nlist_builds(c), 2);
  /* both continue identically */
  double *y = malloc(3 * s.n * sizeof(double));
  CU_ASSERT_PTR_NOT_NULL_FATAL(y);
  for (size_t q = 0; q < 3 * s.n; q++)
    y[q] = s.x[q] + 0.2 * (2 * gsl_rng_uniform(rng) - 1);
  CU_ASSERT_EQUAL(gc_nlist_needs_rebuild(c, s.x), 0);
  CU_ASSERT_EQUAL(gc_nlist_needs_rebuild(a, y), gc_nlist_needs_rebuild(c, y));
  memcpy(s.x, y, 3 * s.n * sizeof(double));
  CU_ASSERT_EQUAL_FATAL(build(a, &b, &s), GC_SUCCESS);
  CU_ASSERT_EQUAL_FATAL(build(c, &b, &s), GC_SUCCESS);
  n = gc_nlist_npairs(a);
  CU_ASSERT_EQUAL_FATAL(gc_nlist_npairs(c), n);
  CU_ASSERT_EQUAL(memcmp(gc_nlist_pairs(a), gc_nlist_pairs(c), n * sizeof(gc_npair)), 0);
  CU_ASSERT_EQUAL(list_differences(a, c, s.n, psz), 0);

  /* truncated files: c keeps its list */
  const long cut[] = { 10, len / 2, len - 1 };
  for (int q = 0; q < 3; q++) {
    FILE *g = truncated_copy(f, cut[q]);
    msg[0] = 0;
    CU_ASSERT_EQUAL(gc_nlist_read(c, g, msg, sizeof msg), GC_EFORMAT);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "truncated"));
    fclose(g);
  }
  CU_ASSERT_EQUAL(gc_nlist_npairs(c), n);
  CU_ASSERT_EQUAL(memcmp(gc_nlist_pairs(a), gc_nlist_pairs(c), n * sizeof(gc_npair)), 0);
  CU_ASSERT_EQUAL(gc_nlist_builds(c), 3);

  /* mismatched workspaces */
  gc_nlist *w = gc_nlist_alloc(s.n, psz + 8);
  CU_ASSERT_PTR_NOT_NULL_FATAL(w);
  rewind(f);
  msg[0] = 0;
  CU_ASSERT_EQUAL(gc_nlist_read(w, f, msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "payload_size"));
  gc_nlist_free(w);
  w = gc_nlist_alloc(s.n + 1, psz);
  CU_ASSERT_PTR_NOT_NULL_FATAL(w);
  rewind(f);
  msg[0] = 0;
  CU_ASSERT_EQUAL(gc_nlist_read(w, f, msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "nsph"));
  gc_nlist_free(w);

  /* not a checkpoint */
  FILE *g = tmpfile();
  CU_ASSERT_PTR_NOT_NULL_FATAL(g);
  fputs("time,x,y,z\n0,1,2,3\n", g);
  rewind(g);
  msg[0] = 0;
  CU_ASSERT_EQUAL(gc_nlist_read(c, g, msg, sizeof msg), GC_EFORMAT);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "magic"));
  fclose(g);

  fclose(f);
  free(y);
  gc_nlist_free(a);
  gc_nlist_free(c);
  spheres_free(&s);
  gsl_rng_free(rng);
}

/* Rigid clusters: nclus clusters of 4 spheres (radii 0.3-0.5, within 0.6 of a random centre
 * along each axis) of groups 0, 1, ..., then nbead fixed beads (r 0.3, on the plane y = lo +
 * 0.3) and nloose free spheres, both of group -1.  Cluster centres over three periods along
 * x and z; a third of the clusters with each sphere put into the box on its own (split across
 * a periodic boundary, as the chute wraps its spheres), every tenth 10 periods out. */
static spheres cluster_spheres(gsl_rng *rng, size_t nclus, size_t nbead, size_t nloose,
                               const gc_nlist_box *b)
{
  const size_t n = 4 * nclus + nbead + nloose;
  spheres s = spheres_alloc(n);
  double L[3];
  for (int a = 0; a < 3; a++)
    L[a] = b->hi[a] - b->lo[a];
  for (size_t c = 0; c < nclus; c++) {
    double cen[3];
    for (int a = 0; a < 3; a++)
      cen[a] = b->periodic[a] ? b->lo[a] + (3 * gsl_rng_uniform(rng) - 1) * L[a]
                              : b->lo[a] - 1 + (L[a] + 2) * gsl_rng_uniform(rng);
    for (size_t k = 4 * c; k < 4 * c + 4; k++) {
      for (int a = 0; a < 3; a++) {
        double v = cen[a] + 0.6 * (2 * gsl_rng_uniform(rng) - 1);
        if (b->periodic[a] && c % 3 == 1)
          v -= L[a] * floor((v - b->lo[a]) / L[a]);
        if (b->periodic[a] && c % 10 == 7)
          v += 10 * L[a];
        s.x[3 * k + a] = v;
      }
      s.r[k] = 0.3 + 0.2 * gsl_rng_uniform(rng);
      s.group[k] = (long)c;
      s.fixed[k] = 0;
    }
  }
  for (size_t k = 4 * nclus; k < n; k++) {
    const int bead = k < 4 * nclus + nbead;
    for (int a = 0; a < 3; a++)
      s.x[3 * k + a] = b->lo[a] + L[a] * gsl_rng_uniform(rng);
    if (bead)
      s.x[3 * k + 1] = b->lo[1] + 0.3;
    s.r[k] = bead ? 0.3 : 0.3 + 0.2 * gsl_rng_uniform(rng);
    s.group[k] = -1;
    s.fixed[k] = (unsigned char)bead;
  }
  return s;
}

/* Scan by units (gc_nlist_set_units, rigid clusters: a bounding sphere per cluster rules out
 * its pairs with far clusters): the list of the brute-force reference and byte for byte that
 * of the sphere-by-sphere scan -- pairs, shifts, CSR, sides, carried payloads -- with clusters
 * split across periodic boundaries and 10 periods out, fixed beads, free spheres, a box far
 * from the origin (the bounds' rounding), 1 and 3 threads, a build order and renumbered
 * spheres (ranks no longer indices, clusters moved as wholes), rebuilds after moves.  The
 * unit scan is the one taken (gc_nlist_used_units), and not where few spheres share a unit. */
static void test_units(void)
{
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 20261127);
  gc_nlist_box boxes[2] = { make_box(8, 6, 8, 0.3), make_box(9, 5, 10, 0.15) };
  for (int a = 0; a < 3; a++) { /* far from the origin */
    boxes[1].lo[a] += a == 1 ? 3000.0 : -7000.0;
    boxes[1].hi[a] += a == 1 ? 3000.0 : -7000.0;
  }
  size_t diff = 0, cross = 0, npairs = 0, unit_builds = 0;
  for (int q = 0; q < 2; q++) {
    const gc_nlist_box *b = &boxes[q];
    spheres s = cluster_spheres(rng, 150, 60, 40, b);
    const size_t n = s.n, psz = sizeof(marker);
    gc_nlist *on = gc_nlist_alloc(n, psz), *off = gc_nlist_alloc(n, psz);
    gc_nlist *on3 = gc_nlist_alloc(n, psz);
    CU_ASSERT_FATAL(on && off && on3);
    gc_nlist_set_units(off, 0);
    gc_nlist_set_threads(on3, 3);
    gc_nlist *all[3] = { on, off, on3 };
    for (int l = 0; l < 3; l++)
      CU_ASSERT_EQUAL_FATAL(build(all[l], b, &s), GC_SUCCESS);
    CU_ASSERT(gc_nlist_used_units(on) && gc_nlist_used_units(on3));
    CU_ASSERT(!gc_nlist_used_units(off));
    cross += check_against_brute(on, &s, b);
    npairs += gc_nlist_npairs(on);
    diff += list_differences(on, off, n, psz) + list_differences(on, on3, n, psz);
    /* moves, markers, a build order, then clusters moved as wholes to new indices */
    size_t *seq = malloc(n * sizeof *seq), *to = malloc(n * sizeof *to);
    size_t *cperm = malloc(150 * sizeof *cperm);
    spheres moved = spheres_alloc(n);
    CU_ASSERT_FATAL(seq && to && cperm);
    for (int round = 0; round < 3; round++) {
      for (int l = 0; l < 3; l++)
        for (size_t k = 0; k < gc_nlist_npairs(all[l]); k++) {
          const gc_npair *pr = gc_nlist_pairs(all[l]) + k;
          marker *mk = gc_nlist_payload(all[l], k);
          mk->i = pr->i, mk->j = pr->j, mk->mark = 0.5 + (double)k;
        }
      for (size_t k = 0; k < 3 * n; k++)
        s.x[k] += 0.2 * (2 * gsl_rng_uniform(rng) - 1);
      if (round == 1) { /* a build order */
        for (size_t i = 0; i < n; i++)
          seq[i] = i;
        gsl_ran_shuffle(rng, seq, 150, sizeof *seq); /* the first 150 spheres shuffled */
        for (int l = 0; l < 3; l++)
          CU_ASSERT_EQUAL(gc_nlist_set_order(all[l], seq), GC_SUCCESS);
      }
      if (round == 2) { /* cluster c's spheres 4 c .. 4 c + 3 go to 4 cperm[c] .. */
        for (size_t c = 0; c < 150; c++)
          cperm[c] = c;
        gsl_ran_shuffle(rng, cperm, 150, sizeof *cperm);
        for (size_t i = 0; i < n; i++)
          to[i] = i < 600 ? 4 * cperm[i / 4] + i % 4 : i;
        move_spheres(&moved, &s, to);
        const spheres t = s;
        s = moved, moved = t;
        for (int l = 0; l < 3; l++) {
          CU_ASSERT_EQUAL(gc_nlist_set_order(all[l], NULL), GC_SUCCESS);
          CU_ASSERT_EQUAL_FATAL(gc_nlist_renumber(all[l], to), GC_SUCCESS);
        }
      }
      for (int l = 0; l < 3; l++)
        CU_ASSERT_EQUAL_FATAL(build(all[l], b, &s), GC_SUCCESS);
      unit_builds += (size_t)gc_nlist_used_units(on) + (size_t)gc_nlist_used_units(on3);
      CU_ASSERT(!gc_nlist_used_units(off));
      if (round == 0)
        cross += check_against_brute(on, &s, b);
      diff += list_differences(on, off, n, psz) + list_differences(on, on3, n, psz);
    }
    /* without groups nothing forms a unit: the sphere-by-sphere scan */
    CU_ASSERT_EQUAL_FATAL(gc_nlist_build(on, b, s.x, s.r, NULL, s.fixed, NULL, 0), GC_SUCCESS);
    CU_ASSERT(!gc_nlist_used_units(on));
    free(seq), free(to), free(cperm);
    spheres_free(&moved);
    for (int l = 0; l < 3; l++)
      gc_nlist_free(all[l]);
    spheres_free(&s);
  }
  /* ranks interleaved between units: first built with the clusters' spheres at random places
   * among the first 600 (no units: sphere by sphere), then renumbered into runs (units whose
   * ranks are spread: a cell's units sorted by their largest rank, not their smallest) */
  {
    const gc_nlist_box *b = &boxes[0];
    spheres s = cluster_spheres(rng, 150, 60, 40, b);
    spheres t = spheres_alloc(s.n); /* s interleaved */
    const size_t n = s.n, psz = sizeof(marker);
    size_t *to = malloc(n * sizeof *to);
    gc_nlist *on = gc_nlist_alloc(n, psz), *off = gc_nlist_alloc(n, psz);
    CU_ASSERT_FATAL(to && on && off);
    gc_nlist_set_units(off, 0);
    for (size_t i = 0; i < n; i++)
      to[i] = i;
    gsl_ran_shuffle(rng, to, 600, sizeof *to);
    move_spheres(&t, &s, to);
    CU_ASSERT_EQUAL_FATAL(build(on, b, &t), GC_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(build(off, b, &t), GC_SUCCESS);
    CU_ASSERT(!gc_nlist_used_units(on));
    size_t *back = malloc(n * sizeof *back);
    CU_ASSERT_FATAL(back != NULL);
    for (size_t i = 0; i < n; i++)
      back[to[i]] = i;
    CU_ASSERT_EQUAL_FATAL(gc_nlist_renumber(on, back), GC_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(gc_nlist_renumber(off, back), GC_SUCCESS);
    for (size_t k = 0; k < 3 * n; k++)
      s.x[k] += 0.2 * (2 * gsl_rng_uniform(rng) - 1);
    CU_ASSERT_EQUAL_FATAL(build(on, b, &s), GC_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(build(off, b, &s), GC_SUCCESS);
    CU_ASSERT(gc_nlist_used_units(on));
    CU_ASSERT(gc_nlist_ranks(on)[1] == to[1]); /* sphere 1 has the rank of its first place */
    CU_ASSERT(gc_nlist_npairs(on) > 500);
    diff += list_differences(on, off, n, psz);
    free(to), free(back);
    gc_nlist_free(on), gc_nlist_free(off);
    spheres_free(&s), spheres_free(&t);
  }
  CU_ASSERT_EQUAL(diff, 0);
  CU_ASSERT_EQUAL(unit_builds, 12); /* both unit lists in every round of both boxes */
  CU_ASSERT(npairs > 1000);         /* not vacuous */
  CU_ASSERT(cross > 20);            /* pairs across the periodic boundaries */
  /* the spheres of test_brute_force (groups of 4 spread over the box, most spheres alone):
   * too few share a unit, the sphere-by-sphere scan */
  gc_nlist_box b = make_box(10, 6, 10, 0.3);
  spheres s = random_spheres(rng, 500, &b, 0.3, 0.5);
  gc_nlist *nl = gc_nlist_alloc(s.n, 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(nl);
  CU_ASSERT_EQUAL_FATAL(build(nl, &b, &s), GC_SUCCESS);
  CU_ASSERT(!gc_nlist_used_units(nl));
  gc_nlist_free(nl);
  spheres_free(&s);
  gsl_rng_free(rng);
}

/* Bad input, each GC_EINVAL with a message naming it, the previous list left intact: skin 0,
 * -1 and NaN ("skin"); hi <= lo along y ("box along y"); a period 2.4 along x below
 * 2 (2 0.5 + 0.25) = 2.5 ("period along x"); a NaN position of sphere 3 ("sphere 3"); a zero
 * radius ("radius"). */
static void test_bad_input(void)
{
  enum { N = 4 };
  double x[3 * N] = { 1, 1, 1, 1.8, 1, 1, 1, 1.7, 1, 1.4, 1.4, 1.5 }, r[N] = { 0.5, 0.5, 0.4, 0.3 };
  gc_nlist_box b = make_box(5, 5, 5, 0.25);
  gc_nlist *nl = gc_nlist_alloc(N, 8);
  CU_ASSERT_PTR_NOT_NULL_FATAL(nl);
  char msg[256];
  CU_ASSERT_EQUAL_FATAL(gc_nlist_build(nl, &b, x, r, NULL, NULL, msg, sizeof msg), GC_SUCCESS);
  const size_t n = gc_nlist_npairs(nl);
  CU_ASSERT_EQUAL(n, 6); /* all four within r_i + r_j + skin: largest ratio 1.063 / 1.15 (1-2) */

  const double skins[] = { 0, -1, NAN };
  for (int k = 0; k < 3; k++) {
    gc_nlist_box bb = b;
    bb.skin = skins[k];
    msg[0] = 0;
    CU_ASSERT_EQUAL(gc_nlist_build(nl, &bb, x, r, NULL, NULL, msg, sizeof msg), GC_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "skin"));
  }
  gc_nlist_box bb = b;
  bb.hi[1] = bb.lo[1];
  msg[0] = 0;
  CU_ASSERT_EQUAL(gc_nlist_build(nl, &bb, x, r, NULL, NULL, msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "box along y"));
  bb = make_box(2.4, 5, 5, 0.25);
  msg[0] = 0;
  CU_ASSERT_EQUAL(gc_nlist_build(nl, &bb, x, r, NULL, NULL, msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "period along x"));
  bb.periodic[0] = 0; /* non-periodic: any length will do */
  CU_ASSERT_EQUAL(gc_nlist_build(nl, &bb, x, r, NULL, NULL, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT_EQUAL(gc_nlist_builds(nl), 2);
  x[3 * 3 + 2] = NAN;
  msg[0] = 0;
  CU_ASSERT_EQUAL(gc_nlist_build(nl, &b, x, r, NULL, NULL, msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "sphere 3"));
  x[3 * 3 + 2] = 1.5;
  r[2] = 0;
  msg[0] = 0;
  CU_ASSERT_EQUAL(gc_nlist_build(nl, &b, x, r, NULL, NULL, msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "radius"));
  CU_ASSERT_EQUAL(gc_nlist_npairs(nl), n);
  CU_ASSERT_EQUAL(gc_nlist_builds(nl), 2);
  /* periodic x (period 5): sphere 0 moved 62 periods out still pairs with spheres 1-3 through
   * its image (image 62 or -62, exact); 64 periods out is refused naming sphere and axis (an
   * image would not fit gc_npair's int8_t), the list unchanged */
  r[2] = 0.4;
  x[0] = 1 + 62 * 5.0;
  CU_ASSERT_EQUAL_FATAL(gc_nlist_build(nl, &b, x, r, NULL, NULL, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT_EQUAL_FATAL(gc_nlist_npairs(nl), n);
  const gc_npair *pp = gc_nlist_pairs(nl);
  for (size_t k = 0; k < 3; k++) {
    double sh[3];
    gc_nlist_shift(nl, &pp[k], sh);
    CU_ASSERT(pp[k].i == 0 && pp[k].image[0] == 62 && sh[0] == 310.0);
  }
  x[0] = 1 + 64 * 5.0;
  msg[0] = 0;
  CU_ASSERT_EQUAL(gc_nlist_build(nl, &b, x, r, NULL, NULL, msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "sphere 0 along periodic x"));
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "63 periods"));
  CU_ASSERT_EQUAL(gc_nlist_builds(nl), 3);
  gc_nlist_free(nl);

  /* images whose shift image L does not divide back exactly (3 * 0.1 / 0.1 =
   * 3.0000000000000004, 7 * 0.3 / 0.3 too) survive a checkpoint round trip */
  const double per[2] = { 0.1, 0.3 };
  const int imgs[4] = { 3, 7, -33, 62 };
  for (int a = 0; a < 2; a++)
    for (int k = 0; k < 4; k++) {
      gc_nlist_box bp = make_box(per[a], 1, per[a], 0.01);
      double xp[6] = { 0.05 - imgs[k] * per[a], 0.5, 0.02, 0.06, 0.5, 0.02 },
             rp[2] = { 0.01, 0.01 };
      gc_nlist *l1 = gc_nlist_alloc(2, 0), *l2 = gc_nlist_alloc(2, 0);
      CU_ASSERT_FATAL(l1 && l2);
      CU_ASSERT_EQUAL_FATAL(gc_nlist_build(l1, &bp, xp, rp, NULL, NULL, msg, sizeof msg),
                            GC_SUCCESS);
      CU_ASSERT_EQUAL_FATAL(gc_nlist_npairs(l1), 1);
      CU_ASSERT_EQUAL(gc_nlist_pairs(l1)[0].image[0], -imgs[k]); /* x_1 - x_0 = 0.01 + image L */
      FILE *f = tmpfile();
      CU_ASSERT_PTR_NOT_NULL_FATAL(f);
      CU_ASSERT_EQUAL(gc_nlist_write(l1, f), GC_SUCCESS);
      rewind(f);
      msg[0] = 0;
      CU_ASSERT_EQUAL(gc_nlist_read(l2, f, msg, sizeof msg), GC_SUCCESS);
      if (msg[0])
        fprintf(stderr, "L = %g, image %d: %s\n", per[a], imgs[k], msg);
      CU_ASSERT_EQUAL(list_differences(l1, l2, 2, 0), 0);
      fclose(f);
      gc_nlist_free(l1);
      gc_nlist_free(l2);
    }
}

int gc_test_add_nlist(void)
{
  CU_pSuite s = CU_add_suite("neighbour lists (sec. 2.2, app. A)", NULL, NULL);
  if (!s)
    return CU_get_error();
  if (!CU_add_test(s, "cell list = brute force, minimum image", test_brute_force) ||
      !CU_add_test(s, "periodic images and shifts, spheres outside the box",
                   test_periodic_images) ||
      !CU_add_test(s, "history survives rebuilds", test_history) ||
      !CU_add_test(s, "young rows: a region per thread, shared rows past its end",
                   test_young_regions) ||
      !CU_add_test(s, "payloads packed, zero ones dropped, young rows clean",
                   test_packed_payloads) ||
      !CU_add_test(s, "displacement criterion (eq. 2.29)", test_needs_rebuild) ||
      !CU_add_test(s, "displacement criterion in a moving frame", test_needs_rebuild_shifted) ||
      !CU_add_test(s, "checkpoint round trip and errors", test_checkpoint) ||
      !CU_add_test(s, "builds on 1, 2, 3, 5 threads identical", test_threads) ||
      !CU_add_test(s, "build order: pairs grouped in it, histories kept", test_order) ||
      !CU_add_test(s, "renumbered spheres: same pairs, orientation, histories", test_renumber) ||
      !CU_add_test(s, "scan by units (rigid clusters) = brute force = sphere by sphere",
                   test_units) ||
      !CU_add_test(s, "bad input", test_bad_input))
    return CU_get_error();
  return CUE_SUCCESS;
}
