/* nlist.c - neighbour (Verlet) lists of sphere pairs, see nlist.h: the workspace, the
 * displacement criterion, the build order and renumbering, the accessors.  The build is in
 * nlist_build.c, the checkpoint in nlist_io.c. */
#include "nlist_int.h"

gc_nlist *gc_nlist_alloc(size_t nsph, size_t payload_size)
{
  const size_t A = _Alignof(max_align_t);
  if (payload_size > SIZE_MAX - A || nsph > SIZE_MAX / 4 / sizeof(double) - 1 ||
      nsph > GC_NLIST_MAX_SPHERES)
    return NULL;
  gc_nlist *nl = calloc(1, sizeof *nl);
  if (!nl)
    return NULL;
  nl->nsph = nsph;
  nl->payload_size = payload_size;
  nl->stride = (payload_size + A - 1) / A * A;
  nl->young_stride = (nl->stride + GC_NLIST_LINE - 1) / GC_NLIST_LINE * GC_NLIST_LINE;
  nl->nthreads = 1;
  nl->units_on = 1;
  size_t n = nsph ? nsph : 1;
  nl->x0 = calloc(3 * n, sizeof(double));
  nl->xs = calloc(3 * n, sizeof(double));
  nl->csr_start = calloc(n + 1, sizeof(size_t));
  nl->cell = calloc(n, sizeof(size_t));
  nl->order = calloc(n, sizeof(size_t));
  nl->cpos = calloc(4 * n, sizeof(double));
  nl->crank = calloc(n, sizeof(uint32_t));
  nl->seq = malloc(n * sizeof(size_t));
  nl->blk[0] = calloc(2 * n, sizeof(size_t));
  nl->blk[1] = calloc(2 * n, sizeof(size_t));
  nl->rank = malloc(n * sizeof(uint32_t));
  nl->byrank = malloc(n * sizeof(uint32_t));
  nl->zero_row = calloc(1, nl->stride ? nl->stride : 1);
  if (!nl->x0 || !nl->xs || !nl->csr_start || !nl->cell || !nl->order || !nl->cpos || !nl->crank ||
      !nl->seq || !nl->blk[0] || !nl->blk[1] || !nl->rank || !nl->byrank || !nl->zero_row) {
    gc_nlist_free(nl);
    return NULL;
  }
  for (size_t i = 0; i < n; i++) {
    nl->seq[i] = i;
    nl->rank[i] = nl->byrank[i] = (uint32_t)i;
  }
  return nl;
}

void gc_nlist_free(gc_nlist *nl)
{
  if (!nl)
    return;
  for (int b = 0; b < 2; b++) {
    free(nl->buf[b].p);
    free(nl->buf[b].slot);
    free(nl->buf[b].pool);
  }
  free(nl->x0);
  free(nl->xs);
  free(nl->csr_start);
  free(nl->csr_idx);
  free(nl->csr_side);
  free(nl->cell);
  free(nl->order);
  free(nl->cpos);
  free(nl->crank);
  free(nl->cell_start);
  for (int t = 0; t < nl->ntb; t++)
    free(nl->tb[t].p);
  free(nl->tb);
  free(nl->toff);
  free(nl->tkeep);
  free(nl->tsph);
  free_young(&nl->yr);
  free(nl->zero_row);
  free(nl->seq);
  free(nl->blk[0]);
  free(nl->blk[1]);
  free(nl->rank);
  free(nl->byrank);
  free(nl->unit_of);
  free(nl->ustart);
  free(nl->ubound);
  free(nl->urank_lo);
  free(nl->urank_hi);
  free(nl->ufixed);
  free(nl->ucell);
  free(nl->uorder);
  free(nl->ucpos);
  free(nl->ucell_start);
  free(nl->ucand);
  free(nl);
}

/* ---- validation ---------------------------------------------------------------------- */

void gc_nlist_get_frame(const gc_nlist *nl, gc_nlist_frame *f)
{
  f->x0 = nl->built ? nl->x0 : NULL;
  for (int a = 0; a < 3; a++) {
    f->shift[a] = 0.0;
    f->L[a] = nl->per_L[a];
    f->inv_L[a] = nl->per_inv[a];
    f->lim[a] = nl->per_lim[a];
  }
}

double gc_nlist_moved(const gc_nlist *nl, const double *x, size_t first, size_t count, double *dist)
{
  const size_t end = first + count <= nl->nsph ? first + count : nl->nsph;
  gc_nlist_frame f;
  gc_nlist_get_frame(nl, &f);
  return gc_nlist_frame_moved(&f, x, first, end, dist);
}

