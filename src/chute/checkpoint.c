/* checkpoint.c - checkpoints: writing and reading the state (see chute_int.h). */
#include "chute_int.h"

/* ---------- checkpoint ---------- */

#define CKPT_MAGIC "GCCHUTE\n"
/* The file: magic, format version, the header, the state blocks (ckpt_blocks), the neighbour
 * list, the outputs' record of the run (a length and the bytes, opaque here), "END\n", then the
 * CRC-32 (zlib) of every byte before it.  Any single flipped bit, a truncation or a file from a
 * build with another state layout is refused with a message.
 * Format 9 writes the header as text, one "key = value" line per quantity (a length, then the
 * lines): the writer's version, the byte order and the state layout as named sizes, the
 * configuration (counts, geometry, time step, the sub-models by name) and the contact
 * parameters pp, pw, pb by the names of the parameter table (models/params.c).  A parameter the
 * file lacks has the table's default (gc_params_default): a file written before a parameter
 * existed stays readable.  A key this build does not know is refused with its name.
 * Formats 5 to 8 are read: a binary info record (version, byte order, layout) and the
 * binary header ckpt_head (6: the particle numbers after the torques, id = index before;
 * 7: the list's drift frame after the wall records, none before; 8: the outputs' record). */
#define CKPT_VERSION 9u
#define CKPT_TEXT_VERSION 9u /* the first format with the text header */
#define CKPT_TEXT_MAX ((uint32_t)1 << 20)
#define CKPT_RECORD_MAX ((uint64_t)1 << 40)

