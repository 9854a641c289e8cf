/* cli_common.h - helpers shared by the subcommands: parameters from a card and --set options,
 * model selection.  They print their own messages (prefixed by prog) and return an exit
 * status: 0 ok, 1 bad input file or parameter, 2 usage error. */
#ifndef GC_CLI_COMMON_H
#define GC_CLI_COMMON_H

#include <stddef.h>
#include <stdio.h>

#include "gc_io.h"
#include "gc_outputs.h"
#include "gc_model.h"

int gc_cli_load_params(const char *prog, const char *card, char **sets, size_t nsets, gc_params *p,
                       gc_card_extra *x);
/* Mass of sphere 1 from the card's m, else rho and R [kg]; 0 if neither is given. */
double gc_cli_mass(const gc_params *p, const gc_card_extra *x);
/* Mass of body 2 [kg]: INFINITY for a plane, the card's m2, else rho and R2; 0 if unknown. */
double gc_cli_mass2(const gc_params *p, const gc_card_extra *x);
/* m1 m2 / (m1 + m2), or m1 against a plane; 0 if a mass is unknown. */
double gc_cli_reduced_mass(const gc_params *p, const gc_card_extra *x);
/* m_eff for the damping models when the card gives the masses. */
void gc_cli_fill_effective_mass(gc_params *p, const gc_card_extra *x);
/* Normal model: nfd_name, else the card's 'model', else ep.  Tangential: tfd_name ('none' for
 * none), else the card's 'tfd', else the normal model's own tangential part if it has one. */
/* Then the sub-models the card or --set names one by one (normal =, damping =, tangential =,
 * rolling =, twisting =; gc_law_compose): e.g. "damping = tsuji" gives ep+tsuji. */
int gc_cli_law(const char *prog, const char *nfd_name, const char *tfd_name, const gc_card_extra *x,
               const gc_params *p, const char *card, gc_law *law);
/* The law options every command that builds a law takes: --normal NAME, --damping NAME,
 * --tangential NAME, --rolling[-model] NAME, --twisting[-model] NAME (also --KIND=NAME) become
 * "-sKIND=NAME", the --set of the command's card (a material card's or a chute card's key
 * of that name), written into buf; the value's own word is removed.  An option of the
 * command's own table (own, as getopt_long's; may be NULL) is left to the command.  Call
 * before the command's option parser; returns the new argc. */
struct option;
typedef struct {
  char text[GC_NKINDS][96];
} gc_cli_law_argbuf;
int gc_cli_law_args(int argc, char **argv, const struct option *own, gc_cli_law_argbuf *buf);

/* getopt_long (opterr = 0, optstring starting with ':') returned c = ':' (an option without
 * its value) or '?' (an unknown option); next is getopt's optind, opts the long options.  Print
 * the argument at fault as typed ("-fix", "--vni", "--quiet=1"), with the long option it
 * probably meant (--fix for -fix; the nearest name by gc_suggest; the candidates of an
 * ambiguous abbreviation), naming prog; return the usage exit status 2. */
int gc_cli_bad_option(const char *prog, int c, int argc, char **argv, int next,
                      const struct option *opts);

/* Every --set is KEY=VALUE: else print which (with the value found among the operands
 * argv[first_operand..] when "-s KEY VALUE" was typed) and return 2; 0 when all are. */
int gc_cli_sets_check(const char *prog, char *const *sets, size_t nsets, int argc,
                      char *const *argv, int first_operand);

/* `granucal models`: sub-models by kind, presets and the parameter table. */
void gc_models_print(FILE *f);

/* A command-line number through the strict parser of gc_io (gc_number_parse): a finite decimal
 * number in the range lo..hi (open ends when lo_open / hi_open; unit for the message).
 * Prints "PROG: OPT 'TEXT' is ...; allowed range (lo, hi) unit" and returns 2, else 0. */
int gc_cli_double(const char *prog, const char *opt, const char *text, double lo, double hi,
                  int lo_open, int hi_open, const char *unit, double *v);
/* An integer option in [lo, hi]: same rules and messages. */
int gc_cli_long(const char *prog, const char *opt, const char *text, long lo, long hi, long *v);
/* "A,B" (two numbers separated by a comma), each strict, in the range lo..hi. */
int gc_cli_double_pair(const char *prog, const char *opt, const char *text, double lo, double hi,
                       int lo_open, int hi_open, const char *unit, double *a, double *b);

