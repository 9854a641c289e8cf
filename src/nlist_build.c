/* nlist_build.c - building a neighbour list, see nlist.h.
 *
 * Build: the spheres are binned into linked cells (a counting sort by cell, kept in the
 * workspace) of edge >= 2 r_max + skin, the largest pair cut-off, so that every listed pair
 * lies in the same or in adjacent cells (seed sec. 2.2: O(C_nb N) instead of the O(N^2) of
 * app. A.3).  Each sphere i, in the build order, scans its (at most 27, distinct) neighbour
 * cells for the spheres j of higher rank (the index, unless gc_nlist_renumber moved the
 * spheres); its few partners are then insertion-sorted by rank, so the list comes out grouped
 * by i and sorted within without a global sort.  Along a periodic axis the separation is the
 * minimum image; the image is found from the true positions (shift = -L nearbyint(d / L)), so it
 * is exactly a multiple of the period whatever the positions' distance from the box.
 *
 * History: two pair buffers are kept; a build writes the new list into the spare one, then
 * merges the old and the new lists block by block to carry the payloads of persisting
 * pairs over (the insert/look-up of app. A.4 without its linked-list search).  After a failed
 * build (GC_ENOMEM) the previous list stays current and intact.
 *
 * Where the payloads are: most listed pairs are apart and their payloads zero (in the soybean
 * chute 6 % of the listed pairs hold a history: 1115 of 19409 at 1200 clusters, 18764 of
 * 313786 at 19200, in the flowing states at 0.25 s).  Stored in pair order, the few live
 * payloads lay scattered through npairs x stride bytes (64 MB for 19200 clusters), each on
 * cache lines of its own, and a build copied or zeroed all of them.  So a pair has a payload
 * row only once it has been handed out writable (gc_nlist_payload): a build packs the rows
 * that are not all zero into `pool`, in pair order; a pair given a row after the build takes
 * the next row of its thread's region of `young` (gc_nlist_payload_on; all zero beyond the
 * rows taken; in the order the thread asks, so also compact, and apart from the other
 * threads' rows); every other pair reads a shared row of zeros.  A build copies only the rows
 * that are not all zero and zeroes the young rows taken. */
#include "nlist_int.h"

static const char axis_name[3] = { 'x', 'y', 'z' };

int nl_check_box(const gc_nlist_box *box, char *msg, size_t msglen)
{
  if (!box) {
    set_msg(msg, msglen, "nlist: no box given");
    return GC_EINVAL;
  }
  if (!(box->skin > 0) || !isfinite(box->skin)) {
    set_msg(msg, msglen, "nlist: skin = %g out of range (0, inf) m", box->skin);
    return GC_EINVAL;
  }
  for (int a = 0; a < 3; a++)
    if (!isfinite(box->lo[a]) || !isfinite(box->hi[a]) || !(box->hi[a] > box->lo[a]) ||
        !isfinite(box->hi[a] - box->lo[a])) {
      set_msg(msg, msglen, "nlist: box along %c: lo = %g, hi = %g m; need finite lo < hi",
              axis_name[a], box->lo[a], box->hi[a]);
      return GC_EINVAL;
    }
  return GC_SUCCESS;
}

/* ---- building ------------------------------------------------------------------------ */

/* Cell grid of the current build. */
typedef struct {
  size_t nc[3];                  /* cells per axis */
  double inv_w[3];               /* 1 / cell width = nc / L */
  double L[3], inv_L[3], lim[3]; /* box_image */
  int per[3];
  size_t ncell;
} grid;

static size_t cell_coord(const grid *g, const gc_nlist_box *box, int a, double x)
{
  double t;
  if (g->per[a]) {
    double u = (x - box->lo[a]) * g->inv_L[a];
    u -= floor(u); /* [0, 1]; 1 only by rounding */
    t = u * (double)g->nc[a];
  } else {
    t = (x - box->lo[a]) * g->inv_w[a];
    if (!(t > 0))
      t = 0; /* below lo: clamped into the first cell */
  }
  if (t >= (double)g->nc[a])
    return g->nc[a] - 1; /* above hi: clamped into the last cell */
  return (size_t)t;
}

/* The cells of a grid for n items whose pairs lie within cutoff of each other (g's box_image
 * set): cells a hair wider than the cut-off, so that rounding in the binning cannot put two
 * items closer than the cut-off two cells apart, and at most ~2 cells per item (a tall
 * non-periodic box must not explode the grid). */
static void grid_cells(grid *g, const gc_nlist_box *box, double cutoff, size_t n)
{
  for (int a = 0; a < 3; a++) {
    g->per[a] = box->periodic[a] != 0;
    double m = floor(g->L[a] / (cutoff * (1.0 + 1e-9)));
    if (!(m >= 1))
      m = 1;
    if (m > 1e6)
      m = 1e6;
    g->nc[a] = (size_t)m;
  }
  double limit = 2.0 * (double)n + 64.0;
  while ((double)g->nc[0] * (double)g->nc[1] * (double)g->nc[2] > limit) {
    int am = 0;
    for (int a = 1; a < 3; a++)
      if (g->nc[a] > g->nc[am])
        am = a;
    g->nc[am] = (g->nc[am] + 1) / 2;
  }
  for (int a = 0; a < 3; a++)
    g->inv_w[a] = (double)g->nc[a] / g->L[a];
  g->ncell = g->nc[0] * g->nc[1] * g->nc[2];
}

