/* nlist_int.h - the neighbour list's workspace and the helpers its files share (nlist.c,
 * nlist_build.c, nlist_io.c); private to them. */
#ifndef GC_NLIST_INT_H
#define GC_NLIST_INT_H

#include "nlist.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gc_model.h"

#ifdef _OPENMP
#include <omp.h>
#endif

typedef struct {
  gc_npair *p;         /* cap pairs */
  uint32_t *slot;      /* metacap: the pair's payload row: NO_SLOT (none: zero), YOUNG | y
                         * (young row y) or a pool row */
  unsigned char *pool; /* poolcap payloads of stride bytes */
  size_t cap, metacap, poolcap;
} pairbuf;

#define NO_SLOT UINT32_MAX
#define YOUNG 0x80000000u
/* Pairs of a list with a payload: pool and young rows must fit below YOUNG */
#define MAX_PAYLOAD_PAIRS ((size_t)YOUNG - 1)
/* bytes of a cache line (x86-64, ARMv8), for what the threads write side by side */
#define GC_NLIST_LINE 64

/* The young rows taken from one region: a count its thread increments (atomically: the
 * regions are shared out modulo their number), on a cache line of its own. */
struct young_count {
  _Alignas(GC_NLIST_LINE) atomic_size_t n;
};

/* A list's young rows (gc_nlist.yr), or those reserve_young made for set_young to put in
 * place: nyr regions of rcap rows, one for each thread of the force loop (gc_nlist_payload_on;
 * region t % nyr), then, with more than one region, one of cap rows that all threads share
 * once their own is full.  A region's first min(taken[r].n, rcap) rows are taken (taken[nyr].n
 * of the shared one), the rest zero; each pair takes at most one row, and cap >= npairs.
 * nyr rcap + cap rows in all (cap with one region), whatever the thread count. */
typedef struct {
  unsigned char *mem;        /* the allocation (reserve_young: NULL if the current rows will do) */
  size_t cap, nyr, rcap;     /* nyr 0: none yet */
  struct young_count *taken; /* nyr + 1 */
} young_rows;

struct gc_nlist {
  size_t nsph, payload_size, stride;
  gc_nlist_box box; /* box of the last build */
  /* box_image of box, for gc_nlist_moved and gc_nlist_get_frame (set_box) */
  double per_L[3], per_inv[3], per_lim[3];
  int built; /* a list is present (build or read) */
  size_t nbuilds;
  pairbuf buf[2]; /* current list buf[cur], spare buf[1 - cur] */
  /* The rows taken since the build (young_rows).  Each row on cache lines of its own
   * (young_stride bytes from a line's start), each thread's rows together: rows taken in turns
   * by two threads from one sequence, each written by its thread at every step of its
   * contact, made the contact law's first read of its record miss 5x as often as on one thread
   * (the prefetchers fetch the neighbouring rows the other core is writing). */
  young_rows yr;
  unsigned char *young;    /* yr.mem from its first line's start */
  size_t young_stride;     /* stride rounded up to whole cache lines */
  int writers;             /* gc_nlist_set_writers (0: the build threads) */
  unsigned char *zero_row; /* stride bytes of zeros: the payload of a pair without a row */
  int cur;
  size_t npairs;
  double *x0;              /* 3 nsph: positions at the last build */
  double *xs;              /* 3 nsph: scratch (gc_nlist_read) */
  size_t *csr_start;       /* nsph + 1 */
  uint32_t *csr_idx;       /* csr_cap: pair indices per sphere */
  unsigned char *csr_side; /* csr_cap: 1 where the sphere is the pair's i, 0 where it is j */
  size_t csr_cap;
  int indexed;        /* the CSR is of the current list (not after gc_nlist_renumber_for_build) */
  size_t *cell;       /* nsph: cell of each sphere */
  size_t *order;      /* nsph: spheres sorted by cell (increasing rank within a cell) */
  double *cpos;       /* 4 nsph: x, y, z, r of order[m] at [4 m], contiguous per cell */
  uint32_t *crank;    /* nsph: rank of order[m] (read in cell order by the scan, which stops
                       * at the first rank <= rank_i) */
  size_t *cell_start; /* cell_cap + 1 */
  size_t cell_cap;
  int nthreads;     /* threads of a build (gc_nlist_set_threads), >= 1 */
  int ntb;          /* per-thread pair buffers allocated */
  pairbuf *tb;      /* ntb: the pairs of each thread's range of spheres */
  size_t *toff;     /* ntb + 1: their offsets in the new list */
  size_t *tkeep;    /* ntb + 1: the payloads each thread packs, then their offsets */
  size_t *tsph;     /* ntb + 1: each thread's range of seq (split_spheres) */
  size_t *seq;      /* nsph: the order in which a build takes the spheres i (its pairs come
                       * grouped by i in this order); the identity unless gc_nlist_set_order */
  size_t *blk[2];   /* 2 nsph per buffer: [blk[2 i], blk[2 i + 1]) are the pairs whose first
                       * sphere is i (i's block; empty: both 0) */
  uint32_t *rank;   /* nsph: the sphere's rank, which orients its pairs (rank_i < rank_j) and
                       * orders a block: its index before the first gc_nlist_renumber (since
                       * the allocation or gc_nlist_clear), which then moves with it */
  uint32_t *byrank; /* nsph: the sphere of each rank */
  /* Units, for the build's scan of a list with groups (enumerate_units): a unit is a run of
   * consecutive spheres of one group >= 0 (a rigid cluster), every other sphere one of its
   * own.  A unit's bounding sphere rules out all its pairs with a far unit at once.  Allocated
   * at the first build that uses them. */
  int units_on;   /* gc_nlist_set_units, 1 by default */
  int used_units; /* the last build scanned by units */
  size_t nunits;
  uint32_t *unit_of; /* nsph: the unit of each sphere */
  uint32_t *ustart;  /* nsph + 1: unit u is spheres ustart[u] .. ustart[u + 1] - 1 */
  double *ubound;    /* 4 nsph: centre and extent of unit u (the largest distance of one of
                       * its sphere surfaces from the centre) at [4 u] */
  uint32_t *urank_lo, *urank_hi; /* nsph: the smallest and largest rank in unit u */
  unsigned char *ufixed;         /* nsph: 1 if all spheres of unit u are fixed */
  size_t *ucell;                 /* nsph: the cell of unit u */
  uint32_t *uorder;              /* nsph: the units by cell */
  double *ucpos;                 /* 4 nsph: ubound of uorder[m] at [4 m], contiguous per cell */
  size_t *ucell_start;           /* ucell_cap + 1 */
  size_t ucell_cap;
  uint32_t *ucand; /* ntb nsph: each thread's units near its current unit */
  int nucand;      /* threads ucand has room for */
};