/* Refuse outputs that are inputs or each other (gc_outplan_check); prints the message and
 * returns 1, else 0. */
int gc_cli_outplan_check(const char *prog, const gc_outplan *plan);
/* The same for a plan of plain files (outs[i], ins[j] may be NULL or "-"). */
int gc_cli_outputs_check(const char *prog, const char *const *outs, size_t nouts,
                         const char *const *ins, size_t nins);
/* Lock the output directory dir (gc_dirlock_acquire); prints the message and returns 1, else 0. */
int gc_cli_dirlock(const char *prog, gc_dirlock *lock, const char *dir);

/* Print notes ('\n'-separated lines, e.g. a reader's unit conversions) as "PROG: note: LINE"
 * on standard error, unless quiet. */
void gc_cli_print_notes(const char *prog, const char *notes, int quiet);

/* Default output directory of a chute card in the working directory: the card's base name with
 * .chute replaced by suffix (".out" for granucal chute, ".lammps" for export).  malloc'ed, NULL
 * when out of memory. */
char *gc_cli_default_dir(const char *card, const char *suffix);

/* ---------------------------------------------------------------- option tables */

/* What an option takes; the parser stores it at the row's offset in the command's option
 * struct: FLAG an int set to 1; STRING, FILE, DIR a const char * (the completion offers files
 * or directories); DOUBLE a double within [lo, hi] (open ends by lo_open, hi_open; unit for the
 * message); LONG a long within [lo, hi]; LIST a gc_cli_list (repeatable strings). */
typedef enum {
  GC_OPT_FLAG,
  GC_OPT_STRING,
  GC_OPT_FILE,
  GC_OPT_DIR,
  GC_OPT_DOUBLE,
  GC_OPT_LONG,
  GC_OPT_LIST,
  GC_OPT_SETKEY, /* a gc_cli_list (the --set list): "KEY=VALUE" appended, KEY the row's key */
  GC_OPT_HELP    /* -h, --help: nothing stored */
} gc_opt_kind;

/* The values of a repeatable option, in the order given (v has room for argc entries).  A list
 * that SETKEY rows write to comes from gc_cli_list_alloc: text is the room for their "KEY=VALUE"
 * strings, in the same block as v (free(v) frees both). */
typedef struct {
  char **v;
  size_t n;
  char *text;
  size_t text_left;
} gc_cli_list;
/* A list with room for the values of the arguments argv[1..argc-1], SETKEY rows included, and
 * extra more entries the command appends; returns 1 when out of memory (l->v NULL), else 0. */
int gc_cli_list_alloc(gc_cli_list *l, int argc, char *const *argv, size_t extra);

/* One option of a command, as the chute card's key table (chute_io.c): the parser, --help, the
 * bash completion (granucal --complete) and the man page's OPTIONS headers
 * (granucal --man-options) read these rows.  A table ends with a row whose name is NULL; rows
 * are written with designated initializers, e.g.
 *   { .name = "vin", .kind = GC_OPT_DOUBLE, .metavar = "V", .man_arg = "v", .lo = 0,
 *     .hi = 1e4, .lo_open = 1, .unit = "m/s", .offset = offsetof(drop_opts, vin),
 *     .help = "impact speed [m/s]" } */
typedef struct {
  const char *name; /* long name, without "--" */
  char letter;      /* short name, or 0 */
  gc_opt_kind kind;
  const char *metavar;  /* the value in --help ("FILE", "K=V"); NULL for a flag */
  const char *man_arg;  /* the value in the man page ("file", "key=value") */
  double lo, hi;        /* DOUBLE, LONG: allowed range */
  int lo_open, hi_open; /* DOUBLE: open ends */
  const char *unit;     /* DOUBLE: unit of the range in messages */
  size_t offset;        /* where the value goes in the command's option struct */
  const char *help;     /* --help text; '\n' starts a continuation line */
  const char *key;      /* SETKEY: the card key the value is set to */
  int exact;            /* refuse an abbreviation of the name ("--drop" for --drops) */
} gc_cli_opt;

/* The law options of every command that builds a law, as --set of the card's key of that name
 * (gc_cli_law, gc_law_compose): --normal, --damping, --tangential, --rolling-model,
 * --twisting-model NAME.  opts_type is the command's option struct, sets its gc_cli_list of
 * --set values (from gc_cli_list_alloc). */