/* room for ncell + 1 cell starts in *start (capacity *cap cells) */
static int grow_cells(size_t **start, size_t *cap, size_t ncell)
{
  if (ncell <= *cap && *start)
    return GC_SUCCESS;
  size_t c = next_cap(*cap, ncell);
  if (grow(start, c + 1, sizeof(size_t)))
    return GC_ENOMEM;
  *cap = c;
  return GC_SUCCESS;
}

static int setup_grid(gc_nlist *nl, const gc_nlist_box *box, double cutoff, grid *g, char *msg,
                      size_t msglen)
{
  box_image(box, g->L, g->inv_L, g->lim);
  for (int a = 0; a < 3; a++) {
    const double L = g->L[a];
    g->per[a] = box->periodic[a] != 0;
    if (g->per[a] && !(L >= 2.0 * cutoff)) {
      set_msg(msg, msglen,
              "nlist: box period along %c, hi - lo = %g m, is too small for the minimum image: "
              "need >= 2 (2 r_max + skin) = %g m",
              axis_name[a], L, 2.0 * cutoff);
      return GC_EINVAL;
    }
  }
  grid_cells(g, box, cutoff, nl->nsph);
  if (grow_cells(&nl->cell_start, &nl->cell_cap, g->ncell)) {
    set_msg(msg, msglen, "nlist: out of memory (%zu cells)", g->ncell);
    return GC_ENOMEM;
  }
  return GC_SUCCESS;
}

/* Counting sort of the spheres by cell: order[cell_start[c] .. cell_start[c + 1]) are the
 * spheres of cell c in increasing rank. */
static void bin(gc_nlist *nl, const grid *g, const gc_nlist_box *box, const double *x,
                const double *r)
{
  size_t *start = nl->cell_start;
  memset(start, 0, (g->ncell + 1) * sizeof(size_t));
  for (size_t i = 0; i < nl->nsph; i++) {
    size_t c = cell_coord(g, box, 0, x[3 * i]) +
               g->nc[0] * (cell_coord(g, box, 1, x[3 * i + 1]) +
                           g->nc[1] * cell_coord(g, box, 2, x[3 * i + 2]));
    nl->cell[i] = c;
    start[c + 1]++;
  }
  for (size_t c = 0; c < g->ncell; c++)
    start[c + 1] += start[c];
  for (size_t k = 0; k < nl->nsph; k++) { /* by rank: a cell lists its spheres by rank */
    const size_t i = nl->byrank[k];
    nl->order[start[nl->cell[i]]++] = i;
  }
  for (size_t c = g->ncell; c > 0; c--)
    start[c] = start[c - 1];
  start[0] = 0;
  for (size_t m = 0; m < nl->nsph; m++) {
    size_t i = nl->order[m];
    double *q = nl->cpos + 4 * m;
    q[0] = x[3 * i];
    q[1] = x[3 * i + 1];
    q[2] = x[3 * i + 2];
    q[3] = r[i];
    nl->crank[m] = nl->rank[i];
  }
}

/* Distinct neighbour cells of cell coordinate c along axis a. */
static int stencil(const grid *g, int a, size_t c, size_t out[3])
{
  size_t n = g->nc[a];
  int k = 0;
  if (g->per[a]) {
    if (n < 3) {
      for (size_t m = 0; m < n; m++)
        out[k++] = m;
    } else {
      out[k++] = c == 0 ? n - 1 : c - 1;
      out[k++] = c;
      out[k++] = c + 1 == n ? 0 : c + 1;
    }
  } else {
    if (c > 0)
      out[k++] = c - 1;
    out[k++] = c;
    if (c + 1 < n)
      out[k++] = c + 1;
  }
  return k;
}

/* The neighbour cells of cell ci, per axis: st[a][0 .. ns[a]) (see stencil). */
static inline void cell_stencil(const grid *g, size_t ci, size_t st[3][3], int ns[3])
{
  const size_t cc[3] = { ci % g->nc[0], (ci / g->nc[0]) % g->nc[1], ci / (g->nc[0] * g->nc[1]) };
  for (int a = 0; a < 3; a++)
    ns[a] = stencil(g, a, cc[a], st[a]);
}

/* The test of both scans for the pair (i, j): 1 if sphere j (centre xj, radius rj) is within
 * ri + rj + skin of sphere i, with the periodic image of j that is nearest (into im). */
static inline int near_pair(const grid *g, const double *xi, double ri, const double *xj, double rj,
                            double skin, int8_t im[3])
{
  double d[3];
  for (int a = 0; a < 3; a++) {
    d[a] = xj[a] - xi[a];
    im[a] = 0;
    /* minimum image; |d| <= L/2 needs no image (a tie at L/2 is beyond the cut-off, L >= 2
     * cut-off).  |image| <= 127: the build checked that the positions are within 63 periods
     * of the box.  image L is the shift -L nearbyint(d / L) of the file comment, to the bit
     * (negation is exact) */
    if (fabs(d[a]) > g->lim[a]) {
      im[a] = (int8_t)(0.0 - floor(d[a] * g->inv_L[a] + 0.5));
      d[a] += (double)im[a] * g->L[a];
    }
  }
  const double rc = ri + rj + skin;
  return d[0] * d[0] + d[1] * d[1] + d[2] * d[2] < rc * rc;
}

/* Append (i, j, im) to pb's np pairs; 1 if out of memory. */
static inline int push_pair(pairbuf *pb, size_t *np, size_t i, size_t j, const int8_t im[3])
{
  if (*np == pb->cap) {
    size_t c2 = next_cap(pb->cap, *np + 1);
    if (grow(&pb->p, c2, sizeof(gc_npair)))
      return 1;
    pb->cap = c2;
  }
  gc_npair *pp = pb->p + (*np)++;
  pp->i = (uint32_t)i;
  pp->j = (uint32_t)j;
  pp->image[0] = im[0];
  pp->image[1] = im[1];
  pp->image[2] = im[2];
  pp->zero = 0;
  return 0;
}

