/* gc_io.c - CSV tables (libcsv), material cards and atomic output files. */
#include "gc_io.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <csv.h>

/* ---------------------------------------------------------------- numbers */

/* One strict grammar for every number granucal reads (cards, CSV cells, command-line options):
 *   blanks* [+-] (digits [. digits*] | . digits) [(e|E) [+-] digits] blanks*
 * in the C locale.  strtod alone would also take hex floats, nan, inf and leading junk-free
 * prefixes; those are refused here (the man pages promise decimal numbers only). */
static int is_blank(int ch)
{
  return ch == ' ' || ch == '\t';
}

int gc_number_parse(const char *s, size_t len, double *v)
{
  if (memchr(s, 0, len))
    return GC_NUM_NUL;
  const char *p = s, *e = s + len;
  while (p < e && is_blank((unsigned char)*p))
    p++;
  while (e > p && is_blank((unsigned char)e[-1]))
    e--;
  if (p == e)
    return GC_NUM_EMPTY;
  const char *q = p;
  if (*q == '+' || *q == '-')
    q++;
  if (q + 1 < e && q[0] == '0' && (q[1] == 'x' || q[1] == 'X'))
    return GC_NUM_HEX;
  if (q < e && (*q == 'n' || *q == 'N' || *q == 'i' || *q == 'I'))
    return GC_NUM_NONFINITE;
  size_t nd = 0;
  while (q < e && isdigit((unsigned char)*q))
    q++, nd++;
  if (q < e && *q == '.') {
    q++;
    while (q < e && isdigit((unsigned char)*q))
      q++, nd++;
  }
  if (!nd)
    return GC_NUM_JUNK;
  if (q < e && (*q == 'e' || *q == 'E')) {
    q++;
    if (q < e && (*q == '+' || *q == '-'))
      q++;
    size_t ne = 0;
    while (q < e && isdigit((unsigned char)*q))
      q++, ne++;
    if (!ne)
      return GC_NUM_JUNK;
  }
  if (q != e)
    return GC_NUM_JUNK;
  char buf[256];
  size_t n = (size_t)(e - p);
  if (n >= sizeof buf)
    return GC_NUM_JUNK; /* no decimal number needs 255 characters */
  memcpy(buf, p, n);
  buf[n] = 0;
  errno = 0;
  double x = strtod(buf, NULL);
  if (errno == ERANGE || !isfinite(x))
    return GC_NUM_RANGE; /* overflow, or a nonzero value below the smallest normal double */
  *v = x;
  return GC_NUM_OK;
}

int gc_parse_double(const char *s, double *v)
{
  return gc_number_parse(s, strlen(s), v);
}

int gc_parse_long(const char *s, long lo, long hi, long *v)
{
  double x;
  int st = gc_parse_double(s, &x);
  if (st)
    return st;
  /* integers are written as integers: "40", "1e3" (exactly representable, |x| < 2^53) */
  if (x != floor(x) || fabs(x) > 9007199254740992.0)
    return GC_NUM_NOTINT;
  if (x < (double)lo || x > (double)hi)
    return GC_NUM_RANGE;
  *v = (long)x;
  return GC_NUM_OK;
}

const char *gc_number_error(int code)
{
  switch (code) {
  case GC_NUM_OK: return "is a number";
  case GC_NUM_EMPTY: return "is empty, not a number";
  case GC_NUM_JUNK: return "is not a decimal number";
  case GC_NUM_HEX: return "is a hexadecimal number (only decimal numbers are read)";
  case GC_NUM_NONFINITE: return "is not a finite number (nan and inf are not accepted)";
  case GC_NUM_RANGE: return "is out of the range of a double (overflow or underflow)";
  case GC_NUM_NUL: return "contains a NUL byte";
  case GC_NUM_NOTINT: return "is not an integer";
  default: return "is not a number";
  }
}

/* ---------------------------------------------------------------- did you mean */

enum { SUGGEST_MAXLEN = 64 };

