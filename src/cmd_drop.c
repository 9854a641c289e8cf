/* cmd_drop.c - `granucal drop`: normal impact of a sphere on a rigid plane (sec. 6.5). */
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_common.h"
#include "fit.h"
#include "drop_sim.h"
#include "gc_io.h"
#include "timestep.h"

#define GC_G 9.80665 /* standard gravity [m/s^2] */

/* The options of `granucal drop` (rows of drop_options below). */
typedef struct {
  const char *nfd_name, *card, *sweep, *history, *out;
  gc_cli_list sets;
  double vin, height, dt;
  long ntcol;
  int verlet, gravity, quiet, help;
} drop_opts;

#define ROW(field) .offset = offsetof(drop_opts, field)
const gc_cli_opt gc_drop_options[] = {
  GC_CLI_ROW_MODEL(ROW(nfd_name), "normal model (default: the card's 'model', else ep)"),
  GC_CLI_ROW_CARD(ROW(card), "material card or parameter file"),
  GC_CLI_ROW_SET(ROW(sets), "set one parameter (repeatable)"),
  GC_CLI_LAW_ROWS(drop_opts, sets),
  { .name = "vin",
    .kind = GC_OPT_DOUBLE,
    .metavar = "V",
    .man_arg = "v",
    .lo = 0,
    .hi = 1e4,
    .lo_open = 1,
    .unit = "m/s",
    ROW(vin),
    .help = "impact speed [m/s]" },
  { .name = "height",
    .kind = GC_OPT_DOUBLE,
    .metavar = "H",
    .man_arg = "H",
    .lo = 0,
    .hi = 1e6,
    .lo_open = 1,
    .unit = "m",
    ROW(height),
    .help = "drop height [m]: v_in = sqrt(2 g H), g = 9.80665 m/s^2" },
  { .name = "sweep",
    .kind = GC_OPT_FILE,
    .metavar = "FILE",
    .man_arg = "file",
    ROW(sweep),
    .help = "drop CSV (as granucal fit reads it) with v_in [m/s] and/or H [m];\n"
            "one impact per row; other columns are ignored with a note" },
  { .name = "dt",
    .kind = GC_OPT_DOUBLE,
    .metavar = "DT",
    .man_arg = "dt",
    .lo = 0,
    .hi = 1,
    .lo_open = 1,
    .unit = "s",
    ROW(dt),
    .help = "time step [s] (default 1e-6, the seed's); refused above t_c/10" },
  { .name = "ntcol",
    .kind = GC_OPT_LONG,
    .metavar = "N",
    .man_arg = "N",
    .lo = GC_DT_REFUSE_NTCOL,
    .hi = 10000000,
    ROW(ntcol),
    .help = "time step = contact duration t_c (eq. 3.22) / N, N in [10, 1e7]" },
  { .name = "verlet",
    .kind = GC_OPT_FLAG,
    ROW(verlet),
    .help = "velocity Verlet instead of leap-frog" },
  { .name = "gravity",
    .kind = GC_OPT_FLAG,
    ROW(gravity),
    .help = "gravity acts during the contact (default: none, as sec. 6.5)" },
  { .name = "history",
    .kind = GC_OPT_FILE,
    .metavar = "FILE",
    .man_arg = "file",
    ROW(history),
    .help = "with --vin/--height: t, alpha, P, v history as CSV" },
  { .name = "output",
    .letter = 'o',
    .kind = GC_OPT_FILE,
    .metavar = "FILE",
    .man_arg = "file",
    ROW(out),
    .help = "results CSV (default: standard output)" },
  GC_CLI_ROW_QUIET(ROW(quiet), "no summary on standard error"),
  GC_CLI_ROW_HELP(ROW(help)),
  { .name = NULL }
};
#undef ROW
enum {
  ROW_VIN = 3 + GC_CLI_LAW_NROWS,
  ROW_HEIGHT,
  ROW_SWEEP,
  ROW_DT,
  ROW_NTCOL,
  ROW_COUNT = 15 + GC_CLI_LAW_NROWS
};