/* The pair (i, j) of both scans, appended to pb's np pairs if j (centre xj, radius rj) is
 * near i (near_pair) and the two are neither of one group (gi = group[i] >= 0) nor both
 * fixed (fi = fixed[i]).  Returns 1 if out of memory. */
static inline int take_pair(const grid *g, pairbuf *pb, size_t *np, size_t i, size_t j,
                            const double *xi, double ri, const double *xj, double rj, double skin,
                            long gi, int fi, const long *group, const unsigned char *fixed)
{
  int8_t im[3];
  if (!near_pair(g, xi, ri, xj, rj, skin, im) || (gi >= 0 && group[j] == gi) || (fi && fixed[j]))
    return 0;
  return push_pair(pb, np, i, j, im);
}

/* The partners of one sphere, p[first .. np), by increasing rank (few: insertion sort). */
static void sort_partners(const gc_nlist *nl, gc_npair *p, size_t first, size_t np)
{
  for (size_t k = first + 1; k < np; k++) {
    gc_npair t = p[k];
    const uint32_t rt = nl->rank[t.j];
    size_t m = k;
    while (m > first && nl->rank[p[m - 1].j] > rt) {
      p[m] = p[m - 1];
      m--;
    }
    p[m] = t;
  }
}

/* The pairs of the spheres seq[m0 .. m1) into pb (grown as needed), grouped by i in that order
 * and by increasing rank of j within; returns the count or SIZE_MAX on allocation failure. */
static size_t enumerate(const gc_nlist *nl, pairbuf *pb, const grid *g, const gc_nlist_box *box,
                        const double *x, const double *r, const long *group,
                        const unsigned char *fixed, size_t m0, size_t m1)
{
  const size_t *start = nl->cell_start, *order = nl->order;
  const double skin = box->skin;
  size_t np = 0;
  for (size_t mi = m0; mi < m1; mi++) {
    const size_t i = nl->seq[mi];
    size_t st[3][3];
    int ns[3];
    cell_stencil(g, nl->cell[i], st, ns);
    const double *xi = x + 3 * i, ri = r[i];
    const uint32_t rk = nl->rank[i];
    const long gi = group ? group[i] : -1;
    const int fi = fixed ? fixed[i] != 0 : 0;
    const size_t first = np;
    for (int kz = 0; kz < ns[2]; kz++)
      for (int ky = 0; ky < ns[1]; ky++)
        for (int kx = 0; kx < ns[0]; kx++) {
          size_t c = st[0][kx] + g->nc[0] * (st[1][ky] + g->nc[1] * st[2][kz]);
          /* a cell lists its spheres in increasing rank: scan down to rank_j = rank_i */
          for (size_t m = start[c + 1]; m > start[c]; m--) {
            if (nl->crank[m - 1] <= rk)
              break;
            const double *q = nl->cpos + 4 * (m - 1);
            if (take_pair(g, pb, &np, i, order[m - 1], xi, ri, q, q[3], skin, gi, fi, group, fixed))
              return SIZE_MAX;
          }
        }
    sort_partners(nl, pb->p, first, np);
  }
  return np;
}

/* d, a separation along axis a, at its nearest image (for the units' bounds and tests,
 * which only need to be conservative; near_pair finds the pairs' images) */
static inline double unit_image(const grid *g, int a, double d)
{
  return fabs(d) > g->lim[a] ? d - g->L[a] * nearbyint(d * g->inv_L[a]) : d;
}

/* |b - a|^2 at the nearest image (unit_image along each axis) */
static inline double unit_dist2(const grid *g, const double a[3], const double b[3])
{
  double d2 = 0.0;
  for (int k = 0; k < 3; k++) {
    const double d = unit_image(g, k, b[k] - a[k]);
    d2 += d * d;
  }
  return d2;
}

/* Units for the build (see gc_nlist.ubound): 1 if the spheres form units worth scanning by
 * (a quarter fewer units than spheres at least, the units' grid fits the periods), with their
 * bounds, ranks and grid g formed; 0 to scan sphere by sphere; -1 if out of memory. */