size_t gc_edit_distance(const char *a, const char *b)
{
  size_t la = strlen(a), lb = strlen(b);
  if (la > SUGGEST_MAXLEN || lb > SUGGEST_MAXLEN)
    return SIZE_MAX;
  /* d[i][j]: the distance of the first i letters of a to the first j of b */
  size_t d[SUGGEST_MAXLEN + 1][SUGGEST_MAXLEN + 1];
  for (size_t i = 0; i <= la; i++)
    d[i][0] = i;
  for (size_t j = 0; j <= lb; j++)
    d[0][j] = j;
  for (size_t i = 1; i <= la; i++)
    for (size_t j = 1; j <= lb; j++) {
      int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
      size_t best = d[i - 1][j - 1] + (ca != cb);
      if (d[i - 1][j] + 1 < best)
        best = d[i - 1][j] + 1;
      if (d[i][j - 1] + 1 < best)
        best = d[i][j - 1] + 1;
      if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
          tolower((unsigned char)a[i - 2]) == cb && d[i - 2][j - 2] + 1 < best)
        best = d[i - 2][j - 2] + 1;
      d[i][j] = best;
    }
  return d[la][lb];
}

void gc_suggest_init(gc_suggest *s, const char *word)
{
  s->word = word;
  s->best = NULL;
  s->dist = SIZE_MAX;
}

void gc_suggest_add(gc_suggest *s, const char *name)
{
  if (!s->word || !name || !*name || strcmp(s->word, name) == 0)
    return;
  size_t dist = gc_edit_distance(s->word, name);
  /* a mistyped abbreviation ("outptu" of "output-dir"): the name cut to the word's length */
  size_t lw = strlen(s->word);
  if (lw >= 4 && strlen(name) > lw) {
    char cut[SUGGEST_MAXLEN + 1];
    snprintf(cut, sizeof cut, "%.*s", (int)(lw < SUGGEST_MAXLEN ? lw : SUGGEST_MAXLEN), name);
    size_t dc = gc_edit_distance(s->word, cut);
    if (dc < dist)
      dist = dc;
  }
  if (dist < s->dist) {
    s->dist = dist;
    s->best = name;
  }
}

const char *gc_suggest_best(const gc_suggest *s)
{
  if (!s->best || !s->word)
    return NULL;
  return s->dist <= (strlen(s->word) + 1) / 3 ? s->best : NULL;
}

const char *gc_suggest_text(const gc_suggest *s, char *buf, size_t n)
{
  const char *b = gc_suggest_best(s);
  if (n)
    buf[0] = 0;
  if (b)
    snprintf(buf, n, "; did you mean '%s'?", b);
  return buf;
}

/* ---------------------------------------------------------------- lines */

int gc_lines_open(gc_lines *r, const char *path, char *msg, size_t n)
{
  memset(r, 0, sizeof *r);
  r->path = path;
  r->f = fopen(path, "r");
  if (!r->f) {
    snprintf(msg, n, "%s: cannot open: %s", path, strerror(errno));
    return GC_EIO;
  }
  struct stat sb;
  if (fstat(fileno(r->f), &sb) != 0) {
    snprintf(msg, n, "%s: cannot open: %s", path, strerror(errno));
    fclose(r->f);
    r->f = NULL;
    return GC_EIO;
  }
  r->stream = !S_ISREG(sb.st_mode);
  return GC_SUCCESS;
}

void gc_lines_close(gc_lines *r)
{
  if (r->f)
    fclose(r->f);
  free(r->buf);
  memset(r, 0, sizeof *r);
}