static inline void free_young(young_rows *y)
{
  free(y->mem);
  free(y->taken);
  y->mem = NULL;
  y->taken = NULL;
}

/* The minimum-image constants of a box, per axis: the period L = hi - lo, 1 / L, and the
 * |separation| beyond which the minimum image may shift it, L/2 along a periodic axis and
 * +inf along another (so that one compare serves both). */
static inline void box_image(const gc_nlist_box *box, double L[3], double inv_L[3], double lim[3])
{
  for (int a = 0; a < 3; a++) {
    L[a] = box->hi[a] - box->lo[a];
    inv_L[a] = 1.0 / L[a];
    lim[a] = box->periodic[a] ? 0.5 * L[a] : INFINITY;
  }
}

/* nl->box and the constants gc_nlist_moved takes from it. */
static inline void set_box(gc_nlist *nl, const gc_nlist_box *box)
{
  nl->box = *box;
  box_image(box, nl->per_L, nl->per_inv, nl->per_lim);
}

static inline void set_msg(char *msg, size_t msglen, const char *fmt, ...)
{
  if (!msg || !msglen)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, msglen, fmt, ap);
  va_end(ap);
}

/* realloc of n elements of size sz, with overflow check; *p unchanged on failure. */
static inline int grow(void *pp, size_t n, size_t sz)
{
  void **p = pp;
  if (n == 0)
    n = 1;
  if (sz && n > SIZE_MAX / sz)
    return GC_ENOMEM;
  void *q = realloc(*p, n * sz);
  if (!q)
    return GC_ENOMEM;
  *p = q;
  return GC_SUCCESS;
}

/* Geometric growth: a capacity >= need (at least twice the old one). */
static inline size_t next_cap(size_t cap, size_t need)
{
  size_t c = cap < 16 ? 16 : cap;
  while (c < need)
    c = c > SIZE_MAX / 2 ? need : 2 * c;
  return c;
}

/* The payload of pair k of buffer b (a row of zeros if it has none). */
static inline unsigned char *payload_at(const gc_nlist *nl, const pairbuf *b, size_t k)
{
  const uint32_t s = b->slot[k];
  if (s == NO_SLOT)
    return nl->zero_row;
  return s & YOUNG ? nl->young + (size_t)(s & ~YOUNG) * nl->young_stride
                   : b->pool + (size_t)s * nl->stride;
}

/* 1 if the n bytes at p (a multiple of 8: a stride) are not all zero. */
static inline int nonzero(const unsigned char *p, size_t n)
{
  uint64_t any = 0;
  for (size_t u = 0; u < n; u += 8) {
    uint64_t v;
    memcpy(&v, p + u, 8);
    any |= v;
  }
  return any != 0;
}

/* Defined in nlist_build.c, used by the checkpoint reader and the renumbering too. */
void nl_build_csr(gc_nlist *nl);
void nl_set_young(gc_nlist *nl, const young_rows *y);
int nl_check_box(const gc_nlist_box *box, char *msg, size_t msglen);
int nl_index_blocks(size_t *blk, size_t nsph, const uint32_t *rank, const gc_npair *p, size_t n);
int nl_reserve_csr(gc_nlist *nl, size_t n);
int nl_reserve_meta(const gc_nlist *nl, pairbuf *pb, size_t n);
int nl_reserve_pool(const gc_nlist *nl, pairbuf *pb, size_t n);
int nl_reserve_young(const gc_nlist *nl, size_t n, young_rows *y);

#endif