static int make_units(gc_nlist *nl, const gc_nlist_box *box, const double *x, const double *r,
                      const long *group, const unsigned char *fixed, grid *g)
{
  const size_t n = nl->nsph;
  size_t nu = 0;
  for (size_t i = 0; i < n; i++)
    nu += i == 0 || group[i] < 0 || group[i] != group[i - 1];
  if (4 * nu > 3 * n)
    return 0;
  if (!nl->unit_of) {
    const size_t m = n ? n : 1;
    nl->unit_of = malloc(m * sizeof *nl->unit_of);
    nl->ustart = malloc((m + 1) * sizeof *nl->ustart);
    nl->ubound = malloc(4 * m * sizeof *nl->ubound);
    nl->urank_lo = malloc(m * sizeof *nl->urank_lo);
    nl->urank_hi = malloc(m * sizeof *nl->urank_hi);
    nl->ufixed = malloc(m);
    nl->ucell = malloc(m * sizeof *nl->ucell);
    nl->uorder = malloc(m * sizeof *nl->uorder);
    nl->ucpos = malloc(4 * m * sizeof *nl->ucpos);
    if (!nl->unit_of || !nl->ustart || !nl->ubound || !nl->urank_lo || !nl->urank_hi ||
        !nl->ufixed || !nl->ucell || !nl->uorder || !nl->ucpos)
      return -1; /* the arrays allocated stay, freed with the list */
  }
  if (nl->nucand < nl->nthreads) {
    if (grow(&nl->ucand, (size_t)nl->nthreads * (n ? n : 1), sizeof *nl->ucand))
      return -1;
    nl->nucand = nl->nthreads;
  }
  nu = 0;
  for (size_t i = 0; i < n; i++) {
    if (i == 0 || group[i] < 0 || group[i] != group[i - 1])
      nl->ustart[nu++] = (uint32_t)i;
    nl->unit_of[i] = (uint32_t)(nu - 1);
  }
  nl->ustart[nu] = (uint32_t)n;
  nl->nunits = nu;
  box_image(box, g->L, g->inv_L, g->lim);
  /* the rounding of the differences of coordinates below, far below the margin of 1e-9 e for
   * the particles of a chute, but not for small particles far from the origin */
  double xmax = 0.0; /* the positions are finite (gc_nlist_build checked) */
  for (int a = 0; a < 3; a++)
    xmax = g->L[a] > xmax ? g->L[a] : xmax;
  for (size_t k = 0; k < 3 * n; k++)
    xmax = fabs(x[k]) > xmax ? fabs(x[k]) : xmax;
  const double slack = 256.0 * DBL_EPSILON * xmax;
  /* centre: the mean of the sphere centres, each taken at its image nearest the first
   * sphere's (the spheres of a cluster may lie on both sides of a periodic boundary); extent:
   * the largest |x_s - centre| + r_s, so that a sphere pair within r_i + r_j + skin has its
   * units' centres within e_U + e_V + skin */
  double emax = 0.0;
  for (size_t u = 0; u < nu; u++) {
    const size_t s0 = nl->ustart[u], s1 = nl->ustart[u + 1];
    const double *xf = x + 3 * s0;
    double sum[3] = { 0, 0, 0 }, c[3];
    uint32_t lo = UINT32_MAX, hi = 0;
    unsigned char allfixed = 1;
    for (size_t k = s0; k < s1; k++) {
      for (int a = 0; a < 3; a++)
        sum[a] += unit_image(g, a, x[3 * k + a] - xf[a]);
      const uint32_t rk = nl->rank[k];
      lo = rk < lo ? rk : lo;
      hi = rk > hi ? rk : hi;
      allfixed &= fixed ? fixed[k] != 0 : 0;
    }
    for (int a = 0; a < 3; a++)
      c[a] = xf[a] + sum[a] / (double)(s1 - s0);
    double e = 0.0;
    for (size_t k = s0; k < s1; k++) {
      const double ek = sqrt(unit_dist2(g, c, x + 3 * k)) + r[k];
      e = ek > e ? ek : e;
    }
    double *b = nl->ubound + 4 * u;
    b[0] = c[0], b[1] = c[1], b[2] = c[2];
    b[3] = e * (1.0 + 1e-9) + slack; /* far above the rounding of these sums */
    emax = b[3] > emax ? b[3] : emax;
    nl->urank_lo[u] = lo;
    nl->urank_hi[u] = hi;
    nl->ufixed[u] = allfixed;
  }
  /* a unique nearest image of two units (their pairs' images follow from the spheres) */
  const double ucut = 2.0 * emax + box->skin;
  for (int a = 0; a < 3; a++)
    if (box->periodic[a] && !(g->L[a] >= 2.0 * ucut * (1.0 + 1e-9)))
      return 0;
  grid_cells(g, box, ucut, nu);
  if (grow_cells(&nl->ucell_start, &nl->ucell_cap, g->ncell))
    return -1;
  size_t *start = nl->ucell_start;
  memset(start, 0, (g->ncell + 1) * sizeof(size_t));
  for (size_t u = 0; u < nu; u++) {
    const double *b = nl->ubound + 4 * u;
    size_t c = cell_coord(g, box, 0, b[0]) +
               g->nc[0] * (cell_coord(g, box, 1, b[1]) + g->nc[1] * cell_coord(g, box, 2, b[2]));
    nl->ucell[u] = c;
    start[c + 1]++;
  }
  for (size_t c = 0; c < g->ncell; c++)
    start[c + 1] += start[c];
  /* a cell lists its units by increasing largest rank (each unit once, at its sphere of that
   * rank), so that unit_candidates scans a cell down to the units that hold no larger rank */
  for (size_t k = 0; k < n; k++) {
    const size_t i = nl->byrank[k];
    const uint32_t u = nl->unit_of[i];
    if (nl->rank[i] == nl->urank_hi[u])
      nl->uorder[start[nl->ucell[u]]++] = u;
  }
  for (size_t c = g->ncell; c > 0; c--)
    start[c] = start[c - 1];
  start[0] = 0;
  for (size_t m = 0; m < nu; m++)
    memcpy(nl->ucpos + 4 * m, nl->ubound + 4 * (size_t)nl->uorder[m], 4 * sizeof(double));
  return 1;
}

/* The units near unit u (their bounding spheres within e_u + e_v + skin, nearest image) that
 * may hold a pair with it: not u, a larger rank somewhere, not both all fixed.  Into cand;
 * returns their count. */