/* A line ends at LF, CR LF or a lone CR (old Mac files); the terminator is not kept. */
int gc_lines_next(gc_lines *r, char *msg, size_t n)
{
  size_t len = 0;
  int ch, got = 0;
  errno = 0;
  while ((ch = getc(r->f)) != EOF) {
    got = 1;
    if (r->stream && ++r->total > GC_STREAM_MAX) {
      snprintf(msg, n,
               "%s:%zu: more than %zu MiB from a pipe or device: not a data file? (save "
               "it to a regular file)",
               r->path, r->lineno + 1, GC_STREAM_MAX >> 20);
      return GC_EFORMAT;
    }
    if (ch == '\n')
      break;
    if (ch == '\r') {
      int nx = getc(r->f);
      if (nx != '\n' && nx != EOF)
        ungetc(nx, r->f);
      break;
    }
    if (len >= GC_LINE_MAX) {
      snprintf(msg, n, "%s:%zu: line longer than %zu MiB: not a text data file?", r->path,
               r->lineno + 1, GC_LINE_MAX >> 20);
      return GC_EFORMAT;
    }
    if (len + 2 > r->cap) {
      size_t cap = r->cap ? 2 * r->cap : 256;
      char *b = realloc(r->buf, cap);
      if (!b) {
        snprintf(msg, n, "%s:%zu: out of memory", r->path, r->lineno + 1);
        return GC_ENOMEM;
      }
      r->buf = b;
      r->cap = cap;
    }
    r->buf[len++] = (char)ch;
  }
  if (ferror(r->f)) {
    snprintf(msg, n, "%s:%zu: read error: %s", r->path, r->lineno + 1,
             errno ? strerror(errno) : "unknown");
    return GC_EIO;
  }
  if (!got)
    return GC_LINES_EOF;
  if (!r->buf) {
    r->buf = malloc(256);
    if (!r->buf) {
      snprintf(msg, n, "%s: out of memory", r->path);
      return GC_ENOMEM;
    }
    r->cap = 256;
  }
  r->buf[len] = 0;
  r->len = len;
  r->lineno++;
  r->line = r->buf;
  if (r->lineno == 1) {
    const unsigned char *u = (const unsigned char *)r->buf;
    if (len >= 3 && u[0] == 0xEF && u[1] == 0xBB && u[2] == 0xBF) {
      r->line += 3; /* a UTF-8 byte-order mark (spreadsheet exports) carries no text */
      r->len -= 3;
    } else if (len >= 2 && ((u[0] == 0xFF && u[1] == 0xFE) || (u[0] == 0xFE && u[1] == 0xFF))) {
      snprintf(msg, n,
               "%s:1:1: the file is UTF-16 text (byte-order mark %02X %02X): save it as "
               "UTF-8 or ASCII",
               r->path, u[0], u[1]);
      return GC_EFORMAT;
    }
  }
  const char *z = memchr(r->line, 0, r->len);
  if (z) {
    snprintf(msg, n, "%s:%zu:%zu: NUL byte in a text line (a binary file?)", r->path, r->lineno,
             (size_t)(z - r->line) + 1);
    return GC_EFORMAT;
  }
  return GC_SUCCESS;
}

/* ---------------------------------------------------------------- CSV tables */

