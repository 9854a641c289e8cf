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
  char **names;   /* ncols */
  char **units;   /* ncols, "" if none */
  double *v;      /* nrows * ncols, row-major */
  size_t *line;   /* nrows: line number of each row in the file */
  size_t header_line; /* line number of the header */
  char delim;     /* field separator: ',' or, detected from a header without commas, ';' or '\t' */
  size_t *bad_line;  /* gc_table_read_lenient: per column, the line of its first non-numeric
                      * cell (0: none); such cells read as NaN */
  char **bad_text;   /* that cell's text */
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
  char nfd[32];     /* "model" key: normal model name, "" if not given */
  char tfd[32];     /* "tfd" key: tangential model name, "" if not given */
  double rho;       /* density of body 1 [kg/m^3], 0 if not given */
  double mass;      /* mass of body 1 [kg], 0 if not given */
  double mass2;     /* mass of body 2 when it is a sphere [kg], 0 if not given */
} gc_card_extra;

void gc_card_extra_default(gc_card_extra *x);
/* Read "key = value" lines ('#' starts a comment) into p and x.  Unknown keys, missing '=',
 * non-numeric or non-finite values are errors naming file:line:column. */
int gc_card_read(const char *path, gc_params *p, gc_card_extra *x, char *msg, size_t msglen);
/* Parse a whole string as a finite double (leading/trailing blanks allowed): 0, else -1. */
int gc_parse_double(const char *s, double *v);

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

/* Atomic output: write to path.tmp, then rename on success; remove the temporary on failure,
 * so that no partial output file is ever left behind. */
typedef struct {
  FILE *f;
  char *path;
  char *tmp;
} gc_outfile;

/* path "-" or NULL means stdout. */
int gc_outfile_open(gc_outfile *o, const char *path, char *msg, size_t msglen);
int gc_outfile_commit(gc_outfile *o, char *msg, size_t msglen);
void gc_outfile_abort(gc_outfile *o);

#endif
