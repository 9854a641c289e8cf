/* gc_io.c - CSV tables (libcsv), material cards and atomic output files. */
#include "gc_io.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <sys/types.h>
#include <unistd.h>

#include <csv.h>

/* ---------------------------------------------------------------- numbers */

int gc_parse_double(const char *s, double *v)
{
  char *end;
  while (isspace((unsigned char)*s))
    s++;
  if (!*s)
    return -1;
  errno = 0;
  double x = strtod(s, &end);
  while (isspace((unsigned char)*end))
    end++;
  if (*end || errno == ERANGE || !isfinite(x))
    return -1;
  *v = x;
  return 0;
}

/* ---------------------------------------------------------------- CSV tables */

typedef struct {
  gc_table *t;
  const char *path;
  size_t lineno;
  size_t field;     /* fields seen in the current record */
  int header_done;
  int err;
  char *msg;
  size_t msglen;
  size_t cap;       /* rows allocated */
  double *row;      /* current row being filled */
  int lenient;      /* gc_table_read_lenient */
} csv_ctx;

static char *trim_dup(const char *s, size_t len)
{
  while (len && isspace((unsigned char)*s)) {
    s++;
    len--;
  }
  while (len && isspace((unsigned char)s[len - 1]))
    len--;
  char *d = malloc(len + 1);
  if (d) {
    memcpy(d, s, len);
    d[len] = 0;
  }
  return d;
}

static void on_field(void *data, size_t len, void *vctx)
{
  csv_ctx *c = vctx;
  if (c->err)
    return;
  gc_table *t = c->t;
  const char *s = data ? data : "";
  if (!c->header_done) {
    char **nn = realloc(t->names, (t->ncols + 1) * sizeof *nn);
    char **uu = nn ? realloc(t->units, (t->ncols + 1) * sizeof *uu) : NULL;
    if (nn)
      t->names = nn;
    if (uu)
      t->units = uu;
    char *full = trim_dup(s, len);
    if (!nn || !uu || !full) {
      free(full);
      c->err = GC_ENOMEM;
      snprintf(c->msg, c->msglen, "%s: out of memory", c->path);
      return;
    }
    /* "alpha [m]" -> name "alpha", unit "m" */
    char *br = strchr(full, '[');
    char *unit = NULL;
    if (br) {
      char *close = strchr(br, ']');
      unit = trim_dup(br + 1, close ? (size_t)(close - br - 1) : strlen(br + 1));
      *br = 0;
    }
    char *name = trim_dup(full, strlen(full));
    free(full);
    if (!unit)
      unit = trim_dup("", 0);
    if (!name || !unit) {
      free(name);
      free(unit);
      c->err = GC_ENOMEM;
      snprintf(c->msg, c->msglen, "%s: out of memory", c->path);
      return;
    }
    t->names[t->ncols] = name;
    t->units[t->ncols] = unit;
    t->ncols++;
    if (!*name) {
      c->err = GC_EFORMAT;
      snprintf(c->msg, c->msglen, "%s:%zu:%zu: empty column name in the header", c->path,
               c->lineno, t->ncols);
    }
    return;
  }
  c->field++;
  if (c->field > t->ncols) {
    c->err = GC_EFORMAT;
    snprintf(c->msg, c->msglen, "%s:%zu:%zu: more fields than the %zu columns of the header",
             c->path, c->lineno, c->field, t->ncols);
    return;
  }
  char buf[128];
  size_t l = len < sizeof buf - 1 ? len : sizeof buf - 1;
  memcpy(buf, s, l);
  buf[l] = 0;
  double v;
  if ((len >= sizeof buf - 1 || gc_parse_double(buf, &v)) && c->lenient && t->bad_line) {
    size_t k = c->field - 1;
    if (!t->bad_line[k]) {
      t->bad_line[k] = c->lineno;
      t->bad_text[k] = strdup(buf);
    }
    c->row[k] = NAN;
    return;
  }
  if (len >= sizeof buf - 1 || gc_parse_double(buf, &v)) {
    c->err = GC_EFORMAT;
    snprintf(c->msg, c->msglen, "%s:%zu:%zu: column '%s': '%s' is not a finite number%s", c->path,
             c->lineno, c->field, t->names[c->field - 1], buf,
             t->delim == ';' && strchr(buf, ',') ? " (a decimal comma? granucal reads a decimal "
                                                   "point: export with '.' as decimal separator)"
                                                 : "");
    return;
  }
  c->row[c->field - 1] = v;
}