typedef struct {
  gc_table *t;
  const char *path;
  size_t lineno;
  size_t field; /* fields seen in the current record */
  int header_done;
  int err;
  char *msg;
  size_t msglen;
  size_t cap;  /* rows allocated */
  double *row; /* current row being filled */
  int lenient; /* gc_table_read_lenient */
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
      snprintf(c->msg, c->msglen, "%s:%zu:%zu: empty column name in the header", c->path, c->lineno,
               t->ncols);
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
  double v;
  int nst = gc_number_parse(s, len, &v);
  if (nst) {
    char shown[64];
    size_t l = strnlen(s, len < sizeof shown - 1 ? len : sizeof shown - 1);
    memcpy(shown, s, l);
    shown[l] = 0;
    if (c->lenient && t->bad_line) {
      /* a text column a caller may not use: remembered, reported only if it is used */
      size_t k = c->field - 1;
      if (!t->bad_line[k]) {
        char why[160];
        snprintf(why, sizeof why, "'%s%s' %s", shown, l < len ? "..." : "", gc_number_error(nst));
        t->bad_line[k] = c->lineno;
        t->bad_text[k] = strdup(why);
      }
      c->row[k] = NAN;
      return;
    }
    c->err = GC_EFORMAT;
    snprintf(c->msg, c->msglen, "%s:%zu:%zu: column '%s': '%s%s' %s%s", c->path, c->lineno,
             c->field, t->names[c->field - 1], shown, l < len ? "..." : "", gc_number_error(nst),
             t->delim == ';' && strchr(shown, ',') ? " (a decimal comma? granucal reads a decimal "
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
    for (size_t i = 0; i < t->ncols; i++)
      for (size_t j = 0; j < i; j++)
        if (strcmp(t->names[i], t->names[j]) == 0) {
          c->err = GC_EFORMAT;
          snprintf(c->msg, c->msglen, "%s:%zu:%zu: column name '%s' repeats column %zu", c->path,
                   c->lineno, i + 1, t->names[i], j + 1);
          return;
        }
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
  snprintf(msg, msglen, "%s:%zu:%d: column '%s': %s%s", path, t->bad_line[col], col + 1,
           t->names[col], b,
           t->delim == ';' && strchr(b, ',') ? " (a decimal comma? granucal reads a decimal "
                                               "point: export with '.' as decimal separator)"
                                             : "");
  return GC_EFORMAT;
}

static int table_read(const char *path, gc_table *t, int lenient, char *msg, size_t msglen)
{
  memset(t, 0, sizeof *t);
  gc_lines lr;
  int st = gc_lines_open(&lr, path, msg, msglen);
  if (st)
    return st;
  struct csv_parser p;
  if (csv_init(&p, CSV_APPEND_NULL) != 0) {
    gc_lines_close(&lr);
    snprintf(msg, msglen, "%s: cannot initialise the CSV parser", path);
    return GC_ENOMEM;
  }
  csv_ctx c = { .t = t, .path = path, .msg = msg, .msglen = msglen, .lenient = lenient };
  /* Feed libcsv one physical line at a time so that errors carry the line number; comment
   * and blank lines never reach the parser. */
  while (!c.err) {
    st = gc_lines_next(&lr, msg, msglen);
    if (st == GC_LINES_EOF)
      break;
    if (st) {
      c.err = st;
      break;
    }
    c.lineno = lr.lineno;
    const char *line = lr.line;
    size_t len = lr.len;
    const char *q = line;
    while (*q == ' ' || *q == '\t')
      q++;
    if (*q == '#' || *q == 0)
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
    if (csv_parse(&p, line, len, on_field, on_record, &c) != len && !c.err) {
      c.err = GC_EFORMAT;
      snprintf(msg, msglen, "%s:%zu: CSV syntax error: %s", path, c.lineno,
               csv_strerror(csv_error(&p)));
    }
    if (!c.err)
      csv_fini(&p, on_field, on_record, &c);
  }
  gc_lines_close(&lr);
  csv_free(&p);
  free(c.row);
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

double gc_table_get(const gc_table *t, size_t row, size_t col)
{
  return t->v[row * t->ncols + col];
}

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

void gc_card_extra_default(gc_card_extra *x)
{
  memset(x, 0, sizeof *x);
}

int gc_law_key_kind(const char *key)
{
  for (int k = 0; k < GC_NKINDS; k++) {
    const char *kn = gc_kind_name((gc_kind)k);
    size_t l = strlen(kn);
    if (strncmp(key, kn, l) == 0 && (key[l] == 0 || strcmp(key + l, "_model") == 0))
      return k;
  }
  return -1;
}

int gc_law_key_check(gc_kind kind, const char *key, const char *value, char *msg, size_t n)
{
  if (gc_submodel_lookup(kind, value))
    return GC_SUCCESS;
  char names[256], dym[96];
  gc_submodel_names(kind, names, sizeof names);
  gc_suggest sg;
  gc_suggest_init(&sg, value);
  for (size_t i = 0; i < gc_submodel_count(); i++)
    if (gc_submodel_at(i)->kind == kind)
      gc_suggest_add(&sg, gc_submodel_at(i)->name);
  snprintf(msg, n, "%s = '%s' is not a %s sub-model; allowed: %s%s (see 'granucal models')", key,
           value, gc_kind_name(kind), names, gc_suggest_text(&sg, dym, sizeof dym));
  return GC_EINVAL;
}

void gc_card_law_names(const gc_card_extra *x, const char *names[GC_NKINDS])
{
  for (int k = 0; k < GC_NKINDS; k++)
    names[k] = x && x->sub[k][0] ? x->sub[k] : NULL;
}

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
  int kind = gc_law_key_kind(key);
  if (kind >= 0) {
    if (strlen(value) >= sizeof x->sub[kind] || !*value)
      return set_fail(msg, n, key, value, "is not a sub-model name");
    if (gc_law_key_check((gc_kind)kind, key, value, msg, n))
      return GC_EINVAL;
    strcpy(x->sub[kind], value);
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
  int nst = gc_parse_double(value, &v);
  if (nst)
    return set_fail(msg, n, key, value, gc_number_error(nst));
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
    if (!(v > 0 && v <= GC_DENSITY_MAX)) {
      char range[64];
      snprintf(range, sizeof range, "out of range (0, %.0e] kg/m^3", GC_DENSITY_MAX);
      return set_fail(msg, n, key, value, range);
    }
    x->rho = v;
    return GC_SUCCESS;
  }
  if (strcmp(key, "m") == 0 || strcmp(key, "mass") == 0 || strcmp(key, "m2") == 0) {
    if (!(v > 0 && v <= GC_MASS_MAX)) {
      char range[64];
      snprintf(range, sizeof range, "out of range (0, %.0e] kg", GC_MASS_MAX);
      return set_fail(msg, n, key, value, range);
    }
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
  gc_suggest sg;
  gc_suggest_init(&sg, key);
  for (int i = 0; i < GC_NPAR; i++)
    gc_suggest_add(&sg, gc_param_def_at((gc_param_id)i)->key);
  static const char *const extra[] = { "rho",    "m",       "m2",         "model",   "tfd",
                                       "normal", "damping", "tangential", "rolling", "twisting" };
  for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
    gc_suggest_add(&sg, extra[i]);
  char dym[96];
  snprintf(msg, n, "unknown parameter '%s'%s (see 'granucal models' for the keys)", key,
           gc_suggest_text(&sg, dym, sizeof dym));
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
  fprintf(f, "  %-16s sub-models one by one (override model / tfd): normal, damping,\n", "KIND");
  fprintf(f, "  %-16s tangential, rolling, twisting (e.g. damping = tsuji)\n", "");
}

int gc_kv_read(const char *path, gc_kv_fn fn, void *ctx, char *msg, size_t n)
{
  gc_lines lr;
  int st = gc_lines_open(&lr, path, msg, n);
  if (st)
    return st;
  while (!st) {
    st = gc_lines_next(&lr, msg, n);
    if (st == GC_LINES_EOF) {
      st = GC_SUCCESS;
      break;
    }
    if (st)
      break;
    size_t lineno = lr.lineno;
    char *line = lr.line;
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
  gc_lines_close(&lr);
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
  const gc_param_def *d = gc_param_lookup(key);
  double v;
  if (d && !d->is_int && gc_parse_double(value, &v) == GC_NUM_OK && v == 0.0 &&
      !gc_param_in_range(gc_param_id_of(d), 0.0)) {
    /* granucal 0.1.0's fit wrote every key, 0 for "not given" (see gc_io.h): the key is
     * skipped, as if omitted */
    size_t l = strlen(c->x->note);
    if (!l)
      snprintf(c->x->note, sizeof c->x->note,
               "%s:%zu:%zu: %s = 0 read as not given (as "
               "granucal 0.1.0's fit wrote unused parameters)",
               c->path, line, vcol, key);
    else if (l + strlen(key) + 8 < sizeof c->x->note)
      snprintf(c->x->note + l, sizeof c->x->note - l, "; line %zu: %s = 0", line, key);
    return GC_SUCCESS;
  }
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
  for (int k = 0; x && k < GC_NKINDS; k++)
    if (x->sub[k][0])
      fprintf(f, "%s = %s\n", gc_kind_name((gc_kind)k), x->sub[k]);
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

/* ---------------------------------------------------------------- outputs */

/* The temporaries of the outputs not yet committed, for the signal handler.  This is the one
 * piece of static mutable state in granucal: a signal handler can reach nothing else.  A slot
 * is filled before its flag is set and its flag cleared before it is reused, so the handler
 * never reads a half-written path. */
enum { TMP_SLOTS = 32, TMP_PATH_MAX = 4096 };
static char tmp_path[TMP_SLOTS][TMP_PATH_MAX];
static volatile sig_atomic_t tmp_used[TMP_SLOTS];

static void on_signal(int sig)
{
  for (int i = 0; i < TMP_SLOTS; i++)
    if (tmp_used[i])
      unlink(tmp_path[i]);
  _exit(128 + sig);
}

int gc_signals_install(void)
{
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigfillset(&sa.sa_mask); /* no second signal inside the handler */
  const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
    if (sigaction(sigs[i], &sa, NULL) != 0)
      return GC_EINVAL;
  return GC_SUCCESS;
}

static int tmp_register(const char *path)
{
  if (strlen(path) >= TMP_PATH_MAX)
    return -1;
  for (int i = 0; i < TMP_SLOTS; i++)
    if (!tmp_used[i]) {
      strcpy(tmp_path[i], path);
      tmp_used[i] = 1;
      return i;
    }
  return -1;
}

static void tmp_unregister(int slot)
{
  if (slot >= 0 && slot < TMP_SLOTS)
    tmp_used[slot] = 0;
}

int gc_signal_unlink_add(const char *path)
{
  return tmp_register(path);
}

void gc_signal_unlink_remove(int slot)
{
  tmp_unregister(slot);
}

/* Remove DIR/BASE.tmp<pid> files whose process no longer exists (left by a SIGKILL). */
static void remove_stale_tmps(const char *target)
{
  const char *slash = strrchr(target, '/');
  char *dir = slash ? strndup(target, slash == target ? 1 : (size_t)(slash - target)) : strdup(".");
  const char *base = slash ? slash + 1 : target;
  size_t bl = strlen(base);
  DIR *d = dir ? opendir(dir) : NULL;
  if (!d) {
    free(dir);
    return;
  }
  struct dirent *e;
  while ((e = readdir(d))) {
    const char *nm = e->d_name;
    if (strncmp(nm, base, bl) != 0 || strncmp(nm + bl, ".tmp", 4) != 0)
      continue;
    const char *q = nm + bl + 4;
    if (!*q || strspn(q, "0123456789") != strlen(q) || strlen(q) > 9)
      continue;
    long pid = strtol(q, NULL, 10);
    if (pid <= 0 || pid == (long)getpid())
      continue;
    if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
      continue; /* a running process (or one we may not signal) may still write it */
    size_t l = strlen(dir) + strlen(nm) + 2;
    char *full = malloc(l);
    if (full) {
      snprintf(full, l, "%s/%s", dir, nm);
      unlink(full);
      free(full);
    }
  }
  closedir(d);
  free(dir);
}

static void outfile_clear(gc_outfile *o)
{
  free(o->path);
  free(o->tmp);
  free(o->shown);
  memset(o, 0, sizeof *o);
  o->slot = -1;
}

int gc_outfile_open(gc_outfile *o, const char *path, char *msg, size_t n)
{
  memset(o, 0, sizeof *o);
  o->slot = -1;
  if (!path || strcmp(path, "-") == 0) {
    o->f = stdout;
    return GC_SUCCESS;
  }
  if (!*path) {
    snprintf(msg, n, "output path is empty");
    return GC_EINVAL;
  }
  o->shown = strdup(path);
  if (!o->shown) {
    snprintf(msg, n, "%s: out of memory", path);
    return GC_ENOMEM;
  }
  struct stat lsb, sb;
  char *target = NULL;
  int exists = 0;
  if (lstat(path, &lsb) == 0) {
    if (stat(path, &sb) != 0) {
      snprintf(msg, n, "%s: a symbolic link to a missing file: give the target's path", path);
      outfile_clear(o);
      return GC_EINVAL;
    }
    exists = 1;
    if (S_ISCHR(sb.st_mode) || S_ISFIFO(sb.st_mode)) {
      o->f = fopen(path, "w");
      if (!o->f) {
        snprintf(msg, n, "%s: cannot write: %s", path, strerror(errno));
        outfile_clear(o);
        return GC_EIO;
      }
      o->direct = 1;
      return GC_SUCCESS;
    }
    if (S_ISDIR(sb.st_mode) || !S_ISREG(sb.st_mode)) {
      snprintf(msg, n, "%s: is a %s, not a file: refusing to replace it", path,
               S_ISDIR(sb.st_mode)   ? "directory"
               : S_ISBLK(sb.st_mode) ? "block device"
                                     : "special file");
      outfile_clear(o);
      return GC_EINVAL;
    }
    if (access(path, W_OK) != 0) {
      snprintf(msg, n, "%s: cannot write: %s", path, strerror(errno));
      outfile_clear(o);
      return GC_EIO;
    }
    if (S_ISLNK(lsb.st_mode))
      target = realpath(path, NULL); /* write the link's target; the link stays */
  }
  if (!target)
    target = strdup(path);
  size_t len = target ? strlen(target) : 0;
  o->path = target;
  o->tmp = target ? malloc(len + 32) : NULL;
  if (!o->path || !o->tmp) {
    snprintf(msg, n, "%s: out of memory", path);
    outfile_clear(o);
    return GC_ENOMEM;
  }
  snprintf(o->tmp, len + 32, "%s.tmp%ld", target, (long)getpid());
  remove_stale_tmps(target);
  o->slot = tmp_register(o->tmp);
  if (o->slot < 0) {
    snprintf(msg, n, "%s: path too long or too many outputs open", path);
    outfile_clear(o);
    return GC_EINVAL;
  }
  o->f = fopen(o->tmp, "w");
  if (!o->f) {
    snprintf(msg, n, "%s: cannot write: %s", path, strerror(errno));
    tmp_unregister(o->slot);
    outfile_clear(o);
    return GC_EIO;
  }
  if (exists)
    (void)fchmod(fileno(o->f), sb.st_mode & 07777); /* keep the file's permission bits */
  return GC_SUCCESS;
}

int gc_outfile_commit(gc_outfile *o, char *msg, size_t n)
{
  if (!o->path && !o->direct) {
    if (fflush(stdout) != 0 || ferror(stdout)) {
      snprintf(msg, n, "standard output: write error: %s", strerror(errno));
      return GC_EIO;
    }
    return GC_SUCCESS;
  }
  int bad = ferror(o->f);
  int err = bad ? EIO : 0;
  if (fclose(o->f) != 0 && !bad) {
    bad = 1;
    err = errno;
  }
  o->f = NULL;
  if (o->direct) {
    if (bad)
      snprintf(msg, n, "%s: write error: %s", o->shown, strerror(err));
    outfile_clear(o);
    return bad ? GC_EIO : GC_SUCCESS;
  }
  if (!bad && rename(o->tmp, o->path) != 0) {
    bad = 1;
    err = errno;
  }
  if (bad) {
    snprintf(msg, n, "%s: write error: %s", o->shown, strerror(err));
    remove(o->tmp);
  }
  tmp_unregister(o->slot); /* after the rename: a signal in between finds no file to remove */
  outfile_clear(o);
  return bad ? GC_EIO : GC_SUCCESS;
}

int gc_outfile_sync(gc_outfile *o, char *msg, size_t n)
{
  if (!o->path || o->direct)
    return GC_SUCCESS;
  if (fflush(o->f) != 0 || ferror(o->f) || fsync(fileno(o->f)) != 0) {
    snprintf(msg, n, "%s: write error: %s", o->shown, strerror(errno));
    return GC_EIO;
  }
  return GC_SUCCESS;
}

void gc_outfile_abort(gc_outfile *o)
{
  if (o->direct) {
    if (o->f)
      fclose(o->f);
  } else if (o->path) {
    if (o->f)
      fclose(o->f);
    remove(o->tmp);
    tmp_unregister(o->slot);
  }
  outfile_clear(o);
}
