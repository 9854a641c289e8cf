/* gc_outputs.c - the output guard and the output directory lock (gc_outputs.h). */
#include "gc_outputs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "gc_io.h"
#include "gc_model.h"

/* ---------------------------------------------------------------- the plan */

void gc_outplan_init(gc_outplan *p)
{
  memset(p, 0, sizeof *p);
}

void gc_outplan_free(gc_outplan *p)
{
  for (size_t i = 0; i < p->nout; i++) {
    free(p->out[i].path);
    free(p->out[i].name);
  }
  for (size_t i = 0; i < p->nin; i++)
    free(p->in[i].path);
  free(p->out);
  free(p->in);
  memset(p, 0, sizeof *p);
}

static int is_stdio(const char *p)
{
  return !p || !*p || strcmp(p, "-") == 0;
}

static gc_outplan_out *out_add(gc_outplan *p, const char *path, const char *name, int is_dir,
                               long *idx)
{
  if (idx)
    *idx = -1;
  if (p->nout == p->capout) {
    size_t cap = p->capout ? 2 * p->capout : 16;
    gc_outplan_out *o = realloc(p->out, cap * sizeof *o);
    if (!o) {
      p->nomem = 1;
      return NULL;
    }
    p->out = o;
    p->capout = cap;
  }
  gc_outplan_out *o = &p->out[p->nout];
  o->path = strdup(path);
  o->name = name ? strdup(name) : NULL;
  o->is_dir = is_dir;
  if (!o->path || (name && !o->name)) {
    free(o->path);
    free(o->name);
    p->nomem = 1;
    return NULL;
  }
  if (idx)
    *idx = (long)p->nout;
  p->nout++;
  return o;
}

void gc_outplan_file(gc_outplan *p, const char *path, long *idx)
{
  if (idx)
    *idx = -1;
  if (!is_stdio(path))
    out_add(p, path, NULL, 0, idx);
}

void gc_outplan_dir(gc_outplan *p, const char *dir)
{
  if (is_stdio(dir))
    return;
  out_add(p, dir, NULL, 1, NULL);
  out_add(p, dir, GC_DIRLOCK_NAME, 0, NULL);
}

void gc_outplan_dir_file(gc_outplan *p, const char *dir, const char *name, long *idx)
{
  if (idx)
    *idx = -1;
  if (!is_stdio(dir))
    out_add(p, dir, name, 0, idx);
}

void gc_outplan_input(gc_outplan *p, const char *path, long spare)
{
  if (is_stdio(path))
    return;
  if (p->nin == p->capin) {
    size_t cap = p->capin ? 2 * p->capin : 16;
    gc_outplan_in *in = realloc(p->in, cap * sizeof *in);
    if (!in) {
      p->nomem = 1;
      return;
    }
    p->in = in;
    p->capin = cap;
  }
  if (!(p->in[p->nin].path = strdup(path))) {
    p->nomem = 1;
    return;
  }
  p->in[p->nin++].spare = spare;
}

/* ---------------------------------------------------------------- names of numbered files */

/* Length of the printf integer conversion at fmt ('%', flags, width, length, d/i/u), or 0. */
static size_t int_conversion(const char *fmt)
{
  if (fmt[0] != '%')
    return 0;
  size_t k = 1 + strspn(fmt + 1, "-+ #0");
  k += strspn(fmt + k, "0123456789");
  k += strspn(fmt + k, "hlzjt");
  return fmt[k] == 'd' || fmt[k] == 'i' || fmt[k] == 'u' ? k + 1 : 0;
}

static int has_conversion(const char *fmt)
{
  for (const char *c = strchr(fmt, '%'); c; c = strchr(c + 1, '%'))
    if (int_conversion(c))
      return 1;
  return 0;
}

int gc_name_matches_format(const char *fmt, const char *name)
{
  while (*fmt) {
    size_t k = int_conversion(fmt);
    if (k) {
      size_t d = strspn(name, "0123456789");
      if (d == 0)
        return 0;
      /* the digits may be followed by more digits of the format's own text: try each split */
      for (size_t i = 1; i <= d; i++)
        if (gc_name_matches_format(fmt + k, name + i))
          return 1;
      return 0;
    }
    if (fmt[0] == '%' && fmt[1] == '%')
      fmt++;
    if (*fmt != *name)
      return 0;
    fmt++;
    name++;
  }
  return *name == 0;
}

/* ---------------------------------------------------------------- identities of paths */