static void drop_usage(FILE *f)
{
  fprintf(f, "usage: granucal drop [-m NFD] [-c CARD] [-s KEY=VALUE]...\n"
             "                     (--vin V | --height H | --sweep FILE.csv)\n"
             "                     [--dt DT | --ntcol N] [--verlet] [--gravity]\n"
             "                     [--history FILE.csv] [-o OUT.csv] [-q]\n\n"
             "Normal impact of one sphere (mass from the card's m or rho and R) on a rigid\n"
             "frictionless plane, leap-frog integration (sec. 6.5.1) or velocity Verlet.  With R2 "
             "> 0\n"
             "in the card, a head-on impact of two spheres: v_in is their relative speed and the\n"
             "reduced mass m m2 / (m + m2) moves (m2 from the card, or rho and R2).\n\n");
  gc_cli_help_options(f, gc_drop_options, 22);
  fprintf(
      f,
      "\n"
      "Output columns: v_in [m/s], v_out [m/s], e (v_out/v_in, eq. 6.42), e_energy (eq. 6.43),\n"
      "P_max [N], alpha_max [m], alpha_res [m], t_contact [s], t_hertz [s] (eq. 3.22), dt [s].\n");
}

typedef struct {
  FILE *f;
} hist_ctx;

static void hist_write(void *vctx, double t, double alpha, double P, double v)
{
  hist_ctx *h = vctx;
  fprintf(h->f, "%.10g,%.10g,%.10g,%.10g\n", t, alpha, P, v);
}