static size_t unit_candidates(const gc_nlist *nl, const grid *g, double skin, size_t u,
                              uint32_t *cand)
{
  const double *bu = nl->ubound + 4 * u;
  size_t st[3][3];
  int ns[3];
  cell_stencil(g, nl->ucell[u], st, ns);
  const uint32_t lo = nl->urank_lo[u];
  const int fu = nl->ufixed[u];
  size_t n = 0;
  for (int kz = 0; kz < ns[2]; kz++)
    for (int ky = 0; ky < ns[1]; ky++)
      for (int kx = 0; kx < ns[0]; kx++) {
        const size_t c = st[0][kx] + g->nc[0] * (st[1][ky] + g->nc[1] * st[2][kz]);
        for (size_t m = nl->ucell_start[c + 1]; m > nl->ucell_start[c]; m--) {
          const uint32_t v = nl->uorder[m - 1];
          if (nl->urank_hi[v] <= lo)
            break;
          if (v == u || (fu && nl->ufixed[v]))
            continue;
          const double *bv = nl->ucpos + 4 * (m - 1);
          const double rc = bu[3] + bv[3] + skin;
          if (unit_dist2(g, bu, bv) < rc * rc)
            cand[n++] = v;
        }
      }
  return n;
}

/* enumerate for a list whose spheres form units (make_units): the same pairs in the same
 * order (the same test, near_pair, of every pair whose units are near; the others are
 * farther apart than the cut-off), found by testing units first.  cand: room for nunits. */
static size_t enumerate_units(const gc_nlist *nl, pairbuf *pb, const grid *g,
                              const gc_nlist_box *box, const double *x, const double *r,
                              const long *group, const unsigned char *fixed, size_t m0, size_t m1,
                              uint32_t *cand)
{
  const double skin = box->skin;
  size_t np = 0, nc = 0, ucur = SIZE_MAX;
  for (size_t mi = m0; mi < m1; mi++) {
    const size_t i = nl->seq[mi];
    const size_t u = nl->unit_of[i];
    if (u != ucur) {
      nc = unit_candidates(nl, g, skin, u, cand);
      ucur = u;
    }
    const double *xi = x + 3 * i, ri = r[i];
    const uint32_t rk = nl->rank[i];
    const long gi = group[i];
    const int fi = fixed ? fixed[i] != 0 : 0;
    const size_t first = np;
    for (size_t k = 0; k < nc; k++) {
      const uint32_t v = cand[k];
      if (nl->urank_hi[v] <= rk || (fi && nl->ufixed[v]))
        continue;
      if (nl->ustart[v + 1] - nl->ustart[v] > 1) {
        /* sphere i against unit v's bounding sphere first (as units against units) */
        const double *bv = nl->ubound + 4 * v;
        const double rc = ri * (1.0 + 1e-9) + bv[3] + skin;
        if (!(unit_dist2(g, xi, bv) < rc * rc))
          continue;
      }
      for (size_t j = nl->ustart[v]; j < nl->ustart[v + 1]; j++) {
        if (nl->rank[j] > rk &&
            take_pair(g, pb, &np, i, j, xi, ri, x + 3 * j, r[j], skin, gi, fi, group, fixed))
          return SIZE_MAX;
      }
    }
    sort_partners(nl, pb->p, first, np);
  }
  return np;
}

/* blk (2 nsph) of the pairs p[0 .. n): the block of each first sphere i.  Returns 1 if the
 * pairs of some i are not contiguous or not in increasing rank of j (a corrupt checkpoint),
 * else 0. */
int nl_index_blocks(size_t *blk, size_t nsph, const uint32_t *rank, const gc_npair *p, size_t n)
{
  memset(blk, 0, 2 * nsph * sizeof *blk);
  for (size_t k = 0; k < n; k++) {
    const size_t i = p[k].i;
    if (k == 0 || p[k - 1].i != i) {
      if (blk[2 * i + 1] != 0)
        return 1; /* i had a block before */
      blk[2 * i] = k;
    } else if (rank[p[k - 1].j] >= rank[p[k].j]) {
      return 1;
    }
    blk[2 * i + 1] = k + 1;
  }
  return 0;
}

/* CSR of the current list: csr_idx[csr_start[s] .. csr_start[s + 1]) are the pairs of s, in
 * increasing pair index.  Capacity reserved by nl_reserve_csr(). */
void nl_build_csr(gc_nlist *nl)
{
  const gc_npair *p = nl->buf[nl->cur].p;
  const size_t n = nl->npairs;
  size_t *start = nl->csr_start;
  memset(start, 0, (nl->nsph + 1) * sizeof(size_t));
  for (size_t k = 0; k < n; k++) {
    start[p[k].i + 1]++;
    start[p[k].j + 1]++;
  }
  for (size_t s = 0; s < nl->nsph; s++)
    start[s + 1] += start[s];
  for (size_t k = 0; k < n; k++) {
    nl->csr_side[start[p[k].i]] = 1;
    nl->csr_idx[start[p[k].i]++] = (uint32_t)k;
    nl->csr_side[start[p[k].j]] = 0;
    nl->csr_idx[start[p[k].j]++] = (uint32_t)k;
  }
  for (size_t s = nl->nsph; s > 0; s--)
    start[s] = start[s - 1];
  start[0] = 0;
  nl->indexed = 1;
}

/* Make room for the slots of n pairs in pb (n <= MAX_PAYLOAD_PAIRS: the build and the
 * checkpoint read refuse larger lists with their messages). */
int nl_reserve_meta(const gc_nlist *nl, pairbuf *pb, size_t n)
{
  if (!nl->stride || (n <= pb->metacap && pb->slot))
    return GC_SUCCESS;
  size_t c = next_cap(pb->metacap, n);
  if (grow(&pb->slot, c, sizeof *pb->slot))
    return GC_ENOMEM;
  pb->metacap = c;
  return GC_SUCCESS;
}

