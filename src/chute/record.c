/* record.c - the outputs' record of a run kept in its checkpoints, and the resume from it. */
#include "chute_out_int.h"

/* ================================================================ the record in checkpoints */

/* The record of the outputs in a checkpoint (format 8, chute.h), in this machine's layout (the
 * checkpoint's own checks cover it): RECORD_MAGIC, the step, the physics keys (text), the series
 * (last row's step, bytes and CRC-32 of series.csv, the (t, vx) of the steady-state test), the
 * profiles (what decides their samples, the last step of the window, the frames and the grids'
 * sums) and the force statistics (likewise, the counts and the histogram). */
#define RECORD_MAGIC "GCREC01\n"

/* what decides the profiles' samples up to a step, besides the window's last step */
static size_t profile_signature(const gc_chute_out *o, double *sig)
{
  size_t k = 0;
  sig[k++] = (double)o->prof_first;
  sig[k++] = (double)o->k_prof;
  for (int i = 0; i < NPROF; i++) {
    const profile *p = &o->prof[i];
    const gsl_histogram2d *h = p->n;
    double v[] = { (double)h->nx, (double)h->ny,    h->xrange[0],  h->xrange[h->nx],
                   h->yrange[0],  h->yrange[h->ny], p->zlo,        p->zhi,
                   p->ylo,        p->yhi,           p->both_walls, p->top };
    for (size_t j = 0; j < sizeof v / sizeof *v; j++)
      sig[k++] = v[j];
  }
  return k;
}
enum { PROFILE_SIG_MAX = 2 + 12 * NPROF, FORCE_SIG = 3 };

static void force_signature(const gc_chute_out *o, double *sig)
{
  sig[0] = (double)o->force_first;
  sig[1] = (double)gsl_histogram_bins(o->hist);
  sig[2] = o->run.forces_max;
}

static int record_build(const gc_chute_out *o, const gc_chute *c, char **buf, size_t *len)
{
  FILE *m = open_memstream(buf, len);
  if (!m)
    return GC_ENOMEM;
  int ok = 1;
#define PUT(ptr, size) (ok = ok && fwrite((ptr), 1, (size), m) == (size))
#define PUTV(v) PUT(&(v), sizeof(v))
  int64_t step = c->step, last = o->last_series_step, frames = o->frames;
  int64_t prof_last = o->prof_last, force_last = o->force_last;
  uint64_t pl = strlen(o->run.physics), sn = o->sn, nsig, nb;
  PUT(RECORD_MAGIC, 8);
  PUTV(step);
  PUTV(pl);
  PUT(o->run.physics, (size_t)pl);
  PUTV(last);
  PUTV(o->series_bytes);
  PUTV(o->series_crc);
  PUTV(sn);
  PUT(o->st, o->sn * sizeof *o->st);
  PUT(o->sv, o->sn * sizeof *o->sv);
  double sig[PROFILE_SIG_MAX];
  nsig = profile_signature(o, sig);
  PUTV(nsig);
  PUT(sig, (size_t)nsig * sizeof *sig);
  PUTV(prof_last);
  PUTV(frames);
  for (int i = 0; frames > 0 && i < NPROF; i++) {
    const gsl_histogram2d *h[4] = { o->prof[i].n, o->prof[i].v[0], o->prof[i].v[1],
                                    o->prof[i].v[2] };
    for (int d = 0; d < 4; d++)
      PUT(h[d]->bin, h[d]->nx * h[d]->ny * sizeof(double));
  }
  force_signature(o, sig);
  PUT(sig, FORCE_SIG * sizeof *sig);
  PUTV(force_last);
  uint64_t cnt[5] = { o->n_forces, o->n_over, o->n_le005, o->n_le01, o->force_steps_done };
  PUT(cnt, sizeof cnt);
  PUTV(o->P_over_max);
  nb = o->force_steps_done ? gsl_histogram_bins(o->hist) : 0;
  PUTV(nb);
  PUT(o->hist->bin, (size_t)nb * sizeof(double));
#undef PUTV
#undef PUT
  if (fclose(m) != 0)
    ok = 0;
  if (!ok) {
    free(*buf);
    *buf = NULL;
    return GC_ENOMEM;
  }
  return GC_SUCCESS;
}

