/* cmd_compare.c - `granucal compare`: contact models against a reference curve (sec. 6.4). */
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_common.h"
#include "compare.h"
#include "data_check.h"
#include "gc_io.h"
#include "gc_model.h"

#define PROG "granucal compare"
#define MAX_MODELS 16

/* The options of `granucal compare` (rows of gc_compare_options). */
typedef struct {
  const char *models, *card, *out, *curves;
  gc_cli_list sets;
  int force, quiet, help;
} compare_opts;

#define ROW(field) .offset = offsetof(compare_opts, field)
const gc_cli_opt gc_compare_options[] = {
  { .name = "models",
    .letter = 'm',
    .kind = GC_OPT_STRING,
    .metavar = "LIST",
    .man_arg = "list",
    ROW(models),
    .help = "normal models, comma-separated (default ep,thornton,hertz)" },
  GC_CLI_ROW_CARD(ROW(card), "material card, e.g. data/materials/aluminium.card"),
  GC_CLI_ROW_SET(ROW(sets), "set one parameter (repeatable; applied after the card)"),
  GC_CLI_LAW_ROWS(compare_opts, sets),
  { .name = "force",
    .kind = GC_OPT_FLAG,
    ROW(force),
    .help = "replay the reference's force path (P in, alpha out; the errors\n"
            "are then displacement errors [m]); default: its displacement path" },
  { .name = "output",
    .letter = 'o',
    .kind = GC_OPT_FILE,
    .metavar = "FILE",
    .man_arg = "file",
    ROW(out),
    .help = "the table as CSV (written atomically)" },
  { .name = "curves",
    .kind = GC_OPT_FILE,
    .metavar = "FILE",
    .man_arg = "file",
    ROW(curves),
    .help = "the curves as CSV: t, alpha_ref, P_ref, then alpha and P of\n"
            "each model (for scripts/plot-compare)" },
  GC_CLI_ROW_QUIET(ROW(quiet), "no table on standard output"),
  GC_CLI_ROW_HELP(ROW(help)),
  { .name = NULL }
};
#undef ROW

static void compare_usage(FILE *f)
{
  fprintf(f,
          "usage: granucal compare [-m MODEL[,MODEL...]] [-c CARD] [-s KEY=VALUE]... [--force]\n"
          "                        [-o TABLE.csv] [--curves CURVES.csv] [-q] REFERENCE.csv\n\n"
          "Replay a reference force-displacement curve (an FEA curve of scripts/fea-sphere, a\n"
          "cyclic compression test) through contact models and compare, as in the\n"
          "dissertation's sec. 6.4: P_max, alpha_max, residual displacement, dissipated energy,\n"
          "energy restitution e = sqrt(W_unload / W_load) (eq. 6.43) and the RMS and largest\n"
          "force error on the loading and on the unloading branches.\n\n");
  gc_cli_help_options(f, gc_compare_options, 21);
  fprintf(f, "\n"
             "REFERENCE.csv has the columns alpha [m] and P [N], optionally t [s] and a [m].\n"
             "Models: ");
  int first = 1;
  for (size_t i = 0; i < gc_preset_count(); i++)
    if (gc_preset_at(i)->normal) {
      fprintf(f, "%s%s", first ? "" : ", ", gc_preset_at(i)->name);
      first = 0;
    }
  fprintf(f, ".\n");
}

static double pct(double v, double ref)
{
  return isfinite(v) && isfinite(ref) && ref != 0 ? 100.0 * (v - ref) / ref : NAN;
}

static void print_num(FILE *f, const char *fmt, double v, int width)
{
  if (isfinite(v))
    fprintf(f, fmt, width, v);
  else
    fprintf(f, "%*s", width, "-");
}

static void print_row(FILE *f, const char *name, const gc_curve_stats *s, const gc_curve_stats *r)
{
  fprintf(f, "%-10s", name);
  print_num(f, "%*.1f", s->P_max, 10);
  print_num(f, "%+*.1f", r ? pct(s->P_max, r->P_max) : NAN, 8);
  print_num(f, "%*.4e", s->alpha_max, 12);
  print_num(f, "%*.4e", s->alpha_res, 12);
  print_num(f, "%*.4e", s->W_diss, 12);
  print_num(f, "%*.4f", s->e, 8);
  print_num(f, "%+*.1f", r ? pct(s->e, r->e) : NAN, 7);
  print_num(f, "%*.4g", s->rms_load, 11);
  print_num(f, "%*.4g", s->max_load, 11);
  print_num(f, "%*.4g", s->rms_unload, 11);
  print_num(f, "%*.4g", s->max_unload, 11);
  fprintf(f, "\n");
}

static void csv_num(FILE *f, double v)
{
  if (isfinite(v))
    fprintf(f, ",%.10g", v);
  else
    fprintf(f, ",");
}