static void on_record(int term, void *vctx)
{
  (void)term;
  csv_ctx *c = vctx;
  if (c->err)
    return;
  gc_table *t = c->t;
  if (!c->header_done) {
    c->header_done = 1;
    t->header_line = c->lineno;
    c->row = calloc(t->ncols ? t->ncols : 1, sizeof *c->row);
    if (c->lenient) {
      t->bad_line = calloc(t->ncols ? t->ncols : 1, sizeof *t->bad_line);
      t->bad_text = calloc(t->ncols ? t->ncols : 1, sizeof *t->bad_text);
    }
    if (!c->row || (c->lenient && (!t->bad_line || !t->bad_text))) {
      c->err = GC_ENOMEM;
      snprintf(c->msg, c->msglen, "%s: out of memory", c->path);
    }
    return;
  }
  if (c->field != t->ncols) {
    c->err = GC_EFORMAT;
    snprintf(c->msg, c->msglen, "%s:%zu:%zu: row has %zu fields, the header has %zu columns",
             c->path, c->lineno, c->field + 1, c->field, t->ncols);
    return;
  }
  if (t->nrows == c->cap) {
    size_t cap = c->cap ? 2 * c->cap : 64;
    double *v = realloc(t->v, cap * t->ncols * sizeof *v);
    if (v)
      t->v = v;
    size_t *ln = v ? realloc(t->line, cap * sizeof *ln) : NULL;
    if (ln)
      t->line = ln;
    if (!v || !ln) {
      c->err = GC_ENOMEM;
      snprintf(c->msg, c->msglen, "%s: out of memory", c->path);
      return;
    }
    c->cap = cap;
  }
  memcpy(t->v + t->nrows * t->ncols, c->row, t->ncols * sizeof *c->row);
  t->line[t->nrows] = c->lineno;
  t->nrows++;
  c->field = 0;
}

static int table_read(const char *path, gc_table *t, int lenient, char *msg, size_t msglen);

int gc_table_read(const char *path, gc_table *t, char *msg, size_t msglen)
{
  return table_read(path, t, 0, msg, msglen);
}

int gc_table_read_lenient(const char *path, gc_table *t, char *msg, size_t msglen)
{
  return table_read(path, t, 1, msg, msglen);
}

int gc_table_check_col(const gc_table *t, const char *path, int col, char *msg, size_t msglen)
{
  if (!t->bad_line || col < 0 || (size_t)col >= t->ncols || !t->bad_line[col])
    return GC_SUCCESS;
  const char *b = t->bad_text[col] ? t->bad_text[col] : "";
  snprintf(msg, msglen, "%s:%zu:%d: column '%s': '%s' is not a finite number%s", path,
           t->bad_line[col], col + 1, t->names[col], b,
           t->delim == ';' && strchr(b, ',') ? " (a decimal comma? granucal reads a decimal "
                                               "point: export with '.' as decimal separator)"
                                             : "");
  return GC_EFORMAT;
}