/* The canonical absolute path of p: realpath when it exists, else (a new file, or a symbolic
 * link to one, which an output would create) the canonical path of its directory
 * (recursively) and its last name, "." and ".." taken as the file system does. */
static char *canon_depth(const char *p, int depth)
{
  char *r = realpath(p, NULL);
  if (r || errno == ENOMEM || depth > 40)
    return r;
  size_t len = strlen(p);
  while (len > 1 && p[len - 1] == '/')
    len--;
  const char *s = p + len;
  while (s > p && s[-1] != '/')
    s--;
  size_t bl = (size_t)(p + len - s);
  if (bl == 0)
    return NULL;
  char *dir = s == p ? strdup(".") : strndup(p, (size_t)(s - p));
  char *parent = dir ? canon_depth(dir, depth + 1) : NULL;
  free(dir);
  if (!parent)
    return NULL;
  if (bl == 1 && s[0] == '.')
    return parent;
  if (bl == 2 && s[0] == '.' && s[1] == '.') {
    char *slash = strrchr(parent, '/');
    if (slash)
      slash[slash == parent ? 1 : 0] = 0;
    return parent;
  }
  size_t pl = strlen(parent);
  char *full = malloc(pl + bl + 2);
  if (full)
    snprintf(full, pl + bl + 2, "%s%s%.*s", parent, strcmp(parent, "/") ? "/" : "", (int)bl, s);
  free(parent);
  /* a link to a missing file: the file it would make */
  char target[4096];
  ssize_t tl = full ? readlink(full, target, sizeof target - 1) : -1;
  if (tl > 0) {
    target[tl] = 0;
    char *slash = strrchr(full, '/');
    size_t dl = target[0] == '/' ? 0 : (size_t)(slash - full) + 1;
    char *next = malloc(dl + (size_t)tl + 1);
    if (next) {
      memcpy(next, full, dl);
      memcpy(next + dl, target, (size_t)tl + 1);
    }
    free(full);
    full = next ? canon_depth(next, depth + 1) : NULL;
    free(next);
  }
  return full;
}

static char *canon_path(const char *p)
{
  return canon_depth(p, 0);
}

/* A file's identity: device and inode when it exists; its canonical path; its directory's. */
typedef struct {
  int exists, chr;
  dev_t dev;
  ino_t ino;
  char *canon;      /* canonical path */
  const char *base; /* its last name (in canon) */
  int dir_exists;
  dev_t ddev;
  ino_t dino;
  char *dir_canon;
} path_id;

static void path_id_free(path_id *id)
{
  free(id->canon);
  free(id->dir_canon);
  memset(id, 0, sizeof *id);
}

static int path_id_get(const char *p, path_id *id)
{
  memset(id, 0, sizeof *id);
  struct stat sb;
  if (stat(p, &sb) == 0) {
    id->exists = 1;
    id->chr = S_ISCHR(sb.st_mode);
    id->dev = sb.st_dev;
    id->ino = sb.st_ino;
  }
  if (!(id->canon = canon_path(p)))
    return GC_ENOMEM;
  char *slash = strrchr(id->canon, '/');
  id->base = slash ? slash + 1 : id->canon;
  id->dir_canon = slash ? strndup(id->canon, slash == id->canon ? 1 : (size_t)(slash - id->canon))
                        : strdup(".");
  if (!id->dir_canon) {
    path_id_free(id);
    return GC_ENOMEM;
  }
  if (stat(id->dir_canon, &sb) == 0) {
    id->dir_exists = 1;
    id->ddev = sb.st_dev;
    id->dino = sb.st_ino;
  }
  return GC_SUCCESS;
}

static int path_id_same(const path_id *a, const path_id *b)
{
  if (a->chr || b->chr)
    return 0;
  if (a->exists && b->exists)
    return a->dev == b->dev && a->ino == b->ino;
  if (a->exists || b->exists)
    return 0;
  return strcmp(a->canon, b->canon) == 0;
}

/* Is the file a (by its canonical path) in the directory d? */
static int in_directory(const path_id *a, const path_id *d)
{
  if (a->dir_exists && d->exists)
    return a->ddev == d->dev && a->dino == d->ino;
  return !a->dir_exists && !d->exists && strcmp(a->dir_canon, d->canon) == 0;
}

/* ---------------------------------------------------------------- the check */

typedef struct {
  char *shown;  /* the path as the command will write it */
  size_t entry; /* its entry in the plan */
  path_id id;
} concrete;