static void csv_row(FILE *f, const char *name, const gc_curve_stats *s, const gc_curve_stats *r)
{
  fprintf(f, "%s", name);
  csv_num(f, s->P_max);
  csv_num(f, r ? pct(s->P_max, r->P_max) : NAN);
  csv_num(f, s->alpha_max);
  csv_num(f, s->alpha_res);
  csv_num(f, s->W_load);
  csv_num(f, s->W_unload);
  csv_num(f, s->W_diss);
  csv_num(f, s->e);
  csv_num(f, r ? pct(s->e, r->e) : NAN);
  csv_num(f, s->rms_load);
  csv_num(f, s->max_load);
  csv_num(f, s->rms_unload);
  csv_num(f, s->max_unload);
  fprintf(f, "\n");
}

/* What the outputs are written from. */
typedef struct {
  const char *refpath;
  int drive;
  const gc_curve *ref;
  const gc_curve_stats *rs, *ms;
  char (*names)[32];
  size_t nm;
  const double *am, *Pm;
} compare_result;

/* -o: the table */
static void write_table(FILE *f, const compare_result *r)
{
  const char *eu = r->drive == GC_COMPARE_FORCE ? "m" : "N";
  fprintf(f, "# granucal compare: %s, %s-driven replay\n", r->refpath,
          r->drive == GC_COMPARE_FORCE ? "force" : "displacement");
  fprintf(f,
          "model,P_max [N],dP_max [%%],alpha_max [m],alpha_res [m],W_load [J],"
          "W_unload [J],W_diss [J],e [-],de [%%],rms_load [%s],max_load [%s],"
          "rms_unload [%s],max_unload [%s]\n",
          eu, eu, eu, eu);
  csv_row(f, "reference", r->rs, NULL);
  for (size_t k = 0; k < r->nm; k++)
    csv_row(f, r->names[k], &r->ms[k], r->rs);
}

/* --curves: the reference and the models' curves */
static void write_curves(FILE *f, const compare_result *r)
{
  const gc_curve *ref = r->ref;
  fprintf(f, "# granucal compare: %s\nt [s],alpha_ref [m],P_ref [N]", r->refpath);
  for (size_t k = 0; k < r->nm; k++)
    fprintf(f, ",alpha_%s [m],P_%s [N]", r->names[k], r->names[k]);
  fprintf(f, "\n");
  for (size_t i = 0; i < ref->n; i++) {
    fprintf(f, "%.10g,%.10g,%.10g", ref->t[i], ref->alpha[i], ref->P[i]);
    for (size_t k = 0; k < r->nm; k++)
      fprintf(f, ",%.10g,%.10g", r->am[k * ref->n + i], r->Pm[k * ref->n + i]);
    fprintf(f, "\n");
  }
}