static int table_read(const char *path, gc_table *t, int lenient, char *msg, size_t msglen)
{
  memset(t, 0, sizeof *t);
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(msg, msglen, "%s: cannot open: %s", path, strerror(errno));
    return GC_EIO;
  }
  struct csv_parser p;
  if (csv_init(&p, CSV_APPEND_NULL) != 0) {
    fclose(f);
    snprintf(msg, msglen, "%s: cannot initialise the CSV parser", path);
    return GC_ENOMEM;
  }
  csv_ctx c = { .t = t, .path = path, .msg = msg, .msglen = msglen, .lenient = lenient };
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  /* Feed libcsv one physical line at a time so that errors carry the line number; comment
   * and blank lines never reach the parser. */
  while (!c.err && (len = getline(&line, &cap, f)) != -1) {
    c.lineno++;
    const char *q = line;
    while (*q == ' ' || *q == '\t')
      q++;
    if (*q == '#' || *q == '\n' || *q == '\r' || *q == 0)
      continue;
    if (!c.header_done && !t->delim) {
      /* a spreadsheet's semicolon- or tab-separated export: detected from a header without
       * commas (the callers say so) */
      t->delim = ',';
      if (!strchr(line, ',') && (strchr(line, ';') || strchr(line, '\t'))) {
        t->delim = strchr(line, ';') ? ';' : '\t';
        csv_set_delim(&p, (unsigned char)t->delim);
      }
    }
    c.field = 0;
    if (csv_parse(&p, line, (size_t)len, on_field, on_record, &c) != (size_t)len && !c.err) {
      c.err = GC_EFORMAT;
      snprintf(msg, msglen, "%s:%zu: CSV syntax error: %s", path, c.lineno,
               csv_strerror(csv_error(&p)));
    }
    if (!c.err)
      csv_fini(&p, on_field, on_record, &c);
  }
  free(line);
  int rerr = ferror(f);
  fclose(f);
  csv_free(&p);
  free(c.row);
  if (!c.err && rerr) {
    c.err = GC_EIO;
    snprintf(msg, msglen, "%s: read error", path);
  }
  if (!c.err && !c.header_done) {
    c.err = GC_EFORMAT;
    snprintf(msg, msglen, "%s:1:1: empty file: a header line naming the columns is required", path);
  }
  if (!c.err && t->nrows == 0) {
    c.err = GC_EFORMAT;
    snprintf(msg, msglen, "%s:%zu:1: no data rows after the header", path, c.lineno);
  }
  if (c.err)
    gc_table_free(t);
  return c.err;
}

int gc_table_col(const gc_table *t, const char *name)
{
  for (size_t i = 0; i < t->ncols; i++)
    if (strcmp(t->names[i], name) == 0)
      return (int)i;
  return -1;
}

double gc_table_get(const gc_table *t, size_t row, size_t col) { return t->v[row * t->ncols + col]; }

void gc_table_free(gc_table *t)
{
  for (size_t i = 0; i < t->ncols; i++) {
    if (t->names)
      free(t->names[i]);
    if (t->units)
      free(t->units[i]);
  }
  for (size_t i = 0; t->bad_text && i < t->ncols; i++)
    free(t->bad_text[i]);
  free(t->bad_text);
  free(t->bad_line);
  free(t->names);
  free(t->units);
  free(t->v);
  free(t->line);
  memset(t, 0, sizeof *t);
}

/* ---------------------------------------------------------------- cards */

void gc_card_extra_default(gc_card_extra *x) { memset(x, 0, sizeof *x); }

static int set_fail(char *msg, size_t n, const char *key, const char *value, const char *why)
{
  snprintf(msg, n, "parameter '%s': '%s' %s", key, value, why);
  return GC_EFORMAT;
}

int gc_param_set(gc_params *p, gc_card_extra *x, const char *key, const char *value, char *msg,
                 size_t n)
{
  double v;
  if (strcmp(key, "model") == 0 || strcmp(key, "tfd") == 0) {
    char *dst = key[0] == 'm' ? x->nfd : x->tfd;
    if (strlen(value) >= sizeof x->nfd || !*value)
      return set_fail(msg, n, key, value, "is not a model name");
    strcpy(dst, value);
    return GC_SUCCESS;
  }
  if (strcmp(key, "reload") == 0) {
    if (strcmp(value, "continuous") == 0)
      p->reload = GC_RELOAD_CONTINUOUS;
    else if (strcmp(value, "literal") == 0)
      p->reload = GC_RELOAD_LITERAL;
    else
      return set_fail(msg, n, key, value, "must be 'continuous' or 'literal'");
    return GC_SUCCESS;
  }
  if (gc_parse_double(value, &v))
    return set_fail(msg, n, key, value, "is not a finite number");
  if (strcmp(key, "tfd_transitions") == 0) {
    if (v != 0 && v != 1)
      return set_fail(msg, n, key, value, "must be 0 or 1");
    p->tfd_transitions = (int)v;
    return GC_SUCCESS;
  }
  if (strcmp(key, "tension") == 0) {
    if (v != 0 && v != 1)
      return set_fail(msg, n, key, value, "must be 0 (clipped) or 1 (allowed)");
    p->tension = (int)v;
    return GC_SUCCESS;
  }
  if (strcmp(key, "rho") == 0) {
    if (!(v > 0))
      return set_fail(msg, n, key, value, "out of range (0, inf) kg/m^3");
    x->rho = v;
    return GC_SUCCESS;
  }
  if (strcmp(key, "m") == 0 || strcmp(key, "mass") == 0 || strcmp(key, "m2") == 0) {
    if (!(v > 0))
      return set_fail(msg, n, key, value, "out of range (0, inf) kg");
    *(strcmp(key, "m2") == 0 ? &x->mass2 : &x->mass) = v;
    return GC_SUCCESS;
  }
  /* the numeric keys of the parameter table (models/params.c), range-checked by the table:
   * the same check and message as every sub-model's (gc_law_init) */
  const gc_param_def *d = gc_param_lookup(key);
  if (d && !d->is_int) {
    gc_param_id id = gc_param_id_of(d);
    gc_params q = *p;
    gc_param_put(&q, id, v);
    if (gc_param_check(&q, id, msg, n))
      return GC_EINVAL;
    gc_param_put(p, id, v);
    return GC_SUCCESS;
  }
  snprintf(msg, n, "unknown parameter '%s' (see 'granucal contact --help' for the keys)", key);
  return GC_EFORMAT;
}