int gc_cmd_drop(int argc, char **argv)
{
  const char *prog = "granucal drop";
  drop_opts o = { 0 };
  int seen[ROW_COUNT] = { 0 }, first_operand = 1;
  if (gc_cli_list_alloc(&o.sets, argc, argv, 0))
    return 1;
  int bad = gc_cli_parse(prog, gc_drop_options, argc, argv, &o, seen, &first_operand);
  if (bad == GC_CLI_HELP)
    drop_usage(stdout);
  if (bad) {
    free(o.sets.v);
    return bad == GC_CLI_HELP ? 0 : bad;
  }
  const char *nfd_name = o.nfd_name, *card = o.card, *sweep = o.sweep, *history = o.history;
  const char *out = o.out;
  double vin = o.vin, height = o.height;
  int have_vin = seen[ROW_VIN], have_height = seen[ROW_HEIGHT], quiet = o.quiet;
  int have_dt = seen[ROW_DT], have_ntcol = seen[ROW_NTCOL];
  gc_drop_cfg cfg;
  gc_drop_cfg_default(&cfg);
  if (have_dt)
    cfg.dt = o.dt;
  if (have_ntcol)
    cfg.ntcol = (int)o.ntcol;
  if (o.verlet)
    cfg.integrator = GC_INTEGRATOR_VERLET;
  if (o.gravity)
    cfg.g = GC_G;
  char **sets = o.sets.v;
  size_t nsets = o.sets.n;
  if (gc_cli_sets_check(prog, sets, nsets, argc, argv, first_operand)) {
    free(sets);
    return 2;
  }
  if (first_operand < argc) {
    fprintf(stderr, "%s: unexpected argument '%s'\n", prog, argv[first_operand]);
    free(sets);
    return 2;
  }
  if (have_vin + have_height + (sweep != NULL) != 1) {
    fprintf(stderr, "%s: give exactly one of --vin, --height or --sweep\n", prog);
    free(sets);
    return 2;
  }
  if (have_dt && have_ntcol) {
    fprintf(stderr, "%s: give --dt or --ntcol, not both\n", prog);
    free(sets);
    return 2;
  }
  if (have_ntcol)
    cfg.dt = 0;
  if (history && (!out || strcmp(out, "-") == 0) && strcmp(history, "-") == 0) {
    fprintf(stderr, "%s: --history - and the results cannot both go to standard output (use -o)\n",
            prog);
    free(sets);
    return 2;
  }
  if (history && sweep) {
    fprintf(stderr, "%s: --history needs a single impact (--vin or --height)\n", prog);
    free(sets);
    return 2;
  }

  {
    const char *outs[] = { out, history }, *ins[] = { card, sweep };
    if (gc_cli_outputs_check(prog, outs, 2, ins, 2)) {
      free(sets);
      return 1;
    }
  }
  gc_params p;
  gc_card_extra x;
  gc_law law;
  int rc = gc_cli_load_params(prog, card, sets, nsets, &p, &x);
  free(sets);
  if (rc)
    return rc;
  /* Against a plane the sphere's own mass moves; for two spheres the relative motion along
   * the line of centres has the reduced mass m1 m2 / (m1 + m2) and v_in is the relative speed. */
  cfg.mass = gc_cli_reduced_mass(&p, &x);
  if (!(cfg.mass > 0)) {
    fprintf(stderr,
            "%s: a mass is unknown: give m [kg] (and m2 for a second sphere) or rho "
            "[kg/m^3] in the card or with --set\n",
            prog);
    return 1;
  }
  gc_cli_fill_effective_mass(&p, &x);
  if (!(p.R2 > 0) && p.E2 > 0) {
    fprintf(stderr, "%s: body 2 is a plane (R2 = 0): it must be rigid (E2 = 0)\n", prog);
    return 1;
  }
  rc = gc_cli_law(prog, nfd_name, "none", &x, &p, card, &law);
  if (rc)
    return rc;

  /* impact speeds */
  size_t n = 1;
  double *speeds = NULL;
  char msg[512];
  if (sweep) {
    /* the drop-file reader of `granucal fit` (one contract for every tool): v_in and/or H,
     * units converted, unknown columns ignored, each with a note */
    gc_fit_data dd;
    memset(&dd, 0, sizeof dd);
    if (gc_fit_read_drops_ex(&dd, sweep, GC_G, 0, msg, sizeof msg)) {
      fprintf(stderr, "%s: %s\n", prog, msg);
      gc_fit_data_free(&dd);
      return 1;
    }
    gc_cli_print_notes(prog, dd.notes, 0);
    n = dd.n_drop;
    speeds = malloc(n * sizeof *speeds);
    if (!speeds) {
      gc_fit_data_free(&dd);
      return 1;
    }
    for (size_t i = 0; i < n; i++)
      speeds[i] = dd.v_in[i];
    gc_fit_data_free(&dd);
  } else {
    speeds = malloc(sizeof *speeds);
    if (!speeds)
      return 1;
    speeds[0] = have_vin ? vin : gc_drop_speed_from_height(height, GC_G);
  }

  /* the time step against the contact duration at every impact speed, before any work */
  for (size_t i = 0; i < n; i++) {
    double tc;
    if (gc_law_contact_time_msg(&law, cfg.mass, speeds[i], &tc, msg, sizeof msg)) {
      fprintf(stderr, "%s: %s%s%s\n", prog, card ? card : "", card ? ": " : "", msg);
      free(speeds);
      return 1;
    }
    if (gc_impact_overlap_precheck(&law, cfg.mass, speeds[i], "E too small or v_in too large", msg,
                                   sizeof msg)) {
      fprintf(stderr, "%s: %s%s%s\n", prog, card ? card : "", card ? ": " : "", msg);
      free(speeds);
      return 1;
    }
    double dt = cfg.dt > 0 ? cfg.dt : tc / cfg.ntcol;
    char what[96];
    snprintf(what, sizeof what, "the impact at v_in = %.4g m/s", speeds[i]);
    int k = gc_dt_check(dt, tc, what, msg, sizeof msg);
    if (k == GC_DT_REFUSE) {
      fprintf(stderr, "%s: --dt: %s\n", prog, msg);
      free(speeds);
      return 1;
    }
    if (k == GC_DT_WARN && !quiet)
      fprintf(stderr, "%s: warning: %s\n", prog, msg);
    snprintf(what, sizeof what, "the contact duration t_c at v_in = %.4g m/s", speeds[i]);
    if (gc_steps_check(dt, tc, what, tc / GC_DT_REFUSE_NTCOL, GC_SEC_PER_CONTACT_STEP, msg,
                       sizeof msg)) {
      fprintf(stderr, "%s: --dt: %s\n", prog, msg);
      free(speeds);
      return 1;
    }
  }

  gc_outfile of, hf;
  int st = gc_outfile_open(&of, out, msg, sizeof msg);
  if (st) {
    fprintf(stderr, "%s: %s\n", prog, msg);
    free(speeds);
    return 1;
  }
  if (history && (st = gc_outfile_open(&hf, history, msg, sizeof msg))) {
    fprintf(stderr, "%s: %s\n", prog, msg);
    gc_outfile_abort(&of);
    free(speeds);
    return 1;
  }
  hist_ctx hc = { history ? hf.f : NULL };
  if (history)
    fprintf(hf.f, "t [s],alpha [m],P [N],v [m/s]\n");
  fprintf(of.f, "v_in [m/s],v_out [m/s],e,e_energy,P_max [N],alpha_max [m],alpha_res [m],"
                "t_contact [s],t_hertz [s],dt [s]\n");
  for (size_t i = 0; i < n && !st; i++) {
    gc_drop_result r;
    st = gc_drop_run(&law, &cfg, speeds[i], &r, history ? hist_write : NULL, &hc);
    if (st == GC_EPHYS && gc_law_overlap_check(&law, r.t_contact, r.alpha_max,
                                               "E too small or v_in too large", msg, sizeof msg)) {
      fprintf(stderr, "%s: impact at v_in = %g m/s: %s; refusing the result\n", prog, speeds[i],
              msg);
      break;
    }
    if (st && st != GC_EPHYS) {
      fprintf(stderr, "%s: impact at v_in = %g m/s failed: %s%s\n", prog, speeds[i],
              gc_strerror(st), st == GC_ENOCONV ? " (the sphere did not rebound)" : "");
      break;
    }
    if (st == GC_EPHYS) {
      fprintf(stderr,
              "%s: impact at v_in = %g m/s: e = %.6g (energy %.6g) > 1: the contact "
              "created energy, which no passive contact law may do; refusing the "
              "result (dt = %g s)\n",
              prog, speeds[i], r.e_vel, r.e_energy, r.dt);
      st = GC_EINVAL;
      break;
    }
    double th = law.pair.E_star > 0
                    ? gc_hertz_contact_time(cfg.mass, law.pair.R_star, law.pair.E_star, speeds[i])
                    : 0.0;
    fprintf(of.f, "%.10g,%.10g,%.8f,%.8f,%.10g,%.10g,%.10g,%.10g,%.10g,%.6g\n", r.v_in, r.v_out,
            r.e_vel, r.e_energy, r.P_max, r.alpha_max, r.alpha_res, r.t_contact, th, r.dt);
    if (!quiet)
      fprintf(stderr,
              "v_in = %.6g m/s: v_out = %.6g m/s, e = %.5f (energy %.5f), P_max = %.6g N, "
              "t_contact = %.4g s\n",
              r.v_in, r.v_out, r.e_vel, r.e_energy, r.P_max, r.t_contact);
  }
  free(speeds);
  if (st) {
    gc_outfile_abort(&of);
    if (history)
      gc_outfile_abort(&hf);
    return 1;
  }
  if ((history && gc_outfile_commit(&hf, msg, sizeof msg)) ||
      gc_outfile_commit(&of, msg, sizeof msg)) {
    fprintf(stderr, "%s: %s\n", prog, msg);
    gc_outfile_abort(&of);
    return 1;
  }
  return 0;
}