/* Make room for n packed payloads in pb. */
int nl_reserve_pool(const gc_nlist *nl, pairbuf *pb, size_t n)
{
  if (!nl->stride || (n <= pb->poolcap && pb->pool))
    return GC_SUCCESS;
  size_t c = next_cap(pb->poolcap, n);
  if (grow(&pb->pool, c, nl->stride))
    return GC_ENOMEM;
  pb->poolcap = c;
  return GC_SUCCESS;
}

/* Young rows for a list of n pairs, all zero beyond those taken, a region for each writer
 * (gc_nlist_set_writers, else each build thread) where the row numbers fit below YOUNG: y->mem
 * NULL if the current ones will do (the caller then zeroes the rows taken), else new ones for
 * the caller to put in place (set_young) or free (free_young). */
int nl_reserve_young(const gc_nlist *nl, size_t n, young_rows *y)
{
  *y = (young_rows){ 0 };
  if (!nl->stride)
    return GC_SUCCESS;
  const young_rows *cur = &nl->yr;
  const size_t cap = n <= cur->cap && cur->mem ? cur->cap : next_cap(cur->cap, n);
  const int want = nl->writers > 0 ? nl->writers : nl->nthreads;
  size_t nyr = want > 1 ? (size_t)want : 1, rcap = cap;
  if (nyr > 1) {
    rcap = cap / nyr + 1;
    /* the rows in all, nyr rcap + cap <= 3 cap, numbered below YOUNG */
    if (cap > MAX_PAYLOAD_PAIRS / 3)
      nyr = 1, rcap = cap;
  }
  if (cap == cur->cap && cur->mem && nyr == cur->nyr)
    return GC_SUCCESS;
  const size_t rows = nyr * rcap + (nyr > 1 ? cap : 0);
  if (rows > (SIZE_MAX - GC_NLIST_LINE) / nl->young_stride)
    return GC_ENOMEM;
  /* untouched pages of zeros cost no memory; a line more for the alignment (set_young) */
  unsigned char *mem = calloc(rows * nl->young_stride + GC_NLIST_LINE, 1);
  struct young_count *taken =
      aligned_alloc(_Alignof(struct young_count), (nyr + 1) * sizeof *taken);
  if (!mem || !taken) {
    free(mem);
    free(taken);
    return GC_ENOMEM;
  }
  *y = (young_rows){ mem, cap, nyr, rcap, taken };
  return GC_SUCCESS;
}

/* The young rows of the list now current, none taken: y's (reserve_young) in place of the
 * old ones, or the old ones with the rows taken zeroed (y NULL or y->mem NULL). */
void nl_set_young(gc_nlist *nl, const young_rows *y)
{
  young_rows *cur = &nl->yr;
  if (y && y->mem) {
    free_young(cur);
    *cur = *y;
    nl->young = y->mem + (GC_NLIST_LINE - (uintptr_t)y->mem % GC_NLIST_LINE) % GC_NLIST_LINE;
  } else if (cur->nyr > 0) {
    for (size_t r = 0; r < cur->nyr; r++) {
      const size_t t = atomic_load(&cur->taken[r].n);
      memset(nl->young + r * cur->rcap * nl->young_stride, 0,
             (t < cur->rcap ? t : cur->rcap) * nl->young_stride);
    }
    memset(nl->young + cur->nyr * cur->rcap * nl->young_stride, 0,
           atomic_load(&cur->taken[cur->nyr].n) * nl->young_stride);
  }
  for (size_t r = 0; r < cur->nyr + (cur->nyr > 0); r++)
    atomic_init(&cur->taken[r].n, 0);
}

/* Make room for the CSR of n pairs. */
int nl_reserve_csr(gc_nlist *nl, size_t n)
{
  if (n > SIZE_MAX / 2)
    return GC_ENOMEM;
  if (2 * n <= nl->csr_cap && nl->csr_idx)
    return GC_SUCCESS;
  size_t c = next_cap(nl->csr_cap, 2 * n);
  if (grow(&nl->csr_idx, c, sizeof(uint32_t)) || grow(&nl->csr_side, c, 1))
    return GC_ENOMEM;
  nl->csr_cap = c;
  return GC_SUCCESS;
}

/* The threads' ranges of seq for the enumeration (tsph): equal numbers of the spheres that
 * move.  A fixed sphere i has no pair with another fixed one, and the chute's beads come last
 * in seq, with the highest ranks, so they find no pair at all: split by all spheres, the
 * soybean chute's last thread took 525 particles and the 600 beads against the first's 675
 * particles. */
static void split_spheres(gc_nlist *nl, const unsigned char *fixed, int nt)
{
  size_t nmove = nl->nsph;
  if (fixed)
    for (size_t i = 0; i < nl->nsph; i++)
      nmove -= fixed[i] != 0;
  nl->tsph[0] = 0;
  size_t m = 0, seen = 0;
  for (int t = 1; t < nt; t++) {
    const size_t want = nmove * (size_t)t / (size_t)nt;
    while (m < nl->nsph && seen < want)
      seen += !fixed || !fixed[nl->seq[m++]];
    nl->tsph[t] = m;
  }
  nl->tsph[nt] = nl->nsph;
}

/* The positions (finite; within 63 periods of the box along a periodic axis) and the radii
 * (finite, > 0) of a build: GC_SUCCESS and the largest radius in *rmax, or GC_EINVAL with the
 * sphere in msg. */
