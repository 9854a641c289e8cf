/* gc_io.h - reading granucal's input files: material cards / parameter files (key = value)
 * and CSV tables with a header (libcsv).  Errors name the file, line and column. */
#ifndef GC_IO_H
#define GC_IO_H

#include <stddef.h>
#include <stdio.h>

#include "gc_model.h"

/* A numeric CSV table.  The first non-comment line is the header; a column name is the text
 * before any unit in brackets: "alpha [m]" has name "alpha" and unit "m".  Lines starting with
 * '#' and blank lines are skipped. */
typedef struct {
  size_t ncols, nrows;
  char **names;       /* ncols */
  char **units;       /* ncols, "" if none */
  double *v;          /* nrows * ncols, row-major */
  size_t *line;       /* nrows: line number of each row in the file */
  size_t header_line; /* line number of the header */
  char delim; /* field separator: ',' or, detected from a header without commas, ';' or '\t' */
  size_t *bad_line; /* gc_table_read_lenient: per column, the line of its first non-numeric
                      * cell (0: none); such cells read as NaN */
  char **bad_text;  /* that cell's text */
} gc_table;

int gc_table_read(const char *path, gc_table *t, char *msg, size_t msglen);
/* As gc_table_read, but a non-numeric cell is not an error by itself (a text column that the
 * caller ignores, e.g. the operator of a drop): it reads as NaN and is recorded; a caller that
 * uses the column calls gc_table_check_col, which gives the error gc_table_read would give. */
int gc_table_read_lenient(const char *path, gc_table *t, char *msg, size_t msglen);
int gc_table_check_col(const gc_table *t, const char *path, int col, char *msg, size_t msglen);
/* index of the column with this name (case-sensitive), or -1 */
int gc_table_col(const gc_table *t, const char *name);
double gc_table_get(const gc_table *t, size_t row, size_t col);
void gc_table_free(gc_table *t);

/* What a material card / parameter file holds beyond gc_params. */
typedef struct {
  char nfd[32]; /* "model" key: normal model name, "" if not given */
  char tfd[32]; /* "tfd" key: tangential model name, "" if not given */
  /* sub-models named one by one, per gc_kind ("normal", "damping", "tangential", "rolling",
   * "twisting" keys; gc_law_compose applies them to model / tfd), "" if not given */
  char sub[GC_NKINDS][32];
  double rho;     /* density of body 1 [kg/m^3], 0 if not given */
  double mass;    /* mass of body 1 [kg], 0 if not given */
  double mass2;   /* mass of body 2 when it is a sphere [kg], 0 if not given */
  char note[320]; /* gc_card_read: keys read in the meaning of an earlier release, "" if none */
} gc_card_extra;

void gc_card_extra_default(gc_card_extra *x);
/* The keys that name a law's sub-models: the kind's name (gc_kind_name: "normal", "damping",
 * "tangential", "rolling", "twisting") or KIND_model ("rolling_model", as the chute card
 * spells the rolling and twisting ones).  The kind, or -1 if key is none of them. */
int gc_law_key_kind(const char *key);
/* GC_SUCCESS if value names a registered sub-model of kind, else GC_EINVAL with msg
 * "KEY = 'VALUE' is not a KIND sub-model; allowed: a, b, c; did you mean 'b'?". */
int gc_law_key_check(gc_kind kind, const char *key, const char *value, char *msg, size_t n);
/* The sub-model names of x (NULL where not given) in the form gc_law_compose takes. */
void gc_card_law_names(const gc_card_extra *x, const char *names[GC_NKINDS]);
/* Read "key = value" lines ('#' starts a comment) into p and x.  Unknown keys, missing '=',
 * non-numeric or non-finite values are errors naming file:line:column.
 * "key = 0" for a parameter whose range excludes 0 (k_n, e_n, m_eff, ...) is read as "not
 * given", the value an omitted key has: granucal 0.1.0's `fit` wrote every key of the table,
 * the unused ones as 0 (today's writer omits them).  The keys so read are listed in x->note;
 * a model that needs such a parameter still refuses it when its law is set up. */