void gc_card_print_keys(FILE *f)
{
  for (int i = 0; i < GC_NPAR; i++) {
    const gc_param_def *d = gc_param_def_at((gc_param_id)i);
    if (d->is_int)
      continue;
    char r[64];
    gc_param_range_text((gc_param_id)i, r, sizeof r);
    fprintf(f, "  %-16s [%s] %s; %s%s%s%s (%s)\n", d->key, d->unit, d->help, r,
            d->range_note ? ", " : "", d->range_note ? d->range_note : "", "", d->equation);
  }
  fprintf(f, "  %-16s [kg/m^3] density of sphere 1\n", "rho");
  fprintf(f, "  %-16s [kg] mass of sphere 1 (overrides rho)\n", "m");
  fprintf(f, "  %-16s [kg] mass of sphere 2 (default: rho and R2)\n", "m2");
  fprintf(f, "  %-16s continuous (default) | literal: EP reloading rule\n", "reload");
  fprintf(f, "  %-16s 1 (default) | 0: VQZ varying-P transitions on/off\n", "tfd_transitions");
  fprintf(f, "  %-16s 0 (default) | 1: damping force clipped at 0 | may pull (tension)\n",
          "tension");
  fprintf(f, "  %-16s normal model name;  tfd: tangential model name\n", "model");
}

int gc_kv_read(const char *path, gc_kv_fn fn, void *ctx, char *msg, size_t n)
{
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(msg, n, "%s: cannot open: %s", path, strerror(errno));
    return GC_EIO;
  }
  char *line = NULL;
  size_t cap = 0, lineno = 0;
  int st = GC_SUCCESS;
  while (!st && getline(&line, &cap, f) != -1) {
    lineno++;
    char *hash = strchr(line, '#');
    if (hash)
      *hash = 0;
    char *s = line;
    while (isspace((unsigned char)*s))
      s++;
    if (!*s)
      continue;
    size_t kcol = (size_t)(s - line) + 1;
    char *eq = strchr(s, '=');
    if (!eq) {
      snprintf(msg, n, "%s:%zu:%zu: expected 'key = value'", path, lineno, kcol);
      st = GC_EFORMAT;
      break;
    }
    char *kend = eq;
    while (kend > s && isspace((unsigned char)kend[-1]))
      kend--;
    *kend = 0;
    if (!*s) {
      snprintf(msg, n, "%s:%zu:%zu: missing key before '='", path, lineno, kcol);
      st = GC_EFORMAT;
      break;
    }
    char *val = eq + 1;
    while (isspace((unsigned char)*val))
      val++;
    size_t vcol = (size_t)(val - line) + 1;
    char *vend = val + strlen(val);
    while (vend > val && isspace((unsigned char)vend[-1]))
      vend--;
    *vend = 0;
    st = fn(ctx, s, val, lineno, kcol, vcol, msg, n);
  }
  free(line);
  if (!st && ferror(f)) {
    snprintf(msg, n, "%s: read error", path);
    st = GC_EIO;
  }
  fclose(f);
  return st;
}

typedef struct {
  const char *path;
  gc_params *p;
  gc_card_extra *x;
} card_ctx;

