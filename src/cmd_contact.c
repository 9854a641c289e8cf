/* cmd_contact.c - `granucal contact`: drive one contact along a load path. */
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "contact_sim.h"
#include "cli_common.h"
#include "gc_io.h"
#include "gc_model.h"
#include "timestep.h"

/* The options of `granucal contact` (rows of gc_contact_options). */
typedef struct {
  const char *nfd_name, *tfd_name, *card, *path, *ramp, *sine, *out;
  gc_cli_list sets;
  long steps;
  int quiet, help;
} contact_opts;

#define ROW(field) .offset = offsetof(contact_opts, field)
const gc_cli_opt gc_contact_options[] = {
  GC_CLI_ROW_MODEL(ROW(nfd_name), "normal model (default: the card's 'model', else ep)"),
  GC_CLI_ROW_TFD(ROW(tfd_name), "tangential model, or 'none' (default: the card's 'tfd', else the\n"
                                "normal model's own tangential part, else none)"),
  GC_CLI_ROW_CARD(ROW(card),
                  "material card (key = value lines), e.g. data/materials/aluminium.card"),
  GC_CLI_ROW_SET(ROW(sets), "set one parameter (repeatable; applied after the card)"),
  GC_CLI_LAW_ROWS(contact_opts, sets),
  { .name = "path",
    .letter = 'p',
    .kind = GC_OPT_FILE,
    .metavar = "FILE",
    .man_arg = "file",
    ROW(path),
    .help = "load path CSV with columns t and alpha [m] (displacement-driven) or\n"
            "P [N] (force-driven), optionally delta [m] or Q [N]" },
  { .name = "ramp",
    .kind = GC_OPT_STRING,
    .metavar = "PMAX",
    .man_arg = "pmax",
    ROW(ramp),
    .help = "built-in path: P = 0 -> PMAX -> 0 [N], force-driven" },
  { .name = "sine",
    .kind = GC_OPT_STRING,
    .metavar = "P0,P1,Q1",
    .man_arg = "\" p0\" , p1 , q1",
    ROW(sine),
    .help = "built-in path of sec. 5.3: P = P0 + P1 sin(2 pi t),\n"
            "Q = Q1 sin(2 pi t), t in [0, 1]" },
  { .name = "steps",
    .letter = 'n',
    .kind = GC_OPT_LONG,
    .metavar = "N",
    .man_arg = "steps",
    .lo = 1,
    .hi = 100000000,
    ROW(steps),
    .help = "steps of a built-in path (default 2000)" },
  { .name = "output",
    .letter = 'o',
    .kind = GC_OPT_FILE,
    .metavar = "FILE",
    .man_arg = "file",
    ROW(out),
    .help = "output CSV (default: standard output); written atomically" },
  GC_CLI_ROW_QUIET(ROW(quiet), "no summary on standard error"),
  GC_CLI_ROW_HELP(ROW(help)),
  { .name = NULL }
};
#undef ROW

static void contact_usage(FILE *f)
{
  fprintf(f, "usage: granucal contact [-m NFD] [-t TFD] [-c CARD] [-s KEY=VALUE]...\n"
             "                        (-p PATH.csv | --ramp PMAX | --sine P0,P1,Q1) [-n STEPS]\n"
             "                        [-o OUT.csv] [-q]\n\n"
             "Drive one contact along a load path and write its history as CSV.\n\n");
  gc_cli_help_options(f, gc_contact_options, 21);
  fprintf(f, "\n"
             "Output columns: t [s], alpha [m], P [N], a_e [m], a_p [m], delta [m], Q [N],\n"
             "K_T [N/m], flags (L loading, P yielded, S sliding, N non-simple tangential step).\n"
             "The summary gives P_max, alpha_max, alpha_res and the energy-based restitution\n"
             "coefficient e = sqrt(W_unload / W_load) (eq. 6.43).\n\n"
             "Card and --set keys:\n");
  gc_card_print_keys(f);
  fprintf(f, "\nModels: ");
  for (size_t i = 0; i < gc_preset_count(); i++)
    fprintf(f, "%s%s", i ? ", " : "", gc_preset_at(i)->name);
  fprintf(f, " ('granucal models' describes them).\n");
}