static int check_spheres(const gc_nlist *nl, const gc_nlist_box *box, const double *x,
                         const double *r, double *rmax_out, char *msg, size_t msglen)
{
  double rmax = 0;
  for (size_t i = 0; i < nl->nsph; i++) {
    for (int a = 0; a < 3; a++)
      if (!isfinite(x[3 * i + a])) {
        set_msg(msg, msglen, "nlist: position of sphere %zu is not finite (%c = %g)", i,
                axis_name[a], x[3 * i + a]);
        return GC_EINVAL;
      }
    for (int a = 0; a < 3; a++)
      if (box->periodic[a]) {
        /* within 63 periods of the box: the images of a pair then fit gc_npair's int8_t */
        const double L = box->hi[a] - box->lo[a];
        if (!(x[3 * i + a] > box->lo[a] - 63.0 * L && x[3 * i + a] < box->hi[a] + 63.0 * L)) {
          set_msg(msg, msglen,
                  "nlist: position of sphere %zu along periodic %c, %g m, is more "
                  "than 63 periods (%g m) from the box [%g, %g] m",
                  i, axis_name[a], x[3 * i + a], L, box->lo[a], box->hi[a]);
          return GC_EINVAL;
        }
      }
    if (!(r[i] > 0) || !isfinite(r[i])) {
      set_msg(msg, msglen, "nlist: radius of sphere %zu, r = %g m, out of range (0, inf)", i, r[i]);
      return GC_EINVAL;
    }
    if (r[i] > rmax)
      rmax = r[i];
  }
  *rmax_out = rmax;
  return GC_SUCCESS;
}

/* Pair buffers and offsets for nt build threads (tb, toff, tkeep, tsph). */
static int reserve_threads(gc_nlist *nl, int nt, char *msg, size_t msglen)
{
  if (nt <= nl->ntb)
    return GC_SUCCESS;
  pairbuf *tb = realloc(nl->tb, (size_t)nt * sizeof *tb);
  if (tb)
    nl->tb = tb;
  size_t *toff = tb ? realloc(nl->toff, ((size_t)nt + 1) * sizeof *toff) : NULL;
  if (toff)
    nl->toff = toff;
  size_t *tkeep = toff ? realloc(nl->tkeep, ((size_t)nt + 1) * sizeof *tkeep) : NULL;
  if (tkeep)
    nl->tkeep = tkeep;
  size_t *tsph = tkeep ? realloc(nl->tsph, ((size_t)nt + 1) * sizeof *tsph) : NULL;
  if (tsph)
    nl->tsph = tsph;
  if (!tb || !toff || !tkeep || !tsph) {
    set_msg(msg, msglen, "nlist: out of memory (%d thread buffers)", nt);
    return GC_ENOMEM;
  }
  for (int t = nl->ntb; t < nt; t++)
    nl->tb[t] = (pairbuf){ 0 };
  nl->ntb = nt;
  return GC_SUCCESS;
}

/* The pairs of the new list into nb, each thread's range of seq in turn (toff: where each
 * range's pairs start): their number, or SIZE_MAX when out of memory. */
static size_t enumerate_all(gc_nlist *nl, pairbuf *nb, const grid *g, const gc_nlist_box *box,
                            const double *x, const double *r, const long *group,
                            const unsigned char *fixed, int units)
{
  const int nt = nl->nthreads;
  size_t n = 0;
  int fail = 0;
  if (nt == 1) {
    n = units ? enumerate_units(nl, nb, g, box, x, r, group, fixed, 0, nl->nsph, nl->ucand)
              : enumerate(nl, nb, g, box, x, r, group, fixed, 0, nl->nsph);
    fail = n == SIZE_MAX;
    nl->toff[0] = 0;
    nl->toff[1] = n;
  } else {
    split_spheres(nl, fixed, nt);
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(static, 1) reduction(|| : fail)
#endif
    for (int t = 0; t < nt; t++) {
      const size_t m0 = nl->tsph[t], m1 = nl->tsph[t + 1];
      size_t m = units ? enumerate_units(nl, &nl->tb[t], g, box, x, r, group, fixed, m0, m1,
                                         nl->ucand + (size_t)t * nl->nsph)
                       : enumerate(nl, &nl->tb[t], g, box, x, r, group, fixed, m0, m1);
      nl->toff[t + 1] = m;
      if (m == SIZE_MAX)
        fail = 1;
    }
    if (!fail) {
      nl->toff[0] = 0;
      for (int t = 0; t < nt; t++)
        nl->toff[t + 1] += nl->toff[t];
      n = nl->toff[nt];
      if (n > nb->cap) {
        size_t c2 = next_cap(nb->cap, n);
        if (grow(&nb->p, c2, sizeof(gc_npair)))
          fail = 1;
        else
          nb->cap = c2;
      }
    }
    if (!fail)
      for (int t = 0; t < nt; t++)
        if (nl->toff[t + 1] > nl->toff[t])
          memcpy(nb->p + nl->toff[t], nl->tb[t].p,
                 (nl->toff[t + 1] - nl->toff[t]) * sizeof(gc_npair));
  }
  return fail ? SIZE_MAX : n;
}

/* Carry the history of persisting pairs from ob to the n pairs of nb: each new pair looks for
 * itself in the old list's block of its sphere i (both sorted by rank of j), whatever the
 * order of the blocks.  Pass 1 marks the new pairs whose old payload has a row that is not all
 * zero (slot: the old pair, for now) and counts them per thread; pass 2 packs them, each thread
 * from its offset, so that the pool is in pair order whatever the thread count.  GC_ENOMEM
 * (fresh freed) if the pool cannot grow. */
