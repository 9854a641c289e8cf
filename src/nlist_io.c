/* nlist_io.c - a neighbour list in a checkpoint, see nlist.h. */
#include "nlist_int.h"

/* Layout (native byte order, checked by a marker):
 *   "GCNLIST\0", uint32 version, uint32 0x01020304,
 *   uint64 nsph, payload_size, npairs, nbuilds, built,
 *   double lo[3], hi[3], skin, int32 periodic[3],
 *   double x0[3 nsph],
 *   uint32 rank[nsph] (version 3; version 2 has none: rank = index),
 *   npairs x (uint64 i, j, double shift[3]), grouped by i, increasing rank of j within (the shift
 *   is image L, so the file does not depend on gc_npair's layout),
 *   npairs x payload_size bytes,
 *   "GCNLEND\0". */
static const char magic[8] = "GCNLIST";
static const char endmark[8] = "GCNLEND";
/* 2: pairs grouped by i in the build's order, not sorted by i; 3: the spheres' ranks (after
 * gc_nlist_renumber a pair's i may be the larger index).  Version 2 files are read. */
enum { NL_VERSION = 3 };
static const uint32_t bom = 0x01020304u;

static int wr(const void *p, size_t sz, size_t n, FILE *f)
{
  return n && fwrite(p, sz, n, f) != n;
}

static int wr_u64(uint64_t v, FILE *f)
{
  return wr(&v, sizeof v, 1, f);
}

int gc_nlist_write(const gc_nlist *nl, FILE *f)
{
  if (!nl || !f)
    return GC_EINVAL;
  uint32_t ver = NL_VERSION;
  int bad = wr(magic, 1, sizeof magic, f) || wr(&ver, sizeof ver, 1, f) ||
            wr(&bom, sizeof bom, 1, f) || wr_u64(nl->nsph, f) || wr_u64(nl->payload_size, f) ||
            wr_u64(nl->npairs, f) || wr_u64(nl->nbuilds, f) || wr_u64((uint64_t)nl->built, f) ||
            wr(nl->box.lo, sizeof(double), 3, f) || wr(nl->box.hi, sizeof(double), 3, f) ||
            wr(&nl->box.skin, sizeof(double), 1, f);
  for (int a = 0; a < 3 && !bad; a++) {
    int32_t per = nl->box.periodic[a];
    bad = wr(&per, sizeof per, 1, f);
  }
  if (!bad)
    bad =
        wr(nl->x0, sizeof(double), 3 * nl->nsph, f) || wr(nl->rank, sizeof(uint32_t), nl->nsph, f);
  const pairbuf *pb = &nl->buf[nl->cur];
  for (size_t k = 0; k < nl->npairs && !bad; k++) {
    double sh[3];
    gc_nlist_shift(nl, &pb->p[k], sh);
    bad = wr_u64(pb->p[k].i, f) || wr_u64(pb->p[k].j, f) || wr(sh, sizeof(double), 3, f);
  }
  for (size_t k = 0; k < nl->npairs && !bad && nl->payload_size; k++)
    bad = wr(payload_at(nl, pb, k), 1, nl->payload_size, f);
  if (!bad)
    bad = wr(endmark, 1, sizeof endmark, f);
  return bad || ferror(f) ? GC_EIO : GC_SUCCESS;
}

/* fread n items; on a short read the status (GC_EIO or GC_EFORMAT) with a message. */
static int rd(void *p, size_t sz, size_t n, FILE *f, const char *what, char *msg, size_t msglen)
{
  if (!n || fread(p, sz, n, f) == n)
    return GC_SUCCESS;
  if (ferror(f)) {
    set_msg(msg, msglen, "nlist checkpoint: read error (%s)", what);
    return GC_EIO;
  }
  set_msg(msg, msglen, "nlist checkpoint: truncated file (end of file in %s)", what);
  return GC_EFORMAT;
}

static int read_pairs(gc_nlist *nl, FILE *f, uint32_t ver, const gc_nlist_box *bx, uint64_t npairs,
                      uint32_t *rank, young_rows *fresh, char *msg, size_t msglen);

