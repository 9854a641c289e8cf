/* main.c - the granucal command: dispatch to subcommands. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "cli.h"
#include "cli_common.h"
#include "gc_io.h"
#include "gc_model.h"

static const struct {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *what;
  const gc_cli_opt *options; /* the command's option table, NULL while it parses by hand */
} commands[] = {
  { "contact", gc_cmd_contact, "drive one contact along a load path (force or displacement)",
    gc_contact_options },
  { "drop", gc_cmd_drop, "normal impact of a sphere on a rigid plane (drop test)",
    gc_drop_options },
  { "impact", gc_cmd_impact, "oblique impacts of spinning spheres on a frictional plane",
    gc_impact_options },
  { "fit", gc_cmd_fit, "calibrate a normal model (default ep) from compression, drop and path data",
    NULL },
  { "compare", gc_cmd_compare, "contact models against a reference curve (FEA, sec. 6.4)",
    gc_compare_options },
  { "chute", gc_cmd_chute, "flow of rigid particles down an inclined chute (ch. 9)",
    gc_chute_options },
  { "data", gc_cmd_data, "read a compression, drop or load-path CSV as fit reads it, in SI",
    gc_data_options },
  { "export", gc_cmd_export, "write a LAMMPS deck of a chute card (pair style granucal plugin)",
    NULL },
  { "models", gc_cmd_models, "list the contact models", NULL },
};

static void usage(FILE *f)
{
  fprintf(f, "usage: granucal COMMAND [OPTIONS]\n"
             "       granucal -h | --help | -V | --version\n\n"
             "Calibrated elasto-plastic contact models for DEM (Vu-Quoc & Zhang).\n\n"
             "Commands:\n");
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].what);
  fprintf(f, "\n'granucal COMMAND --help' and 'man granucal-COMMAND' describe each command.\n");
}

/* `granucal models --names [normal|tangential]`: the model names one a line, for scripts and
 * the bash completion (-m takes a normal model, -t / --tfd a tangential one). */
static int print_model_names(const char *kind)
{
  int want_normal = 0, want_tangential = 0;
  if (!kind)
    want_normal = want_tangential = 1;
  else if (strcmp(kind, "normal") == 0)
    want_normal = 1;
  else if (strcmp(kind, "tangential") == 0)
    want_tangential = 1;
  else {
    fprintf(stderr, "granucal models: --names '%s': use normal or tangential\n", kind);
    return 2;
  }
  for (size_t i = 0; i < gc_preset_count(); i++) {
    const gc_preset *ps = gc_preset_at(i);
    if ((want_normal && ps->normal) || (want_tangential && ps->tangential))
      printf("%s\n", ps->name);
  }
  return 0;
}

int gc_cmd_models(int argc, char **argv)
{
  if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    printf("usage: granucal models [--names [normal|tangential]]\nList the contact sub-models by "
           "kind (normal, damping, tangential, rolling, twisting) with their history size and "
           "the parameters they read, the model names (presets = compositions of sub-models) "
           "and the parameter table (key, unit, range, equation).\n"
           "  --names [KIND]  only the model names, one a line: those with a normal part (the "
           "values of -m), a tangential part (-t, --tfd), or both\n");
    return 0;
  }
  if (argc > 1 && strcmp(argv[1], "--names") == 0 && argc <= 3)
    return print_model_names(argc == 3 ? argv[2] : NULL);
  if (argc > 1) {
    fprintf(stderr, "granucal models: unexpected argument '%s' (see --help)\n", argv[1]);
    return 2;
  }
  gc_models_print(stdout);
  return 0;
}

/* A write error on standard output (a full disk, /dev/full, a closed pipe) is a failure even
 * when the command itself succeeded: results that did not arrive are not results. */
static int check_stdout(int rc)
{
  errno = 0;
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "granucal: standard output: write error: %s\n",
            errno ? strerror(errno) : "unknown");
    return rc ? rc : 1;
  }
  return rc;
}

/* `granucal --complete COMMAND` (the long options, one a line, for the bash completion) and
 * `granucal --man-options COMMAND` (the header lines of the man page's OPTIONS), from the
 * command's option table.  Status 1 for a command without one. */
static int print_options(const char *what, const char *name)
{
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
    if (strcmp(name, commands[i].name) != 0)
      continue;
    if (!commands[i].options)
      return 1;
    if (strcmp(what, "--complete") == 0)
      gc_cli_complete_options(stdout, commands[i].options);
    else
      gc_cli_man_options(stdout, commands[i].options);
    return 0;
  }
  fprintf(stderr, "granucal: %s: unknown command '%s'\n", what, name);
  return 2;
}

static int run(int argc, char **argv)
{
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    usage(stdout);
    return 0;
  }
  if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
    printf("granucal %s\nbuilt with CFLAGS: %s\n", GC_VERSION, GC_BUILD_CFLAGS);
    return 0;
  }
  if ((strcmp(argv[1], "--complete") == 0 || strcmp(argv[1], "--man-options") == 0) && argc == 3)
    return print_options(argv[1], argv[2]);
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (strcmp(argv[1], commands[i].name) == 0)
      return commands[i].run(argc - 1, argv + 1);
  gc_suggest sg;
  gc_suggest_init(&sg, argv[1]);
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    gc_suggest_add(&sg, commands[i].name);
  char dym[96];
  fprintf(stderr, "granucal: unknown command '%s'%s\n\n", argv[1],
          gc_suggest_text(&sg, dym, sizeof dym));
  usage(stderr);
  return 2;
}

int main(int argc, char **argv)
{
  /* GSL's default error handler aborts the process; every GSL call in the library reports its
   * failure as a status that the caller checks and turns into a message (libgranucal(3)). */
  gsl_set_error_handler_off();
  if (gc_signals_install()) {
    fprintf(stderr, "granucal: cannot install the signal handlers\n");
    return 1;
  }
  return check_stdout(run(argc, argv));
}