typedef struct {
  uint64_t np, nsph, nbeads, ns, nwall;
  uint64_t nhist;       /* doubles of contact-law history per contact */
  uint32_t hist_layout; /* GC_HIST_LAYOUT_VERSION of the models that wrote it */
  uint32_t hist_kinds;  /* GC_NKINDS */
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

/* The rows of format ver: formats 5 to 8 also have the sizes of the binary header and of the
 * structs it holds, which format 9 writes as text. */
static size_t ckpt_layout_fill(ckpt_layout *l, uint32_t ver)
{
  size_t n = 0;
  const int binary = ver < CKPT_TEXT_VERSION;
#define LAYOUT(nm, v)                                                                              \
  (snprintf(l[n].name, sizeof l[n].name, "%s", nm), l[n++].value = (uint64_t)(v))
  if (binary)
    LAYOUT("ckpt_head", sizeof(ckpt_head));
  LAYOUT("gc_chute_contact", sizeof(gc_chute_contact)); /* + the law's history block */
  LAYOUT("hist_layout", GC_HIST_LAYOUT_VERSION);        /* the models' history layout */
  LAYOUT("hist_kinds", GC_NKINDS);
  if (binary) {
    LAYOUT("gc_params", sizeof(gc_params));
    LAYOUT("gc_shape", sizeof(gc_shape));
  }
  LAYOUT("gc_rot", sizeof(gc_rot));
  LAYOUT("double", sizeof(double));
  LAYOUT("long", sizeof(long));
  LAYOUT("size_t", sizeof(size_t));
#undef LAYOUT
  return n;
}
enum { CKPT_LAYOUT_MAX = 32 };

typedef struct {
  char version[32]; /* granucal version that wrote the file */
  uint32_t bom;     /* CKPT_BOM in the writer's byte order */
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

/* ---------- the text header (format 9) ---------- */

enum { HK_U64, HK_U32, HK_I32, HK_DBL, HK_STR };
typedef struct {
  const char *key;
  int type;
  size_t offset, size;
  const char *unit;
} head_key;
#define HK(k, t, f, u)                                                                             \
  {                                                                                                \
    k, t, offsetof(ckpt_head, f), sizeof(((ckpt_head *)0)->f), u                                   \
  }
static const head_key head_keys[] = {
  HK("n_particles", HK_U64, np, NULL),
  HK("spheres_per_particle", HK_U64, nsph, NULL),
  HK("n_beads", HK_U64, nbeads, NULL),
  HK("n_spheres", HK_U64, ns, NULL),
  HK("wall_records", HK_U64, nwall, "per sphere"),
  HK("history_doubles", HK_U64, nhist, "per contact"),
  HK("history_layout", HK_U32, hist_layout, NULL),
  HK("history_kinds", HK_U32, hist_kinds, NULL),
  HK("length", HK_DBL, length, "m"),
  HK("width", HK_DBL, width, "m"),
  HK("fill_height", HK_DBL, fill_height, "m"),
  HK("angle", HK_DBL, angle, "rad"),
  HK("gravity", HK_DBL, gravity, "m/s^2"),
  HK("bead_radius", HK_DBL, bead_radius, "m"),
  HK("bead_spacing", HK_DBL, bead_spacing, "m"),
  HK("dt", HK_DBL, dt, "s"),
  HK("skin", HK_DBL, skin, "m"),
  HK("bead_coverage", HK_DBL, bead_coverage, NULL),
  HK("bottom_seed", HK_U64, bottom_seed, NULL),
  HK("bottom", HK_I32, bottom, "GC_BOTTOM_*"),
  HK("side_walls", HK_I32, side_walls, NULL),
  HK("keep_history", HK_I32, keep_history, NULL),
  HK("rolling_correction", HK_I32, rolling, NULL),
  HK("normal", HK_STR, nfd, "sub-model"),
  HK("tangential", HK_STR, tfd, "sub-model, empty: frictionless"),
  HK("rolling", HK_STR, rolling_model, "sub-model"),
  HK("twisting", HK_STR, twisting_model, "sub-model"),
};
#undef HK
enum { NHEAD_KEYS = sizeof head_keys / sizeof head_keys[0], HEAD_LINES_MAX = 1024 };
/* the shape: its sphere count, then every double of gc_shape by name */
enum { SHAPE_DOUBLES = 3 * GC_SHAPE_MAX_SPHERES + GC_SHAPE_MAX_SPHERES + 1 + 3 + 1 };
static const char *const pair_names[3] = { "pp", "pw", "pb" };

static gc_params *head_pair(ckpt_head *h, int k)
{
  return k == 0 ? &h->pp : k == 1 ? &h->pw : &h->pb;
}

/* Name and address of double i of the shape (SHAPE_DOUBLES of them). */
static double *shape_double(gc_shape *s, size_t i, char *name, size_t n)
{
  const size_t M = GC_SHAPE_MAX_SPHERES;
  if (i < 3 * M) {
    snprintf(name, n, "shape.pos.%zu.%c", i / 3, "xyz"[i % 3]);
    return &s->pos[i / 3][i % 3];
  }
  i -= 3 * M;
  if (i < M) {
    snprintf(name, n, "shape.radius.%zu", i);
    return &s->radius[i];
  }
  i -= M;
  if (i == 0) {
    snprintf(name, n, "shape.mass");
    return &s->mass;
  }
  if (i < 4) {
    snprintf(name, n, "shape.inertia.%c", "xyz"[i - 1]);
    return &s->inertia[i - 1];
  }
  snprintf(name, n, "shape.bound_radius");
  return &s->bound_radius;
}

static const char *byte_order(void)
{
  const uint32_t bom = CKPT_BOM;
  unsigned char b[4];
  memcpy(b, &bom, 4);
  return b[0] == 0x04 ? "little" : b[0] == 0x01 ? "big" : "other";
}

/* The header of h as text, "key = value" lines (numbers to 17 digits: they read back to the
 * bit). */
static void head_text_write(const ckpt_head *h, FILE *m)
{
  fprintf(m, "granucal = %s\nbyte_order = %s\n", GC_VERSION, byte_order());
  ckpt_layout l[CKPT_LAYOUT_MAX];
  size_t nl = ckpt_layout_fill(l, CKPT_VERSION);
  for (size_t i = 0; i < nl; i++)
    fprintf(m, "layout.%s = %llu\n", l[i].name, (unsigned long long)l[i].value);
  for (size_t i = 0; i < NHEAD_KEYS; i++) {
    const head_key *k = &head_keys[i];
    const char *at = (const char *)h + k->offset;
    fprintf(m, "%s = ", k->key);
    if (k->type == HK_U64) {
      uint64_t v;
      memcpy(&v, at, sizeof v);
      fprintf(m, "%llu", (unsigned long long)v);
    } else if (k->type == HK_U32 || k->type == HK_I32) {
      int32_t v;
      memcpy(&v, at, sizeof v);
      fprintf(m, k->type == HK_U32 ? "%lu" : "%ld",
              k->type == HK_U32 ? (unsigned long)(uint32_t)v : (unsigned long)(long)v);
    } else if (k->type == HK_DBL) {
      double v;
      memcpy(&v, at, sizeof v);
      fprintf(m, "%.17g", v);
    } else {
      fprintf(m, "%.*s", (int)k->size, at);
    }
    fprintf(m, k->unit ? "  # [%s]\n" : "\n", k->unit);
  }
  gc_shape s = h->shape;
  fprintf(m, "shape.nsph = %zu\n", s.nsph);
  char name[64];
  for (size_t i = 0; i < SHAPE_DOUBLES; i++) {
    double *v = shape_double(&s, i, name, sizeof name);
    fprintf(m, "%s = %.17g\n", name, *v);
  }
  for (int k = 0; k < 3; k++)
    for (int id = 0; id < GC_NPAR; id++) {
      const gc_param_def *d = gc_param_def_at((gc_param_id)id);
      fprintf(m, "%s.%s = %.17g  # [%s]\n", pair_names[k], d->name,
              gc_param_get(head_pair((ckpt_head *)h, k), (gc_param_id)id), d->unit);
    }
}

/* One value of the text header into h (key known: 1, unknown: 0, bad value: -1). */
static int head_text_value(ckpt_head *h, const char *key, const char *val)
{
  char *end;
  errno = 0;
  for (size_t i = 0; i < NHEAD_KEYS; i++) {
    const head_key *k = &head_keys[i];
    if (strcmp(k->key, key))
      continue;
    char *at = (char *)h + k->offset;
    if (k->type == HK_STR) {
      if (strlen(val) >= k->size)
        return -1;
      memset(at, 0, k->size);
      memcpy(at, val, strlen(val));
      return 1;
    }
    if (k->type == HK_DBL) {
      double v = strtod(val, &end);
      memcpy(at, &v, sizeof v);
    } else if (k->type == HK_U64) {
      uint64_t v = strtoull(val, &end, 10);
      memcpy(at, &v, sizeof v);
    } else {
      long v = strtol(val, &end, 10);
      int32_t w = (int32_t)v;
      if (v != (long)w && !(k->type == HK_U32 && v == (long)(uint32_t)w))
        return -1;
      memcpy(at, &w, sizeof w);
    }
    return *val && !*end && !errno ? 1 : -1;
  }
  if (!strcmp(key, "shape.nsph")) {
    unsigned long long v = strtoull(val, &end, 10);
    h->shape.nsph = (size_t)v;
    return *val && !*end && !errno && v <= GC_SHAPE_MAX_SPHERES ? 1 : -1;
  }
  char name[64];
  for (size_t i = 0; i < SHAPE_DOUBLES; i++) {
    double *v = shape_double(&h->shape, i, name, sizeof name);
    if (!strcmp(name, key)) {
      *v = strtod(val, &end);
      return *val && !*end && !errno ? 1 : -1;
    }
  }
  for (int k = 0; k < 3; k++) {
    size_t pl = strlen(pair_names[k]);
    if (strncmp(key, pair_names[k], pl) || key[pl] != '.')
      continue;
    const gc_param_def *d = gc_param_lookup(key + pl + 1);
    if (!d || strcmp(d->name, key + pl + 1))
      return 0;
    double v = strtod(val, &end);
    gc_param_put(head_pair(h, k), gc_param_id_of(d), v);
    return *val && !*end && !errno && (!d->is_int || v == (double)(int)v) ? 1 : -1;
  }
  return 0;
}

/* Split text (NUL-terminated, modified) into its next "key = value" line: 0 at the end,
 * -1 for a line without "=" (comments after '#' and blanks are skipped). */
static int head_text_line(char **text, char **key, char **val, size_t *line)
{
  while (**text) {
    char *s = *text, *nl = strchr(s, '\n');
    *text = nl ? nl + 1 : s + strlen(s);
    if (nl)
      *nl = 0;
    ++*line;
    char *hash = strchr(s, '#');
    if (hash)
      *hash = 0;
    while (*s == ' ')
      s++;
    if (!*s)
      continue;
    char *eq = strchr(s, '=');
    if (!eq)
      return -1;
    char *ke = eq;
    while (ke > s && ke[-1] == ' ')
      ke--;
    *ke = 0;
    char *v = eq + 1;
    while (*v == ' ')
      v++;
    char *ve = v + strlen(v);
    while (ve > v && ve[-1] == ' ')
      ve--;
    *ve = 0;
    *key = s;
    *val = v;
    return 1;
  }
  return 0;
}

/* The writer's version from the text header of len bytes (into ver, "unknown" if absent). */
static void head_text_version(const char *text, char *ver, size_t n)
{
  char *key, *val, *copy = strdup(text), *t = copy;
  size_t line = 0;
  int r;
  snprintf(ver, n, "unknown");
  while (t && (r = head_text_line(&t, &key, &val, &line)) != 0)
    if (r > 0 && !strcmp(key, "granucal")) {
      snprintf(ver, n, "%s", val);
      break;
    }
  free(copy);
}

/* The text header into h and the writer's version ver: every configuration key is required,
 * a contact parameter the file lacks has the table's default; an unknown key, a bad value, a
 * key twice, another byte order or state layout are refused naming them. */
static int head_text_read(char *text, ckpt_head *h, char *ver, size_t vn, const char *path,
                          char *msg, size_t msglen)
{
  memset(h, 0, sizeof *h);
  gc_params_default(&h->pp);
  h->pw = h->pb = h->pp;
  head_text_version(text, ver, vn);
  ckpt_layout mine[CKPT_LAYOUT_MAX];
  size_t nmine = ckpt_layout_fill(mine, CKPT_VERSION), nlayout = 0;
  unsigned char seen[NHEAD_KEYS] = { 0 };
  char *keys[HEAD_LINES_MAX]; /* the keys so far, each at most once */
  char *key, *val, *t = text;
  size_t line = 0, nseen_shape = 0, nkeys = 0;
  int r;
  while ((r = head_text_line(&t, &key, &val, &line)) != 0) {
    if (r < 0) {
      snprintf(msg, msglen, "%s: checkpoint header line %zu has no '='", path, line);
      return GC_EFORMAT;
    }
    for (size_t i = 0; i < nkeys; i++)
      if (!strcmp(keys[i], key)) {
        snprintf(msg, msglen, "%s: checkpoint header line %zu: %s twice", path, line, key);
        return GC_EFORMAT;
      }
    if (nkeys == HEAD_LINES_MAX) {
      snprintf(msg, msglen, "%s: checkpoint header has more than %d lines", path, HEAD_LINES_MAX);
      return GC_EFORMAT;
    }
    keys[nkeys++] = key;
    if (!strcmp(key, "granucal"))
      continue;
    if (!strcmp(key, "byte_order")) {
      if (strcmp(val, byte_order())) {
        snprintf(msg, msglen,
                 "%s: checkpoint written on a machine of another byte order "
                 "(%s, here %s)",
                 path, val, byte_order());
        return GC_EFORMAT;
      }
      continue;
    }
    if (!strncmp(key, "layout.", 7)) {
      size_t i = 0;
      while (i < nmine && strcmp(mine[i].name, key + 7))
        i++;
      unsigned long long v = strtoull(val, NULL, 10);
      if (i == nmine || v != mine[i].value) {
        snprintf(msg, msglen,
                 "%s: checkpoint of granucal %s has another state layout: %s = "
                 "%s in the file, %llu in this granucal (%s): it cannot continue it",
                 path, ver, key, val, i == nmine ? 0ULL : (unsigned long long)mine[i].value,
                 GC_VERSION);
        return GC_EFORMAT;
      }
      nlayout++;
      continue;
    }
    int known = head_text_value(h, key, val);
    if (known == 0) {
      snprintf(msg, msglen,
               "%s: checkpoint of granucal %s has the key %s, which this granucal "
               "(%s) does not know: continue the run with the granucal that wrote it",
               path, ver, key, GC_VERSION);
      return GC_EFORMAT;
    }
    if (known < 0) {
      snprintf(msg, msglen, "%s: checkpoint header line %zu: %s = %s is not a valid value", path,
               line, key, val);
      return GC_EFORMAT;
    }
    for (size_t i = 0; i < NHEAD_KEYS; i++)
      seen[i] |= !strcmp(head_keys[i].key, key);
    nseen_shape += !strcmp(key, "shape.nsph");
  }
  if (nlayout != nmine) {
    snprintf(msg, msglen,
             "%s: checkpoint of granucal %s has %zu state-layout entries, this "
             "granucal (%s) %zu: it cannot continue it",
             path, ver, nlayout, GC_VERSION, nmine);
    return GC_EFORMAT;
  }
  for (size_t i = 0; i < NHEAD_KEYS; i++)
    if (!seen[i]) {
      snprintf(msg, msglen, "%s: checkpoint header lacks %s", path, head_keys[i].key);
      return GC_EFORMAT;
    }
  if (nseen_shape != 1) {
    snprintf(msg, msglen, "%s: checkpoint header lacks shape.nsph", path);
    return GC_EFORMAT;
  }
  return GC_SUCCESS;
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
  char *text = NULL;
  size_t tlen = 0;
  FILE *tm = open_memstream(&text, &tlen);
  if (tm)
    head_text_write(&h, tm);
  if (!tm || fclose(tm) != 0 || tlen > CKPT_TEXT_MAX) {
    free(text);
    fclose(m);
    free(buf);
    snprintf(msg, msglen, "%s: cannot build the checkpoint (out of memory)", path);
    return GC_ENOMEM;
  }
  uint32_t ver = CKPT_VERSION, tl = (uint32_t)tlen;
  ckpt_blk b[16];
  size_t nb = ckpt_blocks((gc_chute *)c, b, CKPT_VERSION);
  int ok = fwrite(CKPT_MAGIC, 1, 8, m) == 8 && fwrite(&ver, sizeof ver, 1, m) == 1 &&
           fwrite(&tl, sizeof tl, 1, m) == 1 && fwrite(text, 1, tlen, m) == tlen;
  free(text);
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
  snprintf(msg, n,
           "%s: checkpoint is from a different configuration: %s = %.17g in the file, "
           "%.17g here",
           path, what, a, b);
  return GC_EINVAL;
}

/* The header of a file of format 5 to 8: the binary info record and ckpt_head. */
static int head_binary_read(FILE *f, uint32_t ver, ckpt_head *h, const char *path, char *msg,
                            size_t msglen)
{
  uint32_t ilen = 0;
  ckpt_info info, myinfo;
  if (ver < 5) {
    snprintf(msg, msglen,
             "%s: checkpoint format version %u, this granucal (%s) reads versions 5 "
             "to %u",
             path, (unsigned)ver, GC_VERSION, CKPT_VERSION);
    return GC_EFORMAT;
  }
  if (fread(&ilen, sizeof ilen, 1, f) != 1 || ilen != sizeof info ||
      fread(&info, sizeof info, 1, f) != 1) {
    snprintf(msg, msglen,
             "%s: checkpoint written by another build (info record of %u bytes, "
             "%zu here)",
             path, (unsigned)ilen, sizeof info);
    return GC_EFORMAT;
  }
  info.version[sizeof info.version - 1] = 0;
  if (info.bom != CKPT_BOM) {
    snprintf(msg, msglen, "%s: checkpoint written on a machine of another byte order", path);
    return GC_EFORMAT;
  }
  memset(&myinfo, 0, sizeof myinfo);
  myinfo.nlayout = (uint32_t)ckpt_layout_fill(myinfo.layout, ver);
  if (info.nlayout != myinfo.nlayout) {
    snprintf(msg, msglen,
             "%s: checkpoint of granucal %s has %u state-layout entries, this "
             "granucal (%s) %u: it cannot continue it",
             path, info.version, (unsigned)info.nlayout, GC_VERSION, (unsigned)myinfo.nlayout);
    return GC_EFORMAT;
  }
  for (uint32_t i = 0; i < myinfo.nlayout; i++)
    if (strncmp(info.layout[i].name, myinfo.layout[i].name, sizeof info.layout[i].name) ||
        info.layout[i].value != myinfo.layout[i].value) {
      snprintf(msg, msglen,
               "%s: checkpoint of granucal %s has another state layout: %.23s = "
               "%llu in the file, %.23s = %llu in this granucal (%s): it cannot continue it",
               path, info.version, info.layout[i].name, (unsigned long long)info.layout[i].value,
               myinfo.layout[i].name, (unsigned long long)myinfo.layout[i].value, GC_VERSION);
      return GC_EFORMAT;
    }
  if (fread(h, sizeof *h, 1, f) != 1) {
    snprintf(msg, msglen, "%s: truncated checkpoint header", path);
    return GC_EFORMAT;
  }
  return GC_SUCCESS;
}

/* The text header of a file of format 9 or later (len bytes in all); a later format is refused
 * naming the version of granucal that wrote it. */
static int head_read(FILE *f, size_t len, uint32_t ver, ckpt_head *h, const char *path, char *msg,
                     size_t msglen)
{
  uint32_t tlen = 0;
  if (fread(&tlen, sizeof tlen, 1, f) != 1 || tlen > CKPT_TEXT_MAX || tlen > len) {
    snprintf(msg, msglen, "%s: truncated checkpoint header", path);
    return GC_EFORMAT;
  }
  char *text = malloc((size_t)tlen + 1);
  if (!text) {
    snprintf(msg, msglen, "%s: out of memory", path);
    return GC_ENOMEM;
  }
  int st = GC_SUCCESS;
  char writer[64];
  if (fread(text, 1, tlen, f) != tlen) {
    snprintf(msg, msglen, "%s: truncated checkpoint header", path);
    st = GC_EFORMAT;
  } else if ((text[tlen] = 0, strlen(text) != tlen)) {
    snprintf(msg, msglen, "%s: checkpoint header holds a NUL byte", path);
    st = GC_EFORMAT;
  } else if (ver > CKPT_VERSION) {
    head_text_version(text, writer, sizeof writer);
    snprintf(msg, msglen,
             "%s: checkpoint format version %u written by granucal %s; this "
             "granucal (%s) reads versions 5 to %u: continue the run with granucal %s or later",
             path, (unsigned)ver, writer, GC_VERSION, CKPT_VERSION, writer);
    st = GC_EFORMAT;
  } else {
    st = head_text_read(text, h, writer, sizeof writer, path, msg, msglen);
  }
  free(text);
  return st;
}

/* The file's header h against this run's, mine: GC_EFORMAT for another contact-history layout,
 * GC_EINVAL for another configuration, with a message naming the quantity. */
static int head_compare(const ckpt_head *hp, const ckpt_head *mp, const char *path, char *msg,
                        size_t msglen)
{
  const ckpt_head h = *hp, mine = *mp;
  if (h.hist_layout != mine.hist_layout || h.hist_kinds != mine.hist_kinds ||
      h.nhist != mine.nhist) {
    snprintf(msg, msglen,
             "%s: the contact-history layout differs: %llu doubles per contact "
             "(layout version %u, %u kinds) in the file, %llu (layout version %u, %u kinds) "
             "here; restart the run from its start",
             path, (unsigned long long)h.nhist, (unsigned)h.hist_layout, (unsigned)h.hist_kinds,
             (unsigned long long)mine.nhist, (unsigned)mine.hist_layout, (unsigned)mine.hist_kinds);
    return GC_EFORMAT;
  }
#define CK(field, name)                                                                            \
  if (h.field != mine.field)                                                                       \
    return ckpt_mismatch(msg, msglen, path, name, (double)h.field, (double)mine.field);
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
    snprintf(msg, msglen,
             "%s: checkpoint is from a different configuration: models %.31s/%.31s "
             "in the file, %.31s/%.31s here",
             path, h.nfd, h.tfd, mine.nfd, mine.tfd);
    return GC_EINVAL;
  }
  if (strncmp(h.rolling_model, mine.rolling_model, sizeof h.rolling_model) ||
      strncmp(h.twisting_model, mine.twisting_model, sizeof h.twisting_model)) {
    snprintf(msg, msglen,
             "%s: checkpoint is from a different configuration: rolling / twisting "
             "models %.31s/%.31s in the file, %.31s/%.31s here",
             path, h.rolling_model, h.twisting_model, mine.rolling_model, mine.twisting_model);
    return GC_EINVAL;
  }
  if (memcmp(&h.shape, &mine.shape, sizeof h.shape)) {
    snprintf(msg, msglen,
             "%s: checkpoint is from a different configuration: the particle shape "
             "(sphere positions, radii, mass or inertia) differs",
             path);
    return GC_EINVAL;
  }
  const char *pn[3] = { "pp (particle-particle)", "pw (particle-wall)", "pb (particle-bottom)" };
  for (int k = 0; k < 3; k++)
    for (int id = 0; id < GC_NPAR; id++) {
      double a = gc_param_get(head_pair((ckpt_head *)hp, k), (gc_param_id)id);
      double b = gc_param_get(head_pair((ckpt_head *)mp, k), (gc_param_id)id);
      if (memcmp(&a, &b, sizeof a)) {
        snprintf(msg, msglen,
                 "%s: checkpoint is from a different configuration: the contact "
                 "parameters %s differ: %s = %.17g in the file, %.17g here",
                 path, pn[k], gc_param_def_at((gc_param_id)id)->name, a, b);
        return GC_EINVAL;
      }
    }
  return GC_SUCCESS;
}

/* The magic and the CRC-32 of the whole image of len bytes in f (positioned at its start,
 * left after the magic): GC_EFORMAT for another file, a damaged or a truncated copy. */
static int ckpt_check_crc(FILE *f, size_t len, const char *path, char *msg, size_t msglen)
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
    snprintf(msg, msglen,
             "%s: checkpoint is corrupt: CRC-32 %08lx of the contents, %08lx "
             "recorded (a damaged or truncated copy; use an intact checkpoint)",
             path, (unsigned long)(uint32_t)crc, (unsigned long)stored);
    return GC_EFORMAT;
  }
  return GC_SUCCESS;
}