#define GC_CLI_LAW_NROWS 5
#define GC_CLI_LAW_ROW(opt_name, card_key, opts_type, sets, text)                                  \
  {                                                                                                \
    .name = opt_name, .kind = GC_OPT_SETKEY, .metavar = "NAME", .man_arg = "name",                 \
    .offset = offsetof(opts_type, sets), .key = card_key, .help = text                             \
  }
#define GC_CLI_LAW_ROW_TWISTING(opts_type, sets)                                                   \
  GC_CLI_LAW_ROW("twisting-model", "twisting_model", opts_type, sets,                              \
                 "twisting resistance sub-model (the key twisting)")
/* The three of the normal and tangential parts, for a command with its own --rolling-model. */
#define GC_CLI_LAW_ROWS_NT(opts_type, sets)                                                        \
  GC_CLI_LAW_ROW("normal", "normal", opts_type, sets,                                              \
                 "normal elastic-plastic sub-model (the key normal)"),                             \
      GC_CLI_LAW_ROW("damping", "damping", opts_type, sets,                                        \
                     "normal damping sub-model (the key damping)"),                                \
      GC_CLI_LAW_ROW("tangential", "tangential", opts_type, sets,                                  \
                     "tangential sub-model (the key tangential)")
#define GC_CLI_LAW_ROWS(opts_type, sets)                                                           \
  GC_CLI_LAW_ROWS_NT(opts_type, sets),                                                             \
      GC_CLI_LAW_ROW("rolling-model", "rolling_model", opts_type, sets,                            \
                     "rolling resistance sub-model (the key rolling)"),                            \
      GC_CLI_LAW_ROW_TWISTING(opts_type, sets)

/* The rows most commands share, with the command's own help text; row is the offset into the
 * command's option struct, as ROW(field) = .offset = offsetof(type, field). */
#define GC_CLI_ROW_MODEL(row, text)                                                                \
  {                                                                                                \
    .name = "model", .letter = 'm', .kind = GC_OPT_STRING, .metavar = "NAME", .man_arg = "name",   \
    row, .help = text                                                                              \
  }
#define GC_CLI_ROW_TFD(row, text)                                                                  \
  {                                                                                                \
    .name = "tfd", .letter = 't', .kind = GC_OPT_STRING, .metavar = "NAME", .man_arg = "name",     \
    row, .help = text                                                                              \
  }
#define GC_CLI_ROW_CARD(row, text)                                                                 \
  {                                                                                                \
    .name = "card", .letter = 'c', .kind = GC_OPT_FILE, .metavar = "FILE", .man_arg = "file", row, \
    .help = text                                                                                   \
  }
#define GC_CLI_ROW_SET(row, text)                                                                  \
  {                                                                                                \
    .name = "set", .letter = 's', .kind = GC_OPT_LIST, .metavar = "K=V", .man_arg = "key=value",   \
    row, .help = text                                                                              \
  }
#define GC_CLI_ROW_QUIET(row, text)                                                                \
  {                                                                                                \
    .name = "quiet", .letter = 'q', .kind = GC_OPT_FLAG, row, .help = text                         \
  }
#define GC_CLI_ROW_HELP(row)                                                                       \
  {                                                                                                \
    .name = "help", .letter = 'h', .kind = GC_OPT_HELP, row, .help = "this help"                   \
  }

/* Results of gc_cli_parse besides an exit status. */
enum { GC_CLI_HELP = -1 };

/* Parse argv[1..] by the table opts into the struct at dest with getopt_long (permuting the
 * operands to the end): a value out of its range or not a number gives the message of
 * gc_cli_double / gc_cli_long, an unknown option or a missing value that of gc_cli_bad_option.
 * Lists must have room for argc values.  *first_operand is optind after the options.  Returns
 * 0, GC_CLI_HELP for -h/--help (the caller prints its usage), or the exit status 2 (1 when out
 * of memory).  seen (may be NULL) gets 1 at the index of every row given. */
int gc_cli_parse(const char *prog, const gc_cli_opt *opts, int argc, char **argv, void *dest,
                 int *seen, int *first_operand);
/* The OPTIONS lines of --help: "  -m, --model NAME" padded to column col, then the help text
 * (continuation lines indented to col). */
void gc_cli_help_options(FILE *f, const gc_cli_opt *opts, int col);
/* The long options, one a line ("--model"), for the bash completion. */
void gc_cli_complete_options(FILE *f, const gc_cli_opt *opts);
/* The man page's header line of every option (the line after .TP), as in man/granucal-*.1. */
void gc_cli_man_options(FILE *f, const gc_cli_opt *opts);

#endif
