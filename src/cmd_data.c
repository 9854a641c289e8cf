/* cmd_data.c - `granucal data`: read measurement files exactly as `granucal fit` and
 * `granucal drop --sweep` read them (the one data-file contract of src/fit.c) and print them in
 * SI units, so that a user can check a file and scripts (plot-drop -d) read it the same way. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_common.h"
#include "fit.h"

#define GC_G 9.80665 /* standard gravity [m/s^2], as fit and drop */

static void data_usage(FILE *f)
{
  fprintf(f,
          "usage: granucal data [--drops | --compression] FILE.csv\n\n"
          "Read a compression or drop-test CSV exactly as 'granucal fit' (and 'granucal drop\n"
          "--sweep', 'plot-drop -d') read it and print it in SI units on standard output:\n"
          "  compression: alpha [m],P [N]          (approach [m] is halved into alpha)\n"
          "  drops:       v_in [m/s],H [m],e,n,sd  (v_in = sqrt(2 g H) when only H is given;\n"
          "                                          0 where a column is absent)\n"
          "The kind is taken from the header unless --drops or --compression is given.  Units in\n"
          "the header are converted (m, mm, cm, um; N, kN, mN; m/s, mm/s, cm/s), unknown columns\n"
          "are ignored and a semicolon- or tab-separated file is read; each gives a note on\n"
          "standard error.  Exit status: 0 success, 1 bad file, 2 usage error.\n");
}

int gc_cmd_data(int argc, char **argv)
{
  int kind = 0;
  const char *path = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
      data_usage(stdout);
      return 0;
    } else if (strcmp(argv[i], "--drops") == 0) {
      kind = 2;
    } else if (strcmp(argv[i], "--compression") == 0) {
      kind = 1;
    } else if (argv[i][0] == '-' && argv[i][1]) {
      static const struct option opts[] = { { "drops", no_argument, NULL, 0 },
                                            { "compression", no_argument, NULL, 0 },
                                            { "help", no_argument, NULL, 'h' },
                                            { NULL, 0, NULL, 0 } };
      optopt = 0;
      return gc_cli_bad_option("granucal data", '?', i + 1, argv, i + 1, opts);
    } else if (path) {
      fprintf(stderr, "granucal data: one file at a time ('%s' and '%s')\n", path, argv[i]);
      return 2;
    } else {
      path = argv[i];
    }
  }
  if (!path) {
    data_usage(stderr);
    return 2;
  }
  char msg[1024];
  if (!kind && (kind = gc_fit_csv_kind(path, msg, sizeof msg)) <= 0) {
    fprintf(stderr, "granucal data: %s\n", msg);
    return 1;
  }
  gc_fit_data d;
  memset(&d, 0, sizeof d);
  int st = kind == 1 ? gc_fit_read_compression(&d, path, msg, sizeof msg)
                     : gc_fit_read_drops_ex(&d, path, GC_G, 0, msg, sizeof msg);
  if (st) {
    fprintf(stderr, "granucal data: %s\n", msg);
    return 1;
  }
  for (const char *q = d.notes; *q;) {
    const char *e = strchr(q, '\n');
    int l = e ? (int)(e - q) : (int)strlen(q);
    fprintf(stderr, "granucal data: note: %.*s\n", l, q);
    q += l + (e != NULL);
  }
  if (kind == 1) {
    printf("alpha [m],P [N]\n");
    for (size_t i = 0; i < d.n_comp; i++)
      printf("%.10g,%.10g\n", d.alpha[i], d.P[i]);
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