/* The outputs' record of a checkpoint of len bytes (format 8 on), into *rec (malloc'd; NULL
 * if empty) and *reclen, or skipped if rec is NULL. */
static int ckpt_read_record(FILE *f, size_t len, const char *path, void **rec, size_t *reclen,
                            char *msg, size_t msglen)
{
  uint64_t rl;
  long at = ftell(f);
  if (fread(&rl, sizeof rl, 1, f) != 1 || at < 0 || rl > CKPT_RECORD_MAX ||
      rl > (uint64_t)len - (uint64_t)at) {
    snprintf(msg, msglen, "%s: truncated checkpoint (the outputs' record)", path);
    return GC_EFORMAT;
  }
  void *r = NULL;
  if (rl && rec) {
    if (!(r = malloc((size_t)rl))) {
      snprintf(msg, msglen, "%s: out of memory (the outputs' record)", path);
      return GC_ENOMEM;
    }
    if (fread(r, 1, (size_t)rl, f) != (size_t)rl) {
      free(r);
      snprintf(msg, msglen, "%s: truncated checkpoint (the outputs' record)", path);
      return GC_EFORMAT;
    }
  } else if (rl && fseek(f, (long)rl, SEEK_CUR) != 0) {
    snprintf(msg, msglen, "%s: truncated checkpoint (the outputs' record)", path);
    return GC_EFORMAT;
  }
  if (rec) {
    *rec = r;
    *reclen = (size_t)rl;
  }
  return GC_SUCCESS;
}