double gc_nlist_max_moved2(const gc_nlist *nl, const double *x, size_t first, size_t count)
{
  return gc_nlist_moved(nl, x, first, count, NULL);
}

/* The two limits of the criterion, shared by gc_nlist_past_skin and gc_nlist_skin_reach so
 * that the reach is the criterion turned round, to the bit: a free sphere may move skin/2 (two
 * free spheres closing a gap), a free and a fixed one the skin together, less 1e-9 of it for
 * the roundings of the two square roots. */
static inline double half_skin(const gc_nlist *nl)
{
  return 0.5 * nl->box.skin;
}

static inline double pair_skin(const gc_nlist *nl)
{
  return nl->box.skin * (1.0 - 1e-9);
}

int gc_nlist_past_skin(const gc_nlist *nl, double moved2, double fixed2)
{
  const double h = half_skin(nl);
  if (!(moved2 <= h * h))
    return 1;
  /* fixed2 = 0 (no shift or no fixed sphere): implied by the test above */
  return fixed2 != 0.0 && !(sqrt(moved2) + sqrt(fixed2) < pair_skin(nl));
}

double gc_nlist_skin_reach(const gc_nlist *nl, double fixed2)
{
  const double h = half_skin(nl);
  if (fixed2 == 0.0)
    return h;
  const double bead = pair_skin(nl) - sqrt(fixed2);
  return bead < h ? bead : h;
}

const double *gc_nlist_build_positions(const gc_nlist *nl)
{
  return nl->built ? nl->x0 : NULL;
}

int gc_nlist_needs_rebuild(const gc_nlist *nl, const double *x)
{
  return gc_nlist_needs_rebuild_shifted(nl, x, NULL, NULL);
}

int gc_nlist_needs_rebuild_shifted(const gc_nlist *nl, const double *x, const unsigned char *fixed,
                                   const double shift[3])
{
  gc_nlist_frame f;
  gc_nlist_get_frame(nl, &f);
  if (!f.x0)
    return 1;
  for (int a = 0; a < 3; a++)
    f.shift[a] = shift ? shift[a] : 0.0;
  double free2 = 0.0, fixed2 = 0.0;
  for (size_t i = 0; i < nl->nsph; i++) {
    const double d2 = gc_nlist_frame_moved2(&f, x + 3 * i, f.x0 + 3 * i);
    double *m = fixed && fixed[i] ? &fixed2 : &free2;
    if (!(d2 <= *m))
      *m = d2;
  }
  return gc_nlist_past_skin(nl, free2, fixed2);
}

/* 1 if a is a permutation of 0 .. nsph - 1 (nl->cell is free scratch between builds) */
static int is_permutation(gc_nlist *nl, const size_t *a)
{
  size_t *seen = nl->cell;
  memset(seen, 0, nl->nsph * sizeof *seen);
  for (size_t m = 0; m < nl->nsph; m++) {
    if (a[m] >= nl->nsph || seen[a[m]])
      return 0;
    seen[a[m]] = 1;
  }
  return 1;
}

int gc_nlist_set_order(gc_nlist *nl, const size_t *seq)
{
  if (!seq) {
    for (size_t i = 0; i < nl->nsph; i++)
      nl->seq[i] = i;
    return GC_SUCCESS;
  }
  if (!is_permutation(nl, seq))
    return GC_EINVAL;
  memcpy(nl->seq, seq, nl->nsph * sizeof *seq);
  return GC_SUCCESS;
}

static int renumber(gc_nlist *nl, const size_t *to, int index)
{
  if (!is_permutation(nl, to))
    return GC_EINVAL;
  /* the pairs keep their places, payloads and orientation (by rank): only relabelled */
  gc_npair *p = nl->buf[nl->cur].p;
  for (size_t k = 0; k < nl->npairs; k++) {
    p[k].i = (uint32_t)to[p[k].i];
    p[k].j = (uint32_t)to[p[k].j];
  }
  size_t *ob = nl->blk[nl->cur], *nb = nl->blk[1 - nl->cur]; /* nb: the spare */
  for (size_t s = 0; s < nl->nsph; s++) {
    nb[2 * to[s]] = ob[2 * s];
    nb[2 * to[s] + 1] = ob[2 * s + 1];
    memcpy(nl->xs + 3 * to[s], nl->x0 + 3 * s, 3 * sizeof(double));
    nl->seq[s] = to[nl->seq[s]];
  }
  nl->blk[nl->cur] = nb;
  nl->blk[1 - nl->cur] = ob;
  double *t = nl->x0;
  nl->x0 = nl->xs;
  nl->xs = t;
  for (size_t r = 0; r < nl->nsph; r++) {
    nl->byrank[r] = (uint32_t)to[nl->byrank[r]];
    nl->rank[nl->byrank[r]] = (uint32_t)r;
  }
  if (nl->built && index)
    nl_build_csr(nl);
  else
    nl->indexed = 0;
  return GC_SUCCESS;
}