/* series.csv, the profiles and the force statistics up to c on the disk, then the checkpoint
 * with their record: the checkpoint never describes more than the files hold */
int chute_out_checkpoint(gc_chute_out *o, const gc_chute *c, char *msg, size_t n)
{
  int st = chute_series_flush(o, msg, n);
  for (int i = 0; !st && i < NPROF; i++)
    st = chute_write_profile(o, &o->prof[i], c->t, msg, n);
  if (!st)
    st = chute_write_forces(o, c->t, msg, n);
  if (st)
    return st;
  char *rec = NULL, *path = chute_file_path(o->dir, GC_CHUTE_FILE_CHECKPOINT, 0);
  size_t len = 0;
  if (!path || record_build(o, c, &rec, &len)) {
    free(path);
    snprintf(msg, n, "out of memory");
    return GC_ENOMEM;
  }
  st = gc_chute_checkpoint_write_record(c, path, rec, len, msg, n);
  free(rec);
  free(path);
  /* the renames on the disk too */
  int fd = st ? -1 : open(o->dir, O_RDONLY);
  if (fd >= 0) {
    if (fsync(fd) != 0 && errno != EINVAL) {
      snprintf(msg, n, "%s: cannot sync the directory: %s", o->dir, strerror(errno));
      st = GC_EIO;
    }
    close(fd);
  }
  return st;
}

typedef struct {
  const unsigned char *p;
  size_t left;
} cursor;

static int take(cursor *c, void *dst, size_t size)
{
  if (size > c->left)
    return GC_EFORMAT;
  if (dst)
    memcpy(dst, c->p, size);
  c->p += size;
  c->left -= size;
  return GC_SUCCESS;
}

/* the record's magic, step and physics text */
static int record_head(cursor *cu, int64_t *step, const char **phys, size_t *plen)
{
  char magic[8];
  uint64_t pl;
  if (take(cu, magic, 8) || memcmp(magic, RECORD_MAGIC, 8) || take(cu, step, sizeof *step) ||
      take(cu, &pl, sizeof pl) || pl > cu->left)
    return GC_EFORMAT;
  *phys = (const char *)cu->p;
  *plen = (size_t)pl;
  return take(cu, NULL, (size_t)pl);
}

/* the value of key in "key = value" lines (len bytes), or NULL; *vl its length */
static const char *line_value(const char *text, size_t len, const char *key, size_t kl, size_t *vl)
{
  const char *e = text + len;
  for (const char *l = text; l < e;) {
    const char *nl = memchr(l, '\n', (size_t)(e - l));
    if (!nl)
      nl = e;
    if ((size_t)(nl - l) > kl + 3 && !memcmp(l, key, kl) && !memcmp(l + kl, " = ", 3)) {
      *vl = (size_t)(nl - l) - kl - 3;
      return l + kl + 3;
    }
    l = nl + 1;
  }
  return NULL;
}

int gc_chute_record_check(const gc_chute_run *run, const void *rec, size_t reclen,
                          const char *resume, char *msg, size_t n)
{
  if (!rec)
    return GC_SUCCESS; /* format 5 to 7: the header's checks only */
  cursor cu = { rec, reclen };
  int64_t step;
  const char *phys;
  size_t plen;
  if (record_head(&cu, &step, &phys, &plen)) {
    snprintf(msg, n, "%s: the checkpoint's record of its run is damaged", resume);
    return GC_EFORMAT;
  }
  /* every physics key of this run that the checkpoint's run also gave a value */
  const char *mine = run->physics, *e = mine + strlen(mine);
  for (const char *l = mine; l < e;) {
    const char *nl = strchr(l, '\n');
    const char *eq = strstr(l, " = ");
    if (!nl || !eq || eq > nl)
      break;
    size_t kl = (size_t)(eq - l), vl, ml = (size_t)(nl - eq) - 3;
    const char *v = line_value(phys, plen, l, kl, &vl);
    if (v && (vl != ml || memcmp(v, eq + 3, ml))) {
      snprintf(msg, n,
               "%s: checkpoint is from a different configuration: %.*s = %.*s in the "
               "checkpoint, %.*s here; %.*s is a key of the physics, which a resumed run keeps "
               "(only t_end, threads and the outputs may change): start the changed run from "
               "t = 0",
               resume, (int)kl, l, (int)vl, v, (int)ml, eq + 3, (int)kl, l);
      return GC_EINVAL;
    }
    l = nl + 1;
  }
  return GC_SUCCESS;
}

