/* checkpoint.c - checkpoints: writing and reading the state (see chute_int.h). */
#include "chute_int.h"

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
  if ((st = chute_grow_scratch(w, gc_nlist_npairs(c->nl)))) {
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
  chute_mark_walls(c, w);
  /* The list's order (as at its build).  A format-6 file's particles are already in it; a
   * format-5 file's are in the order of their placement, and are renumbered as at a build */
  const double *x0 = gc_nlist_build_positions(c->nl);
  chute_particle_order(c, w, x0 ? x0 : c->sx);
  if (chute_renumber_particles(c, w, 0) || chute_index_list(c, w)) {
    snprintf(msg, msglen, "%s: the neighbour list in the checkpoint is not in this build's "
             "order of the particles (a checkpoint of another granucal build?)", path);
    st = GC_EFORMAT;
    goto done;
  }
  if ((st = chute_grow_gather(c, w))) {
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