int gc_nlist_renumber(gc_nlist *nl, const size_t *to)
{
  return renumber(nl, to, 1);
}

int gc_nlist_renumber_for_build(gc_nlist *nl, const size_t *to)
{
  return renumber(nl, to, 0);
}

void gc_nlist_clear(gc_nlist *nl)
{
  nl_set_young(nl, NULL);
  nl->built = 0;
  nl->npairs = 0;
  for (size_t i = 0; i < nl->nsph; i++) {
    nl->seq[i] = i;
    nl->rank[i] = nl->byrank[i] = (uint32_t)i;
  }
}

const uint32_t *gc_nlist_ranks(const gc_nlist *nl)
{
  return nl->rank;
}

void gc_nlist_set_units(gc_nlist *nl, int on)
{
  nl->units_on = on != 0;
}

int gc_nlist_used_units(const gc_nlist *nl)
{
  return nl->used_units;
}

void gc_nlist_set_writers(gc_nlist *nl, int n)
{
  nl->writers = n > 0 ? n : 0;
}

void gc_nlist_set_threads(gc_nlist *nl, int n)
{
  nl->nthreads = n > 1 ? n : 1;
}

size_t gc_nlist_npairs(const gc_nlist *nl)
{
  return nl->npairs;
}

const gc_npair *gc_nlist_pairs(const gc_nlist *nl)
{
  return nl->buf[nl->cur].p;
}

void *gc_nlist_payload_on(gc_nlist *nl, size_t k, int thread)
{
  if (!nl->stride)
    return NULL;
  pairbuf *b = &nl->buf[nl->cur];
  if (b->slot[k] != NO_SLOT)
    return payload_at(nl, b, k);
  /* the pair's first row since the build: the next young one of the thread's region, else of
   * the shared one (a pair's slot is written only by the one thread that handles the pair) */
  const young_rows *yr = &nl->yr;
  const size_t r = thread > 0 ? (size_t)thread % yr->nyr : 0;
  size_t y = atomic_fetch_add_explicit(&yr->taken[r].n, 1, memory_order_relaxed);
  if (y < yr->rcap)
    y += r * yr->rcap;
  else
    y = yr->nyr * yr->rcap +
        atomic_fetch_add_explicit(&yr->taken[yr->nyr].n, 1, memory_order_relaxed);
  b->slot[k] = YOUNG | (uint32_t)y;
  return nl->young + y * nl->young_stride;
}

void *gc_nlist_payload(gc_nlist *nl, size_t k)
{
  return gc_nlist_payload_on(nl, k, 0);
}

const void *gc_nlist_payload_const(const gc_nlist *nl, size_t k)
{
  return nl->stride ? payload_at(nl, &nl->buf[nl->cur], k) : NULL;
}

int gc_nlist_payload_zero(const gc_nlist *nl, size_t k)
{
  return !nl->stride || nl->buf[nl->cur].slot[k] == NO_SLOT;
}

void gc_nlist_periods(const gc_nlist *nl, double L[3])
{
  for (int a = 0; a < 3; a++)
    L[a] = nl->built ? nl->per_L[a] : 0.0;
}

void gc_nlist_shift(const gc_nlist *nl, const gc_npair *p, double shift[3])
{
  double L[3];
  gc_nlist_periods(nl, L);
  for (int a = 0; a < 3; a++)
    shift[a] = (double)p->image[a] * L[a];
}

void gc_nlist_sphere_pairs(const gc_nlist *nl, size_t sphere, const uint32_t **idx, size_t *n)
{
  if (!nl->built || !nl->indexed || sphere >= nl->nsph || !nl->csr_idx) {
    *idx = NULL;
    *n = 0;
    return;
  }
  *idx = nl->csr_idx + nl->csr_start[sphere];
  *n = nl->csr_start[sphere + 1] - nl->csr_start[sphere];
}

const unsigned char *gc_nlist_sphere_sides(const gc_nlist *nl, size_t sphere)
{
  if (!nl->built || !nl->indexed || sphere >= nl->nsph || !nl->csr_side)
    return NULL;
  return nl->csr_side + nl->csr_start[sphere];
}

size_t gc_nlist_builds(const gc_nlist *nl)
{
  return nl->nbuilds;
}