int gc_nlist_read(gc_nlist *nl, FILE *f, char *msg, size_t msglen)
{
  if (!nl || !f) {
    set_msg(msg, msglen, "nlist checkpoint: %s is NULL", !nl ? "the workspace" : "the file");
    return GC_EINVAL;
  }
  char mg[8];
  uint32_t ver, b;
  uint64_t h[5];
  int st = rd(mg, 1, sizeof mg, f, "the header", msg, msglen);
  if (st)
    return st;
  if (memcmp(mg, magic, sizeof magic)) {
    set_msg(msg, msglen, "nlist checkpoint: not a neighbour-list checkpoint (bad magic)");
    return GC_EFORMAT;
  }
  if ((st = rd(&ver, sizeof ver, 1, f, "the header", msg, msglen)) ||
      (st = rd(&b, sizeof b, 1, f, "the header", msg, msglen)) ||
      (st = rd(h, sizeof h[0], 5, f, "the header", msg, msglen)))
    return st;
  if (ver != NL_VERSION && ver != 2) {
    set_msg(msg, msglen, "nlist checkpoint: format version %lu, expected 2 or %d",
            (unsigned long)ver, NL_VERSION);
    return GC_EFORMAT;
  }
  if (b != bom) {
    set_msg(msg, msglen, "nlist checkpoint: written on a machine of another byte order");
    return GC_EFORMAT;
  }
  if (h[0] != nl->nsph) {
    set_msg(msg, msglen, "nlist checkpoint: nsph = %llu in the file, %zu in the workspace",
            (unsigned long long)h[0], nl->nsph);
    return GC_EINVAL;
  }
  if (h[1] != nl->payload_size) {
    set_msg(msg, msglen,
            "nlist checkpoint: payload_size = %llu bytes in the file, %zu in the workspace",
            (unsigned long long)h[1], nl->payload_size);
    return GC_EINVAL;
  }
  const uint64_t npairs = h[2];
  const size_t ns = nl->nsph;
  const uint64_t maxpairs =
      ns < 2 ? 0 : (ns % 2 ? (uint64_t)(ns - 1) / 2 * ns : (uint64_t)ns / 2 * (ns - 1));
  if (npairs > maxpairs || npairs > UINT32_MAX || (nl->stride && npairs > MAX_PAYLOAD_PAIRS) ||
      h[4] > 1 || (!h[4] && npairs)) {
    set_msg(msg, msglen, "nlist checkpoint: corrupt header (%llu pairs for %zu spheres)",
            (unsigned long long)npairs, ns);
    return GC_EFORMAT;
  }
  gc_nlist_box box;
  int32_t per[3];
  if ((st = rd(box.lo, sizeof(double), 3, f, "the box", msg, msglen)) ||
      (st = rd(box.hi, sizeof(double), 3, f, "the box", msg, msglen)) ||
      (st = rd(&box.skin, sizeof(double), 1, f, "the box", msg, msglen)) ||
      (st = rd(per, sizeof per[0], 3, f, "the box", msg, msglen)))
    return st;
  for (int a = 0; a < 3; a++)
    box.periodic[a] = per[a];
  if (h[4]) {
    char m2[200];
    if (nl_check_box(&box, m2, sizeof m2)) {
      set_msg(msg, msglen, "nlist checkpoint: corrupt box (%s)", m2);
      return GC_EFORMAT;
    }
  }
  if ((st = rd(nl->xs, sizeof(double), 3 * ns, f, "the positions", msg, msglen)))
    return st;
  /* the ranks into scratch (committed with the rest): a permutation */
  uint32_t *rank = malloc((ns ? ns : 1) * sizeof *rank);
  if (!rank) {
    set_msg(msg, msglen, "nlist checkpoint: out of memory (%zu spheres)", ns);
    return GC_ENOMEM;
  }
  young_rows fresh = { 0 };
  st = read_pairs(nl, f, ver, &box, npairs, rank, &fresh, msg, msglen);
  if (st) {
    free(rank);
    free_young(&fresh);
    return st;
  }
  /* commit */
  nl_set_young(nl, &fresh);
  double *t = nl->x0;
  nl->x0 = nl->xs;
  nl->xs = t;
  free(nl->rank);
  nl->rank = rank;
  for (size_t s = 0; s < ns; s++)
    nl->byrank[rank[s]] = (uint32_t)s;
  nl->cur = 1 - nl->cur;
  nl->npairs = (size_t)npairs;
  nl->built = (int)h[4];
  nl->nbuilds = (size_t)h[3];
  set_box(nl, &box);
  nl_build_csr(nl);
  return GC_SUCCESS;
}

/* The rest of a checkpoint after the positions, into the spare buffer, rank and, if the young
 * rows must grow, new ones in *fresh (the caller's to set or free): on any error the current
 * list stays intact.  The non-zero payloads are packed, as by a build. */