int gc_card_read(const char *path, gc_params *p, gc_card_extra *x, char *msg, size_t msglen);
/* The one strict number parser of granucal (cards, CSV cells, command-line options): a decimal
 * number with optional sign, fraction and exponent, blanks around it allowed.  Hex floats,
 * nan, inf, overflow or underflow, trailing junk, an empty value and a NUL byte are refused.
 * Returns GC_NUM_OK (0) and sets *v, or a GC_NUM_* code (gc_number_error() says why). */
enum {
  GC_NUM_OK = 0,
  GC_NUM_EMPTY,
  GC_NUM_JUNK,
  GC_NUM_HEX,
  GC_NUM_NONFINITE,
  GC_NUM_RANGE,
  GC_NUM_NUL,
  GC_NUM_NOTINT
};
int gc_number_parse(const char *s, size_t len, double *v);
int gc_parse_double(const char *s, double *v);
/* An integer in [lo, hi] (written as an integer or an integral decimal such as 1e3). */
int gc_parse_long(const char *s, long lo, long hi, long *v);
/* "is not a decimal number", ... : the reason for a GC_NUM_* code, to follow the value. */
const char *gc_number_error(int code);

/* "Did you mean": the known name nearest to a mistyped one (an option, a card key, a
 * parameter, a command), by the Damerau-Levenshtein distance (optimal string alignment: an
 * insertion, deletion, substitution or swap of two neighbours is one edit; case is ignored;
 * from 4 letters on, a name also matches by its first as many letters: an abbreviation).
 * Offer every known name to gc_suggest_add; gc_suggest_best is the nearest one if it is at
 * most (length + 1) / 3 edits from the word (1 for "vni" -> "vin", 2 from 5 letters on),
 * else NULL.  gc_suggest_text writes "; did you mean 'NAME'?" or "" into buf and returns buf. */
typedef struct {
  const char *word;
  const char *best;
  size_t dist;
} gc_suggest;
void gc_suggest_init(gc_suggest *s, const char *word);
void gc_suggest_add(gc_suggest *s, const char *name);
const char *gc_suggest_best(const gc_suggest *s);
const char *gc_suggest_text(const gc_suggest *s, char *buf, size_t n);
size_t gc_edit_distance(const char *a, const char *b);

/* Text lines of an input file: LF, CR LF and lone CR (old Mac) line ends; a UTF-8 byte-order
 * mark at the start is skipped, a UTF-16 one is an error; a NUL byte in a line is an error
 * naming path:line:column; a read error is GC_EIO, never taken for the end of the file.
 * A line longer than GC_LINE_MAX bytes is an error naming path:line (no text input of granucal
 * has lines near that long: a data row is under 200 bytes; the limit stops /dev/zero or a
 * binary file from being read into memory whole), and so is a non-regular file (a pipe, a
 * character device) longer than GC_STREAM_MAX bytes (a regular file ends at its size; a
 * stream such as /dev/urandom or `yes` may never end; 64 MiB is 20 times a compression file
 * of 1e5 rows). */
#define GC_LINE_MAX ((size_t)1 << 20)   /* 1 MiB */
#define GC_STREAM_MAX ((size_t)1 << 26) /* 64 MiB */
typedef struct {
  FILE *f;
  const char *path;
  int stream;   /* not a regular file: GC_STREAM_MAX applies */
  size_t total; /* bytes read so far */
  char *buf;
  size_t cap;
  char *line;    /* the current line (NUL-terminated, without its line end) */
  size_t len;    /* its length */
  size_t lineno; /* its 1-based number */
} gc_lines;
enum { GC_LINES_EOF = -1 };
int gc_lines_open(gc_lines *r, const char *path, char *msg, size_t msglen);
/* GC_SUCCESS (r->line set), GC_LINES_EOF, or an error with msg. */
int gc_lines_next(gc_lines *r, char *msg, size_t msglen);
void gc_lines_close(gc_lines *r);