/* The state read from a checkpoint of format ver checked: time and step, finite positions,
 * velocities and drift frame (none before format 7), the particle numbers (their indices
 * before format 6). */
static int ckpt_check_state(gc_chute *c, uint32_t ver, const char *path, char *msg, size_t msglen)
{
  chute_work *w = c->work;
  if (!(c->step >= 0) || !isfinite(c->t) ||
      fabs(c->t - (double)c->step * c->cfg.dt) > 1e-6 * fmax(c->t, c->cfg.dt)) {
    snprintf(msg, msglen, "%s: checkpoint time t = %g s does not match step %ld of dt = %g s", path,
             c->t, c->step, c->cfg.dt);
    return GC_EFORMAT;
  }
  for (size_t k = 0; k < 3 * c->np; k++)
    if (!isfinite(c->x[k]) || !isfinite(c->v[k])) {
      snprintf(msg, msglen, "%s: checkpoint holds a non-finite position or velocity", path);
      return GC_EFORMAT;
    }
  if (ver < 7) /* the list was built without a drift frame */
    for (int a = 0; a < 3; a++)
      w->drift_v[a] = w->drift[a] = 0.0;
  for (int a = 0; a < 3; a++)
    if (!isfinite(w->drift_v[a]) || !isfinite(w->drift[a])) {
      snprintf(msg, msglen, "%s: the neighbour list's drift frame is not finite (corrupt file)",
               path);
      return GC_EFORMAT;
    }
  if (ver < 6)
    for (size_t p = 0; p < c->np; p++)
      c->id[p] = p;
  int st = check_ids(c);
  if (st)
    snprintf(msg, msglen,
             "%s: the particle numbers in the checkpoint are not a permutation or "
             "do not match its neighbour list (corrupt file)",
             path);
  return st;
}