static int write_csv(FILE *f, const gc_contact_rec *r, size_t n)
{
  fprintf(f, "t [s],alpha [m],P [N],a_e [m],a_p [m],delta [m],Q [N],K_T [N/m],flags\n");
  for (size_t i = 0; i < n; i++) {
    char fl[5];
    gc_flags_string(r[i].flags, fl);
    fprintf(f, "%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%s\n", r[i].t, r[i].alpha, r[i].P,
            r[i].a_e, r[i].a_p, r[i].delta, r[i].Q, r[i].K_T, fl);
  }
  return ferror(f) ? GC_EIO : GC_SUCCESS;
}

int gc_cmd_contact(int argc, char **argv)
{
  contact_opts o = { .steps = 2000 };
  if (gc_cli_list_alloc(&o.sets, argc, argv, 0)) {
    fprintf(stderr, "granucal contact: out of memory\n");
    return 1;
  }
  int first_operand = 1;
  int bad =
      gc_cli_parse("granucal contact", gc_contact_options, argc, argv, &o, NULL, &first_operand);
  if (bad == GC_CLI_HELP)
    contact_usage(stdout);
  if (bad) {
    free(o.sets.v);
    return bad == GC_CLI_HELP ? 0 : bad;
  }
  const char *nfd_name = o.nfd_name, *tfd_name = o.tfd_name, *card = o.card, *path = o.path;
  const char *out = o.out, *ramp = o.ramp, *sine = o.sine;
  size_t steps = (size_t)o.steps;
  int quiet = o.quiet;
  char **sets = o.sets.v;
  size_t nsets = o.sets.n;
  if (gc_cli_sets_check("granucal contact", sets, nsets, argc, argv, first_operand)) {
    free(sets);
    return 2;
  }
  if (first_operand < argc) {
    fprintf(stderr, "granucal contact: unexpected argument '%s' (see --help)\n",
            argv[first_operand]);
    free(sets);
    return 2;
  }
  if ((path != NULL) + (ramp != NULL) + (sine != NULL) != 1) {
    fprintf(stderr, "granucal contact: give exactly one load path: --path, --ramp or --sine\n");
    free(sets);
    return 2;
  }

  double ramp_max = 0, sine_v[3] = { 0, 0, 0 };
  if (ramp && gc_cli_double("granucal contact", "--ramp", ramp, 0, 1e12, 1, 0, "N", &ramp_max)) {
    free(sets);
    return 2;
  }
  if (sine) {
    /* P0,P1,Q1: three strict numbers */
    char *a = strdup(sine), *save = NULL, *tok = a ? strtok_r(a, ",", &save) : NULL;
    int k = 0, bad = !a;
    for (; tok && !bad && k < 3; k++, tok = strtok_r(NULL, ",", &save))
      bad = gc_cli_double("granucal contact", "--sine", tok, -1e12, 1e12, 0, 0, "N", &sine_v[k]);
    if (!bad && (k != 3 || tok)) {
      fprintf(stderr, "granucal contact: --sine '%s': expected P0,P1,Q1 (three numbers)\n", sine);
      bad = 2;
    }
    free(a);
    if (bad) {
      free(sets);
      return 2;
    }
  }
  {
    const char *outs[] = { out }, *ins[] = { card, path };
    if (gc_cli_outputs_check("granucal contact", outs, 1, ins, 2)) {
      free(sets);
      return 1;
    }
  }

  char msg[512];
  gc_params p;
  gc_card_extra x;
  gc_law law;
  int rc = gc_cli_load_params("granucal contact", card, sets, nsets, &p, &x);
  free(sets);
  if (rc)
    return rc;
  gc_cli_fill_effective_mass(&p, &x);
  rc = gc_cli_law("granucal contact", nfd_name, tfd_name, &x, &p, card, &law);
  if (rc)
    return rc;

  gc_loadpath lp;
  int st;
  if (path) {
    st = gc_loadpath_read(path, &lp, msg, sizeof msg);
  } else if (ramp) {
    st = gc_loadpath_ramp(&lp, ramp_max, steps, msg, sizeof msg);
  } else {
    st = gc_loadpath_sine(&lp, sine_v[0], sine_v[1], sine_v[2], steps, msg, sizeof msg);
  }
  if (st) {
    fprintf(stderr, "granucal contact: %s\n", msg);
    return st == GC_EINVAL ? 2 : 1;
  }
  gc_cli_print_notes("granucal contact", lp.notes, quiet);
  if (lp.tangential != GC_DRIVE_NONE && !gc_law_frictional(&law)) {
    fprintf(stderr, "granucal contact: the load path has a tangential column but no tangential "
                    "model is selected (use --tfd)\n");
    gc_loadpath_free(&lp);
    return 2;
  }

  gc_contact_rec *recs = calloc(lp.n, sizeof *recs);
  if (!recs) {
    fprintf(stderr, "granucal contact: out of memory\n");
    gc_loadpath_free(&lp);
    return 1;
  }
  gc_contact_summary sum;
  const int tangential = lp.tangential; /* lp is freed before the summary is printed */
  st = gc_contact_run(&law, &lp, recs, &sum, msg, sizeof msg);
  if (st) {
    fprintf(stderr, "granucal contact: %s%s%s\n", path ? path : "", path ? ": " : "", msg);
    free(recs);
    gc_loadpath_free(&lp);
    return 1;
  }
  if (!isfinite(sum.e_energy) || sum.e_energy > 1.0 + GC_E_TOL) {
    /* W_unload > W_load: the normal contact returned more work than it took */
    fprintf(stderr,
            "granucal contact: e = sqrt(W_unload / W_load) = %.6g > 1 (W_load = %g J, "
            "W_unload = %g J): the model created energy; refusing the result\n",
            sum.e_energy, sum.W_load, sum.W_unload);
    free(recs);
    gc_loadpath_free(&lp);
    return 1;
  }
  gc_outfile of;
  st = gc_outfile_open(&of, out, msg, sizeof msg);
  if (!st) {
    st = write_csv(of.f, recs, lp.n);
    if (st) {
      gc_outfile_abort(&of);
      snprintf(msg, sizeof msg, "%s: write error", out ? out : "standard output");
    } else {
      st = gc_outfile_commit(&of, msg, sizeof msg);
    }
  }
  free(recs);
  gc_loadpath_free(&lp);
  if (st) {
    fprintf(stderr, "granucal contact: %s\n", msg);
    return 1;
  }
  if (!quiet) {
    fprintf(stderr, "model: normal %s, tangential %s\n", law.name_normal, law.name_tangential);
    if (law.pair.P_Y > 0)
      fprintf(stderr, "P_Y = %.6g N (A_Y = %.4f), alpha_Y = %.6g m\n", law.pair.P_Y, law.pair.A_Y,
              law.pair.alpha_Y);
    fprintf(stderr, "P_max = %.6g N, alpha_max = %.6g m, alpha_res = %.6g m\n", sum.P_max,
            sum.alpha_max, sum.alpha_res);
    fprintf(stderr, "e (energy, eq. 6.43) = %.5f  (W_load = %.6g J, W_unload = %.6g J)\n",
            sum.e_energy, sum.W_load, sum.W_unload);
    if (tangential != GC_DRIVE_NONE)
      fprintf(stderr, "Q_max = %.6g N, sliding steps = %ld, non-simple steps = %ld\n", sum.Q_max,
              sum.n_sliding, sum.n_nonsimple);
  }
  return 0;
}