static int card_line(void *vp, const char *key, const char *value, size_t line, size_t kcol,
                     size_t vcol, char *msg, size_t n)
{
  card_ctx *c = vp;
  char sub[256];
  if (gc_param_set(c->p, c->x, key, value, sub, sizeof sub)) {
    snprintf(msg, n, "%s:%zu:%zu: %s", c->path, line, strstr(sub, "unknown") ? kcol : vcol, sub);
    return GC_EFORMAT;
  }
  return GC_SUCCESS;
}

int gc_card_read(const char *path, gc_params *p, gc_card_extra *x, char *msg, size_t n)
{
  card_ctx c = { path, p, x };
  return gc_kv_read(path, card_line, &c, msg, n);
}

int gc_card_write(FILE *f, const gc_params *p, const gc_card_extra *x)
{
  if (x && x->nfd[0])
    fprintf(f, "model = %s\n", x->nfd);
  if (x && x->tfd[0])
    fprintf(f, "tfd = %s\n", x->tfd);
  for (int i = 0; i < GC_NPAR; i++) {
    const gc_param_def *d = gc_param_def_at((gc_param_id)i);
    double v = gc_param_get(p, (gc_param_id)i);
    /* a 0 outside the range is "not given" (an omitted key reads back as 0) */
    if (!d->is_int && (v != 0.0 || gc_param_in_range((gc_param_id)i, v)))
      fprintf(f, "%-6s = %.17g  # [%s] %s\n", d->key, v, d->unit, d->help);
  }
  if (x && x->rho > 0)
    fprintf(f, "rho    = %.17g  # [kg/m^3]\n", x->rho);
  if (x && x->mass > 0)
    fprintf(f, "m      = %.17g  # [kg]\n", x->mass);
  if (x && x->mass2 > 0)
    fprintf(f, "m2     = %.17g  # [kg]\n", x->mass2);
  fprintf(f, "reload = %s\n", p->reload == GC_RELOAD_LITERAL ? "literal" : "continuous");
  fprintf(f, "tfd_transitions = %d\n", p->tfd_transitions);
  if (p->tension) /* written only when set, so that the cards written before stay the same */
    fprintf(f, "tension = %d\n", p->tension);
  return ferror(f) ? GC_EIO : GC_SUCCESS;
}

/* ---------------------------------------------------------------- atomic output */

int gc_outfile_open(gc_outfile *o, const char *path, char *msg, size_t n)
{
  memset(o, 0, sizeof *o);
  if (!path || strcmp(path, "-") == 0) {
    o->f = stdout;
    return GC_SUCCESS;
  }
  size_t len = strlen(path);
  o->path = malloc(len + 1);
  o->tmp = malloc(len + 16);
  if (!o->path || !o->tmp) {
    free(o->path);
    free(o->tmp);
    snprintf(msg, n, "%s: out of memory", path);
    return GC_ENOMEM;
  }
  memcpy(o->path, path, len + 1);
  snprintf(o->tmp, len + 16, "%s.tmp%ld", path, (long)getpid());
  o->f = fopen(o->tmp, "w");
  if (!o->f) {
    snprintf(msg, n, "%s: cannot write: %s", path, strerror(errno));
    free(o->path);
    free(o->tmp);
    o->path = o->tmp = NULL;
    return GC_EIO;
  }
  return GC_SUCCESS;
}

int gc_outfile_commit(gc_outfile *o, char *msg, size_t n)
{
  if (!o->path) {
    if (fflush(stdout) != 0) {
      snprintf(msg, n, "standard output: write error");
      return GC_EIO;
    }
    return GC_SUCCESS;
  }
  int bad = ferror(o->f);
  if (fclose(o->f) != 0)
    bad = 1;
  o->f = NULL;
  if (bad || rename(o->tmp, o->path) != 0) {
    snprintf(msg, n, "%s: write error: %s", o->path, strerror(errno));
    remove(o->tmp);
    free(o->path);
    free(o->tmp);
    o->path = o->tmp = NULL;
    return GC_EIO;
  }
  free(o->path);
  free(o->tmp);
  o->path = o->tmp = NULL;
  return GC_SUCCESS;
}

void gc_outfile_abort(gc_outfile *o)
{
  if (o->path) {
    if (o->f)
      fclose(o->f);
    remove(o->tmp);
    free(o->path);
    free(o->tmp);
  }
  memset(o, 0, sizeof *o);
}