typedef struct {
  concrete *c;
  size_t n, cap;
} concretes;

static int concrete_add(concretes *cs, const char *dir, const char *name, size_t entry)
{
  if (cs->n == cs->cap) {
    size_t cap = cs->cap ? 2 * cs->cap : 32;
    concrete *c = realloc(cs->c, cap * sizeof *c);
    if (!c)
      return GC_ENOMEM;
    cs->c = c;
    cs->cap = cap;
  }
  concrete *c = &cs->c[cs->n];
  size_t l = strlen(dir) + (name ? strlen(name) : 0) + 2;
  if (!(c->shown = malloc(l)))
    return GC_ENOMEM;
  if (name)
    snprintf(c->shown, l, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", name);
  else
    snprintf(c->shown, l, "%s", dir);
  c->entry = entry;
  if (path_id_get(c->shown, &c->id)) {
    free(c->shown);
    return GC_ENOMEM;
  }
  cs->n++;
  return GC_SUCCESS;
}

/* Every file of the plan that has one name now: the files, the fixed names in directories,
 * the directories, and the files already in a directory that a numbered name matches (one may
 * be a link to an input). */
static int expand(const gc_outplan *p, concretes *cs)
{
  int st = GC_SUCCESS;
  for (size_t i = 0; i < p->nout && !st; i++) {
    const gc_outplan_out *o = &p->out[i];
    if (!o->name || !has_conversion(o->name)) {
      st = concrete_add(cs, o->path, o->name, i);
      continue;
    }
    DIR *d = opendir(o->path);
    struct dirent *e;
    while (d && !st && (e = readdir(d)))
      if (gc_name_matches_format(o->name, e->d_name))
        st = concrete_add(cs, o->path, e->d_name, i);
    if (d)
      closedir(d);
  }
  return st;
}

static int clash_file(const concrete *a, const concrete *b, const gc_outplan *p, char *msg,
                      size_t n)
{
  int da = p->out[a->entry].is_dir, db = p->out[b->entry].is_dir;
  if (da && db)
    snprintf(msg, n, "output directories %s and %s are the same directory", b->shown, a->shown);
  else if (da || db)
    snprintf(msg, n, "output %s is the output directory %s: the two are the same path",
             da ? b->shown : a->shown, da ? a->shown : b->shown);
  else
    snprintf(msg, n, "outputs %s and %s are the same file", b->shown, a->shown);
  return GC_EINVAL;
}

static int check(const gc_outplan *p, const path_id *ins, const concretes *cs, char *msg, size_t n)
{
  /* each output that has a name now against the inputs and the outputs before it */
  for (size_t i = 0; i < cs->n; i++) {
    const concrete *c = &cs->c[i];
    for (size_t j = 0; j < p->nin; j++)
      if (p->in[j].spare != (long)c->entry && path_id_same(&c->id, &ins[j])) {
        snprintf(msg, n, "output %s is the input %s: refusing to overwrite an input", c->shown,
                 p->in[j].path);
        return GC_EINVAL;
      }
    for (size_t k = 0; k < i; k++)
      if (cs->c[k].entry != c->entry && path_id_same(&c->id, &cs->c[k].id))
        return clash_file(c, &cs->c[k], p, msg, n);
  }
  /* numbered names: an input, or a file output, in the directory under such a name */
  for (size_t e = 0; e < p->nout; e++) {
    const gc_outplan_out *o = &p->out[e];
    if (!o->name || !has_conversion(o->name))
      continue;
    path_id d;
    if (path_id_get(o->path, &d)) {
      snprintf(msg, n, "out of memory");
      return GC_ENOMEM;
    }
    int st = GC_SUCCESS;
    for (size_t j = 0; j < p->nin && !st; j++)
      if (p->in[j].spare != (long)e && in_directory(&ins[j], &d) &&
          gc_name_matches_format(o->name, ins[j].base)) {
        snprintf(msg, n, "output %s/%s is the input %s: refusing to overwrite an input", o->path,
                 ins[j].base, p->in[j].path);
        st = GC_EINVAL;
      }
    for (size_t i = 0; i < cs->n && !st; i++) {
      const concrete *c = &cs->c[i];
      if (c->entry != e && !p->out[c->entry].is_dir && in_directory(&c->id, &d) &&
          gc_name_matches_format(o->name, c->id.base)) {
        snprintf(msg, n, "outputs %s and %s/%s are the same file", c->shown, o->path, c->id.base);
        st = GC_EINVAL;
      }
    }
    path_id_free(&d);
    if (st)
      return st;
  }
  return GC_SUCCESS;
}

int gc_outplan_check(const gc_outplan *p, char *msg, size_t n)
{
  if (p->nomem) {
    snprintf(msg, n, "out of memory");
    return GC_ENOMEM;
  }
  path_id *ins = calloc(p->nin ? p->nin : 1, sizeof *ins);
  concretes cs = { NULL, 0, 0 };
  int st = ins ? GC_SUCCESS : GC_ENOMEM;
  for (size_t j = 0; j < p->nin && !st; j++)
    st = path_id_get(p->in[j].path, &ins[j]);
  if (!st)
    st = expand(p, &cs);
  if (st)
    snprintf(msg, n, "out of memory");
  else
    st = check(p, ins, &cs, msg, n);
  for (size_t i = 0; i < cs.n; i++) {
    free(cs.c[i].shown);
    path_id_free(&cs.c[i].id);
  }
  free(cs.c);
  for (size_t j = 0; ins && j < p->nin; j++)
    path_id_free(&ins[j]);
  free(ins);
  return st;
}

int gc_outputs_check(const char *const *outs, size_t nouts, const char *const *ins, size_t nins,
                     char *msg, size_t n)
{
  gc_outplan p;
  gc_outplan_init(&p);
  for (size_t i = 0; i < nouts; i++)
    gc_outplan_file(&p, outs[i], NULL);
  for (size_t j = 0; j < nins; j++)
    gc_outplan_input(&p, ins[j], -1);
  int st = gc_outplan_check(&p, msg, n);
  gc_outplan_free(&p);
  return st;
}

/* ---------------------------------------------------------------- the directory lock */

int gc_dirlock_acquire(gc_dirlock *l, const char *dir, char *msg, size_t n)
{
  l->fd = -1;
  l->slot = -1;
  size_t len = strlen(dir) + sizeof GC_DIRLOCK_NAME + 1;
  if (!(l->path = malloc(len))) {
    snprintf(msg, n, "out of memory");
    return GC_ENOMEM;
  }
  snprintf(l->path, len, "%s/%s", dir, GC_DIRLOCK_NAME);
  /* a holder removes the file before it lets go, so the file locked here may be one that is
   * no longer in the directory: then lock the new one */
  for (int tries = 0; tries < 1000; tries++) {
    int fd = open(l->path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
    if (fd < 0) {
      snprintf(msg, n, "%s: cannot make the lock file %s: %s", dir, GC_DIRLOCK_NAME,
               strerror(errno));
      break;
    }
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    if (fcntl(fd, F_SETLK, &fl) != 0) {
      int err = errno;
      if (err == EACCES || err == EAGAIN) {
        struct flock q;
        memset(&q, 0, sizeof q);
        q.l_type = F_WRLCK;
        q.l_whence = SEEK_SET;
        int got = fcntl(fd, F_GETLK, &q) == 0 && q.l_type != F_UNLCK;
        close(fd);
        if (!got)
          continue; /* let go in between */
        snprintf(msg, n,
                 "%s: another granucal (pid %ld) is writing this directory: refusing to "
                 "mix the files of two runs; wait for it to end or choose another "
                 "directory",
                 dir, (long)q.l_pid);
        free(l->path);
        l->path = NULL;
        return GC_EINVAL;
      }
      close(fd);
      snprintf(msg, n, "%s: cannot lock %s: %s", dir, GC_DIRLOCK_NAME, strerror(err));
      break;
    }
    struct stat a, b;
    if (fstat(fd, &a) == 0 && stat(l->path, &b) == 0 && a.st_dev == b.st_dev &&
        a.st_ino == b.st_ino) {
      l->fd = fd;
      l->slot = gc_signal_unlink_add(l->path);
      return GC_SUCCESS;
    }
    close(fd);
    if (tries == 999)
      snprintf(msg, n, "%s: cannot lock %s: it keeps being replaced", dir, GC_DIRLOCK_NAME);
  }
  free(l->path);
  l->path = NULL;
  return GC_EIO;
}

void gc_dirlock_release(gc_dirlock *l)
{
  if (l->fd >= 0) {
    gc_signal_unlink_remove(l->slot);
    unlink(l->path); /* still locked: no other run holds this file */
    close(l->fd);
  }
  free(l->path);
  l->path = NULL;
  l->fd = -1;
  l->slot = -1;
}
