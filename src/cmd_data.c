/* cmd_data.c - `granucal data`: read measurement files exactly as `granucal fit` and
 * `granucal drop --sweep` read them (the one data-file contract of src/fit.c) and print them in
 * SI units, so that a user can check a file and scripts (plot-drop -d) read it the same way. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_common.h"
#include "compare.h"
#include "data_check.h"
#include "fit.h"

#define GC_G 9.80665 /* standard gravity [m/s^2], as fit and drop */

/* The options of `granucal data` (rows of gc_data_options). */
typedef struct {
  const char *card;
  int compression, drops, path, help;
} data_opts;

#define ROW(field) .offset = offsetof(data_opts, field)
const gc_cli_opt gc_data_options[] = {
  { .name = "card",
    .letter = 'c',
    .kind = GC_OPT_FILE,
    .metavar = "CARD",
    .man_arg = "card",
    ROW(card),
    .help = "material card or parameter file: alpha is also checked against\n"
            "its radius (alpha/R <= 0.1)" },
  { .name = "compression",
    .kind = GC_OPT_FLAG,
    .exact = 1,
    ROW(compression),
    .help = "read the file as compression data (alpha, P)" },
  { .name = "drops",
    .kind = GC_OPT_FLAG,
    .exact = 1,
    ROW(drops),
    .help = "read the file as drop-test data (v_in or H, e)" },
  { .name = "path",
    .kind = GC_OPT_FLAG,
    .exact = 1,
    ROW(path),
    .help = "read the file as a load path (t, alpha, P)" },
  GC_CLI_ROW_HELP(ROW(help)),
  { .name = NULL }
};
#undef ROW

static void data_usage(FILE *f)
{
  fprintf(f,
          "usage: granucal data [-c CARD] [--compression | --drops | --path] FILE.csv\n\n"
          "Read a compression, drop-test or load-path CSV exactly as 'granucal fit' (and\n"
          "'granucal drop --sweep', 'granucal compare', 'plot-drop -d') read it and print it\n"
          "in SI units on standard output:\n"
          "  compression: alpha [m],P [N]          (approach [m] is halved into alpha)\n"
          "  drops:       v_in [m/s],H [m],e,n,sd  (v_in = sqrt(2 g H) when only H is given;\n"
          "                                          0 where a column is absent)\n"
          "  path:        t [s],alpha [m],P [N]    (an FEA curve, a cyclic test, granucal\n"
          "                                          contact's output)\n"
          "The kind is taken from the header (and said on standard error) unless --compression,\n"
          "--drops or --path is given; a file of another kind is refused.  Units in the header\n"
          "are required for dimensioned columns and converted (m, mm, cm, um; N, kN, mN; m/s,\n"
          "mm/s, cm/s; s, ms, us).  Implausible data are refused as 'granucal fit' refuses them\n"
          "(granucal-fit(1)); with -c CARD also an alpha beyond 0.1 R.  Each conversion or\n"
          "ignored column gives a note on standard error.  Exit status: 0 success, 1 bad file,\n"
          "2 usage error.\n\n");
  gc_cli_help_options(f, gc_data_options, 21);
}

int gc_cmd_data(int argc, char **argv)
{
  data_opts o = { 0 };
  int first_operand = 1;
  int bad = gc_cli_parse("granucal data", gc_data_options, argc, argv, &o, NULL, &first_operand);
  if (bad == GC_CLI_HELP) {
    data_usage(stdout);
    return 0;
  }
  if (bad)
    return bad;
  if (o.compression + o.drops + o.path > 1) {
    fprintf(stderr, "granucal data: give at most one of --compression, --drops, --path\n");
    return 2;
  }
  int kind = o.compression ? GC_FIT_KIND_COMPRESSION
             : o.drops     ? GC_FIT_KIND_DROPS
             : o.path      ? GC_FIT_KIND_PATH
                           : 0;
  const char *card = o.card;
  if (argc - first_operand > 1) {
    fprintf(stderr, "granucal data: one file at a time ('%s' and '%s')\n", argv[first_operand],
            argv[first_operand + 1]);
    return 2;
  }
  const char *path = first_operand < argc ? argv[first_operand] : NULL;
  if (!path) {
    data_usage(stderr);
    return 2;
  }
  gc_params p;
  gc_card_extra x;
  int rc = gc_cli_load_params("granucal data", card, NULL, 0, &p, &x);
  if (rc)
    return rc;
  char msg[1024];
  /* the kind the header names; a forced kind must be that one */
  int found = gc_fit_csv_kind(path, msg, sizeof msg);
  if (found < 0 || (!kind && found == 0)) {
    fprintf(stderr, "granucal data: %s\n", msg);
    return 1;
  }
  if (kind && found && kind != found) {
    fprintf(stderr, "granucal data: %s: the header names %s, not %s\n", path,
            gc_fit_kind_name(found), gc_fit_kind_name(kind));
    return 1;
  }
  if (!kind)
    kind = found;
  fprintf(stderr, "granucal data: %s: read as %s\n", path, gc_fit_kind_name(kind));
  gc_fit_data d;
  memset(&d, 0, sizeof d);
  gc_curve c;
  memset(&c, 0, sizeof c);
  int st;
  if (kind == GC_FIT_KIND_PATH) {
    st = gc_curve_read(path, &c, msg, sizeof msg);
    if (!st)
      st = gc_curve_check(&c, p.R1, msg, sizeof msg);
    if (!st)
      st = gc_fit_add_path(&d, &c, msg, sizeof msg);
  } else {
    st = kind == GC_FIT_KIND_COMPRESSION ? gc_fit_read_compression(&d, path, msg, sizeof msg)
                                         : gc_fit_read_drops_ex(&d, path, GC_G, 0, msg, sizeof msg);
    if (!st)
      st = gc_data_check(&d, p.R1, msg, sizeof msg);
  }
  gc_curve_free(&c);
  if (st) {
    fprintf(stderr, "granucal data: %s\n", msg);
    gc_fit_data_free(&d);
    return 1;
  }
  gc_cli_print_notes("granucal data", d.notes, 0);
  if (kind != GC_FIT_KIND_DROPS && !(p.R1 > 0))
    fprintf(stderr, "granucal data: note: alpha not checked against the radius (give the "
                    "card: -c CARD)\n");
  if (kind == GC_FIT_KIND_COMPRESSION) {
    printf("alpha [m],P [N]\n");
    for (size_t i = 0; i < d.n_comp; i++)
      printf("%.10g,%.10g\n", d.alpha[i], d.P[i]);
  } else if (kind == GC_FIT_KIND_PATH) {
    printf("t [s],alpha [m],P [N]\n");
    for (size_t i = 0; i < d.n_path; i++)
      printf("%.10g,%.10g,%.10g\n", d.path_t[i], d.path_alpha[i], d.path_P[i]);
  } else {
    printf("v_in [m/s],H [m],e,n,sd\n");
    for (size_t k = 0; k < d.n_drop; k++)
      printf("%.10g,%.10g,%.10g,%.10g,%.10g\n", d.v_in[k], d.H[k], d.e[k], d.e_n[k], d.e_sd[k]);
  }
  gc_fit_data_free(&d);
  if (fflush(stdout) || ferror(stdout)) {
    fprintf(stderr, "granucal data: write error on standard output\n");
    return 1;
  }
  return 0;
}