/* Copy the first bytes of the series.csv next to the checkpoint resume into the temporary:
 * 1 if it holds them (their CRC-32 is crc), 0 if not (missing, shorter, other contents). */
static int series_prefix(gc_chute_out *o, const char *resume, uint64_t bytes, uint32_t crc)
{
  const char *slash = strrchr(resume, '/');
  size_t dl = slash ? (size_t)(slash - resume) + 1 : 0;
  const char *name = gc_chute_file_name(GC_CHUTE_FILE_SERIES);
  char *src = malloc(dl + strlen(name) + 1);
  if (!src)
    return 0;
  memcpy(src, resume, dl);
  strcpy(src + dl, name);
  FILE *f = fopen(src, "rb");
  free(src);
  if (!f)
    return 0;
  if (fflush(o->series.f) != 0 || ftruncate(fileno(o->series.f), 0) != 0) {
    fclose(f);
    return 0;
  }
  rewind(o->series.f);
  o->series_bytes = 0;
  o->series_crc = (uint32_t)crc32(0L, Z_NULL, 0);
  char chunk[65536];
  uint64_t left = bytes;
  while (left) {
    size_t k = left < sizeof chunk ? (size_t)left : sizeof chunk;
    if (fread(chunk, 1, k, f) != k || chute_series_put(o, chunk, k))
      break;
    left -= k;
  }
  fclose(f);
  return !left && o->series_crc == crc;
}