int gc_cmd_compare(int argc, char **argv)
{
  compare_opts o = { .models = "ep,thornton,hertz" };
  if (gc_cli_list_alloc(&o.sets, argc, argv, 0)) {
    fprintf(stderr, PROG ": out of memory\n");
    return 1;
  }
  int first_operand = 1;
  int rc = gc_cli_parse(PROG, gc_compare_options, argc, argv, &o, NULL, &first_operand);
  if (rc == GC_CLI_HELP)
    compare_usage(stdout);
  if (rc) {
    free(o.sets.v);
    return rc == GC_CLI_HELP ? 0 : rc;
  }
  const char *models = o.models, *card = o.card, *out = o.out, *curves = o.curves;
  int drive = o.force ? GC_COMPARE_FORCE : GC_COMPARE_ALPHA, quiet = o.quiet;
  char **sets = o.sets.v;
  size_t nsets = o.sets.n;
  if (gc_cli_sets_check(PROG, sets, nsets, argc, argv, first_operand)) {
    free(sets);
    return 2;
  }
  if (first_operand != argc - 1) {
    fprintf(stderr, PROG ": give exactly one reference curve (see --help)\n");
    free(sets);
    return 2;
  }
  const char *refpath = argv[first_operand];
  struct {
    const char *path;
    void (*write)(FILE *, const compare_result *);
  } outputs[] = { { out, write_table }, { curves, write_curves } };
  {
    gc_outplan plan;
    gc_outplan_init(&plan);
    for (size_t k = 0; k < sizeof outputs / sizeof outputs[0]; k++)
      gc_outplan_file(&plan, outputs[k].path, NULL);
    gc_outplan_input(&plan, card, -1);
    gc_outplan_input(&plan, refpath, -1);
    int clash = gc_cli_outplan_check(PROG, &plan);
    gc_outplan_free(&plan);
    if (clash) {
      free(sets);
      return 1;
    }
  }

  /* the model list */
  char names[MAX_MODELS][32];
  size_t nm = 0;
  for (const char *p = models; *p;) {
    size_t l = strcspn(p, ",");
    if (l == 0 || l >= sizeof names[0] || nm == MAX_MODELS) {
      fprintf(stderr, PROG ": --models '%s': expected up to %d comma-separated model names\n",
              models, MAX_MODELS);
      free(sets);
      return 2;
    }
    memcpy(names[nm], p, l);
    names[nm][l] = 0;
    const gc_preset *m = gc_preset_lookup(names[nm]);
    if (!m || !m->normal) {
      fprintf(stderr, PROG ": '%s' is not a normal model (see 'granucal models')\n", names[nm]);
      free(sets);
      return 2;
    }
    nm++;
    p += l;
    if (*p == ',')
      p++;
  }

  gc_params par;
  gc_card_extra x;
  rc = gc_cli_load_params(PROG, card, sets, nsets, &par, &x);
  free(sets);
  if (rc)
    return rc;
  gc_cli_fill_effective_mass(&par, &x);

  char msg[1024];
  gc_curve ref;
  if (gc_curve_read(refpath, &ref, msg, sizeof msg)) {
    fprintf(stderr, PROG ": %s\n", msg);
    return 1;
  }
  if (gc_curve_check(&ref, par.R1, msg, sizeof msg)) {
    fprintf(stderr, PROG ": %s\n", msg);
    gc_curve_free(&ref);
    return 1;
  }
  gc_cli_print_notes(PROG, ref.notes, quiet);
  gc_curve_stats rs;
  gc_curve_stats_of(ref.alpha, ref.P, ref.n, &rs);
  if (!(rs.W_load > 0)) {
    fprintf(stderr,
            PROG ": %s: the curve never loads the contact (no step with alpha and P "
                 "increasing)\n",
            refpath);
    gc_curve_free(&ref);
    return 1;
  }
  double *am = calloc(nm * ref.n, sizeof *am), *Pm = calloc(nm * ref.n, sizeof *Pm);
  gc_curve_stats *ms = calloc(nm, sizeof *ms);
  if (!am || !Pm || !ms) {
    fprintf(stderr, PROG ": out of memory\n");
    rc = 1;
    goto done;
  }
  for (size_t k = 0; k < nm; k++) {
    gc_law law;
    rc = gc_cli_law(PROG, names[k], "none", &x, &par, card, &law);
    if (rc)
      goto done;
    if (gc_compare_run(&law, &ref, drive, am + k * ref.n, Pm + k * ref.n, &ms[k], msg,
                       sizeof msg)) {
      fprintf(stderr, PROG ": %s: model %s: %s\n", refpath, names[k], msg);
      rc = 1;
      goto done;
    }
  }

  compare_result res = { refpath, drive, &ref, &rs, ms, names, nm, am, Pm };
  if (!quiet) {
    printf("reference  %s (%zu points, %s-driven replay)\n", refpath, ref.n,
           drive == GC_COMPARE_FORCE ? "force" : "displacement");
    printf("%-10s%10s%8s%12s%12s%12s%8s%7s%11s%11s%11s%11s\n", "model", "P_max", "dP", "alpha_max",
           "alpha_res", "W_diss", "e", "de", "rms_load", "max_load", "rms_unld", "max_unld");
    const char *eu = drive == GC_COMPARE_FORCE ? "[m]" : "[N]";
    printf("%-10s%10s%8s%12s%12s%12s%8s%7s%11s%11s%11s%11s\n", "", "[N]", "[%]", "[m]", "[m]",
           "[J]", "[-]", "[%]", eu, eu, eu, eu);
    print_row(stdout, "reference", &rs, NULL);
    for (size_t k = 0; k < nm; k++)
      print_row(stdout, names[k], &ms[k], &rs);
    printf("e: energy restitution sqrt(W_unload / W_load) (eq. 6.43); dP, de: relative to the "
           "reference\n");
  }
  /* the outputs: one table that the guard (before any model runs) and the writing read */
  for (size_t k = 0; k < sizeof outputs / sizeof outputs[0] && !rc; k++) {
    if (!outputs[k].path)
      continue;
    gc_outfile of;
    if (gc_outfile_open(&of, outputs[k].path, msg, sizeof msg)) {
      fprintf(stderr, PROG ": %s\n", msg);
      rc = 1;
      break;
    }
    outputs[k].write(of.f, &res);
    if (gc_outfile_commit(&of, msg, sizeof msg)) {
      fprintf(stderr, PROG ": %s\n", msg);
      rc = 1;
    }
  }
done:
  free(am);
  free(Pm);
  free(ms);
  gc_curve_free(&ref);
  return rc;
}