static int read_pairs(gc_nlist *nl, FILE *f, uint32_t ver, const gc_nlist_box *bx, uint64_t npairs,
                      uint32_t *rank, young_rows *fresh, char *msg, size_t msglen)
{
  const size_t ns = nl->nsph;
  const gc_nlist_box box = *bx;
  char mg[8];
  int st;
  if (ver >= 3) {
    if ((st = rd(rank, sizeof *rank, ns, f, "the ranks", msg, msglen)))
      return st;
    size_t *seen = nl->cell; /* free scratch between builds */
    memset(seen, 0, ns * sizeof *seen);
    for (size_t s = 0; s < ns; s++) {
      if (rank[s] >= ns || seen[rank[s]]) {
        set_msg(msg, msglen, "nlist checkpoint: corrupt ranks (sphere %zu)", s);
        return GC_EFORMAT;
      }
      seen[rank[s]] = 1;
    }
  } else {
    for (size_t s = 0; s < ns; s++)
      rank[s] = (uint32_t)s;
  }
  /* the pairs go to the spare buffer: the current list stays intact on any error */
  pairbuf *pb = &nl->buf[1 - nl->cur];
  const size_t n = (size_t)npairs;
  if (n > pb->cap || !pb->p) {
    size_t c = next_cap(pb->cap, n);
    if (grow(&pb->p, c, sizeof(gc_npair))) {
      set_msg(msg, msglen, "nlist checkpoint: out of memory (%zu pairs)", n);
      return GC_ENOMEM;
    }
    pb->cap = c;
  }
  if (nl_reserve_meta(nl, pb, n) || nl_reserve_csr(nl, n) || nl_reserve_young(nl, n, fresh)) {
    set_msg(msg, msglen, "nlist checkpoint: out of memory (%zu pairs)", n);
    return GC_ENOMEM;
  }
  for (size_t k = 0; k < n; k++) {
    uint64_t ij[2];
    double sh[3];
    gc_npair *q = pb->p + k;
    if ((st = rd(ij, sizeof ij[0], 2, f, "the pairs", msg, msglen)) ||
        (st = rd(sh, sizeof(double), 3, f, "the pairs", msg, msglen)))
      return st;
    /* the shift must be image L exactly, |image| <= 127, 0 along a non-periodic axis */
    int bad = ij[0] >= ns || ij[1] >= ns || rank[ij[0]] >= rank[ij[1]];
    for (int a = 0; a < 3 && !bad; a++) {
      /* sh / L rounds (3 * 0.1 / 0.1 = 3.0000000000000004): the nearest whole number, then
       * the exact product below */
      const double L = box.hi[a] - box.lo[a], m = nearbyint(sh[a] / L);
      bad = !(fabs(m) <= 127.0) || (m != 0.0 && !box.periodic[a]);
      if (!bad) {
        q->image[a] = (int8_t)m;
        bad = (double)q->image[a] * L != sh[a];
      }
    }
    if (bad) {
      set_msg(msg, msglen, "nlist checkpoint: corrupt pair %zu (%llu, %llu, shift %g %g %g m)", k,
              (unsigned long long)ij[0], (unsigned long long)ij[1], sh[0], sh[1], sh[2]);
      return GC_EFORMAT;
    }
    q->i = (uint32_t)ij[0];
    q->j = (uint32_t)ij[1];
    q->zero = 0;
  }
  if (nl_index_blocks(nl->blk[1 - nl->cur], ns, rank, pb->p, n)) {
    set_msg(msg, msglen,
            "nlist checkpoint: corrupt pair order (the pairs of a sphere are not "
            "together in increasing partner order)");
    return GC_EFORMAT;
  }
  size_t npool = 0;
  for (size_t k = 0; k < n && nl->stride; k++) {
    if (nl_reserve_pool(nl, pb, npool + 1)) {
      set_msg(msg, msglen, "nlist checkpoint: out of memory (%zu pairs)", n);
      return GC_ENOMEM;
    }
    unsigned char *dst = pb->pool + npool * nl->stride;
    if ((st = rd(dst, 1, nl->payload_size, f, "the payloads", msg, msglen)))
      return st;
    memset(dst + nl->payload_size, 0, nl->stride - nl->payload_size);
    pb->slot[k] = nonzero(dst, nl->stride) ? (uint32_t)npool++ : NO_SLOT;
  }
  if ((st = rd(mg, 1, sizeof mg, f, "the end marker", msg, msglen)))
    return st;
  if (memcmp(mg, endmark, sizeof endmark)) {
    set_msg(msg, msglen, "nlist checkpoint: bad end marker (corrupt file)");
    return GC_EFORMAT;
  }
  return GC_SUCCESS;
}