int gc_chute_out_continue(gc_chute_out *o, const gc_chute *c, const void *rec, size_t reclen,
                          const char *resume, FILE *notes, char *msg, size_t n)
{
  if (!rec) {
    if (notes)
      fprintf(notes,
              "note: %s holds no record of its run (a checkpoint of an earlier granucal): "
              "series.csv, the profiles and the force statistics start at t = %.9g s\n",
              resume, c->t);
    return GC_SUCCESS;
  }
  cursor cu = { rec, reclen };
  const long s = c->step;
  int64_t step, last, frames, prof_last, force_last;
  const char *phys;
  size_t plen;
  uint64_t bytes, sn, nsig, nb, cnt[5];
  uint32_t crc;
  double P_over_max;
  int bad = record_head(&cu, &step, &phys, &plen) || step != s || take(&cu, &last, sizeof last) ||
            take(&cu, &bytes, sizeof bytes) || take(&cu, &crc, sizeof crc) ||
            take(&cu, &sn, sizeof sn) || sn > cu.left / (2 * sizeof(double));
  const unsigned char *tv = cu.p;
  bad = bad || take(&cu, NULL, 2 * (size_t)sn * sizeof(double));
  double sig[PROFILE_SIG_MAX], mine[PROFILE_SIG_MAX];
  bad = bad || take(&cu, &nsig, sizeof nsig) || nsig > PROFILE_SIG_MAX ||
        take(&cu, sig, (size_t)nsig * sizeof *sig) || take(&cu, &prof_last, sizeof prof_last) ||
        take(&cu, &frames, sizeof frames);
  if (bad) {
    snprintf(msg, n, "%s: the checkpoint's record of its run is damaged", resume);
    return GC_EFORMAT;
  }

  /* the series: the rows up to the checkpoint from the series.csv next to it */
  if (series_prefix(o, resume, bytes, crc)) {
    for (uint64_t i = 0; i < sn; i++) {
      if (chute_series_grow(o)) {
        snprintf(msg, n, "out of memory");
        return GC_ENOMEM;
      }
      memcpy(&o->st[o->sn], tv + i * sizeof(double), sizeof(double));
      memcpy(&o->sv[o->sn], tv + (sn + i) * sizeof(double), sizeof(double));
      o->sn++;
    }
    o->last_series_step = (long)last;
  } else {
    if (chute_series_restart(o)) {
      snprintf(msg, n, "%s: write error", o->series_path);
      return GC_EIO;
    }
    if (notes)
      fprintf(notes,
              "note: the series.csv next to %s does not hold the series of its run up to "
              "the checkpoint (missing or changed): series.csv starts at t = %.9g s\n",
              resume, c->t);
  }

  /* the profiles: continued if this run takes the same samples up to the checkpoint */
  size_t nmine = profile_signature(o, mine);
  int same = nsig == nmine && !memcmp(sig, mine, nmine * sizeof *sig) &&
             (prof_last < s ? prof_last : s) == (o->prof_last < s ? o->prof_last : s);
  for (int i = 0; !bad && frames > 0 && i < NPROF; i++) {
    gsl_histogram2d *h[4] = { o->prof[i].n, o->prof[i].v[0], o->prof[i].v[1], o->prof[i].v[2] };
    for (int d = 0; !bad && d < 4; d++) {
      size_t nbin = same ? h[d]->nx * h[d]->ny : 0;
      if (!same) { /* the sizes of the checkpoint's grids, from its signature */
        double nx = sig[2 + 12 * i], ny = sig[3 + 12 * i];
        bad = nsig != PROFILE_SIG_MAX || !(nx >= 1 && ny >= 1 && nx * ny <= 1e8);
        nbin = bad ? 0 : (size_t)nx * (size_t)ny;
      }
      bad = bad || take(&cu, same ? h[d]->bin : NULL, nbin * sizeof(double));
    }
  }
  if (!bad && same) {
    o->frames = (long)frames;
    o->prof_through = s;
  } else if (!bad && notes && o->prof_first < s && o->prof_first <= o->prof_last)
    fprintf(notes,
            "note: the profile window or grid is not that of the run of %s: the profiles "
            "average the frames from t = %.9g s on\n",
            resume, c->t);

  /* the force statistics: likewise */
  bad = bad || take(&cu, sig, FORCE_SIG * sizeof *sig) ||
        take(&cu, &force_last, sizeof force_last) || take(&cu, cnt, sizeof cnt) ||
        take(&cu, &P_over_max, sizeof P_over_max) || take(&cu, &nb, sizeof nb) ||
        nb > cu.left / sizeof(double);
  if (!bad) {
    force_signature(o, mine);
    same = !memcmp(sig, mine, FORCE_SIG * sizeof *sig) &&
           (force_last < s ? force_last : s) == (o->force_last < s ? o->force_last : s) &&
           (nb == 0 || nb == gsl_histogram_bins(o->hist));
    bad = take(&cu, same && nb ? o->hist->bin : NULL, (size_t)nb * sizeof(double)) || cu.left;
  }
  if (bad) {
    snprintf(msg, n, "%s: the checkpoint's record of its run is damaged", resume);
    return GC_EFORMAT;
  }
  if (same) {
    o->n_forces = cnt[0];
    o->n_over = cnt[1];
    o->n_le005 = cnt[2];
    o->n_le01 = cnt[3];
    o->force_steps_done = cnt[4];
    o->P_over_max = P_over_max;
    o->force_through = s;
  } else if (notes && o->force_first < s && o->force_first <= o->force_last)
    fprintf(notes,
            "note: the force window is not that of the run of %s: the force statistics "
            "count the steps from t = %.9g s on\n",
            resume, c->t);
  return GC_SUCCESS;
}