static int merge_history(gc_nlist *nl, pairbuf *nb, const pairbuf *ob, young_rows *fresh)
{
  const int nt = nl->nthreads;
  const size_t *oblk = nl->blk[nl->cur];
  const int have_old = nl->built && nl->npairs > 0;
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(static, 1)
#endif
  for (int t = 0; t < nt; t++) {
    size_t icur = SIZE_MAX, ko = 0, kend = 0, keep = 0;
    for (size_t k = nl->toff[t]; k < nl->toff[t + 1]; k++) {
      const gc_npair *q = nb->p + k;
      if (q->i != icur) {
        icur = q->i;
        ko = have_old ? oblk[2 * icur] : 0;
        kend = have_old ? oblk[2 * icur + 1] : 0;
      }
      const uint32_t rj = nl->rank[q->j];
      while (ko < kend && nl->rank[ob->p[ko].j] < rj)
        ko++;
      const int kept = ko < kend && ob->p[ko].j == q->j && ob->slot[ko] != NO_SLOT &&
                       nonzero(payload_at(nl, ob, ko), nl->stride);
      nb->slot[k] = kept ? (uint32_t)ko : NO_SLOT;
      keep += (size_t)kept;
    }
    nl->tkeep[t + 1] = keep;
  }
  nl->tkeep[0] = 0;
  for (int t = 0; t < nt; t++)
    nl->tkeep[t + 1] += nl->tkeep[t];
  if (nl_reserve_pool(nl, nb, nl->tkeep[nt])) {
    free_young(fresh);
    return GC_ENOMEM;
  }
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(static, 1)
#endif
  for (int t = 0; t < nt; t++) {
    size_t s = nl->tkeep[t];
    for (size_t k = nl->toff[t]; k < nl->toff[t + 1]; k++) {
      const uint32_t ko = nb->slot[k];
      if (ko == NO_SLOT)
        continue;
      memcpy(nb->pool + s * nl->stride, payload_at(nl, ob, ko), nl->stride);
      nb->slot[k] = (uint32_t)s++;
    }
  }
  nl_set_young(nl, fresh);
  return GC_SUCCESS;
}

int gc_nlist_build(gc_nlist *nl, const gc_nlist_box *box, const double *x, const double *r,
                   const long *group, const unsigned char *fixed, char *msg, size_t msglen)
{
  if (!nl || !x || !r) {
    set_msg(msg, msglen, "nlist: %s is NULL", !nl ? "the workspace" : !x ? "x" : "r");
    return GC_EINVAL;
  }
  int st = nl_check_box(box, msg, msglen);
  if (st)
    return st;
  double rmax;
  st = check_spheres(nl, box, x, r, &rmax, msg, msglen);
  if (st)
    return st;
  const double cutoff = 2.0 * rmax + box->skin;
  grid g;
  st = setup_grid(nl, box, cutoff, &g, msg, msglen);
  if (st)
    return st;
  /* by units (rigid clusters: one test for the 16 sphere pairs of two far clusters) where
   * the spheres form them, else sphere by sphere; the same list either way */
  const int units = nl->units_on && group ? make_units(nl, box, x, r, group, fixed, &g) : 0;
  if (units < 0) {
    set_msg(msg, msglen, "nlist: out of memory (%zu spheres)", nl->nsph);
    return GC_ENOMEM;
  }
  nl->used_units = units;
  if (!units)
    bin(nl, &g, box, x, r);

  pairbuf *nb = &nl->buf[1 - nl->cur];
  const pairbuf *ob = &nl->buf[nl->cur];
  /* Enumeration and history merge by contiguous ranges of seq, one per thread: each range's
   * pairs come out grouped by i in seq order (by rank of j within) and the ranges are
   * concatenated in order, so the list is the same whatever the thread count. */
  const int nt = nl->nthreads;
  if (reserve_threads(nl, nt, msg, msglen))
    return GC_ENOMEM;
  const size_t n = enumerate_all(nl, nb, &g, box, x, r, group, fixed, units);
  const int fail = n == SIZE_MAX;
  if (!fail && (n > (size_t)UINT32_MAX || (nl->stride && n > MAX_PAYLOAD_PAIRS))) {
    set_msg(msg, msglen, "nlist: %zu pairs, more than the %s a list %sholds", n,
            nl->stride ? "2^31 - 1" : "2^32 - 1", nl->stride ? "with payloads " : "");
    return GC_ENOMEM;
  }
  young_rows fresh = { 0 };
  if (fail || nl_reserve_meta(nl, nb, n) || nl_reserve_csr(nl, n) ||
      nl_reserve_young(nl, n, &fresh)) {
    set_msg(msg, msglen, "nlist: out of memory (%zu spheres)", nl->nsph);
    return GC_ENOMEM;
  }
  if (nl->stride && merge_history(nl, nb, ob, &fresh)) {
    set_msg(msg, msglen, "nlist: out of memory (%zu spheres)", nl->nsph);
    return GC_ENOMEM;
  }
  nl_index_blocks(nl->blk[1 - nl->cur], nl->nsph, nl->rank, nb->p, n);
  nl->cur = 1 - nl->cur;
  nl->npairs = n;
  set_box(nl, box);
  nl->built = 1;
  nl->nbuilds++;
  memcpy(nl->x0, x, 3 * nl->nsph * sizeof(double));
  nl_build_csr(nl);
  return GC_SUCCESS;
}