/* The derived state of a checkpoint read: the angular velocities in space, the wall marks,
 * the particles in the list's order and the gather scratch. */
static int ckpt_restore_order(gc_chute *c, const char *path, char *msg, size_t msglen)
{
  chute_work *w = c->work;
  for (size_t p = 0; p < c->np; p++)
    gc_rot_omega_space(&c->rot[p], w->wsp + 3 * p);
  chute_mark_walls(c, w);
  /* The list's order (as at its build).  A format-6 file's particles are already in it; a
   * format-5 file's are in the order of their placement, and are renumbered as at a build */
  const double *x0 = gc_nlist_build_positions(c->nl);
  chute_particle_order(c, w, x0 ? x0 : c->sx);
  if (chute_renumber_particles(c, w, 0) || chute_index_list(c, w)) {
    snprintf(msg, msglen,
             "%s: the neighbour list in the checkpoint is not in this build's "
             "order of the particles (a checkpoint of another granucal build?)",
             path);
    return GC_EFORMAT;
  }
  int st = chute_grow_gather(c, w);
  if (st)
    snprintf(msg, msglen, "%s: out of memory (gathering the pairs of a particle)", path);
  return st;
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
  int st = ckpt_check_crc(f, len, path, msg, msglen);
  if (st)
    return st;
  uint32_t ver = 0;
  ckpt_head h, mine;
  int reading = 0;
  if (fread(&ver, sizeof ver, 1, f) != 1) {
    snprintf(msg, msglen, "%s: truncated checkpoint", path);
    return GC_EFORMAT;
  }
  if ((st = ver < CKPT_TEXT_VERSION ? head_binary_read(f, ver, &h, path, msg, msglen)
                                    : head_read(f, len, ver, &h, path, msg, msglen)))
    return st;
  ckpt_fill(c, &mine);
  if ((st = head_compare(&h, &mine, path, msg, msglen)))
    goto done;
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
  if (ver >= 8 && (st = ckpt_read_record(f, len, path, rec, reclen, msg, msglen)))
    goto done;
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
  if ((st = ckpt_check_state(c, ver, path, msg, msglen)))
    goto done;
  if ((st = ckpt_restore_order(c, path, msg, msglen)))
    goto done;
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