/* A "key = value" file: '#' starts a comment, blank lines are skipped, key and value are trimmed.
 * fn is called for each line with the key, the value, the line number and the 1-based columns
 * of key and value; a non-zero status from fn stops the reading and is returned (fn writes msg).
 * A line without '=' or without a key is GC_EFORMAT naming path:line:column. */
typedef int (*gc_kv_fn)(void *ctx, const char *key, const char *value, size_t line, size_t kcol,
                        size_t vcol, char *msg, size_t msglen);
int gc_kv_read(const char *path, gc_kv_fn fn, void *ctx, char *msg, size_t msglen);
/* Set one parameter by name from text (used by the card reader and by --set KEY=VALUE).
 * Returns GC_EFORMAT with a message for an unknown key or a value that is not a number, and
 * GC_EINVAL with the parameter table's message (models/params.c) for a value out of its
 * range. */
int gc_param_set(gc_params *p, gc_card_extra *x, const char *key, const char *value, char *msg,
                 size_t msglen);
/* Write p and x as a card that gc_card_read reads back unchanged (%.17g). */
int gc_card_write(FILE *f, const gc_params *p, const gc_card_extra *x);
/* List of the keys with units and meaning, for --help and the man pages. */
void gc_card_print_keys(FILE *f);

/* Output files that never destroy what is at the path:
 *  - "-" or NULL: standard output;
 *  - a character device or a FIFO (e.g. /dev/null, /dev/stdout, a named pipe): written
 *    directly, never replaced;
 *  - a symbolic link: followed; its target is written (atomically, as below) and the link
 *    stays (a link to a missing file is refused);
 *  - a regular or new file: written to PATH.tmp<pid> in the same directory and renamed onto
 *    PATH on success (the file keeps its permission bits); on failure, abort or a SIGINT /
 *    SIGTERM the temporary is removed (gc_signals_install), so that no partial output is ever
 *    left behind.  A PATH.tmp<pid> left by a killed run (the process <pid> no longer exists) is
 *    removed when PATH is opened again;
 *  - a directory, a block device or a socket: refused. */
typedef struct {
  FILE *f;
  char *path; /* the file renamed onto (the symbolic link's target); NULL: direct */
  char *tmp;
  int slot;    /* slot of tmp in the signal handler's list, -1 if none */
  int direct;  /* 1: a special file written directly (f is closed by commit/abort) */
  char *shown; /* the path as given, for messages */
} gc_outfile;

int gc_outfile_open(gc_outfile *o, const char *path, char *msg, size_t msglen);
int gc_outfile_commit(gc_outfile *o, char *msg, size_t msglen);
void gc_outfile_abort(gc_outfile *o);
/* Flush an output's data to the disk (fsync) before its commit, for a file that must survive
 * a crash of the machine (a checkpoint and the record it describes); a no-op on standard output
 * and special files.  GC_EIO with a message if the data could not be written. */
int gc_outfile_sync(gc_outfile *o, char *msg, size_t msglen);

/* The output guard (outputs that are inputs or each other) is gc_outputs.h. */

/* Install the SIGINT / SIGTERM / SIGHUP handler: it removes the temporaries of the outputs
 * not yet committed (async-signal-safe unlink) and exits with status 128 + signal.  Complete
 * outputs (e.g. the last checkpoint) stay. */
int gc_signals_install(void);
/* A file the signal handler removes too (a lock file, gc_outputs.h): its slot, or -1 when the
 * path is too long or every slot is taken; gc_signal_unlink_remove(slot) takes it back. */
int gc_signal_unlink_add(const char *path);
void gc_signal_unlink_remove(int slot);

#endif
